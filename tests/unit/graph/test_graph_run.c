/*
 * Running graph instances: dependency
 * order, one unit of application work per progress call, suppression of
 * the tasks' own callbacks, in-flight counts, failure propagation, reuse of
 * instances, calls from inside the graph callback, several graphs on one
 * PE, and the PE's notification for graph work.
 */
#include <poll.h>

#include "graph_fixture.h"

static struct gfx g;

/* ---- the official sample's shape: two copies of one source, then a check ---- */

#define NINST 10
#define COPY 1024

struct sample_inst {
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *t1, *t2;
	struct doca_buf *src, *d1, *d2;
	int checks;
	bool good;
};

static doca_error_t sample_check(void *cookie)
{
	struct sample_inst *si = cookie;
	size_t len1 = 0, len2 = 0;
	void *s = NULL, *p1 = NULL, *p2 = NULL;

	si->checks++;
	doca_buf_get_data_len(si->d1, &len1);
	doca_buf_get_data_len(si->d2, &len2);
	doca_buf_get_data(si->src, &s);
	doca_buf_get_data(si->d1, &p1);
	doca_buf_get_data(si->d2, &p2);
	si->good = len1 == COPY && len2 == COPY && memcmp(s, p1, COPY) == 0 && memcmp(s, p2, COPY) == 0;
	return si->good ? DOCA_SUCCESS : DOCA_ERROR_BAD_STATE;
}

