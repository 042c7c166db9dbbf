/*
 * hostdpu_bench.c - host/DPU DMA measured the way the published BlueField
 * figures were: a "DPU-side" process imports a "host" process's memory and
 * runs batches of 64 memcpy tasks of one size on one context, each batch
 * submitted whole and then drained.
 *
 * A host child exports 16 MiB of heap memory (PCI read-write) and waits.
 * For each engine (inline: SOFTDOCA_DMA_WORKERS=0; workers: =1) a DPU
 * child imports it and prints, side by side in one run:
 *   - tasks/s reading (host -> DPU) and writing (DPU -> host), 16 B .. 64 KiB,
 *     against the targets (10.5 M/s inline, 10 M/s workers, 16..256 B);
 *   - the time of one task in flight (64 B read, submit then progress until
 *     it completes; target 500 ns inline);
 *   - GB/s of 16 KiB .. 1 MiB tasks against memcpy between two mappings of
 *     the same memory (a memfd mapped twice in this process; target 0.95x
 *     from 64 KiB), the two measured in ten alternating slices of each
 *     row's time, with the time of one copy each and the slices' median
 *     ratio;
 *   - the sizes from 64 KiB again in batches of 64, as published, against
 *     memcpy of the same 64 ranges (big_batch_row).
 * Every size's bytes are checked once after its measurement.  The machine
 * may be shared and loaded: compare the columns of one run, not runs.
 *
 * With --card bf2 a third run repeats the measurement under the bf2 card
 * timing model (SOFTDOCA_CARD_TIMING=bf2, docs/card-timing.md) and prints
 * each row next to the published figure (Wei et al., OSDI'23): within
 * +-10% wherever this machine's worker engine alone is at least 1.1x the
 * card; two contexts of one card together (the card's rate, not twice it);
 * one task in flight (the modelled latency).
 *
 *   ./build/bench/hostdpu_bench [-t seconds per row] [--quick] [--card bf2]
 *                               [--engine inline|workers] [--split] [--big]
 *
 * --engine runs one engine's rows only (for a profiler, or to repeat one
 * column quickly); --card needs both, since it judges against the worker
 * engine's own rates.  --big runs the rows of 16 KiB and up alone (so
 * does --card not go with it).  --split adds, per big size, where the gap
 * to memcpy lies: the buffers, the engine's per-task path, or the import's
 * access path (split_row).
 *
 * Exit status: 0 when every copy succeeded and matched, whatever the
 * numbers; 1 on a functional failure.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench_common.h"

#define REGION ((size_t)16 << 20)
#define BATCH 64

struct host_region {
	uint64_t addr;
	uint32_t desc_len;
	uint8_t desc[512];
};

static const size_t task_sizes[] = {16, 64, 256, 1024, 4096, 16384, 65536};
static const size_t big_sizes[] = {16384, 65536, 262144, 1 << 20};
#define BIG_TARGET_FROM 65536 /* the 0.95x target starts here; smaller rows are for comparison */

static bool big_only; /* --big: the big rows alone (a profiler's or a quick comparison's run) */
static bool split; /* --split: where each big row's gap lies (split_row) */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 7 + (i >> 12) + 3);
}

/* ---- the host: export and wait ------------------------------------------- */

