/* The library's door for tests/cli/t_doors.sh: verify through the public
 * API (<fastverity.h> alone), its outcome printed as the command's
 * --json names it, for the test to compare with the command's.
 * Usage: doors DATA HASH ROOT_HEX [FEC_FILE]
 *   doors trust CONTAINER none|found|given none|cert|key read|write
 *        the trust policy's verdict (fv_trust_decide)
 *   doors container IMAGE [ASKED]      what the registry says it is
 *   doors pair verify|repair DATA HASH ROOT SIG|- CERT|- FEC|-
 *   doors avb verify|repair IMAGE KEY|-
 *        the action through the library: "ok TRUST" or "error ERRNO".
 *   doors dump IMAGE
 *        an image's pairs as dump lays them out (fv_image_open,
 *        fv_image_pair, fv_pair_dump): a line each, as dump --json has
 *        the same facts
 *   doors ddi IMAGE
 *        a disk image's description: a line per pair, as the command's
 *        dump --json gives the same facts */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "include/fastverity.h"

/* The command's word for each kind of failure. */
static const char *const kind_name[] = {
	[FV_BAD_DATA_BLOCK] = "data",
	[FV_BAD_HASH_BLOCK] = "hash",
	[FV_BAD_PADDING] = "padding",
	[FV_UNREADABLE_DATA_BLOCK] = "unreadable",
	[FV_UNREADABLE_HASH_BLOCK] = "unreadable",
};

static int n_failures;

static void on_failure(void *ctx, enum fv_failure_kind kind, uint64_t block,
		       uint64_t offset, unsigned level)
{
	(void)ctx;
	(void)level;
	printf("%s{\"type\":\"%s\",\"position\":%llu,\"block\":%llu}",
	       n_failures++ ? "," : "", kind_name[kind],
	       (unsigned long long)offset, (unsigned long long)block);
}

static const char *errno_name(int r)
{
	return r == -EINVAL ? "EINVAL" : r == -EPERM ? "EPERM" : "other";
}

static int error(int r)
{
	printf("error %s\n", errno_name(r));
	fprintf(stderr, "%s\n", fv_last_error());
	return 1;
}

