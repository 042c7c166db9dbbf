/*
 * graph_fixture.h - what the graph tests share: the local DMA setup of
 * sd_fixture.h plus a second DMA context on the same PE, recording graph
 * and user-node callbacks, and SDK log capture to count the diagnostics a
 * call emits (one ERROR record per refused call, none otherwise).
 */
#ifndef GRAPH_FIXTURE_H
#define GRAPH_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <doca_graph.h>
#include <doca_log.h>

#include "sd_fixture.h"

/* ---- SDK log capture ---- */

static FILE *gfx_logf;
static long gfx_log_from;

static inline void gfx_log_capture(void)
{
	struct doca_log_backend *backend = NULL;

	gfx_logf = tmpfile();
	if (gfx_logf == NULL || doca_log_backend_create_with_file_sdk(gfx_logf, &backend) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot capture the SDK log\n");
		exit(1);
	}
}

static inline void gfx_log_mark(void)
{
	fflush(gfx_logf);
	fseek(gfx_logf, 0, SEEK_END);
	gfx_log_from = ftell(gfx_logf);
}

/* Records (lines) written since the last mark; `text` must appear in each when non-NULL. */
static inline int gfx_log_count(const char *text, bool *all_match)
{
	char line[4096];
	int n = 0;

	*all_match = true;
	fflush(gfx_logf);
	fseek(gfx_logf, gfx_log_from, SEEK_SET);
	while (fgets(line, sizeof(line), gfx_logf) != NULL) {
		n++;
		if (text != NULL && strstr(line, text) == NULL)
			*all_match = false;
	}
	fseek(gfx_logf, 0, SEEK_END);
	return n;
}

/* `expr` is refused with `code` and exactly one SDK record naming `func`. */
#define CHECK_REJECT(expr, code, func)                                                             \
	do {                                                                                       \
		bool gfx_match_;                                                                   \
		gfx_log_mark();                                                                    \
		CHECK_ERR(expr, code);                                                             \
		CHECK_EQ_U64(gfx_log_count(func, &gfx_match_), 1);                                 \
		CHECK(gfx_match_);                                                                 \
	} while (0)

/* `expr` returns `code` (often DOCA_SUCCESS) and logs nothing at WARNING or above. */
#define CHECK_QUIET(expr, code)                                                                    \
	do {                                                                                       \
		bool gfx_match_;                                                                   \
		gfx_log_mark();                                                                    \
		CHECK_ERR(expr, code);                                                             \
		CHECK_EQ_U64(gfx_log_count(NULL, &gfx_match_), 0);                                 \
	} while (0)

/* ---- graph and user-node callbacks ---- */

struct gfx_done {
	struct doca_graph_instance *inst;
	uint64_t inst_ud;
	uint64_t graph_ud;
	bool ok;
};

#define GFX_MAX_DONE 1024

static struct gfx_done gfx_done[GFX_MAX_DONE];
static int gfx_ndone;
/* Optional hook run at the end of both graph callbacks. */
static void (*gfx_on_done)(struct doca_graph_instance *inst, bool ok);

static inline void gfx_record_done(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud, bool ok)
{
	if (gfx_ndone < GFX_MAX_DONE) {
		gfx_done[gfx_ndone].inst = inst;
		gfx_done[gfx_ndone].inst_ud = iud.u64;
		gfx_done[gfx_ndone].graph_ud = gud.u64;
		gfx_done[gfx_ndone].ok = ok;
		gfx_ndone++;
	}
	if (gfx_on_done != NULL)
		gfx_on_done(inst, ok);
}

static inline void gfx_graph_ok(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud)
{
	gfx_record_done(inst, iud, gud, true);
}

static inline void gfx_graph_err(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud)
{
	gfx_record_done(inst, iud, gud, false);
}

/* Cookie of the generic user node: counts its calls and returns `result`. */
struct gfx_user {
	int calls;
	int order;         /* value of gfx_clock when it last ran */
	doca_error_t result;
	void (*check)(struct gfx_user *self); /* optional extra work */
	void *arg;
};

static int gfx_clock; /* incremented by every user node run */

static inline doca_error_t gfx_user_cb(void *cookie)
{
	struct gfx_user *u = cookie;

	u->calls++;
	u->order = ++gfx_clock;
	if (u->check != NULL)
		u->check(u);
	return u->result;
}

/* ---- a second DMA context on the fixture's PE ---- */

struct gfx {
	struct sd_fx fx; /* device, PE, first DMA context (fx.dma / fx.ctx), mmaps, inventory */
	struct doca_dma *dma2;
	struct doca_ctx *ctx2;
	int ctx2_task_cbs; /* task callbacks of ctx2 (a graph must suppress them) */
};

