# FEC: parity byte-identical with veritysetup's in both directions, then
# verify --fec-device and repair on damaged images.
. "$(dirname "$0")/lib.sh"

# fec_interop NAME DATA "FORMAT ARGS" "VERIFY ARGS": both tools format
# with a separate FEC file; same output, same hash and FEC files, and
# each verifies the other's with its parity.
fec_interop() {
	local name=$1 data=$2 fargs=$3 vargs=$4 root ok=1
	rm -rf "$T/vs" "$T/fv"
	mkdir "$T/vs" "$T/fv"
	# shellcheck disable=SC2086
	(cd "$T/vs" && $VS format "$data" hash.img --fec-device=fec.img --uuid=$UUID --salt=$SALT $fargs >out 2>err) || {
		fail "$name: veritysetup format: $(cat "$T/vs/err")"; return; }
	# shellcheck disable=SC2086
	(cd "$T/fv" && "$FV" format "$data" hash.img --fec-device=fec.img --uuid=$UUID --salt=$SALT $fargs >out 2>err) || {
		fail "$name: fastverity format: $(cat "$T/fv/err")"; return; }
	cmp -s "$T/vs/out" "$T/fv/out" || { ok=0; diff "$T/vs/out" "$T/fv/out" >&2; }
	cmp -s "$T/vs/hash.img" "$T/fv/hash.img" || { ok=0; echo "  hash images differ ($name)" >&2; }
	cmp -s "$T/vs/fec.img" "$T/fv/fec.img" || { ok=0; echo "  FEC files differ ($name)" >&2; }
	root=$(root_of "$T/fv/out")
	# shellcheck disable=SC2086
	"$FV" verify "$data" "$T/vs/hash.img" "$root" --fec-device="$T/vs/fec.img" $vargs ||
		{ ok=0; echo "  fastverity rejects veritysetup's ($name)" >&2; }
	# shellcheck disable=SC2086
	$VS verify "$data" "$T/fv/hash.img" "$root" --fec-device="$T/fv/fec.img" $vargs ||
		{ ok=0; echo "  veritysetup rejects fastverity's ($name)" >&2; }
	if [ $ok = 1 ]; then pass "$name"; else fail "$name"; fi
}

gen 11 $((300 * 4096)) >"$T/d300"
for roots in ${FEC_ROOTS:-$(seq 2 24)}; do # check-arm64 takes a few
	fec_interop "roots $roots" "$T/d300" "--fec-roots=$roots" "--fec-roots=$roots"
done
# a sparse data file: holes add nothing to the parity built with the tree
truncate -s $((2000 * 4096)) "$T/dsparse"
gen 14 $((50 * 4096)) | dd of="$T/dsparse" bs=4096 seek=700 conv=notrunc status=none
fec_interop "sparse data, roots 2" "$T/dsparse" "--fec-roots=2" "--fec-roots=2"
gen 12 $((700 * 512)) >"$T/d512"
gen 13 $((500 * 1024)) >"$T/d1024"
for roots in 2 9 24; do
	fec_interop "bs 512 roots $roots" "$T/d512" "--data-block-size=512 --hash-block-size=512 --fec-roots=$roots" "--fec-roots=$roots"
	fec_interop "bs 1024 roots $roots" "$T/d1024" "--data-block-size=1024 --hash-block-size=1024 --fec-roots=$roots" "--fec-roots=$roots"
done
# covered blocks B = n + ceil(n / 128) + 1 at 4 KiB: rounds * 253 - B is
# 0 (n = 501), 252 = rsn - 1 (n = 502) and 1 (n = 751)
for n in 501 502 751; do
	gen 14 $((n * 4096)) >"$T/dn"
	fec_interop "$n blocks (rounds*rsn - B edge)" "$T/dn" "" ""
