# Fault injection: every I/O call of format, verify, sign and update in turn fails
# (EIO, ENOSPC), is interrupted (EINTR) or comes up short, through an
# LD_PRELOAD shim. Every run succeeds, or fails with one line naming the
# problem; each output file is then the old one or the complete new one,
# never a part (outputs are replaced whole), and an image written in place
# is the old one, the new one, or one that dump and verify call
# unfinished.
. "$(dirname "$0")/lib.sh"
# the command itself: the shim, preloaded into build/fvjson, would stay
# there (it takes LD_PRELOAD out of the environment of what it runs)
FV=$FV_REAL

cd "$T" || exit 1
# under make check-asan the shim comes before the sanitizer's runtime
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
cc -shared -fPIC -O1 -o shim.so "$TOP/tests/fault/shim.c" -ldl || { fail "shim does not build"; exit 1; }
KINDS="eio enospc eintr short"
# each call with one kind in turn (FAULT_FULL=1: every kind at every
# call): the kinds for call N in $kinds (no subshell: a process costs
# milliseconds here, and a run is a few of them)
kinds_for() { # N
	local n=$1
	if [ "${FAULT_FULL:-0}" = 1 ]; then kinds=$KINDS; return; fi
	# shellcheck disable=SC2086
	set -- $KINDS
	shift $((n % 4))
	kinds=$1
}
gen 51 $((100 * 4096)) >d
"$FV" format d h.old --salt=$SALT --uuid=$UUID --root-hash-file=r.old --fec-device=f.old --fec-roots=4 >/dev/null
R=$(cat r.old)
printf '%s' "$R" >r.good
calls() { FAULT_COUNT_FILE="$T/cnt" LD_PRELOAD="$T/shim.so" "$@" >/dev/null 2>&1; cat "$T/cnt"; }
inject() { # N KIND CMD...: exit code in $rc, stderr in $T/err
	local n=$1 k=$2; shift 2
	FAULT_AT=$n FAULT_KIND=$k LD_PRELOAD="$T/shim.so" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# stderr is one line, "fastverity: ..." (read by the shell itself)
one_line() {
	local e=
	IFS= read -r -d '' e <"$T/err"
	[[ $e == "fastverity: "*$'\n' && ${e%$'\n'} != *$'\n'* ]]
}
# each_fault RESET JUDGE CMD...: every I/O call of CMD in turn faulted
# (kinds_for), RESET run before each run and JUDGE N KIND after it (it
# says what is wrong, and fails); counts in runs and bad
each_fault() {
	local reset=$1 judge=$2 n k count
	shift 2
	$reset
	count=$(calls "$@")
	for n in $(seq 1 $((count + 1))); do
		kinds_for "$n"
		for k in $kinds; do
			$reset
			inject "$n" "$k" "$@"
			runs=$((runs + 1))
			$judge "$n" "$k" || bad=$((bad + 1))
		done
	done
}
no_temporary() { # WHAT N KIND
	local f
	for f in .[!.]* ..?*; do
		[ -e "$f" ] || continue
		echo "  $1, call $2 $3: temporary file left" >&2
		rm -f .[!.]* ..?*
		return 1
	done
}

# format with separate outputs: hash image, root hash file, FEC file; the
# complete new ones from a run without faults
bad=0 runs=0
"$FV" format d h.new --salt=00 --uuid=$UUID --root-hash-file=r.new --fec-device=f.new --fec-roots=4 >/dev/null
old_or_new() { files_same "$1" "$1.old" || files_same "$1" "$1.new"; }
reset_outputs() { files_copy h.old h r.old r f.old f; }
judge_outputs() {
	local ok=0
	if [ "$rc" = 0 ]; then
		files_same h h.new r r.new f f.new ||
			{ echo "  format, call $1 $2: exit 0 but not the new files" >&2; ok=1; }
	elif ! one_line || ! { files_same h h.old r r.old f f.old ||
		{ old_or_new h && old_or_new r && old_or_new f; }; }; then
		echo "  format, call $1 $2: exit $rc, a file neither old nor new, or no one-line message: $(head -2 err)" >&2
		ok=1
	fi
	no_temporary format "$1" "$2" && return $ok
}
each_fault reset_outputs judge_outputs "$FV" format d h --salt=00 --uuid=$UUID --root-hash-file=r --fec-device=f --fec-roots=4
check "format: $runs faulted runs, each a success or one line; every file old or new, whole" test $bad = 0

# format in place (the hash image inside the data file): a failure leaves
# the old image, or one that dump and verify call unfinished
bad=0 runs=0
cp d one.old; truncate -s $((110 * 4096)) one.old
P="--hash-offset=$((100 * 4096)) --data-blocks=100"
# shellcheck disable=SC2086
"$FV" format one.old one.old $P --salt=$SALT --uuid=$UUID --root-hash-file=rone.old >/dev/null
cp one.old one
# shellcheck disable=SC2086
"$FV" format one one $P --salt=00 --uuid=$UUID --root-hash-file=rone.new >/dev/null
reset_one() { files_copy one.old one; }
judge_in_place() {
	# shellcheck disable=SC2086
	if [ "$rc" = 0 ]; then
		"$FV" verify one one "$(root_of out)" $P >/dev/null 2>&1 && return
		echo "  in place, call $1 $2: exit 0 but the image does not verify" >&2
		return 1
	elif ! one_line; then
		echo "  in place, call $1 $2: no one-line message: $(head -2 err)" >&2
		return 1
	elif "$FV" verify one one --root-hash-file=rone.old $P >/dev/null 2>&1 ||
		"$FV" verify one one --root-hash-file=rone.new $P >/dev/null 2>&1 ||
		"$FV" verify one one --root-hash-file=rone.old $P 2>&1 | grep -q unfinished; then
		return 0
	fi
	echo "  in place, call $1 $2: not the old image, the new one or unfinished" >&2
	return 1
}
# shellcheck disable=SC2086
each_fault reset_one judge_in_place "$FV" format one one $P --salt=00 --uuid=$UUID
check "format in place: $runs faulted runs: the old image, the new one, or unfinished" test $bad = 0

# format at 512-byte blocks, one thread: level 1 is hashed and written
# with level 0, window by window; a fault in any of those writes leaves
# the old file or the new one
gen 52 $((2 << 20)) >d5
B5="--data-block-size=512 --hash-block-size=512 --threads=1"
bad=0 runs=0
# shellcheck disable=SC2086
"$FV" format d5 h5.old $B5 --salt=$SALT --uuid=$UUID >/dev/null
# shellcheck disable=SC2086
"$FV" format d5 h5.new $B5 --salt=00 --uuid=$UUID >/dev/null
reset_h5() { files_copy h5.old h5; }
judge_h5() {
	local ok=0
	if [ "$rc" = 0 ]; then
		files_same h5 h5.new || { echo "  512-byte blocks, call $1 $2: exit 0 but not the new file" >&2; ok=1; }
	elif ! one_line || ! { files_same h5 h5.old || files_same h5 h5.new; }; then
		echo "  512-byte blocks, call $1 $2: exit $rc, a file neither old nor new, or no one-line message: $(head -2 err)" >&2
		ok=1
	fi
	no_temporary "512-byte blocks" "$1" "$2" && return $ok
}
# shellcheck disable=SC2086
each_fault reset_h5 judge_h5 "$FV" format d5 h5 $B5 --salt=00 --uuid=$UUID
check "format, 512-byte blocks (level 1 with level 0): $runs faulted runs, each a success or one line; the file old or new, whole" test $bad = 0

# verify reads only: an I/O error is one line (exit 1), or a block read
# alone that fails with EIO is reported unreadable (exit 2); never a bad
# block
bad=0 runs=0
unreadable_only() {
	local e=
	IFS= read -r -d '' e <"$T/err"
	[[ $'\n'$e == *$'\n'"Unreadable block at position"* && $e != *"Verification failed"* ]]
}
files_copy d d.before h.old h.before f.old f.before
judge_verify() {
	case "$rc" in
	0) ;;
	1) one_line || { echo "  verify, call $1 $2: $(head -3 err)" >&2; return 1; } ;;
	2) unreadable_only || { echo "  verify, call $1 $2: exit 2: $(head -3 err)" >&2; return 1; } ;;
	*) echo "  verify, call $1 $2: exit $rc: $(head -3 err)" >&2; return 1 ;;
	esac
}
each_fault : judge_verify "$FV" verify d h.old "$R" --fec-device=f.old --fec-roots=4
check "verify: $runs faulted runs, each exit 0, one line (exit 1) or an unreadable block (exit 2), never a bad block" test $bad = 0
check "verify: the files read are unchanged" files_same d d.before h.old h.before f.old f.before

