/*
 * rdma_net_wire.c - the messages between two contexts' message nodes
 * (rdma_net.h): fixed 56-byte headers, little-endian, every field checked
 * on arrival before anything else looks at it.
 */
#include <string.h>

#include <doca_rdma.h>

#include "rdma_net.h"

static void sd_net_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void sd_net_put64(uint8_t *p, uint64_t v)
{
	sd_net_put32(p, (uint32_t)v);
	sd_net_put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t sd_net_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t sd_net_get64(const uint8_t *p)
{
	return (uint64_t)sd_net_get32(p) | (uint64_t)sd_net_get32(p + 4) << 32;
}

void sd_rdma_net_encode(const struct sd_rdma_net_hdr *h, uint8_t out[SD_RDMA_NET_HDR_LEN])
{
	memset(out, 0, SD_RDMA_NET_HDR_LEN);
	sd_net_put32(out, SD_RDMA_NET_MAGIC);
	out[4] = SD_RDMA_NET_VERSION;
	out[5] = h->type;
	sd_net_put32(out + 8, h->conn_id);
	sd_net_put32(out + 12, h->word);
	sd_net_put64(out + 16, h->seq);
	sd_net_put64(out + 24, h->count);
	sd_net_put32(out + 32, h->imm);
	sd_net_put32(out + 36, h->rnr_ms);
	if (h->type == SD_RDMA_NET_HELLO)
		memcpy(out + 40, h->token, sizeof(h->token));
}

static bool sd_net_zero(const uint8_t *p, size_t n)
{
	uint8_t any = 0;

	for (size_t i = 0; i < n; i++)
		any |= p[i];
	return any == 0;
}

static bool sd_net_window_ok(uint32_t w)
{
	return w != 0 && w <= SD_RDMA_NET_MAX_WINDOW && (w & (w - 1)) == 0;
}

/* The rules of a MSG beyond the common ones. */
static const char *sd_net_check_msg(const struct sd_rdma_net_hdr *h, size_t payload_len)
{
	if (h->seq == 0)
		return "a message with sequence number 0";
	if (h->rnr_ms > SD_RDMA_NET_MAX_RNR_MS)
		return "an RNR budget above 2 s";
	switch (h->word) {
	case DOCA_RDMA_OPCODE_RECV_SEND:
		return h->imm == 0 && h->count == 0 ? NULL : "a send with an immediate or a write length";
	case DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM:
		return h->count == 0 ? NULL : "a send with a write length";
	case DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM:
		return payload_len == 0 ? NULL : "a write's immediate with bytes attached";
	default:
		return "an unknown opcode";
	}
}

/* The rules of each type's fields; the common ones are checked already. */
static const char *sd_net_check_type(const struct sd_rdma_net_hdr *h, size_t payload_len)
{
	if (h->type != SD_RDMA_NET_HELLO && !sd_net_zero(h->token, sizeof(h->token)))
		return "token bytes on a message other than a hello";
	if (h->type != SD_RDMA_NET_MSG && h->type != SD_RDMA_NET_BATCH && payload_len != 0)
		return "bytes attached to a control message";
	if (h->type != SD_RDMA_NET_MSG && (h->imm != 0 || h->rnr_ms != 0))
		return "message fields on a control message";
	switch (h->type) {
	case SD_RDMA_NET_HELLO:
	case SD_RDMA_NET_OK:
		if (!sd_net_window_ok(h->word))
			return "a window that is not a power of two up to 4096";
		return h->type == SD_RDMA_NET_OK && h->count != 0 ? "a count on an answer to a hello" : NULL;
	case SD_RDMA_NET_MSG:
		return sd_net_check_msg(h, payload_len);
	case SD_RDMA_NET_BATCH:
		if (h->seq == 0 || h->count < 2 || h->count > SD_RDMA_NET_MAX_BATCH || h->word != 0)
			return "a batch of fewer than 2 or more than 64 messages";
		return payload_len >= h->count * SD_RDMA_NET_REC_HDR &&
				       payload_len <= h->count * (SD_RDMA_NET_REC_HDR + SD_RDMA_NET_SMALL)
			       ? NULL
			       : "a batch whose length cannot hold its records";
	case SD_RDMA_NET_ANS:
		if (h->seq == 0 || h->count == 0 || h->count > SD_RDMA_NET_MAX_RUN)
			return "an answer for no message, or for too many";
		return h->word == DOCA_SUCCESS || h->word == DOCA_ERROR_IO_FAILED || h->word == DOCA_ERROR_NOT_CONNECTED ||
			       h->word == DOCA_ERROR_TIME_OUT
			       ? NULL
			       : "an answer whose status is not success, I/O failure, RNR time-out or not connected";
	default: /* DENY, HOLD, CLOSE */
		return h->word == 0 && h->count == 0 && (h->type == SD_RDMA_NET_DENY || h->seq == 0)
			       ? NULL
			       : "fields set on a message that carries none";
	}
}

const char *sd_rdma_net_decode(const void *buf, size_t len, size_t payload_len, struct sd_rdma_net_hdr *h)
{
	const uint8_t *b = buf;

	if (buf == NULL || len != SD_RDMA_NET_HDR_LEN)
		return "a header of the wrong length";
	if (sd_net_get32(b) != SD_RDMA_NET_MAGIC || b[4] != SD_RDMA_NET_VERSION)
		return "a header of another protocol or version";
	if (b[5] < SD_RDMA_NET_HELLO || b[5] >= SD_RDMA_NET_TYPE_END || b[6] != 0 || b[7] != 0)
		return "an unknown message type";
	h->type = b[5];
	h->conn_id = sd_net_get32(b + 8);
	h->word = sd_net_get32(b + 12);
	h->seq = sd_net_get64(b + 16);
	h->count = sd_net_get64(b + 24);
	h->imm = sd_net_get32(b + 32);
	h->rnr_ms = sd_net_get32(b + 36);
	memcpy(h->token, b + 40, sizeof(h->token));
	return sd_net_check_type(h, payload_len);
}

void sd_rdma_net_encode_record(const struct sd_rdma_net_hdr *h, uint32_t payload_len,
			       uint8_t out[SD_RDMA_NET_REC_HDR])
{
	sd_net_put32(out, payload_len);
	sd_net_put32(out + 4, 0);
	sd_rdma_net_encode(h, out + SD_RDMA_NET_REC_PREFIX);
}

const char *sd_rdma_net_decode_record(const uint8_t *p, size_t left, struct sd_rdma_net_hdr *h,
				      const uint8_t **payload, size_t *payload_len, size_t *used)
{
	if (left < SD_RDMA_NET_REC_HDR)
		return "a batch cut inside a record's header";
	uint32_t len = sd_net_get32(p);
	if (sd_net_get32(p + 4) != 0 || len > SD_RDMA_NET_SMALL || len > left - SD_RDMA_NET_REC_HDR)
		return "a batch record longer than 256 bytes or than what is left of the batch";
	const char *why = sd_rdma_net_decode(p + SD_RDMA_NET_REC_PREFIX, SD_RDMA_NET_HDR_LEN, len, h);
	if (why != NULL)
		return why;
	if (h->type != SD_RDMA_NET_MSG)
		return "a batch record that is not a message";
	*payload = p + SD_RDMA_NET_REC_HDR;
	*payload_len = len;
	*used = SD_RDMA_NET_REC_HDR + len;
	return NULL;
}
