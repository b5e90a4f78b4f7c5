/* verity/api/api.c through <fastverity.h> alone (as a program sees it):
 * parameters and options and their checks, signatures, the digests and
 * sizes, the errors and their messages. */
#include <check.h>

#include "check_main.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "include/fastverity.h"

#include "api_test.h"

START_TEST(params_defaults_and_checks)
{
	fv_params p, c;
	char uuid[37];

	p.size = 8;
	ck_assert_int_eq(fv_params_init(&p), -EINVAL);
	p.size = sizeof(p);
	ck_assert_int_eq(fv_params_init(&p), 0);
	ck_assert_int_eq(fv_params_init(NULL), -EINVAL);
	ck_assert_uint_eq(p.size, sizeof(p));
	ck_assert_str_eq(p.hash, "sha256");
	ck_assert_uint_eq(p.hash_type, 1);
	ck_assert_uint_eq(p.data_block_size, 4096);
	ck_assert_uint_eq(p.hash_block_size, 4096);
	ck_assert_uint_eq(p.salt_len, 32);
	ck_assert_int_eq(p.superblock, 1);
	ck_assert_uint_eq(strlen(p.uuid), 36);
	ck_assert_int_eq(p.uuid[14], '4'); /* random, version 4 */
	ck_assert_int_eq(fv_params_check(&p), 0);

	/* each field checked, the message naming it */
	c = p;
	c.hash_block_size = 3000;
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "hash block size 3000"));
	c = p;
	snprintf(c.hash, sizeof(c.hash), "md4x");
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "md4x"));
	c = p;
	memset(c.hash, 'a', sizeof(c.hash)); /* no terminator */
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	c = p;
	c.hash_type = 2;
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	c = p;
	c.salt_len = 257;
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	c = p;
	snprintf(c.uuid, sizeof(c.uuid), "not-a-uuid");
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	memset(c.uuid, '1', sizeof(c.uuid)); /* no terminator */
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	c = p;
	c.hash_offset = UINT64_MAX;
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	c = p;
	c.size = 8;
	ck_assert_int_eq(fv_params_check(&c), -EINVAL);
	ck_assert_int_eq(fv_params_check(NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "is NULL"));

	/* a UUID read in any case, kept as it is given; none */
	snprintf(p.hash, sizeof(p.hash), "sha512");
	snprintf(p.uuid, sizeof(p.uuid),
		 "12345678-1234-4234-8234-123456789ABC");
	ck_assert_int_eq(fv_params_check(&p), 0);
	p.uuid[0] = '\0';
	ck_assert_int_eq(fv_params_check(&p), 0);
	snprintf(uuid, sizeof(uuid), "%s", p.uuid);

	/* layout: needs the data blocks */
	snprintf(p.hash, sizeof(p.hash), "sha256");
	ck_assert_int_eq(fv_params_layout(&p, NULL, NULL, NULL), -EINVAL);
	p.data_blocks = BLOCKS;
	{
		uint64_t off, blocks, bytes;

		ck_assert_int_eq(fv_params_layout(&p, &off, &blocks, &bytes),
				 0);
		ck_assert_uint_eq(off, 4096); /* after the superblock */
		ck_assert_uint_eq(blocks, 4); /* 3 leaves, 1 root block */
		ck_assert_uint_eq(bytes, 5 * 4096);
	}
}
END_TEST

/* fv_open of a file that is not there with o: the options' refusal
 * (EINVAL, said), or ENOENT once they pass, since the options are
 * checked before anything is read. */
static int open_missing(const fv_options *o)
{
	struct fv_open_request rq = {.size = sizeof(rq),
				     .image = "/nonexistent/fastverity.img"};
	fv_image *im = NULL;
	int r = fv_open(&rq, o, &im);

	ck_assert_ptr_null(im);
	return r;
}

