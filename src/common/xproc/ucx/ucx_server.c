/*
 * ucx_server.c - the exporting side: who may reach which export.
 *
 * The first export starts the server: a UCP worker, a listener on the
 * address facing the peer (port chosen by the kernel), and one library
 * thread that progresses the worker, so the exporting program never calls
 * the library for a peer's copy: its accesses are messages this thread
 * applies (ucx_serve.c).  The thread spins while there is traffic (and
 * SOFTDOCA_PEER_SERVE_SPIN_MS after it, 2 ms by default) and sleeps on the
 * worker's event descriptor otherwise.  That descriptor does
 * not fire for every kind of TCP traffic, so the sleep is also bounded: 1 ms during the first 100 ms of silence, 10 ms up to a
 * second, 50 ms after that; a request arriving during a long silence waits
 * at most that long, far inside the liveness bound.
 *
 * Every accepted connection is a peer that holds nothing until it passes
 * the handshake (ucx_wire.h): the export it names must be live, and its id,
 * generation and token must all match.  Only then does the peer receive its
 * grant, and only then are its accesses served.  A refused peer gets one
 * DENY and nothing more; the importer closes the connection when it reads
 * it (closing it here could overtake the DENY).  A peer that holds no grant is disconnected twice the
 * liveness bound after it connected, whatever it sends.
 *
 * Stopping or destroying the mmap (export_close) cuts the export off:
 * the thread closes every connection that was granted it.  No memory is
 * registered with UCX and the context has no RMA feature: a peer reaches
 * the export only through this thread's checks, and not at all once its
 * connection is closed.  export_close returns only when no peer can reach
 * the memory any more.
 *
 * A peer that presents a descriptor handed on by a relay (a DPU's
 * re-export of a PCI import, xproc_reexport.c) names the relay's record in
 * its hello and shows the relay's token, not this export's.  The host and
 * the DPU share one machine, so the thread opens that record, grants only
 * when it holds that token and names this export (id, generation, token),
 * and looks at it at every pass (its state word; whether the
 * relay still holds its lock, once per tick of the coarse clock), sleeping
 * at most 1 ms while it watches any: once the relay destroyed its import or
 * died, the peer's connection is closed, as for a stopped export.  The
 * peer's copies are served by this thread, so nothing of the peer lands
 * after the close.  A relay that revoked before the hello gets the peer a
 * DENY.
 *
 * The last export stops the thread and releases the worker and listener.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sd_log.h"
#include "sd_thread.h"
#include "ucx_priv.h"
#include "ucx_wire.h"
#include "xproc_relay.h"

#define SD_UCX_EXPORT_MAGIC 0x55435845u /* "EXCU" */
/* Connections a server keeps at most; more are rejected at the listener. */
#define SD_UCX_MAX_PEERS 1024u
/* How long closing one connection may take (a forced close completes locally). */
#define SD_UCX_CLOSE_NS 200000000ull
/* Progress calls with events in a row before the thread looks at cuts and relays again. */
#define SD_UCX_PROGRESS_BATCH 256u

struct sd_ucx_export {
	uint32_t magic;
	uint32_t owner_pid;
	struct sd_ucx_export_args args;
	bool closing; /* export_close asked: grant nothing more */
	bool picked;  /* the thread is closing its connections */
	bool cut;     /* the thread closed every connection granted it */
	struct sd_ucx_export *next;
};

struct sd_ucx_peer {
	ucp_ep_h ep;
	struct sd_ucx_export *exp; /* granted export, NULL while authenticating */
	uint64_t since_ns;
	bool failed;            /* error: disconnect */
	bool denied;            /* refused once: later hellos are ignored */
	bool close_after_send;  /* disconnect once `out` has left */
	ucs_status_ptr_t out_req;
	uint8_t *out;           /* the answer in flight */
	struct sd_xp_relay_watch relay; /* a relayed hello's relay record; holds nothing otherwise */
	struct sd_ucx_peer *next;
};

