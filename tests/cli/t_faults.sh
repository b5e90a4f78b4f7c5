# Fault injection: every I/O call of format, verify and sign in turn fails
# (EIO, ENOSPC), is interrupted (EINTR) or comes up short, through an
# LD_PRELOAD shim. Every run succeeds, or fails with one line naming the
# problem; each output file is then the old one or the complete new one,
# never a part (outputs are replaced whole), and an image written in place
# is the old one, the new one, or one that dump and verify call
# unfinished.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
# under make check-asan the shim comes before the sanitizer's runtime
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
cc -shared -fPIC -O1 -o shim.so "$TOP/tests/fault/shim.c" -ldl || { fail "shim does not build"; exit 1; }
KINDS="eio enospc eintr short"
# each call with one kind in turn (FAULT_FULL=1: every kind at every call)
kinds_for() { # N
	local n=$1
	if [ "${FAULT_FULL:-0}" = 1 ]; then echo "$KINDS"; return; fi
	# shellcheck disable=SC2086
	set -- $KINDS
	shift $((n % 4))
	echo "$1"
}
gen 51 $((100 * 4096)) >d
"$FV" format d h.old --salt=$SALT --uuid=$UUID --root-hash-file=r.old --fec-device=f.old --fec-roots=4 >/dev/null
R=$(cat r.old)
printf '%s' "$R" >r.good
calls() { FAULT_COUNT_FILE="$T/cnt" LD_PRELOAD="$T/shim.so" "$@" >/dev/null 2>&1; cat "$T/cnt"; }
inject() { # N KIND CMD...: rc in $T/rc, stderr in $T/err
	local n=$1 k=$2; shift 2
	FAULT_AT=$n FAULT_KIND=$k LD_PRELOAD="$T/shim.so" "$@" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
one_line() { [ "$(wc -l <"$T/err")" = 1 ] && grep -q '^fastverity: ' "$T/err"; }

# format with separate outputs: hash image, root hash file, FEC file; the
# complete new ones from a run without faults
bad=0 runs=0
"$FV" format d h.new --salt=00 --uuid=$UUID --root-hash-file=r.new --fec-device=f.new --fec-roots=4 >/dev/null
old_or_new() { cmp -s "$1" "$1.old" || cmp -s "$1" "$1.new"; }
cp h.old h; cp r.old r; cp f.old f
N=$(calls "$FV" format d h --salt=00 --uuid=$UUID --root-hash-file=r --fec-device=f --fec-roots=4)
for n in $(seq 1 $((N + 1))); do
	for k in $(kinds_for "$n"); do
		cp h.old h; cp r.old r; cp f.old f
		inject "$n" "$k" "$FV" format d h --salt=00 --uuid=$UUID --root-hash-file=r --fec-device=f --fec-roots=4
		runs=$((runs + 1))
		if [ "$(cat rc)" = 0 ]; then
			cmp -s h h.new && cmp -s r r.new && cmp -s f f.new ||
				{ bad=$((bad + 1)); echo "  format, call $n $k: exit 0 but not the new files" >&2; }
		elif ! one_line || ! old_or_new h || ! old_or_new r || ! old_or_new f; then
			bad=$((bad + 1)); echo "  format, call $n $k: exit $(cat rc), a file neither old nor new, or no one-line message: $(head -2 err)" >&2
		fi
		[ -z "$(ls -A | grep '^\.')" ] || { bad=$((bad + 1)); echo "  format, call $n $k: temporary file left" >&2; rm -f .??*; }
	done
done
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
cp one.old one
# shellcheck disable=SC2086
N=$(calls "$FV" format one one $P --salt=00 --uuid=$UUID)
for n in $(seq 1 $((N + 1))); do
	for k in $(kinds_for "$n"); do
		cp one.old one
		# shellcheck disable=SC2086
		inject "$n" "$k" "$FV" format one one $P --salt=00 --uuid=$UUID
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		if [ "$(cat rc)" = 0 ]; then
			"$FV" verify one one "$(root_of out)" $P >/dev/null 2>&1 ||
				{ bad=$((bad + 1)); echo "  in place, call $n $k: exit 0 but the image does not verify" >&2; }
		elif ! one_line; then
			bad=$((bad + 1)); echo "  in place, call $n $k: no one-line message: $(head -2 err)" >&2
		elif "$FV" verify one one --root-hash-file=rone.old $P >/dev/null 2>&1; then :
		elif "$FV" verify one one --root-hash-file=rone.new $P >/dev/null 2>&1; then :
		elif "$FV" verify one one --root-hash-file=rone.old $P 2>&1 | grep -q unfinished; then :
		else
			bad=$((bad + 1)); echo "  in place, call $n $k: not the old image, the new one or unfinished" >&2
		fi
	done
done
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
cp h5.old h5
# shellcheck disable=SC2086
N=$(calls "$FV" format d5 h5 $B5 --salt=00 --uuid=$UUID)
for n in $(seq 1 $((N + 1))); do
	for k in $(kinds_for "$n"); do
		cp h5.old h5
		# shellcheck disable=SC2086
		inject "$n" "$k" "$FV" format d5 h5 $B5 --salt=00 --uuid=$UUID
		runs=$((runs + 1))
		if [ "$(cat rc)" = 0 ]; then
			cmp -s h5 h5.new || { bad=$((bad + 1)); echo "  512-byte blocks, call $n $k: exit 0 but not the new file" >&2; }
		elif ! one_line || ! { cmp -s h5 h5.old || cmp -s h5 h5.new; }; then
			bad=$((bad + 1)); echo "  512-byte blocks, call $n $k: exit $(cat rc), a file neither old nor new, or no one-line message: $(head -2 err)" >&2
		fi
		[ -z "$(ls -A | grep '^\.')" ] || { bad=$((bad + 1)); echo "  512-byte blocks, call $n $k: temporary file left" >&2; rm -f .??*; }
	done
done
check "format, 512-byte blocks (level 1 with level 0): $runs faulted runs, each a success or one line; the file old or new, whole" test $bad = 0

# verify reads only: an I/O error is one line (exit 1), or a block read
# alone that fails with EIO is reported unreadable (exit 2); never a bad
# block
bad=0 runs=0
N=$(calls "$FV" verify d h.old "$R" --fec-device=f.old --fec-roots=4)
unreadable_only() {
	grep -q '^Unreadable block at position' "$T/err" && ! grep -q 'Verification failed' "$T/err"
}
for n in $(seq 1 $((N + 1))); do
	for k in $(kinds_for "$n"); do
		inject "$n" "$k" "$FV" verify d h.old "$R" --fec-device=f.old --fec-roots=4
		runs=$((runs + 1))
		case "$(cat rc)" in
		0) ;;
		1) one_line || { bad=$((bad + 1)); echo "  verify, call $n $k: $(head -3 err)" >&2; } ;;
		2) unreadable_only || { bad=$((bad + 1)); echo "  verify, call $n $k: exit 2: $(head -3 err)" >&2; } ;;
		*) bad=$((bad + 1)); echo "  verify, call $n $k: exit $(cat rc): $(head -3 err)" >&2 ;;
		esac
	done
