/*
 * comch_io.c - the library thread of a started Comch endpoint.
 *
 * It waits in epoll on the endpoint's sockets and does all the blocking
 * work: accepting clients and checking their hello (server), finding the
 * server and finishing the handshake (client), and reading messages into
 * the event ring.  After queueing an event it wakes the progress engine if
 * the application armed it (D-20).  It never calls application code and
 * never logs (D-31): an SDK log backend may belong to the application.
 *
 * Leaving: on `stop` (context entered STOPPING) it hides the server and
 * shuts every established link down, which makes each report end-of-stream
 * and queue its DISCONNECT; on `quit` (context going IDLE) it returns.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "comch_priv.h"
#include "sd_log.h"

/* epoll tags: the wake-up eventfd, the listening socket, slot i + 2. */
#define SD_TAG_WAKE 0u
#define SD_TAG_LISTEN 1u
#define SD_TAG_CONN 2u

/* Messages read from one connection before looking at the others. */
#define SD_READ_BURST 64

static void sd_io_kick(struct sd_comch_ep *ep)
{
	struct doca_pe *pe = ep->ctx.pe;

	if (atomic_load(&pe->armed))
		priv_doca_pe_kick(pe);
}

static void sd_io_drain_wake(struct sd_comch_ep *ep)
{
	uint64_t value;

	while (read(ep->io.wake_fd, &value, sizeof(value)) == (ssize_t)sizeof(value))
		;
}

void sd_comch_io_wake(struct sd_comch_ep *ep)
{
	uint64_t one = 1;
	ssize_t n;

	do {
		n = write(ep->io.wake_fd, &one, sizeof(one));
	} while (n < 0 && errno == EINTR);
}

/*
 * A free ring entry, waiting for the progress thread to make room if the
 * ring is full.  NULL only when the thread has to quit.
 */
static struct sd_comch_ev *sd_io_reserve(struct sd_comch_ep *ep)
{
	struct sd_comch_ring *ring = &ep->ring;

	for (;;) {
		struct sd_comch_ev *ev = sd_comch_ring_reserve(ring);
		struct pollfd pfd = {.fd = ep->io.wake_fd, .events = POLLIN};

		if (ev != NULL)
			return ev;
		if (atomic_load(&ep->io.quit))
			return NULL;
		atomic_store(&ring->producer_waiting, true);
		ev = sd_comch_ring_reserve(ring);
		if (ev != NULL) {
			atomic_store(&ring->producer_waiting, false);
			return ev;
		}
		sd_io_kick(ep); /* a full ring is work for an armed PE */
		(void)poll(&pfd, 1, 100);
		sd_io_drain_wake(ep);
	}
}

/* Queue one event; false when the thread has to quit instead. */
static bool sd_io_post(struct sd_comch_ep *ep, uint32_t kind, struct doca_comch_connection *conn)
{
	struct sd_comch_ev *ev = sd_io_reserve(ep);

	if (ev == NULL)
		return false;
	ev->kind = kind;
	ev->conn = conn;
	ev->len = 0;
	sd_comch_ring_commit(&ep->ring);
	sd_io_kick(ep);
	return true;
}

static void sd_io_unwatch_close(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	epoll_ctl(ep->io.epfd, EPOLL_CTL_DEL, conn->fd, NULL);
	close(conn->fd);
	conn->fd = -1;
	atomic_store_explicit(&conn->phase, SD_CONN_FREE, memory_order_release);
}

/* An established link ended: hand the slot to the progress thread. */
static void sd_io_conn_gone(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	epoll_ctl(ep->io.epfd, EPOLL_CTL_DEL, conn->fd, NULL);
	atomic_store_explicit(&conn->phase, SD_CONN_GONE, memory_order_release);
	(void)sd_io_post(ep, SD_EV_DISCONNECT, conn); /* on quit, release cleans up */
}

/* The link is established: announce it (server) or report the start (client). */
static void sd_io_conn_established(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t peer_max)
{
	conn->eff_max = peer_max < ep->max_msg ? peer_max : ep->max_msg;
	atomic_fetch_add(&ep->posted, 1);
	atomic_store_explicit(&conn->phase, SD_CONN_POSTED, memory_order_release);
	if (ep->is_server) {
		(void)sd_io_post(ep, SD_EV_CONNECT, conn);
		return;
	}
	atomic_store(&ep->connected, true);
	sd_io_kick(ep);
}

