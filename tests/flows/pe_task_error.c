/*
 * pe_task_error - a task that fails while executing is fatal to its DMA
 * context, and the application recovers without ever calling
 * doca_ctx_stop (B5, B12, B13).
 *
 * The sample's run: 255 tasks, the third with a zero-length source, all
 * submitted with plain doca_task_submit.  Asserted: all 255 submits
 * succeed (submit never validates); tasks 1-2 succeed; the context moves
 * RUNNING -> STOPPING on its own, immediately before task 3's error
 * callback, which reads DOCA_ERROR_INVALID_VALUE; the 252 later tasks are
 * flushed with DOCA_ERROR_SHUTDOWN; every error callback sees STOPPING;
 * the in-flight count drains to 0; STOPPING -> IDLE follows; nothing was
 * written for the failed or flushed tasks (default engine).  The same
 * run is repeated with other failing rules (destination too small,
 * read-only destination, mmap without the device) and other positions.
 */
#include "flows.h"

#define MAX_TASKS 255

enum bad_kind {
	BAD_EMPTY_SOURCE,  /* V3 -> INVALID_VALUE */
	BAD_DST_TOO_SMALL, /* V5 -> INVALID_VALUE */
	BAD_READONLY_DST,  /* V9 -> NOT_PERMITTED */
	BAD_DST_NO_DEVICE, /* V7 -> NOT_PERMITTED */
};

struct error_state {
	struct doca_ctx *ctx;
	struct doca_dma *dma;
	int ntasks;
	int bad; /* user data of the failing task */
	int reports;
	int succeeded;
	int failed;
	int flushed;
	int other_status;
	int bad_data;
	int wrong_state;
	int seq;                    /* every callback bumps it */
	int stopping_seq;           /* seq of RUNNING -> STOPPING */
	int bad_seq;                /* seq of the failing task's error callback */
	doca_error_t bad_status;
	bool has_stopped;
	bool stop_called;           /* never set: the context must stop by itself */
	int transitions;
	bool probed;
	doca_error_t resubmit_ret;
	doca_error_t alloc_ret;
	uint64_t max_ok_ud;
};

static void error_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			   enum doca_ctx_states next)
{
	struct error_state *st = ud.ptr;

	CHECK(ctx == st->ctx);
	st->seq++;
	st->transitions++;
	if (prev == DOCA_CTX_STATE_RUNNING && next == DOCA_CTX_STATE_STOPPING) {
		CHECK(!st->stop_called); /* "moved to stopping state unexpectedly" */
		st->stopping_seq = st->seq;
	}
	if (prev == DOCA_CTX_STATE_STOPPING && next == DOCA_CTX_STATE_IDLE)
		st->has_stopped = true;
}

static void error_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct error_state *st = ctx_ud.ptr;

	st->seq++;
	st->reports++;
	st->succeeded++;
	if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
		st->bad_data++;
	if (task_ud.u64 > st->max_ok_ud)
		st->max_ok_ud = task_ud.u64;
	if (flow_ctx_state(st->ctx) != DOCA_CTX_STATE_RUNNING)
		st->wrong_state++;
	flow_release_task(task);
}

static void error_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct error_state *st = ctx_ud.ptr;
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	doca_error_t status = doca_task_get_status(t);

	st->seq++;
	st->reports++;
	if ((int)task_ud.u64 == st->bad) {
		st->failed++;
		st->bad_seq = st->seq;
		st->bad_status = status;
	} else if (status == DOCA_ERROR_SHUTDOWN) {
		st->flushed++;
	} else {
		st->other_status++;
		fprintf(stderr, "task %" PRIu64 ": unexpected status %s\n", task_ud.u64, doca_error_get_name(status));
	}
	/* Every error callback observes STOPPING. */
	if (flow_ctx_state(st->ctx) != DOCA_CTX_STATE_STOPPING)
		st->wrong_state++;
	if (!st->probed) {
		struct doca_dma_task_memcpy *extra = NULL;

		st->probed = true;
		st->resubmit_ret = doca_task_submit(t);
		st->alloc_ret = doca_dma_task_memcpy_alloc_init(st->dma, NULL, NULL, (union doca_data){.u64 = 0},
								&extra);
	}
	flow_release_task(task);
}

