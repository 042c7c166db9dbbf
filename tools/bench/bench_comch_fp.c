/*
 * bench_comch_fp.c - the Comch fast path as a data path: a producer on the
 * host side (the Comch client's connection) sends buffers of the job size
 * into buffers a consumer on the DPU side (the server's connection) posted,
 * everything on the Comch pair's one progress engine.  A job is one
 * receive completed by the consumer; each completed receive is posted
 * again at once, so up to COMCH_FP_WINDOW buffers wait for data.  The
 * producer sends from as many source buffers in turn, so both sides touch
 * a working set of window x job size, as the DMA measurement does.
 *
 * The functions come from libdoca_comch opened at run time; a library
 * without them reports the method as n/a.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench.h"
#include "tool_comch.h"

#define COMCH_FP_WINDOW 32	       /* receives posted, sends allocated */
#define COMCH_FP_WINDOW_BYTES (64 * MIB) /* fewer posted buffers for large jobs */
#define COMCH_FP_TIMEOUT_S 5.0

struct doca_comch_connection;
struct doca_comch_consumer;
struct doca_comch_producer;
struct doca_comch_consumer_task_post_recv;
struct doca_comch_producer_task_send;

typedef void (*recv_cb_t)(struct doca_comch_consumer_task_post_recv *, union doca_data, union doca_data);
typedef void (*send_cb_t)(struct doca_comch_producer_task_send *, union doca_data, union doca_data);

/* The fast-path functions the bench calls, found by name. */
struct fp_api {
	doca_error_t (*consumer_create)(struct doca_comch_connection *, struct doca_mmap *,
					struct doca_comch_consumer **);
	doca_error_t (*consumer_destroy)(struct doca_comch_consumer *);
	struct doca_ctx *(*consumer_as_ctx)(struct doca_comch_consumer *);
	doca_error_t (*recv_set_conf)(struct doca_comch_consumer *, recv_cb_t, recv_cb_t, uint32_t);
	doca_error_t (*recv_alloc_init)(struct doca_comch_consumer *, struct doca_buf *,
					struct doca_comch_consumer_task_post_recv **);
	struct doca_task *(*recv_as_task)(struct doca_comch_consumer_task_post_recv *);
	struct doca_buf *(*recv_get_buf)(const struct doca_comch_consumer_task_post_recv *);
	doca_error_t (*producer_create)(struct doca_comch_connection *, struct doca_comch_producer **);
	doca_error_t (*producer_destroy)(struct doca_comch_producer *);
	struct doca_ctx *(*producer_as_ctx)(struct doca_comch_producer *);
	doca_error_t (*send_set_conf)(struct doca_comch_producer *, send_cb_t, send_cb_t, uint32_t);
	doca_error_t (*send_alloc_init)(struct doca_comch_producer *, const struct doca_buf *, uint8_t *, uint32_t,
					uint32_t, struct doca_comch_producer_task_send **);
	struct doca_task *(*send_as_task)(struct doca_comch_producer_task_send *);
};

struct fp_side {
	uint8_t *mem;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
};

struct fp_run {
	struct fp_api api;
	struct bench_comch_link link;
	struct fp_side cside, pside;
	struct doca_comch_consumer *consumer;
	struct doca_comch_producer *producer;
	struct doca_buf *src[COMCH_FP_WINDOW];
	uint32_t next_src;
	struct doca_comch_producer_task_send *held; /* a send refused with AGAIN, to submit again */
	size_t size;
	uint32_t window;
	bool verify, stopping;
	uint64_t sent, received, errors, bad, recv_ticks;
};

static struct fp_run *fp_active; /* one measurement at a time, in the main thread */

static bool fp_load(struct fp_run *f)
{
	struct {
		void **slot;
		const char *name;
	} table[] = {
		{(void **)&f->api.consumer_create, "doca_comch_consumer_create"},
		{(void **)&f->api.consumer_destroy, "doca_comch_consumer_destroy"},
		{(void **)&f->api.consumer_as_ctx, "doca_comch_consumer_as_ctx"},
		{(void **)&f->api.recv_set_conf, "doca_comch_consumer_task_post_recv_set_conf"},
		{(void **)&f->api.recv_alloc_init, "doca_comch_consumer_task_post_recv_alloc_init"},
		{(void **)&f->api.recv_as_task, "doca_comch_consumer_task_post_recv_as_task"},
		{(void **)&f->api.recv_get_buf, "doca_comch_consumer_task_post_recv_get_buf"},
		{(void **)&f->api.producer_create, "doca_comch_producer_create"},
		{(void **)&f->api.producer_destroy, "doca_comch_producer_destroy"},
		{(void **)&f->api.producer_as_ctx, "doca_comch_producer_as_ctx"},
		{(void **)&f->api.send_set_conf, "doca_comch_producer_task_send_set_conf"},
		{(void **)&f->api.send_alloc_init, "doca_comch_producer_task_send_alloc_init"},
		{(void **)&f->api.send_as_task, "doca_comch_producer_task_send_as_task"},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		*table[i].slot = tool_comch_sym(f->link.lib, table[i].name);
		if (*table[i].slot == NULL)
			return false;
	}
	return true;
}

