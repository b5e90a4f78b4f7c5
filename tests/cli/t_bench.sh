# fastverity bench: structure, JSON, CSV, paths, invalid combinations,
# and --device never writes. No assertion on timings.
. "$(dirname "$0")/lib.sh"
export FASTVERITY_BENCH_SECONDS=0.5

cd "$T" || exit 1
check "bench runs" run_rc 0 "$FV" bench --size=4M --hash=sha256,sha512 --format=1,0 --salt-size=0,32
cp out table
check "table: machine line" grep -qE '^fastverity bench: .*, [0-9]+ CPUs \(.*\), [0-9]+ threads, 4.0 MiB of synthetic data in memory$' table
for impl in "SHA-256 portable C" "OpenSSL EVP, new context per block" "OpenSSL EVP, pre-salted context copied" "Kernel crypto API (AF_ALG)"; do
	check "table: row $impl" grep -q "^  $impl " table
done
check "table: AF_ALG row measured or says why" grep -qE '^  Kernel crypto API \(AF_ALG\) +([0-9]+ |- +- +- +not measured: .+)' table
if grep -q sha_ni /proc/cpuinfo; then
	check "table: SHA-NI rows" grep -q '^  SHA-256 SHA-NI two-way ' table
	check "table: SHA-NI three-way row" grep -q '^  SHA-256 SHA-NI three-way ' table
	# the row of the kernel --version names: "sha-ni (three-way)" is
	# "SHA-NI three-way", "avx-512 (16-lane)" "AVX-512 16-lane"
	row=$("$FV" --version | sed -n 's/^SHA-256 on this CPU: \(.*\) (\(.*\))$/\1 \2/p' | sed 's/^sha-ni/SHA-NI/; s/^avx-512/AVX-512/')
	check "table: the fast path is the kernel --version names ($row)" \
		grep -q "^  SHA-256 $row .* fastverity.s fast path$" table
fi
check "table: the kernels' columns: every thread, cycles a byte" grep -qE '^  implementation +MB/s +spread +ratio +([0-9]+ threads)? +c/B  note$' table
if [ "$(nproc)" -gt 1 ]; then
	check "table: the portable kernel's rate on every thread" grep -qE '^  SHA-256 portable C +[0-9]+ +[0-9]+-[0-9]+ +[0-9.]+ +[0-9]+ +([0-9.]+|-)  fastverity without them$' table
fi
check "table: 8 tree rows" test "$(grep -cE '^  sha(256|512) ' table)" = 8
check "table: sha256 format 1 is fast" grep -qE '^  sha256 +(0|32) +4096 +4096 +1 +[0-9]+ fast +2 ' table
check "table: sha256 format 0 is generic" grep -qE '^  sha256 +(0|32) +4096 +4096 +0 +[0-9]+ generic ' table
check "table: sha512 is generic" grep -qE '^  sha512 +32 +4096 +4096 +1 +[0-9]+ generic ' table
check "table: overhead of sha256 at 4096" grep -qE '^  sha256 +0 +4096 +4096 +1 .* 36.0 KiB +0.88%  [0-9]+-[0-9]+$' table
check "table: each path with its reason" sh -c "grep -q '^  fast path: sha256 in format 1' table && grep -q '^  generic path: format 0 appends the salt' table && grep -q '^  generic path: not sha256' table"
check "table: summary" grep -q '^Summary:' table
check "table: 10 FEC rows, ISA-L and libfec for 2, 4, 8, 16, 24 roots" test "$(grep -cE '^ +(2|4|8|16|24)  (ISA-L|libfec), ' table)" = 10
check "table: FEC rows measured, libfec the reference" sh -c "grep -qE '^ +24  libfec, one codeword at a time +[0-9]+ +[0-9]+-[0-9]+ +1.0x  how veritysetup encodes$' table && grep -qE '^ +2  ISA-L, every codeword of a round +[0-9]+ +[0-9]+-[0-9]+ +[0-9.]+x  fastverity.s encoder$' table"
check "table: FEC summary sentence" grep -qE '^  FEC parity: ISA-L encodes [0-9]+x \(2 roots\) to [0-9]+x \(24 roots\) as fast as libfec' table
# the choice of roots, for the image measured: parity, its share, the
# encode time here, the longest run of bad blocks corrected (named by
# the tree: roots per codeword of each round; not: half that)
check "table: FEC advice for this image, 5 rows" test "$(sed -n '/^FEC for this image/,/^$/p' table | grep -cE '^ +(2|4|8|16|24) +[0-9.]+ MiB +[0-9.]+% +([0-9.]+ ms|-) +[0-9.]+ MiB +[0-9.]+ MiB$')" = 5
check "table: the roots recommended, with what they cost and correct" grep -qE '^  FEC, recommended here: 2 roots \(the default of veritysetup and avbtool\): parity [0-9.]+% of the data, correcting a run of up to [0-9.]+ MiB of bad blocks the tree names \([0-9.]+ MiB unnamed\)' table
check "table: salt cost sentence" grep -qE 'sha256, 4096/4096-byte blocks, format 1, against no salt: 32 bytes(: no measurable difference| cost [0-9.]+% of throughput| measured [0-9.]+% faster)' table
# the sentence agrees with the spreads of the table (a cost only beyond
# them); the table rounds, so only a clear overlap or gap is judged
salt_agrees() {
	awk '$1 == "sha256" && $3 == 4096 && $4 == 4096 && $5 == 1 && ($2 == 0 || $2 == 32) { split($NF, r, "-"); lo[$2] = r[1]; hi[$2] = r[2] }
	END { if (!(0 in lo) || !(32 in lo)) exit 1
	      gap = (lo[32] > hi[0] + 2 || lo[0] > hi[32] + 2) && lo[0] < hi[0] && lo[32] < hi[32]
	      over = lo[32] <= hi[0] - 2 && lo[0] <= hi[32] - 2
	      print gap ? "gap" : over ? "overlap" : "edge" }' table >verdict || return 1
	case $(cat verdict) in
	gap) ! grep -q 'against no salt: 32 bytes: no measurable difference' table ;;
	overlap) grep -q 'against no salt: 32 bytes: no measurable difference' table ;;
	*) true ;;
	esac
}
check "table: a salt's cost said only beyond the spreads" salt_agrees
check "table: spread columns" grep -qE '^  sha256 +0 +4096 +4096 +1 +[0-9]+ fast +2 .* [0-9]+-[0-9]+$' table
# (which setting wins is a measurement: on a loaded machine sha512 or
# format 0 may, or lead inside the noise so that the default is kept and
# says why; only the safety constraints are certain)
check "table: a recommendation" grep -qE '^  Recommended here: sha(256|512), a 32-byte salt, 4096/4096-byte blocks, format [01] \((fast|generic) path, [0-9]+ MB/s(; the default: no setting measured faster beyond the noise)?\); against it: ' table
check "table: the tree overhead names its settings" grep -qE 'The tree costs [0-9.]+% of the data \(sha256, 4096/4096-byte blocks, format [01]\)' table
check "one thread: \"1 thread\"" sh -c "'$FV' bench --size=1M --threads=1 --salt-size=0 | grep -q '^Whole tree, 1 thread (MB/s'"

