# Libraries opened when first needed (hashtree/dl.h): neither the command
# nor the shared library is linked with libcrypto, libfec, libdevmapper,
# zlib or json-c; sha256 trees at format 1 never open OpenSSL, other hash
# algorithms and keys do; only decoding errors in parity (not erasures)
# and the bench's reference encoder open libfec; only GPTs and sparse
# images' checksums open zlib, and JSON (written, or a DDI's read)
# json-c; and
# where libcrypto cannot be opened, what needs it fails with one line
# saying so while everything else works.
. "$(dirname "$0")/lib.sh"

for f in "$TOP/fastverity" "$TOP/libfastverity.so"; do
	check "${f##*/} is not linked with libcrypto, libfec, libdevmapper, zlib or json-c" \
		sh -c "! readelf -d '$f' | grep NEEDED | grep -qE 'libcrypto|libfec|libdevmapper|libz\\.|libjson-c'"
done

# opened LIB ARGS...: whether the dynamic linker loaded LIB (libcrypto,
# libfec) for one run (LD_DEBUG's record of it): 0 yes, 1 no, 2 the run
# failed
opened() {
	local lib=$1
	shift
	rm -rf "$T/ld" && mkdir "$T/ld"
	LD_DEBUG=files LD_DEBUG_OUTPUT=$T/ld/run "$FV_REAL" "$@" >"$T/out" 2>"$T/err" || return 2
	grep -qs "file=$lib\.so" "$T/ld"/run.*
}

gen 41 $((1000 * 4096)) >"$T/d"
opened libcrypto format "$T/d" "$T/h" --salt="$SALT" --uuid=$UUID --fec-device="$T/f" --fec-roots=2 --root-hash-file="$T/r"
check "format (sha256, with parity) does not open libcrypto" test $? = 1
r=$(cat "$T/r")
opened libcrypto verify "$T/d" "$T/h" "$r" --fec-device="$T/f"
check "verify does not" test $? = 1
opened libcrypto dump "$T/h"
check "dump does not" test $? = 1
flip "$T/d" 12345
opened libcrypto repair "$T/d" "$T/h" "$r" --fec-device="$T/f"
check "repair does not" test $? = 1
flip "$T/d" 777777
opened libcrypto update "$T/d" "$T/h" "$r" --changed=777777:1 --fec-device="$T/f" --root-hash-file="$T/r2"
check "update does not" test $? = 1
opened libcrypto format "$T/d" "$T/h512" --hash=sha512
check "format --hash=sha512 does" test $? = 0
opened libcrypto --version
check "--version does (it names OpenSSL's)" test $? = 0
opened libfec format "$T/d" "$T/h0" --root-hash-file="$T/r0"
check "format without parity does not open libfec" test $? = 1
opened libfec verify "$T/d" "$T/h0" "$(cat "$T/r0")"
check "  nor does verify" test $? = 1
# encoding needs only the code's generator (verity/fec/rs.c)
opened libfec format "$T/d" "$T/h3" --fec-device="$T/f3" --fec-roots=8 --root-hash-file="$T/r3"
check "format with parity does not either (it only encodes)" test $? = 1
flip "$T/d" 4096
opened libfec update "$T/d" "$T/h3" "$(cat "$T/r3")" --changed=4096:1 --fec-device="$T/f3" --root-hash-file="$T/r3"
check "  nor does update" test $? = 1
opened libfec verify "$T/d" "$T/h3" "$(cat "$T/r3")" --fec-device="$T/f3"
check "  nor verify with parity (nothing to decode)" test $? = 1
flip "$T/d" 8192
opened libfec repair "$T/d" "$T/h3" "$(cat "$T/r3")" --fec-device="$T/f3"
check "  nor repair of a block the tree names (an erasure: ISA-L's)" test $? = 1
check "    which it rebuilt" run_rc 0 "$FV_REAL" verify "$T/d" "$T/h3" "$(cat "$T/r3")" --fec-device="$T/f3"
FASTVERITY_BENCH_SECONDS=0.1 opened libfec bench
check "bench does (libfec's encoder, the reference it compares)" test $? = 0

