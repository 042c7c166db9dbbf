/*
 * flows.h - shared helpers for the sample-flow programs in tests/flows.
 *
 * The flow programs replay, through the public DOCA API only, the
 * sequences of calls that the official DOCA Core and DMA samples make,
 * and assert what those samples merely log.  This header holds the
 * pieces every flow needs: opening a DMA-capable device, the common
 * memory/inventory/PE set-up and its teardown in the samples' order, the
 * "fill a source with value v, copy into a zeroed destination" task
 * factory, a bounded progress loop (a lost completion must fail a test,
 * never hang it), and a trace recorder that writes one line per callback
 * and per doca_pe_progress call so order tests can compare whole runs.
 *
 * Include it after sd_test.h; every function is static.
 */
#ifndef FLOWS_H
#define FLOWS_H

#include <stdarg.h>
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
#include <doca_types.h>

#include "sd_progress.h"
#include "sd_test.h"

/* Bytes per copy in every pe_* sample. */
#define FLOW_COPY_LEN 1024

/* How long a flow may wait for progress before it is declared hung. */
#define FLOW_DEADLINE_SEC 20.0

/* ------------------------------------------------------------------------ */
/* Small utilities                                                           */
/* ------------------------------------------------------------------------ */

static inline double flow_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline const char *flow_state_name(enum doca_ctx_states s)
{
	switch (s) {
	case DOCA_CTX_STATE_IDLE:
		return "IDLE";
	case DOCA_CTX_STATE_STARTING:
		return "STARTING";
	case DOCA_CTX_STATE_RUNNING:
		return "RUNNING";
	case DOCA_CTX_STATE_STOPPING:
		return "STOPPING";
	}
	return "?";
}

static inline enum doca_ctx_states flow_ctx_state(struct doca_ctx *ctx)
{
	enum doca_ctx_states s = (enum doca_ctx_states)-1;

	CHECK_OK(doca_ctx_get_state(ctx, &s));
	return s;
}

static inline size_t flow_ctx_inflight(struct doca_ctx *ctx)
{
	size_t n = (size_t)-1;

	CHECK_OK(doca_ctx_get_num_inflight_tasks(ctx, &n));
	return n;
}

static inline size_t flow_pe_inflight(struct doca_pe *pe)
{
	size_t n = (size_t)-1;

	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &n));
	return n;
}

/*
 * True when the library runs with its default engine (cpu, no worker
 * threads): only then is the exact timing of copies and reports
 * fixed, so a few checks (untouched destinations of flushed tasks, exact
 * interleaving across contexts) are made only in that mode.
 */
static inline bool flow_default_engine(void)
{
	const char *engine = getenv("SOFTDOCA_ENGINE");

	if (engine != NULL && engine[0] != '\0' && strcmp(engine, "cpu") != 0)
		return false;
	return !sd_engine_is_async();
}

/* The const source pointer of a task, as a releasable buffer. */
static inline struct doca_buf *flow_unconst(const struct doca_buf *buf)
{
	return (struct doca_buf *)(uintptr_t)buf;
}

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

/* The first device whose devinfo supports DMA memcpy (pe_common's open_device). */
static inline struct doca_dev *flow_open_dma_device(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	if (list == NULL)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) != DOCA_SUCCESS)
			continue;
		if (doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	CHECK_OK(doca_devinfo_destroy_list(list));
	CHECK(dev != NULL);
	return dev;
}

