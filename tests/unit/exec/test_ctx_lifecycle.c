/*
 * The generic context state machine seen through a DMA context:
 * which transitions happen, where their callbacks fire, and what each call
 * returns in each state.
 */
#include "sd_fixture.h"

static struct sd_fx fx;

static size_t count_kind(enum sd_fx_event_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < fx.log.n; i++)
		n += fx.log.ev[i].kind == kind;
	return n;
}

static bool is_state_event(size_t i, enum doca_ctx_states prev, enum doca_ctx_states next)
{
	return i < fx.log.n && fx.log.ev[i].kind == SD_FX_STATE && fx.log.ev[i].prev == prev &&
	       fx.log.ev[i].next == next && fx.log.ev[i].ctx_state == next;
}

static void start_fires_running_callback_inside_the_call(void)
{
	enum doca_ctx_states st;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	CHECK_OK(doca_ctx_start(fx.ctx));
	CHECK_EQ_U64(fx.log.n, 1);
	CHECK(is_state_event(0, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING));
	CHECK_OK(doca_ctx_get_state(fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	CHECK_ERR(doca_ctx_start(fx.ctx), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(fx.log.n, 1);
	sd_fx_teardown(&fx);
}

static void start_and_stop_without_pe_return_not_connected(void)
{
	struct doca_dev *dev;
	struct doca_dma *dma;

	REQUIRE(sd_fx_open_dma_dev(&dev) == DOCA_SUCCESS);
	REQUIRE(doca_dma_create(dev, &dma) == DOCA_SUCCESS);
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, sd_fx_task_ok, sd_fx_task_err, 4));
	CHECK_ERR(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_ERR(doca_ctx_stop(doca_dma_as_ctx(dma)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_dev_close(dev));
}

static void stop_with_nothing_allocated_completes_synchronously(void)
{
	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	CHECK_OK(doca_ctx_stop(fx.ctx));
	CHECK_EQ_U64(fx.log.n, 3);
	CHECK(is_state_event(1, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING));
	CHECK(is_state_event(2, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE));
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	sd_fx_teardown(&fx);
}

static void stop_on_idle_context_is_a_silent_success(void)
{
	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	CHECK_OK(doca_ctx_stop(fx.ctx)); /* never started */
	CHECK_EQ_U64(fx.log.n, 0);
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_stop(fx.ctx) == DOCA_SUCCESS);
	CHECK_OK(doca_ctx_stop(fx.ctx)); /* the cleanup stop of the DMA samples */
	CHECK_EQ_U64(fx.log.n, 3);
	sd_fx_teardown(&fx);
}

static void stop_with_an_allocated_task_waits_for_its_free(void)
{
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {.u64 = 1};
	enum doca_ctx_states st;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &task) == DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_stop(fx.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(is_state_event(1, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING));
	CHECK_ERR(doca_ctx_stop(fx.ctx), DOCA_ERROR_IN_PROGRESS); /* already STOPPING */
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0); /* the task is still allocated */
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &task), DOCA_ERROR_BAD_STATE);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	CHECK_OK(doca_ctx_get_state(fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_STOPPING); /* free never finishes the stop itself */
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK(is_state_event(2, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE));
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	sd_fx_teardown(&fx);
}

/* Stop requested in the completion callback of the last task (dma_common). */
static void stop_last_task(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	doca_error_t *stop_result = arg;

	doca_task_free(doca_dma_task_memcpy_as_task(task));
	*stop_result = doca_ctx_stop(fx.ctx);
}

static void stop_from_a_completion_callback_finishes_in_the_next_progress(void)
{
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {.u64 = 7};
	doca_error_t stop_result = DOCA_ERROR_UNKNOWN;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	fx.log.on_task = stop_last_task;
	fx.log.arg = &stop_result;
	memset(fx.src_mem, 0x5a, 64);
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, 0, 64), sd_fx_dst_buf(&fx, 0, 64), ud,
						&task) == DOCA_SUCCESS);
	REQUIRE(doca_task_submit(doca_dma_task_memcpy_as_task(task)) == DOCA_SUCCESS);
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK_ERR(stop_result, DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(fx.log.n, 3); /* RUNNING, task ok, STOPPING */
	CHECK(fx.log.ev[1].kind == SD_FX_TASK_OK);
	CHECK(is_state_event(2, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING));
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK(is_state_event(3, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE));
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	CHECK(memcmp(fx.src_mem, fx.dst_mem, 64) == 0);
	sd_fx_teardown(&fx);
}

/* pe_reactive: destroy the instance from the IDLE callback. */
static struct doca_dma *reactive_dma;

static void destroy_on_idle(enum doca_ctx_states prev, enum doca_ctx_states next, void *arg)
{
	doca_error_t *destroy_result = arg;

	if (next == DOCA_CTX_STATE_IDLE)
		*destroy_result = doca_dma_destroy(reactive_dma);
}

