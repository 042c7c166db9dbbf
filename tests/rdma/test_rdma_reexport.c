/*
 * test_rdma_reexport.c - host memory handed on for RDMA by the DPU, the
 * zero-copy path of NVIDIA's storage application: a child process plays
 * the host and exports two buffers over PCI (one with RDMA rights, one
 * without); this process plays the DPU, which imports them and exports the
 * first again for RDMA, and the storage target, which imports that RDMA
 * descriptor and reads and writes the host's bytes over its RDMA
 * connection to the DPU.  The refusals around it, the end of the host's
 * export, the end of the DPU's hand-on (destroyed, or its process killed),
 * and copies of the re-export that the peer edited (the relay's name
 * dropped, another token shown) are checked too.
 *
 * Run twice: as is (the imports reach the host through a shared mapping or
 * process_vm_*), and with SOFTDOCA_XPROC_PATH=ucx, where the target reaches
 * the host over UCX as a peer in another namespace or on another machine
 * does: there the host's export server enforces the DPU's revocation.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdma_pipes.h"
#include "rdma_test.h"

#define LEN 8192u
#define HOST_RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE)
#define RDMA_RW (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define CTX_RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | RDMA_RW)

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 13u + 1u);
}

/* The target reaches the host over UCX (SOFTDOCA_XPROC_PATH=ucx) instead of a local path. */
static bool over_ucx(void)
{
	const char *path = getenv("SOFTDOCA_XPROC_PATH");

	return path != NULL && strcmp(path, "ucx") == 0;
}

/*
 * The host: export two buffers over PCI, wait, then check what the target
 * wrote: bytes 1 to 255 hold the pattern, and byte 0, which each try of a
 * revoked write changes, is sent back for the parent to judge.
 */
/*
 * The host child ends with _exit, which skips the coverage build's counter
 * dump at exit: write the counters first where the build has them, so that
 * the host side (its UCX export server among it) counts as tested.
 */
extern void __gcov_dump(void) __attribute__((weak));

static __attribute__((noreturn)) void host_exit(int status)
{
	if (__gcov_dump != NULL)
		__gcov_dump();
	_exit(status);
}

static int host(int to_dpu, int from_dpu)
{
	static uint8_t io[LEN] __attribute__((aligned(64)));
	static uint8_t plain[LEN] __attribute__((aligned(64)));
	struct doca_dev *dev = sd_test_open_dev_at(RT_HOST_PCI);
	struct doca_mmap *m_io = NULL, *m_plain = NULL;
	const void *d_io, *d_plain;
	size_t n_io, n_plain;
	char go = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	memset(io, 0x44, LEN);
	if (dev == NULL || sd_fx_mmap(dev, io, LEN, HOST_RW | RDMA_RW, &m_io) != DOCA_SUCCESS ||
	    sd_fx_mmap(dev, plain, LEN, HOST_RW, &m_plain) != DOCA_SUCCESS ||
	    doca_mmap_export_pci(m_io, dev, &d_io, &n_io) != DOCA_SUCCESS ||
	    doca_mmap_export_pci(m_plain, dev, &d_plain, &n_plain) != DOCA_SUCCESS)
		return 10;
	if (!put_blob(to_dpu, d_io, n_io) || !put_blob(to_dpu, d_plain, n_plain))
		return 11;
	if (read(from_dpu, &go, 1) != 1 || go != 'g')
		return 12;
	for (size_t i = 1; i < 256; i++)
		if (io[i] != pattern(i))
			return 13;
	if (write(to_dpu, &io[0], 1) != 1)
		return 14;
	pause(); /* killed by the parent: the export ends with the process */
	return 0;
}

/* Run one read or write task of the target to its end; its status. */
static doca_error_t target_run(struct rt_side *t, struct doca_task *task)
{
	int want = t->done + 1;

	if (doca_task_submit(task) != DOCA_SUCCESS || !rt_wait(t, NULL, want))
		return DOCA_ERROR_UNEXPECTED;
	return t->status;
}

/* What a revoked run of writes left: how many tries, the first byte of the last one that succeeded and of the refused one. */
struct refusal {
	int tries;
	uint8_t last;
	uint8_t refused;
};

