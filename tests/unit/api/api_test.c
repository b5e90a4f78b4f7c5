/* The helpers of the public API's unit suites (api_test.h), through
 * <fastverity.h> alone. */
#include <check.h>
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

#include "api_test.h"

char dir[64], data[96], hash[96], fec[96];

void fill(uint8_t *b, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (uint8_t)(x >> 16);
	}
}

void write_file(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

void poke(const char *path, uint64_t off)
{
	int fd = open(path, O_RDWR);
	uint8_t c;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &c, 1, (off_t)off), 1);
	c ^= 0x5a;
	ck_assert_int_eq(pwrite(fd, &c, 1, (off_t)off), 1);
	close(fd);
}

int same_file(const char *a, const uint8_t *b, size_t n)
{
	uint8_t *buf = malloc(n + 1);
	FILE *f = fopen(a, "rb");
	size_t got = fread(buf, 1, n + 1, f);
	int same = got == n && !memcmp(buf, b, n);

	fclose(f);
	free(buf);
	return same;
}

uint8_t *image;

/* What a result says (fv_result_report): its strings point into r. */
struct fv_report rpt(const fv_result *r)
{
	struct fv_report rep = {.size = sizeof(rep)};

	ck_assert_int_eq(fv_result_report(r, &rep), 0);
	ck_assert_uint_eq(rep.size, sizeof(rep));
	return rep;
}

/* The root's bytes into buf (at most size), their number returned. */
size_t root_of(const fv_result *r, uint8_t *buf, size_t size)
{
	struct fv_report rep = rpt(r);

	memcpy(buf, rep.root, size < rep.root_size ? size : rep.root_size);
	return rep.root_size;
}

/* The layout of the pair a result acted on. */
struct fv_layout layout_of(const fv_result *r)
{
	struct fv_report rep = rpt(r);

	ck_assert(rep.has & FV_REPORT_LAYOUT);
	ck_assert_uint_eq(rep.layout.size, sizeof(rep.layout));
	return rep.layout;
}

/* A pair's parity and signature, for the pairs the tests below make of
 * their parts (set_parity, set_signature; reset for each test). */
const char *t_parity;

unsigned t_roots;

char t_sig_path[128];

const char *t_sig;

int set_parity(const char *path, unsigned roots)
{
	t_parity = path;
	t_roots = roots;
	return 0;
}

/* der written to a file of the test's directory (the caller may free
 * it), given to the door as the pair's signature. */
int set_signature(const uint8_t *der, size_t len)
{
	snprintf(t_sig_path, sizeof(t_sig_path), "%s/given.p7s", dir);
	write_file(t_sig_path, der, len);
	t_sig = t_sig_path;
	return 0;
}

/* Parameters as format's defaults (fv_params_init), on the heap. */
fv_params *params_new(void)
{
	fv_params *p = malloc(sizeof(*p));

	ck_assert_ptr_nonnull(p);
	p->size = sizeof(*p);
	ck_assert_int_eq(fv_params_init(p), 0);
	return p;
}

void params_salt(fv_params *p, const void *salt, size_t len)
{
	memcpy(p->salt, salt, len);
	p->salt_len = len;
}

/* The door's plain pair of d and h with p's parameters (NULL: the
 * superblock's), the root (hex; NULL: none) and the parity and
 * signature set, opened with o for an action that writes or not. */
int pair_open(const fv_params *p, const char *d, const char *h,
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
int t_format(fv_params *p, const char *d, const char *h, const fv_options *o,
	     fv_result **res)
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

/* fv_repair of pair i of im with o's repair how (its anchor not
 * given: the open's), or fv_verify of it
 * (repair 0); o's repair left as it was when the call refuses how. */
int repair_with(fv_options *o, unsigned how, int repair, const fv_image *im,
		size_t i, fv_result **res)
{
	unsigned was = o->repair;
	fv_options act = *o;
	int r;

	/* the anchor is the open's: the action acts on its verdict */
	act.key = NULL;
	act.trusted_certs = NULL;
	act.ntrusted_certs = 0;
	o->repair = act.repair = how;
	r = repair ? fv_repair(im, i, &act, res) : fv_verify(im, i, &act, res);
	if (how & ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		o->repair = was;
	return r;
}

/* verify (repair 0) or repair (how) of the pair, failures to fn; the
 * pair opened with the same options (a repair that writes: judged
 * so). */
int t_check(int repair, fv_params *p, const char *d, const char *h,
	    const char *root_hex, fv_options *o, unsigned how, fv_failure_fn fn,
	    void *ctx, fv_result **res)
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

int t_verify(fv_params *p, const char *d, const char *h, const char *root_hex,
	     fv_options *o, fv_failure_fn fn, void *ctx, fv_result **res)
{
	return t_check(0, p, d, h, root_hex, o, 0, fn, ctx, res);
}

int t_repair(fv_params *p, const char *d, const char *h, const char *root_hex,
	     fv_options *o, unsigned how, fv_failure_fn fn, void *ctx,
	     fv_result **res)
{
	return t_check(1, p, d, h, root_hex, o, how, fn, ctx, res);
}

/* An image given alone through the door (container NULL: the
 * registry's word). */
int image_open(const char *path, const char *container, const fv_options *o,
	       fv_image **im)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = path, .container = container};

	return fv_open(&rq, o, im);
}

