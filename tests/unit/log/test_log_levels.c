/*
 * Level limits: global defaults and setters, per-backend limits, strict
 * bounds (clamping), range checks and wrong-category backends.
 */
#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::LEVELS);

static const uint32_t all_levels[] = {
	DOCA_LOG_LEVEL_CRIT, DOCA_LOG_LEVEL_ERROR, DOCA_LOG_LEVEL_WARNING,
	DOCA_LOG_LEVEL_INFO, DOCA_LOG_LEVEL_DEBUG, DOCA_LOG_LEVEL_TRACE,
};

/* Bit i set when all_levels[i] reached the capture. */
static unsigned shown_levels(struct capture *c)
{
	unsigned mask = 0;

	for (unsigned i = 0; i < sizeof(all_levels) / sizeof(all_levels[0]); i++) {
		capture_reset(c);
		doca_log(all_levels[i], log_source, __FILE__, __LINE__, __func__, "probe %u", all_levels[i]);
		if (c->calls == 1)
			mask |= 1u << i;
	}
	capture_reset(c);
	return mask;
}

#define CRT_BIT 0x01u
#define ERR_BIT 0x02u
#define WRN_BIT 0x04u
#define INF_BIT 0x08u
#define DBG_BIT 0x10u
#define TRC_BIT 0x20u

static void global_limits_start_at_info_crit_info(void)
{
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_INFO);
	CHECK_EQ_U64(doca_log_level_get_global_upper_limit(), DOCA_LOG_LEVEL_CRIT);
	CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_INFO);
}

static void new_backend_shows_crit_to_info(void)
{
	struct capture *c = capture_new(false);

	REQUIRE(c != NULL);
	CHECK_EQ_U64(shown_levels(c), CRT_BIT | ERR_BIT | WRN_BIT | INF_BIT);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void backend_limits_select_a_band(void)
{
	struct capture *c = capture_new(false);

	REQUIRE(c != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->backend, DOCA_LOG_LEVEL_WARNING));
	CHECK_EQ_U64(shown_levels(c), WRN_BIT | INF_BIT | DBG_BIT);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_TRACE));
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->backend, DOCA_LOG_LEVEL_CRIT));
	CHECK_EQ_U64(shown_levels(c), CRT_BIT | ERR_BIT | WRN_BIT | INF_BIT | DBG_BIT | TRC_BIT);
	/* DISABLE as the lower limit shows nothing at all */
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_DISABLE));
	CHECK_EQ_U64(shown_levels(c), 0);
}

static void global_setters_reach_existing_and_new_backends(void)
{
	struct capture *old = capture_new(false);
	struct capture *young;

	REQUIRE(old != NULL);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_ERROR));
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_DEBUG);
	CHECK_EQ_U64(doca_log_level_get_global_upper_limit(), DOCA_LOG_LEVEL_ERROR);
	young = capture_new(false);
	REQUIRE(young != NULL);
	CHECK_EQ_U64(shown_levels(old), ERR_BIT | WRN_BIT | INF_BIT | DBG_BIT);
	CHECK_EQ_U64(shown_levels(young), ERR_BIT | WRN_BIT | INF_BIT | DBG_BIT);

	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT));
	CHECK_EQ_U64(shown_levels(old), CRT_BIT | ERR_BIT | WRN_BIT | INF_BIT);
	/* silence both for the following cases */
	CHECK_OK(doca_log_backend_set_level_lower_limit(old->backend, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_level_lower_limit(young->backend, DOCA_LOG_LEVEL_DISABLE));
}

