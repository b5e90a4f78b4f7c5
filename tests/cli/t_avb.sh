# fastverity avb, the drop-in for avbtool: the nine golden images made by
# avbtool 1.3.0 (tests/avb/README.md) made again byte for byte from the
# same data, keys and command lines; info_image and verify_image line for
# line; damaged copies refused; veritysetup agrees with the trees and
# parity; avbtool's options fastverity lacks refused by name.
. "$(dirname "$0")/lib.sh"

G=$TOP/tests/avb
cd "$T" || exit 1
cp -r "$G/keys" . && mkdir images
avbtool() { "$FV" avb "$@"; }
quiet() { "$@" >/dev/null 2>&1; }
mkdata() { "$TOP/build/mkimage" labels "$1" "$2"; }

# The golden command lines, as avbtool ran them (tests/avb/README.md).
mkdata avbgold-a 614400 >images/odm_dlkm.img
avbtool add_hashtree_footer --image images/odm_dlkm.img --partition_name odm_dlkm --partition_size 786432 --hash_algorithm sha256 --block_size 4096 --salt 230257464e283eec086dbd3f09901dbde6073a729e4b84bbc0059ca96aa5b6bc --do_not_generate_fec
mkdata avbgold-b 425984 >images/system.img
avbtool add_hashtree_footer --image images/system.img --partition_name system --hash_algorithm sha256 --block_size 4096 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048 --rollback_index 7 --prop com.example.avbgold.build:golden-b
mkdata avbgold-c 294912 >images/product_services.img
avbtool add_hashtree_footer --image images/product_services.img --partition_name product_services --partition_size 655360 --hash_algorithm sha512 --block_size 4096 --salt dfb7ca1bf49264b927502d27d69329b722a8e39e8c4490399539e24747b65bff80ae04a07ffa1fadd6c0377a2540949718badc04ae41891503901432ce6f95d5 --fec_num_roots 8 --key keys/rsa4096.pem --algorithm SHA512_RSA4096 --rollback_index 1000
mkdata avbgold-d 204800 >images/system_other.img
avbtool add_hashtree_footer --image images/system_other.img --partition_name system_other --hash_algorithm sha1 --block_size 4096 --salt '' --do_not_generate_fec --key keys/rsa8192.pem --algorithm SHA256_RSA8192
mkdata avbgold-e 3000 >images/oneblock.img
avbtool add_hashtree_footer --image images/oneblock.img --partition_name oneblock --partition_size 98304 --hash_algorithm sha256 --block_size 4096 --salt 4d52453c1536c5a11fad870ba1 --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA512_RSA2048
mkdata avbgold-f 333333 >images/blk1024.img
avbtool add_hashtree_footer --image images/blk1024.img --partition_name blk1024 --partition_size 458752 --hash_algorithm sha256 --block_size 1024 --salt 050a4e238f5bc6b7be89c2dc9411bd3b9fb1e368f8d1c20c --fec_num_roots 4
mkdata avbgold-g 150000 >images/boot.img
avbtool add_hash_footer --image images/boot.img --partition_name boot --partition_size 262144 --hash_algorithm sha256 --salt c37c78eccdd984ae6ce951aeac2a766c93d0cbb0eb06c45aa41c69ad376e12ef --key keys/rsa2048.pem --algorithm SHA256_RSA2048
mkdata avbgold-h 98304 >images/vendor.img
avbtool add_hashtree_footer --image images/vendor.img --partition_name vendor --hash_algorithm sha256 --block_size 4096 --salt 2c0ad0f89e9da3ec0a75c4ca2f7b16b7bcef1d42 --do_not_generate_fec --key keys/rsa4096.pem --algorithm SHA256_RSA4096 --rollback_index 2
avbtool make_vbmeta_image --output images/vbmeta.img --key keys/rsa4096.pem --algorithm SHA256_RSA4096 --rollback_index 5 --include_descriptors_from_image images/system.img --include_descriptors_from_image images/boot.img --chain_partition vendor:1:keys/rsa4096.avbpubkey --padding_size 4096

