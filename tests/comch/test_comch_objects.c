/*
 * test_comch_objects.c - creating, configuring and destroying Comch
 * servers and clients, and every refusal on the way : NULL and foreign
 * handles, the wrong side's device, a
 * representor of another device, names too long, settings outside IDLE or
 * out of range.  Each refused call leaves exactly one ERROR record naming
 * the function; each successful one leaves none.
 */
#include "comch_test.h"

static struct ct_side srv;

static void noop_consumer(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn, uint32_t id)
{
	(void)event;
	(void)conn;
	(void)id;
}

/* ---- creation ---- */

static void server_create_refuses_null_arguments(void)
{
	struct doca_dev *dev = ct_open_dev(CT_DPU_PCI);
	struct doca_dev_rep *rep = dev ? ct_open_rep(dev, CT_HOST_PCI) : NULL;
	struct doca_comch_server *server = NULL;

	REQUIRE(rep != NULL);
	CHECK_REJECT(doca_comch_server_create(NULL, rep, "n", &server), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK_REJECT(doca_comch_server_create(dev, NULL, "n", &server), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK_REJECT(doca_comch_server_create(dev, rep, NULL, &server), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK_REJECT(doca_comch_server_create(dev, rep, "n", NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK(server == NULL);
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(dev));
}

static void server_create_refuses_foreign_handles(void)
{
	struct doca_dev *dev = ct_open_dev(CT_DPU_PCI);
	struct doca_dev_rep *rep = dev ? ct_open_rep(dev, CT_HOST_PCI) : NULL;
	struct doca_comch_server *server = NULL;
	uint64_t junk[64] = {0};

	REQUIRE(rep != NULL);
	CHECK_REJECT(doca_comch_server_create((struct doca_dev *)junk, rep, "n", &server), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK_REJECT(doca_comch_server_create(dev, (struct doca_dev_rep *)junk, "n", &server),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_create");
	CHECK(server == NULL);
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(dev));
}

static void server_create_on_a_host_side_device_is_not_supported(void)
{
	struct doca_dev *dpu = ct_open_dev(CT_DPU_PCI);
	struct doca_dev *host = ct_open_dev(CT_HOST_PCI);
	struct doca_dev_rep *rep = dpu ? ct_open_rep(dpu, CT_HOST_PCI) : NULL;
	struct doca_comch_server *server = NULL;

	REQUIRE(rep != NULL && host != NULL);
	CHECK_REJECT(doca_comch_server_create(host, rep, "n", &server), DOCA_ERROR_NOT_SUPPORTED,
		     "doca_comch_server_create");
	CHECK(server == NULL);
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
}

static void client_create_refuses_null_foreign_and_dpu_devices(void)
{
	struct doca_dev *dpu = ct_open_dev(CT_DPU_PCI);
	struct doca_dev *host = ct_open_dev(CT_HOST_PCI);
	struct doca_comch_client *client = NULL;
	uint64_t junk[64] = {0};

	REQUIRE(dpu != NULL && host != NULL);
	CHECK_REJECT(doca_comch_client_create(NULL, "n", &client), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_create");
	CHECK_REJECT(doca_comch_client_create(host, NULL, &client), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_create");
	CHECK_REJECT(doca_comch_client_create(host, "n", NULL), DOCA_ERROR_INVALID_VALUE, "doca_comch_client_create");
	CHECK_REJECT(doca_comch_client_create((struct doca_dev *)junk, "n", &client), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_create");
	CHECK_REJECT(doca_comch_client_create(dpu, "n", &client), DOCA_ERROR_NOT_SUPPORTED,
		     "doca_comch_client_create");
	CHECK(client == NULL);
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
}

static void names_up_to_the_limit_are_accepted(void)
{
	struct doca_dev *dpu = ct_open_dev(CT_DPU_PCI);
	struct doca_dev *host = ct_open_dev(CT_HOST_PCI);
	struct doca_dev_rep *rep = dpu ? ct_open_rep(dpu, CT_HOST_PCI) : NULL;
	struct doca_comch_server *server = NULL;
	struct doca_comch_client *client = NULL;
	char name[200];

	REQUIRE(rep != NULL && host != NULL);
	memset(name, 'n', sizeof(name));
	name[119] = '\0'; /* 119 characters + NUL = the 120 of the capability */
	ct_log_start();
	CHECK_OK(doca_comch_server_create(dpu, rep, name, &server));
	CHECK_OK(doca_comch_client_create(host, name, &client));
	CHECK_LOG_QUIET();
	CHECK_OK(doca_comch_server_destroy(server));
	CHECK_OK(doca_comch_client_destroy(client));

	name[119] = 'n';
	name[120] = '\0'; /* one too many */
	server = NULL;
	client = NULL;
	CHECK_REJECT(doca_comch_server_create(dpu, rep, name, &server), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK_REJECT(doca_comch_client_create(host, name, &client), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_create");
	CHECK_REJECT(doca_comch_server_create(dpu, rep, "", &server), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_create");
	CHECK_REJECT(doca_comch_client_create(host, "", &client), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_create");
	CHECK(server == NULL && client == NULL);
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
}

static void the_samples_server_name_fits(void)
{
	struct doca_dev *host = ct_open_dev(CT_HOST_PCI);
	struct doca_comch_client *client = NULL;

	REQUIRE(host != NULL);
	CHECK_OK(doca_comch_client_create(host, "comch_ctrl_path_sample_server", &client));
	CHECK_OK(doca_comch_client_destroy(client));
	CHECK_OK(doca_dev_close(host));
}

/* ---- what a server holds on to ---- */

static void device_and_representor_stay_open_while_a_server_exists(void)
{
	struct doca_dev *dev = ct_open_dev(CT_DPU_PCI);
	struct doca_dev_rep *rep = dev ? ct_open_rep(dev, CT_HOST_PCI) : NULL;
	struct doca_comch_server *server = NULL;
	struct doca_dev *got_dev = NULL;
	struct doca_dev_rep *got_rep = NULL;

	REQUIRE(rep != NULL);
	REQUIRE(doca_comch_server_create(dev, rep, "held", &server) == DOCA_SUCCESS);
	CHECK_OK(doca_comch_server_get_device(server, &got_dev));
	CHECK_OK(doca_comch_server_get_device_rep(server, &got_rep));
	CHECK(got_dev == dev && got_rep == rep);
	CHECK_REJECT(doca_dev_rep_close(rep), DOCA_ERROR_IN_USE, "doca_dev_rep_close");
	CHECK_OK(doca_comch_server_destroy(server));
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(dev));
}

static void device_stays_open_while_a_client_exists(void)
{
	struct doca_dev *dev = ct_open_dev(CT_HOST_PCI);
	struct doca_comch_client *client = NULL;
	struct doca_dev *got = NULL;

	REQUIRE(dev != NULL);
	REQUIRE(doca_comch_client_create(dev, "held", &client) == DOCA_SUCCESS);
	CHECK_OK(doca_comch_client_get_device(client, &got));
	CHECK(got == dev);
	CHECK_REJECT(doca_dev_close(dev), DOCA_ERROR_IN_USE, "doca_dev_close");
	CHECK_OK(doca_comch_client_destroy(client));
	CHECK_OK(doca_dev_close(dev));
}

/* ---- IDLE settings ---- */

static void server_settings_have_defaults_and_ranges(void)
{
	uint32_t v = 0;

	REQUIRE(ct_server_setup(&srv, ct_name("settings"), 16));
	CHECK(doca_comch_server_as_ctx(srv.server) == srv.ctx);
	CHECK_OK(doca_comch_server_get_max_msg_size(srv.server, &v));
	CHECK_EQ_U64(v, 4080);
	CHECK_OK(doca_comch_server_get_recv_queue_size(srv.server, &v));
	CHECK_EQ_U64(v, 64);

	ct_log_start();
	CHECK_OK(doca_comch_server_set_max_msg_size(srv.server, 1));
	CHECK_OK(doca_comch_server_set_max_msg_size(srv.server, 4080));
	CHECK_OK(doca_comch_server_set_recv_queue_size(srv.server, 1));
	CHECK_OK(doca_comch_server_set_recv_queue_size(srv.server, 1024));
	CHECK_LOG_QUIET();
	CHECK_REJECT(doca_comch_server_set_max_msg_size(srv.server, 0), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_max_msg_size");
	CHECK_REJECT(doca_comch_server_set_max_msg_size(srv.server, 4081), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_max_msg_size");
	CHECK_REJECT(doca_comch_server_set_recv_queue_size(srv.server, 0), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_recv_queue_size");
	CHECK_REJECT(doca_comch_server_set_recv_queue_size(srv.server, 1025), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_recv_queue_size");
	CHECK_OK(doca_comch_server_get_max_msg_size(srv.server, &v));
	CHECK_EQ_U64(v, 4080);
	CHECK_OK(doca_comch_server_get_recv_queue_size(srv.server, &v));
	CHECK_EQ_U64(v, 1024);

	CHECK_REJECT(doca_comch_server_get_max_msg_size(srv.server, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_max_msg_size");
	CHECK_REJECT(doca_comch_server_get_recv_queue_size(srv.server, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_recv_queue_size");
	CHECK_REJECT(doca_comch_server_get_device(srv.server, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_device");
	CHECK_REJECT(doca_comch_server_get_device_rep(srv.server, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_device_rep");
	CHECK_REJECT(doca_comch_server_task_send_set_conf(srv.server, NULL, ct_send_err, 8), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_task_send_set_conf");
	CHECK_REJECT(doca_comch_server_task_send_set_conf(srv.server, ct_send_ok, NULL, 8), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_task_send_set_conf");
	CHECK_REJECT(doca_comch_server_task_send_set_conf(srv.server, ct_send_ok, ct_send_err, 0),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_set_conf");
	CHECK_REJECT(doca_comch_server_task_send_set_conf(srv.server, ct_send_ok, ct_send_err, 8193),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_set_conf");
	ct_log_start();
	CHECK_OK(doca_comch_server_task_send_set_conf(srv.server, ct_send_ok, ct_send_err, 8192));
	CHECK_LOG_QUIET();
	CHECK_REJECT(doca_comch_server_event_msg_recv_register(srv.server, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_event_msg_recv_register");
	CHECK_REJECT(doca_comch_server_event_connection_status_changed_register(srv.server, NULL, ct_disconnect_cb),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_event_connection_status_changed_register");
	CHECK_REJECT(doca_comch_server_event_connection_status_changed_register(srv.server, ct_connect_cb, NULL),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_event_connection_status_changed_register");
	CHECK_REJECT(doca_comch_server_event_consumer_register(srv.server, NULL, noop_consumer),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_event_consumer_register");
	CHECK_REJECT(doca_comch_server_event_consumer_register(srv.server, noop_consumer, NULL),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_event_consumer_register");
	ct_log_start();
	CHECK_OK(doca_comch_server_event_consumer_register(srv.server, noop_consumer, noop_consumer));
	CHECK_LOG_QUIET();
	ct_teardown(&srv, NULL);
}

static void settings_are_refused_outside_idle(void)
{
	REQUIRE(ct_server_setup(&srv, ct_name("running"), 16));
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	CHECK_REJECT(doca_comch_server_set_max_msg_size(srv.server, 100), DOCA_ERROR_BAD_STATE,
		     "doca_comch_server_set_max_msg_size");
	CHECK_REJECT(doca_comch_server_set_recv_queue_size(srv.server, 10), DOCA_ERROR_BAD_STATE,
		     "doca_comch_server_set_recv_queue_size");
	CHECK_REJECT(doca_comch_server_task_send_set_conf(srv.server, ct_send_ok, ct_send_err, 8), DOCA_ERROR_BAD_STATE,
		     "doca_comch_server_task_send_set_conf");
	CHECK_REJECT(doca_comch_server_event_msg_recv_register(srv.server, ct_recv_cb), DOCA_ERROR_BAD_STATE,
		     "doca_comch_server_event_msg_recv_register");
	CHECK_REJECT(doca_comch_server_event_connection_status_changed_register(srv.server, ct_connect_cb,
										ct_disconnect_cb),
		     DOCA_ERROR_BAD_STATE, "doca_comch_server_event_connection_status_changed_register");
	CHECK_REJECT(doca_comch_server_event_consumer_register(srv.server, noop_consumer, noop_consumer),
		     DOCA_ERROR_BAD_STATE, "doca_comch_server_event_consumer_register");
	/* Getters answer in every state. */
	{
		uint32_t v = 0;

		ct_log_start();
		CHECK_OK(doca_comch_server_get_max_msg_size(srv.server, &v));
		CHECK_OK(doca_comch_server_get_recv_queue_size(srv.server, &v));
		CHECK_LOG_QUIET();
	}
	/* Not IDLE, so not destroyed, and still usable afterwards. */
	CHECK_REJECT(doca_comch_server_destroy(srv.server), DOCA_ERROR_BAD_STATE, "doca_comch_server_destroy");
	CHECK(ct_state(&srv) == DOCA_CTX_STATE_RUNNING);
	ct_teardown(&srv, NULL);
}

static void client_settings_mirror_the_server(void)
{
	static struct ct_side cli;
	struct doca_comch_connection *conn = NULL;
	uint32_t v = 0;

	REQUIRE(ct_client_setup(&cli, ct_name("client-settings"), 16));
	CHECK(doca_comch_client_as_ctx(cli.client) == cli.ctx);
	CHECK_OK(doca_comch_client_get_max_msg_size(cli.client, &v));
	CHECK_EQ_U64(v, 4080);
	CHECK_OK(doca_comch_client_get_recv_queue_size(cli.client, &v));
	CHECK_EQ_U64(v, 64);
	CHECK_REJECT(doca_comch_client_set_max_msg_size(cli.client, 0), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_set_max_msg_size");
	CHECK_REJECT(doca_comch_client_set_max_msg_size(cli.client, 4081), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_set_max_msg_size");
	CHECK_REJECT(doca_comch_client_set_recv_queue_size(cli.client, 0), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_set_recv_queue_size");
	CHECK_REJECT(doca_comch_client_set_recv_queue_size(cli.client, 1025), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_set_recv_queue_size");
	CHECK_REJECT(doca_comch_client_get_max_msg_size(cli.client, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_get_max_msg_size");
	CHECK_REJECT(doca_comch_client_get_recv_queue_size(cli.client, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_get_recv_queue_size");
	CHECK_REJECT(doca_comch_client_get_device(cli.client, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_get_device");
	CHECK_REJECT(doca_comch_client_task_send_set_conf(cli.client, ct_send_ok, ct_send_err, 0),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_set_conf");
	CHECK_REJECT(doca_comch_client_task_send_set_conf(cli.client, NULL, ct_send_err, 4), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_task_send_set_conf");
	CHECK_REJECT(doca_comch_client_event_msg_recv_register(cli.client, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_event_msg_recv_register");
	CHECK_REJECT(doca_comch_client_event_consumer_register(cli.client, noop_consumer, NULL),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_event_consumer_register");
	ct_log_start();
	CHECK_OK(doca_comch_client_set_max_msg_size(cli.client, 200));
	CHECK_OK(doca_comch_client_set_recv_queue_size(cli.client, 10));
	CHECK_OK(doca_comch_client_event_consumer_register(cli.client, noop_consumer, noop_consumer));
	CHECK_LOG_QUIET();
	CHECK_OK(doca_comch_client_get_max_msg_size(cli.client, &v));
	CHECK_EQ_U64(v, 200);
	CHECK_OK(doca_comch_client_get_recv_queue_size(cli.client, &v));
	CHECK_EQ_U64(v, 10);

	/* No connection before RUNNING. */
	CHECK_REJECT(doca_comch_client_get_connection(cli.client, &conn), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_get_connection");
	CHECK_REJECT(doca_comch_client_get_connection(cli.client, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_get_connection");
	/* STARTING (no server of that name): still no connection, settings refused. */
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(ct_state(&cli) == DOCA_CTX_STATE_STARTING);
	CHECK_REJECT(doca_comch_client_get_connection(cli.client, &conn), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_get_connection");
	CHECK_REJECT(doca_comch_client_set_max_msg_size(cli.client, 100), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_set_max_msg_size");
	CHECK_REJECT(doca_comch_client_set_recv_queue_size(cli.client, 100), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_set_recv_queue_size");
	CHECK_REJECT(doca_comch_client_task_send_set_conf(cli.client, ct_send_ok, ct_send_err, 4), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_task_send_set_conf");
	CHECK_REJECT(doca_comch_client_event_msg_recv_register(cli.client, ct_recv_cb), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_event_msg_recv_register");
	CHECK_REJECT(doca_comch_client_event_consumer_register(cli.client, noop_consumer, noop_consumer),
		     DOCA_ERROR_BAD_STATE, "doca_comch_client_event_consumer_register");
	CHECK_REJECT(doca_comch_client_destroy(cli.client), DOCA_ERROR_BAD_STATE, "doca_comch_client_destroy");
	CHECK(conn == NULL);
	ct_teardown(&cli, NULL);
}

/* ---- foreign and NULL handles everywhere ---- */

static void null_and_foreign_instances_are_refused(void)
{
	uint64_t junk[512] = {0};
	struct doca_comch_server *fs = (struct doca_comch_server *)junk;
	struct doca_comch_client *fc = (struct doca_comch_client *)junk;
	struct doca_comch_connection *fconn = (struct doca_comch_connection *)junk;
	struct doca_comch_task_send *task = NULL;
	uint32_t v = 0;
	uint64_t counter = 0;
	union doca_data ud = {.u64 = 5};

	CHECK_REJECT(doca_comch_server_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_comch_server_destroy");
	CHECK_REJECT(doca_comch_server_destroy(fs), DOCA_ERROR_INVALID_VALUE, "doca_comch_server_destroy");
	CHECK_REJECT(doca_comch_client_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_comch_client_destroy");
	CHECK_REJECT(doca_comch_client_destroy(fc), DOCA_ERROR_INVALID_VALUE, "doca_comch_client_destroy");
	CHECK_REJECT(doca_comch_server_set_max_msg_size(NULL, 10), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_max_msg_size");
	CHECK_REJECT(doca_comch_client_set_max_msg_size(fc, 10), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_set_max_msg_size");
	CHECK_REJECT(doca_comch_server_get_max_msg_size(NULL, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_max_msg_size");
	CHECK_REJECT(doca_comch_client_get_max_msg_size(NULL, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_get_max_msg_size");
	CHECK_REJECT(doca_comch_server_set_recv_queue_size(fs, 10), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_set_recv_queue_size");
	CHECK_REJECT(doca_comch_client_set_recv_queue_size(NULL, 10), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_set_recv_queue_size");
	CHECK_REJECT(doca_comch_server_get_recv_queue_size(fs, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_recv_queue_size");
	CHECK_REJECT(doca_comch_client_get_recv_queue_size(fc, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_get_recv_queue_size");
	CHECK_REJECT(doca_comch_server_get_device(NULL, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_device");
	CHECK_REJECT(doca_comch_server_get_device_rep(fs, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_get_device_rep");
	CHECK_REJECT(doca_comch_client_get_device(fc, NULL), DOCA_ERROR_INVALID_VALUE, "doca_comch_client_get_device");
	CHECK_REJECT(doca_comch_server_disconnect(NULL, fconn), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_disconnect");
	CHECK_REJECT(doca_comch_client_get_connection(fc, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_get_connection");
	CHECK_REJECT(doca_comch_server_task_send_set_conf(NULL, ct_send_ok, ct_send_err, 1), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_task_send_set_conf");
	CHECK_REJECT(doca_comch_client_task_send_set_conf(fc, ct_send_ok, ct_send_err, 1), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_task_send_set_conf");
	CHECK_REJECT(doca_comch_server_task_send_alloc_init(fs, fconn, "x", 1, &task), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_task_send_alloc_init");
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(NULL, fconn, "x", 1, &task), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_task_send_alloc_init");
	CHECK_REJECT(doca_comch_server_event_msg_recv_register(NULL, ct_recv_cb), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_event_msg_recv_register");
	CHECK_REJECT(doca_comch_client_event_msg_recv_register(fc, ct_recv_cb), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_event_msg_recv_register");
	CHECK_REJECT(doca_comch_server_event_connection_status_changed_register(fs, ct_connect_cb, ct_disconnect_cb),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_event_connection_status_changed_register");
	CHECK_REJECT(doca_comch_server_event_consumer_register(NULL, noop_consumer, noop_consumer),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_event_consumer_register");
	CHECK_REJECT(doca_comch_client_event_consumer_register(fc, noop_consumer, noop_consumer),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_event_consumer_register");
	CHECK_REJECT(doca_comch_connection_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_connection_set_user_data");
	CHECK_REJECT(doca_comch_connection_set_user_data(fconn, ud), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_connection_set_user_data");
	CHECK_REJECT(doca_comch_connection_update_info(NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_connection_update_info");
	CHECK_REJECT(doca_comch_connection_get_counter(fconn, DOCA_COMCH_COUNTER_SENT_BYTES, &counter),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_connection_get_counter");
	CHECK(task == NULL && v == 0 && counter == 0);

	/* Pointer-returning calls answer NULL / zero and say why. */
	ct_log_start();
	CHECK(doca_comch_server_as_ctx(NULL) == NULL);
	CHECK_LOG_ONE_ERR("doca_comch_server_as_ctx");
	CHECK(doca_comch_client_as_ctx(fc) == NULL);
	CHECK_LOG_ONE_ERR("doca_comch_client_as_ctx");
	CHECK(doca_comch_server_get_server_ctx(NULL) == NULL);
	CHECK_LOG_ONE_ERR("doca_comch_server_get_server_ctx");
	CHECK(doca_comch_client_get_client_ctx(fconn) == NULL);
	CHECK_LOG_ONE_ERR("doca_comch_client_get_client_ctx");
	CHECK(doca_comch_connection_get_user_data(NULL).u64 == 0);
	CHECK_LOG_ONE_ERR("doca_comch_connection_get_user_data");
	CHECK(doca_comch_task_send_as_task(NULL) == NULL);
	CHECK_LOG_ONE_ERR("doca_comch_task_send_as_task");
}

static void a_client_is_not_a_server(void)
{
	static struct ct_side cli;

	REQUIRE(ct_client_setup(&cli, ct_name("typed"), 4));
	CHECK_REJECT(doca_comch_server_set_max_msg_size((struct doca_comch_server *)cli.client, 10),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_set_max_msg_size");
	CHECK_REJECT(doca_comch_server_destroy((struct doca_comch_server *)cli.client), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_server_destroy");
	ct_teardown(&cli, NULL);
}

int main(void)
{
	SD_RUN(server_create_refuses_null_arguments);
	SD_RUN(server_create_refuses_foreign_handles);
	SD_RUN(server_create_on_a_host_side_device_is_not_supported);
	SD_RUN(client_create_refuses_null_foreign_and_dpu_devices);
	SD_RUN(names_up_to_the_limit_are_accepted);
	SD_RUN(the_samples_server_name_fits);
	SD_RUN(device_and_representor_stay_open_while_a_server_exists);
	SD_RUN(device_stays_open_while_a_client_exists);
	SD_RUN(server_settings_have_defaults_and_ranges);
	SD_RUN(settings_are_refused_outside_idle);
	SD_RUN(client_settings_mirror_the_server);
	SD_RUN(null_and_foreign_instances_are_refused);
	SD_RUN(a_client_is_not_a_server);
	return sd_test_done();
}
