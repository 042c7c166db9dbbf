/**
 * @file doca_graph.h
 * @brief Run a fixed set of tasks and application functions in
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
/**
 * @struct doca_graph
 * A graph: a template of nodes (tasks, application functions, sub-graphs)
 * and dependencies, bound to one progress engine and run many times through
 * its instances.  Created with doca_graph_create(), owned by the application,
 * destroyed with doca_graph_destroy() once stopped.
 */
struct doca_graph;
/**
 * @struct doca_graph_node
 * One node of a graph, owned by the graph and freed with it.
 */
struct doca_graph_node;
/**
 * @struct doca_graph_instance
 * One run of a started graph: holds the task, cookie or sub-instance of each
 * node.  Created with doca_graph_instance_create(), owned by the application,
 * destroyed with doca_graph_instance_destroy() while not submitted.
 */
struct doca_graph_instance;

/**
 * @brief Reports the end of one run of an instance, from doca_pe_progress().
 *
 * The instance is IDLE again: it may be resubmitted or destroyed.  In the error
 * callback a node failed (its task or user function).
 *
 * @param instance the instance.
 * @param instance_user_data the instance's user data.
 * @param graph_user_data the graph's user data.
 */
typedef void (*doca_graph_completion_cb_t)(struct doca_graph_instance *instance,
					   union doca_data instance_user_data,
					   union doca_data graph_user_data);

/**
 * @brief The work of a user node, called on the progress thread.
 *
 * @param cookie the value given with doca_graph_instance_set_user_node_data().
 * @return DOCA_SUCCESS, or any error, which fails the run.
 */
typedef doca_error_t (*doca_graph_user_node_cb_t)(void *cookie);

