/*
 * Graph instances: creation within the graph's budget,
 * node data and its refusals, user data, destruction, and the checks
 * doca_graph_instance_submit makes before a run starts.
 */
#include "graph_fixture.h"

static struct gfx g;
static struct doca_graph *graph;
static struct doca_graph_node *n_copy, *n_user;

/* copy (ctx of the fixture) -> user, started, budget `max`. */
static bool build(uint32_t max)
{
	union doca_data ud = {.u64 = 0x6a};

	return gfx_setup(&g, 8) && doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS &&
	       doca_graph_node_create_from_ctx(graph, g.fx.ctx, &n_copy) == DOCA_SUCCESS &&
	       doca_graph_node_create_from_user(graph, gfx_user_cb, &n_user) == DOCA_SUCCESS &&
	       doca_graph_add_dependency(graph, n_copy, n_user) == DOCA_SUCCESS &&
	       doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, max) == DOCA_SUCCESS &&
	       doca_graph_set_user_data(graph, ud) == DOCA_SUCCESS && doca_graph_start(graph) == DOCA_SUCCESS;
}

static void unbuild(void)
{
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	gfx_teardown(&g);
}

static void creation_needs_a_started_graph_and_respects_the_budget(void)
{
	struct doca_graph_instance *a, *b, *c = NULL;
	struct doca_graph *stopped;

	REQUIRE(build(2));
	REQUIRE(doca_graph_create(g.fx.pe, &stopped) == DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_instance_create(stopped, &a), DOCA_ERROR_BAD_STATE, "doca_graph_instance_create");
	CHECK_REJECT(doca_graph_instance_create(NULL, &a), DOCA_ERROR_INVALID_VALUE, "doca_graph_instance_create");
	CHECK_REJECT(doca_graph_instance_create(graph, NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_instance_create");
	CHECK_QUIET(doca_graph_instance_create(graph, &a), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_instance_create(graph, &b), DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_instance_create(graph, &c), DOCA_ERROR_NO_MEMORY, "doca_graph_instance_create");
	CHECK(c == NULL);
	/* Instances pin the graph: no stop while any exists. */
	CHECK_REJECT(doca_graph_stop(graph), DOCA_ERROR_IN_USE, "doca_graph_stop");
	CHECK_QUIET(doca_graph_instance_destroy(a), DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_create(graph, &c));
	CHECK_OK(doca_graph_instance_destroy(b));
	CHECK_OK(doca_graph_instance_destroy(c));
	CHECK_REJECT(doca_graph_instance_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_instance_destroy");
	CHECK_OK(doca_graph_destroy(stopped));
	unbuild();
}

static void user_data_starts_at_zero_and_round_trips(void)
{
	struct doca_graph_instance *inst;
	union doca_data ud = {.u64 = 3};

	REQUIRE(build(1));
	REQUIRE(doca_graph_instance_create(graph, &inst) == DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_get_user_data(inst, &ud));
	CHECK_EQ_U64(ud.u64, 0);
	ud.u64 = 99;
	CHECK_QUIET(doca_graph_instance_set_user_data(inst, ud), DOCA_SUCCESS);
	ud.u64 = 0;
	CHECK_OK(doca_graph_instance_get_user_data(inst, &ud));
	CHECK_EQ_U64(ud.u64, 99);
	CHECK_REJECT(doca_graph_instance_get_user_data(inst, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_instance_get_user_data");
	CHECK_REJECT(doca_graph_instance_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_instance_get_user_data");
	CHECK_REJECT(doca_graph_instance_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_instance_set_user_data");
	CHECK_OK(doca_graph_instance_destroy(inst));
	unbuild();
}

static void node_data_is_checked(void)
{
	struct doca_graph_instance *inst;
	struct doca_graph *other;
	struct doca_graph_node *foreign;
	struct doca_dma_task_memcpy *task, *task2, *task_ctx2, *busy, *freed;
	struct gfx_user cookie = {.result = DOCA_SUCCESS};
	const char *ctx_fn = "doca_graph_instance_set_ctx_node_data";
	const char *user_fn = "doca_graph_instance_set_user_node_data";
	const char *sub_fn = "doca_graph_instance_set_sub_graph_node_data";

	REQUIRE(build(2));
	REQUIRE(doca_graph_create(g.fx.pe, &other) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(other, g.fx.ctx, &foreign) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(graph, &inst) == DOCA_SUCCESS);
	task = gfx_copy_task(&g, g.fx.dma, 0, 64, 1);
	task2 = gfx_copy_task(&g, g.fx.dma, 64, 64, 2);
	task_ctx2 = gfx_copy_task(&g, g.dma2, 128, 64, 3);
	busy = gfx_copy_task(&g, g.fx.dma, 192, 64, 4);
	freed = gfx_copy_task(&g, g.fx.dma, 256, 64, 5);
	REQUIRE(task && task2 && task_ctx2 && busy && freed);
	doca_task_free(gfx_t(freed));
	REQUIRE(doca_task_submit(gfx_t(busy)) == DOCA_SUCCESS);

	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(NULL, n_copy, gfx_t(task)), DOCA_ERROR_INVALID_VALUE,
		     ctx_fn);
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, NULL, gfx_t(task)), DOCA_ERROR_INVALID_VALUE, ctx_fn);
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, n_copy, NULL), DOCA_ERROR_INVALID_VALUE, ctx_fn);
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(freed)), DOCA_ERROR_INVALID_VALUE,
		     ctx_fn);
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, n_user, gfx_t(task)), DOCA_ERROR_NOT_PERMITTED,
		     ctx_fn);
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, foreign, gfx_t(task)), DOCA_ERROR_NOT_PERMITTED,
		     ctx_fn);
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(task_ctx2)), DOCA_ERROR_NOT_PERMITTED,
		     ctx_fn);
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(busy)), DOCA_ERROR_NOT_PERMITTED,
		     ctx_fn);
	CHECK_QUIET(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(task)), DOCA_SUCCESS);
	/* Setting the slot again replaces the task. */
	CHECK_QUIET(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(task2)), DOCA_SUCCESS);

	CHECK_REJECT(doca_graph_instance_set_user_node_data(NULL, n_user, &cookie), DOCA_ERROR_INVALID_VALUE, user_fn);
	CHECK_REJECT(doca_graph_instance_set_user_node_data(inst, NULL, &cookie), DOCA_ERROR_INVALID_VALUE, user_fn);
	CHECK_REJECT(doca_graph_instance_set_user_node_data(inst, n_copy, &cookie), DOCA_ERROR_NOT_PERMITTED,
		     user_fn);
	CHECK_REJECT(doca_graph_instance_set_user_node_data(inst, foreign, &cookie), DOCA_ERROR_NOT_PERMITTED,
		     user_fn);
	CHECK_QUIET(doca_graph_instance_set_user_node_data(inst, n_user, NULL), DOCA_SUCCESS); /* NULL cookie is legal */
	CHECK_QUIET(doca_graph_instance_set_user_node_data(inst, n_user, &cookie), DOCA_SUCCESS);

	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(inst, n_user, NULL), DOCA_ERROR_INVALID_VALUE, sub_fn);
	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(inst, n_user, inst), DOCA_ERROR_NOT_PERMITTED, sub_fn);

	/* The run uses task2, the last one set. */
	CHECK_OK(doca_graph_instance_submit(inst));
	CHECK_EQ_U64(gfx_run_until(g.fx.pe, 1) > 0, 1);
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(gfx_done[0].ok);
	CHECK_EQ_U64(cookie.calls, 1);
	CHECK_OK(doca_task_get_status(gfx_t(task2)));
	CHECK_EQ_U64(g.fx.dst_mem[64], g.fx.src_mem[64]);

	sd_fx_drain(g.fx.pe); /* the directly submitted task */
	CHECK_OK(doca_graph_instance_destroy(inst));
	doca_task_free(gfx_t(task));
	doca_task_free(gfx_t(task2));
	doca_task_free(gfx_t(task_ctx2));
	doca_task_free(gfx_t(busy));
	CHECK_OK(doca_graph_destroy(other));
	unbuild();
}

