/*
 * Buffer inventories and the live-buffer accounting of mmaps.
 */
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_mmap.h>

#include "mem_test.h"

static char mem[1024];

static struct doca_mmap *new_started_mmap(void *addr, size_t len)
{
	struct doca_mmap *m = NULL;
	CHECK_QUIET_OK(doca_mmap_create(&m));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, addr, len));
	CHECK_QUIET_OK(doca_mmap_start(m));
	return m;
}

static struct doca_buf_inventory *new_started_inventory(size_t n)
{
	struct doca_buf_inventory *inv = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_create(n, &inv));
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	return inv;
}

static uint32_t num_bufs(const struct doca_mmap *m)
{
	uint32_t n = 12345;
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(m, &n));
	return n;
}

static uint32_t num_free(const struct doca_buf_inventory *inv)
{
	uint32_t n = 12345;
	CHECK_QUIET_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	return n;
}

static void create_checks_its_arguments(void)
{
	struct doca_buf_inventory *inv = NULL;
	CHECK_REJECT(doca_buf_inventory_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_create(0, &inv), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_create((size_t)UINT32_MAX + 1, &inv), DOCA_ERROR_INVALID_VALUE);
	CHECK(inv == NULL);
}

static void null_and_foreign_handles_are_rejected(void)
{
	static uint64_t not_an_inventory[16];
	struct doca_buf_inventory *bogus = (struct doca_buf_inventory *)not_an_inventory;
	struct doca_buf_inventory *inv = new_started_inventory(1);
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf *b;
	uint32_t u32;
	union doca_data ud = {.u64 = 0};

	CHECK_REJECT(doca_buf_inventory_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_destroy(bogus), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(NULL, m, mem, 8, mem, 0, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(bogus, m, mem, 8, mem, 0, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(inv, NULL, mem, 8, mem, 0, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(inv, m, mem, 8, mem, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_dup(NULL, NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_dup(inv, NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_expand(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_get_num_elements(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_get_num_elements(inv, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_get_num_free_elements(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_get_num_free_elements(inv, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_get_user_data(inv, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void start_and_stop_states(void)
{
	struct doca_buf_inventory *inv = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_create(2, &inv));
	CHECK_REJECT(doca_buf_inventory_stop(inv), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	CHECK_REJECT(doca_buf_inventory_start(inv), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_buf_inventory_stop(inv));
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv)); /* implicit stop */
}

static void get_by_addr_and_by_data_set_the_fields(void)
{
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = new_started_inventory(3);
	struct doca_buf *dst = NULL, *src = NULL, *args = NULL;
	void *p;
	size_t n;

	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 10, 100, &dst));
	CHECK_QUIET_OK(doca_buf_get_head(dst, &p));
	CHECK(p == mem + 10);
	CHECK_QUIET_OK(doca_buf_get_len(dst, &n));
	CHECK_EQ_U64(n, 100);
	CHECK_QUIET_OK(doca_buf_get_data(dst, &p));
	CHECK(p == mem + 10);
	CHECK_QUIET_OK(doca_buf_get_data_len(dst, &n));
	CHECK_EQ_U64(n, 0);

	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 200, 50, &src));
	CHECK_QUIET_OK(doca_buf_get_head(src, &p));
	CHECK(p == mem + 200);
	CHECK_QUIET_OK(doca_buf_get_len(src, &n));
	CHECK_EQ_U64(n, 50);
	CHECK_QUIET_OK(doca_buf_get_data(src, &p));
	CHECK(p == mem + 200);
	CHECK_QUIET_OK(doca_buf_get_data_len(src, &n));
	CHECK_EQ_U64(n, 50);

	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + 300, 100, mem + 310, 20, &args));
	CHECK_QUIET_OK(doca_buf_get_data(args, &p));
	CHECK(p == mem + 310);
	CHECK_QUIET_OK(doca_buf_get_data_len(args, &n));
	CHECK_EQ_U64(n, 20);
	uint16_t rc = 0;
	CHECK_QUIET_OK(doca_buf_get_refcount(args, &rc));
	CHECK_EQ_U64(rc, 1);

	CHECK_EQ_U64(num_bufs(m), 3);
	CHECK_EQ_U64(num_free(inv), 0);
	CHECK_QUIET_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(args, NULL));
	CHECK_EQ_U64(num_bufs(m), 0);
	CHECK_EQ_U64(num_free(inv), 3);
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void allocation_needs_started_inventory_and_mmap(void)
{
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *m = NULL;
	struct doca_buf *b = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_create(1, &inv));
	CHECK_QUIET_OK(doca_mmap_create(&m));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));

	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 8, &b), DOCA_ERROR_BAD_STATE); /* inventory idle */
	CHECK(strstr(mem_test_last_record, "call doca_buf_inventory_start") != NULL);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_data(inv, m, mem, 8, &b), DOCA_ERROR_BAD_STATE);
	CHECK(strstr(mem_test_last_record, "doca_buf_inventory_buf_get_by_args") == NULL);
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 8, &b), DOCA_ERROR_BAD_STATE); /* mmap idle */
	CHECK(strstr(mem_test_last_record, "call doca_mmap_start") != NULL);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(inv, m, mem, 8, mem, 0, &b), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 8, &b), DOCA_ERROR_BAD_STATE); /* mmap stopped */
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_buf_inventory_stop(inv));
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 8, &b), DOCA_ERROR_BAD_STATE); /* inventory stopped */
	CHECK(b == NULL);
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void range_outside_the_mmap_is_rejected(void)
{
	struct doca_mmap *m = new_started_mmap(mem + 100, 200); /* [mem+100, mem+300) */
	struct doca_buf_inventory *inv = new_started_inventory(4);
	struct doca_buf *b = NULL;
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 99, 10, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 291, 10, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 100, 201, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 400, 1, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 150, SIZE_MAX, &b), DOCA_ERROR_INVALID_VALUE);
	/* Data section outside the buffer. */
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(inv, m, mem + 100, 50, mem + 99, 1, &b),
		     DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(inv, m, mem + 100, 50, mem + 120, 31, &b),
		     DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_get_by_args(inv, m, mem + 100, 50, mem + 120, SIZE_MAX, &b),
		     DOCA_ERROR_INVALID_VALUE);
	CHECK(b == NULL);
	CHECK_EQ_U64(num_free(inv), 4);
	CHECK_EQ_U64(num_bufs(m), 0);

	/* Exact fits, including zero-length windows at the very end. */
	struct doca_buf *whole = NULL, *empty_end = NULL, *data_end = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 100, 200, &whole));
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 300, 0, &empty_end));
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + 100, 50, mem + 150, 0, &data_end));
	CHECK_QUIET_OK(doca_buf_dec_refcount(whole, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(empty_end, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(data_end, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void one_slot_per_buffer_then_no_memory(void)
{
	/* The samples size inventories exactly. */
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = new_started_inventory(3);
	struct doca_buf *b[3];
	for (int i = 0; i < 3; i++)
		CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + i * 10, 10, &b[i]));
	struct doca_buf *extra = NULL;
	CHECK_REJECT(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &extra), DOCA_ERROR_NO_MEMORY);
	CHECK(extra == NULL);
	CHECK(b[0] != b[1] && b[1] != b[2] && b[0] != b[2]);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b[1], NULL));
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &extra));
	CHECK(extra == b[1]); /* the released slot is reused */
	CHECK_QUIET_OK(doca_buf_dec_refcount(b[0], NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(extra, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b[2], NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void destroy_with_buffers_out_is_in_use(void)
{
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = new_started_inventory(2);
	struct doca_buf *b = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &b));
	CHECK_REJECT(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	/* Intact and usable. */
	struct doca_buf *b2 = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &b2));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b2, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void stop_with_buffers_out_keeps_them_valid(void)
{
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = new_started_inventory(2);
	struct doca_buf *b = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &b));
	CHECK_QUIET_OK(doca_buf_inventory_stop(inv));
	size_t n = 0;
	CHECK_QUIET_OK(doca_buf_get_len(b, &n));
	CHECK_EQ_U64(n, 10);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL)); /* release works on a stopped inventory */
	CHECK_EQ_U64(num_free(inv), 2);
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void live_buffers_block_mmap_stop_and_destroy(void)
{
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = new_started_inventory(4);
	struct doca_buf *b = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &b));
	CHECK_REJECT(doca_mmap_stop(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED);
	/* The map is still started and usable after the refusals. */
	struct doca_buf *b2 = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &b2));
	CHECK_EQ_U64(num_bufs(m), 2);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b2, NULL));
	/* Sample order: inventory first, then the map. */
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void thread_safe_mmap_keeps_no_count(void)
{
	struct doca_mmap *m = NULL;
	CHECK_QUIET_OK(doca_mmap_create(&m));
	CHECK_QUIET_OK(doca_mmap_enable_thread_safety(m));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(m));
	struct doca_buf_inventory *inv = new_started_inventory(2);
	struct doca_buf *b = NULL, *d = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 10, &b));
	CHECK_EQ_U64(num_bufs(m), 0);
	/* Stop is not refused; allocation and dup then see a stopped map. */
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_REJECT(doca_buf_inventory_buf_dup(inv, b, &d), DOCA_ERROR_BAD_STATE);
	/* Destroy is not refused either; the leftover buffer can still be released. */
	CHECK_QUIET_OK(doca_mmap_destroy(m));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
}

