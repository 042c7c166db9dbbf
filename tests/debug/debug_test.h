/*
 * debug_test.h - what the tests of the debugging features share: an SDK
 * log capture at a chosen level, and running this same program again as a
 * child process with another environment (the features read theirs before
 * main()), collecting its output.
 */
#ifndef DEBUG_TEST_H
#define DEBUG_TEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_log.h>

#include "sd_fixture.h"
#include "sd_test.h"

/* ---- SDK log capture: every record at `level` or more severe, in a temp file ---- */

static FILE *dt_logf;
static long dt_log_from;

static inline void dt_log_capture(uint32_t level)
{
	struct doca_log_backend *b = NULL;

	dt_logf = tmpfile();
	if (dt_logf == NULL || doca_log_backend_create_with_file_sdk(dt_logf, &b) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(b, level) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot capture the SDK log\n");
		exit(1);
	}
}

static inline void dt_log_mark(void)
{
	fflush(dt_logf);
	fseek(dt_logf, 0, SEEK_END);
	dt_log_from = ftell(dt_logf);
}

/*
 * Records since the mark that contain every one of the NULL-terminated
 * `needles` (none: every record), each echoed to stderr.  `tag` ("[ERR]",
 * "[WRN]", NULL for any) narrows to one level.
 */
static inline int dt_log_count(const char *tag, const char *const *needles)
{
	char line[8192];
	int n = 0;

	fflush(dt_logf);
	fseek(dt_logf, dt_log_from, SEEK_SET);
	while (fgets(line, sizeof(line), dt_logf) != NULL) {
		bool all = tag == NULL || strstr(line, tag) != NULL;

		for (const char *const *p = needles; all && p != NULL && *p != NULL; p++)
			all = strstr(line, *p) != NULL;
		if (all) {
			fprintf(stderr, "[%s] record: %s", sd_test_case_name, line);
			n++;
		}
	}
	fseek(dt_logf, 0, SEEK_END);
	return n;
}

#define DT_WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The records since the mark, concatenated (for "does not contain" checks). */
static inline bool dt_log_contains(const char *text)
{
	char line[8192];
	bool found = false;

	fflush(dt_logf);
	fseek(dt_logf, dt_log_from, SEEK_SET);
	while (fgets(line, sizeof(line), dt_logf) != NULL)
		found = found || strstr(line, text) != NULL;
	fseek(dt_logf, 0, SEEK_END);
	return found;
}

/* ---- this program again, as a child ---- */

/*
 * Run /proc/self/exe MODE with `env` ("NAME=VALUE" strings, NULL-ended)
 * added; its stdout and stderr go to `out` (NUL-terminated, cut at
 * `len`).  Returns its exit status, or -1.
 */
static inline int dt_run_self(const char *mode, const char *const *env, char *out, size_t len)
{
	int fds[2];
	pid_t pid;
	size_t used = 0;
	int status;

	if (pipe(fds) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		for (const char *const *e = env; e != NULL && *e != NULL; e++)
			putenv((char *)*e);
		execl("/proc/self/exe", "child", mode, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		char scratch[4096];
		bool full = used == len - 1;
		ssize_t n = full ? read(fds[0], scratch, sizeof(scratch)) : read(fds[0], out + used, len - 1 - used);

		if (n <= 0)
			break;
		if (!full)
			used += (size_t)n; /* past `len` the output is read and dropped, so the child never blocks */
	}
	out[used] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* How many times `needle` occurs in `text`. */
static inline int dt_occurrences(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* ---- a topology of the test's own ---- */

static inline void dt_use_topology(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Write the topology file `fmt` describes to a fresh temporary file and
 * point SOFTDOCA_TOPOLOGY at it (read at the first device list); exit 1
 * when it cannot be written.  The test unlinks getenv("SOFTDOCA_TOPOLOGY").
 */
static inline void dt_use_topology(const char *fmt, ...)
{
	char path[] = "/tmp/softdoca-test-topology.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	va_list ap;

	if (f == NULL) {
		fprintf(stderr, "cannot write a topology file\n");
		exit(1);
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
	setenv("SOFTDOCA_TOPOLOGY", path, 1);
}

/* ---- one case per run ---- */

/* A case of a program that meson runs once per case, each with its own environment. */
struct dt_case {
	const char *name;
	void (*fn)(void);
};

/* Run the case called `name`; the exit status (2: no such case). */
static inline int dt_run_case(const struct dt_case *cases, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(name, cases[i].name) == 0) {
			sd_test_run(cases[i].name, cases[i].fn);
			return sd_test_done();
		}
	}
	fprintf(stderr, "unknown case %s\n", name);
	return 2;
}

#endif /* DEBUG_TEST_H */
