# The rest of avbtool's commands and options, each against a golden made
# here from the format (avbtool is not packaged): print_partition_digests
# and calculate_kernel_cmdline from avbtool's own info_image texts of the
# golden images; append_vbmeta_image, resize_image and zero_hashtree
# byte for byte as avbtool's source writes them, raw and sparse;
# --signing_helper(_with_files) byte for byte with the key's own
# signature; --use_persistent_digest, --do_not_use_ab,
# --check_at_most_once, --chain_partition_do_not_use_ab and
# --public_key_metadata in the fields the format gives them.
. "$(dirname "$0")/lib.sh"

G=$TOP/tests/avb
cd "$T" || exit 1
cp -r "$G/keys" . && mkdir images
avbtool() { "$FV" avb "$@"; }
mkdata() { "$TOP/build/mkimage" labels "$1" "$2"; }
# field NAME FILE: the value of an info_image line "NAME: value"
field() { sed -n "s/^ *$1: *//p" "$2" | head -1; }

# avbtool's golden set h (tests/avb/README.md): system, boot, vendor and
# the vbmeta that includes the first two and chains the third
mkdata avbgold-b 425984 >images/system.img
avbtool add_hashtree_footer --image images/system.img --partition_name system --hash_algorithm sha256 --block_size 4096 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048 --rollback_index 7 --prop com.example.avbgold.build:golden-b
mkdata avbgold-g 150000 >images/boot.img
avbtool add_hash_footer --image images/boot.img --partition_name boot --partition_size 262144 --hash_algorithm sha256 --salt c37c78eccdd984ae6ce951aeac2a766c93d0cbb0eb06c45aa41c69ad376e12ef --key keys/rsa2048.pem --algorithm SHA256_RSA2048
mkdata avbgold-h 98304 >images/vendor.img
avbtool add_hashtree_footer --image images/vendor.img --partition_name vendor --hash_algorithm sha256 --block_size 4096 --salt 2c0ad0f89e9da3ec0a75c4ca2f7b16b7bcef1d42 --do_not_generate_fec --key keys/rsa4096.pem --algorithm SHA256_RSA4096 --rollback_index 2
avbtool make_vbmeta_image --output images/vbmeta.img --key keys/rsa4096.pem --algorithm SHA256_RSA4096 --rollback_index 5 --include_descriptors_from_image images/system.img --include_descriptors_from_image images/boot.img --chain_partition vendor:1:keys/rsa4096.avbpubkey --padding_size 4096
for f in system boot vendor vbmeta; do
	check "$f.img: avbtool's golden" grep -q "$(sha256sum <images/$f.img | cut -d' ' -f1)  $f.img" "$G/expected/SHA256SUMS"
done

# --- print_partition_digests: in descriptor order, chains followed; the
# digests are those avbtool's info_image printed for the same images
E=$G/expected
vendor_root=$(field "Root Digest" "$E/case_h.vendor.info.txt")
boot_digest=$(sed -n 's/^ *Digest: *//p' "$E/case_h.info.txt")
system_root=$(field "Root Digest" "$E/case_h.info.txt")
printf 'vendor: %s\nboot: %s\nsystem: %s\n' "$vendor_root" "$boot_digest" "$system_root" >digests.want
check "print_partition_digests" run_rc 0 avbtool print_partition_digests --image images/vbmeta.img
check "  every partition, the chained one first (avbtool's order)" cmp -s "$T/out" digests.want
python3 - "$vendor_root" "$boot_digest" "$system_root" >digests.json <<'EOF'
import json, sys
v, b, s = sys.argv[1:]
sys.stdout.write(json.dumps({'partitions': [{'name': 'vendor', 'digest': v}, {'name': 'boot', 'digest': b}, {'name': 'system', 'digest': s}]}, indent=2))
EOF
check "print_partition_digests --json" run_rc 0 avbtool print_partition_digests --image images/vbmeta.img --json
check "  json.dumps(indent=2), byte for byte" cmp -s "$T/out" digests.json
check "  --output writes the same" run_rc 0 avbtool print_partition_digests --image images/vbmeta.img --json --output d.json
check "  into the file" cmp -s d.json digests.json
check "of an image with a footer: its own" run_rc 0 avbtool print_partition_digests --image images/boot.img
check "  one line" test "$(cat "$T/out")" = "boot: $boot_digest"
mkdir lone && cp images/vbmeta.img lone/
check "a chained image that is missing refused: exit 1, as avbtool" run_rc 1 avbtool print_partition_digests --image lone/vbmeta.img
check "  naming it" grep -q "lone/vendor.img" "$T/err"

