/* fastverity ota SUBCOMMAND: Android A/B OTA packages, an OTA zip or a
 * bare payload.bin (docs/ota.md). info: what the package says. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/jsonc.h"
#include "cli/options.h"
#include "include/fastverity.h"

enum {
	O_INFO = 1u << 0,
	O_VERIFY = 1u << 1,
	O_EXTRACT = 1u << 2,
};

struct ota_args {
	int json;
	char *cert, *output_dir, *partition, *source, *avb_key;
	const char **args;
	int nargs;
};

static const struct cli_sub subs[] = {
	{"info", O_INFO, "PKG [--json]",
	 "what an OTA package (a zip, or payload.bin) holds: the payload's "
	 "versions, partitions, operations and signatures, its properties "
	 "and metadata"},
	{"verify", O_VERIFY,
	 "PKG [--cert=PEM] [--source=DIR] [--avb-key=KEY] [--json]",
	 "checks the payload's metadata and payload signatures (RSA-2048 or "
	 "RSA-4096, SHA-256) against --cert, else against the package's own "
	 "otacert (the signer then not checked against a trusted one); a "
	 "zip's whole-file signature, otacert, properties and property "
	 "files; each operation's data hash, each partition applied and "
	 "hashed against new_partition_info; with --avb-key, the images "
	 "as one AVB set"},
	{"extract", O_EXTRACT,
	 "PKG --output-dir=DIR [--source=DIR] [--partition=NAME[,NAME...]] "
	 "[--json]",
	 "writes each partition to DIR/NAME.img (a delta's from the source "
	 "images in --source), each checked against its hash before it "
	 "appears under its name"},
};

#define ARG(f) offsetof(struct ota_args, f)
static const struct cli_option rows[] = {
	CLI_ROW("json", CLI_FLAG, ARG(json), 0, O_INFO | O_VERIFY | O_EXTRACT,
		NULL, "one JSON document on stdout"),
	CLI_ROW("output-dir", CLI_VALUE, ARG(output_dir), 0, O_EXTRACT, "DIR",
		"where the images go (DIR/NAME.img)"),
	CLI_ROW("avb-key", CLI_VALUE, ARG(avb_key), 0, O_VERIFY, "KEY",
		"also check the images as one AVB set: vbmeta signed by KEY"),
	CLI_ROW("source", CLI_VALUE, ARG(source), 0, O_VERIFY | O_EXTRACT,
		"DIR", "a delta's source images (DIR/NAME.img)"),
	CLI_ROW("partition", CLI_VALUE, ARG(partition), 0, O_EXTRACT,
		"NAME[,NAME...]", "only these partitions (default: all)"),
	CLI_ROW("cert", CLI_VALUE, ARG(cert), 0, O_VERIFY, "PEM",
		"the trusted signer: a PEM certificate or public key"),
};

static const struct cli_table table = {
	.command = "fastverity ota",
	.word = "ota",
	.rows = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.usage_exit = EXIT_PARAMS,
	.once = 1,
	.sep = '=',
	.width = 24,
};

static const struct cli_group group = {
	.table = &table,
	.subs = subs,
	.n = sizeof(subs) / sizeof(subs[0]),
	.usage = "PKG [<options>]",
	.what = "Android A/B OTA packages (an OTA zip, or a bare payload.bin)",
	.trailer = "\nExit status: 0 done (verify: every check good; "
		   "extract: every image written); 1 a package that cannot "
		   "be read, or a usage error; 2 a signature, a check or an "
		   "image bad or missing.\n\nSee fastverity(8) and "
		   "docs/ota.md.\n",
	.usage_exit = EXIT_PARAMS,
};

/* A string for the terminal: control bytes as \xHH. */
static void put_text(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

/* The facts as indented "key: value" lines (two spaces a level); an
 * array's objects as items whose first line begins "- ", an array of
 * values on one line. */
static void print_text(const fv_image *p)
{
	const char *kv[2], *nkv[2];
	int type, ntype, depth = 0, item = 0;
	char kind[64];

	for (size_t i = 0; !fv_ota_fact(p, i, kv, &type); i++) {
		int in_array = depth > 0 && kind[depth - 1] == '[';
		int indent = depth > 1 ? 2 * (depth - 1) : 0;

		if (type == '}' || type == ']') {
			depth -= depth > 0;
			continue;
		}
		if (type == '{' && (depth == 0 || in_array)) {
			/* the document, or an array's item */
			item = depth > 0;
			if (depth < 64)
				kind[depth++] = '{';
			continue;
		}
		if (item && indent >= 2)
			printf("%*s- ", indent - 2, "");
		else
			printf("%*s", indent, "");
		item = 0;
		put_text(kv[0]);
		putchar(':');
		if (type == '[' && !fv_ota_fact(p, i + 1, nkv, &ntype) &&
		    ntype != '{') {
			/* values: on this line */
			const char *sep = " [";

			for (i++;
			     !fv_ota_fact(p, i, nkv, &ntype) && ntype != ']';
			     i++) {
				fputs(sep, stdout);
				put_text(nkv[1]);
				sep = ", ";
			}
			puts(sep[0] == ' ' ? " []" : "]");
			continue;
		}
		if (type == '{' && !fv_ota_fact(p, i + 1, nkv, &ntype) &&
		    ntype == '}') {
			puts(" {}");
			i++;
			continue;
		}
		if (type == '{' || type == '[') {
			putchar('\n');
			if (depth < 64)
				kind[depth++] = (char)type;
			continue;
		}
		putchar(' ');
		put_text(kv[1]);
		putchar('\n');
	}
}

/* The facts as one JSON document. */
static void *json_of(const fv_image *p)
{
	void *stack[64], *top = NULL, *v;
	const char *kv[2];
	int type, depth = 0;
	char kind[64];

	for (size_t i = 0; !fv_ota_fact(p, i, kv, &type); i++) {
		switch (type) {
		case '{':
			v = json_object_new_object();
			break;
		case '[':
			v = json_object_new_array();
			break;
		case '}':
		case ']':
			if (depth > 0)
				depth--;
			continue;
		case 'n':
			v = kv[1][0] == '-' ? json_object_new_int64(
						      strtoll(kv[1], NULL, 10))
					    : json_object_new_uint64(strtoull(
						      kv[1], NULL, 10));
			break;
		case 'b':
			v = json_object_new_boolean(!strcmp(kv[1], "true"));
			break;
		default:
			v = cli_json_str(kv[1]);
			break;
		}
		if (!depth) {
			if (top)
				json_object_put(top);
			top = v;
		} else if (kind[depth - 1] == '[') {
			json_object_array_add(stack[depth - 1], v);
		} else {
			json_object_object_add(stack[depth - 1], kv[0], v);
		}
		if ((type == '{' || type == '[') && depth < 64) {
			kind[depth] = (char)type;
			stack[depth++] = v;
		}
	}
	return top;
}

/* The package at path through the door (container "ota"; o: NULL, or
 * the trusted signer's certificate and the workers). */
static int open_ota(const char *path, const fv_options *o, fv_image **img)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = path, .container = "ota"};

	*img = NULL;
	return fv_open(&rq, o, img);
}

