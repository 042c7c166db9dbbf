/*
 * demo_progress.c - progress bar with throughput (see demo_progress.h).
 */
#include "demo_progress.h"

#include <stdio.h>
#include <unistd.h>

#include "demo_util.h"

#define BAR_WIDTH 30
#define TTY_INTERVAL_S 0.1
#define PLAIN_INTERVAL_S 1.0

void demo_progress_start(struct demo_progress *p, const char *label, uint64_t total)
{
	p->label = label;
	p->total = total;
	p->start = demo_now();
	p->last_draw = p->start;
	p->tty = isatty(STDERR_FILENO) == 1;
	p->drawn_in_place = false;
}

static void draw(struct demo_progress *p, uint64_t done, double now)
{
	double elapsed = now - p->start;
	double mib_per_s = elapsed > 0 ? (double)done / MIB / elapsed : 0.0;
	unsigned int percent = p->total ? (unsigned int)(done * 100 / p->total) : 100;

	if (p->tty) {
		char bar[BAR_WIDTH + 1];
		unsigned int filled = percent * BAR_WIDTH / 100;

		for (unsigned int i = 0; i < BAR_WIDTH; i++)
			bar[i] = i < filled ? '#' : '.';
		bar[BAR_WIDTH] = '\0';
		fprintf(stderr, "\r%s [%s] %3u%%  %7.1f/%.1f MiB  %7.0f MiB/s ", p->label, bar, percent,
			(double)done / MIB, (double)p->total / MIB, mib_per_s);
		p->drawn_in_place = true;
	} else {
		fprintf(stderr, "%s %3u%%  %.1f of %.1f MiB  %.0f MiB/s\n", p->label, percent, (double)done / MIB,
			(double)p->total / MIB, mib_per_s);
	}
	p->last_draw = now;
}

void demo_progress_update(struct demo_progress *p, uint64_t done)
{
	double now = demo_now();

	if (now - p->last_draw >= (p->tty ? TTY_INTERVAL_S : PLAIN_INTERVAL_S))
		draw(p, done, now);
}

void demo_progress_finish(struct demo_progress *p, uint64_t done)
{
	draw(p, done, demo_now());
	if (p->drawn_in_place)
		fputc('\n', stderr);
	p->drawn_in_place = false;
}
