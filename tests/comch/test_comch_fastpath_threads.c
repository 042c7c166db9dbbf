/*
 * test_comch_fastpath_threads.c - the fast path with each producer and
 * consumer on a thread of its own, as DOCA's secure_channel runs them,
 * while the main thread progresses the two endpoints.  Both sides produce
 * and consume at once, so up to four threads read and write one
 * connection; every message must arrive whole, exactly once.  Over TCP
 * (the _tcp variant) the connection is one byte stream: a frame read or
 * written by two threads at once would cut the stream and end the link.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "fastpath_test.h"

#define FT_MSGS 4000u  /* messages each way */
#define FT_SLOTS 32u   /* receives posted, and sends in flight, per side */
#define FT_LEN 256u    /* bytes per message */
#define FT_WAIT_MS 30000u

struct ft_side {
	const char *who;
	struct ct_side *ep;      /* the endpoint, progressed by the main thread */
	struct fp_mem cmem, pmem; /* the consumer's receive buffers, the producer's sources */
	atomic_uint peer_id;     /* the other side's consumer, from the new-consumer event */
	atomic_bool consumer_done, producer_done;
	/* consumer thread only */
	uint8_t seen[FT_MSGS];
	unsigned received, bad;
	/* producer thread only */
	struct doca_comch_producer_task_send *idle[FT_SLOTS];
	unsigned n_idle, completed, failed;
};

static struct ct_side srv, cli;
static struct ft_side sides[2];

static void ft_new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *conn, uint32_t id)
{
	(void)ev;
	atomic_store(&sides[ct_side_of_conn(conn) == &srv ? 0 : 1].peer_id, id);
}

static void ft_expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *conn, uint32_t id)
{
	(void)ev;
	(void)conn;
	(void)id;
}

/* Every message carries its sequence number, then bytes derived from it. */
static void ft_fill(uint8_t *p, uint32_t seq)
{
	memcpy(p, &seq, sizeof(seq));
	for (uint32_t i = sizeof(seq); i < FT_LEN; i++)
		p[i] = (uint8_t)(seq * 13 + i);
}

static bool ft_intact(const uint8_t *p, size_t len, uint32_t *seq)
{
	memcpy(seq, p, sizeof(*seq));
	if (len != FT_LEN || *seq >= FT_MSGS)
		return false;
	for (uint32_t i = sizeof(*seq); i < FT_LEN; i++)
		if (p[i] != (uint8_t)(*seq * 13 + i))
			return false;
	return true;
}

/* ---- the consumer thread ---- */

static void ft_recv_ok(struct doca_comch_consumer_task_post_recv *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct ft_side *s = ctx_ud.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	void *data = NULL;
	size_t len = 0;
	uint32_t seq = 0;

	(void)task_ud;
	doca_buf_get_data(buf, &data);
	doca_buf_get_data_len(buf, &len);
	if (ft_intact(data, len, &seq) && s->seen[seq] == 0)
		s->seen[seq] = 1;
	else
		s->bad++;
	s->received++;
	doca_buf_reset_data_len(buf);
	if (s->received < FT_MSGS && doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task)) == DOCA_SUCCESS)
		return;
	doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
}

static void ft_recv_err(struct doca_comch_consumer_task_post_recv *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(task), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
}

static enum doca_ctx_states ft_state(struct doca_ctx *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	doca_ctx_get_state(ctx, &st);
	return st;
}

/* Progress `pe` until `ctx` is in `want` or the time is up. */
static bool ft_until_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states want, uint64_t end)
{
	while (ft_state(ctx) != want && ct_now_ms() < end)
		if (doca_pe_progress(pe) == 0)
			ct_nap();
	return ft_state(ctx) == want;
}