START_TEST(options_checks)
{
	const char *certs[FV_MAX_TRUSTED_CERTS + 1] = {0};
	fv_options o = {.size = sizeof(o)};
	int missing = open_missing(NULL);

	ck_assert_int_ne(missing, -EINVAL);
	/* zero is each default, as NULL is */
	ck_assert_int_eq(open_missing(&o), missing);
	o.threads = 257;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "257 threads (at most 256)");
	o.threads = 2;
	ck_assert_int_eq(open_missing(&o), missing);
	ck_assert_int_eq(set_parity(NULL, 0), 0);
	o.flags = FV_RESTART_ON_CORRUPTION | FV_PANIC_ON_CORRUPTION;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert(*fv_last_error());
	o.flags = 1u << 12;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "unknown flags 0x1000");
	o.flags = FV_IGNORE_ZERO_BLOCKS | FV_CHECK_AT_MOST_ONCE;
	o.map = 1;
	ck_assert_int_eq(open_missing(&o), missing);
	o.sha256 = 5;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "no SHA-256 kernel 5");
	o.sha256 = FV_SHA256_AVX512;
	o.repair = 4;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "unknown repair flags 0x4");
	o.repair = FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY;
	ck_assert_int_eq(open_missing(&o), missing);
	/* certificates: a list, its entries set, at most 64 */
	o.ntrusted_certs = 1;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "fv_open: trusted_certs is NULL");
	o.trusted_certs = certs;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "certificate file 0 is NULL");
	for (size_t i = 0; i <= FV_MAX_TRUSTED_CERTS; i++)
		certs[i] = "/nonexistent/cert.pem";
	o.ntrusted_certs = FV_MAX_TRUSTED_CERTS + 1;
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "65 certificate files (at most 64)");
	o.ntrusted_certs = FV_MAX_TRUSTED_CERTS;
	ck_assert_int_eq(open_missing(&o), missing);
	/* a program built against a smaller structure: too small, or its
	 * part read and the rest the defaults */
	o = (fv_options){.size = offsetof(fv_options, repair)};
	ck_assert_int_eq(open_missing(&o), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "too small"));
	o.size = offsetof(fv_options, repair) + sizeof(o.repair);
	ck_assert_int_eq(open_missing(&o), missing);
	/* and a larger one: what the library knows of it */
	{
		struct {
			fv_options o;
			uint64_t later;
		} big = {.o = {.size = sizeof(big)}, .later = ~0ull};

		ck_assert_int_eq(open_missing(&big.o), missing);
	}
}
END_TEST

START_TEST(sign_and_check)
{
	char key[128], cert[128];
	const char *root = "5d9f8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c"
			   "6d5e4f3a2b1c0d9e";
	uint8_t *der;
	size_t len;

	snprintf(key, sizeof(key), "%s/key.pem", dir);
	snprintf(cert, sizeof(cert), "%s/cert.pem", dir);
	make_signer(key, cert);
	ck_assert_int_eq(sign_root(key, cert, root, &der, &len), 0);
	ck_assert_uint_gt(len, 0);
	/* (checked by the door: a pair's signature, fv_verify) */
	ck_assert_uint_eq(der[0], 0x30); /* DER: a SEQUENCE */
	fv_free(der);
	ck_assert_int_eq(sign_root("/nonexistent/k", cert, root, &der, &len),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "/nonexistent/k"));
	/* a request: the certificate embedded, systemd's JSON */
	{
		struct fv_sign_request q = {.size = sizeof(q)};
		uint8_t *in;
		char *json;
		size_t n;

		q.key = key;
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), -EINVAL);
		ck_assert_int_eq(fv_sign(NULL, root, &der, &len), -EINVAL);
		q.cert = cert;
		q.flags = 4;
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "flags"));
		q.flags = FV_SIGN_EMBED_CERT;
		q.size = offsetof(struct fv_sign_request, flags);
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), -EINVAL);
		q.size = sizeof(q);
		q.passphrase = "unused";
		q.pkcs11_module = NULL;
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), 0);
		fv_free(der);
		/* systemd's signature partition JSON, the certificate inside
		 * the signature without FV_SIGN_EMBED_CERT */
		q.flags = FV_SIGN_DDI_JSON;
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), 0);
		json = (char *)der;
		ck_assert_uint_eq(strlen(json), len);
		ck_assert_ptr_nonnull(strstr(json, "\"rootHash\""));
		ck_assert_ptr_nonnull(strstr(json, "certificateFingerprint"));
		fv_free(json);
		ck_assert_int_eq(f_read(cert, "certificate", 1 << 16, &in, &n),
				 0);
		ck_assert_ptr_nonnull(strstr((char *)in, "BEGIN CERTIFICATE"));
		ck_assert_uint_eq(strlen((char *)in), n);
		fv_free(in);
		ck_assert_int_eq(f_read(cert, "certificate", 16, &in, &n),
				 -EINVAL);
		ck_assert_int_eq(f_read("/nonexistent/f", "file", 16, &in, &n),
				 -EINVAL);
	}
}
END_TEST

