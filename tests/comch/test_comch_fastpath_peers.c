/*
 * test_comch_fastpath_peers.c - the Comch fast path between two processes:
 * this program is the server with a consumer, a forked child is the client
 * with a producer.
 *  - every message crosses intact, with its immediate data, in order, while
 *    the consumer's process only progresses its PEs; the consumer's stop
 *    reaches the producer's process as an expired-consumer event;
 *  - a producer process killed in the middle of a stream fails the
 *    consumer's posted receives with DOCA_ERROR_NOT_CONNECTED and stops the
 *    consumer; nothing hangs, nothing crashes.
 */
#include <signal.h>

#include "fastpath_test.h"

#define MSGS 24
#define SLOT (64u * 1024u)

static struct ct_side srv, cli;
static struct fp_mem cmem, pmem;
static struct fp_end cons, prod;

static uint8_t pattern(uint32_t seq, size_t i)
{
	return (uint8_t)(seq * 31u + i * 7u);
}

static uint32_t msg_len(uint32_t seq)
{
	return seq == 0 ? 1u : (seq * 2711u) % SLOT + 1u;
}

/* ---- the producer process ---- */

/*
 * Connect, wait for the consumer, send `count` messages.  Then, with
 * `linger`, keep the link up and idle until killed; otherwise wait for the
 * consumer to expire and exit.
 */
static int child_producer(const char *name, uint32_t count, bool linger)
{
	uint32_t cid;

	memset(&fp_cli_events, 0, sizeof(fp_cli_events));
	if (!ct_client_setup(&cli, name, 8) ||
	    doca_comch_client_event_consumer_register(cli.client, fp_new_consumer, fp_expired_consumer) !=
		    DOCA_SUCCESS ||
	    doca_ctx_start(cli.ctx) != DOCA_ERROR_IN_PROGRESS)
		return 2;
	if (!ct_run_until(&cli, NULL, ct_is_running, &cli, 10000) ||
	    doca_comch_client_get_connection(cli.client, &cli.conn) != DOCA_SUCCESS)
		return 3;
	if (!FP_RUN_UNTIL(fp_cli_events.n_new == 1, (struct ct_side *)NULL, &cli, (struct fp_end *)NULL,
			  (struct fp_end *)NULL))
		return 4;
	cid = fp_cli_events.new_ids[0];
	if (!fp_mem_init(&pmem, cli.dev, SLOT) || !fp_producer_setup(&prod, cli.conn, 4))
		return 5;
	for (uint32_t seq = 0; seq < count; seq++) {
		uint32_t len = msg_len(seq % MSGS);
		struct doca_comch_producer_task_send *t;

		/* The previous send has completed: its buffer may be rewritten. */
		if (!FP_RUN_UNTIL(prod.n == (int)seq, (struct ct_side *)NULL, (struct ct_side *)NULL, &prod,
				  (struct fp_end *)NULL))
			return 6;
		for (size_t i = 0; i < len; i++)
			pmem.mem[i] = pattern(seq, i);
		t = fp_send_task(&prod, &pmem, 0, len, &seq, 4, cid);
		if (t == NULL || fp_submit_retry(t, NULL, &cli, 10000) != DOCA_SUCCESS)
			return 7;
	}
	while (linger) /* the parent kills this process while its link is idle */
		if (!ct_progress(&cli) && !doca_pe_progress(prod.pe))
			ct_nap();
	if (!FP_RUN_UNTIL(prod.n == (int)count && fp_cli_events.n_expired == 1, (struct ct_side *)NULL, &cli, &prod,
			  (struct fp_end *)NULL))
		return 8;
	if (prod.n_ok != (int)count || fp_cli_events.expired_ids[0] != cid)
		return 9;
	fp_end_fini(&prod, NULL, &cli);
	fp_mem_fini(&pmem);
	ct_teardown(&cli, NULL);
	return sd_test_case_failed ? 1 : 0;
}

static pid_t spawn_producer(const char *name, uint32_t count, bool linger)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(child_producer(name, count, linger));
	return pid;
}

