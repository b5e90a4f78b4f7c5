# Issue 57, 8: Ctrl-C, a kill, a closed terminal (SIGINT, SIGTERM,
# SIGHUP) in the middle of format, update, repair, avb's
# add_hashtree_footer (in place and staged), a signing helper's run, lp
# unpack, ota extract and ota verify --avb-key: the command
# dies of the signal (exit 128 + it), no temporary file (.NAME.XXXXXX)
# is left in the directory, and every output is absent or as it was
# (cmp), or for the writers in place (update, repair) in the documented
# state that the same command run again completes. "Mid-run": the
# signal is sent once the command has read a part of its input
# (/proc/PID/io), never after a fixed sleep; a run that ended first is
# tried again with a lower mark, and one never caught is a SKIP, not a
# failure.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
# the command itself, not build/fvjson's wrapper: the signal goes to it
FVC=$FV_REAL
if ! env --default-signal=INT true 2>/dev/null || [ ! -r /proc/self/io ]; then
	skip "env --default-signal (coreutils 9.1) or /proc/PID/io is missing"
	finish
	exit 0
fi
MIB=256 WAITFOR='' DONE=0
gen 57 $((MIB << 20)) >d

# reached PID BYTES: 0 once PID has read BYTES (after WAITFOR, a glob,
# names a file, when it is set: BYTES more than it had read then), 1
# when it ended first
reached() {
	local pid=$1 want=$2 k v st from=
	[ -n "$WAITFOR" ] || from=0
	for _ in $(seq 20000); do
		read -r _ _ st _ <"/proc/$pid/stat" 2>/dev/null || return 1
		[ "$st" = Z ] && return 1
		while read -r k v; do
			[ "$k" = rchar: ] || continue
			# shellcheck disable=SC2086
			[ -z "$from" ] && compgen -G "$WAITFOR" >/dev/null && from=$v
			[ -n "$from" ] && [ "$v" -ge $((from + want)) ] && return 0
		done <"/proc/$pid/io" 2>/dev/null
	done
	return 1
}

# interrupt SIG PREPARE CMD...: PREPARE (a function: the files as they
# were before the run), then CMD with the signals' default actions (a
# background job of a script ignores SIGINT) and SIG once it has read a
# quarter of the data (then a sixteenth, then 1 MiB, when it ended
# first). rc: its exit status; caught=1 when it was signalled while it
# ran (a run that ended first exits DONE, 0 unless set).
interrupt() {
	local sig=$1 prep=$2 pid mark
	shift 2
	caught=0 tries=0
	for mark in $((MIB << 18)) $((MIB << 16)) $((1 << 20)); do
		tries=$((tries + 1))
		"$prep"
		env --default-signal=INT,TERM,HUP,QUIT "$@" >/dev/null 2>sig.err &
		pid=$!
		if reached $pid $mark; then
			kill -s "$sig" $pid 2>/dev/null
			wait $pid 2>/dev/null
			rc=$?
			[ $rc = "$DONE" ] || { caught=1; return; }
		else
			wait $pid 2>/dev/null
			rc=$?
			[ $rc = "$DONE" ] || return
		fi
	done
}

# no_temporaries: nothing in the directory but the test's own files (none
# of which starts with a dot); what was left is removed (the next check
# stands alone)
no_temporaries() {
	local left
	left=$(find . -name '.*' ! -name . -printf '%P ')
	[ -z "$left" ] && return 0
	echo "  left: $left" >&2
	find . -name '.*' ! -name . -delete
	return 1
}

# judged WHAT SIG: exit 128 + SIG and no temporary file, or a SKIP when
# every run ended before the signal
judged() {
	local what=$1 sig=$2 n
	n=$(kill -l "$sig")
	if [ $caught = 0 ]; then
		if [ $rc = "$DONE" ]; then
			skip "$what, SIG$sig: every run ended before the signal"
		else
			fail "$what, SIG$sig: exit $rc before the signal"
			sed 's/^/  | /' sig.err >&2
		fi
		return 1
	fi
	echo "  $what, SIG$sig: caught at the run $tries ($(date +%s.%N))" >&2
	check "$what, SIG$sig: exit $((128 + n))" test $rc = $((128 + n))
	check "$what, SIG$sig:   no temporary file left" no_temporaries
}

