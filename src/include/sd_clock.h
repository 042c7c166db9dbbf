/*
 * sd_clock.h - the monotonic clock softdoca's own deadlines, spin times and
 * trace stamps read.  One definition, so that every library measures its
 * waits on the same clock (a wall-clock step never shortens or stretches
 * them).  The DOCA clock library (doca_clock.h) is another matter: it reads
 * the raw clock a card's clock would track.
 */
#ifndef SD_CLOCK_H
#define SD_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds of CLOCK_MONOTONIC. */
static inline uint64_t sd_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Milliseconds of CLOCK_MONOTONIC. */
static inline uint64_t sd_mono_ms(void)
{
	return sd_mono_ns() / 1000000u;
}

#endif
