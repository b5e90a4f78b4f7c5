# fastverity lp: AOSP's lpdump and lpunpack (docs/android.md, "lpdump and
# lpunpack"). Super images written from the format by tests/cli/mksuper.py
# (Debian has no lpmake nor lpdump); lpdump's text and -j JSON expected
# as liblp's lpdump.cc prints them (PrintMetadata; protobuf's JSON
# printer with whitespace), written out here by hand for each fixture:
# two slots of 10.0 with several groups, extents and a zero extent; 10.2
# with header flags and a slot 1 that differs; a split super; a sparse
# copy. lp unpack's files compared with dd of the extents.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
MK="python3 $TOP/tests/cli/mksuper.py"
gen 1 3145728 >system.img
gen 2 1048576 >vendor.img
gen 3 524288 >odm.img
gen 4 1052672 >s2.img
gen 5 524288 >s3.img
gen 6 1048576 >v3.img
SEP=------------------------
# extents of 512-byte sectors of FILE: FILE START COUNT [START COUNT...]
sectors() {
	local f=$1; shift
	while [ $# -ge 2 ]; do
		dd if="$f" bs=512 skip="$1" count="$2" status=none
		shift 2
	done
}
same() { cmp -s "$1" "$2"; }

# ---- fixture 1: 10.0, two slots, groups, a split partition, a zero
# extent, an unflagged partition, empty _b twins ----
cat >ab.json <<'EOF'
{"device_size": 16777216, "slots": 2,
 "groups": [{"name": "default"}, {"name": "main_a", "max": 8388608},
            {"name": "main_b", "max": 8388608}],
 "partitions": [{"name": "system_a", "group": "main_a", "image": "system.img", "split": true},
                {"name": "vendor_a", "group": "main_a", "image": "vendor.img", "zero": 8},
                {"name": "odm_a", "group": "main_a", "attrs": 0, "image": "odm.img"},
                {"name": "system_b", "group": "main_b"},
                {"name": "vendor_b", "group": "main_b"},
                {"name": "odm_b", "group": "main_b", "attrs": 0}]}
EOF
$MK ab.json super.img || fail "mksuper ab.json"
img2simg super.img sparse.img || fail "img2simg"
body1() {
	cat <<EOF
Metadata version: 10.0
Metadata size: 768 bytes
Metadata max size: 65536 bytes
Metadata slot count: 2
Header flags: none
Partition table:
$SEP
  Name: system_a
  Group: main_a
  Attributes: readonly
  Extents:
    0 .. 3071 linear super 2048
    3072 .. 6143 linear super 8192
$SEP
  Name: vendor_a
  Group: main_a
  Attributes: readonly
  Extents:
    0 .. 2047 linear super 12288
    2048 .. 2055 zero
$SEP
  Name: odm_a
  Group: main_a
  Attributes: none
  Extents:
    0 .. 1023 linear super 14336
$SEP
  Name: system_b
  Group: main_b
  Attributes: readonly
  Extents:
$SEP
  Name: vendor_b
  Group: main_b
  Attributes: readonly
  Extents:
$SEP
  Name: odm_b
  Group: main_b
  Attributes: none
  Extents:
$SEP
Super partition layout:
$SEP
super: 2048 .. 5120: system_a (3072 sectors)
super: 8192 .. 11264: system_a (3072 sectors)
super: 12288 .. 14336: vendor_a (2048 sectors)
super: 14336 .. 15360: odm_a (1024 sectors)
$SEP
Block device table:
$SEP
  Partition name: super
  First sector: 2048
  Size: 16777216 bytes
  Flags: none
$SEP
Group table:
$SEP
  Name: default
  Maximum size: 0 bytes
  Flags: none
$SEP
  Name: main_a
  Maximum size: 8388608 bytes
  Flags: none
$SEP
  Name: main_b
  Maximum size: 8388608 bytes
  Flags: none
$SEP
EOF
}
{ echo "Slot 0:"; body1; } >want1.txt
{ echo "Slot 1:"; body1; } >want1b.txt
{ cat want1.txt; echo; cat want1b.txt; } >want1all.txt
cat >want1.json <<'EOF'
{
 "partitions": [
  {
   "name": "system_a",
   "group_name": "main_a",
   "is_dynamic": true,
   "size": "3145728"
  },
  {
   "name": "vendor_a",
   "group_name": "main_a",
   "is_dynamic": true,
   "size": "1052672"
  },
  {
   "name": "odm_a",
   "group_name": "main_a",
   "is_dynamic": true,
   "size": "524288"
  },
  {
   "name": "system_b",
   "group_name": "main_b",
   "is_dynamic": true
  },
  {
   "name": "vendor_b",
   "group_name": "main_b",
   "is_dynamic": true
  },
  {
   "name": "odm_b",
   "group_name": "main_b",
   "is_dynamic": true
  }
 ],
 "groups": [
  {
   "name": "default"
  },
  {
   "name": "main_a",
   "maximum_size": "8388608"
  },
  {
   "name": "main_b",
   "maximum_size": "8388608"
  }
 ],
 "block_devices": [
  {
   "name": "super",
   "size": "16777216",
   "block_size": "4096",
   "alignment": "1048576"
  }
 ]
}
EOF
check "lp dump super.img" run_rc 0 "$FV" lp dump super.img
check "  lpdump's text, byte for byte" same out want1.txt
check "  nothing on stderr" test ! -s err
check "lp dump -j" run_rc 0 "$FV" lp dump -j super.img
check "  lpdump's JSON, byte for byte" same out want1.json
check "lp dump --json (the long name)" run_rc 0 "$FV_REAL" lp dump --json super.img
check "  the same" same out want1.json
check "lp dump --slot=1" run_rc 0 "$FV" lp dump --slot=1 super.img
check "  slot 1's text" same out want1b.txt
for s in b _b "1" "0x1"; do
	check "lp dump -s $s: slot 1" run_rc 0 "$FV" lp dump -s "$s" super.img
	check "  the same text" same out want1b.txt
done
check "lp dump -s _a: slot 0" run_rc 0 "$FV" lp dump -s _a super.img
check "  slot 0's text" same out want1.txt
check "lp dump -a: every slot" run_rc 0 "$FV" lp dump -a super.img
check "  both, a blank line between" same out want1all.txt
check "lp dump --all (a unique prefix, --al, as getopt_long takes)" run_rc 0 "$FV" lp dump --al super.img
check "  the same" same out want1all.txt
check "lp dump -d: the bytes before the first partition" run_rc 0 "$FV" lp dump -d super.img
check "  1 MiB" test "$(cat out)" = 1048576
check "lp dump -e is taken (ignored, as lpdump ignores it)" run_rc 0 "$FV" lp dump -e super.img
check "  the same text" same out want1.txt
check "lp dump of the sparse copy" run_rc 0 "$FV" lp dump sparse.img
check "  the same text" same out want1.txt
check "lp dump -j of the sparse copy" run_rc 0 "$FV" lp dump -j sparse.img
check "  the same JSON" same out want1.json
check "native dump --slot=a: the same text for slot 0" run_rc 0 "$FV" dump super.img --slot=a
check "  lpdump's" same out want1.txt

# ---- fixture 2: 10.2, header flags, attributes of 10.1, a slot-suffixed
# group, a zero-only partition; slot 1 written from another image ----
cat >x.json <<'EOF'
{"device_size": 8388608, "metadata_size": 16384, "slots": 2, "minor": 2, "flags": 1,
 "groups": [{"name": "default"}, {"name": "dyn", "flags": 1, "max": 4194304}],
 "partitions": [{"name": "system", "group": "dyn", "attrs": 5, "image": "s2.img"},
                {"name": "scratch", "group": "default", "attrs": 8, "zero": 16}]}
EOF
cat >y.json <<'EOF'
{"device_size": 8388608, "metadata_size": 16384, "slots": 2, "minor": 2,
 "groups": [{"name": "default"}, {"name": "dyn", "flags": 1, "max": 4194304}],
 "partitions": [{"name": "system", "group": "dyn", "attrs": 1, "image": "s3.img", "at": 6144}]}
EOF
$MK x.json x.img && $MK y.json y.img && $MK --merge x.img y.img slot1 || fail "mksuper x, y"
tail2() {
	cat <<EOF
Block device table:
$SEP
  Partition name: super
  First sector: 2048
  Size: 8388608 bytes
  Flags: none
$SEP
Group table:
$SEP
  Name: default
  Maximum size: 0 bytes
  Flags: none
$SEP
  Name: dyn
  Maximum size: 4194304 bytes
  Flags: slot-suffixed
$SEP
EOF
}
{
	cat <<EOF
Slot 0:
Metadata version: 10.2
Metadata size: 568 bytes
Metadata max size: 16384 bytes
Metadata slot count: 2
Header flags: virtual_ab_device
Partition table:
$SEP
  Name: system
  Group: dyn
  Attributes: readonly,updated
  Extents:
    0 .. 2055 linear super 2048
$SEP
  Name: scratch
  Group: default
  Attributes: disabled
  Extents:
    0 .. 15 zero
$SEP
Super partition layout:
$SEP
super: 2048 .. 4104: system (2056 sectors)
$SEP
EOF
	tail2
} >want2.txt
{
	cat <<EOF
Slot 1:
Metadata version: 10.2
Metadata size: 492 bytes
Metadata max size: 16384 bytes
Metadata slot count: 2
Header flags: none
Partition table:
$SEP
  Name: system
  Group: dyn
  Attributes: readonly
  Extents:
    0 .. 1023 linear super 6144
$SEP
Super partition layout:
$SEP
super: 6144 .. 7168: system (1024 sectors)
$SEP
EOF
	tail2
} >want2b.txt
cat >want2.json <<'EOF'
{
 "partitions": [
  {
   "name": "scratch",
   "group_name": "default",
   "is_dynamic": true,
   "size": "8192"
  },
  {
   "name": "system",
   "group_name": "dyn",
   "is_dynamic": true,
   "size": "1052672"
  }
 ],
 "groups": [
  {
   "name": "default"
  },
  {
   "name": "dyn",
   "maximum_size": "4194304"
  }
 ],
 "block_devices": [
  {
   "name": "super",
   "size": "8388608",
   "block_size": "4096",
   "alignment": "1048576"
  }
 ]
}
EOF
check "10.2: lp dump" run_rc 0 "$FV" lp dump x.img
check "  header flags, 10.1's attributes, a zero extent: lpdump's text" same out want2.txt
check "10.2: lp dump -s 1: slot 1's own metadata" run_rc 0 "$FV" lp dump -s 1 x.img
check "  its text" same out want2b.txt
check "10.2: lp dump -a" run_rc 0 "$FV" lp dump -a x.img
check "  slot 0's, then slot 1's" sh -c "{ cat want2.txt; echo; cat want2b.txt; } | cmp -s - out"
check "10.2: lp dump -j" run_rc 0 "$FV" lp dump -j x.img
check "  partitions by group (as liblp's builder lists them)" same out want2.json
check "10.2: lp dump -j -s 1" run_rc 0 "$FV" lp dump -j -s 1 x.img
check "  slot 1's one partition" jqok '.partitions == [{"name": "system", "group_name": "dyn", "is_dynamic": true, "size": "524288"}]' out
check "native dump --slot=b: slot 1's metadata" run_rc 0 "$FV" dump x.img --slot=b
check "  lpdump's text of slot 1" same out want2b.txt

# ---- fixture 3: a split super (super_1.img beside it), one slot ----
cat >split.json <<'EOF'
{"device_size": 8388608, "slots": 1,
 "block_devices": [{"name": "super_1", "size": 4194304, "file": "super_1.img"}],
 "partitions": [{"name": "vendor", "image": "v3.img", "device": 1},
                {"name": "system", "image": "s3.img"}]}
EOF
$MK split.json split.img || fail "mksuper split"
cat >want3.txt <<EOF
Metadata version: 10.0
Metadata size: 456 bytes
Metadata max size: 65536 bytes
Metadata slot count: 1
Header flags: none
Partition table:
$SEP
  Name: vendor
  Group: default
  Attributes: readonly
  Extents:
    0 .. 2047 linear super_1 0
$SEP
  Name: system
  Group: default
  Attributes: readonly
  Extents:
    0 .. 1023 linear super 2048
$SEP
Super partition layout:
$SEP
super: 2048 .. 3072: system (1024 sectors)
super_1: 0 .. 2048: vendor (2048 sectors)
$SEP
Block device table:
$SEP
  Partition name: super
  First sector: 2048
  Size: 8388608 bytes
  Flags: none
$SEP
  Partition name: super_1
  First sector: 0
  Size: 4194304 bytes
  Flags: none
$SEP
Group table:
$SEP
  Name: default
  Maximum size: 0 bytes
  Flags: none
$SEP
EOF
check "split super: lp dump (one slot: no Slot line)" run_rc 0 "$FV" lp dump split.img
check "  lpdump's text, the layout by device name" same out want3.txt
check "split super: lp dump -j" run_rc 0 "$FV" lp dump -j split.img
check "  two block devices" jqok '[.block_devices[].name] == ["super", "super_1"] and .block_devices[1].size == "4194304" and (.partitions | map(.size)) == ["1048576", "524288"]' out

# ---- lp unpack ----
sectors super.img 2048 3072 8192 3072 >want_system_a
{ sectors super.img 12288 2048; head -c 4096 /dev/zero; } >want_vendor_a
sectors super.img 14336 1024 >want_odm_a
check "lp unpack super.img u1" run_rc 0 "$FV" lp unpack super.img u1
check "  lpunpack's lines" sh -c "grep -qx \"Attempting to extract partition 'system_a'...\" out && grep -qx '  Dealing with extent 1 from target source 0...' out"
check "  every partition, nothing else (no temporary file left)" test "$(cd u1 && ls -A | tr '\n' ' ')" = "odm_a.img odm_b.img system_a.img system_b.img vendor_a.img vendor_b.img "
for p in system_a vendor_a odm_a; do
	check "  $p.img: its extents' bytes" same u1/$p.img want_$p
done
check "  system_a is the image it was made of" same u1/system_a.img system.img
check "  the empty twins: empty files" sh -c "test ! -s u1/system_b.img && test -f u1/odm_b.img"
check "lp unpack of the sparse copy, -p twice, a new nested OUTDIR" run_rc 0 "$FV" lp unpack -p vendor_a --partition=system_a sparse.img sp/deep
check "  only those two" test "$(cd sp/deep && ls -A | tr '\n' ' ')" = "system_a.img vendor_a.img "
check "  byte-identical to the raw image's extents" sh -c "cmp -s sp/deep/system_a.img want_system_a && cmp -s sp/deep/vendor_a.img want_vendor_a"
check "lp unpack -S 1 -p system (slot 1's own extents)" run_rc 0 "$FV" lp unpack -S 1 -p system x.img o2
check "  slot 1's system" same o2/system.img s3.img
check "lp unpack -p system of slot 0, over the file" run_rc 0 "$FV" lp unpack -p system x.img o2
check "  slot 0's system replaced it" same o2/system.img s2.img
check "lp unpack of a split super (super_1.img beside it)" run_rc 0 "$FV" lp unpack split.img o3
check "  vendor from super_1, system from super" sh -c "cmp -s o3/vendor.img v3.img && cmp -s o3/system.img s3.img"
check "lp unpack into . by default" sh -c "mkdir -p here && cd here && '$FV' lp unpack -p odm_a ../super.img >/dev/null && cmp -s odm_a.img ../want_odm_a"
mkdir -p in && cp super.img in/system_a.img
check "lp unpack of in/system_a.img into in: 70 (the image is never written over)" run_rc 70 "$FV" lp unpack in/system_a.img in
check "  one line naming it, the image as it was" sh -c "test \$(wc -l <err) = 1 && grep -q 'is the input' err && cmp -s in/system_a.img super.img"
mkdir -p dirout/odm_a.img
check "lp unpack -p odm_a over a directory odm_a.img: 70" run_rc 70 "$FV" lp unpack -p odm_a super.img dirout
check "  one line, naming a partition image" sh -c "test \$(wc -l <err) = 1 && grep -q 'dirout/odm_a.img: cannot create a partition image: Is a directory' err"

# ---- bad input: one line, lpdump's and lpunpack's exit codes ----
gen 9 65536 >plain.img
check "lp dump of a missing file: 66" run_rc 66 "$FV" lp dump missing.img
check "  one line naming it" sh -c "test \$(wc -l <err) = 1 && grep -q 'missing.img' err"
check "lp dump of no super image: 66" run_rc 66 "$FV" lp dump plain.img
check "  one line: no geometry" sh -c "test \$(wc -l <err) = 1 && grep -q 'plain.img: not a super image' err"
check "lp dump --slot=2 of two slots: 66" run_rc 66 "$FV" lp dump --slot=2 super.img
check "  one line" sh -c "test \$(wc -l <err) = 1 && grep -q 'metadata slot 2: the image has 2' err"
check "lp dump --slot=x: 64" run_rc 64 "$FV" lp dump --slot=x super.img
check "  one line" sh -c "test \$(wc -l <err) = 1"
check "lp dump without an image: 64" run_rc 64 "$FV" lp dump
check "lp dump -a -s 1: 64 (as lpdump)" run_rc 64 "$FV" lp dump -a -s 1 super.img
check "lp dump -a -j: 64 (as lpdump)" run_rc 64 "$FV" lp dump -a -j super.img
check "lp dump with an unknown option: 64" run_rc 64 "$FV" lp dump -b super.img
check "lp dump -j of a missing file: {} and 0 (lpdump's -j needs no metadata)" run_rc 0 "$FV" lp dump -j missing.img
check "  {} and a warning" sh -c "test \"\$(cat out)\" = '{}' && grep -q 'warning: failed to read metadata' err"
check "lp unpack of a missing file: 71" run_rc 71 "$FV" lp unpack missing.img o4
check "  one line" sh -c "test \$(wc -l <err) = 1 && grep -q 'missing.img: No such file' err"
check "lp unpack of no super image: 64" run_rc 64 "$FV" lp unpack plain.img o4
check "lp unpack -S 5: 64" run_rc 64 "$FV" lp unpack -S 5 super.img o4
check "lp unpack -S b: 64 (a number, as lpunpack)" run_rc 64 "$FV" lp unpack -S b super.img o4
check "lp unpack -p nosuch: 70, nothing written" run_rc 70 "$FV" lp unpack -p nosuch -p odm_a super.img o4
check "  one line naming it, no OUTDIR made" sh -c "test \$(wc -l <err) = 1 && grep -q 'could not find partition nosuch' err && test ! -e o4"
check "lp unpack without an image: 64" run_rc 64 "$FV" lp unpack
check "lp unpack >/dev/full: 1, the write error said without another call's errno" sh -c "! '$FV' lp unpack -p odm_a super.img full >/dev/full 2>err && grep -qx 'fastverity: write error on standard output' err"
check "lp unpack super.img '': 64 (nothing written at /)" run_rc 64 "$FV" lp unpack -p odm_a super.img ''
check "  one line" sh -c "test \$(wc -l <err) = 1 && grep -q 'an empty output directory' err && test ! -e /odm_a.img"
check "lp unpack -i: refused by name" run_rc 64 "$FV" lp unpack -i super_1.img split.img o4
check "-v lp dump: refused, lp named as a command group (not an unknown action)" sh -c "! '$FV_REAL' -v lp dump super.img >/dev/null 2>err && grep -qx 'fastverity: lp: its options go after its command, none before it (fastverity lp --help)' err && ! grep -q 'unknown action' err"
check "lp bogus: 64" run_rc 64 "$FV" lp bogus
check "lp alone: 64, the list" run_rc 64 "$FV" lp
check "  on stderr" grep -q "dump" err
check "lp --help: 0" run_rc 0 "$FV" lp --help
check "lp unpack --help" run_rc 0 "$FV" lp unpack --help
check "  its options" sh -c "grep -q -- '-p, --partition=NAME' out && grep -q -- '-S, --slot=NUM' out"
check "help lp" run_rc 0 "$FV" help lp
finish
