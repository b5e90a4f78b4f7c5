#!/bin/bash
# ML-DSA-65/87 of the library (build/mldsa-tool) against NIST's ACVP
# known answers for FIPS 204, tests/avb/mldsa/acvp_fips204.txt (its head
# says which vectors and in what form): KeyGen from a seed (the public
# and the expanded secret key, by their SHA-256), pure ML-DSA.Verify (a
# valid signature accepted, a modified signature or message refused)
# and deterministic pure ML-DSA.Sign with an empty context, as AVB signs
# (the signature by its SHA-256). One check a kind and level, with its
# count; fewer vectors in the file than this test expects fail too.
. "$(dirname "$0")/lib.sh"
TOOL=${MLDSA_TOOL:-$TOP/build/mldsa-tool}
DATA=${MLDSA_KAT:-$TOP/tests/avb/mldsa/acvp_fips204.txt}
cd "$T" || exit 1

# the vectors of each kind and level the file holds
GROUPS_WANTED="keygen:65:25 keygen:87:25 sigver:65:3 sigver:87:3 siggen:65:1 siggen:87:1"

if [ ! -x "$TOOL" ]; then
	fail "$TOOL is not built (make build/mldsa-tool)"
elif ! python3 - "$DATA" cmds want <<'PY'; then
# the tool's commands, and for each vector the answers it must give
import sys
data, cmds, want = sys.argv[1:]
with open(data) as f, open(cmds, 'w') as c, open(want, 'w') as w:
    for n, line in enumerate(f, 1):
        if line.startswith('#') or not line.strip():
            continue
        v = line.split()
        kind, level, tc = v[0], v[1], v[2] if len(v) > 2 else '?'
        if kind == 'keygen' and len(v) == 6:
            # seed sha256(pk) sha256(sk)
            c.write(f'pk {level} {v[3]}\nsk {level} {v[3]}\n')
            w.write(f'{kind} {level} {tc} 2 sha:{v[4]} sha:{v[5]}\n')
        elif kind == 'sigver' and len(v) == 8:
            # pk msg ctx sig verdict
            c.write(f'verify {level} {v[3]} {v[4]} {v[6]} {v[5]}\n')
            w.write(f'{kind} {level} {tc} 1 {"ok" if v[7] == "valid" else "bad"}\n')
        elif kind == 'siggen' and len(v) == 7:
            # sk msg ctx sha256(sig)
            c.write(f'signsk {level} {v[3]} {v[4]} {v[5]} det\n')
            w.write(f'{kind} {level} {tc} 1 sha:{v[6]}\n')
        else:
            sys.exit(f'{data}:{n}: not a vector')
PY
	fail "the vectors of $DATA cannot be read"
else
	"$TOOL" <cmds >answers
	rc=$?
	check "mldsa-tool answers every command (exit $rc, $(wc -l <answers) of $(wc -l <cmds))" \
		test "$rc" = 0 -a "$(wc -l <answers)" = "$(wc -l <cmds)"
	# KIND LEVEL VECTORS RIGHT (and for sigver: VALID INVALID) a group;
	# each vector answered wrong named on stderr
	python3 - want answers >tally <<'PY'
import hashlib, sys
want = [l.split() for l in open(sys.argv[1])]
got = open(sys.argv[2]).read().split('\n')
groups, pos = {}, 0
for kind, level, tc, n, *expect in want:
    answers, pos = got[pos:pos + int(n)], pos + int(n)
    def right(e, a):
        if e.startswith('sha:'):
            try:
                return hashlib.sha256(bytes.fromhex(a)).hexdigest() == e[4:]
            except ValueError:
                return False
        return a == e
    ok = len(answers) == len(expect) and all(map(right, expect, answers))
    g = groups.setdefault((kind, level), [0, 0, 0, 0])
    g[0] += 1
    g[1] += ok
    if kind == 'sigver':
        g[2 if expect[0] == 'ok' else 3] += 1
    if not ok:
        print(f'  ACVP {kind} ML-DSA-{level} tcId {tc}: wrong answer', file=sys.stderr)
for (kind, level), g in groups.items():
    print(kind, level, *g)
PY
	declare -A name=(
		[keygen]="keyGen: seeds whose public and secret keys are the expected ones"
		[sigver]="sigVer, pure ML-DSA with a context: verdicts right"
		[siggen]="sigGen, pure ML-DSA, deterministic, empty context: signatures the expected ones")
	for g in $GROUPS_WANTED; do
		IFS=: read -r kind level count <<<"$g"
		read -r _ _ total right valid invalid < <(grep "^$kind $level " tally)
		what="ACVP ML-DSA-$level ${name[$kind]}, ${right:-0} of $count"
		[ "$kind" = sigver ] && what="$what (${valid:-0} valid, ${invalid:-0} modified)"
		check "$what" test "${total:-0}" = "$count" -a "${right:-0}" = "$count"
		if [ "$kind" = sigver ]; then
			check "ACVP ML-DSA-$level sigVer: both verdicts among the vectors" \
				test "${valid:-0}" -gt 0 -a "${invalid:-0}" -gt 0
		fi
	done
fi
finish
