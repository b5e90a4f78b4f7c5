/* fastverity avb info_image, print_partition_digests and
 * calculate_kernel_cmdline: avbtool's text, line for line, and --json
 * (docs/android.md); verify_image is cli/avb_verify.c. */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/jsonc.h"

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/text.h"

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
	struct fv_avb_descriptor d = cli_avb_descriptor(a, i);
	uint64_t bytes = d.bytes, tag = d.tag;
	struct fv_avb_property p = d.property;
	struct fv_avb_hashtree t = d.hashtree;
	struct fv_avb_hash h = d.hash;
	struct fv_avb_kernel_cmdline k = d.kernel_cmdline;
	struct fv_avb_chain_partition c = d.chain_partition;

	switch (tag) {
	case FV_AVB_PROPERTY:
		fprintf(f, "    Prop: %.*s -> ", (int)p.key_len,
			(const char *)p.key);
		if (p.value_len < 256)
			py_bytes_repr(f, p.value, (size_t)p.value_len);
		else
			fprintf(f, "(%" PRIu64 " bytes)", p.value_len);
		fputc('\n', f);
		break;
	case FV_AVB_HASHTREE:
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
		fprintf(f,
			"    Kernel Cmdline descriptor:\n"
			"      Flags:                 %u\n"
			"      Kernel Cmdline:        '%.*s'\n",
			k.flags, (int)k.cmdline_len, (const char *)k.cmdline);
		break;
	case FV_AVB_CHAIN_PARTITION:
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
	struct fv_avb_info in = cli_avb_facts(a);
	struct fv_avb_footer ft = in.footer;
	struct fv_avb_header h = in.header;

	if (in.has_footer)
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
		"Minimum libavb version:   %u.%u%s\n"
		"Header Block:             %" PRIu64 " bytes\n"
		"Authentication Block:     %" PRIu64 " bytes\n"
		"Auxiliary Block:          %" PRIu64 " bytes\n",
		h.required_major, h.required_minor,
		in.sparse ? " (Sparse)" : "", h.header_size, h.auth_size,
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
	for (size_t i = 0; i < in.descriptors; i++)
		print_descriptor(f, a, i);
	if (!in.descriptors)
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
	struct fv_avb_descriptor d = cli_avb_descriptor(a, i);
	uint64_t bytes = d.bytes, tag = d.tag;
	struct fv_avb_property p = d.property;
	struct fv_avb_hashtree t = d.hashtree;
	struct fv_avb_hash h = d.hash;
	struct fv_avb_kernel_cmdline k = d.kernel_cmdline;
	struct fv_avb_chain_partition c = d.chain_partition;
	json_object *j = json_object_new_object();

#define ADD(k, v) json_object_object_add(j, k, v)
#define U64(k, v) ADD(k, json_object_new_uint64(v))
	switch (tag) {
	case FV_AVB_PROPERTY:
		ADD("type", cli_json_str("property"));
		ADD("key", json_name(p.key, p.key_len));
		ADD("value", json_name(p.value, (size_t)p.value_len));
		break;
	case FV_AVB_HASHTREE:
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
		ADD("root_digest",
		    json_bytes_hex(t.root_digest, t.root_digest_len));
		U64("flags", t.flags);
		break;
	case FV_AVB_HASH:
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
		ADD("type", cli_json_str("kernel_cmdline"));
		U64("flags", k.flags);
		ADD("kernel_cmdline", json_name(k.cmdline, k.cmdline_len));
		break;
	case FV_AVB_CHAIN_PARTITION:
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
	struct fv_avb_info in = cli_avb_facts(a);
	struct fv_avb_footer ft = in.footer;
	struct fv_avb_header h = in.header;
	json_object *j = json_object_new_object(), *list;
	char version[24];
	uint64_t file_size = 0;

	cli_device_size(image, &file_size);
	cli_jstr(j, "image", image);
	if (in.has_footer) {
		json_object *f = json_object_new_object();

		file_size = ft.image_size;
		snprintf(version, sizeof(version), "%u.%u", ft.version_major,
			 ft.version_minor);
		cli_jstr(f, "version", version);
		cli_ju64(f, "original_image_size", ft.original_image_size);
		cli_ju64(f, "vbmeta_offset", ft.vbmeta_offset);
		cli_ju64(f, "vbmeta_size", ft.vbmeta_size);
		cli_ju64(j, "image_size", file_size);
		cli_jset(j, "footer", f);
	} else {
		cli_ju64(j, "image_size", file_size);
		cli_jset(j, "footer", NULL);
	}
	snprintf(version, sizeof(version), "%u.%u", h.required_major,
		 h.required_minor);
	cli_jstr(j, "minimum_libavb_version", version);
	cli_ju64(j, "authentication_block_size", h.auth_size);
	cli_ju64(j, "auxiliary_block_size", h.aux_size);
	cli_jset(j, "public_key_sha1",
		 h.public_key_sha1[0] ? cli_json_str(h.public_key_sha1) : NULL);
	cli_jstr(j, "algorithm", h.algorithm);
	cli_ju64(j, "rollback_index", h.rollback_index);
	cli_ju64(j, "flags", h.flags);
	cli_ju64(j, "rollback_index_location", h.rollback_index_location);
	cli_jstr(j, "release_string", h.release);
	list = json_object_new_array();
	for (size_t i = 0; i < in.descriptors; i++)
		json_object_array_add(list, json_descriptor(a, i));
	cli_jset(j, "descriptors", list);
	return j;
}

int cli_avb_write(const char *output, const char *what, const void *buf,
		  size_t len, const char *const *inputs, size_t ninputs)
{
	int r;

	for (size_t i = 0; i < ninputs; i++)
		if (inputs[i] && cli_same_storage(output, inputs[i]))
			return cli_error(-EINVAL,
					 "--output %s: is the input %s: an "
					 "output is never written over what "
					 "is read",
					 output, inputs[i]);
	if ((r = cli_output_write(output, what, buf, len)))
		return cli_write_error(r);
	return EXIT_OK;
}

/* A big-endian 64-bit number at p. */
static uint64_t be64_at(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* info_image --output_pubkey: the vbmeta's public key blob, as avbtool
 * writes it (an image with no key: an empty file, the one argparse
 * made). The blob is where the header says: after the header and the
 * authentication block, at the auxiliary block's key offset. */
static int write_pubkey(const struct cli_avb_args *a, const fv_avb *av)
{
	struct fv_avb_info in = cli_avb_facts(av);
	uint64_t auth, off, len, at;

	if (!in.vbmeta || in.vbmeta_size < 256)
		return cli_error(-EINVAL, "%s: no vbmeta header", a->image);
	auth = be64_at(in.vbmeta + 12);
	off = be64_at(in.vbmeta + 64);
	len = be64_at(in.vbmeta + 72);
	if (auth > in.vbmeta_size || off > in.vbmeta_size ||
	    len > in.vbmeta_size || (at = 256 + auth + off) > in.vbmeta_size ||
	    len > in.vbmeta_size - at)
		return cli_error(-EINVAL,
				 "%s: the vbmeta's public key is out of its "
				 "blob",
				 a->image);
	return cli_avb_write(a->output_pubkey, "public key file",
			     in.vbmeta + at, (size_t)len, &a->image, 1);
}

int cli_avb_info(const struct cli_avb_args *a)
{
	const fv_avb *av;
	fv_image *img;
	char *text = NULL;
	size_t len = 0;
	FILE *f = stdout;
	int r = EXIT_OK;

	if (!a->image)
		return cli_error(-EINVAL,
				 "avb info_image: --image is required");
	if ((r = cli_avb_shown(a->image, &img, &av)))
		return cli_lib_error(r);
	/* --output: the whole text, then written as every output is */
	if (a->output && !(f = open_memstream(&text, &len))) {
		fv_image_free(img);
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
	if (a->output_pubkey)
		r = write_pubkey(a, av);
	fv_image_free(img);
	if (f != stdout) {
		if (r)
			fclose(f);
		else if (fclose(f))
			r = cli_error(-ENOMEM, "out of memory");
		else
			r = cli_avb_write(a->output, "image information", text,
					  len, &a->image, 1);
		free(text);
	}
	return r;
}

/* ---- print_partition_digests, calculate_kernel_cmdline ---- */

/* The most chained images followed from one image (a chain that names
 * an image that chains back would otherwise go round for ever). */
#define MAX_CHAIN_DEPTH 32

/* A name as Python's json.dumps writes it: ASCII kept, '"' and '\'
 * escaped, every other code point as \uXXXX (surrogate pairs past
 * U+FFFF); a byte that is not UTF-8 as its own code point. */
static void json_py_string(FILE *f, const uint8_t *p, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n;) {
		uint32_t c = p[i], need = 0;

		if (c >= 0xf0 && c < 0xf8)
			need = 3, c &= 0x07;
		else if (c >= 0xe0)
			need = c < 0xf0 ? 2 : 0, c &= 0x0f;
		else if (c >= 0xc0)
			need = 1, c &= 0x1f;
		if (p[i] >= 0x80 && need) {
			size_t k;

			for (k = 1; k <= need && i + k < n &&
				    (p[i + k] & 0xc0) == 0x80;
			     k++)
				c = c << 6 | (p[i + k] & 0x3f);
			if (k == need + 1)
				i += need;
			else
				c = p[i];
		} else if (p[i] >= 0x80) {
			c = p[i];
		}
		i++;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", (int)c);
		else if (c >= 0x20 && c < 0x7f)
			fputc((int)c, f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\b')
			fputs("\\b", f);
		else if (c == '\f')
			fputs("\\f", f);
		else if (c > 0xffff)
			fprintf(f, "\\u%04x\\u%04x",
				(unsigned)(0xd800 + ((c - 0x10000) >> 10)),
				(unsigned)(0xdc00 + ((c - 0x10000) & 0x3ff)));
		else
			fprintf(f, "\\u%04x", (unsigned)c);
	}
	fputc('"', f);
}

/* How many steps the walk s took (0 for none). */
static size_t steps_of(const fv_slot *s)
{
	struct fv_slot_info in = {.size = sizeof(in)};

	return s && !fv_slot_info(s, &in) ? in.steps : 0;
}

/* The walk of image's set for what it describes, no check (avbtool's
 * print commands read, they do not verify): chains followed to any
 * depth (nested: print_partition_digests) or one level down, each
 * chained partition once. 0 and *out, or the exit code (printed). */
static int read_set(const char *image, int nested, fv_slot **out)
{
	struct fv_slot_request req = {.size = sizeof(req)};
	int r;

	req.image = image;
	req.container = "avb";
	req.flags = FV_SLOT_FOLLOW | (nested ? FV_SLOT_FOLLOW_NESTED : 0);
	if ((r = fv_slot_verify(&req, NULL, NULL, NULL, out)))
		return cli_lib_error(r);
	/* an image that cannot be read stops the command, as in avbtool */
	for (size_t i = 0, n = steps_of(*out); i < n; i++) {
		struct fv_slot_step st = {.size = sizeof(st)};

		fv_slot_step(*out, i, &st);
		if (st.result != FV_SLOT_OK && st.result != FV_SLOT_SKIPPED)
			return cli_error(st.error ? st.error : -EINVAL, "%s",
					 st.message);
	}
	return 0;
}

/* The hash and hashtree digests of the set, in the order walked. */
static int digests_of(const char *image, FILE *f, int json, size_t *count)
{
	fv_slot *s = NULL;
	int r = read_set(image, 1, &s);

	for (size_t i = 0, n = steps_of(s); !r && i < n; i++) {
		struct fv_slot_step st = {.size = sizeof(st)};
		struct fv_avb_hashtree t = {.size = sizeof(t)};
		struct fv_avb_hash h = {.size = sizeof(h)};
		const uint8_t *name, *d;
		size_t nl, dl;

		fv_slot_step(s, i, &st);
		if (st.kind == FV_SLOT_HASH) {
			h = cli_avb_descriptor(st.avb, st.descriptor).hash;
			name = h.partition_name, nl = h.partition_name_len;
			d = h.digest, dl = h.digest_len;
		} else if (st.kind == FV_SLOT_HASHTREE) {
			t = cli_avb_descriptor(st.avb, st.descriptor).hashtree;
			name = t.partition_name, nl = t.partition_name_len;
			d = t.root_digest, dl = t.root_digest_len;
		} else {
			continue;
		}
		if (json) {
			fputs(*count ? ",\n    {\n      \"name\": "
				     : "\n    {\n      \"name\": ",
			      f);
			json_py_string(f, name, nl);
			fputs(",\n      \"digest\": \"", f);
			hex(f, d, dl);
			fputs("\"\n    }", f);
		} else {
			fwrite(name, 1, nl, f);
			fputs(": ", f);
			hex(f, d, dl);
			fputc('\n', f);
		}
		(*count)++;
	}
	fv_slot_free(s);
	return r;
}

/* The text make writes, made in memory, then written to --output or
 * stdout (nothing when make fails). */
static int emit(const struct cli_avb_args *a, const char *what,
		int (*make)(const struct cli_avb_args *a, FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return cli_error(-ENOMEM, "out of memory");
	r = make(a, f);
	fclose(f);
	if (!r && a->output)
		r = cli_avb_write(a->output, what, buf, len, &a->image, 1);
	else if (!r)
		fwrite(buf, 1, len, stdout);
	free(buf);
	return r;
}

static int digests_text(const struct cli_avb_args *a, FILE *f)
{
	size_t count = 0;
	int r;

	if (a->json)
		fputs("{\n  \"partitions\": [", f);
	r = digests_of(a->image, f, a->json, &count);
	/* json.dumps(..., indent=2): no newline at the end */
	if (a->json)
		fputs(count ? "\n  ]\n}" : "]\n}", f);
	return r;
}

int cli_avb_digests(const struct cli_avb_args *a)
{
	if (!a->image)
		return cli_error(-EINVAL, "avb print_partition_digests: "
					  "--image is required");
	return emit(a, "partition digests", digests_text);
}

/* The kernel command line descriptors of image and, one level down, of
 * the images its chain descriptors name, kept or left out by their
 * flags (1: only when the tree is not disabled, 2: only when it is),
 * joined by spaces as avbtool joins them (no newline). */
static int cmdlines_of(const char *image, FILE *f, int disabled)
{
	fv_slot *s = NULL;
	size_t count = 0;
	int r = read_set(image, 0, &s);

	for (size_t i = 0, n = steps_of(s); !r && i < n; i++) {
		struct fv_slot_step st = {.size = sizeof(st)};
		struct fv_avb_kernel_cmdline k = {.size = sizeof(k)};

		fv_slot_step(s, i, &st);
		if (st.kind != FV_SLOT_CMDLINE)
			continue;
		k = cli_avb_descriptor(st.avb, st.descriptor).kernel_cmdline;
		if (((k.flags & 1) && disabled) || ((k.flags & 2) && !disabled))
			continue;
		if (count++)
			fputc(' ', f);
		fwrite(k.cmdline, 1, k.cmdline_len, f);
	}
	fv_slot_free(s);
	return r;
}

static int cmdline_text(const struct cli_avb_args *a, FILE *f)
{
	return cmdlines_of(a->image, f, a->hashtree_disabled);
}

int cli_avb_cmdline(const struct cli_avb_args *a)
{
	if (!a->image)
		return cli_error(-EINVAL, "avb calculate_kernel_cmdline: "
					  "--image is required");
	return emit(a, "kernel command line", cmdline_text);
}
