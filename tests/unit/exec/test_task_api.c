/*
 * The generic task API: submission checks and their order, task
 * status through its life, user data, free rules, fatal failures and
 * flushes, and the task-batch refusals.
 */
#include <doca_log.h>

#include "sd_fixture.h"

static struct sd_fx fx;

static struct doca_task *alloc_copy(size_t off, size_t len, uint64_t ud_value)
{
	struct doca_dma_task_memcpy *task = NULL;
	union doca_data ud = {.u64 = ud_value};

	if (doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, off, len), sd_fx_dst_buf(&fx, off, len), ud,
					    &task) != DOCA_SUCCESS)
		return NULL;
	return doca_dma_task_memcpy_as_task(task);
}

static void free_reported_tasks(void)
{
	for (size_t i = 0; i < fx.log.n; i++)
		if (fx.log.ev[i].kind != SD_FX_STATE)
			doca_task_free(doca_dma_task_memcpy_as_task(fx.log.ev[i].task));
}

static void status_follows_the_task_through_its_life(void)
{
	struct doca_task *task;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	task = alloc_copy(0, 128, 9);
	REQUIRE(task != NULL);
	CHECK_OK(doca_task_get_status(task));
	CHECK_OK(doca_task_submit(task));
	CHECK_ERR(doca_task_get_status(task), DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK_ERR(fx.log.ev[1].status, DOCA_SUCCESS); /* read inside the callback */
	CHECK_OK(doca_task_get_status(task));
	CHECK(doca_task_get_ctx(task) == fx.ctx);
	CHECK_EQ_U64(doca_task_get_user_data(task).u64, 9);
	CHECK_ERR(doca_task_get_status(NULL), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(task);
	sd_fx_teardown(&fx);
}

static void submit_checks_run_in_the_documented_order(void)
{
	struct doca_task *task;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	CHECK_ERR(doca_task_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_try_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_submit_ex(NULL, 0), DOCA_ERROR_INVALID_VALUE);
	task = alloc_copy(0, 64, 1);
	REQUIRE(task != NULL);
	CHECK_ERR(doca_task_submit_ex(task, 1u << 7), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_task_submit_ex(task, DOCA_TASK_SUBMIT_FLAG_FLUSH | DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS));
	CHECK_ERR(doca_task_submit(task), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_task_get_status(task), DOCA_ERROR_IN_PROGRESS); /* not clobbered by the refusal */
	doca_task_free(task); /* in flight: kept until its report */
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK(fx.log.ev[1].kind == SD_FX_TASK_OK);
	CHECK_ERR(doca_task_submit(task), DOCA_ERROR_INVALID_VALUE); /* freed while the pool lives */
	doca_task_free(task);                                        /* double free: ignored */
	doca_task_free(NULL);
	sd_fx_teardown(&fx);
}

static void submit_outside_running_is_a_bad_state(void)
{
	struct doca_task *task;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	task = alloc_copy(0, 64, 1);
	REQUIRE(task != NULL);
	CHECK_ERR(doca_ctx_stop(fx.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_ERR(doca_task_submit(task), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_task_get_status(task), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_BAD_STATE);
	doca_task_free(task);
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1); /* STOPPING -> IDLE */
	sd_fx_teardown(&fx);
}

static void try_submit_refuses_a_bad_task_and_keeps_running(void)
{
	struct doca_task *task;
	enum doca_ctx_states st;
	size_t n;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	task = alloc_copy(0, 0, 1); /* zero-length source */
	REQUIRE(task != NULL);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_get_status(task), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_ctx_get_state(fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_ctx_get_num_inflight_tasks(fx.ctx, &n));
	CHECK_EQ_U64(n, 0);
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	doca_task_free(task);
	sd_fx_teardown(&fx);
}

static int sdk_error_records;
static int sdk_try_submit_records;
static int sdk_progress_records;
static char sdk_log_buf[2048];

static void count_sdk_record(char *line)
{
	if (strstr(line, "[ERR]") != NULL)
		sdk_error_records++;
	if (strstr(line, "doca_task_try_submit") != NULL && strstr(line, "[V3]") != NULL)
		sdk_try_submit_records++;
	if (strstr(line, "[doca_pe_progress]") != NULL && strstr(line, "memcpy task") != NULL &&
	    strstr(line, "holds no data") != NULL && strstr(line, "[V3]") != NULL)
		sdk_progress_records++;
}

static void a_refused_try_submit_logs_one_error_naming_the_rule(void)
{
	static struct doca_log_backend *backend;
	struct doca_task *task;

	if (backend == NULL) {
		REQUIRE(doca_log_backend_create_with_buf_sdk(sdk_log_buf, sizeof(sdk_log_buf), count_sdk_record,
							     &backend) == DOCA_SUCCESS);
		REQUIRE(doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_ERROR) == DOCA_SUCCESS);
	}
	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	task = alloc_copy(0, 0, 1);
	REQUIRE(task != NULL);
	sdk_error_records = 0;
	sdk_try_submit_records = 0;
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(sdk_error_records, 1);
	CHECK_EQ_U64(sdk_try_submit_records, 1);
	/*
	 * The same broken rule at execution goes to the callback, after one
	 * ERROR record of doca_pe_progress that names the task and the rule.
	 */
	sdk_error_records = 0;
	sdk_progress_records = 0;
	CHECK_OK(doca_task_submit(task));
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK_EQ_U64(sdk_error_records, 1);
	CHECK_EQ_U64(sdk_progress_records, 1);
	sdk_error_records = 0;
	doca_task_free(task);
	sd_fx_teardown(&fx);
	CHECK_EQ_U64(sdk_error_records, 0); /* the whole clean-up path is silent */
}

static void execution_failure_stops_the_context_before_the_error_callback(void)
{
	struct doca_task *good, *bad, *later;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	good = alloc_copy(0, 16, 1);
	bad = alloc_copy(16, 0, 2);
	later = alloc_copy(32, 16, 3);
	REQUIRE(good && bad && later);
	CHECK_OK(doca_task_submit(good));
	CHECK_OK(doca_task_submit(bad)); /* submit never validates */
	CHECK_OK(doca_task_submit(later));
	CHECK_EQ_U64(sd_fx_drain(fx.pe), 3); /* no IDLE yet: tasks still allocated */
	REQUIRE(fx.log.n == 5);
	CHECK(fx.log.ev[1].kind == SD_FX_TASK_OK);
	CHECK(fx.log.ev[2].kind == SD_FX_STATE && fx.log.ev[2].next == DOCA_CTX_STATE_STOPPING);
	CHECK(fx.log.ev[3].kind == SD_FX_TASK_ERR && fx.log.ev[3].status == DOCA_ERROR_INVALID_VALUE);
	CHECK(fx.log.ev[3].ctx_state == DOCA_CTX_STATE_STOPPING);
	CHECK(fx.log.ev[4].kind == SD_FX_TASK_ERR && fx.log.ev[4].status == DOCA_ERROR_SHUTDOWN);
	CHECK_EQ_U64(fx.log.ev[4].task_ud, 3);
	if (!sd_engine_is_async())
		CHECK(fx.dst_mem[32] == 0); /* the flushed task copied nothing (inline engine only) */
	free_reported_tasks();
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK(fx.log.ev[5].kind == SD_FX_STATE && fx.log.ev[5].next == DOCA_CTX_STATE_IDLE);
	sd_fx_teardown(&fx);
}

static void stop_flushes_in_flight_tasks_with_shutdown(void)
{
	struct doca_task *t[4];

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 16));
	memset(fx.src_mem, 0xab, 4096);
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	for (int i = 0; i < 4; i++) {
		t[i] = alloc_copy((size_t)i * 64, 64, (uint64_t)i);
		REQUIRE(t[i] != NULL);
		REQUIRE(doca_task_submit(t[i]) == DOCA_SUCCESS);
	}
	CHECK_ERR(doca_ctx_stop(fx.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(sd_fx_drain(fx.pe), 4);
	for (int i = 0; i < 4; i++) {
		CHECK(fx.log.ev[2 + i].kind == SD_FX_TASK_ERR);
		CHECK_ERR(fx.log.ev[2 + i].status, DOCA_ERROR_SHUTDOWN);
		CHECK_EQ_U64(fx.log.ev[2 + i].task_ud, (uint64_t)i);
	}
	/* The default engine copied nothing. Another engine may have copied a task before its
	 * flush was reported (decisions.md, "When a copy runs"), whole: each slice is untouched or complete. */
	for (size_t i = 0; i < 256; i += 64) {
		uint8_t first = fx.dst_mem[i];
		CHECK(first == 0 || (sd_engine_is_async() && first == 0xab));
		for (size_t j = 1; j < 64; j++)
			CHECK(fx.dst_mem[i + j] == first);
	}
	free_reported_tasks();
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	sd_fx_teardown(&fx);
}

static int resubmits_left;

static void resubmit_from_callback(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	union doca_data ud = {.u64 = doca_task_get_user_data(t).u64 + 1};

	if (resubmits_left-- <= 0)
		return;
	doca_buf_reset_data_len(doca_dma_task_memcpy_get_dst(task));
	doca_task_set_user_data(t, ud);
	*(doca_error_t *)arg = doca_task_submit(t);
}

static void a_task_resubmitted_from_its_callback_is_reported_by_a_later_call(void)
{
	struct doca_task *task;
	doca_error_t resubmit_result = DOCA_ERROR_UNKNOWN;

	REQUIRE(sd_fx_setup(&fx, 4096, 1, 8));
	fx.log.on_task = resubmit_from_callback;
	fx.log.arg = &resubmit_result;
	resubmits_left = 3;
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	task = alloc_copy(0, 32, 10);
	REQUIRE(task != NULL);
	REQUIRE(doca_task_submit(task) == DOCA_SUCCESS);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
		CHECK_EQ_U64(fx.log.n, 2 + (size_t)i);
		CHECK_EQ_U64(fx.log.ev[1 + i].task_ud, 10 + (uint64_t)i);
	}
	CHECK_OK(resubmit_result);
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	doca_task_free(task);
	sd_fx_teardown(&fx);
}

/* ---- doca_task_free on a task in flight (docs/decisions.md, "free in flight") ---- */

static int free_warnings, free_errors;
static char free_log_buf[2048];

static void count_free_record(char *line)
{
	if (strstr(line, "[doca_task_free]") == NULL)
		return;
	if (strstr(line, "[WRN]") != NULL)
		free_warnings++;
	if (strstr(line, "[ERR]") != NULL)
		free_errors++;
}

static void watch_free_records(void)
{
	static struct doca_log_backend *backend;

	if (backend == NULL) {
		REQUIRE(doca_log_backend_create_with_buf_sdk(free_log_buf, sizeof(free_log_buf), count_free_record,
							     &backend) == DOCA_SUCCESS);
		REQUIRE(doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING) == DOCA_SUCCESS);
	}
	free_warnings = 0;
	free_errors = 0;
}

