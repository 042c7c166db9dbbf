/*
 * DMA between two processes: an exporter peer
 * process, this process importing.  Reads and writes in both directions
 * (host-side export read from the DPU-side device and the reverse: no
 * device pairing is checked), scatter-gather lists mixing local and remote
 * buffers, large copies, read-only exports, out-of-range buffers, and the
 * data path chosen for heap, memfd and /dev/shm memory.
 *
 * Run once per SOFTDOCA_XPROC_PATH (auto, vm, procmem, and ucx where the
 * UCX transport is built: both processes then go through UCX on the
 * loopback address); argv[1] is the xproc_peer program.
 */
#include "xproc_test.h"

static const char *mode = "auto";

/* The path the importer must have chosen for memory of kind `mem`. */
static const char *expected_path(const char *mem)
{
	if (strcmp(mode, "procmem") == 0)
		return "/proc/PID/mem";
	if (strcmp(mode, "ucx") == 0)
		return "over UCX";
	if (strcmp(mode, "vm") == 0)
		return "process_vm_readv/process_vm_writev";
	/*
	 * Heap memory too: its registration moved it onto softdoca's own memfd
	 * (docs/mmap-registration.md), which is sealed against shrinking, so
	 * its copies need no SIGBUS guard.  The program's own files keep it.
	 */
	if (strcmp(mem, "heap") == 0)
		return "shared file mapping (sealed against shrinking: unguarded copies)";
	return "shared file mapping (copies under the SIGBUS guard)";
}

struct session {
	struct xt_peer peer;
	struct doca_dev *dev;
	struct doca_mmap *remote, *local;
	uint8_t *mem;
	size_t len;
	struct xt_dma x;
};

