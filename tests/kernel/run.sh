#!/bin/bash
# make check-kernel: boots Debian's kernel under qemu (software emulation)
# with an initramfs holding busybox, the dm-verity modules, fastverity and
# the test script, and checks open/status/close against the real target.
# KARCH=arm64 (check-arm64 sets it): Debian's arm64 kernel under
# qemu-system-aarch64, with the aarch64 build of fastverity, and
# busybox and veritysetup from Debian's arm64 packages, unpacked.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
karch=${KARCH:-amd64}
case "$karch" in
amd64)
	fv=$top/fastverity
	host_fv=$fv
	api=$top/build/fv-api
	cache=$top/build/kernel
	;;
arm64)
	fv=$top/build-arm64/fastverity-cross
	host_fv=$top/build-arm64/fastverity # the same build under qemu-user
	api=$top/build-arm64/fv-api
	cache=$top/build-arm64/kernel
	;;
*)
	echo "kernel: KARCH=$karch: amd64 or arm64" >&2
	exit 1
	;;
esac
work=$(mktemp -d /tmp/fastverity-kernel.XXXXXX)
trap 'rm -rf "$work"' EXIT
modules="virtio_ring virtio_pci_modern_dev virtio_pci_legacy_dev virtio virtio_pci virtio_blk reed_solomon dax dm-mod dm-bufio dm-verity loop crc16 mbcache jbd2 crc32c_generic ext4 sha512_generic"
die() { echo "kernel: $*" >&2; echo "kernel: 0 passed, 1 failed"; exit 1; }

