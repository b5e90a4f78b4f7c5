/* The command's verity pair (cli/pair.h). */
#include "cli/files.h"
#include "cli/pair.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/hints.h"
#include "cli/params.h"
#include "cli/root.h"
#include "cli/progress.h"
#include "cli/text.h"
#include "cli/cli.h"

int cli_check_crc(const struct cli_opts *o)
{
	if (!o->check_crc)
		return 0;
	/* the images named (data and tree; a root hash is not a file) */
	for (int i = 0; i < o->nargs && i < 2; i++) {
		struct fv_file_answer a;
		int r = cli_file(FV_FILE_SPARSE_CRC, o->args[i], &a);
		unsigned sums = a.count;

		if (r == -ENOENT || r == -ENODEV)
			continue; /* said by what reads it next */
		if (r < 0)
			return cli_lib_error(r);
		if (!r && o->verbose)
			printf("%s: the sparse image's CRC32 sums hold (%u).\n",
			       o->args[i], sums);
	}
	return 0;
}

int cli_refuse_sparse(const char *path)
{
	int r = cli_is_sparse(path);

	return r ? cli_lib_error(r) : 0;
}

void cli_pair_free(struct cli_pair *cp)
{
	fv_image_free(cp->img);
	memset(cp, 0, sizeof(*cp));
}

/* Whether the action writes on the image's word: repair, not a dry
 * run. */
static int cli_writes(const struct cli_opts *o)
{
	return !strcmp(o->action, "repair") && !(o->repair & FV_REPAIR_DRY_RUN);
}

/* The options holding the anchor (--key, or certs, which they point
 * at): 0 and *opts, or the exit code of a refusal of the command's
 * (printed). The library checks the certificates' count where it takes
 * the options, before anything else, as it did when they were set. */
static int anchor_options(const struct cli_opts *o, const char *const *certs,
			  size_t ncerts, fv_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
	if (o->key && o->ntrusted)
		return cli_error(-EINVAL,
				 "--key and --trusted-cert: give the one "
				 "trust anchor the image takes (--key for "
				 "Android images, --trusted-cert for the "
				 "others)");
	opts->key = o->key;
	opts->trusted_certs = certs;
	opts->ntrusted_certs = ncerts;
	return 0;
}

int cli_open(const struct cli_opts *o, struct fv_open_request *rq,
	     const char *const *certs, size_t ncerts, fv_image **img)
{
	fv_options opts;
	int r;

	if ((r = anchor_options(o, certs, ncerts, &opts)))
		return r;
	rq->size = sizeof(*rq);
	rq->writes = cli_writes(o);
	return fv_open(rq, &opts, img);
}

void cli_pair_take(struct cli_pair *cp, fv_image *img, size_t at)
{
	cp->img = img;
	cp->at = at;
	cp->pi = cli_image_pair(img, at);
	cp->trust = cp->pi.trust;
}

/* A plain pair through the door: the tree's parameters from the options
 * or the superblock, the parity, the signature and the root hash
 * (root_arg, or the options' file). */
static int open_made(struct cli_opts *o, struct fv_open_request *rq,
		     const char *root_arg, struct cli_pair *cp)
{
	struct cli_fec fec;
	fv_params *p = NULL;
	fv_image *img = NULL;
	int r;

	if (cli_params_from_opts(o, &p, 0) || cli_fec_params(o, &fec)) {
		free(p);
		return EXIT_PARAMS;
	}
	rq->hash_offset = p->hash_offset;
	rq->params = p->superblock ? NULL : p;
	rq->fec_path = fec.path;
	rq->fec_offset = fec.offset;
	rq->fec_roots = fec.roots;
	rq->signature_path = o->root_hash_signature;
	/* the root, checked by the library against the tree's hash; one
	 * missing, or given twice, is said once the tree is read */
	if (!(root_arg && o->root_hash_file)) {
		rq->root_hex = root_arg;
		rq->root_hash_file = o->root_hash_file;
	}
	r = cli_open(o, rq, (const char *const *)o->trusted_certs, o->ntrusted,
		     &img);
	/* the library's message, with veritysetup's words and the hints
	 * where the tree read from a superblock has none */
	if (r < 0)
		r = cli_lib_param() == FV_PARAM_ROOT_HASH
			    ? cli_root_refused(r, rq->root_hex)
		    : rq->params ? cli_lib_error(r)
				 : cli_no_superblock(r, rq->data, rq->hash,
						     rq->hash_offset);
	free(p);
	if (r)
		return r;
	cli_pair_take(cp, img, 0);
	if (!rq->root_hex && !rq->root_hash_file) {
		const char *hex, *file;

		return cli_root_given(o, root_arg, &hex, &file);
	}
	return 0;
}

