/*
 * pe_polling - the baseline PE flow: one DMA context, 16 copies of 1 KiB,
 * submitted at once and reported by a busy doca_pe_progress loop.  Beyond what
 * the sample logs, it asserts every destination
 * byte and length, the task pool size, the in-flight counters, the task
 * statuses before and after submission, that no callback runs inside a
 * submit, the synchronous cleanup stop and a restart of the same context.
 */
#include "flows.h"

#define NUM_TASKS 16

struct polling_state {
	int completed;
	int failed;
	int bad_data;
	int wrong_ctx_ud;
	int inflight_wrong;
	int submitted; /* submits that returned SUCCESS so far */
	struct doca_ctx *ctx;
	struct doca_pe *pe;
};

static void polling_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct polling_state *st = ctx_ud.ptr;
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	union doca_data cud = {.u64 = 0};

	if (st == NULL || st->ctx == NULL) {
		sd_test_case_failed = 1;
		return;
	}
	st->completed++;
	CHECK_ERR(doca_task_get_status(t), DOCA_SUCCESS);
	CHECK(doca_task_get_ctx(t) == st->ctx);
	CHECK_OK(doca_ctx_get_user_data(st->ctx, &cud));
	if (cud.ptr != ctx_ud.ptr)
		st->wrong_ctx_ud++;
	CHECK_EQ_U64(doca_task_get_user_data(t).u64, task_ud.u64);
	if (task_ud.u64 < 1 || task_ud.u64 > NUM_TASKS || !flow_dst_holds(task, (uint8_t)task_ud.u64))
		st->bad_data++;
	/* The reported task is no longer counted as in flight. */
	if (flow_ctx_inflight(st->ctx) != (size_t)(st->submitted - st->completed - st->failed))
		st->inflight_wrong++;
	flow_release_task(task);
}

static void polling_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct polling_state *st = ctx_ud.ptr;

	(void)task_ud;
	fprintf(stderr, "unexpected task error: %s\n",
		doca_error_get_name(doca_task_get_status(doca_dma_task_memcpy_as_task(task))));
	if (st != NULL)
		st->failed++;
	flow_release_task(task);
}

/* Allocate, submit and reap NUM_TASKS copies on a started context. */
static void polling_run_batch(struct flow_base *b, struct doca_dma *dma, struct polling_state *st)
{
	struct doca_dma_task_memcpy *tasks[NUM_TASKS] = {0};
	struct doca_dma_task_memcpy *extra = NULL;
	unsigned long busy;

	b->next_off = 0;
	st->completed = st->failed = st->submitted = 0;
	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
	}
	/* B20: the pool holds exactly NUM_TASKS tasks. */
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra),
		  DOCA_ERROR_NO_MEMORY);

	for (int i = 0; i < NUM_TASKS; i++) {
		struct doca_task *t = doca_dma_task_memcpy_as_task(tasks[i]);

		CHECK_OK(doca_task_submit(t));
		st->submitted++;
		/* In flight reads IN_PROGRESS (unless an engine thread is already done). */
		if (flow_default_engine())
			CHECK_ERR(doca_task_get_status(t), DOCA_ERROR_IN_PROGRESS);
	}
	/* B1: nothing is reported from inside doca_task_submit. */
	CHECK_EQ_U64(st->completed + st->failed, 0);
	CHECK_EQ_U64(flow_ctx_inflight(st->ctx), NUM_TASKS);
	CHECK_EQ_U64(flow_pe_inflight(st->pe), NUM_TASKS);

	busy = flow_poll_counter(st->pe, &st->completed, NUM_TASKS);
	CHECK_EQ_U64(st->completed, NUM_TASKS);
	CHECK_EQ_U64(st->failed, 0);
	CHECK_EQ_U64(st->bad_data, 0);
	CHECK_EQ_U64(st->wrong_ctx_ud, 0);
	CHECK_EQ_U64(st->inflight_wrong, 0);
	/* One report per call, so exactly NUM_TASKS busy calls. */
	CHECK_EQ_U64(busy, NUM_TASKS);
	/* Nothing left: progress reports no further work. */
	CHECK_EQ_U64(doca_pe_progress(st->pe), 0);
	CHECK_EQ_U64(flow_ctx_inflight(st->ctx), 0);
	CHECK_EQ_U64(flow_pe_inflight(st->pe), 0);
	CHECK(flow_ctx_state(st->ctx) == DOCA_CTX_STATE_RUNNING);
}

