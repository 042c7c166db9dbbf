/**
 * @file doca_dma.h
 * @brief DOCA DMA: a context that copies memory between DOCA buffers.
 *
 * softdoca's rendition of the DOCA 3.3 DMA interface.  A DMA instance is
 * created on a device, configured with its memcpy task callbacks and pool
 * size while IDLE, connected to a progress engine and started through its
 * generic context view (doca_dma_as_ctx).  Each memcpy task copies the data
 * segments of a source buffer (or buffer list) into the free space after the
 * data of a destination buffer (or list); completions are reported by
 * doca_pe_progress.
 *
 * Since DOCA 2.x programs relied on this header pulling in the buffer, mmap,
 * context and progress-engine declarations, it still does.
 */
#ifndef DOCA_DMA_H_
#define DOCA_DMA_H_

#include <inttypes.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#include <doca_buf.h>
#include <doca_mmap.h>
#include <doca_ctx.h>
#include <doca_pe.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
/**
 * @struct doca_gpu_dma
 * The GPU-side handle of a DMA instance (DOCA GPUNetIO); never handed out by softdoca.
 */
struct doca_gpu_dma;

/**
 * @struct doca_dma_task_memcpy
 * One memcpy task of a DMA instance: copies the data of a source buffer (or
 * buffer list) to the free space after the data of a destination buffer (or
 * list).  It belongs to its instance's pool: allocated with
 * doca_dma_task_memcpy_alloc_init(), freed with doca_task_free() on its
 * generic view (doca_dma_task_memcpy_as_task()).
 */
struct doca_dma_task_memcpy;

/**
 * @brief The success and the error callback of memcpy tasks.
 *
 * Called only from doca_pe_progress(), with the task already back in the
 * application's hands (resubmit, free or keep it).  In the error callback
 * doca_task_get_status() says why: a rule of the task broken (see
 * doca_dma_task_memcpy_alloc_init()), DOCA_ERROR_IO_FAILED when the memory
 * could not be reached, DOCA_ERROR_SHUTDOWN when a stop flushed it.  A failed
 * task has already moved its context to STOPPING.
 *
 * @param task the task being reported.
 * @param task_user_data the task's user data at the time of the call.
 * @param ctx_user_data the user data of the instance's context at the time of the call.
 */
typedef void (*doca_dma_task_memcpy_completion_cb_t)(struct doca_dma_task_memcpy *task,
						     union doca_data task_user_data,
						     union doca_data ctx_user_data);

/**
 * @struct doca_dma
 * A DMA instance: a context that copies memory between DOCA buffers on one
 * device.  Created with doca_dma_create(), owned by the application,
 * destroyed with doca_dma_destroy() once its context is IDLE.
 */
struct doca_dma;

/**
 * @brief Creates a DMA instance on an open device.
 *
 * The instance starts IDLE, unconnected and without task configuration.  It
 * depends on @p dev until destroyed: the device cannot be closed for the last
 * time meanwhile.  Whether the device can copy is checked at start.
 *
 * @param dev an open device.
 * @param dma receives the instance; the caller owns it (doca_dma_destroy()).
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NO_MEMORY when the instance cannot be allocated;
 * DOCA_ERROR_INITIALIZATION when its internal state cannot be set up.
 */
DOCA_STABLE
doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma);

/**
 * @brief Destroys a DMA instance whose context is IDLE.
 *
 * Also disconnects it from its progress engine and releases the device.
 * Allowed from the state callback that reports IDLE; never use the instance
 * or its context afterwards.
 *
 * @param dma the instance.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p dma is NULL or not a live instance;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE (stop it and progress
 * until IDLE first; the instance is left intact).
 */
DOCA_STABLE
doca_error_t doca_dma_destroy(struct doca_dma *dma);

/**
 * @brief The generic context of the instance, for doca_ctx_*() and doca_pe_connect_ctx().
 *
 * @param dma the instance.
 * @return the context, the same pointer for the instance's whole life and
 * owned by it; NULL for NULL.
 */
DOCA_STABLE
struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma);

/**
 * @brief Whether a device can run DMA memcpy tasks.
 *
 * Any time, any thread.
 *
 * @param devinfo the device.
 * @return DOCA_SUCCESS when it can;
 * DOCA_ERROR_NOT_SUPPORTED when it cannot (a profile without DMA);
 * DOCA_ERROR_INVALID_VALUE when @p devinfo is NULL.
 */
DOCA_STABLE
doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The largest task pool doca_dma_task_memcpy_set_conf() accepts for this instance.
 *
 * Takes the instance, not a device.  65536 with the built-in profiles.
 *
 * @param dma the instance.
 * @param max_num_tasks receives the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks);

