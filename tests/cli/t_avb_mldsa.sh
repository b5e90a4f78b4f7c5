# fastverity avb with ML-DSA-65/87 (Android 17, AVB algorithm types 7 and
# 8; docs/android.md, "ML-DSA"): the shared images of tests/avb/mldsa
# shown and verified, and made again byte for byte with --deterministic;
# every writer and reader signing and checking ML-DSA as it does RSA
# (footers, sparse images, append_vbmeta_image, chains both ways,
# expected chains, digests, native verify and repair, super.img sets);
# keys in every file form, the wrong scheme or level refused by name;
# signing helpers given the message; generate_key and
# extract_public_key_digest; malformed vbmetas refused; and what we sign
# checked by an independent implementation (avb_noble.mjs over
# @noble/post-quantum; SKIP, saying why, when npm cannot install it).
. "$(dirname "$0")/lib.sh"

M=$TOP/tests/avb/mldsa
K=$TOP/tests/avb/keys
TOOL=$TOP/build/mldsa-tool
cd "$T" || exit 1
avbtool() { "$FV" avb "$@"; }
sha256() { sha256sum "$1" | cut -d' ' -f1; }
# PEM to DER (base64 between the armour lines)
der_of() { sed '/^-----/d' "$1" | base64 -d >"$2"; }

# ---- the shared images: shown, verified, made again ----
for L in 65 87; do
	img=$M/vbmeta_mldsa$L.img
	check "info_image of vbmeta_mldsa$L.img" run_rc 0 avbtool info_image --image "$img"
	check "  Algorithm: MLDSA$L" grep -qx "Algorithm:                MLDSA$L" "$T/out"
	auth=$([ $L = 65 ] && echo 3328 || echo 4672)
	sha1=$([ $L = 65 ] && echo 8c9fdad9320bcf548d6367c20fdc71c14dd5b227 || echo a30172810d75ae08679102fcd36905003db8d5e8)
	check "  Authentication Block: $auth bytes" grep -qx "Authentication Block:     $auth bytes" "$T/out"
	check "  Public key (sha1) of AOSP's key" grep -qx "Public key (sha1):        $sha1" "$T/out"
	check "  the property descriptor" grep -q "Prop: com.example.mldsa_test -> 'ML-DSA-$L'" "$T/out"
	check "info_image --json: the algorithm" sh -c "'$FV' avb info_image --image '$img' --json | jq -e '.algorithm == \"MLDSA$L\"' >/dev/null"
	check "verify_image (embedded key)" run_rc 0 avbtool verify_image --image "$img"
	check "  avbtool's words" grep -qx "vbmeta: Successfully verified MLDSA$L vbmeta struct in $img" "$T/out"
	for k in testkey_mldsa$L.pem testkey_mldsa$L.pub.pem testkey_mldsa$L.avbpubkey; do
		check "verify_image --key $k" run_rc 0 avbtool verify_image --image "$img" --key "$M/$k"
	done
	O=$([ $L = 65 ] && echo 87 || echo 65)
	check "verify_image --key of the other level: refused" run_rc 1 avbtool verify_image --image "$img" --key "$M/testkey_mldsa$O.pem"
	check "  avbtool's words" grep -q "Embedded public key does not match given key." "$T/err"
	check "verify_image --key of an RSA key: refused" run_rc 1 avbtool verify_image --image "$img" --key "$K/rsa4096.pem"
	check "fastverity verify of the vbmeta image (a set) with its key" run_rc 0 "$FV" verify "$img" --key "$M/testkey_mldsa$L.pem"
	check "  another key: refused" run_rc 2 "$FV" verify "$img" --key "$K/rsa2048.pem"
	# deterministic: AOSP's key and the same descriptor give the same bytes
	check "make_vbmeta_image --deterministic" run_rc 0 avbtool make_vbmeta_image --output det$L.img \
		--algorithm MLDSA$L --key "$M/testkey_mldsa$L.pem" --prop com.example.mldsa_test:ML-DSA-$L --deterministic
	check "  the shared image, byte for byte" cmp -s det$L.img "$img"
	avbtool make_vbmeta_image --output h1_$L.img --algorithm MLDSA$L --key "$M/testkey_mldsa$L.pem" --prop com.example.mldsa_test:ML-DSA-$L
	avbtool make_vbmeta_image --output h2_$L.img --algorithm MLDSA$L --key "$M/testkey_mldsa$L.pem" --prop com.example.mldsa_test:ML-DSA-$L
	check "hedged by default: two runs differ, from the deterministic one too" \
		sh -c "! cmp -s h1_$L.img h2_$L.img && ! cmp -s h1_$L.img '$img'"
	check "  only in the signature" cmp -s <(head -c 256 h1_$L.img; tail -c +$((256 + auth + 1)) h1_$L.img) \
		<(head -c 256 "$img"; tail -c +$((256 + auth + 1)) "$img")
	check "  and verifies" run_rc 0 avbtool verify_image --image h1_$L.img --key "$M/testkey_mldsa$L.avbpubkey"
	# keys: every form gives AOSP's blob; the digest is the README's
	der_of "$M/testkey_mldsa$L.pem" k$L.der
	der_of "$M/testkey_mldsa$L.pub.pem" p$L.der
	for k in "$M/testkey_mldsa$L.pem" "$M/testkey_mldsa$L.pub.pem" k$L.der p$L.der "$M/testkey_mldsa$L.avbpubkey"; do
		check "extract_public_key --key $(basename "$k")" run_rc 0 avbtool extract_public_key --key "$k" --output x.avbpubkey
		check "  AOSP's blob, byte for byte" cmp -s x.avbpubkey "$M/testkey_mldsa$L.avbpubkey"
	done
	want=$([ $L = 65 ] && echo 0e84a0f0725841b15919a9db89705791c13d39be002516d2481dec3ed3f2b6ce || echo 2ec52b1617dfd35327a766571a410c46a5d3299d2d0f858300a49bd614a8df21)
	check "extract_public_key_digest" run_rc 0 avbtool extract_public_key_digest --key "$M/testkey_mldsa$L.pem" --output d$L.txt
	check "  the blob's SHA-256 in hex, no newline" test "$(cat d$L.txt)" = "$want" -a "$(wc -c <d$L.txt)" = 64
	check "a PKCS#8 DER key signs" run_rc 0 avbtool make_vbmeta_image --output der$L.img --algorithm MLDSA$L --key k$L.der \
		--prop com.example.mldsa_test:ML-DSA-$L --deterministic
	check "  the same bytes" cmp -s der$L.img "$img"
done
check "extract_public_key_digest of an RSA key (avbtool 1.3.0's)" run_rc 0 avbtool extract_public_key_digest --key "$K/rsa4096.pem" --output r.txt
check "  the SHA-256 of its blob" test "$(cat r.txt)" = "$(sha256 "$K/rsa4096.avbpubkey")"
check "extract_public_key_digest needs --output: exit 2 (argparse's required)" run_rc 2 avbtool extract_public_key_digest --key "$K/rsa4096.pem"

# ---- the other scheme, level or a public key: refused by name ----
bad() { # WHAT MESSAGE ARGS...
	local what=$1 says=$2
	shift 2
	check "$what: refused" run_rc 1 avbtool make_vbmeta_image --output refused.img "$@"
	check "  says: $says" grep -q -- "$says" "$T/err"
	check "  nothing written" test ! -e refused.img
}
bad "an RSA key for MLDSA65" "rsa2048.pem: an RSA key, where ML-DSA-65 is asked" --algorithm MLDSA65 --key "$K/rsa2048.pem"
bad "an ML-DSA key for SHA256_RSA2048" "testkey_mldsa65.pem: an ML-DSA-65 key, where SHA256_RSA2048 is asked" --algorithm SHA256_RSA2048 --key "$M/testkey_mldsa65.pem"
bad "an ML-DSA-65 key for MLDSA87" "an ML-DSA-65 key, where ML-DSA-87 is asked" --algorithm MLDSA87 --key "$M/testkey_mldsa65.pem"
bad "a public key to sign with" "a public ML-DSA-65 key, where the private key is needed to sign" --algorithm MLDSA65 --key "$M/testkey_mldsa65.pub.pem"
bad "an AVB blob to sign with" "where the private key is needed to sign" --algorithm MLDSA87 --key "$M/testkey_mldsa87.avbpubkey"
bad "an ML-DSA key in a PKCS#11 token" "an ML-DSA key in a PKCS#11 token cannot be used here" --algorithm MLDSA65 --key "pkcs11:token=t;object=k"
bad "MLDSA65 without a key" "Key is required for algorithm MLDSA65" --algorithm MLDSA65
bad "an algorithm avbtool lacks" "MLDSA44 is not supported (NONE, .*MLDSA65, MLDSA87)" --algorithm MLDSA44 --key "$M/testkey_mldsa65.pem"
check "the key's seed and expanded key disagree: refused" sh -c "python3 - '$M/testkey_mldsa65.pem' >mixed.pem <<'PY'
import base64, sys
lines = open(sys.argv[1]).read().split('\n')
der = bytearray(base64.b64decode(''.join(l for l in lines if l and not l.startswith('-----'))))
der[40] ^= 1  # a byte of the seed
b = base64.b64encode(bytes(der)).decode()
print('-----BEGIN PRIVATE KEY-----'); [print(b[i:i+64]) for i in range(0, len(b), 64)]; print('-----END PRIVATE KEY-----')
PY"
bad "  when signing" "the seed and the expanded key do not agree" --algorithm MLDSA65 --key mixed.pem