static int wait_child(pid_t pid)
{
	int status = 0;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- the consumer process (this one) ---- */

/* Server up, a client connected, a RUNNING consumer with `tasks` receives posted. */
static bool consumer_side(const char *name, uint32_t tasks)
{
	if (!ct_server_setup(&srv, name, 8) || doca_ctx_start(srv.ctx) != DOCA_SUCCESS)
		return false;
	if (!ct_wait_events(&srv, NULL, &srv, CT_CONNECT, 1))
		return false;
	if (!fp_mem_init(&cmem, srv.dev, (size_t)tasks * SLOT) || !fp_consumer_setup(&cons, srv.conn, &cmem, tasks, 4))
		return false;
	if (doca_ctx_start(cons.ctx) != DOCA_ERROR_IN_PROGRESS ||
	    !FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_RUNNING, &srv, (struct ct_side *)NULL, &cons,
			  (struct fp_end *)NULL))
		return false;
	for (uint32_t i = 0; i < tasks; i++)
		if (fp_post(&cons, &cmem, (size_t)i * SLOT, SLOT) != DOCA_SUCCESS)
			return false;
	return true;
}

/* The message of receive `k` is message `k` of the stream, byte for byte. */
static bool message_intact(const struct fp_done *d, uint32_t k)
{
	uint32_t seq = 0;

	memcpy(&seq, d->imm, 4);
	if (d->status != DOCA_SUCCESS || d->imm_len != 4 || seq != k || d->len != msg_len(k % MSGS))
		return false;
	for (size_t i = 0; i < d->len; i++)
		if (d->data[i] != pattern(k, i))
			return false;
	return true;
}

static void consumer_side_down(void)
{
	fp_end_fini(&cons, &srv, NULL);
	fp_mem_fini(&cmem);
	ct_teardown(&srv, NULL);
}

static void messages_cross_processes_intact_and_in_order(void)
{
	const char *name = ct_name("fp-peers");
	pid_t child = spawn_producer(name, MSGS, false);
	int seen = 0;

	REQUIRE(child > 0);
	REQUIRE(consumer_side(name, 4));
	while (seen < MSGS) {
		int before = cons.n;

		if (!FP_RUN_UNTIL(cons.n > before, &srv, (struct ct_side *)NULL, &cons, (struct fp_end *)NULL))
			break;
		for (; seen < cons.n && seen < MSGS; seen++) {
			CHECK(message_intact(&cons.done[seen], (uint32_t)seen));
			/* Give the buffer back: post it again where it was. */
			CHECK_OK(fp_post(&cons, &cmem, (size_t)(cons.done[seen].data - cmem.mem), SLOT));
		}
	}
	CHECK(seen == MSGS && cons.n_ok == MSGS);
	consumer_side_down(); /* the stop is the producer's cue to finish */
	CHECK(wait_child(child) == 0);
}

static void a_producer_killed_mid_stream_fails_the_posted_receives(void)
{
	const char *name = ct_name("fp-kill");
	pid_t child = spawn_producer(name, 3, true);

	REQUIRE(child > 0);
	REQUIRE(consumer_side(name, 4));
	/*
	 * Let three messages through and post their buffers again, so that all
	 * four receives are posted and none can be filled (the producer sends
	 * nothing more): then kill the producer.  A receive the producer filled
	 * before dying would rightly succeed, so the stream is bounded.
	 */
	CHECK(FP_RUN_UNTIL(cons.n >= 3, &srv, (struct ct_side *)NULL, &cons, (struct fp_end *)NULL));
	CHECK(cons.n == 3 && cons.n_ok == 3);
	for (int i = 0; i < cons.n; i++)
		CHECK_OK(fp_post(&cons, &cmem, (size_t)(cons.done[i].data - cmem.mem), SLOT));
	kill(child, SIGKILL);
	CHECK(wait_child(child) == 128 + SIGKILL);
	CHECK(FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_IDLE, &srv, (struct ct_side *)NULL, &cons,
			   (struct fp_end *)NULL));
	CHECK(cons.n_err >= 1 && cons.done[cons.n - 1].status != DOCA_SUCCESS);
	for (int i = 0; i < cons.n; i++)
		CHECK(cons.done[i].status == DOCA_SUCCESS || cons.done[i].status == DOCA_ERROR_NOT_CONNECTED ||
		      cons.done[i].status == DOCA_ERROR_SHUTDOWN);
	CHECK(ct_count(&srv, CT_DISCONNECT) == 1);
	consumer_side_down();
}

int main(void)
{
	SD_RUN(messages_cross_processes_intact_and_in_order);
	SD_RUN(a_producer_killed_mid_stream_fails_the_posted_receives);
	return sd_test_done();
}
