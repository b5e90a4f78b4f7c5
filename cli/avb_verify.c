/* fastverity avb verify_image: the vbmeta's signature and signer, then
 * every hash and hashtree descriptor over its image (every block of a
 * tree, and its parity), chain descriptors against
 * --expected_chain_partition or followed. The library walks the set and
 * says each step in avbtool's words (fv_show, FV_SHOW_AVB_VERIFY: one
 * level of chains, stopping at the first failure), or with --json one
 * document (docs/android.md); this reads the options and prints. */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/json.h"

/* One run of verify_image: its arguments, the --key's blob (read to
 * say what is wrong with it first), the expected chains. */
struct check {
	const struct cli_avb_args *a;
	uint8_t *key;
	size_t key_len;
	struct fv_slot_expected *expected;
	uint8_t **expected_keys;
	size_t nexpected;
};

/* --expected_chain_partition NAME:LOCATION:KEY_PATH, each read. */
static int expected_read(struct check *c)
{
	const struct cli_avb_args *a = c->a;

	if (!a->nexpected)
		return 0;
	c->expected = calloc(a->nexpected, sizeof(*c->expected));
	c->expected_keys = calloc(a->nexpected, sizeof(*c->expected_keys));
	if (!c->expected || !c->expected_keys)
		return cli_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < a->nexpected; i++) {
		const char *s = a->expected[i], *c1 = strchr(s, ':'), *c2;
		struct fv_slot_expected *x = &c->expected[i];
		char *end, *name;
		unsigned long loc;
		int r;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		loc = strtoul(c1 + 1, &end, 10);
		if (end != c2 || c1 + 1 == c2 || loc > UINT32_MAX)
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		if (!(name = strndup(s, (size_t)(c1 - s))))
			return cli_error(-ENOMEM, "out of memory");
		x->name = name;
		c->nexpected = i + 1;
		x->rollback_index_location = (unsigned)loc;
		if ((r = cli_input_read(c2 + 1, "public key file", 1u << 16,
					&c->expected_keys[i],
					&x->public_key_len)))
			return cli_lib_error(r);
		x->public_key = c->expected_keys[i];
	}
	return 0;
}

static void check_free(struct check *c)
{
	for (size_t i = 0; i < c->nexpected; i++) {
		free((char *)c->expected[i].name);
		fv_free(c->expected_keys[i]);
	}
	free(c->expected);
	free(c->expected_keys);
	fv_free(c->key);
}

int cli_avb_verify(const struct cli_avb_args *a, fv_options *opts)
{
	struct check c = {a, NULL, 0, NULL, NULL, 0};
	struct fv_slot_request req = {.size = sizeof(req)};
	struct fv_avb_key_request kq = {
		.size = sizeof(kq), .op = FV_AVB_KEY_BLOB, .key = a->key};
	int r;

	if (!a->image) {
		r = cli_error(-EINVAL, "avb verify_image: --image is required");
		goto out;
	}
	if ((r = expected_read(&c)) ||
	    (a->key && (r = fv_avb_key(&kq, &c.key, &c.key_len)) &&
	     (r = cli_lib_error(r))))
		goto out;
	req.image = a->image;
	req.container = "avb";
	req.key = a->key;
	req.expected = c.expected;
	req.nexpected = c.nexpected;
	req.flags = FV_SLOT_CHECK | FV_SLOT_STOP | FV_SLOT_EXPECTED |
		    (a->follow ? FV_SLOT_FOLLOW : 0) |
		    (a->accept_zeroed_hashtree ? FV_SLOT_ACCEPT_ZEROED : 0);
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_AVB_VERIFY,
		.image = a->image,
		.json = a->json,
		.set = &req,
		.o = opts});
	/* > 0: a step failed, said (avbtool's exit code 1) */
	r = r > 0 ? EXIT_PARAMS : r ? cli_lib_error(r) : 0;
out:
	/* --json: the error's document when none was printed */
	if (a->json && r)
		cli_json_final(r, "verification failed");
	check_free(&c);
	return r;
}
