/*
 * test_comch_topology.c - Comch on other topologies (SOFTDOCA_TOPOLOGY):
 * limits overridden per device, a server limited to
 * one client, a representor of another device, the same server name on two
 * representors, and a ConnectX-7 host device without a Comch role.  The
 * topology is read once per process, so each case runs in a forked child.
 */
#include "comch_test.h"

static struct ct_side srv, cli, cli2;

static const char two_bluefields[] = "[device 0000:03:00.0]\n"
				     "side = dpu\n"
				     "[rep 0000:b1:00.0]\n"
				     "[rep 0000:b1:00.1]\n"
				     "[device 0000:04:00.0]\n"
				     "side = dpu\n"
				     "[rep 0000:b2:00.0]\n"
				     "[device 0000:b1:00.0]\n"
				     "side = host\n"
				     "[device 0000:b1:00.1]\n"
				     "side = host\n"
				     "[device 0000:b2:00.0]\n"
				     "side = host\n";

static const char one_client_only[] = "[device 0000:03:00.0]\n"
				      "side = dpu\n"
				      "comch_max_clients = 1\n"
				      "[rep 0000:b1:00.0]\n"
				      "[device 0000:b1:00.0]\n"
				      "side = host\n";

static const char small_limits[] = "[device 0000:03:00.0]\n"
				   "side = dpu\n"
				   "comch_max_msg_size = 100\n"
				   "comch_max_send_tasks = 2\n"
				   "comch_max_recv_queue = 4\n"
				   "comch_max_name_len = 10\n"
				   "[rep 0000:b1:00.0]\n"
				   "[device 0000:b1:00.0]\n"
				   "side = host\n"
				   "comch_max_msg_size = 100\n";

static const char connectx7[] = "[device 0000:b1:00.0]\n"
				"side = host\n"
				"profile = cx7\n";

