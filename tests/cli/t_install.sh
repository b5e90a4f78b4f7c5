# make install: the command, man page, library, headers and pkg-config
# file land under DESTDIR/PREFIX, and a program builds against them.
. "$(dirname "$0")/lib.sh"

make -s -C "$TOP" install DESTDIR="$T/root" PREFIX=/usr >"$T/log" 2>&1
check "make install succeeds" test $? = 0
for f in bin/fastverity share/man/man8/fastverity.8 lib/libfastverity.a \
	lib/libfastverity.so.0 lib/libfastverity.so lib/pkgconfig/fastverity.pc \
	include/fastverity.h include/fastverity/verity/verity.h include/fastverity/hashtree/tree.h; do
	check "installs $f" test -e "$T/root/usr/$f"
done
check "pkg-config version" test "$(PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_PATH="$T/root/usr/lib/pkgconfig" pkg-config --modversion fastverity)" = "$("$FV" --version | head -1 | cut -d' ' -f2)"

cat >"$T/use.c" <<'C'
#include <stdio.h>
#include <fastverity.h>
int main(void)
{
	struct verity_params p;
	struct fv_error err;
	verity_params_default(&p);
	return verity_params_validate(&p, &err) == 0 && p.hash_block_size == 4096 ? 0 : 1;
}
C
flags=$(PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_PATH="$T/root/usr/lib/pkgconfig" pkg-config --cflags --libs --static fastverity)
# shellcheck disable=SC2086
check "a program builds with pkg-config's flags" cc -std=c11 -o "$T/use" "$T/use.c" $flags
check "and runs on the installed shared library" env LD_LIBRARY_PATH="$T/root/usr/lib" "$T/use"
# shellcheck disable=SC2086
check "a program links the static library" cc -std=c11 -o "$T/use-static" "$T/use.c" \
	$(echo "$flags" | sed 's/-lfastverity//') "$T/root/usr/lib/libfastverity.a" -lcrypto -lpthread
check "and runs" "$T/use-static"

# The library's public face: one header that C++ takes too, a version, and
# exactly the exported symbols of tests/abi/libfastverity.symbols.
cat >"$T/use.cc" <<'CC'
#include <fastverity.h>
#include <cstring>
#include <cstdio>
int main()
{
	struct verity_params p;
	struct fv_error err;
	verity_params_default(&p);
	if (verity_params_validate(&p, &err) != 0)
		return 1;
	if (std::strcmp(fastverity_version(), FASTVERITY_VERSION) != 0)
		return 2;
	std::printf("%s\n", fastverity_version());
	return 0;
}
CC
# shellcheck disable=SC2086
check "a C++ program builds and links with pkg-config's flags" c++ -std=c++17 -o "$T/use-cc" "$T/use.cc" $flags
check "  and runs, with the library's version" sh -c "LD_LIBRARY_PATH='$T/root/usr/lib' '$T/use-cc' | grep -qx '$("$FV" --version | head -1 | cut -d' ' -f2)'"
nm -D --defined-only "$T/root/usr/lib/libfastverity.so.0" | awk '{print $3}' | sort >"$T/symbols"
check "the shared library exports exactly the listed symbols" diff -u "$TOP/tests/abi/libfastverity.symbols" "$T/symbols"
# the README's example, as printed there
sed -n '/^## Use the library/,/^## How it is built/p' "$TOP/README.md" | sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >"$T/readme.c"
# shellcheck disable=SC2086
check "the README's C example builds" cc -std=c11 -Wall -Wextra -Werror -o "$T/readme" "$T/readme.c" $flags
gen 71 $((64 * 4096)) >"$T/rd"
"$FV" format "$T/rd" "$T/rh" --salt=$SALT >"$T/ro"
check "  and says good of a good image" sh -c "LD_LIBRARY_PATH='$T/root/usr/lib' '$T/readme' '$T/rd' '$T/rh' '$(root_of "$T/ro")' | grep -qx good"

# pkg-config --define-prefix finds the tree where it was copied; LIBDIR;
# make uninstall removes every file make install put there.
check "pkg-config --define-prefix points into the copy" sh -c "PKG_CONFIG_PATH='$T/root/usr/lib/pkgconfig' pkg-config --define-prefix --cflags --libs fastverity | grep -q -- '-I$T/root/usr/include .*-L$T/root/usr/lib '"
make -s -C "$TOP" install DESTDIR="$T/lib64" PREFIX=/opt/fv LIBDIR=/opt/fv/lib64 >/dev/null 2>&1
check "LIBDIR: the library and .pc there" sh -c "test -e '$T/lib64/opt/fv/lib64/libfastverity.so.0' && grep -qx 'libdir=\${prefix}/lib64' '$T/lib64/opt/fv/lib64/pkgconfig/fastverity.pc'"
make -s -C "$TOP" uninstall DESTDIR="$T/root" PREFIX=/usr >/dev/null 2>&1
check "make uninstall removes every installed file" test "$(find "$T/root" -type f -o -type l | wc -l)" = 0