/*
 * Write again until the write fails, for at most 2 s: the end of an export
 * reached through a shared mapping is noticed at the importer's next
 * liveness check, within a few milliseconds of the death, and over UCX at
 * the host's next look at the relay record, within a few milliseconds too
 * (docs/rdma.md).  Each try writes its own first byte (`src` is the
 * write's source), so the host's copy tells which try landed last.
 * `r->last` starts as the byte already there.
 */
static doca_error_t write_until_refused(struct rt_side *t, struct doca_rdma_task_write *wr, struct doca_buf *rbuf,
					void *raddr, uint8_t *src, struct refusal *r)
{
	doca_error_t err = DOCA_SUCCESS;

	for (r->tries = 0; r->tries < 1000 && err == DOCA_SUCCESS; r->tries++) {
		uint8_t mark = (uint8_t)(0x80u | (r->tries & 0x7fu));

		if (r->tries > 0)
			usleep(2000);
		if (doca_buf_set_data(rbuf, raddr, 0) != DOCA_SUCCESS)
			return DOCA_ERROR_UNEXPECTED;
		src[0] = mark;
		err = target_run(t, doca_rdma_task_write_as_task(wr));
		if (err == DOCA_SUCCESS)
			r->last = mark;
		else
			r->refused = mark;
	}
	return err;
}

/* Ask the host for the first byte of its buffer (it checks the rest holds the pattern); -1 when it cannot tell. */
static int host_first_byte(int to_host, int from_host)
{
	uint8_t b = 0;

	if (write(to_host, "g", 1) != 1 || read(from_host, &b, 1) != 1)
		return -1;
	return b;
}

/*
 * After a refusal: one write more fails at once, and the host's buffer
 * holds the last write allowed.  Over UCX the refused write may have been
 * in flight when the host cut the peer off (the host applied it, the
 * confirmation never came): its bytes may be there, as a card leaves them
 * undefined after a transport error; never those of a later write.
 */
static void refusal_sticks(struct rt_side *t, struct doca_rdma_task_write *wr, struct doca_buf *rbuf, void *raddr,
			   uint8_t *src, const struct refusal *r, int to_host, int from_host)
{
	int first;

	src[0] = 0x7f; /* neither the pattern's first byte nor any try's */
	CHECK_OK(doca_buf_set_data(rbuf, raddr, 0));
	CHECK_ERR(target_run(t, doca_rdma_task_write_as_task(wr)), DOCA_ERROR_IO_FAILED);
	first = host_first_byte(to_host, from_host);
	CHECK(first == r->last || (over_ucx() && first == r->refused));
	if (first != r->last && (!over_ucx() || first != r->refused))
		fprintf(stderr, "the host holds %d (-1: no answer); last write allowed %d, refused %d, %d tries\n",
			first, r->last, r->refused, r->tries);
}


