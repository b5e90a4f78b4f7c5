# Helpers for the command tests. Each test file sources this, calls the
# checks, and ends with `finish`. Results go to $RESULTS (one line each:
# pass, FAIL or SKIP; tests/cli/tally.sh counts them).
set -u
# Debian's programs first: the oracles and python3 (with its
# python3-jsonschema) are Debian's packages, and an interpreter's shim
# ahead of them on PATH (pyenv's here: 0.3 s a start, against 0.03 s)
# would run another one, slowly
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
TOP=$(cd "$(dirname "$0")/../.." && pwd)
VS=veritysetup
T=$(mktemp -d /tmp/fastverity-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
# the command (check-asan runs the sanitized build), through build/fvjson
# when it is built: every --json document kept, checked by finish
FV_REAL="${FV_BIN:-$TOP/fastverity}"
FV_JSON_LOG=$T/json.log
export FV_REAL FV_JSON_LOG
FV=$FV_REAL
[ -x "$TOP/build/fvjson" ] && FV=$TOP/build/fvjson
RESULTS=${RESULTS:-$T/results}
NAME=$(basename "$0" .sh)
SALT=e48da609055204e89ae53b655ca2216dd983cf3cb829f34f63a297d106d53e2d
UUID=12345678-1234-1234-1234-123456789abc

pass() { echo "pass $NAME: $*" >>"$RESULTS"; }
fail() { echo "FAIL $NAME: $*" >>"$RESULTS"; echo "FAIL $NAME: $*" >&2; }

# check DESCRIPTION COMMAND...: passes when the command exits 0.
check() {
	local what=$1; shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

# run_rc WANT_RC CMD...: runs CMD, keeps stdout/stderr in $T/out, $T/err.
run_rc() {
	local want=$1 rc; shift
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ "$rc" = "$want" ]; then return 0; fi
	echo "  exit $rc, wanted $want: $*" >&2
	sed 's/^/  | /' "$T/err" >&2
	return 1
}

# Deterministic bytes: SEED COUNT_BYTES > file
gen() { "$TOP/build/mkimage" random "$1" "$2"; }

# FILE OFFSET: invert one byte in place (writing a fixed byte may write
# the byte that was already there)
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# repart_defs DIR DATA [sig]: systemd-repart's definitions of a root
# partition copied from DATA with its tree (and its signature)
repart_defs() {
	mkdir -p "$1"
	printf '[Partition]\nType=root\nCopyBlocks=%s\nVerity=data\nVerityMatchKey=root\n' "$2" >"$1/10-root.conf"
	printf '[Partition]\nType=root-verity\nVerity=hash\nVerityMatchKey=root\n' >"$1/20-verity.conf"
	[ -z "${3:-}" ] || printf '[Partition]\nType=root-verity-sig\nVerity=signature\nVerityMatchKey=root\n' >"$1/30-sig.conf"
}

# files_same A B [A B ...]: every pair holds the same bytes (cmp -s of
# each); files_copy SRC DST [SRC DST ...]: cp of each; one process for
# all (build/fvfiles)
files_same() { "$TOP/build/fvfiles" same "$@"; }
files_copy() { "$TOP/build/fvfiles" copy "$@"; }

root_of() { awk -F'\t' '/^Root hash:/ {print $2}' "$1"; }

jqok() { jq -e "$@" >/dev/null; }

# skip DESCRIPTION: a check that cannot run on this machine (no loop
# devices, no tmpfs), counted and printed as SKIP in the totals.
skip() {
	echo "SKIP $NAME: $*" >>"$RESULTS"
	echo "  SKIP: $*" >&2
}

# noble_install: @noble/post-quantum 0.7.1, the independent ML-DSA the
# ML-DSA tests check against, in $NOBLE (build/noble), installed there
# once with npm: 0 when node loads it, else 1 with the reason in
# $NOBLE_WHY (the test then says SKIP with it).
NOBLE=${NOBLE_DIR:-$TOP/build/noble}
noble_loads() {
	[ -e "$NOBLE/node_modules/@noble/post-quantum/ml-dsa.js" ] &&
		node --input-type=module -e "await import('$NOBLE/node_modules/@noble/post-quantum/ml-dsa.js')" \
			>/dev/null 2>"$T/node.err"
}
noble_install() {
	NOBLE_WHY=
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		NOBLE_WHY="node and npm are not installed"
		return 1
	fi
	noble_loads && return 0
	mkdir -p "$NOBLE" 2>"$T/npm.log" &&
		npm install --prefix "$NOBLE" --no-audit --no-fund --loglevel=error \
			@noble/post-quantum@0.7.1 >"$T/npm.log" 2>&1 && noble_loads && return 0
	NOBLE_WHY="npm could not install it or node cannot run it ($({ tail -1 "$T/node.err"; tail -1 "$T/npm.log"; } 2>/dev/null | tr '\n' ' ' | cut -c1-160))"
	return 1
}

# finish: the last line of every test file. A file that recorded no
# check fails; "done" tells the runner it got here (a file that stops
# early fails there).
# Every --json document of the file's commands: one JSON document, no
# key twice in an object, valid against docs/fastverity.schema.json
# (python3-jsonschema).
json_documents() {
	local schema=$TOP/docs/fastverity.schema.json rc
	[ -s "$FV_JSON_LOG" ] || return 0
	[ -f "$schema" ] || schema=
	python3 "$TOP/tests/cli/jsoncheck.py" "$FV_JSON_LOG" ${schema:+"$schema"}
	rc=$?
	if [ "$rc" = 3 ]; then
		skip "the --json documents against the schema (no python3-jsonschema)"
		rc=0
	fi
	check "every --json document: one document, no key twice, valid against the schema" test "$rc" = 0
	: >"$FV_JSON_LOG"
}

finish() {
	json_documents
	grep -q "^\(pass\|FAIL\|SKIP\) $NAME:" "$RESULTS" || fail "no check ran"
	echo "done $NAME" >>"$RESULTS"
}
