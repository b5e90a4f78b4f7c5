#include "verity/container/sidecar.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int verity_sidecar_names(const char *image, struct verity_sidecar *s,
			 struct ht_error *err)
{
	size_t n = strlen(image);
	int b;

	memset(s, 0, sizeof(*s));
	if (n > 4 && !strcmp(image + n - 4, ".raw"))
		n -= 4;
	b = (int)(n > INT_MAX ? INT_MAX : n);
	if (asprintf(&s->tree, "%.*s.verity", b, image) < 0 ||
	    asprintf(&s->roothash, "%.*s.roothash", b, image) < 0 ||
	    asprintf(&s->signature, "%.*s.roothash.p7s", b, image) < 0 ||
	    asprintf(&s->fec, "%.*s.fec", b, image) < 0) {
		verity_sidecar_free(s);
		return ht_fail(err, ENOMEM, "%s: out of memory", image);
	}
	return 0;
}

void verity_sidecar_free(struct verity_sidecar *s)
{
	free(s->tree);
	free(s->roothash);
	free(s->signature);
	free(s->fec);
	memset(s, 0, sizeof(*s));
}

void verity_sidecar_pair(const struct verity_sidecar *s, const char *image,
			 struct verity_pair *pair, const char **signature_path)
{
	pair->data.path = image;
	if (!pair->hash.path)
		pair->hash.path = s->tree;
	if (!pair->fec.region.path && access(s->fec, F_OK) == 0)
		pair->fec.region.path = s->fec;
	if (!*signature_path && access(s->signature, F_OK) == 0)
		*signature_path = s->signature;
}

static int prune(const char *path, unsigned bit, unsigned *removed,
		 struct ht_error *err)
{
	if (unlink(path) == 0) {
		*removed |= bit;
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return ht_fail(err, EIO,
		       "%s: cannot remove this sidecar of an earlier format, "
		       "which no longer matches: %s",
		       path, strerror(errno));
}

int verity_sidecar_prune(const struct verity_sidecar *s,
			 const struct verity_pair *pair, int keep_signature,
			 unsigned *removed, struct ht_error *err)
{
	int r = 0;

	*removed = 0;
	if (!keep_signature)
		r = prune(s->signature, VERITY_SIDECAR_SIGNATURE, removed, err);
	if (!r && !pair->fec.region.path)
		r = prune(s->fec, VERITY_SIDECAR_FEC, removed, err);
	return r;
}
