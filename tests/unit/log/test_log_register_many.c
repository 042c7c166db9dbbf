/*
 * DOCA_LOG_REGISTER in many files: every translation
 * unit has its own log_source, registered with a distinct id before main()
 * runs; the units are generated from log_unit.c.in.
 */
#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

#define UNITS 20

int unit_source_0(void);
int unit_source_1(void);
int unit_source_2(void);
int unit_source_3(void);
int unit_source_4(void);
int unit_source_5(void);
int unit_source_6(void);
int unit_source_7(void);
int unit_source_8(void);
int unit_source_9(void);
int unit_source_10(void);
int unit_source_11(void);
int unit_source_12(void);
int unit_source_13(void);
int unit_source_14(void);
int unit_source_15(void);
int unit_source_16(void);
int unit_source_17(void);
int unit_source_18(void);
int unit_source_19(void);

static int (*const unit_source[UNITS])(void) = {
	unit_source_0, unit_source_1, unit_source_2, unit_source_3, unit_source_4, unit_source_5, unit_source_6, unit_source_7, unit_source_8, unit_source_9, unit_source_10, unit_source_11, unit_source_12, unit_source_13, unit_source_14, unit_source_15, unit_source_16, unit_source_17, unit_source_18, unit_source_19,
};

/* Captured before any test case runs, to show registration happened before main(). */
static int ids_at_entry[UNITS];

static void every_unit_has_a_distinct_registered_id(void)
{
	struct capture *cap = capture_new(false);

	REQUIRE(cap != NULL);
	for (int i = 0; i < UNITS; i++) {
		CHECK(ids_at_entry[i] >= 0);
		CHECK(ids_at_entry[i] == unit_source[i]());
		for (int j = 0; j < i; j++)
			CHECK(ids_at_entry[i] != ids_at_entry[j]);
		CHECK_OK(doca_log(DOCA_LOG_LEVEL_INFO, ids_at_entry[i], __FILE__, __LINE__, __func__, "unit %d", i));
	}
	CHECK(cap->calls == UNITS);
}

static void later_registrations_get_other_ids(void)
{
	int next = -1;

	CHECK_OK(doca_log_register_source("TEST::AFTER_MAIN", &next));
	CHECK(next >= 0);
	for (int i = 0; i < UNITS; i++)
		CHECK(next != ids_at_entry[i]);
}

int main(void)
{
	for (int i = 0; i < UNITS; i++)
		ids_at_entry[i] = unit_source[i]();
	SD_RUN(every_unit_has_a_distinct_registered_id);
	SD_RUN(later_registrations_get_other_ids);
	return sd_test_done();
}
