/*
 * netns_rdma_msg - one side of DOCA RDMA messages (sends, sends with
 * immediate, writes with immediate) to a peer in another namespace; run by
 * test_netns_rdma_msg.sh, one in each namespace.  Files are exchanged in DIR.
 *
 *   netns_rdma_msg recv --dir DIR [--post N] [--post-after-ms M] [--buf B] [--event 1]
 *       Starts a context, exports a connection (DIR/rblob) and 64 KiB of
 *       memory for RDMA write (DIR/rdesc), prints "ready", connects to
 *       DIR/sblob once it appears, and after M ms posts N receives (default
 *       8), each into a list of two buffers of B/2 bytes (default 8 KiB).  It
 *       only progresses its PE: every completed receive prints
 *         recv STATUS op=OPCODE len=LEN imm=IMM seq=SEQ content=ok|bad
 *       (SEQ: the first 4 bytes; content: the rest is the sender's pattern
 *       for SEQ) and a successful one is posted again.  Ends when DIR/stop
 *       appears, or after 60 s.
 *   netns_rdma_msg send --dir DIR --ops OP,... [--rnr-retry R] [--event 1]
 *       Exports its connection (DIR/sblob), connects to DIR/rblob, imports
 *       DIR/rdesc and runs the ops in order, one line each, "OP ok" or
 *       "OP err NAME ms=T" (T: how long the failed task took):
 *         send      a 64-byte send (seq 1)
 *         sendimm   a 100-byte send with immediate 0xabcd0102 (seq 2)
 *         writeimm  a 4 KiB write with immediate 0x01020304 into the peer's
 *                   memory
 *         list      a send from a list of three buffers, 100 + 200 + 300
 *                   bytes (seq 3)
 *         burst     48 sends of 64 bytes in flight at once (seq 100..147)
 *         big       a 16 KiB send, more than a posted receive holds
 *         stopflush 8 sends the receiver holds (it posts nothing), then the
 *                   context stops: "stopflush ok" when each is reported
 *                   exactly once, flushed (DOCA_ERROR_SHUTDOWN); ends the
 *                   context, so it comes last
 *         stream    64-byte sends one after the other until one fails (at
 *                   most 20 s): "running" after the first, then
 *                   "failed NAME after_ms=X" (X since the last success)
 *         write     a 4 KiB RDMA write into the peer's memory (at 16 KiB)
 *         read      a 4 KiB RDMA read of it back: "read ok" only when the
 *                   bytes are those the write put there
 *
 * With --event 1 a side runs in event mode: it sleeps on its PE's
 * notification handle (doca_pe_request_notification, then epoll_wait) and
 * calls doca_pe_progress only after the handle woke it, never otherwise;
 * at its end it prints "wakeups N", the number of times it was woken.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netns_stream.h"
#include "rdma_test.h"
#include "xproc_test.h"

#define NM_PERMS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define NM_REMOTE 65536u
#define NM_BURST 48u

struct nm_opts {
	const char *dir, *ops, *dev;
	unsigned post, post_after_ms, buf, rnr_retry, event;
};

static void nm_parse(int argc, char **argv, struct nm_opts *o)
{
	*o = (struct nm_opts){.post = 8, .buf = 8192, .rnr_retry = 7};
	for (int i = 2; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		if (strcmp(k, "--dir") == 0)
			o->dir = v;
		else if (strcmp(k, "--ops") == 0)
			o->ops = v;
		else if (strcmp(k, "--dev") == 0)
			o->dev = v;
		else if (strcmp(k, "--post") == 0)
			o->post = (unsigned)atoi(v);
		else if (strcmp(k, "--post-after-ms") == 0)
			o->post_after_ms = (unsigned)atoi(v);
		else if (strcmp(k, "--buf") == 0)
			o->buf = (unsigned)atoi(v);
		else if (strcmp(k, "--rnr-retry") == 0)
			o->rnr_retry = (unsigned)atoi(v);
		else if (strcmp(k, "--event") == 0)
			o->event = (unsigned)atoi(v);
	}
}

/* Wait up to 30 s for DIR/name and read it. */
static long nm_await(const char *dir, const char *name, void *buf, size_t cap)
{
	for (int i = 0; i < 600; i++) {
		long n = xt_read_file_in(dir, name, buf, cap);
		if (n > 0)
			return n;
		usleep(50000);
	}
	return -1;
}