/* Give the task with user data `bad` the requested defect. */
static bool error_make_bad(struct flow_base *b, struct doca_dma_task_memcpy *task, enum bad_kind kind,
			   struct doca_mmap *alt_mmap, uint8_t *alt_mem)
{
	struct doca_buf *src = flow_unconst(doca_dma_task_memcpy_get_src(task));
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);
	struct doca_buf *alt = NULL;

	switch (kind) {
	case BAD_EMPTY_SOURCE:
		CHECK_OK(doca_buf_reset_data_len(src));
		return true;
	case BAD_DST_TOO_SMALL:
		/* Room left after the data: 1023 bytes for a 1024-byte copy. */
		CHECK_OK(doca_buf_set_data_len(dst, 1));
		return true;
	case BAD_READONLY_DST:
	case BAD_DST_NO_DEVICE:
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(b->inv, alt_mmap, alt_mem, FLOW_COPY_LEN, &alt));
		if (alt == NULL)
			return false;
		CHECK_OK(doca_buf_dec_refcount(dst, NULL));
		doca_dma_task_memcpy_set_dst(task, alt);
		return true;
	}
	return false;
}

static doca_error_t error_expected_status(enum bad_kind kind)
{
	return kind == BAD_READONLY_DST || kind == BAD_DST_NO_DEVICE ? DOCA_ERROR_NOT_PERMITTED
								     : DOCA_ERROR_INVALID_VALUE;
}