static struct {
	pthread_mutex_t life; /* serializes starting and stopping the server */
	pthread_mutex_t lock; /* exports list and their flags, shared with the thread */
	pthread_cond_t cut_cond;
	uint32_t pid;
	unsigned exports_open;
	ucp_context_h ctx;
	ucp_worker_h worker;
	ucp_listener_h listener;
	struct sd_xp_net where;
	int efd;
	pthread_t thread;
	atomic_bool quit;
	bool closing; /* the listener goes: connection requests are refused */
	atomic_uint to_cut; /* exports waiting for the thread to cut them off */
	struct sd_ucx_export *exports;
	/* thread only */
	struct sd_ucx_peer *peers;
	unsigned npeers;
} sd_srv = {
	.life = PTHREAD_MUTEX_INITIALIZER,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cut_cond = PTHREAD_COND_INITIALIZER,
};

/* ---- peers (thread only) ---- */

static void sd_ucx_peer_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
	struct sd_ucx_peer *peer = arg;

	(void)ep;
	(void)status;
	peer->failed = true;
}

static void sd_ucx_peer_free(struct sd_ucx_peer *peer)
{
	sd_srv.npeers--;
	sd_ucx_core->relay_close(&peer->relay);
	if (peer->ep != NULL && !sd_ucx_ep_close_force(sd_srv.worker, peer->ep, SD_UCX_CLOSE_NS))
		return; /* its error callback may still come: keep the peer rather than free what UCX holds */
	if (peer->out_req != NULL && ucp_request_check_status(peer->out_req) != UCS_INPROGRESS) {
		ucp_request_free(peer->out_req);
		peer->out_req = NULL;
	}
	if (peer->out_req == NULL)
		free(peer->out); /* else UCX still holds it: leave both rather than free what it may read */
	free(peer);
}

static void sd_ucx_conn_request(ucp_conn_request_h req, void *arg)
{
	struct sd_ucx_peer *peer =
		sd_srv.npeers < SD_UCX_MAX_PEERS && !sd_srv.closing ? calloc(1, sizeof(*peer)) : NULL;
	ucp_ep_params_t p = {
		.field_mask = UCP_EP_PARAM_FIELD_CONN_REQUEST | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
			      UCP_EP_PARAM_FIELD_ERR_HANDLER,
		.conn_request = req,
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = {.cb = sd_ucx_peer_error, .arg = peer},
	};

	(void)arg;
	if (peer == NULL) {
		(void)ucp_listener_reject(sd_srv.listener, req);
		return;
	}
	if (ucp_ep_create(sd_srv.worker, &p, &peer->ep) != UCS_OK) {
		free(peer);
		return;
	}
	peer->since_ns = sd_mono_ns();
	peer->relay.fd = -1;
	peer->next = sd_srv.peers;
	sd_srv.peers = peer;
	sd_srv.npeers++;
}

static struct sd_ucx_peer *sd_ucx_peer_of(ucp_ep_h ep)
{
	for (struct sd_ucx_peer *p = sd_srv.peers; p != NULL; p = p->next)
		if (p->ep == ep)
			return p;
	return NULL;
}

const struct sd_ucx_export_args *sd_ucx_peer_export(ucp_ep_h ep)
{
	struct sd_ucx_peer *p = sd_ucx_peer_of(ep);

	return p == NULL || p->failed || p->exp == NULL ? NULL : &p->exp->args;
}

void sd_ucx_peer_drop(ucp_ep_h ep)
{
	struct sd_ucx_peer *p = sd_ucx_peer_of(ep);

	if (p != NULL)
		p->failed = true;
}