# sign: the signature is replaced whole
openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -days 2 -subj /CN=t >/dev/null 2>&1
"$FV" sign --key k.pem --cert c.pem "$R" s.old >/dev/null
bad=0 runs=0
reset_sig() { files_copy s.old s; }
judge_sign() {
	if [ "$rc" = 0 ]; then
		"$FV" verify d h.old "$R" --root-hash-signature=s --trusted-cert=c.pem >/dev/null 2>&1 && return
		echo "  sign, call $1 $2: exit 0 but the signature does not check" >&2
		return 1
	elif ! one_line || ! files_same s s.old; then
		echo "  sign, call $1 $2: exit $rc: $(head -2 err)" >&2
		return 1
	fi
}
each_fault reset_sig judge_sign "$FV" sign --key k.pem --cert c.pem "$R" s
check "sign: $runs faulted runs, each a success or one line with the old signature intact" test $bad = 0

# The AVB writers run again over an image with a footer (issue 28): in
# place, with the old footer the last 64 bytes until the new one is
# written (or staged beside and renamed, where the file system clones
# for free), so a fault leaves the old image, the new one, or the old
# footer from which the same run makes the new one
cp -r "$TOP/tests/avb/keys" .
reset_a() { files_copy a.old a; }
# judge N KIND: a failure leaves the old image (a.old), the new one
# (a.new), or (unless STRICT=1) one from which RUN (the same run, without
# a fault) makes the new image; LABEL names the run in messages
judge() {
	local ok=0
	if [ "$rc" = 0 ]; then
		files_same a a.new || { [ -n "${RESIGNED:-}" ] && resigned a a.new; } ||
			{ echo "  $LABEL, call $1 $2: exit 0 but not the new image" >&2; ok=1; }
	elif ! one_line; then
		echo "  $LABEL, call $1 $2: exit $rc, no one-line message: $(head -2 err)" >&2
		ok=1
	elif ! files_same a a.old && ! files_same a a.new &&
		! { [ "${STRICT:-0}" != 1 ] && "${RUN[@]}" >/dev/null 2>&1 && files_same a a.new; }; then
		echo "  $LABEL, call $1 $2: exit $rc: not the old image, the new one, or one its re-run makes new" >&2
		ok=1
	fi
	no_temporary "$LABEL" "$1" "$2" && return $ok
}
# resigned A B: A is B but for its vbmeta's signature (hedged ML-DSA's,
# new each time it is made), and verifies
resigned() {
	python3 - "$1" "$2" <<'EOF' && "$FV" avb verify_image --image "$1" >/dev/null 2>&1
import struct, sys
a, b = (open(f, 'rb').read() for f in sys.argv[1:3])
off = struct.unpack('>Q', b[-64 + 20:-64 + 28])[0]
auth = struct.unpack('>Q', b[off + 12:off + 20])[0]
cut = lambda x: x[:off + 256] + x[off + 256 + auth:]
sys.exit(len(a) != len(b) or cut(a) != cut(b))
EOF
}
# SUBCOMMAND DATA_FILE ARGS...: every I/O call of SUBCOMMAND (salt 02, or
# $SALT2) over the image it made from DATA_FILE with salt 01
rerun_faults() {
	SUB=$1 ARGS=${*:3}
	cp "$2" a.old
	# shellcheck disable=SC2086
	"$FV" avb "$SUB" --image a.old $ARGS --salt 01 >/dev/null 2>&1
	cp a.old a.new
	# shellcheck disable=SC2086
	"$FV" avb "$SUB" --image a.new $ARGS --salt ${SALT2:-02} >/dev/null 2>&1
	LABEL="$SUB again"
	# shellcheck disable=SC2206
	RUN=("$FV" avb "$SUB" --image a $ARGS --salt ${SALT2:-02})
	bad=0 runs=0
	each_fault reset_a judge "${RUN[@]}"
	local left="the old image, the new one, or the old footer its re-run makes new"
	[ "${STRICT:-0}" = 1 ] && left="the old image or the new one"
	check "avb $SUB over a footer ($2): $runs faulted runs, each a success or one line; $left" test $bad = 0
}
# raw images (issue 53): a run that changes what the old footer counts
# (another salt) is made beside and renamed over, so a fault leaves the
# old image or the new one, never one for a re-run to finish
gen 53 $((48 * 4096)) >a.data
STRICT=1
rerun_faults add_hashtree_footer a.data --partition_name system --partition_size $((128 * 4096)) --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048
gen 54 $((20 * 4096)) >b.data
rerun_faults add_hash_footer b.data --partition_name boot --partition_size $((64 * 4096)) --key keys/rsa2048.pem --algorithm SHA256_RSA2048
# ML-DSA, whose (hedged) signature is new each run, run again with the
# same options over unchanged data: in place, its old signature kept, so
# the image keeps its bytes whatever stops the run (a new signature
# written over the old one could be left half of each). A fault in
# reading the old footer's vbmeta leaves the run without it: it signs
# anew, beside the image, and succeeds with a new signature (RESIGNED).
cp "$TOP/tests/avb/mldsa/testkey_mldsa65.pem" keys/
SALT2=01 RESIGNED=1
rerun_faults add_hashtree_footer a.data --partition_name system --partition_size $((128 * 4096)) --fec_num_roots 2 --key keys/testkey_mldsa65.pem --algorithm MLDSA65
check "  the same bytes as before" cmp -s a.old a.new
rerun_faults add_hash_footer b.data --partition_name boot --partition_size $((64 * 4096)) --key keys/testkey_mldsa65.pem --algorithm MLDSA65
check "  the same bytes as before" cmp -s a.old a.new
unset SALT2 RESIGNED
STRICT=0
# and over sparse images (issue 30): the chunk list cut and appended to,
# the header's totals set last; an interrupted run leaves bytes after the
# last counted chunk, which the same run cuts
img2simg a.data sa.data
rerun_faults add_hashtree_footer sa.data --partition_name system --partition_size $((128 * 4096)) --fec_num_roots 2
img2simg b.data sb.data
rerun_faults add_hash_footer sb.data --partition_name boot --partition_size $((64 * 4096))

