/**
 * @file doca_clock.h
 * @brief DOCA Clock (DOCA 3.2 and later): read the clocks of a device and of
 * the host, one at a time or as a cross timestamp.
 *
 * A cross timestamp reads two clocks as close together in time as possible
 * and reports how far apart the two readings may be (the error margin).
 *
 * softdoca has no NIC, so the clocks of a device are backed by the system's
 * clocks (docs/sync-event.md, "DOCA Clock"):
 * - NIC free-running: CLOCK_MONOTONIC_RAW, which is never stepped or slewed,
 *   like a free-running counter;
 * - NIC real-time: CLOCK_REALTIME, the clock a PTP-disciplined card clock
 *   follows;
 * - NIC DPA timer: none, since no device here has a DPA (DOCA_ERROR_NOT_SUPPORTED);
 * - host clocks: the system clocks of the same names; the cycle counter is
 *   the CPU's time-stamp counter (RDTSC on x86-64, CNTVCT_EL0 on Arm) and
 *   CLOCK_MONOTONIC_RAW nanoseconds on other CPUs.
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

/**
 * @brief A clock reader bound to one open device.
 *
 * Created by doca_clock_create and owned by the application until
 * doca_clock_destroy.
 */
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

/**
 * @brief One clock reading: `ts` for the clocks that count time, `counter`
 * for DOCA_CLOCK_HOST_COUNTER_CYCLES.
 */
union doca_clock_timespec_t {
	struct timespec ts; /**< seconds and nanoseconds, for every clock but the cycle counter */
	uint64_t counter;   /**< raw count of the cycle counter (DOCA_CLOCK_HOST_COUNTER_CYCLES) */
};

/**
 * @brief Tell whether a device has a free-running clock.
 *
 * Allowed at any time.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device has one;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Tell whether a device has a real-time clock.
 *
 * Allowed at any time.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device has one;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Tell whether a device has a DPA timer.
 *
 * Allowed at any time.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_ERROR_NOT_SUPPORTED for every device, with one log record
 * (no device here has a DPA);
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Create a clock reader bound to an open device.
 *
 * Allowed at any time.  The caller owns the clock and releases it with
 * doca_clock_destroy; the clock holds on to the device, which must stay open
 * until then.
 *
 * @param [in] dev the device.
 * @param [out] clock the new clock.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when clock or dev is NULL, or dev is not an open device;
 * DOCA_ERROR_NO_MEMORY when the clock cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock);

/**
 * @brief Destroy a clock and let go of its device.
 *
 * Allowed at any time.
 *
 * @param [in] clock the clock; it must not be used afterwards.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when clock is NULL or not a live clock.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_destroy(struct doca_clock *clock);

/**
 * @brief Read one clock.
 *
 * Allowed at any time on a live clock.
 *
 * @param [in] clock the clock.
 * @param [in] clock_type exactly one DOCA_CLOCK_* value.
 * @param [out] clock_ts the reading: `counter` for the cycle counter, `ts`
 * for every other clock.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when clock is NULL or not a live clock, clock_ts
 * is NULL, or clock_type is not exactly one known DOCA_CLOCK_* value;
 * DOCA_ERROR_NOT_SUPPORTED when clock_type is DOCA_CLOCK_NIC_DPA_TIMER.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
				      union doca_clock_timespec_t *clock_ts);

/**
 * @brief Read a clock and a device clock as one instant (a cross timestamp).
 *
 * Allowed at any time on a live clock.  The primary clock is read just
 * before and just after the device clock; the reported primary reading is
 * the midpoint of those two, and the error margin is half the gap between
 * them (counted in cycles when the primary clock is the cycle counter, in
 * nanoseconds otherwise).  Of a few attempts, the one with the smallest
 * margin is reported.  When both types name the same system clock the two
 * readings are one and the margin is 0.
 *
 * @param [in] clock the clock.
 * @param [in] primary_clock_type exactly one DOCA_CLOCK_* value.
 * @param [in] nic_clock_type exactly one DOCA_CLOCK_NIC_* value.
 * @param [out] primary_clock_ts the reading of the primary clock.
 * @param [out] nic_clock_ts the reading of the device clock.
 * @param [out] error_margin_nsecs the error margin.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when clock is NULL or not a live clock, an output
 * pointer is NULL, nic_clock_type is not exactly one DOCA_CLOCK_NIC_* value,
 * or primary_clock_type is not exactly one known DOCA_CLOCK_* value;
 * DOCA_ERROR_NOT_SUPPORTED when either type is DOCA_CLOCK_NIC_DPA_TIMER.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock, uint64_t primary_clock_type,
					   uint64_t nic_clock_type, union doca_clock_timespec_t *primary_clock_ts,
					   union doca_clock_timespec_t *nic_clock_ts, uint64_t *error_margin_nsecs);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_CLOCK_H_ */
