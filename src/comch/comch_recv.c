/*
 * comch_recv.c - reading established connections, on the progress thread.
 *
 * The event step of doca_pe_progress asks whether the endpoint has an
 * event; when nothing is staged yet it reads at most one message (or an end
 * of stream) from its connections, round robin, straight into the
 * endpoint's receive buffer, and stages it for dispatch.  The socket itself
 * is the receive queue: the kernel keeps messages in order, and a sender
 * whose peer does not read waits (comch_send.c) instead of failing.
 *
 * Reading costs one non-blocking receive per connection when nothing
 * arrived; no allocation, and no other thread involved.  When the
 * application arms the PE instead of polling, every connection's one-shot
 * wake-up is re-armed so the library thread can signal it.
 *
 * The fast path reads ahead from the PEs of its consumers and producers
 * (sd_comch_fp_read_ahead), which a program may progress on threads of
 * their own (DOCA's secure_channel runs a producer and a consumer thread
 * beside the endpoint's).  Every read, and every use of the staged slot and
 * the receive buffer, therefore holds the endpoint's rx_lock; a reader that
 * finds it taken leaves the reading to its holder instead of waiting.  A
 * byte stream (TCP) must never have two readers: a frame's header and body
 * are two receives.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "comch_priv.h"

/* One receive on `conn`; true when it staged something (a message or the end). */
static bool sd_comch_read_conn(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	uint32_t kind = 0;
	struct iovec iov[2] = {{.iov_base = &kind, .iov_len = sizeof(kind)},
			       {.iov_base = ep->recv_buf, .iov_len = ep->max_msg}};
	ssize_t n = sd_comch_msg_recv(ep, conn->fd, iov, 2, sizeof(kind) + ep->max_msg);

	if (n == 0)
		return false;
	ep->staged.conn = conn;
	if (n >= (ssize_t)sizeof(kind) && kind == SD_WIRE_FP) {
		ep->staged.kind = SD_EV_FP;
		ep->staged.len = (uint32_t)((size_t)n - sizeof(kind));
		return true;
	}
	if (n < (ssize_t)sizeof(kind) || kind != SD_WIRE_DATA) {
		/* End of stream, a reset (the peer died), or a frame no softdoca peer sends. */
		ep->staged.kind = SD_EV_DISCONNECT;
		ep->staged.len = 0;
		return true;
	}
	ep->staged.kind = SD_EV_MSG;
	ep->staged.len = (uint32_t)((size_t)n - sizeof(kind));
	return true;
}

/*
 * Stage the next message or end of stream of a connected link, if any.
 * Never while a receive callback still reads the buffer (the callback may
 * submit a send, which asks for pending work).
 */
static bool sd_comch_read_one_locked(struct sd_comch_ep *ep)
{
	uint32_t n = ep->max_conns;

	if (ep->staged.kind != SD_EV_NONE)
		return true; /* staged by a fast-path reader, or not yet handed out */
	if (ep->in_callback || ep->ctx.state != DOCA_CTX_STATE_RUNNING)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t idx = (ep->next_read + i) % n;
		struct doca_comch_connection *conn = &ep->conns[idx];

		if (conn->app != SD_APP_LIVE)
			continue;
		if (sd_comch_read_conn(ep, conn)) {
			ep->next_read = (idx + 1) % n;
			return true;
		}
	}
	return false;
}

bool sd_comch_read_one(struct sd_comch_ep *ep)
{
	bool staged;

	if (pthread_mutex_trylock(&ep->rx_lock) != 0)
		return false; /* another thread reads: what it finds is staged for the next call */
	staged = sd_comch_read_one_locked(ep);
	pthread_mutex_unlock(&ep->rx_lock);
	return staged;
}

/* The application armed the PE: let each quiet connection wake it once. */
void sd_comch_watch_all(struct sd_comch_ep *ep)
{
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		struct doca_comch_connection *conn = &ep->conns[i];

		if (conn->app == SD_APP_LIVE && atomic_load(&conn->watch_fired))
			sd_comch_io_watch(ep, conn);
	}
}

/*
 * Read ahead for the fast path.  A producer or consumer on a PE of its own
 * (the DOCA samples make them so) must see the other side's posts and fills
 * while only its own PE is progressed, as a card's queues would show them.
 * When the endpoint has nothing staged, one message of `conn` is read: a
 * fast-path frame that calls no application callback (POST, FILLED, WAKE)
 * is applied at once; anything else stays staged for the endpoint's next
 * progress call, where its callbacks run.  True when a frame was applied.
 */
static bool sd_comch_fp_read_ahead_locked(struct sd_comch_ep *ep, struct doca_comch_connection *conn, bool *left)
{
	uint32_t len;

	if (ep->in_callback || ep->staged.kind != SD_EV_NONE || ep->ctx.state != DOCA_CTX_STATE_RUNNING ||
	    conn->app != SD_APP_LIVE || !sd_comch_read_conn(ep, conn))
		return false;
	if (ep->staged.kind != SD_EV_FP || !sd_fp_frame_is_quiet(ep->recv_buf, ep->staged.len)) {
		*left = true;
		return false;
	}
	len = ep->staged.len;
	ep->staged.kind = SD_EV_NONE;
	sd_fp_remote_on_frame(ep, conn, ep->recv_buf, len);
	return true;
}

bool sd_comch_fp_read_ahead(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	bool applied, left = false;

	if (pthread_mutex_trylock(&ep->rx_lock) != 0)
		return false; /* another thread reads this endpoint now */
	applied = sd_comch_fp_read_ahead_locked(ep, conn, &left);
	pthread_mutex_unlock(&ep->rx_lock);
	/*
	 * Left for the endpoint's PE, which may sleep on its handle: wake it.
	 * After the unlock: an endpoint that armed its PE while this thread
	 * held the lock found nothing to do and went to sleep, and its armed
	 * flag is seen here.
	 */
	if (left)
		sd_comch_io_kick(ep);
	return applied;
}
