# update against veritysetup: random parameter sets (t_sweep's), random
# images formatted by veritysetup, random bytes changed in random ranges,
# then fastverity update (given the ranges, or finding them itself in
# one case of three) against a fresh veritysetup format of the changed
# data with the same salt and UUID: the same root, and byte-identical
# hash image and parity. make check runs UPDATE_CASES (12) cases from a
# fixed seed, `make sweep` 200 from a new one (UPDATE_SEED=N repeats a
# run). Then the refusals: a wrong old root, a damaged tree, ranges past
# the data, all with nothing written; an interrupted update, said by
# verify and dump, completed by running it again (without --changed once
# the leaves over the change were rewritten); a planted marker; data
# grown past the tree.
. "$(dirname "$0")/lib.sh"

seed=${UPDATE_SEED:-20261202}
cases=${UPDATE_CASES:-12}
RANDOM=$seed
hashes=(sha1 sha256 sha256 sha512)
sizes=(512 1024 4096 4096 8192)
gen 9 $((32 << 20)) >"$T/pool"
bad=0
for i in $(seq "$cases"); do
	fmt=$((RANDOM % 2)) hash=${hashes[$((RANDOM % ${#hashes[@]}))]}
	dbs=${sizes[$((RANDOM % ${#sizes[@]}))]} hbs=${sizes[$((RANDOM % ${#sizes[@]}))]}
	[ $((RANDOM % 2)) = 0 ] && hbs=$dbs
	blocks=$(((RANDOM * 32768 + RANDOM) % ((16 << 20) / dbs) + 1))
	[ $((RANDOM % 3)) = 0 ] && blocks=$((RANDOM % 300 + 1))
	salt=$(head -c $((RANDOM % 70)) "$T/pool" | od -An -tx1 | tr -d ' \n')
	roots=0
	[ "$dbs" = "$hbs" ] && [ $((RANDOM % 3)) = 0 ] && roots=$((RANDOM % 23 + 2))
	head -c $((blocks * dbs)) "$T/pool" >"$T/data"
	params="--format=$fmt --hash=$hash --data-block-size=$dbs --hash-block-size=$hbs --salt=${salt:--}"
	protected=$blocks
	uargs=""
	if [ $((RANDOM % 5)) = 0 ]; then
		protected=$((RANDOM % blocks + 1))
		params="$params --data-blocks=$protected"
		# the data holds more than the tree: said again to update
		uargs="--data-blocks=$protected"
	fi
	if [ $((RANDOM % 5)) = 0 ]; then
		params="$params --no-superblock --hash-offset=$((RANDOM % 8 * hbs))"
		uargs=$params
	fi
	what="seed $seed case $i: $blocks blocks, $params"
	rm -f "$T/old.h" "$T/new.h" "$T/old.fec" "$T/new.fec"
	vf="" uf="" vnf=""
	if [ $roots != 0 ]; then
		what="$what --fec-roots=$roots"
		vf="--fec-device=$T/old.fec --fec-roots=$roots"
		uf="--fec-device=$T/upd.fec --fec-roots=$roots"
		vnf="--fec-device=$T/new.fec --fec-roots=$roots"
	fi
	# shellcheck disable=SC2086
	$VS format "$T/data" "$T/old.h" $params --uuid=$UUID $vf >"$T/vs.out" 2>&1 ||
		{ bad=$((bad + 1)); echo "  veritysetup refused: $what" >&2; continue; }
	old=$(root_of "$T/vs.out")
	# 1 to 6 ranges of 1 byte to 3 blocks, their bytes changed
	ranges=""
	for _ in $(seq $((RANDOM % 6 + 1))); do
		len=$((RANDOM % (3 * dbs) + 1))
		at=$(((RANDOM * 32768 + RANDOM) % (protected * dbs)))
		[ $((at + len)) -gt $((protected * dbs)) ] && len=$((protected * dbs - at))
		head -c "$len" /dev/urandom | dd of="$T/data" bs=1 seek="$at" conv=notrunc status=none
		ranges="$ranges${ranges:+,}$at:$len"
	done
	changed="--changed=$ranges"
	[ $((RANDOM % 3)) = 0 ] && changed="" && what="$what (finding the changed blocks)"
	cp "$T/old.h" "$T/upd.h"
	[ $roots = 0 ] || cp "$T/old.fec" "$T/upd.fec"
	# shellcheck disable=SC2086
	$VS format "$T/data" "$T/new.h" $params --uuid=$UUID $vnf >"$T/vs.out" 2>&1
	new=$(root_of "$T/vs.out")
	# shellcheck disable=SC2086
	if ! "$FV" update "$T/data" "$T/upd.h" "$old" $uargs $uf $changed >"$T/fv.out" 2>"$T/fv.err"; then
		bad=$((bad + 1)); echo "  update failed: $what: $(head -1 "$T/fv.err")" >&2
	elif [ "$(root_of "$T/fv.out")" != "$new" ] || ! cmp -s "$T/upd.h" "$T/new.h"; then
		bad=$((bad + 1)); echo "  root or hash image differs: $what $changed" >&2
	elif [ $roots != 0 ] && ! cmp -s "$T/upd.fec" "$T/new.fec"; then
		bad=$((bad + 1)); echo "  parity differs: $what $changed" >&2
	fi
done
check "$cases updates from seed $seed: the root, hash image and parity of a new veritysetup format" test $bad = 0

# a tree of one data block has no levels: its digest is the root, and
# the block changed is found as such (the random cases above meet it
# now and then)
head -c 8192 "$T/pool" >"$T/one"
$VS format "$T/one" "$T/one.h" --format=0 --hash=sha512 --data-blocks=1 --salt=4c1f973a78b1df --uuid=$UUID >"$T/vs.out"
old=$(root_of "$T/vs.out")
printf 'X' | dd of="$T/one" bs=1 seek=100 conv=notrunc status=none
$VS format "$T/one" "$T/one.new" --format=0 --hash=sha512 --data-blocks=1 --salt=4c1f973a78b1df --uuid=$UUID >"$T/vs.out"
check "one data block changed, found: updated" run_rc 0 "$FV" update "$T/one" "$T/one.h" "$old" --data-blocks=1
check "  as veritysetup formats it" sh -c "test '$(root_of "$T/vs.out")' = \"\$(awk -F'\t' '/^Root hash:/ {print \$2}' '$T/out')\" && cmp -s '$T/one.h' '$T/one.new'"

# ---- the refusals: nothing written ----
cd "$T" || exit 1
gen 21 $((256 * 4096)) >d
"$FV" format d h --salt=$SALT --uuid=$UUID --fec-device=f --fec-roots=2 --root-hash-file=r >/dev/null
R=$(cat r)
gen 22 4096 >blk
dd if=blk of=d bs=4096 seek=100 conv=notrunc status=none
cp h h.0 && cp f f.0
wrong=$(printf '%s' "$R" | sed 's/^\(.\)/\1/' | tr '0-9a-f' '1-9a-f0')
check "a wrong old root hash: refused" run_rc 2 "$FV" update d h "$wrong" --fec-device=f --changed=409600:4096
check "  naming the block that does not match it" grep -q "h: hash block 0 (level 1, at byte 4096) does not match the root hash: the old tree does not match the old root hash (a wrong root hash, or a damaged tree): nothing written" err
check "  nothing written" sh -c "cmp -s h h.0 && cmp -s f f.0"
flip h $((4096 + 8192 + 40))
cp h h.1
check "a damaged tree block: refused" run_rc 2 "$FV" update d h "$R" --fec-device=f --changed=409600:4096
check "  naming it" grep -q "h: hash block 2 (level 0, at byte 12288) does not match its parent" err
check "  nothing written" cmp -s h h.1
cp h.0 h
check "a range past the data: refused" run_rc 1 "$FV" update d h "$R" --changed=1048576:1
check "  naming it" grep -q "d: the changed range \[1048576, +1) lies past the data (1048576 bytes)" err
check "--changed that is not OFFSET:LENGTH: refused" run_rc 1 "$FV" update d h "$R" --changed=5
check "  nothing written" cmp -s h h.0
check "a root hash of the wrong size: refused" run_rc 1 "$FV" update d h abcd
check "three arguments" run_rc 1 "$FV" update d h

# ---- the new root, as format says it ----
veritysetup format d h.vs --salt=$SALT --uuid=$UUID --fec-device=f.vs --fec-roots=2 >vs.out
check "update: the new root, format's lines" run_rc 0 "$FV" update d h "$R" --fec-device=f --changed=409600:4096 --root-hash-file=r.new
check "  the root veritysetup gives" sh -c "test \"\$(awk -F'\t' '/^Root hash:/ {print \$2}' '$T/out')\" = \"\$(awk -F'\t' '/^Root hash:/ {print \$2}' vs.out)\""
check "  --root-hash-file written" sh -c "test \"\$(cat r.new)\" = \"\$(awk -F'\t' '/^Root hash:/ {print \$2}' vs.out)\""
check "  hash image and parity byte for byte" sh -c "cmp -s h h.vs && cmp -s f f.vs"
check "  verify of the result" run_rc 0 "$FV" verify d h "$(cat r.new)" --fec-device=f
check "again: nothing changed, nothing written" run_rc 0 "$FV" update d h "$(cat r.new)" --fec-device=f --json
check "  --json: 0 blocks" jqok '.root_hash != null and .update.changed_blocks == 0 and .update.hash_blocks_written == 0' out

# ---- interrupted: said by verify and dump, completed by a re-run ----
# under make check-asan the shim comes before the sanitizer's runtime
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
cc -shared -fPIC -O1 -o shim.so "$TOP/tests/fault/shim.c" -ldl || fail "the fault shim does not build"
cp h.0 h && cp f.0 f
FAULT_COUNT_FILE=cnt LD_PRELOAD=./shim.so "$FV_REAL" update d h "$R" --fec-device=f --changed=409600:4096 >/dev/null 2>&1
# each I/O call of the update made to fail in turn; where it leaves the
# marker, the same update again either completes it (the leaves over the
# change not yet rewritten: the tree is proven against the old root) or
# is refused with nothing written (they were: the old root can no longer
# be proven), and then a re-run without --changed completes it
early="" late="" odd=0
for n in $(seq "$(cat cnt)"); do
	cp h.0 h && cp f.0 f
	FAULT_AT=$n FAULT_KIND=eio LD_PRELOAD=./shim.so "$FV_REAL" update d h "$R" --fec-device=f --changed=409600:4096 >/dev/null 2>&1
	printf fvupdat | cmp -s -n 7 - h || continue
	cp h h.int && cp f f.int
	if "$FV_REAL" update d h "$R" --fec-device=f --changed=409600:4096 >/dev/null 2>err.n; then
		files_same h h.vs f f.vs || { odd=$((odd + 1)); echo "  EIO at call $n: completed, not veritysetup's bytes" >&2; }
		early=${early:-$n}
	elif [ $? = 2 ] && files_same h h.int f f.int && grep -q "only a re-run without changed ranges can complete" err.n &&
		"$FV_REAL" update d h "$R" --fec-device=f >/dev/null 2>&1 && files_same h h.vs f f.vs; then
		late=${late:-$n}
	else
		odd=$((odd + 1)); echo "  EIO at call $n: $(cat err.n)" >&2
	fi
done
check "an update interrupted at each call: completed by the same update (first at call ${early:-none}), or refused, nothing written, and completed without --changed (first at call ${late:-none})" \
	test $odd = 0 -a -n "$early" -a -n "$late"
cp h.0 h && cp f.0 f
FAULT_AT=$early FAULT_KIND=eio LD_PRELOAD=./shim.so "$FV_REAL" update d h "$R" --fec-device=f --changed=409600:4096 >/dev/null 2>&1
check "  verify calls it unfinished" run_rc 1 "$FV" verify d h "$R"
check "  in one line" grep -qx "fastverity: h: unfinished: an update of this hash image was interrupted (run the same fastverity update again)" err
check "  dump too" run_rc 1 "$FV" dump h
check "  the same update again completes it" run_rc 0 "$FV" update d h "$R" --fec-device=f --changed=409600:4096 --debug
check "    saying so" grep -q "an interrupted update completed" err
check "    veritysetup's bytes" files_same h h.vs f f.vs
cp h.0 h && cp f.0 f
FAULT_AT=$late FAULT_KIND=eio LD_PRELOAD=./shim.so "$FV_REAL" update d h "$R" --fec-device=f --changed=409600:4096 >/dev/null 2>&1
check "  another old root hash refused over the marker" run_rc 2 "$FV" update d h "$wrong" --fec-device=f
check "  the leaves over the change rewritten: --changed refused" run_rc 2 "$FV" update d h "$R" --fec-device=f --changed=409600:4096
check "    naming the block" grep -q "h: hash block 0 (level 1, at byte 4096) does not match the root hash: the tree does not match the old root hash" err
check "  a re-run finding the changes itself completes it" run_rc 0 "$FV" update d h "$R" --fec-device=f
check "    veritysetup's bytes" files_same h h.vs f f.vs

# ---- the marker is a hint, never a proof: a tree that vouches for a
# block outside --changed (7, changed too), and a marker naming the old
# root and that tree's root, are refused as a fresh update refuses them ----
cp d d.keep
printf EVIL | dd of=d bs=1 seek=$((7 * 4096 + 5)) conv=notrunc status=none
"$FV" format d h.evil --salt=$SALT --uuid=$UUID --root-hash-file=r.evil >/dev/null
hexbytes() { printf "$(printf '%s' "$1" | sed 's/../\\x&/g')"; }
printf 'fvupdat\0' | dd of=h.evil conv=notrunc status=none
hexbytes "$R" | dd of=h.evil bs=1 seek=344 conv=notrunc status=none
hexbytes "$(cat r.evil)" | dd of=h.evil bs=1 seek=408 conv=notrunc status=none
cp h.evil h.evil.0
check "a planted marker over a tree vouching for a block outside --changed: refused" run_rc 2 "$FV" update d h.evil "$R" --changed=409600:4096
check "  naming the block that does not match the old root" grep -q "h.evil: hash block 0 (level 1, at byte 4096) does not match the root hash: the tree does not match the old root hash" err
check "  nothing written" cmp -s h.evil h.evil.0
check "  no root given out" test ! -s out
cp d.keep d

# ---- the data grew: a tree's size is fixed ----
cp d d.grown && cat blk >>d.grown
cp h.0 h
check "data grown past the tree's blocks: refused" run_rc 1 "$FV" update d.grown h "$R" --changed=409600:4096
check "  saying so" grep -qx "fastverity: d.grown: 1052672 bytes, more than the 256 data blocks of 4096 bytes the tree covers, which would leave the rest unprotected: nothing written (a tree's size is fixed: format again, or give --data-blocks=256 if the bytes past them are not the tree's data)" err
check "  nothing written" cmp -s h h.0
check "  --data-blocks other than the superblock's: refused" run_rc 1 "$FV" update d.grown h "$R" --changed=409600:4096 --data-blocks=257
check "  --data-blocks=256: the rest is not the tree's" run_rc 0 "$FV" update d.grown h "$R" --changed=409600:4096 --data-blocks=256
check "    veritysetup's bytes" cmp -s h h.vs
# without a superblock the tree is taken to cover the whole device: one
# that grew within the last leaf block proves against the old root
gen 23 $((10 * 4096)) >d10
"$FV" format d10 h10 --no-superblock --salt=- --root-hash-file=r10 >/dev/null
cp h10 h10.0 && cat blk >>d10
check "no superblock, data grown: refused" run_rc 1 "$FV" update d10 h10 "$(cat r10)" --no-superblock --salt=- --changed=0:1
check "  saying so" grep -qx "fastverity: d10: the tree covers 10 data blocks, fewer than the 11 of the data (its leaf for block 10 is empty), which would leave the rest unprotected: nothing written (a tree's size is fixed: format again, or give --data-blocks=10 if the bytes past them are not the tree's data)" err
check "  nothing written" cmp -s h10 h10.0
check "  the new block in --changed: covered" run_rc 0 "$FV" update d10 h10 "$(cat r10)" --no-superblock --salt=- --changed=0:1,40960:4096 --root-hash-file=r11
"$FV" format d10 h11 --no-superblock --salt=- --root-hash-file=r11.f >/dev/null
check "    a format's root and bytes" sh -c "cmp -s r11 r11.f && cmp -s h10 h11"

# ---- Android images: add_hashtree_footer over a footer of the same
# tree rebuilds only what changed, byte for byte a full rebuild (the
# golden images' command lines, tests/avb/README.md), when the old
# vbmeta is signed by the key given; an unsigned one is rebuilt whole,
# to the same bytes ----
cp -r "$TOP/tests/avb/keys" .
mkdata() { "$TOP/build/mkimage" labels "$1" "$2"; }
avb_case() { # NAME LABEL SIZE ARGS...
	local name=$1 label=$2 size=$3
	shift 3
	mkdata "$label" "$size" >raw.img
	cp raw.img inc.img
	"$FV" avb add_hashtree_footer --image inc.img --partition_name "$name" "$@" >/dev/null 2>&1 ||
		{ fail "$name: the first footer"; return; }
	# bytes of the data changed, in the image and in the raw data
	for at in 5000 $((size / 2)) $((size - 3)); do
		printf 'CHG' | dd of=inc.img bs=1 seek="$at" conv=notrunc status=none
		printf 'CHG' | dd of=raw.img bs=1 seek="$at" conv=notrunc status=none
	done
	cp raw.img full.img
	"$FV" avb add_hashtree_footer --image full.img --partition_name "$name" "$@" >/dev/null 2>&1
	strace -f -e trace=pwrite64 -o writes "$FV" avb add_hashtree_footer --image inc.img --partition_name "$name" "$@" >/dev/null 2>&1
	check "$name: add_hashtree_footer again after a change: a full rebuild's bytes" cmp -s inc.img full.img
	case " $* " in
	*" --key "*) check "  in a few writes ($(grep -c pwrite64 writes))" test "$(grep -c pwrite64 writes)" -le 12 ;;
	esac
}
avb_case odm_dlkm avbgold-a 614400 --partition_size 786432 --hash_algorithm sha256 --block_size 4096 --salt 230257464e283eec086dbd3f09901dbde6073a729e4b84bbc0059ca96aa5b6bc --do_not_generate_fec
avb_case system avbgold-b 425984 --hash_algorithm sha256 --block_size 4096 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048 --rollback_index 7 --prop com.example.avbgold.build:golden-b
avb_case product_services avbgold-c 294912 --partition_size 655360 --hash_algorithm sha512 --block_size 4096 --salt dfb7ca1bf49264b927502d27d69329b722a8e39e8c4490399539e24747b65bff80ae04a07ffa1fadd6c0377a2540949718badc04ae41891503901432ce6f95d5 --fec_num_roots 8 --key keys/rsa4096.pem --algorithm SHA512_RSA4096 --rollback_index 1000
avb_case system_other avbgold-d 204800 --hash_algorithm sha1 --block_size 4096 --salt '' --do_not_generate_fec --key keys/rsa8192.pem --algorithm SHA256_RSA8192
avb_case blk1024 avbgold-f 333333 --partition_size 458752 --hash_algorithm sha256 --block_size 1024 --salt 050a4e238f5bc6b7be89c2dc9411bd3b9fb1e368f8d1c20c --fec_num_roots 4
# --changed, fastverity's option: the ranges given
mkdata avbgold-b 425984 >raw.img
cp raw.img inc.img
B="--partition_name system --hash_algorithm sha256 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048"
# shellcheck disable=SC2086
"$FV" avb add_hashtree_footer --image inc.img $B >/dev/null
printf 'CHG' | dd of=inc.img bs=1 seek=300000 conv=notrunc status=none
printf 'CHG' | dd of=raw.img bs=1 seek=300000 conv=notrunc status=none
cp inc.img old.img
cp raw.img full.img
# shellcheck disable=SC2086
"$FV" avb add_hashtree_footer --image full.img $B >/dev/null
# shellcheck disable=SC2086
check "avb add_hashtree_footer --changed" run_rc 0 "$FV" avb add_hashtree_footer --image inc.img $B --changed=300000:3
check "  a full rebuild's bytes" cmp -s inc.img full.img
# again from the old image, its writes counted (under strace, where a
# sanitized build's leak check cannot run: the bytes are what is judged)
cp old.img inc.img
# shellcheck disable=SC2086
strace -f -e trace=pwrite64 -o writes "$FV" avb add_hashtree_footer --image inc.img $B --changed=300000:3 >/dev/null 2>&1
check "  the same bytes again" cmp -s inc.img full.img
check "  in a few writes ($(grep -c pwrite64 writes))" test "$(grep -c pwrite64 writes)" -le 12
# --changed=@FILE: the list read once (it was read by the options'
# reading, then by the footer's, and again for --calc_max_image_size)
cp old.img inc.img
echo 300000:3 >changed.list
# shellcheck disable=SC2086
strace -f -e trace=openat -o opens "$FV" avb add_hashtree_footer --image inc.img $B --changed=@changed.list >/dev/null 2>&1
check "  --changed=@FILE: the same bytes" cmp -s inc.img full.img
check "  its file opened once ($(grep -c changed.list opens))" test "$(grep -c changed.list opens)" = 1
# shellcheck disable=SC2086
strace -f -e trace=openat -o opens "$FV" avb add_hashtree_footer --image inc.img $B --changed=@changed.list --partition_size 1048576 --calc_max_image_size >/dev/null 2>&1
check "  and for --calc_max_image_size ($(grep -c changed.list opens))" test "$(grep -c changed.list opens)" = 1
# a vbmeta and tree that agree with each other but not with the data,
# planted under a vbmeta nothing vouches for (unsigned, or signed by
# another key): the tree is not reused, whatever --changed says; the
# image is the one a first run makes over the data (issue 53)
U="--partition_name system --hash_algorithm sha256 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 --fec_num_roots 2"
mkdata avbgold-b 425984 >raw.img
plant() { # ARGS...: planted.img, a tree over other data under a vbmeta of ARGS
	cp raw.img planted.img
	printf 'PLANTED' | dd of=planted.img bs=1 seek=200000 conv=notrunc status=none
	"$FV" avb add_hashtree_footer --image planted.img "$@" >/dev/null
	dd if=raw.img of=planted.img bs=1 skip=200000 seek=200000 count=7 conv=notrunc status=none
}
for how in "$U" "$U --key keys/rsa4096.pem --algorithm SHA256_RSA4096" "$B"; do
	# shellcheck disable=SC2086
	for run in "$U" "$B"; do
		plant $how
		cp raw.img full.img
		"$FV" avb add_hashtree_footer --image full.img $run >/dev/null
		[ "$how" = "$B" ] && [ "$run" = "$B" ] && continue
		label=unsigned
		case "$how" in *rsa4096*) label="signed by another key" ;; *rsa2048*) label="signed by the key" ;; esac
		with=unsigned
		[ "$run" = "$B" ] && with="with the key"
		check "a planted tree under a vbmeta $label, run again $with: exit 0" run_rc 0 "$FV" avb add_hashtree_footer --image planted.img $run --changed=300000:3
		check "  the tree not reused: a first run's image over the data" cmp -s planted.img full.img
	done
done
# the same tree under a vbmeta signed by the key given: reused (the
# --changed ranges are the signer's word), the planted block kept
plant $B
# shellcheck disable=SC2086
check "a tree under a vbmeta signed by the key: reused" run_rc 0 "$FV" avb add_hashtree_footer --image planted.img $B --changed=300000:3
check "  (the planted leaf kept: not a first run's image)" sh -c "! cmp -s planted.img full.img"
# a damaged tree under the old footer: not reused, the full rebuild
mkdata avbgold-b 425984 >raw.img
cp raw.img dmg.img
"$FV" avb add_hashtree_footer --image dmg.img --partition_name system --hash_algorithm sha256 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 >/dev/null
flip dmg.img $((425984 + 100))
cp raw.img full.img
"$FV" avb add_hashtree_footer --image full.img --partition_name system --hash_algorithm sha256 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7 >/dev/null
check "a damaged tree under the footer: rebuilt whole" run_rc 0 "$FV" avb add_hashtree_footer --image dmg.img --partition_name system --hash_algorithm sha256 --salt 85df5576b1d831d60d5a4002e38f1083c9057c6bb2e6dbaa150cbd9e90dc3aa7
check "  a full rebuild's bytes" cmp -s dmg.img full.img
finish
