/* verity/dm/activate.c: what open hands device-mapper, made without it
 * (the device's uuid and its signature key's name, veritysetup's; the
 * table of a pair formatted here, 300 blocks with a superblock, in a
 * file of its own with its parity in a third: where the tree and the
 * parity start, the flags, the signature's key); what open, close and
 * status refuse before device-mapper is asked (a name that is none, two
 * corruption policies: nothing opened); device-mapper missing (-ENOSYS;
 * close -ENODEV, veritysetup's exit 4) or a device not there (-ENODEV).
 * Where device-mapper works (root, /dev/mapper/control and the kernel's
 * dm-mod), the pair is opened, its status read back, refused a second
 * time, and closed; else that check is left out, said on stdout. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/dm/activate.h"
#include "verity/tree/format.h"

#define BS     4096u
#define BLOCKS 300u

static char dir[64];
static char *data_path, *hash_path, *fec_path;
static uint8_t root[HT_MAX_DIGEST_SIZE];
static uint8_t uuid[16];
static char name[32]; /* a device name no other run takes */

static void pair_of(struct verity_pair *p)
{
	memset(p, 0, sizeof(*p));
	verity_params_default(&p->params);
	p->params.salt_size = 4;
	memcpy(p->params.salt, "salt", 4);
	p->params.data_blocks = BLOCKS;
	memcpy(p->params.uuid, uuid, sizeof(uuid));
	p->data.path = data_path;
	p->hash.path = hash_path;
	p->fec.region.path = fec_path;
	p->fec.roots = 2;
	memcpy(p->root, root, sizeof(p->root));
	p->root_size = 32;
}

static void setup(void)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *b = malloc(BLOCKS * BS);
	FILE *f;

	data_path = unit_path(dir, "/tmp/fv-activate.XXXXXX", "data");
	hash_path = unit_path(dir, "/tmp/fv-activate.XXXXXX", "hash");
	fec_path = unit_path(dir, "/tmp/fv-activate.XXXXXX", "fec");
	snprintf(name, sizeof(name), "fv-unit-%ld", (long)getpid());
	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < BLOCKS * BS; i++)
		b[i] = (uint8_t)(i * 7 + i / BS);
	ck_assert_ptr_nonnull(f = fopen(data_path, "wb"));
	ck_assert_uint_eq(fwrite(b, 1, BLOCKS * BS, f), BLOCKS * BS);
	fclose(f);
	free(b);
	for (unsigned i = 0; i < 16; i++)
		uuid[i] = (uint8_t)(0x10 + i);
	pair_of(&p);
	p.root_size = 0;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	memcpy(root, p.root, sizeof(root));
}

static void teardown(void)
{
	unlink(data_path);
	unlink(hash_path);
	unlink(fec_path);
	rmdir(dir);
	free(data_path);
	free(hash_path);
	free(fec_path);
}

static const char UUID_HEX[] = "101112131415161718191a1b1c1d1e1f";

START_TEST(names)
{
	struct verity_params p;
	char u[VERITY_DM_UUID_MAX], d[VERITY_DM_KEY_DESC_MAX], want[200];

	verity_params_default(&p);
	memcpy(p.uuid, uuid, sizeof(uuid));
	verity_open_names("root", &p, u, d);
	snprintf(want, sizeof(want), "CRYPT-VERITY-%s-root", UUID_HEX);
	ck_assert_str_eq(u, want);
	snprintf(want, sizeof(want), "fastverity:%s-root", UUID_HEX);
	ck_assert_str_eq(d, want);
	/* no superblock: no UUID of its own */
	p.no_superblock = 1;
	verity_open_names("root", &p, u, d);
	ck_assert_str_eq(u, "CRYPT-VERITY-root");
	ck_assert_str_eq(d, "fastverity:-root");
}
END_TEST

/* The root's hex, as the table has it. */
static void root_hex(char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", root[i]);
}