static void ten_instances_copy_then_check_like_the_sample(void)
{
	static struct sample_inst si[NINST];
	struct doca_graph *graph;
	struct doca_graph_node *user, *c1, *c2;
	union doca_data gud = {.u64 = 0xabc};
	size_t inflight = 0;
	enum doca_ctx_states st;

	REQUIRE(gfx_setup(&g, NINST));
	for (size_t i = 0; i < g.fx.mem_len; i++)
		g.fx.src_mem[i] = (uint8_t)(i / COPY + 1);
	memset(g.fx.dst_mem, 0xee, g.fx.mem_len); /* not zeroed, as in the sample */
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, sample_check, &user) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.fx.ctx, &c1) == DOCA_SUCCESS);
	REQUIRE(doca_graph_add_dependency(graph, c1, user) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.ctx2, &c2) == DOCA_SUCCESS);
	REQUIRE(doca_graph_add_dependency(graph, c2, user) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_ok, NINST) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_user_data(graph, gud) == DOCA_SUCCESS);
	REQUIRE(doca_graph_start(graph) == DOCA_SUCCESS);

	for (int k = 0; k < NINST; k++) {
		union doca_data none = {.u64 = 0}, iud = {.ptr = &si[k]};

		memset(&si[k], 0, sizeof(si[k]));
		REQUIRE(doca_graph_instance_create(graph, &si[k].inst) == DOCA_SUCCESS);
		si[k].src = sd_fx_src_buf(&g.fx, (size_t)k * COPY, COPY);
		si[k].d1 = sd_fx_dst_buf(&g.fx, (size_t)k * 2 * COPY, COPY);
		si[k].d2 = sd_fx_dst_buf(&g.fx, (size_t)(k * 2 + 1) * COPY, COPY);
		REQUIRE(si[k].src && si[k].d1 && si[k].d2);
		/* Both tasks share one source buffer. */
		REQUIRE(doca_dma_task_memcpy_alloc_init(g.fx.dma, si[k].src, si[k].d1, none, &si[k].t1) == DOCA_SUCCESS);
		REQUIRE(doca_dma_task_memcpy_alloc_init(g.dma2, si[k].src, si[k].d2, none, &si[k].t2) == DOCA_SUCCESS);
		REQUIRE(doca_graph_instance_set_ctx_node_data(si[k].inst, c1, gfx_t(si[k].t1)) == DOCA_SUCCESS);
		REQUIRE(doca_graph_instance_set_ctx_node_data(si[k].inst, c2, gfx_t(si[k].t2)) == DOCA_SUCCESS);
		REQUIRE(doca_graph_instance_set_user_node_data(si[k].inst, user, &si[k]) == DOCA_SUCCESS);
		REQUIRE(doca_graph_instance_set_user_data(si[k].inst, iud) == DOCA_SUCCESS);
	}
	gfx_log_mark();
	for (int k = 0; k < NINST; k++)
		CHECK_OK(doca_graph_instance_submit(si[k].inst));
	/* P9: graph-owned tasks count as in flight; 10 per context fill both pools. */
	CHECK_OK(doca_ctx_get_num_inflight_tasks(g.fx.ctx, &inflight));
	CHECK_EQ_U64(inflight, NINST);
	CHECK_OK(doca_pe_get_num_inflight_tasks(g.fx.pe, &inflight));
	CHECK_EQ_U64(inflight, 2 * NINST);
	/* Nothing runs inside submit (B1). */
	CHECK_EQ_U64(gfx_ndone, 0);
	CHECK_EQ_U64(si[0].checks, 0);

	gfx_run_until(g.fx.pe, NINST);
	CHECK_EQ_U64(gfx_ndone, NINST);
	for (int k = 0; k < NINST; k++) {
		bool ok;

		CHECK_EQ_U64(si[k].checks, 1);
		CHECK(si[k].good);
		CHECK(gfx_done[k].ok);
		CHECK(((struct sample_inst *)(uintptr_t)gfx_done[k].inst_ud)->inst == gfx_done[k].inst);
		CHECK_EQ_U64(gfx_done[k].graph_ud, 0xabc);
		CHECK_OK(doca_task_get_status(gfx_t(si[k].t1)));
		CHECK_OK(doca_task_get_status(gfx_t(si[k].t2)));
		ok = false;
		for (int j = 0; j < NINST; j++)
			ok = ok || gfx_done[j].inst == si[k].inst;
		CHECK(ok);
	}
	/* The tasks' own callbacks never ran, and a whole run logged nothing. */
	CHECK_EQ_U64(gfx_ctx1_task_cbs(&g), 0);
	CHECK_EQ_U64(g.ctx2_task_cbs, 0);
	{
		bool all;

		CHECK_EQ_U64(gfx_log_count(NULL, &all), 0);
	}
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);

	/* The sample's teardown order. */
	for (int k = 0; k < NINST; k++) {
		CHECK_OK(doca_graph_instance_destroy(si[k].inst));
		doca_task_free(gfx_t(si[k].t1));
		doca_task_free(gfx_t(si[k].t2));
	}
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	CHECK_OK(doca_ctx_stop(g.fx.ctx)); /* synchronous: nothing allocated (B10) */
	CHECK_OK(doca_ctx_stop(g.ctx2));
	CHECK_OK(doca_ctx_get_state(g.fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	gfx_teardown(&g);
}

/* ---- units of progress ---- */

struct chain {
	struct doca_graph *graph;
	struct doca_graph_node *first, *second;
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *task;
	struct gfx_user user;
};

/* copy -> user (user_first: user -> copy), one instance with its data set. */
static bool chain_build(struct chain *c, bool user_first)
{
	memset(c, 0, sizeof(*c));
	c->user.result = DOCA_SUCCESS;
	c->task = gfx_copy_task(&g, g.fx.dma, 0, 256, 0);
	if (c->task == NULL || doca_graph_create(g.fx.pe, &c->graph) != DOCA_SUCCESS)
		return false;
	struct doca_graph_node *copy, *user;

	if (doca_graph_node_create_from_ctx(c->graph, g.fx.ctx, &copy) != DOCA_SUCCESS ||
	    doca_graph_node_create_from_user(c->graph, gfx_user_cb, &user) != DOCA_SUCCESS)
		return false;
	c->first = user_first ? user : copy;
	c->second = user_first ? copy : user;
	return doca_graph_add_dependency(c->graph, c->first, c->second) == DOCA_SUCCESS &&
	       doca_graph_set_conf(c->graph, gfx_graph_ok, gfx_graph_err, 2) == DOCA_SUCCESS &&
	       doca_graph_start(c->graph) == DOCA_SUCCESS &&
	       doca_graph_instance_create(c->graph, &c->inst) == DOCA_SUCCESS &&
	       doca_graph_instance_set_ctx_node_data(c->inst, copy, gfx_t(c->task)) == DOCA_SUCCESS &&
	       doca_graph_instance_set_user_node_data(c->inst, user, &c->user) == DOCA_SUCCESS;
}

static void chain_destroy(struct chain *c)
{
	CHECK_OK(doca_graph_instance_destroy(c->inst));
	doca_task_free(gfx_t(c->task));
	CHECK_OK(doca_graph_stop(c->graph));
	CHECK_OK(doca_graph_destroy(c->graph));
}

static void each_progress_call_does_one_unit(void)
{
	struct chain c;
	size_t inflight = 9;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(chain_build(&c, false));
	CHECK_OK(doca_graph_instance_submit(c.inst));
	CHECK_ERR(doca_task_get_status(gfx_t(c.task)), DOCA_ERROR_IN_PROGRESS);
	/* 1: the task report (its callback suppressed); the user node waits for a later call. */
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1);
	CHECK_OK(doca_task_get_status(gfx_t(c.task)));
	CHECK_EQ_U64(c.user.calls, 0);
	CHECK_OK(doca_pe_get_num_inflight_tasks(g.fx.pe, &inflight));
	CHECK_EQ_U64(inflight, 0);
	CHECK(memcmp(g.fx.dst_mem, g.fx.src_mem, 256) == 0);
	/* 2: the user node. */
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1);
	CHECK_EQ_U64(c.user.calls, 1);
	CHECK_EQ_U64(gfx_ndone, 0);
	/* 3: the instance callback. */
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1);
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(gfx_done[0].ok);
	/* 4: nothing left. */
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);
	CHECK_EQ_U64(gfx_ctx1_task_cbs(&g), 0);
	chain_destroy(&c);
	gfx_teardown(&g);
}

