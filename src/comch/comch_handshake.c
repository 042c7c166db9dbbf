/*
 * comch_handshake.c - how a link becomes a connection (I/O thread only).
 *
 * Server: accept, claim a free connection slot (or refuse: full,
 * stopping), read the client's hello and check that it names this server
 * and its host function, answer with a welcome carrying the server's
 * message ceiling.  Client: connect to the rendezvous, send the hello, wait
 * for the welcome.  Each side keeps the smaller of the two ceilings.  A
 * refused or broken handshake just closes the socket; the client looks
 * again later.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "comch_priv.h"

/* ---- server side ---- */

static void sd_io_reject(int fd, uint32_t reason)
{
	struct sd_wire_reject rej = {.kind = SD_WIRE_REJECT, .reason = reason};

	(void)send(fd, &rej, sizeof(rej), MSG_DONTWAIT | MSG_NOSIGNAL);
}

static struct doca_comch_connection *sd_io_claim_slot(struct sd_comch_ep *ep)
{
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		struct doca_comch_connection *conn = &ep->conns[i];

		if (atomic_load_explicit(&conn->phase, memory_order_acquire) == SD_CONN_FREE)
			return conn;
	}
	return NULL;
}

static bool sd_io_watch(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP};

	ev.data.u64 = SD_TAG_CONN + (uint64_t)(conn - ep->conns);
	return epoll_ctl(ep->io.epfd, EPOLL_CTL_ADD, conn->fd, &ev) == 0;
}

void sd_comch_hs_accept(struct sd_comch_ep *ep)
{
	for (;;) {
		int fd = accept4(ep->io.listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct doca_comch_connection *conn;

		if (fd < 0)
			return; /* EAGAIN, or a client that gave up meanwhile */
		if (atomic_load(&ep->io.stop)) {
			sd_io_reject(fd, SD_REJECT_STOPPING);
			close(fd);
			continue;
		}
		conn = sd_io_claim_slot(ep);
		if (conn == NULL) {
			sd_io_reject(fd, SD_REJECT_FULL);
			close(fd);
			continue;
		}
		conn->fd = fd;
		atomic_store_explicit(&conn->phase, SD_CONN_HANDSHAKE, memory_order_relaxed);
		if (!sd_io_watch(ep, conn)) {
			close(fd);
			conn->fd = -1;
			atomic_store_explicit(&conn->phase, SD_CONN_FREE, memory_order_relaxed);
		}
	}
}

/* Does the hello frame of `n` bytes in the scratch buffer name this server? */
static bool sd_io_hello_matches(const struct sd_comch_ep *ep, ssize_t n, uint32_t *peer_max)
{
	struct sd_wire_hello hello;
	const char *name = (const char *)ep->io.scratch + sizeof(hello);

	if (n < (ssize_t)sizeof(hello))
		return false;
	memcpy(&hello, ep->io.scratch, sizeof(hello));
	if (hello.kind != SD_WIRE_HELLO || hello.version != SD_WIRE_VERSION || hello.max_msg == 0)
		return false;
	if (hello.name_len != ep->name_len || (size_t)n != sizeof(hello) + hello.name_len)
		return false;
	if (memcmp(name, ep->name, ep->name_len) != 0)
		return false;
	if (strncmp(hello.host_fn, ep->host_fn, sizeof(hello.host_fn)) != 0)
		return false;
	*peer_max = hello.max_msg;
	return true;
}

void sd_comch_hs_server(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct sd_wire_welcome welcome = {.kind = SD_WIRE_WELCOME, .version = SD_WIRE_VERSION, .max_msg = ep->max_msg};
	uint32_t peer_max = 0;
	ssize_t n = recv(conn->fd, ep->io.scratch, ep->io.scratch_len, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n <= 0) {
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	if (!sd_io_hello_matches(ep, n, &peer_max)) {
		sd_io_reject(conn->fd, SD_REJECT_BAD_HELLO);
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	if (send(conn->fd, &welcome, sizeof(welcome), MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)sizeof(welcome)) {
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	sd_comch_io_established(ep, conn, peer_max);
}

/* ---- client side ---- */

/* Look for the server once; on success the hello is on its way. */
void sd_comch_hs_connect(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct sd_wire_hello hello = {
		.kind = SD_WIRE_HELLO,
		.version = SD_WIRE_VERSION,
		.max_msg = ep->max_msg,
		.name_len = ep->name_len,
	};
	size_t len = sizeof(hello) + ep->name_len;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	if (connect(fd, (const struct sockaddr *)&ep->io.addr, ep->io.addr_len) != 0) {
		close(fd); /* no such server yet, or its backlog is full */
		return;
	}
	memcpy(hello.host_fn, ep->host_fn, sizeof(hello.host_fn));
	memcpy(ep->io.scratch, &hello, sizeof(hello));
	memcpy(ep->io.scratch + sizeof(hello), ep->name, ep->name_len);
	if (send(fd, ep->io.scratch, len, MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)len) {
		close(fd);
		return;
	}
	conn->fd = fd;
	atomic_store_explicit(&conn->phase, SD_CONN_HANDSHAKE, memory_order_relaxed);
	if (!sd_io_watch(ep, conn)) {
		close(fd);
		conn->fd = -1;
		atomic_store_explicit(&conn->phase, SD_CONN_FREE, memory_order_relaxed);
	}
}

void sd_comch_hs_client(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct sd_wire_welcome welcome;
	ssize_t n = recv(conn->fd, &welcome, sizeof(welcome), MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n != (ssize_t)sizeof(welcome) || welcome.kind != SD_WIRE_WELCOME || welcome.version != SD_WIRE_VERSION ||
	    welcome.max_msg == 0) {
		/* Refused (full, stopping) or gone: look again later. */
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	sd_comch_io_established(ep, conn, welcome.max_msg);
}
