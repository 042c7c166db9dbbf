/*
 * comch_conn.c - connection objects: user data, owner lookups, counters,
 * and giving a slot back once its link has ended.
 *
 * Connection slots are allocated with their endpoint and live as long as it
 * does, so a connection pointer stays safe to check after its link ended;
 * `gen` tells a reused slot from the link a task was allocated for.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

static void sd_comch_conn_free_locked(struct sd_comch_ep *ep, struct doca_comch_connection *conn);

/*
 * Close the slot's socket and make it claimable again (progress thread,
 * or release after the I/O thread has ended).  Queued bytes are read and
 * dropped first: closing a socket with unread data would make the peer see
 * a reset instead of an orderly end of stream.
 */
void sd_comch_conn_free(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	/* Fast-path PEs on other threads may be reading or writing this socket right now. */
	pthread_mutex_lock(&ep->rx_lock);
	pthread_mutex_lock(&ep->tx_lock);
	sd_comch_conn_free_locked(ep, conn);
	pthread_mutex_unlock(&ep->tx_lock);
	pthread_mutex_unlock(&ep->rx_lock);
}

static void sd_comch_conn_free_locked(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	if (conn->fd >= 0) {
		char sink[256];

		if (ep->io.epfd >= 0)
			(void)epoll_ctl(ep->io.epfd, EPOLL_CTL_DEL, conn->fd, NULL);
		shutdown(conn->fd, SHUT_RDWR);
		while (recv(conn->fd, sink, sizeof(sink), MSG_DONTWAIT) > 0)
			;
		close(conn->fd);
		conn->fd = -1;
	}
	if (atomic_load_explicit(&conn->phase, memory_order_relaxed) == SD_CONN_POSTED)
		atomic_fetch_sub(&ep->posted, 1);
	if (ep->staged.kind != SD_EV_NONE && ep->staged.conn == conn)
		ep->staged.kind = SD_EV_NONE;
	sd_fp_remote_conn_gone(ep, conn);
	conn->app = SD_APP_ENDED;
	conn->user_data.u64 = 0;
	conn->out_task = NULL;
	conn->out_off = 0;
	conn->connecting = false;
	conn->gen++;
	atomic_store_explicit(&conn->phase, SD_CONN_FREE, memory_order_release);
}

/*
 * The application ends a connection (doca_comch_server_disconnect): the
 * peer sees the end of stream at once, sends still waiting fail, and the
 * slot is given back; no event follows.
 */
void sd_comch_conn_close_locally(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	sd_comch_fail_pending(ep, conn, DOCA_ERROR_NOT_CONNECTED);
	sd_comch_conn_free(ep, conn);
}

doca_error_t doca_comch_connection_set_user_data(struct doca_comch_connection *connection, union doca_data user_data)
{
	if (!sd_comch_conn_valid(connection))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "connection %p is NULL or not a Comch connection",
				 (void *)connection);
	connection->user_data = user_data;
	return DOCA_SUCCESS;
}

union doca_data doca_comch_connection_get_user_data(const struct doca_comch_connection *connection)
{
	union doca_data none = {.u64 = 0};

	if (!sd_comch_conn_valid(connection)) {
		SD_LOG_ERR("connection %p is NULL or not a Comch connection; returning zero user data",
			   (const void *)connection);
		return none;
	}
	return connection->user_data;
}

struct doca_comch_server *doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection)
{
	if (!sd_comch_conn_valid(connection)) {
		SD_LOG_ERR("connection %p is NULL or not a Comch connection", (const void *)connection);
		return NULL;
	}
	return connection->ep->is_server ? (struct doca_comch_server *)connection->ep : NULL;
}

struct doca_comch_client *doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection)
{
	if (!sd_comch_conn_valid(connection)) {
		SD_LOG_ERR("connection %p is NULL or not a Comch connection", (const void *)connection);
		return NULL;
	}
	return connection->ep->is_server ? NULL : (struct doca_comch_client *)connection->ep;
}

doca_error_t doca_comch_connection_update_info(struct doca_comch_connection *comch_connection)
{
	if (!sd_comch_conn_valid(comch_connection))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "comch_connection %p is NULL or not a Comch connection",
				 (void *)comch_connection);
	switch (comch_connection->app) {
	case SD_APP_LIVE:
		memcpy(comch_connection->snap, comch_connection->count, sizeof(comch_connection->snap));
		return DOCA_SUCCESS;
	case SD_APP_CLOSING:
	case SD_APP_ENDED:
		return SD_REJECT(DOCA_ERROR_CONNECTION_ABORTED, "connection %p has been disconnected",
				 (void *)comch_connection);
	default:
		return SD_REJECT(DOCA_ERROR_CONNECTION_INPROGRESS, "connection %p is not established",
				 (void *)comch_connection);
	}
}

doca_error_t doca_comch_connection_get_counter(const struct doca_comch_connection *comch_connection,
					       enum doca_comch_counter counter_type, uint64_t *counter_value)
{
	if (!sd_comch_conn_valid(comch_connection))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "comch_connection %p is NULL or not a Comch connection",
				 (const void *)comch_connection);
	if (counter_value == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "counter_value is NULL (connection %p)",
				 (const void *)comch_connection);
	if (counter_type < DOCA_COMCH_COUNTER_SENT_MESSAGES || counter_type > DOCA_COMCH_COUNTER_RECV_BYTES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "counter %d is not a doca_comch_counter value (connection %p)",
				 (int)counter_type, (const void *)comch_connection);
	*counter_value = comch_connection->snap[counter_type - 1];
	return DOCA_SUCCESS;
}
