/*
 * test_comch_messages.c - messages over an established connection:
 *  - bytes, lengths and boundaries arrive intact, both ways, in order;
 *  - 4080 bytes is the largest message, a larger one is refused at alloc;
 *  - the two ends' ceilings: the smaller one governs a connection;
 *  - the send completion is reported before the reply it caused, one
 *    callback per progress call, the connect event never together with a
 *    message;
 *  - connection user data, counters, task and context user data;
 *  - pool exhaustion is exactly DOCA_ERROR_NO_MEMORY; every alloc refusal;
 *  - a receiver that does not progress loses nothing and fails no send;
 *  - a message sent just before a stop still reaches the peer.
 */
#include "comch_test.h"

static struct ct_side srv, cli;

static bool pair_up(const char *tag, uint32_t tasks)
{
	const char *name = ct_name(tag);

	return ct_server_setup(&srv, name, tasks) && ct_client_setup(&cli, name, tasks) && ct_connect_pair(&srv, &cli);
}

static bool wait_events(struct ct_side *side, enum ct_kind kind, int count)
{
	return ct_wait_events(&srv, &cli, side, kind, count);
}

static void messages_travel_both_ways_intact(void)
{
	union doca_data ud = {.u64 = 0x5eed};
	uint8_t expect[300];

	REQUIRE(pair_up("intact", 16));
	CHECK_OK(doca_comch_connection_set_user_data(srv.conn, ud));
	CHECK(doca_comch_connection_get_user_data(srv.conn).u64 == 0x5eed);
	CHECK_OK(ct_send(&cli, cli.conn, 7, 300));
	REQUIRE(wait_events(&srv, CT_RECV, 1));
	memset(expect, 7, sizeof(expect));
	memcpy(expect, &(uint32_t){7}, 4);
	CHECK(srv.last_len == 300 && memcmp(srv.last_msg, expect, 300) == 0);
	{
		struct ct_event *e = &srv.ev[ct_find(&srv, CT_RECV, 0)];

		CHECK(e->conn == srv.conn && e->conn_ud == 0x5eed && e->len == 300 && e->seq == 7);
	}
	CHECK_OK(ct_send(&srv, srv.conn, 9, 1));
	REQUIRE(wait_events(&cli, CT_RECV, 1));
	CHECK(cli.last_len == 1 && cli.last_msg[0] == 9);
	CHECK(cli.ev[ct_find(&cli, CT_RECV, 0)].conn == cli.conn);
	/* Both senders saw their success callback with the task's user data. */
	REQUIRE(wait_events(&cli, CT_SEND_OK, 1));
	REQUIRE(wait_events(&srv, CT_SEND_OK, 1));
	CHECK(cli.ev[ct_find(&cli, CT_SEND_OK, 0)].task_ud == 7);
	CHECK(srv.ev[ct_find(&srv, CT_SEND_OK, 0)].task_ud == 9);
	CHECK(cli.ev[ct_find(&cli, CT_SEND_OK, 0)].status == DOCA_SUCCESS);
	ct_teardown_pair(&srv, &cli);
}

/*
 * The kernel writes received messages into the library's receive buffer.
 * Registering a buffer for PCI export write-protects its whole pages for a
 * moment (docs/mmap-registration.md), and a receive into such a page fails
 * and drops the message; so no memory the program allocates may share a
 * page with the receive buffer.  The program leaves holes of the receive
 * buffer's size in its heap first, where malloc would place that buffer
 * between two of the program's own.
 */
static bool shares_a_page(const void *p, size_t len, uintptr_t lo, uintptr_t hi)
{
	uintptr_t a = (uintptr_t)p;

	return a < hi && a + len > lo;
}

