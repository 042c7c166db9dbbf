/*
 * comch_fp_priv.h - the Comch fast path (producers and consumers) as
 * libdoca_comch sees it.
 *
 * A consumer lends buffers of its own mmap; a producer of the other side of
 * the same connection writes messages into them.  Three pieces carry it:
 *
 *  - the announcement (comch_fp_wire.c): when a consumer starts, a frame on
 *    the connection's socket tells the other side its id, its
 *    immediate-data length, where its post queue lives and the export
 *    descriptor of its mmap; a second frame says it is gone.  The other
 *    side's endpoint keeps one record per announced consumer
 *    (comch_fp_remote.c) and calls the new / expired consumer callbacks.
 *  - the post queue (comch_fp_queue.c): a small shared-memory file (memfd)
 *    made by the consumer and mapped by the other side, holding one slot per
 *    post-receive task and a ring of posted slots.  Posting is a store and
 *    a release; a producer claims the oldest posted slot with one
 *    compare-and-swap, writes the bytes, then marks the slot filled.  No
 *    lock and no system call on either side besides the copy itself.
 *  - the copy: the consumer's mmap is exported (doca_mmap_export_pci) and
 *    imported by the other side; a producer writes through the import's
 *    transport (same process, shared mapping, process_vm / proc-mem) as a
 *    card's DMA engine would, while the consumer only progresses its PE.
 *
 * Everything read from the shared queue or from a frame is the peer's word:
 * indices are bounded, lengths checked against the import, sizes against
 * what was announced.
 */
#ifndef SD_COMCH_FP_PRIV_H
#define SD_COMCH_FP_PRIV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>

#include "comch_priv.h"

/* softdoca limits of the fast path (documented in docs/comch-fast-path.md). */
#define SD_FP_MAX_IMM 32u                /* immediate data bytes per message */
#define SD_FP_MAX_TASKS 1024u            /* tasks per producer or consumer */
#define SD_FP_MAX_BUF (1u << 30)         /* bytes per message */
#define SD_FP_MAX_PEERS 64u              /* consumers announced per endpoint, producers per endpoint */
#define SD_FP_MAX_DESC 1024u             /* longest mmap export descriptor carried */
#define SD_FP_READ_AHEAD 16              /* frames a framed send or receive reads ahead of the endpoint */

#define SD_FP_CONSUMER_MAGIC 0x46504353u /* "SCPF" */
#define SD_FP_PRODUCER_MAGIC 0x46505053u /* "SPPF" */
#define SD_FP_QUEUE_MAGIC 0x51504653u    /* "SFPQ" */
#define SD_FP_QUEUE_VERSION 1u

/* ---- the shared post queue ---- */

enum sd_fp_slot_state {
	SD_FP_SLOT_FREE = 0,    /* not lent */
	SD_FP_SLOT_POSTED = 1,  /* lent, waiting for a message */
	SD_FP_SLOT_CLAIMED = 2, /* a producer is writing into it */
	SD_FP_SLOT_FILLED = 3,  /* message complete */
};

struct sd_fp_slot {
	_Atomic uint32_t state; /* enum sd_fp_slot_state */
	uint32_t producer_id;
	uint64_t raddr; /* consumer-side address where the message goes */
	uint64_t cap;   /* bytes available there */
	uint64_t len;   /* message length, once filled */
	uint32_t imm_len;
	uint8_t imm[SD_FP_MAX_IMM];
};

struct sd_fp_queue {
	uint32_t magic;
	uint32_t version;
	uint32_t nslots;
	uint32_t imm_len;
	_Atomic uint32_t closed;    /* the consumer stopped: refuse sends */
	_Atomic uint32_t wake_wanted; /* the consumer's PE sleeps: the next filler sends a WAKE frame */
	_Atomic uint64_t post_tail; /* consumer: posts made */
	_Atomic uint64_t post_head; /* producers: posts claimed */
	/* uint32_t ring[nslots], then struct sd_fp_slot slots[nslots] */
};

struct sd_wire_fp_post;
struct sd_wire_fp_filled;

/* Bytes of a queue with `nslots` slots (page rounded). */
size_t sd_fp_queue_size(uint32_t nslots);
_Atomic uint32_t *sd_fp_queue_ring(struct sd_fp_queue *q);
struct sd_fp_slot *sd_fp_queue_slots(struct sd_fp_queue *q);

/* Consumer: a fresh queue in a new memfd; -1 fd on failure. */
doca_error_t sd_fp_queue_create(uint32_t nslots, uint32_t imm_len, int *fd, struct sd_fp_queue **q, size_t *len,
				const char *func);
