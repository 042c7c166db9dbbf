/*
 * softdoca-bench - the counterpart of DOCA Bench for DMA: throughput and
 * latency of DOCA DMA memcpy tasks next to the other ways of moving the
 * same bytes (CPU memcpy, process_vm_readv, Comch messages), job size
 * sweeps, queue depth, threads, local or remote memory, CSV and a plot.
 *
 * The numbers depend on the machine; the exit status depends only on
 * whether every call, copy and verification succeeded (see --help).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define MAX_POINTS (BENCH_MAX_SIZES * METHOD_COUNT + 32)

struct plan {
	struct bench_point p[MAX_POINTS];
	unsigned int n;
};

static void add(struct plan *plan, size_t size, enum bench_method m, enum bench_mode mode, unsigned int threads,
		unsigned int depth)
{
	if (plan->n < MAX_POINTS)
		plan->p[plan->n++] = (struct bench_point){
			.size = size, .method = m, .mode = mode, .threads = m >= METHOD_COMCH ? 1 : threads, .depth = depth};
}

/* Every size, DMA then each baseline. */
static void plan_sweep(const struct bench_options *o, struct plan *plan)
{
	for (unsigned int i = 0; i < o->n_sizes; i++) {
		add(plan, o->sizes[i], o->step, o->mode, o->threads, o->queue_depth);
		if (!o->baselines)
			continue;
		add(plan, o->sizes[i], METHOD_MEMCPY, o->mode, o->threads, o->queue_depth);
		add(plan, o->sizes[i], METHOD_PVR, o->mode, o->threads, o->queue_depth);
		add(plan, o->sizes[i], METHOD_COMCH, o->mode, o->threads, o->queue_depth);
		add(plan, o->sizes[i], METHOD_COMCH_FP, o->mode, o->threads, o->queue_depth);
		add(plan, o->sizes[i], METHOD_RDMA_WRITE, o->mode, o->threads, o->queue_depth);
		add(plan, o->sizes[i], METHOD_RDMA_READ, o->mode, o->threads, o->queue_depth);
		add(plan, o->sizes[i], METHOD_RDMA_SEND, o->mode, o->threads, o->queue_depth);
	}
}

/* What the targets table needs: rates and ratios on one thread, latency at 64 B, two-thread scaling. */
static void plan_targets(const struct bench_options *o, struct plan *plan)
{
	static const size_t ratio_sizes[] = {64, 4 * KIB, 64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB, 16 * MIB};
	static const size_t in_cache[] = {64, 4 * KIB};

	for (size_t i = 0; i < sizeof(ratio_sizes) / sizeof(ratio_sizes[0]); i++) {
		add(plan, ratio_sizes[i], METHOD_DMA, BENCH_THROUGHPUT, 1, o->queue_depth);
		add(plan, ratio_sizes[i], METHOD_MEMCPY, BENCH_THROUGHPUT, 1, o->queue_depth);
	}
	for (size_t i = 0; i < sizeof(in_cache) / sizeof(in_cache[0]); i++) {
		add(plan, in_cache[i], METHOD_DMA, BENCH_THROUGHPUT, 2, o->queue_depth);
		add(plan, in_cache[i], METHOD_MEMCPY, BENCH_THROUGHPUT, 2, o->queue_depth);
	}
	add(plan, 64, METHOD_DMA, BENCH_LATENCY, 1, 1);
	add(plan, 64, METHOD_MEMCPY, BENCH_LATENCY, 1, 1);
}

static double planned_seconds(const struct bench_options *o, unsigned int points)
{
	double warm = o->duration_s / 10 > 0.1 ? 0.1 : o->duration_s / 10;

	return o->tasks != 0 ? 0 : points * (o->duration_s + warm);
}

static bool failed(const struct bench_result *r)
{
	return r->errors != 0 || r->bad_bytes_jobs != 0;
}

/* Points measured in turns under --repeat: the same size and mode, next to each other in the plan. */
static unsigned int group_len(const struct plan *plan, unsigned int first)
{
	unsigned int n = 1;

	while (first + n < plan->n && plan->p[first + n].size == plan->p[first].size &&
	       plan->p[first + n].mode == plan->p[first].mode)
		n++;
	return n;
}

static int run_plan(struct bench *b, struct bench_comch *comch, const char *comch_why, const struct plan *plan,
		    struct bench_result *results)
{
	unsigned int runs = plan->n * b->opts.repeat;
	double planned = planned_seconds(&b->opts, runs);
	unsigned int progress = 0;
	int rc = BENCH_EXIT_OK;

