/*
 * ucx_priv.h - what the files of the UCX transport share.
 *
 * Pieces, one per file:
 *   ucx_runtime.c  the process's UCX context: created with the first export
 *                  or import, configured where the user has not, destroyed
 *                  with the last one
 *   ucx_wire.c     the handshake messages (ucx_wire.h)
 *   ucx_server.c   the exporting side: a listener and a worker progressed
 *                  by a library thread; who may reach which export
 *   ucx_client.c   the importing side: one worker for the process, one
 *                  endpoint per import, the handshake
 *   ucx_rma.c      an import's accesses: reads, writes, atomics as messages
 *   ucx_serve.c    the exporting side applies and answers those messages
 *   ucx_module.c   the table libdoca_common opens (xproc_ucx_module.h)
 *   ucx_listener_end.c  destroying a listener once no connection it
 *                  accepted can still reach it
 *
 * Threads.  The exporting side's worker belongs to its library thread;
 * other threads only queue requests for it (a revoke) and wake it with
 * ucp_worker_signal.  The importing side's worker is shared by every
 * thread that runs a copy (the progress thread of the default engine, the
 * engine's worker threads): it is created UCS_THREAD_MODE_SERIALIZED and
 * every call on it, progress included, holds `client.lock`.
 */
#ifndef SD_UCX_PRIV_H
#define SD_UCX_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <ucp/api/ucp.h>

#include <doca_error.h>
#include <doca_types.h>

#include "sd_clock.h"
#include "ucx_wire.h"
#include "xproc_ucx_module.h"

/* ---- runtime (ucx_runtime.c) ---- */

struct sd_ucx_server;
struct sd_ucx_client;

/* Take a reference on the process's UCX context, creating it.  NULL on failure (logged for `func`). */
ucp_context_h sd_ucx_context_get(const char *func);
void sd_ucx_context_put(void);

/* The liveness bound: SOFTDOCA_PEER_TIMEOUT_MS, default 1000. */
uint32_t sd_ucx_timeout_ms(void);
uint64_t sd_ucx_timeout_ns(void);
/* How long the serving thread polls after the last event before it sleeps: SOFTDOCA_PEER_SERVE_SPIN_MS, default 2. */
uint64_t sd_ucx_serve_spin_ns(void);


/* "10.1.2.3:4567" or "[fd00::1]:4567" into `out`. */
void sd_ucx_net_text(const struct sd_xp_net *net, char *out, size_t size);
/* struct sd_xp_net <-> sockaddr */
socklen_t sd_ucx_net_to_sockaddr(const struct sd_xp_net *net, struct sockaddr_storage *ss);
bool sd_ucx_net_from_sockaddr(const struct sockaddr *sa, struct sd_xp_net *net);

/*
 * Wait for `req` (a ucp request, NULL or an error pointer) by progressing
 * `worker`, at most `limit_ns`; free it.  The caller holds whatever lock
 * the worker needs.  Returns its status, UCS_ERR_TIMED_OUT when it did not
 * finish (the request is then left to UCX).
 */
ucs_status_t sd_ucx_wait(ucp_worker_h worker, ucs_status_ptr_t req, uint64_t limit_ns);

/*
 * Close `ep` at once (no flush), waiting at most `limit_ns` for UCX to
 * release it.  False when UCX did not finish in time: the endpoint's
 * callbacks may then still run, so their argument must stay allocated.
 */
bool sd_ucx_ep_close_force(ucp_worker_h worker, ucp_ep_h ep, uint64_t limit_ns);

/*
 * Before destroying a listener of `worker`: progress the worker so that
 * every connection request UCX has queued reaches the owner's handler,
 * which must refuse it by then (the owner sets its closing flag first).
 * ucp_listener_destroy would reject them too; handing them out lets the
 * owner's handler see each one.  Alone, this does not keep UCX from
 * calling into a freed listener: sd_ucx_listener_end below does.
 */
void sd_ucx_hand_out_queued_requests(ucp_worker_h worker);

/*
 * Destroy `listener` of `worker` (ucx_listener_end.c): the listening socket
 * first stops completing handshakes, every connection UCX accepted on it is
 * ended and the worker progressed until none is left (at most 200 ms), and
 * only then does ucp_listener_destroy run.  UCX (1.13, and later releases
 * too) frees a listener while connections it accepted, whose first bytes
 * have not arrived yet, still point to it: those bytes then made UCX's
 * thread call into freed memory (a crash at context stop).  The owner
 * closes its own connections and sets its closing flag (its request
 * handler refuses) before the call; the caller's thread must be the one
 * allowed to progress `worker`.
 */
void sd_ucx_listener_end(ucp_worker_h worker, ucp_listener_h listener);

