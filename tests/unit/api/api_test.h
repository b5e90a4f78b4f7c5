/* What the public API's unit suites (tests/unit/api/test_*.c, one for
 * each verity/api/<file>.c) share, made of <fastverity.h> alone: the
 * fixture (a directory of the test's with data of BLOCKS blocks), files
 * written and poked, the door's pairs and images opened, verified and
 * repaired, and the small readers of what a result or image says. */
#ifndef FV_API_TEST_H
#define FV_API_TEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "include/fastverity.h"

#define BS     4096u
#define BLOCKS 300u

/* the fixture: the test's directory, its data file (BLOCKS blocks of
 * image) and the paths of a tree and parity beside it */
extern char dir[64], data[96], hash[96], fec[96];
void fill(uint8_t *b, size_t n, unsigned seed);
void write_file(const char *path, const uint8_t *b, size_t n);
void poke(const char *path, uint64_t off);
int same_file(const char *a, const uint8_t *b, size_t n);
extern uint8_t *image;

/* What a result says (fv_result_report): its strings point into r. */
struct fv_report rpt(const fv_result *r);

/* The root's bytes into buf (at most size), their number returned. */
size_t root_of(const fv_result *r, uint8_t *buf, size_t size);

/* The layout of the pair a result acted on. */
struct fv_layout layout_of(const fv_result *r);

/* A pair's parity and signature, for the pairs the tests below make of
 * their parts (set_parity, set_signature; reset for each test). */
extern const char *t_parity;
extern unsigned t_roots;
extern char t_sig_path[128];
extern const char *t_sig;
int set_parity(const char *path, unsigned roots);

/* der written to a file of the test's directory (the caller may free
 * it), given to the door as the pair's signature. */
int set_signature(const uint8_t *der, size_t len);

/* Parameters as format's defaults (fv_params_init), on the heap. */
fv_params *params_new(void);
void params_salt(fv_params *p, const void *salt, size_t len);

/* The door's plain pair of d and h with p's parameters (NULL: the
 * superblock's), the root (hex; NULL: none) and the parity and
 * signature set, opened with o for an action that writes or not. */
int pair_open(const fv_params *p, const char *d, const char *h,
		     const char *root_hex, const fv_options *o, int writes,
		     fv_image **out);

/* format of d into h with p and the parity set; p's data blocks filled
 * in from the parameters written. */
int t_format(fv_params *p, const char *d, const char *h,
		    const fv_options *o, fv_result **res);

/* fv_repair of pair i of im with o's repair how, or fv_verify of it
 * (repair 0); o's repair left as it was when the call refuses how. */
int repair_with(fv_options *o, unsigned how, int repair,
		       const fv_image *im, size_t i, fv_result **res);

/* verify (repair 0) or repair (how) of the pair, failures to fn; the
 * pair opened with the same options (a repair that writes: judged
 * so). */
int t_check(int repair, fv_params *p, const char *d, const char *h,
		   const char *root_hex, fv_options *o, unsigned how,
		   fv_failure_fn fn, void *ctx, fv_result **res);
int t_verify(fv_params *p, const char *d, const char *h,
		    const char *root_hex, fv_options *o, fv_failure_fn fn,
		    void *ctx, fv_result **res);
int t_repair(fv_params *p, const char *d, const char *h,
		    const char *root_hex, fv_options *o, unsigned how,
		    fv_failure_fn fn, void *ctx, fv_result **res);

/* An image given alone through the door (container NULL: the
 * registry's word). */
int image_open(const char *path, const char *container,
		      const fv_options *o, fv_image **im);

/* verify (how 0) or repair (how: its flags, or'ed with 1u << 31) of an
 * image's pair i. */
#define REPAIR (1u << 31)
int image_check(const fv_image *im, size_t i, fv_options *o,
		       unsigned how, fv_failure_fn fn, void *ctx,
		       fv_result **res);

/* The same of an Android image opened with key as its anchor (NULL:
 * none), for an action that writes when how asks one. */
int avb_check(const char *path, const char *key, unsigned how,
		     fv_failure_fn fn, void *ctx, fv_result **res);
void setup(void);
void teardown(void);

/* A PEM RSA key of bits into path. */
void make_key(const char *path, unsigned bits);

/* What an image opened is (fv_image_info), and its pair i. */
struct fv_image_info img_info(const fv_image *im);
struct fv_image_pair_info img_pair(const fv_image *im, size_t i);

/* An Android image read for showing (fv_open's show), and its vbmeta. */
const fv_avb *image_shown(const char *path, fv_image **im);

/* An Android image's fv_avb_info, and its descriptor i. */
struct fv_avb_info avb_info(const fv_avb *a);
struct fv_avb_descriptor avb_desc(const fv_avb *a, size_t i);

/* The parameters of path's superblock at p->hash_offset into p, read
 * through the door (a tree opened alone, as dump opens it). */
int sb_params(fv_params *p, const char *path);
struct seen {
	unsigned n;
	enum fv_failure_kind kind[8];
	uint64_t block[8], offset[8];
	unsigned level[8];
	uint64_t progress_done, progress_total;
	char passes[128]; /* the passes named, '|' between */
};
void on_failure(void *ctx, enum fv_failure_kind kind, uint64_t block,
		       uint64_t offset, unsigned level);

/* A P-256 key and a self-signed certificate, as PEM files. */
void make_signer(const char *key_path, const char *cert_path);

/* root signed by key and cert, as fv_sign's plainest request. */
int sign_root(const char *key, const char *cert, const char *root,
		     uint8_t **der, size_t *len);
void write_text(const char *path, const char *text);

/* A super image written from the format: metadata 10.0, two slots,
 * partitions system_a (the bytes of part, n of them, at 1 MiB) and an
 * empty system_b, both copies of everything. */
void sha256_of(const uint8_t *p, size_t n, uint8_t out[32]);
void le(uint8_t *p, uint64_t v, unsigned bytes);
void make_super(const char *path, const uint8_t *part, size_t n);

/* fv_file's ops, one helper each (a, or path alone into *out). */
int f_ask(const struct fv_file_request *q, struct fv_file_answer *out);
int f_op(enum fv_file_op op, const char *path, struct fv_file_answer *out);
int f_root(const char *path, char *hex, size_t size);
int f_container(const char *path, const char *asked, const char **name);
enum fv_superblock_at f_probe(const char *path, uint64_t off);
int f_search(const char *path, uint64_t skip, uint64_t *off);
const char *f_same(const char *a, const char *b);
int f_prune(const char *img, unsigned keep, unsigned *removed);
int f_write(const char *path, const char *what, const void *buf, size_t len);
int f_read(const char *path, const char *what, size_t max, uint8_t **buf,
	   size_t *len);

/* fv_avb_key's ops and fv_avb_needs's answers, one helper each. */
int key_blob(const char *key, uint8_t **blob, size_t *len);
int key_digest(const char *key, char hex[65]);
int key_generate(const char *algorithm, const char *output);
int needs_minor(const struct fv_vbmeta_request *v,
		const struct fv_footer_request *f, unsigned *minor);
int max_size(const struct fv_footer_request *f, uint64_t *max);

/* Kernel k's name (fv_runtime_info's), or NULL. */
const char *kernel_name(enum fv_sha256_kernel k);

/* fv_last_error_say's: the message in words into out; the parameter. */
int say(const struct fv_param_words *words, size_t n, char *out, size_t len);
enum fv_param last_param(void);

#endif
