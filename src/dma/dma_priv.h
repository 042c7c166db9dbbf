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

/* No remembered start period: start_seq is 0 or counts up from 1. */
#define SD_DMA_NO_SEQ UINT64_MAX

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
	struct sd_engine_queue *queue; /* asynchronous engines: open while started */
	/*
	 * What every task reads, within one line (the instance is allocated on
	 * a line, sd_lines.h; checked below).  V2 and V4 for a one-element
	 * task: max_buf_size, or 0 when no list fits.
	 */
	uint64_t max_one_total;
	/* The engine's one-range local copy (NULL when it has none). */
	void (*copy_local)(uint8_t *dst, const uint8_t *src, size_t len);
	/*
	 * start_seq of the last started local mmaps seen to pass the mmap
	 * rules here: V6 and V8 as a source, V7 and V9 as a destination.
	 * SD_DMA_NO_SEQ until then, a value no map ever has.  Written only by
	 * the thread that progresses the instance's PE.
	 */
	uint64_t ok_src_seq;
	uint64_t ok_dst_seq;
	bool ordered_completions; /* doca_dma_set_ordered_completions (dma_ordered.c) */
};

/* The per-task fields share a line of the line-allocated instance. */
_Static_assert(offsetof(struct doca_dma, max_one_total) / SD_LINE ==
		       (offsetof(struct doca_dma, ok_dst_seq) + sizeof(uint64_t) - 1) / SD_LINE,
	       "a DMA instance's per-task fields share one line");

struct doca_dma_task_memcpy {
	struct doca_task base; /* must stay first: the framework hands us doca_task */
	const struct doca_buf *src;
	struct doca_buf *dst;
	/* Asynchronous engines: bytes reserved on dst (dma_reserved) at submit. */
	uint64_t reserved;
};

/* Framework tables (dma_instance.c, dma_memcpy.c, dma_memcpy_async.c). */
extern const struct sd_ctx_ops sd_dma_ctx_ops;
extern const struct sd_task_ops sd_dma_memcpy_ops;       /* cpu engine: copies inside doca_pe_progress */
extern const struct sd_task_ops sd_dma_memcpy_async_ops; /* asynchronous engines (workers, cuda) */

/* The copy of one memcpy task, described for an engine (on the stack). */
struct sd_dma_segs {
	struct sd_seg src[SD_DMA_LIST_MAX];
	struct sd_seg dst[SD_DMA_LIST_MAX];
	struct doca_buf *dst_buf[SD_DMA_LIST_MAX];
	struct sd_copy_job job;
};

/* dma_memcpy.c, shared with the asynchronous path. */
doca_error_t sd_dma_memcpy_validate(struct doca_task *task);
/*
 * Check rules V1..V9 and describe the copy without moving a byte.  The
 * destination's first `skip` bytes of tail space are taken already (bytes
 * of earlier tasks still in flight): they count against V5 and the copy
 * lands after them.
 */
doca_error_t sd_dma_memcpy_describe(struct doca_task *task, uint64_t skip, struct sd_dma_segs *out);
/*
 * The common task on an asynchronous engine: one source range into one
 * destination range, on maps that passed V6..V9 (local, or imports),
 * sizes passing V1..V5 with `skip` bytes of the destination taken.  true
 * with the copy's two segments (an import's carry its mmap); false means
 * "take the general path" (which names a broken rule, if any).
 */
bool sd_dma_memcpy_one(struct doca_dma *dma, const struct doca_dma_task_memcpy *t, uint64_t skip,
		       struct sd_seg *from, struct sd_seg *to);
void sd_dma_memcpy_complete(struct doca_task *task, doca_error_t status);
void sd_dma_memcpy_invoke(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud, void (*cb)(void));

/* The list-length limit applied to a device's profile value. */
static inline uint32_t sd_dma_clamp_list_len(uint32_t profile_len)
{
	return profile_len < SD_DMA_LIST_MAX ? profile_len : SD_DMA_LIST_MAX;
}

/* True when `dma` is a live DMA instance of this process. */
static inline bool sd_dma_is_valid(const struct doca_dma *dma)
{
	/* The embedded context's first word first: a smaller foreign object is never read past its end. */
	return dma != NULL && dma->ctx.magic == SD_CTX_MAGIC && dma->ctx.ops == &sd_dma_ctx_ops &&
	       dma->magic == SD_DMA_MAGIC;
}

/* The DMA instance that owns a memcpy task (base.ctx is its embedded ctx). */
static inline struct doca_dma *sd_dma_of_task(const struct doca_task *task)
{
	return (struct doca_dma *)task->ctx;
}

#endif /* SD_DMA_PRIV_H */
