# repair never makes things worse: the roots of existing parity come from
# its size, parity is rewritten only when asked and only from blocks
# proven in the same read, and a signed root hash is checked before
# anything is written. Each case is a reproduction that damaged data
# before (issue 19).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
corrupt() { "$TOP/build/mkimage" random "$((1000 + $2))" 4096 | dd of="$1" bs=4096 seek="$2" conv=notrunc status=none; }

# ---- a forgotten --fec-roots ----
gen 31 $((1000 * 4096)) >orig.img
"$FV" format orig.img h.img --fec-device=f.orig --fec-roots=8 --salt=$SALT --uuid=$UUID >o.out
R=$(root_of o.out)
cp orig.img d.img; cp f.orig f.fec
corrupt d.img 9
run_rc 2 "$FV" verify d.img h.img "$R" --fec-device=f.fec
check "verify without --fec-roots: the roots told from the parity's size" grep -qx 'FEC: parity of 8 roots, told from the size of f.fec.' err
check "  and FEC can repair the block" grep -q 'FEC can repair 1 of 1 bad block ' err
run_rc 0 "$FV" repair d.img h.img "$R" --fec-device=f.fec
check "repair without --fec-roots repairs with 8 roots" sh -c "cmp -s d.img orig.img && grep -qx 'FEC: parity of 8 roots, told from the size of f.fec.' '$T/out'"
check "  and leaves the parity as it was" cmp -s f.fec f.orig
"$FV" repair --json d.img h.img "$R" --fec-device=f.fec >r.json
check "repair --json names the roots and where they came from" jqok '.fec.roots == 8 and .fec.roots_from == "size"' r.json
corrupt d.img 9
run_rc 1 "$FV" repair d.img h.img "$R" --fec-device=f.fec --fec-roots=2
check "a wrong --fec-roots for a parity file: refused with both numbers" grep -qx 'fastverity: f.fec: its 163840 bytes are the parity of 8 roots, not of the 2 given (which needs 32768 bytes)' err
check "  nothing written" sh -c 'cmp -s f.fec f.orig && ! cmp -s d.img orig.img'
cp f.orig big.fec; truncate -s +4096 big.fec; cp big.fec big.before
run_rc 1 "$FV" repair d.img h.img "$R" --fec-device=big.fec --fec-roots=8
check "a parity file larger than the FEC area: refused" sh -c "grep -q 'big.fec: file of 167936 bytes is larger than the FEC area of 8 roots (163840 bytes)' '$T/err' && cmp -s big.fec big.before"
run_rc 1 "$FV" repair d.img h.img "$R" --fec-device=big.fec
check "  and without --fec-roots: fits no roots, refused" grep -q 'big.fec: 167936 bytes is no FEC area of 2 to 24 roots for this image' err
# another image's parity, and any file, of the right size
gen 32 $((1000 * 4096)) >other.img
"$FV" format other.img oh.img --fec-device=other.fec --fec-roots=8 >/dev/null
cp other.fec other.before
run_rc 2 "$FV" repair d.img h.img "$R" --fec-device=other.fec
check "another image's parity: nothing rewritten, exit 2 (the block stays bad)" sh -c 'cmp -s other.fec other.before'
check "  said not to be this image's parity, left as it is (no --rewrite-parity hint: it refuses)" sh -c "grep -q 'not this image.s parity, or the roots or offset are wrong; left as it is' '$T/out' && ! grep -q rewrite-parity '$T/out'"
run_rc 1 "$FV" repair d.img h.img "$R" --fec-device=other.fec --rewrite-parity
check "  --rewrite-parity refuses: not this image's parity" sh -c "grep -q 'other.fec: .* parity codewords disagree with the verified image, more than the 5% .* it is not this image.s parity' '$T/err' && cmp -s other.fec other.before"
gen 33 163840 >important.bin; cp important.bin important.before
run_rc 2 "$FV" repair d.img h.img "$R" --fec-device=important.bin
check "an unrelated file as --fec-device: not one byte written" cmp -s important.bin important.before
run_rc 1 "$FV" repair d.img h.img "$R" --fec-device=important.bin --rewrite-parity
check "  nor with --rewrite-parity" cmp -s important.bin important.before
run_rc 0 "$FV" repair d.img h.img "$R" --fec-device=f.fec --fec-roots=8
check "the right parity still repairs afterwards" cmp -s d.img orig.img

