/*
 * test_comch_fastpath.c - the Comch fast path with server, client,
 * consumer and producer in one process:
 *  - a consumer's start is announced to the other side (new-consumer
 *    callback with its id) and its stop withdrawn (expired callback);
 *  - a producer's send lands in the posted buffer with its length, its
 *    immediate data and the producer's id; receives complete in posting
 *    order;
 *  - a send with nothing posted answers DOCA_ERROR_AGAIN without a log
 *    record and goes through once a buffer is posted; a consumer that never
 *    posts delivers nothing;
 *  - a buffer too small, immediate data too long, an unknown or expired
 *    consumer, a closed connection: the DOCA errors, one record each;
 *  - receives freed while still posted (DOCA's secure_channel does so
 *    before it stops its consumer) are flushed to their callbacks and the
 *    consumer still reaches IDLE;
 *  - a server or client whose consumers or producers still exist is not
 *    destroyed (DOCA_ERROR_IN_USE): they point into it;
 *  - argument and state refusals, capabilities, DPA entry points.
 */
#include "fastpath_test.h"

#define SD_TEST_FP_MAX 64 /* consumers per endpoint (docs/comch-fast-path.md) */

static struct ct_side srv, cli;
static struct fp_mem cmem, pmem;
static struct fp_end cons, prod;

/* Server and client connected, consumer callbacks on both, memory on each side. */
static bool pair_up(const char *tag)
{
	const char *name = ct_name(tag);

	memset(&fp_srv_events, 0, sizeof(fp_srv_events));
	memset(&fp_cli_events, 0, sizeof(fp_cli_events));
	return ct_server_setup(&srv, name, 8) && ct_client_setup(&cli, name, 8) &&
	       doca_comch_server_event_consumer_register(srv.server, fp_new_consumer, fp_expired_consumer) ==
		       DOCA_SUCCESS &&
	       doca_comch_client_event_consumer_register(cli.client, fp_new_consumer, fp_expired_consumer) ==
		       DOCA_SUCCESS &&
	       ct_connect_pair(&srv, &cli) && fp_mem_init(&cmem, srv.dev, 1 << 16) &&
	       fp_mem_init(&pmem, cli.dev, 1 << 16);
}

/* A RUNNING consumer on the server side, announced to the client; a RUNNING producer on the client. */
static bool consumer_and_producer(uint32_t tasks, uint32_t imm)
{
	if (!fp_consumer_setup(&cons, srv.conn, &cmem, tasks, imm))
		return false;
	if (doca_ctx_start(cons.ctx) != DOCA_ERROR_IN_PROGRESS)
		return false;
	if (!FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_RUNNING && fp_cli_events.n_new == 1, &srv, &cli, &cons,
			  (struct fp_end *)NULL))
		return false;
	return fp_producer_setup(&prod, cli.conn, tasks);
}

static void tear_down(void)
{
	fp_end_fini(&prod, &srv, &cli);
	fp_end_fini(&cons, &srv, &cli);
	fp_mem_fini(&cmem);
	fp_mem_fini(&pmem);
	ct_teardown_pair(&srv, &cli);
}

