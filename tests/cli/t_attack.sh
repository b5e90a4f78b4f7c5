# Images made by a hostile author, judged as the device judges them
# (libavb's avb_slot_verify, liblp, the kernel) or refused: each case
# a wrong result or an unsafe act once reached.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
K=$TOP/tests/avb/keys
MIB=1048576

# ---- 1. a chained vbmeta with flags: libavb refuses the set ----
# (flags are the top vbmeta's alone: "chained vbmeta image has non-zero
# flags", ERROR_INVALID_METADATA)
gen 1 300000 >sys.img
"$FV" avb add_hashtree_footer --image sys.img --partition_name sys --partition_size $MIB \
	--hash_algorithm sha256 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--set_verification_disabled_flag || fail "add_hashtree_footer sys"
"$FV" avb make_vbmeta_image --output vbmeta.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--chain_partition sys:1:"$K/rsa2048.avbpubkey" || fail "make_vbmeta_image"
check "a chained vbmeta with flags 2: refused, exit 1" run_rc 1 "$FV" verify vbmeta.img --key "$K/rsa2048.pem"
check "  saying so" grep -q "sys.img: the vbmeta of chained partition sys has flags 2: libavb takes flags from the top vbmeta only, and refuses the set" err
check "  and nothing said verified" sh -c "! grep -q 'verified' out"
check "avb verify_image --follow_chain_partitions: avbtool's check, flags not judged" \
	run_rc 0 "$FV" avb verify_image --image vbmeta.img --key "$K/rsa2048.pem" --follow_chain_partitions
cp sys.img sys0.img
"$FV" avb add_hashtree_footer --image sys0.img --partition_name sys --partition_size $MIB \
	--hash_algorithm sha256 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hashtree_footer sys0"
mkdir zero && cp sys0.img zero/sys.img && cp vbmeta.img zero/
check "the same set with flags 0: verified" run_rc 0 "$FV" verify zero/vbmeta.img --key "$K/rsa2048.pem"

# ---- 2. a chain's rollback index location past libavb's 32 ----
# (AVB_MAX_NUMBER_OF_ROLLBACK_INDEX_LOCATIONS: ERROR_INVALID_METADATA)
mkdir loc && cp zero/sys.img loc/
"$FV" avb make_vbmeta_image --output loc/vbmeta.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--chain_partition sys:40:"$K/rsa2048.avbpubkey" || fail "make_vbmeta_image, location 40"
check "a chain at rollback index location 40: refused, exit 1" run_rc 1 "$FV" verify loc/vbmeta.img --key "$K/rsa2048.pem"
check "  saying so" grep -q "loc/vbmeta.img: chain partition sys: rollback index location 40: libavb takes 1 to 31, and refuses the set" err
"$FV" avb make_vbmeta_image --output loc/v31.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--chain_partition sys:31:"$K/rsa2048.avbpubkey" || fail "make_vbmeta_image, location 31"
check "location 31: verified" run_rc 0 "$FV" verify loc/v31.img --key "$K/rsa2048.pem"

# ---- 3. a logical partition holding nothing fastverity knows ----
# super.img/NAME whose partition has no AVB footer: said in one line,
# not read as sidecar data (IMAGE/NAME.verity cannot exist)
printf '{"device_size": 16777216, "slots": 2, "partitions": [{"name": "system_a", "image": "zero/sys.img"}, {"name": "system_b"}]}' >z.json
python3 "$TOP/tests/cli/mksuper.py" z.json zs.img
# its one extent made a zero extent (liblp's LP_TARGET_TYPE_ZERO)
python3 "$TOP/tests/cli/mksuper.py" --patch zs.img tables 112 "<I" 1
for act in verify dump repair; do
	check "$act zs.img/system_a, zeros: refused, exit 4" run_rc 4 "$FV" $act zs.img/system_a
	check "  in one line naming the partition" sh -c "test \$(wc -l <'$T/err') = 1 && grep -q '^fastverity: zs.img/system_a: a logical partition holding nothing fastverity knows alone (no AVB footer or vbmeta); no sidecar files lie beside it$' '$T/err'"
done
check "verify zs.img --partition=system_a: listed, not checked, as before" run_rc 0 "$FV" verify zs.img --partition=system_a

