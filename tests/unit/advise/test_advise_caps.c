/*
 * Mmap-advise capabilities and their
 * enforcement, on a topology file (SOFTDOCA_TOPOLOGY) with three devices:
 * the default profile, one without invalidate-cache support, and one whose
 * maximum buffer size is 100 bytes.
 */
#include <stdlib.h>
#include <unistd.h>

#include "advise_fixture.h"

static const char topology[] = "[device 0000:03:00.0]\n"
			       "side = dpu\n"
			       "[device 0000:04:00.0]\n"
			       "side = dpu\n"
			       "advise_supported = no\n"
			       "[device 0000:05:00.0]\n"
			       "side = dpu\n"
			       "advise_max_buf_size = 100\n";

static char topo_path[] = "/tmp/softdoca-advise-topology-XXXXXX";

static struct doca_devinfo **list;
static uint32_t nlist;

static struct doca_devinfo *devinfo_of(const char *pci)
{
	for (uint32_t i = 0; i < nlist; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			return list[i];
	}
	return NULL;
}

static void the_default_device_supports_the_task_with_the_dma_limit(void)
{
	struct doca_devinfo *info = devinfo_of("0000:03:00.0");
	uint64_t adv_max = 0, dma_max = 1;

	REQUIRE(info != NULL);
	CHECK_QUIET(doca_mmap_advise_cap_task_cache_invalidate_is_supported(info), DOCA_SUCCESS);
	CHECK_QUIET(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(info, &adv_max), DOCA_SUCCESS);
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(info, &dma_max));
	CHECK_EQ_U64(adv_max, dma_max); /* both report the same limit */
	CHECK_EQ_U64(adv_max, 2ull * 1024 * 1024 * 1024);
}

static void an_unsupported_device_answers_quietly(void)
{
	struct doca_devinfo *info = devinfo_of("0000:04:00.0");

	REQUIRE(info != NULL);
	CHECK_QUIET(doca_mmap_advise_cap_task_cache_invalidate_is_supported(info), DOCA_ERROR_NOT_SUPPORTED);
}

