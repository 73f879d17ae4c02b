#!/usr/bin/env bash
# Library Checker "Nim Product", 10^6 random pairs below 2^64: `grundy nimber product` beside
# the floor of a naive C solution, in one run.
#
# The floor is a plain C program written here (compiled with the system's C compiler, `cc -O2`;
# `apt-get install gcc` if there is none) that reads the pairs with `scanf("%llu %llu")` and
# writes one number per line with `printf("%llu\n")`, computing only `a ^ b`: any solution that
# reads and writes through scanf and printf costs at least that. The input is made by a second
# small C program (splitmix64, seed 1, uniform 64-bit numbers: mostly 19 and 20 digits, 40.8 MB).
#
#     cargo build --release -p grundy-cli
#     bash crates/grundy-cli/benches/nim_product_vs_floor.sh
#
# Settings (environment): GRUNDY (default target/release/grundy), RUNS (default 7), N (pairs,
# default 1000000), CC (default cc). Prints the median CPU time (user + system, from getrusage)
# and wall time of each program, alternating runs, and the ratios grundy / floor (below 1:
# grundy is faster).
set -eu
GRUNDY=${GRUNDY:-target/release/grundy}
RUNS=${RUNS:-7}
N=${N:-1000000}
CC=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

. "$(dirname "$0")/peer_bench.sh"

cat > "$dir/floor.c" <<'C'
#include <stdio.h>
int main(void) {
    unsigned long long t, a, b, i;
    if (scanf("%llu", &t) != 1) return 1;
    for (i = 0; i < t; i++) {
        if (scanf("%llu %llu", &a, &b) != 2) return 1;
        printf("%llu\n", a ^ b);
    }
    return 0;
}
C
cat > "$dir/gen.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static unsigned long long s = 1;
static unsigned long long next(void) {
    unsigned long long z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
int main(int argc, char **argv) {
    unsigned long long n = strtoull(argv[1], 0, 10), i;
    printf("%llu\n", n);
    for (i = 0; i < n; i++) {
        unsigned long long a = next();
        printf("%llu %llu\n", a, next());
    }
    return 0;
}
C
"$CC" -O2 -o "$dir/floor" "$dir/floor.c"
"$CC" -O2 -o "$dir/gen" "$dir/gen.c"
"$dir/gen" "$N" > "$dir/in.txt"
# The answer is checked once against grundy's own naive product (`nimber mul`) on a sample.
"$GRUNDY" nimber product < "$dir/in.txt" > "$dir/out.txt"
[ "$(wc -l < "$dir/out.txt")" -eq "$N" ] || { echo "grundy wrote a wrong number of lines" >&2; exit 1; }
sed -n '2,21p' "$dir/in.txt" | while read -r a b; do "$GRUNDY" nimber mul "$a" "$b"; done > "$dir/want.txt"
head -20 "$dir/out.txt" | cmp -s - "$dir/want.txt" || { echo "grundy's products differ from nimber mul" >&2; exit 1; }

# "CPU WALL" of one run, output to /dev/null.
one() {
    cpu_wall_time "$dir/t" "$@" < "$dir/in.txt" > /dev/null
    awk '{printf "%.3f %.3f\n", $1 + $2, $3}' "$dir/t"
}
gc=(); gw=(); fc=(); fw=()
for _ in $(seq "$RUNS"); do
    read -r c w < <(one "$GRUNDY" nimber product); gc+=("$c"); gw+=("$w")
    read -r c w < <(one "$dir/floor"); fc+=("$c"); fw+=("$w")
done
gcm=$(printf '%s\n' "${gc[@]}" | median); gwm=$(printf '%s\n' "${gw[@]}" | median)
fcm=$(printf '%s\n' "${fc[@]}" | median); fwm=$(printf '%s\n' "${fw[@]}" | median)
echo "| $N pairs, median of $RUNS | grundy nimber product | scanf/printf floor (C, -O2) | grundy / floor |"
echo "|---|---|---|---|"
echo "| CPU s (user + system) | $gcm | $fcm | $(ratio "$gcm" "$fcm") |"
echo "| wall s | $gwm | $fwm | $(ratio "$gwm" "$fwm") |"
