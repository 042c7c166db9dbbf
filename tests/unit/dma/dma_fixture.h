/*
 * dma_fixture.h - shared set-up for the DMA unit tests: a device, a progress
 * engine, a DMA instance with recorded callbacks, and helpers that build
 * mmaps and buffers over test memory.
 *
 * Everything goes through the public DOCA API, as an application would.
 * Callbacks append to one event log, so tests can check both what was
 * reported and in which order (state changes interleaved with tasks).
 */
#ifndef DMA_FIXTURE_H
#define DMA_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "sd_progress.h"
#include "sd_test.h"

/* One thing a callback saw. */
enum fx_ev_kind {
	FX_EV_STATE = 1,   /* a = prev state, b = next state */
	FX_EV_SUCCESS = 2, /* a = task user data, b = DOCA_SUCCESS */
	FX_EV_ERROR = 3,   /* a = task user data, b = task status */
};

struct fx_event {
	enum fx_ev_kind kind;
	uint64_t a;
	int64_t b;
	enum doca_ctx_states state_at_cb; /* context state when the callback ran */
};

#define FX_MAX_EVENTS 1024

static struct fx_event fx_events[FX_MAX_EVENTS];
static int fx_nevents;
static bool fx_free_in_cb = true; /* task callbacks free their task */

struct fx {
	struct doca_devinfo **list;
	uint32_t nlist;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_buf_inventory *inv;
};

static inline void fx_log(enum fx_ev_kind kind, uint64_t a, int64_t b, struct doca_ctx *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	(void)doca_ctx_get_state(ctx, &st);
	if (fx_nevents < FX_MAX_EVENTS)
		fx_events[fx_nevents++] = (struct fx_event){ .kind = kind, .a = a, .b = b, .state_at_cb = st };
}

static inline void fx_state_cb(const union doca_data user_data, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	(void)user_data;
	fx_log(FX_EV_STATE, (uint64_t)prev, (int64_t)next, ctx);
}

static inline void fx_task_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, bool ok)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);

	fx_log(ok ? FX_EV_SUCCESS : FX_EV_ERROR, task_ud.u64, (int64_t)doca_task_get_status(t),
	       doca_task_get_ctx(t));
	if (fx_free_in_cb)
		doca_task_free(t);
}

static inline void fx_success_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	fx_task_done(task, task_ud, true);
}

static inline void fx_error_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	fx_task_done(task, task_ud, false);
}

static inline void fx_reset_events(void)
{
	fx_nevents = 0;
	fx_free_in_cb = true;
}

/* Open the device at `index` of the device list. */
static inline bool fx_open_dev(struct fx *f, uint32_t index)
{
	if (doca_devinfo_create_list(&f->list, &f->nlist) != DOCA_SUCCESS)
		return false;
	if (index >= f->nlist)
		return false;
	return doca_dev_open(f->list[index], &f->dev) == DOCA_SUCCESS;
}

/* Device, PE, inventory and a DMA instance configured for `ntasks` tasks, not started. */
static inline bool fx_setup(struct fx *f, uint32_t ntasks)
{
	memset(f, 0, sizeof(*f));
	fx_reset_events();
	if (!fx_open_dev(f, 0))
		return false;
	if (doca_pe_create(&f->pe) != DOCA_SUCCESS)
		return false;
	if (doca_dma_create(f->dev, &f->dma) != DOCA_SUCCESS)
		return false;
	f->ctx = doca_dma_as_ctx(f->dma);
	if (doca_ctx_set_state_changed_cb(f->ctx, fx_state_cb) != DOCA_SUCCESS)
		return false;
	if (doca_pe_connect_ctx(f->pe, f->ctx) != DOCA_SUCCESS)
		return false;
	if (ntasks != 0 && doca_dma_task_memcpy_set_conf(f->dma, fx_success_cb, fx_error_cb, ntasks) != DOCA_SUCCESS)
		return false;
	if (doca_buf_inventory_create(512, &f->inv) != DOCA_SUCCESS)
		return false;
	return doca_buf_inventory_start(f->inv) == DOCA_SUCCESS;
}

static inline bool fx_start(struct fx *f)
{
	return doca_ctx_start(f->ctx) == DOCA_SUCCESS;
}

/* Progress until nothing is left to report (on any engine); returns the number of units done. */
static inline int fx_drain(struct fx *f)
{
	return (int)sd_progress_drain(f->pe);
}

/* Stop (finishing through progress if needed) and destroy everything. */
static inline void fx_teardown(struct fx *f)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	if (f->ctx != NULL && doca_ctx_get_state(f->ctx, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE) {
		(void)doca_ctx_stop(f->ctx);
		fx_drain(f);
	}
	if (f->dma != NULL)
		CHECK_OK(doca_dma_destroy(f->dma));
	if (f->pe != NULL)
		CHECK_OK(doca_pe_destroy(f->pe));
	if (f->inv != NULL) {
		(void)doca_buf_inventory_stop(f->inv);
		CHECK_OK(doca_buf_inventory_destroy(f->inv));
	}
	if (f->dev != NULL)
		CHECK_OK(doca_dev_close(f->dev));
	if (f->list != NULL)
		doca_devinfo_destroy_list(f->list);
	memset(f, 0, sizeof(*f));
}

