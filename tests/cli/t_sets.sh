# Firmware sets judged as the device judges them (docs/android.md,
# "Firmware sets"): the super image's metadata copy and slot liblp maps,
# the partition a device maps for a name, shared and overlapping extents
# refused, every partition named with a key checked or failed, chains
# followed once and only from the top vbmeta (libavb), the work of a
# walk bounded, and exit 0 saying what was checked. Each case is an
# attack or a wrong result once reached, made here from the format
# (tests/cli/mksuper.py: Debian has no lpmake).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
K=$TOP/tests/avb/keys
MIB=1048576
MK="python3 $TOP/tests/cli/mksuper.py"
gen 1 1000000 >system.img
gen 2 500000 >vendor.img
"$FV" avb add_hashtree_footer --image system.img --partition_name system --partition_size $((2 * MIB)) \
	--hash_algorithm sha256 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hashtree_footer system"
"$FV" avb add_hashtree_footer --image vendor.img --partition_name vendor --partition_size $MIB \
	--hash_algorithm sha256 --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hashtree_footer vendor"
cp system.img bad_system.img
flip bad_system.img 5000

# ---- 1. the primary metadata is what liblp maps whenever it is intact ----
# primary: system_a (tampered) at 1 MiB, and a partition named ab.c;
# backup: system_a genuine, after a pad partition
cat >t.json <<'EOF'
{"device_size": 33554432, "slots": 2,
 "partitions": [{"name": "system_a", "image": "bad_system.img"},
                {"name": "ab.c", "image": "vendor.img"},
                {"name": "system_b"}]}
EOF
cat >g.json <<'EOF'
{"device_size": 33554432, "slots": 2,
 "partitions": [{"name": "pad_a", "image": "system.img", "at": 16384},
                {"name": "system_a", "image": "system.img", "at": 32768},
                {"name": "system_b"}]}
EOF
$MK t.json primary.img && $MK g.json genuine.img && $MK --merge primary.img genuine.img backup
check "a backup that says otherwise is not read: the primary's system_a fails" run_rc 2 "$FV" verify primary.img --key "$K/rsa2048.pem"
check "  system_a FAILED" grep -q "^system_a: .*FAILED" out
check "  the name ab.c taken, as liblp takes it" grep -q "^ab.c: .*verified.$" out
check "  no word of a backup" sh -c "! grep -q backup err"
flip primary.img $((12288 + 200))
check "the primary's checksum broken: the backup read" run_rc 0 "$FV" verify primary.img --key "$K/rsa2048.pem"
check "  and said" grep -q "warning: primary.img: metadata slot 0 at byte 12288: the tables' SHA-256 checksum does not match; read its backup" err
# an intact primary that is malformed is refused, not replaced
$MK t.json malformed.img && $MK --merge malformed.img genuine.img backup
$MK --patch malformed.img tables 36 "<I" 16
check "an intact, malformed primary: refused, the backup not read" run_rc 1 "$FV" verify malformed.img
check "  naming the field" grep -q "malformed.img: partition system_a: attributes 0x10" err

# ---- 2, 8. partitions that share extents: refused, named ----
{
	printf '{"device_size": 33554432, "metadata_size": 4194304, "slots": 2, "partitions": [{"name": "system_a", "image": "system.img"}'
	for i in $(seq 1 40000); do printf ', {"name": "p%d", "extents_of": "system_a"}' "$i"; done
	printf ']}'
} >share.json
$MK share.json share.img
check "40,000 partitions over one extent: verify refuses at once" run_rc 1 timeout 20 "$FV" verify share.img
check "  naming two of them and the extent" grep -q "share.img: partitions system_a and p1 share extent 0" err
check "  dump too (no listing sized by extents, written by reference)" run_rc 1 "$FV" dump share.img
printf '{"device_size": 16777216, "partitions": [{"name": "system_a", "image": "system.img"}%s]}' \
	"$(for i in $(seq 1 63); do printf ', {"name": "q%d", "extents_of": "system_a"}' "$i"; done)" >share64.json
$MK share64.json share64.img
check "64 partitions over one extent: dump refuses" run_rc 1 "$FV" dump share64.img
check "  naming the shared extent" grep -q "share extent 0" err

