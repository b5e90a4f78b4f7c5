#!/bin/bash
# Runs every command test and prints the totals
# ("cli: N passed, N failed, N skipped").
cd "$(dirname "$0")" || exit 1
. ./tally.sh
export RESULTS
RESULTS=$(mktemp /tmp/fastverity-results.XXXXXX)
for t in t_*.sh; do
	echo "== $t"
	cli_test "$t"
done
tally cli
rc=$?
rm -f "$RESULTS"
exit $rc
