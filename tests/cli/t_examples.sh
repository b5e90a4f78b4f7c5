# Every example of the man page runs as shown (open, status and close only
# where device-mapper is there).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
gen 61 $((1 << 20)) >rootfs.img
gen 62 $((1 << 20)) >os.raw
gen 63 $((1 << 20)) >system.img
truncate -s $(((256 << 20) + (4 << 20))) disk.img
openssl req -x509 -newkey rsa:2048 -nodes -keyout signing.key -out signing.crt -days 2 -subj /CN=example >/dev/null 2>&1
# the command lines of the EXAMPLES section, from the roff source: "\-"
# is "-", a line ending in "\e" goes on on the next
sed -n '/^\.SH EXAMPLES/,/^\.SH SEE ALSO/p' "$TOP/fastverity.8" |
	sed -e 's/\\-/-/g' -e 's/\\e$/\\/' |
	sed -e ':a' -e '/\\$/N; s/\\\n */ /; ta' |
	grep '^fastverity ' >examples
check "the man page has examples" test "$(wc -l <examples)" -ge 10
dm=0
grep -q device-mapper /proc/misc 2>/dev/null && dm=1
while read -r line; do
	case $line in
	"fastverity open"* | "fastverity status"* | "fastverity close"*)
		[ $dm = 1 ] || continue ;;
	"fastverity bench"*) line="$line --size=1M" ;;
	esac
	# shellcheck disable=SC2086
	check "example: $line" run_rc 0 env FASTVERITY_BENCH_SECONDS=1 "$FV" ${line#fastverity }
done <examples

finish
