/*
 * pe_multi_context - one PE serving four DMA contexts created on the same
 * device (B15, B17).
 *
 * Asserted: user data set before the connect reaches every callback of
 * its own context; doca_task_get_ctx names the allocating context; each
 * context takes 16 outstanding tasks; reports keep per-context submission
 * order and, with the default engine, the PE's global submission order
 * (so round-robin submission is reported round-robin: nobody starves);
 * a task of one context can be submitted from another context's callback;
 * stopping one context flushes only its own tasks.
 */
#include "flows.h"

#define NUM_CTX 4
#define NUM_TASKS 16
#define TOTAL (NUM_CTX * NUM_TASKS)

struct mc_ctx {
	int index;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	int completed;
	int flushed;
	uint64_t last_ud; /* per-context order check */
	int out_of_order;
};

struct mc_state {
	struct mc_ctx c[NUM_CTX];
	int completed; /* all reports, successes and flushes */
	int bad_data;
	int wrong_ctx;
	int order[TOTAL + 8]; /* context index of each report, in report order */
	struct doca_task *cross_task; /* submitted from another context's callback */
	int cross_submit_from;
	doca_error_t cross_submit_ret;
};

static struct mc_state *mc_global;

static void mc_common(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud,
		      bool ok)
{
	struct mc_ctx *c = ctx_ud.ptr;
	struct mc_state *st = mc_global;
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);

	if (c == NULL || c < &st->c[0] || c > &st->c[NUM_CTX - 1]) {
		st->wrong_ctx++;
		sd_test_case_failed = 1;
		flow_release_task(task);
		return;
	}
	if (doca_task_get_ctx(t) != c->ctx)
		st->wrong_ctx++;
	if (st->completed < TOTAL + 8)
		st->order[st->completed] = c->index;
	st->completed++;
	if (task_ud.u64 <= c->last_ud)
		c->out_of_order++;
	c->last_ud = task_ud.u64;
	if (ok) {
		c->completed++;
		if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
			st->bad_data++;
	} else {
		c->flushed++;
		CHECK_ERR(doca_task_get_status(t), DOCA_ERROR_SHUTDOWN);
	}
	/* B17: submit another context's task from this callback, once. */
	if (st->cross_task != NULL && c->index == st->cross_submit_from) {
		st->cross_submit_ret = doca_task_submit(st->cross_task);
		st->cross_task = NULL;
	}
	flow_release_task(task);
}

static void mc_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	mc_common(task, task_ud, ctx_ud, true);
}

static void mc_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	mc_common(task, task_ud, ctx_ud, false);
}

/* The sample's set-up: user data before the connect, all connected, then all started. */
static bool mc_setup(struct flow_base *b, struct mc_state *st)
{
	memset(st, 0, sizeof(*st));
	mc_global = st;
	if (!flow_base_init(b, 128 * 1024 + 4 * 2048, 132))
		return false;
	for (int k = 0; k < NUM_CTX; k++) {
		struct mc_ctx *c = &st->c[k];

		c->index = k;
		CHECK_OK(doca_dma_create(b->dev, &c->dma));
		if (c->dma == NULL)
			return false;
		c->ctx = doca_dma_as_ctx(c->dma);
		CHECK_OK(doca_ctx_set_user_data(c->ctx, (union doca_data){.ptr = c}));
		CHECK_OK(doca_pe_connect_ctx(b->pe, c->ctx));
		CHECK_OK(doca_dma_task_memcpy_set_conf(c->dma, mc_ok_cb, mc_err_cb, NUM_TASKS));
	}
	for (int k = 0; k < NUM_CTX; k++)
		CHECK_OK(doca_ctx_start(st->c[k].ctx));
	return !sd_test_case_failed;
}

static void mc_teardown(struct flow_base *b, struct mc_state *st)
{
	for (int k = 0; k < NUM_CTX; k++) {
		if (st->c[k].dma == NULL)
			continue;
		CHECK_OK(doca_ctx_stop(st->c[k].ctx));
		CHECK(flow_ctx_state(st->c[k].ctx) == DOCA_CTX_STATE_IDLE);
		CHECK_OK(doca_dma_destroy(st->c[k].dma));
	}
	flow_base_cleanup(b);
}

/* Allocate tasks[k][i] for every context: values 1..16 in each. */
static bool mc_alloc_all(struct flow_base *b, struct mc_state *st, struct doca_dma_task_memcpy *tasks[NUM_CTX][NUM_TASKS])
{
	for (int k = 0; k < NUM_CTX; k++)
		for (int i = 0; i < NUM_TASKS; i++) {
			tasks[k][i] = flow_alloc_copy_task(b, st->c[k].dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
			if (tasks[k][i] == NULL)
				return false;
		}
	return true;
}

static void mc_four_contexts_share_one_pe(void)
{
	struct flow_base b;
	struct mc_state st;
	struct doca_dma_task_memcpy *tasks[NUM_CTX][NUM_TASKS];

	REQUIRE(mc_setup(&b, &st));
	REQUIRE(mc_alloc_all(&b, &st, tasks));
	/* Context by context, task by task, as the sample does. */
	for (int k = 0; k < NUM_CTX; k++)
		for (int i = 0; i < NUM_TASKS; i++)
			CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[k][i])));
	for (int k = 0; k < NUM_CTX; k++)
		CHECK_EQ_U64(flow_ctx_inflight(st.c[k].ctx), NUM_TASKS);
	CHECK_EQ_U64(flow_pe_inflight(b.pe), TOTAL);

	flow_poll_counter(b.pe, &st.completed, TOTAL);
	CHECK_EQ_U64(st.completed, TOTAL);
	CHECK_EQ_U64(st.bad_data, 0);
	CHECK_EQ_U64(st.wrong_ctx, 0);
	for (int k = 0; k < NUM_CTX; k++) {
		CHECK_EQ_U64(st.c[k].completed, NUM_TASKS);
		CHECK_EQ_U64(st.c[k].flushed, 0);
		CHECK_EQ_U64(st.c[k].out_of_order, 0);
	}
	/* Default engine: global FIFO, so the contexts report block by block. */
	if (flow_default_engine())
		for (int n = 0; n < TOTAL; n++)
			CHECK_EQ_U64(st.order[n], n / NUM_TASKS);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	mc_teardown(&b, &st);
}

