/* Option values to the library's parameters (cli/params.h). */
#include "cli/params.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/progress.h"
#include "verity/fec/rs.h"
#include "verity/storage/backing.h"

/* Strict unsigned decimal: digits only, no sign, no overflow. */
static int parse_u64(const char *opt, const char *s, uint64_t max,
		     uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return cli_error(-EINVAL, "%s: empty value", opt);
	for (const char *c = s; *c; c++) {
		if (!isdigit((unsigned char)*c))
			return cli_error(-EINVAL, "%s: '%s' is not a number",
					 opt, s);
		if (v > (max - (uint64_t)(*c - '0')) / 10)
			return cli_error(-EINVAL,
					 "%s: %s is too large (at most %" PRIu64
					 ")",
					 opt, s, max);
		v = v * 10 + (uint64_t)(*c - '0');
	}
	*out = v;
	return 0;
}

int cli_parse_count(const char *opt, const char *s, uint64_t *out)
{
	return parse_u64(opt, s, UINT64_MAX - 1, out);
}

static int parse_block_size(const char *opt, const char *s, uint32_t *out)
{
	uint64_t v;

	if (!s)
		return 0;
	if (parse_u64(opt, s, UINT32_MAX, &v))
		return EXIT_PARAMS;
	if (!ht_block_size_valid(v))
		return cli_error(-EINVAL,
				 "%s: unsupported block size %s (a power of "
				 "two from 512 to 524288)",
				 opt, s);
	*out = (uint32_t)v;
	return 0;
}

int cli_parse_hash_offset(const struct cli_opts *o, uint64_t *off)
{
	*off = 0;
	if (!o->hash_offset)
		return 0;
	if (parse_u64("--hash-offset", o->hash_offset, INT64_MAX, off))
		return EXIT_PARAMS;
	if (*off % 512)
		return cli_error(-EINVAL,
				 "--hash-offset: %s is not a multiple of 512",
				 o->hash_offset);
	return 0;
}

int cli_fec_params(const struct cli_opts *o, struct verity_fec_params *fp)
{
	uint64_t v;

	/* roots 0: format's default, or, for parity that exists, the one
	 * value its size fits */
	memset(fp, 0, sizeof(*fp));
	if (!o->fec_device) {
		if (o->fec_offset || o->fec_roots)
			return cli_error(-EINVAL,
					 "--fec-offset and --fec-roots "
					 "go with --fec-device");
		return 0;
	}
	if (!*o->fec_device)
		return cli_error(-EINVAL, "--fec-device: empty path");
	fp->region.path = o->fec_device;
	if (o->fec_offset && parse_u64("--fec-offset", o->fec_offset,
				       INT64_MAX / 2, &fp->offset))
		return EXIT_PARAMS;
	if (o->fec_roots) {
		if (parse_u64("--fec-roots", o->fec_roots, UINT32_MAX, &v))
			return EXIT_PARAMS;
		if (v < FEC_MIN_ROOTS || v > FEC_MAX_ROOTS)
			return cli_error(-EINVAL,
					 "--fec-roots: %s is not supported "
					 "(%d to %d)",
					 o->fec_roots, FEC_MIN_ROOTS,
					 FEC_MAX_ROOTS);
		fp->roots = (unsigned)v;
	}
	return 0;
}

static int parse_salt(const struct cli_opts *o, struct verity_params *p,
		      int for_format)
{
	if (!o->salt) {
		p->salt_size = for_format ? 32 : 0;
		if (for_format) {
			struct ht_error err;

			if (verity_random(p->salt, 32, &err))
				return cli_inside_error(-EIO, &err);
		}
		return 0;
	}
	if (!strcmp(o->salt, "-") || !*o->salt) {
		p->salt_size = 0;
		return 0;
	}
	if (strlen(o->salt) > 2 * VERITY_MAX_SALT_SIZE)
		return cli_error(-EINVAL,
				 "--salt: salt of %zu hex digits is too long "
				 "(at most %d bytes)",
				 strlen(o->salt), VERITY_MAX_SALT_SIZE);
	if (verity_hex_decode(o->salt, p->salt, VERITY_MAX_SALT_SIZE,
			      &p->salt_size))
		return cli_error(
			-EINVAL,
			"--salt: '%s' is not an even number of hex digits",
			o->salt);
	return 0;
}

