#!/usr/bin/env bash
# Misère quotients: `grundy misere` beside Aaron Siegel's MisereSolver (Java), in one run.
#
# The peer is built from its public sources, never vendored: MisereSolver lives in CGSuite's
# repository (github.com/aaron-siegel/cgsuite, package org.cgsuite.core.misere.solver). Its
# solver files call a few types of CGSuite's Scala core (heap rulesets) and of the Scala
# library; `benches/miseresolver/Shim.java` is this project's own Java version of that surface
# (octal codes, Grundy's game) and of the loop of the solver's command line (`Bench`: `next()`
# heap by heap, stopping where the periodicity checker of a take-and-break code proves the
# heap map periodic, as the command line does), so that javac alone builds it:
#     git clone https://github.com/aaron-siegel/cgsuite target/peers/cgsuite   # or CGSUITE_GIT=
#     cargo build --release -p grundy-cli
#     bash crates/grundy-cli/benches/misere_vs_miseresolver.sh ["GAME MAXHEAP" ...]
# The script checks out the pinned commit's solver files (`git archive`) into
# target/peers/miseresolver/src, splits the shim there and compiles all with javac into
# target/peers/miseresolver/classes (once; remove that folder to rebuild).
#
# Settings (environment): GRUNDY (default target/release/grundy), CGSUITE_GIT (a git directory
# of CGSuite, default target/peers/cgsuite), JAVA (default java), RUNS (runs per row and program,
# alternating, default 5: the median is shown), TIMEOUT (seconds a run may take, default 600).
# The peer alone, with its log of the candidates it tries at each heap that changes the
# presentation (how the reach rows of docs/performance.md were followed):
#     MISERESOLVER_LOG=1 timeout 600 java -cp target/peers/miseresolver/classes \
#         org.cgsuite.core.misere.solver.Bench dawsons-kayles 34
# Each row: |Q| as each program prints it (they must agree), the heap the peer stopped at,
# the median CPU seconds (user + system, from getrusage) and wall seconds of each whole process
# (JVM start included) and the ratios grundy / MisereSolver (below 1: grundy is faster).
set -u
GRUNDY=${GRUNDY:-target/release/grundy}
CGSUITE_GIT=${CGSUITE_GIT:-target/peers/cgsuite}
CGSUITE_COMMIT=e909ab8bc330e39bc837d26b22bc8a96f9fa512a
JAVA=${JAVA:-java}
RUNS=${RUNS:-5}
TIMEOUT=${TIMEOUT:-600}
PEER=target/peers/miseresolver
HERE=$(dirname "$0")
if [ $# -eq 0 ]; then
    set -- "kayles 200" "dawsons-kayles 30" "dawsons-kayles 25" "octal:0.137 24"
fi

. "$HERE/peer_bench.sh"

if [ ! -d "$PEER/classes" ]; then
    rm -rf "$PEER/src" && mkdir -p "$PEER/src" || exit 1
    [ -d "$CGSUITE_GIT/.git" ] && CGSUITE_GIT=$CGSUITE_GIT/.git
    git --git-dir="$CGSUITE_GIT" archive "$CGSUITE_COMMIT" \
        lib/core/src/main/scala/org/cgsuite/core/misere/solver \
        lib/core/src/main/scala/org/cgsuite/core/impartial/PeriodicityChecker.java |
        tar -x -C "$PEER/src" || { echo "no CGSuite sources at $CGSUITE_GIT" >&2; exit 1; }
    SRC=$PEER/src/lib/core/src/main/scala
    # The command line parses CGScript (the whole CGSuite language): `Bench` stands for it.
    rm "$SRC/org/cgsuite/core/misere/solver/CommandLineInterface.java" \
        "$SRC/org/cgsuite/core/misere/solver/CommandLineOptions.java"
    awk -v root="$SRC" '/^\/\/FILE /{f=root "/" $2; system("mkdir -p $(dirname " f ")"); next} f{print > f}' \
        "$HERE/miseresolver/Shim.java"
    mkdir -p "$PEER/classes"
    javac -nowarn -encoding UTF-8 -d "$PEER/classes" $(find "$SRC" -name '*.java') ||
        { rm -rf "$PEER/classes"; exit 1; }
fi

# Prints "ORDER CPU WALL" for one run of a command, or "- timeout timeout".
run() {
    local out times
    times=$(mktemp)
    if ! out=$(cpu_wall_time_limited "$times" "$TIMEOUT" "$@" 2>&1); then
        rm -f "$times"
        echo "- timeout timeout"
        return
    fi
    local q
    q=$(printf '%s\n' "$out" | sed -n 's/^|Q| = \([0-9]*\).*/\1/p; s/^heap \([0-9]*\) |Q| = \([0-9]*\).*/\2@\1/p; s/^order: \([0-9]*\)$/\1/p' | head -1)
    echo "$q $(awk '{printf "%.3f %.3f", $1 + $2, $3}' "$times")"
    rm -f "$times"
}

echo "| game, heaps up to | \|Q\| (grundy) | \|Q\| (MisereSolver, at heap) | grundy CPU s | MisereSolver CPU s | CPU ratio | grundy wall s | MisereSolver wall s | wall ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for row in "$@"; do
    set -- $row
    runs=""
    for _ in $(seq "$RUNS"); do
        runs+="$(run "$GRUNDY" misere "$1" --max-heap "$2") "
        runs+="$(run "$JAVA" -cp "$PEER/classes" org.cgsuite.core.misere.solver.Bench "$1" "$2")"$'\n'
    done
    # Columns of $runs: grundy's order, CPU, wall, then MisereSolver's.
    col() { printf '%s' "$runs" | awk -v c="$1" 'NF {print $c}'; }
    gq=$(col 1 | tail -1); mq=$(col 4 | tail -1)
    gcm=$(col 2 | median); gwm=$(col 3 | median)
    mcm=$(col 5 | median); mwm=$(col 6 | median)
    [ "$gq" != - ] && [ "$mq" != - ] && [ "$gq" != "${mq%@*}" ] && echo "ORDERS DIFFER on $row" >&2
    # The order the peer printed, with the heap it stopped at.
    case $mq in
        -) mshown="— (timed out)" ;;
        *@*) mshown="${mq%@*} (heap ${mq#*@})" ;;
        *) mshown=$mq ;;
    esac
    [ "$gq" = - ] && gq="— (timed out)"
    # The ratios with three decimals and the leading zero (0.071), "-" where a side timed out.
    cr=$(ratio "$gcm" "$mcm" 3 | sed 's/^\./0./'); wr=$(ratio "$gwm" "$mwm" 3 | sed 's/^\./0./')
    echo "| $1 $2 | $gq | $mshown | $gcm | $mcm | $cr | $gwm | $mwm | $wr |"
done
