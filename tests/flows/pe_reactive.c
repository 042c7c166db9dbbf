/*
 * pe_reactive - all work is driven from callbacks (B8, B11).
 *
 * The RUNNING callback (fired inside doca_ctx_start) allocates and submits
 * the 16 tasks; the 16th completion callback stops the context, which must
 * answer IN_PROGRESS and report RUNNING -> STOPPING at once; a LATER
 * progress call reports STOPPING -> IDLE, and that callback destroys the
 * DMA instance; the PE is then destroyed.  Also asserted: STARTING is
 * never reported, progress and doca_pe_destroy called from inside a
 * callback do nothing (0 / IN_USE), a stop made in the RUNNING callback
 * fired by doca_ctx_start completes synchronously, and a destroy inside
 * the IDLE callback of a synchronous stop is safe.
 */
#include "flows.h"

#define NUM_TASKS 16

struct reactive_state {
	struct flow_base *base;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	volatile bool run;
	int completed;
	int failed;
	int bad_data;
	int starting_seen;
	int alloc_failures;
	int submit_failures;
	doca_error_t stop_ret;
	doca_error_t destroy_ret;
	doca_error_t pe_destroy_in_cb;
	int progress_in_cb; /* what doca_pe_progress returned from inside a callback */
	unsigned long call;             /* index of the current progress call */
	unsigned long last_task_call;   /* call that delivered the 16th report */
	unsigned long idle_call;        /* call that delivered STOPPING -> IDLE */
	int transitions;
	enum doca_ctx_states order[8];
	/* variants */
	enum { RUNNING_SUBMIT, RUNNING_STOP, RUNNING_DO_NOTHING } running_action;
	doca_error_t stop_in_running_ret;
	bool destroy_in_idle;
	bool probe_pe_destroy;
};

static struct reactive_state *rs;

static void reactive_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct reactive_state *st = ctx_ud.ptr;

	st->completed++;
	if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
		st->bad_data++;
	if (st->completed == 1)
		st->progress_in_cb = doca_pe_progress(st->base->pe);
	flow_release_task(task);
	if (st->completed == NUM_TASKS) {
		st->last_task_call = st->call;
		/* The 16th task is already freed and nothing is outstanding. */
		CHECK_EQ_U64(flow_ctx_inflight(st->ctx), 0);
		st->stop_ret = doca_ctx_stop(st->ctx);
		CHECK(flow_ctx_state(st->ctx) == DOCA_CTX_STATE_STOPPING);
	}
}

static void reactive_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct reactive_state *st = ctx_ud.ptr;

	(void)task_ud;
	st->failed++;
	flow_release_task(task);
}

static void reactive_submit_all(struct reactive_state *st)
{
	for (int i = 0; i < NUM_TASKS; i++) {
		struct doca_dma_task_memcpy *t =
			flow_alloc_copy_task(st->base, st->dma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		if (t == NULL) {
			st->alloc_failures++;
			st->run = false;
			return;
		}
		if (doca_task_submit(doca_dma_task_memcpy_as_task(t)) != DOCA_SUCCESS) {
			st->submit_failures++;
			flow_release_task(t);
			st->run = false;
			return;
		}
	}
}

static void reactive_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			      enum doca_ctx_states next)
{
	struct reactive_state *st = ud.ptr;

	(void)prev;
	CHECK(st == rs);
	CHECK(ctx == st->ctx);
	if (st->transitions < 8)
		st->order[st->transitions] = next;
	st->transitions++;
	switch (next) {
	case DOCA_CTX_STATE_STARTING:
		st->starting_seen++;
		break;
	case DOCA_CTX_STATE_RUNNING:
		/* B8: already RUNNING, so allocation and submission work here. */
		CHECK(flow_ctx_state(ctx) == DOCA_CTX_STATE_RUNNING);
		if (st->running_action == RUNNING_STOP)
			st->stop_in_running_ret = doca_ctx_stop(ctx);
		else if (st->running_action == RUNNING_SUBMIT)
			reactive_submit_all(st);
		break;
	case DOCA_CTX_STATE_STOPPING:
		break;
	case DOCA_CTX_STATE_IDLE:
		st->idle_call = st->call;
		if (!st->destroy_in_idle)
			break;
		/* The PE refuses destruction from inside its own callback. */
		if (st->probe_pe_destroy)
			st->pe_destroy_in_cb = doca_pe_destroy(st->base->pe);
		st->destroy_ret = doca_dma_destroy(st->dma);
		st->dma = NULL;
		st->ctx = NULL;
		st->run = false;
		break;
	}
}

static void reactive_init(struct flow_base *b, struct reactive_state *st)
{
	memset(st, 0, sizeof(*st));
	rs = st;
	st->base = b;
	st->run = true;
	st->destroy_in_idle = true;
	st->probe_pe_destroy = true;
	st->running_action = RUNNING_SUBMIT;
	st->pe_destroy_in_cb = DOCA_ERROR_UNKNOWN;
	st->destroy_ret = DOCA_ERROR_UNKNOWN;
	st->stop_ret = DOCA_ERROR_UNKNOWN;
	st->progress_in_cb = -1;
}

