/*
 * dma_caps.c - DOCA DMA capability queries.
 *
 * Answers come from the device's capability profile in the emulated
 * topology.  Queries are read-only and thread-safe; a "not supported"
 * answer is not an error and logs nothing.
 */
#include <doca_dma.h>

#include "dma_priv.h"
#include "sd_log.h"

doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo)
{
	const struct sd_device *node = priv_doca_devinfo_node(devinfo);

	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a valid device information handle",
				 (const void *)devinfo);
	return node->caps.dma_memcpy ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks)
{
	if (dma == NULL || max_num_tasks == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL", dma == NULL ? "dma" : "max_num_tasks");
	if (!sd_dma_is_valid(dma))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live DMA instance", (void *)dma);
	*max_num_tasks = dma->max_tasks;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_cap_task_memcpy_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len)
{
	const struct sd_device *node;

	if (max_buf_list_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "max_buf_list_len is NULL");
	node = priv_doca_devinfo_node(devinfo);
	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a valid device information handle",
				 (const void *)devinfo);
	/* The execution path enforces the same clamped value (rule V2). */
	*max_buf_list_len = sd_dma_clamp_list_len(node->caps.dma_max_list_len);
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *buf_size)
{
	const struct sd_device *node;

	if (buf_size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "buf_size is NULL");
	node = priv_doca_devinfo_node(devinfo);
	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a valid device information handle",
				 (const void *)devinfo);
	*buf_size = node->caps.dma_max_buf_size;
	return DOCA_SUCCESS;
}
