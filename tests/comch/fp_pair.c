/*
 * fp_pair - a Comch fast-path consumer and producer as two programs, each
 * sleeping in epoll on its PE's notification handle between events, as an
 * event-driven application would.  Used on one machine (mode "both": the
 * producer is a child process) and across two namespaces
 * (tests/netns/test_netns_comch_fp.sh runs each side in its own namespace).
 *
 *   fp_pair consumer NAME COUNT [never]
 *       A server on 03:00.0 with one PE for the server and a consumer of 4
 *       posted receives of 64 KiB.  Receives COUNT messages (0: until the
 *       link ends), checks each byte, the immediate data (the sequence
 *       number) and the order, posts each buffer again, and sleeps on the
 *       handle whenever there is nothing to progress; a sleep of 10 s without
 *       a wake-up fails.  Prints "ok received COUNT wakes=N", or with COUNT 0
 *       "lost after_ms=X" once the posted receives fail (X: since the last
 *       message).  With "never" it posts nothing, holds 1.5 s, stops the
 *       consumer and prints "ok never posted".
 *   fp_pair producer NAME COUNT [never]
 *       A client on b1:00.0 that waits for the consumer and sends COUNT
 *       messages of 1 byte to 64 KiB (0: until a send fails), each submit
 *       retried while it answers DOCA_ERROR_AGAIN, and sleeps on its handle
 *       until each send completes.  Prints "ok sent COUNT" once the consumer
 *       expired (or its side closed the link); with COUNT 0, "lost ERROR
 *       after_ms=X" once a send fails (X: since the last one that worked).
 *       With "never" it expects only DOCA_ERROR_AGAIN until the consumer
 *       expires, then DOCA_ERROR_NOT_FOUND ("ok never again=N").
 *   fp_pair both NAME COUNT [never|own-pe]
 *       The two of them on this machine (the producer forked).  With
 *       "own-pe" the consumer runs on a PE of its own, and while it
 *       receives only that PE is progressed and slept on: the server's PE
 *       (the connection's) is left alone, as a program that gives each
 *       fast-path object its own PE and thread would.
 * Exit 0 on the expected outcome.
 */
#include <errno.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/wait.h>

#include "fastpath_test.h"

#define SLOT (64u * 1024u)
#define POSTS 4u
#define SLEEP_MS 10000

static struct ct_side side;
static struct fp_mem mem;
static struct doca_comch_consumer *consumer;
static struct doca_comch_producer *producer;
static struct doca_ctx *fp_ctx;
static int epfd = -1;
static struct doca_pe *own_pe;   /* "own-pe": the consumer's PE, else NULL */
static struct doca_pe *sleep_pe; /* the PE that wait_for progresses and sleeps on */
static uint32_t received, sent, failed, wakes;
static uint64_t last_ms;
static doca_error_t last_err = DOCA_SUCCESS;

static uint8_t pattern(uint32_t seq, size_t i)
{
	return (uint8_t)(seq * 131u + i * 7u + 1u);
}

static uint32_t msg_len(uint32_t seq)
{
	return seq % 7 == 0 ? SLOT : (seq * 4099u) % SLOT + 1u;
}

/* Arm the PE and sleep on its handle; false when no wake-up came within SLEEP_MS. */
static bool sleep_on_handle(void)
{
	struct epoll_event ev;
	int n;

	if (doca_pe_request_notification(sleep_pe) != DOCA_SUCCESS)
		return false;
	do {
		n = epoll_wait(epfd, &ev, 1, SLEEP_MS);
	} while (n < 0 && errno == EINTR);
	if (doca_pe_clear_notification(sleep_pe, 0) != DOCA_SUCCESS)
		return false;
	wakes += n == 1;
	return n == 1;
}

/* Progress while there is work; sleep on the handle when there is none, until `done` holds. */
static bool wait_for(bool (*done)(void))
{
	while (!done()) {
		if (doca_pe_progress(sleep_pe))
			continue;
		if (!done() && !sleep_on_handle())
			return false;
	}
	return true;
}

static bool sleep_setup(void)
{
	doca_notification_handle_t h = -1;
	struct epoll_event ev = {.events = EPOLLIN};

	sleep_pe = own_pe != NULL ? own_pe : side.pe;
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0 || doca_pe_get_notification_handle(sleep_pe, &h) != DOCA_SUCCESS)
		return false;
	ev.data.fd = (int)h;
	return epoll_ctl(epfd, EPOLL_CTL_ADD, (int)h, &ev) == 0;
}

/* ---- consumer ---- */

