/* What each walk of an image given alone takes of the caller's options
 * (verity/image/takes.h): refused in the words of fastverity's options,
 * each walk's in the order the command has always said them, so that the
 * first one given wrongly is the one said. */
#include "verity/image/takes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/android/android.h"
#include "verity/files/files.h"
#include "verity/ops/parse.h"
#include "verity/show/pair.h"

/* The value of name among q's options (the last given; NULL: none). */
static const char *given(const struct fv_show_request *q, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; q->options && i < q->noptions; i++)
		if (!strcmp(q->options[2 * i], name) && q->options[2 * i + 1])
			v = q->options[2 * i + 1];
	return v;
}

static const fv_options *opts_of(const struct fv_show_request *q)
{
	static const fv_options none = {.size = sizeof(none)};

	return q->o ? q->o : &none;
}

/* The first of the options an Android image's pair carries itself that
 * was given, or NULL. */
static const char *avb_parameter(const struct fv_show_request *q)
{
	static const char *const names[] = {"hash",
					    "data-block-size",
					    "hash-block-size",
					    "data-blocks",
					    "hash-offset",
					    "salt",
					    "format",
					    "no-superblock",
					    "root-hash-file",
					    "fec-device",
					    "fec-offset",
					    "fec-roots",
					    "root-hash-signature"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (given(q, names[i]))
			return names[i];
	return NULL;
}

/* An Android image's pair (image: its name): it carries its own
 * parameters. */
static int avb_refuses(const struct fv_show_request *q, const char *image,
		       struct ht_error *err)
{
	const char *opt = avb_parameter(q);

	if (!opt)
		return 0;
	return ht_fail(err, EINVAL,
		       "%s: an Android image carries its own parameters, "
		       "tree, parity and root; --%s does not apply",
		       image, opt);
}

/* The anchor alone: --key or --trusted-cert, not both. */
static int anchor(const struct fv_show_request *q, struct verity_alone_takes *t,
		  struct ht_error *err)
{
	const fv_options *o = opts_of(q);

	memset(&t->o, 0, sizeof(t->o));
	t->o.size = sizeof(t->o);
	if (o->key && o->ntrusted_certs)
		return ht_fail(err, EINVAL,
			       "--key and --trusted-cert: give the one trust "
			       "anchor the image takes (--key for Android "
			       "images, --trusted-cert for the others)");
	t->o.key = o->key;
	t->o.trusted_certs = o->trusted_certs;
	t->o.ntrusted_certs = o->ntrusted_certs;
	return 0;
}

/* The options a check runs with: --threads read, the certificates
 * counted, the caller's kernel and progress; no anchor but the
 * certificates. */
static int run(const struct fv_show_request *q, const fv_options *o,
	       fv_options *out, struct ht_error *err)
{
	const char *v = given(q, "threads");
	uint64_t n = 0;
	int r;

	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	if (v && (r = verity_ops_number("threads", v, &n, err)))
		return r;
	if (o->ntrusted_certs > FV_MAX_TRUSTED_CERTS)
		return ht_fail(err, EINVAL,
			       "%zu certificate files (at most %d)",
			       o->ntrusted_certs, FV_MAX_TRUSTED_CERTS);
	out->threads = (unsigned)n;
	out->sha256 = o->sha256;
	out->progress = o->progress;
	out->progress_ctx = o->progress_ctx;
	out->pass = o->pass;
	out->trusted_certs = o->trusted_certs;
	out->ntrusted_certs = o->ntrusted_certs;
	return 0;
}

/* --block-device NAME=FILE split into names and files. */
static int block_devices(const struct fv_show_request *q,
			 struct verity_alone_takes *t, struct ht_error *err)
{
	size_t n = 0;

	for (size_t i = 0; q->options && i < q->noptions; i++)
		n += !strcmp(q->options[2 * i], "block-device");
	t->names = calloc(n + 1, sizeof(*t->names));
	t->files = calloc(n + 1, sizeof(*t->files));
	if (!t->names || !t->files)
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < q->noptions; i++) {
		const char *s = q->options[2 * i + 1], *eq;

		if (strcmp(q->options[2 * i], "block-device") || !s)
			continue;
		if (!(eq = strchr(s, '=')) || eq == s || !eq[1])
			return ht_fail(err, EINVAL,
				       "--block-device: '%s' is not NAME=FILE",
				       s);
		if (!(t->names[t->n] = strndup(s, (size_t)(eq - s))))
			return ht_fail(err, ENOMEM, "out of memory");
		t->files[t->n++] = eq + 1;
	}
	return 0;
}

