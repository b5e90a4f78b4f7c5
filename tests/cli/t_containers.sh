# Containers you can trust (issue 28): what an image is, decided once (the
# registry), and what is trusted, decided once (the trust policy). Each
# numbered block is a reproduction of a way a tampered or forged image was
# accepted, or a file damaged, before; each fails on the build before the
# registry and passes after.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
cp -r "$TOP/tests/avb/keys" .
avbtool() { "$FV" avb "$@"; }
quiet() { "$@" >/dev/null 2>&1; }
# FILE OFFSET VALUE: a big-endian u64 written at OFFSET (AVB fields)
put64() { python3 -c 'import sys,struct
f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack(">Q",int(sys.argv[3])))' "$@"; }
# FILE: the footer's fields: original size, vbmeta offset, vbmeta size
footer() { python3 -c 'import sys,struct
d=open(sys.argv[1],"rb").read()[-64:]; print(*struct.unpack(">QQQ",d[12:36]))' "$1"; }
# FILE: where the first descriptor starts (the vbmeta's offset + header +
# auth block + descriptors' offset)
desc0() { python3 -c 'import sys,struct
d=open(sys.argv[1],"rb").read(); o=struct.unpack(">Q",d[-44:-36])[0]
auth=struct.unpack(">Q",d[o+12:o+20])[0]; doff=struct.unpack(">Q",d[o+96:o+104])[0]
print(o+256+auth+doff)' "$1"; }
same() { cmp -s "$1" "$2"; }
# (LeakSanitizer cannot run under ptrace: the runs under strace below
# leave the leak check out, under make check-asan)

quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -subj /CN=ddi-signer -days 2
have_repart=1
command -v systemd-repart >/dev/null || have_repart=0
if [ $have_repart = 1 ]; then
	gen 91 $((6 << 20)) >root.data
	repart_defs signed.d "$T/root.data" sig
	repart_defs unsigned.d "$T/root.data"
	quiet systemd-repart --empty=create --size=auto --definitions=signed.d --private-key=k.pem \
		--certificate=c.pem --dry-run=no --seed=0e8b1f3c-5a7d-4e21-9c6b-2f4d8a1e3b57 signed.raw
	quiet systemd-repart --empty=create --size=auto --definitions=unsigned.d --dry-run=no \
		--seed=0e8b1f3c-5a7d-4e21-9c6b-2f4d8a1e3b57 unsigned.raw
	check "systemd-repart made a signed and an unsigned DDI" test -s signed.raw -a -s unsigned.raw
	DOFF=$("$FV" dump --json signed.raw | jq '.partitions[0].data.offset')
	mkdir verity.d && cp c.pem verity.d/signer.crt
fi

# ---- 1: a tampered signed DDI with an AVB footer added ----
if [ $have_repart = 1 ]; then
	cp signed.raw t1.raw
	flip t1.raw $((DOFF + 5000))
	check "1: the tampered DDI fails" run_rc 2 "$FV" verify t1.raw --trusted-cert=c.pem
	quiet avbtool add_hashtree_footer --image t1.raw --partition_name root --do_not_generate_fec
	check "1: with an AVB footer added: refused, not passed (exit 1)" run_rc 1 "$FV" verify t1.raw --trusted-cert=c.pem
	check "  it reads two ways: both named, and the option that picks one" grep -qx "fastverity: t1.raw: reads two ways, as an Android image (vbmeta) and as a systemd disk image (GPT), which are checked differently (name one: --container=avb or --container=ddi)" err
	check "1: trusting /etc/verity.d: refused the same" run_rc 1 env FASTVERITY_VERITY_D="$T/verity.d" "$FV" verify t1.raw
	check "1: open: refused the same, before any mapping" run_rc 1 "$FV" open t1.raw t1map
	check "1: dump and repair: refused the same" sh -c "'$FV' dump t1.raw >/dev/null 2>&1; test \$? = 1 && { '$FV' repair t1.raw >/dev/null 2>&1; test \$? = 1; }"
	check "1: --container=ddi: the disk image's verdict, the bad block" run_rc 2 "$FV" verify t1.raw --container=ddi --trusted-cert=c.pem
	check "1: --container=avb --trusted-cert: a certificate cannot check a vbmeta, refused by name" run_rc 1 "$FV" verify t1.raw --container=avb --trusted-cert=c.pem
	check "  says which anchor it takes" grep -q "t1.raw: an Android image (vbmeta) is not signed, and a trusted certificate does not apply to it (give --key=<key.pem>)" err
else
	skip "1: systemd-repart is not installed"
fi

# ---- 2: avb verify_image --key on an unsigned vbmeta carrying the key ----
gen 92 $((64 * 4096)) >s2.img
quiet avbtool add_hashtree_footer --image s2.img --partition_name system --do_not_generate_fec \
	--key keys/rsa2048.pem --algorithm SHA256_RSA2048
read -r _ VOFF _ <<<"$(footer s2.img)"
# algorithm NONE (header byte 28..31), the public key left in the aux block
printf '\0\0\0\0' | dd of=s2.img bs=1 seek=$((VOFF + 28)) conv=notrunc status=none
check "2: the forged vbmeta still reads (algorithm NONE, K's key inside)" run_rc 0 avbtool info_image --image s2.img
check "2: avb verify_image --key K on it: refused (libavb's verdict)" run_rc 1 avbtool verify_image --image s2.img --key keys/rsa2048.pem
check "  says it is not signed" grep -q "s2.img: an Android image (vbmeta) that is not signed, and a public key was given to check its signer: nothing proves who made it" err
check "2: verify --key on it: refused too (exit 2)" run_rc 2 "$FV" verify s2.img --key keys/rsa2048.pem

# ---- 3: an unsigned DDI, or a signed one with its signature deleted ----
if [ $have_repart = 1 ]; then
	check "3: verify UNSIGNED --trusted-cert: fails (exit 2: nothing proves who made it)" run_rc 2 "$FV" verify unsigned.raw --trusted-cert=c.pem
	check "  says so" grep -q "unsigned.raw: a systemd disk image (GPT) that is not signed, and a trusted certificate was given to check its signer: nothing proves who made it" err
	check "3: --json: not ok" sh -c "'$FV' verify --json unsigned.raw --trusted-cert=c.pem >j3 2>/dev/null; test \$? = 2 && jq -e '.result != \"ok\"' j3 >/dev/null"
	cp signed.raw t3.raw
	quiet sfdisk --delete t3.raw 3
	check "3: the signature partition deleted: a downgrade, refused" run_rc 2 "$FV" verify t3.raw --trusted-cert=c.pem
	check "3: and trusting /etc/verity.d" run_rc 2 env FASTVERITY_VERITY_D="$T/verity.d" "$FV" verify t3.raw
else
	skip "3: systemd-repart is not installed"
fi

# ---- 4: erase_footer --keep_hashtree on a descriptor never validated ----
gen 94 262144 >d4.img
quiet avbtool add_hashtree_footer --image d4.img --partition_name system --partition_size 1048576 --do_not_generate_fec
D=$(desc0 d4.img)
cp d4.img e4.img; put64 e4.img $((D + 28)) 4096 # tree_offset inside the data
cp e4.img e4.before
check "4: erase_footer --keep_hashtree, tree_offset inside the data: refused" run_rc 1 avbtool erase_footer --image e4.img --keep_hashtree
check "  nothing cut" same e4.img e4.before
cp d4.img w4.img; put64 w4.img $((D + 28)) 18446744073709547520 # 2^64 - 4096: offset + size wraps
cp w4.img w4.before
check "4: a tree_offset + tree_size that wraps: refused" run_rc 1 avbtool erase_footer --image w4.img --keep_hashtree
check "  nothing cut" same w4.img w4.before
cp d4.img g4.img
check "4: the genuine image: --keep_hashtree keeps data and tree" run_rc 0 avbtool erase_footer --image g4.img --keep_hashtree
check "  cut after the tree" test "$(stat -c %s g4.img)" = $((262144 + 4096))

# ---- 5: a chained partition judged against the key its descriptor pins ----
gen 95 $((32 * 4096)) >system.img
quiet avbtool add_hashtree_footer --image system.img --partition_name system --do_not_generate_fec \
	--key keys/rsa8192.pem --algorithm SHA256_RSA8192
quiet avbtool make_vbmeta_image --output vbmeta.img --key keys/rsa2048.pem --algorithm SHA256_RSA2048 \
	--chain_partition system:1:keys/rsa4096.avbpubkey
check "5: system.img signed by K8, vbmeta pins K4: refused" run_rc 1 avbtool verify_image --image vbmeta.img \
	--expected_chain_partition system:1:keys/rsa4096.avbpubkey --follow_chain_partitions
check "  names the pinning descriptor" grep -q "system.img: Embedded public key does not match the key the chain partition descriptor for system pins." err
check "5: and without --expected_chain_partition" run_rc 1 avbtool verify_image --image vbmeta.img --follow_chain_partitions
quiet avbtool add_hashtree_footer --image system.img --partition_name system --do_not_generate_fec \
	--key keys/rsa4096.pem --algorithm SHA256_RSA4096
check "5: system.img signed by K4, vbmeta by K2, --key K2: passes (K2 no longer applied to the chain)" run_rc 0 avbtool verify_image \
	--image vbmeta.img --key keys/rsa2048.pem --follow_chain_partitions
quiet avbtool add_hashtree_footer --image system.img --partition_name system --do_not_generate_fec
check "5: an unsigned chained vbmeta: refused" run_rc 1 avbtool verify_image --image vbmeta.img --follow_chain_partitions

# ---- 6: a signed Android image verified without --key ----
cp system.img s6.img
quiet avbtool add_hashtree_footer --image s6.img --partition_name system --do_not_generate_fec \
	--key keys/rsa4096.pem --algorithm SHA256_RSA4096
check "6: verify IMG signed, no --key: checked, exit 0" run_rc 0 "$FV" verify s6.img
check "  and says the signer was not checked" grep -q "^fastverity: s6.img: warning: the vbmeta is signed (SHA256_RSA4096, public key sha1 [0-9a-f]\{40\}) and checks out against the key it carries, but its signer was not checked (give --key=<key.pem>): nothing proves who made it$" err
check "  --json says it too" sh -c "'$FV' verify --json s6.img 2>/dev/null | jq -e '.signature.trust == \"not checked\" and .signature.checked == false and .signature.algorithm == \"SHA256_RSA4096\"' >/dev/null"
check "6: --trusted-cert on an Android image: refused by name" run_rc 1 "$FV" verify s6.img --trusted-cert=c.pem
check "  with the anchor it takes" grep -q "s6.img: an Android image (vbmeta) is signed, and a trusted certificate cannot check its signer (give --key=<key.pem>)" err
"$FV" format s6.img h6 >f6.out
check "6: --key on a plain pair: refused by name" run_rc 1 "$FV" verify s6.img h6 "$(root_of f6.out)" --key keys/rsa4096.pem
check "  with the anchor it takes" grep -q "s6.img: a verity pair is not signed, and a public key does not apply to it (give --trusted-cert=<cert.pem>)" err

# ---- 7: the image given is checked, not ./<partition>.img beside it ----
mkdir -p d7 && cp s6.img d7/system.img && cp s6.img d7/evil.img
flip d7/evil.img 5000
check "7: verify_image --image evil.img (a tampered system image, a good system.img beside): fails" run_rc 1 \
	avbtool verify_image --image d7/evil.img --key keys/rsa4096.pem
check "  the image named is evil.img" grep -q "hashtree of d7/evil.img does not match descriptor" err
check "7: the good one passes, its name printed as avbtool prints it" sh -c "'$FV' avb verify_image --image d7/system.img --key keys/rsa4096.pem | grep -qx 'system: Successfully verified sha1 hashtree of d7/system.img for image of 131072 bytes'"

# ---- 8: repair never writes over the vbmeta it trusted ----
gen 98 $((200 * 4096)) >p8.img
quiet avbtool add_hashtree_footer --image p8.img --partition_name system --fec_num_roots 2 \
	--key keys/rsa2048.pem --algorithm SHA256_RSA2048
read -r _ VOFF VSIZE <<<"$(footer p8.img)"
# a copy of the genuine vbmeta inside data block 2, the footer pointing at it
dd if=p8.img of=p8.img bs=1 skip="$VOFF" seek=8192 count="$VSIZE" conv=notrunc status=none
put64 p8.img $(($(stat -c %s p8.img) - 64 + 20)) 8192
cp p8.img p8.before
check "8: a footer pointing into the data: verify --key refuses (exit 1)" run_rc 1 "$FV" verify p8.img --key keys/rsa2048.pem
check "  the footer refused: its data reaches past its vbmeta" grep -q "p8.img: AVB footer: original image size 819200 reaches past the vbmeta offset 8192" err
check "8: repair --key refuses, nothing written" sh -c "'$FV' repair p8.img --key keys/rsa2048.pem >/dev/null 2>&1; test \$? = 1 && cmp -s p8.img p8.before"
# the footer counting less data than the vbmeta's offset: the descriptor's
# data still holds the vbmeta
put64 p8.img $(($(stat -c %s p8.img) - 64 + 12)) 8192
cp p8.img p8.before
check "8: a footer of less data, its vbmeta inside the descriptor's: verify --key refuses (exit 1)" run_rc 1 "$FV" verify p8.img --key keys/rsa2048.pem
check "  says where the vbmeta lies" grep -q "p8.img: the vbmeta ($VSIZE bytes at 8192) lies inside the data \[0, +819200): metadata that a repair could write over is not trusted" err
check "8: repair --key refuses, nothing written" sh -c "'$FV' repair p8.img --key keys/rsa2048.pem >/dev/null 2>&1; test \$? = 1 && cmp -s p8.img p8.before"
gen 98 $((200 * 4096)) >q8.img
quiet avbtool add_hashtree_footer --image q8.img --partition_name system --fec_num_roots 2 \
	--key keys/rsa2048.pem --algorithm SHA256_RSA2048
read -r _ VOFF VSIZE <<<"$(footer q8.img)"
FOFF=$(python3 -c 'import sys,struct; d=open(sys.argv[1],"rb").read(); print(struct.unpack(">Q",d[int(sys.argv[2])+56:int(sys.argv[2])+64])[0])' q8.img "$(desc0 q8.img)")
dd if=q8.img of=q8.img bs=1 skip="$VOFF" seek="$FOFF" count="$VSIZE" conv=notrunc status=none
put64 q8.img $(($(stat -c %s q8.img) - 64 + 20)) "$FOFF"
cp q8.img q8.before
check "8: the vbmeta inside the parity: repair --rewrite-parity refuses, nothing written" sh -c "'$FV' repair q8.img --key keys/rsa2048.pem --rewrite-parity >/dev/null 2>'$T/e8'; test \$? = 1 && cmp -s q8.img q8.before && grep -q 'lies inside the parity' '$T/e8'"

# ---- 9: add_hashtree_footer again: refusal-safe and crash-safe ----
gen 99 258048 >r9.img
# the most data avbtool fits in the partition
# (--calc_max_image_size: 258048 for 344064), which leaves 64 KiB for
# the vbmeta
R9="--partition_name system --partition_size 344064 --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048"
# shellcheck disable=SC2086
quiet avbtool add_hashtree_footer --image r9.img $R9
cp r9.img r9.before
gen 100 100000 | od -An -tx1 | tr -d ' \n' | head -c 100000 >big.prop
check "9: a vbmeta over the room left (a 100 KB property): refused" sh -c "'$FV' avb add_hashtree_footer --image r9.img $R9 --prop_from_file big:big.prop 2>'$T/e9'; test \$? = 1 && grep -q 'more than the partition size' '$T/e9'"
check "  decided before the first write: the signed image whole" same r9.img r9.before
check "  and for add_hash_footer" sh -c "gen() { '$TOP/build/mkimage' random \"\$@\"; }; gen 101 40000 >h9.img; '$FV' avb add_hash_footer --image h9.img --partition_name boot --partition_size 131072 >/dev/null && cp h9.img h9.before && ! '$FV' avb add_hash_footer --image h9.img --partition_name boot --partition_size 131072 --prop_from_file big:big.prop 2>/dev/null && cmp -s h9.img h9.before"
gen 102 $((64 << 20)) >k9.img
K9="--partition_name system --fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048"
# shellcheck disable=SC2086
quiet avbtool add_hashtree_footer --image k9.img $K9 --salt 01
cp k9.img k9.orig
# shellcheck disable=SC2086
cp k9.img k9.done && quiet avbtool add_hashtree_footer --image k9.done $K9 --salt 02
# the old footer stays the last 64 bytes until the new one is written
# (in place; or the new image is renamed over the old whole, where the
# file system clones for free): a killed run leaves a footer that counts
# the data, and the next run makes the image it would have made
read -r ORIG9 _ <<<"$(footer k9.img)"
killed=0 kept=0
for ms in 5 10 20 40 80 160; do
	cp k9.orig k9.img
	# shellcheck disable=SC2086
	{ timeout -s KILL "0.$(printf '%03d' $ms)" "$FV" avb add_hashtree_footer --image k9.img $K9 --salt 02 >/dev/null 2>&1; } 2>/dev/null && continue
	killed=$((killed + 1))
	rm -f .k9.img.* # a killed run's temporary file, never the image
	read -r orig _ <<<"$(footer k9.img)"
	# shellcheck disable=SC2086
	[ "$orig" = "$ORIG9" ] && quiet avbtool add_hashtree_footer --image k9.img $K9 --salt 02 &&
		cmp -s k9.img k9.done && kept=$((kept + 1))
done
check "9: a re-run killed at 6 moments ($killed killed): a footer counting the data each time, and the next run makes the image whole" test "$kept" = "$killed"
gen 103 $((100 * 4096)) >s9.raw
cp s9.raw s9a && quiet avbtool add_hashtree_footer --image s9a --partition_name system --fec_num_roots 2 --salt 01
cp s9.raw s9b && quiet avbtool add_hashtree_footer --image s9b --partition_name system --fec_num_roots 8 --salt 01
check "9: a re-run whose metadata reaches the old footer (8 roots over 2): made beside and renamed, avbtool's bytes" sh -c "ASAN_OPTIONS=\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=rename -o '$T/s9' '$FV' avb add_hashtree_footer --image s9a --partition_name system --fec_num_roots 8 --salt 01 && cmp -s s9a s9b && grep -q 'rename(.*/\.s9a\..*s9a\") = 0' '$T/s9'"
# shellcheck disable=SC2086
check "9: then the re-run completes, its new footer verified" sh -c "'$FV' avb add_hashtree_footer --image k9.img $K9 --salt 02 && '$FV' verify k9.img --key keys/rsa2048.pem"

# ---- a bare vbmeta image given to verify: the set it describes checked,
# each partition whose image is absent said missing (t_super: whole sets) ----
mkdir lone && cp vbmeta.img lone/
check "a vbmeta image alone given to verify: its partitions said missing, exit 4" sh -c "'$FV' verify lone/vbmeta.img >'$T/ovb' 2>'$T/evb'; test \$? = 4 && grep -qx 'system: chained vbmeta of lone/system.img: missing (no such file, and no super.img beside holding it).' '$T/ovb'"
check "a file that does not exist: named itself, exit 4" sh -c "'$FV' verify sytem.img 2>'$T/enx'; test \$? = 4 && grep -qx 'fastverity: sytem.img: does not exist or access denied (No such file or directory)' '$T/enx'"

# ---- the avb subcommands that read an image ask the registry too ----
{ printf '\072\377\046\355\001\000\000\000\034\000\014\000'; head -c 4084 /dev/zero; } >sp.img
for sub in info_image verify_image calculate_vbmeta_digest erase_footer; do
	check "avb $sub of a malformed Android sparse image: read as one, refused naming the fault" sh -c "'$FV' avb $sub --image sp.img 2>'$T/esp'; test \$? = 1 && grep -qx 'fastverity: sp.img: sparse block size 0, not a non-zero multiple of 4' '$T/esp'"
done

# ---- 10: sidecar files beside a signed DDI ----
if [ $have_repart = 1 ]; then
	cp signed.raw os.raw
	flip os.raw $((DOFF + 4096 * 3))
	"$FV" format os.raw os.verity >f10.out
	root_of f10.out >os.roothash
	check "10: an attacker's os.verity and os.roothash beside a tampered DDI: refused (exit 1)" run_rc 1 \
		env FASTVERITY_VERITY_D="$T/verity.d" "$FV" verify os.raw
	check "  both readings named" grep -q "os.raw: reads two ways, as a systemd disk image (GPT) and as an image with sidecar files (IMAGE.verity)" err
	check "10: --container=ddi: the disk image's bad block" run_rc 2 env FASTVERITY_VERITY_D="$T/verity.d" "$FV" verify os.raw --container=ddi
	check "10: --container=sidecar: the sidecar reading, as asked" run_rc 0 "$FV" verify os.raw --container=sidecar
else
	skip "10: systemd-repart is not installed"
fi

# ---- 11: one partition's data hashed once, however many descriptors ----
gen 111 40000 >a11.img
quiet avbtool add_hash_footer --image a11.img --partition_name boot --partition_size 262144
truncate -s 256M big11.img
quiet avbtool add_hash_footer --image big11.img --partition_name boot --partition_size $((1 << 29)) --dynamic_partition_size \
	--include_descriptors_from_image a11.img
check "11: two hash descriptors of one partition (over a 256 MiB image): refused at once" run_rc 1 timeout 20 "$FV" avb verify_image --image big11.img
check "  names the partition" grep -q "big11.img: two descriptors of partition 'boot' (1 and 2): each partition's data is checked once, against one digest" err

# ---- 12: avb outputs written as every output is ----
cp s6.img o12.img; cp o12.img o12.before
# the rule of every output (t_trust): another user's symlink in a sticky
# world-writable directory is never followed; writes land whole
mkdir -m 1777 shared
printf 'precious\n' >victim; chmod 600 victim
for sub in info_image calculate_vbmeta_digest extract_vbmeta_image; do
	ln -s "$T/victim" "shared/$sub"; chown -h nobody "shared/$sub"
	check "12: $sub --output a planted symlink: refused, the victim untouched" sh -c "'$FV' avb $sub --image o12.img --output shared/$sub 2>'$T/e12'; test \$? = 1 && grep -q 'a symlink in a sticky world-writable directory, owned by another user: not followed' '$T/e12' && test \"\$(cat victim)\" = precious"
done
check "12: info_image --output the image: refused, the image whole" sh -c "'$FV' avb info_image --image o12.img --output o12.img 2>'$T/e12'; test \$? = 1 && cmp -s o12.img o12.before && grep -q 'is the input' '$T/e12'"
check "12: calculate_vbmeta_digest --output the image: refused" sh -c "'$FV' avb calculate_vbmeta_digest --image o12.img --output o12.img 2>/dev/null; test \$? = 1 && cmp -s o12.img o12.before"
check "12: extract_vbmeta_image --output the image: refused" sh -c "'$FV' avb extract_vbmeta_image --image o12.img --output ./o12.img 2>/dev/null; test \$? = 1 && cmp -s o12.img o12.before"
check "12: make_vbmeta_image --output an included image: refused" sh -c "'$FV' avb make_vbmeta_image --include_descriptors_from_image o12.img --output o12.img 2>/dev/null; test \$? = 1 && cmp -s o12.img o12.before"
cp keys/rsa2048.pem k12.pem
check "12: extract_public_key --output the key: refused" sh -c "'$FV' avb extract_public_key --key k12.pem --output k12.pem 2>/dev/null; test \$? = 1 && cmp -s k12.pem keys/rsa2048.pem"
check "12: make_vbmeta_image --output its key: refused, the key whole" sh -c "'$FV' avb make_vbmeta_image --key k12.pem --algorithm SHA256_RSA2048 --output k12.pem 2>'$T/e12'; test \$? = 1 && cmp -s k12.pem keys/rsa2048.pem && grep -q 'is the input' '$T/e12'"
"$FV" avb extract_public_key --key k12.pem --output k12.avbpubkey && cp k12.avbpubkey k12.before
check "12: make_vbmeta_image --output a chained partition's key: refused" sh -c "'$FV' avb make_vbmeta_image --key k12.pem --algorithm SHA256_RSA2048 --chain_partition boot:1:k12.avbpubkey --output k12.avbpubkey 2>/dev/null; test \$? = 1 && cmp -s k12.avbpubkey k12.before"
check "12: make_vbmeta_image --output its public key metadata: refused" sh -c "'$FV' avb make_vbmeta_image --key k12.pem --algorithm SHA256_RSA2048 --public_key_metadata k12.avbpubkey --output k12.avbpubkey 2>/dev/null; test \$? = 1 && cmp -s k12.avbpubkey k12.before"
gen 94 $((16 * 4096)) >f12.img; cp f12.img f12.before
check "12: add_hashtree_footer --output_vbmeta_image its key: refused, key and image whole" sh -c "'$FV' avb add_hashtree_footer --image f12.img --partition_size $((64 * 4096)) --partition_name s --hash_algorithm sha256 --key k12.pem --algorithm SHA256_RSA2048 --output_vbmeta_image k12.pem 2>/dev/null; test \$? = 1 && cmp -s k12.pem keys/rsa2048.pem && cmp -s f12.img f12.before"
check "12: add_hash_footer --output_vbmeta_image the image: refused, the image whole" sh -c "'$FV' avb add_hash_footer --image f12.img --partition_size $((64 * 4096)) --partition_name s --output_vbmeta_image f12.img 2>/dev/null; test \$? = 1 && cmp -s f12.img f12.before"
check "12: calculate_vbmeta_digest --output: the digest, as on standard output" sh -c "'$FV' avb calculate_vbmeta_digest --image o12.img --output d12.txt && test \"\$(cat d12.txt)\" = \"\$('$FV' avb calculate_vbmeta_digest --image o12.img)\""

# ---- 13: names are printed escaped ----
gen 93 $((16 * 4096)) >n13.img
avbtool add_hash_footer --image n13.img --partition_name "$(printf 'n13\nboot: Successfully verified sha256 hash of x')" \
	--partition_size $((64 * 4096)) >/dev/null 2>&1
check "13: a name with a newline prints no line of its own" sh -c "'$FV' avb verify_image --image n13.img >o13 2>&1; ! grep -q '^boot: Successfully' o13 && grep -q '^n13\\\\x0aboot: Successfully verified sha256 hash of x: Successfully verified' o13"

if [ $have_repart = 1 ]; then
	cp unsigned.raw l13.raw
	cc -std=c11 -o gptfix "$TOP/tests/cli/gptfix.c" -lz || fail "gptfix does not build"
	python3 -c 'import sys,struct
f=open(sys.argv[1],"r+b"); f.seek(512+72); e=struct.unpack("<Q",f.read(8))[0]
f.seek(e*512+56); f.write("x\nroot: verified.".encode("utf-16-le").ljust(72,b"\0"))' l13.raw
	./gptfix l13.raw
	check "13: a disk image's label with a newline: escaped in the verdict" sh -c "'$FV' verify l13.raw >'$T/o13b' 2>&1; grep -q \"label 'x\\\\\\\\x0aroot: verified.'\" '$T/o13b' && ! grep -q '^root: verified' '$T/o13b'"
fi

# ---- 14: a chain partition's name is a name, never a path ----
quiet avbtool make_vbmeta_image --output v14.img --chain_partition ../../../../etc/passwd:1:keys/rsa4096.avbpubkey
check "14: calculate_vbmeta_digest: a path as a name refused" run_rc 1 avbtool calculate_vbmeta_digest --image v14.img
check "  says it is not a name" grep -q "v14.img: the chained partition name '../../../../etc/passwd' is not a name" err
check "14: verify_image --follow_chain_partitions: refused, /etc/passwd never opened" sh -c "ASAN_OPTIONS=\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=open,openat -o '$T/s14' '$FV' avb verify_image --image v14.img --follow_chain_partitions >/dev/null 2>&1; test \$? = 1 && ! grep -q passwd '$T/s14'"

# ---- 15: the in-place AVB writers and a file behind an active loop device ----
cp s6.img l15.img; cp l15.img l15.before
if L=$(losetup -f --show -r l15.img 2>/dev/null); then
	check "15: add_hashtree_footer on a file behind $L: refused" run_rc 1 avbtool add_hashtree_footer --image l15.img --partition_name system --do_not_generate_fec
	check "  names the loop device, nothing written" sh -c "grep -q 'l15.img: backs the active loop device $L: not written in place while it is in use' '$T/err' && cmp -s l15.img l15.before"
	check "15: add_hash_footer: refused" sh -c "'$FV' avb add_hash_footer --image l15.img --partition_name boot --partition_size 1048576 2>/dev/null; test \$? = 1 && cmp -s l15.img l15.before"
	check "15: erase_footer: refused" sh -c "'$FV' avb erase_footer --image l15.img 2>/dev/null; test \$? = 1 && cmp -s l15.img l15.before"
	losetup -d "$L"
	check "15: once detached, written" run_rc 0 avbtool erase_footer --image l15.img
else
	skip "15: no loop devices here"
fi

# ---- 15b: repair of an Android image on a block device ----
# data, tree and parity on one device: the data is held for writing as a
# region of it, and the tree and parity past that region's end are read
# beside it, within the device
gen 73 $((4 << 20)) >r15.img
quiet avbtool add_hashtree_footer --image r15.img --partition_name system --hash_algorithm sha256 \
	--fec_num_roots 2 --key keys/rsa2048.pem --algorithm SHA256_RSA2048
cp r15.img r15.good
flip r15.img $((7 * 4096 + 11))
if L=$(losetup -f --show r15.img 2>/dev/null); then
	check "15b: repair of an Android image on $L: rebuilt" run_rc 0 "$FV" repair "$L" --key=keys/rsa2048.pem
	check "  the block named" grep -q "^Repaired position 28672 (data block 7).$" "$T/out"
	check "  verify of it passes" run_rc 0 "$FV" verify "$L" --key=keys/rsa2048.pem
	losetup -d "$L"
	check "  the image as it was made" cmp -s r15.img r15.good
else
	skip "15b: no loop devices here"
fi

# ---- 16: a GPT partition over the GPT itself ----
if [ $have_repart = 1 ]; then
	cp unsigned.raw g16.raw
	cc -std=c11 -o gptfix "$TOP/tests/cli/gptfix.c" -lz || fail "gptfix does not build"
	python3 -c 'import sys,struct
f=open(sys.argv[1],"r+b"); f.seek(512+40); f.write(struct.pack("<Q",0))
f.seek(512+72); e=struct.unpack("<Q",f.read(8))[0]; f.seek(e*512+32); f.write(struct.pack("<Q",0))' g16.raw
	./gptfix g16.raw
	check "16: a partition from LBA 0 (the usable sectors moved over the table): refused" run_rc 1 "$FV" verify g16.raw
	check "  names the table" grep -q "g16.raw: GPT header: the usable sectors start at 0, over the partition table" err
else
	skip "16: systemd-repart is not installed"
fi

# ---- 17: a rootHash given twice in the signature JSON ----
if [ $have_repart = 1 ]; then
	cp signed.raw j17.raw
	SOFF=$("$FV" dump --json j17.raw | jq '.partitions[0].signature.offset')
	python3 -c 'import sys
f=open(sys.argv[1],"r+b"); o=int(sys.argv[2]); f.seek(o); d=f.read(16384).rstrip(b"\0")
d=b"{\"rootHash\":\"" + b"0"*64 + b"\"," + d[1:]
f.seek(o); f.write(d.ljust(16384, b"\0"))' j17.raw "$SOFF"
	check "17: duplicate rootHash keys: refused" run_rc 1 "$FV" verify j17.raw --trusted-cert=c.pem
	check "  says which key" grep -q 'the key "rootHash" is given twice' err
else
	skip "17: systemd-repart is not installed"
fi

# ---- 18: repair understands disk images (and Android images without parity) ----
check "18: repair of an Android image without parity: one line, about the image" sh -c "'$FV' repair s6.img --key keys/rsa4096.pem 2>'$T/e18'; test \$? = 1 && test \$(wc -l <'$T/e18') = 1 && grep -q 's6.img holds no parity it can use' '$T/e18'"
if [ $have_repart = 1 ]; then
	check "18: repair DDI without parity: one line, about the disk image" run_rc 1 "$FV" repair signed.raw --trusted-cert=c.pem
	check "  no sidecar words" sh -c "test \$(wc -l <'$T/err') = 1 && grep -qx 'fastverity: repair: signed.raw holds no parity: requires --fec-device' '$T/err'"
	check "18: repair DDI, signed, no certificate: refused (a write needs a checked signer)" run_rc 1 "$FV" repair signed.raw --fec-device=none.fec
	check "  names the image" grep -q "signed.raw: a systemd disk image (GPT) that is signed, and nothing was given to check its signer" err
else
	skip "18: systemd-repart is not installed"
fi

finish
