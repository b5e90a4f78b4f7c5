#!/bin/bash
# Checks every image of MANIFEST against fastverity and veritysetup: both
# give the manifest's root, the same hash image, and verify each other's.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$here/../fastverity
t=$(mktemp -d /tmp/fastverity-images.XXXXXX)
trap 'rm -rf "$t"' EXIT
"$here/mkimages.sh" "$t"
salt=$(sed -n 's/^# salt //p' "$here/MANIFEST")
passed=0 failed=0
result() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL images: $2" >&2; fi; }
while read -r name kind seed bytes dbs hbs offset uuid root; do
	case "$name" in ''|'#'*) continue ;; esac
	for tool in fv vs; do
		cp "$t/$name" "$t/$tool.$name"
		if [ "$offset" = - ]; then
			hash=$t/$tool.$name.verity opt=
		else
			hash=$t/$tool.$name opt=--hash-offset=$offset
		fi
		cmd=$fv
		[ $tool = vs ] && cmd=veritysetup
		got=$($cmd format "$t/$tool.$name" "$hash" $opt --salt="$salt" --uuid="$uuid" \
			--data-block-size="$dbs" --hash-block-size="$hbs" | awk -F'\t' '/^Root hash:/{print $2}')
		[ "$got" = "$root" ]; result $? "$name: $tool root $got, manifest $root"
	done
	if [ "$offset" = - ]; then
		cmp -s "$t/fv.$name.verity" "$t/vs.$name.verity"; result $? "$name: hash images differ"
		"$fv" verify "$t/$name" "$t/vs.$name.verity" "$root"; result $? "$name: fastverity verify"
		veritysetup verify "$t/$name" "$t/fv.$name.verity" "$root"; result $? "$name: veritysetup verify"
	else
		cmp -s "$t/fv.$name" "$t/vs.$name"; result $? "$name: one-file images differ"
		"$fv" verify "$t/vs.$name" "$t/vs.$name" "$root" --hash-offset="$offset"; result $? "$name: fastverity verify"
		veritysetup verify "$t/fv.$name" "$t/fv.$name" "$root" --hash-offset="$offset"; result $? "$name: veritysetup verify"
	fi
done <"$here/MANIFEST"
echo "images: $passed passed, $failed failed"
[ "$failed" = 0 ]