static void memory_imported_over_pci_is_handed_on_for_rdma(void)
{
	static uint8_t local[LEN] __attribute__((aligned(64)));
	uint8_t d_io[512], d_plain[512];
	int up[2], down[2];
	struct rt_side t, d; /* the storage target and the DPU */
	struct doca_mmap *pm = NULL, *pm_plain = NULL, *rm = NULL, *lm;
	struct doca_buf *rbuf = NULL, *lbuf = NULL;
	struct doca_rdma_task_read *rd = NULL;
	struct doca_rdma_task_write *wr = NULL;
	union doca_data ud = {.u64 = 0};
	const void *rdesc, *again, *ignored;
	size_t rlen, alen, ilen, n_io, n_plain;
	void *raddr;
	struct refusal gone = {.last = 0};
	int st = 0;

	REQUIRE(pipe(up) == 0 && pipe(down) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		host_exit(host(up[1], down[0]));
	n_io = get_blob(up[0], d_io, sizeof(d_io));
	n_plain = get_blob(up[0], d_plain, sizeof(d_plain));
	REQUIRE(n_io != 0 && n_plain != 0);
	REQUIRE(rt_pair(&t, &d, CTX_RW, CTX_RW));

	/* The DPU imports the host's buffers over PCI and hands the first on. */
	CHECK_OK(doca_mmap_create_from_export(NULL, d_io, n_io, d.dev, &pm));
	CHECK_OK(doca_mmap_create_from_export(NULL, d_plain, n_plain, d.dev, &pm_plain));
	REQUIRE(pm != NULL && pm_plain != NULL);
	CHECK_OK(doca_mmap_export_rdma(pm, d.dev, &rdesc, &rlen));
	CHECK_OK(doca_mmap_export_rdma(pm, d.dev, &again, &alen));
	CHECK(again == rdesc && alen == rlen); /* the same device gets the same bytes */

	/* What may not be handed on. */
	CHECK_ERR(doca_mmap_export_pci(pm, d.dev, &ignored, &ilen), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_export_rdma(pm_plain, d.dev, &ignored, &ilen), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_export_rdma(pm, t.dev, &ignored, &ilen), DOCA_ERROR_NOT_FOUND);
	CHECK_ERR(doca_mmap_export_rdma(pm, d.dev, NULL, &ilen), DOCA_ERROR_INVALID_VALUE);

	/* The target imports the RDMA descriptor; an RDMA import is not handed on again. */
	CHECK_OK(doca_mmap_create_from_export(NULL, rdesc, rlen, t.dev, &rm));
	REQUIRE(rm != NULL);
	CHECK_ERR(doca_mmap_export_rdma(rm, t.dev, &ignored, &ilen), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_get_memrange(rm, &raddr, &rlen));
	CHECK(rlen == LEN);

	/* The target reads the host's 0x44 bytes, then writes the pattern over them. */
	lm = rt_mmap(t.dev, local, LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(lm != NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(t.inv, rm, raddr, 256, &rbuf));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(t.inv, lm, local + 4096, 256, &lbuf));
	CHECK_OK(doca_rdma_task_read_allocate_init(t.rdma, t.conn, rbuf, lbuf, ud, &rd));
	CHECK_OK(target_run(&t, doca_rdma_task_read_as_task(rd)));
	CHECK(local[4096] == 0x44 && local[4096 + 255] == 0x44);
	for (size_t i = 0; i < 256; i++)
		local[i] = pattern(i);
	doca_buf_dec_refcount(lbuf, NULL);
	doca_buf_dec_refcount(rbuf, NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(t.inv, lm, local, 256, &lbuf));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(t.inv, rm, raddr, 256, &rbuf));
	CHECK_OK(doca_rdma_task_write_allocate_init(t.rdma, t.conn, lbuf, rbuf, ud, &wr));
	CHECK_OK(target_run(&t, doca_rdma_task_write_as_task(wr)));

	/* The host sees the bytes in its own buffer; once it is gone, the next write fails. */
	CHECK(host_first_byte(down[1], up[0]) == pattern(0));
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	CHECK_ERR(write_until_refused(&t, wr, rbuf, raddr, local, &gone), DOCA_ERROR_IO_FAILED);

	doca_task_free(doca_rdma_task_read_as_task(rd));
	doca_task_free(doca_rdma_task_write_as_task(wr));
	doca_buf_dec_refcount(lbuf, NULL);
	doca_buf_dec_refcount(rbuf, NULL);
	rt_stop(&t);
	rt_stop(&d);
	CHECK_OK(doca_mmap_destroy(rm));
	CHECK_OK(doca_mmap_destroy(pm));
	CHECK_OK(doca_mmap_destroy(pm_plain));
	CHECK_OK(doca_mmap_destroy(lm));
	rt_destroy(&t);
	rt_destroy(&d);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/* The RDMA peer's side of a revocation case: its import of the re-export and its tasks on it. */
struct peer_io {
	uint8_t *local; /* LEN bytes of the peer's own memory */
	struct doca_mmap *rm, *lm;
	struct doca_buf *lbuf, *rbuf, *back;
	struct doca_rdma_task_write *wr;
	struct doca_rdma_task_read *rd;
	void *raddr;
};

/* The peer imports the re-export `rdesc` and writes 256 B of the pattern through it once; false: no import. */
static bool peer_first_write(struct rt_side *t, const void *rdesc, size_t n, struct peer_io *p)
{
	union doca_data ud = {.u64 = 0};
	size_t rlen;

	CHECK_OK(doca_mmap_create_from_export(NULL, rdesc, n, t->dev, &p->rm));
	if (p->rm == NULL)
		return false;
	CHECK_OK(doca_mmap_get_memrange(p->rm, &p->raddr, &rlen));
	p->lm = rt_mmap(t->dev, p->local, LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (p->lm == NULL)
		return false;
	for (size_t i = 0; i < 256; i++)
		p->local[i] = pattern(i);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(t->inv, p->lm, p->local, 256, &p->lbuf));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(t->inv, p->rm, p->raddr, 256, &p->rbuf));
	CHECK_OK(doca_rdma_task_write_allocate_init(t->rdma, t->conn, p->lbuf, p->rbuf, ud, &p->wr));
	CHECK_OK(target_run(t, doca_rdma_task_write_as_task(p->wr)));
	return true;
}

