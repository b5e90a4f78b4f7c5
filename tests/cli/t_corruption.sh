# Corruption of a data block, of a block at each tree level, of padding and
# of the root: each reported at the right position with the right exit
# code, every failure listed, and veritysetup agrees on the verdict.
. "$(dirname "$0")/lib.sh"

# 5000 blocks of 512 bytes, sha256: 16 digests a block, so 4 levels of
# 313, 20, 2 and 1 blocks; with the superblock in block 0 the tree holds
# level 3 at block 1, level 2 at 2-3, level 1 at 4-23, level 0 at 24-336.
gen 11 $((5000 * 512)) >"$T/data"
P="--data-block-size=512 --hash-block-size=512 --salt=$SALT --uuid=$UUID"
# shellcheck disable=SC2086
"$FV" format "$T/data" "$T/hash" $P >"$T/fmt"
R=$(root_of "$T/fmt")
check "4 levels, 336 hash blocks" grep -q $'^Hash blocks:     \t336$' "$T/fmt"

check "clean image verifies" run_rc 0 "$FV" verify "$T/data" "$T/hash" "$R"
check "clean verify prints nothing" test ! -s "$T/out" -a ! -s "$T/err"

# verdict NAME WANT_RC EXPECTED_STDERR_FILE: fastverity's exit code and
# lines, and veritysetup's exit code on the same files.
verdict() {
	local name=$1 want=$2
	run_rc "$want" "$FV" verify "$T/d" "$T/h" "$R"
	local frc=$?
	if [ $frc = 0 ] && diff "$T/want" "$T/err" >&2; then pass "$name"; else fail "$name"; fi
	$VS verify "$T/d" "$T/h" "$R" 2>/dev/null
	local vrc=$?
	if [ "$vrc" = "$want" ]; then pass "$name: veritysetup agrees ($vrc)"; else fail "$name: veritysetup exits $vrc"; fi
}

reset() { files_copy "$T/data" "$T/d" "$T/hash" "$T/h"; }

reset
flip "$T/d" $((1234 * 512 + 17))
printf '%s\n' "Verification failed at position 631808." \
	"Verification of data area failed: 1 bad data block, 0 bad hash blocks, 0 bad spare areas." >"$T/want"
verdict "one bad data block" 2

reset
flip "$T/d" 0
flip "$T/d" $((2500 * 512))
flip "$T/d" $((4999 * 512 + 511))
printf '%s\n' "Verification failed at position 0." "Verification failed at position 1280000." \
	"Verification failed at position 2559488." \
	"Verification of data area failed: 3 bad data blocks, 0 bad hash blocks, 0 bad spare areas." >"$T/want"
verdict "three bad data blocks, all reported" 2

# A bad hash block is the block blamed: it fails against its proven
# parent, and what lies under it cannot be checked (counted, not listed).
# A digest in a level-0 block: that block, and its 16 data blocks
# unchecked.
reset
flip "$T/h" $((30 * 512 + 3 * 32))
printf '%s\n' "Verification failed at position $((30 * 512))." \
	"Verification of data area failed: 0 bad data blocks, 1 bad hash block, 0 bad spare areas." \
	"Under a bad or unreadable hash block, not checked: 16 data blocks, 0 hash blocks." >"$T/want"
verdict "bad digest at level 0: the level-0 block blamed, its data unchecked" 2

# A level-1 block: itself, with 16 level-0 blocks and 256 data blocks
# under it.
reset
flip "$T/h" $((5 * 512 + 2 * 32))
printf '%s\n' "Verification failed at position $((5 * 512))." \
	"Verification of data area failed: 0 bad data blocks, 1 bad hash block, 0 bad spare areas." \
	"Under a bad or unreadable hash block, not checked: 256 data blocks, 16 hash blocks." >"$T/want"
verdict "bad digest at level 1: the level-1 block blamed" 2

# The second level-2 block covers level-1 blocks 16-19, level-0 blocks
# 256-312 and data blocks 4096-4999.
reset
flip "$T/h" $((3 * 512 + 1 * 32))
printf '%s\n' "Verification failed at position $((3 * 512))." \
	"Verification of data area failed: 0 bad data blocks, 1 bad hash block, 0 bad spare areas." \
	"Under a bad or unreadable hash block, not checked: 904 data blocks, 61 hash blocks." >"$T/want"
verdict "bad digest at level 2: the level-2 block blamed" 2

# A bad digest in the top block: the top is blamed; the top rebuilt from
# its children proves the root hash right, and so the children, so
# nothing is left unchecked.
reset
flip "$T/h" $((1 * 512 + 1 * 32))
printf '%s\n' "Verification failed at position 512." \
	"Verification of data area failed: 0 bad data blocks, 1 bad hash block, 0 bad spare areas." >"$T/want"
