/*
 * test_comch_lifecycle.c - the state machines of Comch servers and clients
 * and server discovery:
 *  - the server goes IDLE -> RUNNING inside doca_ctx_start, never STARTING;
 *  - the client returns DOCA_ERROR_IN_PROGRESS, is STARTING, and becomes
 *    RUNNING from a progress call once a server of its name runs, however
 *    late that server starts;
 *  - stops: synchronous without connections, IN_PROGRESS with them, and the
 *    peer hears about it (disconnect callback / client STOPPING -> IDLE);
 *  - doca_comch_server_disconnect, duplicate names, restarts, the
 *    filesystem rendezvous of SOFTDOCA_COMCH_DIR.
 */
#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "comch_test.h"

static struct ct_side srv, cli, cli2;

static bool server_saw_connect(void *arg)
{
	return ct_count(arg, CT_CONNECT) > 0;
}

static bool server_saw_two_connects(void *arg)
{
	return ct_count(arg, CT_CONNECT) >= 2;
}

static bool server_saw_disconnect(void *arg)
{
	return ct_count(arg, CT_DISCONNECT) > 0;
}

static void server_starts_synchronously_and_stops_synchronously(void)
{
	REQUIRE(ct_server_setup(&srv, ct_name("sync"), 8));
	ct_log_start();
	CHECK_OK(doca_ctx_start(srv.ctx));
	/* The callback ran inside the call: IDLE -> RUNNING, no STARTING. */
	CHECK(srv.n == 1 && ct_find_state(&srv, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING) == 0);
	CHECK(ct_state(&srv) == DOCA_CTX_STATE_RUNNING);
	/* No client: nothing outstanding, so the stop completes in the call. */
	CHECK_OK(doca_ctx_stop(srv.ctx));
	CHECK(srv.n == 3);
	CHECK(ct_find_state(&srv, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING) == 1);
	CHECK(ct_find_state(&srv, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE) == 2);
	/* A second stop is a silent success. */
	CHECK_OK(doca_ctx_stop(srv.ctx));
	CHECK(srv.n == 3);
	CHECK_LOG_QUIET();
	/* And it starts again. */
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK(ct_state(&srv) == DOCA_CTX_STATE_RUNNING);
	ct_teardown(&srv, NULL);
}

static void client_starts_through_progress(void)
{
	const char *name = ct_name("async");
	int running_at;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	ct_log_start();
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_LOG_QUIET(); /* IN_PROGRESS is not a refusal */
	CHECK(cli.n == 1 && ct_find_state(&cli, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_STARTING) == 0);
	CHECK(ct_state(&cli) == DOCA_CTX_STATE_STARTING);
	CHECK(ct_run_until(&srv, &cli, ct_is_running, &cli, 5000));
	running_at = ct_find_state(&cli, DOCA_CTX_STATE_STARTING, DOCA_CTX_STATE_RUNNING);
	CHECK(running_at == 1);
	CHECK(ct_run_until(&srv, NULL, server_saw_connect, &srv, 5000));
	CHECK(srv.n >= 2 && srv.ev[1].kind == CT_CONNECT && srv.ev[1].change == 1 && srv.ev[1].conn_ud == 0);
	CHECK_OK(doca_comch_client_get_connection(cli.client, &cli.conn));
	CHECK(cli.conn != NULL);
	/* Both views of the connection point back to their endpoints. */
	CHECK(doca_comch_server_get_server_ctx(srv.conn) == srv.server);
	CHECK(doca_comch_client_get_client_ctx(srv.conn) == NULL);
	CHECK(doca_comch_client_get_client_ctx(cli.conn) == cli.client);
	CHECK(doca_comch_server_get_server_ctx(cli.conn) == NULL);
	ct_teardown_pair(&srv, &cli);
}

static void client_waits_in_starting_until_its_server_appears(void)
{
	const char *name = ct_name("late");
	uint64_t end;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(doca_ctx_start(cli.ctx) == DOCA_ERROR_IN_PROGRESS);
	for (end = ct_now_ms() + 60; ct_now_ms() < end; ct_nap())
		ct_progress(&cli);
	CHECK(ct_state(&cli) == DOCA_CTX_STATE_STARTING);
	CHECK(cli.n == 1);
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	CHECK(ct_run_until(&srv, &cli, ct_is_running, &cli, 5000));
	ct_teardown_pair(&srv, &cli);
}