# ---- stale parity: reported; rewritten when asked, within the limit ----
cp f.orig f.fec
dd if=/dev/zero of=f.fec bs=4096 seek=3 count=1 conv=notrunc status=none
cp f.fec f.damaged
run_rc 0 "$FV" verify d.img h.img "$R" --fec-device=f.fec
check "verify: damaged parity named, the hint says --rewrite-parity" grep -q 'fastverity repair --rewrite-parity, with the same arguments, rewrites them' err
run_rc 0 "$FV" repair d.img h.img "$R" --fec-device=f.fec
check "repair: damaged parity counted, left alone" sh -c "cmp -s f.fec f.damaged && grep -q 'Parity: 512 codewords in 1 round disagree' '$T/out'"
run_rc 0 "$FV" repair d.img h.img "$R" --fec-device=f.fec --rewrite-parity --dry-run
check "repair --rewrite-parity --dry-run: says it would, writes nothing" sh -c "cmp -s f.fec f.damaged && grep -q 'repair --rewrite-parity would rewrite them' '$T/out'"
run_rc 0 "$FV" repair d.img h.img "$R" --fec-device=f.fec --rewrite-parity
check "repair --rewrite-parity: the parity back byte for byte" cmp -s f.fec f.orig

# ---- parity is rebuilt only from blocks proven in the same read ----
# Another writer changes data block 299 while repair runs (a hook in the
# fault shim, at each I/O call in turn); the parity of block 299's round
# (round 1 of 2) must never take the changed bytes (before: the parity
# pass re-read the data without hashing it). Round 0's parity is damaged,
# so that there is parity to rewrite.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
cc -shared -fPIC -O1 -o shim.so "$TOP/tests/fault/shim.c" -ldl || fail "shim does not build"
gen 35 $((300 * 4096)) >small.img
"$FV" format small.img sh.img --fec-device=sf.orig --salt=$SALT >so.out
SR=$(root_of so.out)
check "  (the small image has 2 rounds)" test "$(jq -r .fec.rounds <("$FV" dump --json sh.img --fec-device=sf.orig))" = 2
dd if=/dev/zero of=sf.orig bs=512 seek=1 count=1 conv=notrunc status=none 2>/dev/null
cp sf.orig sf.damaged
"$FV" format small.img sh2.img --fec-device=sf.good --salt=$SALT >/dev/null
# round 1's parity: the 8192 bytes after round 0's
round1_is_good() { cmp -s -i 8192:8192 -n 8192 "$1" sf.good; }
gen 34 4096 >junk
FAULT_COUNT_FILE="$T/cnt" LD_PRELOAD="$T/shim.so" "$FV_REAL" repair small.img sh.img "$SR" --fec-device=sf.damaged --rewrite-parity --threads=1 >/dev/null 2>&1
N=$(cat cnt)
bad=0 runs=0
for n in $(seq 1 $((N + 2))); do
	files_copy small.img sd.img sf.damaged sf.fec
	FAULT_HOOK_AT=$n FAULT_HOOK_CMD="dd if=$T/junk of=$T/sd.img bs=4096 seek=299 conv=notrunc status=none" \
		LD_PRELOAD="$T/shim.so" "$FV_REAL" repair sd.img sh.img "$SR" --fec-device=sf.fec --rewrite-parity --threads=1 >out 2>err
	rc=$?
	runs=$((runs + 1))
	round1_is_good sf.fec || { bad=$((bad + 1)); echo "  hook at call $n: the changed block went into the parity" >&2; }
	case $rc in
	0 | 2) ;;
	1) grep -q 'no longer matches the tree (changed while repair ran?)' err || { bad=$((bad + 1)); echo "  hook at call $n: exit 1: $(head -2 err)" >&2; } ;;
	*) bad=$((bad + 1)); echo "  hook at call $n: exit $rc" >&2 ;;
	esac
done
check "a block changed during repair never enters the parity ($runs runs)" test $bad = 0 -a $runs -gt 10