int cli_pair_make(struct cli_opts *o, const char *data, const char *hash,
		  const char *root_arg, struct cli_pair *cp)
{
	struct fv_open_request rq = {
		.data = data, .hash = hash, .activates = 1};

	memset(cp, 0, sizeof(*cp));
	return open_made(o, &rq, root_arg, cp);
}

/* A --partition that is no role: said as the option it is; else the
 * library's message (r: its error). */
int cli_partition_refused(const struct cli_opts *o, int r)
{
	if (cli_lib_param() == FV_PARAM_PARTITION)
		return cli_error(-EINVAL,
				 "--partition: '%s' is not root or usr",
				 o->partition);
	return cli_lib_error(r);
}

/* Where systemd looks for certificates trusted to sign DDIs. */
#define VERITY_D "/etc/verity.d"

void cli_trusted_of(const struct cli_opts *o, const char ***list, size_t *n,
		    glob_t *g)
{
	const char *dir = getenv("FASTVERITY_VERITY_D");
	char pattern[4096];

	*list = o->trusted_certs;
	*n = o->ntrusted;
	memset(g, 0, sizeof(*g));
	if (*n)
		return;
	snprintf(pattern, sizeof(pattern), "%s/*.crt", dir ? dir : VERITY_D);
	if (glob(pattern, 0, NULL, g) == 0 && g->gl_pathc) {
		*list = (const char **)g->gl_pathv;
		*n = g->gl_pathc;
	}
}

int cli_pair_from_args(struct cli_opts *o, struct cli_pair *cp)
{
	struct fv_open_request rq = {0};

	memset(cp, 0, sizeof(*cp));
	if (o->container && strcmp(o->container, "plain"))
		return cli_error(-EINVAL,
				 "--container=%s: takes an image alone; a "
				 "data and a hash device are a plain pair",
				 o->container);
	if (o->nargs < 2 || (o->nargs > 3 && strcmp(o->action, "verify") != 0))
		return cli_error(-EINVAL,
				 "%s: requires <data_device> <hash_device> "
				 "[<root_hash>], or <image>, as arguments",
				 o->action);
	/* veritysetup verify ignores what follows the root hash */
	for (int i = 3; i < o->nargs; i++)
		fprintf(stderr,
			"fastverity: warning: ignoring the extra argument "
			"'%s' (as veritysetup does)\n",
			o->args[i]);
	rq.data = o->args[0];
	rq.hash = o->args[1];
	return open_made(o, &rq, o->nargs >= 3 ? o->args[2] : NULL, cp);
}

void cli_signer_said(const struct cli_opts *o, enum fv_trust trust,
		     const fv_result *res)
{
	struct fv_report rep;

	cli_report(res, &rep);
	/* (the warnings are the library's: fv_show) */
	if (trust != FV_TRUST_UNCHECKED && rep.trust == FV_TRUST_CHECK)
		cli_debug(o, "Root hash signature by %s checks out.",
			  rep.signer);
}

void cli_hashing_said(const struct cli_opts *o, const fv_result *res)
{
	struct fv_report rep;

	cli_report(res, &rep);
	cli_debug(o, "Hashing path: %s (%s), kernel %s, provider %s.",
		  rep.hashing_path, rep.hashing_reason, rep.hashing_kernel,
		  rep.hashing_provider);
}

void cli_report(const fv_result *r, struct fv_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->size = sizeof(*rep);
	if (r)
		fv_result_report(r, rep);
}

const char *cli_name(char *buf, size_t len, const void *name, size_t n)
{
	return fv_name_shown(name, n, buf, len);
}

struct fv_image_info cli_image_info(const fv_image *img)
{
	struct fv_image_info in = {.size = sizeof(in)};

	if (!img || fv_image_info(img, &in)) {
		memset(&in, 0, sizeof(in));
		in.trust = FV_TRUST_UNSIGNED;
	}
	return in;
}

