/* The public API, through <fastverity.h> alone (as a program sees it):
 * parameters and their checks, format, verify with failures, repair from
 * FEC parity, signatures, and the errors of device-mapper calls. */
#include <check.h>

#include "check_main.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "include/fastverity.h"

#define BS     4096u
#define BLOCKS 300u

static char dir[64], data[96], hash[96], fec[96];

static void fill(uint8_t *b, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (uint8_t)(x >> 16);
	}
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

static void poke(const char *path, uint64_t off)
{
	int fd = open(path, O_RDWR);
	uint8_t c;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &c, 1, (off_t)off), 1);
	c ^= 0x5a;
	ck_assert_int_eq(pwrite(fd, &c, 1, (off_t)off), 1);
	close(fd);
}

static int same_file(const char *a, const uint8_t *b, size_t n)
{
	uint8_t *buf = malloc(n + 1);
	FILE *f = fopen(a, "rb");
	size_t got = fread(buf, 1, n + 1, f);
	int same = got == n && !memcmp(buf, b, n);

	fclose(f);
	free(buf);
	return same;
}

static uint8_t *image;

/* What a result says (fv_result_report): its strings point into r. */
static struct fv_report rpt(const fv_result *r)
{
	struct fv_report rep = {.size = sizeof(rep)};

	ck_assert_int_eq(fv_result_report(r, &rep), 0);
	ck_assert_uint_eq(rep.size, sizeof(rep));
	return rep;
}

/* The root's bytes into buf (at most size), their number returned. */
static size_t root_of(const fv_result *r, uint8_t *buf, size_t size)
{
	struct fv_report rep = rpt(r);

	memcpy(buf, rep.root, size < rep.root_size ? size : rep.root_size);
	return rep.root_size;
}

/* The layout of the pair a result acted on. */
static struct fv_layout layout_of(const fv_result *r)
{
	struct fv_report rep = rpt(r);

	ck_assert(rep.has & FV_REPORT_LAYOUT);
	ck_assert_uint_eq(rep.layout.size, sizeof(rep.layout));
	return rep.layout;
}

/* A pair's parity and signature, for the pairs the tests below make of
 * their parts (set_parity, set_signature; reset for each test). */
static const char *t_parity;
static unsigned t_roots;
static char t_sig_path[128];
static const char *t_sig;

static int set_parity(const char *path, unsigned roots)
{
	t_parity = path;
	t_roots = roots;
	return 0;
}

/* der written to a file of the test's directory (the caller may free
 * it), given to the door as the pair's signature. */
static int set_signature(const uint8_t *der, size_t len)
{
	snprintf(t_sig_path, sizeof(t_sig_path), "%s/given.p7s", dir);
	write_file(t_sig_path, der, len);
	t_sig = t_sig_path;
	return 0;
}

/* Parameters as format's defaults (fv_params_init), on the heap. */
static fv_params *params_new(void)
{
	fv_params *p = malloc(sizeof(*p));

	ck_assert_ptr_nonnull(p);
	p->size = sizeof(*p);
	ck_assert_int_eq(fv_params_init(p), 0);
	return p;
}

static void params_salt(fv_params *p, const void *salt, size_t len)
{
	memcpy(p->salt, salt, len);
	p->salt_len = len;
}

/* The door's plain pair of d and h with p's parameters (NULL: the
 * superblock's), the root (hex; NULL: none) and the parity and
 * signature set, opened with o for an action that writes or not. */
static int pair_open(const fv_params *p, const char *d, const char *h,
		     const char *root_hex, const fv_options *o, int writes,
		     fv_image **out)
{
	struct fv_open_request rq = {.size = sizeof(rq),
				     .data = d,
				     .hash = h,
				     .params = p,
				     .fec_path = t_parity,
				     .fec_roots = t_roots,
				     .signature_path = t_sig,
				     .writes = writes,
				     .root_hex = root_hex};

	return fv_open(&rq, o, out);
}

/* format of d into h with p and the parity set; p's data blocks filled
 * in from the parameters written. */
static int t_format(fv_params *p, const char *d, const char *h,
		    const fv_options *o, fv_result **res)
{
	struct fv_format_request rq = {.size = sizeof(rq),
				       .data = d,
				       .hash = h,
				       .params = p,
				       .fec_path = t_parity,
				       .fec_roots = t_roots};
	fv_result *made = NULL;
	int r = fv_format(&rq, o, &made);

	if (!r) {
		struct fv_report rep = {.size = sizeof(rep)};

		ck_assert_int_eq(fv_result_report(made, &rep), 0);
		ck_assert(rep.has & FV_REPORT_PARAMS);
		p->data_blocks = rep.params.data_blocks;
	}
	if (res)
		*res = made;
	else
		fv_result_free(made);
	return r;
}

/* fv_repair of pair i of im with o's repair how, or fv_verify of it
 * (repair 0); o's repair left as it was when the call refuses how. */
static int repair_with(fv_options *o, unsigned how, int repair,
		       const fv_image *im, size_t i, fv_result **res)
{
	unsigned was = o->repair;
	int r;

	o->repair = how;
	r = repair ? fv_repair(im, i, o, res) : fv_verify(im, i, o, res);
	if (how & ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		o->repair = was;
	return r;
}

/* verify (repair 0) or repair (how) of the pair, failures to fn; the
 * pair opened with the same options (a repair that writes: judged
 * so). */
static int t_check(int repair, fv_params *p, const char *d, const char *h,
		   const char *root_hex, fv_options *o, unsigned how,
		   fv_failure_fn fn, void *ctx, fv_result **res)
{
	fv_options own = {.size = sizeof(own)};
	fv_options *use = o ? o : &own;
	fv_image *im = NULL;
	int r;

	*res = NULL;
	use->failure = fn;
	use->failure_ctx = ctx;
	if (!(r = pair_open(p, d, h, root_hex, use,
			    repair && !(how & FV_REPAIR_DRY_RUN), &im)))
		r = repair_with(use, how, repair, im, 0, res);
	fv_image_free(im);
	return r;
}

static int t_verify(fv_params *p, const char *d, const char *h,
		    const char *root_hex, fv_options *o, fv_failure_fn fn,
		    void *ctx, fv_result **res)
{
	return t_check(0, p, d, h, root_hex, o, 0, fn, ctx, res);
}

static int t_repair(fv_params *p, const char *d, const char *h,
		    const char *root_hex, fv_options *o, unsigned how,
		    fv_failure_fn fn, void *ctx, fv_result **res)
{
	return t_check(1, p, d, h, root_hex, o, how, fn, ctx, res);
}

/* An image given alone through the door (container NULL: the
 * registry's word). */
static int image_open(const char *path, const char *container,
		      const fv_options *o, fv_image **im)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = path, .container = container};

	return fv_open(&rq, o, im);
}

/* verify (how 0) or repair (how: its flags, or'ed with 1u << 31) of an
 * image's pair i. */
#define REPAIR (1u << 31)
static int image_check(const fv_image *im, size_t i, fv_options *o,
		       unsigned how, fv_failure_fn fn, void *ctx,
		       fv_result **res)
{
	fv_options own = {.size = sizeof(own)};
	fv_options *use = o ? o : &own;

	*res = NULL;
	use->failure = fn;
	use->failure_ctx = ctx;
	return repair_with(use, how & ~REPAIR, !!(how & REPAIR), im, i, res);
}

/* The same of an Android image opened with key as its anchor (NULL:
 * none), for an action that writes when how asks one. */
static int avb_check(const char *path, const char *key, unsigned how,
		     fv_failure_fn fn, void *ctx, fv_result **res)
{
	struct fv_open_request rq = {
		.size = sizeof(rq),
		.image = path,
		.container = "avb",
		.writes = (how & REPAIR) && !(how & FV_REPAIR_DRY_RUN)};
	fv_options o = {.size = sizeof(o), .key = key};
	fv_image *im = NULL;
	int r = fv_open(&rq, &o, &im);

	*res = NULL;
	if (!r)
		r = image_check(im, 0, &o, how, fn, ctx, res);
	fv_image_free(im);
	return r;
}

static void setup(void)
{
	t_parity = NULL;
	t_sig = NULL;
	strcpy(dir, "/tmp/fv-api-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(hash, sizeof(hash), "%s/hash", dir);
	snprintf(fec, sizeof(fec), "%s/fec", dir);
	image = malloc((size_t)BLOCKS * BS);
	fill(image, (size_t)BLOCKS * BS, 7);
	write_file(data, image, (size_t)BLOCKS * BS);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(image);
}

/* A PEM RSA key of bits into path. */
static void make_key(const char *path, unsigned bits)
{
	EVP_PKEY *k = EVP_RSA_gen(bits);
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL),
			 1);
	fclose(f);
	EVP_PKEY_free(k);
}

/* What an image opened is (fv_image_info), and its pair i. */
static struct fv_image_info img_info(const fv_image *im)
{
	struct fv_image_info in = {.size = sizeof(in)};

	ck_assert_int_eq(fv_image_info(im, &in), 0);
	return in;
}

static struct fv_image_pair_info img_pair(const fv_image *im, size_t i)
{
	struct fv_image_pair_info p = {.size = sizeof(p)};

	ck_assert_int_eq(fv_image_pair_info(im, i, &p), 0);
	return p;
}

/* An Android image read for showing (fv_open's show), and its vbmeta. */
static const fv_avb *image_shown(const char *path, fv_image **im)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = path, .show = 1};

	ck_assert_int_eq(fv_open(&rq, NULL, im), 0);
	ck_assert_ptr_nonnull(img_info(*im).avb);
	return img_info(*im).avb;
}

/* An Android image's fv_avb_info, and its descriptor i. */
static struct fv_avb_info avb_info(const fv_avb *a)
{
	struct fv_avb_info in = {.size = sizeof(in)};

	ck_assert_int_eq(fv_avb_info(a, &in), 0);
	return in;
}

static struct fv_avb_descriptor avb_desc(const fv_avb *a, size_t i)
{
	struct fv_avb_descriptor d = {.size = sizeof(d)};

	ck_assert_int_eq(fv_avb_descriptor(a, i, &d), 0);
	return d;
}

/* The parameters of path's superblock at p->hash_offset into p, read
 * through the door (a tree opened alone, as dump opens it). */
static int sb_params(fv_params *p, const char *path)
{
	struct fv_open_request rq = {.size = sizeof(rq),
				     .data = path,
				     .hash = path,
				     .hash_offset = p->hash_offset};
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	fv_image *im;
	int r;

	if ((r = fv_open(&rq, NULL, &im)))
		return r;
	if (!(r = fv_image_pair_info(im, 0, &pi)))
		*p = *pi.params;
	fv_image_free(im);
	return r;
}

