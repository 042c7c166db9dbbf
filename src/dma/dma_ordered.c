/*
 * dma_ordered.c - doca_dma_set_ordered_completions (DOCA 3.2).
 *
 * On a card, DMA completions may be posted in a different order than the
 * tasks were submitted unless the program asks for submission order.  In
 * softdoca the progress engine never reports a task of a context before an
 * earlier unreported task of the same context (src/common/exec/pe.c), so
 * submission order holds whatever the setting; the request is recorded so
 * that an engine that could reorder knows what was asked, and the call is
 * checked like every other IDLE-only configuration call.
 */
#include <doca_dma.h>

#include "dma_priv.h"
#include "sd_log.h"

doca_error_t doca_dma_set_ordered_completions(struct doca_dma *dma, uint8_t ordered_completions)
{
	if (dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dma is NULL");
	if (!sd_dma_is_valid(dma))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live DMA instance", (void *)dma);
	if (dma->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "context is %s, completion order can be chosen only while IDLE (dma %p)",
				 sd_ctx_state_name(dma->ctx.state), (void *)dma);
	dma->ordered_completions = ordered_completions != 0;
	return DOCA_SUCCESS;
}
