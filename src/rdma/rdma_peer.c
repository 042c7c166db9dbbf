/*
 * rdma_peer.c - where the two ends of a connection run, and how each end
 * makes sure the other is alive and is who its blob says.
 *
 * Every connection end publishes a 16-byte record (sd_presence.h): magic,
 * connection id, the context's permissions.  A peer of this PID namespace
 * checks the end through /proc (pid and start time); a peer in another
 * namespace or on another machine asks the end itself over the transport,
 * proving the blob's token, and takes the permissions from the answer
 * rather than from the blob: the exporter's word decides what the peer may
 * do to memory behind it.  A forged or stale blob gets no answer.
 *
 * Record, little-endian: u32 magic "SDRP", u32 connection id,
 * u32 permissions, u32 zero.
 */
#include <string.h>

#include "rdma_priv.h"
#include "sd_log.h"

#define SD_RDMA_PRESENCE_MAGIC 0x50524453u /* "SDRP" */

static void sd_rdma_rec_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t sd_rdma_rec_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

doca_error_t sd_rdma_peer_publish(struct doca_rdma_connection *conn, const char *func)
{
	memset(conn->presence_rec, 0, sizeof(conn->presence_rec));
	sd_rdma_rec_put32(conn->presence_rec, SD_RDMA_PRESENCE_MAGIC);
	sd_rdma_rec_put32(conn->presence_rec + 4, conn->self.conn_id);
	sd_rdma_rec_put32(conn->presence_rec + 8, conn->self.perms);
	return priv_doca_presence_publish(func, conn->presence_rec, conn->self.token, &conn->self.at, &conn->presence);
}

void sd_rdma_peer_withdraw(struct doca_rdma_connection *conn)
{
	void *handle = conn->presence;

	conn->presence = NULL;
	priv_doca_presence_withdraw(handle);
}

/* The blob names a connection of this very process (its registry then checks the token). */
static bool sd_rdma_peer_is_self(const struct doca_rdma_connection *conn, const struct sd_rdma_conn_ident *id)
{
	const struct sd_presence_ref *a = &conn->self.at, *b = &id->at;

	return id->pid == conn->self.pid && id->start_time == conn->self.start_time &&
	       memcmp(a->boot_id, b->boot_id, sizeof(a->boot_id)) == 0 && a->pidns_dev == b->pidns_dev &&
	       a->pidns_ino == b->pidns_ino;
}

/* Ask the peer over the network; on success its own record replaces what the blob claims. */
static doca_error_t sd_rdma_peer_ask(struct doca_rdma_connection *conn, struct sd_rdma_conn_ident *id)
{
	uint8_t rec[SD_PRESENCE_REC_LEN];
	doca_error_t err = priv_doca_presence_fetch("doca_rdma_connect", &id->at, id->pid, id->token, rec);

	if (err != DOCA_SUCCESS)
		return err;
	if (sd_rdma_rec_get32(rec) != SD_RDMA_PRESENCE_MAGIC || sd_rdma_rec_get32(rec + 4) != id->conn_id ||
	    sd_rdma_rec_get32(rec + 12) != 0)
		return SD_REJECT_AS("doca_rdma_connect", DOCA_ERROR_NOT_FOUND,
				    "the peer (pid %u) answered for something other than connection %u (a blob of "
				    "another softdoca version, or altered); export a new one on the peer",
				    id->pid, id->conn_id);
	id->perms = sd_rdma_rec_get32(rec + 8);
	conn->remote_net = true;
	return DOCA_SUCCESS;
}

doca_error_t sd_rdma_peer_verify(struct doca_rdma_connection *conn, struct sd_rdma_conn_ident *id)
{
	conn->remote_net = false;
	if (sd_rdma_peer_is_self(conn, id))
		return DOCA_SUCCESS;
	if (!priv_doca_presence_local(&id->at))
		return sd_rdma_peer_ask(conn, id);
	if (!sd_rdma_process_alive(id->pid, id->start_time))
		return SD_REJECT_AS("doca_rdma_connect", DOCA_ERROR_NOT_FOUND,
				    "the blob's exporter (pid %u) is gone or is another process now (stale blob); "
				    "export a new one on the peer",
				    id->pid);
	return DOCA_SUCCESS;
}
