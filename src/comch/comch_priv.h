/*
 * comch_priv.h - DOCA Comch endpoints as libdoca_comch sees them.
 *
 * A server and a client share one shape, the endpoint: a generic context
 * (first member), its configuration, and while started a transport made of
 * sockets, one per connection: Unix-domain SOCK_SEQPACKET sockets when both
 * sides run on this machine and in this network namespace, TCP when
 * SOFTDOCA_PEER says the other side runs elsewhere (comch_tcp.c).
 *
 * Two threads take part:
 *  - the progress thread (the application's, inside doca_pe_progress and
 *    the API calls) owns every established connection: it writes sends
 *    (comch_send.c), reads messages straight from the sockets into the
 *    endpoint's receive buffer (comch_recv.c) and tears links down;
 *  - one library thread per started endpoint (comch_io.c) does what
 *    would block: accepting and handshaking (comch_handshake.c), looking
 *    for the server, and waking an armed progress engine when a socket
 *    becomes readable (one-shot epoll registrations, re-armed only when
 *    the application arms the PE).  It never calls application code and
 *    never logs: an SDK log backend may be the application's.
 * Established connections are handed from the library thread to the
 * progress thread through a small single-producer ring of CONNECT events
 * (comch_ring.c) on a server, through the `connected` flag on a client.
 */
#ifndef SD_COMCH_PRIV_H
#define SD_COMCH_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>

#include <doca_comch.h>

#include "sd_clock.h"
#include "sd_dev.h"
#include "sd_exec.h"
#include "sd_peer.h"

#define SD_COMCH_SERVER_MAGIC 0x43485356u /* "CHSV" */
#define SD_COMCH_CLIENT_MAGIC 0x4348434cu /* "CHCL" */
#define SD_COMCH_CONN_MAGIC 0x4348434eu   /* "CHCN" */

/* Index of the send task type in the context's task table. */
#define SD_COMCH_SEND_TYPE 0

/* Receive queue size when the application never sets one. */
#define SD_COMCH_DEFAULT_RECV_QUEUE 64u

/* How often a client looks for its server while STARTING (Unix sockets, TCP). */
#define SD_COMCH_RETRY_MS 5
#define SD_COMCH_TCP_RETRY_MS 50
/* A TCP client gives up a connection attempt or handshake after this long and tries again. */
#define SD_COMCH_TCP_HANDSHAKE_MS 2000
/*
 * A TCP peer that vanished without closing: keepalive probes after 1 s of
 * silence, and the kernel's user timeout while data waits for an ack, are
 * both set to this many seconds; the kernel's retransmission clock then
 * ends the link within about one more second.
 */
#define SD_COMCH_TCP_DEAD_S 2

/* Who owns a connection slot. */
enum sd_comch_phase {
	SD_CONN_FREE = 0,      /* unused; only the I/O thread may claim it */
	SD_CONN_HANDSHAKE = 1, /* I/O thread: socket open, handshake running */
	SD_CONN_POSTED = 2,    /* progress thread: established, until freed */
};

/* Connection as the application sees it (progress thread only). */
enum sd_comch_app {
	SD_APP_NONE = 0,    /* not (yet) announced to the application */
	SD_APP_LIVE = 1,    /* usable: sends and receive events */
	SD_APP_CLOSING = 2, /* being torn down */
	SD_APP_ENDED = 3,   /* slot given back after a link it carried ended */
};

struct sd_comch_ep;
struct sd_fp_table;

struct doca_comch_connection {
	uint32_t magic; /* SD_COMCH_CONN_MAGIC while its endpoint exists */
	struct sd_comch_ep *ep;
	int fd;
	atomic_uchar phase; /* enum sd_comch_phase */
	atomic_bool watch_fired; /* its one-shot wake-up fired; re-arm before waiting */
	uint8_t app;        /* enum sd_comch_app */
	bool out_blocked;   /* scratch of the pending-send flush */
	uint32_t gen;       /* bumped each time the slot is freed */
	uint32_t eff_max;   /* smaller of the two ends' message ceilings */
	bool connecting;    /* TCP client: connect() still in progress */
	uint64_t hs_since_ms; /* TCP client: when this attempt began */
	struct doca_comch_task_send *out_task; /* TCP: the send whose frame is half written */
	size_t out_off;     /* TCP: bytes of that frame already written */
	union doca_data user_data;
	uint64_t count[4];  /* live counters, enum doca_comch_counter - 1 */
	uint64_t snap[4];   /* last doca_comch_connection_update_info */
};

