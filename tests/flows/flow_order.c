/*
 * flow_order - exact callback order and counts for every sample flow.
 *
 * Each case replays one flow with recording callbacks and compares the
 * whole run, line by line, with the sequence the specification fixes for
 * the default engine:
 *
 *   - one unit per doca_pe_progress call: one task report or one state
 *     transition, in submission order; the RUNNING -> STOPPING callback of
 *     a fatal error shares the call with the failing task's report and
 *     comes first;
 *   - start and a stop outside callbacks report their transitions inside
 *     the call; a stop inside a progress callback reports STOPPING there
 *     and answers IN_PROGRESS;
 *   - STOPPING -> IDLE is reported by the call right after the last
 *     report, and the next call returns 0;
 *   - nothing is reported from inside submit, try_submit or free.
 *
 * Lines read "<phase> <event>": the phase is P<n> inside the n-th progress
 * call, "start"/"stop" inside doca_ctx_start/doca_ctx_stop called from the
 * main flow, "main" elsewhere.  Only meaningful with the default engine.
 */
#include <poll.h>

#include "flows.h"

#define MAX_CTX 4
#define MAX_PAIRS 16

struct oc_ctx {
	int index;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
};

struct order_run {
	struct flow_base b;
	struct oc_ctx c[MAX_CTX];
	int nctx;
	int ntasks;      /* per context (or copies, for resubmit) */
	int reports;     /* task callbacks so far */
	int stop_at;     /* stop context 0 from the stop_at-th report; 0 = never */
	int bad;         /* user data of the task of context 0 with an empty source */
	bool reactive;   /* submit from RUNNING, stop in the last report, destroy in IDLE */
	bool resubmit;   /* POOL tasks carry ntasks copies */
	bool try_submit;
	bool single_cb;  /* one function for success and error */
	int bad_data;
	struct doca_buf *src[MAX_PAIRS], *dst[MAX_PAIRS];
	int next_pair;
};

static struct order_run R;

static char expected[FLOW_TRACE_MAX][FLOW_LINE_MAX];
static int n_expected;

static void expect(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void expect(const char *fmt, ...)
{
	va_list ap;

	if (n_expected >= FLOW_TRACE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(expected[n_expected++], FLOW_LINE_MAX, fmt, ap);
	va_end(ap);
}

static const char *err_name(doca_error_t e)
{
	return doca_error_get_name(e);
}

/* ------------------------------------------------------------------ */
/* Recording callbacks and their scripted actions                      */
/* ------------------------------------------------------------------ */

static void order_submit(struct doca_dma_task_memcpy *task)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	doca_error_t err = R.try_submit ? doca_task_try_submit(t) : doca_task_submit(t);

	if (err != DOCA_SUCCESS)
		flow_tracef("submit = %s", err_name(err));
}

/* Allocate and submit context k's tasks, values 1..ntasks. */
static void order_submit_all(struct oc_ctx *c)
{
	for (int i = 0; i < R.ntasks; i++) {
		struct doca_dma_task_memcpy *t =
			flow_alloc_copy_task(&R.b, c->dma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		if (t == NULL)
			return;
		if (c->index == 0 && i + 1 == R.bad)
			CHECK_OK(doca_buf_reset_data_len(flow_unconst(doca_dma_task_memcpy_get_src(t))));
		order_submit(t);
	}
}

static void order_after_report(struct oc_ctx *c, struct doca_dma_task_memcpy *task, uint64_t ud, bool ok)
{
	R.reports++;
	if (ok && !flow_dst_holds(task, (uint8_t)ud))
		R.bad_data++;
	if (R.resubmit) {
		int k = (int)ud - 1;

		CHECK_OK(doca_buf_dec_refcount(R.src[k], NULL));
		CHECK_OK(doca_buf_dec_refcount(R.dst[k], NULL));
		if (R.next_pair < R.ntasks) {
			k = R.next_pair++;
			doca_task_set_user_data(doca_dma_task_memcpy_as_task(task), (union doca_data){.u64 = (uint64_t)k + 1});
			doca_dma_task_memcpy_set_src(task, R.src[k]);
			doca_dma_task_memcpy_set_dst(task, R.dst[k]);
			order_submit(task);
		} else {
			doca_task_free(doca_dma_task_memcpy_as_task(task));
		}
	} else {
		flow_release_task(task);
	}
	if ((R.stop_at != 0 && R.reports == R.stop_at) || (R.reactive && R.reports == R.ntasks)) {
		doca_error_t err = doca_ctx_stop(c->ctx);

		flow_tracef("stop c%d = %s", c->index, err_name(err));
	}
}

static void order_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct oc_ctx *c = ctx_ud.ptr;

	flow_tracef("ok c%d t%" PRIu64, c->index, task_ud.u64);
	order_after_report(c, task, task_ud.u64, true);
}

static void order_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct oc_ctx *c = ctx_ud.ptr;

	flow_tracef("err c%d t%" PRIu64 " %s", c->index, task_ud.u64,
		    err_name(doca_task_get_status(doca_dma_task_memcpy_as_task(task))));
	order_after_report(c, task, task_ud.u64, false);
}