# ---- 6. overlapping extents: refused, nothing written ----
# vendor_a's fifth block on system_a's seventh
cat >over.json <<'EOF'
{"device_size": 16777216,
 "partitions": [{"name": "system_a", "image": "system.img"},
                {"name": "vendor_a", "image": "vendor.img", "at": 2064}]}
EOF
$MK over.json over.img
sum=$(sha256sum <over.img)
check "overlapping extents: verify refuses" run_rc 1 "$FV" verify over.img
check "  naming both partitions and the sector" grep -q "over.img: extent 0 (partition system_a) and extent 1 (partition vendor_a) overlap on super at sector 2064" err
check "repair over.img/vendor_a refused" run_rc 1 "$FV" repair over.img/vendor_a --key "$K/rsa2048.pem"
check "  nothing written" test "$(sha256sum <over.img)" = "$sum"

# ---- 3. a partition named with a key: checked, or a failure ----
cat >ab.json <<'EOF'
{"device_size": 16777216, "slots": 2,
 "partitions": [{"name": "system_a", "image": "bad_system.img"},
                {"name": "system"},
                {"name": "vendor_a", "image": "vendor.img"},
                {"name": "system_b"}, {"name": "vendor_b"}]}
EOF
$MK ab.json decoy.img
check "--partition=system on an A/B image: the slot's system_a, not an empty decoy" run_rc 2 "$FV" verify decoy.img --partition=system --key "$K/rsa2048.pem"
check "  system_a checked and FAILED" grep -q "^system_a: .*FAILED" out
check "  and said which" grep -q "decoy.img: system is partition system_a (slot a)" err
check "--partition=system --slot=b: system_b, empty, with a key: a failure" run_rc 2 "$FV" verify decoy.img --partition=system --slot=b --key "$K/rsa2048.pem"
check "  saying nothing can be checked" grep -q "partition system_b is empty (no extents): nothing to check against the key" err
check "--partition=system_a --slot=b: refused" run_rc 1 "$FV" verify decoy.img --partition=system_a --slot=b
# system_a's footer zeroed, a data byte changed
cp system.img nofoot.img
dd if=/dev/zero of=nofoot.img bs=1 seek=$((2 * MIB - 64)) count=64 conv=notrunc status=none
flip nofoot.img 4096
printf '{"device_size": 16777216, "partitions": [{"name": "system_a", "image": "nofoot.img"}, {"name": "system_b"}]}' >nf.json
$MK nf.json nofoot_super.img
check "a named partition with no footer, and a key: a failure" run_rc 2 "$FV" verify nofoot_super.img --partition=system_a --key "$K/rsa2048.pem"
check "  saying why" grep -q "nofoot_super.img/system_a: no AVB footer: nothing in it can be checked against the key" err
check "  without a key: listed, not checked" run_rc 0 "$FV" verify nofoot_super.img --partition=system_a
check "    and exit 0 says nothing was checked" grep -q "nofoot_super.img: nothing to verify: no partition of slot a with an AVB footer." out
check "  --json the same" run_rc 2 "$FV" verify nofoot_super.img --partition=system_a --key "$K/rsa2048.pem" --json
check "    a refused partition in the document" jqok '.partitions[0].result == "refused" and (.partitions[0].error | test("no AVB footer"))' out

# ---- 4. --slot=b reads metadata slot 1, as a device booting b does ----
cat >s0.json <<'EOF'
{"device_size": 16777216, "slots": 2,
 "partitions": [{"name": "system_a", "image": "system.img"}, {"name": "system_b"}]}
EOF
cat >s1.json <<'EOF'
{"device_size": 16777216, "slots": 2,
 "partitions": [{"name": "system_a", "image": "system.img"},
                {"name": "system_b", "image": "bad_system.img", "at": 8192}]}
