/* An Android super image given to verify, dump or open (docs/android.md,
 * "Factory images and super.img"): its metadata read by the library's
 * fv_super, each logical partition that carries an AVB footer checked as
 * an Android image is, bad blocks named by partition and by their bytes
 * in the partition and in the super image; dump shows what lpdump
 * shows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/super.h"
#include "cli/text.h"

/* --block-device NAME=FILE split into names and files. */
int cli_block_devices(const struct cli_opts *o, const char ***names,
		      const char ***files)
{
	size_t n = o->nblock_devices;

	*names = calloc(n + 1, sizeof(**names));
	*files = calloc(n + 1, sizeof(**files));
	if (!*names || !*files)
		return cli_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(o->block_devices[i], '=');
		char *name;

		if (!eq || eq == o->block_devices[i] || !eq[1])
			return cli_error(-EINVAL,
					 "--block-device: '%s' is not "
					 "NAME=FILE",
					 o->block_devices[i]);
		if (!(name = strndup(o->block_devices[i],
				     (size_t)(eq - o->block_devices[i]))))
			return cli_error(-ENOMEM, "out of memory");
		(*names)[i] = name;
		(*files)[i] = eq + 1;
	}
	return 0;
}

void cli_block_devices_free(const struct cli_opts *o, const char **names,
			    const char **files)
{
	for (size_t i = 0; names && i < o->nblock_devices; i++)
		free((char *)names[i]);
	free(names);
	free(files);
}

/* The library's error of a super image's open: said (a split super's
 * other image missing: how to give it), the exit code. */
int cli_super_error(int r)
{
	int code = cli_lib_error(r);

	if (r == -ENODEV)
		fprintf(stderr,
			"fastverity: give it: --block-device NAME=FILE\n");
	return code;
}

/* The image opened for metadata slot slot (its notes said on stderr):
 * 0, or the exit code. */
static int open_slot(const struct cli_opts *o, const char *image, unsigned slot,
		     fv_super **s)
{
	struct fv_super_info in = {.size = sizeof(in)};
	struct fv_super_entry e = {.size = sizeof(e)};
	const char **names = NULL, **files = NULL;
	int r;

	if (!(r = cli_block_devices(o, &names, &files)) &&
	    (r = fv_super_open(image, names, files, o->nblock_devices, slot,
			       s)))
		r = cli_super_error(r);
	cli_block_devices_free(o, names, files);
	if (r)
		return r;
	fv_super_info(*s, &in);
	for (size_t i = 0; i < in.notes; i++)
		if (!fv_super_entry(*s, FV_SUPER_NOTE, i, &e))
			fprintf(stderr, "fastverity: warning: %s\n", e.note);
	return 0;
}

/* --partition's logical partition of image for --slot's metadata slot
 * (a: 0, b: 1, read after slot 0 as the device booting it does; none:
 * 0), NAME_<slot> on an A/B image: 0, *s, *p and its index *i, or the
 * exit code, said. */
static int partition_of(const struct cli_opts *o, const char *image,
			fv_super **s, struct fv_super_entry *p, int *i)
{
	struct fv_super_info in = {.size = sizeof(in)};
	int r;

	if (o->slot && strcmp(o->slot, "a") && strcmp(o->slot, "b"))
		return cli_error(-EINVAL, "--slot: '%s' is not a or b",
				 o->slot);
	if ((r = open_slot(o, image, 0, s)))
		return r;
	if (o->slot && !strcmp(o->slot, "b")) {
		fv_super_info(*s, &in);
		fv_super_free(*s);
		*s = NULL;
		if (in.metadata_slot_count < 2)
			return cli_error(-EINVAL,
					 "%s: metadata of 1 slot: no slot b "
					 "(slot b is metadata slot 1)",
					 image);
		if ((r = open_slot(o, image, 1, s)))
			return r;
	}
	p->size = sizeof(*p);
	if ((*i = fv_super_find(*s, o->partition, NULL)) >= 0 &&
	    !fv_super_entry(*s, FV_SUPER_PARTITION, (size_t)*i, p))
		return 0;
	r = cli_error(-ENOENT, "%s: no logical partition %s in slot %s", image,
		      o->partition, o->slot ? o->slot : "a");
	fv_super_free(*s);
	return r;
}

int cli_super_on_partition(struct cli_opts *o, int (*action)(struct cli_opts *))
{
	const char *image = o->args[0], *name;
	char *partition = o->partition, *slot = o->slot,
	     *container = o->container, *path = NULL;
	struct fv_super_entry p;
	fv_super *s;
	int r, i;

	if ((r = partition_of(o, image, &s, &p, &i)))
		return r;
	/* the partition the device booting the slot maps: NAME_<slot> on
	 * an A/B image (said when it is not the name given) */
	name = p.partition.name;
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		r = cli_error(-EINVAL,
			      "%s: partition %s cannot be named as a path",
			      image, CLI_NAME(name, strlen(name)));
	else if (asprintf(&path, "%s/%s", image, name) < 0)
		r = cli_error(-ENOMEM, "out of memory");
	else if (strcmp(name, o->partition))
		fprintf(stderr,
			"fastverity: warning: %s: %s is partition %s (slot "
			"%s)\n",
			image, o->partition, CLI_NAME(name, strlen(name)),
			o->slot ? o->slot : "a");
	fv_super_free(s);
	if (r)
		return r;
	/* the partition as a path through the image: read as any image
	 * (its slot's metadata, the slot suffix's), written only inside
	 * its extents */
	o->args[0] = path;
	o->partition = NULL;
	o->slot = NULL;
	o->container = NULL;
	r = action(o);
	o->args[0] = image;
	o->partition = partition;
	o->slot = slot;
	o->container = container;
	free(path);
	return r;
}
