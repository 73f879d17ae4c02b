#!/usr/bin/env bash
# Cram on empty boards: `grundy solve` beside Beling and Rogalski's `igsolve`, in one run.
#
# The peer is built from crates.io, never vendored:
#     cargo install igsolve --root target/peers       # puts target/peers/bin/igsolve
# then, from the repository root:
#     cargo build --release -p grundy-cli
#     bash crates/grundy-cli/benches/cram_vs_igsolve.sh [BOARD ...]
#
# Settings (environment): GRUNDY (default target/release/grundy), IGSOLVE (default
# target/peers/bin/igsolve), RUNS (runs per board and program, default 3: the median is shown),
# TIMEOUT (seconds a run may take, default 120). Each row: the value each program prints (they
# must agree), the median wall-clock seconds of each (process start to exit) and their ratio
# grundy / igsolve (below 1: grundy is faster), then the median of the search time each program
# reports itself (`grundy solve -v`: "time", igsolve: "Calculation time"; process start and
# argument parsing left out) and their ratio, then the median CPU time (user + system) of each
# process and their ratio (both search on one thread: the script sets RAYON_NUM_THREADS=1, and
# `cram_threads.py` measures grundy's threads). grundy runs with --no-cache: from scratch.
set -u
GRUNDY=${GRUNDY:-target/release/grundy}
IGSOLVE=${IGSOLVE:-target/peers/bin/igsolve}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-120}
export RAYON_NUM_THREADS=1
if [ $# -eq 0 ]; then
    set -- 3x11 3x12 3x13 3x14 4x9 4x10 5x6 5x7 5x8 6x6
fi

. "$(dirname "$0")/peer_bench.sh"

# Prints "VALUE SECONDS SEARCH" for one run of a command (SEARCH: the search time the program
# reports, in seconds) CPU (user + system seconds of the process), or "- timeout - -".
run() {
    local out cpu
    cpu=$(mktemp)
    out=$(cpu_wall_time_limited "$cpu" "$TIMEOUT" "$@" 2>&1)
    local rc=$?
    if [ $rc -ne 0 ]; then
        rm -f "$cpu"
        echo "- timeout timeout timeout"
        return
    fi
    local c t
    c=$(tail -1 "$cpu" | awk '{printf "%.6f\n", $1 + $2}')
    t=$(tail -1 "$cpu" | awk '{printf "%.6f\n", $3}')
    rm -f "$cpu"
    local v s
    v=$(printf '%s\n' "$out" | sed -n 's/^value \([0-9]*\)$/\1/p; s/^Nimber of initial position: \([0-9]*\)$/\1/p' | head -1)
    s=$(printf '%s\n' "$out" | sed -n 's/.*, time \([0-9.]*\) s\(, .*\)\{0,1\}$/\1/p; s/^Calculation time: \([0-9.]*\)\(ns\|µs\|ms\|s\)$/\1 \2/p' | head -1 |
        awk '{u=$2; x=$1; if(u=="ns")x/=1e9; else if(u=="µs")x/=1e6; else if(u=="ms")x/=1e3; printf "%.6f\n", x}')
    echo "$v $t ${s:-timeout} $c"
}


echo "| board | value (grundy) | value (igsolve) | grundy s (median of $RUNS) | igsolve s (median of $RUNS) | grundy / igsolve | grundy search s | igsolve search s | search ratio | grundy CPU s | igsolve CPU s | CPU ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for b in "$@"; do
    r=${b%x*}
    c=${b#*x}
    gv=-; iv=-; gt=(); it=(); gs=(); is=(); gc=(); ic=()
    for _ in $(seq "$RUNS"); do
        read -r v t s u < <(run "$GRUNDY" solve "cram:$b" -v --no-cache)
        gv=$v; gt+=("$t"); gs+=("$s"); gc+=("$u")
        read -r v t s u < <(run "$IGSOLVE" cram -r "$r" -c "$c")
        iv=$v; it+=("$t"); is+=("$s"); ic+=("$u")
    done
    gm=$(printf '%s\n' "${gt[@]}" | median)
    im=$(printf '%s\n' "${it[@]}" | median)
    gsm=$(printf '%s\n' "${gs[@]}" | median)
    ism=$(printf '%s\n' "${is[@]}" | median)
    gcm=$(printf '%s\n' "${gc[@]}" | median 4)
    icm=$(printf '%s\n' "${ic[@]}" | median 4)
    [ "$gv" != - ] && [ "$iv" != - ] && [ "$gv" != "$iv" ] && echo "VALUES DIFFER on $b" >&2
    echo "| cram:$b | $gv | $iv | $gm | $im | $(ratio "$gm" "$im") | $gsm | $ism | $(ratio "$gsm" "$ism") | $gcm | $icm | $(ratio "$gcm" "$icm") |"
done
