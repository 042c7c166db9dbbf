/*
 * comch_io.c - the library thread of a started Comch endpoint.
 *
 * It waits in epoll and does the work that would block or that nobody
 * else would notice: the handshakes (comch_handshake.c: accepting and
 * checking clients on a server, looking for the server on a client, every
 * 5 ms until found), and waking the progress engine.  Messages are
 * not read here: the progress thread reads them itself (comch_recv.c).  An
 * established connection sits in this thread's epoll set with a one-shot
 * registration that the progress thread re-arms only when the application
 * arms the PE; when it fires this thread kicks the PE.  A polling program
 * therefore never wakes this thread, whatever its traffic.
 *
 * It never calls application code and never logs: an SDK log
 * backend may belong to the application.  On `stop` (context entered
 * STOPPING) it hides the server and drops unfinished handshakes; on `quit`
 * (context going IDLE) it returns.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "comch_priv.h"
#include "sd_log.h"
#include "sd_pages.h"
#include "sd_thread.h"

void sd_comch_io_kick(struct sd_comch_ep *ep)
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

static void sd_io_wake(struct sd_comch_ep *ep)
{
	uint64_t one = 1;
	ssize_t n;

	do {
		n = write(ep->io.wake_fd, &one, sizeof(one));
	} while (n < 0 && errno == EINTR);
}

void sd_comch_io_unwatch_close(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	epoll_ctl(ep->io.epfd, EPOLL_CTL_DEL, conn->fd, NULL);
	close(conn->fd);
	conn->fd = -1;
	atomic_store_explicit(&conn->phase, SD_CONN_FREE, memory_order_release);
}

/*
 * The link is established: from here on it belongs to the progress thread.
 * Announce it (server) or report the start (client).
 */
void sd_comch_io_established(struct sd_comch_ep *ep, struct doca_comch_connection *conn, uint32_t peer_max)
{
	/*
	 * The ring has one entry per slot and a slot is only given back after
	 * its CONNECT was consumed, so there is always room; a full ring would
	 * be a broken invariant, answered by dropping the link, never a crash.
	 */
	struct sd_comch_ev *ev = ep->is_server ? sd_comch_ring_reserve(&ep->ring) : NULL;

	if (ep->is_server && ev == NULL) {
		sd_comch_io_unwatch_close(ep, conn);
		return;
	}
	conn->eff_max = peer_max < ep->max_msg ? peer_max : ep->max_msg;
	sd_comch_io_watch(ep, conn);
	atomic_fetch_add(&ep->posted, 1);
	atomic_store_explicit(&conn->phase, SD_CONN_POSTED, memory_order_release);
	if (ep->is_server) {
		ev->kind = SD_EV_CONNECT;
		ev->conn = conn;
		ev->len = 0;
		sd_comch_ring_commit(&ep->ring);
	} else {
		atomic_store(&ep->connected, true);
	}
	sd_comch_io_kick(ep);
}

/*
 * Wake the PE when `conn` becomes readable (or ends), once (either thread;
 * the handshake made the registration).
 */
void sd_comch_io_watch(struct sd_comch_ep *ep, struct doca_comch_connection *conn)
{
	struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT};

	ev.data.u64 = SD_TAG_CONN + (uint64_t)(conn - ep->conns);
	atomic_store(&conn->watch_fired, false);
	(void)epoll_ctl(ep->io.epfd, EPOLL_CTL_MOD, conn->fd, &ev);
}

/* ---- stopping: hide the server, drop unfinished handshakes ---- */

