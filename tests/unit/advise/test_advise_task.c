/*
 * The invalidate-cache task: a
 * validated no-op that completes from doca_pe_progress, leaves its buffer
 * untouched, counts as in flight, is flushed by a stop, reports validation
 * failures through the error callback without stopping its context, and
 * can be submitted from another context's callback as the official
 * cache_invalidate sample does.
 */
#include "advise_fixture.h"
#include "sd_progress.h"

static struct afx a;

static struct doca_mmap_advise_task_invalidate_cache *alloc_on(struct doca_buf *buf, uint64_t ud_value)
{
	struct doca_mmap_advise_task_invalidate_cache *task = NULL;
	union doca_data ud = {.u64 = ud_value};

	if (doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, &task) != DOCA_SUCCESS)
		return NULL;
	return task;
}

static void the_task_succeeds_from_progress_and_changes_nothing(void)
{
	struct doca_mmap_advise_task_invalidate_cache *task;
	struct doca_buf *buf;
	void *data_before = NULL, *data_after = NULL;
	size_t len_before = 0, len_after = 0, inflight = 0;
	uint8_t copy[256];

	REQUIRE(afx_setup(&a, 1));
	REQUIRE(doca_ctx_start(a.actx) == DOCA_SUCCESS);
	for (size_t i = 0; i < sizeof(copy); i++)
		a.fx.src_mem[i] = (uint8_t)(i ^ 0x5a);
	memcpy(copy, a.fx.src_mem, sizeof(copy));
	buf = sd_fx_src_buf(&a.fx, 0, sizeof(copy));
	REQUIRE(buf != NULL);
	doca_buf_get_data(buf, &data_before);
	doca_buf_get_data_len(buf, &len_before);
	task = alloc_on(buf, 31);
	REQUIRE(task != NULL);
	afx_n = 0;

	afx_in_submit = true;
	CHECK_QUIET(doca_task_submit(afx_t(task)), DOCA_SUCCESS);
	afx_in_submit = false;
	CHECK_EQ_U64(afx_cb_in_submit, 0); /* B1 */
	CHECK_ERR(doca_task_get_status(afx_t(task)), DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(doca_ctx_get_num_inflight_tasks(a.actx, &inflight));
	CHECK_EQ_U64(inflight, 1);
	CHECK_OK(doca_pe_get_num_inflight_tasks(a.fx.pe, &inflight));
	CHECK_EQ_U64(inflight, 1);

	afx_log_mark();
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	REQUIRE(afx_n == 1);
	CHECK(afx_ev[0].kind == AFX_OK);
	CHECK(afx_ev[0].task == task);
	CHECK_OK(afx_ev[0].status);
	CHECK_EQ_U64(afx_ev[0].task_ud, 31);
	CHECK_EQ_U64(afx_ev[0].ctx_ud, 0xad);
	{
		bool all;

		CHECK_EQ_U64(afx_log_count(NULL, &all), 0);
	}
	/* The buffer: same bytes, same data pointer, same data length. */
	doca_buf_get_data(buf, &data_after);
	doca_buf_get_data_len(buf, &len_after);
	CHECK(data_after == data_before);
	CHECK_EQ_U64(len_after, len_before);
	CHECK(memcmp(a.fx.src_mem, copy, sizeof(copy)) == 0);
	CHECK_OK(doca_ctx_get_num_inflight_tasks(a.actx, &inflight));
	CHECK_EQ_U64(inflight, 0);
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 0);

	/* Resubmitting the kept task works again and again. */
	CHECK_OK(doca_task_submit(afx_t(task)));
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	CHECK(afx_n == 2 && afx_ev[1].kind == AFX_OK);
	doca_task_free(afx_t(task));
	afx_teardown(&a);
}

