/*
 * cuda_priv.h - what the files of the cuda engine share.
 *
 * cuda_loader.c opens the driver once per process; cuda_queue.c runs the
 * copies of started DMA contexts; cuda_mem.c pins and classifies mmap
 * memory.  Nothing here leaves libdoca_common.
 */
#ifndef SD_CUDA_PRIV_H
#define SD_CUDA_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda_api.h"
#include "sd_engine.h"

/*
 * The loaded driver, or NULL with the reason in `why` (library missing,
 * symbol missing, cuInit failed, CUDA disabled by SOFTDOCA_CUDA_LIB=none).
 * The first call loads; later calls return the same outcome.
 */
const struct sd_cuda_api *sd_cuda_load(char *why, size_t why_len);

/* A short text for a driver result ("CUDA_ERROR_NOT_READY"-like). */
const char *sd_cuda_error_text(sd_cu_result res);

/* Canonical "dddd:bb:dd.f" of a GPU; false when the driver cannot say. */
bool sd_cuda_pci_addr(sd_cu_device dev, char out[16]);

/* The GPU ordinal at canonical `pci_addr`, or -1. */
int sd_cuda_find_device(const char *pci_addr);

/*
 * The GPU's primary context, retained on first use (takes a lock: call it
 * when a queue opens, not per task).  The primary context is the one the
 * CUDA runtime uses, so device pointers from cudaMalloc are valid in it.
 */
sd_cu_ctx sd_cuda_context(sd_cu_device dev, char *why, size_t why_len);

/* Make `ctx` current on this thread (no lock); sd_cuda_leave undoes it. */
bool sd_cuda_push(sd_cu_ctx ctx);

/* sd_cuda_context + sd_cuda_push, for the calls that are not per task. */
bool sd_cuda_enter(sd_cu_device dev, char *why, size_t why_len);
void sd_cuda_leave(void);

struct sd_device;

/* cuda_mem.c: the engine's mem_attach / mem_detach (see sd_engine.h). */
doca_error_t sd_cuda_mem_attach(const struct sd_device *node, void *addr, size_t len, enum sd_mem_kind *kind,
				void **reg, char *why, size_t why_len);
void sd_cuda_mem_detach(void *reg);

/* cuda_queue.c: the asynchronous operations of the engine. */
extern const struct sd_engine_async sd_cuda_async;

#endif /* SD_CUDA_PRIV_H */