static void a_task_freed_in_flight_is_reported_then_returns_to_its_pool(void)
{
	struct doca_dma_task_memcpy *again = NULL;
	union doca_data ud = {.u64 = 0};
	struct doca_task *task;

	REQUIRE(sd_fx_setup(&fx, 4096, 1, 8));
	memset(fx.src_mem, 0x5a, 64);
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	task = alloc_copy(0, 64, 7);
	REQUIRE(task != NULL);
	CHECK_OK(doca_task_submit(task));
	doca_task_free(task);
	/* Still the context's until its report: the one-task pool stays empty. */
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &again), DOCA_ERROR_NO_MEMORY);
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	REQUIRE(fx.log.n == 2);
	CHECK(fx.log.ev[1].kind == SD_FX_TASK_OK && fx.log.ev[1].task_ud == 7);
	CHECK(fx.dst_mem[63] == 0x5a); /* the copy was made */
	CHECK_OK(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &again));
	CHECK(doca_dma_task_memcpy_as_task(again) == task); /* the same slot, back in the pool */
	doca_task_free(doca_dma_task_memcpy_as_task(again));
	sd_fx_teardown(&fx);
}

static void stopping_after_freeing_in_flight_tasks_reaches_idle(void)
{
	struct doca_task *t[4];
	enum doca_ctx_states st;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 16));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	for (int i = 0; i < 4; i++) {
		t[i] = alloc_copy((size_t)i * 64, 64, (uint64_t)i);
		REQUIRE(t[i] != NULL);
		REQUIRE(doca_task_submit(t[i]) == DOCA_SUCCESS);
	}
	/* DOCA's secure_channel order: free what is posted, then stop and wait for IDLE. */
	for (int i = 0; i < 4; i++)
		doca_task_free(t[i]);
	CHECK_ERR(doca_ctx_stop(fx.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(sd_fx_drain(fx.pe), 5); /* four flushes, then IDLE with nothing freed by hand */
	for (int i = 0; i < 4; i++) {
		CHECK(fx.log.ev[2 + i].kind == SD_FX_TASK_ERR);
		CHECK_ERR(fx.log.ev[2 + i].status, DOCA_ERROR_SHUTDOWN);
		CHECK_EQ_U64(fx.log.ev[2 + i].task_ud, (uint64_t)i);
	}
	CHECK(fx.log.ev[6].kind == SD_FX_STATE && fx.log.ev[6].next == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_get_state(fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	sd_fx_teardown(&fx);
}

static void a_freed_task_its_callback_resubmits_returns_after_its_last_report(void)
{
	struct doca_dma_task_memcpy *again = NULL;
	doca_error_t resubmit_result = DOCA_ERROR_UNKNOWN;
	union doca_data ud = {.u64 = 0};
	struct doca_task *task;

	REQUIRE(sd_fx_setup(&fx, 4096, 1, 8));
	fx.log.on_task = resubmit_from_callback;
	fx.log.arg = &resubmit_result;
	resubmits_left = 2;
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	task = alloc_copy(0, 32, 20);
	REQUIRE(task != NULL);
	REQUIRE(doca_task_submit(task) == DOCA_SUCCESS);
	doca_task_free(task);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
		CHECK_EQ_U64(fx.log.ev[1 + i].task_ud, 20 + (uint64_t)i);
		if (i < 2) /* resubmitted: still the application's task, and in flight again */
			CHECK_ERR(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &again),
				  DOCA_ERROR_NO_MEMORY);
	}
	CHECK_OK(resubmit_result);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &again));
	doca_task_free(doca_dma_task_memcpy_as_task(again));
	sd_fx_teardown(&fx);
}

