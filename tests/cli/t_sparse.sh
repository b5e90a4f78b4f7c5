# Android sparse images read as extents: the golden images of
# tests/avb/sparse (every chunk kind, and avbtool's own output over
# them) read by fastverity's reader and compared, chunk for chunk, with
# simg_dump's lists; then a truncated copy refused by name.
. "$(dirname "$0")/lib.sh"

S=$TOP/tests/avb/sparse
cc -std=c11 -D_GNU_SOURCE -DFASTVERITY_COMPILATION -I"$TOP" -o "$T/sparsemap" "$TOP/tests/cli/sparsemap.c" \
	"$TOP/build/libfastverity-internal.a" $(pkg-config --libs libcrypto json-c libisal zlib) -lfec -lpthread -lm ||
	{ fail "the sparse map harness does not build"; finish; exit 0; }
for img in sp_g.input.img sp_g.img; do
	xz -dc "$S/$img.xz" >"$T/$img"
	check "$img: the golden's bytes" sh -c "cd '$T' && grep ' $img\$' '$S/SHA256SUMS' | sed 's|images/||' | sha256sum -c --quiet"
	# simg_dump's list as the harness prints it (CRC32 chunks counted apart)
	awk 'NR == 1 { total = $4; chunks = $(NF - 2) }
	     /Raw data/ { print "raw", $2, $4, $5 }
	     /Fill with 0x00000000/ { print "zero", $4, $5; next }
	     /Fill with/ { print "fill", $NF, $4, $5 }
	     /Don.t care/ { print "zero", $4, $5 }
	     /CRC32/ { crc++ }
	     END { printf "blocks %s chunks %s crc %d\n", total, chunks, crc }' \
		"$S/${img%.img}.chunks.txt" >"$T/want.tmp"
	{ tail -1 "$T/want.tmp"; sed '$d' "$T/want.tmp"; } >"$T/want"
	"$T/sparsemap" "$T/$img" >"$T/got" 2>"$T/err"
	check "$img: its extents are simg_dump's chunks" cmp -s "$T/want" "$T/got"
	diff "$T/want" "$T/got" | head -5 >&2
done
# --check-crc: the CRC32 chunk of the hand-made input holds (simg_dump
# leaves it unverified); a byte changed before it is found, as libsparse
# finds it, naming the chunk
check "verify --check-crc of avbtool's sparse output" run_rc 0 "$FV" verify "$T/sp_g.img" --check-crc -v
check "  its CRC32 sum holds" grep -qx "$T/sp_g.img: the sparse image's CRC32 sums hold (1)." "$T/out"
cp "$T/sp_g.img" "$T/crc.img"
printf 'Z' | dd of="$T/crc.img" bs=1 seek=140 conv=notrunc 2>/dev/null
check "a byte changed before the CRC32 chunk: --check-crc fails" run_rc 2 "$FV" verify "$T/crc.img" --check-crc
check "  naming the chunk and both sums" grep -q "crc.img: sparse chunk 5 (byte [0-9]*): CRC32 872ffc66, and the bytes before it sum to" "$T/err"
check "  dump --check-crc too" run_rc 2 "$FV" dump "$T/crc.img" --check-crc
check "  without it the tree finds the block" run_rc 2 "$FV" verify "$T/crc.img"
check "  at its unsparsed offset" grep -q "Verification failed at position 0" "$T/err"
# cut inside a RAW chunk: refused, the chunk named
head -c 30000 "$T/sp_g.input.img" >"$T/cut.img"
check "a sparse image cut short: refused" sh -c "! '$T/sparsemap' '$T/cut.img' 2>'$T/err' >/dev/null"
check "  naming the chunk" grep -q "cut.img: sparse chunk 4 (byte 12356): its data ends past the file" "$T/err"

# ---- avbtool 1.3.0's goldens re-made byte for byte (README.md there) ----
cd "$T" || exit 1
K=$TOP/tests/avb/keys
S5=0000000000000000000000000000000000000000000000000000000000000005
python3 "$S/mkinput.py" spgold-a 300 0 a.raw && img2simg a.raw a.sp
python3 "$S/mkinput.py" spgold-c 400 0 c.raw && img2simg c.raw c.sp
python3 "$S/mkinput.py" spgold-d 200 23 d.raw && img2simg d.raw d.sp
for x in a c d; do
	check "case $x: the input img2simg makes is the goldens' input" sh -c "sha256sum $x.sp | cut -d' ' -f1 | grep -qx \$(awk '/sp_$x.input/ {print \$1}' '$S/inputs.sha256')"
