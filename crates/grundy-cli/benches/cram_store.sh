#!/usr/bin/env bash
# What the store of solved values costs and saves, in one run: `grundy solve BOARD` without the
# store (--no-cache), from an empty store, and again on the store the previous run left
# (docs/games-by-rules.md, "Store of solved values").
#
#     cargo build -p grundy-cli --release
#     bash crates/grundy-cli/benches/cram_store.sh [BOARD ...]
#
# Settings (environment): GRUNDY (default target/release/grundy), RUNS (runs per board and
# setting, default 3: medians are shown). One thread (RAYON_NUM_THREADS=1); the three settings
# take turns within each run. Each row: the value (all runs must agree), the median CPU seconds
# (user + system, from getrusage), the median of the positions searched (from -v), and the CPU
# time against the run without the store.
set -u
GRUNDY=${GRUNDY:-target/release/grundy}
RUNS=${RUNS:-3}
export RAYON_NUM_THREADS=1
if [ $# -eq 0 ]; then
    set -- 5x8 4x11 5x9
fi

. "$(dirname "$0")/peer_bench.sh"

# Runs a command; prints its CPU seconds and leaves its stdout in $out, stderr in $err.
measure() {
    cpu_time "$times" "$@" > "$out" 2> "$err" || return
    awk '{printf "%.3f\n", $1 + $2}' "$times"
}

out=$(mktemp); err=$(mktemp); times=$(mktemp); cache=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$times" "$cache"' EXIT
echo "| board | value | setting | CPU s (median of $RUNS) | positions searched | CPU / without the store |"
echo "|---|---|---|---|---|---|"
for board in "$@"; do
    declare -A cpu=() pos=()
    value=""
    for ((i = 0; i < RUNS; i++)); do
        rm -rf "$cache/grundy"
        for setting in without empty again; do
            case $setting in
                without) flags=(--no-cache) ;;
                *) flags=() ;;
            esac
            c=$(XDG_CACHE_HOME=$cache measure "$GRUNDY" solve "cram:$board" -v "${flags[@]}") || {
                echo "grundy failed on $board ($setting)" >&2
                exit 1
            }
            v=$(tail -1 "$out")
            if [ -n "$value" ] && [ "$v" != "$value" ]; then
                echo "values differ on $board: $value and $v" >&2
                exit 1
            fi
            value=$v
            p=$(sed -n 's/.*positions searched \([0-9]*\).*/\1/p' "$err")
            cpu[$setting]+="$c "
            pos[$setting]+="${p:-0} "
        done
    done
    base=$(echo "${cpu[without]}" | tr ' ' '\n' | grep . | median)
    for setting in without empty again; do
        m=$(echo "${cpu[$setting]}" | tr ' ' '\n' | grep . | median)
        n=$(echo "${pos[$setting]}" | tr ' ' '\n' | grep . | median 0)
        case $setting in
            without) label="without the store (--no-cache)" ;;
            empty) label="from an empty store" ;;
            again) label="again, on the store the run before left" ;;
        esac
        echo "| cram:$board | ${value#value } | $label | $m | $n | $(ratio_rounded "$m" "$base") |"
    done
    unset cpu pos
done