while read -r sum name; do
	check "$name: byte for byte avbtool's" test "$(sha256sum <"images/$name" | cut -d' ' -f1)" = "$sum"
done <"$G/expected/SHA256SUMS"
mkdir gold && cp images/*.img gold/

# Again on a finished image: the old footer replaced, the same bytes.
for img in odm_dlkm system product_services oneblock blk1024; do
	cp "gold/$img.img" again.img
	case $img in
	odm_dlkm) args=(--partition_size 786432 --hash_algorithm sha256 --salt 230257464e283eec086dbd3f09901dbde6073a729e4b84bbc0059ca96aa5b6bc --do_not_generate_fec) ;;
	system) args=(--hash_algorithm sha256 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 --key keys/rsa2048.pem --algorithm SHA256_RSA2048 --rollback_index 7 --prop com.example.avbgold.build:golden-b) ;;
	product_services) args=(--partition_size 655360 --hash_algorithm sha512 --salt dfb7ca1bf49264b927502d27d69329b722a8e39e8c4490399539e24747b65bff80ae04a07ffa1fadd6c0377a2540949718badc04ae41891503901432ce6f95d5 --fec_num_roots 8 --key keys/rsa4096.pem --algorithm SHA512_RSA4096 --rollback_index 1000) ;;
	oneblock) args=(--partition_size 98304 --hash_algorithm sha256 --salt 4d52453c1536c5a11fad870ba1 --key keys/rsa2048.pem --algorithm SHA512_RSA2048) ;;
	blk1024) args=(--partition_size 458752 --hash_algorithm sha256 --block_size 1024 --salt 050a4e238f5bc6b7be89c2dc9411bd3b9fb1e368f8d1c20c --fec_num_roots 4) ;;
	esac
	check "$img: footer replaced, same bytes" run_rc 0 avbtool add_hashtree_footer --image again.img --partition_name "$img" "${args[@]}"
	check "  byte for byte" cmp -s again.img "gold/$img.img"
done
cp gold/boot.img again.img
check "boot: hash footer replaced, same bytes" run_rc 0 avbtool add_hash_footer --image again.img --partition_name boot --partition_size 262144 --salt c37c78eccdd984ae6ce951aeac2a766c93d0cbb0eb06c45aa41c69ad376e12ef --key keys/rsa2048.pem --algorithm SHA256_RSA2048
check "  byte for byte" cmp -s again.img gold/boot.img

# info_image: avbtool's text, byte for byte.
for c in a:odm_dlkm b:system c:product_services d:system_other e:oneblock f:blk1024 g:boot h:vbmeta h.vendor:vendor; do
	check "info_image $c" run_rc 0 avbtool info_image --image "images/${c#*:}.img"
	check "  avbtool's text" cmp -s "$T/out" "$G/expected/case_${c%%:*}.info.txt"
done
check "info_image --json" run_rc 0 avbtool info_image --image images/system.img --json
check "  the descriptor's fields" jqok '.footer.original_image_size == 425984 and .algorithm == "SHA256_RSA2048" and (.descriptors[0] | .type == "hashtree" and .root_digest == "8a7de8f2dc5ad4fa316964ea432c6d1cbedd5a79c3459350d46c161774958881" and .fec_num_roots == 2) and .descriptors[1].value == "golden-b"' "$T/out"
check "info_image --output" run_rc 0 avbtool info_image --image images/boot.img --output info.txt
check "  the same text in the file" cmp -s info.txt "$G/expected/case_g.info.txt"

# verify_image: avbtool's transcripts (case f adds one line: its parity
# has 4096-byte blocks under a 1024-byte tree).
for t in "$G"/expected/*.verify.txt; do
	cmd=$(head -n1 "$t" | sed 's/^\$ avbtool //')
	# shellcheck disable=SC2086
	got=$({ avbtool $cmd 2>&1 | grep -v '^fastverity: images/blk1024.img: the parity'; echo "exit status: ${PIPESTATUS[0]}"; })
	check "verify_image $(basename "$t" .verify.txt): avbtool's transcript" test "$got" = "$(tail -n +2 "$t")"
done

# Damaged copies of system.img (avbtool's verdicts, and the block named).
for d in 200000:data 426000:tree 434000:parity 439071:root-digest 438688:signature 438402:release 446400:footer-magic 446427:footer-offset; do
	cp gold/system.img images/system.img
	flip images/system.img "${d%%:*}"
	check "verify_image refuses a flipped byte in the ${d#*:}" run_rc 1 avbtool verify_image --image images/system.img --key keys/rsa2048.pem
	case ${d#*:} in
	data) check "  names the block" grep -qx "Verification failed at position 196608." "$T/err"
	      check "  avbtool's message" grep -qx "hashtree of images/system.img does not match descriptor" "$T/err" ;;
	tree) check "  names the hash block" grep -qx "Verification failed at position 425984 (hash block, level 0)." "$T/err"
	      check "  avbtool's message" grep -qx "hashtree of images/system.img contains invalid data" "$T/err" ;;
	parity) check "  says the parity disagrees" grep -q "^parity of images/system.img: 1 codewords in 1 rounds disagree" "$T/err" ;;
	root-digest|signature|release) check "  avbtool's message" grep -q "Signature check failed for SHA256_RSA2048 vbmeta struct" "$T/err" ;;
	*) check "  says why" grep -q "images/system.img: .*vbmeta" "$T/err" ;;
	esac
done
cp gold/system.img images/system.img
flip images/system.img 440000
check "zero padding after the vbmeta is not covered (as avbtool)" run_rc 0 avbtool verify_image --image images/system.img --key keys/rsa2048.pem
cp gold/system.img images/system.img
check "verify_image with another key" run_rc 1 avbtool verify_image --image images/system.img --key keys/rsa4096.pem
check "  avbtool's message" grep -q "Embedded public key does not match given key." "$T/err"
cp images/system.img renamed.img
check "an image not named after its partition verifies" run_rc 0 avbtool verify_image --image renamed.img --key keys/rsa2048.pem
check "  with itself" grep -q "^system: Successfully verified sha256 hashtree of renamed.img" "$T/out"

# veritysetup agrees: tree and parity of a larger image, in both
# directions.
gen 7 $((8 << 20)) >big.img
cp big.img big.data
check "add_hashtree_footer, 8 MiB, parity" run_rc 0 avbtool add_hashtree_footer --image big.img --partition_name system --hash_algorithm sha256 --salt "$SALT"
check "  data left as it was" cmp -s big.data <(head -c $((8 << 20)) big.img)
check "  --hash_algorithm given: no default said" sh -c "! grep -q Defaulting '$T/err'"
# without --hash_algorithm, avbtool's sha1, and said on stderr as avbtool
# says it; stdout stays avbtool's
cp big.data sha1.img
check "add_hashtree_footer without --hash_algorithm" run_rc 0 avbtool add_hashtree_footer --image sha1.img --partition_name system --salt "$SALT" --do_not_generate_fec
check "  says it defaults to sha1" grep -q "^Defaulting to sha1" "$T/err"
avbtool info_image --image sha1.img >sha1.info
check "  and makes a sha1 tree" grep -q 'Hash Algorithm: *sha1$' sha1.info
avbtool info_image --image big.img --json >big.json
root=$(jq -r '.descriptors[0].root_digest' big.json)
foff=$(jq -r '.descriptors[0].fec_offset' big.json)
V=(--no-superblock --hash sha256 --salt "$SALT" --data-blocks 2048 --hash-offset $((8 << 20)))
check "  veritysetup verifies the tree and parity" quiet $VS verify "${V[@]}" --fec-device big.img --fec-offset "$foff" --fec-roots 2 big.img big.img "$root"
cp big.img vs.img
dd if=/dev/zero of=vs.img bs=4096 seek=2048 count=$(((foff - (8 << 20)) / 4096 + 1)) conv=notrunc status=none
check "  veritysetup format rebuilds the same tree and parity" quiet $VS format "${V[@]}" --fec-device vs.img --fec-offset "$foff" --fec-roots 2 vs.img vs.img
check "  byte for byte" cmp -s vs.img big.img

# The native actions take an Android image alone: verify, dump, repair.
check "verify IMAGE" run_rc 0 "$FV" verify gold/system.img
check "  one line: the signer was not checked" sh -c "test ! -s '$T/out' && test \$(wc -l <'$T/err') = 1 && grep -q '^fastverity: gold/system.img: warning: the vbmeta is signed (SHA256_RSA2048, public key sha1 [0-9a-f]*) and checks out against the key it carries, but its signer was not checked (give --key=<key.pem>): nothing proves who made it$' '$T/err'"
check "  JSON: algorithm, key, checked false" sh -c "'$FV' verify --json gold/system.img 2>/dev/null | jq -e '.signature.algorithm == \"SHA256_RSA2048\" and .signature.checked == false and .signature.trust == \"not checked\"' >/dev/null"
check "  with --key: checked" sh -c "'$FV' verify --json gold/system.img --key keys/rsa2048.pem 2>/dev/null | jq -e '.signature.checked and .signature.trust == \"checked\"' >/dev/null"
check "verify IMAGE --key (the signer's)" run_rc 0 "$FV" verify gold/system.img --key keys/rsa2048.pem
check "verify IMAGE --key (another)" run_rc 2 "$FV" verify gold/system.img --key keys/rsa4096.pem
check "  names the signer's key" grep -q "gold/system.img: the vbmeta is signed by another key (public key sha1 f0701da0e55f948c21d8f6ad0d7ac9b5123d0205), not by keys/rsa4096.pem" "$T/err"
check "verify IMAGE: sha512 tree, parity of 8 roots" run_rc 0 "$FV" verify gold/product_services.img
check "verify IMAGE: sha1 tree, no salt" run_rc 0 "$FV" verify gold/system_other.img
check "verify IMAGE: one block, no tree" run_rc 0 "$FV" verify gold/oneblock.img
check "verify IMAGE: 1024-byte blocks" run_rc 0 "$FV" verify gold/blk1024.img
check "  says the kernel cannot use its parity" grep -q "the parity uses 4096-byte blocks under a tree of 1024-byte blocks" "$T/err"
check "verify IMAGE: a hash footer's digest checked" run_rc 0 "$FV" verify gold/boot.img --key "$TOP/tests/avb/keys/rsa2048.pem"
check "  saying what vouches for it" grep -qx "boot: hash of gold/boot.img, vbmeta gold/boot.img signed by $TOP/tests/avb/keys/rsa2048.pem: verified." "$T/out"
check "dump IMAGE: a hash footer's descriptor" run_rc 0 "$FV" dump gold/boot.img
check "  its partition, size and digest" grep -q "^Android image: *	partition boot, data 150000 bytes, hash footer: sha256 digest [0-9a-f]\{64\}$" "$T/out"
check "  --json" sh -c "'$FV' dump gold/boot.img --json | jq -e '.partitions[0].android.hash_algorithm == \"sha256\" and (.partitions[0].android.digest | length) == 64' >/dev/null"
cp gold/boot.img bootbad.img
flip bootbad.img 5000
check "verify IMAGE: a hash footer over changed data" run_rc 2 "$FV" verify bootbad.img
check "  avbtool's words, and FAILED" sh -c "grep -q 'digest of bootbad.img does not match digest in descriptor' '$T/err' && grep -q '^boot: hash of bootbad.img, .*: FAILED.$' '$T/out'"
check "repair IMAGE: a hash footer has no tree" run_rc 1 "$FV" repair gold/boot.img --key "$TOP/tests/avb/keys/rsa2048.pem"
check "  says verify checks it" grep -q "no tree to repair (verify checks its hash descriptor)" "$T/err"
check "verify IMAGE with --hash-offset refused" run_rc 1 "$FV" verify gold/system.img --hash-offset=4096
check "  the image carries its parameters" grep -q "an Android image carries its own parameters.*--hash-offset does not apply" "$T/err"
cp gold/product_services.img p.img
flip p.img 100000
flip p.img 300000
check "verify IMAGE: bad data and tree blocks" run_rc 2 "$FV" verify p.img
check "  the tree block named, as veritysetup" grep -qx "Verification failed at position 299008." "$T/err"
check "  what the parity can repair, and the key its repair needs (signed, verified without it)" grep -qx "FEC can repair 2 of 2 bad blocks (fastverity repair, with the same arguments and with --key=<key.pem>)." "$T/err"
check "verify IMAGE --json" run_rc 2 "$FV" verify p.img --json
check "  counts, and the roots the image's descriptor gives" jqok '.bad_hash_blocks == 1 and .fec.roots == 8 and .fec.roots_from == "image"' "$T/out"
check "repair IMAGE of a signed image needs its key" run_rc 1 "$FV" repair p.img
check "  says how to give it" grep -q "p.img: an Android image (vbmeta) that is signed, and nothing was given to check its signer: nothing is written on the word of an unchecked root (give --key=<key.pem>)" "$T/err"
check "repair IMAGE --key" run_rc 0 "$FV" repair p.img --key keys/rsa4096.pem
check "  the image as it was made" cmp -s p.img gold/product_services.img
check "dump IMAGE" run_rc 0 "$FV" dump gold/system.img
check "  the tree's parameters" grep -q "^Salt:            	85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7" "$T/out"
check "  the root digest" grep -q "^Root hash:      	8a7de8f2dc5ad4fa316964ea432c6d1cbedd5a79c3459350d46c161774958881" "$T/out"
check "  the vbmeta" grep -q "^Vbmeta:          	SHA256_RSA2048, key sha1 f0701da0e55f948c21d8f6ad0d7ac9b5123d0205, rollback index 7" "$T/out"
check "dump IMAGE --json" run_rc 0 "$FV" dump gold/system.img --json
check "  descriptor and parity" jqok '.android.partition_name == "system" and .android.fec_offset == 430080 and .fec.roots == 2 and .fec.covered_blocks == 105' "$T/out"

# The other writers.
check "extract_public_key" run_rc 0 avbtool extract_public_key --key keys/rsa4096.pem --output k.avbpubkey
check "  avbtool's blob" cmp -s k.avbpubkey keys/rsa4096.avbpubkey
check "calculate_vbmeta_digest" run_rc 0 avbtool calculate_vbmeta_digest --image gold/vbmeta.img --hash_algorithm sha256
check "  avbtool's digest" grep -qx 164d3d388e561cf354e5ed979e89f3eeca129d2ec0dcb2c2bdfe554225269c58 "$T/out"
check "extract_vbmeta_image" run_rc 0 avbtool extract_vbmeta_image --image gold/system.img --output vb.img
check "  the blob" cmp -s vb.img <(tail -c +438273 gold/system.img | head -c 1472)
cp gold/system.img erase.img
check "erase_footer" run_rc 0 avbtool erase_footer --image erase.img
check "  leaves the data" cmp -s erase.img <(head -c 425984 gold/system.img)
cp gold/system.img erase.img
check "erase_footer --keep_hashtree" run_rc 0 avbtool erase_footer --image erase.img --keep_hashtree
check "  leaves data, tree and parity" cmp -s erase.img <(head -c 438272 gold/system.img)
check "--calc_max_image_size" run_rc 0 avbtool add_hashtree_footer --partition_size 786432 --calc_max_image_size --do_not_generate_fec --hash_algorithm sha256
check "  avbtool's room" grep -qx 704512 "$T/out"
check "--print_required_libavb_version" run_rc 0 avbtool add_hashtree_footer --image gold/system.img --rollback_index_location 1 --print_required_libavb_version
check "  1.2 with a rollback index location" grep -qx 1.2 "$T/out"
check "version" run_rc 0 avbtool version
check "  avbtool's release" grep -qx "avbtool 1.3.0" "$T/out"

# Refusals: each names what is wrong, and the image is left alone.
cp gold/system.img images/system.img
check "an option avbtool has and fastverity lacks" run_rc 1 avbtool add_hashtree_footer --image images/system.img --setup_as_rootfs_from_kernel
check "  named" grep -q "avbtool's --setup_as_rootfs_from_kernel is not implemented" "$T/err"
check "a subcommand fastverity lacks" run_rc 1 avbtool set_ab_metadata --misc_image images/system.img --slot_data 15:7:0:14:7:0
check "  named" grep -q "avbtool's set_ab_metadata is not implemented" "$T/err"
check "an unknown option: exit 2, as argparse" run_rc 2 avbtool add_hashtree_footer --image images/system.img --frobnicate
check "  named" grep -q "frobnicate" "$T/err"
check "--hash_algorithm md5 refused" run_rc 1 avbtool add_hashtree_footer --image images/system.img --hash_algorithm md5
check "  by name" grep -q "'md5' is not supported" "$T/err"
check "an unknown --algorithm refused" run_rc 1 avbtool add_hashtree_footer --image images/system.img --algorithm SHA1_RSA1024 --key keys/rsa2048.pem
check "a key of the wrong size refused" run_rc 1 avbtool add_hashtree_footer --image images/system.img --algorithm SHA256_RSA4096 --key keys/rsa2048.pem
check "  names the sizes" grep -q "key of 2048 bits is the wrong size for algorithm SHA256_RSA4096" "$T/err"
check "an algorithm without a key refused" run_rc 1 avbtool add_hashtree_footer --image images/system.img --algorithm SHA256_RSA2048
check "an image that does not fit the partition refused" run_rc 1 avbtool add_hashtree_footer --image images/system.img --partition_size 262144
check "  with avbtool's numbers" grep -q "exceeds maximum image size" "$T/err"
check "  every refusal left the image alone" cmp -s images/system.img gold/system.img
printf 'data' >odd.img
check "data of no whole 4096 bytes without a partition size" run_rc 1 avbtool add_hashtree_footer --image odd.img
check "  says so" grep -q "not a multiple of the image block size 4096" "$T/err"
# an Android sparse image header (magic, version 1.0, 28 and 12 bytes,
# no chunk), then bytes no chunk holds: read as a sparse image by every
# command, and refused by each, naming the file and what is wrong
printf '\x3a\xff\x26\xed\x01\x00\x00\x00\x1c\x00\x0c\x00\x00\x10\x00\x00' >sparse.img && head -c 8176 /dev/zero >>sparse.img
cp sparse.img sparse.orig
for cmd in "avb info_image --image sparse.img" "verify sparse.img" "dump sparse.img"; do
	# shellcheck disable=SC2086
	check "a malformed sparse image refused: $cmd" run_rc 1 "$FV" $cmd
	check "  in one line naming the bytes no chunk holds" sh -c "test \$(wc -l <'$T/err') = 1 && grep -q 'sparse.img: 8164 bytes follow the last of its 0 sparse chunks (at byte 28)' '$T/err'"
done
# its writer cuts bytes after the last chunk (what its own interrupted
# run leaves), but refuses an image of no blocks before it writes
check "add_hashtree_footer of a sparse image of no blocks refused" run_rc 1 "$FV" avb add_hashtree_footer --image sparse.img
check "  in one line naming it" sh -c "test \$(wc -l <'$T/err') = 1 && grep -q 'sparse.img: an image of no data' '$T/err'"
check "  and the image is left alone" cmp -s sparse.img sparse.orig
# format hashes raw bytes only (veritysetup hashes the file as it is)
check "format of a sparse image refused" run_rc 1 "$FV" format sparse.img sparse.hash
check "  names simg2img" grep -q "an Android sparse image.*simg2img sparse.img" "$T/err"
check "  and is left alone" cmp -s sparse.img sparse.orig
check "  and nothing was made" test ! -e sparse.hash

# Bad metadata: each a one-line error naming the field, exit 1, the image
# untouched. put64 FILE OFFSET VALUE writes a big-endian u64.
put64() {
	local s="" i
	for i in 7 6 5 4 3 2 1 0; do s="$s$(printf '\\%03o' $((($3 >> (i * 8)) & 255)))"; done
	printf "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
bad() { # WHAT IMAGE FIELD-TEXT: verify and info_image refuse it
	local sum
	sum=$(sha256sum <"$2")
	check "$1: verify refuses" run_rc 1 "$FV" verify "$2"
	check "  names the field" grep -q "$3" "$T/err"
	check "  in one line" test "$(wc -l <"$T/err")" = 1
	check "$1: info_image refuses" run_rc 1 avbtool info_image --image "$2"
	check "  the image untouched" test "$(sha256sum <"$2")" = "$sum"
}
head -c $((446464 - 10)) gold/system.img >b.img
check "a footer cut off: info_image refuses" run_rc 1 avbtool info_image --image b.img
check "  says why" grep -q "b.img: not an Android image: no AVB footer in its last 64 bytes and no vbmeta at byte 0" "$T/err"
check "  verify takes it for an image with sidecar files" run_rc 4 "$FV" verify b.img
cp gold/system.img b.img && put64 b.img $((446400 + 28)) 2147483647
bad "a vbmeta size outside the image" b.img "AVB footer: vbmeta of 2147483647 bytes at 438272 is not inside the image"
cp gold/system.img b.img && put64 b.img $((446400 + 12)) $((1 << 40))
bad "an original size larger than the file" b.img "AVB footer: original image size 1099511627776 is beyond the footer"
cp gold/system.img b.img && put64 b.img $((438272 + 104)) $((1 << 20))
bad "descriptors outside the auxiliary block" b.img "descriptors are outside the auxiliary block"
cp gold/system.img b.img && put64 b.img $((438848 + 8)) -16
bad "a descriptor length that wraps around" b.img "descriptor at byte 0: length 18446744073709551600 is"
cp gold/system.img b.img && put64 b.img $((438848 + 8)) 1000000
bad "a descriptor length past the end" b.img "length 1000000 is past the descriptors' end"
cp gold/system.img b.img && put64 b.img $((438848 + 104)) $((7 << 32 | 4096))
bad "a huge salt length" b.img "hashtree descriptor: its lengths (.*) do not match its size"
cp gold/system.img b.img && put64 b.img $((438272 + 72)) 100
check "a key blob of the wrong size" run_rc 1 "$FV" verify b.img
check "  names it" grep -q "vbmeta public key size 100 is not that of a 2048-bit key (520 bytes)" "$T/err"
cp gold/odm_dlkm.img b.img && put64 b.img $((626944 + 28)) $((1 << 50))
check "a tree outside the image" run_rc 1 "$FV" verify b.img
check "  names it" grep -q "hashtree descriptor: tree \[1125899906842624, +12288) is not between the data and the end of the file" "$T/err"
cp gold/blk1024.img b.img && put64 b.img $((364800 + 56)) $((1 << 50))
check "parity outside the image" run_rc 1 "$FV" verify b.img
check "  names it" grep -q "hashtree descriptor: parity of 4 roots, 16384 bytes at 1125899906842624" "$T/err"

finish