static void sd_io_stop(struct sd_comch_ep *ep)
{
	if (ep->io.listen_fd >= 0)
		epoll_ctl(ep->io.epfd, EPOLL_CTL_DEL, ep->io.listen_fd, NULL);
	sd_comch_unlisten(ep);
	for (uint32_t i = 0; i < ep->max_conns; i++) {
		struct doca_comch_connection *conn = &ep->conns[i];

		if (atomic_load_explicit(&conn->phase, memory_order_acquire) == SD_CONN_HANDSHAKE)
			sd_comch_io_unwatch_close(ep, conn);
	}
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
			sd_comch_hs_server(ep, conn);
		else
			sd_comch_hs_client(ep, conn);
		break;
	case SD_CONN_POSTED:
		/* Its one-shot wake-up: the progress thread reads, we only wake it. */
		atomic_store(&conn->watch_fired, true);
		sd_comch_io_kick(ep);
		break;
	default:
		break; /* a stale readiness report for a slot already given back */
	}
}

/* Client: whether it should look for its server now, and when next. */
static int sd_io_client_timeout(struct sd_comch_ep *ep, bool stopped, uint64_t *next_try)
{
	struct doca_comch_connection *conn = &ep->conns[0];
	int retry = ep->io.tcp ? SD_COMCH_TCP_RETRY_MS : SD_COMCH_RETRY_MS;
	unsigned char phase = atomic_load_explicit(&conn->phase, memory_order_acquire);
	uint64_t now;

	if (stopped || atomic_load(&ep->connected))
		return -1;
	if (phase == SD_CONN_HANDSHAKE) {
		/* Over TCP an attempt can stall (a cut link): check on it now and then. */
		if (!ep->io.tcp)
			return -1;
		if (!sd_comch_hs_expired(ep, conn))
			return 100;
		*next_try = sd_mono_ms() + (uint64_t)retry;
		return retry;
	}
	if (phase != SD_CONN_FREE)
		return -1;
	now = sd_mono_ms();
	if (now >= *next_try) {
		sd_comch_hs_connect(ep, conn);
		*next_try = now + (uint64_t)retry;
		if (atomic_load_explicit(&conn->phase, memory_order_relaxed) != SD_CONN_FREE)
			return ep->io.tcp ? 100 : -1;
		return retry;
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
			sd_io_stop(ep);
		}
		if (!ep->is_server)
			timeout = sd_io_client_timeout(ep, stopped, &next_try);
		/* Sends waiting for socket room: let an armed PE retry them. */
		if (atomic_load(&ep->io.want_out) && (timeout < 0 || timeout > 1))
			timeout = 1;
		n = epoll_wait(ep->io.epfd, evs, 16, timeout);
		if (n <= 0) {
			if (atomic_load(&ep->io.want_out))
				sd_comch_io_kick(ep);
			continue;
		}
		for (int i = 0; i < n; i++) {
			uint64_t tag = evs[i].data.u64;

			if (tag == SD_TAG_WAKE)
				sd_io_drain_wake(ep);
			else if (tag == SD_TAG_LISTEN)
				sd_comch_hs_accept(ep);
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
	sd_pages_free(io->scratch, io->scratch_len);
	io->scratch = NULL;
}

/*
 * Create the epoll set and the wake-up eventfd and launch the thread, with
 * the program's signals blocked in it so that the application's handlers
 * keep running on the application's threads (sd_thread.h).
 */
doca_error_t sd_comch_io_start(struct sd_comch_ep *ep, const char *func)
{
	struct sd_comch_io *io = &ep->io;
	int err;

	atomic_store(&io->stop, false);
	atomic_store(&io->quit, false);
	atomic_store(&io->want_out, false);
	io->scratch_len = sizeof(struct sd_wire_hello) + ep->name_len + 1;
	io->scratch = sd_pages_alloc(io->scratch_len); /* the kernel fills it: sd_pages.h */
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
	err = sd_thread_start(&io->thread, NULL, sd_io_main, ep, "sd-comch-io");
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
	sd_io_wake(ep);
}

/* The context goes IDLE: end the thread and close what it used. */
void sd_comch_io_join(struct sd_comch_ep *ep)
{
	struct sd_comch_io *io = &ep->io;

	if (!io->running)
		return;
	atomic_store(&io->quit, true);
	sd_io_wake(ep);
	pthread_join(io->thread, NULL);
	io->running = false;
	sd_io_close_fds(io);
}
