/*
 * rdma_priv.h - the DOCA RDMA context, its connections and tasks as
 * libdoca_rdma sees them.
 *
 * An RDMA context is a generic context (struct doca_ctx, first member) with
 * eleven task types, a list of connections and one receive queue.  Each
 * task struct starts with struct doca_task; the fields after it are the
 * union of what the task types carry, so one set of accessors serves all.
 */
#ifndef SD_RDMA_PRIV_H
#define SD_RDMA_PRIV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <doca_rdma.h>

#include "rdma_pull.h"
#include "rdma_ring.h"
#include "sd_clock.h"
#include "sd_dev.h"
#include "sd_exec.h"
#include "sd_mem.h"
#include "sd_presence.h"

#define SD_RDMA_MAGIC 0x52444d41u      /* "RDMA" */
#define SD_RDMA_CONN_MAGIC 0x52434f4eu /* "RCON" */
#define SD_RDMA_ADDR_MAGIC 0x52414444u /* "RADD" */

/* Index of each task type in the context's task table (registration order). */
enum sd_rdma_type {
	SD_RDMA_RECEIVE = 0,
	SD_RDMA_SEND,
	SD_RDMA_SEND_IMM,
	SD_RDMA_READ,
	SD_RDMA_WRITE,
	SD_RDMA_WRITE_IMM,
	SD_RDMA_CMP_SWP,
	SD_RDMA_FETCH_ADD,
	SD_RDMA_SE_GET,
	SD_RDMA_SE_SET,
	SD_RDMA_SE_ADD,
	SD_RDMA_NUM_TYPES,
};

/* Where a connection stands. */
enum sd_rdma_conn_state {
	SD_RDMA_CONN_EXPORTED = 0, /* doca_rdma_export made it; no peer yet */
	SD_RDMA_CONN_CONNECTED,    /* doca_rdma_connect accepted the peer's blob */
	SD_RDMA_CONN_DISCONNECTED, /* either side ended it */
};

/* Out-of-band connection blob (rdma_blob.c); fixed size, little-endian. */
#define SD_RDMA_BLOB_LEN 160u
#define SD_RDMA_BLOB_V1_LEN 64u /* the first format, which named no inbox */
#define SD_RDMA_TOKEN_LEN 16u

/* Identity of one connection end, as a blob carries it. */
struct sd_rdma_conn_ident {
	uint32_t pid;
	uint64_t start_time; /* of the process, so a reused pid is told apart */
	uint32_t conn_id;
	uint64_t ctx_serial; /* of the context, unique in the process */
	uint32_t perms;      /* the context's permissions: what the peer may do to memory behind it */
	uint8_t token[SD_RDMA_TOKEN_LEN];
	int32_t ring_fd;     /* descriptor of the inbox ring in the process `pid` */
	uint64_t ring_bytes; /* its size: sd_rdma_ring_bytes() */
	struct sd_presence_ref at; /* where the end runs, and how a peer elsewhere checks it (rdma_peer.c) */
	uint16_t msg_port; /* the context's message node (rdma_net.h); 0 when it takes no messages from elsewhere */
};

struct doca_rdma_connection;
struct sd_rdma_cm;
struct sd_rdma_cm_link;
struct sd_rdma_wake;
struct sd_rdma_net;
struct sd_rdma_net_conn;

/* A connection whose peer shows no sign of life is looked at again after this long (NOT_CONNECTED bound). */
#define SD_RDMA_WATCH_PERIOD_NS 10000000ull

