/* Option conversion, errors, and the header output shared by actions. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "verity/storage/backing.h"
#include "verity/storage/file.h"
#include "cli.h"

int cli_exit_code(int r)
{
	switch (-r) {
	case 0:
		return EXIT_OK;
	case EPERM:
		return EXIT_VERIFY;
	case ENOMEM:
		return EXIT_NOMEM;
	case ENODEV:
	case ENOTBLK:
		return EXIT_NODEV;
	case EBUSY:
	case EEXIST:
		return EXIT_BUSY;
	default:
		return EXIT_PARAMS;
	}
}

char *cli_last_error;

/* The library's parameters as the command's options. */
static const struct fv_param_names option_names[FV_PARAM_COUNT] = {
	[FV_PARAM_DATA_BLOCKS] = {"--data-blocks=%llu", "--data-blocks"},
	[FV_PARAM_HASH_OFFSET] = {"--hash-offset=%llu", "--hash-offset"},
	[FV_PARAM_FEC_ROOTS] = {"--fec-roots=%llu", "--fec-roots"},
	[FV_PARAM_FEC_OFFSET] = {"--fec-offset=%llu", "--fec-offset"},
	[FV_PARAM_PASSPHRASE] = {"--key-passphrase-file",
				 "--key-passphrase-file"},
	[FV_PARAM_DRY_RUN] = {"repair without --dry-run",
			      "repair without --dry-run"},
};

int cli_lib_error(int r, const struct fv_error *err)
{
	char fix[512];

	if (err->param == FV_PARAM_NONE)
		return cli_error(r, "%s", err->msg);
	/* the fix again, with the option that makes it */
	fv_render_fix(err, option_names, fix, sizeof(fix));
	return cli_error(r, "%.*s (%s)", (int)err->problem_len, err->msg, fix);
}

int cli_write_error(int r, const struct fv_error *err)
{
	return cli_lib_error(r == -EBUSY ? -EINVAL : r, err);
}

