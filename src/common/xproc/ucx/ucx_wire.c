/*
 * ucx_wire.c - encoding and strict decoding of the handshake messages.
 *
 * Common head (8 bytes): u32 magic, u16 version, u16 reason (DENY) or 0.
 *
 * HELLO (48): head, u64 nonce, u64 export id, u32 generation, u32 flags
 *             (0), 16 B token
 *       (64): the same with flags 2 (relayed, the token is the relay's),
 *             then u32 relay pid, u32 relay record's export id, u64 relay
 *             start time.  Flags were a zero field before the revoke round:
 *             an exporter of that time refuses a relayed hello as
 *             malformed.  Flags 1 was that round's relayed hello, which
 *             showed the exporter's own token; it is refused as malformed
 *             now, both ways, so mixed builds fail closed.
 * GRANT (48 + key): head, u64 nonce, u64 addr, u64 len, u32 flags
 *             (bit 0: writable), u32 key length, u32 access mask of the
 *             export, u32 zero, then the packed key
 * DENY  (16): head (reason in it), u64 nonce
 */
#include <string.h>

#include "ucx_wire.h"
#include "xproc_le.h"

#define SD_UCX_GRANT_WRITABLE 1u
/* 1 was the relayed hello that showed the exporter's token (refused now); 2 shows the relay's. */
#define SD_UCX_HELLO_RELAYED 2u

static void sd_ucx_head(uint8_t *out, uint16_t reason)
{
	sd_le_put32(out, SD_UCX_WIRE_MAGIC);
	sd_le_put16(out + 4, SD_UCX_WIRE_VERSION);
	sd_le_put16(out + 6, reason);
}

static bool sd_ucx_head_ok(const uint8_t *b, size_t len, size_t min)
{
	return len >= min && sd_le_get32(b) == SD_UCX_WIRE_MAGIC &&
	       sd_le_get16(b + 4) == SD_UCX_WIRE_VERSION;
}

size_t sd_ucx_hello_encode(const struct sd_ucx_hello *h, uint8_t out[SD_UCX_HELLO_MAX_LEN])
{
	memset(out, 0, SD_UCX_HELLO_MAX_LEN);
	sd_ucx_head(out, 0);
	sd_le_put64(out + 8, h->nonce);
	sd_le_put64(out + 16, h->export_id);
	sd_le_put32(out + 24, h->generation);
	memcpy(out + 32, h->token, SD_XP_TOKEN_LEN);
	if (!h->relayed)
		return SD_UCX_HELLO_LEN;
	sd_le_put32(out + 28, SD_UCX_HELLO_RELAYED);
	sd_le_put32(out + 48, h->relay.pid);
	sd_le_put32(out + 52, h->relay.export_id);
	sd_le_put64(out + 56, h->relay.start_time);
	return SD_UCX_HELLO_RELAY_LEN;
}

bool sd_ucx_hello_decode(const void *buf, size_t len, struct sd_ucx_hello *h)
{
	const uint8_t *b = buf;
	uint32_t flags;

	if (!sd_ucx_head_ok(b, len, SD_UCX_HELLO_LEN) || sd_le_get16(b + 6) != 0)
		return false;
	flags = sd_le_get32(b + 28);
	if (len != (flags == SD_UCX_HELLO_RELAYED ? SD_UCX_HELLO_RELAY_LEN : flags == 0 ? SD_UCX_HELLO_LEN : 0))
		return false;
	h->nonce = sd_le_get64(b + 8);
	h->export_id = sd_le_get64(b + 16);
	h->generation = sd_le_get32(b + 24);
	memcpy(h->token, b + 32, SD_XP_TOKEN_LEN);
	h->relayed = flags == SD_UCX_HELLO_RELAYED;
	memset(&h->relay, 0, sizeof(h->relay));
	if (h->relayed) {
		h->relay.pid = sd_le_get32(b + 48);
		h->relay.export_id = sd_le_get32(b + 52);
		h->relay.start_time = sd_le_get64(b + 56);
	}
	return true;
}

void sd_ucx_grant_encode(const struct sd_ucx_grant *g, uint8_t out[SD_UCX_GRANT_HEAD_LEN])
{
	memset(out, 0, SD_UCX_GRANT_HEAD_LEN);
	sd_ucx_head(out, 0);
	sd_le_put64(out + 8, g->nonce);
	sd_le_put64(out + 16, g->addr);
	sd_le_put64(out + 24, g->len);
	sd_le_put32(out + 32, g->writable ? SD_UCX_GRANT_WRITABLE : 0);
	sd_le_put32(out + 36, (uint32_t)g->rkey_len);
	sd_le_put32(out + 40, g->access_mask);
}

bool sd_ucx_grant_decode(const void *buf, size_t len, struct sd_ucx_grant *g)
{
	const uint8_t *b = buf;
	uint32_t flags, key_len;

	if (!sd_ucx_head_ok(b, len, SD_UCX_GRANT_HEAD_LEN) || sd_le_get16(b + 6) != 0)
		return false;
	flags = sd_le_get32(b + 32);
	key_len = sd_le_get32(b + 36);
	if ((flags & ~SD_UCX_GRANT_WRITABLE) != 0 || sd_le_get32(b + 44) != 0 || key_len == 0 || key_len > SD_UCX_RKEY_MAX ||
	    len != SD_UCX_GRANT_HEAD_LEN + (size_t)key_len)
		return false;
	g->nonce = sd_le_get64(b + 8);
	g->addr = sd_le_get64(b + 16);
	g->len = sd_le_get64(b + 24);
	g->writable = (flags & SD_UCX_GRANT_WRITABLE) != 0;
	g->access_mask = sd_le_get32(b + 40);
	g->rkey = b + SD_UCX_GRANT_HEAD_LEN;
	g->rkey_len = key_len;
	return true;
}

void sd_ucx_deny_encode(uint64_t nonce, uint16_t reason, uint8_t out[SD_UCX_DENY_LEN])
{
	sd_ucx_head(out, reason);
	sd_le_put64(out + 8, nonce);
}

bool sd_ucx_deny_decode(const void *buf, size_t len, uint64_t *nonce, uint16_t *reason)
{
	const uint8_t *b = buf;

	if (len != SD_UCX_DENY_LEN || !sd_ucx_head_ok(b, len, SD_UCX_DENY_LEN))
		return false;
	*reason = sd_le_get16(b + 6);
	*nonce = sd_le_get64(b + 8);
	return true;
}

const char *sd_ucx_deny_text(uint16_t reason)
{
	switch (reason) {
	case SD_UCX_DENY_NO_EXPORT:
		return "it serves no live export with this descriptor's id, generation and token (the mmap was stopped "
		       "or destroyed, or the descriptor is forged or stale)";
	case SD_UCX_DENY_MALFORMED:
		return "it could not read the request (a different softdoca version?)";
	case SD_UCX_DENY_BOUND:
		return "the connection already serves another export";
	case SD_UCX_DENY_REVOKED:
		return "the process that handed this descriptor on (a DPU re-exporting host memory) revoked it; ask it "
		       "for a new one";
	default:
		return "for a reason this softdoca does not know";
	}
}
