/*
 * SOFTDOCA_SDK_LOG (set to "error" by meson for this program) adds an SDK
 * backend on stderr before main().  A program that also creates an SDK
 * backend of its own on stderr, as the official samples do, must still see
 * every record once, never twice; records its own backend filters out
 * still show through the variable's backend.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_buf_inventory.h>
#include <doca_log.h>

#include "sd_test.h"

/*
 * Run one rejected call (doca_buf_inventory_create with a NULL result:
 * exactly one ERROR record) with stderr sent to a file; return how many
 * lines of that file name the function.
 */
static int records_of_one_rejected_call(void)
{
	char path[] = "/tmp/softdoca-log-env-XXXXXX";
	char line[8192];
	int fd = mkstemp(path);
	int saved = dup(STDERR_FILENO);
	int count = 0;
	FILE *f;

	if (fd < 0 || saved < 0)
		return -1;
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	CHECK_ERR(doca_buf_inventory_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	f = fdopen(fd, "r");
	if (f == NULL)
		return -1;
	rewind(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, "doca_buf_inventory_create") != NULL)
			count++;
	fclose(f);
	unlink(path);
	return count;
}

static struct doca_log_backend *own_backend;

static void alone_the_variable_shows_a_rejected_call(void)
{
	CHECK_EQ_U64(records_of_one_rejected_call(), 1);
}

static void with_the_programs_own_stderr_backend_a_record_shows_once(void)
{
	REQUIRE(doca_log_backend_create_with_file_sdk(stderr, &own_backend) == DOCA_SUCCESS);
	CHECK_OK(doca_log_backend_set_sdk_level(own_backend, DOCA_LOG_LEVEL_WARNING));
	CHECK_EQ_U64(records_of_one_rejected_call(), 1);
}

static void what_the_programs_backend_filters_out_still_shows_once(void)
{
	REQUIRE(own_backend != NULL);
	CHECK_OK(doca_log_backend_set_sdk_level(own_backend, DOCA_LOG_LEVEL_CRIT));
	CHECK_EQ_U64(records_of_one_rejected_call(), 1);
}

int main(void)
{
	const char *env = getenv("SOFTDOCA_SDK_LOG");

	/* "error" or its DOCA number, 30: the two spellings must behave alike. */
	if (env == NULL || (strcmp(env, "error") != 0 && strcmp(env, "30") != 0)) {
		fprintf(stderr, "run with SOFTDOCA_SDK_LOG=error or 30 (meson does)\n");
		return 1;
	}
	SD_RUN(alone_the_variable_shows_a_rejected_call);
	SD_RUN(with_the_programs_own_stderr_backend_a_record_shows_once);
	SD_RUN(what_the_programs_backend_filters_out_still_shows_once);
	return sd_test_done();
}
