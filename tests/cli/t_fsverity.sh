# fastverity fsverity against fsverity-utils 1.5 (Debian's fsverity), the
# oracle: digest lines, --compact and --for-builtin-sig, the Merkle tree
# and descriptor files, for every option over files of 0 bytes to a few
# MiB (a sparse one, one large enough to be split across the threads),
# 2,000 files in one call; sign byte for byte; every bad input refused
# with one line, its exit code, nothing written. enable, measure and
# dump_metadata need a file system with fs-verity: the kernel test.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
if ! command -v fsverity >/dev/null; then
	skip "fsverity-utils (Debian's fsverity) is not installed: make deps installs it"
	finish
	exit 0
fi
FS="$FV fsverity"

# the files: every edge of a 4096-byte block, a tree of two levels, a
# sparse file, and one over the 8 MiB a single worker takes whole
sizes="0 1 4095 4096 4097 65537 $((1048576 + 1)) $((3 * 1048576 + 17))"
for n in $sizes; do gen $((n % 97 + 1)) "$n" >"f$n"; done
truncate -s $((5 * 1048576 + 3)) sparse
gen 5 12288 | dd of=sparse bs=4096 seek=300 conv=notrunc status=none
gen 6 $((9 * 1048576 + 5)) >large
files="$(for n in $sizes; do printf 'f%s ' "$n"; done)sparse large"
check "test files made" test -s large -a -s sparse

# same OPTIONS...: every file's digest line, tree and descriptor against
# fsverity's (with EXTRAS set, its --compact and --for-builtin-sig lines
# too); FVX: options of fastverity's alone
same() {
	local f ok=1
	for f in $files; do
		# shellcheck disable=SC2086
		"$FV" fsverity digest "$f" "$@" ${FVX:-} --out-merkle-tree=t.fv --out-descriptor=d.fv >o.fv 2>e.fv &&
			fsverity digest "$f" "$@" --out-merkle-tree=t.fu --out-descriptor=d.fu >o.fu 2>e.fu &&
			files_same o.fv o.fu t.fv t.fu d.fv d.fu || {
			echo "  $f $*: differs" >&2
			ok=0
		}
		[ -n "${EXTRAS:-}" ] || continue
		for extra in --compact --for-builtin-sig "--compact --for-builtin-sig"; do
			# shellcheck disable=SC2086
			[ "$("$FV" fsverity digest "$f" "$@" ${FVX:-} $extra)" = "$(fsverity digest "$f" "$@" $extra)" ] || {
				echo "  $f $* $extra: differs" >&2
				ok=0
			}
		done
	done
	[ $ok = 1 ]
}
EXTRAS=1 check "digest, tree and descriptor as fsverity's: the defaults" same
EXTRAS=1 check "  --hash-alg=sha512" same --hash-alg=sha512
check "  --hash-alg=sha256 given" same --hash-alg=sha256
for bs in 1024 2048 8192 16384 32768 65536; do
	check "  --block-size=$bs" same --block-size=$bs
done
check "  an empty --salt (no salt)" same --salt=
check "  a 1-byte salt" same --salt=ab
check "  a 31-byte salt" same --salt="$(printf '%062x' 31)"
check "  a 32-byte salt" same --salt=E48DA609055204E89AE53B655CA2216DD983CF3CB829F34F63A297D106D53E2D
EXTRAS=1 check "  sha512, 1024-byte blocks, a 17-byte salt" same --hash-alg=sha512 --block-size=1024 --salt="$(printf '%034x' 17)"
check "  sha512, 65536-byte blocks, a 32-byte salt" same --hash-alg=sha512 --block-size=65536 --salt=$SALT
FVX=--threads=1 check "  on one thread (fastverity's --threads)" same
FVX=--threads=3 check "  on three threads" same --block-size=1024

# many files in one call: the lines in the order given
mkdir many && cd many || exit 1
python3 - <<'EOF'
import random
r = random.Random(7)
for i in range(2000):
    n = r.randint(4096, 81920)
    open('m%04d' % i, 'wb').write(r.randbytes(n))
EOF
check "2000 files in one call: the lines of fsverity, in order" sh -c "$FS digest m* >../many.fv && fsverity digest m* >../many.fu && cmp ../many.fv ../many.fu && test \$(wc -l <../many.fv) = 2000"
check "  and files twice, with large ones between them" sh -c "$FS digest ../large m0* ../f0 ../large m0* >../many.fv && fsverity digest ../large m0* ../f0 ../large m0* >../many.fu && cmp ../many.fv ../many.fu"
cd "$T" || exit 1
check "several files with --out-merkle-tree: the last file's tree, as fsverity leaves it" sh -c "$FS digest f4097 f65537 --out-merkle-tree=t.fv >/dev/null && fsverity digest f4097 f65537 --out-merkle-tree=t.fu >/dev/null && cmp t.fv t.fu"