/* --slot: a or b. */
static int slot_named(const char *slot, struct ht_error *err)
{
	if (slot && strcmp(slot, "a") && strcmp(slot, "b"))
		return ht_fail(err, EINVAL, "--slot: '%s' is not a or b", slot);
	return 0;
}

/* At most one bit of these. */
static int several(unsigned flags, unsigned of)
{
	flags &= of;
	return (flags & (flags - 1)) != 0;
}

/* open's policies: one for corruption, one for I/O errors; an I/O error
 * as corruption (veritysetup 2.8) as its policy says. */
static int policies(const struct fv_show_request *q,
		    struct verity_alone_takes *t, struct ht_error *err)
{
	unsigned f = opts_of(q)->flags;

	if (several(f, FV_IGNORE_CORRUPTION | FV_RESTART_ON_CORRUPTION |
			       FV_PANIC_ON_CORRUPTION))
		return ht_fail(err, EINVAL,
			       "choose one of --ignore-corruption, "
			       "--restart-on-corruption and "
			       "--panic-on-corruption");
	if (given(q, "error-as-corruption")) {
		int panic = !!(f & FV_PANIC_ON_CORRUPTION);

		if (!(f & (FV_RESTART_ON_CORRUPTION | FV_PANIC_ON_CORRUPTION)))
			return ht_fail(err, EINVAL,
				       "Option --error-as-corruption must be "
				       "used with --panic-on-corruption or "
				       "--restart-on-corruption.");
		if (f & (panic ? FV_RESTART_ON_ERROR : FV_PANIC_ON_ERROR))
			return ht_fail(err, EINVAL,
				       "--error-as-corruption with %s %s on an "
				       "I/O error: not with %s",
				       panic ? "--panic-on-corruption"
					     : "--restart-on-corruption",
				       panic ? "panics" : "restarts",
				       panic ? "--restart-on-error"
					     : "--panic-on-error");
		f |= panic ? FV_PANIC_ON_ERROR : FV_RESTART_ON_ERROR;
	}
	if (several(f, FV_RESTART_ON_ERROR | FV_PANIC_ON_ERROR))
		return ht_fail(err, EINVAL,
			       "choose one of --restart-on-error and "
			       "--panic-on-error");
	t->flags = f;
	return 0;
}

/* The parity given: its device (none given: found, NULL if none),
 * offset and roots. */
static int parity(const struct fv_show_request *q, const char *found,
		  struct verity_alone_takes *t, struct ht_error *err)
{
	const char *dev = given(q, "fec-device"), *off = given(q, "fec-offset"),
		   *roots = given(q, "fec-roots");
	uint64_t v = 0;
	int r;

	if (!dev && !(dev = found)) {
		if (off || roots)
			return ht_fail(err, EINVAL,
				       "--fec-offset and --fec-roots go with "
				       "--fec-device");
		return 0;
	}
	if (!*dev)
		return ht_fail(err, EINVAL, "--fec-device: empty path");
	t->rq.fec_path = dev;
	if (off &&
	    (r = verity_ops_number("fec-offset", off, &t->rq.fec_offset, err)))
		return r;
	if (roots && (r = verity_ops_number("fec-roots", roots, &v, err)))
		return r;
	t->rq.fec_roots = (unsigned)v;
	return 0;
}

/* An OTA package: what a pair's options say has no place in it. */
static int ota_refuses(const struct fv_show_request *q, int dump,
		       struct ht_error *err)
{
	static const char *const names[] = {"hash",
					    "data-block-size",
					    "hash-block-size",
					    "data-blocks",
					    "hash-offset",
					    "salt",
					    "uuid",
					    "format",
					    "root-hash-file",
					    "fec-device",
					    "fec-offset",
					    "fec-roots",
					    "max-failures",
					    "root-hash-signature",
					    "partition",
					    "slot",
					    "block-device",
					    "check-crc",
					    "no-superblock"};
	const fv_options *o = opts_of(q);
	const char *sub = dump ? "info" : "verify";
	int no = o->ntrusted_certs > 1 ||
		 (dump && (o->ntrusted_certs || o->key));