static void order_single_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct oc_ctx *c = ctx_ud.ptr;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	flow_tracef("cb c%d t%" PRIu64 " %s", c->index, task_ud.u64, err_name(status));
	order_after_report(c, task, task_ud.u64, status == DOCA_SUCCESS);
}

static void order_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			   enum doca_ctx_states next)
{
	struct oc_ctx *c = ud.ptr;

	(void)ctx;
	flow_tracef("state c%d %s->%s", c->index, flow_state_name(prev), flow_state_name(next));
	if (R.reactive && next == DOCA_CTX_STATE_RUNNING)
		order_submit_all(c);
	if (R.reactive && next == DOCA_CTX_STATE_IDLE) {
		doca_error_t err = doca_dma_destroy(c->dma);

		flow_tracef("destroy c%d = %s", c->index, err_name(err));
		c->dma = NULL;
		c->ctx = NULL;
	}
}

/* ------------------------------------------------------------------ */
/* Set-up, driving and teardown                                        */
/* ------------------------------------------------------------------ */

static bool order_setup(int nctx, int ntasks, uint32_t pool)
{
	size_t mem = (size_t)nctx * (size_t)ntasks * 2 * FLOW_COPY_LEN;

	R.nctx = nctx;
	R.ntasks = ntasks;
	flow_trace_reset();
	n_expected = 0;
	if (!flow_base_init(&R.b, mem, (uint32_t)(2 * nctx * ntasks)))
		return false;
	for (int k = 0; k < nctx; k++) {
		struct oc_ctx *c = &R.c[k];
		doca_dma_task_memcpy_completion_cb_t ok = R.single_cb ? order_single_cb : order_ok_cb;
		doca_dma_task_memcpy_completion_cb_t err = R.single_cb ? order_single_cb : order_err_cb;

		c->index = k;
		c->dma = flow_dma_new(&R.b, ok, err, pool, c, order_state_cb);
		if (c->dma == NULL)
			return false;
		c->ctx = doca_dma_as_ctx(c->dma);
	}
	return true;
}

static void order_start_all(void)
{
	for (int k = 0; k < R.nctx; k++) {
		doca_error_t err = flow_start(R.c[k].ctx);

		flow_tracef("start c%d = %s", k, err_name(err));
	}
}

/* Progress until a call returns 0 (bounded: a runaway loop fails the case). */
static void order_progress_until_idle(int max_calls)
{
	for (int i = 0; i < max_calls; i++)
		if (flow_progress(R.b.pe) == 0)
			return;
	CHECK(!"progress never returned 0");
}

static void order_stop_all(void)
{
	for (int k = 0; k < R.nctx; k++) {
		doca_error_t err;

		if (R.c[k].ctx == NULL)
			continue;
		err = flow_stop(R.c[k].ctx);
		flow_tracef("stop c%d = %s", k, err_name(err));
	}
}

static void order_teardown(void)
{
	for (int k = 0; k < R.nctx; k++)
		if (R.c[k].dma != NULL)
			CHECK_OK(doca_dma_destroy(R.c[k].dma));
	flow_base_cleanup(&R.b);
	CHECK_EQ_U64(R.bad_data, 0);
	memset(&R, 0, sizeof(R));
}

/* Expected lines shared by several flows. */
static void expect_start(int nctx)
{
	for (int k = 0; k < nctx; k++) {
		expect("start state c%d IDLE->RUNNING", k);
		expect("main start c%d = DOCA_SUCCESS", k);
	}
}

