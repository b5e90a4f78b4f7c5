/* fastverity avb info_image and verify_image: avbtool's text, line for
 * line, and --json (docs/android.md). */
#include "cli/avb.h"
#include "verity/container/avb/image.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>
#include <openssl/evp.h>

#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/text.h"
#include "hashtree/hasher.h"
#include "verity/container/avb/rsa.h"
#include "verity/ops.h"
#include "verity/storage/backing.h"
#include "verity/storage/file.h"
#include "verity/storage/output.h"
#include "verity/trust.h"

static void hex(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

static char *hex_str(const uint8_t *p, size_t n)
{
	char *s = malloc(2 * n + 1);

	if (s) {
		for (size_t i = 0; i < n; i++)
			sprintf(s + 2 * i, "%02x", p[i]);
		s[2 * n] = 0;
	}
	return s;
}

int cli_avb_sha1_hex(const uint8_t *p, size_t n, char out[41])
{
	uint8_t d[20];
	unsigned len = 0;
	EVP_MD *md = EVP_MD_fetch(ht_crypto_libctx(), "SHA1", NULL);
	int ok = md && EVP_Digest(p, n, d, &len, md, NULL) && len == 20;

	EVP_MD_free(md);
	if (!ok)
		return -EIO;
	for (int i = 0; i < 20; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
	return 0;
}

/* Python's repr() of bytes, without its b: how avbtool shows a
 * property's value. */
static void py_bytes_repr(FILE *f, const uint8_t *p, size_t n)
{
	int sq = 0, dq = 0;
	char q;

	for (size_t i = 0; i < n; i++) {
		sq |= p[i] == '\'';
		dq |= p[i] == '"';
	}
	q = sq && !dq ? '"' : '\'';
	fputc(q, f);
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c == (uint8_t)q || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc(q, f);
}

/* Descriptor i of a as info_image prints it. */
static void print_descriptor(FILE *f, const fv_avb *a, size_t i)
{
	uint64_t bytes, tag = fv_avb_descriptor_tag(a, i, &bytes);
	struct fv_avb_property p = {.size = sizeof(p)};
	struct fv_avb_hashtree t = {.size = sizeof(t)};
	struct fv_avb_hash h = {.size = sizeof(h)};
	struct fv_avb_kernel_cmdline k = {.size = sizeof(k)};
	struct fv_avb_chain_partition c = {.size = sizeof(c)};

	switch (tag) {
	case FV_AVB_PROPERTY:
		fv_avb_property(a, i, &p);
		fprintf(f, "    Prop: %.*s -> ", (int)p.key_len,
			(const char *)p.key);
		if (p.value_len < 256)
			py_bytes_repr(f, p.value, (size_t)p.value_len);
		else
			fprintf(f, "(%" PRIu64 " bytes)", p.value_len);
		fputc('\n', f);
		break;
	case FV_AVB_HASHTREE:
		fv_avb_hashtree(a, i, &t);
		fprintf(f,
			"    Hashtree descriptor:\n"
			"      Version of dm-verity:  %u\n"
			"      Image Size:            %" PRIu64 " bytes\n"
			"      Tree Offset:           %" PRIu64 "\n"
			"      Tree Size:             %" PRIu64 " bytes\n"
			"      Data Block Size:       %u bytes\n"
			"      Hash Block Size:       %u bytes\n"
			"      FEC num roots:         %u\n"
			"      FEC offset:            %" PRIu64 "\n"
			"      FEC size:              %" PRIu64 " bytes\n"
			"      Hash Algorithm:        %s\n"
			"      Partition Name:        %s\n"
			"      Salt:                  ",
			t.dm_verity_version, t.image_size, t.tree_offset,
			t.tree_size, t.data_block_size, t.hash_block_size,
			t.fec_num_roots, t.fec_offset, t.fec_size,
			t.hash_algorithm,
			CLI_NAME(t.partition_name, t.partition_name_len));
		hex(f, t.salt, t.salt_len);
		fputs("\n      Root Digest:           ", f);
		hex(f, t.root_digest, t.root_digest_len);
		fprintf(f, "\n      Flags:                 %u\n", t.flags);
		break;
	case FV_AVB_HASH:
		fv_avb_hash(a, i, &h);
		fprintf(f,
			"    Hash descriptor:\n"
			"      Image Size:            %" PRIu64 " bytes\n"
			"      Hash Algorithm:        %s\n"
			"      Partition Name:        %s\n"
			"      Salt:                  ",
			h.image_size, h.hash_algorithm,
			CLI_NAME(h.partition_name, h.partition_name_len));
		hex(f, h.salt, h.salt_len);
		fputs("\n      Digest:                ", f);
		hex(f, h.digest, h.digest_len);
		fprintf(f, "\n      Flags:                 %u\n", h.flags);
		break;
	case FV_AVB_KERNEL_CMDLINE:
		fv_avb_kernel_cmdline(a, i, &k);
		fprintf(f,
			"    Kernel Cmdline descriptor:\n"
			"      Flags:                 %u\n"
			"      Kernel Cmdline:        '%.*s'\n",
			k.flags, (int)k.cmdline_len, (const char *)k.cmdline);
		break;
	case FV_AVB_CHAIN_PARTITION:
		fv_avb_chain_partition(a, i, &c);
		fprintf(f,
			"    Chain Partition descriptor:\n"
			"      Partition Name:          %s\n"
			"      Rollback Index Location: %u\n"
			"      Public key (sha1):       %s\n"
			"      Flags:                   %u\n",
			CLI_NAME(c.partition_name, c.partition_name_len),
			c.rollback_index_location, c.public_key_sha1, c.flags);
		break;
	default:
		fprintf(f,
			"    Unknown descriptor:\n"
			"      Tag:  %" PRIu64 "\n"
			"      Data: %" PRIu64 " bytes\n",
			tag, bytes);
		break;
	}
}

static void print_info(FILE *f, const fv_avb *a)
{
	struct fv_avb_footer ft = {.size = sizeof(ft)};
	struct fv_avb_header h = {.size = sizeof(h)};

	fv_avb_header_of(a, &h);
	if (!fv_avb_footer_of(a, &ft))
		fprintf(f,
			"Footer version:           %u.%u\n"
			"Image size:               %" PRIu64 " bytes\n"
			"Original image size:      %" PRIu64 " bytes\n"
			"VBMeta offset:            %" PRIu64 "\n"
			"VBMeta size:              %" PRIu64 " bytes\n"
			"--\n",
			ft.version_major, ft.version_minor, ft.image_size,
			ft.original_image_size, ft.vbmeta_offset,
			ft.vbmeta_size);
	fprintf(f,
		"Minimum libavb version:   %u.%u\n"
		"Header Block:             %" PRIu64 " bytes\n"
		"Authentication Block:     %" PRIu64 " bytes\n"
		"Auxiliary Block:          %" PRIu64 " bytes\n",
		h.required_major, h.required_minor, h.header_size, h.auth_size,
		h.aux_size);
	if (h.public_key_sha1[0])
		fprintf(f, "Public key (sha1):        %s\n", h.public_key_sha1);
	fprintf(f,
		"Algorithm:                %s\n"
		"Rollback Index:           %" PRIu64 "\n"
		"Flags:                    %u\n"
		"Rollback Index Location:  %u\n"
		"Release String:           '%s'\n"
		"Descriptors:\n",
		h.algorithm, h.rollback_index, h.flags,
		h.rollback_index_location, h.release);
	for (size_t i = 0; i < fv_avb_descriptors(a); i++)
		print_descriptor(f, a, i);
	if (!fv_avb_descriptors(a))
		fputs("    (none)\n", f);
}

static json_object *json_bytes_hex(const uint8_t *p, size_t n)
{
	char *s = hex_str(p, n);
	json_object *j = cli_json_str(s ? s : "");

	free(s);
	return j;
}

static json_object *json_name(const uint8_t *p, size_t n)
{
	char *s = strndup((const char *)p, n);
	json_object *j = cli_json_str(s ? s : "");

	free(s);
	return j;
}

static json_object *json_descriptor(const fv_avb *a, size_t i)
{
	uint64_t bytes, tag = fv_avb_descriptor_tag(a, i, &bytes);
	struct fv_avb_property p = {.size = sizeof(p)};
	struct fv_avb_hashtree t = {.size = sizeof(t)};
	struct fv_avb_hash h = {.size = sizeof(h)};
	struct fv_avb_kernel_cmdline k = {.size = sizeof(k)};
	struct fv_avb_chain_partition c = {.size = sizeof(c)};
	json_object *j = json_object_new_object();

#define ADD(k, v) json_object_object_add(j, k, v)
#define U64(k, v) ADD(k, json_object_new_uint64(v))
	switch (tag) {
	case FV_AVB_PROPERTY:
		fv_avb_property(a, i, &p);
		ADD("type", cli_json_str("property"));
		ADD("key", json_name(p.key, p.key_len));
		ADD("value", json_name(p.value, (size_t)p.value_len));
		break;
	case FV_AVB_HASHTREE:
		fv_avb_hashtree(a, i, &t);
		ADD("type", cli_json_str("hashtree"));
		ADD("partition_name",
		    json_name(t.partition_name, t.partition_name_len));
		ADD("hash_algorithm", cli_json_str(t.hash_algorithm));
		U64("image_size", t.image_size);
		U64("dm_verity_version", t.dm_verity_version);
		U64("tree_offset", t.tree_offset);
		U64("tree_size", t.tree_size);
		U64("data_block_size", t.data_block_size);
		U64("hash_block_size", t.hash_block_size);
		U64("fec_num_roots", t.fec_num_roots);
		U64("fec_offset", t.fec_offset);
		U64("fec_size", t.fec_size);
		ADD("salt", json_bytes_hex(t.salt, t.salt_len));
		ADD("root_digest", json_bytes_hex(t.root_digest,
						  t.root_digest_len));
		U64("flags", t.flags);
		break;
	case FV_AVB_HASH:
		fv_avb_hash(a, i, &h);
		ADD("type", cli_json_str("hash"));
		ADD("partition_name",
		    json_name(h.partition_name, h.partition_name_len));
		ADD("hash_algorithm", cli_json_str(h.hash_algorithm));
		U64("image_size", h.image_size);
		ADD("salt", json_bytes_hex(h.salt, h.salt_len));
		ADD("digest", json_bytes_hex(h.digest, h.digest_len));
		U64("flags", h.flags);
		break;
	case FV_AVB_KERNEL_CMDLINE:
		fv_avb_kernel_cmdline(a, i, &k);
		ADD("type", cli_json_str("kernel_cmdline"));
		U64("flags", k.flags);
		ADD("kernel_cmdline", json_name(k.cmdline, k.cmdline_len));
		break;
	case FV_AVB_CHAIN_PARTITION:
		fv_avb_chain_partition(a, i, &c);
		ADD("type", cli_json_str("chain_partition"));
		ADD("partition_name",
		    json_name(c.partition_name, c.partition_name_len));
		U64("rollback_index_location", c.rollback_index_location);
		if (c.public_key_sha1[0])
			ADD("public_key_sha1", cli_json_str(c.public_key_sha1));
		U64("flags", c.flags);
		break;
	default:
		ADD("type", cli_json_str("unknown"));
		U64("tag", tag);
		U64("size", bytes);
		break;
	}
#undef U64
#undef ADD
	return j;
}

static json_object *json_info(const char *image, const fv_avb *a)
{
	struct fv_avb_footer ft = {.size = sizeof(ft)};
	struct fv_avb_header h = {.size = sizeof(h)};
	json_object *j = json_object_new_object(), *list;
	char version[24];
	uint64_t file_size = 0;

	fv_avb_header_of(a, &h);
	fv_device_size(image, &file_size);
	json_object_object_add(j, "image", cli_json_str(image));
	if (!fv_avb_footer_of(a, &ft)) {
		json_object *f = json_object_new_object();

		file_size = ft.image_size;
		snprintf(version, sizeof(version), "%u.%u", ft.version_major,
			 ft.version_minor);
		json_object_object_add(f, "version", cli_json_str(version));
		json_object_object_add(
			f, "original_image_size",
			json_object_new_uint64(ft.original_image_size));
		json_object_object_add(f, "vbmeta_offset",
				       json_object_new_uint64(ft.vbmeta_offset));
		json_object_object_add(f, "vbmeta_size",
				       json_object_new_uint64(ft.vbmeta_size));
		json_object_object_add(j, "image_size",
				       json_object_new_uint64(file_size));
		json_object_object_add(j, "footer", f);
	} else {
		json_object_object_add(j, "image_size",
				       json_object_new_uint64(file_size));
		json_object_object_add(j, "footer", NULL);
	}
	snprintf(version, sizeof(version), "%u.%u", h.required_major,
		 h.required_minor);
	json_object_object_add(j, "minimum_libavb_version",
			       cli_json_str(version));
	json_object_object_add(j, "authentication_block_size",
			       json_object_new_uint64(h.auth_size));
	json_object_object_add(j, "auxiliary_block_size",
			       json_object_new_uint64(h.aux_size));
	json_object_object_add(j, "public_key_sha1",
			       h.public_key_sha1[0]
				       ? cli_json_str(h.public_key_sha1)
				       : NULL);
	json_object_object_add(j, "algorithm", cli_json_str(h.algorithm));
	json_object_object_add(j, "rollback_index",
			       json_object_new_uint64(h.rollback_index));
	json_object_object_add(j, "flags", json_object_new_uint64(h.flags));
	json_object_object_add(
		j, "rollback_index_location",
		json_object_new_uint64(h.rollback_index_location));
	json_object_object_add(j, "release_string", cli_json_str(h.release));
	list = json_object_new_array();
	for (size_t i = 0; i < fv_avb_descriptors(a); i++)
		json_object_array_add(list, json_descriptor(a, i));
	json_object_object_add(j, "descriptors", list);
	return j;
}

int cli_avb_write(const char *output, const char *what, const void *buf,
		  size_t len, const char *const *inputs, size_t ninputs)
{
	struct ht_error err;
	int r;

	for (size_t i = 0; i < ninputs; i++)
		if (inputs[i] && verity_path_same(output, inputs[i]))
			return cli_error(-EINVAL,
					 "--output %s: is the input %s: an "
					 "output is never written over what "
					 "is read",
					 output, inputs[i]);
	if ((r = verity_write_file(output, what, buf, len, &err)))
		return cli_inside_write_error(r, &err);
	return EXIT_OK;
}

int cli_avb_info(const struct cli_avb_args *a)
{
	fv_avb *av;
	char *text = NULL;
	size_t len = 0;
	FILE *f = stdout;
	int r = EXIT_OK;

	if (!a->image)
		return cli_error(-EINVAL,
				 "avb info_image: --image is required");
	if ((r = fv_avb_show(a->image, &av)))
		return cli_lib_error(r);
	/* --output: the whole text, then written as every output is */
	if (a->output && !(f = open_memstream(&text, &len))) {
		fv_avb_free(av);
		return cli_error(-ENOMEM, "out of memory");
	}
	if (a->json) {
		json_object *j = json_info(a->image, av);

		fprintf(f, "%s\n",
			json_object_to_json_string_ext(
				j, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
		cli_json_emitted = 1;
	} else {
		print_info(f, av);
	}
	fv_avb_free(av);
	if (f != stdout) {
		if (fclose(f))
			r = cli_error(-ENOMEM, "out of memory");
		else
			r = cli_avb_write(a->output, "image information", text,
					  len, &a->image, 1);
		free(text);
	}
	return r;
}

/* ---- verify_image ---- */

struct bad_blocks {
	uint64_t data, hash;
};

static void report_block(void *c, const struct verity_failure *f)
{
	struct bad_blocks *b = c;
	int data =
		f->kind == HT_BAD_DATA_BLOCK || f->kind == HT_UNREADABLE_DATA;

	if (data)
		b->data++;
	else
		b->hash++;
	if (f->kind == HT_BAD_HASH_BLOCK)
		fprintf(stderr,
			"Verification failed at position %" PRIu64
			" (hash block, level %u).\n",
			f->position, f->level);
	else
		fprintf(stderr, "%s at position %" PRIu64 ".\n",
			cli_failure_words((enum fv_failure_kind)f->kind),
			f->position);
}

/* cli_verdict of an internal result. */
static int verdict_of(const struct ht_verify_result *res)
{
	struct cli_counts c;

	cli_inside_counts(res, &c);
	return cli_verdict(&c);
}

/* The image a descriptor names: the image itself for the descriptors of
 * its own partition (it carries them in its footer's vbmeta: the first
 * hash or hashtree descriptor's name) and for a nameless one, as
 * avbtool; <dir>/<partition name><ext> for another partition's, its
 * name a name, never a path (NULL with the message printed). */
static char *described_image(const char *image, const struct avb_descriptor *d,
			     const uint8_t *own, size_t own_len)
{
	char *copy, *dir, *out = NULL;
	const char *base = strrchr(image, '/'), *ext;
	size_t len;

	if (!d->name_len || (own && own_len == d->name_len &&
			     !memcmp(own, d->name, own_len)))
		return strdup(image);
	if (!avb_partition_name_ok(d->name, d->name_len)) {
		cli_error(-EINVAL,
			  "%s: the partition name '%s' is not a name "
			  "(letters, digits, '_', '-', '.'): no file is "
			  "looked up by it",
			  image, CLI_NAME(d->name, d->name_len));
		return NULL;
	}
	if (!(copy = strdup(image)))
		return NULL;
	base = base ? base + 1 : image;
	ext = strrchr(base, '.');
	ext = ext && ext != base ? ext : "";
	/* avbtool's os.path.join: a bare file name has no directory */
	dir = base == image ? NULL : dirname(copy);
	len = (dir ? strlen(dir) + 1 : 0) + d->name_len + strlen(ext) + 1;
	if ((out = malloc(len)))
		snprintf(out, len, "%s%s%.*s%s", dir ? dir : "",
			 dir && strcmp(dir, "/") ? "/" : "", (int)d->name_len,
			 (const char *)d->name, ext);
	free(copy);
	return out;
}

/* A hashtree descriptor checked over its image: every block, then the
 * parity against the verified data. */
static int verify_hashtree(const struct cli_avb_args *a, const char *image,
			   const struct avb_descriptor *d,
			   struct verity_run *run)
{
	struct verity_pair pair;
	struct verity_outcome out;
	struct bad_blocks bad = {0, 0};
	struct ht_error err;
	int fec_unusable, r;

	(void)a;
	{
		struct verity_device dev;

		if ((r = verity_device_open(&dev, image, VERITY_OPEN_READ,
					    &err)))
			return cli_inside_error(r, &err);
		r = avb_hashtree_pair(image, dev.size, d, &pair, &fec_unusable,
				      &err);
		verity_device_close(&dev);
	}
	if (r)
		return cli_inside_error(r, &err);
	run->report = report_block;
	run->ctx = &bad;
	r = verity_op_verify(&pair, run, &out, &err);
	if (r)
		return cli_inside_error(r, &err);
	if (bad.data || !out.res.root_matches) {
		fprintf(stderr, "hashtree of %s does not match descriptor\n",
			image);
		return EXIT_PARAMS;
	}
	if (bad.hash || verdict_of(&out.res)) {
		fprintf(stderr, "hashtree of %s contains invalid data\n",
			image);
		return EXIT_PARAMS;
	}
	if (out.has_fec && out.fec.stale_codewords) {
		fprintf(stderr,
			"parity of %s: %" PRIu64 " codewords in %" PRIu64
			" rounds disagree with the verified data\n",
			image, out.fec.stale_codewords, out.fec.stale_rounds);
		return EXIT_PARAMS;
	}
	if (fec_unusable)
		fprintf(stderr,
			"fastverity: %s: the parity uses 4096-byte blocks and "
			"the tree %u-byte blocks: the kernel cannot use it "
			"(not checked)\n",
			image, d->data_block_size);
	printf("%s: Successfully verified %s hashtree of %s for image of "
	       "%" PRIu64 " bytes\n",
	       CLI_NAME(d->name, d->name_len), d->hash_algorithm,
	       image, d->image_size);
	return EXIT_OK;
}

static int verify_hash(const char *image, const struct avb_descriptor *d)
{
	struct ht_error err;
	int r = avb_hash_check(image, d, &err);

	if (r == -EPERM) {
		/* avbtool's line, as it prints it */
		fprintf(stderr, "%s\n", err.msg);
		return EXIT_PARAMS;
	}
	if (r)
		return cli_inside_error(r, &err);
	printf("%s: Successfully verified %s hash of %s for image of %" PRIu64
	       " bytes\n",
	       CLI_NAME(d->name, d->name_len), d->hash_algorithm, image,
	       d->image_size);
	return EXIT_OK;
}

/* --expected_chain_partition NAME:LOCATION:KEY_PATH for name. */
static int expected_chain(const struct cli_avb_args *a,
			  const struct avb_descriptor *d, uint32_t *location,
			  uint8_t **key, size_t *len, int *found)
{
	*found = 0;
	for (size_t i = 0; i < a->nexpected; i++) {
		const char *s = a->expected[i], *c1 = strchr(s, ':'), *c2;
		struct ht_error err;
		char *end;
		unsigned long loc;
		int r;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		if ((size_t)(c1 - s) != d->name_len ||
		    memcmp(s, d->name, d->name_len))
			continue;
		loc = strtoul(c1 + 1, &end, 10);
		if (end != c2 || loc > UINT32_MAX)
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		if ((r = verity_read_file(c2 + 1, "public key file", 1u << 16,
					  key, len, &err)))
			return cli_inside_error(r == -ENOENT ? -EINVAL : r, &err);
		*location = (uint32_t)loc;
		*found = 1;
		return 0;
	}
	return 0;
}

static int verify_chain(const struct cli_avb_args *a,
			const struct avb_descriptor *d)
{
	uint8_t *key = NULL;
	size_t len = 0;
	uint32_t loc = 0;
	int found, r = expected_chain(a, d, &loc, &key, &len, &found);

	if (r)
		return r;
	if (!found) {
		fprintf(stderr,
			"No expected chain partition for partition %s. Use "
			"--expected_chain_partition to specify expected "
			"contents or --follow_chain_partitions.\n",
			CLI_NAME(d->name, d->name_len));
		return EXIT_PARAMS;
	}
	if (loc != d->rollback_index_location) {
		fprintf(stderr,
			"Expected rollback_index_location %u does not match "
			"%u in descriptor for partition %s\n",
			loc, d->rollback_index_location, CLI_NAME(d->name, d->name_len));
		r = EXIT_PARAMS;
	} else if (len != d->public_key_len ||
		   memcmp(key, d->public_key, len)) {
		fprintf(stderr,
			"Expected public key blob does not match public key "
			"blob in descriptor for partition %s\n",
			CLI_NAME(d->name, d->name_len));
		r = EXIT_PARAMS;
	} else {
		printf("%s: Successfully verified chain partition descriptor "
		       "matches expected data\n",
		       CLI_NAME(d->name, d->name_len));
	}
	free(key);
	return r;
}

/* The key an image's vbmeta must be signed with: --key's (the image
 * given), or the one its chain descriptor pins (a chained partition, as
 * libavb judges it on a device). NULL key: the embedded one, said to
 * prove nothing of who signed. */
struct signer {
	const uint8_t *key;
	size_t len;
	const struct avb_descriptor *chain; /* the pinning descriptor */
};

static int verify_one(const struct cli_avb_args *a, const char *image,
		      int follow, const struct signer *want,
		      struct verity_run *run);

/* Each partition's data is hashed once: two hash or hashtree descriptors
 * of one partition are refused (a vbmeta of many descriptors over one
 * large image made verify_image hash it once each), and so are more
 * descriptors than a device has partitions. */
#define AVB_MAX_CHECKED 128

static int one_per_partition(const char *image, const struct avb_vbmeta *v)
{
	size_t n = 0;

	for (size_t i = 0; i < v->ndesc; i++) {
		const struct avb_descriptor *d = &v->desc[i];

		if (d->tag != AVB_TAG_HASHTREE && d->tag != AVB_TAG_HASH)
			continue;
		if (++n > AVB_MAX_CHECKED)
			return cli_error(-EINVAL,
					 "%s: more than %d hash and hashtree "
					 "descriptors: not checked",
					 image, AVB_MAX_CHECKED);
		for (size_t j = 0; j < i; j++) {
			const struct avb_descriptor *e = &v->desc[j];

			if ((e->tag == AVB_TAG_HASHTREE ||
			     e->tag == AVB_TAG_HASH) &&
			    e->name_len == d->name_len &&
			    !memcmp(e->name, d->name, d->name_len))
				return cli_error(
					-EINVAL,
					"%s: two descriptors of partition '%s' "
					"(%zu and %zu): each partition's data "
					"is checked once, against one digest",
					image, CLI_NAME(d->name, d->name_len),
					j + 1, i + 1);
		}
	}
	return 0;
}

static int verify_descriptors(const struct cli_avb_args *a, const char *image,
			      const struct avb_image *img, int follow,
			      struct verity_run *run)
{
	const struct avb_vbmeta *v = &img->vbmeta;
	const uint8_t *own = NULL;
	size_t own_len = 0;
	int r = 0;

	/* an image with a footer carries its own partition's descriptor
	 * first (add_hash_footer, add_hashtree_footer): that one is checked
	 * over the image given, whatever <name>.img lies beside it */
	if ((r = one_per_partition(image, v)))
		return r;
	for (size_t i = 0; img->has_footer && !own && i < v->ndesc; i++)
		if (v->desc[i].tag == AVB_TAG_HASHTREE ||
		    v->desc[i].tag == AVB_TAG_HASH) {
			own = v->desc[i].name;
			own_len = v->desc[i].name_len;
		}
	for (size_t i = 0; !r && i < v->ndesc; i++) {
		const struct avb_descriptor *d = &v->desc[i];
		char *path;

		if (d->tag == AVB_TAG_CHAIN_PARTITION) {
			uint8_t *k = NULL;
			size_t kl;
			uint32_t loc;
			int found;
			char sha1[41];

			if ((r = expected_chain(a, d, &loc, &k, &kl, &found)))
				break;
			free(k);
			if (follow && !found) {
				if (cli_avb_sha1_hex(d->public_key,
						     d->public_key_len, sha1))
					sha1[0] = 0;
				printf("%s: Chained but ROLLBACK_SLOT (which "
				       "is %u) and KEY (which has sha1 %s) not "
				       "specified\n",
				       CLI_NAME(d->name, d->name_len),
				       d->rollback_index_location, sha1);
			} else if ((r = verify_chain(a, d))) {
				break;
			}
			if (follow) {
				struct signer pinned = {d->public_key,
							d->public_key_len, d};

				printf("--\n");
				if (!(path = described_image(image, d, NULL, 0))) {
					r = EXIT_PARAMS;
					break;
				}
				r = verify_one(a, path, 0, &pinned, run);
				free(path);
			}
			continue;
		}
		if (d->tag != AVB_TAG_HASHTREE && d->tag != AVB_TAG_HASH)
			continue;
		if (!(path = described_image(image, d, own, own_len))) {
			r = EXIT_PARAMS;
			break;
		}
		r = d->tag == AVB_TAG_HASH ? verify_hash(path, d)
					   : verify_hashtree(a, path, d, run);
		free(path);
	}
	if (r)
		fprintf(stderr, "fastverity: %s: Error verifying descriptor.\n",
			image);
	return r;
}

/* The vbmeta judged as libavb judges it on a device (avb_vbmeta_judge):
 * a key given (or pinned by a chain descriptor) for an unsigned vbmeta
 * is refused; a chained partition is always judged against its pinned
 * key. Said in avbtool's words. */
static int judge_signer(const char *image, const struct avb_image *img,
			const struct signer *want)
{
	const char *alg = avb_algorithm(img->vbmeta.h.algorithm)->name;
	enum avb_judgement why;
	enum verity_trust trust;
	struct ht_error err;
	int r = avb_vbmeta_judge(&img->vbmeta, image,
				 want->key ? VERITY_ANCHOR_KEY
					   : VERITY_ANCHOR_NONE,
				 want->key, want->len, 0, &trust, &why, &err);

	if (!r)
		return 0;
	if (why == AVB_BAD_SIGNATURE)
		return cli_error(r,
				 "%s: Signature check failed for %s vbmeta "
				 "struct (%s)",
				 image, alg, err.msg);
	if (why == AVB_REFUSED && want->chain)
		return cli_error(r,
				 "%s: the vbmeta of chained partition %s is "
				 "not signed, and its chain descriptor pins a "
				 "key: nothing proves who made it",
				 image,
				 CLI_NAME(want->chain->name,
					  want->chain->name_len));
	if (why == AVB_REFUSED)
		return cli_inside_error(r, &err);
	if (want->chain)
		return cli_error(r,
				 "%s: Embedded public key does not match the "
				 "key the chain partition descriptor for %s "
				 "pins.",
				 image,
				 CLI_NAME(want->chain->name,
					  want->chain->name_len));
	return cli_error(r, "%s: Embedded public key does not match given key.",
			 image);
}

static int verify_one(const struct cli_avb_args *a, const char *image,
		      int follow, const struct signer *want,
		      struct verity_run *run)
{
	struct avb_image img;
	struct ht_error err;
	const char *alg;
	int r;

	/* avbtool's words (which name --key for a chained partition too,
	 * though the key that judges it is the one its descriptor pins) */
	if (a->key)
		printf("Verifying image %s using key at %s\n", image, a->key);
	else
		printf("Verifying image %s using embedded public key\n", image);
	if ((r = avb_image_read(image, &img, &err)))
		return cli_inside_error(r, &err);
	alg = avb_algorithm(img.vbmeta.h.algorithm)->name;
	if ((r = judge_signer(image, &img, want)))
		goto out;
	printf("vbmeta: Successfully verified %s%s vbmeta struct in %s\n",
	       img.has_footer ? "footer and " : "", alg, image);
	r = verify_descriptors(a, image, &img, follow, run);
out:
	avb_image_free(&img);
	return r;
}

int cli_avb_verify(const struct cli_avb_args *a, struct verity_run *run)
{
	uint8_t *blob = NULL;
	size_t len = 0;
	int r;

	if (!a->image)
		return cli_error(-EINVAL,
				 "avb verify_image: --image is required");
	if (a->key) {
		struct ht_error err;

		if ((r = avb_key_file_blob(a->key, &blob, &len, &err)))
			return cli_inside_error(r, &err);
	}
	r = verify_one(a, a->image, a->follow,
		       &(struct signer){blob, len, NULL}, run);
	free(blob);
	return r ? EXIT_PARAMS : EXIT_OK;
}
