/*
 * Buffer descriptors: reference counts, data section moves, list
 * predicates, chaining and unchaining, release of whole lists.
 */
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_mmap.h>

#include "mem_test.h"

static char mem[1024];
static char mem2[256];
static struct doca_mmap *mmap1, *mmap2;
static struct doca_buf_inventory *inv, *inv2;

static struct doca_buf *new_buf(size_t off, size_t len)
{
	struct doca_buf *b = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv, mmap1, mem + off, len, &b));
	return b;
}

static void release(struct doca_buf *b)
{
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
}

static uint32_t free_elems(struct doca_buf_inventory *i)
{
	uint32_t n = 0;
	CHECK_QUIET_OK(doca_buf_inventory_get_num_free_elements(i, &n));
	return n;
}

static void null_and_foreign_buffers_are_rejected(void)
{
	static uint64_t not_a_buf[32];
	struct doca_buf *bogus = (struct doca_buf *)not_a_buf;
	struct doca_buf *b = new_buf(0, 16);
	uint16_t rc;
	size_t n;
	void *p;
	uint8_t u8;
	uint32_t u32;
	struct doca_buf *out;

	CHECK_REJECT(doca_buf_inc_refcount(NULL, &rc), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inc_refcount(bogus, &rc), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_dec_refcount(NULL, &rc), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_dec_refcount(bogus, &rc), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_refcount(NULL, &rc), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_refcount(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_len(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_len(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_head(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_head(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_data_len(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_data_len(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_data(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_data(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_set_data(NULL, mem, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_set_data(b, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_set_data_len(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_reset_data_len(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_next_in_list(NULL, &out), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_next_in_list(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_last_in_list(NULL, &out), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_last_in_list(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_is_last_in_list(NULL, &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_is_last_in_list(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_is_first_in_list(NULL, &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_is_first_in_list(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_is_in_list(NULL, &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_is_in_list(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_list_len(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_get_list_len(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_chain_list(NULL, b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_chain_list(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_chain_list_tail(NULL, b, b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_chain_list_tail(b, NULL, b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_chain_list_tail(b, b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_unchain_list(NULL, b), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_unchain_list(b, NULL), DOCA_ERROR_INVALID_VALUE);
	release(b);
}

static void refcount_reports_the_previous_value(void)
{
	struct doca_buf *b = new_buf(0, 16);
	uint16_t rc = 0;
	CHECK_QUIET_OK(doca_buf_inc_refcount(b, &rc));
	CHECK_EQ_U64(rc, 1);
	CHECK_QUIET_OK(doca_buf_inc_refcount(b, NULL));
	CHECK_QUIET_OK(doca_buf_get_refcount(b, &rc));
	CHECK_EQ_U64(rc, 3);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, &rc));
	CHECK_EQ_U64(rc, 3);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, &rc));
	CHECK_EQ_U64(rc, 2);
	uint32_t before = free_elems(inv);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, &rc));
	CHECK_EQ_U64(rc, 1);
	CHECK_EQ_U64(free_elems(inv), before + 1); /* back in its inventory */
}

static void refcount_overflow_is_too_big(void)
{
	struct doca_buf *b = new_buf(0, 16);
	uint16_t rc = 0;
	for (uint32_t i = 1; i < UINT16_MAX; i++)
		if (doca_buf_inc_refcount(b, NULL) != DOCA_SUCCESS) {
			CHECK(!"increment below the maximum failed");
			break;
		}
	CHECK_QUIET_OK(doca_buf_get_refcount(b, &rc));
	CHECK_EQ_U64(rc, UINT16_MAX);
	CHECK_REJECT(doca_buf_inc_refcount(b, &rc), DOCA_ERROR_TOO_BIG);
	CHECK_QUIET_OK(doca_buf_get_refcount(b, &rc));
	CHECK_EQ_U64(rc, UINT16_MAX);
	for (uint32_t i = 0; i < UINT16_MAX; i++)
		if (doca_buf_dec_refcount(b, NULL) != DOCA_SUCCESS) {
			CHECK(!"decrement failed");
			break;
		}
}

static void released_buffer_is_bad_state(void)
{
	/* The slot stays owned by the inventory, so the misuse is caught. */
	struct doca_buf *b = new_buf(0, 16);
	uint32_t before = free_elems(inv);
	release(b);
	uint16_t rc;
	CHECK_REJECT(doca_buf_dec_refcount(b, &rc), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_buf_inc_refcount(b, &rc), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(free_elems(inv), before + 1); /* free list not corrupted */
}

static void set_data_moves_inside_the_buffer_only(void)
{
	struct doca_buf *b = new_buf(100, 50); /* [mem+100, mem+150) */
	void *p;
	size_t n;
	CHECK_QUIET_OK(doca_buf_set_data(b, mem + 100, 50)); /* whole buffer */
	CHECK_QUIET_OK(doca_buf_set_data(b, mem + 150, 0));  /* empty, at the end */
	CHECK_QUIET_OK(doca_buf_set_data(b, mem + 110, 20));
	CHECK_REJECT(doca_buf_set_data(b, mem + 99, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_set_data(b, mem + 140, 11), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_set_data(b, mem + 151, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_set_data(b, mem + 110, SIZE_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_get_data(b, &p));
	CHECK(p == mem + 110);
	CHECK_QUIET_OK(doca_buf_get_data_len(b, &n));
	CHECK_EQ_U64(n, 20);

	CHECK_QUIET_OK(doca_buf_set_data_len(b, 40)); /* up to the end of the buffer */
	CHECK_REJECT(doca_buf_set_data_len(b, 41), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_set_data_len(b, SIZE_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_get_data_len(b, &n));
	CHECK_EQ_U64(n, 40);

	CHECK_QUIET_OK(doca_buf_reset_data_len(b));
	CHECK_QUIET_OK(doca_buf_get_data_len(b, &n));
	CHECK_EQ_U64(n, 0);
	CHECK_QUIET_OK(doca_buf_get_data(b, &p));
	CHECK(p == mem + 110); /* data stays put */
	CHECK_QUIET_OK(doca_buf_get_head(b, &p));
	CHECK(p == mem + 100);
	CHECK_QUIET_OK(doca_buf_get_len(b, &n));
	CHECK_EQ_U64(n, 50);
	release(b);
}

struct preds {
	uint8_t in_list, first, last;
};

static struct preds preds_of(struct doca_buf *b)
{
	struct preds p = {9, 9, 9};
	CHECK_QUIET_OK(doca_buf_is_in_list(b, &p.in_list));
	CHECK_QUIET_OK(doca_buf_is_first_in_list(b, &p.first));
	CHECK_QUIET_OK(doca_buf_is_last_in_list(b, &p.last));
	return p;
}

static void standalone_buffer_is_a_list_of_one(void)
{
	struct doca_buf *b = new_buf(0, 8);
	struct preds p = preds_of(b);
	CHECK(p.in_list == 0 && p.first == 1 && p.last == 1);
	struct doca_buf *x = b;
	CHECK_QUIET_OK(doca_buf_get_next_in_list(b, &x));
	CHECK(x == NULL);
	CHECK_QUIET_OK(doca_buf_get_last_in_list(b, &x));
	CHECK(x == b);
	uint32_t len = 0;
	CHECK_QUIET_OK(doca_buf_get_list_len(b, &len));
	CHECK_EQ_U64(len, 1);
	release(b);
}

static void chained_list_answers_the_predicate_table(void)
{
	struct doca_buf *a = new_buf(0, 8), *b = new_buf(8, 8), *c = new_buf(16, 8);
	CHECK_QUIET_OK(doca_buf_chain_list(a, b));
	CHECK_QUIET_OK(doca_buf_chain_list(a, c));

	struct preds pa = preds_of(a), pb = preds_of(b), pc = preds_of(c);
	CHECK(pa.in_list == 1 && pa.first == 1 && pa.last == 0);
	CHECK(pb.in_list == 1 && pb.first == 0 && pb.last == 0);
	CHECK(pc.in_list == 1 && pc.first == 0 && pc.last == 1);

	struct doca_buf *x = NULL;
	CHECK_QUIET_OK(doca_buf_get_next_in_list(a, &x));
	CHECK(x == b);
	CHECK_QUIET_OK(doca_buf_get_next_in_list(b, &x));
	CHECK(x == c);
	CHECK_QUIET_OK(doca_buf_get_next_in_list(c, &x));
	CHECK(x == NULL);
	CHECK_QUIET_OK(doca_buf_get_last_in_list(a, &x));
	CHECK(x == c);
	CHECK_QUIET_OK(doca_buf_get_last_in_list(b, &x)); /* from any element */
	CHECK(x == c);
	CHECK_QUIET_OK(doca_buf_get_last_in_list(c, &x));
	CHECK(x == c);

	uint32_t len = 0;
	CHECK_QUIET_OK(doca_buf_get_list_len(a, &len));
	CHECK_EQ_U64(len, 3);
	CHECK_REJECT(doca_buf_get_list_len(b, &len), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_buf_get_list_len(c, &len), DOCA_ERROR_NOT_PERMITTED);

	/* Inner elements read refcount 1 and refuse changes. */
	uint16_t rc = 0;
	CHECK_QUIET_OK(doca_buf_get_refcount(b, &rc));
	CHECK_EQ_U64(rc, 1);
	CHECK_REJECT(doca_buf_inc_refcount(b, &rc), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_buf_dec_refcount(c, &rc), DOCA_ERROR_NOT_PERMITTED);
	/* Their data section can still move. */
	CHECK_QUIET_OK(doca_buf_set_data(b, mem + 8, 8));

	/* One release on the head returns all three. */
	uint32_t before = free_elems(inv);
	release(a);
	CHECK_EQ_U64(free_elems(inv), before + 3);
}

static void chain_rules(void)
{
	struct doca_buf *a = new_buf(0, 8), *b = new_buf(8, 8), *c = new_buf(16, 8), *d = new_buf(24, 8);
	CHECK_QUIET_OK(doca_buf_chain_list(a, b));
	CHECK_REJECT(doca_buf_chain_list(a, a), DOCA_ERROR_INVALID_VALUE); /* cycle */
	CHECK_REJECT(doca_buf_chain_list(a, b), DOCA_ERROR_INVALID_VALUE); /* already in a's list */
	CHECK_REJECT(doca_buf_chain_list(b, a), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_chain_list(b, c), DOCA_ERROR_NOT_PERMITTED); /* list1 is not a head */
	CHECK_QUIET_OK(doca_buf_chain_list(c, d));
	CHECK_REJECT(doca_buf_chain_list(a, d), DOCA_ERROR_NOT_PERMITTED); /* list2 is not a head */
	CHECK_QUIET_OK(doca_buf_inc_refcount(c, NULL));
	CHECK_REJECT(doca_buf_chain_list(a, c), DOCA_ERROR_NOT_PERMITTED); /* list2 refcount 2 */
	CHECK_QUIET_OK(doca_buf_dec_refcount(c, NULL));

	/* Appending a list appends all its elements; list1's refcount is unchanged. */
	CHECK_QUIET_OK(doca_buf_inc_refcount(a, NULL));
	CHECK_QUIET_OK(doca_buf_chain_list(a, c));
	uint32_t len = 0;
	uint16_t rc = 0;
	CHECK_QUIET_OK(doca_buf_get_list_len(a, &len));
	CHECK_EQ_U64(len, 4);
	CHECK_QUIET_OK(doca_buf_get_refcount(a, &rc));
	CHECK_EQ_U64(rc, 2);
	struct doca_buf *x = NULL;
	CHECK_QUIET_OK(doca_buf_get_last_in_list(c, &x));
	CHECK(x == d);
	uint32_t before = free_elems(inv);
	release(a);
	CHECK_EQ_U64(free_elems(inv), before);
	release(a);
	CHECK_EQ_U64(free_elems(inv), before + 4);
}

static void chain_tail_needs_the_real_tail(void)
{
	struct doca_buf *a = new_buf(0, 8), *b = new_buf(8, 8), *c = new_buf(16, 8);
	CHECK_QUIET_OK(doca_buf_chain_list_tail(a, a, b));
	CHECK_REJECT(doca_buf_chain_list_tail(a, a, c), DOCA_ERROR_INVALID_VALUE); /* a is no longer the tail */
	CHECK_REJECT(doca_buf_chain_list_tail(a, b, b), DOCA_ERROR_INVALID_VALUE); /* cycle */
	CHECK_QUIET_OK(doca_buf_chain_list_tail(a, b, c));
	struct doca_buf *x = NULL;
	CHECK_QUIET_OK(doca_buf_get_last_in_list(a, &x));
	CHECK(x == c);
	uint32_t len = 0;
	CHECK_QUIET_OK(doca_buf_get_list_len(a, &len));
	CHECK_EQ_U64(len, 3);
	release(a);
}

static void unchain_splits_a_list(void)
{
	struct doca_buf *e[4];
	for (int i = 0; i < 4; i++) {
		e[i] = new_buf((size_t)i * 8, 8);
		if (i > 0)
			CHECK_QUIET_OK(doca_buf_chain_list(e[0], e[i]));
	}
	CHECK_REJECT(doca_buf_unchain_list(e[0], e[0]), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_unchain_list(e[1], e[2]), DOCA_ERROR_NOT_PERMITTED); /* list1 not a head */
	struct doca_buf *stranger = new_buf(64, 8);
	CHECK_REJECT(doca_buf_unchain_list(e[0], stranger), DOCA_ERROR_INVALID_VALUE);

	CHECK_QUIET_OK(doca_buf_inc_refcount(e[0], NULL));
	CHECK_QUIET_OK(doca_buf_unchain_list(e[0], e[2]));
	uint32_t len = 0;
	uint16_t rc = 0;
	struct doca_buf *x = NULL;
	CHECK_QUIET_OK(doca_buf_get_list_len(e[0], &len));
	CHECK_EQ_U64(len, 2);
	CHECK_QUIET_OK(doca_buf_get_last_in_list(e[0], &x));
	CHECK(x == e[1]);
	CHECK_QUIET_OK(doca_buf_get_list_len(e[2], &len));
	CHECK_EQ_U64(len, 2);
	CHECK_QUIET_OK(doca_buf_get_refcount(e[2], &rc));
	CHECK_EQ_U64(rc, 1);
	CHECK_QUIET_OK(doca_buf_get_refcount(e[0], &rc));
	CHECK_EQ_U64(rc, 2);
	CHECK_QUIET_OK(doca_buf_get_last_in_list(e[3], &x));
	CHECK(x == e[3]);
	struct preds p1 = preds_of(e[1]), p2 = preds_of(e[2]);
	CHECK(p1.last == 1 && p1.first == 0);
	CHECK(p2.first == 1 && p2.in_list == 1);

	/* Unchaining the last element leaves a standalone buffer. */
	CHECK_QUIET_OK(doca_buf_unchain_list(e[2], e[3]));
	struct preds p3 = preds_of(e[3]);
	CHECK(p3.in_list == 0 && p3.first == 1 && p3.last == 1);

	uint32_t before = free_elems(inv);
	release(e[3]);
	release(e[2]);
	release(e[0]);
	release(e[0]);
	release(stranger);
	CHECK_EQ_U64(free_elems(inv), before + 5);
}

static void list_may_mix_inventories_and_mmaps(void)
{
	struct doca_buf *a = new_buf(0, 8);
	struct doca_buf *b = NULL;
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_addr(inv2, mmap2, mem2, 8, &b));
	CHECK_QUIET_OK(doca_buf_chain_list(a, b));
	uint32_t n1 = 0, n2 = 0, f1 = free_elems(inv), f2 = free_elems(inv2);
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(mmap1, &n1));
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(mmap2, &n2));
	CHECK_EQ_U64(n1, 1);
	CHECK_EQ_U64(n2, 1);
	release(a);
	CHECK_EQ_U64(free_elems(inv), f1 + 1);
	CHECK_EQ_U64(free_elems(inv2), f2 + 1);
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(mmap1, &n1));
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(mmap2, &n2));
	CHECK_EQ_U64(n1, 0);
	CHECK_EQ_U64(n2, 0);
}

static void mmap_counts_every_list_element(void)
{
	struct doca_buf *a = new_buf(0, 8), *b = new_buf(8, 8), *c = new_buf(16, 8), *d = new_buf(24, 8);
	CHECK_QUIET_OK(doca_buf_chain_list(a, b));
	CHECK_QUIET_OK(doca_buf_chain_list(a, c));
	CHECK_QUIET_OK(doca_buf_chain_list(a, d));
	uint32_t n = 0;
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(mmap1, &n));
	CHECK_EQ_U64(n, 4);
	release(a);
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(mmap1, &n));
	CHECK_EQ_U64(n, 0);
}

static void setup(void)
{
	CHECK_QUIET_OK(doca_mmap_create(&mmap1));
	CHECK_QUIET_OK(doca_mmap_set_memrange(mmap1, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(mmap1));
	CHECK_QUIET_OK(doca_mmap_create(&mmap2));
	CHECK_QUIET_OK(doca_mmap_set_memrange(mmap2, mem2, sizeof(mem2)));
	CHECK_QUIET_OK(doca_mmap_start(mmap2));
	CHECK_QUIET_OK(doca_buf_inventory_create(16, &inv));
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	CHECK_QUIET_OK(doca_buf_inventory_create(4, &inv2));
	CHECK_QUIET_OK(doca_buf_inventory_start(inv2));
}

static void everything_was_released(void)
{
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv2));
	CHECK_QUIET_OK(doca_mmap_destroy(mmap1));
	CHECK_QUIET_OK(doca_mmap_destroy(mmap2));
}

int main(void)
{
	mem_test_capture_sdk_log();
	SD_RUN(setup);
	if (sd_test_failed_cases)
		return sd_test_done();
	SD_RUN(null_and_foreign_buffers_are_rejected);
	SD_RUN(refcount_reports_the_previous_value);
	SD_RUN(refcount_overflow_is_too_big);
	SD_RUN(released_buffer_is_bad_state);
	SD_RUN(set_data_moves_inside_the_buffer_only);
	SD_RUN(standalone_buffer_is_a_list_of_one);
	SD_RUN(chained_list_answers_the_predicate_table);
	SD_RUN(chain_rules);
	SD_RUN(chain_tail_needs_the_real_tail);
	SD_RUN(unchain_splits_a_list);
	SD_RUN(list_may_mix_inventories_and_mmaps);
	SD_RUN(mmap_counts_every_list_element);
	SD_RUN(everything_was_released);
	return sd_test_done();
}
