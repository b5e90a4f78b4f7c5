/* Activation through the kernel's dm-verity target, with libdevmapper:
 * open, close and status. Regions that are not whole block devices go
 * through loop devices (with offset and size limit). */
#ifndef FV_DM_ACTIVATE_H
#define FV_DM_ACTIVATE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/dm/table.h"
#include "verity/tree/pair.h"

/* Checks the pair as verify's first step does (without reading every
 * block), attaches regions to loop devices and creates the read-only
 * device /dev/mapper/<name> with run->activation's flags, the pair's
 * parity and its root hash signature (for the kernel to check). -EBUSY
 * when the name is taken, -ENOSYS without device-mapper. */
int verity_open(const char *name, struct verity_pair *pair,
		const struct verity_run *run, struct ht_error *err);

/* Removes the device (deferred: when its last user closes it; or cancels
 * such a removal). -ENODEV when there is none, -EBUSY when in use. */
enum verity_close_how {
	VERITY_CLOSE_NOW,
	VERITY_CLOSE_DEFERRED,
	VERITY_CLOSE_CANCEL_DEFERRED,
};
int verity_close(const char *name, enum verity_close_how how,
		 struct ht_error *err);

/* -ENODEV when no device of that name is active. */
int verity_status(const char *name, struct verity_active *st,
		  struct ht_error *err);

#endif
