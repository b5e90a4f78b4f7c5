#!/bin/sh
# Makes the sample images of MANIFEST in images/out/ (or $1):
#   firmware.img   16 MiB with a zero-filled middle third, like firmware
#                  with an erased region
#   multilevel.img 3 MiB in 512-byte blocks: 4 tree levels
#   onefile.img    4 MiB, formatted with its tree appended at 4 MiB
# Only the data is made here; the trees are made by format.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out}
mkimage=$here/../build/mkimage
mkdir -p "$out"
grep -v '^#' "$here/MANIFEST" | while read -r name kind seed bytes _rest; do
	[ -n "$name" ] || continue
	"$mkimage" "$kind" "$seed" "$bytes" >"$out/$name"
done
