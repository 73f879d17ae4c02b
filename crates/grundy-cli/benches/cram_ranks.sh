#!/usr/bin/env bash
# Cram over MPI ranks by components beside one process, in one run: `grundy solve BOARD` and
# `mpirun -np K grundy solve BOARD --distributed` for K = 1, 2 (docs/distributed.md).
#
#     cargo build -p grundy-cli --release --features mpi
#     bash crates/grundy-cli/benches/cram_ranks.sh [BOARD ...]
#
# Settings (environment): GRUNDY (default target/release/grundy, built with the mpi feature),
# RUNS (runs per board and program, default 3: medians are shown), RANKS (default "1 2").
# Every run is from scratch (--no-cache) on one thread a process (RAYON_NUM_THREADS=1). Each
# row: the value (all runs must agree), the median wall seconds, the median CPU seconds of the
# whole job (user + system of every process, from getrusage), the busiest rank's CPU seconds
# and the positions all ranks searched (from -v), and the job's CPU against one process's.
set -u
GRUNDY=${GRUNDY:-target/release/grundy}
RUNS=${RUNS:-3}
RANKS=${RANKS:-"1 2"}
export RAYON_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ $# -eq 0 ]; then
    set -- 5x5 4x9 5x7 5x8
fi

. "$(dirname "$0")/peer_bench.sh"

# Runs a command; prints "WALL CPU" (seconds) and leaves its stdout in $out, stderr in $err.
measure() {
    cpu_wall_time "$times" "$@" > "$out" 2> "$err" || return
    awk '{printf "%.3f %.3f\n", $3, $1 + $2}' "$times"
}

out=$(mktemp); err=$(mktemp); times=$(mktemp)
echo "| board | value | run | wall s | CPU s (all processes) | busiest rank CPU s | positions | CPU / one process |"
echo "|---|---|---|---|---|---|---|---|"
for b in "$@"; do
    base=; value=
    for k in one $RANKS; do
        walls=(); cpus=(); busiest=(); positions=
        case $k in one) name="one process" ;; 1) name="1 rank" ;; *) name="$k ranks" ;; esac
        for _ in $(seq "$RUNS"); do
            if [ "$k" = one ]; then
                m=$(measure "$GRUNDY" solve "cram:$b" --no-cache -v) || { echo "failed: $b"; exit 1; }
                busiest+=("$(echo "$m" | cut -d' ' -f2)")
            else
                m=$(measure mpirun --oversubscribe -np "$k" "$GRUNDY" solve "cram:$b" --distributed --no-cache -v) \
                    || { echo "failed: $b on $k ranks"; exit 1; }
                busiest+=("$(grep -o 'busiest rank [0-9.]*' "$err" | grep -o '[0-9.]*$')")
            fi
            walls+=("${m% *}"); cpus+=("${m#* }")
            positions=$(grep -o 'positions searched [0-9]*' "$err" | grep -o '[0-9]*$')
            v=$(tail -n 1 "$out")
            if [ -z "${value:-}" ]; then
                value=$v
            elif [ "$v" != "$value" ]; then
                echo "values differ on $b: '$value' and '$v' ($name)" >&2
                exit 1
            fi
        done
        w=$(printf '%s\n' "${walls[@]}" | median)
        c=$(printf '%s\n' "${cpus[@]}" | median)
        bz=$(printf '%s\n' "${busiest[@]}" | median)
        [ -z "$base" ] && base=$c
        echo "| cram:$b | ${value#value } | $name | $w | $c | $bz | $positions | $(ratio_rounded "$c" "$base") |"
    done
done
rm -f "$out" "$err" "$times"
