/*
 * mmap_register_bench.c - DMA into and out of freshly registered memory
 * against memcpy, and what doca_mmap_start costs, in the same run.
 *
 * Most DOCA programs allocate a buffer, register it (doca_mmap_start) and
 * DMA into it.  On a card the registration makes the pages resident and
 * pins them, so the copies never wait on a page fault.  This bench measures
 * exactly that path, each time on memory that no one has touched yet (a new
 * anonymous mapping per measurement):
 *
 *   local         fill --size bytes of fresh memory with copies of --task
 *                 bytes from a warm 16 MiB source:
 *                   memcpy into fresh memory (first-touch faults included),
 *                   memcpy into pre-faulted memory (the baseline),
 *                   doca_mmap_start of the fresh memory (timed on its own),
 *                   then DMA memcpy tasks into it;
 *   cross-process a child process exports over PCI and then only answers
 *                 requests; this process imports (doca_mmap_create_from_export)
 *                 and DMAs
 *                   into fresh local memory from a warm export, against
 *                   process_vm_readv into fresh and into pre-faulted memory;
 *                   from a fresh export (registered and exported by the
 *                   child, times reported) into a warm local window, against
 *                   process_vm_readv from fresh and from pre-faulted child
 *                   memory.
 *
 * Page faults during the copies are counted with getrusage (minor + major,
 * this process and, for cross-process rows, the exporter too) and shown as a
 * share of the pages copied into or out of fresh memory.  Each row is the
 * best of --repeat measurements; the methods take turns inside each repeat,
 * so a drift of a shared machine hits them alike.  Targets: DMA >= 0.9x the
 * pre-faulted baseline for tasks of 64 KiB and more, faults during the DMA
 * copies < 1% of the pages.
 *
 * Engines: each one runs in its own child process, since the engine is
 * chosen once per process: "inline" (SOFTDOCA_DMA_WORKERS=0, copies inside
 * doca_pe_progress) and "workers" (SOFTDOCA_DMA_WORKERS=1, one library copy
 * thread).  Every DMA result is checked against its source.
 *
 * Exit status: 0 when every copy succeeded and matched, whatever the
 * numbers; 1 on a functional failure, or with --check-faults when a DMA row
 * took page faults on 1% of its pages or more.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
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

#define KIB (1024UL)
#define MIB (1024UL * 1024UL)
#define PAGE 4096UL
#define WINDOW (16 * MIB) /* warm source / destination, reused cyclically */
#define DEPTH 16          /* DMA tasks in flight */
#define TARGET_RATIO 0.9
#define TARGET_FAULT_SHARE 0.01
#define TARGET_MIN_TASK (64 * KIB)
#define MAX_ROWS 64

static const size_t task_sizes[] = {64 * KIB, 1 * MIB};
#define NUM_TASK_SIZES (sizeof(task_sizes) / sizeof(task_sizes[0]))

struct options {
	size_t size;
	int repeat;
	bool engines[2]; /* inline, workers */
	bool local, cross;
	bool check_faults;
};

static const char *const engine_names[2] = {"inline", "workers"};

/* ---- small helpers ----------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Minor plus major page faults of this process so far. */
static uint64_t faults_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

