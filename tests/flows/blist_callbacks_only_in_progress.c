/*
 * blist_callbacks_only_in_progress - B1: task
 * completion and error callbacks, graph user nodes and graph callbacks run
 * only inside doca_pe_progress, on the thread that calls it, one at a time.
 *
 * Every library call the samples make while work is outstanding is made
 * with an "inside an API call" flag set: doca_task_submit, doca_task_try_submit,
 * doca_ctx_stop (from main and from a callback), doca_ctx_start of another
 * context, doca_task_free, the notification calls and
 * doca_graph_instance_submit (also from the instance's own callback).  Each
 * callback records whether that flag was set, whether it ran inside the
 * test's doca_pe_progress wrapper, on which thread, and how deeply nested.
 * Between the submits and the first progress call the program also sleeps,
 * so that with worker threads every copy is finished and any callback the
 * library delivered by itself would have run by then.
 */
#include "blist.h"

#include <doca_graph.h>
#include <doca_mmap_advise.h>

#define NUM_TASKS 32

struct b1_watch {
	bool in_api;         /* inside a library call other than progress */
	bool in_progress;    /* inside blist_progress() */
	int cb_in_api;       /* task/graph callbacks that ran inside in_api */
	int cb_outside;      /* ... outside any progress call */
	int cb_off_thread;   /* ... on another thread than main */
	int depth, max_depth;
	int task_cbs;
	int state_cbs_in_api; /* state callbacks inside in_api (allowed for start/stop) */
	enum doca_ctx_states last_next;
};

static struct b1_watch W;

static void b1_reset(void)
{
	memset(&W, 0, sizeof(W));
}

static uint8_t b1_progress(struct doca_pe *pe)
{
	uint8_t r;

	W.in_progress = true;
	r = doca_pe_progress(pe);
	W.in_progress = false;
	return r;
}

/* Record where an application callback runs; returns with depth raised. */
static void b1_enter(void)
{
	if (W.in_api)
		W.cb_in_api++;
	if (!W.in_progress)
		W.cb_outside++;
	if (!blist_on_main_thread())
		W.cb_off_thread++;
	if (++W.depth > W.max_depth)
		W.max_depth = W.depth;
}

static void b1_leave(void)
{
	W.depth--;
}

static void b1_expect_clean(void)
{
	CHECK_EQ_U64(W.cb_in_api, 0);
	CHECK_EQ_U64(W.cb_outside, 0);
	CHECK_EQ_U64(W.cb_off_thread, 0);
	CHECK(W.max_depth <= 1);
}

/* ---- DMA context ---- */

struct b1_dma {
	struct doca_ctx *ctx;
	int ok, err, bad_data;
	int stop_from_report; /* stop the context from the n-th report (0 = never) */
	doca_error_t stop_ret;
	int reports_during_stop;
};

static void b1_dma_report(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud,
			  bool ok)
{
	struct b1_dma *d = ctx_ud.ptr;

	b1_enter();
	W.task_cbs++;
	if (ok) {
		d->ok++;
		if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
			d->bad_data++;
	} else {
		d->err++;
	}
	flow_release_task(task);
	if (d->stop_from_report != 0 && d->ok + d->err == d->stop_from_report) {
		int before = W.task_cbs;

		W.in_api = true;
		d->stop_ret = doca_ctx_stop(d->ctx);
		W.in_api = false;
		d->reports_during_stop = W.task_cbs - before;
	}
	b1_leave();
}

static void b1_dma_ok(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	b1_dma_report(task, task_ud, ctx_ud, true);
}

static void b1_dma_err(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	b1_dma_report(task, task_ud, ctx_ud, false);
}

static void b1_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	/* State callbacks may run inside start/stop, but on the main thread only. */
	if (!blist_on_main_thread())
		W.cb_off_thread++;
	if (W.in_api)
		W.state_cbs_in_api++;
	W.last_next = next;
}

static int b1_reports(struct b1_dma *d)
{
	return d->ok + d->err;
}

static bool b1_all_reported(void *arg)
{
	struct b1_dma *d = arg;

	return b1_reports(d) >= NUM_TASKS;
}

/* Progress through the wrapper until cond holds (bounded). */
static void b1_poll(struct doca_pe *pe, bool (*cond)(void *), void *arg)
{
	double deadline = flow_now() + FLOW_DEADLINE_SEC;

	while (!cond(arg)) {
		b1_progress(pe);
		if (flow_now() > deadline) {
			CHECK(!"progress stalled");
			break;
		}
	}
}

static struct doca_dma *b1_dma_setup(struct flow_base *b, struct b1_dma *d)
{
	struct doca_dma *dma;