done
golden() { # CASE FILE: FILE's SHA-256 is avbtool's output's
	test "$(sha256sum "$2" | cut -d' ' -f1)" = "$(awk -v f="sp_$1.img" '$2 == f {print $1}' "$S/outputs.sha256" "$S/SHA256SUMS")"
}
cp a.sp system.img
check "case a: add_hashtree_footer on a sparse image" "$FV" avb add_hashtree_footer --image system.img --partition_name system --partition_size 2097152 --hash_algorithm sha256 --salt $S5 --do_not_generate_fec
check "  byte-identical with avbtool's" golden a system.img
cp system.img sp_a.img
check "  info_image as avbtool prints it (Sparse)" sh -c "'$FV' avb info_image --image system.img | cmp -s - '$S/sp_a.info.txt'"
cp sp_a.img system.img
check "case e: erase_footer gives the input back" sh -c "'$FV' avb erase_footer --image system.img && cmp -s system.img a.sp"
cp sp_a.img system.img
check "case f: the same footer again is the same image" sh -c "'$FV' avb add_hashtree_footer --image system.img --partition_name system --partition_size 2097152 --hash_algorithm sha256 --salt $S5 --do_not_generate_fec && cmp -s system.img sp_a.img"
cp a.sp system.img
check "case b: with parity (FEC of the unsparsed data and tree)" "$FV" avb add_hashtree_footer --image system.img --partition_name system --partition_size 2097152 --hash_algorithm sha256 --salt $S5 --fec_num_roots 2
check "  byte-identical with avbtool's" golden b system.img
check "  info_image" sh -c "'$FV' avb info_image --image system.img | cmp -s - '$S/sp_b.info.txt'"
cp system.img sp_b.img
cp c.sp vendor.img
check "case c: signed, sha1, no partition size, roots 8" "$FV" avb add_hashtree_footer --image vendor.img --partition_name vendor --hash_algorithm sha1 --salt $S5 --key "$K/rsa4096.pem" --algorithm SHA256_RSA4096 --fec_num_roots 8
check "  byte-identical with avbtool's" golden c vendor.img
check "  info_image" sh -c "'$FV' avb info_image --image vendor.img | cmp -s - '$S/sp_c.info.txt'"
check "  verify_image with its key" run_rc 0 "$FV" avb verify_image --image vendor.img --key "$K/rsa4096.pem"
cp d.sp boot.img
check "case d: add_hash_footer on a sparse image ending in a hole" "$FV" avb add_hash_footer --image boot.img --partition_name boot --partition_size 2097152 --hash_algorithm sha256 --salt $S5
check "  byte-identical with avbtool's" golden d boot.img
check "  info_image" sh -c "'$FV' avb info_image --image boot.img | cmp -s - '$S/sp_d.info.txt'"
check "  verify_image checks its digest" sh -c "'$FV' avb verify_image --image boot.img | grep -qx 'boot: Successfully verified sha256 hash of boot.img for image of 913408 bytes'"
xz -dc "$S/sp_g.input.img.xz" >system.img
check "case g: every chunk kind (DONT_CARE, CRC32) kept" "$FV" avb add_hashtree_footer --image system.img --partition_name system --partition_size 1048576 --salt 00 --hash_algorithm sha256 --do_not_generate_fec
check "  byte-identical with avbtool's" golden g system.img
check "  info_image" sh -c "'$FV' avb info_image --image system.img | cmp -s - '$S/sp_g.info.txt'"

# ---- native actions on sparse images, against the same on raw ones ----
cp sp_b.img s.img
simg2img s.img s.raw
check "verify of a sparse Android image" run_rc 0 "$FV" verify s.img
check "  and of its unsparsed form" run_rc 0 "$FV" verify s.raw
check "dump of both: the same description" sh -c "'$FV' dump s.img | sed 's/s.img/X/' >d1 && '$FV' dump s.raw | sed 's/s.raw/X/' >d2 && cmp -s d1 d2"
# two data blocks of RAW chunks damaged, in both forms
for blk in 0 110; do
	off=$(awk -v b=$blk '/Raw data/ && $4 <= b && b < $4 + $5 { print $2 + (b - $4) * 4096 + 100 }' <<EOF2
$(simg_dump -v s.img 2>/dev/null || true)
EOF2
)
	[ -n "$off" ] || off=$(python3 - s.img $blk <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(); want = int(sys.argv[2])
off, out = 28, 0
for _ in range(struct.unpack_from('<I', d, 20)[0]):
    t, _r, n, tot = struct.unpack_from('<HHII', d, off)
    if t == 0xcac1 and out <= want < out + n:
        print(off + 12 + (want - out) * 4096 + 100); break
    out += n; off += tot
PY
)
	flip s.img "$off"
	flip s.raw $((blk * 4096 + 100))