static void recv_done(struct doca_comch_consumer_task_post_recv *task, union doca_data tud, union doca_data cud)
{
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	const uint8_t *imm = doca_comch_consumer_task_post_recv_get_imm_data(task);
	uint8_t *data = NULL;
	size_t len = 0;
	uint32_t seq = UINT32_MAX;

	(void)tud, (void)cud;
	doca_buf_get_data(buf, (void **)&data);
	doca_buf_get_data_len(buf, &len);
	if (imm != NULL && doca_comch_consumer_task_post_recv_get_imm_data_len(task) == 4)
		memcpy(&seq, imm, 4);
	CHECK(seq == received && len == msg_len(seq));
	for (size_t i = 0; i < len && seq == received; i++)
		if (data[i] != pattern(seq, i)) {
			CHECK(!"a byte of the message differs");
			break;
		}
	received++;
	last_ms = ct_now_ms();
	/* Lend the buffer again. */
	doca_buf_reset_data_len(buf);
	CHECK_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task)));
}

static void recv_failed(struct doca_comch_consumer_task_post_recv *task, union doca_data tud, union doca_data cud)
{
	(void)tud, (void)cud;
	failed++;
	last_err = doca_task_get_status(doca_comch_consumer_task_post_recv_as_task(task));
	doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(task), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
}

static enum doca_ctx_states fp_ctx_state(void)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	doca_ctx_get_state(fp_ctx, &st);
	return st;
}

/* Progress the server's PE and the consumer's own one (set up and tear down); true when either did work. */
static bool progress_both(void)
{
	bool a = doca_pe_progress(side.pe) != 0;
	bool b = own_pe != NULL && doca_pe_progress(own_pe) != 0;

	return a || b;
}

/* Server up, a client connected, the consumer RUNNING on the server's PE (or its own). */
static bool consumer_up(const char *name, bool own)
{
	if (own && doca_pe_create(&own_pe) != DOCA_SUCCESS)
		return false;
	if (!ct_server_setup(&side, name, 8) || doca_ctx_start(side.ctx) != DOCA_SUCCESS ||
	    !ct_wait_events(&side, NULL, &side, CT_CONNECT, 1) || !sleep_setup() || !fp_mem_init(&mem, side.dev, POSTS * SLOT))
		return false;
	if (doca_comch_consumer_create(side.conn, mem.mmap, &consumer) != DOCA_SUCCESS)
		return false;
	fp_ctx = doca_comch_consumer_as_ctx(consumer);
	if (doca_pe_connect_ctx(sleep_pe, fp_ctx) != DOCA_SUCCESS ||
	    doca_comch_consumer_task_post_recv_set_conf(consumer, recv_done, recv_failed, POSTS) != DOCA_SUCCESS ||
	    doca_comch_consumer_set_imm_data_len(consumer, 4) != DOCA_SUCCESS ||
	    doca_ctx_start(fp_ctx) != DOCA_ERROR_IN_PROGRESS)
		return false;
	return true;
}

static bool consumer_running(void)
{
	uint64_t end = ct_now_ms() + 10000;

	while (fp_ctx_state() != DOCA_CTX_STATE_RUNNING && ct_now_ms() < end)
		if (!progress_both())
			ct_nap();
	return fp_ctx_state() == DOCA_CTX_STATE_RUNNING;
}

static bool consumer_post_all(void)
{
	for (uint32_t i = 0; i < POSTS; i++) {
		struct doca_comch_consumer_task_post_recv *t = NULL;
		struct doca_buf *b = fp_buf(&mem, (size_t)i * SLOT, SLOT, 0);

		if (b == NULL || doca_comch_consumer_task_post_recv_alloc_init(consumer, b, &t) != DOCA_SUCCESS ||
		    doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)) != DOCA_SUCCESS)
			return false;
	}
	return true;
}

/* Stop the consumer or producer and wait until it is IDLE. */
static void fp_ctx_down(void)
{
	uint64_t end = ct_now_ms() + 10000;

	if (fp_ctx_state() != DOCA_CTX_STATE_IDLE)
		(void)doca_ctx_stop(fp_ctx);
	while (fp_ctx_state() != DOCA_CTX_STATE_IDLE && ct_now_ms() < end)
		if (!progress_both())
			ct_nap();
	CHECK(fp_ctx_state() == DOCA_CTX_STATE_IDLE);
}

static void consumer_down(void)
{
	fp_ctx_down();
	/* Hold the link a moment, so the withdrawal is read before the close. */
	for (uint64_t end = ct_now_ms() + 300; ct_now_ms() < end;)
		if (!progress_both())
			ct_nap();
	CHECK_OK(doca_comch_consumer_destroy(consumer));
	if (own_pe != NULL)
		CHECK_OK(doca_pe_destroy(own_pe));
	fp_mem_fini(&mem);
	ct_teardown(&side, NULL);
}