/* Run `check` in a child whose topology is `text`. */
static void in_topology(const char *text, void (*check)(void))
{
	char path[] = "/tmp/sd_comch_topo_XXXXXX";
	int fd = mkstemp(path);
	int status = 0;
	pid_t pid;

	REQUIRE(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	fflush(NULL);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		setenv("SOFTDOCA_TOPOLOGY", path, 1);
		check();
		fflush(NULL);
		_exit(sd_test_case_failed ? 1 : 0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	unlink(path);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void check_rep_of_another_device(void)
{
	struct doca_dev *a = ct_open_dev("03:00.0");
	struct doca_dev *b = ct_open_dev("04:00.0");
	struct doca_dev_rep *rep_b = b ? ct_open_rep(b, "b2:00.0") : NULL;
	struct doca_comch_server *server = NULL;

	REQUIRE(a != NULL && rep_b != NULL);
	CHECK_REJECT(doca_comch_server_create(a, rep_b, "x", &server), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK(server == NULL);
	CHECK_OK(doca_dev_rep_close(rep_b));
	CHECK_OK(doca_dev_close(b));
	CHECK_OK(doca_dev_close(a));
}

static void a_representor_of_another_device_is_refused(void)
{
	in_topology(two_bluefields, check_rep_of_another_device);
}

static bool saw_connect(void *arg)
{
	return ct_count(arg, CT_CONNECT) > 0;
}

static void check_same_name_on_two_representors(void)
{
	static struct ct_side srv2;
	const char *name = ct_name("shared");

	/* Server 1 for host function b1:00.0 (the default of ct_server_setup). */
	REQUIRE(ct_server_setup(&srv, name, 8));
	/* Server 2, same device and name, for host function b1:00.1. */
	memset(&srv2, 0, sizeof(srv2));
	srv2.dev = ct_open_dev(CT_DPU_PCI);
	srv2.rep = srv2.dev ? ct_open_rep(srv2.dev, "b1:00.1") : NULL;
	REQUIRE(srv2.rep != NULL);
	REQUIRE(doca_comch_server_create(srv2.dev, srv2.rep, name, &srv2.server) == DOCA_SUCCESS);
	srv2.ctx = doca_comch_server_as_ctx(srv2.server);
	REQUIRE(ct_configure(&srv2, 8));
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK_OK(doca_ctx_start(srv2.ctx));
	/* A client on b1:00.1 reaches server 2 only. */
	memset(&cli, 0, sizeof(cli));
	cli.dev = ct_open_dev("b1:00.1");
	REQUIRE(cli.dev != NULL && doca_comch_client_create(cli.dev, name, &cli.client) == DOCA_SUCCESS);
	cli.ctx = doca_comch_client_as_ctx(cli.client);
	REQUIRE(ct_configure(&cli, 8));
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_run_until(&srv2, &cli, saw_connect, &srv2, 5000));
	for (int i = 0; i < 200; i++)
		ct_progress(&srv);
	CHECK(ct_count(&srv, CT_CONNECT) == 0);
	ct_teardown(&cli, &srv2);
	ct_teardown(&srv2, NULL);
	ct_teardown(&srv, NULL);
}

static void one_name_on_two_representors_does_not_clash(void)
{
	in_topology(two_bluefields, check_same_name_on_two_representors);
}

static void check_one_client_only(void)
{
	const char *name = ct_name("single");
	uint64_t end;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_client_setup(&cli2, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	REQUIRE(doca_ctx_start(cli2.ctx) == DOCA_ERROR_IN_PROGRESS);
	/* The server is full: the second client keeps looking. */
	for (end = ct_now_ms() + 100; ct_now_ms() < end; ct_nap()) {
		ct_progress(&srv);
		ct_progress(&cli2);
	}
	CHECK(ct_state(&cli2) == DOCA_CTX_STATE_STARTING);
	CHECK(ct_count(&srv, CT_CONNECT) == 1);
	/* The first leaves; the second gets in. */
	ct_teardown(&cli, &srv);
	CHECK(ct_run_until(&srv, &cli2, ct_is_running, &cli2, 5000));
	ct_teardown(&cli2, &srv);
	ct_teardown(&srv, NULL);
}

static void a_full_server_keeps_further_clients_starting(void)
{
	in_topology(one_client_only, check_one_client_only);
}

static void check_small_limits(void)
{
	struct doca_dev *dpu = ct_open_dev(CT_DPU_PCI);
	uint32_t v = 0;
	struct doca_comch_task_send *task = NULL;
	static uint8_t buf[128];

	REQUIRE(dpu != NULL);
	CHECK_OK(doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(dpu), &v));
	CHECK_EQ_U64(v, 100);
	CHECK_OK(doca_comch_cap_get_max_send_tasks(doca_dev_as_devinfo(dpu), &v));
	CHECK_EQ_U64(v, 2);
	CHECK_OK(doca_comch_cap_get_max_recv_queue_size(doca_dev_as_devinfo(dpu), &v));
	CHECK_EQ_U64(v, 4);
	CHECK_OK(doca_comch_cap_get_max_name_len(doca_dev_as_devinfo(dpu), &v));
	CHECK_EQ_U64(v, 10);
	CHECK_OK(doca_dev_close(dpu));

	/* A 10-character name does not fit in 10 with its NUL; 9 does. */
	REQUIRE(!ct_server_setup(&srv, "abcdefghij", 2));
	ct_teardown(&srv, NULL);
	REQUIRE(ct_server_setup(&srv, "abcdefghi", 2));
	CHECK_OK(doca_comch_server_get_max_msg_size(srv.server, &v));
	CHECK_EQ_U64(v, 100);
	CHECK_OK(doca_comch_server_get_recv_queue_size(srv.server, &v));
	CHECK_EQ_U64(v, 4); /* the default 64 is capped by the device */
	CHECK_REJECT(doca_comch_server_set_max_msg_size(srv.server, 101), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_max_msg_size");
	CHECK_REJECT(doca_comch_server_set_recv_queue_size(srv.server, 5), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_recv_queue_size");
	CHECK_REJECT(doca_comch_server_task_send_set_conf(srv.server, ct_send_ok, ct_send_err, 3),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_set_conf");
	REQUIRE(ct_client_setup(&cli, "abcdefghi", 2));
	REQUIRE(ct_connect_pair(&srv, &cli));
	CHECK_OK(ct_send(&cli, cli.conn, 1, 100));
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, buf, 101, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_alloc_init");
	ct_teardown_pair(&srv, &cli);
}

static void limits_come_from_the_topology(void)
{
	in_topology(small_limits, check_small_limits);
}

static void check_connectx7(void)
{
	struct doca_dev *dev = ct_open_dev(CT_HOST_PCI);
	struct doca_comch_client *client = NULL;

	REQUIRE(dev != NULL);
	ct_log_start();
	CHECK_ERR(doca_comch_cap_client_is_supported(doca_dev_as_devinfo(dev)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_cap_server_is_supported(doca_dev_as_devinfo(dev)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_QUIET();
	CHECK_REJECT(doca_comch_client_create(dev, "x", &client), DOCA_ERROR_NOT_SUPPORTED,
		     "doca_comch_client_create");
	CHECK_OK(doca_dev_close(dev));
}

static void a_connectx7_has_no_comch_role(void)
{
	in_topology(connectx7, check_connectx7);
}

int main(void)
{
	SD_RUN(a_representor_of_another_device_is_refused);
	/* Over TCP one server per network namespace listens on the port: two cannot run at once. */
	if (getenv("SOFTDOCA_PEER") == NULL)
		SD_RUN(one_name_on_two_representors_does_not_clash);
	else
		printf("n/a  one_name_on_two_representors_does_not_clash (one TCP server per namespace)\n");
	SD_RUN(a_full_server_keeps_further_clients_starting);
	SD_RUN(limits_come_from_the_topology);
	SD_RUN(a_connectx7_has_no_comch_role);
	return sd_test_done();
}