START_TEST(android_images)
{
	char img[96], key[96], other[96];
	uint8_t salt[8] = {1, 2, 3, 4, 5, 6, 7, 8}, root[32];
	struct fv_vbmeta_property prop = {"com.x", (const uint8_t *)"v1", 2};
	const char *cmdline = "quiet";
	struct fv_vbmeta_request vo = {.size = sizeof(vo),
				       .algorithm = "SHA256_RSA2048",
				       .rollback_index = 9,
				       .properties = &prop,
				       .nproperties = 1,
				       .cmdlines = &cmdline,
				       .ncmdlines = 1};
	struct fv_footer_request fo = {.size = sizeof(fo),
				       .kind = FV_FOOTER_HASHTREE,
				       .partition_name = "system",
				       .hash = "sha256",
				       .block_size = BS,
				       .salt = salt,
				       .salt_len = sizeof(salt),
				       .flags = FV_FOOTER_SALT_GIVEN,
				       .fec_roots = 2,
				       .vbmeta = &vo};
	fv_options two_ = {.size = sizeof(two_)}, *two = &two_;
	const fv_avb *a;
	fv_image *im;
	fv_params *p;
	fv_result *res;
	uint64_t size, toff, tsize, foff, fsize;
	unsigned roots;
	char hex[65];

	snprintf(img, sizeof(img), "%s/system.img", dir);
	snprintf(key, sizeof(key), "%s/k.pem", dir);
	snprintf(other, sizeof(other), "%s/k2.pem", dir);
	write_file(img, image, (size_t)BLOCKS * BS);
	make_key(key, 2048);
	make_key(other, 2048);
	/* add_hashtree_footer, as the command's avb subcommand makes it */
	vo.key = key;
	two->threads = 2;
	ck_assert_msg(fv_avb_add_footer(img, &fo, two) == 0, "%s",
		      fv_last_error());
	/* the root the descriptor must have: the data's tree, built apart */
	p = params_new();
	params_salt(p, salt, sizeof(salt));
	p->superblock = 0;
	p->data_blocks = BLOCKS;
	ck_assert_int_eq(t_format(p, data, hash, NULL, &res), 0);
	ck_assert_uint_eq(root_of(res, root, sizeof(root)), 32);
	fv_result_free(res);
	free(p);
	for (int i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", root[i]);

	ck_assert_int_eq(image_open(img, "avb", NULL, &im), 0);
	ck_assert_ptr_nonnull(a = img_info(im).avb);
	{
		struct fv_avb_info in = avb_info(a);

		ck_assert_str_eq(in.partition_name, "system");
		ck_assert_str_eq(in.root_hex, hex);
		ck_assert_str_eq(in.header.algorithm, "SHA256_RSA2048");
		ck_assert_uint_eq(in.header.rollback_index, 9);
		size = in.image_size, toff = in.tree_offset;
		tsize = in.tree_size, roots = in.fec_roots;
		foff = in.fec_offset, fsize = in.fec_size;
		/* a smaller size than the first member's end refused */
		in.size = 4;
		ck_assert_int_eq(fv_avb_info(a, &in), -EINVAL);
	}
	/* 300 blocks: 3 leaf blocks and a top block; 304 blocks covered */
	ck_assert_uint_eq(size, (uint64_t)BLOCKS * BS);
	ck_assert_uint_eq(toff, size);
	ck_assert_uint_eq(tsize, 4 * BS);
	ck_assert_uint_eq(roots, 2);
	ck_assert_uint_eq(foff, toff + tsize);
	ck_assert_uint_eq(fsize, 2 * 2 * BS);
	{
		struct fv_image_pair_info pi = img_pair(im, 0);

		ck_assert_uint_eq(pi.params->data_blocks, BLOCKS);
		ck_assert_uint_eq(pi.params->hash_offset, toff);
		ck_assert_int_eq(pi.params->superblock, 0);
	}
	fv_image_free(im);
	ck_assert_int_eq(avb_check(img, NULL, 0, NULL, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);

	poke(img, 7 * BS + 100);
	ck_assert_int_eq(avb_check(img, NULL, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	fv_result_free(res);
	/* a signed image is repaired only once its signer is checked */
	ck_assert_int_eq(avb_check(img, NULL, REPAIR, NULL, NULL, &res),
			 -EINVAL);
	ck_assert_int_eq(avb_check(img, other, REPAIR, NULL, NULL, &res),
			 -EPERM);
	ck_assert_int_eq(avb_check(img, key, REPAIR, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);

	/* the same image through the container-neutral handle */
	{
		fv_options o_ = {.size = sizeof(o_)}, *o = &o_;

		ck_assert_int_eq(image_open(img, NULL, NULL, &im), 0);
		ck_assert_str_eq(img_info(im).container, "avb");
		ck_assert_uint_eq(img_info(im).pairs, 1);
		ck_assert_str_eq(img_pair(im, 0).name, "system");
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNCHECKED);
		/* not a disk image: no table, no disk image pairs or signers */
		{
			struct fv_image_pair_info pi = {.size = sizeof(pi)};
			char *who = NULL;

			ck_assert_uint_eq(img_info(im).disk.size, 0);
			ck_assert_ptr_null(img_info(im).disk.disk_uuid);
			ck_assert_uint_eq(img_pair(im, 0).ddi.size, 0);
			ck_assert_ptr_null(img_pair(im, 0).ddi.role);
			ck_assert_int_eq(fv_image_pair_info(im, 1, &pi), -EINVAL);
			pi.size = 4;
			ck_assert_int_eq(fv_image_pair_info(im, 0, &pi), -EINVAL);
			ck_assert_int_eq(fv_image_info(NULL, NULL), -EINVAL);
			ck_assert_int_eq(fv_image_signer(im, 0, &who), -EINVAL);
			ck_assert_ptr_null(who);
		}
		poke(img, 9 * BS + 1);
		ck_assert_int_eq(image_check(im, 0, NULL, 0, NULL, NULL, &res),
				 0);
		ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
		fv_result_free(res);
		/* a write with the signer unchecked: refused */
		ck_assert_int_eq(
			image_check(im, 0, NULL, REPAIR, NULL, NULL, &res),
			-EINVAL);
		ck_assert_int_eq(image_check(im, 1, NULL, 0, NULL, NULL, &res),
				 -EINVAL);
		fv_image_free(im);
		/* a certificate for a vbmeta: the wrong anchor */
		o->trusted_certs = (const char *const[]){key};
		o->ntrusted_certs = 1;
		ck_assert_int_eq(image_open(img, NULL, o, &im), -EINVAL);
		o->trusted_certs = NULL;
		o->ntrusted_certs = 0;
		o->key = other;
		ck_assert_int_eq(image_open(img, NULL, o, &im), -EPERM);
		o->key = key;
		ck_assert_int_eq(image_open(img, "avb", o, &im), 0);
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
		ck_assert_int_eq(
			image_check(im, 0, o, REPAIR, NULL, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		fv_result_free(res);
		fv_image_free(im);
		ck_assert_int_eq(image_open(img, "ddi", o, &im), -EINVAL);
	}

	/* read as it is, then judged; the pair as a pair */
	{
		fv_options o_ = {.size = sizeof(o_)}, *o = &o_;

		ck_assert_int_eq(image_open(img, "avb", NULL, &im), 0);
		a = img_info(im).avb;
		struct fv_avb_info in = avb_info(a);

		ck_assert_int_eq(in.has_footer, 1);
		ck_assert_int_eq(in.has_hashtree, 1);
		ck_assert_int_eq(in.parity_unusable, 0);
		ck_assert_uint_eq(strlen(in.header.public_key_sha1), 40);
		ck_assert_str_eq(in.header.release, "avbtool 1.3.0");
		/* a raw image: not read through a sparse chunk list */
		ck_assert_int_eq(in.sparse, 0);
		/* what info_image shows, one type a descriptor */
		{
			struct fv_avb_footer ft = in.footer;
			struct fv_avb_header hd = in.header;
			struct fv_avb_hashtree t;
			struct fv_avb_property pp;
			struct fv_avb_kernel_cmdline kc;
			struct fv_avb_descriptor d = {.size = sizeof(d)};
			size_t n = in.descriptors, it = n, ip = n, ik = n;

			ck_assert_uint_eq(ft.size, sizeof(ft));
			ck_assert_uint_eq(ft.original_image_size,
					  (uint64_t)BLOCKS * BS);
			ck_assert_str_eq(hd.algorithm, "SHA256_RSA2048");
			ck_assert_uint_eq(hd.rollback_index, 9);
			ck_assert_uint_eq(hd.header_size, 256);
			ck_assert_uint_eq(n, 3);
			for (size_t i = 0; i < n; i++) {
				uint64_t tag = avb_desc(a, i).tag;

				ck_assert_uint_gt(avb_desc(a, i).bytes, 0);
				it = tag == FV_AVB_HASHTREE ? i : it;
				ip = tag == FV_AVB_PROPERTY ? i : ip;
				ik = tag == FV_AVB_KERNEL_CMDLINE ? i : ik;
			}
			ck_assert_uint_lt(it, n);
			t = avb_desc(a, it).hashtree;
			ck_assert_uint_eq(t.size, sizeof(t));
			ck_assert_uint_eq(t.tree_offset, toff);
			ck_assert_uint_eq(t.fec_num_roots, 2);
			ck_assert_uint_eq(t.partition_name_len, 6);
			ck_assert_int_eq(memcmp(t.partition_name, "system", 6),
					 0);
			ck_assert_uint_eq(t.salt_len, sizeof(salt));
			ck_assert_uint_eq(t.root_digest_len, 32);
			pp = avb_desc(a, ip).property;
			ck_assert_uint_eq(pp.value_len, 2);
			ck_assert_int_eq(memcmp(pp.key, "com.x", 5), 0);
			kc = avb_desc(a, ik).kernel_cmdline;
			ck_assert_uint_eq(kc.cmdline_len, 5);
			/* no such descriptor, or too small a structure */
			ck_assert_int_eq(fv_avb_descriptor(a, n, &d), -EINVAL);
			d.size = 8;
			ck_assert_int_eq(fv_avb_descriptor(a, 0, &d), -EINVAL);
			/* verify_image's steps */
			{
				char *path, shown[64];

				ck_assert_int_eq(
					fv_avb_described_image(a, it, &path),
					0);
				ck_assert_str_eq(path, img);
				fv_free(path);
				ck_assert_str_eq(fv_name_shown("a\nb\\", 4,
							       shown,
							       sizeof(shown)),
						 "a\\x0ab\\x5c");
			}
		}
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNCHECKED);
		fv_image_free(im);
		o->key = other;
		ck_assert_int_eq(image_open(img, "avb", o, &im), -EPERM);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "not by"));
		o->key = key;
		ck_assert_int_eq(image_open(img, "avb", o, &im), 0);
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
		ck_assert_str_eq(img_pair(im, 0).root_hex, hex);
		ck_assert_str_eq(img_pair(im, 0).fec, img);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_CHECK);
		fv_result_free(res);
		fv_image_free(im);
	}

	/* not an Android image; a vbmeta whose signature fails */
	ck_assert_int_eq(image_open(data, "avb", NULL, &im), -EINVAL);
	poke(img, foff + fsize + 300); /* in the vbmeta's auxiliary block */
	ck_assert_int_eq(image_open(img, "avb", NULL, &im), -EPERM);
	/* shown as it is, never acted on; its signature checked on asking */
	{
		struct fv_open_request rq = {
			.size = sizeof(rq), .image = img, .show = 1};
		const fv_avb *shown = image_shown(img, &im);

		ck_assert_uint_eq(avb_info(shown).descriptors, 3);
		ck_assert_uint_eq(img_info(im).pairs, 0);
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNCHECKED);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), -EINVAL);
		ck_assert_ptr_nonnull(
			strstr(fv_last_error(), "read for showing"));
		fv_image_free(im);
		/* the image alone: no anchor, nothing else, no other
		 * container */
		rq.writes = 1;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "writes"));
		rq.writes = 0;
		two->key = key;
		ck_assert_int_eq(fv_open(&rq, two, &im), -EINVAL);
		two->key = NULL;
		rq.container = "ddi";
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		rq.container = "avb";
		rq.image = data;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	}
}
END_TEST

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
	snprintf(p.uuid, sizeof(p.uuid), "12345678-1234-4234-8234-123456789ABC");
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

		ck_assert_int_eq(fv_params_layout(&p, &off, &blocks, &bytes), 0);
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

struct seen {
	unsigned n;
	enum fv_failure_kind kind[8];
	uint64_t block[8], offset[8];
	unsigned level[8];
	uint64_t progress_done, progress_total;
	char passes[128]; /* the passes named, '|' between */
};

static void on_failure(void *ctx, enum fv_failure_kind kind, uint64_t block,
		       uint64_t offset, unsigned level)
{
	struct seen *s = ctx;

	if (s->n < 8) {
		s->kind[s->n] = kind;
		s->block[s->n] = block;
		s->offset[s->n] = offset;
		s->level[s->n] = level;
	}
	s->n++;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct seen *s = ctx;

	s->progress_done = done;
	s->progress_total = total;
}

static void on_pass(void *ctx, const char *pass)
{
	struct seen *s = ctx;
	size_t n = strlen(s->passes);

	snprintf(s->passes + n, sizeof(s->passes) - n, "%s%s", n ? "|" : "",
		 pass);
}

START_TEST(format_verify_and_failures)
{
	fv_params *p = params_new(), *q = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	struct seen s = {0};
	uint8_t root[64];
	char root_hex[65], uuid[37], uuid2[37];


	o->progress = on_progress;
	o->progress_ctx = &s;
	o->pass = on_pass;
	o->threads = 2;
	ck_assert_int_eq(t_format(p, data, hash, o, &made), 0);
	/* one pass, named, its progress counted from 0 to its total */
	ck_assert_str_eq(s.passes, "hash data");
	ck_assert_uint_eq(p->data_blocks, BLOCKS); /* filled in */
	ck_assert_uint_eq(root_of(made, root, sizeof(root)), 32);
	ck_assert_uint_eq(strlen(rpt(made).root_hex), 64);
	ck_assert_str_eq(rpt(made).hashing_path, "fast");
	ck_assert_uint_eq(s.progress_done, s.progress_total);
	ck_assert_uint_gt(s.progress_total, 0);
	strcpy(root_hex, rpt(made).root_hex);
	fv_result_free(made);

	/* the superblock gives the same parameters back */
	ck_assert_int_eq(sb_params(q, hash), 0);
	snprintf(uuid, 37, "%s", p->uuid);
	snprintf(uuid2, 37, "%s", q->uuid);
	ck_assert_str_eq(uuid, uuid2);
	ck_assert_uint_eq(q->salt_len, p->salt_len);
	ck_assert(!memcmp(q->salt, p->salt, 32));
	ck_assert_uint_eq(q->data_blocks, BLOCKS);

	/* intact, on one thread and with the data mapped */
	o->threads = 1;
	o->map = 1;
	ck_assert_int_eq(
		t_verify(q, data, hash, root_hex, o, on_failure, &s, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	ck_assert_int_eq(rpt(res).root_matches, 1);
	ck_assert_uint_eq(s.n, 0);
	fv_result_free(res);

	/* a bad leaf hash block and a bad data block elsewhere, each named,
	 * top-down: hash block 2 (after the superblock and the top block)
	 * holds the leaves of data blocks 0..127, so those are unchecked,
	 * not blamed (data block 7 too); data block 200 is under hash block
	 * 3, which is intact */
	poke(data, 7 * BS + 100);
	poke(data, 200 * BS + 9);
	poke(hash, 2 * BS + 3 * 32);
	ck_assert_int_eq(
		t_verify(q, data, hash, root_hex, NULL, on_failure, &s, &res),
		0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_int_eq(rpt(res).root_matches, 1);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(rpt(res).bad_hash_blocks, 1);
	ck_assert_uint_eq(rpt(res).bad_padding, 0);
	ck_assert_uint_eq(rpt(res).unreadable, 0);
	{
		struct fv_report rep = rpt(res);

		ck_assert_uint_eq(rep.unchecked_data_blocks, 128);
		ck_assert_uint_eq(rep.unchecked_hash_blocks, 0);
	}
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(s.kind[0], FV_BAD_HASH_BLOCK);
	ck_assert_uint_eq(s.block[0], 2);
	ck_assert_uint_eq(s.offset[0], 2 * BS);
	ck_assert_uint_eq(s.level[0], 0);
	ck_assert_int_eq(s.kind[1], FV_BAD_DATA_BLOCK);
	ck_assert_uint_eq(s.block[1], 200);
	ck_assert_uint_eq(s.offset[1], 200 * BS);
	fv_result_free(res);

	/* a wrong root: not intact, the top does not match, no block named */
	s.n = 0;
	root_hex[0] = root_hex[0] == '0' ? '1' : '0';
	ck_assert_int_eq(
		t_verify(q, data, hash, root_hex, NULL, on_failure, &s, &res),
		0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_int_eq(rpt(res).root_matches, 0);
	ck_assert_int_eq(rpt(res).root_first, 1);
	ck_assert_uint_eq(s.n, 0);
	fv_result_free(res);

	/* errors: bad root text, a missing file, named in the message */
	ck_assert_int_eq(
		t_verify(q, data, hash, "abc", NULL, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(strstr(fv_last_error(),
			      "invalid root hash string specified: 'abc'"));
	ck_assert_int_eq(t_verify(q, "/nonexistent/d", hash, root_hex, NULL,
				   NULL, NULL, &res),
			 -ENODEV);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "/nonexistent/d"));
	ck_assert_int_eq(sb_params(q, data), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), data));
	free(p);
	free(q);
}
END_TEST

START_TEST(repair_from_parity)
{
	fv_params *p = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	char root_hex[65];

	ck_assert_int_eq(set_parity(fec, 4), 0);
	ck_assert_int_eq(t_format(p, data, hash, o, &made), 0);
	strcpy(root_hex, rpt(made).root_hex);
	fv_result_free(made);
	ck_assert_int_eq(set_parity(fec, 0), 0); /* inferred */
	{
		struct fv_layout l;
		fv_image *im;

		/* 300 data blocks, 4 tree blocks: 304 covered, 2 rounds */
		ck_assert_int_eq(pair_open(p, data, hash, root_hex, o, 0, &im),
				 0);
		ck_assert_msg(fv_describe(im, 0, o, &res) == 0, "%s",
			      fv_last_error());
		l = layout_of(res);
		ck_assert_uint_eq(l.fec_roots, 4);
		ck_assert_uint_eq(l.fec_blocks, 304);
		ck_assert_uint_eq(l.fec_parity_bytes, 2 * 4 * BS);
		fv_result_free(res);
		fv_image_free(im);
	}
	poke(data, 3 * BS);
	poke(data, 150 * BS + 9);
	poke(data, 299 * BS + 4095);

	/* verify with parity: the damage, and that it is repairable */
	ck_assert_int_eq(
		t_verify(p, data, hash, root_hex, o, NULL, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 3);
	ck_assert_uint_eq(rpt(res).repaired, 3);
	fv_result_free(res);
	/* a dry run changes nothing */
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o,
				   FV_REPAIR_DRY_RUN, NULL, NULL, &res),
			 0);
	ck_assert_uint_eq(rpt(res).repaired, 3);
	ck_assert(!same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	/* the repair restores every byte */
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).repaired, 3);
	ck_assert_uint_eq(rpt(res).unrepaired, 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	/* damaged parity: counted and left alone, unless asked */
	poke(fec, 5);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 1);
	fv_result_free(res);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 1);
	fv_result_free(res);
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o,
				   FV_REPAIR_REWRITE_PARITY, NULL, NULL, &res),
			 0);
	fv_result_free(res);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 0);
	fv_result_free(res);
	/* parity that is not this image's (every codeword disagrees): verify
	 * fails naming it, as a rewrite (or a dry run of one) refuses it; a
	 * repair that only reads it counts it */
	for (uint64_t off = 0; off < 2 * 4 * BS; off += 4)
		poke(fec, off);
	ck_assert_int_eq(
		t_verify(p, data, hash, root_hex, o, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), fec));
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "it is not this image's parity"));
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o,
				   FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY,
				   NULL, NULL, &res),
			 -EINVAL);
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o,
				   FV_REPAIR_DRY_RUN, NULL, NULL, &res),
			 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 2 * BS);
	fv_result_free(res);
	for (uint64_t off = 0; off < 2 * 4 * BS; off += 4)
		poke(fec, off);
	ck_assert_int_eq(
		t_verify(p, data, hash, root_hex, o, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 0);
	fv_result_free(res);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 4, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "unknown repair flags"));
	/* repair without parity is an error */
	set_parity(NULL, 0);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, NULL, 0, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "FEC"));
	free(p);
}
END_TEST