/* Once revoked, a read of the bytes written fails as the writes do. */
static void peer_read_back_fails(struct rt_side *t, struct peer_io *p)
{
	union doca_data ud = {.u64 = 0};

	CHECK_OK(doca_buf_inventory_buf_get_by_data(t->inv, p->rm, p->raddr, 256, &p->back));
	doca_buf_dec_refcount(p->lbuf, NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(t->inv, p->lm, p->local + 4096, 256, &p->lbuf));
	CHECK_OK(doca_rdma_task_read_allocate_init(t->rdma, t->conn, p->back, p->lbuf, ud, &p->rd));
	CHECK_ERR(target_run(t, doca_rdma_task_read_as_task(p->rd)), DOCA_ERROR_IO_FAILED);
}

/* The end of a revocation case: the host killed, the peer's tasks, buffers and maps freed, both sides destroyed. */
static void revoked_case_end(pid_t host, struct rt_side *t, struct rt_side *d, struct peer_io *p)
{
	kill(host, SIGKILL);
	waitpid(host, NULL, 0);
	doca_task_free(doca_rdma_task_write_as_task(p->wr));
	doca_task_free(doca_rdma_task_read_as_task(p->rd));
	doca_buf_dec_refcount(p->lbuf, NULL);
	doca_buf_dec_refcount(p->rbuf, NULL);
	doca_buf_dec_refcount(p->back, NULL);
	rt_stop(t);
	rt_stop(d);
	CHECK_OK(doca_mmap_destroy(p->rm));
	CHECK_OK(doca_mmap_destroy(p->lm));
	rt_destroy(t);
	rt_destroy(d);
}

/*
 * The revoked descriptor imported again: the import stands (it never waits
 * on the host), and its read fails with DOCA_ERROR_IO_FAILED (over UCX the
 * host refuses the peer, naming the revocation).  `rd` reads from `back`
 * again afterwards.
 */
static void fresh_import_of_revoked_descriptor_reaches_nothing(struct rt_side *t, struct doca_rdma_task_read *rd,
							       struct doca_buf *back, const uint8_t *desc, size_t len)
{
	struct doca_mmap *again = NULL;
	struct doca_buf *fresh = NULL;
	void *addr;
	size_t span;

	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, t->dev, &again));
	REQUIRE(again != NULL);
	CHECK_OK(doca_mmap_get_memrange(again, &addr, &span));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(t->inv, again, addr, 256, &fresh));
	doca_rdma_task_read_set_src_buf(rd, fresh);
	CHECK_ERR(target_run(t, doca_rdma_task_read_as_task(rd)), DOCA_ERROR_IO_FAILED);
	doca_rdma_task_read_set_src_buf(rd, back);
	doca_buf_dec_refcount(fresh, NULL);
	CHECK_OK(doca_mmap_destroy(again));
}

