/*
 * doca_mmap_advise.h - hints about memory that a device has written.
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
struct doca_mmap_advise;
struct doca_buf;
struct doca_task;
struct doca_mmap_advise_task_invalidate_cache;

/* Success or error callback of an invalidate-cache task. */
typedef void (*doca_mmap_advise_task_invalidate_cache_completion_cb_t)(
	struct doca_mmap_advise_task_invalidate_cache *task,
	union doca_data task_user_data,
	union doca_data ctx_user_data);

/* New IDLE instance on `dev`, not yet connected to a PE. */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise);

/* Frees an instance whose context is IDLE. */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise);

/* The generic context of the instance (NULL for NULL). */
DOCA_EXPERIMENTAL
struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise);

/* DOCA_SUCCESS when the device runs invalidate-cache tasks, NOT_SUPPORTED otherwise. */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo);

/* Largest buffer, in bytes, that one invalidate-cache task accepts. */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo,
								     uint64_t *buf_size);

/* Callbacks and pool size of invalidate-cache tasks; context must be IDLE. */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
	struct doca_mmap_advise *mmap_advise,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb,
	uint32_t num_tasks);

/* Takes a task from the pool (context RUNNING) and points it at `buf`. */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(struct doca_mmap_advise *mmap_advise,
							       struct doca_buf *buf,
							       union doca_data user_data,
							       struct doca_mmap_advise_task_invalidate_cache **task);

/* Generic view used with doca_task_submit, doca_task_free and friends. */
DOCA_EXPERIMENTAL
struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(
	struct doca_mmap_advise_task_invalidate_cache *task);

/* Replace the buffer of a task that is not in flight. */
DOCA_EXPERIMENTAL
void doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
						    struct doca_buf *buf);

DOCA_EXPERIMENTAL
struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(
	const struct doca_mmap_advise_task_invalidate_cache *task);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_MMAP_ADVISE_H_ */
