#include "error.h"

#include <stdio.h>
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
};

int ht_fail(struct ht_error *err, int errnum, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->problem_len = strlen(err->msg);
		err->param = HT_PARAM_NONE;
		err->fix[0] = '\0';
	}
	return -errnum;
}

void ht_render_fix(const struct ht_error *err, const struct ht_param_names *n,
		   char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *t = err->fix; *t && o + 1 < len; t++) {
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
				     (unsigned long long)err->value[0]);
		else
			w = snprintf(out + o, len - o, "%llu",
				     (unsigned long long)err->value[*t - '2']);
		if (w < 0)
			break;
		o += (size_t)w < len - o ? (size_t)w : len - o - 1;
	}
}

int ht_fail_fix(struct ht_error *err, int errnum, enum ht_param param,
		uint64_t v0, uint64_t v1, const char *fix, const char *fmt, ...)
{
	char rendered[512];
	va_list ap;

	if (!err)
		return -errnum;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->problem_len = strlen(err->msg);
	err->param = param;
	err->value[0] = v0;
	err->value[1] = v1;
	snprintf(err->fix, sizeof(err->fix), "%s", fix);
	ht_render_fix(err, &library_names[param], rendered, sizeof(rendered));
	snprintf(err->msg + err->problem_len,
		 sizeof(err->msg) - err->problem_len, " (%s)", rendered);
	return -errnum;
}

int ht_say(const struct ht_error *err, const struct ht_param_names *n,
	   char *out, size_t len)
{
	char fix[512];

	if (err->param == HT_PARAM_NONE || !n || !n->with_value || !n->alone)
		return snprintf(out, len, "%s", err->msg);
	ht_render_fix(err, n, fix, sizeof(fix));
	return snprintf(out, len, "%.*s (%s)", (int)err->problem_len, err->msg,
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