static void try_submit_refuses_a_bad_buffer_and_leaves_the_task_to_the_caller(void)
{
	struct doca_mmap_advise_task_invalidate_cache *task;
	struct doca_buf *released = NULL, *good;

	REQUIRE(afx_setup(&a, 1));
	REQUIRE(doca_ctx_start(a.actx) == DOCA_SUCCESS);
	task = alloc_on(NULL, 0); /* NULL is accepted here and checked when the task runs */
	REQUIRE(task != NULL);
	/* A refused call: exactly one ERROR record, on behalf of doca_task_try_submit. */
	CHECK_REJECT(doca_task_try_submit(afx_t(task)), DOCA_ERROR_INVALID_VALUE, "doca_task_try_submit");
	CHECK_ERR(doca_task_get_status(afx_t(task)), DOCA_ERROR_INVALID_VALUE);
	REQUIRE(doca_buf_inventory_buf_get_by_data(a.fx.inv, a.fx.src_mmap, a.fx.src_mem, 64, &released) ==
		DOCA_SUCCESS);
	REQUIRE(doca_buf_dec_refcount(released, NULL) == DOCA_SUCCESS);
	doca_mmap_advise_task_invalidate_cache_set_buf(task, released);
	CHECK_REJECT(doca_task_try_submit(afx_t(task)), DOCA_ERROR_INVALID_VALUE, "doca_task_try_submit");
	good = sd_fx_dst_buf(&a.fx, 0, 64);
	doca_mmap_advise_task_invalidate_cache_set_buf(task, good);
	CHECK_QUIET(doca_task_try_submit(afx_t(task)), DOCA_SUCCESS);
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	CHECK(afx_n >= 1 && afx_ev[afx_n - 1].kind == AFX_OK);
	doca_task_free(afx_t(task));
	afx_teardown(&a);
}

static void an_execution_failure_is_reported_and_not_fatal(void)
{
	struct doca_mmap_advise_task_invalidate_cache *task;
	enum doca_ctx_states st;

	REQUIRE(afx_setup(&a, 1));
	REQUIRE(doca_ctx_start(a.actx) == DOCA_SUCCESS);
	task = alloc_on(NULL, 4);
	REQUIRE(task != NULL);
	afx_n = 0;
	CHECK_QUIET(doca_task_submit(afx_t(task)), DOCA_SUCCESS);
	afx_log_mark();
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	REQUIRE(afx_n == 1); /* no state change came first: advise failures are not fatal */
	CHECK(afx_ev[0].kind == AFX_ERR);
	CHECK_ERR(afx_ev[0].status, DOCA_ERROR_INVALID_VALUE);
	CHECK(afx_ev[0].ctx_state == DOCA_CTX_STATE_RUNNING);
	CHECK_EQ_U64(afx_ev[0].task_ud, 4);
	{
		bool all;

		/* One ERROR record names the failed task; the context keeps running. */
		CHECK_EQ_U64(afx_log_count("invalidate-cache task", &all), 1);
		CHECK(all);
	}
	CHECK_OK(doca_ctx_get_state(a.actx, &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	doca_task_free(afx_t(task));
	afx_teardown(&a);
}

static void a_stop_flushes_outstanding_tasks(void)
{
	struct doca_mmap_advise_task_invalidate_cache *t1, *t2;
	struct doca_buf *buf;

	REQUIRE(afx_setup(&a, 2));
	REQUIRE(doca_ctx_start(a.actx) == DOCA_SUCCESS);
	buf = sd_fx_src_buf(&a.fx, 0, 128);
	t1 = alloc_on(buf, 1);
	t2 = alloc_on(buf, 2); /* one buffer, two outstanding tasks */
	REQUIRE(t1 && t2);
	CHECK_OK(doca_task_submit(afx_t(t1)));
	CHECK_OK(doca_task_submit(afx_t(t2)));
	afx_n = 0;
	CHECK_QUIET(doca_ctx_stop(a.actx), DOCA_ERROR_IN_PROGRESS);
	REQUIRE(afx_n == 1); /* RUNNING -> STOPPING, inside the call; no task callback yet */
	CHECK(afx_ev[0].kind == AFX_STATE && afx_ev[0].next == DOCA_CTX_STATE_STOPPING);
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	REQUIRE(afx_n == 3);
	CHECK(afx_ev[1].kind == AFX_ERR && afx_ev[1].task_ud == 1);
	CHECK_ERR(afx_ev[1].status, DOCA_ERROR_SHUTDOWN); /* flushed */
	CHECK(afx_ev[2].kind == AFX_ERR && afx_ev[2].task_ud == 2);
	CHECK_ERR(afx_ev[2].status, DOCA_ERROR_SHUTDOWN);
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 0); /* tasks still allocated */
	doca_task_free(afx_t(t1));
	doca_task_free(afx_t(t2));
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	CHECK(afx_ev[afx_n - 1].kind == AFX_STATE && afx_ev[afx_n - 1].next == DOCA_CTX_STATE_IDLE);
	afx_teardown(&a);
}

static void buffer_accessors_and_their_misuse(void)
{
	struct doca_mmap_advise_task_invalidate_cache *task;
	struct doca_buf *b1, *b2;
	const char *fn = "doca_mmap_advise_task_invalidate_cache_set_buf";

	REQUIRE(afx_setup(&a, 1));
	REQUIRE(doca_ctx_start(a.actx) == DOCA_SUCCESS);
	b1 = sd_fx_src_buf(&a.fx, 0, 64);
	b2 = sd_fx_src_buf(&a.fx, 64, 64);
	task = alloc_on(b1, 0);
	REQUIRE(task && b1 && b2);
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(NULL) == NULL);
	CHECK(doca_mmap_advise_task_invalidate_cache_as_doca_task(NULL) == NULL);
	CHECK_LOGS_ONE(doca_mmap_advise_task_invalidate_cache_set_buf(NULL, b1), fn);
	CHECK_OK(doca_task_submit(afx_t(task)));
	/* In flight: the buffer cannot change. */
	CHECK_LOGS_ONE(doca_mmap_advise_task_invalidate_cache_set_buf(task, b2), fn);
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(task) == b1);
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1);
	doca_mmap_advise_task_invalidate_cache_set_buf(task, b2);
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(task) == b2);
	doca_task_free(afx_t(task));
	CHECK_LOGS_ONE(doca_mmap_advise_task_invalidate_cache_set_buf(task, b1), fn); /* freed */
	afx_teardown(&a);
}