/* Send `buf` (malloc'ed, ours until sent) on the peer's endpoint. */
static void sd_ucx_peer_send(struct sd_ucx_peer *peer, unsigned id, uint8_t *buf, size_t len, bool close_after)
{
	ucp_request_param_t p = {.op_attr_mask = 0};
	ucs_status_ptr_t req;

	if (peer->out != NULL) { /* one answer per connection */
		free(buf);
		peer->failed = true;
		return;
	}
	req = ucp_am_send_nbx(peer->ep, id, NULL, 0, buf, len, &p);
	peer->close_after_send = close_after;
	if (UCS_PTR_IS_PTR(req)) {
		peer->out_req = req;
		peer->out = buf;
		return;
	}
	free(buf);
	if (UCS_PTR_IS_ERR(req) || close_after)
		peer->failed = true;
}

static void sd_ucx_peer_deny(struct sd_ucx_peer *peer, uint64_t nonce, uint16_t reason)
{
	uint8_t *buf = malloc(SD_UCX_DENY_LEN);

	peer->denied = true;
	if (buf == NULL) {
		peer->failed = true;
		return;
	}
	sd_ucx_deny_encode(nonce, reason, buf);
	sd_ucx_peer_send(peer, SD_UCX_AM_DENY, buf, SD_UCX_DENY_LEN, false);
}

/*
 * Lock held: the live export a hello names, or NULL.  A plain hello must
 * show the export's token.  A relayed hello shows the relay's token
 * instead, which only the relay record can vouch for: its export is
 * checked there (sd_ucx_relay_watch) before anything is granted.
 */
static struct sd_ucx_export *sd_ucx_export_find(const struct sd_ucx_hello *h)
{
	for (struct sd_ucx_export *e = sd_srv.exports; e != NULL; e = e->next) {
		if (e->closing || e->args.export_id != h->export_id)
			continue;
		if (e->args.generation == h->generation && (h->relayed || sd_xp_token_equal(e->args.token, h->token)))
			return e;
		return NULL;
	}
	return NULL;
}

/* The grant message for `e` (lock held). */
static uint8_t *sd_ucx_grant_build(const struct sd_ucx_export *e, uint64_t nonce, size_t *len)
{
	struct sd_ucx_grant g = {
		.nonce = nonce,
		.addr = e->args.addr,
		.len = e->args.len,
		.writable = e->args.writable,
		.access_mask = e->args.access_mask,
	};
	uint8_t *buf = malloc(SD_UCX_GRANT_LEN);

	if (buf == NULL)
		return NULL;
	sd_ucx_grant_encode(&g, buf);
	*len = SD_UCX_GRANT_LEN;
	return buf;
}

/*
 * A hello for a descriptor that a relay handed on (a DPU's re-export of
 * this process's PCI export): the relay record it names must hold the
 * relay token the hello shows and name this export, with this export's
 * token; then it is watched for as long as the peer is connected.
 * SD_UCX_DENY_REVOKED when the record is gone or dead (the relay revoked,
 * or the name is forged: they look alike), SD_UCX_DENY_NO_EXPORT when it
 * holds another token or hands on another export, 0 when the peer may go on.
 */
static uint16_t sd_ucx_relay_watch(struct sd_ucx_peer *peer, const struct sd_ucx_hello *h,
				   const struct sd_ucx_export *e)
{
	struct sd_xp_relay_id id = {
		.pid = h->relay.pid,
		.export_id = h->relay.export_id,
		.start_time = h->relay.start_time,
		.addr = e->args.addr,
		.len = e->args.len,
		.up_export_id = e->args.export_id,
		.up_generation = e->args.generation,
	};

	memcpy(id.token, h->token, sizeof(id.token));
	if (!h->relayed)
		return 0;
	if (!sd_ucx_core->relay_open(&peer->relay, &id) && !peer->relay.unbound) {
		SD_LOG_DBG("export %llu: refused a peer whose descriptor relay pid %u revoked already (or never made)",
			   (unsigned long long)e->args.export_id, h->relay.pid);
		return SD_UCX_DENY_REVOKED;
	}
	if (peer->relay.unbound || !sd_xp_token_equal(peer->relay.up_token, e->args.token)) {
		sd_ucx_core->relay_close(&peer->relay);
		SD_LOG_DBG("export %llu: refused a peer whose relay token is not the one relay pid %u keeps for it",
			   (unsigned long long)e->args.export_id, h->relay.pid);
		return SD_UCX_DENY_NO_EXPORT;
	}
	return 0;
}

