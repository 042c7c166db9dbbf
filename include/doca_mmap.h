/*
 * doca_mmap.h - memory maps (softdoca).
 *
 * A memory map names one range of memory and the devices allowed to reach
 * it.  Buffers (doca_buf) are windows into a started map.  A map can be
 * exported so that a peer process builds its own map from the descriptor
 * bytes and copies to or from this range.
 *
 * Lifecycle of a local map: configure (range, permissions, devices), start,
 * use, optionally stop, destroy.  A map created from an export is usable at
 * once and can only be queried, used for buffers, or destroyed.
 */
#ifndef DOCA_MMAP_H_
#define DOCA_MMAP_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_mmap;
struct doca_dpa;

/* Handle of a map as DPA code would see it (no DPA in softdoca). */
typedef uint32_t doca_dpa_dev_mmap_t;

/*
 * Called once by doca_mmap_destroy to give the range back to its owner
 * (for example to free or munmap it); `cookie` is the value registered
 * with the callback.  Only runs for a map that was started at some point.
 */
typedef void(doca_mmap_memrange_free_cb_t)(void *addr, size_t len, void *cookie);

/* ---- creation and lifecycle ---- */

/* New empty local map (no range, LOCAL_READ_WRITE, no devices). */
DOCA_STABLE
doca_error_t doca_mmap_create(struct doca_mmap **mmap);

/* Stops the map if needed and frees it; refused while buffers point into it. */
DOCA_STABLE
doca_error_t doca_mmap_destroy(struct doca_mmap *mmap);

/* Freezes the configuration; buffers and exports need a started map. */
DOCA_STABLE
doca_error_t doca_mmap_start(struct doca_mmap *mmap);

/* Back to a configurable state; invalidates every export of the map. */
DOCA_STABLE
doca_error_t doca_mmap_stop(struct doca_mmap *mmap);

/* ---- devices ---- */

/* Lets tasks running on `dev` reach the range. */
DOCA_STABLE
doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev);

/* Undoes doca_mmap_add_dev. */
DOCA_STABLE
doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev);

/* ---- export and import ---- */

/* Descriptor through which a PCI peer imports this map. */
DOCA_STABLE
doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap,
				  const struct doca_dev *dev,
				  const void **export_desc,
				  size_t *export_desc_len);

/* Descriptor through which an RDMA peer imports this map. */
DOCA_STABLE
doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap,
				   const struct doca_dev *dev,
				   const void **export_desc,
				   size_t *export_desc_len);

/* DPA handle of a map (not available in softdoca). */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap,
					  const struct doca_dev *dev,
					  doca_dpa_dev_mmap_t *dpa_mmap_handle);

/*
 * The memory key under which `dev` reaches a started map (DOCA 3.2); only
 * hardware queues consume one.  softdoca devices have no memory keys: after
 * the argument and state checks this answers DOCA_ERROR_NOT_SUPPORTED.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_get_mkey(struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey);

/* Builds a map that reaches the exporter's range through the local `dev`. */
DOCA_STABLE
doca_error_t doca_mmap_create_from_export(const union doca_data *user_data,
					  const void *export_desc,
					  size_t export_desc_len,
					  struct doca_dev *dev,
					  struct doca_mmap **mmap);

/* ---- configuration ---- */

/* The single range [addr, addr + len); once per map, before start. */
DOCA_STABLE
doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len);

/* Same as doca_mmap_set_memrange, the memory being described by a dma-buf. */
DOCA_STABLE
doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap,
					   int dmabuf_fd,
					   void *addr,
					   size_t dmabuf_offset,
					   size_t len);

/* Range in DPA memory (not available in softdoca). */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_set_dpa_memrange(struct doca_mmap *mmap, struct doca_dpa *dpa, uint64_t dpa_addr, size_t len);

/* Range of the map; for an imported map, in the exporter's addresses. */
DOCA_STABLE
doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len);

/* Callback that returns the range to its owner at destroy. */
DOCA_STABLE
doca_error_t doca_mmap_set_free_cb(struct doca_mmap *mmap, doca_mmap_memrange_free_cb_t *free_cb, void *opaque);

DOCA_STABLE
doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap, union doca_data *user_data);

DOCA_STABLE
doca_error_t doca_mmap_get_max_num_devices(const struct doca_mmap *mmap, uint32_t *max_num_devices);

/* Live buffers pointing into the map (0 once thread safety is enabled). */
DOCA_STABLE
doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs);

/* 1 once an export succeeded (stays 1 after stop). */
DOCA_STABLE
doca_error_t doca_mmap_get_exported(const struct doca_mmap *mmap, uint8_t *exported);

/* 1 for a map made by doca_mmap_create_from_export. */
DOCA_STABLE
doca_error_t doca_mmap_get_from_export(const struct doca_mmap *mmap, uint8_t *from_export);

/* How many devices may be added; only before the first start. */
DOCA_STABLE
doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices);

/* Replaces the access mask (enum doca_access_flag bits). */
DOCA_STABLE
doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask);

DOCA_STABLE
doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data);

/* ---- capabilities ---- */

DOCA_STABLE
doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *mmap_export);

DOCA_STABLE
doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(const struct doca_devinfo *devinfo,
								uint8_t *from_export);

/* ---- threading ---- */

/* One-way: buffers may then be mapped from several threads; no live count. */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_enable_thread_safety(struct doca_mmap *mmap);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_MMAP_H_ */