	memset(d, 0, sizeof(*d));
	if (!flow_base_init(b, (size_t)NUM_TASKS * 2 * FLOW_COPY_LEN, 2 * NUM_TASKS + 4))
		return NULL;
	dma = flow_dma_new(b, b1_dma_ok, b1_dma_err, NUM_TASKS, d, b1_state_cb);
	if (dma != NULL)
		d->ctx = doca_dma_as_ctx(dma);
	return dma;
}

static void b1_dma_teardown(struct flow_base *b, struct b1_dma *d, struct doca_dma *dma)
{
	if (!blist_ctx_is_idle(d->ctx)) {
		doca_error_t err = doca_ctx_stop(d->ctx);

		CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
		blist_wait_idle(b->pe, d->ctx);
	}
	CHECK_OK(doca_ctx_stop(d->ctx)); /* B18: again on an IDLE context */
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(b);
}

static void b1_submit_and_try_submit_never_call_back(void)
{
	struct flow_base b;
	struct b1_dma d;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	struct doca_dma *dma;

	b1_reset();
	dma = b1_dma_setup(&b, &d);
	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(d.ctx));
	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
	}
	for (int i = 0; i < NUM_TASKS; i++) {
		struct doca_task *t = doca_dma_task_memcpy_as_task(tasks[i]);

		W.in_api = true;
		CHECK_OK(i % 2 ? doca_task_try_submit(t) : doca_task_submit(t));
		W.in_api = false;
	}
	/* Long enough for worker threads to finish every copy. */
	blist_sleep_ms(30);
	CHECK_EQ_U64(W.task_cbs, 0);
	CHECK_EQ_U64(flow_ctx_inflight(d.ctx), NUM_TASKS);

	/* The notification calls never report either. */
	W.in_api = true;
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	W.in_api = false;
	CHECK_EQ_U64(W.task_cbs, 0);

	b1_poll(b.pe, b1_all_reported, &d);
	CHECK_EQ_U64(d.ok, NUM_TASKS);
	CHECK_EQ_U64(d.err, 0);
	CHECK_EQ_U64(d.bad_data, 0);
	b1_expect_clean();
	b1_dma_teardown(&b, &d, dma);
}

static void b1_stop_from_main_reports_nothing_inside_the_call(void)
{
	struct flow_base b;
	struct b1_dma d;
	struct doca_dma *dma;

	b1_reset();
	dma = b1_dma_setup(&b, &d);
	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(d.ctx));
	for (int i = 0; i < NUM_TASKS; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	blist_sleep_ms(30); /* copies finished by workers must still be flushed, from progress */
	W.in_api = true;
	CHECK_ERR(doca_ctx_stop(d.ctx), DOCA_ERROR_IN_PROGRESS);
	W.in_api = false;
	/* Only RUNNING -> STOPPING ran inside the stop; no task was reported there. */
	CHECK_EQ_U64(W.state_cbs_in_api, 1);
	CHECK(W.last_next == DOCA_CTX_STATE_STOPPING);
	CHECK_EQ_U64(W.task_cbs, 0);
	CHECK_EQ_U64(flow_ctx_inflight(d.ctx), NUM_TASKS);

	b1_poll(b.pe, b1_all_reported, &d);
	CHECK_EQ_U64(d.err, NUM_TASKS); /* flushed, never drained */
	CHECK_EQ_U64(d.ok, 0);
	b1_poll(b.pe, blist_ctx_is_idle, d.ctx);
	CHECK(W.last_next == DOCA_CTX_STATE_IDLE);
	b1_expect_clean();
	b1_dma_teardown(&b, &d, dma);
}