# --- verify_image --json (fastverity's): docs/json.md's image document,
# one object per descriptor checked with who vouches for it, the same
# objects verify vbmeta.img --json gives for the same set
parts() { jq -r '[.partitions[] | .name + ":" + .descriptor + ":" + .result] | join(" ")' "$T/out"; }
check "verify_image --json, chains followed" run_rc 0 avbtool verify_image --image images/vbmeta.img --follow_chain_partitions --json
check "  one document, none of avbtool's lines" jqok '.image == "images/vbmeta.img" and .container == "avb" and .result == "ok"' "$T/out"
check "  vendor (chained), boot, system: each checked, ok" test "$(parts)" = "vendor:hashtree:ok boot:hash:ok system:hashtree:ok"
check "  each with the vbmeta that vouches for it, signer not checked" test "$(jq -r '[.partitions[] | .vbmeta + "=" + .trust] | join(" ")' "$T/out")" = "images/vendor.img=not checked images/vbmeta.img=not checked images/vbmeta.img=not checked"
check "  the trees' counts: every block checked" jqok '[.partitions[] | select(.descriptor == "hashtree") | .root_hash_matches and .bad_data_blocks == 0 and .failures == []] == [true, true]' "$T/out"
jq -c '[.partitions[] | {name, descriptor, path, vbmeta, trust, vouched_by, result}]' "$T/out" >vi.parts
"$FV" verify images/vbmeta.img --json 2>/dev/null | jq -c '[.partitions[] | {name, descriptor, path, vbmeta, trust, vouched_by, result}]' >set.parts
check "  the same partitions as verify vbmeta.img --json" cmp -s vi.parts set.parts
check "verify_image --json --key: the signer checked" run_rc 0 avbtool verify_image --image images/vbmeta.img --follow_chain_partitions --key keys/rsa4096.pem --json
check "  and so the chained vbmeta signed by the key it pins" test "$(jq -r '[.partitions[].trust] | unique | join(",")' "$T/out")" = checked
check "verify_image --json --expected_chain_partition" run_rc 0 avbtool verify_image --image images/vbmeta.img --expected_chain_partition vendor:1:keys/rsa4096.avbpubkey --json
check "  the chain descriptor checked as a partition of its own" test "$(parts)" = "vendor:chain partition:ok boot:hash:ok system:hashtree:ok"
mkdir dmg && cp images/system.img images/boot.img images/vendor.img images/vbmeta.img dmg/
flip dmg/system.img $((5 * 4096 + 7))
check "verify_image --json of a damaged tree's data: exit 1, as avbtool" run_rc 1 avbtool verify_image --image dmg/vbmeta.img --follow_chain_partitions --json
check "  the document says corrupted, and which block" jqok '.result == "corrupted" and ([.partitions[] | select(.name == "system")][0] | .result == "corrupted" and .bad_data_blocks == 1 and .failures == [{"type": "data", "position": 20480, "block": 5}])' "$T/out"
check "  avbtool's words on stderr" grep -q "hashtree of dmg/system.img does not match descriptor" "$T/err"
flip dmg/boot.img 1000
check "verify_image --json of a damaged hash partition: exit 1" run_rc 1 avbtool verify_image --image dmg/vbmeta.img --follow_chain_partitions --json
check "  boot corrupted" jqok '.result == "corrupted" and ([.partitions[] | select(.name == "boot")][0].result == "corrupted")' "$T/out"
check "verify_image --json, signed by another key than --key's: exit 1" run_rc 1 avbtool verify_image --image images/vbmeta.img --key keys/rsa2048.pem --json
check "  the error document, with the message" jqok '.result == "error" and .exit_code == 1 and (.error | contains("images/vbmeta.img: Embedded public key does not match given key"))' "$T/out"
check "verify_image --json without --image: exit 2, as argparse" run_rc 2 avbtool verify_image --json
check "  the error document too" jqok '.result == "error" and .exit_code == 2 and (.error | contains("--image is required"))' "$T/out"

# --- calculate_kernel_cmdline: the command lines of the image and of the
# images it chains (one level), joined by spaces, no newline; a
# descriptor's flags say when it counts (1: tree on, 2: tree off)
mkdata cmdline-v 8192 >images/kv.img
avbtool add_hash_footer --image images/kv.img --partition_name kv --partition_size 1114112 --salt 00 --kernel_cmdline 'kv=1' --key keys/rsa2048.pem --algorithm SHA256_RSA2048
avbtool extract_public_key --key keys/rsa2048.pem --output k2048.avbpubkey
avbtool make_vbmeta_image --output images/top.img --chain_partition kv:1:k2048.avbpubkey --kernel_cmdline 'on=1' --kernel_cmdline 'off=1' --kernel_cmdline 'always=1'
# the flags of the first two set as avbtool's dm-verity command lines set
# them (an unsigned vbmeta: no signature to break)
python3 - images/top.img <<'EOF'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
for text, flags in ((b'on=1', 1), (b'off=1', 2)):
    at = b.index(text)
    assert struct.unpack('>I', b[at - 4:at])[0] == len(text)
    b[at - 8:at - 4] = struct.pack('>I', flags)
open(p, 'wb').write(b)
EOF
check "calculate_kernel_cmdline" run_rc 0 avbtool calculate_kernel_cmdline --image images/top.img
check "  the chain's, then the tree-on and unconditional ones" test "$(cat "$T/out")" = "kv=1 on=1 always=1"
check "  without a newline" test "$(wc -c <"$T/out")" = 18
check "calculate_kernel_cmdline --hashtree_disabled" run_rc 0 avbtool calculate_kernel_cmdline --image images/top.img --hashtree_disabled
check "  the tree-off one instead" test "$(cat "$T/out")" = "kv=1 off=1 always=1"

