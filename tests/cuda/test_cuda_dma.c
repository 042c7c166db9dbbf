/*
 * test_cuda_dma.c - DOCA DMA memcpy tasks on the cuda engine.
 *
 * Runs against whatever driver SOFTDOCA_CUDA_LIB names: the stand-in
 * driver on CPU-only machines (meson suite `cuda`), the real libcuda.so.1
 * on a GPU machine (suite `gpu`, skipped with its reason when there is no
 * GPU).  Cases may be named on the command line to run a subset (the
 * fault-injection runs need their own process).
 */
#include <poll.h>
#include <stdint.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "gpu_util.h"
#include "log_capture.h"

#define NUM_TASKS 64

/* Where a test buffer lives. */
enum where { HOST = 0, GPU = 1 };

struct region {
	enum where where;
	uint8_t *addr;
	size_t len;
	struct doca_mmap *mmap;
};

struct rig {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_buf_inventory *inv;
	unsigned ok, failed;
	doca_error_t last_status;
};

static struct rig rig;

static void task_ok(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	rig.ok++;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static void task_err(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	rig.failed++;
	rig.last_status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static bool rig_open(void)
{
	memset(&rig, 0, sizeof(rig));
	rig.dev = gpu_doca_dev();
	if (rig.dev == NULL)
		return false;
	return doca_buf_inventory_create(256, &rig.inv) == DOCA_SUCCESS &&
	       doca_buf_inventory_start(rig.inv) == DOCA_SUCCESS && doca_pe_create(&rig.pe) == DOCA_SUCCESS &&
	       doca_dma_create(rig.dev, &rig.dma) == DOCA_SUCCESS && (rig.ctx = doca_dma_as_ctx(rig.dma)) != NULL &&
	       doca_dma_task_memcpy_set_conf(rig.dma, task_ok, task_err, NUM_TASKS) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(rig.pe, rig.ctx) == DOCA_SUCCESS && doca_ctx_start(rig.ctx) == DOCA_SUCCESS;
}

static enum doca_ctx_states rig_state(void)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	(void)doca_ctx_get_state(rig.ctx, &st);
	return st;
}

/* Progress until `n` reports arrived or 10 s passed; true when they did. */
static bool rig_wait_reports(unsigned n)
{
	time_t end = time(NULL) + 10;

	while (rig.ok + rig.failed < n && time(NULL) < end)
		(void)doca_pe_progress(rig.pe);
	return rig.ok + rig.failed >= n;
}

/* Stop the context and progress until it is IDLE (tasks flushed). */
static void rig_stop(void)
{
	time_t end = time(NULL) + 10;

	if (rig.ctx != NULL && rig_state() != DOCA_CTX_STATE_IDLE) {
		(void)doca_ctx_stop(rig.ctx);
		while (rig_state() != DOCA_CTX_STATE_IDLE && time(NULL) < end)
			(void)doca_pe_progress(rig.pe);
	}
	CHECK(rig.ctx == NULL || rig_state() == DOCA_CTX_STATE_IDLE);
}

/* Buffers and regions must be gone before this (they hold the device). */
static void rig_close(void)
{
	rig_stop();
	if (rig.dma != NULL)
		CHECK_OK(doca_dma_destroy(rig.dma));
	if (rig.pe != NULL)
		CHECK_OK(doca_pe_destroy(rig.pe));
	if (rig.inv != NULL)
		CHECK_OK(doca_buf_inventory_destroy(rig.inv));
	if (rig.dev != NULL)
		CHECK_OK(doca_dev_close(rig.dev));
	memset(&rig, 0, sizeof(rig));
}

static doca_error_t map_region(struct region *r, uint32_t perms)
{
	doca_error_t err = doca_mmap_create(&r->mmap);

	if (err == DOCA_SUCCESS)
		err = doca_mmap_set_memrange(r->mmap, r->addr, r->len);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_set_permissions(r->mmap, perms);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_add_dev(r->mmap, rig.dev);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_start(r->mmap);
	return err;
}

/* A mapped region of `len` bytes in host or GPU memory. */
static bool region_new(struct region *r, enum where where, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->where = where;
	r->len = len;
	r->addr = where == GPU ? gpu_alloc(len) : calloc(1, len);
	return r->addr != NULL && map_region(r, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) == DOCA_SUCCESS;
}

static void region_free(struct region *r)
{
	if (r->mmap != NULL) {
		CHECK_OK(doca_mmap_stop(r->mmap));
		CHECK_OK(doca_mmap_destroy(r->mmap));
	}
	if (r->addr != NULL) {
		if (r->where == GPU)
			gpu_free(r->addr);
		else
			free(r->addr);
	}
	memset(r, 0, sizeof(*r));
}

/* Write / read region bytes whatever the memory (GPU goes through the driver). */
static bool region_write(struct region *r, size_t off, const uint8_t *src, size_t len)
{
	if (r->where == GPU)
		return gpu_copy(r->addr + off, src, len);
	memcpy(r->addr + off, src, len);
	return true;
}

static bool region_read(struct region *r, size_t off, uint8_t *dst, size_t len)
{
	if (r->where == GPU)
		return gpu_copy(dst, r->addr + off, len);
	memcpy(dst, r->addr + off, len);
	return true;
}

static void pattern(uint8_t *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 131u + seed * 7u + (i >> 8));
}