static void a_root_user_node_runs_from_progress_not_from_submit(void)
{
	struct chain c;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(chain_build(&c, true));
	CHECK_OK(doca_graph_instance_submit(c.inst));
	CHECK_EQ_U64(c.user.calls, 0); /* a user node runs from progress, not from submit */
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1);
	CHECK_EQ_U64(c.user.calls, 1);
	CHECK_ERR(doca_task_get_status(gfx_t(c.task)), DOCA_ERROR_IN_PROGRESS); /* launched, not yet reported */
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1); /* the task */
	CHECK_EQ_U64(gfx_ndone, 0);
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1); /* the callback */
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(gfx_done[0].ok);
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);
	chain_destroy(&c);
	gfx_teardown(&g);
}

/* ---- failures ---- */

static void a_failing_user_node_fails_the_run_and_skips_its_children(void)
{
	struct chain c;
	size_t inflight = 7;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(chain_build(&c, true));
	c.user.result = DOCA_ERROR_NOT_FOUND;
	CHECK_OK(doca_graph_instance_submit(c.inst));
	gfx_run_until(g.fx.pe, 1);
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(!gfx_done[0].ok);
	CHECK_EQ_U64(c.user.calls, 1);
	/* The copy depending on it never ran. */
	CHECK_OK(doca_ctx_get_num_inflight_tasks(g.fx.ctx, &inflight));
	CHECK_EQ_U64(inflight, 0);
	CHECK_EQ_U64(g.fx.dst_mem[0], 0);
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);

	/* The same instance runs again once the node succeeds. */
	c.user.result = DOCA_SUCCESS;
	CHECK_OK(doca_graph_instance_submit(c.inst));
	gfx_run_until(g.fx.pe, 2);
	CHECK_EQ_U64(gfx_ndone, 2);
	CHECK(gfx_done[1].ok);
	CHECK(memcmp(g.fx.dst_mem, g.fx.src_mem, 256) == 0);
	chain_destroy(&c);
	gfx_teardown(&g);
}