static uint32_t want;

static bool consumer_done(void)
{
	return failed != 0 || (want != 0 && received >= want);
}

static int run_consumer(const char *name, uint32_t count, bool never, bool own)
{
	if (!consumer_up(name, own) || !consumer_running()) {
		printf("failed: consumer did not start\n");
		return 2;
	}
	if (never) {
		uint64_t end = ct_now_ms() + 1500;

		while (ct_now_ms() < end)
			if (!doca_pe_progress(side.pe))
				ct_nap();
		CHECK(received == 0 && failed == 0);
		consumer_down();
		printf("ok never posted\n");
		return sd_test_case_failed ? 1 : 0;
	}
	if (!consumer_post_all())
		return 3;
	printf("receiving\n");
	fflush(stdout);
	last_ms = ct_now_ms();
	want = count;
	if (!wait_for(consumer_done)) {
		printf("failed: no wake-up within %d ms after %u messages\n", SLEEP_MS, received);
		return 4;
	}
	if (count == 0)
		printf("lost %s after_ms=%llu received=%u\n", doca_error_get_name(last_err),
		       (unsigned long long)(ct_now_ms() - last_ms), received);
	else
		printf("ok received %u wakes=%u\n", received, wakes);
	consumer_down();
	return sd_test_case_failed ? 1 : 0;
}

/* ---- producer ---- */

static void send_done(struct doca_comch_producer_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)tud, (void)cud;
	last_err = doca_task_get_status(doca_comch_producer_task_send_as_task(task));
	if (last_err == DOCA_SUCCESS) {
		sent++;
		last_ms = ct_now_ms();
	} else {
		failed++;
	}
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(task), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(task));
}

static bool producer_up(const char *name)
{
	memset(&fp_cli_events, 0, sizeof(fp_cli_events));
	if (!ct_client_setup(&side, name, 8) ||
	    doca_comch_client_event_consumer_register(side.client, fp_new_consumer, fp_expired_consumer) !=
		    DOCA_SUCCESS ||
	    doca_ctx_start(side.ctx) != DOCA_ERROR_IN_PROGRESS || !ct_run_until(&side, NULL, ct_is_running, &side, 20000) ||
	    doca_comch_client_get_connection(side.client, &side.conn) != DOCA_SUCCESS || !sleep_setup())
		return false;
	for (uint64_t end = ct_now_ms() + 20000; fp_cli_events.n_new == 0 && ct_now_ms() < end;)
		if (!doca_pe_progress(side.pe))
			ct_nap();
	if (fp_cli_events.n_new == 0 || !fp_mem_init(&mem, side.dev, SLOT) ||
	    doca_comch_producer_create(side.conn, &producer) != DOCA_SUCCESS)
		return false;
	fp_ctx = doca_comch_producer_as_ctx(producer);
	return doca_pe_connect_ctx(side.pe, fp_ctx) == DOCA_SUCCESS &&
	       doca_comch_producer_task_send_set_conf(producer, send_done, send_done, 4) == DOCA_SUCCESS &&
	       doca_ctx_start(fp_ctx) == DOCA_SUCCESS;
}

/* Submit, answering AGAIN by progressing (the consumer's posts arrive so over TCP). */
static doca_error_t submit_retry(struct doca_comch_producer_task_send *t, uint32_t *again)
{
	uint64_t end = ct_now_ms() + 20000;
	doca_error_t err;

	while ((err = doca_task_submit(doca_comch_producer_task_send_as_task(t))) == DOCA_ERROR_AGAIN &&
	       ct_now_ms() < end) {
		(*again)++;
		if (!doca_pe_progress(side.pe))
			ct_nap();
	}
	return err;
}

static int run_never(uint32_t cid)
{
	struct doca_comch_producer_task_send *t = NULL;
	struct doca_buf *b = fp_buf(&mem, 0, 16, 16);
	uint32_t again = 0;
	doca_error_t err = DOCA_ERROR_AGAIN;

	if (b == NULL || doca_comch_producer_task_send_alloc_init(producer, b, NULL, 0, cid, &t) != DOCA_SUCCESS)
		return 5;
	for (uint64_t end = ct_now_ms() + 20000; err == DOCA_ERROR_AGAIN && ct_now_ms() < end;) {
		err = doca_task_submit(doca_comch_producer_task_send_as_task(t));
		again += err == DOCA_ERROR_AGAIN;
		doca_pe_progress(side.pe);
		ct_nap();
	}
	/* The send may see the consumer gone before the expired-consumer event is delivered: progress for it. */
	for (uint64_t end = ct_now_ms() + 20000; fp_cli_events.n_expired == 0 && ct_now_ms() < end;)
		if (!doca_pe_progress(side.pe))
			ct_nap();
	CHECK(err == DOCA_ERROR_NOT_FOUND && fp_cli_events.n_expired == 1 && again > 0);
	printf("ok never again=%u then %s\n", again, doca_error_get_name(err));
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
	return sd_test_case_failed ? 1 : 0;
}