/* A mapping no one has touched: every first access to a page faults. */
static uint8_t *fresh_region(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static uint8_t *warm_region(size_t len)
{
	uint8_t *p = fresh_region(len);

	if (p != NULL)
		memset(p, 0, len);
	return p;
}

static uint8_t pattern_byte(size_t i)
{
	return (uint8_t)(i * 131 + (i >> 12) + 7);
}

static void fill_pattern(uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pattern_byte(i);
}

static void size_name(size_t size, char *out, size_t len)
{
	if (size >= MIB && size % MIB == 0)
		snprintf(out, len, "%zu MiB", size / MIB);
	else
		snprintf(out, len, "%zu KiB", size / KIB);
}

static bool check(doca_error_t err, const char *what)
{
	if (err == DOCA_SUCCESS)
		return true;
	fprintf(stderr, "mmap_register_bench: %s failed: %s\n", what, doca_error_get_name(err));
	return false;
}

static struct doca_mmap *start_mmap(struct doca_dev *dev, void *mem, size_t len, uint32_t perms)
{
	struct doca_mmap *m = NULL;

	if (!check(doca_mmap_create(&m), "doca_mmap_create"))
		return NULL;
	if (!check(doca_mmap_add_dev(m, dev), "doca_mmap_add_dev") ||
	    !check(doca_mmap_set_memrange(m, mem, len), "doca_mmap_set_memrange") ||
	    !check(doca_mmap_set_permissions(m, perms), "doca_mmap_set_permissions") ||
	    !check(doca_mmap_start(m), "doca_mmap_start")) {
		doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}

/* ---- results ----------------------------------------------------------- */

enum row_kind { ROW_BASELINE, ROW_OTHER, ROW_DMA, ROW_TIME };

struct row {
	const char *what;
	enum row_kind kind;
	double gbs;        /* best throughput (ROW_TIME: best seconds) */
	double fault_share; /* faults / pages, of the best run */
	bool measured;
};

struct table {
	char title[160];
	size_t task;
	int nrows;
	struct row rows[8];
};

/* Keep the best run of a row: highest GB/s, or lowest time. */
static void row_record(struct row *r, double value, double fault_share)
{
	bool better = !r->measured || (r->kind == ROW_TIME ? value < r->gbs : value > r->gbs);

	if (better) {
		r->gbs = value;
		r->fault_share = fault_share;
	}
	r->measured = true;
}

static bool g_fault_target_missed;
static bool g_ratio_target_missed;

static void table_print(const struct table *t)
{
	double base = 0;

	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].kind == ROW_BASELINE)
			base = t->rows[i].gbs;
	printf("\n%s\n", t->title);
	printf("  %-46s %10s %14s %10s  %s\n", "", "GB/s", "faults/pages", "vs base", "");
	for (int i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		char verdict[64] = "";

		if (!r->measured) {
			printf("  %-46s %10s\n", r->what, "failed");
			continue;
		}
		if (r->kind == ROW_TIME) {
			/* A rate only means something once the call does real work. */
			if (r->gbs >= 1e-3)
				printf("  %-46s %8.1f ms %14s %10s  (%.2f GB/s)\n", r->what, r->gbs * 1e3, "", "",
				       (double)t->task / r->gbs / 1e9);
			else
				printf("  %-46s %8.2f ms\n", r->what, r->gbs * 1e3);
			continue;
		}
		if (r->kind == ROW_DMA) {
			bool ratio_ok = base > 0 && r->gbs / base >= TARGET_RATIO;
			bool faults_ok = r->fault_share < TARGET_FAULT_SHARE;

			snprintf(verdict, sizeof(verdict), "%s", ratio_ok && faults_ok ? "ok" : "");
			if (!faults_ok) {
				strcat(verdict, "FAULTS >= 1%");
				g_fault_target_missed = true;
			}
			if (!ratio_ok) {
				strcat(verdict, faults_ok ? "BELOW 0.9x" : ", BELOW 0.9x");
				g_ratio_target_missed = true;
			}
		} else if (r->kind == ROW_BASELINE) {
			snprintf(verdict, sizeof(verdict), "(baseline)");
		}
		printf("  %-46s %10.2f %13.1f%% %9.2fx  %s\n", r->what, r->gbs, r->fault_share * 100.0,
		       base > 0 ? r->gbs / base : 0.0, verdict);
	}
}

/* ---- the DMA rig: one PE, one DMA context, DEPTH tasks in flight -------- */

struct slot {
	struct rig *rig;
	struct doca_buf *src, *dst;
	struct doca_dma_task_memcpy *task;
};

/* One fill: `total` bytes in tasks of `task`, src and dst windows reused cyclically. */
struct fill {
	struct doca_mmap *src_mmap, *dst_mmap;
	uint8_t *src, *dst; /* addresses in each mmap's own address space */
	size_t src_len, dst_len, total, task;
	size_t next;        /* offset of the next task to submit */
	unsigned inflight;
	uint64_t errors;
	doca_error_t first_error;
};

struct rig {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	struct fill *fill;
	struct slot slots[DEPTH];
};

static void slot_release(struct slot *s)
{
	if (s->task != NULL)
		doca_task_free(doca_dma_task_memcpy_as_task(s->task));
	if (s->src != NULL)
		doca_buf_dec_refcount(s->src, NULL);
	if (s->dst != NULL)
		doca_buf_dec_refcount(s->dst, NULL);
	s->task = NULL;
	s->src = s->dst = NULL;
}

static void fill_fail(struct fill *f, doca_error_t err)
{
	if (f->errors++ == 0)
		f->first_error = err;
}

/* Submit the next task of the fill on slot `s`; false when there is none or it failed. */
static bool fill_submit(struct rig *rig, struct slot *s)
{
	struct fill *f = rig->fill;
	union doca_data ud = {.ptr = s};
	doca_error_t err;
	size_t off = f->next;

	if (off >= f->total || f->errors != 0)
		return false;
	f->next += f->task;
	err = doca_buf_inventory_buf_get_by_data(rig->inv, f->src_mmap, f->src + off % f->src_len, f->task, &s->src);
	if (err == DOCA_SUCCESS)
		err = doca_buf_inventory_buf_get_by_addr(rig->inv, f->dst_mmap, f->dst + off % f->dst_len, f->task,
							  &s->dst);
	if (err == DOCA_SUCCESS)
		err = doca_dma_task_memcpy_alloc_init(rig->dma, s->src, s->dst, ud, &s->task);
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_dma_task_memcpy_as_task(s->task));
	if (err != DOCA_SUCCESS) {
		slot_release(s);
		fill_fail(f, err);
		return false;
	}
	f->inflight++;
	return true;
}

static void task_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct slot *s = task_ud.ptr;
	struct rig *rig = s->rig;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)ctx_ud;
	rig->fill->inflight--;
	slot_release(s);
	if (status != DOCA_SUCCESS) {
		fill_fail(rig->fill, status);
		return;
	}
	(void)fill_submit(rig, s);
}