/* What the event step hands out next (one per doca_pe_progress call). */
enum sd_comch_ev_kind {
	SD_EV_NONE = 0,
	SD_EV_CONNECT = 1,    /* from the ring: a client finished its handshake */
	SD_EV_MSG = 2,        /* read into the endpoint's receive buffer */
	SD_EV_DISCONNECT = 3, /* end of stream or a broken link */
	SD_EV_FP = 4,         /* a fast-path frame (comch_fp_wire.c) in the receive buffer */
};

struct sd_comch_ev {
	uint32_t kind;
	uint32_t len;
	struct doca_comch_connection *conn;
};

/* Single producer (I/O thread), single consumer (progress thread). */
struct sd_comch_ring {
	struct sd_comch_ev *ev;
	uint32_t cap;
	atomic_uint head; /* next entry to consume */
	atomic_uint tail; /* next entry to produce */
};

struct sd_comch_io {
	pthread_t thread;
	bool running;
	int epfd;
	int wake_fd;   /* eventfd: progress thread -> I/O thread */
	int listen_fd; /* server only */
	struct sockaddr_un addr;
	socklen_t addr_len;
	bool path_mode; /* filesystem socket (SOFTDOCA_COMCH_DIR) */
	bool tcp;       /* SOFTDOCA_PEER is set: TCP to / on peer.port (comch_tcp.c) */
	struct sd_peer peer;
	struct sockaddr_storage peer_addr; /* client: the resolved server, once peer_len != 0 */
	socklen_t peer_len;
	atomic_bool stop;     /* context entered STOPPING: hide the server, drop handshakes */
	atomic_bool quit;     /* context going IDLE: leave the thread */
	atomic_bool want_out; /* sends wait for socket space */
	uint8_t *scratch;     /* handshake frames, I/O thread only */
	size_t scratch_len;
};

/* Event objects handed to callbacks; one per endpoint and kind. */
struct doca_comch_event_msg_recv {
	struct sd_comch_ep *ep;
};

struct doca_comch_event_connection_status_changed {
	struct sd_comch_ep *ep;
};

struct doca_comch_event_consumer {
	struct sd_comch_ep *ep;
};

struct sd_comch_ep {
	struct doca_ctx ctx; /* must stay first: as_ctx returns it */
	uint32_t magic;      /* server or client magic while the instance exists */
	bool is_server;
	const struct sd_device *node;
	struct doca_dev_rep *rep; /* server only */
	char *name;
	uint32_t name_len;
	char host_fn[16]; /* PCI address of the host function served / used */

	/* configuration (IDLE only) */
	uint32_t max_msg;
	uint32_t recv_queue; /* a sizing hint: the socket is the queue */
	uint32_t max_conns;
	doca_comch_event_msg_recv_cb_t recv_cb;
	doca_comch_event_connection_status_changed_cb_t connect_cb;
	doca_comch_event_connection_status_changed_cb_t disconnect_cb;
	doca_comch_event_consumer_cb_t new_consumer_cb;
	doca_comch_event_consumer_cb_t expired_consumer_cb;

	struct doca_comch_event_msg_recv ev_recv;
	struct doca_comch_event_connection_status_changed ev_conn;

	/* connection slots, allocated with the instance */
	struct doca_comch_connection *conns;