/*
 * The DPU destroys its PCI import: the RDMA peer's next write and read
 * through the re-export fail with DOCA_ERROR_IO_FAILED, and the host's
 * memory keeps what the last allowed write left, although the host still
 * exports it.  At once on the local paths (the importer reads the relay's
 * state word at every access); over UCX within the host server's look at
 * the relay record (a few milliseconds).
 */
static void destroying_the_dpu_import_revokes_the_reexport(void)
{
	static uint8_t local[LEN] __attribute__((aligned(64)));
	uint8_t d_io[512], d_plain[512];
	int up[2], down[2];
	struct rt_side t, d;
	struct doca_mmap *pm = NULL;
	struct peer_io p = {.local = local};
	const void *rdesc;
	uint8_t kept[512];
	size_t rlen, kept_len;
	struct refusal revoked = {.last = pattern(0)};

	REQUIRE(pipe(up) == 0 && pipe(down) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		host_exit(host(up[1], down[0]));
	close(up[1]); /* a host that exits early then ends the reads below instead of leaving them waiting */
	close(down[0]);
	size_t n_io = get_blob(up[0], d_io, sizeof(d_io));
	REQUIRE(n_io != 0 && get_blob(up[0], d_plain, sizeof(d_plain)) != 0);
	REQUIRE(rt_pair(&t, &d, CTX_RW, CTX_RW));
	CHECK_OK(doca_mmap_create_from_export(NULL, d_io, n_io, d.dev, &pm));
	REQUIRE(pm != NULL);
	CHECK_OK(doca_mmap_export_rdma(pm, d.dev, &rdesc, &rlen));
	REQUIRE(rlen <= sizeof(kept));
	memcpy(kept, rdesc, rlen); /* the descriptor's bytes outlive the DPU's mmap */
	kept_len = rlen;
	REQUIRE(peer_first_write(&t, rdesc, rlen, &p));

	/* Revoked: the write again and a read of the same bytes fail; the host holds the last write allowed. */
	CHECK_OK(doca_mmap_destroy(pm));
	CHECK_ERR(write_until_refused(&t, p.wr, p.rbuf, p.raddr, local, &revoked), DOCA_ERROR_IO_FAILED);
	refusal_sticks(&t, p.wr, p.rbuf, p.raddr, local, &revoked, down[1], up[0]);
	if (!over_ucx())
		CHECK(revoked.tries == 1);
	peer_read_back_fails(&t, &p);
	fresh_import_of_revoked_descriptor_reaches_nothing(&t, p.rd, p.back, kept, kept_len);

	revoked_case_end(pid, &t, &d, &p);
	close(up[0]);
	close(down[1]);
}

/* Where a descriptor holds its flags, its token and the relay's name (src/common/xproc/xproc_desc.c). */
#define DESC_FLAGS 9u
#define DESC_TOKEN 88u
#define DESC_TOKEN_LEN 16u
#define DESC_RELAY 152u
#define DESC_RELAY_LEN 16u
#define DESC_FLAG_RELAY 0x08u

/* Seal an edited descriptor as its format wants: FNV-1a 64 of all bytes before the last 8, little-endian. */
static void reseal(uint8_t *b, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i + 8 < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	for (size_t i = 0; i < 8; i++)
		b[len - 8 + i] = (uint8_t)(h >> (8 * i));
}

/*
 * The peer imports its edited copy `desc` and writes through it once: the
 * import stands (it never waits on the host) and the write fails with
 * DOCA_ERROR_IO_FAILED, as for a forged descriptor.  The write's first
 * byte is 0x7f, so the host's copy would tell if it landed.
 */
static void edited_copy_reaches_nothing(struct rt_side *t, struct peer_io *p, const uint8_t *desc, size_t len)
{
	struct doca_mmap *edited = NULL;
	struct doca_buf *dst = NULL;
	void *addr;
	size_t span;

	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, t->dev, &edited));
	REQUIRE(edited != NULL);
	CHECK_OK(doca_mmap_get_memrange(edited, &addr, &span));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(t->inv, edited, addr, 256, &dst));
	p->local[0] = 0x7f;
	doca_rdma_task_write_set_dst_buf(p->wr, dst);
	CHECK_ERR(target_run(t, doca_rdma_task_write_as_task(p->wr)), DOCA_ERROR_IO_FAILED);
	doca_rdma_task_write_set_dst_buf(p->wr, p->rbuf);
	p->local[0] = pattern(0);
	doca_buf_dec_refcount(dst, NULL);
	CHECK_OK(doca_mmap_destroy(edited));
}