static void one_task_cannot_serve_two_nodes_of_an_instance(void)
{
	struct doca_graph *two;
	struct doca_graph_node *a, *b;
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *task;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_graph_create(g.fx.pe, &two) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(two, g.fx.ctx, &a) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(two, g.fx.ctx, &b) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(two, gfx_graph_ok, gfx_graph_err, 1) == DOCA_SUCCESS);
	REQUIRE(doca_graph_start(two) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(two, &inst) == DOCA_SUCCESS);
	task = gfx_copy_task(&g, g.fx.dma, 0, 32, 0);
	REQUIRE(task != NULL);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, a, gfx_t(task)));
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, b, gfx_t(task)), DOCA_ERROR_NOT_PERMITTED,
		     "doca_graph_instance_set_ctx_node_data");
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, a, gfx_t(task))); /* same slot again is fine */
	CHECK_OK(doca_graph_instance_destroy(inst));
	doca_task_free(gfx_t(task));
	CHECK_OK(doca_graph_stop(two));
	CHECK_OK(doca_graph_destroy(two));
	gfx_teardown(&g);
}

static void submit_checks_leave_a_refused_instance_idle(void)
{
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *task;
	struct gfx_user cookie = {.result = DOCA_SUCCESS};
	size_t inflight = 99;

	REQUIRE(build(1));
	REQUIRE(doca_graph_instance_create(graph, &inst) == DOCA_SUCCESS);
	task = gfx_copy_task(&g, g.fx.dma, 0, 128, 0);
	REQUIRE(task != NULL);
	CHECK_REJECT(doca_graph_instance_submit(NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_instance_submit");
	/* A node without data. */
	CHECK_REJECT(doca_graph_instance_submit(inst), DOCA_ERROR_BAD_STATE, "doca_graph_instance_submit");
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(task)));
	CHECK_REJECT(doca_graph_instance_submit(inst), DOCA_ERROR_BAD_STATE, "doca_graph_instance_submit");
	CHECK_OK(doca_graph_instance_set_user_node_data(inst, n_user, &cookie));
	/* The task was submitted directly: it is busy. */
	REQUIRE(doca_task_submit(gfx_t(task)) == DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_instance_submit(inst), DOCA_ERROR_IN_USE, "doca_graph_instance_submit");
	CHECK_EQ_U64(sd_progress_one(g.fx.pe), 1);
	CHECK_EQ_U64(gfx_ctx1_task_cbs(&g), 1); /* a direct submission keeps its callbacks */
	/* The root's context is not RUNNING. */
	REQUIRE(doca_ctx_stop(g.fx.ctx) == DOCA_ERROR_IN_PROGRESS); /* the task is still allocated */
	CHECK_REJECT(doca_graph_instance_submit(inst), DOCA_ERROR_BAD_STATE, "doca_graph_instance_submit");
	CHECK_OK(doca_ctx_get_num_inflight_tasks(g.fx.ctx, &inflight));
	CHECK_EQ_U64(inflight, 0);
	CHECK_EQ_U64(cookie.calls, 0);
	CHECK_EQ_U64(sd_fx_drain(g.fx.pe), 0);
	CHECK_EQ_U64(gfx_ndone, 0);
	/* The refused instance is IDLE: it can be destroyed. */
	CHECK_OK(doca_graph_instance_destroy(inst));
	doca_task_free(gfx_t(task));
	sd_fx_drain(g.fx.pe);
	unbuild();
}

