/*
 * doca_dma_set_ordered_completions (DOCA 3.2): refused with one record for
 * a NULL or foreign instance (DOCA_ERROR_INVALID_VALUE) and outside IDLE
 * (DOCA_ERROR_BAD_STATE); accepted while IDLE, before the first start and
 * between runs.  With ordered completions asked for, tasks of very
 * different sizes, largest first, are reported in submission order; the
 * suite runs this program once with the inline cpu engine and once with
 * copy worker threads (SOFTDOCA_DMA_WORKERS), where a small copy finishes
 * long before a large one submitted ahead of it.
 */
#include <stdlib.h>

#include "dma_fixture.h"

static void refused_for_null_and_foreign_instances(void)
{
	struct fx f;

	/* zeroed memory the size of anything: no DMA magic, nothing read beyond it */
	static _Alignas(64) uint8_t foreign[4096];

	REQUIRE(fx_setup(&f, 2));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_set_ordered_completions(NULL, 1), DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_set_ordered_completions((struct doca_dma *)foreign, 1),
				DOCA_ERROR_INVALID_VALUE));
	fx_teardown(&f);
}

static void accepted_only_while_idle(void)
{
	struct fx f;
	struct doca_task *held;

	REQUIRE(fx_setup(&f, 2));
	CHECK_LOGS(0, CHECK_OK(doca_dma_set_ordered_completions(f.dma, 1)));
	CHECK_LOGS(0, CHECK_OK(doca_dma_set_ordered_completions(f.dma, 0)));
	CHECK_LOGS(0, CHECK_OK(doca_dma_set_ordered_completions(f.dma, 255)));
	REQUIRE(fx_start(&f));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_set_ordered_completions(f.dma, 1), DOCA_ERROR_BAD_STATE));
	CHECK(fx_log_has("only while IDLE"));

	/* STOPPING: a task is still allocated */
	held = fx_task(&f, NULL, NULL, 1);
	REQUIRE(held != NULL);
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_LOGS(1, CHECK_ERR(doca_dma_set_ordered_completions(f.dma, 0), DOCA_ERROR_BAD_STATE));
	doca_task_free(held);
	fx_drain(&f);
	/* IDLE again: the setting may change between runs */
	CHECK_LOGS(0, CHECK_OK(doca_dma_set_ordered_completions(f.dma, 0)));
	fx_teardown(&f);
}

#define NTASKS 24

static void completions_come_in_submission_order(void)
{
	/* largest first, so that a later small copy is done long before */
	static const size_t sizes[NTASKS] = { 8u << 20, 1, 4096, 1u << 20, 7, 64, 3000000, 2, 65536, 9, 512, 4u << 20,
					      1, 1, 100, 2u << 20, 33, 8192, 5, 1u << 18, 77, 3, 123457, 1 };
	size_t total = 0, off = 0;
	uint8_t *src, *dst;
	struct doca_mmap *ms, *md;
	struct doca_buf *bs[NTASKS], *bd[NTASKS];
	struct doca_task *t[NTASKS];
	struct fx f;

	for (int i = 0; i < NTASKS; i++)
		total += sizes[i];
	src = malloc(total);
	dst = calloc(1, total);
	REQUIRE(src != NULL && dst != NULL);
	fx_fill(src, total, 5);
	REQUIRE(fx_setup(&f, NTASKS));
	CHECK_OK(doca_dma_set_ordered_completions(f.dma, 1));
	ms = fx_mmap(f.dev, src, total, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	md = fx_mmap(f.dev, dst, total, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(ms != NULL && md != NULL);
	REQUIRE(fx_start(&f));
	fx_reset_events();
	for (int i = 0; i < NTASKS; i++) {
		bs[i] = fx_buf(&f, ms, src + off, sizes[i], src + off, sizes[i]);
		bd[i] = fx_buf(&f, md, dst + off, sizes[i], dst + off, 0);
		REQUIRE(bs[i] != NULL && bd[i] != NULL);
		t[i] = fx_task(&f, bs[i], bd[i], (uint64_t)i);
		REQUIRE(t[i] != NULL);
		off += sizes[i];
	}
	for (int i = 0; i < NTASKS; i++)
		CHECK_OK(doca_task_submit(t[i]));
	for (int spins = 0; fx_nevents < NTASKS && spins < 10000000; spins++)
		(void)doca_pe_progress(f.pe);
	CHECK(fx_nevents == NTASKS);
	for (int i = 0; i < fx_nevents; i++) {
		CHECK(fx_events[i].kind == FX_EV_SUCCESS);
		CHECK(fx_events[i].a == (uint64_t)i);
	}
	CHECK(memcmp(src, dst, total) == 0);
	for (int i = 0; i < NTASKS; i++) {
		fx_put(bs[i]);
		fx_put(bd[i]);
	}
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(md));
	fx_teardown(&f);
	free(src);
	free(dst);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(refused_for_null_and_foreign_instances);
	SD_RUN(accepted_only_while_idle);
	SD_RUN(completions_come_in_submission_order);
	return sd_test_done();
}
