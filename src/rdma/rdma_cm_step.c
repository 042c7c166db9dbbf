/*
 * rdma_cm_step.c - one look at every socket of the connection manager:
 * new clients on the listener, the handshakes under way, the peers of
 * established connections.  What the peer sends is checked before it is
 * used (rdma_cm_wire.c, then the blob checks of rdma_blob.c); a peer that
 * breaks a rule is refused with one record and never reaches the program.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doca_log.h>

#include "rdma_cm.h"
#include "sd_log.h"

/* Clients that connected but sent no request yet, per listener; more are turned away. */
#define SD_RDMA_CM_MAX_UNIDENTIFIED 64u
/* New clients taken per step, so a flood cannot hold the progress thread. */
#define SD_RDMA_CM_ACCEPTS_PER_STEP 16

#define SD_CM_LOG(level, ...) priv_doca_sdk_log_at(level, __FILE__, __LINE__, "doca_pe_progress", __VA_ARGS__)

static void sd_rdma_cm_take_new(struct doca_rdma *rdma)
{
	struct sd_rdma_cm *cm = rdma->cm;

	for (int i = 0; i < SD_RDMA_CM_ACCEPTS_PER_STEP; i++) {
		struct doca_rdma_addr peer;
		int fd = sd_rdma_cm_sock_accept(cm->listen_fd, &peer);
		if (fd < 0)
			return;
		struct sd_rdma_cm_link *link = NULL;
		if (cm->unidentified < SD_RDMA_CM_MAX_UNIDENTIFIED)
			link = sd_rdma_cm_link_new(rdma, fd, true);
		if (link == NULL) {
			SD_CM_LOG(DOCA_LOG_LEVEL_WARNING,
				  "rdma %p: turned away a client from %s: %u clients of port %u sent no request yet",
				  (void *)rdma, peer.text, cm->unidentified, cm->listen_port);
			close(fd);
			continue;
		}
		link->addr = peer;
	}
}

/* Refuse a request before the program sees it: tell the client, then forget it. */
static void sd_rdma_cm_refuse(struct sd_rdma_cm_link *link)
{
	sd_rdma_cm_link_send(link, SD_RDMA_CM_REJECT, NULL, 0);
	sd_rdma_cm_link_close(link);
	link->doomed = true;
}

/* Server: a client's request; it becomes a connection that the request callback hands over. */
static void sd_rdma_cm_on_request(struct sd_rdma_cm_link *link, const struct sd_rdma_cm_msg *msg)
{
	struct doca_rdma *rdma = link->rdma;
	struct sd_rdma_conn_ident id;
	struct doca_rdma_connection *conn;
	const char *why = sd_rdma_blob_decode(msg->blob, SD_RDMA_BLOB_LEN, &id);

	if (why != NULL) {
		SD_CM_LOG(DOCA_LOG_LEVEL_ERROR, "rdma %p: refused the request of %s: its connection blob %s",
			  (void *)rdma, link->addr.text, why);
		sd_rdma_cm_refuse(link);
		return;
	}
	if (rdma->num_conns >= rdma->max_conns || rdma->cb_request == NULL) {
		SD_CM_LOG(DOCA_LOG_LEVEL_WARNING, "rdma %p: rejected the request of %s: %s", (void *)rdma,
			  link->addr.text,
			  rdma->cb_request == NULL ? "no connection request callback is set"
						   : "max_num_connections connections exist already (raise "
						     "doca_rdma_set_max_num_connections)");
		sd_rdma_cm_refuse(link);
		return;
	}
	if (sd_rdma_conn_new(rdma, &conn, "doca_pe_progress") != DOCA_SUCCESS) {
		sd_rdma_cm_refuse(link);
		return;
	}
	rdma->cm->unidentified--;
	sd_rdma_cm_link_bind(link, conn);
	memcpy(link->peer_blob, msg->blob, SD_RDMA_BLOB_LEN);
	link->phase = SD_RDMA_CM_REQUESTED;
	sd_rdma_cm_raise(link, SD_RDMA_CM_EV_REQUEST);
}

