/*
 * SDK records versus application records: separate
 * backends and limits, the "<func>: <message>" text of SDK records, one
 * ERROR record per rejected call, nothing when no SDK backend exists, no
 * formatting when filtered.
 */
#include <doca_log.h>

#include "log_capture.h"
#include "sd_log.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::SDK);

static struct capture *app;

/* Must run first: no SDK backend exists yet. */
static void without_sdk_backend_sdk_records_are_discarded(void)
{
	CHECK(priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_CRIT) == 0);
	CHECK(priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_ERROR) == 0);
	capture_reset(app);
	SD_LOG_ERR("nobody hears this %d", 1);
	CHECK_ERR(doca_log_unregister_source(-3), DOCA_ERROR_INVALID_VALUE);
	CHECK(app->calls == 0);
}

static void sdk_and_application_records_stay_apart(void)
{
	struct capture *sdk = capture_new(true);

	REQUIRE(sdk != NULL);
	capture_reset(app);
	SD_LOG_INFO("sdk info");
	SD_LOG_DBG("sdk debug, filtered at the default limit");
	DOCA_LOG_ERR("application error");
	CHECK(sdk->calls == 1);
	CHECK(capture_has(sdk, "sdk info"));
	CHECK(!capture_has(sdk, "application error"));
	CHECK(app->calls == 1);
	CHECK(capture_has(app, "application error"));
	CHECK(!capture_has(app, "sdk info") && !capture_has(app, "sdk debug"));
	CHECK(records_are_wellformed(sdk->text));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void sdk_record_names_the_function_twice(void)
{
	struct capture *sdk = capture_new(true);
	char expected[160];
	int line;

	REQUIRE(sdk != NULL);
	line = __LINE__ + 1;
	SD_LOG_WARN("object %p is busy", (void *)0);
	snprintf(expected, sizeof(expected), "[DOCA][WRN][test_log_sdk_category.c:%d][%s] %s: object (nil) is busy\n",
		 line, __func__, __func__);
	CHECK(strstr(sdk->text, expected) != NULL);
	capture_reset(sdk);
	priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, "doca_thing_do", "rule %s broken", "R1");
	CHECK(strstr(sdk->text, "[ERR][softdoca:0][doca_thing_do] doca_thing_do: rule R1 broken\n") != NULL);
	CHECK(records_are_wellformed(sdk->text));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
}

static doca_error_t reject_something(void)
{
	return SD_REJECT(DOCA_ERROR_BAD_STATE, "context is %s (thing %p)", "IDLE", (void *)0);
}

static void sd_reject_logs_one_error_and_yields_the_code(void)
{
	struct capture *sdk = capture_new(true);

	REQUIRE(sdk != NULL);
	CHECK_ERR(reject_something(), DOCA_ERROR_BAD_STATE);
	CHECK(sdk->calls == 1);
	CHECK(capture_has(sdk, "[ERR]"));
	CHECK(capture_has(sdk, "[reject_something] reject_something: context is IDLE"));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void rejected_log_calls_emit_exactly_one_error_record(void)
{
	struct capture *sdk = capture_new(true);
	struct doca_log_backend *b = NULL;

	REQUIRE(sdk != NULL);
	CHECK_ERR(doca_log_unregister_source(-7), DOCA_ERROR_INVALID_VALUE);
	CHECK(sdk->calls == 1);
	CHECK(capture_has(sdk, "[ERR]"));
	CHECK(capture_has(sdk, "doca_log_unregister_source: "));
	CHECK(capture_has(sdk, "-7"));
	capture_reset(sdk);
	CHECK_ERR(doca_log_backend_create_with_fd(-1, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK(sdk->calls == 1);
	CHECK(capture_has(sdk, "doca_log_backend_create_with_fd: fd is negative"));
	capture_reset(sdk);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_DISABLE, log_source, __FILE__, __LINE__, __func__, "x"),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK(sdk->calls == 1);
	CHECK(capture_has(sdk, "doca_log: level 10"));
	capture_reset(sdk);
	CHECK_ERR(doca_log_level_set_global_sdk_limit(99), DOCA_ERROR_INVALID_VALUE);
	CHECK(sdk->calls == 1);
	CHECK(capture_has(sdk, "doca_log_level_set_global_sdk_limit: level 99"));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void successful_calls_emit_no_error_or_warning(void)
{
	struct capture *sdk = capture_new(true);
	struct capture *extra;
	int src = -1;

	REQUIRE(sdk != NULL);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_TRACE));
	CHECK_OK(doca_log_register_source("TEST::QUIET", &src));
	CHECK_OK(doca_log_unregister_source(src));
	extra = capture_new(false);
	REQUIRE(extra != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit_strict(extra->backend));
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	CHECK_OK(DOCA_LOG_INFO("an application record"));
	CHECK(!capture_has(sdk, "[ERR]"));
	CHECK(!capture_has(sdk, "[WRN]"));
	CHECK(!capture_has(sdk, "[CRT]"));
	CHECK_OK(doca_log_backend_set_level_lower_limit(extra->backend, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
}

/* The global SDK limit overrides per-backend SDK levels. */
static void global_sdk_limit_overrides_backend_levels(void)
{
	struct capture *sdk = capture_new(true);
	struct capture *later;

	REQUIRE(sdk != NULL);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_WARNING));
	SD_LOG_INFO("hidden");
	CHECK(sdk->calls == 0);
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_DEBUG);
	SD_LOG_INFO("now shown");
	SD_LOG_DBG("debug shown too");
	CHECK(sdk->calls == 2);
	later = capture_new(true);
	REQUIRE(later != NULL);
	SD_LOG_DBG("a new SDK backend starts at the global limit");
	CHECK(later->calls == 1);
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE));
	priv_doca_sdk_log(DOCA_LOG_LEVEL_CRIT, __func__, "nobody");
	CHECK(sdk->calls == 3 && later->calls == 1);
	CHECK(priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_CRIT) == 0);
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_INFO));
	CHECK(priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_INFO) != 0);
	CHECK(priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_DEBUG) == 0);
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE));
}

