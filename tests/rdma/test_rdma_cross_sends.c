/*
 * test_rdma_cross_sends.c - sends, sends with immediate, writes with
 * immediate and receives between two processes of one machine.
 *
 * Each case forks a child that exports a connection and a memory region,
 * connects to the parent's blob and then obeys one-byte commands on a
 * pipe: post a receive (one buffer, a list, or a small one) and report
 * what arrived, or send bytes back.  The child progresses only while it
 * runs a command, so a send of the parent with no command pending finds
 * no receive posted.  The bad cases: a receive too small, the RNR budget,
 * a child killed while a send waits on it, and forged version-2 blobs.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_log.h>

#include "rdma_pipes.h"
#include "rdma_ring.h" /* white box: the hostile sender writes the ring itself */
#include "rdma_test.h"
#include "sd_time.h"

#define LEN 8192u
#define PERMS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define BLOB_LEN 160u
#define BLOB_SUM_AT (BLOB_LEN - 4u) /* version-2 blob: FNV-1a of the bytes before it */

/* What the child reports after a command. */
struct report {
	int32_t status;
	uint32_t opcode;
	uint32_t imm;
	uint32_t len;
	uint8_t data[64];
};

/* Progress `s` until it saw `want` completions or `secs` passed. */
static bool wait_done(struct rt_side *s, int want, double secs)
{
	double end = sd_time_now_s() + secs;

	while (s->done < want && sd_time_now_s() < end)
		doca_pe_progress(s->pe);
	return s->done >= want;
}

/*
 * The child.
 */

static uint8_t child_mem[LEN] __attribute__((aligned(64)));    /* receive buffers, send source */
static uint8_t child_target[LEN] __attribute__((aligned(64))); /* exported: the parent writes here */

static struct doca_buf *child_buf(struct rt_side *s, struct doca_mmap *m, size_t off, size_t len, size_t data)
{
	struct doca_buf *b = NULL;
	if (doca_buf_inventory_buf_get_by_data(s->inv, m, child_mem + off, len, &b) != DOCA_SUCCESS)
		return NULL;
	return doca_buf_set_data(b, child_mem + off, data) == DOCA_SUCCESS ? b : NULL;
}

/* Post one receive into `dst` (one buffer or a list) and report what arrived. */
static bool child_receive(struct rt_side *s, struct doca_buf *dst, int up)
{
	struct doca_rdma_task_receive *t = NULL;
	struct report rep = {0};
	union doca_data ud = {.u64 = 0};

	if (doca_rdma_task_receive_allocate_init(s->rdma, dst, ud, &t) != DOCA_SUCCESS ||
	    doca_task_submit(doca_rdma_task_receive_as_task(t)) != DOCA_SUCCESS)
		return false;
	int want = s->done + 1;
	rep.status = wait_done(s, want, 10.0) ? (int32_t)s->status : -1;
	rep.opcode = (uint32_t)doca_rdma_task_receive_get_result_opcode(t);
	rep.imm = doca_rdma_task_receive_get_result_immediate_data(t);
	rep.len = doca_rdma_task_receive_get_result_len(t);
	memcpy(rep.data, child_mem, sizeof(rep.data));
	if (rep.opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM)
		memcpy(rep.data, child_target, sizeof(rep.data));
	doca_task_free(doca_rdma_task_receive_as_task(t));
	return put_all(up, &rep, sizeof(rep));
}

static bool child_send(struct rt_side *s, struct doca_mmap *m, uint32_t len, int up)
{
	struct doca_rdma_task_send *t = NULL;
	struct report rep = {0};
	union doca_data ud = {.u64 = 0};

	for (uint32_t i = 0; i < len; i++)
		child_mem[i] = (uint8_t)(i * 3u + 1u);
	struct doca_buf *src = child_buf(s, m, 0, len, len);
	if (src == NULL || doca_rdma_task_send_allocate_init(s->rdma, s->conn, src, ud, &t) != DOCA_SUCCESS ||
	    doca_task_submit(doca_rdma_task_send_as_task(t)) != DOCA_SUCCESS)
		return false;
	rep.status = wait_done(s, s->done + 1, 10.0) ? (int32_t)s->status : -1;
	doca_task_free(doca_rdma_task_send_as_task(t));
	doca_buf_dec_refcount(src, NULL);
	return put_all(up, &rep, sizeof(rep));
}

