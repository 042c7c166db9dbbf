/*
 * pe_task_resubmit - four tasks carry sixteen copies: each completion
 * callback releases its task's buffers, points the task at the next
 * buffer pair with the setters, changes its user data and resubmits it
 * (B6).
 *
 * Asserted: resubmission from the task's own callback works; the setters
 * and getters work on a completed task; the user data handed to the next
 * callback is the one most recently set; the released buffers are never
 * touched again (their memory is poisoned after release and re-checked);
 * a resubmitted task is never reported by the call that ran its previous
 * callback; the pool holds exactly four tasks; every buffer goes back to
 * the inventory; the cleanup stop is synchronous.
 */
#include "flows.h"

#define POOL 4
#define PAIRS 16
#define POISON 0xEE

struct resubmit_state {
	struct flow_base *base;
	struct doca_ctx *ctx;
	struct doca_buf *src[PAIRS];
	struct doca_buf *dst[PAIRS];
	int next_pair;
	int completed;
	int failed;
	int bad_data;
	int wrong_ud;
	int setter_mismatch;
	int resubmit_failures;
	int status_not_in_progress;
	int callbacks_this_call; /* reset by the main loop before every progress */
	int max_callbacks_per_call;
	uint64_t ud_order[PAIRS];
};

static uint8_t *pair_src_mem(struct flow_base *b, int k)
{
	return b->mem + (size_t)k * 2 * FLOW_COPY_LEN;
}

static uint8_t *pair_dst_mem(struct flow_base *b, int k)
{
	return pair_src_mem(b, k) + FLOW_COPY_LEN;
}

static void resubmit_next_or_free(struct resubmit_state *st, struct doca_dma_task_memcpy *task)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	int k;

	if (st->next_pair >= PAIRS) {
		doca_task_free(t);
		return;
	}
	k = st->next_pair++;
	doca_task_set_user_data(t, (union doca_data){.u64 = (uint64_t)k + 1});
	doca_dma_task_memcpy_set_src(task, st->src[k]);
	doca_dma_task_memcpy_set_dst(task, st->dst[k]);
	if (doca_dma_task_memcpy_get_src(task) != st->src[k] || doca_dma_task_memcpy_get_dst(task) != st->dst[k] ||
	    doca_task_get_user_data(t).u64 != (uint64_t)k + 1)
		st->setter_mismatch++;
	if (doca_task_submit(t) != DOCA_SUCCESS) {
		st->resubmit_failures++;
		CHECK_OK(doca_buf_dec_refcount(st->src[k], NULL));
		CHECK_OK(doca_buf_dec_refcount(st->dst[k], NULL));
		doca_task_free(t);
		st->completed++;
		return;
	}
	if (flow_default_engine() && doca_task_get_status(t) != DOCA_ERROR_IN_PROGRESS)
		st->status_not_in_progress++;
}

static void resubmit_finish(struct resubmit_state *st, struct doca_dma_task_memcpy *task, uint64_t ud, bool ok)
{
	int k = (int)ud - 1;

	if (++st->callbacks_this_call > st->max_callbacks_per_call)
		st->max_callbacks_per_call = st->callbacks_this_call;
	if (st->completed < PAIRS)
		st->ud_order[st->completed] = ud;
	st->completed++;
	if (k < 0 || k >= PAIRS || doca_dma_task_memcpy_get_src(task) != st->src[k] ||
	    doca_dma_task_memcpy_get_dst(task) != st->dst[k]) {
		st->wrong_ud++;
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		return;
	}
	if (!ok)
		st->failed++;
	else if (!flow_dst_holds(task, (uint8_t)ud))
		st->bad_data++;
	/* Drop both buffers; the task keeps stale pointers until the setters run. */
	CHECK_OK(doca_buf_dec_refcount(st->src[k], NULL));
	CHECK_OK(doca_buf_dec_refcount(st->dst[k], NULL));
	/* Poison the released memory: the library must not touch it any more. */
	memset(pair_src_mem(st->base, k), POISON, 2 * FLOW_COPY_LEN);
	resubmit_next_or_free(st, task);
}

