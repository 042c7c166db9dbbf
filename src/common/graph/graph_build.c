/*
 * graph_build.c - a graph's life: creation on a PE, configuration, nodes
 * and dependencies, start (validate and freeze), stop, destroy.
 *
 * Nodes are allocated one by one so their handles stay valid while the
 * node table grows; each keeps the indices of its children and the number
 * of its parents.  Cycles are refused when an edge or a sub-graph node is
 * added, so a started graph is always a DAG.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_priv.h"
#include "sd_log.h"

#define SD_GRAPH_BAD "graph %p is NULL or not a live graph"

doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph)
{
	struct doca_graph *g;

	if (graph == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer graph is NULL");
	if (pe == NULL || pe->magic != SD_PE_MAGIC)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine", (void *)pe);
	g = calloc(1, sizeof(*g));
	if (g == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a graph (pe %p)", (void *)pe);
	if (sd_graph_pe_bind(g, pe) != DOCA_SUCCESS) {
		free(g);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate the graph state of pe %p", (void *)pe);
	}
	g->magic = SD_GRAPH_MAGIC;
	*graph = g;
	return DOCA_SUCCESS;
}

static void sd_graph_free_nodes(struct doca_graph *graph)
{
	for (uint32_t i = 0; i < graph->num_nodes; i++) {
		struct doca_graph_node *node = graph->nodes[i];

		if (node->kind == SD_GNODE_SUB)
			node->bound.sub->parent_refs--;
		free(node->children);
		node->magic = 0;
		free(node);
	}
	free(graph->nodes);
	graph->nodes = NULL;
	graph->num_nodes = 0;
}

doca_error_t doca_graph_destroy(struct doca_graph *graph)
{
	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p is started; stop it before destroying it", (void *)graph);
	if (graph->parent_refs != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "graph %p is the sub-graph of %u node(s) of other graphs; destroy those graphs first",
				 (void *)graph, graph->parent_refs);
	sd_graph_free_nodes(graph);
	sd_graph_pe_unbind(graph);
	graph->magic = 0;
	free(graph);
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_set_conf(struct doca_graph *graph, doca_graph_completion_cb_t graph_completion_cb,
				 doca_graph_completion_cb_t graph_error_cb, uint32_t num_instances)
{
	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (graph_completion_cb == NULL || graph_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s callback is NULL (graph %p)",
				 graph_completion_cb == NULL ? "completion" : "error", (void *)graph);
	if (num_instances == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_instances is 0, at least one instance is needed (graph %p)",
				 (void *)graph);
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p is started; it can be configured only while stopped",
				 (void *)graph);
	graph->completion_cb = graph_completion_cb;
	graph->error_cb = graph_error_cb;
	graph->max_instances = num_instances;
	graph->configured = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data)
{
	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p is started; its user data can change only while stopped",
				 (void *)graph);
	graph->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_get_user_data(const struct doca_graph *graph, union doca_data *user_data)
{
	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (const void *)graph);
	if (user_data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "user_data is NULL (graph %p)", (const void *)graph);
	*user_data = graph->user_data;
	return DOCA_SUCCESS;
}

/* ---- nodes ---- */

/* Append a new root node of `kind`; logs on behalf of `func` when refused. */
static doca_error_t sd_graph_add_node(struct doca_graph *graph, enum sd_gnode_kind kind,
				      struct doca_graph_node **out, const char *func)
{
	struct doca_graph_node *node;

	if (graph->num_nodes == graph->cap_nodes) {
		uint32_t cap = graph->cap_nodes == 0 ? 8 : graph->cap_nodes * 2;
		struct doca_graph_node **nodes = realloc(graph->nodes, (size_t)cap * sizeof(*nodes));

		if (nodes == NULL) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "cannot grow the node table of graph %p",
					  (void *)graph);
			return DOCA_ERROR_NO_MEMORY;
		}
		graph->nodes = nodes;
		graph->cap_nodes = cap;
	}
	node = calloc(1, sizeof(*node));
	if (node == NULL) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "cannot allocate a node of graph %p", (void *)graph);
		return DOCA_ERROR_NO_MEMORY;
	}
	node->magic = SD_GNODE_MAGIC;
	node->kind = kind;
	node->graph = graph;
	node->index = graph->num_nodes;
	graph->nodes[graph->num_nodes++] = node;
	*out = node;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph, const struct doca_ctx *ctx,
					     struct doca_graph_node **node)
{
	doca_error_t err;

	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer node is NULL (graph %p)", (void *)graph);
	if (ctx == NULL || ctx->magic != SD_CTX_MAGIC)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context (graph %p)",
				 (const void *)ctx, (void *)graph);
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p is started; nodes can be added only while stopped",
				 (void *)graph);
	err = sd_graph_add_node(graph, SD_GNODE_CTX, node, __func__);
	if (err == DOCA_SUCCESS)
		(*node)->bound.ctx = ctx;
	return err;
}

doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph, doca_graph_user_node_cb_t cb,
					      struct doca_graph_node **node)
{
	doca_error_t err;

	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer node is NULL (graph %p)", (void *)graph);
	if (cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "user node callback is NULL (graph %p)", (void *)graph);
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p is started; nodes can be added only while stopped",
				 (void *)graph);
	err = sd_graph_add_node(graph, SD_GNODE_USER, node, __func__);
	if (err == DOCA_SUCCESS)
		(*node)->bound.cb = cb;
	return err;
}

/* Whether `target` is `graph` or nested anywhere below it through sub-graph nodes. */
static bool sd_graph_contains(const struct doca_graph *graph, const struct doca_graph *target)
{
	if (graph == target)
		return true;
	for (uint32_t i = 0; i < graph->num_nodes; i++) {
		const struct doca_graph_node *node = graph->nodes[i];

		if (node->kind == SD_GNODE_SUB && sd_graph_contains(node->bound.sub, target))
			return true;
	}
	return false;
}

doca_error_t doca_graph_node_create_from_graph(struct doca_graph *graph, struct doca_graph *sub_graph,
					       struct doca_graph_node **node)
{
	doca_error_t err;

	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer node is NULL (graph %p)", (void *)graph);
	if (!sd_graph_valid(sub_graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "sub_graph %p is NULL or not a live graph (graph %p)",
				 (void *)sub_graph, (void *)graph);
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p is started; nodes can be added only while stopped",
				 (void *)graph);
	if (sd_graph_contains(sub_graph, graph))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "graph %p would contain itself through sub_graph %p; nesting must not form a cycle",
				 (void *)graph, (void *)sub_graph);
	if (sub_graph->pe != graph->pe)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "sub_graph %p is bound to pe %p, graph %p to pe %p; both must share one PE",
				 (void *)sub_graph, (void *)sub_graph->pe, (void *)graph, (void *)graph->pe);
	if (!sub_graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "sub_graph %p is not started; start it before nesting it (graph %p)",
				 (void *)sub_graph, (void *)graph);
	err = sd_graph_add_node(graph, SD_GNODE_SUB, node, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	(*node)->bound.sub = sub_graph;
	sub_graph->parent_refs++;
	return DOCA_SUCCESS;
}

/* ---- dependencies ---- */

static bool sd_gnode_has_child(const struct doca_graph_node *node, uint32_t child)
{
	for (uint32_t i = 0; i < node->num_children; i++)
		if (node->children[i] == child)
			return true;
	return false;
}

/*
 * Whether `to` reaches `from` along existing edges (so from -> to would
 * close a cycle).  Iterative DFS with a visited map; the graph is stopped,
 * so allocating here is fine.  Returns NO_MEMORY or SUCCESS in *err.
 */
static bool sd_graph_reaches(const struct doca_graph *graph, uint32_t start, uint32_t target, doca_error_t *err)
{
	uint32_t *stack = malloc((size_t)graph->num_nodes * sizeof(*stack));
	bool *seen = calloc(graph->num_nodes, sizeof(*seen));
	uint32_t depth = 0;
	bool found = false;

	*err = DOCA_SUCCESS;
	if (stack == NULL || seen == NULL) {
		*err = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	stack[depth++] = start;
	seen[start] = true;
	while (depth > 0 && !found) {
		const struct doca_graph_node *node = graph->nodes[stack[--depth]];

		for (uint32_t i = 0; i < node->num_children; i++) {
			uint32_t c = node->children[i];

			if (c == target) {
				found = true;
				break;
			}
			if (!seen[c]) {
				seen[c] = true;
				stack[depth++] = c;
			}
		}
	}
out:
	free(stack);
	free(seen);
	return found;
}

static doca_error_t sd_gnode_add_child(struct doca_graph_node *node, uint32_t child)
{
	if (node->num_children == node->cap_children) {
		uint32_t cap = node->cap_children == 0 ? 4 : node->cap_children * 2;
		uint32_t *children = realloc(node->children, (size_t)cap * sizeof(*children));

		if (children == NULL)
			return DOCA_ERROR_NO_MEMORY;
		node->children = children;
		node->cap_children = cap;
	}
	node->children[node->num_children++] = child;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_add_dependency(struct doca_graph *graph, struct doca_graph_node *from,
				       struct doca_graph_node *to)
{
	doca_error_t err;

	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (!sd_gnode_valid(from) || !sd_gnode_valid(to))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "node %p is NULL or not a live graph node (graph %p)",
				 !sd_gnode_valid(from) ? (void *)from : (void *)to, (void *)graph);
	if (from->graph != graph || to->graph != graph)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "node %p belongs to graph %p, not to graph %p",
				 from->graph != graph ? (void *)from : (void *)to,
				 from->graph != graph ? (void *)from->graph : (void *)to->graph, (void *)graph);
	if (graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "graph %p is started; dependencies can be added only while stopped", (void *)graph);
	if (from == to)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, "node %p cannot depend on itself (graph %p)", (void *)from,
				 (void *)graph);
	if (sd_gnode_has_child(from, to->index))
		return DOCA_SUCCESS; /* an existing edge changes nothing */
	if (sd_graph_reaches(graph, to->index, from->index, &err))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "node %p already depends on node %p; this dependency would close a cycle (graph %p)",
				 (void *)from, (void *)to, (void *)graph);
	if (err != DOCA_SUCCESS || sd_gnode_add_child(from, to->index) != DOCA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot record the dependency %p -> %p (graph %p)", (void *)from,
				 (void *)to, (void *)graph);
	to->num_parents++;
	return DOCA_SUCCESS;
}

