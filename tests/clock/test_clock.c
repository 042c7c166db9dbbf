/*
 * test_clock - DOCA Clock: capabilities per clock kind, single readings
 * of every clock, cross timestamps against the system clocks they stand
 * for, and the refusals.
 */
#include <time.h>

#include <doca_clock.h>

#include "sd_devices.h"
#include "sd_test.h"

static struct doca_dev *dev;

static uint64_t ns_of(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

static uint64_t sys_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ns_of(&ts);
}

static void capabilities_follow_the_clock_kinds(void)
{
	struct doca_devinfo *info = doca_dev_as_devinfo(dev);

	CHECK_OK(doca_clock_cap_nic_free_running_is_supported(info));
	CHECK_OK(doca_clock_cap_nic_real_time_is_supported(info));
	CHECK_ERR(doca_clock_cap_nic_dpa_timer_is_supported(info), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_cap_nic_real_time_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void every_clock_reads_its_system_clock(void)
{
	struct doca_clock *clock = NULL;
	union doca_clock_timespec_t a, b;
	uint64_t before;

	REQUIRE(doca_clock_create(dev, &clock) == DOCA_SUCCESS);
	before = sys_ns(CLOCK_REALTIME);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_REAL_TIME, &a));
	CHECK(ns_of(&a.ts) >= before && ns_of(&a.ts) - before < 1000000000ull);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, &b));
	CHECK(ns_of(&b.ts) >= ns_of(&a.ts));
	before = sys_ns(CLOCK_MONOTONIC_RAW);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_FREE_RUNNING, &a));
	CHECK(ns_of(&a.ts) >= before && ns_of(&a.ts) - before < 1000000000ull);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_MONOTONIC_RAW, &b));
	CHECK(ns_of(&b.ts) >= ns_of(&a.ts));
	before = sys_ns(CLOCK_MONOTONIC);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_MONOTONIC, &a));
	CHECK(ns_of(&a.ts) >= before);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES, &a));
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES, &b));
	CHECK(b.counter > a.counter);
	CHECK_OK(doca_clock_destroy(clock));
}

static void cross_timestamps_pair_a_clock_with_a_device_clock(void)
{
	struct doca_clock *clock = NULL;
	union doca_clock_timespec_t prim, nic;
	uint64_t margin = UINT64_MAX, before;

	REQUIRE(doca_clock_create(dev, &clock) == DOCA_SUCCESS);
	before = sys_ns(CLOCK_MONOTONIC);
	CHECK_OK(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_MONOTONIC, DOCA_CLOCK_NIC_REAL_TIME, &prim, &nic,
					       &margin));
	CHECK(ns_of(&prim.ts) >= before);
	CHECK(margin < 1000000ull); /* a bracket of two clock reads: well under a millisecond */
	CHECK_OK(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_REAL_TIME, &prim, &nic,
					       &margin));
	CHECK_EQ_U64(margin, 0);
	CHECK_EQ_U64(ns_of(&prim.ts), ns_of(&nic.ts));
	CHECK_OK(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES, DOCA_CLOCK_NIC_FREE_RUNNING, &prim,
					       &nic, &margin));
	CHECK(prim.counter != 0);
	CHECK_OK(doca_clock_destroy(clock));
}

static void bad_arguments_are_refused(void)
{
	struct doca_clock *clock = NULL;
	union doca_clock_timespec_t t;
	uint64_t m;
	int fake = 0;

	CHECK_ERR(doca_clock_create(NULL, &clock), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_destroy((struct doca_clock *)&fake), DOCA_ERROR_INVALID_VALUE);
	REQUIRE(doca_clock_create(dev, &clock) == DOCA_SUCCESS);
	CHECK_ERR(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_DPA_TIMER, &t), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_get_timestamp(clock, 0, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_REAL_TIME | DOCA_CLOCK_HOST_MONOTONIC, &t),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_HOST_MONOTONIC, &t, &t, &m),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_DPA_TIMER, &t, &t, &m),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_REAL_TIME, &t, &t, NULL),
		  DOCA_ERROR_INVALID_VALUE);
	/* the device stays open while a clock holds it */
	CHECK(doca_dev_close(dev) != DOCA_SUCCESS);
	CHECK_OK(doca_clock_destroy(clock));
}

int main(void)
{
	dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	if (dev == NULL)
		sd_test_skip("no device");
	SD_RUN(capabilities_follow_the_clock_kinds);
	SD_RUN(every_clock_reads_its_system_clock);
	SD_RUN(cross_timestamps_pair_a_clock_with_a_device_clock);
	SD_RUN(bad_arguments_are_refused);
	CHECK_OK(doca_dev_close(dev));
	return sd_test_done();
}