done
"$FV" verify s.img >v1 2>&1; r1=$?
"$FV" verify s.raw >v2 2>&1; r2=$?
check "damaged RAW blocks: exit 2, as the raw image" test "$r1:$r2" = "2:2"
sed 's/s.img/X/g' v1 >v1x
sed 's/s.raw/X/g' v2 >v2x
check "  the same bad blocks at the same unsparsed offsets" sh -c "grep -q 'position 450560' v1 && cmp -s v1x v2x"
check "repair of the sparse image from its parity" run_rc 0 "$FV" repair s.img
check "  then it verifies" run_rc 0 "$FV" verify s.img
check "  and unsparses to the golden's bytes" sh -c "simg2img s.img s2.raw && simg2img sp_b.img s3.raw && cmp -s s2.raw s3.raw"
check "open of a sparse image: refused, naming simg2img" sh -c "'$FV' open s.img sparse-t 2>e; test \$? = 1 && grep -q 's.img: an Android sparse image, which the kernel cannot map: make a raw image first (simg2img s.img IMAGE.raw)' e"

# verify DATA HASH ROOT with the data sparse (img2simg's round trip)
"$TOP/build/mkimage" random 31 $((600 * 4096)) >r.raw
dd if=/dev/zero of=r.raw bs=4096 seek=100 count=200 conv=notrunc status=none
python3 -c "import sys; sys.stdout.buffer.write(b'\x12\x34\x56\x78' * 1024)" | dd of=r.raw bs=4096 seek=350 conv=notrunc status=none
"$FV" format r.raw r.hash --salt=$SALT --uuid=$UUID --fec-device=r.fec >fo
img2simg r.raw r.sp
check "img2simg's round trip gives the raw bytes back" sh -c "simg2img r.sp r2.raw && cmp -s r.raw r2.raw"
check "verify DATA HASH ROOT, the data sparse (FILL runs hashed once)" run_rc 0 "$FV" verify r.sp r.hash "$(root_of fo)"
cp r.sp rf.sp
# a FILL chunk's pattern changed: blocks bad, and a repair refused by name
python3 - rf.sp <<'PY'
import struct, sys
p = sys.argv[1]; d = bytearray(open(p, 'rb').read())
off = 28
for i in range(struct.unpack_from('<I', d, 20)[0]):
    t, _r, n, tot = struct.unpack_from('<HHII', d, off)
    if t == 0xcac2 and struct.unpack_from('<I', d, off + 12)[0] == 0x78563412:
        d[off + 12] ^= 1; break
    off += tot
open(p, 'wb').write(d)
PY
check "a FILL chunk changed: its blocks bad" sh -c "'$FV' verify rf.sp r.hash '$(root_of fo)' --fec-device=r.fec >vf 2>&1; test \$? = 2 && grep -q 'position 1433600' vf"
cp rf.sp rf.orig
check "  a repair would write into it: refused, naming the chunk" sh -c "'$FV' repair rf.sp r.hash '$(root_of fo)' --fec-device=r.fec 2>ef; test \$? = 1 && grep -q 'rf.sp: byte 1433600 lies in sparse chunk [0-9]* (a FILL), which the file does not store: not written' ef"
check "  and nothing was written" cmp -s rf.sp rf.orig

# ---- a few KiB declaring 16 TiB (issue 53, item 7) ----
# One DONT_CARE chunk of 2^32 - 3 blocks, then the vbmeta and footer of
# a hash descriptor over all of it: its SHA-256 is refused before a byte
# is hashed (it ran for hours), past the cap (4 GiB, or 16 times what
# the image stores); --check-crc sums the run from one block's sum (an
# hour, byte by byte). The CRC32 chunk after the run and the header's
# sum are made here with zlib's combine by GF(2) matrices, checked
# against zlib.crc32 first.
gen 41 4096 >hs.img
"$FV" avb add_hash_footer --image hs.img --partition_name boot --partition_size 131072 --salt 00
python3 - hs.img big.img <<'PY'
import struct, sys, zlib
def times(mat, vec):
    s, i = 0, 0
    while vec:
        if vec & 1:
            s ^= mat[i]
        vec >>= 1
        i += 1
    return s
