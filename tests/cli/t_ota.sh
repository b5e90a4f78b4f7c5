# fastverity ota info over Android A/B OTA packages made here by
# tests/ota/make_test_ota.py (a signed full OTA zip and its bare
# payload.bin): every field against what the generator wrote (sizes,
# offsets, partition hashes, properties, property files, the signature
# footer); REPLACE_ZSTD; --json; each malformed package refused with one
# line naming the file and the field, nothing on stdout.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
PY=/usr/bin/python3
if ! $PY -c 'import google.protobuf' 2>/dev/null || ! command -v openssl >/dev/null; then
	skip "python3-protobuf or openssl is not installed: make deps installs them"
	finish
	exit 0
fi
G=$TOP/tests/ota
SYS=fc1a6d060b4eb79e0a3159cbb596767b5b733b30e7e6023af0a56b33bf67fd33
VBM=8dec5fb0de8a0b457c0cf7be559e4ef488e9cf39d5ddb0ff7464b23372ab21fa

check "the generator makes a signed OTA" \
	sh -c "$PY '$G/make_test_ota.py' ota '$G/keys/payload-test-key.pem' '$G/keys/test-ota-cert.pem' >gen.out"
psize=$(stat -c %s ota/payload.bin)
zsize=$(stat -c %s ota/ota.zip)
meta=$(sed -n 's/.*metadata \([0-9]*\),.*/\1/p' gen.out)
check "the generator's sizes" grep -q "^payload.bin $psize bytes, metadata $meta, ota.zip $zsize bytes" gen.out

# text: the lines that matter, as the generator made them
check "info on the zip" run_rc 0 $FV ota info ota/ota.zip
check "info: nothing on stderr" test ! -s "$T/err"
cp "$T/out" info.txt
has() { grep -qxF -- "$1" info.txt || { echo "  missing: $1" >&2; return 1; }; }
for line in "kind: zip" "  major: 2" "  minor: 0" "  type: full" "  block_size: 4096" \
	"  size: $psize" "  offset: 41" "  metadata_size: 295" "  data_offset: $meta" \
	"  metadata_signature_size: 267" "  signatures_size: 267" "  signature_ends_payload: true" \
	"  max_timestamp: 1788220800" "    - name: system" "      new_size: 3145728" \
	"      new_sha256: $SYS" "      operations: 2" "        REPLACE_XZ: 1" "        REPLACE_BZ: 1" \
	"    - name: vbmeta" "      new_size: 12288" "      new_sha256: $VBM" "        REPLACE: 1" \
	"  FILE_SIZE: $psize" "  METADATA_SIZE: 295" "  type: AB" "  wipe: false" "  downgrade: false" \
	"    device: [test]" "    build: [test/test/test:17/TEST/1:user/test-keys]" \
	"    timestamp: 1788220800" "  size: $zsize" "  otacert: true" "    signer: /CN=test-ota"; do
	check "info shows '$line'" has "$line"
done
check "info: both signatures, 256 bytes each" \
	test "$(grep -c '^    - size: 256$' info.txt)" = 2
# the properties' FILE_HASH is the payload's SHA-256
fh=$(openssl dgst -sha256 -binary ota/payload.bin | base64)
check "info: FILE_HASH is the payload's" has "  FILE_HASH: $fh"

# --json: the same, and against the zip's own property files
check "info --json" run_rc 0 $FV ota info --json ota/ota.zip
cp "$T/out" info.json
jqv() { jq -r "$1" info.json; }
check "json: partitions" test "$(jqv '[.payload.partitions[].name] | join(",")')" = system,vbmeta
check "json: system's hash" test "$(jqv '.payload.partitions[0].new_sha256')" = $SYS
check "json: op counts" test "$(jqv '.payload.partitions[0].operation_types.REPLACE_XZ')" = 1
check "json: numbers are numbers" test "$(jqv '.payload.size | type')" = number
check "json: booleans" test "$(jqv '.metadata.wipe | type')" = boolean
check "json: signed bytes (all but the comment and its length)" \
	test "$(jqv '.zip.signature.signed_bytes')" = $((zsize - $(jqv '.zip.comment_size') - 2))
# every name:offset:size of ota-property-files is an entry's data
# (payload_metadata.bin: the payload's first metadata bytes)
pf_ok() {
	local tok name off size
	for tok in $(jqv '.metadata.property_files["ota-property-files"]' | tr , ' '); do
		IFS=: read -r name off size <<<"$tok"
		if [ "$name" = payload_metadata.bin ]; then
			[ "$off" = "$(jqv '.payload.offset')" ] && [ "$size" = "$meta" ] || return 1
			continue
		fi
		[ "$(jq -r --arg n "$name" '.zip.entries[] | select(.name | split("/") | last == $n) | "\(.offset):\(.size)"' info.json)" = "$off:$size" ] ||
			{ echo "  $tok" >&2; return 1; }
	done
}
check "json: the property files are where the entries are" pf_ok