# add_hashtree_footer run again over its own footer and killed (SIGKILL)
# at points spread over the run (issue 53: the tree was rewritten in
# place under the old footer with a new random salt, and an image killed
# 10-40 ms in failed verify_image): each killed image verifies with the
# key and is the old image or the new one. The same options (no --salt:
# the old salt is kept, and over unchanged data the run writes the bytes
# the image holds), then other ones (another rollback index, another
# salt: the new image is made beside and renamed over the old). A kill
# may leave the temporary file beside, which is removed here.
# FAULT_FULL=1: 64 MiB and 24 points a case; else 8 MiB and 6.
kill_runs() { # LABEL OLD_ARGS NEW_ARGS
	local label=$1 old=$2 new=$3 points=6 ms i at t0 pid bad=0 runs=0
	[ "${FAULT_FULL:-0}" = 1 ] && points=24
	cp k.data k.old
	# shellcheck disable=SC2086
	"$FV" avb add_hashtree_footer --image k.old $KARGS $old >/dev/null 2>&1
	cp k.old k.new
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	"$FV" avb add_hashtree_footer --image k.new $KARGS $new >/dev/null 2>&1
	ms=$((($(date +%s%N) - t0) / 1000000 + 1))
	for i in $(seq 1 $points); do
		at=$((ms * i / points))
		cp k.old k
		# shellcheck disable=SC2086
		"$FV" avb add_hashtree_footer --image k $KARGS $new >/dev/null 2>&1 &
		pid=$!
		sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		rm -f .k.*
		runs=$((runs + 1))
		if ! "$FV" avb verify_image --image k --key keys/rsa2048.pem >"$T/out" 2>"$T/err"; then
			echo "  $label, killed at $at ms of $ms: verify_image fails: $(head -1 "$T/err")" >&2
			bad=$((bad + 1))
		elif ! files_same k k.old && ! files_same k k.new; then
			echo "  $label, killed at $at ms of $ms: neither the old image nor the new one" >&2
			bad=$((bad + 1))
		fi
	done
	check "add_hashtree_footer again, $label: killed at $runs points of $ms ms, each image verifies, the old or the new one" test $bad = 0
}
kmib=8
[ "${FAULT_FULL:-0}" = 1 ] && kmib=64
gen 55 $((kmib << 20)) >k.data
KARGS="--partition_name system --hash_algorithm sha256 --key keys/rsa2048.pem --algorithm SHA256_RSA2048"
kill_runs "the same options, no --salt ($kmib MiB)" "" ""
kill_runs "another rollback index ($kmib MiB)" "--rollback_index 1" "--rollback_index 2"
kill_runs "another salt ($kmib MiB)" "--salt 01" "--salt 02"

