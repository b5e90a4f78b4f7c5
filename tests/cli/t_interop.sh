# The parameter matrix against veritysetup, in both directions: the same
# output and byte-identical hash images for the same salt and UUID, and
# each tool verifies the other's image.
. "$(dirname "$0")/lib.sh"

# interop NAME DATA "FORMAT ARGS" ["VERIFY ARGS"]
interop() {
	local name=$1 data=$2 fargs=$3 vargs=${4:-} root ok=1
	rm -rf "$T/vs" "$T/fv"
	mkdir "$T/vs" "$T/fv"
	# shellcheck disable=SC2086
	(cd "$T/vs" && $VS format "$data" hash.img --uuid=$UUID $fargs >out 2>err)
	local vrc=$?
	# shellcheck disable=SC2086
	(cd "$T/fv" && "$FV" format "$data" hash.img --uuid=$UUID $fargs >out 2>err)
	local frc=$?
	if [ $vrc != 0 ] || [ $frc != 0 ]; then
		fail "$name: format exit veritysetup $vrc fastverity $frc: $(cat "$T/fv/err" "$T/vs/err")"
		return
	fi
	cmp -s "$T/vs/out" "$T/fv/out" || { ok=0; echo "  output differs ($name):" >&2; diff "$T/vs/out" "$T/fv/out" >&2; }
	cmp -s "$T/vs/hash.img" "$T/fv/hash.img" || { ok=0; echo "  hash images differ ($name)" >&2; }
	root=$(root_of "$T/fv/out")
	# shellcheck disable=SC2086
	"$FV" verify "$data" "$T/vs/hash.img" "$root" $vargs || { ok=0; echo "  fastverity rejects veritysetup's image ($name)" >&2; }
	# shellcheck disable=SC2086
	$VS verify "$data" "$T/fv/hash.img" "$root" $vargs || { ok=0; echo "  veritysetup rejects fastverity's image ($name)" >&2; }
	if [ $ok = 1 ]; then pass "$name"; else fail "$name"; fi
}

SALT64=$(printf '%s' "$SALT$SALT" | rev)
SALT17=0102030405060708090a0b0c0d0e0f1011
SALT256=$(for i in $(seq 0 255); do printf '%02x' $(( (i * 37 + 11) % 256 )); done)

gen 1 $((300 * 512)) >"$T/d512"
gen 2 $((300 * 4096)) >"$T/d4096"
gen 3 $((20 * 65536)) >"$T/d65536"

for fmt in 1 0; do
	for hash in sha256 sha1 sha512; do
		for bs in 512 4096 65536; do
			for salt in - ab "$SALT" "$SALT64" "$SALT17" "$SALT256"; do
				interop "format $fmt $hash bs $bs salt ${#salt}" "$T/d$bs" \
					"--format=$fmt --hash=$hash --data-block-size=$bs --hash-block-size=$bs --salt=$salt"
			done
		done
	done
done