done
nsb="--no-superblock --data-block-size=4096 --hash-block-size=4096"
fec_interop "--no-superblock" "$T/d300" "$nsb" "$nsb --salt=$SALT"
fec_interop "--hash-offset" "$T/d300" "--hash-offset=8192 --fec-offset=4096 --fec-roots=3" "--hash-offset=8192 --fec-offset=4096 --fec-roots=3"

# The parity on the hash device, after the tree.
cd "$T" || exit 1
$VS format d300 vs.img --fec-device=vs.img --fec-offset=20480 --fec-roots=5 --salt=$SALT --uuid=$UUID >vs.out
"$FV" format d300 fv.img --fec-device=fv.img --fec-offset=20480 --fec-roots=5 --salt=$SALT --uuid=$UUID >fv.out
check "FEC on the hash device: identical images" cmp -s vs.img fv.img
check "FEC on the hash device: identical output" diff <(sed 's/vs\.img/X/' vs.out) <(sed 's/fv\.img/X/' fv.out)
r=$(root_of fv.out)
check "FEC on the hash device: veritysetup verifies ours" $VS verify d300 fv.img "$r" --fec-device=fv.img --fec-offset=20480 --fec-roots=5
check "FEC on the hash device: dump matches" diff <($VS dump vs.img --fec-device=vs.img --fec-offset=20480 --fec-roots=5) <("$FV" dump vs.img --fec-device=vs.img --fec-offset=20480 --fec-roots=5 | sed 's/vs\.img/vs.img/')

# One file: data, tree, parity.
cp d300 one.vs; cp d300 one.fv
$VS format one.vs one.vs --hash-offset=$((300 * 4096)) --fec-device=one.vs --fec-offset=$((305 * 4096)) --salt=$SALT --uuid=$UUID >/dev/null
"$FV" format one.fv one.fv --hash-offset=$((300 * 4096)) --fec-device=one.fv --fec-offset=$((305 * 4096)) --salt=$SALT --uuid=$UUID >o1.out
check "one file with parity: identical" cmp -s one.vs one.fv
# a gap between tree and parity reads as zeros (veritysetup fails here)
cp d300 gap.fv
"$FV" format gap.fv gap.fv --hash-offset=$((300 * 4096)) --fec-device=gap.fv --fec-offset=$((310 * 4096)) --salt=$SALT --uuid=$UUID >og.out
check "one file, gap before the parity: veritysetup verifies" $VS verify gap.fv gap.fv "$(root_of og.out)" --hash-offset=$((300 * 4096)) --fec-device=gap.fv --fec-offset=$((310 * 4096))

# Refusals, each with a message and no output file.
run_rc 1 "$FV" format d300 x.img --fec-device=x.fec --fec-roots=1 && grep -q 'fec-roots' err
check "--fec-roots=1 refused" test $? = 0 -a ! -e x.fec
run_rc 1 "$FV" format d300 x.img --fec-device=x.fec --fec-roots=25
check "--fec-roots=25 refused" test $? = 0
run_rc 1 "$FV" format d300 x.img --fec-device=x.fec --hash-block-size=1024 && grep -q 'equal data and hash block sizes' err
check "FEC with block sizes apart refused" test $? = 0
# veritysetup writes this parity over its tree (difference 3)
run_rc 1 "$FV" format d300 y.img --fec-device=y.img --fec-offset=8192 && grep -q 'overlaps the hash tree' err
check "parity over the tree refused" test $? = 0
run_rc 1 "$FV" format d300 z.img --fec-offset=4096
check "--fec-offset without --fec-device refused" test $? = 0
run_rc 1 "$FV" format d300 d300 --fec-device=d300 --hash-offset=$((300 * 4096)) --fec-offset=0
check "parity over the data refused" cmp -s d300 "$T/d300"

