/*
 * Memcpy tasks on memory of an imported mmap (created from a PCI export,
 * here made by the same process): bytes move only through the memory
 * layer's access path; the exporter's rights decide V8/V9; an import made
 * on another device, or from an RDMA export, fails V6; and once the export
 * is stopped the task fails with DOCA_ERROR_IO_FAILED through the error
 * callback, fatal for the context and not logged at ERROR.
 *
 * Nothing here skips: the memory layer imports its own exports, so a
 * refused export or import fails the case that needed it.
 */
#include "dma_fixture.h"

static uint8_t host_mem[4096];
static uint8_t local_mem[4096];

struct exp {
	struct doca_mmap *host; /* exporter's mmap */
	struct doca_mmap *imp;  /* importer's view */
};

static bool export_import(struct fx *f, uint32_t perms, struct doca_dev *import_dev, struct exp *e)
{
	const void *desc = NULL;
	size_t desc_len = 0;

	e->imp = NULL;
	e->host = fx_mmap(f->dev, host_mem, sizeof(host_mem), perms);
	if (e->host == NULL || doca_mmap_export_pci(e->host, f->dev, &desc, &desc_len) != DOCA_SUCCESS)
		return false;
	return doca_mmap_create_from_export(NULL, desc, desc_len, import_dev, &e->imp) == DOCA_SUCCESS;
}

static void exp_release(struct exp *e)
{
	if (e->imp != NULL)
		CHECK_OK(doca_mmap_destroy(e->imp));
	if (e->host != NULL)
		CHECK_OK(doca_mmap_destroy(e->host));
}

/*
 * Run one task from `src` to `dst`, handed over by `submit`; returns the
 * refusal of `submit`, or the status the task's callback saw.
 * doca_task_try_submit checks the rules at submit; doca_task_submit leaves
 * them to where the task runs (doca_pe_progress, or the asynchronous
 * engine's submit hook), the path that remembers maps already seen to
 * pass them.
 */
static doca_error_t run_by(struct fx *f, const struct doca_buf *src, struct doca_buf *dst,
			   doca_error_t (*submit)(struct doca_task *))
{
	struct doca_task *t = fx_task(f, src, dst, 1);
	doca_error_t refused;

	if (t == NULL)
		return DOCA_ERROR_UNEXPECTED;
	refused = submit(t);
	if (refused != DOCA_SUCCESS) {
		doca_task_free(t);
		return refused;
	}
	fx_drain(f);
	for (int i = fx_nevents - 1; i >= 0; i--)
		if (fx_events[i].kind != FX_EV_STATE)
			return (doca_error_t)fx_events[i].b;
	return DOCA_ERROR_UNEXPECTED;
}

static doca_error_t run(struct fx *f, const struct doca_buf *src, struct doca_buf *dst)
{
	return run_by(f, src, dst, doca_task_try_submit);
}

static doca_error_t run_submitted(struct fx *f, const struct doca_buf *src, struct doca_buf *dst)
{
	return run_by(f, src, dst, doca_task_submit);
}