check "json" run_rc 0 "$FV" bench --json --size=1M --salt-size=32
jqok . out
check "json: parses" test $? = 0
check "json: machine" jqok '.machine | (.cpu | length > 0) and .cpus >= 1 and (.flags_used | type == "array") and .threads >= 1 and (.sha256_kernel | length > 0)' out
# six implementations, SHA-NI three-way where the CPU has SHA-NI, the
# 16 lanes of AVX-512 where it has AVX-512F and BW
impls=6
grep -q sha_ni /proc/cpuinfo && impls=7
grep -qw avx512f /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo && impls=$((impls + 1))
check "json: implementations have every field, with their spread" jqok '.implementations | length == '"$impls"' and all(has("name") and has("mb_per_s") and has("mb_per_s_min") and has("mb_per_s_max") and has("ratio") and has("note")) and all(.mb_per_s == null or (.mb_per_s_min <= .mb_per_s and .mb_per_s <= .mb_per_s_max))' out
# the kernels also on every thread at once (with more than one), and
# cycles a byte at the clock measured by a chain of adds (x86-64, arm64)
check "json: the clock measured" jqok '.machine.clock_mhz == null or (.machine.clock_mhz > 100 and .machine.clock_mhz < 10000)' out
if [ "$(nproc)" -gt 1 ]; then
	check "json: the SHA-256 kernels on every thread at once" jqok '[.implementations[] | select(.name | test("^SHA-256 .*(-way|-lane)$")) | select(.mb_per_s != null)] | length >= 1 and all(.all_threads_mb_per_s > 0 and .all_threads_mb_per_s_min <= .all_threads_mb_per_s and .all_threads_mb_per_s <= .all_threads_mb_per_s_max)' out
	check "json: OpenSSL's rows on one core only" jqok '[.implementations[] | select(.name | test("^OpenSSL")) | has("all_threads_mb_per_s")] | all(. == false)' out
