/*
 * ucx_listener_end.c - destroying a UCX listener with no connection of it
 * left half-accepted.
 *
 * Why this exists.  With the TCP connection manager of UCX 1.13 (the same
 * code in later releases), accepting a connection takes two steps on UCX's
 * network thread: the listening socket's handler accepts the socket and
 * gives it a small server endpoint that remembers the listener; only when
 * the peer's first bytes arrive on that socket does UCX call the listener's
 * request handler through that remembered pointer.  ucp_listener_destroy
 * closes the listening socket and frees the listener, but leaves the
 * accepted sockets whose bytes have not arrived yet to the worker, which
 * closes them only in ucp_worker_destroy.  A peer's bytes arriving in
 * between (or being handled while the listener is freed) make UCX's thread
 * call through freed memory: the crash seen at context stop.
 *
 * So before the listener goes, every accepted socket of it is taken through
 * to its end while the listener still lives:
 *   1. the listening socket drops every new handshake (a socket filter that
 *      accepts no packet: nothing new enters its accept queue; a peer's
 *      retried handshake then meets the closed port and is refused);
 *   2. what is already queued is accepted here and closed (the peer reads
 *      its end), so UCX's thread finds the queue empty; again on each
 *      pass of step 4, for a handshake the kernel was finishing meanwhile;
 *   3. each socket UCX accepted on the listener's port is shut down: UCX's
 *      thread sees it end and releases its server endpoint (a socket whose
 *      bytes came first reaches the owner's handler, which refuses it:
 *      the owner set its closing flag before calling here);
 *   4. the worker is progressed until no such socket is left, and stays
 *      so for SD_UCX_QUIET_NS (an accept UCX's thread had begun, its
 *      socket not yet in the descriptor table, shows up within it).
 * Connections the owner made or accepted earlier (its links, its peers)
 * must be closed before: their sockets share the listener's port.
 * Not a hot path: this runs once per listener, at close.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sd_log.h"
#include "ucx_priv.h"

/* How long the accepted sockets may take to end (UCX's thread must run); then the listener goes anyway. */
#define SD_UCX_DRAIN_NS 200000000ull
/* How long no accepted socket may be seen before the listener goes. */
#define SD_UCX_QUIET_NS 1000000ull
/* Descriptors looked at when /proc/self/fd cannot be read. */
#define SD_UCX_FD_SCAN_MAX 65536

/* The listener's address, as its sockets report it. */
struct sd_ucx_lsn_addr {
	struct sockaddr_storage ss;
	bool wildcard; /* bound to every address: only family and port are compared */
};

static uint16_t sd_ucx_port_of(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_port;
	return ((const struct sockaddr_in6 *)ss)->sin6_port;
}

static bool sd_ucx_is_wildcard(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_addr.s_addr == htonl(INADDR_ANY);
	return memcmp(&((const struct sockaddr_in6 *)ss)->sin6_addr, &in6addr_any, sizeof(in6addr_any)) == 0;
}

static bool sd_ucx_same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr, &((const struct sockaddr_in6 *)b)->sin6_addr,
		      sizeof(struct in6_addr)) == 0;
}

/* -1: not a TCP socket of the listener's address; 1: the listening socket; 0: one accepted on it. */
static int sd_ucx_fd_kind(int fd, const struct sd_ucx_lsn_addr *lsn)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int type = 0, listening = 0;
	socklen_t il = sizeof(int);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 || ss.ss_family != lsn->ss.ss_family ||
	    sd_ucx_port_of(&ss) != sd_ucx_port_of(&lsn->ss) || (!lsn->wildcard && !sd_ucx_same_addr(&ss, &lsn->ss)))
		return -1;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &il) != 0 || type != SOCK_STREAM)
		return -1;
	il = sizeof(int);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &il) != 0)
		return -1;
	return listening ? 1 : 0;
}

typedef void (*sd_ucx_fd_visit)(int fd, void *arg);

/* Call `visit` for each open descriptor of the process. */
static void sd_ucx_each_fd(sd_ucx_fd_visit visit, void *arg)
{
	DIR *d = opendir("/proc/self/fd");

	if (d != NULL) {
		struct dirent *e;

		while ((e = readdir(d)) != NULL) {
			char *end;
			long fd = strtol(e->d_name, &end, 10);

			if (e->d_name[0] != '.' && *end == '\0' && fd != dirfd(d))
				visit((int)fd, arg);
		}
		closedir(d);
		return;
	}
	struct rlimit rl;
	int max = SD_UCX_FD_SCAN_MAX;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < SD_UCX_FD_SCAN_MAX)
		max = (int)rl.rlim_cur;
	for (int fd = 0; fd < max; fd++)
		visit(fd, arg);
}

