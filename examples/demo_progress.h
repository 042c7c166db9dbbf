/*
 * demo_progress.h - a progress bar with throughput, on stderr.
 *
 * On a terminal: one line redrawn in place about ten times a second.
 * Otherwise (a pipe, a log file, a test): a plain line once a second, so
 * logs stay readable.  The final state is always printed.
 */
#ifndef DEMO_PROGRESS_H
#define DEMO_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct demo_progress {
	const char *label;
	uint64_t total;
	double start;
	double last_draw;
	bool tty;
	bool drawn_in_place; /* a terminal line waits for its newline */
};

void demo_progress_start(struct demo_progress *p, const char *label, uint64_t total);

/* Cheap when called often: redraws only when it is time to. */
void demo_progress_update(struct demo_progress *p, uint64_t done);

/* The last line (done bytes, average rate), ended by a newline. */
void demo_progress_finish(struct demo_progress *p, uint64_t done);

#endif /* DEMO_PROGRESS_H */
