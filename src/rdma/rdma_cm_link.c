/*
 * rdma_cm_link.c - the links of the connection manager: one per
 * connection in the making or established, with its socket, its queued
 * output and the event waiting for doca_pe_progress; and the hooks by
 * which the context polls, delivers, stops and releases them.
 *
 * Lifetimes: a link whose handshake failed is freed with its connection
 * after the failure callback (or at once when the program never saw the
 * connection); a link whose connection was established lives until the
 * context stops, since the program keeps the connection pointer.  A
 * connection holds one of max_num_connections from the request until it
 * ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rdma_cm.h"
#include "sd_log.h"

/* How often a spinning doca_pe_progress looks at the sockets (a handshake takes a few steps). */
#define SD_RDMA_CM_STEP_NS 200000ull

struct sd_rdma_cm *sd_rdma_cm_get(struct doca_rdma *rdma, const char *func)
{
	if (rdma->cm != NULL)
		return rdma->cm;
	rdma->cm = calloc(1, sizeof(*rdma->cm));
	if (rdma->cm == NULL) {
		SD_LOG_ERR_AS(func, "cannot allocate the connection manager of rdma %p", (void *)rdma);
		return NULL;
	}
	rdma->cm->listen_fd = -1;
	rdma->cm->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (rdma->cm->epfd < 0) {
		SD_LOG_ERR_AS(func, "cannot create the epoll set of the connection manager of rdma %p: %s", (void *)rdma,
			      strerror(errno));
		free(rdma->cm);
		rdma->cm = NULL;
	}
	return rdma->cm;
}

void sd_rdma_cm_forget(struct sd_rdma_cm *cm, int fd)
{
	(void)epoll_ctl(cm->epfd, EPOLL_CTL_DEL, fd, NULL);
	close(fd);
}

bool sd_rdma_cm_watch(struct sd_rdma_cm *cm, int fd, uint32_t events, struct sd_rdma_cm_link *link, bool change)
{
	struct epoll_event ev = {.events = events, .data.ptr = link};

	return epoll_ctl(cm->epfd, change ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &ev) == 0;
}

struct sd_rdma_cm_link *sd_rdma_cm_link_new(struct doca_rdma *rdma, int fd, bool server)
{
	struct sd_rdma_cm_link *link = calloc(1, sizeof(*link));

	if (link == NULL)
		return NULL;
	link->rdma = rdma;
	link->fd = fd;
	link->server = server;
	link->phase = server ? SD_RDMA_CM_WAIT_REQUEST : SD_RDMA_CM_CONNECTING;
	/* A client waits for its connect to finish (writable), then like a server for bytes or the end. */
	if (fd >= 0 && !sd_rdma_cm_watch(rdma->cm, fd, EPOLLIN | EPOLLRDHUP | (server ? 0 : EPOLLOUT), link, false)) {
		free(link);
		return NULL;
	}
	link->next = rdma->cm->links;
	rdma->cm->links = link;
	if (server)
		rdma->cm->unidentified++;
	return link;
}

void sd_rdma_cm_link_bind(struct sd_rdma_cm_link *link, struct doca_rdma_connection *conn)
{
	link->conn = conn;
	link->counted = true; /* sd_rdma_conn_new counted it */
	conn->cm = link;
}

/* Send what is queued, as far as the socket takes it now. */
void sd_rdma_cm_link_flush(struct sd_rdma_cm_link *link)
{
	while (link->out_len != 0 && link->fd >= 0) {
		ssize_t n = send(link->fd, link->out, link->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n <= 0)
			return; /* full (the next step retries) or broken (the next read sees it) */
		memmove(link->out, link->out + n, link->out_len - (size_t)n);
		link->out_len -= (size_t)n;
	}
}

void sd_rdma_cm_link_send(struct sd_rdma_cm_link *link, enum sd_rdma_cm_type type, const void *priv, uint8_t priv_len)
{
	uint8_t msg[SD_RDMA_CM_MSG_MAX];
	size_t n = sd_rdma_cm_encode(type, link->conn != NULL ? link->conn->blob : NULL, priv, priv_len, msg);

	/* At most two messages are ever queued (accept then disconnect), which out holds. */
	if (link->out_len + n > sizeof(link->out))
		return;
	memcpy(link->out + link->out_len, msg, n);
	link->out_len += n;
	sd_rdma_cm_link_flush(link);
}

void sd_rdma_cm_link_close(struct sd_rdma_cm_link *link)
{
	if (link->fd >= 0) {
		sd_rdma_cm_link_flush(link);
		sd_rdma_cm_forget(link->rdma->cm, link->fd);
		link->fd = -1;
	}
	if (link->server && link->conn == NULL && link->phase == SD_RDMA_CM_WAIT_REQUEST)
		link->rdma->cm->unidentified--;
	if (link->counted) {
		link->counted = false;
		link->rdma->num_conns--;
	}
	if (link->phase != SD_RDMA_CM_PEER_GONE)
		link->phase = SD_RDMA_CM_CLOSED;
}

void sd_rdma_cm_raise(struct sd_rdma_cm_link *link, enum sd_rdma_cm_event ev)
{
	link->event = ev;
	link->rdma->cm->events++;
}

void sd_rdma_cm_clear(struct sd_rdma_cm_link *link)
{
	if (link->event == SD_RDMA_CM_EV_NONE)
		return;
	link->event = SD_RDMA_CM_EV_NONE;
	link->rdma->cm->events--;
}

