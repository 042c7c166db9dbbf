/*
 * DOCA_LOG_TRC : without DOCA_LOGGING_ALLOW_TRACE
 * it is an empty statement that does not evaluate its arguments; with it, a
 * TRACE record.  meson builds this file both ways.
 */
#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::TRACE);

static int evaluations;

/* Unused when the trace macro is compiled out. */
static __attribute__((unused)) int counted(void)
{
	return ++evaluations;
}

static void trace_macro_follows_the_compile_time_switch(void)
{
	struct capture *cap = capture_new(false);

	REQUIRE(cap != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(cap->backend, DOCA_LOG_LEVEL_TRACE));
	DOCA_LOG_TRC("value %d", counted());
#ifdef DOCA_LOGGING_ALLOW_TRACE
	CHECK(evaluations == 1);
	CHECK(cap->calls == 1);
	CHECK(capture_has(cap, "[TRC]"));
	CHECK(capture_has(cap, "] value 1\n"));
#else
	CHECK(evaluations == 0);
	CHECK(cap->calls == 0);
#endif
	/* usable as a single statement after if/else without braces */
	if (evaluations < 0)
		DOCA_LOG_TRC("never");
	else
		DOCA_LOG_TRC("maybe");
}

/* The other shorthands are always compiled in, with no arguments after the format too. */
static void fixed_level_macros_are_always_compiled(void)
{
	struct capture *cap = capture_new(false);

	REQUIRE(cap != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(cap->backend, DOCA_LOG_LEVEL_DEBUG));
	DOCA_LOG_CRIT("c");
	DOCA_LOG_ERR("e");
	DOCA_LOG_WARN("w");
	DOCA_LOG_INFO("i");
	DOCA_LOG_DBG("d");
	DOCA_LOG(DOCA_LOG_LEVEL_INFO, "plain %s", "DOCA_LOG");
	CHECK(cap->calls == 6);
	CHECK(count_lines(cap->text) == 6);
	CHECK(records_are_wellformed(cap->text));
}

int main(void)
{
	SD_RUN(trace_macro_follows_the_compile_time_switch);
	SD_RUN(fixed_level_macros_are_always_compiled);
	return sd_test_done();
}
