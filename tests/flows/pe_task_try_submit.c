/*
 * pe_task_try_submit - the pe_polling flow with every submission going
 * through the validating doca_task_try_submit (B7).
 *
 * Asserted: the sample's tasks (a full source by data, an empty
 * destination by address with exactly enough room) are accepted; a
 * refused task returns the exact rule code, stays owned by the caller
 * (it may be freed at once or repaired and submitted), keeps that code as
 * its status, leaves the context RUNNING and the in-flight count and the
 * destination memory untouched; the room that counts is the space after
 * the destination's data, not its length; a task in flight is refused
 * with IN_USE.
 */
#include "flows.h"

#define NUM_TASKS 16

struct try_state {
	struct doca_ctx *ctx;
	int completed;
	int failed;
	int bad_data;
};

static void try_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct try_state *st = ctx_ud.ptr;

	st->completed++;
	if (task_ud.u64 != 0 && !flow_dst_holds(task, (uint8_t)task_ud.u64))
		st->bad_data++;
	flow_release_task(task);
}

static void try_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct try_state *st = ctx_ud.ptr;

	fprintf(stderr, "task %" PRIu64 " failed: %s\n", task_ud.u64,
		doca_error_get_name(doca_task_get_status(doca_dma_task_memcpy_as_task(task))));
	st->completed++;
	st->failed++;
	flow_release_task(task);
}

static struct doca_dma *try_setup(struct flow_base *b, struct try_state *st, size_t mem)
{
	struct doca_dma *dma;

	memset(st, 0, sizeof(*st));
	if (!flow_base_init(b, mem, 64))
		return NULL;
	dma = flow_dma_new(b, try_ok_cb, try_err_cb, NUM_TASKS, st, NULL);
	if (dma == NULL)
		return NULL;
	st->ctx = doca_dma_as_ctx(dma);
	CHECK_OK(doca_ctx_start(st->ctx));
	return dma;
}

static void try_teardown(struct flow_base *b, struct try_state *st, struct doca_dma *dma)
{
	CHECK_OK(doca_ctx_stop(st->ctx));
	CHECK(flow_ctx_state(st->ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(b);
}

static void try_submit_accepts_the_sample_tasks(void)
{
	struct flow_base b;
	struct try_state st;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	struct doca_dma *dma = try_setup(&b, &st, 32 * 1024);

	REQUIRE(dma != NULL);
	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
	}
	for (int i = 0; i < NUM_TASKS; i++)
		CHECK_OK(doca_task_try_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	CHECK_EQ_U64(st.completed, 0); /* B1 */
	/* A task in flight cannot be submitted again. */
	CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(tasks[0])), DOCA_ERROR_IN_USE);
	flow_poll_counter(b.pe, &st.completed, NUM_TASKS);
	CHECK_EQ_U64(st.completed, NUM_TASKS);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_EQ_U64(st.bad_data, 0);
	try_teardown(&b, &st, dma);
}

/*
 * Refuse `task` with `want`, then check it is still the caller's and that
 * nothing changed: status, state, in-flight count, destination bytes.
 */
static void try_expect_refusal(struct try_state *st, struct doca_dma_task_memcpy *task, doca_error_t want,
			       const uint8_t *dst_mem, size_t dst_len, uint8_t dst_fill)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	size_t before = flow_ctx_inflight(st->ctx);

	CHECK_ERR(doca_task_try_submit(t), want);
	CHECK_ERR(doca_task_get_status(t), want);
	CHECK(flow_ctx_state(st->ctx) == DOCA_CTX_STATE_RUNNING);
	CHECK_EQ_U64(flow_ctx_inflight(st->ctx), before);
	for (size_t i = 0; dst_mem != NULL && i < dst_len; i++)
		if (dst_mem[i] != dst_fill) {
			CHECK(!"a refused task wrote its destination");
			break;
		}
}

