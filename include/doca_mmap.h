/**
 * @file doca_mmap.h
 * @brief Memory maps: ranges of memory, their access rights and devices, export and import.
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
/**
 * @struct doca_mmap
 * A memory map: one range of memory, its access rights and the devices
 * allowed to reach it.  Created with doca_mmap_create() (local) or
 * doca_mmap_create_from_export() (a peer's range), owned by the application,
 * destroyed with doca_mmap_destroy().
 */
struct doca_mmap;
struct doca_dpa;

/**
 * The handle of a map as code running on the DPA sees it (no DPA in softdoca).
 */
typedef uint32_t doca_dpa_dev_mmap_t;

/**
 * @brief Gives a map's range back to its owner when the map is destroyed.
 *
 * Called once by doca_mmap_destroy() (only for a map that was started at some
 * point), for example to free or munmap the range.
 *
 * @param addr start of the range.
 * @param len its length.
 * @param cookie the value registered with doca_mmap_set_free_cb().
 */
typedef void(doca_mmap_memrange_free_cb_t)(void *addr, size_t len, void *cookie);

/* ---- creation and lifecycle ---- */

/**
 * @brief Creates an empty local map: no range, LOCAL_READ_WRITE rights, no device.
 *
 * @param mmap receives the map; the caller owns it (doca_mmap_destroy()).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p mmap is NULL;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_mmap_create(struct doca_mmap **mmap);

/**
 * @brief Stops the map if needed, releases its devices and frees it.
 *
 * Calls the free callback (doca_mmap_set_free_cb()) for a map that was
 * started.  Exports of the map end: importers' tasks fail from then on.
 * Release every buffer pointing into the map first.
 *
 * @param mmap the map.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p mmap is NULL;
 * DOCA_ERROR_NOT_PERMITTED while buffers still point into it.
 */
DOCA_STABLE
doca_error_t doca_mmap_destroy(struct doca_mmap *mmap);

/**
 * @brief Freezes the configuration and registers the range with the map's devices.
 *
 * Buffers and exports need a started map.  softdoca makes the range resident
 * and pins it (SOFTDOCA_MMAP_REGISTER changes that, see docs/mmap-registration.md).
 *
 * @param mmap a local map with a range.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p mmap is NULL;
 * DOCA_ERROR_NOT_PERMITTED when it was created from an export or exported;
 * DOCA_ERROR_BAD_STATE when it is already started or has no range;
 * DOCA_ERROR_NOT_SUPPORTED when its devices cannot reach the memory together
 * (GPU memory next to a non-GPU device);
 * DOCA_ERROR_NO_MEMORY when internal state cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_mmap_start(struct doca_mmap *mmap);

/**
 * @brief Returns a started map to a configurable state.
 *
 * Every export of the map ends: descriptors become stale and importers'
 * tasks fail from then on.  Release every buffer pointing into it first.
 *
 * @param mmap the map.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p mmap is NULL;
 * DOCA_ERROR_NOT_PERMITTED when it was created from an export, or buffers still point into it;
 * DOCA_ERROR_BAD_STATE when it is not started.
 */
DOCA_STABLE
doca_error_t doca_mmap_stop(struct doca_mmap *mmap);

/* ---- devices ---- */

/**
 * @brief Lets tasks running on a device reach the map's range.
 *
 * Before start (or after a stop).  The map holds the device until it is
 * removed or the map destroyed: the device's last close is refused meanwhile.
 *
 * @param mmap the map.
 * @param dev an open device.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_PERMITTED when the map is started, exported or created from an export;
 * DOCA_ERROR_NO_MEMORY when the map already holds doca_mmap_set_max_num_devices() devices.
 */
DOCA_STABLE
doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev);

/**
 * @brief Undoes doca_mmap_add_dev().
 *
 * @param mmap the map.
 * @param dev a device added to it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_PERMITTED when the map is started, exported or created from an export;
 * DOCA_ERROR_NOT_FOUND when the device was not added.
 */
DOCA_STABLE
doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev);

/* ---- export and import ---- */

