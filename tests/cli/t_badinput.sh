# Every bad input: a non-zero exit code, one line on stderr that says
# "fastverity: <what>: <problem>", and no damage to any file.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
gen 21 $((300 * 4096)) >data
"$FV" format data hash --salt=$SALT >fmt
R=$(root_of fmt)
sums() { sha256sum data hash 2>/dev/null; }
sums >before
sums_same() { sums | cmp -s - before; }

# refuse NAME RC PATTERN CMD...: exit RC, a single stderr line matching
# PATTERN (grep -E), data and hash unchanged.
# One error line of fastverity's (after veritysetup's own words, where it
# has some for the case; a hint may follow): three lines at most.
refuse() {
	local name=$1 rc=$2 pat=$3; shift 3
	if run_rc "$rc" "$@" && [ "$(wc -l <"$T/err")" -le 3 ] &&
		grep -m1 '^fastverity: ' "$T/err" | grep -qE "^fastverity: $pat" && sums | cmp -s - before; then
		pass "$name"
	else
		echo "  stderr: $(cat "$T/err")" >&2
		fail "$name"
	fi
}

# docs/format.md, differences 1: a partial last block is refused.
{ cat data; head -c 100 data; } >odd
refuse "partial last block refused" 1 "odd: size 1228900 is not a multiple of the 4096-byte data block size.*pad the image.*--data-blocks=300" \
	"$FV" format odd newhash
check "no hash file left behind" test ! -e newhash
check "--data-blocks accepts the uncovered tail" run_rc 0 "$FV" format odd newhash --data-blocks=300
check "the same root as the exact image" test "$(root_of out)" != ""
rm -f newhash

# 2: --no-superblock with an offset that rounds down over the data.
cp data one
sums() { sha256sum data hash one 2>/dev/null; }
sums >before
refuse "rounded-down tree start over the data refused" 1 "hash offset 1227264 is not a multiple .* would start at byte 1224704, before it \\(give --hash-offset=1224704 or 1228800\\)" \
	"$FV" format one one --no-superblock --hash-offset=$((300 * 4096 - 512 * 3)) --data-blocks=300 --hash-block-size=4096
refuse "hash offset inside the data refused" 1 "one: the hash area at byte 4096 overlaps" \
	"$FV" format one one --hash-offset=4096 --data-blocks=300
refuse "default data blocks cover the hash offset" 1 "one: the hash area at byte 1048576 overlaps" \
	"$FV" format one one --hash-offset=1048576

# 4: a missing root hash file is an error.
refuse "missing --root-hash-file" 1 "nofile: cannot read root hash file" \
	"$FV" verify data hash --root-hash-file=nofile
printf 'zz' >badroot
refuse "garbage in --root-hash-file" 1 "badroot: invalid root hash string" \
	"$FV" verify data hash --root-hash-file=badroot
printf '%s\n' "$R" >goodroot
check "--root-hash-file with a newline is accepted" run_rc 0 "$FV" verify data hash --root-hash-file=goodroot
refuse "root both ways" 1 "give the root hash as an argument or with --root-hash-file" \
	"$FV" verify data hash "$R" --root-hash-file=goodroot

# 6: a salt over 256 bytes.
refuse "salt of 257 bytes" 1 "--salt: salt of 514 hex digits is too long" \
	"$FV" format data newhash --salt="$(printf 'ab%.0s' $(seq 257))"
refuse "salt not hex" 1 "--salt: 'zz' is not" "$FV" format data newhash --salt=zz
refuse "salt odd length" 1 "--salt: 'abc' is not" "$FV" format data newhash --salt=abc

# Parameters.
refuse "unknown hash" 1 "hash algorithm foo not supported" "$FV" format data newhash --hash=foo
refuse "block size not a power of two" 1 "--data-block-size: unsupported VERITY block size 1000" \
	"$FV" format data newhash --data-block-size=1000
refuse "block size too large" 1 "--hash-block-size: unsupported VERITY block size 1048576" \
	"$FV" format data newhash --hash-block-size=1048576
refuse "block size too small" 1 "--data-block-size: unsupported VERITY block size 256" \
	"$FV" format data newhash --data-block-size=256
refuse "block size not a number" 1 "--data-block-size: 'abc' is not a number" \
	"$FV" format data newhash --data-block-size=abc
refuse "negative data blocks" 1 "--data-blocks: '-1' is not a number" \
	"$FV" format data newhash --data-blocks=-1
refuse "data blocks overflow" 1 "--data-blocks: 18446744073709551615 is too large" \
	"$FV" format data newhash --data-blocks=18446744073709551615
refuse "more data blocks than the device has" 1 "data: device has 1228800 bytes, fewer than 301 data blocks" \
	"$FV" format data newhash --data-blocks=301
refuse "hash type 2" 1 "--format: unsupported hash type 2" "$FV" format data newhash --format=2
refuse "hash offset not a multiple of 512" 1 "--hash-offset: 100 is not a multiple of 512" \
	"$FV" format data newhash --hash-offset=100
