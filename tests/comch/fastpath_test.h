/*
 * fastpath_test.h - helpers for the Comch fast-path tests, on top of
 * comch_test.h: memory with an mmap and an inventory, a consumer and a
 * producer on their own PEs whose callbacks record what they saw, and the
 * consumer events of either endpoint.
 */
#ifndef FASTPATH_TEST_H
#define FASTPATH_TEST_H

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_mmap.h>

#include "comch_test.h"

/* ---- memory ---- */

struct fp_mem {
	uint8_t *mem;
	size_t len;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
};

static inline bool fp_mem_init(struct fp_mem *m, struct doca_dev *dev, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->len = len;
	m->mem = calloc(1, len);
	return m->mem != NULL && doca_buf_inventory_create(64, &m->inv) == DOCA_SUCCESS &&
	       doca_buf_inventory_start(m->inv) == DOCA_SUCCESS && doca_mmap_create(&m->mmap) == DOCA_SUCCESS &&
	       doca_mmap_add_dev(m->mmap, dev) == DOCA_SUCCESS &&
	       doca_mmap_set_permissions(m->mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE) == DOCA_SUCCESS &&
	       doca_mmap_set_memrange(m->mmap, m->mem, len) == DOCA_SUCCESS && doca_mmap_start(m->mmap) == DOCA_SUCCESS;
}

static inline void fp_mem_fini(struct fp_mem *m)
{
	if (m->mmap != NULL)
		CHECK_OK(doca_mmap_destroy(m->mmap));
	if (m->inv != NULL)
		CHECK_OK(doca_buf_inventory_destroy(m->inv));
	free(m->mem);
	memset(m, 0, sizeof(*m));
}

/* A buffer over [off, off + len) with `data_len` bytes of data. */
static inline struct doca_buf *fp_buf(struct fp_mem *m, size_t off, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	if (doca_buf_inventory_buf_get_by_args(m->inv, m->mmap, m->mem + off, len, m->mem + off, data_len, &b) !=
	    DOCA_SUCCESS)
		return NULL;
	return b;
}

/* ---- consumer events of the endpoints ---- */

#define FP_MAX_EVENTS 128

struct fp_peer_events {
	uint32_t new_ids[FP_MAX_EVENTS];
	int n_new;
	uint32_t expired_ids[FP_MAX_EVENTS];
	int n_expired;
};

static struct fp_peer_events fp_srv_events, fp_cli_events;

static inline struct fp_peer_events *fp_events_of(struct doca_comch_connection *conn)
{
	return doca_comch_server_get_server_ctx(conn) != NULL ? &fp_srv_events : &fp_cli_events;
}

static inline void fp_new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *conn,
				   uint32_t id)
{
	struct fp_peer_events *e = fp_events_of(conn);

	(void)ev;
	if (e->n_new < FP_MAX_EVENTS)
		e->new_ids[e->n_new++] = id;
}

static inline void fp_expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *conn,
				       uint32_t id)
{
	struct fp_peer_events *e = fp_events_of(conn);

	(void)ev;
	if (e->n_expired < FP_MAX_EVENTS)
		e->expired_ids[e->n_expired++] = id;
}

/* ---- consumer and producer with recording callbacks ---- */

#define FP_MAX_DONE 256

struct fp_done {
	doca_error_t status;
	uint32_t len;     /* consumer: data length of the buffer */
	uint8_t *data;    /* consumer: data address */
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[32];
	uint64_t task_ud;
};

struct fp_end {
	struct doca_pe *pe;
	struct doca_ctx *ctx;
	struct doca_comch_consumer *consumer;
	struct doca_comch_producer *producer;
	struct fp_done done[FP_MAX_DONE];
	int n_ok, n_err, n;
};

static inline void fp_record(struct fp_end *e, struct doca_task *task, bool ok, struct fp_done **out)
{
	static struct fp_done sink;
	struct fp_done *d = e->n < FP_MAX_DONE ? &e->done[e->n++] : &sink;

	memset(d, 0, sizeof(*d));
	d->status = doca_task_get_status(task);
	d->task_ud = doca_task_get_user_data(task).u64;
	if (ok)
		e->n_ok++;
	else
		e->n_err++;
	*out = d;
}

static inline void fp_recv_cb(struct doca_comch_consumer_task_post_recv *task, union doca_data task_ud,
			      union doca_data ctx_ud, bool ok)
{
	struct fp_end *e = ctx_ud.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	struct fp_done *d;
	void *data = NULL;
	size_t len = 0;