static void polling_copies_sixteen_tasks_and_stops_synchronously(void)
{
	struct flow_base b;
	struct polling_state st = {0};
	struct doca_dma *dma;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	dma = flow_dma_new(&b, polling_ok_cb, polling_err_cb, NUM_TASKS, &st, NULL);
	REQUIRE(dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	st.pe = b.pe;
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	/* Polling needs no set-up: a PE with an idle context has nothing to do. */
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);

	CHECK_OK(doca_ctx_start(st.ctx));
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_RUNNING);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);

	polling_run_batch(&b, dma, &st);

	/* B10: nothing allocated, outside callbacks: stop completes in the call. */
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	/* Stopping an idle context again succeeds. */
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

static void polling_context_restarts_after_stop(void)
{
	struct flow_base b;
	struct polling_state st = {0};
	struct doca_dma *dma;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	dma = flow_dma_new(&b, polling_ok_cb, polling_err_cb, NUM_TASKS, &st, NULL);
	REQUIRE(dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	st.pe = b.pe;

	for (int round = 0; round < 3; round++) {
		CHECK_OK(doca_ctx_start(st.ctx));
		polling_run_batch(&b, dma, &st);
		CHECK_OK(doca_ctx_stop(st.ctx));
		CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	}
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

static void polling_tasks_return_to_pool_when_freed(void)
{
	struct flow_base b;
	struct polling_state st = {0};
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	struct doca_dma_task_memcpy *extra = NULL;
	struct doca_dma *dma;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	dma = flow_dma_new(&b, polling_ok_cb, polling_err_cb, NUM_TASKS, &st, NULL);
	REQUIRE(dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	st.pe = b.pe;
	/* No allocation before the context runs. */
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra),
		  DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_start(st.ctx));

	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < NUM_TASKS; i++) {
			tasks[i] = NULL;
			CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){.u64 = 0},
								 &tasks[i]));
			REQUIRE(tasks[i] != NULL);
		}
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra),
			  DOCA_ERROR_NO_MEMORY);
		for (int i = 0; i < NUM_TASKS; i++)
			doca_task_free(doca_dma_task_memcpy_as_task(tasks[i]));
	}
	/* A held task keeps the stop from completing; freeing it lets progress finish it. */
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra));
	REQUIRE(extra != NULL);
	CHECK_ERR(doca_ctx_stop(st.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_STOPPING);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0); /* still allocated: nothing to do */
	doca_task_free(doca_dma_task_memcpy_as_task(extra));
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_STOPPING); /* not inside free */
	CHECK_EQ_U64(doca_pe_progress(b.pe), 1);                  /* the STOPPING -> IDLE unit */
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

/* One source buffer may feed several outstanding tasks. */
static void polling_one_source_buffer_feeds_many_tasks(void)
{
	struct flow_base b;
	struct polling_state st = {0};
	struct doca_dma_task_memcpy *tasks[8];
	struct doca_buf *src = NULL;
	struct doca_dma *dma;
	size_t data_len = 0;
	void *data = NULL;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	dma = flow_dma_new(&b, polling_ok_cb, polling_err_cb, NUM_TASKS, &st, NULL);
	REQUIRE(dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	st.pe = b.pe;
	CHECK_OK(doca_ctx_start(st.ctx));

	memset(b.mem, 9, FLOW_COPY_LEN);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, b.mmap, b.mem, FLOW_COPY_LEN, &src));
	REQUIRE(src != NULL);
	for (int i = 0; i < 8; i++) {
		struct doca_buf *dst = NULL;
		uint8_t *dst_mem = b.mem + (size_t)(i + 1) * FLOW_COPY_LEN;

		memset(dst_mem, 0, FLOW_COPY_LEN);
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, b.mmap, dst_mem, FLOW_COPY_LEN, &dst));
		/* Each task's release drops one reference on the shared source. */
		CHECK_OK(doca_buf_inc_refcount(src, NULL));
		tasks[i] = NULL;
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, (union doca_data){.u64 = 9}, &tasks[i]));
		REQUIRE(tasks[i] != NULL);
	}
	for (int i = 0; i < 8; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	st.submitted = 8;
	flow_poll_counter(b.pe, &st.completed, 8);
	CHECK_EQ_U64(st.completed, 8);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_EQ_U64(st.bad_data, 0);
	/* The source itself never changes. */
	CHECK_OK(doca_buf_get_data(src, &data));
	CHECK_OK(doca_buf_get_data_len(src, &data_len));
	CHECK(data == b.mem);
	CHECK_EQ_U64(data_len, FLOW_COPY_LEN);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

int main(void)
{
	SD_RUN(polling_copies_sixteen_tasks_and_stops_synchronously);
	SD_RUN(polling_context_restarts_after_stop);
	SD_RUN(polling_tasks_return_to_pool_when_freed);
	SD_RUN(polling_one_source_buffer_feeds_many_tasks);
	return sd_test_done();
}