struct sd_ucx_scan {
	const struct sd_ucx_lsn_addr *lsn;
	int listen_fd;     /* -1 until seen */
	unsigned accepted; /* sockets accepted on the listener still open */
};

static void sd_ucx_find_listening(int fd, void *arg)
{
	struct sd_ucx_scan *s = arg;

	if (s->listen_fd < 0 && sd_ucx_fd_kind(fd, s->lsn) == 1)
		s->listen_fd = fd;
}

/* Shutting down a socket UCX owns is what makes UCX's thread end it (it reads the end of stream). */
static void sd_ucx_end_accepted(int fd, void *arg)
{
	struct sd_ucx_scan *s = arg;

	if (sd_ucx_fd_kind(fd, s->lsn) == 0) {
		(void)shutdown(fd, SHUT_RDWR);
		s->accepted++;
	}
}

/* Step 1: no handshake completes any more. */
static void sd_ucx_close_door(int listen_fd)
{
	struct sock_filter drop_all = BPF_STMT(BPF_RET | BPF_K, 0);
	struct sock_fprog prog = {.len = 1, .filter = &drop_all};
	int flags = fcntl(listen_fd, F_GETFL);

	/* UCX makes it non-blocking already; step 2 must never wait on an empty queue. */
	if (flags >= 0 && !(flags & O_NONBLOCK))
		(void)fcntl(listen_fd, F_SETFL, flags | O_NONBLOCK);
	if (setsockopt(listen_fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) != 0)
		SD_LOG_DBG("cannot filter the UCX listening socket (%s); new peers may still be accepted while it closes",
			   strerror(errno));
}

/*
 * Step 2, on every pass: a handshake the kernel was completing while the
 * filter went on may still reach the queue; taken here, UCX never sees it.
 */
static void sd_ucx_take_queued(int listen_fd)
{
	int fd;

	if (listen_fd < 0) /* not found: only steps 3 and 4 run */
		return;
	while ((fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0)
		close(fd);
}

/* Steps 2 to 4. */
static void sd_ucx_drain_accepted(ucp_worker_h worker, struct sd_ucx_scan *s)
{
	uint64_t start = sd_mono_ns(), quiet_since = start;

	for (;;) {
		uint64_t now;

		sd_ucx_take_queued(s->listen_fd);
		s->accepted = 0;
		sd_ucx_each_fd(sd_ucx_end_accepted, s);
		now = sd_mono_ns();
		if (s->accepted != 0) {
			sd_ucx_hand_out_queued_requests(worker); /* a socket whose bytes came first is a request */
			quiet_since = now;
		} else if (now - quiet_since >= SD_UCX_QUIET_NS) {
			return;
		}
		if (now - start > SD_UCX_DRAIN_NS) {
			SD_LOG_DBG("%u connection(s) accepted by UCX did not end within %llu ms; closing the listener",
				   s->accepted, SD_UCX_DRAIN_NS / 1000000ull);
			return;
		}
		usleep(100);
	}
}

void sd_ucx_listener_end(ucp_worker_h worker, ucp_listener_h listener)
{
	ucp_listener_attr_t attr = {.field_mask = UCP_LISTENER_ATTR_FIELD_SOCKADDR};
	struct sd_ucx_lsn_addr lsn;
	struct sd_ucx_scan scan = {.lsn = &lsn, .listen_fd = -1};

	sd_ucx_hand_out_queued_requests(worker);
	if (ucp_listener_query(listener, &attr) == UCS_OK &&
	    (attr.sockaddr.ss_family == AF_INET || attr.sockaddr.ss_family == AF_INET6)) {
		lsn.ss = attr.sockaddr;
		lsn.wildcard = sd_ucx_is_wildcard(&lsn.ss);
		sd_ucx_each_fd(sd_ucx_find_listening, &scan);
		if (scan.listen_fd >= 0)
			sd_ucx_close_door(scan.listen_fd);
		sd_ucx_drain_accepted(worker, &scan);
	}
	ucp_listener_destroy(listener);
}
