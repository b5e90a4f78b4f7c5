# fish completion for fastverity: actions, each action's options, the avb
# and fsverity commands, their options and the values an avb option takes
# from a closed set, --partition= values from the image, and
# files. Everything comes from the command itself (`fastverity help`,
# `fastverity help ACTION`, `fastverity avb SUBCOMMAND --help`, `fastverity
# dump --json IMAGE`), as bash's completion does.

function __fastverity_actions
    fastverity help 2>/dev/null | sed -n '/^<action> is one of:/,/^$/s/^\t\([a-z]*\) .*/\1/p'
end

# The action on the line, if any (the first word that is one).
function __fastverity_action
    set -l actions (__fastverity_actions)
    for t in (commandline -opc)[2..-1]
        if contains -- $t $actions
            echo $t
            return 0
        end
    end
    return 1
end

# The avb or fsverity command on the line, if any.
function __fastverity_avb_sub
    set -l a (__fastverity_action)
    contains -- "$a" avb fsverity ota lp; or return 1
    set -l subs (fastverity $a --help 2>/dev/null | sed -n 's/^\t\([a-z_]*\) .*/\1/p')
    for t in (commandline -opc)[3..-1]
        if contains -- $t $subs
            echo $t
            return 0
        end
    end
    return 1
end

# The values the avb option before the cursor takes, when they are a
# closed set ("--algorithm {NONE,...}" in the subcommand's --help).
function __fastverity_values
    set -l sub (__fastverity_avb_sub); or return 1
    set -l prev (commandline -opc)[-1]
    string match -q -- '--*' $prev; or return 1
    set -l v (fastverity (__fastverity_action) $sub --help 2>/dev/null | sed -n "s/^  $prev {\([^}]*\)}.*/\1/p")
    test -n "$v"; or return 1
    string split , -- $v
end

function __fastverity_needs_action
    not __fastverity_action >/dev/null; or test "$(__fastverity_action)" = help
end

# Files after an action (after an avb or fsverity command, not in its
# place).
function __fastverity_wants_files
    __fastverity_action >/dev/null; or return 1
    __fastverity_needs_action; and return 1
    contains -- "$(__fastverity_action)" avb fsverity ota lp; and not __fastverity_avb_sub >/dev/null; and return 1
    __fastverity_values >/dev/null; and return 1
    return 0
end

function __fastverity_options
    set -l a (__fastverity_action)
    if test -n "$a"
        fastverity help $a 2>/dev/null
    else
        fastverity --help 2>/dev/null
    end | grep -o -- '--[a-z0-9-]*' | sort -u
end

# An action's option's closed set: the braces of its line in `fastverity
# help ACTION` ("--container={avb,super,ddi,sidecar,plain}").
function __fastverity_action_values
    set -l v (fastverity help (__fastverity_action) 2>/dev/null | sed -n "s/^ .*--$argv[1]={\([^}]*\)}.*/\1/p")
    string split , -- $v
end

# The image: the first word after the action that is no option.
function __fastverity_partitions
    set -l a (__fastverity_action)
    set -l seen 0
    for t in (commandline -opc)[2..-1]
        if test $seen = 1; and not string match -q -- '-*' $t
            fastverity dump --json $t 2>/dev/null | sed -n '/^  "partitions":\[/,/^  \]/s/^      "\(role\|name\)":"\([^"]*\)".*/\2/p'
            return 0
        end
        test "$t" = "$a"; and set seen 1
    end
end

complete -c fastverity -f
complete -c fastverity -n '__fastverity_needs_action' -a '(__fastverity_actions)'
complete -c fastverity -n '__fastverity_action >/dev/null; and not contains -- "$(__fastverity_action)" avb fsverity ota lp; and string match -q -- "-*" (commandline -ct)' -a '(__fastverity_options)'
complete -c fastverity -n 'contains -- "$(__fastverity_action)" avb fsverity ota lp; and not __fastverity_avb_sub >/dev/null' -a '(fastverity (__fastverity_action) --help 2>/dev/null | sed -n "s/^\t\([a-z_]*\) .*/\1/p")'
complete -c fastverity -n '__fastverity_avb_sub >/dev/null; and string match -q -- "-*" (commandline -ct)' -a '(fastverity (__fastverity_action) (__fastverity_avb_sub) --help 2>/dev/null | grep -o -- "--[a-z0-9_-]*" | sort -u)'
complete -c fastverity -n '__fastverity_values >/dev/null' -a '(__fastverity_values)'
complete -c fastverity -l partition -x -a '(__fastverity_partitions)'
for o in hash container slot format
    complete -c fastverity -n 'not contains -- "$(__fastverity_action)" avb fsverity ota lp' -l $o -x -a "(__fastverity_action_values $o)"
end
complete -c fastverity -n '__fastverity_wants_files; and not string match -q -- "-*" (commandline -ct)' -F
