/*
 * bench_timing.c - --export-timing FILE: the run's DMA throughput rows as
 * a card timing table (the format of docs/card-timing.md), so that a run
 * on one machine or card can be replayed elsewhere with
 * SOFTDOCA_CARD_TIMING=FILE.
 *
 * One run measures one direction: reads from another process's memory
 * with --mem remote, local copies otherwise.  A table needs read and
 * write rows, so the rows of the measured direction are written for every
 * direction, and a comment at the top of the file says which were measured.
 * The rates are the run's jobs per second with its queue depth in flight
 * (the table's `batch`), all threads together; the latency is 0 (a
 * throughput run cannot tell it apart from the rate).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const char *const timing_dirs[] = {"read", "write", "local"};

/* Is result `r` a DMA throughput row with a rate, larger than the previous one written? */
static bool timing_row(const struct bench_result *r, size_t after)
{
	return r->available && r->point.method == METHOD_DMA && r->point.mode == BENCH_THROUGHPUT &&
	       r->ops_per_s > 0 && r->point.size > after;
}

int bench_write_timing(const char *path, const struct bench *b, const struct bench_result *r, unsigned int n)
{
	const struct bench_options *o = &b->opts;
	FILE *f = fopen(path, "w");
	unsigned int rows = 0;

	if (f == NULL) {
		fprintf(stderr, "%s: cannot write %s: %s\n", bench_prog, path, strerror(errno));
		return BENCH_EXIT_OUTPUT;
	}
	fprintf(f, "# written by %s --export-timing: DMA on %s, %s memory, %u thread%s, queue depth %u\n",
		bench_prog, b->dev_pci, bench_mem_name(o->mem), o->threads, o->threads == 1 ? "" : "s",
		o->queue_depth);
	fprintf(f, "# measured: %s rows only; the other directions repeat them\n",
		o->mem == BENCH_MEM_REMOTE ? "read" : "local");
	fprintf(f, "name measured\nlatency 0\nbatch %u\n", o->queue_depth);
	for (unsigned int d = 0; d < sizeof(timing_dirs) / sizeof(timing_dirs[0]); d++) {
		size_t last = 0;

		/* Rows in increasing size, as the table requires; a size measured twice is written once. */
		for (unsigned int i = 0; i < n; i++) {
			if (!timing_row(&r[i], last))
				continue;
			fprintf(f, "%s %zu %.6gK\n", timing_dirs[d], r[i].point.size, r[i].ops_per_s / 1e3);
			last = r[i].point.size;
			rows++;
		}
	}
	if (fclose(f) != 0 || rows == 0) {
		fprintf(stderr, "%s: %s: %s\n", bench_prog, path,
			rows == 0 ? "no DMA throughput row to write (a latency run, or every DMA row failed)" :
				    strerror(errno));
		return BENCH_EXIT_OUTPUT;
	}
	return BENCH_EXIT_OK;
}