fi
check "json: cycles a byte for every row measured" jqok '.machine.clock_mhz == null or ([.implementations[] | select(.mb_per_s != null) | .cycles_per_byte > 0] | all)' out
check "json: 10 FEC encoders with every field" jqok '[.fec[] | select(has("roots") and has("encoder") and (.mb_per_s > 0) and (.mb_per_s_min <= .mb_per_s) and (.mb_per_s <= .mb_per_s_max) and has("vs_libfec") and has("note"))] | length == 10 and ([.[].roots] | unique == [2, 4, 8, 16, 24])' out
# 1 MiB: 256 data blocks and 3 tree blocks; 2 roots: 2 rounds (253 a
# round), 4 parity blocks; a run of 4 blocks named, 2 unnamed
check "json: the FEC advice, computed for the image" jqok '.fec_advice | length == 5 and .[0].roots == 2 and .[0].parity_bytes == 16384 and .[0].run_named_bytes == 16384 and .[0].run_unnamed_bytes == 8192 and .[0].parity_percent == 1.56 and (.[0].encode_ms > 0) and .[4].roots == 24 and .[4].run_unnamed_bytes * 2 == .[4].run_named_bytes' out
check "json: the setting with every field" jqok '.settings | length == 1 and all(has("hash") and has("salt_size") and has("data_block_size") and has("hash_block_size") and has("format") and has("valid") and has("reason") and has("mb_per_s") and has("mb_per_s_min") and has("mb_per_s_max") and has("path") and has("path_reason") and has("levels") and has("tree_bytes") and has("overhead_percent"))' out
check "json: the setting is fast" test "$(jq -r '.settings[] | select(.valid) | [.hash, .salt_size, .data_block_size, .format, .path, .levels, .tree_bytes] | @csv' out)" = '"sha256",32,4096,1,"fast",2,12288'
check "json: numbers with the digits they mean" sh -c "! grep -qE '[0-9]\.[0-9]{4,}' '$T/out'"
# impossible combinations: an error before anything is measured
for case in "--hash=sha256,nosuchhash|nosuchhash, 0-byte salt, 4096/4096-byte blocks, format 1: hash algorithm nosuchhash not supported" \
	"--data-block-size=4096,1000|sha256, 0-byte salt, 1000/4096-byte blocks, format 1: unsupported data block size 1000" \
	"--salt-size=32,300|sha256, 300-byte salt, 4096/4096-byte blocks, format 1: salt of 300 bytes is too long" \
	"--format=1,2|sha256, 0-byte salt, 4096/4096-byte blocks, format 2: unsupported hash type 2"; do
	arg=${case%%|*}
	msg=${case#*|}
	check "bench $arg: exit 1 before measuring" sh -c "'$FV' bench --size=1M $arg >'$T/out' 2>'$T/err'; test \$? = 1 && test ! -s '$T/out'"
	check "  says which and why" grep -qF "bench: $msg" err
done

check "csv" run_rc 0 "$FV" bench --csv --size=1M --format=1,0 --salt-size=0
check "csv: header" test "$(head -1 out)" = "kind,name,hash,salt_size,data_block_size,hash_block_size,format,mb_per_s,path,levels,tree_bytes,overhead_percent,note"
check "csv: $impls implementation rows" test "$(grep -c '^implementation,' out)" = $impls
check "csv: 10 FEC rows of 13 fields" test "$(grep '^fec,' out | sed 's/"[^"]*"/q/g' | awk -F, 'NF == 13' | wc -l)" = 10
check "csv: 2 tree rows, fast then generic" test "$(grep '^tree,' out | cut -d, -f3,7,9 | tr '\n' ' ')" = "sha256,1,fast sha256,0,generic "

# --device: a real image, read-only.
gen 61 $((8 << 20)) >img
sha256sum img >sum
check "--device" run_rc 0 env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=openat -o trace "$FV" bench --device=img --salt-size=32
check "--device: names the image" grep -q 'of img$' out
check "--device: measured a tree" grep -qE '^  sha256 +32 +4096 +4096 +1 +[0-9]+ fast ' out
check "--device: what bounds it, and how near a cold build runs" grep -qE '^  img reads at [0-9]+ MB/s with its cache dropped, and the SHA unit hashes up to [0-9]+ MB/s on [0-9]+ threads?: (disk|CPU)-bound .*A tree built from it cold ran at [0-9]+ MB/s, [0-9]+% of that bound.$' out
check "--device: image unchanged" sha256sum -c --quiet sum
check "--device: opened read-only" sh -c "grep '\"img\"' trace | grep -q O_RDONLY && ! grep '\"img\"' trace | grep -q 'O_RDWR\|O_WRONLY'"
check "--device: missing file" run_rc 4 "$FV" bench --device=nothere
# Issue 53, 18: bench --json --device says what bounds a cold format in
# device_bound, which the schema now describes (finish validates it)
check "--device --json" run_rc 0 "$FV" bench --json --device=img --salt-size=32 --time=1
check "--device --json: device_bound" jqok '.device == "img" and (.device_bound | .bound == "disk" or .bound == "cpu") and .device_bound.device_read_mb_per_s > 0' out
check "bench takes no arguments" run_rc 1 "$FV" bench extra
check "bad list" run_rc 1 "$FV" bench --salt-size=a,b

# --time sets how long; a bad value is refused before anything runs
check "--time=1" run_rc 0 env -u FASTVERITY_BENCH_SECONDS "$FV" bench --size=1M --time=1 --salt-size=32
check "--time=abc refused" run_rc 1 "$FV" bench --time=abc
check "  names the option" grep -q "^fastverity: --time: 'abc' is not a number of seconds" "$T/err"
check "a run time of more than a day refused, said as bench's" run_rc 1 env FASTVERITY_BENCH_SECONDS=100000 "$FV" bench --hash=x
check "  its words" grep -qx "fastverity: bench: fv_bench_run: 100000 seconds (more than 0, at most a day)" "$T/err"

finish
