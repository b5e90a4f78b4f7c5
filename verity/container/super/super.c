/* Android super images opened, and logical partitions as extents
 * (verity/container/super/super.h). */
#include "verity/container/super/super.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verity/container/sparse/sparse.h"
#include "verity/storage/backing.h"
#include "verity/storage/output.h"

/* <dir of path>/<name>.img */
static char *beside(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	size_t len = (size_t)dir + strlen(name) + 5;
	char *out = malloc(len);

	if (out)
		snprintf(out, len, "%.*s%s.img", dir, path, name);
	return out;
}

/* Block device k's file: given, or beside the image. */
static int other_open(struct verity_super *s, uint32_t k,
		      const char *const *names, const char *const *files,
		      size_t n, struct ht_error *err)
{
	const struct lp_block_device *b = &s->m.b[k];
	struct verity_device *d = &s->other[k - 1];
	const char *given = NULL;
	struct stat st;
	char *path;
	int r;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], b->name))
			given = files[i];
	path = given ? strdup(given) : beside(s->path, b->name);
	if (!path)
		return ht_fail(err, ENOMEM, "out of memory");
	s->other_path[k - 1] = path;
	if (!given && stat(path, &st) != 0)
		return ht_fail(err, ENODEV,
			       "%s: a split super image: the image of block "
			       "device %u (%s) is missing: none given, and no "
			       "%s beside it",
			       s->path, k, b->name, path);
	if ((r = verity_sparse_open(d, path, NULL, err)))
		return r;
	if (d->size < b->size)
		return ht_fail(err, EINVAL,
			       "%s: block device %u (%s) is %llu bytes, %s "
			       "holds %llu",
			       s->path, k, b->name, (unsigned long long)b->size,
			       path, (unsigned long long)d->size);
	return 0;
}

