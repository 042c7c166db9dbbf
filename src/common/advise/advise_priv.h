/*
 * advise_priv.h - the mmap-advise instance and its invalidate-cache task.
 *
 * An mmap-advise instance is a generic context (struct doca_ctx first) with
 * one task type.  Software writes are already coherent with the CPU caches,
 * so executing the task is a validated no-op followed by a full fence.
 */
#ifndef SD_ADVISE_PRIV_H
#define SD_ADVISE_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <doca_mmap_advise.h>

#include "sd_dev.h"
#include "sd_exec.h"

#define SD_ADVISE_MAGIC 0x41445630u /* "ADV0" */

/* Index of the invalidate-cache task type in the context's task table. */
#define SD_ADVISE_INVALIDATE_TYPE 0

struct doca_mmap_advise {
	struct doca_ctx ctx; /* must stay first: doca_mmap_advise_as_ctx returns it */
	uint32_t magic;      /* SD_ADVISE_MAGIC while the instance exists */
	const struct sd_device *node;
	uint64_t max_buf_size; /* cached from the device profile */
	uint32_t max_tasks;    /* pool size limit (the device's task limit) */
};

struct doca_mmap_advise_task_invalidate_cache {
	struct doca_task base; /* must stay first: the framework hands us doca_task */
	struct doca_buf *buf;
};

extern const struct sd_ctx_ops sd_advise_ctx_ops;
extern const struct sd_task_ops sd_advise_invalidate_ops;

static inline bool sd_advise_is_valid(const struct doca_mmap_advise *advise)
{
	/* The embedded context's first word first: a smaller foreign object is never read past its end. */
	return advise != NULL && advise->ctx.magic == SD_CTX_MAGIC && advise->ctx.ops == &sd_advise_ctx_ops &&
	       advise->magic == SD_ADVISE_MAGIC;
}

#endif /* SD_ADVISE_PRIV_H */
