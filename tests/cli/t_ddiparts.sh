# A systemd disk image with two protected partitions, root and usr, each
# with its tree and its signature, built by systemd-repart: verify and
# dump say both, each by its role, and --partition picks one; a bad block
# in usr fails usr alone; repair and open, which act on one pair, take
# the one --partition names (repair refuses to guess; open's pick of
# root is checked under the kernel, tests/kernel).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
command -v systemd-repart >/dev/null || { skip "systemd-repart is not installed"; finish; exit 0; }
quiet() { "$@" >/dev/null 2>&1; }
quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -subj /CN=ddi-signer -days 2
quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout k2.pem -out c2.pem -subj /CN=someone-else -days 2
gen 81 $((6 << 20)) >root.data
gen 82 $((4 << 20)) >usr.data
SEED=0e8b1f3c-5a7d-4e21-9c6b-2f4d8a1e3b57

# root and usr, each data, tree and signature (repart_defs' shape twice)
mkdir two.d
for role in root usr; do
	printf '[Partition]\nType=%s\nCopyBlocks=%s\nVerity=data\nVerityMatchKey=%s\n' \
		$role "$T/$role.data" $role >two.d/$role-1.conf
	printf '[Partition]\nType=%s-verity\nVerity=hash\nVerityMatchKey=%s\n' $role $role >two.d/$role-2.conf
	printf '[Partition]\nType=%s-verity-sig\nVerity=signature\nVerityMatchKey=%s\n' $role $role >two.d/$role-3.conf
done
systemd-repart --empty=create --size=auto --definitions=two.d --private-key=k.pem --certificate=c.pem \
	--dry-run=no --seed=$SEED --json=short two.raw 2>repart.err >repart.json
check "systemd-repart builds a DDI with root and usr, both signed" test -s two.raw
ROOT=$(jq -r '.[] | select(.type | test("^root.*-verity$")) | .roothash' repart.json)
USR=$(jq -r '.[] | select(.type | test("^usr.*-verity$")) | .roothash' repart.json)
check "  repart names both root hashes" test ${#ROOT} = 64 -a ${#USR} = 64
# where usr's data starts (bytes), to damage it
ARCH=$(jq -r '.[] | select(.type | test("^root-") and (test("-verity") | not)) | .type' repart.json)
UARCH=${ARCH/root/usr}
USR_AT=$(sfdisk -J two.raw 2>/dev/null | jq --arg n "$UARCH" '.partitiontable.partitions[] | select(.name == $n) | .start * 512')

# verify: both, in the partition table's order, each signed
check "verify IMAGE: both partitions verified" run_rc 0 "$FV" verify two.raw --trusted-cert=c.pem
check "  root's verdict" grep -q "^$ARCH: partition 1 .*UUID ${ROOT:0:8}-.*, tree in partition 2, signed: verified.$" "$T/out"
check "  usr's verdict" grep -q "^$UARCH: partition .*UUID ${USR:0:8}-.*, signed: verified.$" "$T/out"
check "  each signer named" test "$(grep -c "signed by /CN=ddi-signer" "$T/out")" = 2
check "  root before usr" sh -c "grep -n ': partition' '$T/out' | head -1 | grep -q '^1:$ARCH'"
check "verify --json: two partitions, both checked" sh -c "'$FV' verify --json two.raw --trusted-cert=c.pem | jq -e '(.partitions | length) == 2 and all(.partitions[]; .trust == \"checked\")' >/dev/null"
check "verify --partition=usr: usr alone" run_rc 0 "$FV" verify two.raw --trusted-cert=c.pem --partition=usr
check "  one verdict, usr's" sh -c "test \$(grep -c ': partition' '$T/out') = 1 && grep -q '^$UARCH: ' '$T/out'"
check "verify --partition=home: refused, exit 1" run_rc 1 "$FV" verify two.raw --partition=home
check "  names the option" grep -q "^fastverity: --partition: 'home' is not root or usr$" "$T/err"
check "verify IMAGE: another signer's certificate refuses both (exit 2)" run_rc 2 "$FV" verify two.raw --trusted-cert=c2.pem

# a bad byte in usr's data: usr fails, root still verifies
cp two.raw bad.raw
flip bad.raw $((USR_AT + 5000))
check "verify IMAGE: a bad block in usr fails the image (exit 2)" run_rc 2 "$FV" verify bad.raw --trusted-cert=c.pem
check "  root verified" grep -q "^$ARCH: .*signed: verified.$" "$T/out"
check "  usr failed, one bad data block" grep -q "^$UARCH: .*signed: FAILED: 1 bad data block.$" "$T/out"
check "  the block named by partition and image byte" grep -q "^Verification failed at position 4608 (partition 4: $UARCH, .*; image byte $((USR_AT + 4608)))\.$" "$T/err"
check "verify --partition=root of it: passes" run_rc 0 "$FV" verify bad.raw --trusted-cert=c.pem --partition=root
check "verify --partition=usr of it: fails" run_rc 2 "$FV" verify bad.raw --trusted-cert=c.pem --partition=usr

# dump: both, and each root hash repart's
check "dump IMAGE: both partitions" run_rc 0 "$FV" dump two.raw
check "  root's root hash" grep -q "^Root hash:      	$ROOT$" "$T/out"
check "  usr's root hash" grep -q "^Root hash:      	$USR$" "$T/out"
check "dump --partition=usr: usr's alone" run_rc 0 "$FV" dump two.raw --partition=usr
check "  one header, usr's root" sh -c "test \$(grep -c '^Root hash:' '$T/out') = 1 && grep -q '^Root hash:      	$USR$' '$T/out'"
check "dump --json: two partitions" sh -c "'$FV' dump --json two.raw | jq -e '(.partitions | length) == 2' >/dev/null"

# repair acts on one pair: of two, it asks which, and writes nothing
cp bad.raw before.raw
check "repair IMAGE of two partitions: refused, exit 1" run_rc 1 "$FV" repair bad.raw --trusted-cert=c.pem
check "  says to name one" grep -q "bad.raw: several protected partitions: name one with --partition=root|usr$" "$T/err"
check "repair --partition=usr, no parity: refused, exit 1" run_rc 1 "$FV" repair bad.raw --trusted-cert=c.pem --partition=usr
check "  says parity is needed" grep -q "holds no parity: requires --fec-device" "$T/err"
check "  nothing written" cmp -s bad.raw before.raw
check "repair --partition=home: refused" run_rc 1 "$FV" repair bad.raw --trusted-cert=c.pem --partition=home
check "  names the option" grep -q "^fastverity: --partition: 'home' is not root or usr$" "$T/err"

finish
