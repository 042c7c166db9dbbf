/*
 * bench_report.c - what the bench prints: the run's header, one table of
 * results, softdoca's own performance targets next to the numbers measured
 * (with --targets only: they are the project's goals, not a verdict on the
 * user's machine), and the CSV file.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

const char *bench_method_name(enum bench_method m)
{
	static const char *const names[METHOD_COUNT] = {"dma", "memcpy", "pvr", "comch", "comch_fp", "rdma_write", "rdma_read",
							"rdma_send"};

	return (unsigned int)m < METHOD_COUNT ? names[m] : "?";
}

const char *bench_mode_name(enum bench_mode m)
{
	return m == BENCH_LATENCY ? "latency" : "throughput";
}

const char *bench_mem_name(enum bench_mem m)
{
	return m == BENCH_MEM_REMOTE ? "remote" : "local";
}

void bench_format_size(size_t size, char *buf, size_t len)
{
	if (size >= GIB && size % GIB == 0)
		snprintf(buf, len, "%zu GiB", size / GIB);
	else if (size >= MIB && size % MIB == 0)
		snprintf(buf, len, "%zu MiB", size / MIB);
	else if (size >= KIB && size % KIB == 0)
		snprintf(buf, len, "%zu KiB", size / KIB);
	else
		snprintf(buf, len, "%zu B", size);
}

void bench_format_rate(double per_s, char *buf, size_t len)
{
	if (per_s >= 1e9)
		snprintf(buf, len, "%.2f G", per_s / 1e9);
	else if (per_s >= 1e6)
		snprintf(buf, len, "%.2f M", per_s / 1e6);
	else if (per_s >= 1e3)
		snprintf(buf, len, "%.2f k", per_s / 1e3);
	else
		snprintf(buf, len, "%.1f", per_s);
}

const struct bench_result *bench_find(const struct bench_result *r, unsigned int n, size_t size,
				      enum bench_method m, enum bench_mode mode, unsigned int threads)
{
	for (unsigned int i = 0; i < n; i++)
		if (r[i].available && r[i].point.size == size && r[i].point.method == m && r[i].point.mode == mode &&
		    r[i].point.threads == threads)
			return &r[i];
	return NULL;
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : fallback;
}

void bench_print_header(const struct bench *b)
{
	const struct bench_options *o = &b->opts;

	char pinning[160] = " (pinned)";

	if (!b->pinned)
		snprintf(pinning, sizeof(pinning), " (not pinned: fewer CPUs than threads)");
	if (o->n_cores != 0) {
		int len = snprintf(pinning, sizeof(pinning), " (pinned to CPU%s", o->n_cores == 1 ? "" : "s");

		for (unsigned int i = 0; i < o->n_cores && len > 0 && (size_t)len < sizeof(pinning) - 8; i++)
			len += snprintf(pinning + len, sizeof(pinning) - (size_t)len, "%s%d", i == 0 ? " " : ",",
					o->cores[i]);
		if (len > 0 && (size_t)len < sizeof(pinning) - 1)
			snprintf(pinning + len, sizeof(pinning) - (size_t)len, ")");
	}
	if (o->targets)
		printf("%s: --targets (throughput and latency, 1 and 2 threads%s), %s memory, queue depth %u, ", bench_prog,
		       b->pinned ? ", pinned" : ", not pinned: fewer CPUs than threads", bench_mem_name(o->mem),
		       o->queue_depth);
	else
		printf("%s: %s, %s memory, %u thread%s%s, queue depth %u, ", bench_prog, bench_mode_name(o->mode),
		       bench_uses_companion(o) ? "remote" : "local", o->threads, o->threads == 1 ? "" : "s", pinning,
		       o->mode == BENCH_LATENCY ? 1 : o->queue_depth);
	if (o->tasks != 0)
		printf("%llu jobs per thread and measurement", (unsigned long long)o->tasks);
	else
		printf("%.3g s per measurement", o->duration_s);
	if (o->repeat > 1)
		printf(", best of %u runs taken in turns", o->repeat);
	putchar('\n');
	printf("device %s, engine %s, ", b->dev_pci, env_or("SOFTDOCA_ENGINE", "cpu (default)"));
	if (atoi(env_or("SOFTDOCA_DMA_WORKERS", "0")) > 0)
		printf("DMA workers %s (copies run on library threads, CPUs %s)", getenv("SOFTDOCA_DMA_WORKERS"),
		       env_or("SOFTDOCA_DMA_WORKER_CPUS", "not pinned"));
	else if (getenv("SOFTDOCA_CARD_TIMING") != NULL && *getenv("SOFTDOCA_CARD_TIMING") != '\0')
		printf("DMA workers 1 (selected by the card timing model)");
	else
		printf("DMA workers 0 (copies run inside doca_pe_progress)");
	/* docs/card-timing.md: DMA rows then show the modelled card's pace, every other row this machine's. */
	if (getenv("SOFTDOCA_CARD_TIMING") != NULL && *getenv("SOFTDOCA_CARD_TIMING") != '\0')
		printf(", card timing model %s (DMA at the modelled card's pace; memcpy and CPU rows are this "
		       "machine's)", getenv("SOFTDOCA_CARD_TIMING"));
	if (o->app_work_s > 0)
		printf(", program work %.3g us per job", o->app_work_s * 1e6);
	if (bench_uses_companion(o))
		printf(", %s exported by pid %ld on %s",
		       o->mem != BENCH_MEM_REMOTE ? "destination"
		       : o->remote_output         ? "source and destination"
						  : "source",
		       (long)b->remote.pid, b->remote.exporter_pci);
	printf("%s\n", o->verify ? ", every byte verified" : "");
	if (o->step == METHOD_RDMA_SEND)
		printf("step %s: DOCA RDMA sends into receives that a second RDMA context of this process keeps "
		       "posted (it plays DOCA Bench's companion), one progress engine\n",
		       o->step_name);
	putchar('\n');
}

