/*
 * Sub-graph nodes: a parent run
 * drives a whole run of an attached sub-graph instance, only the parent's
 * callbacks fire, a failure inside the sub-graph fails the parent, and the
 * attachment rules of sub-graph instances.
 */
#include "graph_fixture.h"

static struct gfx g;

/* sub:    copy -> check
 * parent: before -> SUB -> after */
struct nest {
	struct doca_graph *sub, *parent;
	struct doca_graph_node *s_copy, *s_check, *p_before, *p_sub, *p_after;
	struct doca_graph_instance *si, *pi;
	struct doca_dma_task_memcpy *task;
	struct gfx_user check, before, after;
};

static int sub_cb_calls;

static void sub_graph_cb(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud)
{
	(void)inst;
	(void)iud;
	(void)gud;
	sub_cb_calls++;
}

static bool nest_build(struct nest *n)
{
	memset(n, 0, sizeof(*n));
	sub_cb_calls = 0;
	n->check.result = n->before.result = n->after.result = DOCA_SUCCESS;
	for (size_t i = 0; i < 512; i++)
		g.fx.src_mem[i] = (uint8_t)(0x40 + i);
	n->task = gfx_copy_task(&g, g.fx.dma, 0, 512, 0);
	return n->task != NULL && doca_graph_create(g.fx.pe, &n->sub) == DOCA_SUCCESS &&
	       doca_graph_node_create_from_ctx(n->sub, g.fx.ctx, &n->s_copy) == DOCA_SUCCESS &&
	       doca_graph_node_create_from_user(n->sub, gfx_user_cb, &n->s_check) == DOCA_SUCCESS &&
	       doca_graph_add_dependency(n->sub, n->s_copy, n->s_check) == DOCA_SUCCESS &&
	       doca_graph_set_conf(n->sub, sub_graph_cb, sub_graph_cb, 2) == DOCA_SUCCESS &&
	       doca_graph_start(n->sub) == DOCA_SUCCESS && doca_graph_create(g.fx.pe, &n->parent) == DOCA_SUCCESS &&
	       doca_graph_node_create_from_user(n->parent, gfx_user_cb, &n->p_before) == DOCA_SUCCESS &&
	       doca_graph_node_create_from_graph(n->parent, n->sub, &n->p_sub) == DOCA_SUCCESS &&
	       doca_graph_node_create_from_user(n->parent, gfx_user_cb, &n->p_after) == DOCA_SUCCESS &&
	       doca_graph_add_dependency(n->parent, n->p_before, n->p_sub) == DOCA_SUCCESS &&
	       doca_graph_add_dependency(n->parent, n->p_sub, n->p_after) == DOCA_SUCCESS &&
	       doca_graph_set_conf(n->parent, gfx_graph_ok, gfx_graph_err, 2) == DOCA_SUCCESS &&
	       doca_graph_start(n->parent) == DOCA_SUCCESS &&
	       doca_graph_instance_create(n->sub, &n->si) == DOCA_SUCCESS &&
	       doca_graph_instance_set_ctx_node_data(n->si, n->s_copy, gfx_t(n->task)) == DOCA_SUCCESS &&
	       doca_graph_instance_set_user_node_data(n->si, n->s_check, &n->check) == DOCA_SUCCESS &&
	       doca_graph_instance_create(n->parent, &n->pi) == DOCA_SUCCESS &&
	       doca_graph_instance_set_user_node_data(n->pi, n->p_before, &n->before) == DOCA_SUCCESS &&
	       doca_graph_instance_set_user_node_data(n->pi, n->p_after, &n->after) == DOCA_SUCCESS &&
	       doca_graph_instance_set_sub_graph_node_data(n->pi, n->p_sub, n->si) == DOCA_SUCCESS;
}