# ---- generate_key (fastverity's) ----
check "generate_key MLDSA87" run_rc 0 avbtool generate_key --algorithm MLDSA87 --output new87.pem
check "  PKCS#8 PEM, mode 0600" test "$(head -1 new87.pem)" = "-----BEGIN PRIVATE KEY-----" -a "$(stat -c %a new87.pem)" = 600
check "  it signs" run_rc 0 avbtool make_vbmeta_image --output new87.img --algorithm MLDSA87 --key new87.pem
check "  and its public key verifies" sh -c "'$FV' avb extract_public_key --key new87.pem --output new87.avbpubkey && '$FV' avb verify_image --image new87.img --key new87.avbpubkey >/dev/null"
check "  of 2596 bytes" test "$(wc -c <new87.avbpubkey)" = 2596
check "generate_key over a file: refused" run_rc 1 avbtool generate_key --algorithm MLDSA65 --output new87.pem
check "  the file left alone" run_rc 0 avbtool make_vbmeta_image --output new87b.img --algorithm MLDSA87 --key new87.pem
check "generate_key of an RSA algorithm: openssl's" run_rc 1 avbtool generate_key --algorithm SHA256_RSA4096 --output rsa.pem
check "  saying how" grep -q "openssl genpkey -algorithm RSA" "$T/err"

# ---- footers, sparse images, append_vbmeta_image ----
gen 11 $((3 << 20)) >system.img
gen 12 300000 >boot.img
gen 13 $((1 << 20)) >vendor.img
cp system.img system.orig
check "add_hashtree_footer MLDSA65" run_rc 0 avbtool add_hashtree_footer --image system.img --partition_name system \
	--hash_algorithm sha256 --algorithm MLDSA65 --key "$M/testkey_mldsa65.pem"
check "  verify_image" run_rc 0 avbtool verify_image --image system.img --key "$M/testkey_mldsa65.pub.pem"
check "  footer and vbmeta verified" grep -qx "vbmeta: Successfully verified footer and MLDSA65 vbmeta struct in system.img" "$T/out"
check "  the tree verified" grep -q "^system: Successfully verified sha256 hashtree of system.img" "$T/out"
check "add_hash_footer MLDSA87" run_rc 0 avbtool add_hash_footer --image boot.img --partition_name boot \
	--partition_size $((1 << 20)) --algorithm MLDSA87 --key "$M/testkey_mldsa87.pem" --rollback_index 4
check "  verify_image" run_rc 0 avbtool verify_image --image boot.img --key "$M/testkey_mldsa87.avbpubkey"
check "  the hash verified" grep -q "^boot: Successfully verified sha256 hash of boot.img" "$T/out"
check "add_hashtree_footer again, same key: the tree kept, signed anew" run_rc 0 avbtool add_hashtree_footer --image system.img \
	--partition_name system --hash_algorithm sha256 --algorithm MLDSA65 --key "$M/testkey_mldsa65.pem"
check "  verifies" run_rc 0 avbtool verify_image --image system.img --key "$M/testkey_mldsa65.pem"
check "  the data unchanged" cmp -s <(head -c $((3 << 20)) system.img) system.orig
# run again with the same options over unchanged data: the image keeps
# its bytes, the old (hedged) signature with them, as an RSA image does
# (a new hedged signature written in place over the old one could be
# left half of each by an interruption)
cp system.img system.before
check "add_hashtree_footer again, hedged: the image keeps its bytes" sh -c "'$FV' avb add_hashtree_footer --image system.img \
	--partition_name system --hash_algorithm sha256 --algorithm MLDSA65 --key '$M/testkey_mldsa65.pem' && cmp -s system.img system.before"