# the bare payload
check "info on payload.bin" run_rc 0 $FV ota info ota/payload.bin
check "payload.bin: kind" grep -qx "kind: payload" "$T/out"
check "payload.bin: at 0" grep -qx "  offset: 0" "$T/out"
check "payload.bin: no zip" sh -c "! grep -q '^zip:' '$T/out'"
check "payload.bin: the same partitions" grep -qx "      new_sha256: $VBM" "$T/out"

# REPLACE_ZSTD (Android 17's type 14)
if command -v zstd >/dev/null; then
	check "a zstd OTA" sh -c "$PY '$G/make_test_ota.py' zst '$G/keys/payload-test-key.pem' '$G/keys/test-ota-cert.pem' --ops zstd,xz >/dev/null"
	check "info: REPLACE_ZSTD counted" sh -c "$FV ota info zst/ota.zip | grep -qx '        REPLACE_ZSTD: 1'"
fi

# bad packages: one line naming the file and the problem, exit 1
bad() { # WHAT FILE WANT
	if ! run_rc 1 $FV ota info "$2"; then fail "$1: exit"; return; fi
	if [ -s "$T/out" ] || [ "$(wc -l <"$T/err")" != 1 ] || ! grep -qF "$2" "$T/err" ||
		! grep -qF -- "$3" "$T/err"; then
		sed 's/^/  | /' "$T/err" >&2
		fail "$1"
	else
		pass "$1"
	fi
}
# patch FILE OFFSET HEX: bytes written at OFFSET
patch() { printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
cp ota/payload.bin p.bin && patch p.bin 0 43724158
bad "a payload with another magic" p.bin "not an OTA package"
cp ota/payload.bin p.bin && patch p.bin 4 0000000000000003
bad "major version 3" p.bin "major version 3"
cp ota/payload.bin p.bin && patch p.bin 12 0000000001000001
bad "a manifest over 16 MiB" p.bin "manifest_size 16777217"
cp ota/payload.bin p.bin && patch p.bin 12 0000000000010000
bad "a manifest past the end" p.bin "manifest_size 65536: past the payload's end"
cp ota/payload.bin p.bin && patch p.bin 20 7fffffff
bad "a metadata signature past the end" p.bin "metadata_signature_size"
head -c 5000 ota/payload.bin >p.bin
bad "a payload cut short" p.bin "payload signature"
cp ota/payload.bin p.bin && patch p.bin 24 ffffffffffffffff
bad "a manifest that is not protobuf" p.bin "manifest: not a valid protobuf"
head -c 20 ota/payload.bin >p.bin
bad "a payload shorter than its header" p.bin "shorter than its 24-byte header"
head -c $((zsize - 100)) ota/ota.zip >z.zip
bad "a zip cut short" z.zip "not an OTA package"
cp ota/ota.zip z.zip && patch z.zip $((41 + 4)) 0000000000000003
bad "the zip's payload, major 3" z.zip "major version 3"
# the central directory's offset (the end record's bytes 16-19) moved
eocd=$((zsize - $(jqv '.zip.comment_size') - 22))
cp ota/ota.zip z.zip && patch z.zip $((eocd + 16)) ffffff00
bad "a central directory past the end record" z.zip "central directory"
cp ota/ota.zip z.zip && patch z.zip $((eocd + 8)) ff00ff00
bad "more entries than the directory holds" z.zip "cannot hold 255 entries"
: >empty
bad "an empty file" empty "not an OTA package"
printf 'PK\005\006%018d' 0 | tr 0 '\0' >nopayload.zip
bad "a zip without payload.bin" nopayload.zip "without payload.bin"
check "a missing file: exit 4" run_rc 4 $FV ota info missing.zip
check "a missing file: named" grep -q "missing.zip" "$T/err"
check "bad --json: a JSON error document" sh -c "! $FV ota info --json p.bin >j.out 2>/dev/null; jq -e '.error | test(\"shorter\")' j.out >/dev/null"

# the registry knows a package: verify and dump read it as ota verify
# and ota info do, the actions on pairs refuse it by name
check "verify PKG: as ota verify" sh -c "$FV verify ota/ota.zip >v1.out && $FV ota verify ota/ota.zip >v2.out && cmp v1.out v2.out"
check "verify PKG --trusted-cert: ota verify --cert" sh -c "$FV verify --json --trusted-cert='$G/keys/test-ota-cert.pem' ota/ota.zip >v1.out && $FV ota verify --json --cert='$G/keys/test-ota-cert.pem' ota/ota.zip >v2.out && cmp v1.out v2.out"
check "dump PKG: as ota info" sh -c "$FV dump ota/payload.bin >v1.out && $FV ota info ota/payload.bin >v2.out && cmp v1.out v2.out"
check "verify PKG --salt: refused, naming what applies" run_rc 1 $FV verify ota/ota.zip --salt=00
check "  one line" sh -c "test \$(wc -l <'$T/err') = 1 && grep -q 'ota/ota.zip: an Android OTA package: verify takes one --trusted-cert' '$T/err'"
check "repair PKG: refused" run_rc 1 $FV repair ota/ota.zip
check "  named, with the command that reads it" grep -q "an Android OTA package.*fastverity ota info ota/ota.zip" "$T/err"
check "open PKG NAME: refused" run_rc 1 $FV open ota/ota.zip name

# ota verify: the metadata and payload signatures (RSA PKCS#1 v1.5 over
# SHA-256), against --cert or the package's own otacert
KEY=$G/keys/payload-test-key.pem CERT=$G/keys/test-ota-cert.pem
check "verify: the package's own otacert" run_rc 0 $FV ota verify ota/ota.zip
check "verify: both good, signer not checked" sh -c "grep -qx 'metadata_signature: good' '$T/out' && grep -qx 'payload_signature: good' '$T/out' && grep -qx 'trust: not checked' '$T/out' && grep -qx 'signer: /CN=test-ota' '$T/out'"
check "verify --cert: checked" run_rc 0 $FV ota verify --cert="$CERT" ota/ota.zip
check "verify --cert: trust checked" grep -qx "trust: checked" "$T/out"
openssl pkey -in "$KEY" -pubout -out pub.pem 2>/dev/null
check "verify --cert=PUBLIC KEY, a bare payload" run_rc 0 $FV ota verify --cert=pub.pem ota/payload.bin
check "verify: a bare payload without --cert refused" run_rc 1 $FV ota verify ota/payload.bin
check "  named" grep -q "no certificate to check its signatures with" "$T/err"
check "verify --json" run_rc 0 $FV ota verify --json --cert="$CERT" ota/ota.zip
check "verify --json: the verdicts" test "$(jq -r '[.verify.result, .verify.trust, .verify.key, .verify.metadata_signature, .verify.payload_signature] | join(",")' "$T/out")" = "ok,checked,RSA-2048,good,good"
openssl req -x509 -newkey rsa:2048 -nodes -keyout k2.pem -out c2.pem -subj /CN=other -days 30 -sha256 2>/dev/null
check "verify with another key: exit 2" run_rc 2 $FV ota verify --cert=c2.pem ota/ota.zip
check "  both bad" sh -c "grep -qx 'metadata_signature: bad' '$T/out' && grep -qx 'payload_signature: bad' '$T/out' && grep -qx 'result: bad' '$T/out'"
openssl req -x509 -newkey rsa:1024 -nodes -keyout k1.pem -out c1.pem -subj /CN=small -days 30 -sha256 2>/dev/null
check "verify with an RSA-1024 key: refused by name" run_rc 1 $FV ota verify --cert=c1.pem ota/ota.zip
check "  named" grep -q "an RSA-1024 key: update_engine takes RSA-2048 and RSA-4096" "$T/err"
# a blob byte changed: the payload signature breaks, the metadata's holds
cp ota/payload.bin p.bin && flip p.bin $((meta + 100))
check "a blob changed: exit 2" run_rc 2 $FV ota verify --cert="$CERT" p.bin
check "  payload signature bad, metadata good" sh -c "grep -qx 'metadata_signature: good' '$T/out' && grep -qx 'payload_signature: bad' '$T/out'"
# max_timestamp (the manifest's last field, 70 80 ab d8 d4 06 at 289):
# its first varint byte's low bit, still a valid manifest: both break
cp ota/payload.bin p.bin && patch p.bin 290 81
check "the manifest changed: exit 2" run_rc 2 $FV ota verify --cert="$CERT" p.bin
check "  both bad" sh -c "grep -qx 'metadata_signature: bad' '$T/out' && grep -qx 'payload_signature: bad' '$T/out'"
# the payload signature's 256 bytes zeroed: the placeholder
cp ota/payload.bin p.bin && dd if=/dev/zero of=p.bin bs=1 seek=$((psize - 261)) count=256 conv=notrunc status=none
check "a placeholder payload signature: exit 2" run_rc 2 $FV ota verify --cert="$CERT" p.bin
check "  said" grep -qx "payload_signature: placeholder (not signed)" "$T/out"
# bytes after the payload signature, which it does not cover: refused,
# as update_engine and paycheck refuse a payload of another size
cp ota/payload.bin pj.bin && printf 'JUNKJUNK' >>pj.bin
check "bytes after the payload signature: exit 2" run_rc 2 $FV ota verify --cert="$CERT" pj.bin
check "  said" grep -qx "payload_signature: bad (bytes after the payload signature, which it does not cover)" "$T/out"
check "  verify PKG too" run_rc 2 $FV verify --trusted-cert="$CERT" pj.bin
# signapk writes otacert deflated: read, inflated, its CRC-32 checked
$PY - ota/ota.zip dfl.zip <<'PYEOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as i, zipfile.ZipFile(sys.argv[2], 'w') as o:
    for e in i.infolist():
        d = i.read(e.filename)
        m = zipfile.ZIP_DEFLATED if e.filename.endswith('otacert') else zipfile.ZIP_STORED
        o.writestr(zipfile.ZipInfo(e.filename, date_time=(2009, 1, 1, 0, 0, 0)), d, compress_type=m)
PYEOF
check "a deflated otacert: verify with it (no whole-file signature: exit 2)" run_rc 2 $FV ota verify dfl.zip
check "  its signer" grep -qx "signer: /CN=test-ota" "$T/out"
check "  both payload signatures good" sh -c "grep -qx 'metadata_signature: good' '$T/out' && grep -qx 'payload_signature: good' '$T/out'"
check "  no whole-file signature, said" grep -q "^whole_file_signature: none" "$T/out"
check "  info says deflated" sh -c "$FV ota info dfl.zip | grep -A3 'name: META-INF/com/android/otacert' | grep -qx '      method: deflated'"
# a byte of payload_properties.txt changed: its CRC-32 no longer holds
off=$(jq -r '.zip.entries[] | select(.name == "payload_properties.txt") | .offset' info.json)
cp ota/ota.zip z.zip && patch z.zip "$off" 58
bad "payload_properties.txt with a bad CRC-32" z.zip "payload_properties.txt: bad CRC-32"

# RSA-4096, as production OTAs
openssl req -x509 -newkey rsa:4096 -nodes -keyout k4.pem -out c4.pem -subj /CN=test4096 -days 30 -sha256 2>/dev/null
check "an RSA-4096 OTA" sh -c "$PY '$G/make_test_ota.py' o4 k4.pem c4.pem >/dev/null"
check "verify: RSA-4096 good" run_rc 0 $FV ota verify --cert=c4.pem o4/ota.zip
check "  its key" grep -qx "key: RSA-4096" "$T/out"
check "info: 512-byte signatures" sh -c "$FV ota info o4/payload.bin | grep -c '^    - size: 512$' | grep -qx 2"

# the zip's own checks: the whole-file signature (CMS in the comment),
# otacert against its signer, payload_properties.txt, the property files
vline() { grep -qxF -- "$1" "$T/out" || { sed 's/^/  | /' "$T/out" >&2; return 1; }; }
check "verify: the zip's checks good" run_rc 0 $FV ota verify --cert="$CERT" ota/ota.zip
for line in "whole_file_signature: good" "whole_file_digest: SHA-256" "otacert: good" \
	"properties: good" "property_files: good"; do
	check "  $line" vline "$line"
done
check "verify --json: the zip's verdicts" sh -c "$FV ota verify --json ota/ota.zip | jq -e '.verify | .whole_file_signature == \"good\" and .otacert == \"good\" and .properties == \"good\" and .property_files == \"good\" and .trust == \"not checked\"' >/dev/null"
gen() { # DIR ARGS...: a package made with the test key
	local d=$1; shift
	$PY "$G/make_test_ota.py" "$d" "$KEY" "$CERT" "$@" >/dev/null
}
check "a SHA-1 whole-file signature (signapk's for old certificates)" gen sha1 --zip-md sha1
check "  verify: good" run_rc 0 $FV ota verify --cert="$CERT" sha1/ota.zip
check "  its digest" vline "whole_file_digest: SHA-1"
openssl ecparam -name prime256v1 -genkey -noout -out ek.pem 2>/dev/null
openssl req -x509 -new -key ek.pem -out ec.pem -subj /CN=ec -days 30 2>/dev/null
check "an ECDSA P-256 whole-file signature" gen ec --zip-key ek.pem --zip-cert ec.pem
check "  verify --cert=EC: the zip good, the payload's bad (exit 2)" run_rc 2 $FV ota verify --cert=ec.pem ec/ota.zip
check "  whole-file good, otacert good" sh -c "grep -qx 'whole_file_signature: good' '$T/out' && grep -qx 'otacert: good' '$T/out'"
check "  payload bad" vline "payload_signature: bad"
check "  verify --cert=RSA: the zip's bad" run_rc 2 $FV ota verify --cert="$CERT" ec/ota.zip
check "  named" vline "whole_file_signature: bad (not signed by the key of --cert)"
check "an otacert of another key" gen oc --otacert c2.pem
check "  verify: exit 2" run_rc 2 $FV ota verify --cert="$CERT" oc/ota.zip
check "  otacert bad, the rest good" sh -c "grep -qx \"otacert: bad (not the whole-file signature's signer certificate)\" '$T/out' && grep -qx 'whole_file_signature: good' '$T/out'"
check "  without --cert: the payload's signatures bad" run_rc 2 $FV ota verify oc/ota.zip
check "a wrong FILE_SIZE" gen wp --tamper props
check "  verify: exit 2" run_rc 2 $FV ota verify --cert="$CERT" wp/ota.zip
check "  named" vline "properties: bad (FILE_SIZE is $(($(stat -c %s wp/payload.bin) + 1)), payload.bin's is $(stat -c %s wp/payload.bin))"
check "a wrong property-file offset" gen wf --tamper pf
check "  verify: exit 2" run_rc 2 $FV ota verify --cert="$CERT" wf/ota.zip
check "  named" grep -q "^property_files: bad (metadata.pb ota-property-files: payload.bin:42:[0-9]*, the entry's data is [0-9]* bytes at 41)$" "$T/out"
# the CMS's signature's last byte (the DER's last, before the footer)
cp ota/ota.zip z.zip && flip z.zip $((zsize - 7))
check "a whole-file signature changed: exit 2" run_rc 2 $FV ota verify --cert="$CERT" z.zip
check "  named, the rest good" sh -c "grep -qx 'whole_file_signature: bad (not signed by the key of --cert)' '$T/out' && grep -qx 'properties: good' '$T/out' && grep -qx 'payload_signature: good' '$T/out'"
# a signed byte outside every entry's data: payload.bin's local header's time
cp ota/ota.zip z.zip && flip z.zip 10
check "a signed byte changed: exit 2" run_rc 2 $FV ota verify z.zip
check "  the CMS's own certificate no longer verifies" vline "whole_file_signature: bad (does not verify with the CMS's own certificate)"

# the operations: each blob against data_sha256_hash, applied, each
# image against new_partition_info (verify); extract writes them
check "verify: the images good" sh -c "$FV ota verify --cert='$CERT' ota/ota.zip >v.out && grep -qx 'image system: good' v.out && grep -qx 'image vbmeta: good' v.out"
check "verify --json: images" sh -c "$FV ota verify --json ota/ota.zip | jq -e '[.verify.images[] | .result] == [\"good\", \"good\"] and .verify.images[0].operations == 2' >/dev/null"
mkdir ex
check "extract" run_rc 0 $FV ota extract ota/ota.zip --output-dir=ex
check "  said" sh -c "grep -qx 'result: ok' '$T/out' && grep -qx 'image system: good, written to ex/system.img' '$T/out'"
check "  system.img is the generator's" test "$(sha256sum <ex/system.img | cut -c1-64)" = $SYS
check "  vbmeta.img is the generator's" test "$(sha256sum <ex/vbmeta.img | cut -c1-64)" = $VBM
check "  nothing else in the directory" test "$(ls -A ex | tr '\n' ' ')" = "system.img vbmeta.img "
check "extract from the bare payload, one partition" run_rc 0 $FV ota extract ota/payload.bin --output-dir=ex --partition=vbmeta
check "extract --json" sh -c "$FV ota extract --json ota/ota.zip --output-dir=ex --partition=vbmeta | jq -e '.extract.result == \"ok\" and .extract.images[0].path == \"ex/vbmeta.img\"' >/dev/null"
check "extract: a partition not in the payload refused" run_rc 1 $FV ota extract ota/ota.zip --output-dir=ex --partition=vbmeta,nope
check "  named" grep -q "no partition nope in the payload" "$T/err"
check "extract without --output-dir refused" run_rc 1 $FV ota extract ota/ota.zip
check "extract into a missing directory: exit 1" run_rc 1 $FV ota extract ota/ota.zip --output-dir=missing/dir
mkdir -p inp && cp ota/ota.zip inp/vbmeta.img
check "extract of inp/vbmeta.img into inp: exit 1 (the package never written over)" run_rc 1 $FV ota extract inp/vbmeta.img --output-dir=inp --partition=vbmeta
check "  said, the package as it was" sh -c "grep -q 'inp/vbmeta.img: is the input' '$T/err' && cmp -s inp/vbmeta.img ota/ota.zip"
# every operation type of a full payload: xz, bz, raw, zstd, ZERO, DISCARD,
# extents out of order, a REPLACE short of its last block
if command -v zstd >/dev/null; then ops=zstd,xz,bz,raw; else ops=xz,bz,raw; fi
check "a package of every full operation" gen every --ops $ops --extra
check "  verify: all good" run_rc 0 $FV ota verify every/ota.zip
check "  four images" test "$(grep -c '^image .*: good$' "$T/out")" = 4
mkdir ev
check "  extract" run_rc 0 $FV ota extract every/ota.zip --output-dir=ev
check "  zeros.img: 64 KiB of zeros" cmp ev/zeros.img <(head -c 65536 /dev/zero)
check "  scatter.img: out of order, not whole blocks" test "$(stat -c %s ev/scatter.img)" = 24526
check "  system.img the same whatever the compressions" test "$(sha256sum <ev/system.img | cut -c1-64)" = $SYS
# each broken package: the image named bad, no image left
bad_image() { # WHAT DIR IMAGE WANT [SOURCE]
	local s=${5:+--source=$5}
	if ! run_rc 2 $FV ota verify $s "$2/ota.zip"; then fail "$1: verify exit"; return; fi
	if ! grep -qF -- "image $3: $4" "$T/out"; then sed 's/^/  | /' "$T/out" >&2; fail "$1: verify"; return; fi
	rm -rf bx && mkdir bx
	if ! run_rc 2 $FV ota extract $s "$2/ota.zip" --output-dir=bx; then fail "$1: extract exit"; return; fi
	if [ -e "bx/$3.img" ] || ls -A bx | grep -q "^\.$3"; then ls -A bx >&2; fail "$1: an image left"; return; fi
	pass "$1"
}
gen th --tamper hash && bad_image "a wrong new_partition_info.hash" th vbmeta "bad (new_partition_info.hash differs: the image's SHA-256 is $VBM)"
gen td --tamper data && bad_image "a blob changed (signed after)" td system "bad (operation 0 (REPLACE_XZ): its data is not its data_sha256_hash)"
gen tc --tamper cut && bad_image "an xz blob cut short" tc system "bad (operation 0 (REPLACE_XZ): not a valid xz stream)"
check "a dst extent past its partition (signed)" gen te --tamper extent
bad "  info refuses it, the field named" te/ota.zip "partition vbmeta: operation 0: dst_extents[0] (blocks 1+3) goes past the partition's 3 blocks"
check "  verify: exit 1, nothing written by extract" sh -c "! $FV ota verify te/ota.zip >/dev/null 2>&1; mkdir -p bte; ! $FV ota extract te/ota.zip --output-dir=bte >/dev/null 2>&1; test -z \"\$(ls -A bte)\""
gen tx --tamper delta && bad_image "a delta operation" tx vbmeta "not applied (operation 0: SOURCE_COPY: a delta operation, it needs the source image (--source))"
check "  the good images still written" test -s bx/system.img

# the hash tree and FEC the device makes (hash_tree_*, fec_*): over an
# image made by fastverity avb add_hashtree_footer, the operations leave
# them out; regenerated byte for byte, the image's hash holds
verity_spec() { # IMAGE ALG: the descriptor's values, as the generator takes them
	$FV avb info_image --image "$1" | awk -F': *' -v alg="$2" '/Image Size:/{is=$2+0} /Tree Offset/{to=$2} /Tree Size/{ts=$2+0}
		/FEC num roots/{r=$2} /FEC offset/{fo=$2} /FEC size/{fs=$2+0} /Salt:/{s=$2}
		END{print is":"to":"ts":"fo":"fs":"r":"s":"alg}'
}
head -c $((6 * 1048576 + 12288)) /dev/urandom >odm.img
check "an AVB hashtree image (sha1, 4 roots)" run_rc 0 $FV avb add_hashtree_footer --image odm.img \
	--partition_size $((8 * 1048576)) --partition_name odm --hash_algorithm sha1 --salt 0a0b --fec_num_roots 4
check "  an OTA whose tree and FEC the device makes" gen ver --verity "odm=odm.img:$(verity_spec odm.img SHA1)"
check "  info: its verity fields" sh -c "$FV ota info ver/payload.bin | grep -qx '      hash_tree_algorithm: SHA1' && $FV ota info ver/payload.bin | grep -qx '      fec_roots: 4'"
check "  verify: good" run_rc 0 $FV ota verify ver/ota.zip
check "  said" vline "image odm: good"
mkdir evr
check "  extract" run_rc 0 $FV ota extract ver/ota.zip --output-dir=evr --partition=odm
check "  the image byte for byte, tree and FEC included" cmp evr/odm.img odm.img
head -c 1048576 /dev/urandom >nofec.img
check "an AVB hashtree image without FEC (sha256)" run_rc 0 $FV avb add_hashtree_footer --image nofec.img \
	--partition_size $((2 * 1048576)) --partition_name vendor --hash_algorithm sha256 --salt 00112233 --do_not_generate_fec
check "  an OTA of it" gen vnf --verity "vendor=nofec.img:$(verity_spec nofec.img sha256)"
check "  verify: good" run_rc 0 $FV ota verify vnf/ota.zip
gen vs --verity "odm=odm.img:$(verity_spec odm.img sha1)" --tamper salt &&
	bad_image "a wrong hash_tree_salt" vs odm "bad (new_partition_info.hash differs"
gen vr --verity "odm=odm.img:$(verity_spec odm.img sha1)" --tamper roots &&
	bad_image "a wrong fec_roots" vr odm "bad (fec_extent: 114688 bytes, the parity of fec_data_extent is 172032)"

# a run interrupted (SIGINT, as Ctrl-C) leaves no temporary file: the
# image being written is unnamed (O_TMPFILE) until its commit
truncate -s 64M big.img
$FV avb add_hashtree_footer --image big.img --partition_size $((72 * 1048576)) --partition_name big \
	--hash_algorithm sha256 --salt 01 >/dev/null 2>&1
check "a package of a 72 MiB partition" gen big --verity "big=big.img:$(verity_spec big.img sha256)"
for t in 0.05 0.2 0.4; do
	rm -rf ebig && mkdir ebig
	timeout -s INT $t $FV ota extract big/ota.zip --output-dir=ebig >/dev/null 2>&1
	check "interrupted after ${t} s: no temporary file left" test -z "$(ls -A ebig | grep '^\.')"
done

# deltas: SOURCE_COPY, SOURCE_BSDIFF (BSDIFF40), BROTLI_BSDIFF (BSDF2)
# from --source=DIR (NAME.img), checked against old_partition_info first
check "a delta package" gen dl --delta
check "  info: a delta, its operations" sh -c "$FV ota info dl/payload.bin | grep -qx '  type: delta' && $FV ota info dl/payload.bin | grep -qx '        BROTLI_BSDIFF: 3'"
check "  verify without --source: the delta not applied (exit 2)" run_rc 2 $FV ota verify dl/ota.zip
check "  named" vline "image system: not applied (operation 0: SOURCE_COPY: a delta operation, it needs the source image (--source))"
check "  verify --source: good" run_rc 0 $FV ota verify --source=dl/source dl/ota.zip
check "  said" vline "image system: good"
mkdir edl
check "  extract --source" run_rc 0 $FV ota extract --source=dl/source --output-dir=edl dl/ota.zip
check "  system.img the target's" test "$(sha256sum <edl/system.img | cut -c1-64)" = $SYS
check "  vbmeta.img the target's" test "$(sha256sum <edl/vbmeta.img | cut -c1-64)" = $VBM
if command -v img2simg >/dev/null; then
	mkdir sps && img2simg dl/source/system.img sps/system.img
	check "  a sparse source image (img2simg's)" run_rc 0 $FV ota verify --source=sps dl/ota.zip
	check "  said" vline "image system: good"
fi
mkdir src2 && cp dl/source/system.img src2/ && flip src2/system.img 5000
check "  a source image changed: exit 2" run_rc 2 $FV ota verify --source=src2 dl/ota.zip
check "  named" grep -q "^image system: bad (source image src2/system.img: not old_partition_info.hash, its SHA-256 is [0-9a-f]*)$" "$T/out"
check "  a source image missing: not applied" run_rc 2 $FV ota verify --source=nowhere dl/ota.zip
check "  named" grep -q "^image system: not applied (its source image: nowhere/system.img" "$T/out"
gen ds --delta --tamper srchash && bad_image "a wrong src_sha256_hash" ds system "bad (operation 1 (SOURCE_BSDIFF): its source data is not its src_sha256_hash)" ds/source

# --avb-key: the images as one AVB set (vbmeta signed by the key, its
# hash and hashtree descriptors checked against the images)
openssl genrsa -out avb.pem 2048 2>/dev/null
head -c 300000 /dev/urandom >boot.img
head -c 1048576 /dev/urandom >sys.img
$FV avb add_hash_footer --image boot.img --partition_size $((512 * 1024)) --partition_name boot >/dev/null 2>&1
$FV avb add_hashtree_footer --image sys.img --partition_size $((2 * 1048576)) --partition_name system \
	--hash_algorithm sha256 >/dev/null 2>&1
$FV avb make_vbmeta_image --output vbm.img --key avb.pem --algorithm SHA256_RSA2048 \
	--include_descriptors_from_image boot.img --include_descriptors_from_image sys.img >/dev/null 2>&1
check "an OTA of an AVB set" gen av --image boot=boot.img --image system=sys.img --image vbmeta=vbm.img
check "  verify --avb-key: good" run_rc 0 $FV ota verify --avb-key=avb.pem av/ota.zip
check "  said" vline "avb: good"
check "  nothing left in the temporary directory" test -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'fastverity-ota.*' -newer av/ota.zip)"
openssl genrsa -out avb2.pem 2048 2>/dev/null
check "  another key: exit 2" run_rc 2 $FV ota verify --avb-key=avb2.pem av/ota.zip
check "  named" grep -q "^avb: bad (vbmeta.img: the vbmeta is signed by another key" "$T/out"
check "  --json: the verdict, no removed path" sh -c "$FV ota verify --json --avb-key=avb2.pem av/ota.zip | jq -e '.verify.result == \"bad\" and (.verify.avb | startswith(\"bad (\")) and ([.verify.images[] | has(\"path\")] | any | not)' >/dev/null"
# a validly signed package whose AVB image is broken: caught
cp sys.img sys2.img && flip sys2.img 4096
check "an OTA of a broken AVB image, validly signed" gen av2 --image boot=boot.img --image system=sys2.img --image vbmeta=vbm.img
check "  verify without --avb-key: good" run_rc 0 $FV ota verify av2/ota.zip
check "  verify --avb-key: exit 2" run_rc 2 $FV ota verify --avb-key=avb.pem av2/ota.zip
check "  the system image named" grep -q "^avb: bad (system.img: " "$T/out"
check "  a package whose vbmeta image is bad: exit 2" run_rc 2 $FV ota verify --avb-key=avb.pem th/ota.zip
check "  said" vline "avb: missing (no good vbmeta image to start from)"
# Android 17's ML-DSA: a vbmeta signed with MLDSA65 checked as one set
$FV avb generate_key --algorithm MLDSA65 --output ml.pem >/dev/null 2>&1
$FV avb make_vbmeta_image --output vbml.img --key ml.pem --algorithm MLDSA65 \
	--include_descriptors_from_image boot.img --include_descriptors_from_image sys.img >/dev/null 2>&1
