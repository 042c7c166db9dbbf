/*
 * blist_cross_ctx_submit - B17: a task of context X may be
 * allocated and submitted from inside a callback of context Y on the same
 * PE.  Asserted for every kind of callback Y can be in: a success callback,
 * the error callback of a flushed task, the RUNNING -> STOPPING callback
 * (inside doca_ctx_stop) and the STOPPING -> IDLE callback (from
 * progress); between two DMA contexts on one device and between DMA and
 * mmap advise in both directions (cache_invalidate).  The submit returns
 * DOCA_SUCCESS, X's task is never reported inside Y's callback (B1) but by
 * a later progress call, and its copy is correct.
 */
#include "blist.h"

#include <doca_mmap_advise.h>

struct xc_ctx {
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	int ok, err, bad_data;
};

struct xc_run {
	struct flow_base b;
	struct xc_ctx x, y;
	/* scripted action of Y's callbacks */
	int hops_left;                /* ping-pong: submit to the other context while > 0 */
	int submit_failures;
	int alloc_failures;
	int nested_reports;           /* X reports that ran inside a Y callback */
	bool in_y_callback;
	struct doca_dma_task_memcpy *prepared; /* X task submitted from Y's first success */
	doca_error_t prepared_ret;
	bool submit_in_flush;
	bool submit_in_state;
	int submits_from_flush, submits_from_state;
	uint64_t next_value;
};

static struct xc_run X;

static struct xc_ctx *xc_other(struct xc_ctx *c)
{
	return c == &X.x ? &X.y : &X.x;
}

/* Allocate and submit a copy on context `to` from inside a callback. */
static void xc_submit_to(struct xc_ctx *to)
{
	uint8_t value = (uint8_t)(X.next_value++ % 250 + 1);
	struct doca_dma_task_memcpy *t;

	if (X.b.next_off + 2 * FLOW_COPY_LEN > X.b.mem_len)
		X.b.next_off = 0; /* reuse regions: every earlier copy is reported */
	t = flow_alloc_copy_task(&X.b, to->dma, value, value);
	if (t == NULL) {
		X.alloc_failures++;
		return;
	}
	if (doca_task_submit(doca_dma_task_memcpy_as_task(t)) != DOCA_SUCCESS) {
		X.submit_failures++;
		flow_release_task(t);
	}
}

static void xc_report(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud, bool ok)
{
	struct xc_ctx *c = ctx_ud.ptr;

	if (X.in_y_callback)
		X.nested_reports++;
	if (ok) {
		c->ok++;
		if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
			c->bad_data++;
	} else {
		c->err++;
	}
	flow_release_task(task);

	if (c != &X.y)
		goto ping_pong;
	X.in_y_callback = true;
	if (ok && X.prepared != NULL) {
		X.prepared_ret = doca_task_submit(doca_dma_task_memcpy_as_task(X.prepared));
		X.prepared = NULL;
		xc_submit_to(&X.x); /* and one allocated right here */
	}
	if (!ok && X.submit_in_flush) {
		xc_submit_to(&X.x);
		X.submits_from_flush++;
	}
	X.in_y_callback = false;
ping_pong:
	if (X.hops_left > 0) {
		X.hops_left--;
		xc_submit_to(xc_other(c));
	}
}

static void xc_ok(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	xc_report(task, task_ud, ctx_ud, true);
}

static void xc_err(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	xc_report(task, task_ud, ctx_ud, false);
}

static void xc_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	struct xc_ctx *c = ud.ptr;

	(void)ctx;
	(void)prev;
	if (c != &X.y || !X.submit_in_state || next == DOCA_CTX_STATE_RUNNING)
		return;
	X.in_y_callback = true;
	xc_submit_to(&X.x);
	X.submits_from_state++;
	X.in_y_callback = false;
}

static bool xc_setup(uint32_t pool)
{
	memset(&X, 0, sizeof(X));
	if (!flow_base_init(&X.b, 64 * 2 * FLOW_COPY_LEN, 160))
		return false;
	X.x.dma = flow_dma_new(&X.b, xc_ok, xc_err, pool, &X.x, xc_state_cb);
	X.y.dma = flow_dma_new(&X.b, xc_ok, xc_err, pool, &X.y, xc_state_cb);
	if (X.x.dma == NULL || X.y.dma == NULL)
		return false;
	X.x.ctx = doca_dma_as_ctx(X.x.dma);
	X.y.ctx = doca_dma_as_ctx(X.y.dma);
	CHECK_OK(doca_ctx_start(X.x.ctx));
	CHECK_OK(doca_ctx_start(X.y.ctx));
	X.next_value = 1;
	return !sd_test_case_failed;
}