# --- append_vbmeta_image: the blob of a vbmeta image after the data (its
# size rounded up to 4096), zeros, the footer in the partition's last
# bytes; the same layout add_hash_footer writes
head -c 10000 /dev/urandom >data.orig
cp data.orig data.img
expect_append() { # IMAGE_DATA VBMETA PARTITION_SIZE
	python3 - "$@" <<'EOF'
import struct, sys
data = open(sys.argv[1], 'rb').read()
vb = open(sys.argv[2], 'rb').read()
auth, aux = struct.unpack('>QQ', vb[12:28])
blob = vb[:256 + auth + aux]
size = int(sys.argv[3])
off = (len(data) + 4095) // 4096 * 4096
out = data + bytes(off - len(data)) + blob
out += bytes(size - 64 - len(out))
out += b'AVBf' + struct.pack('>IIQQQ', 1, 0, len(data), off, len(blob)) + bytes(28)
sys.stdout.buffer.write(out)
EOF
}
expect_append data.orig images/vbmeta.img 1048576 >append.want
check "append_vbmeta_image" run_rc 0 avbtool append_vbmeta_image --image data.img --vbmeta_image images/vbmeta.img --partition_size 1048576
check "  data, the blob, zeros, the footer" cmp -s data.img append.want
check "  again over its own footer: the same bytes" run_rc 0 avbtool append_vbmeta_image --image data.img --vbmeta_image images/vbmeta.img --partition_size 1048576
check "  (idempotent, as avbtool's)" cmp -s data.img append.want
check "  info_image reads the footer and vbmeta" run_rc 0 avbtool info_image --image data.img
check "  the original size" grep -q "^Original image size:      10000 bytes" "$T/out"
head -c 12288 /dev/urandom >data3.orig
img2simg data3.orig sdata.img 2>/dev/null
expect_append data3.orig images/vbmeta.img 1048576 >append3.want
check "append_vbmeta_image of a sparse image" run_rc 0 avbtool append_vbmeta_image --image sdata.img --vbmeta_image images/vbmeta.img --partition_size 1048576
simg2img sdata.img sdata.raw
check "  unsparsed: the raw image's bytes" cmp -s sdata.raw append3.want
cp data.img keep.img
check "a partition too small refused" run_rc 1 avbtool append_vbmeta_image --image data.img --vbmeta_image images/vbmeta.img --partition_size 12288
check "  the image left alone" cmp -s data.img keep.img
check "a partition size of no whole blocks refused" run_rc 1 avbtool append_vbmeta_image --image data.img --vbmeta_image images/vbmeta.img --partition_size 1000000
check "  with avbtool's words" grep -q "not a multiple of the image block size 4096" "$T/err"
check "a vbmeta image that is not one refused" run_rc 1 avbtool append_vbmeta_image --image data.img --vbmeta_image data.orig --partition_size 1048576
check "  the image left alone" cmp -s data.img keep.img
check "the image as its own vbmeta image refused" run_rc 1 avbtool append_vbmeta_image --image data.img --vbmeta_image data.img --partition_size 1048576
# a footer whose vbmeta has no hash or hashtree descriptor (a property
# only): add_hash_footer and add_hashtree_footer over it sign anew (they
# crashed looking for the old descriptor's salt)
avbtool make_vbmeta_image --output prop.vbmeta --prop only:a-property --key keys/rsa2048.pem --algorithm SHA256_RSA2048
for f in add_hash_footer add_hashtree_footer; do
	cp data.orig noh.img
	avbtool append_vbmeta_image --image noh.img --vbmeta_image prop.vbmeta --partition_size 1048576
	check "$f over a footer of no hash descriptor" run_rc 0 avbtool $f --image noh.img --partition_size 1048576 --key keys/rsa2048.pem --algorithm SHA256_RSA2048
	check "  verify_image" run_rc 0 avbtool verify_image --image noh.img --key keys/rsa2048.pem
done