static void a_free_in_flight_warns_once_per_run_and_a_second_free_is_an_error(void)
{
	struct doca_dma_task_memcpy *extra[5];
	union doca_data ud = {.u64 = 0};
	struct doca_task *a, *b;
	int got = 0;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	a = alloc_copy(0, 16, 1);
	b = alloc_copy(16, 16, 2);
	REQUIRE(a != NULL && b != NULL);
	CHECK_OK(doca_task_submit(a));
	CHECK_OK(doca_task_submit(b));
	watch_free_records();
	doca_task_free(a);
	CHECK_EQ_U64(free_warnings, 1);
	doca_task_free(b); /* the same misuse again: a debug record only */
	CHECK_EQ_U64(free_warnings, 1);
	CHECK_EQ_U64(free_errors, 0);
	doca_task_free(a); /* freed twice */
	CHECK_EQ_U64(free_errors, 1);
	CHECK_EQ_U64(sd_fx_drain(fx.pe), 2);
	CHECK_EQ_U64(fx.log.n, 3);
	/* Each went back once: the pool holds its four tasks again, not five. */
	for (int i = 0; i < 5; i++)
		if (doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &extra[got]) == DOCA_SUCCESS)
			got++;
	CHECK_EQ_U64(got, 4);
	for (int i = 0; i < got; i++)
		doca_task_free(doca_dma_task_memcpy_as_task(extra[i]));
	CHECK_EQ_U64(free_errors, 1);
	sd_fx_teardown(&fx);
}

