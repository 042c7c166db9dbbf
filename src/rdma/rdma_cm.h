/*
 * rdma_cm.h - the connection manager of DOCA RDMA: a listener per
 * context, one TCP socket per connection in the making, and the events
 * (request, established, failure, disconnect) that doca_pe_progress
 * delivers to the program.
 *
 * The handshake carries the same connection blob as doca_rdma_export /
 * doca_rdma_connect (rdma_blob.c); once both sides joined with it, a CM
 * connection is an ordinary connection.  The socket stays open while the
 * connection lives, so that the end of the peer (a disconnect, a stopped
 * context, a dead process) reaches this side as a disconnect event.
 * Everything here runs on the progress thread: the sockets are
 * non-blocking and polled from the context's event step.
 */
#ifndef SD_RDMA_CM_H
#define SD_RDMA_CM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdma_priv.h"

/* ---- wire (rdma_cm_wire.c) ---- */

/* Message types of the handshake. */
enum sd_rdma_cm_type {
	SD_RDMA_CM_REQUEST = 1, /* client -> server: its connection blob */
	SD_RDMA_CM_ACCEPT,      /* server -> client: its blob, then private data */
	SD_RDMA_CM_REJECT,      /* server -> client: no connection */
	SD_RDMA_CM_READY,       /* client -> server: joined; the connection is established */
	SD_RDMA_CM_DISCONNECT,  /* either side: the connection ends */
};

#define SD_RDMA_CM_HDR_LEN 8u
#define SD_RDMA_CM_PRIV_MAX 255u
#define SD_RDMA_CM_MSG_MAX (SD_RDMA_CM_HDR_LEN + SD_RDMA_BLOB_LEN + 1u + SD_RDMA_CM_PRIV_MAX)

/* One parsed message; payload points into the parsed bytes. */
struct sd_rdma_cm_msg {
	enum sd_rdma_cm_type type;
	const uint8_t *blob;    /* REQUEST, ACCEPT: SD_RDMA_BLOB_LEN bytes */
	const uint8_t *priv;    /* ACCEPT: private data */
	uint8_t priv_len;
};

enum sd_rdma_cm_parse_result {
	SD_RDMA_CM_PARSE_MORE = 0, /* a message has begun; wait for more bytes */
	SD_RDMA_CM_PARSE_OK,
	SD_RDMA_CM_PARSE_BAD,
};

/* Encode a message into out (SD_RDMA_CM_MSG_MAX bytes); returns its length. */
size_t sd_rdma_cm_encode(enum sd_rdma_cm_type type, const uint8_t *blob, const void *priv, uint8_t priv_len,
			 uint8_t out[SD_RDMA_CM_MSG_MAX]);
/*
 * Parse the first message of buf[0..len).  OK: *msg holds it and *used its
 * length; BAD: *why says what is wrong (the peer's bytes cannot be trusted);
 * MORE: nothing is wrong yet but the message is incomplete.
 */
enum sd_rdma_cm_parse_result sd_rdma_cm_parse(const uint8_t *buf, size_t len, struct sd_rdma_cm_msg *msg,
					      size_t *used, const char **why);

/* ---- sockets (rdma_cm_sock.c) ---- */

/* A non-blocking listening socket on the device's address and port, or -1 (errno set). */
int sd_rdma_cm_sock_listen(const struct sd_device *node, uint16_t port);
/* A non-blocking socket connecting to addr, or -1 (errno set; ECONNREFUSED may come later). */
int sd_rdma_cm_sock_connect(const struct doca_rdma_addr *addr);
/* A connection waiting on the listener, non-blocking, or -1 (none or error); *peer gets its address. */
int sd_rdma_cm_sock_accept(int listen_fd, struct doca_rdma_addr *peer);
/* 1: the connect finished; 0: still in progress; -1: it failed (errno set). */
int sd_rdma_cm_sock_connect_done(int fd);

/* ---- links (rdma_cm_link.c, rdma_cm_step.c) ---- */

enum sd_rdma_cm_phase {
	SD_RDMA_CM_CONNECTING = 0, /* client: TCP connect under way */
	SD_RDMA_CM_WAIT_REQUEST,   /* server: socket accepted, no request read yet */
	SD_RDMA_CM_REQUESTED,      /* request sent (client) or reported (server), no answer yet */
	SD_RDMA_CM_ACCEPTED,       /* server: accept sent, waiting for the client's READY */
	SD_RDMA_CM_ESTABLISHED,
	SD_RDMA_CM_PEER_GONE,      /* established, then the peer ended it */
	SD_RDMA_CM_CLOSED,         /* this side ended it (or never made it): no socket */
};

