/* The library's version (the command reports the same). */
#ifndef FV_VERSION_H
#define FV_VERSION_H

#define FASTVERITY_VERSION_MAJOR 0
#define FASTVERITY_VERSION_MINOR 1
#define FASTVERITY_VERSION_PATCH 0
#define FASTVERITY_VERSION       "0.1.0"

#include "../hashtree/error.h" /* FV_PUBLIC */

/* The version of the library loaded at run time ("0.1.0"), which may be
 * newer than the FASTVERITY_VERSION a program was built with. */
FV_PUBLIC const char *fastverity_version(void);

#endif