static struct doca_buf *buf_data(struct region *r, size_t off, size_t len)
{
	struct doca_buf *b = NULL;

	if (doca_buf_inventory_buf_get_by_data(rig.inv, r->mmap, r->addr + off, len, &b) != DOCA_SUCCESS)
		return NULL;
	return b;
}

static struct doca_buf *buf_empty(struct region *r, size_t off, size_t len)
{
	struct doca_buf *b = NULL;

	if (doca_buf_inventory_buf_get_by_addr(rig.inv, r->mmap, r->addr + off, len, &b) != DOCA_SUCCESS)
		return NULL;
	return b;
}

static doca_error_t submit_copy(const struct doca_buf *src, struct doca_buf *dst)
{
	struct doca_dma_task_memcpy *task;
	union doca_data ud = { .u64 = 0 };
	doca_error_t err = doca_dma_task_memcpy_alloc_init(rig.dma, src, dst, ud, &task);

	if (err != DOCA_SUCCESS)
		return err;
	err = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	if (err != DOCA_SUCCESS)
		doca_task_free(doca_dma_task_memcpy_as_task(task));
	return err;
}

/* ---- cases ---- */

static void gpu_is_listed_as_a_dma_device(void)
{
	struct doca_dev *dev = gpu_doca_dev();
	const struct doca_devinfo *info;
	uint8_t export_pci = 1;

	REQUIRE(dev != NULL);
	info = doca_dev_as_devinfo(dev);
	CHECK_OK(doca_dma_cap_task_memcpy_is_supported(info));
	CHECK_OK(doca_mmap_cap_is_export_pci_supported(info, &export_pci));
	CHECK(export_pci == 0);
	CHECK_OK(doca_dev_close(dev));
}