static bool nm_exists(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

/* The payload of message `seq`: the number, then a pattern that depends on it. */
static void nm_pattern(uint8_t *p, size_t len, uint32_t seq)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7u + seq);
	if (len >= 4)
		memcpy(p, &seq, 4);
}

static bool nm_pattern_ok(const uint8_t *p, size_t len, uint32_t seq)
{
	for (size_t i = 4; i < len; i++)
		if (p[i] != (uint8_t)(i * 7u + seq))
			return false;
	return true;
}

static int nm_fail(const char *what, doca_error_t err)
{
	printf("err %s %s\n", what, doca_error_get_name(err));
	return 1;
}

/*
 * Event mode (--event 1): the epoll set holding the PE's handle, whether the
 * PE is armed, and how often the handle woke us.
 */
static bool nm_event;
static bool nm_armed;
static int nm_ep = -1;
static unsigned long nm_wakeups;

/*
 * Let the PE make progress: poll it once, or (event mode) sleep on its
 * handle for at most `ms` and progress it only if the handle woke us.  The
 * PE is armed once per wake-up, not once per call: a call that times out
 * sleeps on again without arming (arming looks at the context, which would
 * hide a missing wake-up behind the timeouts).
 */
static void nm_pump(struct doca_pe *pe, int ms)
{
	doca_notification_handle_t h;
	struct epoll_event ev = {.events = EPOLLIN};

	if (!nm_event) {
		doca_pe_progress(pe);
		return;
	}
	if (doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS)
		return;
	if (nm_ep < 0) {
		nm_ep = epoll_create1(EPOLL_CLOEXEC);
		if (nm_ep < 0 || epoll_ctl(nm_ep, EPOLL_CTL_ADD, h, &ev) != 0)
			return;
	}
	if (!nm_armed && doca_pe_request_notification(pe) != DOCA_SUCCESS)
		return;
	nm_armed = true;
	if (epoll_wait(nm_ep, &ev, 1, ms) != 1)
		return;
	nm_armed = false;
	nm_wakeups++;
	(void)doca_pe_clear_notification(pe, h);
	while (doca_pe_progress(pe) != 0)
		;
}

static void nm_pump_end(void)
{
	if (nm_event)
		printf("wakeups %lu\n", nm_wakeups);
	if (nm_ep >= 0)
		close(nm_ep);
	nm_ep = -1;
}

/* ---- receiver ---- */

struct nm_recv {
	struct rt_side s;
	struct nm_opts *o;
	struct doca_mmap *local;
	uint8_t *mem; /* post * buf bytes */
};

static doca_error_t nm_post(struct nm_recv *r, struct doca_rdma_task_receive *t);

static void nm_on_receive(struct doca_rdma_task_receive *t, union doca_data task_ud, union doca_data ctx_ud)
{
	struct nm_recv *r = ctx_ud.ptr;
	struct doca_buf *dst = (struct doca_buf *)doca_rdma_task_receive_get_dst_buf(t);
	doca_error_t st = doca_task_get_status(doca_rdma_task_receive_as_task(t));
	uint8_t *bytes = (uint8_t *)r->mem + task_ud.u64 * r->o->buf; /* the list's two halves are adjacent */
	uint32_t len = st == DOCA_SUCCESS ? doca_rdma_task_receive_get_result_len(t) : 0, seq = 0;
	enum doca_rdma_opcode op = st == DOCA_SUCCESS ? doca_rdma_task_receive_get_result_opcode(t)
						      : DOCA_RDMA_OPCODE_RECV_SEND;
	uint32_t imm = op != DOCA_RDMA_OPCODE_RECV_SEND && st == DOCA_SUCCESS
			       ? doca_rdma_task_receive_get_result_immediate_data(t)
			       : 0;
	bool ok = true;

	if (st == DOCA_SUCCESS && op != DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM && len >= 4) {
		memcpy(&seq, bytes, 4);
		ok = nm_pattern_ok(bytes, len, seq);
	}
	printf("recv %s op=%d len=%u imm=%x seq=%u content=%s\n", doca_error_get_name(st), (int)op, len, be32toh(imm), seq,
	       ok ? "ok" : "bad");
	fflush(stdout);
	for (struct doca_buf *b = dst; b != NULL;) {
		struct doca_buf *next = NULL;
		doca_buf_set_data_len(b, 0);
		doca_buf_get_next_in_list(b, &next);
		b = next;
	}
	if (st == DOCA_SUCCESS && nm_post(r, t) == DOCA_SUCCESS)
		return;
	doca_task_free(doca_rdma_task_receive_as_task(t));
}

