/* The public library: Android super images (include/fastverity.h,
 * "Android super images"). */
#include "verity/api/internal.h"
#include "verity/android/avbshow.h"
#include "verity/android/request.h"
#include "verity/android/run.h"
#include "verity/android/shown.h"
#include "verity/android/table.h"
#include "verity/dm/shown.h"
#include "verity/image/avbdump.h"
#include "verity/slot/digests.h"
#include "verity/slot/vbmeta_digest.h"

API int fv_super_open(const char *image, const char *const *names,
		      const char *const *files, size_t n, unsigned slot,
		      fv_super **out)
{
	struct verity_android_super *s;
	struct ht_error err;
	int r;

	NEED(image);
	NEED(out);
	*out = NULL;
	if ((r = verity_android_super_open(image, names, files, n, slot, &s,
					   &err)))
		return verity_api_keep(r, &err);
	*out = (fv_super *)(void *)s;
	return 0;
}

API void fv_super_free(fv_super *s)
{
	verity_android_super_close(s ? &s->in : NULL);
}

API int fv_super_info(const fv_super *s, struct fv_super_info *info)
{
	struct fv_super_info full;

	NEED(s);
	NEED(info);
	verity_android_shown_super(&s->in, &full);
	GIVE(info, full, major);
	return 0;
}

API int fv_super_entry(const fv_super *s, enum fv_super_kind kind, size_t i,
		       struct fv_super_entry *e)
{
	struct fv_super_entry full;
	struct ht_error err;
	int r;

	NEED(s);
	NEED(e);
	if ((r = verity_android_shown_entry(&s->in, kind, i, &full, &err)))
		return verity_api_keep(r, &err);
	GIVE(e, full, block_device);
	return 0;
}

API int fv_super_find(const fv_super *s, const char *name, const char *slot)
{
	NEED(s);
	NEED(name);
	if (slot && strcmp(slot, "a") && strcmp(slot, "b"))
		return verity_api_fail(EINVAL, "slot '%s' is not a or b", slot);
	return verity_android_super_find(&s->in, name, slot);
}

API int fv_super_offset(const fv_super *s, size_t i, uint64_t off,
			uint32_t *device, uint64_t *at)
{
	struct ht_error err;
	int r;

	NEED(s);
	NEED(device);
	NEED(at);
	if (i >= s->in.s.m.np)
		return verity_api_fail(EINVAL, "partition %zu of %u", i,
				       (unsigned)s->in.s.m.np);
	if ((r = verity_android_super_locate(&s->in, i, off, device, at,
					     &err)) == -EINVAL)
		return verity_api_keep(r, &err);
	return r;
}

/* The kinds a folder shows whole, from the request. */
typedef int shown_fn(const struct fv_show_request *, struct show *,
		     struct ht_error *);

static int status(const struct fv_show_request *q, struct show *sh,
		  struct ht_error *err)
{
	return verity_dm_show_status(q->image, sh, err);
}

static shown_fn *const shown[] = {
	[FV_SHOW_SUPER] = verity_android_show,
	[FV_SHOW_LPDUMP] = verity_android_show,
	[FV_SHOW_LPUNPACK] = verity_android_show,
	[FV_SHOW_LPDUMP_SIZE] = verity_android_show,
	[FV_SHOW_STATUS] = status,
	[FV_SHOW_AVB_INFO] = verity_android_avb_show,
	[FV_SHOW_AVB_PUBKEY] = verity_android_avb_show,
	[FV_SHOW_AVB_VBMETA] = verity_android_avb_show,
	[FV_SHOW_AVB_VBMETA_DIGEST] = verity_slot_vbmeta_digest,
	[FV_SHOW_AVB_DIGESTS] = verity_slot_digests,
	[FV_SHOW_AVB_CMDLINE] = verity_slot_digests,
	[FV_SHOW_AVB_DUMP] = verity_image_avb_dump,
};

API int fv_show(const struct fv_show_request *q, fv_item_fn fn, void *ctx)
{
	struct fv_show_request in;
	struct show sh = {fn, ctx, 0, 0};
	struct ht_error err;
	int r;

	NEED(fn);
	TAKE(in, q, all);
	sh.json = in.json;
	if (in.what == FV_SHOW_AVB_VERIFY)
		return verity_api_avb_verify_show(&in, &sh);
	if (in.what == FV_SHOW_SET_VERIFY)
		return verity_api_slot_show(&in, &sh);
	if ((in.what >= FV_SHOW_FSVERITY_DIGEST &&
	     in.what <= FV_SHOW_FSVERITY_MEASURE) ||
	    in.what == FV_SHOW_FSVERITY_DUMP) /* verity/api/fsverity.c */
		return verity_api_fsverity_show(&in, fn, ctx);
	if ((in.what == FV_SHOW_VERIFY ||
	     (in.open && (in.what == FV_SHOW_PAIR || in.what == FV_SHOW_OPEN ||
			  in.what == FV_SHOW_REPAIR))) &&
	    !in.img && in.image) /* an image alone: its walk */
		return verity_api_alone_show(&in, &sh);
	if (in.what >= FV_SHOW_VERIFY && in.what <= FV_SHOW_PAIR)
		return verity_api_check_show(&in, &sh);
	if (in.what == FV_SHOW_SIGN) /* verity/files/signed.c */
		return verity_api_sign_show(&in, &sh);
	if (in.what == FV_SHOW_AVB_OPTIONS) /* verity/android/table.c */
		return verity_android_table(fn, ctx);
	if (in.what == FV_SHOW_AVB_RUN) /* verity/android/run.c */
		return verity_api_keep(verity_android_run(&in, fn, ctx, &err),
				       &err);
	if (in.what == FV_SHOW_AVB_USAGE) /* verity/android/request.c */
		return verity_api_keep(verity_android_usage(&in, &err), &err);
	NEED(in.image);
	if (in.what == FV_SHOW_DDI || in.what == FV_SHOW_DDI_VERIFY)
		return verity_api_ddi_show(&in, fn, ctx);
	if (in.what >= FV_SHOW_OTA_INFO && in.what <= FV_SHOW_OTA_EXTRACT)
		return verity_api_ota_show(&in, fn, ctx); /* verity/api/ota.c */
	if ((unsigned)in.what >= sizeof(shown) / sizeof(*shown) ||
	    !shown[in.what])
		return verity_api_fail(EINVAL, "fv_show: no kind %u",
				       (unsigned)in.what);
	/* the visitor's own return is handed back as it is */
	if (!(r = shown[in.what](&in, &sh, &err)) || r == sh.r)
		return r;
	return verity_api_keep(r, &err);
}
