#!/bin/bash
# Runs every command test and prints the totals
# ("cli: N passed, N failed, N skipped"). Two lanes at once, one per
# core: the tests that make device-mapper or loop devices (and the two
# longest others, to even the lanes out) one after another in the first,
# every other test in the second. A new test that makes devices goes in
# the first lane's list.
cd "$(dirname "$0")" || exit 1
. ./tally.sh
export RESULTS
RESULTS=$(mktemp /tmp/fastverity-results.XXXXXX)
first="t_activate t_completion t_containers t_output t_safety t_sparse t_trust t_faults t_interop"
lane() {
	for t in "$@"; do
		echo "== $t"
		cli_test "$t.sh"
	done
}
others=()
for t in t_*.sh; do
	t=${t%.sh}
	case " $first " in *" $t "*) ;; *) others+=("$t") ;; esac
done
# shellcheck disable=SC2086
lane $first &
lane "${others[@]}"
wait
tally cli
rc=$?
rm -f "$RESULTS"
exit $rc
