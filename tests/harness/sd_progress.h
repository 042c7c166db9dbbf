/*
 * sd_progress.h - progressing a PE the way a test on any engine must.
 *
 * With the cpu engine every submitted task is reported by the next
 * doca_pe_progress call; an asynchronous engine (worker threads, a GPU)
 * reports it once the copy is done, so a call may find nothing even though
 * tasks are in flight.  These helpers progress until the wanted condition
 * holds, with a wall-clock bound so that a lost completion fails the test
 * instead of hanging it.
 */
#ifndef SD_PROGRESS_H
#define SD_PROGRESS_H

#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include <doca_pe.h>

#define SD_PROGRESS_LIMIT_S 20.0

static inline double sd_progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline size_t sd_progress_inflight(struct doca_pe *pe)
{
	size_t n = 0;

	return doca_pe_get_num_inflight_tasks(pe, &n) == DOCA_SUCCESS ? n : 0;
}

/*
 * Progress until nothing is in flight and a call does nothing (a context
 * stop finishes too); returns the units reported.
 */
static inline unsigned sd_progress_drain(struct doca_pe *pe)
{
	double deadline = sd_progress_now() + SD_PROGRESS_LIMIT_S;
	unsigned n = 0;

	for (;;) {
		if (doca_pe_progress(pe) != 0) {
			n++;
			continue;
		}
		if (sd_progress_inflight(pe) == 0 || sd_progress_now() > deadline)
			return n;
	}
}

/*
 * One unit of work: progress until a call reports something (at once on
 * the cpu engine).  Returns 1, or 0 when nothing came within the bound or
 * nothing is in flight and the first call found nothing.
 */
static inline int sd_progress_one(struct doca_pe *pe)
{
	double deadline = 0;

	for (;;) {
		if (doca_pe_progress(pe) != 0)
			return 1;
		if (sd_progress_inflight(pe) == 0)
			return 0;
		if (deadline == 0)
			deadline = sd_progress_now() + SD_PROGRESS_LIMIT_S;
		else if (sd_progress_now() > deadline)
			return 0;
	}
}

/* Whether this run's DMA copies go to library threads (capability of the engine under test). */
static inline bool sd_engine_is_async(void)
{
	const char *w = getenv("SOFTDOCA_DMA_WORKERS");

	return w != NULL && atoi(w) > 0;
}

#endif /* SD_PROGRESS_H */
