#!/bin/sh
# Runs each Check unit binary given (named by its path below tests/, as
# its source's below tests/unit/); fails if any fails.
status=0
for t in "$@"; do
	echo "== ${t#*/tests/}"
	"$t" || status=1
done
exit $status