/* One command: 'r' len (receive into one buffer), 'l' (a list of two 16-byte buffers), 's' len (send). */
static bool child_command(struct rt_side *s, struct doca_mmap *m, char cmd, uint32_t len, int up)
{
	memset(child_mem, 0, 256);
	if (cmd == 's')
		return child_send(s, m, len, up);
	struct doca_buf *a = child_buf(s, m, 0, cmd == 'l' ? 16 : len, 0), *b = NULL;
	if (a == NULL)
		return false;
	if (cmd == 'l' && ((b = child_buf(s, m, 16, 16, 0)) == NULL || doca_buf_chain_list(a, b) != DOCA_SUCCESS))
		return false;
	bool ok = child_receive(s, a, up);
	doca_buf_dec_refcount(a, NULL); /* releases the chained element too */
	return ok;
}

static int child(int up, int down)
{
	struct rt_side s;
	const void *desc;
	size_t desc_len;
	uint8_t blob[256];

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!rt_configure(&s, RT_DPU_PCI, PERMS) || doca_rdma_task_receive_set_dst_buf_list_len(s.rdma, 2) != DOCA_SUCCESS ||
	    !rt_start_and_export(&s))
		return 10;
	struct doca_mmap *m = rt_mmap(s.dev, child_mem, LEN, PERMS), *t = rt_mmap(s.dev, child_target, LEN, PERMS);
	if (m == NULL || t == NULL || doca_mmap_export_rdma(t, s.dev, &desc, &desc_len) != DOCA_SUCCESS)
		return 11;
	if (!put_blob(up, s.blob, s.blob_len) || !put_blob(up, desc, desc_len))
		return 12;
	size_t n = get_blob(down, blob, sizeof(blob));
	if (n == 0 || doca_rdma_connect(s.rdma, blob, n, s.conn) != DOCA_SUCCESS)
		return 13;
	for (;;) {
		char cmd;
		uint32_t len;
		if (!get_all(down, &cmd, 1) || cmd == 'q')
			return 0;
		if (!get_all(down, &len, 4) || !child_command(&s, m, cmd, len, up))
			return 14;
	}
}

/*
 * The parent.
 */

struct pair {
	pid_t pid;
	int up, down; /* read from the child, write to it */
	struct rt_side a;
	uint8_t child_blob[256];
	size_t child_blob_len;
	struct doca_mmap *lm, *target; /* local memory, the child's exported region */
	void *target_addr;
};

static uint8_t parent_mem[LEN] __attribute__((aligned(64)));

/* Fork the child; configure our side (rnr retry count `rnr`); connect both ways. */
static bool pair_open(struct pair *p, uint8_t rnr, bool connect)
{
	int up[2], down[2];
	uint8_t desc[512];

	memset(p, 0, sizeof(*p));
	if (pipe(up) != 0 || pipe(down) != 0)
		return false;
	p->pid = fork();
	if (p->pid == 0) {
		close(up[0]);
		close(down[1]);
		_exit(child(up[1], down[0]));
	}
	close(up[1]);
	close(down[0]);
	p->up = up[0];
	p->down = down[1];
	if (p->pid < 0 || !rt_configure(&p->a, RT_HOST_PCI, PERMS) || doca_rdma_set_rnr_retry_count(p->a.rdma, rnr) != DOCA_SUCCESS ||
	    doca_rdma_set_max_send_buf_list_len(p->a.rdma, 4) != DOCA_SUCCESS || !rt_start_and_export(&p->a))
		return false;
	p->child_blob_len = get_blob(p->up, p->child_blob, sizeof(p->child_blob));
	size_t dn = get_blob(p->up, desc, sizeof(desc));
	size_t rl;
	p->lm = rt_mmap(p->a.dev, parent_mem, LEN, PERMS);
	if (p->child_blob_len == 0 || dn == 0 || p->lm == NULL || !put_blob(p->down, p->a.blob, p->a.blob_len) ||
	    doca_mmap_create_from_export(NULL, desc, dn, p->a.dev, &p->target) != DOCA_SUCCESS ||
	    doca_mmap_get_memrange(p->target, &p->target_addr, &rl) != DOCA_SUCCESS)
		return false;
	return !connect || doca_rdma_connect(p->a.rdma, p->child_blob, p->child_blob_len, p->a.conn) == DOCA_SUCCESS;
}

