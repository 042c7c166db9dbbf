/*
 * rdma_bridge.c - the verbs bridge of DOCA Core (doca_rdma_bridge.h).
 *
 * On a card these hand out the verbs protection domain of a device and the
 * memory keys of buffers and maps, so that a program can mix its own verbs
 * calls with DOCA.  softdoca devices are not verbs devices: after the
 * argument checks every call answers NOT_SUPPORTED, as a device without
 * the capability does, in one record.
 */
#include <doca_rdma_bridge.h>

#include "mem_priv.h"
#include "sd_dev.h"
#include "sd_log.h"

/* The functions of doca_rdma_bridge.h: softdoca devices have no verbs protection domain. */
static doca_error_t sd_rdma_no_verbs(const void *a, const void *b, const char *func)
{
	if (a == NULL || b == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "an argument is NULL");
	return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED,
			    "softdoca devices have no verbs protection domain or memory keys (no verbs bridge)");
}

doca_error_t doca_rdma_bridge_get_dev_pd(const struct doca_dev *dev, struct ibv_pd **pd)
{
	if (dev != NULL && !priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device", (const void *)dev);
	return sd_rdma_no_verbs(dev, pd, __func__);
}

doca_error_t doca_rdma_bridge_open_dev_from_pd(struct ibv_pd *pd, struct doca_dev **dev)
{
	return sd_rdma_no_verbs(pd, dev, __func__);
}

doca_error_t doca_rdma_bridge_get_buf_mkey(const struct doca_buf *buf, struct doca_dev *dev, uint32_t *mkey)
{
	if (mkey == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "mkey is NULL");
	if (dev != NULL && !priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device", (void *)dev);
	return sd_rdma_no_verbs(buf, dev, __func__);
}

doca_error_t doca_rdma_bridge_get_mmap_mkey_from_pd(const struct doca_mmap *mmap, struct ibv_pd *pd, uint32_t *mkey)
{
	if (mkey == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "mkey is NULL");
	return sd_rdma_no_verbs(mmap, pd, __func__);
}