# --- resize_image: the footer moved; between the vbmeta and it, zeros
expect_resize() { # IMAGE SIZE
	python3 - "$@" <<'EOF'
import struct, sys
a = open(sys.argv[1], 'rb').read()
size = int(sys.argv[2])
foot = a[-64:]
voff, vsize = struct.unpack('>QQ', foot[20:36])
end = (voff + vsize + 4095) // 4096 * 4096
sys.stdout.buffer.write(a[:end] + bytes(size - end - 64) + foot)
EOF
}
cp images/boot.img r.img
expect_resize images/boot.img 1048576 >grow.want
expect_resize images/boot.img 163840 >shrink.want
check "resize_image larger" run_rc 0 avbtool resize_image --image r.img --partition_size 1048576
check "  the footer at the new end" cmp -s r.img grow.want
check "resize_image smaller" run_rc 0 avbtool resize_image --image r.img --partition_size 163840
check "  the footer at the new end" cmp -s r.img shrink.want
check "  verify_image still holds" run_rc 0 avbtool verify_image --image r.img
check "resize_image back" run_rc 0 avbtool resize_image --image r.img --partition_size 262144
check "  the image avbtool made" cmp -s r.img images/boot.img
check "a size under the vbmeta's end refused" run_rc 1 avbtool resize_image --image r.img --partition_size 155648
check "  with avbtool's words" grep -q "Requested size of 155648 is too small for an image of size 159744" "$T/err"
check "  the image left alone" cmp -s r.img images/boot.img
check "an image without a footer refused" run_rc 1 avbtool resize_image --image data.orig --partition_size 1048576
# a footer whose original image size reaches past its vbmeta's offset
# (the vbmeta inside the data it counts): refused by every reader and
# writer, naming the file and the field, the image left alone (issue 53:
# resize_image zeroed the data after the vbmeta)
inside() { # IMAGE OUT: IMAGE's footer counting data up to its last block
	python3 - "$1" >"$2" <<'EOF'
import struct, sys
a = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('>Q', a, len(a) - 64 + 12, len(a) - 4096)
sys.stdout.buffer.write(a)
EOF
}
inside images/boot.img inside.img
cp inside.img inside.keep
for cmd in "resize_image --partition_size 262144" "resize_image --partition_size 1048576" erase_footer \
	"add_hash_footer --partition_name boot --partition_size 262144" \
	"append_vbmeta_image --vbmeta_image images/vbmeta.img --partition_size 262144" \
	verify_image info_image; do
	# shellcheck disable=SC2086
	check "${cmd%% *} over a vbmeta inside the data refused" run_rc 1 avbtool $cmd --image inside.img
	check "  one line naming the file and the field" sh -c "test \$(wc -l <'$T/err') = 1 && grep -q 'inside.img: AVB footer: original image size 258048 reaches past the vbmeta offset 151552' '$T/err'"
	check "  the image left alone" cmp -s inside.img inside.keep
done
inside images/system.img inside.img
cp inside.img inside.keep
for cmd in zero_hashtree "erase_footer --keep_hashtree" \
	"add_hashtree_footer --partition_name system --fec_num_roots 2"; do
	# shellcheck disable=SC2086
	check "${cmd%% *} over a vbmeta inside the data refused" run_rc 1 avbtool $cmd --image inside.img
	check "  one line naming the file and the field" sh -c "test \$(wc -l <'$T/err') = 1 && grep -q 'inside.img: AVB footer: original image size [0-9]* reaches past the vbmeta offset [0-9]*' '$T/err'"
	check "  the image left alone" cmp -s inside.img inside.keep
done
mkdata sparse-r 98304 >sr.raw
img2simg sr.raw sr.img 2>/dev/null
avbtool add_hash_footer --image sr.img --partition_name sr --partition_size 262144 --salt 01
simg2img sr.img sr.before
expect_resize sr.before 524288 >sr.want
check "resize_image of a sparse image" run_rc 0 avbtool resize_image --image sr.img --partition_size 524288
simg2img sr.img sr.after
check "  unsparsed: the raw image's bytes" cmp -s sr.after sr.want
check "  info_image says sparse" sh -c "'$FV' avb info_image --image sr.img | grep -q 'Minimum libavb version:   1.0 (Sparse)'"

# --- zero_hashtree: the marker and zeros over tree and parity; then
# verify_image needs --accept_zeroed_hashtree
expect_zero() { # IMAGE
	python3 - "$@" <<'EOF'
import struct, sys
a = bytearray(open(sys.argv[1], 'rb').read())
foot = a[-64:]
voff, = struct.unpack('>Q', foot[20:28])
vb = a[voff:]
auth, aux = struct.unpack('>QQ', vb[12:28])
doff, dsize = struct.unpack('>QQ', vb[96:112])
d = vb[256 + auth + doff:]
tag, n = struct.unpack('>QQ', d[:16])
while tag != 1:
    d = d[16 + n:]
    tag, n = struct.unpack('>QQ', d[:16])
_, _, _, size, toff, tsize, _, _, roots, foff, fsize = struct.unpack('>QQIQQQIIIQQ', d[:72])
mark = b'ZeRoHaSH' + bytes(4088)
a[toff:toff + tsize] = mark + bytes(tsize - 4096)
if foff:
    a[foff:foff + fsize] = mark + bytes(fsize - 4096)
sys.stdout.buffer.write(bytes(a))
EOF
}
mkdata zero-z 2097152 >z.raw
cp z.raw z.img
avbtool add_hashtree_footer --image z.img --partition_name zz --partition_size 4194304 --hash_algorithm sha256 --salt 0a0b
cp z.img z.full
expect_zero z.full >z.want
check "zero_hashtree" run_rc 0 avbtool zero_hashtree --image z.img
check "  the marker and zeros over tree and parity" cmp -s z.img z.want
check "verify_image of a zeroed tree fails" run_rc 1 avbtool verify_image --image z.img
check "  avbtool's message: the data is right, the tree not" grep -qx "hashtree of z.img contains invalid data" "$T/err"
check "verify_image --accept_zeroed_hashtree" run_rc 0 avbtool verify_image --image z.img --accept_zeroed_hashtree
check "  --json: that partition skipped" sh -c "'$FV' avb verify_image --image z.img --accept_zeroed_hashtree --json | jq -e '.result == \"ok\" and .partitions[0].result == \"skipped\"' >/dev/null"
check "  avbtool's line" grep -qx "zz: skipping verification since hashtree is zeroed and --accept_zeroed_hashtree was given" "$T/out"
printf 'X' | dd of=z.img bs=1 seek=5000 conv=notrunc 2>/dev/null
check "  damaged data still found (the data's root against the descriptor)" run_rc 1 avbtool verify_image --image z.img --accept_zeroed_hashtree
check "  avbtool's message" grep -q "hashtree of z.img does not match descriptor" "$T/err"
img2simg z.raw zs.img 2>/dev/null
avbtool add_hashtree_footer --image zs.img --partition_name zz --partition_size 4194304 --hash_algorithm sha256 --salt 0a0b
check "zero_hashtree of a sparse image" run_rc 0 avbtool zero_hashtree --image zs.img
simg2img zs.img zs.raw
check "  unsparsed: the raw image's bytes" cmp -s zs.raw z.want
check "  verify_image --accept_zeroed_hashtree" run_rc 0 avbtool verify_image --image zs.img --accept_zeroed_hashtree
check "an image without a hashtree refused" run_rc 1 avbtool zero_hashtree --image images/boot.img
check "  naming it" grep -q "boot.img: no hashtree descriptor" "$T/err"