/* One copy of `len` bytes from `from` memory to `to` memory, verified. */
static void copy_one(enum where from, enum where to, size_t len)
{
	struct region s, d;
	uint8_t *want = malloc(len), *got = malloc(len);
	struct doca_buf *sb, *db;
	size_t dlen = 0;

	REQUIRE(want != NULL && got != NULL);
	REQUIRE(region_new(&s, from, len));
	REQUIRE(region_new(&d, to, len));
	pattern(want, len, (unsigned)len);
	REQUIRE(region_write(&s, 0, want, len));
	sb = buf_data(&s, 0, len);
	db = buf_empty(&d, 0, len);
	REQUIRE(sb != NULL && db != NULL);
	CHECK_OK(submit_copy(sb, db));
	CHECK(rig_wait_reports(rig.ok + rig.failed + 1));
	CHECK(rig.failed == 0);
	CHECK_OK(doca_buf_get_data_len(db, &dlen));
	CHECK_EQ_U64(dlen, len);
	REQUIRE(region_read(&d, 0, got, len));
	if (memcmp(want, got, len) != 0) {
		size_t at = 0;

		while (want[at] == got[at])
			at++;
		printf("     %s -> %s, %zu bytes: first wrong byte at %zu\n", from == GPU ? "GPU" : "host",
		       to == GPU ? "GPU" : "host", len, at);
		CHECK(memcmp(want, got, len) == 0);
	}
	doca_buf_dec_refcount(sb, NULL);
	doca_buf_dec_refcount(db, NULL);
	region_free(&s);
	region_free(&d);
	free(want);
	free(got);
}

static void copies_every_direction_and_size(void)
{
	static const size_t sizes[] = { 1, 4099, 1u << 20 };

	REQUIRE(rig_open());
	for (int from = HOST; from <= GPU; from++)
		for (int to = HOST; to <= GPU; to++)
			for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
				copy_one((enum where)from, (enum where)to, sizes[i]);
	CHECK_EQ_U64(rig.ok, 12);
	rig_close();
}

/* Three host sources gathered into one GPU destination, scattered back into three host buffers. */
static void scatter_gather_lists_keep_their_order(void)
{
	static const size_t src_len[3] = { 1000, 2500, 37 };
	static const size_t dst_room[3] = { 700, 1800, 5000 };
	const size_t total = 1000 + 2500 + 37;
	struct region host, dev, back;
	uint8_t want[4096], got[4096];
	struct doca_buf *src[3], *mid, *dst[3];
	size_t off = 0;

	REQUIRE(rig_open());
	REQUIRE(region_new(&host, HOST, 8192));
	REQUIRE(region_new(&dev, GPU, 8192));
	REQUIRE(region_new(&back, HOST, 8192));
	pattern(want, total, 3);
	memcpy(host.addr, want, total);
	for (int i = 0; i < 3; i++) {
		src[i] = buf_data(&host, off, src_len[i]);
		REQUIRE(src[i] != NULL);
		if (i > 0)
			CHECK_OK(doca_buf_chain_list(src[0], src[i]));
		off += src_len[i];
	}
	mid = buf_empty(&dev, 0, 8192);
	REQUIRE(mid != NULL);
	CHECK_OK(submit_copy(src[0], mid));
	CHECK(rig_wait_reports(1));

	off = 0;
	for (int i = 0; i < 3; i++) {
		dst[i] = buf_empty(&back, off, dst_room[i]);
		REQUIRE(dst[i] != NULL);
		if (i > 0)
			CHECK_OK(doca_buf_chain_list(dst[0], dst[i]));
		off += dst_room[i] + 64; /* gaps stay untouched */
	}
	CHECK_OK(submit_copy(mid, dst[0]));
	CHECK(rig_wait_reports(2));
	CHECK(rig.failed == 0);

	/* 700 + 1800 fill the first two elements; the rest lands in the third. */
	size_t len = 0;
	CHECK_OK(doca_buf_get_data_len(dst[0], &len));
	CHECK_EQ_U64(len, 700);
	CHECK_OK(doca_buf_get_data_len(dst[1], &len));
	CHECK_EQ_U64(len, 1800);
	CHECK_OK(doca_buf_get_data_len(dst[2], &len));
	CHECK_EQ_U64(len, total - 2500);
	memcpy(got, back.addr, 700);
	memcpy(got + 700, back.addr + 764, 1800);
	memcpy(got + 2500, back.addr + 764 + 1864, total - 2500);
	CHECK(memcmp(want, got, total) == 0);
	CHECK(back.addr[700] == 0 && back.addr[763] == 0); /* gap untouched */

	doca_buf_dec_refcount(src[0], NULL);
	doca_buf_dec_refcount(mid, NULL);
	doca_buf_dec_refcount(dst[0], NULL);
	region_free(&host);
	region_free(&dev);
	region_free(&back);
	rig_close();
}

