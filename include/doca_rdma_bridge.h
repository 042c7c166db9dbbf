/**
 * @file doca_rdma_bridge.h
 * @brief DOCA Core's bridge between DOCA objects and a program's own verbs
 * objects (protection domain, memory keys).
 *
 * softdoca devices are not verbs devices, so every call answers
 * DOCA_ERROR_NOT_SUPPORTED after its argument checks (docs/rdma.md).  The
 * real header includes <infiniband/verbs.h>; this one does so only where it
 * is installed and otherwise declares the one verbs type it names opaque.
 */
#ifndef DOCA_RDMA_BRIDGE_H_
#define DOCA_RDMA_BRIDGE_H_

#include <stdint.h>

#if defined(__has_include)
#if __has_include(<infiniband/verbs.h>)
#include <infiniband/verbs.h>
#endif
#endif

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_buf;
struct doca_mmap;
/**
 * A verbs protection domain of libibverbs.  Opaque here unless
 * <infiniband/verbs.h> is installed; softdoca never dereferences it.
 */
struct ibv_pd;

/**
 * @brief The verbs protection domain of an open device.
 * @param dev an open device.
 * @param pd would receive the protection domain.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL argument or a device that is not open, otherwise
 *     DOCA_ERROR_NOT_SUPPORTED (softdoca devices have no verbs protection domain).
 */
DOCA_STABLE
doca_error_t doca_rdma_bridge_get_dev_pd(const struct doca_dev *dev, struct ibv_pd **pd);

/**
 * @brief Open the DOCA device behind a verbs protection domain.
 * @param pd the protection domain.
 * @param dev would receive the device, owned by the caller.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL argument, otherwise DOCA_ERROR_NOT_SUPPORTED (no softdoca device
 *     is a verbs device).
 */
DOCA_STABLE
doca_error_t doca_rdma_bridge_open_dev_from_pd(struct ibv_pd *pd, struct doca_dev **dev);

/**
 * @brief The memory key of a buffer for a device.
 * @param buf the buffer.
 * @param dev a device of the buffer's mmap.
 * @param mkey would receive the key.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL argument or a device that is not open, otherwise
 *     DOCA_ERROR_NOT_SUPPORTED (softdoca registers no memory keys).
 */
DOCA_STABLE
doca_error_t doca_rdma_bridge_get_buf_mkey(const struct doca_buf *buf, struct doca_dev *dev, uint32_t *mkey);

/**
 * @brief The memory key of an mmap for a verbs protection domain.
 * @param mmap a started mmap.
 * @param pd the protection domain.
 * @param mkey would receive the key.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL argument, otherwise DOCA_ERROR_NOT_SUPPORTED (softdoca
 *     registers no memory keys).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_bridge_get_mmap_mkey_from_pd(const struct doca_mmap *mmap, struct ibv_pd *pd, uint32_t *mkey);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_RDMA_BRIDGE_H_ */