static void b1_stop_from_a_callback_reports_nothing_inside_the_call(void)
{
	struct flow_base b;
	struct b1_dma d;
	struct doca_dma *dma;

	b1_reset();
	dma = b1_dma_setup(&b, &d);
	REQUIRE(dma != NULL);
	d.stop_from_report = 1;
	CHECK_OK(doca_ctx_start(d.ctx));
	for (int i = 0; i < NUM_TASKS; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	blist_sleep_ms(30);
	b1_poll(b.pe, b1_all_reported, &d);
	CHECK_ERR(d.stop_ret, DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(d.reports_during_stop, 0);
	CHECK_EQ_U64(d.ok, 1);
	CHECK_EQ_U64(d.err, NUM_TASKS - 1);
	b1_poll(b.pe, blist_ctx_is_idle, d.ctx);
	b1_expect_clean();
	b1_dma_teardown(&b, &d, dma);
}

static void b1_start_free_and_other_calls_report_nothing(void)
{
	struct flow_base b;
	struct b1_dma d, d2;
	struct doca_dma_task_memcpy *held;
	struct doca_dma *dma, *dma2;

	b1_reset();
	dma = b1_dma_setup(&b, &d);
	REQUIRE(dma != NULL);
	memset(&d2, 0, sizeof(d2));
	dma2 = flow_dma_new(&b, b1_dma_ok, b1_dma_err, 4, &d2, b1_state_cb);
	REQUIRE(dma2 != NULL);
	d2.ctx = doca_dma_as_ctx(dma2);
	CHECK_OK(doca_ctx_start(d.ctx));
	for (int i = 0; i < NUM_TASKS - 1; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	held = flow_alloc_copy_task(&b, dma, 99, 99);
	REQUIRE(held != NULL);
	blist_sleep_ms(30);

	/* Starting another context reports its own transition only. */
	W.in_api = true;
	CHECK_OK(doca_ctx_start(d2.ctx));
	W.in_api = false;
	CHECK_EQ_U64(W.state_cbs_in_api, 1);
	CHECK(W.last_next == DOCA_CTX_STATE_RUNNING);
	/* Freeing a task that was never submitted, and queries, report nothing. */
	W.in_api = true;
	flow_release_task(held);
	(void)flow_ctx_inflight(d.ctx);
	(void)flow_pe_inflight(b.pe);
	W.in_api = false;
	CHECK_EQ_U64(W.task_cbs, 0);

	d.ok = 1; /* count the held task as reported: NUM_TASKS - 1 were submitted */
	b1_poll(b.pe, b1_all_reported, &d);
	CHECK_EQ_U64(d.ok, NUM_TASKS);
	CHECK_EQ_U64(d.bad_data, 0);
	b1_expect_clean();
	CHECK_OK(doca_ctx_stop(d2.ctx));
	CHECK_OK(doca_dma_destroy(dma2));
	b1_dma_teardown(&b, &d, dma);
}

/* ---- mmap advise: the same rule for a second context type ---- */

static int b1_adv_reports;

static void b1_adv_cb(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
		      union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	b1_enter();
	b1_adv_reports++;
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));
	b1_leave();
}

static bool b1_adv_done(void *arg)
{
	return b1_adv_reports >= *(int *)arg;
}

static void b1_advise_submit_never_calls_back(void)
{
	struct flow_base b;
	struct doca_mmap_advise *adv = NULL;
	struct doca_ctx *actx;
	struct doca_buf *buf = NULL;
	int want = 8;

	b1_reset();
	b1_adv_reports = 0;
	REQUIRE(flow_base_init(&b, 8 * 1024, 4));
	CHECK_OK(doca_mmap_advise_create(b.dev, &adv));
	REQUIRE(adv != NULL);
	actx = doca_mmap_advise_as_ctx(adv);
	CHECK_OK(doca_pe_connect_ctx(b.pe, actx));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(adv, b1_adv_cb, b1_adv_cb, 8));
	CHECK_OK(doca_ctx_start(actx));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, b.mmap, b.mem, 1024, &buf));
	REQUIRE(buf != NULL);
	for (int i = 0; i < want; i++) {
		struct doca_mmap_advise_task_invalidate_cache *t = NULL;

		CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(adv, buf, (union doca_data){.u64 = 0}, &t));
		REQUIRE(t != NULL);
		W.in_api = true;
		if (i % 2)
			CHECK_OK(doca_task_try_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)));
		else
			CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)));
		W.in_api = false;
	}
	blist_sleep_ms(10);
	CHECK_EQ_U64(b1_adv_reports, 0);
	b1_poll(b.pe, b1_adv_done, &want);
	CHECK_EQ_U64(b1_adv_reports, want);
	b1_expect_clean();
	CHECK_OK(doca_ctx_stop(actx));
	CHECK_OK(doca_mmap_advise_destroy(adv));
	CHECK_OK(doca_buf_dec_refcount(buf, NULL));
	flow_base_cleanup(&b);
}

/* ---- graphs: doca_graph_instance_submit never runs nodes or callbacks ---- */

struct b1_graph {
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *copies[2];
	int user_calls;
	int done;
	int resubmits_left;
	doca_error_t resubmit_ret;
};

static doca_error_t b1_user_node(void *cookie)
{
	struct b1_graph *g = cookie;

	b1_enter();
	g->user_calls++;
	b1_leave();
	return DOCA_SUCCESS;
}

static void b1_graph_done(struct doca_graph_instance *inst, union doca_data inst_ud, union doca_data graph_ud)
{
	struct b1_graph *g = inst_ud.ptr;

	(void)graph_ud;
	b1_enter();
	CHECK(g->inst == inst);
	g->done++;
	/* Resubmitting from the instance's own callback reports nothing here either. */
	if (g->resubmits_left > 0) {
		int before_user = g->user_calls, before_done = g->done;

		g->resubmits_left--;
		/* The instance is IDLE here: empty the destinations for the next run. */
		for (int i = 0; i < 2; i++)
			CHECK_OK(doca_buf_reset_data_len(doca_dma_task_memcpy_get_dst(g->copies[i])));
		W.in_api = true;
		g->resubmit_ret = doca_graph_instance_submit(inst);
		W.in_api = false;
		CHECK_EQ_U64(g->user_calls, before_user);
		CHECK_EQ_U64(g->done, before_done);
	}
	b1_leave();
}