static double ratio_to_memcpy(const struct bench_result *r, const struct bench_result *all, unsigned int n)
{
	const struct bench_result *m =
		bench_find(all, n, r->point.size, METHOD_MEMCPY, r->point.mode, r->point.threads);

	if (m == NULL || m->bytes_per_s <= 0 || !r->available)
		return NAN;
	return r->bytes_per_s / m->bytes_per_s;
}

static void print_throughput_row(const struct bench_result *r, const struct bench_result *all, unsigned int n)
{
	char size[32];
	char rate[32];
	double ratio = ratio_to_memcpy(r, all, n);

	bench_format_size(r->point.size, size, sizeof(size));
	if (!r->available) {
		printf("%-10s %-10s %7u  %-58s\n", size, bench_method_name(r->point.method), r->point.threads, r->note);
		return;
	}
	bench_format_rate(r->ops_per_s, rate, sizeof(rate));
	printf("%-10s %-10s %7u %12s %9.2f ", size, bench_method_name(r->point.method), r->point.threads, rate,
	       r->bytes_per_s / 1e9);
	if (isnan(ratio))
		printf("%9s", "-");
	else
		printf("%8.2fx", ratio);
	printf(" %9u %4.0f%%  %s\n", r->depth_used, r->cpu_share * 100, r->note);
}

static void print_latency_row(const struct bench_result *r)
{
	char size[32];

	bench_format_size(r->point.size, size, sizeof(size));
	if (!r->available) {
		printf("%-10s %-10s %7u  %s\n", size, bench_method_name(r->point.method), r->point.threads, r->note);
		return;
	}
	printf("%-10s %-10s %7u %9.0f %9.0f %9.0f %9.0f %10.0f %10llu %4.0f%%  %s\n", size,
	       bench_method_name(r->point.method), r->point.threads, r->lat.p50, r->lat.p90, r->lat.p99, r->lat.p999,
	       r->lat.max, (unsigned long long)r->ops, r->cpu_share * 100, r->note);
}

