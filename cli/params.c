/* Option values to the library's parameters (cli/params.h). */
#include "cli/files.h"
#include "cli/params.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/errors.h"
#include "cli/progress.h"

#define MAX_SALT_SIZE FV_MAX_SALT_SIZE
#define MAX_HASH_NAME FV_MAX_HASH_NAME
#define FEC_MIN_ROOTS FV_FEC_MIN_ROOTS
#define FEC_MAX_ROOTS FV_FEC_MAX_ROOTS
#define MAX_THREADS   FV_MAX_THREADS

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
	if (v < 512 || v > 524288 || (v & (v - 1)))
		return cli_error(
			-EINVAL,
			"%s: unsupported VERITY block size %s (a power of "
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

int cli_fec_params(const struct cli_opts *o, struct cli_fec *fp)
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
	fp->path = o->fec_device;
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

int cli_unhex(const char *s, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(s);

	if (n % 2 || n / 2 > max)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		int hi = isxdigit((unsigned char)s[i]),
		    lo = isxdigit((unsigned char)s[i + 1]);
		char b[3] = {s[i], s[i + 1], 0};

		if (!hi || !lo)
			return -1;
		out[i / 2] = (uint8_t)strtoul(b, NULL, 16);
	}
	*len = n / 2;
	return 0;
}

