#!/bin/bash
# make check-arm64: fastverity built for aarch64 with Debian's cross
# compiler against the arm64 development packages (multiarch), then run
# under qemu-user on this machine:
# - every unit suite on qemu's "max" CPU, which has the Armv8 SHA-256
#   instructions: the Armv8 kernels, one-way and two-way, against OpenSSL
#   for every salt size 0..256 and block sizes 512 to 65536, and ISA-L's
#   arm64 (NEON) parity against libfec;
# - the suites that hash through the hasher (tree, api) again with
#   FASTVERITY_SHA256=portable: the dispatch and the portable path (every
#   CPU model qemu 7.2 offers has SHA2, so none can stand in for a CPU
#   without it);
# - a named subset of the command tests, with the arm64 binary as
#   fastverity and the host's veritysetup as the oracle: t_vectors
#   (byte-identical trees in both directions), t_corruption, and t_fec
#   with roots 2 and 24 (parity byte-identical, verify, repair). The whole
#   command suite takes over four minutes under emulation; the rest
#   (loop devices, fault injection by LD_PRELOAD of a host library,
#   install) needs root devices or a host preload besides;
# - the kernel test (tests/kernel/run.sh, KARCH=arm64): Debian's arm64
#   kernel booted under qemu-system-aarch64 (TCG), the aarch64 fastverity
#   and the library opening, reading the status of and closing devices
#   against the real dm-verity target, arm64 veritysetup as the oracle;
#   its quick set (library, block devices, loop files, corruption, wrong
#   root, status against veritysetup, FEC), the option-table, signature
#   and deferred-removal sections being CPU-independent and run on x86.
#
# make check (CHECK_QUICK=1) runs the short set: the build, the kernel
# picked and forced, bench's names, the suites of the code that differs
# on arm64 (hashtree/test_sha256: the Armv8 kernels, and test_hasher:
# the hasher's fast path on them; fec/test_rs and
# fec/test_layout: ISA-L's NEON parity, without fec/test_encode's
# fused-parity case) and t_vectors (trees through the
# Armv8 kernel, byte-identical with veritysetup's); make check-full all
# of the above.
#
# ISA-L's arm64 package cannot be installed beside the host's (libisal2
# is not Multi-Arch: same), so it is unpacked into build-arm64/sysroot.
# Emulated speed is no speed figure: nothing here measures time.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
B=build-arm64
CC=aarch64-linux-gnu-gcc
sysroot=$top/$B/sysroot
isal_lib=$sysroot/usr/lib/aarch64-linux-gnu

for tool in $CC qemu-aarch64-static; do
	command -v "$tool" >/dev/null || {
		echo "check-arm64: $tool is missing (make deps installs it)" >&2
		exit 1
	}
done

if [ ! -e "$isal_lib/libisal.so.2" ]; then
	mkdir -p "$B/debs" "$sysroot"
	(cd "$B/debs" && apt-get download -q libisal2:arm64 libisal-dev:arm64 >/dev/null 2>&1) || {
		echo "check-arm64: cannot download libisal2:arm64 and libisal-dev:arm64 (apt-get download)" >&2
		exit 1
	}
	for d in "$B"/debs/libisal*_arm64.deb; do dpkg -x "$d" "$sysroot"; done
fi

export PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig:$isal_lib/pkgconfig
# (libcrypto and libfec for the suites that call them themselves: the
# library opens them when needed; the compressors for the OTA suites,
# which make their test payloads with them)
libs="-L$isal_lib $(pkg-config --libs popt json-c) -lisal -lz -lpthread"
test_libs="$(pkg-config --libs libcrypto) -lfec -lbz2 -llzma -lzstd"
units=$(find tests/unit -name 'test_*.c' | sort | sed "s#^tests/unit/\(.*\)\.c\$#$B/unit/\1#")
quick=
[ "${CHECK_QUICK:-}" = 1 ] && quick=1
api=$B/fv-api clis="t_vectors t_corruption t_fec" also="; tree and api also portable" roots=" with roots 2 and 24"
skip=
if [ -n "$quick" ]; then
	units="$B/unit/hashtree/test_sha256 $B/unit/hashtree/test_hasher $B/unit/fec/test_rs $B/unit/fec/test_layout"
	api= clis=t_vectors also= roots=
	# (not fec/test_encode: its fused-parity case is 90 formats, the
	# tree and ISA-L's parity on the same code paths as fec/test_rs's;
	# check-full)