static void a_message_lands_in_the_posted_buffer_with_its_immediate_data(void)
{
	uint8_t imm[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct doca_comch_producer_task_send *t;
	uint32_t cid = 0, pid = 0;

	REQUIRE(pair_up("land"));
	REQUIRE(consumer_and_producer(4, 8));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	CHECK(cid != 0 && fp_cli_events.new_ids[0] == cid);
	CHECK(fp_srv_events.n_new == 0); /* only the other side hears of it */
	CHECK_OK(doca_comch_producer_get_id(prod.producer, &pid));
	for (int i = 0; i < 3000; i++)
		pmem.mem[100 + i] = (uint8_t)(i * 7 + 3);
	CHECK_OK(fp_post(&cons, &cmem, 4096, 4096));
	t = fp_send_task(&prod, &pmem, 100, 3000, imm, sizeof(imm), cid);
	REQUIRE(t != NULL);
	CHECK(doca_comch_producer_task_send_get_consumer_id(t) == cid);
	CHECK(doca_comch_producer_task_send_get_imm_data_len(t) == 8);
	CHECK(memcmp(doca_comch_producer_task_send_get_imm_data(t), imm, 8) == 0);
	ct_log_start();
	CHECK_OK(fp_submit_retry(t, &cons, &cli, 5000));
	CHECK(FP_RUN_UNTIL(cons.n == 1 && prod.n == 1, &srv, &cli, &cons, &prod));
	CHECK_LOG_QUIET();
	CHECK(prod.n_ok == 1 && prod.done[0].status == DOCA_SUCCESS);
	REQUIRE(cons.n_ok == 1);
	CHECK(cons.done[0].len == 3000 && cons.done[0].data == cmem.mem + 4096);
	CHECK(memcmp(cmem.mem + 4096, pmem.mem + 100, 3000) == 0);
	CHECK(cons.done[0].producer_id == pid);
	CHECK(cons.done[0].imm_len == 8 && memcmp(cons.done[0].imm, imm, 8) == 0);
	tear_down();
}

static void the_host_side_consumes_what_the_dpu_side_produces(void)
{
	struct doca_comch_producer_task_send *t;
	struct fp_mem hmem, dmem;
	uint32_t cid = 0;

	REQUIRE(pair_up("reverse"));
	/* The other direction: the client (host side) lends, the server (DPU side) writes. */
	REQUIRE(fp_mem_init(&hmem, cli.dev, 8192) && fp_mem_init(&dmem, srv.dev, 8192));
	REQUIRE(fp_consumer_setup(&cons, cli.conn, &hmem, 2, 0));
	CHECK_ERR(doca_ctx_start(cons.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_RUNNING && fp_srv_events.n_new == 1, &srv, &cli, &cons,
			   (struct fp_end *)NULL));
	CHECK(fp_cli_events.n_new == 0);
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	CHECK(fp_srv_events.new_ids[0] == cid);
	REQUIRE(fp_producer_setup(&prod, srv.conn, 2));
	CHECK_OK(fp_post(&cons, &hmem, 0, 4096));
	memset(dmem.mem, 0xc3, 4000);
	t = fp_send_task(&prod, &dmem, 0, 4000, NULL, 0, cid);
	REQUIRE(t != NULL);
	CHECK_OK(fp_submit_retry(t, &cons, &srv, 5000));
	CHECK(FP_RUN_UNTIL(cons.n == 1 && prod.n == 1, &srv, &cli, &cons, &prod));
	CHECK(cons.n_ok == 1 && cons.done[0].len == 4000 && hmem.mem[3999] == 0xc3 && cons.done[0].imm_len == 0);
	/* Its stop reaches the server as an expired consumer. */
	fp_end_fini(&cons, &srv, &cli);
	CHECK(FP_RUN_UNTIL(fp_srv_events.n_expired == 1, &srv, &cli, (struct fp_end *)NULL, (struct fp_end *)NULL));
	CHECK(fp_srv_events.expired_ids[0] == cid);
	fp_end_fini(&prod, &srv, &cli);
	fp_mem_fini(&hmem);
	fp_mem_fini(&dmem);
	tear_down();
}

static void receives_complete_in_posting_order(void)
{
	uint32_t cid = 0;

	REQUIRE(pair_up("order"));
	REQUIRE(consumer_and_producer(8, 4));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	for (int i = 0; i < 8; i++)
		CHECK_OK(fp_post(&cons, &cmem, (size_t)i * 1024, 1024));
	for (uint32_t i = 0; i < 8; i++) {
		struct doca_comch_producer_task_send *t;

		memset(pmem.mem + i * 512, (int)(0x40 + i), 100 + i);
		t = fp_send_task(&prod, &pmem, i * 512, 100 + i, &i, 4, cid);
		REQUIRE(t != NULL);
		CHECK_OK(fp_submit_retry(t, &cons, &cli, 5000));
	}
	CHECK(FP_RUN_UNTIL(cons.n == 8 && prod.n == 8, &srv, &cli, &cons, &prod));
	for (int i = 0; i < 8 && i < cons.n; i++) {
		uint32_t seq = 0;

		memcpy(&seq, cons.done[i].imm, 4);
		CHECK(cons.done[i].status == DOCA_SUCCESS && seq == (uint32_t)i);
		CHECK(cons.done[i].data == cmem.mem + (size_t)i * 1024 && cons.done[i].len == 100u + (uint32_t)i);
		CHECK(cons.done[i].data[0] == 0x40 + i && cons.done[i].data[99 + i] == 0x40 + i);
	}
	tear_down();
}

static void a_send_with_nothing_posted_answers_again_until_a_post(void)
{
	struct doca_comch_producer_task_send *t;
	uint32_t cid = 0;

	REQUIRE(pair_up("again"));
	REQUIRE(consumer_and_producer(2, 0));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	memset(pmem.mem, 0x5a, 64);
	t = fp_send_task(&prod, &pmem, 0, 64, NULL, 0, cid);
	REQUIRE(t != NULL);
	ct_log_start();
	for (int i = 0; i < 20; i++) {
		CHECK_ERR(doca_task_submit(doca_comch_producer_task_send_as_task(t)), DOCA_ERROR_AGAIN);
		doca_pe_progress(prod.pe);
		doca_pe_progress(cons.pe);
	}
	CHECK_LOG_QUIET(); /* back-pressure, not an error */
	CHECK(prod.n == 0 && cons.n == 0);
	CHECK_OK(fp_post(&cons, &cmem, 0, 128));
	CHECK_OK(FP_SUBMIT_SEEN(t, &srv, &cli, &cons, &prod));
	CHECK(FP_RUN_UNTIL(cons.n == 1 && prod.n == 1, &srv, &cli, &cons, &prod));
	CHECK(cons.n_ok == 1 && cons.done[0].len == 64 && cmem.mem[63] == 0x5a);
	tear_down();
}

/*
 * The DOCA samples progress only the producer's PE while sending and only
 * the consumer's (and the connection's) while receiving: posts and landed
 * messages must show through those PEs alone, over TCP too.
 */
static void each_side_needs_only_its_own_pe(void)
{
	struct doca_comch_producer_task_send *t;
	uint32_t cid = 0;
	uint64_t end;
	doca_error_t err;

	REQUIRE(pair_up("own-pe"));
	REQUIRE(consumer_and_producer(2, 0));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	CHECK_OK(fp_post(&cons, &cmem, 0, 256));
	for (int i = 0; i < 20; i++) /* the consumer side goes on; the client's PE does not */
		doca_pe_progress(cons.pe), ct_progress(&srv);
	memset(pmem.mem, 0x3c, 200);
	t = fp_send_task(&prod, &pmem, 0, 200, NULL, 0, cid);
	REQUIRE(t != NULL);
	for (end = ct_now_ms() + 5000;
	     (err = doca_task_submit(doca_comch_producer_task_send_as_task(t))) == DOCA_ERROR_AGAIN && ct_now_ms() < end;)
		ct_nap(); /* nothing progressed at all, as the samples' submit loop */
	CHECK_OK(err);
	CHECK(FP_RUN_UNTIL(prod.n == 1 && cons.n == 1, (struct ct_side *)NULL, (struct ct_side *)NULL, &cons, &prod));
	CHECK(cons.n_ok == 1 && cons.done[0].len == 200 && cmem.mem[199] == 0x3c);
	tear_down();
}

static void a_consumer_that_never_posts_receives_nothing(void)
{
	struct doca_comch_producer_task_send *t;
	uint32_t cid = 0;
	uint64_t end;
	int again = 0;

	REQUIRE(pair_up("never"));
	REQUIRE(consumer_and_producer(2, 0));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	t = fp_send_task(&prod, &pmem, 0, 16, NULL, 0, cid);
	REQUIRE(t != NULL);
	for (end = ct_now_ms() + 100; ct_now_ms() < end; ct_nap()) {
		again += doca_task_submit(doca_comch_producer_task_send_as_task(t)) == DOCA_ERROR_AGAIN;
		ct_progress(&srv);
		ct_progress(&cli);
		doca_pe_progress(cons.pe);
		doca_pe_progress(prod.pe);
	}
	CHECK(again > 0 && prod.n == 0 && cons.n == 0);
	/* The consumer goes away: the held send is now refused as sent to nobody. */
	CHECK_OK(doca_ctx_stop(cons.ctx));
	CHECK(FP_RUN_UNTIL(fp_cli_events.n_expired == 1 && fp_state(&cons) == DOCA_CTX_STATE_IDLE, &srv, &cli, &cons,
			   &prod));
	CHECK(fp_cli_events.expired_ids[0] == cid);
	CHECK_REJECT(doca_task_submit(doca_comch_producer_task_send_as_task(t)), DOCA_ERROR_NOT_FOUND,
		     "doca_task_submit");
	fp_send_drop(t);
	tear_down();
}

static void a_buffer_too_small_is_refused_and_stays_posted(void)
{
	struct doca_comch_producer_task_send *t;
	uint32_t cid = 0;

	REQUIRE(pair_up("small"));
	REQUIRE(consumer_and_producer(2, 0));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	CHECK_OK(fp_post(&cons, &cmem, 0, 16));
	t = fp_send_task(&prod, &pmem, 0, 100, NULL, 0, cid);
	REQUIRE(t != NULL);
	CHECK_REJECT(FP_SUBMIT_SEEN(t, &srv, &cli, &cons, &prod), DOCA_ERROR_INVALID_VALUE, "doca_task_submit");
	fp_send_drop(t);
	t = fp_send_task(&prod, &pmem, 0, 16, NULL, 0, cid);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(doca_comch_producer_task_send_as_task(t)));
	CHECK(FP_RUN_UNTIL(cons.n == 1 && prod.n == 1, &srv, &cli, &cons, &prod));
	CHECK(cons.n_ok == 1 && cons.done[0].len == 16);
	tear_down();
}