	for (size_t i = 0; !no && i < sizeof(names) / sizeof(names[0]); i++)
		no = given(q, names[i]) != NULL;
	if (!no)
		return 0;
	return ht_fail(err, EINVAL,
		       "%s: an Android OTA package: %s takes %s--json here (or "
		       "fastverity ota %s %s)",
		       q->image, q->open->action ? q->open->action : "",
		       dump ? ""
			    : "one --trusted-cert (its signer), --key (its "
			      "images' AVB key), ",
		       sub, q->image);
}

/* The tree's parameters given, as a plain pair's options give them: the
 * defaults without a salt of their own, the hash offset; rq's params
 * when no superblock is read. */
static int tree_params(const struct fv_show_request *q,
		       struct verity_alone_takes *t, struct ht_error *err)
{
	static const char *const names[] = {"hash",
					    "format",
					    "data-block-size",
					    "hash-block-size",
					    "data-blocks",
					    "hash-offset",
					    "salt",
					    "uuid",
					    "no-superblock"};
	const char *kv[2 * sizeof(names) / sizeof(names[0])];
	fv_params *p = &t->params;
	size_t n = 0;
	int r;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (given(q, names[i])) {
			kv[2 * n] = names[i];
			kv[2 * n++ + 1] = given(q, names[i]);
		}
	p->size = sizeof(*p);
	if ((r = verity_show_params_init(p, err)))
		return r;
	p->salt_len = 0;
	if ((r = verity_ops_params_parse(p, kv, n, err)))
		return r;
	t->rq.hash_offset = p->hash_offset;
	t->rq.params = p->superblock ? NULL : p;
	return 0;
}

/* dump of an image with sidecar files: its tree, IMAGE.verity, alone
 * with its parity (IMAGE.fec, when there and no --fec-device names
 * another); the image itself, a hash device, where a superblock is at
 * the hash offset or no tree is beside it (unless --container asked). */
static int sidecar_tree(const struct fv_show_request *q,
			struct verity_alone_takes *t, struct ht_error *err)
{
	const char *image = q->image, *off = given(q, "hash-offset");
	int asked = q->open->container != NULL, r;

	if ((off && (r = verity_ops_number("hash-offset", off,
					   &t->rq.hash_offset, err))) ||
	    (r = parity(q, NULL, t, err)))
		return r;
	t->tree = image;
	t->rq.container = NULL;
	if (!asked && verity_files_superblock_at(image, t->rq.hash_offset) !=
			      VERITY_FILES_SB_NONE)
		goto tree;
	if ((r = verity_sidecar_names(image, &t->side, err)))
		return r;
	if (!asked && access(t->side.tree, F_OK) != 0)
		goto tree;
	t->tree = t->side.tree;
	if (!t->rq.fec_path && access(t->side.fec, F_OK) == 0)
		t->rq.fec_path = t->side.fec;
tree:
	t->rq.data = t->rq.hash = t->tree;
	return 0;
}

/* An image with sidecar files (systemd's: IMAGE.verity, .roothash,
 * .roothash.p7s, .fec beside it): its pair made of the options given,
 * the files beside it where none were given (the parity takes
 * --fec-roots as --fec-device does); dump: its tree. */
static int sidecar_takes(const struct fv_show_request *q,
			 struct verity_alone_takes *t, struct ht_error *err)
{
	const char *image = q->image, *file = given(q, "root-hash-file");
	const char *action = q->open->action ? q->open->action : "";
	int r;

	if (q->what == FV_SHOW_PAIR)
		return sidecar_tree(q, t, err);
	if ((r = verity_sidecar_names(image, &t->side, err)))
		return r;
	/* what was typed, named: the image is nothing fastverity knows
	 * alone, and the tree beside it, which would make it a sidecar
	 * image, is not there */
	if (!q->open->container && access(image, F_OK) == 0 &&
	    access(t->side.tree, F_OK) != 0)
		return ht_fail(err, ENODEV,
			       "%s: not an image fastverity knows alone (no "
			       "AVB footer or vbmeta, GPT, sparse or super "
			       "header) and no %s beside it: give its hash "
			       "device and root hash (%s %s HASH_DEVICE "
			       "ROOT_HASH)",
			       image, t->side.tree, action, image);
	if ((r = tree_params(q, t, err)) ||
	    (r = parity(q, access(t->side.fec, F_OK) == 0 ? t->side.fec : NULL,
			t, err)))
		return r;
	t->tree = t->side.tree;
	t->rq.signature_path = given(q, "root-hash-signature");
	t->rq.root_hex = NULL;
	t->rq.root_hash_file = file ? file : t->side.roothash;
	t->rq.writes = q->what == FV_SHOW_REPAIR &&
		       !(opts_of(q)->repair & FV_REPAIR_DRY_RUN);
	return anchor(q, t, err);
}