enum sd_rdma_cm_event {
	SD_RDMA_CM_EV_NONE = 0,
	SD_RDMA_CM_EV_REQUEST,
	SD_RDMA_CM_EV_ESTABLISHED,
	SD_RDMA_CM_EV_FAILURE,
	SD_RDMA_CM_EV_DISCONNECT,
};

struct sd_rdma_cm_link {
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn; /* NULL until the server read a request */
	struct sd_rdma_cm_link *next;      /* the context's list */
	int fd;                            /* -1 once closed */
	bool server;
	bool counted;       /* holds one of the context's max_num_connections */
	bool user_knows;    /* a callback handed the connection to the program */
	bool doomed;        /* freed (connection included) at the next step */
	bool local_ended;   /* the program called doca_rdma_connection_disconnect */
	bool ready;         /* the last epoll_wait reported its socket */
	enum sd_rdma_cm_phase phase;
	enum sd_rdma_cm_event event; /* to deliver; the socket is not read meanwhile */
	uint64_t deadline_ns;        /* client: the whole handshake must end by then */
	uint8_t peer_blob[SD_RDMA_BLOB_LEN]; /* server: the client's blob, from its request */
	struct doca_rdma_addr addr;  /* the peer's address (doca_rdma_connection_get_addr) */
	uint8_t in[SD_RDMA_CM_MSG_MAX];
	size_t in_len;
	uint8_t out[2 * SD_RDMA_CM_MSG_MAX];
	size_t out_len;
};

struct sd_rdma_cm {
	int epfd;      /* every socket below, so that one system call finds the ones with news */
	int listen_fd; /* -1 when not listening */
	uint16_t listen_port;
	uint32_t unidentified; /* server links that sent no request yet */
	uint32_t events;       /* links whose event waits for doca_pe_progress */
	struct sd_rdma_cm_link *links;
	uint64_t next_step_ns; /* the sockets are looked at no more often than this */
};

/* The context's connection manager, made on first use; NULL (logged) when out of memory. */
struct sd_rdma_cm *sd_rdma_cm_get(struct doca_rdma *rdma, const char *func);
struct sd_rdma_cm_link *sd_rdma_cm_link_new(struct doca_rdma *rdma, int fd, bool server);
/* Stop watching fd and close it (explicitly: a copy of it in a forked child would keep it watched). */
void sd_rdma_cm_forget(struct sd_rdma_cm *cm, int fd);
/* Watch fd in the manager's epoll set for `events` (EPOLLIN...), on behalf of `link` (NULL: the listener). */
bool sd_rdma_cm_watch(struct sd_rdma_cm *cm, int fd, uint32_t events, struct sd_rdma_cm_link *link, bool change);
/* Attach `conn` to the link; the connection then holds one of max_num_connections. */
void sd_rdma_cm_link_bind(struct sd_rdma_cm_link *link, struct doca_rdma_connection *conn);
/* Queue a message for the peer and try to send what is queued. */
void sd_rdma_cm_link_send(struct sd_rdma_cm_link *link, enum sd_rdma_cm_type type, const void *priv,
			  uint8_t priv_len);
/* Give the link an event to deliver (it has none), or take its event back. */
void sd_rdma_cm_raise(struct sd_rdma_cm_link *link, enum sd_rdma_cm_event ev);
void sd_rdma_cm_clear(struct sd_rdma_cm_link *link);
/* Send what is queued, as far as the socket takes it now. */
void sd_rdma_cm_link_flush(struct sd_rdma_cm_link *link);
/* Close the socket (what is queued is tried once more) and give back the connection slot. */
void sd_rdma_cm_link_close(struct sd_rdma_cm_link *link);
/* The handshake failed: close, and report a failure if the program knows the connection, else free. */
void sd_rdma_cm_link_fail(struct sd_rdma_cm_link *link);
/* One step of every socket (listener, handshakes, established peers); rdma_cm_step.c. */
void sd_rdma_cm_step(struct doca_rdma *rdma);
/* Free the links marked doomed, with their connections. */
void sd_rdma_cm_sweep(struct doca_rdma *rdma);

/* Hooks of the context (rdma_instance.c). */
bool sd_rdma_cm_pending(struct doca_rdma *rdma);
bool sd_rdma_cm_dispatch(struct doca_rdma *rdma);
void sd_rdma_cm_stopping(struct doca_rdma *rdma);
void sd_rdma_cm_release(struct doca_rdma *rdma);
/* doca_rdma_connection_disconnect of a CM connection (rdma_conn.c routes it here). */
doca_error_t sd_rdma_cm_disconnect(struct doca_rdma_connection *conn);

#endif /* SD_RDMA_CM_H */
