/*
 * comch_ep.c - what a Comch server and a Comch client have in common:
 * creation of the instance, the IDLE-only settings, and the library part of
 * the context lifecycle (start, STOPPING, outstanding work, release).
 *
 * The generic framework runs the state machine.  The server
 * starts synchronously (IDLE -> RUNNING inside doca_ctx_start); the client
 * goes to STARTING and reaches RUNNING from the progress call that sees its
 * handshake finished.  Open connections are outstanding work: a
 * STOPPING endpoint reaches IDLE once each of them has been torn down.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "comch_fp_priv.h"
#include "sd_log.h"
#include "sd_pages.h"

/* ---- creation ---- */

/* Recursive: see rx_lock and tx_lock in comch_priv.h. */
static void sd_comch_locks_init(struct sd_comch_ep *ep)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&ep->rx_lock, &attr);
	pthread_mutex_init(&ep->tx_lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

doca_error_t sd_comch_ep_init(struct sd_comch_ep *ep, bool is_server, struct doca_dev *dev, const char *name,
			      const char *func)
{
	const struct sd_caps *caps = &dev->node->caps;
	size_t name_len = strlen(name);

	if (name_len == 0) {
		SD_LOG_ERR_AS(func, "the server name is empty");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (name_len + 1 > caps->comch_max_name_len) {
		SD_LOG_ERR_AS(func,
			      "server name of %zu characters is too long, device %s allows %u including the "
			      "terminating NUL",
			      name_len, dev->node->pci_addr, caps->comch_max_name_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ep->is_server = is_server;
	ep->node = dev->node;
	ep->name_len = (uint32_t)name_len;
	ep->name = malloc(name_len + 1);
	ep->max_conns = is_server ? (caps->comch_max_clients > 0 ? caps->comch_max_clients : 1) : 1;
	ep->conns = calloc(ep->max_conns, sizeof(*ep->conns));
	if (ep->name == NULL || ep->conns == NULL) {
		free(ep->name);
		free(ep->conns);
		SD_LOG_ERR_AS(func, "out of memory for a Comch %s", is_server ? "server" : "client");
		return DOCA_ERROR_NO_MEMORY;
	}
	memcpy(ep->name, name, name_len + 1);
	ep->max_msg = caps->comch_max_msg_size;
	ep->recv_queue = SD_COMCH_DEFAULT_RECV_QUEUE < caps->comch_max_recv_queue ? SD_COMCH_DEFAULT_RECV_QUEUE
										    : caps->comch_max_recv_queue;
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		ep->conns[i].magic = SD_COMCH_CONN_MAGIC;
		ep->conns[i].ep = ep;
		ep->conns[i].fd = -1;
		atomic_init(&ep->conns[i].phase, SD_CONN_FREE);
		atomic_init(&ep->conns[i].watch_fired, false);
	}
	ep->ev_recv.ep = ep;
	ep->ev_conn.ep = ep;
	ep->ev_consumer.ep = ep;
	sd_comch_locks_init(ep);
	ep->io.listen_fd = -1;
	ep->io.epfd = -1;
	ep->io.wake_fd = -1;
	atomic_init(&ep->posted, 0);
	atomic_init(&ep->fp_users, 0);
	atomic_init(&ep->connected, false);
	priv_doca_ctx_init(&ep->ctx, is_server ? &sd_comch_server_ops : &sd_comch_client_ops, dev);
	if (priv_doca_ctx_add_task_type(&ep->ctx, &sd_comch_send_ops) != SD_COMCH_SEND_TYPE) {
		(void)priv_doca_ctx_fini(&ep->ctx, func);
		free(ep->name);
		free(ep->conns);
		SD_LOG_ERR_AS(func, "cannot register the send task type");
		return DOCA_ERROR_INITIALIZATION;
	}
	ep->magic = is_server ? SD_COMCH_SERVER_MAGIC : SD_COMCH_CLIENT_MAGIC;
	return DOCA_SUCCESS;
}

doca_error_t sd_comch_ep_check_unused(const struct sd_comch_ep *ep, const char *func)
{
	unsigned users = atomic_load(&ep->fp_users);

	if (ep->ctx.state != DOCA_CTX_STATE_IDLE || users == 0)
		return DOCA_SUCCESS; /* a context that is not IDLE is refused by its own rule */
	SD_LOG_ERR_AS(func,
		      "%u consumer(s) or producer(s) created on the connections of %s %p still exist; destroy them "
		      "with doca_comch_consumer_destroy / doca_comch_producer_destroy first",
		      users, ep->is_server ? "server" : "client", (const void *)ep);
	return DOCA_ERROR_IN_USE;
}

/* Release the instance's memory (its context is already finished). */
void sd_comch_ep_fini(struct sd_comch_ep *ep)
{
	sd_fp_table_free(ep);
	pthread_mutex_destroy(&ep->rx_lock);
	pthread_mutex_destroy(&ep->tx_lock);
	for (uint32_t i = 0; i < ep->max_conns; i++)
		ep->conns[i].magic = 0;
	free(ep->conns);
	free(ep->name);
	ep->magic = 0;
	free(ep);
}

/* ---- IDLE-only settings ---- */

doca_error_t sd_comch_ep_check_idle(const struct sd_comch_ep *ep, const char *what, const char *func)
{
	if (ep->ctx.state == DOCA_CTX_STATE_IDLE)
		return DOCA_SUCCESS;
	SD_LOG_ERR_AS(func, "context is %s, %s can be changed only while IDLE (%s %p)",
		      sd_ctx_state_name(ep->ctx.state), what, ep->ctx.ops->type_name, (const void *)ep);
	return DOCA_ERROR_BAD_STATE;
}

doca_error_t sd_comch_ep_set_max_msg(struct sd_comch_ep *ep, uint32_t size, const char *func)
{
	uint32_t cap = ep->node->caps.comch_max_msg_size;
	doca_error_t err = sd_comch_ep_check_idle(ep, "the maximum message size", func);

	if (err != DOCA_SUCCESS)
		return err;
	if (size == 0 || size > cap) {
		SD_LOG_ERR_AS(func, "message size %u is out of range, device %s allows 1 to %u (%s %p)", size,
			      ep->node->pci_addr, cap, ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ep->max_msg = size;
	return DOCA_SUCCESS;
}

doca_error_t sd_comch_ep_set_recv_queue(struct sd_comch_ep *ep, uint32_t size, const char *func)
{
	uint32_t cap = ep->node->caps.comch_max_recv_queue;
	doca_error_t err = sd_comch_ep_check_idle(ep, "the receive queue size", func);

	if (err != DOCA_SUCCESS)
		return err;
	if (size == 0 || size > cap) {
		SD_LOG_ERR_AS(func, "receive queue size %u is out of range, device %s allows 1 to %u (%s %p)", size,
			      ep->node->pci_addr, cap, ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ep->recv_queue = size;
	return DOCA_SUCCESS;
}

/* ---- the library part of the lifecycle ---- */

static bool sd_comch_anything_configured(const struct sd_comch_ep *ep)
{
	return ep->ctx.task_types[SD_COMCH_SEND_TYPE].configured || ep->recv_cb != NULL || ep->connect_cb != NULL ||
	       ep->new_consumer_cb != NULL;
}

/* Release what a start built (also after a start that failed half way). */
static void sd_comch_teardown(struct sd_comch_ep *ep)
{
	sd_comch_io_join(ep);
	sd_comch_unlisten(ep);
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		struct doca_comch_connection *conn = &ep->conns[i];

		if (conn->fd >= 0 || atomic_load(&conn->phase) != SD_CONN_FREE)
			sd_comch_conn_free(ep, conn);
	}
	atomic_store(&ep->posted, 0);
	sd_comch_ring_fini(&ep->ring);
	free(ep->send_bufs);
	sd_pages_free(ep->recv_buf, ep->recv_buf_len);
	ep->send_bufs = NULL;
	ep->recv_buf = NULL;
	ep->staged.kind = SD_EV_NONE;
	ep->next_read = 0;
	ep->in_callback = false;
	ep->pend_head = NULL;
	ep->pend_tail = NULL;
	ep->lost_peer = false;
	atomic_store(&ep->connected, false);
}

static doca_error_t sd_comch_start(struct doca_ctx *ctx)
{
	static const char func[] = "doca_ctx_start";
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);
	const struct sd_task_conf *send = &ctx->task_types[SD_COMCH_SEND_TYPE];
	doca_error_t err;

	if (!sd_comch_anything_configured(ep)) {
		SD_LOG_ERR_AS(func,
			      "neither send tasks nor any event were configured, a Comch context needs at least one "
			      "to start (%s %p)",
			      ctx->ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/*
	 * Each send task owns one message slot, and one buffer receives: no
	 * message ever allocates.  Plain malloc for the send slots: untouched
	 * pages cost nothing.  The receive buffer, which the kernel fills, has
	 * pages of its own (sd_pages.h says why).
	 */
	ep->recv_buf_len = ep->max_msg;
	ep->recv_buf = sd_pages_alloc(ep->recv_buf_len);
	if (send->configured)
		ep->send_bufs = malloc((size_t)send->num_tasks * ep->max_msg);
	if (ep->recv_buf == NULL || (send->configured && ep->send_bufs == NULL) ||
	    sd_comch_ring_init(&ep->ring, ep->max_conns) != DOCA_SUCCESS) {
		sd_comch_teardown(ep);
		SD_LOG_ERR_AS(func, "out of memory for the message buffers (%s %p)", ctx->ops->type_name, (void *)ep);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = sd_comch_addr_build(ep, func);
	if (err == DOCA_SUCCESS && ep->is_server)
		err = sd_comch_listen(ep, func);
	if (err == DOCA_SUCCESS)
		err = sd_comch_io_start(ep, func);
	if (err != DOCA_SUCCESS)
		sd_comch_teardown(ep);
	return err;
}

static void sd_comch_release(struct doca_ctx *ctx)
{
	sd_comch_teardown(sd_comch_ep_of_ctx(ctx));
}

/*
 * Entering STOPPING: every peer hears the end of stream at once; the links
 * themselves are torn down by the following progress calls, one per call,
 * and the context reaches IDLE after the last.
 */
static void sd_comch_on_stopping(struct doca_ctx *ctx)
{
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);

	/* Sends still waiting for socket room are flushed (DOCA_ERROR_SHUTDOWN). */
	sd_comch_fail_pending(ep, NULL, DOCA_ERROR_SHUTDOWN);
	ep->lost_peer = false;
	pthread_mutex_lock(&ep->rx_lock);
	ep->staged.kind = SD_EV_NONE;
	pthread_mutex_unlock(&ep->rx_lock);
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		struct doca_comch_connection *conn = &ep->conns[i];

		if (atomic_load_explicit(&conn->phase, memory_order_acquire) != SD_CONN_POSTED)
			continue;
		shutdown(conn->fd, SHUT_RDWR);
		if (conn->app == SD_APP_LIVE)
			conn->app = SD_APP_CLOSING;
	}
	sd_comch_io_request_stop(ep);
}

static bool sd_comch_has_outstanding(struct doca_ctx *ctx)
{
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);

	return atomic_load(&ep->posted) != 0 || !sd_comch_ring_empty(&ep->ring);
}

/*
 * STARTING -> RUNNING once the I/O thread finished the handshake.  The
 * connection becomes usable here, before the RUNNING callback runs (the
 * control-path client sends from it).
 */
static bool sd_comch_client_started(struct doca_ctx *ctx)
{
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);
	struct doca_comch_connection *conn = &ep->conns[0];

	if (!atomic_load(&ep->connected))
		return false;
	/* The RUNNING callback may send at once: the link is usable from here. */
	if (conn->app != SD_APP_LIVE) {
		conn->app = SD_APP_LIVE;
		conn->user_data.u64 = 0;
		memset(conn->count, 0, sizeof(conn->count));
		memset(conn->snap, 0, sizeof(conn->snap));
	}
	return true;
}

const struct sd_ctx_ops sd_comch_server_ops = {
	.type_name = "doca_comch_server",
	.start = sd_comch_start,
	.sync_start = true,
	.release = sd_comch_release,
	.has_outstanding = sd_comch_has_outstanding,
	.on_stopping = sd_comch_on_stopping,
	.event_pending = sd_comch_event_pending,
	.event_dispatch = sd_comch_event_dispatch,
};

const struct sd_ctx_ops sd_comch_client_ops = {
	.type_name = "doca_comch_client",
	.start = sd_comch_start,
	.sync_start = false,
	.release = sd_comch_release,
	.has_outstanding = sd_comch_has_outstanding,
	.on_stopping = sd_comch_on_stopping,
	.event_pending = sd_comch_event_pending,
	.event_dispatch = sd_comch_event_dispatch,
	.start_complete = sd_comch_client_started,
};