static void dup_copies_a_buffer(void)
{
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = new_started_inventory(1);
	struct doca_buf_inventory *inv2 = new_started_inventory(1);
	struct doca_buf *src = NULL, *copy = NULL;
	void *p;
	size_t n;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + 8, 64, mem + 16, 32, &src));
	CHECK_QUIET_OK(doca_buf_inc_refcount(src, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_buf_dup(inv2, src, &copy)); /* another inventory */
	CHECK(copy != src);
	CHECK_QUIET_OK(doca_buf_get_head(copy, &p));
	CHECK(p == mem + 8);
	CHECK_QUIET_OK(doca_buf_get_len(copy, &n));
	CHECK_EQ_U64(n, 64);
	CHECK_QUIET_OK(doca_buf_get_data(copy, &p));
	CHECK(p == mem + 16);
	CHECK_QUIET_OK(doca_buf_get_data_len(copy, &n));
	CHECK_EQ_U64(n, 32);
	uint16_t rc = 0;
	CHECK_QUIET_OK(doca_buf_get_refcount(copy, &rc));
	CHECK_EQ_U64(rc, 1);
	CHECK_EQ_U64(num_bufs(m), 2);
	CHECK_REJECT(doca_buf_inventory_buf_dup(inv2, src, &copy), DOCA_ERROR_NO_MEMORY);
	CHECK_REJECT(doca_buf_inventory_buf_dup(inv, src, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_inventory_stop(inv2));
	CHECK_REJECT(doca_buf_inventory_buf_dup(inv2, src, &copy), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_buf_dec_refcount(copy, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv2));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void dup_of_a_list_copies_the_whole_list_or_nothing(void)
{
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = new_started_inventory(5);
	struct doca_buf *e[3];
	for (int i = 0; i < 3; i++)
		CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 100 * i, 10 + i, &e[i]));
	CHECK_QUIET_OK(doca_buf_chain_list(e[0], e[1]));
	CHECK_QUIET_OK(doca_buf_chain_list(e[0], e[2]));

	struct doca_buf *copy = NULL;
	CHECK_REJECT(doca_buf_inventory_buf_dup(inv, e[1], &copy), DOCA_ERROR_NOT_PERMITTED); /* inner element */
	CHECK_REJECT(doca_buf_inventory_buf_dup(inv, e[0], &copy), DOCA_ERROR_NO_MEMORY);     /* 2 free, 3 needed */
	CHECK_EQ_U64(num_free(inv), 2);
	CHECK_QUIET_OK(doca_buf_inventory_expand(inv, 1));
	CHECK_QUIET_OK(doca_buf_inventory_buf_dup(inv, e[0], &copy));
	CHECK_EQ_U64(num_free(inv), 0);
	CHECK_EQ_U64(num_bufs(m), 6);

	uint32_t len = 0;
	CHECK_QUIET_OK(doca_buf_get_list_len(copy, &len));
	CHECK_EQ_U64(len, 3);
	struct doca_buf *cur = copy;
	for (int i = 0; i < 3 && cur != NULL; i++) {
		void *p;
		size_t n;
		CHECK(cur != e[i]);
		CHECK_QUIET_OK(doca_buf_get_data(cur, &p));
		CHECK(p == mem + 100 * i);
		CHECK_QUIET_OK(doca_buf_get_data_len(cur, &n));
		CHECK_EQ_U64(n, 10 + (unsigned)i);
		CHECK_QUIET_OK(doca_buf_get_next_in_list(cur, &cur));
	}
	CHECK(cur == NULL);
	struct doca_buf *last = NULL;
	CHECK_QUIET_OK(doca_buf_get_last_in_list(copy, &last));
	CHECK(last != e[2]);
	CHECK_QUIET_OK(doca_buf_dec_refcount(copy, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(e[0], NULL));
	CHECK_EQ_U64(num_bufs(m), 0);
	CHECK_EQ_U64(num_free(inv), 6);
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void expand_rules(void)
{
	struct doca_mmap *m = new_started_mmap(mem, sizeof(mem));
	struct doca_buf_inventory *inv = NULL;
	uint32_t n = 0;
	CHECK_QUIET_OK(doca_buf_inventory_create(1, &inv));
	CHECK_REJECT(doca_buf_inventory_expand(inv, 2), DOCA_ERROR_BAD_STATE);
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	CHECK_REJECT(doca_buf_inventory_expand(inv, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_expand(inv, UINT32_MAX), DOCA_ERROR_INVALID_VALUE);
	struct doca_buf *b0 = NULL, *b1 = NULL, *b2 = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 4, &b0));
	CHECK_QUIET_OK(doca_buf_inventory_expand(inv, 2));
	CHECK_QUIET_OK(doca_buf_inventory_get_num_elements(inv, &n));
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_U64(num_free(inv), 2);
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 4, &b1));
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 4, &b2));
	/* The buffer from before the expansion did not move. */
	size_t len = 0;
	CHECK_QUIET_OK(doca_buf_get_len(b0, &len));
	CHECK_EQ_U64(len, 4);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b0, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b1, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b2, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void counters_and_user_data_in_every_state(void)
{
	struct doca_buf_inventory *inv = NULL;
	union doca_data ud = {.u64 = 77}, got = {.u64 = 0};
	uint32_t n = 0;
	CHECK_QUIET_OK(doca_buf_inventory_create(5, &inv));
	CHECK_QUIET_OK(doca_buf_inventory_get_user_data(inv, &got));
	CHECK_EQ_U64(got.u64, 0);
	CHECK_QUIET_OK(doca_buf_inventory_set_user_data(inv, ud)); /* idle */
	CHECK_QUIET_OK(doca_buf_inventory_get_num_elements(inv, &n));
	CHECK_EQ_U64(n, 5);
	CHECK_QUIET_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK_EQ_U64(n, 5);
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	ud.u64 = 78;
	CHECK_QUIET_OK(doca_buf_inventory_set_user_data(inv, ud)); /* started */
	CHECK_QUIET_OK(doca_buf_inventory_get_user_data(inv, &got));
	CHECK_EQ_U64(got.u64, 78);
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
}

int main(void)
{
	mem_test_capture_sdk_log();
	SD_RUN(create_checks_its_arguments);
	SD_RUN(null_and_foreign_handles_are_rejected);
	SD_RUN(start_and_stop_states);
	SD_RUN(get_by_addr_and_by_data_set_the_fields);
	SD_RUN(allocation_needs_started_inventory_and_mmap);
	SD_RUN(range_outside_the_mmap_is_rejected);
	SD_RUN(one_slot_per_buffer_then_no_memory);
	SD_RUN(destroy_with_buffers_out_is_in_use);
	SD_RUN(stop_with_buffers_out_keeps_them_valid);
	SD_RUN(live_buffers_block_mmap_stop_and_destroy);
	SD_RUN(thread_safe_mmap_keeps_no_count);
	SD_RUN(dup_copies_a_buffer);
	SD_RUN(dup_of_a_list_copies_the_whole_list_or_nothing);
	SD_RUN(expand_rules);
	SD_RUN(counters_and_user_data_in_every_state);
	return sd_test_done();
}