	/* run time: from start until IDLE */
	struct sd_comch_ring ring; /* CONNECT events (server) */
	struct sd_comch_io io;
	uint8_t *send_bufs; /* one max_msg slot per send task */
	uint8_t *recv_buf;  /* the message being handed to the receive callback */
	size_t recv_buf_len; /* its size when allocated (max_msg then) */
	/*
	 * Held while reading a connection, staging what was read or handing out
	 * what is staged (comch_recv.c): the endpoint's PE and the PEs of its
	 * fast-path consumers and producers may run on different threads, and
	 * all of them read the same sockets.  Recursive: a callback run while it
	 * is held may progress another PE of the same thread.
	 */
	pthread_mutex_t rx_lock;
	/*
	 * Held while writing to a connection (a message or a part of it, a
	 * fast-path frame): the same threads write the same sockets, and a
	 * frame must never land inside another's bytes (comch_tcp.c).
	 */
	pthread_mutex_t tx_lock;
	struct sd_comch_ev staged; /* read, not yet dispatched */
	uint32_t next_read;        /* round robin over the connections */
	bool in_callback;          /* a receive callback is using recv_buf */
	struct doca_comch_task_send *pend_head, *pend_tail;
	atomic_uint posted;    /* established connections not yet freed */
	atomic_bool connected; /* client: handshake done (once per start) */
	bool lost_peer;        /* client: server gone, stop once reports drain */

	/*
	 * Consumers and producers created on this endpoint's connections and not
	 * destroyed yet: they hold pointers into it, so it is not destroyed
	 * before them (DOCA_ERROR_IN_USE).
	 */
	atomic_uint fp_users;
	/* fast path (comch_fp_*.c): the other side's consumers, ids handed out here */
	struct doca_comch_event_consumer ev_consumer;
	/*
	 * Made at first use, which may come on two threads at once: a consumer
	 * created on a thread of its own, and a consumer announced to the
	 * connection's thread.  Published once (sd_fp_table_of), never moved.
	 */
	struct sd_fp_table *_Atomic fp;
};

struct doca_comch_server {
	struct sd_comch_ep ep;
};

struct doca_comch_client {
	struct sd_comch_ep ep;
};

struct doca_comch_task_send {
	struct doca_task base; /* must stay first */
	struct doca_comch_connection *conn;
	uint32_t gen; /* conn->gen at allocation */
	uint32_t len;
	uint8_t *buf;
	struct doca_comch_task_send *pend_next;
};

/* ---- wire protocol (one frame per SEQPACKET message) ---- */

#define SD_WIRE_VERSION 1u

enum sd_wire_kind {
	SD_WIRE_HELLO = 0x4f4c4548u,   /* client -> server: who I am */
	SD_WIRE_WELCOME = 0x4c434557u, /* server -> client: accepted */
	SD_WIRE_REJECT = 0x4a454552u,  /* server -> client: refused */
	SD_WIRE_DATA = 0x41544144u,    /* a message; payload follows */
	SD_WIRE_FP = 0x48545046u,      /* a fast-path consumer frame (comch_fp_wire.c) */
};

struct sd_wire_hello {
	uint32_t kind;
	uint32_t version;
	uint32_t max_msg;
	uint32_t name_len;
	char host_fn[16];
	/* name_len bytes of server name follow */
};

struct sd_wire_welcome {
	uint32_t kind;
	uint32_t version;
	uint32_t max_msg;
};

struct sd_wire_reject {
	uint32_t kind;
	uint32_t reason; /* enum sd_wire_reason */
};

enum sd_wire_reason {
	SD_REJECT_BAD_HELLO = 1,
	SD_REJECT_FULL = 2,
	SD_REJECT_STOPPING = 3,
};

/* ---- shared helpers ---- */

extern const struct sd_ctx_ops sd_comch_server_ops;
extern const struct sd_ctx_ops sd_comch_client_ops;
extern const struct sd_task_ops sd_comch_send_ops;

static inline struct sd_comch_ep *sd_comch_ep_of_ctx(struct doca_ctx *ctx)
{
	return (struct sd_comch_ep *)ctx;
}

/*
 * The embedded context's first word and type first: a smaller foreign
 * object (a progress engine, an inventory) is never read past its end.
 */
static inline bool sd_comch_server_valid(const struct doca_comch_server *server)
{
	return server != NULL && server->ep.ctx.magic == SD_CTX_MAGIC && server->ep.ctx.ops == &sd_comch_server_ops &&
	       server->ep.magic == SD_COMCH_SERVER_MAGIC;
}

