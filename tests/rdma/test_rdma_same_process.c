/*
 * test_rdma_same_process.c - DOCA RDMA between two contexts of one
 * process, each on its own device and progress engine: one-sided writes,
 * reads and atomics reach exported memory without the target's program,
 * sends fill posted receives in order with their immediates, and the bad
 * cases (rights, empty receive queue, oversize lists, bad blobs, a peer
 * that stops) fail as documented, changing nothing.
 */
#include <poll.h>
#include <pthread.h>
#include <time.h>

#include "rdma_test.h"

#define MEM_LEN 65536u
static uint8_t mem_a[MEM_LEN] __attribute__((aligned(64)));
static uint8_t mem_b[MEM_LEN] __attribute__((aligned(64)));

#define RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	    DOCA_ACCESS_FLAG_RDMA_ATOMIC)

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void caps_come_from_the_device_profile(void)
{
	struct doca_dev *dev = sd_test_open_dev_at(RT_HOST_PCI);
	struct doca_devinfo *info;
	uint32_t v = 0;
	struct doca_rdma_gid gid[2];

	REQUIRE(dev != NULL);
	info = doca_dev_as_devinfo(dev);
	CHECK_OK(doca_rdma_cap_task_send_is_supported(info));
	CHECK_OK(doca_rdma_cap_task_atomic_fetch_add_is_supported(info));
	CHECK_OK(doca_rdma_cap_transport_type_is_supported(info, DOCA_RDMA_TRANSPORT_TYPE_RC));
	CHECK_ERR(doca_rdma_cap_transport_type_is_supported(info, DOCA_RDMA_TRANSPORT_TYPE_DC), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_rdma_cap_get_max_send_queue_size(info, &v));
	CHECK(v >= 1024);
	CHECK_OK(doca_rdma_cap_get_max_send_buf_list_len(info, &v));
	CHECK(v >= 1);
	CHECK_OK(doca_rdma_cap_get_gid_table_size(info, &v));
	CHECK(v >= 2);
	CHECK_OK(doca_rdma_cap_get_gid(info, 0, 2, gid));
	CHECK_ERR(doca_rdma_cap_get_gid(info, v, 1, gid), DOCA_ERROR_INVALID_VALUE);
	doca_dev_close(dev);
}

static void write_lands_in_peer_memory_and_read_brings_it_back(void)
{
	struct rt_side a, b;
	struct doca_mmap *la = NULL, *lb = NULL, *rb = NULL;
	struct doca_buf *src = NULL, *dst = NULL, *back = NULL, *rsrc = NULL;
	struct doca_rdma_task_write *w = NULL;
	struct doca_rdma_task_read *r = NULL;
	union doca_data ud = {.u64 = 0};

	REQUIRE(rt_pair(&a, &b, RW, RW));
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	lb = rt_mmap(b.dev, mem_b, MEM_LEN, RW);
	REQUIRE(la != NULL && lb != NULL);
	rb = rt_import(lb, b.dev, a.dev);
	REQUIRE(rb != NULL);
	for (uint32_t i = 0; i < 4096; i++)
		mem_a[i] = (uint8_t)(i * 7 + 1);
	memset(mem_b, 0, MEM_LEN);
	memset(mem_a + 8192, 0, 4096);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a, 4096, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, rb, mem_b + 100, 4096, &dst));
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, dst, ud, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	REQUIRE(rt_wait(&a, NULL, 1)); /* the target side never progresses */
	CHECK_OK(a.status);
	CHECK(memcmp(mem_b + 100, mem_a, 4096) == 0);
	CHECK(mem_b[99] == 0 && mem_b[4196] == 0);
	doca_task_free(doca_rdma_task_write_as_task(w));

	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, rb, mem_b + 100, 4096, &rsrc));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, la, mem_a + 8192, 4096, &back));
	CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, rsrc, back, ud, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(r)));
	REQUIRE(rt_wait(&a, NULL, 2));
	CHECK_OK(a.status);
	CHECK_EQ_U64(doca_rdma_task_read_get_result_len(r), 4096);
	CHECK(memcmp(mem_a + 8192, mem_a, 4096) == 0);
	size_t dl = 0;
	doca_buf_get_data_len(back, &dl);
	CHECK_EQ_U64(dl, 4096);
	doca_task_free(doca_rdma_task_read_as_task(r));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	doca_buf_dec_refcount(rsrc, NULL);
	doca_buf_dec_refcount(back, NULL);
	rt_stop(&a);
	rt_stop(&b);
	CHECK_OK(doca_mmap_destroy(rb));
	CHECK_OK(doca_mmap_destroy(la));
	CHECK_OK(doca_mmap_destroy(lb));
	rt_destroy(&a);
	rt_destroy(&b);
}