static doca_error_t nm_post(struct nm_recv *r, struct doca_rdma_task_receive *t)
{
	return doca_task_submit(doca_rdma_task_receive_as_task(t));
}

/* Receive `i`: a list of two halves of its `buf` bytes. */
static doca_error_t nm_post_new(struct nm_recv *r, unsigned i)
{
	struct doca_buf *a = NULL, *b = NULL;
	struct doca_rdma_task_receive *t = NULL;
	union doca_data ud = {.u64 = i};
	uint8_t *at = r->mem + (size_t)i * r->o->buf;
	size_t half = r->o->buf / 2;
	doca_error_t err = doca_buf_inventory_buf_get_by_addr(r->s.inv, r->local, at, half, &a);

	if (err == DOCA_SUCCESS)
		err = doca_buf_inventory_buf_get_by_addr(r->s.inv, r->local, at + half, half, &b);
	if (err == DOCA_SUCCESS)
		err = doca_buf_chain_list(a, b);
	if (err == DOCA_SUCCESS)
		err = doca_rdma_task_receive_allocate_init(r->s.rdma, a, ud, &t);
	if (err == DOCA_SUCCESS)
		err = nm_post(r, t);
	return err;
}

static int nm_recv_run(struct nm_recv *r)
{
	uint8_t blob[1024];
	double start, connected;
	bool posted = false;
	long n;
	doca_error_t err;

	n = nm_await(r->o->dir, "sblob", blob, sizeof(blob));
	if (n <= 0)
		return nm_fail("sblob", DOCA_ERROR_TIME_OUT);
	err = doca_rdma_connect(r->s.rdma, blob, (size_t)n, r->s.conn);
	if (err != DOCA_SUCCESS)
		return nm_fail("connect", err);
	printf("connected\n");
	connected = start = xt_now_ms();
	while (!nm_exists(r->o->dir, "stop") && xt_now_ms() - start < 60000.0) {
		if (!posted && xt_now_ms() - connected >= r->o->post_after_ms) {
			for (unsigned i = 0; i < r->o->post; i++)
				if ((err = nm_post_new(r, i)) != DOCA_SUCCESS)
					return nm_fail("post", err);
			posted = true;
			nm_armed = false; /* new work: look again before the next sleep, as a program would */
			printf("posted %u\n", r->o->post);
			fflush(stdout);
		}
		if (nm_event)
			nm_pump(r->s.pe, 50);
		else
			for (int i = 0; i < 1000; i++)
				doca_pe_progress(r->s.pe);
	}
	return 0;
}