EOF
$MK s0.json slots.img && $MK s1.json s1.img && $MK --merge slots.img s1.img slot1
check "--slot=b: slot 1's metadata, system_b's tampered data found" run_rc 2 "$FV" verify slots.img --slot=b
check "  system_b FAILED" grep -q "^system_b: .*FAILED" out
check "--slot=a: slot 0's, system_b empty there" run_rc 0 "$FV" verify slots.img --slot=a
check "  system_b empty" grep -qx "system_b: empty (no extents): nothing to check." out
check "slots.img/system_b: read from slot 1's metadata" run_rc 2 "$FV" verify slots.img/system_b
check "dump: every slot, the second in full where it differs" run_rc 0 "$FV" dump slots.img
check "  Slot 0 and Slot 1" sh -c "grep -qx 'Slot 0:' out && grep -qx 'Slot 1:' out && test \$(grep -c '^  Name: system_b' out) = 2"
check "dump --slot=b: slot 1 alone" run_rc 0 "$FV" dump slots.img --slot=b
check "  Slot 1, system_b with its extent" sh -c "grep -qx 'Slot 1:' out && ! grep -qx 'Slot 0:' out && grep -q 'linear super 8192' out"
check "dump of identical slots: said the same" run_rc 0 "$FV" dump decoy.img
check "  in one line" grep -qx "Slot 1: the same as slot 0." out
check "dump --json: the other slots" sh -c "'$FV' dump slots.img --json | jq -e '.metadata.slot == 0 and .slots[0].slot == 1 and .slots[0].metadata.slot == 1 and (.slots[0].partitions | length) == 2' >/dev/null"
printf '{"device_size": 16777216, "slots": 1, "partitions": [{"name": "system", "image": "system.img"}]}' >one.json
$MK one.json one.img
check "--slot=b of an image of one slot: refused" run_rc 1 "$FV" verify one.img --slot=b
check "  saying there is no slot b" grep -q "one.img: metadata of 1 slot: no slot b" err
check "a non-A/B image: --partition=system is system" run_rc 0 "$FV" verify one.img --partition=system --key "$K/rsa2048.pem"

# ---- 9. chains: followed once, only from the top vbmeta ----
# L0 chains c1..c10; each cN.img is L1, which chains d1..d10 (each L2)
"$FV" avb make_vbmeta_image --output L2.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--include_descriptors_from_image system.img
chains() { for i in $(seq 1 10); do printf -- '--chain_partition %s%d:%d:%s ' "$1" "$i" "$i" "$K/rsa2048.avbpubkey"; done; }
# shellcheck disable=SC2046
"$FV" avb make_vbmeta_image --output L1.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" $(chains d)
# shellcheck disable=SC2046
"$FV" avb make_vbmeta_image --output vbmeta.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" $(chains c)
for i in $(seq 1 10); do ln -sf L1.img "c$i.img"; ln -sf L2.img "d$i.img"; done
check "a chain in a chained vbmeta: refused as libavb refuses it" run_rc 1 timeout 20 "$FV" verify vbmeta.img --key "$K/rsa2048.pem"
check "  saying so" grep -q "c1.img: a chain partition descriptor (d1) in a chained vbmeta: libavb follows chains from the top vbmeta only" err
check "print_partition_digests follows them (avbtool does), each partition once" run_rc 0 timeout 20 "$FV" avb print_partition_digests --image vbmeta.img
check "  system's digest from each of d1..d10, once each" test "$(grep -c '^system: ' out)" = 10
# shellcheck disable=SC2046
"$FV" avb make_vbmeta_image --output wide.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	$(for i in $(seq 1 40); do printf -- '--chain_partition w%d:%d:%s ' "$i" "$i" "$K/rsa2048.avbpubkey"; done)
for i in $(seq 1 40); do ln -sf L2.img "w$i.img"; done
check "40 chained vbmetas: past the walk's bound, refused" run_rc 1 "$FV" avb print_partition_digests --image wide.img
check "  saying so" grep -q "more than 32 vbmeta images in one set" err
# one chain named ten times in each of seven vbmetas: seven visits
python3 - <<'EOF'
import struct
def unsigned_chain(out, name, nxt):
    # a vbmeta (NONE) whose one chain descriptor names nxt, ten times
    nm = name.encode()
    body = struct.pack(">IIII", 1, len(nm), 0, 0) + b"\0" * 60 + nm
    body += b"\0" * (-len(body) % 8)
    desc = struct.pack(">QQ", 4, len(body)) + body
    descs = desc * 10
    aux = descs + b"\0" * (-len(descs) % 64)
    h = bytearray(256)
    h[0:4] = b"AVB0"
    struct.pack_into(">II", h, 4, 1, 0)
    struct.pack_into(">QQ", h, 12, 0, len(aux))
    struct.pack_into(">QQ", h, 96, 0, len(descs))
    h[128:141] = b"avbtool 1.3.0"
    open(out, "wb").write(bytes(h) + aux)
