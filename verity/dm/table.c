/* The dm-verity target's parameter string, both ways. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/dm/table.h"

const struct verity_flag_word verity_flag_words[VERITY_NFLAGS] = {
	{VERITY_ACT_IGNORE_CORRUPTION, "ignore_corruption"},
	{VERITY_ACT_RESTART_ON_CORRUPTION, "restart_on_corruption"},
	{VERITY_ACT_PANIC_ON_CORRUPTION, "panic_on_corruption"},
	{VERITY_ACT_RESTART_ON_ERROR, "restart_on_error"},
	{VERITY_ACT_PANIC_ON_ERROR, "panic_on_error"},
	{VERITY_ACT_IGNORE_ZERO_BLOCKS, "ignore_zero_blocks"},
	{VERITY_ACT_CHECK_AT_MOST_ONCE, "check_at_most_once"},
	{VERITY_ACT_TASKLETS, "try_verify_in_tasklet"},
};
#define NWORDS VERITY_NFLAGS

static int popcount(unsigned v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

int verity_flags_check(unsigned flags, struct ht_error *err)
{
	unsigned corruption = flags & (VERITY_ACT_IGNORE_CORRUPTION |
				       VERITY_ACT_RESTART_ON_CORRUPTION |
				       VERITY_ACT_PANIC_ON_CORRUPTION);
	unsigned error = flags & (VERITY_ACT_RESTART_ON_ERROR |
				  VERITY_ACT_PANIC_ON_ERROR);

	if (popcount(corruption) > 1)
		return ht_fail(err, EINVAL,
			       "choose one corruption policy of "
			       "ignore_corruption, restart_on_corruption and "
			       "panic_on_corruption");
	if (popcount(error) > 1)
		return ht_fail(err, EINVAL,
			       "choose one error policy of restart_on_error "
			       "and panic_on_error");
	return 0;
}

int verity_table_params(const struct verity_target *t, char *out, size_t len,
			struct ht_error *err)
{
	const struct verity_params *p = t->p;
	const struct verity_fec_table *fec = t->fec;
	const char *sig_key_desc = t->sig_key_desc;
	unsigned flags = t->flags & ((1u << VERITY_NFLAGS) - 1);
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1],
		salt_hex[2 * VERITY_MAX_SALT_SIZE + 1];
	int nopts = popcount(flags) + (sig_key_desc ? 2 : 0) + (fec ? 8 : 0);
	size_t n;

	if (verity_flags_check(flags, err))
		return -EINVAL;
	if (sig_key_desc && strpbrk(sig_key_desc, " \t\n"))
		return ht_fail(err, EINVAL, "key description has white space");
	if (fec && (!*fec->dev || strpbrk(fec->dev, " \t\n")))
		return ht_fail(err, EINVAL, "bad FEC device name");
	verity_hex_encode(t->root, t->root_size, root_hex);
	verity_hex_encode(p->salt, p->salt_size, salt_hex);
	n = (size_t)snprintf(
		out, len, "%d %s %s %u %u %" PRIu64 " %" PRIu64 " %s %s %s",
		p->hash_type, t->data_dev, t->hash_dev, p->data_block_size,
		p->hash_block_size, p->data_blocks, t->hash_start_block,
		p->hash_name, root_hex, p->salt_size ? salt_hex : "-");
	if (nopts && n < len)
		n += (size_t)snprintf(out + n, len - n, " %d", nopts);
	for (size_t i = 0; i < NWORDS && n < len; i++)
		if (flags & verity_flag_words[i].flag)
			n += (size_t)snprintf(out + n, len - n, " %s",
					      verity_flag_words[i].word);
	if (fec && n < len)
		n += (size_t)snprintf(
			out + n, len - n,
			" use_fec_from_device %s fec_start %" PRIu64
			" fec_blocks %" PRIu64 " fec_roots %u",
			fec->dev, fec->start_block, fec->blocks, fec->roots);
	if (sig_key_desc && n < len)
		n += (size_t)snprintf(out + n, len - n,
				      " root_hash_sig_key_desc %s",
				      sig_key_desc);
	if (n >= len)
		return ht_fail(err, ENAMETOOLONG,
			       "device-mapper table too long");
	return 0;
}

int verity_table_parse(const char *params, struct verity_active *st,
		       struct ht_error *err)
{
	char copy[4096], *save = NULL, *w[16];
	int nw = 0, nopts, i;
	size_t n;

	if (strlen(params) >= sizeof(copy))
		return ht_fail(err, EINVAL, "verity table too long");
	strcpy(copy, params);
	while (nw < 10 && (w[nw] = strtok_r(nw ? NULL : copy, " ", &save)))
		nw++;
	if (nw < 10)
		return ht_fail(err, EINVAL, "verity table too short: %s",
			       params);
	verity_params_default(&st->p);
	st->p.hash_type = atoi(w[0]);
	snprintf(st->data_dev, sizeof(st->data_dev), "%s", w[1]);
	snprintf(st->hash_dev, sizeof(st->hash_dev), "%s", w[2]);
	st->p.data_block_size = (uint32_t)strtoul(w[3], NULL, 10);
	st->p.hash_block_size = (uint32_t)strtoul(w[4], NULL, 10);
	st->p.data_blocks = strtoull(w[5], NULL, 10);
	st->hash_start_block = strtoull(w[6], NULL, 10);
	snprintf(st->p.hash_name, sizeof(st->p.hash_name), "%s", w[7]);
	if (verity_hex_decode(w[8], st->root, sizeof(st->root), &st->root_size))
		return ht_fail(err, EINVAL,
			       "verity table root hash is not hex");
	st->p.salt_size = 0;
	if (strcmp(w[9], "-") &&
	    verity_hex_decode(w[9], st->p.salt, VERITY_MAX_SALT_SIZE, &n) == 0)
		st->p.salt_size = n;
	st->flags = 0;
	st->sig_key_desc[0] = '\0';
	st->fec_dev[0] = '\0';
	st->fec_start_block = st->fec_blocks = 0;
	st->fec_roots = 0;
	char *t = strtok_r(NULL, " ", &save);
	nopts = t ? atoi(t) : 0;
	for (i = 0; i < nopts && (t = strtok_r(NULL, " ", &save)); i++) {
		size_t k;

		for (k = 0; k < NWORDS; k++)
			if (!strcmp(t, verity_flag_words[k].word))
				st->flags |= verity_flag_words[k].flag;
		if (!strcmp(t, "root_hash_sig_key_desc") ||
		    !strcmp(t, "use_fec_from_device") ||
		    !strcmp(t, "fec_start") || !strcmp(t, "fec_blocks") ||
		    !strcmp(t, "fec_roots")) {
			const char *key = t;

			if (!(t = strtok_r(NULL, " ", &save)))
				break;
			i++;
			if (!strcmp(key, "root_hash_sig_key_desc"))
				snprintf(st->sig_key_desc,
					 sizeof(st->sig_key_desc), "%s", t);
			else if (!strcmp(key, "use_fec_from_device"))
				snprintf(st->fec_dev, sizeof(st->fec_dev), "%s",
					 t);
			else if (!strcmp(key, "fec_start"))
				st->fec_start_block = strtoull(t, NULL, 10);
			else if (!strcmp(key, "fec_blocks"))
				st->fec_blocks = strtoull(t, NULL, 10);
			else
				st->fec_roots = (unsigned)strtoul(t, NULL, 10);
		}
	}
	return 0;
}

void verity_status_parse(const char *status, struct verity_active *st)
{
	char *end;
	long long n;

	st->corrupted = status[0] == 'C';
	st->fec_repaired = -1;
	if (status[0] && status[1] == ' ' && status[2] >= '0' &&
	    status[2] <= '9') {
		errno = 0;
		n = strtoll(status + 2, &end, 10);
		if (!errno && (*end == '\0' || *end == ' '))
			st->fec_repaired = n;
	}
}