static void clients_of_other_names_do_not_connect(void)
{
	REQUIRE(ct_server_setup(&srv, ct_name("mine"), 8));
	REQUIRE(ct_client_setup(&cli, ct_name("other"), 8));
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(cli.ctx) == DOCA_ERROR_IN_PROGRESS);
	CHECK(!ct_run_until(&srv, &cli, ct_is_running, &cli, 100));
	CHECK(ct_count(&srv, CT_CONNECT) == 0);
	ct_teardown_pair(&srv, &cli);
}

static void client_stop_while_starting_reaches_idle(void)
{
	doca_error_t err;

	REQUIRE(ct_client_setup(&cli, ct_name("abandon"), 8));
	REQUIRE(doca_ctx_start(cli.ctx) == DOCA_ERROR_IN_PROGRESS);
	err = doca_ctx_stop(cli.ctx);
	CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&cli, NULL, ct_is_idle, &cli, 5000));
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_STARTING, DOCA_CTX_STATE_STOPPING) == 1);
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE) == 2);
	ct_teardown(&cli, NULL);
}

static void start_needs_a_configuration_and_a_pe(void)
{
	struct doca_dev *dev = ct_open_dev(CT_DPU_PCI);
	struct doca_dev_rep *rep = dev ? ct_open_rep(dev, CT_HOST_PCI) : NULL;
	struct doca_comch_server *server = NULL;
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	REQUIRE(rep != NULL);
	REQUIRE(doca_comch_server_create(dev, rep, ct_name("bare"), &server) == DOCA_SUCCESS);
	ctx = doca_comch_server_as_ctx(server);
	CHECK_REJECT(doca_ctx_start(ctx), DOCA_ERROR_NOT_CONNECTED, "doca_ctx_start");
	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	REQUIRE(doca_pe_connect_ctx(pe, ctx) == DOCA_SUCCESS);
	/* Neither send tasks nor events: refused, still IDLE. */
	CHECK_REJECT(doca_ctx_start(ctx), DOCA_ERROR_INVALID_VALUE, "doca_ctx_start");
	CHECK_OK(doca_ctx_get_state(ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	/* A receive callback alone is enough. */
	CHECK_OK(doca_comch_server_event_msg_recv_register(server, ct_recv_cb));
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK_OK(doca_comch_server_destroy(server));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(dev));
}

static void a_second_server_of_the_same_name_is_refused(void)
{
	static struct ct_side other;
	const char *name = ct_name("twice");

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_server_setup(&other, name, 8));
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	CHECK_REJECT(doca_ctx_start(other.ctx), DOCA_ERROR_ALREADY_EXIST, "doca_ctx_start");
	CHECK(ct_state(&other) == DOCA_CTX_STATE_IDLE);
	/* Once the first one stopped, the name is free again. */
	CHECK_OK(doca_ctx_stop(srv.ctx));
	CHECK_OK(doca_ctx_start(other.ctx));
	ct_teardown(&other, NULL);
	ct_teardown(&srv, NULL);
}

static void client_stop_raises_the_server_disconnect_event(void)
{
	const char *name = ct_name("bye");
	int connect_at, disconnect_at;
	doca_error_t err;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	/* The connection is outstanding work: the client cannot stop at once. */
	err = doca_ctx_stop(cli.ctx);
	CHECK_ERR(err, DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_state(&cli) == DOCA_CTX_STATE_STOPPING);
	CHECK(ct_run_until(&cli, &srv, ct_is_idle, &cli, 5000));
	CHECK(ct_run_until(&srv, NULL, server_saw_disconnect, &srv, 5000));
	connect_at = ct_find(&srv, CT_CONNECT, 0);
	disconnect_at = ct_find(&srv, CT_DISCONNECT, 0);
	CHECK(connect_at >= 0 && disconnect_at > connect_at);
	if (disconnect_at > 0) {
		CHECK(srv.ev[disconnect_at].conn == srv.ev[connect_at].conn);
		CHECK(srv.ev[disconnect_at].change == 1);
	}
	/* The client is gone: the server stops synchronously again. */
	CHECK_OK(doca_ctx_stop(srv.ctx));
	CHECK(ct_state(&srv) == DOCA_CTX_STATE_IDLE);
	ct_teardown_pair(&srv, &cli);
}

