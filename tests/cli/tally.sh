# Sourced by the runners of command tests (tests/cli/run.sh, the ASan
# and arm64 runs): each test file writes one line a check to $RESULTS
# (pass, FAIL, SKIP) and "done NAME" when it reaches `finish`.

# cli_test FILE: runs one test file; a file that exits non-zero or stops
# before its `finish` is a failure of its own.
cli_test() {
	local f=$1 name rc
	name=$(basename "$f" .sh)
	bash "$f"
	rc=$?
	[ "$rc" = 0 ] || echo "FAIL $name: exited $rc" >>"$RESULTS"
	grep -qx "done $name" "$RESULTS" ||
		echo "FAIL $name: stopped before its last check (no finish)" >>"$RESULTS"
}

# tally LABEL [NOTE]: prints the failures and skips, then
# "LABEL: N passed, N failed, N skipped[ NOTE]"; true when nothing failed
# and something passed.
tally() {
	local passed failed skipped
	passed=$(grep -c '^pass' "$RESULTS")
	failed=$(grep -c '^FAIL' "$RESULTS")
	skipped=$(grep -c '^SKIP' "$RESULTS")
	grep '^FAIL' "$RESULTS" >&2
	grep '^SKIP' "$RESULTS" >&2
	echo "$1: $passed passed, $failed failed, $skipped skipped${2:+ $2}"
	[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}