static int info(struct ota_args *a)
{
	fv_image *p;
	int r;

	if (a->nargs != 1)
		return cli_error(-EINVAL,
				 "ota info: give one package (fastverity ota "
				 "info PKG)");
	if ((r = open_ota(a->args[0], NULL, &p)))
		return cli_lib_error(r);
	if (a->json)
		cli_json_print(json_of(p));
	else
		print_text(p);
	fv_image_free(p);
	return 0;
}

/* The object named what's members (its images as "image NAME: RESULT"
 * lines, an extracted one's path after), and whether its result is ok. */
static int print_verify(const fv_image *p, const char *what, int show)
{
	const char *kv[2], *name = "", *result = "", *path = NULL;
	int type, in = 0, ok = 0, depth = 0;

	for (size_t i = 0; !fv_ota_fact(p, i, kv, &type); i++) {
		if (!in) {
			in = depth == 1 && type == '{' && !strcmp(kv[0], what);
			depth += type == '{' || type == '[';
			depth -= type == '}' || type == ']';
			continue;
		}
		if (type == '{' || type == '[') {
			depth++;
			continue;
		}
		if (type == '}' || type == ']') {
			if (--depth == 1)
				break;
			if (depth == 3 && type == '}' && show) {
				fputs("image ", stdout);
				put_text(name);
				fputs(": ", stdout);
				put_text(result);
				if (path && !strcmp(what, "extract")) {
					fputs(", written to ", stdout);
					put_text(path);
				}
				putchar('\n');
				path = NULL;
			}
			continue;
		}
		if (depth == 4) { /* an image's */
			if (!strcmp(kv[0], "name"))
				name = kv[1];
			else if (!strcmp(kv[0], "result"))
				result = kv[1];
			else if (!strcmp(kv[0], "path"))
				path = kv[1];
			continue;
		}
		if (depth != 2)
			continue;
		if (!strcmp(kv[0], "result"))
			ok = !strcmp(kv[1], "ok");
		if (show) {
			put_text(kv[0]);
			fputs(": ", stdout);
			put_text(kv[1]);
			putchar('\n');
		}
	}
	return ok;
}