static void nest_destroy(struct nest *n)
{
	CHECK_OK(doca_graph_instance_destroy(n->pi));
	CHECK_OK(doca_graph_instance_destroy(n->si));
	doca_task_free(gfx_t(n->task));
	CHECK_OK(doca_graph_stop(n->parent));
	CHECK_OK(doca_graph_destroy(n->parent));
	CHECK_OK(doca_graph_stop(n->sub));
	CHECK_OK(doca_graph_destroy(n->sub));
}

static void a_sub_graph_runs_inside_its_parent_run(void)
{
	struct nest n;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(nest_build(&n));
	for (int run = 1; run <= 2; run++) {
		memset(g.fx.dst_mem, 0, 512);
		/* A fresh destination per run: the copy appends after the data. */
		doca_dma_task_memcpy_set_dst(n.task, sd_fx_dst_buf(&g.fx, 0, 512));
		CHECK_OK(doca_graph_instance_submit(n.pi));
		gfx_run_until(g.fx.pe, run);
		CHECK_EQ_U64(gfx_ndone, run);
		CHECK(gfx_done[run - 1].ok);
		CHECK(gfx_done[run - 1].inst == n.pi);
		/* Dependency order across the nesting: before, (copy), check, after. */
		CHECK_EQ_U64(n.before.calls, run);
		CHECK_EQ_U64(n.check.calls, run);
		CHECK_EQ_U64(n.after.calls, run);
		CHECK(n.before.order < n.check.order && n.check.order < n.after.order);
		CHECK(memcmp(g.fx.dst_mem, g.fx.src_mem, 512) == 0);
		/* The sub-graph's own callbacks never fire for a nested run. */
		CHECK_EQ_U64(sub_cb_calls, 0);
		CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);
	}
	CHECK_EQ_U64(gfx_ctx1_task_cbs(&g), 0);
	nest_destroy(&n);
	gfx_teardown(&g);
}

static void a_failure_inside_the_sub_graph_fails_the_parent(void)
{
	struct nest n;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(nest_build(&n));
	n.check.result = DOCA_ERROR_BAD_STATE;
	CHECK_OK(doca_graph_instance_submit(n.pi));
	gfx_run_until(g.fx.pe, 1);
	CHECK_EQ_U64(gfx_ndone, 1);
	CHECK(!gfx_done[0].ok);
	CHECK_EQ_U64(n.check.calls, 1);
	CHECK_EQ_U64(n.after.calls, 0); /* the node after the sub-graph never ran */
	CHECK_EQ_U64(sub_cb_calls, 0);
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);
	/* Both instances are IDLE again and the pair runs once the check passes. */
	n.check.result = DOCA_SUCCESS;
	doca_dma_task_memcpy_set_dst(n.task, sd_fx_dst_buf(&g.fx, 1024, 512));
	CHECK_OK(doca_graph_instance_submit(n.pi));
	gfx_run_until(g.fx.pe, 2);
	CHECK(gfx_ndone == 2 && gfx_done[1].ok);
	CHECK_EQ_U64(n.after.calls, 1);
	nest_destroy(&n);
	gfx_teardown(&g);
}