static void appends_after_existing_destination_data(void)
{
	struct region s, d;
	uint8_t want[150], got[150];
	struct doca_buf *sb, *db = NULL;
	size_t len = 0;

	REQUIRE(rig_open());
	REQUIRE(region_new(&s, HOST, 4096));
	REQUIRE(region_new(&d, GPU, 4096));
	pattern(want, sizeof(want), 9);
	REQUIRE(region_write(&d, 0, want, 100)); /* existing data in the destination */
	memcpy(s.addr, want + 100, 50);
	sb = buf_data(&s, 0, 50);
	/* 100 bytes of data at the start of a 4096-byte buffer. */
	CHECK_OK(doca_buf_inventory_buf_get_by_args(rig.inv, d.mmap, d.addr, 4096, d.addr, 100, &db));
	REQUIRE(sb != NULL && db != NULL);
	CHECK_OK(submit_copy(sb, db));
	CHECK(rig_wait_reports(1));
	CHECK_OK(doca_buf_get_data_len(db, &len));
	CHECK_EQ_U64(len, 150);
	REQUIRE(region_read(&d, 0, got, sizeof(got)));
	CHECK(memcmp(want, got, sizeof(got)) == 0);
	doca_buf_dec_refcount(sb, NULL);
	doca_buf_dec_refcount(db, NULL);
	region_free(&s);
	region_free(&d);
	rig_close();
}

static void overlapping_ranges_copy_like_memmove(void)
{
	struct region r;
	uint8_t want[4096], got[4096];
	struct doca_buf *sb, *db;

	REQUIRE(rig_open());
	REQUIRE(region_new(&r, GPU, 4096));
	pattern(want, sizeof(want), 5);
	REQUIRE(region_write(&r, 0, want, sizeof(want)));
	/* [0, 3000) onto [1000, 4000): the destination overlaps the source's tail. */
	sb = buf_data(&r, 0, 3000);
	db = buf_empty(&r, 1000, 3000);
	REQUIRE(sb != NULL && db != NULL);
	CHECK_OK(submit_copy(sb, db));
	CHECK(rig_wait_reports(1));
	memmove(want + 1000, want, 3000);
	REQUIRE(region_read(&r, 0, got, sizeof(got)));
	CHECK(memcmp(want, got, sizeof(got)) == 0);
	doca_buf_dec_refcount(sb, NULL);
	doca_buf_dec_refcount(db, NULL);
	region_free(&r);
	rig_close();
}

/* Both directions in flight at once, many tasks: every byte arrives. */
static void both_directions_in_flight_at_once(void)
{
	enum { N = 16, LEN = 64 * 1024 };
	struct region h, g, h2, g2;
	struct doca_buf *bufs[4 * N];
	unsigned nb = 0;

	REQUIRE(rig_open());
	REQUIRE(region_new(&h, HOST, N * LEN));
	REQUIRE(region_new(&g, GPU, N * LEN));
	REQUIRE(region_new(&g2, GPU, N * LEN));
	REQUIRE(region_new(&h2, HOST, N * LEN));
	pattern(h.addr, N * LEN, 1);
	{
		uint8_t *tmp = malloc(N * LEN);
		REQUIRE(tmp != NULL);
		pattern(tmp, N * LEN, 2);
		REQUIRE(region_write(&g2, 0, tmp, N * LEN));
		free(tmp);
	}
	for (unsigned i = 0; i < N; i++) {
		struct doca_buf *a = buf_data(&h, i * LEN, LEN), *b = buf_empty(&g, i * LEN, LEN);
		struct doca_buf *c = buf_data(&g2, i * LEN, LEN), *d = buf_empty(&h2, i * LEN, LEN);

		REQUIRE(a && b && c && d);
		bufs[nb++] = a, bufs[nb++] = b, bufs[nb++] = c, bufs[nb++] = d;
		CHECK_OK(submit_copy(a, b)); /* host -> GPU */
		CHECK_OK(submit_copy(c, d)); /* GPU -> host */
	}
	CHECK(rig_wait_reports(2 * N));
	CHECK_EQ_U64(rig.ok, 2 * N);
	{
		uint8_t *want = malloc(N * LEN), *got = malloc(N * LEN);
		REQUIRE(want && got);
		pattern(want, N * LEN, 2);
		CHECK(memcmp(want, h2.addr, N * LEN) == 0);
		REQUIRE(region_read(&g, 0, got, N * LEN));
		CHECK(memcmp(h.addr, got, N * LEN) == 0);
		free(want);
		free(got);
	}
	for (unsigned i = 0; i < nb; i++)
		doca_buf_dec_refcount(bufs[i], NULL);
	region_free(&h);
	region_free(&g);
	region_free(&g2);
	region_free(&h2);
	rig_close();
}