# a file that fails: the lines before it, then one message
check "a missing file among others: the lines before it, exit 1" run_rc 1 $FS digest f1 nosuch f4096
check "  the first file's line only" test "$(cat "$T/out")" = "$(fsverity digest f1)"
check "  one line naming it" sh -c "test \$(wc -l <'$T/err') = 1 && grep -q 'nosuch' '$T/err'"

# sign: byte for byte with fsverity sign (RSA signatures are
# deterministic), the output line as its
quiet() { "$@" >/dev/null 2>&1; }
quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -subj /CN=fsverity-test -days 30
quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout k2.pem -out c2.pem -subj /CN=other -days 30
for opts in "" "--hash-alg=sha512" "--block-size=1024 --salt=$SALT" "--hash-alg=sha512 --block-size=65536 --salt=01"; do
	# shellcheck disable=SC2086
	check "sign as fsverity sign${opts:+: $opts}" sh -c "$FS sign f65537 s.fv --key=k.pem --cert=c.pem $opts >o.fv && fsverity sign f65537 s.fu --key=k.pem --cert=c.pem $opts >o.fu && cmp s.fv s.fu && cmp o.fv o.fu"
done
check "sign --out-merkle-tree and --out-descriptor as fsverity's" sh -c "$FS sign large s.fv --key=k.pem --cert=c.pem --out-merkle-tree=t.fv --out-descriptor=d.fv >/dev/null && fsverity sign large s.fu --key=k.pem --cert=c.pem --out-merkle-tree=t.fu --out-descriptor=d.fu >/dev/null && cmp s.fv s.fu && cmp t.fv t.fu && cmp d.fv d.fu"
$FS digest f65537 --for-builtin-sig --compact | xxd -r -p >signed.bin
check "openssl verifies the signature over --for-builtin-sig's bytes" sh -c "$FS sign f65537 s2.fv --key=k.pem --cert=c.pem >/dev/null && openssl smime -verify -inform der -binary -in s2.fv -content signed.bin -certfile c.pem -CAfile c.pem -purpose any -out /dev/null 2>/dev/null"

# a key in a PKCS#11 token (SoftHSM 2), as fastverity sign takes it: the
# same signature as fsverity sign's with the key in a file
export SOFTHSM2_CONF="$T/softhsm2.conf"
mkdir -p "$T/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$T/tokens" >"$SOFTHSM2_CONF"
openssl pkcs8 -topk8 -nocrypt -in k.pem -out k8.pem
if softhsm2-util --init-token --free --label fsvtest --pin 1234 --so-pin 5678 >/dev/null 2>&1 &&
	softhsm2-util --import k8.pem --token fsvtest --label signkey --id 01 --pin 1234 >/dev/null 2>&1; then
	printf '1234\n' >pin.txt
	check "sign with a key in a token (pkcs11: URI): fsverity sign's bytes" sh -c "$FS sign f65537 s.fv --key='pkcs11:token=fsvtest;object=signkey;type=private' --cert=c.pem --key-passphrase-file=pin.txt >/dev/null && fsverity sign f65537 s.fu --key=k.pem --cert=c.pem >/dev/null && cmp s.fv s.fu"
else
	fail "pkcs11: SoftHSM token could not be set up"
fi

