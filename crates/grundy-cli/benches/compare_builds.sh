#!/usr/bin/env bash
# Two builds of `grundy` side by side on the commands whose engines take the game model
# (the search for games by rules, the misère search of heap sums, the heap games' sequence and
# position engines, which take their rule as a GameSpec), in one run: each command runs RUNS
# times with the two binaries alternating (they must print the same answer, and a run may end
# only with success or a stated limit), and the table gives the medians of the wall-clock
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
# Runs a command, leaves its standard output in the file $1, and prints its wall-clock seconds.
# A command may stop at a stated limit (exit 3): the work up to it is the same in both builds;
# any other failure stops the comparison.
seconds() {
  local into=$1 start end status=0
  shift
  start=$(date +%s.%N)
  "$@" >"$into" 2>/dev/null || status=$?
  end=$(date +%s.%N)
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    echo "compare_builds.sh: \`$*\` exited with status $status" >&2
    return 1
  fi
  echo "$end - $start" | bc -l
}
out_a=$(mktemp); out_b=$(mktemp)
trap 'rm -f "$out_a" "$out_b"' EXIT
echo "| command | first s (median of $runs) | second s (median of $runs) | second / first |"
echo "|---|---|---|---|"
for c in "${commands[@]}"; do
  read -r -a args <<<"$c"
  a=(); b=()
  for _ in $(seq "$runs"); do
    t=$(seconds "$out_a" "$first" "${args[@]}") || exit 1
    a+=("$t")
    t=$(seconds "$out_b" "$second" "${args[@]}") || exit 1
    b+=("$t")
    # The two builds must give the same answer.
    if ! cmp -s "$out_a" "$out_b"; then
      echo "compare_builds.sh: the builds answer \`grundy $c\` differently" >&2
      diff "$out_a" "$out_b" | head -5 >&2
      exit 1
    fi
  done
  ma=$(printf '%s\n' "${a[@]}" | median)
  mb=$(printf '%s\n' "${b[@]}" | median)
  printf '| `grundy %s` | %s | %s | %s |\n' "$c" "$ma" "$mb" "$(ratio_rounded "$mb" "$ma")"
done
