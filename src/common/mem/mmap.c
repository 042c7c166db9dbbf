/*
 * mmap.c - local memory maps: configuration, lifecycle, devices, queries.
 *
 * The rules of each call are applied in the same order everywhere:
 * handle and pointer arguments, then the kind of map (imported or exported
 * maps are frozen), then the lifecycle state, then argument values, then
 * resources.  Export and import live in mmap_export.c.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "mem_priv.h"
#include "mmap_register.h"
#include "sd_debug.h"
#include "sd_dev.h"
#include "sd_engine.h"
#include "sd_log.h"
#include "sd_mem.h"

/* Default device limit of a new map (softdoca's choice). */
#define SD_MMAP_DEFAULT_MAX_DEVS 16u

/* Every bit enum doca_access_flag defines. */
#define SD_ACCESS_FLAGS_ALL 0x7Fu

/* Why a map refuses configuration because of what it is, or NULL. */
static const char *sd_mmap_frozen_reason(const struct doca_mmap *mmap)
{
	if (mmap->from_export)
		return "was created from an export";
	if (mmap->exported)
		return "has been exported";
	return NULL;
}

static const char *sd_mmap_state_name(const struct doca_mmap *mmap)
{
	switch (mmap->state) {
	case SD_MMAP_IDLE:
		return "idle";
	case SD_MMAP_STARTED:
		return "started";
	case SD_MMAP_STOPPED:
		return "stopped";
	}
	return "?";
}

/* Reject configuring an imported or exported map (legality matrix). */
#define SD_MMAP_REQUIRE_CONFIGURABLE_KIND(m)                                                       \
	do {                                                                                       \
		const char *sd_why_ = sd_mmap_frozen_reason(m);                                    \
		if (sd_why_ != NULL)                                                               \
			return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,                                 \
					 "mmap %p %s; it can only be queried, used or destroyed",  \
					 (void *)(m), sd_why_);                                    \
	} while (0)

/* Reject configuring a started map (legality matrix: BAD_STATE). */
#define SD_MMAP_REQUIRE_NOT_STARTED(m)                                                             \
	do {                                                                                       \
		if ((m)->state == SD_MMAP_STARTED)                                                 \
			return SD_REJECT(DOCA_ERROR_BAD_STATE,                                     \
					 "mmap %p is started; stop it before changing its configuration", \
					 (void *)(m));                                             \
	} while (0)

