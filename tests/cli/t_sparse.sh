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
# cut inside a RAW chunk: refused, the chunk named
head -c 30000 "$T/sp_g.input.img" >"$T/cut.img"
check "a sparse image cut short: refused" sh -c "! '$T/sparsemap' '$T/cut.img' 2>'$T/err' >/dev/null"
check "  naming the chunk" grep -q "cut.img: sparse chunk 4 (byte 12356): its data ends past the file" "$T/err"
finish
