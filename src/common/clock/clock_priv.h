/*
 * clock_priv.h - what the files of DOCA Clock share.
 *
 *   clock.c       the clock object and the capability queries
 *   clock_read.c  readings of one clock and cross timestamps
 */
#ifndef SD_CLOCK_PRIV_H
#define SD_CLOCK_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <doca_clock.h>

#define SD_CLOCK_MAGIC 0x4b4c4344u /* "DCLK" */

struct doca_clock {
	uint32_t magic;
	struct doca_dev *dev; /* held open while the clock exists */
};

/* `clock` is a live clock; one ERROR record naming `func` otherwise. */
bool sd_clock_check(const struct doca_clock *clock, const char *func);

#endif /* SD_CLOCK_PRIV_H */
