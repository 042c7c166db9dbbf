/*
 * test_rdma_cross_process.c - DOCA RDMA between two processes of one
 * machine: the child exports a connection and two memory regions (plain
 * heap memory, and a memfd mapping), hands the blobs over a pipe and then
 * only waits; the parent writes, reads and adds atomically into the
 * child's memory without the child progressing anything.  Then the child
 * is killed: the next write fails instead of hanging or crashing.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdma_pipes.h"
#include "rdma_test.h"

#define LEN 8192u
#define RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	    DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/* The child: export, connect to the parent's blob, then check what the parent did. */
static int child(int to_parent, int from_parent)
{
	struct rt_side s;
	static uint8_t heap[LEN] __attribute__((aligned(64)));
	int mfd = memfd_create("rdma-test", 0);
	uint8_t *shared = mfd >= 0 && ftruncate(mfd, LEN) == 0
				  ? mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0)
				  : MAP_FAILED;
	const void *dh, *ds;
	size_t nh, ns;
	uint8_t blob[256];
	char go;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (shared == MAP_FAILED || !rt_configure(&s, RT_DPU_PCI, RW) || !rt_start_and_export(&s))
		return 10;
	memset(heap, 0x33, LEN);
	memset(shared, 0, LEN);
	struct doca_mmap *mh = rt_mmap(s.dev, heap, LEN, RW), *ms = rt_mmap(s.dev, shared, LEN, RW);
	if (mh == NULL || ms == NULL || doca_mmap_export_rdma(mh, s.dev, &dh, &nh) != DOCA_SUCCESS ||
	    doca_mmap_export_rdma(ms, s.dev, &ds, &ns) != DOCA_SUCCESS)
		return 11;
	if (!put_blob(to_parent, s.blob, s.blob_len) || !put_blob(to_parent, dh, nh) || !put_blob(to_parent, ds, ns))
		return 12;
	size_t n = get_blob(from_parent, blob, sizeof(blob));
	if (n == 0 || doca_rdma_connect(s.rdma, blob, n, s.conn) != DOCA_SUCCESS)
		return 13;
	/* No progress from here on: one-sided tasks need none. */
	if (read(from_parent, &go, 1) != 1)
		return 14;
	for (uint32_t i = 0; i < 256; i++)
		if (heap[i] != (uint8_t)(i ^ 0x5a))
			return 15;
	uint64_t word;
	memcpy(&word, shared + 64, 8);
	if (word != 1000 + 7)
		return 16;
	if (write(to_parent, "k", 1) != 1)
		return 17;
	pause(); /* killed by the parent */
	return 0;
}

static void one_sided_tasks_reach_another_process_that_only_waits(void)
{
	int up[2], down[2];
	uint8_t blob[256], dh[512], ds[512];
	static uint8_t local[LEN] __attribute__((aligned(64)));

	REQUIRE(pipe(up) == 0 && pipe(down) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(child(up[1], down[0]));
	struct rt_side a;
	REQUIRE(rt_configure(&a, RT_HOST_PCI, RW) && rt_start_and_export(&a));
	size_t nb = get_blob(up[0], blob, sizeof(blob)), nh = get_blob(up[0], dh, sizeof(dh)),
	       ns = get_blob(up[0], ds, sizeof(ds));
	REQUIRE(nb != 0 && nh != 0 && ns != 0);
	REQUIRE(put_blob(down[1], a.blob, a.blob_len));
	CHECK_OK(doca_rdma_connect(a.rdma, blob, nb, a.conn));
	struct doca_mmap *rh = NULL, *rs = NULL, *lm = rt_mmap(a.dev, local, LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_mmap_create_from_export(NULL, dh, nh, a.dev, &rh));
	CHECK_OK(doca_mmap_create_from_export(NULL, ds, ns, a.dev, &rs));
	REQUIRE(rh != NULL && rs != NULL && lm != NULL);
	void *raddr_h, *raddr_s;
	size_t rl;
	CHECK_OK(doca_mmap_get_memrange(rh, &raddr_h, &rl));
	CHECK_OK(doca_mmap_get_memrange(rs, &raddr_s, &rl));

	/* Read the child's 0x33 bytes, then write a pattern over them. */
	struct doca_buf *src = NULL, *dst = NULL, *rsrc = NULL, *rdst = NULL, *word = NULL, *res = NULL;
	union doca_data ud = {.u64 = 0};
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, rh, raddr_h, 256, &rsrc));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, lm, local + 4096, 256, &dst));
	struct doca_rdma_task_read *r = NULL;
	CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, rsrc, dst, ud, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(r)));
	REQUIRE(rt_wait(&a, NULL, 1));
	CHECK_OK(a.status);
	CHECK(local[4096] == 0x33 && local[4096 + 255] == 0x33);
	for (uint32_t i = 0; i < 256; i++)
		local[i] = (uint8_t)(i ^ 0x5a);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, lm, local, 256, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, rh, raddr_h, 256, &rdst));
	struct doca_rdma_task_write *w = NULL;
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, rdst, ud, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	REQUIRE(rt_wait(&a, NULL, 2));
	CHECK_OK(a.status);

	/* Atomics into the child's shared mapping: 1000 via compare-and-swap from 0, then + 7. */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(a.inv, rs, (uint8_t *)raddr_s + 64, 8, &word));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(a.inv, lm, local + 6000, 64, &res));
	struct doca_rdma_task_atomic_cmp_swp *cs = NULL;
	struct doca_rdma_task_atomic_fetch_add *fa = NULL;
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, word, res, 0, 1000, ud, &cs));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(cs)));
	REQUIRE(rt_wait(&a, NULL, 3));
	CHECK_OK(a.status);
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, word, res, 7, ud, &fa));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)));
	REQUIRE(rt_wait(&a, NULL, 4));
	CHECK_OK(a.status);
	uint64_t old = 0;
	memcpy(&old, local + 6008, 8);
	CHECK_EQ_U64(old, 1000);

	/* The child checks its memory and says so; then it dies and the next write fails. */
	char k = 0;
	CHECK(write(down[1], "g", 1) == 1);
	CHECK(read(up[0], &k, 1) == 1 && k == 'k');
	kill(pid, SIGKILL);
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st));
	CHECK_OK(doca_buf_set_data(rdst, raddr_h, 0)); /* room again after the first write's bytes */
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	REQUIRE(rt_wait(&a, NULL, 5));
	CHECK_ERR(a.status, DOCA_ERROR_IO_FAILED);

	doca_task_free(doca_rdma_task_read_as_task(r));
	doca_task_free(doca_rdma_task_write_as_task(w));
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(cs));
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa));
	struct doca_buf *bufs[] = {src, dst, rsrc, rdst, word, res};
	for (unsigned i = 0; i < 6; i++)
		doca_buf_dec_refcount(bufs[i], NULL);
	rt_stop(&a);
	doca_mmap_destroy(rh);
	doca_mmap_destroy(rs);
	doca_mmap_destroy(lm);
	rt_destroy(&a);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

int main(void)
{
	SD_RUN(one_sided_tasks_reach_another_process_that_only_waits);
	return sd_test_done();
}