/* ---- exporting side (ucx_server.c) ---- */

doca_error_t sd_ucx_export_open(const char *func, const struct sd_ucx_export_args *args, struct sd_xp_net *where,
				void **handle);
void sd_ucx_export_close(void *handle);
/* At exit: stop the thread and release UCX, whatever is still exported. */
void sd_ucx_server_at_exit(void);
/* What libdoca_common lent at load (ucx_module.c): the server watches relay records through it. */
extern const struct sd_ucx_core_ops *sd_ucx_core;

/*
 * Server thread only: the export granted to the connection `ep`; NULL when
 * it holds none (not granted yet, failing, unknown).
 */
const struct sd_ucx_export_args *sd_ucx_peer_export(ucp_ep_h ep);
/* Server thread only: the connection `ep` goes at the next reap (it broke the protocol, or cannot be answered). */
void sd_ucx_peer_drop(ucp_ep_h ep);

/* ---- serving accesses (ucx_serve.c), server thread ---- */

/* The handler of SD_UCX_AM_ACCESS on the exporting worker. */
ucs_status_t sd_ucx_on_access(void *arg, const void *header, size_t header_length, void *data, size_t length,
			      const ucp_am_recv_param_t *param);
/* The server starts: every answer slot is free (a previous worker, and UCX's hold on them, are gone). */
void sd_ucx_answers_reset(void);

/* ---- importing side (ucx_client.c, ucx_rma.c) ---- */

enum sd_ucx_import_state {
	SD_UCX_CONNECTING = 0, /* endpoint created, hello sent, no answer yet */
	SD_UCX_READY = 1,      /* granted */
	SD_UCX_DEAD = 2,       /* refused, unreachable, revoked or timed out: every access fails */
};

#define SD_UCX_IMPORT_MAGIC 0x55434d49u /* "IMCU" */

struct sd_ucx_import {
	uint32_t magic;
	uint32_t owner_pid;     /* process that opened it (a fork child never touches UCX) */
	_Atomic int state;      /* enum sd_ucx_import_state */
	struct sd_ucx_import_args args;
	char peer_text[64];     /* the exporter's endpoint, for messages */
	uint64_t nonce;         /* pairs the exporter's answer with this import */
	ucp_ep_h ep;            /* NULL once closed */
	uint32_t granted;       /* READY only: the exporter's rights (its grant), checked on every access */
	ucs_status_ptr_t hello_req;
	uint8_t hello[SD_UCX_HELLO_MAX_LEN]; /* the hello in flight */
	bool reported;          /* the reason it died was logged */
	bool keep;              /* UCX may still call back with it: never free it */
	char why[160];          /* why it is DEAD */
	struct sd_ucx_import *next; /* the client's list of open imports */
};

doca_error_t sd_ucx_import_open(const char *func, const struct sd_ucx_import_args *args, void **handle);
void sd_ucx_import_close(void *handle);
/* At exit: close every import's endpoint and release UCX. */
void sd_ucx_client_at_exit(void);

/* The importing worker and its lock (ucx_client.c). */
ucp_worker_h sd_ucx_client_worker(void);
void sd_ucx_client_lock(void);
void sd_ucx_client_unlock(void);

/*
 * Lock held: progress until the handshake of `imp` is answered, at most
 * the liveness bound.  DOCA_SUCCESS when READY, else DOCA_ERROR_IO_FAILED.
 */
doca_error_t sd_ucx_import_ready(struct sd_ucx_import *imp);

/*
 * Lock held: `imp` is dead from now on (`why` says why, logged once).  Its
 * endpoint is closed at once, which fails every request still on it.
 */
void sd_ucx_import_kill(struct sd_ucx_import *imp, const char *why);

/* Log once why `imp` is dead (lock held). */
void sd_ucx_import_report(struct sd_ucx_import *imp);

extern const struct sd_mem_remote_ops sd_ucx_remote_ops;
/* The handler of SD_UCX_AM_ANSWER on the importing worker (ucx_rma.c; lock held, inside progress). */
ucs_status_t sd_ucx_on_answer(void *arg, const void *header, size_t header_length, void *data, size_t length,
			      const ucp_am_recv_param_t *param);

/* ---- message nodes (ucx_msg.c, sd_msgnet.h) ---- */

doca_error_t sd_ucx_msg_open(const char *func, const struct sd_xp_net *bind, const struct sd_msgnet_cbs *cbs,
			     void *arg, uint16_t *port, void **node);
doca_error_t sd_ucx_msg_connect(const char *func, void *node, const struct sd_xp_net *peer, void *link_arg,
				void **link);
extern const struct sd_msgnet_ops sd_ucx_msg_ops;

#endif /* SD_UCX_PRIV_H */
