/*
 * engine.c - the registry of engines and the choice of the default one.
 *
 * The topology names an engine per device; when it names none, the default
 * applies: SOFTDOCA_ENGINE if it names a known engine, otherwise `cpu`.  An
 * unknown name is a configuration mistake, so it is reported once (one
 * WARNING per process) and the run continues on `cpu`.  `cuda` is never a
 * default: it serves only the GPU devices that name it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine_priv.h"
#include "sd_debug.h"
#include "sd_dev.h"
#include "sd_log.h"

static const struct sd_engine *const sd_engines[] = {
	&sd_cpu_engine,
	&sd_cuda_engine,
};

const struct sd_engine *priv_doca_engine_find(const char *name)
{
	if (name == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof(sd_engines) / sizeof(sd_engines[0]); i++)
		if (strcmp(sd_engines[i]->name, name) == 0)
			return sd_engines[i];
	return NULL;
}

static pthread_once_t sd_engine_once = PTHREAD_ONCE_INIT;
static const struct sd_engine *sd_engine_chosen;

static void sd_engine_choose(void)
{
	const char *name = getenv("SOFTDOCA_ENGINE");
	const struct sd_engine *e;

	sd_engine_chosen = &sd_cpu_engine;
	if (name == NULL || name[0] == '\0')
		return;
	e = priv_doca_engine_find(name);
	if (e != NULL && e->async != NULL) {
		/* A GPU engine cannot move a BlueField's bytes: it is chosen per device. */
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca engine selection",
				     "SOFTDOCA_ENGINE=%s drives GPU devices only (name it with engine = %s in the "
				     "topology); using the cpu engine",
				     name, name);
		return;
	}
	if (e != NULL) {
		sd_engine_chosen = e;
		return;
	}
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca engine selection",
			     "SOFTDOCA_ENGINE=%s names no known engine; using the cpu engine", name);
}

const struct sd_engine *priv_doca_engine_default(void)
{
	(void)pthread_once(&sd_engine_once, sd_engine_choose);
	return sd_engine_chosen;
}

/*
 * A completion delay armed by fault injection holds back only the worker
 * engine's completions: say once which of the two a DMA context got, so a
 * delay that delays nothing is not a silent no-op.
 */
static void sd_engine_note_fault_delay(bool async)
{
	static atomic_bool told;
	uint32_t max_us;
	uint64_t seed;

	if (!sd_faults_delay(&max_us, &seed) || max_us == 0 || atomic_exchange(&told, true))
		return;
	if (async)
		priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, "SOFTDOCA_FAULTS",
				  "delay=%u: completions of DMA contexts on the workers engine are held back up to %u "
				  "microseconds (seed %llu)",
				  max_us, max_us, (unsigned long long)seed);
	else
		priv_doca_sdk_log(DOCA_LOG_LEVEL_WARNING, "SOFTDOCA_FAULTS",
				  "delay=%u delays only the completions of DMA contexts on the workers engine, and this "
				  "DMA context's device runs on another one (neither SOFTDOCA_DMA_WORKERS nor the "
				  "device's dma_workers selects workers): its completions are not delayed",
				  max_us);
}

const struct sd_engine *priv_doca_engine_for_dma(const struct sd_device *node)
{
	const struct sd_engine *e = node->engine != NULL ? node->engine : priv_doca_engine_default();

	if (e == &sd_cpu_engine && priv_doca_engine_workers_for(node) > 0)
		e = &sd_workers_engine;
	sd_engine_note_fault_delay(e == &sd_workers_engine);
	return e;
}