/* Strict WARNING follows -l 30 down, comes back to WARNING, never DEBUG. */
static void strict_lower_limit_clamps_and_still_succeeds(void)
{
	struct capture *c = capture_new(false);

	REQUIRE(c != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_WARNING));
	CHECK_OK(doca_log_backend_set_level_lower_limit_strict(c->backend));
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR));
	CHECK_EQ_U64(shown_levels(c), CRT_BIT | ERR_BIT);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_DEBUG);
	CHECK_EQ_U64(shown_levels(c), CRT_BIT | ERR_BIT | WRN_BIT);
	/* the direct setter is clamped too */
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_TRACE));
	CHECK_EQ_U64(shown_levels(c), CRT_BIT | ERR_BIT | WRN_BIT);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void strict_upper_limit_clamps_and_still_succeeds(void)
{
	struct capture *c = capture_new(false);

	REQUIRE(c != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_TRACE));
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->backend, DOCA_LOG_LEVEL_INFO));
	CHECK_OK(doca_log_backend_set_level_upper_limit_strict(c->backend));
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->backend, DOCA_LOG_LEVEL_CRIT));
	CHECK_EQ_U64(shown_levels(c), INF_BIT | DBG_BIT | TRC_BIT);
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT));
	CHECK_EQ_U64(shown_levels(c), INF_BIT | DBG_BIT | TRC_BIT);
	/* moving away from the bound is allowed */
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->backend, DOCA_LOG_LEVEL_DEBUG));
	CHECK_EQ_U64(shown_levels(c), DBG_BIT | TRC_BIT);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void intermediate_levels_behave_numerically(void)
{
	struct capture *c = capture_new(false);

	REQUIRE(c != NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, 45));
	CHECK_EQ_U64(shown_levels(c), CRT_BIT | ERR_BIT | WRN_BIT);
	capture_reset(c);
	CHECK_OK(doca_log(45, log_source, __FILE__, __LINE__, __func__, "between"));
	CHECK_EQ_U64(c->calls, 1);
	CHECK_OK(doca_log(46, log_source, __FILE__, __LINE__, __func__, "beyond"));
	CHECK_EQ_U64(c->calls, 1);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void out_of_range_levels_are_refused(void)
{
	struct capture *c = capture_new(false);
	const uint32_t bad[] = {0, 9, 71, 100, UINT32_MAX};

	REQUIRE(c != NULL);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ERR(doca_log_level_set_global_lower_limit(bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_log_level_set_global_upper_limit(bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_log_level_set_global_sdk_limit(bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_log_backend_set_level_lower_limit(c->backend, bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_log_backend_set_level_upper_limit(c->backend, bad[i]), DOCA_ERROR_INVALID_VALUE);
	}
	/* nothing changed */
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_INFO);
	CHECK_EQ_U64(doca_log_level_get_global_upper_limit(), DOCA_LOG_LEVEL_CRIT);
	CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_INFO);
	CHECK_EQ_U64(shown_levels(c), CRT_BIT | ERR_BIT | WRN_BIT | INF_BIT);
	/* both ends of the range are accepted */
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->backend, DOCA_LOG_LEVEL_TRACE));
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->backend, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void setters_refuse_null_foreign_and_wrong_category_backends(void)
{
	struct capture *app = capture_new(false);
	struct capture *sdk = capture_new(true);
	char not_a_backend[64] = {0};
	struct doca_log_backend *foreign = (struct doca_log_backend *)not_a_backend;

	REQUIRE(app != NULL && sdk != NULL);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(NULL, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit(NULL, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit_strict(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit_strict(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(NULL, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_log_backend_set_level_lower_limit(foreign, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit_strict(foreign), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(foreign, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_log_backend_set_level_lower_limit(sdk->backend, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit(sdk->backend, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit_strict(sdk->backend), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit_strict(sdk->backend), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(app->backend, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(sdk->backend, 71), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->backend, DOCA_LOG_LEVEL_DISABLE));
	/* the foreign memory was never written */
	for (size_t i = 0; i < sizeof(not_a_backend); i++)
		CHECK(not_a_backend[i] == 0);
	CHECK_OK(doca_log_backend_set_level_lower_limit(app->backend, DOCA_LOG_LEVEL_DISABLE));
}

int main(void)
{
	SD_RUN(global_limits_start_at_info_crit_info);
	SD_RUN(new_backend_shows_crit_to_info);
	SD_RUN(backend_limits_select_a_band);
	SD_RUN(global_setters_reach_existing_and_new_backends);
	SD_RUN(strict_lower_limit_clamps_and_still_succeeds);
	SD_RUN(strict_upper_limit_clamps_and_still_succeeds);
	SD_RUN(intermediate_levels_behave_numerically);
	SD_RUN(out_of_range_levels_are_refused);
	SD_RUN(setters_refuse_null_foreign_and_wrong_category_backends);
	return sd_test_done();
}
