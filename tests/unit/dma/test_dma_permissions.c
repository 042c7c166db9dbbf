/*
 * Access rights and device association of the memory a memcpy task touches
 * (V6-V9): which permission masks make a
 * valid source or destination, which device registrations count, and what
 * a stopped mmap does.  Each refused case is checked through
 * doca_task_try_submit and through execution, and must leave the
 * destination memory untouched.
 */
#include "dma_fixture.h"

#define SENTINEL 0x3c

static uint8_t src_mem[4096];
static uint8_t dst_mem[4096];

static struct fx f;

static bool env_setup(void)
{
	if (!fx_setup(&f, 4))
		return false;
	fx_fill(src_mem, sizeof(src_mem), 1);
	memset(dst_mem, SENTINEL, sizeof(dst_mem));
	return fx_start(&f);
}

static bool dst_untouched(void)
{
	for (size_t i = 0; i < sizeof(dst_mem); i++)
		if (dst_mem[i] != SENTINEL)
			return false;
	return true;
}

/*
 * Copy 256 bytes from an mmap with `src_perms` (registered with `src_dev`)
 * to one with `dst_perms` (registered with `dst_dev`): returns the
 * try_submit code, and *exec the status seen by the callback after a plain
 * submit of the same task.
 */
static doca_error_t copy_with(struct doca_dev *src_dev, uint32_t src_perms, struct doca_dev *dst_dev,
			      uint32_t dst_perms, doca_error_t *exec)
{
	struct doca_mmap *ms = fx_mmap(src_dev, src_mem, sizeof(src_mem), src_perms);
	struct doca_mmap *md = fx_mmap(dst_dev, dst_mem, sizeof(dst_mem), dst_perms);
	struct doca_buf *s, *d;
	struct doca_task *t;
	doca_error_t tried;
	int before;

	*exec = DOCA_ERROR_UNEXPECTED;
	if (ms == NULL || md == NULL)
		return DOCA_ERROR_UNEXPECTED;
	s = fx_buf(&f, ms, src_mem, 256, src_mem, 256);
	d = fx_buf(&f, md, dst_mem, 256, dst_mem, 0);
	t = fx_task(&f, s, d, 1);
	if (s == NULL || d == NULL || t == NULL)
		return DOCA_ERROR_UNEXPECTED;

	tried = doca_task_try_submit(t);
	if (tried == DOCA_SUCCESS) {
		fx_drain(&f); /* run it, then set up for the plain submit */
		CHECK(memcmp(dst_mem, src_mem, 256) == 0);
		memset(dst_mem, SENTINEL, sizeof(dst_mem));
		CHECK_OK(doca_buf_reset_data_len(d));
		t = fx_task(&f, s, d, 2);
		if (t == NULL)
			return DOCA_ERROR_UNEXPECTED;
	}
	before = fx_nevents;
	if (doca_task_submit(t) == DOCA_SUCCESS) {
		fx_drain(&f);
		for (int i = before; i < fx_nevents; i++)
			if (fx_events[i].kind != FX_EV_STATE)
				*exec = (doca_error_t)fx_events[i].b;
	}
	if (*exec == DOCA_SUCCESS) {
		CHECK(memcmp(dst_mem, src_mem, 256) == 0);
		CHECK_EQ_U64(fx_data_len(d), 256);
	} else {
		CHECK(dst_untouched());
		CHECK_EQ_U64(fx_data_len(d), 0);
	}
	fx_put(s);
	fx_put(d);
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(md));
	return tried;
}

#define EXPECT_COPY(code, src_dev, src_perms, dst_dev, dst_perms)                                  \
	do {                                                                                       \
		doca_error_t exec_;                                                                \
		REQUIRE(env_setup());                                                              \
		CHECK_ERR(copy_with(src_dev, src_perms, dst_dev, dst_perms, &exec_), code);        \
		CHECK_ERR(exec_, code);                                                            \
		fx_teardown(&f);                                                           \
	} while (0)