/* A started mmap over [addr, addr+len) with `perms`, registered with `dev` when non-NULL. */
static inline struct doca_mmap *fx_mmap(struct doca_dev *dev, void *addr, size_t len, uint32_t perms)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS)
		return NULL;
	if (doca_mmap_set_memrange(m, addr, len) != DOCA_SUCCESS || doca_mmap_set_permissions(m, perms) != DOCA_SUCCESS ||
	    (dev != NULL && doca_mmap_add_dev(m, dev) != DOCA_SUCCESS) || doca_mmap_start(m) != DOCA_SUCCESS) {
		doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}

/* A buffer whose data segment is [data, data+data_len) inside [head, head+len). */
static inline struct doca_buf *fx_buf(struct fx *f, struct doca_mmap *m, void *head, size_t len, void *data,
			       size_t data_len)
{
	struct doca_buf *b = NULL;

	if (doca_buf_inventory_buf_get_by_args(f->inv, m, head, len, data, data_len, &b) != DOCA_SUCCESS)
		return NULL;
	return b;
}

static inline void fx_put(struct doca_buf *b)
{
	if (b != NULL)
		CHECK_OK(doca_buf_dec_refcount(b, NULL));
}

static inline size_t fx_data_len(const struct doca_buf *b)
{
	size_t n = (size_t)-1;

	(void)doca_buf_get_data_len(b, &n);
	return n;
}

static inline void *fx_data(const struct doca_buf *b)
{
	void *p = NULL;

	(void)doca_buf_get_data(b, &p);
	return p;
}

static inline void *fx_head(const struct doca_buf *b)
{
	void *p = NULL;

	(void)doca_buf_get_head(b, &p);
	return p;
}

/* Allocate one task for (src, dst) with user data `ud`. */
static inline struct doca_task *fx_task(struct fx *f, const struct doca_buf *src, struct doca_buf *dst, uint64_t ud)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data d = { .u64 = ud };

	if (doca_dma_task_memcpy_alloc_init(f->dma, src, dst, d, &t) != DOCA_SUCCESS)
		return NULL;
	return doca_dma_task_memcpy_as_task(t);
}

static inline void fx_fill(uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7u);
}

/*
 * SDK log capture: a file backend that keeps WARNING and ERROR records, so
 * tests can count what a call logged (one ERROR per rejected call, nothing
 * for task execution failures).
 */
static FILE *fx_logf;
static long fx_log_from;

static inline void fx_log_capture(void)
{
	struct doca_log_backend *b = NULL;

	fx_logf = tmpfile();
	if (fx_logf == NULL || doca_log_backend_create_with_file_sdk(fx_logf, &b) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot capture the SDK log\n");
		exit(1);
	}
}

/* Start counting records from now. */
static inline void fx_log_mark(void)
{
	fflush(fx_logf);
	fseek(fx_logf, 0, SEEK_END);
	fx_log_from = ftell(fx_logf);
}

/* WARNING/ERROR records written since fx_log_mark (one line each). */
static inline int fx_log_count(void)
{
	int c, n = 0;

	fflush(fx_logf);
	fseek(fx_logf, fx_log_from, SEEK_SET);
	while ((c = fgetc(fx_logf)) != EOF)
		n += c == '\n';
	fseek(fx_logf, 0, SEEK_END);
	return n;
}

/* Whether a record written since fx_log_mark contains `text`. */
static inline bool fx_log_has(const char *text)
{
	char line[2048];
	bool found = false;

	fflush(fx_logf);
	fseek(fx_logf, fx_log_from, SEEK_SET);
	while (fgets(line, sizeof(line), fx_logf) != NULL)
		found = found || strstr(line, text) != NULL;
	fseek(fx_logf, 0, SEEK_END);
	return found;
}

/* Expect `expr` to log exactly `n` WARNING/ERROR records. */
#define CHECK_LOGS(n, expr)                                                                        \
	do {                                                                                       \
		int fx_n_;                                                                         \
		fx_log_mark();                                                                     \
		expr;                                                                              \
		fx_n_ = fx_log_count();                                                            \
		if (fx_n_ != (n)) {                                                                \
			fprintf(stderr, "%s:%d: [%s] %s logged %d records, expected %d\n", __FILE__, \
				__LINE__, sd_test_case_name, #expr, fx_n_, (n));                   \
			sd_test_case_failed = 1;                                                   \
		}                                                                                  \
	} while (0)

#endif /* DMA_FIXTURE_H */