static ucs_status_t sd_ucx_on_hello(void *arg, const void *header, size_t header_length, void *data, size_t length,
				    const ucp_am_recv_param_t *param)
{
	struct sd_ucx_peer *peer;
	struct sd_ucx_hello h;
	struct sd_ucx_export *e;
	uint8_t *buf = NULL;
	size_t len = 0;
	uint16_t refused = SD_UCX_DENY_NO_EXPORT;

	(void)arg;
	(void)header;
	(void)header_length;
	if (!(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) || (peer = sd_ucx_peer_of(param->reply_ep)) == NULL ||
	    peer->denied)
		return UCS_OK; /* not one of our connections, or one refused already: nothing to answer */
	if ((param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) || !sd_ucx_hello_decode(data, length, &h)) {
		sd_ucx_peer_deny(peer, 0, SD_UCX_DENY_MALFORMED);
		return UCS_OK;
	}
	if (peer->exp != NULL) {
		sd_ucx_peer_deny(peer, h.nonce, SD_UCX_DENY_BOUND);
		return UCS_OK;
	}
	pthread_mutex_lock(&sd_srv.lock);
	e = sd_ucx_export_find(&h);
	if (e != NULL)
		refused = sd_ucx_relay_watch(peer, &h, e);
	if (refused == 0)
		buf = sd_ucx_grant_build(e, h.nonce, &len);
	pthread_mutex_unlock(&sd_srv.lock);
	if (refused != 0) {
		sd_ucx_peer_deny(peer, h.nonce, refused);
		return UCS_OK;
	}
	if (buf == NULL) {
		peer->failed = true;
		return UCS_OK;
	}
	peer->exp = e;
	sd_ucx_peer_send(peer, SD_UCX_AM_GRANT, buf, len, false);
	return UCS_OK;
}

/* Finished answers, failed and silent peers. */
static void sd_ucx_reap(uint64_t now)
{
	struct sd_ucx_peer **link = &sd_srv.peers;
	uint64_t silent_ns = 2 * sd_ucx_timeout_ns();

	while (*link != NULL) {
		struct sd_ucx_peer *p = *link;

		if (p->out_req != NULL && ucp_request_check_status(p->out_req) != UCS_INPROGRESS) {
			if (ucp_request_check_status(p->out_req) != UCS_OK || p->close_after_send)
				p->failed = true;
			ucp_request_free(p->out_req);
			p->out_req = NULL;
			free(p->out);
			p->out = NULL;
		}
		if (p->failed || (p->exp == NULL && p->out == NULL && now - p->since_ns > silent_ns)) {
			*link = p->next;
			sd_ucx_peer_free(p);
			continue;
		}
		link = &p->next;
	}
}

/* Close every connection granted an export that is being closed; then tell the closers. */
static void sd_ucx_cut(void)
{
	struct sd_ucx_peer *victims = NULL, **link = &sd_srv.peers;

	pthread_mutex_lock(&sd_srv.lock);
	for (struct sd_ucx_export *e = sd_srv.exports; e != NULL; e = e->next)
		e->picked = e->closing;
	while (*link != NULL) {
		struct sd_ucx_peer *p = *link;

		if (p->exp != NULL && p->exp->picked) {
			*link = p->next;
			p->next = victims;
			victims = p;
			continue;
		}
		link = &p->next;
	}
	pthread_mutex_unlock(&sd_srv.lock);
	/* Closing progresses the worker, which may add peers: the victims are off the list by now. */
	while (victims != NULL) {
		struct sd_ucx_peer *p = victims;

		victims = p->next;
		sd_ucx_peer_free(p);
	}
	pthread_mutex_lock(&sd_srv.lock);
	for (struct sd_ucx_export *e = sd_srv.exports; e != NULL; e = e->next) {
		if (e->picked && !e->cut) {
			e->cut = true;
			atomic_fetch_sub(&sd_srv.to_cut, 1);
		}
	}
	pthread_cond_broadcast(&sd_srv.cut_cond);
	pthread_mutex_unlock(&sd_srv.lock);
}