/*
 * The re-export carries the DPU's own token, which only the DPU's relay
 * record binds to the host's export.  A peer that edits its copy gets
 * nowhere (on the local paths the importer refuses it, over UCX the host's
 * export server does): dropping the relay's name leaves a plain descriptor
 * whose token no host export holds, so the DPU's revocation cannot be
 * escaped that way; showing the host's own token, or a guessed one, with
 * the relay's name fails the relay record's check.  The genuine descriptor
 * keeps working, and the host holds only its writes.
 */
static void edited_copies_of_the_reexport_reach_nothing(void)
{
	static uint8_t local[LEN] __attribute__((aligned(64)));
	uint8_t d_io[512], d_plain[512], copy[512];
	int up[2], down[2];
	struct rt_side t, d;
	struct doca_mmap *pm = NULL;
	struct peer_io p = {.local = local};
	union doca_data ud = {.u64 = 0};
	const void *rdesc;
	size_t rlen;

	REQUIRE(pipe(up) == 0 && pipe(down) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		host_exit(host(up[1], down[0]));
	close(up[1]);
	close(down[0]);
	size_t n_io = get_blob(up[0], d_io, sizeof(d_io));
	REQUIRE(n_io > DESC_TOKEN + DESC_TOKEN_LEN && get_blob(up[0], d_plain, sizeof(d_plain)) != 0);
	REQUIRE(rt_pair(&t, &d, CTX_RW, CTX_RW));
	CHECK_OK(doca_mmap_create_from_export(NULL, d_io, n_io, d.dev, &pm));
	REQUIRE(pm != NULL);
	CHECK_OK(doca_mmap_export_rdma(pm, d.dev, &rdesc, &rlen));
	REQUIRE(rlen <= sizeof(copy) && rlen > DESC_RELAY + DESC_RELAY_LEN);
	REQUIRE(peer_first_write(&t, rdesc, rlen, &p));

	/* The relay's name dropped: a plain descriptor, well formed, showing the relay's token. */
	memcpy(copy, rdesc, rlen);
	CHECK(copy[DESC_FLAGS] & DESC_FLAG_RELAY);
	copy[DESC_FLAGS] &= (uint8_t)~DESC_FLAG_RELAY;
	memset(copy + DESC_RELAY, 0, DESC_RELAY_LEN);
	reseal(copy, rlen);
	edited_copy_reaches_nothing(&t, &p, copy, rlen);

	/* The relay's name kept, the host's own token shown instead of the relay's. */
	memcpy(copy, rdesc, rlen);
	CHECK(memcmp(copy + DESC_TOKEN, d_io + DESC_TOKEN, DESC_TOKEN_LEN) != 0);
	memcpy(copy + DESC_TOKEN, d_io + DESC_TOKEN, DESC_TOKEN_LEN);
	reseal(copy, rlen);
	edited_copy_reaches_nothing(&t, &p, copy, rlen);

	/* A relay token one bit off. */
	memcpy(copy, rdesc, rlen);
	copy[DESC_TOKEN + 5] ^= 0x10;
	reseal(copy, rlen);
	edited_copy_reaches_nothing(&t, &p, copy, rlen);

	/* The genuine descriptor still reaches the host, which holds the pattern, no 0x7f of a refused write. */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(t.inv, p.rm, p.raddr, 256, &p.back));
	doca_buf_dec_refcount(p.lbuf, NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(t.inv, p.lm, local + 4096, 256, &p.lbuf));
	CHECK_OK(doca_rdma_task_read_allocate_init(t.rdma, t.conn, p.back, p.lbuf, ud, &p.rd));
	CHECK_OK(target_run(&t, doca_rdma_task_read_as_task(p.rd)));
	CHECK(local[4096] == pattern(0) && local[4096 + 255] == pattern(255));
	CHECK(host_first_byte(down[1], up[0]) == pattern(0));

	CHECK_OK(doca_mmap_destroy(pm));
	revoked_case_end(pid, &t, &d, &p);
	close(up[0]);
	close(down[1]);
}