static void immediate_data_longer_than_the_consumer_takes_is_refused(void)
{
	uint8_t imm[33] = {0};
	struct doca_comch_producer_task_send *t = NULL;
	struct doca_buf *b;
	uint32_t cid = 0;

	REQUIRE(pair_up("imm"));
	REQUIRE(consumer_and_producer(2, 4));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	CHECK_OK(fp_post(&cons, &cmem, 0, 64));
	t = fp_send_task(&prod, &pmem, 0, 8, imm, 8, cid);
	REQUIRE(t != NULL);
	CHECK_REJECT(doca_task_submit(doca_comch_producer_task_send_as_task(t)), DOCA_ERROR_INVALID_VALUE,
		     "doca_task_submit");
	/* try_submit reports the same rule through the framework. */
	CHECK_REJECT(doca_task_try_submit(doca_comch_producer_task_send_as_task(t)), DOCA_ERROR_INVALID_VALUE,
		     "doca_task_try_submit");
	doca_comch_producer_task_send_set_imm_data(t, imm, 4);
	CHECK(doca_comch_producer_task_send_get_imm_data_len(t) == 4);
	CHECK_OK(FP_SUBMIT_SEEN(t, &srv, &cli, &cons, &prod));
	CHECK(FP_RUN_UNTIL(cons.n == 1 && prod.n == 1, &srv, &cli, &cons, &prod));
	CHECK(cons.n_ok == 1 && cons.done[0].imm_len == 4);
	/* Above the capability, alloc refuses at once. */
	b = fp_buf(&pmem, 0, 8, 8);
	REQUIRE(b != NULL);
	CHECK_REJECT(doca_comch_producer_task_send_alloc_init(prod.producer, b, imm, 33, cid, &t),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_producer_task_send_alloc_init");
	doca_buf_dec_refcount(b, NULL);
	tear_down();
}

static void an_unknown_consumer_is_not_found(void)
{
	struct doca_comch_producer_task_send *t;

	REQUIRE(pair_up("unknown"));
	REQUIRE(consumer_and_producer(2, 0));
	t = fp_send_task(&prod, &pmem, 0, 8, NULL, 0, 4242);
	REQUIRE(t != NULL);
	CHECK_REJECT(doca_task_submit(doca_comch_producer_task_send_as_task(t)), DOCA_ERROR_NOT_FOUND,
		     "doca_task_submit");
	fp_send_drop(t);
	tear_down();
}

static void a_closed_connection_fails_posted_receives_and_sends(void)
{
	struct doca_comch_producer_task_send *t;
	uint32_t cid = 0;

	REQUIRE(pair_up("closed"));
	REQUIRE(consumer_and_producer(2, 0));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	CHECK_OK(fp_post(&cons, &cmem, 0, 64));
	t = fp_send_task(&prod, &pmem, 0, 8, NULL, 0, cid);
	REQUIRE(t != NULL);
	/* The client goes away: the server sees the disconnect, the posted receive fails. */
	(void)doca_ctx_stop(cli.ctx);
	CHECK(FP_RUN_UNTIL(cons.n == 1, &srv, &cli, &cons, (struct fp_end *)NULL));
	CHECK(cons.n_err == 1 && cons.done[0].status == DOCA_ERROR_NOT_CONNECTED);
	CHECK(FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_IDLE, &srv, &cli, &cons, (struct fp_end *)NULL));
	CHECK_REJECT(doca_task_submit(doca_comch_producer_task_send_as_task(t)), DOCA_ERROR_NOT_CONNECTED,
		     "doca_task_submit");
	fp_send_drop(t);
	/* A consumer cannot start again on the closed link. */
	CHECK_REJECT(doca_ctx_start(cons.ctx), DOCA_ERROR_NOT_CONNECTED, "doca_ctx_start");
	tear_down();
}