fi
# shellcheck disable=SC2086
make -s -j"$(nproc)" CC=$CC B=$B LIBS="$libs" TEST_LIBS="$test_libs" \
	"$B/fastverity-cross" $api $units >"$B/build.log" 2>&1 || {
	tail -20 "$B/build.log" >&2
	echo "check-arm64: the aarch64 build failed ($B/build.log)" >&2
	exit 1
}
# e_machine of the ELF header: 0xb7, EM_AARCH64
[ "$(od -An -tx1 -j18 -N1 "$B/fastverity-cross" | tr -d ' ')" = b7 ] || {
	echo "check-arm64: $B/fastverity-cross is not an aarch64 program" >&2
	exit 1
}

# The arm64 command as the tests call it.
cat >"$B/fastverity" <<EOF
#!/bin/sh
LD_LIBRARY_PATH=$isal_lib exec qemu-aarch64-static -cpu "\${FV_QEMU_CPU:-max}" "$top/$B/fastverity-cross" "\$@"
EOF
chmod +x "$B/fastverity"

status=0
grep -q 'armv8-ce (two-way)' <("$B/fastverity" --version) || {
	echo "check-arm64: the arm64 build does not pick the Armv8 kernel on qemu's max CPU:" >&2
	"$B/fastverity" --version >&2
	status=1
}
grep -q 'portable C' <(FASTVERITY_SHA256=portable "$B/fastverity" --version) || {
	echo "check-arm64: FASTVERITY_SHA256=portable is not honoured" >&2
	status=1
}
# bench names the kernels it found (its figures mean nothing here)
FASTVERITY_BENCH_SECONDS=0.1 "$B/fastverity" bench --size=1M --salt-size=32 >"$B/bench.out" 2>&1
grep -q '^  SHA-256 Armv8 CE two-way  *[0-9]' "$B/bench.out" &&
	grep -q '^  SHA-256 Armv8 CE one-way  *[0-9]' "$B/bench.out" &&
	grep -q 'sha2 (Armv8 CE)' "$B/bench.out" || {
	echo "check-arm64: bench does not name the Armv8 kernels:" >&2
	head -8 "$B/bench.out" >&2
	status=1
}

# run_unit SUITE [portable]: one unit suite under qemu (CK_FORK=no: a
# fork per check costs seconds under emulation)
units_passed=0
run_unit() {
	if ! CK_FORK=no UNIT_SKIP=$skip FASTVERITY_SHA256=${2:-} LD_LIBRARY_PATH=$isal_lib \
		qemu-aarch64-static -cpu max "$1" >"$B/unit.log" 2>&1; then
		echo "check-arm64: $(basename "$1") failed (${2:-armv8}):" >&2
		grep -v '^Running suite' "$B/unit.log" | head -20 >&2
		status=1
	else
		units_passed=$((units_passed + 1))
	fi
}
for u in $units; do run_unit "$u"; done
if [ -z "$quick" ]; then
	run_unit "$B/unit/hashtree/test_tree" portable
	for u in $units; do
		case $u in */unit/api/test_registry) ;; */unit/api/*) run_unit "$u" portable ;; esac
	done
fi

RESULTS=$(mktemp /tmp/fastverity-arm64.XXXXXX)
export RESULTS
. tests/cli/tally.sh
for t in $clis; do
	FEC_ROOTS="2 24" FV_BIN=$top/$B/fastverity cli_test "tests/cli/$t.sh"
done
passed=$(grep -c '^pass' "$RESULTS" || true)
# Debian's arm64 kernel under qemu-system-aarch64: open, status, close,
# with this build and the library (tests/kernel/run.sh)
kernel_line="kernel (arm64): left to make check-full"
if [ -z "$quick" ]; then
	KARCH=arm64 tests/kernel/run.sh >"$B/kernel.log" 2>&1 || {
		grep -v '^\[' "$B/kernel.log" | grep -v 'FVTEST PASS' | tail -20 >&2
		status=1
	}
	kernel_line=$(tail -1 "$B/kernel.log")
fi
failed=$(grep -c '^FAIL' "$RESULTS" || true)
skipped=$(grep -c '^SKIP' "$RESULTS" || true)
grep '^FAIL\|^SKIP' "$RESULTS" >&2 || true
rm -f "$RESULTS"
echo "arm64: gcc $(aarch64-linux-gnu-gcc -dumpversion) cross build; under qemu-aarch64 $(qemu-aarch64-static --version | head -1 | awk '{print $3}'):" \
	"$units_passed unit suite runs passed (Armv8 kernel$also);" \
	"$passed command checks passed, $failed failed, $skipped skipped ($clis$roots);" \
	"$kernel_line"
[ "$status" = 0 ] && [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
