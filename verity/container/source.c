/* Images' paths opened, and pairs' regions read through sources
 * (verity/container/source.h). */
#include "verity/container/source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/super/super.h"
#include "verity/tree/pair.h"

int verity_container_open(struct verity_device *d, const char *path,
			  int *sparse, struct ht_error *err)
{
	struct verity_extents *x = NULL;
	int r;

	if (sparse)
		*sparse = 0;
	/* a logical partition named through its super image */
	{
		const char *file;

		r = verity_super_open_path(path, &x, &file, err);
		if (r <= 0) {
			if (r)
				return r;
			if ((r = verity_device_open(d, file, VERITY_OPEN_READ,
						    err))) {
				verity_extents_free(x);
				free(x);
				return r;
			}
			d->path = path;
			return verity_device_take_source(d, x, err);
		}
	}
	return verity_sparse_open(d, path, sparse, err);
}

int verity_container_region_source(struct verity_region *r,
				   struct verity_sources *s,
				   struct ht_error *err)
{
	struct verity_device d;
	struct verity_sparse *sp;
	int ret;

	if (!r->path || r->extents)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->path[i], r->path)) {
			r->extents = s->part[i] ? s->part[i] : &s->sparse[i].x;
			return 0;
		}
	/* a logical partition named through its super image */
	if (s->n < VERITY_SOURCES_MAX) {
		struct verity_extents *x = NULL;
		const char *file;

		ret = verity_super_open_path(r->path, &x, &file, err);
		if (ret <= 0) {
			if (ret)
				return ret;
			x->path = file;
			s->part[s->n] = x;
			s->path[s->n++] = r->path;
			r->extents = x;
			return 0;
		}
	}
	/* a file that cannot be opened is left to the operation's own
	 * open, whose message is the one the user expects */
	if (verity_device_open(&d, r->path, VERITY_OPEN_READ, NULL))
		return 0;
	if (!verity_sparse_magic(&d) || s->n == VERITY_SOURCES_MAX) {
		verity_device_close(&d);
		return 0;
	}
	sp = &s->sparse[s->n];
	ret = verity_sparse_read(&d, r->path, sp, err);
	verity_device_close(&d);
	if (ret)
		return ret;
	s->path[s->n++] = r->path;
	r->extents = &sp->x;
	return 0;
}

int verity_container_as_is(const struct verity_pair *pair)
{
	return pair->container == VERITY_CONTAINER_SIDECAR;
}

int verity_container_sources(struct verity_pair *pair, struct verity_sources *s,
			     struct ht_error *err)
{
	int r;

	memset(s, 0, sizeof(*s));
	if (verity_container_as_is(pair))
		return 0;
	if ((r = verity_container_region_source(&pair->data, s, err)) ||
	    (r = verity_container_region_source(&pair->hash, s, err)) ||
	    (r = verity_container_region_source(&pair->fec.region, s, err)))
		verity_container_sources_end(pair, s);
	return r;
}

void verity_container_sources_end(struct verity_pair *pair,
				  struct verity_sources *s)
{
	pair->data.extents = pair->hash.extents = pair->fec.region.extents =
		NULL;
	for (size_t i = 0; i < s->n; i++) {
		if (s->part[i]) {
			verity_extents_free(s->part[i]);
			free(s->part[i]);
			s->part[i] = NULL;
		} else {
			verity_sparse_free(&s->sparse[i]);
		}
	}
	s->n = 0;
}

int verity_container_has_sources(const struct verity_pair *pair)
{
	return pair->data.extents || pair->hash.extents ||
	       pair->fec.region.extents;
}