/* ---- callbacks ---- */

static void fp_received(struct doca_comch_consumer_task_post_recv *task, union doca_data tud, union doca_data cud)
{
	struct fp_run *f = fp_active;
	struct doca_buf *buf = f->api.recv_get_buf(task);
	void *data = NULL;
	size_t len = 0;

	(void)tud;
	(void)cud;
	f->recv_ticks = bench_ticks_fenced();
	/* One producer, receives in order: message k came from source k mod window. */
	if (f->verify && (doca_buf_get_data(buf, &data) != DOCA_SUCCESS ||
			  doca_buf_get_data_len(buf, &len) != DOCA_SUCCESS || len != f->size ||
			  memcmp(data, f->pside.mem + (size_t)(f->received % f->window) * f->size, len) != 0))
		f->bad++;
	f->received++;
	/* Lend the buffer again at once, as a receive loop on a card does. */
	if (f->stopping || doca_buf_reset_data_len(buf) != DOCA_SUCCESS ||
	    doca_task_submit(f->api.recv_as_task(task)) != DOCA_SUCCESS)
		doca_task_free(f->api.recv_as_task(task));
}

static void fp_recv_failed(struct doca_comch_consumer_task_post_recv *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	if (!fp_active->stopping)
		fp_active->errors++;
	doca_task_free(fp_active->api.recv_as_task(task));
}

static void fp_sent(struct doca_comch_producer_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	doca_task_free(fp_active->api.send_as_task(task));
}

static void fp_send_failed(struct doca_comch_producer_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	fp_active->errors++;
	doca_task_free(fp_active->api.send_as_task(task));
}

/* ---- setup and teardown ---- */

static bool fp_side_init(struct fp_side *s, struct doca_dev *dev, size_t len, uint32_t bufs)
{
	s->mem = aligned_alloc(64, (len + 63) / 64 * 64);
	return s->mem != NULL && doca_buf_inventory_create(bufs, &s->inv) == DOCA_SUCCESS &&
	       doca_buf_inventory_start(s->inv) == DOCA_SUCCESS && doca_mmap_create(&s->mmap) == DOCA_SUCCESS &&
	       doca_mmap_add_dev(s->mmap, dev) == DOCA_SUCCESS &&
	       doca_mmap_set_permissions(s->mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE) == DOCA_SUCCESS &&
	       doca_mmap_set_memrange(s->mmap, s->mem, len) == DOCA_SUCCESS && doca_mmap_start(s->mmap) == DOCA_SUCCESS;
}

static void fp_side_fini(struct fp_side *s)
{
	if (s->mmap != NULL)
		(void)doca_mmap_destroy(s->mmap);
	if (s->inv != NULL)
		(void)doca_buf_inventory_destroy(s->inv);
	free(s->mem);
	memset(s, 0, sizeof(*s));
}

/* Progress until `ctx` is in `want` and, when asked, the client knows the consumer. */
static bool fp_wait(struct fp_run *f, struct doca_ctx *ctx, enum doca_ctx_states want, bool need_id)
{
	uint64_t end = bench_ticks() + bench_s_to_ticks(COMCH_FP_TIMEOUT_S);
	enum doca_ctx_states state;

	while (doca_ctx_get_state(ctx, &state) == DOCA_SUCCESS) {
		if (state == want && (!need_id || *f->link.consumer_id != 0))
			return true;
		if (bench_ticks() > end)
			return false;
		(void)doca_pe_progress(f->link.pe);
	}
	return false;
}

static bool fp_post_all(struct fp_run *f)
{
	for (uint32_t i = 0; i < f->window; i++) {
		struct doca_comch_consumer_task_post_recv *t = NULL;
		struct doca_buf *b = NULL;

		if (doca_buf_inventory_buf_get_by_addr(f->cside.inv, f->cside.mmap, f->cside.mem + (size_t)i * f->size,
						       f->size, &b) != DOCA_SUCCESS ||
		    f->api.recv_alloc_init(f->consumer, b, &t) != DOCA_SUCCESS ||
		    doca_task_submit(f->api.recv_as_task(t)) != DOCA_SUCCESS)
			return false;
	}
	return true;
}

