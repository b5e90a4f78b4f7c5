#!/bin/sh
# Runs each Check unit binary given; fails if any fails.
status=0
for t in "$@"; do
	echo "== $(basename "$t")"
	"$t" || status=1
done
exit $status