static void the_receive_buffer_shares_no_page_with_program_memory(void)
{
	enum { BUFS = 64, LEN = 4080 };
	static void *mine[BUFS];
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo, hi;
	const struct ct_event *e;
	int shared = 0;

	for (int i = 0; i < BUFS; i++)
		mine[i] = malloc(LEN);
	for (int i = 0; i < BUFS; i += 2) {
		free(mine[i]);
		mine[i] = NULL;
	}
	REQUIRE(pair_up("pages", 16));
	CHECK_OK(ct_send(&cli, cli.conn, 5, 300));
	REQUIRE(wait_events(&srv, CT_RECV, 1));
	e = &srv.ev[ct_find(&srv, CT_RECV, 0)];
	REQUIRE(e->buf != NULL);
	lo = (uintptr_t)e->buf & ~(page - 1);
	hi = ((uintptr_t)e->buf + LEN + page - 1) & ~(page - 1);
	for (int i = 0; i < BUFS; i++)
		if (mine[i] != NULL && shares_a_page(mine[i], LEN, lo, hi))
			shared++;
	CHECK_EQ_U64((uint64_t)shared, 0);
	ct_teardown_pair(&srv, &cli);
	for (int i = 0; i < BUFS; i++)
		free(mine[i]);
}

static void order_is_kept_in_each_direction(void)
{
	const int n = 500;
	bool in_order = true;

	REQUIRE(pair_up("order", 1024));
	for (int i = 0; i < n; i++) {
		CHECK_OK(ct_send(&cli, cli.conn, (uint32_t)i, 16 + (uint32_t)(i % 100)));
		CHECK_OK(ct_send(&srv, srv.conn, (uint32_t)(1000 + i), 4 + (uint32_t)(i % 50)));
	}
	REQUIRE(wait_events(&srv, CT_RECV, n));
	REQUIRE(wait_events(&cli, CT_RECV, n));
	for (int i = 0, k = 0; i < srv.n; i++) {
		if (srv.ev[i].kind != CT_RECV)
			continue;
		in_order = in_order && srv.ev[i].seq == (uint32_t)k && srv.ev[i].len == 16 + (uint32_t)(k % 100);
		k++;
	}
	for (int i = 0, k = 0; i < cli.n; i++) {
		if (cli.ev[i].kind != CT_RECV)
			continue;
		in_order = in_order && cli.ev[i].seq == (uint32_t)(1000 + k) && cli.ev[i].len == 4 + (uint32_t)(k % 50);
		k++;
	}
	CHECK(in_order);
	CHECK(wait_events(&cli, CT_SEND_OK, n) && wait_events(&srv, CT_SEND_OK, n));
	CHECK(ct_count(&cli, CT_SEND_ERR) == 0 && ct_count(&srv, CT_SEND_ERR) == 0);
	ct_teardown_pair(&srv, &cli);
}