/* --slot or --partition given where they choose nothing (slot: the
 * one, else --partition): refused, never passed over. */
static int chooses_nothing(const char *image, const char *slot,
			   struct ht_error *err)
{
	return ht_fail(err, EINVAL,
		       "%s: --%s names a partition of a super image or a "
		       "disk image",
		       image, slot ? "slot" : "partition");
}

/* repair: one pair, of an Android image, a disk image or an image with
 * sidecar files; a super image's logical partition the caller's. */
static int repair_takes(const struct fv_show_request *q, const char *c,
			struct verity_alone_takes *t, struct ht_error *err)
{
	const char *part = given(q, "partition"), *slot = given(q, "slot");
	int ddi = !strcmp(c, "ddi"), r;

	if (!strcmp(c, "super")) {
		if (!part)
			return ht_fail(err, EINVAL,
				       "%s: an Android super image: %s one "
				       "logical partition, named as %s/NAME or "
				       "with --partition=NAME (fastverity dump "
				       "%s lists them)",
				       q->image,
				       q->open->action ? q->open->action : "",
				       q->image, q->image);
		t->own = 2;
		return 0;
	}
	if (slot || (part && !ddi))
		return chooses_nothing(q->image, slot, err);
	if (!strcmp(c, "sidecar"))
		return sidecar_takes(q, t, err);
	t->rq.writes = !(opts_of(q)->repair & FV_REPAIR_DRY_RUN);
	if (!ddi)
		return (r = avb_refuses(q, q->image, err)) ? r
							   : anchor(q, t, err);
	if ((r = parity(q, NULL, t, err)))
		return r;
	t->rq.partition = part;
	return anchor(q, t, err);
}

/* open: one pair mapped, of an Android image, a disk image or a super
 * image's logical partition; an image with sidecar files takes a hash
 * device (as open has always said). */
static int open_takes(const struct fv_show_request *q, const char *c,
		      struct verity_alone_takes *t, struct ht_error *err)
{
	const char *part = given(q, "partition"), *slot = given(q, "slot");
	int r;

	if (!strcmp(c, "sidecar"))
		return ht_fail(err, EINVAL,
			       "open: requires <data_device> <name> "
			       "<hash_device> [<root_hash>], or "
			       "<android_image> <name>, as arguments");
	if ((r = policies(q, t, err)))
		return r;
	if (!strcmp(c, "super")) {
		if (!part)
			return ht_fail(err, EINVAL,
				       "%s: an Android super image: name the "
				       "logical partition to open "
				       "(--partition=system_a)",
				       q->image);
		if ((r = slot_named(slot, err)) ||
		    (r = block_devices(q, t, err)))
			return r;
		t->super = 1;
		t->rq.slot = slot && !strcmp(slot, "b");
		t->rq.names = t->names;
		t->rq.files = t->files;
		t->rq.n = t->n;
		/* its options refused once its path is known */
		if (avb_parameter(q))
			t->rq.action = NULL;
	} else if (strcmp(c, "ddi")) {
		return (r = avb_refuses(q, q->image, err)) ? r
							   : anchor(q, t, err);
	}
	t->rq.partition = part;
	return anchor(q, t, err);
}

/* --max-failures as the request carries it, read before the walk is
 * known (a value that is no count is refused once it is). */
static uint64_t max_failures(const char *s)
{
	uint64_t v = 0;

	if (!*s)
		return UINT64_MAX;
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9' ||
		    v > (UINT64_MAX - 1 - (uint64_t)(*c - '0')) / 10)
			return UINT64_MAX;
		v = v * 10 + (uint64_t)(*c - '0');
	}
	return v;
}

int verity_image_alone_takes(const struct fv_show_request *q,
			     const struct verity_alone *a,
			     struct verity_alone_takes *t, struct ht_error *err)
{
	const char *c = a->container, *image = q->image;
	const char *part = given(q, "partition"), *slot = given(q, "slot"),
		   *max = given(q, "max-failures");
	int dump = q->what == FV_SHOW_PAIR, repair = q->what == FV_SHOW_REPAIR;
	int open = q->what == FV_SHOW_OPEN, set = a->walk == VERITY_ALONE_SET;
	int super = !strcmp(c, "super"), ota = !strcmp(c, "ota");
	const fv_options *o = opts_of(q);
	int r;

