/* The registry (verity/registry/registry.h): what an image is. */
#include "verity/registry/registry.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "verity/container/avb/image.h"
#include "verity/container/source.h"
#include "verity/container/ddi/ddi.h"
#include "verity/container/ota/ota.h"
#include "verity/container/sidecar.h"
#include "verity/container/super/super.h"
#include "verity/storage/device.h"
#include "verity/tree/pair.h"

/* 1 when IMAGE.verity is there: the image has systemd's sidecar tree. */
static int sidecar_probe(const char *image)
{
	struct verity_sidecar s;
	struct stat st;
	int yes;

	if (verity_sidecar_names(image, &s, NULL))
		return 0;
	yes = stat(s.tree, &st) == 0;
	verity_sidecar_free(&s);
	return yes;
}

/* An Android image: a footer at the end, or a bare vbmeta image (as
 * make_vbmeta_image writes it) at the start; of a sparse image, in its
 * unsparsed bytes. */
static int avb_probe(const char *image)
{
	struct verity_device d;
	int yes;

	if (verity_container_open(&d, image, NULL, NULL))
		return 0;
	yes = verity_avb_device_probe(&d);
	verity_device_close(&d);
	return yes;
}

/* An Android super image: liblp's geometry (either copy) in its
 * unsparsed bytes. */
static int super_probe(const char *image)
{
	struct verity_device d;
	int yes;

	if (verity_container_open(&d, image, NULL, NULL))
		return 0;
	yes = verity_lp_probe(&d);
	verity_device_close(&d);
	return yes;
}

/* One row a container, in the order they are tried. */
static int sparse_probe(const char *image)
{
	struct verity_device d;
	int yes;

	if (verity_device_open(&d, image, VERITY_OPEN_READ, NULL))
		return 0;
	yes = verity_sparse_magic(&d);
	verity_device_close(&d);
	return yes;
}

static const struct row {
	enum verity_container kind;
	int (*probe)(const char *image);
	const char *not_one; /* when asked for and not there */
} rows[] = {
	{VERITY_CONTAINER_SPARSE, sparse_probe, NULL},
	{VERITY_CONTAINER_SUPER, super_probe,
	 "not an Android super image: no geometry at byte 4096 or 8192"},
	{VERITY_CONTAINER_AVB, avb_probe,
	 "not an Android image: no AVB footer in its last 64 bytes and no "
	 "vbmeta at byte 0"},
	{VERITY_CONTAINER_DDI, verity_ddi_probe,
	 "not a systemd disk image: no GPT header at sector 1 (of 512 or "
	 "4096 bytes)"},
	{VERITY_CONTAINER_OTA, verity_ota_probe_path,
	 "not an Android OTA package: no payload magic (CrAU) at byte 0 and "
	 "no zip holding payload.bin"},
	{VERITY_CONTAINER_SIDECAR, sidecar_probe,
	 "no sidecar tree beside it (IMAGE.verity)"},
	{VERITY_CONTAINER_PLAIN, NULL, NULL},
};

static const struct row *row_of(enum verity_container c)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].kind == c)
			return &rows[i];
	return NULL;
}

int verity_container_identify(const char *image, enum verity_container asked,
			      enum verity_container *kind, struct ht_error *err)
{
	enum verity_container found[2];
	struct verity_device d;
	size_t nfound = 0;
	int r;

	int sparse;

	/* sidecar files take the image's own bytes, as veritysetup, systemd
	 * and the kernel do: what they hold (a sparse image's chunk list
	 * included) is never read as anything else */
	if (asked == VERITY_CONTAINER_SIDECAR) {
		if ((r = verity_device_open(&d, image, VERITY_OPEN_READ, err)))
			return r;
		verity_device_close(&d);
		if (!sidecar_probe(image))
			return ht_fail(err, EINVAL, "%s: %s", image,
				       row_of(asked)->not_one);
		*kind = asked;
		return 0;
	}
	/* an image that cannot be opened says why, whatever it would be;
	 * a sparse image's chunk list is read whole (a bad one refused,
	 * naming the chunk, unless sidecar files are asked for): its
	 * unsparsed bytes are then the image */
	if ((r = verity_container_open(&d, image, &sparse, err)))
		return r;
	verity_device_close(&d);
	if (asked == VERITY_CONTAINER_SPARSE)
		return ht_fail(err, EINVAL,
			       "%s: a sparse image holds another container: "
			       "name that one (avb)",
			       image);
	if (asked == VERITY_CONTAINER_PLAIN)
		return ht_fail(err, EINVAL,
			       "%s: a plain pair is a data and a hash device, "
			       "not one image",
			       image);
	if (asked != VERITY_CONTAINER_AUTO) {
		const struct row *w = row_of(asked);

		if (!w || !w->probe)
			return ht_fail(err, EINVAL, "no such container");
		/* an OTA package asked for is read as one: its reader names
		 * the field that is wrong with one that is not */
		if (asked != VERITY_CONTAINER_OTA && !w->probe(image))
			return ht_fail(err, EINVAL, "%s: %s", image,
				       w->not_one);
		*kind = asked;
		return 0;
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		/* sparse images hold Android images (or sidecar data) */
		if (rows[i].kind == VERITY_CONTAINER_SPARSE || !rows[i].probe ||
		    (sparse && (rows[i].kind == VERITY_CONTAINER_DDI ||
				rows[i].kind == VERITY_CONTAINER_OTA)) ||
		    !rows[i].probe(image))
			continue;
		if (nfound == 2)
			break;
		found[nfound++] = rows[i].kind;
	}
	if (nfound == 2) {
		char fix[64];

		/* %0: the container's name, as the caller spells it */
		snprintf(fix, sizeof(fix), "name one: %%0=%s or %%0=%s",
			 verity_container_name(found[0]),
			 verity_container_name(found[1]));
		return ht_fail_fix(
			err, EINVAL, HT_PARAM_CONTAINER, found[0], found[1],
			fix,
			"%s: reads two ways, as %s and as %s, which are "
			"checked differently",
			image, verity_container_words(found[0]),
			verity_container_words(found[1]));
	}
	if (!nfound) {
		char *super;
		const char *name;

		/* a logical partition named through its super image
		 * (IMAGE/NAME) has no files beside it: nothing here */
		if (verity_super_split_path(image, &super, &name)) {
			free(super);
			return ht_fail(
				err, ENODEV,
				"%s: a logical partition holding nothing "
				"fastverity knows alone (no AVB footer "
				"or vbmeta); no sidecar files lie "
				"beside it",
				image);
		}
	}
	*kind = nfound ? found[0] : VERITY_CONTAINER_SIDECAR;
	return 0;
}

int verity_container_refuse_sparse(const char *path, struct ht_error *err)
{
	if (!path || !verity_avb_sparse_probe(path))
		return 0;
	return ht_fail(err, EINVAL,
		       "%s: an Android sparse image, not raw data: make a raw "
		       "image first (simg2img %s IMAGE.raw)",
		       path, path);
}

int verity_container_named(const char *image, const char *asked,
			   const char **name, struct ht_error *err)
{
	enum verity_container kind;
	int want = VERITY_CONTAINER_AUTO, r;

	if (asked && ((want = verity_container_by_name(asked)) < 0 ||
		      want == VERITY_CONTAINER_SPARSE))
		return ht_fail(err, EINVAL,
			       "no container named '%s' (avb, ddi, sidecar)",
			       asked);
	if ((r = verity_container_identify(image, (enum verity_container)want,
					   &kind, err)))
		return r;
	*name = verity_container_name(kind);
	return 0;
}
