/*
 * ucx_wire.h - the handshake between an importer and an exporter.
 *
 * An importer connects to the exporter's listener and sends one HELLO
 * naming the export (id, generation) and proving it holds the descriptor
 * (the 128-bit token).  The exporter answers on that endpoint with GRANT
 * (the range and the packed remote key) when the export is live and every
 * field matches, else DENY, and closes the endpoint.  A hello for a
 * descriptor some process handed on (a DPU's re-export) shows that
 * process's token instead and names its relay record, which must hold that
 * token and name the export with the exporter's own token; the exporter
 * then watches it: once the relay revokes, it closes the connection.  Nothing else travels
 * as a message: the copies are UCX RMA on the granted key.
 *
 * Messages are UCX active messages, little-endian, fixed layout; the
 * decoders check lengths and reserved bytes and never read past the end.
 */
#ifndef SD_UCX_WIRE_H
#define SD_UCX_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xproc_desc.h"

/* Active message ids on softdoca's own workers. */
#define SD_UCX_AM_HELLO 1u /* importer -> exporter */
#define SD_UCX_AM_GRANT 2u /* exporter -> importer */
#define SD_UCX_AM_DENY 3u  /* exporter -> importer */

#define SD_UCX_WIRE_MAGIC 0x58435553u /* "SUCX" */
#define SD_UCX_WIRE_VERSION 2u /* 2: a grant carries the exporter's rights */

#define SD_UCX_HELLO_LEN 48u
#define SD_UCX_HELLO_RELAY_LEN 64u /* a hello that names a relay record */
#define SD_UCX_HELLO_MAX_LEN SD_UCX_HELLO_RELAY_LEN
#define SD_UCX_GRANT_HEAD_LEN 48u /* the packed key follows */
#define SD_UCX_DENY_LEN 16u
#define SD_UCX_RKEY_MAX 4096u     /* larger keys are refused */

struct sd_ucx_hello {
	uint64_t nonce; /* echoed in the answer */
	uint64_t export_id;
	uint32_t generation;
	uint8_t token[SD_XP_TOKEN_LEN]; /* relayed: the relay's token, which its record must hold */
	bool relayed; /* the descriptor was handed on: `relay` names the record that can revoke it */
	struct {
		uint32_t pid;
		uint32_t export_id;
		uint64_t start_time;
	} relay;
};

struct sd_ucx_grant {
	uint64_t nonce;
	uint64_t addr, len;
	bool writable;
	uint32_t access_mask; /* the exporter's rights (DOCA_ACCESS_FLAG_*), whatever the descriptor claims */
	const void *rkey; /* points into the message */
	size_t rkey_len;
};

/* Why an exporter says no.  One reason covers "unknown", "stopped" and "bad token": a guesser learns nothing. */
enum sd_ucx_deny_reason {
	SD_UCX_DENY_NO_EXPORT = 1, /* no live export with that id, generation and token */
	SD_UCX_DENY_MALFORMED = 2, /* not a hello this softdoca understands */
	SD_UCX_DENY_BOUND = 3,     /* this endpoint already holds an export */
	SD_UCX_DENY_REVOKED = 4,   /* the process that handed the descriptor on revoked it */
};

/* Encode `h` into `out` (room for SD_UCX_HELLO_MAX_LEN); the length written. */
size_t sd_ucx_hello_encode(const struct sd_ucx_hello *h, uint8_t out[SD_UCX_HELLO_MAX_LEN]);
bool sd_ucx_hello_decode(const void *buf, size_t len, struct sd_ucx_hello *h);

/* Head of a grant; the caller appends g->rkey_len key bytes. */
void sd_ucx_grant_encode(const struct sd_ucx_grant *g, uint8_t out[SD_UCX_GRANT_HEAD_LEN]);
bool sd_ucx_grant_decode(const void *buf, size_t len, struct sd_ucx_grant *g);

void sd_ucx_deny_encode(uint64_t nonce, uint16_t reason, uint8_t out[SD_UCX_DENY_LEN]);
bool sd_ucx_deny_decode(const void *buf, size_t len, uint64_t *nonce, uint16_t *reason);

const char *sd_ucx_deny_text(uint16_t reason);

#endif /* SD_UCX_WIRE_H */
