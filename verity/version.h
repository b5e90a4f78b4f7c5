/* The library's version (the command reports the same): the macros live
 * in the public header, the one place they are written. */
#ifndef FV_VERSION_H
#define FV_VERSION_H

#include "include/fastverity.h"

#endif