/* A write into memory exported without RDMA_WRITE fails, logs the rule, and leaves the bytes alone. */
static void write_into_read_only_export_fails_and_changes_nothing(void)
{
	struct rt_side a, b;
	struct doca_mmap *la, *lb, *rb;
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_write *w = NULL;
	union doca_data ud = {.u64 = 0};

	REQUIRE(rt_pair(&a, &b, RW, RW));
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	lb = rt_mmap(b.dev, mem_b, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	REQUIRE(la != NULL && lb != NULL);
	rb = rt_import(lb, b.dev, a.dev);
	REQUIRE(rb != NULL);
	memset(mem_a, 0x5a, 64);
	memset(mem_b, 0x11, 64);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a, 64, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, rb, mem_b, 64, &dst));
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, dst, ud, &w));
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_write_as_task(w)), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	REQUIRE(rt_wait(&a, NULL, 1));
	CHECK_ERR(a.status, DOCA_ERROR_NOT_PERMITTED);
	for (int i = 0; i < 64; i++)
		CHECK(mem_b[i] == 0x11);
	doca_task_free(doca_rdma_task_write_as_task(w));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	rt_stop(&a);
	rt_stop(&b);
	doca_mmap_destroy(rb);
	doca_mmap_destroy(la);
	doca_mmap_destroy(lb);
	rt_destroy(&a);
	rt_destroy(&b);
}

static void atomics_add_and_compare_swap_remote_words(void)
{
	struct rt_side a, b;
	struct doca_mmap *la, *lb, *rb;
	struct doca_buf *target = NULL, *res = NULL;
	struct doca_rdma_task_atomic_fetch_add *fa = NULL;
	struct doca_rdma_task_atomic_cmp_swp *cs = NULL;
	union doca_data ud = {.u64 = 0};
	uint64_t word = 40, old = 0;

	REQUIRE(rt_pair(&a, &b, RW, RW));
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	lb = rt_mmap(b.dev, mem_b, MEM_LEN, RW);
	REQUIRE(la != NULL && lb != NULL);
	rb = rt_import(lb, b.dev, a.dev);
	REQUIRE(rb != NULL);
	memcpy(mem_b + 64, &word, 8);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, rb, mem_b + 64, 8, &target));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, la, mem_a, 64, &res));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, target, res, 2, ud, &fa));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)));
	REQUIRE(rt_wait(&a, NULL, 1));
	CHECK_OK(a.status);
	memcpy(&word, mem_b + 64, 8);
	memcpy(&old, mem_a, 8);
	CHECK_EQ_U64(word, 42);
	CHECK_EQ_U64(old, 40);
	/* Compare with a wrong value: nothing changes, the old value comes back. */
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, target, res, 7, 99, ud, &cs));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(cs)));
	REQUIRE(rt_wait(&a, NULL, 2));
	memcpy(&word, mem_b + 64, 8);
	memcpy(&old, mem_a + 8, 8);
	CHECK_EQ_U64(word, 42);
	CHECK_EQ_U64(old, 42);
	doca_rdma_task_atomic_cmp_swp_set_cmp_data(cs, 42);
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(cs)));
	REQUIRE(rt_wait(&a, NULL, 3));
	memcpy(&word, mem_b + 64, 8);
	CHECK_EQ_U64(word, 99);
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa));
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(cs));
	doca_buf_dec_refcount(target, NULL);
	doca_buf_dec_refcount(res, NULL);
	rt_stop(&a);
	rt_stop(&b);
	doca_mmap_destroy(rb);
	doca_mmap_destroy(la);
	doca_mmap_destroy(lb);
	rt_destroy(&a);
	rt_destroy(&b);
}

