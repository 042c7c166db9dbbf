/*
 * graph_run.c - the graph engine: how a submitted instance runs.
 *
 * A run keeps two counters per instance: `remaining`, the nodes not yet
 * completed successfully, and `outstanding`, the nodes launched but not yet
 * finished.  A run ends when nothing is outstanding; it succeeded when
 * nothing remains.  The first failure anywhere in a run (including inside a
 * sub-graph instance) marks the run's top instance failed: from then on no
 * node of that run is launched, queued user nodes are dropped, and tasks
 * already submitted simply finish or are flushed by their context.
 *
 * Three kinds of event drive a run, all on the PE's thread:
 *   - submit: the roots are launched (context tasks submitted, root user
 *     nodes queued, root sub-graph instances started recursively);
 *   - a graph-owned task is reported by the PE (graph_task_report hook),
 *     which is the PE's task step and runs no application code;
 *   - the PE's graph step (graph_dispatch hook) pops one queued unit: a user
 *     node or the callback of a finished top-level instance.  Each is one
 *     unit of doca_pe_progress work.
 *
 * While an instance launches several nodes it holds one extra `outstanding`
 * so that a failure in the middle cannot end the run under its feet.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "graph_priv.h"

struct sd_graph_pe {
	struct doca_graph *graphs; /* bound graphs */
	uint32_t num_graphs;
	struct sd_gwork *head; /* queued units, FIFO */
	struct sd_gwork *tail;
};

#define SD_CONTAINER_OF(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))

/* ---- the queue of units for the PE's graph step ---- */

static void sd_gwork_push(struct doca_graph *graph, struct sd_gwork *work)
{
	struct sd_graph_pe *gpe = graph->gpe;

	work->next = NULL;
	work->queued = true;
	if (gpe->tail != NULL)
		gpe->tail->next = work;
	else
		gpe->head = work;
	gpe->tail = work;
	/* New work for doca_pe_progress: wake an armed PE. */
	if (atomic_load_explicit(&graph->pe->armed, memory_order_relaxed))
		priv_doca_pe_kick(graph->pe);
}

static struct sd_gwork *sd_gwork_pop(struct sd_graph_pe *gpe)
{
	struct sd_gwork *work = gpe->head;

	if (work == NULL)
		return NULL;
	gpe->head = work->next;
	if (gpe->head == NULL)
		gpe->tail = NULL;
	work->next = NULL;
	work->queued = false;
	return work;
}

/* ---- run bookkeeping ---- */

static inline bool sd_run_failed(const struct doca_graph_instance *inst)
{
	return inst->run_root->failed;
}

static void sd_inst_check_end(struct doca_graph_instance *inst);
static void sd_node_launch(struct doca_graph_instance *inst, uint32_t idx);

/*
 * Drop the queued user nodes of a failed run: they will never run.  Each
 * counts as a node that finished without completing.
 */
static void sd_run_drop_queued(struct doca_graph_instance *top)
{
	struct sd_graph_pe *gpe = top->graph->gpe;
	struct sd_gwork *dropped = NULL;
	struct sd_gwork **link = &gpe->head;
	struct sd_gwork *last = NULL;

	while (*link != NULL) {
		struct sd_gwork *work = *link;

		if (work->kind == SD_GWORK_USER_NODE &&
		    SD_CONTAINER_OF(work, struct sd_gslot, work)->inst->run_root == top) {
			*link = work->next;
			work->queued = false;
			work->next = dropped;
			dropped = work;
			continue;
		}
		last = work;
		link = &work->next;
	}
	gpe->tail = last;
	while (dropped != NULL) {
		struct sd_gwork *next = dropped->next;
		struct doca_graph_instance *inst = SD_CONTAINER_OF(dropped, struct sd_gslot, work)->inst;

		dropped->next = NULL;
		inst->outstanding--;
		sd_inst_check_end(inst);
		dropped = next;
	}
}

