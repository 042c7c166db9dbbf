/*
 * dma_bench.c - DMA memcpy tasks against plain memcpy, same buffers, same run.
 *
 * For each size (64 B, 4 KiB, 64 KiB, 1 MiB, 16 MiB) the bench copies a set
 * of slots (src slot i -> dst slot i) first with memcpy, then with DOCA DMA
 * memcpy tasks, and prints tasks/s, GB/s and the DMA/memcpy ratio.
 *
 * The DMA side works as a real application would on its fast path: the
 * tasks are allocated once, up to 32 are in flight, and each completion
 * callback resets its destination buffer and resubmits the same task; one
 * thread drives everything through doca_pe_progress.  Each measurement runs
 * for a calibrated number of copies (about --time seconds) and the best of
 * --repeat runs is kept, for memcpy and DMA alike.  After every DMA run the
 * destination slots are compared with the sources, so a quick run is also a
 * functional check.
 *
 * Exit status: 0 when every copy succeeded and matched (whatever the
 * numbers), 1 on any functional failure.  The verdict lines compare the
 * numbers with the project's targets; they never change the exit status.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#define MAX_DEPTH 32
#define KIB (1024UL)
#define MIB (1024UL * 1024UL)
/* Each side (source, destination) of the largest size's slots. */
#define REGION_BYTES (32 * MIB)

#define TARGET_TASKS_PER_S_64B 25e6
#define TARGET_RATIO_LARGE 0.95
#define LARGE_SIZE (64 * KIB)

static const size_t bench_sizes[] = {64, 4 * KIB, 64 * KIB, 1 * MIB, 16 * MIB};
#define NUM_SIZES (sizeof(bench_sizes) / sizeof(bench_sizes[0]))

struct options {
	double seconds; /* wall time of one measurement */
	int repeat;	/* measurements per size and method; the best counts */
};

/* One copy slot: the task that owns it and its two buffers. */
struct slot {
	struct bench *bench;
	struct doca_dma_task_memcpy *task;
	struct doca_buf *src;
	struct doca_buf *dst;
};

struct bench {
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_dma *dma;
	uint8_t *memory; /* REGION_BYTES of sources, then REGION_BYTES of destinations */
	uint8_t *src_region;
	uint8_t *dst_region;

	/* The running measurement, updated by the completion callbacks. */
	uint64_t target;
	uint64_t submitted;
	uint64_t completed;
	uint64_t errors;
	doca_error_t first_error;

	struct slot slots[MAX_DEPTH];
};

struct result {
	size_t size;
	double memcpy_tasks_per_s;
	double dma_tasks_per_s;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Enough slots for latency hiding, but the slots of one side stay within REGION_BYTES. */
static unsigned int depth_for(size_t size)
{
	size_t depth = REGION_BYTES / size;

	return depth > MAX_DEPTH ? MAX_DEPTH : (unsigned int)depth;
}

static bool check(doca_error_t err, const char *what)
{
	if (err == DOCA_SUCCESS)
		return true;
	fprintf(stderr, "dma_bench: %s failed: %s\n", what, doca_error_get_name(err));
	return false;
}

/* ---- DMA side ---------------------------------------------------------- */

static void copy_done(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
		      union doca_data ctx_user_data)
{
	struct slot *slot = task_user_data.ptr;
	struct bench *b = slot->bench;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)ctx_user_data;
	b->completed++;
	if (status != DOCA_SUCCESS) {
		if (b->errors++ == 0)
			b->first_error = status;
		return;
	}
	if (b->submitted >= b->target || b->errors != 0)
		return;
	/* DMA appends after the destination's data: empty it before reuse. */
	(void)doca_buf_reset_data_len(slot->dst);
	status = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	if (status != DOCA_SUCCESS) {
		if (b->errors++ == 0)
			b->first_error = status;
		return;
	}
	b->submitted++;
}

static doca_error_t open_dma_device(struct bench *b)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t err;

	err = doca_devinfo_create_list(&list, &n);
	if (err != DOCA_SUCCESS)
		return err;
	err = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS) {
			err = doca_dev_open(list[i], &b->dev);
			break;
		}
	}
	(void)doca_devinfo_destroy_list(list);
	return err;
}

