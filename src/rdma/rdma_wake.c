/*
 * rdma_wake.c - waking a progress engine asleep on its notification handle
 * (rdma_wake.h).
 *
 * Each context that needs it gets a wake pipe, made with its first
 * connection, and a watcher thread, made the first time its PE is armed.
 * The watcher sleeps in epoll_wait on the pipe's read end, a timer and the
 * connection manager's epoll set, and kicks the PE (priv_doca_pe_kick, a
 * no-op unless the PE is still armed) whenever one of them fires.
 *
 * Why a pipe: the peer of a cross-process connection must reach us from its
 * own process.  Our eventfd cannot be reopened through /proc/PID/fd (the
 * kernel answers ENXIO) while a pipe can, with the same rights the peer
 * already needs to map our inbox ring, so the pipe's number travels in the
 * ring header and the peer opens it the first time it has to wake us.
 *
 * Why the words in the rings: a peer writes to the pipe only when it finds
 * our `asleep` word set, and clears it as it does, so a program that polls
 * costs its peer one fence and one load per message, and a sleeping one
 * one write per sleep.  Both sides store, fence, then load the other's
 * store, so either the sleeper sees the message or the peer sees the word.
 *
 * Peers in other namespaces speak through the context's UCX message node
 * instead (rdma_net.c): arming the PE arms the node's worker
 * (ucp_worker_arm, once per sleep, never per task) and the watcher sleeps on
 * its event descriptor too, one-shot like the CM's set, re-armed at the next
 * arming after it fired.  The timer then also covers what the network side
 * must do while nothing arrives: a held message's RNR budget, the HOLD that
 * keeps its sender patient, a silent peer's liveness bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "rdma_cm.h"
#include "rdma_wake.h"
#include "sd_log.h"
#include "sd_thread.h"

enum { SD_WAKE_TAG_PIPE = 1, SD_WAKE_TAG_TIMER, SD_WAKE_TAG_CM, SD_WAKE_TAG_PEER, SD_WAKE_TAG_NET };

/* The timer rings this long after a deadline, so the look it causes finds the deadline passed. */
#define SD_WAKE_SLACK_NS 1000000ull

struct sd_rdma_wake {
	int pipe_rd;
	int pipe_wr;
	int epfd;     /* the watcher's set: the pipe, the timer, the CM's epoll set */
	int timer_fd;
	struct doca_pe *pe;
	pthread_t thread;
	bool running;
	bool cm_in_set;          /* the CM's epoll set was added to ours (one-shot) */
	atomic_bool cm_fired;    /* its one-shot watch fired and waits to be re-armed */
	atomic_bool timer_fired; /* the timer rang since it was last set */
	atomic_bool peer_fired;  /* a peer's pidfd (one-shot) fired: the watched ones are re-armed at the next arming */
	bool net_in_set;         /* the message node's UCX descriptor was added to our set (one-shot) */
	atomic_bool net_fired;   /* its one-shot watch fired and waits to be re-armed */
	atomic_bool quit;
	uint64_t timer_at;       /* the deadline the timer is set for; 0: none */
};

