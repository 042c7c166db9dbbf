/**
 * @file doca_ctx.h
 * @brief The generic face of every DOCA library instance.
 *
 * A context (struct doca_ctx) is what doca_dma_as_ctx() and its siblings
 * return.  It carries the lifecycle every library shares:
 *
 *   IDLE --start--> RUNNING --stop / fatal task error--> STOPPING --> IDLE
 *            \--> STARTING (libraries that start asynchronously) --/
 *
 * Configure while IDLE, connect to a progress engine, start, submit tasks,
 * stop.  A stop completes at once when nothing is allocated and the call is
 * not made from inside a progress callback; otherwise it returns
 * DOCA_ERROR_IN_PROGRESS and doca_pe_progress() finishes it later.
 */
#ifndef DOCA_CTX_H_
#define DOCA_CTX_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @struct doca_ctx
 * The generic view of a library instance (a DMA instance, a Comch server or
 * client...).  It is owned by that instance and lives as long as it: get it
 * with the library's *_as_ctx() call, never create or free it yourself.
 */
struct doca_ctx;
struct doca_devinfo;
/**
 * @struct doca_gpu
 * A GPU as DOCA GPUNetIO sees it; softdoca has no such library, so no program holds one.
 */
struct doca_gpu;
/**
 * @struct doca_dpa
 * A DPA (the card's data-path accelerator) context; softdoca has no such library, so no program holds one.
 */
struct doca_dpa;

/**
 * Lifecycle states of a context.  A context is configured while IDLE,
 * started, and stopped back to IDLE; a failed task also sends it to STOPPING.
 */
enum doca_ctx_states {
	DOCA_CTX_STATE_IDLE = 0, /**< created or stopped: configurable, no task can be allocated */
	DOCA_CTX_STATE_STARTING = 1, /**< start goes on asynchronously (libraries that connect to a peer) */
	DOCA_CTX_STATE_RUNNING = 2, /**< started: tasks can be allocated and submitted */
	DOCA_CTX_STATE_STOPPING = 3, /**< stopping: tasks in flight are flushed; back to IDLE once none is allocated */
};

/**
 * @brief Called once per state change of a context.
 *
 * Runs on the thread that caused the change: inside doca_ctx_start(),
 * doca_ctx_stop() or doca_pe_progress(), with the context already in
 * @p next_state.  It may submit tasks (entering RUNNING) or call
 * doca_ctx_stop(); after (STOPPING, IDLE) it may destroy the instance.
 *
 * @param user_data the value of doca_ctx_set_user_data() at the time of the call.
 * @param ctx the context that changed.
 * @param prev_state the state it left.
 * @param next_state the state it is now in.
 */
typedef void (*doca_ctx_state_changed_callback_t)(const union doca_data user_data,
						  struct doca_ctx *ctx,
						  enum doca_ctx_states prev_state,
						  enum doca_ctx_states next_state);

/**
 * @brief Starts a configured context: IDLE to RUNNING.
 *
 * Freezes the configuration, allocates the task pools sized at configuration
 * and fires the state-changed callback (IDLE, RUNNING) before returning.  The
 * context must be connected to a progress engine (doca_pe_connect_ctx()) and
 * have at least one task type configured.  A context back in IDLE may be
 * started again; changes made while IDLE apply from that start.
 *
 * @param ctx the context.
 * @return DOCA_SUCCESS when RUNNING;
 * DOCA_ERROR_INVALID_VALUE when @p ctx is NULL or no task type was configured;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE;
 * DOCA_ERROR_NOT_CONNECTED when it is connected to no progress engine;
 * DOCA_ERROR_NOT_SUPPORTED when its device cannot run the configured tasks;
 * DOCA_ERROR_INITIALIZATION when its run-time resources cannot be allocated
 * (the context then stays IDLE with nothing allocated).
 */
DOCA_STABLE
doca_error_t doca_ctx_start(struct doca_ctx *ctx);