static bool setup(struct bench *b)
{
	b->memory = aligned_alloc(4096, 2 * REGION_BYTES);
	if (b->memory == NULL) {
		fprintf(stderr, "dma_bench: cannot allocate %lu MiB\n", 2 * REGION_BYTES / MIB);
		return false;
	}
	/* Touch every page now so no measurement pays for first-touch faults. */
	memset(b->memory, 0, 2 * REGION_BYTES);
	b->src_region = b->memory;
	b->dst_region = b->memory + REGION_BYTES;

	return check(open_dma_device(b), "opening a DMA-capable device") &&
	       check(doca_mmap_create(&b->mmap), "doca_mmap_create") &&
	       check(doca_mmap_set_memrange(b->mmap, b->memory, 2 * REGION_BYTES), "doca_mmap_set_memrange") &&
	       check(doca_mmap_add_dev(b->mmap, b->dev), "doca_mmap_add_dev") &&
	       check(doca_mmap_start(b->mmap), "doca_mmap_start") &&
	       check(doca_buf_inventory_create(2 * MAX_DEPTH, &b->inv), "doca_buf_inventory_create") &&
	       check(doca_buf_inventory_start(b->inv), "doca_buf_inventory_start") &&
	       check(doca_pe_create(&b->pe), "doca_pe_create") &&
	       check(doca_dma_create(b->dev, &b->dma), "doca_dma_create") &&
	       check(doca_pe_connect_ctx(b->pe, doca_dma_as_ctx(b->dma)), "doca_pe_connect_ctx") &&
	       check(doca_dma_task_memcpy_set_conf(b->dma, copy_done, copy_done, MAX_DEPTH),
		     "doca_dma_task_memcpy_set_conf") &&
	       check(doca_ctx_start(doca_dma_as_ctx(b->dma)), "doca_ctx_start");
}

static void release_slots(struct bench *b)
{
	for (unsigned int i = 0; i < MAX_DEPTH; i++) {
		struct slot *slot = &b->slots[i];

		if (slot->task != NULL)
			doca_task_free(doca_dma_task_memcpy_as_task(slot->task));
		if (slot->src != NULL)
			(void)doca_buf_dec_refcount(slot->src, NULL);
		if (slot->dst != NULL)
			(void)doca_buf_dec_refcount(slot->dst, NULL);
		memset(slot, 0, sizeof(*slot));
	}
}

static void teardown(struct bench *b)
{
	release_slots(b);
	if (b->dma != NULL) {
		(void)doca_ctx_stop(doca_dma_as_ctx(b->dma));
		(void)doca_dma_destroy(b->dma);
	}
	if (b->pe != NULL)
		(void)doca_pe_destroy(b->pe);
	if (b->inv != NULL)
		(void)doca_buf_inventory_destroy(b->inv);
	if (b->mmap != NULL)
		(void)doca_mmap_destroy(b->mmap);
	(void)doca_dev_close(b->dev);
	free(b->memory);
}

/* Buffers and tasks for `depth` slots of `size` bytes, allocated once per size. */
static bool prepare_slots(struct bench *b, size_t size, unsigned int depth)
{
	for (unsigned int i = 0; i < depth; i++) {
		struct slot *slot = &b->slots[i];
		union doca_data ud = {.ptr = slot};

		slot->bench = b;
		if (!check(doca_buf_inventory_buf_get_by_data(b->inv, b->mmap, b->src_region + i * size, size,
							      &slot->src),
			   "doca_buf_inventory_buf_get_by_data") ||
		    !check(doca_buf_inventory_buf_get_by_addr(b->inv, b->mmap, b->dst_region + i * size, size,
							      &slot->dst),
			   "doca_buf_inventory_buf_get_by_addr") ||
		    !check(doca_dma_task_memcpy_alloc_init(b->dma, slot->src, slot->dst, ud, &slot->task),
			   "doca_dma_task_memcpy_alloc_init"))
			return false;
	}
	return true;
}