static void sends_fill_posted_receives_in_order_with_their_immediates(void)
{
	struct rt_side a, b;
	struct doca_mmap *la, *lb;
	struct doca_buf *s1 = NULL, *s2 = NULL, *d[3] = {NULL, NULL, NULL};
	struct doca_rdma_task_receive *rcv[3];
	struct doca_rdma_task_send *snd = NULL;
	struct doca_rdma_task_send_imm *snd_imm = NULL;
	union doca_data ud = {.u64 = 0};

	REQUIRE(rt_pair(&a, &b, RW, RW));
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	lb = rt_mmap(b.dev, mem_b, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(la != NULL && lb != NULL);
	memcpy(mem_a, "first message", 13);
	memcpy(mem_a + 100, "second", 6);
	for (int i = 0; i < 3; i++) {
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, lb, mem_b + 1024 * i, 1024, &d[i]));
		CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, d[i], ud, &rcv[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rcv[i])));
	}
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a, 13, &s1));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a + 100, 6, &s2));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, s1, ud, &snd));
	CHECK_OK(doca_rdma_task_send_imm_allocate_init(a.rdma, a.conn, s2, 0xabcd0102u, ud, &snd_imm));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(snd)));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_imm_as_task(snd_imm)));
	REQUIRE(rt_wait(&a, &b, 2));
	REQUIRE(rt_wait(&b, &a, 2));
	CHECK_OK(a.status);
	CHECK_OK(b.status);
	CHECK(memcmp(mem_b, "first message", 13) == 0);
	CHECK(memcmp(mem_b + 1024, "second", 6) == 0);
	CHECK_EQ_U64(doca_rdma_task_receive_get_result_len(rcv[0]), 13);
	CHECK(doca_rdma_task_receive_get_result_opcode(rcv[0]) == DOCA_RDMA_OPCODE_RECV_SEND);
	CHECK(doca_rdma_task_receive_get_result_opcode(rcv[1]) == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM);
	CHECK_EQ_U64(doca_rdma_task_receive_get_result_immediate_data(rcv[1]), 0xabcd0102u);
	CHECK(doca_rdma_task_receive_get_result_rdma_connection(rcv[1]) == b.conn);
	size_t dl = 0;
	doca_buf_get_data_len(d[1], &dl);
	CHECK_EQ_U64(dl, 6);
	/* The third receive is still posted; stopping flushes it, exactly once. */
	rt_stop(&b);
	CHECK_EQ_U64(b.done, 3);
	CHECK_ERR(b.status, DOCA_ERROR_SHUTDOWN);
	rt_stop(&a);
	for (int i = 0; i < 3; i++) {
		doca_task_free(doca_rdma_task_receive_as_task(rcv[i]));
		doca_buf_dec_refcount(d[i], NULL);
	}
	doca_task_free(doca_rdma_task_send_as_task(snd));
	doca_task_free(doca_rdma_task_send_imm_as_task(snd_imm));
	doca_buf_dec_refcount(s1, NULL);
	doca_buf_dec_refcount(s2, NULL);
	doca_mmap_destroy(la);
	doca_mmap_destroy(lb);
	rt_destroy(&a);
	rt_destroy(&b);
}

/* A receive with no buffer takes a write with immediate (bytes land by the write), and fails a send with bytes. */
static void a_receive_without_buffer_takes_a_write_with_immediate(void)
{
	struct rt_side a, b;
	struct doca_mmap *la, *lb, *rb;
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_receive *rcv[2] = {NULL, NULL};
	struct doca_rdma_task_write_imm *wi = NULL;
	struct doca_rdma_task_send *snd = NULL;
	union doca_data ud = {.u64 = 0};

	REQUIRE(rt_pair(&a, &b, RW, RW));
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	lb = rt_mmap(b.dev, mem_b, MEM_LEN, RW);
	REQUIRE(la != NULL && lb != NULL);
	rb = rt_import(lb, b.dev, a.dev);
	REQUIRE(rb != NULL);
	memset(mem_b, 0, 64);
	memcpy(mem_a, "with immediate", 14);
	for (int i = 0; i < 2; i++) {
		CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, NULL, ud, &rcv[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rcv[i])));
	}
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a, 14, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, rb, mem_b, 64, &dst));
	CHECK_OK(doca_rdma_task_write_imm_allocate_init(a.rdma, a.conn, src, dst, 0x11223344u, ud, &wi));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_imm_as_task(wi)));
	REQUIRE(rt_wait(&a, &b, 1));
	REQUIRE(rt_wait(&b, &a, 1));
	CHECK_OK(a.status);
	CHECK_OK(b.status);
	CHECK(memcmp(mem_b, "with immediate", 14) == 0);
	CHECK(doca_rdma_task_receive_get_result_opcode(rcv[0]) == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM);
	CHECK_EQ_U64(doca_rdma_task_receive_get_result_immediate_data(rcv[0]), 0x11223344u);
	/* 14 bytes sent into a receive with no room: a card's local length error on both sides. */
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, ud, &snd));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(snd)));
	REQUIRE(rt_wait(&a, &b, 2));
	REQUIRE(rt_wait(&b, &a, 2));
	CHECK_ERR(a.status, DOCA_ERROR_IO_FAILED);
	CHECK_ERR(b.status, DOCA_ERROR_IO_FAILED);
	rt_stop(&a);
	rt_stop(&b);
	for (int i = 0; i < 2; i++)
		doca_task_free(doca_rdma_task_receive_as_task(rcv[i]));
	doca_task_free(doca_rdma_task_write_imm_as_task(wi));
	doca_task_free(doca_rdma_task_send_as_task(snd));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	doca_mmap_destroy(rb);
	doca_mmap_destroy(la);
	doca_mmap_destroy(lb);
	rt_destroy(&a);
	rt_destroy(&b);
}

