#!/bin/bash
# Runs every command test and prints the totals ("N passed, N failed").
cd "$(dirname "$0")" || exit 1
export RESULTS
RESULTS=$(mktemp /tmp/fastverity-results.XXXXXX)
for t in t_*.sh; do
	echo "== $t"
	bash "$t" || echo "FAIL $t: exited $?" >>"$RESULTS"
done
passed=$(grep -c '^pass' "$RESULTS")
failed=$(grep -c '^FAIL' "$RESULTS")
grep '^FAIL' "$RESULTS"
rm -f "$RESULTS"
echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