static bool b1_graph_finished(void *arg)
{
	struct b1_graph *g = arg;

	return g->done >= 2;
}

static void b1_graph_instance_submit_never_calls_back(void)
{
	struct flow_base b;
	struct b1_dma d;
	struct b1_graph g = {0};
	struct doca_dma *dma;
	struct doca_graph *graph = NULL;
	struct doca_graph_node *root_user, *copy1, *copy2, *check;
	struct doca_dma_task_memcpy *t1, *t2;

	b1_reset();
	dma = b1_dma_setup(&b, &d);
	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(d.ctx));
	t1 = flow_alloc_copy_task(&b, dma, 5, 5);
	t2 = flow_alloc_copy_task(&b, dma, 6, 6);
	REQUIRE(t1 != NULL && t2 != NULL);

	/* root user node -> copy1 -> check; copy2 is a second root -> check. */
	CHECK_OK(doca_graph_create(b.pe, &graph));
	REQUIRE(graph != NULL);
	CHECK_OK(doca_graph_node_create_from_user(graph, b1_user_node, &root_user));
	CHECK_OK(doca_graph_node_create_from_ctx(graph, d.ctx, &copy1));
	CHECK_OK(doca_graph_node_create_from_ctx(graph, d.ctx, &copy2));
	CHECK_OK(doca_graph_node_create_from_user(graph, b1_user_node, &check));
	CHECK_OK(doca_graph_add_dependency(graph, root_user, copy1));
	CHECK_OK(doca_graph_add_dependency(graph, copy1, check));
	CHECK_OK(doca_graph_add_dependency(graph, copy2, check));
	CHECK_OK(doca_graph_set_conf(graph, b1_graph_done, b1_graph_done, 1));
	CHECK_OK(doca_graph_start(graph));
	CHECK_OK(doca_graph_instance_create(graph, &g.inst));
	REQUIRE(g.inst != NULL);
	CHECK_OK(doca_graph_instance_set_user_data(g.inst, (union doca_data){.ptr = &g}));
	CHECK_OK(doca_graph_instance_set_user_node_data(g.inst, root_user, &g));
	CHECK_OK(doca_graph_instance_set_user_node_data(g.inst, check, &g));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(g.inst, copy1, doca_dma_task_memcpy_as_task(t1)));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(g.inst, copy2, doca_dma_task_memcpy_as_task(t2)));
	g.copies[0] = t1;
	g.copies[1] = t2;
	g.resubmits_left = 1;
	g.resubmit_ret = DOCA_ERROR_UNKNOWN;

	W.in_api = true;
	CHECK_OK(doca_graph_instance_submit(g.inst));
	W.in_api = false;
	blist_sleep_ms(30); /* copy2 (a root) may be finished by a worker by now */
	CHECK_EQ_U64(g.user_calls, 0);
	CHECK_EQ_U64(g.done, 0);
	CHECK_EQ_U64(W.task_cbs, 0);
	/* Not even a graph-owned task is reported inside the submit (or the sleep). */
	CHECK_ERR(doca_task_get_status(doca_dma_task_memcpy_as_task(t2)), DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(flow_ctx_inflight(d.ctx), 1);

	b1_poll(b.pe, b1_graph_finished, &g);
	CHECK_OK(g.resubmit_ret);
	CHECK_EQ_U64(g.done, 2);
	CHECK_EQ_U64(g.user_calls, 4); /* two user nodes, two runs */
	CHECK(flow_dst_holds(t1, 5));
	CHECK(flow_dst_holds(t2, 6));
	CHECK_EQ_U64(W.task_cbs, 0);   /* graph-owned tasks never call their own callbacks */
	b1_expect_clean();

	CHECK_OK(doca_graph_instance_destroy(g.inst));
	flow_release_task(t1);
	flow_release_task(t2);
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	b1_dma_teardown(&b, &d, dma);
}

int main(void)
{
	blist_init();
	SD_RUN(b1_submit_and_try_submit_never_call_back);
	SD_RUN(b1_stop_from_main_reports_nothing_inside_the_call);
	SD_RUN(b1_stop_from_a_callback_reports_nothing_inside_the_call);
	SD_RUN(b1_start_free_and_other_calls_report_nothing);
	SD_RUN(b1_advise_submit_never_calls_back);
	SD_RUN(b1_graph_instance_submit_never_calls_back);
	return sd_test_done();
}