done
check "verify: $runs faulted runs, each exit 0, one line (exit 1) or an unreadable block (exit 2), never a bad block" test $bad = 0
check "verify: the files read are unchanged" sh -c "cmp -s d d && cmp -s h.old h.old"

# sign: the signature is replaced whole
openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -days 2 -subj /CN=t >/dev/null 2>&1
"$FV" sign --key k.pem --cert c.pem "$R" s.old >/dev/null
bad=0 runs=0
N=$(calls "$FV" sign --key k.pem --cert c.pem "$R" s)
for n in $(seq 1 $((N + 1))); do
	for k in $(kinds_for "$n"); do
		cp s.old s
		inject "$n" "$k" "$FV" sign --key k.pem --cert c.pem "$R" s
		runs=$((runs + 1))
		if [ "$(cat rc)" = 0 ]; then
			"$FV" verify d h.old "$R" --root-hash-signature=s --trusted-cert=c.pem >/dev/null 2>&1 ||
				{ bad=$((bad + 1)); echo "  sign, call $n $k: exit 0 but the signature does not check" >&2; }
		elif ! one_line || ! cmp -s s s.old; then
			bad=$((bad + 1)); echo "  sign, call $n $k: exit $(cat rc): $(head -2 err)" >&2
		fi
	done
done
check "sign: $runs faulted runs, each a success or one line with the old signature intact" test $bad = 0

finish