# absent_or_same FILE OLD: FILE is not there (OLD "-") or holds OLD's bytes
absent_or_same() {
	if [ "$2" = - ]; then test ! -e "$1"; else cmp -s "$1" "$2"; fi
}

SIGS="INT TERM HUP"

# format: new outputs (none there: none after), and old ones replaced
# (the old bytes after)
"$FVC" format d old.h --fec-device=old.f --root-hash-file=old.rh --salt=01 >/dev/null
fresh() { rm -f h f rh; }
olds() { files_copy old.h h old.f f old.rh rh; }
for sig in $SIGS; do
	interrupt "$sig" fresh "$FVC" format d h --fec-device=f --root-hash-file=rh
	judged "format, new outputs" "$sig" &&
		check "format, new outputs, SIG$sig:   none written" \
			sh -c 'test ! -e h && test ! -e f && test ! -e rh'
	interrupt "$sig" olds "$FVC" format d h --fec-device=f --root-hash-file=rh
	judged "format over old outputs" "$sig" &&
		check "format over old outputs, SIG$sig:   the old ones as they were" \
			files_same h old.h f old.f rh old.rh
done

# update (in place, under its marker): the same update run again
# completes it, or it had completed; its root hash file absent or whole
cp d d2
for off in 3 97 1000 20000 50000; do
	printf 'changed' | dd of=d2 bs=4096 seek=$off conv=notrunc status=none
done
"$FVC" format d u.h --fec-device=u.f --salt=02 --uuid=$UUID >u.out
old=$(root_of u.out)
"$FVC" format d2 n.h --fec-device=n.f --salt=02 --uuid=$UUID >n.out
new=$(root_of n.out)
upd() { rm -f rn; files_copy u.h h u.f f; }
for sig in $SIGS; do
	interrupt "$sig" upd "$FVC" update d2 h "$old" --fec-device=f --root-hash-file=rn
	judged "update" "$sig" || continue
	check "update, SIG$sig:   its root hash file absent or whole" \
		sh -c "test ! -e rn || test \"\$(cat rn)\" = $new"
	if "$FVC" update d2 h "$old" --fec-device=f >/dev/null 2>&1 ||
		"$FVC" verify d2 h "$new" --fec-device=f >/dev/null 2>&1; then
		check "update, SIG$sig:   run again, the new tree and parity" files_same h n.h f n.f
	else
		fail "update, SIG$sig:   run again, neither completed nor complete"
	fi
done

# repair (in place: blocks the tree proves): run again, it completes
"$FVC" format d r.h --fec-device=r.f --salt=03 >r.out
rroot=$(root_of r.out)
cp d rd
# the damage done again before each run (repair writes only those blocks)
rep() {
	for off in 10 5000 16000 30000 45000 60000; do
		printf 'damage' | dd of=rd bs=4096 seek=$off conv=notrunc status=none
	done
}
for sig in $SIGS; do
	interrupt "$sig" rep "$FVC" repair rd r.h "$rroot" --fec-device=r.f
	judged "repair" "$sig" || continue
	"$FVC" repair rd r.h "$rroot" --fec-device=r.f >/dev/null 2>&1
	check "repair, SIG$sig:   run again, the data whole" files_same rd d
done

# avb add_hashtree_footer (on 128 MiB): a first run in place (the data
# cut back to itself), and one over a footer with another salt (staged:
# the old image stays)
MIB=128
AVB="avb add_hashtree_footer --partition_name system --hash_algorithm sha256"
head -c $((MIB << 20)) d >a
cp a footed
# shellcheck disable=SC2086
"$FVC" $AVB --image footed --salt 00 >/dev/null
# (copied again only when a run changed it)
raw() { files_same img a 2>/dev/null || files_copy a img; }
foot() { files_same img footed 2>/dev/null || files_copy footed img; }
for sig in $SIGS; do
	# shellcheck disable=SC2086
	interrupt "$sig" raw "$FVC" $AVB --image img --salt 01
	judged "avb add_hashtree_footer, first run" "$sig" &&
		check "avb add_hashtree_footer, first run, SIG$sig:   the data as it was" files_same img a