int cli_error(int r, const char *fmt, ...)
{
	va_list ap;

	fputs("fastverity: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* kept for the --json document */
	free(cli_last_error);
	va_start(ap, fmt);
	if (vasprintf(&cli_last_error, fmt, ap) < 0)
		cli_last_error = NULL;
	va_end(ap);
	return cli_exit_code(r);
}

void cli_debug(const struct cli_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->debug)
		return;
	fputs("# ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

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
		if (parse_u64("--fec-roots", o->fec_roots, 255, &v))
			return EXIT_PARAMS;
		if (v < 2 || v > 24)
			return cli_error(-EINVAL,
					 "--fec-roots: %s is not supported "
					 "(2 to 24)",
					 o->fec_roots);
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
			struct fv_error err;

			if (verity_random(p->salt, 32, &err))
				return cli_lib_error(-EIO, &err);
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
		struct fv_error err;

		if (verity_random(rnd, sizeof(rnd), &err))
			return cli_lib_error(-EIO, &err);
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
		if (parse_u64("--threads", o->threads, 256, &n))
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

/* A root hash file: the hex digest, then nothing but whitespace. Read
 * whole (a regular file of at most ROOT_FILE_MAX bytes). */
#define ROOT_FILE_MAX 4096

static int read_root_file(const char *path, char *buf, size_t size)
{
	struct fv_error err;
	uint8_t *text;
	size_t len, bad;
	int r = verity_read_file(path, "root hash file", ROOT_FILE_MAX, &text,
				 &len, &err);

	if (r)
		return cli_error(r == -ENOENT ? -EINVAL : r, "%s", err.msg);
	r = verity_root_text_parse(text, len, buf, size, &bad);
	free(text);
	if (r && bad)
		return cli_error(-EINVAL,
				 "%s: invalid root hash string specified: "
				 "byte %zu is not a hex digit (the file holds "
				 "the hex root hash, and nothing after it but "
				 "white space)",
				 path, bad);
	if (r)
		return cli_error(-EINVAL,
				 "%s: invalid root hash string specified "
				 "(more than %zu hex digits)",
				 path, size - 1);
	return 0;
}

/* The root hash text from the argument or --root-hash-file. */
static const char *root_text(const struct cli_opts *o, const char *arg,
			     char *buf, size_t size)
{
	if (arg && o->root_hash_file) {
		cli_error(-EINVAL, "give the root hash as an argument or with "
				   "--root-hash-file, not both");
		return NULL;
	}
	if (o->root_hash_file)
		return read_root_file(o->root_hash_file, buf, size) ? NULL
								    : buf;
	if (!arg)
		cli_error(-EINVAL, "this action requires <root_hash> or the "
				   "--root-hash-file option");
	return arg;
}

static int bad_root(const struct cli_opts *o, const char *hex,
		    const char *expected)
{
	return o->root_hash_file
		       ? -cli_error(-EINVAL,
				    "%s: invalid root hash string specified "
				    "(expected %s)",
				    o->root_hash_file, expected)
		       : -cli_error(-EINVAL,
				    "invalid root hash string specified: '%s' "
				    "(expected %s)",
				    hex, expected);
}

int cli_root_hash(const struct cli_opts *o, const char *arg,
		  unsigned digest_size, uint8_t *root)
{
	char text[2 * HT_MAX_DIGEST_SIZE + 8], expected[32];
	const char *hex = root_text(o, arg, text, sizeof(text));
	size_t len;

	if (!hex)
		return EXIT_PARAMS;
	snprintf(expected, sizeof(expected), "%u hex digits", 2 * digest_size);
	if (strlen(hex) != 2 * (size_t)digest_size ||
	    verity_hex_decode(hex, root, HT_MAX_DIGEST_SIZE, &len))
		return bad_root(o, hex, expected);
	return 0;
}

int cli_root_hash_any(const struct cli_opts *o, const char *arg, uint8_t *root,
		      size_t *len)
{
	char text[2 * HT_MAX_DIGEST_SIZE + 8];
	const char *hex = root_text(o, arg, text, sizeof(text));

	if (!hex)
		return EXIT_PARAMS;
	if (verity_hex_decode(hex, root, HT_MAX_DIGEST_SIZE, len) || *len < 16)
		return bad_root(o, hex, "32 to 128 hex digits");
	return 0;
}

/* The end of the tree as veritysetup prints it: from the tree start even
 * when there is no tree (one data block). */
static uint64_t nominal_hash_end(const struct verity_params *p,
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
		       nominal_hash_end(p, l) + (l->fec.on_hash_device
							 ? l->fec.parity_bytes
							 : 0));
	if (l->fec.roots && !l->fec.on_hash_device && l->fec.offset == 0)
		printf("FEC device size: \t%" PRIu64 " [bytes]\n",
		       l->fec.parity_bytes);
}

void *cli_json_header(const char *device, const struct verity_params *p,
		      const struct verity_layout *l, const uint8_t *root)
{
	json_object *o = json_object_new_object();
	char hex[2 * VERITY_MAX_SALT_SIZE + 1], uuid[37];

	json_object_object_add(o, "device", cli_json_str(device));
	if (!p->no_superblock) {
		verity_uuid_format(p->uuid, uuid);
		json_object_object_add(o, "uuid", cli_json_str(uuid));
	} else {
		json_object_object_add(o, "uuid", NULL);
	}
	json_object_object_add(o, "superblock",
			       json_object_new_boolean(!p->no_superblock));
	json_object_object_add(o, "hash_type",
			       json_object_new_int(p->hash_type));
	json_object_object_add(o, "data_blocks",
			       json_object_new_uint64(p->data_blocks));
	json_object_object_add(o, "data_block_size",
			       json_object_new_int64(p->data_block_size));
	json_object_object_add(o, "hash_blocks",
			       json_object_new_uint64(l->geo.tree_blocks));
	json_object_object_add(o, "hash_block_size",
			       json_object_new_int64(p->hash_block_size));
	json_object_object_add(o, "hash_algorithm",
			       json_object_new_string(p->hash_name));
	verity_hex_encode(p->salt, p->salt_size, hex);
	json_object_object_add(o, "salt", json_object_new_string(hex));
	json_object_object_add(o, "hash_offset",
			       json_object_new_uint64(p->hash_offset));
	json_object_object_add(o, "tree_offset",
			       json_object_new_uint64(l->tree_offset));
	json_object_object_add(o, "levels",
			       json_object_new_int((int)l->geo.levels));
	json_object_object_add(o, "hash_device_size",
			       json_object_new_uint64(nominal_hash_end(p, l)));
	if (l->fec.roots) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "roots",
				       json_object_new_int((int)l->fec.roots));
		json_object_object_add(f, "offset",
				       json_object_new_uint64(l->fec.offset));
		json_object_object_add(
			f, "parity_blocks",
			json_object_new_uint64(l->fec.rounds * l->fec.roots));
		json_object_object_add(
			f, "parity_bytes",
			json_object_new_uint64(l->fec.parity_bytes));
		json_object_object_add(f, "covered_blocks",
				       json_object_new_uint64(l->fec.blocks));
		json_object_object_add(f, "rounds",
				       json_object_new_uint64(l->fec.rounds));
		json_object_object_add(
			f, "on_hash_device",
			json_object_new_boolean(l->fec.on_hash_device));
		json_object_object_add(o, "fec", f);
	}
	if (root) {
		verity_hex_encode(root, l->geo.digest_size, hex);
		json_object_object_add(o, "root_hash",
				       json_object_new_string(hex));
	}
	return o;
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

const char *cli_verdict_word(int code)
{
	return code == EXIT_OK       ? "ok"
	       : code == EXIT_VERIFY ? "corrupted"
				     : "root hash mismatch";
}

