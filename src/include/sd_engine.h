/*
 * sd_engine.h - the engine interface: what moves the bytes of a copy job.
 *
 * A DMA memcpy task becomes a copy job: a source list and a destination
 * list of segments.  Each segment is either local memory (a pointer the
 * process can dereference) or remote memory reached through an imported
 * mmap's access hooks.  The library validates the task, builds the job and
 * hands it to the engine of its device; it never calls memcpy itself.
 *
 * Engines (src/common/engine): `cpu` (default, copies inside
 * doca_pe_progress), later `xproc` and `cuda`.
 */
#ifndef SD_ENGINE_H
#define SD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "sd_visibility.h"

struct doca_mmap;

struct sd_seg {
	uint8_t *addr;          /* local pointer, or exporter address if remote */
	size_t len;
	struct doca_mmap *mmap; /* non-NULL only for remote (imported) memory */
};

struct sd_copy_job {
	const struct sd_seg *src;
	uint32_t nsrc;
	const struct sd_seg *dst;
	uint32_t ndst;
	uint64_t total; /* bytes to move: sum of src lengths, fits in dst */
};

struct sd_engine {
	const char *name;
	/*
	 * Move every byte of `job` now, on the calling thread.  Sources are
	 * concatenated into the destinations in order, each destination filled
	 * to its length before the next.  memmove semantics within a segment
	 * pair.  Returns DOCA_SUCCESS or DOCA_ERROR_IO_FAILED.
	 */
	doca_error_t (*copy)(const struct sd_copy_job *job);
	/*
	 * Optional fast path for the most common job: one local source range
	 * into one local destination range (no imported memory).  Same result
	 * as `copy` with a one-segment job, without building one.
	 */
	void (*copy_local)(uint8_t *dst, const uint8_t *src, size_t len);
};

/*
 * Worker threads of the cpu engine (opt-in: SOFTDOCA_DMA_WORKERS=N, D-35).
 * A library posts a job from its submit path; a worker runs it later on
 * its own thread.  Jobs never call application code (D-31): they record an
 * outcome and wake the PE.
 */
struct sd_async_job {
	struct sd_async_job *next;
	void (*run)(struct sd_async_job *job);
};

/* Number of worker threads configured (0: copies run inside progress). */
SD_PRIV unsigned priv_doca_engine_workers(void);

/* Queue `job` for a worker thread (threads start on the first post). */
SD_PRIV void priv_doca_engine_post(struct sd_async_job *job);

/*
 * Withdraw `job` if no worker has taken it yet: true when it was removed
 * (it will never run), false when a worker has it or already ran it.
 */
SD_PRIV bool priv_doca_engine_cancel(struct sd_async_job *job);

/* The engine named `name` ("cpu", ...), or NULL. */
SD_PRIV const struct sd_engine *priv_doca_engine_find(const char *name);

/* The engine used when the topology names none (honours SOFTDOCA_ENGINE). */
SD_PRIV const struct sd_engine *priv_doca_engine_default(void);

#endif /* SD_ENGINE_H */