static void a_failing_task_is_fatal_to_its_context_and_stops_the_run(void)
{
	struct doca_graph *graph;
	struct doca_graph_node *bad, *good, *after_bad, *after_good;
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *t_bad, *t_good;
	struct gfx_user u_bad = {.result = DOCA_SUCCESS}, u_good = {.result = DOCA_SUCCESS};
	enum doca_ctx_states st, st2;

	REQUIRE(gfx_setup(&g, 4));
	for (size_t i = 0; i < 512; i++)
		g.fx.src_mem[i] = (uint8_t)(i + 1);
	t_bad = gfx_bad_task(&g, g.fx.dma, 0);
	t_good = gfx_copy_task(&g, g.dma2, 256, 128, 0);
	REQUIRE(t_bad && t_good);
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.fx.ctx, &bad) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.ctx2, &good) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &after_bad) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &after_good) == DOCA_SUCCESS);
	REQUIRE(doca_graph_add_dependency(graph, bad, after_bad) == DOCA_SUCCESS);
	REQUIRE(doca_graph_add_dependency(graph, good, after_good) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 1) == DOCA_SUCCESS);
	REQUIRE(doca_graph_start(graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(graph, &inst) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_ctx_node_data(inst, bad, gfx_t(t_bad)) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_ctx_node_data(inst, good, gfx_t(t_good)) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_user_node_data(inst, after_bad, &u_bad) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_user_node_data(inst, after_good, &u_good) == DOCA_SUCCESS);

	CHECK_QUIET(doca_graph_instance_submit(inst), DOCA_SUCCESS);
	gfx_log_mark();
	gfx_run_until(g.fx.pe, 1);
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(!gfx_done[0].ok);
	/* The failure reached the graph, after one ERROR record naming the task and the rule. */
	{
		bool all;

		CHECK_EQ_U64(gfx_log_count("memcpy task", &all), 1);
		CHECK(all);
	}
	CHECK_ERR(doca_task_get_status(gfx_t(t_bad)), DOCA_ERROR_INVALID_VALUE);
	/* The sibling copy was already launched: it finished, but nothing after it ran. */
	CHECK_OK(doca_task_get_status(gfx_t(t_good)));
	CHECK(memcmp(g.fx.dst_mem + 256, g.fx.src_mem + 256, 128) == 0);
	CHECK_EQ_U64(u_bad.calls, 0);
	CHECK_EQ_U64(u_good.calls, 0);
	/* The failing DMA context stopped itself; the other one is untouched. */
	CHECK_OK(doca_ctx_get_state(g.fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_STOPPING);
	CHECK_OK(doca_ctx_get_state(g.ctx2, &st2));
	CHECK(st2 == DOCA_CTX_STATE_RUNNING);
	CHECK(g.fx.log.n >= 1 && g.fx.log.ev[g.fx.log.n - 1].kind == SD_FX_STATE &&
	      g.fx.log.ev[g.fx.log.n - 1].next == DOCA_CTX_STATE_STOPPING);
	CHECK_EQ_U64(gfx_ctx1_task_cbs(&g), 0);
	CHECK_EQ_U64(g.ctx2_task_cbs, 0);

	CHECK_OK(doca_graph_instance_destroy(inst));
	doca_task_free(gfx_t(t_bad));
	doca_task_free(gfx_t(t_good));
	sd_fx_drain(g.fx.pe); /* STOPPING -> IDLE */
	CHECK_OK(doca_ctx_get_state(g.fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	gfx_teardown(&g);
}

static void queued_user_nodes_of_a_failed_run_never_run(void)
{
	struct doca_graph *graph;
	struct doca_graph_node *bad, *user;
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *t_bad;
	struct gfx_user u = {.result = DOCA_SUCCESS};

	REQUIRE(gfx_setup(&g, 4));
	t_bad = gfx_bad_task(&g, g.fx.dma, 0);
	REQUIRE(t_bad != NULL);
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.fx.ctx, &bad) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &user) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 1) == DOCA_SUCCESS);
	REQUIRE(doca_graph_start(graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(graph, &inst) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_ctx_node_data(inst, bad, gfx_t(t_bad)) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_user_node_data(inst, user, &u) == DOCA_SUCCESS);
	/* Both are roots: the task is submitted, the user node waits in the graph queue. */
	CHECK_OK(doca_graph_instance_submit(inst));
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1); /* the task step comes first and fails */
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1); /* the error callback, not the user node */
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(!gfx_done[0].ok);
	CHECK_EQ_U64(u.calls, 0);
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);
	CHECK_OK(doca_graph_instance_destroy(inst));
	doca_task_free(gfx_t(t_bad));
	sd_fx_drain(g.fx.pe);
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	gfx_teardown(&g);
}