/* A started context, host memory filled from `seed` and exported with `perms`, imported; local memory zeroed in a local map. */
static bool host_and_local(struct fx *f, struct exp *e, uint32_t perms, uint8_t seed, struct doca_mmap **lm)
{
	*lm = NULL;
	if (!fx_setup(f, 4) || !fx_start(f))
		return false;
	fx_fill(host_mem, sizeof(host_mem), seed);
	memset(local_mem, 0, sizeof(local_mem));
	if (!export_import(f, perms, f->dev, e))
		return false;
	*lm = fx_mmap(f->dev, local_mem, sizeof(local_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return *lm != NULL;
}

static void read_from_and_write_to_host_memory(void)
{
	struct fx f;
	struct exp e;
	struct doca_mmap *lm;
	struct doca_buf *hs, *ld, *ls, *hd;

	REQUIRE(host_and_local(&f, &e, DOCA_ACCESS_FLAG_PCI_READ_WRITE, 90, &lm));

	/* host -> local */
	hs = fx_buf(&f, e.imp, host_mem, 1000, host_mem, 1000);
	ld = fx_buf(&f, lm, local_mem, 2048, local_mem, 0);
	REQUIRE(hs != NULL && ld != NULL);
	CHECK_OK(run(&f, hs, ld));
	CHECK(memcmp(local_mem, host_mem, 1000) == 0);
	CHECK_EQ_U64(fx_data_len(ld), 1000);

	/* local -> host, appended after 2000 bytes of host data */
	fx_fill(local_mem + 2048, 500, 3);
	ls = fx_buf(&f, lm, local_mem + 2048, 500, local_mem + 2048, 500);
	hd = fx_buf(&f, e.imp, host_mem + 1000, 3000, host_mem + 1000, 2000);
	REQUIRE(ls != NULL && hd != NULL);
	CHECK_OK(run(&f, ls, hd));
	CHECK(memcmp(host_mem + 3000, local_mem + 2048, 500) == 0);
	CHECK_EQ_U64(fx_data_len(hd), 2500);
	CHECK(fx_data(hd) == host_mem + 1000); /* exporter addresses, unchanged */

	fx_put(hs);
	fx_put(ld);
	fx_put(ls);
	fx_put(hd);
	CHECK_OK(doca_mmap_destroy(lm));
	exp_release(&e);
	fx_teardown(&f);
}

static void read_only_export_refuses_writes(void)
{
	struct fx f;
	struct exp e;
	struct doca_mmap *lm;
	struct doca_buf *hs, *hd, *l;

	REQUIRE(fx_setup(&f, 4) && fx_start(&f));
	fx_fill(host_mem, sizeof(host_mem), 5);
	REQUIRE(export_import(&f, DOCA_ACCESS_FLAG_PCI_READ_ONLY, f.dev, &e));
	lm = fx_mmap(f.dev, local_mem, sizeof(local_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(lm != NULL);
	hs = fx_buf(&f, e.imp, host_mem, 64, host_mem, 64);
	hd = fx_buf(&f, e.imp, host_mem + 64, 64, host_mem + 64, 0);
	l = fx_buf(&f, lm, local_mem, 64, local_mem, 64);
	REQUIRE(hs != NULL && hd != NULL && l != NULL);
	CHECK_ERR(run(&f, l, hd), DOCA_ERROR_NOT_PERMITTED); /* V9 */
	CHECK_OK(doca_buf_reset_data_len(l));
	CHECK_OK(run(&f, hs, l)); /* reading is granted */
	fx_put(hs);
	fx_put(hd);
	fx_put(l);
	CHECK_OK(doca_mmap_destroy(lm));
	exp_release(&e);
	fx_teardown(&f);
}

static void import_on_another_device_is_not_permitted(void)
{
	struct fx f;
	struct exp e;
	struct doca_dev *other = NULL;
	struct doca_mmap *lm;
	struct doca_buf *hs, *l;

	REQUIRE(fx_setup(&f, 4) && fx_start(&f));
	REQUIRE(f.nlist >= 2 && doca_dev_open(f.list[1], &other) == DOCA_SUCCESS);
	REQUIRE(export_import(&f, DOCA_ACCESS_FLAG_PCI_READ_WRITE, other, &e));
	lm = fx_mmap(f.dev, local_mem, sizeof(local_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(lm != NULL);
	hs = fx_buf(&f, e.imp, host_mem, 64, host_mem, 64);
	l = fx_buf(&f, lm, local_mem, 64, local_mem, 0);
	REQUIRE(hs != NULL && l != NULL);
	CHECK_ERR(run(&f, hs, l), DOCA_ERROR_NOT_PERMITTED); /* V6 */
	fx_put(hs);
	fx_put(l);
	CHECK_OK(doca_mmap_destroy(lm));
	exp_release(&e);
	CHECK_OK(doca_dev_close(other));
	fx_teardown(&f);
}

/*
 * An RDMA descriptor never gives a DMA task access (V6).  Where the device
 * cannot export for RDMA, the export is refused with NOT_SUPPORTED and one
 * record; where it can, the import is either refused or the task fails
 * with NOT_PERMITTED and moves no byte.  Each outcome is checked in full.
 */
static void rdma_descriptor_gives_dma_no_access(struct fx *f, const void *desc, size_t desc_len)
{
	struct doca_mmap *imp = NULL, *lm;
	struct doca_buf *hs, *l;
	doca_error_t imported = doca_mmap_create_from_export(NULL, desc, desc_len, f->dev, &imp);

	if (imported != DOCA_SUCCESS) {
		CHECK(imp == NULL);
		return;
	}
	lm = fx_mmap(f->dev, local_mem, sizeof(local_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(lm != NULL);
	memset(local_mem, 0x5a, 64);
	hs = fx_buf(f, imp, host_mem, 64, host_mem, 64);
	l = fx_buf(f, lm, local_mem, 64, local_mem, 0);
	REQUIRE(hs != NULL && l != NULL);
	CHECK_ERR(run(f, hs, l), DOCA_ERROR_NOT_PERMITTED); /* V6 */
	CHECK_EQ_U64(fx_data_len(l), 0);
	CHECK(local_mem[0] == 0x5a && local_mem[63] == 0x5a);
	fx_put(hs);
	fx_put(l);
	CHECK_OK(doca_mmap_destroy(lm));
	CHECK_OK(doca_mmap_destroy(imp));
}

static void rdma_export_import_is_not_usable_by_dma(void)
{
	struct fx f;
	struct doca_mmap *host;
	const void *desc = NULL;
	size_t desc_len = 0;
	doca_error_t exported;

	REQUIRE(fx_setup(&f, 4) && fx_start(&f));
	fx_fill(host_mem, sizeof(host_mem), 11);
	host = fx_mmap(f.dev, host_mem, sizeof(host_mem), DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(host != NULL);
	fx_log_mark();
	exported = doca_mmap_export_rdma(host, f.dev, &desc, &desc_len);
	if (exported == DOCA_SUCCESS) {
		CHECK(desc != NULL && desc_len > 0);
		if (desc != NULL && desc_len > 0)
			rdma_descriptor_gives_dma_no_access(&f, desc, desc_len);
	} else {
		/* no RDMA on this device: refused as unsupported, with one record, and nothing handed out */
		CHECK_ERR(exported, DOCA_ERROR_NOT_SUPPORTED);
		CHECK(desc == NULL && desc_len == 0);
		CHECK(fx_log_count() == 1 && fx_log_has("RDMA"));
	}
	CHECK_OK(doca_mmap_destroy(host));
	fx_teardown(&f);
}

static void stopped_export_fails_with_io_failed(void)
{
	struct fx f;
	struct exp e;
	struct doca_mmap *lm;
	struct doca_buf *hs, *l;
	struct doca_task *t;

	REQUIRE(fx_setup(&f, 4) && fx_start(&f));
	REQUIRE(export_import(&f, DOCA_ACCESS_FLAG_PCI_READ_WRITE, f.dev, &e));
	lm = fx_mmap(f.dev, local_mem, sizeof(local_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(lm != NULL);
	hs = fx_buf(&f, e.imp, host_mem, 64, host_mem, 64);
	l = fx_buf(&f, lm, local_mem, 64, local_mem, 0);
	REQUIRE(hs != NULL && l != NULL);
	CHECK_OK(doca_mmap_stop(e.host)); /* the importer's buffers do not pin the exporter */

	t = fx_task(&f, hs, l, 1);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(t));
	/* One ERROR record: the memory could not be reached (no rule is broken). */
	CHECK_LOGS(1, fx_drain(&f));
	CHECK(fx_log_has("failed with DOCA_ERROR_IO_FAILED: its memory could not be reached"));
	REQUIRE(fx_nevents >= 3);
	CHECK(fx_events[1].kind == FX_EV_STATE && fx_events[1].b == DOCA_CTX_STATE_STOPPING);
	CHECK(fx_events[2].kind == FX_EV_ERROR);
	CHECK_ERR((doca_error_t)fx_events[2].b, DOCA_ERROR_IO_FAILED);
	CHECK_EQ_U64(fx_data_len(l), 0);
	fx_put(hs);
	fx_put(l);
	CHECK_OK(doca_mmap_destroy(lm));
	exp_release(&e);
	fx_teardown(&f);
}

/*
 * Reads from a read-only import pass (and are remembered as passing); a
 * write to the same import, submitted right after them, still fails V9
 * and moves no byte: what passed as a source says nothing of the
 * destination right.
 */
static void import_read_repeatedly_still_refuses_a_write(void)
{
	struct fx f;
	struct exp e;
	struct doca_mmap *lm;
	struct doca_buf *hs, *hd, *l, *ls;
	uint8_t before[64];

	REQUIRE(host_and_local(&f, &e, DOCA_ACCESS_FLAG_PCI_READ_ONLY, 21, &lm));
	hs = fx_buf(&f, e.imp, host_mem, 256, host_mem, 256);
	l = fx_buf(&f, lm, local_mem, 1024, local_mem, 0);
	REQUIRE(hs != NULL && l != NULL);
	for (int i = 0; i < 3; i++)
		CHECK_OK(run_submitted(&f, hs, l));
	CHECK_EQ_U64(fx_data_len(l), 768);
	CHECK(memcmp(local_mem + 512, host_mem, 256) == 0);

	fx_fill(local_mem + 2048, 64, 99);
	ls = fx_buf(&f, lm, local_mem + 2048, 64, local_mem + 2048, 64);
	hd = fx_buf(&f, e.imp, host_mem + 1024, 64, host_mem + 1024, 0);
	REQUIRE(ls != NULL && hd != NULL);
	memcpy(before, host_mem + 1024, sizeof(before));
	fx_log_mark();
	CHECK_ERR(run_submitted(&f, ls, hd), DOCA_ERROR_NOT_PERMITTED); /* V9 */
	CHECK(fx_log_has("[V9]"));
	CHECK(memcmp(before, host_mem + 1024, sizeof(before)) == 0);
	CHECK_EQ_U64(fx_data_len(hd), 0);
	fx_put(hs);
	fx_put(hd);
	fx_put(l);
	fx_put(ls);
	CHECK_OK(doca_mmap_destroy(lm));
	exp_release(&e);
	fx_teardown(&f);
}

/*
 * Writes to a read-write import pass; that import is destroyed and a
 * read-only one made in its place (often at the same address): a write to
 * the new import fails V9.  A verdict belongs to an import, not to the
 * memory it happens to occupy.
 */
static void a_new_import_in_place_of_another_is_judged_afresh(void)
{
	struct fx f;
	struct exp e;
	struct doca_mmap *lm;
	struct doca_buf *ls, *hd;

	REQUIRE(host_and_local(&f, &e, DOCA_ACCESS_FLAG_PCI_READ_WRITE, 0, &lm));
	memset(host_mem, 0, sizeof(host_mem));
	fx_fill(local_mem, 128, 40);
	ls = fx_buf(&f, lm, local_mem, 128, local_mem, 128);
	hd = fx_buf(&f, e.imp, host_mem, 1024, host_mem, 0);
	REQUIRE(ls != NULL && hd != NULL);
	CHECK_OK(run_submitted(&f, ls, hd));
	CHECK_OK(run_submitted(&f, ls, hd));
	CHECK(memcmp(host_mem + 128, local_mem, 128) == 0);
	fx_put(hd);
	exp_release(&e);

	REQUIRE(export_import(&f, DOCA_ACCESS_FLAG_PCI_READ_ONLY, f.dev, &e));
	hd = fx_buf(&f, e.imp, host_mem + 2048, 1024, host_mem + 2048, 0);
	REQUIRE(hd != NULL);
	CHECK_ERR(run_submitted(&f, ls, hd), DOCA_ERROR_NOT_PERMITTED); /* V9 */
	CHECK_EQ_U64(fx_data_len(hd), 0);
	CHECK(host_mem[2048] == 0 && host_mem[2048 + 127] == 0);
	fx_put(hd);
	fx_put(ls);
	CHECK_OK(doca_mmap_destroy(lm));
	exp_release(&e);
	fx_teardown(&f);
}

/*
 * Copies from an import pass; the exporter then stops its mmap: the next
 * copy on the same (remembered) maps fails with DOCA_ERROR_IO_FAILED and
 * leaves the destination as it was.
 */
static void export_stopped_after_copies_fails_the_next_with_io_failed(void)
{
	struct fx f;
	struct exp e;
	struct doca_mmap *lm;
	struct doca_buf *hs, *l;

	REQUIRE(host_and_local(&f, &e, DOCA_ACCESS_FLAG_PCI_READ_WRITE, 77, &lm));
	hs = fx_buf(&f, e.imp, host_mem, 64, host_mem, 64);
	l = fx_buf(&f, lm, local_mem, 1024, local_mem, 0);
	REQUIRE(hs != NULL && l != NULL);
	CHECK_OK(run_submitted(&f, hs, l));
	CHECK_OK(run_submitted(&f, hs, l));
	CHECK_EQ_U64(fx_data_len(l), 128);
	CHECK_OK(doca_mmap_stop(e.host));
	CHECK_ERR(run_submitted(&f, hs, l), DOCA_ERROR_IO_FAILED);
	CHECK_EQ_U64(fx_data_len(l), 128);
	CHECK(local_mem[128] == 0 && local_mem[191] == 0);
	fx_put(hs);
	fx_put(l);
	CHECK_OK(doca_mmap_destroy(lm));
	exp_release(&e);
	fx_teardown(&f);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(read_from_and_write_to_host_memory);
	SD_RUN(read_only_export_refuses_writes);
	SD_RUN(import_on_another_device_is_not_permitted);
	SD_RUN(rdma_export_import_is_not_usable_by_dma);
	SD_RUN(stopped_export_fails_with_io_failed);
	SD_RUN(import_read_repeatedly_still_refuses_a_write);
	SD_RUN(a_new_import_in_place_of_another_is_judged_afresh);
	SD_RUN(export_stopped_after_copies_fails_the_next_with_io_failed);
	return sd_test_done();
}