static void pair_close(struct pair *p)
{
	int st = rt_reap(p->pid, p->up, p->down);

	if (st != -1)
		CHECK(WIFEXITED(st) ? WEXITSTATUS(st) == 0 : WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	rt_stop(&p->a);
	if (p->target != NULL)
		doca_mmap_destroy(p->target);
	if (p->lm != NULL)
		doca_mmap_destroy(p->lm);
	rt_destroy(&p->a);
}

static bool command(struct pair *p, char cmd, uint32_t len)
{
	return put_all(p->down, &cmd, 1) && put_all(p->down, &len, 4);
}

static struct doca_buf *parent_buf(struct pair *p, size_t off, size_t len, const char *text)
{
	struct doca_buf *b = NULL;
	if (doca_buf_inventory_buf_get_by_data(p->a.inv, p->lm, parent_mem + off, len, &b) != DOCA_SUCCESS)
		return NULL;
	if (text != NULL)
		memcpy(parent_mem + off, text, len);
	return b;
}

/* Submit a send (with immediate when `imm` is non-zero) of `src` and wait for its completion. */
static doca_error_t parent_send(struct pair *p, struct doca_buf *src, uint32_t imm)
{
	union doca_data ud = {.u64 = 0};
	struct doca_rdma_task_send *s = NULL;
	struct doca_rdma_task_send_imm *si = NULL;
	struct doca_task *t;

	if (imm != 0) {
		CHECK_OK(doca_rdma_task_send_imm_allocate_init(p->a.rdma, p->a.conn, src, htonl(imm), ud, &si));
		t = doca_rdma_task_send_imm_as_task(si);
	} else {
		CHECK_OK(doca_rdma_task_send_allocate_init(p->a.rdma, p->a.conn, src, ud, &s));
		t = doca_rdma_task_send_as_task(s);
	}
	if (t == NULL)
		return DOCA_ERROR_UNEXPECTED;
	CHECK_OK(doca_task_submit(t));
	doca_error_t st = wait_done(&p->a, p->a.done + 1, 10.0) ? p->a.status : DOCA_ERROR_TIME_OUT;
	doca_task_free(t);
	return st;
}

static struct report child_report(struct pair *p)
{
	struct report r = {.status = -2};
	CHECK(get_all(p->up, &r, sizeof(r)));
	return r;
}

static void sends_with_and_without_immediate_reach_another_process(void)
{
	struct pair p;
	REQUIRE(pair_open(&p, 7, true));
	struct doca_buf *src = parent_buf(&p, 0, 5, "hello");
	REQUIRE(src != NULL);

	REQUIRE(command(&p, 'r', 64));
	CHECK_OK(parent_send(&p, src, 0));
	struct report r = child_report(&p);
	CHECK_ERR((doca_error_t)r.status, DOCA_SUCCESS);
	CHECK(r.opcode == DOCA_RDMA_OPCODE_RECV_SEND && r.len == 5 && memcmp(r.data, "hello", 5) == 0);

	REQUIRE(command(&p, 'r', 64));
	CHECK_OK(parent_send(&p, src, 0xA1B2C3D4u));
	r = child_report(&p);
	CHECK_ERR((doca_error_t)r.status, DOCA_SUCCESS);
	CHECK(r.opcode == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM && r.len == 5 && memcmp(r.data, "hello", 5) == 0);
	CHECK_EQ_U64(ntohl(r.imm), 0xA1B2C3D4u);
	doca_buf_dec_refcount(src, NULL);
	pair_close(&p);
}

static void a_send_list_fills_a_receive_list_in_order(void)
{
	struct pair p;
	REQUIRE(pair_open(&p, 7, true));
	struct doca_buf *a = parent_buf(&p, 0, 5, "first"), *b = parent_buf(&p, 64, 7, "-second"),
			*c = parent_buf(&p, 128, 9, "-and-more");
	REQUIRE(a != NULL && b != NULL && c != NULL);
	CHECK_OK(doca_buf_chain_list(a, b));
	CHECK_OK(doca_buf_chain_list(a, c));

	REQUIRE(command(&p, 'l', 0)); /* two 16-byte buffers: the 21 bytes straddle them */
	CHECK_OK(parent_send(&p, a, 0));
	struct report r = child_report(&p);
	CHECK_ERR((doca_error_t)r.status, DOCA_SUCCESS);
	CHECK(r.len == 21 && memcmp(r.data, "first-second-and-more", 21) == 0);
	doca_buf_dec_refcount(a, NULL);
	pair_close(&p);
}

static void a_write_with_immediate_lands_and_completes_a_receive(void)
{
	struct pair p;
	union doca_data ud = {.u64 = 0};
	struct doca_rdma_task_write_imm *w = NULL;
	struct doca_buf *dst = NULL;
	REQUIRE(pair_open(&p, 7, true));
	struct doca_buf *src = parent_buf(&p, 0, 12, "written text");
	REQUIRE(src != NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(p.a.inv, p.target, p.target_addr, 64, &dst));
	REQUIRE(dst != NULL);

	REQUIRE(command(&p, 'r', 64));
	CHECK_OK(doca_rdma_task_write_imm_allocate_init(p.a.rdma, p.a.conn, src, dst, htonl(77u), ud, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_imm_as_task(w)));
	REQUIRE(wait_done(&p.a, 1, 10.0));
	CHECK_OK(p.a.status);
	struct report r = child_report(&p);
	CHECK_ERR((doca_error_t)r.status, DOCA_SUCCESS);
	CHECK(r.opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM && r.len == 12 && ntohl(r.imm) == 77u);
	CHECK(memcmp(r.data, "written text", 12) == 0);
	doca_task_free(doca_rdma_task_write_imm_as_task(w));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	pair_close(&p);
}

static void the_peer_sends_back_into_a_posted_receive(void)
{
	struct pair p;
	union doca_data ud = {.u64 = 0};
	struct doca_rdma_task_receive *rt = NULL;
	struct doca_buf *dst = NULL;
	REQUIRE(pair_open(&p, 7, true));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(p.a.inv, p.lm, parent_mem + 1024, 256, &dst));
	CHECK_OK(doca_rdma_task_receive_allocate_init(p.a.rdma, dst, ud, &rt));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rt)));

	REQUIRE(command(&p, 's', 100));
	REQUIRE(wait_done(&p.a, 1, 10.0));
	CHECK_OK(p.a.status);
	struct report r = child_report(&p);
	CHECK_ERR((doca_error_t)r.status, DOCA_SUCCESS);
	CHECK(doca_rdma_task_receive_get_result_len(rt) == 100);
	CHECK(doca_rdma_task_receive_get_result_opcode(rt) == DOCA_RDMA_OPCODE_RECV_SEND);
	bool same = true;
	for (uint32_t i = 0; i < 100; i++)
		same = same && parent_mem[1024 + i] == (uint8_t)(i * 3u + 1u);
	CHECK(same);
	size_t data_len = 0;
	CHECK_OK(doca_buf_get_data_len(dst, &data_len));
	CHECK_EQ_U64(data_len, 100);
	doca_task_free(doca_rdma_task_receive_as_task(rt));
	doca_buf_dec_refcount(dst, NULL);
	pair_close(&p);
}