/**
 * @brief Stops a context, at once when possible, else through doca_pe_progress().
 *
 * On a RUNNING context: enters STOPPING (callback), flushes every task in
 * flight (each is reported to its error callback with DOCA_ERROR_SHUTDOWN by
 * later doca_pe_progress() calls) and, when no task of the context is
 * allocated any more and the call is not made from inside a callback of its
 * progress engine, returns it to IDLE (callback) and returns DOCA_SUCCESS.
 * Otherwise it returns DOCA_ERROR_IN_PROGRESS: free every task you hold and
 * call doca_pe_progress() until the state-changed callback reports IDLE.
 * May be called from the context's own task and state callbacks.
 *
 * @param ctx the context.
 * @return DOCA_SUCCESS when the context is IDLE (also when it already was);
 * DOCA_ERROR_IN_PROGRESS when the stop goes on in doca_pe_progress(), or the
 * context is already STOPPING (for example after a failed task);
 * DOCA_ERROR_INVALID_VALUE when @p ctx is NULL;
 * DOCA_ERROR_NOT_CONNECTED when the context was never connected to a progress engine.
 */
DOCA_STABLE
doca_error_t doca_ctx_stop(struct doca_ctx *ctx);

/**
 * @brief How many tasks of the context are submitted and not yet reported.
 *
 * Counts tasks whose callback has not been entered yet, flushed ones
 * included.  Any state.
 *
 * @param ctx the context.
 * @param num_inflight_tasks receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks);

/**
 * @brief Would move the context's data path to a GPU; softdoca has no GPU data path.
 *
 * @param ctx an IDLE context.
 * @param gpu_dev the GPU.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE;
 * DOCA_ERROR_NOT_SUPPORTED otherwise (nothing changes).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev);

/**
 * @brief Attaches a value to the context.
 *
 * The value is handed to the state-changed callback and, as ctx_user_data, to
 * every task callback of the context; each call sees the value stored at that
 * moment.  Initially all bits zero.  Any state.
 *
 * @param ctx the context.
 * @param user_data the value; softdoca never interprets it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p ctx is NULL.
 */
DOCA_STABLE
doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data);

/**
 * @brief Reads the value attached with doca_ctx_set_user_data().
 *
 * @param ctx the context.
 * @param user_data receives the value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data);

/**
 * @brief Installs the callback told of every state change, replacing any previous one.
 *
 * Any state; usually set while IDLE, before the start.
 *
 * @param ctx the context.
 * @param cb the callback; there is no way to remove it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb);

/**
 * @brief The current state of the context.
 *
 * Any state; inside a state-changed callback it answers the new state.
 *
 * @param ctx the context.
 * @param state receives the state.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state);

/**
 * @brief Hands to the device the tasks submitted without DOCA_TASK_SUBMIT_FLAG_FLUSH.
 *
 * In softdoca every submitted task is already eligible for execution, so this
 * does nothing; a NULL or IDLE context is ignored.
 *
 * @param ctx a started context.
 */
DOCA_EXPERIMENTAL
void doca_ctx_flush_tasks(struct doca_ctx *ctx);

/**
 * @brief Would move the context's data path to a DPA; softdoca has no DPA data path.
 *
 * @param ctx an IDLE context.
 * @param dpa_dev the DPA.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE;
 * DOCA_ERROR_NOT_SUPPORTED otherwise (nothing changes).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx, struct doca_dpa *dpa_dev);

/**
 * @brief Chooses the device completion vector (interrupt line) of the context.
 *
 * IDLE only.  softdoca stores the value; it changes nothing else.
 *
 * @param ctx the context.
 * @param comp_vector below doca_ctx_cap_get_num_completion_vectors().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p ctx is NULL or @p comp_vector is out of range;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_set_completion_vector(struct doca_ctx *ctx, uint32_t comp_vector);

/**
 * @brief How many completion vectors a device offers (valid vectors: 0 to n-1).
 *
 * Every emulated device has one.
 *
 * @param devinfo the device.
 * @param num_comp_vectors receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_cap_get_num_completion_vectors(const struct doca_devinfo *devinfo, uint32_t *num_comp_vectors);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_CTX_H_ */
