/*
 * test_comch_peers.c - a server and a client in two processes: the peer is a
 * forked child of this program.
 *  - the control-path ping/pong across processes, both ends reach IDLE;
 *  - a client process that stops raises the server's disconnect event;
 *  - a client process killed with SIGKILL does too;
 *  - a server process killed with SIGKILL stops its client
 *    (RUNNING -> STOPPING -> IDLE);
 *  - a client started before its server process connects once it runs.
 *
 * Each peer is this program run again (fork + exec of /proc/self/exe with
 * --peer ROLE NAME READY_FD GO_FD); it reports through its exit status, and
 * a pipe tells the parent when it reached a given point.
 */
#include <signal.h>

#include "comch_test.h"

static struct ct_side srv, cli;

/* ---- child side ---- */

static void child_signal(int fd)
{
	char c = 1;

	if (write(fd, &c, 1) != 1)
		_exit(3);
}

static bool child_wait_parent(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char c;

	return poll(&p, 1, ms) == 1 && read(fd, &c, 1) == 1;
}

/* Reply to the first message, then stop once the reply completed. */
static void echo_then_stop(struct ct_side *s, const struct ct_event *ev)
{
	if (ev->kind == CT_RECV)
		(void)ct_send(s, ev->conn, ev->seq + 1, ev->len);
	if (ev->kind == CT_SEND_OK)
		(void)doca_ctx_stop(s->ctx);
}

/* The server process: echo one message and stop; exit 0 when IDLE. */
static void child_echo_server(const char *name, int ready_fd)
{
	if (!ct_server_setup(&srv, name, 1024) || doca_ctx_start(srv.ctx) != DOCA_SUCCESS)
		_exit(2);
	srv.hook = echo_then_stop;
	child_signal(ready_fd);
	if (!ct_run_until(&srv, NULL, ct_is_idle, &srv, 10000))
		_exit(1);
	srv.hook = NULL;
	ct_teardown(&srv, NULL);
	_exit(sd_test_case_failed ? 1 : 0);
}

/* The server process: run until killed. */
static void child_idle_server(const char *name, int ready_fd)
{
	if (!ct_server_setup(&srv, name, 16) || doca_ctx_start(srv.ctx) != DOCA_SUCCESS)
		_exit(2);
	child_signal(ready_fd);
	(void)ct_run_until(&srv, NULL, ct_is_idle, &srv, 20000);
	_exit(1);
}

/* The client process: connect, send one message, then stop or wait to be killed. */
static void child_client(const char *name, int ready_fd, int go_fd, bool stop)
{
	if (!ct_client_setup(&cli, name, 16) || doca_ctx_start(cli.ctx) != DOCA_ERROR_IN_PROGRESS)
		_exit(2);
	if (!ct_run_until(&cli, NULL, ct_is_running, &cli, 10000) ||
	    doca_comch_client_get_connection(cli.client, &cli.conn) != DOCA_SUCCESS)
		_exit(3);
	if (ct_send(&cli, cli.conn, 11, 40) != DOCA_SUCCESS)
		_exit(4);
	child_signal(ready_fd);
	if (!stop) {
		for (;;)
			pause(); /* until SIGKILL */
	}
	if (!child_wait_parent(go_fd, 10000))
		_exit(5);
	(void)doca_ctx_stop(cli.ctx);
	if (!ct_run_until(&cli, NULL, ct_is_idle, &cli, 10000))
		_exit(6);
	ct_teardown(&cli, NULL);
	_exit(0);
}

/* ---- parent side ---- */

struct child {
	pid_t pid;
	int ready;  /* parent reads: the child reached its point */
	int go;     /* parent writes: the child may go on */
};

/*
 * Start this program again as the peer `role` ("echo-server",
 * "idle-server", "stopping-client", "killed-client"): a fresh process
 * image, as a real peer program would be, whatever threads this one runs.
 */
static bool spawn(struct child *c, const char *role, const char *name)
{
	int ready[2], go[2];

	if (pipe(ready) != 0 || pipe(go) != 0)
		return false;
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0)
		return false;
	if (c->pid == 0) {
		char rfd[16], gfd[16];

		close(ready[0]);
		close(go[1]);
		snprintf(rfd, sizeof(rfd), "%d", ready[1]);
		snprintf(gfd, sizeof(gfd), "%d", go[0]);
		execl("/proc/self/exe", "test_comch_peers", "--peer", role, name, rfd, gfd, (char *)NULL);
		_exit(9);
	}
	close(ready[1]);
	close(go[0]);
	c->ready = ready[0];
	c->go = go[1];
	return true;
}

/* The child's entry point: act as `role` and exit with its result. */
static int run_peer(char **argv)
{
	const char *role = argv[2], *name = argv[3];
	int ready_fd = atoi(argv[4]), go_fd = atoi(argv[5]);

	if (strcmp(role, "echo-server") == 0)
		child_echo_server(name, ready_fd);
	else if (strcmp(role, "idle-server") == 0)
		child_idle_server(name, ready_fd);
	else if (strcmp(role, "stopping-client") == 0)
		child_client(name, ready_fd, go_fd, true);
	else if (strcmp(role, "killed-client") == 0)
		child_client(name, ready_fd, go_fd, false);
	return 9;
}

static bool child_ready(struct child *c, int ms)
{
	struct pollfd p = {.fd = c->ready, .events = POLLIN};
	char ch;

	return poll(&p, 1, ms) == 1 && read(c->ready, &ch, 1) == 1;
}