/* Run a whole fill; seconds, or < 0 when a task failed. */
static double fill_run(struct rig *rig, struct fill *f)
{
	double t0 = now_s();

	rig->fill = f;
	for (unsigned i = 0; i < DEPTH; i++)
		if (!fill_submit(rig, &rig->slots[i]))
			break;
	while (f->inflight > 0)
		(void)doca_pe_progress(rig->pe);
	rig->fill = NULL;
	if (f->errors != 0) {
		fprintf(stderr, "mmap_register_bench: %" PRIu64 " DMA task(s) failed, first with %s\n", f->errors,
			doca_error_get_name(f->first_error));
		return -1;
	}
	return now_s() - t0;
}

static bool rig_open(struct rig *rig, const char *pci)
{
	memset(rig, 0, sizeof(*rig));
	for (unsigned i = 0; i < DEPTH; i++)
		rig->slots[i].rig = rig;
	rig->dev = bench_open_dev(pci);
	if (rig->dev == NULL) {
		fprintf(stderr, "mmap_register_bench: cannot open device %s\n", pci);
		return false;
	}
	return check(doca_buf_inventory_create(2 * DEPTH, &rig->inv), "doca_buf_inventory_create") &&
	       check(doca_buf_inventory_start(rig->inv), "doca_buf_inventory_start") &&
	       check(doca_pe_create(&rig->pe), "doca_pe_create") &&
	       check(doca_dma_create(rig->dev, &rig->dma), "doca_dma_create") &&
	       check(doca_pe_connect_ctx(rig->pe, doca_dma_as_ctx(rig->dma)), "doca_pe_connect_ctx") &&
	       check(doca_dma_task_memcpy_set_conf(rig->dma, task_done, task_done, DEPTH),
		     "doca_dma_task_memcpy_set_conf") &&
	       check(doca_ctx_start(doca_dma_as_ctx(rig->dma)), "doca_ctx_start");
}

static void rig_close(struct rig *rig)
{
	if (rig->dma != NULL) {
		(void)doca_ctx_stop(doca_dma_as_ctx(rig->dma));
		(void)doca_dma_destroy(rig->dma);
	}
	if (rig->pe != NULL)
		(void)doca_pe_destroy(rig->pe);
	if (rig->inv != NULL)
		(void)doca_buf_inventory_destroy(rig->inv);
	if (rig->dev != NULL)
		(void)doca_dev_close(rig->dev);
}

/* ---- local ------------------------------------------------------------- */

struct local {
	struct rig rig;
	uint8_t *src; /* WINDOW bytes of pattern, warm and registered */
	struct doca_mmap *src_mmap;
};

static double memcpy_fill(uint8_t *dst, const uint8_t *src, size_t total, size_t task)
{
	double t0 = now_s();

	for (size_t off = 0; off < total; off += task) {
		memcpy(dst + off, src + off % WINDOW, task);
		__asm__ volatile("" : : "r"(dst) : "memory"); /* keep every copy */
	}
	return now_s() - t0;
}

/* Each task-sized chunk of `dst` holds the source window's bytes at the same offset. */
static bool verify_cyclic(const uint8_t *dst, size_t total, size_t task, const uint8_t *window)
{
	for (size_t off = 0; off < total; off += task)
		if (memcmp(dst + off, window + off % WINDOW, task) != 0) {
			fprintf(stderr, "mmap_register_bench: DMA result differs from its source at offset %zu\n",
				off);
			return false;
		}
	return true;
}

/* memcpy into fresh (warm == false) or pre-faulted memory; false on allocation failure. */
static bool local_memcpy_once(struct local *l, size_t size, size_t task, bool warm, struct row *row)
{
	uint8_t *dst = warm ? warm_region(size) : fresh_region(size);
	uint64_t f0;
	double t;

	if (dst == NULL)
		return false;
	f0 = faults_self();
	t = memcpy_fill(dst, l->src, size, task);
	row_record(row, (double)size / t / 1e9, (double)(faults_self() - f0) / (double)(size / PAGE));
	munmap(dst, size);
	return true;
}

/*
 * `size` bytes of fresh memory in *dst, registered for local DMA; the time
 * doca_mmap_start took goes into `start_row`.  NULL, with nothing left
 * mapped, on failure.
 */
static struct doca_mmap *register_fresh(struct doca_dev *dev, size_t size, struct row *start_row, uint8_t **dst)
{
	struct doca_mmap *m;
	double t0;

