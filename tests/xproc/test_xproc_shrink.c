/*
 * An exporter shrinks the file behind a live export (ftruncate of its
 * memfd or /dev/shm object): the importer's tasks that touch the part no
 * longer backed fail with DOCA_ERROR_IO_FAILED, on every data path, and
 * the importer lives on.  Bytes still backed read as before, and once the
 * file grows back, tasks succeed again (the export itself never ended).
 * An application's own SIGBUS handler still gets the faults that are not
 * the library's.
 *
 * Run once per SOFTDOCA_XPROC_PATH (auto takes the shared-mapping path
 * for these files) and with the worker engine; argv[1] is xproc_peer.
 */
#include <setjmp.h>
#include <sys/mman.h>

#include "xproc_test.h"

#define SIZE (1u << 20)
#define PIECE (64u << 10)

struct importer {
	struct xt_peer peer;
	struct doca_dev *dev;
	struct doca_mmap *remote, *local;
	uint8_t *mem;
	struct xt_dma x;
};

static bool path_is_shared(void)
{
	const char *p = getenv("SOFTDOCA_XPROC_PATH");
	return p == NULL || p[0] == '\0' || strcmp(p, "auto") == 0;
}

static bool importer_open(struct importer *im, const char *kind, uint32_t seed)
{
	memset(im, 0, sizeof(*im));
	if (!xt_exporter_start(&im->peer, kind, "rw", XT_HOST_PCI, SIZE, seed, NULL))
		return false;
	im->dev = sd_test_open_dev_at(XT_DPU_PCI);
	im->mem = malloc(SIZE);
	if (im->dev == NULL || im->mem == NULL)
		return false;
	xt_log_reset();
	if (doca_mmap_create_from_export(NULL, im->peer.desc, im->peer.desc_len, im->dev, &im->remote) != DOCA_SUCCESS)
		return false;
	/* The auto path must really be the shared mapping here, or this test tests nothing new. */
	if (path_is_shared() && !xt_log_has("shared file mapping")) {
		fprintf(stderr, "the import of a %s export did not take the shared-mapping path\n", kind);
		return false;
	}
	im->local = xt_local_mmap(im->dev, im->mem, SIZE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return im->local != NULL && xt_dma_start(&im->x, im->dev, 8);
}

static void importer_close(struct importer *im)
{
	char reply[64];

	xt_dma_stop(&im->x);
	if (im->local != NULL)
		CHECK_OK(doca_mmap_destroy(im->local));
	if (im->remote != NULL)
		CHECK_OK(doca_mmap_destroy(im->remote));
	if (im->dev != NULL)
		CHECK_OK(doca_dev_close(im->dev));
	if (im->peer.to != NULL)
		xt_peer_cmd(&im->peer, "quit", reply, sizeof(reply));
	CHECK(xt_peer_finish(&im->peer) == 0);
	free(im->mem);
}

static bool resize(struct importer *im, unsigned long long size)
{
	char cmd[64], reply[128];

	snprintf(cmd, sizeof(cmd), "resize %llu", size);
	if (!xt_peer_cmd(&im->peer, cmd, reply, sizeof(reply)) || strcmp(reply, "ok") != 0) {
		fprintf(stderr, "exporter answered '%s' to %s\n", reply, cmd);
		return false;
	}
	return true;
}

/* Copy `s` to `d` (either NULL: no memory), then release both; the task's status. */
static doca_error_t copy_and_release(struct importer *im, struct doca_buf *s, struct doca_buf *d)
{
	doca_error_t err = s != NULL && d != NULL ? xt_dma_copy(&im->x, s, d) : DOCA_ERROR_NO_MEMORY;

	if (s != NULL)
		doca_buf_dec_refcount(s, NULL);
	if (d != NULL)
		doca_buf_dec_refcount(d, NULL);
	return err;
}

/* Read [off, off + len) of the export into the local buffer; the task's status. */
static doca_error_t read_piece(struct importer *im, size_t off, size_t len)
{
	struct doca_buf *s = xt_src(&im->x, im->remote, im->peer.addr + off, len);
	struct doca_buf *d = xt_dst(&im->x, im->local, (uintptr_t)im->mem, len);

	return copy_and_release(im, s, d);
}

/* Write the local buffer's first `len` bytes to [off, off + len) of the export. */
static doca_error_t write_piece(struct importer *im, size_t off, size_t len)
{
	struct doca_buf *s = xt_src(&im->x, im->local, (uintptr_t)im->mem, len);
	struct doca_buf *d = xt_dst(&im->x, im->remote, im->peer.addr + off, len);

	return copy_and_release(im, s, d);
}

static void shrunk_to_nothing(const char *kind)
{
	struct importer im;

	REQUIRE(importer_open(&im, kind, 11));
	CHECK_OK(read_piece(&im, 0, SIZE));
	CHECK(xt_verify(im.mem, SIZE, 11, 0) < 0);
	REQUIRE(resize(&im, 0));
	CHECK_ERR(read_piece(&im, 0, SIZE), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(read_piece(&im, SIZE - PIECE, PIECE), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(read_piece(&im, 0, 1), DOCA_ERROR_IO_FAILED);
	xt_fill(im.mem, PIECE, 12, 0);
	CHECK_ERR(write_piece(&im, 0, PIECE), DOCA_ERROR_IO_FAILED);
	importer_close(&im);
}

static void shrunk_memfd_fails_reads_and_writes_with_io_failed(void)
{
	shrunk_to_nothing("memfd");
}

static void shrunk_shm_file_fails_reads_and_writes_with_io_failed(void)
{
	shrunk_to_nothing("shm");
}

/* Shrunk to half: the first half reads and writes as before, the rest fails. */
static void the_part_still_backed_works_as_before(void)
{
	struct importer im;
	char cmd[96], reply[64];

	REQUIRE(importer_open(&im, "memfd", 13));
	REQUIRE(resize(&im, SIZE / 2));
	CHECK_OK(read_piece(&im, 0, PIECE));
	CHECK(xt_verify(im.mem, PIECE, 13, 0) < 0);
	CHECK_OK(read_piece(&im, SIZE / 2 - PIECE, PIECE));
	CHECK(xt_verify(im.mem, PIECE, 13, SIZE / 2 - PIECE) < 0);
	CHECK_ERR(read_piece(&im, SIZE / 2, PIECE), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(read_piece(&im, SIZE / 2 - PIECE / 2, PIECE), DOCA_ERROR_IO_FAILED); /* straddles the end */
	xt_fill(im.mem, PIECE, 14, PIECE);
	CHECK_OK(write_piece(&im, PIECE, PIECE));
	snprintf(cmd, sizeof(cmd), "check 14 %u %u", PIECE, PIECE);
	CHECK(xt_peer_cmd(&im.peer, cmd, reply, sizeof(reply)) && strcmp(reply, "ok") == 0);
	CHECK_ERR(write_piece(&im, SIZE - PIECE, PIECE), DOCA_ERROR_IO_FAILED);
	importer_close(&im);
}

/* The export did not end: once the file is whole again, tasks succeed (the new pages are zero). */
static void tasks_succeed_again_once_the_file_grows_back(void)
{
	struct importer im;

	REQUIRE(importer_open(&im, "memfd", 15));
	REQUIRE(resize(&im, 0));
	CHECK_ERR(read_piece(&im, 0, PIECE), DOCA_ERROR_IO_FAILED);
	REQUIRE(resize(&im, SIZE));
	memset(im.mem, 0x5a, PIECE);
	CHECK_OK(read_piece(&im, 0, PIECE));
	bool zero = true;
	for (size_t i = 0; i < PIECE; i++)
		zero &= im.mem[i] == 0;
	CHECK(zero);
	importer_close(&im);
}

/*
 * The application's own SIGBUS handler, installed before any import: the
 * library's handler, installed at the first shared import, forwards every
 * fault that is not one of its guarded copies.
 */
static sigjmp_buf app_jump;
static volatile sig_atomic_t app_faults;

static void app_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	app_faults++;
	siglongjmp(app_jump, 1);
}

static void install_app_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = app_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static void application_sigbus_handler_still_gets_its_own_faults(void)
{
	struct importer im;
	int fd = memfd_create("app-own", MFD_CLOEXEC);
	volatile uint8_t *p;

	REQUIRE(fd >= 0 && ftruncate(fd, 8192) == 0);
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	REQUIRE(p != MAP_FAILED);
	REQUIRE(importer_open(&im, "memfd", 16)); /* the library's handler is in place from here on */
	REQUIRE(resize(&im, 0));
	CHECK_ERR(read_piece(&im, 0, PIECE), DOCA_ERROR_IO_FAILED);
	CHECK(app_faults == 0); /* the library's own fault never reached the application */
	REQUIRE(ftruncate(fd, 0) == 0);
	if (sigsetjmp(app_jump, 1) == 0)
		(void)p[4096]; /* beyond the end of the application's own file */
	CHECK_EQ_U64(app_faults, 1);
	munmap((void *)p, 8192);
	close(fd);
	importer_close(&im);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s XPROC_PEER\n", argv[0]);
		return 2;
	}
	xt_peer_exe = argv[1];
	install_app_handler();
	xt_capture_log();
	SD_RUN(shrunk_memfd_fails_reads_and_writes_with_io_failed);
	SD_RUN(shrunk_shm_file_fails_reads_and_writes_with_io_failed);
	SD_RUN(the_part_still_backed_works_as_before);
	SD_RUN(tasks_succeed_again_once_the_file_grows_back);
	SD_RUN(application_sigbus_handler_still_gets_its_own_faults);
	return sd_test_done();
}