done
for sig in $SIGS; do
	# shellcheck disable=SC2086
	interrupt "$sig" foot "$FVC" $AVB --image img --salt 01
	judged "avb add_hashtree_footer over a footer" "$sig" &&
		check "avb add_hashtree_footer over a footer, SIG$sig:   the old image" files_same img footed
done

# a file system without O_TMPFILE (NFS, vfat, overlayfs before Linux
# 6.6), as an LD_PRELOAD shim makes every one: the temporary files are
# named, .NAME.XXXXXX; the command's handler removes them (the signal
# once they are there)
cat >notmp.c <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#define SHIM(name) \
int name(const char *path, int flags, ...) \
{ \
	static int (*real)(const char *, int, ...); \
	va_list ap; \
	mode_t mode; \
	if ((flags & O_TMPFILE) == O_TMPFILE) { \
		errno = EOPNOTSUPP; \
		return -1; \
	} \
	if (!real) \
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
	va_start(ap, flags); \
	mode = va_arg(ap, mode_t); \
	va_end(ap); \
	return real(path, flags, mode); \
}
SHIM(open)
SHIM(open64)
EOF
if cc -shared -fPIC -O1 -o notmp.so notmp.c -ldl 2>notmp.err; then
	for sig in $SIGS; do
		WAITFOR=".h.*" MIB=256
		interrupt "$sig" olds env LD_PRELOAD="$T/notmp.so" "$FVC" format d h --fec-device=f --root-hash-file=rh
		judged "no O_TMPFILE: format over old outputs" "$sig" &&
			check "no O_TMPFILE: format over old outputs, SIG$sig:   the old ones as they were" \
				files_same h old.h f old.f rh old.rh
		WAITFOR=".img.*" MIB=128
		# shellcheck disable=SC2086
		interrupt "$sig" foot env LD_PRELOAD="$T/notmp.so" "$FVC" $AVB --image img --salt 01
		judged "no O_TMPFILE: avb add_hashtree_footer over a footer" "$sig" &&
			check "no O_TMPFILE: avb add_hashtree_footer over a footer, SIG$sig:   the old image" \
				files_same img footed
	done
	# the other signals that end a process by default (the quit key,
	# a reader gone, an alarm, a CPU limit, SIGUSR1): their temporary
	# files removed too
	for sig in QUIT PIPE ALRM XCPU USR1; do
		WAITFOR=".h.*" MIB=256
		interrupt "$sig" olds env LD_PRELOAD="$T/notmp.so" "$FVC" format d h --fec-device=f --root-hash-file=rh
		judged "no O_TMPFILE: format over old outputs" "$sig" &&
			check "no O_TMPFILE: format over old outputs, SIG$sig:   the old ones as they were" \
				files_same h old.h f old.f rh old.rh
	done
	WAITFOR='' MIB=256
	# and a run to its end leaves none either
	check "no O_TMPFILE: a format run to its end" run_rc 0 env LD_PRELOAD="$T/notmp.so" "$FVC" format d h --fec-device=f
	check "  no temporary file left" no_temporaries
else
	fail "the shim without O_TMPFILE builds"
	sed 's/^/  | /' notmp.err >&2
fi