static void mc_round_robin_submission_is_reported_fairly(void)
{
	struct flow_base b;
	struct mc_state st;
	struct doca_dma_task_memcpy *tasks[NUM_CTX][NUM_TASKS];
	int seen[NUM_CTX] = {0};

	REQUIRE(mc_setup(&b, &st));
	REQUIRE(mc_alloc_all(&b, &st, tasks));
	for (int i = 0; i < NUM_TASKS; i++)
		for (int k = 0; k < NUM_CTX; k++)
			CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[k][i])));
	flow_poll_counter(b.pe, &st.completed, TOTAL);
	CHECK_EQ_U64(st.completed, TOTAL);
	CHECK_EQ_U64(st.bad_data, 0);
	for (int k = 0; k < NUM_CTX; k++)
		CHECK_EQ_U64(st.c[k].out_of_order, 0);
	if (flow_default_engine()) {
		for (int n = 0; n < TOTAL; n++)
			CHECK_EQ_U64(st.order[n], n % NUM_CTX);
	} else {
		/*
		 * An asynchronous engine reports a context's tasks when its copies
		 * end, which depends on how its worker was scheduled; DOCA promises
		 * order within a context only.  Every context gets all its reports.
		 */
		for (int n = 0; n < TOTAL; n++)
			seen[st.order[n]]++;
		for (int k = 0; k < NUM_CTX; k++)
			CHECK_EQ_U64(seen[k], NUM_TASKS);
	}
	mc_teardown(&b, &st);
}

static void mc_task_of_one_context_submitted_from_another_callback(void)
{
	struct flow_base b;
	struct mc_state st;
	struct doca_dma_task_memcpy *a, *c;

	REQUIRE(mc_setup(&b, &st));
	a = flow_alloc_copy_task(&b, st.c[0].dma, 1, 1);
	c = flow_alloc_copy_task(&b, st.c[3].dma, 2, 2);
	REQUIRE(a != NULL && c != NULL);
	st.cross_task = doca_dma_task_memcpy_as_task(c);
	st.cross_submit_from = 0;
	st.cross_submit_ret = DOCA_ERROR_UNKNOWN;
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(a)));
	flow_poll_counter(b.pe, &st.completed, 2);
	CHECK_OK(st.cross_submit_ret);
	CHECK_EQ_U64(st.c[0].completed, 1);
	CHECK_EQ_U64(st.c[3].completed, 1);
	CHECK_EQ_U64(st.bad_data, 0);
	mc_teardown(&b, &st);
}

static void mc_stopping_one_context_leaves_the_others_running(void)
{
	struct flow_base b;
	struct mc_state st;
	struct doca_dma_task_memcpy *tasks[NUM_CTX][NUM_TASKS];

	REQUIRE(mc_setup(&b, &st));
	REQUIRE(mc_alloc_all(&b, &st, tasks));
	for (int i = 0; i < NUM_TASKS; i++)
		for (int k = 0; k < NUM_CTX; k++)
			CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[k][i])));
	CHECK_ERR(doca_ctx_stop(st.c[1].ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(flow_ctx_state(st.c[0].ctx) == DOCA_CTX_STATE_RUNNING);
	CHECK(flow_ctx_state(st.c[1].ctx) == DOCA_CTX_STATE_STOPPING);
	flow_poll_counter(b.pe, &st.completed, TOTAL);
	for (int k = 0; k < NUM_CTX; k++) {
		CHECK_EQ_U64(st.c[k].completed, k == 1 ? 0 : NUM_TASKS);
		CHECK_EQ_U64(st.c[k].flushed, k == 1 ? NUM_TASKS : 0);
	}
	CHECK_EQ_U64(st.bad_data, 0);
	/* One more unit brings context 1 to IDLE; the others stay RUNNING. */
	flow_poll_until_idle(b.pe, st.c[1].ctx);
	CHECK(flow_ctx_state(st.c[1].ctx) == DOCA_CTX_STATE_IDLE);
	for (int k = 0; k < NUM_CTX; k++)
		if (k != 1)
			CHECK(flow_ctx_state(st.c[k].ctx) == DOCA_CTX_STATE_RUNNING);
	mc_teardown(&b, &st);
}

int main(void)
{
	SD_RUN(mc_four_contexts_share_one_pe);
	SD_RUN(mc_round_robin_submission_is_reported_fairly);
	SD_RUN(mc_task_of_one_context_submitted_from_another_callback);
	SD_RUN(mc_stopping_one_context_leaves_the_others_running);
	return sd_test_done();
}
