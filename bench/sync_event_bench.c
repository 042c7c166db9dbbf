/*
 * sync_event_bench - round-trip latency of a DOCA Sync Event between a
 * host process and a "DPU" process (a forked child), next to a plain futex
 * ping-pong between the same two processes, measured in the same run.
 *
 * One round trip of the sync event: the host sets the value to 2i+1
 * (doca_sync_event_update_set); the DPU side's wait-eq task (its context
 * on a progress engine it polls) completes, and the DPU sets 2i+2; the host
 * returns from doca_sync_event_wait_eq(2i+2).  The baseline does the same
 * with a shared 32-bit word, FUTEX_WAIT and FUTEX_WAKE, twice: sleeping at
 * once, and looking 256 times before sleeping as the sync event's waits do
 * (the DPU side of the sync event polls its progress engine, so on an idle
 * machine with two free cores both sides catch the change without a
 * system call).  Prints p50, p99 and mean of each and the ratios of the
 * sync event to both baselines.
 *
 *   bench/sync_event_bench [ROUND_TRIPS]   (default 20000)
 */
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stats {
	double p50, p99, mean;
};

static struct stats summarize(double *v, int n)
{
	struct stats s = {0};

	for (int i = 0; i < n; i++)
		s.mean += v[i] / n;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s.p50 = v[n / 2];
	s.p99 = v[(int)(n * 0.99)];
	return s;
}

/* ---- futex baseline ---- */

/* Looks before sleeping in the spinning baseline (the sync event's waits look 256 times). */
static int futex_looks;

static void futex_wait_for(_Atomic uint32_t *w, uint32_t want)
{
	uint32_t cur;

	for (int i = 0; i < futex_looks; i++)
		if (atomic_load(w) == want)
			return;
	while ((cur = atomic_load(w)) != want)
		syscall(SYS_futex, w, FUTEX_WAIT, cur, NULL, NULL, 0);
}

static void futex_set(_Atomic uint32_t *w, uint32_t v)
{
	atomic_store(w, v);
	syscall(SYS_futex, w, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static struct stats run_futex(int n, double *lat)
{
	_Atomic uint32_t *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	if (w == MAP_FAILED)
		exit(1);
	atomic_store(w, 0);
	pid = fork();
	if (pid == 0) {
		for (uint32_t i = 0; i < (uint32_t)n; i++) {
			futex_wait_for(w, 2 * i + 1);
			futex_set(w, 2 * i + 2);
		}
		_exit(0);
	}
	for (uint32_t i = 0; i < (uint32_t)n; i++) {
		double t0 = now_ns();

		futex_set(w, 2 * i + 1);
		futex_wait_for(w, 2 * i + 2);
		lat[i] = now_ns() - t0;
	}
	waitpid(pid, NULL, 0);
	munmap((void *)w, 4096);
	return summarize(lat, n);
}

/* ---- sync event ---- */

static int dpu_done;

static void on_wait(struct doca_sync_event_task_wait_eq *t, union doca_data a, union doca_data b)
{
	(void)a, (void)b;
	dpu_done = doca_task_get_status(doca_sync_event_task_wait_eq_as_doca_task(t)) == DOCA_SUCCESS ? 1 : -1;
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(t));
}

/* The DPU side: import, then per round a wait task and an update. */
static int dpu_side(struct doca_dev *dev, const uint8_t *blob, size_t sz, int n)
{
	struct doca_sync_event *ev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;
	union doca_data ud = {.u64 = 0};

	if (doca_sync_event_create_from_export(dev, blob, sz, &ev) != DOCA_SUCCESS || (ctx = doca_sync_event_as_ctx(ev)) == NULL ||
	    doca_sync_event_task_wait_eq_set_conf(ev, on_wait, on_wait, 4) != DOCA_SUCCESS ||
	    doca_pe_create(&pe) != DOCA_SUCCESS || doca_pe_connect_ctx(pe, ctx) != DOCA_SUCCESS ||
	    doca_ctx_start(ctx) != DOCA_SUCCESS)
		return 2;
	for (uint64_t i = 0; i < (uint64_t)n; i++) {
		struct doca_sync_event_task_wait_eq *t;

		dpu_done = 0;
		if (doca_sync_event_task_wait_eq_alloc_init(ev, 2 * i + 1, UINT64_MAX, ud, &t) != DOCA_SUCCESS ||
		    doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t)) != DOCA_SUCCESS)
			return 3;
		while (dpu_done == 0)
			(void)doca_pe_progress(pe);
		if (dpu_done < 0 || doca_sync_event_update_set(ev, 2 * i + 2) != DOCA_SUCCESS)
			return 4;
	}
	(void)doca_ctx_stop(ctx);
	(void)doca_sync_event_destroy(ev);
	(void)doca_pe_destroy(pe);
	return 0;
}

