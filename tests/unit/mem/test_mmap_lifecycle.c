/*
 * Local mmap lifecycle and configuration: defaults, which calls are legal
 * for Idle / Started / Stopped maps, range and permission checks,
 * device limit, user data, free callback and thread safety.
 */
#include <stdint.h>
#include <stdlib.h>

#include <doca_mmap.h>

#include "mem_test.h"

static char mem[4096];

static void record_free(void *addr, size_t len, void *cookie);

static struct doca_mmap *new_mmap(void)
{
	struct doca_mmap *m = NULL;
	CHECK_QUIET_OK(doca_mmap_create(&m));
	return m;
}

static struct doca_mmap *new_started_mmap(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(m));
	return m;
}

static void create_gives_documented_defaults(void)
{
	struct doca_mmap *m = new_mmap();
	REQUIRE(m != NULL);
	uint32_t max_devs = 0, nbufs = 7;
	uint8_t exported = 9, from_export = 9;
	union doca_data ud = {.u64 = 5};
	CHECK_QUIET_OK(doca_mmap_get_max_num_devices(m, &max_devs));
	CHECK_EQ_U64(max_devs, 16);
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(m, &nbufs));
	CHECK_EQ_U64(nbufs, 0);
	CHECK_QUIET_OK(doca_mmap_get_exported(m, &exported));
	CHECK_EQ_U64(exported, 0);
	CHECK_QUIET_OK(doca_mmap_get_from_export(m, &from_export));
	CHECK_EQ_U64(from_export, 0);
	CHECK_QUIET_OK(doca_mmap_get_user_data(m, &ud));
	CHECK_EQ_U64(ud.u64, 0);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void null_arguments_are_rejected(void)
{
	struct doca_mmap *m = new_mmap();
	void *addr;
	size_t len;
	uint32_t u32;
	uint8_t u8;
	union doca_data ud = {.u64 = 0};

	CHECK_REJECT(doca_mmap_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_memrange(NULL, mem, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_memrange(m, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_dmabuf_memrange(NULL, 3, mem, 0, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_dmabuf_memrange(m, 3, NULL, 0, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_memrange(NULL, &addr, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_memrange(m, NULL, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_memrange(m, &addr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_permissions(NULL, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_free_cb(NULL, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_free_cb(m, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_max_num_devices(NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_max_num_devices(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_max_num_devices(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_user_data(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_num_bufs(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_num_bufs(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_exported(NULL, &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_exported(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_from_export(NULL, &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_from_export(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_enable_thread_safety(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_add_dev(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_add_dev(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_rm_dev(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_rm_dev(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void foreign_pointer_is_not_taken_for_an_mmap(void)
{
	/* Zeroed memory is not a live mmap: rejected, never dereferenced as one. */
	static uint64_t not_an_mmap[64];
	CHECK_REJECT(doca_mmap_start((struct doca_mmap *)not_an_mmap), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_destroy((struct doca_mmap *)not_an_mmap), DOCA_ERROR_INVALID_VALUE);
}

static void destroy_untouched_mmap_succeeds(void)
{
	/* Dma_copy_dpu creates a second mmap and destroys it without a range. */
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void destroy_started_mmap_succeeds(void)
{
	struct doca_mmap *m = new_started_mmap();
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void start_requires_a_range(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_REJECT(doca_mmap_start(m), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void start_twice_is_bad_state(void)
{
	struct doca_mmap *m = new_started_mmap();
	CHECK_REJECT(doca_mmap_start(m), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void stop_when_not_started_is_bad_state(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_REJECT(doca_mmap_stop(m), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_REJECT(doca_mmap_stop(m), DOCA_ERROR_BAD_STATE);
	/* A stopped map starts again. */
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void memrange_rules(void)
{
	struct doca_mmap *m = new_mmap();
	void *addr = NULL;
	size_t len = 0;
	CHECK_REJECT(doca_mmap_get_memrange(m, &addr, &len), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_mmap_set_memrange(m, mem, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_memrange(m, (void *)(UINTPTR_MAX - 10), 100), DOCA_ERROR_INVALID_VALUE);
	/* Unaligned, tiny heap ranges are fine. */
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem + 3, 5));
	CHECK_QUIET_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem + 3);
	CHECK_EQ_U64(len, 5);
	/* Once only: Idle with a range, Started, Stopped. */
	CHECK_REJECT(doca_mmap_set_memrange(m, mem, 8), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_mmap_set_dmabuf_memrange(m, 3, mem, 0, 8), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_REJECT(doca_mmap_set_memrange(m, mem, 8), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_mmap_set_dmabuf_memrange(m, 3, mem, 0, 8), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_REJECT(doca_mmap_set_memrange(m, mem, 8), DOCA_ERROR_NOT_PERMITTED);
	/* The failed calls changed nothing. */
	CHECK_QUIET_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem + 3);
	CHECK_EQ_U64(len, 5);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void dmabuf_memrange_behaves_like_memrange(void)
{
	struct doca_mmap *m = new_mmap();
	void *addr = NULL;
	size_t len = 0;
	CHECK_REJECT(doca_mmap_set_dmabuf_memrange(m, -1, mem, 0, 64), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_dmabuf_memrange(m, 5, mem, 0, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_mmap_set_dmabuf_memrange(m, 5, mem, 128, 64));
	CHECK_QUIET_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem);
	CHECK_EQ_U64(len, 64);
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void permission_combinations(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_REJECT(doca_mmap_set_permissions(m, 1u << 7), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_permissions(m, 0x80000001u), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE),
		     DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_ONLY |
							  DOCA_ACCESS_FLAG_PCI_READ_WRITE),
		     DOCA_ERROR_INVALID_VALUE);
	/* Everything else is accepted. */
	const uint32_t ok_masks[] = {
		DOCA_ACCESS_FLAG_LOCAL_READ_ONLY,
		DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
		DOCA_ACCESS_FLAG_PCI_READ_ONLY,
		DOCA_ACCESS_FLAG_PCI_READ_WRITE,
		DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING,
		DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC,
		DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
			DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC |
			DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING,
	};
	for (size_t i = 0; i < sizeof(ok_masks) / sizeof(ok_masks[0]); i++)
		CHECK_QUIET_OK(doca_mmap_set_permissions(m, ok_masks[i]));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void setters_are_refused_while_started_and_allowed_when_stopped(void)
{
	struct doca_mmap *m = new_started_mmap();
	union doca_data ud = {.u64 = 42};
	CHECK_REJECT(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_mmap_set_user_data(m, ud), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_mmap_set_free_cb(m, record_free, NULL), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_mmap_set_max_num_devices(m, 4), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_mmap_enable_thread_safety(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_QUIET_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY));
	CHECK_QUIET_OK(doca_mmap_set_user_data(m, ud));
	/* The device limit is frozen for ever once the map has been started. */
	CHECK_REJECT(doca_mmap_set_max_num_devices(m, 4), DOCA_ERROR_NOT_PERMITTED);
	union doca_data got = {.u64 = 0};
	CHECK_QUIET_OK(doca_mmap_get_user_data(m, &got));
	CHECK_EQ_U64(got.u64, 42);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void max_num_devices_values(void)
{
	struct doca_mmap *m = new_mmap();
	uint32_t v = 0;
	CHECK_REJECT(doca_mmap_set_max_num_devices(m, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_mmap_set_max_num_devices(m, 3));
	CHECK_QUIET_OK(doca_mmap_get_max_num_devices(m, &v));
	CHECK_EQ_U64(v, 3);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

struct free_record {
	int calls;
	void *addr;
	size_t len;
	void *cookie;
};

static struct free_record freed;

static void record_free(void *addr, size_t len, void *cookie)
{
	freed.calls++;
	freed.addr = addr;
	freed.len = len;
	freed.cookie = cookie;
}

static void other_free(void *addr, size_t len, void *cookie)
{
	(void)addr;
	(void)len;
	(void)cookie;
	freed.calls += 100;
}

static void free_cb_runs_once_at_destroy_of_a_started_map(void)
{
	memset(&freed, 0, sizeof(freed));
	struct doca_mmap *m = new_mmap();
	int cookie;
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, 100));
	CHECK_QUIET_OK(doca_mmap_set_free_cb(m, other_free, NULL));
	CHECK_QUIET_OK(doca_mmap_set_free_cb(m, record_free, &cookie)); /* the latest one counts */
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_EQ_U64(freed.calls, 0); /* not by stop */
	CHECK_QUIET_OK(doca_mmap_destroy(m));
	CHECK_EQ_U64(freed.calls, 1);
	CHECK(freed.addr == mem);
	CHECK_EQ_U64(freed.len, 100);
	CHECK(freed.cookie == &cookie);
}

static void free_cb_not_called_for_a_never_started_map(void)
{
	memset(&freed, 0, sizeof(freed));
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, 100));
	CHECK_QUIET_OK(doca_mmap_set_free_cb(m, record_free, NULL));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
	CHECK_EQ_U64(freed.calls, 0);
}

static void thread_safety_is_one_way_and_only_before_start(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_enable_thread_safety(m));
	CHECK_QUIET_OK(doca_mmap_enable_thread_safety(m)); /* second enable: no-op */
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_REJECT(doca_mmap_enable_thread_safety(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void dpa_functions_are_refused(void)
{
	struct doca_mmap *m = new_mmap();
	doca_dpa_dev_mmap_t h;
	CHECK_REJECT(doca_mmap_set_dpa_memrange(NULL, (struct doca_dpa *)mem, 0, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_dpa_memrange(m, NULL, 0, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_set_dpa_memrange(m, (struct doca_dpa *)mem, 0, 8), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_REJECT(doca_mmap_dev_get_dpa_handle(NULL, (struct doca_dev *)mem, &h), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_dev_get_dpa_handle(m, NULL, &h), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_dev_get_dpa_handle(m, (struct doca_dev *)mem, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_dev_get_dpa_handle(m, (struct doca_dev *)mem, &h), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

int main(void)
{
	mem_test_capture_sdk_log();
	SD_RUN(create_gives_documented_defaults);
	SD_RUN(null_arguments_are_rejected);
	SD_RUN(foreign_pointer_is_not_taken_for_an_mmap);
	SD_RUN(destroy_untouched_mmap_succeeds);
	SD_RUN(destroy_started_mmap_succeeds);
	SD_RUN(start_requires_a_range);
	SD_RUN(start_twice_is_bad_state);
	SD_RUN(stop_when_not_started_is_bad_state);
	SD_RUN(memrange_rules);
	SD_RUN(dmabuf_memrange_behaves_like_memrange);
	SD_RUN(permission_combinations);
	SD_RUN(setters_are_refused_while_started_and_allowed_when_stopped);
	SD_RUN(max_num_devices_values);
	SD_RUN(free_cb_runs_once_at_destroy_of_a_started_map);
	SD_RUN(free_cb_not_called_for_a_never_started_map);
	SD_RUN(thread_safety_is_one_way_and_only_before_start);
	SD_RUN(dpa_functions_are_refused);
	return sd_test_done();
}