static struct gfx *gfx_cur;

static inline void gfx_ctx2_cb(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	(void)task;
	(void)tud;
	(void)cud;
	if (gfx_cur != NULL)
		gfx_cur->ctx2_task_cbs++;
}

static inline void gfx_reset(void)
{
	gfx_ndone = 0;
	gfx_on_done = NULL;
	gfx_clock = 0;
}

/* Both contexts RUNNING with `num_tasks` memcpy tasks each; 64 KiB per side. */
static inline bool gfx_setup(struct gfx *g, uint32_t num_tasks)
{
	memset(g, 0, sizeof(*g));
	gfx_cur = g;
	gfx_reset();
	if (!sd_fx_setup(&g->fx, 64 * 1024, num_tasks, 512))
		return false;
	if (doca_ctx_start(g->fx.ctx) != DOCA_SUCCESS)
		return false;
	if (doca_dma_create(g->fx.dev, &g->dma2) != DOCA_SUCCESS)
		return false;
	g->ctx2 = doca_dma_as_ctx(g->dma2);
	if (doca_dma_task_memcpy_set_conf(g->dma2, gfx_ctx2_cb, gfx_ctx2_cb, num_tasks) != DOCA_SUCCESS)
		return false;
	if (doca_pe_connect_ctx(g->fx.pe, g->ctx2) != DOCA_SUCCESS)
		return false;
	return doca_ctx_start(g->ctx2) == DOCA_SUCCESS;
}

static inline void gfx_teardown(struct gfx *g)
{
	if (g->ctx2 != NULL) {
		enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

		doca_ctx_stop(g->ctx2);
		for (int i = 0; i < 100000; i++) {
			doca_ctx_get_state(g->ctx2, &st);
			if (st == DOCA_CTX_STATE_IDLE)
				break;
			doca_pe_progress(g->fx.pe);
		}
	}
	if (g->dma2 != NULL)
		doca_dma_destroy(g->dma2);
	g->dma2 = NULL;
	g->ctx2 = NULL;
	sd_fx_teardown(&g->fx);
	gfx_cur = NULL;
}

/* A memcpy task of `dma`: `len` bytes at `off` of the source memory to `off` of the destination. */
static inline struct doca_dma_task_memcpy *gfx_copy_task(struct gfx *g, struct doca_dma *dma, size_t off, size_t len,
							 uint64_t ud)
{
	struct doca_dma_task_memcpy *task = NULL;
	struct doca_buf *src = sd_fx_src_buf(&g->fx, off, len);
	struct doca_buf *dst = sd_fx_dst_buf(&g->fx, off, len);
	union doca_data data = {.u64 = ud};

	if (src == NULL || dst == NULL)
		return NULL;
	if (doca_dma_task_memcpy_alloc_init(dma, src, dst, data, &task) != DOCA_SUCCESS)
		return NULL;
	return task;
}

/* A memcpy task whose source holds no data: it fails when it executes (V3). */
static inline struct doca_dma_task_memcpy *gfx_bad_task(struct gfx *g, struct doca_dma *dma, size_t off)
{
	struct doca_dma_task_memcpy *task = NULL;
	struct doca_buf *src = NULL;
	struct doca_buf *dst = sd_fx_dst_buf(&g->fx, off, 64);
	union doca_data data = {.u64 = 0};

	if (doca_buf_inventory_buf_get_by_addr(g->fx.inv, g->fx.src_mmap, g->fx.src_mem + off, 64, &src) !=
	    DOCA_SUCCESS)
		return NULL;
	sd_fx_track(&g->fx, src);
	if (dst == NULL || doca_dma_task_memcpy_alloc_init(dma, src, dst, data, &task) != DOCA_SUCCESS)
		return NULL;
	return task;
}

static inline struct doca_task *gfx_t(struct doca_dma_task_memcpy *task)
{
	return doca_dma_task_memcpy_as_task(task);
}

/* Progress until `n` graph callbacks arrived (bounded); returns the progress calls made. */
static inline int gfx_run_until(struct doca_pe *pe, int n)
{
	int calls = 0;

	while (gfx_ndone < n && calls < 1000000) {
		doca_pe_progress(pe);
		calls++;
	}
	return calls;
}

/* Task-callback events recorded by the fixture for the first context. */
static inline int gfx_ctx1_task_cbs(const struct gfx *g)
{
	int n = 0;

	for (size_t i = 0; i < g->fx.log.n; i++)
		n += g->fx.log.ev[i].kind != SD_FX_STATE;
	return n;
}

#endif /* GRAPH_FIXTURE_H */
