/*
 * mmap_register.c - doca_mmap_start registers the range as a card would:
 * every page resident, and pinned where the process may lock memory.
 *
 * Which mmaps: those that list at least one device (without a device no
 * engine ever copies the memory), whose range is ordinary host memory (not
 * GPU memory, which the CPU must never touch, and not a dma-buf range,
 * whose exporter owns residency).  Which mode: the most thorough among the
 * listed devices' topology key `mmap_register`; a device without the key
 * takes SOFTDOCA_MMAP_REGISTER, read at every start (pin when unset).
 *
 * The range is faulted in for writing when the access mask grants any
 * write right, for reading otherwise, so that a read-only mapping can be
 * registered read-only and a read-only mapping given write rights is
 * refused, as a card's registration refuses it.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_mmap.h>

#include "mem_priv.h"
#include "mmap_register.h"
#include "sd_clock.h"
#include "sd_dev.h"
#include "sd_engine.h"
#include "sd_log.h"
#include "sd_mem.h"

#define SD_REGISTER_ENV "SOFTDOCA_MMAP_REGISTER"

/* Milliseconds with a fraction: registration times go to the log as "%.3f ms". */
static double sd_now_ms(void)
{
	return (double)sd_mono_ns() / 1e6;
}

static const char *sd_register_mode_name(enum sd_mmap_register_mode m)
{
	switch (m) {
	case SD_MMAP_REGISTER_OFF:
		return "off";
	case SD_MMAP_REGISTER_POPULATE:
		return "populate";
	case SD_MMAP_REGISTER_PIN:
	case SD_MMAP_REGISTER_UNSET:
		break;
	}
	return "pin";
}

/* SOFTDOCA_MMAP_REGISTER now; an unknown value warns once per process and means pin. */
static enum sd_mmap_register_mode sd_register_mode_env(void)
{
	static atomic_bool warned;
	const char *v = getenv(SD_REGISTER_ENV);

	if (v == NULL || *v == '\0' || strcmp(v, "pin") == 0)
		return SD_MMAP_REGISTER_PIN;
	if (strcmp(v, "populate") == 0)
		return SD_MMAP_REGISTER_POPULATE;
	if (strcmp(v, "off") == 0)
		return SD_MMAP_REGISTER_OFF;
	if (!atomic_exchange(&warned, true))
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "doca_mmap_start",
				     "%s=%s is not pin, populate or off; mmaps are registered as with pin", SD_REGISTER_ENV,
				     v);
	return SD_MMAP_REGISTER_PIN;
}

/* The most thorough mode among the listed devices (the caller made sure there is one). */
static enum sd_mmap_register_mode sd_register_mode_of(const struct doca_mmap *mmap)
{
	enum sd_mmap_register_mode mode = SD_MMAP_REGISTER_UNSET, env = SD_MMAP_REGISTER_UNSET;

	for (uint32_t i = 0; i < mmap->num_devs; i++) {
		enum sd_mmap_register_mode m = (enum sd_mmap_register_mode)mmap->devs[i]->node->mmap_register;

		if (m == SD_MMAP_REGISTER_UNSET) {
			if (env == SD_MMAP_REGISTER_UNSET)
				env = sd_register_mode_env();
			m = env;
		}
		if (m > mode)
			mode = m;
	}
	return mode;
}

/* Why this start touches nothing, or NULL when it registers the range. */
static const char *sd_register_skip_reason(const struct doca_mmap *mmap)
{
	if (mmap->num_devs == 0)
		return "no device is listed, so no engine reaches the memory";
	if (mmap->mem_kind == SD_MEM_GPU)
		return "the range is GPU memory, which the CPU never touches";
	if (mmap->dmabuf)
		return "the range is a dma-buf, whose exporter keeps it resident";
	return NULL;
}

/* Any write right in the mask: pages are faulted in for writing. */
static bool sd_register_for_write(const struct doca_mmap *mmap)
{
	return sd_mmap_local_writable(mmap) || (mmap->access_mask & DOCA_ACCESS_FLAG_RDMA_ATOMIC) != 0;
}

