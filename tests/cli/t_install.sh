# make install: the command, man page, library, headers and pkg-config
# file land under DESTDIR/PREFIX, and a program builds against them.
. "$(dirname "$0")/lib.sh"

make -s -C "$TOP" install DESTDIR="$T/root" PREFIX=/usr >"$T/log" 2>&1
check "make install succeeds" test $? = 0
for f in bin/fastverity share/man/man8/fastverity.8 lib/libfastverity.a \
	lib/libfastverity.so.2 lib/libfastverity.so lib/pkgconfig/fastverity.pc \
	include/fastverity.h; do
	check "installs $f" test -e "$T/root/usr/$f"
done
check "one header, nothing of the library's insides" test "$(find "$T/root/usr/include" -type f | wc -l)" = 1
check "the soname says the ABI: libfastverity.so.2" sh -c "objdump -p '$T/root/usr/lib/libfastverity.so.2' | grep -q 'SONAME *libfastverity.so.2$'"
check "pkg-config version" test "$(PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_PATH="$T/root/usr/lib/pkgconfig" pkg-config --modversion fastverity)" = "$("$FV" --version | head -1 | cut -d' ' -f2)"

cat >"$T/use.c" <<'C'
#include <stdio.h>
#include <fastverity.h>
int main(void)
{
	fv_params p = {.size = sizeof(p)};
	int ok = !fv_params_init(&p) && p.hash_block_size == 4096;

	p.hash_block_size = 3000;
	ok = ok && fv_params_check(&p) == -22 && *fv_last_error();
	return ok ? 0 : 1;
}
C
flags=$(PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_PATH="$T/root/usr/lib/pkgconfig" pkg-config --cflags --libs --static fastverity)
# shellcheck disable=SC2086
check "a program builds with pkg-config's flags" cc -std=c11 -o "$T/use" "$T/use.c" $flags
check "and runs on the installed shared library" env LD_LIBRARY_PATH="$T/root/usr/lib" "$T/use"
# shellcheck disable=SC2086
check "a program links the static library" cc -std=c11 -o "$T/use-static" "$T/use.c" \
	"$T/root/usr/lib/libfastverity.a" $(echo "$flags" | sed 's/-lfastverity//')
check "and runs" "$T/use-static"

# The library's public face: one header that C++ takes too, a version, and
# exactly the exported symbols of tests/abi/libfastverity.symbols.
cat >"$T/use.cc" <<'CC'
#include <fastverity.h>
#include <cstring>
#include <cstdio>
#include <memory>
// format DATA HASH, then verify it: RAII over the library's handles
int main(int argc, char **argv)
{
	if (argc != 3)
		return 1;
	fv_params p{};
	p.size = sizeof p;
	fv_format_request fq{};
	fq.size = sizeof fq;
	fq.data = argv[1];
	fq.hash = argv[2];
	fq.params = &p;
	fv_result *made = nullptr, *checked = nullptr;
	struct fv_report mr{}, cr{};
	mr.size = sizeof mr;
	cr.size = sizeof cr;
	if (fv_params_init(&p) || fv_format(&fq, nullptr, &made) ||
	    fv_result_report(made, &mr)) {
		std::fprintf(stderr, "%s\n", fv_last_error());
		return 1;
	}
	fv_open_request rq{};
	rq.size = sizeof rq;
	rq.data = argv[1];
	rq.hash = argv[2];
	rq.root_hex = mr.root_hex;
	fv_image *raw = nullptr;
	if (fv_open(&rq, nullptr, &raw)) {
		std::fprintf(stderr, "%s\n", fv_last_error());
		return 1;
	}
	std::unique_ptr<fv_image, decltype(&fv_image_free)> img(raw, fv_image_free);
	if (fv_verify(img.get(), 0, nullptr, &checked) ||
	    fv_result_report(checked, &cr) || !cr.intact) {
		std::fprintf(stderr, "%s\n", fv_last_error());
		return 1;
	}
	if (std::strcmp(fastverity_version(), FASTVERITY_VERSION) != 0)
		return 2;
	std::printf("%s\n%s\n", fastverity_version(), mr.root_hex);
	fv_result_free(made);
	fv_result_free(checked);
	return 0;
}
CC
# shellcheck disable=SC2086
check "a C++ program builds and links with pkg-config's flags" c++ -std=c++17 -o "$T/use-cc" "$T/use.cc" $flags
gen 72 $((300 * 4096)) >"$T/cd"
LD_LIBRARY_PATH="$T/root/usr/lib" "$T/use-cc" "$T/cd" "$T/ch" >"$T/cout"
check "  and runs (format, verify), with the library's version" test "$(head -1 "$T/cout")" = "$("$FV" --version | head -1 | cut -d' ' -f2)"
"$FV" format "$T/cd" "$T/ch2" --salt="$("$FV" dump "$T/ch" | sed -n 's/^Salt:[[:space:]]*//p')" \
	--uuid="$("$FV" dump "$T/ch" | sed -n 's/^UUID:[[:space:]]*//p')" >"$T/co2"
