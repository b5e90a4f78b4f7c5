/* veritysetup's text output (cli/text.h). */
#include "cli/text.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include <string.h>

#include "cli/errors.h"

/* The end of the tree as veritysetup prints it: from the tree start even
 * when there is no tree (one data block). */
uint64_t cli_nominal_hash_end(const struct verity_params *p,
			      const struct verity_layout *l)
{
	return l->tree_offset + l->geo.tree_blocks * p->hash_block_size;
}

void cli_print_header(const char *device, const struct verity_params *p,
		      const char *uuid_text, const struct verity_layout *l,
		      const uint8_t *root)
{
	char hex[2 * VERITY_MAX_SALT_SIZE + 1];

	printf("VERITY header information for %s\n", device);
	printf("UUID:            \t%s\n", uuid_text);
	printf("Hash type:       \t%d\n", p->hash_type);
	printf("Data blocks:     \t%" PRIu64 "\n", p->data_blocks);
	printf("Data block size: \t%u\n", p->data_block_size);
	printf("Hash blocks:     \t%" PRIu64 "\n", l->geo.tree_blocks);
	printf("Hash block size: \t%u\n", p->hash_block_size);
	printf("Hash algorithm:  \t%s\n", p->hash_name);
	if (l->fec.roots) {
		printf("FEC RS roots:   \t%u\n", l->fec.roots);
		printf("FEC blocks:     \t%" PRIu64 "\n",
		       l->fec.rounds * l->fec.roots);
	}
	verity_hex_encode(p->salt, p->salt_size, hex);
	printf("Salt:            \t%s\n", p->salt_size ? hex : "-");
	if (root) {
		verity_hex_encode(root, l->geo.digest_size, hex);
		printf("Root hash:      \t%s\n", hex);
	}
	/* veritysetup counts parity on the hash device as if it followed
	 * the tree directly */
	if (p->hash_offset == 0)
		printf("Hash device size: \t%" PRIu64 " [bytes]\n",
		       cli_nominal_hash_end(p, l) +
			       (l->fec.on_hash_device ? l->fec.parity_bytes
						      : 0));
	if (l->fec.roots && !l->fec.on_hash_device && l->fec.offset == 0)
		printf("FEC device size: \t%" PRIu64 " [bytes]\n",
		       l->fec.parity_bytes);
}

const char *cli_failure_words(enum ht_failure_kind k)
{
	return k == HT_BAD_PADDING ? "Spare area is not zeroed"
	       : k == HT_UNREADABLE_DATA || k == HT_UNREADABLE_HASH
		       ? "Unreadable block"
		       : "Verification failed";
}

int cli_verdict(const struct ht_verify_result *res)
{
	if (res->bad_data_blocks || res->bad_hash_blocks || res->bad_padding ||
	    res->unreadable_blocks)
		return EXIT_VERIFY;
	return res->root_matches ? EXIT_OK : EXIT_PARAMS;
}

void cli_print_counts(const struct ht_verify_result *res)
{
	uint64_t d = res->unchecked_data_blocks, h = res->unchecked_hash_blocks;

	fprintf(stderr,
		"Verification of data area failed: %" PRIu64
		" bad data block%s, %" PRIu64 " bad hash block%s, %" PRIu64
		" bad spare area%s.\n",
		res->bad_data_blocks, cli_plural(res->bad_data_blocks),
		res->bad_hash_blocks, cli_plural(res->bad_hash_blocks),
		res->bad_padding, cli_plural(res->bad_padding));
	if (res->unreadable_blocks)
		fprintf(stderr, "%" PRIu64 " block%s could not be read.\n",
			res->unreadable_blocks,
			cli_plural(res->unreadable_blocks));
	if (d || h)
		fprintf(stderr,
			"Under a bad or unreadable hash block, not checked: "
			"%" PRIu64 " data block%s, %" PRIu64 " hash block%s.\n",
			d, cli_plural(d), h, cli_plural(h));
}

void cli_fec_roots_text(const struct verity_fec_layout *fl, const char *dev,
			char *buf, size_t len)
{
	switch (fl->roots_source) {
	case VERITY_ROOTS_GIVEN:
		snprintf(buf, len, "parity of %u roots (--fec-roots)",
			 fl->roots);
		break;
	case VERITY_ROOTS_INFERRED:
		snprintf(buf, len,
			 "parity of %u roots, told from the size of %s",
			 fl->roots, dev);
		break;
	case VERITY_ROOTS_DESCRIBED:
		snprintf(buf, len, "parity of %u roots, as %s describes it",
			 fl->roots, dev);
		break;
	default:
		snprintf(buf, len,
			 "parity of %u roots, the default (the size of %s does "
			 "not tell; give --fec-roots)",
			 fl->roots, dev);
	}
}

const char *cli_name(char *buf, size_t len, const void *name, size_t n)
{
	const unsigned char *p = name;
	size_t o = 0;

	for (size_t i = 0; i < n && i < CLI_NAME_SHOWN && o + 5 < len; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\')
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x",
					      p[i]);
		else
			buf[o++] = (char)p[i];
	}
	if (n > CLI_NAME_SHOWN && o + 4 <= len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}