static void sd_wake_drain(int fd)
{
	uint8_t buf[64];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

static bool sd_wake_add(int epfd, int fd, uint32_t events, uint32_t tag)
{
	struct epoll_event ev = {.events = events, .data.u32 = tag};

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

static void sd_wake_free(struct sd_rdma_wake *w)
{
	int fds[] = {w->pipe_rd, w->pipe_wr, w->epfd, w->timer_fd};

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(w);
}

/* The context's wake state, made on first use; NULL (one WARNING record per process) when it cannot be. */
static struct sd_rdma_wake *sd_wake_get(struct doca_rdma *rdma)
{
	static atomic_bool warned;
	struct sd_rdma_wake *w = rdma->wake;
	int p[2] = {-1, -1};

	if (w != NULL)
		return w;
	w = calloc(1, sizeof(*w));
	if (w != NULL && pipe2(p, O_NONBLOCK | O_CLOEXEC) == 0) {
		w->pipe_rd = p[0];
		w->pipe_wr = p[1];
		w->epfd = w->timer_fd = -1;
		w->epfd = epoll_create1(EPOLL_CLOEXEC);
		w->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (w->epfd >= 0 && w->timer_fd >= 0 && sd_wake_add(w->epfd, w->pipe_rd, EPOLLIN, SD_WAKE_TAG_PIPE) &&
		    sd_wake_add(w->epfd, w->timer_fd, EPOLLIN, SD_WAKE_TAG_TIMER)) {
			rdma->wake = w;
			return w;
		}
		sd_wake_free(w);
	} else {
		free(w);
	}
	if (!atomic_exchange(&warned, true))
		SD_LOG_WARN("rdma %p: cannot make the wake pipe, timer or epoll set of its notification watcher (%s); "
			    "a program asleep on its notification handle learns of peers' messages and connection "
			    "events only at its next doca_pe_progress",
			    (void *)rdma, strerror(errno));
	return NULL;
}

int sd_rdma_wake_fd(struct doca_rdma *rdma)
{
	struct sd_rdma_wake *w = sd_wake_get(rdma);

	return w != NULL ? w->pipe_wr : -1;
}

static void *sd_wake_watch(void *arg)
{
	struct sd_rdma_wake *w = arg;
	struct epoll_event evs[4];

	while (!atomic_load(&w->quit)) {
		int n = epoll_wait(w->epfd, evs, 4, -1);

		if (atomic_load(&w->quit))
			break;
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u32 == SD_WAKE_TAG_PIPE)
				sd_wake_drain(w->pipe_rd);
			else if (evs[i].data.u32 == SD_WAKE_TAG_TIMER) {
				sd_wake_drain(w->timer_fd);
				atomic_store(&w->timer_fired, true);
			} else if (evs[i].data.u32 == SD_WAKE_TAG_PEER) {
				atomic_store(&w->peer_fired, true);
			} else if (evs[i].data.u32 == SD_WAKE_TAG_NET) {
				atomic_store(&w->net_fired, true);
			} else {
				atomic_store(&w->cm_fired, true);
			}
		}
		if (n > 0)
			priv_doca_pe_kick(w->pe);
	}
	return NULL;
}

/* Start the watcher once per context life; false (logged) when no thread can be made. */
static bool sd_wake_start(struct sd_rdma_wake *w, struct doca_rdma *rdma)
{
	int err;

	if (w->running)
		return true;
	w->pe = rdma->ctx.pe;
	atomic_store(&w->quit, false);
	err = sd_thread_start(&w->thread, NULL, sd_wake_watch, w, "sd-rdma-wake");
	if (err != 0) {
		SD_LOG_WARN("rdma %p: cannot start its notification watcher (%s); a program asleep on its "
			    "notification handle learns of connection events and deadlines only at its next "
			    "doca_pe_progress",
			    (void *)rdma, strerror(err));
		return false;
	}
	w->running = true;
	return true;
}

/* Let the CM's sockets wake the watcher once more (their epoll set is readable while one has news). */
static void sd_wake_watch_cm(struct sd_rdma_wake *w, struct sd_rdma_cm *cm)
{
	struct epoll_event ev = {.events = EPOLLIN | EPOLLONESHOT, .data.u32 = SD_WAKE_TAG_CM};

	if (cm == NULL)
		return;
	if (!w->cm_in_set) {
		w->cm_in_set = epoll_ctl(w->epfd, EPOLL_CTL_ADD, cm->epfd, &ev) == 0;
		return;
	}
	if (atomic_exchange(&w->cm_fired, false))
		(void)epoll_ctl(w->epfd, EPOLL_CTL_MOD, cm->epfd, &ev);
}

/*
 * Let UCX wake the watcher once more: a message, an answer or a failed link
 * of the message node (messages to and from other namespaces).  The node
 * was armed (ucp_worker_arm) just before; its descriptor lives as long as
 * the node, which goes with the watcher when the context reaches IDLE.
 */
static void sd_wake_watch_net(struct sd_rdma_wake *w, int fd)
{
	struct epoll_event ev = {.events = EPOLLIN | EPOLLONESHOT, .data.u32 = SD_WAKE_TAG_NET};

	if (fd < 0)
		return;
	if (!w->net_in_set) {
		w->net_in_set = epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) == 0;
		return;
	}
	if (atomic_exchange(&w->net_fired, false))
		(void)epoll_ctl(w->epfd, EPOLL_CTL_MOD, fd, &ev);
}

