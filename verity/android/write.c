/* What avbtool's writers need besides the container's writing
 * (verity/android/write.h). */
#include "verity/android/write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hashtree/hasher.h"
#include "verity/sign/scheme.h"
#include "verity/storage/output.h"
#include "verity/tree/params.h"

int verity_android_required_minor(const struct avb_vbmeta_opts *vb,
				  const struct avb_footer_opts *footer,
				  unsigned *minor, struct ht_error *err)
{
	int r = 0;

	*minor = footer && (footer->descriptor_flags ||
			    footer->persistent_digest)
			 ? 1
			 : 0;
	if (vb->rollback_index_location)
		*minor = 2;
	for (size_t i = 0; i < vb->nchains; i++)
		if (vb->chains[i].flags)
			*minor = 3;
	/* a vbmeta image's included images count too */
	for (size_t i = 0; !footer && !r && i < vb->nincludes; i++) {
		struct avb_image img;

		if ((r = verity_avb_image_read(vb->includes[i], &img, err)))
			break;
		if (img.vbmeta.h.required_minor > *minor)
			*minor = img.vbmeta.h.required_minor;
		verity_avb_image_free(&img);
	}
	return r;
}

int verity_android_key_generate(const char *algorithm, const char *output,
				struct ht_error *err)
{
	const struct verity_scheme *s;
	struct stat st;
	char *pem = NULL;
	size_t len = 0;
	int alg, r;

	alg = verity_avb_algorithm_by_name(algorithm);
	s = alg < 0 ? NULL : verity_avb_algorithm((unsigned)alg);
	if (!s || s->kind != VERITY_SCHEME_MLDSA)
		return ht_fail(err, EINVAL,
			       "%s: keys are made here for MLDSA65 and MLDSA87 "
			       "only (an RSA key: openssl genpkey -algorithm "
			       "RSA -pkeyopt rsa_keygen_bits:4096 -out "
			       "KEY.pem)",
			       algorithm);
	/* a private key never replaces a file, which may be readable by
	 * others */
	if (lstat(output, &st) == 0)
		return ht_fail(err, EEXIST,
			       "%s: exists: a new private key is not written "
			       "over a file",
			       output);
	if ((r = verity_mldsa_generate_pem(s->level, &pem, &len, err)))
		return r;
	r = verity_write_file_mode(output, "private key file", pem, len, 0600,
				   err);
	explicit_bzero(pem, len);
	free(pem);
	return r;
}

int verity_android_key_digest(const char *path, char hex[65],
			      struct ht_error *err)
{
	uint8_t *blob = NULL, d[HT_MAX_DIGEST_SIZE];
	size_t len = 0, dlen = 0;
	int r;

	hex[0] = '\0';
	if ((r = verity_sigkey_file_blob(path, &blob, &len, err)))
		return r;
	r = ht_digest_parts("sha256", 1, (const void *const[]){blob}, &len, d,
			    &dlen, err);
	free(blob);
	if (r)
		return r;
	verity_hex_encode(d, dlen, hex);
	return 0;
}

int verity_android_key(const struct fv_avb_key_request *q, uint8_t **out,
		       size_t *len, struct ht_error *err)
{
	char hex[65];
	int r;

	if (q->op == FV_AVB_KEY_GENERATE) {
		if (q->key || out || len)
			return ht_fail(err, EINVAL,
				       "fv_avb_key: generate takes algorithm "
				       "and output alone");
		return verity_android_key_generate(q->algorithm, q->output,
						   err);
	}
	if (q->op != FV_AVB_KEY_BLOB && q->op != FV_AVB_KEY_DIGEST)
		return ht_fail(err, EINVAL, "fv_avb_key: unknown op %d",
			       (int)q->op);
	*out = NULL;
	*len = 0;
	if (q->algorithm || q->output)
		return ht_fail(err, EINVAL,
			       "fv_avb_key: %s takes the key alone",
			       q->op == FV_AVB_KEY_BLOB ? "blob" : "digest");
	if (q->op == FV_AVB_KEY_BLOB)
		return verity_sigkey_file_blob(q->key, out, len, err);
	if ((r = verity_android_key_digest(q->key, hex, err)))
		return r;
	if (!(*out = (uint8_t *)strdup(hex)))
		return ht_fail(err, ENOMEM, "out of memory");
	*len = strlen(hex);
	return 0;
}