check "an OTA of an ML-DSA-signed AVB set" gen avml --image boot=boot.img --image system=sys.img --image vbmeta=vbml.img
check "  verify --avb-key (ML-DSA-65): good" run_rc 0 $FV ota verify --avb-key=ml.pem avml/ota.zip
check "  said" vline "avb: good"
check "  an RSA key for it: exit 2" run_rc 2 $FV ota verify --avb-key=avb.pem avml/ota.zip

# paycheck (update_engine's checker, not packaged, not kept here:
# tests/ota/README.md) as an oracle where one is given: what it accepts
# fastverity accepts, what it refuses fastverity names
PCD=${PAYCHECK_DIR:-$TOP/../shared/ota}
PC="$PY $PCD/run_paycheck.py -k $T/pc.pub"
openssl pkey -in "$G/keys/payload-test-key.pem" -pubout -out "$T/pc.pub" 2>/dev/null
if [ ! -f "$PCD/run_paycheck.py" ]; then
	skip "paycheck: no copy given (PAYCHECK_DIR: AOSP update_engine's scripts, not packaged)"
elif $PY -c 'import six' 2>/dev/null; then
	check "paycheck accepts the full package" sh -c "$PC -c -t full -s 295 ota/payload.bin 2>/dev/null"
	check "paycheck accepts the SHA-1 whole-file one's payload" sh -c "$PC -c -t full sha1/payload.bin 2>/dev/null"
	check "paycheck accepts the delta (minor 7)" sh -c "$PC -c -t delta dl/payload.bin 2>/dev/null"
	check "  fastverity too" run_rc 0 $FV ota verify --source=dl/source dl/ota.zip
	check "paycheck refuses the changed blob" sh -c "! $PC -c -t full td/payload.bin 2>&1 | grep -q 'data_sha256_hash.*does not match'; test \$? = 1"
	check "  fastverity too" run_rc 2 $FV ota verify td/ota.zip
	check "paycheck refuses bytes after the payload signature" sh -c "$PC -c -t full pj.bin 2>&1 | grep -q 'different from actual file size'"
