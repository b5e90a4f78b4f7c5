# The Debian packages: dpkg-buildpackage -b -us -uc builds fastverity,
# libfastverity2 and libfastverity-dev from a copy of the tree, lintian
# finds no error in them, their dependencies resolve on this machine, and
# unpacked into a scratch root the command runs on the packaged library
# and a program builds and runs against the packaged header, pkg-config
# file and library.
. "$(dirname "$0")/lib.sh"

V=$("$FV_REAL" --version | head -1 | cut -d' ' -f2)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
S=$T/src/fastverity-$V
mkdir -p "$S"
# the tree as git has it (a clean clone's files, or a work tree's
# tracked and untracked ones), not the build's outputs
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$TOP" ls-files -z --cached --others --exclude-standard |
		(cd "$TOP" && tar --null -T - -cf -) | tar -C "$S" -xf -
else
	tar -C "$TOP" --exclude=./build --exclude='./build-*' -cf - . | tar -C "$S" -xf -
fi

check "the README's Install section names the packages and how to build them" sh -c \
	"sed -n '/^## Install/,/^## /p' '$TOP/README.md' | tr '\n' ' ' | grep -q 'dpkg-buildpackage -b -us -uc.*libfastverity2.*libfastverity-dev'"
check "debian/changelog's version is the header's ($V)" \
	test "$(cd "$S" && dpkg-parsechangelog -SVersion)" = "$V"
# (no debug symbol packages: not what is checked, and seconds to make)
(cd "$S" && DEB_BUILD_OPTIONS=noautodbgsym dpkg-buildpackage -b -us -uc -j"$(nproc)") >"$T/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -b -us -uc succeeds" test "$rc" = 0
[ "$rc" = 0 ] || tail -20 "$T/build.log" >&2
for p in fastverity libfastverity2 libfastverity-dev; do
	check "builds ${p}_${V}_$ARCH.deb" test -s "$T/src/${p}_${V}_$ARCH.deb"
done
# the packages' contents
contents() { dpkg-deb -c "$T/src/$1_${V}_$ARCH.deb" | awk '{print $6}' | sed 's|^\./|/|'; }
has() {
	local p=$1 f; shift
	contents "$p" >"$T/list.$p"
	for f in "$@"; do grep -qx "$f" "$T/list.$p" || { echo "  $p lacks $f" >&2; return 1; }; done
}
check "fastverity: the command, man page, bash, zsh and fish completions" has fastverity \
	/usr/bin/fastverity /usr/share/man/man8/fastverity.8.gz \
	/usr/share/bash-completion/completions/fastverity \
	/usr/share/zsh/vendor-completions/_fastverity \
	/usr/share/fish/vendor_completions.d/fastverity.fish \
	/usr/share/doc/fastverity/copyright
check "libfastverity2: the shared library by its soname, nothing else of the library" sh -c \
	"$(declare -f contents has); T='$T' V='$V' ARCH='$ARCH'; has libfastverity2 /usr/lib/$MA/libfastverity.so.2 &&
	 ! grep -qE '\.(a|h|pc)$|/libfastverity\.so$' '$T/list.libfastverity2'"
check "libfastverity-dev: the header, the .so link, the static library, the pkg-config file" has libfastverity-dev \
	/usr/include/fastverity.h /usr/lib/$MA/libfastverity.so /usr/lib/$MA/libfastverity.a \
	/usr/lib/$MA/pkgconfig/fastverity.pc
dep() { dpkg-deb -f "$T/src/$1_${V}_$ARCH.deb" Depends; }
check "fastverity depends on libfastverity2 (the command is the library's client)" \
	sh -c "dpkg-deb -f '$T/src/fastverity_${V}_$ARCH.deb' Depends | grep -qE '(^|, )libfastverity2 \(>= [0-9.]+\)'"
check "  and on libjson-c5, which it opens to write JSON" \
	sh -c "dpkg-deb -f '$T/src/fastverity_${V}_$ARCH.deb' Depends | grep -qE '(^|, )libjson-c5($|,| )'"
check "libfastverity2 depends on libdevmapper, which it opens when needed" \
	sh -c "dpkg-deb -f '$T/src/libfastverity2_${V}_$ARCH.deb' Depends | grep -q 'libdevmapper1.02.1'"
check "  and on libssl3 (libcrypto), libfec0, zlib1g and libjson-c5, which it opens when needed too" \
	sh -c "dpkg-deb -f '$T/src/libfastverity2_${V}_$ARCH.deb' Depends | grep -E '(^|, )libssl3($|,| )' | grep -E '(^|, )libfec0($|,| )' | grep -E '(^|, )zlib1g($|,| )' | grep -qE '(^|, )libjson-c5($|,| )'"
check "libfastverity-dev depends on exactly this libfastverity2" \
	sh -c "dpkg-deb -f '$T/src/libfastverity-dev_${V}_$ARCH.deb' Depends | grep -qF 'libfastverity2 (= $V)'"
# the symbols file: every exported symbol of tests/abi, with the version
# its node came with
dpkg-deb -I "$T/src/libfastverity2_${V}_$ARCH.deb" symbols >"$T/symbols" 2>/dev/null
check "libfastverity2's symbols file lists every exported symbol, by node" test \
	"$(sed -n 's/^ \([^ ]*\) .*/\1/p' "$T/symbols" | sed 's/@/@@/' | sort)" = \
	"$(sed 's/^\(FASTVERITY_[0-9.]*\)$/\1@@\1/' "$TOP/tests/abi/libfastverity.symbols" | sort)"
