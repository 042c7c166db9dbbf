/*
 * comch_events.c - the event step of an endpoint: receive, connect and
 * disconnect events handed to the application, one per doca_pe_progress
 * call (D-6), and the registration of their callbacks.
 *
 * Events come from the ring in the order the I/O thread saw them, so for
 * one connection the connect event precedes its messages and every message
 * precedes its disconnect (04 §1.9).  Task completions are reported by the
 * framework's task step, before any event, which gives the "send completion
 * before the reply" order of 04 §1.7.
 *
 * Events of a connection the application no longer sees (disconnected
 * locally, or its context is stopping) are consumed without a callback.
 */
#include <string.h>

#include "comch_priv.h"
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
 * softdoca has no fast path, so no consumer ever appears on a peer: the
 * callbacks are checked and kept, and never called (04 §1.10).
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

bool sd_comch_event_pending(struct doca_ctx *ctx)
{
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);

	if (ep->ring.cap != 0 && !sd_comch_ring_empty(&ep->ring))
		return true;
	/* Retrying a blocked send is progress when it gets through. */
	if (ep->pend_head != NULL && sd_comch_flush_pending(ep))
		return true;
	return sd_comch_lost_peer_due(ep);
}

/* Release the oldest ring entry, waking the I/O thread if it waits for room. */
static void sd_comch_consume(struct sd_comch_ep *ep)
{
	if (sd_comch_ring_pop(&ep->ring))
		sd_comch_io_wake(ep);
}

static void sd_comch_on_connect(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	doca_comch_event_connection_status_changed_cb_t cb = ep->connect_cb;

	sd_comch_consume(ep); /* nothing of the entry is needed below */
	conn->user_data.u64 = 0;
	memset(conn->count, 0, sizeof(conn->count));
	memset(conn->snap, 0, sizeof(conn->snap));
	if (ep->ctx.state != DOCA_CTX_STATE_RUNNING) {
		conn->app = SD_APP_CLOSING; /* the I/O thread is tearing it down */
		return;
	}
	conn->app = SD_APP_LIVE;
	if (cb != NULL)
		cb(&ep->ev_conn, conn, 1);
}

static void sd_comch_on_msg(struct sd_comch_ep *ep, struct sd_comch_ev *ev)
{
	struct doca_comch_connection *conn = ev->conn;

	if (conn->app == SD_APP_LIVE && ep->ctx.state == DOCA_CTX_STATE_RUNNING) {
		conn->count[DOCA_COMCH_COUNTER_RECV_MESSAGES - 1]++;
		conn->count[DOCA_COMCH_COUNTER_RECV_BYTES - 1] += ev->len;
		/* The buffer is the ring entry's: valid until the pop below. */
		if (ep->recv_cb != NULL)
			ep->recv_cb(&ep->ev_recv, ev->data, ev->len, conn);
	}
	sd_comch_consume(ep);
}

static void sd_comch_on_disconnect(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	bool running = ep->ctx.state == DOCA_CTX_STATE_RUNNING;
	bool was_live = conn->app == SD_APP_LIVE;

	sd_comch_consume(ep);
	sd_comch_fail_pending(ep, conn, DOCA_ERROR_NOT_CONNECTED);
	conn->app = SD_APP_CLOSING; /* no more sends while the callback runs */
	if (ep->is_server) {
		/* Valid until the callback returns; freed right after (04 §1.6). */
		if (was_live && running && ep->disconnect_cb != NULL)
			ep->disconnect_cb(&ep->ev_conn, conn, 1);
		sd_comch_conn_free(ep, conn);
		return;
	}
	sd_comch_conn_free(ep, conn);
	if (was_live && running) {
		/* 04 §1.11: pending reports first (NOT_CONNECTED), then STOPPING. */
		ep->lost_peer = true;
		if (sd_comch_lost_peer_due(ep)) {
			ep->lost_peer = false;
			priv_doca_ctx_fatal_stop(&ep->ctx);
		}
	}
}

void sd_comch_event_dispatch(struct doca_ctx *ctx)
{
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(ctx);
	struct sd_comch_ev *ev = ep->ring.cap != 0 ? sd_comch_ring_peek(&ep->ring) : NULL;

	if (ev == NULL) {
		/* A blocked send got through (reported next call), or the client lost its server. */
		if (sd_comch_lost_peer_due(ep)) {
			ep->lost_peer = false;
			priv_doca_ctx_fatal_stop(ctx);
		}
		return;
	}
	switch (ev->kind) {
	case SD_EV_CONNECT:
		sd_comch_on_connect(ep, ev->conn);
		break;
	case SD_EV_MSG:
		sd_comch_on_msg(ep, ev);
		break;
	default:
		sd_comch_on_disconnect(ep, ev->conn);
		break;
	}
}