/* Set the timer for `at` (CLOCK_MONOTONIC ns; 0: none), unless it is set so already and has not rung. */
static void sd_wake_timer(struct sd_rdma_wake *w, uint64_t at)
{
	struct itimerspec its;

	if (!atomic_exchange(&w->timer_fired, false) && at == w->timer_at)
		return;
	memset(&its, 0, sizeof(its));
	if (at != 0) {
		uint64_t when = at + SD_WAKE_SLACK_NS;
		its.it_value.tv_sec = (time_t)(when / 1000000000ull);
		its.it_value.tv_nsec = (long)(when % 1000000000ull);
	}
	(void)timerfd_settime(w->timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
	w->timer_at = at;
}

static uint64_t sd_wake_earlier(uint64_t a, uint64_t b)
{
	return a == 0 || (b != 0 && b < a) ? b : a;
}

/* The client handshakes' deadlines (the connection request timeout). */
static uint64_t sd_wake_cm_deadline(const struct sd_rdma_cm *cm)
{
	uint64_t at = 0;

	for (const struct sd_rdma_cm_link *l = cm != NULL ? cm->links : NULL; l != NULL; l = l->next)
		if (!l->server && l->fd >= 0 && (l->phase == SD_RDMA_CM_CONNECTING || l->phase == SD_RDMA_CM_REQUESTED))
			at = sd_wake_earlier(at, l->deadline_ns);
	return at;
}

/*
 * The context's messages waiting for the peer: true when one has its
 * verdict already; else *at gets the earliest RNR deadline among them.
 */
static bool sd_wake_scan_messages(struct doca_rdma *rdma, uint64_t *at)
{
	for (struct doca_task *task = rdma->ctx.pe->fifo_head; task != NULL; task = task->next) {
		struct sd_rdma_task *t = (struct sd_rdma_task *)task;

		if (task->ctx != &rdma->ctx || t->slot == NULL || atomic_load_explicit(&task->ready, memory_order_acquire))
			continue;
		if (atomic_load_explicit(&t->slot->state, memory_order_acquire) == SD_RDMA_SLOT_DELIVERED)
			return true;
		*at = sd_wake_earlier(*at, t->deadline_ns);
	}
	return false;
}

/*
 * A peer of another process that dies writes nothing: watch its process
 * (a pidfd becomes readable when the process exits), one-shot, so that a
 * sleeper learns of the death as soon as the liveness check can see it.
 * Opened once per connection, after which the ring lock confirms that the
 * pid is still the peer's (not a reused one).
 */
static void sd_wake_watch_peer(struct sd_rdma_wake *w, struct doca_rdma_connection *c, bool rearm)
{
	struct epoll_event ev = {.events = EPOLLIN | EPOLLONESHOT, .data.u32 = SD_WAKE_TAG_PEER};

	if (c->peer_pidfd1 < 0 || c->outbox.ring == NULL || c->remote.pid == c->self.pid || !sd_rdma_conn_usable(c))
		return;
	if (c->peer_pidfd1 > 0) {
		if (rearm)
			(void)epoll_ctl(w->epfd, EPOLL_CTL_MOD, c->peer_pidfd1 - 1, &ev);
		return;
	}
	int fd = (int)syscall(SYS_pidfd_open, (pid_t)c->remote.pid, 0);
	if (fd < 0 || !sd_rdma_ring_owner_alive(&c->outbox, c->remote.pid) ||
	    epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
		if (fd >= 0)
			close(fd);
		c->peer_pidfd1 = -1; /* not again for this connection: the 10 ms liveness check remains */
		return;
	}
	c->peer_pidfd1 = fd + 1;
}

/* Ask the peers of other processes to wake us: for their messages (our inboxes) and verdicts (our outboxes). */
static void sd_wake_ask_peers(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		if (atomic_load_explicit(&c->peer, memory_order_acquire) != NULL)
			continue; /* a peer of this process kicks our PE itself */
		if (c->inbox.ring != NULL)
			atomic_store_explicit(&c->inbox.ring->owner_asleep, 1, memory_order_relaxed);
		if (c->outbox.ring != NULL)
			atomic_store_explicit(&c->outbox.ring->sender_asleep, 1, memory_order_relaxed);
	}
	atomic_thread_fence(memory_order_seq_cst);
}

