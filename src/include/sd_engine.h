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
 * doca_pe_progress), `workers` (the cpu engine's asynchronous form: copies
 * on library threads, chosen per device by SOFTDOCA_DMA_WORKERS or the
 * topology's dma_workers) and `cuda` (a GPU's copy engines).  The last two
 * are asynchronous: see struct sd_engine_async below.
 */
#ifndef SD_ENGINE_H
#define SD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "sd_visibility.h"

struct doca_mmap;
struct sd_device;

struct sd_seg {
	uint8_t *addr;          /* local pointer, or exporter address if remote */
	size_t len;
	struct doca_mmap *mmap; /* non-NULL only for remote (imported) memory */
	bool gpu;               /* addr is GPU memory (a unified device address) */
};

struct sd_copy_job {
	const struct sd_seg *src;
	uint32_t nsrc;
	const struct sd_seg *dst;
	uint32_t ndst;
	uint64_t total; /* bytes to move: sum of src lengths, fits in dst */
};

/* One source range into one destination range, both large enough for the total (local or imported). */
static inline bool sd_copy_job_is_one_range(const struct sd_copy_job *job)
{
	return job->nsrc == 1 && job->ndst == 1 && job->total <= job->src[0].len && job->total <= job->dst[0].len;
}

/*
 * The most common job: one local range into one local range, both large
 * enough for the total.  Engines copy it in one call instead of walking
 * the segment lists.
 */
static inline bool sd_copy_job_is_one_local(const struct sd_copy_job *job)
{
	return sd_copy_job_is_one_range(job) && job->src[0].mmap == NULL && job->dst[0].mmap == NULL;
}

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
	/* Asynchronous engines only (NULL for cpu): see below. */
	const struct sd_engine_async *async;
};

/*
 * Asynchronous engines move bytes on hardware queues.  A DMA context opens
 * one queue when it starts, with one completion slot per task of its pool
 * (slot = the task's index in the pool, so nothing is allocated per task).
 * A task's copy starts at submit and is polled inside doca_pe_progress.
 */
struct sd_engine_queue; /* the engine's state for one started context */

/* What a started mmap's memory is, as told by an engine that can tell. */
enum sd_mem_kind {
	SD_MEM_HOST = 0, /* ordinary host memory (the default) */
	SD_MEM_GPU = 1,  /* GPU memory: the CPU must never dereference it */
};

struct sd_engine_async {
	/*
	 * Resolve a topology device to the engine's unit (cuda: the GPU at
	 * `pci_addr`).  false with a reason in `why` when the device is not
	 * there or the engine cannot run on this machine.
	 */
	bool (*bind)(const char *pci_addr, int *unit, char *why, size_t why_len);
	/* A context on `node` starts with `depth` task slots; reason in `why`. */
	doca_error_t (*queue_open)(const struct sd_device *node, uint32_t depth, struct sd_engine_queue **out,
				   char *why, size_t why_len);
	/* The context stopped: every started slot has been polled or waited. */
	void (*queue_close)(struct sd_engine_queue *q);
	/* Start `job` in `slot`; IO_FAILED when the hardware refused it. */
	doca_error_t (*start)(struct sd_engine_queue *q, uint32_t slot, const struct sd_copy_job *job);
	/*
	 * Optional: the same for the most common job, one local range into one
	 * local range, without building a job first.
	 */
	doca_error_t (*start_one)(struct sd_engine_queue *q, uint32_t slot, uint8_t *dst, const uint8_t *src,
				  size_t len);
	/*
	 * Optional: make `job` at once on the submitting thread, when the
	 * engine judges that cheaper than queueing it (workers: a small copy,
	 * nothing of the queue still in flight, and the program's thread
	 * driving the queue itself).  true with the outcome in *status: the
	 * task takes no slot and is ready at once; false: start it.
	 */
	bool (*run_now)(struct sd_engine_queue *q, const struct sd_copy_job *job, doca_error_t *status);
	/* Has `slot` finished?  true with its outcome (SUCCESS or IO_FAILED). */
	bool (*poll)(struct sd_engine_queue *q, uint32_t slot, doca_error_t *status);
	/* Block until `slot` has finished (a flushed task's copy). */
	void (*wait)(struct sd_engine_queue *q, uint32_t slot);
	/*
	 * Call wake(arg) once, from an engine thread, when `slot` finishes
	 * (doca_pe_request_notification with work in flight).  false when it
	 * could not be arranged; the caller then undoes its hold.
	 */
	bool (*arm)(struct sd_engine_queue *q, uint32_t slot, void (*wake)(void *arg), void *arg);
	/*
	 * An mmap over [addr, addr + len) starts with a device of this engine:
	 * tell its kind and make host memory reachable (pin it).  *reg is
	 * what mem_detach needs later (NULL when nothing is to be undone).
	 */
	doca_error_t (*mem_attach)(const struct sd_device *node, void *addr, size_t len, enum sd_mem_kind *kind,
				   void **reg, char *why, size_t why_len);
	void (*mem_detach)(void *reg);
};

/*
 * Worker threads of the cpu engine: SOFTDOCA_DMA_WORKERS (0 when unset), and
 * the number a device's DMA contexts use (its topology's dma_workers when
 * given).  A device with a non-zero count runs its DMA contexts on the
 * `workers` engine.
 */
SD_PRIV unsigned priv_doca_engine_workers(void);
SD_PRIV unsigned priv_doca_engine_workers_for(const struct sd_device *node);

/* The engine that runs DMA contexts of `node`: its own, or `workers` for a cpu device with workers. */
SD_PRIV const struct sd_engine *priv_doca_engine_for_dma(const struct sd_device *node);

/* The engine named `name` ("cpu", ...), or NULL. */
SD_PRIV const struct sd_engine *priv_doca_engine_find(const char *name);

/*
 * GPUs the cuda engine can drive on this machine, as canonical PCI
 * addresses ("dddd:bb:dd.f"), for the built-in topology.  Returns how many
 * were written (0 when CUDA is absent, disabled or has no device).
 */
unsigned sd_engine_cuda_enumerate(char (*addrs)[16], unsigned max);

/* The engine used when the topology names none (honours SOFTDOCA_ENGINE). */
SD_PRIV const struct sd_engine *priv_doca_engine_default(void);

#endif /* SD_ENGINE_H */