/* A P-256 key and a self-signed certificate, as PEM files. */
static void make_signer(const char *key_path, const char *cert_path)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *n;
	FILE *f;

	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(x);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), -60);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, k);
	n = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
				   (const unsigned char *)"fv api test", -1, -1,
				   0);
	X509_set_issuer_name(x, n);
	ck_assert_int_gt(X509_sign(x, k, EVP_sha256()), 0);
	f = fopen(key_path, "w");
	PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	fclose(f);
	f = fopen(cert_path, "w");
	PEM_write_X509(f, x);
	fclose(f);
	X509_free(x);
	EVP_PKEY_free(k);
}

/* root signed by key and cert, as fv_sign's plainest request. */
static int sign_root(const char *key, const char *cert, const char *root,
		     uint8_t **der, size_t *len)
{
	struct fv_sign_request q = {.size = sizeof(q)};

	q.key = key;
	q.cert = cert;
	return fv_sign(&q, root, der, len);
}

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
	ck_assert_int_eq(
		sign_root("/nonexistent/k", cert, root, &der, &len),
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
		q.flags = 2;
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "flags"));
		q.flags = FV_SIGN_EMBED_CERT;
		q.size = offsetof(struct fv_sign_request, flags);
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), -EINVAL);
		q.size = sizeof(q);
		q.passphrase = "unused";
		q.pkcs11_module = NULL;
		ck_assert_int_eq(fv_sign(&q, root, &der, &len), 0);
		ck_assert_int_eq(
			fv_ddi_signature_json(root, cert, der, len, &json), 0);
		ck_assert_ptr_nonnull(strstr(json, "\"rootHash\""));
		ck_assert_ptr_nonnull(strstr(json, "certificateFingerprint"));
		fv_free(json);
		fv_free(der);
		ck_assert_int_eq(
			fv_input_read(cert, "certificate", 1 << 16, &in, &n),
			0);
		ck_assert_ptr_nonnull(strstr((char *)in, "BEGIN CERTIFICATE"));
		ck_assert_uint_eq(strlen((char *)in), n);
		fv_free(in);
		ck_assert_int_eq(
			fv_input_read(cert, "certificate", 16, &in, &n),
			-EINVAL);
		ck_assert_int_eq(
			fv_input_read("/nonexistent/f", "file", 16, &in, &n),
			-EINVAL);
	}
}
END_TEST

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* path opened with o: a sidecar image whose one pair has the verdict
 * want and checks out. */
static void image_intact(const char *path, fv_options *o,
			 enum fv_trust want)
{
	fv_image *im;
	fv_result *res;

	ck_assert_int_eq(image_open(path, NULL, o, &im), 0);
	ck_assert_str_eq(img_info(im).container, "sidecar");
	ck_assert_int_eq(img_info(im).trust, want);
	ck_assert_int_eq(image_check(im, 0, o, 0, NULL, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);
}

/* An image with sidecar files through the door: unsigned, then
 * signed (its signer not checked without a certificate, checked with
 * one, refused with a certificate for an unsigned image). */
START_TEST(sidecar_images)
{
	char os[96], tree[96], roothash[96], sig[96], key[128], cert[128];
	const char *trusted[1] = {cert};
	fv_params *p = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made;
	fv_image *im;
	uint8_t *der;
	size_t len;
	FILE *f;

	snprintf(os, sizeof(os), "%s/os.raw", dir);
	snprintf(tree, sizeof(tree), "%s/os.verity", dir);
	snprintf(roothash, sizeof(roothash), "%s/os.roothash", dir);
	snprintf(sig, sizeof(sig), "%s/os.roothash.p7s", dir);
	snprintf(key, sizeof(key), "%s/sk.pem", dir);
	snprintf(cert, sizeof(cert), "%s/sc.pem", dir);
	write_file(os, image, (size_t)BLOCKS * BS);
	ck_assert_int_eq(t_format(p, os, tree, NULL, &made), 0);
	write_text(roothash, rpt(made).root_hex);
	image_intact(os, NULL, FV_TRUST_UNSIGNED);
	o->trusted_certs = trusted;
	o->ntrusted_certs = 1;
	ck_assert_int_eq(image_open(os, NULL, o, &im), -EPERM);
	make_signer(key, cert);
	ck_assert_int_eq(
		sign_root(key, cert, rpt(made).root_hex, &der, &len), 0);
	ck_assert_ptr_nonnull(f = fopen(sig, "wb"));
	ck_assert_uint_eq(fwrite(der, 1, len, f), len);
	fclose(f);
	fv_free(der);
	image_intact(os, NULL, FV_TRUST_UNCHECKED);
	image_intact(os, o, FV_TRUST_CHECK);
	{
		fv_result *res;

		ck_assert_int_eq(image_open(os, NULL, o, &im), 0);
		ck_assert_int_eq(fv_verify(im, 0, o, &res), 0);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_CHECK);
		ck_assert_ptr_nonnull(strstr(rpt(res).signer, "CN="));
		ck_assert_str_eq(rpt(res).signature_warning, "");
		ck_assert_uint_eq(strlen(rpt(res).signer_fingerprint), 64);
		fv_result_free(res);
		/* without the certificate: checked blocks, unchecked signer */
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_UNCHECKED);
		ck_assert_str_eq(rpt(res).signer, "");
		fv_result_free(res);
		fv_image_free(im);
	}
	fv_result_free(made);
	free(p);
}
END_TEST

/* A signed root hash: verify and repair check the signature first, and
 * a repair never writes on an unchecked or failing one. */
START_TEST(repair_checks_signature)
{
	char key[128], cert[128], other_key[128], other[128], root_hex[65];
	char saved;
	const char *trusted[1] = {cert}, *untrusted[1] = {other};
	fv_params *p = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	uint8_t *der;
	size_t len;

	snprintf(key, sizeof(key), "%s/rkey.pem", dir);
	snprintf(cert, sizeof(cert), "%s/rcert.pem", dir);
	snprintf(other_key, sizeof(other_key), "%s/okey.pem", dir);
	snprintf(other, sizeof(other), "%s/ocert.pem", dir);
	make_signer(key, cert);
	make_signer(other_key, other);
	ck_assert_int_eq(set_parity(fec, 2), 0);
	ck_assert_int_eq(t_format(p, data, hash, o, &made), 0);
	strcpy(root_hex, rpt(made).root_hex);
	fv_result_free(made);
	ck_assert_int_eq(sign_root(key, cert, root_hex, &der, &len), 0);
	ck_assert_int_eq(set_signature(der, len), 0);
	fv_free(der);
	poke(data, 7 * BS);
	/* no certificate to check it against: refused */
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "nothing to check it against"));
	ck_assert_int_eq(
		t_verify(p, data, hash, root_hex, o, NULL, NULL, &res),
		-EINVAL);
	/* another signer trusted: refused, nothing written */
	o->trusted_certs = untrusted;
	o->ntrusted_certs = 1;
	ck_assert_msg(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res) ==
			-EPERM,
		"%s", fv_last_error());
	ck_assert(!same_file(data, image, (size_t)BLOCKS * BS));
	/* another root hash under the right signer: refused */
	o->trusted_certs = trusted;
	o->ntrusted_certs = 1;
	saved = root_hex[5];
	root_hex[5] = saved == 'a' ? 'b' : 'a';
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res),
		-EPERM);
	ck_assert(!same_file(data, image, (size_t)BLOCKS * BS));
	root_hex[5] = saved;
	/* the signer trusted: repaired */
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	/* the pair's signature alone, as fv_activate checks it before
	 * mapping (a name the kernel would refuse, so that nothing is
	 * mapped: refused for it only once the signer passed): the signer
	 * trusted, then another one */
	{
		struct fv_open_request rq = {.size = sizeof(rq),
					     .data = data,
					     .hash = hash,
					     .signature_path = t_sig,
					     .root_hex = root_hex,
					     .activates = 1};
		fv_image *im;

		ck_assert_int_eq(fv_open(&rq, o, &im), 0);
		ck_assert_int_eq(img_pair(im, 0).trust, FV_TRUST_CHECK);
		res = (fv_result *)1;
		ck_assert_int_eq(fv_activate("bad/name", im, 0, o, &res),
				 -EINVAL);
		/* the check's verdict, also when the mapping then fails */
		{
			struct fv_report rep = {.size = sizeof(rep)};

			ck_assert_ptr_nonnull(res);
			ck_assert_int_eq(fv_result_report(res, &rep), 0);
			ck_assert_int_eq(rep.trust, FV_TRUST_CHECK);
			ck_assert_ptr_nonnull(strstr(rep.signer, "CN="));
			fv_result_free(res);
			res = (fv_result *)1;
		}
		ck_assert_ptr_null(strstr(fv_last_error(), "signer"));
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "bad/name"));
		o->trusted_certs = untrusted;
		o->ntrusted_certs = 1;
		ck_assert_int_eq(fv_activate("bad/name", im, 0, o, &res),
				 -EPERM);
		ck_assert_ptr_null(res);
		fv_image_free(im);
		/* opened for the untrusted signer: refused the same way */
		ck_assert_int_eq(fv_open(&rq, o, &im), 0);
		ck_assert_int_eq(fv_activate("bad/name", im, 0, o, NULL),
				 -EPERM);
		fv_image_free(im);
	}
	o->trusted_certs = NULL;
	o->ntrusted_certs = 0;
	free(p);
}
END_TEST

/* Each errno the header documents, from the case it names. */
/* Failures and blocks as the pair actions' callbacks see them. */
struct seen_pair {
	unsigned failures, repaired, left;
	uint64_t first_block;
};

static void seen_failure(void *c, enum fv_failure_kind kind, uint64_t block,
			 uint64_t offset, unsigned level)
{
	struct seen_pair *s = c;

	(void)kind;
	(void)offset;
	(void)level;
	if (!s->failures++)
		s->first_block = block;
}

static void seen_block(void *c, int repaired, enum fv_failure_kind kind,
		       uint64_t block, uint64_t offset, unsigned level)
{
	struct seen_pair *s = c;

	(void)kind;
	(void)block;
	(void)offset;
	(void)level;
	if (repaired)
		s->repaired++;
	else
		s->left++;
}

/* A pair made of its parts: format, dump, verify with failures, repair
 * from parity, each SHA-256 kernel; and an image's pair acted on. */
/* The door of a plain pair: its tree read from the superblock or given,
 * its parity and signature, judged once for the anchor and whether the
 * action writes. */
START_TEST(door)
{
	struct fv_open_request rq = {.size = sizeof(rq), .data = data,
				     .hash = hash};
	char key[128], cert[128], sig[128], root[65];
	const char *trusted[1] = {cert};
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	fv_image *im;
	uint8_t *der;
	size_t len;

	ck_assert_int_eq(set_parity(fec, 2), 0);
	{
		fv_params *p = params_new();

		ck_assert_int_eq(t_format(p, data, hash, NULL, &made), 0);
		free(p);
	}
	strcpy(root, rpt(made).root_hex);
	fv_result_free(made);
	/* the request checked */
	ck_assert_int_eq(fv_open(NULL, NULL, &im), -EINVAL);
	rq.size = 8;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	rq.size = sizeof(rq);
	rq.hash = NULL;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	rq.hash = hash;
	rq.container = "avb";
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "plain pair"));
	rq.container = "floppy";
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	rq.container = "plain";
	/* unsigned: read from its superblock, its parity given */
	rq.fec_path = fec;
	ck_assert_msg(fv_open(&rq, NULL, &im) == 0, "%s", fv_last_error());
	ck_assert_str_eq(img_info(im).container, "plain");
	ck_assert_uint_eq(img_info(im).pairs, 1);
	ck_assert_str_eq(img_pair(im, 0).name, "data");
	ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNSIGNED);
	ck_assert_ptr_null(img_info(im).avb);
	ck_assert_str_eq(img_pair(im, 0).fec, fec);
	ck_assert_uint_eq(img_pair(im, 0).params->data_blocks, BLOCKS);
	ck_assert_str_eq(img_pair(im, 0).root_hex, "");
	ck_assert_ptr_null(img_pair(im, 0).signature);
	/* no root given: nothing to check against */
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no root hash"));
	fv_image_free(im);
	/* the root given as the file holding it, or as text; not both */
	{
		char rf[128];

		snprintf(rf, sizeof(rf), "%s/root.hex", dir);
		write_text(rf, root);
		rq.root_hash_file = rf;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
		ck_assert_str_eq(img_pair(im, 0).root_hex, root);
		fv_image_free(im);
		rq.root_hex = root;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		rq.root_hash_file = NULL;
	}
	ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
	ck_assert_str_eq(img_pair(im, 0).root_hex, root);
	poke(data, 5 * BS);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	fv_result_free(res);
	fv_image_free(im);
	/* a superblock where there is none: refused, named */
	rq.hash_offset = 4096;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), hash));
	rq.hash_offset = 0;
	/* a key for a plain pair: the wrong anchor */
	snprintf(key, sizeof(key), "%s/dkey.pem", dir);
	snprintf(cert, sizeof(cert), "%s/dcert.pem", dir);
	snprintf(sig, sizeof(sig), "%s/root.p7s", dir);
	make_signer(key, cert);
	o->key = key;
	ck_assert_int_eq(fv_open(&rq, o, &im), -EINVAL);
	o->key = NULL;
	/* a signature given: refused with nothing to check it against,
	 * judged CHECK with a certificate, and a write allowed then */
	ck_assert_int_eq(sign_root(key, cert, root, &der, &len), 0);
	write_file(sig, der, len);
	fv_free(der);
	rq.signature_path = sig;
	ck_assert_int_eq(fv_open(&rq, o, &im), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "nothing to check"));
	o->trusted_certs = trusted;
	o->ntrusted_certs = 1;
	rq.writes = 1;
	ck_assert_msg(fv_open(&rq, o, &im) == 0, "%s", fv_last_error());
	ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
	ck_assert_str_eq(img_pair(im, 0).signature, sig);
	o->repair = 0;
	ck_assert_msg(fv_repair(im, 0, o, &res) == 0, "%s", fv_last_error());
	ck_assert_uint_eq(rpt(res).repaired, 1);
	ck_assert_int_eq(rpt(res).trust, FV_TRUST_CHECK);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	fv_image_free(im);
	/* the tree's parameters given: the pair's, no superblock read */
	{
		fv_params *p = params_new();

		rq.params = p;
		rq.signature_path = NULL;
		rq.writes = 0;
		p->data_blocks = 7;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
		ck_assert_uint_eq(img_pair(im, 0).params->data_blocks, 7);
		fv_image_free(im);
		/* parameters that do not hold: refused */
		p->hash_type = 2;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		free(p);
	}
}
END_TEST