static void queries_refuse_bad_arguments(void)
{
	uint64_t size = 0;
	uint32_t not_a_devinfo[16] = {0};

	CHECK_REJECT(doca_mmap_advise_cap_task_cache_invalidate_is_supported(NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_mmap_advise_cap_task_cache_invalidate_is_supported");
	CHECK_REJECT(doca_mmap_advise_cap_task_cache_invalidate_is_supported((struct doca_devinfo *)not_a_devinfo),
		     DOCA_ERROR_INVALID_VALUE, "doca_mmap_advise_cap_task_cache_invalidate_is_supported");
	CHECK_REJECT(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(NULL, &size), DOCA_ERROR_INVALID_VALUE,
		     "doca_mmap_advise_task_cache_invalidate_get_max_buf_size");
	CHECK_REJECT(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(list[0], NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_mmap_advise_task_cache_invalidate_get_max_buf_size");
}

static void an_unsupported_device_refuses_to_start(void)
{
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_mmap_advise *adv;
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	REQUIRE(doca_dev_open(devinfo_of("0000:04:00.0"), &dev) == DOCA_SUCCESS);
	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	CHECK_QUIET(doca_mmap_advise_create(dev, &adv), DOCA_SUCCESS);
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(adv, afx_ok, afx_err, 1));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_mmap_advise_as_ctx(adv)));
	CHECK_REJECT(doca_ctx_start(doca_mmap_advise_as_ctx(adv)), DOCA_ERROR_NOT_SUPPORTED, "doca_ctx_start");
	CHECK_OK(doca_ctx_get_state(doca_mmap_advise_as_ctx(adv), &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_mmap_advise_destroy(adv));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
}

static uint8_t mem[4096];

static void the_size_limit_is_enforced_at_the_reported_value(void)
{
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_buf *fits, *too_big;
	struct doca_mmap_advise *adv;
	struct doca_mmap_advise_task_invalidate_cache *task;
	union doca_data ud = {.u64 = 0};
	enum doca_ctx_states st;

	afx_n = 0;
	REQUIRE(doca_dev_open(devinfo_of("0000:05:00.0"), &dev) == DOCA_SUCCESS);
	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	REQUIRE(sd_fx_mmap(dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, &mmap) == DOCA_SUCCESS);
	REQUIRE(doca_buf_inventory_create(4, &inv) == DOCA_SUCCESS && doca_buf_inventory_start(inv) == DOCA_SUCCESS);
	REQUIRE(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem, 100, &fits) == DOCA_SUCCESS);
	REQUIRE(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + 100, 101, &too_big) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_advise_create(dev, &adv) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_advise_task_invalidate_cache_set_conf(adv, afx_ok, afx_err, 1) == DOCA_SUCCESS);
	REQUIRE(doca_pe_connect_ctx(pe, doca_mmap_advise_as_ctx(adv)) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(doca_mmap_advise_as_ctx(adv)) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_advise_task_invalidate_cache_alloc_init(adv, too_big, ud, &task) == DOCA_SUCCESS);

	/* Refused by validation: a refused call, one ERROR record naming doca_task_try_submit. */
	CHECK_REJECT(doca_task_try_submit(afx_t(task)), DOCA_ERROR_INVALID_VALUE, "doca_task_try_submit");
	/* A plain submit is accepted and fails when it runs, through the error callback. */
	CHECK_QUIET(doca_task_submit(afx_t(task)), DOCA_SUCCESS);
	afx_log_mark();
	CHECK_EQ_U64(doca_pe_progress(pe), 1);
	REQUIRE(afx_n == 1);
	CHECK(afx_ev[0].kind == AFX_ERR);
	CHECK_ERR(afx_ev[0].status, DOCA_ERROR_INVALID_VALUE);
	{
		bool all;

		CHECK_EQ_U64(afx_log_count("the context keeps running", &all), 1); /* the failed task's record */
		CHECK(all);
	}
	/* A3: not fatal, the context keeps running. */
	CHECK_OK(doca_ctx_get_state(doca_mmap_advise_as_ctx(adv), &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	/* Exactly at the limit is fine. */
	doca_mmap_advise_task_invalidate_cache_set_buf(task, fits);
	CHECK_OK(doca_task_try_submit(afx_t(task)));
	CHECK_EQ_U64(doca_pe_progress(pe), 1);
	REQUIRE(afx_n == 2);
	CHECK(afx_ev[1].kind == AFX_OK);

	doca_task_free(afx_t(task));
	CHECK_OK(doca_ctx_stop(doca_mmap_advise_as_ctx(adv)));
	CHECK_OK(doca_mmap_advise_destroy(adv));
	CHECK_OK(doca_pe_destroy(pe));
	doca_buf_dec_refcount(fits, NULL);
	doca_buf_dec_refcount(too_big, NULL);
	doca_buf_inventory_stop(inv);
	doca_buf_inventory_destroy(inv);
	doca_mmap_stop(mmap);
	doca_mmap_destroy(mmap);
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	int fd = mkstemp(topo_path);
	int rc;

	if (fd < 0 || write(fd, topology, sizeof(topology) - 1) != (ssize_t)(sizeof(topology) - 1)) {
		fprintf(stderr, "cannot write the topology file\n");
		return 1;
	}
	close(fd);
	setenv("SOFTDOCA_TOPOLOGY", topo_path, 1);
	afx_log_capture();
	if (doca_devinfo_create_list(&list, &nlist) != DOCA_SUCCESS || nlist != 3) {
		fprintf(stderr, "the topology file was not taken (%u devices)\n", nlist);
		unlink(topo_path);
		return 1;
	}
	SD_RUN(the_default_device_supports_the_task_with_the_dma_limit);
	SD_RUN(an_unsupported_device_answers_quietly);
	SD_RUN(queries_refuse_bad_arguments);
	SD_RUN(an_unsupported_device_refuses_to_start);
	SD_RUN(the_size_limit_is_enforced_at_the_reported_value);
	doca_devinfo_destroy_list(list);
	unlink(topo_path);
	rc = sd_test_done();
	return rc;
}