static void ft_consumer_run(struct ft_side *s)
{
	struct doca_comch_consumer *c = NULL;
	struct doca_pe *pe = NULL;
	union doca_data ud = {.ptr = s};
	uint64_t end = ct_now_ms() + FT_WAIT_MS;

	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	REQUIRE(doca_comch_consumer_create(s->ep->conn, s->cmem.mmap, &c) == DOCA_SUCCESS);
	REQUIRE(doca_pe_connect_ctx(pe, doca_comch_consumer_as_ctx(c)) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_set_user_data(doca_comch_consumer_as_ctx(c), ud) == DOCA_SUCCESS);
	REQUIRE(doca_comch_consumer_task_post_recv_set_conf(c, ft_recv_ok, ft_recv_err, FT_SLOTS) == DOCA_SUCCESS);
	(void)doca_ctx_start(doca_comch_consumer_as_ctx(c));
	CHECK(ft_until_state(pe, doca_comch_consumer_as_ctx(c), DOCA_CTX_STATE_RUNNING, end));
	for (uint32_t i = 0; i < FT_SLOTS; i++) {
		struct doca_comch_consumer_task_post_recv *t = NULL;
		struct doca_buf *b = fp_buf(&s->cmem, (size_t)i * FT_LEN, FT_LEN, 0);

		REQUIRE(b != NULL && doca_comch_consumer_task_post_recv_alloc_init(c, b, &t) == DOCA_SUCCESS);
		REQUIRE(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)) == DOCA_SUCCESS);
	}
	while (s->received < FT_MSGS && ct_now_ms() < end)
		if (doca_pe_progress(pe) == 0)
			ct_nap();
	/* Everything arrived (or the time is up): stop, the posted receives are flushed. */
	(void)doca_ctx_stop(doca_comch_consumer_as_ctx(c));
	CHECK(ft_until_state(pe, doca_comch_consumer_as_ctx(c), DOCA_CTX_STATE_IDLE, ct_now_ms() + 5000));
	CHECK_OK(doca_comch_consumer_destroy(c));
	CHECK_OK(doca_pe_destroy(pe));
}

static void *ft_consumer_main(void *arg)
{
	struct ft_side *s = arg;

	ft_consumer_run(s);
	atomic_store(&s->consumer_done, true); /* also after a failed REQUIRE: the main thread stops waiting */
	return NULL;
}

/* ---- the producer thread ---- */

static void ft_send_done(struct doca_comch_producer_task_send *task, union doca_data ctx_ud, bool ok)
{
	struct ft_side *s = ctx_ud.ptr;

	if (ok)
		s->completed++;
	else
		s->failed++;
	s->idle[s->n_idle++] = task;
}

static void ft_send_ok(struct doca_comch_producer_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	ft_send_done(task, ctx_ud, true);
}

static void ft_send_err(struct doca_comch_producer_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	ft_send_done(task, ctx_ud, false);
}

static void ft_producer_run(struct ft_side *s)
{
	struct doca_comch_producer *p = NULL;
	struct doca_pe *pe = NULL;
	union doca_data ud = {.ptr = s};
	uint64_t end = ct_now_ms() + FT_WAIT_MS;
	uint32_t next = 0, id;

	while ((id = atomic_load(&s->peer_id)) == 0 && ct_now_ms() < end)
		ct_nap();
	REQUIRE(id != 0);
	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	REQUIRE(doca_comch_producer_create(s->ep->conn, &p) == DOCA_SUCCESS);
	REQUIRE(doca_pe_connect_ctx(pe, doca_comch_producer_as_ctx(p)) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_set_user_data(doca_comch_producer_as_ctx(p), ud) == DOCA_SUCCESS);
	REQUIRE(doca_comch_producer_task_send_set_conf(p, ft_send_ok, ft_send_err, FT_SLOTS) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(doca_comch_producer_as_ctx(p)) == DOCA_SUCCESS);
	for (uint32_t i = 0; i < FT_SLOTS; i++) {
		struct doca_buf *b = fp_buf(&s->pmem, (size_t)i * FT_LEN, FT_LEN, FT_LEN);

		REQUIRE(b != NULL);
		REQUIRE(doca_comch_producer_task_send_alloc_init(p, b, NULL, 0, id, &s->idle[i]) == DOCA_SUCCESS);
	}
	s->n_idle = FT_SLOTS;
	while (s->completed + s->failed < FT_MSGS && ct_now_ms() < end) {
		if (next < FT_MSGS && s->n_idle > 0) {
			struct doca_comch_producer_task_send *t = s->idle[s->n_idle - 1];
			struct doca_buf *b = (struct doca_buf *)doca_comch_producer_task_send_get_buf(t);
			void *data = NULL;
			doca_error_t err;

			doca_buf_get_data(b, &data);
			ft_fill(data, next);
			err = doca_task_submit(doca_comch_producer_task_send_as_task(t));
			if (err == DOCA_SUCCESS) {
				s->n_idle--;
				next++;
				continue;
			}
			if (err != DOCA_ERROR_AGAIN) {
				CHECK_OK(err);
				break;
			}
		}
		if (doca_pe_progress(pe) == 0)
			ct_nap();
	}
	CHECK(s->completed == FT_MSGS && s->failed == 0);
	while (s->n_idle > 0) {
		struct doca_comch_producer_task_send *t = s->idle[--s->n_idle];

		doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
		doca_task_free(doca_comch_producer_task_send_as_task(t));
	}
	(void)doca_ctx_stop(doca_comch_producer_as_ctx(p));
	CHECK(ft_until_state(pe, doca_comch_producer_as_ctx(p), DOCA_CTX_STATE_IDLE, ct_now_ms() + 5000));
	CHECK_OK(doca_comch_producer_destroy(p));
	CHECK_OK(doca_pe_destroy(pe));
}