/* The device with this PCI address, if it supports DMA (dma_common's way). */
static inline struct doca_dev *flow_open_device_by_pci(const char *pci_addr)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	if (list == NULL)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t equal = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci_addr, &equal) != DOCA_SUCCESS || !equal)
			continue;
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) != DOCA_SUCCESS)
			continue;
		if (doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	CHECK_OK(doca_devinfo_destroy_list(list));
	return dev;
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* A started local mmap over [addr, addr+len) with `dev` (may be NULL) added. */
static inline struct doca_mmap *flow_mmap_new(void *addr, size_t len, struct doca_dev *dev, int perms)
{
	struct doca_mmap *mmap = NULL;

	CHECK_OK(doca_mmap_create(&mmap));
	if (mmap == NULL)
		return NULL;
	CHECK_OK(doca_mmap_set_memrange(mmap, addr, len));
	if (dev != NULL)
		CHECK_OK(doca_mmap_add_dev(mmap, dev));
	if (perms >= 0)
		CHECK_OK(doca_mmap_set_permissions(mmap, (uint32_t)perms));
	CHECK_OK(doca_mmap_start(mmap));
	return mmap;
}

static inline void flow_mmap_free(struct doca_mmap *mmap)
{
	if (mmap == NULL)
		return;
	CHECK_OK(doca_mmap_stop(mmap));
	CHECK_OK(doca_mmap_destroy(mmap));
}

/*
 * What every pe_* sample builds before its contexts: one backing buffer,
 * a device, a LOCAL_READ_WRITE mmap over the buffer, an inventory and a PE.
 */
struct flow_base {
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	uint8_t *mem;
	size_t mem_len;
	size_t next_off; /* next unused byte of mem for flow_alloc_copy_task */
};

static inline bool flow_base_init(struct flow_base *b, size_t mem_len, uint32_t inv_size)
{
	memset(b, 0, sizeof(*b));
	b->mem_len = mem_len;
	b->mem = calloc(1, mem_len);
	if (b->mem == NULL)
		return false;
	b->dev = flow_open_dma_device();
	if (b->dev == NULL)
		return false;
	b->mmap = flow_mmap_new(b->mem, mem_len, b->dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_buf_inventory_create(inv_size, &b->inv));
	if (b->inv != NULL)
		CHECK_OK(doca_buf_inventory_start(b->inv));
	CHECK_OK(doca_pe_create(&b->pe));
	return b->mmap != NULL && b->inv != NULL && b->pe != NULL;
}

/* pe_sample_base_cleanup's order: PE first, then inventory, mmap, device. */
static inline void flow_base_cleanup(struct flow_base *b)
{
	if (b->pe != NULL)
		CHECK_OK(doca_pe_destroy(b->pe));
	if (b->inv != NULL) {
		uint32_t total = 0, free_elems = 0;

		CHECK_OK(doca_buf_inventory_get_num_elements(b->inv, &total));
		CHECK_OK(doca_buf_inventory_get_num_free_elements(b->inv, &free_elems));
		CHECK_EQ_U64(free_elems, total); /* every buffer was released */
		CHECK_OK(doca_buf_inventory_stop(b->inv));
		CHECK_OK(doca_buf_inventory_destroy(b->inv));
	}
	flow_mmap_free(b->mmap);
	if (b->dev != NULL)
		CHECK_OK(doca_dev_close(b->dev));
	free(b->mem);
	memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------------ */
/* DMA contexts and copy tasks                                               */
/* ------------------------------------------------------------------------ */

/* pe_polling's order: create, as_ctx, connect, user data, task conf. */
static inline struct doca_dma *flow_dma_new(struct flow_base *b,
					    doca_dma_task_memcpy_completion_cb_t ok_cb,
					    doca_dma_task_memcpy_completion_cb_t err_cb,
					    uint32_t num_tasks,
					    void *ctx_user_data,
					    doca_ctx_state_changed_callback_t state_cb)
{
	struct doca_dma *dma = NULL;
	struct doca_ctx *ctx;

	CHECK_OK(doca_dma_create(b->dev, &dma));
	if (dma == NULL)
		return NULL;
	ctx = doca_dma_as_ctx(dma);
	CHECK(ctx != NULL);
	CHECK_OK(doca_pe_connect_ctx(b->pe, ctx));
	CHECK_OK(doca_ctx_set_user_data(ctx, (union doca_data){.ptr = ctx_user_data}));
	if (state_cb != NULL)
		CHECK_OK(doca_ctx_set_state_changed_cb(ctx, state_cb));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, ok_cb, err_cb, num_tasks));
	return dma;
}

/*
 * allocate_dma_tasks' per-task step: the next two 1 KiB regions of the
 * backing buffer become a full source holding `value` and an empty,
 * zeroed destination; the task carries user data `ud`.
 */
