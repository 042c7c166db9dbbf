/*
 * doca_dma.h alone is enough for a DOCA 2.5-2.10 program: it declares the
 * doca_buf, doca_mmap, doca_ctx and doca_pe calls such programs make
 * without including those headers (hdr_dma_only.c includes nothing else).
 */
#include "sd_test.h"

int hdr_dma_only(void);

static void dma_header_brings_buf_mmap_ctx_and_pe(void)
{
	CHECK(hdr_dma_only());
}

int main(void)
{
	SD_RUN(dma_header_brings_buf_mmap_ctx_and_pe);
	return sd_test_done();
}