# ---- 4. the top vbmeta's flags: the device checks less, said ----
mkdir flags && cp zero/sys.img flags/
for f in hashtree verification; do
	"$FV" avb make_vbmeta_image --output flags/$f.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
		--include_descriptors_from_image zero/sys.img --set_${f}_disabled_flag || fail "make_vbmeta_image $f"
done
check "hashtrees disabled in the top vbmeta: checked, exit 0" run_rc 0 "$FV" verify flags/hashtree.img --key "$K/rsa2048.pem"
check "  and said: no dm-verity on a device" grep -qx "fastverity: warning: flags/hashtree.img: the top vbmeta disables hashtrees (flags 1): a device booting this set maps its partitions without dm-verity; checked here all the same" err
check "verification disabled in the top vbmeta: checked, exit 0" run_rc 0 "$FV" verify flags/verification.img --key "$K/rsa2048.pem"
check "  and said: a device checks none of it" grep -qx "fastverity: warning: flags/verification.img: the top vbmeta disables verification (flags 2): a device booting this set checks none of it; checked here all the same" err
check "flags 0: no word of them" sh -c "'$FV' verify zero/vbmeta.img --key '$K/rsa2048.pem' 2>&1 >/dev/null | grep -c disables | grep -qx 0"

# ---- 5. one partition chained twice, pinning two keys ----
# libavb loads and checks the chained vbmeta for each descriptor: the
# second key rejects it (PUBLIC_KEY_REJECTED)
mkdir fan && cp zero/sys.img fan/
"$FV" avb make_vbmeta_image --output fan/vbmeta.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--chain_partition sys:1:"$K/rsa2048.avbpubkey" --chain_partition sys:2:"$K/rsa4096.avbpubkey" || fail "make_vbmeta_image fan"
check "a second chain pinning another key: refused, exit 2" run_rc 2 "$FV" verify fan/vbmeta.img --key "$K/rsa2048.pem"
check "  naming both keys" grep -q "fan/vbmeta.img: chain partition sys pins key sha1 [0-9a-f]\{40\}, and an earlier chain of it, in fan/vbmeta.img, key sha1 f0701da0e55f948c21d8f6ad0d7ac9b5123d0205: its one vbmeta cannot be signed by both" err
check "  avb verify_image --follow_chain_partitions too" run_rc 1 "$FV" avb verify_image --image fan/vbmeta.img --key "$K/rsa2048.pem" --follow_chain_partitions
"$FV" avb make_vbmeta_image --output fan/same.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--chain_partition sys:1:"$K/rsa2048.avbpubkey" --chain_partition sys:2:"$K/rsa2048.avbpubkey" || fail "make_vbmeta_image same"
check "chained twice with one key: verified once, exit 0" run_rc 0 "$FV" verify fan/same.img --key "$K/rsa2048.pem"
check "  the second said visited" grep -q "visited already in this set" out

# ---- 6. --partition and --slot where nothing is chosen: refused ----
# (an Android image, an image with sidecar files: once passed over in
# silence, exit 0, the whole image checked as if no partition was named)
gen 2 65536 >side.img
"$FV" format side.img side.verity >/dev/null || fail "format side.img"
mv side.verity side.img.verity
for act in verify dump; do
	check "$act of an Android image --partition=nothere: refused, exit 1" run_rc 1 "$FV" $act zero/sys.img --partition=nothere
	check "  naming the option" grep -qx "fastverity: zero/sys.img: --partition names a partition of a super image or a disk image" err
	check "$act of an image with sidecar files --slot=b: refused, exit 1" run_rc 1 "$FV" $act side.img --slot=b
	check "  naming the option" grep -qx "fastverity: side.img: --slot names a partition of a super image or a disk image" err
done

# ---- 7. a hash descriptor of sha1: libavb hashes sha256 or sha512 ----
# ("Unsupported hash algorithm", ERROR_INVALID_METADATA)
mkdir h1 && gen 9 100000 >h1/boot.img
"$FV" avb add_hash_footer --image h1/boot.img --partition_name boot --partition_size $MIB \
	--hash_algorithm sha1 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hash_footer sha1"
check "a sha1 hash descriptor: refused, exit 1" run_rc 1 "$FV" verify h1/boot.img --key "$K/rsa2048.pem"
check "  saying so" grep -qx "fastverity: h1/boot.img: hash descriptor of boot: hash algorithm sha1: libavb hashes sha256 or sha512, and refuses the set" err
check "  avb verify_image: avbtool's check, hashlib's sha1 taken" run_rc 0 "$FV" avb verify_image --image h1/boot.img --key "$K/rsa2048.pem"