for k in range(7):
    unsigned_chain("f%d.img" % k, "f%d" % (k + 1), "f%d" % (k + 1))
EOF
"$FV" avb make_vbmeta_image --output f7.img
check "a chain named ten times at each of seven levels: each visited once" run_rc 0 timeout 20 "$FV" avb print_partition_digests --image f0.img
check "avb calculate_kernel_cmdline: one level, once" run_rc 0 timeout 20 "$FV" avb calculate_kernel_cmdline --image f0.img

# ---- 23. verify_image says which key checked a chained image ----
"$FV" avb make_vbmeta_image --output vbmeta_system.img --algorithm SHA256_RSA4096 --key "$K/rsa4096.pem" \
	--include_descriptors_from_image system.img
"$FV" avb make_vbmeta_image --output top.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" \
	--chain_partition vbmeta_system:1:"$K/rsa4096.avbpubkey"
cp top.img vbmeta2.img
check "verify_image --key --follow_chain_partitions" run_rc 0 "$FV" avb verify_image --image top.img --key "$K/rsa2048.pem" --follow_chain_partitions
check "  the top with --key" grep -qx "Verifying image top.img using key at $K/rsa2048.pem" out
check "  the chained one with the key its chain pins, named" grep -q "^Verifying image vbmeta_system.img using the key top.img pins for vbmeta_system (sha1 [0-9a-f]\{40\})$" out

# ---- 18. --json: one document, also when the command fails early ----
for c in info_image verify_image print_partition_digests; do
	check "avb $c --json of a missing image: an error document, exit 2 (argparse's FileType)" run_rc 2 "$FV" avb $c --image nosuch.img --json
	check "  naming the file" jqok '.result == "error" and .exit_code == 2 and (.error | test("nosuch.img"))' out
	check "avb $c --json of no Android image: an error document" run_rc 1 "$FV" avb $c --image over.json --json
	check "  saying why" jqok '.result == "error" and (.error | test("not an Android image"))' out
done
"$FV" avb make_vbmeta_image --output lone_chain.img --chain_partition nothere:1:"$K/rsa2048.avbpubkey"
check "verify_image --follow_chain_partitions --json, a chained image missing: one document" \
	run_rc 1 "$FV" avb verify_image --image lone_chain.img --follow_chain_partitions --json
check "  the error document" jqok '.result == "error" and (.error | test("nothere"))' out
check "verify of the same set --json: incomplete, exit 4" run_rc 4 "$FV" verify lone_chain.img --json
check "  the partition missing" jqok '.result == "incomplete" and .partitions[0].result == "missing"' out

# ---- 27. exit 0 says what was checked ----
"$FV" avb make_vbmeta_image --output lone.img
check "a lone unsigned vbmeta with no descriptors: exit 0" run_rc 0 "$FV" verify lone.img
check "  saying nothing was verified, and no signature" grep -qx "lone.img: no descriptors: nothing to verify; signature: none." out
check "  --json too" sh -c "'$FV' verify lone.img --json | jq -e '.result == \"ok\" and (.summary | test(\"nothing to verify\")) and (.partitions | length) == 0' >/dev/null"
"$FV" avb make_vbmeta_image --output lone2.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem"
check "signed, checked against --key" run_rc 0 "$FV" verify lone2.img --key "$K/rsa2048.pem"
check "  naming the key" grep -qx "lone2.img: no descriptors: nothing to verify; signature: SHA256_RSA2048, signed by $K/rsa2048.pem." out
check "a root hash signature given for a set: refused, exit 1" run_rc 1 "$FV" verify lone2.img --root-hash-signature=lone.img
check "  in one line" grep -qx "fastverity: lone2.img: an Android image carries its own signatures; --root-hash-signature does not apply" err
finish