# Debian's kernel, resolved through linux-image-$karch, not installed:
# only vmlinuz (unpacked: the ELF vmlinux on amd64, which boots faster;
# the Image on arm64) and the modules the test loads.
fetch_kernel() {
	local pkg deb meta=linux-image-$karch:$karch
	pkg=$(apt-cache depends "$meta" 2>/dev/null | awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ {print $2; exit}')
	if [ -z "$pkg" ]; then
		apt-get update -q >/dev/null
		pkg=$(apt-cache depends "$meta" | awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ {print $2; exit}')
	fi
	[ -n "$pkg" ] || die "cannot resolve $meta"
	pkg=${pkg%:*}
	rm -rf "$cache" && mkdir -p "$cache/deb"
	(cd "$cache/deb" && apt-get download "$pkg:$karch" >/dev/null 2>&1) || die "apt-get download $pkg:$karch failed"
	deb=$(ls "$cache"/deb/*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$cache" --wildcards './boot/vmlinuz-*' './lib/modules/*/kernel/*' ||
		die "cannot unpack $deb"
	rm -rf "$cache/deb"
	local z off
	z=$(ls "$cache"/boot/vmlinuz-*)
	if [ "$karch" = arm64 ]; then
		gzip -dc "$z" >"$cache/vmlinux" 2>/dev/null || cp "$z" "$cache/vmlinux"
	else
		off=$(od -An -v -tx1 "$z" | tr -d ' \n' | grep -ob 'fd377a585a00' | head -1 | cut -d: -f1)
		if [ -n "$off" ] && tail -c +$((off / 2 + 1)) "$z" | xz -dc >"$cache/vmlinux" 2>/dev/null &&
			[ "$(head -c 4 "$cache/vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
			:
		else
			cp "$z" "$cache/vmlinux"
		fi
	fi
	echo "$pkg" >"$cache/package"
}
# arm64: busybox and veritysetup (the oracle) for the guest, from Debian's
# arm64 packages, unpacked (they cannot be installed beside the host's).
fetch_guest_tools() {
	rm -rf "$cache/guest" && mkdir -p "$cache/guest/deb"
	(cd "$cache/guest/deb" && apt-get download busybox-static:arm64 cryptsetup-bin:arm64 libcryptsetup12:arm64 \
		libargon2-1:arm64 libblkid1:arm64 libuuid1:arm64 >/dev/null 2>&1) ||
		die "apt-get download of the arm64 guest tools failed"
	for d in "$cache"/guest/deb/*.deb; do dpkg -x "$d" "$cache/guest/root" || die "cannot unpack $d"; done
	rm -rf "$cache/guest/deb"
}
[ -s "$cache/vmlinux" ] || fetch_kernel
[ "$karch" = amd64 ] || [ -x "$cache/guest/root/sbin/veritysetup" ] || fetch_guest_tools
kver=$(ls "$cache/lib/modules")

# The initramfs.
root=$work/initramfs
mkdir -p "$root/bin" "$root/lib/modules" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
if [ "$karch" = arm64 ]; then
	cp "$cache/guest/root/bin/busybox" "$root/bin/busybox" || die "no arm64 busybox"
else
	cp /bin/busybox "$root/bin/busybox" || die "busybox-static is not installed"
fi
: >"$root/modules.order"
for m in $modules; do
	f=$(find "$cache/lib/modules/$kver" -name "$m.ko" -o -name "$m.ko.xz" | head -1)
	[ -n "$f" ] || continue # built into this kernel
	case "$f" in
	*.xz) xz -dc "$f" >"$root/lib/modules/$m.ko" ;;
	*) cp "$f" "$root/lib/modules/$m.ko" ;;
	esac
	echo "$m" >>"$root/modules.order"
done
# fastverity, and veritysetup as the oracle for status, with their
# shared libraries and the dynamic loader.
cp "$fv" "$root/bin/fastverity" || die "$fv is missing"
cp "$api" "$root/bin/fv-api" || die "$api is missing (make check-kernel builds it)"
# a pair of regions (x86-64 run only)
[ -x "${api%/*}/fv-regions" ] && cp "${api%/*}/fv-regions" "$root/bin/fv-regions"
if [ "$karch" = arm64 ]; then
	vs=$cache/guest/root/sbin/veritysetup
	cp "$vs" "$root/bin/veritysetup"
	# ldd cannot run a foreign program: the NEEDED entries, followed
	# through the arm64 library directories
	dirs="$cache/guest/root/lib/aarch64-linux-gnu $cache/guest/root/usr/lib/aarch64-linux-gnu
		$top/build-arm64/sysroot/usr/lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu"
	mkdir -p "$root/lib/aarch64-linux-gnu"
	todo="$fv $vs $api" seen=" "
	# want SONAME BY: the library copied once, its own NEEDED to follow
	want() {
		local lib= d
		case "$seen" in *" $1 "*) return ;; esac
		seen="$seen$1 "
		for d in $dirs; do [ -e "$d/$1" ] && { lib=$d/$1; break; }; done
		[ -n "$lib" ] || die "arm64 library $1 (needed by $2) not found"
		cp -L "$lib" "$root/lib/aarch64-linux-gnu/$1"
		todo="$todo $lib"
	}
	# (and the libraries fastverity opens when it needs them, which no
	# NEEDED entry names: hashtree/dl.h)
	for n in libfec.so.0 libcrypto.so.3 libdevmapper.so.1.02.1 libz.so.1 libjson-c.so.5; do want "$n" fastverity; done
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1
		shift
		todo="$*"
		for n in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			want "$n" "$(basename "$f")"
		done
	done
	cp -L /usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1 "$root/lib/ld-linux-aarch64.so.1" ||
		die "the arm64 dynamic loader is missing (libc6:arm64)"
else
	vs=$(command -v veritysetup) || die "veritysetup (cryptsetup-bin) is not installed"
	cp "$vs" "$root/bin/veritysetup"
	# dmsetup: a device with unreadable sectors (the error target)
	dms=$(command -v dmsetup) || die "dmsetup is not installed"
	cp "$dms" "$root/bin/dmsetup"
	# an independent reader of super images' metadata
	mdm=$(command -v make-dynpart-mappings) || die "make-dynpart-mappings is not installed"
	cp "$mdm" "$root/bin/make-dynpart-mappings"
	# fsverity-utils, the oracle of fs-verity's measure
	fsu=$(command -v fsverity) || die "fsverity (fsverity-utils) is not installed"
	cp "$fsu" "$root/bin/fsverity"
	# (and the libraries fastverity opens when it needs them, which ldd
	# does not list: hashtree/dl.h)
	opened=$(for n in libfec.so.0 libcrypto.so.3 libdevmapper.so.1.02.1 libz.so.1 libjson-c.so.5; do
		ldconfig -p | awk -v n="$n" '$1 == n && /x86-64/ {print $NF; exit}'
	done)
	[ "$(echo "$opened" | wc -w)" = 5 ] || die "libfec, libcrypto, libdevmapper, zlib or json-c is not in ldconfig's cache"
	# shellcheck disable=SC2086
	for lib in $(ldd "$fv" "$vs" "$api" "$dms" "$mdm" "$fsu" $opened | awk '/=> \// {print $3} /^\t\/lib/ {print $1}' | sort -u) $opened; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
fi
cp "$top/tests/kernel/init.sh" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1 >"$work/initramfs.gz") || die "cannot pack the initramfs"

# Images, made and formatted on the host.
salt=e48da609055204e89ae53b655ca2216dd983cf3cb829f34f63a297d106d53e2d
"$top/build/mkimage" random 71 $((8 << 20)) >"$work/good.img"
"$host_fv" format "$work/good.img" "$work/good.hash" --salt=$salt --root-hash-file="$work/root" >/dev/null || die "format failed"
# FEC: parity in a file of its own; veritysetup's must be the same bytes.
# fecbad.img has one bad byte in each of five blocks, at different
# offsets: one error per codeword, within what the kernel corrects.
"$host_fv" format "$work/good.img" "$work/fec.hash" --salt=$salt --fec-device="$work/good.fec" >/dev/null ||
	die "format with FEC failed"
veritysetup format "$work/good.img" "$work/vs.hash" --salt=$salt --fec-device="$work/vs.fec" >/dev/null ||
	die "veritysetup format with FEC failed"
cmp -s "$work/good.fec" "$work/vs.fec" || die "FEC parity differs from veritysetup's"
cp "$work/good.img" "$work/fecbad.img"
for b in 10 500 1500 1800 2047; do
	printf 'Z' | dd of="$work/fecbad.img" bs=1 seek=$((b * 4096 + b % 4000)) conv=notrunc status=none
done
cp "$work/good.img" "$work/bad.img"
printf 'X' | dd of="$work/bad.img" bs=1 seek=$((1000 * 4096 + 77)) conv=notrunc status=none
"$top/build/mkimage" random 72 $((4 << 20)) >"$work/one.img"
sum1=$(sha256sum "$work/one.img" | cut -d' ' -f1)
"$host_fv" format "$work/one.img" "$work/one.img" --hash-offset=$((4 << 20)) --salt=$salt \
	--root-hash-file="$work/root1" >/dev/null || die "format (one file) failed"
# An Android image (avbtool's layout, made by fastverity avb): data, tree
# and parity in one file, its vbmeta signed with ML-DSA-65 (AOSP's test
# key; the guest has its public-key blob, and ML-DSA-87's to refuse);
# avbbad.img has a bad byte in two data blocks, at different offsets
# (one error per codeword).
"$top/build/mkimage" random 73 $((4 << 20)) >"$work/avb.img"
sumavb=$(sha256sum "$work/avb.img" | cut -d' ' -f1)
"$host_fv" avb add_hashtree_footer --image "$work/avb.img" --partition_name system \
	--hash_algorithm sha256 --salt $salt --fec_num_roots 2 \
	--algorithm MLDSA65 --key "$top/tests/avb/mldsa/testkey_mldsa65.pem" || die "avb add_hashtree_footer failed"
cp "$top/tests/avb/mldsa/testkey_mldsa65.avbpubkey" "$root/mldsa65.avbpubkey"
cp "$top/tests/avb/mldsa/testkey_mldsa87.avbpubkey" "$root/mldsa87.avbpubkey"
for b in 7 900; do
	printf 'Q' | dd of="$work/avb.img" bs=1 seek=$((b * 4096 + b % 3000 + 1)) conv=notrunc status=none
done
# A systemd disk image (GPT: root and root-verity, then usr and
# usr-verity, the partition UUIDs the halves of each root hash), made with
# sfdisk and fastverity format: open maps root's pair of the two, or the
# one --partition names.
"$top/build/mkimage" random 74 $((4 << 20)) >"$work/ddi.data"
sumddi=$(sha256sum "$work/ddi.data" | cut -d' ' -f1)
"$host_fv" format "$work/ddi.data" "$work/ddi.hash" --salt=$salt --data-block-size=512 --hash-block-size=512 \
	--root-hash-file="$work/ddi.root" >/dev/null || die "format (disk image) failed"
ddiroot=$(cat "$work/ddi.root")
"$top/build/mkimage" random 76 $((2 << 20)) >"$work/ddiu.data"
sumddiu=$(sha256sum "$work/ddiu.data" | cut -d' ' -f1)
"$host_fv" format "$work/ddiu.data" "$work/ddiu.hash" --salt=$salt --data-block-size=512 --hash-block-size=512 \
	--root-hash-file="$work/ddiu.root" >/dev/null || die "format (disk image, usr) failed"
ddiusr=$(cat "$work/ddiu.root")
uuid_of() { echo "$1" | sed 's/\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)/\1-\2-\3-\4-/'; }
sectors() { echo $((($(stat -c %s "$1") + 511) / 512)); }
truncate -s $((16 << 20)) "$work/ddi.img"
# (x86-64's type GUIDs: root, root-verity, usr, usr-verity)
printf 'label: gpt\nstart=2048, size=8192, type=4f68bce3-e8cd-4db1-96e7-fbcaf984b709, uuid=%s\nstart=10240, size=%d, type=2c7357ed-ebd2-46d9-aec1-23d437ec2bf5, uuid=%s\nstart=12288, size=4096, type=8484680c-9521-48c6-9c11-b0720656f69e, uuid=%s\nstart=16384, size=%d, type=77ff5f63-e7b6-4633-acf4-1565b864c0e6, uuid=%s\n' \
	"$(uuid_of "${ddiroot:0:32}")" "$(sectors "$work/ddi.hash")" "$(uuid_of "${ddiroot:32:32}")" \
	"$(uuid_of "${ddiusr:0:32}")" "$(sectors "$work/ddiu.hash")" "$(uuid_of "${ddiusr:32:32}")" |
	sfdisk -q "$work/ddi.img" >/dev/null || die "sfdisk failed (fdisk is not installed?)"
dd if="$work/ddi.data" of="$work/ddi.img" bs=512 seek=2048 conv=notrunc status=none
dd if="$work/ddi.hash" of="$work/ddi.img" bs=512 seek=10240 conv=notrunc status=none
dd if="$work/ddiu.data" of="$work/ddi.img" bs=512 seek=12288 conv=notrunc status=none
dd if="$work/ddiu.hash" of="$work/ddi.img" bs=512 seek=16384 conv=notrunc status=none
# An Android super image (liblp metadata written by tests/cli/mksuper.py):
# system_a, an Android image with parity, in two extents 1 MiB apart
# ([1, 3) and [4, 6) MiB of super.img), with a bad byte in each (one per
# codeword); the bytes of its extents as the host cuts them out, for
# make-dynpart-mappings' mapping.
"$top/build/mkimage" random 75 $((3 << 20)) >"$work/lp.img"
sumlp=$(sha256sum "$work/lp.img" | cut -d' ' -f1)
"$host_fv" avb add_hashtree_footer --image "$work/lp.img" --partition_name system --partition_size $((4 << 20)) \
	--hash_algorithm sha256 --salt $salt --fec_num_roots 2 || die "avb add_hashtree_footer (super) failed"
printf '{"device_size": %d, "partitions": [{"name": "system_a", "image": "%s", "split": true}, {"name": "system_b"}]}' \
	$((8 << 20)) "$work/lp.img" >"$work/super.json"
python3 "$top/tests/cli/mksuper.py" "$work/super.json" "$work/super.img" || die "mksuper failed"
for at in $(((1 << 20) + 5000)) $(((4 << 20) + 70000)); do
	printf 'S' | dd of="$work/super.img" bs=1 seek=$at conv=notrunc status=none
done
sumlpp=$({ dd if="$work/super.img" bs=1M skip=1 count=2 status=none; dd if="$work/super.img" bs=1M skip=4 count=2 status=none; } |
	sha256sum | cut -d' ' -f1)
# on a disk, as partition "super" of a GPT (make-dynpart-mappings finds
# the block device the metadata names by its partition label)
truncate -s $((10 << 20)) "$work/superdisk.img"
printf 'label: gpt\nstart=2048, size=16384, name=super\n' | sfdisk -q "$work/superdisk.img" >/dev/null ||
	die "sfdisk (super) failed"
dd if="$work/super.img" of="$work/superdisk.img" bs=1M seek=1 conv=notrunc status=none
# A root hash signature by a key the kernel does not trust.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/k.pem" -out "$work/c.pem" \
	-subj /CN=untrusted -days 2 >/dev/null 2>&1
"$host_fv" sign --key "$work/k.pem" --cert "$work/c.pem" --root-hash-file="$work/root" "$work/root.p7s" ||
	die "sign failed"
cp "$work/root.p7s" "$root/root.p7s"
# fs-verity: an ext4 file system with the verity feature, its files made
# here; their digests, trees and descriptors from fastverity, each the
# same as fsverity-utils' (the oracle) here first; a built-in signature
# by the key the kernel does not trust.
fsv=$work/fsvroot
mkdir -p "$fsv" "$root/fsv"
"$top/build/mkimage" random 76 70000 >"$fsv/a"
"$top/build/mkimage" random 77 $(((1 << 20) + 1)) >"$fsv/b"
"$top/build/mkimage" random 78 5000 >"$fsv/c"
mkfs.ext4 -q -F -O verity -b 4096 -d "$fsv" "$work/fsv.img" 16M >/dev/null 2>&1 ||
	die "mkfs.ext4 -O verity failed (e2fsprogs)"
fsvsalt=0123456789abcdef
"$host_fv" fsverity digest "$fsv/a" --out-merkle-tree="$root/fsv/a.tree" --out-descriptor="$root/fsv/a.desc" \
	--compact >"$work/fsva" || die "fsverity digest failed"
"$host_fv" fsverity digest "$fsv/b" --hash-alg=sha512 --salt=$fsvsalt --out-merkle-tree="$root/fsv/b.tree" \
	--out-descriptor="$root/fsv/b.desc" --compact >"$work/fsvb" || die "fsverity digest (sha512) failed"
if command -v fsverity >/dev/null; then
	[ "$(fsverity digest "$fsv/a" --compact)" = "$(cat "$work/fsva")" ] &&
		[ "$(fsverity digest "$fsv/b" --hash-alg=sha512 --salt=$fsvsalt --compact)" = "$(cat "$work/fsvb")" ] ||
		die "fastverity's fs-verity digests differ from fsverity-utils'"
fi
"$host_fv" fsverity sign "$fsv/c" "$root/fsv/c.sig" --key="$work/k.pem" --cert="$work/c.pem" >/dev/null ||
	die "fsverity sign failed"
# where file a's first data block lies in the file system (to damage it)
fsvblk=$(debugfs -R "bmap /a 0" "$work/fsv.img" 2>/dev/null | tr -dc 0-9)
[ -n "$fsvblk" ] || die "debugfs bmap failed"
head -c 64 /dev/urandom >"$root/junk.p7s"
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1 >"$work/initramfs.gz") || die "cannot pack the initramfs"
truncate -s %512 "$work/good.hash" "$work/one.img" "$work/fec.hash"

if [ "$karch" = arm64 ]; then console=ttyAMA0; else console=ttyS0; fi
append="console=$console quiet panic=-1 fv.root=$(cat "$work/root") fv.sum=$(sha256sum "$work/good.img" | cut -d' ' -f1) fv.root1=$(cat "$work/root1") fv.sum1=$sum1 fv.off1=$((4 << 20)) fv.sumavb=$sumavb fv.sumddi=$sumddi fv.sumddiu=$sumddiu fv.sumlp=$sumlp fv.sumlpp=$sumlpp fv.fsva=$(cat "$work/fsva") fv.fsvb=$(cat "$work/fsvb") fv.fsvsalt=$fsvsalt fv.fsvblk=$fsvblk fv.fsvsum=$(sha256sum "$fsv/a" | cut -d' ' -f1) fv.quick=$([ "$karch" = arm64 ] && echo 1 || echo 0) end"
drive() { echo "-drive file=$1,format=raw,if=virtio,readonly=on"; }
# shellcheck disable=SC2046
if [ "$karch" = arm64 ]; then
	qemu="qemu-system-aarch64 -M virt -cpu max"
else
	qemu=qemu-system-x86_64
fi
# shellcheck disable=SC2046,SC2086
timeout 300 $qemu -accel tcg -m 512 -nographic -no-reboot -nic none \
	-kernel "$cache/vmlinux" -initrd "$work/initramfs.gz" -append "$append" \
	$(drive "$work/good.img") $(drive "$work/good.hash") $(drive "$work/bad.img") $(drive "$work/one.img") \
	$(drive "$work/fec.hash") $(drive "$work/good.fec") $(drive "$work/fecbad.img") $(drive "$work/avb.img") $(drive "$work/ddi.img") \
	$(drive "$work/superdisk.img") -drive file="$work/fsv.img",format=raw,if=virtio \
	</dev/null >"$work/console" 2>&1
rc=$?
tr -d '\r' <"$work/console" | grep '^FVTEST' >"$work/markers"
grep -v '^FVTEST DONE' "$work/markers"
passed=$(grep -c '^FVTEST PASS' "$work/markers")
failed=$(grep -c '^FVTEST FAIL' "$work/markers")
# the guest's --json documents (its FVJSON lines) against the schema and
# their exit codes, as the command tests check theirs
tr -d '\r' <"$work/console" | grep '^FVJSON ' | python3 -c '
import sys
for line in sys.stdin:
    rc, args, doc = line[7:].rstrip("\n").split("\t", 2)
    sys.stdout.write(args + "\x1e" + doc + "\x1f" + rc + "\x1d")
' >"$work/json.log"
if [ ! -s "$work/json.log" ]; then
	echo "FVTEST FAIL the guest printed no --json document"
	failed=$((failed + 1))
elif python3 "$top/tests/cli/jsoncheck.py" "$work/json.log" "$top/docs/fastverity.schema.json"; then
	echo "FVTEST PASS $(tr -cd '\035' <"$work/json.log" | wc -c) --json documents: valid, exit codes agree"
	passed=$((passed + 1))
else
	echo "FVTEST FAIL the --json documents above"
	failed=$((failed + 1))
fi
if ! grep -q '^FVTEST DONE' "$work/markers"; then
	echo "kernel: the guest did not finish (qemu exit $rc); its console ends with:" >&2
	tr -d '\r' <"$work/console" | tail -20 >&2
	failed=$((failed + 1))
fi
echo "kernel test: $(cat "$cache/package" 2>/dev/null) under qemu (TCG)"
echo "kernel$([ "$karch" = arm64 ] && echo " (arm64)"): $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
