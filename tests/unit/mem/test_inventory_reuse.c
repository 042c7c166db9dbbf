/*
 * DOCA 3.2 additions of the memory layer:
 *  - doca_buf_inventory_buf_reuse_by_addr / _by_data re-aim a handed-out
 *    inventory buffer inside its own mmap (same window rules as the
 *    get_by_* calls), keeping its mmap, refcount, list links and the map's
 *    buffer count; bad buffers, pool buffers and windows outside the map
 *    are refused with one record and leave the buffer as it was;
 *  - doca_mmap_get_mkey checks its arguments and the map's state, then
 *    answers DOCA_ERROR_NOT_SUPPORTED (softdoca devices have no memory keys).
 */
#include <stdbool.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_buf_pool.h>
#include <doca_mmap.h>

#include "mem_test.h"

static char mem[4096];

static struct doca_mmap *new_mmap(void *addr, size_t len, struct doca_dev *dev, bool start)
{
	struct doca_mmap *m = NULL;

	CHECK_QUIET_OK(doca_mmap_create(&m));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, addr, len));
	if (dev != NULL)
		CHECK_QUIET_OK(doca_mmap_add_dev(m, dev));
	if (start)
		CHECK_QUIET_OK(doca_mmap_start(m));
	return m;
}

static struct doca_buf_inventory *new_inventory(size_t n)
{
	struct doca_buf_inventory *inv = NULL;

	CHECK_QUIET_OK(doca_buf_inventory_create(n, &inv));
	CHECK_QUIET_OK(doca_buf_inventory_start(inv));
	return inv;
}

/* head, len, data and data_len of `b` are exactly these. */
static void check_window(struct doca_buf *b, char *head, size_t len, char *data, size_t data_len)
{
	void *p = NULL;
	size_t n = 0;

	CHECK_QUIET_OK(doca_buf_get_head(b, &p));
	CHECK(p == head);
	CHECK_QUIET_OK(doca_buf_get_len(b, &n));
	CHECK_EQ_U64(n, len);
	CHECK_QUIET_OK(doca_buf_get_data(b, &p));
	CHECK(p == data);
	CHECK_QUIET_OK(doca_buf_get_data_len(b, &n));
	CHECK_EQ_U64(n, data_len);
}

