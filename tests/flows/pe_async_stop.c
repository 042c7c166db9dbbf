/*
 * pe_async_stop - stop a DMA context from inside the 8th of 16 completion
 * callbacks while 8 tasks are still in flight (B9).
 *
 * Asserted: doca_ctx_stop returns IN_PROGRESS there and fires
 * RUNNING -> STOPPING inside the call; exactly 8 tasks succeed and the
 * other 8 arrive at the error callback with DOCA_ERROR_SHUTDOWN from later
 * progress calls, never from the stop itself; the
 * in-flight counters keep counting flushed-but-unreported tasks; nothing
 * can be allocated, submitted or destroyed while STOPPING; IDLE is
 * reported by a later progress call and a second stop on the idle
 * context returns SUCCESS with no callback.
 */
#include "flows.h"

#define NUM_TASKS 16
#define STOP_AT 8

struct async_state {
	struct doca_ctx *ctx;
	struct doca_dma *dma;
	struct doca_pe *pe;
	struct flow_base *base;
	int reports;   /* successes and flushes, as the sample counts them */
	int succeeded;
	int flushed;
	int early_errors;   /* error callbacks before the stop */
	int bad_data;
	int wrong_status;
	doca_error_t stop_ret;
	int stop_callbacks_in_stop; /* state callbacks seen while inside doca_ctx_stop */
	bool in_stop;
	bool has_stopped;
	int transitions;
	enum doca_ctx_states seen[8][2];
	bool checked_stopping_rules;
	uint64_t max_success_ud;
	uint64_t min_flush_ud;
};

static void async_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			   enum doca_ctx_states next)
{
	struct async_state *st = ud.ptr;

	/* B16: the first argument is the context's user data. */
	if (st == NULL || st->ctx != ctx) {
		sd_test_case_failed = 1;
		return;
	}
	CHECK(flow_ctx_state(ctx) == next);
	if (st->transitions < 8) {
		st->seen[st->transitions][0] = prev;
		st->seen[st->transitions][1] = next;
	}
	st->transitions++;
	if (st->in_stop)
		st->stop_callbacks_in_stop++;
	if (prev == DOCA_CTX_STATE_STOPPING && next == DOCA_CTX_STATE_IDLE)
		st->has_stopped = true;
}

static void async_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct async_state *st = ctx_ud.ptr;

	st->reports++;
	st->succeeded++;
	if (doca_task_get_status(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS)
		st->wrong_status++;
	if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
		st->bad_data++;
	if (task_ud.u64 > st->max_success_ud)
		st->max_success_ud = task_ud.u64;
	flow_release_task(task);

	if (st->reports == STOP_AT) {
		st->in_stop = true;
		st->stop_ret = doca_ctx_stop(st->ctx);
		st->in_stop = false;
		/* The flushes are still to come: they stay counted as in flight. */
		CHECK(flow_ctx_state(st->ctx) == DOCA_CTX_STATE_STOPPING);
		CHECK_EQ_U64(flow_ctx_inflight(st->ctx), NUM_TASKS - STOP_AT);
		CHECK_EQ_U64(st->flushed, 0); /* B9c: no flush from inside the stop */
	}
}

/* What a STOPPING context refuses, checked once from a flush callback. */
static void async_check_stopping_rules(struct async_state *st, struct doca_dma_task_memcpy *task)
{
	struct doca_dma_task_memcpy *extra = NULL;
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);

	CHECK_ERR(doca_dma_task_memcpy_alloc_init(st->dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra),
		  DOCA_ERROR_BAD_STATE);
	CHECK(extra == NULL);
	CHECK_ERR(doca_task_submit(t), DOCA_ERROR_BAD_STATE);
	/* A failed submit leaves its code as the task status. */
	CHECK_ERR(doca_task_get_status(t), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_task_try_submit(t), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_stop(st->ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_ERR(doca_dma_destroy(st->dma), DOCA_ERROR_BAD_STATE);
	st->checked_stopping_rules = true;
}

static void async_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct async_state *st = ctx_ud.ptr;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	st->reports++;
	if (st->reports <= STOP_AT) {
		st->early_errors++;
		fprintf(stderr, "task %" PRIu64 " failed before the stop: %s\n", task_ud.u64,
			doca_error_get_name(status));
	} else {
		st->flushed++;
	}
	if (status != DOCA_ERROR_SHUTDOWN)
		st->wrong_status++;
	if (task_ud.u64 < st->min_flush_ud)
		st->min_flush_ud = task_ud.u64;
	CHECK(flow_ctx_state(st->ctx) == DOCA_CTX_STATE_STOPPING);
	/* With the default engine a flushed task never touched its destination. */
	if (flow_default_engine()) {
		struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);
		size_t data_len = 1;
		void *data = NULL;

		CHECK_OK(doca_buf_get_data_len(dst, &data_len));
		CHECK_EQ_U64(data_len, 0);
		CHECK_OK(doca_buf_get_data(dst, &data));
		for (size_t i = 0; data != NULL && i < FLOW_COPY_LEN; i++)
			if (((uint8_t *)data)[i] != 0) {
				CHECK(!"flushed task wrote its destination");
				break;
			}
	}
	if (!st->checked_stopping_rules)
		async_check_stopping_rules(st, task);
	flow_release_task(task);
}

