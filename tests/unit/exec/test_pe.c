/*
 * The progress engine: one unit of work per call, submission order,
 * counters, the notification handle, and the calls refused inside callbacks.
 */
#include <poll.h>

#include "sd_fixture.h"

static struct sd_fx fx;

static bool handle_readable(struct doca_pe *pe)
{
	doca_notification_handle_t h;
	struct pollfd p;

	if (doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS)
		return false;
	p.fd = h;
	p.events = POLLIN;
	p.revents = 0;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static struct doca_dma_task_memcpy *submit_copy(size_t off, size_t len, uint64_t ud_value)
{
	struct doca_dma_task_memcpy *task = NULL;
	union doca_data ud = {.u64 = ud_value};

	if (doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, off, len), sd_fx_dst_buf(&fx, off, len), ud,
					    &task) != DOCA_SUCCESS)
		return NULL;
	if (doca_task_submit(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS)
		return NULL;
	return task;
}

static void create_and_destroy_validate_their_arguments(void)
{
	struct doca_pe *pe;

	CHECK_ERR(doca_pe_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_pe_create(&pe));
	CHECK_EQ_U64(doca_pe_progress(pe), 0);
	CHECK_EQ_U64(doca_pe_progress(NULL), 0);
	CHECK_OK(doca_pe_destroy(pe));
}

static void destroy_is_refused_while_a_context_is_connected(void)
{
	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	CHECK_ERR(doca_pe_destroy(fx.pe), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_pe_connect_ctx(fx.pe, fx.ctx), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_pe_connect_ctx(NULL, fx.ctx), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_connect_ctx(fx.pe, NULL), DOCA_ERROR_INVALID_VALUE);
	sd_fx_teardown(&fx);
}

static void each_progress_call_reports_exactly_one_task_in_order(void)
{
	size_t n;

	REQUIRE(sd_fx_setup(&fx, 4096, 8, 32));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	for (uint64_t i = 0; i < 5; i++)
		REQUIRE(submit_copy(i * 16, 16, 100 + i) != NULL);
	CHECK_OK(doca_pe_get_num_inflight_tasks(fx.pe, &n));
	CHECK_EQ_U64(n, 5);
	for (uint64_t i = 0; i < 5; i++) {
		CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
		CHECK_EQ_U64(fx.log.n, 2 + i);
		CHECK(fx.log.ev[1 + i].kind == SD_FX_TASK_OK);
		CHECK_EQ_U64(fx.log.ev[1 + i].task_ud, 100 + i);
		/* the reported task is no longer counted inside its callback */
		CHECK_EQ_U64(fx.log.ev[1 + i].inflight, 4 - i);
	}
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	CHECK_OK(doca_pe_get_num_inflight_tasks(fx.pe, &n));
	CHECK_EQ_U64(n, 0);
	CHECK_ERR(doca_pe_get_num_inflight_tasks(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_get_num_inflight_tasks(fx.pe, NULL), DOCA_ERROR_INVALID_VALUE);
	for (size_t i = 1; i < fx.log.n; i++)
		doca_task_free(doca_dma_task_memcpy_as_task(fx.log.ev[i].task));
	sd_fx_teardown(&fx);
}

static void notification_handle_wakes_only_when_work_is_pending(void)
{
	doca_notification_handle_t h1, h2;
	struct doca_dma_task_memcpy *task;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	CHECK_OK(doca_pe_get_notification_handle(fx.pe, &h1));
	CHECK_OK(doca_pe_get_notification_handle(fx.pe, &h2));
	CHECK(h1 == h2 && h1 >= 0);
	CHECK_ERR(doca_pe_get_notification_handle(NULL, &h1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_get_notification_handle(fx.pe, NULL), DOCA_ERROR_INVALID_VALUE);
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);

	CHECK_OK(doca_pe_request_notification(fx.pe));
	CHECK(!handle_readable(fx.pe)); /* nothing to do yet */
	task = submit_copy(0, 32, 1);
	REQUIRE(task != NULL);
	CHECK(handle_readable(fx.pe)); /* the submit woke the armed PE */
	CHECK_OK(doca_pe_clear_notification(fx.pe, 0));
	CHECK(!handle_readable(fx.pe));

	/* Arming while work is pending signals at once: no lost wake-up. */
	CHECK_OK(doca_pe_request_notification(fx.pe));
	CHECK(handle_readable(fx.pe));
	CHECK_OK(doca_pe_clear_notification(fx.pe, 12345)); /* the handle argument is ignored */
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);

	/* Not armed: a submit does not signal. */
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	task = submit_copy(64, 32, 2);
	REQUIRE(task != NULL);
	CHECK(!handle_readable(fx.pe));
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	CHECK_ERR(doca_pe_request_notification(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_clear_notification(NULL, 0), DOCA_ERROR_INVALID_VALUE);
	sd_fx_teardown(&fx);
}

static void a_pending_stop_transition_wakes_an_armed_pe(void)
{
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {.u64 = 0};

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_dma_task_memcpy_alloc_init(fx.dma, NULL, NULL, ud, &task) == DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_stop(fx.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(doca_pe_request_notification(fx.pe));
	CHECK(!handle_readable(fx.pe)); /* still allocated: nothing to progress */
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	CHECK(handle_readable(fx.pe)); /* the free made the IDLE transition pending */
	CHECK_OK(doca_pe_clear_notification(fx.pe, 0));
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	sd_fx_teardown(&fx);
}

struct inside_results {
	uint8_t progress;
	doca_error_t set_mode;
	doca_error_t destroy;
	bool ran;
};

static void call_forbidden_things(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	struct inside_results *r = arg;

	r->progress = doca_pe_progress(fx.pe);
	r->set_mode = doca_pe_set_event_mode(fx.pe, DOCA_PE_EVENT_MODE_PROGRESS_ALL);
	r->destroy = doca_pe_destroy(fx.pe);
	r->ran = true;
}

static void progress_inside_a_callback_is_a_no_op(void)
{
	struct inside_results r = {0};

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 8));
	fx.log.on_task = call_forbidden_things;
	fx.log.arg = &r;
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(submit_copy(0, 8, 1) != NULL);
	REQUIRE(submit_copy(8, 8, 2) != NULL);
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	CHECK(r.ran);
	CHECK_EQ_U64(r.progress, 0);
	CHECK_ERR(r.set_mode, DOCA_ERROR_BAD_STATE);
	CHECK_ERR(r.destroy, DOCA_ERROR_IN_USE);
	CHECK_EQ_U64(fx.log.n, 2); /* the second task was not reported recursively */
	fx.log.on_task = NULL;
	CHECK_EQ_U64(sd_progress_one(fx.pe), 1);
	for (size_t i = 1; i < fx.log.n; i++)
		doca_task_free(doca_dma_task_memcpy_as_task(fx.log.ev[i].task));
	sd_fx_teardown(&fx);
}