	memset(t, 0, sizeof(*t));
	memcpy(&t->rq, q->open,
	       q->open->size < sizeof(t->rq) ? q->open->size : sizeof(t->rq));
	t->rq.size = sizeof(t->rq);
	t->max = max ? max_failures(max) : q->max;
	t->partition = part ? part : q->partition;
	t->from = o;
	/* a container that carries its own signatures takes none given */
	if (given(q, "root-hash-signature") && (super || !strcmp(c, "ddi")))
		return ht_fail(err, EINVAL,
			       "%s: %s carries its own signatures; "
			       "--root-hash-signature does not apply",
			       image,
			       super ? "an Android super image"
				     : "a systemd disk image");
	if (ota && (repair || open))
		return ht_fail(err, EINVAL,
			       "%s: an Android OTA package, which holds no "
			       "verity pair: read it with fastverity ota info "
			       "%s",
			       image, image);
	if (repair)
		return repair_takes(q, c, t, err);
	if (open)
		return open_takes(q, c, t, err);
	if (ota) { /* its signer's certificate, its images' key */
		if ((r = ota_refuses(q, dump, err)))
			return r;
		t->o.size = sizeof(t->o);
		t->o.key = o->key;
		t->o.trusted_certs = o->trusted_certs;
		t->o.ntrusted_certs = o->ntrusted_certs;
		return 0;
	}
	if (!strcmp(c, "ddi")) {
		if (dump)
			return 0;
		if ((r = anchor(q, t, err)) ||
		    (r = run(q, opts_of(q), &t->o, err)))
			return r;
		t->o.key = o->key;
		return 0;
	}
	if (super && dump && part) {
		t->own = 2;
		return 0;
	}
	if (super || (set && !dump)) {
		if ((r = slot_named(slot, err)))
			return r;
		if (given(q, "root-hash-signature") && !dump)
			return ht_fail(err, EINVAL,
				       "%s: an Android image carries its own "
				       "signatures; --root-hash-signature "
				       "does not apply",
				       image);
		if ((r = block_devices(q, t, err)))
			return r;
		t->one[0] = part;
		t->set = (struct fv_slot_request){
			.size = sizeof(t->set),
			.image = image,
			.container = q->open->container,
			.key = o->key,
			.slot = slot,
			.partitions = part ? t->one : NULL,
			.npartitions = part ? 1 : 0,
			.device_names = t->names,
			.device_files = t->files,
			.ndevices = t->n,
			.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW};
		return dump ? 0 : run(q, opts_of(q), &t->o, err);
	}
	/* chosen in a super image or a disk image: never passed over */
	if (slot || part)
		return chooses_nothing(image, slot, err);
	if (!strcmp(c, "sidecar"))
		return sidecar_takes(q, t, err);
	return (r = avb_refuses(q, image, err)) ? r : anchor(q, t, err);
}

/* verity_image_alone_runs' options, the anchor still in them. */
static int runs(const struct fv_show_request *q,
		const struct verity_alone_takes *t, const char *path,
		size_t pairs, fv_options *out, struct ht_error *err)
{
	const char *max = given(q, "max-failures");
	uint64_t v;
	int r;

	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	if (q->what == FV_SHOW_PAIR) /* a tree shown: nothing run */
		return 0;
	if (q->what == FV_SHOW_OPEN) { /* mapped with open's flags */
		if (t->super && (r = avb_refuses(q, path, err)))
			return r;
		out->flags = t->flags;
		return 0;
	}
	if (q->what == FV_SHOW_REPAIR && pairs > 1)
		return ht_fail(err, EINVAL,
			       "%s: several protected partitions: name one "
			       "with --partition=root|usr",
			       q->image);
	if ((r = run(q, t->from, out, err)))
		return r;
	if (q->what == FV_SHOW_REPAIR)
		out->repair = t->from->repair;
	else if (max && (r = verity_ops_number("max-failures", max, &v, err)))
		return r;
	return 0;
}

int verity_image_alone_runs(const struct fv_show_request *q,
			    const struct verity_alone_takes *t,
			    const char *path, size_t pairs, fv_options *run,
			    struct ht_error *err)
{
	fv_options all;
	int r = runs(q, t, path, pairs, &all, err);

	/* (the check or mapping runs on the open's verdict: no anchor) */
	if (!r)
		verity_image_alone_anchor(&all, NULL, run);
	return r;
}

