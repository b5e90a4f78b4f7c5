/* The internal library as the command's printers and options take it
 * (cli/inside.h). */
#include "cli/inside.h"

#include <errno.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "include/fastverity.h"

int cli_inside_error(int r, const struct ht_error *err)
{
	struct ht_param_names names = {NULL, NULL};
	char msg[HT_ERROR_MAX];

	if ((size_t)err->param < cli_option_words_count) {
		names.with_value = cli_option_words[err->param].with_value;
		names.alone = cli_option_words[err->param].alone;
	}
	ht_say(err, &names, msg, sizeof(msg));
	return cli_error(r, "%s", msg);
}

int cli_inside_write_error(int r, const struct ht_error *err)
{
	return cli_inside_error(r == -EBUSY ? -EINVAL : r, err);
}

int cli_inside_run_options(const struct cli_opts *o, struct ht_options *opt,
			   struct cli_progress *pr)
{
	unsigned threads;

	if (cli_parse_threads(o, &threads))
		return EXIT_PARAMS;
	cli_progress_init(pr, o);
	opt->threads = threads ? threads : verity_default_threads();
	opt->progress = cli_progress_update;
	opt->progress_ctx = pr;
	opt->no_map = 1; /* read, as the library's options do by default */
	return 0;
}

int cli_inside_run_of(const struct cli_opts *o, struct verity_run *run,
		      struct cli_progress *pr)
{
	memset(run, 0, sizeof(*run));
	if (cli_inside_run_options(o, &run->ht, pr))
		return EXIT_PARAMS;
	run->trusted = o->trusted_certs;
	run->ntrusted = o->ntrusted;
	run->sha256 = (enum sha256_choice)cli_sha256_choice();
	return 0;
}

int cli_inside_fec_params(const struct cli_opts *o,
			  struct verity_fec_params *fp)
{
	struct cli_fec f;

	memset(fp, 0, sizeof(*fp));
	if (cli_fec_params(o, &f))
		return EXIT_PARAMS;
	fp->region.path = f.path;
	fp->offset = f.offset;
	fp->roots = f.roots;
	return 0;
}

void cli_inside_counts(const struct ht_verify_result *r, struct cli_counts *c)
{
	c->bad_data = r->bad_data_blocks;
	c->bad_hash = r->bad_hash_blocks;
	c->bad_padding = r->bad_padding;
	c->unreadable = r->unreadable_blocks;
	c->unchecked_data = r->unchecked_data_blocks;
	c->unchecked_hash = r->unchecked_hash_blocks;
	c->root_matches = r->root_matches;
	c->root_first = r->root_first;
}

void cli_inside_failure(const struct verity_failure *f, struct cli_failure *c)
{
	c->kind = (enum fv_failure_kind)f->kind;
	c->position = f->position;
	c->block = f->block;
	c->level = f->level;
}

fv_params *cli_inside_params(const struct verity_params *p)
{
	fv_params *q = fv_params_new();
	char uuid[37];

	if (!q) {
		cli_lib_error(-ENOMEM);
		return NULL;
	}
	verity_uuid_format(p->uuid, uuid);
	fv_params_set_hash(q, p->hash_name);
	fv_params_set_hash_type(q, (unsigned)p->hash_type);
	fv_params_set_block_sizes(q, p->data_block_size, p->hash_block_size);
	fv_params_set_data_blocks(q, p->data_blocks);
	fv_params_set_hash_offset(q, p->hash_offset);
	fv_params_set_salt(q, p->salt, p->salt_size);
	fv_params_set_uuid(q, uuid);
	fv_params_set_superblock(q, !p->no_superblock);
	return q;
}

void cli_inside_layout(const struct verity_layout *l, struct fv_layout *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	out->data_blocks = l->geo.data_blocks;
	out->data_bytes = l->data_bytes;
	out->hash_area_start = l->hash_area_start;
	out->tree_offset = l->tree_offset;
	out->tree_blocks = l->geo.tree_blocks;
	out->hash_end = l->hash_end;
	out->levels = l->geo.levels;
	out->digest_size = (unsigned)l->geo.digest_size;
	out->fec_roots = l->fec.roots;
	out->fec_roots_from = (enum fv_roots_from)l->fec.roots_source;
	out->fec_rsn = l->fec.rsn;
	out->fec_on_hash_device = l->fec.on_hash_device;
	out->fec_offset = l->fec.offset;
	out->fec_blocks = l->fec.blocks;
	out->fec_rounds = l->fec.rounds;
	out->fec_parity_bytes = l->fec.parity_bytes;
}

void cli_inside_fec(const struct verity_fec_result *f,
		    struct fv_fec_report *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	out->bad_blocks = f->bad_blocks;
	out->repaired = f->repaired;
	out->passes = f->passes;
	out->stale_codewords = f->stale_codewords;
	out->stale_rounds = f->stale_rounds;
	out->unchecked_rounds = f->unchecked_rounds;
	out->parity_rewritten = f->parity_rewritten;
	out->rewrite_limit = f->rewrite_limit;
}
