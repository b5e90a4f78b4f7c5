/* The kinds of image, named once (verity/policy/kinds.h). */
#include "verity/policy/kinds.h"

#include <stddef.h>
#include <string.h>

static const struct {
	enum verity_container kind;
	const char *name, *words;
} kinds[] = {
	{VERITY_CONTAINER_SPARSE, "sparse", "an Android sparse image"},
	{VERITY_CONTAINER_SUPER, "super",
	 "an Android super image (logical partitions)"},
	{VERITY_CONTAINER_AVB, "avb", "an Android image (vbmeta)"},
	{VERITY_CONTAINER_DDI, "ddi", "a systemd disk image (GPT)"},
	{VERITY_CONTAINER_OTA, "ota",
	 "an Android OTA package (payload.bin or an OTA zip)"},
	{VERITY_CONTAINER_SIDECAR, "sidecar",
	 "an image with sidecar files (IMAGE.verity)"},
	{VERITY_CONTAINER_PLAIN, "plain", "a verity pair"},
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

const char *verity_container_name(enum verity_container c)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i].kind == c)
			return kinds[i].name;
	return "auto";
}

const char *verity_container_words(enum verity_container c)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i].kind == c)
			return kinds[i].words;
	return "any container";
}

int verity_container_by_name(const char *name)
{
	for (size_t i = 0; name && i < NKINDS; i++)
		if (!strcmp(kinds[i].name, name))
			return (int)kinds[i].kind;
	return -1;
}