static int nm_recv(struct nm_opts *o)
{
	struct nm_recv r = {.o = o};
	uint8_t *remote = aligned_alloc(4096, NM_REMOTE);
	struct doca_mmap *rm = NULL;
	union doca_data ud = {.ptr = &r};
	const void *desc;
	size_t desc_len;
	int rc = 1;

	r.mem = aligned_alloc(4096, (size_t)(o->post ? o->post : 1) * o->buf);
	if (remote == NULL || r.mem == NULL)
		return nm_fail("memory", DOCA_ERROR_NO_MEMORY);
	memset(remote, 0, NM_REMOTE);
	if (!rt_configure(&r.s, o->dev != NULL ? o->dev : RT_HOST_PCI, NM_PERMS) ||
	    doca_rdma_task_receive_set_conf(r.s.rdma, nm_on_receive, nm_on_receive, RT_TASKS) != DOCA_SUCCESS ||
	    doca_rdma_task_receive_set_dst_buf_list_len(r.s.rdma, 2) != DOCA_SUCCESS ||
	    doca_ctx_set_user_data(r.s.ctx, ud) != DOCA_SUCCESS || !rt_start_and_export(&r.s))
		rc = nm_fail("context", DOCA_ERROR_INITIALIZATION);
	else if ((r.local = rt_mmap(r.s.dev, r.mem, (size_t)(o->post ? o->post : 1) * o->buf,
				    DOCA_ACCESS_FLAG_LOCAL_READ_WRITE)) == NULL ||
		 (rm = rt_mmap(r.s.dev, remote, NM_REMOTE, NM_PERMS)) == NULL ||
		 doca_mmap_export_rdma(rm, r.s.dev, &desc, &desc_len) != DOCA_SUCCESS ||
		 !xt_write_file_in(o->dir, "rdesc", desc, desc_len) || !xt_write_file_in(o->dir, "rblob", r.s.blob, r.s.blob_len))
		rc = nm_fail("memory or files", DOCA_ERROR_INITIALIZATION);
	else {
		printf("ready\n");
		fflush(stdout);
		rc = nm_recv_run(&r);
		nm_pump_end();
	}
	rt_stop(&r.s);
	if (rm != NULL)
		doca_mmap_destroy(rm);
	if (r.local != NULL)
		doca_mmap_destroy(r.local);
	rt_destroy(&r.s);
	free(remote);
	free(r.mem);
	return rc;
}

/* ---- sender ---- */

struct nm_send {
	struct rt_side s;
	struct nm_opts *o;
	struct doca_mmap *local, *remote;
	uint8_t *raddr;
	uint8_t *mem; /* 64 KiB */
};

/* Wait for `want` completions; the status of the last. */
static doca_error_t nm_wait(struct nm_send *q, int want)
{
	double start = xt_now_ms();

	while (q->s.done < want && xt_now_ms() - start < 30000.0)
		nm_pump(q->s.pe, 100);
	return q->s.done >= want ? q->s.status : DOCA_ERROR_TIME_OUT;
}

static doca_error_t nm_buf(struct nm_send *q, size_t off, size_t len, struct doca_buf **b)
{
	return doca_buf_inventory_buf_get_by_data(q->s.inv, q->local, q->mem + off, len, b);
}

/* A send in flight: its task and the source it owns (freed by nm_done). */
struct nm_flight {
	struct doca_task *task;
	struct doca_buf *src;
};

static void nm_done(struct nm_flight *f)
{
	if (f->task != NULL)
		doca_task_free(f->task);
	if (f->src != NULL)
		doca_buf_dec_refcount(f->src, NULL); /* the head: the whole list goes */
	*f = (struct nm_flight){0};
}

/* Submit a send of `len` bytes at `off` (pattern of `seq`), with immediate `imm` unless 0. */
static doca_error_t nm_submit_send(struct nm_send *q, size_t off, size_t len, uint32_t seq, uint32_t imm,
				   struct doca_buf *list, struct nm_flight *f)
{
	union doca_data ud = {.u64 = 0};
	doca_error_t err = DOCA_SUCCESS;

	f->src = list;
	f->task = NULL;
	if (f->src == NULL) {
		nm_pattern(q->mem + off, len, seq);
		err = nm_buf(q, off, len, &f->src);
	}
	if (err == DOCA_SUCCESS && imm == 0) {
		struct doca_rdma_task_send *t = NULL;
		err = doca_rdma_task_send_allocate_init(q->s.rdma, q->s.conn, f->src, ud, &t);
		f->task = t != NULL ? doca_rdma_task_send_as_task(t) : NULL;
	} else if (err == DOCA_SUCCESS) {
		struct doca_rdma_task_send_imm *t = NULL;
		err = doca_rdma_task_send_imm_allocate_init(q->s.rdma, q->s.conn, f->src, htobe32(imm), ud, &t);
		f->task = t != NULL ? doca_rdma_task_send_imm_as_task(t) : NULL;
	}
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(f->task);
	if (err != DOCA_SUCCESS)
		nm_done(f);
	return err;
}