/* Post a receive over [off, off + len) of the consumer's memory and keep the task. */
static struct doca_comch_consumer_task_post_recv *post_kept(size_t off, size_t len)
{
	struct doca_comch_consumer_task_post_recv *t = NULL;
	struct doca_buf *b = fp_buf(&cmem, off, len, 0);

	if (b == NULL || doca_comch_consumer_task_post_recv_alloc_init(cons.consumer, b, &t) != DOCA_SUCCESS ||
	    doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)) != DOCA_SUCCESS)
		return NULL;
	return t;
}

static void receives_freed_while_posted_are_flushed_and_the_consumer_still_stops(void)
{
	struct doca_comch_consumer_task_post_recv *t[3];
	struct doca_comch_producer_task_send *s;
	uint32_t cid = 0;

	REQUIRE(pair_up("freed"));
	REQUIRE(consumer_and_producer(4, 0));
	CHECK_OK(doca_comch_consumer_get_id(cons.consumer, &cid));
	for (int i = 0; i < 3; i++) {
		t[i] = post_kept((size_t)i * 1024, 1024);
		REQUIRE(t[i] != NULL);
	}
	/* One message lands in the first receive, whose callback frees it. */
	memset(pmem.mem, 0x6e, 32);
	s = fp_send_task(&prod, &pmem, 0, 32, NULL, 0, cid);
	REQUIRE(s != NULL);
	CHECK_OK(fp_submit_retry(s, &cons, &cli, 5000));
	CHECK(FP_RUN_UNTIL(cons.n == 1 && prod.n == 1, &srv, &cli, &cons, &prod));
	CHECK(cons.n_ok == 1 && cons.done[0].data == cmem.mem && cmem.mem[31] == 0x6e);
	/* The two still posted are freed, then the consumer is stopped: secure_channel's order. */
	ct_log_start();
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t[1]));
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t[2]));
	CHECK(ct_log_count("[WRN]") == 1 && ct_log_count("[ERR]") == 0);
	CHECK_ERR(doca_ctx_stop(cons.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_IDLE, &srv, &cli, &cons, (struct fp_end *)NULL));
	CHECK(cons.n == 3 && cons.n_err == 2); /* their flushes still reach the callbacks */
	CHECK(FP_RUN_UNTIL(fp_cli_events.n_expired == 1, &srv, &cli, (struct fp_end *)NULL, (struct fp_end *)NULL));
	tear_down();
}

