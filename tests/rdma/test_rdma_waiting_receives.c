/*
 * test_rdma_waiting_receives.c - many posted receives wait without holding
 * anything back.  The progress engine passes a context whose queued tasks
 * are all receives still waiting without visiting each (sd_exec.h, the
 * waiting counts), so these check what that shortcut must never change:
 * nothing is reported for a waiting receive, the context's own later
 * tasks and another context's tasks on the same engine are reported while
 * the receives wait, messages fill the receives in order as they come, and
 * stopping flushes the rest exactly once.
 */
#include "rdma_test.h"

#define MEM_LEN 65536u
#define RECVS 48u /* posted receives: most of the pool (RT_TASKS) */
#define MSG_LEN 32u

static uint8_t mem_a[MEM_LEN] __attribute__((aligned(64)));
static uint8_t mem_b[MEM_LEN] __attribute__((aligned(64)));

#define RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)

/* What one test holds: the two sides, their local maps, b's receives and their buffers. */
struct waiting {
	struct rt_side a, b;
	struct doca_mmap *la, *lb;
	struct doca_buf *rbuf[RECVS];
	struct doca_rdma_task_receive *rcv[RECVS];
};

static void map_memory(struct waiting *w)
{
	w->la = rt_mmap(w->a.dev, mem_a, MEM_LEN, RW);
	w->lb = rt_mmap(w->b.dev, mem_b, MEM_LEN, RW);
	REQUIRE(w->la != NULL && w->lb != NULL);
	memset(mem_b, 0, MEM_LEN);
}

static void post_receives(struct waiting *w)
{
	union doca_data ud = {.u64 = 0};

	for (unsigned i = 0; i < RECVS; i++) {
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(w->b.inv, w->lb, mem_b + MSG_LEN * i, MSG_LEN, &w->rbuf[i]));
		CHECK_OK(doca_rdma_task_receive_allocate_init(w->b.rdma, w->rbuf[i], ud, &w->rcv[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(w->rcv[i])));
	}
}

/* `from` writes `len` bytes of its memory at offset `off` of `to`'s export and sees it complete. */
static void write_into(struct rt_side *from, struct doca_mmap *from_map, uint8_t *from_mem, struct rt_side *to,
		       struct doca_mmap *to_map, uint8_t *to_mem, size_t off, size_t len)
{
	struct doca_mmap *remote = rt_import(to_map, to->dev, from->dev);
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_write *t = NULL;
	union doca_data ud = {.u64 = 0};
	int before = from->done;

	REQUIRE(remote != NULL);
	memset(from_mem + off, 0x3c, len);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(from->inv, from_map, from_mem + off, len, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(from->inv, remote, to_mem + off, len, &dst));
	CHECK_OK(doca_rdma_task_write_allocate_init(from->rdma, from->conn, src, dst, ud, &t));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(t)));
	REQUIRE(rt_wait(from, NULL, before + 1));
	CHECK_OK(from->status);
	CHECK(to_mem[off] == 0x3c && to_mem[off + len - 1] == 0x3c);
	doca_task_free(doca_rdma_task_write_as_task(t));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	CHECK_OK(doca_mmap_destroy(remote));
}

/* a sends `n` messages of MSG_LEN bytes, message i filled with the byte 0x40 + i. */
static void send_messages(struct waiting *w, unsigned n)
{
	struct doca_buf *src[4] = {NULL};
	struct doca_rdma_task_send *t[4] = {NULL};
	union doca_data ud = {.u64 = 0};
	int before = w->a.done;

	REQUIRE(n <= 4);
	for (unsigned i = 0; i < n; i++) {
		memset(mem_a + 4096 + MSG_LEN * i, 0x40 + (int)i, MSG_LEN);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(w->a.inv, w->la, mem_a + 4096 + MSG_LEN * i, MSG_LEN, &src[i]));
		CHECK_OK(doca_rdma_task_send_allocate_init(w->a.rdma, w->a.conn, src[i], ud, &t[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(t[i])));
	}
	REQUIRE(rt_wait(&w->a, &w->b, before + (int)n));
	CHECK_OK(w->a.status);
	for (unsigned i = 0; i < n; i++) {
		doca_task_free(doca_rdma_task_send_as_task(t[i]));
		doca_buf_dec_refcount(src[i], NULL);
	}
}

