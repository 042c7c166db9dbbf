/*
 * sd_fixture.h - a ready-made local DMA setup for tests, built only from
 * the public API: one device, one PE, one DMA context, a source and a
 * destination mmap over heap memory and an inventory.
 *
 * Callbacks record every event into `struct sd_fx_log` so tests can assert
 * exact order and counts.
 */
#ifndef SD_FIXTURE_H
#define SD_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "sd_progress.h"
#include "sd_test.h"

enum sd_fx_event_kind {
	SD_FX_STATE = 1,
	SD_FX_TASK_OK = 2,
	SD_FX_TASK_ERR = 3,
};

struct sd_fx_event {
	enum sd_fx_event_kind kind;
	enum doca_ctx_states prev, next;   /* SD_FX_STATE */
	struct doca_dma_task_memcpy *task; /* task events */
	doca_error_t status;               /* task events */
	uint64_t task_ud;
	enum doca_ctx_states ctx_state;    /* context state seen inside the callback */
	size_t inflight;                   /* ctx in-flight count seen inside the callback */
};

#define SD_FX_MAX_EVENTS 4096

struct sd_fx_log {
	struct sd_fx_event ev[SD_FX_MAX_EVENTS];
	size_t n;
	/* Optional hooks run at the end of the recording callbacks. */
	void (*on_task)(struct doca_dma_task_memcpy *task, bool ok, void *arg);
	void (*on_state)(enum doca_ctx_states prev, enum doca_ctx_states next, void *arg);
	void *arg;
	struct doca_ctx *ctx;
};

struct sd_fx {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_mmap *src_mmap, *dst_mmap;
	struct doca_buf_inventory *inv;
	uint8_t *src_mem, *dst_mem;
	size_t mem_len;
	struct doca_buf *bufs[1024]; /* every buffer handed out, released at teardown */
	size_t nbufs;
	struct sd_fx_log log;
};

static inline struct doca_buf *sd_fx_track(struct sd_fx *fx, struct doca_buf *buf)
{
	if (buf != NULL && fx->nbufs < sizeof(fx->bufs) / sizeof(fx->bufs[0]))
		fx->bufs[fx->nbufs++] = buf;
	return buf;
}

static inline struct sd_fx_event *sd_fx_push(struct sd_fx_log *log)
{
	if (log->n >= SD_FX_MAX_EVENTS)
		return NULL;
	memset(&log->ev[log->n], 0, sizeof(log->ev[0]));
	return &log->ev[log->n++];
}

static inline void sd_fx_state_cb(const union doca_data user_data, struct doca_ctx *ctx, enum doca_ctx_states prev,
				  enum doca_ctx_states next)
{
	struct sd_fx_log *log = user_data.ptr;
	struct sd_fx_event *e = sd_fx_push(log);

	if (e != NULL) {
		e->kind = SD_FX_STATE;
		e->prev = prev;
		e->next = next;
		doca_ctx_get_state(ctx, &e->ctx_state);
	}
	if (log->on_state)
		log->on_state(prev, next, log->arg);
}

static inline void sd_fx_task_event(struct doca_dma_task_memcpy *task, union doca_data task_ud,
				    union doca_data ctx_ud, bool ok)
{
	struct sd_fx_log *log = ctx_ud.ptr;
	struct sd_fx_event *e = sd_fx_push(log);
	struct doca_ctx *ctx = doca_task_get_ctx(doca_dma_task_memcpy_as_task(task));

	if (e != NULL) {
		e->kind = ok ? SD_FX_TASK_OK : SD_FX_TASK_ERR;
		e->task = task;
		e->status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
		e->task_ud = task_ud.u64;
		doca_ctx_get_state(ctx, &e->ctx_state);
		doca_ctx_get_num_inflight_tasks(ctx, &e->inflight);
	}
	if (log->on_task)
		log->on_task(task, ok, log->arg);
}

static inline void sd_fx_task_ok(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	sd_fx_task_event(task, task_ud, ctx_ud, true);
}

static inline void sd_fx_task_err(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	sd_fx_task_event(task, task_ud, ctx_ud, false);
}

