/* The kinds of image the library knows (containers), named once: the
 * registry (verity/registry/registry.h) decides which one an image is, the
 * trust policy (verity/policy/trust.h) what is trusted of each, and a
 * pair remembers which it came from. Nothing here reads an image. */
#ifndef FV_POLICY_KINDS_H
#define FV_POLICY_KINDS_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

enum verity_container {
	VERITY_CONTAINER_AUTO = 0, /* asked: let the registry decide */
	VERITY_CONTAINER_SPARSE,   /* an Android sparse image: its unsparsed
				    * bytes are read as the image */
	VERITY_CONTAINER_SUPER,    /* an Android super image: logical
				    * partitions, each an Android image */
	VERITY_CONTAINER_AVB,      /* an Android image: vbmeta and footer */
	VERITY_CONTAINER_DDI,      /* a systemd Discoverable Disk Image */
	VERITY_CONTAINER_OTA,      /* an Android A/B OTA package: an OTA
				    * zip or payload.bin (no pair) */
	VERITY_CONTAINER_SIDECAR,  /* IMAGE with IMAGE.verity beside it */
	VERITY_CONTAINER_PLAIN,    /* a data and a hash device, given */
	VERITY_CONTAINER_COUNT
};

/* "avb", "ddi", "sidecar", "plain", "sparse", "super", "ota"; "auto" for
 * VERITY_CONTAINER_AUTO. */
const char *verity_container_name(enum verity_container c);
/* What a container is, in a message: "an Android image (vbmeta)". */
const char *verity_container_words(enum verity_container c);
/* The container of a name (as verity_container_name gives it); -1 for
 * none. */
int verity_container_by_name(const char *name);

#endif
