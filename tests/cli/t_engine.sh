# Threads, progress, holes and images over 4 GiB.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
gen 41 $((3000 * 4096 + 0)) >data
for n in 1 2 3 8; do
	"$FV" format data hash.$n --threads=$n --salt=$SALT --uuid=$UUID >out.$n
	check "--threads=$n: format" test $? = 0
done
for n in 2 3 8; do
	check "--threads=$n: same hash image as 1 thread" cmp -s hash.1 hash.$n
	check "--threads=$n: same output" cmp -s <(sed 's/hash\.[0-9]//' out.1) <(sed 's/hash\.[0-9]//' out.$n)
done
R=$(root_of out.1)
printf 'X' | dd of=data bs=1 seek=$((17 * 4096)) conv=notrunc status=none
printf 'X' | dd of=data bs=1 seek=$((2999 * 4096)) conv=notrunc status=none
for n in 1 2 3 8; do
	run_rc 2 "$FV" verify data hash.1 "$R" --threads=$n
	check "--threads=$n: verify reports both, in order" test "$(head -2 "$T/err" | tr '\n' ' ')" = \
		"Verification failed at position 69632. Verification failed at position 12283904. "
done
check "--threads=0 refused" run_rc 1 "$FV" format data h --threads=0
check "--threads=abc refused" run_rc 1 "$FV" format data h --threads=abc
check "--threads=257 refused" run_rc 1 "$FV" format data h --threads=257

# Progress: never on a non-terminal unless forced, always cleared.
check "no progress when stderr is a file" run_rc 0 "$FV" format data h --salt=$SALT
check "  stderr empty" test ! -s "$T/err"
check "--progress forces it" run_rc 0 "$FV" format data h --salt=$SALT --progress
check "  action, pass, percent and MiB/s" grep -qE '^format, hash data: 100%, [0-9.]+ of [0-9.]+ MiB, [0-9.]+ MiB/s$' "$T/err"
check "  plain lines, the last at 100%" sh -c "tail -1 '$T/err' | grep -q '^format, hash data: 100%, ' && ! grep -q \"\$(printf '\\r')\" '$T/err'"
run_rc 2 "$FV" verify data hash.1 "$R" --progress --threads=1
check "--progress on verify" grep -qE '^verify, verify data: 100%, .* MiB/s$' "$T/err"
if command -v script >/dev/null; then
	script -qec "'$FV' format data h2 --salt=$SALT --threads=1" /dev/null </dev/null >tty.out 2>&1
	check "terminal: progress shown" grep -q 'MiB/s' tty.out
	script -qec "'$FV' format data h2 --salt=$SALT --no-progress" /dev/null </dev/null >tty.out 2>&1
	check "terminal: --no-progress hides it" sh -c "! grep -q 'MiB/s' tty.out"
	# a damaged image with parity: the failure lines, the counts and the
	# FEC lines never share a line with a bar (what the terminal shows:
	# the text after the last carriage return or line clear), and each
	# pass has its own bar, named, ending at 100%
	gen 44 $((16 << 20)) >pdata
	"$FV" format pdata ph --fec-device=pf --fec-roots=2 --root-hash-file=pr >/dev/null
	"$TOP/build/mkimage" random 45 4096 | dd of=pdata bs=4096 seek=7 conv=notrunc status=none
	for act in verify repair; do
		cp pdata pd.$act
		script -qec "'$FV' $act pd.$act ph $(cat pr) --fec-device=pf --threads=1" /dev/null </dev/null >tty.out 2>&1
		python3 - tty.out >tty.check <<'PY'
import re, sys
text = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
bad, last, order = 0, {}, []
for line in text.split('\n'):
    for f in re.split(r'\r|\x1b\[K', line):
        if 'MiB/s' not in f:
            continue
        m = re.fullmatch(r'(\w+, [a-z ]+): +([0-9.]+)%  .* s left', f)
        if not m:
            bad += 1  # a bar with other text on its line
            continue
        if m.group(1) not in last:
            order.append(m.group(1))
        last[m.group(1)] = float(m.group(2))
print('glued', bad)
print('passes', ' | '.join(order))
print('unfinished', sum(1 for v in last.values() if v != 100.0))
PY
		check "terminal, $act of a damaged image: no result glued to a bar" grep -qx 'glued 0' tty.check
		check "  a bar per pass, each ending at 100%" grep -qx 'unfinished 0' tty.check
		check "  the passes named in order" grep -q "^passes $act, verify data | $act, rebuild | $act, verify again | $act, check parity$" tty.check
		check "  the result lines whole" grep -q "Verification failed at position 28672\|Repaired position 28672" tty.out
	done
else
	skip "progress on a terminal (no script(1) here)"
