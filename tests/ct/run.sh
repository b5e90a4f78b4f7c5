#!/bin/bash
# make check-ct: ML-DSA's keygen and signing under valgrind's memcheck
# with the secret key marked undefined (tests/ct/mldsa_ct.c): any branch
# or memory index on it fails. A second run with a deliberate branch on
# the seed must be caught. SKIP when valgrind is not installed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
B=${B:-build}
if ! command -v valgrind >/dev/null || [ ! -e /usr/include/valgrind/memcheck.h ]; then
	echo "SKIP ct: valgrind is not installed (apt-get install valgrind): ML-DSA's constant-time test not run"
	exit 0
fi
make -s --no-print-directory "$B/mldsa-ct" || { echo "FAIL ct: $B/mldsa-ct does not build"; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
vg() { valgrind -q --error-exitcode=99 --track-origins=yes "$@" >"$log" 2>&1; }
vg "$B/mldsa-ct"; rc=$?
if [ "$rc" != 0 ]; then
	echo "FAIL ct: ML-DSA keygen or signing depends on the secret key (valgrind, exit $rc):"
	head -60 "$log"
	exit 1
fi
vg "$B/mldsa-ct" canary; rc=$?
if [ "$rc" != 99 ] || ! grep -q "depends on uninitialised" "$log"; then
	echo "FAIL ct: a deliberate branch on the seed was not caught (exit $rc): the test sees nothing"
	head -30 "$log"
	exit 1
fi
echo "ct: ML-DSA-65/87 keygen and signing: no branch or index on the secret key (valgrind memcheck); the canary was caught"
