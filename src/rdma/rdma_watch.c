/*
 * rdma_watch.c - noticing that the peer of a connection went away.
 *
 * A peer in this process cuts the connection itself when it stops or
 * disconnects (rdma_conn.c).  A peer in another process says so through
 * the two rings the connection shares: the end that stops sets
 * `owner_closed` in its own inbox and `sender_closed` in the peer's, two
 * plain loads for the other side.  A peer that dies says nothing; its
 * liveness lock on its inbox file is gone then, which costs one fcntl to
 * ask, so that question is asked at most once per SD_RDMA_WATCH_PERIOD_NS
 * per connection, on the progress thread (the NOT_CONNECTED bound of
 * docs/rdma.md).
 */
#include <string.h>

#include "rdma_priv.h"
#include "rdma_wake.h"
#include "sd_log.h"

bool sd_rdma_conn_ended(const struct doca_rdma_connection *conn)
{
	return atomic_load_explicit(&conn->state, memory_order_acquire) == SD_RDMA_CONN_DISCONNECTED;
}

void sd_rdma_conn_mark_closed(struct doca_rdma_connection *conn)
{
	atomic_store_explicit(&conn->state, SD_RDMA_CONN_DISCONNECTED, memory_order_release);
	if (conn->inbox.ring != NULL)
		atomic_store_explicit(&conn->inbox.ring->owner_closed, 1, memory_order_release);
	if (conn->outbox.ring != NULL)
		atomic_store_explicit(&conn->outbox.ring->sender_closed, 1, memory_order_release);
	/* A peer of another process asleep on its handle, for our messages or for its own: it learns of the end. */
	if (conn->outbox.ring != NULL && conn->inbox.ring != NULL) {
		sd_rdma_wake_peer(conn, &conn->outbox.ring->owner_asleep);
		sd_rdma_wake_peer(conn, &conn->inbox.ring->sender_asleep);
	}
}

/* What the rings say about the peer: NULL while it is there, else why not. */
static const char *sd_rdma_peer_gone(struct doca_rdma_connection *conn)
{
	if (atomic_load_explicit(&conn->outbox.ring->owner_closed, memory_order_acquire) != 0 ||
	    atomic_load_explicit(&conn->inbox.ring->sender_closed, memory_order_acquire) != 0)
		return "stopped its context or disconnected";
	uint64_t now = sd_mono_ns();
	if (now < conn->next_watch_ns)
		return NULL;
	conn->next_watch_ns = now + SD_RDMA_WATCH_PERIOD_NS;
	return sd_rdma_ring_owner_alive(&conn->outbox, conn->remote.pid) ? NULL : "exited";
}

bool sd_rdma_conn_watch(struct doca_rdma_connection *conn)
{
	if (!sd_rdma_conn_usable(conn))
		return false;
	if (conn->outbox.ring == NULL || conn->remote.pid == conn->self.pid)
		return true; /* a peer of this process ends the connection itself */
	const char *why = sd_rdma_peer_gone(conn);
	if (why == NULL)
		return true;
	/* A peer that ends the connection itself is ordinary; one that dies is worth a warning. */
	if (strcmp(why, "exited") == 0)
		SD_LOG_WARN("connection %u: the peer (pid %u) exited; its tasks in flight and later ones fail with "
			    "DOCA_ERROR_NOT_CONNECTED",
			    conn->id, conn->remote.pid);
	else
		SD_LOG_INFO("connection %u: the peer (pid %u) %s; tasks on it fail with DOCA_ERROR_NOT_CONNECTED",
			    conn->id, conn->remote.pid, why);
	sd_rdma_conn_mark_closed(conn);
	return false;
}
