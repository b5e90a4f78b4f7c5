/* Files for the unit suites that write images: a private directory of
 * the suite's, and a whole file read into memory. */
#ifndef FV_UNIT_FILES_H
#define FV_UNIT_FILES_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dir (at least 64 bytes, "" at first) made once from template, then
 * dir/name, allocated. */
static inline char *unit_path(char *dir, const char *template, const char *name)
{
	char *path;

	if (!dir[0]) {
		strcpy(dir, template);
		ck_assert_ptr_nonnull(mkdtemp(dir));
	}
	ck_assert_int_ge(asprintf(&path, "%s/%s", dir, name), 0);
	return path;
}

/* The file's bytes (*len of them), allocated. */
static inline uint8_t *unit_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n ? (size_t)n : 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif
