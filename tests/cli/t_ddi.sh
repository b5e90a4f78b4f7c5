# systemd Discoverable Disk Images: images built by systemd-repart
# (Debian 12's systemd 252: Verity=data/hash/signature, CopyBlocks=) and
# one made by hand with sfdisk and fastverity format (4096-byte blocks)
# checked offline by verify IMAGE: good, damaged data and tree, signer
# untrusted, signatures over other roots, bad partition tables and
# signature JSON; dump's root hash is repart's; sign --ddi-json writes
# repart's JSON byte for byte.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
command -v systemd-repart >/dev/null || { skip "systemd-repart is not installed"; finish; exit 0; }
quiet() { "$@" >/dev/null 2>&1; }
cc -std=c11 -o gptfix "$TOP/tests/cli/gptfix.c" -lz || fail "gptfix does not build"
quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -subj /CN=ddi-signer -days 2
quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout k2.pem -out c2.pem -subj /CN=someone-else -days 2
gen 81 $((6 << 20)) >root.data
SEED=0e8b1f3c-5a7d-4e21-9c6b-2f4d8a1e3b57

repart_defs signed.d "$T/root.data" sig
repart_defs unsigned.d "$T/root.data"
systemd-repart --empty=create --size=auto --definitions=signed.d --private-key=k.pem --certificate=c.pem \
	--dry-run=no --seed=$SEED --json=short signed.raw 2>repart.err >repart.json
check "systemd-repart builds a signed DDI" test -s signed.raw
check "systemd-repart builds an unsigned DDI" quiet systemd-repart --empty=create --size=auto --definitions=unsigned.d \
	--dry-run=no --seed=$SEED unsigned.raw
