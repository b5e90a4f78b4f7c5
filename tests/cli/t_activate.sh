# open, close and status on this machine: argument checks, and the clear
# refusal of a kernel without device-mapper. The kernel test
# (tests/kernel/) proves them against a real dm-verity target.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
gen 81 $((64 * 4096)) >data
"$FV" format data hash --salt=$SALT >fmt
R=$(root_of fmt)

check "open: missing arguments" run_rc 1 "$FV" open data name
check "open: message" grep -q 'open: requires <data_device> <name> <hash_device> \[<root_hash>\]' "$T/err"
check "create: missing arguments" run_rc 1 "$FV" create name data hash
check "close: missing argument" run_rc 1 "$FV" close
check "close: --deferred with --cancel-deferred" run_rc 1 "$FV" close x --deferred --cancel-deferred
check "open: bad root hash before anything is mapped" run_rc 1 "$FV" open data name hash 00
check "open: missing hash device" run_rc 4 "$FV" open data name nohash "$R"
check "open: not a verity hash device" run_rc 1 "$FV" open data name data "$R"
check "open: missing signature file" run_rc 1 "$FV" open data name hash "$R" --root-hash-signature=nosig
check "open: signature message" grep -q 'nosig: cannot read signature file' "$T/err"
: >emptysig
check "open: empty signature file" run_rc 1 "$FV" open data name hash "$R" --root-hash-signature=emptysig
check "open: a name with a slash" run_rc 1 "$FV" open data a/b hash "$R"

if grep -q device-mapper /proc/misc 2>/dev/null; then
	check "status of an inactive name: exit 4" run_rc 4 "$FV" status fastverity-no-such-device
	check "status: inactive line" grep -qx '/dev/mapper/fastverity-no-such-device is inactive.' "$T/out"
else
	# the exit codes of veritysetup here: open 1, close 4, status 1
	for action in "1 open data name hash $R" "4 close name" "1 status name"; do
		want=${action%% *}
		action=${action#* }
		# shellcheck disable=SC2086
		check "no device-mapper: ${action%% *} exits $want" run_rc "$want" "$FV" $action
		check "no device-mapper: ${action%% *} says so" grep -qx 'fastverity: device-mapper is not available: this kernel has no dm-mod driver loaded' "$T/err"
		# shellcheck disable=SC2086
		$VS $action >/dev/null 2>&1
		check "no device-mapper: veritysetup ${action%% *} exits $want too" test $? = "$want"
	done
fi
check "open: two corruption policies refused before anything" run_rc 1 "$FV" open data name hash "$R" --ignore-corruption --panic-on-corruption
check "  message" grep -q 'choose one of --ignore-corruption, --restart-on-corruption and --panic-on-corruption' "$T/err"
check "open: two error policies refused" run_rc 1 "$FV" open data name hash "$R" --restart-on-error --panic-on-error
# veritysetup 2.8's --error-as-corruption: only beside a corruption
# policy it follows (the tables it makes: tests/kernel/init.sh)
check "open --error-as-corruption alone refused" run_rc 1 "$FV" open data name hash "$R" --error-as-corruption
check "  in veritysetup 2.8's words" grep -qx 'fastverity: Option --error-as-corruption must be used with --panic-on-corruption or --restart-on-corruption.' "$T/err"
check "open --error-as-corruption with --ignore-corruption refused" run_rc 1 "$FV" open data name hash "$R" --error-as-corruption --ignore-corruption
check "open --error-as-corruption beside another error policy refused" run_rc 1 "$FV" open data name hash "$R" --error-as-corruption --panic-on-corruption --restart-on-error
check "  naming what was given, not two error policies" grep -qx 'fastverity: --error-as-corruption with --panic-on-corruption panics on an I/O error: not with --restart-on-error' "$T/err"
check "open --error-as-corruption --restart-on-corruption --panic-on-error refused" run_rc 1 "$FV" open data name hash "$R" --error-as-corruption --restart-on-corruption --panic-on-error
check "  naming it" grep -qx 'fastverity: --error-as-corruption with --restart-on-corruption restarts on an I/O error: not with --panic-on-error' "$T/err"

finish
