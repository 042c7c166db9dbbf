/*
 * demo_util.h - small helpers shared by the two sides of the demo:
 * sizes with K/M/G suffixes, a monotonic clock, opening a device by PCI
 * address through the public DOCA API.
 */
#ifndef DEMO_UTIL_H
#define DEMO_UTIL_H

#include <stdint.h>

#include <stdbool.h>

#include <doca_argp.h>
#include <doca_dev.h>
#include <doca_error.h>

#define MIB (1024.0 * 1024.0)

/* "256M", "4K", "1G", "12345" (binary suffixes, case-insensitive); 0 on success, -1 if malformed or zero. */
int demo_parse_size(const char *text, uint64_t *bytes);

/* Seconds on the monotonic clock. */
double demo_now(void);

/* Sleep for a number of milliseconds. */
void demo_sleep_ms(unsigned int ms);

/*
 * Open the device whose PCI address is pci (full or short form).  The
 * capability check says what the device must be able to do; it gets the
 * devinfo and answers DOCA_SUCCESS when the device fits.  On failure,
 * why (of why_len bytes) says what went wrong.
 */
typedef doca_error_t (*demo_dev_check)(const struct doca_devinfo *devinfo);
doca_error_t demo_open_device(const char *pci, demo_dev_check check, struct doca_dev **dev, char *why, size_t why_len);

/* The SDK's error records (a rejected call names itself and the rule) go to stderr. */
void demo_log_sdk_errors_to_stderr(void);

/*
 * Create, describe and register one program flag with DOCA Arg Parser
 * (short_name may be NULL).
 */
doca_error_t demo_add_flag(const char *short_name, const char *long_name, const char *arguments,
			   const char *description, enum doca_argp_type type, doca_argp_param_cb_t cb,
			   bool mandatory);

#endif /* DEMO_UTIL_H */
