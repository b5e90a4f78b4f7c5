# Android super images (docs/android.md, "Factory images and super.img"):
# super images written from the format by tests/cli/mksuper.py (Debian
# has no lpmake), their logical partitions made by fastverity avb, and
# read back: verify and dump of super.img, raw and sparse, A/B slots, a
# partition in two extents, empty _b twins, 10.0 and 10.2 headers, split
# supers; damaged copies read from their backups; crafted metadata
# refused naming the field; firmware sets (vbmeta.img, chains, boot.img,
# super.img) checked by verify and by avb verify_image.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
K=$TOP/tests/avb/keys
MIB=1048576
MK="python3 $TOP/tests/cli/mksuper.py"
gen 1 3000000 >system.img
gen 2 1000000 >vendor.img
gen 3 1048576 >odm.img
gen 4 100000 >boot.img
"$FV" avb add_hashtree_footer --image system.img --partition_name system --partition_size 4194304 --hash_algorithm sha256 ||
	fail "add_hashtree_footer system"
"$FV" avb add_hashtree_footer --image vendor.img --partition_name vendor --partition_size 2097152 --hash_algorithm sha256 \
	--algorithm SHA256_RSA4096 --key "$K/rsa4096.pem" || fail "add_hashtree_footer vendor"
"$FV" avb add_hash_footer --image boot.img --partition_name boot --partition_size 262144 --hash_algorithm sha256 ||
	fail "add_hash_footer boot"
# metadata 10.0, two slots: system_a in two extents 1 MiB apart
# ([1, 3) and [4, 6) MiB), vendor_a at 6 MiB, odm_a (no footer) at 8 MiB
cat >ab.json <<'EOF'
{"device_size": 16777216, "slots": 2,
 "groups": [{"name": "default"}, {"name": "main_a", "max": 12582912},
            {"name": "main_b", "max": 12582912}],
 "partitions": [{"name": "system_a", "group": "main_a", "image": "system.img", "split": true},
                {"name": "vendor_a", "group": "main_a", "image": "vendor.img"},
                {"name": "odm_a", "group": "main_a", "image": "odm.img"},
                {"name": "system_b", "group": "main_b"},
                {"name": "vendor_b", "group": "main_b"},
                {"name": "odm_b", "group": "main_b"}]}
EOF
$MK ab.json super.img || fail "mksuper"
sum0=$(sha256sum super.img)
img2simg super.img sparse.img