# --- signing helpers: avbtool's protocol (ALGORITHM KEY [FILE]); the
# block signed raw gives the key's own signature, byte for byte; the key
# named may then be the public one
cat >helper <<'EOF'
#!/bin/sh
exec openssl rsautl -sign -raw -inkey "$SIGNING_KEY" 2>/dev/null
EOF
cat >helper-files <<'EOF'
#!/bin/sh
test -f "$3" && openssl rsautl -sign -raw -inkey "$SIGNING_KEY" -in "$3" -out "$3.sig" 2>/dev/null && mv "$3.sig" "$3"
EOF
cat >helper-wrong <<'EOF'
#!/bin/sh
cat >/dev/null; head -c 256 /dev/urandom
EOF
printf '#!/bin/sh\nexit 3\n' >helper-fails
chmod +x helper helper-files helper-wrong helper-fails
openssl rsa -in keys/rsa2048.pem -pubout -out pub2048.pem 2>/dev/null
export SIGNING_KEY=keys/rsa2048.pem
for h in "--signing_helper ./helper" "--signing_helper_with_files ./helper-files"; do
	mkdata avbgold-b 425984 >h.img
	# shellcheck disable=SC2086
	check "add_hashtree_footer $h" run_rc 0 avbtool add_hashtree_footer --image h.img --partition_name system --hash_algorithm sha256 --block_size 4096 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 --fec_num_roots 2 --key pub2048.pem --algorithm SHA256_RSA2048 --rollback_index 7 --prop com.example.avbgold.build:golden-b $h
	check "  avbtool's golden, byte for byte" cmp -s h.img images/system.img
done
check "make_vbmeta_image --signing_helper" run_rc 0 avbtool make_vbmeta_image --output hv.img --key pub2048.pem --algorithm SHA256_RSA2048 --signing_helper ./helper --rollback_index 3
avbtool make_vbmeta_image --output kv.img --key keys/rsa2048.pem --algorithm SHA256_RSA2048 --rollback_index 3
check "  the key's own signature" cmp -s hv.img kv.img
check "  no file left in TMPDIR" test -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'fastverity-sign.*' -newer hv.img 2>/dev/null)"
# the helper's file made under TMPDIR, which the command reads and hands
# the library (the library reads no environment)
cat >helper-where <<'EOF'
#!/bin/sh
dirname "$(dirname "$3")" >"$WHERE" && exec ./helper-files "$@"
EOF
chmod +x helper-where
mkdir tmpdir
check "--signing_helper_with_files under TMPDIR" run_rc 0 env TMPDIR="$T/tmpdir" WHERE="$T/where" "$FV" avb make_vbmeta_image --output wv.img --key pub2048.pem --algorithm SHA256_RSA2048 --signing_helper_with_files ./helper-where --rollback_index 3
check "  its file in a directory made there" test "$(cat where)" = "$T/tmpdir"
check "  the key's own signature" cmp -s wv.img kv.img
check "  nothing left there" test -z "$(ls -A tmpdir)"
mkdata avbgold-b 425984 >h.img
cp h.img h.orig
check "a helper that answers another signature refused" run_rc 1 avbtool add_hashtree_footer --image h.img --partition_name system --key pub2048.pem --algorithm SHA256_RSA2048 --signing_helper ./helper-wrong
check "  naming it: the key does not verify it" grep -q "helper-wrong answered a signature that the key pub2048.pem does not verify" "$T/err"
check "  the image left alone" cmp -s h.img h.orig
check "a helper that fails refused" run_rc 1 avbtool add_hash_footer --image h.img --partition_size 1048576 --key pub2048.pem --algorithm SHA256_RSA2048 --signing_helper ./helper-fails
check "  with its exit status" grep -q "helper-fails failed (exit status 3)" "$T/err"
check "  the image left alone" cmp -s h.img h.orig
check "a helper that is not there refused" run_rc 1 avbtool make_vbmeta_image --output none.img --key pub2048.pem --algorithm SHA256_RSA2048 --signing_helper ./no-such-helper
check "  and nothing written" test ! -e none.img
check "  run directly, never through a shell" run_rc 1 avbtool make_vbmeta_image --output none.img --key pub2048.pem --algorithm SHA256_RSA2048 --signing_helper './helper; touch shell-ran'
check "  (no shell ran it)" test ! -e shell-ran
unset SIGNING_KEY

