/*
 * xproc_bench.c - DMA across processes against the raw system calls and
 * against memcpy, same sizes, same run.
 *
 * A child process exports two 16 MiB regions through PCI and then only
 * waits (it never calls the library for a copy): one on the heap, kept
 * private (SOFTDOCA_MMAP_SHARE=off, docs/mmap-registration.md) and reached
 * with process_vm_readv/process_vm_writev, and one in a memfd, which the
 * importer maps and reaches with memcpy.  The parent imports both and, for
 * 64 KiB, 1 MiB and 16 MiB, times:
 *   - DMA memcpy tasks reading / writing the heap export, against
 *     process_vm_readv / process_vm_writev of the same bytes (target 0.95x);
 *   - DMA memcpy tasks reading / writing the memfd export, against plain
 *     memcpy from / to this process's own mapping of the same memfd
 *     (target 0.9x): what the library adds on top of the copy itself.
 * One task is reused and resubmitted after each completion, as a
 * streaming application would.  Each measurement runs about -t seconds;
 * DMA and baseline take turns -r times and the best of each is kept.  Every DMA result is
 * checked once against the source bytes.
 *
 * Exit status: 0 when every copy succeeded and matched, whatever the
 * numbers; 1 on a functional failure.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
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

#define MIB (1024UL * 1024UL)
#define REGION (16 * MIB)

static const size_t sizes[] = {64 * 1024, 1 * MIB, 16 * MIB};

struct region {
	uint64_t addr;
	uint8_t desc[512];
	uint32_t desc_len;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The exporting child: export, hand the descriptors over, wait for the end.
 */