/**
 * @brief The most buffers a memcpy task's source list, and separately its destination list, may hold.
 *
 * 64 with the built-in profiles.  Any time, any thread.
 *
 * @param devinfo the device.
 * @param max_buf_list_len receives the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_dma_cap_task_memcpy_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len);

/**
 * @brief The most bytes one memcpy task may copy (its whole source, summed over the list).
 *
 * 2 GiB with the built-in profiles.  Any time, any thread.
 *
 * @param devinfo the device.
 * @param buf_size receives the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *buf_size);

/**
 * @brief Enables memcpy tasks: their callbacks and the pool size allocated at the next start.
 *
 * IDLE only; calling it again replaces the previous configuration.  A DMA
 * context cannot start without it.
 *
 * @param dma the instance.
 * @param task_completion_cb called for each task that succeeded.
 * @param task_error_cb called for each task that failed or was flushed.
 * @param num_memcpy_tasks the pool size: 1 to doca_dma_cap_get_max_num_tasks().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p dma or a callback is NULL or the count is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma,
					   doca_dma_task_memcpy_completion_cb_t task_completion_cb,
					   doca_dma_task_memcpy_completion_cb_t task_error_cb,
					   uint32_t num_memcpy_tasks);

/**
 * @brief Asks for completions in submission order, or lets the device report them in any order.
 *
 * IDLE only.  softdoca reports the tasks of one context in submission order
 * either way.
 *
 * @param dma the instance.
 * @param ordered_completions nonzero for submission order, 0 for any order.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p dma is NULL or not a live instance;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_dma_set_ordered_completions(struct doca_dma *dma, uint8_t ordered_completions);

/**
 * @brief Takes a memcpy task from the pool of a RUNNING instance.
 *
 * The buffers are only stored (they may be NULL and set later); they are
 * checked when the task runs, or by doca_task_try_submit().  A task copies the
 * data segments of the source list, in order, and appends them after the data
 * of the destination list, filling each destination buffer to its end before
 * the next; each destination's data length grows by what it received.  The
 * rules, whose breach fails the task: both buffers set; each list at most
 * doca_dma_cap_task_memcpy_get_max_buf_list_len() long; some source data, at
 * most doca_dma_cap_task_memcpy_get_max_buf_size() bytes; enough free space
 * after the destination data (all DOCA_ERROR_INVALID_VALUE); every mmap
 * started and usable from the instance's device, the destination writable
 * (DOCA_ERROR_NOT_PERMITTED).  The buffers' reference counts do not change.
 * Allowed in task callbacks and in the state callback entering RUNNING.
 *
 * @param dma the instance.
 * @param src the source buffer or head of a buffer list.
 * @param dst the destination buffer or head of a buffer list.
 * @param user_data handed to the task's callbacks.
 * @param task receives the task, owned by the application until submitted;
 * return it with doca_task_free().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p dma or @p task is NULL;
 * DOCA_ERROR_BAD_STATE when the context is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated (free one first).
 */
DOCA_STABLE
doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma,
					     const struct doca_buf *src,
					     struct doca_buf *dst,
					     union doca_data user_data,
					     struct doca_dma_task_memcpy **task);

/**
 * @brief The generic view of a memcpy task, for the doca_task_*() calls.
 *
 * @param task the memcpy task.
 * @return the same task as struct doca_task; NULL for NULL.
 */
DOCA_STABLE
struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task);

/**
 * @brief Replaces the source of a task the application holds (for example before resubmitting it).
 *
 * Not checked until the task runs.  NULL task: ignored; a task in flight:
 * ignored and logged.
 *
 * @param task the task.
 * @param src the new source (may be NULL).
 */
DOCA_STABLE
void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src);

/**
 * @brief The source stored in a task.
 *
 * @param task the task.
 * @return the source buffer, possibly NULL; NULL for NULL.
 */
DOCA_STABLE
const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task);

/**
 * @brief Replaces the destination of a task the application holds.
 *
 * Not checked until the task runs.  NULL task: ignored; a task in flight:
 * ignored and logged.
 *
 * @param task the task.
 * @param dst the new destination (may be NULL).
 */
DOCA_STABLE
void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst);

/**
 * @brief The destination stored in a task; after its success callback it holds the copied data.
 *
 * @param task the task.
 * @return the destination buffer, possibly NULL; NULL for NULL.
 */
DOCA_STABLE
struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task);

/**
 * @brief Would give the GPU-side handle of an instance; softdoca has no GPU data path.
 *
 * @param dma the instance.
 * @param gpu_dma receives the handle.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE otherwise (no GPU data path was set).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **gpu_dma);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_DMA_H_ */
