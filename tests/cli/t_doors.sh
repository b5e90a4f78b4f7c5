# One front door: the same cases through the command (verify --json) and
# through the library (tests/cli/doors.c, the public API alone) give the
# same outcome: result, counts, the blocks named, the root-first verdict,
# the hashing path, and what the parity could repair.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
cc -std=c11 -I"$TOP" -o doors "$TOP/tests/cli/doors.c" "$TOP/libfastverity.a" \
	$(pkg-config --libs libcrypto popt json-c libisal zlib) -lfec -lpthread -lm ||
	{ fail "the library's door does not build"; exit 1; }

# both DATA HASH ROOT [FEC]: the fields both doors give, as jq sees them
both() {
	local fec=${4:+--fec-device=$4}
	# shellcheck disable=SC2086
	"$FV" verify --json "$1" "$2" "$3" $fec >cmd.json
	./doors "$@" >lib.json
	jq -S '{failures: [.failures[] | {type, position, block}],
		root_hash_matches, root_first, bad_data_blocks, bad_hash_blocks,
		bad_spare_areas, unreadable_blocks, unchecked_data_blocks,
		unchecked_hash_blocks, hashing_path,
		repairable: (.fec.repairable_blocks // 0)}' cmd.json >cmd.out 2>&1
	jq -S 'del(.intact)' lib.json >lib.out 2>&1
}
same() { # NAME: the two doors agree
	if cmp -s cmd.out lib.out; then pass "$1"; else
		fail "$1"
		diff cmd.out lib.out | sed 's/^/  /' >&2
	fi
}

gen 81 $((600 * 4096)) >d.orig
"$FV" format d.orig h.orig --fec-device=f.orig --salt=$SALT --uuid=$UUID >o.out
R=$(root_of o.out)
cp d.orig d; cp h.orig h
both d h "$R"
same "a clean image"
check "  (the library says intact, the fast path)" jqok '.intact and .hashing_path == "fast"' lib.json
printf 'X' | dd of=d bs=1 seek=$((77 * 4096 + 9)) conv=notrunc status=none
printf 'X' | dd of=d bs=1 seek=$((590 * 4096)) conv=notrunc status=none
both d h "$R"
same "two bad data blocks"
cp d.orig d
printf 'X' | dd of=h bs=1 seek=$((4096 * 3 + 40)) conv=notrunc status=none
both d h "$R"
same "a bad leaf hash block: blamed, its data unchecked"
cp h.orig h
W=$(printf '%s' "$R" | tr '0-9a-f' '1-9a-f0')
both d h "$W"
same "a wrong root hash: root first, no block judged"
check "  (root first in both)" jqok '.root_first' cmd.out
printf 'X' | dd of=d bs=1 seek=$((5 * 4096)) conv=notrunc status=none
both d h "$R" f.orig
same "with parity: what it could repair"
check "  (one block repairable)" jqok '.repairable == 1' lib.out
both d h "$W" f.orig
same "with parity and a wrong root hash: root first too"
# the generic path (sha512)
"$FV" format d.orig h512 --hash=sha512 --salt=$SALT >o512.out
both d.orig h512 "$(root_of o512.out)"
same "sha512: the generic path, named by both"
check "  (generic)" jqok '.hashing_path == "generic"' cmd.out

finish
