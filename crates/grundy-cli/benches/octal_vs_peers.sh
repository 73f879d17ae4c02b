#!/usr/bin/env bash
# Octal sequences: `grundy seq` beside the published rare/common engines, in one run, each
# program pinned to one core (`taskset -c 1`; grundy's pool then has one thread).
#
# The peers are built from their public sources, never vendored:
#   * Beling and Rogalski's `ogsolve` (methods RC and RC2), from crates.io, built as its README
#     says (native code):
#         RUSTFLAGS="-C target-cpu=native" cargo install ogsolve --root target/peers
#   * Tomek Czajka's octal analyzer (tczajka/octal-games on GitHub, the C++ program in old/):
#     given a clone in OCTAL_GAMES, this script builds old/src/analyze_exec.cc with g++ and the
#     flags of that project's Makefile (-O2 -std=c++11). The analyzer computes until it finds a
#     period or reaches its constant `maxn` (2^28 values); the one build step here sets `maxn`
#     to N + 1 (a sed on a copy) so that it computes G(0..N) like the other two.
# then, from the repository root:
#     cargo build --release -p grundy-cli
#     OCTAL_GAMES=path/to/octal-games bash crates/grundy-cli/benches/octal_vs_peers.sh
#
# Settings (environment): GRUNDY (default target/release/grundy), OGSOLVE (default
# target/peers/bin/ogsolve), OCTAL_GAMES (a clone of tczajka/octal-games; without it that peer
# is left out), CXX (default g++), RUNS (default 3), CORE (default 1), GAME (octal code, default
# 0.6, Officers), N1 (default 1000000: grundy, ogsolve RC and RC2, the analyzer), N2 (default
# 10000000: grundy and the analyzer; 0 leaves that row out).
#
# Every program computes G(0), ..., G(N). A peer's output of its last timed run is checked
# against grundy's values before its row is printed: ogsolve's Fletcher-32 checksum of the u16
# values and G(N); the analyzer prints no values, only its rare-class statistics at powers of
# two, whose count of rare positions under its mask grundy's values must give too. Each row
# gives the median CPU time (user + system, from getrusage) of RUNS alternating runs and the
# ratio grundy / peer (below 1: grundy is faster). grundy writes its values (text) to a file in
# a temporary directory; the peers print a few lines.
set -eu
GRUNDY=${GRUNDY:-target/release/grundy}
OGSOLVE=${OGSOLVE:-target/peers/bin/ogsolve}
OCTAL_GAMES=${OCTAL_GAMES:-}
CXX=${CXX:-g++}
RUNS=${RUNS:-3}
CORE=${CORE:-1}
GAME=${GAME:-0.6}
N1=${N1:-1000000}
N2=${N2:-10000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pin=(taskset -c "$CORE" env RAYON_NUM_THREADS=1)

. "$(dirname "$0")/peer_bench.sh"

# The analyzer, built for N + 1 values.
build_analyzer() {
    local n=$1
    [ -n "$OCTAL_GAMES" ] || return 1
    [ -x "$dir/analyze-$n" ] && return 0
    mkdir -p "$dir/src"
    cp "$OCTAL_GAMES"/old/src/*.cc "$OCTAL_GAMES"/old/src/*.h "$dir/src/"
    sed -i 's/^constexpr uint64_t maxn = .*/constexpr uint64_t maxn = MAXN;/' "$dir/src/analyze_exec.cc"
    grep -q 'maxn = MAXN;' "$dir/src/analyze_exec.cc" || { echo "analyze_exec.cc: no maxn to set" >&2; exit 1; }
    (cd "$dir/src" && "$CXX" -O2 -std=c++11 -pthread -DMAXN="$((n + 1))ULL" -I. \
        analyze_exec.cc game.cc game_util.cc hadamard.cc -o "$dir/analyze-$n")
}

# Fletcher-32 of G(0..N) as ogsolve computes it (sums of u16 values modulo 2^16), from
# grundy's text output (values separated by blanks or line ends; a leading "G(...)" label and
# other non-numeric words are skipped), and the last value.
checksum() {
    tr -s ' \t,' '\n\n\n' | awk '/^[0-9]+$/{a=(a+$1)%65536; b=(b+a)%65536; last=$1}
        END{if (b > 0) printf "%X%04X %d\n", b, a, last; else printf "%X %d\n", a, last}'
}

# "CPU" seconds (user + system) of one run; its output is left in $dir/out.
cpu() {
    cpu_time "$dir/t" "$@" > "$dir/out" 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
    awk '{printf "%.3f\n", $1 + $2}' "$dir/t"
}

echo "| octal:$GAME to N, one core (taskset -c $CORE), CPU s, median of $RUNS | grundy | peer | peer CPU s | grundy / peer |"
echo "|---|---|---|---|---|"
row() {
    local n=$1 label=$2 check=$3
    shift 3
    local g=() p=() c
    for _ in $(seq "$RUNS"); do
        c=$(cpu "${pin[@]}" "$GRUNDY" seq "octal:$GAME" -n "$((n + 1))"); g+=("$c")
        c=$(cpu "${pin[@]}" "$@"); p+=("$c")
        cp "$dir/out" "$dir/peer.out"
    done
    local gm pm
    gm=$(printf '%s\n' "${g[@]}" | median)
    pm=$(printf '%s\n' "${p[@]}" | median)
    "$check" "$n" "$dir/peer.out"
    echo "| N = $n | $gm | $label | $pm | $(ratio_rounded "$gm" "$pm") |"
}

# The checks of a peer's output (of its last timed run) against grundy's values.
check_ogsolve() {
    local got want
    want=$("$GRUNDY" seq "octal:$GAME" -n "$(($1 + 1))" 2> /dev/null | checksum)
    got=$(sed -n 's/.*nimber of [0-9]*: \([0-9]*\) .*checksum: \([0-9A-F]*\).*/\2 \1/p' "$2")
    [ "$got" = "$want" ] || { echo "ogsolve: checksum and G(N) $got, grundy $want" >&2; exit 1; }
}
# The analyzer's last statistics line (at the largest power of two up to N) names the rare mask
# and the number of rare positions, which grundy's values must give too.
check_analyzer() {
    local stats k mask pos rare digits flip mine
    stats=$(tail -1 "$2")
    k=$(echo "$stats" | sed -n 's/^n=2^\([0-9]*\) .*/\1/p')
    mask=$(echo "$stats" | sed -n 's/.* rare_mask=\([0-9a-f]*\)\(pos\)\{0,1\} .*/\1/p')
    pos=$(echo "$stats" | grep -c 'rare_mask=[0-9a-f]*pos ' || true)
    rare=$(echo "$stats" | sed -n 's/.* num_rare=\([0-9]*\) .*/\1/p')
    # With "pos", the class of heap i also flips when i mod 2 differs from the parity of the
    # tokens every split removes (digit t of the code has bit 4 for a split removing t).
    digits=$(echo "$GAME" | tr -d .)
    flip=0
    for t in $(seq 0 $((${#digits} - 1))); do
        [ $(( ${digits:t:1} & 4 )) -ne 0 ] && flip=$((t % 2))
    done
    mine=$("$GRUNDY" seq "octal:$GAME" -n "$((1 << k))" 2> /dev/null | tr -s ' \t,' '\n\n\n' |
        awk -v m="$((16#$mask))" -v pos="$pos" -v flip="$flip" '
        /^[0-9]+$/ {
            c = 0; x = $1; y = m
            while (x > 0 && y > 0) { if (x % 2 == 1 && y % 2 == 1) c++; x = int(x / 2); y = int(y / 2) }
            if (pos && i % 2 != flip) c++
            if (c % 2 == 0) r++
            i++
        }
        END { print r + 0 }')
    [ "$mine" = "$rare" ] || { echo "analyzer: $rare rare positions below 2^$k (mask $mask), grundy's values give $mine" >&2; exit 1; }
}

for n in "$N1" "$N2"; do
    [ "$n" -gt 0 ] || continue
    if [ "$n" = "$N1" ]; then
        for m in rc rc2; do
            row "$n" "ogsolve -m $m" check_ogsolve "$OGSOLVE" "$GAME" -m "$m" -n "$n"
        done
    fi
    if build_analyzer "$n"; then
        row "$n" "tczajka analyze (C++, g++ -O2)" check_analyzer "$dir/analyze-$n" "$GAME"
    fi
done
