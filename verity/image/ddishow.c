/* What dump shows of a disk image (verity/image/ddishow.h). */
#include "verity/image/ddishow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/error.h"
#include "verity/show/pair.h"

/* The name the text gives a partition: "partition 1 (root-x86-64, label
 * 'root-x86-64', UUID ...)" (its type's DPS name where it has one). It
 * is cut at 511 bytes, as the command always cut it. */
static const char *type_of(const struct gpt_partition *g)
{
	const char *type = verity_ddi_type_name(g->type);

	return type ? type : g->type;
}

static void partition_name(const struct gpt_partition *g, char *out, size_t len)
{
	char label[HT_NAME_SHOWN_MAX];

	snprintf(
		out, len, "partition %u (%s, label '%s', UUID %s)", g->index,
		type_of(g),
		ht_name_shown(g->label, strlen(g->label), label, sizeof(label)),
		g->uuid);
}

void verity_image_ddi_show_disk(struct show *sh, const char *image,
				const struct ddi_image *d)
{
	char *line = NULL;

	if (sh->json) {
		verity_show_object(sh, NULL);
		verity_show_str(sh, "image", image);
		verity_show_str(sh, "disk_uuid", d->gpt.h.disk_uuid);
		verity_show_array(sh, "partitions");
		return;
	}
	if (asprintf(&line,
		     "Discoverable disk image %s: GPT of %u-byte sectors, "
		     "disk UUID %s, %zu partitions\n",
		     image, d->gpt.h.sector, d->gpt.h.disk_uuid,
		     d->gpt.nparts) < 0)
		line = NULL;
	verity_show_text(sh, line);
	free(line);
}

void verity_image_ddi_show_end(struct show *sh)
{
	if (sh->json) {
		verity_show_end(sh); /* the list */
		verity_show_end(sh); /* the document */
	}
}

/* A partition as --json shows it (NULL: null). */
static void partition_json(struct show *sh, const char *key,
			   const struct gpt_partition *g)
{
	if (!g) {
		verity_show_null(sh, key);
		return;
	}
	verity_show_object(sh, key);
	verity_show_u64(sh, "index", g->index);
	verity_show_str(sh, "type", type_of(g));
	verity_show_str(sh, "label", g->label);
	verity_show_str(sh, "uuid", g->uuid);
	verity_show_u64(sh, "offset", g->offset);
	verity_show_u64(sh, "size", g->size);
	verity_show_end(sh);
}

/* Whether v's signature could not be read (no signer named: why). */
static int unread(const struct ddi_verity *v, const struct verity_ddi_shown *s)
{
	return v->sig && !*s->signer && s->unread && *s->unread;
}

static void pair_json(struct show *sh, const char *image,
		      const struct ddi_verity *v,
		      const struct verity_ddi_shown *s)
{
	verity_show_object(sh, NULL);
	verity_show_pair_header(sh, image, s->params, NULL, s->layout,
				s->root_hex);
	verity_show_str(sh, "role", verity_ddi_role_name(v->role));
	verity_show_str(sh, "architecture", v->arch);
	partition_json(sh, "data", v->data);
	partition_json(sh, "hash", v->hash);
	partition_json(sh, "signature", v->sig);
	verity_show_str(sh, "certificate_fingerprint",
			v->fingerprint[0] ? v->fingerprint : NULL);
	verity_show_bool(sh, "signed", v->sig != NULL);
	verity_show_str(sh, "signer",
			v->sig && !unread(v, s) ? s->signer : NULL);
	if (unread(v, s))
		verity_show_str(sh, "error", s->unread);
	/* dump names who the signature says signed, checking nothing:
	 * said as the text says it */
	verity_show_str(sh, "trust", v->sig ? "not checked" : "unsigned");
	verity_show_end(sh);
}

/* Why v's signature cannot be read, the partition its message names
 * left out (the line names it already). */
static const char *unread_why(const struct ddi_verity *v, const char *why)
{
	char named[32];
	int n = snprintf(named, sizeof(named), "partition %u: ", v->sig->index);

	return n > 0 && !strncmp(why, named, (size_t)n) ? why + n : why;
}