/* ---- the cache_invalidate sample's flow ---- */

static struct doca_mmap_advise_task_invalidate_cache *flow_inv;
static doca_error_t flow_submit_status = DOCA_ERROR_UNKNOWN;

static void submit_invalidate_from_dma_cb(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	(void)task;
	(void)arg;
	if (ok)
		flow_submit_status = doca_task_submit(afx_t(flow_inv)); /* B17 */
}

static void the_sample_flow_submits_from_a_dma_callback(void)
{
	struct doca_dma_task_memcpy *copy = NULL;
	struct doca_buf *src, *dst;
	union doca_data none = {.u64 = 0};

	REQUIRE(afx_setup(&a, 1));
	REQUIRE(doca_ctx_start(a.fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(a.actx) == DOCA_SUCCESS);
	src = sd_fx_src_buf(&a.fx, 0, 1024);
	dst = sd_fx_dst_buf(&a.fx, 0, 1024);
	REQUIRE(src && dst);
	REQUIRE(doca_dma_task_memcpy_alloc_init(a.fx.dma, src, dst, none, &copy) == DOCA_SUCCESS);
	flow_inv = alloc_on(src, 0); /* the sample invalidates the DMA source */
	REQUIRE(flow_inv != NULL);
	a.fx.log.on_task = submit_invalidate_from_dma_cb;
	afx_n = 0;
	afx_log_mark();
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(copy)));
	/*
	 * The copy, then the invalidate its callback submitted: one unit each.
	 * Waited for, not one call each: on the worker engine the copy is
	 * reported by whichever call finds it done.
	 */
	CHECK_EQ_U64(sd_progress_one(a.fx.pe), 1);
	CHECK_OK(flow_submit_status);
	CHECK_EQ_U64(afx_n, 0);
	CHECK_EQ_U64(sd_progress_one(a.fx.pe), 1);
	REQUIRE(afx_n == 1);
	CHECK(afx_ev[0].kind == AFX_OK);
	{
		bool all;

		CHECK_EQ_U64(afx_log_count(NULL, &all), 0);
	}
	/* Cleanup in the sample's order: tasks, stops (synchronous), destroys, PE, then buffers. */
	doca_task_free(doca_dma_task_memcpy_as_task(copy));
	doca_task_free(afx_t(flow_inv));
	CHECK_OK(doca_ctx_stop(a.fx.ctx));
	CHECK_OK(doca_ctx_stop(a.actx));
	CHECK_OK(doca_dma_destroy(a.fx.dma));
	CHECK_OK(doca_mmap_advise_destroy(a.adv));
	CHECK_OK(doca_pe_destroy(a.fx.pe)); /* buffers are still held */
	a.fx.dma = NULL;
	a.fx.ctx = NULL;
	a.fx.pe = NULL;
	a.adv = NULL;
	a.actx = NULL;
	afx_teardown(&a);
}

int main(void)
{
	afx_log_capture();
	SD_RUN(the_task_succeeds_from_progress_and_changes_nothing);
	SD_RUN(try_submit_refuses_a_bad_buffer_and_leaves_the_task_to_the_caller);
	SD_RUN(an_execution_failure_is_reported_and_not_fatal);
	SD_RUN(a_stop_flushes_outstanding_tasks);
	SD_RUN(buffer_accessors_and_their_misuse);
	SD_RUN(the_sample_flow_submits_from_a_dma_callback);
	return sd_test_done();
}
