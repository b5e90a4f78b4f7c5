/* The registry: the one place that decides what an image given alone is
 * (docs/trust.md, "The registry"). One row a container, tried in one
 * documented order: sparse, Android super image (liblp geometry), Android (AVB
 * footer), systemd disk image (GPT), Android OTA package (payload.bin, or
 * a zip holding one), sidecar
 * files, and plain pairs, which are never an image alone. An image that
 * reads two ways (a GPT disk image with an AVB footer; a disk image or
 * Android image with a sidecar tree beside it) is refused unless the
 * caller names the container: the library never picks one reading over
 * another that would be judged differently. */
#ifndef FV_REGISTRY_H
#define FV_REGISTRY_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/policy/kinds.h"

/* What image (given alone) is. asked AUTO: the registry's order, with
 * an image that reads two ways refused (-EINVAL, the fix
 * HT_PARAM_CONTAINER with both readings in value[0] and value[1]); an
 * Android sparse image refused (-EINVAL); an image that reads no way is
 * a sidecar image (whose missing tree is then the error). asked a
 * container: the image must read that way (-EINVAL otherwise). PLAIN is
 * never an image alone. The image that cannot be opened is -ENODEV. */
int verity_container_identify(const char *image, enum verity_container asked,
			      enum verity_container *kind,
			      struct ht_error *err);

/* -EINVAL, with the message verify_container_identify gives, when the
 * file at path is an Android sparse image (data given where raw bytes
 * are read); 0 otherwise. */
int verity_container_refuse_sparse(const char *path, struct ht_error *err);

/* What image given alone is, by name (asked: NULL, or the name of the
 * one meant; *name static): fv_file's FV_FILE_CONTAINER, and the walk's
 * image. -EINVAL for a name that is no container of images alone; then
 * as verity_container_identify. */
int verity_container_named(const char *image, const char *asked,
			   const char **name, struct ht_error *err);

#endif
