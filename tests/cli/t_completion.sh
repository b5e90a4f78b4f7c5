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
check "actions" test "$(complete_words "")" = "avb bench close create dump format help open remove repair sign status update verify "
check "actions by prefix" test "$(complete_words "ve")" = "verify "
check "verify's options by prefix" test "$(complete_words verify --max)" = "--max-failures= "
check "verify's options exclude open's" sh -c "! echo '$(complete_words verify --)' | grep -q -- '--panic-on-corruption'"
check "open's options include them" sh -c "echo '$(complete_words open --p)' | grep -q -- '--panic-on-corruption'"
check "files after the action" test "$(complete_words verify data.)" = "data.img data.verity "
check "help completes an action" test "$(complete_words help re)" = "remove repair "
check "options before the action: all" sh -c "echo '$(complete_words --js)' | grep -q -- '--json'"
check "avb: avbtool's subcommands" sh -c "echo '$(complete_words avb add_)' | grep -qx 'add_hash_footer add_hashtree_footer '"
check "avb: a subcommand's options" test "$(complete_words avb add_hashtree_footer --fec)" = "--fec_num_roots "
check "make install puts it where bash-completion looks" sh -c "make -s -C '$TOP' install DESTDIR='$T/root' PREFIX=/usr >/dev/null 2>&1 && test -s '$T/root/usr/share/bash-completion/completions/fastverity'"

finish
