/*
 * bench_progress.c - a progress bar on stderr for runs longer than two
 * seconds (or always with --progress).
 *
 * The measuring thread calls bench_progress_tick() between batches of work;
 * it only reads the clock and returns until a tenth of a second has passed
 * since the last drawing, so the bar costs the measurement nothing that
 * shows.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define BAR_WIDTH 30

static struct {
	bool enabled;
	bool drawn;
	double planned_s;   /* 0: unknown (count mode): progress counts points */
	unsigned int points;
	unsigned int index;
	char label[48];
	uint64_t start;
	uint64_t point_start;
	uint64_t next_draw;
	uint64_t interval;
} bar;

void bench_progress_init(bool enabled, double planned_seconds, unsigned int points)
{
	memset(&bar, 0, sizeof(bar));
	bar.enabled = enabled && points > 0;
	bar.planned_s = planned_seconds;
	bar.points = points;
	bar.interval = bench_s_to_ticks(0.1);
	bar.start = bench_ticks();
}

void bench_progress_point(unsigned int index, const char *label)
{
	if (!bar.enabled)
		return;
	bar.index = index;
	snprintf(bar.label, sizeof(bar.label), "%s", label);
	bar.point_start = bench_ticks();
	bar.next_draw = 0;
	bench_progress_tick();
}

static void draw(uint64_t now)
{
	double per_point = bar.planned_s > 0 ? bar.planned_s / bar.points : 0;
	double in_point = bench_ticks_to_s(now - bar.point_start);
	double done;
	char line[BAR_WIDTH + 1];
	int filled;

	if (per_point > 0) {
		if (in_point > per_point)
			in_point = per_point;
		done = ((double)bar.index * per_point + in_point) / bar.planned_s;
	} else {
		done = (double)bar.index / bar.points;
	}
	if (done > 1)
		done = 1;
	filled = (int)(done * BAR_WIDTH);
	memset(line, '#', (size_t)filled);
	memset(line + filled, '.', (size_t)(BAR_WIDTH - filled));
	line[BAR_WIDTH] = '\0';
	fprintf(stderr, "\r[%s] %3d%%  %u/%u  %-28s", line, (int)(done * 100), bar.index + 1, bar.points, bar.label);
	if (per_point > 0)
		fprintf(stderr, " %5.1f s left", bar.planned_s * (1 - done));
	fflush(stderr);
	bar.drawn = true;
}

void bench_progress_tick(void)
{
	uint64_t now;

	if (!bar.enabled)
		return;
	now = bench_ticks();
	if (now < bar.next_draw)
		return;
	bar.next_draw = now + bar.interval;
	draw(now);
}

void bench_progress_done(void)
{
	if (!bar.enabled || !bar.drawn)
		return;
	/* Leave a clean line for the tables that follow. */
	fprintf(stderr, "\r%*s\r", BAR_WIDTH + 70, "");
	fflush(stderr);
	bar.drawn = false;
}
