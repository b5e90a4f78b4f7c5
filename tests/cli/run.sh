#!/bin/bash
# Runs every command test and prints the totals
# ("cli: N passed, N failed, N skipped"). Two lanes at once, one per
# core: the tests that make device-mapper or loop devices (and the two
# longest others, to even the lanes out) one after another in the first,
# every other test in the second. A new test that makes devices goes in
# the first lane's list.
# CHECK_QUICK=1 (make check): the tests make check runs under ASan
# (ASAN_CLI_TESTS) are left to that run, and t_package (the Debian
# packages built from the tree) to make check-full.
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
elsewhere=
if [ "${CHECK_QUICK:-}" = 1 ]; then
	elsewhere=t_package
	[ "${ASAN_CLI_TESTS:-all}" = all ] || elsewhere="$elsewhere $ASAN_CLI_TESTS"
fi
firsts=() others=()
for t in t_*.sh; do
	t=${t%.sh}
	case " $elsewhere " in *" $t "*) continue ;; esac
	case " $first " in *" $t "*) firsts+=("$t") ;; *) others+=("$t") ;; esac
done
lane "${firsts[@]}" &
lane "${others[@]}"
wait
# shellcheck disable=SC2086
tally cli "${elsewhere:+(left to the ASan run or check-full:$(printf ' %s' $elsewhere))}"
rc=$?
rm -f "$RESULTS"
exit $rc
