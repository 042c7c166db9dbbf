/*
 * comch_fp_local.c - what an endpoint knows of its own side's consumers,
 * and the frames the other side sends about them.
 *
 * A started consumer is listed in its endpoint's table, so that a frame
 * read by the connection's progress engine reaches it: a FILLED frame (a
 * framed consumer, Comch over TCP: the bytes came through the import of its
 * mmap, the frame says which slot, how long, which producer, which
 * immediate data) fills the slot of its local queue as a producer on this
 * machine would have; a WAKE frame (one machine: a message landed while
 * the consumer's PE was armed) only wakes the consumer's PE.  Either way
 * the consumer's next progress call completes the receive.
 */
#include <string.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

bool sd_fp_local_add(struct sd_comch_ep *ep, struct doca_comch_consumer *c)
{
	struct sd_fp_table *t = sd_fp_table_of(ep);

	for (uint32_t i = 0; t != NULL && i < SD_FP_MAX_PEERS; i++) {
		if (t->local[i] == NULL) {
			t->local[i] = c;
			return true;
		}
	}
	return false;
}

void sd_fp_local_remove(struct sd_comch_ep *ep, struct doca_comch_consumer *c)
{
	for (uint32_t i = 0; ep->fp != NULL && i < SD_FP_MAX_PEERS; i++)
		if (ep->fp->local[i] == c)
			ep->fp->local[i] = NULL;
}

/* This side's started consumer `id` on `conn`, or NULL. */
static struct doca_comch_consumer *sd_fp_local_find(struct sd_comch_ep *ep, const struct doca_comch_connection *conn,
						    uint32_t id)
{
	for (uint32_t i = 0; ep->fp != NULL && i < SD_FP_MAX_PEERS; i++) {
		struct doca_comch_consumer *c = ep->fp->local[i];

		if (c != NULL && c->conn == conn && c->id == id && c->q != NULL)
			return c;
	}
	return NULL;
}

void sd_fp_local_on_filled(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const struct sd_wire_fp *w,
			   const uint8_t *body)
{
	struct doca_comch_consumer *c = sd_fp_local_find(ep, conn, w->consumer_id);
	struct sd_wire_fp_filled f;

	if (c == NULL || !c->framed)
		return; /* stopped meanwhile: the receives were flushed */
	memcpy(&f, body, sizeof(f));
	if (!sd_fp_queue_apply_filled(c->q, &f)) {
		SD_LOG_ERR("connection %p: a message for consumer %u names slot %u, %llu bytes, %u bytes of immediate "
			   "data, which no posted receive can take; dropped",
			   (void *)conn, c->id, f.slot, (unsigned long long)f.len, f.imm_len);
		return;
	}
	priv_doca_pe_kick(c->ctx.pe);
}

void sd_fp_local_on_wake(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const struct sd_wire_fp *w)
{
	struct doca_comch_consumer *c = sd_fp_local_find(ep, conn, w->consumer_id);

	if (c != NULL)
		priv_doca_pe_kick(c->ctx.pe);
}