int cli_params_from_opts(const struct cli_opts *o, struct verity_params *p,
			 int for_format)
{
	uint64_t v;

	verity_params_default(p);
	if (o->hash) {
		if (strlen(o->hash) > VERITY_MAX_HASH_NAME || !*o->hash)
			return cli_error(
				-EINVAL,
				"--hash: hash algorithm '%s' not supported",
				o->hash);
		strcpy(p->hash_name, o->hash);
	}
	if (o->format) {
		if (parse_u64("--format", o->format, UINT32_MAX, &v))
			return EXIT_PARAMS;
		if (v > 1)
			return cli_error(
				-EINVAL,
				"--format: unsupported hash type %s (0 or 1)",
				o->format);
		p->hash_type = (int)v;
	}
	if (parse_block_size("--data-block-size", o->data_block_size,
			     &p->data_block_size) ||
	    parse_block_size("--hash-block-size", o->hash_block_size,
			     &p->hash_block_size))
		return EXIT_PARAMS;
	if (o->data_blocks) {
		if (parse_u64("--data-blocks", o->data_blocks,
			      INT64_MAX / p->data_block_size, &p->data_blocks))
			return EXIT_PARAMS;
	}
	if (cli_parse_hash_offset(o, &p->hash_offset))
		return EXIT_PARAMS;
	if (parse_salt(o, p, for_format))
		return EXIT_PARAMS;
	p->no_superblock = o->no_superblock;
	if (o->uuid) {
		if (verity_uuid_parse(o->uuid, p->uuid))
			return cli_error(-EINVAL, "--uuid: '%s' is not a UUID",
					 o->uuid);
	} else if (for_format) {
		uint8_t rnd[16];
		struct ht_error err;

		if (verity_random(rnd, sizeof(rnd), &err))
			return cli_inside_error(-EIO, &err);
		verity_uuid_random(p->uuid, rnd);
	}
	return 0;
}

int cli_parse_size(const char *text, uint64_t *out)
{
	static const char units[] = "KMGT";
	char digits[32];
	size_t n = strlen(text);
	unsigned shift = 0;
	const char *u;

	if (n && n < sizeof(digits) &&
	    (u = strchr(units, toupper((unsigned char)text[n - 1]))) && *u) {
		shift = 10 * (unsigned)(u - units + 1);
		n--;
	}
	if (n >= sizeof(digits))
		return cli_error(-EINVAL, "--size: '%s' is not a size", text);
	memcpy(digits, text, n);
	digits[n] = '\0';
	if (parse_u64("--size", digits, UINT64_MAX >> shift, out))
		return EXIT_PARAMS;
	*out <<= shift;
	return 0;
}

int cli_run_options(const struct cli_opts *o, struct ht_options *opt,
		    struct cli_progress *pr)
{
	uint64_t n = verity_default_threads();

	if (o->threads) {
		if (parse_u64("--threads", o->threads, VERITY_MAX_THREADS, &n))
			return EXIT_PARAMS;
		if (n == 0)
			return cli_error(-EINVAL, "--threads: at least 1");
	}
	cli_progress_init(pr, o);
	opt->threads = (unsigned)n;
	opt->progress = cli_progress_update;
	opt->progress_ctx = pr;
	/* the data is read, never mapped: no faster mapped here with the
	 * image cached in large folios, 40% slower with it cached in 4 KiB
	 * pages (1 GiB: format 0.31 s read, 0.58-0.62 s mapped), and a file
	 * that shrinks is then an error returned, not a signal */
	opt->no_map = 1;
	return 0;
}

int cli_check_output(const char *out, const char *what,
		     const char *const *inputs, size_t n)
{
	for (size_t i = 0; out && i < n; i++) {
		const char *via =
			inputs[i] ? verity_path_same_storage(out, inputs[i])
				  : NULL;

		if (via)
			return cli_error(-EINVAL,
					 "%s: refusing to write the %s there: "
					 "it is %s, an input of this command%s",
					 out, what, inputs[i], via);
	}
	return 0;
}
