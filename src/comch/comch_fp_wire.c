/*
 * comch_fp_wire.c - the frames that announce and withdraw a consumer.
 *
 * They travel on the connection's own socket, as a card's firmware tells
 * the other side about a new consumer over the channel's control queue, so
 * they arrive in order with the application's messages and are dispatched
 * by the other side's connection PE.  A frame is one SEQPACKET message: the
 * kind word SD_WIRE_FP, struct sd_wire_fp, then the export descriptor.
 */
#include <string.h>
#include <unistd.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

/* One frame whole on the consumer's connection; false when the link refuses it. */
static bool sd_fp_wire_send(struct doca_comch_consumer *c, const struct sd_wire_fp *hdr, const void *desc)
{
	uint8_t frame[sizeof(uint32_t) + sizeof(struct sd_wire_fp) + SD_FP_MAX_DESC];
	uint32_t kind = SD_WIRE_FP;
	size_t len = sizeof(kind) + sizeof(*hdr) + hdr->desc_len;

	memcpy(frame, &kind, sizeof(kind));
	memcpy(frame + sizeof(kind), hdr, sizeof(*hdr));
	if (hdr->desc_len != 0)
		memcpy(frame + sizeof(kind) + sizeof(*hdr), desc, hdr->desc_len);
	if (len - sizeof(kind) > c->conn->eff_max)
		return false;
	return sd_comch_msg_send(c->ep, c->conn->fd, frame, len);
}

doca_error_t sd_fp_wire_announce(struct doca_comch_consumer *c, const void *desc, size_t desc_len, const char *func)
{
	struct sd_wire_fp hdr = {
		.op = SD_FP_OP_NEW,
		.consumer_id = c->id,
		.imm_len = c->imm_len,
		.nslots = c->nslots,
		.pid = (uint32_t)getpid(),
		.queue_fd = c->qfd,
		.desc_len = (uint32_t)desc_len,
	};

	if (desc_len == 0 || desc_len > SD_FP_MAX_DESC) {
		SD_LOG_ERR_AS(func, "export descriptor of the consumer's mmap is %zu bytes, at most %u fit an "
				    "announcement (consumer %p)",
			      desc_len, SD_FP_MAX_DESC, (void *)c);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!sd_fp_wire_send(c, &hdr, desc)) {
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
	struct sd_wire_fp hdr = {.op = SD_FP_OP_GONE, .consumer_id = c->id};

	if (!c->announced)
		return;
	c->announced = false;
	if (sd_fp_conn_current(c->conn, c->conn_gen))
		(void)sd_fp_wire_send(c, &hdr, NULL); /* a lost link withdraws everything anyway */
}