# ---- verify --fec-device and repair ----
gen 21 $((4000 * 4096)) >orig.img
"$FV" format orig.img h.orig --fec-device=f.orig --fec-roots=8 --salt=$SALT --uuid=$UUID >o.out
R=$(root_of o.out)
reset() { files_copy orig.img d.img h.orig h.img f.orig f.img; }
# corrupt FILE BLOCK: 4 KiB of other bytes at that block
corrupt() { "$TOP/build/mkimage" random "$((1000 + $2))" 4096 | dd of="$1" bs=4096 seek="$2" conv=notrunc status=none; }
same_as_orig() { cmp -s d.img orig.img && cmp -s h.img h.orig && cmp -s f.img f.orig; }
FEC="--fec-device=f.img --fec-roots=8"

reset
for b in 3 250 999 1777 2048 3999 17 3333; do corrupt d.img $b; done
corrupt h.img 3   # a leaf hash block
corrupt f.img 20  # parity of round 2, which has no bad block
# and three parity bytes of round 3, which has one (erasure + errors)
printf 'xyz' | dd of=f.img bs=1 seek=$((3 * 32768 + 1000)) conv=notrunc status=none
run_rc 2 "$FV" verify d.img h.img "$R" $FEC
check "verify --fec-device: exit 2 for a damaged image (difference 5)" test $? = 0
check "verify --fec-device: says FEC can repair all" grep -q 'FEC can repair 9 of 9 bad blocks' err
check "verify --fec-device: counts stale parity" grep -q 'FEC parity: .* codewords' err
"$FV" verify --json d.img h.img "$R" $FEC >v.json
check "verify --fec-device --json" jqok '.fec.repairable_blocks == 9 and .fec.unrepairable_blocks == 0 and .fec.roots == 8 and .result == "corrupted"' v.json
cp d.img d.before; cp h.img h.before; cp f.img f.before
run_rc 2 "$FV" repair d.img h.img "$R" $FEC --dry-run
check "repair --dry-run: exit 2, lists what it can repair" test $? = 0 -a "$(grep -c '^Can repair' out)" = 9
check "repair --dry-run writes nothing" sh -c 'cmp -s d.img d.before && cmp -s h.img h.before && cmp -s f.img f.before'
run_rc 0 "$FV" repair d.img h.img "$R" $FEC
check "repair: data and tree back byte for byte" sh -c 'cmp -s d.img orig.img && cmp -s h.img h.orig'
check "repair: the stale parity reported, not rewritten" sh -c "cmp -s f.img f.before && grep -q 'Parity: .* codewords in 2 rounds disagree with the verified data; not rewritten (repair --rewrite-parity rewrites them)' '$T/out'"
check "repair: one line per block" test "$(grep -c '^Repaired position' out)" = 9
cp out first.out
run_rc 0 "$FV" repair d.img h.img "$R" $FEC --rewrite-parity
check "repair --rewrite-parity: data, tree and parity back byte for byte" same_as_orig
cp first.out out
hline=$(grep -n 'hash block' out | cut -d: -f1)
dline=$(grep -n '(data block 250)' out | cut -d: -f1)
check "repair: the leaf hash block before the data block it covers" test "${hline:-9}" -lt "${dline:-0}"
# in order: the hash device's blocks, then the data device's, each by
# offset (the blocks were damaged out of order: 3 250 999 1777 2048
# 3999 17 3333)
grep '^Repaired position' out | sed 's/^Repaired position \([0-9]*\) (\([a-z]*\).*/\2 \1/' >order.txt
check "repair: the blocks listed in order, hash device first, each by offset" sh -c "sort -s -k1,1r -k2,2n order.txt | cmp -s - order.txt && head -1 order.txt | grep -q '^hash' && test \$(grep -c '^data' order.txt) = 8"
run_rc 0 "$FV" repair d.img h.img "$R" $FEC
check "a second repair changes nothing" sh -c "same_as_orig() { cmp -s d.img orig.img && cmp -s h.img h.orig && cmp -s f.img f.orig; }; same_as_orig && ! grep -q Repaired '$T/out'"
check "veritysetup verifies the repaired image" $VS verify d.img h.img "$R" --fec-device=f.img --fec-roots=8