check "  made by debian/mksymbols, which gives FASTVERITY_2's symbols 0.10 (its /* 0.10 */)" sh -c \
	"sh '$TOP/debian/mksymbols' '$TOP/libfastverity.map' '$TOP/tests/abi/libfastverity.symbols' | grep -qx ' fv_super_open@FASTVERITY_2 0\.10'"
# (dpkg-gensymbols lowers a version past the package's own to the
# package's: 0.10's symbols say 0.9.0 until the header says 0.10)
W=0.10
dpkg --compare-versions "$V" lt "$W" && W=$V
check "  with the version each node came with (FASTVERITY_2's 0.10, here $W: fv_super_open's, fv_params_layout's)" sh -c \
	"grep -qxF ' fv_super_open@FASTVERITY_2 $W' '$T/symbols' && grep -qxF ' fv_params_layout@FASTVERITY_2 $W' '$T/symbols'"
check "  of libfastverity.so.2 in libfastverity2" grep -qx 'libfastverity\.so\.2 libfastverity2 #MINVER#' "$T/symbols"
check "  and the -dev package to build against" grep -qx '\* Build-Depends-Package: libfastverity-dev' "$T/symbols"

# lintian: no error (warnings are printed, not failed)
lintian --fail-on error "$T/src/fastverity_${V}_${ARCH}.changes" >"$T/lintian" 2>&1
rc=$?
grep -v 'running with root privileges' "$T/lintian" | sed 's/^/  lintian: /' >&2
check "lintian finds no error" test "$rc" = 0
check "  and reports no E: tag" sh -c "! grep -q '^E:' '$T/lintian'"

# their dependencies resolve here (apt's simulation: nothing is installed)
apt-get -s install "$T/src/fastverity_${V}_$ARCH.deb" "$T/src/libfastverity2_${V}_$ARCH.deb" \
	"$T/src/libfastverity-dev_${V}_$ARCH.deb" >"$T/apt" 2>&1
check "apt-get resolves the three packages' dependencies (simulated)" sh -c \
	"grep -q '^Inst fastverity ' '$T/apt' && grep -q '^Inst libfastverity2 ' '$T/apt' && grep -q '^Inst libfastverity-dev ' '$T/apt'"

# unpacked into a scratch root
R=$T/root
for p in fastverity libfastverity2 libfastverity-dev; do
	dpkg-deb -x "$T/src/${p}_${V}_$ARCH.deb" "$R"
done
L=$R/usr/lib/$MA
check "the packaged command loads libfastverity.so.2 from the scratch root" sh -c \
	"LD_LIBRARY_PATH='$L' ldd '$R/usr/bin/fastverity' | grep -q 'libfastverity.so.2 => $L/libfastverity.so.2'"
check "and fastverity --version says what the tree's does" test \
	"$(LD_LIBRARY_PATH="$L" "$R/usr/bin/fastverity" --version)" = "$("$FV_REAL" --version)"
gen 19 $((96 * 4096)) >"$T/d"
LD_LIBRARY_PATH="$L" "$R/usr/bin/fastverity" format "$T/d" "$T/h" --salt=$SALT --uuid=$UUID >"$T/o1"
"$FV_REAL" format "$T/d" "$T/h2" --salt=$SALT --uuid=$UUID | sed 's|/h2$|/h|' >"$T/o2"
check "the packaged command formats as the tree's does, byte for byte" sh -c \
	"test -s '$T/o1' && cmp -s '$T/o1' '$T/o2' && cmp -s '$T/h' '$T/h2'"
check "  and verifies it" env LD_LIBRARY_PATH="$L" "$R/usr/bin/fastverity" verify "$T/d" "$T/h" "$(root_of "$T/o1")"

cat >"$T/use.c" <<'C'
/* the root hash of DATA, through the packaged library */
#include <stdio.h>
#include <string.h>
#include <fastverity.h>
int main(int argc, char **argv)
{
	fv_params p = {.size = sizeof(p)};
	struct fv_format_request q = {.size = sizeof(q), .params = &p};
	fv_result *r = NULL;
	struct fv_report rep = {.size = sizeof(rep)};
	unsigned char salt[32];
	for (int i = 0; argc == 4 && i < 32; i++)
		sscanf(argv[3] + 2 * i, "%2hhx", &salt[i]);
	if (argc != 4 || fv_params_init(&p))
		return 1;
	memcpy(p.salt, salt, sizeof(salt));
	p.salt_len = sizeof(salt);
	q.data = argv[1];
	q.hash = argv[2];
	if (fv_format(&q, NULL, &r) || fv_result_report(r, &rep)) {
		fprintf(stderr, "%s\n", fv_last_error());
		return 1;
	}
	printf("%s %s\n", fastverity_version(), rep.root_hex);
	fv_result_free(r);
	return strcmp(fastverity_version(), FASTVERITY_VERSION) != 0;
}
C
pc() { PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_PATH="$L/pkgconfig" pkg-config "$@" fastverity; }
check "pkg-config finds the packaged library's version" test "$(pc --modversion)" = "$V"
# shellcheck disable=SC2046
check "a program builds against the packaged header and library" \
	cc -std=c11 -Wall -Wextra -Werror -o "$T/use" "$T/use.c" $(pc --cflags --libs)
check "  and runs on it: the same root hash as format's" test \
	"$(LD_LIBRARY_PATH="$L" "$T/use" "$T/d" "$T/h3" "$SALT")" = "$V $(root_of "$T/o1")"
check "  linked against the packaged libfastverity.so.2" sh -c \
	"LD_LIBRARY_PATH='$L' ldd '$T/use' | grep -q 'libfastverity.so.2 => $L/libfastverity.so.2'"

finish
