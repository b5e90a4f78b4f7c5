#!/bin/bash
# Builds the libFuzzer targets with ASan and UBSan and runs each for
# FUZZ_SECONDS (default 10): superblocks, kernel tables, damaged trees,
# repair of damaged data, tree and parity (never a good block made bad),
# root hash files, PKCS#7 signatures, and hash image -> superblock ->
# verify on a sparse mapped file. Prints "fuzz: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/fuzz
secs=${FUZZ_SECONDS:-10}
mkdir -p "$out"
lib="hashtree/error.c hashtree/sha256.c hashtree/sha256_shani.c hashtree/hasher.c
     hashtree/geometry.c hashtree/tree.c hashtree/window.c hashtree/pool.c
     verity/params.c verity/superblock.c verity/layout.c verity/device.c
     verity/format.c verity/verify.c verity/table.c
     verity/fec_rs.c verity/fec.c verity/fec_repair.c verity/signature.c"
passed=0 failed=0
cd "$top" || exit 1
flags="-std=c11 -D_GNU_SOURCE -g -O1 -msha -msse4.1 -mssse3 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# the library once, with coverage for the fuzzer, then each target
objs=""
for src in $lib; do
	o=$out/obj/${src%.c}.o
	mkdir -p "$(dirname "$o")"
	# shellcheck disable=SC2086
	if [ ! -e "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find hashtree verity -name '*.h' -newer "$o" | head -1)" ]; then
		clang $flags -fsanitize=fuzzer-no-link -c "$src" -o "$o" 2>"$out/lib.log" ||
			{ echo "FAIL fuzz: $src does not build" >&2; cat "$out/lib.log" >&2; exit 1; }
	fi
	objs="$objs $o"
done
# leaks in third-party code, each explained there
export LSAN_OPTIONS=suppressions=$top/tests/asan/lsan.supp:print_suppressions=0
for t in tests/fuzz/fuzz_*.c; do
	name=$(basename "$t" .c)
	# shellcheck disable=SC2086
	if ! clang $flags -fsanitize=fuzzer -o "$out/$name" "$t" $objs \
		-lcrypto -lisal -lfec -lpthread 2>"$out/$name.log"; then
		echo "FAIL fuzz: $name does not build" >&2
		cat "$out/$name.log" >&2
		failed=$((failed + 1))
		continue
	fi
	mkdir -p "$out/$name.corpus"
	if "$out/$name" -max_total_time="$secs" -max_len=4096 "$out/$name.corpus" \
		>"$out/$name.log" 2>&1; then
		echo "$name: $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$out/$name.log") runs in ${secs} s, no failure"
		passed=$((passed + 1))
	else
		echo "FAIL fuzz: $name:" >&2
		tail -30 "$out/$name.log" >&2
		failed=$((failed + 1))
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