# ---- 8. a vbmeta that needs a later libavb: refused ----
# (libavb 1.3, which fastverity knows, says UNSUPPORTED_VERSION)
"$FV" avb make_vbmeta_image --output h1/vbmeta.img --include_descriptors_from_image zero/sys.img || fail "make_vbmeta_image unsigned"
cp zero/sys.img h1/
python3 -c "
import struct, sys
b = bytearray(open('h1/vbmeta.img', 'rb').read())
struct.pack_into('>I', b, 8, 99)
open('h1/v99.img', 'wb').write(b)"
check "an unsigned vbmeta needing libavb 1.0: verified" run_rc 0 "$FV" verify h1/vbmeta.img
check "one needing libavb 1.99: refused, exit 1" run_rc 1 "$FV" verify h1/v99.img
check "  saying so" grep -qx "fastverity: h1/v99.img: the vbmeta needs libavb 1.99, and libavb 1.3 refuses it (unsupported version)" err

# ---- 9. a persistent digest: nothing in the set to check it against ----
# (the device keeps the digest; verify of the image alone says so, and
# so does verify of a set holding its descriptor)
mkdir pd && gen 9 100000 >pd/boot.img && gen 10 100000 >pd/sys.img
"$FV" avb add_hash_footer --image pd/boot.img --partition_name boot --partition_size $MIB --use_persistent_digest \
	--do_not_use_ab --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hash_footer persistent"
"$FV" avb add_hashtree_footer --image pd/sys.img --partition_name sys --partition_size $MIB --use_persistent_digest \
	--do_not_use_ab --hash_algorithm sha256 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hashtree_footer persistent"
"$FV" avb make_vbmeta_image --output pd/vbmeta.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--include_descriptors_from_image pd/boot.img --include_descriptors_from_image pd/sys.img || fail "make_vbmeta_image persistent"
check "a hash footer with a persistent digest: refused, exit 1" run_rc 1 "$FV" verify pd/boot.img --key "$K/rsa2048.pem"
check "  saying so" grep -qx "fastverity: pd/boot.img: the hash descriptor of boot holds no digest (a persistent digest the device keeps): nothing to check the data against here" err
check "  nothing said verified" sh -c "! grep -q verified '$T/out'"
check "a set of persistent digests: refused, exit 1" run_rc 1 "$FV" verify pd/vbmeta.img --key "$K/rsa2048.pem"
check "  the hashtree's said too" grep -qx "fastverity: pd/vbmeta.img: the hashtree descriptor of sys holds no digest (a persistent digest the device keeps): nothing to check the data against here" err
check "avb verify_image: the data hashed, as avbtool" run_rc 0 "$FV" avb verify_image --image pd/boot.img --key "$K/rsa2048.pem"

# ---- 10. a partition both beside the vbmeta and in super.img beside ----
# (a device maps super.img's system_a: a tampered one once passed, exit
# 0, the loose system.img checked alone)
mkdir amb && cp zero/sys.img amb/system.img
"$FV" avb add_hashtree_footer --image amb/system.img --partition_name system --partition_size $MIB \
	--hash_algorithm sha256 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hashtree_footer system"
cp amb/system.img sysbad.img && flip sysbad.img 5000
printf '{"device_size": 16777216, "slots": 2, "partitions": [{"name": "system_a", "image": "sysbad.img"}, {"name": "system_b"}]}' >amb.json
python3 "$TOP/tests/cli/mksuper.py" amb.json amb/super.img
"$FV" avb make_vbmeta_image --output amb/vbmeta.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--include_descriptors_from_image amb/system.img || fail "make_vbmeta_image amb"
check "system.img good beside a super.img whose system_a is tampered: exit 2" run_rc 2 "$FV" verify amb/vbmeta.img --key "$K/rsa2048.pem"
check "  both said" grep -qx "fastverity: warning: amb/vbmeta.img: partition system lies both in amb/system.img and in amb/super.img/system_a, which a device maps: both checked" err
check "  the good one verified" grep -q "^system: hashtree of amb/system.img.*verified" out
check "  super's failed" grep -q "^system: hashtree of amb/super.img/system_a.*FAILED" out
"$FV" avb make_vbmeta_image --output amb/chain.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--chain_partition system:1:"$K/rsa2048.avbpubkey" || fail "make_vbmeta_image amb chain"
check "chained: system.img good, super.img's tampered: exit 2" run_rc 2 "$FV" verify amb/chain.img --key "$K/rsa2048.pem"
check "  both said" grep -qx "fastverity: warning: amb/chain.img: chained partition system lies both in amb/system.img and in amb/super.img/system_a, which a device maps: both checked" err
check "  the good one verified" grep -q "^system: hashtree of amb/system.img.*verified" out
check "  super's failed" grep -q "^system: hashtree of amb/super.img/system_a.*FAILED" out
check "avb verify_image: avbtool's, the file alone" run_rc 0 "$FV" avb verify_image --image amb/chain.img --key "$K/rsa2048.pem" --follow_chain_partitions
rm amb/system.img
check "super.img alone beside: FAILED, exit 2, as before" run_rc 2 "$FV" verify amb/vbmeta.img --key "$K/rsa2048.pem"
check "  no word of two" sh -c "! grep -q 'lies both' '$T/err'"