/**
 * @brief Describes a started map so that the other side of the PCI link can import it.
 *
 * The map needs DOCA_ACCESS_FLAG_PCI_READ_ONLY or PCI_READ_WRITE and the
 * device added.  The descriptor is bytes to hand to the peer (file, Comch
 * message) for doca_mmap_create_from_export(); it is usable while the map is
 * started, on this machine (or, with SOFTDOCA_PEER, across namespaces and
 * machines over UCX).
 *
 * @param mmap the map.
 * @param dev the device through which the peer reaches it.
 * @param export_desc receives the descriptor, owned by the map: valid until it
 * is stopped or destroyed; never free it.
 * @param export_desc_len receives its length in bytes.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_PERMITTED when the map is not started, was created from an
 * export, or has no PCI access right;
 * DOCA_ERROR_NOT_FOUND when @p dev was not added to the map;
 * DOCA_ERROR_NOT_SUPPORTED when the device cannot export;
 * DOCA_ERROR_NO_MEMORY when the descriptor cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap,
				  const struct doca_dev *dev,
				  const void **export_desc,
				  size_t *export_desc_len);

/**
 * @brief Would describe a map for an RDMA peer; softdoca has no RDMA export.
 *
 * @param mmap the map.
 * @param dev the device.
 * @param export_desc receives the descriptor.
 * @param export_desc_len receives its length.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_PERMITTED when the map is not started, was created from an
 * export, or has no RDMA access right;
 * DOCA_ERROR_NOT_FOUND when @p dev was not added to the map;
 * DOCA_ERROR_NOT_SUPPORTED otherwise (no RDMA transport).
 */
DOCA_STABLE
doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap,
				   const struct doca_dev *dev,
				   const void **export_desc,
				   size_t *export_desc_len);

/**
 * @brief Would give the DPA-side handle of a map; softdoca has no DPA.
 *
 * @param mmap the map.
 * @param dev the device.
 * @param dpa_mmap_handle receives the handle.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap,
					  const struct doca_dev *dev,
					  doca_dpa_dev_mmap_t *dpa_mmap_handle);

/**
 * @brief The memory key under which a device reaches a started map (DOCA 3.2).
 *
 * Only a card's hardware queues consume memory keys, and softdoca devices
 * have none: after the checks below the answer is DOCA_ERROR_NOT_SUPPORTED.
 *
 * @param mmap a started map.
 * @param dev a device added to it.
 * @param mkey receives the key.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL or the device is
 * not added; DOCA_ERROR_BAD_STATE when the map is not started;
 * DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_get_mkey(struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey);

/**
 * @brief Builds a map that reaches a peer's exported range through a local device.
 *
 * The new map is usable at once (no start): buffers on it are sources or
 * destinations of DMA tasks on @p dev, with the rights the exporter granted.
 * It can only be queried, used for buffers and destroyed.  A descriptor of an
 * exporter that has exited is refused; one that goes stale later makes tasks
 * fail with DOCA_ERROR_IO_FAILED.
 *
 * @param user_data the map's user data, or NULL for zero.
 * @param export_desc the descriptor bytes from doca_mmap_export_pci().
 * @param export_desc_len their length.
 * @param dev an open device on this side of the link.
 * @param mmap receives the map; the caller owns it (doca_mmap_destroy()).
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, the length is 0, the
 * descriptor is malformed, or its exporter is gone;
 * DOCA_ERROR_NOT_SUPPORTED when the device cannot import, or the exporter is
 * in another namespace or machine without the UCX transport;
 * DOCA_ERROR_NOT_PERMITTED when the kernel refuses access to the exporter's memory
 * (the log names the cause and the fix);
 * DOCA_ERROR_NO_MEMORY when the map cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_mmap_create_from_export(const union doca_data *user_data,
					  const void *export_desc,
					  size_t export_desc_len,
					  struct doca_dev *dev,
					  struct doca_mmap **mmap);

/* ---- configuration ---- */

/**
 * @brief Sets the map's one range [addr, addr + len); once per map, before start.
 *
 * The memory stays the caller's; doca_mmap_set_free_cb() can hand it back at destroy.
 *
 * @param mmap the map.
 * @param addr start of the range.
 * @param len its length, more than 0.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p mmap or @p addr is NULL, @p len is 0 or the range wraps;
 * DOCA_ERROR_NOT_PERMITTED when a range is already set, or the map was exported or created from an export;
 * DOCA_ERROR_BAD_STATE when the map is started.
 */
DOCA_STABLE
doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len);

/**
 * @brief doca_mmap_set_memrange() for memory described by a dma-buf.
 *
 * @param mmap the map.
 * @param dmabuf_fd the dma-buf descriptor, 0 or more.
 * @param addr start of the range in this process.
 * @param dmabuf_offset offset of the range in the dma-buf.
 * @param len its length.
 * @return as doca_mmap_set_memrange(), and DOCA_ERROR_INVALID_VALUE for a negative descriptor.
 */