# resize_image, zero_hashtree and append_vbmeta_image, raw and sparse: a
# fault leaves the old image, the new one, or one the same run makes new
simple_faults() { # LABEL OLD_IMAGE CMD... (on the file a)
	LABEL=$1
	cp "$2" a.old
	shift 2
	RUN=("$@")
	cp a.old a && "${RUN[@]}" >/dev/null && cp a a.new
	bad=0 runs=0
	each_fault reset_a judge "${RUN[@]}"
	check "$LABEL: $runs faulted runs, each a success or one line; the old image, the new one, or one its re-run makes new" test $bad = 0
}
"$FV" avb make_vbmeta_image --output vb.img
for kind in raw sparse; do
	src=b.data
	[ $kind = sparse ] && src=sb.data
	cp $src img.$kind
	"$FV" avb add_hashtree_footer --image img.$kind --partition_name system --partition_size $((128 * 4096)) --salt 01 2>/dev/null
	simple_faults "avb resize_image ($kind)" img.$kind "$FV" avb resize_image --image a --partition_size $((192 * 4096))
	simple_faults "avb zero_hashtree ($kind)" img.$kind "$FV" avb zero_hashtree --image a
	simple_faults "avb append_vbmeta_image ($kind)" $src "$FV" avb append_vbmeta_image --image a --vbmeta_image vb.img --partition_size $((64 * 4096))
