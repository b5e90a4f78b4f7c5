#!/bin/bash
# make demo: formats the bundled firmware sample, verifies it, then shows
# what verify reports for a copy with two damaged blocks.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fv=$here/../fastverity
"$here/mkimages.sh" "$here/out"
cd "$here/out"
salt=$(sed -n 's/^# salt //p' "$here/MANIFEST")
uuid=f1f1f1f1-0000-4000-8000-000000000001

echo "\$ fastverity format firmware.img firmware.img.verity --salt=$salt --uuid=$uuid --root-hash-file=firmware.roothash"
"$fv" format firmware.img firmware.img.verity --salt="$salt" --uuid=$uuid \
	--root-hash-file=firmware.roothash
root=$(cat firmware.roothash)
echo
echo "\$ fastverity -v verify firmware.img firmware.img.verity $root"
"$fv" -v verify firmware.img firmware.img.verity "$root"
echo
cp firmware.img damaged.img
printf 'X' | dd of=damaged.img bs=1 seek=12345 conv=notrunc status=none
printf 'Y' | dd of=damaged.img bs=1 seek=9999999 conv=notrunc status=none
echo "\$ fastverity verify damaged.img firmware.img.verity $root    # two bytes changed"
rc=0
"$fv" verify damaged.img firmware.img.verity "$root" 2>&1 || rc=$?
echo "(exit code $rc)"
echo
echo "Root hash of images/out/firmware.img: $root"