static void a_message_sent_before_this_side_connects_waits_for_it(void)
{
	struct pair p;
	union doca_data ud = {.u64 = 0};
	struct doca_rdma_task_receive *rt = NULL;
	struct doca_buf *dst = NULL;
	REQUIRE(pair_open(&p, 7, false)); /* the child is connected, we are not yet */
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(p.a.inv, p.lm, parent_mem + 2048, 64, &dst));
	CHECK_OK(doca_rdma_task_receive_allocate_init(p.a.rdma, dst, ud, &rt));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rt)));
	REQUIRE(command(&p, 's', 10));
	usleep(20000); /* the child's message is in our inbox by now, or soon */
	int busy = 0;
	for (int i = 0; i < 2000; i++)
		busy += doca_pe_progress(p.a.pe);
	CHECK(p.a.done == 0 && busy == 0); /* neither taken nor spun on */
	CHECK_OK(doca_rdma_connect(p.a.rdma, p.child_blob, p.child_blob_len, p.a.conn));
	REQUIRE(wait_done(&p.a, 1, 10.0));
	CHECK_OK(p.a.status);
	CHECK(doca_rdma_task_receive_get_result_len(rt) == 10);
	struct report r = child_report(&p);
	CHECK_ERR((doca_error_t)r.status, DOCA_SUCCESS);
	doca_task_free(doca_rdma_task_receive_as_task(rt));
	doca_buf_dec_refcount(dst, NULL);
	pair_close(&p);
}