static void endpoints_outlived_by_their_consumer_or_producer_are_not_destroyed(void)
{
	REQUIRE(pair_up("outlive"));
	REQUIRE(consumer_and_producer(2, 0)); /* the consumer on the server, the producer on the client */
	/* Both endpoints stop (IDLE) while their consumer and producer still exist. */
	(void)doca_ctx_stop(cli.ctx);
	CHECK(ct_run_until(&cli, &srv, ct_is_idle, &cli, 5000));
	(void)doca_ctx_stop(srv.ctx);
	CHECK(ct_run_until(&srv, &cli, ct_is_idle, &srv, 5000));
	ct_log_start();
	CHECK_ERR(doca_comch_client_destroy(cli.client), DOCA_ERROR_IN_USE);
	CHECK_LOG_ONE_ERR("doca_comch_client_destroy");
	CHECK_ERR(doca_comch_server_destroy(srv.server), DOCA_ERROR_IN_USE);
	CHECK_LOG_ONE_ERR("doca_comch_server_destroy");
	/* Once they are gone, the endpoints go too (tear_down destroys them). */
	fp_end_fini(&prod, &srv, &cli);
	fp_end_fini(&cons, &srv, &cli);
	tear_down();
}

static void refuse_cb(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	(void)t, (void)a, (void)b;
}