struct doca_rdma_connection {
	uint32_t magic; /* SD_RDMA_CONN_MAGIC while live */
	struct doca_rdma *rdma;
	uint32_t id;
	union doca_data user_data;
	_Atomic int state; /* enum sd_rdma_conn_state */
	struct sd_rdma_conn_ident self;
	struct sd_rdma_conn_ident remote; /* from the peer's blob, once connected */
	uint8_t blob[SD_RDMA_BLOB_LEN];
	/* Same-process peer, found from its blob; NULL once either side ends. */
	struct doca_rdma_connection *_Atomic peer;
	struct sd_rdma_ring_map inbox;  /* our ring: messages of the peer for our receive queue */
	struct sd_rdma_ring_map outbox; /* the peer's ring, which our sends fill (once connected) */
	struct sd_rdma_puller puller;   /* reads the peer's source lists */
	uint64_t next_watch_ns;         /* when the peer's liveness lock is asked about next */
	struct doca_rdma_connection *next; /* context's list */
	struct doca_rdma_connection *reg_next; /* process registry */
	bool failure_reported;
	struct sd_rdma_cm_link *cm; /* connection-manager side of it; NULL for a blob connection */
	bool remote_net; /* the peer was checked over the network: another namespace or machine */
	void *presence;  /* this end's published record (rdma_peer.c), NULL when not offered */
	uint8_t presence_rec[SD_PRESENCE_REC_LEN] __attribute__((aligned(8)));
	int peer_wake_fd1; /* the peer's wake pipe opened here, plus one; 0: not yet, -1: cannot (rdma_wake.c) */
	int peer_pidfd1;   /* a pidfd of the peer's process, watched while we sleep, plus one; 0: none, -1: cannot */
	struct sd_rdma_net_conn *net; /* messages to and from a peer elsewhere (rdma_net.c); NULL when none */
};

struct doca_rdma_addr {
	uint32_t magic;
	enum doca_rdma_addr_type type;
	uint16_t port;
	char text[64];
};

struct doca_rdma {
	struct doca_ctx ctx; /* must stay first: doca_rdma_as_ctx returns it */
	uint32_t magic;      /* SD_RDMA_MAGIC while the instance exists */
	const struct sd_device *node;
	uint64_t serial;     /* unique among the contexts of this process */
	/* Configuration (IDLE only). */
	uint32_t send_queue_size;
	uint32_t recv_queue_size;
	uint32_t max_send_list_len;
	uint32_t recv_list_len;
	enum doca_rdma_transport_type transport;
	enum doca_mtu_size mtu;
	uint32_t permissions;
	uint8_t grh_enabled;
	uint32_t gid_index;
	uint32_t sl;
	uint16_t cm_timeout_ms;
	uint16_t max_conns;
	uint8_t rnr_retry;
	bool give_way; /* idle passes that wait on a peer yield the CPU (SOFTDOCA_RDMA_YIELD) */
	doca_rdma_connection_request_cb_t cb_request;
	doca_rdma_connection_established_cb_t cb_established;
	doca_rdma_connection_failure_cb_t cb_failure;
	doca_rdma_connection_disconnection_cb_t cb_disconnect;
	/* Connections and the receive queue (progress thread only). */
	struct doca_rdma_connection *conns;
	uint32_t num_conns;
	uint32_t next_conn_id;
	struct sd_rdma_task *rq_head; /* posted receive tasks, oldest first */
	struct sd_rdma_task *rq_tail;
	struct sd_rdma_cm *cm; /* connection manager, made on first use (rdma_cm.h) */
	struct sd_rdma_wake *wake; /* wake-ups of a sleeping PE, made on first use (rdma_wake.h) */
	struct sd_rdma_net *net; /* message node for peers elsewhere, opened at the first export (rdma_net.c) */
};

/* Every RDMA task type: the generic task, then the union of their fields. */
struct sd_rdma_task {
	struct doca_task base; /* must stay first */
	struct doca_rdma_connection *conn;
	const struct doca_buf *src;
	struct doca_buf *dst;
	struct doca_buf *result; /* atomics, notify-add: the old value lands here */
	void *event;             /* remote-net sync event */
	uint64_t op1;            /* cmp / add data */
	uint64_t op2;            /* swap data */
	doca_be32_t imm;
	/* Results. */
	uint32_t result_len;
	enum doca_rdma_opcode opcode;
	struct doca_rdma_connection *from; /* receive: connection it arrived on */
	/* Send path (sender side) and receive path (receiver side). */
	struct sd_rdma_slot *slot; /* sender: the message's slot in the peer's ring */
	uint64_t deadline_ns;      /* RNR: when an unconsumed send fails */
	struct sd_rdma_task *rq_next;
	_Atomic bool filled;       /* receive: a message landed */
	uint64_t filled_len;       /* receive: bytes appended, applied at completion */
	uint64_t net_seq;          /* sender, peer elsewhere: the message's sequence number (rdma_net.c) */
};