void verity_image_ddi_show_pair(struct show *sh, const char *image,
				const struct ddi_verity *v,
				const struct verity_ddi_shown *s)
{
	char data_name[512], hash_name[512], sig_name[512] = "", uuid[37];
	const char *role = verity_ddi_role_name(v->role);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (sh->json) {
		pair_json(sh, image, v, s);
		return;
	}
	partition_name(v->data, data_name, sizeof(data_name));
	partition_name(v->hash, hash_name, sizeof(hash_name));
	if (v->sig)
		partition_name(v->sig, sig_name, sizeof(sig_name));
	if (!(f = open_memstream(&text, &len))) {
		verity_show_text(sh, NULL);
		return;
	}
	fprintf(f,
		"\n%s-%s:\n  data:      %s, %" PRIu64 " bytes at %" PRIu64
		"\n  hash tree: %s, %" PRIu64 " bytes at %" PRIu64 "\n",
		role, v->arch, data_name, v->data->size, v->data->offset,
		hash_name, v->hash->size, v->hash->offset);
	if (unread(v, s))
		fprintf(f,
			"  signature: %s, cannot be read (%s), certificate "
			"sha256 %s\n",
			sig_name, unread_why(v, s->unread),
			v->fingerprint[0] ? v->fingerprint : "(none)");
	else if (v->sig)
		fprintf(f,
			"  signature: %s, signer %s (not checked: verify "
			"checks it), certificate sha256 %s\n",
			sig_name, s->signer,
			v->fingerprint[0] ? v->fingerprint : "(none)");
	else
		fprintf(f, "  signature: none (unsigned: the root hash comes "
			   "from the partition UUIDs)\n");
	if (verity_show_stream(sh, f, &text))
		return;
	snprintf(uuid, sizeof(uuid), "%s", s->params->uuid);
	verity_show_pair_header(sh, hash_name, s->params, uuid, s->layout,
				s->root_hex);
}

/* ---- verify (fv_show's FV_SHOW_DDI_VERIFY) ---- */

/* The name a message gives a partition of the public pair. */
static void gpt_name(const struct fv_gpt_partition *p, char *out, size_t len)
{
	char label[HT_NAME_SHOWN_MAX];

	snprintf(
		out, len, "partition %u (%s, label '%s', UUID %s)", p->index,
		p->type,
		ht_name_shown(p->label, strlen(p->label), label, sizeof(label)),
		p->uuid);
}

void verity_image_ddi_failure(struct show *sh, const struct fv_ddi_pair *d,
			      const struct verity_failure *f)
{
	int data =
		f->kind == HT_BAD_DATA_BLOCK || f->kind == HT_UNREADABLE_DATA;
	const struct fv_gpt_partition *p = data ? &d->data : &d->hash;
	char label[HT_NAME_SHOWN_MAX];

	if (sh->json) {
		verity_show_object(sh, NULL);
		verity_show_failure_json(sh, f);
		verity_show_u64(sh, "partition", p->index);
		verity_show_u64(sh, "image_offset", p->offset + f->position);
		verity_show_end(sh);
		return;
	}
	verity_show_errorf(
		sh,
		"%s at position %" PRIu64
		" (partition %u: %s, label '%s', UUID %s; image byte %" PRIu64
		").\n",
		verity_show_failure_words(f->kind), f->position, p->index,
		p->type,
		ht_name_shown(p->label, strlen(p->label), label, sizeof(label)),
		p->uuid, p->offset + f->position);
}

int verity_image_ddi_refused(struct show *sh, const struct fv_ddi_pair *d,
			     int r, const char *why, int *code,
			     struct ht_error *err)
{
	*code = r == -EPERM ? 2 : 1;
	/* a signature that does not check out is exit 2, as for every
	 * container (docs/trust.md), and the next partition is checked;
	 * so is one the parameters refuse, in --json's document */
	if (r == -EPERM || (sh->json && r != -ENOMEM && r != -ENODEV &&
			    r != -ENOTBLK && r != -EBUSY && r != -EEXIST)) {
		verity_show_errorf(sh,
				   "fastverity: %s (%s-%s: partitions %u and "
				   "%u)\n",
				   why, d->role, d->arch, d->data.index,
				   d->hash.index);
		return 0;
	}
	return ht_fail(err, -r, "%s (%s-%s: partitions %u and %u)", why,
		       d->role, d->arch, d->data.index, d->hash.index);
}

static void gpt_json(struct show *sh, const char *key,
		     const struct fv_gpt_partition *p)
{
	verity_show_object(sh, key);
	verity_show_u64(sh, "index", p->index);
	verity_show_str(sh, "type", p->type);
	verity_show_str(sh, "label", p->label);
	verity_show_str(sh, "uuid", p->uuid);
	verity_show_u64(sh, "offset", p->offset);
	verity_show_u64(sh, "size", p->bytes);
	verity_show_end(sh);
}

static void checked_json(struct show *sh, const struct verity_ddi_checked *c,
			 const struct ht_verify_result *n, int code,
			 struct show_kept *failures)
{
	const struct fv_ddi_pair *d = c->d;
	int checked = c->trust == FV_TRUST_CHECK;

