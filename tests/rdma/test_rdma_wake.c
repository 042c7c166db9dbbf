/*
 * test_rdma_wake.c - a program asleep on its progress engine's
 * notification handle (doca_pe_request_notification, then epoll_wait on
 * the handle, no doca_pe_progress meanwhile) is woken by what happens to
 * its RDMA context in another process: a message arriving, its own
 * message being taken, the RNR budget running out, the peer stopping or
 * dying, and the connection manager's request, established, disconnect and failure.
 *
 * The sleeper progresses only after its handle became readable, and each
 * case fails when the handle stays quiet past a generous timeout.  The
 * number of wake-ups is bounded too: a handle that is always readable
 * would pass the timeout test while the program spins.
 */
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdma_pipes.h"
#include "rdma_test.h"
#include "sd_time.h"

#define LEN 4096u
#define PERMS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define PEER_DELAY_US 300000 /* the peer acts this long after it was told to */
#define SLEEP_LIMIT_S 10.0   /* a sleeper not woken by then fails the case */
#define MAX_WAKES 200        /* more wake-ups than this for a handful of events is spinning, not sleeping */

static uint8_t mem[LEN] __attribute__((aligned(64)));

/*
 * Sleep on the handle of `pe` until *counter reaches want: arm, wait, then
 * progress until the PE has nothing more.  *wakes counts the wake-ups.
 */
static bool sleep_until(struct doca_pe *pe, const int *counter, int want, double secs, int *wakes)
{
	doca_notification_handle_t h;
	struct epoll_event ev = {.events = EPOLLIN};
	double end = sd_time_now_s() + secs;
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0 || doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS || epoll_ctl(ep, EPOLL_CTL_ADD, h, &ev) != 0)
		return false;
	while (*counter < want) {
		double left = end - sd_time_now_s();
		if (left <= 0 || doca_pe_request_notification(pe) != DOCA_SUCCESS)
			break;
		if (epoll_wait(ep, &ev, 1, (int)(left * 1000.0) + 1) != 1)
			break; /* the handle stayed quiet: not woken */
		(*wakes)++;
		CHECK_OK(doca_pe_clear_notification(pe, h));
		while (doca_pe_progress(pe) != 0)
			;
	}
	close(ep);
	return *counter >= want;
}

/* Busy progress (the peer is no sleeper) until `want` completions or `secs`. */
static bool spin_until(struct rt_side *s, int want, double secs)
{
	double end = sd_time_now_s() + secs;

	while (s->done < want && sd_time_now_s() < end)
		doca_pe_progress(s->pe);
	return s->done >= want;
}

static struct doca_buf *buf_of(struct rt_side *s, struct doca_mmap *m, size_t off, size_t len, size_t data)
{
	struct doca_buf *b = NULL;

	if (doca_buf_inventory_buf_get_by_data(s->inv, m, mem + off, len, &b) != DOCA_SUCCESS)
		return NULL;
	return doca_buf_set_data(b, mem + off, data) == DOCA_SUCCESS ? b : NULL;
}

/* ---- the peer process: obeys one-byte commands, each carried out PEER_DELAY_US after it came ---- */

static bool peer_send(struct rt_side *s, struct doca_mmap *m)
{
	struct doca_rdma_task_send *t = NULL;
	union doca_data ud = {.u64 = 0};

	memcpy(mem, "wake up", 7);
	struct doca_buf *src = buf_of(s, m, 0, 7, 7);
	bool ok = src != NULL && doca_rdma_task_send_allocate_init(s->rdma, s->conn, src, ud, &t) == DOCA_SUCCESS &&
		  doca_task_submit(doca_rdma_task_send_as_task(t)) == DOCA_SUCCESS && spin_until(s, s->done + 1, 10.0) &&
		  s->status == DOCA_SUCCESS;
	if (t != NULL)
		doca_task_free(doca_rdma_task_send_as_task(t));
	if (src != NULL)
		doca_buf_dec_refcount(src, NULL);
	return ok;
}