int image_check(const fv_image *im, size_t i, fv_options *o, unsigned how,
		fv_failure_fn fn, void *ctx, fv_result **res)
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
int avb_check(const char *path, const char *key, unsigned how, fv_failure_fn fn,
	      void *ctx, fv_result **res)
{
	struct fv_open_request rq = {.size = sizeof(rq),
				     .image = path,
				     .container = "avb",
				     .writes = (how & REPAIR) &&
					       !(how & FV_REPAIR_DRY_RUN)};
	fv_options o = {.size = sizeof(o), .key = key};
	fv_image *im = NULL;
	int r = fv_open(&rq, &o, &im);

	*res = NULL;
	if (!r)
		r = image_check(im, 0, &o, how, fn, ctx, res);
	fv_image_free(im);
	return r;
}

void setup(void)
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

void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(image);
}

/* A PEM RSA key of bits into path. */
void make_key(const char *path, unsigned bits)
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
struct fv_image_info img_info(const fv_image *im)
{
	struct fv_image_info in = {.size = sizeof(in)};

	ck_assert_int_eq(fv_image_info(im, &in), 0);
	return in;
}

struct fv_image_pair_info img_pair(const fv_image *im, size_t i)
{
	struct fv_image_pair_info p = {.size = sizeof(p)};

	ck_assert_int_eq(fv_image_pair_info(im, i, &p), 0);
	return p;
}

/* An Android image read for showing (fv_open's show), and its vbmeta. */
const fv_avb *image_shown(const char *path, fv_image **im)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = path, .show = 1};

	ck_assert_int_eq(fv_open(&rq, NULL, im), 0);
	ck_assert_ptr_nonnull(img_info(*im).avb);
	return img_info(*im).avb;
}

/* An Android image's fv_avb_info, and its descriptor i. */
struct fv_avb_info avb_info(const fv_avb *a)
{
	struct fv_avb_info in = {.size = sizeof(in)};

	ck_assert_int_eq(fv_avb_info(a, &in), 0);
	return in;
}

struct fv_avb_descriptor avb_desc(const fv_avb *a, size_t i)
{
	struct fv_avb_descriptor d = {.size = sizeof(d)};

	ck_assert_int_eq(fv_avb_descriptor(a, i, &d), 0);
	return d;
}

/* The parameters of path's superblock at p->hash_offset into p, read
 * through the door (a tree opened alone, as dump opens it). */
int sb_params(fv_params *p, const char *path)
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

void on_failure(void *ctx, enum fv_failure_kind kind, uint64_t block,
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

/* A P-256 key and a self-signed certificate, as PEM files. */
void make_signer(const char *key_path, const char *cert_path)
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
int sign_root(const char *key, const char *cert, const char *root,
	      uint8_t **der, size_t *len)
{
	struct fv_sign_request q = {.size = sizeof(q)};

	q.key = key;
	q.cert = cert;
	return fv_sign(&q, root, der, len);
}

void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A super image written from the format: metadata 10.0, two slots,
 * partitions system_a (the bytes of part, n of them, at 1 MiB) and an
 * empty system_b, both copies of everything. */
void sha256_of(const uint8_t *p, size_t n, uint8_t out[32])
{
	unsigned len = 32;

	ck_assert_int_eq(EVP_Digest(p, n, out, &len, EVP_sha256(), NULL), 1);
}

void le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void make_super(const char *path, const uint8_t *part, size_t n)
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
	le(t + 36, 1, 4); /* readonly */
	le(t + 44, 1, 4); /* one extent, the first */
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

int f_ask(const struct fv_file_request *q, struct fv_file_answer *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	return fv_file(q, out);
}

int f_op(enum fv_file_op op, const char *path, struct fv_file_answer *out)
{
	struct fv_file_request q = {.size = sizeof(q), .op = op, .path = path};

	return out ? f_ask(&q, out) : fv_file(&q, NULL);
}

int f_root(const char *path, char *hex, size_t size)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_ROOT_HASH,
				    .path = path,
				    .text = hex,
				    .text_size = size};

	return fv_file(&q, NULL);
}