static bool fp_setup(struct fp_run *f, char *why, size_t why_len)
{
	struct doca_ctx *cctx, *pctx;

	if (!fp_side_init(&f->cside, f->link.server_dev, (size_t)f->window * f->size, f->window + 1) ||
	    !fp_side_init(&f->pside, f->link.client_dev, (size_t)f->window * f->size, f->window + 1)) {
		snprintf(why, why_len, "n/a: cannot set up the fast path's memory");
		return false;
	}
	bench_fill_pattern(f->pside.mem, (size_t)f->window * f->size, 0);
	if (f->api.consumer_create(f->link.server_conn, f->cside.mmap, &f->consumer) != DOCA_SUCCESS ||
	    f->api.producer_create(f->link.client_conn, &f->producer) != DOCA_SUCCESS) {
		snprintf(why, why_len, "n/a: cannot create a consumer and a producer");
		return false;
	}
	cctx = f->api.consumer_as_ctx(f->consumer);
	pctx = f->api.producer_as_ctx(f->producer);
	if (doca_pe_connect_ctx(f->link.pe, cctx) != DOCA_SUCCESS || doca_pe_connect_ctx(f->link.pe, pctx) != DOCA_SUCCESS ||
	    f->api.recv_set_conf(f->consumer, fp_received, fp_recv_failed, f->window) != DOCA_SUCCESS ||
	    f->api.send_set_conf(f->producer, fp_sent, fp_send_failed, f->window) != DOCA_SUCCESS ||
	    doca_ctx_start(cctx) != DOCA_ERROR_IN_PROGRESS || doca_ctx_start(pctx) != DOCA_SUCCESS ||
	    !fp_wait(f, cctx, DOCA_CTX_STATE_RUNNING, true) || !fp_post_all(f)) {
		snprintf(why, why_len, "n/a: the consumer or the producer did not start");
		return false;
	}
	for (uint32_t i = 0; i < f->window; i++)
		if (doca_buf_inventory_buf_get_by_data(f->pside.inv, f->pside.mmap, f->pside.mem + (size_t)i * f->size,
						       f->size, &f->src[i]) != DOCA_SUCCESS) {
			snprintf(why, why_len, "n/a: no source buffers");
			return false;
		}
	return true;
}

static void fp_stop(struct fp_run *f, struct doca_ctx *ctx)
{
	doca_error_t err = doca_ctx_stop(ctx);

	if (err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS)
		(void)fp_wait(f, ctx, DOCA_CTX_STATE_IDLE, false);
}

static void fp_teardown(struct fp_run *f)
{
	f->stopping = true;
	if (f->held != NULL)
		doca_task_free(f->api.send_as_task(f->held));
	if (f->producer != NULL) {
		fp_stop(f, f->api.producer_as_ctx(f->producer));
		(void)f->api.producer_destroy(f->producer);
	}
	if (f->consumer != NULL) {
		fp_stop(f, f->api.consumer_as_ctx(f->consumer));
		(void)f->api.consumer_destroy(f->consumer);
	}
	for (uint32_t i = 0; i < f->window; i++)
		if (f->src[i] != NULL)
			(void)doca_buf_dec_refcount(f->src[i], NULL);
	fp_side_fini(&f->cside);
	fp_side_fini(&f->pside);
}

/* ---- measuring ---- */

/* One send submitted (or held for later); false when none could be, or one failed. */
static bool fp_send_one(struct fp_run *f)
{
	doca_error_t err;

	if (f->held == NULL) {
		err = f->api.send_alloc_init(f->producer, f->src[f->next_src], NULL, 0, *f->link.consumer_id,
					     &f->held);
		if (err != DOCA_SUCCESS) {
			f->held = NULL;
			if (err != DOCA_ERROR_NO_MEMORY)
				f->errors++;
			return false;
		}
	}
	err = doca_task_submit(f->api.send_as_task(f->held));
	if (err == DOCA_ERROR_AGAIN)
		return false; /* every buffer is taken: progress first */
	if (err != DOCA_SUCCESS) {
		doca_task_free(f->api.send_as_task(f->held));
		f->errors++;
	} else {
		f->sent++;
		f->next_src = (f->next_src + 1) % f->window;
	}
	f->held = NULL;
	return err == DOCA_SUCCESS;
}