# bad inputs: one line, the exit code fsverity uses, nothing written
bad() { # WANT_RC DESCRIPTION WORD ARGS...: exit WANT_RC, one line naming WORD
	local rc=$1 what=$2 word=$3
	shift 3
	check "$what: exit $rc" run_rc "$rc" "$FV" fsverity "$@"
	check "  one line naming $word" sh -c "test \$(wc -l <'$T/err') = 1 && grep -qF -- '$word' '$T/err'"
}
bad 1 "a missing file" nosuch digest nosuch
bad 1 "a directory" "is a directory" digest "$T"
bad 1 "a character device" "character device" digest /dev/null
bad 2 "a block size that is no power of two" 3000 digest f1 --block-size=3000
bad 2 "a block size below 1024" 512 digest f1 --block-size=512
bad 2 "a block size above 65536" 131072 digest f1 --block-size=131072
bad 2 "a block size in hex" 0x1000 digest f1 --block-size=0x1000
bad 2 "a salt that is not hex" zz digest f1 --salt=zz
bad 2 "a salt of an odd number of digits" abc digest f1 --salt=abc
# salts fsverity refuses: a hex string of over 32 bytes when it computes
# the digest (exit 1, "unsupported salt size (N)"), anything else that is
# no even number of hex digits as a usage error (exit 2), whatever its
# length; fastverity the same, one line holding fsverity's words
salt_as_fsverity() { # WORDS SUBCOMMAND SALT
	local words=$1 sub=$2 salt=$3 want
	shift 3
	if [ "$sub" = sign ]; then set -- f1 none.sig --key=k.pem --cert=c.pem; else set -- f1; fi
	fsverity "$sub" "$@" --salt="$salt" >/dev/null 2>fu.err
	want=$?
	grep -q "^ERROR: .*$words" fu.err || {
		echo "  fsverity said: $(head -1 fu.err)" >&2
		return 1
	}
	run_rc "$want" "$FV" fsverity "$sub" "$@" --salt="$salt" &&
		test "$(wc -l <"$T/err")" = 1 && grep -qF -- "$words" "$T/err" &&
		test ! -e none.sig
}
check "a salt of 64 bytes: refused as fsverity refuses it, exit 1, its words" salt_as_fsverity "unsupported salt size (64)" digest "$(printf '%0128x' 64)"
check "  of 33 bytes" salt_as_fsverity "unsupported salt size (33)" digest "$(printf '%066x' 1)"
check "  of 64 bytes to sign" salt_as_fsverity "unsupported salt size (64)" sign "$(printf '%0128x' 64)"
check "  70 digits that are no hex: its usage error, exit 2" salt_as_fsverity "not a valid hex string" digest "$(printf 'z%.0s' $(seq 70))"
check "  65 hex digits (an odd number)" salt_as_fsverity "not a valid hex string" digest "$(printf 'a%.0s' $(seq 65))"
check "  3 hex digits" salt_as_fsverity "not a valid hex string" digest abc
bad 2 "an unknown hash" md5 digest f1 --hash-alg=md5
bad 2 "an option given twice" --block-size digest f1 --block-size=4096 --block-size=1024
bad 2 "an unknown option" --bogus digest f1 --bogus
bad 2 "no file" "no file" digest
bad 2 "an unknown command" bogus bogus
bad 1 "a Merkle tree over an input" "input" digest f1 --out-merkle-tree=f1
bad 2 "sign without OUT_SIGFILE" OUT_SIGFILE sign f1
bad 2 "sign without --key" --key sign f1 none.sig --cert=c.pem
bad 1 "sign with a key not of the certificate" "does not belong" sign f1 none.sig --key=k2.pem --cert=c.pem
bad 1 "sign with a certificate as the key" c.pem sign f1 none.sig --key=c.pem --cert=c.pem
bad 1 "sign a missing file" nosuch sign nosuch none.sig --key=k.pem --cert=c.pem
bad 1 "sign over the file signed" input sign f1 f1 --key=k.pem --cert=c.pem
bad 1 "the tree and the descriptor to one new file" "the Merkle tree is written there too" digest f1 --out-merkle-tree=one.out --out-descriptor=one.out
check "  nothing written" test ! -e one.out
bad 1 "the signature over the tree's file" "the Merkle tree is written there too" sign f1 two.out --key=k.pem --cert=c.pem --out-merkle-tree=two.out
bad 1 "sign --pkcs11-engine" pkcs11 sign f1 none.sig --key=k.pem --cert=c.pem --pkcs11-engine=x.so
bad 1 "sign with a key not of the certificate, --out-merkle-tree" "does not belong" sign f65537 none.sig --key=k2.pem --cert=c.pem --out-merkle-tree=none.tree --out-descriptor=none.desc
check "  no signature, tree or descriptor file written by any of them" test ! -e none.sig -a ! -e none.tree -a ! -e none.desc
bad 2 "dump_metadata of an unknown type" foo dump_metadata foo f1
bad 2 "dump_metadata --offset not a number" --offset dump_metadata descriptor f1 --offset=x
bad 1 "measure a file that is not a verity file here" f1 measure f1
bad 1 "enable a missing file" nosuch enable nosuch
# memory: the tree is made a block per level at a time, never held
# (the digest of a sparse file of 64 GiB was 533 MB resident, of 16 TiB
# more than the machine had; fsverity-utils needs about 5 MB). RSS_MAX:
# KiB resident at most (a few blocks, the workers' windows, the
# libraries; under ASan its shadow on top, and its quarantine of freed
# blocks made small: by default it keeps up to 256 MiB of them)
RSS_MAX=32768
RSS_ENV=
case "$FV_REAL" in *asan*)
	RSS_MAX=65536
	RSS_ENV="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
	;;
