/*
 * dma_instance.c - creating and destroying DOCA DMA instances, and the
 * library part of doca_ctx_start.
 *
 * The generic context framework runs the state machine; this file only
 * tells it what a DMA context is and which checks a DMA start adds.
 */
#include <stdlib.h>

#include <doca_dma.h>

#include "dma_priv.h"
#include "sd_log.h"

/* Asynchronous engines: one queue per started context, a slot per task. */
static doca_error_t sd_dma_open_queue(struct doca_dma *dma)
{
	uint32_t depth = dma->ctx.task_types[SD_DMA_MEMCPY_TYPE].num_tasks;
	char why[256] = "";
	doca_error_t err;

	if (dma->engine->async == NULL)
		return DOCA_SUCCESS;
	err = dma->engine->async->queue_open(dma->node, depth, &dma->queue, why, sizeof(why));
	if (err != DOCA_SUCCESS)
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, "doca_ctx_start",
				     "engine %s of device %s cannot start (dma %p): %s", dma->engine->name,
				     dma->node->pci_addr, (void *)dma, why);
	return err;
}

/* Library checks of doca_ctx_start; the framework creates the task pool after them. */
static doca_error_t sd_dma_start(struct doca_ctx *ctx)
{
	struct doca_dma *dma = (struct doca_dma *)ctx;

	if (!ctx->task_types[SD_DMA_MEMCPY_TYPE].configured) {
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, "doca_ctx_start",
				     "memcpy tasks were never configured (doca_dma_task_memcpy_set_conf), "
				     "a DMA context needs them to start (dma %p)",
				     (void *)dma);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dma->node->caps.dma_memcpy) {
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, "doca_ctx_start",
				     "device %s does not support DMA memcpy tasks (dma %p)", dma->node->pci_addr,
				     (void *)dma);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return sd_dma_open_queue(dma);
}

/* The context reached IDLE (or its start failed after sd_dma_start). */
static void sd_dma_release(struct doca_ctx *ctx)
{
	struct doca_dma *dma = (struct doca_dma *)ctx;

	if (dma->queue != NULL)
		dma->engine->async->queue_close(dma->queue);
	dma->queue = NULL;
}

const struct sd_ctx_ops sd_dma_ctx_ops = {
	.type_name = "doca_dma",
	.start = sd_dma_start,
	.sync_start = true,
	.release = sd_dma_release,
};

/*
 * How memcpy tasks run: inside doca_pe_progress (cpu engine), or on an
 * asynchronous engine: library threads (workers) or a GPU's copy engines.
 */
static const struct sd_task_ops *sd_dma_pick_memcpy_ops(const struct sd_engine *engine)
{
	return engine->async != NULL ? &sd_dma_memcpy_async_ops : &sd_dma_memcpy_ops;
}

doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma)
{
	const struct sd_task_ops *memcpy_ops;
	struct doca_dma *inst;

	if (dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer dma is NULL");
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev is NULL");
	if (!priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device", (void *)dev);

	inst = sd_lines_calloc(1, sizeof(*inst));
	if (inst == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a DMA instance on device %s",
				 dev->node->pci_addr);

	priv_doca_ctx_init(&inst->ctx, &sd_dma_ctx_ops, dev);
	inst->engine = priv_doca_engine_for_dma(dev->node);
	memcpy_ops = sd_dma_pick_memcpy_ops(inst->engine);
	if (priv_doca_ctx_add_task_type(&inst->ctx, memcpy_ops) != SD_DMA_MEMCPY_TYPE) {
		/* Cannot happen with a fresh context; refuse rather than misroute tasks. */
		(void)priv_doca_ctx_fini(&inst->ctx, __func__);
		free(inst);
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, "cannot register the memcpy task type");
	}

	inst->node = dev->node;
	inst->max_list_len = sd_dma_clamp_list_len(dev->node->caps.dma_max_list_len);
	inst->max_buf_size = dev->node->caps.dma_max_buf_size;
	inst->max_tasks = dev->node->caps.dma_max_tasks;
	inst->max_one_total = inst->max_list_len != 0 ? inst->max_buf_size : 0;
	inst->copy_local = inst->engine->copy_local;
	inst->ok_src_seq = SD_DMA_NO_SEQ;
	inst->ok_dst_seq = SD_DMA_NO_SEQ;
	inst->magic = SD_DMA_MAGIC;
	*dma = inst;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_destroy(struct doca_dma *dma)
{
	doca_error_t err;

	if (dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dma is NULL");
	if (!sd_dma_is_valid(dma))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live DMA instance", (void *)dma);

	/* Refuses (and reports) a context that is not IDLE; the instance stays intact. */
	err = priv_doca_ctx_fini(&dma->ctx, __func__);
	if (err != DOCA_SUCCESS)
		return err;

	dma->magic = 0;
	free(dma);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma)
{
	if (!sd_dma_is_valid(dma)) {
		SD_LOG_ERR("dma %p is NULL or not a live DMA instance", (void *)dma);
		return NULL;
	}
	return &dma->ctx;
}

doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **gpu_dma)
{
	if (dma == NULL || gpu_dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL", dma == NULL ? "dma" : "gpu_dma");
	if (!sd_dma_is_valid(dma))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live DMA instance", (void *)dma);
	return SD_REJECT(DOCA_ERROR_BAD_STATE,
			 "dma %p has no GPU datapath (softdoca runs DMA on the host), no GPU handle exists",
			 (void *)dma);
}