/* A warning said through said. */
static void warn(fv_item_fn said, void *ctx, const char *text)
{
	if (said)
		said(ctx,
		     &(struct fv_item){.kind = FV_ITEM_WARNING, .text = text});
}

/* q's super image opened for metadata slot slot, its notes said. */
static int super_slot(const struct fv_show_request *q,
		      const struct verity_alone_takes *t, unsigned slot,
		      fv_item_fn said, void *ctx,
		      struct verity_android_super **s, struct ht_error *err)
{
	int r;

	if ((r = verity_android_super_open(q->image, t->names, t->files, t->n,
					   slot, s, err)))
		return r;
	for (size_t i = 0; i < (*s)->nnotes; i++)
		warn(said, ctx, (*s)->notes[i]);
	return 0;
}

static int partition_path(const struct fv_show_request *q,
			  struct verity_alone_takes *t, fv_item_fn said,
			  void *ctx, char **path, struct ht_error *err)
{
	const char *part = given(q, "partition"), *slot = given(q, "slot");
	const char *name, *at = slot ? slot : "a";
	struct verity_android_super *s = NULL;
	char shown[1028], text[2048];
	int r, i;

	*path = NULL;
	if ((r = slot_named(slot, err)) || (r = block_devices(q, t, err)) ||
	    (r = super_slot(q, t, 0, said, ctx, &s, err)))
		return r;
	if (slot && !strcmp(slot, "b")) {
		unsigned slots = s->s.m.slots;

		verity_android_super_close(s);
		s = NULL;
		if (slots < 2)
			return ht_fail(
				err, EINVAL,
				"%s: metadata of 1 slot: no slot b (slot "
				"b is metadata slot 1)",
				q->image);
		if ((r = super_slot(q, t, 1, said, ctx, &s, err)))
			return r;
	}
	if ((i = verity_android_super_find(s, part, NULL)) < 0) {
		r = ht_fail(err, ENOENT,
			    "%s: no logical partition %s in slot %s", q->image,
			    part, at);
		goto out;
	}
	/* the partition the device booting the slot maps: NAME_<slot> on
	 * an A/B image (said when it is not the name given) */
	name = s->s.m.p[i].name;
	ht_name_shown(name, strlen(name), shown, sizeof(shown));
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		r = ht_fail(err, EINVAL,
			    "%s: partition %s cannot be named as a path",
			    q->image, shown);
	else if (!(*path = malloc(strlen(q->image) + strlen(name) + 2)))
		r = ht_fail(err, ENOMEM, "out of memory");
	else {
		sprintf(*path, "%s/%s", q->image, name);
		if (strcmp(name, part)) {
			snprintf(text, sizeof(text),
				 "%s: %s is partition %s (slot %s)", q->image,
				 part, shown, at);
			warn(said, ctx, text);
		}
	}
out:
	verity_android_super_close(s);
	return r;
}

int verity_image_alone_partition(const struct fv_show_request *q,
				 struct verity_alone_takes *t, fv_item_fn said,
				 void *ctx,
				 const struct verity_alone_again *again,
				 struct ht_error *err)
{
	const struct fv_open_request *rq = q->open;
	struct fv_open_request in_rq = {.size = sizeof(in_rq)};
	struct fv_show_request in = *q;
	const char **kv = NULL;
	char *path = NULL;
	int r = partition_path(q, t, said, ctx, &path, err);

	if (r)
		goto out;
	/* walked as the image its path names: without --partition, --slot
	 * or --container, the open request's action and words kept */
	if (!(kv = calloc(2 * q->noptions + 1, sizeof(*kv)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < q->noptions; i++) {
		const char *name = q->options[2 * i];

		kv[2 * i] = name;
		kv[2 * i + 1] =
			strcmp(name, "partition") && strcmp(name, "slot")
				? q->options[2 * i + 1]
				: NULL;
	}
	if (rq) {
		in_rq.action = rq->action;
		in_rq.said = rq->said;
		in_rq.ctx = rq->ctx;
	}
	in.image = path;
	in.options = kv;
	in.open = &in_rq;
	*again->walked = again->walk(&in, again->sh);
	/* (what helps after its error said by its own walk) */
	t->said = 0;
out:
	free(kv);
	free(path);
	return r;
}

void verity_image_alone_takes_free(struct verity_alone_takes *t)
{
	for (size_t i = 0; t->names && i < t->n; i++)
		free((char *)t->names[i]);
	free(t->names);
	free(t->files);
	t->names = t->files = NULL;
	verity_sidecar_free(&t->side);
}
