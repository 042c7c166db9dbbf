/*
 * engine_priv.h - the engines built into libdoca_common.
 */
#ifndef SD_ENGINE_PRIV_H
#define SD_ENGINE_PRIV_H

#include "sd_engine.h"

/* cpu.c: copies on the calling thread (the default). */
extern const struct sd_engine sd_cpu_engine;

/* workers/workers_queue.c: the cpu engine's copies on library threads. */
extern const struct sd_engine sd_workers_engine;

/* cuda/cuda_queue.c: a GPU's copy engines through the CUDA driver. */
extern const struct sd_engine sd_cuda_engine;

#endif /* SD_ENGINE_PRIV_H */
