/* fastverity's option values read as its actions read them (parse.h):
 * numbers strict decimal (no sign, no overflow), the tree's parameters
 * each checked as it is read, in one order whatever the command line's,
 * so that the first bad one is said; --changed's list of ranges. */
#include "verity/ops/parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/show/pair.h"
#include "verity/storage/file.h"
#include "verity/tree/params.h"

/* The value of name in n pairs (the last one given; a NULL value is
 * none), or NULL. */
static const char *value_of(const char *const *o, size_t n, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(o[2 * i], name) && o[2 * i + 1])
			v = o[2 * i + 1];
	return v;
}

/* Strict unsigned decimal, at most max. */
static int u64(const char *name, const char *s, uint64_t max, uint64_t *out,
	       struct ht_error *err)
{
	uint64_t v = 0;

	if (!*s)
		return ht_fail(err, EINVAL, "--%s: empty value", name);
	for (const char *c = s; *c; c++) {
		if (!isdigit((unsigned char)*c))
			return ht_fail(err, EINVAL,
				       "--%s: '%s' is not a number", name, s);
		if (v > (max - (uint64_t)(*c - '0')) / 10)
			return ht_fail(err, EINVAL,
				       "--%s: %s is too large (at most %" PRIu64
				       ")",
				       name, s, max);
		v = v * 10 + (uint64_t)(*c - '0');
	}
	*out = v;
	return 0;
}

/* A byte count: digits and an optional K, M, G or T (powers of 1024). */
static int size(const char *text, uint64_t *out, struct ht_error *err)
{
	static const char units[] = "KMGT";
	char digits[32];
	size_t n = strlen(text);
	unsigned shift = 0;
	const char *u;
	int r;

	if (n && n < sizeof(digits) &&
	    (u = strchr(units, toupper((unsigned char)text[n - 1]))) && *u) {
		shift = 10 * (unsigned)(u - units + 1);
		n--;
	}
	if (n >= sizeof(digits))
		return ht_fail(err, EINVAL, "--size: '%s' is not a size", text);
	memcpy(digits, text, n);
	digits[n] = '\0';
	if ((r = u64("size", digits, UINT64_MAX >> shift, out, err)))
		return r;
	*out <<= shift;
	return 0;
}

int verity_ops_number(const char *name, const char *value, uint64_t *out,
		      struct ht_error *err)
{
	/* the largest each takes; the rest, a count */
	static const struct {
		const char *name;
		uint64_t max;
	} maxima[] = {
		{"hash-offset", INT64_MAX},
		{"fec-offset", INT64_MAX / 2},
		{"fec-roots", UINT32_MAX},
		{"threads", FV_MAX_THREADS},
		{"format", UINT32_MAX},
		{"data-block-size", UINT32_MAX},
		{"hash-block-size", UINT32_MAX},
	};
	uint64_t max = UINT64_MAX - 1;
	int r;

	if (!strcmp(name, "size"))
		return size(value, out, err);
	for (size_t i = 0; i < sizeof(maxima) / sizeof(maxima[0]); i++)
		if (!strcmp(name, maxima[i].name))
			max = maxima[i].max;
	if ((r = u64(name, value, max, out, err)))
		return r;
	if (!strcmp(name, "hash-offset") && *out % 512)
		return ht_fail(err, EINVAL,
			       "--hash-offset: %s is not a multiple of 512",
			       value);
	if (!strcmp(name, "fec-roots") &&
	    (*out < FV_FEC_MIN_ROOTS || *out > FV_FEC_MAX_ROOTS))
		return ht_fail(err, EINVAL,
			       "--fec-roots: %s is not supported (%d to %d)",
			       value, FV_FEC_MIN_ROOTS, FV_FEC_MAX_ROOTS);
	if (!strcmp(name, "threads") && !*out)
		return ht_fail(err, EINVAL, "--threads: at least 1");
	if ((!strcmp(name, "data-block-size") ||
	     !strcmp(name, "hash-block-size")) &&
	    (*out < 512 || *out > 524288 || (*out & (*out - 1))))
		return ht_fail(err, EINVAL,
			       "--%s: unsupported VERITY block size %s (a "
			       "power of two from 512 to 524288)",
			       name, value);
	if (!strcmp(name, "format") && *out > 1)
		return ht_fail(err, EINVAL,
			       "--format: unsupported hash type %s (0 or 1)",
			       value);
	return 0;
}

/* p checked as fv_params_check checks it. */
static int check(const fv_params *p, struct ht_error *err)
{
	struct verity_params q;
	int r = verity_show_params_in(p, &q, err);

	return r ? r : verity_params_validate(&q, err);
}

static int hash(fv_params *p, const char *hash, struct ht_error *err)
{
	int r;

	if (strlen(hash) > FV_MAX_HASH_NAME || !*hash)
		return ht_fail(err, EINVAL,
			       "--hash: hash algorithm '%s' not supported",
			       hash);
	snprintf(p->hash, sizeof(p->hash), "%s", hash);
	/* the hash checked now, the other fields still format's
	 * (veritysetup's words; OpenSSL not opened: the check's) */
	if ((r = check(p, err)) == -EINVAL)
		return ht_fail(err, EINVAL, "hash algorithm %s not supported",
			       hash);
	return r;
}

