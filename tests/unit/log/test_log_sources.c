/*
 * Source registration: ids, copies of names, unregistering, and
 * doca_log()'s checks of level, source and format.
 */
#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::SOURCES);

static struct capture *cap;

static void register_source_ran_before_main(void)
{
	CHECK(log_source >= 0);
	capture_reset(cap);
	CHECK_OK(DOCA_LOG_INFO("registered by the constructor"));
	CHECK(cap->calls == 1);
}

static void each_registration_gets_a_new_id_even_for_a_repeated_name(void)
{
	int a = -1, b = -1, c = -1;

	CHECK_OK(doca_log_register_source("TEST::SAME", &a));
	CHECK_OK(doca_log_register_source("TEST::SAME", &b));
	CHECK_OK(doca_log_register_source("", &c));
	CHECK(a >= 0 && b >= 0 && c >= 0);
	CHECK(a != b && b != c && a != c);
	CHECK(a != log_source && b != log_source && c != log_source);
	CHECK_OK(doca_log_unregister_source(a));
	CHECK_OK(doca_log_unregister_source(b));
	CHECK_OK(doca_log_unregister_source(c));
}

static void registered_name_is_copied(void)
{
	char name[] = "TEST::TRANSIENT";
	int id = -1;

	CHECK_OK(doca_log_register_source(name, &id));
	memset(name, 0, sizeof(name));
	capture_reset(cap);
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_INFO, id, __FILE__, __LINE__, __func__, "still fine"));
	CHECK(cap->calls == 1);
	CHECK_OK(doca_log_unregister_source(id));
}

static void register_source_refuses_null_arguments(void)
{
	int id = 12345;

	CHECK_ERR(doca_log_register_source(NULL, &id), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_register_source("TEST::X", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(id == 12345);
}

static void unregistered_source_is_refused_by_doca_log(void)
{
	int id = -1;

	CHECK_OK(doca_log_register_source("TEST::SHORT_LIVED", &id));
	CHECK_OK(doca_log_unregister_source(id));
	capture_reset(cap);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, id, __FILE__, __LINE__, __func__, "gone"), DOCA_ERROR_INVALID_VALUE);
	CHECK(cap->calls == 0);
}

static void unregister_refuses_unknown_and_released_ids(void)
{
	int id = -1;

	CHECK_ERR(doca_log_unregister_source(-1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_unregister_source(1000000), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_log_register_source("TEST::TWICE", &id));
	CHECK_OK(doca_log_unregister_source(id));
	CHECK_ERR(doca_log_unregister_source(id), DOCA_ERROR_INVALID_VALUE);
}

static void released_ids_are_not_reused(void)
{
	int first = -1, second = -1;

	CHECK_OK(doca_log_register_source("TEST::A", &first));
	CHECK_OK(doca_log_unregister_source(first));
	CHECK_OK(doca_log_register_source("TEST::B", &second));
	CHECK(second != first);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, first, __FILE__, __LINE__, __func__, "stale"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_log_unregister_source(second));
}

static void many_sources_can_be_registered(void)
{
	int ids[300];

	for (int i = 0; i < 300; i++) {
		ids[i] = -1;
		CHECK_OK(doca_log_register_source("TEST::MANY", &ids[i]));
		CHECK(i == 0 || ids[i] != ids[i - 1]);
	}
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_INFO, ids[299], __FILE__, __LINE__, __func__, "last of many"));
	for (int i = 0; i < 300; i++)
		CHECK_OK(doca_log_unregister_source(ids[i]));
}

static void doca_log_refuses_bad_levels_and_null_format(void)
{
	const uint32_t bad[] = {0, DOCA_LOG_LEVEL_DISABLE, 19, 71, UINT32_MAX};
	const char *no_format = NULL;

	capture_reset(cap);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_ERR(doca_log(bad[i], log_source, __FILE__, __LINE__, __func__, "bad level"),
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, log_source, __FILE__, __LINE__, __func__, no_format, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, -1, __FILE__, __LINE__, __func__, "negative source"),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK(cap->calls == 0);
	/* a filtered record is not an error */
	CHECK_OK(DOCA_LOG_DBG("filtered"));
	CHECK(cap->calls == 0);
}

int main(void)
{
	cap = capture_new(false);
	if (cap == NULL)
		return 1;
	SD_RUN(register_source_ran_before_main);
	SD_RUN(each_registration_gets_a_new_id_even_for_a_repeated_name);
	SD_RUN(registered_name_is_copied);
	SD_RUN(register_source_refuses_null_arguments);
	SD_RUN(unregistered_source_is_refused_by_doca_log);
	SD_RUN(unregister_refuses_unknown_and_released_ids);
	SD_RUN(released_ids_are_not_reused);
	SD_RUN(many_sources_can_be_registered);
	SD_RUN(doca_log_refuses_bad_levels_and_null_format);
	return sd_test_done();
}