static void reactive_everything_runs_from_callbacks(void)
{
	struct flow_base b;
	struct reactive_state st;
	double deadline;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	reactive_init(&b, &st);
	st.dma = flow_dma_new(&b, reactive_ok_cb, reactive_err_cb, NUM_TASKS, &st, reactive_state_cb);
	REQUIRE(st.dma != NULL);
	st.ctx = doca_dma_as_ctx(st.dma);

	CHECK_OK(doca_ctx_start(st.ctx));
	/* The tasks were allocated and submitted inside the start. */
	CHECK_EQ_U64(st.transitions, 1);
	CHECK_EQ_U64(st.alloc_failures + st.submit_failures, 0);
	CHECK_EQ_U64(flow_ctx_inflight(st.ctx), NUM_TASKS);
	CHECK_EQ_U64(st.completed, 0);

	deadline = flow_now() + FLOW_DEADLINE_SEC;
	while (st.run) {
		st.call++;
		if (doca_pe_progress(b.pe) == 0 && flow_now() > deadline) {
			CHECK(!"the IDLE callback never came");
			break;
		}
	}
	CHECK_EQ_U64(st.completed, NUM_TASKS);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_EQ_U64(st.bad_data, 0);
	CHECK_EQ_U64(st.starting_seen, 0);
	CHECK_EQ_U64(st.progress_in_cb, 0); /* progress is never nested */
	/* A stop inside a progress callback never completes in place. */
	CHECK_ERR(st.stop_ret, DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(st.transitions, 3);
	CHECK(st.order[0] == DOCA_CTX_STATE_RUNNING);
	CHECK(st.order[1] == DOCA_CTX_STATE_STOPPING);
	CHECK(st.order[2] == DOCA_CTX_STATE_IDLE);
	/* IDLE came from the very next progress call, not the one reporting task 16. */
	CHECK_EQ_U64(st.idle_call, st.last_task_call + 1);
	CHECK_ERR(st.pe_destroy_in_cb, DOCA_ERROR_IN_USE);
	CHECK_OK(st.destroy_ret);
	CHECK(st.dma == NULL);
	/* The destroyed context is gone from the PE: nothing left to do. */
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	CHECK_EQ_U64(flow_pe_inflight(b.pe), 0);
	flow_base_cleanup(&b); /* doca_pe_destroy must succeed now */
}

static void reactive_stop_inside_running_callback_of_start(void)
{
	struct flow_base b;
	struct reactive_state st;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	reactive_init(&b, &st);
	st.running_action = RUNNING_STOP;
	st.destroy_in_idle = false;
	st.stop_in_running_ret = DOCA_ERROR_UNKNOWN;
	st.dma = flow_dma_new(&b, reactive_ok_cb, reactive_err_cb, NUM_TASKS, &st, reactive_state_cb);
	REQUIRE(st.dma != NULL);
	st.ctx = doca_dma_as_ctx(st.dma);

	/* Start still returns SUCCESS; the nested stop is synchronous. */
	CHECK_OK(doca_ctx_start(st.ctx));
	CHECK_OK(st.stop_in_running_ret);
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(st.transitions, 3);
	CHECK(st.order[0] == DOCA_CTX_STATE_RUNNING);
	CHECK(st.order[1] == DOCA_CTX_STATE_STOPPING);
	CHECK(st.order[2] == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	CHECK_OK(doca_dma_destroy(st.dma));
	flow_base_cleanup(&b);
}

static void reactive_destroy_inside_idle_callback_of_sync_stop(void)
{
	struct flow_base b;
	struct reactive_state st;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	reactive_init(&b, &st);
	st.running_action = RUNNING_DO_NOTHING;
	st.probe_pe_destroy = false;
	st.dma = flow_dma_new(&b, reactive_ok_cb, reactive_err_cb, NUM_TASKS, &st, reactive_state_cb);
	REQUIRE(st.dma != NULL);
	st.ctx = doca_dma_as_ctx(st.dma);
	CHECK_OK(doca_ctx_start(st.ctx));
	/* Outside callbacks, nothing allocated: STOPPING and IDLE inside the call,
	 * and the IDLE callback (the stop's last action) destroys the instance. */
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK(st.dma == NULL);
	CHECK_OK(st.destroy_ret);
	CHECK_EQ_U64(st.transitions, 3);
	CHECK(st.order[2] == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	flow_base_cleanup(&b);
}

int main(void)
{
	SD_RUN(reactive_everything_runs_from_callbacks);
	SD_RUN(reactive_stop_inside_running_callback_of_start);
	SD_RUN(reactive_destroy_inside_idle_callback_of_sync_stop);
	return sd_test_done();
}
