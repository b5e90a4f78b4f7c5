# Bash completion: sourced as bash-completion would, asked as a shell asks.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
# shellcheck disable=SC1091
. "$TOP/completion/fastverity.bash"
: >data.img
: >data.verity
complete_words() { # WORDS...: COMPREPLY for the last word, sorted, one line
	COMP_WORDS=("$FV" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_fastverity
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
check "actions" test "$(complete_words "")" = "avb bench close create dump format fsverity help lp open ota remove repair sign status update verify "
check "actions by prefix" test "$(complete_words "ve")" = "verify "
check "verify's options by prefix" test "$(complete_words verify --max)" = "--max-failures= "
check "verify's options exclude open's" sh -c "! echo '$(complete_words verify --)' | grep -q -- '--panic-on-corruption'"
check "open's options include them" sh -c "echo '$(complete_words open --p)' | grep -q -- '--panic-on-corruption'"
check "files after the action" test "$(complete_words verify data.)" = "data.img data.verity "
check "help completes an action" test "$(complete_words help re)" = "remove repair "
check "options before the action: all" sh -c "echo '$(complete_words --js)' | grep -q -- '--json'"
check "avb: avbtool's subcommands" sh -c "echo '$(complete_words avb add_)' | grep -qx 'add_hash_footer add_hashtree_footer '"
check "avb: a subcommand's options" test "$(complete_words avb add_hashtree_footer --fec)" = "--fec_num_roots "
check "fsverity: its commands" test "$(complete_words fsverity d)" = "digest dump_metadata "
check "avb --algorithm: its values, ML-DSA's among them" test "$(complete_words avb make_vbmeta_image --algorithm M)" = "MLDSA65 MLDSA87 "
check "  every one" test "$(complete_words avb add_hashtree_footer --algorithm "")" = \
	"MLDSA65 MLDSA87 NONE SHA256_RSA2048 SHA256_RSA4096 SHA256_RSA8192 SHA512_RSA2048 SHA512_RSA4096 SHA512_RSA8192 "
check "  generate_key's: ML-DSA's alone" test "$(complete_words avb generate_key --algorithm "")" = "MLDSA65 MLDSA87 "
check "avb --hash_algorithm: its values" test "$(complete_words avb add_hash_footer --hash_algorithm sha)" = "sha1 sha256 sha512 "
check "avb --key: files" test "$(complete_words avb make_vbmeta_image --key data.)" = "data.img data.verity "
check "fsverity: a command's options" test "$(complete_words fsverity digest --for)" = "--for-builtin-sig "
check "ota: its commands" test "$(complete_words ota i)" = "info "
check "ota: a command's options" test "$(complete_words ota info --j)" = "--json "
check "lp: its commands" test "$(complete_words lp "")" = "dump unpack "
check "lp: a command's options" test "$(complete_words lp unpack --p)" = "--partition "
# --partition=: the image's own, from its dump (a super image's logical
# partitions), as one word or as bash splits it at '='
printf '%s' '{"device_size": 8388608, "slots": 1, "groups": [{"name": "default"}], "partitions": [{"name": "system", "group": "default"}, {"name": "vendor", "group": "default"}]}' >s.json
python3 "$TOP/tests/cli/mksuper.py" s.json super.img || fail "mksuper"
check "--partition= values from the image" test "$(complete_words verify super.img --partition=)" = "--partition=system --partition=vendor "
check "  split at '=' as bash splits it" test "$(complete_words verify super.img --partition = v)" = "vendor "
# a closed set's values, from the option's braces in its action's help;
# a path option's value: files
check "--container= its values" test "$(complete_words verify x.img --container=)" = "--container=avb --container=ddi --container=plain --container=sidecar --container=super "
check "  split at '='" test "$(complete_words dump x.img --container = s)" = "sidecar super "
check "--hash= its values" test "$(complete_words format --hash=sha5)" = "--hash=sha512 "
check "--slot= its values" test "$(complete_words dump super.img --slot=)" = "--slot=a --slot=b "
check "--format= its values" test "$(complete_words format --format = "")" = "0 1 "
check "--fec-device= files" test "$(complete_words verify --fec-device=data.)" = "--fec-device=data.img --fec-device=data.verity "
check "make install puts it where bash-completion looks" sh -c "make -s -C '$TOP' install DESTDIR='$T/root' PREFIX=/usr >/dev/null 2>&1 && test -s '$T/root/usr/share/bash-completion/completions/fastverity'"
check "  zsh's and fish's beside it" sh -c "test -s '$T/root/usr/share/zsh/vendor-completions/_fastverity' && test -s '$T/root/usr/share/fish/vendor_completions.d/fastverity.fish'"

# fish, as fish asks (complete -C), the command found on PATH
mkdir bin && ln -s "$FV_REAL" bin/fastverity
if command -v fish >/dev/null; then
	fc() { PATH="$T/bin:$PATH" fish -c "source '$TOP/completion/fastverity.fish'; complete -C '$*'" 2>&1 | cut -f1 | sort | tr '\n' ' '; }
	check "fish: actions by prefix" test "$(fc fastverity ve)" = "verify "
	check "fish: an action's options" test "$(fc fastverity verify --max)" = "--max-failures "
	check "fish: avb's commands" test "$(fc fastverity avb add_)" = "add_hash_footer add_hashtree_footer "
	check "fish: an avb command's options" test "$(fc fastverity avb add_hashtree_footer --fec)" = "--fec_num_roots "
	check "fish: fsverity's commands" test "$(fc fastverity fsverity d)" = "digest dump_metadata "
	check "fish: a fsverity command's options" test "$(fc fastverity fsverity digest --out)" = "--out-descriptor --out-merkle-tree "
	check "fish: ota's commands" test "$(fc fastverity ota i)" = "info "
	check "fish: lp's commands" test "$(fc fastverity lp u)" = "unpack "
	check "fish: avb --algorithm's values" test "$(fc fastverity avb make_vbmeta_image --algorithm M)" = "MLDSA65 MLDSA87 "
	check "fish: avb --key: files" test "$(fc fastverity avb make_vbmeta_image --key data.)" = "data.img data.verity "
	check "fish: --partition= from the image" test "$(fc fastverity verify super.img --partition=s)" = "--partition=system "
	check "fish: --container= its values" test "$(fc fastverity verify x.img --container=s)" = "--container=sidecar --container=super "
	check "fish: files after the action" test "$(fc fastverity verify data.)" = "data.img data.verity "
else
	skip "fish completion (no fish here)"
fi
# zsh: the completion function run with zsh's completion builtins
# standing in (compadd records what it is given; zsh itself then matches
# it against the word)
if command -v zsh >/dev/null; then
	cat >zstub <<'ZEOF'
compadd() { local -a out; while (( $# )); do case $1 in -a) shift; out+=(${(P)1});; -S|-P) shift;; --) shift; out+=("$@"); break;; -*) ;; *) out+=("$1");; esac; shift; done; print -l -- $out >>z.out; }
_files() { print "<files>" >>z.out; }
compset() { PREFIX=${PREFIX#--partition=}; }
: >z.out; words=("$@"); CURRENT=$#; PREFIX=${words[-1]}
source "$ZCOMP"
sort z.out | tr "\n" " "
ZEOF
	zc() { PATH="$T/bin:$PATH" ZCOMP="$TOP/completion/_fastverity" zsh -f zstub "$@"; }
	check "zsh: actions" sh -c "echo '$(zc fastverity "")' | grep -q '^avb bench close create dump format fsverity help lp open ota remove repair sign status update verify '"
	check "zsh: an action's options" sh -c "echo '$(zc fastverity verify --)' | grep -q -- '--max-failures= '"
	check "zsh: avb's commands" sh -c "echo '$(zc fastverity avb "")' | grep -q 'add_hashtree_footer'"
	check "zsh: lp's commands" test "$(zc fastverity lp "")" = "dump unpack "
	check "zsh: fsverity's commands" sh -c "echo '$(zc fastverity fsverity "")' | grep -q 'dump_metadata'"
	check "zsh: avb --algorithm's values" sh -c "echo '$(zc fastverity avb make_vbmeta_image --algorithm "")' | grep -q '^MLDSA65 MLDSA87 NONE SHA256_RSA2048 '"
	check "zsh: avb generate_key --algorithm: ML-DSA's alone" test "$(zc fastverity avb generate_key --algorithm "")" = "MLDSA65 MLDSA87 "
	check "zsh: avb --key: files" test "$(zc fastverity avb make_vbmeta_image --key "")" = "<files> "
	check "zsh: --partition= from the image" test "$(zc fastverity verify super.img --partition=)" = "system vendor "
	check "zsh: --container= its values" test "$(zc fastverity verify x.img --container=)" = "avb ddi plain sidecar super "
	check "zsh: --fec-device= files" test "$(zc fastverity verify --fec-device=)" = "<files> "
	check "zsh: files after the action" test "$(zc fastverity verify da)" = "<files> "
else
	skip "zsh completion (no zsh here)"
fi

finish
