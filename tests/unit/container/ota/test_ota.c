/* Unit tests of the OTA package reader (verity/container/ota/ota.c): a
 * zip made here around a payload, properties and metadata.pb read into
 * facts that nest, in the documented order, with the values made; a zip
 * without payload.bin, one whose payload.bin is deflated, and bytes of
 * neither kind refused by name. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "container/ota/build.h"
#include "hashtree/error.h"
#include "verity/container/ota/ota.h"

static const char props[] = "FILE_SIZE=123\nMETADATA_SIZE=99\nPOWERWASH=1";

/* metadata.pb: type AB, wipe, a property file padded with spaces, a
 * postcondition build and timestamp. */
static void metadata(struct pb *m)
{
	struct pb e = {0}, post = {0};

	pb_u(m, 1, 1);
	pb_u(m, 2, 1);
	pb_ld(&e, 1, "ota-property-files", 18);
	pb_ld(&e, 2, "payload.bin:1:2   ", 18);
	pb_msg(m, 4, &e);
	pb_ld(&post, 2, "a/b/c:17/X/1:user/k", 19);
	pb_u(&post, 4, 1788220800);
	pb_msg(m, 6, &post);
}

/* The value of the first fact keyed key, or NULL. */
static const char *fact(const struct verity_ota *o, const char *key,
			int *type)
{
	for (size_t i = 0; i < o->nf; i++)
		if (!strcmp(o->f[i].key, key)) {
			*type = o->f[i].type;
			return o->f[i].value;
		}
	return NULL;
}

static int read_bytes(const uint8_t *b, size_t len, struct verity_ota **o,
		      const char **msg)
{
	static struct ht_error err;
	struct verity_ota_src src;
	static struct verity_ota_mem mem;
	int r;

	ck_assert_ptr_nonnull(*o = calloc(1, sizeof(**o)));
	(*o)->dev.fd = -1;
	verity_ota_mem_src(&src, &mem, b, len, "t.zip");
	if (!(r = verity_ota_read(&src, *o, &err)))
		r = verity_ota_facts(*o, &err);
	*msg = ht_msg(&err);
	return r;
}

START_TEST(facts)
{
	struct pb md = {0};
	size_t plen, zlen, depth = 0;
	uint8_t *pay = build_payload(NULL, &plen), *zip;
	const char *names[] = {"payload.bin", "payload_properties.txt",
			       "META-INF/com/android/metadata.pb"};
	const uint8_t *bodies[3];
	size_t lens[3];
	struct verity_ota *o;
	const char *msg, *v;
	int type;

	metadata(&md);
	bodies[0] = pay, lens[0] = plen;
	bodies[1] = (const uint8_t *)props, lens[1] = strlen(props);
	bodies[2] = md.p, lens[2] = md.n;
	zip = build_zip(names, bodies, lens, 3, &zlen);
	ck_assert_int_eq(read_bytes(zip, zlen, &o, &msg), 0);
	for (size_t i = 0; i < o->nf; i++) {
		type = o->f[i].type;
		if (type == '{' || type == '[')
			depth++;
		else if (type == '}' || type == ']')
			ck_assert_uint_gt(depth--, 0);
	}
	ck_assert_uint_eq(depth, 0);
	ck_assert_int_eq(o->f[0].type, '{');
	ck_assert_str_eq(fact(o, "kind", &type), "zip");
	ck_assert_str_eq(fact(o, "type", &type), "full");
	ck_assert_str_eq(fact(o, "REPLACE", &type), "1");
	ck_assert_int_eq(type, 'n');
	ck_assert_str_eq(fact(o, "new_size", &type), "8192");
	ck_assert_str_eq(fact(o, "FILE_SIZE", &type), "123");
	ck_assert_str_eq(fact(o, "POWERWASH", &type), "1"); /* no newline */
	ck_assert_str_eq(fact(o, "wipe", &type), "true");
	ck_assert_int_eq(type, 'b');
	/* the property file without its padding */
	ck_assert_str_eq(fact(o, "ota-property-files", &type), "payload.bin:1:2");
	ck_assert_str_eq(fact(o, "timestamp", &type), "1788220800");
	ck_assert_ptr_nonnull(v = fact(o, "otacert", &type));
	ck_assert_str_eq(v, "false");
	ck_assert_ptr_null(fact(o, "verify", &type));
	verity_ota_free(o);
	free(zip);

	/* the bare payload: no zip, no properties */
	ck_assert_int_eq(read_bytes(pay, plen, &o, &msg), 0);
	ck_assert_str_eq(fact(o, "kind", &type), "payload");
	ck_assert_ptr_null(fact(o, "properties", &type));
	ck_assert_ptr_null(fact(o, "zip", &type));
	verity_ota_free(o);
	free(pay);
	free(md.p);
}
END_TEST

/* A delta manifest of one partition with verity fields, and dynamic
 * partition groups: each in the facts. */
