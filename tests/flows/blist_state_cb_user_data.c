/*
 * blist_state_cb_user_data - B16: the
 * state-changed callback receives the context's user data as its first
 * argument, on every transition and every path to it: IDLE -> RUNNING
 * inside doca_ctx_start, RUNNING -> STOPPING inside doca_ctx_stop (from
 * main or from a task callback) or from progress on a fatal task error,
 * STOPPING -> IDLE from progress or inside a synchronous stop.  The value
 * is the one stored when the callback runs (it may be changed in any
 * state), its initial value is all bits zero, and it may be set before
 * the context is connected.  Checked for DMA and mmap-advise contexts.
 */
#include "blist.h"

#include <doca_mmap_advise.h>

#define NCTX 4
#define MAX_EVENTS 32

struct sc_event {
	int ctx; /* index of the context the callback named */
	uint64_t ud;
	enum doca_ctx_states prev, next, state_inside;
};

struct sc_run {
	struct flow_base b;
	struct doca_ctx *ctx[NCTX];
	struct doca_dma *dma[NCTX];
	struct doca_mmap_advise *adv;
	union doca_data stored[NCTX]; /* what the test last stored */
	struct sc_event ev[MAX_EVENTS];
	int n;
	int unknown_ctx;
	int wrong_ud;
	int reports;
	int stop_at_report; /* 0: never; stop ctx[stop_ctx] from this report */
	int stop_ctx;
	doca_error_t stop_ret;
};

static struct sc_run R;

static int sc_index(struct doca_ctx *ctx)
{
	for (int k = 0; k < NCTX; k++)
		if (R.ctx[k] == ctx)
			return k;
	return -1;
}

static void sc_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	int k = sc_index(ctx);
	struct sc_event *e;

	if (k < 0) {
		R.unknown_ctx++;
		return;
	}
	if (ud.u64 != R.stored[k].u64)
		R.wrong_ud++;
	if (R.n >= MAX_EVENTS)
		return;
	e = &R.ev[R.n++];
	e->ctx = k;
	e->ud = ud.u64;
	e->prev = prev;
	e->next = next;
	e->state_inside = flow_ctx_state(ctx);
}

static void sc_task_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	R.reports++;
	flow_release_task(task);
	if (R.stop_at_report != 0 && R.reports == R.stop_at_report)
		R.stop_ret = doca_ctx_stop(R.ctx[R.stop_ctx]);
}

static void sc_adv_cb(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
		      union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));
}

/* Count the recorded transitions of context k matching prev -> next with the user data `ud`. */
static int sc_count(int k, enum doca_ctx_states prev, enum doca_ctx_states next, uint64_t ud)
{
	int n = 0;

	for (int i = 0; i < R.n; i++)
		if (R.ev[i].ctx == k && R.ev[i].prev == prev && R.ev[i].next == next && R.ev[i].ud == ud &&
		    R.ev[i].state_inside == next)
			n++;
	return n;
}

static int sc_count_ctx(int k)
{
	int n = 0;

	for (int i = 0; i < R.n; i++)
		n += R.ev[i].ctx == k;
	return n;
}

static void sc_set(int k, union doca_data ud)
{
	R.stored[k] = ud;
	CHECK_OK(doca_ctx_set_user_data(R.ctx[k], ud));
}

/*
 * Contexts: 0 DMA (user data set before the connect), 1 DMA (set after),
 * 2 DMA (never set: zero), 3 mmap advise.
 */
static bool sc_setup(void)
{
	memset(&R, 0, sizeof(R));
	if (!flow_base_init(&R.b, 64 * 2 * FLOW_COPY_LEN, 160))
		return false;
	for (int k = 0; k < 3; k++) {
		CHECK_OK(doca_dma_create(R.b.dev, &R.dma[k]));
		if (R.dma[k] == NULL)
			return false;
		R.ctx[k] = doca_dma_as_ctx(R.dma[k]);
		if (k == 0)
			sc_set(0, (union doca_data){.ptr = &R.ev[0]});
		CHECK_OK(doca_pe_connect_ctx(R.b.pe, R.ctx[k]));
		if (k == 1)
			sc_set(1, (union doca_data){.u64 = 0xfeedfacecafebeefull});
		CHECK_OK(doca_ctx_set_state_changed_cb(R.ctx[k], sc_state_cb));
		CHECK_OK(doca_dma_task_memcpy_set_conf(R.dma[k], sc_task_cb, sc_task_cb, 32));
	}
	CHECK_OK(doca_mmap_advise_create(R.b.dev, &R.adv));
	if (R.adv == NULL)
		return false;
	R.ctx[3] = doca_mmap_advise_as_ctx(R.adv);
	CHECK_OK(doca_pe_connect_ctx(R.b.pe, R.ctx[3]));
	sc_set(3, (union doca_data){.u64 = 3});
	CHECK_OK(doca_ctx_set_state_changed_cb(R.ctx[3], sc_state_cb));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(R.adv, sc_adv_cb, sc_adv_cb, 4));
	return !sd_test_case_failed;
}

static void sc_teardown(void)
{
	for (int k = 0; k < 3; k++) {
		CHECK_OK(doca_ctx_stop(R.ctx[k]));
		CHECK_OK(doca_dma_destroy(R.dma[k]));
	}
	CHECK_OK(doca_ctx_stop(R.ctx[3]));
	CHECK_OK(doca_mmap_advise_destroy(R.adv));
	flow_base_cleanup(&R.b);
}