# The top of the tree damaged: the root proves it, then everything else.
reset
corrupt h.img 1
corrupt d.img 100
run_rc 0 "$FV" repair d.img h.img "$R" $FEC
check "repair: top hash block and a data block under it" same_as_orig

# Small damage in many blocks of one round: error decoding, no erasures
# limit (here 12 bad blocks in one round, 8 roots, 3 bytes each).
reset
rounds=$(jq -r .fec.rounds <("$FV" dump --json h.img --fec-device=f.img --fec-roots=8))
for i in $(seq 0 11); do
	printf 'abc' | dd of=d.img bs=1 seek=$(( (i * rounds + 2) * 4096 + 100 + i * 7 )) conv=notrunc status=none
done
run_rc 0 "$FV" repair d.img h.img "$R" $FEC
check "repair: more bad blocks than roots, few bytes each (error decoding)" same_as_orig

# Beyond the parity: 9 whole blocks of one round with 8 roots.
reset
for i in $(seq 0 8); do corrupt d.img $(( i * rounds + 5 )); done
cp d.img d.before
run_rc 2 "$FV" repair d.img h.img "$R" $FEC
check "repair beyond the limit: exit 2" test $? = 0
check "repair beyond the limit: each block named" test "$(grep -c '^Cannot repair position' err)" = 9
check "repair beyond the limit: nothing written" sh -c 'cmp -s d.img d.before && cmp -s h.img h.orig && cmp -s f.img f.orig'

# A wrong root hash repairs nothing.
reset
corrupt d.img 7
cp d.img d.before
wrong=$(echo "$R" | tr '0-9a-f' '1-9a-f0')
run_rc 2 "$FV" repair d.img h.img "$wrong" $FEC
check "wrong root hash: exit non-zero" test $? = 0
check "wrong root hash: nothing written" sh -c 'cmp -s d.img d.before && cmp -s h.img h.orig && cmp -s f.img f.orig'

# Parity damaged only: verify exits 0 and says so; repair rewrites it
# when asked to.
reset
corrupt f.img 0
run_rc 0 "$FV" verify d.img h.img "$R" $FEC
check "verify: stale parity reported, image still good" grep -q 'FEC parity' err
check "  the hint names --rewrite-parity" grep -q 'fastverity repair --rewrite-parity, with the same arguments, rewrites them' err
"$FV" repair --json d.img h.img "$R" $FEC >r.json
check "repair --json: stale parity counted, not rewritten" jqok '.parity_rounds_rewritten == 0 and .fec.stale_parity_rounds == 1 and .result == "ok"' r.json
"$FV" repair --json d.img h.img "$R" $FEC --rewrite-parity >r.json
check "repair --rewrite-parity --json: parity rewritten" jqok '.parity_rounds_rewritten >= 1 and .result == "ok" and .exit_code == 0' r.json
check "repair: parity back byte for byte" same_as_orig