# ---- an unreadable block is an erasure, not the end ----
# The shim fails every read touching byte 315392 of u.img (data block 77,
# inside the 256 KiB read at 262144), until a write covers it.
gen 36 $((1000 * 4096)) >u.orig
"$FV" format u.orig uh.img --fec-device=uf.img --salt=$SALT >uo.out
UR=$(root_of uo.out)
cp u.orig u.img
corrupt u.img 900
# (the command itself: a shim preloaded into build/fvjson would stay there)
bad_at() { local c=$2; [ "$c" = "$FV" ] && c=$FV_REAL; FAULT_BAD="$1" LD_PRELOAD="$T/shim.so" "$c" "${@:3}"; }
bad_at u.img:315392:315393 "$FV" verify u.img uh.img "$UR" >out 2>err
check "verify: an unreadable block named by its own position, exit 2" sh -c "test $? = 2 && grep -qx 'Unreadable block at position 315392.' '$T/err'"
check "  the check goes on: the bad block after it is found too" grep -qx 'Verification failed at position 3686400.' err
check "  and counted" sh -c "grep -qx 'Verification of data area failed: 1 bad data block, 0 bad hash blocks, 0 bad spare areas.' '$T/err' && grep -qx '1 block could not be read.' '$T/err'"
bad_at u.img:315392:315393 "$FV" verify --json u.img uh.img "$UR" >uv.json
check "  --json: type unreadable, area data" jqok '.failures[0].type == "unreadable" and .failures[0].area == "data" and .failures[0].position == 315392 and .unreadable_blocks == 1 and .result == "corrupted"' uv.json
bad_at u.img:315392:315393 "$FV" verify u.img uh.img "$UR" --fec-device=uf.img >out 2>err
check "verify --fec-device: the unreadable block is repairable" grep -q 'FEC can repair 2 of 2 bad blocks' err
bad_at u.img:315392:315393 "$FV" repair u.img uh.img "$UR" --fec-device=uf.img >out 2>err
check "repair rebuilds the unreadable block and the bad one" sh -c "test $? = 0 && grep -qx 'Repaired position 315392 (data block 77).' '$T/out' && cmp -s u.img u.orig"
# a leaf hash block that cannot be read: the data under it unchecked
cp u.orig u.img
leaf=$(( $(jq -r .tree_offset <("$FV" dump --json uh.img)) + 4096 * 3 ))
bad_at uh.img:$leaf:$((leaf + 1)) "$FV" verify u.img uh.img "$UR" >out 2>err
check "an unreadable leaf hash block: named, its 128 data blocks unchecked" sh -c "test $? = 2 && grep -qx 'Unreadable block at position $leaf.' '$T/err' && grep -qx 'Under a bad or unreadable hash block, not checked: 128 data blocks, 0 hash blocks.' '$T/err'"