static void *ft_producer_main(void *arg)
{
	struct ft_side *s = arg;

	ft_producer_run(s);
	atomic_store(&s->producer_done, true);
	return NULL;
}

static bool ft_all_done(void)
{
	for (int i = 0; i < 2; i++)
		if (!atomic_load(&sides[i].consumer_done) || !atomic_load(&sides[i].producer_done))
			return false;
	return true;
}

static void messages_both_ways_with_producers_and_consumers_on_threads_of_their_own(void)
{
	const char *name = ct_name("threads");
	pthread_t th[4];
	uint64_t end;

	memset(sides, 0, sizeof(sides));
	REQUIRE(ct_server_setup(&srv, name, 8) && ct_client_setup(&cli, name, 8));
	REQUIRE(doca_comch_server_event_consumer_register(srv.server, ft_new_consumer, ft_expired_consumer) ==
		DOCA_SUCCESS);
	REQUIRE(doca_comch_client_event_consumer_register(cli.client, ft_new_consumer, ft_expired_consumer) ==
		DOCA_SUCCESS);
	REQUIRE(ct_connect_pair(&srv, &cli));
	sides[0] = (struct ft_side){.who = "server", .ep = &srv};
	sides[1] = (struct ft_side){.who = "client", .ep = &cli};
	for (int i = 0; i < 2; i++)
		REQUIRE(fp_mem_init(&sides[i].cmem, sides[i].ep->dev, FT_SLOTS * FT_LEN) &&
			fp_mem_init(&sides[i].pmem, sides[i].ep->dev, FT_SLOTS * FT_LEN));
	for (int i = 0; i < 2; i++) {
		REQUIRE(pthread_create(&th[2 * i], NULL, ft_consumer_main, &sides[i]) == 0);
		REQUIRE(pthread_create(&th[2 * i + 1], NULL, ft_producer_main, &sides[i]) == 0);
	}
	/* The endpoints' own PEs: new-consumer events, frames left for them. */
	end = ct_now_ms() + FT_WAIT_MS + 10000;
	while (!ft_all_done() && ct_now_ms() < end)
		if (ct_progress(&srv) + ct_progress(&cli) == 0)
			ct_nap();
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		unsigned missing = 0;

		for (uint32_t seq = 0; seq < FT_MSGS; seq++)
			missing += sides[i].seen[seq] == 0;
		if (sides[i].received != FT_MSGS || sides[i].bad != 0 || missing != 0)
			fprintf(stderr, "%s consumer: %u received, %u damaged or twice, %u missing\n", sides[i].who,
				sides[i].received, sides[i].bad, missing);
		CHECK(sides[i].received == FT_MSGS && sides[i].bad == 0 && missing == 0);
		CHECK(sides[i].completed == FT_MSGS && sides[i].failed == 0);
	}
	for (int i = 0; i < 2; i++) {
		fp_mem_fini(&sides[i].cmem);
		fp_mem_fini(&sides[i].pmem);
	}
	ct_teardown_pair(&srv, &cli);
}

int main(void)
{
	SD_RUN(messages_both_ways_with_producers_and_consumers_on_threads_of_their_own);
	return sd_test_done();
}