static bool peer_receive(struct rt_side *s, struct doca_mmap *m)
{
	struct doca_rdma_task_receive *t = NULL;
	union doca_data ud = {.u64 = 0};
	struct doca_buf *dst = buf_of(s, m, 0, 64, 0);
	bool ok = dst != NULL && doca_rdma_task_receive_allocate_init(s->rdma, dst, ud, &t) == DOCA_SUCCESS &&
		  doca_task_submit(doca_rdma_task_receive_as_task(t)) == DOCA_SUCCESS &&
		  spin_until(s, s->done + 1, 10.0) && s->status == DOCA_SUCCESS;
	if (t != NULL)
		doca_task_free(doca_rdma_task_receive_as_task(t));
	if (dst != NULL)
		doca_buf_dec_refcount(dst, NULL);
	return ok;
}

static int peer(int up, int down)
{
	struct rt_side s;
	uint8_t blob[256];
	char cmd = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!rt_configure(&s, RT_DPU_PCI, PERMS) || !rt_start_and_export(&s))
		return 10;
	struct doca_mmap *m = rt_mmap(s.dev, mem, LEN, PERMS);
	size_t n = get_blob(down, blob, sizeof(blob));
	if (m == NULL || n == 0 || doca_rdma_connect(s.rdma, blob, n, s.conn) != DOCA_SUCCESS ||
	    !put_blob(up, s.blob, s.blob_len))
		return 11;
	while (get_all(down, &cmd, 1) && cmd != 'q') {
		usleep(PEER_DELAY_US);
		if (cmd == 'k')
			raise(SIGKILL); /* dies without a word */
		bool ok = cmd == 's' ? peer_send(&s, m) : cmd == 'r' ? peer_receive(&s, m) : (rt_stop(&s), true);
		if (!put_all(up, ok ? "k" : "f", 1))
			return 12;
	}
	rt_stop(&s);
	doca_mmap_destroy(m);
	rt_destroy(&s);
	return 0;
}

/* ---- this process: one side, connected to a forked peer ---- */

struct pair {
	pid_t pid;
	int up, down;
	struct rt_side a;
	struct doca_mmap *m;
};

static bool pair_open(struct pair *p, uint8_t rnr)
{
	uint8_t blob[256];

	memset(p, 0, sizeof(*p));
	p->pid = rt_fork(peer, &p->up, &p->down);
	if (p->pid < 0 || !rt_configure(&p->a, RT_HOST_PCI, PERMS) ||
	    doca_rdma_set_rnr_retry_count(p->a.rdma, rnr) != DOCA_SUCCESS || !rt_start_and_export(&p->a) ||
	    !put_blob(p->down, p->a.blob, p->a.blob_len))
		return false;
	size_t n = get_blob(p->up, blob, sizeof(blob));
	p->m = rt_mmap(p->a.dev, mem, LEN, PERMS);
	return n != 0 && p->m != NULL && doca_rdma_connect(p->a.rdma, blob, n, p->a.conn) == DOCA_SUCCESS;
}

/* Reap the peer (which exits 0, or was killed when `killed`) and tear this side down. */
static void pair_close_as(struct pair *p, bool killed)
{
	int st = rt_reap(p->pid, p->up, p->down);

	CHECK(st != -1 && (killed ? WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL : WIFEXITED(st) && WEXITSTATUS(st) == 0));
	rt_stop(&p->a);
	if (p->m != NULL)
		doca_mmap_destroy(p->m);
	rt_destroy(&p->a);
}

static void pair_close(struct pair *p)
{
	pair_close_as(p, false);
}

static char peer_answer(struct pair *p)
{
	char c = 0;
	return get_all(p->up, &c, 1) ? c : 0;
}

static struct doca_task *submit_send(struct pair *p)
{
	struct doca_rdma_task_send *t = NULL;
	union doca_data ud = {.u64 = 0};

