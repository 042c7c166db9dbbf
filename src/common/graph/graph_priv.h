/*
 * graph_priv.h - DOCA graph objects and the graph engine's entry points.
 *
 * Files of this folder:
 *   graph_build.c     graph lifecycle, nodes, dependencies, start/stop
 *   graph_instance.c  instances, their node data, submission checks
 *   graph_run.c       the engine: launching nodes, task reports, the PE's
 *                     graph step (user nodes, run callbacks), failures
 *
 * Everything is allocated at graph start and instance creation; a run
 * (submit, progress, callbacks) never allocates.
 */
#ifndef SD_GRAPH_PRIV_H
#define SD_GRAPH_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_graph.h>

#include "sd_exec.h"

#define SD_GRAPH_MAGIC 0x47524630u /* "GRF0" */
#define SD_GNODE_MAGIC 0x474e4f30u /* "GNO0" */
#define SD_GINST_MAGIC 0x47494e30u /* "GIN0" */

enum sd_gnode_kind {
	SD_GNODE_CTX = 1,
	SD_GNODE_USER = 2,
	SD_GNODE_SUB = 3,
};

struct doca_graph_node {
	uint32_t magic; /* SD_GNODE_MAGIC while its graph exists */
	enum sd_gnode_kind kind;
	struct doca_graph *graph;
	uint32_t index; /* position in graph->nodes and in every instance's slots */
	union {
		const struct doca_ctx *ctx;
		doca_graph_user_node_cb_t cb;
		struct doca_graph *sub;
	} bound;
	uint32_t *children; /* indices of the nodes that wait for this one */
	uint32_t num_children;
	uint32_t cap_children;
	uint32_t num_parents;
};

/* Per-PE graph state, hung on pe->graph_priv while a graph is bound. */
struct sd_graph_pe;

struct doca_graph {
	uint32_t magic; /* SD_GRAPH_MAGIC while the graph exists */
	struct doca_pe *pe;
	struct sd_graph_pe *gpe;
	struct doca_graph *pe_next; /* the PE's list of bound graphs */
	bool started;
	bool configured; /* doca_graph_set_conf succeeded */
	doca_graph_completion_cb_t completion_cb;
	doca_graph_completion_cb_t error_cb;
	uint32_t max_instances;
	uint32_t live_instances;
	union doca_data user_data;
	struct doca_graph_node **nodes;
	uint32_t num_nodes;
	uint32_t cap_nodes;
	/* Sub-graph nodes of other graphs that name this graph (all / started). */
	uint32_t parent_refs;
	uint32_t started_parent_refs;
	/* Frozen at start. */
	uint32_t *roots;
	uint32_t num_roots;
};

/* Work queued for the PE's graph step: one unit that runs application code. */
enum sd_gwork_kind {
	SD_GWORK_USER_NODE = 1, /* run a user node */
	SD_GWORK_RUN_DONE = 2,  /* invoke a top-level instance's callback */
};

struct sd_gwork {
	struct sd_gwork *next;
	uint8_t kind; /* enum sd_gwork_kind */
	bool queued;
};

/* One node's per-instance data and run state. */
struct sd_gslot {
	struct doca_graph_instance *inst;
	uint32_t node;
	bool set;
	union {
		struct doca_task *task;
		void *cookie;
		struct doca_graph_instance *sub;
	} data;
	uint32_t waiting;     /* parents not yet completed in this run */
	struct sd_gwork work; /* SD_GWORK_USER_NODE */
};

struct doca_graph_instance {
	uint32_t magic; /* SD_GINST_MAGIC while the instance exists */
	struct doca_graph *graph;
	union doca_data user_data;
	bool submitted; /* SUBMITTED (top level: until its callback starts) */
	bool active;    /* run in progress, end not yet reached */
	bool failed;    /* meaningful on the run's top instance: the run failed */
	uint32_t outstanding; /* launched nodes (and holds) not yet finished */
	uint32_t remaining;   /* nodes not yet completed successfully */
	struct doca_graph_instance *run_root; /* top-level instance of the current run */
	/* Set while this instance is sub-graph node data of another instance. */
	struct doca_graph_instance *attached_to;
	uint32_t attached_slot;
	struct sd_gwork done_work; /* SD_GWORK_RUN_DONE */
	uint32_t num_slots;
	struct sd_gslot slots[];
};

static inline bool sd_graph_valid(const struct doca_graph *graph)
{
	return graph != NULL && graph->magic == SD_GRAPH_MAGIC;
}

static inline bool sd_gnode_valid(const struct doca_graph_node *node)
{
	return node != NULL && node->magic == SD_GNODE_MAGIC;
}

static inline bool sd_ginst_valid(const struct doca_graph_instance *inst)
{
	return inst != NULL && inst->magic == SD_GINST_MAGIC;
}

static inline const char *sd_gnode_kind_name(enum sd_gnode_kind kind)
{
	switch (kind) {
	case SD_GNODE_CTX:
		return "context";
	case SD_GNODE_USER:
		return "user";
	case SD_GNODE_SUB:
		return "sub-graph";
	}
	return "?";
}

/* graph_run.c: bind / unbind a graph to its PE (installs the PE hooks). */
doca_error_t sd_graph_pe_bind(struct doca_graph *graph, struct doca_pe *pe);
void sd_graph_pe_unbind(struct doca_graph *graph);

/* graph_run.c: start a run of a checked, IDLE top-level instance. */
void sd_graph_run_submit(struct doca_graph_instance *inst);

#endif /* SD_GRAPH_PRIV_H */