/* Populate the range; one ERROR record on behalf of `func` when a page cannot be. */
static doca_error_t sd_register_populate(struct doca_mmap *mmap, const char *func, const char **method)
{
	bool write = sd_register_for_write(mmap);
	struct sd_resident_failure fail;
	doca_error_t err = sd_mem_make_resident(mmap->addr, mmap->len, write, SD_RESIDENT_AUTO, &fail, method);

	if (err != DOCA_SUCCESS)
		return SD_MEM_REJECT_AS(func, err,
					"mmap %p: the range %p + %zu bytes cannot be made resident for %s: %s. Register "
					"only memory that is mapped, with the rights of the access mask, or set %s=off "
					"to register without touching it",
					(void *)mmap, (void *)mmap->addr, mmap->len, write ? "writing" : "reading",
					fail.why, SD_REGISTER_ENV);
	return DOCA_SUCCESS;
}

doca_error_t sd_mmap_register(struct doca_mmap *mmap)
{
	const char *skip = sd_register_skip_reason(mmap), *method = "";
	enum sd_mmap_register_mode mode;
	char why[256] = "";
	double t0, t1, t2;
	doca_error_t err;

	mmap->reg_mode = SD_MMAP_REGISTER_OFF;
	mmap->reg_resident = false;
	mmap->reg_pinned = false;
	if (skip != NULL) {
		SD_MEM_DEBUG_AS("doca_mmap_start", "mmap %p: range %p + %zu left untouched: %s", (void *)mmap,
				(void *)mmap->addr, mmap->len, skip);
		return DOCA_SUCCESS;
	}
	mode = sd_register_mode_of(mmap);
	if (mode == SD_MMAP_REGISTER_OFF) {
		SD_MEM_DEBUG_AS("doca_mmap_start", "mmap %p: range %p + %zu left untouched: registration is off (%s or "
				"the topology's mmap_register)", (void *)mmap, (void *)mmap->addr, mmap->len,
				SD_REGISTER_ENV);
		return DOCA_SUCCESS;
	}
	t0 = sd_now_ms();
	sd_mmap_share(mmap); /* first: the pages populated and pinned are then the shared ones */
	err = sd_register_populate(mmap, "doca_mmap_start", &method);
	if (err != DOCA_SUCCESS) {
		sd_mmap_unshare(mmap);
		return err;
	}
	t1 = sd_now_ms();
	if (mode == SD_MMAP_REGISTER_PIN)
		mmap->reg_pinned = sd_mem_pin(mmap, mmap->addr, mmap->len, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s=populate", SD_REGISTER_ENV);
	t2 = sd_now_ms();
	mmap->reg_mode = (uint8_t)mode;
	mmap->reg_resident = true;
	SD_MEM_DEBUG_AS("doca_mmap_start",
			"mmap %p (registration %s): %zu bytes at %p %smade resident in %.3f ms (%s); %s%s in %.3f ms",
			(void *)mmap, sd_register_mode_name(mode), mmap->len, (void *)mmap->addr,
			mmap->reg_shared ? "moved onto a shared memfd and " : "", t1 - t0, method,
			mmap->reg_pinned ? "pinned" : "not pinned: ", mmap->reg_pinned ? "" : why, t2 - t1);
	return DOCA_SUCCESS;
}

void sd_mmap_unregister(struct doca_mmap *mmap)
{
	if (mmap->reg_pinned)
		sd_mem_unpin(mmap);
	sd_mmap_unshare(mmap);
	mmap->reg_pinned = false;
	mmap->reg_resident = false;
	mmap->reg_mode = SD_MMAP_REGISTER_OFF;
}

doca_error_t sd_mmap_register_for_export(struct doca_mmap *mmap, const char *func)
{
	const char *method = "";
	double t0;
	doca_error_t err;

	if (!mmap->reg_resident)
		return DOCA_SUCCESS; /* registration is off for this mmap: the exporter touches nothing either */
	if (mmap->reg_pinned)
		return DOCA_SUCCESS; /* locked pages cannot have left memory since start */
	t0 = sd_now_ms();
	err = sd_register_populate(mmap, func, &method);
	if (err == DOCA_SUCCESS)
		SD_MEM_DEBUG_AS(func, "mmap %p: the exported %zu bytes at %p are resident (%s, %.3f ms)", (void *)mmap,
				mmap->len, (void *)mmap->addr, method, sd_now_ms() - t0);
	return err;
}
