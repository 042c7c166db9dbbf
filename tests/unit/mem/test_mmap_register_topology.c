/*
 * test_mmap_register_topology.c - the topology key mmap_register sets what
 * doca_mmap_start does to the memory of mmaps that list the device; a
 * device without the key follows SOFTDOCA_MMAP_REGISTER; an mmap listing
 * several devices takes the most thorough mode among them.  Run with
 * SOFTDOCA_TOPOLOGY=mmap_register_topology.ini.
 */
#include "reg_test.h"

#define LEN (128 * 1024)

static struct doca_dev *off_dev, *populate_dev, *pin_dev, *plain_dev;

enum outcome { UNTOUCHED, RESIDENT, PINNED };

/* Start fresh memory on devices `a` (and `b`) under SOFTDOCA_MMAP_REGISTER=`knob`; what happened. */
static enum outcome start_on(struct doca_dev *a, struct doca_dev *b, const char *knob)
{
	uint8_t *p = reg_fresh(LEN);
	long long locked = reg_locked_kib();
	struct doca_mmap *m = p != NULL ? reg_mmap(a, p, LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) : NULL;
	enum outcome out = UNTOUCHED;

	if (m == NULL || (b != NULL && doca_mmap_add_dev(m, b) != DOCA_SUCCESS)) {
		fprintf(stderr, "[%s] cannot set up the mmap\n", sd_test_case_name);
		sd_test_case_failed = 1;
		return UNTOUCHED;
	}
	reg_knob(knob);
	CHECK_OK(doca_mmap_start(m));
	reg_knob(NULL);
	if (reg_resident_pages(p, LEN) == reg_pages_of(LEN))
		out = reg_locked_kib() == locked + LEN / 1024 ? PINNED : RESIDENT;
	else
		CHECK_EQ_U64(reg_resident_pages(p, LEN), 0);
	CHECK_OK(doca_mmap_destroy(m));
	CHECK(reg_locked_kib() == locked);
	munmap(p, LEN);
	return out;
}

static void a_device_with_registration_off_leaves_memory_untouched(void)
{
	CHECK(start_on(off_dev, NULL, NULL) == UNTOUCHED);
	CHECK(start_on(off_dev, NULL, "pin") == UNTOUCHED);
}

static void a_device_with_populate_makes_memory_resident_without_pinning(void)
{
	CHECK(start_on(populate_dev, NULL, NULL) == RESIDENT);
	CHECK(start_on(populate_dev, NULL, "off") == RESIDENT);
}

static void a_device_with_pin_pins_whatever_the_variable_says(void)
{
	CHECK(start_on(pin_dev, NULL, "off") == PINNED);
	CHECK(start_on(pin_dev, NULL, "populate") == PINNED);
}

static void a_device_without_the_key_follows_the_variable(void)
{
	CHECK(start_on(plain_dev, NULL, NULL) == PINNED);
	CHECK(start_on(plain_dev, NULL, "pin") == PINNED);
	CHECK(start_on(plain_dev, NULL, "populate") == RESIDENT);
	CHECK(start_on(plain_dev, NULL, "off") == UNTOUCHED);
}

static void an_mmap_takes_the_most_thorough_mode_of_its_devices(void)
{
	CHECK(start_on(off_dev, populate_dev, NULL) == RESIDENT);
	CHECK(start_on(off_dev, pin_dev, NULL) == PINNED);
	CHECK(start_on(off_dev, plain_dev, "off") == UNTOUCHED);
	CHECK(start_on(off_dev, plain_dev, NULL) == PINNED);
	CHECK(start_on(populate_dev, plain_dev, "off") == RESIDENT);
}

int main(void)
{
	reg_log_open();
	reg_knob(NULL);
	off_dev = sd_test_open_dev_at("0000:03:00.0");
	populate_dev = sd_test_open_dev_at("0000:04:00.0");
	pin_dev = sd_test_open_dev_at("0000:05:00.0");
	plain_dev = sd_test_open_dev_at("0000:b1:00.0");
	if (off_dev == NULL || populate_dev == NULL || pin_dev == NULL || plain_dev == NULL) {
		fprintf(stderr, "the topology of this test is not loaded (SOFTDOCA_TOPOLOGY=%s)\n",
			getenv("SOFTDOCA_TOPOLOGY") != NULL ? getenv("SOFTDOCA_TOPOLOGY") : "");
		return 1;
	}
	SD_RUN(a_device_with_registration_off_leaves_memory_untouched);
	SD_RUN(a_device_with_populate_makes_memory_resident_without_pinning);
	SD_RUN(a_device_with_pin_pins_whatever_the_variable_says);
	SD_RUN(a_device_without_the_key_follows_the_variable);
	SD_RUN(an_mmap_takes_the_most_thorough_mode_of_its_devices);
	doca_dev_close(off_dev);
	doca_dev_close(populate_dev);
	doca_dev_close(pin_dev);
	doca_dev_close(plain_dev);
	return sd_test_done();
}