	memcpy(mem + 1024, "are you there", 13);
	struct doca_buf *src = buf_of(&p->a, p->m, 1024, 13, 13);
	if (src == NULL || doca_rdma_task_send_allocate_init(p->a.rdma, p->a.conn, src, ud, &t) != DOCA_SUCCESS ||
	    doca_task_submit(doca_rdma_task_send_as_task(t)) != DOCA_SUCCESS)
		return NULL;
	return doca_rdma_task_send_as_task(t);
}

static void free_send(struct doca_task *t)
{
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_send_get_src_buf(
		(const struct doca_rdma_task_send *)(const void *)t);

	doca_task_free(t);
	doca_buf_dec_refcount(src, NULL);
}

static void a_message_from_another_process_wakes_a_sleeping_receiver(void)
{
	struct pair p;
	struct doca_rdma_task_receive *r = NULL;
	union doca_data ud = {.u64 = 0};
	int wakes = 0;

	REQUIRE(pair_open(&p, 7));
	struct doca_buf *dst = buf_of(&p.a, p.m, 0, 64, 0);
	REQUIRE(dst != NULL);
	CHECK_OK(doca_rdma_task_receive_allocate_init(p.a.rdma, dst, ud, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	REQUIRE(put_all(p.down, "s", 1));
	CHECK(sleep_until(p.a.pe, &p.a.done, 1, SLEEP_LIMIT_S, &wakes));
	CHECK(p.a.status == DOCA_SUCCESS && memcmp(mem, "wake up", 7) == 0);
	CHECK(wakes >= 1 && wakes <= MAX_WAKES);
	CHECK(peer_answer(&p) == 'k');
	doca_task_free(doca_rdma_task_receive_as_task(r));
	doca_buf_dec_refcount(dst, NULL);
	pair_close(&p);
}

static void a_sleeping_sender_is_woken_when_the_other_process_takes_its_message(void)
{
	struct pair p;
	int wakes = 0;

	REQUIRE(pair_open(&p, 7));
	struct doca_task *t = submit_send(&p);
	REQUIRE(t != NULL);
	REQUIRE(put_all(p.down, "r", 1));
	CHECK(sleep_until(p.a.pe, &p.a.done, 1, SLEEP_LIMIT_S, &wakes));
	CHECK(p.a.status == DOCA_SUCCESS);
	CHECK(wakes >= 1 && wakes <= MAX_WAKES);
	CHECK(peer_answer(&p) == 'k');
	free_send(t);
	pair_close(&p);
}

static void the_rnr_budget_running_out_wakes_a_sleeping_sender(void)
{
	struct pair p;
	int wakes = 0;

	REQUIRE(pair_open(&p, 1)); /* 110 ms */
	double t0 = sd_time_now_s();
	struct doca_task *t = submit_send(&p);
	REQUIRE(t != NULL);
	CHECK(sleep_until(p.a.pe, &p.a.done, 1, SLEEP_LIMIT_S, &wakes));
	CHECK(p.a.status == DOCA_ERROR_IO_FAILED);
	CHECK(sd_time_now_s() - t0 < 5.0);
	CHECK(wakes >= 1 && wakes <= MAX_WAKES);
	free_send(t);
	pair_close(&p);
}

/*
 * A send waits with 2 s of RNR budget while the peer ends: told to stop its
 * context ('x', which it confirms) or killed without a word ('k').  The
 * sleeper must be woken with NOT_CONNECTED well before the budget runs out.
 */
static void a_peer_ending_wakes_a_sleeping_sender(char how)
{
	struct pair p;
	int wakes = 0;

	REQUIRE(pair_open(&p, 7));
	double t0 = sd_time_now_s();
	struct doca_task *t = submit_send(&p);
	REQUIRE(t != NULL);
	REQUIRE(put_all(p.down, &how, 1));
	CHECK(sleep_until(p.a.pe, &p.a.done, 1, SLEEP_LIMIT_S, &wakes));
	CHECK(p.a.status == DOCA_ERROR_NOT_CONNECTED);
	CHECK(sd_time_now_s() - t0 < 1.8);
	CHECK(wakes >= 1 && wakes <= MAX_WAKES);
	if (how == 'x')
		CHECK(peer_answer(&p) == 'k');
	free_send(t);
	pair_close_as(&p, how == 'k');
}

static void the_peer_stopping_wakes_a_sleeping_sender_before_the_rnr_budget(void)
{
	a_peer_ending_wakes_a_sleeping_sender('x');
}

/* Killed, no word said: its process ending is what wakes us. */
static void the_peer_dying_wakes_a_sleeping_sender_before_the_rnr_budget(void)
{
	a_peer_ending_wakes_a_sleeping_sender('k');
}

/* ---- connection manager ---- */

struct cm_side {
	struct rt_side rt; /* first: the context's user data points here */
	int requests, established, failures, disconnects;
	struct doca_rdma_connection *conn;
};

static void on_request(struct doca_rdma_connection *conn, union doca_data ctx_ud)
{
	struct cm_side *s = ctx_ud.ptr;

	s->requests++;
	CHECK_OK(doca_rdma_connection_accept(conn, NULL, 0));
}

static void on_established(struct doca_rdma_connection *conn, union doca_data conn_ud, union doca_data ctx_ud)
{
	struct cm_side *s = ctx_ud.ptr;

	(void)conn_ud;
	s->conn = conn;
	s->established++;
}

static void on_failure(struct doca_rdma_connection *conn, union doca_data conn_ud, union doca_data ctx_ud)
{
	struct cm_side *s = ctx_ud.ptr;

	(void)conn;
	(void)conn_ud;
	s->failures++;
}

static void on_disconnect(struct doca_rdma_connection *conn, union doca_data conn_ud, union doca_data ctx_ud)
{
	struct cm_side *s = ctx_ud.ptr;

	(void)conn_ud;
	s->disconnects++;
	(void)doca_rdma_connection_disconnect(conn);
}

static bool cm_configure(struct cm_side *s, const char *pci)
{
	memset(s, 0, sizeof(*s));
	return rt_configure(&s->rt, pci, PERMS) &&
	       doca_rdma_set_connection_state_callbacks(s->rt.rdma, on_request, on_established, on_failure,
							on_disconnect) == DOCA_SUCCESS &&
	       doca_rdma_set_connection_request_timeout(s->rt.rdma, 400) == DOCA_SUCCESS &&
	       doca_ctx_start(s->rt.ctx) == DOCA_SUCCESS;
}

static struct doca_rdma_addr *loopback(uint16_t port)
{
	struct doca_rdma_addr *a = NULL;
	return doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &a) == DOCA_SUCCESS ? a : NULL;
}

/* The client process: told a port, it waits, connects, sleeps until established, waits again, disconnects. */
static int cm_client(int up, int down)
{
	struct cm_side c;
	union doca_data ud = {.u64 = 7};
	uint16_t port = 0;
	char go = 0;
	int wakes = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!get_all(down, &port, 2) || !cm_configure(&c, RT_HOST_PCI))
		return 10;
	struct doca_rdma_addr *addr = loopback(port);
	usleep(PEER_DELAY_US);
	if (addr == NULL || doca_rdma_connect_to_addr(c.rt.rdma, addr, ud) != DOCA_SUCCESS)
		return 11;
	if (!sleep_until(c.rt.pe, &c.established, 1, SLEEP_LIMIT_S, &wakes) || wakes > MAX_WAKES)
		return 12; /* the client's own established callback woke it */
	if (!get_all(down, &go, 1))
		return 13;
	usleep(PEER_DELAY_US);
	if (doca_rdma_connection_disconnect(c.conn) != DOCA_SUCCESS || !put_all(up, "k", 1))
		return 14;
	rt_stop(&c.rt);
	rt_destroy(&c.rt);
	doca_rdma_addr_destroy(addr);
	return 0;
}