static doca_error_t nm_one(struct nm_send *q, size_t len, uint32_t seq, uint32_t imm, struct doca_buf *list)
{
	struct nm_flight f;
	int want = q->s.done + 1;
	doca_error_t err = nm_submit_send(q, 0, len, seq, imm, list, &f);

	if (err != DOCA_SUCCESS)
		return err;
	err = nm_wait(q, want);
	nm_done(&f);
	return err;
}

static doca_error_t nm_list(struct nm_send *q)
{
	struct doca_buf *a = NULL, *b = NULL, *c = NULL;

	nm_pattern(q->mem, 600, 3);
	doca_error_t err = nm_buf(q, 0, 100, &a);
	if (err == DOCA_SUCCESS)
		err = nm_buf(q, 100, 200, &b);
	if (err == DOCA_SUCCESS)
		err = nm_buf(q, 300, 300, &c);
	if (err == DOCA_SUCCESS)
		err = doca_buf_chain_list(a, b);
	if (err == DOCA_SUCCESS)
		err = doca_buf_chain_list(a, c);
	return err == DOCA_SUCCESS ? nm_one(q, 600, 3, 0, a) : err;
}

static doca_error_t nm_burst(struct nm_send *q)
{
	int want = q->s.done + (int)NM_BURST;
	doca_error_t worst = DOCA_SUCCESS;
	struct nm_flight f[NM_BURST];

	for (uint32_t i = 0; i < NM_BURST; i++) {
		doca_error_t err = nm_submit_send(q, (size_t)i * 64, 64, 100 + i, 0, NULL, &f[i]);
		if (err != DOCA_SUCCESS)
			return err; /* the pools are sized for the burst: a test failure either way */
	}
	double start = xt_now_ms();
	int seen = q->s.done;
	while (q->s.done < want && xt_now_ms() - start < 30000.0) {
		nm_pump(q->s.pe, 100);
		if (q->s.done != seen) {
			seen = q->s.done;
			if (q->s.status != DOCA_SUCCESS)
				worst = q->s.status;
		}
	}
	if (q->s.done < want)
		return DOCA_ERROR_TIME_OUT; /* the tasks stay in flight: leave them to the stop */
	for (uint32_t i = 0; i < NM_BURST; i++)
		nm_done(&f[i]);
	return worst;
}

static doca_error_t nm_writeimm(struct nm_send *q)
{
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_write_imm *t = NULL;
	union doca_data ud = {.u64 = 0};
	int want = q->s.done + 1;

	nm_pattern(q->mem, 4096, 77);
	doca_error_t err = nm_buf(q, 0, 4096, &src);
	if (err == DOCA_SUCCESS)
		err = doca_buf_inventory_buf_get_by_addr(q->s.inv, q->remote, q->raddr, 4096, &dst);
	if (err == DOCA_SUCCESS)
		err = doca_rdma_task_write_imm_allocate_init(q->s.rdma, q->s.conn, src, dst, htobe32(0x01020304u), ud,
							     &t);
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_rdma_task_write_imm_as_task(t));
	if (err == DOCA_SUCCESS)
		err = nm_wait(q, want);
	if (t != NULL)
		doca_task_free(doca_rdma_task_write_imm_as_task(t));
	if (src != NULL)
		doca_buf_dec_refcount(src, NULL);
	if (dst != NULL)
		doca_buf_dec_refcount(dst, NULL);
	return err;
}

