/*
 * -l/--log-level and --sdk-log-level: they set the
 * global log limits the moment they are parsed, the getters report them,
 * out-of-range levels are refused, and an SDK backend set to WARNING by
 * the program follows --sdk-log-level.
 */
#include <string.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "argp_test_util.h"
#include "sd_log.h"
#include "sd_test.h"

static void restore_defaults(void)
{
	(void)doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);
	(void)doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_INFO);
}

static void log_level_applies_before_the_next_callback(void)
{
	int level = 0;

	sd_fresh("prog", NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_level);
	sd_register("b", "beta", DOCA_ARGP_TYPE_STRING, sd_cb_str_level);
	CHECK_OK(SD_START("prog", "-a", "x", "-l", "60", "-b", "y"));
	CHECK(strcmp(sd_calls, "level=50;level=60;") == 0);
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), 60);
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK_EQ_U64(level, 60);
	CHECK_OK(doca_argp_destroy());
	restore_defaults();
}

static void without_the_flag_the_getters_report_the_current_globals(void)
{
	int level = 0;

	sd_fresh("prog", NULL);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_WARNING));
	CHECK_OK(SD_START("prog"));
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK_EQ_U64(level, DOCA_LOG_LEVEL_WARNING);
	CHECK_OK(doca_argp_get_sdk_log_level(&level));
	CHECK_EQ_U64(level, doca_log_level_get_global_sdk_limit());
	CHECK_OK(doca_argp_destroy());
	restore_defaults();
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK_EQ_U64(level, DOCA_LOG_LEVEL_INFO);
}

static void long_forms_and_glued_values(void)
{
	int level = 0;

	sd_fresh("prog", NULL);
	CHECK_OK(SD_START("prog", "--log-level=30", "--sdk-log-level", "70"));
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), 30);
	CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), 70);
	CHECK_OK(doca_argp_get_sdk_log_level(&level));
	CHECK_EQ_U64(level, 70);
	CHECK_OK(doca_argp_destroy());
	restore_defaults();
}

static void out_of_range_or_malformed_levels_are_invalid(void)
{
	const char *bad[] = {"9", "71", "-1", "fifty", "", "99999999999"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sd_fresh("prog", NULL);
		CHECK_ERR(SD_START("prog", "-l", (char *)bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_INFO);
		CHECK_OK(doca_argp_destroy());
		sd_fresh("prog", NULL);
		CHECK_ERR(SD_START("prog", "--sdk-log-level", (char *)bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_INFO);
		CHECK_OK(doca_argp_destroy());
	}
	/* the bounds themselves, and an intermediate value, are accepted */
	sd_fresh("prog", NULL);
	CHECK_OK(SD_START("prog", "-l", "10", "--sdk-log-level", "45"));
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), 10);
	CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), 45);
	CHECK_OK(doca_argp_destroy());
	restore_defaults();
}

static int sdk_info_records;
static char sdk_buf[4096];

static void count_sdk_info(char *buf)
{
	if (strstr(buf, "[INF]") != NULL)
		sdk_info_records++;
}

static void sdk_log_level_overrides_a_backend_level_set_by_the_program(void)
{
	struct doca_log_backend *backend;

	/* as the samples do: an SDK backend limited to WARNING */
	CHECK_OK(doca_log_backend_create_with_buf_sdk(sdk_buf, sizeof(sdk_buf), count_sdk_info, &backend));
	CHECK_OK(doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING));
	sdk_info_records = 0;
	priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, __func__, "before the flag");
	CHECK_EQ_U64(sdk_info_records, 0);

	sd_fresh("prog", NULL);
	CHECK_OK(SD_START("prog", "--sdk-log-level", "60"));
	CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), 60);
	priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, __func__, "after the flag");
	CHECK_EQ_U64(sdk_info_records, 1);
	CHECK_OK(doca_argp_destroy());
	CHECK_OK(doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING));
	restore_defaults();
}

static void a_failed_start_keeps_levels_applied_before_the_failure(void)
{
	sd_fresh("prog", NULL);
	CHECK_ERR(SD_START("prog", "-l", "40", "--bogus"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), 40);
	CHECK_OK(doca_argp_destroy());
	restore_defaults();
}

int main(void)
{
	restore_defaults();
	SD_RUN(log_level_applies_before_the_next_callback);
	SD_RUN(without_the_flag_the_getters_report_the_current_globals);
	SD_RUN(long_forms_and_glued_values);
	SD_RUN(out_of_range_or_malformed_levels_are_invalid);
	SD_RUN(sdk_log_level_overrides_a_backend_level_set_by_the_program);
	SD_RUN(a_failed_start_keeps_levels_applied_before_the_failure);
	return sd_test_done();
}