static bool producer_sent(void)
{
	return sent + failed >= want;
}

/*
 * The consumer's stop reached us, or its side closed the link right after
 * it (over TCP a close can overtake the withdrawal frame, which then is
 * never read: a link that ends withdraws every consumer silently).
 */
static bool consumer_expired(void)
{
	return fp_cli_events.n_expired != 0 || ct_state(&side) != DOCA_CTX_STATE_RUNNING;
}

/*
 * Send message `seq` and sleep until it completed.  Its outcome: the
 * submit's refusal, the send's own status, or DOCA_ERROR_TIME_OUT when the
 * armed PE was not woken.
 */
static doca_error_t send_one(uint32_t seq, uint32_t cid, uint32_t *again)
{
	uint32_t len = msg_len(seq);
	struct doca_comch_producer_task_send *t = NULL;
	struct doca_buf *b;
	doca_error_t err;

	for (size_t i = 0; i < len; i++)
		mem.mem[i] = pattern(seq, i);
	b = fp_buf(&mem, 0, len, len);
	if (b == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = doca_comch_producer_task_send_alloc_init(producer, b, (uint8_t *)&seq, 4, cid, &t);
	if (err == DOCA_SUCCESS)
		err = submit_retry(t, again);
	if (err != DOCA_SUCCESS) {
		doca_buf_dec_refcount(b, NULL);
		if (t != NULL)
			doca_task_free(doca_comch_producer_task_send_as_task(t));
		return err;
	}
	/* Armed right after the submit: the finished send must wake the PE. */
	if (!sleep_on_handle())
		return DOCA_ERROR_TIME_OUT;
	want = seq + 1;
	if (!wait_for(producer_sent))
		return DOCA_ERROR_TIME_OUT;
	return failed != 0 ? last_err : DOCA_SUCCESS;
}

static int run_producer(const char *name, uint32_t count, bool never)
{
	uint32_t cid, again = 0;

	if (!producer_up(name)) {
		printf("failed: producer did not start\n");
		return 2;
	}
	cid = fp_cli_events.new_ids[0];
	if (never)
		return run_never(cid);
	last_ms = ct_now_ms();
	for (uint32_t seq = 0; count == 0 || seq < count; seq++) {
		doca_error_t err = send_one(seq, cid, &again);

		if (err != DOCA_SUCCESS && count == 0) {
			/* The stream runs until the consumer's side dies: say how and how soon. */
			printf("lost %s after_ms=%llu sent=%u\n", doca_error_get_name(err),
			       (unsigned long long)(ct_now_ms() - last_ms), sent);
			return sent > 0 ? 0 : 9;
		}
		if (err != DOCA_SUCCESS) {
			printf("failed: send %u: %s\n", seq, doca_error_get_name(err));
			return 6;
		}
	}
	if (!wait_for(consumer_expired))
		printf("failed: the consumer never expired\n");
	CHECK(fp_cli_events.n_expired <= 1 && sent == count);
	printf("ok sent %u again=%u wakes=%u\n", sent, again, wakes);
	fp_ctx_down();
	CHECK_OK(doca_comch_producer_destroy(producer));
	fp_mem_fini(&mem);
	ct_teardown(&side, NULL);
	return sd_test_case_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	uint32_t count;
	bool never, own;

	if (argc < 4) {
		fprintf(stderr, "usage: fp_pair consumer|producer|both NAME COUNT [never]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	count = (uint32_t)strtoul(argv[3], NULL, 10);
	never = argc > 4 && strcmp(argv[4], "never") == 0;
	own = argc > 4 && strcmp(argv[4], "own-pe") == 0;
	if (strcmp(argv[1], "consumer") == 0)
		return run_consumer(argv[2], count, never, own);
	if (strcmp(argv[1], "producer") == 0)
		return run_producer(argv[2], count, never);
	if (strcmp(argv[1], "both") == 0) {
		pid_t child = fork();
		int st = 0, rc;

		if (child == 0)
			_exit(run_producer(argv[2], count, never));
		rc = run_consumer(argv[2], count, never, own);
		if (rc != 0)
			kill(child, SIGKILL);
		if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return rc != 0 ? rc : 10;
		return rc;
	}
	return 2;
}