/* Other side: map the consumer's queue through /proc/PID/fd/FD and check it. */
doca_error_t sd_fp_queue_open(uint32_t pid, int32_t fd, uint32_t nslots, struct sd_fp_queue **q, size_t *len);
void sd_fp_queue_unmap(struct sd_fp_queue *q, size_t len);
/* Other side, framed consumers: a private copy of the queue in this process (posts arrive as frames). */
doca_error_t sd_fp_queue_mirror(uint32_t nslots, uint32_t imm_len, struct sd_fp_queue **q, size_t *len);
void sd_fp_queue_mirror_free(struct sd_fp_queue *q);
/* Other side: record a framed consumer's post in its mirror; false when the post breaks the queue's rules. */
bool sd_fp_queue_apply_post(struct sd_fp_queue *mirror, const struct sd_wire_fp_post *p);
/* Framed consumer: record a filled slot told by the other side; false when the frame breaks the rules. */
bool sd_fp_queue_apply_filled(struct sd_fp_queue *q, const struct sd_wire_fp_filled *f);
/* Consumer: lend slot `slot` (its address and room) to producers. */
void sd_fp_queue_post(struct sd_fp_queue *q, uint32_t slot, uint64_t raddr, uint64_t cap);
/*
 * Producer: claim the oldest posted slot for `len` bytes.  DOCA_ERROR_AGAIN
 * when nothing is posted, DOCA_ERROR_INVALID_VALUE when that slot is too small
 * (*room says how big), DOCA_ERROR_NOT_FOUND when the consumer closed.
 */
doca_error_t sd_fp_queue_claim(struct sd_fp_queue *q, uint32_t nslots, uint64_t len, struct sd_fp_slot **slot,
			       uint64_t *room);

/* ---- the announcement frames (after the kind word SD_WIRE_FP) ---- */

enum sd_fp_op {
	SD_FP_OP_NEW = 1,    /* a consumer started */
	SD_FP_OP_GONE = 2,   /* a consumer stopped */
	SD_FP_OP_POST = 3,   /* framed consumer -> other side: buffers lent (struct sd_wire_fp_post each) */
	SD_FP_OP_FILLED = 4, /* other side -> framed consumer: a message landed (struct sd_wire_fp_filled) */
	SD_FP_OP_WAKE = 5,   /* other side -> consumer on this machine: a message landed while its PE slept */
};

/* Flags of a NEW frame. */
#define SD_FP_F_FRAMED 1u /* no shared queue: posts and fills travel as frames (Comch over TCP) */

struct sd_wire_fp {
	uint32_t op;
	uint32_t consumer_id;
	uint32_t imm_len;
	uint32_t nslots;
	uint32_t pid;     /* consumer process (queue owner) */
	int32_t queue_fd; /* its descriptor of the queue file (-1 when framed) */
	uint32_t desc_len; /* bytes of body after this header */
	uint32_t flags;    /* NEW: SD_FP_F_*; 0 otherwise */
	/*
	 * Body: NEW: the mmap export descriptor; POST: 1..SD_FP_MAX_TASKS
	 * struct sd_wire_fp_post; FILLED: one struct sd_wire_fp_filled; GONE and
	 * WAKE: nothing.
	 */
};

struct sd_wire_fp_post {
	uint32_t slot; /* the receive's slot, below the announced nslots */
	uint32_t pad;
	uint64_t raddr; /* consumer-side address of the buffer's room */
	uint64_t cap;   /* bytes of room */
};

struct sd_wire_fp_filled {
	uint32_t slot;
	uint32_t producer_id;
	uint64_t len; /* message length; SD_FP_LEN_FAILED when the bytes did not arrive */
	uint32_t imm_len;
	uint32_t pad;
	uint8_t imm[SD_FP_MAX_IMM];
};

/* A slot's length that says the producer's copy failed (the receive fails with IO_FAILED). */
#define SD_FP_LEN_FAILED UINT64_MAX

/* Check a received frame (payload after the kind word); true when well formed. */
bool sd_fp_wire_parse(const uint8_t *msg, size_t len, struct sd_wire_fp *out, const uint8_t **desc);

/* ---- the other side's records of announced consumers ---- */

struct sd_fp_remote {
	bool used;
	struct doca_comch_connection *conn;
	uint32_t conn_gen;
	uint32_t id;
	uint32_t imm_len;
	uint32_t nslots;
	struct sd_fp_queue *q; /* the consumer's queue mapped, or the mirror of a framed one */
	size_t q_len;
	bool framed;          /* q is a private mirror fed by POST frames */
	struct doca_mmap *im; /* import of the consumer's mmap */
	uint32_t pid;         /* the consumer's process (its wake pipe, comch_fp_wake.c) */
};

struct sd_fp_table {
	struct sd_fp_remote remote[SD_FP_MAX_PEERS];
	struct doca_comch_consumer *local[SD_FP_MAX_PEERS]; /* this side's started consumers (FILLED, WAKE) */
	uint32_t next_consumer_id; /* ids of this side's consumers */
	uint32_t next_producer_id;
};