# Another image's parity: verify fails, naming it (issue 53, finding 17:
# it exited 0, "ok", with nearly every codeword disagreeing, and its hint
# named repair --rewrite-parity, which refuses such parity).
reset
gen 22 $((4000 * 4096)) >other.img
"$FV" format other.img oh.img --fec-device=of.img --fec-roots=8 >/dev/null
cp of.img of.before
not_ours="of.img: [0-9]* of [0-9]* parity codewords disagree with the verified image, more than the 5% ([0-9]*) that damage explains: it is not this image's parity, or the roots or offset are wrong"
run_rc 1 "$FV" verify d.img h.img "$R" --fec-device=of.img
check "verify with another image's parity: exit 1" test $? = 0
check "  one line, naming the parity file" sh -c "test \$(wc -l <'$T/err') = 1 && grep -qx \"fastverity: $not_ours\" '$T/err'"
check "  no hint of a command that refuses" sh -c "! grep -q rewrite-parity '$T/err'"
run_rc 1 "$FV" verify d.img h.img "$R" --fec-device=of.img --fec-roots=8
check "  the same with --fec-roots given" grep -qx "fastverity: $not_ours" err
"$FV" verify --json d.img h.img "$R" --fec-device=of.img >v.json 2>/dev/null
check "  --json: an error naming it" jqok '.result == "error" and (.error | test("^of.img: .* it is not this image.s parity"))' v.json
run_rc 1 "$FV" repair d.img h.img "$R" --fec-device=of.img --rewrite-parity --dry-run
check "repair --rewrite-parity --dry-run refuses it as the repair does (it said it would rewrite it)" sh -c "grep -qx \"fastverity: $not_ours; nothing rewritten\" '$T/err' && cmp -s of.img of.before"
run_rc 0 "$FV" repair d.img h.img "$R" --fec-device=of.img
check "repair without --rewrite-parity: says it is not this image's parity, no --rewrite-parity hint" sh -c "grep -q 'more than the [0-9]* that damage explains: not this image.s parity, or the roots or offset are wrong; left as it is' '$T/out' && ! grep -q rewrite-parity '$T/out' && cmp -s of.img of.before"
corrupt d.img 77
run_rc 1 "$FV" verify d.img h.img "$R" --fec-device=of.img
check "another image's parity and a bad block: the block named, then the parity" sh -c "grep -q 'at position 315392' '$T/err' && grep -qx \"fastverity: $not_ours\" '$T/err'"

# A few stale codewords stay a warning (exit 0), and the hint's command
# works as printed: the arguments verify alone takes left out, the
# anchor a write needs added. run_hint VERIFY_ARGS...: runs the repair
# the hint in $T/err names, built from the verify's arguments.
run_hint() {
	local line less add a skip args=()
	line=$(grep -o 'fastverity repair --rewrite-parity, with the same arguments[^,]*\(, --[a-z-]*\)*, rewrites them' "$T/err") || return 1
	less=$(printf '%s' "$line" | sed -n 's/.* less \(.*\), rewrites them$/\1/p' | sed 's/ and with .*//; s/,//g')
	add=$(printf '%s' "$line" | sed -n 's/.* and with \(--[a-z-]*\)=<[a-z.]*>.*/\1/p')
	for a in "$@"; do
		skip=0
		for l in $less; do case $a in "$l"|"$l"=*) skip=1 ;; esac; done
		[ $skip = 1 ] || args+=("$a")
	done
	[ -z "$add" ] || args+=("$add=$HINT_ANCHOR")
	"$FV" repair --rewrite-parity "${args[@]}" >"$T/out" 2>"$T/err"
}
reset
corrupt f.img 0
run_rc 0 "$FV" verify d.img h.img "$R" $FEC --max-failures=3
check "stale parity with --max-failures: exit 0, the hint leaves it out" grep -q 'fastverity repair --rewrite-parity, with the same arguments less --max-failures, rewrites them' err
check "  the hint's command works" run_hint d.img h.img "$R" $FEC --max-failures=3
check "  the parity back byte for byte" same_as_orig
openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -subj /CN=fec-signer -days 2 >/dev/null 2>&1
rm -rf ss && mkdir ss && cp orig.img ss/os.raw
"$FV" format --sidecar ss/os.raw --fec-roots=2 --key k.pem --cert c.pem >/dev/null
cp ss/os.fec ss/os.good
dd if=/dev/zero of=ss/os.fec bs=4096 count=1 conv=notrunc status=none
run_rc 0 "$FV" verify ss/os.raw
check "a signed image's stale parity, verified without a certificate: the hint adds --trusted-cert" grep -q 'fastverity repair --rewrite-parity, with the same arguments and with --trusted-cert=<cert.pem>, rewrites them' err
HINT_ANCHOR=c.pem
check "  the hint's command works" run_hint ss/os.raw
check "  the parity back byte for byte" cmp -s ss/os.fec ss/os.good
run_rc 1 "$FV" repair --rewrite-parity ss/os.raw
check "  (the same arguments alone: refused, nothing written on an unchecked root)" grep -q 'nothing is written on the word of an unchecked root' err