START_TEST(pairs)
{
	struct fv_report small = {.size = offsetof(struct fv_report, root)};
	struct fv_report rep;
	struct fv_layout l;
	struct fv_fec_report f;
	struct fv_format_request fq = {.size = sizeof(fq),
				       .data = data,
				       .hash = hash,
				       .fec_path = fec,
				       .fec_roots = 25};
	struct fv_open_request rq = {.size = sizeof(rq), .data = data,
				     .hash = hash};
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	struct seen_pair s = {0};
	fv_image *im, *other;
	fv_params *p = params_new();
	char root[65], sig[128];

	/* a pair made of its parts, its tree's parameters given: nothing
	 * read yet, no root to check against */
	rq.hash = NULL;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_ptr_null(im);
	rq.hash = hash;
	rq.params = p;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
	ck_assert_str_eq(img_pair(im, 0).data, data);
	ck_assert_str_eq(img_pair(im, 0).hash, hash);
	ck_assert_ptr_null(img_pair(im, 0).fec);
	ck_assert_str_eq(img_pair(im, 0).root_hex, "");
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no root hash"));
	fv_image_free(im);
	rq.params = NULL;
	/* format: 25 roots refused, 2 written; the parameters as written */
	ck_assert_int_eq(fv_format(&fq, NULL, &made), -EINVAL);
	ck_assert_ptr_null(made);
	fq.params = p;
	ck_assert_int_eq(fv_format(&fq, NULL, &made), -EINVAL);
	fq.fec_roots = 2;
	ck_assert_int_eq(fv_format(&fq, NULL, &made), 0);
	rep = rpt(made);
	ck_assert(rep.has & FV_REPORT_PARAMS);
	ck_assert_uint_eq(rep.params.size, sizeof(rep.params));
	ck_assert_uint_eq(rep.params.data_blocks, BLOCKS);
	ck_assert_uint_eq(p->data_blocks, 0); /* the caller's untouched */
	snprintf(root, sizeof(root), "%s", rep.root_hex);
	/* a report as an older program knows it: what fits, no more */
	ck_assert_int_eq(fv_result_report(NULL, &rep), -EINVAL);
	ck_assert_int_eq(fv_result_report(made, NULL), -EINVAL);
	ck_assert_int_eq(fv_result_report(made, &small), -EINVAL);
	memset(&rep, 0xff, sizeof(rep));
	rep.size = offsetof(struct fv_report, root_hex);
	ck_assert_int_eq(fv_result_report(made, &rep), 0);
	ck_assert_uint_eq(rep.size, offsetof(struct fv_report, root_hex));
	ck_assert_uint_eq(rep.root_size, 32);
	ck_assert_int_eq(rep.intact, -1); /* past size: untouched */
	rep = rpt(made);
	ck_assert_str_eq(rep.root_hex, root);
	ck_assert_int_eq(rep.intact, 0); /* format checks nothing */
	ck_assert_uint_eq(rep.has, FV_REPORT_LAYOUT | FV_REPORT_PARAMS);
	ck_assert_uint_eq(rep.fec.size, 0);
	ck_assert_uint_eq(rep.update.size, 0);
	l = layout_of(made);
	ck_assert_uint_eq(l.data_blocks, BLOCKS);
	ck_assert_uint_eq(l.data_bytes, (uint64_t)BLOCKS * BS);
	ck_assert_uint_eq(l.tree_offset, BS); /* after the superblock */
	ck_assert_uint_eq(l.tree_blocks, 4);
	ck_assert_uint_eq(l.levels, 2);
	ck_assert_uint_eq(l.digest_size, 32);
	ck_assert_uint_eq(l.fec_roots, 2);
	ck_assert_uint_eq(l.fec_blocks, BLOCKS + 4);
	fv_result_free(made);

	/* the same pair again from the superblock, its root as hex (the
	 * text checked: hex digits, as many as the hash's) */
	rq.root_hex = "xyz";
	ck_assert_int_eq(fv_open(&rq, NULL, &other), -EINVAL);
	ck_assert_int_eq(fv_last_error_param(), FV_PARAM_ROOT_HASH);
	rq.root_hex = "";
	ck_assert_int_eq(fv_open(&rq, NULL, &other), -EINVAL);
	rq.root_hex = root;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	{
		uint8_t bytes[32];
		char hex[65];
		fv_result *again;

		ck_assert_int_eq(fv_verify(other, 0, NULL, &res), 0);
		ck_assert_uint_eq(root_of(res, bytes, sizeof(bytes)), 32);
		/* the root's bytes, as hex in upper case: the same root */
		for (int i = 0; i < 32; i++)
			sprintf(hex + 2 * i, "%02X", bytes[i]);
		rq.root_hex = hex;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
		ck_assert_int_eq(strcasecmp(img_pair(im, 0).root_hex, root),
				 0);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &again), 0);
		ck_assert_int_eq(rpt(again).intact, 1);
		fv_result_free(again);
		fv_result_free(res);
		fv_image_free(im);
		rq.root_hex = root;
	}
	ck_assert_int_eq(fv_describe(other, 0, NULL, &res), 0);
	l = layout_of(res);
	ck_assert_uint_eq(l.fec_roots, 0); /* no parity given */
	ck_assert_uint_eq(l.tree_blocks, 4);
	fv_result_free(res);
	fv_image_free(other);
	/* the parity given, its roots told from its size; opened for the
	 * repairs below */
	rq.fec_path = fec;
	rq.writes = 1;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	ck_assert_int_eq(fv_describe(other, 0, NULL, &res), 0);
	l = layout_of(res);
	ck_assert_uint_eq(l.fec_roots, 2);
	ck_assert_int_eq(l.fec_roots_from, FV_ROOTS_INFERRED);
	fv_result_free(res);
	for (int k = FV_SHA256_FASTEST; k <= FV_SHA256_THREE_WAY; k++) {
		o->sha256 = k;
		ck_assert_int_eq(fv_verify(other, 0, o, &res), 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		ck_assert_str_eq(rpt(res).hashing_path, "fast");
		ck_assert(*rpt(res).hashing_reason);
		ck_assert(*rpt(res).hashing_kernel);
		ck_assert(*rpt(res).hashing_provider);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_UNSIGNED);
		ck_assert_str_eq(rpt(res).signer, "");
		fv_result_free(res);
	}
	o->sha256 = FV_SHA256_AVX512;
	o->sha256 = 5;
	ck_assert_int_eq(fv_verify(other, 0, o, &res), -EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_str_eq(fv_last_error(), "no SHA-256 kernel 5");
	o->sha256 = FV_SHA256_AVX512;

	/* a bad block: named as found, repairable, repaired */
	poke(data, 77 * BS + 9);
	o->failure = seen_failure;
	o->failure_ctx = &s;
	o->block = seen_block;
	o->block_ctx = &s;
	ck_assert_int_eq(fv_verify(other, 0, o, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_uint_eq(s.failures, 1);
	ck_assert_uint_eq(s.first_block, 77);
	ck_assert(rpt(res).has & FV_REPORT_FEC);
	f = rpt(res).fec;
	ck_assert_uint_eq(f.size, sizeof(f));
	ck_assert_uint_eq(f.bad_blocks, 1);
	ck_assert_uint_eq(f.repaired, 1);
	fv_result_free(res);
	o->repair = 4;
	ck_assert_int_eq(fv_repair(other, 0, o, &res), -EINVAL);
	ck_assert_int_eq(fv_verify(other, 0, o, &res), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "unknown repair flags 0x4");
	o->repair = FV_REPAIR_DRY_RUN;
	ck_assert_int_eq(fv_repair(other, 0, o, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 0); /* as found */
	fv_result_free(res);
	o->repair = 0;
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(fv_repair(other, 0, o, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	ck_assert_uint_eq(s.repaired, 1);
	ck_assert_uint_eq(s.left, 0);
	fv_result_free(res);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_image_free(other);

	/* without parity: no FEC report, no repair */
	rq.fec_path = NULL;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	ck_assert_int_eq(fv_verify(other, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).has, FV_REPORT_LAYOUT);
	ck_assert_uint_eq(rpt(res).fec.size, 0);
	ck_assert_uint_eq(rpt(res).repaired, 0);
	fv_result_free(res);
	ck_assert_int_eq(fv_repair(other, 0, NULL, &res), -EINVAL);
	fv_image_free(other);
	rq.writes = 0;

	/* a signature given with nothing to check it: the policy refuses */
	snprintf(sig, sizeof(sig), "%s/sig.p7s", dir);
	write_text(sig, "x");
	rq.signature_path = sig;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), -EINVAL);
	ck_assert_int_eq(fv_last_error_param(), FV_PARAM_TRUSTED_CERT);
	rq.signature_path = NULL;

	/* parameters given by hand: a wrong salt is a root mismatch */
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	*p = *img_pair(other, 0).params;
	fv_image_free(other);
	params_salt(p, (const uint8_t *)"s", 1);
	rq.params = p;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	ck_assert_int_eq(fv_verify(other, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).root_matches, 0);
	fv_result_free(res);
	fv_image_free(other);
	free(p);
}
END_TEST

/* An image's pair acts as the image does: what it reads, and each
 * action on it. */
START_TEST(image_pairs)
{
	char os[96], tree[96], roothash[96];
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	fv_params *p = params_new();
	fv_result *made, *res;
	fv_image *im;

	snprintf(os, sizeof(os), "%s/os.raw", dir);
	snprintf(tree, sizeof(tree), "%s/os.verity", dir);
	snprintf(roothash, sizeof(roothash), "%s/os.roothash", dir);
	write_file(os, image, (size_t)BLOCKS * BS);
	ck_assert_int_eq(t_format(p, os, tree, NULL, &made), 0);
	write_text(roothash, rpt(made).root_hex);
	ck_assert_int_eq(image_open(os, NULL, NULL, &im), 0);
	ck_assert_int_eq(fv_image_pair_info(im, 1, &pi), -EINVAL);
	ck_assert_int_eq(fv_verify(im, 1, NULL, &res), -EINVAL);
	ck_assert_int_eq(fv_describe(im, 1, NULL, &res), -EINVAL);
	ck_assert_str_eq(img_pair(im, 0).data, os);
	ck_assert_str_eq(img_pair(im, 0).hash, tree);
	ck_assert_str_eq(img_pair(im, 0).root_hex, rpt(made).root_hex);
	ck_assert_uint_eq(img_pair(im, 0).params->data_blocks, BLOCKS);
	poke(os, 5 * BS);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	fv_result_free(res);
	ck_assert_int_eq(image_check(im, 0, NULL, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	fv_result_free(res);
	ck_assert_int_eq(fv_describe(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(layout_of(res).data_blocks, BLOCKS);
	fv_result_free(res);
	fv_image_free(im);
	fv_result_free(made);
	free(p);
}
END_TEST

/* The files around pairs: root hash files, superblocks looked for,
 * sidecar names and pairs, outputs written whole, signatures read,
 * sparse images refused. */
START_TEST(files_around_pairs)
{
	char path[128], os[96], tree[96], roothash[96], sig[96], fecf[96];
	char hex[129], *t = NULL, *rh = NULL, *sg = NULL, *fc = NULL;
	static const uint8_t sparse[12] = {0x3a, 0xff, 0x26, 0xed, 1,  0,
					   0,    0,    28,   0,    12, 0};
	fv_params *p = params_new();
	fv_result *made, *res;
	unsigned removed;
	uint64_t off;
	uint8_t *der;
	size_t len;
	fv_image *im;

	/* a root hash file: digits, then only white space */
	snprintf(path, sizeof(path), "%s/root", dir);
	write_text(path, "00ff\n\n");
	ck_assert_int_eq(fv_root_hash_file_read(path, hex, sizeof(hex)), 0);
	ck_assert_str_eq(hex, "00ff");
	write_text(path, "00ff x");
	ck_assert_int_eq(fv_root_hash_file_read(path, hex, sizeof(hex)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "byte 5 is not a hex"));
	ck_assert_int_eq(fv_root_hash_file_read(path, hex, 3), -EINVAL);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(fv_root_hash_file_read(path, hex, sizeof(hex)),
			 -EINVAL);

	/* a superblock where it is, and where an appended tree's would be */
	ck_assert_int_eq(t_format(p, data, hash, NULL, &made), 0);
	ck_assert_int_eq(fv_superblock_probe(hash, 0), FV_SUPERBLOCK_FOUND);
	ck_assert_int_eq(fv_superblock_probe(data, 0), FV_SUPERBLOCK_NONE);
	ck_assert_int_eq(fv_superblock_probe(path, 0), FV_SUPERBLOCK_NONE);
	snprintf(path, sizeof(path), "%s/appended", dir);
	write_file(path, image, (size_t)BLOCKS * BS);
	p->hash_offset = (uint64_t)BLOCKS * BS;
	p->data_blocks = BLOCKS;
	ck_assert_int_eq(t_format(p, data, path, NULL, &res), 0);
	fv_result_free(res);
	ck_assert_int_eq(fv_superblock_search(path, 0, &off), 0);
	ck_assert_uint_eq(off, (uint64_t)BLOCKS * BS);
	ck_assert_int_eq(fv_superblock_search(path, off, &off), -ENOENT);
	ck_assert_int_eq(fv_params_check(p), 0);
	ck_assert_int_eq(fv_params_check(NULL), -EINVAL);

	/* the same storage, named twice */
	ck_assert_str_eq(fv_same_storage(data, data), "");
	ck_assert_ptr_null(fv_same_storage(data, hash));
	ck_assert_ptr_null(fv_same_storage(data, NULL));

	/* sidecar names and the sidecar pair */
	snprintf(os, sizeof(os), "%s/os.raw", dir);
	snprintf(tree, sizeof(tree), "%s/os.verity", dir);
	snprintf(roothash, sizeof(roothash), "%s/os.roothash", dir);
	snprintf(sig, sizeof(sig), "%s/os.roothash.p7s", dir);
	snprintf(fecf, sizeof(fecf), "%s/os.fec", dir);
	ck_assert_int_eq(fv_sidecar_names(os, &t, &rh, &sg, &fc), 0);
	ck_assert_str_eq(t, tree);
	ck_assert_str_eq(rh, roothash);
	ck_assert_str_eq(sg, sig);
	ck_assert_str_eq(fc, fecf);
	fv_free(t);
	fv_free(rh);
	fv_free(sg);
	fv_free(fc);
	write_file(os, image, (size_t)BLOCKS * BS);
	p->hash_offset = 0;
	p->data_blocks = 0;
	ck_assert_int_eq(t_format(p, os, tree, NULL, &res), 0);
	ck_assert_int_eq(fv_output_write(roothash, "the root hash file",
					 rpt(res).root_hex,
					 strlen(rpt(res).root_hex)),
			 0);
	fv_result_free(res);
	ck_assert_int_eq(image_open(os, "sidecar", NULL, &im), 0);
	ck_assert_str_eq(img_pair(im, 0).data, os);
	ck_assert_str_eq(img_pair(im, 0).hash, tree);
	ck_assert_ptr_null(img_pair(im, 0).fec);
	ck_assert_ptr_null(img_pair(im, 0).signature);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);

	/* stale sidecars removed, and said */
	write_text(sig, "x");
	write_text(fecf, "x");
	ck_assert_int_eq(fv_sidecar_prune(os, FV_SIDECAR_FEC, &removed), 0);
	ck_assert_uint_eq(removed, FV_SIDECAR_SIGNATURE);
	ck_assert_int_eq(access(fecf, F_OK), 0);
	ck_assert_int_eq(fv_sidecar_prune(os, 0, &removed), 0);
	ck_assert_uint_eq(removed, FV_SIDECAR_FEC);
	ck_assert_int_ne(access(fecf, F_OK), 0);
	ck_assert_int_eq(fv_sidecar_prune(os, 4, NULL), -EINVAL);

	/* a signature file read whole */
	write_text(sig, "abc");
	ck_assert_int_eq(fv_signature_read(sig, &der, &len), 0);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(memcmp(der, "abc", 3), 0);
	fv_free(der);
	ck_assert_int_eq(fv_signature_read(fecf, &der, &len), -EINVAL);

	/* an Android sparse image with sidecar files: its own bytes are the
	 * data (two blocks of its 8244 bytes), as the kernel maps them, not
	 * its 102 unsparsed blocks */
	{
		static uint8_t sp[28 + 12 + 2 * BS + 12];
		static const uint8_t head[28] = {
			0x3a, 0xff, 0x26, 0xed, 1,   0, 0, 0, 28, 0, 12, 0,
			0,    0x10, 0,    0,    102, 0, 0, 0, 2,  0, 0,  0};
		static const uint8_t raw[12] = {0xc1, 0xca, 0,    0,    2, 0,
						0,    0,    0x0c, 0x20, 0, 0};
		static const uint8_t skip[12] = {0xc3, 0xca, 0,  0, 100, 0,
						 0,    0,    12, 0, 0,   0};
		struct fv_layout l;
		char spt[128], sprh[128];

		memcpy(sp, head, sizeof(head));
		memcpy(sp + 28, raw, sizeof(raw));
		memcpy(sp + 28 + 12, image, 2 * BS);
		memcpy(sp + 28 + 12 + 2 * BS, skip, sizeof(skip));
		snprintf(path, sizeof(path), "%s/sp.img", dir);
		snprintf(spt, sizeof(spt), "%s/sp.img.verity", dir);
		snprintf(sprh, sizeof(sprh), "%s/sp.img.roothash", dir);
		write_file(path, sp, sizeof(sp));
		struct fv_format_request fq = {.size = sizeof(fq),
					       .data = path,
					       .hash = spt,
					       .params = p,
					       .sidecar = 1};

		/* its 52 bytes past the blocks left uncovered, as said */
		p->data_blocks = 2;
		ck_assert_int_eq(fv_format(&fq, NULL, &res), 0);
		p->data_blocks = 0;
		l = layout_of(res);
		ck_assert_uint_eq(l.data_blocks, 2);
		ck_assert_uint_eq(rpt(res).params.data_blocks, 2);
		ck_assert_int_eq(fv_output_write(sprh, "the root hash file",
						 rpt(res).root_hex,
						 strlen(rpt(res).root_hex)),
				 0);
		fv_result_free(res);
		ck_assert_msg(image_open(path, "sidecar", NULL, &im) == 0,
			      "%s", fv_last_error());
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		fv_result_free(res);
		/* the header is data: a byte of it changed is a bad block */
		poke(path, 20);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
		fv_result_free(res);
		fv_image_free(im);
	}

	/* an Android sparse image where raw data belongs */
	ck_assert_int_eq(fv_refuse_sparse(data), 0);
	write_file(path, sparse, sizeof(sparse));
	ck_assert_int_eq(fv_refuse_sparse(path), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "sparse"));
	fv_result_free(made);
	free(p);
}
END_TEST

/* What the bench rows hold. */
struct bench_seen {
	size_t n, kinds[6], trees;
	uint64_t tree_bytes;
	unsigned levels, recommended;
	char path[16], kernel[64];
};

static int bench_rows_seen(void *ctx, const struct fv_bench_row *rows, size_t n)
{
	struct bench_seen *seen = ctx;
	/* the caller's row size: struct fv_bench_row and 40 bytes more */
	const size_t stride = sizeof(*rows) + 40;

	enum fv_bench_kind prev = FV_BENCH_MACHINE;

	seen->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct fv_bench_row *r =
			(const void *)((const uint8_t *)rows + i * stride);

		ck_assert_int_ge(r->kind, FV_BENCH_MACHINE);
		ck_assert_int_le(r->kind, FV_BENCH_TREE);
		/* in the order of the report, the machine first */
		ck_assert(i ? r->kind != FV_BENCH_MACHINE
			    : r->kind == FV_BENCH_MACHINE);
		ck_assert_int_ge(r->kind, prev);
		prev = r->kind;
		seen->kinds[r->kind]++;
		if (r->kind == FV_BENCH_MACHINE) {
			ck_assert_uint_eq(r->threads, 2);
			ck_assert_uint_eq(r->data_bytes, (uint64_t)BLOCKS * BS);
			ck_assert_ptr_nonnull(r->cpu_flags);
			snprintf(seen->kernel, sizeof(seen->kernel), "%s",
				 r->sha256_kernel);
		}
		if (r->kind == FV_BENCH_HASHING && r->rate.median >= 0)
			ck_assert(r->rate.min <= r->rate.median &&
				  r->rate.median <= r->rate.max);
		if (r->kind == FV_BENCH_ROOTS)
			ck_assert_uint_eq(r->data_bytes, (uint64_t)BLOCKS * BS);
		if (r->kind == FV_BENCH_TREE) {
			ck_assert_str_eq(r->name, "sha256");
			ck_assert_uint_eq(r->salt_size, 32);
			ck_assert_int_eq(r->valid, 1);
			ck_assert_uint_ge(r->runs, FV_BENCH_ROUNDS);
			ck_assert(r->rate.median > 0);
			snprintf(seen->path, sizeof(seen->path), "%s", r->path);
			seen->levels = r->levels;
			seen->tree_bytes = r->tree_bytes;
			seen->recommended +=
				!!(r->flags & FV_BENCH_RECOMMENDED);
		}
	}
	return 7;
}

/* What bench measures, through the header: the rows of one short run
 * (a tree of the data measured as format builds it), the settings
 * checked before anything is timed, and the request's own checks. */
START_TEST(bench_run)
{
	const char *sha256 = "sha256", *nosuch = "nosuchhash";
	const unsigned format1 = 1;
	const uint32_t bs = BS, salt32 = 32, salts[] = {32, 300};
	struct fv_bench_request req = {
		.size = sizeof(req),
		.row_size = sizeof(struct fv_bench_row) + 40,
		.hashes = &sha256,
		.nhashes = 1,
		.formats = &format1,
		.nformats = 1,
		.data_block_sizes = &bs,
		.ndata_block_sizes = 1,
		.hash_block_sizes = &bs,
		.nhash_block_sizes = 1,
		.salt_sizes = &salt32,
		.nsalt_sizes = 1,
		.device = data,
		.seconds = 0.2,
	};
	struct bench_seen seen = {0};
	fv_options two_ = {.size = sizeof(two_)}, *two = &two_;

	two->threads = 2;
	/* fn's return is the run's */
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen), 7);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_MACHINE], 1);
	ck_assert_uint_ge(seen.kinds[FV_BENCH_HASHING], 6);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_FEC], 10);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_ROOTS], 5);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_TREE], 1);
	ck_assert_str_eq(seen.path, "fast");
	ck_assert_uint_eq(seen.levels, 2);
	/* 300 blocks: 3 hash blocks of level 0, 1 of level 1 */
	ck_assert_uint_eq(seen.tree_bytes, 4 * BS);
	ck_assert_uint_eq(seen.recommended, 1);
	ck_assert_str_eq(seen.kernel, fv_sha256_kernel_name(FV_SHA256_FASTEST));
	/* a setting that cannot make a tree: refused before anything is
	 * measured, named */
	req.salt_sizes = salts;
	req.nsalt_sizes = 2;
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_uint_eq(seen.n, 0);
	ck_assert_str_eq(fv_last_error(),
			 "sha256, 300-byte salt, 4096/4096-byte blocks, format "
			 "1: salt of 300 bytes is too long (at most 256)");
	req.salt_sizes = &salt32;
	req.nsalt_sizes = 1;
	req.hashes = &nosuch;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "nosuchhash"));
	req.hashes = &sha256;
	/* the request's own checks */
	req.device = "/nonexistent/d";
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -ENODEV);
	req.device = data;
	req.seconds = 0;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	req.seconds = 0.2;
	req.nformats = 17;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	req.nformats = 1;
	req.row_size = 8;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_int_eq(fv_bench_run(NULL, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_uint_eq(seen.n, 0);
}
END_TEST

/* OpenSSL's digests through the header, and the sizes of files. */
START_TEST(digests_and_sizes)
{
	uint64_t size;

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
	ck_assert_ptr_nonnull(fv_openssl_version());
	ck_assert_int_eq(strncmp(fv_openssl_version(), "OpenSSL ", 8), 0);
	ck_assert_int_eq(fv_device_size(data, &size), 0);
	ck_assert_uint_eq(size, (uint64_t)BLOCKS * BS);
	ck_assert_int_eq(fv_device_size(dir, &size), -ENOTBLK);
}
END_TEST

/* avbtool's writers through the header: a hashtree footer and a hash
 * footer added, read back, a vbmeta image that chains, includes and
 * carries properties, the footer erased. */
START_TEST(android_writers)
{
	char img[96], himg[96], key[96], pub[96], vb[96];
	struct fv_vbmeta_property prop = {"k", (const uint8_t *)"v", 1};
	struct fv_vbmeta_chain chains[2] = {{"system", 1, NULL, 0},
					    {"vendor", 2, NULL, 1u << 7}};
	const char *cmdline = "quiet", *include = himg;
	struct fv_vbmeta_request v = {.size = sizeof(v),
				      .algorithm = "MD5_RSA1",
				      .key = key,
				      .rollback_index = 3,
				      .release_append = "x",
				      .properties = &prop,
				      .nproperties = 1,
				      .cmdlines = &cmdline,
				      .ncmdlines = 1};
	struct fv_footer_request f = {.size = sizeof(f),
				      .kind = FV_FOOTER_HASHTREE,
				      .partition_name = "system",
				      .hash = "md5",
				      .block_size = 4096,
				      .salt = (const uint8_t *)"salt",
				      .salt_len = 4,
				      .flags = FV_FOOTER_SALT_GIVEN | 1u << 9,
				      .fec_roots = 2,
				      .vbmeta = &v},
				 h = {.size = sizeof(h),
				      .kind = FV_FOOTER_HASH,
				      .partition_name = "boot",
				      .partition_size = 1 << 20},
				 bad = f;
	const uint8_t *blob;
	size_t len, flen;
	uint8_t *pk;
	size_t pklen;
	uint64_t max;
	unsigned minor;
	fv_options ko = {.size = sizeof(ko), .key = key};
	struct fv_avb_edit_request e = {.size = sizeof(e), .image = himg};
	const fv_avb *ia;
	const fv_avb *a;
	fv_image *im, *sim;
	fv_result *res;
	FILE *fp;

	snprintf(img, sizeof(img), "%s/system.img", dir);
	snprintf(himg, sizeof(himg), "%s/boot.img", dir);
	snprintf(key, sizeof(key), "%s/k.pem", dir);
	snprintf(pub, sizeof(pub), "%s/k.avbpubkey", dir);
	snprintf(vb, sizeof(vb), "%s/vbmeta.img", dir);
	write_file(img, image, (size_t)BLOCKS * BS);
	write_file(himg, image, 64 * BS);
	make_key(key, 2048);
	/* each part of the requests checked before anything is written */
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), -EINVAL);
	v.algorithm = "SHA256_RSA2048";
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), -EINVAL);
	f.hash = "sha256";
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), -EINVAL);
	f.flags = FV_FOOTER_SALT_GIVEN | FV_FOOTER_CHECK_AT_MOST_ONCE;
	bad.kind = (enum fv_footer_kind)5;
	ck_assert_int_eq(fv_avb_add_footer(img, &bad, NULL), -EINVAL);
	bad = f;
	bad.size = 8;
	ck_assert_int_eq(fv_avb_add_footer(img, &bad, NULL), -EINVAL);
	bad = f;
	bad.salt_len = 300;
	ck_assert_int_eq(fv_avb_add_footer(img, &bad, NULL), -EINVAL);
	ck_assert(same_file(img, image, (size_t)BLOCKS * BS));
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), 0);

	/* read back, judged by its key's blob, and verified */
	ck_assert_int_eq(fv_avb_public_key(key, &pk, &pklen), 0);
	ck_assert_int_eq(image_open(img, "avb", &ko, &im), 0);
	ia = img_info(im).avb;
	ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
	ck_assert_str_eq(avb_info(ia).header.release, FV_AVB_RELEASE " x");
	ck_assert_uint_eq(avb_info(ia).descriptors, 3);
	ck_assert_int_eq(fv_avb_vbmeta_blob(ia, &blob, &len, &flen), 0);
	ck_assert_uint_gt(len, 256);
	ck_assert_uint_ge(flen, len);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);

	/* a hash footer in a partition of 1 MiB, and what fits there */
	ck_assert_int_eq(fv_avb_max_image_size(&h, &max), 0);
	ck_assert_uint_gt(max, 64 * BS);
	ck_assert_uint_lt(max, 1 << 20);
	ck_assert_int_eq(fv_avb_add_footer(himg, &h, NULL), 0);
	ck_assert_int_eq(image_open(himg, "avb", NULL, &im), 0);
	ck_assert_uint_eq(img_info(im).pairs, 0); /* no hashtree */
	ia = img_info(im).avb;
	{
		struct fv_avb_descriptor d = avb_desc(ia, 0);

		ck_assert_uint_eq(d.tag, FV_AVB_HASH);
		ck_assert_uint_eq(d.hash.image_size, 64 * BS);
	}
	fv_image_free(im);

	/* a vbmeta image chaining system's key, including boot's */
	ck_assert_ptr_nonnull(fp = fopen(pub, "wb"));
	ck_assert_uint_eq(fwrite(pk, 1, pklen, fp), pklen);
	fclose(fp);
	fv_free(pk);
	chains[0].key_path = chains[1].key_path = pub;
	v.chains = chains;
	v.nchains = 1;
	v.includes = &include;
	v.nincludes = 1;
	ck_assert_int_eq(fv_avb_required_minor(&v, NULL, &minor), 0);
	ck_assert_uint_eq(minor, 0);
	/* a footer's rule: its own flags count, its includes do not */
	ck_assert_int_eq(fv_avb_required_minor(NULL, &f, &minor), 0);
	ck_assert_uint_eq(minor, 1);
	ck_assert_int_eq(fv_avb_required_minor(&v, &f, &minor), -EINVAL);
	ck_assert_int_eq(fv_avb_make_vbmeta_image(himg, &v, 0), -EINVAL);
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb, &v, 4096), 0);
	a = image_shown(vb, &sim);
	ck_assert_int_eq(avb_info(a).has_footer, 0);
	{
		size_t n = avb_info(a).descriptors, found = 0;
		char *path;

		for (size_t i = 0; i < n; i++)
			if (avb_desc(a, i).tag == FV_AVB_CHAIN_PARTITION) {
				ck_assert_uint_eq(
					avb_desc(a, i)
						.chain_partition
						.rollback_index_location,
					1);
				ck_assert_int_eq(
					fv_avb_described_image(a, i, &path), 0);
				ck_assert_str_eq(path, img);
				fv_free(path);
				found++;
			}
		ck_assert_uint_eq(found, 1);
	}
	fv_image_free(sim);

	/* since 0.7: a chain without A/B, key metadata, no helper: libavb
	 * 1.3; the vbmeta appended to boot's data; resized; system's tree
	 * made zeros, its root still the data's */
	{
		char meta[4200], vb2[4200];
		struct fv_avb_hashtree t = {.size = sizeof(t)};

		snprintf(meta, sizeof(meta), "%s/pkmd", dir);
		snprintf(vb2, sizeof(vb2), "%s/vbmeta2.img", dir);
		write_file(meta, image, 100);
		v.nchains = 2;
		ck_assert_int_eq(fv_avb_required_minor(&v, NULL, &minor),
				 -EINVAL);
		chains[1].flags = FV_CHAIN_DO_NOT_USE_AB;
		v.public_key_metadata = meta;
		v.temp_dir = dir;
		ck_assert_int_eq(fv_avb_required_minor(&v, NULL, &minor), 0);
		ck_assert_uint_eq(minor, 3);
		ck_assert_int_eq(fv_avb_make_vbmeta_image(vb2, NULL, 0),
				 -EINVAL);
		ck_assert_int_eq(fv_avb_make_vbmeta_image(vb2, &v, 0), 0);
		e.op = FV_AVB_EDIT_ERASE_FOOTER;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		e.op = FV_AVB_EDIT_APPEND_VBMETA_IMAGE;
		e.vbmeta_image = vb2;
		e.partition_size = 1 << 20;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		/* a member the edit does not read, refused by name */
		e.op = FV_AVB_EDIT_RESIZE_IMAGE;
		e.partition_size = 2 << 20;
		ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "vbmeta_image"));
		e.vbmeta_image = NULL;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		e.partition_size = 4096;
		ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
		a = image_shown(himg, &sim);
		ck_assert_int_eq(avb_info(a).has_footer, 1);
		fv_image_free(sim);

		/* not a sparse image: no sums to check */
		ck_assert_int_eq(fv_sparse_check_crc(img, NULL), 1);
		a = image_shown(img, &sim);
		t = avb_desc(a, 0).hashtree;
		ck_assert_uint_eq(t.root_digest_len, 32);
		fv_image_free(sim);
		e.op = FV_AVB_EDIT_ZERO_HASHTREE;
		e.image = img;
		ck_assert_int_eq(fv_avb_edit(&e), -EINVAL); /* partition_size */
		e.partition_size = 0;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		a = image_shown(img, &sim);
		fv_image_free(sim);
	}

	/* the footer erased: the data as it was; no edit 0, nor 5 */
	e = (struct fv_avb_edit_request){.size = sizeof(e), .image = img};
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.op = (enum fv_avb_edit_op)5;
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.op = FV_AVB_EDIT_ERASE_FOOTER;
	e.flags = 4;
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.flags = FV_ERASE_KEEP_HASHTREE;
	e.size = 8;
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.size = sizeof(e);
	ck_assert_int_eq(fv_avb_edit(&e), 0);
	e.image = himg;
	e.flags = 0;
	ck_assert_int_eq(fv_avb_edit(&e), 0);
	ck_assert(same_file(himg, image, 64 * BS));
}
END_TEST