static bool session_open(struct session *s, const char *mem, const char *perm, const char *exp_pci,
			 const char *imp_pci, size_t len, uint32_t seed)
{
	memset(s, 0, sizeof(*s));
	if (!xt_exporter_start(&s->peer, mem, perm, exp_pci, len, seed, NULL))
		return false;
	s->dev = sd_test_open_dev_at(imp_pci);
	s->len = len;
	s->mem = calloc(1, len);
	if (s->dev == NULL || s->mem == NULL)
		return false;
	xt_log_reset();
	if (doca_mmap_create_from_export(NULL, s->peer.desc, s->peer.desc_len, s->dev, &s->remote) != DOCA_SUCCESS)
		return false;
	if (!xt_log_has(expected_path(mem))) {
		fprintf(stderr, "[%s] import of %s memory did not choose %s:\n%s\n", sd_test_case_name, mem,
			expected_path(mem), xt_log_text);
		sd_test_case_failed = 1;
	}
	s->local = xt_local_mmap(s->dev, s->mem, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return s->local != NULL && xt_dma_start(&s->x, s->dev, 16);
}

static void session_close(struct session *s)
{
	char reply[64];

	xt_dma_stop(&s->x);
	if (s->remote != NULL)
		CHECK_OK(doca_mmap_destroy(s->remote));
	if (s->local != NULL)
		CHECK_OK(doca_mmap_destroy(s->local));
	if (s->dev != NULL)
		CHECK_OK(doca_dev_close(s->dev));
	if (s->peer.to != NULL)
		xt_peer_cmd(&s->peer, "quit", reply, sizeof(reply));
	CHECK(xt_peer_finish(&s->peer) == 0);
	free(s->mem);
}

/* Remote [off, off+n) -> local [0, n). */
static doca_error_t session_read(struct session *s, uint64_t off, size_t n)
{
	struct doca_buf *src = xt_src(&s->x, s->remote, s->peer.addr + off, n);
	struct doca_buf *dst = xt_dst(&s->x, s->local, (uintptr_t)s->mem, n);
	doca_error_t err = src && dst ? xt_dma_copy(&s->x, src, dst) : DOCA_ERROR_NO_MEMORY;
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	return err;
}

/* Local [0, n) -> remote [off, off+n). */
static doca_error_t session_write(struct session *s, uint64_t off, size_t n)
{
	struct doca_buf *src = xt_src(&s->x, s->local, (uintptr_t)s->mem, n);
	struct doca_buf *dst = xt_dst(&s->x, s->remote, s->peer.addr + off, n);
	doca_error_t err = src && dst ? xt_dma_copy(&s->x, src, dst) : DOCA_ERROR_NO_MEMORY;
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	return err;
}

static bool peer_check(struct session *s, uint32_t seed, uint64_t off, size_t n)
{
	char cmd[96], reply[64];
	snprintf(cmd, sizeof(cmd), "check %u %llu %zu", seed, (unsigned long long)off, n);
	return xt_peer_cmd(&s->peer, cmd, reply, sizeof(reply)) && strcmp(reply, "ok") == 0;
}

/* Read all, read a slice, write a slice, in one direction and memory kind. */
static void read_and_write(const char *mem, const char *exp_pci, const char *imp_pci)
{
	struct session s;
	const size_t len = 1u << 20;

	REQUIRE(session_open(&s, mem, "rw", exp_pci, imp_pci, len, 11));
	CHECK_OK(session_read(&s, 0, len));
	CHECK(xt_verify(s.mem, len, 11, 0) < 0);
	CHECK_OK(session_read(&s, 4097, 12345));
	CHECK(xt_verify(s.mem, 12345, 11, 4097) < 0);
	/* Write the pattern of seed 12 over [8191, 8191 + 70000) of the exporter, seen by the exporter. */
	xt_fill(s.mem, 70000, 12, 8191);
	CHECK_OK(session_write(&s, 8191, 70000));
	CHECK(peer_check(&s, 12, 8191, 70000));
	CHECK(peer_check(&s, 11, 0, 8191));             /* untouched before */
	CHECK(peer_check(&s, 11, 78191, len - 78191)); /* and after */
	session_close(&s);
}

static void host_export_read_and_written_from_the_dpu(void)
{
	read_and_write("heap", XT_HOST_PCI, XT_DPU_PCI);
}

static void dpu_export_read_and_written_from_the_host(void)
{
	read_and_write("heap", XT_DPU_PCI, XT_HOST_PCI);
}

static void memfd_export_read_and_written(void)
{
	read_and_write("memfd", XT_HOST_PCI, XT_DPU_PCI);
}

static void shm_file_export_read_and_written(void)
{
	read_and_write("shm", XT_DPU_PCI, XT_HOST_PCI);
}

/* Larger than one system call's chunk (64 MiB): the copy is split and resumed. */
static void copies_larger_than_one_chunk(void)
{
	struct session s;
	const size_t len = (72u << 20) + 333;

	REQUIRE(session_open(&s, "heap", "rw", XT_HOST_PCI, XT_DPU_PCI, len, 21));
	CHECK_OK(session_read(&s, 0, len));
	CHECK(xt_verify(s.mem, len, 21, 0) < 0);
	xt_fill(s.mem, len, 22, 0);
	CHECK_OK(session_write(&s, 0, len));
	CHECK(peer_check(&s, 22, 0, len));
	session_close(&s);
}

/*
 * Source list [local A, remote slice, local B] into destination list
 * [remote region, local region]: bytes flow in order across both kinds.
 */
static void scatter_gather_across_local_and_remote(void)
{
	struct session s;
	const size_t len = 1u << 17;
	uint8_t *a = malloc(1000), *b = malloc(500), *want = malloc(4500), *back = calloc(1, 4500);
	struct doca_mmap *extra = NULL;
	uint8_t *pool = calloc(1, 16384);

	REQUIRE(a && b && want && back && pool);
	REQUIRE(session_open(&s, "heap", "rw", XT_HOST_PCI, XT_DPU_PCI, len, 31));
	extra = xt_local_mmap(s.dev, pool, 16384, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(extra != NULL);
	xt_fill(pool, 1000, 41, 0);
	xt_fill(pool + 1000, 500, 42, 0);
	memcpy(want, pool, 1000);
	xt_fill(want + 1000, 3000, 31, 100); /* remote bytes [100, 3100) */
	memcpy(want + 4000, pool + 1000, 500);

	struct doca_buf *s1 = xt_src(&s.x, extra, (uintptr_t)pool, 1000);
	struct doca_buf *s2 = xt_src(&s.x, s.remote, s.peer.addr + 100, 3000);
	struct doca_buf *s3 = xt_src(&s.x, extra, (uintptr_t)pool + 1000, 500);
	struct doca_buf *d1 = xt_dst(&s.x, s.remote, s.peer.addr + 50000, 2000);
	struct doca_buf *d2 = xt_dst(&s.x, extra, (uintptr_t)pool + 4096, 4000);
	REQUIRE(s1 && s2 && s3 && d1 && d2);
	CHECK_OK(doca_buf_chain_list(s1, s2));
	CHECK_OK(doca_buf_chain_list(s1, s3));
	CHECK_OK(doca_buf_chain_list(d1, d2));
	CHECK_OK(xt_dma_copy(&s.x, s1, d1));
	CHECK(memcmp(pool + 4096, want + 2000, 2500) == 0);
	size_t dl = 0;
	CHECK_OK(doca_buf_get_data_len(d1, &dl));
	CHECK(dl == 2000);
	CHECK_OK(doca_buf_get_data_len(d2, &dl));
	CHECK(dl == 2500);
	doca_buf_dec_refcount(s1, NULL);
	doca_buf_dec_refcount(d1, NULL);
	/* Read the remote region back and compare with the first 2000 bytes. */
	CHECK_OK(session_read(&s, 50000, 2000));
	CHECK(memcmp(s.mem, want, 2000) == 0);
	CHECK_OK(doca_mmap_destroy(extra));
	session_close(&s);
	free(a);
	free(b);
	free(want);
	free(back);
	free(pool);
}

static void read_only_export_refuses_writes(void)
{
	struct session s;
	const size_t len = 65536;

	REQUIRE(session_open(&s, "heap", "ro", XT_HOST_PCI, XT_DPU_PCI, len, 51));
	CHECK_OK(session_read(&s, 0, len));
	CHECK(xt_verify(s.mem, len, 51, 0) < 0);
	memset(s.mem, 0x5a, len);
	struct doca_buf *src = xt_src(&s.x, s.local, (uintptr_t)s.mem, 100);
	struct doca_buf *dst = xt_dst(&s.x, s.remote, s.peer.addr, 100);
	REQUIRE(src && dst);
	CHECK_ERR(xt_dma_try(&s.x, src, dst), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(xt_dma_copy(&s.x, src, dst), DOCA_ERROR_NOT_PERMITTED);
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	CHECK(peer_check(&s, 51, 0, len));
	session_close(&s);
}

static void buffers_outside_the_export_are_refused(void)
{
	struct session s;
	struct doca_buf *b = NULL;
	const size_t len = 8192;

	REQUIRE(session_open(&s, "memfd", "rw", XT_HOST_PCI, XT_DPU_PCI, len, 61));
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(s.x.inv, s.remote, (void *)(uintptr_t)(s.peer.addr + len), 1, &b),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(s.x.inv, s.remote, (void *)(uintptr_t)(s.peer.addr - 4096), 4097,
						     &b),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(s.x.inv, s.remote, (void *)(uintptr_t)s.peer.addr, len + 1, &b),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(session_read(&s, len - 1, 1)); /* the last byte is fine */
	CHECK(xt_verify(s.mem, 1, 61, len - 1) < 0);
	session_close(&s);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s XPROC_PEER\n", argv[0]);
		return 2;
	}
	xt_peer_exe = argv[1];
	if (getenv("SOFTDOCA_XPROC_PATH") != NULL && getenv("SOFTDOCA_XPROC_PATH")[0] != '\0')
		mode = getenv("SOFTDOCA_XPROC_PATH");
	signal(SIGPIPE, SIG_IGN);
	xt_capture_log();
	SD_RUN(host_export_read_and_written_from_the_dpu);
	SD_RUN(dpu_export_read_and_written_from_the_host);
	SD_RUN(memfd_export_read_and_written);
	SD_RUN(shm_file_export_read_and_written);
	SD_RUN(copies_larger_than_one_chunk);
	SD_RUN(scatter_gather_across_local_and_remote);
	SD_RUN(read_only_export_refuses_writes);
	SD_RUN(buffers_outside_the_export_are_refused);
	return sd_test_done();
}