void bench_print_results(const struct bench *b, const struct bench_result *r, unsigned int n)
{
	bool any_tput = false;
	bool any_lat = false;

	(void)b;
	for (unsigned int i = 0; i < n; i++) {
		any_tput |= r[i].point.mode == BENCH_THROUGHPUT;
		any_lat |= r[i].point.mode == BENCH_LATENCY;
	}
	if (any_tput) {
		printf("%-10s %-10s %7s %12s %9s %9s %9s %5s  %s\n", "size", "method", "threads", "jobs/s", "GB/s",
		       "vs memcpy", "in flight", "cpu", "note");
		for (unsigned int i = 0; i < n; i++)
			if (r[i].point.mode == BENCH_THROUGHPUT)
				print_throughput_row(&r[i], r, n);
	}
	if (any_tput && any_lat)
		putchar('\n');
	if (any_lat) {
		printf("%-10s %-10s %7s %9s %9s %9s %9s %10s %10s %5s  %s\n", "size", "method", "threads", "p50 ns",
		       "p90 ns", "p99 ns", "p99.9 ns", "max ns", "jobs", "cpu", "note");
		for (unsigned int i = 0; i < n; i++)
			if (r[i].point.mode == BENCH_LATENCY)
				print_latency_row(&r[i]);
	}
	for (unsigned int i = 0; i < n; i++)
		if (r[i].bad_bytes_jobs != 0 || r[i].errors != 0) {
			char size[32];

			bench_format_size(r[i].point.size, size, sizeof(size));
			printf("FAILED: %s %s: %llu failed jobs, %llu jobs with wrong bytes %s\n", size,
			       bench_method_name(r[i].point.method), (unsigned long long)r[i].errors,
			       (unsigned long long)r[i].bad_bytes_jobs, r[i].note);
		}
}

/* ---- --app-work: overlap ---- */

static void format_us(double s, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f us", s * 1e6);
}

/*
 * Time per job of each thread (W + C for a copy followed by the work, the
 * DMA loop's own figure) and what overlap makes of it: a job costs
 * max(W, C) when the copy runs beside the work, W + C when it does not.
 */
static void overlap_row(const struct bench_result *dma, const struct bench_result *cpy, double w)
{
	char size[32], ws[32], cs[32], sum[32], mx[32], ds[32];
	double per_dma = dma->point.threads / dma->ops_per_s;
	double per_cpy = cpy->point.threads / cpy->ops_per_s;
	double c = per_cpy > w ? per_cpy - w : 0;
	double best = c > w ? c : w;

	bench_format_size(dma->point.size, size, sizeof(size));
	format_us(w, ws, sizeof(ws));
	format_us(c, cs, sizeof(cs));
	format_us(w + c, sum, sizeof(sum));
	format_us(best, mx, sizeof(mx));
	format_us(per_dma, ds, sizeof(ds));
	printf("%-10s %11s %11s %11s %11s %11s %10.2fx %10.2fx\n", size, ws, cs, sum, mx, ds, per_dma / best,
	       per_dma / (w + c));
}

void bench_print_overlap(const struct bench *b, const struct bench_result *r, unsigned int n)
{
	double w = b->opts.app_work_s;
	bool any = false;

	printf("\nOverlap: the program works W after each job; C is one copy (memcpy's time per job, less W).\n"
	       "Copies inside doca_pe_progress cost W + C per job; copies beside the program's work, max(W, C).\n");
	printf("%-10s %11s %11s %11s %11s %11s %11s %11s\n", "size", "W", "C", "W + C", "max(W, C)", "dma per job",
	       "/max(W, C)", "/(W + C)");
	for (unsigned int i = 0; i < n; i++) {
		const struct bench_result *d = &r[i];
		const struct bench_result *m;

		if (d->point.method != METHOD_DMA || d->point.mode != BENCH_THROUGHPUT || !d->available ||
		    d->ops_per_s <= 0)
			continue;
		m = bench_find(r, n, d->point.size, METHOD_MEMCPY, BENCH_THROUGHPUT, d->point.threads);
		if (m == NULL || !m->available || m->ops_per_s <= 0)
			continue;
		overlap_row(d, m, w);
		any = true;
	}
	if (!any)
		printf("  (no size with both a dma and a memcpy measurement: drop --no-baselines)\n");
}

/* ---- targets ---- */

#define TARGET_64B_RATE 25e6
#define TARGET_LARGE_RATIO 0.95
#define TARGET_LARGE_FROM (64 * KIB)
#define TARGET_P50_NS 150.0
#define TARGET_P99_NS 1000.0
#define TARGET_SCALING 1.8
#define TARGET_IN_CACHE (64 * KIB)

static void target_row(const char *what, const char *measured, const char *target, bool known, bool met)
{
	printf("  %-44s %-14s %-12s %s\n", what, known ? measured : "not measured", target,
	       known ? (met ? "met" : "MISSED") : "(run --targets)");
}