static inline bool sd_comch_client_valid(const struct doca_comch_client *client)
{
	return client != NULL && client->ep.ctx.magic == SD_CTX_MAGIC && client->ep.ctx.ops == &sd_comch_client_ops &&
	       client->ep.magic == SD_COMCH_CLIENT_MAGIC;
}

static inline bool sd_comch_conn_valid(const struct doca_comch_connection *conn)
{
	return conn != NULL && conn->magic == SD_COMCH_CONN_MAGIC;
}

/* comch_ep.c: the parts of an instance shared by server and client. */
doca_error_t sd_comch_ep_init(struct sd_comch_ep *ep, bool is_server, struct doca_dev *dev, const char *name,
			      const char *func);
void sd_comch_ep_fini(struct sd_comch_ep *ep);
/* Destroy refused (DOCA_ERROR_IN_USE, one record) while consumers or producers made on it exist. */
doca_error_t sd_comch_ep_check_unused(const struct sd_comch_ep *ep, const char *func);
doca_error_t sd_comch_ep_set_max_msg(struct sd_comch_ep *ep, uint32_t size, const char *func);
doca_error_t sd_comch_ep_set_recv_queue(struct sd_comch_ep *ep, uint32_t size, const char *func);
doca_error_t sd_comch_ep_check_idle(const struct sd_comch_ep *ep, const char *what, const char *func);

/* comch_addr.c: where a server listens. */
doca_error_t sd_comch_addr_build(struct sd_comch_ep *ep, const char *func);
doca_error_t sd_comch_listen(struct sd_comch_ep *ep, const char *func);
void sd_comch_unlisten(struct sd_comch_ep *ep);

/* comch_tcp.c: the TCP transport, and messages whichever the transport. */
doca_error_t sd_comch_tcp_config(struct sd_comch_ep *ep, const char *func);
doca_error_t sd_comch_tcp_listen(struct sd_comch_ep *ep, const char *func);
void sd_comch_tcp_tune(int fd, uint32_t max_msg);
/* Client: a socket whose connect to the peer has started, or -1 (try again later). */
int sd_comch_tcp_connect(struct sd_comch_ep *ep);
bool sd_comch_tcp_connected(int fd);
/* A data frame of send task `t`, resumed where a partial write left it: SUCCESS, AGAIN, NOT_CONNECTED. */
doca_error_t sd_comch_tcp_write(struct doca_comch_task_send *t);
/*
 * Receive one whole message (at most `cap` bytes) into `iov`: its length,
 * 0 when none is complete yet, -1 at the end of the stream, a broken link,
 * or a message no softdoca peer sends.
 */
ssize_t sd_comch_msg_recv(const struct sd_comch_ep *ep, int fd, struct iovec *iov, int iovcnt, size_t cap);
/* Send one small message whole (handshakes); false when the link is broken. */
bool sd_comch_msg_send(const struct sd_comch_ep *ep, int fd, const void *msg, size_t len);
/* Outcome of writing one internal frame that must not be cut (sd_comch_frame_send). */
enum sd_comch_sent {
	SD_COMCH_SENT = 0,   /* the whole frame left */
	SD_COMCH_BUSY = 1,   /* nothing left: no room, or a message's frame is half written; try later */
	SD_COMCH_BROKEN = 2, /* the link is gone, or was ended because the frame could not leave whole */
};
/* One internal frame on an established connection, whole or not at all (never blocks for long). */
enum sd_comch_sent sd_comch_frame_send(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const void *msg,
				       size_t len);
/*
 * The same for a frame that must leave (a message already written into the
 * other side's buffer is announced by it): while the socket is full or
 * another thread's message is half written, reads ahead and waits for room,
 * up to the dead-peer bound; BROKEN after that.
 */
enum sd_comch_sent sd_comch_frame_send_must(struct sd_comch_ep *ep, struct doca_comch_connection *conn,
					    const void *msg, size_t len);