/* A super image written from the format: metadata 10.0, two slots,
 * partitions system_a (the bytes of part, n of them, at 1 MiB) and an
 * empty system_b, both copies of everything. */
static void sha256_of(const uint8_t *p, size_t n, uint8_t out[32])
{
	unsigned len = 32;

	ck_assert_int_eq(EVP_Digest(p, n, out, &len, EVP_sha256(), NULL), 1);
}

static void le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void make_super(const char *path, const uint8_t *part, size_t n)
{
	const size_t size = (3u << 20) + n, meta = 65536;
	uint8_t *img = calloc(1, size), *g = img + 4096, *h, *t;
	const size_t tsize = 2 * 52 + 24 + 48 + 64;

	ck_assert_ptr_nonnull(img);
	ck_assert_uint_eq(n % 512, 0);
	memcpy(img + (1u << 20), part, n);
	/* the geometry */
	le(g, 0x616c4467, 4);
	le(g + 4, 52, 4);
	le(g + 40, meta, 4);
	le(g + 44, 2, 4);
	le(g + 48, 4096, 4);
	sha256_of(g, 52, g + 8);
	memcpy(img + 8192, g, 52);
	/* slot 0's primary copy: header, then the tables */
	h = img + 12288;
	t = h + 128;
	memcpy(t, "system_a", 8);
	le(t + 36, 1, 4);     /* readonly */
	le(t + 44, 1, 4);     /* one extent, the first */
	memcpy(t + 52, "system_b", 8);
	le(t + 52 + 36, 1, 4);
	t += 104;
	le(t, n / 512, 8); /* linear onto super at sector 2048 */
	le(t + 12, 2048, 8);
	t += 24;
	memcpy(t, "default", 7);
	t += 48;
	le(t, 2048, 8);
	le(t + 8, 1u << 20, 4);
	le(t + 16, size, 8);
	memcpy(t + 24, "super", 5);
	le(h, 0x414c5030, 4);
	le(h + 4, 10, 2);
	le(h + 8, 128, 4);
	le(h + 44, tsize, 4);
	sha256_of(h + 128, tsize, h + 48);
	le(h + 80, 0, 4), le(h + 84, 2, 4), le(h + 88, 52, 4);
	le(h + 92, 104, 4), le(h + 96, 1, 4), le(h + 100, 24, 4);
	le(h + 104, 128, 4), le(h + 108, 1, 4), le(h + 112, 48, 4);
	le(h + 116, 176, 4), le(h + 120, 1, 4), le(h + 124, 64, 4);
	sha256_of(h, 128, h + 12);
	for (unsigned c = 1; c < 4; c++)
		memcpy(h + c * meta, h, 128 + tsize);
	write_file(path, img, size);
	free(img);
}

