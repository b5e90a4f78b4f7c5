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
# the sources, as the Makefile lists them
lib=$(make -s --no-print-directory -C "$top" print-LIB_SRC print-KERNEL_SRC)
cli=$(make -s --no-print-directory -C "$top" print-CLI_SRC)
passed=0 failed=0
cd "$top" || exit 1
flags="-std=c11 -D_GNU_SOURCE -I$top -g -O1 -msha -msse4.1 -mssse3 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# the library once, with coverage for the fuzzer, then each target
objs="" cobjs=""
jsonc=$(pkg-config --cflags json-c)
for src in $lib $cli; do
	o=$out/obj/${src%.c}.o
	mkdir -p "$(dirname "$o")"
	# shellcheck disable=SC2086
	if [ ! -e "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find hashtree verity cli -name '*.h' -newer "$o" | head -1)" ]; then
		# the library's internal headers are the library's; cli/ is
		# a client of <fastverity.h>
		inside=-DFASTVERITY_COMPILATION
		case $src in cli/*) inside= ;; esac
		clang $flags $jsonc $inside -DFASTVERITY_NO_MAIN -fsanitize=fuzzer-no-link -c "$src" -o "$o" 2>"$out/lib.log" ||
			{ echo "FAIL fuzz: $src does not build" >&2; cat "$out/lib.log" >&2; exit 1; }
	fi
	case $src in cli/*) cobjs="$cobjs $o" ;; *) objs="$objs $o" ;; esac
done
rm -f "$out/libfv.a"
# shellcheck disable=SC2086
ar rcs "$out/libfv.a" $objs
# leaks in third-party code, each explained there
export LSAN_OPTIONS=suppressions=$top/tests/asan/lsan.supp:print_suppressions=0
for t in tests/fuzz/fuzz_*.c; do
	name=$(basename "$t" .c)
	extra="" opts=""
	# the command line: the command's objects and libraries; it keeps
	# what popt hands it for the life of the process, as a command does
	[ "$name" = fuzz_cli ] && extra="$cobjs -lpopt -ljson-c" && opts="-detect_leaks=0 -close_fd_mask=3 -dict=tests/fuzz/fuzz_cli.dict"
	# shellcheck disable=SC2086
	if ! clang $flags $jsonc -DFASTVERITY_COMPILATION -fsanitize=fuzzer -o "$out/$name" "$t" $extra "$out/libfv.a" \
		-lcrypto -ljson-c -lisal -lfec -lz -lpthread -lm 2>"$out/$name.log"; then
		echo "FAIL fuzz: $name does not build" >&2
		cat "$out/$name.log" >&2
		failed=$((failed + 1))
		continue
	fi
	mkdir -p "$out/$name.corpus"
	# shellcheck disable=SC2086
	if ASAN_OPTIONS=${opts:+detect_leaks=0} "$out/$name" -max_total_time="$secs" -max_len=4096 \
		-artifact_prefix="$out/" $opts "$out/$name.corpus" \
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