/* No receive posted: the send fails once its RNR budget is spent; a stopped peer fails it at once. */
static void send_without_receive_fails_after_the_rnr_budget(void)
{
	struct rt_side a, b;
	struct doca_mmap *la;
	struct doca_buf *s = NULL;
	struct doca_rdma_task_send *snd = NULL;
	union doca_data ud = {.u64 = 0};

	REQUIRE(rt_configure(&a, RT_HOST_PCI, RW) && rt_configure(&b, RT_DPU_PCI, RW));
	REQUIRE(doca_rdma_set_rnr_retry_count(a.rdma, 1) == DOCA_SUCCESS);
	REQUIRE(rt_start_and_export(&a) && rt_start_and_export(&b));
	REQUIRE(doca_rdma_connect(a.rdma, b.blob, b.blob_len, a.conn) == DOCA_SUCCESS);
	REQUIRE(doca_rdma_connect(b.rdma, a.blob, a.blob_len, b.conn) == DOCA_SUCCESS);
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(la != NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a, 8, &s));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, s, ud, &snd));
	double t0 = now_ms();
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(snd)));
	REQUIRE(rt_wait(&a, &b, 1));
	double took = now_ms() - t0;
	CHECK_ERR(a.status, DOCA_ERROR_IO_FAILED);
	CHECK(took >= 100.0 && took < 1000.0); /* 10 ms + 100 ms per retry (docs/rdma.md) */
	/* Now the peer stops while a send waits: the send fails well within a second. */
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(snd)));
	t0 = now_ms();
	rt_stop(&b);
	REQUIRE(rt_wait(&a, NULL, 2));
	CHECK_ERR(a.status, DOCA_ERROR_NOT_CONNECTED);
	CHECK(now_ms() - t0 < 1000.0);
	rt_stop(&a);
	doca_task_free(doca_rdma_task_send_as_task(snd));
	doca_buf_dec_refcount(s, NULL);
	doca_mmap_destroy(la);
	rt_destroy(&a);
	rt_destroy(&b);
}

static void bad_blobs_are_refused_and_change_nothing(void)
{
	struct rt_side a, b;
	uint8_t forged[256];

	REQUIRE(rt_configure(&a, RT_HOST_PCI, RW) && rt_configure(&b, RT_DPU_PCI, RW));
	REQUIRE(rt_start_and_export(&a) && rt_start_and_export(&b));
	REQUIRE(b.blob_len <= sizeof(forged));
	CHECK_ERR(doca_rdma_connect(a.rdma, b.blob, b.blob_len - 1, a.conn), DOCA_ERROR_INVALID_VALUE);
	memcpy(forged, b.blob, b.blob_len);
	forged[45] ^= 0x40; /* a token byte: the checksum catches it */
	CHECK_ERR(doca_rdma_connect(a.rdma, forged, b.blob_len, a.conn), DOCA_ERROR_INVALID_VALUE);
	memset(forged, 0xA5, sizeof(forged));
	CHECK_ERR(doca_rdma_connect(a.rdma, forged, b.blob_len, a.conn), DOCA_ERROR_INVALID_VALUE);
	/* Still unconnected: a task on it is refused at submit. */
	CHECK_ERR(doca_rdma_connection_disconnect(a.conn), DOCA_ERROR_BAD_STATE);
	/* A blob whose connection ended (its context stopped) is stale. */
	memcpy(forged, b.blob, b.blob_len);
	size_t len = b.blob_len;
	rt_stop(&b);
	CHECK_ERR(doca_rdma_connect(a.rdma, forged, len, a.conn), DOCA_ERROR_NOT_FOUND);
	rt_stop(&a);
	rt_destroy(&a);
	rt_destroy(&b);
}

