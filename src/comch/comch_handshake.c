/*
 * comch_handshake.c - how a link becomes a connection (I/O thread only).
 *
 * Server: accept, claim a free connection slot (or refuse: full,
 * stopping), read the client's hello and check that it names this server
 * and its host function, answer with a welcome carrying the server's
 * message ceiling.  Client: connect to the rendezvous, send the hello, wait
 * for the welcome.  Each side keeps the smaller of the two ceilings.  A
 * refused or broken handshake just closes the socket; the client looks
 * again later.  Over TCP the client's connect runs in the background (the
 * socket becomes writable when it is done) and an attempt that has not
 * finished its handshake after SD_COMCH_TCP_HANDSHAKE_MS is dropped and
 * retried, so a server behind a cut link is looked for again.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "comch_priv.h"

/* ---- server side ---- */

static void sd_io_reject(const struct sd_comch_ep *ep, int fd, uint32_t reason)
{
	struct sd_wire_reject rej = {.kind = SD_WIRE_REJECT, .reason = reason};

	(void)sd_comch_msg_send(ep, fd, &rej, sizeof(rej));
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
		if (ep->io.tcp)
			sd_comch_tcp_tune(fd, ep->max_msg);
		if (atomic_load(&ep->io.stop)) {
			sd_io_reject(ep, fd, SD_REJECT_STOPPING);
			close(fd);
			continue;
		}
		conn = sd_io_claim_slot(ep);
		if (conn == NULL) {
			sd_io_reject(ep, fd, SD_REJECT_FULL);
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
	struct iovec iov = {.iov_base = ep->io.scratch, .iov_len = ep->io.scratch_len};
	ssize_t n = sd_comch_msg_recv(ep, conn->fd, &iov, 1, ep->io.scratch_len);

	if (n == 0)
		return; /* not all of it yet */
	if (n < 0) {
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	if (!sd_io_hello_matches(ep, n, &peer_max)) {
		sd_io_reject(ep, conn->fd, SD_REJECT_BAD_HELLO);
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	if (!sd_comch_msg_send(ep, conn->fd, &welcome, sizeof(welcome))) {
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	sd_comch_io_established(ep, conn, peer_max);
}

/* ---- client side ---- */

/* The client's hello (name and host function), into the scratch buffer; its length. */
static size_t sd_hs_hello(struct sd_comch_ep *ep)
{
	struct sd_wire_hello hello = {
		.kind = SD_WIRE_HELLO,
		.version = SD_WIRE_VERSION,
		.max_msg = ep->max_msg,
		.name_len = ep->name_len,
	};

	memcpy(hello.host_fn, ep->host_fn, sizeof(hello.host_fn));
	memcpy(ep->io.scratch, &hello, sizeof(hello));
	memcpy(ep->io.scratch + sizeof(hello), ep->name, ep->name_len);
	return sizeof(hello) + ep->name_len;
}

static void sd_hs_claim(struct sd_comch_ep *ep, struct doca_comch_connection *conn, int fd, bool connecting)
{
	struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | (connecting ? EPOLLOUT : 0)};

	ev.data.u64 = SD_TAG_CONN + (uint64_t)(conn - ep->conns);
	conn->fd = fd;
	conn->connecting = connecting;
	conn->hs_since_ms = sd_mono_ms();
	atomic_store_explicit(&conn->phase, SD_CONN_HANDSHAKE, memory_order_relaxed);
	if (epoll_ctl(ep->io.epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
		close(fd);
		conn->fd = -1;
		atomic_store_explicit(&conn->phase, SD_CONN_FREE, memory_order_relaxed);
	}
}

/* TCP: start connecting; the hello follows once connected (sd_comch_hs_client). */
static void sd_hs_connect_tcp(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	int fd = sd_comch_tcp_connect(ep);

	if (fd >= 0)
		sd_hs_claim(ep, conn, fd, true);
}

/* TCP: an attempt that did not finish in time is dropped (the client tries again). */
bool sd_comch_hs_expired(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	if (!ep->io.tcp || sd_mono_ms() - conn->hs_since_ms < SD_COMCH_TCP_HANDSHAKE_MS)
		return false;
	sd_comch_io_unwatch_close(ep, conn);
	return true;
}


/* Unix socket: connect is immediate; the hello goes at once. */
static void sd_hs_connect_unix(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	size_t len;

	if (fd < 0)
		return;
	if (connect(fd, (const struct sockaddr *)&ep->io.addr, ep->io.addr_len) != 0) {
		close(fd); /* no such server yet, or its backlog is full */
		return;
	}
	len = sd_hs_hello(ep);
	if (send(fd, ep->io.scratch, len, MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)len) {
		close(fd);
		return;
	}
	sd_hs_claim(ep, conn, fd, false);
}

/* Look for the server once; on success the hello is on its way. */
void sd_comch_hs_connect(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	if (ep->io.tcp) {
		sd_hs_connect_tcp(ep, conn);
		return;
	}
	sd_hs_connect_unix(ep, conn);
}

/* TCP: the connect finished (the socket is writable); send the hello, then wait for the welcome. */
static void sd_hs_connected(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP};
	size_t len;

	ev.data.u64 = SD_TAG_CONN + (uint64_t)(conn - ep->conns);
	if (!sd_comch_tcp_connected(conn->fd)) {
		sd_comch_io_unwatch_close(ep, conn); /* refused or unreachable: look again later */
		return;
	}
	conn->connecting = false;
	len = sd_hs_hello(ep);
	if (!sd_comch_msg_send(ep, conn->fd, ep->io.scratch, len) ||
	    epoll_ctl(ep->io.epfd, EPOLL_CTL_MOD, conn->fd, &ev) != 0)
		sd_comch_io_unwatch_close(ep, conn);
}

void sd_comch_hs_client(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct sd_wire_welcome welcome;
	struct iovec iov = {.iov_base = &welcome, .iov_len = sizeof(welcome)};
	ssize_t n;

	if (conn->connecting) {
		sd_hs_connected(ep, conn);
		return;
	}
	n = sd_comch_msg_recv(ep, conn->fd, &iov, 1, sizeof(welcome));
	if (n == 0)
		return;
	if (n != (ssize_t)sizeof(welcome) || welcome.kind != SD_WIRE_WELCOME || welcome.version != SD_WIRE_VERSION ||
	    welcome.max_msg == 0) {
		/* Refused (full, stopping) or gone: look again later. */
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	sd_comch_io_established(ep, conn, welcome.max_msg);
}