static int salt(fv_params *p, const char *salt, struct ht_error *err)
{
	size_t n = strlen(salt);

	if (!strcmp(salt, "-") || !n) {
		p->salt_len = 0;
		return 0;
	}
	if (n > 2 * FV_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL,
			       "--salt: salt of %zu hex digits is too long "
			       "(at most %d bytes)",
			       n, FV_MAX_SALT_SIZE);
	for (size_t i = 0; i < n; i++)
		if (n % 2 || !isxdigit((unsigned char)salt[i]))
			return ht_fail(err, EINVAL,
				       "--salt: '%s' is not an even number of "
				       "hex digits",
				       salt);
	for (size_t i = 0; i < n; i += 2)
		p->salt[i / 2] = (uint8_t)strtoul(
			(char[3]){salt[i], salt[i + 1], 0}, NULL, 16);
	p->salt_len = n / 2;
	return 0;
}

static int uuid(fv_params *p, const char *uuid, struct ht_error *err)
{
	fv_params alone;
	int r;

	/* the UUID checked alone, beside format's defaults (an empty one
	 * is none to the library, not a UUID given) */
	if ((r = verity_show_params_init(&alone, err)))
		return r;
	alone.size = sizeof(alone);
	if (!*uuid || strlen(uuid) >= sizeof(p->uuid) ||
	    (snprintf(alone.uuid, sizeof(alone.uuid), "%s", uuid),
	     check(&alone, err)))
		return ht_fail(err, EINVAL, "--uuid: '%s' is not a UUID", uuid);
	/* kept as the superblock will say it: lowercase */
	for (size_t i = 0; alone.uuid[i]; i++)
		p->uuid[i] = (char)tolower((unsigned char)alone.uuid[i]);
	p->uuid[strlen(alone.uuid)] = '\0';
	return 0;
}

int verity_ops_params_parse(fv_params *p, const char *const *opts, size_t n,
			    struct ht_error *err)
{
	const char *v;
	uint64_t dbs = p->data_block_size, hbs = p->hash_block_size, k;
	int r;

	if ((v = value_of(opts, n, "hash")) && (r = hash(p, v, err)))
		return r;
	if ((v = value_of(opts, n, "format"))) {
		if ((r = verity_ops_number("format", v, &k, err)))
			return r;
		p->hash_type = (unsigned)k;
	}
	if (((v = value_of(opts, n, "data-block-size")) &&
	     (r = verity_ops_number("data-block-size", v, &dbs, err))) ||
	    ((v = value_of(opts, n, "hash-block-size")) &&
	     (r = verity_ops_number("hash-block-size", v, &hbs, err))))
		return r;
	p->data_block_size = (uint32_t)dbs;
	p->hash_block_size = (uint32_t)hbs;
	if ((v = value_of(opts, n, "data-blocks")) &&
	    (r = u64("data-blocks", v, INT64_MAX / (dbs ? dbs : 1),
		     &p->data_blocks, err)))
		return r;
	p->hash_offset = 0;
	if ((v = value_of(opts, n, "hash-offset")) &&
	    (r = verity_ops_number("hash-offset", v, &p->hash_offset, err)))
		return r;
	if ((v = value_of(opts, n, "salt")) && (r = salt(p, v, err)))
		return r;
	p->superblock = !value_of(opts, n, "no-superblock");
	if ((v = value_of(opts, n, "uuid")) && (r = uuid(p, v, err)))
		return r;
	return 0;
}

/* Most ranges --changed takes. */
#define CHANGED_MAX (4u << 20)

/* A number of a range, s to end: 0 or -1. */
static int number(const char *s, const char *end, uint64_t *v)
{
	char *stop;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &stop, 0);
	return errno || stop != end ? -1 : 0;
}

static int ranges_of(const char *text, uint64_t **ranges, size_t *n,
		     struct ht_error *err)
{
	size_t cap = 1;
	uint64_t *v;

	for (const char *c = text; *c; c++)
		cap += *c == ',';
	if (cap > CHANGED_MAX)
		return ht_fail(err, EINVAL, "--changed: more than %u ranges",
			       CHANGED_MAX);
	if (!(*ranges = v = calloc(2 * cap, sizeof(*v))))
		return ht_fail(err, ENOMEM, "out of memory");
	*n = 0;
	for (const char *s = text;;) {
		const char *end = strchr(s, ','), *colon;

		if (!end)
			end = s + strlen(s);
		colon = memchr(s, ':', (size_t)(end - s));
		if (!colon || number(s, colon, &v[2 * *n]) ||
		    number(colon + 1, end, &v[2 * *n + 1]) ||
		    v[2 * *n + 1] > UINT64_MAX - v[2 * *n]) {
			free(v);
			*ranges = NULL;
			return ht_fail(err, EINVAL,
				       "--changed: '%.*s' is not "
				       "OFFSET:LENGTH (bytes of the data)",
				       (int)(end - s), s);
		}
		++*n;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

int verity_ops_ranges(const char *text, uint64_t **ranges, size_t *n,
		      struct ht_error *err)
{
	uint8_t *buf;
	size_t len;
	int r;

	*ranges = NULL;
	*n = 0;
	if (text[0] != '@')
		return ranges_of(text, ranges, n, err);
	/* a list too long for one argument (128 KiB on Linux), separated
	 * by commas, blanks or new lines */
	if ((r = verity_read_file(text + 1, "list of changed ranges", 64u << 20,
				  &buf, &len, err)))
		return r == -ENOENT ? -EINVAL : r;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n' || buf[i] == ' ' || buf[i] == '\t' ||
		    buf[i] == '\r')
			buf[i] = ',';
	while (len && buf[len - 1] == ',')
		len--;
	buf[len] = '\0';
	if (memchr(buf, '\0', len))
		r = ht_fail(err, EINVAL, "%s: not a list of ranges", text + 1);
	else
		r = ranges_of((char *)buf, ranges, n, err);
	free(buf);
	return r;
}
