#!/bin/busybox sh
# /init of the kernel test's initramfs: loads the modules, runs fastverity
# open/status/close against the drives the host attached, prints one
# "FVTEST PASS|FAIL <what>" line per check, then powers off.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mkdir -p /run && mount -t tmpfs run /run

pass() { echo "FVTEST PASS $*"; }
fail() { echo "FVTEST FAIL $*"; }
t() { # NAME CMD...
	name=$1
	shift
	if "$@" >/tmp/out 2>&1; then pass "$name"; else fail "$name"; sed 's/^/FVTEST   | /' /tmp/out; fi
}
param() { sed -n "s/.* fv\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
# jdoc ARGS...: fastverity ARGS (with --json); its document, also left in
# /tmp/jdoc, goes to the console as one line (FVJSON rc<TAB>args<TAB>the
# document), whatever t() does with stdout, for the host to check against
# docs/fastverity.schema.json and the exit code (tests/cli/jsoncheck.py);
# returns the exit code.
jdoc() {
	"$FV" "$@" >/tmp/jdoc 2>/dev/null
	jrc=$?
	printf 'FVJSON %s\t%s\t%s\n' "$jrc" "$*" "$(tr -d '\n' </tmp/jdoc)" >/dev/console
	return $jrc
}

for m in $(cat /modules.order); do
	insmod "/lib/modules/$m.ko" 2>/tmp/insmod || {
		fail "insmod $m"
		sed 's/^/FVTEST   | /' /tmp/insmod
		dmesg | tail -3 | sed 's/^/FVTEST   | /'
	}
done
for _ in $(seq 50); do [ -b /dev/vdj1 ] && break; sleep 0.1; done

FV=/bin/fastverity
R=$(param root)
S=$(param sum)
R1=$(param root1)
S1=$(param sum1)
OFF1=$(param off1)
SAVB=$(param sumavb)
SDDI=$(param sumddi)
SDDIU=$(param sumddiu)
SLP=$(param sumlp)
SLPP=$(param sumlpp)
QUICK=$(param quick)
sum() { sha256sum "$1" | cut -d' ' -f1; }
status_has() { # NAME PATTERN (the status is shown when it fails)
	"$FV" status "$1" >/tmp/status 2>&1
	cat /tmp/status
	grep -q "$2" /tmp/status
}
gone() { # DEVICE: wait until the node and the mapping are gone
	for _ in $(seq 20); do [ ! -e "/dev/mapper/$1" ] && break; sleep 0.1; done
	[ ! -e "/dev/mapper/$1" ] && ! "$FV" status "$1" >/dev/null 2>&1
}

# The library's own open/status/close (tests/kernel/api.c).
t "library: fv_activate, fv_status_get, fv_close on block devices" /bin/fv-api apigood /dev/vda /dev/vdb "$R"

# A good image on block devices.
t "open: block devices" "$FV" open /dev/vda good /dev/vdb "$R"
t "open: /dev/mapper node made without udev" test -b /dev/mapper/good
t "read: whole device matches the host's checksum" test "$(sum /dev/mapper/good)" = "$S"
t "status: verified" status_has good 'status:      verified'
t "status: block devices named" status_has good 'data device: /dev/vda'
t "status: read-only" status_has good 'mode:        readonly'
t "status: size in sectors" status_has good 'size:        16384 sectors'
t "status: root hash" status_has good "root hash:   $R"
jdoc status --json good
t "status --json" grep -q '"status":"verified"' /tmp/jdoc
t "open: a name in use is refused with exit 5" sh -c "'$FV' open /dev/vda good /dev/vdb $R; test \$? = 5"
t "close: block devices (--json: the done document)" jdoc close --json good
t "close: device gone" gone good
t "status: inactive gives exit 4" sh -c "'$FV' status good; test \$? = 4"
jdoc status --json good
t "status --json: inactive" grep -q '"active":false' /tmp/jdoc

# The same image as files, through loop devices.
cat /dev/vda >/tmp/good.img
cat /dev/vdb >/tmp/good.hash
t "open: files through loop devices (--json: the done document)" jdoc open --json /tmp/good.img goodfile /tmp/good.hash "$R"
jdoc status --json goodfile
t "status --json: the loop devices named" grep -q '"data_loop":"/tmp/good.img"' /tmp/jdoc
t "read: loop-backed device matches" test "$(sum /dev/mapper/goodfile)" = "$S"
t "status: data loop file" status_has goodfile 'data loop:   /tmp/good.img'
t "status: hash loop file" status_has goodfile 'hash loop:   /tmp/good.hash'
loops=$("$FV" status goodfile | sed -n 's/^  \(data\|hash\) device: \/dev\/\(loop[0-9]*\)$/\2/p')
t "close: loop-backed device" "$FV" close goodfile
t "close: loop-backed device gone" gone goodfile
freed() {
	for _ in $(seq 30); do
		busy=0
		for l in $loops; do [ -e "/sys/block/$l/loop/backing_file" ] && busy=1; done
		[ $busy = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
t "close: loop devices freed ($loops)" freed

# One corrupted byte: reading fails, status says corrupted.
t "open: corrupted copy" "$FV" open /dev/vdc bad /dev/vdb "$R"
t "read: corrupted device fails with an I/O error" sh -c "! dd if=/dev/mapper/bad of=/dev/null bs=1M 2>/tmp/dd; grep -qE 'I/O error|Input/output error' /tmp/dd"
t "status: corrupted" status_has bad 'status:      corrupted'
t "close: corrupted" "$FV" close bad

# A wrong root hash: the first read fails.
WRONG=$(echo "$R" | tr '0123456789abcdef' '123456789abcdef0')
t "open: wrong root hash" "$FV" open /dev/vda wrong /dev/vdb "$WRONG"
t "read: first block fails with a wrong root" sh -c "! dd if=/dev/mapper/wrong of=/dev/null bs=4096 count=1 2>/dev/null"
t "close: wrong root" "$FV" close wrong

# fv.quick=1 (the arm64 run, under a slower emulator): the sections
# whose code does not depend on the CPU are left to the x86-64 run.
if [ "$QUICK" != 1 ]; then
# Each option lands in the loaded table.
for opt in ignore-corruption restart-on-corruption panic-on-corruption ignore-zero-blocks check-at-most-once use-tasklets; do
	word=$(echo "$opt" | tr - _)
	[ "$opt" = use-tasklets ] && word=try_verify_in_tasklet
	t "open --$opt" "$FV" open /dev/vda opt /dev/vdb "$R" "--$opt"
	t "table has $word" status_has opt "flags:.*$word"
	t "status --json: flags [\"$word\"]" sh -c "'$FV' status --json opt | tr -d ' \n' | grep -q '\"flags\":\[\"$word\"\]'"
	t "read with --$opt" test "$(sum /dev/mapper/opt)" = "$S"
	"$FV" close opt
	gone opt
done
# two flags that veritysetup's display runs together stay two in JSON
t "open --check-at-most-once --use-tasklets" "$FV" open /dev/vda opt /dev/vdb "$R" --check-at-most-once --use-tasklets
t "status --json: both flags, apart" sh -c "'$FV' status --json opt | tr -d ' \n' | grep -q '\"flags\":\[\"check_at_most_once\",\"try_verify_in_tasklet\"\]'"
"$FV" close opt
gone opt
t "conflicting flags refused" sh -c "! '$FV' open /dev/vda opt /dev/vdb $R --ignore-corruption --panic-on-corruption"
# veritysetup 2.8's --error-as-corruption: the corruption policy's error
# word in the table where the kernel's dm-verity target is 1.10 (Linux
# 6.12) or later; an older kernel's refusal names its version
vver=$(dmsetup targets | sed -n 's/^verity *v//p')
vmaj=${vver%%.*} vmin=${vver#*.} vmin=${vmin%%.*}
for pol in restart panic; do
	if [ "${vmaj:-0}" -gt 1 ] || { [ "${vmaj:-0}" = 1 ] && [ "${vmin:-0}" -ge 10 ]; }; then
		t "open --error-as-corruption --$pol-on-corruption" "$FV" open /dev/vda opt /dev/vdb "$R" --error-as-corruption --$pol-on-corruption
		t "  the table has ${pol}_on_error" status_has opt "flags:       ${pol}_on_corruption ${pol}_on_error"
		"$FV" close opt
		gone opt
	else
		t "open --error-as-corruption --$pol-on-corruption: refused by dm-verity $vver, named" sh -c "'$FV' open /dev/vda opt /dev/vdb $R --error-as-corruption --$pol-on-corruption 2>/tmp/err; test \$? = 1 && grep -q 'opt: ${pol}_on_error needs the kernel.s dm-verity target 1.10 (Linux 6.12); this kernel.s is $vver' /tmp/err"
		t "  nothing left mapped" gone opt
	fi
done
# --shared (veritysetup 2.7.4): a data device another mapping holds is
# refused without it, as veritysetup refuses it, and mapped with it
t "open: a mapping of /dev/vda" "$FV" open /dev/vda sh1 /dev/vdb "$R"
t "open: a second one refused, the device in use (exit 5)" sh -c "'$FV' open /dev/vda sh2 /dev/vdb $R 2>/tmp/err; test \$? = 5 && grep -q 'Cannot use device /dev/vda which is in use (already mapped or mounted)' /tmp/err"
t "  veritysetup refuses it too (exit 5)" sh -c "veritysetup open /dev/vda sh2 /dev/vdb $R 2>/dev/null; test \$? = 5"
t "open --shared: the second one" "$FV" open /dev/vda sh2 /dev/vdb "$R" --shared
t "  it reads the data" test "$(sum /dev/mapper/sh2)" = "$S"
"$FV" close sh2
"$FV" close sh1
gone sh2
gone sh1

# One file: data with its tree appended at --hash-offset.
t "open: one file with --hash-offset" "$FV" open /dev/vdd one /dev/vdd "$R1" --hash-offset="$OFF1"
t "read: one-file device matches" test "$(sum /dev/mapper/one)" = "$S1"
t "status: one-file hash offset" status_has one "hash offset: $(( OFF1 / 512 + 8 )) sectors"
t "close: one file" "$FV" close one
cat /dev/vdd >/tmp/one.img
t "open: one file through one loop device" "$FV" open /tmp/one.img onefile /tmp/one.img "$R1" --hash-offset="$OFF1"
t "read: one-file loop device matches" test "$(sum /dev/mapper/onefile)" = "$S1"
t "status: one loop for both" sh -c "d=\$('$FV' status onefile | sed -n 's/^  data device: //p'); h=\$('$FV' status onefile | sed -n 's/^  hash device: //p'); test \"\$d\" = \"\$h\""
t "close: one-file loop" "$FV" close onefile

# A signature reaches the kernel through a user key named in the table;
# the kernel refuses it, as its signer is not in the kernel's keyrings.
t "open --root-hash-signature: untrusted signer refused" sh -c "! '$FV' open /dev/vda signed /dev/vdb $R --root-hash-signature=/root.p7s"
t "open --root-hash-signature: the kernel checked it and found no trusted key" sh -c "dmesg | grep 'Root hash verification failed' | tail -1 | grep -q -- '(-ENOKEY)'"
# Junk instead of PKCS#7: the kernel gets the key and fails to parse it,
# which proves the key and its description reach the target.
t "open --root-hash-signature=junk refused" sh -c "! '$FV' open /dev/vda signed /dev/vdb $R --root-hash-signature=/junk.p7s"
t "the kernel read the junk from the key" sh -c "dmesg | grep 'Root hash verification failed' | tail -1 | tee /dev/stderr | grep -q -- '(-EBADMSG)'"
t "open --root-hash-signature: nothing left mapped" sh -c "! '$FV' status signed >/dev/null"
# A refused open of image files releases their loop devices.
no_loops() {
	for _ in $(seq 30); do
		ls /sys/block/loop*/loop/backing_file >/dev/null 2>&1 || return 0
		sleep 0.1
	done
	return 1
}
t "no loop devices in use before" no_loops
t "open of files refused by the kernel" sh -c "! '$FV' open /tmp/good.img sigfile /tmp/good.hash $R --root-hash-signature=/junk.p7s"
t "loop devices released after the refusal" no_loops
fi

# veritysetup as the oracle: each tool's status of a device the other
# opened prints the same lines.
export DM_DISABLE_UDEV=1
same_status() { # NAME (less 2.8's FEC line, which 2.6.1 does not print)
	"$FV" status "$1" 2>&1 | grep -v '^  FEC repaired: ' >/tmp/fv.status
	veritysetup status "$1" >/tmp/vs.status 2>&1
	diff /tmp/vs.status /tmp/fv.status
}
t "veritysetup opens" veritysetup open /dev/vda byvs /dev/vdb "$R"
t "status of veritysetup's device: same lines" same_status byvs
t "fastverity closes veritysetup's device" "$FV" close byvs
t "open with options" "$FV" open /dev/vda byfv /dev/vdb "$R" --ignore-zero-blocks --check-at-most-once --restart-on-corruption
t "status of fastverity's device: same lines as veritysetup" same_status byfv
t "veritysetup closes fastverity's device" veritysetup close byfv
t "files: fastverity opens" "$FV" open /tmp/good.img byfvf /tmp/good.hash "$R"
t "files: same status lines as veritysetup" same_status byfvf
t "files: closed" "$FV" close byfvf
t "one file: veritysetup opens" veritysetup open /dev/vdd vsone /dev/vdd "$R1" --hash-offset="$OFF1"
t "one file: same status lines" same_status vsone
t "one file: closed" "$FV" close vsone

# FEC: /dev/vdg has a bad byte in five blocks, /dev/vdf the parity of
# the good image (made by fastverity), /dev/vde its hash tree.
t "FEC: without parity the damaged image fails" "$FV" open /dev/vdg nofec /dev/vde "$R"
t "FEC: without parity reading fails" sh -c "! cat /dev/mapper/nofec >/dev/null 2>&1"
"$FV" close nofec
t "FEC: open with our parity" "$FV" open /dev/vdg fec /dev/vde "$R" --fec-device=/dev/vdf
t "FEC: the kernel corrects the data with our parity" test "$(sum /dev/mapper/fec)" = "$S"
t "FEC: status names the FEC device" status_has fec 'FEC device:  /dev/vdf'
t "FEC: status shows the roots" status_has fec 'FEC roots:   2'
jdoc status --json fec
t "FEC: status --json" grep -q '"roots":2' /tmp/jdoc
t "FEC: same status lines as veritysetup" same_status fec
# the blocks the kernel corrected, where its status counts them
# (veritysetup 2.8's line)
fixed=$(dmsetup status fec | awk '{print $5}')
if [ -n "$fixed" ]; then
	t "FEC: status says what the kernel corrected ($fixed)" status_has fec "^  FEC repaired: $fixed \[events\]$"
	jdoc status --json fec
	t "FEC: status --json: repaired $fixed" grep -q "\"repaired\":$fixed" /tmp/jdoc
else
	t "FEC: no count from this kernel, no line" sh -c "! '$FV' status fec | grep -q 'FEC repaired'"
	jdoc status --json fec
	t "FEC: status --json: repaired null" grep -q '"repaired":null' /tmp/jdoc
fi
t "FEC: closed" "$FV" close fec
t "FEC: veritysetup opens our layout" veritysetup open /dev/vdg vsfec /dev/vde "$R" --fec-device=/dev/vdf
t "FEC: veritysetup's device reads the original" test "$(sum /dev/mapper/vsfec)" = "$S"
t "FEC: same status lines (veritysetup's device)" same_status vsfec
t "FEC: fastverity closes veritysetup's device" "$FV" close vsfec

# An Android image (/dev/vdh): opened alone, from its footer and vbmeta
# (signed with ML-DSA-65: its key checked); two bad bytes in its data,
# corrected by the kernel from its parity.
t "Android: open with another key (ML-DSA-87's): refused" sh -c "'$FV' open /dev/vdh avb --key=/mldsa87.avbpubkey; test \$? = 2 && [ ! -e /dev/mapper/avb ]"
t "Android: open the image alone, its ML-DSA-65 signer checked" "$FV" open /dev/vdh avb --key=/mldsa65.avbpubkey
t "Android: the kernel corrects the data with the image's parity" test "$(sum /dev/mapper/avb)" = "$SAVB"
t "Android: status names the image as data, hash and FEC device" status_has avb 'FEC device:  /dev/vdh'
t "Android: closed" "$FV" close avb

# An Android super image (/dev/vdj1, partition "super" of a GPT disk):
# logical partition system_a, in two extents, mapped by a linear device
# under dm-verity; a bad byte in each extent corrected by the kernel from
# the partition's own parity.
t "super: open a logical partition (--partition=system_a)" "$FV" open /dev/vdj1 lpsys --partition=system_a
t "super: the kernel reads the data back, corrected" test "$(sum /dev/mapper/lpsys)" = "$SLP"
t "super: its data device is the linear device" sh -c "'$FV' status lpsys | grep -q 'data device: /dev/dm-'"
[ -x /bin/dmsetup ] && t "super: the linear device maps two extents" sh -c "dmsetup table lpsys-linear >/tmp/lin; cat /tmp/lin; test \$(grep -c ' linear ' /tmp/lin) = 2"
t "super: closed" "$FV" close lpsys
t "super: the linear device is gone with it" sh -c "for _ in \$(seq 20); do [ -e /dev/mapper/lpsys-linear ] || break; sleep 0.1; done; [ ! -e /dev/mapper/lpsys-linear ]"
t "super: open by its path through the image" "$FV" open /dev/vdj1/system_a lp2
t "super: the same bytes" test "$(sum /dev/mapper/lp2)" = "$SLP"
t "super: closed" "$FV" close lp2
t "super: an empty partition refused by name" sh -c "! '$FV' open /dev/vdj1 lp3 --partition=system_b 2>/tmp/err; cat /tmp/err; grep -q 'system_b: the partition is empty' /tmp/err"
if [ -x /bin/make-dynpart-mappings ] && [ -x /bin/dmsetup ]; then
	# the super device, the metadata slot, the block device (found by
	# its partition label, "super")
	t "super: make-dynpart-mappings (an independent reader) maps the partitions" make-dynpart-mappings /dev/vdj1 0 /dev/vdj1
	t "super: its system_a holds the extents' bytes" test "$(sum /dev/mapper/system_a)" = "$SLPP"
	for d in /dev/mapper/system_*; do [ -e "$d" ] && dmsetup remove "${d##*/}"; done
fi

# A systemd disk image (/dev/vdi) with root and usr: root's partition
# mapped from the GPT alone (of two, open takes root's), through loop
# devices over the partitions' sectors; usr's when --partition names it.
t "disk image: open the root partition from the GPT" "$FV" open /dev/vdi ddiroot
t "disk image: the device reads the root partition" test "$(sum /dev/mapper/ddiroot)" = "$SDDI"
t "disk image: closed" "$FV" close ddiroot
t "disk image: open --partition=usr" "$FV" open /dev/vdi ddiusr --partition=usr
t "disk image: the device reads the usr partition" test "$(sum /dev/mapper/ddiusr)" = "$SDDIU"
t "disk image: usr closed" "$FV" close ddiusr
t "disk image: verify checks both partitions" "$FV" verify /dev/vdi
t "disk image: --partition=home refused" sh -c "! '$FV' open /dev/vdi ddix --partition=home"

# A pair of regions: data and tree at offsets inside one image file
# (after 1 MiB of something else), through loop devices with offset and
# size limit.
if [ "$QUICK" != 1 ] && [ -x /bin/fv-regions ]; then
	dd if=/dev/zero of=/tmp/reg.img bs=1M count=1 2>/dev/null
	cat /dev/vda /dev/vdb >>/tmp/reg.img
	dlen=$(blockdev --getsize64 /dev/vda)
	hlen=$(blockdev --getsize64 /dev/vdb)
	t "regions: verify and open data and tree inside one image" /bin/fv-regions reg /tmp/reg.img 1048576 "$dlen" $((1048576 + dlen)) "$hlen" "$R"
	t "regions: the device reads the data region" test "$(sum /dev/mapper/reg)" = "$S"
	t "regions: data and tree on loop devices of the image" status_has reg 'data loop:   /tmp/reg.img'
	t "regions: closed" "$FV" close reg
	rm -f /tmp/reg.img
fi

# A disk with unreadable sectors: the good image with data block 77 (byte
# 315392) mapped to the error target. verify names that block, by its own
# position, and goes on; repair --dry-run rebuilds it from the parity.
if [ "$QUICK" != 1 ] && [ -x /bin/dmsetup ]; then
	total=$(blockdev --getsz /dev/vda)
	printf '0 616 linear /dev/vda 0\n616 8 error\n624 %s linear /dev/vda 624\n' $((total - 624)) >/tmp/table
	t "EIO: a device with an unreadable block (dm error target)" dmsetup create fverr /tmp/table
	t "EIO: verify names the unreadable block, exit 2" sh -c "'$FV' verify /dev/mapper/fverr /dev/vdb $R 2>/tmp/err; test \$? = 2 && grep -qx 'Unreadable block at position 315392.' /tmp/err && grep -qx '1 block could not be read.' /tmp/err"
	t "EIO: and nothing else is blamed" sh -c "! grep -q 'Verification failed' /tmp/err"
	t "EIO: repair --dry-run rebuilds it from the parity" sh -c "'$FV' repair --dry-run /dev/mapper/fverr /dev/vde $R --fec-device=/dev/vdf >/tmp/out; grep -qx 'Can repair position 315392 (data block 77).' /tmp/out"
	t "EIO: removed" dmsetup remove fverr
fi
unset DM_DISABLE_UDEV

if [ "$QUICK" != 1 ]; then
# The old argument order, and deferred removal.
t "create: old argument order" "$FV" create old /dev/vda /dev/vdb "$R"
exec 3</dev/mapper/old
jdoc close --json --deferred old
t "close --json --deferred while in use: the document alone on stdout" grep -q '"result":"ok"' /tmp/jdoc
t "close --cancel-deferred" "$FV" close --cancel-deferred old
t "close --deferred while in use" sh -c "'$FV' close --deferred old | grep -q 'scheduled for deferred removal'"
t "still active while in use" test -b /dev/mapper/old
exec 3<&-
t "removed when the last user closes it" sh -c "'$FV' status old; test \$? = 4"
rm -f /dev/mapper/old # without udev nobody removes the node afterwards
fi

# fs-verity on ext4 (/dev/vdk, the verity feature): enable files with
# fastverity, measure them (the host's digests, fastverity's and
# fsverity-utils' alike), dump their metadata (the host's tree and
# descriptor), read them back; a byte flipped underneath fails the read.
FSVA=$(param fsva)
FSVB=$(param fsvb)
FSVSALT=$(param fsvsalt)
FSVBLK=$(param fsvblk)
FSVSUM=$(param fsvsum)
mkdir -p /mnt
if mount -t ext4 /dev/vdk /mnt 2>/tmp/mount; then
	t "fsverity enable: sha256, 4096" "$FV" fsverity enable /mnt/a
	t "fsverity measure: the host's digest" test "$("$FV" fsverity measure /mnt/a)" = "sha256:$FSVA /mnt/a"
	t "fsverity enable: sha512 with a salt" "$FV" fsverity enable /mnt/b --hash-alg=sha512 --salt="$FSVSALT"
	if [ -x /bin/fsverity ]; then
		t "fsverity-utils measures the same digests" test "$(fsverity measure /mnt/a /mnt/b)" = "$("$FV" fsverity measure /mnt/a /mnt/b)"
		t "  and dumps the same descriptor" sh -c "fsverity dump_metadata descriptor /mnt/b | cmp - /fsv/b.desc"
	fi
	t "fsverity measure: two files" test "$("$FV" fsverity measure /mnt/a /mnt/b)" = "$(printf 'sha256:%s /mnt/a\nsha512:%s /mnt/b' "$FSVA" "$FSVB")"
	t "fsverity dump_metadata descriptor: the host's" sh -c "'$FV' fsverity dump_metadata descriptor /mnt/a | cmp - /fsv/a.desc"
	t "fsverity dump_metadata merkle_tree: the host's" sh -c "'$FV' fsverity dump_metadata merkle_tree /mnt/b | cmp - /fsv/b.tree"
	t "  --offset and --length" sh -c "'$FV' fsverity dump_metadata merkle_tree /mnt/b --offset=100 --length=50 >/tmp/part && dd if=/fsv/b.tree bs=1 skip=100 count=50 2>/dev/null | cmp - /tmp/part"
	t "  a file without a signature: none to dump, exit 1" sh -c "! '$FV' fsverity dump_metadata signature /mnt/a >/tmp/sig 2>/tmp/err && test ! -s /tmp/sig && test \$(wc -l </tmp/err) = 1 && grep -q 'no built-in signature' /tmp/err"
	t "read back: the host's bytes" test "$(sum /mnt/a)" = "$FSVSUM"
	t "enable again: exit 1, already a verity file" sh -c "! '$FV' fsverity enable /mnt/a 2>/tmp/err && grep -q 'already a verity file' /tmp/err"
	t "measure a file that is not one: exit 1, said" sh -c "! '$FV' fsverity measure /mnt/c 2>/tmp/err && grep -q 'not a verity file' /tmp/err"
	t "enable with a signature the kernel cannot trust: refused, said" sh -c "! '$FV' fsverity enable /mnt/c --signature=/fsv/c.sig 2>/tmp/err && grep -qi 'signature\|keyring' /tmp/err && ! '$FV' fsverity measure /mnt/c 2>/dev/null"
	t "a verity file cannot be written" sh -c "! echo x >>/mnt/a"
	umount /mnt
	# one byte of a's first block, flipped on the device
	printf 'Z' | dd of=/dev/vdk bs=1 seek=$((FSVBLK * 4096 + 10)) conv=notrunc,fsync 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
	if mount -t ext4 /dev/vdk /mnt 2>/tmp/mount; then
		t "a flipped byte underneath: the read fails" sh -c "! cat /mnt/a >/dev/null 2>&1"
		t "  and measure still gives the digest (the tree is intact)" test "$("$FV" fsverity measure /mnt/a)" = "sha256:$FSVA /mnt/a"
		umount /mnt
	else
		fail "fs-verity: mount again"
	fi
else
	fail "fs-verity: mount of the ext4 file system"
	sed 's/^/FVTEST   | /' /tmp/mount
fi

echo "FVTEST DONE"
poweroff -f