int verity_super_open(struct verity_super *s, const char *path,
		      const char *const *names, const char *const *files,
		      size_t n, uint32_t slot, struct ht_error *err)
{
	int r;

	memset(s, 0, sizeof(*s));
	s->d.fd = -1;
	if (!(s->path = strdup(path)))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = verity_sparse_open(&s->d, path, &s->sparse, err)))
		goto fail;
	s->d.path = s->path;
	if (!verity_lp_probe(&s->d)) {
		r = ht_fail(err, EINVAL,
			    "%s: not a super image: no geometry magic at byte "
			    "%u or %u",
			    path, LP_RESERVED, LP_RESERVED + LP_GEOMETRY_AREA);
		goto fail;
	}
	if ((r = verity_lp_read(&s->d, s->path, slot, &s->m, err)))
		goto fail;
	/* every slot is checked: one that reads in neither copy is a
	 * damaged image, whichever slot is asked for */
	if (!(s->slot_notes = calloc(s->m.slots, sizeof(*s->slot_notes)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < s->m.slots; i++) {
		struct lp_metadata o;

		if (i == slot)
			continue;
		if ((r = verity_lp_read(&s->d, s->path, i, &o, err)))
			goto fail;
		if (o.note[1][0])
			memcpy(s->slot_notes[s->nslot_notes++], o.note[1],
			       sizeof(o.note[1]));
		verity_lp_free(&o);
	}
	s->nother = s->m.nb - 1;
	if (s->nother &&
	    (!(s->other = calloc(s->nother, sizeof(*s->other))) ||
	     !(s->files = calloc(s->nother, sizeof(*s->files))) ||
	     !(s->other_path = calloc(s->nother, sizeof(*s->other_path))))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (uint32_t k = 0; k < s->nother; k++)
		s->other[k].fd = -1;
	for (uint32_t k = 1; k < s->m.nb; k++) {
		if ((r = other_open(s, k, names, files, n, err)))
			goto fail;
		s->files[k - 1] = &s->other[k - 1];
	}
	return 0;
fail:
	verity_super_close(s);
	return r;
}

void verity_super_close(struct verity_super *s)
{
	for (uint32_t k = 0; s->other && k < s->nother; k++)
		verity_device_close(&s->other[k]);
	for (uint32_t k = 0; s->other_path && k < s->nother; k++)
		free(s->other_path[k]);
	free(s->other);
	free(s->files);
	free(s->other_path);
	free(s->slot_notes);
	verity_lp_free(&s->m);
	if (s->d.fd >= 0)
		verity_device_close(&s->d);
	free(s->path);
	memset(s, 0, sizeof(*s));
	s->d.fd = -1;
}

int verity_super_extents(const struct verity_super *s, uint32_t i,
			 struct verity_extents *x, struct ht_error *err)
{
	const struct lp_partition *p = &s->m.p[i];
	int r = 0;

	memset(x, 0, sizeof(*x));
	x->unit = s->sparse ? "sparse chunk" : "extent";
	x->files = s->files;
	x->nfiles = s->nother;
	for (uint32_t k = 0; !r && k < p->num_extents; k++) {
		const struct lp_extent *e = &s->m.e[p->first_extent + k];
		uint64_t len = e->sectors * LP_SECTOR;

		if (e->type == LP_TARGET_ZERO)
			r = verity_extents_add(x, VERITY_EXTENT_ZERO, len, 0, 0,
					       k + 1, err);
		else if (!e->source)
			r = verity_extents_add_from(x, s->d.src, 0,
						    e->target * LP_SECTOR, len,
						    k + 1, err);
		else
			r = verity_extents_add_from(
				x, s->other[e->source - 1].src, e->source,
				e->target * LP_SECTOR, len, k + 1, err);
	}
	if (r)
		verity_extents_free(x);
	return r;
}

int verity_super_split_path(const char *path, char **image, const char **name)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	char *img;

	if (!slash || slash == path || !slash[1] ||
	    !verity_lp_name_ok(slash + 1))
		return 0;
	/* a path that is a file is that file */
	if (stat(path, &st) == 0 || errno != ENOTDIR)
		return 0;
	if (!(img = strndup(path, (size_t)(slash - path))))
		return 0;
	if (stat(img, &st) != 0 ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
		free(img);
		return 0;
	}
	*image = img;
	*name = slash + 1;
	return 1;
}

static void release_super(void *owner)
{
	verity_super_close(owner);
	free(owner);
}

int verity_super_open_path(const char *path, struct verity_extents **x,
			   const char **file, struct ht_error *err)
{
	struct verity_super *s;
	const char *name;
	char *image;
	int r, i, slot;

	if (!verity_super_split_path(path, &image, &name))
		return 1;
	if (!(s = malloc(sizeof(*s))) || !(*x = calloc(1, sizeof(**x)))) {
		free(s);
		free(image);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	/* a name with a slot suffix is read from that slot's metadata, as
	 * the device booting the slot reads it (liblp: metadata slot N for
	 * suffix N); an image with one slot has only slot 0's */
	r = verity_super_open(s, image, NULL, NULL, 0, 0, err);
	if (!r && (slot = verity_lp_suffix_slot(name)) > 0 &&
	    (uint32_t)slot < s->m.slots) {
		verity_super_close(s);
		r = verity_super_open(s, image, NULL, NULL, 0, (uint32_t)slot,
				      err);
	}
	free(image);
	if (r) {
		free(s);
		free(*x);
		*x = NULL;
		return r;
	}
	if ((i = verity_lp_find(&s->m, name)) < 0)
		r = ht_fail(err, ENOENT,
			    "%s: the super image has no partition %s", path,
			    name);
	else if (!s->m.p[i].num_extents)
		r = ht_fail(err, ENODATA,
			    "%s: partition %s is empty (no extents)", path,
			    name);
	else
		r = verity_super_extents(s, (uint32_t)i, *x, err);
	if (r) {
		release_super(s);
		free(*x);
		*x = NULL;
		return r;
	}
	(*x)->release = release_super;
	(*x)->owner = s;
	*file = s->path;
	return 0;
}

int verity_super_pick(const struct lp_metadata *m, const char *name,
		      char *picked, size_t len)
{
	int i;

	if (verity_lp_suffix_slot(name) >= 0 || !verity_lp_ab(m)) {
		snprintf(picked, len, "%s", name);
		return (i = verity_lp_find(m, name)) < 0 ? -ENOENT : i;
	}
	snprintf(picked, len, "%s_%c", name, m->slot ? 'b' : 'a');
	return (i = verity_lp_find(m, picked)) < 0 ? -ENOENT : i;
}

char *verity_super_beside(const char *dir, const char *name, uint32_t slot)
{
	struct verity_super s;
	char image[4096], part[LP_NAME_MAX + 8], *out = NULL;
	size_t len;
	int i;

	if ((size_t)snprintf(
		    image, sizeof(image), "%s%ssuper.img", dir ? dir : "",
		    dir && strcmp(dir, "/") ? "/" : "") >= sizeof(image) ||
	    access(image, F_OK) != 0 ||
	    verity_super_open(&s, image, NULL, NULL, 0, 0, NULL))
		return NULL;
	/* the slot's own metadata (an image of one slot has only slot 0) */
	if (slot && slot < s.m.slots) {
		verity_super_close(&s);
		if (verity_super_open(&s, image, NULL, NULL, 0, slot, NULL))
			return NULL;
	}
	/* the partition the device maps: NAME_<slot> on an A/B image, never
	 * a partition NAME beside it */
	if ((i = verity_super_pick(&s.m, name, part, sizeof(part))) >= 0 &&
	    s.m.p[i].num_extents && verity_lp_name_ok(part)) {
		len = strlen(image) + strlen(part) + 2;
		if ((out = malloc(len)))
			snprintf(out, len, "%s/%s", image, part);
	}
	verity_super_close(&s);
	return out;
}

/* Zeros are skipped (the file's holes): the bytes read back are the
 * same, and an image of mostly free space costs little. */
static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

#define EXTRACT_CHUNK ((size_t)1 << 20)

/* Partition i of s copied whole into out: a temporary file (unnamed
 * until the commit) renamed over out once every byte is written and
 * flushed, so that an interrupted run leaves no part of it. */
static int extract_to(const struct verity_super *s, uint32_t i, const char *out,
		      struct ht_error *err)
{
	const uint64_t size = s->m.p[i].size;
	struct verity_extents x;
	struct verity_region whole = {s->path, 0, 0, &x};
	struct verity_device in, dev;
	uint8_t *buf = NULL;
	int r;

	memset(&dev, 0, sizeof(dev));
	dev.fd = -1;
	if ((r = verity_super_extents(s, i, &x, err)))
		return r;
	x.path = s->path;
	/* (an empty partition has no extents to read: an empty file) */
	if (size && (r = verity_device_open_region(&in, &whole,
						   VERITY_OPEN_READ, err))) {
		verity_extents_free(&x);
		return r;
	}
	if ((r = verity_device_open_output(&dev, out, "a partition image", 0644,
					   err)))
		goto out;
	if (!(buf = malloc(EXTRACT_CHUNK))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if (ftruncate(dev.fd, (off_t)size) < 0) {
		r = ht_fail(err, errno, "%s: cannot size it: %s", out,
			    strerror(errno));
		goto out;
	}
	for (uint64_t off = 0; off < size && !r;) {
		size_t n = size - off < EXTRACT_CHUNK ? (size_t)(size - off)
						      : EXTRACT_CHUNK;

		if (!(r = verity_device_read(&in, off, buf, n, err)) &&
		    !all_zero(buf, n))
			r = verity_device_write(&dev, off, buf, n, err);
		off += n;
	}
	if (!r)
		r = verity_device_commit(&dev, err);
out:
	free(buf);
	verity_device_close(&dev); /* uncommitted: removed */
	if (size)
		verity_device_close(&in);
	verity_extents_free(&x);
	return r;
}

int verity_super_extract(const char *image, uint64_t slot, const char *name,
			 const char *out, struct ht_error *err)
{
	struct verity_super s;
	int r, i;

	if (slot > LP_MAX_SLOTS)
		return ht_fail(err, EINVAL, "%s: metadata slot %llu", image,
			       (unsigned long long)slot);
	if ((r = verity_super_open(&s, image, NULL, NULL, 0, (uint32_t)slot,
				   err)))
		return r;
	if ((i = verity_lp_find(&s.m, name)) < 0) {
		r = ht_fail(err, ENOENT, "%s: no partition %s", image, name);
		goto out;
	}
	/* the image and its other block devices are read, never written
	 * over (a partition named as the image, unpacked beside it) */
	for (uint32_t k = 0; k <= s.nother; k++) {
		const char *in = k ? s.other_path[k - 1] : s.path;
		const char *how = verity_path_same_storage(out, in);

		if (how) {
			r = ht_fail(err, EINVAL,
				    "%s: is the input %s%s: an output "
				    "is never written over what is "
				    "read",
				    out, in, how);
			goto out;
		}
	}
	r = extract_to(&s, (uint32_t)i, out, err);
out:
	verity_super_close(&s);
	return r;
}
