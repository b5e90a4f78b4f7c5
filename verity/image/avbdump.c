/* dump of an Android image given alone (verity/image/avbdump.h;
 * docs/android.md): the pair its hashtree descriptor makes, shown as
 * every pair's dump shows it, then what the descriptor and the vbmeta
 * say; a hash footer's descriptor where there is no tree. */
#include "verity/image/avbdump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/android.h"
#include "verity/ops/ops.h"
#include "verity/show/pair.h"
#include "verity/tree/params.h"

/* A name as the text shows it (odd bytes \xNN): lasts the statement. */
#define NAME(p, n) ht_name_shown((p), (n), (char[4 * 256 + 8]){0}, 4 * 256 + 8)

static const char *algorithm_of(const struct verity_android *a)
{
	const struct verity_scheme *s =
		verity_avb_algorithm(a->img.vbmeta.h.algorithm);

	return s ? s->name : "";
}

/* The vbmeta's line: its signature's algorithm and key, rollback
 * index, release. */
static void vbmeta_text(FILE *f, const struct verity_android *a)
{
	const struct avb_header *h = &a->img.vbmeta.h;

	fprintf(f,
		"Vbmeta:          \t%s%s%s, rollback index %" PRIu64
		", release '%s'\n",
		algorithm_of(a), a->key_sha1[0] ? ", key sha1 " : "",
		a->key_sha1, h->rollback_index, h->release);
}

static void vbmeta_json(struct show *sh, const struct verity_android *a)
{
	verity_show_str(sh, "algorithm", algorithm_of(a));
	verity_show_str(sh, "public_key_sha1",
			a->key_sha1[0] ? a->key_sha1 : NULL);
	verity_show_u64(sh, "rollback_index", a->img.vbmeta.h.rollback_index);
	verity_show_str(sh, "release_string", a->img.vbmeta.h.release);
}

/* The pair's dump, then the descriptor's and the vbmeta's. */
static int tree_dump(struct show *sh, FILE *f, const char *image,
		     const struct verity_android *a, struct ht_error *err)
{
	const struct avb_hashtree_desc *t = &a->ht->hashtree;
	struct verity_pair vp = a->pair;
	struct verity_outcome out;
	const int usable = a->pair.fec.region.path != NULL;
	int r;

	if ((r = verity_op_dump(&vp, 0, &out, err)))
		return r;
	if (sh->json) {
		verity_show_object(sh, NULL);
		verity_show_pair_of(sh, image, &vp.params, &out.layout, "-",
				    a->root_hex);
		verity_show_object(sh, "android");
		verity_show_str(sh, "partition_name", a->name);
		verity_show_u64(sh, "image_size", t->p.image_size);
		verity_show_u64(sh, "tree_offset", t->tree_offset);
		verity_show_u64(sh, "tree_size", t->tree_size);
		verity_show_u64(sh, "fec_num_roots", t->fec_num_roots);
		verity_show_u64(sh, "fec_offset", t->fec_offset);
		verity_show_u64(sh, "fec_size", t->fec_size);
		verity_show_bool(sh, "fec_usable_by_kernel", usable);
		vbmeta_json(sh, a);
		verity_show_end(sh);
		verity_show_end(sh);
		return 0;
	}
	verity_show_pair_of(sh, image, &vp.params, &out.layout, "-",
			    a->root_hex);
	fprintf(f,
		"Android image:   \tpartition %s, data %" PRIu64
		" bytes, tree at %" PRIu64 " (%" PRIu64 " bytes)\n",
		NAME(a->name, strlen(a->name)), t->p.image_size, t->tree_offset,
		t->tree_size);
	if (t->fec_num_roots)
		fprintf(f,
			"Android parity:  \t%u roots at %" PRIu64 " (%" PRIu64
			" bytes)%s\n",
			t->fec_num_roots, t->fec_offset, t->fec_size,
			usable ? ""
			       : ", 4096-byte blocks the kernel cannot use");
	vbmeta_text(f, a);
	return 0;
}

/* An image with a hash footer: its hash descriptor (no tree to show),
 * and the vbmeta. */
static int hash_dump(struct show *sh, FILE *f, const char *image,
		     const struct verity_android *a, struct ht_error *err)
{
	const struct avb_descriptor *d = NULL;
	const struct avb_digest_part *h;
	char hex[2 * 64 + 1] = "";

	for (size_t i = 0; !d && i < a->img.vbmeta.ndesc; i++)
		if (a->img.vbmeta.desc[i].tag == AVB_TAG_HASH)
			d = &a->img.vbmeta.desc[i];
	if (!d)
		return ht_fail(err, EINVAL,
			       "%s: the vbmeta has neither a hashtree nor a "
			       "hash descriptor",
			       image);
	h = &d->hash.p;
	verity_hex_encode(h->digest, h->digest_len < 64 ? h->digest_len : 64,
			  hex);
	if (sh->json) {
		verity_show_object(sh, NULL);
		verity_show_str(sh, "image", image);
		verity_show_str(sh, "container", "avb");
		verity_show_array(sh, "partitions");
		verity_show_object(sh, NULL);
		verity_show_str(sh, "name", NAME(h->name, h->name_len));
		verity_show_str(sh, "descriptor", "hash");
		verity_show_str(sh, "path", image);
		verity_show_object(sh, "android");
		verity_show_str(sh, "partition_name",
				NAME(h->name, h->name_len));
		verity_show_u64(sh, "image_size", h->image_size);
		verity_show_str(sh, "hash_algorithm", h->hash_algorithm);
		verity_show_str(sh, "digest", hex);
		vbmeta_json(sh, a);
		for (int k = 0; k < 4; k++)
			verity_show_end(sh);
		return 0;
	}
	fprintf(f,
		"Android image:   \tpartition %s, data %" PRIu64
		" bytes, hash footer: %s digest %s\n",
		NAME(h->name, h->name_len), h->image_size, h->hash_algorithm,
		hex[0] ? hex : "(persistent)");
	vbmeta_text(f, a);
	return 0;
}

int verity_image_avb_dump(const struct fv_show_request *q, struct show *sh,
			  struct ht_error *err)
{
	struct verity_android *a;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int r;

	if ((r = verity_android_read(q->image, NULL, 1, &a, err)))
		return r;
	if (!sh->json && !(f = open_memstream(&buf, &len))) {
		verity_android_free(a);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	if (a->img.has_footer && !a->ht)
		r = hash_dump(sh, f, q->image, a, err);
	else if (!a->paired)
		r = a->img.has_footer ? verity_android_unpaired(a, err)
				      : ht_fail(err, EINVAL,
						"%s: a vbmeta image (no "
						"footer): no pair to dump",
						q->image);
	else
		r = tree_dump(sh, f, q->image, a, err);
	if (f && r) {
		fclose(f);
		free(buf);
	} else if (f) {
		r = verity_show_stream(sh, f, &buf);
	}
	verity_android_free(a);
	return r ? r : sh->r;
}
