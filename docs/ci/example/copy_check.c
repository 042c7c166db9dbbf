/*
 * copy_check - a DOCA DMA project's test: copy 1 MiB with one memcpy task
 * on the first device that can, and check every byte.  Exit 0 on success.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#define LEN (1024 * 1024)

static int done;
static doca_error_t status = DOCA_ERROR_UNKNOWN;

static void on_done(struct doca_dma_task_memcpy *task, union doca_data task_data, union doca_data ctx_data)
{
	(void)task_data;
	(void)ctx_data;
	status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	done = 1;
}

static struct doca_dev *open_dma_device(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS)
			(void)doca_dev_open(list[i], &dev);
	doca_devinfo_destroy_list(list);
	return dev;
}

#define TRY(call)                                                                                  \
	do {                                                                                       \
		doca_error_t err_ = (call);                                                        \
		if (err_ != DOCA_SUCCESS) {                                                        \
			fprintf(stderr, "%s failed: %s\n", #call, doca_error_get_name(err_));      \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

int main(void)
{
	char *mem = calloc(2, LEN); /* one range for the mmap: sources, then destinations */
	char *src = mem;
	char *dst = mem != NULL ? mem + LEN : NULL;
	struct doca_dev *dev = open_dma_device();
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf *sbuf;
	struct doca_buf *dbuf;
	struct doca_dma_task_memcpy *task;
	union doca_data none = {0};

	if (mem == NULL || dev == NULL) {
		fprintf(stderr, "no memory or no DMA device\n");
		return 1;
	}
	for (size_t i = 0; i < LEN; i++)
		src[i] = (char)(i * 31 + 7);
	TRY(doca_mmap_create(&mmap));
	TRY(doca_mmap_add_dev(mmap, dev));
	TRY(doca_mmap_set_memrange(mmap, mem, 2 * LEN));
	TRY(doca_mmap_start(mmap));
	TRY(doca_buf_inventory_create(2, &inv));
	TRY(doca_buf_inventory_start(inv));
	TRY(doca_buf_inventory_buf_get_by_data(inv, mmap, src, LEN, &sbuf));
	TRY(doca_buf_inventory_buf_get_by_addr(inv, mmap, dst, LEN, &dbuf));
	TRY(doca_pe_create(&pe));
	TRY(doca_dma_create(dev, &dma));
	TRY(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	TRY(doca_dma_task_memcpy_set_conf(dma, on_done, on_done, 1));
	TRY(doca_ctx_start(doca_dma_as_ctx(dma)));
	TRY(doca_dma_task_memcpy_alloc_init(dma, sbuf, dbuf, none, &task));
	TRY(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
	while (!done)
		(void)doca_pe_progress(pe);
	TRY(status);
	if (memcmp(src, dst, LEN) != 0) {
		fprintf(stderr, "the destination differs from the source\n");
		return 1;
	}
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	TRY(doca_ctx_stop(doca_dma_as_ctx(dma)));
	TRY(doca_dma_destroy(dma));
	TRY(doca_pe_destroy(pe));
	(void)doca_buf_dec_refcount(sbuf, NULL);
	(void)doca_buf_dec_refcount(dbuf, NULL);
	TRY(doca_buf_inventory_destroy(inv));
	TRY(doca_mmap_destroy(mmap));
	TRY(doca_dev_close(dev));
	free(mem);
	printf("copied and checked %d bytes\n", LEN);
	return 0;
}