DOCA_STABLE
doca_error_t doca_mmap_create(struct doca_mmap **mmap)
{
	SD_MEM_REQUIRE_ARG(mmap, "mmap");

	struct doca_mmap *m = sd_lines_calloc(1, sizeof(*m));
	if (m == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a doca_mmap");

	m->magic = SD_MMAP_MAGIC;
	m->state = SD_MMAP_IDLE;
	m->access_mask = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE; /* the default mask: local read and write */
	m->max_devs = SD_MMAP_DEFAULT_MAX_DEVS;
	m->dmabuf_fd = -1;
	sd_alive_add(SD_ALIVE_MMAP, m); /* issue 12: what is alive */
	*mmap = m;
	return DOCA_SUCCESS;
}

/* Drop every device registration (and the dependency each one holds). */
static void sd_mmap_drop_devices(struct doca_mmap *mmap)
{
	for (uint32_t i = 0; i < mmap->num_devs; i++) {
		priv_doca_dev_dep_put(mmap->devs[i]);
		mmap->devs[i] = NULL;
	}
	mmap->num_devs = 0;
}

/*
 * Let the engine of a listed GPU device classify the range and pin host
 * memory (sd_engine.h, mem_attach).  GPU memory is refused when another
 * listed device copies with the CPU, which would dereference it.
 */
static doca_error_t sd_mmap_engine_attach(struct doca_mmap *mmap)
{
	const struct sd_device *gpu = NULL;
	const struct sd_device *cpu = NULL;
	enum sd_mem_kind kind = SD_MEM_HOST;
	char why[256] = "";
	doca_error_t err;
	void *reg = NULL;

	for (uint32_t i = 0; i < mmap->num_devs; i++) {
		const struct sd_device *node = mmap->devs[i]->node;

		if (node->engine != NULL && node->engine->async != NULL) {
			if (gpu == NULL)
				gpu = node;
		} else {
			cpu = node;
		}
	}
	mmap->mem_kind = SD_MEM_HOST;
	if (gpu == NULL)
		return DOCA_SUCCESS;
	err = gpu->engine->async->mem_attach(gpu, mmap->addr, mmap->len, &kind, &reg, why, sizeof(why));
	if (err != DOCA_SUCCESS)
		return SD_MEM_REJECT_AS("doca_mmap_start", err, "mmap %p cannot be registered with GPU device %s: %s",
					(void *)mmap, gpu->pci_addr, why);
	if (kind == SD_MEM_GPU && cpu != NULL) {
		gpu->engine->async->mem_detach(reg);
		return SD_MEM_REJECT_AS("doca_mmap_start", DOCA_ERROR_NOT_SUPPORTED,
					"mmap %p covers GPU memory, which device %s (engine %s) cannot reach; list "
					"only GPU devices on it",
					(void *)mmap, cpu->pci_addr, cpu->engine != NULL ? cpu->engine->name : "cpu");
	}
	mmap->mem_kind = (uint8_t)kind;
	mmap->mem_engine = gpu->engine->async;
	mmap->mem_reg = reg;
	return DOCA_SUCCESS;
}

/* Undo sd_mmap_engine_attach (stop, implicit stop at destroy). */
static void sd_mmap_engine_detach(struct doca_mmap *mmap)
{
	if (mmap->mem_engine != NULL)
		mmap->mem_engine->mem_detach(mmap->mem_reg);
	mmap->mem_engine = NULL;
	mmap->mem_reg = NULL;
}

/* A started map stops (doca_mmap_stop, or destroy's implicit stop): undo what start did. */
static void sd_mmap_end_start_period(struct doca_mmap *mmap)
{
	sd_mmap_exports_revoke(mmap);
	sd_mmap_unregister(mmap);
	sd_mmap_engine_detach(mmap);
	mmap->state = SD_MMAP_STOPPED;
	mmap->start_seq = 0;
}

DOCA_STABLE
doca_error_t doca_mmap_destroy(struct doca_mmap *mmap)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	if (!mmap->thread_safe && mmap->num_bufs > 0)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "mmap %p still has %llu live buffer(s); release them before destroying it",
				 (void *)mmap, (unsigned long long)mmap->num_bufs);
	if (mmap->num_pools > 0)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "mmap %p still backs %u buffer pool(s); destroy them before the mmap", (void *)mmap,
				 mmap->num_pools);

	if (mmap->from_export) {
		sd_mmap_import_release(mmap);
	} else {
		bool ever_started = mmap->state != SD_MMAP_IDLE;
		if (mmap->state == SD_MMAP_STARTED)
			sd_mmap_end_start_period(mmap); /* implicit stop */
		sd_mmap_drop_devices(mmap);
		if (ever_started && mmap->free_cb != NULL)
			mmap->free_cb(mmap->addr, mmap->len, mmap->free_cookie);
	}
	sd_alive_remove(mmap); /* issue 12 */
	mmap->magic = 0;
	mmap->start_seq = 0;
	free(mmap);
	return DOCA_SUCCESS;
}

/* Start periods and imports so far, over all mmaps (the source of start_seq). */
static atomic_uint_fast64_t sd_mmap_starts;

uint64_t sd_mmap_next_seq(void)
{
	return atomic_fetch_add_explicit(&sd_mmap_starts, 1, memory_order_relaxed) + 1;
}

DOCA_STABLE
doca_error_t doca_mmap_start(struct doca_mmap *mmap)
{
	doca_error_t err;

	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MMAP_REQUIRE_CONFIGURABLE_KIND(mmap);
	if (mmap->state == SD_MMAP_STARTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "mmap %p is already started", (void *)mmap);
	if (!mmap->range_set)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "mmap %p has no memory range; call doca_mmap_set_memrange before starting it",
				 (void *)mmap);
	err = sd_mmap_engine_attach(mmap);
	if (err != DOCA_SUCCESS)
		return err;
	/* After the engines: they say whether the range is GPU memory, which stays untouched. */
	err = sd_mmap_register(mmap);
	if (err != DOCA_SUCCESS) {
		sd_mmap_engine_detach(mmap);
		return err;
	}
	mmap->state = SD_MMAP_STARTED;
	mmap->start_seq = sd_mmap_next_seq();
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_stop(struct doca_mmap *mmap)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	if (mmap->state != SD_MMAP_STARTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "mmap %p is %s, not started", (void *)mmap,
				 sd_mmap_state_name(mmap));
	if (!mmap->thread_safe && mmap->num_bufs > 0)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "mmap %p still has %llu live buffer(s); release them before stopping it",
				 (void *)mmap, (unsigned long long)mmap->num_bufs);
	if (mmap->num_started_pools > 0)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "mmap %p backs %u started buffer pool(s); stop them before the mmap", (void *)mmap,
				 mmap->num_started_pools);
	if (mmap->from_export) {
		/* An import starts started and may be stopped once (the official samples do so before
		 * destroying it); it then takes no new buffer, and only doca_mmap_destroy remains. */
		mmap->state = SD_MMAP_STOPPED;
		return DOCA_SUCCESS;
	}
	sd_mmap_end_start_period(mmap);
	return DOCA_SUCCESS;
}