static void fp_throughput(struct fp_run *f, uint64_t ticks, uint64_t count, uint64_t *ops, uint64_t *taken)
{
	uint64_t t0 = bench_ticks(), now = t0, base = f->received, sent0 = f->sent;

	for (;;) {
		while ((count == 0 || f->sent - sent0 < count) && f->errors == 0 && fp_send_one(f))
			;
		for (int k = 0; k < 16; k++)
			(void)doca_pe_progress(f->link.pe);
		now = bench_ticks();
		if (f->errors != 0 || (count != 0 ? f->received - base >= count : now - t0 >= ticks))
			break;
		bench_progress_tick();
	}
	*ops = f->received - base;
	*taken = now - t0;
}

static void fp_latency(struct fp_run *f, struct bench_hist *h, uint64_t ticks, uint64_t count, uint64_t *ops,
		       uint64_t *taken)
{
	uint64_t t0 = bench_ticks(), done = 0;

	for (;;) {
		uint64_t before = f->received, start = bench_ticks_fenced();
		uint64_t give_up = start + bench_s_to_ticks(COMCH_FP_TIMEOUT_S);

		while (!fp_send_one(f) && f->errors == 0 && bench_ticks() < give_up)
			(void)doca_pe_progress(f->link.pe);
		while (f->received == before && f->errors == 0 && bench_ticks() < give_up)
			(void)doca_pe_progress(f->link.pe);
		if (f->received == before)
			break;
		if (h != NULL)
			bench_hist_add(h, (uint64_t)(bench_ticks_to_s(f->recv_ticks - start) * 1e9));
		done++;
		if (count != 0 ? done >= count : (done & 15) == 0) {
			if (count != 0 || bench_ticks() - t0 >= ticks)
				break;
			bench_progress_tick();
		}
	}
	*ops = done;
	*taken = bench_ticks() - t0;
}

static void fp_measure(struct fp_run *f, const struct bench_point *p, struct bench_result *r)
{
	static struct bench_hist hist;
	struct bench_budget budget;
	struct bench_cpu_span span;
	uint64_t ops = 0, taken = 0;

	bench_budget_for(f->link.opts, &budget);
	bench_hist_reset(&hist);
	if (p->mode == BENCH_LATENCY) {
		fp_latency(f, NULL, budget.warm_ticks, budget.warm_count, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (f->errors == 0)
			fp_latency(f, &hist, budget.measure_ticks, budget.count, &ops, &taken);
		bench_hist_summary(&hist, &r->lat);
	} else {
		if (budget.warm_ticks != 0 || budget.warm_count != 0)
			fp_throughput(f, budget.warm_ticks, budget.warm_count, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (f->errors == 0)
			fp_throughput(f, budget.measure_ticks, budget.count, &ops, &taken);
	}
	r->cpu_share = bench_cpu_span_end(&span);
	r->available = ops > 0;
	r->depth_used = p->mode == BENCH_LATENCY ? 1 : f->window;
	r->ops = ops;
	r->seconds = bench_ticks_to_s(taken);
	r->errors = f->errors;
	r->bad_bytes_jobs = f->bad;
	if (r->seconds > 0) {
		r->ops_per_s = (double)ops / r->seconds;
		r->bytes_per_s = r->ops_per_s * (double)p->size;
	}
	if (f->errors != 0)
		snprintf(r->note, sizeof(r->note), "%llu fast-path tasks failed", (unsigned long long)f->errors);
	else if (ops == 0)
		snprintf(r->note, sizeof(r->note), "n/a: no receive completed within %.0f s", COMCH_FP_TIMEOUT_S);
}

void bench_comch_fp_point(struct bench_comch *c, const struct bench_point *p, struct bench_result *r)
{
	struct fp_run *f = calloc(1, sizeof(*f));

	r->point.threads = 1;
	if (f == NULL || p->size == 0) {
		r->available = false;
		snprintf(r->note, sizeof(r->note), "n/a: %s", f == NULL ? "out of memory" : "empty job");
		free(f);
		return;
	}
	bench_comch_link(c, &f->link);
	f->size = p->size;
	f->window = (uint32_t)(COMCH_FP_WINDOW_BYTES / p->size);
	f->window = f->window == 0 ? 1 : (f->window > COMCH_FP_WINDOW ? COMCH_FP_WINDOW : f->window);
	f->verify = f->link.opts->verify;
	fp_active = f;
	if (!fp_load(f)) {
		r->available = false;
		snprintf(r->note, sizeof(r->note), "n/a: libdoca_comch has no fast path");
	} else if (f->link.server_conn == NULL || !fp_setup(f, r->note, sizeof(r->note))) {
		r->available = false;
		if (r->note[0] == '\0')
			snprintf(r->note, sizeof(r->note), "n/a: no server-side connection");
	} else {
		fp_measure(f, p, r);
	}
	fp_teardown(f);
	fp_active = NULL;
	free(f);
}
