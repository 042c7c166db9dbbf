/*
 * ucx_wire.h - the handshake between an importer and an exporter.
 *
 * An importer connects to the exporter's listener and sends one HELLO
 * naming the export (id, generation) and proving it holds the descriptor
 * (the 128-bit token).  The exporter answers on that endpoint with GRANT
 * (the range and the exporter's rights) when the export is live and every
 * field matches, else DENY, and closes the endpoint.  A hello for a
 * descriptor some process handed on (a DPU's re-export) shows that
 * process's token instead and names its relay record, which must hold that
 * token and name the export with the exporter's own token; the exporter
 * then watches it: once the relay revokes, it closes the connection.
 *
 * Once granted, the importer's accesses travel as messages too: an ACCESS
 * (a write with its bytes, a read, an 8-byte atomic) and the exporter's
 * ANSWER (done or refused; a read's bytes, an atomic's old value).  UCX's
 * own RMA would do the same in software on every transport softdoca meets
 * (TCP, shared memory), but its exporter side aborts the whole process
 * when an answer cannot be sent because the importer died (UCX 1.13,
 * ucp_put_handler); softdoca's handlers drop such an answer instead.
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
#define SD_UCX_AM_ACCESS 4u /* importer -> exporter: a piece of a copy, or an atomic */
#define SD_UCX_AM_ANSWER 5u /* exporter -> importer */

#define SD_UCX_WIRE_MAGIC 0x58435553u /* "SUCX" */
#define SD_UCX_WIRE_VERSION 3u /* 2: a grant carries the exporter's rights; 3: accesses are messages */

#define SD_UCX_HELLO_LEN 48u
#define SD_UCX_HELLO_RELAY_LEN 64u /* a hello that names a relay record */
#define SD_UCX_HELLO_MAX_LEN SD_UCX_HELLO_RELAY_LEN
#define SD_UCX_GRANT_LEN 48u
#define SD_UCX_DENY_LEN 16u
#define SD_UCX_ACCESS_LEN 48u     /* an access's header; a write's bytes are the message's data */
#define SD_UCX_ANSWER_LEN 32u     /* an answer's header; a read's bytes are the message's data */
/* The most bytes one access moves: one piece of a copy. */
#define SD_UCX_ACCESS_MAX ((uint64_t)1 << 20)

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
};

/* Why an exporter says no.  One reason covers "unknown", "stopped" and "bad token": a guesser learns nothing. */
enum sd_ucx_deny_reason {
	SD_UCX_DENY_NO_EXPORT = 1, /* no live export with that id, generation and token */
	SD_UCX_DENY_MALFORMED = 2, /* not a hello this softdoca understands */
	SD_UCX_DENY_BOUND = 3,     /* this endpoint already holds an export */
	SD_UCX_DENY_REVOKED = 4,   /* the process that handed the descriptor on revoked it */
};

enum sd_ucx_access_kind {
	SD_UCX_ACCESS_WRITE = 1, /* store the message's bytes at addr */
	SD_UCX_ACCESS_READ = 2,  /* answer with len bytes from addr */
	SD_UCX_ACCESS_CAS = 3,   /* 8 bytes at addr: store b when they equal a */
	SD_UCX_ACCESS_FADD = 4,  /* 8 bytes at addr: add a */
};

/* CAS and FADD: one aligned 8-byte word; the answer carries its old value, not bytes. */
static inline bool sd_ucx_access_kind_is_atomic(uint8_t kind)
{
	return kind == SD_UCX_ACCESS_CAS || kind == SD_UCX_ACCESS_FADD;
}

/* One access (header of an ACCESS message). */
struct sd_ucx_access {
	uint8_t kind;    /* enum sd_ucx_access_kind */
	uint64_t op;     /* the importer's tag, echoed */
	uint64_t addr;   /* in the exporter's address space */
	uint64_t len;    /* 1..SD_UCX_ACCESS_MAX for reads and writes, 8 for atomics */
	uint64_t a, b;   /* atomic operands, 0 otherwise */
};

/* The exporter's answer (header of an ANSWER message). */
struct sd_ucx_answer {
	uint8_t kind;    /* the access's kind */
	bool refused;    /* out of the export, a right it lacks, misaligned: nothing was touched */
	uint64_t op, addr;
	uint64_t value;  /* reads and writes: len; atomics: the value before */
};

/* Encode `h` into `out` (room for SD_UCX_HELLO_MAX_LEN); the length written. */
size_t sd_ucx_hello_encode(const struct sd_ucx_hello *h, uint8_t out[SD_UCX_HELLO_MAX_LEN]);
bool sd_ucx_hello_decode(const void *buf, size_t len, struct sd_ucx_hello *h);

void sd_ucx_grant_encode(const struct sd_ucx_grant *g, uint8_t out[SD_UCX_GRANT_LEN]);
bool sd_ucx_grant_decode(const void *buf, size_t len, struct sd_ucx_grant *g);

void sd_ucx_deny_encode(uint64_t nonce, uint16_t reason, uint8_t out[SD_UCX_DENY_LEN]);
bool sd_ucx_deny_decode(const void *buf, size_t len, uint64_t *nonce, uint16_t *reason);

const char *sd_ucx_deny_text(uint16_t reason);

/*
 * Access and answer headers.  The decoders also check the data that came
 * with the header: a write's bytes are exactly its length, a read's answer
 * carries exactly its bytes, nothing else carries any.
 */
void sd_ucx_access_encode(const struct sd_ucx_access *a, uint8_t out[SD_UCX_ACCESS_LEN]);
bool sd_ucx_access_decode(const void *hdr, size_t hdr_len, size_t data_len, struct sd_ucx_access *a);
void sd_ucx_answer_encode(const struct sd_ucx_answer *a, uint8_t out[SD_UCX_ANSWER_LEN]);
bool sd_ucx_answer_decode(const void *hdr, size_t hdr_len, size_t data_len, struct sd_ucx_answer *a);

#endif /* SD_UCX_WIRE_H */