static inline struct doca_dma_task_memcpy *flow_alloc_copy_task(struct flow_base *b, struct doca_dma *dma,
								 uint8_t value, uint64_t ud)
{
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_dma_task_memcpy *task = NULL;
	uint8_t *src_mem, *dst_mem;
	doca_error_t err;

	if (b->next_off + 2 * FLOW_COPY_LEN > b->mem_len) {
		CHECK(!"backing buffer exhausted");
		return NULL;
	}
	src_mem = b->mem + b->next_off;
	dst_mem = src_mem + FLOW_COPY_LEN;
	b->next_off += 2 * FLOW_COPY_LEN;

	CHECK_OK(doca_buf_inventory_buf_get_by_data(b->inv, b->mmap, src_mem, FLOW_COPY_LEN, &src));
	memset(src_mem, value, FLOW_COPY_LEN);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(b->inv, b->mmap, dst_mem, FLOW_COPY_LEN, &dst));
	memset(dst_mem, 0, FLOW_COPY_LEN);
	if (src == NULL || dst == NULL)
		return NULL;
	err = doca_dma_task_memcpy_alloc_init(dma, src, dst, (union doca_data){.u64 = ud}, &task);
	CHECK_OK(err);
	if (err != DOCA_SUCCESS) {
		doca_buf_dec_refcount(src, NULL);
		doca_buf_dec_refcount(dst, NULL);
		return NULL;
	}
	/* A freshly allocated task reads DOCA_SUCCESS. */
	CHECK_ERR(doca_task_get_status(doca_dma_task_memcpy_as_task(task)), DOCA_SUCCESS);
	return task;
}

/*
 * process_completed_dma_memcpy_task, as an assertion: the destination was
 * appended at its head (data == head), its data length grew to exactly
 * one copy, and every byte of the whole buffer holds `value`.
 */
static inline bool flow_dst_holds(struct doca_dma_task_memcpy *task, uint8_t value)
{
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);
	void *data = NULL, *head = NULL;
	size_t len = 0, data_len = 0;
	bool ok = true;

	if (dst == NULL)
		return false;
	CHECK_OK(doca_buf_get_data(dst, &data));
	CHECK_OK(doca_buf_get_head(dst, &head));
	CHECK_OK(doca_buf_get_len(dst, &len));
	CHECK_OK(doca_buf_get_data_len(dst, &data_len));
	if (data == NULL || data != head || len != FLOW_COPY_LEN || data_len != FLOW_COPY_LEN)
		return false;
	for (size_t i = 0; i < len && ok; i++)
		ok = ((const uint8_t *)data)[i] == value;
	return ok;
}

/* dma_task_free: release both buffers, then the task. */
static inline void flow_release_task(struct doca_dma_task_memcpy *task)
{
	const struct doca_buf *src = doca_dma_task_memcpy_get_src(task);
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);

	if (src != NULL)
		CHECK_OK(doca_buf_dec_refcount(flow_unconst(src), NULL));
	if (dst != NULL)
		CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

/* ------------------------------------------------------------------------ */
/* Bounded progress loops                                                    */
/* ------------------------------------------------------------------------ */

/*
 * Progress until *counter reaches target (poll_for_completion), failing
 * the case instead of spinning forever when the library loses a report.
 * Returns the number of progress calls that returned 1.
 */
static inline unsigned long flow_poll_counter(struct doca_pe *pe, const volatile int *counter, int target)
{
	double deadline = flow_now() + FLOW_DEADLINE_SEC;
	unsigned long busy = 0;

	while (*counter < target) {
		if (doca_pe_progress(pe))
			busy++;
		/* Also on busy calls: a PE kept busy forever must not hang the test. */
		if (flow_now() > deadline) {
			fprintf(stderr, "[%s] hung: counter %d of %d after %.0f s\n", sd_test_case_name,
				*counter, target, FLOW_DEADLINE_SEC);
			CHECK(!"progress stalled");
			break;
		}
	}
	return busy;
}

/* Progress while *flag stays true (pe_reactive, dma_common). */
static inline void flow_poll_while(struct doca_pe *pe, const volatile bool *flag)
{
	double deadline = flow_now() + FLOW_DEADLINE_SEC;

	while (*flag) {
		doca_pe_progress(pe);
		if (flow_now() > deadline) {
			fprintf(stderr, "[%s] hung waiting for a flag\n", sd_test_case_name);
			CHECK(!"progress stalled");
			break;
		}
	}
}

/*
 * Progress until `ctx` is IDLE.  Polls the state, not the return value:
 * with worker threads a call may return 0 while work is still
 * under way, so "progress returned 0" never means "done".
 */
