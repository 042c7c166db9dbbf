/*
 * Buffer pools: creation checks, layout and alignment, exhaustion,
 * state rules, and the pin a pool holds on its mmap.
 */
#include <stdbool.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_pool.h>
#include <doca_mmap.h>

#include "mem_test.h"

static _Alignas(64) char mem[1024];

static struct doca_mmap *new_mmap(void *addr, size_t len, bool start)
{
	struct doca_mmap *m = NULL;
	CHECK_QUIET_OK(doca_mmap_create(&m));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, addr, len));
	if (start)
		CHECK_QUIET_OK(doca_mmap_start(m));
	return m;
}

static void create_checks_its_arguments(void)
{
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), true);
	struct doca_mmap *no_range = NULL;
	CHECK_QUIET_OK(doca_mmap_create(&no_range));
	struct doca_buf_pool *p = NULL;
	CHECK_REJECT(doca_buf_pool_create(4, 16, NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_create(4, 16, m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_create(0, 16, m, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_create(4, 0, m, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_create((size_t)UINT32_MAX + 1, 1, m, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_create(4, 16, no_range, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK(p == NULL);
	CHECK_QUIET_OK(doca_mmap_destroy(no_range));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void null_and_foreign_pools_are_rejected(void)
{
	static uint64_t not_a_pool[16];
	struct doca_buf_pool *bogus = (struct doca_buf_pool *)not_a_pool;
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), true);
	struct doca_buf_pool *p = NULL;
	CHECK_QUIET_OK(doca_buf_pool_create(2, 8, m, &p));
	struct doca_buf *b;
	uint32_t u32;
	size_t sz;
	union doca_data ud = {.u64 = 0};
	CHECK_REJECT(doca_buf_pool_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_destroy(bogus), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_buf_alloc(NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_buf_alloc(p, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_user_data(p, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_set_element_alignment(NULL, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_element_alignment(NULL, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_element_alignment(p, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_num_elements(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_num_elements(p, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_num_free_elements(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_get_num_free_elements(p, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_pool_destroy(p));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void allocation_until_empty(void)
{
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), true);
	struct doca_buf_pool *p = NULL;
	CHECK_QUIET_OK(doca_buf_pool_create(3, 100, m, &p));
	struct doca_buf *b[3], *extra = NULL;
	CHECK_REJECT(doca_buf_pool_buf_alloc(p, &b[0]), DOCA_ERROR_BAD_STATE); /* not started */
	CHECK_QUIET_OK(doca_buf_pool_start(p));
	CHECK_REJECT(doca_buf_pool_start(p), DOCA_ERROR_BAD_STATE);
	for (int i = 0; i < 3; i++) {
		CHECK_QUIET_OK(doca_buf_pool_buf_alloc(p, &b[i]));
		void *head, *data;
		size_t len, dlen;
		uint16_t rc;
		CHECK_QUIET_OK(doca_buf_get_head(b[i], &head));
		CHECK_QUIET_OK(doca_buf_get_data(b[i], &data));
		CHECK_QUIET_OK(doca_buf_get_len(b[i], &len));
		CHECK_QUIET_OK(doca_buf_get_data_len(b[i], &dlen));
		CHECK_QUIET_OK(doca_buf_get_refcount(b[i], &rc));
		CHECK(head == mem + 100 * i);
		CHECK(data == head);
		CHECK_EQ_U64(len, 100);
		CHECK_EQ_U64(dlen, 0);
		CHECK_EQ_U64(rc, 1);
	}
	CHECK_REJECT(doca_buf_pool_buf_alloc(p, &extra), DOCA_ERROR_EMPTY);
	CHECK(extra == NULL);
	uint32_t n = 0;
	CHECK_QUIET_OK(doca_buf_pool_get_num_free_elements(p, &n));
	CHECK_EQ_U64(n, 0);
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK_EQ_U64(n, 3);

	/* A released element comes back with an empty data section. */
	CHECK_QUIET_OK(doca_buf_set_data(b[1], mem + 110, 20));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b[1], NULL));
	CHECK_QUIET_OK(doca_buf_pool_buf_alloc(p, &extra));
	void *data;
	size_t dlen;
	CHECK_QUIET_OK(doca_buf_get_data(extra, &data));
	CHECK_QUIET_OK(doca_buf_get_data_len(extra, &dlen));
	CHECK(data == mem + 100);
	CHECK_EQ_U64(dlen, 0);

	CHECK_REJECT(doca_buf_pool_stop(p), DOCA_ERROR_IN_USE);
	CHECK_REJECT(doca_buf_pool_destroy(p), DOCA_ERROR_IN_USE);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b[0], NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(extra, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b[2], NULL));
	CHECK_QUIET_OK(doca_buf_pool_get_num_free_elements(p, &n));
	CHECK_EQ_U64(n, 3);
	CHECK_QUIET_OK(doca_buf_pool_stop(p));
	CHECK_REJECT(doca_buf_pool_stop(p), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_buf_pool_destroy(p));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void start_needs_a_started_mmap_that_fits(void)
{
	struct doca_mmap *m = new_mmap(mem, 300, false);
	struct doca_buf_pool *p = NULL, *too_big = NULL;
	CHECK_QUIET_OK(doca_buf_pool_create(3, 100, m, &p));
	CHECK_QUIET_OK(doca_buf_pool_create(4, 100, m, &too_big));
	CHECK_REJECT(doca_buf_pool_start(p), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_REJECT(doca_buf_pool_start(too_big), DOCA_ERROR_INITIALIZATION);
	CHECK_QUIET_OK(doca_buf_pool_start(p)); /* exactly 300 bytes */
	CHECK_QUIET_OK(doca_buf_pool_destroy(too_big));
	CHECK_QUIET_OK(doca_buf_pool_destroy(p)); /* implicit stop */
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void alignment_pads_first_element_and_stride(void)
{
	/* Range starts 1 byte past a 64-byte boundary: first element at +63. */
	struct doca_mmap *m = new_mmap(mem + 1, 64 * 5, true);
	struct doca_buf_pool *p = NULL;
	size_t a = 0;
	CHECK_QUIET_OK(doca_buf_pool_create(4, 40, m, &p));
	CHECK_QUIET_OK(doca_buf_pool_get_element_alignment(p, &a));
	CHECK_EQ_U64(a, 1);
	CHECK_REJECT(doca_buf_pool_set_element_alignment(p, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_pool_set_element_alignment(p, 48), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_pool_set_element_alignment(p, 64));
	CHECK_QUIET_OK(doca_buf_pool_start(p));
	CHECK_REJECT(doca_buf_pool_set_element_alignment(p, 8), DOCA_ERROR_BAD_STATE);
	struct doca_buf *b0 = NULL, *b1 = NULL;
	void *h0, *h1;
	size_t len;
	CHECK_QUIET_OK(doca_buf_pool_buf_alloc(p, &b0));
	CHECK_QUIET_OK(doca_buf_pool_buf_alloc(p, &b1));
	CHECK_QUIET_OK(doca_buf_get_head(b0, &h0));
	CHECK_QUIET_OK(doca_buf_get_head(b1, &h1));
	CHECK_QUIET_OK(doca_buf_get_len(b0, &len));
	CHECK(h0 == mem + 64);
	CHECK(h1 == mem + 128);
	CHECK_EQ_U64(len, 40);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b0, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b1, NULL));
	CHECK_QUIET_OK(doca_buf_pool_destroy(p));

	/* 5 aligned elements need 63 + 5 * 64 bytes: more than the 320 available. */
	CHECK_QUIET_OK(doca_buf_pool_create(5, 40, m, &p));
	CHECK_QUIET_OK(doca_buf_pool_set_element_alignment(p, 64));
	CHECK_REJECT(doca_buf_pool_start(p), DOCA_ERROR_INITIALIZATION);
	CHECK_QUIET_OK(doca_buf_pool_destroy(p));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void user_data_only_while_stopped(void)
{
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), true);
	struct doca_buf_pool *p = NULL;
	union doca_data ud = {.u64 = 5}, got = {.u64 = 0};
	CHECK_QUIET_OK(doca_buf_pool_create(2, 8, m, &p));
	CHECK_QUIET_OK(doca_buf_pool_get_user_data(p, &got));
	CHECK_EQ_U64(got.u64, 0);
	CHECK_QUIET_OK(doca_buf_pool_set_user_data(p, ud));
	CHECK_QUIET_OK(doca_buf_pool_start(p));
	CHECK_REJECT(doca_buf_pool_set_user_data(p, ud), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_buf_pool_get_user_data(p, &got));
	CHECK_EQ_U64(got.u64, 5);
	uint32_t n = 0;
	CHECK_QUIET_OK(doca_buf_pool_get_num_elements(p, &n));
	CHECK_EQ_U64(n, 2);
	CHECK_QUIET_OK(doca_buf_pool_destroy(p));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void pool_pins_its_mmap(void)
{
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), true);
	struct doca_buf_pool *p = NULL;
	CHECK_QUIET_OK(doca_buf_pool_create(2, 8, m, &p));
	CHECK_QUIET_OK(doca_buf_pool_start(p));
	CHECK_REJECT(doca_mmap_stop(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_buf_pool_stop(p));
	CHECK_QUIET_OK(doca_mmap_stop(m));                         /* a stopped pool allows stop */
	CHECK_REJECT(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED); /* but the pool still exists */
	CHECK_QUIET_OK(doca_buf_pool_destroy(p));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

int main(void)
{
	mem_test_capture_sdk_log();
	SD_RUN(create_checks_its_arguments);
	SD_RUN(null_and_foreign_pools_are_rejected);
	SD_RUN(allocation_until_empty);
	SD_RUN(start_needs_a_started_mmap_that_fits);
	SD_RUN(alignment_pads_first_element_and_stride);
	SD_RUN(user_data_only_while_stopped);
	SD_RUN(pool_pins_its_mmap);
	return sd_test_done();
}
