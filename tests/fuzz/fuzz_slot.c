/* libFuzzer: the walk of a firmware set (fv_slot_verify) on any bytes.
 * The input's first half is the top vbmeta image (vbmeta.img), its
 * second half every image a one-letter chain or partition name finds
 * beside it (a.img ... e.img, the same file), so that chains lead
 * somewhere, and to themselves. Each walk, in the modes of every
 * printer (verify, avbtool's verify_image, print_partition_digests,
 * calculate_kernel_cmdline), ends or refuses, within its bounds: at
 * most 32 vbmetas read, every step a kind, a result and a message of
 * its own. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "include/fastverity.h"

static char dir[64], top[96], side[5][96];

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return;
}

static void put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
		abort();
}

static void walk(unsigned flags)
{
	struct fv_slot_request req = {.size = sizeof(req)};
	size_t vbmetas = 0;
	fv_slot *s = NULL;

	req.image = top;
	req.flags = flags;
	if (!fv_slot_verify(&req, NULL, NULL, NULL, &s)) {
		struct fv_slot_info in = {.size = sizeof(in)};

		if (fv_slot_info(s, &in))
			abort();
		for (size_t i = 0; i < in.steps; i++) {
			struct fv_slot_step st = {.size = sizeof(st)};

			if (fv_slot_step(s, i, &st) || !st.message ||
			    !st.name || !st.path ||
			    (st.parent != SIZE_MAX && st.parent >= i))
				abort();
			if (st.kind == FV_SLOT_VBMETA)
				vbmetas++;
			if (st.kind < FV_SLOT_VBMETA ||
			    st.kind > FV_SLOT_PARTITION ||
			    st.result > FV_SLOT_ERROR)
				abort();
		}
		if (vbmetas > 33) /* the 33rd is the refusal */
			abort();
		for (size_t i = 0; i < in.notes; i++)
			if (!in.note || !in.note[i])
				abort();
	}
	fv_slot_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t half = size / 2;

	if (!dir[0]) {
		strcpy(dir, "/tmp/fv-fuzz-slot-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(top, sizeof(top), "%s/vbmeta.img", dir);
		for (int k = 0; k < 5; k++)
			snprintf(side[k], sizeof(side[k]), "%s/%c.img", dir,
				 'a' + k);
		atexit(cleanup);
	}
	put(top, data, half);
	for (int k = 0; k < 5; k++)
		put(side[k], data + half, size - half);
	walk(FV_SLOT_CHECK | FV_SLOT_FOLLOW);
	walk(FV_SLOT_CHECK | FV_SLOT_FOLLOW | FV_SLOT_STOP | FV_SLOT_EXPECTED);
	walk(FV_SLOT_FOLLOW | FV_SLOT_FOLLOW_NESTED);
	walk(FV_SLOT_FOLLOW);
	return 0;
}