static void xc_teardown(void)
{
	struct xc_ctx *cs[2] = {&X.x, &X.y};

	for (int i = 0; i < 2; i++) {
		if (!blist_ctx_is_idle(cs[i]->ctx)) {
			CHECK_OK(doca_ctx_stop(cs[i]->ctx));
		}
		CHECK_OK(doca_ctx_stop(cs[i]->ctx));
		CHECK_OK(doca_dma_destroy(cs[i]->dma));
	}
	flow_base_cleanup(&X.b);
}

static bool xc_counts_reach(void *arg)
{
	const int *want = arg; /* {x reports, y reports} */

	if (X.submit_failures + X.alloc_failures != 0)
		return true; /* a refused submit: the counts will never be reached */
	return X.x.ok + X.x.err >= want[0] && X.y.ok + X.y.err >= want[1];
}

static void b17_a_success_callback_submits_to_another_context(void)
{
	struct doca_dma_task_memcpy *y_task;
	int want[2] = {2, 1};

	REQUIRE(xc_setup(4));
	X.prepared = flow_alloc_copy_task(&X.b, X.x.dma, 0x31, 0x31);
	y_task = flow_alloc_copy_task(&X.b, X.y.dma, 0x32, 0x32);
	REQUIRE(X.prepared != NULL && y_task != NULL);
	X.prepared_ret = DOCA_ERROR_UNKNOWN;
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(y_task)));
	blist_poll_until(X.b.pe, xc_counts_reach, want, "the cross-context copies");
	CHECK_OK(X.prepared_ret);
	CHECK_EQ_U64(X.submit_failures + X.alloc_failures, 0);
	CHECK_EQ_U64(X.nested_reports, 0);
	CHECK_EQ_U64(X.x.ok, 2);
	CHECK_EQ_U64(X.y.ok, 1);
	CHECK_EQ_U64(X.x.bad_data + X.y.bad_data, 0);
	CHECK_EQ_U64(X.x.err + X.y.err, 0);
	xc_teardown();
}

static void b17_two_contexts_ping_pong_from_their_callbacks(void)
{
	const int hops = 200;
	struct doca_dma_task_memcpy *first;
	int want[2] = {hops / 2, hops / 2 + 1};
	unsigned long busy;

	REQUIRE(xc_setup(2));
	X.hops_left = hops;
	first = flow_alloc_copy_task(&X.b, X.y.dma, 0x7f, 0x7f);
	REQUIRE(first != NULL);
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(first)));
	busy = blist_poll_until(X.b.pe, xc_counts_reach, want, "the ping-pong");
	CHECK_EQ_U64(X.hops_left, 0);
	CHECK_EQ_U64(X.x.ok, hops / 2);
	CHECK_EQ_U64(X.y.ok, hops / 2 + 1);
	CHECK_EQ_U64(X.submit_failures + X.alloc_failures, 0);
	CHECK_EQ_U64(X.x.bad_data + X.y.bad_data, 0);
	/* Each hop is its own progress call, never nested in the previous one. */
	CHECK_EQ_U64(busy, hops + 1);
	CHECK_EQ_U64(doca_pe_progress(X.b.pe), 0);
	xc_teardown();
}

