/*
 * DPDK programs: the command line splits at the
 * first "--", the DPDK part (behind argv[0]) reaches the DPDK callback
 * after all other callbacks, a JSON doca_dpdk_flags section adds EAL flags,
 * and the usage shows the "[DPDK Flags] --" prefix.
 */
#include <string.h>

#include <doca_argp.h>

#include "argp_test_util.h"
#include "sd_test.h"

static char dpdk_seen[1024];

static doca_error_t dpdk_cb(int argc, char **argv)
{
	dpdk_seen[0] = '\0';
	for (int i = 0; i < argc; i++) {
		strncat(dpdk_seen, argv[i], sizeof(dpdk_seen) - strlen(dpdk_seen) - 2);
		strcat(dpdk_seen, "|");
	}
	if (argv[argc] != NULL)
		strcat(dpdk_seen, "NOT-NULL-TERMINATED");
	strncat(sd_calls, "dpdk;", SD_CALLS_MAX - strlen(sd_calls) - 1);
	return DOCA_SUCCESS;
}

static doca_error_t dpdk_fail_cb(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return DOCA_ERROR_DRIVER;
}

static void fresh_dpdk(doca_argp_dpdk_cb_t callback)
{
	sd_fresh("prog", NULL);
	doca_argp_set_dpdk_program(callback);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
}

static void flags_before_double_dash_go_to_dpdk(void)
{
	fresh_dpdk(dpdk_cb);
	CHECK_OK(SD_START("./prog", "-l", "0-3", "-a", "03:00.0", "--", "-a", "mine", "-l", "50"));
	CHECK(strcmp(dpdk_seen, "./prog|-l|0-3|-a|03:00.0|") == 0);
	CHECK(strcmp(sd_calls, "a=mine;valid;dpdk;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void without_double_dash_everything_is_dpdk(void)
{
	fresh_dpdk(dpdk_cb);
	CHECK_OK(SD_START("prog", "-a", "x"));
	CHECK(strcmp(dpdk_seen, "prog|-a|x|") == 0);
	CHECK(strcmp(sd_calls, "valid;dpdk;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void json_dpdk_flags_become_eal_arguments(void)
{
	const char *path = sd_temp_file(0, "{\"doca_dpdk_flags\": {"
					   "\"devices\": [{\"device\": \"sf\", \"id\": \"4\", \"hws\": true, \"off\": false}],"
					   " \"core-list\": \"0-1\", \"core-mask\": 255, \"flags\": \" --in-memory  -n 4 \"},"
					   " \"doca_program_flags\": {\"alpha\": \"j\"}}");

	fresh_dpdk(dpdk_cb);
	CHECK_OK(SD_START("prog", "--", "-j", (char *)path));
	CHECK(strcmp(dpdk_seen, "prog|-a|4,hws=1|-l|0-1|-c|0xff|--in-memory|-n|4|") == 0);
	CHECK(strcmp(sd_calls, "a=j;valid;dpdk;") == 0);
	CHECK_OK(doca_argp_destroy());

	path = sd_temp_file(0, "{\"doca_dpdk_flags\": {\"devices\": [{\"device\": \"sf\"}]}}");
	fresh_dpdk(dpdk_cb);
	CHECK_ERR(SD_START("prog", "--", "-j", (char *)path), DOCA_ERROR_IO_FAILED);
	CHECK_OK(doca_argp_destroy());
}

static void a_failing_dpdk_callback_fails_start(void)
{
	fresh_dpdk(dpdk_fail_cb);
	CHECK_ERR(SD_START("prog"), DOCA_ERROR_DRIVER);
	CHECK(strcmp(sd_calls, "valid;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static int child_help(void *arg)
{
	(void)arg;
	return SD_START("prog", "--", "-h") == DOCA_SUCCESS ? 42 : 43;
}

static void the_usage_shows_the_dpdk_prefix(void)
{
	struct sd_child child;

	fresh_dpdk(dpdk_cb);
	sd_child_run(&child, child_help, NULL);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strncmp(child.out, "Usage: prog [DPDK Flags] -- [DOCA Flags] [Program Flags]\n", 57) == 0);
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	SD_RUN(flags_before_double_dash_go_to_dpdk);
	SD_RUN(without_double_dash_everything_is_dpdk);
	SD_RUN(json_dpdk_flags_become_eal_arguments);
	SD_RUN(a_failing_dpdk_callback_fails_start);
	SD_RUN(the_usage_shows_the_dpdk_prefix);
	return sd_test_done();
}