/* The host's PCI descriptor, for a DPU child to import (set before the fork). */
static uint8_t relay_src[512];
static size_t relay_src_len;

/*
 * A DPU in a process of its own: import the host's buffer, hand it on for
 * RDMA, import that re-export itself too (which must not make it look dead
 * to others), wait to be killed.
 */
static int dpu_relay(int up, int down)
{
	struct doca_dev *dev = sd_test_open_dev_at(RT_DPU_PCI);
	struct doca_mmap *pm = NULL, *own = NULL;
	const void *rdesc;
	size_t rlen;
	char q = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (dev == NULL || doca_mmap_create_from_export(NULL, relay_src, relay_src_len, dev, &pm) != DOCA_SUCCESS ||
	    doca_mmap_export_rdma(pm, dev, &rdesc, &rlen) != DOCA_SUCCESS ||
	    doca_mmap_create_from_export(NULL, rdesc, rlen, dev, &own) != DOCA_SUCCESS || !put_blob(up, rdesc, rlen))
		return 20;
	(void)read(down, &q, 1); /* the parent kills this process: its import is never destroyed */
	return 0;
}

/*
 * The DPU process that handed the host's memory on dies without destroying
 * its import: its record stays behind, marked live, but nobody holds its
 * lock any more, so the RDMA peer's writes fail with DOCA_ERROR_IO_FAILED
 * within the liveness check's period (the importer's on the local paths,
 * the host server's over UCX), and so does a read; the host's memory holds
 * the last write allowed.
 */
static void a_dpu_killed_with_its_import_revokes_the_reexport(void)
{
	static uint8_t local[LEN] __attribute__((aligned(64)));
	uint8_t d_plain[512], rdesc[512];
	int up[2], down[2], dpu_up = -1, dpu_down = -1, st = 0;
	struct rt_side t, d;
	struct peer_io p = {.local = local};
	struct refusal revoked = {.last = pattern(0)};

	REQUIRE(pipe(up) == 0 && pipe(down) == 0);
	pid_t host_pid = fork();
	REQUIRE(host_pid >= 0);
	if (host_pid == 0)
		host_exit(host(up[1], down[0]));
	close(up[1]);
	close(down[0]);
	relay_src_len = get_blob(up[0], relay_src, sizeof(relay_src));
	REQUIRE(relay_src_len != 0 && get_blob(up[0], d_plain, sizeof(d_plain)) != 0);
	pid_t dpu_pid = rt_fork(dpu_relay, &dpu_up, &dpu_down);
	REQUIRE(dpu_pid > 0);
	size_t n = get_blob(dpu_up, rdesc, sizeof(rdesc));
	REQUIRE(n != 0);
	REQUIRE(rt_pair(&t, &d, CTX_RW, CTX_RW));
	REQUIRE(peer_first_write(&t, rdesc, n, &p));

	kill(dpu_pid, SIGKILL);
	CHECK(waitpid(dpu_pid, &st, 0) == dpu_pid && WIFSIGNALED(st));
	close(dpu_up);
	close(dpu_down);
	CHECK_ERR(write_until_refused(&t, p.wr, p.rbuf, p.raddr, local, &revoked), DOCA_ERROR_IO_FAILED);
	refusal_sticks(&t, p.wr, p.rbuf, p.raddr, local, &revoked, down[1], up[0]);
	peer_read_back_fails(&t, &p);

	revoked_case_end(host_pid, &t, &d, &p);
	close(up[0]);
	close(down[1]);
}

int main(void)
{
	SD_RUN(memory_imported_over_pci_is_handed_on_for_rdma);
	SD_RUN(destroying_the_dpu_import_revokes_the_reexport);
	SD_RUN(a_dpu_killed_with_its_import_revokes_the_reexport);
	SD_RUN(edited_copies_of_the_reexport_reach_nothing);
	return sd_test_done();
}