static int exporter(int out_fd, int wait_fd, int mfd)
{
	struct doca_dev *dev = bench_open_dev("0000:b1:00.0");
	uint8_t *heap = aligned_alloc(4096, REGION);
	uint8_t *shared = NULL;
	struct region r[2];
	struct doca_mmap *m[2];
	char c;

	if (mfd >= 0)
		shared = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (dev == NULL || heap == NULL || shared == NULL || shared == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < REGION; i++)
		heap[i] = shared[i] = (uint8_t)(i * 7 + (i >> 12));
	uint8_t *mem[2] = {heap, shared};
	for (int i = 0; i < 2; i++) {
		const void *d;
		size_t n;
		/* The heap stays private, as where it cannot be shared: these rows measure the vm path. */
		if (i == 0)
			setenv("SOFTDOCA_MMAP_SHARE", "off", 1);
		m[i] = bench_local_mmap(dev, mem[i], REGION, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
		unsetenv("SOFTDOCA_MMAP_SHARE");
		if (m[i] == NULL || doca_mmap_export_pci(m[i], dev, &d, &n) != DOCA_SUCCESS || n > sizeof(r[i].desc))
			return 1;
		memcpy(r[i].desc, d, n);
		r[i].desc_len = (uint32_t)n;
		r[i].addr = (uint64_t)(uintptr_t)mem[i];
	}
	if (write(out_fd, r, sizeof(r)) != (ssize_t)sizeof(r))
		return 1;
	while (read(wait_fd, &c, 1) > 0) /* the parent closes its end when done */
		;
	doca_mmap_destroy(m[0]);
	doca_mmap_destroy(m[1]);
	doca_dev_close(dev);
	free(heap);
	return 0;
}

/*
 * The importing parent.
 */

struct bench {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	struct doca_mmap *remote[2], *srcmap, *dstmap;
	uint8_t *src, *dst; /* local buffers, REGION each */
	uint8_t *view;      /* this process's own mapping of the exporter's memfd */
	uint64_t raddr[2];
	pid_t child;
	int done;
	doca_error_t status;
	double seconds;
	int repeat;
	bool failed;
};

static void task_cb(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct bench *b = cud.ptr;
	(void)tud;
	b->status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	b->done = 1;
}

static bool bench_dma_setup(struct bench *b)
{
	union doca_data ud = {.ptr = b};
	struct doca_ctx *ctx;

	if (doca_buf_inventory_create(8, &b->inv) != DOCA_SUCCESS || doca_buf_inventory_start(b->inv) != DOCA_SUCCESS ||
	    doca_pe_create(&b->pe) != DOCA_SUCCESS || doca_dma_create(b->dev, &b->dma) != DOCA_SUCCESS)
		return false;
	ctx = doca_dma_as_ctx(b->dma);
	return doca_ctx_set_user_data(ctx, ud) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_set_conf(b->dma, task_cb, task_cb, 4) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(b->pe, ctx) == DOCA_SUCCESS && doca_ctx_start(ctx) == DOCA_SUCCESS;
}

static bool bench_setup(struct bench *b, const struct region r[2])
{
	b->dev = bench_open_dev("0000:03:00.0");
	b->src = aligned_alloc(4096, REGION);
	b->dst = aligned_alloc(4096, REGION);
	if (b->dev == NULL || b->src == NULL || b->dst == NULL)
		return false;
	for (size_t i = 0; i < REGION; i++)
		b->src[i] = (uint8_t)(i * 13 + 1);
	memset(b->dst, 0, REGION);
	for (int i = 0; i < 2; i++) {
		if (doca_mmap_create_from_export(NULL, r[i].desc, r[i].desc_len, b->dev, &b->remote[i]) != DOCA_SUCCESS)
			return false;
		b->raddr[i] = r[i].addr;
	}
	b->srcmap = bench_local_mmap(b->dev, b->src, REGION, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	b->dstmap = bench_local_mmap(b->dev, b->dst, REGION, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return b->srcmap != NULL && b->dstmap != NULL && bench_dma_setup(b);
}

/* Run `fn(arg, len)` repeatedly for about b->seconds; GB/s. */
typedef bool (*copy_fn)(struct bench *b, void *arg, size_t len);

static double measure_once(struct bench *b, copy_fn fn, void *arg, size_t len)
{
	double t0 = now_s(), t;
	uint64_t n = 0;

	do {
		if (!fn(b, arg, len)) {
			b->failed = true;
			return 0;
		}
		n++;
		t = now_s();
	} while (t - t0 < b->seconds);
	return (double)n * (double)len / (t - t0) / 1e9;
}

/*
 * DMA and its baseline take turns, b->repeat times each, and the best of
 * each counts: drifts of a shared machine hit both alike.
 */
static void measure_pair(struct bench *b, copy_fn dma, void *dma_arg, copy_fn base, void *base_arg, size_t len,
			 double *dma_gbs, double *base_gbs)
{
	*dma_gbs = *base_gbs = 0;
	for (int r = 0; r < b->repeat; r++) {
		double d = measure_once(b, dma, dma_arg, len);
		double x = measure_once(b, base, base_arg, len);
		*dma_gbs = d > *dma_gbs ? d : *dma_gbs;
		*base_gbs = x > *base_gbs ? x : *base_gbs;
	}
}

/* One reused task: reset the destination, resubmit, progress to completion. */
struct dma_job {
	struct doca_dma_task_memcpy *task;
	struct doca_buf *src, *dst;
};

static bool dma_once(struct bench *b, void *arg, size_t len)
{
	struct dma_job *j = arg;
	(void)len;
	doca_buf_reset_data_len(j->dst);
	b->done = 0;
	if (doca_task_submit(doca_dma_task_memcpy_as_task(j->task)) != DOCA_SUCCESS)
		return false;
	while (!b->done)
		doca_pe_progress(b->pe);
	return b->status == DOCA_SUCCESS;
}

static bool dma_job_init(struct bench *b, struct dma_job *j, struct doca_mmap *sm, uint64_t s, struct doca_mmap *dm,
			 uint64_t d, size_t len)
{
	union doca_data ud = {.u64 = 0};

	memset(j, 0, sizeof(*j));
	return doca_buf_inventory_buf_get_by_data(b->inv, sm, (void *)(uintptr_t)s, len, &j->src) == DOCA_SUCCESS &&
	       doca_buf_inventory_buf_get_by_addr(b->inv, dm, (void *)(uintptr_t)d, len, &j->dst) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_alloc_init(b->dma, j->src, j->dst, ud, &j->task) == DOCA_SUCCESS;
}

static void dma_job_fini(struct dma_job *j)
{
	if (j->task != NULL)
		doca_task_free(doca_dma_task_memcpy_as_task(j->task));
	if (j->src != NULL)
		doca_buf_dec_refcount(j->src, NULL);
	if (j->dst != NULL)
		doca_buf_dec_refcount(j->dst, NULL);
}

/* Baselines. */
static bool raw_readv(struct bench *b, void *arg, size_t len)
{
	struct iovec l = {.iov_base = b->dst, .iov_len = len}, r = {.iov_base = arg, .iov_len = len};
	return process_vm_readv(b->child, &l, 1, &r, 1, 0) == (ssize_t)len;
}

static bool raw_writev(struct bench *b, void *arg, size_t len)
{
	struct iovec l = {.iov_base = b->src, .iov_len = len}, r = {.iov_base = arg, .iov_len = len};
	return process_vm_writev(b->child, &l, 1, &r, 1, 0) == (ssize_t)len;
}

/* memcpy on the very memory the shared-mapping import reaches: what the application could do itself. */
static bool memcpy_from_view(struct bench *b, void *arg, size_t len)
{
	(void)arg;
	memcpy(b->dst, b->view, len);
	__asm__ volatile("" : : "r"(b->dst) : "memory"); /* keep the copy */
	return true;
}

static bool memcpy_to_view(struct bench *b, void *arg, size_t len)
{
	(void)arg;
	memcpy(b->view, b->src, len);
	__asm__ volatile("" : : "r"(b->view) : "memory");
	return true;
}

struct row {
	const char *what, *baseline;
	double dma, base, target;
};

/* DMA read (remote -> local) or write (local -> remote) of region `which`, against `base`. */
static void dma_versus(struct bench *b, int which, bool write, size_t len, copy_fn base, void *base_arg,
		       struct row *row)
{
	struct dma_job j;
	bool ok = write ? dma_job_init(b, &j, b->srcmap, (uintptr_t)b->src, b->remote[which], b->raddr[which], len) :
			  dma_job_init(b, &j, b->remote[which], b->raddr[which], b->dstmap, (uintptr_t)b->dst, len);
	if (ok)
		measure_pair(b, dma_once, &j, base, base_arg, len, &row->dma, &row->base);
	else
		b->failed = true;
	dma_job_fini(&j);
}

/* Read back what a write left remotely and compare (a functional check). */
static bool verify_round_trip(struct bench *b, int which, size_t len)
{
	struct dma_job j;
	bool ok = dma_job_init(b, &j, b->remote[which], b->raddr[which], b->dstmap, (uintptr_t)b->dst, len) &&
		  dma_once(b, &j, len) && memcmp(b->dst, b->src, len) == 0;
	dma_job_fini(&j);
	return ok;
}

static void print_row(size_t len, const struct row *r)
{
	double ratio = r->base > 0 ? r->dma / r->base : 0;
	printf("%-9s %-20s %9.2f %-22s %9.2f %7.2fx  %s\n", len >= MIB ? (len == MIB ? "1 MiB" : "16 MiB") : "64 KiB",
	       r->what, r->dma, r->baseline, r->base, ratio, ratio >= r->target ? "ok" : "BELOW TARGET");
}

static void run_size(struct bench *b, size_t len)
{
	void *heap = (void *)(uintptr_t)b->raddr[0];
	struct row rows[4] = {
		{"DMA read (vm)", "process_vm_readv", 0, 0, 0.95},
		{"DMA write (vm)", "process_vm_writev", 0, 0, 0.95},
		{"DMA read (shared)", "memcpy from the memfd", 0, 0, 0.9},
		{"DMA write (shared)", "memcpy to the memfd", 0, 0, 0.9},
	};

	dma_versus(b, 0, false, len, raw_readv, heap, &rows[0]);
	dma_versus(b, 0, true, len, raw_writev, heap, &rows[1]);
	dma_versus(b, 1, false, len, memcpy_from_view, NULL, &rows[2]);
	dma_versus(b, 1, true, len, memcpy_to_view, NULL, &rows[3]);
	for (int i = 0; i < 4; i++)
		print_row(len, &rows[i]);
	if (!verify_round_trip(b, 0, len) || !verify_round_trip(b, 1, len)) {
		fprintf(stderr, "xproc_bench: bytes written to the exporter do not read back (%zu bytes)\n", len);
		b->failed = true;
	}
}

int main(int argc, char **argv)
{
	struct bench b = {.seconds = 0.2, .repeat = 5};
	int to_parent[2], to_child[2], opt;
	struct region r[2];

	while ((opt = getopt(argc, argv, "t:r:")) != -1) {
		if (opt == 't')
			b.seconds = atof(optarg);
		else if (opt == 'r')
			b.repeat = atoi(optarg);
		else {
			fprintf(stderr, "usage: %s [-t seconds per measurement] [-r repeats]\n", argv[0]);
			return 2;
		}
	}
	int mfd = memfd_create("xproc-bench", MFD_CLOEXEC);
	if (pipe(to_parent) != 0 || pipe(to_child) != 0 || mfd < 0 || ftruncate(mfd, REGION) != 0)
		return 1;
	b.child = fork();
	if (b.child == 0) {
		close(to_parent[0]);
		close(to_child[1]);
		_exit(exporter(to_parent[1], to_child[0], mfd));
	}
	b.view = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	close(mfd); /* the exporter keeps its own descriptor */
	if (b.view == MAP_FAILED)
		return 1;
	close(to_parent[1]);
	close(to_child[0]);
	if (b.child < 0 || read(to_parent[0], r, sizeof(r)) != (ssize_t)sizeof(r) || !bench_setup(&b, r)) {
		fprintf(stderr, "xproc_bench: setup failed\n");
		return 1;
	}
	printf("xproc_bench: exporter pid %d, best of %d x %.2fs per measurement, GB/s\n", (int)b.child, b.repeat,
	       b.seconds);
	printf("%-9s %-20s %9s %-22s %9s %8s  %s\n", "size", "DMA", "GB/s", "baseline", "GB/s", "ratio", "target");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		run_size(&b, sizes[i]);
	close(to_child[1]); /* lets the exporter finish */
	waitpid(b.child, NULL, 0);
	if (b.failed) {
		fprintf(stderr, "xproc_bench: a copy failed\n");
		return 1;
	}
	return 0;
}