START_TEST(super_images)
{
	struct fv_super_info in = {.size = sizeof(in)};
	struct fv_super_entry e = {.size = sizeof(e)};
	struct fv_footer_request fo = {.size = sizeof(fo),
				       .kind = FV_FOOTER_HASHTREE,
				       .partition_name = "system",
				       .partition_size = 2u << 20,
				       .hash = "sha256",
				       .block_size = BS};
	char img[96], sup[96], part[128], empty[128];
	struct seen seen;
	const char *kind;
	fv_result *res;
	fv_image *im;
	fv_super *s;
	uint8_t *bytes;
	uint64_t at;
	uint32_t dev;
	long n;
	FILE *f;

	snprintf(img, sizeof(img), "%s/system.img", dir);
	snprintf(sup, sizeof(sup), "%s/super.img", dir);
	snprintf(part, sizeof(part), "%s/system_a", sup);
	snprintf(empty, sizeof(empty), "%s/system_b", sup);
	write_file(img, image, (size_t)BLOCKS * BS);
	ck_assert_int_eq(fv_avb_add_footer(img, &fo, NULL), 0);
	f = fopen(img, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	bytes = malloc((size_t)n);
	ck_assert_uint_eq(fread(bytes, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	make_super(sup, bytes, (size_t)n);
	free(bytes);

	ck_assert_int_eq(fv_container_of(sup, NULL, &kind), 0);
	ck_assert_str_eq(kind, "super");
	ck_assert_int_eq(fv_container_of(part, NULL, &kind), 0);
	ck_assert_str_eq(kind, "avb");
	ck_assert_msg(fv_super_open(sup, NULL, NULL, 0, 0, &s) == 0, "%s",
		      fv_last_error());
	ck_assert_int_eq(fv_super_info(s, &in), 0);
	ck_assert_uint_eq(in.major, 10);
	ck_assert_uint_eq(in.metadata_slot_count, 2);
	ck_assert_int_eq(in.metadata_backup, 0);
	ck_assert_uint_eq(in.notes, 0);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_NOTE, 0, &e), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "note 0 of 0");
	ck_assert_uint_eq(in.partitions, 2);
	ck_assert_uint_eq(in.extents, 1);
	ck_assert_uint_eq(in.groups, 1);
	ck_assert_uint_eq(in.block_devices, 1);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_PARTITION, 1, &e), 0);
	ck_assert_int_eq(e.kind, FV_SUPER_PARTITION);
	ck_assert_uint_eq(e.partition.size, sizeof(e.partition));
	ck_assert_str_eq(e.partition.name, "system_b");
	ck_assert_uint_eq(e.partition.num_extents, 0);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_PARTITION, 2, &e),
			 -EINVAL);
	ck_assert_str_eq(fv_last_error(), "partition 2 of 2");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_PARTITION, 0, &e), 0);
	ck_assert_uint_eq(e.partition.bytes, (uint64_t)n);
	ck_assert_str_eq(e.partition.group, "default");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_EXTENT, 0, &e), 0);
	ck_assert_int_eq(e.kind, FV_SUPER_EXTENT);
	ck_assert_uint_eq(e.extent.size, sizeof(e.extent));
	ck_assert_uint_eq(e.extent.target, 2048);
	ck_assert_str_eq(e.extent.device, "super");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_EXTENT, 1, &e), -EINVAL);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_GROUP, 0, &e), 0);
	ck_assert_str_eq(e.group.name, "default");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_BLOCK_DEVICE, 0, &e), 0);
	ck_assert_uint_eq(e.block_device.size, sizeof(e.block_device));
	ck_assert_str_eq(e.block_device.file, sup);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_BLOCK_DEVICE, 1, &e),
			 -EINVAL);
	ck_assert_str_eq(fv_last_error(), "block device 1 of 1");
	ck_assert_int_eq(fv_super_entry(s, (enum fv_super_kind)5, 0, &e),
			 -EINVAL);
	e.size = offsetof(struct fv_super_entry, partition);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_GROUP, 0, &e), -EINVAL);
	e.size = sizeof(e);
	ck_assert_int_eq(fv_super_find(s, "system", NULL), 0);
	ck_assert_int_eq(fv_super_find(s, "system", "b"), 1);
	ck_assert_int_eq(fv_super_find(s, "vendor", NULL), -ENOENT);
	ck_assert_int_eq(fv_super_offset(s, 0, 5000, &dev, &at), 0);
	ck_assert_uint_eq(at, (1u << 20) + 5000);
	ck_assert_int_eq(fv_super_offset(s, 0, (uint64_t)n, &dev, &at),
			 -EINVAL);
	/* a partition through the handle, as an opened image: the empty
	 * one refused, the Android one verified */
	ck_assert_int_eq(fv_super_image(s, 1, NULL, &im), -ENODATA);
	ck_assert_ptr_null(im);
	ck_assert_msg(fv_super_image(s, 0, NULL, &im) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(img_info(im).container, "avb");
	ck_assert_uint_eq(img_info(im).pairs, 1);
	ck_assert_str_eq(img_pair(im, 0).name, "system");
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);
	fv_super_free(s);
	/* a logical partition by its path: an empty one refused, one that
	 * is an Android image read as one */
	ck_assert_int_eq(image_open(empty, NULL, NULL, &im), -ENODATA);
	ck_assert_msg(image_open(part, NULL, NULL, &im) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(img_info(im).container, "avb");
	ck_assert_str_eq(avb_info(img_info(im).avb).partition_name, "system");
	fv_image_free(im);
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(avb_check(part, NULL, 0, on_failure, &seen, &res),
			 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 0);
	fv_result_free(res);
	/* a byte of the partition changed in super.img: found at its
	 * offset in the partition */
	poke(sup, (1u << 20) + 5 * BS + 7);
	ck_assert_int_eq(avb_check(part, NULL, 0, on_failure, &seen, &res),
			 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(seen.n, 1);
	ck_assert_uint_eq(seen.offset[0], 5 * BS);
	fv_result_free(res);
	/* the image alone: a container of one pair, the Android image's */
	ck_assert_msg(image_open(sup, NULL, NULL, &im) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(img_info(im).container, "super");
	ck_assert_uint_eq(img_info(im).pairs, 1);
	ck_assert_str_eq(img_pair(im, 0).name, "system_a");
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	fv_result_free(res);
	fv_image_free(im);
	/* both geometries damaged: refused, naming both */
	poke(sup, 4096 + 20);
	ck_assert_int_eq(fv_super_open(sup, NULL, NULL, 0, 0, &s), 0);
	ck_assert_int_eq(fv_super_info(s, &in), 0);
	ck_assert_uint_eq(in.notes, 1);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_NOTE, 0, &e), 0);
	ck_assert_int_eq(e.kind, FV_SUPER_NOTE);
	ck_assert_ptr_nonnull(strstr(e.note, "read its backup"));
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_NOTE, 1, &e), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "note 1 of 1");
	fv_super_free(s);
	poke(sup, 8192 + 20);
	ck_assert_int_eq(fv_super_open(sup, NULL, NULL, 0, 0, &s), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "its backup at byte 8192"));
	ck_assert_int_eq(fv_super_open(img, NULL, NULL, 0, 0, &s), -EINVAL);
}
END_TEST

