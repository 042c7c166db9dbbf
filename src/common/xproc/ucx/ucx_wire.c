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
 * GRANT (48): head, u64 nonce, u64 addr, u64 len, u32 flags (bit 0:
 *             writable), u32 zero (version 2 put a remote key's length
 *             there), u32 access mask of the export, u32 zero
 * DENY  (16): head (reason in it), u64 nonce
 * ACCESS header (48): head (reason field: u8 kind, u8 0), u64 op,
 *             u64 addr, u64 len, u64 a, u64 b; data: a write's bytes
 * ANSWER header (32): head (reason field: u8 kind, u8 refused), u64 op,
 *             u64 addr, u64 value; data: a read's bytes, unless refused
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

void sd_ucx_grant_encode(const struct sd_ucx_grant *g, uint8_t out[SD_UCX_GRANT_LEN])
{
	memset(out, 0, SD_UCX_GRANT_LEN);
	sd_ucx_head(out, 0);
	sd_le_put64(out + 8, g->nonce);
	sd_le_put64(out + 16, g->addr);
	sd_le_put64(out + 24, g->len);
	sd_le_put32(out + 32, g->writable ? SD_UCX_GRANT_WRITABLE : 0);
	sd_le_put32(out + 40, g->access_mask);
}

bool sd_ucx_grant_decode(const void *buf, size_t len, struct sd_ucx_grant *g)
{
	const uint8_t *b = buf;
	uint32_t flags;

	if (len != SD_UCX_GRANT_LEN || !sd_ucx_head_ok(b, len, SD_UCX_GRANT_LEN) || sd_le_get16(b + 6) != 0)
		return false;
	flags = sd_le_get32(b + 32);
	if ((flags & ~SD_UCX_GRANT_WRITABLE) != 0 || sd_le_get32(b + 36) != 0 || sd_le_get32(b + 44) != 0)
		return false;
	g->nonce = sd_le_get64(b + 8);
	g->addr = sd_le_get64(b + 16);
	g->len = sd_le_get64(b + 24);
	g->writable = (flags & SD_UCX_GRANT_WRITABLE) != 0;
	g->access_mask = sd_le_get32(b + 40);
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

static bool sd_ucx_access_kind_ok(uint8_t kind)
{
	return kind >= SD_UCX_ACCESS_WRITE && kind <= SD_UCX_ACCESS_FADD;
}

void sd_ucx_access_encode(const struct sd_ucx_access *a, uint8_t out[SD_UCX_ACCESS_LEN])
{
	sd_ucx_head(out, a->kind);
	sd_le_put64(out + 8, a->op);
	sd_le_put64(out + 16, a->addr);
	sd_le_put64(out + 24, a->len);
	sd_le_put64(out + 32, a->a);
	sd_le_put64(out + 40, a->b);
}

bool sd_ucx_access_decode(const void *hdr, size_t hdr_len, size_t data_len, struct sd_ucx_access *a)
{
	const uint8_t *b = hdr;
	uint16_t kind_field;

	if (hdr_len != SD_UCX_ACCESS_LEN || !sd_ucx_head_ok(b, hdr_len, SD_UCX_ACCESS_LEN))
		return false;
	kind_field = sd_le_get16(b + 6);
	if (kind_field > 0xff || !sd_ucx_access_kind_ok((uint8_t)kind_field))
		return false;
	a->kind = (uint8_t)kind_field;
	a->op = sd_le_get64(b + 8);
	a->addr = sd_le_get64(b + 16);
	a->len = sd_le_get64(b + 24);
	a->a = sd_le_get64(b + 32);
	a->b = sd_le_get64(b + 40);
	if (sd_ucx_access_kind_is_atomic(a->kind))
		return a->len == 8 && data_len == 0 && (a->kind == SD_UCX_ACCESS_CAS || a->b == 0);
	if (a->len == 0 || a->len > SD_UCX_ACCESS_MAX || a->a != 0 || a->b != 0)
		return false;
	return data_len == (a->kind == SD_UCX_ACCESS_WRITE ? a->len : 0);
}

void sd_ucx_answer_encode(const struct sd_ucx_answer *a, uint8_t out[SD_UCX_ANSWER_LEN])
{
	sd_ucx_head(out, (uint16_t)(a->kind | (a->refused ? 0x100u : 0u)));
	sd_le_put64(out + 8, a->op);
	sd_le_put64(out + 16, a->addr);
	sd_le_put64(out + 24, a->value);
}

bool sd_ucx_answer_decode(const void *hdr, size_t hdr_len, size_t data_len, struct sd_ucx_answer *a)
{
	const uint8_t *b = hdr;
	uint16_t field;

	if (hdr_len != SD_UCX_ANSWER_LEN || !sd_ucx_head_ok(b, hdr_len, SD_UCX_ANSWER_LEN))
		return false;
	field = sd_le_get16(b + 6);
	if (field > 0x1ff || !sd_ucx_access_kind_ok((uint8_t)field))
		return false;
	a->kind = (uint8_t)field;
	a->refused = (field & 0x100u) != 0;
	a->op = sd_le_get64(b + 8);
	a->addr = sd_le_get64(b + 16);
	a->value = sd_le_get64(b + 24);
	if (a->refused || a->kind != SD_UCX_ACCESS_READ)
		return data_len == 0;
	return a->value >= 1 && a->value <= SD_UCX_ACCESS_MAX && data_len == a->value;
}