static int index_of(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static const char *const trust_name[] = {"unsigned", "check", "unchecked"};

static int trust(char **argv)
{
	static const char *const from[] = {"none", "found", "given"};
	static const char *const anchor[] = {"none", "cert", "key"};
	enum fv_trust t;
	int s = index_of(argv[3], from, 3), a = index_of(argv[4], anchor, 3);
	int r;

	if (s < 0 || a < 0)
		return 2;
	r = fv_trust_decide(argv[2], (enum fv_signature_from)s,
			    (enum fv_anchor)a, !strcmp(argv[5], "write"),
			    "image", &t);
	if (r)
		return error(r);
	printf("%s\n", trust_name[t]);
	return 0;
}

static int pair(char **argv)
{
	fv_options *o = fv_options_new();
	fv_result *res = NULL;
	fv_pair *pr = NULL;
	const char *cert = argv[7];
	int repair = !strcmp(argv[2], "repair"), r;

	if (!o)
		return 2;
	if ((r = fv_pair_new(argv[3], argv[4], &pr)) ||
	    (r = fv_pair_read_superblock(pr, 0)) ||
	    (r = fv_pair_set_root_hex(pr, argv[5])))
		return error(r);
	if (strcmp(argv[6], "-")) {
		uint8_t *der;
		size_t n;

		if ((r = fv_signature_read(argv[6], &der, &n)))
			return error(r);
		r = fv_pair_set_signature(pr, der, n, argv[6]);
		fv_free(der);
		if (r)
			return error(r);
	}
	if (strcmp(cert, "-") &&
	    (r = fv_options_set_trusted_certs(o, &cert, 1)))
		return error(r);
	if (strcmp(argv[8], "-") && (r = fv_pair_set_fec(pr, argv[8], 0, 0)))
		return error(r);
	r = repair ? fv_pair_repair(pr, o, &res) : fv_pair_verify(pr, o, &res);
	if (r)
		return error(r);
	printf("ok %s\n", fv_result_intact(res) ? "intact" : "damaged");
	fv_result_free(res);
	fv_options_free(o);
	fv_pair_free(pr);
	return 0;
}

static int avb(char **argv)
{
	fv_avb *a = NULL;
	fv_pair *pr = NULL;
	fv_result *res = NULL;
	int r = fv_avb_read(argv[3], &a);

	if (!r && strcmp(argv[4], "-"))
		r = fv_avb_check_key(a, argv[4]);
	if (!r)
		r = fv_avb_pair(a, &pr);
	fv_avb_free(a);
	if (r)
		return error(r);
	r = !strcmp(argv[2], "repair") ? fv_pair_repair(pr, NULL, &res)
					: fv_pair_verify(pr, NULL, &res);
	fv_pair_free(pr);
	if (r)
		return error(r);
	printf("ok %s\n", trust_name[fv_result_trust(res)]);
	fv_result_free(res);
	return 0;
}

/* A disk image's table and pairs (fv_image_ddi_disk, fv_image_ddi_pair,
 * fv_image_signer). */
static int ddi(const char *path)
{
	struct fv_ddi_disk disk = {.size = sizeof(disk)};
	fv_image *im;
	int r;

	if ((r = fv_image_open(path, "ddi", NULL, &im)) ||
	    (r = fv_image_ddi_disk(im, &disk)))
		return error(r);
	printf("disk %s\n", disk.disk_uuid);
	for (size_t i = 0; i < fv_image_pairs(im); i++) {
		struct fv_ddi_pair d = {.size = sizeof(d)};
		char *signer = NULL;

		if ((r = fv_image_ddi_pair(im, i, &d)) ||
		    (r = fv_image_signer(im, i, &signer))) {
			fv_image_free(im);
			return error(r);
		}
		printf("%s %s %u %u %u %s %s\n", d.role, d.arch, d.data.index,
		       d.hash.index, d.signature.index, d.root_hex,
		       signer ? signer : "null");
		fv_free(signer);
	}
	fv_image_free(im);
	return 0;
}

/* Every pair of an image as dump lays it out. */
static int dump(const char *path)
{
	fv_image *im;
	int r;

	if ((r = fv_image_open(path, NULL, NULL, &im)))
		return error(r);
	for (size_t i = 0; i < fv_image_pairs(im); i++) {
		struct fv_layout l = {.size = sizeof(l)};
		fv_result *res = NULL;
		fv_pair *pr = NULL;

		if ((r = fv_image_pair(im, i, &pr)) ||
		    (r = fv_pair_dump(pr, NULL, &res)) ||
		    (r = fv_result_layout(res, &l))) {
			fv_result_free(res);
			fv_pair_free(pr);
			fv_image_free(im);
			return error(r);
		}
		printf("%llu %llu %u %u %s\n",
		       (unsigned long long)l.tree_offset,
		       (unsigned long long)l.tree_blocks, l.levels, l.fec_roots,
		       fv_pair_root_hex(pr));
		fv_result_free(res);
		fv_pair_free(pr);
	}
	fv_image_free(im);
	return 0;
}

int main(int argc, char **argv)
{
	fv_options *o = fv_options_new();
	fv_result *res = NULL;
	fv_pair *pr = NULL;
	uint64_t hash_blocks, data_blocks;

	if (argc == 6 && !strcmp(argv[1], "trust"))
		return trust(argv);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "container")) {
		const char *name;
		int r = fv_container_of(argv[2], argc == 4 ? argv[3] : NULL,
					&name);

		if (r)
			return error(r);
		printf("%s\n", name);
		return 0;
	}
	if (argc == 9 && !strcmp(argv[1], "pair"))
		return pair(argv);
	if (argc == 5 && !strcmp(argv[1], "avb"))
		return avb(argv);
	if (argc == 3 && !strcmp(argv[1], "ddi"))
		return ddi(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);
	if (argc < 4 || !o || fv_pair_new(argv[1], argv[2], &pr))
		return 2;
	if (argc > 4 && fv_pair_set_fec(pr, argv[4], 0, 0))
		return 2;
	if (fv_pair_read_superblock(pr, 0) ||
	    fv_pair_set_root_hex(pr, argv[3])) {
		printf("{\"error\":\"%s\"}\n", fv_last_error());
		return 1;
	}
	fv_options_set_failure_fn(o, on_failure, NULL);
	printf("{\"failures\":[");
	if (fv_pair_verify(pr, o, &res)) {
		printf("],\"error\":\"%s\"}\n", fv_last_error());
		return 1;
	}
	data_blocks = fv_result_unchecked(res, &hash_blocks);
	printf("],\"root_hash_matches\":%s,\"root_first\":%s,"
	       "\"bad_data_blocks\":%llu,\"bad_hash_blocks\":%llu,"
	       "\"bad_spare_areas\":%llu,\"unreadable_blocks\":%llu,"
	       "\"unchecked_data_blocks\":%llu,\"unchecked_hash_blocks\":%llu,"
	       "\"intact\":%s,\"hashing_path\":\"%s\",\"repairable\":%llu}\n",
	       fv_result_root_matches(res) ? "true" : "false",
	       fv_result_root_first(res) ? "true" : "false",
	       (unsigned long long)fv_result_bad_data_blocks(res),
	       (unsigned long long)fv_result_bad_hash_blocks(res),
	       (unsigned long long)fv_result_bad_padding(res),
	       (unsigned long long)fv_result_unreadable(res),
	       (unsigned long long)data_blocks, (unsigned long long)hash_blocks,
	       fv_result_intact(res) ? "true" : "false",
	       fv_result_hashing_path(res),
	       (unsigned long long)fv_result_repaired(res));
	fv_result_free(res);
	fv_options_free(o);
	fv_pair_free(pr);
	return 0;
}
