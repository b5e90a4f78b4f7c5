/* avbtool's command line as `fastverity avb` takes it (table.c): the
 * table the command's option engine is made of. */
#ifndef FV_ANDROID_TABLE_H
#define FV_ANDROID_TABLE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"

/* FV_SHOW_AVB_OPTIONS: the table to fn, in order, every string static:
 * each subcommand (FV_ITEM_STRING: key its name, text what it does, u
 * its bit), each of avbtool's fastverity lacks (FV_ITEM_NULL: key), each
 * option (FV_ITEM_UINT: key its name, text its value's name or NULL, u
 * the bits of the subcommands that take it, d how it is given: 0 a
 * flag, 1 a value, 2 a repeatable value, 3 avbtool's, refused; plus 4
 * when no request reads it, the command's own; then
 * FV_ITEM_TEXT: text its help, NULL for those refused; a name may have
 * a row for some subcommands and another for others), then FV_ITEM_ARRAY:
 * text avbtool's options in argparse's order, each between blanks.
 * Returns 0 or fn's return. */
int verity_android_table(fv_item_fn fn, void *ctx);
/* 1 when no request reads avbtool option name (the command reads it, or
 * FV_SHOW_AVB_RUN), else 0. */
int verity_android_command_option(const char *name);

#endif
