/*
 * rdma_conn.c - connections made from out-of-band blobs: doca_rdma_export,
 * doca_rdma_connect, doca_rdma_connection_disconnect, and what a
 * connection carries (id, user data).
 *
 * Every connection end owns an inbox ring (rdma_ring.h), created at
 * export and named in the blob.  A peer of this same process is also
 * known by pointer (`peer`), so that either side's stop cuts the other at
 * once and wakes its progress engine.  A peer in another process is checked
 * (alive and who its blob says, rdma_peer.c: through /proc in this PID
 * namespace, by asking the peer over the network elsewhere); on this
 * machine doca_rdma_connect then maps the peer's ring, which our sends
 * fill.  The bytes of one-sided tasks travel through the RDMA export of the
 * peer's memory; see docs/rdma.md for what a peer elsewhere does not serve.
 *
 * The process registry (a list under one mutex) is touched only by export,
 * connect and teardown, never per task.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>

#include "rdma_cm.h"
#include "rdma_priv.h"
#include "rdma_wake.h"
#include "sd_log.h"

static pthread_mutex_t sd_rdma_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_rdma_connection *sd_rdma_registry;

static void sd_rdma_registry_add(struct doca_rdma_connection *conn)
{
	pthread_mutex_lock(&sd_rdma_registry_lock);
	conn->reg_next = sd_rdma_registry;
	sd_rdma_registry = conn;
	pthread_mutex_unlock(&sd_rdma_registry_lock);
}

/* Unlink `conn` and cut every same-process peer off it (lock held). */
static void sd_rdma_registry_remove_locked(struct doca_rdma_connection *conn)
{
	for (struct doca_rdma_connection **p = &sd_rdma_registry; *p != NULL;) {
		if (*p == conn) {
			*p = conn->reg_next;
			continue;
		}
		if (atomic_load(&(*p)->peer) == conn) {
			atomic_store(&(*p)->peer, NULL);
			atomic_store(&(*p)->state, SD_RDMA_CONN_DISCONNECTED);
		}
		p = &(*p)->reg_next;
	}
}

/* The live connection of this process that `id` names, token included (lock held). */
static struct doca_rdma_connection *sd_rdma_registry_find_locked(const struct sd_rdma_conn_ident *id)
{
	for (struct doca_rdma_connection *c = sd_rdma_registry; c != NULL; c = c->reg_next)
		if (c->self.conn_id == id->conn_id && c->self.ctx_serial == id->ctx_serial &&
		    memcmp(c->self.token, id->token, SD_RDMA_TOKEN_LEN) == 0)
			return c;
	return NULL;
}

bool sd_rdma_conn_usable(const struct doca_rdma_connection *conn)
{
	return atomic_load_explicit(&conn->state, memory_order_acquire) == SD_RDMA_CONN_CONNECTED;
}

/* The connection's inbox ring, and the right for a peer to read our send buffers. */
static doca_error_t sd_rdma_conn_inbox(struct doca_rdma_connection *conn, const char *func)
{
	int err = sd_rdma_ring_create(&conn->inbox, conn->id, conn->self.token);

	if (err != 0)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY,
				    "cannot create the inbox of connection %u (memfd of %zu bytes): %s", conn->id,
				    sd_rdma_ring_bytes(), strerror(err));
	conn->self.ring_fd = conn->inbox.fd;
	conn->inbox.ring->owner_wake_fd1 = sd_rdma_wake_fd(conn->rdma) + 1; /* 0 when there is none */
	conn->self.ring_bytes = sd_rdma_ring_bytes();
	/* A peer's progress thread pulls our send buffers with process_vm_readv, as DMA importers do. */
	(void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	return DOCA_SUCCESS;
}