/* The PE's handle turns readable when an armed copy finishes. */
static void notification_handle_wakes_when_a_copy_finishes(void)
{
	struct region s, d;
	struct doca_buf *sb, *db;
	doca_notification_handle_t fd;
	struct pollfd p;

	REQUIRE(rig_open());
	REQUIRE(region_new(&s, HOST, 1 << 20));
	REQUIRE(region_new(&d, GPU, 1 << 20));
	sb = buf_data(&s, 0, 1 << 20);
	db = buf_empty(&d, 0, 1 << 20);
	REQUIRE(sb && db);
	CHECK_OK(doca_pe_get_notification_handle(rig.pe, &fd));
	CHECK_OK(submit_copy(sb, db));
	CHECK_OK(doca_pe_request_notification(rig.pe));
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	CHECK(poll(&p, 1, 10000) == 1);
	CHECK_OK(doca_pe_clear_notification(rig.pe, fd));
	CHECK(doca_pe_progress(rig.pe) == 1);
	CHECK_EQ_U64(rig.ok, 1);
	doca_buf_dec_refcount(sb, NULL);
	doca_buf_dec_refcount(db, NULL);
	region_free(&s);
	region_free(&d);
	rig_close();
}

/* Rules are the cpu engine's: a too-small destination and a read-only one. */
static void broken_rules_fail_like_on_the_cpu_engine(void)
{
	struct region s, d, ro;
	struct doca_buf *sb, *small, *rob;
	struct doca_dma_task_memcpy *task;
	union doca_data ud = { .u64 = 0 };

	REQUIRE(rig_open());
	REQUIRE(region_new(&s, HOST, 4096));
	REQUIRE(region_new(&d, GPU, 4096));
	memset(&ro, 0, sizeof(ro));
	ro.where = GPU;
	ro.len = 4096;
	ro.addr = gpu_alloc(4096);
	REQUIRE(ro.addr != NULL);
	REQUIRE(map_region(&ro, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY) == DOCA_SUCCESS);
	sb = buf_data(&s, 0, 1000);
	small = buf_empty(&d, 0, 10);
	rob = buf_empty(&ro, 0, 4096);
	REQUIRE(sb && small && rob);

	CHECK_OK(doca_dma_task_memcpy_alloc_init(rig.dma, sb, small, ud, &task));
	CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(task)), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(rig.dma, sb, rob, ud, &task));
	CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(task)), DOCA_ERROR_NOT_PERMITTED);
	doca_task_free(doca_dma_task_memcpy_as_task(task));

	/* Through doca_task_submit the error arrives at the callback, and stops the context. */
	struct capture *log = capture_new(true);

	REQUIRE(log != NULL && doca_log_backend_set_sdk_level(log->backend, DOCA_LOG_LEVEL_WARNING) == DOCA_SUCCESS);
	CHECK_OK(submit_copy(sb, small));
	CHECK(rig_wait_reports(1));
	CHECK_EQ_U64(rig.failed, 1);
	CHECK_ERR(rig.last_status, DOCA_ERROR_INVALID_VALUE);
	CHECK(rig_state() != DOCA_CTX_STATE_RUNNING);
	/* Found at submit, told once when doca_pe_progress reports it, in words (issue 12). */
	CHECK_EQ_U64(count_lines(log->text), 1);
	CHECK(capture_has(log, "[doca_pe_progress]") && capture_has(log, "has room for only 10 of the 1000 source bytes") &&
	      capture_has(log, "[V5]"));
	doca_buf_dec_refcount(sb, NULL);
	doca_buf_dec_refcount(small, NULL);
	doca_buf_dec_refcount(rob, NULL);
	region_free(&s);
	region_free(&d);
	region_free(&ro);
	rig_close();
}

