/*
 * A DOCA 2.x style unit: it includes doca_dma.h alone and uses the buffer,
 * mmap, context and progress-engine calls that doca_dma.h brought in
 * before DOCA 3.0, and that softdoca's doca_dma.h still brings in.
 */
#include <doca_dma.h>

int hdr_dma_only(void);

int hdr_dma_only(void)
{
	struct doca_mmap *mmap = NULL;
	struct doca_pe *pe = NULL;
	uint16_t refcount = 0;
	int ok;

	ok = doca_mmap_create(&mmap) == DOCA_SUCCESS && doca_pe_create(&pe) == DOCA_SUCCESS;
	ok = ok && doca_buf_get_refcount(NULL, &refcount) == DOCA_ERROR_INVALID_VALUE;
	ok = ok && doca_ctx_start(doca_dma_as_ctx(NULL)) == DOCA_ERROR_INVALID_VALUE;
	ok = ok && doca_dma_set_ordered_completions(NULL, 1) == DOCA_ERROR_INVALID_VALUE;
	if (pe != NULL)
		ok = ok && doca_pe_destroy(pe) == DOCA_SUCCESS;
	if (mmap != NULL)
		ok = ok && doca_mmap_destroy(mmap) == DOCA_SUCCESS;
	return ok;
}