/*
 * Cut off every peer whose relay revoked the descriptor it presented: its
 * connection closes in the next reap.  How many relayed peers are still
 * connected (the sleep stays short while there are any).
 */
static unsigned sd_ucx_revoke_relayed(void)
{
	unsigned watched = 0;

	for (struct sd_ucx_peer *p = sd_srv.peers; p != NULL; p = p->next) {
		if (p->relay.page == NULL || p->failed)
			continue;
		if (sd_ucx_core->relay_live(&p->relay)) {
			watched++;
			continue;
		}
		SD_LOG_DBG("export %llu: the relay that handed a peer the descriptor revoked it; closing that "
			   "peer's connection",
			   p->exp != NULL ? (unsigned long long)p->exp->args.export_id : 0ull);
		p->failed = true;
	}
	return watched;
}

/* Sleep until the worker has an event, or for a while that grows with the silence (1 ms while relays are watched). */
static void sd_ucx_sleep(uint64_t silent_ns, bool watching)
{
	struct pollfd pfd = {.fd = sd_srv.efd, .events = POLLIN};
	int timeout_ms = silent_ns < 100000000ull || watching ? 1 : silent_ns < 1000000000ull ? 10 : 50;

	if (ucp_worker_arm(sd_srv.worker) == UCS_ERR_BUSY)
		return;
	(void)poll(&pfd, 1, timeout_ms);
}

static void *sd_ucx_server_main(void *arg)
{
	/* Busy-poll this long after the last event before sleeping (a burst of copies stays awake). */
	const uint64_t spin_ns = sd_ucx_serve_spin_ns();
	uint64_t last_event = sd_mono_ns();

	(void)arg;
	while (!atomic_load(&sd_srv.quit)) {
		unsigned events = 0, watched;
		uint64_t now;

		/* Bounded: a peer that never pauses must not hold off the cuts below. */
		while (events < SD_UCX_PROGRESS_BATCH && ucp_worker_progress(sd_srv.worker) != 0)
			events++;
		if (atomic_load(&sd_srv.to_cut) != 0)
			sd_ucx_cut();
		watched = sd_ucx_revoke_relayed();
		now = sd_mono_ns();
		sd_ucx_reap(now);
		if (events != 0) {
			last_event = now;
			continue;
		}
		if (now - last_event > spin_ns)
			sd_ucx_sleep(now - last_event, watched != 0);
	}
	while (sd_srv.peers != NULL) {
		struct sd_ucx_peer *p = sd_srv.peers;

		sd_srv.peers = p->next;
		sd_ucx_peer_free(p);
	}
	return NULL;
}

/* ---- starting and stopping (life lock held) ---- */

static doca_error_t sd_ucx_listen(const char *func, const struct sd_xp_net *bind)
{
	struct sockaddr_storage ss;
	socklen_t sl = sd_ucx_net_to_sockaddr(bind, &ss);
	ucp_listener_params_t lp = {
		.field_mask = UCP_LISTENER_PARAM_FIELD_SOCK_ADDR | UCP_LISTENER_PARAM_FIELD_CONN_HANDLER,
		.sockaddr = {.addr = (const struct sockaddr *)&ss, .addrlen = sl},
		.conn_handler = {.cb = sd_ucx_conn_request, .arg = NULL},
	};
	ucp_listener_attr_t attr = {.field_mask = UCP_LISTENER_ATTR_FIELD_SOCKADDR};
	char text[64];
	ucs_status_t st = ucp_listener_create(sd_srv.worker, &lp, &sd_srv.listener);

	sd_ucx_net_text(bind, text, sizeof(text));
	if (st != UCS_OK) {
		SD_LOG_ERR_AS(func, "UCX cannot listen on %s: %s", text, ucs_status_string(st));
		return DOCA_ERROR_INITIALIZATION;
	}
	st = ucp_listener_query(sd_srv.listener, &attr);
	if (st != UCS_OK || !sd_ucx_net_from_sockaddr((const struct sockaddr *)&attr.sockaddr, &sd_srv.where)) {
		SD_LOG_ERR_AS(func, "UCX listens on %s but cannot say on which port", text);
		return DOCA_ERROR_INITIALIZATION;
	}
	/* The listener may report the wildcard address it bound: peers need the one they can reach. */
	memcpy(sd_srv.where.addr, bind->addr, sizeof(sd_srv.where.addr));
	sd_srv.where.family = bind->family;
	return DOCA_SUCCESS;
}

