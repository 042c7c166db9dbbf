/*
 * doca_clock.h - DOCA Clock (DOCA 3.2 and later): read a device's clocks and
 * the host's, alone or as a cross timestamp (two clocks read as close
 * together as possible, with the error margin of the pairing).
 *
 * softdoca has no NIC: a device's clocks are backed by the system's clocks
 * and documented as such (docs/sync-event.md, "DOCA Clock"):
 *   NIC free-running  CLOCK_MONOTONIC_RAW (never stepped or slewed, as a
 *                     free-running counter);
 *   NIC real-time     CLOCK_REALTIME (what a PTP-disciplined card clock tracks);
 *   NIC DPA timer     none: no device here has a DPA (NOT_SUPPORTED);
 *   host clocks       the clocks of their names; the cycle counter is the
 *                     CPU's time-stamp counter (x86-64 RDTSC, Arm CNTVCT_EL0),
 *                     CLOCK_MONOTONIC_RAW nanoseconds elsewhere.
 */
#ifndef DOCA_CLOCK_H_
#define DOCA_CLOCK_H_

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>
/* clock_cross_timestamp's header sizes a PCI address with DOCA_DEVINFO_PCI_ADDR_SIZE after including only this. */
#include <doca_dev.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_clock;
struct doca_dev;
struct doca_devinfo;

/** @brief The device's free-running clock (seconds and nanoseconds). */
#define DOCA_CLOCK_NIC_FREE_RUNNING 0x1
/** @brief The device's real-time clock (seconds and nanoseconds). */
#define DOCA_CLOCK_NIC_REAL_TIME (0x1 << 1)
/** @brief The device's DPA timer (seconds and nanoseconds); absent here. */
#define DOCA_CLOCK_NIC_DPA_TIMER (0x1 << 8)
/** @brief The host CPU's cycle counter (a raw count in `counter`). */
#define DOCA_CLOCK_HOST_COUNTER_CYCLES (0x1 << 16)
/** @brief The host's real-time clock (seconds and nanoseconds). */
#define DOCA_CLOCK_HOST_REAL_TIME (0x1 << 17)
/** @brief The host's monotonic clock (seconds and nanoseconds). */
#define DOCA_CLOCK_HOST_MONOTONIC (0x1 << 18)
/** @brief The host's raw monotonic clock (seconds and nanoseconds). */
#define DOCA_CLOCK_HOST_MONOTONIC_RAW (0x1 << 19)

/** @brief One reading: `ts` for the time clocks, `counter` for DOCA_CLOCK_HOST_COUNTER_CYCLES. */
union doca_clock_timespec_t {
	struct timespec ts; /**< seconds and nanoseconds */
	uint64_t counter;   /**< raw count */
};

/**
 * @brief Whether the device has a free-running clock.
 * @return DOCA_SUCCESS on every emulated device; DOCA_ERROR_INVALID_VALUE
 * when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Whether the device has a real-time clock.
 * @return DOCA_SUCCESS on every emulated device; DOCA_ERROR_INVALID_VALUE for a bad devinfo.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Whether the device has a DPA timer.
 * @return DOCA_ERROR_NOT_SUPPORTED (no DPA here, with one log record);
 * DOCA_ERROR_INVALID_VALUE for a bad devinfo.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Create a clock reader bound to an open device.  Any time.
 * @param [in] dev the device; it must stay open until the clock is destroyed.
 * @param [out] clock the new clock, released with doca_clock_destroy.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL argument or a
 * device that is not open; DOCA_ERROR_NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock);

/**
 * @brief Destroy a clock.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when clock is NULL or not a clock.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_destroy(struct doca_clock *clock);

/**
 * @brief Read one clock.
 * @param [in] clock the clock.
 * @param [in] clock_type one DOCA_CLOCK_* value.
 * @param [out] clock_ts the reading (`counter` for the cycle counter, else `ts`).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL argument, a bad
 * clock, or a type that is not exactly one known DOCA_CLOCK_* value;
 * DOCA_ERROR_NOT_SUPPORTED for the DPA timer.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
				      union doca_clock_timespec_t *clock_ts);

/**
 * @brief Read a clock and a device clock as one instant.
 *
 * The primary clock is read just before and just after the device clock;
 * its reported value is the middle of the two, and the error margin half
 * their distance (in cycles when the primary clock is the cycle counter,
 * else in nanoseconds).  The tightest of a few tries is kept.
 *
 * @param [in] clock the clock.
 * @param [in] primary_clock_type any DOCA_CLOCK_* value.
 * @param [in] nic_clock_type a DOCA_CLOCK_NIC_* value.
 * @param [out] primary_clock_ts, nic_clock_ts the readings.
 * @param [out] error_margin_nsecs the error margin (0 when both are the same clock).
 * @return as doca_clock_get_timestamp, plus DOCA_ERROR_INVALID_VALUE when
 * nic_clock_type is not a device clock.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock, uint64_t primary_clock_type,
					   uint64_t nic_clock_type, union doca_clock_timespec_t *primary_clock_ts,
					   union doca_clock_timespec_t *nic_clock_ts, uint64_t *error_margin_nsecs);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_CLOCK_H_ */