# --- progress on long work: on a terminal by default, with --progress
# into a pipe too (plain lines on stderr); the output is unchanged
mkdata progress-p 1048576 >pg.img
check "add_hashtree_footer --progress" run_rc 0 avbtool add_hashtree_footer --image pg.img --partition_name pg --salt 01 --progress
check "  lines on stderr, the last at 100%" grep -q "^add_hashtree_footer, hash data and parity: 100%, 1.0 of 1.0 MiB" "$T/err"
check "  nothing on stdout" test ! -s "$T/out"
check "verify_image --progress" run_rc 0 avbtool verify_image --image pg.img --progress
check "  its lines on stderr" grep -q "^verify_image, verify data: 100%" "$T/err"
check "  avbtool's lines on stdout, as without it" grep -qx "pg: Successfully verified sha1 hashtree of pg.img for image of 1048576 bytes" "$T/out"

# --- descriptor flags and the libavb versions they need
mkdata flags-p 65536 >p.img
check "add_hash_footer --use_persistent_digest" run_rc 0 avbtool add_hash_footer --image p.img --partition_name pd --partition_size 1114112 --use_persistent_digest --do_not_use_ab
avbtool info_image --image p.img >p.info
check "  no digest, no salt" sh -c "grep -qx '      Digest:                ' p.info && grep -qx '      Salt:                  ' p.info"
check "  the flag of --do_not_use_ab" grep -qx "      Flags:                 1" p.info
check "  libavb 1.1" grep -q "^Minimum libavb version:   1.1$" p.info
check "  verify_image: nothing to compare, as avbtool" run_rc 0 avbtool verify_image --image p.img
check "--print_required_libavb_version with it" run_rc 0 avbtool add_hash_footer --image p.img --partition_size 1114112 --use_persistent_digest --print_required_libavb_version
check "  1.1" grep -qx 1.1 "$T/out"
mkdata flags-t 1048576 >t.img
check "add_hashtree_footer --use_persistent_digest --check_at_most_once" run_rc 0 avbtool add_hashtree_footer --image t.img --partition_name pt --use_persistent_digest --check_at_most_once --do_not_use_ab
avbtool info_image --image t.img >t.info
check "  no root digest, flags 3, libavb 1.1" sh -c "grep -qx '      Root Digest:           ' t.info && grep -qx '      Flags:                 3' t.info && grep -q '^Minimum libavb version:   1.1$' t.info"
check "  verify_image checks the tree against the data" run_rc 0 avbtool verify_image --image t.img
printf 'X' | dd of=t.img bs=1 seek=1052672 conv=notrunc 2>/dev/null
check "  a damaged tree found" run_rc 1 avbtool verify_image --image t.img
check "  the native verify says there is no root to check against" run_rc 1 "$FV" verify t.img
check "  naming the persistent digest" grep -q "no root digest (a persistent digest" "$T/err"
check "make_vbmeta_image --chain_partition_do_not_use_ab" run_rc 0 avbtool make_vbmeta_image --output c.img --chain_partition a:1:k2048.avbpubkey --chain_partition_do_not_use_ab b:2:k2048.avbpubkey
avbtool info_image --image c.img >c.info
check "  libavb 1.3" grep -q "^Minimum libavb version:   1.3$" c.info
check "  the chain with A/B first, flags 0 then 1" sh -c "grep -A4 'Chain Partition descriptor' c.info | sed -n 's/^ *Flags: *//p' | tr '\n' ' ' | grep -qx '0 1 '"
check "  --print_required_libavb_version says 1.3" run_rc 0 avbtool make_vbmeta_image --chain_partition_do_not_use_ab b:2:k2048.avbpubkey --print_required_libavb_version
check "  1.3" grep -qx 1.3 "$T/out"
printf 'metadata of the key' >pkmd.bin
check "make_vbmeta_image --public_key_metadata" run_rc 0 avbtool make_vbmeta_image --output m.img --key keys/rsa2048.pem --algorithm SHA256_RSA2048 --public_key_metadata pkmd.bin
check "  after the key, counted in the header" python3 -c "
import struct
b = open('m.img', 'rb').read()
auth, aux = struct.unpack('>QQ', b[12:28])
koff, ksize, moff, msize = struct.unpack('>QQQQ', b[64:96])
a = b[256 + auth:]
assert moff == koff + ksize and msize == 19, (moff, koff, ksize, msize)
assert a[moff:moff + msize] == b'metadata of the key'
"
check "  signed over it: verify_image holds" run_rc 0 avbtool verify_image --image m.img

# fastverity help avb: the avb subcommands, each with its own --help
check "help avb" run_rc 0 "$FV" help avb
check "  lists avbtool's commands" grep -q "^	print_partition_digests " "$T/out"
check "  and says how to get each one's options" grep -q "fastverity avb <subcommand> --help" "$T/out"

# what is left out is refused by name (docs/android.md says why)
check "avbtool 1.3's make_certificate refused by name" run_rc 1 avbtool make_certificate --output cert.bin
check "  in one line" grep -qx "fastverity: avb: avbtool's make_certificate is not implemented in fastverity" "$T/err"
check "  nothing written" test ! -e cert.bin
check "info_image --cert refused by name" run_rc 1 avbtool info_image --image images/vbmeta.img --cert
check "  in one line" grep -qx "fastverity: avb info_image: avbtool's --cert is not implemented in fastverity" "$T/err"


