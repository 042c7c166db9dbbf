/*
 * bench_measure.c - one measurement of any method, and --repeat: the best
 * of several runs of a group of measurements taken in turns (DMA, memcpy,
 * ..., DMA, memcpy, ...), so that a busy machine disturbs every method
 * alike and the ratios stay fair.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

void bench_measure(struct bench *b, struct bench_comch *comch, const char *comch_why, const struct bench_point *p,
		   struct bench_result *r)
{
	memset(r, 0, sizeof(*r));
	r->point = *p;
	if (p->method == METHOD_RDMA_WRITE || p->method == METHOD_RDMA_READ || p->method == METHOD_RDMA_SEND) {
		bench_rdma_point(&b->opts, p, r);
	} else if (p->method != METHOD_COMCH && p->method != METHOD_COMCH_FP) {
		bench_run_point(b, p, r);
	} else if (comch != NULL) {
		if (p->method == METHOD_COMCH)
			bench_comch_point(comch, p, r);
		else
			bench_comch_fp_point(comch, p, r);
	} else {
		r->available = false;
		snprintf(r->note, sizeof(r->note), "n/a: %s", comch_why);
	}
}

static bool result_failed(const struct bench_result *r)
{
	return r->errors != 0 || r->bad_bytes_jobs != 0;
}

/* Better: no failure hidden first, then the higher rate (throughput) or the lower median (latency). */
static bool better(const struct bench_result *x, const struct bench_result *best)
{
	if (result_failed(best))
		return false;
	if (result_failed(x))
		return true;
	if (!x->available)
		return false;
	if (!best->available)
		return true;
	if (x->point.mode == BENCH_LATENCY)
		return x->lat.p50 < best->lat.p50;
	return x->ops_per_s > best->ops_per_s;
}

void bench_measure_group(struct bench *b, struct bench_comch *comch, const char *comch_why,
			 const struct bench_point *points, unsigned int n, struct bench_result *best,
			 unsigned int *progress_index)
{
	unsigned int repeat = b->opts.repeat > 0 ? b->opts.repeat : 1;
	struct bench_result x;

	for (unsigned int k = 0; k < repeat; k++) {
		for (unsigned int i = 0; i < n; i++) {
			char label[48];
			char size[24];

			bench_format_size(points[i].size, size, sizeof(size));
			snprintf(label, sizeof(label), "%s %s x%u", size, bench_method_name(points[i].method),
				 points[i].threads);
			bench_progress_point((*progress_index)++, label);
			bench_measure(b, comch, comch_why, &points[i], &x);
			if (k == 0 || better(&x, &best[i]))
				best[i] = x;
		}
	}
}
