/*
 * A process that imports its own export reaches the same bytes through
 * the import and through the exported mmap itself, so a task may copy
 * between overlapping ranges of one buffer.  The result is that of
 * memmove, in both directions, and nothing else is touched (a plain
 * memcpy here was undefined behaviour, caught by fuzz_api under ASan).
 */
#include "xproc_test.h"

#define LEN 4096
#define SHIFT 512

static uint8_t mem[4 * LEN] __attribute__((aligned(4096)));
static uint8_t want[4 * LEN];

struct world {
	struct doca_dev *host, *dpu;
	struct doca_mmap *local, *imported;
	struct xt_dma x;
};

static bool world_open(struct world *w)
{
	const void *desc = NULL;
	size_t len = 0;

	memset(w, 0, sizeof(*w));
	w->host = sd_test_open_dev_at(XT_HOST_PCI);
	w->dpu = sd_test_open_dev_at(XT_DPU_PCI);
	if (w->host == NULL || w->dpu == NULL || doca_mmap_create(&w->local) != DOCA_SUCCESS ||
	    doca_mmap_add_dev(w->local, w->host) != DOCA_SUCCESS || doca_mmap_add_dev(w->local, w->dpu) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(w->local, mem, sizeof(mem)) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(w->local, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE) !=
		    DOCA_SUCCESS ||
	    doca_mmap_start(w->local) != DOCA_SUCCESS ||
	    doca_mmap_export_pci(w->local, w->host, &desc, &len) != DOCA_SUCCESS)
		return false;
	xt_log_reset();
	if (doca_mmap_create_from_export(NULL, desc, len, w->dpu, &w->imported) != DOCA_SUCCESS)
		return false;
	if (!xt_log_has("memcpy (same process)")) {
		fprintf(stderr, "the self import did not take the same-process path\n");
		return false;
	}
	return xt_dma_start(&w->x, w->dpu, 4);
}

static void world_close(struct world *w)
{
	xt_dma_stop(&w->x);
	if (w->imported != NULL)
		CHECK_OK(doca_mmap_destroy(w->imported));
	if (w->local != NULL)
		CHECK_OK(doca_mmap_destroy(w->local));
	if (w->dpu != NULL)
		CHECK_OK(doca_dev_close(w->dpu));
	if (w->host != NULL)
		CHECK_OK(doca_dev_close(w->host));
}

/* Copy LEN bytes from `from` to `to` (offsets into mem), one side through the import. */
static void overlapping_copy(bool import_is_source, size_t from, size_t to)
{
	struct world w;

	for (size_t i = 0; i < sizeof(mem); i++)
		mem[i] = xt_pat(9, i);
	memcpy(want, mem, sizeof(mem));
	memmove(want + to, want + from, LEN);
	REQUIRE(world_open(&w));
	struct doca_buf *src = xt_src(&w.x, import_is_source ? w.imported : w.local, (uintptr_t)mem + from, LEN);
	struct doca_buf *dst = xt_dst(&w.x, import_is_source ? w.local : w.imported, (uintptr_t)mem + to, LEN);
	REQUIRE(src != NULL && dst != NULL);
	CHECK_OK(xt_dma_copy(&w.x, src, dst));
	CHECK(memcmp(mem, want, sizeof(mem)) == 0);
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	world_close(&w);
}

static void reading_the_import_into_an_overlapping_local_range_moves_the_bytes(void)
{
	overlapping_copy(true, LEN, LEN + SHIFT);
	overlapping_copy(true, LEN + SHIFT, LEN);
}

static void writing_the_import_from_an_overlapping_local_range_moves_the_bytes(void)
{
	overlapping_copy(false, LEN, LEN + SHIFT);
	overlapping_copy(false, LEN + SHIFT, LEN);
}

int main(void)
{
	xt_capture_log();
	SD_RUN(reading_the_import_into_an_overlapping_local_range_moves_the_bytes);
	SD_RUN(writing_the_import_from_an_overlapping_local_range_moves_the_bytes);
	return sd_test_done();
}