def square(mat):
    return [times(mat, mat[k]) for k in range(32)]
def combine(c1, c2, n):  # zlib's crc32_combine
    if not n:
        return c1
    odd = [0xedb88320] + [1 << k for k in range(31)]
    even = square(odd)
    odd = square(even)
    while True:
        even = square(odd)
        if n & 1:
            c1 = times(even, c1)
        n >>= 1
        if not n:
            break
        odd = square(even)
        if n & 1:
            c1 = times(odd, c1)
        n >>= 1
        if not n:
            break
    return c1 ^ c2
def zeros(blocks):  # the sum of blocks zero blocks, doubling
    s, run, ln = 0, zlib.crc32(bytes(4096)), 4096
    while blocks:
        if blocks & 1:
            s = combine(s, run, ln)
        blocks >>= 1
        run, ln = combine(run, run, ln), ln * 2
    return s
a, b = b'\x01\x02' * 3000, b'\x07' * 5000
assert combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)
assert zeros(37) == zlib.crc32(bytes(4096 * 37))
src, out = sys.argv[1], sys.argv[2]
d = open(src, 'rb').read()
voff, vsize = struct.unpack_from('>QQ', d, len(d) - 64 + 20)
vb = bytearray(d[voff:voff + vsize])
auth = struct.unpack_from('>Q', vb, 12)[0]
doff, dsize = struct.unpack_from('>QQ', vb, 96)
n = 2**32 - 3
p = 256 + auth + doff
while p < 256 + auth + doff + dsize:
    tag, nbf = struct.unpack_from('>QQ', vb, p)
    if tag == 2:  # the hash descriptor's image size: the DONT_CARE run
        struct.pack_into('>Q', vb, p + 16, n * 4096)
    p += 16 + nbf
vblk = bytes(vb) + bytes(-len(vb) % 4096)
foot = bytearray(4096)
foot[-64:] = b'AVBf' + struct.pack('>IIQQQ', 1, 0, n * 4096, n * 4096, vsize) + bytes(28)
crc = zeros(n)
total = zlib.crc32(bytes(foot), zlib.crc32(vblk, crc))
o = struct.pack('<IHHHHIIII', 0xed26ff3a, 1, 0, 28, 12, 4096, n + 2, 4, total)
o += struct.pack('<HHII', 0xcac3, 0, n, 12)
o += struct.pack('<HHII', 0xcac4, 0, 0, 16) + struct.pack('<I', crc)
o += struct.pack('<HHII', 0xcac1, 0, 1, 12 + 4096) + vblk
o += struct.pack('<HHII', 0xcac1, 0, 1, 12 + 4096) + bytes(foot)
open(out, 'wb').write(o)
PY
check "a hash descriptor over 16 TiB of DONT_CARE (8 KiB of file): refused at once" run_rc 1 timeout 120 "$FV" avb verify_image --image big.img
check "  naming the bytes and the cap" grep -q "big.img: 17592186032128 of the 17592186032128 bytes to hash lie in DONT_CARE and FILL chunks, which the image does not store: more than the 4294967296 hashed at most (4 GiB, or 16 times the 8192 bytes it stores)" "$T/err"
check "  info_image reads it" sh -c "'$FV' avb info_image --image big.img | grep -q 'Image Size: *17592186032128 bytes'"
check "--check-crc of it: the CRC32 chunk and the header's sum hold" run_rc 1 timeout 120 "$FV" verify big.img --check-crc -v
check "  both summed" grep -qx "big.img: the sparse image's CRC32 sums hold (2)." "$T/out"
cp big.img bigc.img
printf '\001' | dd of=bigc.img bs=1 seek=24 conv=notrunc status=none
check "  the header's sum changed: exit 2, at once" run_rc 2 timeout 120 "$FV" verify bigc.img --check-crc
check "  naming both sums" grep -q "bigc.img: the sparse header's image checksum [0-9a-f]*, and the unsparsed bytes sum to [0-9a-f]*" "$T/err"
# add_hash_footer over a run the file does not store: the same cap
python3 -c "
import struct
n = 2**32 - 100
open('huge.sp', 'wb').write(struct.pack('<IHHHHIIIIHHII', 0xed26ff3a, 1, 0, 28, 12, 4096, n, 1, 0, 0xcac3, 0, n, 12))"
cp huge.sp huge.orig
check "add_hash_footer over 16 TiB of DONT_CARE: refused at once" run_rc 1 timeout 120 "$FV" avb add_hash_footer --image huge.sp --partition_name boot --partition_size $(((2 ** 32 - 1) * 4096)) --salt 00
check "  naming the cap, the image untouched" sh -c "grep -q 'huge.sp: 17592185634816 of the 17592185634816 bytes to hash lie in DONT_CARE and FILL chunks' '$T/err' && cmp -s huge.sp huge.orig"