/* The endpoint routes frames to its started consumers: 64 at a time, the capability. */
static void a_65th_started_consumer_is_refused(void)
{
	struct doca_comch_consumer *c[SD_TEST_FP_MAX + 1] = {NULL};
	struct doca_pe *pe = NULL;
	uint32_t max = 0;
	enum doca_ctx_states st;

	REQUIRE(pair_up("full"));
	CHECK_OK(doca_comch_consumer_cap_get_max_consumers(doca_dev_as_devinfo(srv.dev), &max));
	CHECK(max == SD_TEST_FP_MAX);
	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	for (int i = 0; i <= SD_TEST_FP_MAX; i++) {
		REQUIRE(doca_comch_consumer_create(srv.conn, cmem.mmap, &c[i]) == DOCA_SUCCESS);
		REQUIRE(doca_pe_connect_ctx(pe, doca_comch_consumer_as_ctx(c[i])) == DOCA_SUCCESS);
		CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(c[i], refuse_cb, refuse_cb, 1));
		if (i < SD_TEST_FP_MAX)
			CHECK_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(c[i])), DOCA_ERROR_IN_PROGRESS);
		/* Drain the announcements as they come, so no socket fills. */
		for (int k = 0; k < 4; k++)
			ct_progress(&cli), doca_pe_progress(pe);
	}
	CHECK_REJECT(doca_ctx_start(doca_comch_consumer_as_ctx(c[SD_TEST_FP_MAX])), DOCA_ERROR_FULL, "doca_ctx_start");
	/* One stops: the 65th may start now. */
	(void)doca_ctx_stop(doca_comch_consumer_as_ctx(c[0]));
	for (uint64_t end = ct_now_ms() + 5000;
	     doca_ctx_get_state(doca_comch_consumer_as_ctx(c[0]), &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE &&
	     ct_now_ms() < end;)
		doca_pe_progress(pe), ct_progress(&cli);
	CHECK_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(c[SD_TEST_FP_MAX])), DOCA_ERROR_IN_PROGRESS);
	/* The client hears of it before anything stops (on one machine it maps the queue then). */
	for (uint64_t end = ct_now_ms() + 5000; fp_cli_events.n_new < SD_TEST_FP_MAX + 1 && ct_now_ms() < end;)
		doca_pe_progress(pe), ct_progress(&cli), ct_progress(&srv);
	CHECK(fp_cli_events.n_new == SD_TEST_FP_MAX + 1 && fp_cli_events.n_expired == 1);
	for (int i = 0; i <= SD_TEST_FP_MAX; i++) {
		(void)doca_ctx_stop(doca_comch_consumer_as_ctx(c[i]));
		for (uint64_t end = ct_now_ms() + 5000;
		     doca_ctx_get_state(doca_comch_consumer_as_ctx(c[i]), &st) == DOCA_SUCCESS &&
		     st != DOCA_CTX_STATE_IDLE && ct_now_ms() < end;)
			doca_pe_progress(pe), ct_progress(&cli), ct_progress(&srv);
		CHECK_OK(doca_comch_consumer_destroy(c[i]));
	}
	CHECK(FP_RUN_UNTIL(fp_cli_events.n_expired == SD_TEST_FP_MAX + 1, &srv, &cli, (struct fp_end *)NULL,
			   (struct fp_end *)NULL));
	CHECK_OK(doca_pe_destroy(pe));
	tear_down();
}