/* Client: the server accepted; join with its blob and tell it so. */
static void sd_rdma_cm_on_accept(struct sd_rdma_cm_link *link, const struct sd_rdma_cm_msg *msg)
{
	if (sd_rdma_conn_join(link->conn, msg->blob, SD_RDMA_BLOB_LEN, "doca_pe_progress") != DOCA_SUCCESS) {
		sd_rdma_cm_link_fail(link); /* the server sees the socket close before READY */
		return;
	}
	sd_rdma_cm_link_send(link, SD_RDMA_CM_READY, NULL, 0);
	link->phase = SD_RDMA_CM_ESTABLISHED;
	sd_rdma_cm_raise(link, SD_RDMA_CM_EV_ESTABLISHED);
}

/* The peer ended an established connection (message, closed socket or dead process). */
static void sd_rdma_cm_on_peer_gone(struct sd_rdma_cm_link *link)
{
	sd_rdma_net_peer_ending(link->rdma); /* answers the peer sent before it went complete our sends */
	sd_rdma_conn_cut(link->conn);
	link->phase = SD_RDMA_CM_PEER_GONE;
	sd_rdma_cm_link_close(link);
	sd_rdma_cm_raise(link, SD_RDMA_CM_EV_DISCONNECT);
}

/* The socket closed or broke. */
static void sd_rdma_cm_on_eof(struct sd_rdma_cm_link *link)
{
	if (link->phase == SD_RDMA_CM_ESTABLISHED) {
		sd_rdma_cm_on_peer_gone(link);
		return;
	}
	if (link->conn == NULL) { /* a client that left before its request */
		sd_rdma_cm_link_close(link);
		link->doomed = true;
		return;
	}
	if (!link->server)
		SD_CM_LOG(DOCA_LOG_LEVEL_WARNING, "rdma %p: connection %u to %s port %u: the server closed the "
			  "connection during the handshake", (void *)link->rdma, link->conn->id, link->addr.text,
			  link->addr.port);
	sd_rdma_cm_link_fail(link);
}

/* One message in the phase it came in; a message out of place breaks the protocol. */
static void sd_rdma_cm_on_message(struct sd_rdma_cm_link *link, const struct sd_rdma_cm_msg *msg)
{
	enum sd_rdma_cm_phase ph = link->phase;

	if (link->server && ph == SD_RDMA_CM_WAIT_REQUEST && msg->type == SD_RDMA_CM_REQUEST)
		sd_rdma_cm_on_request(link, msg);
	else if (!link->server && ph == SD_RDMA_CM_REQUESTED && msg->type == SD_RDMA_CM_ACCEPT)
		sd_rdma_cm_on_accept(link, msg);
	else if (!link->server && ph == SD_RDMA_CM_REQUESTED && msg->type == SD_RDMA_CM_REJECT) {
		SD_CM_LOG(DOCA_LOG_LEVEL_WARNING, "rdma %p: connection %u: the server at %s port %u rejected it",
			  (void *)link->rdma, link->conn->id, link->addr.text, link->addr.port);
		sd_rdma_cm_link_fail(link);
	} else if (link->server && ph == SD_RDMA_CM_ACCEPTED && msg->type == SD_RDMA_CM_READY) {
		link->phase = SD_RDMA_CM_ESTABLISHED;
		sd_rdma_cm_raise(link, SD_RDMA_CM_EV_ESTABLISHED);
	} else if (ph == SD_RDMA_CM_ESTABLISHED && msg->type == SD_RDMA_CM_DISCONNECT)
		sd_rdma_cm_on_peer_gone(link);
	else if (link->server && ph == SD_RDMA_CM_ACCEPTED && msg->type == SD_RDMA_CM_DISCONNECT)
		sd_rdma_cm_link_fail(link); /* the client gave up before it was ready */
	else {
		SD_CM_LOG(DOCA_LOG_LEVEL_ERROR, "rdma %p: the peer at %s sent message type %d where the handshake "
			  "does not allow it; the connection is dropped", (void *)link->rdma, link->addr.text,
			  (int)msg->type);
		sd_rdma_cm_on_eof(link);
	}
}

/* Handle the complete messages in the input, one event at a time. */
static void sd_rdma_cm_consume(struct sd_rdma_cm_link *link)
{
	while (link->fd >= 0 && link->event == SD_RDMA_CM_EV_NONE && !link->doomed) {
		struct sd_rdma_cm_msg msg;
		size_t used = 0;
		const char *why = NULL;
		enum sd_rdma_cm_parse_result r = sd_rdma_cm_parse(link->in, link->in_len, &msg, &used, &why);
		if (r == SD_RDMA_CM_PARSE_MORE)
			return;
		if (r == SD_RDMA_CM_PARSE_BAD) {
			SD_CM_LOG(DOCA_LOG_LEVEL_ERROR, "rdma %p: dropped the connection-manager peer at %s: %s",
				  (void *)link->rdma, link->addr.text, why);
			link->in_len = 0;
			sd_rdma_cm_on_eof(link);
			return;
		}
		sd_rdma_cm_on_message(link, &msg);
		memmove(link->in, link->in + used, link->in_len - used);
		link->in_len -= used;
	}
}