void cli_hex(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

static int parse_salt(const struct cli_opts *o, fv_params *p, int for_format)
{
	uint8_t salt[MAX_SALT_SIZE];
	size_t len = 0;

	if (!o->salt || !strcmp(o->salt, "-") || !*o->salt) {
		/* format without --salt: fv_params_init's random salt */
		if (o->salt || !for_format)
			p->salt_len = 0;
		return 0;
	}
	if (strlen(o->salt) > 2 * MAX_SALT_SIZE)
		return cli_error(-EINVAL,
				 "--salt: salt of %zu hex digits is too long "
				 "(at most %d bytes)",
				 strlen(o->salt), MAX_SALT_SIZE);
	if (cli_unhex(o->salt, salt, sizeof(salt), &len))
		return cli_error(
			-EINVAL,
			"--salt: '%s' is not an even number of hex digits",
			o->salt);
	memcpy(p->salt, salt, len);
	p->salt_len = len;
	return 0;
}

/* Each option into p; the library checks the whole set later. */
static int params_fill(const struct cli_opts *o, fv_params *p, int for_format)
{
	uint32_t data_block_size = p->data_block_size,
		 hash_block_size = p->hash_block_size;
	uint64_t v;

	if (o->hash) {
		if (strlen(o->hash) > MAX_HASH_NAME || !*o->hash)
			return cli_error(
				-EINVAL,
				"--hash: hash algorithm '%s' not supported",
				o->hash);
		int r;

		snprintf(p->hash, sizeof(p->hash), "%s", o->hash);
		/* the hash checked now, the other fields still format's */
		r = fv_params_check(p);
		/* (veritysetup's words; OpenSSL not opened: the library's) */
		if (r == -EINVAL)
			return cli_error(r, "hash algorithm %s not supported",
					 o->hash);
		if (r)
			return cli_lib_error(r);
	}
	if (o->format) {
		if (parse_u64("--format", o->format, UINT32_MAX, &v))
			return EXIT_PARAMS;
		if (v > 1)
			return cli_error(
				-EINVAL,
				"--format: unsupported hash type %s (0 or 1)",
				o->format);
		p->hash_type = (unsigned)v;
	}
	if (parse_block_size("--data-block-size", o->data_block_size,
			     &data_block_size) ||
	    parse_block_size("--hash-block-size", o->hash_block_size,
			     &hash_block_size))
		return EXIT_PARAMS;
	p->data_block_size = data_block_size;
	p->hash_block_size = hash_block_size;
	if (o->data_blocks) {
		if (parse_u64("--data-blocks", o->data_blocks,
			      INT64_MAX / data_block_size, &v))
			return EXIT_PARAMS;
		p->data_blocks = v;
	}
	if (cli_parse_hash_offset(o, &v))
		return EXIT_PARAMS;
	p->hash_offset = v;
	if (parse_salt(o, p, for_format))
		return EXIT_PARAMS;
	p->superblock = !o->no_superblock;
	if (o->uuid) {
		fv_params alone = {.size = sizeof(alone)};

		/* the UUID checked alone, beside format's defaults (an empty
		 * one is none to the library, not a UUID given) */
		if (fv_params_init(&alone))
			return cli_lib_error(-EIO);
		if (!*o->uuid || strlen(o->uuid) >= sizeof(p->uuid) ||
		    (snprintf(alone.uuid, sizeof(alone.uuid), "%s", o->uuid),
		     fv_params_check(&alone)))
			return cli_error(-EINVAL, "--uuid: '%s' is not a UUID",
					 o->uuid);
		/* kept as the superblock will say it: lowercase */
		for (size_t i = 0; alone.uuid[i]; i++)
			p->uuid[i] =
				(char)tolower((unsigned char)alone.uuid[i]);
		p->uuid[strlen(alone.uuid)] = '\0';
	}
	return 0;
}

int cli_params_from_opts(const struct cli_opts *o, fv_params **p,
			 int for_format)
{
	int r;

	/* fv_params_init: a random salt and UUID, format's defaults */
	if (!(*p = malloc(sizeof(**p))))
		return cli_error(-ENOMEM, "out of memory");
	(*p)->size = sizeof(**p);
	if ((r = fv_params_init(*p)))
		r = cli_lib_error(r);
	else
		r = params_fill(o, *p, for_format);
	if (r) {
		free(*p);
		*p = NULL;
	}
	return r;
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

int cli_parse_threads(const struct cli_opts *o, unsigned *threads)
{
	uint64_t n = 0;

	if (o->threads) {
		if (parse_u64("--threads", o->threads, MAX_THREADS, &n))
			return EXIT_PARAMS;
		if (n == 0)
			return cli_error(-EINVAL, "--threads: at least 1");
	}
	*threads = (unsigned)n;
	return 0;
}

void cli_threads_said(const struct cli_opts *o)
{
	unsigned threads = 0;
	long cpus;

	if (!o->debug || cli_parse_threads(o, &threads))
		return;
	if (!threads) {
		/* the library's default: one per online CPU */
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cpus < 1             ? 1
			  : cpus > MAX_THREADS ? MAX_THREADS
					       : (unsigned)cpus;
	}
	cli_debug(o, "Threads: %u.", threads);
}

enum fv_sha256_kernel cli_sha256_choice(void)
{
	const char *force = getenv("FASTVERITY_SHA256");

	if (!force)
		return FV_SHA256_FASTEST;
	if (!strcmp(force, "portable"))
		return FV_SHA256_PORTABLE;
	if (!strcmp(force, "two-way"))
		return FV_SHA256_TWO_WAY;
	if (!strcmp(force, "three-way"))
		return FV_SHA256_THREE_WAY;
	if (!strcmp(force, "avx512"))
		return FV_SHA256_AVX512;
	return FV_SHA256_FASTEST;
}

int cli_run_options(const struct cli_opts *o, fv_options *opts,
		    struct cli_progress *pr)
{
	unsigned threads;

	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
	if (cli_parse_threads(o, &threads))
		return EXIT_PARAMS;
	/* the library's words for the same refusal (fv_options) */
	if (o->ntrusted > FV_MAX_TRUSTED_CERTS)
		return cli_error(-EINVAL, "%zu certificate files (at most %d)",
				 o->ntrusted, FV_MAX_TRUSTED_CERTS);
	/* the data is read, never mapped (the library's default): no faster
	 * mapped here with the image cached in large folios, 40% slower
	 * with it cached in 4 KiB pages (1 GiB: format 0.31 s read,
	 * 0.58-0.62 s mapped), and a file that shrinks is then an error
	 * returned, not a signal */
	opts->threads = threads;
	opts->sha256 = cli_sha256_choice();
	/* (the trust anchor is the open's: cli_open) */
	if (pr) {
		cli_progress_init(pr, o);
		opts->progress = cli_progress_update;
		opts->progress_ctx = pr;
		opts->pass = cli_progress_pass;
	}
	return 0;
}

int cli_check_output(const char *out, const char *what,
		     const char *const *inputs, size_t n)
{
	for (size_t i = 0; out && i < n; i++) {
		const char *via =
			inputs[i] ? cli_same_storage(out, inputs[i]) : NULL;

		if (via)
			return cli_error(-EINVAL,
					 "%s: refusing to write the %s there: "
					 "it is %s, an input of this command%s",
					 out, what, inputs[i], via);
	}
	return 0;
}

/* Most ranges --changed takes. */
#define CHANGED_MAX (4u << 20)

static int number(const char *s, const char *end, uint64_t *v)
{
	char *stop;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &stop, 0);
	return errno || stop != end ? -1 : 0;
}

static int parse_list(const char *text, uint64_t **ranges, size_t *n);

int cli_parse_changed(const char *arg, uint64_t **ranges, size_t *n)
{
	uint8_t *buf;
	size_t len;
	int r;

	if (arg[0] != '@')
		return parse_list(arg, ranges, n);
	/* a list too long for one argument (128 KiB on Linux) */
	if ((r = cli_input_read(arg + 1, "list of changed ranges", 64u << 20,
				&buf, &len)))
		return cli_lib_error(r);
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n' || buf[i] == ' ' || buf[i] == '\t' ||
		    buf[i] == '\r')
			buf[i] = ',';
	while (len && buf[len - 1] == ',')
		len--;
	if (memchr(buf, '\0', len)) {
		fv_free(buf);
		return cli_error(-EINVAL, "%s: not a list of ranges", arg + 1);
	}
	{
		char *text = malloc(len + 1);

		if (!text) {
			fv_free(buf);
			return cli_error(-ENOMEM, "out of memory");
		}
		memcpy(text, buf, len);
		text[len] = '\0';
		fv_free(buf);
		r = parse_list(text, ranges, n);
		free(text);
	}
	return r;
}

static int parse_list(const char *text, uint64_t **ranges, size_t *n)
{
	size_t cap = 1;

	for (const char *c = text; *c; c++)
		cap += *c == ',';
	if (cap > CHANGED_MAX)
		return cli_error(-EINVAL, "--changed: more than %u ranges",
				 CHANGED_MAX);
	if (!(*ranges = calloc(2 * cap, sizeof(**ranges))))
		return cli_error(-ENOMEM, "out of memory");
	*n = 0;
	for (const char *s = text;;) {
		const char *end = strchr(s, ','), *colon;

		if (!end)
			end = s + strlen(s);
		colon = memchr(s, ':', (size_t)(end - s));
		if (!colon || number(s, colon, &(*ranges)[2 * *n]) ||
		    number(colon + 1, end, &(*ranges)[2 * *n + 1]) ||
		    (*ranges)[2 * *n + 1] > UINT64_MAX - (*ranges)[2 * *n])
			return cli_error(-EINVAL,
					 "--changed: '%.*s' is not "
					 "OFFSET:LENGTH (bytes of the data)",
					 (int)(end - s), s);
		++*n;
		if (!*end)
			return 0;
		s = end + 1;
	}
}
