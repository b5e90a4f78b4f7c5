/* libFuzzer: the command line itself. The input, split at newlines, is
 * the argument list of one fastverity run in a scratch directory holding
 * a data image, its hash image, root hash file and FEC file (made again
 * for every run). Any arguments must give an exit code of 0 to 5 without
 * a crash; arguments with a '/' are skipped so that nothing outside the
 * scratch directory is named, and actions that need device-mapper, loop
 * devices or long measurements are left out. Its output is not what is
 * tested: run.sh closes it (-close_fd_mask=3). The fsverity commands are
 * among them (its dictionary has their words). Each run goes into the
 * scratch directory and back: libFuzzer's own paths (a corpus it reads
 * and adds to, given relative) stay the directory it started in. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define MAX_ARGS 24

static char dir[64];
static int home = -1; /* where the fuzzer started: its paths' directory */
static uint8_t data[64 * 4096];

static void remove_all(void)
{
	DIR *d = opendir(".");
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(e->d_name);
	if (d)
		closedir(d);
}

static void cleanup(void)
{
	if (chdir(dir) == 0)
		remove_all();
	if (fchdir(home) == 0)
		rmdir(dir);
}

/* data, hash, root, fec as a user would have them */
static void make_files(void)
{
	static const char *argv[] = {"fastverity",
				     "format",
				     "data",
				     "hash",
				     "--salt=00",
				     "--root-hash-file=root",
				     "--fec-device=fec",
				     NULL};
	FILE *f = fopen("data", "wb");

	if (!f || fwrite(data, 1, sizeof(data), f) != sizeof(data))
		abort();
	fclose(f);
	if (cli_main(7, argv) != 0)
		abort();
}

static int skipped(const char *a)
{
	static const char *const actions[] = {"open",   "create", "close",
					      "remove", "status", "bench"};

	if (strchr(a, '/') || strchr(a, '?') || strstr(a, "help") ||
	    strstr(a, "usage"))
		return 1;
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(a, actions[i]))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	const char *argv[MAX_ARGS + 2];
	char *text, *save = NULL;
	int argc = 1, rc;

	if (!dir[0]) {
		strcpy(dir, "/tmp/fuzz-cli.XXXXXX");
		/* (not left there: libFuzzer reads its corpus after this
		 * first run, an empty input's, and writes into it after
		 * each run; a relative path was then the scratch
		 * directory's, every input of a kept corpus unread, and
		 * libFuzzer stopped: no interesting inputs were found) */
		if ((home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) <
			    0 ||
		    !mkdtemp(dir))
			abort();
		atexit(cleanup);
		for (size_t i = 0; i < sizeof(data); i++)
			data[i] = (uint8_t)(i * 131 + (i >> 12));
	}
	text = malloc(size + 1);
	memcpy(text, in, size);
	text[size] = '\0';
	if (strlen(text) != size) { /* NUL bytes: not an argument list */
		free(text);
		return 0;
	}
	argv[0] = "fastverity";
	for (char *a = strtok_r(text, "\n", &save); a && argc <= MAX_ARGS;
	     a = strtok_r(NULL, "\n", &save)) {
		if (skipped(a)) {
			free(text);
			return 0;
		}
		argv[argc++] = a;
	}
	argv[argc] = NULL;
	if (chdir(dir) != 0)
		abort();
	remove_all();
	make_files();
	rc = cli_main(argc, argv);
	if (fchdir(home) != 0)
		abort();
	/* veritysetup's codes, 0 to 5; lp's are lpdump's and lpunpack's
	 * (sysexits: 64 usage, 66 no input, 70 software, 71 OS error) */
	if ((rc < 0 || rc > 5) &&
	    !(argc > 1 && !strcmp(argv[1], "lp") &&
	      (rc == 64 || rc == 66 || rc == 70 || rc == 71)))
		abort();
	free(text);
	return 0;
}