cp boot.img boot.before
check "add_hash_footer again, hedged: the image keeps its bytes" sh -c "'$FV' avb add_hash_footer --image boot.img --partition_name boot \
	--partition_size $((1 << 20)) --algorithm MLDSA87 --key '$M/testkey_mldsa87.pem' --rollback_index 4 && cmp -s boot.img boot.before"
# --deterministic asks for the deterministic signature's bytes: written
# (beside and renamed, as they differ from the hedged one in place)
for f in system boot; do
	case $f in
	system) args="add_hashtree_footer --partition_name system --hash_algorithm sha256 --algorithm MLDSA65 --key $M/testkey_mldsa65.pem" ;;
	boot) args="add_hash_footer --partition_name boot --partition_size $((1 << 20)) --algorithm MLDSA87 --key $M/testkey_mldsa87.pem --rollback_index 4" ;;
	esac
	cp $f.img $f.det
	# shellcheck disable=SC2086
	check "$f: --deterministic over the hedged image" run_rc 0 avbtool $args --image $f.det --deterministic
	check "  not the hedged bytes" sh -c "! cmp -s $f.det $f.before"
	cp $f.det $f.det2
	# shellcheck disable=SC2086
	avbtool $args --image $f.det2 --deterministic
	check "  again: the same bytes" cmp -s $f.det $f.det2
	check "  verifies" run_rc 0 avbtool verify_image --image $f.det
done
# a sparse image, written sparse as avbtool writes one
gen 14 $((2 << 20)) >sp.raw
img2simg sp.raw sp.img 2>/dev/null
check "add_hashtree_footer MLDSA87 of a sparse image" run_rc 0 avbtool add_hashtree_footer --image sp.img --partition_name product \
	--partition_size $((4 << 20)) --hash_algorithm sha256 --algorithm MLDSA87 --key "$M/testkey_mldsa87.pem"
check "  still sparse" sh -c "'$FV' avb info_image --image sp.img | grep -q '(Sparse)'"
check "  verify_image of the sparse image" run_rc 0 avbtool verify_image --image sp.img --key "$M/testkey_mldsa87.pem"
simg2img sp.img sp.unsparsed 2>/dev/null
check "  unsparsed, it verifies as well" run_rc 0 avbtool verify_image --image sp.unsparsed --key "$M/testkey_mldsa87.pem"
gen 15 200000 >app.img
check "append_vbmeta_image of an ML-DSA vbmeta image" run_rc 0 avbtool append_vbmeta_image --image app.img \
	--vbmeta_image "$M/vbmeta_mldsa65.img" --partition_size $((1 << 20))
check "  the footer's vbmeta verifies" run_rc 0 avbtool verify_image --image app.img --key "$M/testkey_mldsa65.avbpubkey"

# ---- chains: an ML-DSA key pinned under an RSA vbmeta, and the reverse ----
avbtool add_hashtree_footer --image vendor.img --partition_name vendor --hash_algorithm sha256 \
	--algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" || fail "add_hashtree_footer vendor"
avbtool extract_public_key --key "$M/testkey_mldsa87.pem" --output k87.avbpubkey
check "RSA vbmeta chaining an ML-DSA-87 boot" run_rc 0 avbtool make_vbmeta_image --output rsatop.img --algorithm SHA256_RSA4096 \
	--key "$K/rsa4096.pem" --include_descriptors_from_image system.img --chain_partition boot:1:k87.avbpubkey
check "  --follow_chain_partitions" run_rc 0 avbtool verify_image --image rsatop.img --key "$K/rsa4096.pem" --follow_chain_partitions
check "  boot checked with the key pinned" grep -q "^Verifying image boot.img using the key rsatop.img pins for boot (sha1 a30172810d75ae08679102fcd36905003db8d5e8)" "$T/out"
check "  boot's ML-DSA vbmeta verified" grep -qx "vbmeta: Successfully verified footer and MLDSA87 vbmeta struct in boot.img" "$T/out"
check "  --expected_chain_partition with the ML-DSA blob" run_rc 0 avbtool verify_image --image rsatop.img --key "$K/rsa4096.pem" \
	--expected_chain_partition boot:1:k87.avbpubkey
check "  --expected_chain_partition with another blob: refused" run_rc 1 avbtool verify_image --image rsatop.img --key "$K/rsa4096.pem" \
	--expected_chain_partition boot:1:"$M/testkey_mldsa65.avbpubkey"