/* Firmware sets walked once (fv_slot_verify): a vbmeta chaining a
 * signed system image and including a hash footer's descriptor; each
 * step in order, its verdict and signer; bad data found and the walk
 * gone on; a chain below the top refused as libavb refuses it; the
 * same walk without
 * checks for the print commands; a super image's partition named
 * without its slot suffix. */
static struct fv_slot_info slot_info_of(const fv_slot *s)
{
	struct fv_slot_info in = {.size = sizeof(in)};

	ck_assert_int_eq(fv_slot_info(s, &in), 0);
	return in;
}

struct walked {
	size_t begun, ended;
};

static void on_step(void *c, const fv_slot *s, size_t i, int done)
{
	struct walked *w = c;

	ck_assert_uint_lt(i, slot_info_of(s).steps);
	if (done)
		w->ended++;
	else
		w->begun++;
}

static struct fv_slot_step step_of(const fv_slot *s, size_t i)
{
	struct fv_slot_step st = {.size = sizeof(st)};

	ck_assert_int_eq(fv_slot_step(s, i, &st), 0);
	return st;
}

START_TEST(firmware_sets)
{
	char sys[96], boot[96], key[96], pub[96], vb[96], vb2[96], sup[96];
	struct fv_vbmeta_chain chains[2] = {{"system", 1, pub, 0},
					    {"vbmeta_system", 2, pub, 0}};
	const char *include = boot, *cmdline = "quiet";
	struct fv_vbmeta_request v = {.size = sizeof(v),
				      .algorithm = "SHA256_RSA2048",
				      .key = key},
				 top = {.size = sizeof(top),
					.algorithm = "SHA256_RSA2048",
					.key = key,
					.chains = chains,
					.nchains = 1,
					.includes = &include,
					.nincludes = 1,
					.cmdlines = &cmdline,
					.ncmdlines = 1};
	struct fv_footer_request f = {.size = sizeof(f),
				      .kind = FV_FOOTER_HASHTREE,
				      .partition_name = "system",
				      .hash = "sha256",
				      .block_size = BS,
				      .vbmeta = &v},
				 h = {.size = sizeof(h),
				      .kind = FV_FOOTER_HASH,
				      .partition_name = "boot",
				      .partition_size = 1 << 20};
	struct fv_slot_request req = {.size = sizeof(req)};
	struct fv_slot_step st;
	struct walked w = {0, 0};
	const char *names[1] = {"system"};
	uint8_t *pk;
	size_t pklen, n;
	fv_slot *s;
	FILE *fp;

	snprintf(sys, sizeof(sys), "%s/system.img", dir);
	snprintf(boot, sizeof(boot), "%s/boot.img", dir);
	snprintf(key, sizeof(key), "%s/k.pem", dir);
	snprintf(pub, sizeof(pub), "%s/k.avbpubkey", dir);
	snprintf(vb, sizeof(vb), "%s/vbmeta.img", dir);
	snprintf(vb2, sizeof(vb2), "%s/vbmeta_system.img", dir);
	snprintf(sup, sizeof(sup), "%s/super.img", dir);
	write_file(sys, image, (size_t)BLOCKS * BS);
	write_file(boot, image, 64 * BS);
	make_key(key, 2048);
	ck_assert_int_eq(fv_avb_public_key(key, &pk, &pklen), 0);
	ck_assert_ptr_nonnull(fp = fopen(pub, "wb"));
	ck_assert_uint_eq(fwrite(pk, 1, pklen, fp), pklen);
	fclose(fp);
	fv_free(pk);
	/* system signed by k (chained, pinned), boot unsigned (included) */
	ck_assert_int_eq(fv_avb_add_footer(sys, &f, NULL), 0);
	ck_assert_int_eq(fv_avb_add_footer(boot, &h, NULL), 0);
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb, &top, 0), 0);

	ck_assert_int_eq(fv_slot_verify(NULL, NULL, NULL, NULL, &s), -EINVAL);
	req.image = vb;
	req.key = key;
	req.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW;
	ck_assert_msg(fv_slot_verify(&req, NULL, on_step, &w, &s) == 0, "%s",
		      fv_last_error());
	/* vbmeta, chain system, its vbmeta, its tree, the command line,
	 * boot's hash (avbtool's order: chains, command lines, included) */
	n = slot_info_of(s).steps;
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(w.begun, n);
	ck_assert_uint_eq(w.ended, n);
	st = step_of(s, 0);
	ck_assert_int_eq(st.kind, FV_SLOT_VBMETA);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(st.signer, key);
	ck_assert_uint_eq(st.parent, SIZE_MAX);
	st = step_of(s, 1);
	ck_assert_int_eq(st.kind, FV_SLOT_CHAIN);
	ck_assert_str_eq(st.name, "system");
	ck_assert_str_eq(st.path, sys);
	ck_assert_int_eq(st.followed, 1);
	st = step_of(s, 2);
	ck_assert_int_eq(st.kind, FV_SLOT_VBMETA);
	ck_assert_uint_eq(st.depth, 1);
	ck_assert_uint_eq(st.parent, 1);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(st.signer, vb); /* the vbmeta that pins its key */
	st = step_of(s, 3);
	ck_assert_int_eq(st.kind, FV_SLOT_HASHTREE);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_ptr_nonnull(st.result_of);
	ck_assert_uint_eq(rpt(st.result_of).bad_data_blocks, 0);
	ck_assert_int_eq(step_of(s, 4).kind, FV_SLOT_CMDLINE);
	st = step_of(s, 5);
	ck_assert_int_eq(st.kind, FV_SLOT_HASH);
	ck_assert_str_eq(st.path, boot);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_int_eq(fv_slot_step(s, 6, &st), -EINVAL);
	ck_assert_ptr_null(slot_info_of(s).super);
	ck_assert_str_eq(slot_info_of(s).slot, "");
	fv_slot_free(s);

	/* boot's data changed: its step BAD, the rest still walked */
	poke(boot, 10);
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	st = step_of(s, 5);
	ck_assert_int_eq(st.result, FV_SLOT_BAD);
	ck_assert_int_eq(st.why, FV_SLOT_WHY_DIGEST);
	ck_assert_ptr_nonnull(strstr(st.message, "does not match"));
	ck_assert_int_eq(step_of(s, 3).result, FV_SLOT_OK);
	fv_slot_free(s);
	poke(boot, 10);

	/* another key given: the top refused, nothing under it checked */
	req.key = NULL;
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	ck_assert_int_eq(step_of(s, 0).trust, FV_TRUST_UNCHECKED);
	ck_assert_int_eq(step_of(s, 2).trust, FV_TRUST_UNCHECKED);
	fv_slot_free(s);

	/* a vbmeta that chains from a chained one: refused as libavb
	 * refuses it (a chain named twice: tests/cli/t_sets.sh) */
	req.key = key;
	v.chains = chains + 1;
	v.nchains = 1;
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb2, &v, 0), 0);
	top.nchains = 2;
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb, &top, 0), 0);
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	{
		size_t nested = 0;

		for (size_t i = 0; i < slot_info_of(s).steps; i++) {
			st = step_of(s, i);
			if (st.result != FV_SLOT_REFUSED)
				continue;
			ck_assert_int_eq(st.kind, FV_SLOT_CHAIN);
			ck_assert_int_eq(st.why, FV_SLOT_WHY_NESTED);
			ck_assert_uint_eq(st.depth, 1);
			nested++;
		}
		ck_assert_uint_eq(nested, 1);
	}
	fv_slot_free(s);
	/* without checks (the print commands): every chain followed once,
	 * nothing refused */
	req.flags = FV_SLOT_FOLLOW | FV_SLOT_FOLLOW_NESTED;
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	for (size_t i = 0; i < slot_info_of(s).steps; i++)
		ck_assert_int_ne(step_of(s, i).result, FV_SLOT_REFUSED);
	fv_slot_free(s);

	/* a super image: "system" is the slot's system_a */
	{
		long len;
		uint8_t *bytes;

		ck_assert_ptr_nonnull(fp = fopen(sys, "rb"));
		fseek(fp, 0, SEEK_END);
		len = ftell(fp);
		rewind(fp);
		bytes = malloc((size_t)len);
		ck_assert_uint_eq(fread(bytes, 1, (size_t)len, fp),
				  (size_t)len);
		fclose(fp);
		make_super(sup, bytes, (size_t)len);
		free(bytes);
	}
	memset(&req, 0, sizeof(req));
	req.size = sizeof(req);
	req.image = sup;
	req.key = key;
	req.partitions = names;
	req.npartitions = 1;
	req.flags = FV_SLOT_CHECK;
	ck_assert_msg(fv_slot_verify(&req, NULL, NULL, NULL, &s) == 0, "%s",
		      fv_last_error());
	ck_assert_ptr_nonnull(slot_info_of(s).super);
	ck_assert_str_eq(slot_info_of(s).slot, "a");
	ck_assert_uint_eq(slot_info_of(s).notes, 1);
	{
		/* a caller of a smaller structure gets what fits */
		struct fv_slot_info in = {
			.size = offsetof(struct fv_slot_info, super)};

		ck_assert_int_eq(fv_slot_info(s, &in), 0);
		ck_assert_uint_eq(in.size,
				  offsetof(struct fv_slot_info, super));
		ck_assert_uint_eq(in.notes, 1);
		ck_assert_ptr_null(in.super);
		in.size = sizeof(size_t);
		ck_assert_int_eq(fv_slot_info(s, &in), -EINVAL);
	}
	ck_assert_ptr_nonnull(
		strstr(fv_slot_note(s, 0), "system is partition system_a"));
	ck_assert_ptr_null(fv_slot_note(s, 1));
	st = step_of(s, 0);
	ck_assert_int_eq(st.kind, FV_SLOT_PARTITION);
	ck_assert_str_eq(st.name, "system_a");
	ck_assert_uint_eq(st.partition, 0);
	ck_assert_int_eq(step_of(s, 2).kind, FV_SLOT_HASHTREE);
	ck_assert_int_eq(step_of(s, 2).result, FV_SLOT_OK);
	fv_slot_free(s);
	/* slot b: its partition is empty, and named with a key: refused */
	req.slot = "b";
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	st = step_of(s, 0);
	ck_assert_str_eq(st.name, "system_b");
	ck_assert_int_eq(st.result, FV_SLOT_REFUSED);
	ck_assert_int_eq(st.why, FV_SLOT_WHY_EMPTY);
	fv_slot_free(s);
	req.slot = "c";
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), -EINVAL);
	fv_slot_free(s);
	fv_slot_free(NULL);
	{
		struct fv_slot_info in = {.size = sizeof(in)};

		ck_assert_int_eq(fv_slot_info(NULL, &in), -EINVAL);
		ck_assert_ptr_null(fv_slot_note(NULL, 0));
	}
}
END_TEST

/* A firmware set of both schemes (fv_slot_verify): an RSA vbmeta
 * pinning an ML-DSA-87 system image, an ML-DSA-65 vbmeta pinning an RSA
 * boot image; every signer judged, whichever its scheme; the top's key
 * given as its AVB blob; another key at the top, and a chained image
 * signed by another ML-DSA key than its pin, refused by name. */
static void write_blob(const char *key, const char *out)
{
	uint8_t *pk;
	size_t len;

	ck_assert_msg(fv_avb_public_key(key, &pk, &len) == 0, "%s",
		      fv_last_error());
	write_file(out, pk, len);
	fv_free(pk);
}