static void user_data_calls_tolerate_null(void)
{
	union doca_data ud = {.u64 = 5};

	doca_task_set_user_data(NULL, ud);
	CHECK_EQ_U64(doca_task_get_user_data(NULL).u64, 0);
	CHECK(doca_task_get_ctx(NULL) == NULL);
}

static void task_batches_are_refused(void)
{
	struct doca_task_batch *fake = (struct doca_task_batch *)&fx;
	union doca_data ud = {.u64 = 1};

	CHECK_ERR(doca_task_batch_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_batch_submit(fake), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_task_batch_try_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_batch_try_submit(fake), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_task_batch_get_status(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_batch_get_status(fake), DOCA_ERROR_NOT_SUPPORTED);
	doca_task_batch_free(NULL);
	doca_task_batch_free(fake);
	doca_task_batch_set_user_data(fake, ud);
	CHECK_EQ_U64(doca_task_batch_get_user_data(fake).u64, 0);
	CHECK_EQ_U64(doca_task_batch_get_ctx_user_data(fake).u64, 0);
	CHECK(doca_task_batch_get_ctx(fake) == NULL);
	CHECK_EQ_U64(doca_task_batch_get_tasks_num(fake), 0);
}

static void the_pool_holds_exactly_the_configured_number_of_tasks(void)
{
	struct doca_dma_task_memcpy *tasks[3], *extra;
	union doca_data ud = {.u64 = 0};

	REQUIRE(sd_fx_setup(&fx, 4096, 3, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	for (int i = 0; i < 3; i++)
		CHECK_OK(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &tasks[i]));
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &extra), DOCA_ERROR_NO_MEMORY);
	doca_task_free(doca_dma_task_memcpy_as_task(tasks[1]));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &extra));
	CHECK(extra == tasks[1]);
	doca_task_free(doca_dma_task_memcpy_as_task(tasks[0]));
	doca_task_free(doca_dma_task_memcpy_as_task(tasks[2]));
	doca_task_free(doca_dma_task_memcpy_as_task(extra));
	sd_fx_teardown(&fx);
}

int main(void)
{
	SD_RUN(status_follows_the_task_through_its_life);
	SD_RUN(submit_checks_run_in_the_documented_order);
	SD_RUN(submit_outside_running_is_a_bad_state);
	SD_RUN(try_submit_refuses_a_bad_task_and_keeps_running);
	SD_RUN(a_refused_try_submit_logs_one_error_naming_the_rule);
	SD_RUN(execution_failure_stops_the_context_before_the_error_callback);
	SD_RUN(stop_flushes_in_flight_tasks_with_shutdown);
	SD_RUN(a_task_resubmitted_from_its_callback_is_reported_by_a_later_call);
	SD_RUN(a_task_freed_in_flight_is_reported_then_returns_to_its_pool);
	SD_RUN(stopping_after_freeing_in_flight_tasks_reaches_idle);
	SD_RUN(a_freed_task_its_callback_resubmits_returns_after_its_last_report);
	SD_RUN(a_free_in_flight_warns_once_per_run_and_a_second_free_is_an_error);
	SD_RUN(user_data_calls_tolerate_null);
	SD_RUN(task_batches_are_refused);
	SD_RUN(the_pool_holds_exactly_the_configured_number_of_tasks);
	return sd_test_done();
}