else
	skip "paycheck: python3-six is not installed (make deps installs it)"
fi

# the command line
check "ota --help" run_rc 0 $FV ota --help
check "ota --help lists info" grep -q "info" "$T/out"
check "ota info --help" run_rc 0 $FV ota info --help
check "ota info --help shows --json" grep -q -- "--json" "$T/out"
check "ota verify --help shows --cert" sh -c "$FV ota verify --help | grep -q -- --cert"
check "ota extract --help shows --output-dir" sh -c "$FV ota extract --help | grep -q -- --output-dir"
check "  with its value (--output-dir=DIR, not --output-dirDIR)" sh -c "$FV ota extract --help | grep -q -- '--output-dir=DIR ' && $FV ota verify --help | grep -q -- '--cert=PEM '"
check "ota extract --cert: refused (verify's)" run_rc 1 $FV ota extract --cert=x --output-dir=out ota/ota.zip
check "ota info --cert: refused (verify's)" run_rc 1 $FV ota info --cert=x ota/ota.zip
check "ota alone: usage, exit 1" run_rc 1 $FV ota
check "ota nope: refused" run_rc 1 $FV ota nope
check "ota info --nope: refused" run_rc 1 $FV ota info --nope ota/ota.zip
check "ota info with two packages: refused" run_rc 1 $FV ota info ota/ota.zip ota/payload.bin
check "help ota" run_rc 0 $FV help ota
finish