static void other_instances_on_a_failed_context_are_flushed(void)
{
	struct doca_graph *graph;
	struct doca_graph_node *copy;
	struct doca_graph_instance *i_bad, *i_next;
	struct doca_dma_task_memcpy *t_bad, *t_next;
	size_t inflight = 5;

	REQUIRE(gfx_setup(&g, 4));
	t_bad = gfx_bad_task(&g, g.fx.dma, 0);
	t_next = gfx_copy_task(&g, g.fx.dma, 512, 64, 0);
	REQUIRE(t_bad && t_next);
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.fx.ctx, &copy) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 2) == DOCA_SUCCESS);
	REQUIRE(doca_graph_start(graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(graph, &i_bad) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(graph, &i_next) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_ctx_node_data(i_bad, copy, gfx_t(t_bad)) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_set_ctx_node_data(i_next, copy, gfx_t(t_next)) == DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_submit(i_bad));
	CHECK_OK(doca_graph_instance_submit(i_next));
	gfx_run_until(g.fx.pe, 2);
	REQUIRE(gfx_ndone == 2);
	CHECK(!gfx_done[0].ok && !gfx_done[1].ok);
	CHECK_ERR(doca_task_get_status(gfx_t(t_bad)), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_get_status(gfx_t(t_next)), DOCA_ERROR_SHUTDOWN); /* flushed, like any task */
	CHECK_EQ_U64(g.fx.dst_mem[512], 0);
	CHECK_OK(doca_ctx_get_num_inflight_tasks(g.fx.ctx, &inflight));
	CHECK_EQ_U64(inflight, 0);
	CHECK_EQ_U64(gfx_ctx1_task_cbs(&g), 0);
	/* A new run cannot start on the stopped context. */
	CHECK_REJECT(doca_graph_instance_submit(i_bad), DOCA_ERROR_BAD_STATE, "doca_graph_instance_submit");
	CHECK_OK(doca_graph_instance_destroy(i_bad));
	CHECK_OK(doca_graph_instance_destroy(i_next));
	doca_task_free(gfx_t(t_bad));
	doca_task_free(gfx_t(t_next));
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	gfx_teardown(&g);
}

static void stopping_a_context_mid_run_fails_the_run(void)
{
	struct chain c;
	enum doca_ctx_states st;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(chain_build(&c, false));
	CHECK_OK(doca_graph_instance_submit(c.inst));
	/* 1.8 item 11: the stop is not refused, the outstanding task is flushed. */
	CHECK_ERR(doca_ctx_stop(g.fx.ctx), DOCA_ERROR_IN_PROGRESS);
	gfx_run_until(g.fx.pe, 1);
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(!gfx_done[0].ok);
	CHECK_ERR(doca_task_get_status(gfx_t(c.task)), DOCA_ERROR_SHUTDOWN);
	CHECK_EQ_U64(c.user.calls, 0);
	CHECK_EQ_U64(g.fx.dst_mem[0], 0);
	CHECK_OK(doca_graph_instance_destroy(c.inst));
	doca_task_free(gfx_t(c.task));
	sd_fx_drain(g.fx.pe);
	CHECK_OK(doca_ctx_get_state(g.fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_graph_stop(c.graph));
	CHECK_OK(doca_graph_destroy(c.graph));
	gfx_teardown(&g);
}

/* ---- reuse ---- */

static void an_instance_reruns_with_new_task_contents(void)
{
	struct chain c;

	REQUIRE(gfx_setup(&g, 4));
	for (size_t i = 0; i < 4096; i++)
		g.fx.src_mem[i] = (uint8_t)(i * 3 + 1);
	REQUIRE(chain_build(&c, false));
	for (int run = 0; run < 3; run++) {
		size_t off = (size_t)run * 1024;

		/* Node data persists; the task gets new buffers between runs (1.8 item 10). */
		doca_dma_task_memcpy_set_src(c.task, sd_fx_src_buf(&g.fx, off, 256));
		doca_dma_task_memcpy_set_dst(c.task, sd_fx_dst_buf(&g.fx, off, 256));
		CHECK_OK(doca_graph_instance_submit(c.inst));
		CHECK_ERR(doca_task_get_status(gfx_t(c.task)), DOCA_ERROR_IN_PROGRESS); /* reset per run */
		gfx_run_until(g.fx.pe, run + 1);
		CHECK_EQ_U64(gfx_ndone, run + 1);
		CHECK(gfx_done[run].ok);
		CHECK_OK(doca_task_get_status(gfx_t(c.task)));
		CHECK(memcmp(g.fx.dst_mem + off, g.fx.src_mem + off, 256) == 0);
		CHECK_EQ_U64(c.user.calls, run + 1);
	}
	chain_destroy(&c);
	gfx_teardown(&g);
}

static struct chain cb_chain;
static int cb_reruns;
static doca_error_t cb_resubmit_status = DOCA_ERROR_UNKNOWN;
static doca_error_t cb_destroy_status = DOCA_ERROR_UNKNOWN;

static void resubmit_then_destroy(struct doca_graph_instance *inst, bool ok)
{
	(void)ok;
	if (cb_reruns < 3) {
		cb_reruns++;
		/* Room for the next copy: destinations are appended to. */
		doca_buf_reset_data_len(doca_dma_task_memcpy_get_dst(cb_chain.task));
		cb_resubmit_status = doca_graph_instance_submit(inst);
	} else {
		cb_destroy_status = doca_graph_instance_destroy(inst);
	}
}

static void the_run_callback_may_resubmit_or_destroy_its_instance(void)
{
	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(chain_build(&cb_chain, false));
	gfx_on_done = resubmit_then_destroy;
	cb_reruns = 0;
	CHECK_OK(doca_graph_instance_submit(cb_chain.inst));
	gfx_run_until(g.fx.pe, 4);
	CHECK_EQ_U64(gfx_ndone, 4);
	CHECK_OK(cb_resubmit_status);
	CHECK_OK(cb_destroy_status);
	CHECK_EQ_U64(cb_chain.user.calls, 4);
	for (int i = 0; i < 4; i++)
		CHECK(gfx_done[i].ok);
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);
	gfx_on_done = NULL;
	doca_task_free(gfx_t(cb_chain.task));
	CHECK_OK(doca_graph_stop(cb_chain.graph));
	CHECK_OK(doca_graph_destroy(cb_chain.graph));
	gfx_teardown(&g);
}