/* comch_ring.c */
doca_error_t sd_comch_ring_init(struct sd_comch_ring *ring, uint32_t cap);
void sd_comch_ring_fini(struct sd_comch_ring *ring);
struct sd_comch_ev *sd_comch_ring_reserve(struct sd_comch_ring *ring);
void sd_comch_ring_commit(struct sd_comch_ring *ring);
struct sd_comch_ev *sd_comch_ring_peek(struct sd_comch_ring *ring);
void sd_comch_ring_pop(struct sd_comch_ring *ring);
bool sd_comch_ring_empty(struct sd_comch_ring *ring);

/* comch_io.c: the library thread. */
doca_error_t sd_comch_io_start(struct sd_comch_ep *ep, const char *func);
void sd_comch_io_request_stop(struct sd_comch_ep *ep);
void sd_comch_io_join(struct sd_comch_ep *ep);

/* epoll tags of the I/O thread: the wake-up eventfd, the listening socket, slot i + 2. */
#define SD_TAG_WAKE 0u
#define SD_TAG_LISTEN 1u
#define SD_TAG_CONN 2u

/* I/O thread only: stop watching a slot's socket, close it, free the slot. */
void sd_comch_io_unwatch_close(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
/* I/O thread only: the handshake of `conn` succeeded; hand it over. */
void sd_comch_io_established(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t peer_max);
/* Arm the one-shot wake-up of an established connection (either thread). */
void sd_comch_io_watch(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
/* Wake the endpoint's PE if the application armed it (any thread). */
void sd_comch_io_kick(struct sd_comch_ep *ep);

/* comch_handshake.c (I/O thread only) */
void sd_comch_hs_accept(struct sd_comch_ep *ep);
void sd_comch_hs_server(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
void sd_comch_hs_connect(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
void sd_comch_hs_client(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
/* TCP client: drop an attempt older than SD_COMCH_TCP_HANDSHAKE_MS; true when dropped. */
bool sd_comch_hs_expired(struct sd_comch_ep *ep, struct doca_comch_connection *conn);

/* comch_send.c */
doca_error_t sd_comch_send_set_conf(struct sd_comch_ep *ep, doca_comch_task_send_completion_cb_t ok_cb,
				    doca_comch_task_send_completion_cb_t err_cb, uint32_t num, const char *func);
doca_error_t sd_comch_send_alloc(struct sd_comch_ep *ep, struct doca_comch_connection *peer, const void *msg,
				 uint32_t len, struct doca_comch_task_send **task, const char *func);
bool sd_comch_flush_pending(struct sd_comch_ep *ep);
void sd_comch_fail_pending(struct sd_comch_ep *ep, struct doca_comch_connection *conn, doca_error_t status);

/* comch_events.c */
doca_error_t sd_comch_recv_register(struct sd_comch_ep *ep, doca_comch_event_msg_recv_cb_t cb, const char *func);
doca_error_t sd_comch_consumer_register(struct sd_comch_ep *ep, doca_comch_event_consumer_cb_t new_cb,
					doca_comch_event_consumer_cb_t expired_cb, const char *func);
bool sd_comch_event_pending(struct doca_ctx *ctx);
void sd_comch_event_dispatch(struct doca_ctx *ctx);

/* comch_recv.c: reading established connections (progress thread). */
bool sd_comch_read_one(struct sd_comch_ep *ep);
/* Fast path (comch_fp_*.c): read `conn` ahead of the endpoint's PE for a frame that calls no callback. */
bool sd_comch_fp_read_ahead(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
/* comch_fp_parse.c: the fast-path frame `msg` calls no application callback (POST, FILLED, WAKE). */
bool sd_fp_frame_is_quiet(const uint8_t *msg, size_t len);
/* comch_fp_remote.c: dispatch one received fast-path frame of `conn`. */
void sd_fp_remote_on_frame(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const uint8_t *msg,
			   size_t len);
void sd_comch_watch_all(struct sd_comch_ep *ep);

/* comch_conn.c */
void sd_comch_conn_free(struct sd_comch_ep *ep, struct doca_comch_connection *conn);
void sd_comch_conn_close_locally(struct sd_comch_ep *ep, struct doca_comch_connection *conn);

#endif /* SD_COMCH_PRIV_H */