/* The first failure of a run stops every further launch in it. */
static void sd_run_fail(struct doca_graph_instance *inst)
{
	struct doca_graph_instance *top = inst->run_root;

	if (top->failed)
		return;
	top->failed = true;
	sd_run_drop_queued(top);
}

/* Node `idx` completed successfully: release the children that waited only for it. */
static void sd_node_complete(struct doca_graph_instance *inst, uint32_t idx)
{
	const struct doca_graph_node *node = inst->graph->nodes[idx];

	inst->remaining--;
	if (sd_run_failed(inst))
		return;
	inst->outstanding++; /* hold */
	for (uint32_t i = 0; i < node->num_children; i++) {
		uint32_t child = node->children[i];

		if (--inst->slots[child].waiting == 0)
			sd_node_launch(inst, child);
	}
	inst->outstanding--;
}

/* A launched node of `inst` finished, successfully or not. */
static void sd_node_finish(struct doca_graph_instance *inst, uint32_t idx, bool ok)
{
	inst->outstanding--;
	if (ok)
		sd_node_complete(inst, idx);
	else
		sd_run_fail(inst);
	sd_inst_check_end(inst);
}

/*
 * End of an instance's part of a run once nothing is outstanding.  A
 * sub-graph instance reports to the node that runs it (its own callbacks
 * never fire); a top-level instance queues its callback.
 */
static void sd_inst_check_end(struct doca_graph_instance *inst)
{
	struct doca_graph_instance *parent;

	if (!inst->active || inst->outstanding != 0)
		return;
	inst->active = false;
	parent = inst->attached_to;
	if (parent != NULL) {
		inst->submitted = false;
		sd_node_finish(parent, inst->attached_slot, inst->remaining == 0);
		return;
	}
	sd_gwork_push(inst->graph, &inst->done_work);
}

/* Reset the run state of `inst`, which joins the run whose top is `top`. */
static void sd_inst_begin(struct doca_graph_instance *inst, struct doca_graph_instance *top)
{
	const struct doca_graph *graph = inst->graph;

	inst->run_root = top;
	inst->submitted = true;
	inst->active = true;
	inst->failed = false;
	inst->outstanding = 0;
	inst->remaining = inst->num_slots;
	for (uint32_t i = 0; i < inst->num_slots; i++)
		inst->slots[i].waiting = graph->nodes[i]->num_parents;
}

static void sd_inst_launch_roots(struct doca_graph_instance *inst)
{
	const struct doca_graph *graph = inst->graph;

	inst->outstanding++; /* hold */
	for (uint32_t i = 0; i < graph->num_roots; i++)
		sd_node_launch(inst, graph->roots[i]);
	inst->outstanding--;
	sd_inst_check_end(inst);
}

/* ---- launching one node ---- */

static void sd_launch_task(struct doca_graph_instance *inst, struct sd_gslot *slot)
{
	struct doca_task *task = slot->data.task;

	/* Someone else's task right now (submitted directly, or by another run). */
	if (task->own != SD_TASK_APP || task->graph_node != NULL) {
		sd_run_fail(inst);
		return;
	}
	task->graph_node = slot;
	if (priv_doca_task_submit_internal(task) != DOCA_SUCCESS) {
		/* The context left RUNNING: the node fails, nothing was queued. */
		task->graph_node = NULL;
		sd_run_fail(inst);
		return;
	}
	inst->outstanding++;
}

static void sd_launch_sub(struct doca_graph_instance *inst, struct sd_gslot *slot)
{
	struct doca_graph_instance *sub = slot->data.sub;

	inst->outstanding++;
	sd_inst_begin(sub, inst->run_root);
	sd_inst_launch_roots(sub);
}

static void sd_node_launch(struct doca_graph_instance *inst, uint32_t idx)
{
	struct sd_gslot *slot = &inst->slots[idx];

	if (sd_run_failed(inst))
		return;
	switch (inst->graph->nodes[idx]->kind) {
	case SD_GNODE_CTX:
		sd_launch_task(inst, slot);
		break;
	case SD_GNODE_USER:
		/* Runs from a later progress call, as its own unit. */
		inst->outstanding++;
		sd_gwork_push(inst->graph, &slot->work);
		break;
	case SD_GNODE_SUB:
		sd_launch_sub(inst, slot);
		break;
	}
}