# ---- sidecar files beside a sparse file (issue 53, item 12) ----
# veritysetup, systemd and the kernel take a file with sidecar files as
# its own bytes, an img2simg output too (not its unsparsed bytes, which
# were verified): both ways against veritysetup, its tree byte for byte
n=$(($(stat -c %s r.sp) / 4096))
cp r.sp sc.img
cp r.sp fs.img
"$VS" format sc.img sc.img.verity --salt=$SALT --uuid=$UUID --data-blocks=$n >vo
root_of vo >sc.img.roothash
check "a sparse file with veritysetup's sidecar tree of its bytes: verify agrees (0)" run_rc 0 "$FV" verify sc.img
check "format --sidecar of a sparse file: its own bytes" run_rc 0 "$FV" format --sidecar fs.img --salt=$SALT --uuid=$UUID --data-blocks=$n
check "  said once" grep -qx "fastverity: fs.img: warning: an Android sparse image: its own bytes are hashed, as the kernel maps them (simg2img fs.img IMAGE.raw makes its unsparsed ones)" "$T/err"
check "  veritysetup's tree byte for byte, and its root" sh -c "cmp -s fs.img.verity sc.img.verity && test \"\$(cat fs.img.roothash)\" = \"\$(cat sc.img.roothash)\""
check "  veritysetup verifies it" run_rc 0 "$VS" verify fs.img fs.img.verity "$(cat fs.img.roothash)"
# the chunk list is data: a byte of the header's checksum changed (the
# list still reads) fails both, at block 0
flip sc.img 24
"$VS" verify sc.img sc.img.verity "$(cat sc.img.roothash)" >/dev/null 2>&1
vs=$?
check "a byte of the sparse header changed: exit 2, as veritysetup's ($vs)" run_rc "$vs" "$FV" verify sc.img
check "  at block 0" grep -q "Verification failed at position 0" "$T/err"
# a chunk list that does not read: refused, naming the chunk, until
# --container=sidecar says the file is data (it might be either)
head -c $((n * 4096)) r.sp >cut.img
"$VS" format cut.img cut.img.verity --salt=$SALT --uuid=$UUID >vo
root_of vo >cut.img.roothash
check "a sparse file cut short, with sidecar files: refused, naming the chunk" run_rc 1 "$FV" verify cut.img
check "  (the chunk)" grep -q "cut.img: sparse chunk [0-9]* (byte [0-9]*): its data ends past the file" "$T/err"
check "  with --container=sidecar: verified as it is" run_rc 0 "$FV" verify cut.img --container=sidecar
# a sidecar tree of the unsparsed bytes fails now, as veritysetup's does
gen 43 $((300 * 4096)) >ua.raw
img2simg ua.raw us.img
"$VS" format ua.raw us.img.verity --salt=$SALT --uuid=$UUID >vo
root_of vo >us.img.roothash
check "a sidecar tree of the unsparsed bytes: veritysetup fails" run_rc 2 "$VS" verify us.img us.img.verity "$(cat us.img.roothash)"
check "  and so does verify (it passed)" run_rc 2 "$FV" verify us.img
# repair writes the file's own bytes back, the header's too
cp r.sp rp.img
"$FV" format --sidecar rp.img --data-blocks=$n --fec-roots=2 >/dev/null 2>&1
cp rp.img rp.orig
flip rp.img 25
check "repair of a sparse file with sidecar files: its header's byte rebuilt" sh -c "'$FV' repair rp.img >/dev/null 2>&1 && cmp -s rp.img rp.orig"
finish
