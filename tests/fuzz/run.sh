#!/bin/bash
# Builds the libFuzzer targets with ASan and UBSan and runs each for
# FUZZ_SECONDS (default 10); fuzz_repair damages data, tree and FEC
# parity and checks that repair never makes a good block bad. Prints "fuzz: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/fuzz
secs=${FUZZ_SECONDS:-10}
mkdir -p "$out"
lib="hashtree/error.c hashtree/sha256.c hashtree/sha256_shani.c hashtree/hasher.c
     hashtree/geometry.c hashtree/tree.c hashtree/window.c hashtree/pool.c
     verity/params.c verity/superblock.c verity/layout.c verity/device.c
     verity/format.c verity/verify.c verity/table.c
     verity/fec_rs.c verity/fec.c verity/fec_repair.c"
passed=0 failed=0
cd "$top" || exit 1
for t in tests/fuzz/fuzz_*.c; do
	name=$(basename "$t" .c)
	# shellcheck disable=SC2086
	if ! clang -std=c11 -D_GNU_SOURCE -g -O1 -msha -msse4.1 -mssse3 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-o "$out/$name" "$t" $lib -lcrypto -lisal -lfec -lpthread 2>"$out/$name.log"; then
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
