# Help, usage, version, -v, --debug and --json.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
gen 31 $((300 * 4096)) >data

check "--version" run_rc 0 "$FV" --version
check "--version text" sh -c "head -1 '$T/out' | grep -qE '^fastverity [0-9]+\.[0-9]+\.[0-9]+$'"
check "--version names OpenSSL" sh -c "sed -n 2p '$T/out' | grep -q '^OpenSSL 3'"
check "--version names the SHA-256 path" grep -qE '^SHA-256 on this CPU: (sha-ni \((two|three)-way\)|avx-512 \(16-lane\)|portable C)$' out
check "--help" run_rc 0 "$FV" --help
check "--help lists the options" grep -q -- '--data-block-size=bytes' out
check "--help lists the actions" grep -q 'verify <data_device> <hash_device> \[<root_hash>\]' out
check "--usage" run_rc 0 "$FV" --usage
check "--usage text" grep -q 'Usage: fastverity' out

check "-v format" run_rc 0 "$FV" -v format data hash --salt=$SALT --uuid=$UUID
check "-v says Command successful." test "$(tail -1 out)" = "Command successful."
R=$(root_of out)
check "-v verify" run_rc 0 "$FV" -v verify data hash "$R"
check "-v verify output is veritysetup's" test "$(cat out)" = "Command successful."
check "-v failure" run_rc 1 "$FV" -v verify data hash 00
check "-v failure line is veritysetup's" test "$(cat out)" = "Command failed with code -1 (wrong or missing parameters)."
check "-v missing device" run_rc 4 "$FV" -v dump nohash
check "-v missing device line" test "$(cat out)" = "Command failed with code -4 (wrong device or file specified)."
check "veritysetup says the same" test "$(veritysetup -v dump nohash 2>/dev/null)" = "$(cat out)"

check "--debug format" run_rc 0 "$FV" --debug format data hash --salt=$SALT
check "--debug names the fast path" grep -q '^# Hashing path: fast (sha256 in format 1' err
check "--debug names the kernel" grep -qE 'kernel (sha-ni \((two|three)-way\)|avx-512 \(16-lane\)|portable C)' err
check "--debug keeps stdout to the header" test "$(head -1 out)" = "VERITY header information for hash"
check "--debug generic path" run_rc 0 "$FV" --debug format data hash0 --salt=$SALT --format=0
check "--debug says why generic" grep -q '^# Hashing path: generic (format 0 appends the salt' err
check "--debug verify" run_rc 0 "$FV" --debug verify data hash "$R"
check "--debug verify names the path" grep -q '^# Hashing path: fast' err

# --json: one object with every header field.
check "format --json" run_rc 0 "$FV" format --json data hash --salt=$SALT --uuid=$UUID
check "format --json parses" jqok . out
check "format --json fields" test "$(jq -c '[.uuid, .hash_type, .data_blocks, .data_block_size, .hash_blocks, .hash_block_size, .hash_algorithm, .salt, .hash_offset, .hash_device_size, .levels]' out)" = \
	"[\"$UUID\",1,300,4096,4,4096,\"sha256\",\"$SALT\",0,20480,2]"
check "format --json root is the text root" test "$(jq -r .root_hash out)" = "$R"
check "dump --json" run_rc 0 "$FV" dump --json hash
check "dump --json fields" test "$(jq -c '[.device, .uuid, .data_blocks, .hash_blocks, .salt, has("root_hash")]' out)" = \
	"[\"hash\",\"$UUID\",300,4,\"$SALT\",false]"
check "verify --json" run_rc 0 "$FV" verify --json data hash "$R"
check "verify --json result" test "$(jq -c '[.result, .root_hash_matches, .bad_data_blocks, .bad_hash_blocks, .bad_spare_areas, .failures, .data_device]' out)" = \
	'["ok",true,0,0,0,[],"data"]'
check "verify --json wrong root" run_rc 1 "$FV" verify --json data hash "$(printf '0%.0s' $(seq 64))"
check "verify --json wrong root result" test "$(jq -r .result out)" = "root hash mismatch"
# Issue 53, 18: --version's text is all --json --version prints (a
# document followed it on stdout), as for --help
check "--json --version: the text, no document after it" sh -c "'$FV' --json --version >'$T/v' && head -1 '$T/v' | grep -q '^fastverity ' && ! grep -q '\"result\"' '$T/v'"
check "format --json: an uppercase --uuid as the superblock holds it" sh -c "\"$FV\" format --json data upper --uuid=ABCDEF01-1234-4234-8234-123456789ABC | jq -e >/dev/null '.uuid == \"abcdef01-1234-4234-8234-123456789abc\"'"
check "--json with --no-superblock has no uuid" sh -c "\"$FV\" format --json --no-superblock data nsb | jq -e >/dev/null '.uuid == null and .superblock == false'"