void cli_json_add_counts(void *obj, const struct ht_verify_result *res)
{
	json_object_object_add(obj, "root_hash_matches",
			       json_object_new_boolean(res->root_matches));
	json_object_object_add(obj, "bad_data_blocks",
			       json_object_new_uint64(res->bad_data_blocks));
	json_object_object_add(obj, "bad_hash_blocks",
			       json_object_new_uint64(res->bad_hash_blocks));
	json_object_object_add(obj, "bad_spare_areas",
			       json_object_new_uint64(res->bad_padding));
	json_object_object_add(obj, "unreadable_blocks",
			       json_object_new_uint64(res->unreadable_blocks));
	json_object_object_add(
		obj, "unchecked_data_blocks",
		json_object_new_uint64(res->unchecked_data_blocks));
	json_object_object_add(
		obj, "unchecked_hash_blocks",
		json_object_new_uint64(res->unchecked_hash_blocks));
}

static const char *kind_name(enum ht_failure_kind k)
{
	switch (k) {
	case HT_BAD_DATA_BLOCK:
		return "data";
	case HT_BAD_HASH_BLOCK:
		return "hash";
	case HT_UNREADABLE_DATA:
	case HT_UNREADABLE_HASH:
		return "unreadable";
	default:
		return "padding";
	}
}

void *cli_json_failure(const struct verity_failure *f)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "type",
			       json_object_new_string(kind_name(f->kind)));
	json_object_object_add(j, "position",
			       json_object_new_uint64(f->position));
	json_object_object_add(j, "block", json_object_new_uint64(f->block));
	if (f->kind == HT_UNREADABLE_DATA || f->kind == HT_UNREADABLE_HASH)
		json_object_object_add(
			j, "area",
			json_object_new_string(f->kind == HT_UNREADABLE_DATA
						       ? "data"
						       : "hash"));
	if (f->kind != HT_BAD_DATA_BLOCK && f->kind != HT_UNREADABLE_DATA)
		json_object_object_add(j, "level",
				       json_object_new_int((int)f->level));
	return j;
}

static const char *roots_source_word(enum verity_roots_source s)
{
	return s == VERITY_ROOTS_GIVEN      ? "given"
	       : s == VERITY_ROOTS_INFERRED ? "size"
					    : "default";
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
	default:
		snprintf(buf, len,
			 "parity of %u roots, the default (the size of %s does "
			 "not tell; give --fec-roots)",
			 fl->roots, dev);
	}
}

void *cli_json_fec(const struct verity_fec_layout *fl,
		   const struct verity_fec_result *res, void *unrepairable)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "roots", json_object_new_int((int)fl->roots));
	json_object_object_add(
		j, "roots_from",
		json_object_new_string(roots_source_word(fl->roots_source)));
	json_object_object_add(j, "offset", json_object_new_uint64(fl->offset));
	json_object_object_add(j, "covered_blocks",
			       json_object_new_uint64(fl->blocks));
	json_object_object_add(j, "rounds", json_object_new_uint64(fl->rounds));
	json_object_object_add(j, "bad_blocks",
			       json_object_new_uint64(res->bad_blocks));
	json_object_object_add(j, "repairable_blocks",
			       json_object_new_uint64(res->repaired));
	json_object_object_add(
		j, "unrepairable_blocks",
		json_object_new_uint64(res->bad_blocks - res->repaired));
	json_object_object_add(j, "stale_parity_codewords",
			       json_object_new_uint64(res->stale_codewords));
	json_object_object_add(j, "stale_parity_rounds",
			       json_object_new_uint64(res->stale_rounds));
	json_object_object_add(j, "unchecked_parity_rounds",
			       json_object_new_uint64(res->unchecked_rounds));
	json_object_object_add(j, "parity_rewrite_limit",
			       json_object_new_uint64(res->rewrite_limit));
	json_object_object_add(j, "passes",
			       json_object_new_uint64(res->passes));
	if (unrepairable)
		json_object_object_add(j, "unrepairable", unrepairable);
	return j;
}

int cli_json_emitted;

void cli_json_print(void *obj)
{
	puts(json_object_to_json_string_ext(
		obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
	cli_json_emitted = 1;
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	unsigned min;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void *cli_json_str(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, out = 0;
	char *buf;
	json_object *j;

	if (!s)
		return NULL;
	len = strlen(s);
	for (size_t i = 0; i < len;) {
		size_t n = utf8_len(p + i);

		if (!n)
			break;
		i += n;
		if (i == len)
			return json_object_new_string(s);
	}
	if (!len)
		return json_object_new_string(s);
	/* invalid UTF-8: each bad byte becomes the text \xHH */
	buf = malloc(len * 4 + 1);
	if (!buf)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_len(p + i);

		if (n) {
			memcpy(buf + out, p + i, n);
			out += n;
			i += n;
		} else {
			out += (size_t)sprintf(buf + out, "\\x%02x", p[i]);
			i++;
		}
	}
	buf[out] = '\0';
	j = json_object_new_string(buf);
	free(buf);
	return j;
}

void cli_json_final(int rc, const char *fallback)
{
	json_object *j;

	if (cli_json_emitted)
		return;
	j = json_object_new_object();
	json_object_object_add(j, "result",
			       json_object_new_string(rc ? "error" : "ok"));
	json_object_object_add(
		j, "error",
		rc ? cli_json_str(cli_last_error ? cli_last_error : fallback)
		   : NULL);
	json_object_object_add(j, "exit_code", json_object_new_int(rc));
	cli_json_print(j);
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
