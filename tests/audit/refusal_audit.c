/*
 * refusal_audit - every public function that takes a pointer, called with
 * NULL, with a pointer to something that is no object, and with a live
 * object of another type (the cases are generated from the headers by
 * gen_refusal_audit.py).  Each call must be refused as the API documents
 * it (an error code; NULL or zero from accessors; nothing done by void
 * setters) with exactly one SDK ERROR record naming the function and no
 * WARNING, and must not crash: the asan suite runs the same program.
 *
 * Usage: refusal_audit [--fork] [--verbose] [FUNCTION-PREFIX]
 *   --fork  run every case in a child process, so that one crash does not
 *           hide the findings after it (a crash then counts as a failure)
 */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "refusal_audit.h"

void *audit_garbage;
void *audit_scratch;
static struct doca_pe *foreign_pe;
static struct doca_buf_inventory *foreign_inventory;

void *audit_foreign(const char *type)
{
	if (strcmp(type, "doca_pe") == 0)
		return foreign_inventory;
	return foreign_pe;
}

/* SDK log capture: ERROR and WARNING records of the current case. */
static char log_buf[8192];
static char last_error[8192];
static int errors, warnings;

static void log_record(char *rec)
{
	if (strstr(rec, "][ERR][") != NULL) {
		errors++;
		snprintf(last_error, sizeof(last_error), "%s", rec);
	} else if (strstr(rec, "][WRN][") != NULL) {
		warnings++;
	}
}

static bool setup(void)
{
	struct doca_log_backend *b = NULL;

	audit_garbage = malloc(4096);
	audit_scratch = calloc(1, 4096);
	if (audit_garbage == NULL || audit_scratch == NULL)
		return false;
	memset(audit_garbage, 0xA5, 4096);
	if (doca_log_backend_create_with_buf_sdk(log_buf, sizeof(log_buf), log_record, &b) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS)
		return false;
	return doca_pe_create(&foreign_pe) == DOCA_SUCCESS &&
	       doca_buf_inventory_create(4, &foreign_inventory) == DOCA_SUCCESS;
}

static void teardown(void)
{
	doca_buf_inventory_destroy(foreign_inventory);
	doca_pe_destroy(foreign_pe);
	free(audit_garbage);
	free(audit_scratch);
}

static const char *outcome_text(const struct audit_case *c, long r, char *buf, size_t n)
{
	if (c->returns_error)
		return doca_error_get_name((doca_error_t)r);
	snprintf(buf, n, "%s", r == AUDIT_VOID ? "(void)" : r == AUDIT_ZERO ? "NULL/0" : "non-NULL/non-0");
	return buf;
}

/* Run one case here; a description of what is wrong, or NULL. */
static const char *judge(const struct audit_case *c, char *why, size_t n)
{
	char text[32];
	long r;
	bool refused;

	errors = warnings = 0;
	last_error[0] = '\0';
	r = c->call();
	refused = c->returns_error ? r != DOCA_SUCCESS : r == AUDIT_VOID || r == AUDIT_ZERO;
	if (c->expect == AUDIT_QUIET_OK) {
		if ((c->returns_error && r != DOCA_SUCCESS) || errors + warnings != 0)
			return snprintf(why, n, "expected a quiet success, got %s with %d ERROR and %d WARNING records",
					outcome_text(c, r, text, sizeof(text)), errors, warnings),
			       why;
		return NULL;
	}
	if (!refused)
		return snprintf(why, n, "not refused: %s", outcome_text(c, r, text, sizeof(text))), why;
	if (errors != 1 || warnings != 0)
		return snprintf(why, n, "refused with %s but logged %d ERROR and %d WARNING records (last: %s)",
				outcome_text(c, r, text, sizeof(text)), errors, warnings, last_error),
		       why;
	if (strstr(last_error, c->named) == NULL)
		return snprintf(why, n, "the ERROR record does not name %s: %s", c->named, last_error), why;
	return NULL;
}

/* The same in a child process: a crash is a failure, not the end of the audit. */
static const char *judge_in_child(const struct audit_case *c, char *why, size_t n)
{
	int fds[2], status = 0;
	pid_t pid;
	ssize_t got;

	if (pipe(fds) != 0)
		return "pipe failed";
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		const char *w = judge(c, why, n);
		if (w != NULL && write(fds[1], w, strlen(w)) < 0)
			_exit(3);
		_exit(w == NULL ? 0 : 1);
	}
	close(fds[1]);
	got = read(fds[0], why, n - 1);
	close(fds[0]);
	why[got > 0 ? got : 0] = '\0';
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		return snprintf(why, n, "crashed with signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status))), why;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return NULL;
	if (got <= 0)
		snprintf(why, n, "child exited with status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return why;
}

int main(int argc, char **argv)
{
	bool fork_each = false, verbose = false;
	const char *prefix = "";
	size_t ran = 0, failed = 0, skipped = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--fork") == 0)
			fork_each = true;
		else if (strcmp(argv[i], "--verbose") == 0)
			verbose = true;
		else
			prefix = argv[i];
	}
	if (!setup()) {
		fprintf(stderr, "refusal_audit: set-up failed\n");
		return 1;
	}
	for (size_t i = 0; i < audit_num_cases; i++) {
		const struct audit_case *c = &audit_cases[i];
		char why[8192];
		const char *wrong;

		if (strncmp(c->func, prefix, strlen(prefix)) != 0)
			continue;
		if (c->expect == AUDIT_SKIP) {
			skipped++;
			if (verbose)
				printf("skip %s (%s): %s\n", c->func, c->variant, c->why);
			continue;
		}
		ran++;
		wrong = fork_each ? judge_in_child(c, why, sizeof(why)) : judge(c, why, sizeof(why));
		if (wrong != NULL) {
			failed++;
			printf("FAIL %s (%s): %s\n", c->func, c->variant, wrong);
		} else if (verbose) {
			printf("ok   %s (%s)%s%s\n", c->func, c->variant, c->why[0] ? ": " : "", c->why);
		}
	}
	teardown();
	printf("refusal_audit: %zu calls, %zu failed, %zu not called (tested elsewhere)\n", ran, failed, skipped);
	return failed == 0 && ran > 0 ? 0 : 1;
}