/* Read queued messages of an established link into the ring. */
static void sd_io_read_msgs(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	for (int i = 0; i < SD_READ_BURST; i++) {
		struct sd_comch_ev *ev = sd_io_reserve(ep);
		uint32_t kind = 0;
		struct iovec iov[2];
		struct msghdr mh;
		ssize_t n;

		if (ev == NULL)
			return;
		iov[0].iov_base = &kind;
		iov[0].iov_len = sizeof(kind);
		iov[1].iov_base = ev->data;
		iov[1].iov_len = ep->ring.buf_size;
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = iov;
		mh.msg_iovlen = 2;
		n = recvmsg(conn->fd, &mh, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < (ssize_t)sizeof(kind) || (mh.msg_flags & MSG_TRUNC) != 0 || kind != SD_WIRE_DATA) {
			/* End of stream, reset, or a frame no softdoca peer sends. */
			sd_io_conn_gone(ep, conn);
			return;
		}
		ev->kind = SD_EV_MSG;
		ev->conn = conn;
		ev->len = (uint32_t)((size_t)n - sizeof(kind));
		sd_comch_ring_commit(&ep->ring);
		sd_io_kick(ep);
	}
}

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

static void sd_io_accept(struct sd_comch_ep *ep)
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

static void sd_io_server_handshake(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct sd_wire_welcome welcome = {.kind = SD_WIRE_WELCOME, .version = SD_WIRE_VERSION, .max_msg = ep->max_msg};
	uint32_t peer_max = 0;
	ssize_t n = recv(conn->fd, ep->io.scratch, ep->io.scratch_len, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n <= 0) {
		sd_io_unwatch_close(ep, conn);
		return;
	}
	if (!sd_io_hello_matches(ep, n, &peer_max)) {
		sd_io_reject(conn->fd, SD_REJECT_BAD_HELLO);
		sd_io_unwatch_close(ep, conn);
		return;
	}
	if (send(conn->fd, &welcome, sizeof(welcome), MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)sizeof(welcome)) {
		sd_io_unwatch_close(ep, conn);
		return;
	}
	sd_io_conn_established(ep, conn, peer_max);
}

static void sd_io_server_stop(struct sd_comch_ep *ep)
{
	if (ep->io.listen_fd >= 0)
		epoll_ctl(ep->io.epfd, EPOLL_CTL_DEL, ep->io.listen_fd, NULL);
	sd_comch_unlisten(ep);
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		struct doca_comch_connection *conn = &ep->conns[i];
		uint8_t phase = atomic_load_explicit(&conn->phase, memory_order_acquire);

		if (phase == SD_CONN_HANDSHAKE)
			sd_io_unwatch_close(ep, conn);
		else if (phase == SD_CONN_POSTED)
			shutdown(conn->fd, SHUT_RDWR); /* end of stream follows */
	}
}

/* ---- client side ---- */