# ---- verify and dump ----
check "verify super.img" run_rc 0 "$FV" verify super.img
check "  system_a verified, in two extents" grep -qx "system_a: 4194304 bytes in 2 extents, Android image (unsigned): verified." out
check "  vendor_a's signer said not checked" grep -qx "vendor_a: 2097152 bytes in 1 extent, Android image (SHA256_RSA4096, key sha1 [0-9a-f]*, signer not checked): verified." out
check "  odm_a has no footer: listed, not checked" grep -qx "odm_a: 1048576 bytes, no AVB footer: not checked." out
check "  empty _b twins listed, not errors" grep -qx "system_b: empty (no extents): nothing to check." out
check "  verify wrote nothing" sh -c "test '$(sha256sum super.img)' = '$sum0'"
check "verify --key of vendor's signer: checked" run_rc 0 "$FV" verify super.img --partition=vendor --key "$K/rsa4096.pem"
check "  only vendor_a, signed by --key" sh -c "test \$(wc -l <out) = 1 && grep -q 'vendor_a: .*signed by --key): verified.' out"
check "--partition=system_a --json" run_rc 0 "$FV" verify super.img --partition=system_a --json
check "  one partition, verified" jqok '.container == "super" and .result == "ok" and (.partitions | length) == 1 and .partitions[0].name == "system_a" and .partitions[0].extents == 2' out
check "--slot=b: the empty twins" run_rc 0 "$FV" verify super.img --slot=b
check "  three empty partitions" sh -c "test \$(grep -c 'empty (no extents)' out) = 3"
check "--partition of none: refused" run_rc 1 "$FV" verify super.img --partition=nosuch
check "  naming it" grep -q "super.img: no logical partition nosuch" err
check "--slot=c refused" run_rc 1 "$FV" verify super.img --slot=c
check "a logical partition by path: verify super.img/system_a" run_rc 0 "$FV" verify super.img/system_a
check "  dump super.img/system_a" run_rc 0 "$FV" dump super.img/system_a
check "  its Android line" grep -q "^Android image: .*partition system, data 3002368 bytes" out
check "  avb info_image --image super.img/vendor_a" run_rc 0 "$FV" avb info_image --image super.img/vendor_a
check "  its footer" grep -q "^Original image size:      1000000 bytes" out
check "  an empty one refused by name" run_rc 1 "$FV" verify super.img/system_b
check "    saying it is empty" grep -q "super.img/system_b: partition system_b is empty" err
check "the registry: --container=super of another image refused" run_rc 1 "$FV" verify system.img --container=super
check "  naming what it lacks" grep -q "system.img: not an Android super image: no geometry at byte 4096 or 8192" err
check "  --container=super of super.img" run_rc 0 "$FV" verify super.img --container=super --partition=odm
check "  a partition by path reads as an Android image" run_rc 0 "$FV" dump super.img/vendor_a --container=avb
check "dump super.img" run_rc 0 "$FV" dump super.img
check "  lpdump's header lines" sh -c "grep -qx 'Metadata version: 10.0' out && grep -qx 'Metadata max size: 65536 bytes' out && grep -qx 'Metadata slot count: 2' out && grep -qx 'Header flags: none' out"
check "  system_a's two extents" sh -c "grep -qx '    0 .. 4095 linear super 2048' out && grep -qx '    4096 .. 8191 linear super 8192' out"
check "  the layout by place" grep -qx "super: 12288 .. 16384: vendor_a (4096 sectors)" out
check "  the block device and groups" sh -c "grep -qx '  First sector: 2048' out && grep -qx '  Maximum size: 12582912 bytes' out"
check "dump --json" run_rc 0 "$FV" dump super.img --json
check "  partitions, extents, groups, block devices" jqok '.metadata.version_minor == 0 and (.partitions | length) == 6 and .partitions[0].extents[1].target_sector == 8192 and .partitions[0].attributes == "readonly" and .groups[1].maximum_size == 12582912 and .block_devices[0].first_sector == 2048 and .metadata.metadata_from_backup == false' out
check "open super.img without --partition: refused" run_rc 1 "$FV" open super.img sys
check "  saying which option names it" grep -q "super.img: an Android super image: name the logical partition to open (--partition=system_a)" err
check "open of a sparse super image's partition: refused before device-mapper" run_rc 1 "$FV" open sparse.img sys --partition=system_a
check "  saying to make a raw one" grep -q "an Android sparse image, which the kernel cannot map" err
check "repair super.img: one partition at a time" run_rc 1 "$FV" repair super.img
check "  saying how to name one" grep -q "super.img: an Android super image: repair one logical partition, named as super.img/NAME" err

# ---- bad blocks, named by partition and by their bytes in super.img ----
cp super.img bad.img
flip bad.img $((MIB + 8192))             # system_a, first extent: byte 8192
flip bad.img $((4 * MIB + 12288))        # system_a, second extent: byte 2 MiB + 12288
flip bad.img $((6 * MIB + 4096))         # vendor_a: byte 4096
check "verify of a damaged super image" run_rc 2 "$FV" verify bad.img
check "  system_a's first extent" grep -qx "Verification failed at position 8192 (partition system_a; bad.img byte $((MIB + 8192)))." err
check "  system_a's second extent" grep -qx "Verification failed at position $((2 * MIB + 12288)) (partition system_a; bad.img byte $((4 * MIB + 12288)))." err
check "  vendor_a" grep -qx "Verification failed at position 4096 (partition vendor_a; bad.img byte $((6 * MIB + 4096)))." err
check "  both FAILED, saying what failed" sh -c "grep -q '^system_a: .*: FAILED: [0-9]* bad data blocks\?.$' out && grep -q '^vendor_a: .*: FAILED: [0-9]* bad .*.$' out"
check "  --json" run_rc 2 "$FV" verify bad.img --json
check "  the failures' super offsets" jqok '.result == "corrupted" and .partitions[0].failures[1].device_offset == 4206592 and .partitions[0].failures[1].position == 2109440 and .partitions[1].failures[0].block_device == "super"' out

