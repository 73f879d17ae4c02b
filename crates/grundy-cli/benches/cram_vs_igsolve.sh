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
# must agree), the median wall-clock seconds of each (process start to exit), and the ratio
# grundy / igsolve (below 1: grundy is faster).
set -u
GRUNDY=${GRUNDY:-target/release/grundy}
IGSOLVE=${IGSOLVE:-target/peers/bin/igsolve}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-120}
if [ $# -eq 0 ]; then
    set -- 3x11 3x12 5x6 5x7 6x6 4x9 5x8 3x13
fi

# Prints "VALUE SECONDS" for one run of a command, or "- timeout".
run() {
    local out start end
    start=$(date +%s.%N)
    out=$(timeout "$TIMEOUT" "$@" 2>/dev/null)
    local rc=$?
    end=$(date +%s.%N)
    if [ $rc -ne 0 ]; then
        echo "- timeout"
        return
    fi
    local v
    v=$(printf '%s\n' "$out" | sed -n 's/^value \([0-9]*\)$/\1/p; s/^Nimber of initial position: \([0-9]*\)$/\1/p' | head -1)
    echo "$v $(echo "$end - $start" | bc)"
}

# The median of the numbers on stdin ("timeout" if any run timed out).
median() {
    sort -g | awk '{a[NR]=$1} /timeout/{t=1} END{if(t){print "timeout"} else if(NR%2){printf "%.3f\n",a[(NR+1)/2]} else {printf "%.3f\n",(a[NR/2]+a[NR/2+1])/2}}'
}

echo "| board | value (grundy) | value (igsolve) | grundy s (median of $RUNS) | igsolve s (median of $RUNS) | grundy / igsolve |"
echo "|---|---|---|---|---|---|"
for b in "$@"; do
    r=${b%x*}
    c=${b#*x}
    gv=-; iv=-; gt=(); it=()
    for _ in $(seq "$RUNS"); do
        read -r v t < <(run "$GRUNDY" solve "cram:$b")
        gv=$v; gt+=("$t")
        read -r v t < <(run "$IGSOLVE" cram -r "$r" -c "$c")
        iv=$v; it+=("$t")
    done
    gm=$(printf '%s\n' "${gt[@]}" | median)
    im=$(printf '%s\n' "${it[@]}" | median)
    if [ "$gm" = timeout ] || [ "$im" = timeout ]; then
        ratio=-
    else
        ratio=$(echo "scale=2; $gm / $im" | bc)
    fi
    [ "$gv" != - ] && [ "$iv" != - ] && [ "$gv" != "$iv" ] && echo "VALUES DIFFER on $b" >&2
    echo "| cram:$b | $gv | $iv | $gm | $im | $ratio |"
done