START_TEST(delta_and_groups)
{
	struct pb man = {0}, part = {0}, info = {0}, old = {0}, x = {0};
	struct pb dpm = {0}, grp = {0}, out = {0}, meta = {0};
	uint8_t hash[32] = {2}, salt[4] = {0xde, 0xad, 0xbe, 0xef}, hdr[24];
	struct verity_ota *o;
	const char *msg;
	int type;

	pb_u(&man, 12, 6);
	pb_ld(&part, 1, "vendor", 6);
	pb_u(&old, 1, 40960);
	pb_ld(&old, 2, hash, 32);
	pb_msg(&part, 6, &old);
	pb_u(&info, 1, 40960);
	pb_ld(&info, 2, hash, 32);
	pb_msg(&part, 7, &info);
	pb_u(&x, 1, 0), pb_u(&x, 2, 8);
	pb_msg(&part, 10, &x); /* hash_tree_data_extent */
	pb_u(&x, 1, 8), pb_u(&x, 2, 1);
	pb_msg(&part, 11, &x); /* hash_tree_extent */
	pb_ld(&part, 12, "sha256", 6);
	pb_ld(&part, 13, salt, 4);
	pb_u(&x, 1, 9), pb_u(&x, 2, 1);
	pb_msg(&part, 15, &x); /* fec_extent */
	pb_msg(&man, 13, &part);
	pb_ld(&grp, 1, "main", 4);
	pb_u(&grp, 2, 1u << 30);
	pb_ld(&grp, 3, "vendor", 6);
	pb_ld(&grp, 3, "system", 6);
	pb_msg(&dpm, 1, &grp);
	pb_u(&dpm, 3, 1);
	pb_ld(&dpm, 4, "lz4", 3);
	pb_msg(&man, 15, &dpm);
	pb_ld(&man, 18, "2026-11-05", 10);
	memcpy(hdr, "CrAU\0\0\0\0\0\0\0\2", 12);
	for (int i = 0; i < 8; i++)
		hdr[12 + i] = (uint8_t)((uint64_t)man.n >> (56 - 8 * i));
	memset(hdr + 20, 0, 4);
	pb_bytes(&out, hdr, 24);
	pb_bytes(&out, man.p, man.n);
	ck_assert_int_eq(read_bytes(out.p, out.n, &o, &msg), 0);
	ck_assert_str_eq(fact(o, "type", &type), "delta");
	ck_assert_str_eq(fact(o, "minor", &type), "6");
	ck_assert_str_eq(fact(o, "old_size", &type), "40960");
	ck_assert_str_eq(fact(o, "hash_tree_algorithm", &type), "sha256");
	ck_assert_str_eq(fact(o, "hash_tree_salt", &type), "deadbeef");
	ck_assert_str_eq(fact(o, "fec_roots", &type), "2"); /* the default */
	ck_assert_int_eq(fact(o, "hash_tree_extent", &type)[0], '\0');
	ck_assert_int_eq(type, '[');
	ck_assert_str_eq(fact(o, "vabc_enabled", &type), "true");
	ck_assert_str_eq(fact(o, "vabc_compression_param", &type), "lz4");
	ck_assert_str_eq(fact(o, "security_patch_level", &type), "2026-11-05");
	ck_assert_str_eq(fact(o, "name", &type), "vendor");
	verity_ota_free(o);
	free(man.p), free(out.p), free(meta.p);

	/* a verity extent past the partition: refused by name */
	memset(&man, 0, sizeof(man));
	memset(&out, 0, sizeof(out));
	pb_ld(&part, 1, "vendor", 6);
	pb_u(&info, 1, 4096);
	pb_msg(&part, 7, &info);
	pb_u(&x, 1, 8), pb_u(&x, 2, 1);
	pb_msg(&part, 15, &x);
	pb_msg(&man, 13, &part);
	for (int i = 0; i < 8; i++)
		hdr[12 + i] = (uint8_t)((uint64_t)man.n >> (56 - 8 * i));
	pb_bytes(&out, hdr, 24);
	pb_bytes(&out, man.p, man.n);
	ck_assert_int_eq(read_bytes(out.p, out.n, &o, &msg), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(msg, "partition vendor: fec_extent (blocks 8+1) goes past"));
	verity_ota_free(o);
	free(man.p), free(out.p);
}
END_TEST

START_TEST(refused)
{
	const char *names[] = {"other.bin"};
	const uint8_t *bodies[] = {(const uint8_t *)"CrAU"};
	size_t lens[] = {4}, zlen;
	uint8_t *zip = build_zip(names, bodies, lens, 1, &zlen);
	static const uint8_t junk[64] = "nothing";
	struct verity_ota *o;
	const char *msg;

	ck_assert_int_eq(read_bytes(zip, zlen, &o, &msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "t.zip: a zip without payload.bin"));
	verity_ota_free(o);
	/* payload.bin deflated (method 8 in its directory entry) */
	names[0] = "payload.bin";
	free(zip);
	zip = build_zip(names, bodies, lens, 1, &zlen);
	zip[zlen - 22 - (46 + 11) + 10] = 8;
	ck_assert_int_eq(read_bytes(zip, zlen, &o, &msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "payload.bin is compressed"));
	verity_ota_free(o);
	free(zip);
	ck_assert_int_eq(read_bytes(junk, sizeof(junk), &o, &msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "t.zip: not an OTA package"));
	verity_ota_free(o);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "ota"};

	return run_unit(&u, UNIT_TESTS(facts, delta_and_groups, refused));
}
