#include "error.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library's words for its parameters. */
static const struct ht_param_names library_names[HT_PARAM_COUNT] = {
	[HT_PARAM_DATA_BLOCKS] = {"a data block count of %llu",
				  "the data block count"},
	[HT_PARAM_HASH_OFFSET] = {"a hash offset of %llu", "the hash offset"},
	[HT_PARAM_FEC_ROOTS] = {"%llu roots", "the roots"},
	[HT_PARAM_FEC_OFFSET] = {"an FEC offset of %llu", "the FEC offset"},
	[HT_PARAM_PASSPHRASE] = {"its passphrase", "its passphrase"},
	[HT_PARAM_DRY_RUN] = {"a repair for real, not a dry run",
			      "a repair for real, not a dry run"},
	[HT_PARAM_CONTAINER] = {"container", "container"},
	[HT_PARAM_TRUSTED_CERT] = {"the signer's certificate",
				   "the signer's certificate"},
	[HT_PARAM_TRUSTED_KEY] = {"the signer's public key",
				  "the signer's public key"},
	[HT_PARAM_ROOT_HASH] = {"the root hash", "the root hash"},
	[HT_PARAM_PARTITION] = {"the partition", "the partition"},
};

/* A slot: the message, its NUL, the fix's template, its NUL. */
#define SLOT_BYTES (HT_ERROR_MAX + HT_FIX_MAX)
/* The slot only ht_keep writes. */
#define KEPT HT_ERROR_SLOTS
/* The serial of a message the store could not be had for. */
#define NO_ROOM UINT64_MAX

struct ht_store {
	char *text; /* HT_ERROR_SLOTS + 1 slots, then one to write in;
		     * allocated at the store's first message */
	uint64_t serial[HT_ERROR_SLOTS + 1]; /* each slot's message's */
	unsigned next;                       /* the slot written next */
	int busy;         /* lent to a thread not joined yet */
	pthread_t thread; /* that thread */
	struct ht_store *kids;    /* the stores lent by its user */
	struct ht_store *sibling; /* the next of its lender's */
};

/* The store this thread writes to: its own, or the one its starter lent
 * it. */
static _Thread_local struct ht_store *mine;
static pthread_key_t own_key;
static _Atomic int own_key_made; /* read by every thread */
static pthread_once_t own_once = PTHREAD_ONCE_INIT;
static _Atomic uint64_t serials;

static void store_free(struct ht_store *s)
{
	while (s->kids) {
		struct ht_store *k = s->kids;

		s->kids = k->sibling;
		store_free(k);
	}
	free(s->text);
	free(s);
}

/* A thread's own store goes with it. */
static void own_free(void *p)
{
	if (mine == p)
		mine = NULL;
	store_free(p);
}

static void own_key_make(void)
{
	own_key_made = !pthread_key_create(&own_key, own_free);
}

/* The library unloaded (dlclose): no thread's end calls into it after
 * (a store still held is left). */
__attribute__((destructor)) static void own_key_drop(void)
{
	if (own_key_made) {
		own_key_made = 0;
		pthread_key_delete(own_key);
	}
}

/* This thread's store, its text not yet allocated perhaps. */
static struct ht_store *store(void)
{
	if (mine)
		return mine;
	pthread_once(&own_once, own_key_make);
	if (!own_key_made || !(mine = calloc(1, sizeof(*mine))))
		return NULL;
	if (pthread_setspecific(own_key, mine)) {
		free(mine);
		mine = NULL;
	}
	return mine;
}

/* The store with its text, or NULL. */
static struct ht_store *store_text(void)
{
	struct ht_store *s = store();

	if (s && !s->text)
		s->text = malloc((size_t)(HT_ERROR_SLOTS + 2) * SLOT_BYTES);
	return s && s->text ? s : NULL;
}

static char *slot_text(const struct ht_store *s, unsigned slot)
{
	return s->text + (size_t)slot * SLOT_BYTES;
}

/* Where a message is written before it is placed (the arguments may be
 * the text of the slot it goes to). */
static char *scratch(const struct ht_store *s)
{
	return slot_text(s, HT_ERROR_SLOTS + 1);
}

