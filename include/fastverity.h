/* libfastverity, the one header to include: build, check, repair, sign
 * and map dm-verity hash trees (docs/format.md). Every function returns 0
 * or a negative errno with a one-line message in its struct fv_error; the
 * library never prints. Link with `pkg-config --libs fastverity`. */
#ifndef FASTVERITY_H
#define FASTVERITY_H

#ifdef __cplusplus
extern "C" {
#endif

#include <fastverity/verity/version.h>
#include <fastverity/verity/verity.h>
#include <fastverity/verity/activate.h>
#include <fastverity/verity/signature.h>

#ifdef __cplusplus
}
#endif

#endif