void sd_graph_run_submit(struct doca_graph_instance *inst)
{
	sd_inst_begin(inst, inst);
	sd_inst_launch_roots(inst);
}

/* ---- the PE hooks ---- */

static bool sd_graph_pending(struct doca_pe *pe)
{
	const struct sd_graph_pe *gpe = pe->graph_priv;

	return gpe != NULL && gpe->head != NULL;
}

static void sd_graph_run_user_node(struct sd_gslot *slot)
{
	struct doca_graph_instance *inst = slot->inst;
	doca_graph_user_node_cb_t cb = inst->graph->nodes[slot->node]->bound.cb;
	doca_error_t result = cb(slot->data.cookie);

	sd_node_finish(inst, slot->node, result == DOCA_SUCCESS);
}

static void sd_graph_run_done(struct doca_graph_instance *inst)
{
	const struct doca_graph *graph = inst->graph;
	doca_graph_completion_cb_t cb = inst->failed ? graph->error_cb : graph->completion_cb;

	/* IDLE before the callback: it may resubmit or destroy the instance. */
	inst->submitted = false;
	cb(inst, inst->user_data, graph->user_data);
}

static void sd_graph_dispatch(struct doca_pe *pe)
{
	struct sd_gwork *work = sd_gwork_pop(pe->graph_priv);

	if (work == NULL)
		return;
	if (work->kind == SD_GWORK_USER_NODE)
		sd_graph_run_user_node(SD_CONTAINER_OF(work, struct sd_gslot, work));
	else
		sd_graph_run_done(SD_CONTAINER_OF(work, struct doca_graph_instance, done_work));
}

static void sd_graph_task_report(struct doca_pe *pe, struct doca_task *task)
{
	struct sd_gslot *slot = task->graph_node;

	(void)pe;
	task->graph_node = NULL; /* application-owned again; its status stays readable */
	sd_node_finish(slot->inst, slot->node, task->status == DOCA_SUCCESS);
}

/* ---- binding graphs to a PE ---- */

doca_error_t sd_graph_pe_bind(struct doca_graph *graph, struct doca_pe *pe)
{
	struct sd_graph_pe *gpe = pe->graph_priv;

	if (gpe == NULL) {
		gpe = calloc(1, sizeof(*gpe));
		if (gpe == NULL)
			return DOCA_ERROR_NO_MEMORY;
		pe->graph_priv = gpe;
		pe->graph_pending = sd_graph_pending;
		pe->graph_dispatch = sd_graph_dispatch;
		pe->graph_task_report = sd_graph_task_report;
	}
	graph->pe = pe;
	graph->gpe = gpe;
	graph->pe_next = gpe->graphs;
	gpe->graphs = graph;
	gpe->num_graphs++;
	pe->bound_graphs++; /* the PE cannot be destroyed under a graph */
	return DOCA_SUCCESS;
}

void sd_graph_pe_unbind(struct doca_graph *graph)
{
	struct doca_pe *pe = graph->pe;
	struct sd_graph_pe *gpe = graph->gpe;
	struct doca_graph **link = &gpe->graphs;

	while (*link != NULL && *link != graph)
		link = &(*link)->pe_next;
	if (*link != NULL)
		*link = graph->pe_next;
	gpe->num_graphs--;
	pe->bound_graphs--;
	if (gpe->num_graphs == 0) {
		/* Nothing can be queued: a stopped graph has no instance. */
		pe->graph_pending = NULL;
		pe->graph_dispatch = NULL;
		pe->graph_task_report = NULL;
		pe->graph_priv = NULL;
		free(gpe);
	}
	graph->pe = NULL;
	graph->gpe = NULL;
}