/* Run `count` DMA copies over the prepared slots; seconds taken, < 0 on failure. */
static double dma_run(struct bench *b, unsigned int depth, uint64_t count)
{
	double start;

	b->target = count;
	b->submitted = 0;
	b->completed = 0;
	start = now_s();
	for (unsigned int i = 0; i < depth && b->submitted < count; i++) {
		(void)doca_buf_reset_data_len(b->slots[i].dst);
		if (!check(doca_task_submit(doca_dma_task_memcpy_as_task(b->slots[i].task)), "doca_task_submit"))
			return -1;
		b->submitted++;
	}
	while (b->completed < b->submitted)
		(void)doca_pe_progress(b->pe);
	if (b->errors != 0) {
		fprintf(stderr, "dma_bench: %" PRIu64 " task(s) failed, first with %s\n", b->errors,
			doca_error_get_name(b->first_error));
		return -1;
	}
	return now_s() - start;
}

/* Every used destination slot holds its source slot's bytes, with data_len == size. */
static bool dma_verify(struct bench *b, size_t size, unsigned int depth, uint64_t count)
{
	unsigned int used = count < depth ? (unsigned int)count : depth;

	for (unsigned int i = 0; i < used; i++) {
		size_t len = 0;

		(void)doca_buf_get_data_len(b->slots[i].dst, &len);
		if (len != size || memcmp(b->src_region + i * size, b->dst_region + i * size, size) != 0) {
			fprintf(stderr, "dma_bench: slot %u of %zu B: destination does not match (data_len %zu)\n", i,
				size, len);
			return false;
		}
	}
	return true;
}

/* ---- memcpy side ------------------------------------------------------- */

static double memcpy_run(struct bench *b, size_t size, unsigned int depth, uint64_t count)
{
	double start = now_s();
	unsigned int i = 0;

	for (uint64_t n = 0; n < count; n++) {
		memcpy(b->dst_region + i * size, b->src_region + i * size, size);
		/* Keep the compiler from merging or dropping copies. */
		__asm__ volatile("" ::: "memory");
		if (++i == depth)
			i = 0;
	}
	return now_s() - start;
}

/* ---- measurement ------------------------------------------------------- */

enum method { METHOD_MEMCPY, METHOD_DMA };

static double run_once(struct bench *b, enum method m, size_t size, unsigned int depth, uint64_t count)
{
	return m == METHOD_MEMCPY ? memcpy_run(b, size, depth, count) : dma_run(b, depth, count);
}

/*
 * Best copies per second of `repeat` runs, each sized to last about
 * `seconds`; the count is calibrated by doubling a short run.  < 0 on failure.
 */
static double measure(struct bench *b, enum method m, size_t size, unsigned int depth, const struct options *opt)
{
	uint64_t count = depth;
	double t, best = 0;

	for (;;) {
		t = run_once(b, m, size, depth, count);
		if (t < 0)
			return -1;
		if (t >= opt->seconds / 8 || count >= (UINT64_C(1) << 40))
			break;
		count *= 2;
	}
	count = (uint64_t)((double)count * opt->seconds / (t > 1e-9 ? t : 1e-9)) + 1;
	for (int r = 0; r < opt->repeat; r++) {
		t = run_once(b, m, size, depth, count);
		if (t < 0)
			return -1;
		if ((double)count / t > best)
			best = (double)count / t;
	}
	return best;
}

static bool bench_size(struct bench *b, size_t size, const struct options *opt, struct result *res)
{
	unsigned int depth = depth_for(size);
	bool ok;

	/* A fresh pattern per size, so a stale destination cannot pass the check. */
	for (size_t i = 0; i < (size_t)depth * size; i++)
		b->src_region[i] = (uint8_t)(i * 131 + size);
	memset(b->dst_region, 0, (size_t)depth * size);

	res->size = size;
	res->memcpy_tasks_per_s = measure(b, METHOD_MEMCPY, size, depth, opt);
	memset(b->dst_region, 0, (size_t)depth * size);
	ok = prepare_slots(b, size, depth);
	if (ok) {
		res->dma_tasks_per_s = measure(b, METHOD_DMA, size, depth, opt);
		ok = res->dma_tasks_per_s > 0 && dma_verify(b, size, depth, depth);
	}
	release_slots(b);
	return ok;
}

/* ---- report ------------------------------------------------------------ */

