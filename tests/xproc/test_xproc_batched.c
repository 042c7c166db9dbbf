/*
 * test_xproc_batched.c - the batched fallback path (docs/mmap-registration.md,
 * "Where a range stays private"): with the worker engine and the vm path,
 * many one-piece tasks on one import go to the kernel in one
 * process_vm_readv/process_vm_writev.  Every task must still report what a
 * task of its own would: the bytes of every task before the page the
 * exporter made unreachable, DOCA_ERROR_IO_FAILED for the task on it
 * (wherever it falls in a batch), and for the tasks after it either their
 * bytes or the flush that follows a failed memcpy.
 *
 * Run with SOFTDOCA_XPROC_PATH=vm, SOFTDOCA_DMA_WORKERS=1 and
 * SOFTDOCA_MMAP_SHARE=off (the exporter's heap stays private); argv[1] is
 * the xproc_peer program.
 */
#include "xproc_test.h"

#define PAGES 48
#define PIECE 256
#define HOLE 17 /* the page the exporter makes unreachable */

struct run {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	struct doca_mmap *remote, *local;
	uint8_t *mem;
	doca_error_t status[PAGES];
	int done;
};

static void task_done(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct run *r = cud.ptr;

	r->status[tud.u64] = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	r->done++;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static bool run_open(struct run *r, struct xt_peer *e)
{
	union doca_data ud = {.ptr = r};
	struct doca_ctx *ctx;

	memset(r, 0, sizeof(*r));
	r->dev = sd_test_open_dev_at(XT_DPU_PCI);
	r->mem = calloc(PAGES, 4096);
	if (r->dev == NULL || r->mem == NULL ||
	    doca_mmap_create_from_export(NULL, e->desc, e->desc_len, r->dev, &r->remote) != DOCA_SUCCESS)
		return false;
	r->local = xt_local_mmap(r->dev, r->mem, PAGES * 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (r->local == NULL || doca_pe_create(&r->pe) != DOCA_SUCCESS || doca_dma_create(r->dev, &r->dma) != DOCA_SUCCESS ||
	    doca_buf_inventory_create(2 * PAGES, &r->inv) != DOCA_SUCCESS || doca_buf_inventory_start(r->inv) != DOCA_SUCCESS)
		return false;
	ctx = doca_dma_as_ctx(r->dma);
	return doca_ctx_set_user_data(ctx, ud) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_set_conf(r->dma, task_done, task_done, PAGES) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(r->pe, ctx) == DOCA_SUCCESS && doca_ctx_start(ctx) == DOCA_SUCCESS;
}

/* PAGES tasks of PIECE bytes, one at the start of each page, submitted together, then drained. */
static bool run_pieces(struct run *r, struct xt_peer *e, bool write, struct doca_buf **bufs)
{
	r->done = 0;
	for (int i = 0; i < PAGES; i++) {
		void *rem = (void *)(uintptr_t)(e->addr + (uint64_t)i * 4096), *loc = r->mem + (size_t)i * 4096;
		struct doca_buf *s = NULL, *d = NULL;
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data tud = {.u64 = (uint64_t)i};

		if (doca_buf_inventory_buf_get_by_data(r->inv, write ? r->local : r->remote, write ? loc : rem, PIECE, &s) !=
			    DOCA_SUCCESS ||
		    doca_buf_inventory_buf_get_by_addr(r->inv, write ? r->remote : r->local, write ? rem : loc, PIECE, &d) !=
			    DOCA_SUCCESS ||
		    doca_dma_task_memcpy_alloc_init(r->dma, s, d, tud, &t) != DOCA_SUCCESS)
			return false;
		bufs[2 * i] = s;
		bufs[2 * i + 1] = d;
		if (doca_task_submit(doca_dma_task_memcpy_as_task(t)) != DOCA_SUCCESS)
			return false;
	}
	for (double t0 = xt_now_ms(); r->done < PAGES && xt_now_ms() - t0 < 10000;)
		doca_pe_progress(r->pe);
	return r->done == PAGES;
}

static void run_bufs_put(struct doca_buf **bufs)
{
	for (int i = 0; i < 2 * PAGES; i++)
		if (bufs[i] != NULL)
			doca_buf_dec_refcount(bufs[i], NULL);
}

static void run_close(struct run *r)
{
	if (r->dma != NULL) {
		doca_ctx_stop(doca_dma_as_ctx(r->dma));
		doca_dma_destroy(r->dma);
	}
	if (r->pe != NULL)
		doca_pe_destroy(r->pe);
	if (r->inv != NULL)
		doca_buf_inventory_destroy(r->inv);
	if (r->remote != NULL)
		doca_mmap_destroy(r->remote);
	if (r->local != NULL)
		doca_mmap_destroy(r->local);
	if (r->dev != NULL)
		doca_dev_close(r->dev);
	free(r->mem);
}

/*
 * A failed memcpy ends its context (the DOCA rule): the tasks after the
 * hole are flushed (DOCA_ERROR_SHUTDOWN) unless they were reported first.
 */
static void check_outcomes(const struct run *r, bool write, struct xt_peer *e)
{
	char reply[64], cmd[64];

	for (int i = 0; i < PAGES; i++) {
		if (i == HOLE) {
			CHECK_ERR(r->status[i], DOCA_ERROR_IO_FAILED);
		} else if (i < HOLE || r->status[i] == DOCA_SUCCESS) {
			CHECK_OK(r->status[i]);
			if (!write) {
				CHECK(xt_verify(r->mem + (size_t)i * 4096, PIECE, 41, (uint64_t)i * 4096) < 0);
				continue;
			}
			snprintf(cmd, sizeof(cmd), "check 42 %d %d", i * 4096, PIECE);
			CHECK(xt_peer_cmd(e, cmd, reply, sizeof(reply)) && strcmp(reply, "ok") == 0);
		} else {
			CHECK_ERR(r->status[i], DOCA_ERROR_SHUTDOWN);
		}
	}
}

static void one_way(bool write)
{
	struct xt_peer e;
	struct run r;
	struct doca_buf *bufs[2 * PAGES] = {0};
	char reply[64], cmd[64];

	REQUIRE(xt_exporter_start(&e, "heap", "rw", XT_HOST_PCI, PAGES * 4096, 41, NULL));
	snprintf(cmd, sizeof(cmd), "punch %d", HOLE * 4096);
	REQUIRE(xt_peer_cmd(&e, cmd, reply, sizeof(reply)) && strcmp(reply, "ok") == 0);
	REQUIRE(run_open(&r, &e));
	for (int i = 0; write && i < PAGES; i++)
		xt_fill(r.mem + (size_t)i * 4096, PIECE, 42, (uint64_t)i * 4096);
	CHECK(run_pieces(&r, &e, write, bufs));
	check_outcomes(&r, write, &e);
	run_bufs_put(bufs);
	run_close(&r);
	xt_peer_cmd(&e, "quit", reply, sizeof(reply));
	xt_peer_finish(&e);
}

static void batched_reads_report_each_task_own_outcome(void)
{
	one_way(false);
}

static void batched_writes_report_each_task_own_outcome(void)
{
	one_way(true);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s XPROC_PEER\n", argv[0]);
		return 2;
	}
	xt_peer_exe = argv[1];
	xt_capture_log();
	SD_RUN(batched_reads_report_each_task_own_outcome);
	SD_RUN(batched_writes_report_each_task_own_outcome);
	return sd_test_done();
}