/* A one-sided write of 4 KiB (pattern 55) into the peer's memory at 16 KiB, or its read back and check. */
static doca_error_t nm_one_sided(struct nm_send *q, bool write)
{
	struct doca_buf *local = NULL, *remote = NULL;
	struct doca_task *task = NULL;
	union doca_data ud = {.u64 = 0};
	uint8_t *mine = q->mem + (write ? 0 : 32768);
	int want = q->s.done + 1;
	doca_error_t err;

	if (write)
		nm_pattern(mine, 4096, 55);
	else
		memset(mine, 0, 4096);
	err = write ? nm_buf(q, 0, 4096, &local)
		    : doca_buf_inventory_buf_get_by_addr(q->s.inv, q->local, mine, 4096, &local);
	if (err == DOCA_SUCCESS && write)
		err = doca_buf_inventory_buf_get_by_addr(q->s.inv, q->remote, q->raddr + 16384, 4096, &remote);
	else if (err == DOCA_SUCCESS)
		err = doca_buf_inventory_buf_get_by_data(q->s.inv, q->remote, q->raddr + 16384, 4096, &remote);
	if (err == DOCA_SUCCESS && write) {
		struct doca_rdma_task_write *t = NULL;
		err = doca_rdma_task_write_allocate_init(q->s.rdma, q->s.conn, local, remote, ud, &t);
		task = t != NULL ? doca_rdma_task_write_as_task(t) : NULL;
	} else if (err == DOCA_SUCCESS) {
		struct doca_rdma_task_read *t = NULL;
		err = doca_rdma_task_read_allocate_init(q->s.rdma, q->s.conn, remote, local, ud, &t);
		task = t != NULL ? doca_rdma_task_read_as_task(t) : NULL;
	}
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(task);
	if (err == DOCA_SUCCESS)
		err = nm_wait(q, want);
	if (err == DOCA_SUCCESS && !write && (memcmp(mine, &(uint32_t){55}, 4) != 0 || !nm_pattern_ok(mine, 4096, 55)))
		err = DOCA_ERROR_UNEXPECTED; /* the read brought other bytes than the write left */
	if (task != NULL)
		doca_task_free(task);
	if (local != NULL)
		doca_buf_dec_refcount(local, NULL);
	if (remote != NULL)
		doca_buf_dec_refcount(remote, NULL);
	return err;
}

static doca_error_t nm_stopflush(struct nm_send *q)
{
	struct nm_flight f[8];
	int before = q->s.done;
	double t0;

	for (uint32_t i = 0; i < 8; i++)
		if (nm_submit_send(q, (size_t)i * 64, 64, 200 + i, 0, NULL, &f[i]) != DOCA_SUCCESS)
			return DOCA_ERROR_UNEXPECTED;
	for (t0 = xt_now_ms(); xt_now_ms() - t0 < 100.0;)
		nm_pump(q->s.pe, 10); /* the messages reach the receiver, which holds them */
	if (q->s.done != before)
		return DOCA_ERROR_UNEXPECTED; /* nothing may complete before the stop */
	rt_stop(&q->s);
	for (t0 = xt_now_ms(); xt_now_ms() - t0 < 200.0;)
		nm_pump(q->s.pe, 10); /* a second report of any of them would come now */
	int got = q->s.done - before;
	doca_error_t last = q->s.status;
	for (uint32_t i = 0; i < 8; i++)
		nm_done(&f[i]);
	if (got != 8)
		printf("stopflush reported %d times for 8 sends\n", got);
	return got == 8 && last == DOCA_ERROR_SHUTDOWN ? DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED;
}

/* One 64 B send of the stream (ns_stream), numbered from 1000. */
static doca_error_t nm_stream_send(void *arg, uint32_t i)
{
	return nm_one(arg, 64, 1000 + i, 0, NULL);
}