/* Index of `dev` among the registered devices, or -1. */
static int sd_mmap_find_dev(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	for (uint32_t i = 0; i < mmap->num_devs; i++)
		if (mmap->devs[i] == dev)
			return (int)i;
	return -1;
}

/* Shared legality checks of add_dev and rm_dev. */
#define SD_MMAP_REQUIRE_DEVS_CHANGEABLE(m)                                                         \
	do {                                                                                       \
		SD_MMAP_REQUIRE_CONFIGURABLE_KIND(m);                                              \
		if ((m)->state == SD_MMAP_STARTED)                                                 \
			return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,                                 \
					 "mmap %p is started; devices can change only before start or after stop", \
					 (void *)(m));                                             \
	} while (0)

DOCA_STABLE
doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	if (dev == NULL || !priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open doca_dev (mmap %p)",
				 (void *)dev, (void *)mmap);
	SD_MMAP_REQUIRE_DEVS_CHANGEABLE(mmap);
	if (sd_mmap_find_dev(mmap, dev) >= 0)
		return SD_REJECT(DOCA_ERROR_ALREADY_EXIST, "dev %p is already registered in mmap %p", (void *)dev,
				 (void *)mmap);
	if (mmap->num_devs >= mmap->max_devs)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "mmap %p already holds its maximum of %u device(s)",
				 (void *)mmap, mmap->max_devs);
	if (mmap->num_devs >= SD_MMAP_MAX_DEVS_LIMIT)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "mmap %p already holds %u devices, softdoca's limit per mmap",
				 (void *)mmap, SD_MMAP_MAX_DEVS_LIMIT);

	priv_doca_dev_dep_get(dev); /* the device cannot be closed under us */
	mmap->devs[mmap->num_devs++] = dev;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(dev, "dev");
	SD_MMAP_REQUIRE_DEVS_CHANGEABLE(mmap);
	int idx = sd_mmap_find_dev(mmap, dev);
	if (idx < 0)
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, "dev %p is not registered in mmap %p", (void *)dev,
				 (void *)mmap);

	/* Keep registration order: shift the tail down by one. */
	for (uint32_t i = (uint32_t)idx; i + 1 < mmap->num_devs; i++)
		mmap->devs[i] = mmap->devs[i + 1];
	mmap->devs[--mmap->num_devs] = NULL;
	priv_doca_dev_dep_put(dev);
	return DOCA_SUCCESS;
}

/* The part shared by set_memrange and set_dmabuf_memrange. */
static doca_error_t sd_mmap_range_settable(struct doca_mmap *mmap, void *addr, size_t len, const char *func)
{
	const char *frozen = sd_mmap_frozen_reason(mmap);
	if (frozen != NULL)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED, "mmap %p %s; its range cannot be set",
					(void *)mmap, frozen);
	if (mmap->state == SD_MMAP_STARTED)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
					"mmap %p is started; the range is set once, before start", (void *)mmap);
	if (mmap->range_set)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"mmap %p already has a range (%p, %zu bytes); it can be set only once",
					(void *)mmap, (void *)mmap->addr, mmap->len);
	if (len == 0)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "len is 0 (mmap %p)", (void *)mmap);
	if (!sd_range_no_overflow((uintptr_t)addr, len))
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
					"range %p + %zu wraps around the address space (mmap %p)", addr, len,
					(void *)mmap);
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(addr, "addr");
	doca_error_t err = sd_mmap_range_settable(mmap, addr, len, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	mmap->addr = addr;
	mmap->len = len;
	mmap->range_set = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd, void *addr, size_t dmabuf_offset,
					   size_t len)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(addr, "addr");
	doca_error_t err = sd_mmap_range_settable(mmap, addr, len, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (dmabuf_fd < 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dmabuf_fd %d is not a file descriptor (mmap %p)",
				 dmabuf_fd, (void *)mmap);
	/* The CPU engine copies through `addr`; the fd is only recorded. */
	mmap->addr = addr;
	mmap->len = len;
	mmap->range_set = true;
	mmap->dmabuf = true;
	mmap->dmabuf_fd = dmabuf_fd;
	mmap->dmabuf_offset = dmabuf_offset;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_mmap_set_dpa_memrange(struct doca_mmap *mmap, struct doca_dpa *dpa, uint64_t dpa_addr, size_t len)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(dpa, "dpa");
	SD_MMAP_REQUIRE_CONFIGURABLE_KIND(mmap);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "softdoca has no DPA; DPA memory cannot back mmap %p",
			 (void *)mmap);
}

DOCA_STABLE
doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(addr, "addr");
	SD_MEM_REQUIRE_ARG(len, "len");
	if (!mmap->range_set)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "mmap %p has no memory range yet", (const void *)mmap);
	*addr = mmap->addr;
	*len = mmap->len;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_set_free_cb(struct doca_mmap *mmap, doca_mmap_memrange_free_cb_t *free_cb, void *opaque)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(free_cb, "free_cb");
	SD_MMAP_REQUIRE_CONFIGURABLE_KIND(mmap);
	SD_MMAP_REQUIRE_NOT_STARTED(mmap);
	mmap->free_cb = free_cb;
	mmap->free_cookie = opaque;
	return DOCA_SUCCESS;
}

