/*
 * The Arg Parser session: init/destroy phases,
 * calls made in the wrong phase, callback registration rules, the getters,
 * and one SDK ERROR record for every rejected call.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "argp_test_util.h"
#include "sd_test.h"

static void before_init_everything_needing_a_session_is_bad_state(void)
{
	struct doca_argp_param *param = NULL;
	struct doca_argp_cmd *cmd = NULL;

	(void)doca_argp_destroy();
	sd_sdk_reset();
	CHECK_ERR(doca_argp_param_create(&param), DOCA_ERROR_BAD_STATE);
	CHECK(param == NULL);
	CHECK_ERR(doca_argp_cmd_create(&cmd), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(SD_START("prog"), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_version_callback(sd_cb_str_a), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_validation_callback(sd_validation_ok), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_logger_callback(sd_logger), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_disable_logger_callback(), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(sd_sdk_errors(), 8);
	CHECK(strstr(sd_sdk_last(), "doca_argp_destroy") != NULL);
}

static void init_twice_is_bad_state_and_destroy_twice_too(void)
{
	sd_fresh(NULL, NULL);
	CHECK_ERR(doca_argp_init("again", NULL), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_argp_destroy());
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(sd_sdk_errors(), 2);
}

static void an_empty_program_name_is_invalid(void)
{
	(void)doca_argp_destroy();
	sd_sdk_reset();
	CHECK_ERR(doca_argp_init("", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(sd_sdk_errors(), 1);
	/* the refused init left no session behind */
	CHECK_OK(doca_argp_init("prog", NULL));
	CHECK_OK(doca_argp_destroy());
}

static void a_new_session_may_follow_destroy(void)
{
	char cfg[] = "second";

	sd_fresh("prog", NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(SD_START("prog", "-a", "x"));
	CHECK_OK(doca_argp_destroy());
	CHECK_OK(doca_argp_init("prog", cfg));
	/* the old session's flags are gone; the same name registers again */
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_cfg);
	sd_calls_reset();
	CHECK_OK(SD_START("prog", "--alpha", "y"));
	CHECK(strcmp(sd_calls, "cfg=second;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void after_start_registrations_and_a_second_start_are_bad_state(void)
{
	struct doca_argp_param *param = NULL;
	struct doca_argp_cmd *cmd = NULL;

	sd_fresh("prog", NULL);
	CHECK_OK(SD_START("prog"));
	sd_sdk_reset();
	CHECK_ERR(doca_argp_param_create(&param), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_cmd_create(&cmd), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_validation_callback(sd_validation_ok), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_version_callback(sd_cb_str_a), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(SD_START("prog"), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(sd_sdk_errors(), 5);
	CHECK_OK(doca_argp_destroy());
}

static void callback_registration_refuses_null(void)
{
	sd_fresh("prog", NULL);
	CHECK_ERR(doca_argp_register_version_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_validation_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_logger_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(sd_sdk_errors(), 3);
	CHECK_OK(doca_argp_destroy());
}

static void a_second_logger_callback_already_exists(void)
{
	sd_fresh("prog", NULL);
	CHECK_ERR(doca_argp_disable_logger_callback(), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	CHECK_ERR(doca_argp_register_logger_callback(sd_logger), DOCA_ERROR_ALREADY_EXIST);
	CHECK_OK(doca_argp_disable_logger_callback());
	CHECK_ERR(doca_argp_disable_logger_callback(), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	CHECK_EQ_U64(sd_sdk_errors(), 3);
	CHECK_OK(doca_argp_destroy());
}

static void a_later_validation_callback_replaces_the_earlier(void)
{
	sd_fresh("prog", NULL);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_refuse));
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	CHECK_OK(SD_START("prog"));
	CHECK(strcmp(sd_calls, "valid;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void getters_refuse_null_and_report_the_global_levels_by_default(void)
{
	int level = 0;

	sd_sdk_reset();
	CHECK_ERR(doca_argp_get_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_get_sdk_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(sd_sdk_errors(), 2);
	(void)doca_argp_destroy();
	/* callable without a session */
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK_EQ_U64(level, doca_log_level_get_global_lower_limit());
	CHECK_OK(doca_argp_get_sdk_log_level(&level));
	CHECK_EQ_U64(level, doca_log_level_get_global_sdk_limit());
}

static void start_refuses_bad_argc_and_argv(void)
{
	char *holes[] = {"prog", NULL, "x", NULL};

	sd_fresh("prog", NULL);
	CHECK_ERR(doca_argp_start(0, holes), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_start(1, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_start(3, holes), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(sd_sdk_errors(), 3);
	/* still usable afterwards */
	CHECK_OK(SD_START("prog"));
	CHECK_OK(doca_argp_destroy());
}

static void set_dpdk_program_outside_a_session_is_ignored_with_a_record(void)
{
	(void)doca_argp_destroy();
	sd_sdk_reset();
	doca_argp_set_dpdk_program(NULL);
	CHECK_EQ_U64(sd_sdk_errors(), 1);
	sd_fresh("prog", NULL);
	doca_argp_set_dpdk_program(NULL);
	CHECK_EQ_U64(sd_sdk_errors(), 1);
	CHECK_OK(doca_argp_destroy());
}

static void a_successful_session_logs_no_sdk_error(void)
{
	sd_fresh(NULL, NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	CHECK_OK(SD_START("prog", "-a", "1"));
	CHECK_OK(doca_argp_destroy());
	CHECK_EQ_U64(sd_sdk_errors(), 0);
}

static doca_error_t destroying_callback(void *value, void *config)
{
	(void)value;
	(void)config;
	return doca_argp_destroy();
}

static void destroy_from_a_callback_is_deferred_and_start_returns_bad_state(void)
{
	sd_fresh("prog", NULL);
	sd_register("d", "destroy", DOCA_ARGP_TYPE_BOOLEAN, destroying_callback);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_ERR(SD_START("prog", "-d", "-a", "x"), DOCA_ERROR_BAD_STATE);
	CHECK(sd_calls[0] == '\0'); /* parsing stopped at the destroy */
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE); /* already released */
	CHECK_OK(doca_argp_init("prog", NULL));
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	SD_RUN(before_init_everything_needing_a_session_is_bad_state);
	SD_RUN(init_twice_is_bad_state_and_destroy_twice_too);
	SD_RUN(an_empty_program_name_is_invalid);
	SD_RUN(a_new_session_may_follow_destroy);
	SD_RUN(after_start_registrations_and_a_second_start_are_bad_state);
	SD_RUN(callback_registration_refuses_null);
	SD_RUN(a_second_logger_callback_already_exists);
	SD_RUN(a_later_validation_callback_replaces_the_earlier);
	SD_RUN(getters_refuse_null_and_report_the_global_levels_by_default);
	SD_RUN(start_refuses_bad_argc_and_argv);
	SD_RUN(set_dpdk_program_outside_a_session_is_ignored_with_a_record);
	SD_RUN(a_successful_session_logs_no_sdk_error);
	SD_RUN(destroy_from_a_callback_is_deferred_and_start_returns_bad_state);
	return sd_test_done();
}