check "  avbtool's words" grep -q "Expected public key blob does not match public key blob" "$T/err"
check "  fastverity verify of the set" run_rc 0 "$FV" verify rsatop.img --key "$K/rsa4096.pem"
check "  boot: signed by the key rsatop.img pins" grep -q "^boot: hash of boot.img, vbmeta boot.img signed by the key rsatop.img pins: verified." "$T/out"
cp boot.img boot.good
avbtool make_vbmeta_image --output other.img --algorithm MLDSA87 --key new87.pem
avbtool append_vbmeta_image --image boot.img --vbmeta_image other.img --partition_size $((1 << 20)) || fail "append other"
check "  boot signed by another ML-DSA key: the set refused" run_rc 2 "$FV" verify rsatop.img --key "$K/rsa4096.pem"
check "  naming the pinned key" grep -q "signed by another key (sha1 [0-9a-f]*) than the one rsatop.img pins for boot (sha1 a30172810d75ae08679102fcd36905003db8d5e8)" "$T/out" "$T/err"
cp boot.good boot.img
check "ML-DSA-65 vbmeta chaining an RSA vendor" run_rc 0 avbtool make_vbmeta_image --output mltop.img --algorithm MLDSA65 \
	--key "$M/testkey_mldsa65.pem" --include_descriptors_from_image boot.img --chain_partition vendor:2:"$K/rsa2048.avbpubkey"
check "  --follow_chain_partitions" run_rc 0 avbtool verify_image --image mltop.img --key "$M/testkey_mldsa65.avbpubkey" --follow_chain_partitions
check "  vendor's RSA vbmeta verified" grep -qx "vbmeta: Successfully verified footer and SHA256_RSA2048 vbmeta struct in vendor.img" "$T/out"
check "  fastverity verify of the set" run_rc 0 "$FV" verify mltop.img --key "$M/testkey_mldsa65.pem"
check "calculate_vbmeta_digest: the SHA-256 of the vbmetas, chains followed" run_rc 0 avbtool calculate_vbmeta_digest --image mltop.img
want=$(python3 - <<'PY'
import hashlib, struct
h = hashlib.sha256()
for f, foot in (('mltop.img', False), ('vendor.img', True)):
    b = open(f, 'rb').read()
    if foot:
        off, size = struct.unpack('>QQ', b[-64 + 20:-64 + 36])
        b = b[off:off + size]
    else:
        auth, aux = struct.unpack('>QQ', b[12:28])
        b = b[:256 + auth + aux]
    h.update(b)
print(h.hexdigest())
PY
)
check "  the digest of both blobs" test "$(cat "$T/out")" = "$want"
check "print_partition_digests" run_rc 0 avbtool print_partition_digests --image mltop.img
check "  boot's and vendor's" sh -c "grep -q '^boot: [0-9a-f]\{64\}$' '$T/out' && grep -q '^vendor: [0-9a-f]\{64\}$' '$T/out'"

# ---- native verify, repair, dump ----
cp system.img s2.img
flip s2.img 5000
check "verify of an ML-DSA image with a changed block: found" run_rc 2 "$FV" verify s2.img --key "$M/testkey_mldsa65.pem"
check "repair with its key" run_rc 0 "$FV" repair s2.img --key "$M/testkey_mldsa65.pem"
check "  the image as it was" cmp -s s2.img system.img
check "verify with another key: refused" run_rc 2 "$FV" verify system.img --key "$M/testkey_mldsa87.pem"
check "dump names the algorithm and key" sh -c "'$FV' dump system.img | grep -q 'MLDSA65, key sha1 8c9fdad9320bcf548d6367c20fdc71c14dd5b227'"
check "repair without a key: refused (the signer unchecked)" run_rc 1 "$FV" repair s2.img
check "verify --json: the signature's algorithm and trust" sh -c "'$FV' verify --json system.img --key '$M/testkey_mldsa65.avbpubkey' | jq -e '.signature.algorithm == \"MLDSA65\" and .signature.trust == \"checked\"' >/dev/null"
check "verify of the sparse ML-DSA-87 image, natively" run_rc 0 "$FV" verify sp.img --key "$M/testkey_mldsa87.pub.pem"
check "verify_image --json of an ML-DSA set" sh -c "'$FV' avb verify_image --image mltop.img --key '$M/testkey_mldsa65.pem' --follow_chain_partitions --json | jq -e '.result == \"ok\" and ([.partitions[].trust] | unique) == [\"checked\"]' >/dev/null"
# the writers that move a footer or zero a tree keep the signature
cp system.img rs.img
check "resize_image of an ML-DSA image" run_rc 0 avbtool resize_image --image rs.img --partition_size $((8 << 20))
check "  verifies" run_rc 0 avbtool verify_image --image rs.img --key "$M/testkey_mldsa65.pem"
check "zero_hashtree" run_rc 0 avbtool zero_hashtree --image rs.img
check "  verify_image refuses the zeroed tree" run_rc 1 avbtool verify_image --image rs.img --key "$M/testkey_mldsa65.pem"
check "  and takes it with --accept_zeroed_hashtree" run_rc 0 avbtool verify_image --image rs.img --key "$M/testkey_mldsa65.pem" --accept_zeroed_hashtree
check "extract_vbmeta_image: the blob" run_rc 0 avbtool extract_vbmeta_image --image system.img --output ex.img
check "  verifies alone" run_rc 0 avbtool verify_image --image ex.img --key "$M/testkey_mldsa65.pem"
check "erase_footer --keep_hashtree" run_rc 0 avbtool erase_footer --image rs.img --keep_hashtree
check "  no footer left" sh -c "! '$FV' avb info_image --image rs.img >/dev/null 2>&1"