/* Why `mask` is not an acceptable access mask, or NULL. */
static const char *sd_access_mask_problem(uint32_t mask)
{
	if (mask & ~SD_ACCESS_FLAGS_ALL)
		return "has bits outside enum doca_access_flag";
	if ((mask & DOCA_ACCESS_FLAG_PCI_READ_ONLY) && (mask & DOCA_ACCESS_FLAG_PCI_READ_WRITE))
		return "combines PCI_READ_ONLY with PCI_READ_WRITE, which exclude each other";
	return NULL;
}

DOCA_STABLE
doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MMAP_REQUIRE_CONFIGURABLE_KIND(mmap);
	SD_MMAP_REQUIRE_NOT_STARTED(mmap);
	const char *problem = sd_access_mask_problem(access_mask);
	if (problem != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "access mask 0x%x %s (mmap %p)", access_mask, problem,
				 (void *)mmap);
	mmap->access_mask = access_mask;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MMAP_REQUIRE_CONFIGURABLE_KIND(mmap);
	if (mmap->state != SD_MMAP_IDLE)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "mmap %p has been started; its device limit can change only before the first start",
				 (void *)mmap);
	if (max_num_devices == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "max_num_devices is 0 (mmap %p)", (void *)mmap);
	if (max_num_devices < mmap->num_devs)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "max_num_devices %u is below the %u device(s) already registered in mmap %p",
				 max_num_devices, mmap->num_devs, (void *)mmap);
	mmap->max_devs = max_num_devices;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_get_max_num_devices(const struct doca_mmap *mmap, uint32_t *max_num_devices)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(max_num_devices, "max_num_devices");
	*max_num_devices = mmap->max_devs;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MMAP_REQUIRE_CONFIGURABLE_KIND(mmap);
	SD_MMAP_REQUIRE_NOT_STARTED(mmap);
	mmap->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap, union doca_data *user_data)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(user_data, "user_data");
	*user_data = mmap->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(num_bufs, "num_bufs");
	/* A thread-safe map keeps no count: num_bufs stays 0. */
	*num_bufs = mmap->num_bufs > UINT32_MAX ? UINT32_MAX : (uint32_t)mmap->num_bufs;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_get_exported(const struct doca_mmap *mmap, uint8_t *exported)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(exported, "exported");
	*exported = mmap->exported ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_get_from_export(const struct doca_mmap *mmap, uint8_t *from_export)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(from_export, "from_export");
	*from_export = mmap->from_export ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_mmap_enable_thread_safety(struct doca_mmap *mmap)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MMAP_REQUIRE_CONFIGURABLE_KIND(mmap);
	if (mmap->state == SD_MMAP_STARTED)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "mmap %p is started; enable thread safety before start or after stop", (void *)mmap);
	if (mmap->thread_safe)
		return DOCA_SUCCESS; /* one-way switch; enabling twice is harmless */
	if (mmap->num_bufs > 0)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "mmap %p has %llu live buffer(s); thread safety needs none", (void *)mmap,
				 (unsigned long long)mmap->num_bufs);
	mmap->thread_safe = true;
	return DOCA_SUCCESS;
}

/* Capability record behind `devinfo`, logging when the handle is bad. */
#define SD_MMAP_REQUIRE_DEVINFO(node, devinfo)                                                     \
	do {                                                                                       \
		(node) = (devinfo) != NULL ? priv_doca_devinfo_node(devinfo) : NULL;               \
		if ((node) == NULL)                                                                \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "devinfo %p is NULL or not a doca_devinfo",               \
					 (const void *)(devinfo));                                 \
	} while (0)

DOCA_STABLE
doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *mmap_export)
{
	const struct sd_device *node;
	SD_MMAP_REQUIRE_DEVINFO(node, devinfo);
	SD_MEM_REQUIRE_ARG(mmap_export, "mmap_export");
	*mmap_export = node->caps.mmap_export_pci ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(const struct doca_devinfo *devinfo,
								uint8_t *from_export)
{
	const struct sd_device *node;
	SD_MMAP_REQUIRE_DEVINFO(node, devinfo);
	SD_MEM_REQUIRE_ARG(from_export, "from_export");
	*from_export = node->caps.mmap_from_export_pci ? 1 : 0;
	return DOCA_SUCCESS;
}

/* Used by mmap_export.c: is `dev` one of the registered devices? */
bool sd_mmap_has_dev(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	return sd_mmap_find_dev(mmap, dev) >= 0;
}
