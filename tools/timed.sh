#!/bin/sh
# timed.sh: run one part of `make check` and keep its wall time.
#
# Usage: tools/timed.sh BUILD_DIR PART COMMAND [ARG...]
# Runs COMMAND, then writes "SECONDS STATUS" to BUILD_DIR/check-times/PART
# and exits with COMMAND's status.  tools/check-times.sh prints them.
set -u
dir=$1/check-times
part=$2
shift 2
mkdir -p "$dir"
t0=$(date +%s.%N)
"$@"
st=$?
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v s="$st" 'BEGIN { printf "%.1f %d\n", b - a, s }' \
	> "$dir/$part"
exit $st
