# shellcheck shell=bash
# Sourced by the peer benchmarks: `cpu_time FILE COMMAND...`, `cpu_time_limited FILE SECONDS
# COMMAND...` (both write "USER SYSTEM WALL"; the first two are read), `cpu_wall_time FILE
# COMMAND...`, `cpu_wall_time_limited FILE SECONDS COMMAND...`,
# `median [DIGITS]`, `ratio A B [SCALE]` and `ratio_rounded A B [DIGITS]`.

# Runs a command and writes "USER SYSTEM" seconds of its process tree to the file $1: from
# getrusage (microseconds; the difference around the run, as a python3 started by a shim
# inherits the usage of the shim's own children) through python3 when it is there, else from
# /usr/bin/time (which counts hundredths, too coarse for the smallest boards).
cpu_time() {
    local file=$1
    shift
    cpu_wall_time_limited "$file" 0 "$@"
}

# As `cpu_time`, the command stopped after SECONDS (exit status 124, as timeout(1) gives). The
# limit is kept by the measuring python3 itself, so that no timeout(1) process between it and
# the command adds its own start to the time (about a millisecond, as much as a whole run of
# a board settled without search).
cpu_time_limited() {
    cpu_wall_time_limited "$@"
}

# As `cpu_time`, with the wall-clock seconds from the command's start to its exit as a third
# number: "USER SYSTEM WALL". The measuring python3 keeps that clock itself, so that its own
# start (tenths of a second through a version manager's shim), which a `date` before and after
# the call would count, is left out.
cpu_wall_time() {
    local file=$1
    shift
    cpu_wall_time_limited "$file" 0 "$@"
}

# As `cpu_wall_time`, the command stopped after SECONDS (exit status 124, as timeout(1) gives;
# 0: no limit).
cpu_wall_time_limited() {
    local file=$1 limit=$2
    shift 2
    if command -v python3 >/dev/null; then
        python3 -c '
import resource, subprocess, sys, time
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.monotonic()
try:
    rc = subprocess.run(sys.argv[3:], timeout=float(sys.argv[2]) or None).returncode
except subprocess.TimeoutExpired:
    rc = 124
wall = time.monotonic() - start
r = resource.getrusage(resource.RUSAGE_CHILDREN)
user, system = r.ru_utime - before.ru_utime, r.ru_stime - before.ru_stime
open(sys.argv[1], "w").write("%.6f %.6f %.6f\n" % (user, system, wall))
sys.exit(rc)' "$file" "$limit" "$@"
    elif [ "$limit" = 0 ]; then
        /usr/bin/time -f "%U %S %e" -o "$file" "$@"
    else
        /usr/bin/time -f "%U %S %e" -o "$file" timeout "$limit" "$@"
    fi
}

# The median of the numbers on stdin, with DIGITS decimals (default 3); "timeout" if any run
# timed out.
# shellcheck disable=SC2120 # DIGITS may be left out
median() {
    sort -g | awk -v d="${1:-3}" '{a[NR]=$1} /timeout/{t=1} END{f="%." d "f\n"; if(t){print "timeout"} else if(NR%2){printf f,a[(NR+1)/2]} else {printf f,(a[NR/2]+a[NR/2+1])/2}}'
}

# $1 / $2 with SCALE decimals (default 2), or "-" when either timed out or the divisor is 0.
ratio() {
    if [ "$1" = timeout ] || [ "$2" = timeout ] || [ "$(echo "$2 == 0" | bc)" = 1 ]; then
        echo -
    else
        echo "scale=${3:-2}; $1 / $2" | bc
    fi
}

# $1 / $2 rounded to DIGITS decimals (default 2), with the leading zero (0.50 where `ratio` gives
# .50), or "-" when either timed out or the divisor is 0.
ratio_rounded() {
    if [ "$1" = timeout ] || [ "$2" = timeout ] || [ "$(echo "$2 == 0" | bc)" = 1 ]; then
        echo -
    else
        awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN{printf "%." d "f\n", a / b}'
    fi
}