/* ---- several graphs, one PE ---- */

static void several_graphs_share_one_pe(void)
{
	struct chain a, b;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(chain_build(&a, false));
	REQUIRE(chain_build(&b, true));
	/* b's task needs its own buffers: chain_build gave both the same range. */
	doca_dma_task_memcpy_set_dst(b.task, sd_fx_dst_buf(&g.fx, 2048, 256));
	CHECK_OK(doca_graph_instance_submit(a.inst));
	CHECK_OK(doca_graph_instance_submit(b.inst));
	gfx_run_until(g.fx.pe, 2);
	CHECK_EQ_U64(gfx_ndone, 2);
	CHECK(gfx_done[0].ok && gfx_done[1].ok);
	CHECK(gfx_done[0].inst != gfx_done[1].inst);
	/* Destroying one graph leaves the other working. */
	chain_destroy(&a);
	CHECK_OK(doca_graph_instance_submit(b.inst));
	gfx_run_until(g.fx.pe, 3);
	CHECK_EQ_U64(gfx_ndone, 3);
	CHECK(gfx_done[2].inst == b.inst);
	chain_destroy(&b);
	gfx_teardown(&g);
}

/* ---- notification ---- */

static bool handle_readable(struct doca_pe *pe)
{
	doca_notification_handle_t fd;
	struct pollfd p;

	if (doca_pe_get_notification_handle(pe, &fd) != DOCA_SUCCESS)
		return false;
	p.fd = (int)fd;
	p.events = POLLIN;
	p.revents = 0;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

static void graph_work_wakes_an_armed_pe(void)
{
	struct chain c;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(chain_build(&c, true));
	CHECK_OK(doca_pe_request_notification(g.fx.pe));
	CHECK(!handle_readable(g.fx.pe));
	/* Submitting queues the root user node: the armed PE must signal. */
	CHECK_OK(doca_graph_instance_submit(c.inst));
	CHECK(handle_readable(g.fx.pe));
	CHECK_OK(doca_pe_clear_notification(g.fx.pe, 0));
	CHECK(!handle_readable(g.fx.pe));
	/* Arming while graph work is pending signals at once. */
	CHECK_OK(doca_pe_request_notification(g.fx.pe));
	CHECK(handle_readable(g.fx.pe));
	CHECK_OK(doca_pe_clear_notification(g.fx.pe, 0));
	gfx_run_until(g.fx.pe, 1);
	CHECK_EQ_U64(gfx_ndone, 1);
	chain_destroy(&c);
	gfx_teardown(&g);
}

int main(void)
{
	gfx_log_capture();
	SD_RUN(ten_instances_copy_then_check_like_the_sample);
	SD_RUN(each_progress_call_does_one_unit);
	SD_RUN(a_root_user_node_runs_from_progress_not_from_submit);
	SD_RUN(a_failing_user_node_fails_the_run_and_skips_its_children);
	SD_RUN(a_failing_task_is_fatal_to_its_context_and_stops_the_run);
	SD_RUN(queued_user_nodes_of_a_failed_run_never_run);
	SD_RUN(other_instances_on_a_failed_context_are_flushed);
	SD_RUN(stopping_a_context_mid_run_fails_the_run);
	SD_RUN(an_instance_reruns_with_new_task_contents);
	SD_RUN(the_run_callback_may_resubmit_or_destroy_its_instance);
	SD_RUN(several_graphs_share_one_pe);
	SD_RUN(graph_work_wakes_an_armed_pe);
	return sd_test_done();
}