/* The AVB set of the images extracted into dir (vbmeta.img at its
 * top, signed by key; its chains followed, every descriptor checked):
 * "good", or why not, into why. */
static void avb_set(const char *dir, const char *key, char *why, size_t len)
{
	struct fv_slot_request req = {.size = sizeof(req)};
	struct fv_slot_info info = {.size = sizeof(info)};
	char top[4096 + 16];
	fv_slot *s = NULL;
	int r;

	snprintf(top, sizeof(top), "%s/vbmeta.img", dir);
	if (access(top, F_OK)) {
		snprintf(why, len,
			 "missing (no good vbmeta image to start "
			 "from)");
		return;
	}
	req.image = top;
	req.container = "avb";
	req.key = key;
	req.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW | FV_SLOT_FOLLOW_NESTED |
		    FV_SLOT_STOP;
	if ((r = fv_slot_verify(&req, NULL, NULL, NULL, &s)) ||
	    (r = fv_slot_info(s, &info))) {
		snprintf(why, len, "bad (%s)", fv_last_error());
		fv_slot_free(s);
		return;
	}
	snprintf(why, len, "good");
	for (size_t i = 0; i < info.steps; i++) {
		struct fv_slot_step st = {.size = sizeof(st)};

		if (!fv_slot_step(s, i, &st) && st.result != FV_SLOT_OK &&
		    st.result != FV_SLOT_SKIPPED) {
			const char *m = st.message && st.message[0]
						? st.message
						: "a step failed";
			size_t dl = strlen(dir);

			/* the images' names, not the directory they had */
			if (!strncmp(m, dir, dl) && m[dl] == '/')
				m += dl + 1;
			snprintf(why, len, "bad (%s)", m);
			break;
		}
	}
	fv_slot_free(s);
}

/* The images written into dir by fv_ota_check removed, and dir. */
static void remove_images(const fv_image *p, const char *dir)
{
	const char *kv[2];
	int type;

	for (size_t i = 0; !fv_ota_fact(p, i, kv, &type); i++)
		if (type == 's' && !strcmp(kv[0], "path"))
			unlink(kv[1]);
	rmdir(dir);
}

/* A private directory for the images --avb-key checks. */
static int avb_dir(char *dir, size_t len)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, len, "%s/fastverity-ota.XXXXXX", t && t[0] ? t : "/tmp");
	if (!mkdtemp(dir))
		return cli_error(-errno,
				 "ota verify --avb-key: cannot make a "
				 "directory for the images: %s",
				 strerror(errno));
	/* a signal while it holds images: removed with them */
	cli_private_dir(dir);
	return 0;
}

static int verify(struct ota_args *a)
{
	fv_options opts = {.size = sizeof(opts)};
	const char *certs[1] = {a->cert};
	char dir[4096], avb[1024] = "";
	fv_image *p;
	int r, ok;

	if (a->nargs != 1)
		return cli_error(-EINVAL,
				 "ota verify: give one package (fastverity ota "
				 "verify PKG)");
	if (a->cert) {
		opts.trusted_certs = certs;
		opts.ntrusted_certs = 1;
	}
	if ((r = open_ota(a->args[0], &opts, &p)) ||
	    (r = fv_ota_check(p, 1, NULL, NULL, NULL))) {
		fv_image_free(p);
		return cli_lib_error(r);
	}
	if (a->avb_key && (r = avb_dir(dir, sizeof(dir)))) {
		fv_image_free(p);
		return r;
	}
	if ((r = fv_ota_check(p, 2, a->avb_key ? dir : NULL, a->source,
			      NULL))) {
		if (a->avb_key) {
			rmdir(dir);
			cli_private_dir(NULL);
		}
		fv_image_free(p);
		return cli_lib_error(r);
	}
	if (a->avb_key) {
		avb_set(dir, a->avb_key, avb, sizeof(avb));
		remove_images(p, dir);
		cli_private_dir(NULL);
	}
	ok = print_verify(p, "verify", !a->json);
	if (a->avb_key) {
		ok = ok && !strcmp(avb, "good");
		if (!a->json)
			printf("avb: %s\n", avb);
	}
	if (a->json) {
		void *j = json_of(p);
		json_object *v;

		if (a->avb_key && json_object_object_get_ex(j, "verify", &v)) {
			json_object *im;

			/* the images were checked, then removed */
			if (json_object_object_get_ex(v, "images", &im))
				for (size_t i = 0;
				     i < json_object_array_length(im); i++)
					json_object_object_del(
						json_object_array_get_idx(im,
									  i),
						"path");
			json_object_object_add(v, "avb", cli_json_str(avb));
			if (!ok)
				json_object_object_add(v, "result",
						       cli_json_str("bad"));
		}
		/* the document's verdict, as the exit code's */
		json_object_object_add(j, "result",
				       cli_json_str(ok ? "ok" : "bad"));
		cli_json_print(j);
	}
	fv_image_free(p);
	return ok ? EXIT_OK : EXIT_VERIFY;
}