static void server_stop_ends_its_clients(void)
{
	const char *name = ct_name("shutdown");
	struct doca_comch_connection *conn = NULL;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	CHECK_ERR(doca_ctx_stop(srv.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&srv, &cli, ct_is_idle, &srv, 5000));
	CHECK(ct_run_until(&cli, NULL, ct_is_idle, &cli, 5000));
	/* The server asked for it: its own disconnect callback stays quiet. */
	CHECK(ct_count(&srv, CT_DISCONNECT) == 0);
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING) >= 0);
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE) >= 0);
	CHECK_REJECT(doca_comch_client_get_connection(cli.client, &conn), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_get_connection");
	ct_teardown_pair(&srv, &cli);
}

static void server_disconnect_ends_one_client(void)
{
	const char *name = ct_name("kick");
	struct doca_comch_task_send *task = NULL;
	struct doca_comch_connection *victim;
	uint64_t junk[64] = {0};

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	victim = srv.conn;
	CHECK_REJECT(doca_comch_server_disconnect(srv.server, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_disconnect");
	CHECK_REJECT(doca_comch_server_disconnect(srv.server, (struct doca_comch_connection *)junk),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_disconnect");
	CHECK_REJECT(doca_comch_server_disconnect(srv.server, cli.conn), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_disconnect");
	ct_log_start();
	CHECK_OK(doca_comch_server_disconnect(srv.server, victim));
	CHECK_LOG_QUIET();
	/* The connection is gone for the server at once. */
	CHECK_REJECT(doca_comch_server_disconnect(srv.server, victim), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_disconnect");
	CHECK_REJECT(doca_comch_server_task_send_alloc_init(srv.server, victim, "x", 1, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_alloc_init");
	CHECK(ct_run_until(&cli, &srv, ct_is_idle, &cli, 5000));
	CHECK(ct_find_state(&cli, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING) >= 0);
	for (int i = 0; i < 100; i++)
		ct_progress(&srv);
	CHECK(ct_count(&srv, CT_DISCONNECT) == 0); /* the server's own disconnect raises no callback */
	CHECK(ct_state(&srv) == DOCA_CTX_STATE_RUNNING);
	/* The freed slot is reused by the next client. */
	srv.conn = NULL;
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&srv, &cli, ct_is_running, &cli, 5000));
	CHECK(ct_run_until(&srv, NULL, server_saw_two_connects, &srv, 5000));
	CHECK(ct_count(&srv, CT_CONNECT) == 2);
	/* Disconnect needs a RUNNING server. */
	ct_teardown(&cli, &srv);
	CHECK_OK(doca_ctx_stop(srv.ctx));
	CHECK_REJECT(doca_comch_server_disconnect(srv.server, victim), DOCA_ERROR_BAD_STATE,
		     "doca_comch_server_disconnect");
	ct_teardown(&srv, NULL);
}

static void two_clients_share_one_server(void)
{
	const char *name = ct_name("two");

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_client_setup(&cli2, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	REQUIRE(doca_ctx_start(cli2.ctx) == DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&srv, &cli2, ct_is_running, &cli2, 5000));
	for (uint64_t end = ct_now_ms() + 5000; ct_count(&srv, CT_CONNECT) < 2 && ct_now_ms() < end; ct_nap())
		ct_progress(&srv);
	CHECK(ct_count(&srv, CT_CONNECT) == 2);
	CHECK(srv.ev[ct_find(&srv, CT_CONNECT, 0)].conn != srv.conn);
	ct_teardown(&cli2, &srv);
	ct_teardown_pair(&srv, &cli);
}

static void client_restarts_after_idle(void)
{
	const char *name = ct_name("again");
	struct doca_comch_connection *first;
	union doca_data ud = {.u64 = 77};

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	first = cli.conn;
	CHECK_OK(doca_comch_connection_set_user_data(first, ud));
	(void)doca_ctx_stop(cli.ctx);
	REQUIRE(ct_run_until(&cli, &srv, ct_is_idle, &cli, 5000));
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&srv, &cli, ct_is_running, &cli, 5000));
	CHECK_OK(doca_comch_client_get_connection(cli.client, &cli.conn));
	/* A new link: user data starts at zero again. */
	CHECK(doca_comch_connection_get_user_data(cli.conn).u64 == 0);
	ct_teardown_pair(&srv, &cli);
}

/* The only entry of `dir` (its name in `out`); returns the number of entries. */
static int dir_entries(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(out, len, "%s/", dir) + strlen(e->d_name) < len)
			strcat(out, e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

static void filesystem_rendezvous_in_softdoca_comch_dir(void)
{
	char dir[] = "/tmp/sd_comch_XXXXXX";
	const char *name = ct_name("fs");
	struct sockaddr_un addr;
	struct stat st;
	int fd;

	REQUIRE(mkdtemp(dir) != NULL);
	REQUIRE(setenv("SOFTDOCA_COMCH_DIR", dir, 1) == 0);
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	/* One socket file while the server runs, none once it stopped. */
	CHECK(dir_entries(dir, addr.sun_path, sizeof(addr.sun_path)) == 1);
	CHECK(stat(addr.sun_path, &st) == 0 && S_ISSOCK(st.st_mode));
	ct_teardown(&cli, &srv);
	CHECK_OK(doca_ctx_stop(srv.ctx));
	CHECK(stat(addr.sun_path, &st) != 0);

	/* A socket file left behind by a dead server does not block a new one. */
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	REQUIRE(fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0);
	close(fd); /* bound, never listened: nobody will ever accept there */
	CHECK(stat(addr.sun_path, &st) == 0);
	CHECK_OK(doca_ctx_start(srv.ctx));
	REQUIRE(ct_client_setup(&cli, name, 8));
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&srv, &cli, ct_is_running, &cli, 5000));
	ct_teardown_pair(&srv, &cli);

	/* A directory too long for a socket path is refused at start. */
	{
		char longdir[200];

		memset(longdir, 'd', sizeof(longdir));
		longdir[0] = '/';
		longdir[sizeof(longdir) - 1] = '\0';
		REQUIRE(setenv("SOFTDOCA_COMCH_DIR", longdir, 1) == 0);
		REQUIRE(ct_server_setup(&srv, name, 8));
		CHECK_REJECT(doca_ctx_start(srv.ctx), DOCA_ERROR_INVALID_VALUE, "doca_ctx_start");
		ct_teardown(&srv, NULL);
	}
	unsetenv("SOFTDOCA_COMCH_DIR");
	CHECK(rmdir(dir) == 0);
}

int main(void)
{
	SD_RUN(server_starts_synchronously_and_stops_synchronously);
	SD_RUN(client_starts_through_progress);
	SD_RUN(client_waits_in_starting_until_its_server_appears);
	SD_RUN(clients_of_other_names_do_not_connect);
	SD_RUN(client_stop_while_starting_reaches_idle);
	SD_RUN(start_needs_a_configuration_and_a_pe);
	SD_RUN(a_second_server_of_the_same_name_is_refused);
	SD_RUN(client_stop_raises_the_server_disconnect_event);
	SD_RUN(server_stop_ends_its_clients);
	SD_RUN(server_disconnect_ends_one_client);
	SD_RUN(two_clients_share_one_server);
	SD_RUN(client_restarts_after_idle);
	/* SOFTDOCA_COMCH_DIR names Unix sockets; over TCP (SOFTDOCA_PEER) it does not apply. */
	if (getenv("SOFTDOCA_PEER") == NULL)
		SD_RUN(filesystem_rendezvous_in_softdoca_comch_dir);
	else
		printf("n/a  filesystem_rendezvous_in_softdoca_comch_dir (Comch runs over TCP)\n");
	return sd_test_done();
}
