#!/bin/bash
# make bench: fastverity against veritysetup on a 1 GiB image (sha256,
# 4 KiB blocks, 32-byte salt, warm page cache), run alternately, medians
# of BENCH_RUNS (default 5) runs each; the generic path (sha512, format 0)
# with the same parameters; FEC on a 256 MiB image (format with parity,
# repair); SHA-256 kernel throughput; peak RSS on a 4 GiB image.
# Android images: fastverity avb against format and verify doing the
# same work, and a sha1 tree; a systemd disk image against its partitions
# as files and against losetup + veritysetup; Android sparse images
# against their raw form; super images against their partitions as
# files; update against a full format; fs-verity digests against
# fsverity-utils; ML-DSA vbmeta beside RSA; OTA packages' extract and
# verify. BENCH_ONLY=kernels, fec, android, mldsa, sparse, super, update,
# ddi, fsverity or ota runs
# those rows alone; BENCH_ONLY=limits the rows against the
# machine's limits (the SHA unit, the copy out of the page cache, the
# disk, 512-byte blocks);
# BENCH_TRACE=1 also prints each cold run's pair on stderr. Prints a
# Markdown table. Needs about 6 GiB in BENCH_DIR.
#
# Warm cache means: the image is dropped from the page cache and read
# back once, so it is cached as any image read from disk is (on Linux
# 6.x file systems with large folios, in pieces of up to 2 MiB). One
# more row shows the other case, an image cached in 4 KiB pages (as
# left by a program writing it 4 KiB at a time), which costs the kernel
# more per byte read.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
fv=$top/fastverity
runs=${BENCH_RUNS:-5}
dir=${BENCH_DIR:-/var/tmp/fastverity-bench}
mkdir -p "$dir"
img=$dir/1g.img
salt=$(printf 'a5%.0s' $(seq 32))
uuid=12345678-1234-4234-8234-123456789abc
threads=$(nproc)

[ "$(stat -c %s "$img" 2>/dev/null || echo 0)" = $((1 << 30)) ] ||
	"$top/build/mkimage" random 1 $((1 << 30)) >"$img"
small=$dir/1g-4k.img # the same bytes, cached in 4 KiB pages
dd if="$img" of="$small" bs=4K status=none
# drop the image from the page cache, then read it back as from disk
sync "$img"
dd if="$img" iflag=nocache count=0 status=none
cat "$img" >/dev/null