struct fv_image_pair_info cli_image_pair(const fv_image *img, size_t i)
{
	struct fv_image_pair_info p = {.size = sizeof(p)};

	if (!img || fv_image_pair_info(img, i, &p)) {
		memset(&p, 0, sizeof(p));
		p.trust = FV_TRUST_UNSIGNED;
	}
	return p;
}

/* An image given alone (cli_alone): what the library says it is and
 * whether it checked a pair, for the exit code. */
struct alone {
	struct cli_opts *o;
	unsigned walk;   /* the library's: 0 one pair, 1 a set, 2 an OTA
			  * package's checks, 3 a disk image's partitions, 4
			  * sidecar files */
	char *hint;      /* said after the call's error */
	char tree[4096]; /* sidecar files': the tree read, at off, params:
			  * its parameters given (no superblock read) */
	uint64_t off;
	int params;
	int dump, repair, open;
	int judged; /* the pair opened: its verdict, trust */
	enum fv_trust trust;
	char data[4096], hash[4096]; /* open's pair, once mapped */
};

/* The open's items: what the image is, first; its notes. */
static int alone_said(void *ctx, const struct fv_item *it)
{
	struct alone *a = ctx;

	if (it->kind == FV_ITEM_WARNING)
		fprintf(stderr, "fastverity: warning: %s\n", it->text);
	else if (it->kind == FV_ITEM_ERROR && it->key && it->text &&
		 !strcmp(it->key, "hint")) {
		free(a->hint); /* (the last one said) */
		return (a->hint = strdup(it->text)) ? 0 : -ENOMEM;
	} else if (it->kind == FV_ITEM_ERROR)
		fprintf(stderr, "fastverity: %s\n", it->text);
	else if (it->kind == FV_ITEM_STRING && it->key &&
		 !strcmp(it->key, "container")) {
		a->walk = (unsigned)it->u;
		/* a walk that is not a pair's: its --json built whole (a
		 * super image's logical partition: as its path's walk says) */
		if (!it->d)
			cli_json_whole = !a->dump && a->walk && a->walk != 4;
	} else if (it->kind == FV_ITEM_STRING && it->key && it->text &&
		   !strcmp(it->key, "tree")) {
		snprintf(a->tree, sizeof(a->tree), "%s", it->text);
		a->off = (uint64_t)it->u;
		a->params = it->d != 0;
	} else if (it->kind == FV_ITEM_UINT && it->key &&
		   !strcmp(it->key, "trust")) {
		a->judged = 1;
		a->trust = (enum fv_trust)it->u;
	} else if (it->kind == FV_ITEM_STRING && it->key && it->text &&
		   (!strcmp(it->key, "data") || !strcmp(it->key, "hash"))) {
		snprintf(*it->key == 'd' ? a->data : a->hash, sizeof(a->data),
			 "%s", it->text);
	}
	return 0;
}

/* The exit code of the one call r, said as its walk says it. */
static int alone_said_all(struct alone *a, int r, const fv_result *res)
{
	struct cli_opts *o = a->o;

	/* an image with sidecar files whose pair the door refused: with
	 * veritysetup's words, and the hints where the tree read from a
	 * superblock has none (as a plain pair's) */
	if (a->walk == 4 && !a->judged && r < 0 && *a->tree)
		return !a->dump && cli_lib_param() == FV_PARAM_ROOT_HASH
			       ? cli_root_refused(r, NULL)
		       : a->params
			       ? cli_lib_error(r)
			       : cli_no_superblock(r,
						   a->dump ? NULL : o->args[0],
						   a->tree, a->off);
	if (a->walk == 2 && !a->open && !a->repair) { /* OTA's checks */
		int code = r > 0 ? EXIT_VERIFY : r ? cli_lib_error(r) : EXIT_OK;

		if (code && code != EXIT_VERIFY && o->json)
			cli_json_final(code, NULL);
		return code;
	}
	if (a->dump)
		return r > 0 && (a->walk == 1 || a->walk == 3) ? r
		       : r ? cli_partition_refused(o, r)
			   : 0;
	if ((a->open || a->repair) && !a->judged)
		return cli_partition_refused(o, r);
	if (a->open)
		return cli_opened(o, r < 0 ? r : 0, res, o->args[1], a->data,
				  a->hash);
	if (a->repair) {
		if (r < 0)
			return cli_write_error(r);
		if (a->walk == 3 || a->walk == 4)
			cli_signer_said(o, a->trust, res);
		/* a dry run leaves the image as it was */
		return cli_exit_code(-r);
	}
	if (a->walk == 1 || a->walk == 3)
		return r >= 0 ? cli_exit_code(-r) : cli_partition_refused(o, r);
	if (a->judged)
		cli_threads_said(o);
	if (r < 0)
		return cli_lib_error(r);
	if (a->walk == 4)
		cli_signer_said(o, a->trust, res);
	cli_hashing_said(o, res);
	/* parity never makes a damaged image pass (docs/format.md) */
	return cli_exit_code(-r);
}