# ---- repair trusts what verify trusts ----
openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -days 2 -subj /CN=vendor >/dev/null 2>&1
openssl req -x509 -newkey rsa:2048 -nodes -keyout ak.pem -out ac.pem -days 2 -subj /CN=attacker >/dev/null 2>&1
cp orig.img os.raw
"$FV" format --sidecar os.raw --fec-roots=4 --key k.pem --cert c.pem >/dev/null
cp os.raw os.good
# the attacker replaces os.verity, os.roothash and os.fec with their own
# (for an image with their block 7), and cannot sign
mkdir evil
cp os.raw evil/os.raw
corrupt evil/os.raw 7
"$FV" format --sidecar evil/os.raw --fec-roots=4 >/dev/null
cp evil/os.verity evil/os.roothash evil/os.fec .
run_rc 1 "$FV" repair os.raw
check "repair with a sidecar signature and no --trusted-cert: refused, says how to check it" grep -qx "fastverity: os.roothash.p7s: an image with sidecar files (IMAGE.verity) that is signed, and nothing was given to check its signer: nothing is written on the word of an unchecked root (give --trusted-cert=<cert.pem>)" err
check "  nothing written" cmp -s os.raw os.good
run_rc 2 "$FV" repair os.raw --trusted-cert=c.pem
check "repair --trusted-cert: the replaced root hash's signature fails" grep -q 'os.roothash.p7s: the signature does not match root hash' err
check "  nothing written" cmp -s os.raw os.good
run_rc 2 "$FV" repair os.raw --trusted-cert=c.pem --dry-run
check "  the same with --dry-run" grep -q 'the signature does not match root hash' err
# the vendor's own files: the signature checks, the repair goes ahead
"$FV" format --sidecar os.raw --fec-roots=4 --key k.pem --cert c.pem >/dev/null
corrupt os.raw 5
run_rc 0 "$FV" repair os.raw --trusted-cert=c.pem
check "repair --trusted-cert of a signed image repairs it" cmp -s os.raw os.good
"$FV" repair --json os.raw --trusted-cert=c.pem >r.json
check "  --json names the signer" jqok '.signature.signer == "/CN=vendor" and .result == "ok"' r.json
run_rc 2 "$FV" repair os.raw --trusted-cert=ac.pem
check "repair trusting another certificate: refused" grep -q 'os.roothash.p7s: the signer' err
# the same options as verify, with two files
"$FV" sign --key k.pem --cert c.pem "$R" root.p7s >/dev/null
cp orig.img d.img; corrupt d.img 3
run_rc 0 "$FV" repair d.img h.img "$R" --fec-device=f.orig --root-hash-signature=root.p7s --trusted-cert=c.pem
check "repair --root-hash-signature --trusted-cert" cmp -s d.img orig.img
corrupt d.img 3; cp d.img d.before
run_rc 1 "$FV" repair d.img h.img "$R" --fec-device=f.orig --root-hash-signature=root.p7s
check "repair --root-hash-signature without --trusted-cert: refused, nothing written" cmp -s d.img d.before
run_rc 2 "$FV" repair d.img h.img "$R" --fec-device=f.orig --trusted-cert=c.pem
check "repair --trusted-cert without a signature: refused" grep -q 'd.img: a verity pair that is not signed, and a trusted certificate was given to check its signer: nothing proves who made it' err

# ---- signers named as they fail ----
openssl req -x509 -newkey rsa:2048 -nodes -keyout bk.pem -out bc.pem -days 2 -subj /CN=second >/dev/null 2>&1
printf '%s' "$R" >root.txt
openssl smime -sign -in root.txt -signer c.pem -inkey k.pem -signer bc.pem -inkey bk.pem -noattr -binary -outform der -out two.p7s
cp orig.img d.img
run_rc 2 "$FV" verify d.img h.img "$R" --root-hash-signature=two.p7s --trusted-cert=bc.pem
check "two signers, the second trusted: the first is named" grep -qx 'fastverity: two.p7s: the signer /CN=vendor is not trusted (each signer must be)' err
run_rc 2 "$FV" verify d.img h.img "$R" --root-hash-signature=two.p7s --trusted-cert=c.pem
check "two signers, the first trusted: the second is named" grep -qx 'fastverity: two.p7s: the signer /CN=second is not trusted (each signer must be)' err
run_rc 0 "$FV" verify d.img h.img "$R" --root-hash-signature=two.p7s --trusted-cert=c.pem --trusted-cert=bc.pem
check "two signers, both trusted: passes" test $? = 0
# a bundle with too many certificates
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ek.pem -out ec.pem -days 2 -subj /CN=e >/dev/null 2>&1
pem=$(<ec.pem)
for ((i = 0; i < 1025; i++)); do printf '%s\n' "$pem"; done >bundle.pem
run_rc 1 "$FV" verify d.img h.img "$R" --root-hash-signature=root.p7s --trusted-cert=bundle.pem
check "a bundle of 1025 certificates: refused with the limit" grep -q 'bundle.pem: more than 1024 trusted certificates in all' err

