/*
 * DMA behaviour that follows the device's capability profile, with a
 * topology file (SOFTDOCA_TOPOLOGY) that overrides it per device:
 *  - a device without memcpy answers NOT_SUPPORTED (logging nothing) and
 *    refuses doca_ctx_start with NOT_SUPPORTED;
 *  - smaller limits (tasks, list length, size) are enforced exactly at the
 *    values the capability queries report (V2, V4, set_conf);
 *  - a list length above the compile-time bound is reported, and enforced,
 *    clamped to that bound.
 */
#include <stdlib.h>
#include <unistd.h>

#include "dma_fixture.h"

static const char topology[] = "[device 0000:03:00.0]\n"
			       "side = dpu\n"
			       "[device 0000:04:00.0]\n"
			       "side = dpu\n"
			       "dma_memcpy = no\n"
			       "[device 0000:05:00.0]\n"
			       "side = dpu\n"
			       "dma_max_list_len = 2\n"
			       "dma_max_buf_size = 100\n"
			       "dma_max_tasks = 3\n"
			       "[device 0000:06:00.0]\n"
			       "side = dpu\n"
			       "dma_max_list_len = 1000\n";

static char topo_path[] = "/tmp/softdoca-dma-topology-XXXXXX";

static uint8_t src_mem[8192];
static uint8_t dst_mem[8192];

/* fx_setup on the device with PCI address `pci` (devices are listed sorted). */
static bool setup_on(struct fx *f, const char *pci, uint32_t ntasks)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	int index = -1;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			index = (int)i;
	}
	doca_devinfo_destroy_list(list);
	if (index < 0)
		return false;

	memset(f, 0, sizeof(*f));
	fx_reset_events();
	if (!fx_open_dev(f, (uint32_t)index) || doca_pe_create(&f->pe) != DOCA_SUCCESS ||
	    doca_dma_create(f->dev, &f->dma) != DOCA_SUCCESS)
		return false;
	f->ctx = doca_dma_as_ctx(f->dma);
	if (doca_ctx_set_state_changed_cb(f->ctx, fx_state_cb) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(f->pe, f->ctx) != DOCA_SUCCESS)
		return false;
	if (ntasks != 0 && doca_dma_task_memcpy_set_conf(f->dma, fx_success_cb, fx_error_cb, ntasks) != DOCA_SUCCESS)
		return false;
	return doca_buf_inventory_create(1024, &f->inv) == DOCA_SUCCESS && doca_buf_inventory_start(f->inv) == DOCA_SUCCESS;
}

/* A source list of `n` elements holding `each` bytes, a destination with room for all. */
static doca_error_t try_copy(struct fx *f, uint32_t n, size_t each)
{
	struct doca_mmap *ms = fx_mmap(f->dev, src_mem, sizeof(src_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_mmap *md = fx_mmap(f->dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_buf *s = NULL, *d = NULL;
	struct doca_task *t;
	doca_error_t err = DOCA_ERROR_UNEXPECTED;

	if (ms == NULL || md == NULL)
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		struct doca_buf *b = fx_buf(f, ms, src_mem + i * each, each, src_mem + i * each, each);

		if (b == NULL)
			goto out;
		if (s == NULL)
			s = b;
		else if (doca_buf_chain_list(s, b) != DOCA_SUCCESS)
			goto out;
	}
	d = fx_buf(f, md, dst_mem, sizeof(dst_mem), dst_mem, 0);
	t = fx_task(f, s, d, 1);
	if (d == NULL || t == NULL)
		goto out;
	err = doca_task_try_submit(t);
	if (err == DOCA_SUCCESS) {
		fx_drain(f);
		CHECK(memcmp(dst_mem, src_mem, n * each) == 0);
	} else {
		doca_task_free(t);
	}
out:
	fx_put(s);
	fx_put(d);
	if (ms != NULL)
		CHECK_OK(doca_mmap_destroy(ms));
	if (md != NULL)
		CHECK_OK(doca_mmap_destroy(md));
	return err;
}

static void device_without_memcpy(void)
{
	struct fx f;
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	uint32_t len = 0;
	uint64_t size = 0;

	REQUIRE(setup_on(&f, "0000:04:00.0", 4)); /* create does not check the capability */
	CHECK_LOGS(0, CHECK_ERR(doca_dma_cap_task_memcpy_is_supported(doca_dev_as_devinfo(f.dev)),
				DOCA_ERROR_NOT_SUPPORTED));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(f.dev), &len));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(f.dev), &size));
	CHECK_LOGS(1, CHECK_ERR(doca_ctx_start(f.ctx), DOCA_ERROR_NOT_SUPPORTED));
	CHECK_OK(doca_ctx_get_state(f.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK(fx_nevents == 0);
	fx_teardown(&f);
}

static void missing_conf_is_reported_before_missing_support(void)
{
	struct fx f;

	REQUIRE(setup_on(&f, "0000:04:00.0", 0));
	CHECK_ERR(doca_ctx_start(f.ctx), DOCA_ERROR_INVALID_VALUE);
	fx_teardown(&f);
}

static void small_limits_are_enforced_at_the_reported_values(void)
{
	struct fx f;
	uint32_t len = 0, max_tasks = 0;
	uint64_t size = 0;

	REQUIRE(setup_on(&f, "0000:05:00.0", 0));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(f.dev), &len));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(f.dev), &size));
	CHECK_OK(doca_dma_cap_get_max_num_tasks(f.dma, &max_tasks));
	CHECK_EQ_U64(len, 2);
	CHECK_EQ_U64(size, 100);
	CHECK_EQ_U64(max_tasks, 3);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 3));
	REQUIRE(fx_start(&f));

	CHECK_OK(try_copy(&f, 2, 50));                        /* at both limits */
	CHECK_ERR(try_copy(&f, 3, 10), DOCA_ERROR_INVALID_VALUE); /* V2 */
	CHECK_ERR(try_copy(&f, 1, 101), DOCA_ERROR_INVALID_VALUE); /* V4 */
	CHECK_ERR(try_copy(&f, 2, 51), DOCA_ERROR_INVALID_VALUE);  /* V4 over the list total */
	fx_teardown(&f);
}

static void list_length_above_the_bound_is_clamped(void)
{
	struct fx f;
	uint32_t len = 0;

	REQUIRE(setup_on(&f, "0000:06:00.0", 4));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(f.dev), &len));
	CHECK(len >= 64 && len < 1000);
	REQUIRE(fx_start(&f));
	CHECK_OK(try_copy(&f, len, 8));
	CHECK_ERR(try_copy(&f, len + 1, 8), DOCA_ERROR_INVALID_VALUE);
	fx_teardown(&f);
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
	fx_log_capture();
	fx_fill(src_mem, sizeof(src_mem), 17);
	SD_RUN(device_without_memcpy);
	SD_RUN(missing_conf_is_reported_before_missing_support);
	SD_RUN(small_limits_are_enforced_at_the_reported_values);
	SD_RUN(list_length_above_the_bound_is_clamped);
	rc = sd_test_done();
	unlink(topo_path);
	return rc;
}