# zlib: CRC-32 for GPTs and sparse images only
opened libz format "$T/d" "$T/hz" --fec-device="$T/fz" --fec-roots=2 --root-hash-file="$T/rz"
check "format does not open zlib" test $? = 1
opened libz update "$T/d" "$T/hz" "$(cat "$T/rz")" --changed=0:1 --fec-device="$T/fz" --root-hash-file="$T/rz"
check "  nor does update" test $? = 1
opened libz verify "$T/d" "$T/hz" "$(cat "$T/rz")" --fec-device="$T/fz"
check "  nor verify" test $? = 1
if command -v img2simg >/dev/null; then
	img2simg "$T/d" "$T/d.sp" 4096 >/dev/null 2>&1 || fail "img2simg"
	opened libz verify "$T/d.sp" "$T/hz" "$(cat "$T/rz")"
	check "  nor verify of a sparse image (no checksums asked for)" test $? = 1
	opened libz verify "$T/d.sp" "$T/hz" "$(cat "$T/rz")" --check-crc
	check "  verify --check-crc of it does" test $? = 0
	check "    and it holds" run_rc 0 "$FV_REAL" verify "$T/d.sp" "$T/hz" "$(cat "$T/rz")" --check-crc
else
	skip "img2simg (android-sdk-libsparse-utils) is not installed"
fi

