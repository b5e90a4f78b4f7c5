# bash completion for fastverity: actions, each action's options, the
# avb, fsverity, ota and lp commands, their options, the values an option
# takes from a closed set (--hash=, --container=, --slot=, --format=,
# avb's --algorithm), --partition= values from the image, and files (for
# a path option's value too). The actions and options come from the command itself
# (`fastverity help` and `fastverity help ACTION`), which takes them from
# the one table that also decides which options an action accepts.

_fastverity_actions()
{
	"${1:-fastverity}" help 2>/dev/null |
		sed -n '/^<action> is one of:/,/^$/s/^\t\([a-z]*\) .*/\1/p'
}

_fastverity_options()
{
	local cmd=$1 action=$2
	if [ -n "$action" ]; then
		"$cmd" help "$action" 2>/dev/null
	else
		"$cmd" --help 2>/dev/null
	fi | grep -o -- '--[a-z0-9-]*=\?' | sort -u
}

# --partition=: the image's own (a disk image's roles, a super image's
# logical partitions), from `fastverity dump --json IMAGE` (each
# partition's "role" or "name", one level into its "partitions" list).
_fastverity_partitions()
{
	"$1" dump --json "$2" 2>/dev/null | sed -n '/^  "partitions":\[/,/^  \]/s/^      "\(role\|name\)":"\([^"]*\)".*/\2/p'
}

# The values an action's option takes when they are a closed set: its
# line in `fastverity help ACTION` shows them in braces
# ("--container={avb,super,ddi,sidecar,plain}").
_fastverity_action_values()
{
	"$1" help "$2" 2>/dev/null | sed -n "s/^ .*$3={\([^}]*\)}.*/\1/p" | tr , ' '
}

# The values an avb option takes when they are a closed set: its
# `fastverity avb SUBCOMMAND --help` line shows them in braces
# ("--algorithm {NONE,...,MLDSA65,MLDSA87}").
_fastverity_values()
{
	"$1" "$2" "$3" --help 2>/dev/null | sed -n "s/^  $4 {\([^}]*\)}.*/\1/p" | tr , ' '
}

# fastverity avb SUBCOMMAND --option value (avbtool's spelling) and
# fastverity fsverity COMMAND --option=value (fsverity-utils'), from
# `fastverity GROUP --help` and `fastverity GROUP SUBCOMMAND --help`;
# an option's value from its closed set, when it has one.
_fastverity_group()
{
	local cmd=$1 group=$2 cur=$3 sub="" subs w i values prev
	subs=$("$cmd" "$group" --help 2>/dev/null | sed -n 's/^\t\([a-z_]*\) .*/\1/p' | tr '\n' ' ')
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case " $subs " in *" $w "*) sub=$w ;; esac
	done
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	if [ -z "$sub" ]; then
		COMPREPLY=($(compgen -W "$subs" -- "$cur"))
	elif [[ $prev == --* ]] && values=$(_fastverity_values "$cmd" "$group" "$sub" "$prev") &&
		[ -n "$values" ]; then
		COMPREPLY=($(compgen -W "$values" -- "$cur"))
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$("$cmd" "$group" "$sub" --help 2>/dev/null |
			grep -o -- '--[a-z0-9_-]*' | sort -u)" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
	fi
}

_fastverity()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[0]} action="" w i
	local actions
	actions=$(_fastverity_actions "$cmd")
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in -*) continue ;; esac
		for a in $actions; do
			if [ "$w" = "$a" ]; then
				action=$a
				break 2
			fi
		done
	done
	if [ "$action" = avb ] || [ "$action" = fsverity ] || [ "$action" = ota ] || [ "$action" = lp ]; then
		_fastverity_group "$cmd" "$action" "$cur"
		return 0
	fi
	# --OPTION=VALUE: one word, or three where '=' breaks words (bash's
	# default COMP_WORDBREAKS: --partition, =, NAME)
	local prefix="" value="" split=0 opt="" values
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*} prefix=$opt= value=${cur#*=} split=1
	elif [ "$cur" = "=" ] && [[ ${COMP_WORDS[COMP_CWORD - 1]} == --* ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 1]} split=1
	elif [ "${COMP_WORDS[COMP_CWORD - 1]}" = "=" ] &&
		[[ ${COMP_WORDS[COMP_CWORD - 2]} == --* ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]} value=$cur split=1
	fi
	# a closed set's values (--hash=, --container=, --slot=, --format=)
	if [ $split = 1 ] && [ "$opt" != --partition ]; then
		values=$(_fastverity_action_values "$cmd" "$action" "$opt")
		if [ -n "$values" ]; then
			COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "$value"))
		else
			# a path's value: files
			COMPREPLY=($(compgen -P "$prefix" -f -- "$value"))
			compopt -o filenames 2>/dev/null
		fi
		return 0
	fi
	if [ $split = 1 ]; then
		# the first argument after the action: the image
		local image=""
		for ((i = 1; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			case $w in -* | = | "$action") continue ;; esac
			[ "${COMP_WORDS[i - 1]}" = "=" ] && continue
			image=$w
			break
		done
		[ -n "$image" ] && COMPREPLY=($(compgen -P "$prefix" -W \
			"$(_fastverity_partitions "$cmd" "$image")" -- "$value"))
		return 0
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_fastverity_options "$cmd" "$action")" -- "$cur"))
		# an option that takes a value: no space after its '='
		if [ ${#COMPREPLY[@]} = 1 ] && [[ ${COMPREPLY[0]} == *= ]]; then
			compopt -o nospace 2>/dev/null
		fi
		return 0
	fi
	if [ -z "$action" ]; then
		COMPREPLY=($(compgen -W "$actions" -- "$cur"))
		return 0
	fi
	if [ "$action" = help ]; then
		COMPREPLY=($(compgen -W "$actions" -- "$cur"))
		return 0
	fi
	# images, hash files, devices
	COMPREPLY=($(compgen -f -- "$cur"))
	compopt -o filenames 2>/dev/null
	return 0
}

complete -F _fastverity fastverity
