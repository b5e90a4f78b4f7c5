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

# ---- the trust table (docs/trust.md), through both doors ----
# expect CONTAINER SIGNATURE ANCHOR ACTION: the table's verdict, written
# here from the documentation, not from the code
expect() {
	local right=cert st
	[ "$1" = avb ] && right=key
	if [ "$3" = none ]; then st=none; elif [ "$3" = $right ]; then st=right; else st=wrong; fi
	case $2:$st:$4 in
	none:none:*) echo unsigned ;;
	none:right:*) echo EPERM ;;
	*:wrong:*) echo EINVAL ;;
	found:none:read) echo unchecked ;;
	found:none:write) echo EINVAL ;;
	given:none:*) echo EINVAL ;;
	*:right:*) echo check ;;
	esac
}
class() { case $1 in unsigned | check | unchecked) echo ok ;; *) echo "$1" ;; esac; }
rows=0 wrong=0
for c in plain sidecar avb ddi; do
	for sig in none found given; do
		for anchor in none cert key; do
			for act in read write; do
				want=$(expect $c $sig $anchor $act)
				got=$(./doors trust $c $sig $anchor $act 2>/dev/null | sed 's/^error //')
				rows=$((rows + 1))
				[ "$got" = "$want" ] || { wrong=$((wrong + 1)); echo "  library: $c $sig $anchor $act: $got, the table says $want" >&2; }
			done
		done
	done
done
check "the library's policy: all $rows rows of the table" test $wrong = 0

# the command on real images, and the library's actions where it has them:
# each row's exit (0 ok, 1 EINVAL, 2 EPERM) as the table says
cp -r "$TOP/tests/avb/keys" .
openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -subj /CN=trust-table -days 2 >/dev/null 2>&1
anchor_opt() { # CONTAINER ANCHOR
	case $2 in cert) echo "--trusted-cert=c.pem" ;; key) echo "--key=keys/rsa2048.pem" ;; esac
}
cmd_class() { # CMD...: the exit's class
	"$@" >"$T/out" 2>"$T/err"
	case $? in
	0) echo ok ;;
	1) if grep -q 'holds no parity' "$T/err"; then echo ok; else echo EINVAL; fi ;;
	2) echo EPERM ;;
	*) echo "exit $?" ;;
	esac
}
row() { # CONTAINER SIG ANCHOR ACTION GOT
	local want
	want=$(class "$(expect "$1" "$2" "$3" "$4")")
	rows=$((rows + 1))
	[ "$5" = "$want" ] || { wrong=$((wrong + 1)); echo "  $6: $1 $2 $3 $4: $5, the table says $want" >&2; sed 's/^/    | /' "$T/err" >&2; }
}
gen 82 $((200 * 4096)) >p.data
"$FV" format p.data p.hash --fec-device=p.fec --fec-roots=2 >p.out
PR=$(root_of p.out)
"$FV" sign --key k.pem --cert c.pem "$PR" p.p7s
gen 83 $((200 * 4096)) >os.raw; cp os.raw un.raw
"$FV" format --sidecar os.raw --key k.pem --cert c.pem --fec-roots=2 >/dev/null
"$FV" format --sidecar un.raw --fec-roots=2 >/dev/null
"$FV" sign --key k.pem --cert c.pem "$(cat un.raw.roothash 2>/dev/null || cat un.roothash)" un.p7s
gen 84 $((200 * 4096)) >s.img; cp s.img u.img
"$FV" avb add_hashtree_footer --image s.img --partition_name system --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048 2>/dev/null
"$FV" avb add_hashtree_footer --image u.img --partition_name system --fec_num_roots 2
rows=0 wrong=0
for anchor in none cert key; do
	for act in read write; do
		if [ $act = read ]; then verb=verify; else verb=repair; fi
		# shellcheck disable=SC2046
		row plain none $anchor $act "$(cmd_class "$FV" $verb p.data p.hash "$PR" --fec-device=p.fec $(anchor_opt plain $anchor))" command
		# shellcheck disable=SC2046
		row plain given $anchor $act "$(cmd_class "$FV" $verb p.data p.hash "$PR" --fec-device=p.fec --root-hash-signature=p.p7s $(anchor_opt plain $anchor))" command
		# shellcheck disable=SC2046
		row sidecar found $anchor $act "$(cmd_class "$FV" $verb os.raw $(anchor_opt sidecar $anchor))" command
		# shellcheck disable=SC2046
		row sidecar none $anchor $act "$(cmd_class "$FV" $verb un.raw $(anchor_opt sidecar $anchor))" command
		# shellcheck disable=SC2046
		row sidecar given $anchor $act "$(cmd_class "$FV" $verb un.raw --root-hash-signature=un.p7s $(anchor_opt sidecar $anchor))" command
		# shellcheck disable=SC2046
		row avb found $anchor $act "$(cmd_class "$FV" $verb s.img $(anchor_opt avb $anchor))" command
		# shellcheck disable=SC2046
		row avb none $anchor $act "$(cmd_class "$FV" $verb u.img $(anchor_opt avb $anchor))" command
		# the library's own actions: plain pairs and Android images
		[ $anchor = key ] || row plain none $anchor $act "$(./doors pair $verb p.data p.hash "$PR" - "$([ $anchor = cert ] && echo c.pem || echo -)" p.fec 2>"$T/err" | awk '{print $1 == "ok" ? "ok" : $2}')" library
		[ $anchor = key ] || row plain given $anchor $act "$(./doors pair $verb p.data p.hash "$PR" p.p7s "$([ $anchor = cert ] && echo c.pem || echo -)" p.fec 2>"$T/err" | awk '{print $1 == "ok" ? "ok" : $2}')" library
		[ $anchor = cert ] || row avb found $anchor $act "$(./doors avb $verb s.img "$([ $anchor = key ] && echo keys/rsa2048.pem || echo -)" 2>"$T/err" | awk '{print $1 == "ok" ? "ok" : $2}')" library
		[ $anchor = cert ] || row avb none $anchor $act "$(./doors avb $verb u.img "$([ $anchor = key ] && echo keys/rsa2048.pem || echo -)" 2>"$T/err" | awk '{print $1 == "ok" ? "ok" : $2}')" library
	done