static void refusals_of_arguments_and_states(void)
{
	struct doca_comch_consumer *c = NULL;
	struct doca_comch_producer *p = NULL;
	struct doca_comch_consumer_task_post_recv *rt = NULL;
	struct fp_mem other;
	struct doca_buf *b;

	REQUIRE(pair_up("refuse"));
	CHECK_REJECT(doca_comch_consumer_create(NULL, cmem.mmap, &c), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_consumer_create");
	CHECK_REJECT(doca_comch_consumer_create(srv.conn, NULL, &c), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_consumer_create");
	CHECK_REJECT(doca_comch_producer_create(cli.conn, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_producer_create");
	CHECK_REJECT(doca_comch_producer_create((struct doca_comch_connection *)&cmem, &p), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_producer_create");
	CHECK_REJECT(doca_comch_consumer_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_comch_consumer_destroy");
	REQUIRE(fp_consumer_setup(&cons, srv.conn, &cmem, 2, 0));
	CHECK_REJECT(doca_comch_consumer_set_imm_data_len(cons.consumer, 33), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_consumer_set_imm_data_len");
	CHECK_REJECT(doca_comch_consumer_task_post_recv_set_conf(cons.consumer, fp_recv_ok, NULL, 2),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_consumer_task_post_recv_set_conf");
	CHECK_REJECT(doca_comch_consumer_task_post_recv_set_conf(cons.consumer, fp_recv_ok, fp_recv_err, 0),
		     DOCA_ERROR_INVALID_VALUE, "doca_comch_consumer_task_post_recv_set_conf");
	CHECK_ERR(doca_ctx_start(cons.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_RUNNING, &srv, &cli, &cons, (struct fp_end *)NULL));
	CHECK_REJECT(doca_comch_consumer_set_imm_data_len(cons.consumer, 4), DOCA_ERROR_BAD_STATE,
		     "doca_comch_consumer_set_imm_data_len");
	CHECK_REJECT(doca_comch_consumer_destroy(cons.consumer), DOCA_ERROR_BAD_STATE, "doca_comch_consumer_destroy");
	/* A buffer of another mmap cannot be posted. */
	REQUIRE(fp_mem_init(&other, srv.dev, 4096));
	b = fp_buf(&other, 0, 64, 0);
	REQUIRE(b != NULL);
	CHECK_REJECT(doca_comch_consumer_task_post_recv_alloc_init(cons.consumer, b, &rt), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_consumer_task_post_recv_alloc_init");
	doca_buf_dec_refcount(b, NULL);
	fp_mem_fini(&other);
	/* The pool is what was configured. */
	CHECK_OK(fp_post(&cons, &cmem, 0, 64));
	CHECK_OK(fp_post(&cons, &cmem, 64, 64));
	CHECK_REJECT(fp_post(&cons, &cmem, 128, 64), DOCA_ERROR_NO_MEMORY,
		     "doca_comch_consumer_task_post_recv_alloc_init");
	/* Stopping flushes the posted receives. */
	CHECK_OK(doca_ctx_stop(cons.ctx) == DOCA_ERROR_IN_PROGRESS ? DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED);
	CHECK(FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_IDLE, &srv, &cli, &cons, (struct fp_end *)NULL));
	CHECK(cons.n_err == 2 && cons.done[0].status == DOCA_ERROR_SHUTDOWN);
	/* Producer: send tasks must be configured before the start. */
	CHECK_OK(doca_comch_producer_create(cli.conn, &p));
	memset(&prod, 0, sizeof(prod));
	prod.producer = p;
	REQUIRE(fp_ctx_setup(&prod, doca_comch_producer_as_ctx(p)));
	CHECK_REJECT(doca_ctx_start(prod.ctx), DOCA_ERROR_BAD_STATE, "doca_ctx_start");
	tear_down();
}

static void capabilities_and_dpa_entry_points(void)
{
	struct doca_dev *dev = ct_open_dev(CT_HOST_PCI);
	struct doca_devinfo *info;
	struct doca_comch_consumer_completion *comp = NULL;
	uint32_t v = 0;

	REQUIRE(dev != NULL);
	info = doca_dev_as_devinfo(dev);
	CHECK_OK(doca_comch_producer_cap_is_supported(info));
	CHECK_OK(doca_comch_consumer_cap_is_supported(info));
	CHECK_OK(doca_comch_consumer_cap_get_max_imm_data_len(info, &v));
	CHECK(v == 32);
	CHECK_OK(doca_comch_consumer_cap_get_max_buf_size(info, &v));
	CHECK(v == 1u << 30);
	CHECK_OK(doca_comch_producer_cap_get_max_buf_size(info, &v));
	CHECK(v == 1u << 30);
	CHECK_OK(doca_comch_producer_cap_get_max_num_tasks(info, &v));
	CHECK(v == 1024);
	CHECK_OK(doca_comch_consumer_cap_get_max_buf_list_len(info, &v));
	CHECK(v == 1);
	CHECK_OK(doca_comch_consumer_cap_get_max_consumers(info, &v));
	CHECK(v == 64);
	CHECK_REJECT(doca_comch_producer_cap_get_max_producers(info, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_producer_cap_get_max_producers");
	CHECK_REJECT(doca_comch_consumer_completion_create(&comp), DOCA_ERROR_NOT_SUPPORTED,
		     "doca_comch_consumer_completion_create");
	CHECK(comp == NULL);
	CHECK_REJECT(doca_comch_consumer_completion_create(NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_consumer_completion_create");
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	SD_RUN(a_message_lands_in_the_posted_buffer_with_its_immediate_data);
	SD_RUN(the_host_side_consumes_what_the_dpu_side_produces);
	SD_RUN(receives_complete_in_posting_order);
	SD_RUN(a_send_with_nothing_posted_answers_again_until_a_post);
	SD_RUN(each_side_needs_only_its_own_pe);
	SD_RUN(a_consumer_that_never_posts_receives_nothing);
	SD_RUN(a_buffer_too_small_is_refused_and_stays_posted);
	SD_RUN(immediate_data_longer_than_the_consumer_takes_is_refused);
	SD_RUN(an_unknown_consumer_is_not_found);
	SD_RUN(a_closed_connection_fails_posted_receives_and_sends);
	SD_RUN(receives_freed_while_posted_are_flushed_and_the_consumer_still_stops);
	SD_RUN(endpoints_outlived_by_their_consumer_or_producer_are_not_destroyed);
	SD_RUN(a_65th_started_consumer_is_refused);
	SD_RUN(refusals_of_arguments_and_states);
	SD_RUN(capabilities_and_dpa_entry_points);
	return sd_test_done();
}