/* fv_show's FV_SHOW_SIGN: the signature written whole, or as text to
 * "-", and sign's --json document (the bytes written to "-" in base64). */
struct signed_seen {
	size_t text, strings, nulls;
	char format[16];
};

static int signed_item(void *ctx, const struct fv_item *it)
{
	struct signed_seen *g = ctx;

	g->text += it->kind == FV_ITEM_TEXT ? (size_t)it->u : 0;
	g->nulls += it->kind == FV_ITEM_NULL;
	g->strings += it->kind == FV_ITEM_STRING;
	if (it->kind == FV_ITEM_STRING && !strcmp(it->key, "format"))
		snprintf(g->format, sizeof(g->format), "%s", it->text);
	return 0;
}

START_TEST(sign_shown)
{
	char key[128], cert[128], out[128];
	struct fv_sign_request sq = {.size = sizeof(sq)};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_SIGN,
				    .image = "-",
				    .args = "00112233445566778899aabbccddeeff",
				    .sign = &sq};
	struct signed_seen g = {0};
	struct stat st;

	snprintf(key, sizeof(key), "%s/skey.pem", dir);
	snprintf(cert, sizeof(cert), "%s/scert.pem", dir);
	snprintf(out, sizeof(out), "%s/sig.p7s", dir);
	make_signer(key, cert);
	sq.key = key;
	sq.cert = cert;
	ck_assert_int_eq(fv_show(&q, signed_item, &g), 0);
	ck_assert_uint_gt(g.text, 0);
	q.json = 1;
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(fv_show(&q, signed_item, &g), 0);
	ck_assert_uint_eq(g.text, 0);
	ck_assert_uint_eq(g.nulls, 1);   /* file */
	ck_assert_uint_eq(g.strings, 4); /* result, root, format, base64 */
	ck_assert_str_eq(g.format, "pkcs7");
	q.image = out;
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(fv_show(&q, signed_item, &g), 0);
	ck_assert_uint_eq(g.nulls, 1); /* base64 */
	ck_assert_int_eq(stat(out, &st), 0);
	ck_assert_int_gt(st.st_size, 0);
	unlink(out);
	q.image = "/nonexistent/dir/sig";
	ck_assert_int_eq(fv_show(&q, signed_item, &g), -EIO);
	q.sign = NULL;
	ck_assert_int_eq(fv_show(&q, signed_item, &g), -EINVAL);
}
END_TEST

