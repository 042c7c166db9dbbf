/*
 * Compiles with doca_buf_inventory.h alone, which must also bring in
 * doca_buf.h, doca_mmap.h, doca_ctx.h and doca_pe.h for DOCA 2.x
 * programs.
 */
#include <doca_buf_inventory.h>

int hdr_inventory_only(void);

int hdr_inventory_only(void)
{
	doca_error_t (*mmap_create)(struct doca_mmap **) = doca_mmap_create;
	doca_error_t (*buf_release)(struct doca_buf *, uint16_t *) = doca_buf_dec_refcount;
	doca_error_t (*ctx_start)(struct doca_ctx *) = doca_ctx_start;
	doca_error_t (*pe_create)(struct doca_pe **) = doca_pe_create;
	struct doca_buf *buf = NULL;
	return mmap_create != NULL && buf_release != NULL && ctx_start != NULL && pe_create != NULL &&
	       doca_buf_inventory_buf_get_by_addr(NULL, NULL, NULL, 0, &buf) == DOCA_ERROR_INVALID_VALUE &&
	       doca_buf_inventory_buf_get_by_data(NULL, NULL, NULL, 0, &buf) == DOCA_ERROR_INVALID_VALUE;
}
