/*
 * trace_report.c - the per-context summary of softdoca-trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static int tr_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted values. */
static double tr_pct(const double *v, size_t n, double p)
{
	size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999);

	if (rank == 0)
		rank = 1;
	return v[rank > n ? n - 1 : rank - 1];
}

static void tr_report_ctx(struct tr_ctx *c)
{
	printf("context %s %s", c->type, c->addr);
	if (c->pe != 0)
		printf(" on pe%u", c->pe);
	printf("\n");
	printf("  tasks      %llu (%llu ok, %llu failed, %llu flushed)\n", (unsigned long long)c->tasks,
	       (unsigned long long)c->ok, (unsigned long long)c->failed, (unsigned long long)c->flushed);
	if (c->nlat != 0) {
		qsort(c->lat_us, c->nlat, sizeof(c->lat_us[0]), tr_cmp_double);
		printf("  latency    p50 %.3f us  p90 %.3f us  p99 %.3f us  p99.9 %.3f us  max %.3f us "
		       "(submit to callback)\n",
		       tr_pct(c->lat_us, c->nlat, 50), tr_pct(c->lat_us, c->nlat, 90), tr_pct(c->lat_us, c->nlat, 99),
		       tr_pct(c->lat_us, c->nlat, 99.9), c->lat_us[c->nlat - 1]);
	}
	for (size_t i = 0; i < c->nfailures; i++)
		printf("  failures   %llu %s\n", (unsigned long long)c->failures[i].n, c->failures[i].name);
	if (c->nstates != 0)
		printf("  states     %s\n", c->states);
}

/* The name a track's metadata gave it ("engine worker 3"), else "tid N". */
static const char *tr_track_name(const struct tr_trace *t, const char *tid_text)
{
	long tid = strtol(tid_text + 4, NULL, 10);

	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].tid == tid)
			return t->tracks[i].name;
	return tid_text;
}

void tr_report(const char *path, struct tr_trace *t)
{
	printf("%s: %llu events, %llu task slices, %zu context(s), %u progress engine(s)", path,
	       (unsigned long long)t->events, (unsigned long long)t->slices, t->nctx, t->max_pe);
	if (t->pid != 0)
		printf(", pid %ld", t->pid);
	printf("\n");
	for (size_t i = 0; i < t->nctx; i++)
		tr_report_ctx(&t->ctxs[i]);
	if (t->fault_total != 0) {
		printf("faults       %llu injected\n", (unsigned long long)t->fault_total);
		for (size_t i = 0; i < t->nfaults; i++)
			printf("  %llu %s\n", (unsigned long long)t->faults[i].n, t->faults[i].name);
	}
	for (size_t i = 0; i < t->nworkers; i++)
		printf("%s: %llu span(s), %.3f ms busy\n", tr_track_name(t, t->workers[i].name),
		       (unsigned long long)t->workers[i].spans, (double)t->workers[i].n / 1e6);
	if (t->nopen != 0)
		printf("unfinished   %zu task slice(s) begun but never ended (still in flight when the trace was "
		       "written)\n",
		       t->nopen);
	if (t->unmatched_ends != 0)
		printf("unmatched    %llu slice end(s) without a beginning\n", (unsigned long long)t->unmatched_ends);
}