void sd_rdma_cm_link_fail(struct sd_rdma_cm_link *link)
{
	if (link->conn != NULL)
		sd_rdma_conn_cut(link->conn);
	sd_rdma_cm_link_close(link);
	if (link->user_knows || (!link->server && link->conn != NULL))
		sd_rdma_cm_raise(link, SD_RDMA_CM_EV_FAILURE); /* freed once the callback returned */
	else
		link->doomed = true;
}

void sd_rdma_cm_sweep(struct doca_rdma *rdma)
{
	for (struct sd_rdma_cm_link **p = &rdma->cm->links; *p != NULL;) {
		struct sd_rdma_cm_link *link = *p;
		if (!link->doomed) {
			p = &link->next;
			continue;
		}
		*p = link->next;
		sd_rdma_cm_clear(link);
		sd_rdma_cm_link_close(link);
		if (link->conn != NULL)
			sd_rdma_conn_free(link->conn);
		free(link);
	}
}

bool sd_rdma_cm_pending(struct doca_rdma *rdma)
{
	uint64_t now = sd_mono_ns();

	if (now >= rdma->cm->next_step_ns) {
		rdma->cm->next_step_ns = now + SD_RDMA_CM_STEP_NS;
		sd_rdma_cm_sweep(rdma);
		sd_rdma_cm_step(rdma);
	}
	return rdma->cm->events != 0;
}

/* Hand one event to the program's callback. */
static void sd_rdma_cm_deliver(struct doca_rdma *rdma, struct sd_rdma_cm_link *link, enum sd_rdma_cm_event ev)
{
	struct doca_rdma_connection *conn = link->conn;
	union doca_data ctx_ud = rdma->ctx.user_data;

	link->user_knows = true;
	switch (ev) {
	case SD_RDMA_CM_EV_REQUEST:
		rdma->cb_request(conn, ctx_ud);
		break;
	case SD_RDMA_CM_EV_ESTABLISHED:
		rdma->cb_established(conn, conn->user_data, ctx_ud);
		break;
	case SD_RDMA_CM_EV_FAILURE:
		link->doomed = true; /* the program was told; the next step frees it */
		rdma->cb_failure(conn, conn->user_data, ctx_ud);
		break;
	default:
		rdma->cb_disconnect(conn, conn->user_data, ctx_ud);
		break;
	}
}

bool sd_rdma_cm_dispatch(struct doca_rdma *rdma)
{
	if (rdma->cm->events == 0)
		return false;
	for (struct sd_rdma_cm_link *l = rdma->cm->links; l != NULL; l = l->next) {
		enum sd_rdma_cm_event ev = l->event;
		if (ev == SD_RDMA_CM_EV_NONE)
			continue;
		sd_rdma_cm_clear(l);
		sd_rdma_cm_deliver(rdma, l, ev);
		return true;
	}
	return false;
}

/* The context leaves RUNNING: peers hear of it; nothing more is delivered here. */
void sd_rdma_cm_stopping(struct doca_rdma *rdma)
{
	struct sd_rdma_cm *cm = rdma->cm;

	if (cm->listen_fd >= 0) {
		sd_rdma_cm_forget(cm, cm->listen_fd);
		cm->listen_fd = -1;
	}
	for (struct sd_rdma_cm_link *l = cm->links; l != NULL; l = l->next) {
		if (l->phase == SD_RDMA_CM_ESTABLISHED || l->phase == SD_RDMA_CM_ACCEPTED)
			sd_rdma_cm_link_send(l, SD_RDMA_CM_DISCONNECT, NULL, 0);
		else if (l->phase == SD_RDMA_CM_REQUESTED && l->server)
			sd_rdma_cm_link_send(l, SD_RDMA_CM_REJECT, NULL, 0);
		sd_rdma_cm_link_close(l);
		sd_rdma_cm_clear(l);
	}
}

/* The context reached IDLE or is destroyed: the links go; the connections go with the context's list. */
void sd_rdma_cm_release(struct doca_rdma *rdma)
{
	struct sd_rdma_cm *cm = rdma->cm;

	sd_rdma_cm_stopping(rdma);
	while (cm->links != NULL) {
		struct sd_rdma_cm_link *l = cm->links;
		cm->links = l->next;
		if (l->conn != NULL)
			l->conn->cm = NULL;
		free(l);
	}
	close(cm->epfd);
	free(cm);
	rdma->cm = NULL;
}

doca_error_t sd_rdma_cm_disconnect(struct doca_rdma_connection *conn)
{
	struct sd_rdma_cm_link *link = conn->cm;

	if (link->local_ended || (link->phase != SD_RDMA_CM_ESTABLISHED && link->phase != SD_RDMA_CM_PEER_GONE))
		return SD_REJECT_AS("doca_rdma_connection_disconnect", DOCA_ERROR_BAD_STATE,
				    "connection %u is %s; only an established connection can be disconnected, once",
				    conn->id, link->local_ended ? "disconnected already" : "not established");
	link->local_ended = true;
	sd_rdma_net_closing(conn); /* the peer hears our answers before the disconnect */
	sd_rdma_conn_cut(conn);
	if (link->phase == SD_RDMA_CM_ESTABLISHED)
		sd_rdma_cm_link_send(link, SD_RDMA_CM_DISCONNECT, NULL, 0);
	sd_rdma_cm_link_close(link);
	if (link->event == SD_RDMA_CM_EV_DISCONNECT)
		sd_rdma_cm_clear(link); /* the program ended it first: no callback for it */
	return DOCA_SUCCESS;
}