static void try_submit_refuses_bad_tasks_and_keeps_running(void)
{
	struct flow_base b;
	struct try_state st;
	struct doca_dma *dma = try_setup(&b, &st, 64 * 1024);
	struct doca_dma_task_memcpy *task;
	struct doca_buf *src, *dst, *alt = NULL;
	struct doca_mmap *ro_mmap, *nodev_mmap;
	uint8_t *ro_mem = calloc(1, FLOW_COPY_LEN), *nodev_mem = calloc(1, FLOW_COPY_LEN);
	uint8_t *dst_mem;

	REQUIRE(dma != NULL && ro_mem != NULL && nodev_mem != NULL);
	ro_mmap = flow_mmap_new(ro_mem, FLOW_COPY_LEN, b.dev, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	nodev_mmap = flow_mmap_new(nodev_mem, FLOW_COPY_LEN, NULL, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(ro_mmap != NULL && nodev_mmap != NULL);

	task = flow_alloc_copy_task(&b, dma, 0x5A, 0x5A);
	REQUIRE(task != NULL);
	src = flow_unconst(doca_dma_task_memcpy_get_src(task));
	dst = doca_dma_task_memcpy_get_dst(task);
	dst_mem = b.mem + FLOW_COPY_LEN;

	/* V1: a missing destination. */
	doca_dma_task_memcpy_set_dst(task, NULL);
	try_expect_refusal(&st, task, DOCA_ERROR_INVALID_VALUE, dst_mem, FLOW_COPY_LEN, 0);
	doca_dma_task_memcpy_set_src(task, NULL);
	doca_dma_task_memcpy_set_dst(task, dst);
	try_expect_refusal(&st, task, DOCA_ERROR_INVALID_VALUE, dst_mem, FLOW_COPY_LEN, 0);
	doca_dma_task_memcpy_set_src(task, src);

	/* V3: an empty source. */
	CHECK_OK(doca_buf_reset_data_len(src));
	try_expect_refusal(&st, task, DOCA_ERROR_INVALID_VALUE, dst_mem, FLOW_COPY_LEN, 0);
	CHECK_OK(doca_buf_set_data_len(src, FLOW_COPY_LEN));

	/* V5: the room after the data counts, not the length: 1023 bytes of room. */
	CHECK_OK(doca_buf_set_data_len(dst, 1));
	try_expect_refusal(&st, task, DOCA_ERROR_INVALID_VALUE, dst_mem, FLOW_COPY_LEN, 0);
	CHECK_OK(doca_buf_reset_data_len(dst));

	/* V9: a destination in a read-only mmap. */
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, ro_mmap, ro_mem, FLOW_COPY_LEN, &alt));
	doca_dma_task_memcpy_set_dst(task, alt);
	try_expect_refusal(&st, task, DOCA_ERROR_NOT_PERMITTED, ro_mem, FLOW_COPY_LEN, 0);
	CHECK_OK(doca_buf_dec_refcount(alt, NULL));

	/* V7: a destination in an mmap the device was never added to. */
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, nodev_mmap, nodev_mem, FLOW_COPY_LEN, &alt));
	doca_dma_task_memcpy_set_dst(task, alt);
	try_expect_refusal(&st, task, DOCA_ERROR_NOT_PERMITTED, nodev_mem, FLOW_COPY_LEN, 0);
	CHECK_OK(doca_buf_dec_refcount(alt, NULL));

	/* V6: a source in an mmap without the device. */
	memset(nodev_mem, 0x5A, FLOW_COPY_LEN);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, nodev_mmap, nodev_mem, FLOW_COPY_LEN, &alt));
	doca_dma_task_memcpy_set_src(task, alt);
	doca_dma_task_memcpy_set_dst(task, dst);
	try_expect_refusal(&st, task, DOCA_ERROR_NOT_PERMITTED, dst_mem, FLOW_COPY_LEN, 0);
	CHECK_OK(doca_buf_dec_refcount(alt, NULL));

	/* Repaired, the same task is accepted and copies. */
	doca_dma_task_memcpy_set_src(task, src);
	CHECK_OK(doca_task_try_submit(doca_dma_task_memcpy_as_task(task)));
	flow_poll_counter(b.pe, &st.completed, 1);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_EQ_U64(st.bad_data, 0);

	/* A refused task may simply be freed (the sample's failure path). */
	task = flow_alloc_copy_task(&b, dma, 3, 3);
	REQUIRE(task != NULL);
	CHECK_OK(doca_buf_reset_data_len(flow_unconst(doca_dma_task_memcpy_get_src(task))));
	try_expect_refusal(&st, task, DOCA_ERROR_INVALID_VALUE, NULL, 0, 0);
	flow_release_task(task);

	/* Refusals never stopped the context: normal work continues. */
	for (int i = 0; i < 4; i++) {
		task = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(task != NULL);
		CHECK_OK(doca_task_try_submit(doca_dma_task_memcpy_as_task(task)));
	}
	flow_poll_counter(b.pe, &st.completed, 5);
	CHECK_EQ_U64(st.completed, 5);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_EQ_U64(st.bad_data, 0);

	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(dma));
	flow_mmap_free(ro_mmap);
	flow_mmap_free(nodev_mmap);
	flow_base_cleanup(&b);
	free(ro_mem);
	free(nodev_mem);
}

static void try_submit_appends_after_existing_destination_data(void)
{
	struct flow_base b;
	struct try_state st;
	struct doca_dma *dma = try_setup(&b, &st, 32 * 1024);
	struct doca_dma_task_memcpy *task = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	uint8_t *src_mem, *dst_mem;
	size_t data_len = 0;
	void *data = NULL;

	REQUIRE(dma != NULL);
	src_mem = b.mem;
	dst_mem = b.mem + 4096;
	memset(src_mem, 0xC3, 100);
	memset(dst_mem, 0x11, 300);
	/* Destination: 300-byte buffer already holding 50 bytes at offset 20. */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, b.mmap, src_mem, 100, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_args(b.inv, b.mmap, dst_mem, 300, dst_mem + 20, 50, &dst));
	REQUIRE(src != NULL && dst != NULL);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, (union doca_data){.u64 = 0}, &task));
	REQUIRE(task != NULL);
	/* Keep the buffers alive past the callback: hold an extra reference. */
	CHECK_OK(doca_buf_inc_refcount(dst, NULL));
	CHECK_OK(doca_buf_inc_refcount(src, NULL));
	CHECK_OK(doca_task_try_submit(doca_dma_task_memcpy_as_task(task)));
	flow_poll_counter(b.pe, &st.completed, 1);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_OK(doca_buf_get_data(dst, &data));
	CHECK_OK(doca_buf_get_data_len(dst, &data_len));
	CHECK(data == dst_mem + 20);
	CHECK_EQ_U64(data_len, 150);
	for (int i = 0; i < 300; i++) {
		uint8_t want = (i >= 70 && i < 170) ? 0xC3 : 0x11;

		if (dst_mem[i] != want) {
			fprintf(stderr, "destination byte %d is %#x, expected %#x\n", i, dst_mem[i], want);
			CHECK(!"append landed in the wrong place");
			break;
		}
	}
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	try_teardown(&b, &st, dma);
}

int main(void)
{
	SD_RUN(try_submit_accepts_the_sample_tasks);
	SD_RUN(try_submit_refuses_bad_tasks_and_keeps_running);
	SD_RUN(try_submit_appends_after_existing_destination_data);
	return sd_test_done();
}