/* Whether s is in, or lent by a user of, store `in` and not in use by a
 * running thread. */
static int readable(const struct ht_store *in, const struct ht_store *s)
{
	if (!in)
		return 0;
	if (s == in)
		return 1;
	for (const struct ht_store *k = in->kids; k; k = k->sibling)
		if (!k->busy && readable(k, s))
			return 1;
	return 0;
}

/* err's text, NULL if it has none to be read here. */
static const char *text_of(const struct ht_error *err)
{
	const struct ht_store *s = err->store;

	if (!err->serial || err->serial == NO_ROOM || err->slot > KEPT ||
	    !readable(mine, s) || s->serial[err->slot] != err->serial)
		return NULL;
	return slot_text(s, err->slot);
}

const char *ht_msg(const struct ht_error *err)
{
	const char *t;

	if (!err || !err->serial)
		return "";
	if (err->serial == NO_ROOM)
		return "out of memory";
	t = text_of(err);
	return t ? t : HT_ERROR_LOST;
}

/* The fix's template, after the message. */
static const char *fix_of(const struct ht_error *err)
{
	const char *t = text_of(err);

	return t ? t + strlen(t) + 1 : "";
}

/* No store to be had: the message is lost, said as out of memory. */
static void no_room(struct ht_error *err)
{
	err->serial = NO_ROOM;
	err->store = NULL;
	err->slot = 0;
	err->problem_len = strlen("out of memory");
	err->param = HT_PARAM_NONE;
}

/* The message in s's scratch (then its fix's template) placed in slot
 * (KEPT, or the next one) for err. */
static void place(struct ht_error *err, struct ht_store *s, int kept)
{
	const char *from = scratch(s);
	size_t len = strlen(from) + 1;
	unsigned slot = KEPT;

	len += strlen(from + len) + 1;
	if (!kept) {
		slot = s->next;
		s->next = (s->next + 1) % HT_ERROR_SLOTS;
	}
	memcpy(slot_text(s, slot), from, len);
	s->serial[slot] = atomic_fetch_add(&serials, 1) + 1;
	err->serial = s->serial[slot];
	err->store = s;
	err->slot = slot;
}

int ht_failv(struct ht_error *err, int errnum, const char *fmt, va_list ap)
{
	struct ht_store *s;
	char *t;

	if (!err)
		return -errnum;
	if (!(s = store_text())) {
		no_room(err);
		return -errnum;
	}
	t = scratch(s);
	vsnprintf(t, HT_ERROR_MAX, fmt, ap);
	err->problem_len = strlen(t);
	t[err->problem_len + 1] = '\0';
	err->param = HT_PARAM_NONE;
	place(err, s, 0);
	return -errnum;
}

int ht_fail(struct ht_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ht_failv(err, errnum, fmt, ap);
	va_end(ap);
	return -errnum;
}

/* The template rendered with the values v and the names n into out. */
static void render(const char *fix, const uint64_t v[2],
		   const struct ht_param_names *n, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *t = fix; *t && o + 1 < len; t++) {
		int w = 0;

		if (t[0] != '%' || t[1] < '0' || t[1] > '3') {
			out[o++] = *t;
			out[o] = '\0';
			continue;
		}
		t++;
		if (*t == '0')
			w = snprintf(out + o, len - o, "%s", n->alone);
		else if (*t == '1')
			w = snprintf(out + o, len - o, n->with_value,
				     (unsigned long long)v[0]);
		else
			w = snprintf(out + o, len - o, "%llu",
				     (unsigned long long)v[*t - '2']);
		if (w < 0)
			break;
		o += (size_t)w < len - o ? (size_t)w : len - o - 1;
	}
}

void ht_render_fix(const struct ht_error *err, const struct ht_param_names *n,
		   char *out, size_t len)
{
	render(fix_of(err), err->value, n, out, len);
}