static void sdk_records_with_invalid_levels_are_dropped(void)
{
	const char *no_format = NULL;
	struct capture *sdk = capture_new(true);

	REQUIRE(sdk != NULL);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_TRACE));
	priv_doca_sdk_log(DOCA_LOG_LEVEL_DISABLE, __func__, "disable is not a record level");
	priv_doca_sdk_log(0, __func__, "zero");
	priv_doca_sdk_log(71, __func__, "beyond trace");
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, __func__, no_format, 0);
	CHECK(sdk->calls == 0);
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, NULL, 0, NULL, "no location");
	CHECK(sdk->calls == 1);
	CHECK(capture_has(sdk, "[:0][] no location\n"));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
}

/*
 * A filtered record is never formatted: the argument below would crash
 * vsnprintf if it were.
 */
static void filtered_sdk_records_are_not_formatted(void)
{
	const char *poison = (const char *)(uintptr_t)16;
	struct capture *sdk = capture_new(true);

	REQUIRE(sdk != NULL);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_ERROR));
	SD_LOG_DBG("%s", poison);
	SD_LOG_INFO("%s", poison);
	CHECK(sdk->calls == 0);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
}

static char reentrant_buf[512];
static int reentrant_calls;
static uint32_t reentrant_seen_limit;

static void reentrant_handler(char *buf)
{
	(void)buf;
	reentrant_calls++;
	/* logging and querying from inside a flush neither deadlocks nor recurses */
	DOCA_LOG_ERR("logged from inside a flush");
	reentrant_seen_limit = doca_log_level_get_global_lower_limit();
}

static void flush_callback_may_call_the_log_api(void)
{
	struct doca_log_backend *b = NULL;

	CHECK_OK(doca_log_backend_create_with_buf(reentrant_buf, sizeof(reentrant_buf), reentrant_handler, &b));
	DOCA_LOG_ERR("outer");
	CHECK(reentrant_calls == 1);
	CHECK(reentrant_seen_limit == doca_log_level_get_global_lower_limit());
	CHECK(strstr(reentrant_buf, "] outer\n") != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
}

int main(void)
{
	app = capture_new(false);
	if (app == NULL)
		return 1;
	SD_RUN(without_sdk_backend_sdk_records_are_discarded);
	SD_RUN(sdk_and_application_records_stay_apart);
	SD_RUN(sdk_record_names_the_function_twice);
	SD_RUN(sd_reject_logs_one_error_and_yields_the_code);
	SD_RUN(rejected_log_calls_emit_exactly_one_error_record);
	SD_RUN(successful_calls_emit_no_error_or_warning);
	SD_RUN(global_sdk_limit_overrides_backend_levels);
	SD_RUN(sdk_records_with_invalid_levels_are_dropped);
	SD_RUN(filtered_sdk_records_are_not_formatted);
	SD_RUN(flush_callback_may_call_the_log_api);
	return sd_test_done();
}
