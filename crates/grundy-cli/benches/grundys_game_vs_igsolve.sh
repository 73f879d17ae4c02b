#!/usr/bin/env bash
# The value of one heap of Grundy's game: `grundy value grundys-game N` beside Beling and
# Rogalski's `igsolve grundy -p N`, in one run.
#
# The peer is built from crates.io, never vendored:
#     cargo install igsolve --root target/peers       # puts target/peers/bin/igsolve
# then, from the repository root:
#     cargo build --release -p grundy-cli
#     bash crates/grundy-cli/benches/grundys_game_vs_igsolve.sh [N ...]
#
# Settings (environment): GRUNDY (default target/release/grundy), IGSOLVE (default
# target/peers/bin/igsolve), RUNS (runs per heap and program, default 3: the median is shown),
# TIMEOUT (seconds a run may take, default 300). Both programs answer the same question, G(N):
# igsolve by its pruned search of the heap's positions (sums of heaps, split into components,
# with a transposition table), grundy by computing G(0..N) with its sparse-space engine on one
# thread (RAYON_NUM_THREADS=1). The two values must agree (a difference is reported on stderr
# and makes the exit status 1). Each row: the value, the median CPU time (user + system, from
# getrusage) of each process and their ratio grundy / igsolve (below 1: grundy is faster).
set -u
GRUNDY=${GRUNDY:-target/release/grundy}
IGSOLVE=${IGSOLVE:-target/peers/bin/igsolve}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-300}
export RAYON_NUM_THREADS=1
if [ $# -eq 0 ]; then
    set -- 1000 5000 20000 50000
fi

. "$(dirname "$0")/peer_bench.sh"

# Prints "VALUE CPU" for one run of a command (CPU: user + system seconds), or "- timeout".
run() {
    local out cpu
    cpu=$(mktemp)
    out=$(cpu_time_limited "$cpu" "$TIMEOUT" "$@" 2>&1)
    if [ $? -ne 0 ]; then
        rm -f "$cpu"
        echo "- timeout"
        return
    fi
    local v
    v=$(printf '%s\n' "$out" | sed -n 's/^\([0-9][0-9]*\)$/\1/p; s/^Nimber of initial position: \([0-9]*\)$/\1/p' | head -1)
    echo "${v:--} $(awk '{printf "%.4f\n", $1 + $2}' "$cpu")"
    rm -f "$cpu"
}



status=0
echo "| heap N | G(N) (grundy) | G(N) (igsolve) | grundy CPU s (median of $RUNS) | igsolve CPU s (median of $RUNS) | grundy / igsolve |"
echo "|---|---|---|---|---|---|"
for n in "$@"; do
    gv=-; iv=-; gc=(); ic=()
    for _ in $(seq "$RUNS"); do
        read -r v u < <(run "$GRUNDY" value grundys-game "$n")
        gv=$v; gc+=("$u")
        read -r v u < <(run "$IGSOLVE" grundy -p "$n")
        iv=$v; ic+=("$u")
    done
    if [ "$gv" != "$iv" ]; then
        echo "VALUES DIFFER on heap $n: grundy $gv, igsolve $iv" >&2
        status=1
    fi
    gm=$(printf '%s\n' "${gc[@]}" | median 4)
    im=$(printf '%s\n' "${ic[@]}" | median 4)
    echo "| $n | $gv | $iv | $gm | $im | $(ratio "$gm" "$im" 4) |"
done
exit $status
