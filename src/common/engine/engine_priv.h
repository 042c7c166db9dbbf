/*
 * engine_priv.h - the engines built into libdoca_common.
 */
#ifndef SD_ENGINE_PRIV_H
#define SD_ENGINE_PRIV_H

#include "sd_engine.h"

/* cpu.c: copies on the calling thread (the default). */
extern const struct sd_engine sd_cpu_engine;

#endif /* SD_ENGINE_PRIV_H */