done
check "plain pairs, sidecar and Android images: $rows rows through the command and the library, as the table says" test $wrong = 0
# dump through both doors: the Android image's pair as the library lays
# it out, and as the command prints it
./doors dump s.img >dump.lib 2>dump.err
"$FV" dump --json s.img | jq -r '"\(.tree_offset) \(.hash_blocks) \(.levels) \(.fec.roots // 0) \(.root_hash)"' >dump.cmd
check "an Android image dumped the same by the library and the command" sh -c "test -s dump.lib && cmp -s dump.lib dump.cmd"
check "  the library says a signed vbmeta read without a key is unchecked" sh -c "./doors avb verify s.img - | grep -qx 'ok unchecked'"
check "  and checked with its key" sh -c "./doors avb verify s.img keys/rsa2048.pem | grep -qx 'ok check'"
check "  the registry through the library: an Android image" sh -c "./doors container s.img | grep -qx avb && ./doors container os.raw | grep -qx sidecar"
if command -v systemd-repart >/dev/null; then
	gen 85 $((4 << 20)) >ddi.data
	repart_defs signed.d "$T/ddi.data" sig
	repart_defs unsigned.d "$T/ddi.data"
	systemd-repart --empty=create --size=auto --definitions=signed.d --private-key=k.pem --certificate=c.pem \
		--dry-run=no --seed=0e8b1f3c-5a7d-4e21-9c6b-2f4d8a1e3b57 signed.raw >/dev/null 2>&1
	systemd-repart --empty=create --size=auto --definitions=unsigned.d --dry-run=no \
		--seed=0e8b1f3c-5a7d-4e21-9c6b-2f4d8a1e3b57 unsigned.raw >/dev/null 2>&1
	rows=0 wrong=0
	for anchor in none cert key; do
		for act in read write; do
			if [ $act = read ]; then verb=verify; else verb=repair; fi
			# shellcheck disable=SC2046
			row ddi found $anchor $act "$(FASTVERITY_VERITY_D=/nonexistent cmd_class "$FV" $verb signed.raw $(anchor_opt ddi $anchor))" command
			# shellcheck disable=SC2046
			row ddi none $anchor $act "$(FASTVERITY_VERITY_D=/nonexistent cmd_class "$FV" $verb unsigned.raw $(anchor_opt ddi $anchor))" command
		done
	done
	check "disk images: $rows rows through the command, as the table says" test $wrong = 0
	check "  the registry through the library: a disk image" sh -c "./doors container signed.raw | grep -qx ddi"
	# the same description through both doors
	for img in signed.raw unsigned.raw; do
		./doors ddi $img >ddi.lib 2>ddi.err
		"$FV" dump --json $img | jq -r '"disk \(.disk_uuid)", (.partitions[] | "\(.role) \(.architecture) \(.data.index) \(.hash.index) \(.signature.index // 0) \(.root_hash) \(.signer)")' >ddi.cmd
		check "  $img described the same by the library and dump --json" sh -c "test -s ddi.lib && cmp -s ddi.lib ddi.cmd"
		./doors dump $img >dump.lib 2>dump.err
		"$FV" dump --json $img | jq -r '.partitions[] | "\(.tree_offset) \(.hash_blocks) \(.levels) \(.fec.roots // 0) \(.root_hash)"' >dump.cmd
		check "  $img dumped the same by the library and the command" sh -c "test -s dump.lib && cmp -s dump.lib dump.cmd"
	done
	have_ddi=1