static void target_rate_64(const struct bench_result *r, unsigned int n)
{
	const struct bench_result *d = bench_find(r, n, 64, METHOD_DMA, BENCH_THROUGHPUT, 1);
	char buf[32] = "";

	if (d != NULL)
		snprintf(buf, sizeof(buf), "%.2f M/s", d->ops_per_s / 1e6);
	target_row("64 B DMA jobs per second, one thread", buf, ">= 25 M/s", d != NULL,
		   d != NULL && d->ops_per_s >= TARGET_64B_RATE);
	if (d != NULL && d->cpu_share > 0 && d->cpu_share < 0.95)
		printf("  %-44s %.2f M (the thread ran %.0f%% of the time)\n", "  the same, per second on a CPU",
		       d->ops_per_s / d->cpu_share / 1e6, d->cpu_share * 100);
}

static void target_large_ratio(const struct bench_result *r, unsigned int n)
{
	double worst = INFINITY;
	size_t worst_size = 0;
	char what[96] = "DMA / memcpy from 64 KiB up, one thread";
	char buf[32] = "";
	char size[32];

	for (unsigned int i = 0; i < n; i++) {
		const struct bench_result *m;

		if (!r[i].available || r[i].point.method != METHOD_DMA || r[i].point.mode != BENCH_THROUGHPUT ||
		    r[i].point.threads != 1 || r[i].point.size < TARGET_LARGE_FROM)
			continue;
		m = bench_find(r, n, r[i].point.size, METHOD_MEMCPY, BENCH_THROUGHPUT, 1);
		if (m == NULL || m->bytes_per_s <= 0)
			continue;
		if (r[i].bytes_per_s / m->bytes_per_s < worst) {
			worst = r[i].bytes_per_s / m->bytes_per_s;
			worst_size = r[i].point.size;
		}
	}
	if (worst_size != 0) {
		bench_format_size(worst_size, size, sizeof(size));
		snprintf(what, sizeof(what), "DMA / memcpy from 64 KiB up (worst: %s)", size);
		snprintf(buf, sizeof(buf), "%.3fx", worst);
	}
	target_row(what, buf, ">= 0.95x", worst_size != 0, worst >= TARGET_LARGE_RATIO);
}

static void target_latency(const struct bench_result *r, unsigned int n)
{
	const struct bench_result *d = bench_find(r, n, 64, METHOD_DMA, BENCH_LATENCY, 1);
	char p50[32] = "";
	char p99[32] = "";

	if (d != NULL) {
		snprintf(p50, sizeof(p50), "%.0f ns", d->lat.p50);
		snprintf(p99, sizeof(p99), "%.0f ns", d->lat.p99);
	}
	target_row("64 B DMA latency p50, one thread", p50, "<= 150 ns", d != NULL, d != NULL && d->lat.p50 <= TARGET_P50_NS);
	target_row("64 B DMA latency p99, one thread", p99, "<= 1 us", d != NULL, d != NULL && d->lat.p99 <= TARGET_P99_NS);
}

/* memcpy's own scaling at `size`, to tell a busy or small machine from a library limit. */
static void scaling_control(const struct bench_result *r, unsigned int n, size_t size)
{
	const struct bench_result *one = bench_find(r, n, size, METHOD_MEMCPY, BENCH_THROUGHPUT, 1);
	const struct bench_result *two = bench_find(r, n, size, METHOD_MEMCPY, BENCH_THROUGHPUT, 2);

	if (one != NULL && two != NULL && one->ops_per_s > 0)
		printf("  %-44s %.2fx (control: the machine's own scaling)\n", "  memcpy, 2 threads / 1 thread, same size",
		       two->ops_per_s / one->ops_per_s);
}

static void target_scaling(const struct bench_result *r, unsigned int n)
{
	double worst = INFINITY;
	size_t worst_size = 0;
	char what[96] = "2 threads / 1 thread, DMA, in-cache sizes";
	char buf[32] = "";
	char size[32];

	for (unsigned int i = 0; i < n; i++) {
		const struct bench_result *one;

		if (!r[i].available || r[i].point.method != METHOD_DMA || r[i].point.mode != BENCH_THROUGHPUT ||
		    r[i].point.threads != 2 || r[i].point.size > TARGET_IN_CACHE)
			continue;
		one = bench_find(r, n, r[i].point.size, METHOD_DMA, BENCH_THROUGHPUT, 1);
		if (one == NULL || one->ops_per_s <= 0)
			continue;
		if (r[i].ops_per_s / one->ops_per_s < worst) {
			worst = r[i].ops_per_s / one->ops_per_s;
			worst_size = r[i].point.size;
		}
	}
	if (worst_size != 0) {
		bench_format_size(worst_size, size, sizeof(size));
		snprintf(what, sizeof(what), "2 threads / 1 thread, DMA (worst: %s)", size);
		snprintf(buf, sizeof(buf), "%.2fx", worst);
	}
	target_row(what, buf, ">= 1.8x", worst_size != 0, worst >= TARGET_SCALING);
	if (worst_size != 0)
		scaling_control(r, n, worst_size);
}