static void an_attached_instance_belongs_to_its_parent(void)
{
	struct nest n;
	struct doca_graph_instance *spare, *other_parent, *wrong;
	const char *fn = "doca_graph_instance_set_sub_graph_node_data";

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(nest_build(&n));
	REQUIRE(doca_graph_instance_create(n.sub, &spare) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(n.parent, &other_parent) == DOCA_SUCCESS);
	REQUIRE(doca_graph_instance_create(n.parent, &wrong) == DOCA_ERROR_NO_MEMORY); /* budget of 2 */

	/* Attached: no direct submit, no destroy, no second slot. */
	CHECK_REJECT(doca_graph_instance_submit(n.si), DOCA_ERROR_NOT_PERMITTED, "doca_graph_instance_submit");
	CHECK_REJECT(doca_graph_instance_destroy(n.si), DOCA_ERROR_IN_USE, "doca_graph_instance_destroy");
	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(other_parent, n.p_sub, n.si), DOCA_ERROR_NOT_PERMITTED,
		     fn);
	CHECK_QUIET(doca_graph_instance_set_sub_graph_node_data(n.pi, n.p_sub, n.si), DOCA_SUCCESS); /* same slot */
	/* An instance of the wrong graph. */
	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(other_parent, n.p_sub, n.pi), DOCA_ERROR_NOT_PERMITTED,
		     fn);
	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(n.pi, n.p_before, spare), DOCA_ERROR_NOT_PERMITTED,
		     fn);
	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(n.pi, NULL, spare), DOCA_ERROR_INVALID_VALUE, fn);
	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(NULL, n.p_sub, spare), DOCA_ERROR_INVALID_VALUE, fn);

	/* While the parent runs, the nested instance is locked too. */
	CHECK_OK(doca_graph_instance_submit(n.pi));
	CHECK_REJECT(doca_graph_instance_set_user_node_data(n.si, n.s_check, &n.check), DOCA_ERROR_BAD_STATE,
		     "doca_graph_instance_set_user_node_data");
	CHECK_REJECT(doca_graph_instance_set_sub_graph_node_data(n.pi, n.p_sub, spare), DOCA_ERROR_BAD_STATE, fn);
	gfx_run_until(g.fx.pe, 1);
	CHECK(gfx_ndone == 1 && gfx_done[0].ok);

	/* Replacing the slot's instance frees the old one. */
	CHECK_OK(doca_graph_instance_set_sub_graph_node_data(n.pi, n.p_sub, spare));
	CHECK_REJECT(doca_graph_instance_submit(n.pi), DOCA_ERROR_BAD_STATE, "doca_graph_instance_submit"); /* spare: no data */
	CHECK_OK(doca_graph_instance_destroy(n.si));
	CHECK_OK(doca_graph_instance_create(n.sub, &n.si));
	/* Destroying a parent releases its sub-instance: it may then run on its own. */
	CHECK_OK(doca_graph_instance_destroy(other_parent));
	CHECK_OK(doca_graph_instance_destroy(n.pi));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(spare, n.s_copy, gfx_t(n.task)));
	CHECK_OK(doca_graph_instance_set_user_node_data(spare, n.s_check, &n.check));
	doca_dma_task_memcpy_set_dst(n.task, sd_fx_dst_buf(&g.fx, 2048, 512));
	CHECK_OK(doca_graph_instance_submit(spare));
	sd_fx_drain(g.fx.pe);
	CHECK_EQ_U64(sub_cb_calls, 1); /* a top-level run of the sub-graph uses its own callbacks */
	CHECK_OK(doca_graph_instance_destroy(spare));
	CHECK_OK(doca_graph_instance_create(n.parent, &n.pi));
	nest_destroy(&n);
	gfx_teardown(&g);
}

static void a_sub_graph_instance_without_data_blocks_the_parent_submit(void)
{
	struct nest n;
	struct doca_graph_instance *empty;

	REQUIRE(gfx_setup(&g, 4));
	REQUIRE(nest_build(&n));
	REQUIRE(doca_graph_instance_create(n.sub, &empty) == DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_set_sub_graph_node_data(n.pi, n.p_sub, empty));
	CHECK_REJECT(doca_graph_instance_submit(n.pi), DOCA_ERROR_BAD_STATE, "doca_graph_instance_submit");
	CHECK_EQ_U64(n.before.calls, 0);
	CHECK_EQ_U64(doca_pe_progress(g.fx.pe), 0);
	CHECK_OK(doca_graph_instance_set_sub_graph_node_data(n.pi, n.p_sub, n.si));
	CHECK_OK(doca_graph_instance_destroy(empty));
	nest_destroy(&n);
	gfx_teardown(&g);
}

int main(void)
{
	gfx_log_capture();
	SD_RUN(a_sub_graph_runs_inside_its_parent_run);
	SD_RUN(a_failure_inside_the_sub_graph_fails_the_parent);
	SD_RUN(an_attached_instance_belongs_to_its_parent);
	SD_RUN(a_sub_graph_instance_without_data_blocks_the_parent_submit);
	return sd_test_done();
}