refuse "bad uuid" 1 "--uuid: 'bad' is not a UUID" "$FV" format data newhash --uuid=bad
refuse "empty uuid" 1 "--uuid: '' is not a UUID" "$FV" format data newhash --uuid=
check "no hash file made by any refused format" test ! -e newhash

# Files.
refuse "missing data device" 4 "nodata: does not exist or access denied" "$FV" format nodata newhash
refuse "missing data device (verify)" 4 "nodata: does not exist" "$FV" verify nodata hash "$R"
refuse "missing hash device (verify)" 4 "nohash: does not exist" "$FV" verify data nohash "$R"
refuse "missing hash device (dump)" 4 "nohash: does not exist" "$FV" dump nohash
# one argument: what was typed is named, never a file beside it
refuse "a missing image alone (a typo): the name typed" 4 "sytem.img: does not exist" "$FV" verify sytem.img
check "  and not the sidecar tree it would have" sh -c "! grep -q 'sytem.img.verity' '$T/err' && test \$(wc -l <'$T/err') = 1"
head -c 8192 data >vbmeta.img
refuse "a file that is no known image, alone: named, with what to give" 4 "vbmeta.img: not an image fastverity knows alone .* and no vbmeta.img.verity beside it: give its hash device and root hash \\(verify vbmeta.img HASH_DEVICE ROOT_HASH\\)" "$FV" verify vbmeta.img
check "  in one line, no 'valid VERITY device' about the sidecar" sh -c "test \$(wc -l <'$T/err') = 1"
rm -f vbmeta.img
refuse "hash in a missing directory (exit 1, as veritysetup)" 1 "nodir/h: cannot create the hash image" "$FV" format data nodir/h
mkdir adir
refuse "a directory as data (exit 4, as veritysetup)" 4 "adir: a directory, not a regular file or block device" "$FV" format adir newhash
refuse "a directory as the hash image (exit 4)" 4 "adir: cannot create the hash image: Is a directory" "$FV" format data adir
refuse "a directory as the FEC file: named as one (exit 4)" 4 "adir: cannot create the FEC file: Is a directory" "$FV" format data newhash --fec-device=adir
: >empty
refuse "empty data device" 1 "empty: device is empty" "$FV" format empty newhash
refuse "dump of a file without superblock" 1 "data: not a valid VERITY device" "$FV" dump data
refuse "dump of a tiny file" 1 "empty: not a valid VERITY device" "$FV" dump empty
refuse "wrong root length" 1 "invalid root hash string" "$FV" verify data hash 00
refuse "root not hex" 1 "invalid root hash string" "$FV" verify data hash "$(printf 'g%.0s' $(seq 64))"

# Damaged superblocks and layouts.
cp hash badsb
printf '\002' | dd of=badsb bs=1 seek=8 conv=notrunc status=none
refuse "superblock version 2" 1 "badsb: unsupported VERITY version 2" "$FV" dump badsb
refuse "superblock version 2 (verify)" 1 "badsb: unsupported VERITY version 2" "$FV" verify data badsb "$R"
cp hash bigsb
printf '\377\377\377\377' | dd of=bigsb bs=1 seek=72 conv=notrunc status=none
refuse "superblock data blocks past the device" 1 "data: device has 1228800 bytes, fewer than 4294967295 data blocks" \
	"$FV" verify data bigsb "$R"
head -c 12288 hash >shorthash
refuse "truncated hash device" 1 "shorthash: device has 12288 bytes, the hash tree needs 20480" \
	"$FV" verify data shorthash "$R"
refuse "truncated data device" 1 "odd2: device has 4096 bytes, fewer than 300 data blocks" \
	sh -c "head -c 4096 data >odd2; exec \"$FV\" verify odd2 hash $R"

# Hints where the cause is knowable, each one line under veritysetup's
# words.
gen 12 $((64 * 4096)) >img1
"$FV" format img1 img1 --hash-offset=$((64 * 4096)) --salt="$SALT" >fmt1
check "a one-file image verified without --hash-offset" run_rc 1 "$FV" verify img1 img1 "$(root_of fmt1)"
check "  veritysetup's words first" sh -c "head -1 '$T/err' | grep -qx 'Device img1 is not a valid VERITY device.'"
check "  where the superblock is" grep -qx "fastverity: img1 has a verity superblock at byte 262144: add --hash-offset=262144" "$T/err"
check "swapped data and hash" run_rc 1 "$FV" verify hash data "$(printf '%064d' 0)"
check "  named" grep -qx "fastverity: hash holds a verity superblock and data does not: are the arguments swapped? (<data_device> <hash_device>)" "$T/err"
# Issue 53, 20: format with the data and hash swapped would write the
# data's small tree over the image (truncating it): an existing file with
# no superblock, larger than the data and the tree, is refused in one
# line that names the swap and says what to do.
refuse "format with data and hash swapped" 1 \
	"data: 1228800 bytes with no verity superblock, larger than the data hash \\(20480 bytes\\): are the data and hash swapped\\? Nothing written; if it is the hash image, delete it first" \
	"$FV" format hash data