done

# update (in place): a failure leaves the old files (nothing written
# yet), the new ones (the last flush failed), or what verify and dump
# call an unfinished update, which the same update run again completes
# (without --changed once the leaves over the change were rewritten).
# 100 blocks: the parity's one round encoded again; 1024 blocks, one
# changed: its round encoded while the tree is proven, the tree blocks'
# rounds their stored parity plus the blocks' changes; 100 blocks found
# by hashing: every round, the parity made from the verify's reads, the
# leaves streamed.
reset_update() { files_copy hu.old hu fu.old fu; }
judge_update() {
	local state
	if [ "$rc" = 0 ]; then
		files_same hu hu.new fu fu.new && return
		echo "  update, call $1 $2: exit 0 but not the new files" >&2
		return 1
	fi
	if ! one_line; then
		echo "  update, call $1 $2: no one-line message: $(head -2 err)" >&2
		return 1
	fi
	if files_same hu hu.old fu fu.old || files_same hu hu.new fu fu.new; then
		return 0
	fi
	state=$("$FV" verify du hu "$RU" 2>&1)
	if ! echo "$state" | grep -q "unfinished: an update of this hash image was interrupted"; then
		echo "  update, call $1 $2: neither old, new nor unfinished: $state" >&2
		return 1
	fi
	files_copy hu hu.int fu fu.int
	"$FV" update du hu "$RU" --fec-device=fu $CHANGED >/dev/null 2>err.rerun &&
		files_same hu hu.new fu fu.new && return
	# the leaves over the change rewritten: the old root can no longer
	# be proven, --changed is refused with nothing written, and a re-run
	# without it (the tree from all the data) completes it
	[ -n "$CHANGED" ] && grep -q "only a re-run without changed ranges can complete" err.rerun &&
		files_same hu hu.int fu fu.int &&
		"$FV" update du hu "$RU" --fec-device=fu >/dev/null 2>&1 &&
		files_same hu hu.new fu fu.new && return
	echo "  update, call $1 $2: the re-run did not complete it" >&2
	return 1
}
for kase in 100 1024 found; do
	bad=0 runs=0 blocks=${kase/found/100}
	gen 52 $((blocks * 4096)) >du
	"$FV" format du hu.old --salt=$SALT --uuid=$UUID --root-hash-file=ru.old --fec-device=fu.old --fec-roots=2 >/dev/null
	if [ $blocks = 100 ]; then
		CHANGED=--changed=70000:5000
		gen 53 5000 | dd of=du bs=1 seek=70000 conv=notrunc status=none
	else
		CHANGED=--changed=$((777 * 4096)):4096
		gen 53 4096 | dd of=du bs=4096 seek=777 conv=notrunc status=none
	fi
	how=given
	[ $kase = found ] && CHANGED= how="found by hashing"
	RU=$(cat ru.old)
	cp hu.old hu.new && cp fu.old fu.new
	"$FV" update du hu.new "$RU" --fec-device=fu.new $CHANGED >/dev/null
	# shellcheck disable=SC2086
	each_fault reset_update judge_update "$FV" update du hu "$RU" --fec-device=fu $CHANGED
	check "update ($blocks blocks, $how): $runs faulted runs: the old files, the new ones, or unfinished and completed by a re-run" test $bad = 0
done

finish