bool sd_rdma_wake_arm(struct doca_rdma *rdma)
{
	struct sd_rdma_wake *w = rdma->conns != NULL || rdma->cm != NULL ? sd_wake_get(rdma) : NULL;
	uint64_t at = 0, net_at = 0;
	int net_fd = -1;

	if (rdma->conns == NULL && rdma->cm == NULL)
		return false; /* no peer, socket or deadline can have news: the framework's own wake-ups suffice */
	if (w == NULL)
		return false;
	sd_wake_ask_peers(rdma);
	if (sd_wake_scan_messages(rdma, &at) || sd_rdma_inbox_pending(rdma) || sd_rdma_net_arm(rdma, &net_fd, &net_at))
		return true;
	if (!sd_wake_start(w, rdma))
		return false;
	bool rearm = atomic_exchange(&w->peer_fired, false);
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next)
		sd_wake_watch_peer(w, c, rearm);
	sd_wake_watch_cm(w, rdma->cm);
	sd_wake_watch_net(w, net_fd);
	sd_wake_timer(w, sd_wake_earlier(sd_wake_earlier(at, net_at), sd_wake_cm_deadline(rdma->cm)));
	return false;
}

/* The peer's wake pipe, opened on first need; -1 when the peer names none or it cannot be opened. */
static int sd_wake_peer_fd(struct doca_rdma_connection *conn)
{
	const struct sd_rdma_ring *r = conn->outbox.ring;
	int32_t named = r != NULL ? *(volatile const int32_t *)&r->owner_wake_fd1 : 0;
	char path[64];
	struct stat st;
	int fd = -1;

	if (conn->peer_wake_fd1 != 0)
		return conn->peer_wake_fd1 > 0 ? conn->peer_wake_fd1 - 1 : -1;
	conn->peer_wake_fd1 = -1; /* tried: never again for this connection, unless it opens below */
	if (named <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%u/fd/%d", conn->remote.pid, (int)(named - 1));
	/*
	 * The number comes from the peer: open it only when it is a pipe, and check again what was
	 * opened.  Read-write, so that this side holds a reader too: a peer that closed its end (it
	 * stopped or died) then costs EAGAIN once the pipe is full, never a SIGPIPE in this program.
	 */
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC); /* a reader of our own: never SIGPIPE */
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		SD_LOG_WARN("connection %u: cannot open the wake pipe of the peer (pid %u); the peer, if it sleeps on "
			    "its notification handle, learns of this side's messages at its next doca_pe_progress",
			    conn->id, conn->remote.pid);
		return -1;
	}
	conn->peer_wake_fd1 = fd + 1;
	return fd;
}

void sd_rdma_wake_peer(struct doca_rdma_connection *conn, _Atomic uint32_t *word)
{
	static const uint8_t one = 1;

	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(word, memory_order_relaxed) == 0 || atomic_exchange(word, 0) == 0)
		return;
	int fd = sd_wake_peer_fd(conn);
	if (fd >= 0)
		(void)!write(fd, &one, 1); /* EAGAIN: the pipe is full, so readable already */
}

void sd_rdma_wake_conn_close(struct doca_rdma_connection *conn)
{
	if (conn->peer_wake_fd1 > 0)
		close(conn->peer_wake_fd1 - 1);
	if (conn->peer_pidfd1 > 0)
		close(conn->peer_pidfd1 - 1); /* closing it takes it out of the watcher's set */
	conn->peer_wake_fd1 = 0;
	conn->peer_pidfd1 = 0;
}

void sd_rdma_wake_release(struct doca_rdma *rdma)
{
	static const uint8_t one = 1;
	struct sd_rdma_wake *w = rdma->wake;

	if (w == NULL)
		return;
	if (w->running) {
		atomic_store(&w->quit, true);
		(void)!write(w->pipe_wr, &one, 1);
		pthread_join(w->thread, NULL);
	}
	sd_wake_free(w);
	rdma->wake = NULL;
}
