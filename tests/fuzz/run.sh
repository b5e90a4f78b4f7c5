#!/bin/bash
# Builds the libFuzzer targets with ASan and UBSan and runs each for
# FUZZ_SECONDS (default 10): superblocks, kernel tables, damaged trees,
# repair of damaged data, tree and parity (never a good block made bad),
# root hash files, PKCS#7 signatures, and hash image -> superblock ->
# verify on a sparse mapped file; then reads each one's kept corpus
# again, as the next run starts from it. Prints "fuzz: N passed, N
# failed".
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
flags="-std=c11 -D_GNU_SOURCE -I$top -g1 -O1 -msha -msse4.1 -mssse3 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# the library once, with coverage for the fuzzer (each object on its own
# CPU), then each target
objs="" cobjs="" todo=()
jsonc=$(pkg-config --cflags json-c)
# the C protoc-c makes from the OTA protos (the Makefile's build/gen/)
make -s --no-print-directory -C "$top" build/gen/update_metadata.pb-c.c build/gen/ota_metadata.pb-c.c || exit 1
flags="$flags -I$top/build/gen"
gen="build/gen/update_metadata.pb-c.c build/gen/ota_metadata.pb-c.c"
for src in $lib $gen $cli; do
	o=$out/obj/${src%.c}.o
	mkdir -p "$(dirname "$o")"
	if [ ! -e "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find hashtree verity cli -name '*.h' -newer "$o" | head -1)" ]; then
		todo+=("$src")
	fi
	case $src in cli/*) cobjs="$cobjs $o" ;; *) objs="$objs $o" ;; esac
done
build_one() { # SRC: its object (the library's internal headers are the
	# library's; cli/ is a client of <fastverity.h>)
	local src=$1 o=$out/obj/${1%.c}.o inside=-DFASTVERITY_COMPILATION isa=
	case $src in cli/*) inside= ;; esac
	# the AVX-512 kernel alone is built for AVX-512 (it runs only where
	# the CPU has it)
	case $src in hashtree/sha256_avx512.c) isa="-mavx512f -mavx512bw" ;; esac
	# the generated C: with libprotobuf-c's calls made the library's
	case $src in build/gen/*) isa="-Wno-deprecated-declarations -include verity/container/ota/pbc.h" ;; esac
	# shellcheck disable=SC2086
	clang $flags $isa $jsonc $inside -DFASTVERITY_NO_MAIN -fsanitize=fuzzer-no-link -c "$src" -o "$o" 2>"$o.log" ||
		{ echo "FAIL fuzz: $src does not build" >&2; cat "$o.log" >&2; rm -f "$o"; return 1; }
}
export -f build_one
export out flags jsonc
if [ ${#todo[@]} -gt 0 ]; then
	printf '%s\n' "${todo[@]}" | xargs -P "$(nproc)" -I{} bash -c 'build_one "$1"' _ {} || exit 1
fi
rm -f "$out/libfv.a"
# shellcheck disable=SC2086
ar rcs "$out/libfv.a" $objs
# leaks in third-party code, each explained there
export LSAN_OPTIONS=suppressions=$top/tests/asan/lsan.supp:print_suppressions=0
# each target built, then run, as many at once as there are CPUs; each
# one's verdict in $out/NAME.verdict
run_target() { # SOURCE
	local t=$1 name extra="" opts="" dict=""
	name=$(basename "$t" .c)
	# the command line: the command's objects and libraries; it keeps
	# what popt hands it for the life of the process, as a command does
	[ "$name" = fuzz_cli ] && extra="$cobjs -lpopt -ljson-c" && opts="-detect_leaks=0 -close_fd_mask=3" &&
		dict=-dict=tests/fuzz/fuzz_cli.dict
	# shellcheck disable=SC2086
	if ! clang $flags $jsonc -DFASTVERITY_COMPILATION -fsanitize=fuzzer -o "$out/$name" "$t" $extra "$out/libfv.a" \
		-lcrypto -ljson-c -lisal -lfec -lz -lpthread -lm 2>"$out/$name.log"; then
		{ echo "FAIL fuzz: $name does not build"; cat "$out/$name.log"; } >"$out/$name.verdict"
		return 0
	fi
	mkdir -p "$out/$name.corpus"
	# shellcheck disable=SC2086
	if ! ASAN_OPTIONS=${opts:+detect_leaks=0} "$out/$name" -max_total_time="$secs" -max_len=4096 \
		-artifact_prefix="$out/" $opts $dict "$out/$name.corpus" \
		>"$out/$name.log" 2>&1; then
		{ echo "FAIL fuzz: $name:"; tail -30 "$out/$name.log"; } >"$out/$name.verdict"
		return 0
	fi
	# the corpus it keeps read again, named from its directory as by
	# hand (the next run starts from it: an input of it that cannot be
	# read, or that no longer runs, fails here, not in the next run)
	# shellcheck disable=SC2086
	if ! (cd "$out" && ASAN_OPTIONS=${opts:+detect_leaks=0} "./$name" -runs=1 -max_len=4096 \
		-artifact_prefix="$out/" $opts "$name.corpus") >"$out/$name.replay.log" 2>&1; then
		{ echo "FAIL fuzz: $name: its corpus read again:"; tail -30 "$out/$name.replay.log"; } >"$out/$name.verdict"
		return 0
	fi
	echo "$name: $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$out/$name.log") runs in ${secs} s, no failure" >"$out/$name.verdict"
}
export -f run_target
export cobjs secs LSAN_OPTIONS
rm -f "$out"/*.verdict
ls tests/fuzz/fuzz_*.c | xargs -P "$(nproc)" -I{} bash -c 'run_target "$1"' _ {}
for t in tests/fuzz/fuzz_*.c; do
	v=$out/$(basename "$t" .c).verdict
	if [ -s "$v" ] && ! grep -q '^FAIL' "$v"; then
		cat "$v"
		passed=$((passed + 1))
	else
		cat "$v" >&2 2>/dev/null || echo "FAIL fuzz: $(basename "$t" .c): no verdict" >&2
		failed=$((failed + 1))
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
