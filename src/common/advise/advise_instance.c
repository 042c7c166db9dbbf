/*
 * advise_instance.c - creating and destroying mmap-advise instances, the
 * library part of doca_ctx_start, and the capability queries.
 *
 * The generic context framework runs the state machine; the start is
 * synchronous (IDLE -> RUNNING inside doca_ctx_start).
 */
#include <stdlib.h>

#include <doca_mmap_advise.h>

#include "advise_priv.h"
#include "sd_log.h"

static doca_error_t sd_advise_start(struct doca_ctx *ctx)
{
	struct doca_mmap_advise *advise = (struct doca_mmap_advise *)ctx;

	if (!ctx->task_types[SD_ADVISE_INVALIDATE_TYPE].configured) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, "doca_ctx_start",
				  "invalidate-cache tasks were never configured "
				  "(doca_mmap_advise_task_invalidate_cache_set_conf), the context needs them to start "
				  "(mmap_advise %p)",
				  (void *)advise);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!advise->node->caps.advise_supported) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, "doca_ctx_start",
				  "device %s does not support invalidate-cache tasks (mmap_advise %p)",
				  advise->node->pci_addr, (void *)advise);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

const struct sd_ctx_ops sd_advise_ctx_ops = {
	.type_name = "doca_mmap_advise",
	.start = sd_advise_start,
	.sync_start = true,
};

doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise)
{
	struct doca_mmap_advise *inst;

	if (mmap_advise == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer mmap_advise is NULL");
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev is NULL");
	if (!priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device", (void *)dev);

	inst = calloc(1, sizeof(*inst));
	if (inst == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate an mmap advise instance on device %s",
				 dev->node->pci_addr);
	priv_doca_ctx_init(&inst->ctx, &sd_advise_ctx_ops, dev);
	if (priv_doca_ctx_add_task_type(&inst->ctx, &sd_advise_invalidate_ops) != SD_ADVISE_INVALIDATE_TYPE) {
		/* Cannot happen with a fresh context; refuse rather than misroute tasks. */
		(void)priv_doca_ctx_fini(&inst->ctx, __func__);
		free(inst);
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, "cannot register the invalidate-cache task type");
	}
	inst->node = dev->node;
	inst->max_buf_size = dev->node->caps.advise_max_buf_size;
	inst->max_tasks = dev->node->caps.dma_max_tasks;
	inst->magic = SD_ADVISE_MAGIC;
	*mmap_advise = inst;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise)
{
	doca_error_t err;

	if (mmap_advise == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "mmap_advise is NULL");
	if (!sd_advise_is_valid(mmap_advise))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live mmap advise instance", (void *)mmap_advise);
	/* Refuses (and reports) a context that is not IDLE; nothing changes then. */
	err = priv_doca_ctx_fini(&mmap_advise->ctx, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	mmap_advise->magic = 0;
	free(mmap_advise);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise)
{
	if (!sd_advise_is_valid(mmap_advise)) {
		SD_LOG_ERR("mmap_advise %p is NULL or not a live mmap advise instance", (void *)mmap_advise);
		return NULL;
	}
	return &mmap_advise->ctx;
}

doca_error_t doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo)
{
	const struct sd_device *node = priv_doca_devinfo_node(devinfo);

	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a valid device information handle",
				 (const void *)devinfo);
	/* "Not supported" is an answer, not an error: nothing is logged. */
	return node->caps.advise_supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo,
								     uint64_t *buf_size)
{
	const struct sd_device *node;

	if (buf_size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "buf_size is NULL");
	node = priv_doca_devinfo_node(devinfo);
	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a valid device information handle",
				 (const void *)devinfo);
	*buf_size = node->caps.advise_max_buf_size;
	return DOCA_SUCCESS;
}
