/**
 * @file doca_mmap_advise.h
 * @brief Hints about memory that a device has written.
 *
 * An mmap-advise instance is a context with one task type, "invalidate
 * cache": submitted after a device finished writing a buffer and before
 * the CPU reads it, it makes sure the CPU sees the device's bytes rather
 * than stale cache lines.  Usual context life: create on a device, connect
 * to a PE, set_conf, start, alloc/submit tasks, stop, destroy.
 *
 * Note the two spellings kept from the DOCA API: the capability queries say
 * "cache_invalidate", everything else says "invalidate_cache".
 */
#ifndef DOCA_MMAP_ADVISE_H_
#define DOCA_MMAP_ADVISE_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
/**
 * @struct doca_mmap_advise
 * An mmap-advise instance: a context whose one task type invalidates the CPU
 * cache over a buffer a device has written.  Created with
 * doca_mmap_advise_create(), destroyed with doca_mmap_advise_destroy() once IDLE.
 */
struct doca_mmap_advise;
struct doca_buf;
struct doca_task;
/**
 * @struct doca_mmap_advise_task_invalidate_cache
 * One invalidate-cache task, from its instance's pool.  Submitted after a
 * device finished writing a buffer and before the CPU reads it.
 */
struct doca_mmap_advise_task_invalidate_cache;

/**
 * @brief The success and the error callback of invalidate-cache tasks, called from doca_pe_progress().
 *
 * @param task the task, back in the application's hands.
 * @param task_user_data the task's user data.
 * @param ctx_user_data the user data of the instance's context.
 */
typedef void (*doca_mmap_advise_task_invalidate_cache_completion_cb_t)(
	struct doca_mmap_advise_task_invalidate_cache *task,
	union doca_data task_user_data,
	union doca_data ctx_user_data);

/**
 * @brief Creates an IDLE instance on a device, not yet connected to a progress engine.
 *
 * @param dev an open device.
 * @param mmap_advise receives the instance; the caller owns it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise);

/**
 * @brief Frees an instance whose context is IDLE.
 *
 * @param mmap_advise the instance.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise);

/**
 * @brief The generic context of the instance, for doca_ctx_*() and doca_pe_connect_ctx().
 *
 * @param mmap_advise the instance.
 * @return the context, owned by the instance; NULL for NULL.
 */
DOCA_EXPERIMENTAL
struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise);

/**
 * @brief Whether a device runs invalidate-cache tasks (every emulated device does).
 *
 * @param devinfo the device.
 * @return DOCA_SUCCESS when it does; DOCA_ERROR_NOT_SUPPORTED when not;
 * DOCA_ERROR_INVALID_VALUE when @p devinfo is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The largest buffer one invalidate-cache task accepts (the DMA task size limit).
 *
 * @param devinfo the device.
 * @param buf_size receives it, in bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo,
								     uint64_t *buf_size);

/**
 * @brief Sets the callbacks and the pool size of invalidate-cache tasks; IDLE only.
 *
 * @param mmap_advise the instance.
 * @param completion_cb called for each task that succeeded.
 * @param error_cb called for each task that failed or was flushed.
 * @param num_tasks the pool size, 1 or more.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or the count is 0;
 * DOCA_ERROR_NOT_PERMITTED when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
	struct doca_mmap_advise *mmap_advise,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb,
	uint32_t num_tasks);

/**
 * @brief Takes a task from the pool of a RUNNING instance and points it at a buffer.
 *
 * The buffer is checked when the task runs; a bad one fails the task with
 * DOCA_ERROR_INVALID_VALUE through its error callback.
 *
 * @param mmap_advise the instance.
 * @param buf the buffer whose memory the CPU is about to read.
 * @param user_data handed to the task's callbacks.
 * @param task receives the task, owned by the application until submitted.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p mmap_advise or @p task is NULL;
 * DOCA_ERROR_BAD_STATE when the context is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(struct doca_mmap_advise *mmap_advise,
							       struct doca_buf *buf,
							       union doca_data user_data,
							       struct doca_mmap_advise_task_invalidate_cache **task);

/**
 * @brief The generic view of the task, for doca_task_submit(), doca_task_free() and the rest.
 *
 * @param task the task.
 * @return the same task as struct doca_task; NULL for NULL.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(
	struct doca_mmap_advise_task_invalidate_cache *task);

/**
 * @brief Replaces the buffer of a task that is not in flight.
 *
 * @param task the task; NULL is ignored.
 * @param buf the new buffer.
 */
DOCA_EXPERIMENTAL
void doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
						    struct doca_buf *buf);

/**
 * @brief The buffer stored in a task.
 *
 * @param task the task.
 * @return the buffer, possibly NULL; NULL for NULL.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(
	const struct doca_mmap_advise_task_invalidate_cache *task);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_MMAP_ADVISE_H_ */
