#!/bin/sh
# check-times.sh: where `make check`'s time went.
#
# Usage: tools/check-times.sh BUILD_DIR start   (forget the last times)
#        tools/check-times.sh BUILD_DIR         (print them)
# Prints the wall time of each part tools/timed.sh ran since `start`, the
# whole check's, and the five slowest end-to-end cases of the last run
# (BUILD_DIR/e2e-times.txt, written by tests/e2e/runner.py).  Under make
# -j the parts overlap, so they add up to more than the whole.
set -eu
B=$1
dir=$B/check-times
if [ "${2:-}" = start ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	date +%s.%N > "$dir/.start"
	exit 0
fi
[ -d "$dir" ] || exit 0
now=$(date +%s.%N)
echo
echo "make check: wall time of each part ($B)"
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	read -r secs st < "$f"
	what=$(basename "$f")
	if [ "$st" = 0 ]; then st=""; else st="  (exit $st)"; fi
	printf '  %-14s %7.1f s%s\n' "$what" "$secs" "$st"
done
if [ -f "$dir/.start" ]; then
	awk -v a="$(cat "$dir/.start")" -v b="$now" \
		'BEGIN { printf "  %-14s %7.1f s\n", "whole check", b - a }'
fi
if [ -f "$B/e2e-times.txt" ] && [ -f "$dir/e2e" ]; then
	echo "the five slowest end-to-end cases:"
	src=$(cd "$(dirname "$0")/.." && pwd)
	while read -r secs name; do
		[ -f "$src/tests/e2e/cases/$name.case" ] && \
			printf '  %-28s %7.1f s\n' "$name" "$secs"
	done < "$B/e2e-times.txt" | sort -k2 -rn | head -5
fi