static void a_submitted_instance_is_locked_until_its_callback(void)
{
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *task;
	struct gfx_user cookie = {.result = DOCA_SUCCESS};
	union doca_data ud = {.u64 = 41};

	REQUIRE(build(1));
	REQUIRE(doca_graph_instance_create(graph, &inst) == DOCA_SUCCESS);
	task = gfx_copy_task(&g, g.fx.dma, 0, 128, 0);
	REQUIRE(task != NULL);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(task)));
	CHECK_OK(doca_graph_instance_set_user_node_data(inst, n_user, &cookie));
	CHECK_OK(doca_graph_instance_set_user_data(inst, ud));
	CHECK_QUIET(doca_graph_instance_submit(inst), DOCA_SUCCESS);

	CHECK_REJECT(doca_graph_instance_submit(inst), DOCA_ERROR_IN_USE, "doca_graph_instance_submit");
	CHECK_REJECT(doca_graph_instance_destroy(inst), DOCA_ERROR_IN_USE, "doca_graph_instance_destroy");
	CHECK_REJECT(doca_graph_instance_set_user_data(inst, ud), DOCA_ERROR_IN_USE,
		     "doca_graph_instance_set_user_data");
	CHECK_REJECT(doca_graph_instance_set_ctx_node_data(inst, n_copy, gfx_t(task)), DOCA_ERROR_BAD_STATE,
		     "doca_graph_instance_set_ctx_node_data");
	CHECK_REJECT(doca_graph_instance_set_user_node_data(inst, n_user, &cookie), DOCA_ERROR_BAD_STATE,
		     "doca_graph_instance_set_user_node_data");
	/* The library owns the task meanwhile. */
	CHECK_REJECT(doca_task_submit(gfx_t(task)), DOCA_ERROR_IN_USE, "doca_task_submit");
	ud.u64 = 0;
	CHECK_OK(doca_graph_instance_get_user_data(inst, &ud));
	CHECK_EQ_U64(ud.u64, 41);

	gfx_run_until(g.fx.pe, 1);
	REQUIRE(gfx_ndone == 1);
	CHECK(gfx_done[0].inst == inst);
	CHECK_EQ_U64(gfx_done[0].inst_ud, 41);
	CHECK_EQ_U64(gfx_done[0].graph_ud, 0x6a);
	CHECK_OK(doca_graph_instance_set_user_data(inst, ud));
	CHECK_OK(doca_graph_instance_destroy(inst));
	doca_task_free(gfx_t(task));
	unbuild();
}

int main(void)
{
	gfx_log_capture();
	SD_RUN(creation_needs_a_started_graph_and_respects_the_budget);
	SD_RUN(user_data_starts_at_zero_and_round_trips);
	SD_RUN(node_data_is_checked);
	SD_RUN(one_task_cannot_serve_two_nodes_of_an_instance);
	SD_RUN(submit_checks_leave_a_refused_instance_idle);
	SD_RUN(a_submitted_instance_is_locked_until_its_callback);
	return sd_test_done();
}