# ---- a super.img set of ML-DSA-signed partitions ----
cat >s.json <<'EOF'
{"device_size": 16777216, "slots": 1,
 "partitions": [{"name": "system", "image": "system.img"}, {"name": "product", "image": "sp.unsparsed"}]}
EOF
if python3 "$TOP/tests/cli/mksuper.py" s.json super.img; then
	check "super.img: its ML-DSA-65 partition with its key" run_rc 0 "$FV" verify super.img --partition=system --key "$M/testkey_mldsa65.pem"
	check "super.img: each partition's vbmeta checked" run_rc 0 "$FV" verify super.img
	check "  both verified" sh -c "grep -q '^system: .*verified' '$T/out' && grep -q '^product: .*verified' '$T/out'"
	check "super.img: another key refused" run_rc 2 "$FV" verify super.img --partition=product --key "$M/testkey_mldsa65.pem"
else
	fail "mksuper"
fi

# ---- signing helpers: the message itself, the raw signature back ----
# (build/mldsa-tool signs as the key's holder would: the seed is bytes
# 30-61 of AOSP's PKCS#8 file)
cat >helper <<'EOF'
#!/usr/bin/python3
import base64, os, subprocess, sys
alg, key = sys.argv[1], sys.argv[2]
data = open(sys.argv[3], 'rb').read() if len(sys.argv) > 3 else sys.stdin.buffer.read()
open(os.environ['SAVE'], 'wb').write(data)
open(os.environ['SAVE'] + '.args', 'w').write(alg + ' ' + os.path.basename(key) + ' ' + str(len(sys.argv)) + '\n')
pem = open(os.environ['PRIV']).read().split('\n')
seed = base64.b64decode(''.join(l for l in pem if l and not l.startswith('-----')))[30:62].hex()
out = subprocess.run([os.environ['TOOL']], input=f'sign {alg[5:]} {seed} {data.hex()} det\n'.encode(),
                     capture_output=True, check=True).stdout
sig = bytes.fromhex(out.decode().strip())
if len(sys.argv) > 3:
    open(sys.argv[3], 'wb').write(sig)
else:
    sys.stdout.buffer.write(sig)
EOF
chmod +x helper
for L in 65 87; do
	check "make_vbmeta_image MLDSA$L --signing_helper, a public key named" run_rc 0 env SAVE="$T/in$L" PRIV="$M/testkey_mldsa$L.pem" TOOL="$TOOL" \
		"$FV" avb make_vbmeta_image --output hv$L.img --algorithm MLDSA$L --key "$M/testkey_mldsa$L.pub.pem" \
		--prop com.example.mldsa_test:ML-DSA-$L --signing_helper ./helper
	check "  the helper got MLDSA$L and the key's path" test "$(cat "in$L.args")" = "MLDSA$L testkey_mldsa$L.pub.pem 3"
	check "  and the message: header and auxiliary block" cmp -s "in$L" "$M/vbmeta_mldsa$L.signed_data.bin"
	check "  its signature in the image, byte for byte" cmp -s hv$L.img "$M/vbmeta_mldsa$L.img"
	check "--signing_helper_with_files" run_rc 0 env SAVE="$T/inf$L" PRIV="$M/testkey_mldsa$L.pem" TOOL="$TOOL" \
		"$FV" avb make_vbmeta_image --output hf$L.img --algorithm MLDSA$L --key "$M/testkey_mldsa$L.avbpubkey" \
		--prop com.example.mldsa_test:ML-DSA-$L --signing_helper_with_files ./helper
	check "  the message in its file, the signature back in it" sh -c "cmp -s inf$L '$M/vbmeta_mldsa$L.signed_data.bin' && cmp -s hf$L.img '$M/vbmeta_mldsa$L.img'"