static void release(struct waiting *w)
{
	rt_stop(&w->a);
	for (unsigned i = 0; i < RECVS; i++) {
		doca_task_free(doca_rdma_task_receive_as_task(w->rcv[i]));
		doca_buf_dec_refcount(w->rbuf[i], NULL);
	}
	CHECK_OK(doca_mmap_destroy(w->la));
	CHECK_OK(doca_mmap_destroy(w->lb));
	/* A side on a borrowed PE goes first: the other side destroys the PE. */
	rt_destroy(w->a.pe_borrowed ? &w->a : &w->b);
	rt_destroy(w->a.pe_borrowed ? &w->b : &w->a);
}

/* Receives that wait report nothing; the context's own later write is reported; messages fill them in order. */
static void waiting_receives_hold_back_neither_later_tasks_nor_messages(void)
{
	static struct waiting w;

	REQUIRE(rt_pair(&w.a, &w.b, RW, RW));
	map_memory(&w);
	post_receives(&w);
	for (int i = 0; i < 1000; i++)
		CHECK(doca_pe_progress(w.b.pe) == 0);
	CHECK_EQ_U64(w.b.done, 0);
	write_into(&w.b, w.lb, mem_b, &w.a, w.la, mem_a, 8192, 256); /* queued behind every receive */
	CHECK_EQ_U64(w.b.done, 1);
	send_messages(&w, 2);
	REQUIRE(rt_wait(&w.b, &w.a, 3));
	CHECK_OK(w.b.status);
	CHECK(mem_b[0] == 0x40 && mem_b[MSG_LEN - 1] == 0x40);
	CHECK(mem_b[MSG_LEN] == 0x41 && mem_b[2 * MSG_LEN - 1] == 0x41);
	CHECK(mem_b[2 * MSG_LEN] == 0); /* the third receive still waits, untouched */
	for (int i = 0; i < 1000; i++)
		CHECK(doca_pe_progress(w.b.pe) == 0);
	CHECK_EQ_U64(w.b.done, 3);
	send_messages(&w, 1); /* the shortcut is taken again, and still lets a new message through */
	REQUIRE(rt_wait(&w.b, &w.a, 4));
	CHECK(mem_b[2 * MSG_LEN] == 0x40);
	rt_stop(&w.b);
	CHECK_EQ_U64(w.b.done, 4 + (RECVS - 3)); /* each waiting receive flushed once */
	CHECK_ERR(w.b.status, DOCA_ERROR_SHUTDOWN);
	release(&w);
}

/*
 * Two contexts on one PE: the receiver's waiting receives, queued first,
 * hold back none of the other's tasks; and with the other's own receive
 * waiting at the head of the engine's queue, the receiver's filled
 * receives behind it are still found and reported.
 */
static void waiting_receives_hold_back_no_other_context_on_the_engine(void)
{
	static struct waiting w;
	struct doca_buf *head_buf = NULL;
	struct doca_rdma_task_receive *head = NULL;
	union doca_data ud = {.u64 = 0};

	REQUIRE(rt_configure(&w.b, RT_HOST_PCI, RW));
	REQUIRE(rt_configure_on(&w.a, RT_DPU_PCI, RW, w.b.pe));
	REQUIRE(rt_connect_pair(&w.a, &w.b));
	map_memory(&w);
	/* a's receive, for a message b never sends: it stays at the head of the queue */
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(w.a.inv, w.la, mem_a + 32768, MSG_LEN, &head_buf));
	CHECK_OK(doca_rdma_task_receive_allocate_init(w.a.rdma, head_buf, ud, &head));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(head)));
	post_receives(&w);
	write_into(&w.a, w.la, mem_a, &w.b, w.lb, mem_b, 16384, 512);
	CHECK_EQ_U64(w.a.done, 1);
	CHECK_EQ_U64(w.b.done, 0);
	send_messages(&w, 3);
	REQUIRE(rt_wait(&w.b, NULL, 3));
	CHECK_OK(w.b.status);
	CHECK(mem_b[2 * MSG_LEN] == 0x42 && mem_b[3 * MSG_LEN] == 0);
	rt_stop(&w.b);
	CHECK_EQ_U64(w.b.done, RECVS);
	rt_stop(&w.a);
	CHECK_EQ_U64(w.a.done, 1 + 3 + 1); /* the write, the sends, and its receive flushed once */
	CHECK_ERR(w.a.status, DOCA_ERROR_SHUTDOWN);
	doca_task_free(doca_rdma_task_receive_as_task(head));
	doca_buf_dec_refcount(head_buf, NULL);
	release(&w);
}

int main(void)
{
	SD_RUN(waiting_receives_hold_back_neither_later_tasks_nor_messages);
	SD_RUN(waiting_receives_hold_back_no_other_context_on_the_engine);
	return sd_test_done();
}