	(void)task_ud;
	fp_record(e, doca_comch_consumer_task_post_recv_as_task(task), ok, &d);
	doca_buf_get_data(buf, &data);
	doca_buf_get_data_len(buf, &len);
	d->data = data;
	d->len = (uint32_t)len;
	d->producer_id = doca_comch_consumer_task_post_recv_get_producer_id(task);
	d->imm_len = doca_comch_consumer_task_post_recv_get_imm_data_len(task);
	if (d->imm_len != 0 && d->imm_len <= 32)
		memcpy(d->imm, doca_comch_consumer_task_post_recv_get_imm_data(task), d->imm_len);
	doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
}

static inline void fp_recv_ok(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	fp_recv_cb(t, a, b, true);
}

static inline void fp_recv_err(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	fp_recv_cb(t, a, b, false);
}

static inline void fp_send_cb(struct doca_comch_producer_task_send *task, union doca_data task_ud,
			      union doca_data ctx_ud, bool ok)
{
	struct fp_end *e = ctx_ud.ptr;
	struct fp_done *d;

	(void)task_ud;
	fp_record(e, doca_comch_producer_task_send_as_task(task), ok, &d);
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(task), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(task));
}

static inline void fp_send_ok(struct doca_comch_producer_task_send *t, union doca_data a, union doca_data b)
{
	fp_send_cb(t, a, b, true);
}

static inline void fp_send_err(struct doca_comch_producer_task_send *t, union doca_data a, union doca_data b)
{
	fp_send_cb(t, a, b, false);
}

static inline bool fp_ctx_setup(struct fp_end *e, struct doca_ctx *ctx)
{
	union doca_data ud = {.ptr = e};

	e->ctx = ctx;
	return ctx != NULL && doca_pe_create(&e->pe) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(e->pe, ctx) == DOCA_SUCCESS && doca_ctx_set_user_data(ctx, ud) == DOCA_SUCCESS;
}

/* An IDLE consumer on `conn` over `m`, with `tasks` post-receive tasks and `imm` bytes of immediate data. */
static inline bool fp_consumer_setup(struct fp_end *e, struct doca_comch_connection *conn, struct fp_mem *m,
				     uint32_t tasks, uint32_t imm)
{
	memset(e, 0, sizeof(*e));
	return doca_comch_consumer_create(conn, m->mmap, &e->consumer) == DOCA_SUCCESS &&
	       fp_ctx_setup(e, doca_comch_consumer_as_ctx(e->consumer)) &&
	       doca_comch_consumer_task_post_recv_set_conf(e->consumer, fp_recv_ok, fp_recv_err, tasks) ==
		       DOCA_SUCCESS &&
	       doca_comch_consumer_set_imm_data_len(e->consumer, imm) == DOCA_SUCCESS;
}

/* A RUNNING producer on `conn` with `tasks` send tasks. */
static inline bool fp_producer_setup(struct fp_end *e, struct doca_comch_connection *conn, uint32_t tasks)
{
	memset(e, 0, sizeof(*e));
	return doca_comch_producer_create(conn, &e->producer) == DOCA_SUCCESS &&
	       fp_ctx_setup(e, doca_comch_producer_as_ctx(e->producer)) &&
	       doca_comch_producer_task_send_set_conf(e->producer, fp_send_ok, fp_send_err, tasks) == DOCA_SUCCESS &&
	       doca_ctx_start(e->ctx) == DOCA_SUCCESS;
}

static inline enum doca_ctx_states fp_state(const struct fp_end *e)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	doca_ctx_get_state(e->ctx, &st);
	return st;
}

/* Post a buffer over [off, off + len) of `m` (empty data). */
static inline doca_error_t fp_post(struct fp_end *e, struct fp_mem *m, size_t off, size_t len)
{
	struct doca_comch_consumer_task_post_recv *t = NULL;
	struct doca_buf *b = fp_buf(m, off, len, 0);
	doca_error_t err;

	if (b == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = doca_comch_consumer_task_post_recv_alloc_init(e->consumer, b, &t);
	if (err == DOCA_SUCCESS) {
		err = doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t));
		if (err != DOCA_SUCCESS)
			doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
	}
	if (err != DOCA_SUCCESS)
		doca_buf_dec_refcount(b, NULL);
	return err;
}

