#!/bin/bash
# make check-asan: the unit suites and the command tests against the
# build in build-asan (AddressSanitizer with leak checking, UBSan). Prints
# "asan: N unit suites, N command checks passed; N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
rm -f build-asan/cli.log
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86
export LSAN_OPTIONS=suppressions=$top/tests/asan/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
# Check's fork per test costs seconds each under ASan; leaks are then
# found at the suite's exit
export CK_FORK=no
failed=0
# the suites (make check-asan names them in ASAN_UNITS: build-asan/unit/
# <folder>/test_<file>, as tests/unit/ has them; else those built) as
# many at once as there are CPUs (each one a process; its log beside it)
unit_one() {
	"$1" >"$1.log" 2>&1 && return
	echo "FAIL asan: ${1#build-asan/unit/}" >&2
	tail -40 "$1.log" >&2
	return 1
}
export -f unit_one
unit_list=${ASAN_UNITS:-$(find build-asan/unit -type f -name 'test_*' ! -name '*.log' | sort)}
# shellcheck disable=SC2086
ufailed=$(printf '%s\n' $unit_list | xargs -P "$(nproc)" -I{} bash -c 'unit_one "$1" || echo F' _ {} | grep -c F)
failed=$((failed + ufailed))
# shellcheck disable=SC2086
units=$(printf '%s\n' $unit_list | wc -l)
# command tests: the sanitized binary; any sanitizer report, a leak
# included, fails its check (exit 86/87) and is kept in the log. (The
# leak check costs 20-40 ms a process here, about a third of these
# tests' time; make check keeps it: a leak of lp dump's once went
# unseen by every run without it.)
leaks="with leak checks"
tests=${ASAN_CLI_TESTS:-t_badinput t_output t_safety t_sign t_trust t_corruption t_vectors t_avb t_avb_mldsa t_avbtool t_sparse t_super t_update t_ddi t_containers}
[ "$tests" = all ] && tests=$(cd tests/cli && ls t_*.sh | sed 's/\.sh$//')
. tests/cli/tally.sh
export RESULTS
RESULTS=$(mktemp /tmp/fastverity-asan.XXXXXX)
export FV_BIN=$top/build-asan/fastverity-asan
# two lanes, one per core, as tests/cli/run.sh runs them: the tests that
# make loop or device-mapper devices one after another in the first
asan_lane() {
	for t in "$@"; do
		cli_test "tests/cli/$t.sh" 2>>"build-asan/cli.$1.log"
	done
}
rm -f build-asan/cli.*.log
lane1=() lane2=()
for t in $tests; do
	case " t_activate t_completion t_containers t_output t_safety t_sparse t_trust " in
	*" $t "*) lane1+=("$t") ;;
	*) lane2+=("$t") ;;
	esac
done
[ ${#lane1[@]} = 0 ] || asan_lane "${lane1[@]}" &
[ ${#lane2[@]} = 0 ] || asan_lane "${lane2[@]}"
wait
cat build-asan/cli.*.log >>build-asan/cli.log 2>/dev/null
cpass=$(grep -c '^pass' "$RESULTS")
cfail=$(grep -c '^FAIL' "$RESULTS")
cskip=$(grep -c '^SKIP' "$RESULTS")
grep '^FAIL\|^SKIP' "$RESULTS" >&2
rm -f "$RESULTS"
if grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' build-asan/cli.log 2>/dev/null; then
	echo "FAIL asan: sanitizer reports in build-asan/cli.log:" >&2
	grep -A20 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' build-asan/cli.log | head -60 >&2
	failed=$((failed + 1))
fi
echo "asan: $((units - failed)) unit suites, $cpass command checks ($leaks) passed; $((failed + cfail)) failed, $cskip skipped ($tests)"
[ "$failed" = 0 ] && [ "$cfail" = 0 ] && [ "$cpass" -gt 0 ]