/* Framework tables. */
extern const struct sd_ctx_ops sd_rdma_ctx_ops;
extern const struct sd_task_ops sd_rdma_task_ops[SD_RDMA_NUM_TYPES];

static inline bool sd_rdma_is_valid(const struct doca_rdma *rdma)
{
	return rdma != NULL && rdma->ctx.magic == SD_CTX_MAGIC && rdma->ctx.ops == &sd_rdma_ctx_ops &&
	       rdma->magic == SD_RDMA_MAGIC;
}

static inline bool sd_rdma_conn_is_valid(const struct doca_rdma_connection *conn)
{
	return conn != NULL && conn->magic == SD_RDMA_CONN_MAGIC;
}

static inline struct doca_rdma *sd_rdma_of_task(const struct doca_task *task)
{
	return (struct doca_rdma *)task->ctx;
}

/* `task` is a live task of type `type` of an RDMA context. */
static inline bool sd_rdma_task_is(const void *task, enum sd_rdma_type type)
{
	const struct doca_task *t = task;

	return sd_task_of_ctx_type(t, &sd_rdma_ctx_ops) && t->conf == &t->ctx->task_types[type];
}

/* Shared refusals: one ERROR record on behalf of `func`. */
doca_error_t sd_rdma_check(const struct doca_rdma *rdma, const char *func);
doca_error_t sd_rdma_check_idle(const struct doca_rdma *rdma, const char *func);
bool sd_rdma_task_known(const void *task, enum sd_rdma_type type, const char *func);

/* rdma_conn.c */
void sd_rdma_conns_release(struct doca_rdma *rdma);
void sd_rdma_conns_stopping(struct doca_rdma *rdma);
bool sd_rdma_conn_usable(const struct doca_rdma_connection *conn);
bool sd_rdma_conn_ended(const struct doca_rdma_connection *conn);

/* rdma_watch.c: is the peer of a connected connection still there?  Ends the connection when not. */
bool sd_rdma_conn_watch(struct doca_rdma_connection *conn);
void sd_rdma_conn_mark_closed(struct doca_rdma_connection *conn);
doca_error_t sd_rdma_conn_add(struct doca_rdma *rdma, struct doca_rdma_connection **out, const char *func);
doca_error_t sd_rdma_conn_new(struct doca_rdma *rdma, struct doca_rdma_connection **out, const char *func);
doca_error_t sd_rdma_conn_join(struct doca_rdma_connection *conn, const void *blob, size_t len, const char *func);
void sd_rdma_conn_cut(struct doca_rdma_connection *conn);
void sd_rdma_conn_free(struct doca_rdma_connection *conn);

/* rdma_blob.c: encode/decode the out-of-band connection blob. */
void sd_rdma_blob_encode(const struct sd_rdma_conn_ident *id, uint8_t out[SD_RDMA_BLOB_LEN]);
const char *sd_rdma_blob_decode(const void *blob, size_t len, struct sd_rdma_conn_ident *id);
int sd_rdma_self_identity(uint32_t *pid, uint64_t *start_time);
bool sd_rdma_process_alive(uint32_t pid, uint64_t start_time);

/* rdma_peer.c: publishing a connection's end, and checking the peer's end at connect. */
doca_error_t sd_rdma_peer_publish(struct doca_rdma_connection *conn, const char *func);
void sd_rdma_peer_withdraw(struct doca_rdma_connection *conn);
doca_error_t sd_rdma_peer_verify(struct doca_rdma_connection *conn, struct sd_rdma_conn_ident *id);