START_TEST(table)
{
	struct verity_pair p;
	struct verity_devices d;
	struct ht_error err = {0};
	char t[2048], want[1024], hex[65], desc[VERITY_DM_KEY_DESC_MAX],
		u[VERITY_DM_UUID_MAX];
	static const uint8_t sig[] = {0x30, 0x03, 0x02, 0x01, 0x07};

	root_hex(hex);
	pair_of(&p);
	ck_assert_msg(verity_pair_open(&p, VERITY_OPEN_READ, VERITY_OPEN_READ,
				       &d, &err) == 0,
		      "%s", ht_msg(&err));
	/* the tree after the superblock's block; the parity over the 300
	 * data blocks and the tree's 4 (from where the tree starts, as the
	 * kernel reads the hash device), from its file's start */
	ck_assert_int_eq(verity_open_table(&p, "7:0", "7:1", "7:2", 0, "unused",
					   t, sizeof(t), &err),
			 0);
	snprintf(want, sizeof(want),
		 "1 7:0 7:1 4096 4096 300 1 sha256 %s 73616c74 8 "
		 "use_fec_from_device 7:2 fec_start 0 fec_blocks 304 "
		 "fec_roots 2",
		 hex);
	ck_assert_str_eq(t, want);
	/* without the parity, flags in the kernel's order, and a signed
	 * pair's key named as open names it */
	verity_open_names("root", &p.params, u, desc);
	p.signature = sig;
	p.signature_size = sizeof(sig);
	ck_assert_int_eq(verity_open_table(&p, "7:0", "7:1", NULL,
					   VERITY_ACT_CHECK_AT_MOST_ONCE |
						   VERITY_ACT_IGNORE_CORRUPTION,
					   desc, t, sizeof(t), &err),
			 0);
	snprintf(want, sizeof(want),
		 "1 7:0 7:1 4096 4096 300 1 sha256 %s 73616c74 4 "
		 "ignore_corruption check_at_most_once root_hash_sig_key_desc "
		 "fastverity:%s-root",
		 hex, UUID_HEX);
	ck_assert_str_eq(t, want);
	/* two corruption policies: refused, as the table refuses them */
	ck_assert_int_eq(
		verity_open_table(&p, "7:0", "7:1", NULL,
				  VERITY_ACT_IGNORE_CORRUPTION |
					  VERITY_ACT_PANIC_ON_CORRUPTION,
				  desc, t, sizeof(t), &err),
		-EINVAL);
	/* a table longer than its buffer */
	ck_assert_int_lt(
		verity_open_table(&p, "7:0", "7:1", NULL, 0, desc, t, 40, &err),
		0);
	verity_pair_close(&d);
}
END_TEST

/* Names and flags refused before device-mapper is asked, and before
 * the pair is opened (its files are none). */