esac
small_rss() { # ARGS...: fastverity fsverity ARGS exits 0 under RSS_MAX
	local kib
	# shellcheck disable=SC2086
	env $RSS_ENV /usr/bin/time -f %M -o "$T/rss" "$FV_REAL" fsverity "$@" >"$T/out" 2>"$T/err" || return 1
	kib=$(tail -1 "$T/rss")
	[ "$kib" -lt "$RSS_MAX" ] || {
		echo "  $kib KiB resident: fastverity fsverity $*" >&2
		return 1
	}
}
if ! [ -x /usr/bin/time ]; then
	skip "the memory checks need /usr/bin/time (Debian's time)"
else
	# 1 GiB + 4097 bytes, sparse, data at 300 MiB and at its end;
	# 1 KiB blocks and SHA-512: a tree of 64 MiB
	truncate -s $((1024 * 1048576 + 4097)) big
	gen 9 100000 | dd of=big bs=1M seek=300 conv=notrunc status=none
	gen 10 5000 | dd of=big bs=1 seek=$((1024 * 1048576 + 4097 - 5000)) conv=notrunc status=none
	opts="--block-size=1024 --hash-alg=sha512"
	# shellcheck disable=SC2086
	fsverity digest big $opts --out-merkle-tree=tbig.fu --out-descriptor=dbig.fu >big.fu
	# shellcheck disable=SC2086
	check "a sparse file of 1 GiB, 1 KiB blocks, sha512: under $RSS_MAX KiB" small_rss digest big $opts
	check "  fsverity's digest" cmp "$T/out" big.fu
	# shellcheck disable=SC2086
	check "  with --out-merkle-tree (64 MiB): under $RSS_MAX KiB" small_rss digest big $opts --out-merkle-tree=tbig.fv --out-descriptor=dbig.fv
	check "  fsverity's digest, tree and descriptor" files_same "$T/out" big.fu tbig.fv tbig.fu dbig.fv dbig.fu
	rm -f tbig.fv
	# shellcheck disable=SC2086
	check "  sign too: under $RSS_MAX KiB" small_rss sign big sbig.fv --key=k.pem --cert=c.pem $opts --out-merkle-tree=tbig.fv
	check "  fsverity's tree" cmp tbig.fv tbig.fu
	rm -f big tbig.fu tbig.fv sbig.fv
	# 64 GiB of holes, the default parameters: the digest fsverity-utils
	# prints, after 6 minutes here
	truncate -s $((64 * 1024 * 1048576)) huge
	check "a sparse file of 64 GiB: under $RSS_MAX KiB" small_rss digest huge
	check "  the digest of its 16 Mi zero blocks" grep -qx "sha256:51776dbea37cac77003f68ecb7794242bbfba4912749fca03c66c7b96153d7bc huge" "$T/out"
	rm -f huge
fi

# past 4 GiB (make sweep; fsverity-utils takes 12 s over its zeros): a
# sparse file of 5 GiB + 4097 bytes, data at 4200 MiB and at 5 GiB
if [ -n "${FSV_LARGE:-}" ]; then
	truncate -s $((5 * 1024 * 1024 * 1024 + 4097)) big
	gen 9 100000 | dd of=big bs=1M seek=4200 conv=notrunc status=none
	gen 10 5000 | dd of=big bs=1 seek=$((5 * 1024 * 1024 * 1024)) conv=notrunc status=none
	check "a sparse file of 5 GiB: fsverity's digest" sh -c "test \"\$($FS digest big)\" = \"\$(fsverity digest big)\""
	check "  sha512, 65536-byte blocks, a salt" sh -c "test \"\$($FS digest big --hash-alg=sha512 --block-size=65536 --salt=ab)\" = \"\$(fsverity digest big --hash-alg=sha512 --block-size=65536 --salt=ab)\""
	if [ -x /usr/bin/time ]; then
		fsverity digest big --out-merkle-tree=tbig.fu >big.fu
		check "  under $RSS_MAX KiB with its tree written" small_rss digest big --out-merkle-tree=tbig.fv
		check "  fsverity's digest and tree" files_same "$T/out" big.fu tbig.fv tbig.fu
		rm -f tbig.fu tbig.fv
	fi
	rm -f big
fi
check "help: the commands" sh -c "$FS --help | grep -q dump_metadata"
check "digest --help: its options" sh -c "$FS digest --help | grep -q for-builtin-sig"
check "fastverity help fsverity: the commands" sh -c "$FV help fsverity | grep -q 'sign '"
finish
