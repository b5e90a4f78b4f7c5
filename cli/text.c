/* veritysetup's text output (cli/text.h). */
#include "cli/text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/params.h"

void cli_report(const fv_result *r, struct fv_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->size = sizeof(*rep);
	if (r)
		fv_result_report(r, rep);
}

void cli_counts_of(const fv_result *r, struct cli_counts *c)
{
	struct fv_report rep;

	cli_report(r, &rep);
	memset(c, 0, sizeof(*c));
	c->bad_data = rep.bad_data_blocks;
	c->bad_hash = rep.bad_hash_blocks;
	c->bad_padding = rep.bad_padding;
	c->unreadable = rep.unreadable;
	c->unchecked_data = rep.unchecked_data_blocks;
	c->unchecked_hash = rep.unchecked_hash_blocks;
	c->root_matches = rep.root_matches;
	c->root_first = rep.root_first;
}

void cli_counts_before(const struct fv_fec_report *f, struct cli_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->bad_data = f->before_bad_data_blocks;
	c->bad_hash = f->before_bad_hash_blocks;
	c->bad_padding = f->before_bad_padding;
	c->unreadable = f->before_unreadable;
	c->unchecked_data = f->before_unchecked_data_blocks;
	c->unchecked_hash = f->before_unchecked_hash_blocks;
	c->root_matches = f->before_root_matches;
}

/* The end of the tree as veritysetup prints it: from the tree start even
 * when there is no tree (one data block). */
uint64_t cli_nominal_hash_end(const fv_params *p, const struct fv_layout *l)
{
	return l->tree_offset +
	       l->tree_blocks * (uint64_t)p->hash_block_size;
}

void cli_print_header(const char *device, const fv_params *p,
		      const char *uuid_text, const struct fv_layout *l,
		      const char *root_hex)
{
	const uint8_t *salt = p->salt;
	size_t salt_size = p->salt_len;
	char hex[2 * 256 + 1];

	printf("VERITY header information for %s\n", device);
	printf("UUID:            \t%s\n", uuid_text);
	printf("Hash type:       \t%u\n", p->hash_type);
	printf("Data blocks:     \t%" PRIu64 "\n", p->data_blocks);
	printf("Data block size: \t%u\n", p->data_block_size);
	printf("Hash blocks:     \t%" PRIu64 "\n", l->tree_blocks);
	printf("Hash block size: \t%u\n", p->hash_block_size);
	printf("Hash algorithm:  \t%s\n", p->hash);
	if (l->fec_roots) {
		printf("FEC RS roots:   \t%u\n", l->fec_roots);
		printf("FEC blocks:     \t%" PRIu64 "\n",
		       l->fec_rounds * l->fec_roots);
	}
	cli_hex(salt, salt_size, hex);
	printf("Salt:            \t%s\n", salt_size ? hex : "-");
	if (root_hex)
		printf("Root hash:      \t%s\n", root_hex);
	/* veritysetup counts parity on the hash device as if it followed
	 * the tree directly */
	if (p->hash_offset == 0)
		printf("Hash device size: \t%" PRIu64 " [bytes]\n",
		       cli_nominal_hash_end(p, l) +
			       (l->fec_on_hash_device ? l->fec_parity_bytes
						      : 0));
	if (l->fec_roots && !l->fec_on_hash_device && l->fec_offset == 0)
		printf("FEC device size: \t%" PRIu64 " [bytes]\n",
		       l->fec_parity_bytes);
}

const char *cli_failure_words(enum fv_failure_kind k)
{
	return k == FV_BAD_PADDING ? "Spare area is not zeroed"
	       : k == FV_UNREADABLE_DATA_BLOCK || k == FV_UNREADABLE_HASH_BLOCK
		       ? "Unreadable block"
		       : "Verification failed";
}

int cli_verdict(const struct cli_counts *c)
{
	if (c->bad_data || c->bad_hash || c->bad_padding || c->unreadable)
		return EXIT_VERIFY;
	return c->root_matches ? EXIT_OK : EXIT_PARAMS;
}

void cli_print_counts(const struct cli_counts *c)
{
	uint64_t d = c->unchecked_data, h = c->unchecked_hash;

	fprintf(stderr,
		"Verification of data area failed: %" PRIu64
		" bad data block%s, %" PRIu64 " bad hash block%s, %" PRIu64
		" bad spare area%s.\n",
		c->bad_data, cli_plural(c->bad_data), c->bad_hash,
		cli_plural(c->bad_hash), c->bad_padding,
		cli_plural(c->bad_padding));
	if (c->unreadable)
		fprintf(stderr, "%" PRIu64 " block%s could not be read.\n",
			c->unreadable, cli_plural(c->unreadable));
	if (d || h)
		fprintf(stderr,
			"Under a bad or unreadable hash block, not checked: "
			"%" PRIu64 " data block%s, %" PRIu64 " hash block%s.\n",
			d, cli_plural(d), h, cli_plural(h));
}

const char *cli_verdict_text(int code, const struct cli_counts *c, char *buf,
			     size_t len)
{
	size_t n = 0;

	if (code == 0)
		return "verified";
	if (!c)
		return "FAILED";
	/* what failed, so that "signed: FAILED" is not read as a failed
	 * signature */
	if (!c->root_matches)
		return "FAILED: the tree does not match the root hash";
	n += (size_t)snprintf(buf, len, "FAILED:");
#define PART(count, what)                                                   \
	if ((count) && n < len)                                             \
		n += (size_t)snprintf(buf + n, len - n, "%s %" PRIu64 " " what \
				      "%s",                                 \
				      n > 7 ? "," : "", (count),            \
				      cli_plural(count))
	PART(c->bad_data, "bad data block");
	PART(c->bad_hash, "bad hash block");
	PART(c->bad_padding, "bad spare area");
	PART(c->unreadable, "unreadable block");
#undef PART
	return n > 7 ? buf : "FAILED";
}

void cli_fec_roots_text(const struct fv_layout *l, const char *dev, char *buf,
			size_t len)
{
	switch (l->fec_roots_from) {
	case FV_ROOTS_GIVEN:
		snprintf(buf, len, "parity of %u roots (--fec-roots)",
			 l->fec_roots);
		break;
	case FV_ROOTS_INFERRED:
		snprintf(buf, len,
			 "parity of %u roots, told from the size of %s",
			 l->fec_roots, dev);
		break;
	case FV_ROOTS_DESCRIBED:
		snprintf(buf, len, "parity of %u roots, as %s describes it",
			 l->fec_roots, dev);
		break;
	default:
		snprintf(buf, len,
			 "parity of %u roots, the default (the size of %s does "
			 "not tell; give --fec-roots)",
			 l->fec_roots, dev);
	}
}

const char *cli_name(char *buf, size_t len, const void *name, size_t n)
{
	return fv_name_shown(name, n, buf, len);
}