int cli_alone(struct cli_opts *o, const char *args)
{
	struct alone a = {.o = o,
			  .dump = !strcmp(o->action, "dump"),
			  .repair = !strcmp(o->action, "repair"),
			  .open = !strcmp(o->action, "open")};
	/* what the walk takes or refuses, the library's: the options
	 * given, by name */
	const char *given[][2] = {
		{"hash", o->hash},
		{"data-block-size", o->data_block_size},
		{"hash-block-size", o->hash_block_size},
		{"data-blocks", o->data_blocks},
		{"hash-offset", o->hash_offset},
		{"salt", o->salt},
		{"format", o->format},
		{"no-superblock", o->no_superblock ? "1" : NULL},
		{"root-hash-file", o->root_hash_file},
		{"fec-device", o->fec_device},
		{"fec-offset", o->fec_offset},
		{"fec-roots", o->fec_roots},
		{"root-hash-signature", o->root_hash_signature},
		{"uuid", o->uuid},
		{"max-failures", o->max_failures},
		{"threads", o->threads},
		{"partition", o->partition},
		{"slot", o->slot},
		{"check-crc", o->check_crc ? "1" : NULL},
		{"error-as-corruption", o->error_as_corruption ? "1" : NULL}};
	size_t n = sizeof(given) / sizeof(given[0]);
	const char **kv;
	struct cli_progress pr;
	fv_options opts = {.size = sizeof(opts),
			   .progress = cli_progress_update,
			   .progress_ctx = &pr,
			   .pass = cli_progress_pass,
			   .flags = o->activation,
			   .trusted_certs =
				   (const char *const *)o->trusted_certs,
			   .ntrusted_certs = o->ntrusted,
			   .key = o->key,
			   .sha256 = cli_sha256_choice(),
			   .repair = o->repair};
	struct fv_open_request rq = {.size = sizeof(rq),
				     .container = o->container,
				     .action = o->action,
				     .said = alone_said,
				     .ctx = &a};
	const char *tmp = getenv("TMPDIR");
	const char **certs;
	size_t ncerts;
	fv_result *res = NULL;
	glob_t g;
	int r;

	if (!(kv = calloc(2 * (n + o->nblock_devices), sizeof(*kv))))
		return cli_error(-ENOMEM, "out of memory");
	memcpy(kv, given, sizeof(given));
	for (size_t i = 0; i < o->nblock_devices; i++) {
		kv[2 * (n + i)] = "block-device";
		kv[2 * (n + i) + 1] = o->block_devices[i];
	}
	cli_progress_init(&pr, o);
	/* a disk image's anchor without an option: /etc/verity.d's */
	cli_trusted_of(o, &certs, &ncerts, &g);
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = a.dump     ? FV_SHOW_PAIR
			: a.repair ? FV_SHOW_REPAIR
			: a.open   ? FV_SHOW_OPEN
				   : FV_SHOW_VERIFY,
		.image = o->args[0],
		.json = o->json,
		.all = o->verbose,
		.o = &opts,
		.options = kv,
		.noptions = n + o->nblock_devices,
		/* an OTA package's images, for its AVB key: in the
		 * temporary files' directory */
		.dir = tmp && *tmp ? tmp : "/tmp",
		.res = &res,
		.max = UINT64_MAX,
		.args = args,
		.open = &rq,
		.certs = o->ntrusted ? NULL : certs,
		.ncerts = o->ntrusted ? 0 : ncerts});
	cli_progress_end(&pr);
	globfree(&g);
	free(kv);
	r = alone_said_all(&a, r, res);
	if (a.hint) /* after the error it helps with */
		fprintf(stderr, "fastverity: %s\n", a.hint);
	free(a.hint);
	fv_result_free(res);
	return r;
}