/* Open the first DMA-capable device. */
static inline doca_error_t sd_fx_open_dma_dev(struct doca_dev **dev)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS)
		return err;
	err = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS) {
			err = doca_dev_open(list[i], dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	return err;
}

static inline doca_error_t sd_fx_mmap(struct doca_dev *dev, void *mem, size_t len, uint32_t perms,
				      struct doca_mmap **out)
{
	doca_error_t err = doca_mmap_create(out);

	if (err == DOCA_SUCCESS)
		err = doca_mmap_set_memrange(*out, mem, len);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_set_permissions(*out, perms);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_add_dev(*out, dev);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_start(*out);
	return err;
}

/*
 * Build everything up to a configured, connected, IDLE DMA context with
 * `num_tasks` memcpy tasks; `mem_len` bytes of source and destination.
 */
static inline bool sd_fx_setup(struct sd_fx *fx, size_t mem_len, uint32_t num_tasks, uint32_t num_bufs)
{
	union doca_data ud = {.ptr = &fx->log};

	memset(fx, 0, sizeof(*fx));
	fx->log.n = 0;
	fx->mem_len = mem_len;
	fx->src_mem = calloc(1, mem_len);
	fx->dst_mem = calloc(1, mem_len);
	if (!fx->src_mem || !fx->dst_mem)
		return false;
	if (sd_fx_open_dma_dev(&fx->dev) != DOCA_SUCCESS)
		return false;
	if (sd_fx_mmap(fx->dev, fx->src_mem, mem_len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, &fx->src_mmap) != DOCA_SUCCESS)
		return false;
	if (sd_fx_mmap(fx->dev, fx->dst_mem, mem_len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, &fx->dst_mmap) != DOCA_SUCCESS)
		return false;
	if (doca_buf_inventory_create(num_bufs, &fx->inv) != DOCA_SUCCESS || doca_buf_inventory_start(fx->inv) != DOCA_SUCCESS)
		return false;
	if (doca_pe_create(&fx->pe) != DOCA_SUCCESS)
		return false;
	if (doca_dma_create(fx->dev, &fx->dma) != DOCA_SUCCESS)
		return false;
	fx->ctx = doca_dma_as_ctx(fx->dma);
	fx->log.ctx = fx->ctx;
	if (doca_ctx_set_user_data(fx->ctx, ud) != DOCA_SUCCESS)
		return false;
	if (doca_ctx_set_state_changed_cb(fx->ctx, sd_fx_state_cb) != DOCA_SUCCESS)
		return false;
	if (doca_dma_task_memcpy_set_conf(fx->dma, sd_fx_task_ok, sd_fx_task_err, num_tasks) != DOCA_SUCCESS)
		return false;
	return doca_pe_connect_ctx(fx->pe, fx->ctx) == DOCA_SUCCESS;
}

/* Source buffer over [off, off+len) of src_mem with its data set. */
static inline struct doca_buf *sd_fx_src_buf(struct sd_fx *fx, size_t off, size_t len)
{
	struct doca_buf *buf = NULL;

	if (doca_buf_inventory_buf_get_by_data(fx->inv, fx->src_mmap, fx->src_mem + off, len, &buf) != DOCA_SUCCESS)
		return NULL;
	return sd_fx_track(fx, buf);
}

/* Empty destination buffer over [off, off+len) of dst_mem. */
static inline struct doca_buf *sd_fx_dst_buf(struct sd_fx *fx, size_t off, size_t len)
{
	struct doca_buf *buf = NULL;

	if (doca_buf_inventory_buf_get_by_addr(fx->inv, fx->dst_mmap, fx->dst_mem + off, len, &buf) != DOCA_SUCCESS)
		return NULL;
	return sd_fx_track(fx, buf);
}

/* Progress until nothing is left to report (on any engine); returns how many units were done. */
static inline unsigned sd_fx_drain(struct doca_pe *pe)
{
	return sd_progress_drain(pe);
}

/* Tear down whatever exists, stopping the context first. */
static inline void sd_fx_teardown(struct sd_fx *fx)
{
	if (fx->ctx) {
		enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

		doca_ctx_stop(fx->ctx);
		for (int i = 0; i < 1000000; i++) {
			doca_ctx_get_state(fx->ctx, &st);
			if (st == DOCA_CTX_STATE_IDLE)
				break;
			doca_pe_progress(fx->pe);
		}
	}
	if (fx->dma)
		doca_dma_destroy(fx->dma);
	for (size_t i = 0; i < fx->nbufs; i++)
		doca_buf_dec_refcount(fx->bufs[i], NULL);
	if (fx->pe)
		doca_pe_destroy(fx->pe);
	if (fx->inv) {
		doca_buf_inventory_stop(fx->inv);
		doca_buf_inventory_destroy(fx->inv);
	}
	if (fx->src_mmap) {
		doca_mmap_stop(fx->src_mmap);
		doca_mmap_destroy(fx->src_mmap);
	}
	if (fx->dst_mmap) {
		doca_mmap_stop(fx->dst_mmap);
		doca_mmap_destroy(fx->dst_mmap);
	}
	if (fx->dev)
		doca_dev_close(fx->dev);
	free(fx->src_mem);
	free(fx->dst_mem);
	memset(fx, 0, sizeof(*fx));
}

#endif /* SD_FIXTURE_H */
