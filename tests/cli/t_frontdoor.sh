# The command as a client of <fastverity.h> (docs/architecture.md): no
# file of cli/ includes an internal header of the library (the build
# compiles them without FASTVERITY_COMPILATION, and those headers #error),
# the command calls no function the shared library does not export, and
# its objects link against libfastverity.so and run.
. "$(dirname "$0")/lib.sh"

B=$TOP/build
src=$(make -s --no-print-directory -C "$TOP" print-CLI_SRC)
for f in $src; do
	(cd "$TOP" && gcc -std=c11 -D_GNU_SOURCE -I. $(pkg-config --cflags json-c) -MM "$f") |
		tr ' \\' '\n\n' | grep -E '^(hashtree|verity)/' >"$T/inc"
	check "$f includes only <fastverity.h> of the library's headers" test ! -s "$T/inc"
done

# a header of the library refuses a program outside it
printf '#include "verity/ops/ops.h"\nint main(void) { return 0; }\n' >"$T/inside.c"
check "an internal header refuses to be included outside the library" \
	sh -c "! cc -std=c11 -I'$TOP' -c '$T/inside.c' -o '$T/inside.o' 2>'$T/err' && grep -q 'include <fastverity.h>' '$T/err'"

# what the command's objects call that the library defines and does not
# export: nothing
nm -u "$B"/cli/*.o | awk 'NF == 2 { print $2 }' | sort -u >"$T/undef"
nm -g --defined-only "$B"/cli/*.o | awk 'NF == 3 { print $3 }' | sort -u >"$T/cli"
lib=$(make -s --no-print-directory -C "$TOP" print-LIB_SRC print-KERNEL_SRC)
# shellcheck disable=SC2086
(cd "$B" && nm -g --defined-only $(echo $lib | sed 's/\.c/.o/g')) | awk 'NF == 3 { print $3 }' | sort -u >"$T/lib"
nm -D --defined-only "$TOP/libfastverity.so" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u >"$T/public"
comm -23 "$T/undef" "$T/cli" | comm -12 - "$T/lib" | comm -23 - "$T/public" >"$T/calls"
check "the command calls no internal function of the library" test ! -s "$T/calls"
sed 's/^/  internal: /' "$T/calls" >&2
# shellcheck disable=SC2046
check "the command's objects link against libfastverity.so, and run" \
	sh -c "cc -o '$T/fv-shared' '$B'/cli/*.o -L'$TOP' -lfastverity $(pkg-config --libs popt json-c) && LD_LIBRARY_PATH='$TOP' '$T/fv-shared' --version >/dev/null"
check "  and need nothing of it but what it exports" sh -c "LD_LIBRARY_PATH='$TOP' ldd -r '$T/fv-shared' 2>&1 | grep -c 'undefined symbol' | grep -qx 0"
# the library's own global names carry its prefixes (the hashtree
# engine's ht_, the verity layer's verity_), none another project's
# (libavb's avb_, libfec's fec_): its objects as they are, before the
# installed archive makes all but the public names local
grep -vE '^(fv_|fastverity_|ht_|verity_)' "$T/lib" >"$T/foreign"
check "the library's internal names are ht_ or verity_ (none other projects')" test ! -s "$T/foreign"
sed 's/^/  foreign: /' "$T/foreign" >&2
# the library reads no environment: the command reads what it honours
# (TMPDIR for a signing helper's file, FASTVERITY_*) and passes it on.
# No source file of hashtree/ or verity/ names getenv or secure_getenv,
# and no object of the library calls them
(cd "$TOP" && grep -rnwE 'getenv|secure_getenv' hashtree verity) >"$T/getenv"
check "no file of hashtree/ or verity/ calls getenv or secure_getenv" test ! -s "$T/getenv"
sed 's/^/  reads the environment: /' "$T/getenv" >&2
# shellcheck disable=SC2086
(cd "$B" && nm -u $(echo $lib | sed 's/\.c/.o/g')) | awk '{ sub(/@.*/, "", $2); print $2 }' | grep -xE 'getenv|secure_getenv' >"$T/getenv-o"
check "  and no object of the library calls them" test ! -s "$T/getenv-o"
# dependencies point one way: no folders (tree and fec one layer) and no
# headers that include each other round a cycle
python3 "$TOP/tests/cli/layers.py" "$TOP" >"$T/layers"
check "no include cycle between folders or headers" test ! -s "$T/layers"
sed 's/^/  /' "$T/layers" >&2
# trust is asked once, by the door: the policy's one function is called
# from verity/image/judge.c alone (docs/trust.md, "Asked once")
(cd "$TOP" && grep -rlw 'verity_trust_decide' hashtree verity --include=*.c |
	grep -vxE 'verity/policy/trust.c|verity/image/judge.c') >"$T/asks"
check "the trust policy is asked by the door alone (verity/image/judge.c)" test ! -s "$T/asks"
sed 's/^/  asks the policy: /' "$T/asks" >&2
# the house's own words: every document a file of the tree cites exists,
# and no cache or build output is kept in git
(cd "$TOP" && for f in $( (git ls-files 2>/dev/null || find . -type f) |
	grep -E '\.(c|h|sh|py|md|8)$|^Makefile$'); do
	grep -oE 'docs/[A-Za-z0-9_.-]+\.(md|json)' "$f" | sed "s|^|$f: |"
done | sort -u | while read -r f d; do [ -e "$d" ] || echo "$f $d"; done) >"$T/cited"
check "every document a file cites exists" test ! -s "$T/cited"
sed 's/^/  missing: /' "$T/cited" >&2
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$TOP" ls-files | grep -E '__pycache__|\.pyc$|\.o$|^build/' >"$T/kept"
	check "no cache or build output kept in git" test ! -s "$T/kept"
	sed 's/^/  kept: /' "$T/kept" >&2
fi
finish
