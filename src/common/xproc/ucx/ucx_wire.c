/*
 * ucx_wire.c - encoding and strict decoding of the handshake messages.
 *
 * Common head (8 bytes): u32 magic, u16 version, u16 reason (DENY) or 0.
 *
 * HELLO (48): head, u64 nonce, u64 export id, u32 generation, u32 zero,
 *             16 B token
 * GRANT (40 + key): head, u64 nonce, u64 addr, u64 len, u32 flags
 *             (bit 0: writable), u32 key length, then the packed key
 * DENY  (16): head (reason in it), u64 nonce
 */
#include <string.h>

#include "ucx_wire.h"

#define SD_UCX_GRANT_WRITABLE 1u

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void sd_ucx_head(uint8_t *out, uint16_t reason)
{
	put32(out, SD_UCX_WIRE_MAGIC);
	put16(out + 4, SD_UCX_WIRE_VERSION);
	put16(out + 6, reason);
}

static bool sd_ucx_head_ok(const uint8_t *b, size_t len, size_t min)
{
	return len >= min && get32(b) == SD_UCX_WIRE_MAGIC && get16(b + 4) == SD_UCX_WIRE_VERSION;
}

void sd_ucx_hello_encode(const struct sd_ucx_hello *h, uint8_t out[SD_UCX_HELLO_LEN])
{
	memset(out, 0, SD_UCX_HELLO_LEN);
	sd_ucx_head(out, 0);
	put64(out + 8, h->nonce);
	put64(out + 16, h->export_id);
	put32(out + 24, h->generation);
	memcpy(out + 32, h->token, SD_XP_TOKEN_LEN);
}

bool sd_ucx_hello_decode(const void *buf, size_t len, struct sd_ucx_hello *h)
{
	const uint8_t *b = buf;

	if (len != SD_UCX_HELLO_LEN || !sd_ucx_head_ok(b, len, SD_UCX_HELLO_LEN) || get16(b + 6) != 0 ||
	    get32(b + 28) != 0)
		return false;
	h->nonce = get64(b + 8);
	h->export_id = get64(b + 16);
	h->generation = get32(b + 24);
	memcpy(h->token, b + 32, SD_XP_TOKEN_LEN);
	return true;
}

void sd_ucx_grant_encode(const struct sd_ucx_grant *g, uint8_t out[SD_UCX_GRANT_HEAD_LEN])
{
	memset(out, 0, SD_UCX_GRANT_HEAD_LEN);
	sd_ucx_head(out, 0);
	put64(out + 8, g->nonce);
	put64(out + 16, g->addr);
	put64(out + 24, g->len);
	put32(out + 32, g->writable ? SD_UCX_GRANT_WRITABLE : 0);
	put32(out + 36, (uint32_t)g->rkey_len);
}

bool sd_ucx_grant_decode(const void *buf, size_t len, struct sd_ucx_grant *g)
{
	const uint8_t *b = buf;
	uint32_t flags, key_len;

	if (!sd_ucx_head_ok(b, len, SD_UCX_GRANT_HEAD_LEN) || get16(b + 6) != 0)
		return false;
	flags = get32(b + 32);
	key_len = get32(b + 36);
	if ((flags & ~SD_UCX_GRANT_WRITABLE) != 0 || key_len == 0 || key_len > SD_UCX_RKEY_MAX ||
	    len != SD_UCX_GRANT_HEAD_LEN + (size_t)key_len)
		return false;
	g->nonce = get64(b + 8);
	g->addr = get64(b + 16);
	g->len = get64(b + 24);
	g->writable = (flags & SD_UCX_GRANT_WRITABLE) != 0;
	g->rkey = b + SD_UCX_GRANT_HEAD_LEN;
	g->rkey_len = key_len;
	return true;
}

void sd_ucx_deny_encode(uint64_t nonce, uint16_t reason, uint8_t out[SD_UCX_DENY_LEN])
{
	sd_ucx_head(out, reason);
	put64(out + 8, nonce);
}

bool sd_ucx_deny_decode(const void *buf, size_t len, uint64_t *nonce, uint16_t *reason)
{
	const uint8_t *b = buf;

	if (len != SD_UCX_DENY_LEN || !sd_ucx_head_ok(b, len, SD_UCX_DENY_LEN))
		return false;
	*reason = get16(b + 6);
	*nonce = get64(b + 8);
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
	default:
		return "for a reason this softdoca does not know";
	}
}