static void lists_longer_than_the_context_allows_are_refused_at_submit(void)
{
	struct rt_side a, b;
	struct doca_mmap *la;
	struct doca_buf *s1 = NULL, *s2 = NULL;
	struct doca_rdma_task_send *snd = NULL;
	union doca_data ud = {.u64 = 0};
	uint32_t max = 0;

	REQUIRE(rt_pair(&a, &b, RW, RW));
	CHECK_OK(doca_rdma_get_max_send_buf_list_len(a.rdma, &max));
	CHECK_EQ_U64(max, 1);
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(la != NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a, 8, &s1));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a + 8, 8, &s2));
	CHECK_OK(doca_buf_chain_list(s1, s2));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, s1, ud, &snd));
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_send_as_task(snd)), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_rdma_task_send_as_task(snd));
	rt_stop(&a);
	rt_stop(&b);
	doca_buf_dec_refcount(s1, NULL);
	doca_mmap_destroy(la);
	rt_destroy(&a);
	rt_destroy(&b);
}

/* Fetch-and-add from two connections on two threads into one word: no increment is lost. */
#define ADDS 2000

struct adder {
	struct rt_side side;
	struct doca_mmap *local, *remote;
	uint8_t *target;
	uint8_t result[64] __attribute__((aligned(8)));
	int ok;
};

static void *adder_run(void *arg)
{
	struct adder *a = arg;
	struct doca_buf *word = NULL, *res = NULL;
	struct doca_rdma_task_atomic_fetch_add *fa = NULL;
	union doca_data ud = {.u64 = 0};

	if (doca_buf_inventory_buf_get_by_data(a->side.inv, a->remote, a->target, 8, &word) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_addr(a->side.inv, a->local, a->result, 64, &res) != DOCA_SUCCESS ||
	    doca_rdma_task_atomic_fetch_add_allocate_init(a->side.rdma, a->side.conn, word, res, 1, ud, &fa) !=
		    DOCA_SUCCESS)
		return NULL;
	a->ok = 1;
	for (int i = 0; i < ADDS && a->ok; i++) {
		doca_buf_set_data(res, a->result, 0);
		if (doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)) != DOCA_SUCCESS ||
		    !rt_wait(&a->side, NULL, i + 1) || a->side.status != DOCA_SUCCESS)
			a->ok = 0;
	}
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa));
	doca_buf_dec_refcount(word, NULL);
	doca_buf_dec_refcount(res, NULL);
	return NULL;
}