static void sd_rdma_cm_read(struct sd_rdma_cm_link *link)
{
	ssize_t n = recv(link->fd, link->in + link->in_len, sizeof(link->in) - link->in_len, MSG_DONTWAIT);

	/*
	 * EFAULT: the link's heap page is write-protected for a moment while a
	 * registration moves it (docs/mmap-registration.md).  A stream socket
	 * keeps the bytes it could not copy; the next progress reads them.
	 */
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != EFAULT)) {
		sd_rdma_cm_on_eof(link);
		return;
	}
	if (n > 0) {
		link->in_len += (size_t)n;
		sd_rdma_cm_consume(link);
	}
}

/* Client: the TCP connect finished or failed; then the request goes out. */
static bool sd_rdma_cm_connecting(struct sd_rdma_cm_link *link)
{
	int done = sd_rdma_cm_sock_connect_done(link->fd);

	if (done == 0)
		return false;
	if (done < 0) {
		SD_CM_LOG(DOCA_LOG_LEVEL_WARNING, "rdma %p: connection %u: no server at %s port %u (%s)",
			  (void *)link->rdma, link->conn->id, link->addr.text, link->addr.port, strerror(errno));
		sd_rdma_cm_link_fail(link);
		return false;
	}
	link->phase = SD_RDMA_CM_REQUESTED;
	(void)sd_rdma_cm_watch(link->rdma->cm, link->fd, EPOLLIN | EPOLLRDHUP, link, true); /* writable for good now */
	sd_rdma_cm_link_send(link, SD_RDMA_CM_REQUEST, NULL, 0);
	return true;
}

static void sd_rdma_cm_link_step(struct sd_rdma_cm_link *link)
{
	bool handshaking = !link->server && (link->phase == SD_RDMA_CM_CONNECTING || link->phase == SD_RDMA_CM_REQUESTED);

	if (handshaking && sd_mono_ns() > link->deadline_ns) {
		SD_CM_LOG(DOCA_LOG_LEVEL_WARNING,
			  "rdma %p: connection %u: %s port %u did not answer within the connection request timeout",
			  (void *)link->rdma, link->conn->id, link->addr.text, link->addr.port);
		sd_rdma_cm_link_fail(link);
		return;
	}
	if (link->phase == SD_RDMA_CM_CONNECTING && !sd_rdma_cm_connecting(link))
		return;
	sd_rdma_cm_consume(link); /* what an earlier read left behind an event */
	if (link->fd >= 0 && link->event == SD_RDMA_CM_EV_NONE && !link->doomed) {
		sd_rdma_cm_read(link);
	}
	sd_rdma_cm_link_flush(link); /* what the socket did not take at once */
}

/* Whether a link needs a step although its socket had no news: bytes left, output queued, a deadline. */
static bool sd_rdma_cm_link_busy(const struct sd_rdma_cm_link *l)
{
	return l->ready || l->in_len != 0 || l->out_len != 0 ||
	       (!l->server && (l->phase == SD_RDMA_CM_CONNECTING || l->phase == SD_RDMA_CM_REQUESTED));
}

/* One epoll_wait says which sockets have news, so quiet established connections cost nothing. */
void sd_rdma_cm_step(struct doca_rdma *rdma)
{
	struct epoll_event evs[64];
	int n = epoll_wait(rdma->cm->epfd, evs, 64, 0);

	for (int i = 0; i < n; i++) {
		struct sd_rdma_cm_link *l = evs[i].data.ptr;
		if (l == NULL)
			sd_rdma_cm_take_new(rdma);
		else
			l->ready = true;
	}
	for (struct sd_rdma_cm_link *l = rdma->cm->links; l != NULL; l = l->next) {
		if (l->fd >= 0 && l->event == SD_RDMA_CM_EV_NONE && !l->doomed && sd_rdma_cm_link_busy(l))
			sd_rdma_cm_link_step(l);
		l->ready = false;
	}
}