/* Wait for the child; its exit status, or -1 when it did not exit normally. */
static int reap(struct child *c)
{
	int status = 0;

	close(c->ready);
	close(c->go);
	if (waitpid(c->pid, &status, 0) != c->pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool saw_disconnect(void *arg)
{
	return ct_count(arg, CT_DISCONNECT) > 0;
}

static bool saw_recv(void *arg)
{
	return ct_count(arg, CT_RECV) > 0;
}

static void ping_pong_across_processes(void)
{
	const char *name = ct_name("xping");
	struct child c;

	REQUIRE(spawn(&c, "echo-server", name));
	REQUIRE(child_ready(&c, 10000));
	REQUIRE(ct_client_setup(&cli, name, 1024));
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&cli, NULL, ct_is_running, &cli, 10000));
	CHECK_OK(doca_comch_client_get_connection(cli.client, &cli.conn));
	CHECK_OK(ct_send(&cli, cli.conn, 100, 64));
	CHECK(ct_run_until(&cli, NULL, saw_recv, &cli, 10000));
	CHECK(cli.last_len == 64 && cli.ev[ct_find(&cli, CT_RECV, 0)].seq == 101);
	CHECK(ct_find(&cli, CT_SEND_OK, 0) < ct_find(&cli, CT_RECV, 0));
	/* The server stopped after its reply: this client is told and stops. */
	CHECK(ct_run_until(&cli, NULL, ct_is_idle, &cli, 10000));
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING) >= 0);
	CHECK(reap(&c) == 0);
	ct_teardown(&cli, NULL);
}

static void a_client_process_that_stops_raises_the_disconnect_event(void)
{
	const char *name = ct_name("xstop");
	struct child c;

	REQUIRE(ct_server_setup(&srv, name, 16));
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	REQUIRE(spawn(&c, "stopping-client", name));
	CHECK(child_ready(&c, 10000));
	CHECK(ct_run_until(&srv, NULL, saw_recv, &srv, 10000));
	CHECK(write(c.go, "g", 1) == 1);
	CHECK(ct_run_until(&srv, NULL, saw_disconnect, &srv, 10000));
	CHECK(ct_find(&srv, CT_CONNECT, 0) < ct_find(&srv, CT_RECV, 0));
	CHECK(ct_find(&srv, CT_RECV, 0) < ct_find(&srv, CT_DISCONNECT, 0));
	CHECK(reap(&c) == 0);
	CHECK_OK(doca_ctx_stop(srv.ctx)); /* no client left: synchronous */
	ct_teardown(&srv, NULL);
}

static void a_killed_client_process_raises_the_disconnect_event(void)
{
	const char *name = ct_name("xkill");
	struct child c;

	REQUIRE(ct_server_setup(&srv, name, 16));
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	REQUIRE(spawn(&c, "killed-client", name));
	CHECK(child_ready(&c, 10000));
	CHECK(ct_run_until(&srv, NULL, saw_recv, &srv, 10000));
	CHECK(kill(c.pid, SIGKILL) == 0);
	CHECK(ct_run_until(&srv, NULL, saw_disconnect, &srv, 10000));
	CHECK(reap(&c) == -1);
	/* The server goes on: a send to the dead connection is refused. */
	CHECK(ct_state(&srv) == DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_ctx_stop(srv.ctx));
	ct_teardown(&srv, NULL);
}

static void a_killed_server_process_stops_its_client(void)
{
	const char *name = ct_name("xsrvkill");
	struct child c;

	REQUIRE(spawn(&c, "idle-server", name));
	REQUIRE(child_ready(&c, 10000));
	REQUIRE(ct_client_setup(&cli, name, 16));
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&cli, NULL, ct_is_running, &cli, 10000));
	CHECK(kill(c.pid, SIGKILL) == 0);
	CHECK(ct_run_until(&cli, NULL, ct_is_idle, &cli, 10000));
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING) >= 0);
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE) >= 0);
	CHECK(reap(&c) == -1);
	ct_teardown(&cli, NULL);
}

static void a_client_started_before_its_server_process_connects(void)
{
	const char *name = ct_name("xlate");
	struct child c;
	uint64_t end;

	REQUIRE(ct_client_setup(&cli, name, 1024));
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	for (end = ct_now_ms() + 50; ct_now_ms() < end; ct_nap())
		ct_progress(&cli);
	CHECK(ct_state(&cli) == DOCA_CTX_STATE_STARTING);
	REQUIRE(spawn(&c, "echo-server", name));
	CHECK(ct_run_until(&cli, NULL, ct_is_running, &cli, 10000));
	CHECK_OK(doca_comch_client_get_connection(cli.client, &cli.conn));
	CHECK_OK(ct_send(&cli, cli.conn, 1, 8));
	CHECK(ct_run_until(&cli, NULL, ct_is_idle, &cli, 10000));
	CHECK(reap(&c) == 0);
	ct_teardown(&cli, NULL);
}

int main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[1], "--peer") == 0)
		return run_peer(argv);
	/* SIGPIPE keeps its default: a send to a dead peer must not raise it. */
	SD_RUN(ping_pong_across_processes);
	SD_RUN(a_client_process_that_stops_raises_the_disconnect_event);
	SD_RUN(a_killed_client_process_raises_the_disconnect_event);
	SD_RUN(a_killed_server_process_stops_its_client);
	SD_RUN(a_client_started_before_its_server_process_connects);
	return sd_test_done();
}
