/*
 * comch_events.c - the event step of an endpoint: receive, connect and
 * disconnect events handed to the application, one per doca_pe_progress
 * call, and the registration of their callbacks.
 *
 * A server's connect events come from the ring filled by its I/O thread;
 * messages and ends of stream are read from a connection only once its
 * connect event was handed out, and in socket order, so for one connection
 * the connect event precedes its messages and every message precedes its
 * disconnect.  Task completions are reported by the
 * framework's task step, before any event, which gives the "send completion
 * before the reply" order Comch promises.
 *
 * While the context is STOPPING, established connections are torn down one
 * per progress call, without callbacks, and nothing more is read.
 */
#include <string.h>
#include <sys/socket.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

/* ---- registration (IDLE only) ---- */

doca_error_t sd_comch_recv_register(struct sd_comch_ep *ep, doca_comch_event_msg_recv_cb_t cb, const char *func)
{
	doca_error_t err = sd_comch_ep_check_idle(ep, "the receive callback", func);

	if (err != DOCA_SUCCESS)
		return err;
	if (cb == NULL) {
		SD_LOG_ERR_AS(func, "recv_event_cb is NULL (%s %p)", ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ep->recv_cb = cb;
	return DOCA_SUCCESS;
}

/*
 * The callbacks hear of the other side's consumers: announced when one
 * starts, expired when it stops (comch_fp_remote.c).
 */
doca_error_t sd_comch_consumer_register(struct sd_comch_ep *ep, doca_comch_event_consumer_cb_t new_cb,
					doca_comch_event_consumer_cb_t expired_cb, const char *func)
{
	doca_error_t err = sd_comch_ep_check_idle(ep, "the consumer callbacks", func);

	if (err != DOCA_SUCCESS)
		return err;
	if (new_cb == NULL || expired_cb == NULL) {
		SD_LOG_ERR_AS(func, "%s is NULL, both consumer callbacks are required (%s %p)",
			      new_cb == NULL ? "new_consumer_event_cb" : "expired_consumer_event_cb",
			      ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ep->new_consumer_cb = new_cb;
	ep->expired_consumer_cb = expired_cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_event_msg_recv_register(struct doca_comch_server *comch_server,
						       doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "comch_server %p is NULL or not a live Comch server",
				 (void *)comch_server);
	return sd_comch_recv_register(&comch_server->ep, recv_event_cb, __func__);
}

doca_error_t doca_comch_client_event_msg_recv_register(struct doca_comch_client *comch_client,
						       doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "comch_client %p is NULL or not a live Comch client",
				 (void *)comch_client);
	return sd_comch_recv_register(&comch_client->ep, recv_event_cb, __func__);
}

doca_error_t doca_comch_server_event_connection_status_changed_register(
	struct doca_comch_server *comch_server,
	doca_comch_event_connection_status_changed_cb_t connect_event_cb,
	doca_comch_event_connection_status_changed_cb_t disconnect_event_cb)
{
	struct sd_comch_ep *ep;
	doca_error_t err;

	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "comch_server %p is NULL or not a live Comch server",
				 (void *)comch_server);
	ep = &comch_server->ep;
	err = sd_comch_ep_check_idle(ep, "the connection callbacks", __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (connect_event_cb == NULL || disconnect_event_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL, both connection callbacks are required (%p)",
				 connect_event_cb == NULL ? "connect_event_cb" : "disconnect_event_cb",
				 (void *)comch_server);
	ep->connect_cb = connect_event_cb;
	ep->disconnect_cb = disconnect_event_cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_event_consumer_register(struct doca_comch_server *comch_server,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "comch_server %p is NULL or not a live Comch server",
				 (void *)comch_server);
	return sd_comch_consumer_register(&comch_server->ep, new_consumer_event_cb, expired_consumer_event_cb,
					  __func__);
}

doca_error_t doca_comch_client_event_consumer_register(struct doca_comch_client *comch_client,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "comch_client %p is NULL or not a live Comch client",
				 (void *)comch_client);
	return sd_comch_consumer_register(&comch_client->ep, new_consumer_event_cb, expired_consumer_event_cb,
					  __func__);
}

/* ---- the event step ---- */

/* A client whose server went away stops once its last send was reported. */
static bool sd_comch_lost_peer_due(const struct sd_comch_ep *ep)
{
	return ep->lost_peer && ep->ctx.inflight == 0 && ep->ctx.state == DOCA_CTX_STATE_RUNNING;
}

/*
 * A STOPPING endpoint's next established connection to tear down, or NULL.
 * A server connection whose CONNECT is still queued waits for it.
 */
static struct doca_comch_connection *sd_comch_next_teardown(struct sd_comch_ep *ep)
{
	if (ep->ctx.state != DOCA_CTX_STATE_STOPPING)
		return NULL;
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		struct doca_comch_connection *conn = &ep->conns[i];

		bool announced = conn->app == SD_APP_LIVE || conn->app == SD_APP_CLOSING;

		if (atomic_load_explicit(&conn->phase, memory_order_acquire) == SD_CONN_POSTED &&
		    (announced || !ep->is_server))
			return conn;
	}
	return NULL;
}

bool sd_comch_event_pending(struct doca_ctx *ctx)
{
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);

	if (!sd_comch_ring_empty(&ep->ring))
		return true;
	/* Retrying a blocked send is progress when it gets through. */
	if (ep->pend_head != NULL && sd_comch_flush_pending(ep))
		return true;
	if (sd_comch_lost_peer_due(ep) || sd_comch_next_teardown(ep) != NULL)
		return true;
	if (sd_comch_read_one(ep))
		return true;
	/* Nothing to do and the application is about to wait: arm the wake-ups. */
	if (atomic_load(&ctx->pe->armed))
		sd_comch_watch_all(ep);
	return false;
}