static void destroy_inside_the_idle_callback_is_allowed(void)
{
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {.u64 = 0};
	doca_error_t destroy_result = DOCA_ERROR_UNKNOWN;
	doca_error_t stop_result = DOCA_ERROR_UNKNOWN;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	reactive_dma = fx.dma;
	fx.log.on_task = stop_last_task;
	fx.log.on_state = destroy_on_idle;
	fx.log.arg = &destroy_result;
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, 0, 8), sd_fx_dst_buf(&fx, 0, 8), ud,
						&task) == DOCA_SUCCESS);
	REQUIRE(doca_task_submit(doca_dma_task_memcpy_as_task(task)) == DOCA_SUCCESS);
	fx.log.arg = &stop_result;
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	fx.log.arg = &destroy_result;
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK_OK(destroy_result);
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	fx.dma = NULL;
	fx.ctx = NULL;
	CHECK_OK(doca_pe_destroy(fx.pe)); /* the destroyed context left the PE */
	fx.pe = NULL;
	sd_fx_teardown(&fx);
}

static void configuration_calls_are_refused_outside_idle(void)
{
	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_set_completion_vector(fx.ctx, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_pe_connect_ctx(fx.pe, fx.ctx), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(fx.dma, sd_fx_task_ok, sd_fx_task_err, 4), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(fx.ctx, (struct doca_gpu *)&fx), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_dma_destroy(fx.dma), DOCA_ERROR_BAD_STATE);
	/* user data and the callback may change in any state */
	CHECK_OK(doca_ctx_set_state_changed_cb(fx.ctx, sd_fx_state_cb));
	sd_fx_teardown(&fx);
}

static void completion_vectors_are_range_checked(void)
{
	struct doca_devinfo *info;
	uint32_t n = 0;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	info = doca_dev_as_devinfo(fx.dev);
	CHECK_OK(doca_ctx_cap_get_num_completion_vectors(info, &n));
	CHECK_EQ_U64(n, 1);
	CHECK_ERR(doca_ctx_cap_get_num_completion_vectors(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_cap_get_num_completion_vectors(info, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_ctx_set_completion_vector(fx.ctx, 0));
	CHECK_ERR(doca_ctx_set_completion_vector(fx.ctx, n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_completion_vector(NULL, 0), DOCA_ERROR_INVALID_VALUE);
	sd_fx_teardown(&fx);
}

static void gpu_and_dpa_data_paths_are_not_supported(void)
{
	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(NULL, (struct doca_gpu *)&fx), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(fx.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(fx.ctx, (struct doca_gpu *)&fx), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_ctx_set_datapath_on_dpa(fx.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_datapath_on_dpa(fx.ctx, (struct doca_dpa *)&fx), DOCA_ERROR_NOT_SUPPORTED);
	sd_fx_teardown(&fx);
}

static void null_arguments_are_invalid_values(void)
{
	union doca_data ud = {.u64 = 0};
	enum doca_ctx_states st;
	size_t n;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	CHECK_ERR(doca_ctx_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_get_state(NULL, &st), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_get_state(fx.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_get_user_data(fx.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_state_changed_cb(NULL, sd_fx_state_cb), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_state_changed_cb(fx.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_get_num_inflight_tasks(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_get_num_inflight_tasks(fx.ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	doca_ctx_flush_tasks(NULL);   /* ignored, logged */
	doca_ctx_flush_tasks(fx.ctx); /* IDLE: ignored, logged */
	CHECK_OK(doca_ctx_get_user_data(fx.ctx, &ud));
	CHECK(ud.ptr == &fx.log);
	sd_fx_teardown(&fx);
}

static void context_can_be_restarted_after_a_stop(void)
{
	REQUIRE(sd_fx_setup(&fx, 4096, 2, 8));
	for (int round = 0; round < 3; round++) {
		struct doca_dma_task_memcpy *a, *b, *c;
		union doca_data ud = {.u64 = 0};

		CHECK_OK(doca_ctx_start(fx.ctx));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &a));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &b));
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &c), DOCA_ERROR_NO_MEMORY);
		doca_task_free(doca_dma_task_memcpy_as_task(a));
		doca_task_free(doca_dma_task_memcpy_as_task(b));
		CHECK_OK(doca_ctx_stop(fx.ctx));
	}
	CHECK_EQ_U64(count_kind(SD_FX_STATE), 9);
	sd_fx_teardown(&fx);
}

int main(void)
{
	SD_RUN(start_fires_running_callback_inside_the_call);
	SD_RUN(start_and_stop_without_pe_return_not_connected);
	SD_RUN(stop_with_nothing_allocated_completes_synchronously);
	SD_RUN(stop_on_idle_context_is_a_silent_success);
	SD_RUN(stop_with_an_allocated_task_waits_for_its_free);
	SD_RUN(stop_from_a_completion_callback_finishes_in_the_next_progress);
	SD_RUN(destroy_inside_the_idle_callback_is_allowed);
	SD_RUN(configuration_calls_are_refused_outside_idle);
	SD_RUN(completion_vectors_are_range_checked);
	SD_RUN(gpu_and_dpa_data_paths_are_not_supported);
	SD_RUN(null_arguments_are_invalid_values);
	SD_RUN(context_can_be_restarted_after_a_stop);
	return sd_test_done();
}
