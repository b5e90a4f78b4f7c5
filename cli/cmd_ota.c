/* fastverity ota SUBCOMMAND: Android A/B OTA packages, an OTA zip or a
 * bare payload.bin (docs/ota.md). info: what the package says. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/jsonc.h"
#include "cli/options.h"
#include "include/fastverity.h"

enum {
	O_INFO = 1u << 0,
	O_VERIFY = 1u << 1,
};

struct ota_args {
	int json;
	char *cert;
	const char **args;
	int nargs;
};

static const struct cli_sub subs[] = {
	{"info", O_INFO, "PKG [--json]",
	 "what an OTA package (a zip, or payload.bin) holds: the payload's "
	 "versions, partitions, operations and signatures, its properties "
	 "and metadata"},
	{"verify", O_VERIFY, "PKG [--cert=PEM] [--json]",
	 "checks the payload's metadata and payload signatures (RSA-2048 or "
	 "RSA-4096, SHA-256) against --cert, else against the package's own "
	 "otacert (the signer then not checked against a trusted one)"},
};

#define ARG(f) offsetof(struct ota_args, f)
static const struct cli_option rows[] = {
	CLI_ROW("json", CLI_FLAG, ARG(json), 0, O_INFO | O_VERIFY, NULL,
		"one JSON document on stdout"),
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
	.width = 24,
};

static const struct cli_group group = {
	.table = &table,
	.subs = subs,
	.n = sizeof(subs) / sizeof(subs[0]),
	.usage = "PKG [<options>]",
	.what = "Android A/B OTA packages (an OTA zip, or a bare payload.bin)",
	.trailer = "\nExit status: 0 done (verify: every signature good); 1 a "
		   "package that cannot be read, or a usage error; 2 a "
		   "signature bad or missing.\n\nSee fastverity(8) and "
		   "docs/ota.md.\n",
	.usage_exit = EXIT_PARAMS,
};

static void free_args(struct ota_args *a)
{
	cli_options_free(&table, a);
	for (int i = 0; a->args && i < a->nargs; i++)
		free((char *)a->args[i]);
	free(a->args);
}

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
static void print_text(const fv_ota *p)
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
static void *json_of(const fv_ota *p)
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

static int info(struct ota_args *a)
{
	fv_ota *p;
	int r;

	if (a->nargs != 1)
		return cli_error(-EINVAL,
				 "ota info: give one package (fastverity ota "
				 "info PKG)");
	if ((r = fv_ota_open(a->args[0], 0, NULL, &p)))
		return cli_lib_error(r);
	if (a->json)
		cli_json_print(json_of(p));
	else
		print_text(p);
	fv_ota_free(p);
	return 0;
}

/* The verify object's members, and whether its result is ok. */
static int print_verify(const fv_ota *p, int show)
{
	const char *kv[2];
	int type, in = 0, ok = 0;

	for (size_t i = 0; !fv_ota_fact(p, i, kv, &type); i++) {
		if (type == '{' && !strcmp(kv[0], "verify")) {
			in = 1;
			continue;
		}
		if (!in)
			continue;
		if (type == '}')
			break;
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

static int verify(struct ota_args *a)
{
	fv_options opts = {.size = sizeof(opts)};
	const char *certs[1] = {a->cert};
	fv_ota *p;
	int r, ok;

	if (a->nargs != 1)
		return cli_error(-EINVAL,
				 "ota verify: give one package (fastverity ota "
				 "verify PKG)");
	if (a->cert) {
		opts.trusted_certs = certs;
		opts.ntrusted_certs = 1;
	}
	if ((r = fv_ota_open(a->args[0], 1, &opts, &p)))
		return cli_lib_error(r);
	ok = print_verify(p, !a->json);
	if (a->json)
		cli_json_print(json_of(p));
	fv_ota_free(p);
	return ok ? EXIT_OK : EXIT_VERIFY;
}

int cli_ota_main(int argc, const char **argv)
{
	const struct cli_sub *s;
	struct ota_args a;
	int r;

	memset(&a, 0, sizeof(a));
	r = cli_group_parse(&group, argc, argv, &a, &a.args, &s);
	while (a.args && a.args[a.nargs])
		a.nargs++;
	if (r) {
		free_args(&a);
		return r < 0 ? EXIT_OK : r;
	}
	r = s->bit == O_INFO ? info(&a) : verify(&a);
	if (r && r != EXIT_VERIFY && a.json)
		cli_json_final(r, NULL);
	free_args(&a);
	return r;
}
