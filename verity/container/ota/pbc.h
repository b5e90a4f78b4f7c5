/* libprotobuf-c, opened when the library first reads an OTA manifest (as
 * libcrypto is, hashtree/libcrypto.h): linked, it would cost every run
 * its loading though few read a payload.
 *
 * The C that protoc-c makes from proto/update_metadata.proto and
 * proto/ota_metadata.proto at build time ($(B)/gen/, the Makefile) is
 * compiled with this header first (-include): the five library calls
 * and the empty string it names become the library's own, below, which
 * call libprotobuf-c through the pointers dlsym gave. A source file that
 * includes a generated header includes this one before it. */
#ifndef FV_CONTAINER_OTA_PBC_H
#define FV_CONTAINER_OTA_PBC_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#define protobuf_c_message_unpack          verity_pbc_unpack
#define protobuf_c_message_free_unpacked   verity_pbc_free_unpacked
#define protobuf_c_message_get_packed_size verity_pbc_packed_size
#define protobuf_c_message_pack            verity_pbc_pack
#define protobuf_c_message_pack_to_buffer  verity_pbc_pack_to_buffer
#define protobuf_c_empty_string            verity_pbc_empty_string

#include <protobuf-c/protobuf-c.h>

#include "hashtree/error.h"

/* The most bytes one unpack may allocate (a manifest of 16 MiB unpacks
 * to a few times that). */
#define VERITY_PBC_MAX_ALLOC (256ull << 20)

/* message of desc from len bytes (*out: verity_pbc_free): 0; -EINVAL
 * (what names the message in "%s: not a valid ..."), -ENOMEM past
 * VERITY_PBC_MAX_ALLOC, -ENOSYS when libprotobuf-c cannot be opened. */
int verity_pbc_read(const ProtobufCMessageDescriptor *desc, const void *buf,
		    size_t len, const char *what, ProtobufCMessage **out,
		    struct ht_error *err);
void verity_pbc_free(ProtobufCMessage *m);

#endif