doca_error_t sd_rdma_conn_new(struct doca_rdma *rdma, struct doca_rdma_connection **out, const char *func)
{
	struct doca_rdma_connection *conn = calloc(1, sizeof(*conn));

	if (conn == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY, "cannot allocate a connection (rdma %p)", (void *)rdma);
	conn->inbox.fd = conn->outbox.fd = -1;
	sd_rdma_puller_init(&conn->puller, 0);
	if (sd_rdma_self_identity(&conn->self.pid, &conn->self.start_time) != 0 ||
	    getrandom(conn->self.token, SD_RDMA_TOKEN_LEN, 0) != (ssize_t)SD_RDMA_TOKEN_LEN) {
		free(conn);
		return SD_REJECT_AS(func, DOCA_ERROR_OPERATING_SYSTEM,
				    "cannot read this process's identity or random bytes for a connection (rdma %p)",
				    (void *)rdma);
	}
	conn->rdma = rdma;
	conn->id = rdma->next_conn_id;
	if (sd_rdma_conn_inbox(conn, func) != DOCA_SUCCESS) {
		free(conn);
		return DOCA_ERROR_NO_MEMORY;
	}
	rdma->next_conn_id++;
	conn->self.conn_id = conn->id;
	conn->self.ctx_serial = rdma->serial;
	conn->self.perms = rdma->permissions;
	if (sd_rdma_peer_publish(conn, func) != DOCA_SUCCESS) {
		free(conn);
		return DOCA_ERROR_OPERATING_SYSTEM; /* logged by the publisher */
	}
	if (conn->self.at.net_family != 0)
		conn->self.msg_port = sd_rdma_net_offer(rdma, func); /* peers elsewhere send over UCX */
	atomic_init(&conn->state, SD_RDMA_CONN_EXPORTED);
	atomic_init(&conn->peer, NULL);
	sd_rdma_blob_encode(&conn->self, conn->blob);
	conn->magic = SD_RDMA_CONN_MAGIC;
	conn->next = rdma->conns;
	rdma->conns = conn;
	rdma->num_conns++;
	sd_rdma_registry_add(conn);
	*out = conn;
	return DOCA_SUCCESS;
}

/* A new connection, or DOCA_ERROR_FULL (logged) when `rdma` holds max_num_connections already. */
doca_error_t sd_rdma_conn_add(struct doca_rdma *rdma, struct doca_rdma_connection **out, const char *func)
{
	if (rdma->num_conns >= rdma->max_conns)
		return SD_REJECT_AS(func, DOCA_ERROR_FULL,
				    "rdma %p holds %u connections, its max_num_connections; raise it with "
				    "doca_rdma_set_max_num_connections before start",
				    (void *)rdma, rdma->num_conns);
	return sd_rdma_conn_new(rdma, out, func);
}