static void local_read_only_destination_is_not_permitted(void)
{
	EXPECT_COPY(DOCA_ERROR_NOT_PERMITTED, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f.dev,
		    DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
}

static void pci_read_only_destination_is_not_permitted(void)
{
	EXPECT_COPY(DOCA_ERROR_NOT_PERMITTED, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f.dev,
		    DOCA_ACCESS_FLAG_PCI_READ_ONLY);
}

static void rdma_read_only_destination_is_not_permitted(void)
{
	EXPECT_COPY(DOCA_ERROR_NOT_PERMITTED, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f.dev,
		    DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING);
}

static void pci_read_write_only_destination_is_allowed(void)
{
	EXPECT_COPY(DOCA_SUCCESS, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f.dev, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
}

static void rdma_write_only_destination_is_allowed(void)
{
	EXPECT_COPY(DOCA_SUCCESS, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f.dev, DOCA_ACCESS_FLAG_RDMA_WRITE);
}

static void read_only_source_is_allowed(void)
{
	EXPECT_COPY(DOCA_SUCCESS, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXPECT_COPY(DOCA_SUCCESS, f.dev, DOCA_ACCESS_FLAG_PCI_READ_ONLY, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
}

static void mmap_without_the_device_is_not_permitted(void)
{
	EXPECT_COPY(DOCA_ERROR_NOT_PERMITTED, NULL, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f.dev,
		    DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXPECT_COPY(DOCA_ERROR_NOT_PERMITTED, f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, NULL,
		    DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
}

static void mmap_of_another_device_is_not_permitted(void)
{
	struct doca_dev *other = NULL;
	doca_error_t exec;

	REQUIRE(env_setup());
	REQUIRE(f.nlist >= 2 && doca_dev_open(f.list[1], &other) == DOCA_SUCCESS);
	CHECK_ERR(copy_with(f.dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, other, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, &exec),
		  DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(exec, DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_dev_close(other));
	fx_teardown(&f);
}

static void another_handle_of_the_same_device_counts(void)
{
	struct doca_dev *again = NULL;
	doca_error_t exec;

	REQUIRE(env_setup());
	REQUIRE(doca_dev_open(f.list[0], &again) == DOCA_SUCCESS);
	CHECK_OK(copy_with(again, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, again, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, &exec));
	CHECK_OK(exec);
	CHECK_OK(doca_dev_close(again));
	fx_teardown(&f);
}

static void removed_device_no_longer_counts(void)
{
	struct doca_mmap *ms = NULL, *md;
	struct doca_buf *s, *d;
	struct doca_task *t;

	REQUIRE(env_setup());
	md = fx_mmap(f.dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(md != NULL);
	REQUIRE(doca_mmap_create(&ms) == DOCA_SUCCESS);
	CHECK_OK(doca_mmap_set_memrange(ms, src_mem, sizeof(src_mem)));
	CHECK_OK(doca_mmap_add_dev(ms, f.dev));
	CHECK_OK(doca_mmap_rm_dev(ms, f.dev));
	CHECK_OK(doca_mmap_start(ms));
	s = fx_buf(&f, ms, src_mem, 64, src_mem, 64);
	d = fx_buf(&f, md, dst_mem, 64, dst_mem, 0);
	t = fx_task(&f, s, d, 1);
	REQUIRE(s != NULL && d != NULL && t != NULL);
	CHECK_ERR(doca_task_try_submit(t), DOCA_ERROR_NOT_PERMITTED);
	doca_task_free(t);
	fx_put(s);
	fx_put(d);
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(md));
	fx_teardown(&f);
}

static void stopped_mmap_is_not_permitted(void)
{
	struct doca_mmap *ms = NULL, *md;
	struct doca_buf *s, *d;
	struct doca_task *t;

	REQUIRE(env_setup());
	md = fx_mmap(f.dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(md != NULL);
	/* a thread-safe mmap may stop while buffers still point into it */
	REQUIRE(doca_mmap_create(&ms) == DOCA_SUCCESS);
	CHECK_OK(doca_mmap_set_memrange(ms, src_mem, sizeof(src_mem)));
	CHECK_OK(doca_mmap_add_dev(ms, f.dev));
	CHECK_OK(doca_mmap_enable_thread_safety(ms));
	CHECK_OK(doca_mmap_start(ms));
	s = fx_buf(&f, ms, src_mem, 64, src_mem, 64);
	d = fx_buf(&f, md, dst_mem, 64, dst_mem, 0);
	REQUIRE(s != NULL && d != NULL);
	REQUIRE(doca_mmap_stop(ms) == DOCA_SUCCESS);

	t = fx_task(&f, s, d, 1);
	REQUIRE(t != NULL);
	CHECK_ERR(doca_task_try_submit(t), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_task_submit(t));
	fx_drain(&f);
	REQUIRE(fx_nevents >= 3);
	CHECK(fx_events[2].kind == FX_EV_ERROR);
	CHECK_ERR((doca_error_t)fx_events[2].b, DOCA_ERROR_NOT_PERMITTED);
	CHECK(dst_untouched());

	/* started again, the same buffers work */
	CHECK_OK(doca_mmap_start(ms));
	REQUIRE(fx_start(&f));
	t = fx_task(&f, s, d, 2);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_try_submit(t));
	fx_drain(&f);
	CHECK(memcmp(dst_mem, src_mem, 64) == 0);
	fx_put(s);
	fx_put(d);
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(md));
	fx_teardown(&f);
}

/* Submit a fresh task for (s, d) and return the status its callback saw. */
static doca_error_t run_once(const struct doca_buf *s, struct doca_buf *d, uint64_t ud)
{
	struct doca_task *t = fx_task(&f, s, d, ud);
	doca_error_t seen = DOCA_ERROR_UNEXPECTED;
	int before = fx_nevents;

	if (t == NULL || doca_task_submit(t) != DOCA_SUCCESS)
		return DOCA_ERROR_UNEXPECTED;
	fx_drain(&f);
	for (int i = before; i < fx_nevents; i++)
		if (fx_events[i].kind != FX_EV_STATE)
			seen = (doca_error_t)fx_events[i].b;
	return seen;
}

/*
 * Execution remembers which started maps passed V6..V9 (dma_memcpy.c); a
 * map that stops, or restarts with other rights, must be judged again.
 */
static void verdict_does_not_outlive_the_start_period(void)
{
	struct doca_mmap *ms = NULL, *md;
	struct doca_buf *s, *d;

	REQUIRE(env_setup());
	md = fx_mmap(f.dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(md != NULL);
	REQUIRE(doca_mmap_create(&ms) == DOCA_SUCCESS);
	CHECK_OK(doca_mmap_set_memrange(ms, src_mem, sizeof(src_mem)));
	CHECK_OK(doca_mmap_add_dev(ms, f.dev));
	CHECK_OK(doca_mmap_enable_thread_safety(ms));
	CHECK_OK(doca_mmap_start(ms));
	s = fx_buf(&f, ms, src_mem, 64, src_mem, 64);
	d = fx_buf(&f, md, dst_mem, 64, dst_mem, 0);
	REQUIRE(s != NULL && d != NULL);
	CHECK_OK(run_once(s, d, 1)); /* learnt: both maps pass */
	CHECK_ERR(run_once(s, d, 2), DOCA_ERROR_INVALID_VALUE); /* known maps, full destination: V5 */
	REQUIRE(fx_start(&f));

	/* the source map stops under live buffers: V6 */
	CHECK_OK(doca_buf_reset_data_len(d));
	memset(dst_mem, SENTINEL, sizeof(dst_mem));
	CHECK_OK(doca_mmap_stop(ms));
	CHECK_ERR(run_once(s, d, 3), DOCA_ERROR_NOT_PERMITTED);
	CHECK(dst_untouched());
	CHECK_EQ_U64(fx_data_len(d), 0);
	REQUIRE(fx_start(&f));
	CHECK_OK(doca_mmap_start(ms));
	CHECK_OK(run_once(s, d, 4));
	CHECK(memcmp(dst_mem, src_mem, 64) == 0);

	/* the destination map restarts read-only: V9 */
	fx_put(d);
	memset(dst_mem, SENTINEL, sizeof(dst_mem));
	CHECK_OK(doca_mmap_stop(md));
	CHECK_OK(doca_mmap_set_permissions(md, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY));
	CHECK_OK(doca_mmap_start(md));
	d = fx_buf(&f, md, dst_mem, 64, dst_mem, 0);
	REQUIRE(d != NULL);
	CHECK_ERR(run_once(s, d, 5), DOCA_ERROR_NOT_PERMITTED);
	CHECK(dst_untouched());
	CHECK_EQ_U64(fx_data_len(d), 0);

	fx_put(s);
	fx_put(d);
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(md));
	fx_teardown(&f);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(local_read_only_destination_is_not_permitted);
	SD_RUN(pci_read_only_destination_is_not_permitted);
	SD_RUN(rdma_read_only_destination_is_not_permitted);
	SD_RUN(pci_read_write_only_destination_is_allowed);
	SD_RUN(rdma_write_only_destination_is_allowed);
	SD_RUN(read_only_source_is_allowed);
	SD_RUN(mmap_without_the_device_is_not_permitted);
	SD_RUN(mmap_of_another_device_is_not_permitted);
	SD_RUN(another_handle_of_the_same_device_counts);
	SD_RUN(removed_device_no_longer_counts);
	SD_RUN(stopped_mmap_is_not_permitted);
	SD_RUN(verdict_does_not_outlive_the_start_period);
	return sd_test_done();
}