fi
# At most ten updates a second: count the carriage returns of a slow run.
FASTVERITY_SHA256=portable "$FV" format data h3 --salt=$SALT --threads=1 --progress 2>prog >/dev/null
start=$(date +%s%N)
FASTVERITY_SHA256=portable "$FV" format data h3 --salt=$SALT --threads=1 --progress 2>prog >/dev/null
secs=$(( ($(date +%s%N) - start) / 1000000 ))
updates=$(tr -cd '\r' <prog | wc -c)
check "at most ten updates a second ($updates in ${secs} ms)" test "$updates" -le $(( secs / 100 + 3 ))

# A sparse 5 GiB image with data far past 4 GiB, against veritysetup.
# make check (CHECK_QUICK=1) takes 64 KiB data blocks: veritysetup reads
# the 5 GiB in blocks, 13-19 s of system calls here at 4 KiB against 3 s
# at 64 KiB, and every byte offset past 4 GiB is the same; make
# check-full takes 4 KiB
BB=4096
[ "${CHECK_QUICK:-}" = 1 ] && BB=65536
truncate -s $((5 << 30)) big
gen 42 $((1 << 20)) | dd of=big bs=1M seek=0 conv=notrunc status=none
gen 43 $((1 << 20)) | dd of=big bs=1M seek=$((4096 + 512)) conv=notrunc status=none
gen 44 4096 | dd of=big bs=4096 seek=$(( (5 << 30) / 4096 - 1 )) conv=notrunc status=none
"$FV" format big big.fv --salt=$SALT --uuid=$UUID --data-block-size=$BB >o.fv
check "5 GiB ($BB-byte blocks): fastverity format" test $? = 0
$VS format big big.vs --salt=$SALT --uuid=$UUID --data-block-size=$BB >o.vs 2>/dev/null
check "5 GiB: same output as veritysetup" cmp -s <(sed 's/big\...//' o.fv) <(sed 's/big\...//' o.vs)
check "5 GiB: same hash image as veritysetup" cmp -s big.fv big.vs
R=$(root_of o.fv)
check "5 GiB: fastverity verifies veritysetup's tree" "$FV" verify big big.vs "$R"
at=$(( (4096 + 512) * 1048576 + 5000 ))
printf 'Z' | dd of=big bs=1 seek=$at conv=notrunc status=none
run_rc 2 "$FV" verify big big.vs "$R"
check "5 GiB: a change past 4 GiB is found at its offset" grep -qx "Verification failed at position $(( at - at % BB ))." "$T/err"
rm -f big big.fv big.vs

# A data file that shrinks during format: one clear line, exit 1.
gen 45 $((256 << 20)) >shrink
FASTVERITY_SHA256=portable "$FV" format shrink shrink.h --threads=1 --progress 2>shrink.err >/dev/null &
pid=$!
for _ in $(seq 200); do [ -s shrink.err ] && break; sleep 0.05; done
truncate -s $((16 << 20)) shrink
wait $pid
check "shrinking data file: exit 1" test $? = 1
check "shrinking data file: says so, in a line of its own after the progress lines" \
	sh -c "tail -1 shrink.err | grep -qx 'fastverity: shrink: the file shrank while it was being read ($((16 << 20)) bytes, $((256 << 20)) when opened)'"

# Reading ahead of the workers: data already in the page cache is not
# read a second time (the last byte of each step is probed: RWF_NOWAIT,
# or mincore() on tmpfs, which does not take RWF_NOWAIT). A plain read by
# the read-ahead thread is a preadv2 with no flags.
shm=$(mktemp -d /dev/shm/fastverity-test.XXXXXX)
for where in "$T" "$shm"; do
	fs=$(stat -f -c %T "$where")
	gen 43 $((64 << 20)) >"$where/ra.data"
	strace -f -e trace=preadv2 -o "$where/ra.trace" "$FV" format "$where/ra.data" "$where/ra.hash" --salt=$SALT >/dev/null
	check "read-ahead, $fs: cached data probed" grep -q 'RWF_NOWAIT' "$where/ra.trace"
	check "read-ahead, $fs: cached data not read again" sh -c "! grep -q '^[0-9]* *preadv2(.*, 0) = ' '$where/ra.trace'"
done
rm -rf "$shm"

# The tree's writeback is started a whole MiB at a time while the workers
# hash on (64 MiB at 512-byte blocks: a 4.3 MiB tree, at most five kicks,
# each of whole MiBs).
strace -f -e trace=sync_file_range -o wb.trace "$FV" format "$T/ra.data" wb.hash --salt=$SALT \
	--data-block-size=512 --hash-block-size=512 >/dev/null
check "tree writeback: started while hashing, a MiB at a time" \
	awk -F', ' '/sync_file_range\(/ { n++; if ($3 % 1048576) bad++ }
		END { exit !(n >= 1 && n <= 5 && !bad) }' wb.trace
rm -f "$T/ra.data" "$T/ra.hash" "$T/ra.trace" wb.trace wb.hash

finish