static void a_receive_too_small_fails_both_tasks(void)
{
	struct pair p;
	REQUIRE(pair_open(&p, 7, true));
	struct doca_buf *src = parent_buf(&p, 0, 100, NULL);
	REQUIRE(src != NULL);
	REQUIRE(command(&p, 'r', 16));
	CHECK_ERR(parent_send(&p, src, 0), DOCA_ERROR_IO_FAILED);
	struct report r = child_report(&p);
	CHECK_ERR((doca_error_t)r.status, DOCA_ERROR_IO_FAILED);
	doca_buf_dec_refcount(src, NULL);
	pair_close(&p);
}

static void a_send_without_a_posted_receive_fails_after_the_rnr_budget(void)
{
	struct pair p;
	REQUIRE(pair_open(&p, 0, true)); /* retry count 0: a budget of 10 ms */
	struct doca_buf *src = parent_buf(&p, 0, 8, "no taker");
	REQUIRE(src != NULL);
	double t0 = sd_time_now_s();
	CHECK_ERR(parent_send(&p, src, 0), DOCA_ERROR_IO_FAILED);
	double ms = (sd_time_now_s() - t0) * 1000.0;
	CHECK(ms >= 10.0 && ms < 10.0 + sd_time_margin_ms(200.0));

	/*
	 * The withdrawn message is skipped: the next one is what the next
	 * receive gets.  With a 10 ms budget a receiver slowed down by the
	 * machine (a coverage build under load) may miss the next send too;
	 * that one is withdrawn as well, so it is sent again, a few times at
	 * most, and the receive must still get nothing but "next".
	 */
	struct doca_buf *next = parent_buf(&p, 64, 4, "next");
	REQUIRE(next != NULL);
	REQUIRE(command(&p, 'r', 64));
	doca_error_t sent = DOCA_ERROR_IO_FAILED;
	for (int i = 0; i < 5 && sent == DOCA_ERROR_IO_FAILED; i++)
		sent = parent_send(&p, next, 0);
	CHECK_OK(sent);
	struct report r = child_report(&p);
	CHECK(r.status == DOCA_SUCCESS && r.len == 4 && memcmp(r.data, "next", 4) == 0);
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(next, NULL);
	pair_close(&p);
}

static void a_killed_peer_fails_the_waiting_send_with_not_connected(void)
{
	struct pair p;
	union doca_data ud = {.u64 = 0};
	struct doca_rdma_task_send *s = NULL;
	REQUIRE(pair_open(&p, 7, true)); /* a budget of 2 s: the death must be noticed before */
	struct doca_buf *src = parent_buf(&p, 0, 8, "lost one");
	REQUIRE(src != NULL);
	CHECK_OK(doca_rdma_task_send_allocate_init(p.a.rdma, p.a.conn, src, ud, &s));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	for (int i = 0; i < 1000; i++)
		doca_pe_progress(p.a.pe);
	CHECK(p.a.done == 0);
	kill(p.pid, SIGKILL);
	double t0 = sd_time_now_s();
	REQUIRE(wait_done(&p.a, 1, 5.0));
	double ms = (sd_time_now_s() - t0) * 1000.0;
	CHECK_ERR(p.a.status, DOCA_ERROR_NOT_CONNECTED);
	CHECK(ms < 1000.0 + sd_time_margin_ms(100.0)); /* the documented bound: within 1 s */
	/* Later sends are refused the same way. */
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_send_as_task(s)), DOCA_ERROR_NOT_CONNECTED);
	doca_task_free(doca_rdma_task_send_as_task(s));
	doca_buf_dec_refcount(src, NULL);
	pair_close(&p);
}