	bench_progress_init(b->opts.progress || (isatty(2) && planned > 2.0), planned, runs);
	for (unsigned int i = 0; i < plan->n;) {
		unsigned int n = group_len(plan, i);

		bench_measure_group(b, comch, comch_why, &plan->p[i], n, &results[i], &progress);
		for (unsigned int k = i; k < i + n; k++)
			if (failed(&results[k]))
				rc = BENCH_EXIT_FAILED;
		i += n;
	}
	bench_progress_done();
	return rc;
}

static int report(struct bench *b, const struct bench_result *results, unsigned int n)
{
	int rc = BENCH_EXIT_OK;

	if (b->opts.doca_report) {
		bench_print_doca_results(results, n, b->opts.step);
		if (b->opts.csv_path != NULL && bench_write_doca_csv(b->opts.csv_path, b, results, n) != BENCH_EXIT_OK)
			rc = BENCH_EXIT_OUTPUT;
		return rc;
	}
	bench_print_results(b, results, n);
	if (b->opts.app_work_s > 0)
		bench_print_overlap(b, results, n);
	/* softdoca's own goals: shown only to whoever asks for them. */
	if (b->opts.targets && b->opts.mem == BENCH_MEM_LOCAL)
		bench_print_targets(results, n);
	else if (b->opts.targets)
		printf("\nTargets: they are defined for local memory; run without --mem remote to see them.\n");
	if (b->opts.csv_path != NULL && bench_write_csv(b->opts.csv_path, b, results, n) != BENCH_EXIT_OK)
		rc = BENCH_EXIT_OUTPUT;
	if (b->opts.plot_path != NULL && bench_write_plot(b->opts.plot_path, b, results, n) != BENCH_EXIT_OK)
		rc = BENCH_EXIT_OUTPUT;
	if (b->opts.timing_path != NULL && bench_write_timing(b->opts.timing_path, b, results, n) != BENCH_EXIT_OK)
		rc = BENCH_EXIT_OUTPUT;
	return rc;
}

static bool wants_comch(const struct bench_options *o)
{
	return o->n_advise != 0 || (o->baselines && !o->targets);
}

/* Every measurement of the run, before anything is set up. */
static void make_plan(const struct bench_options *o, struct plan *plan)
{
	if (o->n_advise != 0) {
		for (unsigned int i = 0; i < o->n_advise; i++)
			add(plan, o->advise_sizes[i], METHOD_DMA, BENCH_THROUGHPUT, o->threads, o->queue_depth);
	} else if (o->targets) {
		plan_targets(o, plan);
	} else {
		plan_sweep(o, plan);
	}
}

static int run(struct bench *b, const struct plan *plan)
{
	static struct bench_result results[MAX_POINTS];
	struct bench_comch *comch = NULL;
	char comch_why[256] = "not measured";
	int rc;
	int rc2;

	if (wants_comch(&b->opts))
		comch = bench_comch_open(&b->opts, comch_why, sizeof(comch_why));
	if (b->opts.n_advise != 0) {
		rc = bench_advise(b, comch, comch_why);
		bench_comch_close(comch);
		return rc;
	}
	bench_print_header(b);
	rc = run_plan(b, comch, comch_why, plan, results);
	bench_comch_close(comch);
	rc2 = report(b, results, plan->n);
	return rc != BENCH_EXIT_OK ? rc : rc2;
}

/*
 * One program, two command lines: softdoca-bench's own, and DOCA Bench's
 * flags for doca_bench (built from the same sources with SD_DOCA_BENCH).
 */
#ifdef SD_DOCA_BENCH
const char *bench_prog = "doca_bench";
#define parse_command_line bench_doca_parse_args
#else
const char *bench_prog = "softdoca-bench";
#define parse_command_line bench_parse_args
#endif

int main(int argc, char **argv)
{
	static struct bench bench;
	static struct plan plan;
	size_t largest = 0;
	unsigned int threads = 1;
	bool done = false;
	int rc = parse_command_line(argc, argv, &bench.opts, &done);

	if (rc != BENCH_EXIT_OK || done)
		return rc;
	/* Tables go out as they are written, even into a pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_clock_init();
	make_plan(&bench.opts, &plan);
	for (unsigned int i = 0; i < plan.n; i++) {
		if (plan.p[i].size > largest)
			largest = plan.p[i].size;
		if (plan.p[i].threads > threads)
			threads = plan.p[i].threads;
	}
	rc = bench_check_before_measuring(&bench.opts, largest, threads);
	if (rc != BENCH_EXIT_OK)
		return rc;
	rc = bench_setup(&bench, largest, threads);
	if (rc == BENCH_EXIT_OK)
		rc = run(&bench, &plan);
	bench_teardown(&bench);
	return rc;
}
