/*
 * DOCA DMA instances: create/destroy argument and state rules, the context
 * view, synchronous start, the configuration precondition of start, the
 * device dependency and the GPU handle.
 */
#include "dma_fixture.h"

static void create_rejects_null_arguments(void)
{
	struct fx f;
	struct doca_dma *dma = NULL;

	REQUIRE(fx_open_dev(&f, 0));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_create(NULL, &dma), DOCA_ERROR_INVALID_VALUE));
	CHECK(dma == NULL);
	CHECK_LOGS(1, CHECK_ERR(doca_dma_create(f.dev, NULL), DOCA_ERROR_INVALID_VALUE));
	CHECK_OK(doca_dev_close(f.dev));
	doca_devinfo_destroy_list(f.list);
}

static void create_rejects_a_foreign_device_pointer(void)
{
	static uint64_t not_a_dev[64];
	struct doca_dma *dma = NULL;

	CHECK_LOGS(1, CHECK_ERR(doca_dma_create((struct doca_dev *)not_a_dev, &dma), DOCA_ERROR_INVALID_VALUE));
	CHECK(dma == NULL);
}

static void new_instance_is_idle_and_its_ctx_view_is_stable(void)
{
	struct fx f;
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	union doca_data ud = { .u64 = 77 };

	REQUIRE(fx_setup(&f, 0));
	CHECK(f.ctx != NULL);
	CHECK(doca_dma_as_ctx(f.dma) == f.ctx);
	CHECK(doca_dma_as_ctx(NULL) == NULL);
	CHECK_OK(doca_ctx_get_state(f.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_get_user_data(f.ctx, &ud));
	CHECK_EQ_U64(ud.u64, 0);
	fx_teardown(&f);
}

static void start_without_memcpy_conf_is_invalid_value(void)
{
	struct fx f;
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	REQUIRE(fx_setup(&f, 0));
	CHECK_LOGS(1, CHECK_ERR(doca_ctx_start(f.ctx), DOCA_ERROR_INVALID_VALUE));
	CHECK_OK(doca_ctx_get_state(f.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK(fx_nevents == 0); /* no state callback for a refused start */
	/* configuring afterwards makes the same instance startable */
	CHECK_OK(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 4));
	CHECK_OK(doca_ctx_start(f.ctx));
	fx_teardown(&f);
}

static void start_is_synchronous_and_never_starting(void)
{
	struct fx f;
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	REQUIRE(fx_setup(&f, 4));
	CHECK_LOGS(0, CHECK_OK(doca_ctx_start(f.ctx)));
	CHECK_OK(doca_ctx_get_state(f.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	REQUIRE(fx_nevents == 1);
	CHECK(fx_events[0].kind == FX_EV_STATE);
	CHECK_EQ_U64(fx_events[0].a, DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(fx_events[0].b, DOCA_CTX_STATE_RUNNING);
	CHECK(doca_pe_progress(f.pe) == 0); /* nothing pending after a DMA start */
	fx_teardown(&f);
}

static void destroy_rejects_null_and_non_idle(void)
{
	struct fx f;
	struct doca_task *held;
	struct doca_dma *dma;

	CHECK_LOGS(1, CHECK_ERR(doca_dma_destroy(NULL), DOCA_ERROR_INVALID_VALUE));

	REQUIRE(fx_setup(&f, 2));
	REQUIRE(fx_start(&f));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_destroy(f.dma), DOCA_ERROR_BAD_STATE));

	/* STOPPING (a task is still held) is refused too, and the instance stays usable */
	held = fx_task(&f, NULL, NULL, 1);
	REQUIRE(held != NULL);
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_LOGS(1, CHECK_ERR(doca_dma_destroy(f.dma), DOCA_ERROR_BAD_STATE));
	doca_task_free(held);
	fx_drain(&f);

	dma = f.dma;
	f.dma = NULL;
	f.ctx = NULL;
	CHECK_LOGS(0, CHECK_OK(doca_dma_destroy(dma)));
	fx_teardown(&f);
}

static struct doca_dma *destroy_in_idle_cb_target;
static int destroy_in_idle_cb_result = -1;

static void destroy_on_idle_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			       enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	if (prev == DOCA_CTX_STATE_STOPPING && next == DOCA_CTX_STATE_IDLE)
		destroy_in_idle_cb_result = (int)doca_dma_destroy(destroy_in_idle_cb_target);
}

static void destroy_from_the_idle_state_callback(void)
{
	struct fx f;

	REQUIRE(fx_setup(&f, 2));
	CHECK_OK(doca_ctx_set_state_changed_cb(f.ctx, destroy_on_idle_cb));
	REQUIRE(fx_start(&f));
	destroy_in_idle_cb_target = f.dma;
	CHECK_OK(doca_ctx_stop(f.ctx)); /* nothing allocated: completes inside the call */
	CHECK(destroy_in_idle_cb_result == DOCA_SUCCESS);
	f.dma = NULL;
	f.ctx = NULL;
	fx_teardown(&f);
}

static void device_close_while_dma_exists_is_in_use(void)
{
	struct fx f;
	struct doca_dma *dma = NULL;

	REQUIRE(fx_open_dev(&f, 0));
	REQUIRE(doca_dma_create(f.dev, &dma) == DOCA_SUCCESS);
	CHECK_LOGS(1, CHECK_ERR(doca_dev_close(f.dev), DOCA_ERROR_IN_USE));
	/* the device is still open and usable by the instance */
	CHECK_OK(doca_dma_cap_task_memcpy_is_supported(doca_dev_as_devinfo(f.dev)));
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_dev_close(f.dev));
	doca_devinfo_destroy_list(f.list);
}

static void second_device_handle_can_close_while_dma_exists(void)
{
	struct fx f;
	struct doca_dev *other = NULL;
	struct doca_dma *dma = NULL;

	REQUIRE(fx_open_dev(&f, 0));
	REQUIRE(doca_dev_open(f.list[0], &other) == DOCA_SUCCESS);
	REQUIRE(doca_dma_create(f.dev, &dma) == DOCA_SUCCESS);
	/* Not the last reference of the device: allowed (DMA Copy opens its device twice) */
	CHECK_OK(doca_dev_close(other));
	CHECK_ERR(doca_dev_close(f.dev), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_dev_close(f.dev));
	doca_devinfo_destroy_list(f.list);
}

static void instance_works_after_restart(void)
{
	struct fx f;
	uint8_t src[64], dst[64];
	struct doca_mmap *ms, *md;
	struct doca_buf *bs, *bd;

	REQUIRE(fx_setup(&f, 2));
	fx_fill(src, sizeof(src), 3);
	memset(dst, 0, sizeof(dst));
	ms = fx_mmap(f.dev, src, sizeof(src), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	md = fx_mmap(f.dev, dst, sizeof(dst), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(ms != NULL && md != NULL);
	bs = fx_buf(&f, ms, src, sizeof(src), src, sizeof(src));
	bd = fx_buf(&f, md, dst, sizeof(dst), dst, 0);
	REQUIRE(bs != NULL && bd != NULL);

	for (int round = 0; round < 3; round++) {
		struct doca_task *t;

		REQUIRE(fx_start(&f));
		CHECK_OK(doca_buf_reset_data_len(bd));
		t = fx_task(&f, bs, bd, 10 + (uint64_t)round);
		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(t));
		CHECK(fx_drain(&f) == 1);
		CHECK(memcmp(src, dst, sizeof(src)) == 0);
		CHECK_OK(doca_ctx_stop(f.ctx));
	}
	fx_put(bs);
	fx_put(bd);
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(md));
	fx_teardown(&f);
}

static void gpu_handle_is_never_available(void)
{
	struct fx f;
	struct doca_gpu_dma *g = NULL;

	REQUIRE(fx_setup(&f, 2));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_get_gpu_handle(NULL, &g), DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_get_gpu_handle(f.dma, NULL), DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_get_gpu_handle(f.dma, &g), DOCA_ERROR_BAD_STATE));
	REQUIRE(fx_start(&f));
	CHECK_ERR(doca_dma_get_gpu_handle(f.dma, &g), DOCA_ERROR_BAD_STATE);
	CHECK(g == NULL);
	fx_teardown(&f);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(create_rejects_null_arguments);
	SD_RUN(create_rejects_a_foreign_device_pointer);
	SD_RUN(new_instance_is_idle_and_its_ctx_view_is_stable);
	SD_RUN(start_without_memcpy_conf_is_invalid_value);
	SD_RUN(start_is_synchronous_and_never_starting);
	SD_RUN(destroy_rejects_null_and_non_idle);
	SD_RUN(destroy_from_the_idle_state_callback);
	SD_RUN(device_close_while_dma_exists_is_in_use);
	SD_RUN(second_device_handle_can_close_while_dma_exists);
	SD_RUN(instance_works_after_restart);
	SD_RUN(gpu_handle_is_never_available);
	return sd_test_done();
}
