/*
 * clock_read.c - readings of one clock, and cross timestamps.
 *
 * A cross timestamp brackets the device clock's reading between two
 * readings of the primary clock; the midpoint is the primary's value and
 * half the gap the error margin, the way a card's driver pairs its PHC
 * with the system clock when the hardware offers no atomic snapshot.
 */
#include <time.h>

#include "clock_priv.h"
#include "sd_log.h"

#define SD_CLOCK_NIC_KINDS (DOCA_CLOCK_NIC_FREE_RUNNING | DOCA_CLOCK_NIC_REAL_TIME | DOCA_CLOCK_NIC_DPA_TIMER)
#define SD_CLOCK_CROSS_TRIES 5

/* The CPU's cycle counter; CLOCK_MONOTONIC_RAW nanoseconds where there is none we can read. */
static uint64_t sd_clock_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
#endif
}

/* The system clock behind a time clock kind, or -1 when there is none here. */
static clockid_t sd_clock_system_id(uint64_t kind)
{
	switch (kind) {
	case DOCA_CLOCK_NIC_FREE_RUNNING:
	case DOCA_CLOCK_HOST_MONOTONIC_RAW:
		return CLOCK_MONOTONIC_RAW;
	case DOCA_CLOCK_NIC_REAL_TIME:
	case DOCA_CLOCK_HOST_REAL_TIME:
		return CLOCK_REALTIME;
	case DOCA_CLOCK_HOST_MONOTONIC:
		return CLOCK_MONOTONIC;
	}
	return (clockid_t)-1;
}

/* Is `kind` exactly one clock this library can read?  One ERROR record otherwise. */
static doca_error_t sd_clock_kind_check(uint64_t kind, const char *func)
{
	if (kind == DOCA_CLOCK_NIC_DPA_TIMER)
		return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED,
				    "no device here has a DPA, so there is no DPA timer to read");
	if (kind == DOCA_CLOCK_HOST_COUNTER_CYCLES || sd_clock_system_id(kind) != (clockid_t)-1)
		return DOCA_SUCCESS;
	return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
			    "clock type 0x%llx is not one DOCA_CLOCK_* value", (unsigned long long)kind);
}

static void sd_clock_read(uint64_t kind, union doca_clock_timespec_t *out)
{
	if (kind == DOCA_CLOCK_HOST_COUNTER_CYCLES)
		out->counter = sd_clock_cycles();
	else
		clock_gettime(sd_clock_system_id(kind), &out->ts);
}

doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
				      union doca_clock_timespec_t *clock_ts)
{
	doca_error_t err;

	if (!sd_clock_check(clock, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	if (clock_ts == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer clock_ts is NULL");
	err = sd_clock_kind_check(clock_type, __func__);
	if (err == DOCA_SUCCESS)
		sd_clock_read(clock_type, clock_ts);
	return err;
}

/* A reading as one number: cycles, or nanoseconds. */
static uint64_t sd_clock_flat(uint64_t kind, const union doca_clock_timespec_t *t)
{
	if (kind == DOCA_CLOCK_HOST_COUNTER_CYCLES)
		return t->counter;
	return (uint64_t)t->ts.tv_sec * 1000000000ull + (uint64_t)t->ts.tv_nsec;
}

static void sd_clock_unflat(uint64_t kind, uint64_t v, union doca_clock_timespec_t *t)
{
	if (kind == DOCA_CLOCK_HOST_COUNTER_CYCLES) {
		t->counter = v;
		return;
	}
	t->ts.tv_sec = (time_t)(v / 1000000000ull);
	t->ts.tv_nsec = (long)(v % 1000000000ull);
}

/* One bracketed reading: primary before and after the device clock. */
static uint64_t sd_clock_bracket(uint64_t prim, uint64_t nic, uint64_t *mid, union doca_clock_timespec_t *nic_ts)
{
	union doca_clock_timespec_t before, after;
	uint64_t b, a;

	sd_clock_read(prim, &before);
	sd_clock_read(nic, nic_ts);
	sd_clock_read(prim, &after);
	b = sd_clock_flat(prim, &before);
	a = sd_clock_flat(prim, &after);
	if (a < b) /* a stepped real-time clock: no bracket, report no margin either way */
		a = b;
	*mid = b + (a - b) / 2;
	return (a - b + 1) / 2;
}

doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock, uint64_t primary_clock_type,
					   uint64_t nic_clock_type, union doca_clock_timespec_t *primary_clock_ts,
					   union doca_clock_timespec_t *nic_clock_ts, uint64_t *error_margin_nsecs)
{
	uint64_t best = UINT64_MAX;
	doca_error_t err;

	if (!sd_clock_check(clock, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	if (primary_clock_ts == NULL || nic_clock_ts == NULL || error_margin_nsecs == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "an output pointer is NULL");
	if ((nic_clock_type & SD_CLOCK_NIC_KINDS) == 0 || (nic_clock_type & (nic_clock_type - 1)) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "nic_clock_type 0x%llx is not one DOCA_CLOCK_NIC_* value",
				 (unsigned long long)nic_clock_type);
	if ((err = sd_clock_kind_check(primary_clock_type, __func__)) != DOCA_SUCCESS ||
	    (err = sd_clock_kind_check(nic_clock_type, __func__)) != DOCA_SUCCESS)
		return err;
	for (int i = 0; i < SD_CLOCK_CROSS_TRIES; i++) {
		union doca_clock_timespec_t nic_ts;
		uint64_t mid, margin = sd_clock_bracket(primary_clock_type, nic_clock_type, &mid, &nic_ts);

		if (margin < best) {
			best = margin;
			sd_clock_unflat(primary_clock_type, mid, primary_clock_ts);
			*nic_clock_ts = nic_ts;
		}
	}
	/* The same system clock on both sides is one reading: exact. */
	if (primary_clock_type != DOCA_CLOCK_HOST_COUNTER_CYCLES &&
	    sd_clock_system_id(primary_clock_type) == sd_clock_system_id(nic_clock_type)) {
		*primary_clock_ts = *nic_clock_ts;
		best = 0;
	}
	*error_margin_nsecs = best;
	return DOCA_SUCCESS;
}