static int host_main(int out_fd, int wait_fd)
{
	struct doca_dev *dev = bench_open_dev("0000:b1:00.0");
	uint8_t *heap = aligned_alloc(4096, REGION);
	struct host_region r = {0};
	struct doca_mmap *m;
	const void *d;
	size_t n;
	char c;

	if (dev == NULL || heap == NULL)
		return 1;
	for (size_t i = 0; i < REGION; i++)
		heap[i] = pattern(i);
	m = bench_local_mmap(dev, heap, REGION, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (m == NULL || doca_mmap_export_pci(m, dev, &d, &n) != DOCA_SUCCESS || n > sizeof(r.desc))
		return 1;
	memcpy(r.desc, d, n);
	r.desc_len = (uint32_t)n;
	r.addr = (uint64_t)(uintptr_t)heap;
	if (write(out_fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		return 1;
	while (read(wait_fd, &c, 1) > 0) /* the parent closes its end at the end */
		;
	doca_mmap_destroy(m);
	doca_dev_close(dev);
	free(heap);
	return 0;
}

/* ---- the DPU side -------------------------------------------------------- */

struct dpu {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	struct doca_mmap *remote, *localmap;
	uint8_t *local; /* REGION */
	uint64_t raddr;
	struct doca_dma_task_memcpy *tasks[BATCH];
	struct doca_buf *srcs[BATCH], *dsts[BATCH];
	uint32_t done;
	bool failed;
	doca_error_t first_error; /* the first failed task's status, for the final message */
	double seconds;
	double best_batch_s; /* the fastest whole batch of the latest row (card model: its pace while this thread ran) */
	double ms_median_rate; /* the median of the latest row's 1 ms slices' rates (tasks/s) */
};

static void task_cb(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct dpu *p = cud.ptr;
	doca_error_t st = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)tud;
	if (st != DOCA_SUCCESS && !p->failed)
		p->first_error = st;
	if (st != DOCA_SUCCESS)
		p->failed = true;
	p->done++;
}

/* Say why a run failed: a task's status, or bytes that differed (status DOCA_SUCCESS). */
static void report_failure(const struct dpu *p)
{
	if (!p->failed)
		return;
	if (p->first_error != DOCA_SUCCESS)
		fprintf(stderr, "hostdpu_bench: a task failed with %s\n", doca_error_get_name(p->first_error));
	else
		fprintf(stderr, "hostdpu_bench: a copy's bytes did not match, or a task could not be submitted\n");
}

static bool dpu_setup(struct dpu *p, const struct host_region *r)
{
	union doca_data ud = {.ptr = p};
	struct doca_ctx *ctx;

	p->dev = bench_open_dev("0000:03:00.0");
	p->local = aligned_alloc(4096, REGION);
	if (p->dev == NULL || p->local == NULL)
		return false;
	memset(p->local, 0x5a, REGION);
	p->raddr = r->addr;
	if (doca_mmap_create_from_export(NULL, r->desc, r->desc_len, p->dev, &p->remote) != DOCA_SUCCESS)
		return false;
	p->localmap = bench_local_mmap(p->dev, p->local, REGION, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (p->localmap == NULL || doca_buf_inventory_create(2 * BATCH, &p->inv) != DOCA_SUCCESS ||
	    doca_buf_inventory_start(p->inv) != DOCA_SUCCESS || doca_pe_create(&p->pe) != DOCA_SUCCESS ||
	    doca_dma_create(p->dev, &p->dma) != DOCA_SUCCESS)
		return false;
	ctx = doca_dma_as_ctx(p->dma);
	return doca_ctx_set_user_data(ctx, ud) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_set_conf(p->dma, task_cb, task_cb, BATCH) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(p->pe, ctx) == DOCA_SUCCESS && doca_ctx_start(ctx) == DOCA_SUCCESS;
}

static void batch_fini(struct dpu *p)
{
	for (int i = 0; i < BATCH; i++) {
		if (p->tasks[i] != NULL)
			doca_task_free(doca_dma_task_memcpy_as_task(p->tasks[i]));
		if (p->srcs[i] != NULL)
			doca_buf_dec_refcount(p->srcs[i], NULL);
		if (p->dsts[i] != NULL)
			doca_buf_dec_refcount(p->dsts[i], NULL);
		p->tasks[i] = NULL;
		p->srcs[i] = p->dsts[i] = NULL;
	}
}

/* `n` tasks of `len` bytes at distinct offsets: read host -> local, or write local -> host. */
static bool batch_init(struct dpu *p, size_t len, bool write, int n)
{
	union doca_data ud = {.u64 = 0};

	for (int i = 0; i < n; i++) {
		size_t off = ((size_t)i * len) % (REGION - len);
		void *host = (void *)(uintptr_t)(p->raddr + off);
		void *local = p->local + off;
		struct doca_mmap *sm = write ? p->localmap : p->remote, *dm = write ? p->remote : p->localmap;
		void *s = write ? local : host, *d = write ? host : local;

		if (doca_buf_inventory_buf_get_by_data(p->inv, sm, s, len, &p->srcs[i]) != DOCA_SUCCESS ||
		    doca_buf_inventory_buf_get_by_addr(p->inv, dm, d, len, &p->dsts[i]) != DOCA_SUCCESS ||
		    doca_dma_task_memcpy_alloc_init(p->dma, p->srcs[i], p->dsts[i], ud, &p->tasks[i]) != DOCA_SUCCESS)
			return false;
	}
	return true;
}

/* Submit `n` tasks whole, then drain them. */
static bool batch_run(struct dpu *p, int n)
{
	p->done = 0;
	for (int i = 0; i < n; i++) {
		doca_buf_reset_data_len(p->dsts[i]);
		if (doca_task_submit(doca_dma_task_memcpy_as_task(p->tasks[i])) != DOCA_SUCCESS)
			return false;
	}
	while (p->done < (uint32_t)n)
		doca_pe_progress(p->pe);
	return !p->failed;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return n > 0 ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

/*
 * Rates of the 1 ms slices of a row, for their median: a slice in which
 * another process took this thread's CPU is one slow slice among many,
 * where it lowers the row's mean by the whole time it was away.
 */
#define MS_SLICES_MAX 8192

struct ms_slices {
	double rate[MS_SLICES_MAX];
	int n;
	double start;
	uint64_t tasks;
};

static void ms_slices_begin(struct ms_slices *m, double now)
{
	m->n = 0;
	m->start = now;
	m->tasks = 0;
}

/* The slices' median rate, or `mean` where the row was too short for three whole slices (--quick). */
static double ms_slices_median(struct ms_slices *m, double mean)
{
	return m->n >= 3 ? median_of(m->rate, m->n) : mean;
}

static void ms_slices_add(struct ms_slices *m, double now, int tasks)
{
	m->tasks += (uint64_t)tasks;
	if (now - m->start < 1e-3)
		return;
	if (m->n < MS_SLICES_MAX)
		m->rate[m->n++] = (double)m->tasks / (now - m->start);
	m->start = now;
	m->tasks = 0;
}

/* Tasks per second over about p->seconds of whole batches of `n`. */
static double batches_per_s(struct dpu *p, int n)
{
	static struct ms_slices ms;
	double t0 = now_s(), t = t0, prev;
	uint64_t tasks = 0;

	p->best_batch_s = 0;
	ms_slices_begin(&ms, t0);
	do {
		prev = t;
		if (!batch_run(p, n)) {
			p->failed = true;
			return 0;
		}
		tasks += (uint64_t)n;
		t = now_s();
		ms_slices_add(&ms, t, n);
		if (p->best_batch_s == 0 || t - prev < p->best_batch_s)
			p->best_batch_s = t - prev;
	} while (t - t0 < p->seconds);
	p->ms_median_rate = ms_slices_median(&ms, (double)tasks / (t - t0));
	return (double)tasks / (t - t0);
}

/* After a read the local bytes are the host's pattern; after a write, read back and compare. */
static bool batch_verify(struct dpu *p, size_t len, bool write)
{
	for (int i = 0; i < BATCH; i++) {
		size_t off = ((size_t)i * len) % (REGION - len);
		for (size_t k = 0; !write && k < len; k++)
			if (p->local[off + k] != pattern(off + k))
				return false;
	}
	if (!write)
		return true;
	batch_fini(p);
	memset(p->local, 0, REGION);
	return batch_init(p, len, false, BATCH) && batch_run(p, BATCH) && batch_verify(p, len, false);
}

/* Tasks/s of batches of `len`-byte tasks, bytes checked; 0 on failure. */
static double rate_row_quiet(struct dpu *p, size_t len, bool write)
{
	double rate = 0;
	bool ok = batch_init(p, len, write, BATCH);

	if (ok) {
		rate = batches_per_s(p, BATCH);
		ok = !p->failed && batch_verify(p, len, write);
	}
	batch_fini(p);
	if (!ok)
		p->failed = true;
	return ok ? rate : 0;
}

static double rate_row(struct dpu *p, size_t len, bool write, double target)
{
	double rate = rate_row_quiet(p, len, write);

	if (target > 0)
		printf("  %-6s %7zu B  %8.2f M tasks/s   target %5.1f  %s\n", write ? "write" : "read", len, rate / 1e6,
		       target / 1e6, rate >= target ? "ok" : "BELOW TARGET");
	else
		printf("  %-6s %7zu B  %8.2f M tasks/s\n", write ? "write" : "read", len, rate / 1e6);
	return rate;
}

/* The first prepared task, alone in flight, again and again for about `seconds`; seconds taken, *n runs. */
static double one_in_flight_for(struct dpu *p, double seconds, uint64_t *n)
{
	static struct ms_slices ms;
	double t0 = now_s(), t = t0, prev;

	p->best_batch_s = 0;
	ms_slices_begin(&ms, t0);
	do {
		prev = t;
		if (!batch_run(p, 1)) {
			p->failed = true;
			break;
		}
		(*n)++;
		t = now_s();
		ms_slices_add(&ms, t, 1);
		if (p->best_batch_s == 0 || t - prev < p->best_batch_s)
			p->best_batch_s = t - prev;
	} while (t - t0 < seconds);
	p->ms_median_rate = ms_slices_median(&ms, t > t0 ? (double)*n / (t - t0) : 0);
	return t - t0;
}

/*
 * The same loop with nothing but the clock read per task, as the memcpy
 * baseline's loop (two_views_copy) has: the big rows compare the copies,
 * not the bookkeeping of the 1 ms slices.
 */
static double one_in_flight_plain(struct dpu *p, double seconds, uint64_t *n)
{
	double t0 = now_s(), t = t0;

	do {
		if (!batch_run(p, 1)) {
			p->failed = true;
			break;
		}
		(*n)++;
		t = now_s();
	} while (t - t0 < seconds);
	return t - t0;
}

static double one_in_flight(struct dpu *p, uint64_t *n)
{
	return one_in_flight_for(p, p->seconds, n);
}

/* One 64 B read in flight at a time: submit, progress until it completes. */
static void latency_row(struct dpu *p, bool inline_engine)
{
	uint64_t n = 0;

	if (!batch_init(p, 64, false, 1)) {
		p->failed = true;
		batch_fini(p);
		return;
	}
	double el = one_in_flight(p, &n);
	batch_fini(p);
	double ns = n > 0 ? el / (double)n * 1e9 : 0;
	printf("  one 64 B read in flight: %.0f ns per task%s\n", ns,
	       inline_engine ? (ns <= 500 ? "   target 500  ok" : "   target 500  BELOW TARGET") : "");
}

/* The baseline of big tasks: memcpy from a second mapping of one memfd into a private buffer. */
struct two_views {
	int fd;
	uint8_t *a, *b, *dst;
	size_t len;
};

static bool two_views_open(struct two_views *v, size_t len)
{
	v->len = len;
	v->a = v->b = MAP_FAILED;
	v->dst = aligned_alloc(4096, len);
	v->fd = memfd_create("hostdpu-baseline", MFD_CLOEXEC);
	if (v->fd >= 0 && ftruncate(v->fd, (off_t)len) == 0) {
		v->a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
		v->b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
	}
	if (v->a == MAP_FAILED || v->b == MAP_FAILED || v->dst == NULL)
		return false;
	memset(v->a, 1, len);
	memset(v->dst, 0, len);
	return true;
}

static void two_views_close(struct two_views *v)
{
	if (v->a != MAP_FAILED)
		munmap(v->a, v->len);
	if (v->b != MAP_FAILED)
		munmap(v->b, v->len);
	if (v->fd >= 0)
		close(v->fd);
	free(v->dst);
}

/* memcpy through the second view for about `seconds`; seconds taken, *n copies. */
static double two_views_copy(struct two_views *v, double seconds, uint64_t *n)
{
	double t0 = now_s(), t;

	do {
		memcpy(v->dst, v->b, v->len);
		__asm__ volatile("" : : "r"(v->dst) : "memory");
		(*n)++;
		t = now_s();
	} while (t - t0 < seconds);
	return t - t0;
}

/*
 * One task of `len` at a time, read from the host, against the two-mapping
 * memcpy, in SLICES alternating slices so that a busy machine slows both
 * alike.  Besides the ratio of the totals, the median of the ten slice
 * pairs' ratios: a pair shares its moment's load, and a preemption moves
 * one pair, where it moves the totals.
 */
#define SLICES 10

/* The alternating slices of a big row: totals of each side and each pair's ratio. */
struct slice_pairs {
	double el_dma, el_base, ratio[SLICES];
	uint64_t n_dma, n_base; /* copies (big_row) or batches (big_batch_row) */
	int pairs;
};

/* One pair: the baseline did nb in eb seconds, DMA nd in ed. */
static void slice_pairs_add(struct slice_pairs *sp, double eb, uint64_t nb, double ed, uint64_t nd)
{
	if (nb > 0 && nd > 0 && eb > 0 && ed > 0)
		sp->ratio[sp->pairs++] = ((double)nd / ed) / ((double)nb / eb);
	sp->el_base += eb;
	sp->el_dma += ed;
	sp->n_base += nb;
	sp->n_dma += nd;
}

static void big_row(struct dpu *p, size_t len)
{
	/* Closed until opened: a failed batch_init closes it untouched. */
	struct two_views v = {.fd = -1, .a = MAP_FAILED, .b = MAP_FAILED, .dst = NULL, .len = 0};
	struct slice_pairs sp = {0};
	double dma = 0, base = 0;
	double slice = p->seconds / SLICES;

	if (!batch_init(p, len, false, 1) || !two_views_open(&v, len)) {
		p->failed = true;
		batch_fini(p);
		two_views_close(&v);
		return;
	}
	for (int i = 0; i < SLICES && !p->failed; i++) {
		uint64_t nb = 0, nd = 0;
		double eb = two_views_copy(&v, slice, &nb), ed = one_in_flight_plain(p, slice, &nd);

		slice_pairs_add(&sp, eb, nb, ed, nd);
	}
	batch_fini(p);
	two_views_close(&v);
	dma = sp.el_dma > 0 ? (double)sp.n_dma * (double)len / sp.el_dma / 1e9 : 0;
	base = sp.el_base > 0 ? (double)sp.n_base * (double)len / sp.el_base / 1e9 : 0;
	printf("  read   %7zu B  %8.2f GB/s   memcpy between two mappings %6.2f GB/s  %.2fx  %s"
	       "   (per copy %.0f / %.0f ns, slice median %.2fx)\n",
	       len, dma, base, base > 0 ? dma / base : 0,
	       len < BIG_TARGET_FROM ? "no target"
	       : base > 0 && dma / base >= 0.95 ? "target 0.95  ok" : "target 0.95  BELOW TARGET",
	       sp.n_dma > 0 ? sp.el_dma / (double)sp.n_dma * 1e9 : 0,
	       sp.n_base > 0 ? sp.el_base / (double)sp.n_base * 1e9 : 0, median_of(sp.ratio, sp.pairs));
}

/* Whole batches of memcpy over batch_init's 64 ranges for about `seconds`; seconds taken, *n batches. */
static double two_views_copy_batch(struct two_views *v, size_t len, double seconds, uint64_t *n)
{
	double t0 = now_s(), t;

	do {
		for (int i = 0; i < BATCH; i++) {
			size_t off = ((size_t)i * len) % (REGION - len);

			memcpy(v->dst + off, v->b + off, len);
		}
		__asm__ volatile("" : : "r"(v->dst) : "memory");
		(*n)++;
		t = now_s();
	} while (t - t0 < seconds);
	return t - t0;
}

/* Whole DMA batches for about `seconds`; seconds taken, *n batches. */
static double batches_for(struct dpu *p, double seconds, uint64_t *n)
{
	double t0 = now_s(), t;

	do {
		if (!batch_run(p, BATCH)) {
			p->failed = true;
			return now_s() - t0;
		}
		(*n)++;
		t = now_s();
	} while (t - t0 < seconds);
	return t - t0;
}

/*
 * The same sizes measured as the published figures are: batches of 64
 * tasks at distinct offsets, submitted whole then drained, against memcpy
 * of the same 64 ranges, from a second mapping of one memfd of the
 * region's size into a private buffer at the same offsets.  Both then
 * stream 64 x len bytes per batch through the caches (4 MiB at 64 KiB),
 * as a card's engine would, where the one-in-flight row above copies one
 * cache-hot range again and again and so shows every nanosecond of the
 * per-task path.  Alternating slices, as big_row.
 */
static void big_batch_row(struct dpu *p, size_t len)
{
	/* The region's size, mapped twice: the 64 ranges sit at batch_init's offsets. */
	struct two_views v = {.fd = -1, .a = MAP_FAILED, .b = MAP_FAILED, .dst = NULL, .len = 0};
	struct slice_pairs sp = {0};
	double slice = p->seconds / SLICES;
	uint64_t warm = 0;

	if (!batch_init(p, len, false, BATCH) || !two_views_open(&v, REGION)) {
		p->failed = true;
		batch_fini(p);
		two_views_close(&v);
		return;
	}
	/* One batch each first: the page tables of both views and of the import fill outside the slices. */
	(void)two_views_copy_batch(&v, len, 0, &warm);
	(void)batches_for(p, 0, &warm);
	for (int i = 0; i < SLICES && !p->failed; i++) {
		uint64_t nb = 0, nd = 0;
		double eb = two_views_copy_batch(&v, len, slice, &nb), ed = batches_for(p, slice, &nd);

		slice_pairs_add(&sp, eb, nb, ed, nd);
	}
	if (!p->failed && !batch_verify(p, len, false))
		p->failed = true;
	batch_fini(p);
	two_views_close(&v);
	double bytes = (double)BATCH * (double)len;
	double dma = sp.el_dma > 0 ? (double)sp.n_dma * bytes / sp.el_dma / 1e9 : 0;
	double base = sp.el_base > 0 ? (double)sp.n_base * bytes / sp.el_base / 1e9 : 0;
	printf("  read   %7zu B  %8.2f GB/s   memcpy of the same 64 ranges %6.2f GB/s  %.2fx  %s"
	       "   (batches of 64; slice median %.2fx)\n",
	       len, dma, base, base > 0 ? dma / base : 0,
	       base > 0 && dma / base >= 0.95 ? "target 0.95  ok" : "target 0.95  BELOW TARGET",
	       median_of(sp.ratio, sp.pairs));
}

/*
 * --split: where a big row's gap lies.  Four copies of one size, measured
 * in the same rounds, each round taking them in turn (1 copy to warm up, 8
 * timed), medians over the rounds:
 *   memcpy   the baseline: memcpy between two mappings of one memfd;
 *   bytes    memcpy of the import task's own bytes (this process's view of
 *            the host memory) into its own destination: no library, so
 *            bytes/memcpy is what the buffers and their mappings cost;
 *   local    a DMA task of the same size between two local buffers: the
 *            engine's per-task path without an import;
 *   import   the big row's task (host memory -> local).
 * The view is the mapping of the host's registered memory that the shared
 * path made here; without one (SOFTDOCA_MMAP_SHARE=off) `bytes` is n/a.
 */
#define SPLIT_ROUNDS 4000
#define SPLIT_REPS 8

enum split_kind { SPLIT_MEMCPY, SPLIT_BYTES, SPLIT_LOCAL, SPLIT_IMPORT, SPLIT_KINDS };

static double split_ns[SPLIT_KINDS][SPLIT_ROUNDS];

/* This process's mapping of the host's registered memory (named by the library), or NULL. */
static const uint8_t *host_view(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	const uint8_t *view = NULL;
	char line[512];

	while (f != NULL && view == NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo, hi;

		if (strstr(line, "softdoca-registered") != NULL && sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		    hi - lo >= REGION)
			view = (const uint8_t *)(uintptr_t)lo;
	}
	if (f != NULL)
		fclose(f);
	return view;
}

/* Task 1 of the batch: `len` bytes from a second local buffer into the same destination as task 0. */
static bool split_local_task(struct dpu *p, struct doca_mmap *om, uint8_t *other, size_t len)
{
	union doca_data ud = {.u64 = 0};

	return doca_buf_inventory_buf_get_by_data(p->inv, om, other, len, &p->srcs[1]) == DOCA_SUCCESS &&
	       doca_buf_inventory_buf_get_by_addr(p->inv, p->localmap, p->local, len, &p->dsts[1]) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_alloc_init(p->dma, p->srcs[1], p->dsts[1], ud, &p->tasks[1]) == DOCA_SUCCESS;
}

/* One copy of `kind`; false when a task failed. */
static bool split_once(struct dpu *p, enum split_kind kind, const struct two_views *v, const uint8_t *view)
{
	int t = kind == SPLIT_LOCAL ? 1 : 0;

	if (kind == SPLIT_MEMCPY || kind == SPLIT_BYTES) {
		uint8_t *d = kind == SPLIT_MEMCPY ? v->dst : p->local;
		memcpy(d, kind == SPLIT_MEMCPY ? v->b : view, v->len);
		__asm__ volatile("" : : "r"(d) : "memory");
		return true;
	}
	p->done = 0;
	doca_buf_reset_data_len(p->dsts[t]);
	if (doca_task_submit(doca_dma_task_memcpy_as_task(p->tasks[t])) != DOCA_SUCCESS)
		return false;
	while (p->done < 1)
		doca_pe_progress(p->pe);
	return !p->failed;
}

/* Rounds of the four kinds in turn for about 2 x p->seconds; the number of rounds. */
static int split_rounds(struct dpu *p, const struct two_views *v, const uint8_t *view)
{
	double t0 = now_s();
	int r = 0;

	for (; r < SPLIT_ROUNDS && now_s() - t0 < 2 * p->seconds; r++) {
		for (int k = 0; k < SPLIT_KINDS; k++) {
			enum split_kind kind = (enum split_kind)((k + r) % SPLIT_KINDS);
			double a;

			if (kind == SPLIT_BYTES && view == NULL)
				continue;
			if (!split_once(p, kind, v, view))
				return -1;
			a = now_s();
			for (int i = 0; i < SPLIT_REPS; i++)
				if (!split_once(p, kind, v, view))
					return -1;
			split_ns[kind][r] = (now_s() - a) / SPLIT_REPS * 1e9;
		}
	}
	return r;
}

static void split_row(struct dpu *p, size_t len)
{
	struct two_views v = {.fd = -1, .a = MAP_FAILED, .b = MAP_FAILED, .dst = NULL, .len = 0};
	uint8_t *other = aligned_alloc(4096, REGION);
	const uint8_t *view = host_view();
	struct doca_mmap *om = NULL;
	int rounds = -1;

	if (other != NULL) {
		memset(other, 3, REGION);
		om = bench_local_mmap(p->dev, other, REGION, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	}
	if (om != NULL && two_views_open(&v, len) && batch_init(p, len, false, 1) && split_local_task(p, om, other, len))
		rounds = split_rounds(p, &v, view);
	batch_fini(p);
	two_views_close(&v);
	if (om != NULL)
		doca_mmap_destroy(om);
	free(other);
	if (rounds <= 0) {
		p->failed = true;
		return;
	}
	double base = median_of(split_ns[SPLIT_MEMCPY], rounds);
	double bytes = view != NULL ? median_of(split_ns[SPLIT_BYTES], rounds) : 0;
	double local = median_of(split_ns[SPLIT_LOCAL], rounds), imp = median_of(split_ns[SPLIT_IMPORT], rounds);
	char bytes_txt[32] = "n/a (no shared view)";

	if (bytes > 0)
		snprintf(bytes_txt, sizeof(bytes_txt), "%.3fx", base / bytes);
	printf("  split  %7zu B  memcpy %7.0f ns   same bytes by memcpy %s   local task %.3fx (+%.0f ns)   "
	       "import task %.3fx (+%.0f ns)\n",
	       len, base, bytes_txt, base / local, local - base, base / imp, imp - base);
}

/*
 * The same batches of 64 B tasks between two local buffers of this process:
 * what the engine does without an import, for reference (same run, same load).
 */
static void local_reference_row(struct dpu *p)
{
	uint8_t *other = aligned_alloc(4096, REGION);
	struct doca_mmap *remote = p->remote, *m = NULL;
	uint64_t raddr = p->raddr;
	double rate = 0;

	if (other != NULL) {
		for (size_t i = 0; i < REGION; i++)
			other[i] = pattern(i);
		m = bench_local_mmap(p->dev, other, REGION, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	}
	if (m != NULL) {
		p->remote = m; /* the "host" side is local memory for this row */
		p->raddr = (uint64_t)(uintptr_t)other;
		rate = rate_row_quiet(p, 64, false);
		p->remote = remote;
		p->raddr = raddr;
		doca_mmap_destroy(m);
	}
	free(other);
	printf("  local  %7d B  %8.2f M tasks/s   (both buffers in this process: the reference)\n", 64, rate / 1e6);
}

/* What the runs hand to the card model's run: the worker engine's own rates (shared memory). */
struct machine_rates {
	double rate[2][sizeof(task_sizes) / sizeof(task_sizes[0])]; /* [write][size index], tasks/s */
};

static int dpu_main(const struct host_region *r, bool inline_engine, double seconds, struct machine_rates *out)
{
	struct dpu p = {.seconds = seconds};
	double target = inline_engine ? 10.5e6 : 10e6;

	setenv("SOFTDOCA_DMA_WORKERS", inline_engine ? "0" : "1", 1);
	if (!dpu_setup(&p, r)) {
		fprintf(stderr, "hostdpu_bench: DPU-side setup failed\n");
		return 1;
	}
	printf("\n== engine %s: batches of %d tasks on one context, submitted whole then drained\n",
	       inline_engine ? "inline" : "workers", BATCH);
	if (!big_only)
		local_reference_row(&p);
	for (size_t i = 0; !big_only && i < sizeof(task_sizes) / sizeof(task_sizes[0]); i++) {
		double rd = rate_row(&p, task_sizes[i], false, task_sizes[i] <= 256 ? target : 0);
		double rd_ms = p.ms_median_rate;
		double wr = rate_row(&p, task_sizes[i], true, task_sizes[i] <= 256 ? target : 0);

		if (!inline_engine) { /* the card model's rows compare by their 1 ms slices' median: so does this */
			out->rate[0][i] = rd > 0 ? rd_ms : 0;
			out->rate[1][i] = wr > 0 ? p.ms_median_rate : 0;
		}
	}
	if (!big_only)
		latency_row(&p, inline_engine);
	for (size_t i = 0; i < sizeof(big_sizes) / sizeof(big_sizes[0]); i++)
		big_row(&p, big_sizes[i]);
	for (size_t i = 0; i < sizeof(big_sizes) / sizeof(big_sizes[0]); i++)
		if (big_sizes[i] >= BIG_TARGET_FROM)
			big_batch_row(&p, big_sizes[i]);
	for (size_t i = 0; split && i < sizeof(big_sizes) / sizeof(big_sizes[0]); i++)
		split_row(&p, big_sizes[i]);
	fflush(stdout);
	report_failure(&p);
	return p.failed ? 1 : 0;
}

/* ---- the same measurement under a card timing model ----------------------- */

/* Wei et al., OSDI'23, DOCA DMA on a BlueField-2 initiated by its Arm cores: tasks/s by size. */
static const double bf2_published[2][sizeof(task_sizes) / sizeof(task_sizes[0])] = {
	{10.5e6, 10.5e6, 10.5e6, 6.82e6, 3.87e6, 1.50e6, 0.39e6},
	{10.19e6, 10.19e6, 10.19e6, 9.02e6, 3.71e6, 0.94e6, 0.23e6},
};

/*
 * One row: modelled rate next to the published one; judged where this
 * machine alone is >= 1.1x the card.  The rate judged is the median of the
 * row's 1 ms slices: the model's pace while this thread had its CPU, as the
 * card's own figure was measured.  The row's mean also pays for every time
 * another process had the CPU while the modelled card idled (the model
 * never makes that time up), so it is printed beside it, not judged.
 */
static bool model_row(struct dpu *p, size_t i, bool write, const struct machine_rates *m)
{
	double pub = bf2_published[write][i], alone = m->rate[write][i];
	double mean = rate_row_quiet(p, task_sizes[i], write);
	double got = mean > 0 ? p->ms_median_rate : 0;
	double dev = (got - pub) / pub;
	bool judged = alone >= 1.1 * pub, ok = !judged || (dev <= 0.10 && dev >= -0.10);

	printf("  %-6s %7zu B  %8.2f M/s modelled  %8.2f published  %+6.1f%%  (mean %+6.1f%%)  alone %8.2f  %s\n",
	       write ? "write" : "read", task_sizes[i], got / 1e6, pub / 1e6, dev * 100, (mean - pub) / pub * 100,
	       alone / 1e6,
	       !judged ? "not judged: this machine alone is slower than 1.1x the card" : ok ? "ok (+-10%)" : "OFF");
	return ok;
}

/* Two contexts (two PEs) of one card, each a batch of 64 reads of 64 B, submitted together then drained. */
static void two_contexts_row(struct dpu *a, struct dpu *b)
{
	static struct ms_slices ms;
	uint64_t tasks = 0;
	double t0 = now_s(), t = t0;

	ms_slices_begin(&ms, t0);
	if (!batch_init(a, 64, false, BATCH) || !batch_init(b, 64, false, BATCH)) {
		a->failed = true;
		return;
	}
	do {
		a->done = b->done = 0;
		for (int i = 0; i < BATCH; i++) {
			doca_buf_reset_data_len(a->dsts[i]);
			doca_buf_reset_data_len(b->dsts[i]);
			if (doca_task_submit(doca_dma_task_memcpy_as_task(a->tasks[i])) != DOCA_SUCCESS ||
			    doca_task_submit(doca_dma_task_memcpy_as_task(b->tasks[i])) != DOCA_SUCCESS) {
				a->failed = true;
				break;
			}
		}
		while (!a->failed && (a->done < BATCH || b->done < BATCH)) {
			doca_pe_progress(a->pe);
			doca_pe_progress(b->pe);
		}
		tasks += 2 * BATCH;
		t = now_s();
		ms_slices_add(&ms, t, 2 * BATCH);
	} while (!a->failed && t - t0 < a->seconds);
	batch_fini(a);
	batch_fini(b);
	double rate = tasks / (t - t0), ms_rate = ms_slices_median(&ms, rate);
	printf("  two contexts of one card, 64 B reads: %.2f M tasks/s together (1 ms slices' median; mean %.2f); "
	       "the card: %.2f (one context's rate, shared)\n", ms_rate / 1e6, rate / 1e6, bf2_published[0][1] / 1e6);
}

static int model_main(const struct host_region *r, const char *card, double seconds, const struct machine_rates *m)
{
	struct dpu p = {.seconds = seconds}, q = {.seconds = seconds};
	uint64_t n = 0;

	unsetenv("SOFTDOCA_DMA_WORKERS"); /* the model selects the asynchronous engine itself */
	setenv("SOFTDOCA_CARD_TIMING", card, 1);
	if (!dpu_setup(&p, r) || !dpu_setup(&q, r)) {
		fprintf(stderr, "hostdpu_bench: DPU-side setup failed under the %s model\n", card);
		return 1;
	}
	printf("\n== card timing model %s (SOFTDOCA_CARD_TIMING=%s): the published measurement again; "
	       "'alone' is the worker engine without the model\n", card, card);
	for (size_t i = 0; i < sizeof(task_sizes) / sizeof(task_sizes[0]); i++) {
		model_row(&p, i, false, m);
		model_row(&p, i, true, m);
	}
	two_contexts_row(&p, &q);
	if (batch_init(&p, 64, false, 1)) {
		double el = one_in_flight(&p, &n);
		/* bf2: 1 us of latency plus one service time, 1/10.5M s less the latency's share of a batch of 64. */
		double model_ns = 1000 + 1e9 / 10.5e6 - 1000.0 / 64;
		printf("  one 64 B read in flight: %.0f ns per task in the 1 ms slices' median (mean %.0f, fastest %.0f); "
		       "the model: %.0f ns\n", p.ms_median_rate > 0 ? 1e9 / p.ms_median_rate : 0,
		       n > 0 ? el / (double)n * 1e9 : 0, p.best_batch_s * 1e9, model_ns);
	}
	batch_fini(&p);
	fflush(stdout);
	report_failure(&p);
	report_failure(&q);
	return p.failed || q.failed ? 1 : 0;
}

static int run_child(const struct host_region *r, int engine, double seconds, const char *card,
		     struct machine_rates *m)
{
	int status = 1;
	pid_t pid;

	fflush(stdout);
	pid = fork();

	if (pid == 0)
		_exit(engine < 2 ? dpu_main(r, engine == 0, seconds, m) : model_main(r, card, seconds, m));
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	double seconds = 0.3;
	const char *card = NULL;
	int only = -1; /* --engine: 0 inline, 1 workers, -1 both */
	int to_parent[2], to_child[2], rc = 0;
	struct machine_rates *m;
	struct host_region r;
	pid_t host;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			seconds = 0.01;
		else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--split") == 0)
			split = true;
		else if (strcmp(argv[i], "--big") == 0)
			big_only = true;
		else if (strcmp(argv[i], "--card") == 0 && i + 1 < argc)
			card = argv[++i];
		else if (strcmp(argv[i], "--engine") == 0 && i + 1 < argc && strcmp(argv[i + 1], "inline") == 0)
			only = 0, i++;
		else if (strcmp(argv[i], "--engine") == 0 && i + 1 < argc && strcmp(argv[i + 1], "workers") == 0)
			only = 1, i++;
		else {
			fprintf(stderr, "usage: %s [-t seconds per row] [--quick] [--card bf2] [--engine inline|workers] [--split] [--big]\n",
				argv[0]);
			return 2;
		}
	}
	if (card != NULL && big_only) {
		fprintf(stderr, "hostdpu_bench: --card judges against the small rows, which --big leaves out\n");
		return 2;
	}
	if (card != NULL && only >= 0) {
		fprintf(stderr, "hostdpu_bench: --card judges against the worker engine's rates: run both engines\n");
		return 2;
	}
	if (card != NULL && strcmp(card, "bf2") != 0) {
		fprintf(stderr, "hostdpu_bench: --card compares with published figures, which exist for bf2 only\n");
		return 2;
	}
	m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || pipe(to_parent) != 0 || pipe(to_child) != 0)
		return 1;
	fflush(stdout);
	host = fork();
	if (host == 0) {
		close(to_parent[0]);
		close(to_child[1]);
		_exit(host_main(to_parent[1], to_child[0]));
	}
	close(to_parent[1]);
	close(to_child[0]);
	if (host < 0 || read(to_parent[0], &r, sizeof(r)) != (ssize_t)sizeof(r)) {
		fprintf(stderr, "hostdpu_bench: the host process could not export its memory\n");
		return 1;
	}
	printf("hostdpu_bench: host pid %d exports %zu MiB of heap; %.2f s per row; one run, compare columns\n",
	       (int)host, REGION >> 20, seconds);
	if (only != 1)
		rc |= run_child(&r, 0, seconds, card, m);
	if (only != 0)
		rc |= run_child(&r, 1, seconds, card, m);
	if (card != NULL)
		rc |= run_child(&r, 2, seconds, card, m);
	close(to_child[1]);
	waitpid(host, NULL, 0);
	return rc;
}