static void event_mode_accepts_only_its_two_values(void)
{
	struct doca_pe *pe;

	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	CHECK_OK(doca_pe_set_event_mode(pe, DOCA_PE_EVENT_MODE_PROGRESS_ALL));
	CHECK_OK(doca_pe_set_event_mode(pe, DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE));
	CHECK_ERR(doca_pe_set_event_mode(pe, (enum doca_pe_event_mode)7), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_set_event_mode(NULL, DOCA_PE_EVENT_MODE_PROGRESS_ALL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK_OK(doca_pe_destroy(pe));
}

/*
 * The inline engine runs each task inside the progress call that reports
 * it, so two contexts' tasks come back in the order they were submitted.
 * On the worker engine (SOFTDOCA_DMA_WORKERS) each context keeps its own
 * order but the two may interleave, as on a card (docs/async-engine.md):
 * there each context's tasks are checked in order, the interleaving not.
 */
static void tasks_of_two_contexts_complete_in_global_submission_order(void)
{
	bool global = !sd_engine_is_async();
	struct doca_dma *dma2;
	struct doca_dma_task_memcpy *t;
	union doca_data ud2 = {.ptr = &fx.log};
	uint64_t next[2] = {0, 1}; /* the next task_ud each context must report: 0, 2 and 1, 3 */

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 16));
	REQUIRE(doca_dma_create(fx.dev, &dma2) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_set_user_data(doca_dma_as_ctx(dma2), ud2) == DOCA_SUCCESS);
	REQUIRE(doca_dma_task_memcpy_set_conf(dma2, sd_fx_task_ok, sd_fx_task_err, 4) == DOCA_SUCCESS);
	REQUIRE(doca_pe_connect_ctx(fx.pe, doca_dma_as_ctx(dma2)) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(doca_dma_as_ctx(dma2)) == DOCA_SUCCESS);
	for (uint64_t i = 0; i < 4; i++) {
		struct doca_dma *owner = (i % 2) ? dma2 : fx.dma;
		union doca_data ud = {.u64 = i};

		REQUIRE(doca_dma_task_memcpy_alloc_init(owner, sd_fx_src_buf(&fx, i * 8, 8),
							sd_fx_dst_buf(&fx, i * 8, 8), ud, &t) == DOCA_SUCCESS);
		REQUIRE(doca_task_submit(doca_dma_task_memcpy_as_task(t)) == DOCA_SUCCESS);
	}
	CHECK_EQ_U64(sd_fx_drain(fx.pe), 4);
	for (uint64_t i = 0; i < 4; i++) {
		uint64_t ud = fx.log.ev[1 + i].task_ud;

		if (global)
			CHECK_EQ_U64(ud, i);
		CHECK(ud < 4 && ud == next[ud % 2]);
		next[ud % 2] = ud + 2;
		CHECK(doca_task_get_ctx(doca_dma_task_memcpy_as_task(fx.log.ev[1 + i].task)) ==
		      ((ud % 2) ? doca_dma_as_ctx(dma2) : fx.ctx));
		doca_task_free(doca_dma_task_memcpy_as_task(fx.log.ev[1 + i].task));
	}
	CHECK_EQ_U64(next[0], 4);
	CHECK_EQ_U64(next[1], 5);
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma2)));
	CHECK_OK(doca_dma_destroy(dma2));
	sd_fx_teardown(&fx);
}

int main(void)
{
	SD_RUN(create_and_destroy_validate_their_arguments);
	SD_RUN(destroy_is_refused_while_a_context_is_connected);
	SD_RUN(each_progress_call_reports_exactly_one_task_in_order);
	SD_RUN(notification_handle_wakes_only_when_work_is_pending);
	SD_RUN(a_pending_stop_transition_wakes_an_armed_pe);
	SD_RUN(progress_inside_a_callback_is_a_no_op);
	SD_RUN(event_mode_accepts_only_its_two_values);
	SD_RUN(tasks_of_two_contexts_complete_in_global_submission_order);
	return sd_test_done();
}