/* Publish a slot into `r` as a sender would, with whatever fields the caller chose. */
static struct sd_rdma_slot *forge_slot(struct sd_rdma_ring *r, uint32_t opcode, uint32_t nseg, uint64_t addr,
				       uint64_t len)
{
	uint32_t tail = atomic_load(&r->tail);
	struct sd_rdma_slot *s = &r->slot[tail % SD_RDMA_RING_SLOTS];

	s->opcode = opcode;
	s->nseg = nseg;
	s->seg[0].addr = addr;
	s->seg[0].len = len;
	atomic_store(&s->state, SD_RDMA_SLOT_PENDING);
	atomic_store(&r->tail, tail + 1);
	return s;
}

/* The ring file's size: the ring rounded up to whole pages. */
static size_t ring_bytes(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	return (sizeof(struct sd_rdma_ring) + pg - 1) & ~(pg - 1);
}

static void hostile_slots_fail_alone_and_the_receiver_goes_on(void)
{
	struct pair p;
	int32_t fd;
	REQUIRE(pair_open(&p, 7, true));
	memcpy(&fd, p.child_blob + 36, 4);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)p.pid, (int)fd);
	int f = open(path, O_RDWR | O_CLOEXEC);
	REQUIRE(f >= 0);
	struct sd_rdma_ring *r = mmap(NULL, ring_bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	/* The file is sealed: a peer cannot shrink it under the receiver's mapping. */
	CHECK(ftruncate(f, 4096) != 0);
	close(f);
	REQUIRE(r != MAP_FAILED);

	struct sd_rdma_slot *bad[4] = {
		forge_slot(r, 99u, 1, (uint64_t)(uintptr_t)parent_mem, 4),                        /* no such opcode */
		forge_slot(r, DOCA_RDMA_OPCODE_RECV_SEND, 1000u, (uint64_t)(uintptr_t)parent_mem, 4), /* too many */
		forge_slot(r, DOCA_RDMA_OPCODE_RECV_SEND, 1, (uint64_t)(uintptr_t)parent_mem, UINT64_MAX), /* too long */
		forge_slot(r, DOCA_RDMA_OPCODE_RECV_SEND, 1, 16u, 8u), /* an address nobody maps */
	};
	struct doca_buf *src = parent_buf(&p, 0, 5, "after");
	REQUIRE(src != NULL && command(&p, 'r', 64));
	CHECK_OK(parent_send(&p, src, 0));
	struct report rep = child_report(&p);
	CHECK(rep.status == DOCA_SUCCESS && rep.len == 5 && memcmp(rep.data, "after", 5) == 0);
	for (int i = 0; i < 4; i++) /* each was answered: the sender's task would fail */
		CHECK(atomic_load(&bad[i]->state) == SD_RDMA_SLOT_DELIVERED && bad[i]->status == DOCA_ERROR_IO_FAILED);
	munmap(r, ring_bytes());
	doca_buf_dec_refcount(src, NULL);
	pair_close(&p);
}

/*
 * Forged blobs.
 */

static FILE *logf_;
static long log_mark_;

static void log_capture(void)
{
	struct doca_log_backend *b = NULL;

	logf_ = tmpfile();
	REQUIRE(logf_ != NULL && doca_log_backend_create_with_file_sdk(logf_, &b) == DOCA_SUCCESS &&
		doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_WARNING) == DOCA_SUCCESS);
}