static inline void flow_poll_until_idle(struct doca_pe *pe, struct doca_ctx *ctx)
{
	double deadline = flow_now() + FLOW_DEADLINE_SEC;

	while (flow_ctx_state(ctx) != DOCA_CTX_STATE_IDLE) {
		doca_pe_progress(pe);
		if (flow_now() > deadline) {
			fprintf(stderr, "[%s] hung waiting for IDLE\n", sd_test_case_name);
			CHECK(!"progress stalled");
			break;
		}
	}
}

/* Progress until the call returns 0 `quiet` times in a row; returns the busy count. */
static inline unsigned long flow_drain(struct doca_pe *pe)
{
	unsigned long busy = 0;

	for (int quiet = 0; quiet < 3;) {
		if (doca_pe_progress(pe)) {
			busy++;
			quiet = 0;
		} else {
			quiet++;
		}
	}
	return busy;
}

/* ------------------------------------------------------------------------ */
/* Trace recorder                                                            */
/* ------------------------------------------------------------------------ */

/*
 * Every callback appends one line prefixed with the phase it ran in:
 * "P<n>" inside the n-th flow_progress() call, "start"/"stop" inside
 * flow_start()/flow_stop(), or "main" elsewhere (for example inside a
 * submit, which must never run a callback, B1).  flow_progress() also
 * appends "P<n> -> <ret>" after each call.
 */
#define FLOW_TRACE_MAX 4096
#define FLOW_LINE_MAX 72

static char flow_trace[FLOW_TRACE_MAX][FLOW_LINE_MAX];
static int flow_trace_len;
static char flow_phase[16] = "main";
static unsigned flow_call;

static inline void flow_trace_reset(void)
{
	flow_trace_len = 0;
	flow_call = 0;
	snprintf(flow_phase, sizeof(flow_phase), "main");
}

static inline void flow_tracef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void flow_tracef(const char *fmt, ...)
{
	char text[FLOW_LINE_MAX - sizeof(flow_phase)];
	va_list ap;

	if (flow_trace_len >= FLOW_TRACE_MAX) {
		CHECK(!"trace overflow");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(flow_trace[flow_trace_len++], FLOW_LINE_MAX, "%s %s", flow_phase, text);
}

static inline uint8_t flow_progress(struct doca_pe *pe)
{
	uint8_t r;

	flow_call++;
	snprintf(flow_phase, sizeof(flow_phase), "P%u", flow_call);
	r = doca_pe_progress(pe);
	flow_tracef("-> %u", r);
	snprintf(flow_phase, sizeof(flow_phase), "main");
	return r;
}

static inline doca_error_t flow_start(struct doca_ctx *ctx)
{
	doca_error_t err;

	snprintf(flow_phase, sizeof(flow_phase), "start");
	err = doca_ctx_start(ctx);
	snprintf(flow_phase, sizeof(flow_phase), "main");
	return err;
}

static inline doca_error_t flow_stop(struct doca_ctx *ctx)
{
	doca_error_t err;

	snprintf(flow_phase, sizeof(flow_phase), "stop");
	err = doca_ctx_stop(ctx);
	snprintf(flow_phase, sizeof(flow_phase), "main");
	return err;
}

/*
 * Compare the recorded trace with the expected one line by line; print
 * both around the first difference so a failure reads like a diff.
 */
static inline void flow_trace_expect(char expected[][FLOW_LINE_MAX], int n_expected)
{
	int n = flow_trace_len < n_expected ? flow_trace_len : n_expected;
	int first = -1;

	for (int i = 0; i < n && first < 0; i++)
		if (strcmp(flow_trace[i], expected[i]) != 0)
			first = i;
	if (first < 0 && flow_trace_len != n_expected)
		first = n;
	if (first < 0)
		return;
	fprintf(stderr, "[%s] trace differs at line %d (got %d lines, expected %d)\n", sd_test_case_name, first,
		flow_trace_len, n_expected);
	for (int i = first - 3 < 0 ? 0 : first - 3; i < first + 6; i++) {
		fprintf(stderr, "  %4d  got: %-34s  want: %s\n", i, i < flow_trace_len ? flow_trace[i] : "<end>",
			i < n_expected ? expected[i] : "<end>");
	}
	sd_test_case_failed = 1;
}

#endif /* FLOWS_H */