# seconds CMD...: the wall time of one run into t, in seconds, timed in
# this shell: timed inside a command substitution's subshell, each run
# took 3-4 ms more here (one changed block's update, 12.0 ms, read 15.8)
seconds() {
	local start=$EPOCHREALTIME end
	"$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; exit 1; }
	end=$EPOCHREALTIME
	t=$(echo "$end - $start" | bc -l)
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# compare LABEL TARGET "VERITYSETUP ARGS" "FASTVERITY ARGS"
compare() {
	local label=$1 target=$2 vargs=$3 fargs=$4 vs=() fs=() i v f ratio ok
	for i in $(seq "$runs"); do
		# shellcheck disable=SC2086
		seconds veritysetup $vargs; vs+=("$t")
		# shellcheck disable=SC2086
		seconds "$fv" $fargs; fs+=("$t")
	done
	v=$(printf '%s\n' "${vs[@]}" | median)
	f=$(printf '%s\n' "${fs[@]}" | median)
	ratio=$(echo "$v / $f" | bc -l)
	if [ "$target" = - ]; then
		printf '| %s | %.3f s | %.3f s | %.2fx | | |\n' "$label" "$v" "$f" "$ratio"
		return
	fi
	ok=$(echo "$ratio >= $target" | bc -l)
	printf '| %s | %.3f s | %.3f s | %.2fx | %sx | %s |\n' "$label" "$v" "$f" "$ratio" "$target" \
		"$([ "$ok" = 1 ] && echo met || echo NOT met)"
}

common="--salt=$salt --uuid=$uuid"

# FEC: a 256 MiB image, warm cache as above. veritysetup's encoder takes
# seconds to minutes here, so these rows take BENCH_FEC_RUNS (default 3).
fec_section() {
	local fimg=$dir/256m.img fruns=${BENCH_FEC_RUNS:-3} runs=$runs froot
	[ "$(stat -c %s "$fimg" 2>/dev/null || echo 0)" = $((256 << 20)) ] ||
		"$top/build/mkimage" random 5 $((256 << 20)) >"$fimg"
	sync "$fimg"
	dd if="$fimg" iflag=nocache count=0 status=none
	cat "$fimg" >/dev/null
	runs=$fruns
	echo "| FEC, 256 MiB image | veritysetup | fastverity | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	# roots 2, with the ceiling: fastverity's format without parity (the
	# tree alone, at the SHA-NI limit) in the same alternation. No
	# parity encoder can make format with FEC faster than that.
	local vs=() fs=() ts=() i v f t
	for i in $(seq "$fruns"); do
		# shellcheck disable=SC2086
		seconds veritysetup format $fimg $dir/fh.vs --fec-device=$dir/ff.vs --fec-roots=2 $common; vs+=("$t")
		# shellcheck disable=SC2086
		seconds "$fv" format $fimg $dir/fh.fv --fec-device=$dir/ff.fv --fec-roots=2 $common; fs+=("$t")
		# shellcheck disable=SC2086
		seconds "$fv" format $fimg $dir/fh.tree $common; ts+=("$t")
	done
	v=$(printf '%s\n' "${vs[@]}" | median)
	f=$(printf '%s\n' "${fs[@]}" | median)
	t=$(printf '%s\n' "${ts[@]}" | median)
	printf '| format + parity, --fec-roots=2 | %.3f s | %.3f s | %.2fx | 40x | %s |\n' "$v" "$f" \
		"$(echo "$v / $f" | bc -l)" "$([ "$(echo "$v / $f >= 40" | bc -l)" = 1 ] && echo met || echo NOT met)"
	printf '| ceiling: the same veritysetup run against fastverity format without parity (tree only) | %.3f s | %.3f s | %.2fx | | |\n' \
		"$v" "$t" "$(echo "$v / $t" | bc -l)"
	compare "format + parity, --fec-roots=24" 50 \
		"format $fimg $dir/fh.vs --fec-device=$dir/ff.vs --fec-roots=24 $common" \
		"format $fimg $dir/fh.fv --fec-device=$dir/ff.fv --fec-roots=24 $common --root-hash-file=$dir/froot"
	froot=$(cat "$dir/froot")
	# 1,000 scattered bad blocks (4 KiB of other bytes each): fastverity
	# repair against veritysetup verify --fec-device of the same image
	cp "$fimg" "$dir/bad.img"
	for b in $(seq 1000); do echo $(( (b * 2654435761) % 65536 )); done | sort -un | head -1000 >"$dir/badblocks"
	while read -r b; do
		"$top/build/mkimage" random $((b + 7)) 4096 | dd of="$dir/bad.img" bs=4096 seek="$b" conv=notrunc status=none
	done <"$dir/badblocks"
	local vs=() fs=() i v f
	for i in $(seq "$fruns"); do
		cp "$dir/bad.img" "$dir/work.img"
		seconds_rc veritysetup verify "$dir/work.img" "$dir/fh.fv" "$froot" --fec-device="$dir/ff.fv" --fec-roots=24; vs+=("$t")
		seconds "$fv" repair "$dir/work.img" "$dir/fh.fv" "$froot" --fec-device="$dir/ff.fv" --fec-roots=24; fs+=("$t")
	done
	cmp -s "$dir/work.img" "$fimg" || { echo "bench: repair did not restore the image" >&2; exit 1; }
	v=$(printf '%s\n' "${vs[@]}" | median)
	f=$(printf '%s\n' "${fs[@]}" | median)
	printf '| repair of %s bad blocks (veritysetup: verify --fec-device), --fec-roots=24 | %.3f s | %.3f s | %.2fx | faster | %s |\n' \
		"$(wc -l <"$dir/badblocks")" "$v" "$f" "$(echo "$v / $f" | bc -l)" \
		"$([ "$(echo "$f < $v" | bc -l)" = 1 ] && echo met || echo NOT met)"
	echo
}
# Android images (docs/android.md): avbtool's commands against the same
# work done by format and verify, alternately; avbtool itself is not
# packaged. The image keeps its footer between runs: each run cuts it off
# and makes it again, as avbtool does.
android_section() {
	local a=$dir/avb.img af=$dir/avbf.img
	local ns="--no-superblock --salt=$salt"
	local avb="--partition_name system --hash_algorithm sha256 --salt $salt"
	cp "$img" "$a"
	cp "$img" "$af"
	echo "| Android image, 1 GiB | fastverity (plain) | fastverity avb | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	# shellcheck disable=SC2086
	"$fv" avb add_hashtree_footer --image "$a" $avb --do_not_generate_fec
	# shellcheck disable=SC2086
	"$fv" avb add_hashtree_footer --image "$af" $avb --fec_num_roots 2
	# shellcheck disable=SC2086
	"$fv" format "$img" "$dir/ns.h" $ns --root-hash-file="$dir/ns.root" >/dev/null
	# shellcheck disable=SC2086
	"$fv" format "$img" "$dir/nsf.h" $ns --fec-device="$dir/nsf.f" --fec-roots=2 >/dev/null
	within() { # LABEL "PLAIN ARGS" "AVB ARGS": fastverity plain vs avb
		local label=$1 ps=() as=() i p q ratio
		for i in $(seq "$runs"); do
			# shellcheck disable=SC2086
			seconds "$fv" $2; ps+=("$t")
			# shellcheck disable=SC2086
			seconds "$fv" $3; as+=("$t")
		done
		p=$(printf '%s\n' "${ps[@]}" | median)
		q=$(printf '%s\n' "${as[@]}" | median)
		ratio=$(echo "$q / $p" | bc -l)
		printf '| %s | %.3f s | %.3f s | %.2fx | at most 1.15x | %s |\n' "$label" "$p" "$q" "$ratio" \
			"$([ "$(echo "$ratio <= 1.15" | bc -l)" = 1 ] && echo met || echo NOT met)"
	}
	within "add_hashtree_footer against format --no-superblock" \
		"format $img $dir/ns.h $ns" "avb add_hashtree_footer --image $a $avb --do_not_generate_fec"
	within "the same with parity, roots 2" \
		"format $img $dir/nsf.h $ns --fec-device=$dir/nsf.f --fec-roots=2" \
		"avb add_hashtree_footer --image $af $avb --fec_num_roots 2"
	within "verify_image against verify" \
		"verify $img $dir/ns.h $(cat "$dir/ns.root") $ns" "avb verify_image --image $a"
	within "verify_image with parity against verify --fec-device" \
		"verify $img $dir/nsf.h $(cat "$dir/ns.root") $ns --fec-device=$dir/nsf.f --fec-roots=2" \
		"avb verify_image --image $af"
	# older devices' sha1 trees: two at a time with SHA-NI where the CPU
	# has it (else the generic path) against veritysetup's (OpenSSL's
	# digest set up and finished per block)
	compare "sha1 tree (SHA-NI two-way where the CPU has it), format --hash=sha1" 1 \
		"format $img $dir/h1.vs $common --hash=sha1" "format $img $dir/h1.fv $common --hash=sha1"
	echo
}
# ML-DSA vbmeta (Android 17, docs/android.md) beside RSA: the CPU time
# of checking one vbmeta image (parsed, its signature checked) and of
# signing it, in one process (build/mldsa-tool avb: medians of 1000,
# RSA-4096's signing of 100); then avb verify_image of the 1 GiB image
# signed with ML-DSA-65 against the same signed with RSA-4096,
# alternately. Targets (issue 55): ML-DSA-65's verify at most 0.5 ms and
# signing 2 ms; verify_image within 2% of RSA's.
mldsa_section() {
	local m=$top/tests/avb/mldsa k=$top/tests/avb/keys tool=$top/build/mldsa-tool
	local a=$dir/ml.img r=$dir/rsa.img
	local avb="--partition_name system --hash_algorithm sha256 --salt $salt --do_not_generate_fec"
	local name v sg target ok
	"$fv" avb make_vbmeta_image --output "$dir/r2048.vbmeta" --algorithm SHA256_RSA2048 \
		--key "$k/rsa2048.pem" --prop com.example.mldsa_test:RSA
	"$fv" avb make_vbmeta_image --output "$dir/r4096.vbmeta" --algorithm SHA256_RSA4096 \
		--key "$k/rsa4096.pem" --prop com.example.mldsa_test:RSA
	echo "| vbmeta, one process (CPU time) | verify | sign | target | |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "avb $m/vbmeta_mldsa65.img $m/testkey_mldsa65.pem 1000" \
		"avb $m/vbmeta_mldsa87.img $m/testkey_mldsa87.pem 1000" \
		"avb $dir/r2048.vbmeta $k/rsa2048.pem 1000" "avb $dir/r4096.vbmeta $k/rsa4096.pem 100" |
		"$tool" | while read -r name _ v _ _ sg _; do
		name=${name%:} v=${v%%,*}
		if [ "$name" = MLDSA65 ]; then
			target="verify 500 us, sign 2000 us"
			ok=$([ "$(echo "$v <= 500 && $sg <= 2000" | bc -l)" = 1 ] && echo met || echo NOT met)
		else
			target="" ok=""
		fi
		echo "| $name | $v us | $sg us | $target | $ok |"
	done
	cp "$img" "$a"
	cp "$img" "$r"
	# shellcheck disable=SC2086
	"$fv" avb add_hashtree_footer --image "$a" $avb --algorithm MLDSA65 --key "$m/testkey_mldsa65.pem"
	# shellcheck disable=SC2086
	"$fv" avb add_hashtree_footer --image "$r" $avb --algorithm SHA256_RSA4096 --key "$k/rsa4096.pem"
	local ms=() rs=() i p q ratio
	for i in $(seq "$runs"); do
		seconds "$fv" avb verify_image --image "$r"; rs+=("$t")
		seconds "$fv" avb verify_image --image "$a"; ms+=("$t")
	done
	p=$(printf '%s\n' "${rs[@]}" | median)
	q=$(printf '%s\n' "${ms[@]}" | median)
	ratio=$(echo "$q / $p" | bc -l)
	echo
	echo "| Android image, 1 GiB | SHA256_RSA4096 | MLDSA65 | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	printf '| avb verify_image | %.3f s | %.3f s | %.3fx | at most 1.02x | %s |\n' "$p" "$q" "$ratio" \
		"$([ "$(echo "$ratio <= 1.02" | bc -l)" = 1 ] && echo met || echo NOT met)"
	echo
}
# Android sparse images (docs/android.md): add_hashtree_footer and verify
# of a 1 GiB image of 70% data and 30% zeros as img2simg writes it (RAW
# and FILL chunks) against the same on its raw form, alternately; then
# peak RSS on a 4 GiB sparse image of 100,000 chunks.
sparse_section() {
	local raw=$dir/sp.raw sp=$dir/sp.img big=$dir/sp4g.img i
	local avb="--partition_name system --hash_algorithm sha256 --salt $salt"
	if [ ! -s "$sp" ]; then
		: >"$raw"
		# 7 MiB of data then 3 MiB of zeros, over and over
		for i in $(seq 0 101); do
			dd if="$img" bs=1M skip=$((i * 7 % 1000)) count=7 status=none >>"$raw"
			head -c $((3 << 20)) /dev/zero >>"$raw"
		done
		truncate -s $((1 << 30)) "$raw"
		img2simg "$raw" "$sp"
		cp --sparse=never "$raw" "$dir/sp.raw.orig"
	fi
	# real zero blocks, as an image builder writes them (no holes)
	cp --sparse=never "$dir/sp.raw.orig" "$raw"
	echo "| Android sparse image, 1 GiB (70% data, 30% zero FILL) | raw form | sparse | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	sparse_vs() { # LABEL TARGET "RAW ARGS" "SPARSE ARGS"
		local label=$1 target=$2 rs=() ss=() r q ratio
		for i in $(seq "$runs"); do
			# shellcheck disable=SC2086
			seconds "$fv" $3; rs+=("$t")
			# shellcheck disable=SC2086
			seconds "$fv" $4; ss+=("$t")
		done
		r=$(printf '%s
' "${rs[@]}" | median)
		q=$(printf '%s
' "${ss[@]}" | median)
		ratio=$(echo "$q / $r" | bc -l)
		printf '| %s | %.3f s | %.3f s | %.2fx | at most %sx | %s |\n' "$label" "$r" "$q" "$ratio" "$target" \
			"$([ "$(echo "$ratio <= $target" | bc -l)" = 1 ] && echo met || echo NOT met)"
	}
	# shellcheck disable=SC2086
	sparse_vs "add_hashtree_footer (parity, roots 2)" 1.3 \
		"avb add_hashtree_footer --image $raw $avb" "avb add_hashtree_footer --image $sp $avb"
	sparse_vs "verify IMAGE" 1.1 "verify $raw" "verify $sp"
	sparse_vs "avb verify_image" 1.1 "avb verify_image --image $raw" "avb verify_image --image $sp"
	if [ ! -s "$big" ]; then
		# 50,000 RAW chunks of 10 blocks and 50,000 FILL chunks of 11
		python3 - "$big" <<'PY'
import os, struct, sys
raw, fill, n = 10, 11, 50000
data = os.urandom(raw * 4096)
with open(sys.argv[1], 'wb') as f:
    f.write(struct.pack('<IHHHHIIII', 0xed26ff3a, 1, 0, 28, 12, 4096, n * (raw + fill), 2 * n, 0))
    for i in range(n):
        f.write(struct.pack('<HHII', 0xcac1, 0, raw, 12 + raw * 4096))
        f.write(struct.pack('<I', i) + data[4:])
        f.write(struct.pack('<HHIII', 0xcac2, 0, fill, 16, i * 2654435761 & 0xffffffff))
PY
	fi
	rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
	local ar vr
	ar=$(rss "$fv" avb add_hashtree_footer --image "$big" $avb)
	vr=$(rss "$fv" verify "$big")
	echo
	echo "| 4 GiB sparse image, 100,000 chunks | peak RSS | target |"
	echo "|---|---|---|"
	echo "| avb add_hashtree_footer | $((ar / 1024)) MiB | 64 MiB |"
	echo "| verify IMAGE | $((vr / 1024)) MiB | 64 MiB |"
	echo
}
# Android super images (docs/android.md, "Factory images and super.img"):
# verify of super.img (three logical partitions of 1 GiB in all, each an
# Android image with its tree and parity) and of the firmware set its
# vbmeta.img describes, against verify of the same partitions as files,
# alternately.
super_section() {
	local s=$dir/super i p name mib skip=0 total=0 spec
	mkdir -p "$s/set"
	if [ ! -s "$s/set/super.img" ]; then
		spec='{"device_size": 1207959552, "partitions": ['
		for p in system:600 vendor:300 product:124; do
			name=${p%%:*} mib=${p##*:}
			dd if="$img" of="$s/$name.img" bs=1M skip=$skip count="$mib" status=none
			skip=$((skip + mib))
			"$fv" avb add_hashtree_footer --image "$s/$name.img" --partition_name "$name" \
				--hash_algorithm sha256 --salt "$salt" >/dev/null
			spec="$spec$([ $total = 0 ] || echo ,){\"name\": \"${name}_a\", \"image\": \"$s/$name.img\"}"
			total=$((total + 1))
		done
		echo "$spec]}" >"$s/super.json"
		python3 "$top/tests/cli/mksuper.py" "$s/super.json" "$s/set/super.img"
		"$fv" avb make_vbmeta_image --output "$s/set/vbmeta.img" --include_descriptors_from_image "$s/system.img" \
			--include_descriptors_from_image "$s/vendor.img" --include_descriptors_from_image "$s/product.img"
	fi
	cat "$s"/*.img "$s/set/super.img" >/dev/null
	as_files() { "$fv" verify "$s/system.img" && "$fv" verify "$s/vendor.img" && "$fv" verify "$s/product.img"; }
	echo "| Android super image, 3 partitions, 1 GiB | as files | through super.img | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	super_vs() { # LABEL TARGET ARGS...
		local label=$1 target=$2 fs=() ss=() f q ratio
		shift 2
		for i in $(seq "$runs"); do
			seconds as_files; fs+=("$t")
			seconds "$fv" "$@"; ss+=("$t")
		done
		f=$(printf '%s\n' "${fs[@]}" | median)
		q=$(printf '%s\n' "${ss[@]}" | median)
		ratio=$(echo "$q / $f" | bc -l)
		printf '| %s | %.3f s | %.3f s | %.2fx | at most %sx | %s |\n' "$label" "$f" "$q" "$ratio" "$target" \
			"$([ "$(echo "$ratio <= $target" | bc -l)" = 1 ] && echo met || echo NOT met)"
	}
	super_vs "verify super.img" 1.1 verify "$s/set/super.img"
	super_vs "verify vbmeta.img (the firmware set)" 1.1 verify "$s/set/vbmeta.img"
	echo
}
# update (docs/format.md, "update"): 1, 100 and 10,000 changed blocks,
# scattered, in 1 GiB and 4 GiB images, with parity (roots 2) and
# without, given as --changed and found by hashing, against a full format
# (with the same parity) of the same image; the old tree and parity put
# back and synced before each run (not timed).
update_section() {
	local size f u n r i ts fs full one prev mode starts=() start one_fec=
	# the process start, against which one block's update is judged:
	# timed beside each run of that update (alternating, the same
	# moment's machine), not apart from it
	# the flush each of update's three ordered steps waits for (the
	# marker, the blocks, the superblock back): one 4 KiB block written
	# in place and flushed (fsync), synced first as the update runs are,
	# timed inside one process (a process's start varies more here than
	# a flush takes)
	local fl=$dir/flush.tst flush
	head -c $((1 << 20)) /dev/zero >"$fl"
	flush=$(python3 - "$fl" $((runs > 9 ? runs : 9)) <<'PY'
import os, statistics, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
ts = []
for _ in range(int(sys.argv[2])):
    os.sync()
    os.pwrite(fd, os.urandom(4096), 7 * 4096)
    t = time.perf_counter()
    os.fsync(fd)
    ts.append(time.perf_counter() - t)
print(statistics.median(ts))
PY
)
	rm -f "$fl"
	# and the proof of the old tree (1/128 of the data) at the SHA
	# unit's rate on every thread (its fastest round, as in the limits)
	local rate proof=0
	rate=$("$fv" bench --json --salt-size=32 --time=1 | jq '[.implementations[] | select(.name | test("^SHA-256 .*(-way|-lane)")) | .mb_per_s_max // .mb_per_s // 0] | max')
	echo "| update (sha256, 4 KiB blocks) | changed blocks | parity | update | full format | ratio | target |"
	echo "|---|---|---|---|---|---|---|"
	for size in 1 4; do
		f=$dir/${size}g.img u=$dir/upd${size}.img
		[ "$(stat -c %s "$f" 2>/dev/null || echo 0)" = $((size << 30)) ] ||
			"$top/build/mkimage" random "$size" $((size << 30)) >"$f"
		cp "$f" "$u"
		"$fv" format "$u" "$u.h0" --salt="$salt" --uuid=$uuid --fec-device="$u.f0" --fec-roots=2 --root-hash-file="$u.r" >/dev/null
		"$fv" format "$u" "$u.n0" --salt="$salt" --uuid=$uuid >/dev/null
		r=$(cat "$u.r")
		[ "$size" = 1 ] && proof=$(echo "$(stat -c %s "$u.n0") / 1000000 / ($threads * $rate)" | bc -l)
		# 10,000 blocks spread over the image: their ranges; at each
		# count the data differs from the formatted image in exactly
		# the first count of them
		python3 - "$u" 10000 >"$u.ranges" <<'PY'
import os, sys
blocks = os.path.getsize(sys.argv[1]) // 4096
n = int(sys.argv[2])
print(','.join('%d:4096' % ((i * (blocks // n) + 7) * 4096) for i in range(n)))
PY
		cat "$u" >/dev/null
		fs=()
		for i in $(seq "$runs"); do
			seconds "$fv" format "$u" "$u.hf" --salt="$salt" --uuid=$uuid --fec-device="$u.ff" --fec-roots=2; fs+=("$t")
		done
		full=$(printf '%s\n' "${fs[@]}" | median)
		prev=0
		for n in 1 100 10000; do
			python3 - "$u" "$u.ranges" "$prev" "$n" <<'PY'
import os, sys
ranges = open(sys.argv[2]).read().strip().split(',')
with open(sys.argv[1], 'r+b') as f:
    for r in ranges[int(sys.argv[3]):int(sys.argv[4])]:
        f.seek(int(r.split(':')[0]))
        f.write(os.urandom(4096))
PY
			prev=$n
			for mode in 2 0 auto; do
				ts=()
				for i in $(seq "$runs"); do
					if [ $mode = 0 ]; then
						cp "$u.n0" "$u.h"
						set --
					else
						cp "$u.h0" "$u.h" && cp "$u.f0" "$u.f"
						set -- --fec-device="$u.f"
					fi
					[ $mode = auto ] || { cut -d, -f1-"$n" "$u.ranges" >"$u.changed"; set -- "$@" --changed=@"$u.changed"; }
					# (the copies on disk first: update's flushes
					# are its own writes, not the copy's)
					sync
					seconds "$fv" update "$u" "$u.h" "$r" "$@"; ts+=("$t")
					if [ "$n" = 1 ] && [ $mode = 2 ] && [ "$size" = 1 ]; then
						seconds "$fv" --version; starts+=("$t")
					fi
				done
				one=$(printf '%s\n' "${ts[@]}" | median)
				if [ "$n" = 1 ] && [ $mode = 2 ] && [ "$size" = 1 ]; then
					one_fec=$one
					start=$(printf '%s\n' "${starts[@]}" | median)
				fi
				printf '| %s GiB | %s | %s | %.4f s | %.3f s | %.1fx | %s |\n' "$size" \
					"$n$([ $mode = auto ] && echo ", found by hashing")" \
					"$([ $mode = 0 ] && echo none || echo "roots 2")" "$one" "$full" \
					"$(echo "$full / $one" | bc -l)" \
					"$([ "$n" = 1 ] && [ $mode = 2 ] && [ "$size" = 1 ] && echo ">= 10x")$([ $mode = auto ] && echo "faster than format")"
			done
		done
		rm -f "$u" "$u".*
	done
	echo
	echo "| one changed block of 1 GiB, parity roots 2 | update | process start (fastverity --version) | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	printf '| update --changed | %.4f s | %.4f s | %.2fx | at most 3x | %s |\n' "$one_fec" "$start" \
		"$(echo "$one_fec / $start" | bc -l)" "$([ "$(echo "$one_fec / $start <= 3" | bc -l)" = 1 ] && echo met || echo NOT met)"
	# what no update can go below here: the process start, three
	# flushes one after the other and the proof of the old tree (the
	# changed block's parity round, 253 scattered reads, comes on top)
	local floor
	floor=$(echo "$start + 3 * $flush + $proof" | bc -l)
	printf '| floor: the process start, three flushes (%.4f s each in this run: 4 KiB written in place, then fsync) and the old tree hashed at the SHA unit'"'"'s rate (%.4f s) | %.4f s | %.4f s | %.2fx | at most 3x | %s |\n' \
		"$flush" "$proof" "$floor" "$start" "$(echo "$floor / $start" | bc -l)" \
		"$([ "$(echo "$floor / $start <= 3" | bc -l)" = 1 ] && echo "within this machine's floor" || echo "beyond this machine in this run: its disk's flushes and the proof alone take longer")"
	echo
	# Android: add_hashtree_footer again after one block of the data
	# changed (the old footer of the same tree: only what changed) against
	# a first add_hashtree_footer of the same data
	local a=$dir/updavb.img avb="--partition_name system --hash_algorithm sha256 --salt $salt --fec_num_roots 2"
	local is=() as=() cs=() found
	head -c $((1000 << 20)) "$img" >"$a.raw"
	for i in $(seq "$runs"); do
		cp "$a.raw" "$a"
		# shellcheck disable=SC2086
		seconds "$fv" avb add_hashtree_footer --image "$a" $avb; as+=("$t")
		dd if=/dev/urandom of="$a" bs=4096 count=1 seek=12345 conv=notrunc status=none
		# shellcheck disable=SC2086
		seconds "$fv" avb add_hashtree_footer --image "$a" $avb; is+=("$t")
		dd if=/dev/urandom of="$a" bs=4096 count=1 seek=23456 conv=notrunc status=none
		# shellcheck disable=SC2086
		seconds "$fv" avb add_hashtree_footer --image "$a" $avb --changed=$((23456 * 4096)):4096; cs+=("$t")
	done
	full=$(printf '%s\n' "${as[@]}" | median)
	found=$(printf '%s\n' "${is[@]}" | median)
	one=$(printf '%s\n' "${cs[@]}" | median)
	echo "| Android image, 1000 MiB, parity roots 2 | first add_hashtree_footer | again, 1 changed block found | ratio | again, --changed | ratio |"
	echo "|---|---|---|---|---|---|"
	printf '| avb add_hashtree_footer | %.3f s | %.3f s | %.1fx | %.4f s | %.1fx |\n' "$full" "$found" \
		"$(echo "$full / $found" | bc -l)" "$one" "$(echo "$full / $one" | bc -l)"
	rm -f "$a" "$a.raw"
	echo
}
# How close to the machine's limits (the speed issue): cached format and
# verify against the SHA unit (the data over threads x the best kernel's
# one-core rate, measured in this run), cold ones (page cache dropped:
# root only) against a plain sequential read of the same file, and
# 512-byte blocks against 4 KiB ones.
limits_section() {
	local rate kjson=$dir/kernels-now.json i vs fs cs v f c lim share
	"$fv" bench --json --salt-size=32 --time=3 >"$kjson"
	# each kernel's fastest round: a neighbour's work only ever slows a
	# round, so the fastest is the unit's rate (the median of the rounds
	# read it as 1849 MB/s in a busy hour here, 2802 in a quiet one)
	rate=$(jq '[.implementations[] | select(.name | test("^SHA-256 .*(-way|-lane)")) | .mb_per_s_max // .mb_per_s // 0] | max' "$kjson")
	lim=$(echo "$(stat -c %s "$img") / 1000000 / ($threads * $rate)" | bc -l)
	echo "| run (1 GiB, sha256, 4 KiB blocks) | veritysetup | fastverity | limit | share of the limit | target | |"
	echo "|---|---|---|---|---|---|---|"
	row() { # LABEL VS FV LIMIT TARGET [SHARE]
		share=${6:-$(echo "$4 / $3" | bc -l)}
		printf '| %s | %.3f s | %.3f s | %.3f s | %.3f | %s | %s |\n' "$1" "$2" "$3" "$4" "$share" "$5" \
			"$([ "$(echo "$share >= $5" | bc -l)" = 1 ] && echo met || echo NOT met)"
	}
	# the other floor of a cached run: copying the data out of the page
	# cache, which read() does and no interface that serves every source
	# avoids (docs/performance.md, on mapping): a plain read of the
	# cached image in format's reads (192 KiB), one reader a thread, each
	# its share, timed beside each run
	local cps=() copy floor fmed vmed
	copy_read() {
		local n=$(((1 << 30) / (192 << 10) / threads + 1)) k
		for k in $(seq 0 $((threads - 1))); do
			dd if="$img" of=/dev/null bs=192K skip=$((k * n)) count=$n status=none &
		done
		wait
	}
	for what in format verify; do
		vs=() fs=()
		for i in $(seq "$runs"); do
			if [ $what = format ]; then
				seconds veritysetup format "$img" "$dir/h.vs" $common; vs+=("$t")
				seconds "$fv" format "$img" "$dir/h.fv" $common; fs+=("$t")
			else
				seconds veritysetup verify "$img" "$dir/h.fv" "$root"; vs+=("$t")
				seconds "$fv" verify "$img" "$dir/h.fv" "$root"; fs+=("$t")
			fi
			seconds copy_read; cps+=("$t")
		done
		f=$(printf '%s\n' "${fs[@]}" | median)
		[ $what = format ] && fmed=$f || vmed=$f
		row "$what, cached; limit: the SHA unit ($threads x $(printf %.0f "$rate") MB/s)" \
			"$(printf '%s\n' "${vs[@]}" | median)" "$f" "$lim" 0.80
	done
	# a floor: the quickest (a neighbour only ever adds time)
	copy=$(printf '%s\n' "${cps[@]}" | sort -g | head -1)
	floor=$(echo "$lim + $copy" | bc -l)
	# the floor both set, if the copy and the hashing cannot overlap
	# (each thread reads a chunk, then hashes it)
	printf '| floor of a cached run: the SHA unit %.3f s + the copy out of the page cache %.3f s (dd of the cached image, 192 KiB reads, %s at once; quickest of %s) | | format %.3f s, verify %.3f s | %.3f s | format %.3f, verify %.3f of the floor | | |\n' \
		"$lim" "$copy" "$threads" "${#cps[@]}" "$fmed" "$vmed" "$floor" \
		"$(echo "$floor / $fmed" | bc -l)" "$(echo "$floor / $vmed" | bc -l)"
	# the 0.13 s a 1 GiB format and verify should take on 2 Zen 5 cores:
	# beyond a machine whose SHA unit alone needs longer
	printf '| 1 GiB in 0.13 s (2 Zen 5 cores) | | | %.3f s | | 0.130 s | %s |\n' "$lim" \
		"$([ "$(echo "$lim > 0.13" | bc -l)" = 1 ] &&
			printf 'beyond this machine: its SHA unit alone needs %.3f s, %.3f s with the copy' "$lim" "$floor" ||
			echo "within this machine's limit")"
	if [ -w /proc/sys/vm/drop_caches ]; then
		cold() { sync; echo 3 >/proc/sys/vm/drop_caches; }
		# the virtual disk's speed swings by 2-4x from one minute to the
		# next, and in some minutes one run in three (cat's or ours)
		# takes twice as long: a swing only ever adds time, so the
		# figures judged are the quickest run of each (the disk's rate,
		# and ours, when nothing else is in the way), over at least 9
		# runs; the median of each run's own share (cat, then ours, a
		# second apart) is printed beside them
		local shares cold_runs=$((runs > 9 ? runs : 9))
		quickest() { sort -g | head -1; }
		for what in format verify; do
			vs=() fs=() cs=() shares=()
			for i in $(seq "$cold_runs"); do
				cold; seconds cat "$img"; c=$t
				cold
				if [ $what = format ]; then
					seconds "$fv" format "$img" "$dir/h.fv" $common; f=$t
					cold; seconds veritysetup format "$img" "$dir/h.vs" $common; vs+=("$t")
				else
					seconds "$fv" verify "$img" "$dir/h.fv" "$root"; f=$t
					cold; seconds veritysetup verify "$img" "$dir/h.fv" "$root"; vs+=("$t")
				fi
				cs+=("$c") fs+=("$f") shares+=("$(echo "$c / $f" | bc -l)")
				[ -n "${BENCH_TRACE:-}" ] && echo "$what cold run $i: cat $c fastverity $f" >&2
			done
			row "$what, cold; limit: reading the file (cat, cache dropped); quickest of $cold_runs runs each (median of each run's own share: $(printf %.3f "$(printf '%s\n' "${shares[@]}" | median)"))" \
				"$(printf '%s\n' "${vs[@]}" | quickest)" "$(printf '%s\n' "${fs[@]}" | quickest)" \
				"$(printf '%s\n' "${cs[@]}" | quickest)" 0.87
		done
		cat "$img" >/dev/null
	else
		echo "| cold rows | (need root to drop the page cache) | | | | | |"
	fi
	# 512-byte blocks (systemd-repart's) against 4 KiB: data per second
	local s4=() s5=() fimg=$dir/256m.img t4 t5
	[ "$(stat -c %s "$fimg" 2>/dev/null || echo 0)" = $((256 << 20)) ] ||
		"$top/build/mkimage" random 5 $((256 << 20)) >"$fimg"
	cat "$fimg" >/dev/null
	# the trees of the previous run removed first, untimed: the row
	# measures blocks, and where the file system is mounted with
	# discard (this machine's root) the rename that replaces a 17 MiB
	# tree waits for the disk to discard the old one (5 ms against
	# 1 ms, strace); short runs, so at least 15 of them
	for i in $(seq $((runs > 15 ? runs : 15))); do
		rm -f "$dir/b4.h" "$dir/b5.h"
		seconds "$fv" format "$fimg" "$dir/b4.h" $common; s4+=("$t")
		seconds "$fv" format "$fimg" "$dir/b5.h" $common --data-block-size=512 --hash-block-size=512; s5+=("$t")
	done
	t4=$(printf '%s\n' "${s4[@]}" | median)
	t5=$(printf '%s\n' "${s5[@]}" | median)
	printf '| 512-byte blocks against 4 KiB, 256 MiB, cached | 4 KiB: %.4f s | 512: %.4f s | | %.3f of the 4 KiB throughput | 0.80 | %s |\n' \
		"$t4" "$t5" "$(echo "$t4 / $t5" | bc -l)" "$([ "$(echo "$t4 / $t5 >= 0.8" | bc -l)" = 1 ] && echo met || echo NOT met)"
	echo
}
# Kernels, data in cache, from fastverity bench.
kernels_section() {
	local threads mhz port one two three avx fast
	"$fv" bench --json --salt-size=32 >"$dir/kernels.json"
	rate() { jq -r --arg n "$1" --arg f "${2:-mb_per_s}" '.implementations[] | select(.name == $n) | .[$f] // empty | floor' "$dir/kernels.json"; }
	threads=$(jq -r '.machine.threads' "$dir/kernels.json")
	# cycles a byte at the clock fastverity bench measured (a chain of
	# dependent adds: this virtual machine has no cycle counter, and
	# /proc/cpuinfo's "cpu MHz" is the nominal clock)
	mhz=$(jq -r '.machine.clock_mhz // empty' "$dir/kernels.json")
	cpb() { [ -n "$mhz" ] && [ -n "$1" ] && printf '%.2f' "$(echo "$mhz / $1" | bc -l)"; }
	echo "| SHA-256 kernel, 4 KiB blocks, 32-byte salt | MB/s, one core | MB/s, $threads threads at once | cycles a byte${mhz:+ at ${mhz%.*} MHz (measured)} | |"
	echo "|---|---|---|---|---|"
	kernel_row() { # label, bench's row name, what to say
		local one all
		one=$(rate "$2")
		[ -n "$one" ] || return 0
		all=$(rate "$2" all_threads_mb_per_s)
		echo "| $1 | $one | ${all:--} | $(cpb "$one") | $3 |"
	}
	port=$(rate "SHA-256 portable C")
	one=$(rate "SHA-256 SHA-NI one-way")
	two=$(rate "SHA-256 SHA-NI two-way")
	three=$(rate "SHA-256 SHA-NI three-way")
	avx=$(rate "SHA-256 AVX-512 16-lane")
	fast=$("$fv" --version | sed -n 's/^SHA-256 on this CPU: //p')
	here() { case "$fast" in *"$1"*) echo "; the fast path here" ;; esac; }
	kernel_row "portable C" "SHA-256 portable C" ""
	if [ -n "$one" ]; then
		kernel_row "SHA-NI one-way" "SHA-256 SHA-NI one-way" ""
		kernel_row "SHA-NI two-way" "SHA-256 SHA-NI two-way" "$(echo "$two / $one" | bc -l | xargs printf '%.2f')x one-way; target 1.7x$(here two-way)"
		kernel_row "SHA-NI three-way" "SHA-256 SHA-NI three-way" "$(echo "$three / $one" | bc -l | xargs printf '%.2f')x one-way$(here three-way)"
	fi
	if [ -n "$avx" ] && [ -n "$three" ]; then
		kernel_row "AVX-512 16-lane" "SHA-256 AVX-512 16-lane" "$(echo "$avx / $three" | bc -l | xargs printf '%.2f')x SHA-NI three-way; target 1.5x$(here 16-lane)"
	fi
	echo
}

if [ "${BENCH_ONLY:-}" = kernels ]; then
	kernels_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = limits ]; then
	"$fv" format "$img" "$dir/h.fv" $common --root-hash-file="$dir/root" >/dev/null
	root=$(cat "$dir/root")
	limits_section
	exit 0
fi

# systemd disk images (docs/ddi.md): verify of a DDI built by
# systemd-repart around the 1 GiB image (512-byte blocks, as repart makes
# them) against verify of the same partitions as a plain pair of files,
# and against the recipe without fastverity: losetup with offsets and
# veritysetup verify (root and loop devices needed; skipped without).
ddi_section() {
	local d=$dir/ddi.d raw=$dir/ddi.raw i p=() q=() l=() pv qv lv
	command -v systemd-repart >/dev/null || { echo "(no systemd-repart: no DDI rows)"; return; }
	mkdir -p "$d"
	printf '[Partition]\nType=root\nCopyBlocks=%s\nVerity=data\nVerityMatchKey=root\n' "$img" >"$d/10-root.conf"
	# repart 252 does not size the hash partition to the tree
	printf '[Partition]\nType=root-verity\nVerity=hash\nVerityMatchKey=root\nSizeMinBytes=96M\n' >"$d/20-verity.conf"
	rm -f "$raw"
	systemd-repart --empty=create --size=auto --definitions="$d" --dry-run=no \
		--json=short "$raw" >"$dir/ddi.json" 2>/dev/null || { echo "bench: systemd-repart failed" >&2; exit 1; }
	local root off size hoff hsize
	root=$(jq -r '.[] | select(.roothash != null) | .roothash' "$dir/ddi.json")
	off=$(jq -r '.[0].offset' "$dir/ddi.json"); size=$(jq -r '.[0].raw_size' "$dir/ddi.json")
	hoff=$(jq -r '.[1].offset' "$dir/ddi.json"); hsize=$(jq -r '.[1].raw_size' "$dir/ddi.json")
	dd if="$raw" of="$dir/ddi.data" bs=1M iflag=skip_bytes,count_bytes skip="$off" count="$size" status=none
	dd if="$raw" of="$dir/ddi.hash" bs=1M iflag=skip_bytes,count_bytes skip="$hoff" count="$hsize" status=none
	cat "$raw" "$dir/ddi.data" "$dir/ddi.hash" >/dev/null
	recipe() {
		local a b
		a=$(losetup -r -f --show -o "$off" --sizelimit "$size" "$raw") || return 1
		b=$(losetup -r -f --show -o "$hoff" --sizelimit "$hsize" "$raw") || { losetup -d "$a"; return 1; }
		veritysetup verify "$a" "$b" "$root"
		local rc=$?
		losetup -d "$a" "$b"
		return $rc
	}
	for i in $(seq "$runs"); do
		seconds "$fv" verify "$dir/ddi.data" "$dir/ddi.hash" "$root"; p+=("$t")
		seconds "$fv" verify "$raw"; q+=("$t")
		if recipe >/dev/null 2>&1; then seconds recipe; l+=("$t"); fi
	done
	pv=$(printf '%s\n' "${p[@]}" | median)
	qv=$(printf '%s\n' "${q[@]}" | median)
	echo "| disk image, 1 GiB root, 512-byte blocks | plain pair | disk image | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	printf '| fastverity verify IMAGE against verify of the partitions as files | %.3f s | %.3f s | %.2fx | at most 1.1x | %s |\n' \
		"$pv" "$qv" "$(echo "$qv / $pv" | bc -l)" "$([ "$(echo "$qv / $pv <= 1.1" | bc -l)" = 1 ] && echo met || echo NOT met)"
	if [ "${#l[@]}" -gt 0 ]; then
		lv=$(printf '%s\n' "${l[@]}" | median)
		printf '| the recipe (losetup with offsets, veritysetup verify) against fastverity verify IMAGE | %.3f s | %.3f s | %.2fx | | |\n' \
			"$lv" "$qv" "$(echo "$lv / $qv" | bc -l)"
	fi
	echo
}
# fs-verity (docs/fsverity.md): fastverity fsverity digest against
# fsverity-utils' fsverity digest (Debian's fsverity 1.5), alternately:
# the 1 GiB image cached, SHA-256 and SHA-512, and 2,000 files of 4 to 80
# KiB in one call, cached.
fsverity_section() {
	command -v fsverity >/dev/null || {
		echo "bench: fsverity (fsverity-utils) is not installed: make deps installs it" >&2
		return 0
	}
	local many=$dir/fsv-files
	if [ "$(ls "$many" 2>/dev/null | wc -l)" != 2000 ]; then
		rm -rf "$many" && mkdir -p "$many"
		python3 -c "
import random
r = random.Random(2000)
for i in range(2000):
    open('$many/f%04d' % i, 'wb').write(r.randbytes(r.randint(4096, 81920)))
"
	fi
	cat "$many"/* >/dev/null
	echo "| fs-verity digest | fsverity-utils 1.5 | fastverity | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	fsv() { # LABEL TARGET "OURS" ARGS...: fsverity digest ARGS against
		# ours with OURS (fastverity's own options) besides
		local label=$1 target=$2 ours=$3 us=() fs=() i u f ratio
		shift 3
		# shellcheck disable=SC2086
		[ "$(fsverity digest "$@")" = "$("$fv" fsverity digest "$@" $ours)" ] ||
			{ echo "bench: fs-verity digests differ: $*" >&2; exit 1; }
		for i in $(seq "$runs"); do
			seconds fsverity digest "$@"; us+=("$t")
			# shellcheck disable=SC2086
			seconds "$fv" fsverity digest "$@" $ours; fs+=("$t")
		done
		u=$(printf '%s\n' "${us[@]}" | median)
		f=$(printf '%s\n' "${fs[@]}" | median)
		ratio=$(echo "$u / $f" | bc -l)
		fsv_last=$f fsv_theirs=$u
		printf '| %s | %.3f s | %.3f s | %.2fx | %sx | %s |\n' "$label" "$u" "$f" "$ratio" "$target" \
			"$([ "$(echo "$ratio >= $target" | bc -l)" = 1 ] && echo met || echo NOT met)"
	}
	fsv "1 GiB, sha256, $threads threads" 9 "" "$img"
	local one_g=$fsv_last utils=$fsv_theirs rate lim best
	# the SHA unit's limit: 1 GiB over every thread at the fastest
	# kernel's rate (bench's own measurement, in this run: its fastest
	# round, as in the limits' rows)
	rate=$("$fv" bench --json --salt-size=32 --time=3 | jq '[.implementations[] | select(.name | test("^SHA-256 .*(-way|-lane)")) | .mb_per_s_max // .mb_per_s // 0] | max')
	lim=$(echo "$(stat -c %s "$img") / 1000000 / ($threads * $rate)" | bc -l)
	printf '| 1 GiB, sha256, against the SHA unit (%s x %.0f MB/s): %.3f s | | %.3f s | %.2f of the limit | 0.130 s | %s |\n' \
		"$threads" "$rate" "$lim" "$one_g" "$(echo "$lim / $one_g" | bc -l)" \
		"$([ "$(echo "$one_g <= 0.13" | bc -l)" = 1 ] && echo met || echo "NOT met$([ "$(echo "$lim > 0.13" | bc -l)" = 1 ] && echo ": the limit itself is over 0.13 s here")")"
	# the most the 9x can be here: fsverity-utils' time over a digest
	# that did nothing but hash at the SHA unit's rate
	best=$(echo "$utils / $lim" | bc -l)
	printf '| 1 GiB, sha256: the best ratio this machine allows, fsverity-utils %.3f s over the SHA unit %.3f s | | | %.2fx | 9x | %s |\n' \
		"$utils" "$lim" "$best" \
		"$([ "$(echo "$best < 9" | bc -l)" = 1 ] && echo "beyond this machine: $(printf %.2f "$(echo "$lim / $one_g" | bc -l)") of that bound reached" || echo "within this machine's bound")"
	fsv "1 GiB, sha256, one thread (--threads=1, fastverity's)" 1 --threads=1 "$img"
	fsv "2,000 files of 4-80 KiB, sha256" 2 "" "$many"/*
	fsv "1 GiB, sha512 (the generic path)" 1 "" "$img" --hash-alg=sha512
	fsv "1 GiB, sha256, a 32-byte salt" 3 "" "$img" --salt="$salt"
	echo
}
# OTA packages: a full OTA of a 1 GiB system (REPLACE_XZ, 2 MiB
# operations; each 4 KiB block a quarter random, the rest zeros: about
# 4:1), made once by
# tests/ota/make_test_ota.py (xz preset 0, to be quick): extract on every
# CPU against one CPU (taskset), verify against extract (the hashing
# overlaps the writing: no second read), and the peak RSS of each, whose
# bound is 64 MiB beside the largest operation's data.
ota_section() {
	local o=$dir/ota1g x=$dir/ota-out e2=() e1=() vs=() i e2m e1m vm er vr
	if [ ! -s "$o/ota.zip" ]; then
		rm -rf "$o" && mkdir -p "$o"
		python3 -c "
import random
r = random.Random(1)
with open('$o/system.raw', 'wb') as f:
    for _ in range(262144):
        f.write(r.randbytes(1024) + bytes(3072))
"
		/usr/bin/python3 "$top/tests/ota/make_test_ota.py" "$o" \
			"$top/tests/ota/keys/payload-test-key.pem" "$top/tests/ota/keys/test-ota-cert.pem" \
			--ops xz --xz-preset 0 --image system="$o/system.raw" >/dev/null ||
			{ echo "bench: cannot make the OTA" >&2; exit 1; }
		rm -f "$o/system.raw" "$o/tbs.bin"
	fi
	cat "$o/ota.zip" >/dev/null
	for i in $(seq "$runs"); do
		rm -rf "$x" && mkdir -p "$x"
		seconds "$fv" ota extract "$o/ota.zip" --output-dir="$x"; e2+=("$t")
		rm -rf "$x" && mkdir -p "$x"
		seconds taskset -c 0 "$fv" ota extract "$o/ota.zip" --output-dir="$x"; e1+=("$t")
		seconds "$fv" ota verify "$o/ota.zip"; vs+=("$t")
	done
	e2m=$(printf '%s\n' "${e2[@]}" | median)
	e1m=$(printf '%s\n' "${e1[@]}" | median)
	vm=$(printf '%s\n' "${vs[@]}" | median)
	rm -rf "$x" && mkdir -p "$x"
	er=$(/usr/bin/time -f %M "$fv" ota extract "$o/ota.zip" --output-dir="$x" 2>&1 >/dev/null | tail -1)
	vr=$(/usr/bin/time -f %M "$fv" ota verify "$o/ota.zip" 2>&1 >/dev/null | tail -1)
	rm -rf "$x"
	echo "| OTA, full, 1 GiB system (REPLACE_XZ, 2 MiB operations, about 4:1), cached | figure | target | |"
	echo "|---|---|---|---|"
	printf '| extract: %s CPUs %.3f s, one CPU (taskset) %.3f s | %.2fx | 1.7x | %s |\n' "$threads" "$e2m" "$e1m" \
		"$(echo "$e1m / $e2m" | bc -l)" "$([ "$(echo "$e1m / $e2m >= 1.7" | bc -l)" = 1 ] && echo met || echo NOT met)"
	printf '| verify %.3f s against extract %.3f s | %.2fx | at most 1.2x | %s |\n' "$vm" "$e2m" \
		"$(echo "$vm / $e2m" | bc -l)" "$([ "$(echo "$vm / $e2m <= 1.2" | bc -l)" = 1 ] && echo met || echo NOT met)"
	printf '| peak RSS: extract %d MiB, verify %d MiB | | at most 66 MiB | %s |\n' $((er / 1024)) $((vr / 1024)) \
		"$([ $((er / 1024)) -le 66 ] && [ $((vr / 1024)) -le 66 ] && echo met || echo NOT met)"
	echo
}
if [ "${BENCH_ONLY:-}" = ota ]; then
	ota_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = fsverity ]; then
	fsverity_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = ddi ]; then
	ddi_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = android ]; then
	android_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = mldsa ]; then
	mldsa_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = sparse ]; then
	sparse_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = super ]; then
	super_section
	exit 0
fi
if [ "${BENCH_ONLY:-}" = update ]; then
	update_section
	exit 0
fi
seconds_rc() { # CMD...: as seconds, whatever the exit code
	local start=$EPOCHREALTIME end
	"$@" >/dev/null 2>&1 || true
	end=$EPOCHREALTIME
	t=$(echo "$end - $start" | bc -l)
}
if [ "${BENCH_ONLY:-}" = fec ]; then
	fec_section
	exit 0
fi

"$fv" format "$img" "$dir/h.fv" $common --root-hash-file="$dir/root" >/dev/null
root=$(cat "$dir/root")
"$fv" format "$img" "$dir/h512" $common --hash=sha512 --root-hash-file="$dir/root512" >/dev/null
"$fv" format "$img" "$dir/h0" $common --format=0 >/dev/null

echo "fastverity bench, $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
echo "$(nproc) CPUs, $(veritysetup --version | cut -d' ' -f1-2), medians of $runs alternating runs, 1 GiB image, warm cache."
echo
echo "| run | veritysetup | fastverity | ratio | target | |"
echo "|---|---|---|---|---|---|"
compare "format, $threads threads" 6 "format $img $dir/h.vs $common" "format $img $dir/h.fv $common"
compare "format, --threads=1" 2.5 "format $img $dir/h.vs $common" "format $img $dir/h.fv $common --threads=1"
compare "verify, $threads threads" 6 "verify $img $dir/h.fv $root" "verify $img $dir/h.fv $root"
compare "verify, --threads=1" 2.5 "verify $img $dir/h.fv $root" "verify $img $dir/h.fv $root --threads=1"
compare "format sha512 (generic)" 1.5 "format $img $dir/h512.vs $common --hash=sha512" "format $img $dir/h512 $common --hash=sha512"
compare "format --format=0 (generic)" 1.5 "format $img $dir/h0.vs $common --format=0" "format $img $dir/h0 $common --format=0"
compare "verify sha512 (generic)" 1.5 "verify $img $dir/h512 --root-hash-file=$dir/root512" "verify $img $dir/h512 --root-hash-file=$dir/root512"
compare "format, $threads threads, image in 4 KiB pages" - "format $small $dir/h.vs $common" "format $small $dir/h.fv $common"
echo
limits_section
fec_section
android_section
mldsa_section
sparse_section
super_section
update_section
ddi_section
fsverity_section
ota_section

kernels_section

# Peak RSS on a 4 GiB image: bounded by workers x buffers, not the size.
big=$dir/4g.img
[ "$(stat -c %s "$big" 2>/dev/null || echo 0)" = $((4 << 30)) ] ||
	"$top/build/mkimage" random 4 $((4 << 30)) >"$big"
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
fr=$(rss "$fv" format "$big" "$dir/h4" $common --root-hash-file="$dir/root4")
vr=$(rss "$fv" verify "$big" "$dir/h4" --root-hash-file="$dir/root4")
ffr=$(rss "$fv" format "$big" "$dir/h4f" $common --fec-device="$dir/f4" --fec-roots=24 --root-hash-file="$dir/root4f")
frr=$(rss "$fv" repair "$big" "$dir/h4f" --root-hash-file="$dir/root4f" --fec-device="$dir/f4" --fec-roots=24)
echo "| 4 GiB image | peak RSS | target |"
echo "|---|---|---|"
echo "| fastverity format | $((fr / 1024)) MiB | 64 MiB |"
echo "| fastverity verify | $((vr / 1024)) MiB | 64 MiB |"
echo "| fastverity format --fec-roots=24 | $((ffr / 1024)) MiB | 128 MiB |"
echo "| fastverity repair --fec-roots=24 | $((frr / 1024)) MiB | 128 MiB |"