/* The endpoint's table, made on first use; NULL when out of memory. */
struct sd_fp_table *sd_fp_table_of(struct sd_comch_ep *ep);
/* Endpoint destroyed: forget every record and free the table. */
void sd_fp_table_free(struct sd_comch_ep *ep);
/* The link of `conn` ended: drop its records without callbacks. */
void sd_fp_remote_conn_gone(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
/* The endpoint hears of this side's consumer `c` (start) or forgets it (release). */
bool sd_fp_local_add(struct sd_comch_ep *ep, struct doca_comch_consumer *c);
void sd_fp_local_remove(struct sd_comch_ep *ep, struct doca_comch_consumer *c);
/* A POST frame (comch_fp_remote.c), a FILLED or WAKE frame (comch_fp_local.c), already parsed. */
void sd_fp_remote_on_post(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const struct sd_wire_fp *w,
			  const uint8_t *body);
void sd_fp_local_on_filled(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const struct sd_wire_fp *w,
			   const uint8_t *body);
void sd_fp_local_on_wake(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const struct sd_wire_fp *w);
/* The live record of consumer `id` on `conn`, or NULL. */
struct sd_fp_remote *sd_fp_remote_find(struct sd_comch_ep *ep, const struct doca_comch_connection *conn,
				       uint32_t id);

/* ---- the objects ---- */

/* The connection is established and still the same link. */
static inline bool sd_fp_conn_current(const struct doca_comch_connection *conn, uint32_t gen)
{
	return conn->app == SD_APP_LIVE && conn->gen == gen;
}

/* A live connection of a live endpoint, or NULL after logging why not. */
struct sd_comch_ep *sd_fp_conn_ep(struct doca_comch_connection *conn, const char *func);
/* The next consumer or producer id of an endpoint's counter (never 0 nor 0xffff). */
uint32_t sd_fp_next_id(uint32_t *counter);

struct doca_comch_consumer {
	struct doca_ctx ctx; /* must stay first */
	uint32_t magic;
	struct sd_comch_ep *ep;
	struct doca_comch_connection *conn;
	uint32_t conn_gen;
	struct doca_mmap *mmap;
	uint32_t id;
	uint32_t imm_len;
	/* run time */
	int qfd;
	struct sd_fp_queue *q;
	size_t q_len;
	uint32_t nslots;
	bool announced;
	bool framed;         /* Comch over TCP: posts and fills travel as frames */
	uint64_t posts_sent; /* framed: ring positions below this were sent to the other side */
	struct sd_fp_wake *wake; /* its wake pipe and thread, made by the first armed receive (comch_fp_wake.c) */
};

/*
 * comch_fp_wake.c: the word an armed receive stores in wake_wanted (the wake
 * pipe's number plus 2, or 1: a WAKE frame only); stopping the thread (the
 * consumer's release); and the producer's side: wake the consumer of process
 * `pid` that left `word` (false when it cannot, then a WAKE frame goes).
 */
uint32_t sd_fp_wake_word(struct doca_comch_consumer *c);
void sd_fp_wake_stop(struct doca_comch_consumer *c);
bool sd_fp_wake_poke(uint32_t pid, uint32_t word);

struct doca_comch_consumer_task_post_recv {
	struct doca_task base; /* must stay first */
	struct doca_buf *buf;
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[SD_FP_MAX_IMM];
};

struct doca_comch_producer {
	struct doca_ctx ctx; /* must stay first */
	uint32_t magic;
	struct sd_comch_ep *ep;
	struct doca_comch_connection *conn;
	uint32_t conn_gen;
	uint32_t id;
};

struct doca_comch_producer_task_send {
	struct doca_task base; /* must stay first */
	const struct doca_buf *buf;
	uint32_t consumer_id;
	uint32_t imm_len;
	uint8_t imm[SD_FP_MAX_IMM];
	/* between admit and on_submit */
	struct sd_fp_remote *rc;
	struct sd_fp_slot *slot;
};

extern const struct sd_ctx_ops sd_fp_consumer_ops;
extern const struct sd_ctx_ops sd_fp_producer_ops;
extern const struct sd_task_ops sd_fp_post_recv_ops;
extern const struct sd_task_ops sd_fp_send_ops;

static inline bool sd_fp_consumer_valid(const struct doca_comch_consumer *c)
{
	return c != NULL && c->ctx.magic == SD_CTX_MAGIC && c->ctx.ops == &sd_fp_consumer_ops &&
	       c->magic == SD_FP_CONSUMER_MAGIC;
}

static inline bool sd_fp_producer_valid(const struct doca_comch_producer *p)
{
	return p != NULL && p->ctx.magic == SD_CTX_MAGIC && p->ctx.ops == &sd_fp_producer_ops &&
	       p->magic == SD_FP_PRODUCER_MAGIC;
}

/* comch_fp_wire.c: send a NEW or GONE frame of consumer `c` on its connection. */
doca_error_t sd_fp_wire_announce(struct doca_comch_consumer *c, const void *desc, size_t desc_len,
				 const char *func);
void sd_fp_wire_withdraw(struct doca_comch_consumer *c);

/* Write one frame of `op` for consumer `id` with `body` on `conn`. */
enum sd_comch_sent sd_fp_frame_send(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t op,
				 uint32_t id, const void *body, uint32_t body_len);
/* The same for a frame that must leave (FILLED): waits for room (sd_comch_frame_send_must). */
enum sd_comch_sent sd_fp_frame_send_must(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t op,
				      uint32_t id, const void *body, uint32_t body_len);
/* Framed consumer: send the posts the other side has not heard of yet (what the link refuses waits). */
void sd_fp_posts_flush(struct doca_comch_consumer *c);

#endif /* SD_COMCH_FP_PRIV_H */