doca_error_t doca_rdma_export(struct doca_rdma *rdma, const void **local_rdma_conn_details,
			      size_t *local_rdma_conn_details_size, struct doca_rdma_connection **rdma_connection)
{
	struct doca_rdma_connection *conn;
	doca_error_t err = sd_rdma_check(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (local_rdma_conn_details == NULL || local_rdma_conn_details_size == NULL || rdma_connection == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "local_rdma_conn_details, its size and rdma_connection must not be NULL (rdma %p)",
				 (void *)rdma);
	if (rdma->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "rdma %p is %s; export connections once it is RUNNING",
				 (void *)rdma, sd_ctx_state_name(rdma->ctx.state));
	err = sd_rdma_conn_add(rdma, &conn, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	*local_rdma_conn_details = conn->blob;
	*local_rdma_conn_details_size = SD_RDMA_BLOB_LEN;
	*rdma_connection = conn;
	return DOCA_SUCCESS;
}

/* Map the ring the peer's blob names into conn->outbox. */
static doca_error_t sd_rdma_connect_outbox(struct doca_rdma_connection *conn, const struct sd_rdma_conn_ident *id,
					   int fd)
{
	doca_error_t code;
	const char *why = sd_rdma_ring_attach(&conn->outbox, id->pid, fd, id->conn_id, id->token, &code);

	if (why == NULL)
		return DOCA_SUCCESS;
	return SD_REJECT_AS("doca_rdma_connect", code,
			    "the blob of connection %u of pid %u %s; export a new one on the peer and pass its blob "
			    "unchanged",
			    id->conn_id, id->pid, why);
}

/* Join `conn` to the same-process connection that `id` names. */
static doca_error_t sd_rdma_connect_local(struct doca_rdma_connection *conn, const struct sd_rdma_conn_ident *id)
{
	struct doca_rdma_connection *peer;
	doca_error_t err = DOCA_SUCCESS;

	pthread_mutex_lock(&sd_rdma_registry_lock);
	peer = sd_rdma_registry_find_locked(id);
	if (peer != NULL)
		err = sd_rdma_connect_outbox(conn, id, peer->inbox.fd);
	if (peer != NULL && err == DOCA_SUCCESS)
		atomic_store(&conn->peer, peer);
	pthread_mutex_unlock(&sd_rdma_registry_lock);
	if (peer == NULL)
		return SD_REJECT_AS("doca_rdma_connect", DOCA_ERROR_NOT_FOUND,
				    "the blob names connection %u of this process, which no longer exists or whose "
				    "token differs (stale or forged blob); export a new one on the peer",
				    id->conn_id);
	return err;
}

doca_error_t doca_rdma_connect(struct doca_rdma *rdma, const void *remote_rdma_conn_details,
			       size_t remote_rdma_conn_details_size, struct doca_rdma_connection *rdma_connection)
{
	doca_error_t err = sd_rdma_check(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (remote_rdma_conn_details == NULL || !sd_rdma_conn_is_valid(rdma_connection) ||
	    rdma_connection->rdma != rdma || rdma_connection->cm != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "remote_rdma_conn_details is NULL or rdma_connection %p is not a connection that "
				 "doca_rdma_export made on rdma %p",
				 (void *)rdma_connection, (void *)rdma);
	if (rdma->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "rdma %p is %s; connect once it is RUNNING", (void *)rdma,
				 sd_ctx_state_name(rdma->ctx.state));
	if (atomic_load(&rdma_connection->state) != SD_RDMA_CONN_EXPORTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "connection %u is already connected or ended; export a new one",
				 rdma_connection->id);
	return sd_rdma_conn_join(rdma_connection, remote_rdma_conn_details, remote_rdma_conn_details_size, __func__);
}

/* Join `conn` to the peer that `blob` describes; the connection manager joins with it too. */
doca_error_t sd_rdma_conn_join(struct doca_rdma_connection *conn, const void *blob, size_t len, const char *func)
{
	struct sd_rdma_conn_ident id;
	const char *why = sd_rdma_blob_decode(blob, len, &id);

	if (why != NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "the %zu bytes at %p are not a connection blob: the blob %s", len, blob, why);
	doca_error_t err = sd_rdma_peer_verify(conn, &id);
	if (err != DOCA_SUCCESS)
		return err;
	if (conn->remote_net && sd_rdma_net_join(conn, &id, func) != DOCA_SUCCESS)
		return DOCA_ERROR_CONNECTION_ABORTED; /* logged */
	if (!conn->remote_net) {
		err = id.pid == conn->self.pid ? sd_rdma_connect_local(conn, &id)
						: sd_rdma_connect_outbox(conn, &id, id.ring_fd);
		if (err != DOCA_SUCCESS)
			return err;
		sd_rdma_puller_init(&conn->puller, id.pid);
	}
	conn->remote = id;
	atomic_store_explicit(&conn->state, SD_RDMA_CONN_CONNECTED, memory_order_release);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *rdma_connection)
{
	if (!sd_rdma_conn_is_valid(rdma_connection))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rdma_connection %p is NULL or not a live connection",
				 (void *)rdma_connection);
	if (rdma_connection->cm != NULL)
		return sd_rdma_cm_disconnect(rdma_connection);
	if (atomic_load(&rdma_connection->state) != SD_RDMA_CONN_CONNECTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "connection %u is not connected", rdma_connection->id);
	sd_rdma_conn_cut(rdma_connection);
	return DOCA_SUCCESS;
}

/* End `conn` and, when its peer is a connection of this process, that peer too. */
void sd_rdma_conn_cut(struct doca_rdma_connection *conn)
{
	pthread_mutex_lock(&sd_rdma_registry_lock);
	struct doca_rdma_connection *peer = atomic_load(&conn->peer);
	if (peer != NULL && atomic_load(&peer->peer) == conn) {
		atomic_store(&peer->peer, NULL);
		atomic_store(&peer->state, SD_RDMA_CONN_DISCONNECTED);
	}
	atomic_store(&conn->peer, NULL);
	sd_rdma_conn_mark_closed(conn);
	pthread_mutex_unlock(&sd_rdma_registry_lock);
}

/* Free one connection of a running context (the connection manager's failed handshakes). */
void sd_rdma_conn_free(struct doca_rdma_connection *conn)
{
	struct doca_rdma *rdma = conn->rdma;

	pthread_mutex_lock(&sd_rdma_registry_lock);
	for (struct doca_rdma_connection **p = &rdma->conns; *p != NULL; p = &(*p)->next)
		if (*p == conn) {
			*p = conn->next;
			break;
		}
	sd_rdma_registry_remove_locked(conn);
	pthread_mutex_unlock(&sd_rdma_registry_lock);
	sd_rdma_net_conn_free(conn);
	sd_rdma_conn_mark_closed(conn);
	sd_rdma_wake_conn_close(conn);
	sd_rdma_ring_detach(&conn->inbox);
	sd_rdma_ring_detach(&conn->outbox);
	sd_rdma_puller_close(&conn->puller);
	sd_rdma_peer_withdraw(conn);
	conn->magic = 0;
	free(conn);
}

/* The context leaves RUNNING: every connection ends; peers see it at once. */
void sd_rdma_conns_stopping(struct doca_rdma *rdma)
{
	pthread_mutex_lock(&sd_rdma_registry_lock);
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		struct doca_rdma_connection *peer = atomic_load(&c->peer);
		if (peer != NULL && atomic_load(&peer->peer) == c) {
			atomic_store(&peer->peer, NULL);
			atomic_store(&peer->state, SD_RDMA_CONN_DISCONNECTED);
		}
		atomic_store(&c->peer, NULL);
		sd_rdma_conn_mark_closed(c);
	}
	pthread_mutex_unlock(&sd_rdma_registry_lock);
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next)
		sd_rdma_peer_withdraw(c); /* peers elsewhere get no answer for it from now on */
}