check "  its tree and root are the command's" sh -c "cmp -s '$T/ch' '$T/ch2' && test '$(sed -n 2p "$T/cout")' = '$(root_of "$T/co2")'"
nm -D --defined-only "$T/root/usr/lib/libfastverity.so.2" | awk '{print $3}' | sort >"$T/symbols"
check "the shared library exports exactly the listed symbols" diff -u "$TOP/tests/abi/libfastverity.symbols" "$T/symbols"
# the static archive defines no global name but the public API's: none
# that could collide with libavb's avb_*, libfec's fec_* or any other
nm -g --defined-only "$T/root/usr/lib/libfastverity.a" | awk 'NF == 3 {print $3}' | sort >"$T/static-names"
sed -n 's/@@FASTVERITY_[0-9.]*$//p' "$TOP/tests/abi/libfastverity.symbols" | sort >"$T/public-names"
check "the static archive's global names are the public API's alone" diff -u "$T/public-names" "$T/static-names"
# and every one of them is called by a test
untested=""
for f in $(sed -n 's/@@FASTVERITY_[0-9.]*$//p' "$TOP/tests/abi/libfastverity.symbols"); do
	grep -qw "$f" "$TOP"/tests/unit/api/*.c "$TOP/tests/kernel/api.c" \
		"$TOP/tests/tsan/threads.c" "$0" "$TOP/README.md" || untested="$untested $f"
done
check "every exported function is called by a test${untested:+ (not:$untested)}" test -z "$untested"
# make demo installs only what building needs (no qemu, no clang, no
# arm64 packages); make check installs those too
check "make demo installs only the build packages" sh -c "make -n -C '$TOP' demo 2>/dev/null | grep -q 'libssl-dev' && ! make -n -C '$TOP' demo 2>/dev/null | grep -qE 'qemu-system|clang|-dev:arm64'"
check "make check installs the test packages" sh -c "make -n -C '$TOP' deps 2>/dev/null | grep -q 'qemu-system-x86'"
# Issue 53, 24: every target runs alone from a clean checkout (make
# check-arm64 did not build build/fvfiles, which its tests use): each one
# that runs command tests builds their helpers (tests/cli/lib.sh's) and
# what they link or load. make -n into an empty build directory lists
# what a clean checkout would build.
builds() { # TARGET FILE...: make -n TARGET (B empty) makes each FILE
	local t=$1 f out; shift
	out=$(make -n -C "$TOP" B="$T/clean" "$t" 2>/dev/null)
	for f in "$@"; do
		printf '%s\n' "$out" | grep -qE -- "-o $f( |\$)|ar rcs $f( |\$)|ln -sf libfastverity.so $f\$" ||
			{ echo "  make $t does not build $f" >&2; return 1; }
	done
}
helpers="$T/clean/mkimage $T/clean/fvfiles $T/clean/fvjson"
check "24: make check-arm64 builds the command tests' helpers" builds check-arm64 $helpers
check "24: make check-cli builds them, the library as installed and its objects" \
	builds check-cli $helpers fastverity libfastverity.a libfastverity.so libfastverity.so.2 "$T/clean/libfastverity-internal.a"
check "24: make check-asan builds the helpers its command tests use" \
	builds check-asan $helpers "$T/clean/libfastverity-internal.a"
check "24: make faults and make sweep build theirs" sh -c "
	$(declare -f builds); T='$T' TOP='$TOP'; builds faults $helpers fastverity && builds sweep $helpers fastverity"
check "24: make check-kernel and check-images build theirs" sh -c "
	$(declare -f builds); T='$T' TOP='$TOP'; builds check-kernel fastverity $T/clean/mkimage $T/clean/fv-api $T/clean/fv-regions &&
	builds check-images fastverity $T/clean/mkimage"
# the README is the front page: the two commands first, a tour of each
# action and container, where the docs are; under 300 lines (the figures
# and notes are docs/performance.md's)
check "the README is under 300 lines" test "$(wc -l <"$TOP/README.md")" -lt 300
check "  its first commands are make demo and make check" sh -c "grep -m2 '^make ' '$TOP/README.md' | cut -d' ' -f1-2 | tr '\n' ' ' | grep -qx 'make demo make check '"
for h in Usage "Android images" "systemd disk images" Speed "Use the library" Install Documentation; do
	check "  has its section '$h'" grep -q "^## $h" "$TOP/README.md"
done
for f in $(grep -o '(docs/[a-z.-]*)' "$TOP/README.md" | tr -d '()' | sort -u); do
	check "  its link $f is there" test -f "$TOP/$f"
done
# the README's example, as printed there
sed -n '/^## Use the library/,/^## How it is built/p' "$TOP/README.md" | sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >"$T/readme.c"
# shellcheck disable=SC2086
check "the README's C example builds" cc -std=c11 -Wall -Wextra -Werror -o "$T/readme" "$T/readme.c" $flags
gen 71 $((64 * 4096)) >"$T/rd"
"$FV" format "$T/rd" "$T/rh" --salt=$SALT >"$T/ro"
check "  and says good of a good image" sh -c "LD_LIBRARY_PATH='$T/root/usr/lib' '$T/readme' '$T/rd' '$T/rh' '$(root_of "$T/ro")' | grep -qx good"
printf 'x' | dd of="$T/rd" bs=1 seek=$((9 * 4096 + 5)) conv=notrunc status=none
check "  and bad of a damaged one (block 9 named)" sh -c "LD_LIBRARY_PATH='$T/root/usr/lib' '$T/readme' '$T/rd' '$T/rh' '$(root_of "$T/ro")' | tr '\n' ' ' | grep -qx 'data block 9 bad '"
LD_LIBRARY_PATH="$T/root/usr/lib" "$T/readme" "$T/rd" "$T/rh" 0000 >/dev/null 2>"$T/rerr"
check "  and a bad root hash is a one-line error" sh -c "test \$(wc -l <'$T/rerr') = 1 && grep -qF \"invalid root hash string specified: '0000'\" '$T/rerr'"
LD_LIBRARY_PATH="$T/root/usr/lib" "$T/readme" "$T/rd" "$T/rh" "$(printf '%064d' 1)" >"$T/rout"
check "  and a wrong root hash says so in one line, exit 1" test "$?:$(cat "$T/rout")" = "1:the root hash does not match the tree"
# against the build tree, as the README shows it
check "a program linked in the build tree runs there" sh -c "cc -std=c11 -I'$TOP/include' -o '$T/readme-tree' '$T/readme.c' -L'$TOP' -lfastverity && LD_LIBRARY_PATH='$TOP' '$T/readme-tree' '$T/rd' '$T/rh' '$(root_of "$T/ro")' >/dev/null; test \$? = 1"

# pkg-config --define-prefix finds the tree where it was copied; LIBDIR;
# make uninstall removes every file make install put there.
check "pkg-config --define-prefix points into the copy" sh -c "PKG_CONFIG_PATH='$T/root/usr/lib/pkgconfig' pkg-config --define-prefix --cflags --libs fastverity | grep -q -- '-I$T/root/usr/include .*-L$T/root/usr/lib '"
make -s -C "$TOP" install DESTDIR="$T/lib64" PREFIX=/opt/fv LIBDIR=/opt/fv/lib64 >/dev/null 2>&1
check "LIBDIR: the library and .pc there" sh -c "test -e '$T/lib64/opt/fv/lib64/libfastverity.so.2' && grep -qx 'libdir=\${prefix}/lib64' '$T/lib64/opt/fv/lib64/pkgconfig/fastverity.pc'"
make -s -C "$TOP" uninstall DESTDIR="$T/root" PREFIX=/usr >/dev/null 2>&1
check "make uninstall removes every installed file" test "$(find "$T/root" -type f -o -type l | wc -l)" = 0

finish