/* GPU memory cannot be listed with a device that copies with the CPU. */
static void gpu_memory_with_a_cpu_device_is_refused(void)
{
	struct doca_devinfo **list;
	struct doca_dev *cpu_dev = NULL, *g = gpu_doca_dev();
	struct doca_mmap *m;
	uint32_t n = 0;
	void *mem = gpu_alloc(4096);
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	REQUIRE(g != NULL && mem != NULL);
	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS);
	for (uint32_t i = 0; i < n && cpu_dev == NULL; i++)
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) == DOCA_SUCCESS &&
		    strncmp(name, "gpu", 3) != 0)
			(void)doca_dev_open(list[i], &cpu_dev);
	doca_devinfo_destroy_list(list);
	REQUIRE(cpu_dev != NULL);
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, 4096));
	CHECK_OK(doca_mmap_add_dev(m, g));
	CHECK_OK(doca_mmap_add_dev(m, cpu_dev));
	CHECK_ERR(doca_mmap_start(m), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_mmap_destroy(m));
	gpu_free(mem);
	CHECK_OK(doca_dev_close(cpu_dev));
	CHECK_OK(doca_dev_close(g));
}

/* The driver's view of a host address: SD_CU_MEMORYTYPE_HOST once pinned, 0 when unknown (pageable). */
static unsigned driver_memory_type(const void *p)
{
	unsigned type = 0;

	if (gpu.api.pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (sd_cu_ptr)(uintptr_t)p) !=
	    SD_CU_SUCCESS)
		return 0;
	return type;
}

/* Pageable host memory is pinned while its mmap is started, and only then. */
static void pageable_memory_is_pinned_from_start_to_stop(void)
{
	struct fakecuda_stats before = gpu_stats(), during, after;
	struct region h, g;
	uint8_t *mem;

	REQUIRE(rig_open());
	REQUIRE(region_new(&h, HOST, 1 << 16)); /* pageable: pinned at start */
	REQUIRE(region_new(&g, GPU, 1 << 16));  /* GPU memory: nothing to pin */
	CHECK(driver_memory_type(h.addr) == SD_CU_MEMORYTYPE_HOST);
	CHECK(driver_memory_type(h.addr + (1 << 16) - 1) == SD_CU_MEMORYTYPE_HOST);
	CHECK(driver_memory_type(g.addr) == SD_CU_MEMORYTYPE_DEVICE);
	during = gpu_stats();
	mem = h.addr;
	CHECK_OK(doca_mmap_stop(h.mmap));
	CHECK(driver_memory_type(mem) == 0); /* unpinned at stop */
	CHECK_OK(doca_mmap_destroy(h.mmap));
	h.mmap = NULL;
	region_free(&h);
	region_free(&g);
	rig_close();
	after = gpu_stats();
	if (gpu.fake) {
		/* The stand-in driver's bookkeeping: one range pinned, then released; the queue's objects gone. */
		CHECK_EQ_U64(during.registered_ranges, before.registered_ranges + 1);
		CHECK_EQ_U64(after.registered_ranges, before.registered_ranges);
		CHECK_EQ_U64(after.unregister_calls, before.unregister_calls + 1);
		CHECK_EQ_U64(after.streams, before.streams);
		CHECK_EQ_U64(after.events, before.events);
	}
}

