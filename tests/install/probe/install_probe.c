/*
 * install_probe.c - built against an installed softdoca by the install test.
 *
 * Prints four lines the test compares with what it expects:
 *   flavour: host|dpu|both|none     what doca_build_config.h defined
 *   meson probe: host|dpu           what meson's has_header_symbol decided
 *   version: <doca_version_runtime()>
 *   copy: ok|failed                 one DMA memcpy task on the first device
 * Exit status 0 only when the copy succeeded.
 */
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_version.h>

#if defined(DOCA_ARCH_DPU) && defined(DOCA_ARCH_HOST)
#define FLAVOUR "both"
#elif defined(DOCA_ARCH_DPU)
#define FLAVOUR "dpu"
#elif defined(DOCA_ARCH_HOST)
#define FLAVOUR "host"
#else
#define FLAVOUR "none"
#endif

#define TRY(call)                                                                                  \
	do {                                                                                       \
		doca_error_t try_err_ = (call);                                                    \
		if (try_err_ != DOCA_SUCCESS) {                                                    \
			fprintf(stderr, "%s: %s\n", #call, doca_error_get_name(try_err_));         \
			return try_err_;                                                           \
		}                                                                                  \
	} while (0)

struct probe {
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf *src;
	struct doca_buf *dst;
	int done;
	doca_error_t status;
	char src_bytes[64];
	char dst_bytes[64];
};

static void copy_finished(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			  union doca_data ctx_user_data)
{
	struct probe *p = task_user_data.ptr;

	(void)ctx_user_data;
	p->status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	p->done = 1;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static doca_error_t open_dma_device(struct probe *p)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	TRY(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n; i++) {
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS) {
			err = doca_dev_open(list[i], &p->dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	return err;
}

static doca_error_t copy_once(struct probe *p)
{
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {.ptr = p};

	strcpy(p->src_bytes, "copied by softdoca");
	TRY(open_dma_device(p));
	TRY(doca_mmap_create(&p->mmap));
	TRY(doca_mmap_set_memrange(p->mmap, p, sizeof(*p)));
	TRY(doca_mmap_add_dev(p->mmap, p->dev));
	TRY(doca_mmap_start(p->mmap));
	TRY(doca_buf_inventory_create(2, &p->inv));
	TRY(doca_buf_inventory_start(p->inv));
	TRY(doca_buf_inventory_buf_get_by_data(p->inv, p->mmap, p->src_bytes, sizeof(p->src_bytes), &p->src));
	TRY(doca_buf_inventory_buf_get_by_addr(p->inv, p->mmap, p->dst_bytes, sizeof(p->dst_bytes), &p->dst));
	TRY(doca_pe_create(&p->pe));
	TRY(doca_dma_create(p->dev, &p->dma));
	TRY(doca_pe_connect_ctx(p->pe, doca_dma_as_ctx(p->dma)));
	TRY(doca_dma_task_memcpy_set_conf(p->dma, copy_finished, copy_finished, 1));
	TRY(doca_ctx_start(doca_dma_as_ctx(p->dma)));
	TRY(doca_dma_task_memcpy_alloc_init(p->dma, p->src, p->dst, ud, &task));
	TRY(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
	while (!p->done)
		(void)doca_pe_progress(p->pe);
	if (p->status != DOCA_SUCCESS)
		return p->status;
	return memcmp(p->src_bytes, p->dst_bytes, sizeof(p->src_bytes)) == 0 ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED;
}

/* Release in reverse order; every step tolerates what was never created. */
static void release(struct probe *p)
{
	if (p->dma != NULL) {
		(void)doca_ctx_stop(doca_dma_as_ctx(p->dma));
		(void)doca_dma_destroy(p->dma);
	}
	if (p->pe != NULL)
		(void)doca_pe_destroy(p->pe);
	if (p->src != NULL)
		(void)doca_buf_dec_refcount(p->src, NULL);
	if (p->dst != NULL)
		(void)doca_buf_dec_refcount(p->dst, NULL);
	if (p->inv != NULL)
		(void)doca_buf_inventory_destroy(p->inv);
	if (p->mmap != NULL)
		(void)doca_mmap_destroy(p->mmap);
	(void)doca_dev_close(p->dev);
}

int main(void)
{
	static struct probe p;
	doca_error_t err;

	printf("flavour: %s\n", FLAVOUR);
	printf("meson probe: %s\n", PROBE_MESON_SAYS_DPU ? "dpu" : "host");
	printf("version: %s\n", doca_version_runtime());
	err = copy_once(&p);
	release(&p);
	printf("copy: %s\n", err == DOCA_SUCCESS ? "ok" : "failed");
	return err == DOCA_SUCCESS ? 0 : 1;
}
