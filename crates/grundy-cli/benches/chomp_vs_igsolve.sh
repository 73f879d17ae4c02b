#!/usr/bin/env bash
# Chomp rectangles: `grundy solve` beside Beling and Rogalski's `igsolve`, in one run.
#
# The peer is built from crates.io, never vendored:
#     cargo install igsolve --root target/peers       # puts target/peers/bin/igsolve
# then, from the repository root:
#     cargo build --release -p grundy-cli
#     bash crates/grundy-cli/benches/chomp_vs_igsolve.sh [RxC ...]
#
# Without arguments: the 95 rectangles R×C for 2 ≤ R, C ≤ 8, 3×9 to 3×40 and 4×9 to 4×22.
# Settings (environment): GRUNDY (default target/release/grundy), IGSOLVE (default
# target/peers/bin/igsolve), RUNS (runs per board and program, default 3: the median is kept),
# TIMEOUT (seconds a run may take, default 120), ROWS=1 to print a row per board.
#
# Each program's value must agree (a difference is reported on stderr and makes the exit status
# 1). The summary gives, per program, the sum over the boards of the median wall-clock time of a
# run (process start to exit), of its median CPU time (user + system, which a loaded machine
# inflates less; from getrusage) and of the median search time the program reports itself, and
# the ratios grundy / igsolve (below 1: grundy is faster).
set -u
GRUNDY=${GRUNDY:-target/release/grundy}
IGSOLVE=${IGSOLVE:-target/peers/bin/igsolve}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-120}
ROWS=${ROWS:-0}
if [ $# -eq 0 ]; then
    for r in $(seq 2 8); do for c in $(seq 2 8); do set -- "$@" "${r}x$c"; done; done
    for c in $(seq 9 40); do set -- "$@" "3x$c"; done
    for c in $(seq 9 22); do set -- "$@" "4x$c"; done
fi

. "$(dirname "$0")/peer_bench.sh"

# Prints "VALUE WALL CPU SEARCH" for one run of a command (SEARCH: the search time the program
# reports itself, `grundy solve -v` "time", igsolve "Calculation time"), or "- timeout timeout
# timeout".
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
    local v s
    v=$(printf '%s\n' "$out" | sed -n 's/^value \([0-9]*\)$/\1/p; s/^Nimber of initial position: \([0-9]*\)$/\1/p' | head -1)
    s=$(printf '%s\n' "$out" | sed -n 's/.*, time \([0-9.]*\) s\(, .*\)\{0,1\}$/\1/p; s/^Calculation time: \([0-9.]*\)\(ns\|µs\|ms\|s\)$/\1 \2/p' | head -1 |
        awk '{u=$2; x=$1; if(u=="ns")x/=1e9; else if(u=="µs")x/=1e6; else if(u=="ms")x/=1e3; printf "%.6f\n", x}')
    echo "$v $(awk '{printf "%.6f %.6f\n", $3, $1 + $2}' "$cpu") ${s:-timeout}"
    rm -f "$cpu"
}

status=0
gw=0; gc=0; iw=0; ic=0; gs=0; is=0; n=0; late=()
[ "$ROWS" = 1 ] && echo "| board | value | grundy wall s | igsolve wall s | grundy CPU s | igsolve CPU s | grundy search s | igsolve search s |" && echo "|---|---|---|---|---|---|---|---|"
for b in "$@"; do
    r=${b%x*}
    c=${b#*x}
    gv=-; iv=-; gt=(); it=(); gu=(); iu=(); gq=(); iq=()
    for _ in $(seq "$RUNS"); do
        read -r v t u q < <(run "$GRUNDY" solve "chomp:$b" -v)
        gv=$v; gt+=("$t"); gu+=("$u"); gq+=("$q")
        read -r v t u q < <(run "$IGSOLVE" chomp -r "$r" -c "$c")
        iv=$v; it+=("$t"); iu+=("$u"); iq+=("$q")
    done
    if [ "$gv" != - ] && [ "$iv" != - ] && [ "$gv" != "$iv" ]; then
        echo "VALUES DIFFER on chomp:$b: grundy $gv, igsolve $iv" >&2
        status=1
    fi
    a=$(printf '%s\n' "${gt[@]}" | median 4); bb=$(printf '%s\n' "${it[@]}" | median 4)
    x=$(printf '%s\n' "${gu[@]}" | median 4); y=$(printf '%s\n' "${iu[@]}" | median 4)
    p=$(printf '%s\n' "${gq[@]}" | median 4); q=$(printf '%s\n' "${iq[@]}" | median 4)
    [ "$ROWS" = 1 ] && echo "| chomp:$b | $gv | $a | $bb | $x | $y | $p | $q |"
    # A board either program did not finish in TIMEOUT is named below the sums, not added.
    if [ "$a" = timeout ] || [ "$bb" = timeout ] || [ "$p" = timeout ] || [ "$q" = timeout ]; then
        late+=("chomp:$b")
        continue
    fi
    gw=$(echo "$gw + $a" | bc); iw=$(echo "$iw + $bb" | bc)
    gc=$(echo "$gc + $x" | bc); ic=$(echo "$ic + $y" | bc)
    gs=$(echo "$gs + $p" | bc); is=$(echo "$is + $q" | bc)
    n=$((n + 1))
done
echo
echo "| boards | grundy wall s (sum of medians) | igsolve wall s | wall ratio | grundy CPU s | igsolve CPU s | CPU ratio | grundy search s | igsolve search s | search ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|"
echo "| $n | $gw | $iw | $(ratio "$gw" "$iw" 3) | $gc | $ic | $(ratio "$gc" "$ic" 3) | $gs | $is | $(ratio "$gs" "$is" 3) |"
[ ${#late[@]} -gt 0 ] && echo && echo "Not finished in $TIMEOUT s by one program or both, left out of the sums: ${late[*]}"
exit $status
