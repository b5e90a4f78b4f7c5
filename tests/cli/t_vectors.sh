# The known vectors (docs/format.md: 8 MiB of zero bytes, data block size =
# hash block size), through the command, and through veritysetup.
. "$(dirname "$0")/lib.sh"

head -c $((8 << 20)) /dev/zero >"$T/zero"
while read -r bs hash fmt salt root; do
	[ "$salt" = none ] && salt=-
	[ "$salt" = S ] && salt=$SALT
	args="--data-block-size=$bs --hash-block-size=$bs --hash=$hash --format=$fmt --salt=$salt"
	# shellcheck disable=SC2086
	got=$("$FV" format "$T/zero" "$T/h" $args | awk -F'\t' '/^Root hash:/{print $2}')
	check "vector $bs $hash format $fmt salt ${#salt}: fastverity" test "$got" = "$root"
	# shellcheck disable=SC2086
	got=$($VS format "$T/zero" "$T/h" $args | awk -F'\t' '/^Root hash:/{print $2}')
	check "vector $bs $hash format $fmt salt ${#salt}: veritysetup" test "$got" = "$root"
done <<'VECTORS'
512 sha256 1 S 9de18652fe74edfb9b805aaed72ae2aa48f94333f1ba5c452ac33b1c39325174
1024 sha256 1 S 54d92778750495d1f80832b486ebd007617d746271511bbf0e295e143da2b3df
4096 sha256 1 S e522df0f97da4febb882ac40f30b37dc0b444bf6df418929463fa25280f09d5c
4096 sha256 0 S cbbf4ebd004ef65e29b935bb635a39cf754d677f3fa10b0126da725bbdf10f7d
4096 sha256 1 none ef29c902d87350f1da4bfa536e16cebc162a909bf89abe448b81ec500d4fb9bf
1024 sha1 1 S d0e9163ca8844aaa2e88fe5265a8c5d9ee494a99
1024 sha1 1 dadada 73509e8e868be6b8ac939817a98a3d35121413b2
VECTORS

# The portable SHA-256 path gives the same tree as the SHA-NI one.
FASTVERITY_SHA256=portable "$FV" format "$T/zero" "$T/h" --salt=$SALT --debug >"$T/o" 2>"$T/e"
check "portable path: vector" test "$(root_of "$T/o")" = e522df0f97da4febb882ac40f30b37dc0b444bf6df418929463fa25280f09d5c
check "portable path: --debug says so" grep -q 'kernel portable C' "$T/e"

finish