	*dst = fresh_region(size);
	if (*dst == NULL)
		return NULL;
	t0 = now_s();
	m = start_mmap(dev, *dst, size, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (m == NULL) {
		munmap(*dst, size);
		return NULL;
	}
	row_record(start_row, now_s() - t0, 0);
	return m;
}

/* Register fresh memory, then fill it with DMA tasks; verified. */
static bool local_dma_once(struct local *l, size_t size, size_t task, struct row *start_row, struct row *row)
{
	uint8_t *dst;
	struct doca_mmap *m = register_fresh(l->rig.dev, size, start_row, &dst);
	struct fill f = {0};
	uint64_t f0;
	double t;
	bool ok;

	if (m == NULL)
		return false;
	f = (struct fill){.src_mmap = l->src_mmap, .dst_mmap = m, .src = l->src, .dst = dst,
			  .src_len = WINDOW, .dst_len = size, .total = size, .task = task};
	f0 = faults_self();
	t = fill_run(&l->rig, &f);
	ok = t > 0;
	if (ok) {
		row_record(row, (double)size / t / 1e9, (double)(faults_self() - f0) / (double)(size / PAGE));
		ok = verify_cyclic(dst, size, task, l->src);
	}
	ok = check(doca_mmap_destroy(m), "doca_mmap_destroy") && ok;
	munmap(dst, size);
	return ok;
}

static bool local_table(struct local *l, const struct options *opt, size_t task, const char *engine)
{
	char sz[32], tk[32];
	struct table t = {.task = opt->size, .nrows = 4};
	bool ok = true;

	size_name(opt->size, sz, sizeof(sz));
	size_name(task, tk, sizeof(tk));
	snprintf(t.title, sizeof(t.title), "[%s] local: %s of fresh memory filled in %s copies (best of %d)", engine,
		 sz, tk, opt->repeat);
	t.rows[0] = (struct row){.what = "memcpy into fresh memory", .kind = ROW_OTHER};
	t.rows[1] = (struct row){.what = "memcpy into pre-faulted memory", .kind = ROW_BASELINE};
	t.rows[2] = (struct row){.what = "doca_mmap_start of the fresh memory", .kind = ROW_TIME};
	t.rows[3] = (struct row){.what = "DMA into the freshly started mmap", .kind = ROW_DMA};
	for (int r = 0; ok && r < opt->repeat; r++)
		ok = local_memcpy_once(l, opt->size, task, false, &t.rows[0]) &&
		     local_memcpy_once(l, opt->size, task, true, &t.rows[1]) &&
		     local_dma_once(l, opt->size, task, &t.rows[2], &t.rows[3]);
	table_print(&t);
	return ok;
}

static bool run_local(const struct options *opt, const char *engine)
{
	struct local l;
	bool ok;

	ok = rig_open(&l.rig, "0000:03:00.0");
	l.src = warm_region(WINDOW);
	l.src_mmap = NULL;
	if (ok && l.src != NULL) {
		fill_pattern(l.src, WINDOW);
		l.src_mmap = start_mmap(l.rig.dev, l.src, WINDOW, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	}
	ok = ok && l.src_mmap != NULL;
	for (size_t i = 0; ok && i < NUM_TASK_SIZES; i++)
		ok = local_table(&l, opt, task_sizes[i], engine);
	if (l.src_mmap != NULL)
		doca_mmap_destroy(l.src_mmap);
	rig_close(&l.rig);
	if (l.src != NULL)
		munmap(l.src, WINDOW);
	return ok;
}

/* ---- cross-process: the exporting child ---------------------------------- */

enum op {
	OP_EXPORT_FRESH = 1, /* new fresh region, registered and exported */
	OP_RAW_FRESH,        /* new fresh region, nothing else */
	OP_RAW_WARM,         /* new region, every page touched */
	OP_RELEASE,          /* drop the region of the last request */
	OP_FAULTS,           /* report this process's page faults */
};

struct request {
	uint32_t op;
	uint64_t len;
};

struct reply {
	int32_t ok;
	uint64_t addr;
	uint64_t faults;
	double start_s, export_s;
	uint32_t desc_len;
	uint8_t desc[256];
};

struct exporter {
	struct doca_dev *dev;
	uint8_t *region;
	size_t len;
	struct doca_mmap *mmap;
};

static bool exporter_export(struct exporter *e, struct reply *rep)
{
	const void *d = NULL;
	size_t n = 0;
	double t0 = now_s(), t1;

	e->mmap = start_mmap(e->dev, e->region, e->len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (e->mmap == NULL)
		return false;
	t1 = now_s();
	if (!check(doca_mmap_export_pci(e->mmap, e->dev, &d, &n), "doca_mmap_export_pci") || n > sizeof(rep->desc))
		return false;
	rep->start_s = t1 - t0;
	rep->export_s = now_s() - t1;
	memcpy(rep->desc, d, n);
	rep->desc_len = (uint32_t)n;
	return true;
}

static void exporter_release(struct exporter *e)
{
	if (e->mmap != NULL)
		(void)doca_mmap_destroy(e->mmap);
	if (e->region != NULL)
		munmap(e->region, e->len);
	e->mmap = NULL;
	e->region = NULL;
}

static bool exporter_serve(struct exporter *e, const struct request *q, struct reply *rep)
{
	switch (q->op) {
	case OP_FAULTS:
		rep->faults = faults_self();
		return true;
	case OP_RELEASE:
		exporter_release(e);
		return true;
	case OP_EXPORT_FRESH:
	case OP_RAW_FRESH:
	case OP_RAW_WARM:
		exporter_release(e);
		e->len = q->len;
		e->region = q->op == OP_RAW_WARM ? warm_region(q->len) : fresh_region(q->len);
		if (e->region == NULL)
			return false;
		rep->addr = (uint64_t)(uintptr_t)e->region;
		return q->op != OP_EXPORT_FRESH || exporter_export(e, rep);
	}
	return false;
}

/* The child: a warm pattern window exported once, then requests until the pipe closes. */
static int exporter_main(int in_fd, int out_fd)
{
	struct exporter e = {0};
	struct reply first = {0};
	struct request q;
	uint8_t *window = warm_region(WINDOW);
	struct doca_mmap *wm = NULL;
	const void *d = NULL;
	size_t n = 0;

	e.dev = bench_open_dev("0000:b1:00.0");
	if (e.dev != NULL && window != NULL) {
		fill_pattern(window, WINDOW);
		wm = start_mmap(e.dev, window, WINDOW, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	}
	first.ok = wm != NULL && doca_mmap_export_pci(wm, e.dev, &d, &n) == DOCA_SUCCESS && n <= sizeof(first.desc);
	if (first.ok) {
		memcpy(first.desc, d, n);
		first.desc_len = (uint32_t)n;
		first.addr = (uint64_t)(uintptr_t)window;
	}
	if (write(out_fd, &first, sizeof(first)) != (ssize_t)sizeof(first) || !first.ok)
		return 1;
	while (read(in_fd, &q, sizeof(q)) == (ssize_t)sizeof(q)) {
		struct reply rep = {0};

		rep.ok = exporter_serve(&e, &q, &rep);
		if (write(out_fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
			break;
	}
	exporter_release(&e);
	doca_mmap_destroy(wm);
	doca_dev_close(e.dev);
	return 0;
}

/* ---- cross-process: the importing side ----------------------------------- */

struct cross {
	struct rig rig;
	pid_t child;
	int to_child, from_child;
	uint64_t window_addr;         /* the exporter's warm pattern window */
	struct doca_mmap *window_imp; /* ... imported */
	uint8_t *pattern;             /* the same pattern, here: checks, and source of writes */
	struct doca_mmap *pattern_mmap;
	uint8_t *local;               /* WINDOW bytes, warm and registered: destination of "from" rows */
	struct doca_mmap *local_mmap;
};

static bool ask(struct cross *c, uint32_t op, uint64_t len, struct reply *rep)
{
	struct request q = {.op = op, .len = len};

	memset(rep, 0, sizeof(*rep));
	return write(c->to_child, &q, sizeof(q)) == (ssize_t)sizeof(q) &&
	       read(c->from_child, rep, sizeof(*rep)) == (ssize_t)sizeof(*rep) && rep->ok;
}

/* Faults of both processes so far. */
static uint64_t faults_both(struct cross *c)
{
	struct reply rep;

	return faults_self() + (ask(c, OP_FAULTS, 0, &rep) ? rep.faults : 0);
}

/* process_vm_readv (or _writev when `write`) of `total` bytes in `task` pieces, both windows cyclic. */
static bool vm_fill(pid_t pid, bool write, uint8_t *local, size_t local_len, uint64_t remote, size_t remote_len,
		    size_t total, size_t task)
{
	for (size_t off = 0; off < total; off += task) {
		struct iovec l = {.iov_base = local + off % local_len, .iov_len = task};
		struct iovec r = {.iov_base = (void *)(uintptr_t)(remote + off % remote_len), .iov_len = task};
		ssize_t n = write ? process_vm_writev(pid, &l, 1, &r, 1, 0) : process_vm_readv(pid, &l, 1, &r, 1, 0);

		if (n != (ssize_t)task) {
			fprintf(stderr, "mmap_register_bench: process_vm_%sv: %s\n", write ? "write" : "read",
				strerror(errno));
			return false;
		}
	}
	return true;
}

/* process_vm_readv from the warm window into fresh or pre-faulted local memory. */
static bool into_readv_once(struct cross *c, size_t size, size_t task, bool warm, struct row *row)
{
	uint8_t *dst = warm ? warm_region(size) : fresh_region(size);
	uint64_t f0;
	double t0, t;
	bool ok;

	if (dst == NULL)
		return false;
	f0 = faults_both(c);
	t0 = now_s();
	ok = vm_fill(c->child, false, dst, size, c->window_addr, WINDOW, size, task);
	t = now_s() - t0;
	if (ok)
		row_record(row, (double)size / t / 1e9, (double)(faults_both(c) - f0) / (double)(size / PAGE));
	munmap(dst, size);
	return ok;
}

/* DMA from the imported warm window into freshly registered local memory. */
static bool into_dma_once(struct cross *c, size_t size, size_t task, struct row *start_row, struct row *row)
{
	uint8_t *dst;
	struct doca_mmap *m = register_fresh(c->rig.dev, size, start_row, &dst);
	struct fill f;
	uint64_t f0;
	double t;
	bool ok;

	if (m == NULL)
		return false;
	f = (struct fill){.src_mmap = c->window_imp, .dst_mmap = m, .src = (uint8_t *)(uintptr_t)c->window_addr,
			  .dst = dst, .src_len = WINDOW, .dst_len = size, .total = size, .task = task};
	f0 = faults_both(c);
	t = fill_run(&c->rig, &f);
	ok = t > 0;
	if (ok) {
		row_record(row, (double)size / t / 1e9, (double)(faults_both(c) - f0) / (double)(size / PAGE));
		ok = verify_cyclic(dst, size, task, c->pattern);
	}
	ok = check(doca_mmap_destroy(m), "doca_mmap_destroy") && ok;
	munmap(dst, size);
	return ok;
}

/*
 * process_vm_readv from (or _writev into, when `write`) a fresh or
 * pre-faulted child region, against a warm local window.
 */
static bool remote_vm_once(struct cross *c, size_t size, size_t task, bool warm, bool write, struct row *row)
{
	struct reply rep;
	uint64_t f0;
	double t0, t;
	bool ok;

	if (!ask(c, warm ? OP_RAW_WARM : OP_RAW_FRESH, size, &rep))
		return false;
	f0 = faults_both(c);
	t0 = now_s();
	ok = vm_fill(c->child, write, write ? c->pattern : c->local, WINDOW, rep.addr, size, size, task);
	t = now_s() - t0;
	if (ok)
		row_record(row, (double)size / t / 1e9, (double)(faults_both(c) - f0) / (double)(size / PAGE));
	return ask(c, OP_RELEASE, 0, &rep) && ok;
}

/* Every byte of the window was overwritten with the fresh export's zeros. */
static bool verify_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != 0) {
			fprintf(stderr, "mmap_register_bench: byte %zu from the fresh export is %#x, not 0\n", i, p[i]);
			return false;
		}
	return true;
}

/* Every WINDOW of the child's region at `addr` holds the pattern (read back, not timed). */
static bool verify_remote_pattern(struct cross *c, uint64_t addr, size_t size)
{
	size_t block = size < WINDOW ? size : WINDOW;

	for (size_t off = 0; off < size; off += block) {
		if (!vm_fill(c->child, false, c->local, block, addr + off, block, block, block))
			return false;
		if (memcmp(c->local, c->pattern, block) != 0) {
			fprintf(stderr, "mmap_register_bench: DMA into the export: bytes at offset %zu differ\n", off);
			return false;
		}
	}
	return true;
}

struct export_rows {
	struct row *start, *export, *dma;
};

/*
 * DMA from (or, when `write`, into) a region the child registered and
 * exported fresh, against the warm local window; verified.
 */
static bool export_dma_once(struct cross *c, size_t size, size_t task, bool write, const struct export_rows *rows)
{
	struct doca_mmap *imp = NULL;
	struct reply rep;
	struct fill f;
	uint64_t f0;
	double t;
	bool ok;

	if (!ask(c, OP_EXPORT_FRESH, size, &rep))
		return false;
	row_record(rows->start, rep.start_s, 0);
	row_record(rows->export, rep.export_s, 0);
	ok = check(doca_mmap_create_from_export(NULL, rep.desc, rep.desc_len, c->rig.dev, &imp),
		   "doca_mmap_create_from_export");
	memset(c->local, 0xa5, WINDOW);
	if (ok) {
		if (write)
			f = (struct fill){.src_mmap = c->pattern_mmap, .dst_mmap = imp, .src = c->pattern,
					  .dst = (uint8_t *)(uintptr_t)rep.addr, .src_len = WINDOW, .dst_len = size,
					  .total = size, .task = task};
		else
			f = (struct fill){.src_mmap = imp, .dst_mmap = c->local_mmap,
					  .src = (uint8_t *)(uintptr_t)rep.addr, .dst = c->local, .src_len = size,
					  .dst_len = WINDOW, .total = size, .task = task};
		f0 = faults_both(c);
		t = fill_run(&c->rig, &f);
		ok = t > 0;
		if (ok) {
			row_record(rows->dma, (double)size / t / 1e9,
				   (double)(faults_both(c) - f0) / (double)(size / PAGE));
			ok = write ? verify_remote_pattern(c, rep.addr, size) :
				     verify_zero(c->local, size < WINDOW ? size : WINDOW);
		}
	}
	if (imp != NULL)
		ok = check(doca_mmap_destroy(imp), "doca_mmap_destroy (import)") && ok;
	return ask(c, OP_RELEASE, 0, &rep) && ok;
}

static void export_table_init(struct table *t, const char *engine, const char *sz, const char *tk, bool write)
{
	*t = (struct table){.nrows = 5};
	if (write) {
		snprintf(t->title, sizeof(t->title),
			 "[%s] cross-process, into fresh exported memory: %s from a warm local window in %s copies",
			 engine, sz, tk);
		t->rows[0] = (struct row){.what = "process_vm_writev into fresh child memory", .kind = ROW_OTHER};
		t->rows[1] = (struct row){.what = "process_vm_writev into pre-faulted memory", .kind = ROW_BASELINE};
		t->rows[4] = (struct row){.what = "DMA into the fresh export (imported)", .kind = ROW_DMA};
	} else {
		snprintf(t->title, sizeof(t->title),
			 "[%s] cross-process, from fresh exported memory: %s into a warm local window in %s copies",
			 engine, sz, tk);
		t->rows[0] = (struct row){.what = "process_vm_readv from fresh child memory", .kind = ROW_OTHER};
		t->rows[1] = (struct row){.what = "process_vm_readv from pre-faulted memory", .kind = ROW_BASELINE};
		t->rows[4] = (struct row){.what = "DMA from the fresh export (imported)", .kind = ROW_DMA};
	}
	t->rows[2] = (struct row){.what = "exporter's doca_mmap_start (fresh memory)", .kind = ROW_TIME};
	t->rows[3] = (struct row){.what = "exporter's doca_mmap_export_pci", .kind = ROW_TIME};
}

/* One table against the export: fresh and pre-faulted system-call baselines, then DMA. */
static bool export_round(struct cross *c, size_t size, size_t task, bool write, struct table *t)
{
	struct export_rows rows = {&t->rows[2], &t->rows[3], &t->rows[4]};

	return remote_vm_once(c, size, task, false, write, &t->rows[0]) &&
	       remote_vm_once(c, size, task, true, write, &t->rows[1]) &&
	       export_dma_once(c, size, task, write, &rows);
}

static bool cross_tables(struct cross *c, const struct options *opt, size_t task, const char *engine)
{
	char sz[32], tk[32];
	struct table into = {.nrows = 4}, from, to;
	bool ok = true;

	size_name(opt->size, sz, sizeof(sz));
	size_name(task, tk, sizeof(tk));
	snprintf(into.title, sizeof(into.title),
		 "[%s] cross-process, into fresh local memory: %s from the exporter's warm window in %s copies", engine,
		 sz, tk);
	into.rows[0] = (struct row){.what = "process_vm_readv into fresh memory", .kind = ROW_OTHER};
	into.rows[1] = (struct row){.what = "process_vm_readv into pre-faulted memory", .kind = ROW_BASELINE};
	into.rows[2] = (struct row){.what = "doca_mmap_start of the fresh local memory", .kind = ROW_TIME};
	into.rows[3] = (struct row){.what = "DMA from the import into the fresh mmap", .kind = ROW_DMA};
	export_table_init(&from, engine, sz, tk, false);
	export_table_init(&to, engine, sz, tk, true);
	into.task = from.task = to.task = opt->size;
	for (int r = 0; ok && r < opt->repeat; r++)
		ok = into_readv_once(c, opt->size, task, false, &into.rows[0]) &&
		     into_readv_once(c, opt->size, task, true, &into.rows[1]) &&
		     into_dma_once(c, opt->size, task, &into.rows[2], &into.rows[3]) &&
		     export_round(c, opt->size, task, false, &from) && export_round(c, opt->size, task, true, &to);
	table_print(&into);
	table_print(&from);
	table_print(&to);
	return ok;
}

static bool cross_setup(struct cross *c)
{
	struct reply first;

	if (read(c->from_child, &first, sizeof(first)) != (ssize_t)sizeof(first) || !first.ok) {
		fprintf(stderr, "mmap_register_bench: the exporting child did not start\n");
		return false;
	}
	c->window_addr = first.addr;
	if (!rig_open(&c->rig, "0000:03:00.0") ||
	    !check(doca_mmap_create_from_export(NULL, first.desc, first.desc_len, c->rig.dev, &c->window_imp),
		   "doca_mmap_create_from_export"))
		return false;
	c->pattern = warm_region(WINDOW);
	c->local = warm_region(WINDOW);
	if (c->pattern == NULL || c->local == NULL)
		return false;
	fill_pattern(c->pattern, WINDOW);
	c->local_mmap = start_mmap(c->rig.dev, c->local, WINDOW, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	c->pattern_mmap = start_mmap(c->rig.dev, c->pattern, WINDOW, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return c->local_mmap != NULL && c->pattern_mmap != NULL;
}

static void cross_teardown(struct cross *c)
{
	if (c->window_imp != NULL)
		doca_mmap_destroy(c->window_imp);
	if (c->local_mmap != NULL)
		doca_mmap_destroy(c->local_mmap);
	if (c->pattern_mmap != NULL)
		doca_mmap_destroy(c->pattern_mmap);
	rig_close(&c->rig);
	if (c->pattern != NULL)
		munmap(c->pattern, WINDOW);
	if (c->local != NULL)
		munmap(c->local, WINDOW);
}

static bool run_cross(const struct options *opt, const char *engine)
{
	struct cross c;
	int down[2], up[2];
	bool ok;

	memset(&c, 0, sizeof(c));
	if (pipe(down) != 0 || pipe(up) != 0)
		return false;
	c.child = fork();
	if (c.child == 0) {
		close(down[1]);
		close(up[0]);
		_exit(exporter_main(down[0], up[1]));
	}
	close(down[0]);
	close(up[1]);
	c.to_child = down[1];
	c.from_child = up[0];
	ok = c.child > 0 && cross_setup(&c);
	for (size_t i = 0; ok && i < NUM_TASK_SIZES; i++)
		ok = cross_tables(&c, opt, task_sizes[i], engine);
	cross_teardown(&c);
	close(c.to_child); /* the child's read loop ends */
	close(c.from_child);
	if (c.child > 0)
		waitpid(c.child, NULL, 0);
	return ok;
}

/* ---- one engine, in its own process -------------------------------------- */

static int engine_main(const struct options *opt, int engine)
{
	bool ok = true;

	/* Chosen before the library reads it, which happens once per process. */
	setenv("SOFTDOCA_DMA_WORKERS", engine == 0 ? "0" : "1", 1);
	printf("\n== engine %s (SOFTDOCA_DMA_WORKERS=%s): %s\n", engine_names[engine], engine == 0 ? "0" : "1",
	       engine == 0 ? "copies inside doca_pe_progress" : "copies on one library thread");
	fflush(stdout);
	if (opt->local)
		ok = run_local(opt, engine_names[engine]);
	if (ok && opt->cross)
		ok = run_cross(opt, engine_names[engine]);
	fflush(stdout);
	if (!ok)
		return 1;
	if (opt->check_faults && g_fault_target_missed)
		return 3;
	return g_ratio_target_missed || g_fault_target_missed ? 2 : 0;
}

/* ---- options and main ---------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: mmap_register_bench [--size BYTES] [--repeat N] [--engine inline|workers|both]\n"
		"                           [--where local|cross|both] [--quick] [--check-faults]\n"
		"  --size BYTES     fresh memory per measurement, a multiple of 1 MiB (K/M/G suffix; default 256M)\n"
		"  --repeat N       measurements per row, the best is kept (default 3)\n"
		"  --engine E       which cpu engine mode(s) to measure (default both)\n"
		"  --where W        local DMA, cross-process DMA, or both (default both)\n"
		"  --quick          smoke run: 16 MiB, one repeat\n"
		"  --check-faults   exit 1 when a DMA row takes page faults on >= 1%% of its pages\n"
		"Copies of 64 KiB and 1 MiB; rows compare with memcpy / process_vm_readv into or from\n"
		"pre-faulted memory, measured in the same run.  SOFTDOCA_MMAP_REGISTER is passed on.\n");
}

static bool parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return false;
	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	default: break;
	}
	if (*end != '\0' || v == 0 || v % MIB != 0 || v > (64ULL << 30))
		return false;
	*out = (size_t)v;
	return true;
}

static bool parse_choice(const char *s, const char *a, const char *b, bool *first, bool *second)
{
	*first = strcmp(s, a) == 0 || strcmp(s, "both") == 0;
	*second = strcmp(s, b) == 0 || strcmp(s, "both") == 0;
	return *first || *second;
}

static bool parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{"size", required_argument, NULL, 's'},     {"repeat", required_argument, NULL, 'r'},
		{"engine", required_argument, NULL, 'e'},   {"where", required_argument, NULL, 'w'},
		{"quick", no_argument, NULL, 'q'},          {"check-faults", no_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
	};
	int c;

	*opt = (struct options){.size = 256 * MIB, .repeat = 3, .engines = {true, true}, .local = true, .cross = true};
	while ((c = getopt_long(argc, argv, "s:r:e:w:qfh", longopts, NULL)) != -1) {
		bool ok = true;

		switch (c) {
		case 's': ok = parse_size(optarg, &opt->size); break;
		case 'r': opt->repeat = atoi(optarg); ok = opt->repeat >= 1; break;
		case 'e': ok = parse_choice(optarg, "inline", "workers", &opt->engines[0], &opt->engines[1]); break;
		case 'w': ok = parse_choice(optarg, "local", "cross", &opt->local, &opt->cross); break;
		case 'q': opt->size = 16 * MIB; opt->repeat = 1; break;
		case 'f': opt->check_faults = true; break;
		case 'h': usage(stdout); exit(0);
		default: ok = false; break;
		}
		if (!ok) {
			usage(stderr);
			return false;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return false;
	}
	return true;
}

static void print_header(const struct options *opt)
{
	const char *knob = getenv("SOFTDOCA_MMAP_REGISTER");
	char thp[64] = "?";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
	char sz[32];

	if (f != NULL) {
		if (fgets(thp, sizeof(thp), f) != NULL)
			thp[strcspn(thp, "\n")] = '\0';
		fclose(f);
	}
	size_name(opt->size, sz, sizeof(sz));
	printf("mmap_register_bench: %s of fresh memory per measurement, best of %d, %d DMA tasks in flight\n", sz,
	       opt->repeat, DEPTH);
	printf("  SOFTDOCA_MMAP_REGISTER=%s, transparent huge pages: %s\n", knob != NULL ? knob : "(unset)", thp);
	printf("  targets: DMA >= %.1fx the pre-faulted baseline at >= 64 KiB, faults during DMA < 1%% of pages\n",
	       TARGET_RATIO);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct options opt;
	bool failed = false, faults_missed = false, targets_missed = false;

	if (!parse_options(argc, argv, &opt))
		return 1;
	print_header(&opt);
	for (int e = 0; e < 2; e++) {
		int status = 0;
		pid_t pid;

		if (!opt.engines[e])
			continue;
		pid = fork();
		if (pid == 0)
			_exit(engine_main(&opt, e));
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
			failed = true;
			continue;
		}
		failed = failed || WEXITSTATUS(status) == 1;
		faults_missed = faults_missed || WEXITSTATUS(status) == 3;
		targets_missed = targets_missed || WEXITSTATUS(status) >= 2;
	}
	printf("\nverdict: %s\n", failed ? "FAILED (a copy failed or did not match)" :
				     targets_missed ? "targets MISSED (see the rows marked above)" :
						    "every DMA row MET its targets");
	if (failed)
		return 1;
	return opt.check_faults && faults_missed ? 1 : 0;
}