# --- issue 57, items 1-3: avbtool 1.3's newer options, its exit codes
# and argparse's abbreviations; the texts are written from avbtool's
# source (run() and its parsers) and Python 3.11's argparse
# --set_verification_disabled_flag: vbmeta flags bit 1
# (AVB_VBMETA_IMAGE_FLAGS_VERIFICATION_DISABLED = 2, _fixup_common_args)
check "make_vbmeta_image --set_verification_disabled_flag" run_rc 0 avbtool make_vbmeta_image --output vd.img --set_verification_disabled_flag
check "  flags 2" sh -c "'$FV' avb info_image --image vd.img | grep -qx 'Flags:                    2'"
check "  with --set_hashtree_disabled_flag: 3" run_rc 0 avbtool make_vbmeta_image --output vd3.img --set_verification_disabled_flag --set_hashtree_disabled_flag
check "  flags 3" sh -c "'$FV' avb info_image --image vd3.img | grep -qx 'Flags:                    3'"
check "  the same bytes as --flags 2" sh -c "'$FV' avb make_vbmeta_image --output vf2.img --flags 2 && cmp -s vd.img vf2.img"
mkdata avbgold-g 150000 >vdboot.img
check "add_hash_footer --set_verification_disabled_flag" run_rc 0 avbtool add_hash_footer --image vdboot.img --partition_name boot --partition_size 262144 --set_verification_disabled_flag
check "  flags 2 in the footer's vbmeta" sh -c "'$FV' avb info_image --image vdboot.img | grep -qx 'Flags:                    2'"
# info_image --output_pubkey: the key blob (info_image writes key_blob,
# the auxiliary block's public key bytes)
check "info_image --output_pubkey" run_rc 0 avbtool info_image --image images/vbmeta.img --output_pubkey vb.pubkey
check "  the signer's AVB public key blob" cmp -s vb.pubkey keys/rsa4096.avbpubkey
check "  the text as without it" sh -c "'$FV' avb info_image --image images/vbmeta.img | cmp -s - '$T/out'"
check "  its sha1 the text's" grep -qx "Public key (sha1):        $(sha1sum <vb.pubkey | cut -d' ' -f1)" "$T/out"
check "  with --output: both written" run_rc 0 avbtool info_image --image images/boot.img --output boot.info --output_pubkey boot.pubkey
check "  boot's key" cmp -s boot.pubkey keys/rsa2048.avbpubkey
check "  and its text" grep -q "^Algorithm: *SHA256_RSA2048$" boot.info
check "  an unsigned image: an empty file (argparse made it)" run_rc 0 avbtool info_image --image vd.img --output_pubkey none.pubkey
check "  empty" sh -c "test -f none.pubkey && ! test -s none.pubkey"
check "  over the image read: refused" run_rc 1 avbtool info_image --image vd.img --output_pubkey vd.img
check "  vd.img left as it was" cmp -s vd.img vf2.img
# -h and --help, argparse's
check "info_image -h: its help, exit 0" run_rc 0 avbtool info_image -h
check "  lists --output_pubkey" grep -q -- "--output_pubkey FILE" "$T/out"

# exit codes: argparse's usage errors 2, AvbError (and every other
# failure avbtool's run() lets through) 1; one line each
usage() { # DESCRIPTION LINE ARGS...: exit 2, stderr that one line
	local what=$1 line=$2
	shift 2
	check "$what: exit 2" run_rc 2 avbtool "$@"
	check "  one line: $line" sh -c "test \"\$(wc -l <'$T/err')\" = 1 && grep -qxF -- \"\$1\" '$T/err'" _ "$line"
}
usage "an unknown option" "fastverity: avb info_image: --frob: unknown option (fastverity avb info_image --help)" info_image --image images/vbmeta.img --frob
check "an unknown subcommand (argparse's invalid choice): exit 2" run_rc 2 avbtool info_imag --image images/vbmeta.img
check "  named first, then the subcommands listed" sh -c "head -1 '$T/err' | grep -qx \"fastverity: avb: unknown subcommand 'info_imag'\" && grep -q '^	info_image ' '$T/err'"
usage "info_image without --image (required=True)" "fastverity: avb info_image: --image is required" info_image
usage "extract_public_key without --output" "fastverity: avb extract_public_key: --key and --output are required" extract_public_key --key keys/rsa2048.pem
usage "append_vbmeta_image without --partition_size" "fastverity: avb append_vbmeta_image: --partition_size is required" append_vbmeta_image --image vdboot.img --vbmeta_image vd.img
usage "append_vbmeta_image without --vbmeta_image (run() prints its usage)" "fastverity: avb append_vbmeta_image: --vbmeta_image is required" append_vbmeta_image --image vdboot.img --partition_size 262144
usage "--rollback_index not a number (type=parse_number)" "fastverity: --rollback_index: 'x' is not a number" make_vbmeta_image --output rb.img --rollback_index x
usage "info_image --image of no file (FileType('rb'))" "fastverity: avb info_image: argument --image: can't open 'nosuch.img': No such file or directory" info_image --image nosuch.img
usage "erase_footer --image of no file (FileType('rb+'))" "fastverity: avb erase_footer: argument --image: can't open 'nosuch.img': No such file or directory" erase_footer --image nosuch.img
usage "append_vbmeta_image --vbmeta_image of no file" "fastverity: avb append_vbmeta_image: argument --vbmeta_image: can't open 'nosuch.img': No such file or directory" append_vbmeta_image --image vdboot.img --partition_size 262144 --vbmeta_image nosuch.img
usage "--include_descriptors_from_image of no file" "fastverity: avb make_vbmeta_image: argument --include_descriptors_from_image: can't open 'nosuch.img': No such file or directory" make_vbmeta_image --output inc.img --include_descriptors_from_image nosuch.img
usage "--output in no directory (FileType('wb'))" "fastverity: avb make_vbmeta_image: argument --output: can't open 'nodir/v.img': No such file or directory" make_vbmeta_image --output nodir/v.img
check "  nothing written" test ! -e inc.img -a ! -e rb.img
check "add_hash_footer --image of no file (a plain string: AvbError): exit 1" run_rc 1 avbtool add_hash_footer --image nosuch.img --partition_size 262144
check "resize_image without --partition_size (not required; run() fails): exit 1" run_rc 1 avbtool resize_image --image vdboot.img
check "make_vbmeta_image without --output (AvbError 'No output file given'): exit 1" run_rc 1 avbtool make_vbmeta_image
check "  in one line" grep -qx "fastverity: No output file given" "$T/err"