# ---- repair --partition: one partition's extents, nothing else ----
cp bad.img fix.img
check "repair --partition=system: the slot's system_a" run_rc 0 "$FV" repair fix.img --partition=system
check "  said which partition it is" grep -q "warning: fix.img: system is partition system_a (slot a)" err
check "  both of its blocks repaired" grep -qx "2 of 2 bad blocks repaired." out
check "  vendor_a left as it was (still bad)" run_rc 2 "$FV" verify fix.img
check "    system_a verified" grep -q "^system_a: .*verified.$" out
check "repair --partition=vendor_a --slot=a (signed: --key)" run_rc 0 "$FV" repair fix.img --partition=vendor_a --slot=a --key "$K/rsa4096.pem"
check "  the image is the undamaged one again, byte for byte" cmp -s fix.img super.img
check "repair --partition of none: refused" run_rc 1 "$FV" repair fix.img --partition=nosuch
check "  naming it" grep -q "fix.img: no logical partition nosuch in slot a" err
check "repair --slot=b --partition=system: the empty twin, refused" run_rc 1 "$FV" repair fix.img --slot=b --partition=system
check "  saying it is empty" grep -q "fix.img/system_b: partition system_b is empty" err
check "repair --partition of an Android image: refused" run_rc 1 "$FV" repair system.img --partition=system
check "dump --partition=system: as dump super.img/system_a" run_rc 0 "$FV" dump super.img --partition=system
check "  the same text" sh -c "'$FV' dump super.img/system_a 2>/dev/null | cmp -s - out"
check "dump --slot=b --partition=vendor_b: empty, refused" run_rc 1 "$FV" dump super.img --slot=b --partition=vendor_b
check "dump --slot=b: slot 1's metadata" run_rc 0 "$FV" dump super.img --slot=b
check "  its Slot line" grep -qx "Slot 1:" out

# ---- sparse, 10.2, three slots ----
check "a sparse super image verifies" run_rc 0 "$FV" verify sparse.img
check "  the same verdicts" sh -c "grep -q '^system_a: .*verified.' out && grep -q '^vendor_a: .*verified.' out"
check "  dump --json says sparse" sh -c "'$FV' dump sparse.img --json | jq -e '.sparse == true' >/dev/null"
img2simg bad.img sparsebad.img
check "a damaged sparse one" run_rc 2 "$FV" verify sparsebad.img
check "  at the same unsparsed offsets" grep -qx "Verification failed at position 4096 (partition vendor_a; sparsebad.img byte $((6 * MIB + 4096)))." err
sed 's/"slots": 2/"slots": 3, "minor": 2, "flags": 1/' ab.json >v2.json
$MK v2.json v2.img
check "a 10.2 header with three slots" run_rc 0 "$FV" verify v2.img
check "  dump says 10.2 and the virtual A/B flag" sh -c "'$FV' dump v2.img >out && grep -qx 'Metadata version: 10.2' out && grep -qx 'Header flags: virtual_ab_device' out && grep -qx 'Metadata slot count: 3' out"

# ---- a logical partition with a hash footer: its digest ----
cp boot.img dlkm.img
printf '{"device_size": 4194304, "partitions": [{"name": "dlkm_a", "image": "dlkm.img"}]}' >hash.json
$MK hash.json hash.img
check "a partition with a hash footer: its digest checked" run_rc 0 "$FV" verify hash.img
check "  verified" grep -qx "dlkm_a: 262144 bytes in 1 extent, Android image with a hash footer (unsigned): verified." out
flip hash.img $((MIB + 1000))
check "  a byte changed: FAILED, exit 2" run_rc 2 "$FV" verify hash.img
check "  avbtool's words" grep -q "sha256 digest of hash.img/dlkm_a does not match digest in descriptor" err

# ---- damaged copies: the backups read, and said ----
cp super.img geo.img
flip geo.img $((4096 + 20))
check "a damaged primary geometry: its backup read" run_rc 0 "$FV" verify geo.img
check "  and said" grep -q "warning: geo.img: the geometry at byte 4096: its SHA-256 checksum does not match; read its backup at byte 8192" err
cp super.img meta.img
flip meta.img $((12288 + 200))
check "a damaged primary slot 0: its backup read" run_rc 0 "$FV" verify meta.img
check "  and said" grep -q "warning: meta.img: metadata slot 0 at byte 12288: the tables' SHA-256 checksum does not match; read its backup at byte 143360" err
check "  dump says so too" sh -c "'$FV' dump meta.img --json 2>/dev/null | jq -e '.metadata.metadata_from_backup == true' >/dev/null"
cp super.img slot1.img
flip slot1.img $((12288 + 65536 + 20))
check "a damaged primary slot 1: said" run_rc 0 "$FV" verify slot1.img
check "  naming slot 1" grep -q "warning: slot1.img: metadata slot 1 at byte 77824: the header's SHA-256 checksum does not match; read its backup" err
cp geo.img geo2.img
flip geo2.img $((8192 + 20))
check "both geometries damaged: refused" run_rc 1 "$FV" verify geo2.img
check "  naming both copies" grep -q "geo2.img: not a usable super image: the geometry at byte 4096: its SHA-256 checksum does not match; its backup at byte 8192: its SHA-256 checksum does not match" err
cp meta.img meta2.img
flip meta2.img $((12288 + 2 * 65536 + 20))
check "both copies of slot 0 damaged: refused" run_rc 1 "$FV" verify meta2.img
check "  naming both" grep -q "meta2.img: metadata slot 0: at byte 12288: the tables' SHA-256 checksum does not match; its backup at byte 143360: the header's SHA-256 checksum does not match" err