static doca_error_t sd_ucx_worker_create(const char *func)
{
	ucp_worker_params_t wp = {
		.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE | UCP_WORKER_PARAM_FIELD_NAME,
		.thread_mode = UCS_THREAD_MODE_SINGLE, /* the server thread's alone (after setup here) */
		.name = "softdoca-export",
	};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
			      UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.id = SD_UCX_AM_HELLO,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
		.cb = sd_ucx_on_hello,
	};
	ucs_status_t st = ucp_worker_create(sd_srv.ctx, &wp, &sd_srv.worker);

	if (st == UCS_OK)
		st = ucp_worker_set_am_recv_handler(sd_srv.worker, &hp);
	if (st == UCS_OK) {
		hp.id = SD_UCX_AM_ACCESS;
		hp.cb = sd_ucx_on_access;
		st = ucp_worker_set_am_recv_handler(sd_srv.worker, &hp);
	}
	if (st == UCS_OK)
		st = ucp_worker_get_efd(sd_srv.worker, &sd_srv.efd);
	if (st != UCS_OK) {
		SD_LOG_ERR_AS(func, "cannot create the UCX worker that serves exports: %s", ucs_status_string(st));
		return DOCA_ERROR_INITIALIZATION;
	}
	return DOCA_SUCCESS;
}

static void sd_ucx_server_teardown(void)
{
	if (sd_srv.listener != NULL) {
		sd_srv.closing = true;
		sd_ucx_listener_end(sd_srv.worker, sd_srv.listener); /* the thread closed every peer */
	}
	if (sd_srv.worker != NULL)
		ucp_worker_destroy(sd_srv.worker);
	if (sd_srv.ctx != NULL)
		sd_ucx_context_put();
	sd_srv.listener = NULL;
	sd_srv.worker = NULL;
	sd_srv.ctx = NULL;
}

static doca_error_t sd_ucx_server_start(const char *func, const struct sd_xp_net *bind)
{
	doca_error_t err;
	int rc;

	sd_srv.ctx = sd_ucx_context_get(func);
	if (sd_srv.ctx == NULL)
		return DOCA_ERROR_INITIALIZATION;
	err = sd_ucx_worker_create(func);
	if (err == DOCA_SUCCESS)
		err = sd_ucx_listen(func, bind);
	if (err != DOCA_SUCCESS) {
		sd_ucx_server_teardown();
		return err;
	}
	atomic_store(&sd_srv.quit, false);
	atomic_store(&sd_srv.to_cut, 0);
	sd_srv.closing = false;
	sd_ucx_answers_reset();
	rc = sd_thread_start(&sd_srv.thread, NULL, sd_ucx_server_main, NULL, "sd-ucx-serve");
	if (rc != 0) {
		SD_LOG_ERR_AS(func, "cannot start the thread that serves exports over UCX: %s", strerror(rc));
		sd_ucx_server_teardown();
		return DOCA_ERROR_INITIALIZATION;
	}
	return DOCA_SUCCESS;
}

static void sd_ucx_server_stop_thread(void)
{
	atomic_store(&sd_srv.quit, true);
	(void)ucp_worker_signal(sd_srv.worker);
	pthread_join(sd_srv.thread, NULL);
}

