#!/bin/bash
# ML-DSA-65/87 of the library (build/mldsa-tool) against an independent
# implementation, @noble/post-quantum 0.7.1 from npm (installed once
# into build/noble; SKIP, said plainly, when npm cannot install it or
# node cannot run it): for MLDSA_PAIRS (200) random (seed, message)
# pairs of each level, the same public key from the seed, the same
# deterministic signature, each side's hedged signatures verified by
# the other, and a flipped bit of a signature or a message refused by
# both; where the openssl at hand has ML-DSA (3.5 or later), the same
# both ways against it.
. "$(dirname "$0")/lib.sh"
TOOL=${MLDSA_TOOL:-$TOP/build/mldsa-tool}
PAIRS=${MLDSA_PAIRS:-200}
JS=$TOP/tests/cli/mldsa_noble.mjs
cd "$T" || exit 1

if [ ! -x "$TOOL" ]; then
	fail "$TOOL is not built (make build/mldsa-tool)"
elif ! noble_install; then
	skip "ML-DSA against @noble/post-quantum: $NOBLE_WHY"
else
	for L in 65 87; do
		echo "gen $L $PAIRS" | node "$JS" "$NOBLE" >pairs$L || fail "ML-DSA-$L: random pairs"
		awk -v L=$L '{print "pk " L " " $1; print "sign " L " " $1 " " $2 " det";
			print "sign " L " " $1 " " $2 " hedged"}' pairs$L >cmds$L
		"$TOOL" <cmds$L >ours$L || fail "ML-DSA-$L: mldsa-tool failed"
		node "$JS" "$NOBLE" <cmds$L >noble$L || fail "ML-DSA-$L: noble failed"
		check "ML-DSA-$L: $PAIRS answers of each side" \
			test "$(wc -l <ours$L)" = $((3 * PAIRS)) -a "$(wc -l <noble$L)" = $((3 * PAIRS))
		check "ML-DSA-$L: KeyGen(seed) the same public key as noble's, $PAIRS seeds" \
			cmp -s <(awk 'NR % 3 == 1' ours$L) <(awk 'NR % 3 == 1' noble$L)
		check "ML-DSA-$L: deterministic signatures equal to noble's, $PAIRS messages" \
			cmp -s <(awk 'NR % 3 == 2' ours$L) <(awk 'NR % 3 == 2' noble$L)
		# each side verifies the other's hedged signatures, intact and
		# with one bit flipped (a different bit each), and a message
		# with a bit flipped
		python3 - "$L" pairs$L ours$L noble$L <<'PY'
import random, sys
L, pairs, ours, noble = sys.argv[1], open(sys.argv[2]).read().split('\n'), \
    open(sys.argv[3]).read().split('\n'), open(sys.argv[4]).read().split('\n')
