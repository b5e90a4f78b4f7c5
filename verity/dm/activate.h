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

/* What open names the device of a pair of parameters p: its uuid,
 * veritysetup's (CRYPT-VERITY-<the superblock's UUID in hex>-<name>;
 * without a superblock CRYPT-VERITY-<name>), and the description of its
 * signature's key in the kernel's keyring (fastverity:<hex>-<name>). */
#define VERITY_DM_UUID_MAX     129 /* libdevmapper's DM_UUID_LEN */
#define VERITY_DM_KEY_DESC_MAX 160
void verity_open_names(const char *name, const struct verity_params *p,
		       char uuid[VERITY_DM_UUID_MAX],
		       char desc[VERITY_DM_KEY_DESC_MAX]);
/* The verity table open loads for pair (opened: its layout made) over
 * the devices data and hash and the parity's fec ("major:minor"; NULL:
 * none) with flags (enum verity_act_flags), a signed pair's key named
 * desc: into table, len bytes (verity_table_params' errors). */
int verity_open_table(const struct verity_pair *pair, const char *data,
		      const char *hash, const char *fec, unsigned flags,
		      const char *desc, char *table, size_t len,
		      struct ht_error *err);

/* -ENODEV when no device of that name is active. */
int verity_status(const char *name, struct verity_active *st,
		  struct ht_error *err);

#endif