static void the_largest_message_is_4080_bytes(void)
{
	static uint8_t big[4096];
	struct doca_comch_task_send *task = NULL;

	REQUIRE(pair_up("max", 8));
	ct_log_start();
	CHECK_OK(ct_send(&cli, cli.conn, 1, 4080));
	CHECK_OK(ct_send(&srv, srv.conn, 2, 4080));
	CHECK_LOG_QUIET();
	REQUIRE(wait_events(&srv, CT_RECV, 1) && wait_events(&cli, CT_RECV, 1));
	CHECK(srv.last_len == 4080 && cli.last_len == 4080);
	CHECK(srv.last_msg[4079] == 1 && cli.last_msg[4079] == 2);
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, big, 4081, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_alloc_init");
	CHECK_REJECT(doca_comch_server_task_send_alloc_init(srv.server, srv.conn, big, 4081, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_alloc_init");
	CHECK(task == NULL);
	ct_teardown_pair(&srv, &cli);
}

static void the_smaller_ceiling_governs_a_connection(void)
{
	const char *name = ct_name("ceiling");
	static uint8_t buf[200];
	struct doca_comch_task_send *task = NULL;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(doca_comch_client_set_max_msg_size(cli.client, 100) == DOCA_SUCCESS);
	REQUIRE(ct_connect_pair(&srv, &cli));
	CHECK_OK(ct_send(&srv, srv.conn, 1, 100));
	CHECK_OK(ct_send(&cli, cli.conn, 2, 100));
	CHECK_REJECT(doca_comch_server_task_send_alloc_init(srv.server, srv.conn, buf, 101, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_alloc_init");
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, buf, 101, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_alloc_init");
	CHECK(wait_events(&cli, CT_RECV, 1) && wait_events(&srv, CT_RECV, 1));
	CHECK(cli.last_len == 100 && srv.last_len == 100);
	ct_teardown_pair(&srv, &cli);
}

/* ---- ordering across the two PEs ---- */

/* Server: echo every message back from inside the receive callback. */
static void echo_hook(struct ct_side *s, const struct ct_event *ev)
{
	if (ev->kind == CT_RECV)
		CHECK_OK(ct_send(s, ev->conn, ev->seq + 1000, ev->len));
}

/* Client: send the first message from inside the RUNNING callback, like the control-path sample. */
static void send_when_running_hook(struct ct_side *s, const struct ct_event *ev)
{
	if (ev->kind == CT_STATE && ev->next == DOCA_CTX_STATE_RUNNING) {
		CHECK_OK(doca_comch_client_get_connection(s->client, &s->conn));
		CHECK_OK(ct_send(s, s->conn, 1, 64));
	}
}

static bool one_callback_per_call(const struct ct_side *s)
{
	for (int i = 1; i < s->n; i++)
		if (s->ev[i].progress_call == s->ev[i - 1].progress_call && s->ev[i].progress_call != 0)
			return false;
	return true;
}

static void send_completion_precedes_the_reply(void)
{
	const char *name = ct_name("reply");
	int ok_at, recv_at, connect_at, first_msg_at;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	srv.hook = echo_hook;
	cli.hook = send_when_running_hook;
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(cli.ctx) == DOCA_ERROR_IN_PROGRESS);
	REQUIRE(wait_events(&cli, CT_RECV, 1));
	ok_at = ct_find(&cli, CT_SEND_OK, 0);
	recv_at = ct_find(&cli, CT_RECV, 0);
	CHECK(ok_at >= 0 && recv_at > ok_at);
	CHECK(cli.ev[recv_at].seq == 1001);
	/* The server heard the connect and the message in different calls. */
	connect_at = ct_find(&srv, CT_CONNECT, 0);
	first_msg_at = ct_find(&srv, CT_RECV, 0);
	CHECK(connect_at >= 0 && first_msg_at > connect_at);
	CHECK(srv.ev[first_msg_at].progress_call > srv.ev[connect_at].progress_call);
	CHECK(one_callback_per_call(&cli));
	CHECK(one_callback_per_call(&srv));
	srv.hook = NULL;
	cli.hook = NULL;
	ct_teardown_pair(&srv, &cli);
}

/* ---- allocation ---- */

static void the_pool_holds_exactly_the_configured_tasks(void)
{
	struct doca_comch_task_send *tasks[4], *extra = NULL;

	REQUIRE(pair_up("pool", 4));
	for (int i = 0; i < 4; i++)
		CHECK_OK(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, "abcd", 4, &tasks[i]));
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, "abcd", 4, &extra),
		     DOCA_ERROR_NO_MEMORY, "doca_comch_client_task_send_alloc_init");
	CHECK(extra == NULL);
	/* The copy was taken at alloc: the caller's buffer may change right after. */
	{
		char msg[8] = "first";

		doca_task_free(doca_comch_task_send_as_task(tasks[3]));
		CHECK_OK(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, msg, 6, &tasks[3]));
		memcpy(msg, "later", 6);
		CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(tasks[3])));
		REQUIRE(wait_events(&srv, CT_RECV, 1));
		CHECK(srv.last_len == 6 && memcmp(srv.last_msg, "first", 6) == 0);
	}
	for (int i = 0; i < 3; i++)
		doca_task_free(doca_comch_task_send_as_task(tasks[i]));
	ct_teardown_pair(&srv, &cli);
}