# ---- no writes to a device in use ----
if L=$(losetup -f --show orig.img 2>/dev/null); then
	truncate -s 16M fs.img
	mkfs.ext4 -q -F fs.img 2>/dev/null
	M=$(losetup -f --show fs.img)
	"$FV" format "$M" fsh.img --fec-device=fsf.img --salt=$SALT >fso.out
	FR=$(root_of fso.out)
	mkdir mnt
	if mount "$M" mnt 2>/dev/null; then
		# a block of the mounted file system damaged behind its back
		printf 'X' | dd of=fs.img bs=1 seek=$((4096 * 3000 + 17)) conv=notrunc status=none
		cp fs.img fs.before
		run_rc 1 "$FV" repair "$M" fsh.img "$FR" --fec-device=fsf.img
		check "repair of a mounted device: refused, naming the mount, exit 1" grep -q "^fastverity: $M: the device is in use (it is mounted on $T/mnt): not writing to it" err
		check "  nothing written under the file system" cmp -s fs.img fs.before
		run_rc 2 "$FV" repair "$M" fsh.img "$FR" --fec-device=fsf.img --dry-run
		check "  a dry run still reads it" grep -q '^Can repair position 12288000' out
		run_rc 1 "$FV" format orig.img "$M"
		check "format onto a mounted device: refused" grep -q "$M: the device is in use (it is mounted on" err
		check "  nothing written" cmp -s fs.img fs.before
		umount mnt
		run_rc 0 "$FV" repair "$M" fsh.img "$FR" --fec-device=fsf.img
		# (mounting changed the ext4 superblock too: block 0 is bad)
		check "unmounted, the same repair goes ahead" grep -q '^Repaired position 12288000 (data block 3000)' out
	else
		skip "a mounted device is not repaired (cannot mount here)"
	fi
	losetup -d "$M"

	# ---- an output never replaces the file behind a loop device ----
	cp orig.img lo.before
	run_rc 1 "$FV" format "$L" orig.img
	check "format LOOP FILE-BEHIND-IT: refused" grep -q "orig.img: the hash area .* same bytes as the data area of $L (one is a loop device of the other)" err
	check "  the file is untouched" cmp -s orig.img lo.before
	run_rc 1 "$FV" format "$L" lh.img --root-hash-file=orig.img
	check "--root-hash-file= the file behind the data's loop device: refused" sh -c "grep -q 'orig.img: refusing to write the root hash there: it is $L, an input of this command (a loop device of the same file)' '$T/err' && cmp -s orig.img lo.before"
	run_rc 1 "$FV" format "$L" lh.img --fec-device=orig.img
	check "--fec-device= the file behind the data's loop device: refused" sh -c "grep -q 'orig.img: the FEC area .* overlaps the data area of $L' '$T/err' && cmp -s orig.img lo.before"
	run_rc 0 "$FV" format "$L" orig.img --hash-offset=$((1000 * 4096)) --data-blocks=1000
	check "  a tree after the data of that file is fine (written in place)" sh -c "cmp -s -n $((1000 * 4096)) orig.img lo.before"
	cp lo.before orig.img
	losetup -d "$L"
else
	skip "devices in use and outputs behind loop devices (no loop devices here)"
fi

# ---- outputs never follow a planted symlink ----
# A symlink in a sticky, world-writable directory, owned by another user,
# pointing at a file of the caller's: the kernel refuses to follow it
# (fs.protected_symlinks); so does every output of fastverity.
mkdir -m 1777 shared
printf 'precious\n' >victim; chmod 600 victim
ln -s "$T/victim" shared/fv-roothash
chown -h nobody shared/fv-roothash
run_rc 1 "$FV" format orig.img shared-h.img --root-hash-file=shared/fv-roothash
check "--root-hash-file= a planted symlink: refused" grep -q "shared/fv-roothash: a symlink in a sticky world-writable directory, owned by another user: not followed" err
check "  the victim untouched, mode and all" sh -c "test \"\$(cat victim)\" = precious && test \"\$(stat -c %a:%U victim)\" = 600:root"
ln -s "$T/victim" shared/fv-hash; chown -h nobody shared/fv-hash
run_rc 1 "$FV" format orig.img shared/fv-hash
check "the hash image through a planted symlink: refused" sh -c "grep -q 'shared/fv-hash: a symlink in a sticky' '$T/err' && test \"\$(cat victim)\" = precious"
ln -s "$T/victim" shared/fv-sig; chown -h nobody shared/fv-sig
run_rc 1 "$FV" sign --key k.pem --cert c.pem "$R" shared/fv-sig
check "a signature through a planted symlink: refused" sh -c "grep -q 'shared/fv-sig: a symlink in a sticky' '$T/err' && test \"\$(cat victim)\" = precious"
ln -s "$T/victim" shared/mine
run_rc 0 "$FV" format orig.img mine-h.img --root-hash-file=shared/mine
check "the caller's own symlink there is followed, as the kernel does" test "$(cat victim)" = "$(root_of out)"
# an output whose existing file cannot be looked at: refused, never a
# guessed mode or owner
ln -s loop1 loop2; ln -s loop2 loop1
run_rc 1 "$FV" format orig.img loop-h.img --root-hash-file=loop1
check "an output that cannot be stat'ed: refused" sh -c "grep -q 'loop1: cannot look at the existing file: Too many levels of symbolic links' '$T/err' && test -L loop1"

