/*
 * dma_priv.h - the DOCA DMA instance and memcpy task as libdoca_dma sees them.
 *
 * A DMA instance is a generic context (struct doca_ctx, first member) plus
 * what the memcpy path reads on every task: the engine of its device and the
 * device's limits, cached at creation because the topology never changes
 * while a process runs.
 */
#ifndef SD_DMA_PRIV_H
#define SD_DMA_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <doca_dma.h>

#include "sd_dev.h"
#include "sd_engine.h"
#include "sd_exec.h"
#include "sd_mem.h"

/*
 * Hard upper bound on the elements of one source or destination list.  The
 * execution path keeps its segment arrays on the stack, so this bound is a
 * compile-time constant; a profile asking for more is clamped to it, and the
 * capability query reports the clamped value.
 */
#define SD_DMA_LIST_MAX 128u

#define SD_DMA_MAGIC 0x444d4130u /* "DMA0" */

/* Index of the memcpy task type in the context's task table. */
#define SD_DMA_MEMCPY_TYPE 0

struct doca_dma {
	struct doca_ctx ctx; /* must stay first: doca_dma_as_ctx returns it */
	uint32_t magic;      /* SD_DMA_MAGIC while the instance exists */
	const struct sd_device *node;
	const struct sd_engine *engine;
	uint32_t max_list_len; /* min(profile, SD_DMA_LIST_MAX) */
	uint64_t max_buf_size;
	uint32_t max_tasks;
};

struct doca_dma_task_memcpy {
	struct doca_task base; /* must stay first: the framework hands us doca_task */
	const struct doca_buf *src;
	struct doca_buf *dst;
	struct sd_async_job job; /* worker mode only */
};

/* Framework tables (dma_ctx.c, dma_memcpy.c). */
extern const struct sd_ctx_ops sd_dma_ctx_ops;
extern const struct sd_task_ops sd_dma_memcpy_ops;
extern const struct sd_task_ops sd_dma_memcpy_worker_ops; /* SOFTDOCA_DMA_WORKERS > 0 */

/* The list-length limit applied to a device's profile value. */
static inline uint32_t sd_dma_clamp_list_len(uint32_t profile_len)
{
	return profile_len < SD_DMA_LIST_MAX ? profile_len : SD_DMA_LIST_MAX;
}

/* True when `dma` is a live DMA instance of this process. */
static inline bool sd_dma_is_valid(const struct doca_dma *dma)
{
	return dma != NULL && dma->magic == SD_DMA_MAGIC && dma->ctx.ops == &sd_dma_ctx_ops;
}

/* The DMA instance that owns a memcpy task (base.ctx is its embedded ctx). */
static inline struct doca_dma *sd_dma_of_task(const struct doca_task *task)
{
	return (struct doca_dma *)task->ctx;
}

#endif /* SD_DMA_PRIV_H */