/* OpenSSL's digests through the header, and the sizes of files. */
START_TEST(digests_and_sizes)
{
	struct fv_file_answer fa;

	/* a digest of parts: SHA-256("abc") split in two, SHA-512 too */
	{
		static const uint8_t abc256[32] = {
			0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
			0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
			0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
			0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
		const void *parts[2] = {"a", "bc"};
		const size_t sizes[2] = {1, 2};
		uint8_t d[FV_MAX_DIGEST_SIZE];
		size_t len = 0;

		ck_assert_int_eq(fv_digest("sha256", 2, parts, sizes, d, &len),
				 0);
		ck_assert_uint_eq(len, 32);
		ck_assert_int_eq(memcmp(d, abc256, 32), 0);
		ck_assert_int_eq(fv_digest("sha512", 2, parts, sizes, d, &len),
				 0);
		ck_assert_uint_eq(len, 64);
		ck_assert_uint_eq(d[0], 0xdd); /* ddaf35a1... */
		ck_assert_uint_eq(d[63], 0x9f);
		ck_assert_int_eq(fv_digest("nosuch", 2, parts, sizes, d, &len),
				 -EINVAL);
		ck_assert_str_eq(fv_last_error(),
				 "hash algorithm nosuch not supported");
		ck_assert_int_eq(fv_digest("sha256", 2, NULL, sizes, d, &len),
				 -EINVAL);
		ck_assert_int_eq(fv_digest(NULL, 0, NULL, NULL, d, &len),
				 -EINVAL);
	}
	{
		struct fv_runtime_info rt = {.size = sizeof(rt)};

		ck_assert_int_eq(fv_runtime_info(FV_SHA256_FASTEST, &rt), 0);
		ck_assert_ptr_nonnull(rt.openssl);
		ck_assert_ptr_null(rt.openssl_error);
		ck_assert_int_eq(strncmp(rt.openssl, "OpenSSL ", 8), 0);
		ck_assert_ptr_nonnull(rt.sha256_kernel);
		rt.size = 4;
		ck_assert_int_eq(fv_runtime_info(FV_SHA256_FASTEST, &rt),
				 -EINVAL);
	}
	ck_assert_int_eq(f_op(FV_FILE_SIZE, data, &fa), 0);
	ck_assert_uint_eq(fa.bytes, (uint64_t)BLOCKS * BS);
	ck_assert_int_eq(f_op(FV_FILE_SIZE, dir, &fa), -ENOTBLK);
}
END_TEST

/* A message with a fix, said in the library's words and in a caller's
 * (fv_last_error_say), and one without. */
START_TEST(messages_with_a_fix)
{
	static const struct fv_param_words words[] = {
		[FV_PARAM_TRUSTED_CERT] = {"--trusted-cert=%llu",
					   "--trusted-cert"},
	};
	const size_t n = sizeof(words) / sizeof(words[0]);
	struct fv_open_request rq = {
		.size = sizeof(rq), .data = data, .hash = hash};
	char said[512], key[128], cert[128], sig[128];
	fv_result *made;
	fv_image *im;
	uint8_t *der;
	size_t len;

	/* a signature given to be checked, and nothing to check it against */
	{
		fv_params *p = params_new();

		ck_assert_int_eq(t_format(p, data, hash, NULL, &made), 0);
		free(p);
	}
	snprintf(key, sizeof(key), "%s/mkey.pem", dir);
	snprintf(cert, sizeof(cert), "%s/mcert.pem", dir);
	snprintf(sig, sizeof(sig), "%s/m.p7s", dir);
	make_signer(key, cert);
	ck_assert_int_eq(sign_root(key, cert, rpt(made).root_hex, &der, &len),
			 0);
	fv_result_free(made);
	write_file(sig, der, len);
	fv_free(der);
	rq.signature_path = sig;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_int_eq(last_param(), FV_PARAM_TRUSTED_CERT);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "(give the signer's certificate)"));
	ck_assert_int_eq(say(words, n, said, sizeof(said)), (int)strlen(said));
	ck_assert_ptr_nonnull(strstr(said, "(give --trusted-cert)"));
	ck_assert_int_eq(strncmp(said, fv_last_error(), strcspn(said, "(")), 0);
	/* words that do not reach the parameter: the library's */
	say(words, 1, said, sizeof(said));
	ck_assert_str_eq(said, fv_last_error());
	say(NULL, 0, said, sizeof(said));
	ck_assert_str_eq(said, fv_last_error());
	/* cut to the buffer, terminated, the whole length returned */
	ck_assert_int_gt(say(words, n, said, 8), 8);
	ck_assert_uint_eq(strlen(said), 7);
	/* no text: the length and the parameter alone */
	{
		struct fv_error_say s = {.size = sizeof(s)};

		ck_assert_int_eq(fv_last_error_say(&s), (int)s.len);
		ck_assert_uint_eq(s.len, strlen(fv_last_error()));
		ck_assert_int_eq(s.param, FV_PARAM_TRUSTED_CERT);
		s.text_size = 8;
		ck_assert_int_eq(fv_last_error_say(&s), -EINVAL);
		ck_assert_int_eq(fv_last_error_say(NULL), -EINVAL);
	}
	/* a message without a fix */
	ck_assert_int_eq(fv_params_check(NULL), -EINVAL);
	ck_assert_int_eq(last_param(), FV_PARAM_NONE);
	say(words, n, said, sizeof(said));
	ck_assert_str_eq(said, fv_last_error());
}
END_TEST

/* fastverity's option values as the library reads them for the
 * command: the parameters, a number, --changed's ranges. */