# ---- exit codes as veritysetup's ----
mkdir adir
"$FV" format u.orig xh.img --salt=$SALT >xo.out
XR=$(root_of xo.out)
check "a directory as data device: exit 4, as veritysetup" run_rc 4 "$FV" verify adir xh.img "$XR"
check "a directory as format's output: exit 4" run_rc 4 "$FV" format u.orig adir
check "a directory as data to format: exit 4" run_rc 4 "$FV" format adir xh2.img
check "a character device as data: exit 4" run_rc 4 "$FV" verify /dev/null xh.img "$XR"
$VS verify u.orig xh.img "$XR" extra >/dev/null 2>&1
vrc=$?
run_rc "$vrc" "$FV" verify u.orig xh.img "$XR" extra
check "verify with an extra argument: veritysetup's exit code ($vrc), and a warning" grep -q "ignoring the extra argument 'extra'" err
cp u.orig u.img; corrupt u.img 5
WR=$(printf '%s' "$UR" | tr '0-9a-f' '1-9a-f0')
run_rc 1 "$FV" verify u.img uh.img "$WR"
rc_plain=$?
run_rc 1 "$FV" verify u.img uh.img "$WR" --fec-device=uf.img
check "a wrong root on a damaged image: exit 1 with --fec-device as without" sh -c "test $rc_plain = 0 && grep -qx 'Verification of root hash failed.' '$T/err'"
run_rc 1 "$FV" bench --size=100000G
check "bench --size beyond memory: refused, nothing allocated" grep -q -- '--size: .* more than half of the memory available' err

mkdir -p "$T/table" && cd "$T/table" || exit 1
# ---- the trust table (docs/trust.md), through the command ----
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

# the command on real images: each row's exit (0 ok, 1 EINVAL, 2 EPERM)
# as the table says
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
check "a key that cannot be read, for an unsigned Android image: said first, exit 1" run_rc 1 "$FV" verify u.img --key=nosuch.pem
check "  naming the key file" grep -q "nosuch.pem: cannot read key file" "$T/err"
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
	done
done
# a firmware set (its top vbmeta; read only): --trusted-cert is the wrong
# kind there too, never dropped (it was: "not checked", exit 0)
mkdir -p set && cp u.img set/system.img
"$FV" avb make_vbmeta_image --output set/vbmeta.img --include_descriptors_from_image u.img \
	--key keys/rsa2048.pem --algorithm SHA256_RSA2048 2>/dev/null
"$FV" avb make_vbmeta_image --output set/unsigned.img --include_descriptors_from_image u.img 2>/dev/null
for anchor in none cert key; do
	# shellcheck disable=SC2046
	row avb found $anchor read "$(cmd_class "$FV" verify set/vbmeta.img $(anchor_opt avb $anchor))" "set"
	# shellcheck disable=SC2046
	row avb none $anchor read "$(cmd_class "$FV" verify set/unsigned.img $(anchor_opt avb $anchor))" "set"
done
check "plain pairs, sidecar and Android images: $rows rows through the command, as the table says" test $wrong = 0
if command -v systemd-repart >/dev/null; then
	gen 85 $((4 << 20)) >ddi.data
	repart_defs signed.d "$T/table/ddi.data" sig
	repart_defs unsigned.d "$T/table/ddi.data"
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
	have_ddi=1
else
	skip "disk images through the trust table: systemd-repart is not installed"
	have_ddi=0
fi

# docs/library.md's program, every container through <fastverity.h>,
# judged against its signer's key and certificate
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