static void reuse_re_aims_a_buffer_in_its_mmap(void)
{
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), NULL, true);
	struct doca_buf_inventory *inv = new_inventory(2);
	struct doca_buf *b = NULL;
	uint32_t nbufs = 0, nfree = 0;
	uint16_t rc = 0;

	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem, 100, mem + 10, 20, &b));
	CHECK_QUIET_OK(doca_buf_inc_refcount(b, &rc));

	CHECK_QUIET_OK(doca_buf_inventory_buf_reuse_by_addr(b, mem + 1000, 300));
	check_window(b, mem + 1000, 300, mem + 1000, 0);
	CHECK_QUIET_OK(doca_buf_inventory_buf_reuse_by_data(b, mem + 2000, 77));
	check_window(b, mem + 2000, 77, mem + 2000, 77);
	/* the very end of the map, and an empty window there */
	CHECK_QUIET_OK(doca_buf_inventory_buf_reuse_by_data(b, mem + sizeof(mem) - 1, 1));
	check_window(b, mem + sizeof(mem) - 1, 1, mem + sizeof(mem) - 1, 1);
	CHECK_QUIET_OK(doca_buf_inventory_buf_reuse_by_addr(b, mem + sizeof(mem), 0));
	check_window(b, mem + sizeof(mem), 0, mem + sizeof(mem), 0);

	/* nothing else moved: refcount, the map's count, the inventory's free slots */
	CHECK_QUIET_OK(doca_buf_get_refcount(b, &rc));
	CHECK_EQ_U64(rc, 2);
	CHECK_QUIET_OK(doca_mmap_get_num_bufs(m, &nbufs));
	CHECK_EQ_U64(nbufs, 1);
	CHECK_QUIET_OK(doca_buf_inventory_get_num_free_elements(inv, &nfree));
	CHECK_EQ_U64(nfree, 1);

	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void reuse_keeps_list_links(void)
{
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), NULL, true);
	struct doca_buf_inventory *inv = new_inventory(2);
	struct doca_buf *head = NULL, *tail = NULL, *next = NULL;
	uint32_t len = 0;

	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 10, &head));
	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 10, 10, &tail));
	CHECK_QUIET_OK(doca_buf_chain_list(head, tail));
	CHECK_QUIET_OK(doca_buf_inventory_buf_reuse_by_data(tail, mem + 500, 40));
	CHECK_QUIET_OK(doca_buf_inventory_buf_reuse_by_addr(head, mem + 600, 50));
	CHECK_QUIET_OK(doca_buf_get_list_len(head, &len));
	CHECK_EQ_U64(len, 2);
	CHECK_QUIET_OK(doca_buf_get_next_in_list(head, &next));
	CHECK(next == tail);
	check_window(tail, mem + 500, 40, mem + 500, 40);
	check_window(head, mem + 600, 50, mem + 600, 0);
	CHECK_QUIET_OK(doca_buf_dec_refcount(head, NULL));
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void reuse_refuses_bad_buffers_and_windows(void)
{
	char *lo = mem + 64, *hi = mem + 64 + sizeof(mem) / 2; /* the map is [lo, hi) */
	struct doca_mmap *m = new_mmap(lo, sizeof(mem) / 2, NULL, true);
	struct doca_buf_inventory *inv = new_inventory(1);
	struct doca_buf *b = NULL, *gone = NULL;
	char outside[16];
	/* zeroed memory larger than a doca_buf: no buffer magic, nothing read beyond it */
	static _Alignas(64) uint8_t not_a_buf[1024];

	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_addr(NULL, lo, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_data(NULL, lo, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_data((struct doca_buf *)not_a_buf, lo, 1),
		     DOCA_ERROR_INVALID_VALUE);

	CHECK_QUIET_OK(doca_buf_inventory_buf_get_by_data(inv, m, lo + 8, 8, &b));
	/* outside the map: after its end, straddling it, before it, another array, wrapping */
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_data(b, hi, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_addr(b, hi - 4, 5), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_addr(b, lo - 4, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(mem_test_last_record, "not inside the mmap") != NULL);
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_data(b, outside, sizeof(outside)), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_addr(b, lo + 1, SIZE_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(mem_test_last_record, "wraps around") != NULL);
	/* a refused call changed nothing */
	check_window(b, lo + 8, 8, lo + 8, 8);

	gone = b;
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_addr(gone, lo, 8), DOCA_ERROR_BAD_STATE);
	CHECK(strstr(mem_test_last_record, "already released") != NULL);
	CHECK_QUIET_OK(doca_buf_inventory_destroy(inv));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void pool_buffers_are_not_reused(void)
{
	struct doca_mmap *m = new_mmap(mem, sizeof(mem), NULL, true);
	struct doca_buf_pool *pool = NULL;
	struct doca_buf *b = NULL;

	CHECK_QUIET_OK(doca_buf_pool_create(4, 64, m, &pool));
	CHECK_QUIET_OK(doca_buf_pool_start(pool));
	CHECK_QUIET_OK(doca_buf_pool_buf_alloc(pool, &b));
	CHECK_REJECT(doca_buf_inventory_buf_reuse_by_data(b, mem + 1024, 64), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(mem_test_last_record, "doca_buf_pool") != NULL);
	CHECK_QUIET_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_QUIET_OK(doca_buf_pool_stop(pool));
	CHECK_QUIET_OK(doca_buf_pool_destroy(pool));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

/* ---- doca_mmap_get_mkey -------------------------------------------------- */

static void mkey_is_checked_then_not_supported(void)
{
	struct doca_dev *dpu = mem_test_open_dev(MEM_TEST_DPU_PCI);
	struct doca_dev *host = NULL;
	struct doca_mmap *idle, *started;
	static _Alignas(64) uint8_t not_a_dev[1024]; /* zeroed: no device magic */
	uint32_t mkey = 0xabcdu;

	REQUIRE(dpu != NULL);
	host = mem_test_open_dev("0000:b1:00.0");
	REQUIRE(host != NULL);
	idle = new_mmap(mem, sizeof(mem), dpu, false);
	started = new_mmap(mem, sizeof(mem), dpu, true);

	CHECK_REJECT(doca_mmap_get_mkey(NULL, dpu, &mkey), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_mkey(started, NULL, &mkey), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_mkey(started, dpu, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_mkey(started, (struct doca_dev *)not_a_dev, &mkey), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_get_mkey(idle, dpu, &mkey), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_mmap_get_mkey(started, host, &mkey), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(mem_test_last_record, "is not a device of mmap") != NULL);
	CHECK_REJECT(doca_mmap_get_mkey(started, dpu, &mkey), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(mem_test_last_record, "no memory keys") != NULL);
	CHECK_EQ_U64(mkey, 0xabcdu);

	CHECK_QUIET_OK(doca_mmap_destroy(idle));
	CHECK_QUIET_OK(doca_mmap_destroy(started));
	CHECK_QUIET_OK(doca_dev_close(host));
	CHECK_QUIET_OK(doca_dev_close(dpu));
}

int main(void)
{
	mem_test_capture_sdk_log();
	SD_RUN(reuse_re_aims_a_buffer_in_its_mmap);
	SD_RUN(reuse_keeps_list_links);
	SD_RUN(reuse_refuses_bad_buffers_and_windows);
	SD_RUN(pool_buffers_are_not_reused);
	SD_RUN(mkey_is_checked_then_not_supported);
	return sd_test_done();
}