void bench_print_targets(const struct bench_result *r, unsigned int n)
{
	double least = 1.0;

	printf("\nTargets (the numbers of this run; they never change the exit status):\n");
	target_rate_64(r, n);
	target_large_ratio(r, n);
	target_latency(r, n);
	target_scaling(r, n);
	for (unsigned int i = 0; i < n; i++)
		if (r[i].available && r[i].point.method < METHOD_COMCH && r[i].cpu_share < least)
			least = r[i].cpu_share;
	if (least < 0.95)
		printf("  note: a measuring thread was on a CPU only %.0f%% of its time (column cpu): the machine was\n"
		       "  busy, so those numbers understate the code; rerun on an idle machine or with --repeat\n",
		       least * 100);
}

/* ---- CSV ---- */

static void csv_text(FILE *f, const char *text)
{
	fputc('"', f);
	for (const char *c = text; *c != '\0'; c++) {
		if (*c == '"')
			fputc('"', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

/* Whether `path` exists and holds something (the header is already there). */
static bool has_content(const char *path)
{
	FILE *f = fopen(path, "r");
	bool some;

	if (f == NULL)
		return false;
	some = fgetc(f) != EOF;
	fclose(f);
	return some;
}

FILE *bench_csv_open(const char *path, bool append, const char *header)
{
	bool new_file = !(append && has_content(path));
	FILE *f = fopen(path, append ? "a" : "w");

	if (f == NULL)
		fprintf(stderr, "%s: cannot write %s: %s\n", bench_prog, path, strerror(errno));
	else if (new_file)
		fputs(header, f);
	return f;
}

int bench_csv_close(FILE *f, const char *path)
{
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", bench_prog, path, strerror(errno));
		return BENCH_EXIT_OUTPUT;
	}
	return BENCH_EXIT_OK;
}

int bench_write_csv(const char *path, const struct bench *b, const struct bench_result *r, unsigned int n)
{
	FILE *f = bench_csv_open(path, b->opts.csv_append,
				 "mode,mem,threads,queue_depth,method,job_size,jobs,seconds,jobs_per_s,gbytes_per_s,"
				 "vs_memcpy,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,cpu_share,errors,note\n");

	if (f == NULL)
		return BENCH_EXIT_OUTPUT;
	for (unsigned int i = 0; i < n; i++) {
		const struct bench_result *x = &r[i];
		double ratio = ratio_to_memcpy(x, r, n);

		fprintf(f, "%s,%s,%u,%u,%s,%zu,", bench_mode_name(x->point.mode), bench_mem_name(b->opts.mem),
			x->point.threads, x->depth_used, bench_method_name(x->point.method), x->point.size);
		if (x->available)
			fprintf(f, "%llu,%.6f,%.1f,%.4f,", (unsigned long long)x->ops, x->seconds, x->ops_per_s,
				x->bytes_per_s / 1e9);
		else
			fprintf(f, ",,,,");
		if (!isnan(ratio))
			fprintf(f, "%.4f", ratio);
		fputc(',', f);
		if (x->available && x->point.mode == BENCH_LATENCY)
			fprintf(f, "%.0f,%.0f,%.0f,%.0f,%.0f,", x->lat.p50, x->lat.p90, x->lat.p99, x->lat.p999,
				x->lat.max);
		else
			fprintf(f, ",,,,,");
		if (x->available)
			fprintf(f, "%.3f", x->cpu_share);
		fprintf(f, ",%llu,", (unsigned long long)(x->errors + x->bad_bytes_jobs));
		csv_text(f, x->note);
		fputc('\n', f);
	}
	return bench_csv_close(f, path);
}