static uint16_t listen_somewhere(struct cm_side *s)
{
	srand((unsigned)getpid() ^ (unsigned)sd_time_now_s());
	for (int i = 0; i < 200; i++) {
		uint16_t port = (uint16_t)(12000 + rand() % 20000);
		if (doca_rdma_start_listen_to_port(s->rt.rdma, port) == DOCA_SUCCESS)
			return port;
	}
	return 0;
}

static void connection_manager_events_wake_a_sleeping_server_and_client(void)
{
	struct cm_side srv;
	int up = -1, down = -1, wakes = 0, st = 0;
	pid_t pid = rt_fork(cm_client, &up, &down);

	REQUIRE(pid >= 0);
	REQUIRE(cm_configure(&srv, RT_DPU_PCI));
	uint16_t port = listen_somewhere(&srv);
	REQUIRE(port != 0 && put_all(down, &port, 2));
	/* Request (accepted in its callback), then established: both reach a server asleep on its handle. */
	CHECK(sleep_until(srv.rt.pe, &srv.established, 1, SLEEP_LIMIT_S, &wakes));
	CHECK(srv.requests == 1);
	REQUIRE(put_all(down, "g", 1));
	CHECK(sleep_until(srv.rt.pe, &srv.disconnects, 1, SLEEP_LIMIT_S, &wakes));
	CHECK(wakes >= 2 && wakes <= MAX_WAKES);
	char k = 0;
	CHECK(get_all(up, &k, 1) && k == 'k');
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fprintf(stderr, "the client process ended with status %d\n", st);
	close(up);
	close(down);
	rt_stop(&srv.rt);
	rt_destroy(&srv.rt);
}