static void sc_submit_copies(int k, int n, int bad)
{
	for (int i = 0; i < n; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(&R.b, R.dma[k], (uint8_t)(i + 1), (uint64_t)i);

		if (t == NULL)
			return;
		if (i + 1 == bad)
			CHECK_OK(doca_buf_reset_data_len(flow_unconst(doca_dma_task_memcpy_get_src(t))));
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
}

static bool sc_all_idle(void *arg)
{
	(void)arg;
	for (int k = 0; k < NCTX; k++)
		if (!blist_ctx_is_idle(R.ctx[k]))
			return false;
	return true;
}

static void b16_every_transition_on_every_path_carries_the_user_data(void)
{
	const uint64_t u0 = (uint64_t)(uintptr_t)&R.ev[0];
	const uint64_t u1 = 0xfeedfacecafebeefull;

	REQUIRE(sc_setup());
	for (int k = 0; k < NCTX; k++)
		CHECK_OK(doca_ctx_start(R.ctx[k]));
	/* IDLE -> RUNNING, inside each start. */
	CHECK_EQ_U64(R.n, NCTX);
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING, u0), 1);
	CHECK_EQ_U64(sc_count(1, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING, u1), 1);
	CHECK_EQ_U64(sc_count(2, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING, 0), 1);
	CHECK_EQ_U64(sc_count(3, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING, 3), 1);

	/* Context 0: stopped from main with tasks in flight (STOPPING inside, IDLE from progress). */
	sc_submit_copies(0, 8, 0);
	/* Context 1: a fatal execution failure stops it by itself, from progress. */
	sc_submit_copies(1, 8, 3);
	/* Context 2: stopped from inside one of its own task callbacks. */
	R.stop_ctx = 2;
	R.stop_at_report = 8 + 8 + 1; /* reports count over all contexts: its first one */
	CHECK_ERR(doca_ctx_stop(R.ctx[0]), DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING, u0), 1);
	{
		/* Let contexts 0 and 1 finish first, then run context 2. */
		double deadline = flow_now() + FLOW_DEADLINE_SEC;

		while (R.reports < 16 && flow_now() < deadline)
			doca_pe_progress(R.b.pe);
		CHECK_EQ_U64(R.reports, 16);
	}
	sc_submit_copies(2, 4, 0);
	/* Context 3 (advise): a synchronous stop from main, both callbacks inside it. */
	CHECK_OK(doca_ctx_stop(R.ctx[3]));
	CHECK_EQ_U64(sc_count(3, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING, 3), 1);
	CHECK_EQ_U64(sc_count(3, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE, 3), 1);

	blist_poll_until(R.b.pe, sc_all_idle, NULL, "every context to reach IDLE");
	CHECK_ERR(R.stop_ret, DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE, u0), 1);
	CHECK_EQ_U64(sc_count(1, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING, u1), 1);
	CHECK_EQ_U64(sc_count(1, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE, u1), 1);
	CHECK_EQ_U64(sc_count(2, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING, 0), 1);
	CHECK_EQ_U64(sc_count(2, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE, 0), 1);
	for (int k = 0; k < NCTX; k++)
		CHECK_EQ_U64(sc_count_ctx(k), 3);
	CHECK_EQ_U64(R.wrong_ud, 0);
	CHECK_EQ_U64(R.unknown_ctx, 0);
	sc_teardown();
}

static void b16_the_value_stored_when_the_callback_runs_is_passed(void)
{
	struct doca_dma_task_memcpy *held;

	REQUIRE(sc_setup());
	/* Changed while IDLE: the start reports the new value. */
	sc_set(0, (union doca_data){.u64 = 0xA});
	CHECK_OK(doca_ctx_start(R.ctx[0]));
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING, 0xA), 1);

	/* Changed while RUNNING: the stop reports it. */
	sc_set(0, (union doca_data){.u64 = 0xB});
	held = flow_alloc_copy_task(&R.b, R.dma[0], 1, 1);
	REQUIRE(held != NULL);
	sc_submit_copies(0, 2, 0);
	CHECK_ERR(doca_ctx_stop(R.ctx[0]), DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING, 0xB), 1);

	/* Changed while STOPPING: the IDLE callback from progress reports it. */
	sc_set(0, (union doca_data){.u64 = 0xC});
	{
		double deadline = flow_now() + FLOW_DEADLINE_SEC;

		while (R.reports < 2 && flow_now() < deadline)
			doca_pe_progress(R.b.pe);
	}
	flow_release_task(held);
	blist_wait_idle(R.b.pe, R.ctx[0]);
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE, 0xC), 1);

	/* A restart of the same context, with the value changed again, synchronous stop. */
	sc_set(0, (union doca_data){.ptr = &R});
	CHECK_OK(doca_ctx_start(R.ctx[0]));
	CHECK_OK(doca_ctx_stop(R.ctx[0]));
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING, (uint64_t)(uintptr_t)&R), 1);
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING, (uint64_t)(uintptr_t)&R), 1);
	CHECK_EQ_U64(sc_count(0, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE, (uint64_t)(uintptr_t)&R), 1);
	CHECK_EQ_U64(sc_count_ctx(0), 6);
	CHECK_EQ_U64(R.wrong_ud, 0);
	/* The other contexts never moved. */
	for (int k = 1; k < NCTX; k++)
		CHECK_EQ_U64(sc_count_ctx(k), 0);
	sc_teardown();
}

int main(void)
{
	blist_init();
	SD_RUN(b16_every_transition_on_every_path_carries_the_user_data);
	SD_RUN(b16_the_value_stored_when_the_callback_runs_is_passed);
	return sd_test_done();
}