rng = random.Random()
def flip(h):
    b = bytearray(bytes.fromhex(h)); i = rng.randrange(8 * len(b))
    b[i // 8] ^= 1 << (i % 8); return b.hex()
out = {n: open(n, 'w') for n in ('for_noble', 'for_ours', 'flip_for_noble', 'flip_for_ours',
                                 'msg_for_noble', 'msg_for_ours')}
for i, p in enumerate(x for x in pairs if x):
    seed, msg = p.split()
    pk, mine, theirs = ours[3 * i], ours[3 * i + 2], noble[3 * i + 2]
    out['for_noble'].write(f'verify {L} {pk} {msg} {mine}\n')
    out['for_ours'].write(f'verify {L} {pk} {msg} {theirs}\n')
    out['flip_for_noble'].write(f'verify {L} {pk} {msg} {flip(mine)}\n')
    out['flip_for_ours'].write(f'verify {L} {pk} {msg} {flip(theirs)}\n')
    if msg != '-':
        out['msg_for_noble'].write(f'verify {L} {pk} {flip(msg)} {mine}\n')
        out['msg_for_ours'].write(f'verify {L} {pk} {flip(msg)} {theirs}\n')
PY
		node "$JS" "$NOBLE" <for_noble >v1
		"$TOOL" <for_ours >v2
		check "ML-DSA-$L: our hedged signatures verify under noble" \
			test "$(grep -c '^ok$' v1)" = "$PAIRS" -a "$(wc -l <v1)" = "$PAIRS"
		check "ML-DSA-$L: noble's hedged signatures verify under ours" \
			test "$(grep -c '^ok$' v2)" = "$PAIRS" -a "$(wc -l <v2)" = "$PAIRS"
		check "ML-DSA-$L: hedged signatures differ from the deterministic ones" \
			test -z "$(comm -12 <(awk 'NR % 3 == 2' ours$L | sort) <(awk 'NR % 3 == 0' ours$L | sort))"
		node "$JS" "$NOBLE" <flip_for_noble >v3
		"$TOOL" <flip_for_ours >v4
		check "ML-DSA-$L: a flipped bit in our signatures refused by noble" \
			test "$(grep -c '^bad$' v3)" = "$PAIRS"
		check "ML-DSA-$L: a flipped bit in noble's signatures refused by ours" \
			test "$(grep -c '^bad$' v4)" = "$PAIRS"
		node "$JS" "$NOBLE" <msg_for_noble >v5
		"$TOOL" <msg_for_ours >v6
		check "ML-DSA-$L: a flipped bit in the message refused by both" \
			test "$(grep -c '^bad$' v5)" = "$(wc -l <msg_for_noble)" -a \
			"$(grep -c '^bad$' v6)" = "$(wc -l <msg_for_ours)" -a -s msg_for_ours
	done
fi

# OpenSSL >= 3.5 has ML-DSA: where the openssl at hand has it, a key
# made from a seed there gives our public key, and each side verifies
# the other's signatures (Debian 12's OpenSSL 3.0 has none: SKIP)
if [ ! -x "$TOOL" ]; then
	:
elif ! openssl list -signature-algorithms 2>/dev/null | grep -qi 'ML-DSA-65'; then
	skip "ML-DSA against OpenSSL: $(openssl version 2>/dev/null | cut -d' ' -f1-2) has no ML-DSA (OpenSSL 3.5 or later has)"
else
	unhex() { python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1]))' "$1"; }
	for L in 65 87; do
		case $L in 65) PKLEN=1952 ;; 87) PKLEN=2592 ;; esac
		seed=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
		msg=$(head -c 100 /dev/urandom | od -An -tx1 | tr -d ' \n')
		unhex "$msg" >msg$L
		openssl genpkey -algorithm ML-DSA-$L -pkeyopt hexseed:"$seed" -out ossl$L.pem 2>/dev/null &&
			openssl pkey -in ossl$L.pem -pubout -out ossl$L.pub 2>/dev/null
		theirs_pk=$(openssl pkey -pubin -in ossl$L.pub -outform DER 2>/dev/null | tail -c $PKLEN | od -An -tx1 | tr -d ' \n')
		ours_pk=$(echo "pk $L $seed" | "$TOOL")
		check "ML-DSA-$L: the public key OpenSSL makes from a seed, ours" \
			test -n "$ours_pk" -a "$ours_pk" = "$theirs_pk"
		openssl pkeyutl -sign -rawin -inkey ossl$L.pem -in msg$L -out ossl$L.sig 2>/dev/null
		check "ML-DSA-$L: OpenSSL's signature verifies under ours" test \
			"$(echo "verify $L $ours_pk $msg $(od -An -tx1 ossl$L.sig | tr -d ' \n')" | "$TOOL")" = ok
		unhex "$(echo "sign $L $seed $msg hedged" | "$TOOL")" >ours$L.sig
		check "ML-DSA-$L: our signature verifies under OpenSSL" \
			openssl pkeyutl -verify -rawin -pubin -inkey ossl$L.pub -in msg$L -sigfile ours$L.sig
	done
fi
finish
