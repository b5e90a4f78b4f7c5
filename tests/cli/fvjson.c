/* The command under test, as the tests run it (lib.sh's $FV): with
 * --json among its arguments, what it prints is also appended to
 * $FV_JSON_LOG (the arguments, 0x1e, the document, 0x1f, the exit code,
 * 0x1d), which lib.sh's finish checks (tests/cli/jsoncheck.py): one JSON
 * document, no key twice in an object, valid against
 * docs/fastverity.schema.json, and an exit code that agrees with it. Otherwise the
 * command itself, exec'd: a program, not a script, so that LD_PRELOAD
 * shims and strace see the command's calls and nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *real = getenv("FV_REAL"), *log = getenv("FV_JSON_LOG");
	int json = 0, fd[2], status;
	char buf[65536];
	FILE *out;
	pid_t pid;
	ssize_t n;

	if (!real) {
		fputs("fvjson: FV_REAL is not set\n", stderr);
		return 127;
	}
	for (int i = 1; i < argc; i++)
		json |= !strcmp(argv[i], "--json") ||
			!strncmp(argv[i], "--json=", 7);
	argv[0] = (char *)real;
	if (!json || !log || !*log || pipe(fd)) {
		execv(real, argv);
		perror(real);
		return 127;
	}
	if ((pid = fork()) < 0)
		return 127;
	if (!pid) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execv(real, argv);
		perror(real);
		_exit(127);
	}
	close(fd[1]);
	out = fopen(log, "a");
	if (out) {
		for (int i = 1; i < argc; i++)
			fprintf(out, "%s%s", i > 1 ? " " : "", argv[i]);
		fputc(0x1e, out);
	}
	while ((n = read(fd[0], buf, sizeof(buf))) > 0) {
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
			break;
		if (out)
			fwrite(buf, 1, (size_t)n, out);
	}
	fflush(stdout);
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0)
		status = 127 << 8;
	status = WIFEXITED(status) ? WEXITSTATUS(status)
				   : 128 + WTERMSIG(status);
	if (out) {
		/* the exit code, for the check that it agrees with the
		 * document */
		fprintf(out, "%c%d%c", 0x1f, status, 0x1d);
		fclose(out);
	}
	return status;
}