static void error_run(int ntasks, int bad, enum bad_kind kind)
{
	struct flow_base b;
	struct error_state st = {0};
	struct doca_dma_task_memcpy *tasks[MAX_TASKS];
	struct doca_mmap *alt_mmap = NULL;
	uint8_t *alt_mem = NULL;
	double deadline;
	size_t inflight;

	REQUIRE(ntasks <= MAX_TASKS && bad >= 1 && bad <= ntasks);
	REQUIRE(flow_base_init(&b, (size_t)ntasks * 2 * FLOW_COPY_LEN, (uint32_t)(2 * ntasks + 1)));
	if (kind == BAD_READONLY_DST || kind == BAD_DST_NO_DEVICE) {
		alt_mem = calloc(1, FLOW_COPY_LEN);
		REQUIRE(alt_mem != NULL);
		alt_mmap = kind == BAD_READONLY_DST
				   ? flow_mmap_new(alt_mem, FLOW_COPY_LEN, b.dev, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY)
				   : flow_mmap_new(alt_mem, FLOW_COPY_LEN, NULL, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		REQUIRE(alt_mmap != NULL);
	}
	st.ntasks = ntasks;
	st.bad = bad;
	st.dma = flow_dma_new(&b, error_ok_cb, error_err_cb, (uint32_t)ntasks, &st, error_state_cb);
	REQUIRE(st.dma != NULL);
	st.ctx = doca_dma_as_ctx(st.dma);
	CHECK_OK(doca_ctx_start(st.ctx));
	CHECK_EQ_U64(st.transitions, 1);

	for (int i = 0; i < ntasks; i++) {
		tasks[i] = flow_alloc_copy_task(&b, st.dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
	}
	REQUIRE(error_make_bad(&b, tasks[bad - 1], kind, alt_mmap, alt_mem));
	/* B13: every submit is accepted, the bad one included. */
	for (int i = 0; i < ntasks; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_RUNNING); /* nothing failed inside submit */
	CHECK_EQ_U64(flow_ctx_inflight(st.ctx), ntasks);
	CHECK_EQ_U64(st.reports, 0);

	flow_poll_counter(b.pe, &st.reports, ntasks);

	/* poll_for_dma_stop: drain the in-flight count, then wait for IDLE. */
	deadline = flow_now() + FLOW_DEADLINE_SEC;
	inflight = flow_ctx_inflight(st.ctx);
	while (inflight > 0 && flow_now() < deadline) {
		doca_pe_progress(b.pe);
		inflight = flow_ctx_inflight(st.ctx);
	}
	CHECK_EQ_U64(inflight, 0);
	/* Stopping a context that is already STOPPING. */
	if (!st.has_stopped)
		CHECK_ERR(doca_ctx_stop(st.ctx), DOCA_ERROR_IN_PROGRESS);
	while (!st.has_stopped && flow_now() < deadline)
		doca_pe_progress(b.pe);
	CHECK(st.has_stopped);

	CHECK_EQ_U64(st.reports, ntasks);
	CHECK_EQ_U64(st.succeeded, bad - 1);
	CHECK_EQ_U64(st.max_ok_ud, bad - 1);
	CHECK_EQ_U64(st.failed, 1);
	CHECK_EQ_U64(st.flushed, ntasks - bad);
	CHECK_EQ_U64(st.other_status, 0);
	CHECK_EQ_U64(st.bad_data, 0);
	CHECK_EQ_U64(st.wrong_state, 0);
	CHECK_ERR(st.bad_status, error_expected_status(kind)); /* the broken rule's code */
	/* The state change immediately precedes the failing task's callback. */
	CHECK_EQ_U64(st.stopping_seq + 1, st.bad_seq);
	CHECK_EQ_U64(st.transitions, 3);
	CHECK_ERR(st.resubmit_ret, DOCA_ERROR_BAD_STATE);
	CHECK_ERR(st.alloc_ret, DOCA_ERROR_BAD_STATE);

	/* Nothing was written for the failed task, nor (default engine) for the flushed ones. */
	for (int i = bad - 1; i < ntasks; i++) {
		const uint8_t *dst_mem = b.mem + (size_t)i * 2 * FLOW_COPY_LEN + FLOW_COPY_LEN;

		if (i != bad - 1 && !flow_default_engine())
			break;
		for (int k = 0; k < FLOW_COPY_LEN; k++)
			if (dst_mem[k] != 0) {
				fprintf(stderr, "task %d: destination byte %d written\n", i + 1, k);
				CHECK(!"destination of a failed or flushed task was written");
				break;
			}
	}
	if (alt_mem != NULL)
		for (int k = 0; k < FLOW_COPY_LEN; k++)
			if (alt_mem[k] != 0) {
				CHECK(!"refused destination was written");
				break;
			}

	/* B18: the cleanup stop on the idle context succeeds. */
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(st.dma));
	flow_mmap_free(alt_mmap); /* before the device closes */
	flow_base_cleanup(&b);
	free(alt_mem);
}

static void error_third_of_255_has_an_empty_source(void)
{
	error_run(255, 3, BAD_EMPTY_SOURCE);
}

static void error_first_task_fails_and_flushes_the_rest(void)
{
	error_run(32, 1, BAD_EMPTY_SOURCE);
}

static void error_last_task_fails_with_nothing_to_flush(void)
{
	error_run(32, 32, BAD_EMPTY_SOURCE);
}

static void error_destination_too_small_is_fatal(void)
{
	error_run(64, 10, BAD_DST_TOO_SMALL);
}

static void error_read_only_destination_is_not_permitted(void)
{
	error_run(64, 7, BAD_READONLY_DST);
}

static void error_destination_mmap_without_device_is_not_permitted(void)
{
	error_run(16, 4, BAD_DST_NO_DEVICE);
}

int main(void)
{
	SD_RUN(error_third_of_255_has_an_empty_source);
	SD_RUN(error_first_task_fails_and_flushes_the_rest);
	SD_RUN(error_last_task_fails_with_nothing_to_flush);
	SD_RUN(error_destination_too_small_is_fatal);
	SD_RUN(error_read_only_destination_is_not_permitted);
	SD_RUN(error_destination_mmap_without_device_is_not_permitted);
	return sd_test_done();
}