static void a_silent_server_fails_a_sleeping_client_at_the_request_timeout(void)
{
	struct cm_side cli;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof(sa);
	union doca_data ud = {.u64 = 1};
	int wakes = 0;
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	/* A TCP listener that takes the connection (backlog) and never answers the request. */
	REQUIRE(lfd >= 0 && bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) == 0 && listen(lfd, 4) == 0 &&
		getsockname(lfd, (struct sockaddr *)&sa, &sl) == 0);
	REQUIRE(cm_configure(&cli, RT_HOST_PCI));
	struct doca_rdma_addr *addr = loopback(ntohs(sa.sin_port));
	REQUIRE(addr != NULL);
	double t0 = sd_time_now_s();
	CHECK_OK(doca_rdma_connect_to_addr(cli.rt.rdma, addr, ud));
	CHECK(sleep_until(cli.rt.pe, &cli.failures, 1, SLEEP_LIMIT_S, &wakes));
	CHECK(sd_time_now_s() - t0 < 3.0); /* the 400 ms timeout, not the sleeper's limit */
	CHECK(wakes >= 1 && wakes <= MAX_WAKES);
	rt_stop(&cli.rt);
	rt_destroy(&cli.rt);
	doca_rdma_addr_destroy(addr);
	close(lfd);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	SD_RUN(a_message_from_another_process_wakes_a_sleeping_receiver);
	SD_RUN(a_sleeping_sender_is_woken_when_the_other_process_takes_its_message);
	SD_RUN(the_rnr_budget_running_out_wakes_a_sleeping_sender);
	SD_RUN(the_peer_stopping_wakes_a_sleeping_sender_before_the_rnr_budget);
	SD_RUN(the_peer_dying_wakes_a_sleeping_sender_before_the_rnr_budget);
	SD_RUN(connection_manager_events_wake_a_sleeping_server_and_client);
	SD_RUN(a_silent_server_fails_a_sleeping_client_at_the_request_timeout);
	return sd_test_done();
}