# avb make_vbmeta_image --signing_helper_with_files: the signal to the
# process group (as a terminal's Ctrl-C), while the helper runs: its
# private directory under TMPDIR removed, no vbmeta image
openssl genrsa -out k.pem 2048 2>/dev/null && openssl rsa -in k.pem -pubout -out k.pub 2>/dev/null
printf '#!/bin/sh\ntouch "$MARK"\nexec sleep 10\n' >slow
chmod +x slow
mkdir tmpd
for sig in $SIGS; do
	rm -f mark
	setsid env --default-signal=INT,TERM,HUP TMPDIR="$T/tmpd" MARK="$T/mark" "$FVC" avb make_vbmeta_image \
		--output v.img --key k.pub --algorithm SHA256_RSA2048 --signing_helper_with_files ./slow >/dev/null 2>sig.err &
	pid=$!
	for _ in $(seq 1000); do [ -e mark ] && break; sleep 0.01; done
	caught=0 tries=1
	[ -e mark ] && caught=1
	kill -s "$sig" -- -$pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	judged "avb make_vbmeta_image, a signing helper running" "$sig" || continue
	check "avb make_vbmeta_image, SIG$sig:   nothing left under TMPDIR, no image" \
		sh -c 'test -z "$(ls -A tmpd)" && test ! -e v.img'
	rm -rf tmpd/* v.img
done

# lp unpack (a super image of one 64 MiB partition, tests/cli/mksuper.py)
head -c $((64 << 20)) d >lsys.img
printf '{"device_size": %d, "slots": 2, "groups": [{"name": "default"}],\n "partitions": [{"name": "system_a", "image": "lsys.img"}]}\n' \
	$((72 << 20)) >super.json
if python3 "$TOP/tests/cli/mksuper.py" super.json super.img >/dev/null 2>&1; then
	MIB=64
	mkdir -p lp
	lpout() { rm -rf lp/* lp/.[!.]*; }
	for sig in $SIGS; do
		interrupt "$sig" lpout "$FVC" lp unpack super.img lp -p system_a
		judged "lp unpack" "$sig" || continue
		check "lp unpack, SIG$sig:   no temporary file in the output directory" \
			sh -c 'cd lp && test -z "$(find . -name ".*" ! -name .)"'
		check "lp unpack, SIG$sig:   its image absent or whole" \
			sh -c 'test ! -e lp/system_a.img || cmp -s lp/system_a.img lsys.img'
	done
	MIB=256
else
	fail "mksuper.py makes a super image of 64 MiB"
fi

# ota extract (32 MiB): a package of one partition (REPLACE operations)
PY=/usr/bin/python3
if $PY -c 'import google.protobuf' 2>/dev/null && command -v openssl >/dev/null; then
	G=$TOP/tests/ota
	head -c $((32 << 20)) d >sys.img
	if $PY "$G/make_test_ota.py" ota "$G/keys/payload-test-key.pem" "$G/keys/test-ota-cert.pem" \
		--ops raw --image system=sys.img >/dev/null 2>&1; then
		MIB=32
		mkdir -p ex
		ex() { rm -f ex/* ex/.[!.]*; }
		for sig in $SIGS; do
			interrupt "$sig" ex "$FVC" ota extract ota/payload.bin --output-dir=ex
			judged "ota extract" "$sig" || continue
			check "ota extract, SIG$sig:   no temporary file in the output directory" \
				sh -c 'cd ex && test -z "$(find . -name ".*" ! -name .)"'
			check "ota extract, SIG$sig:   its image absent or whole" \
				sh -c 'test ! -e ex/system.img || cmp -s ex/system.img sys.img'
		done
		# verify --avb-key writes the images into a private
		# directory under TMPDIR: removed with them (the signal
		# once the directory is there; a run to its end exits 2:
		# no vbmeta image in the package)
		WAITFOR="tmpd/fastverity-ota.*" DONE=2
		for sig in $SIGS; do
			interrupt "$sig" true env TMPDIR="$T/tmpd" "$FVC" ota verify --avb-key=k.pem ota/ota.zip
			judged "ota verify --avb-key" "$sig" || continue
			check "ota verify --avb-key, SIG$sig:   nothing left under TMPDIR" \
				sh -c 'test -z "$(ls -A tmpd)"'
			rm -rf tmpd/*
		done
		WAITFOR='' DONE=0
	else
		fail "the OTA generator makes a package of 32 MiB"
	fi
else
	skip "ota extract: python3-protobuf or openssl is not installed"
fi

finish