# Format output as veritysetup prints it: the hash name as typed, the
# UUID as typed, no UUID without a superblock, no device size with an
# offset.
check "format --hash=SHA256 as typed" sh -c "\"$FV\" format data hash --hash=SHA256 --uuid=ABCDEF01-1234-1234-1234-123456789ABC --salt=$SALT >a; veritysetup format data hash2 --hash=SHA256 --uuid=ABCDEF01-1234-1234-1234-123456789ABC --salt=$SALT >b; sed -i 's/hash2/hash/' b; cmp a b && cmp hash hash2"
"$FV" dump hash >out
check "dump lowercases the hash name" grep -q $'^Hash algorithm:  \tsha256$' out
check "dump lowercases the UUID" grep -q $'^UUID:            \tabcdef01-1234-1234-1234-123456789abc$' out
check "no-superblock output as veritysetup" sh -c "\"$FV\" format data h1 --no-superblock --salt=$SALT >a; veritysetup format data h1 --no-superblock --salt=$SALT >b; cmp a b"

# Options that do not apply to the action are refused, as veritysetup does.
for case in "verify panic-on-corruption" "format ignore-corruption" "format trusted-cert=x" "format csv" "dump salt=00" "sign fec-roots=4" "status threads=2"; do
	action=${case%% *}
	opt=${case#* }
	check "$action --$opt refused" run_rc 1 "$FV" "$action" "--$opt" a b c
	check "  message" grep -qx "fastverity: Option --${opt%%=*} is not allowed with $action action." err
done
$VS verify --panic-on-corruption a b c 2>"$T/vs.err" >/dev/null
check "  veritysetup's words" sh -c "grep -q 'veritysetup: Option --panic-on-corruption is not allowed with verify action.' '$T/vs.err'"

# Per-action help: the action's synopsis and its options only.
check "verify --help" run_rc 0 "$FV" verify --help
check "  synopsis" grep -qx 'Usage: fastverity \[OPTION...\] verify <data_device> <hash_device> \[<root_hash>\] | <image>' out
check "  its options" grep -q -- '--max-failures=number' out
check "  not another action's" sh -c "! grep -q -- '--csv\|--ignore-corruption\|--dry-run' '$T/out'"
cp out verify.help
check "  the action's exit codes" grep -q '^Exit status: 0 intact; 1 bad parameters, a wrong root hash, I/O; 2 a bad block' verify.help
check "  two examples" test "$(sed -n '/^Examples:/,/^$/p' verify.help | grep -c '^  fastverity verify')" = 2
check "  and where the rest is" test "$(tail -1 verify.help)" = "See fastverity(8)."
check "every action's help has its exit codes and examples" sh -c "for a in format verify repair sign dump open create close remove status bench; do '$FV' help \$a | grep -q '^Exit status: ' || exit 1; done"
check "help verify: the same" sh -c "'$FV' help verify | cmp -s - verify.help"
check "  verify's own help: no format defaults for --salt and --fec-roots" sh -c "! grep -q '32 random bytes\|(default 2)' verify.help && grep -q -- '--fec-roots=number .*told from the parity.s size' verify.help && grep -q -- '--salt=hex string .*superblock' verify.help"
check "  format's help keeps them" sh -c "'$FV' help format | grep -q -- '--salt=hex string .*32 random bytes' && '$FV' help format | grep -q -- '--fec-roots=number .*(default 2)'"
check "open --help lists the corruption policies" sh -c "'$FV' open --help | grep -q -- '--panic-on-corruption'"
check "help: the whole list" sh -c "'$FV' help | grep -q 'help \[<action>\]'"
check "--help and --usage agree on --trusted-cert=path" sh -c "'$FV' --help | grep -q -- '--trusted-cert=path' && '$FV' --usage | grep -q -- '--trusted-cert=path'"

# --progress into a file: plain lines, no control characters, the last 100%.
gen 32 $((8 << 20)) >pdata
check "format --progress into a file" run_rc 0 "$FV" format --progress pdata phash --salt=$SALT
check "  every line: action, pass, percent, bytes, MiB/s" sh -c "test -s '$T/err' && ! grep -qvE '^format, hash data: [0-9]+%, [0-9.]+ of [0-9.]+ MiB, [0-9.]+ MiB/s$' '$T/err'"
check "  no control characters" sh -c "! grep -q \"\$(printf '[\\r\\033]')\" '$T/err'"
check "  ends at 100%" sh -c "tail -1 '$T/err' | grep -q '^format, hash data: 100%, '"
check "verify --progress names its action and pass" sh -c "'$FV' verify --progress pdata phash '$(root_of "$T/out")' 2>&1 >/dev/null | tail -1 | grep -q '^verify, verify data: 100%, '"

finish