# json-c: JSON written (--json), or a DDI's signature JSON read
opened libjson-c dump "$T/hz"
check "dump does not open json-c" test $? = 1
opened libjson-c dump "$T/hz" --json
check "  dump --json does" test $? = 0
check "    and its document is JSON" sh -c "jq -e .data_blocks '$T/out' >/dev/null"
opened libjson-c update "$T/d" "$T/hz" "$(cat "$T/rz")" --changed=0:1 --fec-device="$T/fz" --root-hash-file="$T/rz"
check "  update does not" test $? = 1
# where json-c cannot be opened (an empty file over it, in a mount
# namespace): --json fails with one line before anything is done
jlib=$(readlink -f "$(ldconfig -p | awk '/libjson-c\.so\.5 / {print $NF; exit}')")
if [ -f "$jlib" ] && unshare -m true 2>/dev/null; then
	nojson() { unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$jlib" "$@"; }
	check "without json-c: dump --json exits 1" run_rc 1 nojson "$FV_REAL" dump "$T/hz" --json
	check "  with one line: writing JSON needs json-c, which cannot be loaded" \
		sh -c "[ \$(wc -l <'$T/err') = 1 ] && grep -q '^fastverity: writing JSON needs json-c, which cannot be loaded' '$T/err'"
	check "  and nothing on stdout" test ! -s "$T/out"
	files_copy "$T/hz" "$T/hz.before"
	flip "$T/d" 0 # (a change the update would write)
	check "  update --json refused before it writes" run_rc 1 nojson "$FV_REAL" update "$T/d" "$T/hz" "$(cat "$T/rz")" --changed=0:1 --fec-device="$T/fz" --json
	check "    the hash image unchanged" files_same "$T/hz" "$T/hz.before"
	check "  dump without --json works" run_rc 0 nojson "$FV_REAL" dump "$T/hz"
	# firmware sets: verify of a super image and of a vbmeta image
	gen 43 $((256 * 4096)) >"$T/e1"
	"$FV_REAL" avb add_hashtree_footer --image "$T/e1" --partition_name system \
		--partition_size $((2 << 20)) --key "$TOP/tests/avb/keys/rsa2048.pem" \
		--algorithm SHA256_RSA2048 >/dev/null 2>&1 || fail "add_hashtree_footer for the set"
	printf '{"device_size": 8388608, "partitions": [{"name": "system_a", "image": "%s"}]}' "$T/e1" >"$T/sj"
	python3 "$TOP/tests/cli/mksuper.py" "$T/sj" "$T/super.img"
	check "  verify super.img --key works" run_rc 0 nojson "$FV_REAL" verify "$T/super.img" --key "$TOP/tests/avb/keys/rsa2048.pem"
	"$FV_REAL" avb make_vbmeta_image --output "$T/vbmeta.img" --include_descriptors_from_image "$T/e1" >/dev/null 2>&1
	cp "$T/e1" "$T/system.img"
	check "  verify vbmeta.img works" run_rc 0 nojson "$FV_REAL" verify "$T/vbmeta.img"
	check "  avb verify_image works" run_rc 0 nojson "$FV_REAL" avb verify_image --image "$T/vbmeta.img"
else
	skip "no libjson-c.so.5 in ldconfig's cache, or no mount namespace (unshare -m)"
fi

# Where libcrypto cannot be opened: a mount namespace with an empty file
# over it
lib=$(readlink -f "$(ldconfig -p | awk '/libcrypto\.so\.3 / {print $NF; exit}')")
if [ ! -f "$lib" ] || ! unshare -m true 2>/dev/null; then
	skip "no libcrypto.so.3 in ldconfig's cache, or no mount namespace (unshare -m)"
	finish
fi
without() { unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" "$@"; }
check "  (there, even openssl cannot start)" sh -c "! unshare -m sh -c 'mount --bind /dev/null $lib && openssl version' 2>/dev/null"

gen 42 $((300 * 4096)) >"$T/e"
"$FV_REAL" format "$T/e" "$T/eh" --salt="$SALT" --uuid=$UUID >"$T/with" || fail "format with OpenSSL"
files_copy "$T/eh" "$T/eh.with"
check "without libcrypto: format (sha256) works" run_rc 0 without "$FV_REAL" format "$T/e" "$T/eh" --salt="$SALT" --uuid=$UUID
check "  with the same output and tree" sh -c "cmp -s '$T/with' '$T/out' && cmp -s '$T/eh' '$T/eh.with'"
check "  verify works" run_rc 0 without "$FV_REAL" verify "$T/e" "$T/eh" "$(root_of "$T/with")"
check "  --version says OpenSSL cannot be loaded, and exits 0" run_rc 0 without "$FV_REAL" --version
check "    on its second line" sh -c "sed -n 2p '$T/out' | grep -q '^OpenSSL cannot be loaded ($lib\|^OpenSSL cannot be loaded (.*libcrypto'"

# each: one line naming what needs OpenSSL, exit 1, nothing written
needs() { # DESCRIPTION WORDS CMD...
	local what=$1 words=$2
	shift 2
	run_rc 1 without "$@"
	check "$what: exit 1" test $? = 0
	check "  one line: $words needs OpenSSL, which cannot be loaded" \
		sh -c "test \$(wc -l <'$T/err') = 1 && grep -q '$words needs OpenSSL, which cannot be loaded (.*libcrypto' '$T/err'"
}
needs "format --hash=sha512" "hash algorithm sha512" "$FV_REAL" format "$T/e" "$T/x512" --hash=sha512
check "  and no hash image" test ! -e "$T/x512"
needs "format --format=0 (sha1)" "hash algorithm sha1" "$FV_REAL" format "$T/e" "$T/x1" --hash=sha1 --format=0
key=$TOP/tests/avb/keys/rsa2048.pem
cp "$T/e" "$T/a.img"
"$FV_REAL" avb add_hashtree_footer --image "$T/a.img" --partition_name system \
	--hash_algorithm sha256 --key "$key" --algorithm SHA256_RSA2048 --salt "$SALT" >/dev/null ||
	fail "avb add_hashtree_footer"
needs "verify of a signed Android image" "$T/a.img: checking its signature (SHA256_RSA2048)" "$FV_REAL" verify "$T/a.img"
needs "avb verify_image" "$T/a.img: checking its signature (SHA256_RSA2048)" "$FV_REAL" avb verify_image --image "$T/a.img"
cp "$T/e" "$T/b.img"
files_copy "$T/b.img" "$T/b.before"
needs "avb add_hashtree_footer --key" "$key: the key" "$FV_REAL" avb add_hashtree_footer --image "$T/b.img" \
	--partition_name system --hash_algorithm sha256 --key "$key" --algorithm SHA256_RSA2048
check "  and the image unchanged" files_same "$T/b.img" "$T/b.before"
root_of "$T/with" >"$T/root"
# (OpenSSL is asked for before the key and certificate are read)
needs "sign" "signing" "$FV_REAL" sign --root-hash-file="$T/root" "$T/sig" --key="$key" --cert="$key"
check "  and no signature file" test ! -e "$T/sig"

finish