ROOT=$(jq -r '.[] | select(.roothash != null) | .roothash' repart.json)
check "  repart names the root hash" test ${#ROOT} = 64

check "verify IMAGE: a signed DDI" run_rc 0 "$FV" verify signed.raw --trusted-cert=c.pem
check "  the partition and signer named" grep -q "^root-x86-64: partition 1 (root-x86-64, label 'root-x86-64', UUID ${ROOT:0:8}-.*), tree in partition 2, signed: verified.$" "$T/out"
check "  the signer" grep -q "^root-x86-64: signed by /CN=ddi-signer (certificate sha256 [0-9a-f]\{64\}), partition 3.$" "$T/out"
check "verify IMAGE: the signer must be trusted (exit 2, as for every container)" run_rc 2 "$FV" verify signed.raw --trusted-cert=c2.pem
check "  says so" grep -q "the signer /CN=ddi-signer is not trusted" "$T/err"
check "verify IMAGE: a root hash signature given: refused, exit 1" run_rc 1 "$FV" verify unsigned.raw --root-hash-signature=signed.raw
check "  the disk image carries its own" grep -q "carries its own signatures; --root-hash-signature does not apply" "$T/err"
check "verify IMAGE: signed, and no certificate to check it: checked, the signer said not to be" run_rc 0 "$FV" verify signed.raw
check "  says where to give one" grep -q "is signed (partition 3), and its signer was not checked (give --trusted-cert=<cert.pem>, or put the certificate in /etc/verity.d/ as systemd does)" "$T/err"
check "  and the verdict says so" grep -q "^root-x86-64: .*, signed, signer not checked: verified.$" "$T/out"
check "  JSON: trust not checked, no signer" sh -c "'$FV' verify --json signed.raw 2>/dev/null | jq -e '.partitions[0].trust == \"not checked\" and .partitions[0].signer == null' >/dev/null"
mkdir verity.d && cp c.pem verity.d/signer.crt
check "verify IMAGE: signed, the certificate in verity.d" run_rc 0 env FASTVERITY_VERITY_D="$T/verity.d" "$FV" verify signed.raw
# a CA-issued leaf in /etc/verity.d, as systemd takes it: the leaf is
# the anchor, whatever its issuer (issue 53, finding 16)
quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -subj /CN=ddi-ca -days 2 \
	-addext basicConstraints=critical,CA:TRUE -addext keyUsage=keyCertSign,cRLSign
quiet openssl req -new -newkey rsa:2048 -nodes -keyout leaf.key -subj /CN=ddi-leaf -out leaf.csr
quiet openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out leaf.pem
systemd-repart --empty=create --size=auto --definitions=signed.d --private-key=leaf.key --certificate=leaf.pem \
	--dry-run=no --seed=$SEED leaf.raw >/dev/null 2>&1
mkdir leaf.d && cp leaf.pem leaf.d/leaf.crt
check "verify IMAGE: signed by a CA-issued leaf, the leaf in verity.d: accepted" run_rc 0 env FASTVERITY_VERITY_D="$T/leaf.d" "$FV" verify leaf.raw
check "  the leaf is the signer" grep -q "^root-x86-64: signed by /CN=ddi-leaf " "$T/out"
check "  and --trusted-cert with the leaf: accepted" run_rc 0 "$FV" verify leaf.raw --trusted-cert=leaf.pem
check "  an unrelated certificate: refused, exit 2" run_rc 2 "$FV" verify leaf.raw --trusted-cert=c.pem
check "open IMAGE --trusted-cert: an untrusted signer refused before mapping (exit 2)" run_rc 2 "$FV" open signed.raw ddi-x --trusted-cert=c2.pem
check "  names the image and the signer" grep -q "signed.raw: the signer /CN=ddi-signer is not trusted" "$T/err"
run_rc 9 env FASTVERITY_VERITY_D="$T/verity.d" "$FV" open signed.raw ddi-x --debug
check "open IMAGE: the signer in verity.d passes the check" grep -q "signature checks out: signed by /CN=ddi-signer" "$T/err"
"$FV" close ddi-x >/dev/null 2>&1
check "open IMAGE --trusted-cert of an unsigned DDI: refused (nothing to check)" run_rc 2 "$FV" open unsigned.raw ddi-x --trusted-cert=c.pem
check "verify IMAGE: an unsigned DDI" run_rc 0 "$FV" verify unsigned.raw
check "  says it is unsigned" grep -q "unsigned (the root hash comes from the partition UUIDs): verified.$" "$T/out"
check "verify IMAGE --json" run_rc 0 "$FV" verify signed.raw --trusted-cert=c.pem --json
check "  the pair, its signer, its verdict" jqok ".result == \"ok\" and .partitions[0].root_hash == \"$ROOT\" and .partitions[0].signer == \"/CN=ddi-signer\" and .partitions[0].data.index == 1" "$T/out"

# dump: the root hash is repart's
check "dump IMAGE" run_rc 0 "$FV" dump signed.raw
check "  repart's root hash" grep -q "^Root hash:      	$ROOT$" "$T/out"
check "  512-byte blocks, as repart makes them" grep -q "^Data block size: 	512$" "$T/out"
check "dump IMAGE --json" run_rc 0 "$FV" dump signed.raw --json
check "  partitions and signature" jqok ".partitions[0].root_hash == \"$ROOT\" and .partitions[0].signed and .partitions[0].signer == \"/CN=ddi-signer\" and .partitions[0].hash.index == 2 and (.partitions[0].certificate_fingerprint | length) == 64" "$T/out"
check "  the signer named, said not checked (dump checks nothing)" jqok ".partitions[0].trust == \"not checked\"" "$T/out"
dataoff=$(jq '.partitions[0].data.offset' "$T/out")
hashoff=$(jq '.partitions[0].hash.offset' "$T/out")
sigoff=$(jq '.partitions[0].signature.offset' "$T/out")

# sign --ddi-json: the JSON repart wrote, byte for byte
dd if=signed.raw bs=1 skip="$sigoff" count=16384 status=none | tr -d '\000' >repart-sig.json
check "sign --ddi-json" run_rc 0 "$FV" sign --ddi-json --key k.pem --cert c.pem "$ROOT" fv-sig.json
check "  repart's JSON byte for byte" cmp -s fv-sig.json repart-sig.json

# Damage: data and tree, each named in its partition
cp signed.raw bad.raw
flip bad.raw $((dataoff + 5 * 512 + 9))
check "a flipped byte in root: exit 2" run_rc 2 "$FV" verify bad.raw --trusted-cert=c.pem
# Issue 53, 18: --json names the partition and the image byte too, as the
# schema's failure allows (finish validates the document)
check "  --json: exit 2" run_rc 2 "$FV" verify --json bad.raw --trusted-cert=c.pem
check "  --json: the failure's partition and image byte" jqok ".result == \"corrupted\" and .partitions[0].failures[0].partition == 1 and .partitions[0].failures[0].image_offset == $((dataoff + 2560))" "$T/out"
"$FV" verify bad.raw --trusted-cert=c.pem >"$T/out" 2>"$T/err"
check "  named in root, with the image byte" grep -qx "Verification failed at position 2560 (partition 1: root-x86-64, label 'root-x86-64', UUID ${ROOT:0:8}-${ROOT:8:4}-${ROOT:12:4}-${ROOT:16:4}-${ROOT:20:12}; image byte $((dataoff + 2560)))." "$T/err"
check "  the verdict line says what failed (not the signature)" grep -q "^root-x86-64: .*, signed: FAILED: 1 bad data block.$" "$T/out"
cp signed.raw bad.raw
flip bad.raw $((hashoff + 4096 + 7))
check "a flipped byte in the tree: exit 2" run_rc 2 "$FV" verify bad.raw --trusted-cert=c.pem
check "  named in the verity partition" grep -q "^Verification failed at position 4096 (partition 2: root-x86-64-verity, label 'root-x86-64-verity', UUID .*; image byte $((hashoff + 4096)))." "$T/err"

# Signatures that do not hold: over another root hash, or a rootHash that
# is not this tree's
OTHER=$(printf '%064d' 7)
"$FV" sign --ddi-json --key k.pem --cert c.pem "$OTHER" other.json
put_sig() { # IMAGE JSON: the signature partition's bytes
	head -c 16384 /dev/zero >sigpart
	dd if="$2" of=sigpart conv=notrunc status=none
	dd if=sigpart of="$1" bs=1 seek="$sigoff" conv=notrunc status=none
}
cp signed.raw bad.raw
sed "s/\"rootHash\":\"$OTHER\"/\"rootHash\":\"$ROOT\"/" other.json >mixed.json
put_sig bad.raw mixed.json
check "a signature over another root hash: exit 2" run_rc 2 "$FV" verify bad.raw --trusted-cert=c.pem
check "  says so" grep -q "does not match root hash $ROOT" "$T/err"
cp signed.raw bad.raw
put_sig bad.raw other.json
check "a signed rootHash that is not the tree's: exit 1" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  says so" grep -q "partition 3 (root-x86-64-verity-sig): its rootHash $OTHER names no root-x86-64 partition" "$T/err"
cp signed.raw bad.raw
sed 's/"certificateFingerprint":"[0-9a-f]*"/"certificateFingerprint":"'"$(printf '%064d' 5)"'"/' repart-sig.json >fp.json
put_sig bad.raw fp.json
check "a certificateFingerprint that is not the signer's: exit 1" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  says so" grep -q "partition 3: certificateFingerprint $(printf '%064d' 5) is not the signer's" "$T/err"
cp signed.raw bad.raw
printf '{"rootHash":"abc","signature":"AAAA"}' >short.json
put_sig bad.raw short.json
check "a rootHash of the wrong length" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  names the field" grep -q 'partition 3 (root-x86-64-verity-sig): "rootHash" is not 64 or 128 lowercase hex digits' "$T/err"
cp signed.raw bad.raw
{ cat repart-sig.json; printf '\000\000junk'; } >junk.json
put_sig bad.raw junk.json
check "JSON that is not NUL-padded" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  says so" grep -q "bytes after the JSON's NUL at .* are not NULs" "$T/err"
cp signed.raw bad.raw
printf '{"rootHash":"%s","signature":"\377"}' "$ROOT" >utf.json
put_sig bad.raw utf.json
check "JSON that is not UTF-8" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  says so" grep -q "partition 3 (root-x86-64-verity-sig): not a JSON object" "$T/err"
cp signed.raw bad.raw
head -c 16384 /dev/zero | tr '\000' 'x' >full.json
put_sig bad.raw full.json
check "a signature partition without JSON" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
# a signature partition whose JSON holds, its signature no PKCS#7: dump
# shows the image and says so (it checks nothing, as verify without a
# certificate passes it); verify with one refuses it
cp signed.raw bad.raw
sed 's/"signature":"[^"]*"/"signature":"MAMCAQc="/' repart-sig.json >nopkcs7.json
put_sig bad.raw nopkcs7.json
check "dump IMAGE: a signature that is no PKCS#7: shown, exit 0" run_rc 0 "$FV" dump bad.raw
check "  the signature said not to be read, in its line" grep -q "^  signature: partition 3 (root-x86-64-verity-sig, label 'root-x86-64-verity-sig', UUID .*), cannot be read (not a PKCS#7 signature), certificate sha256 [0-9a-f]\{64\}$" "$T/out"
check "  the header after it, nothing on stderr" sh -c "grep -q '^Root hash:      	$ROOT$' '$T/out' && test ! -s '$T/err'"
check "dump IMAGE --json: the same, exit 0" run_rc 0 "$FV" dump bad.raw --json
check "  signed, no signer, why" jqok '.partitions[0].signed and .partitions[0].signer == null and .partitions[0].error == "partition 3: not a PKCS#7 signature" and .partitions[0].trust == "not checked"' "$T/out"
check "verify IMAGE of it: no certificate, the signer not checked: exit 0" run_rc 0 "$FV" verify bad.raw
check "verify IMAGE of it --trusted-cert: refused" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem

# Bad partition tables (entries edited, CRCs fixed with gptfix)
put64le() { # FILE OFFSET VALUE
	local s="" i
	for i in 0 1 2 3 4 5 6 7; do s="$s$(printf '\\%03o' $((($3 >> (i * 8)) & 255)))"; done
	printf "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
cp signed.raw bad.raw
flip bad.raw $((512 + 60))
check "a GPT header with a wrong CRC" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  says so" grep -q "bad.raw: GPT header: CRC .* does not match its bytes" "$T/err"
cp signed.raw bad.raw
flip bad.raw $((1024 + 56 + 2))
check "GPT entries with a wrong CRC" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  says so" grep -q "bad.raw: GPT entries: CRC .* does not match their bytes" "$T/err"
cp signed.raw bad.raw
put64le bad.raw $((1024 + 40)) 999999999 && ./gptfix bad.raw
check "a partition outside the image" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  names it" grep -q "bad.raw: partition 1: sectors 2048 to 999999999 are not inside the usable sectors" "$T/err"
cp signed.raw bad.raw
put64le bad.raw $((1024 + 128 + 32)) $((dataoff / 512 + 8)) && ./gptfix bad.raw
check "overlapping partitions" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  names both" grep -q "bad.raw: partitions 1 and 2 overlap" "$T/err"
cp signed.raw bad.raw
put64le bad.raw $((1024 + 128 + 40)) $((hashoff / 512 + 3)) && ./gptfix bad.raw
check "a verity partition too small for its tree" run_rc 1 "$FV" verify bad.raw --trusted-cert=c.pem
check "  in one line" test "$(wc -l <"$T/err")" = 1

# 4096-byte blocks, made by hand: sfdisk and fastverity format
if command -v sfdisk >/dev/null; then
	gen 82 $((4 << 20)) >d4
	"$FV" format d4 h4 --salt="$SALT" >fmt4
	R4=$(root_of fmt4)
	hsize=$(stat -c %s h4)
	truncate -s $((16 << 20)) disk4.raw
	u1=$(echo "${R4:0:32}" | sed 's/\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)/\1-\2-\3-\4-/')
	u2=$(echo "${R4:32:32}" | sed 's/\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)/\1-\2-\3-\4-/')
	printf 'label: gpt\nstart=2048, size=8192, type=4f68bce3-e8cd-4db1-96e7-fbcaf984b709, uuid=%s, name=root\nstart=10240, size=%d, type=2c7357ed-ebd2-46d9-aec1-23d437ec2bf5, uuid=%s, name=root-verity\n' \
		"$u1" $(((hsize + 511) / 512)) "$u2" | quiet sfdisk disk4.raw
	dd if=d4 of=disk4.raw bs=512 seek=2048 conv=notrunc status=none
	dd if=h4 of=disk4.raw bs=512 seek=10240 conv=notrunc status=none
	check "verify IMAGE: 4096-byte blocks, partitions made by sfdisk" run_rc 0 "$FV" verify disk4.raw
	check "dump IMAGE: 4096-byte blocks" run_rc 0 "$FV" dump disk4.raw
	check "  the root of format" grep -q "^Root hash:      	$R4$" "$T/out"
	printf 'start=18432, size=8192, type=4f68bce3-e8cd-4db1-96e7-fbcaf984b709, name=root-b\n' |
		quiet sfdisk --append disk4.raw
	truncate -s $((32 << 20)) disk4.raw
	check "two root partitions, no signature to tell: refused" run_rc 1 "$FV" verify disk4.raw
	check "  says so" grep -q "partition 2 (root-x86-64-verity): 2 root-x86-64 partitions could be its data" "$T/err"
else
	skip "sfdisk (fdisk) is not installed"
fi

finish