verdict "bad digest at level 3 (top): the top block blamed" 2

# Damage on two levels at once: a level-1 block, a level-0 block under it
# (unchecked, not blamed), and a data block elsewhere.
reset
flip "$T/h" $((5 * 512 + 2 * 32))
flip "$T/h" $(( (24 + 16 + 5) * 512 + 9 ))
flip "$T/d" $((4500 * 512))
printf '%s\n' "Verification failed at position $((5 * 512))." \
	"Verification failed at position $((4500 * 512))." \
	"Verification of data area failed: 1 bad data block, 1 bad hash block, 0 bad spare areas." \
	"Under a bad or unreadable hash block, not checked: 256 data blocks, 16 hash blocks." >"$T/want"
verdict "two levels damaged: the top-most failing node and the data block" 2

# Padding: the last level-0 block holds 5000 - 312 * 16 = 8 digests; the
# block fails against its parent, and its spare area says where.
reset
flip "$T/h" $((336 * 512 + 8 * 32 + 5))
printf '%s\n' "Verification failed at position $((336 * 512))." \
	"Spare area is not zeroed at position $((336 * 512 + 8 * 32))." \
	"Verification of data area failed: 0 bad data blocks, 1 bad hash block, 1 bad spare area." \
	"Under a bad or unreadable hash block, not checked: 8 data blocks, 0 hash blocks." >"$T/want"
verdict "non-zero padding in a level-0 block" 2

# Padding of the top block: the top block holds 2 digests; its children
# rebuild a top that the root proves, so the top block is damaged.
reset
flip "$T/h" $((512 + 2 * 32 + 1))
printf '%s\n' "Verification failed at position 512." \
	"Spare area is not zeroed at position $((512 + 2 * 32))." \
	"Verification of data area failed: 0 bad data blocks, 1 bad hash block, 1 bad spare area." >"$T/want"
verdict "non-zero padding in the top block" 2

# Wrong root: exit 1, as veritysetup.
reset
R0=$R
R=$(printf '%s' "$R0" | tr '0123456789abcdef' '123456789abcdef0')
printf '%s\n' "Verification of root hash failed." \
	"fastverity: the top of the tree does not match the root hash, so no block was checked: the root hash, or a parameter (salt, block sizes, hash algorithm, data blocks, hash offset), is likely wrong" >"$T/want"
verdict "wrong root hash" 1
R=$R0

# format 1 with sha1: the 12 padding bytes after each digest are checked.
gen 12 $((40 * 4096)) >"$T/d"
"$FV" format "$T/d" "$T/h" --hash=sha1 --salt=$SALT >"$T/fmt"
R=$(root_of "$T/fmt")
flip "$T/h" $((4096 + 5 * 32 + 25))
printf '%s\n' "Verification failed at position 4096." \
	"Spare area is not zeroed at position $((4096 + 5 * 32 + 20))." \
	"Verification of data area failed: 0 bad data blocks, 1 bad hash block, 1 bad spare area." >"$T/want"
verdict "sha1 slot padding" 2

# --json lists every failure with its type, position and level.
reset
R=$R0
flip "$T/d" $((10 * 512))
flip "$T/h" $((5 * 512 + 2 * 32))
"$FV" verify --json "$T/d" "$T/h" "$R" >"$T/j"
check "--json exits 2 on corruption" test $? = 2
check "--json failures: top-down, the hash block blamed first" test "$(jq -c '[.failures[] | [.type, .position, (.level // -1)]]' "$T/j")" = \
	"[[\"hash\",2560,1],[\"data\",5120,-1]]"
check "--json counts" test "$(jq -c '[.result, .bad_data_blocks, .bad_hash_blocks, .bad_spare_areas, .root_hash_matches, .unchecked_data_blocks, .unchecked_hash_blocks, .unreadable_blocks]' "$T/j")" = \
	'["corrupted",1,1,0,true,256,16,0]'

# The one-file layout reports hash positions in the shared file.
gen 13 $((300 * 4096)) >"$T/one"
"$FV" format "$T/one" "$T/one" --hash-offset=$((300 * 4096)) --salt=$SALT >"$T/fmt"
R=$(root_of "$T/fmt")
flip "$T/one" $((300 * 4096 + 4096 * 3 + 7))
run_rc 2 "$FV" verify "$T/one" "$T/one" "$R" --hash-offset=$((300 * 4096))
check "one file: bad hash block at its file offset" grep -qx "Verification failed at position $((300 * 4096 + 4096 * 3))." "$T/err"

finish