static int log_lines_since_mark(void)
{
	int c, n = 0;

	fflush(logf_);
	fseek(logf_, log_mark_, SEEK_SET);
	while ((c = fgetc(logf_)) != EOF)
		n += c == '\n';
	log_mark_ = ftell(logf_);
	return n;
}

static void reseal(uint8_t *b)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < BLOB_SUM_AT; i++)
		h = (h ^ b[i]) * 16777619u;
	for (int i = 0; i < 4; i++)
		b[BLOB_SUM_AT + i] = (uint8_t)(h >> (8 * i));
}

/* Connect with `blob` changed at `off` to the 4-byte value `v` (checksum made right again). */
static doca_error_t connect_forged(struct pair *p, size_t off, uint32_t v, size_t len)
{
	uint8_t b[256];
	memcpy(b, p->child_blob, p->child_blob_len);
	memcpy(b + off, &v, 4);
	reseal(b);
	log_lines_since_mark();
	doca_error_t err = doca_rdma_connect(p->a.rdma, b, len, p->a.conn);
	CHECK(log_lines_since_mark() == 1); /* one record naming what is wrong */
	return err;
}

static void forged_version_2_blobs_are_refused_with_one_record(void)
{
	struct pair p;
	REQUIRE(pair_open(&p, 7, false));
	REQUIRE(p.child_blob_len == BLOB_LEN);
	log_capture();
	uint32_t tok, fd, size;
	memcpy(&tok, p.child_blob + 44, 4);
	memcpy(&fd, p.child_blob + 36, 4);
	memcpy(&size, p.child_blob + 64, 4);
	CHECK_ERR(connect_forged(&p, 44, tok ^ 0x10000u, BLOB_LEN), DOCA_ERROR_NOT_FOUND); /* token: the ring says no */
	CHECK_ERR(connect_forged(&p, 36, 0, BLOB_LEN), DOCA_ERROR_NOT_FOUND);              /* the child's stdin */
	CHECK_ERR(connect_forged(&p, 36, 4000, BLOB_LEN), DOCA_ERROR_NOT_FOUND);           /* no such descriptor */
	CHECK_ERR(connect_forged(&p, 36, 0x80000000u, BLOB_LEN), DOCA_ERROR_INVALID_VALUE); /* not a descriptor */
	CHECK_ERR(connect_forged(&p, 64, size / 2, BLOB_LEN), DOCA_ERROR_INVALID_VALUE);    /* another ring size */
	CHECK_ERR(connect_forged(&p, 4, 1, 64), DOCA_ERROR_INVALID_VALUE);            /* a version-1 blob */
	CHECK_ERR(connect_forged(&p, 36, fd, BLOB_LEN - 1), DOCA_ERROR_INVALID_VALUE); /* truncated */
	/* Nothing changed: the real blob still connects, and a message crosses. */
	CHECK_OK(doca_rdma_connect(p.a.rdma, p.child_blob, p.child_blob_len, p.a.conn));
	struct doca_buf *src = parent_buf(&p, 0, 2, "ok");
	REQUIRE(src != NULL && command(&p, 'r', 16));
	CHECK_OK(parent_send(&p, src, 0));
	struct report r = child_report(&p);
	CHECK(r.status == DOCA_SUCCESS && r.len == 2);
	doca_buf_dec_refcount(src, NULL);
	pair_close(&p);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	SD_RUN(sends_with_and_without_immediate_reach_another_process);
	SD_RUN(a_send_list_fills_a_receive_list_in_order);
	SD_RUN(a_write_with_immediate_lands_and_completes_a_receive);
	SD_RUN(the_peer_sends_back_into_a_posted_receive);
	SD_RUN(a_message_sent_before_this_side_connects_waits_for_it);
	SD_RUN(a_receive_too_small_fails_both_tasks);
	SD_RUN(a_send_without_a_posted_receive_fails_after_the_rnr_budget);
	SD_RUN(a_killed_peer_fails_the_waiting_send_with_not_connected);
	SD_RUN(hostile_slots_fail_alone_and_the_receiver_goes_on);
	SD_RUN(forged_version_2_blobs_are_refused_with_one_record);
	return sd_test_done();
}