static void size_name(size_t size, char *out, size_t len)
{
	if (size >= MIB)
		snprintf(out, len, "%zu MiB", size / MIB);
	else if (size >= KIB)
		snprintf(out, len, "%zu KiB", size / KIB);
	else
		snprintf(out, len, "%zu B", size);
}

static void print_environment(void)
{
	static const char *const knobs[] = {"SOFTDOCA_ENGINE", "SOFTDOCA_DMA_WORKERS"};

	printf("dma_bench: DOCA DMA memcpy tasks vs memcpy, one thread, up to %d tasks in flight\n", MAX_DEPTH);
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		const char *v = getenv(knobs[i]);

		printf("  %s=%s\n", knobs[i], v != NULL ? v : "(unset)");
	}
}

static void print_table(const struct result *res, size_t n)
{
	printf("\n%-8s %14s %12s %14s %12s %10s\n", "size", "memcpy ops/s", "memcpy GB/s", "DMA tasks/s",
	       "DMA GB/s", "DMA/memcpy");
	for (size_t i = 0; i < n; i++) {
		char name[32];

		size_name(res[i].size, name, sizeof(name));
		printf("%-8s %14.0f %12.2f %14.0f %12.2f %9.2fx\n", name, res[i].memcpy_tasks_per_s,
		       res[i].memcpy_tasks_per_s * (double)res[i].size / 1e9, res[i].dma_tasks_per_s,
		       res[i].dma_tasks_per_s * (double)res[i].size / 1e9,
		       res[i].dma_tasks_per_s / res[i].memcpy_tasks_per_s);
	}
}

static void print_verdict(const struct result *res, size_t n)
{
	bool large_ok = true;
	double worst = 1e9;

	for (size_t i = 0; i < n; i++) {
		double ratio = res[i].dma_tasks_per_s / res[i].memcpy_tasks_per_s;

		if (res[i].size == 64)
			printf("\nverdict: 64 B: %.1f M tasks/s, target >= %.0f M: %s\n", res[i].dma_tasks_per_s / 1e6,
			       TARGET_TASKS_PER_S_64B / 1e6,
			       res[i].dma_tasks_per_s >= TARGET_TASKS_PER_S_64B ? "MET" : "MISSED");
		if (res[i].size >= LARGE_SIZE) {
			large_ok = large_ok && ratio >= TARGET_RATIO_LARGE;
			if (ratio < worst)
				worst = ratio;
		}
	}
	printf("verdict: >= 64 KiB: worst DMA/memcpy %.3fx, target >= %.2fx: %s\n", worst, TARGET_RATIO_LARGE,
	       large_ok ? "MET" : "MISSED");
}

static void usage(FILE *out)
{
	fprintf(out, "usage: dma_bench [--quick] [--time SECONDS] [--repeat N]\n"
		     "  --quick        smoke run: short measurements, one repeat\n"
		     "  --time S       seconds per measurement (default 0.4)\n"
		     "  --repeat N     measurements per size and method, best kept (default 3)\n");
}

static bool parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{"quick", no_argument, NULL, 'q'},
		{"time", required_argument, NULL, 't'},
		{"repeat", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	opt->seconds = 0.4;
	opt->repeat = 3;
	while ((c = getopt_long(argc, argv, "qt:r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			opt->seconds = 0.01;
			opt->repeat = 1;
			break;
		case 't':
			opt->seconds = atof(optarg);
			break;
		case 'r':
			opt->repeat = atoi(optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return false;
		}
	}
	if (optind != argc || opt->seconds <= 0 || opt->repeat < 1) {
		usage(stderr);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	static struct bench b;
	struct options opt;
	struct result res[NUM_SIZES];
	bool ok;

	if (!parse_options(argc, argv, &opt))
		return 1;
	print_environment();
	ok = setup(&b);
	for (size_t i = 0; ok && i < NUM_SIZES; i++)
		ok = bench_size(&b, bench_sizes[i], &opt, &res[i]);
	teardown(&b);
	if (!ok) {
		fprintf(stderr, "dma_bench: FAILED\n");
		return 1;
	}
	print_table(res, NUM_SIZES);
	print_verdict(res, NUM_SIZES);
	return 0;
}