check "  one line" test "$(wc -l <"$T/err")" = 1
check "  no temporary file left" sh -c "! ls -a | grep -q '^\.data\.'"
gen 22 $((8 * 4096)) >small
cp hash oldhash
check "an old hash image larger than the data (it has a superblock) is formatted over" \
	run_rc 0 "$FV" format small oldhash --salt=$SALT
check "  and keeps its size" test "$(stat -c %s oldhash)" = 20480
truncate -s $((4 << 20)) region
check "a tree placed at an offset of a larger file is not taken for a swap" \
	run_rc 0 "$FV" format small region --hash-offset=$((2 << 20)) --salt=$SALT
echo "$(printf '%064d' 0)" >rootfile
check "a root hash argument that is a file" run_rc 1 "$FV" verify data hash rootfile
check "  veritysetup's words first" sh -c "head -1 '$T/err' | grep -qx 'Invalid root hash string specified.'"
check "  says how to give it" grep -qx "fastverity: 'rootfile' is a file: give it with --root-hash-file=rootfile" "$T/err"
check "the same for sign" run_rc 1 "$FV" sign --key k --cert c rootfile out.p7s
check "  says how to give it" grep -qx "fastverity: 'rootfile' is a file: give it with --root-hash-file=rootfile" "$T/err"
check "--hash=md5 warns" run_rc 0 "$FV" format data md5hash --hash=md5
check "  in one line" grep -q "^fastverity: warning: md5 is broken" "$T/err"
rm -f md5hash

# Command line.
check "unknown action" run_rc 1 "$FV" frobnicate
check "unknown action names it" grep -q "unknown action 'frobnicate'" "$T/err"
check "missing arguments" run_rc 1 "$FV" format data
check "missing arguments message" grep -q "format: requires <data_device> <hash_device>" "$T/err"
check "unknown option" run_rc 1 "$FV" --frobnicate format data hash
check "  the error, and where the options are: three lines at most" test "$(wc -l <"$T/err")" -le 3
check "  no screen of usage after it" sh -c "! grep -q 'Usage:' '$T/err'"
check "a misspelt option" run_rc 1 "$FV" verify data hash --root-hash-fil=root
check "  names the one meant" grep -qx "fastverity: did you mean --root-hash-file?" "$T/err"
check "  and where to look" grep -qx "fastverity: 'fastverity ACTION --help' lists an action's options." "$T/err"
check "a misspelt option with a value after it" run_rc 1 "$FV" format data hash --fec-rots 2
check "  names the one meant" grep -qx "fastverity: did you mean --fec-roots?" "$T/err"
check "help of no action" run_rc 1 "$FV" help frobnicate
check "  names it" grep -qx "fastverity: help: no action 'frobnicate' (fastverity help lists the actions)" "$T/err"
check "no action" run_rc 1 "$FV"

# verify and dump never write: files unchanged, and they work on files
# that cannot be opened for writing.
chmod 0444 data hash
"$FV" verify data hash "$R"
check "verify leaves both files unchanged" sums_same
"$FV" dump hash >/dev/null
check "dump leaves the hash file unchanged" sums_same
check "verify opens read-only" sh -c "strace -f -e trace=openat \"$FV\" verify data hash $R 2>&1 | grep -E '\"(data|hash)\"' | grep -qv O_RDWR"

# The same exit code as veritysetup for each bad input it handles sanely.
chmod 0644 data hash
while IFS='|' read -r what args; do
	[ -n "$what" ] || continue
	# shellcheck disable=SC2086
	$VS $args >/dev/null 2>&1
	vrc=$?
	# shellcheck disable=SC2086
	"$FV" $args >/dev/null 2>&1
	frc=$?
	if [ "$vrc" = "$frc" ]; then pass "exit code as veritysetup ($frc): $what"; else fail "exit code: $what: veritysetup $vrc, fastverity $frc"; fi
done <<CASES
unknown hash|format data h1 --hash=foo
block size|format data h1 --data-block-size=1000
hash type|format data h1 --format=2
salt not hex|format data h1 --salt=zz
bad uuid|format data h1 --uuid=bad
hash offset|format data h1 --hash-offset=100
missing data|format nodata h1
hash in a missing directory|format data nodir/h1
missing arguments|format data
unknown action|frobnicate
missing hash device|verify data nohash $R
missing data device|verify nodata hash $R
short root hash|verify data hash 00
wrong root hash|verify data hash $(printf '%s' "$R" | tr 0-9a-f 1-9a-f0)
no root hash|verify data hash
dump of data|dump data
dump of missing|dump nohash
CASES

finish
