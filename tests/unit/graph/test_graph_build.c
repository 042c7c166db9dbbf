/*
 * Building a graph: creation on a PE, configuration
 * and user data, the three node kinds, dependencies and the cycle rules,
 * start/stop/destroy in each state, sub-graph nesting rules, and the PE
 * that cannot be destroyed while a graph is bound to it.
 */
#include "graph_fixture.h"

static struct gfx g;

static void create_refuses_bad_arguments(void)
{
	struct doca_graph *graph = NULL;
	uint32_t not_a_pe[64] = {0};

	REQUIRE(gfx_setup(&g, 4));
	CHECK_REJECT(doca_graph_create(NULL, &graph), DOCA_ERROR_INVALID_VALUE, "doca_graph_create");
	CHECK_REJECT(doca_graph_create(g.fx.pe, NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_create");
	CHECK_REJECT(doca_graph_create((struct doca_pe *)not_a_pe, &graph), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_create");
	CHECK(graph == NULL);
	CHECK_QUIET(doca_graph_create(g.fx.pe, &graph), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_destroy(graph), DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_destroy");
	gfx_teardown(&g);
}

static void user_data_starts_at_zero_and_round_trips(void)
{
	struct doca_graph *graph;
	union doca_data ud = {.u64 = 77};

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	CHECK_OK(doca_graph_get_user_data(graph, &ud));
	CHECK_EQ_U64(ud.u64, 0);
	ud.u64 = 0xfeed;
	CHECK_QUIET(doca_graph_set_user_data(graph, ud), DOCA_SUCCESS);
	ud.u64 = 0;
	CHECK_OK(doca_graph_get_user_data(graph, &ud));
	CHECK_EQ_U64(ud.u64, 0xfeed);
	CHECK_REJECT(doca_graph_get_user_data(graph, NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_get_user_data");
	CHECK_REJECT(doca_graph_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE, "doca_graph_get_user_data");
	CHECK_REJECT(doca_graph_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE, "doca_graph_set_user_data");
	CHECK_OK(doca_graph_destroy(graph));
	gfx_teardown(&g);
}

static void set_conf_refuses_null_callbacks_and_zero_instances(void)
{
	struct doca_graph *graph;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_set_conf(NULL, gfx_graph_ok, gfx_graph_err, 1), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_set_conf");
	CHECK_REJECT(doca_graph_set_conf(graph, NULL, gfx_graph_err, 1), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_set_conf");
	CHECK_REJECT(doca_graph_set_conf(graph, gfx_graph_ok, NULL, 1), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_set_conf");
	CHECK_REJECT(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 0), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_set_conf");
	/* One function for both outcomes, as the official sample does. */
	CHECK_QUIET(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_ok, 10), DOCA_SUCCESS);
	CHECK_OK(doca_graph_destroy(graph));
	gfx_teardown(&g);
}

static void node_creation_refuses_bad_arguments(void)
{
	struct doca_graph *graph, *other;
	struct doca_graph_node *node = NULL;
	uint32_t not_a_ctx[64] = {0};

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(g.fx.pe, &other) == DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_node_create_from_ctx(NULL, g.fx.ctx, &node), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_ctx");
	CHECK_REJECT(doca_graph_node_create_from_ctx(graph, NULL, &node), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_ctx");
	CHECK_REJECT(doca_graph_node_create_from_ctx(graph, (struct doca_ctx *)not_a_ctx, &node),
		     DOCA_ERROR_INVALID_VALUE, "doca_graph_node_create_from_ctx");
	CHECK_REJECT(doca_graph_node_create_from_ctx(graph, g.fx.ctx, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_ctx");
	CHECK_REJECT(doca_graph_node_create_from_user(NULL, gfx_user_cb, &node), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_user");
	CHECK_REJECT(doca_graph_node_create_from_user(graph, NULL, &node), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_user");
	CHECK_REJECT(doca_graph_node_create_from_user(graph, gfx_user_cb, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_user");
	CHECK_REJECT(doca_graph_node_create_from_graph(NULL, other, &node), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_graph");
	CHECK_REJECT(doca_graph_node_create_from_graph(graph, NULL, &node), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_graph");
	CHECK_REJECT(doca_graph_node_create_from_graph(graph, other, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_node_create_from_graph");
	CHECK(node == NULL);
	/* An IDLE context is fine while building: it only has to run by start. */
	CHECK_QUIET(doca_graph_node_create_from_ctx(graph, g.ctx2, &node), DOCA_SUCCESS);
	CHECK(node != NULL);
	CHECK_OK(doca_graph_destroy(graph));
	CHECK_OK(doca_graph_destroy(other));
	gfx_teardown(&g);
}

static void dependencies_refuse_cycles_and_foreign_nodes(void)
{
	struct doca_graph *graph, *other;
	struct doca_graph_node *a, *b, *c, *d, *foreign;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(g.fx.pe, &other) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.fx.ctx, &a) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &b) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &c) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &d) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(other, gfx_user_cb, &foreign) == DOCA_SUCCESS);

	CHECK_REJECT(doca_graph_add_dependency(NULL, a, b), DOCA_ERROR_INVALID_VALUE, "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_add_dependency(graph, NULL, b), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_add_dependency(graph, a, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_add_dependency(graph, a, foreign), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_add_dependency(graph, foreign, a), DOCA_ERROR_INVALID_VALUE,
		     "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_add_dependency(graph, a, a), DOCA_ERROR_NOT_PERMITTED, "doca_graph_add_dependency");

	/* A diamond is fine: a -> b, a -> c, b -> d, c -> d. */
	CHECK_QUIET(doca_graph_add_dependency(graph, a, b), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_add_dependency(graph, a, c), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_add_dependency(graph, b, d), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_add_dependency(graph, c, d), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_add_dependency(graph, b, d), DOCA_SUCCESS); /* again, no effect */
	/* Closing any loop is refused: direct, and through two levels. */
	CHECK_REJECT(doca_graph_add_dependency(graph, b, a), DOCA_ERROR_NOT_PERMITTED, "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_add_dependency(graph, d, a), DOCA_ERROR_NOT_PERMITTED, "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_add_dependency(graph, d, c), DOCA_ERROR_NOT_PERMITTED, "doca_graph_add_dependency");
	/* b and c are unrelated: either order is allowed once. */
	CHECK_QUIET(doca_graph_add_dependency(graph, b, c), DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_add_dependency(graph, c, b), DOCA_ERROR_NOT_PERMITTED, "doca_graph_add_dependency");
	CHECK_OK(doca_graph_destroy(graph));
	CHECK_OK(doca_graph_destroy(other));
	gfx_teardown(&g);
}

static void start_validates_the_graph(void)
{
	struct doca_graph *graph;
	struct doca_graph_node *user, *ctx_node;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_start(NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_start");
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &user) == DOCA_SUCCESS);
	/* No configuration. */
	CHECK_REJECT(doca_graph_start(graph), DOCA_ERROR_BAD_STATE, "doca_graph_start");
	REQUIRE(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 2) == DOCA_SUCCESS);
	/* No context node. */
	CHECK_REJECT(doca_graph_start(graph), DOCA_ERROR_BAD_STATE, "doca_graph_start");
	/* A context node whose context is not RUNNING. */
	REQUIRE(doca_ctx_stop(g.ctx2) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.ctx2, &ctx_node) == DOCA_SUCCESS);
	REQUIRE(doca_graph_add_dependency(graph, ctx_node, user) == DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_start(graph), DOCA_ERROR_BAD_STATE, "doca_graph_start");
	REQUIRE(doca_ctx_start(g.ctx2) == DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_start(graph), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_start(graph), DOCA_SUCCESS); /* already started */
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	gfx_teardown(&g);
}

static void context_on_another_pe_is_not_permitted(void)
{
	struct doca_pe *pe2;
	struct doca_dma *dma3;
	struct doca_graph *graph;
	struct doca_graph_node *node;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_pe_create(&pe2) == DOCA_SUCCESS);
	REQUIRE(doca_dma_create(g.fx.dev, &dma3) == DOCA_SUCCESS);
	REQUIRE(doca_dma_task_memcpy_set_conf(dma3, sd_fx_task_ok, sd_fx_task_err, 2) == DOCA_SUCCESS);
	REQUIRE(doca_pe_connect_ctx(pe2, doca_dma_as_ctx(dma3)) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(doca_dma_as_ctx(dma3)) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, doca_dma_as_ctx(dma3), &node) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 1) == DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_start(graph), DOCA_ERROR_NOT_PERMITTED, "doca_graph_start");
	CHECK_OK(doca_graph_destroy(graph));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma3)));
	CHECK_OK(doca_dma_destroy(dma3));
	CHECK_OK(doca_pe_destroy(pe2));
	gfx_teardown(&g);
}

static void started_graph_is_frozen_until_stopped(void)
{
	struct doca_graph *graph, *sub;
	struct doca_graph_node *a, *b, *extra;
	union doca_data ud = {.u64 = 5};

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_graph_create(g.fx.pe, &graph) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(g.fx.pe, &sub) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(sub, g.fx.ctx, &extra) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(sub, gfx_graph_ok, gfx_graph_err, 1) == DOCA_SUCCESS);
	REQUIRE(doca_graph_start(sub) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(graph, g.fx.ctx, &a) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_user(graph, gfx_user_cb, &b) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 1) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_user_data(graph, ud) == DOCA_SUCCESS);
	REQUIRE(doca_graph_start(graph) == DOCA_SUCCESS);

	CHECK_REJECT(doca_graph_node_create_from_ctx(graph, g.fx.ctx, &extra), DOCA_ERROR_BAD_STATE,
		     "doca_graph_node_create_from_ctx");
	CHECK_REJECT(doca_graph_node_create_from_user(graph, gfx_user_cb, &extra), DOCA_ERROR_BAD_STATE,
		     "doca_graph_node_create_from_user");
	CHECK_REJECT(doca_graph_node_create_from_graph(graph, sub, &extra), DOCA_ERROR_BAD_STATE,
		     "doca_graph_node_create_from_graph");
	CHECK_REJECT(doca_graph_add_dependency(graph, a, b), DOCA_ERROR_BAD_STATE, "doca_graph_add_dependency");
	CHECK_REJECT(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 3), DOCA_ERROR_BAD_STATE,
		     "doca_graph_set_conf");
	CHECK_REJECT(doca_graph_set_user_data(graph, ud), DOCA_ERROR_BAD_STATE, "doca_graph_set_user_data");
	CHECK_REJECT(doca_graph_destroy(graph), DOCA_ERROR_BAD_STATE, "doca_graph_destroy");
	ud.u64 = 0;
	CHECK_QUIET(doca_graph_get_user_data(graph, &ud), DOCA_SUCCESS);
	CHECK_EQ_U64(ud.u64, 5);

	CHECK_QUIET(doca_graph_stop(graph), DOCA_SUCCESS);
	CHECK_QUIET(doca_graph_stop(graph), DOCA_SUCCESS); /* already stopped: no-op */
	CHECK_REJECT(doca_graph_stop(NULL), DOCA_ERROR_INVALID_VALUE, "doca_graph_stop");
	/* Reconfigurable again, then startable again. */
	CHECK_OK(doca_graph_add_dependency(graph, a, b));
	CHECK_OK(doca_graph_node_create_from_user(graph, gfx_user_cb, &extra));
	CHECK_OK(doca_graph_add_dependency(graph, b, extra));
	CHECK_OK(doca_graph_set_conf(graph, gfx_graph_ok, gfx_graph_err, 3));
	CHECK_OK(doca_graph_start(graph));
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	CHECK_OK(doca_graph_stop(sub));
	CHECK_OK(doca_graph_destroy(sub));
	gfx_teardown(&g);
}

static void pe_destroy_is_refused_while_a_graph_is_bound(void)
{
	struct doca_pe *pe;
	struct doca_graph *g1, *g2;

	gfx_log_mark();
	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(pe, &g1) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(pe, &g2) == DOCA_SUCCESS);
	CHECK_REJECT(doca_pe_destroy(pe), DOCA_ERROR_IN_USE, "doca_pe_destroy");
	CHECK_OK(doca_graph_destroy(g1));
	CHECK_REJECT(doca_pe_destroy(pe), DOCA_ERROR_IN_USE, "doca_pe_destroy");
	CHECK_OK(doca_graph_destroy(g2));
	/* Nothing of the graphs is left on the PE: progress is idle and destroy works. */
	CHECK_EQ_U64(doca_pe_progress(pe), 0);
	CHECK_QUIET(doca_pe_destroy(pe), DOCA_SUCCESS);
}

static void sub_graph_nesting_rules(void)
{
	struct doca_pe *pe2;
	struct doca_graph *parent, *sub, *far;
	struct doca_graph_node *sub_ctx, *node = NULL;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(doca_pe_create(&pe2) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(g.fx.pe, &parent) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(g.fx.pe, &sub) == DOCA_SUCCESS);
	REQUIRE(doca_graph_create(pe2, &far) == DOCA_SUCCESS);
	REQUIRE(doca_graph_node_create_from_ctx(sub, g.fx.ctx, &sub_ctx) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(sub, gfx_graph_ok, gfx_graph_err, 2) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(parent, gfx_graph_ok, gfx_graph_err, 2) == DOCA_SUCCESS);
	REQUIRE(doca_graph_set_conf(far, gfx_graph_ok, gfx_graph_err, 2) == DOCA_SUCCESS);

	/* The sub-graph must be started first. */
	CHECK_REJECT(doca_graph_node_create_from_graph(parent, sub, &node), DOCA_ERROR_BAD_STATE,
		     "doca_graph_node_create_from_graph");
	/* A graph cannot contain itself. */
	CHECK_REJECT(doca_graph_node_create_from_graph(parent, parent, &node), DOCA_ERROR_NOT_PERMITTED,
		     "doca_graph_node_create_from_graph");
	REQUIRE(doca_graph_start(sub) == DOCA_SUCCESS);
	/* Both graphs must share the PE. */
	CHECK_REJECT(doca_graph_node_create_from_graph(far, sub, &node), DOCA_ERROR_NOT_PERMITTED,
		     "doca_graph_node_create_from_graph");
	CHECK_QUIET(doca_graph_node_create_from_graph(parent, sub, &node), DOCA_SUCCESS);

	/* A stopped sub-graph that a graph names cannot be destroyed. */
	CHECK_OK(doca_graph_stop(sub)); /* the parent is not started yet */
	CHECK_REJECT(doca_graph_destroy(sub), DOCA_ERROR_IN_USE, "doca_graph_destroy");
	/* ... and the parent cannot start while its sub-graph is stopped. */
	CHECK_REJECT(doca_graph_start(parent), DOCA_ERROR_BAD_STATE, "doca_graph_start");
	CHECK_OK(doca_graph_start(sub));
	/* The parent's only context node is inside the sub-graph. */
	CHECK_QUIET(doca_graph_start(parent), DOCA_SUCCESS);
	CHECK_REJECT(doca_graph_stop(sub), DOCA_ERROR_IN_USE, "doca_graph_stop");
	CHECK_OK(doca_graph_stop(parent));
	CHECK_OK(doca_graph_stop(sub));
	CHECK_OK(doca_graph_destroy(parent));
	CHECK_QUIET(doca_graph_destroy(sub), DOCA_SUCCESS);
	CHECK_OK(doca_graph_destroy(far));
	CHECK_OK(doca_pe_destroy(pe2));
	gfx_teardown(&g);
}

int main(void)
{
	gfx_log_capture();
	SD_RUN(create_refuses_bad_arguments);
	SD_RUN(user_data_starts_at_zero_and_round_trips);
	SD_RUN(set_conf_refuses_null_callbacks_and_zero_instances);
	SD_RUN(node_creation_refuses_bad_arguments);
	SD_RUN(dependencies_refuse_cycles_and_foreign_nodes);
	SD_RUN(start_validates_the_graph);
	SD_RUN(context_on_another_pe_is_not_permitted);
	SD_RUN(started_graph_is_frozen_until_stopped);
	SD_RUN(pe_destroy_is_refused_while_a_graph_is_bound);
	SD_RUN(sub_graph_nesting_rules);
	return sd_test_done();
}
