/* Trees built into memory (verity/tree/memtree.h). */
#include "verity/tree/memtree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verity/tree/layout.h"

static int mt_read_data(void *c, uint64_t off, void *buf, size_t len,
			struct ht_error *err)
{
	const struct verity_memtree *m = c;

	if (m->dev)
		return verity_device_read(m->dev, off, buf, len, err);
	memcpy(buf, m->data + off, len);
	return 0;
}

static void mt_prefetch(void *c, uint64_t off, uint64_t len)
{
	verity_device_prefetch(((const struct verity_memtree *)c)->dev, off,
			       len);
}

static const uint8_t *mt_map_data(void *c, uint64_t off, size_t len)
{
	const struct verity_memtree *m = c;

	(void)len;
	return m->data ? m->data + off : NULL;
}

static void mt_unmap_data(void *c, const uint8_t *p, size_t len)
{
	(void)c;
	(void)p;
	(void)len;
}

static int mt_read_tree(void *c, uint64_t off, void *buf, size_t len,
			struct ht_error *err)
{
	(void)err;
	memcpy(buf, ((struct verity_memtree *)c)->tree + off, len);
	return 0;
}

static int mt_write_tree(void *c, uint64_t off, const void *buf, size_t len,
			 struct ht_error *err)
{
	(void)err;
	memcpy(((struct verity_memtree *)c)->tree + off, buf, len);
	return 0;
}

int verity_memtree_init(struct verity_memtree *m, const struct verity_params *p,
			const uint8_t *data, const struct verity_device *dev,
			struct ht_error *err)
{
	int r;

	memset(m, 0, sizeof(*m));
	if (!p->data_blocks)
		return ht_fail(err, EINVAL, "no data blocks");
	r = ht_hasher_init(&m->h, p->hash_name, p->hash_type, p->salt,
			   p->salt_size, err);
	if (r)
		return r;
	r = ht_geometry_init(&m->g, p->data_blocks, p->data_block_size,
			     p->hash_block_size, m->h.digest_size, p->hash_type,
			     err);
	if (r) {
		ht_hasher_free(&m->h);
		return r;
	}
	verity_fill_info(&m->info, &m->h);
	m->data = data;
	m->dev = dev;
	m->data_bytes = p->data_blocks * p->data_block_size;
	m->tree_bytes = m->g.tree_blocks * m->g.hash_block_size;
	m->tree = calloc(1, m->tree_bytes ? (size_t)m->tree_bytes : 1);
	if (!m->tree) {
		ht_hasher_free(&m->h);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	return 0;
}

int verity_memtree_build(struct verity_memtree *m, unsigned threads,
			 uint8_t *root, struct ht_error *err)
{
	struct ht_options opt = {.threads = threads};
	struct ht_io io = {.ctx = m,
			   .read_data = mt_read_data,
			   .read_tree = mt_read_tree,
			   .write_tree = mt_write_tree,
			   .map_data = mt_map_data,
			   .unmap_data = mt_unmap_data};

	if (m->dev)
		io.prefetch = mt_prefetch;
	return ht_build(&m->g, &m->h, &io, &opt, root, err);
}

void verity_memtree_free(struct verity_memtree *m)
{
	if (!m->tree)
		return;
	free(m->tree);
	ht_hasher_free(&m->h);
	m->tree = NULL;
}