int ht_fail_fix(struct ht_error *err, int errnum, enum ht_param param,
		uint64_t v0, uint64_t v1, const char *fix, const char *fmt, ...)
{
	char rendered[512], tmpl[HT_FIX_MAX];
	struct ht_store *s;
	size_t end;
	va_list ap;
	char *t;

	if (!err)
		return -errnum;
	if (!(s = store_text())) {
		no_room(err);
		return -errnum;
	}
	/* (fix, and the arguments, may be a message's text) */
	snprintf(tmpl, sizeof(tmpl), "%s", fix);
	t = scratch(s);
	va_start(ap, fmt);
	vsnprintf(t, HT_ERROR_MAX, fmt, ap);
	va_end(ap);
	err->problem_len = strlen(t);
	err->param = param;
	err->value[0] = v0;
	err->value[1] = v1;
	render(tmpl, err->value, &library_names[param], rendered,
	       sizeof(rendered));
	snprintf(t + err->problem_len, HT_ERROR_MAX - err->problem_len,
		 " (%s)", rendered);
	end = strlen(t) + 1;
	memcpy(t + end, tmpl, strlen(tmpl) + 1);
	place(err, s, 0);
	return -errnum;
}

/* src's message copied into this thread's store for dst. */
static void copy(struct ht_error *dst, const struct ht_error *src, int kept)
{
	const char *from = text_of(src);
	struct ht_error e = *src;
	struct ht_store *s;
	size_t len;
	char *t;

	if (!src->serial || src->serial == NO_ROOM ||
	    (from && src->store == mine && (src->slot == KEPT) == kept)) {
		*dst = e; /* nothing to copy, or kept where it is wanted */
		return;
	}
	if (!(s = store_text())) {
		no_room(dst);
		return;
	}
	t = scratch(s);
	if (!from) {
		snprintf(t, SLOT_BYTES, "%s", HT_ERROR_LOST);
		t[strlen(t) + 1] = '\0';
		e.problem_len = strlen(t);
		e.param = HT_PARAM_NONE;
	} else {
		len = strlen(from) + 1;
		len += strlen(from + len) + 1;
		memcpy(t, from, len);
	}
	place(&e, s, kept);
	*dst = e;
}

void ht_handover(struct ht_error *dst, const struct ht_error *src)
{
	if (dst && src)
		copy(dst, src, 0);
}

void ht_keep(struct ht_error *dst, const struct ht_error *src)
{
	if (dst && src)
		copy(dst, src, 1);
}

struct ht_store *ht_store_lend(void)
{
	struct ht_store *s = store(), *k;

	if (!s)
		return NULL;
	for (k = s->kids; k && k->busy; k = k->sibling)
		;
	if (!k) {
		if (!(k = calloc(1, sizeof(*k))))
			return NULL;
		k->sibling = s->kids;
		s->kids = k;
	}
	k->busy = 1;
	return k;
}

void ht_store_use(struct ht_store *s)
{
	mine = s;
}

void ht_store_lent_to(struct ht_store *s, pthread_t thread)
{
	s->thread = thread;
}

void ht_store_unlend(struct ht_store *s)
{
	s->busy = 0;
}

void ht_store_joined(pthread_t thread)
{
	for (struct ht_store *k = mine ? mine->kids : NULL; k; k = k->sibling)
		if (k->busy && pthread_equal(k->thread, thread)) {
			k->busy = 0;
			return;
		}
}

int ht_say(const struct ht_error *err, const struct ht_param_names *n,
	   char *out, size_t len)
{
	char fix[512];
	const char *msg = ht_msg(err);

	if (err->param == HT_PARAM_NONE || !n || !n->with_value || !n->alone)
		return snprintf(out, len, "%s", msg);
	ht_render_fix(err, n, fix, sizeof(fix));
	return snprintf(out, len, "%.*s (%s)", (int)err->problem_len, msg,
			fix);
}

const char *ht_name_shown(const void *name, size_t n, char *buf, size_t len)
{
	const unsigned char *p = name;
	size_t o = 0;

	if (!buf || !len)
		return buf;
	for (size_t i = 0; p && i < n && i < 256 && o + 5 < len; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\')
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x",
					      p[i]);
		else
			buf[o++] = (char)p[i];
	}
	if (n > 256 && o + 4 <= len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}