static int extract(struct ota_args *a)
{
	fv_image *p;
	int r, ok;

	if (a->nargs != 1)
		return cli_error(
			-EINVAL,
			"ota extract: give one package (fastverity ota "
			"extract PKG --output-dir=DIR)");
	if (!a->output_dir)
		return cli_error(-EINVAL,
				 "ota extract: --output-dir=DIR is needed");
	if ((r = open_ota(a->args[0], NULL, &p)) ||
	    (r = fv_ota_check(p, 2, a->output_dir, a->source, a->partition))) {
		fv_image_free(p);
		return cli_lib_error(r);
	}
	ok = print_verify(p, "extract", !a->json);
	if (a->json) {
		void *j = json_of(p);

		json_object_object_add(j, "result",
				       cli_json_str(ok ? "ok" : "bad"));
		cli_json_print(j);
	}
	fv_image_free(p);
	return ok ? EXIT_OK : EXIT_VERIFY;
}

int cli_ota_main(int argc, const char **argv)
{
	const struct cli_sub *s;
	struct ota_args a;
	int r;

	memset(&a, 0, sizeof(a));
	r = cli_group_parse(&group, argc, argv, &a, &a.args, &a.nargs, &s);
	if (r) {
		cli_group_free(&group, &a, a.args, a.nargs);
		return r < 0 ? EXIT_OK : r;
	}
	r = s->bit == O_INFO     ? info(&a)
	    : s->bit == O_VERIFY ? verify(&a)
				 : extract(&a);
	if (r && r != EXIT_VERIFY && a.json)
		cli_json_final(r, NULL);
	cli_group_free(&group, &a, a.args, a.nargs);
	return r;
}

int cli_ota_action(const struct cli_opts *o, const char *sub)
{
	const char *argv[8] = {"ota", sub, o->args[0]};
	char cert[4200], key[4200];
	int argc = 3;

	/* what a verity pair's options say has no place in a package */
	if (o->hash || o->data_block_size || o->hash_block_size ||
	    o->data_blocks || o->hash_offset || o->salt || o->uuid ||
	    o->format || o->root_hash_file || o->fec_device || o->fec_offset ||
	    o->fec_roots || o->max_failures || o->root_hash_signature ||
	    o->partition || o->slot || o->nblock_devices || o->check_crc ||
	    o->no_superblock || o->ntrusted > 1 ||
	    (strcmp(sub, "verify") && (o->ntrusted || o->key)))
		return cli_error(-EINVAL,
				 "%s: an Android OTA package: %s takes "
				 "%s--json here (or fastverity ota %s %s)",
				 o->args[0], o->action,
				 strcmp(sub, "verify")
					 ? ""
					 : "one --trusted-cert (its signer), "
					   "--key (its images' AVB key), ",
				 sub, o->args[0]);
	if (o->json)
		argv[argc++] = "--json";
	if (o->ntrusted) {
		snprintf(cert, sizeof(cert), "--cert=%s", o->trusted_certs[0]);
		argv[argc++] = cert;
	}
	if (o->key) {
		snprintf(key, sizeof(key), "--avb-key=%s", o->key);
		argv[argc++] = key;
	}
	argv[argc] = NULL;
	return cli_ota_main(argc, argv);
}
