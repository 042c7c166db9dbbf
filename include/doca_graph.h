/*
 * doca_graph.h - run a fixed set of tasks and application functions in
 * dependency order, as one unit, many times over.
 *
 * A graph is a template bound to one progress engine.  Its nodes are:
 *   - context nodes: one task of a given context per run;
 *   - user nodes: an application function called on the progress thread;
 *   - sub-graph nodes: a whole run of another (started) graph.
 * Edges say "this node waits until that one succeeded"; cycles are refused.
 *
 * Life of a graph:   create -> add nodes / edges, set_conf -> start
 *                    -> instances ... -> stop -> destroy
 * Life of a run:     instance_create -> set node data -> submit
 *                    -> doca_pe_progress() ... -> completion or error
 *                    callback (instance IDLE again, may be resubmitted).
 *
 * Tasks run by a graph never reach their own task callbacks; the graph's
 * callback reports the run instead.  Everything happens on the thread that
 * progresses the graph's PE.
 */
#ifndef DOCA_GRAPH_H_
#define DOCA_GRAPH_H_

#include <stdint.h>
#include <stddef.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_pe;
struct doca_task;
struct doca_graph;
struct doca_graph_node;
struct doca_graph_instance;

/*
 * End of one run of an instance: the instance's user data, then the
 * graph's.  The instance is IDLE again when this is called.
 */
typedef void (*doca_graph_completion_cb_t)(struct doca_graph_instance *instance,
					   union doca_data instance_user_data,
					   union doca_data graph_user_data);

/* A user node's work; any result other than DOCA_SUCCESS fails the run. */
typedef doca_error_t (*doca_graph_user_node_cb_t)(void *cookie);

/* New, empty, stopped graph bound to `pe` (which then cannot be destroyed). */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph);

/* Frees a stopped graph and its nodes. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_destroy(struct doca_graph *graph);

/*
 * Run callbacks (both required, may be the same function) and the most
 * instances of this graph that may exist at one time.  Stopped graphs only.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_set_conf(struct doca_graph *graph,
				 doca_graph_completion_cb_t graph_completion_cb,
				 doca_graph_completion_cb_t graph_error_cb,
				 uint32_t num_instances);

/* Value passed as the last argument of every run callback (stopped graphs only). */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data);

DOCA_EXPERIMENTAL
doca_error_t doca_graph_get_user_data(const struct doca_graph *graph, union doca_data *user_data);

/* Node that runs one task of `ctx` per run; the context must be RUNNING at start. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph,
					     const struct doca_ctx *ctx,
					     struct doca_graph_node **node);

/* Node that calls `cb` with the instance's cookie. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph,
					      doca_graph_user_node_cb_t cb,
					      struct doca_graph_node **node);

/* Node that runs an instance of the started graph `sub_graph`. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_node_create_from_graph(struct doca_graph *graph,
					       struct doca_graph *sub_graph,
					       struct doca_graph_node **node);

/* `to` runs only after `from` succeeded; refused with NOT_PERMITTED if it closes a cycle. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_add_dependency(struct doca_graph *graph,
				       struct doca_graph_node *from,
				       struct doca_graph_node *to);

/* Checks the graph and freezes its shape; instances can then be created. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_start(struct doca_graph *graph);

/* Back to the configurable state; refused while instances exist. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_stop(struct doca_graph *graph);

DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_create(const struct doca_graph *graph, struct doca_graph_instance **graph_instance);

/* Frees an IDLE instance; the tasks and cookies it names stay the application's. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance);

DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance, union doca_data user_data);

DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_get_user_data(const struct doca_graph_instance *graph_instance,
					       union doca_data *user_data);

/* The task the context node `node` runs in this instance (a task of the node's context). */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
						   struct doca_graph_node *node,
						   struct doca_task *task);

/* The cookie handed to the user node `node` in this instance (NULL is allowed). */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
						    struct doca_graph_node *node,
						    void *cookie);

/* The instance of the sub-graph that the sub-graph node `node` runs. */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_sub_graph_node_data(struct doca_graph_instance *graph_instance,
							 struct doca_graph_node *node,
							 struct doca_graph_instance *sub_graph_instance);

/* Starts one run; its outcome arrives through doca_pe_progress(). */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_GRAPH_H_ */