# ---- 11. an image alone whose own vbmeta has flags: said ----
# (as a set's top vbmeta's, case 4: once exit 0 with no word)
mkdir alone
for f in hashtree verification; do
	cp zero/sys.img alone/$f.img
	"$FV" avb erase_footer --image alone/$f.img || fail "erase_footer $f"
	"$FV" avb add_hashtree_footer --image alone/$f.img --partition_name sys --partition_size $MIB \
		--hash_algorithm sha256 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
		--set_${f}_disabled_flag || fail "add_hashtree_footer $f"
done
check "a hashtree footer disabling hashtrees, alone: checked, exit 0" run_rc 0 "$FV" verify alone/hashtree.img --key "$K/rsa2048.pem"
check "  and said" grep -qx "fastverity: warning: alone/hashtree.img: its vbmeta disables hashtrees (flags 1): as the top vbmeta, a device booting it maps it without dm-verity; chained, libavb refuses it; checked here all the same" err
check "one disabling verification, alone: checked, exit 0" run_rc 0 "$FV" verify alone/verification.img --key "$K/rsa2048.pem"
check "  and said" grep -qx "fastverity: warning: alone/verification.img: its vbmeta disables verification (flags 2): as the top vbmeta, a device booting it checks none of it; chained, libavb refuses it; checked here all the same" err
check "flags 0, alone: no word of them" sh -c "'$FV' verify zero/sys.img --key '$K/rsa2048.pem' 2>&1 >/dev/null | grep -c disables | grep -qx 0"
check "dump of it: no word of them" sh -c "'$FV' dump alone/hashtree.img 2>&1 >/dev/null | grep -c disables | grep -qx 0"

# ---- 12. an Android image's tree checked against --key: said which ----
# (-v said only "Command successful.", --json no key; an image with a
# hash footer has the set walk's line naming it)
check "verify -v of a hashtree footer with --key: exit 0" run_rc 0 "$FV" verify -v zero/sys.img --key "$K/rsa2048.pem"
check "  what was checked, against which key" grep -qx "sys: hashtree of zero/sys.img, vbmeta zero/sys.img signed by $K/rsa2048.pem: verified." out
check "  before the verdict" sh -c "tail -n 1 '$T/out' | grep -qx 'Command successful.'"
check "without -v: nothing on stdout, as veritysetup" run_rc 0 "$FV" verify zero/sys.img --key "$K/rsa2048.pem"
check "  nothing" test ! -s "$T/out"
check "without --key: no line of a signer" run_rc 0 "$FV" verify -v zero/sys.img
check "  only the verdict" sh -c "test \$(wc -l <'$T/out') = 1"
check "--json: the key named" run_rc 0 "$FV" verify --json zero/sys.img --key "$K/rsa2048.pem"
check "  as the signer" sh -c "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"signature\"][\"signer\"] == sys.argv[2], d' '$T/out' '$K/rsa2048.pem'"
check "--json without --key: signer null" run_rc 0 "$FV" verify --json zero/sys.img
check "  null" sh -c "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"signature\"][\"signer\"] is None, d' '$T/out'"
check "a tampered one -v: no line said verified, exit 2" run_rc 2 "$FV" verify -v amb/super.img/system_a --key "$K/rsa2048.pem"
check "  none" sh -c "! grep -q verified '$T/out'"

finish