/**
 * @brief Creates an empty, stopped graph bound to a progress engine.
 *
 * The engine cannot be destroyed while the graph exists.
 *
 * @param pe the engine that will run the graph.
 * @param graph receives the graph; the caller owns it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph);

/**
 * @brief Frees a stopped graph and its nodes.
 *
 * @param graph the graph.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when the graph is started;
 * DOCA_ERROR_IN_USE while a node of another graph runs it as a sub-graph.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_destroy(struct doca_graph *graph);

/**
 * @brief Sets the run callbacks and how many instances may exist at one time; stopped graphs only.
 *
 * Required before doca_graph_start().
 *
 * @param graph the graph.
 * @param graph_completion_cb called when a run succeeded.
 * @param graph_error_cb called when a run failed (may be the same function).
 * @param num_instances the most instances alive at once, 1 or more.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or the count is 0;
 * DOCA_ERROR_BAD_STATE when the graph is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_set_conf(struct doca_graph *graph,
				 doca_graph_completion_cb_t graph_completion_cb,
				 doca_graph_completion_cb_t graph_error_cb,
				 uint32_t num_instances);

/**
 * @brief Sets the value passed as the last argument of every run callback; stopped graphs only.
 *
 * @param graph the graph.
 * @param user_data the value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p graph is NULL; DOCA_ERROR_BAD_STATE when the graph is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data);

/**
 * @brief The graph's user data.
 *
 * @param graph the graph.
 * @param user_data receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_get_user_data(const struct doca_graph *graph, union doca_data *user_data);

/**
 * @brief Adds a node that runs one task of a context per run.
 *
 * The context must be RUNNING when the graph starts, and connected to the
 * graph's engine.  Tasks run by a graph never reach their own task callbacks.
 *
 * @param graph a stopped graph.
 * @param ctx the context.
 * @param node receives the node, owned by the graph.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when the graph is started;
 * DOCA_ERROR_NO_MEMORY when the node cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph,
					     const struct doca_ctx *ctx,
					     struct doca_graph_node **node);

/**
 * @brief Adds a node that calls an application function with the instance's cookie.
 *
 * @param graph a stopped graph.
 * @param cb the function.
 * @param node receives the node, owned by the graph.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when the graph is started;
 * DOCA_ERROR_NO_MEMORY when the node cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph,
					      doca_graph_user_node_cb_t cb,
					      struct doca_graph_node **node);

/**
 * @brief Adds a node that runs a whole instance of another, started graph.
 *
 * @param graph a stopped graph.
 * @param sub_graph a started graph, other than @p graph.
 * @param node receives the node, owned by the graph.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when @p graph is started or @p sub_graph is not;
 * DOCA_ERROR_NOT_PERMITTED when the nesting would make a cycle;
 * DOCA_ERROR_NO_MEMORY when the node cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_node_create_from_graph(struct doca_graph *graph,
					       struct doca_graph *sub_graph,
					       struct doca_graph_node **node);

/**
 * @brief Makes node @p to wait until node @p from succeeded.
 *
 * @param graph a stopped graph.
 * @param from the node that runs first.
 * @param to the node that waits.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL, or a node is not the graph's; DOCA_ERROR_BAD_STATE when the graph is started;
 * DOCA_ERROR_NOT_PERMITTED when the edge would close a cycle;
 * DOCA_ERROR_NO_MEMORY when it cannot be recorded.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_add_dependency(struct doca_graph *graph,
				       struct doca_graph_node *from,
				       struct doca_graph_node *to);

/**
 * @brief Checks the graph and freezes its shape; instances can then be created.
 *
 * @param graph the graph.
 * @return DOCA_SUCCESS (also when already started); DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when it has no configuration (doca_graph_set_conf()) or no node;
 * DOCA_ERROR_NO_MEMORY when its run-time state cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_start(struct doca_graph *graph);

/**
 * @brief Returns a graph to the configurable state (does nothing on a stopped graph).
 *
 * @param graph the graph.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_IN_USE while any of its instances exists.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_stop(struct doca_graph *graph);

/**
 * @brief Creates an instance of a started graph.
 *
 * Then give each node its data (task, cookie, sub-instance) and submit it.
 *
 * @param graph a started graph.
 * @param graph_instance receives the instance; the caller owns it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the graph is not started;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated or the graph's instance budget is used up.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_create(const struct doca_graph *graph, struct doca_graph_instance **graph_instance);

/**
 * @brief Frees an instance that is not submitted; the tasks and cookies it names stay the application's.
 *
 * @param graph_instance the instance.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_IN_USE while it is submitted.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance);

/**
 * @brief Sets the value handed to the run callbacks of this instance.
 *
 * @param graph_instance the instance.
 * @param user_data the value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p graph_instance is NULL;
 * DOCA_ERROR_IN_USE while it is submitted.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance, union doca_data user_data);

/**
 * @brief The instance's user data.
 *
 * @param graph_instance the instance.
 * @param user_data receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_get_user_data(const struct doca_graph_instance *graph_instance,
					       union doca_data *user_data);

/**
 * @brief Gives a context node of this instance the task it runs.
 *
 * The task stays the application's (allocated from the node's context, freed
 * by the application after the instance is done with it).
 *
 * @param graph_instance an instance not submitted.
 * @param node a context node of the instance's graph.
 * @param task a task of the node's context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the instance is submitted;
 * DOCA_ERROR_NOT_PERMITTED when the node is not a context node of this graph,
 * or the task is not of the node's context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
						   struct doca_graph_node *node,
						   struct doca_task *task);

/**
 * @brief Gives a user node of this instance the cookie its function receives.
 *
 * @param graph_instance an instance not submitted.
 * @param node a user node of the instance's graph.
 * @param cookie any value, NULL allowed.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p graph_instance or @p node is NULL;
 * DOCA_ERROR_BAD_STATE when the instance is submitted;
 * DOCA_ERROR_NOT_PERMITTED when the node is not a user node of this graph.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
						    struct doca_graph_node *node,
						    void *cookie);

/**
 * @brief Gives a sub-graph node of this instance the sub-graph instance it runs.
 *
 * @param graph_instance an instance not submitted.
 * @param node a sub-graph node of the instance's graph.
 * @param sub_graph_instance an instance of the node's sub-graph, not submitted elsewhere.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the instance is submitted;
 * DOCA_ERROR_NOT_PERMITTED when the node is not a sub-graph node of this graph
 * or the sub-instance does not fit it.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_set_sub_graph_node_data(struct doca_graph_instance *graph_instance,
							 struct doca_graph_node *node,
							 struct doca_graph_instance *sub_graph_instance);

/**
 * @brief Starts one run of an instance; its outcome arrives through doca_pe_progress().
 *
 * Nodes run in dependency order; the run ends with the graph's completion
 * callback, or its error callback at the first failed node.
 *
 * @param graph_instance an instance whose nodes all have their data.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_NOT_PERMITTED when it is the sub-graph data of another instance
 * (it runs only through that one);
 * DOCA_ERROR_IN_USE when it is already submitted, or a node's task is in flight;
 * DOCA_ERROR_BAD_STATE when a node has no data yet, or the context of a first
 * node is not RUNNING;
 * DOCA_ERROR_INVALID_VALUE when a node's task was freed
 * (the log record names the node).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_GRAPH_H_ */