static void async_stop_flushes_the_second_half(void)
{
	struct flow_base b;
	struct async_state st = {0};
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	int transitions_before;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	st.base = &b;
	st.pe = b.pe;
	st.min_flush_ud = UINT64_MAX;
	st.dma = flow_dma_new(&b, async_ok_cb, async_err_cb, NUM_TASKS, &st, async_state_cb);
	REQUIRE(st.dma != NULL);
	st.ctx = doca_dma_as_ctx(st.dma);

	CHECK_OK(doca_ctx_start(st.ctx));
	/* B8: IDLE -> RUNNING reported inside start, never STARTING. */
	CHECK_EQ_U64(st.transitions, 1);
	CHECK(st.seen[0][0] == DOCA_CTX_STATE_IDLE && st.seen[0][1] == DOCA_CTX_STATE_RUNNING);

	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(&b, st.dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
	}
	for (int i = 0; i < NUM_TASKS; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	CHECK_EQ_U64(st.reports, 0); /* B1 */

	flow_poll_counter(b.pe, &st.reports, NUM_TASKS);

	CHECK_ERR(st.stop_ret, DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(st.stop_callbacks_in_stop, 1); /* RUNNING -> STOPPING, inside the stop */
	CHECK_EQ_U64(st.succeeded, STOP_AT);
	CHECK_EQ_U64(st.flushed, NUM_TASKS - STOP_AT);
	CHECK_EQ_U64(st.early_errors, 0);
	CHECK_EQ_U64(st.wrong_status, 0);
	CHECK_EQ_U64(st.bad_data, 0);
	CHECK(st.checked_stopping_rules);
	/* Reports come in submission order: 1..8 succeed, 9..16 are flushed. */
	CHECK_EQ_U64(st.max_success_ud, STOP_AT);
	CHECK_EQ_U64(st.min_flush_ud, STOP_AT + 1);

	/* The last flush ended the poll loop; IDLE still needs one more call. */
	CHECK(!st.has_stopped);
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_STOPPING);
	CHECK_EQ_U64(flow_ctx_inflight(st.ctx), 0);
	CHECK_ERR(doca_ctx_stop(st.ctx), DOCA_ERROR_IN_PROGRESS); /* tasks are in flight: the stop finishes later */
	CHECK_ERR(doca_dma_destroy(st.dma), DOCA_ERROR_BAD_STATE); /* not IDLE: destroy refused */
	CHECK_EQ_U64(doca_pe_progress(b.pe), 1);
	CHECK(st.has_stopped);
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);

	/* Exactly three transitions: IDLE->RUNNING, RUNNING->STOPPING, STOPPING->IDLE. */
	CHECK_EQ_U64(st.transitions, 3);
	CHECK(st.seen[1][0] == DOCA_CTX_STATE_RUNNING && st.seen[1][1] == DOCA_CTX_STATE_STOPPING);
	CHECK(st.seen[2][0] == DOCA_CTX_STATE_STOPPING && st.seen[2][1] == DOCA_CTX_STATE_IDLE);

	/* B18: cleanup stops the idle context again: SUCCESS, no callback. */
	transitions_before = st.transitions;
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_EQ_U64(st.transitions, transitions_before);
	CHECK_OK(doca_dma_destroy(st.dma));
	flow_base_cleanup(&b);
}

/* A stop issued from main with every task still queued flushes all of them. */
static void async_stop_from_main_flushes_everything(void)
{
	struct flow_base b;
	struct async_state st = {0};
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	st.pe = b.pe;
	st.min_flush_ud = UINT64_MAX;
	/* Count from STOP_AT so every report lands in the "flushed" column. */
	st.reports = STOP_AT;
	st.dma = flow_dma_new(&b, async_ok_cb, async_err_cb, NUM_TASKS, &st, async_state_cb);
	REQUIRE(st.dma != NULL);
	st.ctx = doca_dma_as_ctx(st.dma);
	CHECK_OK(doca_ctx_start(st.ctx));
	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(&b, st.dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	}
	st.in_stop = true;
	CHECK_ERR(doca_ctx_stop(st.ctx), DOCA_ERROR_IN_PROGRESS);
	st.in_stop = false;
	CHECK_EQ_U64(st.stop_callbacks_in_stop, 1);
	CHECK_EQ_U64(flow_ctx_inflight(st.ctx), NUM_TASKS);
	CHECK_EQ_U64(st.flushed + st.early_errors + st.succeeded, 0); /* B9c */

	flow_poll_until_idle(b.pe, st.ctx);
	CHECK(st.has_stopped);
	CHECK_EQ_U64(st.succeeded, 0);
	CHECK_EQ_U64(st.early_errors, 0);
	CHECK_EQ_U64(st.flushed, NUM_TASKS);
	CHECK_EQ_U64(st.wrong_status, 0);
	CHECK_EQ_U64(st.min_flush_ud, 1);
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(st.dma));
	flow_base_cleanup(&b);
}

int main(void)
{
	SD_RUN(async_stop_flushes_the_second_half);
	SD_RUN(async_stop_from_main_flushes_everything);
	return sd_test_done();
}