START_TEST(refused_first)
{
	static const char *const bad[] = {"", "a/b", ".", ".."};
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_active st;
	struct verity_pair p;
	struct ht_error err = {0};
	char want[256], longname[200];

	memset(&p, 0, sizeof(p));
	verity_params_default(&p.params);
	p.data.path = "/nonexistent/data";
	p.hash.path = "/nonexistent/hash";
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (size_t i = 0; i < 5; i++) {
		const char *n = i < 4 ? bad[i] : longname;

		snprintf(want, sizeof(want), "%s: not a valid device name", n);
		ck_assert_int_eq(verity_open(n, &p, &run, &err), -EINVAL);
		ck_assert_str_eq(ht_msg(&err), want);
		ck_assert_int_eq(verity_close(n, VERITY_CLOSE_NOW, &err),
				 -EINVAL);
		ck_assert_str_eq(ht_msg(&err), want);
		ck_assert_int_eq(verity_status(n, &st, &err), -EINVAL);
		ck_assert_str_eq(ht_msg(&err), want);
	}
	run.activation = VERITY_ACT_RESTART_ON_CORRUPTION |
			 VERITY_ACT_PANIC_ON_CORRUPTION;
	ck_assert_int_eq(verity_open(name, &p, &run, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "choose one corruption policy of ignore_corruption, "
			 "restart_on_corruption and panic_on_corruption");
	run.activation =
		VERITY_ACT_RESTART_ON_ERROR | VERITY_ACT_PANIC_ON_ERROR;
	ck_assert_int_eq(verity_open(name, &p, &run, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "choose one error policy of "
				       "restart_on_error and panic_on_error");
}
END_TEST

/* Whether device-mapper answers here: -ENOSYS (said why) or -ENODEV
 * (no device of the name) from a status of a name nobody took. */
static int dm_works(void)
{
	struct verity_active st;
	struct ht_error err = {0};
	char want[100];
	int r = verity_status(name, &st, &err);

	if (r == -ENOSYS) {
		ck_assert_msg(!strncmp(ht_msg(&err),
				       "device-mapper is not available", 30),
			      "%s", ht_msg(&err));
		return 0;
	}
	ck_assert_msg(r == -ENODEV, "%d %s", r, ht_msg(&err));
	snprintf(want, sizeof(want), "%s: device is not active", name);
	ck_assert_str_eq(ht_msg(&err), want);
	return 1;
}

/* Without device-mapper: open -ENOSYS after the pair's checks; close
 * -ENODEV (veritysetup's close exits 4 there); with it, a name nobody
 * took: close and status -ENODEV. */
START_TEST(absent)
{
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_pair p;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_close(name, VERITY_CLOSE_NOW, &err), -ENODEV);
	ck_assert_int_eq(verity_close(name, VERITY_CLOSE_DEFERRED, &err),
			 -ENODEV);
	if (dm_works())
		return;
	pair_of(&p);
	ck_assert_int_eq(verity_open(name, &p, &run, &err), -ENOSYS);
	ck_assert_msg(
		!strncmp(ht_msg(&err), "device-mapper is not available", 30),
		"%s", ht_msg(&err));
}
END_TEST

/* Where device-mapper works (root): the pair opened, as its status
 * reads back; a second open refused; closed, then not there. */
START_TEST(mapped)
{
	struct verity_run run = {.ht = {.threads = 1},
				 .activation = VERITY_ACT_CHECK_AT_MOST_ONCE};
	struct verity_active st;
	struct verity_pair p;
	struct ht_error err = {0};
	char want[100];
	int r;

	if (geteuid() != 0 || access("/dev/mapper/control", F_OK) ||
	    !dm_works()) {
		printf("activate: device-mapper is not usable here (root, "
		       "/dev/mapper/control and dm-mod): open, status and "
		       "close of a mapped pair left out\n");
		return;
	}
	pair_of(&p);
	r = verity_open(name, &p, &run, &err);
	if (r == -ENODEV || r == -ENOTBLK || r == -ENOENT ||
	    (r && strstr(ht_msg(&err), "loop device"))) {
		printf("activate: no loop device here (%s): the mapped pair "
		       "left out\n",
		       ht_msg(&err));
		return;
	}
	ck_assert_msg(r == 0, "%d %s", r, ht_msg(&err));
	ck_assert_msg(verity_status(name, &st, &err) == 0, "%s", ht_msg(&err));
	ck_assert_int_eq(st.is_verity, 1);
	ck_assert_int_eq(st.read_only, 1);
	ck_assert_int_eq(st.corrupted, 0);
	ck_assert_uint_eq(st.p.data_blocks, BLOCKS);
	ck_assert_uint_eq(st.hash_start_block, 1);
	ck_assert_uint_eq(st.size_sectors, BLOCKS * BS / 512);
	ck_assert_uint_eq(st.root_size, 32);
	ck_assert_mem_eq(st.root, root, 32);
	ck_assert_uint_eq(st.fec_roots, 2);
	ck_assert_uint_eq(st.fec_blocks, 304);
	ck_assert_uint_eq(st.flags & VERITY_ACT_CHECK_AT_MOST_ONCE,
			  VERITY_ACT_CHECK_AT_MOST_ONCE);
	ck_assert_str_eq(st.data_loop, data_path);
	ck_assert_str_eq(st.hash_loop, hash_path);
	pair_of(&p);
	ck_assert_int_eq(verity_open(name, &p, &run, &err), -EBUSY);
	snprintf(want, sizeof(want), "%s: device already exists", name);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_msg(verity_close(name, VERITY_CLOSE_NOW, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(verity_status(name, &st, &err), -ENODEV);
	ck_assert_int_eq(verity_close(name, VERITY_CLOSE_NOW, &err), -ENODEV);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "activate",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown,
					    .once = 1};

	return run_unit(
		&u, UNIT_TESTS(names, table, refused_first, absent, mapped));
}