done
avbtool generate_key --algorithm MLDSA65 --output new65.pem
avbtool extract_public_key --key new65.pem --output new65.avbpubkey
cp app.img app.orig
check "a helper signing with another key: refused" run_rc 1 env SAVE="$T/inx" PRIV="$M/testkey_mldsa65.pem" TOOL="$TOOL" \
	"$FV" avb add_hash_footer --image app.img --partition_size $((1 << 20)) --algorithm MLDSA65 --key new65.avbpubkey --signing_helper ./helper
check "  the key does not verify it" grep -q "helper answered a signature that the key new65.avbpubkey does not verify" "$T/err"
check "  the image left alone" cmp -s app.img app.orig
printf '#!/bin/sh\ncat >/dev/null; head -c 3308 /dev/zero\n' >short
chmod +x short
check "a helper answering 3308 bytes: refused" run_rc 1 "$FV" avb make_vbmeta_image --output none.img --algorithm MLDSA65 --key new65.pem --signing_helper ./short
check "  naming the sizes" grep -q "answered 3308 bytes, not the 3309 bytes of a MLDSA65 signature" "$T/err"
# a large vbmeta: the whole message reaches the helper
head -c 200000 /dev/zero | tr '\0' x >big.prop
printf '#!/bin/sh\nwc -c >"$COUNT"; head -c 3309 /dev/zero\n' >count
chmod +x count
check "a 200 KB message reaches the helper whole" run_rc 1 env COUNT="$T/count.out" "$FV" avb make_vbmeta_image --output none.img \
	--algorithm MLDSA65 --key new65.pem --prop_from_file big:big.prop --signing_helper ./count
check "  every byte of it" test "$(cat count.out)" -gt 200256

# ---- RSA keys in a PKCS#11 token (SoftHSM 2): the PEM key's bytes ----
export SOFTHSM2_CONF="$T/softhsm2.conf"
mkdir -p "$T/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$T/tokens" >"$SOFTHSM2_CONF"
openssl pkcs8 -topk8 -nocrypt -in "$K/rsa2048.pem" -out k8.pem 2>/dev/null
if command -v softhsm2-util >/dev/null && softhsm2-util --init-token --free --label avbt --pin 1234 --so-pin 5678 >/dev/null 2>&1 &&
	softhsm2-util --import k8.pem --token avbt --label signkey --id 01 --pin 1234 >/dev/null 2>&1; then
	URI="pkcs11:token=avbt;object=signkey;type=private"
	check "make_vbmeta_image SHA256_RSA2048 with a token's key" run_rc 0 avbtool make_vbmeta_image --output tok.img \
		--algorithm SHA256_RSA2048 --key "$URI;pin-value=1234" --rollback_index 3
	avbtool make_vbmeta_image --output pem.img --algorithm SHA256_RSA2048 --key "$K/rsa2048.pem" --rollback_index 3
	check "  the PEM key's bytes" cmp -s tok.img pem.img
	# (a refused login leaves libp11's engine state allocated, which the
	# leak check cannot name: tests/asan/lsan.supp; this run skips it)
	check "  no PIN: one line saying where it goes" run_rc 1 env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		"$FV" avb make_vbmeta_image --output tok2.img --algorithm SHA256_RSA2048 --key "$URI"
	check "  pin-value named" grep -q "give it in the URI: ...;pin-value=PIN" "$T/err"
else
	skip "an RSA key in a SoftHSM token (softhsm2 cannot be set up here)"
fi