static struct stats run_sync_event(struct doca_dev *dev, int n, double *lat, int *rc)
{
	struct doca_sync_event *ev = NULL;
	const uint8_t *blob;
	size_t sz;
	pid_t pid;
	int st = 0;

	if (doca_sync_event_create(&ev) != DOCA_SUCCESS || doca_sync_event_add_publisher_location_remote_pci(ev) != DOCA_SUCCESS ||
	    doca_sync_event_add_subscriber_location_cpu(ev, dev) != DOCA_SUCCESS || doca_sync_event_start(ev) != DOCA_SUCCESS ||
	    doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz) != DOCA_SUCCESS)
		exit(1);
	pid = fork();
	if (pid == 0)
		_exit(dpu_side(dev, blob, sz, n));
	for (uint64_t i = 0; i < (uint64_t)n; i++) {
		double t0 = now_ns();

		if (doca_sync_event_update_set(ev, 2 * i + 1) != DOCA_SUCCESS ||
		    doca_sync_event_wait_eq(ev, 2 * i + 2, UINT64_MAX) != DOCA_SUCCESS)
			exit(1);
		lat[i] = now_ns() - t0;
	}
	waitpid(pid, &st, 0);
	*rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	(void)doca_sync_event_stop(ev);
	(void)doca_sync_event_destroy(ev);
	return summarize(lat, n);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000, rc = 0;
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t nd = 0;
	double *lat;
	struct stats se, fx, fs;

	if (n < 100 || n > 10000000) {
		fprintf(stderr, "usage: sync_event_bench [ROUND_TRIPS 100..10000000]\n");
		return 2;
	}
	lat = calloc((size_t)n, sizeof(*lat));
	if (lat == NULL || doca_devinfo_create_list(&list, &nd) != DOCA_SUCCESS || nd == 0 ||
	    doca_dev_open(list[0], &dev) != DOCA_SUCCESS)
		return 1;
	doca_devinfo_destroy_list(list);
	futex_looks = 0;
	fx = run_futex(n, lat);
	futex_looks = 256;
	fs = run_futex(n, lat);
	se = run_sync_event(dev, n, lat, &rc);
	if (rc != 0) {
		fprintf(stderr, "the DPU side failed (%d)\n", rc);
		return 1;
	}
	printf("round trips: %d, host and DPU processes on this machine\n", n);
	printf("%-34s %10s %10s %10s\n", "path", "p50 us", "p99 us", "mean us");
	printf("%-34s %10.2f %10.2f %10.2f\n", "futex ping-pong (baseline)", fx.p50 / 1e3, fx.p99 / 1e3, fx.mean / 1e3);
	printf("%-34s %10.2f %10.2f %10.2f\n", "futex, 256 looks before sleeping", fs.p50 / 1e3, fs.p99 / 1e3,
	       fs.mean / 1e3);
	printf("%-34s %10.2f %10.2f %10.2f\n", "sync event: update_set + wait task", se.p50 / 1e3, se.p99 / 1e3,
	       se.mean / 1e3);
	printf("ratio sync event / futex: p50 %.2f, p99 %.2f, mean %.2f\n", se.p50 / fx.p50, se.p99 / fx.p99,
	       se.mean / fx.mean);
	printf("ratio sync event / futex with looks: p50 %.2f, p99 %.2f, mean %.2f\n", se.p50 / fs.p50,
	       se.p99 / fs.p99, se.mean / fs.mean);
	free(lat);
	(void)doca_dev_close(dev);
	return 0;
}
