/*
 * The parser's own messages and what a failed start prints: by default one
 * stderr line per problem in the DOCA
 * record layout; through a logger callback when one is registered; the
 * usage on stdout after a parse error but not after a validation failure;
 * one SDK ERROR record per failed start.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include <doca_argp.h>

#include "argp_test_util.h"
#include "sd_test.h"

static const char *const *child_argv;

static int child_start(void *arg)
{
	char **argv = (char **)child_argv;
	int argc = 0;

	(void)arg;
	while (argv[argc] != NULL)
		argc++;
	return doca_argp_start(argc, argv) == DOCA_SUCCESS ? 42 : 43;
}

/* "[HH:MM:SS:uuuuuu][tid][DOCA][LVL][file:line][func] text" */
static bool looks_like_a_record(const char *line, const char *tag)
{
	char want[16];
	int digits = 0;

	if (line[0] != '[')
		return false;
	for (int i = 1; i < 16; i++) {
		if (isdigit((unsigned char)line[i]))
			digits++;
		else if (line[i] != ':')
			return false;
	}
	snprintf(want, sizeof(want), "][DOCA][%s][", tag);
	return digits == 12 && line[16] == ']' && line[17] == '[' && strstr(line, want) != NULL && strstr(line, ".c:") != NULL;
}

static void an_unknown_flag_is_reported_on_stderr_and_the_usage_on_stdout(void)
{
	static const char *const argv[] = {"prog", "--bogus", NULL};
	struct sd_child child;

	sd_fresh("prog", NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	child_argv = argv;
	sd_child_run(&child, child_start, NULL);
	CHECK_EQ_U64(child.exit_code, 43); /* returned, did not exit */
	CHECK(looks_like_a_record(child.err, "ERR"));
	CHECK(strstr(child.err, "unknown flag \"--bogus\"\n") != NULL);
	/* the record names the call the program made, never an internal helper */
	CHECK(strstr(child.err, "][doca_argp_start] unknown flag") != NULL);
	CHECK(strstr(child.err, "[sd_") == NULL);
	CHECK(strncmp(child.out, "Usage: prog [DOCA Flags] [Program Flags]\n", 41) == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_validation_failure_prints_no_usage(void)
{
	static const char *const argv[] = {"prog", NULL};
	struct sd_child child;

	sd_fresh("prog", NULL);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_refuse));
	child_argv = argv;
	sd_child_run(&child, child_start, NULL);
	CHECK_EQ_U64(child.exit_code, 43);
	CHECK(child.out[0] == '\0');
	CHECK(strstr(child.err, "validation") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void the_logger_callback_receives_the_messages_instead_of_stderr(void)
{
	static const char *const argv[] = {"prog", "-n", "3x", NULL};
	struct sd_child child;

	sd_fresh("prog", NULL);
	sd_register("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	child_argv = argv;
	sd_child_run(&child, child_start, NULL);
	CHECK(child.err[0] == '\0');

	CHECK_ERR(SD_START("prog", "-n", "3x"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strncmp(sd_msgs, "ERR:", 4) == 0);
	CHECK(strstr(sd_msgs, "\"3x\"") != NULL);
	CHECK(strchr(sd_msgs, '\n') == sd_msgs + strlen(sd_msgs) - 1); /* exactly one message */
	CHECK_OK(doca_argp_destroy());
}

static void disabling_the_logger_callback_goes_back_to_stderr(void)
{
	static const char *const argv[] = {"prog", "stray", NULL};
	struct sd_child child;

	sd_fresh("prog", NULL);
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	CHECK_OK(doca_argp_disable_logger_callback());
	child_argv = argv;
	sd_child_run(&child, child_start, NULL);
	CHECK(looks_like_a_record(child.err, "ERR"));
	CHECK(strstr(child.err, "\"stray\"") != NULL);
	CHECK(sd_msgs[0] == '\0');
	CHECK_OK(doca_argp_destroy());
}

static void warnings_use_the_warning_level(void)
{
	static const char *const argv[] = {"prog", "-j", NULL, NULL};
	const char *argv_with_path[4];
	struct sd_child child;

	memcpy(argv_with_path, argv, sizeof(argv));
	argv_with_path[2] = sd_temp_file(0, "{\"doca_program_flags\": {\"unknown\": 1}}");
	sd_fresh("prog", NULL);
	child_argv = argv_with_path;
	sd_child_run(&child, child_start, NULL);
	CHECK_EQ_U64(child.exit_code, 42);
	CHECK(looks_like_a_record(child.err, "WRN"));
	CHECK(strstr(child.err, "\"unknown\"") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void a_failed_start_emits_one_sdk_error_record_naming_the_problem(void)
{
	sd_fresh("prog", NULL);
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	CHECK_ERR(SD_START("prog", "--bogus"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_EQ_U64(sd_sdk_errors(), 1);
	CHECK(strstr(sd_sdk_last(), "doca_argp_start") != NULL);
	CHECK(strstr(sd_sdk_last(), "--bogus") != NULL);
	/* never the samples' failure markers */
	CHECK(strstr(sd_sdk_last(), "failed with status") == NULL);
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	SD_RUN(an_unknown_flag_is_reported_on_stderr_and_the_usage_on_stdout);
	SD_RUN(a_validation_failure_prints_no_usage);
	SD_RUN(the_logger_callback_receives_the_messages_instead_of_stderr);
	SD_RUN(disabling_the_logger_callback_goes_back_to_stderr);
	SD_RUN(warnings_use_the_warning_level);
	SD_RUN(a_failed_start_emits_one_sdk_error_record_naming_the_problem);
	return sd_test_done();
}