static void alloc_refuses_bad_arguments_and_states(void)
{
	struct doca_comch_task_send *task = NULL;
	uint64_t junk[64] = {0};

	REQUIRE(pair_up("alloc", 8));
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, NULL, 4, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_alloc_init");
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, "x", 0, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_alloc_init");
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, "x", 1, NULL),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_alloc_init");
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, NULL, "x", 1, &task), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_client_task_send_alloc_init");
	/* A connection of another endpoint, and something that is no connection. */
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, srv.conn, "x", 1, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_client_task_send_alloc_init");
	CHECK_REJECT(doca_comch_server_task_send_alloc_init(srv.server, cli.conn, "x", 1, &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_alloc_init");
	CHECK_REJECT(doca_comch_server_task_send_alloc_init(srv.server, (struct doca_comch_connection *)junk, "x", 1,
							    &task),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_server_task_send_alloc_init");
	/* STOPPING (the connection keeps the client there) and IDLE: BAD_STATE. */
	CHECK_ERR(doca_ctx_stop(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, "x", 1, &task), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_task_send_alloc_init");
	REQUIRE(ct_run_until(&cli, &srv, ct_is_idle, &cli, 5000));
	CHECK_REJECT(doca_comch_client_task_send_alloc_init(cli.client, cli.conn, "x", 1, &task), DOCA_ERROR_BAD_STATE,
		     "doca_comch_client_task_send_alloc_init");
	CHECK(task == NULL);
	ct_teardown_pair(&srv, &cli);
}

static void a_server_without_send_tasks_cannot_send(void)
{
	const char *name = ct_name("nosend");
	struct doca_comch_task_send *task = NULL;
	union doca_data ud;

	REQUIRE(ct_client_setup(&cli, name, 8));
	memset(&srv, 0, sizeof(srv));
	srv.dev = ct_open_dev(CT_DPU_PCI);
	srv.rep = srv.dev ? ct_open_rep(srv.dev, CT_HOST_PCI) : NULL;
	REQUIRE(srv.rep != NULL);
	REQUIRE(doca_comch_server_create(srv.dev, srv.rep, name, &srv.server) == DOCA_SUCCESS);
	srv.ctx = doca_comch_server_as_ctx(srv.server);
	ud.ptr = &srv;
	REQUIRE(doca_pe_create(&srv.pe) == DOCA_SUCCESS && doca_pe_connect_ctx(srv.pe, srv.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_set_user_data(srv.ctx, ud) == DOCA_SUCCESS);
	REQUIRE(doca_comch_server_event_msg_recv_register(srv.server, ct_recv_cb) == DOCA_SUCCESS);
	REQUIRE(doca_comch_server_event_connection_status_changed_register(srv.server, ct_connect_cb,
									   ct_disconnect_cb) == DOCA_SUCCESS);
	REQUIRE(ct_connect_pair(&srv, &cli));
	CHECK_REJECT(doca_comch_server_task_send_alloc_init(srv.server, srv.conn, "x", 1, &task), DOCA_ERROR_BAD_STATE,
		     "doca_comch_server_task_send_alloc_init");
	/* It still receives. */
	CHECK_OK(ct_send(&cli, cli.conn, 3, 8));
	CHECK(wait_events(&srv, CT_RECV, 1));
	ct_teardown_pair(&srv, &cli);
}

/* ---- counters ---- */

static void counters_follow_the_traffic(void)
{
	uint64_t v = 99;

	REQUIRE(pair_up("count", 16));
	for (uint32_t i = 0; i < 3; i++)
		CHECK_OK(ct_send(&cli, cli.conn, i, 10));
	CHECK_OK(ct_send(&srv, srv.conn, 9, 25));
	REQUIRE(wait_events(&srv, CT_RECV, 3) && wait_events(&cli, CT_RECV, 1));
	/* Before any snapshot the counters read zero. */
	CHECK_OK(doca_comch_connection_get_counter(cli.conn, DOCA_COMCH_COUNTER_SENT_MESSAGES, &v));
	CHECK_EQ_U64(v, 0);
	CHECK_OK(doca_comch_connection_update_info(cli.conn));
	CHECK_OK(doca_comch_connection_update_info(srv.conn));
	CHECK_OK(doca_comch_connection_get_counter(cli.conn, DOCA_COMCH_COUNTER_SENT_MESSAGES, &v));
	CHECK_EQ_U64(v, 3);
	CHECK_OK(doca_comch_connection_get_counter(cli.conn, DOCA_COMCH_COUNTER_SENT_BYTES, &v));
	CHECK_EQ_U64(v, 30);
	CHECK_OK(doca_comch_connection_get_counter(cli.conn, DOCA_COMCH_COUNTER_RECV_MESSAGES, &v));
	CHECK_EQ_U64(v, 1);
	CHECK_OK(doca_comch_connection_get_counter(cli.conn, DOCA_COMCH_COUNTER_RECV_BYTES, &v));
	CHECK_EQ_U64(v, 25);
	CHECK_OK(doca_comch_connection_get_counter(srv.conn, DOCA_COMCH_COUNTER_RECV_MESSAGES, &v));
	CHECK_EQ_U64(v, 3);
	CHECK_OK(doca_comch_connection_get_counter(srv.conn, DOCA_COMCH_COUNTER_RECV_BYTES, &v));
	CHECK_EQ_U64(v, 30);
	CHECK_REJECT(doca_comch_connection_get_counter(srv.conn, (enum doca_comch_counter)0, &v),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_connection_get_counter");
	CHECK_REJECT(doca_comch_connection_get_counter(srv.conn, (enum doca_comch_counter)5, &v),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_connection_get_counter");
	CHECK_REJECT(doca_comch_connection_get_counter(srv.conn, DOCA_COMCH_COUNTER_SENT_BYTES, NULL),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_connection_get_counter");
	/* A connection the server ended cannot be snapshot any more. */
	CHECK_OK(doca_comch_server_disconnect(srv.server, srv.conn));
	CHECK_REJECT(doca_comch_connection_update_info(srv.conn), DOCA_ERROR_CONNECTION_ABORTED,
		     "doca_comch_connection_update_info");
	ct_teardown_pair(&srv, &cli);
}

/* ---- flow control and stops ---- */

/* Messages of 4080 bytes that surely overflow a socket's send buffer. */
static int overflowing_count(void)
{
	FILE *f = fopen("/proc/sys/net/core/wmem_default", "r");
	long wmem = 212992;
	long n;

	if (f != NULL) {
		if (fscanf(f, "%ld", &wmem) != 1)
			wmem = 212992;
		fclose(f);
	}
	n = 4 * wmem / 4080 + 1;
	/*
	 * Over TCP (SOFTDOCA_PEER) the sender's buffer autotunes up to the third
	 * tcp_wmem value and the idle receiver keeps about the second tcp_rmem
	 * value: send twice what both can hold.
	 */
	if (getenv("SOFTDOCA_PEER") != NULL) {
		long w[3] = {0, 0, 4194304}, r[3] = {0, 131072, 0};

		f = fopen("/proc/sys/net/ipv4/tcp_wmem", "r");
		if (f != NULL) {
			if (fscanf(f, "%ld %ld %ld", &w[0], &w[1], &w[2]) != 3)
				w[2] = 4194304;
			fclose(f);
		}
		f = fopen("/proc/sys/net/ipv4/tcp_rmem", "r");
		if (f != NULL) {
			if (fscanf(f, "%ld %ld %ld", &r[0], &r[1], &r[2]) != 3)
				r[1] = 131072;
			fclose(f);
		}
		n = 2 * (w[2] + r[1]) / 4080 + 1;
	}
	return n < 400 ? 400 : n > 8000 ? 8000 : (int)n;
}

static void a_slow_receiver_loses_nothing(void)
{
	const char *name = ct_name("slow");
	const int n = overflowing_count();
	bool in_order = true;
	uint64_t end;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, (uint32_t)n));
	REQUIRE(doca_comch_server_set_recv_queue_size(srv.server, 4) == DOCA_SUCCESS);
	REQUIRE(ct_connect_pair(&srv, &cli));
	for (int i = 0; i < n; i++)
		CHECK_OK(ct_send(&cli, cli.conn, (uint32_t)i, 4080));
	/* Only the client progresses for a while: its sends wait, none fails. */
	for (end = ct_now_ms() + 100; ct_now_ms() < end;)
		if (!ct_progress(&cli))
			ct_nap();
	CHECK(ct_count(&cli, CT_SEND_ERR) == 0);
	CHECK(ct_count(&cli, CT_SEND_OK) < n);
	REQUIRE(wait_events(&srv, CT_RECV, n));
	REQUIRE(wait_events(&cli, CT_SEND_OK, n));
	for (int i = 0, k = 0; i < srv.n; i++)
		if (srv.ev[i].kind == CT_RECV)
			in_order = in_order && srv.ev[i].seq == (uint32_t)k++ && srv.ev[i].len == 4080;
	CHECK(in_order);
	CHECK(ct_count(&cli, CT_SEND_ERR) == 0);
	ct_teardown_pair(&srv, &cli);
}

static void a_message_sent_just_before_a_stop_arrives(void)
{
	int recv_at, disc_at;

	REQUIRE(pair_up("last-words", 8));
	CHECK_OK(ct_send(&cli, cli.conn, 42, 32));
	CHECK_ERR(doca_ctx_stop(cli.ctx), DOCA_ERROR_IN_PROGRESS);
	REQUIRE(ct_run_until(&cli, &srv, ct_is_idle, &cli, 5000));
	/* The bytes had left before the stop: the send reports success... */
	CHECK(ct_count(&cli, CT_SEND_OK) == 1 && ct_count(&cli, CT_SEND_ERR) == 0);
	CHECK(cli.ev[ct_find(&cli, CT_SEND_OK, 0)].status == DOCA_SUCCESS);
	/* ...and the server gets them, then the disconnect. */
	REQUIRE(wait_events(&srv, CT_DISCONNECT, 1));
	recv_at = ct_find(&srv, CT_RECV, 0);
	disc_at = ct_find(&srv, CT_DISCONNECT, 0);
	CHECK(recv_at >= 0 && disc_at > recv_at && srv.ev[recv_at].seq == 42);
	ct_teardown_pair(&srv, &cli);
}

/* Client: stop from inside the receive callback (the control-path client). */
static void stop_on_recv_hook(struct ct_side *s, const struct ct_event *ev)
{
	if (ev->kind == CT_RECV)
		CHECK_ERR(doca_ctx_stop(s->ctx), DOCA_ERROR_IN_PROGRESS);
}

/* Server: stop from inside the send completion (the control-path server). */
static void stop_on_send_hook(struct ct_side *s, const struct ct_event *ev)
{
	if (ev->kind == CT_RECV)
		CHECK_OK(ct_send(s, ev->conn, 5, 8));
	if (ev->kind == CT_SEND_OK)
		CHECK_ERR(doca_ctx_stop(s->ctx), DOCA_ERROR_IN_PROGRESS);
}

static bool both_idle(void *arg)
{
	(void)arg;
	return ct_state(&srv) == DOCA_CTX_STATE_IDLE && ct_state(&cli) == DOCA_CTX_STATE_IDLE;
}

static void the_control_path_sample_flow(void)
{
	const char *name = ct_name("ping");

	REQUIRE(ct_server_setup(&srv, name, 1024));
	REQUIRE(ct_client_setup(&cli, name, 1024));
	REQUIRE(doca_comch_server_set_recv_queue_size(srv.server, 10) == DOCA_SUCCESS);
	REQUIRE(doca_comch_client_set_recv_queue_size(cli.client, 10) == DOCA_SUCCESS);
	srv.hook = stop_on_send_hook;
	cli.hook = send_when_running_hook;
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(cli.ctx) == DOCA_ERROR_IN_PROGRESS);
	REQUIRE(wait_events(&cli, CT_SEND_OK, 1));
	cli.hook = stop_on_recv_hook;
	CHECK(ct_run_until(&srv, &cli, both_idle, NULL, 5000));
	CHECK(ct_count(&cli, CT_SEND_OK) == 1 && ct_count(&cli, CT_SEND_ERR) == 0);
	CHECK(ct_count(&srv, CT_SEND_OK) == 1 && ct_count(&srv, CT_SEND_ERR) == 0);
	CHECK(ct_count(&cli, CT_RECV) == 1 && ct_count(&srv, CT_RECV) == 1);
	srv.hook = NULL;
	cli.hook = NULL;
	ct_teardown_pair(&srv, &cli);
}

static void send_tasks_keep_no_connection_that_ended(void)
{
	struct doca_comch_task_send *task = NULL;

	REQUIRE(pair_up("stale", 8));
	REQUIRE(doca_comch_server_task_send_alloc_init(srv.server, srv.conn, "late", 4, &task) == DOCA_SUCCESS);
	CHECK_OK(doca_comch_server_disconnect(srv.server, srv.conn));
	/* Validated by try_submit: the connection is gone. */
	CHECK_REJECT(doca_task_try_submit(doca_comch_task_send_as_task(task)), DOCA_ERROR_NOT_CONNECTED,
		     "doca_task_try_submit");
	/* A plain submit is accepted and the callback reports the loss. */
	CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(task)));
	REQUIRE(wait_events(&srv, CT_SEND_ERR, 1));
	CHECK(srv.ev[ct_find(&srv, CT_SEND_ERR, 0)].status == DOCA_ERROR_NOT_CONNECTED);
	CHECK(ct_state(&srv) == DOCA_CTX_STATE_RUNNING); /* not fatal */
	ct_teardown_pair(&srv, &cli);
}

static int consumer_calls;

static void count_consumer(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn, uint32_t id)
{
	(void)event;
	(void)conn;
	(void)id;
	consumer_calls++;
}

/* No fast path: registered consumer callbacks are kept and never called. */
static void consumer_callbacks_never_fire(void)
{
	const char *name = ct_name("consumers");

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	CHECK_OK(doca_comch_server_event_consumer_register(srv.server, count_consumer, count_consumer));
	CHECK_OK(doca_comch_client_event_consumer_register(cli.client, count_consumer, count_consumer));
	REQUIRE(ct_connect_pair(&srv, &cli));
	CHECK_OK(ct_send(&cli, cli.conn, 1, 8));
	CHECK_OK(ct_send(&srv, srv.conn, 2, 8));
	CHECK(wait_events(&srv, CT_RECV, 1) && wait_events(&cli, CT_RECV, 1));
	ct_teardown_pair(&srv, &cli);
	CHECK(consumer_calls == 0);
}

int main(void)
{
	SD_RUN(messages_travel_both_ways_intact);
	SD_RUN(the_receive_buffer_shares_no_page_with_program_memory);
	SD_RUN(order_is_kept_in_each_direction);
	SD_RUN(the_largest_message_is_4080_bytes);
	SD_RUN(the_smaller_ceiling_governs_a_connection);
	SD_RUN(send_completion_precedes_the_reply);
	SD_RUN(the_pool_holds_exactly_the_configured_tasks);
	SD_RUN(alloc_refuses_bad_arguments_and_states);
	SD_RUN(a_server_without_send_tasks_cannot_send);
	SD_RUN(counters_follow_the_traffic);
	SD_RUN(a_slow_receiver_loses_nothing);
	SD_RUN(a_message_sent_just_before_a_stop_arrives);
	SD_RUN(the_control_path_sample_flow);
	SD_RUN(send_tasks_keep_no_connection_that_ended);
	SD_RUN(consumer_callbacks_never_fire);
	return sd_test_done();
}