START_TEST(option_values)
{
	const char *opts[] = {"hash", "sha1", "salt", "-", "uuid", NULL};
	fv_params p = {.size = sizeof(p)};
	uint64_t v, *ranges;
	size_t n;

	ck_assert_int_eq(fv_params_init(&p), 0);
	ck_assert_int_eq(fv_params_parse(&p, opts, 3), 0);
	ck_assert_str_eq(p.hash, "sha1");
	ck_assert_uint_eq(p.salt_len, 0);
	ck_assert_int_eq(fv_params_parse(NULL, opts, 3), -EINVAL);
	ck_assert_int_eq(fv_params_parse(&p, NULL, 1), -EINVAL);
	ck_assert_int_eq(fv_option_number("fec-roots", "4", &v), 0);
	ck_assert_uint_eq(v, 4);
	ck_assert_int_eq(fv_option_number("fec-roots", "1", &v), -EINVAL);
	ck_assert_str_eq(fv_last_error(),
			 "--fec-roots: 1 is not supported (2 to 24)");
	ck_assert_uint_eq(v, 4); /* left as it was */
	/* a refused value leaves the parameters as they were */
	{
		const char *bad[] = {"hash", "sha512", "format", "7"};
		fv_params z = {.size = sizeof(z)};

		ck_assert_int_eq(fv_params_parse(&p, bad, 2), -EINVAL);
		ck_assert_str_eq(p.hash, "sha1");
		/* a structure fv_params_init did not fill: refused, not
		 * divided by its zero block size */
		ck_assert_int_eq(fv_params_parse(&z,
						 (const char *[]){"data-"
								  "blocks",
								  "5"},
						 1),
				 0);
		z.size = 8;
		ck_assert_int_eq(fv_params_parse(&z, opts, 1), -EINVAL);
	}
	ck_assert_int_eq(fv_option_number("size", NULL, &v), -EINVAL);
	ck_assert_int_eq(fv_ranges_parse("4096:8", &ranges, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(ranges[1], 8);
	fv_free(ranges);
	ck_assert_int_eq(fv_ranges_parse("4096", &ranges, &n), -EINVAL);
}
END_TEST

START_TEST(errno_values)
{
	fv_params *p = params_new();
	fv_result *made = NULL, *res = NULL;
	char root_hex[65], path[128];

	/* EINVAL: a NULL handle, a value out of range */
	ck_assert_int_eq(fv_params_check(NULL), -EINVAL);
	p->hash_type = 2;
	ck_assert_int_eq(fv_params_check(p), -EINVAL);
	p->hash_type = 1;
	/* EOVERFLOW: sizes past 64 bits */
	p->data_blocks = UINT64_MAX / 2;
	ck_assert_int_eq(fv_params_layout(p, NULL, NULL, NULL), -EOVERFLOW);
	p->data_blocks = 0;
	/* ENODEV: an input that is not there */
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(sb_params(p, path), -ENODEV);
	ck_assert_int_eq(t_format(p, path, hash, NULL, NULL), -ENODEV);
	/* ENOTBLK: a directory where a device belongs */
	ck_assert_int_eq(t_format(p, dir, hash, NULL, NULL), -ENOTBLK);
	/* EINVAL: an output that is an input */
	ck_assert_int_eq(t_format(p, data, data, NULL, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), data));

	ck_assert_int_eq(t_format(p, data, hash, NULL, &made), 0);
	strcpy(root_hex, rpt(made).root_hex);
	fv_result_free(made);
	/* EINVAL: data shorter than the superblock says, a hash image
	 * shorter than its tree */
	ck_assert_int_eq(truncate(data, (off_t)(BLOCKS - 10) * BS), 0);
	ck_assert_int_eq(
		t_verify(p, data, hash, root_hex, NULL, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), data));
	write_file(data, image, (size_t)BLOCKS * BS);
	ck_assert_int_eq(truncate(hash, 8192), 0);
	ck_assert_int_eq(
		t_verify(p, data, hash, root_hex, NULL, NULL, NULL, &res),
		-EINVAL);
	free(p);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_api",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u,
			UNIT_TESTS(params_defaults_and_checks, options_checks,
				   sign_and_check, messages_with_a_fix,
				   option_values, sign_shown, errno_values,
				   digests_and_sizes));
}