# ---- crafted metadata, checksums right: refused naming the field ----
craft() { # WHAT WHERE OFFSET FORMAT VALUE MESSAGE
	cp super.img craft.img
	$MK --patch craft.img "$2" "$3" "$4" "$5"
	check "crafted: $1: refused" run_rc 1 "$FV" verify craft.img
	check "  $6" grep -q "$6" err
}
# partitions 0-5 at 0 (52 bytes each), extents at 312 (24 each: 4 of
# them), groups at 408 (48 each: 3), block devices at 552
craft "an extent past the device" tables $((312 + 24 + 12)) "<Q" 40000 "craft.img: extent 1: sectors \[40000, 44096) lie past the end of super (16777216 bytes)"
craft "an extent in the metadata" tables $((312 + 12)) "<Q" 100 "craft.img: extent 0: sector 100 of super lies in the metadata"
craft "an unknown attribute" tables 36 "<I" 16 "craft.img: partition system_a: attributes 0x10 (version 10.0 knows 0x3)"
craft "a group index past the groups" tables 48 "<I" 9 "craft.img: partition system_a: group 9 of 3"
craft "extents past the extent table" tables 40 "<I" 3 "craft.img: partition system_a: extents 3 to 5 of 4"
craft "an extent type" tables $((312 + 8)) "<I" 2 "craft.img: extent 0: target type 2 (0 linear, 1 zero)"
craft "a block device index" tables $((312 + 20)) "<I" 1 "craft.img: extent 0: block device 1 of 1"
craft "partitions inside the metadata" tables 552 "<Q" 8 "craft.img: block device 0 (super): partitions start at sector 8, inside the metadata"
craft "a table past the tables" header 84 "<I" 1000 "the partition table (1000 entries at 0) lies past the tables"
craft "version 11" header 4 "<H" 11 "version 11.0 (10.0 to 10.2 are read)"
craft "an entry size" header 100 "<I" 20 "extent entry size 20 (10.x has 24)"
craft "a slot count" geometry 44 "<I" 0 "metadata_slot_count 0 (1 to 64)"
craft "a metadata size" geometry 40 "<I" 1000 "metadata_max_size 1000 (a non-zero multiple of 512"

# ---- split super: block device 1 in its own image ----
cat >split.json <<'EOF'
{"device_size": 8388608, "slots": 2,
 "block_devices": [{"name": "super_1", "size": 8388608, "file": "super_1.img"}],
 "partitions": [{"name": "system_a", "image": "system.img", "device": 1},
                {"name": "vendor_a", "image": "vendor.img", "zero": 8}]}
EOF
$MK split.json split.img
check "a split super: super_1.img beside is read" run_rc 0 "$FV" verify split.img
check "  system_a on super_1 verified" grep -q "^system_a: .*verified." out
check "  vendor_a with a zero extent after its footer: no footer" grep -qx "vendor_a: 2101248 bytes, no AVB footer: not checked." out
mv super_1.img elsewhere.img
check "its other image missing: refused" run_rc 4 "$FV" verify split.img
check "  naming the block device" grep -q "split.img: a split super image: the image of block device 1 (super_1) is missing: none given, and no super_1.img beside it" err
check "  and the option" grep -q "give it: --block-device NAME=FILE" err
check "--block-device super_1=elsewhere.img" run_rc 0 "$FV" verify split.img --block-device super_1=elsewhere.img
check "  dump names the file" sh -c "'$FV' dump split.img --block-device super_1=elsewhere.img --json | jq -e '.block_devices[1].file == \"elsewhere.img\"' >/dev/null"
flip elsewhere.img 4096
check "  a bad block on super_1, named there" run_rc 2 "$FV" verify split.img --block-device super_1=elsewhere.img
check "  by its byte in that image" grep -qx "Verification failed at position 4096 (partition system_a; elsewhere.img byte 4096)." err
check "--block-device without =: refused" run_rc 1 "$FV" verify split.img --block-device super_1

