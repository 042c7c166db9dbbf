/*
 * graph_instance.c - graph instances: creation within the graph's budget,
 * per-node data, user data, destruction, and the checks done before a run
 * is started.
 *
 * An instance is one allocation: a header and one slot per node of its
 * (started, hence frozen) graph.  A sub-graph instance is "attached" while
 * it is the data of a sub-graph node of another instance; it then runs only
 * as part of that instance's runs.
 */
#include <stdlib.h>

#include "graph_priv.h"
#include "sd_log.h"

#define SD_GINST_BAD "instance %p is NULL or not a live graph instance"

/* Submitted, or part of a submitted instance through sub-graph nesting. */
static bool sd_ginst_busy(const struct doca_graph_instance *inst)
{
	for (; inst != NULL; inst = inst->attached_to)
		if (inst->submitted)
			return true;
	return false;
}

doca_error_t doca_graph_instance_create(const struct doca_graph *graph, struct doca_graph_instance **graph_instance)
{
	struct doca_graph *g = (struct doca_graph *)graph; /* the budget is graph state */
	struct doca_graph_instance *inst;

	if (!sd_graph_valid(graph))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "graph %p is NULL or not a live graph", (const void *)graph);
	if (graph_instance == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer graph_instance is NULL (graph %p)",
				 (const void *)graph);
	if (!graph->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "graph %p is not started; start it before creating instances",
				 (const void *)graph);
	if (graph->live_instances >= graph->max_instances)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY,
				 "graph %p already has its %u instance(s) (doca_graph_set_conf); destroy one first",
				 (const void *)graph, graph->max_instances);
	inst = calloc(1, sizeof(*inst) + (size_t)graph->num_nodes * sizeof(inst->slots[0]));
	if (inst == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate an instance of graph %p", (const void *)graph);
	inst->graph = g;
	inst->num_slots = graph->num_nodes;
	inst->done_work.kind = SD_GWORK_RUN_DONE;
	for (uint32_t i = 0; i < inst->num_slots; i++) {
		inst->slots[i].inst = inst;
		inst->slots[i].node = i;
		inst->slots[i].work.kind = SD_GWORK_USER_NODE;
	}
	inst->magic = SD_GINST_MAGIC;
	g->live_instances++;
	*graph_instance = inst;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance)
{
	struct doca_graph_instance *inst = graph_instance;

	if (!sd_ginst_valid(inst))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GINST_BAD, (void *)inst);
	if (sd_ginst_busy(inst))
		return SD_REJECT(DOCA_ERROR_IN_USE, "instance %p is submitted; wait for its callback before destroying it",
				 (void *)inst);
	if (inst->attached_to != NULL)
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "instance %p is sub-graph node data of instance %p; destroy that instance first",
				 (void *)inst, (void *)inst->attached_to);
	/* Sub-instances set as node data are released, not destroyed (the application owns them). */
	for (uint32_t i = 0; i < inst->num_slots; i++)
		if (inst->slots[i].set && inst->graph->nodes[i]->kind == SD_GNODE_SUB)
			inst->slots[i].data.sub->attached_to = NULL;
	inst->graph->live_instances--;
	inst->magic = 0;
	free(inst);
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance, union doca_data user_data)
{
	if (!sd_ginst_valid(graph_instance))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GINST_BAD, (void *)graph_instance);
	if (sd_ginst_busy(graph_instance))
		return SD_REJECT(DOCA_ERROR_IN_USE, "instance %p is submitted; its user data cannot change now",
				 (void *)graph_instance);
	graph_instance->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_get_user_data(const struct doca_graph_instance *graph_instance,
					       union doca_data *user_data)
{
	if (!sd_ginst_valid(graph_instance))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GINST_BAD, (const void *)graph_instance);
	if (user_data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "user_data is NULL (instance %p)",
				 (const void *)graph_instance);
	*user_data = graph_instance->user_data;
	return DOCA_SUCCESS;
}

/* ---- node data ---- */

/*
 * The slot of `node` in `inst`, if node data of `kind` may be set now.
 * Logs the refusal on behalf of `func`.
 */
static doca_error_t sd_ginst_slot(struct doca_graph_instance *inst, const struct doca_graph_node *node,
				  enum sd_gnode_kind kind, struct sd_gslot **slot, const char *func)
{
	if (!sd_ginst_valid(inst)) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, SD_GINST_BAD, (void *)inst);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sd_gnode_valid(node)) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "node %p is NULL or not a live graph node (instance %p)",
				  (const void *)node, (void *)inst);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sd_ginst_busy(inst)) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "instance %p is submitted; node data cannot change now",
				  (void *)inst);
		return DOCA_ERROR_BAD_STATE;
	}
	if (node->graph != inst->graph) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "node %p belongs to graph %p, instance %p to graph %p",
				  (const void *)node, (void *)node->graph, (void *)inst, (void *)inst->graph);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (node->kind != kind) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "node %p is a %s node, not a %s node (instance %p)",
				  (const void *)node, sd_gnode_kind_name(node->kind), sd_gnode_kind_name(kind),
				  (void *)inst);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	*slot = &inst->slots[node->index];
	return DOCA_SUCCESS;
}

/* Whether another context slot of `inst` already holds `task`. */
static bool sd_ginst_task_used_elsewhere(const struct doca_graph_instance *inst, const struct doca_task *task,
					 uint32_t except)
{
	for (uint32_t i = 0; i < inst->num_slots; i++)
		if (i != except && inst->slots[i].set && inst->graph->nodes[i]->kind == SD_GNODE_CTX &&
		    inst->slots[i].data.task == task)
			return true;
	return false;
}

doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
						   struct doca_graph_node *node, struct doca_task *task)
{
	struct sd_gslot *slot;
	doca_error_t err;

	if (task == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "task is NULL (instance %p)", (void *)graph_instance);
	err = sd_ginst_slot(graph_instance, node, SD_GNODE_CTX, &slot, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (!sd_task_is_task(task) || task->ctx == NULL || task->ctx->magic != SD_CTX_MAGIC ||
	    task->own == SD_TASK_FREE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "task %p was freed, or is not a task at all (instance %p)",
				 (void *)task, (void *)graph_instance);
	if (task->ctx != node->bound.ctx)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "task %p belongs to context %p, node %p runs tasks of context %p (instance %p)",
				 (void *)task, (void *)task->ctx, (void *)node, (const void *)node->bound.ctx,
				 (void *)graph_instance);
	if (task->own == SD_TASK_IN_FLIGHT)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, "task %p is in flight; wait for its callback (instance %p)",
				 (void *)task, (void *)graph_instance);
	if (sd_ginst_task_used_elsewhere(graph_instance, task, node->index))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "task %p is already the data of another node of instance %p; one task runs once per run",
				 (void *)task, (void *)graph_instance);
	slot->data.task = task;
	slot->set = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
						    struct doca_graph_node *node, void *cookie)
{
	struct sd_gslot *slot;
	doca_error_t err = sd_ginst_slot(graph_instance, node, SD_GNODE_USER, &slot, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	slot->data.cookie = cookie; /* NULL is a valid cookie */
	slot->set = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_set_sub_graph_node_data(struct doca_graph_instance *graph_instance,
							 struct doca_graph_node *node,
							 struct doca_graph_instance *sub_graph_instance)
{
	struct doca_graph_instance *sub = sub_graph_instance;
	struct sd_gslot *slot;
	doca_error_t err;

	if (!sd_ginst_valid(sub))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "sub_graph_instance %p is NULL or not a live graph instance",
				 (void *)sub);
	err = sd_ginst_slot(graph_instance, node, SD_GNODE_SUB, &slot, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (sub->graph != node->bound.sub)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "sub_graph_instance %p is an instance of graph %p, node %p runs graph %p",
				 (void *)sub, (void *)sub->graph, (void *)node, (void *)node->bound.sub);
	if (sub->submitted)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, "sub_graph_instance %p is submitted; wait for its callback",
				 (void *)sub);
	if (sub->attached_to == graph_instance && sub->attached_slot == node->index)
		return DOCA_SUCCESS; /* already this slot's data */
	if (sub->attached_to != NULL)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "sub_graph_instance %p is already the data of a node of instance %p", (void *)sub,
				 (void *)sub->attached_to);
	if (slot->set)
		slot->data.sub->attached_to = NULL; /* the replaced instance is free again */
	sub->attached_to = graph_instance;
	sub->attached_slot = node->index;
	slot->data.sub = sub;
	slot->set = true;
	return DOCA_SUCCESS;
}

/* ---- submission ---- */

/*
 * Everything a run needs, checked before anything is launched so that a
 * refused submit leaves the instance IDLE with nothing outstanding:
 * every slot filled, every task free to run, and the contexts of
 * the nodes launched at once (roots, also inside root sub-graphs) RUNNING.
 */
static doca_error_t sd_ginst_check_runnable(const struct doca_graph_instance *inst, bool at_root, const char *func)
{
	for (uint32_t i = 0; i < inst->num_slots; i++) {
		const struct doca_graph_node *node = inst->graph->nodes[i];
		const struct sd_gslot *slot = &inst->slots[i];
		bool root = at_root && node->num_parents == 0;
		doca_error_t err;

		if (!slot->set) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "%s node %p of instance %p has no data",
					  sd_gnode_kind_name(node->kind), (const void *)node, (const void *)inst);
			return DOCA_ERROR_BAD_STATE;
		}
		if (node->kind == SD_GNODE_SUB) {
			err = sd_ginst_check_runnable(slot->data.sub, root, func);
			if (err != DOCA_SUCCESS)
				return err;
			continue;
		}
		if (node->kind != SD_GNODE_CTX)
			continue;
		if (slot->data.task->ctx->magic != SD_CTX_MAGIC || slot->data.task->own == SD_TASK_FREE) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "task %p of node %p was freed (instance %p)",
					  (void *)slot->data.task, (const void *)node, (const void *)inst);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (slot->data.task->own == SD_TASK_IN_FLIGHT || slot->data.task->graph_node != NULL) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "task %p of node %p is in flight (instance %p)",
					  (void *)slot->data.task, (const void *)node, (const void *)inst);
			return DOCA_ERROR_IN_USE;
		}
		if (root && node->bound.ctx->state != DOCA_CTX_STATE_RUNNING) {
			priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func,
					  "context %p of root node %p is not RUNNING (instance %p)",
					  (const void *)node->bound.ctx, (const void *)node, (const void *)inst);
			return DOCA_ERROR_BAD_STATE;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance)
{
	struct doca_graph_instance *inst = graph_instance;
	doca_error_t err;

	if (!sd_ginst_valid(inst))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_GINST_BAD, (void *)inst);
	if (inst->attached_to != NULL)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "instance %p is sub-graph node data of instance %p; it runs only through that instance",
				 (void *)inst, (void *)inst->attached_to);
	if (inst->submitted)
		return SD_REJECT(DOCA_ERROR_IN_USE, "instance %p is already submitted; wait for its callback",
				 (void *)inst);
	err = sd_ginst_check_runnable(inst, true, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	sd_graph_run_submit(inst);
	return DOCA_SUCCESS;
}
