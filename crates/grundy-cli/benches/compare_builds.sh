#!/usr/bin/env bash
# Two builds of `grundy` side by side on the commands whose engines take the game model
# (the search for games by rules, the misère search of heap sums, the heap games' sequence and
# position engines, which take their rule as a GameSpec), in one run: each command runs RUNS
# times with the two binaries alternating, and the table gives the medians of the wall-clock
# times and their ratio (second / first).
#
#   mkdir ../grundy-other && git archive REV | tar -x -C ../grundy-other
#   (cd ../grundy-other && cargo build --release -p grundy-cli)
#   cargo build --release -p grundy-cli
#   RUNS=5 bash crates/grundy-cli/benches/compare_builds.sh ../grundy-other/target/release/grundy target/release/grundy
set -euo pipefail
first=${1:?usage: compare_builds.sh FIRST_GRUNDY SECOND_GRUNDY}
second=${2:?usage: compare_builds.sh FIRST_GRUNDY SECOND_GRUNDY}
runs=${RUNS:-5}
commands=(
  "solve chomp:7x8"
  "solve node-kayles:grid:5x6"
  "solve wythoff:60,60"
  "solve cram:5x5 --misere"
  "solve chomp:6x7 --misere"
  "position grundys-game 30 31 33 --misere" # the direct misère search, to its 200000 positions
  "seq kayles -n 2000000"
  "seq octal:0.137 -n 65536"
  "seq officers -n 300000"     # the sparse-space engine of a two-heap octal game
  "seq grundys-game -n 100000" # the sparse-space engine of Grundy's game
  "position octal:0.07 3000 5000 7000"
)
. "$(dirname "$0")/peer_bench.sh"
seconds() {
  local start end
  start=$(date +%s.%N)
  # A command may stop at a stated limit (exit 3): the work up to it is the same in both.
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
echo "| command | first s (median of $runs) | second s (median of $runs) | second / first |"
echo "|---|---|---|---|"
for c in "${commands[@]}"; do
  read -r -a args <<<"$c"
  a=(); b=()
  for _ in $(seq "$runs"); do
    a+=("$(seconds "$first" "${args[@]}")")
    b+=("$(seconds "$second" "${args[@]}")")
  done
  ma=$(printf '%s\n' "${a[@]}" | median)
  mb=$(printf '%s\n' "${b[@]}" | median)
  printf '| `grundy %s` | %s | %s | %s |\n' "$c" "$ma" "$mb" "$(ratio_rounded "$mb" "$ma")"
done
