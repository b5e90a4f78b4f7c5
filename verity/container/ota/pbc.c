/* libprotobuf-c opened when first needed (verity/container/ota/pbc.h). */
#include "verity/container/ota/pbc.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "hashtree/dl.h"

typedef ProtobufCMessage *(*unpack_fn)(const ProtobufCMessageDescriptor *,
				       ProtobufCAllocator *, size_t,
				       const uint8_t *);
typedef void (*free_fn)(ProtobufCMessage *, ProtobufCAllocator *);

static void *fns[2];
static int loaded; /* 1 opened, -1 could not be */
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

const char verity_pbc_empty_string[] = "";

static void load(void)
{
	static const char *const sonames[] = {"libprotobuf-c.so.1",
					      "libprotobuf-c.so"};
	static const char *const names[] = {
		"protobuf_c_message_unpack",
		"protobuf_c_message_free_unpacked"};

	loaded = ht_dl_open(sonames, 2, names, 2, fns, why, sizeof(why)) ? -1
									  : 1;
}

/* An allocator that counts, so that no unpack takes more than the cap.
 * Each block carries its size before it. */
struct counted {
	ProtobufCAllocator a;
	size_t used;
	int over;
};

static void *counted_alloc(void *data, size_t size)
{
	struct counted *c = data;
	size_t *p;

	if (size > VERITY_PBC_MAX_ALLOC - c->used ||
	    size > VERITY_PBC_MAX_ALLOC - sizeof(size_t)) {
		c->over = 1;
		return NULL;
	}
	if (!(p = malloc(sizeof(size_t) + size)))
		return NULL;
	c->used += size;
	*p = size;
	return p + 1;
}

static void counted_free(void *data, void *ptr)
{
	size_t *p = ptr;

	(void)data;
	if (p)
		free(p - 1);
}

/* Each unpacked message remembers nothing of its allocator: the blocks
 * carry their sizes, so the one kept here frees any of them. */
static struct counted freeing = {{counted_alloc, counted_free, &freeing}, 0, 0};

int verity_pbc_read(const ProtobufCMessageDescriptor *desc, const void *buf,
		    size_t len, const char *what, ProtobufCMessage **out,
		    struct ht_error *err)
{
	struct counted c = {{counted_alloc, counted_free, NULL}, 0, 0};
	ProtobufCMessage *m;

	*out = NULL;
	pthread_once(&once, load);
	if (loaded < 0)
		return ht_fail(err, ENOSYS,
			       "cannot read %s: libprotobuf-c cannot be "
			       "opened (%s; install libprotobuf-c1)",
			       what, why);
	c.a.allocator_data = &c;
	m = ((unpack_fn)fns[0])(desc, &c.a, len, buf);
	if (!m) {
		if (c.over)
			return ht_fail(err, ENOMEM,
				       "%s: unpacking takes more than %llu "
				       "MiB: refused",
				       what,
				       (unsigned long long)(VERITY_PBC_MAX_ALLOC >>
							    20));
		return ht_fail(err, EINVAL,
			       "%s: not a valid protobuf message (a field "
			       "of the wrong type, cut short, or a required "
			       "one missing)",
			       what);
	}
	*out = m;
	return 0;
}

void verity_pbc_free(ProtobufCMessage *m)
{
	if (m && loaded > 0)
		((free_fn)fns[1])(m, &freeing.a);
}

/* The generated code's pack functions are never called: nothing is
 * written. */
size_t verity_pbc_packed_size(const ProtobufCMessage *m)
{
	(void)m;
	return 0;
}

size_t verity_pbc_pack(const ProtobufCMessage *m, uint8_t *out)
{
	(void)m;
	(void)out;
	return 0;
}

size_t verity_pbc_pack_to_buffer(const ProtobufCMessage *m,
				 ProtobufCBuffer *b)
{
	(void)m;
	(void)b;
	return 0;
}

/* The generated code's own unpack and free (unused here: the library
 * calls verity_pbc_read and verity_pbc_free), through the same pointers. */
ProtobufCMessage *verity_pbc_unpack(const ProtobufCMessageDescriptor *desc,
				    ProtobufCAllocator *a, size_t len,
				    const uint8_t *data)
{
	pthread_once(&once, load);
	return loaded > 0 ? ((unpack_fn)fns[0])(desc, a, len, data) : NULL;
}

void verity_pbc_free_unpacked(ProtobufCMessage *m, ProtobufCAllocator *a)
{
	if (m && loaded > 0)
		((free_fn)fns[1])(m, a);
}
