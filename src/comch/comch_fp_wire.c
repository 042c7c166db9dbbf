/*
 * comch_fp_wire.c - the frames that announce and withdraw a consumer.
 *
 * They travel on the connection's own socket, as a card's firmware tells
 * the other side about a new consumer over the channel's control queue, so
 * they arrive in order with the application's messages and are dispatched
 * by the other side's connection PE.  A frame is one SEQPACKET message: the
 * kind word SD_WIRE_FP, struct sd_wire_fp, then the export descriptor.
 *
 * A framed consumer (Comch over TCP, where no queue can be shared) also
 * sends its posts here, and learns of filled buffers from frames of the
 * other side (comch_fp_local.c).
 */
#include <string.h>
#include <unistd.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

/* One frame (kind word, header, body of hdr->desc_len bytes) whole on `conn`. */
static enum sd_comch_sent sd_fp_frame_send_hdr(struct sd_comch_ep *ep, struct doca_comch_connection *conn,
					       const struct sd_wire_fp *hdr, const void *body, bool must)
{
	uint8_t frame[sizeof(uint32_t) + sizeof(struct sd_wire_fp) + SD_FP_MAX_DESC];
	uint32_t kind = SD_WIRE_FP;
	size_t len = sizeof(kind) + sizeof(*hdr) + hdr->desc_len;

	if (hdr->desc_len > SD_FP_MAX_DESC || len - sizeof(kind) > conn->eff_max)
		return SD_COMCH_BROKEN; /* cannot happen with the sizes the callers use */
	memcpy(frame, &kind, sizeof(kind));
	memcpy(frame + sizeof(kind), hdr, sizeof(*hdr));
	if (hdr->desc_len != 0)
		memcpy(frame + sizeof(kind) + sizeof(*hdr), body, hdr->desc_len);
	return must ? sd_comch_frame_send_must(ep, conn, frame, len) : sd_comch_frame_send(ep, conn, frame, len);
}

enum sd_comch_sent sd_fp_frame_send(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t op,
				    uint32_t id, const void *body, uint32_t body_len)
{
	struct sd_wire_fp hdr = {.op = op, .consumer_id = id, .desc_len = body_len};

	return sd_fp_frame_send_hdr(ep, conn, &hdr, body, false);
}

enum sd_comch_sent sd_fp_frame_send_must(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t op,
					 uint32_t id, const void *body, uint32_t body_len)
{
	struct sd_wire_fp hdr = {.op = op, .consumer_id = id, .desc_len = body_len};

	return sd_fp_frame_send_hdr(ep, conn, &hdr, body, true);
}

doca_error_t sd_fp_wire_announce(struct doca_comch_consumer *c, const void *desc, size_t desc_len, const char *func)
{
	struct sd_wire_fp hdr = {
		.op = SD_FP_OP_NEW,
		.consumer_id = c->id,
		.imm_len = c->imm_len,
		.nslots = c->nslots,
		.pid = (uint32_t)getpid(),
		.queue_fd = c->framed ? -1 : c->qfd,
		.desc_len = (uint32_t)desc_len,
		.flags = c->framed ? SD_FP_F_FRAMED : 0,
	};

	if (desc_len == 0 || desc_len > SD_FP_MAX_DESC) {
		SD_LOG_ERR_AS(func, "export descriptor of the consumer's mmap is %zu bytes, at most %u fit an "
				    "announcement (consumer %p)",
			      desc_len, SD_FP_MAX_DESC, (void *)c);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (sd_fp_frame_send_hdr(c->ep, c->conn, &hdr, desc, false) != SD_COMCH_SENT) {
		SD_LOG_ERR_AS(func, "cannot announce consumer %u on connection %p: the link is gone or its messages "
				    "are smaller than %zu bytes. Fix: start the consumer on an established connection "
				    "whose message size is at least 2 KiB",
			      c->id, (void *)c->conn, sizeof(hdr) + desc_len);
		return DOCA_ERROR_NOT_CONNECTED;
	}
	c->announced = true;
	return DOCA_SUCCESS;
}

void sd_fp_wire_withdraw(struct doca_comch_consumer *c)
{
	if (!c->announced)
		return;
	c->announced = false;
	if (sd_fp_conn_current(c->conn, c->conn_gen)) /* a lost link withdraws everything anyway */
		(void)sd_fp_frame_send(c->ep, c->conn, SD_FP_OP_GONE, c->id, NULL, 0);
}

/* The posts of ring positions [posts_sent, post_tail), as many per frame as fit. */
void sd_fp_posts_flush(struct doca_comch_consumer *c)
{
	struct sd_wire_fp_post batch[SD_FP_MAX_DESC / sizeof(struct sd_wire_fp_post)];
	uint64_t tail = atomic_load_explicit(&c->q->post_tail, memory_order_relaxed);
	struct sd_fp_slot *slots = sd_fp_queue_slots(c->q);
	_Atomic uint32_t *ring = sd_fp_queue_ring(c->q);
	uint32_t room = (c->conn->eff_max - (uint32_t)sizeof(struct sd_wire_fp)) / (uint32_t)sizeof(batch[0]);
	uint32_t most = room < sizeof(batch) / sizeof(batch[0]) ? room : (uint32_t)(sizeof(batch) / sizeof(batch[0]));

	while (most != 0 && c->posts_sent != tail && sd_fp_conn_current(c->conn, c->conn_gen)) {
		uint32_t n = 0;

		for (uint64_t pos = c->posts_sent; pos != tail && n < most; pos++, n++) {
			uint32_t slot = atomic_load_explicit(&ring[pos % c->nslots], memory_order_relaxed);

			batch[n] = (struct sd_wire_fp_post){
				.slot = slot, .raddr = slots[slot].raddr, .cap = slots[slot].cap};
		}
		if (sd_fp_frame_send(c->ep, c->conn, SD_FP_OP_POST, c->id, batch,
				     n * (uint32_t)sizeof(batch[0])) != SD_COMCH_SENT)
			return; /* retried by the next progress call; a broken link fails the receives */
		c->posts_sent += n;
	}
}