static void sd_comch_on_connect(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	doca_comch_event_connection_status_changed_cb_t cb = ep->connect_cb;

	sd_comch_ring_pop(&ep->ring); /* nothing of the entry is needed below */
	conn->user_data.u64 = 0;
	memset(conn->count, 0, sizeof(conn->count));
	memset(conn->snap, 0, sizeof(conn->snap));
	if (ep->ctx.state != DOCA_CTX_STATE_RUNNING) {
		/* Connected while the server stops: end it, it is torn down next. */
		conn->app = SD_APP_CLOSING;
		shutdown(conn->fd, SHUT_RDWR);
		return;
	}
	conn->app = SD_APP_LIVE;
	if (cb != NULL)
		cb(&ep->ev_conn, conn, 1);
}

static void sd_comch_on_msg(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t len)
{
	conn->count[DOCA_COMCH_COUNTER_RECV_MESSAGES - 1]++;
	conn->count[DOCA_COMCH_COUNTER_RECV_BYTES - 1] += len;
	if (ep->recv_cb == NULL)
		return; /* nobody listens: the message is consumed */
	/* The buffer stays untouched until the callback returns. */
	ep->in_callback = true;
	ep->recv_cb(&ep->ev_recv, ep->recv_buf, len, conn);
	ep->in_callback = false;
}

static void sd_comch_on_disconnect(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	bool running = ep->ctx.state == DOCA_CTX_STATE_RUNNING;
	bool was_live = conn->app == SD_APP_LIVE;

	sd_comch_fail_pending(ep, conn, DOCA_ERROR_NOT_CONNECTED);
	conn->app = SD_APP_CLOSING; /* no more sends while the callback runs */
	if (ep->is_server) {
		/* Valid until the callback returns; freed right after. */
		if (was_live && running && ep->disconnect_cb != NULL)
			ep->disconnect_cb(&ep->ev_conn, conn, 1);
		sd_comch_conn_free(ep, conn);
		return;
	}
	sd_comch_conn_free(ep, conn);
	if (was_live && running) {
		/* Pending reports first (NOT_CONNECTED), then STOPPING. */
		ep->lost_peer = true;
		if (sd_comch_lost_peer_due(ep)) {
			ep->lost_peer = false;
			priv_doca_ctx_fatal_stop(&ep->ctx);
		}
	}
}

/* Hand out the staged message or end of stream. */
static void sd_comch_dispatch_staged(struct sd_comch_ep *ep)
{
	struct sd_comch_ev ev = ep->staged;

	ep->staged.kind = SD_EV_NONE;
	if (ev.kind == SD_EV_DISCONNECT) {
		sd_comch_on_disconnect(ep, ev.conn);
		return;
	}
	if (ev.kind == SD_EV_FP) {
		if (ev.conn->app == SD_APP_LIVE && ep->ctx.state == DOCA_CTX_STATE_RUNNING)
			sd_fp_remote_on_frame(ep, ev.conn, ep->recv_buf, ev.len);
		return;
	}
	if (ev.conn->app == SD_APP_LIVE && ep->ctx.state == DOCA_CTX_STATE_RUNNING)
		sd_comch_on_msg(ep, ev.conn, ev.len);
}

void sd_comch_event_dispatch(struct doca_ctx *ctx)
{
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);
	struct sd_comch_ev *ev;
	struct doca_comch_connection *conn;

	/* Held through the callbacks: recv_buf is the staged message's until they return. */
	pthread_mutex_lock(&ep->rx_lock);
	if (ep->staged.kind != SD_EV_NONE) {
		sd_comch_dispatch_staged(ep);
		pthread_mutex_unlock(&ep->rx_lock);
		return;
	}
	pthread_mutex_unlock(&ep->rx_lock);
	ev = sd_comch_ring_peek(&ep->ring);
	if (ev != NULL) {
		sd_comch_on_connect(ep, ev->conn);
		return;
	}
	if (sd_comch_lost_peer_due(ep)) {
		ep->lost_peer = false;
		priv_doca_ctx_fatal_stop(ctx);
		return;
	}
	conn = sd_comch_next_teardown(ep);
	if (conn != NULL)
		sd_comch_conn_free(ep, conn); /* one per call, no callback */
	/* Otherwise a blocked send got through: it is reported by the next call. */
}
