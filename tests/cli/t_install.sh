# make install: the command, man page, library, headers and pkg-config
# file land under DESTDIR/PREFIX, and a program builds against them.
. "$(dirname "$0")/lib.sh"

make -s -C "$TOP" install DESTDIR="$T/root" PREFIX=/usr >"$T/log" 2>&1
check "make install succeeds" test $? = 0
for f in bin/fastverity share/man/man8/fastverity.8 lib/libfastverity.a \
	lib/libfastverity.so.0 lib/libfastverity.so lib/pkgconfig/fastverity.pc \
	include/fastverity/verity/verity.h include/fastverity/hashtree/tree.h; do
	check "installs $f" test -e "$T/root/usr/$f"
done
check "pkg-config version" test "$(PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_PATH="$T/root/usr/lib/pkgconfig" pkg-config --modversion fastverity)" = "$("$FV" --version | head -1 | cut -d' ' -f2)"

cat >"$T/use.c" <<'C'
#include <stdio.h>
#include <verity/verity.h>
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
