/*
 * bench_doca_report.c - doca_bench's results in DOCA Bench's layout: the
 * "Aggregate stats" block on stdout (duration, jobs, operation rate, and
 * the ingress and egress rates in gibibits per second, or the latency
 * report) and a CSV file of one row per run whose columns carry the same
 * values under dotted names (cfg.* for the run, stats.* for the results).
 *
 * The labels are the parts of DOCA Bench's output that scripts look for;
 * docs/doca-tools.md lists them and what is not reproduced.
 */
#include <stdio.h>

#include "bench.h"

/* DOCA Bench's rates: gibibits per second (Gib/s). */
static double gibits_per_s(double bytes_per_s)
{
	return bytes_per_s * 8.0 / (double)GIB;
}

static double duration_us(const struct bench_result *r)
{
	return r->seconds * 1e6;
}

static void print_latency(const struct bench_latency *l)
{
	printf("\tLatency:\n");
	printf("\t\tMin:          %.3f us\n", l->min / 1e3);
	printf("\t\tMax:          %.3f us\n", l->max / 1e3);
	printf("\t\tMedian:       %.3f us\n", l->p50 / 1e3);
	printf("\t\tMean:         %.3f us\n", l->mean / 1e3);
	printf("\t\t90th %%ile:    %.3f us\n", l->p90 / 1e3);
	printf("\t\t95th %%ile:    %.3f us\n", l->p95 / 1e3);
	printf("\t\t99th %%ile:    %.3f us\n", l->p99 / 1e3);
	printf("\t\t99.9th %%ile:  %.3f us\n", l->p999 / 1e3);
	printf("\t\t99.99th %%ile: %.3f us\n", l->p9999 / 1e3);
}

static void print_one(const struct bench_result *r)
{
	printf("Aggregate stats\n");
	if (!r->available) {
		printf("\tnot measured: %s\n", r->note);
		return;
	}
	printf("\tDuration:      %.0f micro seconds\n", duration_us(r));
	printf("\tEnqueued jobs: %llu\n", (unsigned long long)r->ops);
	printf("\tDequeued jobs: %llu\n", (unsigned long long)r->ops);
	if (r->point.mode == BENCH_LATENCY) {
		print_latency(&r->lat);
	} else {
		printf("\tThroughput:    %07.3f MOperations/s\n", r->ops_per_s / 1e6);
		/* A DMA copy reads and writes the job size, a send carries it out and in: the rates are equal. */
		printf("\tIngress rate:  %07.3f Gib/s\n", gibits_per_s(r->bytes_per_s));
		printf("\tEgress rate:   %07.3f Gib/s\n", gibits_per_s(r->bytes_per_s));
	}
	if (r->errors + r->bad_bytes_jobs != 0)
		printf("\tFailed jobs:   %llu\n", (unsigned long long)(r->errors + r->bad_bytes_jobs));
}

void bench_print_doca_results(const struct bench_result *r, unsigned int n, enum bench_method step)
{
	for (unsigned int i = 0; i < n; i++) {
		if (r[i].point.method != step)
			continue;
		print_one(&r[i]);
	}
}

/* ---- CSV ---- */

static const char *const csv_columns =
	"cfg.pipeline_steps,cfg.device,cfg.mode,cfg.uniform_job_size,cfg.data_provider_job_count,cfg.threads,"
	"cfg.use_remote_input_buffers,cfg.use_remote_output_buffers,stats.duration_us,stats.enqueued_jobs,"
	"stats.dequeued_jobs,stats.failed_jobs,stats.throughput_mops,stats.ingress_gibps,stats.egress_gibps,"
	"stats.latency.min_us,stats.latency.max_us,stats.latency.median_us,stats.latency.mean_us,"
	"stats.latency.p90_us,stats.latency.p95_us,stats.latency.p99_us,stats.latency.p99_9_us,"
	"stats.latency.p99_99_us\n";

static void csv_latency(FILE *f, const struct bench_result *r)
{
	const struct bench_latency *l = &r->lat;

	if (!r->available || r->point.mode != BENCH_LATENCY) {
		fprintf(f, ",,,,,,,,");
		return;
	}
	fprintf(f, "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f", l->min / 1e3, l->max / 1e3, l->p50 / 1e3,
		l->mean / 1e3, l->p90 / 1e3, l->p95 / 1e3, l->p99 / 1e3, l->p999 / 1e3, l->p9999 / 1e3);
}

static void csv_row(FILE *f, const struct bench *b, const struct bench_result *r)
{
	const struct bench_options *o = &b->opts;
	bool rates = r->available && r->point.mode == BENCH_THROUGHPUT;

	fprintf(f, "%s,%s,%s,%zu,%u,%u,%d,%d,", o->step_name, b->dev_pci,
		r->point.mode == BENCH_LATENCY ? "precision-latency" : "throughput", r->point.size, r->depth_used,
		r->point.threads, o->mem == BENCH_MEM_REMOTE, o->remote_output);
	if (r->available)
		fprintf(f, "%.0f,%llu,%llu,%llu,", duration_us(r), (unsigned long long)r->ops,
			(unsigned long long)r->ops, (unsigned long long)(r->errors + r->bad_bytes_jobs));
	else
		fprintf(f, ",,,,");
	if (rates)
		fprintf(f, "%.6f,%.6f,%.6f,", r->ops_per_s / 1e6, gibits_per_s(r->bytes_per_s),
			gibits_per_s(r->bytes_per_s));
	else
		fprintf(f, ",,,");
	csv_latency(f, r);
	fputc('\n', f);
}

int bench_write_doca_csv(const char *path, const struct bench *b, const struct bench_result *r, unsigned int n)
{
	FILE *f = bench_csv_open(path, b->opts.csv_append, csv_columns);

	if (f == NULL)
		return BENCH_EXIT_OUTPUT;
	for (unsigned int i = 0; i < n; i++)
		if (r[i].point.method == b->opts.step)
			csv_row(f, b, &r[i]);
	return bench_csv_close(f, path);
}