# veritysetup's FEC image repaired by fastverity.
cp orig.img vd.img
$VS format vd.img vh.img --fec-device=vf.img --fec-roots=4 --salt=$SALT --uuid=$UUID >vo.out
corrupt vd.img 42
run_rc 0 "$FV" repair vd.img vh.img "$(root_of vo.out)" --fec-device=vf.img --fec-roots=4
check "repair of veritysetup's FEC image" cmp -s vd.img orig.img
run_rc 1 "$FV" repair d.img h.img "$R"
check "repair without --fec-device refused" grep -q 'requires --fec-device' err

# Sidecar files: format --sidecar --fec-roots writes IMAGE.fec; verify and
# repair with one argument find it and tell the roots from its size.
rm -rf sc && mkdir sc
cp orig.img sc/os.raw
run_rc 0 "$FV" format --sidecar sc/os.raw --fec-roots=6 --salt=$SALT --uuid=$UUID
check "format --sidecar --fec-roots: writes os.fec" test -s sc/os.fec
check "format --sidecar --fec-roots: FEC lines" grep -q '^FEC RS roots:.*6$' out
$VS format orig.img sc/vh.img --fec-device=sc/vf.img --fec-roots=6 --salt=$SALT --uuid=$UUID >/dev/null
check "sidecar parity byte-identical with veritysetup's" cmp -s sc/os.fec sc/vf.img
corrupt sc/os.raw 5
corrupt sc/os.raw 3000
run_rc 2 "$FV" verify sc/os.raw
check "verify <image>: uses os.fec (roots told from its size)" grep -q 'FEC can repair 2 of 2 bad blocks' err
run_rc 0 "$FV" repair sc/os.raw
check "repair <image>: repaired from os.fec" cmp -s sc/os.raw orig.img
run_rc 0 "$FV" verify sc/os.raw --fec-roots=6
check "verify <image> --fec-roots: given roots taken" test ! -s err
# Issue 53, 21: dump finds the sidecar tree as verify and repair do (it
# read the image itself for a superblock, and failed).
"$FV" dump sc/os.verity --fec-device=sc/os.fec >want21
run_rc 0 "$FV" dump sc/os.raw
check "21: dump <image>: the sidecar tree, as dump os.verity --fec-device=os.fec" \
	sh -c "{ echo 'Sidecar tree of sc/os.raw:'; cat want21; } | cmp -s - '$T/out'"
check "21: dump --json <image>: the tree's document, saying where it came from" sh -c "
	'$FV' dump --json sc/os.raw | jq -e '.device == \"sc/os.verity\" and .data_device == \"sc/os.raw\" and
		.container == \"sidecar\" and .fec.roots == 6 and .data_blocks == $(($(stat -c %s orig.img) / 4096))' >/dev/null"
truncate -s +4096 sc/os.fec
run_rc 1 "$FV" verify sc/os.raw
check "verify <image>: a parity file of no roots value refused" grep -q 'os.fec: .* no FEC area of 2 to 24 roots.*--fec-roots' err
run_rc 1 "$FV" format --sidecar sc/os.raw --fec-device=sc/x.fec
check "format --sidecar --fec-device refused, naming os.fec" grep -q 'writes the parity to sc/os.fec' err
run_rc 0 "$FV" format --sidecar sc/os.raw
check "format --sidecar without FEC removes the stale os.fec" sh -c "test ! -e sc/os.fec && grep -q 'removed sc/os.fec' '$T/err'"
run_rc 0 "$FV" dump sc/os.raw
check "21: dump <image> without os.fec: no FEC lines" sh -c "grep -q '^Hash algorithm:' '$T/out' && ! grep -q '^FEC' '$T/out'"
run_rc 1 "$FV" repair sc/os.raw
check "repair <image> without os.fec: names it" grep -q 'requires --fec-device, or sc/os.fec' err

finish