static void sd_ucx_server_stop(void)
{
	sd_ucx_server_stop_thread();
	sd_ucx_server_teardown();
}

/* ---- exports ---- */

doca_error_t sd_ucx_export_open(const char *func, const struct sd_ucx_export_args *args, struct sd_xp_net *where,
				void **handle)
{
	uint32_t me = (uint32_t)getpid();
	struct sd_ucx_export *e = calloc(1, sizeof(*e));
	doca_error_t err = DOCA_SUCCESS;

	if (e == NULL)
		return SD_LOG_ERR_AS(func, "out of memory for an export's UCX state"), DOCA_ERROR_NO_MEMORY;
	e->magic = SD_UCX_EXPORT_MAGIC;
	e->owner_pid = me;
	e->args = *args;
	pthread_mutex_lock(&sd_srv.life);
	if (sd_srv.pid != me) { /* a fork child starts without the parent's server */
		sd_srv.pid = me;
		sd_srv.exports_open = 0;
		sd_srv.exports = NULL;
		sd_srv.peers = NULL;
		sd_srv.npeers = 0;
		sd_srv.worker = NULL;
		sd_srv.listener = NULL;
		sd_srv.ctx = NULL;
	}
	if (sd_srv.exports_open == 0)
		err = sd_ucx_server_start(func, &args->bind);
	if (err == DOCA_SUCCESS) {
		sd_srv.exports_open++;
		pthread_mutex_lock(&sd_srv.lock);
		e->next = sd_srv.exports;
		sd_srv.exports = e;
		pthread_mutex_unlock(&sd_srv.lock);
		*where = sd_srv.where;
	}
	pthread_mutex_unlock(&sd_srv.life);
	if (err != DOCA_SUCCESS) {
		free(e);
		return err;
	}
	*handle = e;
	return DOCA_SUCCESS;
}

static void sd_ucx_export_unlink(struct sd_ucx_export *e)
{
	for (struct sd_ucx_export **p = &sd_srv.exports; *p != NULL; p = &(*p)->next) {
		if (*p == e) {
			*p = e->next;
			return;
		}
	}
}

void sd_ucx_export_close(void *handle)
{
	struct sd_ucx_export *e = handle;

	if (e == NULL || e->magic != SD_UCX_EXPORT_MAGIC || e->owner_pid != (uint32_t)getpid())
		return; /* a fork child's copy: the parent's export is not ours to end */
	pthread_mutex_lock(&sd_srv.life);
	if (sd_srv.exports_open == 0) { /* the process is exiting: sd_ucx_server_at_exit ended it */
		pthread_mutex_unlock(&sd_srv.life);
		return;
	}
	pthread_mutex_lock(&sd_srv.lock);
	e->closing = true;
	atomic_fetch_add(&sd_srv.to_cut, 1);
	(void)ucp_worker_signal(sd_srv.worker);
	while (!e->cut)
		pthread_cond_wait(&sd_srv.cut_cond, &sd_srv.lock);
	sd_ucx_export_unlink(e);
	pthread_mutex_unlock(&sd_srv.lock);
	if (--sd_srv.exports_open == 0)
		sd_ucx_server_stop();
	pthread_mutex_unlock(&sd_srv.life);
	e->magic = 0;
	free(e);
}

/*
 * The process exits with exports still open: end the thread and release
 * UCX (a thread left running into exit trips leak checkers).  Peers see
 * their connections close, as they would when the process dies.  Skipped
 * when another thread is in the middle of starting or stopping the server.
 */
void sd_ucx_server_at_exit(void)
{
	if (sd_srv.pid != (uint32_t)getpid() || pthread_mutex_trylock(&sd_srv.life) != 0)
		return;
	if (sd_srv.exports_open != 0) {
		sd_ucx_server_stop_thread();
		sd_srv.exports = NULL; /* the exports themselves stay: libdoca_common still points at them */
		sd_ucx_server_teardown();
		sd_srv.exports_open = 0;
	}
	pthread_mutex_unlock(&sd_srv.life);
}
