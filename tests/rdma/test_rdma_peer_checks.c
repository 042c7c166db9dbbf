/*
 * test_rdma_peer_checks.c - how doca_rdma_connect checks a peer that is not
 * in this PID namespace, without root or namespaces: blobs are altered the
 * way a forger or another namespace would make them.
 *
 *   test_rdma_peer_checks local   a blob that claims another PID namespace and
 *                                 offers no network endpoint is refused with
 *                                 DOCA_ERROR_NOT_SUPPORTED and a record naming
 *                                 SOFTDOCA_PEER
 *   test_rdma_peer_checks ucx     (run with SOFTDOCA_XPROC_PATH=ucx) a child
 *                                 process's blob: with one token bit flipped
 *                                 it gets no answer (DOCA_ERROR_NOT_FOUND);
 *                                 genuine, it connects over UCX; once the
 *                                 child is killed, a new connect to it fails
 *                                 with DOCA_ERROR_NOT_FOUND within the bound
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rdma_test.h"
#include "xproc_test.h"

/* Blob layout (src/rdma/rdma_blob.c): token at 40, PID namespace inode at 104, checksum at the end. */
#define BLOB_TOKEN_AT 40u
#define BLOB_PIDNS_INO_AT 104u
#define RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)

static void blob_fix_checksum(uint8_t *b, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i + 4 < len; i++)
		h = (h ^ b[i]) * 16777619u;
	for (int i = 0; i < 4; i++)
		b[len - 4 + (size_t)i] = (uint8_t)(h >> (8 * i));
}

static void another_namespace_without_endpoint_is_not_supported(void)
{
	struct rt_side a, b;
	uint8_t forged[512];

	REQUIRE(rt_configure(&a, RT_HOST_PCI, RW) && rt_configure(&b, RT_DPU_PCI, RW));
	REQUIRE(rt_start_and_export(&a) && rt_start_and_export(&b));
	REQUIRE(b.blob_len <= sizeof(forged) && b.blob_len > BLOB_PIDNS_INO_AT + 8);
	memcpy(forged, b.blob, b.blob_len);
	forged[BLOB_PIDNS_INO_AT] ^= 0x01; /* "another PID namespace" */
	blob_fix_checksum(forged, b.blob_len);
	xt_capture_log();
	CHECK_ERR(doca_rdma_connect(a.rdma, forged, b.blob_len, a.conn), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(xt_log_has("SOFTDOCA_PEER"));
	/* The genuine blob still connects: nothing was spent on the refusal. */
	CHECK_OK(doca_rdma_connect(a.rdma, b.blob, b.blob_len, a.conn));
	rt_stop(&a);
	rt_stop(&b);
	rt_destroy(&a);
	rt_destroy(&b);
}

/* The child: export a connection, hand its blob over, then wait to be killed. */
static int child(int to_parent)
{
	struct rt_side s;
	uint32_t len;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!rt_configure(&s, RT_DPU_PCI, RW) || !rt_start_and_export(&s))
		return 10;
	len = (uint32_t)s.blob_len;
	if (write(to_parent, &len, 4) != 4 || write(to_parent, s.blob, len) != (ssize_t)len)
		return 11;
	for (;;)
		pause();
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void peer_checked_over_ucx(void)
{
	int up[2];
	uint8_t blob[512], forged[512];
	uint32_t len = 0;
	struct rt_side a, a2;

	REQUIRE(pipe(up) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(child(up[1]));
	REQUIRE(read(up[0], &len, 4) == 4 && len <= sizeof(blob) && read(up[0], blob, len) == (ssize_t)len);
	REQUIRE(rt_configure(&a, RT_HOST_PCI, RW) && rt_start_and_export(&a));
	memcpy(forged, blob, len);
	forged[BLOB_TOKEN_AT + 3] ^= 0x10;
	blob_fix_checksum(forged, len);
	xt_capture_log();
	CHECK_ERR(doca_rdma_connect(a.rdma, forged, len, a.conn), DOCA_ERROR_NOT_FOUND);
	CHECK(xt_log_has("refused"));
	CHECK_OK(doca_rdma_connect(a.rdma, blob, len, a.conn));

	kill(pid, SIGKILL);
	int st = 0;
	waitpid(pid, &st, 0);
	REQUIRE(rt_configure(&a2, RT_HOST_PCI, RW) && rt_start_and_export(&a2));
	double t0 = now_ms();
	CHECK_ERR(doca_rdma_connect(a2.rdma, blob, len, a2.conn), DOCA_ERROR_NOT_FOUND);
	/* The liveness bound is 1 s; a loaded machine gets 2 s more. */
	CHECK(now_ms() - t0 < 3000.0);
	rt_stop(&a);
	rt_stop(&a2);
	rt_destroy(&a);
	rt_destroy(&a2);
	close(up[0]);
	close(up[1]);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "ucx") == 0) {
		SD_RUN(peer_checked_over_ucx);
	} else {
		SD_RUN(another_namespace_without_endpoint_is_not_supported);
	}
	return sd_test_done();
}
