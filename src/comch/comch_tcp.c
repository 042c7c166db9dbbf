/*
 * comch_tcp.c - Comch across namespaces and machines: the same messages
 * over TCP.
 *
 * When the process is told where the other side of its PCI link runs
 * (SOFTDOCA_PEER=ADDR[:PORT], sd_peer.h), a server listens on TCP port
 * PORT of every address of its network namespace and a client connects to
 * ADDR:PORT, instead of the Unix-domain rendezvous of comch_addr.c.  What
 * the application sees does not change: the same handshake (the client's
 * hello names the server and its host function), the same events, order
 * and size limits.
 *
 * TCP is a byte stream, so every message travels as one frame, a
 * little-endian u32 length followed by that many bytes (the message as a
 * SEQPACKET socket would carry it).  A frame is read only once all of it
 * has arrived (FIONREAD), straight into the receive buffer, so partial
 * frames never reach the application; a frame longer than the receiver's
 * ceiling ends the connection, as an oversized message would.  A send that
 * the socket takes only in part remembers how far it got and finishes
 * before anything else is written on that connection.
 *
 * A peer that dies closes its sockets and is seen at once.  A peer that
 * vanishes without a word (a cut link, a machine switched off) is found by
 * TCP keepalive on an idle connection, or by the user timeout while data
 * waits for an acknowledgement (SD_COMCH_TCP_DEAD_S each; in practice the
 * link ends 2 to 4 s after the peer went silent), then the connection ends
 * like any other.
 */
#include <errno.h>
#include <sched.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "comch_priv.h"
#include "sd_log.h"
#include "sd_peer.h"
#include "sd_valgrind.h"

#define SD_COMCH_TCP_HDR 4u

static void sd_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t sd_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- choosing the transport (doca_ctx_start) ---- */

doca_error_t sd_comch_tcp_config(struct sd_comch_ep *ep, const char *func)
{
	struct sd_comch_io *io = &ep->io;
	char why[384];
	int rc = priv_doca_peer_get(&io->peer, why, sizeof(why));

	io->tcp = rc > 0;
	io->peer_len = 0;
	if (rc < 0) {
		SD_LOG_ERR_AS(func, "%s (%s %p)", why, ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Low latency, a receive buffer that holds whole frames, and a bound on silent peers. */
void sd_comch_tcp_tune(int fd, uint32_t max_msg)
{
	int one = 1, idle = 1, intvl = 1, cnt = SD_COMCH_TCP_DEAD_S - 1;
	unsigned int user_timeout = SD_COMCH_TCP_DEAD_S * 1000u;
	int rcv = 0;
	socklen_t len = sizeof(rcv);
	int want = (int)(4 * (max_msg + 64u));

	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout, sizeof(user_timeout));
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, &len) == 0 && rcv < want)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want));
}

/* ---- server ---- */

static int sd_comch_tcp_socket_bound(int family, uint16_t port, int *err)
{
	int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int one = 1, zero = 0;
	struct sockaddr_storage ss;
	socklen_t sl;

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_any;
		a->sin6_port = htons(port);
		sl = sizeof(*a);
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)); /* IPv4 clients too */
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_ANY);
		a->sin_port = htons(port);
		sl = sizeof(*a);
	}
	/* A restarted server may take the port while old connections linger in TIME_WAIT. */
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&ss, sl) != 0 || listen(fd, 64) != 0) {
		*err = errno;
		close(fd);
		return -1;
	}
	return fd;
}

doca_error_t sd_comch_tcp_listen(struct sd_comch_ep *ep, const char *func)
{
	uint16_t port = ep->io.peer.port;
	int err = 0;
	int fd = sd_comch_tcp_socket_bound(AF_INET6, port, &err);

	if (fd < 0 && err != EADDRINUSE)
		fd = sd_comch_tcp_socket_bound(AF_INET, port, &err); /* a namespace without IPv6 */
	if (fd >= 0) {
		ep->io.listen_fd = fd;
		return DOCA_SUCCESS;
	}
	if (err == EADDRINUSE) {
		SD_LOG_ERR_AS(func,
			      "TCP port %u (%s) is taken: one Comch server per network namespace listens on it, and "
			      "another server or program has it (comch server %p)",
			      port, ep->io.peer.source, (void *)ep);
		return DOCA_ERROR_ALREADY_EXIST;
	}
	SD_LOG_ERR_AS(func, "cannot listen on TCP port %u: %s (comch server %p)", port, strerror(err), (void *)ep);
	return DOCA_ERROR_INITIALIZATION;
}

/* ---- client ---- */