/* ---- cases run in their own process (see meson.build) ---- */

/* A copy the driver refuses at once fails its task with IO_FAILED. */
static void driver_refusal_fails_the_task(void)
{
	struct region s, d;
	struct doca_buf *sb, *db;

	REQUIRE(rig_open());
	REQUIRE(region_new(&s, HOST, 4096));
	REQUIRE(region_new(&d, GPU, 4096));
	sb = buf_data(&s, 0, 4096);
	db = buf_empty(&d, 0, 4096);
	REQUIRE(sb && db);
	CHECK_OK(submit_copy(sb, db));
	CHECK(rig_wait_reports(1));
	CHECK_EQ_U64(rig.failed, 1);
	CHECK_ERR(rig.last_status, DOCA_ERROR_IO_FAILED);
	rig_stop();
	doca_buf_dec_refcount(sb, NULL);
	doca_buf_dec_refcount(db, NULL);
	region_free(&s);
	region_free(&d);
	rig_close();
}

/* Slow copies (FAKECUDA_COPY_US large): progress finds nothing at first, then the report. */
static void copies_run_while_the_program_goes_on(void)
{
	enum { N = 8 };
	struct region s, d;
	struct doca_buf *sb[N], *db[N];
	doca_notification_handle_t fd;
	struct pollfd p;

	REQUIRE(rig_open());
	REQUIRE(region_new(&s, HOST, N * 4096));
	REQUIRE(region_new(&d, GPU, N * 4096));
	for (int i = 0; i < N; i++) {
		sb[i] = buf_data(&s, (size_t)i * 4096, 4096);
		db[i] = buf_empty(&d, (size_t)i * 4096, 4096);
		REQUIRE(sb[i] && db[i]);
	}
	CHECK_OK(submit_copy(sb[0], db[0]));
	CHECK(doca_pe_progress(rig.pe) == 0); /* still on the copy engine */
	CHECK_OK(doca_pe_get_notification_handle(rig.pe, &fd));
	CHECK_OK(doca_pe_request_notification(rig.pe));
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	CHECK(poll(&p, 1, 0) == 0); /* not readable before the copy ends */
	CHECK(poll(&p, 1, 10000) == 1);
	CHECK_OK(doca_pe_clear_notification(rig.pe, fd));
	CHECK(doca_pe_progress(rig.pe) == 1);
	CHECK_EQ_U64(rig.ok, 1);

	/* Armed first, submitted after: the copy's end still wakes the handle. */
	CHECK_OK(doca_pe_request_notification(rig.pe));
	CHECK_OK(submit_copy(sb[1], db[1]));
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(poll(&p, 1, 10000) == 1);
	CHECK_OK(doca_pe_clear_notification(rig.pe, fd));
	CHECK(doca_pe_progress(rig.pe) == 1);
	CHECK_EQ_U64(rig.ok, 2);

	/* Stop with copies in flight: all are flushed, none writes after IDLE. */
	for (int i = 2; i < N; i++)
		CHECK_OK(submit_copy(sb[i], db[i]));
	CHECK_ERR(doca_ctx_stop(rig.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(rig_wait_reports(N));
	CHECK_EQ_U64(rig.failed, N - 2);
	CHECK_ERR(rig.last_status, DOCA_ERROR_SHUTDOWN);
	if (gpu.fake) {
		struct fakecuda_stats st = gpu_stats();
		CHECK_EQ_U64(st.copies_executed, st.copies_queued);
	}
	rig_stop();
	for (int i = 0; i < N; i++) {
		doca_buf_dec_refcount(sb[i], NULL);
		doca_buf_dec_refcount(db[i], NULL);
	}
	region_free(&s);
	region_free(&d);
	rig_close();
}

/* FAKECUDA_REFUSE_PINNING: the mmap starts unpinned, says so once, and copies still arrive. */
static void refused_pinning_leaves_memory_pageable_with_a_warning(void)
{
	struct capture *log = capture_new(true);
	struct region s, d;
	uint8_t want[4096], got[4096];
	struct doca_buf *sb, *db;

	REQUIRE(log != NULL);
	CHECK_OK(doca_log_backend_set_sdk_level(log->backend, DOCA_LOG_LEVEL_WARNING));
	REQUIRE(rig_open());
	REQUIRE(region_new(&s, HOST, sizeof(want)));
	CHECK(capture_has(log, "cannot pin the 4096 host bytes"));
	CHECK(driver_memory_type(s.addr) == 0); /* left pageable */
	REQUIRE(region_new(&d, GPU, sizeof(want)));
	pattern(want, sizeof(want), 11);
	memcpy(s.addr, want, sizeof(want));
	sb = buf_data(&s, 0, sizeof(want));
	db = buf_empty(&d, 0, sizeof(want));
	REQUIRE(sb && db);
	CHECK_OK(submit_copy(sb, db));
	CHECK(rig_wait_reports(1));
	CHECK_EQ_U64(rig.ok, 1);
	REQUIRE(region_read(&d, 0, got, sizeof(got)));
	CHECK(memcmp(want, got, sizeof(got)) == 0);
	doca_buf_dec_refcount(sb, NULL);
	doca_buf_dec_refcount(db, NULL);
	region_free(&s);
	region_free(&d);
	rig_close();
}

struct named_case {
	const char *name;
	void (*fn)(void);
};

#define CASE(fn) { #fn, fn }
static const struct named_case cases[] = {
	CASE(gpu_is_listed_as_a_dma_device),
	CASE(copies_every_direction_and_size),
	CASE(scatter_gather_lists_keep_their_order),
	CASE(appends_after_existing_destination_data),
	CASE(overlapping_ranges_copy_like_memmove),
	CASE(both_directions_in_flight_at_once),
	CASE(notification_handle_wakes_when_a_copy_finishes),
	CASE(broken_rules_fail_like_on_the_cpu_engine),
	CASE(gpu_memory_with_a_cpu_device_is_refused),
	CASE(pageable_memory_is_pinned_from_start_to_stop),
};
/* Only when named: they need a driver set up to fail or to be slow. */
static const struct named_case solo_cases[] = {
	CASE(driver_refusal_fails_the_task),
	CASE(copies_run_while_the_program_goes_on),
	CASE(refused_pinning_leaves_memory_pageable_with_a_warning),
};

static void run_case(const struct named_case *c)
{
	sd_test_run(c->name, c->fn);
}

static bool run_named(const char *name)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].name, name) == 0)
			return run_case(&cases[i]), true;
	for (size_t i = 0; i < sizeof(solo_cases) / sizeof(solo_cases[0]); i++)
		if (strcmp(solo_cases[i].name, name) == 0)
			return run_case(&solo_cases[i]), true;
	return false;
}

int main(int argc, char **argv)
{
	struct doca_dev *listed;

	gpu_open();
	listed = gpu_doca_dev();
	if (listed == NULL) {
		/* The driver has a GPU, so softdoca must list it: a real failure. */
		fprintf(stderr, "softdoca lists no gpu0 device although the driver reports a GPU\n");
		return 1;
	}
	(void)doca_dev_close(listed);
	if (argc == 1) {
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			run_case(&cases[i]);
		return sd_test_done();
	}
	for (int i = 1; i < argc; i++) {
		if (!run_named(argv[i])) {
			fprintf(stderr, "unknown case %s\n", argv[i]);
			return 1;
		}
	}
	return sd_test_done();
}