# ---- malformed ML-DSA vbmetas: one line, never a crash ----
patch() { # FILE OFFSET BYTES VALUE
	python3 -c "import sys; f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2])); f.write(int(sys.argv[4]).to_bytes(int(sys.argv[3]), 'big'))" "$@"
}
malformed() { # WHAT OFFSET BYTES VALUE MESSAGE
	cp "$M/vbmeta_mldsa65.img" m.img
	patch m.img "$2" "$3" "$4"
	check "$1: refused" run_rc 1 avbtool verify_image --image m.img
	check "  one line: $5" sh -c "grep -q -- '$5' '$T/err' && test \$(wc -l <'$T/err') = 1"
}
malformed "hash_size 32" 40 8 32 "vbmeta hash of 32 and signature of 3309 bytes do not fit MLDSA65"
malformed "signature_size 3308" 56 8 3308 "do not fit MLDSA65"
malformed "algorithm type 9" 28 4 9 "vbmeta algorithm 9 is unknown"
malformed "key_num_bytes 1951" $((3584 + 72)) 4 1951 "of 1951 key bytes (1952 or 2592 expected)"
malformed "the key blob one byte short" 72 8 1955 "of 1955 bytes, not 4 + 1952"
cp "$M/vbmeta_mldsa65.img" m.img
flip m.img 1000
check "a changed signature byte: refused" run_rc 1 avbtool verify_image --image m.img
check "  avbtool's words" grep -q "Signature check failed for MLDSA65 vbmeta struct" "$T/err"
cp "$M/vbmeta_mldsa65.img" m.img
flip m.img 3570
check "the padding after the signature is not signed" run_rc 0 avbtool verify_image --image m.img
cp "$M/vbmeta_mldsa87.img" n.img
patch n.img 28 4 9
check "info_image of algorithm type 9: refused" run_rc 1 avbtool info_image --image n.img
check "  by number" grep -q "n.img: vbmeta algorithm 9 is unknown" "$T/err"

# ---- what we sign, checked by noble (independent) ----
if noble_install; then
	for img in h1_65.img h1_87.img system.img boot.img sp.unsparsed mltop.img hv87.img new87.img; do
		check "noble verifies $img" node "$TOP/tests/cli/avb_noble.mjs" "$NOBLE" "$img"
	done
	check "  with its key: system.img" node "$TOP/tests/cli/avb_noble.mjs" "$NOBLE" system.img "$M/testkey_mldsa65.avbpubkey"
	check "  not with another: boot.img" sh -c "! node '$TOP/tests/cli/avb_noble.mjs' '$NOBLE' boot.img new87.avbpubkey 2>/dev/null"
	cp h1_65.img nb.img
	flip nb.img 300
	check "  and refuses a changed signature" sh -c "! node '$TOP/tests/cli/avb_noble.mjs' '$NOBLE' nb.img 2>/dev/null"
	# the other way: noble signs in a signing helper's place, ours checks
	# (the seed: bytes 30-61 of AOSP's PKCS#8 file)
	cat >nhelper <<'EOF'
#!/usr/bin/python3
import base64, os, subprocess, sys
pem = open(os.environ['PRIV']).read().split('\n')
seed = base64.b64decode(''.join(l for l in pem if l and not l.startswith('-----')))[30:62].hex()
line = f"sign {sys.argv[1][5:]} {seed} {sys.stdin.buffer.read().hex()} {os.environ['HOW']}\n"
out = subprocess.run(['node', os.environ['JS'], os.environ['NOBLE']], input=line.encode(),
                     capture_output=True, check=True).stdout
sys.stdout.buffer.write(bytes.fromhex(out.decode().strip()))
EOF
	chmod +x nhelper
	nb() { # HOW LEVEL OUTPUT
		env PRIV="$M/testkey_mldsa$2.pem" JS="$TOP/tests/cli/mldsa_noble.mjs" NOBLE="$NOBLE" HOW=$1 \
			"$FV" avb make_vbmeta_image --output "$3" --algorithm MLDSA$2 --key "$M/testkey_mldsa$2.avbpubkey" \
			--prop com.example.mldsa_test:ML-DSA-$2 --signing_helper ./nhelper
	}
	for L in 65 87; do
		check "noble signs MLDSA$L in a helper's place (hedged)" run_rc 0 nb hedged $L nb$L.img
		check "  verify_image holds it" run_rc 0 avbtool verify_image --image nb$L.img --key "$M/testkey_mldsa$L.pem"
		check "  deterministic: the shared image, byte for byte" run_rc 0 nb det $L nd$L.img
		check "  (the same bytes)" cmp -s nd$L.img "$M/vbmeta_mldsa$L.img"
	done
else
	skip "ML-DSA images checked by @noble/post-quantum: $NOBLE_WHY"
fi
finish