int sd_comch_tcp_connect(struct sd_comch_ep *ep)
{
	struct sd_comch_io *io = &ep->io;
	char why[384];
	int fd;

	/* Resolved on the library thread, and again until it works: the server may come up later. */
	if (io->peer_len == 0 && priv_doca_peer_resolve(&io->peer, &io->peer_addr, &io->peer_len, why, sizeof(why)) != 0) {
		io->peer_len = 0;
		return -1;
	}
	fd = socket(io->peer_addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	sd_comch_tcp_tune(fd, ep->max_msg);
	if (connect(fd, (const struct sockaddr *)&io->peer_addr, io->peer_len) != 0 && errno != EINPROGRESS) {
		close(fd);
		io->peer_len = 0; /* look the name up again next time */
		return -1;
	}
	return fd;
}

bool sd_comch_tcp_connected(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);

	return getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
}

/* ---- frames ---- */

/* The peer closed or the link broke: no more bytes will come. */
static bool sd_comch_tcp_hung_up(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN | POLLRDHUP};

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

static ssize_t sd_comch_tcp_recv(int fd, struct iovec *iov, int iovcnt, size_t cap)
{
	uint8_t hdr[SD_COMCH_TCP_HDR];
	struct iovec all[4];
	struct msghdr mh;
	ssize_t n;
	uint32_t len;
	int avail = 0;

	do {
		n = recv(fd, hdr, sizeof(hdr), MSG_PEEK | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		return -1; /* orderly end of stream */
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	if (n < (ssize_t)sizeof(hdr))
		return sd_comch_tcp_hung_up(fd) ? -1 : 0;
	len = sd_get32(hdr);
	if (len == 0 || len > cap || iovcnt > 3)
		return -1; /* no softdoca peer sends that: end the connection */
	if (ioctl(fd, FIONREAD, &avail) != 0 || (size_t)avail < sizeof(hdr) + len)
		return sd_comch_tcp_hung_up(fd) ? -1 : 0;
	all[0].iov_base = hdr;
	all[0].iov_len = sizeof(hdr);
	size_t left = len;
	int k = 1;
	for (int i = 0; i < iovcnt && left != 0; i++, k++) {
		all[k].iov_base = iov[i].iov_base;
		all[k].iov_len = iov[i].iov_len < left ? iov[i].iov_len : left;
		left -= all[k].iov_len;
	}
	if (left != 0)
		return -1;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = all;
	mh.msg_iovlen = (size_t)k;
	do {
		n = recvmsg(fd, &mh, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	return n == (ssize_t)(sizeof(hdr) + len) ? (ssize_t)len : -1;
}

static bool sd_comch_tcp_send_whole(int fd, const void *msg, size_t len)
{
	uint8_t hdr[SD_COMCH_TCP_HDR];
	struct iovec iov[2] = {{.iov_base = hdr, .iov_len = sizeof(hdr)}, {.iov_base = (void *)msg, .iov_len = len}};
	struct msghdr mh;
	ssize_t n;

	sd_put32(hdr, (uint32_t)len);
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	do {
		n = sendmsg(fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	/* Handshake frames are small and go on an empty socket: anything less is a broken link. */
	return n == (ssize_t)(sizeof(hdr) + len);
}

doca_error_t sd_comch_tcp_write(struct doca_comch_task_send *t)
{
	struct doca_comch_connection *c = t->conn;
	uint8_t hdr[SD_COMCH_TCP_HDR + 4];
	size_t total = sizeof(hdr) + t->len, off = c->out_task == t ? c->out_off : 0;
	struct iovec iov[2];
	struct msghdr mh;
	int n_iov = 0;
	ssize_t n;

	if (c->out_task != NULL && c->out_task != t)
		return DOCA_ERROR_AGAIN; /* another frame is half written: it goes first */
	sd_put32(hdr, 4u + t->len);
	sd_put32(hdr + 4, SD_WIRE_DATA);
	if (off < sizeof(hdr)) {
		iov[n_iov].iov_base = hdr + off;
		iov[n_iov++].iov_len = sizeof(hdr) - off;
		iov[n_iov].iov_base = t->buf;
		iov[n_iov++].iov_len = t->len;
	} else {
		iov[n_iov].iov_base = t->buf + (off - sizeof(hdr));
		iov[n_iov++].iov_len = total - off;
	}
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = (size_t)n_iov;
	do {
		/* The payload is the program's, carried as a card would: unchecked by valgrind (sd_valgrind.h). */
		SD_VG_UNCHECKED(n = sendmsg(c->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS ? DOCA_ERROR_AGAIN
										   : DOCA_ERROR_NOT_CONNECTED;
	off += (size_t)n;
	if (off < total) {
		c->out_task = t;
		c->out_off = off;
		return DOCA_ERROR_AGAIN;
	}
	c->out_task = NULL;
	c->out_off = 0;
	return DOCA_SUCCESS;
}

/* ---- one message, whichever transport ---- */

ssize_t sd_comch_msg_recv(const struct sd_comch_ep *ep, int fd, struct iovec *iov, int iovcnt, size_t cap)
{
	struct msghdr mh;
	ssize_t n;

	if (ep->io.tcp)
		return sd_comch_tcp_recv(fd, iov, iovcnt, cap);
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = (size_t)iovcnt;
	do {
		n = recvmsg(fd, &mh, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	if (n == 0 || (mh.msg_flags & MSG_TRUNC) != 0)
		return -1;
	return n;
}

bool sd_comch_msg_send(const struct sd_comch_ep *ep, int fd, const void *msg, size_t len)
{
	if (ep->io.tcp)
		return sd_comch_tcp_send_whole(fd, msg, len);
	return send(fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)len;
}

/* ---- internal frames that must arrive whole (fast path) ---- */

/* Wait up to `ms` for room on `fd`; false when none came or the link broke. */
static bool sd_comch_tcp_wait_room(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	int rc;

	do {
		rc = poll(&p, 1, ms);
	} while (rc < 0 && errno == EINTR);
	return rc == 1 && (p.revents & (POLLERR | POLLHUP)) == 0;
}

/*
 * TCP: the frame's first byte leaves only when the socket takes the whole
 * frame at once in the usual case.  If the kernel takes part of it, the rest
 * must follow before any other byte, so the writer waits for room (at most
 * the dead-peer bound); a frame still cut after that ends the link, since
 * the other side could not read the stream any more.
 */
static enum sd_comch_sent sd_comch_tcp_frame_send(struct doca_comch_connection *conn, const void *msg, size_t len)
{
	uint8_t hdr[SD_COMCH_TCP_HDR];
	size_t total = sizeof(hdr) + len, off = 0;
	ssize_t n;

	if (conn->out_task != NULL)
		return SD_COMCH_BUSY; /* a message's frame is half written: it goes first */
	sd_put32(hdr, (uint32_t)len);
	while (off < total) {
		struct iovec iov[2];
		struct msghdr mh;
		int n_iov = 0;

		if (off < sizeof(hdr)) {
			iov[n_iov].iov_base = hdr + off;
			iov[n_iov++].iov_len = sizeof(hdr) - off;
			iov[n_iov].iov_base = (void *)msg;
			iov[n_iov++].iov_len = len;
		} else {
			iov[n_iov].iov_base = (uint8_t *)msg + (off - sizeof(hdr));
			iov[n_iov++].iov_len = total - off;
		}
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = iov;
		mh.msg_iovlen = (size_t)n_iov;
		do {
			n = sendmsg(conn->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
		} while (n < 0 && errno == EINTR);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)) {
			if (off == 0)
				return SD_COMCH_BUSY;
			if (sd_comch_tcp_wait_room(conn->fd, SD_COMCH_TCP_DEAD_S * 1000))
				continue;
		}
		if (n <= 0) {
			if (off != 0)
				shutdown(conn->fd, SHUT_RDWR); /* a cut frame: end the link for both sides */
			return SD_COMCH_BROKEN;
		}
		off += (size_t)n;
	}
	return SD_COMCH_SENT;
}

static enum sd_comch_sent sd_comch_frame_send_locked(const struct sd_comch_ep *ep,
						    struct doca_comch_connection *conn, const void *msg, size_t len)
{
	ssize_t n;

	if (conn->fd < 0)
		return SD_COMCH_BROKEN;
	if (ep->io.tcp)
		return sd_comch_tcp_frame_send(conn, msg, len);
	do {
		n = send(conn->fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)len)
		return SD_COMCH_SENT;
	return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) ? SD_COMCH_BUSY
										       : SD_COMCH_BROKEN;
}

enum sd_comch_sent sd_comch_frame_send(struct sd_comch_ep *ep, struct doca_comch_connection *conn, const void *msg,
				       size_t len)
{
	enum sd_comch_sent sent;

	pthread_mutex_lock(&ep->tx_lock);
	sent = sd_comch_frame_send_locked(ep, conn, msg, len);
	pthread_mutex_unlock(&ep->tx_lock);
	return sent;
}

enum sd_comch_sent sd_comch_frame_send_must(struct sd_comch_ep *ep, struct doca_comch_connection *conn,
					    const void *msg, size_t len)
{
	uint64_t deadline = sd_mono_ms() + (uint64_t)SD_COMCH_TCP_DEAD_S * 1000u;
	enum sd_comch_sent sent;

	while ((sent = sd_comch_frame_send(ep, conn, msg, len)) == SD_COMCH_BUSY && sd_mono_ms() < deadline) {
		/*
		 * The other side drains this socket only while it reads; reading its
		 * frames meanwhile keeps two programs that both wait here apart.
		 */
		(void)sd_comch_fp_read_ahead(ep, conn);
		/* Under the send lock: the descriptor is closed under it, and the half-written message is its. */
		pthread_mutex_lock(&ep->tx_lock);
		bool room = conn->fd >= 0 && sd_comch_tcp_wait_room(conn->fd, 1);
		bool half_written = conn->out_task != NULL;
		pthread_mutex_unlock(&ep->tx_lock);
		if (room && half_written)
			sched_yield(); /* another thread's message is half written: it finishes it */
	}
	return sent;
}