static void atomics_of_two_connections_on_two_threads_lose_no_update(void)
{
	struct rt_side c;
	static struct adder ad[2];
	struct doca_rdma_connection *c_conn[2];
	const void *c_blob[2];
	size_t c_len[2];
	uint64_t word = 0;
	pthread_t th[2];

	REQUIRE(rt_configure(&c, RT_DPU_PCI, RW));
	REQUIRE(doca_rdma_set_max_num_connections(c.rdma, 2) == DOCA_SUCCESS);
	REQUIRE(doca_ctx_start(c.ctx) == DOCA_SUCCESS);
	struct doca_mmap *lc = rt_mmap(c.dev, mem_b, MEM_LEN, RW);
	REQUIRE(lc != NULL);
	memset(mem_b, 0, 64);
	for (int i = 0; i < 2; i++) {
		struct adder *a = &ad[i];
		memset(a, 0, sizeof(*a));
		REQUIRE(doca_rdma_export(c.rdma, &c_blob[i], &c_len[i], &c_conn[i]) == DOCA_SUCCESS);
		REQUIRE(rt_configure(&a->side, i == 0 ? RT_HOST_PCI : RT_DPU_PCI, RW) && rt_start_and_export(&a->side));
		REQUIRE(doca_rdma_connect(a->side.rdma, c_blob[i], c_len[i], a->side.conn) == DOCA_SUCCESS);
		REQUIRE(doca_rdma_connect(c.rdma, a->side.blob, a->side.blob_len, c_conn[i]) == DOCA_SUCCESS);
		a->local = rt_mmap(a->side.dev, a->result, sizeof(a->result), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		a->remote = rt_import(lc, c.dev, a->side.dev);
		a->target = mem_b + 8;
		REQUIRE(a->local != NULL && a->remote != NULL);
	}
	for (int i = 0; i < 2; i++)
		REQUIRE(pthread_create(&th[i], NULL, adder_run, &ad[i]) == 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	CHECK(ad[0].ok && ad[1].ok);
	memcpy(&word, mem_b + 8, 8);
	CHECK_EQ_U64(word, 2 * ADDS);
	for (int i = 0; i < 2; i++) {
		rt_stop(&ad[i].side);
		doca_mmap_destroy(ad[i].remote);
		doca_mmap_destroy(ad[i].local);
		rt_destroy(&ad[i].side);
	}
	rt_stop(&c);
	doca_mmap_destroy(lc);
	rt_destroy(&c);
}

/* The notification handle: a receiver asleep on it wakes when the peer's send lands, and so does the sender. */
static bool wait_handle(struct doca_pe *pe, int timeout_ms)
{
	doca_notification_handle_t h;

	if (doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS)
		return false;
	struct pollfd p = {.fd = h, .events = POLLIN};
	return poll(&p, 1, timeout_ms) == 1;
}

static void a_send_wakes_the_receivers_notification_handle(void)
{
	struct rt_side a, b;
	struct doca_mmap *la, *lb;
	struct doca_buf *s = NULL, *d = NULL;
	struct doca_rdma_task_receive *rcv = NULL;
	struct doca_rdma_task_send *snd = NULL;
	union doca_data ud = {.u64 = 0};

	REQUIRE(rt_pair(&a, &b, RW, RW));
	la = rt_mmap(a.dev, mem_a, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	lb = rt_mmap(b.dev, mem_b, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(la != NULL && lb != NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, lb, mem_b, 64, &d));
	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, d, ud, &rcv));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rcv)));
	while (doca_pe_progress(b.pe) != 0)
		;
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(!wait_handle(b.pe, 50)); /* nothing yet: asleep */
	memcpy(mem_a, "wake", 4);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, la, mem_a, 4, &s));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, s, ud, &snd));
	while (doca_pe_progress(a.pe) != 0)
		;
	CHECK_OK(doca_pe_request_notification(a.pe));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(snd)));
	CHECK(wait_handle(b.pe, 2000));
	doca_notification_handle_t h;
	CHECK_OK(doca_pe_get_notification_handle(b.pe, &h));
	CHECK_OK(doca_pe_clear_notification(b.pe, h));
	REQUIRE(rt_wait(&b, NULL, 1)); /* the receiver alone matches the message */
	CHECK_OK(b.status);
	CHECK(memcmp(mem_b, "wake", 4) == 0);
	CHECK(wait_handle(a.pe, 2000)); /* the sender is woken too (by its submit or by the receiver taking it) */
	CHECK_OK(doca_pe_get_notification_handle(a.pe, &h));
	CHECK_OK(doca_pe_clear_notification(a.pe, h));
	REQUIRE(rt_wait(&a, NULL, 1));
	CHECK_OK(a.status);
	doca_task_free(doca_rdma_task_receive_as_task(rcv));
	doca_task_free(doca_rdma_task_send_as_task(snd));
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(d, NULL);
	rt_stop(&a);
	rt_stop(&b);
	doca_mmap_destroy(la);
	doca_mmap_destroy(lb);
	rt_destroy(&a);
	rt_destroy(&b);
}

int main(void)
{
	SD_RUN(caps_come_from_the_device_profile);
	SD_RUN(write_lands_in_peer_memory_and_read_brings_it_back);
	SD_RUN(write_into_read_only_export_fails_and_changes_nothing);
	SD_RUN(atomics_add_and_compare_swap_remote_words);
	SD_RUN(sends_fill_posted_receives_in_order_with_their_immediates);
	SD_RUN(a_receive_without_buffer_takes_a_write_with_immediate);
	SD_RUN(send_without_receive_fails_after_the_rnr_budget);
	SD_RUN(bad_blobs_are_refused_and_change_nothing);
	SD_RUN(lists_longer_than_the_context_allows_are_refused_at_submit);
	SD_RUN(atomics_of_two_connections_on_two_threads_lose_no_update);
	SD_RUN(a_send_wakes_the_receivers_notification_handle);
	return sd_test_done();
}
