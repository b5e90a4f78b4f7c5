# Random parameters against veritysetup: format (0 or 1), digest, data
# and hash block sizes, salt length, image size (a few blocks to 64 MiB,
# so that windows span one parent or many), threads, and sometimes FEC
# roots, --data-blocks, or no superblock and a hash offset, drawn from a
# seed. The same root, and byte-identical hash image and parity;
# fastverity verifies veritysetup's image; in one case of three a changed
# byte is found where veritysetup finds it, with its exit code. make check runs SWEEP_CASES
# (16) cases from a fixed seed; `make sweep` runs more from a new seed
# each time (SWEEP_SEED=N repeats a run). A failure names the seed and
# the case.
. "$(dirname "$0")/lib.sh"

seed=${SWEEP_SEED:-20261201}
cases=${SWEEP_CASES:-16}
RANDOM=$seed
hashes=(sha1 sha256 sha256 sha512 sha224 sha384)
sizes=(512 1024 2048 4096 4096 8192 65536)
gen 9 $((64 << 20)) >"$T/pool"
bad=0
for i in $(seq "$cases"); do
	fmt=$((RANDOM % 2)) hash=${hashes[$((RANDOM % ${#hashes[@]}))]}
	dbs=${sizes[$((RANDOM % ${#sizes[@]}))]} hbs=${sizes[$((RANDOM % ${#sizes[@]}))]}
	[ $((RANDOM % 2)) = 0 ] && hbs=$dbs
	# a third of the images small (1 to 300 blocks), the rest up to
	# 64 MiB
	blocks=$(((RANDOM * 32768 + RANDOM) % ((64 << 20) / dbs) + 1))
	[ $((RANDOM % 3)) = 0 ] && blocks=$((RANDOM % 300 + 1))
	salt=$(head -c $((RANDOM % 70)) "$T/pool" | od -An -tx1 | tr -d ' \n')
	threads=$((RANDOM % 3 + 1))
	# parity in one case of four where the block sizes agree (2 or 3
	# roots are built with the tree)
	roots=0
	[ "$dbs" = "$hbs" ] && [ $((RANDOM % 4)) = 0 ] && roots=$((RANDOM % 23 + 2))
	head -c $((blocks * dbs)) "$T/pool" >"$T/data"
	params="--format=$fmt --hash=$hash --data-block-size=$dbs --hash-block-size=$hbs --salt=${salt:--}"
	# one case in five protects only the first blocks; one in five has
	# no superblock (verify is given the parameters again) and the tree
	# at an offset (a multiple of the hash block: fastverity refuses
	# others, where veritysetup writes the tree at byte 0)
	vargs=""
	[ $((RANDOM % 5)) = 0 ] && params="$params --data-blocks=$((RANDOM % blocks + 1))"
	if [ $((RANDOM % 5)) = 0 ]; then
		params="$params --no-superblock --hash-offset=$((RANDOM % 8 * hbs))"
		vargs=$params
	fi
	args="$params --uuid=$UUID"
	what="seed $seed case $i: $blocks blocks, $args --threads=$threads"
	rm -f "$T/vs.h" "$T/fv.h" "$T/vs.fec" "$T/fv.fec"
	vf="" ff=""
	if [ $roots != 0 ]; then
		what="$what --fec-roots=$roots"
		vf="--fec-device=$T/vs.fec --fec-roots=$roots" ff="--fec-device=$T/fv.fec --fec-roots=$roots"
	fi
	# shellcheck disable=SC2086
	$VS format "$T/data" "$T/vs.h" $args $vf >"$T/vs.out" 2>&1 || { bad=$((bad + 1)); echo "  veritysetup refused: $what" >&2; continue; }
	# shellcheck disable=SC2086
	"$FV" format "$T/data" "$T/fv.h" $args $ff --threads=$threads >"$T/fv.out" 2>&1
	root=$(root_of "$T/vs.out")
	if [ "$(root_of "$T/fv.out")" != "$root" ] || ! cmp -s "$T/vs.h" "$T/fv.h"; then
		bad=$((bad + 1)); echo "  root or hash image differs: $what" >&2
	elif [ $roots != 0 ] && ! cmp -s "$T/vs.fec" "$T/fv.fec"; then
		bad=$((bad + 1)); echo "  parity differs: $what" >&2
	# shellcheck disable=SC2086
	elif ! "$FV" verify "$T/data" "$T/vs.h" "$root" $vargs --threads=$threads >/dev/null 2>&1; then
		bad=$((bad + 1)); echo "  fastverity rejects veritysetup's image: $what" >&2
	elif [ $((RANDOM % 3)) = 0 ]; then
		# a byte of a protected block changed: both exit 2 (1 where
		# the one data block is the root's), and the first position
		# fastverity reports is the one veritysetup stops at
		# (fastverity goes on to report every bad block)
		protected=$blocks
		case $params in *--data-blocks=*) protected=${params##*--data-blocks=} protected=${protected%% *} ;; esac
		at=$(((RANDOM * 32768 + RANDOM) % (protected * dbs)))
		flip "$T/data" "$at"
		# shellcheck disable=SC2086
		$VS verify "$T/data" "$T/vs.h" "$root" $vargs >/dev/null 2>"$T/vs.err"
		vrc=$?
		# shellcheck disable=SC2086
		"$FV" verify "$T/data" "$T/vs.h" "$root" $vargs --threads=$threads >/dev/null 2>"$T/fv.err"
		frc=$?
		if [ $vrc = 0 ] || [ $frc != $vrc ] ||
			[ "$(grep -m1 '^Verification failed at' "$T/vs.err")" != "$(grep -m1 '^Verification failed at' "$T/fv.err")" ]; then
			bad=$((bad + 1)); echo "  byte $at changed: veritysetup exit $vrc, fastverity $frc, or another first position: $what" >&2
		fi
	fi
done
check "$cases random parameter sets (seed $seed): the same root, hash image and parity as veritysetup's, whose image fastverity verifies, and a changed byte found at its position" test $bad = 0

finish