	verity_show_object(sh, NULL);
	verity_show_str(sh, "role", d->role);
	verity_show_str(sh, "architecture", d->arch);
	gpt_json(sh, "data", &d->data);
	gpt_json(sh, "hash", &d->hash);
	if (d->is_signed)
		gpt_json(sh, "signature", &d->signature);
	else
		verity_show_null(sh, "signature");
	verity_show_str(sh, "signer", checked ? c->rep->signer : NULL);
	verity_show_str(sh, "certificate_fingerprint",
			checked ? c->rep->signer_fingerprint : NULL);
	verity_show_str(sh, "trust",
			checked                          ? "checked"
			: c->trust == FV_TRUST_UNCHECKED ? "not checked"
							 : "unsigned");
	verity_show_str(sh, "root_hash", d->root_hex);
	verity_show_str(sh, "result", verity_show_verdict_word(code));
	verity_show_counts_json(sh, n);
	verity_show_array(sh, "failures");
	verity_show_replay(sh, failures);
	verity_show_end(sh);
	verity_show_end(sh);
}

int verity_image_ddi_checked(struct show *sh, const char *image,
			     const struct verity_ddi_checked *c,
			     struct show_kept *failures)
{
	const struct fv_ddi_pair *d = c->d;
	struct ht_verify_result n = verity_show_counts_of(c->rep);
	int code = verity_show_verdict(&n);
	char data_name[512], verdict[160];

	if (sh->json) {
		checked_json(sh, c, &n, code, failures);
		return code;
	}
	gpt_name(&d->data, data_name, sizeof(data_name));
	if (code == 2)
		verity_show_counts_said(sh, &n);
	if (!n.root_matches)
		verity_show_error(sh, "Verification of root hash failed.\n");
	if (*c->rep->signature_warning)
		verity_show_errorf(sh, "fastverity: %s: warning: %s\n", image,
				   c->rep->signature_warning);
	if (c->trust == FV_TRUST_UNCHECKED)
		verity_show_errorf(
			sh,
			"fastverity: %s: warning: %s is signed (partition %u), "
			"and its signer was not checked (give "
			"--trusted-cert=<cert.pem>, or put the certificate "
			"in /etc/verity.d/ as systemd does): the image matches "
			"its root hash, but nothing proves who made it\n",
			image, data_name, d->signature.index);
	verity_show_textf(
		sh, "%s-%s: %s, tree in partition %u, %s: %s.\n", d->role,
		d->arch, data_name, d->hash.index,
		!d->is_signed ? "unsigned (the root hash comes from the "
				"partition UUIDs)"
		: c->trust == FV_TRUST_UNCHECKED ? "signed, signer not checked"
						 : "signed",
		verity_show_verdict_text(code, &n, verdict, sizeof(verdict)));
	if (d->is_signed && c->trust == FV_TRUST_CHECK)
		verity_show_textf(
			sh,
			"%s-%s: signed by %s (certificate sha256 %s), "
			"partition %u.\n",
			d->role, d->arch, c->rep->signer,
			c->rep->signer_fingerprint, d->signature.index);
	return code;
}

void verity_image_ddi_verified(struct show *sh, const char *image, int code,
			       struct show_kept *partitions)
{
	if (!sh->json)
		return;
	verity_show_object(sh, NULL);
	verity_show_str(sh, "image", image);
	verity_show_str(sh, "result", verity_show_verdict_word(code));
	verity_show_array(sh, "partitions");
	verity_show_replay(sh, partitions);
	verity_show_end(sh);
	verity_show_end(sh);
}

/* A partition as the public pair has it (NULL: zeros). */
static void gpt_of(const struct gpt_partition *g, struct fv_gpt_partition *p)
{
	memset(p, 0, sizeof(*p));
	if (!g)
		return;
	p->index = g->index;
	p->type = type_of(g);
	p->label = g->label;
	p->uuid = g->uuid;
	p->offset = g->offset;
	p->bytes = g->size;
}

void verity_image_ddi_pair_of(const struct ddi_verity *v, struct fv_ddi_pair *d)
{
	d->size = sizeof(*d);
	d->role = verity_ddi_role_name(v->role);
	d->arch = v->arch;
	d->root_hex = v->root_hex;
	d->is_signed = v->sig != NULL;
	d->fingerprint = v->fingerprint;
	gpt_of(v->data, &d->data);
	gpt_of(v->hash, &d->hash);
	gpt_of(v->sig, &d->signature);
}

int verity_image_ddi_picks(const char *partition, const struct ddi_verity *v)
{
	return !partition || !strcmp(partition, verity_ddi_role_name(v->role));
}

int verity_image_ddi_asked(const struct ddi_image *d, const char *image,
			   const char *partition, struct ht_error *err)
{
	if (!partition)
		return 0;
	for (size_t i = 0; i < d->nv; i++)
		if (verity_image_ddi_picks(partition, &d->v[i]))
			return 0;
	/* a name that is no role: the option's fix */
	if (strcmp(partition, "root") && strcmp(partition, "usr"))
		return ht_fail_fix(err, EINVAL, HT_PARAM_PARTITION, 0, 0,
				   "give %0: root or usr",
				   "%s: no protected %s partition", image,
				   partition);
	return ht_fail(err, EINVAL, "%s: no protected %s partition", image,
		       partition);
}