/* ---- start and stop ---- */

/* Context nodes of `graph` and of every graph nested in it. */
static uint32_t sd_graph_count_ctx_nodes(const struct doca_graph *graph)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < graph->num_nodes; i++) {
		const struct doca_graph_node *node = graph->nodes[i];

		if (node->kind == SD_GNODE_CTX)
			n++;
		else if (node->kind == SD_GNODE_SUB)
			n += sd_graph_count_ctx_nodes(node->bound.sub);
	}
	return n;
}

/* Each node's binding is usable for runs; logs on behalf of doca_graph_start. */
static doca_error_t sd_graph_check_bindings(const struct doca_graph *graph)
{
	static const char func[] = "doca_graph_start";

	for (uint32_t i = 0; i < graph->num_nodes; i++) {
		const struct doca_graph_node *node = graph->nodes[i];
		const struct doca_ctx *ctx = node->bound.ctx;

		if (node->kind == SD_GNODE_SUB && !(sd_graph_valid(node->bound.sub) && node->bound.sub->started)) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func,
					  "sub-graph %p of node %u is not started (graph %p)",
					  (void *)node->bound.sub, i, (const void *)graph);
			return DOCA_ERROR_BAD_STATE;
		}
		if (node->kind != SD_GNODE_CTX)
			continue;
		if (ctx->magic != SD_CTX_MAGIC) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "context %p of node %u no longer exists (graph %p)",
					  (const void *)ctx, i, (const void *)graph);
			return DOCA_ERROR_BAD_STATE;
		}
		if (ctx->pe != NULL && ctx->pe != graph->pe) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func,
					  "context %p of node %u is connected to pe %p, the graph to pe %p (graph %p)",
					  (const void *)ctx, i, (void *)ctx->pe, (void *)graph->pe, (const void *)graph);
			return DOCA_ERROR_NOT_PERMITTED;
		}
		if (ctx->state != DOCA_CTX_STATE_RUNNING) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func,
					  "context %p of node %u is not RUNNING; start it before the graph (graph %p)",
					  (const void *)ctx, i, (const void *)graph);
			return DOCA_ERROR_BAD_STATE;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_start(struct doca_graph *graph)
{
	doca_error_t err;
	uint32_t nroots = 0;

	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (graph->started)
		return DOCA_SUCCESS; /* already started: nothing to do */
	if (!graph->configured)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p was never configured; call doca_graph_set_conf first",
				 (void *)graph);
	if (sd_graph_count_ctx_nodes(graph) == 0)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p has no context node; a graph needs at least one",
				 (void *)graph);
	err = sd_graph_check_bindings(graph);
	if (err != DOCA_SUCCESS)
		return err;
	graph->roots = malloc((size_t)graph->num_nodes * sizeof(*graph->roots));
	if (graph->roots == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate the root list of graph %p", (void *)graph);
	for (uint32_t i = 0; i < graph->num_nodes; i++) {
		struct doca_graph_node *node = graph->nodes[i];

		if (node->num_parents == 0)
			graph->roots[nroots++] = i;
		if (node->kind == SD_GNODE_SUB)
			node->bound.sub->started_parent_refs++;
	}
	graph->num_roots = nroots;
	graph->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_stop(struct doca_graph *graph)
{
	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GRAPH_BAD, (void *)graph);
	if (!graph->started)
		return DOCA_SUCCESS;
	if (graph->live_instances != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE, "graph %p still has %u instance(s); destroy them before stopping it",
				 (void *)graph, graph->live_instances);
	if (graph->started_parent_refs != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "graph %p is the sub-graph of %u node(s) of started graphs; stop those first",
				 (void *)graph, graph->started_parent_refs);
	for (uint32_t i = 0; i < graph->num_nodes; i++)
		if (graph->nodes[i]->kind == SD_GNODE_SUB)
			graph->nodes[i]->bound.sub->started_parent_refs--;
	free(graph->roots);
	graph->roots = NULL;
	graph->num_roots = 0;
	graph->started = false;
	return DOCA_SUCCESS;
}
