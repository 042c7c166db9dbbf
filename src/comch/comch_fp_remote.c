/*
 * comch_fp_remote.c - what one side knows of the other side's consumers.
 *
 * Each announced consumer becomes a record of the endpoint: its queue
 * mapped, its mmap imported, its id and immediate-data length.  The
 * new-consumer callback hands the id to the application, which then
 * creates producers that look the record up by (connection, id).  A
 * withdrawal calls the expired-consumer callback and drops the record; a
 * link that ends drops its records silently (the disconnect says it all).
 *
 * Records are only touched by the connection's progress thread, which in
 * DOCA is also the thread of its producers.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_mmap.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

/*
 * The endpoint's table, made at first use.  Two threads may both find none
 * (comch_priv.h): the first to publish wins and the other frees its copy,
 * so no record is ever written into a table that is then replaced.
 */
struct sd_fp_table *sd_fp_table_of(struct sd_comch_ep *ep)
{
	struct sd_fp_table *t = atomic_load_explicit(&ep->fp, memory_order_acquire);
	struct sd_fp_table *fresh;

	if (t != NULL)
		return t;
	fresh = calloc(1, sizeof(*fresh));
	if (fresh == NULL)
		return NULL;
	fresh->next_consumer_id = 1;
	fresh->next_producer_id = 1;
	if (atomic_compare_exchange_strong_explicit(&ep->fp, &t, fresh, memory_order_acq_rel, memory_order_acquire))
		return fresh;
	free(fresh);
	return t;
}

static void sd_fp_remote_drop(struct sd_fp_remote *r)
{
	if (r->im != NULL)
		(void)doca_mmap_destroy(r->im);
	if (r->framed)
		sd_fp_queue_mirror_free(r->q);
	else
		sd_fp_queue_unmap(r->q, r->q_len);
	memset(r, 0, sizeof(*r));
}

void sd_fp_table_free(struct sd_comch_ep *ep)
{
	if (ep->fp == NULL)
		return;
	for (uint32_t i = 0; i < SD_FP_MAX_PEERS; i++)
		if (ep->fp->remote[i].used)
			sd_fp_remote_drop(&ep->fp->remote[i]);
	free(ep->fp);
	ep->fp = NULL;
}

struct sd_fp_remote *sd_fp_remote_find(struct sd_comch_ep *ep, const struct doca_comch_connection *conn, uint32_t id)
{
	if (ep->fp == NULL)
		return NULL;
	for (uint32_t i = 0; i < SD_FP_MAX_PEERS; i++) {
		struct sd_fp_remote *r = &ep->fp->remote[i];

		if (r->used && r->conn == conn && r->id == id && r->conn_gen == conn->gen)
			return r;
	}
	return NULL;
}

void sd_fp_remote_conn_gone(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	if (ep->fp == NULL)
		return;
	for (uint32_t i = 0; i < SD_FP_MAX_PEERS; i++)
		if (ep->fp->remote[i].used && ep->fp->remote[i].conn == conn)
			sd_fp_remote_drop(&ep->fp->remote[i]);
}

/* Map the queue (or make the mirror of a framed one) and import the mmap of an announced consumer. */
static bool sd_fp_remote_attach(struct sd_comch_ep *ep, struct sd_fp_remote *r, const struct sd_wire_fp *w,
				const uint8_t *desc)
{
	doca_error_t err;

	r->framed = (w->flags & SD_FP_F_FRAMED) != 0;
	r->pid = w->pid;
	err = r->framed ? sd_fp_queue_mirror(w->nslots, w->imm_len, &r->q, &r->q_len)
			: sd_fp_queue_open(w->pid, w->queue_fd, w->nslots, &r->q, &r->q_len);

	if (err != DOCA_SUCCESS) {
		SD_LOG_ERR("consumer %u announced on connection %p is ignored: its post queue in pid %u cannot be "
			   "mapped (%s). Fix: run both sides as one user in one PID namespace, or give both "
			   "SOFTDOCA_PEER so the fast path runs over the network (docs/comch-fast-path.md)",
			   w->consumer_id, (void *)r->conn, w->pid, doca_error_get_name(err));
		return false;
	}
	err = doca_mmap_create_from_export(NULL, desc, w->desc_len, ep->ctx.dev, &r->im);
	if (err != DOCA_SUCCESS) {
		SD_LOG_ERR("consumer %u announced on connection %p is ignored: its mmap cannot be imported (%s)",
			   w->consumer_id, (void *)r->conn, doca_error_get_name(err));
		if (r->framed)
			sd_fp_queue_mirror_free(r->q);
		else
			sd_fp_queue_unmap(r->q, r->q_len);
		r->q = NULL;
		return false;
	}
	return true;
}