else
	skip "disk images through the trust table: systemd-repart is not installed"
	have_ddi=0
fi

# docs/library.md's program, every container through <fastverity.h>
sed -n '/^### One program, every container/,/^The command line is one user/p' "$TOP/docs/library.md" |
	sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >every.c
check "docs/library.md's program builds against the header alone" \
	cc -std=c11 -Wall -Wextra -Werror -I"$TOP/include" -o every every.c "$TOP/libfastverity.a" \
	$(pkg-config --libs libcrypto popt json-c libisal zlib) -lfec -lpthread -lm
printf 'X' | dd of=p.data bs=1 seek=$((17 * 4096 + 5)) conv=notrunc status=none
printf 'X' | dd of=s.img bs=1 seek=$((33 * 4096 + 5)) conv=notrunc status=none
if [ "$have_ddi" = 1 ]; then
	D=$("$FV" dump --json signed.raw | jq '.partitions[0].data.offset')
	printf 'X' | dd of=signed.raw bs=1 seek=$((D + 5 * 512 + 3)) conv=notrunc status=none
	./every p.data p.hash "$PR" s.img keys/rsa2048.pem signed.raw c.pem >every.out 2>every.err
else
	./every p.data p.hash "$PR" s.img keys/rsa2048.pem >every.out 2>every.err
fi
check "  it names each bad block: the plain pair's" grep -qx 'p.data: bad data block 17 (byte 69632, level 0)' every.out
check "  the Android image's, against its key" sh -c "grep -qx 's.img: bad data block 33 (byte 135168, level 0)' every.out && grep -qx 's.img system: damaged' every.out"
if [ "$have_ddi" = 1 ]; then
	check "  the disk image's, against its certificate" sh -c "grep -qx 'signed.raw: bad data block 5 (byte 2560, level 0)' every.out && grep -qx 'signed.raw root-x86-64: damaged' every.out"
	check "  and the command says the same blocks" sh -c "'$FV' verify signed.raw --trusted-cert=c.pem 2>&1 | grep -q 'Verification failed at position 2560 '"
fi

finish
