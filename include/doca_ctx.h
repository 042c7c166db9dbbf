/*
 * doca_ctx.h - the generic face of every DOCA library instance.
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

struct doca_ctx;
struct doca_devinfo;
struct doca_gpu;
struct doca_dpa;

/* Lifecycle states of a context. */
enum doca_ctx_states {
	DOCA_CTX_STATE_IDLE = 0,
	DOCA_CTX_STATE_STARTING = 1,
	DOCA_CTX_STATE_RUNNING = 2,
	DOCA_CTX_STATE_STOPPING = 3,
};

/*
 * Called once per state change, on the thread that caused it (start, stop
 * or doca_pe_progress), with the context already in next_state.
 */
typedef void (*doca_ctx_state_changed_callback_t)(const union doca_data user_data,
						  struct doca_ctx *ctx,
						  enum doca_ctx_states prev_state,
						  enum doca_ctx_states next_state);

/* Start the context; it must be IDLE and connected to a progress engine. */
DOCA_STABLE
doca_error_t doca_ctx_start(struct doca_ctx *ctx);

/* Begin (and when possible finish) stopping; IDLE contexts return success. */
DOCA_STABLE
doca_error_t doca_ctx_stop(struct doca_ctx *ctx);

/* Tasks submitted and not yet reported to their callbacks. */
DOCA_STABLE
doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks);

/* Move the data path to a GPU (not available in softdoca). */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev);

/* Attach an opaque value, handed to every callback of this context. */
DOCA_STABLE
doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data);

DOCA_STABLE
doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data);

/* Install the state-changed callback (replaces any previous one). */
DOCA_STABLE
doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb);

DOCA_STABLE
doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state);

/* Push tasks submitted without the flush flag (always a no-op here). */
DOCA_EXPERIMENTAL
void doca_ctx_flush_tasks(struct doca_ctx *ctx);

/* Move the data path to a DPA (not available in softdoca). */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx, struct doca_dpa *dpa_dev);

/* Choose the completion vector (interrupt line) of the context. */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_set_completion_vector(struct doca_ctx *ctx, uint32_t comp_vector);

/* How many completion vectors a device offers (valid: 0 .. n-1). */
DOCA_EXPERIMENTAL
doca_error_t doca_ctx_cap_get_num_completion_vectors(const struct doca_devinfo *devinfo, uint32_t *num_comp_vectors);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_CTX_H_ */