/* rdma_recv.c: the receive side of messages. */
bool sd_rdma_inbox_pending(struct doca_rdma *rdma);
void sd_rdma_inbox_drain(struct doca_rdma *rdma);
void sd_rdma_inbox_give_way(const struct doca_rdma *rdma); /* an idle pass: yield while waiting on a peer process */
void sd_rdma_rq_post(struct doca_rdma *rdma, struct sd_rdma_task *t);
void sd_rdma_rq_unlink(struct doca_rdma *rdma, struct sd_rdma_task *t);
/* Complete the oldest posted receive `recv` with `status` (it leaves the receive queue). */
void sd_rdma_recv_done(struct doca_rdma *rdma, struct sd_rdma_task *recv, doca_error_t status);

/* rdma_net.c: messages to and from a peer in another namespace or on another machine (rdma_net.h). */
uint16_t sd_rdma_net_offer(struct doca_rdma *rdma, const char *func);
doca_error_t sd_rdma_net_join(struct doca_rdma_connection *c, const struct sd_rdma_conn_ident *id, const char *func);
bool sd_rdma_net_offered(const struct doca_rdma_connection *c); /* the peer takes our messages */
bool sd_rdma_net_ended(const struct doca_rdma_connection *c);   /* ... took them until its link failed */
void sd_rdma_net_send(struct sd_rdma_task *t, enum doca_rdma_opcode opcode);
bool sd_rdma_net_progress(struct doca_rdma *rdma); /* true when it made tasks ready */
void sd_rdma_net_stopping(struct doca_rdma *rdma);
void sd_rdma_net_release(struct doca_rdma *rdma);
void sd_rdma_net_conn_free(struct doca_rdma_connection *c);
/*
 * The PE is about to sleep (event mode): send the answers gathered so far
 * and arm the message node.  True when news wait already (the PE must not
 * sleep); else *fd is the node's event descriptor (-1: none) and *at the
 * earliest moment the network side must look again (0: none).
 */
bool sd_rdma_net_arm(struct doca_rdma *rdma, int *fd, uint64_t *at);
/*
 * The connection manager's socket is a second channel next to the message
 * link, and what it says may overtake the link: this side disconnects, so
 * send our gathered answers and the CLOSE on the link first (closing); the
 * peer disconnected, so take in what its node sent before, answers to our
 * sends in particular, ahead of failing them (peer_ending).
 */
void sd_rdma_net_closing(struct doca_rdma_connection *c);
void sd_rdma_net_peer_ending(struct doca_rdma *rdma);

/* rdma_sync_event.c: get / notify-set / notify-add on a remote-net sync event. */
doca_error_t sd_rdma_sync_event_apply(struct sd_rdma_task *t, enum sd_rdma_type type);

/* rdma_rules.c: the rules of the validate hooks (SD_TASK_RULE_FAIL wording). */
doca_error_t sd_rdma_rule_conn(const struct sd_rdma_task *t, bool needs_peer);
doca_error_t sd_rdma_rule_local(const struct sd_rdma_task *t, const struct doca_buf *b, const char *what,
				uint32_t max_list);
doca_error_t sd_rdma_rule_remote(const struct sd_rdma_task *t, const struct doca_buf *b, const char *what,
				 uint32_t right, const char *right_name);
doca_error_t sd_rdma_rule_size(const struct sd_rdma_task *t, uint64_t bytes, uint64_t room);
doca_error_t sd_rdma_rule_atomic_target(const struct sd_rdma_task *t, const struct doca_buf *b);

/* rdma_validate.c: the validate hook of each task type. */
doca_error_t sd_rdma_validate_receive(struct doca_task *task);
doca_error_t sd_rdma_validate_send(struct doca_task *task);
doca_error_t sd_rdma_validate_read(struct doca_task *task);
doca_error_t sd_rdma_validate_write(struct doca_task *task);
doca_error_t sd_rdma_validate_write_imm(struct doca_task *task);
doca_error_t sd_rdma_validate_atomic(struct doca_task *task);
doca_error_t sd_rdma_validate_sync_event(struct doca_task *task);

/* Monotonic clock in nanoseconds. */

#endif /* SD_RDMA_PRIV_H */