DOCA_STABLE
doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap,
					   int dmabuf_fd,
					   void *addr,
					   size_t dmabuf_offset,
					   size_t len);

/**
 * @brief Would set a range in DPA memory; softdoca has no DPA.
 *
 * @param mmap the map.
 * @param dpa the DPA.
 * @param dpa_addr start of the range.
 * @param len its length.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_NOT_PERMITTED when the map was exported or created from an export; DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_set_dpa_memrange(struct doca_mmap *mmap, struct doca_dpa *dpa, uint64_t dpa_addr, size_t len);

/**
 * @brief The map's range; for a map created from an export, in the exporter's addresses.
 *
 * @param mmap the map.
 * @param addr receives the start.
 * @param len receives the length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when no range was set.
 */
DOCA_STABLE
doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len);

/**
 * @brief Registers the callback that gives the range back to its owner at destroy.
 *
 * Before start.
 *
 * @param mmap the map.
 * @param free_cb the callback.
 * @param opaque passed to it as its cookie.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p mmap or @p free_cb is NULL;
 * DOCA_ERROR_NOT_PERMITTED when the map was exported or created from an export; DOCA_ERROR_BAD_STATE when the map is started.
 */
DOCA_STABLE
doca_error_t doca_mmap_set_free_cb(struct doca_mmap *mmap, doca_mmap_memrange_free_cb_t *free_cb, void *opaque);

/**
 * @brief The map's user data (zero unless set).
 *
 * @param mmap the map.
 * @param user_data receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap, union doca_data *user_data);

/**
 * @brief How many devices the map may hold.
 *
 * @param mmap the map.
 * @param max_num_devices receives the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_mmap_get_max_num_devices(const struct doca_mmap *mmap, uint32_t *max_num_devices);

/**
 * @brief How many buffers point into the map (0 once thread safety is enabled, which stops the count).
 *
 * @param mmap the map.
 * @param num_bufs receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs);

/**
 * @brief Whether an export of the map ever succeeded (stays 1 after stop).
 *
 * @param mmap the map.
 * @param exported receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_mmap_get_exported(const struct doca_mmap *mmap, uint8_t *exported);

/**
 * @brief Whether the map was made by doca_mmap_create_from_export().
 *
 * @param mmap the map.
 * @param from_export receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_mmap_get_from_export(const struct doca_mmap *mmap, uint8_t *from_export);

/**
 * @brief How many devices may be added; only before the first start.
 *
 * @param mmap the map.
 * @param max_num_devices 1 or more, and at least the devices already added.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p mmap is NULL or the number is 0 or too small;
 * DOCA_ERROR_NOT_PERMITTED when the map was ever started, exported or created from an export.
 */
DOCA_STABLE
doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices);

/**
 * @brief Replaces the map's access rights; checked by every task that uses its buffers.
 *
 * Before start (or after a stop).  PCI_READ_ONLY and PCI_READ_WRITE exclude each other.
 *
 * @param mmap the map.
 * @param access_mask an OR of enum doca_access_flag bits.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p mmap is NULL, or the mask has unknown bits or both PCI rights;
 * DOCA_ERROR_NOT_PERMITTED when the map was exported or created from an export; DOCA_ERROR_BAD_STATE when the map is started.
 */
DOCA_STABLE
doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask);

/**
 * @brief Attaches a value to the map.
 *
 * @param mmap the map.
 * @param user_data the value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p mmap is NULL;
 * DOCA_ERROR_NOT_PERMITTED when the map was exported or created from an export; DOCA_ERROR_BAD_STATE when the map is started.
 */
DOCA_STABLE
doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data);

/* ---- capabilities ---- */

/**
 * @brief Whether a device can export maps with doca_mmap_export_pci().
 *
 * @param devinfo the device.
 * @param mmap_export receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *mmap_export);

/**
 * @brief Whether a device can import PCI exports with doca_mmap_create_from_export().
 *
 * @param devinfo the device.
 * @param from_export receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(const struct doca_devinfo *devinfo,
								uint8_t *from_export);

/* ---- threading ---- */

/**
 * @brief Lets buffers on the map be created and released from several threads (one-way).
 *
 * The map stops counting its live buffers (doca_mmap_get_num_bufs() answers
 * 0, and destroy no longer checks them).  Before start, with no live buffer.
 *
 * @param mmap the map.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p mmap is NULL;
 * DOCA_ERROR_NOT_PERMITTED when the map is started, exported, created from an
 * export or has live buffers.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_mmap_enable_thread_safety(struct doca_mmap *mmap);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_MMAP_H_ */