# Data and hash block sizes apart, and sizes between.
for pair in 512:4096 4096:512 1024:2048 8192:1024 16384:32768 4096:65536; do
	d=${pair%:*} h=${pair#*:}
	gen 4 $((77 * d)) >"$T/dmix"
	interop "dbs $d hbs $h" "$T/dmix" "--data-block-size=$d --hash-block-size=$h --salt=$SALT"
done

# Other digests of the default provider.
for hash in sha224 sha384 sha3-256 sha512-256; do
	interop "hash $hash" "$T/d4096" "--hash=$hash --salt=$SALT"
done

# Level edges: 1 and 2 blocks; 16, 17, 256, 257 blocks of 512 bytes (16
# digests a block); 128 and 129 blocks of 4096.
for n in 1 2 16 17 256 257; do
	gen 5 $((n * 512)) >"$T/edge"
	interop "$n blocks of 512" "$T/edge" "--data-block-size=512 --hash-block-size=512 --salt=$SALT"
done
for n in 1 2 128 129; do
	gen 6 $((n * 4096)) >"$T/edge"
	interop "$n blocks of 4096" "$T/edge" "--salt=$SALT"
done

# Images of many blocks, hashed in windows of many parents: format 0
# packs 20-byte SHA-1 digests, so a parent's digests do not fill its
# block; at 512-byte blocks level 1 is made with level 0.
gen 7 $(((16384 * 3 + 77) * 512)) >"$T/dmany"
gen 8 $((20000 * 4096)) >"$T/dmany4k"
for fmt in 0 1; do
	for hash in sha1 sha256; do
		interop "format $fmt $hash, 49229 blocks of 512" "$T/dmany" \
			"--format=$fmt --hash=$hash --data-block-size=512 --hash-block-size=512 --salt=$SALT"
		interop "format $fmt $hash, 20000 blocks of 4096" "$T/dmany4k" "--format=$fmt --hash=$hash --salt=$SALT"
	done
done
rm -f "$T/dmany" "$T/dmany4k"

# One data block and no superblock: no tree, and nothing of the hash
# device is read, not even below the hash offset (veritysetup writes an
# empty file).
nsb1="--no-superblock --data-blocks=1 --hash-offset=16384 --salt=$SALT"
interop "one block, no superblock, hash offset past the end" "$T/d4096" "$nsb1" "$nsb1"

# --data-blocks: only the first blocks are protected.
interop "--data-blocks=100" "$T/d4096" "--data-blocks=100 --salt=$SALT"

# --no-superblock: the parameters are given again to verify.
nsb="--no-superblock --salt=$SALT --data-block-size=512 --hash-block-size=1024"
interop "--no-superblock" "$T/d512" "$nsb" "$nsb"
interop "--no-superblock --hash-offset" "$T/d512" "$nsb --hash-offset=8192" "$nsb --hash-offset=8192"

# Hash offset in a separate hash file, also off the hash block grid.
interop "--hash-offset in hash file" "$T/d4096" "--hash-offset=1048576 --salt=$SALT" "--hash-offset=1048576"
interop "--hash-offset=4608 in hash file" "$T/d4096" "--hash-offset=4608 --salt=$SALT" "--hash-offset=4608"
interop "--hash-offset=512 in hash file" "$T/d512" "--hash-offset=512 --data-block-size=512 --hash-block-size=2048 --salt=$SALT" "--hash-offset=512"

# One file: the tree appended to the data at --hash-offset.
for tool in vs fv; do
	cp "$T/d4096" "$T/one.$tool"
done
$VS format "$T/one.vs" "$T/one.vs" --hash-offset=$((300 * 4096)) --salt=$SALT --uuid=$UUID >"$T/o.vs"
"$FV" format "$T/one.fv" "$T/one.fv" --hash-offset=$((300 * 4096)) --salt=$SALT --uuid=$UUID >"$T/o.fv"
check "one file: identical images" cmp -s "$T/one.vs" "$T/one.fv"
check "one file: identical output" diff <(sed 's/one\.vs/X/' "$T/o.vs") <(sed 's/one\.fv/X/' "$T/o.fv")
r=$(root_of "$T/o.fv")
check "one file: fastverity verifies veritysetup's" "$FV" verify "$T/one.vs" "$T/one.vs" "$r" --hash-offset=$((300 * 4096))
check "one file: veritysetup verifies fastverity's" $VS verify "$T/one.fv" "$T/one.fv" "$r" --hash-offset=$((300 * 4096))

# One file with the superblock half a block after the data.
cp "$T/d4096" "$T/one2.vs"
cp "$T/d4096" "$T/one2.fv"
off=$((300 * 4096 + 512))
$VS format "$T/one2.vs" "$T/one2.vs" --hash-offset=$off --data-blocks=300 --salt=$SALT --uuid=$UUID >"$T/o.vs"
"$FV" format "$T/one2.fv" "$T/one2.fv" --hash-offset=$off --data-blocks=300 --salt=$SALT --uuid=$UUID >"$T/o.fv"
check "one file, offset off the block grid: identical images" cmp -s "$T/one2.vs" "$T/one2.fv"
check "one file, offset off the block grid: veritysetup verifies" $VS verify "$T/one2.fv" "$T/one2.fv" "$(root_of "$T/o.fv")" --hash-offset=$off

# dump prints what veritysetup prints, with and without an offset.
cd "$T/vs" || exit 1
$VS format "$T/d4096" h --salt=$SALT --uuid=$UUID >/dev/null
check "dump matches veritysetup" diff <($VS dump h) <("$FV" dump h)
cp "$T/one.fv" one
check "dump --hash-offset matches veritysetup" diff <($VS dump one --hash-offset=$((300 * 4096))) <("$FV" dump one --hash-offset=$((300 * 4096)))

# A default run: random salt and UUID, root hash file.
"$FV" format "$T/d4096" r.img --root-hash-file=r.txt >r.out
check "--root-hash-file holds the root without newline" test "$(cat r.txt)" = "$(root_of r.out)" -a "$(wc -c <r.txt)" = 64
check "veritysetup verifies a default fastverity image" $VS verify "$T/d4096" r.img --root-hash-file=r.txt
check "random salt is 32 bytes" test "$(awk -F'\t' '/^Salt:/{print length($2)}' r.out)" = 64
check "hash file created with mode 0600" test "$(stat -c %a r.img)" = 600

finish