static void b17_flush_and_state_callbacks_submit_to_another_context(void)
{
	const int n = 6;
	int want[2];

	REQUIRE(xc_setup(16));
	X.submit_in_flush = true;
	X.submit_in_state = true;
	for (int i = 0; i < n; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(&X.b, X.y.dma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	/* RUNNING -> STOPPING runs inside this stop and submits one X task. */
	CHECK_ERR(doca_ctx_stop(X.y.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_EQ_U64(X.submits_from_state, 1);
	blist_wait_idle(X.b.pe, X.y.ctx);
	/* n flushes, each submitting one X task; IDLE submitted one more. */
	CHECK_EQ_U64(X.y.err, n);
	CHECK_EQ_U64(X.submits_from_flush, n);
	CHECK_EQ_U64(X.submits_from_state, 2);
	want[0] = n + 2;
	want[1] = n;
	blist_poll_until(X.b.pe, xc_counts_reach, want, "the copies submitted from Y's callbacks");
	CHECK_EQ_U64(X.x.ok, n + 2);
	CHECK_EQ_U64(X.x.err, 0);
	CHECK_EQ_U64(X.x.bad_data, 0);
	CHECK_EQ_U64(X.submit_failures + X.alloc_failures, 0);
	CHECK_EQ_U64(X.nested_reports, 0);
	xc_teardown();
}

/* ---- DMA <-> mmap advise (cache_invalidate, and the reverse) ---- */

struct xa_run {
	struct flow_base b;
	struct doca_dma *dma;
	struct doca_ctx *dctx, *actx;
	struct doca_mmap_advise *adv;
	struct doca_mmap_advise_task_invalidate_cache *inv;
	struct doca_dma_task_memcpy *copy, *second_copy;
	doca_error_t inv_submit, copy_submit;
	int dma_ok, dma_err, adv_ok, adv_err;
	int adv_inside_dma_cb, dma_inside_adv_cb;
	bool in_dma_cb, in_adv_cb;
	bool run;
};

static struct xa_run A;

static void xa_dma_ok(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	if (A.in_adv_cb)
		A.dma_inside_adv_cb++;
	A.dma_ok++;
	CHECK(flow_dst_holds(task, (uint8_t)task_ud.u64));
	if (task != A.copy)
		return; /* the second copy ends the run */
	A.in_dma_cb = true;
	/* cache_invalidate: the DMA task is kept, the invalidate goes out from here. */
	A.inv_submit = doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(A.inv));
	A.in_dma_cb = false;
	if (A.inv_submit != DOCA_SUCCESS)
		A.run = false;
}

static void xa_dma_err(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	A.dma_err++;
	A.run = false;
}

static void xa_adv_ok(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
		      union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	if (A.in_dma_cb)
		A.adv_inside_dma_cb++;
	A.adv_ok++;
	A.in_adv_cb = true;
	/* The reverse direction: an advise callback submits a DMA task. */
	A.copy_submit = doca_task_submit(doca_dma_task_memcpy_as_task(A.second_copy));
	A.in_adv_cb = false;
	if (A.copy_submit != DOCA_SUCCESS)
		A.run = false;
}

static void xa_adv_err(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
		       union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	A.adv_err++;
	A.run = false;
}

static bool xa_done(void *arg)
{
	(void)arg;
	return !A.run || A.dma_ok >= 2;
}

static void b17_dma_and_mmap_advise_submit_to_each_other(void)
{
	union doca_data none = {.u64 = 0};

	memset(&A, 0, sizeof(A));
	REQUIRE(flow_base_init(&A.b, 8 * FLOW_COPY_LEN, 8));
	A.dma = flow_dma_new(&A.b, xa_dma_ok, xa_dma_err, 2, &A, NULL);
	REQUIRE(A.dma != NULL);
	A.dctx = doca_dma_as_ctx(A.dma);
	CHECK_OK(doca_mmap_advise_create(A.b.dev, &A.adv));
	REQUIRE(A.adv != NULL);
	A.actx = doca_mmap_advise_as_ctx(A.adv);
	CHECK_OK(doca_pe_connect_ctx(A.b.pe, A.actx));
	CHECK_OK(doca_ctx_set_user_data(A.actx, (union doca_data){.ptr = &A}));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(A.adv, xa_adv_ok, xa_adv_err, 1));
	CHECK_OK(doca_ctx_start(A.dctx));
	CHECK_OK(doca_ctx_start(A.actx));
	A.copy = flow_alloc_copy_task(&A.b, A.dma, 0x5c, 0x5c);
	A.second_copy = flow_alloc_copy_task(&A.b, A.dma, 0x5d, 0x5d);
	REQUIRE(A.copy != NULL && A.second_copy != NULL);
	/* The sample invalidates the DMA source. */
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(
		A.adv, flow_unconst(doca_dma_task_memcpy_get_src(A.copy)), none, &A.inv));
	REQUIRE(A.inv != NULL);
	A.inv_submit = A.copy_submit = DOCA_ERROR_UNKNOWN;
	A.run = true;
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(A.copy)));
	blist_poll_until(A.b.pe, xa_done, NULL, "DMA -> advise -> DMA");
	CHECK_OK(A.inv_submit);
	CHECK_OK(A.copy_submit);
	CHECK_EQ_U64(A.dma_ok, 2);
	CHECK_EQ_U64(A.adv_ok, 1);
	CHECK_EQ_U64(A.dma_err + A.adv_err, 0);
	CHECK_EQ_U64(A.adv_inside_dma_cb + A.dma_inside_adv_cb, 0);
	/* cache_invalidate's cleanup: tasks freed outside callbacks, then synchronous stops. */
	flow_release_task(A.copy);
	flow_release_task(A.second_copy);
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(A.inv));
	CHECK_OK(doca_ctx_stop(A.dctx));
	CHECK_OK(doca_ctx_stop(A.actx));
	CHECK_OK(doca_dma_destroy(A.dma));
	CHECK_OK(doca_mmap_advise_destroy(A.adv));
	flow_base_cleanup(&A.b);
}

int main(void)
{
	blist_init();
	SD_RUN(b17_a_success_callback_submits_to_another_context);
	SD_RUN(b17_two_contexts_ping_pong_from_their_callbacks);
	SD_RUN(b17_flush_and_state_callbacks_submit_to_another_context);
	SD_RUN(b17_dma_and_mmap_advise_submit_to_each_other);
	return sd_test_done();
}
