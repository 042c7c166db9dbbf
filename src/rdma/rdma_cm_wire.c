/*
 * rdma_cm_wire.c - the messages of the connection manager's handshake on
 * its TCP socket.
 *
 * Every message is an 8-byte header and a payload, little-endian:
 *    0 u32 magic "SDCM"   4 u8 version (1)   5 u8 type   6 u16 payload length
 * REQUEST carries the client's 64-byte connection blob; ACCEPT the
 * server's blob, one byte of private-data length and that many bytes;
 * REJECT, READY and DISCONNECT carry nothing.  The blob keeps its own
 * checksum and is decoded by rdma_blob.c; TCP keeps the bytes intact, so
 * the header has none.  The bytes come from the network: the parser
 * trusts no field before it checked it.
 */
#include <endian.h>
#include <string.h>

#include "rdma_cm.h"

#define SD_RDMA_CM_MAGIC 0x4d434453u /* "SDCM" */
#define SD_RDMA_CM_VERSION 1u

size_t sd_rdma_cm_encode(enum sd_rdma_cm_type type, const uint8_t *blob, const void *priv, uint8_t priv_len,
			 uint8_t out[SD_RDMA_CM_MSG_MAX])
{
	uint32_t magic = htole32(SD_RDMA_CM_MAGIC);
	uint16_t payload = 0;

	if (type == SD_RDMA_CM_REQUEST)
		payload = SD_RDMA_BLOB_LEN;
	else if (type == SD_RDMA_CM_ACCEPT)
		payload = (uint16_t)(SD_RDMA_BLOB_LEN + 1u + priv_len);
	memcpy(out, &magic, sizeof(magic));
	out[4] = SD_RDMA_CM_VERSION;
	out[5] = (uint8_t)type;
	uint16_t le = htole16(payload);
	memcpy(out + 6, &le, sizeof(le));
	if (payload != 0)
		memcpy(out + SD_RDMA_CM_HDR_LEN, blob, SD_RDMA_BLOB_LEN);
	if (type == SD_RDMA_CM_ACCEPT) {
		out[SD_RDMA_CM_HDR_LEN + SD_RDMA_BLOB_LEN] = priv_len;
		if (priv_len != 0)
			memcpy(out + SD_RDMA_CM_HDR_LEN + SD_RDMA_BLOB_LEN + 1, priv, priv_len);
	}
	return SD_RDMA_CM_HDR_LEN + payload;
}

/* NULL when `payload` bytes are the right amount for `type`, else the rule it breaks. */
static const char *sd_rdma_cm_check_length(enum sd_rdma_cm_type type, uint16_t payload)
{
	switch (type) {
	case SD_RDMA_CM_REQUEST:
		return payload == SD_RDMA_BLOB_LEN ? NULL : "a request must carry exactly one connection blob";
	case SD_RDMA_CM_ACCEPT:
		return payload >= SD_RDMA_BLOB_LEN + 1u && payload <= SD_RDMA_BLOB_LEN + 1u + SD_RDMA_CM_PRIV_MAX
			       ? NULL
			       : "an accept must carry a connection blob and at most 255 bytes of private data";
	case SD_RDMA_CM_REJECT:
	case SD_RDMA_CM_READY:
	case SD_RDMA_CM_DISCONNECT:
		return payload == 0 ? NULL : "a reject, ready or disconnect message carries no payload";
	}
	return "the message type is unknown";
}

enum sd_rdma_cm_parse_result sd_rdma_cm_parse(const uint8_t *buf, size_t len, struct sd_rdma_cm_msg *msg,
					      size_t *used, const char **why)
{
	uint16_t payload;

	/* The magic is checked on the first bytes already, so a stranger is refused at once. */
	for (size_t i = 0; i < len && i < 4; i++)
		if (buf[i] != (uint8_t)(SD_RDMA_CM_MAGIC >> (8 * i))) {
			*why = "the bytes do not start with the connection manager's magic (not a softdoca peer?)";
			return SD_RDMA_CM_PARSE_BAD;
		}
	if (len < SD_RDMA_CM_HDR_LEN)
		return SD_RDMA_CM_PARSE_MORE;
	memcpy(&payload, buf + 6, sizeof(payload));
	payload = le16toh(payload);
	if (buf[4] != SD_RDMA_CM_VERSION) {
		*why = "the message has a format version this softdoca does not read";
		return SD_RDMA_CM_PARSE_BAD;
	}
	*why = sd_rdma_cm_check_length((enum sd_rdma_cm_type)buf[5], payload);
	if (*why != NULL)
		return SD_RDMA_CM_PARSE_BAD;
	if (len < SD_RDMA_CM_HDR_LEN + (size_t)payload)
		return SD_RDMA_CM_PARSE_MORE;
	memset(msg, 0, sizeof(*msg));
	msg->type = (enum sd_rdma_cm_type)buf[5];
	if (payload != 0)
		msg->blob = buf + SD_RDMA_CM_HDR_LEN;
	if (msg->type == SD_RDMA_CM_ACCEPT) {
		msg->priv_len = buf[SD_RDMA_CM_HDR_LEN + SD_RDMA_BLOB_LEN];
		msg->priv = buf + SD_RDMA_CM_HDR_LEN + SD_RDMA_BLOB_LEN + 1;
		if ((size_t)msg->priv_len + SD_RDMA_BLOB_LEN + 1u != payload) {
			*why = "the accept's private-data length disagrees with its payload length";
			return SD_RDMA_CM_PARSE_BAD;
		}
	}
	*used = SD_RDMA_CM_HDR_LEN + payload;
	return SD_RDMA_CM_PARSE_OK;
}