static void resubmit_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	resubmit_finish(ctx_ud.ptr, task, task_ud.u64, true);
}

static void resubmit_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	fprintf(stderr, "task %" PRIu64 " failed: %s\n", task_ud.u64,
		doca_error_get_name(doca_task_get_status(doca_dma_task_memcpy_as_task(task))));
	resubmit_finish(ctx_ud.ptr, task, task_ud.u64, false);
}

static void resubmit_four_tasks_carry_sixteen_copies(void)
{
	struct flow_base b;
	struct resubmit_state st = {0};
	struct doca_dma_task_memcpy *tasks[POOL], *extra = NULL;
	struct doca_dma *dma;
	uint32_t free_elems = 0;
	double deadline;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	st.base = &b;
	dma = flow_dma_new(&b, resubmit_ok_cb, resubmit_err_cb, POOL, &st, NULL);
	REQUIRE(dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	CHECK_OK(doca_ctx_start(st.ctx));

	/* All 32 buffers up front: sources by data, destinations by address. */
	for (int k = 0; k < PAIRS; k++) {
		memset(pair_src_mem(&b, k), k + 1, FLOW_COPY_LEN);
		memset(pair_dst_mem(&b, k), 0, FLOW_COPY_LEN);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, b.mmap, pair_src_mem(&b, k), FLOW_COPY_LEN,
							     &st.src[k]));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, b.mmap, pair_dst_mem(&b, k), FLOW_COPY_LEN,
							     &st.dst[k]));
		REQUIRE(st.src[k] != NULL && st.dst[k] != NULL);
	}
	CHECK_OK(doca_buf_inventory_get_num_free_elements(b.inv, &free_elems));
	CHECK_EQ_U64(free_elems, 0);

	for (int i = 0; i < POOL; i++) {
		tasks[i] = NULL;
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, st.src[i], st.dst[i],
							 (union doca_data){.u64 = (uint64_t)i + 1}, &tasks[i]));
		REQUIRE(tasks[i] != NULL);
	}
	st.next_pair = POOL;
	/* B20: exactly four tasks in the pool. */
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra),
		  DOCA_ERROR_NO_MEMORY);
	for (int i = 0; i < POOL; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));

	deadline = flow_now() + FLOW_DEADLINE_SEC;
	while (st.completed < PAIRS && flow_now() < deadline) {
		st.callbacks_this_call = 0;
		doca_pe_progress(b.pe);
	}
	CHECK_EQ_U64(st.completed, PAIRS);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_EQ_U64(st.bad_data, 0);
	CHECK_EQ_U64(st.wrong_ud, 0);
	CHECK_EQ_U64(st.setter_mismatch, 0);
	CHECK_EQ_U64(st.resubmit_failures, 0);
	CHECK_EQ_U64(st.status_not_in_progress, 0);
	/* A resubmitted task is never reported by the same call. */
	CHECK_EQ_U64(st.max_callbacks_per_call, 1);
	/* Default engine: the FIFO makes the reports run 1..16 in order. */
	if (flow_default_engine())
		for (int n = 0; n < PAIRS; n++)
			CHECK_EQ_U64(st.ud_order[n], n + 1);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	/* The poisoned memory of released pairs was never written again. */
	for (size_t i = 0; i < (size_t)PAIRS * 2 * FLOW_COPY_LEN; i++)
		if (b.mem[i] != POISON) {
			fprintf(stderr, "byte %zu of a released pair changed to %#x\n", i, b.mem[i]);
			CHECK(!"released buffer memory was touched");
			break;
		}
	CHECK_OK(doca_buf_inventory_get_num_free_elements(b.inv, &free_elems));
	CHECK_EQ_U64(free_elems, 32);
	CHECK_EQ_U64(flow_ctx_inflight(st.ctx), 0);
	/* All four tasks were freed: the stop completes in the call. */
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

int main(void)
{
	SD_RUN(resubmit_four_tasks_carry_sixteen_copies);
	return sd_test_done();
}