/* The context reached IDLE or is destroyed: its connections are freed. */
void sd_rdma_conns_release(struct doca_rdma *rdma)
{
	pthread_mutex_lock(&sd_rdma_registry_lock);
	while (rdma->conns != NULL) {
		struct doca_rdma_connection *c = rdma->conns;
		rdma->conns = c->next;
		sd_rdma_registry_remove_locked(c);
		sd_rdma_conn_mark_closed(c);
		sd_rdma_wake_conn_close(c);
		sd_rdma_ring_detach(&c->inbox);
		sd_rdma_ring_detach(&c->outbox);
		sd_rdma_puller_close(&c->puller);
		sd_rdma_peer_withdraw(c);
		c->magic = 0;
		free(c);
	}
	rdma->num_conns = 0;
	pthread_mutex_unlock(&sd_rdma_registry_lock);
}

doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *rdma_connection,
						union doca_data connection_user_data)
{
	if (!sd_rdma_conn_is_valid(rdma_connection))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rdma_connection %p is NULL or not a live connection",
				 (void *)rdma_connection);
	rdma_connection->user_data = connection_user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_user_data(const struct doca_rdma_connection *rdma_connection,
						union doca_data *connection_user_data)
{
	if (!sd_rdma_conn_is_valid(rdma_connection) || connection_user_data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "rdma_connection %p is not a live connection or connection_user_data is NULL",
				 (const void *)rdma_connection);
	*connection_user_data = rdma_connection->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *rdma_connection, uint32_t *connection_id)
{
	if (!sd_rdma_conn_is_valid(rdma_connection) || connection_id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "rdma_connection %p is not a live connection or connection_id is NULL",
				 (const void *)rdma_connection);
	*connection_id = rdma_connection->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_addr(const struct doca_rdma_connection *rdma_connection,
					   struct doca_rdma_addr **addr)
{
	if (!sd_rdma_conn_is_valid(rdma_connection) || addr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rdma_connection %p is not a live connection or addr is NULL",
				 (const void *)rdma_connection);
	if (rdma_connection->cm != NULL) {
		*addr = &rdma_connection->cm->addr;
		return DOCA_SUCCESS;
	}
	return SD_REJECT(DOCA_ERROR_NOT_FOUND,
			 "connection %u was made from an out-of-band blob and has no connection-manager address",
			 rdma_connection->id);
}