# argparse's abbreviations (allow_abbrev): a unique prefix, with its
# value after it or after =; an exact name wins; ambiguous refused with
# argparse's words, the matches in the order avbtool's parser adds them
avbtool make_vbmeta_image --output full.img --algorithm SHA256_RSA2048 --key keys/rsa2048.pem --rollback_index_location 3 --prop a:b --prop_from_file c:vd.img --internal_release_string fixed
check "unique prefixes: make_vbmeta_image" run_rc 0 avbtool make_vbmeta_image --out short.img --alg=SHA256_RSA2048 --key keys/rsa2048.pem --rollback_index_l 3 --prop a:b --prop_f=c:vd.img --int fixed
check "  the same bytes as the names given whole" cmp -s short.img full.img
mkdata avbgold-g 150000 >pboot.img
check "add_hash_footer --partition_n, --partition_s=, --hash_a, --sa" run_rc 0 avbtool add_hash_footer --image pboot.img --partition_n boot --partition_s=262144 --hash_a sha256 --sa c37c78eccdd984ae6ce951aeac2a766c93d0cbb0eb06c45aa41c69ad376e12ef --key keys/rsa2048.pem --alg SHA256_RSA2048
check "  avbtool's golden boot.img" cmp -s pboot.img images/boot.img
check "a prefix of an option refused by name: refused by its name" run_rc 1 avbtool add_hashtree_footer --image pboot.img --no_hash
check "  named whole" grep -qx "fastverity: avb add_hashtree_footer: avbtool's --no_hashtree is not implemented in fastverity" "$T/err"
check "--he: --help" run_rc 0 avbtool info_image --he
check "  info_image's options" grep -q "^Usage: fastverity avb info_image" "$T/out"
check "a value that looks like a prefix is a value, never written out" run_rc 0 avbtool make_vbmeta_image --output kc.img --kernel_cmdline --pa
check "  the command line as given (argparse would refuse it)" sh -c "'$FV' avb info_image --image kc.img | grep -qx \"      Kernel Cmdline:        '--pa'\""
usage "--pa: ambiguous" "fastverity: avb add_hash_footer: ambiguous option: --pa could match --partition_size, --partition_name" add_hash_footer --image pboot.img --pa 262144
usage "--pa=N: ambiguous, said with its value" "fastverity: avb add_hash_footer: ambiguous option: --pa=262144 could match --partition_size, --partition_name" add_hash_footer --image pboot.img --pa=262144
usage "--h: --help among the matches, first" "fastverity: avb add_hash_footer: ambiguous option: --h could match --help, --hash_algorithm" add_hash_footer --image pboot.img --h
usage "--ou: info_image's two outputs" "fastverity: avb info_image: ambiguous option: --ou could match --output, --output_pubkey" info_image --image vd.img --ou x
usage "--generate: an option and an alias avbtool refuses" "fastverity: avb add_hashtree_footer: ambiguous option: --generate could match --generate_fec, --generate_dm_verity_cmdline_from_hashtree" add_hashtree_footer --image pboot.img --generate
usage "--s: the footer's own before the common args" "fastverity: avb add_hashtree_footer: ambiguous option: --s could match --salt, --setup_as_rootfs_from_kernel, --signing_helper, --signing_helper_with_files, --setup_rootfs_from_kernel, --set_hashtree_disabled_flag, --set_verification_disabled_flag" add_hashtree_footer --image pboot.img --s x
check "  pboot.img untouched" cmp -s pboot.img images/boot.img
check "fastverity's own commands take whole names only" run_rc 1 "$FV" dump images/vbmeta.img --jso
check "  refused as unknown" grep -q "^fastverity: --jso: unknown option" "$T/err"

finish