/* Allocate a send of [off, off + len) of `m` to `id` (imm optional); the task or NULL. */
static inline struct doca_comch_producer_task_send *fp_send_task(struct fp_end *e, struct fp_mem *m, size_t off,
								 size_t len, const void *imm, uint32_t imm_len,
								 uint32_t id)
{
	struct doca_comch_producer_task_send *t = NULL;
	struct doca_buf *b = fp_buf(m, off, len, len);

	if (b == NULL)
		return NULL;
	if (doca_comch_producer_task_send_alloc_init(e->producer, b, (uint8_t *)imm, imm_len, id, &t) != DOCA_SUCCESS) {
		doca_buf_dec_refcount(b, NULL);
		return NULL;
	}
	return t;
}

/* Drop a send task the application still holds. */
static inline void fp_send_drop(struct doca_comch_producer_task_send *t)
{
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

/*
 * Submit, retrying DOCA_ERROR_AGAIN for up to `ms` while progressing `cons`
 * and the producer's endpoint `side` (over TCP the consumer's posts reach
 * the producer's side as frames that endpoint reads).
 */
static inline doca_error_t fp_submit_retry(struct doca_comch_producer_task_send *t, struct fp_end *cons,
					   struct ct_side *side, unsigned ms)
{
	uint64_t end = ct_now_ms() + ms;
	doca_error_t err;

	while ((err = doca_task_submit(doca_comch_producer_task_send_as_task(t))) == DOCA_ERROR_AGAIN &&
	       ct_now_ms() < end) {
		if (cons != NULL)
			doca_pe_progress(cons->pe);
		if (side != NULL)
			ct_progress(side);
		ct_nap();
	}
	return err;
}

/*
 * Submit a send right after the consumer posted.  On one machine the post is
 * visible at once; over TCP it reaches the producer's side as a frame, so
 * DOCA_ERROR_AGAIN (back-pressure, no record) is retried for up to 5 s while
 * every PE progresses.  The result is the first answer that is not AGAIN.
 */
#define FP_SUBMIT_SEEN(t, srv, cli, a, b)                                                            \
	({                                                                                           \
		uint64_t fp_until_ = ct_now_ms() + 5000;                                             \
		doca_error_t fp_r_;                                                                  \
		while ((fp_r_ = doca_task_submit(doca_comch_producer_task_send_as_task(t))) ==       \
			       DOCA_ERROR_AGAIN &&                                                   \
		       ct_now_ms() < fp_until_) {                                                    \
			ct_progress(srv);                                                            \
			ct_progress(cli);                                                            \
			doca_pe_progress((a)->pe);                                                   \
			doca_pe_progress((b)->pe);                                                   \
			ct_nap();                                                                    \
		}                                                                                    \
		fp_r_;                                                                               \
	})

/* Progress the endpoints and the fast-path PEs until `cond` holds or 5 s passed. */
#define FP_RUN_UNTIL(cond, srv, cli, a, b)                                                           \
	({                                                                                           \
		uint64_t fp_end_ = ct_now_ms() + 5000;                                               \
		bool fp_ok_ = true;                                                                  \
		while (!(cond)) {                                                                    \
			int fp_w_ = 0;                                                               \
			if (ct_now_ms() > fp_end_) {                                                 \
				fp_ok_ = false;                                                      \
				break;                                                               \
			}                                                                            \
			if ((srv) != NULL && (srv)->pe != NULL)                                      \
				fp_w_ += ct_progress(srv);                                           \
			if ((cli) != NULL && (cli)->pe != NULL)                                      \
				fp_w_ += ct_progress(cli);                                           \
			if ((a) != NULL && (a)->pe != NULL)                                          \
				fp_w_ += doca_pe_progress((a)->pe);                                  \
			if ((b) != NULL && (b)->pe != NULL)                                          \
				fp_w_ += doca_pe_progress((b)->pe);                                  \
			if (!fp_w_)                                                                  \
				ct_nap();                                                            \
		}                                                                                    \
		fp_ok_;                                                                              \
	})

/* Stop (if needed) and destroy a consumer or producer with its PE. */
static inline void fp_end_fini(struct fp_end *e, struct ct_side *srv, struct ct_side *cli)
{
	if (e->ctx != NULL && fp_state(e) != DOCA_CTX_STATE_IDLE) {
		(void)doca_ctx_stop(e->ctx);
		CHECK(FP_RUN_UNTIL(fp_state(e) == DOCA_CTX_STATE_IDLE, srv, cli, e, (struct fp_end *)NULL));
	}
	if (e->consumer != NULL)
		CHECK_OK(doca_comch_consumer_destroy(e->consumer));
	if (e->producer != NULL)
		CHECK_OK(doca_comch_producer_destroy(e->producer));
	if (e->pe != NULL)
		CHECK_OK(doca_pe_destroy(e->pe));
	memset(e, 0, sizeof(*e));
}

#endif /* FASTPATH_TEST_H */