static void expect_sync_stop(int k)
{
	expect("stop state c%d RUNNING->STOPPING", k);
	expect("stop state c%d STOPPING->IDLE", k);
	expect("main stop c%d = DOCA_SUCCESS", k);
}

static void expect_ok_calls(int first_call, int k, int first_ud, int count)
{
	for (int i = 0; i < count; i++) {
		expect("P%d ok c%d t%d", first_call + i, k, first_ud + i);
		expect("P%d -> 1", first_call + i);
	}
}

static void expect_flush_calls(int first_call, int k, int first_ud, int count)
{
	for (int i = 0; i < count; i++) {
		expect("P%d err c%d t%d DOCA_ERROR_SHUTDOWN", first_call + i, k, first_ud + i);
		expect("P%d -> 1", first_call + i);
	}
}

/* ------------------------------------------------------------------ */
/* The flows                                                           */
/* ------------------------------------------------------------------ */

static void order_pe_polling(void)
{
	REQUIRE(order_setup(1, 16, 16));
	order_start_all();
	order_submit_all(&R.c[0]);
	order_progress_until_idle(40);
	order_stop_all();
	order_stop_all(); /* idle again: SUCCESS, no callback */

	expect_start(1);
	expect_ok_calls(1, 0, 1, 16);
	expect("P17 -> 0");
	expect_sync_stop(0);
	expect("main stop c0 = DOCA_SUCCESS");
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_async_stop(void)
{
	R.stop_at = 8;
	REQUIRE(order_setup(1, 16, 16));
	order_start_all();
	order_submit_all(&R.c[0]);
	order_progress_until_idle(40);
	order_stop_all();

	expect_start(1);
	expect_ok_calls(1, 0, 1, 7);
	expect("P8 ok c0 t8");
	expect("P8 state c0 RUNNING->STOPPING");
	expect("P8 stop c0 = DOCA_ERROR_IN_PROGRESS");
	expect("P8 -> 1");
	expect_flush_calls(9, 0, 9, 8);
	expect("P17 state c0 STOPPING->IDLE");
	expect("P17 -> 1");
	expect("P18 -> 0");
	expect("main stop c0 = DOCA_SUCCESS");
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_event(void)
{
	doca_notification_handle_t h = doca_event_invalid_handle;
	struct pollfd p;

	REQUIRE(order_setup(1, 16, 16));
	CHECK_OK(doca_pe_get_notification_handle(R.b.pe, &h));
	order_start_all();
	CHECK_OK(doca_pe_request_notification(R.b.pe));
	p = (struct pollfd){.fd = h, .events = POLLIN};
	flow_tracef("readable = %d", poll(&p, 1, 0));
	order_submit_all(&R.c[0]);
	p.revents = 0;
	flow_tracef("readable = %d", poll(&p, 1, 1000));
	CHECK_OK(doca_pe_clear_notification(R.b.pe, 0));
	/* run_for_completion: stop progressing as soon as the 16th report arrives. */
	while (flow_progress(R.b.pe) && R.reports < 16)
		;
	CHECK_OK(doca_pe_request_notification(R.b.pe));
	p.revents = 0;
	flow_tracef("readable = %d", poll(&p, 1, 0));
	CHECK_OK(doca_pe_clear_notification(R.b.pe, 0));
	order_stop_all();

	expect_start(1);
	expect("main readable = 0");
	expect("main readable = 1");
	expect_ok_calls(1, 0, 1, 16);
	expect("main readable = 0");
	expect_sync_stop(0);
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_multi_context(void)
{
	REQUIRE(order_setup(4, 16, 16));
	order_start_all();
	for (int k = 0; k < 4; k++)
		order_submit_all(&R.c[k]);
	order_progress_until_idle(100);
	order_stop_all();

	expect_start(4);
	for (int k = 0; k < 4; k++)
		expect_ok_calls(1 + 16 * k, k, 1, 16);
	expect("P65 -> 0");
	for (int k = 0; k < 4; k++)
		expect_sync_stop(k);
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_multi_context_round_robin(void)
{
	struct doca_dma_task_memcpy *t[4][16];

	REQUIRE(order_setup(4, 16, 16));
	order_start_all();
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 16; i++) {
			t[k][i] = flow_alloc_copy_task(&R.b, R.c[k].dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
			REQUIRE(t[k][i] != NULL);
		}
	for (int i = 0; i < 16; i++)
		for (int k = 0; k < 4; k++)
			order_submit(t[k][i]);
	order_progress_until_idle(100);
	order_stop_all();

	expect_start(4);
	for (int n = 0; n < 64; n++) {
		expect("P%d ok c%d t%d", n + 1, n % 4, n / 4 + 1);
		expect("P%d -> 1", n + 1);
	}
	expect("P65 -> 0");
	for (int k = 0; k < 4; k++)
		expect_sync_stop(k);
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_reactive(void)
{
	R.reactive = true;
	REQUIRE(order_setup(1, 16, 16));
	order_start_all();
	order_progress_until_idle(40);

	expect("start state c0 IDLE->RUNNING"); /* 16 submits inside: no callback */
	expect("main start c0 = DOCA_SUCCESS");
	expect_ok_calls(1, 0, 1, 15);
	expect("P16 ok c0 t16");
	expect("P16 state c0 RUNNING->STOPPING");
	expect("P16 stop c0 = DOCA_ERROR_IN_PROGRESS");
	expect("P16 -> 1");
	expect("P17 state c0 STOPPING->IDLE");
	expect("P17 destroy c0 = DOCA_SUCCESS");
	expect("P17 -> 1");
	expect("P18 -> 0");
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_single_task_comp_cb(void)
{
	R.single_cb = true;
	R.bad = 5;
	REQUIRE(order_setup(1, 16, 16));
	order_start_all();
	order_submit_all(&R.c[0]);
	order_progress_until_idle(40);
	order_stop_all();

	expect_start(1);
	for (int i = 1; i <= 4; i++) {
		expect("P%d cb c0 t%d DOCA_SUCCESS", i, i);
		expect("P%d -> 1", i);
	}
	expect("P5 state c0 RUNNING->STOPPING");
	expect("P5 cb c0 t5 DOCA_ERROR_INVALID_VALUE");
	expect("P5 -> 1");
	for (int i = 6; i <= 16; i++) {
		expect("P%d cb c0 t%d DOCA_ERROR_SHUTDOWN", i, i);
		expect("P%d -> 1", i);
	}
	expect("P17 state c0 STOPPING->IDLE");
	expect("P17 -> 1");
	expect("P18 -> 0");
	expect("main stop c0 = DOCA_SUCCESS");
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_task_error(void)
{
	R.bad = 3;
	REQUIRE(order_setup(1, 255, 255));
	order_start_all();
	order_submit_all(&R.c[0]);
	order_progress_until_idle(300);
	order_stop_all();

	expect_start(1);
	expect_ok_calls(1, 0, 1, 2);
	expect("P3 state c0 RUNNING->STOPPING");
	expect("P3 err c0 t3 DOCA_ERROR_INVALID_VALUE");
	expect("P3 -> 1");
	expect_flush_calls(4, 0, 4, 252);
	expect("P256 state c0 STOPPING->IDLE");
	expect("P256 -> 1");
	expect("P257 -> 0");
	expect("main stop c0 = DOCA_SUCCESS");
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_task_resubmit(void)
{
	struct doca_dma_task_memcpy *t[4];

	R.resubmit = true;
	REQUIRE(order_setup(1, 16, 4));
	order_start_all();
	for (int k = 0; k < 16; k++) {
		uint8_t *s = R.b.mem + (size_t)k * 2 * FLOW_COPY_LEN;

		memset(s, k + 1, FLOW_COPY_LEN);
		memset(s + FLOW_COPY_LEN, 0, FLOW_COPY_LEN);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(R.b.inv, R.b.mmap, s, FLOW_COPY_LEN, &R.src[k]));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(R.b.inv, R.b.mmap, s + FLOW_COPY_LEN, FLOW_COPY_LEN,
							     &R.dst[k]));
	}
	for (int i = 0; i < 4; i++) {
		t[i] = NULL;
		CHECK_OK(doca_dma_task_memcpy_alloc_init(R.c[0].dma, R.src[i], R.dst[i],
							 (union doca_data){.u64 = (uint64_t)i + 1}, &t[i]));
		REQUIRE(t[i] != NULL);
	}
	R.next_pair = 4;
	for (int i = 0; i < 4; i++)
		order_submit(t[i]);
	order_progress_until_idle(40);
	order_stop_all();

	expect_start(1);
	expect_ok_calls(1, 0, 1, 16);
	expect("P17 -> 0");
	expect_sync_stop(0);
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

static void order_pe_task_try_submit(void)
{
	struct doca_dma_task_memcpy *bad;
	doca_error_t err;

	R.try_submit = true;
	REQUIRE(order_setup(1, 16, 17));
	order_start_all();
	/* A refused try-submit: no callback, no work, no state change. */
	bad = flow_alloc_copy_task(&R.b, R.c[0].dma, 99, 99);
	REQUIRE(bad != NULL);
	CHECK_OK(doca_buf_reset_data_len(flow_unconst(doca_dma_task_memcpy_get_src(bad))));
	err = doca_task_try_submit(doca_dma_task_memcpy_as_task(bad));
	flow_tracef("try = %s", err_name(err));
	flow_progress(R.b.pe);
	flow_release_task(bad);
	flow_progress(R.b.pe);
	R.b.next_off = 0; /* the refused task's region is free again */
	order_submit_all(&R.c[0]);
	order_progress_until_idle(40);
	order_stop_all();

	expect_start(1);
	expect("main try = DOCA_ERROR_INVALID_VALUE");
	expect("P1 -> 0");
	expect("P2 -> 0");
	expect_ok_calls(3, 0, 1, 16);
	expect("P19 -> 0");
	expect_sync_stop(0);
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

/* dma_local_copy: one task, stop from its callback, IDLE on the next call. */
static void order_dma_local_copy(void)
{
	R.stop_at = 1;
	REQUIRE(order_setup(1, 1, 1));
	order_start_all();
	order_submit_all(&R.c[0]);
	order_progress_until_idle(10);
	order_stop_all();

	expect_start(1);
	expect("P1 ok c0 t1");
	expect("P1 state c0 RUNNING->STOPPING");
	expect("P1 stop c0 = DOCA_ERROR_IN_PROGRESS");
	expect("P1 -> 1");
	expect("P2 state c0 STOPPING->IDLE");
	expect("P2 -> 1");
	expect("P3 -> 0");
	expect("main stop c0 = DOCA_SUCCESS");
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

/* A stop from main with tasks held but not submitted: IDLE only after the frees. */
static void order_stop_waits_for_held_tasks(void)
{
	struct doca_dma_task_memcpy *t1, *t2;

	REQUIRE(order_setup(1, 2, 2));
	order_start_all();
	t1 = flow_alloc_copy_task(&R.b, R.c[0].dma, 1, 1);
	t2 = flow_alloc_copy_task(&R.b, R.c[0].dma, 2, 2);
	REQUIRE(t1 != NULL && t2 != NULL);
	order_submit(t1);
	order_stop_all();
	flow_progress(R.b.pe); /* flushes t1 */
	flow_progress(R.b.pe); /* t2 still held: nothing */
	flow_release_task(t2); /* no transition inside free */
	flow_progress(R.b.pe); /* STOPPING -> IDLE */
	flow_progress(R.b.pe);

	expect_start(1);
	expect("stop state c0 RUNNING->STOPPING");
	expect("main stop c0 = DOCA_ERROR_IN_PROGRESS");
	expect("P1 err c0 t1 DOCA_ERROR_SHUTDOWN");
	expect("P1 -> 1");
	expect("P2 -> 0");
	expect("P3 state c0 STOPPING->IDLE");
	expect("P3 -> 1");
	expect("P4 -> 0");
	flow_trace_expect(expected, n_expected);
	order_teardown();
}

int main(void)
{
	if (!flow_default_engine())
		sd_test_skip("exact report order is fixed only for the default engine");
	SD_RUN(order_pe_polling);
	SD_RUN(order_pe_async_stop);
	SD_RUN(order_pe_event);
	SD_RUN(order_pe_multi_context);
	SD_RUN(order_pe_multi_context_round_robin);
	SD_RUN(order_pe_reactive);
	SD_RUN(order_pe_single_task_comp_cb);
	SD_RUN(order_pe_task_error);
	SD_RUN(order_pe_task_resubmit);
	SD_RUN(order_pe_task_try_submit);
	SD_RUN(order_dma_local_copy);
	SD_RUN(order_stop_waits_for_held_tasks);
	return sd_test_done();
}
