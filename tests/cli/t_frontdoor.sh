# The command as a client of <fastverity.h> (docs/architecture.md): the
# files of cli/ off the Makefile's CLI_INTERNAL list include no internal
# header (the build compiles them without FASTVERITY_COMPILATION, and the
# headers #error), and the library functions the command still calls
# beyond the shared library's exports are the ones listed in
# tests/abi/cli-internal.symbols, none new. Both lists only shrink; when
# the second is empty, the command links against libfastverity.so.
. "$(dirname "$0")/lib.sh"

B=$TOP/build
list=$TOP/tests/abi/cli-internal.symbols
internal=" $(make -s --no-print-directory -C "$TOP" print-CLI_INTERNAL) "
src=$(make -s --no-print-directory -C "$TOP" print-CLI_SRC)
clean=0
for f in $src; do
	case $internal in *" $f "*) continue ;; esac
	clean=$((clean + 1))
	(cd "$TOP" && gcc -std=c11 -D_GNU_SOURCE -I. $(pkg-config --cflags json-c) -MM "$f") |
		tr ' \\' '\n\n' | grep -E '^(hashtree|verity)/' >"$T/inc"
	check "$f includes only <fastverity.h> of the library's headers" test ! -s "$T/inc"
done
echo "  $clean of $(echo $src | wc -w) files of cli/ include only <fastverity.h>" >&2

# a header of the library refuses a program outside it
printf '#include "verity/ops.h"\nint main(void) { return 0; }\n' >"$T/inside.c"
check "an internal header refuses to be included outside the library" \
	sh -c "! cc -std=c11 -I'$TOP' -c '$T/inside.c' -o '$T/inside.o' 2>'$T/err' && grep -q 'include <fastverity.h>' '$T/err'"

# what the command's objects call that the library defines
nm -u "$B"/cli/*.o | awk 'NF == 2 { print $2 }' | sort -u >"$T/undef"
nm -g --defined-only "$B"/cli/*.o | awk 'NF == 3 { print $3 }' | sort -u >"$T/cli"
nm -g --defined-only "$B/libfastverity-internal.a" | awk 'NF == 3 { print $3 }' | sort -u >"$T/lib"
nm -D --defined-only "$TOP/libfastverity.so" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u >"$T/public"
comm -23 "$T/undef" "$T/cli" | comm -12 - "$T/lib" | comm -23 - "$T/public" >"$T/calls"
comm -23 "$T/calls" "$list" >"$T/new"
check "the command calls no internal function beyond $(basename "$list")" test ! -s "$T/new"
sed 's/^/  new: /' "$T/new" >&2
comm -13 "$T/calls" "$list" >"$T/gone"
check "$(basename "$list") lists only what the command still calls (drop what it no longer does)" test ! -s "$T/gone"
sed 's/^/  no longer called: /' "$T/gone" >&2
echo "  the command calls $(wc -l <"$T/calls") internal functions" >&2
if [ ! -s "$T/calls" ]; then
	# shellcheck disable=SC2086
	check "the command's objects link against libfastverity.so" \
		sh -c "cc -o '$T/fv-shared' '$B'/cli/*.o -L'$TOP' -lfastverity $(pkg-config --libs popt json-c) && LD_LIBRARY_PATH='$TOP' '$T/fv-shared' --version >/dev/null"
fi
finish