static uint64_t sd_io_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Look for the server once; on success the hello is on its way. */
static void sd_io_client_try_connect(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
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

static void sd_io_client_handshake(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct sd_wire_welcome welcome;
	ssize_t n = recv(conn->fd, &welcome, sizeof(welcome), MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n != (ssize_t)sizeof(welcome) || welcome.kind != SD_WIRE_WELCOME || welcome.version != SD_WIRE_VERSION ||
	    welcome.max_msg == 0) {
		/* Refused (full, stopping) or gone: look again later. */
		sd_io_unwatch_close(ep, conn);
		return;
	}
	sd_io_conn_established(ep, conn, welcome.max_msg);
}

static void sd_io_client_stop(struct sd_comch_ep *ep)
{
	struct doca_comch_connection *conn = &ep->conns[0];
	uint8_t phase = atomic_load_explicit(&conn->phase, memory_order_acquire);

	if (phase == SD_CONN_HANDSHAKE)
		sd_io_unwatch_close(ep, conn);
	else if (phase == SD_CONN_POSTED)
		shutdown(conn->fd, SHUT_RDWR);
}

/* ---- the loop ---- */

static void sd_io_conn_ready(struct sd_comch_ep *ep, uint64_t tag)
{
	struct doca_comch_connection *conn;

	if (tag - SD_TAG_CONN >= ep->max_conns)
		return;
	conn = &ep->conns[tag - SD_TAG_CONN];
	switch (atomic_load_explicit(&conn->phase, memory_order_acquire)) {
	case SD_CONN_HANDSHAKE:
		if (ep->is_server)
			sd_io_server_handshake(ep, conn);
		else
			sd_io_client_handshake(ep, conn);
		break;
	case SD_CONN_POSTED:
		sd_io_read_msgs(ep, conn);
		break;
	default:
		break; /* a stale readiness report for a slot already handed over */
	}
}

/* Client: whether it should look for its server now, and when next. */
static int sd_io_client_timeout(struct sd_comch_ep *ep, bool stopped, uint64_t *next_try)
{
	struct doca_comch_connection *conn = &ep->conns[0];
	uint64_t now;

	if (stopped || atomic_load(&ep->connected) ||
	    atomic_load_explicit(&conn->phase, memory_order_acquire) != SD_CONN_FREE)
		return -1;
	now = sd_io_now_ms();
	if (now >= *next_try) {
		sd_io_client_try_connect(ep, conn);
		*next_try = now + SD_COMCH_RETRY_MS;
		if (atomic_load_explicit(&conn->phase, memory_order_relaxed) != SD_CONN_FREE)
			return -1;
		return SD_COMCH_RETRY_MS;
	}
	return (int)(*next_try - now);
}

static void *sd_io_main(void *arg)
{
	struct sd_comch_ep *ep = arg;
	struct epoll_event evs[16];
	uint64_t next_try = 0;
	bool stopped = false;

	while (!atomic_load(&ep->io.quit)) {
		int timeout = -1;
		int n;

		if (!stopped && atomic_load(&ep->io.stop)) {
			stopped = true;
			if (ep->is_server)
				sd_io_server_stop(ep);
			else
				sd_io_client_stop(ep);
		}
		if (!ep->is_server)
			timeout = sd_io_client_timeout(ep, stopped, &next_try);
		/* Sends waiting for socket room: let an armed PE retry them. */
		if (atomic_load(&ep->io.want_out) && (timeout < 0 || timeout > 1))
			timeout = 1;
		n = epoll_wait(ep->io.epfd, evs, 16, timeout);
		if (n <= 0) {
			if (atomic_load(&ep->io.want_out))
				sd_io_kick(ep);
			continue;
		}
		for (int i = 0; i < n; i++) {
			uint64_t tag = evs[i].data.u64;

			if (tag == SD_TAG_WAKE)
				sd_io_drain_wake(ep);
			else if (tag == SD_TAG_LISTEN)
				sd_io_accept(ep);
			else
				sd_io_conn_ready(ep, tag);
		}
	}
	return NULL;
}

static bool sd_io_add(int epfd, int fd, uint64_t tag)
{
	struct epoll_event ev = {.events = EPOLLIN};

	ev.data.u64 = tag;
	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

static void sd_io_close_fds(struct sd_comch_io *io)
{
	if (io->epfd >= 0)
		close(io->epfd);
	if (io->wake_fd >= 0)
		close(io->wake_fd);
	io->epfd = -1;
	io->wake_fd = -1;
	free(io->scratch);
	io->scratch = NULL;
}

/*
 * Create the epoll set and the wake-up eventfd and launch the thread, with
 * every signal blocked in it so that the application's handlers keep
 * running on the application's threads.
 */
doca_error_t sd_comch_io_start(struct sd_comch_ep *ep, const char *func)
{
	struct sd_comch_io *io = &ep->io;
	sigset_t all, saved;
	int err;

	atomic_store(&io->stop, false);
	atomic_store(&io->quit, false);
	atomic_store(&io->want_out, false);
	io->scratch_len = sizeof(struct sd_wire_hello) + ep->name_len + 1;
	io->scratch = malloc(io->scratch_len);
	io->epfd = epoll_create1(EPOLL_CLOEXEC);
	io->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (io->scratch == NULL || io->epfd < 0 || io->wake_fd < 0 || !sd_io_add(io->epfd, io->wake_fd, SD_TAG_WAKE) ||
	    (io->listen_fd >= 0 && !sd_io_add(io->epfd, io->listen_fd, SD_TAG_LISTEN))) {
		err = errno;
		sd_io_close_fds(io);
		SD_LOG_ERR_AS(func, "cannot set up the transport's event set (errno %d) (%s %p)", err,
			      ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INITIALIZATION;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	err = pthread_create(&io->thread, NULL, sd_io_main, ep);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (err != 0) {
		sd_io_close_fds(io);
		SD_LOG_ERR_AS(func, "cannot start the transport thread (error %d) (%s %p)", err,
			      ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INITIALIZATION;
	}
	io->running = true;
	return DOCA_SUCCESS;
}

/* The context entered STOPPING: tear the links down. */
void sd_comch_io_request_stop(struct sd_comch_ep *ep)
{
	if (!ep->io.running)
		return;
	atomic_store(&ep->io.stop, true);
	sd_comch_io_wake(ep);
}

/* The context goes IDLE: end the thread and close what it used. */
void sd_comch_io_join(struct sd_comch_ep *ep)
{
	struct sd_comch_io *io = &ep->io;

	if (!io->running)
		return;
	atomic_store(&io->quit, true);
	sd_comch_io_wake(ep);
	pthread_join(io->thread, NULL);
	io->running = false;
	sd_io_close_fds(io);
}
