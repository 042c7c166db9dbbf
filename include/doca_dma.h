/*
 * doca_dma.h - DOCA DMA: a context that copies memory between DOCA buffers.
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
struct doca_gpu_dma;

/* One memcpy task; its generic view comes from doca_dma_task_memcpy_as_task. */
struct doca_dma_task_memcpy;

/*
 * Signature of both the success and the error callback of memcpy tasks.
 * Called only from doca_pe_progress, with the task already back in the
 * application's hands; the error status is read with doca_task_get_status.
 */
typedef void (*doca_dma_task_memcpy_completion_cb_t)(struct doca_dma_task_memcpy *task,
						     union doca_data task_user_data,
						     union doca_data ctx_user_data);

/* A DMA instance. */
struct doca_dma;

/* Create an IDLE DMA instance bound to an open device. */
DOCA_STABLE
doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma);

/* Destroy an instance whose context is IDLE. */
DOCA_STABLE
doca_error_t doca_dma_destroy(struct doca_dma *dma);

/* The generic context embedded in the instance (same pointer for its whole life). */
DOCA_STABLE
struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma);

/* DOCA_SUCCESS when the device can run memcpy tasks, DOCA_ERROR_NOT_SUPPORTED if not. */
DOCA_STABLE
doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo);

/* Largest task count that doca_dma_task_memcpy_set_conf accepts for this instance. */
DOCA_STABLE
doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks);

/* Largest number of elements in the source list, and separately in the destination list. */
DOCA_STABLE
doca_error_t doca_dma_cap_task_memcpy_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len);

/* Largest number of bytes one memcpy task may copy. */
DOCA_STABLE
doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *buf_size);

/* Enable memcpy tasks: callbacks and the pool size used at the next start (IDLE only). */
DOCA_STABLE
doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma,
					   doca_dma_task_memcpy_completion_cb_t task_completion_cb,
					   doca_dma_task_memcpy_completion_cb_t task_error_cb,
					   uint32_t num_memcpy_tasks);

/*
 * Ask for completions in submission order (nonzero) or allow the engine to
 * report them in any order (0); IDLE only (DOCA 3.2).  softdoca reports the
 * tasks of one context in submission order either way.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_dma_set_ordered_completions(struct doca_dma *dma, uint8_t ordered_completions);

/* Take a task from the pool of a RUNNING instance; buffers are checked at execution. */
DOCA_STABLE
doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma,
					     const struct doca_buf *src,
					     struct doca_buf *dst,
					     union doca_data user_data,
					     struct doca_dma_task_memcpy **task);

/* The generic view of a memcpy task, for the doca_task_* calls. */
DOCA_STABLE
struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task);

/* Replace the source of a task the application holds. */
DOCA_STABLE
void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src);

DOCA_STABLE
const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task);

/* Replace the destination of a task the application holds. */
DOCA_STABLE
void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst);

DOCA_STABLE
struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task);

/* GPU-side handle of the instance; softdoca has no GPU datapath, so never available. */
DOCA_EXPERIMENTAL
doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **gpu_dma);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_DMA_H_ */