START_TEST(firmware_sets_mldsa)
{
	char rsa[96], rsapub[96], k65[96], k65pub[96], k87[96], k87pub[96],
		other[96], sys[96], boot[96], top[96];
	struct fv_vbmeta_chain chain = {"system", 1, k87pub, 0};
	struct fv_vbmeta_request v = {.size = sizeof(v),
				      .algorithm = "MLDSA87",
				      .key = k87},
				 vr = {.size = sizeof(vr),
				       .algorithm = "SHA256_RSA2048",
				       .key = rsa},
				 t = {.size = sizeof(t),
				      .algorithm = "SHA256_RSA2048",
				      .key = rsa,
				      .chains = &chain,
				      .nchains = 1};
	struct fv_footer_request f = {.size = sizeof(f),
				      .kind = FV_FOOTER_HASHTREE,
				      .partition_name = "system",
				      .hash = "sha256",
				      .block_size = BS,
				      .vbmeta = &v},
				 h = {.size = sizeof(h),
				      .kind = FV_FOOTER_HASH,
				      .partition_name = "boot",
				      .partition_size = 1 << 20,
				      .vbmeta = &vr};
	struct fv_slot_request req = {.size = sizeof(req)};
	struct fv_slot_step st;
	fv_slot *s;

	snprintf(rsa, sizeof(rsa), "%s/rsa.pem", dir);
	snprintf(rsapub, sizeof(rsapub), "%s/rsa.avbpubkey", dir);
	snprintf(k65, sizeof(k65), "%s/k65.pem", dir);
	snprintf(k65pub, sizeof(k65pub), "%s/k65.avbpubkey", dir);
	snprintf(k87, sizeof(k87), "%s/k87.pem", dir);
	snprintf(k87pub, sizeof(k87pub), "%s/k87.avbpubkey", dir);
	snprintf(other, sizeof(other), "%s/other87.pem", dir);
	snprintf(sys, sizeof(sys), "%s/system.img", dir);
	snprintf(boot, sizeof(boot), "%s/boot.img", dir);
	snprintf(top, sizeof(top), "%s/vbmeta.img", dir);
	make_key(rsa, 2048);
	write_blob(rsa, rsapub);
	ck_assert_int_eq(fv_avb_generate_key("MLDSA65", k65), 0);
	ck_assert_int_eq(fv_avb_generate_key("MLDSA87", k87), 0);
	ck_assert_int_eq(fv_avb_generate_key("MLDSA87", other), 0);
	ck_assert_int_eq(fv_avb_generate_key("MLDSA87", other), -EEXIST);
	write_blob(k65, k65pub);
	write_blob(k87, k87pub);
	write_file(sys, image, (size_t)BLOCKS * BS);
	write_file(boot, image, 64 * BS);

	/* system: ML-DSA-87; boot: RSA */
	ck_assert_msg(fv_avb_add_footer(sys, &f, NULL) == 0, "%s",
		      fv_last_error());
	ck_assert_int_eq(fv_avb_add_footer(boot, &h, NULL), 0);

	/* RSA at the top, pinning system's ML-DSA-87 key */
	ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0), 0);
	req.image = top;
	req.key = rsapub;
	req.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW;
	ck_assert_msg(fv_slot_verify(&req, NULL, NULL, NULL, &s) == 0, "%s",
		      fv_last_error());
	ck_assert_uint_eq(slot_info_of(s).steps, 4);
	st = step_of(s, 0);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(avb_info(st.avb).header.algorithm, "SHA256_RSA2048");
	st = step_of(s, 2);
	ck_assert_int_eq(st.kind, FV_SLOT_VBMETA);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(st.signer, top);
	ck_assert_str_eq(avb_info(st.avb).header.algorithm, "MLDSA87");
	ck_assert_int_eq(step_of(s, 3).kind, FV_SLOT_HASHTREE);
	ck_assert_int_eq(step_of(s, 3).result, FV_SLOT_OK);
	fv_slot_free(s);

	/* system signed by another ML-DSA-87 key: refused, naming the pin */
	v.key = other;
	ck_assert_int_eq(fv_avb_add_footer(sys, &f, NULL), 0);
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	st = step_of(s, 2);
	ck_assert_int_eq(st.result, FV_SLOT_REFUSED);
	ck_assert_int_eq(st.why, FV_SLOT_WHY_PINNED_KEY);
	ck_assert_ptr_nonnull(strstr(st.message, "than the one"));
	fv_slot_free(s);

	/* ML-DSA-65 at the top, pinning boot's RSA key; its key given as
	 * the PEM key or the blob */
	chain = (struct fv_vbmeta_chain){"boot", 1, rsapub, 0};
	t.algorithm = "MLDSA65";
	t.key = k65;
	ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0), 0);
	for (int i = 0; i < 2; i++) {
		req.key = i ? k65pub : k65;
		ck_assert_msg(fv_slot_verify(&req, NULL, NULL, NULL, &s) == 0,
			      "%s", fv_last_error());
		st = step_of(s, 0);
		ck_assert_int_eq(st.result, FV_SLOT_OK);
		ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
		ck_assert_str_eq(avb_info(st.avb).header.algorithm, "MLDSA65");
		st = step_of(s, 2);
		ck_assert_int_eq(st.result, FV_SLOT_OK);
		ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
		ck_assert_str_eq(avb_info(st.avb).header.algorithm,
				 "SHA256_RSA2048");
		ck_assert_int_eq(step_of(s, 3).kind, FV_SLOT_HASH);
		ck_assert_int_eq(step_of(s, 3).result, FV_SLOT_OK);
		fv_slot_free(s);
	}
	/* the key's digest (extract_public_key_digest): the same from the
	 * private key and its blob; deterministic signatures: the same
	 * image twice, hedged ones differ */
	{
		char d1[65], d2[65], again[96];
		uint8_t *bytes;
		size_t len;
		FILE *fp;

		ck_assert_int_eq(fv_avb_public_key_digest(k65, d1), 0);
		ck_assert_int_eq(fv_avb_public_key_digest(k65pub, d2), 0);
		ck_assert_str_eq(d1, d2);
		ck_assert_uint_eq(strlen(d1), 64);
		snprintf(again, sizeof(again), "%s/again.img", dir);
		t.sign_flags = 2;
		ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0), -EINVAL);
		for (int det = 0; det < 2; det++) {
			t.sign_flags = det ? FV_VBMETA_DETERMINISTIC : 0;
			ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0),
					 0);
			ck_assert_int_eq(fv_avb_make_vbmeta_image(again, &t, 0),
					 0);
			ck_assert_ptr_nonnull(fp = fopen(top, "rb"));
			fseek(fp, 0, SEEK_END);
			len = (size_t)ftell(fp);
			rewind(fp);
			bytes = malloc(len);
			ck_assert_uint_eq(fread(bytes, 1, len, fp), len);
			fclose(fp);
			ck_assert_int_eq(same_file(again, bytes, len), det);
			free(bytes);
		}
	}
	/* another key at the top: ML-DSA-87's, RSA's */
	for (int i = 0; i < 2; i++) {
		req.key = i ? rsapub : k87pub;
		ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
		st = step_of(s, 0);
		ck_assert_int_eq(st.result, FV_SLOT_REFUSED);
		ck_assert_int_eq(st.why, FV_SLOT_WHY_OTHER_KEY);
		fv_slot_free(s);
	}
}
END_TEST

/* update: two changed blocks rewritten, the same root and bytes as a
 * new format; a wrong old root refused with nothing written; found by
 * hashing when no range is given. */
START_TEST(updates)
{
	struct fv_update_report u;
	const uint64_t ranges[] = {5 * BS + 10, 1, 200 * BS, BS + 3};
	char fresh[96], fresh_fec[96], old[65], now[65];
	uint8_t *img = malloc((size_t)BLOCKS * BS), *big;
	fv_params *p = params_new();
	struct fv_format_request rq = {.size = sizeof(rq),
				       .data = data,
				       .hash = hash,
				       .params = p,
				       .fec_path = fec,
				       .fec_roots = 2};
	fv_result *made, *res;

	snprintf(fresh, sizeof(fresh), "%s/fresh", dir);
	snprintf(fresh_fec, sizeof(fresh_fec), "%s/fresh.fec", dir);
	ck_assert_int_eq(fv_format(&rq, NULL, &made), 0);
	snprintf(old, sizeof(old), "%s", rpt(made).root_hex);
	ck_assert(!(rpt(made).has & FV_REPORT_UPDATE));
	fv_result_free(made);
	/* update: the parameters read from the superblock, the old root
	 * needed */
	rq.params = NULL;
	ck_assert_int_eq(fv_update(&rq, ranges, 2, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no root hash"));
	/* two ranges of the data changed */
	memcpy(img, image, (size_t)BLOCKS * BS);
	img[5 * BS + 10] ^= 1;
	img[201 * BS] ^= 0xff;
	write_file(data, img, (size_t)BLOCKS * BS);
	rq.root_hex = old;
	ck_assert_msg(fv_update(&rq, ranges, 2, NULL, &res) == 0, "%s",
		      fv_last_error());
	ck_assert(rpt(res).has & FV_REPORT_UPDATE);
	u = rpt(res).update;
	ck_assert_uint_eq(u.size, sizeof(u));
	ck_assert_uint_eq(u.changed_blocks, 3);
	ck_assert_uint_gt(u.tree_blocks, 0);
	ck_assert_uint_gt(u.parity_rounds, 0);
	ck_assert_int_eq(u.resumed, 0);
	snprintf(now, sizeof(now), "%s", rpt(res).root_hex);
	/* a new format of the changed data, with the same salt and UUID
	 * (the parameters the update kept) */
	ck_assert(rpt(res).has & FV_REPORT_PARAMS);
	*p = rpt(res).params;
	{
		struct fv_format_request fr = {.size = sizeof(fr),
					       .data = data,
					       .hash = fresh,
					       .params = p,
					       .fec_path = fresh_fec,
					       .fec_roots = 2};

		ck_assert_int_eq(fv_format(&fr, NULL, &made), 0);
	}
	ck_assert_str_eq(rpt(made).root_hex, rpt(res).root_hex);
	fv_result_free(made);
	fv_result_free(res);
	/* the old root again: the tree is the new one's now, refused */
	rq.fec_path = NULL;
	rq.fec_roots = 0;
	ck_assert_int_eq(fv_update(&rq, NULL, 0, NULL, &res), -EPERM);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "nothing written"));
	rq.fec_path = fec;
	rq.fec_roots = 2;
	/* the data grown past the tree's blocks: refused (a tree's size is
	 * fixed), unless the caller gives the data blocks */
	ck_assert_ptr_nonnull(big = calloc((size_t)BLOCKS + 1, BS));
	memcpy(big, img, (size_t)BLOCKS * BS);
	write_file(data, big, ((size_t)BLOCKS + 1) * BS);
	free(big);
	rq.root_hex = now;
	ck_assert_int_eq(fv_update(&rq, ranges, 2, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "more than the 300 data blocks"));
	/* another count than the tree's: refused, named */
	rq.data_blocks = BLOCKS + 1;
	ck_assert_int_eq(fv_update(&rq, ranges, 2, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "a tree's size is fixed"));
	rq.data_blocks = BLOCKS;
	ck_assert_msg(fv_update(&rq, ranges, 2, NULL, &res) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(rpt(res).root_hex, now);
	ck_assert_uint_eq(rpt(res).params.data_blocks, BLOCKS);
	fv_result_free(res);
	write_file(data, image, (size_t)BLOCKS * BS);
	free(img);
	free(p);
	/* an Android image's changed ranges: a count without its list
	 * refused, checked before anything is read */
	{
		struct fv_footer_request fo = {.size = sizeof(fo),
					       .kind = FV_FOOTER_HASHTREE,
					       .partition_size = 2u << 20,
					       .flags = FV_FOOTER_CHANGED_GIVEN,
					       .nchanged = 1};
		uint64_t max;

		ck_assert_int_eq(fv_avb_max_image_size(&fo, &max), -EINVAL);
		fo.changed = ranges;
		ck_assert_int_eq(fv_avb_max_image_size(&fo, &max), 0);
		fo.changed = NULL;
		fo.nchanged = 0;
		ck_assert_int_eq(fv_avb_max_image_size(&fo, &max), 0);
	}
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
	struct fv_open_request rq = {.size = sizeof(rq), .data = data,
				     .hash = hash};
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
	ck_assert_int_eq(
		sign_root(key, cert, rpt(made).root_hex, &der, &len), 0);
	fv_result_free(made);
	write_file(sig, der, len);
	fv_free(der);
	rq.signature_path = sig;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_int_eq(fv_last_error_param(), FV_PARAM_TRUSTED_CERT);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "(give the signer's certificate)"));
	ck_assert_int_eq(fv_last_error_say(words, n, said, sizeof(said)),
			 (int)strlen(said));
	ck_assert_ptr_nonnull(strstr(said, "(give --trusted-cert)"));
	ck_assert_int_eq(strncmp(said, fv_last_error(), strcspn(said, "(")), 0);
	/* words that do not reach the parameter: the library's */
	fv_last_error_say(words, 1, said, sizeof(said));
	ck_assert_str_eq(said, fv_last_error());
	fv_last_error_say(NULL, 0, said, sizeof(said));
	ck_assert_str_eq(said, fv_last_error());
	/* cut to the buffer, terminated, the whole length returned */
	ck_assert_int_gt(fv_last_error_say(words, n, said, 8), 8);
	ck_assert_uint_eq(strlen(said), 7);
	ck_assert_int_eq(fv_last_error_say(words, n, NULL, 0), -EINVAL);
	/* a message without a fix */
	ck_assert_int_eq(fv_params_check(NULL), -EINVAL);
	ck_assert_int_eq(fv_last_error_param(), FV_PARAM_NONE);
	fv_last_error_say(words, n, said, sizeof(said));
	ck_assert_str_eq(said, fv_last_error());
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

START_TEST(device_mapper_errors)
{
	struct fv_status_info info;
	fv_status *st = (fv_status *)1;
	int r = fv_status_get("fastverity-api-test-no-such-device", &st);

	/* -ENODEV with device-mapper, -ENOSYS (or -EACCES) without it */
	ck_assert(r == -ENODEV || r == -ENOSYS || r == -EACCES);
	ck_assert_ptr_null(st);
	ck_assert(*fv_last_error());
	ck_assert_int_eq(fv_close("x", (enum fv_close_how)7), -EINVAL);
	ck_assert_int_eq(fv_activate("x", NULL, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(fv_activate(NULL, NULL, 0, NULL, NULL), -EINVAL);
	info.size = sizeof(info);
	ck_assert_int_eq(fv_status_info(NULL, &info), -EINVAL);
	ck_assert_int_eq(fv_status_info(NULL, NULL), -EINVAL);
	fv_status_free(NULL);
	/* the kernel's words, in its order */
	ck_assert_str_eq(fv_flag_name(FV_IGNORE_CORRUPTION),
			 "ignore_corruption");
	ck_assert_str_eq(fv_flag_name(FV_USE_TASKLETS),
			 "try_verify_in_tasklet");
	ck_assert_str_eq(fv_flag_name(1u << (FV_NFLAGS - 1)),
			 "try_verify_in_tasklet");
	ck_assert_ptr_null(fv_flag_name(1u << FV_NFLAGS));
	ck_assert_ptr_null(fv_flag_name(3));
	ck_assert_ptr_nonnull(fv_sha256_kernel_name(FV_SHA256_FASTEST));
	ck_assert_ptr_nonnull(fv_sha256_kernel_name(FV_SHA256_PORTABLE));
	ck_assert_ptr_null(fv_sha256_kernel_name((enum fv_sha256_kernel)9));
	ck_assert_str_eq(fastverity_version(), FASTVERITY_VERSION);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(
		&u, UNIT_TESTS(params_defaults_and_checks, options_checks,
			       android_images, format_verify_and_failures,
			       repair_from_parity, sign_and_check,
			       sidecar_images, repair_checks_signature,
			       messages_with_a_fix, door, pairs, image_pairs,
			       files_around_pairs, bench_run, digests_and_sizes,
			       android_writers, errno_values,
			       device_mapper_errors, super_images,
			       firmware_sets, firmware_sets_mldsa, updates));
}