enum fv_superblock_at f_probe(const char *path, uint64_t off)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_SUPERBLOCK_AT,
				    .path = path,
				    .offset = off};
	struct fv_file_answer a;

	ck_assert_int_eq(f_ask(&q, &a), 0);
	return a.at;
}

int f_search(const char *path, uint64_t skip, uint64_t *off)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_SUPERBLOCK_FIND,
				    .path = path,
				    .offset = skip};
	struct fv_file_answer a;
	int r = f_ask(&q, &a);

	if (!r)
		*off = a.offset;
	return r;
}

const char *f_same(const char *a, const char *b)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_SAME_STORAGE,
				    .path = a,
				    .other = b};
	struct fv_file_answer ans;

	ck_assert_int_eq(f_ask(&q, &ans), 0);
	return ans.same;
}

int f_prune(const char *img, unsigned keep, unsigned *removed)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_SIDECAR_PRUNE,
				    .path = img,
				    .keep = keep};
	struct fv_file_answer a;
	int r = f_ask(&q, &a);

	if (removed)
		*removed = a.removed;
	return r;
}

int f_write(const char *path, const char *what, const void *buf, size_t len)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_WRITE,
				    .path = path,
				    .what = what,
				    .buf = buf,
				    .len = len};

	return fv_file(&q, NULL);
}

int f_read(const char *path, const char *what, size_t max, uint8_t **buf,
	   size_t *len)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_READ,
				    .path = path,
				    .what = what,
				    .max = max};
	struct fv_file_answer a;
	int r = f_ask(&q, &a);

	*buf = a.data;
	*len = a.len;
	return r;
}

int key_blob(const char *key, uint8_t **blob, size_t *len)
{
	struct fv_avb_key_request q = {
		.size = sizeof(q), .op = FV_AVB_KEY_BLOB, .key = key};

	return fv_avb_key(&q, blob, len);
}

int key_digest(const char *key, char hex[65])
{
	struct fv_avb_key_request q = {
		.size = sizeof(q), .op = FV_AVB_KEY_DIGEST, .key = key};
	uint8_t *d;
	size_t len;
	int r = fv_avb_key(&q, &d, &len);

	hex[0] = '\0';
	if (!r) {
		ck_assert_uint_eq(len, 64);
		memcpy(hex, d, 65);
		fv_free(d);
	}
	return r;
}

int key_generate(const char *algorithm, const char *output)
{
	struct fv_avb_key_request q = {.size = sizeof(q),
				       .op = FV_AVB_KEY_GENERATE,
				       .algorithm = algorithm,
				       .output = output};

	return fv_avb_key(&q, NULL, NULL);
}

int needs_minor(const struct fv_vbmeta_request *v,
		const struct fv_footer_request *f, unsigned *minor)
{
	struct fv_avb_needs n = {.size = sizeof(n)};
	int r = fv_avb_needs(v, f, &n);

	*minor = n.libavb_minor;
	return r;
}

int max_size(const struct fv_footer_request *f, uint64_t *max)
{
	struct fv_avb_needs n = {.size = sizeof(n)};
	int r = fv_avb_needs(NULL, f, &n);

	*max = n.max_image_size;
	return r;
}

const char *kernel_name(enum fv_sha256_kernel k)
{
	struct fv_runtime_info rt = {.size = sizeof(rt)};

	return fv_runtime_info(k, &rt) ? NULL : rt.sha256_kernel;
}

int say(const struct fv_param_words *words, size_t n, char *out, size_t len)
{
	struct fv_error_say s = {.size = sizeof(s),
				 .words = words,
				 .nwords = n,
				 .text = out,
				 .text_size = len};

	return fv_last_error_say(&s);
}

enum fv_param last_param(void)
{
	struct fv_error_say s = {.size = sizeof(s)};

	ck_assert_int_ge(fv_last_error_say(&s), 0);
	return s.param;
}

int f_container(const char *path, const char *asked, const char **name)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_CONTAINER,
				    .path = path,
				    .other = asked};
	struct fv_file_answer a;
	int r = f_ask(&q, &a);

	*name = a.container;
	return r;
}