static void nm_op(struct nm_send *q, const char *op)
{
	double t0 = xt_now_ms();
	doca_error_t err = DOCA_ERROR_INVALID_VALUE;

	if (strcmp(op, "stream") == 0) {
		ns_stream(nm_stream_send, q);
		return;
	}
	if (strcmp(op, "send") == 0)
		err = nm_one(q, 64, 1, 0, NULL);
	else if (strcmp(op, "sendimm") == 0)
		err = nm_one(q, 100, 2, 0xabcd0102u, NULL);
	else if (strcmp(op, "writeimm") == 0)
		err = nm_writeimm(q);
	else if (strcmp(op, "list") == 0)
		err = nm_list(q);
	else if (strcmp(op, "burst") == 0)
		err = nm_burst(q);
	else if (strcmp(op, "big") == 0)
		err = nm_one(q, 16384, 4, 0, NULL);
	else if (strcmp(op, "stopflush") == 0)
		err = nm_stopflush(q);
	else if (strcmp(op, "write") == 0 || strcmp(op, "read") == 0)
		err = nm_one_sided(q, op[0] == 'w');
	if (err == DOCA_SUCCESS)
		printf("%s ok\n", op);
	else
		printf("%s err %s ms=%ld\n", op, doca_error_get_name(err), (long)(xt_now_ms() - t0));
	fflush(stdout);
}

static int nm_send_setup(struct nm_send *q)
{
	uint8_t blob[1024], desc[512];
	size_t rlen;
	long nb, nd;
	doca_error_t err;

	if (!rt_configure(&q->s, q->o->dev != NULL ? q->o->dev : RT_DPU_PCI, NM_PERMS) ||
	    doca_rdma_set_rnr_retry_count(q->s.rdma, (uint8_t)q->o->rnr_retry) != DOCA_SUCCESS ||
	    doca_rdma_set_max_send_buf_list_len(q->s.rdma, 4) != DOCA_SUCCESS || !rt_start_and_export(&q->s) ||
	    !xt_write_file_in(q->o->dir, "sblob", q->s.blob, q->s.blob_len))
		return nm_fail("context", DOCA_ERROR_INITIALIZATION);
	nb = nm_await(q->o->dir, "rblob", blob, sizeof(blob));
	nd = nm_await(q->o->dir, "rdesc", desc, sizeof(desc));
	if (nb <= 0 || nd <= 0)
		return nm_fail("files", DOCA_ERROR_TIME_OUT);
	err = doca_rdma_connect(q->s.rdma, blob, (size_t)nb, q->s.conn);
	if (err != DOCA_SUCCESS)
		return nm_fail("connect", err);
	err = doca_mmap_create_from_export(NULL, desc, (size_t)nd, q->s.dev, &q->remote);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_get_memrange(q->remote, (void **)&q->raddr, &rlen);
	if (err != DOCA_SUCCESS)
		return nm_fail("import", err);
	q->local = rt_mmap(q->s.dev, q->mem, NM_REMOTE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return q->local == NULL ? nm_fail("local mmap", DOCA_ERROR_INITIALIZATION) : 0;
}

static int nm_send(struct nm_opts *o)
{
	struct nm_send q = {.o = o};
	char ops[256];
	int rc;

	q.mem = aligned_alloc(4096, NM_REMOTE);
	if (q.mem == NULL)
		return nm_fail("memory", DOCA_ERROR_NO_MEMORY);
	rc = nm_send_setup(&q);
	if (rc == 0) {
		printf("connected\n");
		fflush(stdout);
		snprintf(ops, sizeof(ops), "%s", o->ops != NULL ? o->ops : "send");
		for (char *save = NULL, *op = strtok_r(ops, ",", &save); op != NULL; op = strtok_r(NULL, ",", &save))
			nm_op(&q, op);
		nm_pump_end();
	}
	rt_stop(&q.s);
	if (q.remote != NULL)
		doca_mmap_destroy(q.remote);
	if (q.local != NULL)
		doca_mmap_destroy(q.local);
	rt_destroy(&q.s);
	free(q.mem);
	return rc;
}

int main(int argc, char **argv)
{
	struct nm_opts o;

	if (argc < 2) {
		fprintf(stderr, "usage: netns_rdma_msg recv|send --dir DIR ...\n");
		return 2;
	}
	nm_parse(argc, argv, &o);
	if (o.dir == NULL)
		return nm_fail("usage", DOCA_ERROR_INVALID_VALUE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	nm_event = o.event != 0;
	if (strcmp(argv[1], "recv") == 0)
		return nm_recv(&o);
	if (strcmp(argv[1], "send") == 0)
		return nm_send(&o);
	return nm_fail("usage", DOCA_ERROR_INVALID_VALUE);
}