# ---- firmware sets: vbmeta.img, a chain, boot.img and super.img ----
mkdir set && cp sparse.img set/super.img && cp boot.img set/
"$FV" avb make_vbmeta_image --output set/vbmeta_system.img --include_descriptors_from_image system.img \
	--include_descriptors_from_image vendor.img --algorithm SHA256_RSA4096 --key "$K/rsa4096.pem"
"$FV" avb make_vbmeta_image --output set/vbmeta.img --include_descriptors_from_image boot.img \
	--chain_partition vbmeta_system:1:"$K/rsa4096.avbpubkey" --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem"
check "verify vbmeta.img: the whole set" run_rc 0 "$FV" verify set/vbmeta.img --key "$K/rsa2048.pem"
check "  system inside super.img, vouched for by the chain" grep -qx "system: hashtree of set/super.img/system_a, vbmeta set/vbmeta_system.img signed by the key set/vbmeta.img pins: verified." out
check "  vendor too" grep -q "^vendor: hashtree of set/super.img/vendor_a, .*: verified.$" out
check "  boot.img, a file" grep -qx "boot: hash of set/boot.img, vbmeta set/vbmeta.img signed by $K/rsa2048.pem: verified." out
check "  --json: one verdict per partition" sh -c "'$FV' verify set/vbmeta.img --key '$K/rsa2048.pem' --json | jq -e '.result == \"ok\" and ([.partitions[].name] | sort) == [\"boot\", \"system\", \"vendor\"] and ([.partitions[].trust] | unique) == [\"checked\"] and (.partitions[] | select(.name == \"system\") | .vbmeta == \"set/vbmeta_system.img\" and .algorithm == \"SHA256_RSA4096\" and (.public_key_sha1 | length) == 40)' >/dev/null"
check "  without --key: the signer said not checked" run_rc 0 "$FV" verify set/vbmeta.img
check "    on stderr" grep -q "set/vbmeta.img: warning: the vbmeta is signed (SHA256_RSA2048, public key sha1 [0-9a-f]*) and checks out against the key it carries, but its signer was not checked" err
check "avb verify_image --follow_chain_partitions finds them in super.img" run_rc 0 "$FV" avb verify_image --image set/vbmeta.img --follow_chain_partitions
check "  avbtool's lines, naming the partition in super.img" grep -qx "system: Successfully verified sha256 hashtree of set/super.img/system_a for image of 3002368 bytes" out
check "  and the file beside" grep -qx "boot: Successfully verified sha256 hash of set/boot.img for image of 100000 bytes" out
check "  with --expected_chain_partition too" run_rc 0 "$FV" avb verify_image --image set/vbmeta.img --follow_chain_partitions --expected_chain_partition vbmeta_system:1:"$K/rsa4096.avbpubkey"
cp sparsebad.img set/super.img
check "a damaged super.img in the set" run_rc 2 "$FV" verify set/vbmeta.img --key "$K/rsa2048.pem"
check "  system FAILED, boot still verified" sh -c "grep -q '^system: .*FAILED.' out && grep -q '^boot: .*verified.' out"
check "  the block named" grep -qx "Verification failed at position 8192 (partition system, set/super.img/system_a)." err
cp sparse.img set/super.img
"$FV" avb make_vbmeta_image --output set/vbmeta_system.img --include_descriptors_from_image system.img \
	--algorithm SHA256_RSA8192 --key "$K/rsa8192.pem"
check "a chained vbmeta signed by another key than its chain pins: rejected" run_rc 2 "$FV" verify set/vbmeta.img --key "$K/rsa2048.pem"
check "  naming both keys" grep -q "set/vbmeta_system.img: signed by another key (sha1 [0-9a-f]*) than the one set/vbmeta.img pins for vbmeta_system" err
check "  by avb verify_image too" run_rc 1 "$FV" avb verify_image --image set/vbmeta.img --follow_chain_partitions
check "    in avbtool's words" grep -q "Embedded public key does not match the key the chain partition descriptor for vbmeta_system pins." err
finish
