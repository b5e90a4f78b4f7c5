/* An image given alone to verify with no pair opened (fv_show's VERIFY
 * of an image alone): what it is, the registry's word, and which walk
 * applies to it. */
#ifndef FV_IMAGE_ALONE_H
#define FV_IMAGE_ALONE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>

#include "hashtree/error.h"
#include "include/fastverity.h"

/* The walks: an OTA package's checks (as ota verify), a disk image's
 * protected partitions, a firmware set (a super image, a vbmeta image, an
 * image whose vbmeta has no hashtree descriptor), the one pair of an
 * Android image, an image with sidecar files. */
enum verity_alone_walk {
	VERITY_ALONE_OTA,
	VERITY_ALONE_DDI,
	VERITY_ALONE_SET,
	VERITY_ALONE_PAIR,
	VERITY_ALONE_SIDECAR,
};

struct verity_alone {
	const char *container; /* the registry's name (static) */
	enum verity_alone_walk walk;
};

/* What image (container: NULL, or the one named) is, and its walk: 0 and
 * *out, or the registry's refusal. An Android image that cannot be read
 * for showing is a pair, whose open says why. */
int verity_image_alone(const char *image, const char *container,
		       struct verity_alone *out, struct ht_error *err);

/* What a is, said through rq's said: the "container" item (u: the walk,
 * 0 an Android image's one pair, 1 a set, 2 an OTA package's checks, 3 a
 * disk image's partitions, 4 an image with sidecar files; d: t's own, the
 * caller's walk); for an image with sidecar files, the tree its door
 * reads (an item keyed "tree"; u: the hash offset, d: 1 where the
 * parameters were given, no superblock read), for the caller's hints
 * when the door refuses it. Then, after the walk's return r, an error of
 * the image said: the line said after it (an item keyed "hint"), if one
 * helps. */
struct verity_alone_takes;
int verity_image_alone_said(const struct fv_open_request *rq,
			    const struct verity_alone *a,
			    struct verity_alone_takes *t);
void verity_image_alone_hint(const struct fv_show_request *q,
			     const struct verity_alone *a,
			     const struct verity_alone_takes *t, int r);

/* The request the walk a of q's image (fv_show's VERIFY, REPAIR, PAIR:
 * dump, OPEN) makes, into w, its options (from q's) into o: an OTA
 * package's verify (its signer's certificate, its images' AVB key) or
 * facts; a disk image's verify or open (the certificates trusted without
 * an anchor, q's certs) or dump; a set's verify (its anchor the set's
 * key); a super image's metadata (devices and slot: q's set); else the
 * image's one pair checked, repaired, mapped, or an Android image's dump
 * (AVB_DUMP), or the tree of an image with sidecar files shown (PAIR, q's
 * open request's data the tree verity_image_alone_takes found). -EINVAL:
 * a set without q's set, dump of another plain image, repair of an OTA
 * package or a super image, open of an OTA package or an image with
 * sidecar files. */
int verity_image_alone_request(const struct fv_show_request *q,
			       const struct verity_alone *a,
			       struct fv_show_request *w, fv_options *o,
			       struct ht_error *err);
/* The options o gives (NULL: none) as the anchor an open judges with,
 * into anchor, and as the run of a check on that verdict, no anchor,
 * into run (each NULL: not wanted). */
void verity_image_alone_anchor(const fv_options *o, fv_options *anchor,
			       fv_options *run);
/* What verify and dump (req's action) say of img (image: its name)
 * opened alone, before its pair is checked or shown, through req's said:
 * an Android image's parity the kernel cannot use, left out; its signer
 * not checked (not for dump). Then repair's arguments, args and the
 * anchor a write needs when the signer was not checked, into buf (len
 * bytes; NULL: none). */
void verity_image_alone_notes(const fv_image *img, const char *image,
			      const struct fv_open_request *req,
			      const char *args, char *buf, size_t len);

#endif