static void sd_fp_remote_on_new(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const struct sd_wire_fp *w,
				const uint8_t *desc)
{
	struct sd_fp_table *t = sd_fp_table_of(ep);
	struct sd_fp_remote *r = NULL;

	if (t == NULL || sd_fp_remote_find(ep, conn, w->consumer_id) != NULL)
		return; /* out of memory, or a repeated announcement */
	for (uint32_t i = 0; i < SD_FP_MAX_PEERS && r == NULL; i++)
		if (!t->remote[i].used)
			r = &t->remote[i];
	if (r == NULL) {
		SD_LOG_ERR("consumer %u announced on connection %p is ignored: %u remote consumers are already known",
			   w->consumer_id, (void *)conn, SD_FP_MAX_PEERS);
		return;
	}
	r->conn = conn;
	if (!sd_fp_remote_attach(ep, r, w, desc)) {
		memset(r, 0, sizeof(*r));
		return;
	}
	r->used = true;
	r->conn_gen = conn->gen;
	r->id = w->consumer_id;
	r->imm_len = w->imm_len;
	r->nslots = w->nslots;
	if (ep->new_consumer_cb != NULL)
		ep->new_consumer_cb(&ep->ev_consumer, conn, r->id);
}

void sd_fp_remote_on_frame(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const uint8_t *msg, size_t len)
{
	struct sd_wire_fp w;
	const uint8_t *desc;
	struct sd_fp_remote *r;

	if (!sd_fp_wire_parse(msg, len, &w, &desc)) {
		SD_LOG_ERR("connection %p carried a malformed fast-path frame of %zu bytes; dropped", (void *)conn,
			   len);
		return;
	}
	switch (w.op) {
	case SD_FP_OP_NEW:
		sd_fp_remote_on_new(ep, conn, &w, desc);
		return;
	case SD_FP_OP_POST:
		sd_fp_remote_on_post(ep, conn, &w, desc);
		return;
	case SD_FP_OP_FILLED:
		sd_fp_local_on_filled(ep, conn, &w, desc);
		return;
	case SD_FP_OP_WAKE:
		sd_fp_local_on_wake(ep, conn, &w);
		return;
	default:
		break;
	}
	r = sd_fp_remote_find(ep, conn, w.consumer_id);
	if (r == NULL)
		return;
	sd_fp_remote_drop(r);
	if (ep->expired_consumer_cb != NULL)
		ep->expired_consumer_cb(&ep->ev_consumer, conn, w.consumer_id);
}

void sd_fp_remote_on_post(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const struct sd_wire_fp *w,
			  const uint8_t *body)
{
	struct sd_fp_remote *r = sd_fp_remote_find(ep, conn, w->consumer_id);
	uint32_t n = w->desc_len / (uint32_t)sizeof(struct sd_wire_fp_post);

	if (r == NULL)
		return; /* withdrawn meanwhile, or never accepted (logged then) */
	for (uint32_t i = 0; i < n; i++) {
		struct sd_wire_fp_post p;

		memcpy(&p, body + (size_t)i * sizeof(p), sizeof(p));
		if (!r->framed || !sd_fp_queue_apply_post(r->q, &p)) {
			SD_LOG_ERR("connection %p: consumer %u posted slot %u that is out of range, already lent, or "
				   "beyond its %u receives; the rest of the frame is dropped",
				   (void *)conn, w->consumer_id, p.slot, r->nslots);
			return;
		}
	}
}
