/*
 * pe_single_task_comp_cb - one function registered as both the success
 * and the error callback, telling them apart with doca_task_get_status
 * (B4).
 *
 * Asserted: the library accepts the same pointer twice; the status read
 * inside the shared callback is DOCA_SUCCESS for every good copy, the
 * failed rule's code for a task that fails at execution and
 * DOCA_ERROR_SHUTDOWN for the tasks flushed after it; and the status
 * outside callbacks follows the task-status rule (SUCCESS after alloc, IN_PROGRESS in
 * flight, the final status after the callback, the refused code after a
 * failed submit, reset by every new submit).
 */
#include "flows.h"

#define NUM_TASKS 16

struct single_state {
	struct doca_ctx *ctx;
	int calls;
	int succeeded;
	int bad_data;
	doca_error_t status_of[NUM_TASKS + 1]; /* by user data */
	enum doca_ctx_states state_in_cb[NUM_TASKS + 1];
	bool keep_tasks; /* leave tasks allocated after the callback */
	struct doca_dma_task_memcpy *kept[NUM_TASKS + 1];
};

static void single_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct single_state *st = ctx_ud.ptr;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	uint64_t v = task_ud.u64;

	st->calls++;
	if (v < 1 || v > NUM_TASKS) {
		CHECK(!"user data out of range");
		flow_release_task(task);
		return;
	}
	st->status_of[v] = status;
	st->state_in_cb[v] = flow_ctx_state(st->ctx);
	if (status == DOCA_SUCCESS) {
		st->succeeded++;
		if (!flow_dst_holds(task, (uint8_t)v))
			st->bad_data++;
	}
	if (st->keep_tasks)
		st->kept[v] = task;
	else
		flow_release_task(task);
}

static struct doca_dma *single_setup(struct flow_base *b, struct single_state *st)
{
	struct doca_dma *dma;

	memset(st, 0, sizeof(*st));
	if (!flow_base_init(b, 32 * 1024, 32))
		return NULL;
	/* The same function for success and error: no "distinct callbacks" rule. */
	dma = flow_dma_new(b, single_cb, single_cb, NUM_TASKS, st, NULL);
	if (dma == NULL)
		return NULL;
	st->ctx = doca_dma_as_ctx(dma);
	CHECK_OK(doca_ctx_start(st->ctx));
	return dma;
}

static void single_callback_reads_success_for_good_copies(void)
{
	struct flow_base b;
	struct single_state st;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	struct doca_dma *dma = single_setup(&b, &st);

	REQUIRE(dma != NULL);
	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	}
	flow_poll_counter(b.pe, &st.calls, NUM_TASKS);
	CHECK_EQ_U64(st.calls, NUM_TASKS);
	CHECK_EQ_U64(st.succeeded, NUM_TASKS);
	CHECK_EQ_U64(st.bad_data, 0);
	for (int v = 1; v <= NUM_TASKS; v++)
		CHECK_ERR(st.status_of[v], DOCA_SUCCESS);
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

static void single_callback_reads_failure_and_flush_codes(void)
{
	const int bad = 5; /* user data of the task with an empty source */
	struct flow_base b;
	struct single_state st;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	struct doca_dma *dma = single_setup(&b, &st);

	REQUIRE(dma != NULL);
	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
	}
	CHECK_OK(doca_buf_reset_data_len(flow_unconst(doca_dma_task_memcpy_get_src(tasks[bad - 1]))));
	for (int i = 0; i < NUM_TASKS; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	flow_poll_counter(b.pe, &st.calls, NUM_TASKS);
	CHECK_EQ_U64(st.calls, NUM_TASKS);
	CHECK_EQ_U64(st.succeeded, bad - 1);
	CHECK_EQ_U64(st.bad_data, 0);
	for (int v = 1; v <= NUM_TASKS; v++) {
		doca_error_t want = v < bad ? DOCA_SUCCESS : v == bad ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_SHUTDOWN;
		enum doca_ctx_states state = v < bad ? DOCA_CTX_STATE_RUNNING : DOCA_CTX_STATE_STOPPING;

		CHECK_ERR(st.status_of[v], want);
		CHECK(st.state_in_cb[v] == state); /* every error callback sees STOPPING */
	}
	flow_poll_until_idle(b.pe, st.ctx);
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

static void single_status_follows_the_task_lifecycle(void)
{
	struct flow_base b;
	struct single_state st;
	struct doca_dma_task_memcpy *task;
	struct doca_task *t;
	struct doca_buf *dst;
	struct doca_dma *dma = single_setup(&b, &st);

	REQUIRE(dma != NULL);
	st.keep_tasks = true;
	task = flow_alloc_copy_task(&b, dma, 1, 1);
	REQUIRE(task != NULL);
	t = doca_dma_task_memcpy_as_task(task);
	CHECK_ERR(doca_task_get_status(t), DOCA_SUCCESS); /* after alloc */

	CHECK_OK(doca_task_submit(t));
	if (flow_default_engine())
		CHECK_ERR(doca_task_get_status(t), DOCA_ERROR_IN_PROGRESS); /* in flight */
	flow_poll_counter(b.pe, &st.calls, 1);
	CHECK(st.kept[1] == task);
	CHECK_ERR(doca_task_get_status(t), DOCA_SUCCESS); /* after the callback */
	CHECK_ERR(st.status_of[1], DOCA_SUCCESS);

	/* A refused submit leaves its code as the status. */
	dst = doca_dma_task_memcpy_get_dst(task);
	doca_dma_task_memcpy_set_dst(task, NULL);
	CHECK(doca_dma_task_memcpy_get_dst(task) == NULL);
	CHECK_ERR(doca_task_try_submit(t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_get_status(t), DOCA_ERROR_INVALID_VALUE);
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_RUNNING);

	/* Repair and resubmit: the status is reset by the submit. */
	doca_dma_task_memcpy_set_dst(task, dst);
	CHECK_OK(doca_buf_reset_data_len(dst));
	memset(b.mem + FLOW_COPY_LEN, 0, FLOW_COPY_LEN);
	CHECK_OK(doca_task_try_submit(t));
	if (flow_default_engine())
		CHECK_ERR(doca_task_get_status(t), DOCA_ERROR_IN_PROGRESS);
	/* Resubmitting a task that is in flight is refused. */
	CHECK_ERR(doca_task_submit(t), DOCA_ERROR_IN_USE);
	flow_poll_counter(b.pe, &st.calls, 2);
	CHECK_ERR(doca_task_get_status(t), DOCA_SUCCESS);
	CHECK(flow_dst_holds(task, 1));
	CHECK_EQ_U64(st.bad_data, 0);

	flow_release_task(task);
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

int main(void)
{
	SD_RUN(single_callback_reads_success_for_good_copies);
	SD_RUN(single_callback_reads_failure_and_flush_codes);
	SD_RUN(single_status_follows_the_task_lifecycle);
	return sd_test_done();
}
