/*
 * test_rdma_net_batch.c - small sends a program submits from its completion
 * callbacks leave together, as one BATCH message, at the end of the
 * progress pass (src/rdma/rdma_net.c), and keep every rule of a send: they
 * fill the peer's posted receives in the order submitted, with their own
 * bytes, opcode and immediate, one at a time; a long send among them keeps
 * its place; those the peer has no receive for yet wait for one, or fail
 * once the RNR budget runs out, while the others of the same batch are
 * delivered.  Run over UCX (SOFTDOCA_XPROC_PATH=ucx), the one path with
 * batches; a forked child is the receiver.
 *
 * The program defines sendmsg and send itself to count the calls UCX's
 * transport makes in this process: a burst of sends submitted from one
 * callback must cost far fewer of them than it has sends (without batches,
 * at least one each).
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rdma_pipes.h"
#include "rdma_test.h"
#include "sd_time.h"

#define PERMS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define SLOT 2048u     /* bytes per send or receive buffer */
#define BURST 40u      /* sends submitted from one completion callback */
#define LONG_AT 17u    /* the burst's one send too long for a batch */
#define LONG_LEN 1500u /* above the 256 bytes a batch record carries */
#define MAX_RECVS 48u

static atomic_ulong uct_sends; /* sendmsg and send calls of UCX's transport library in this process */

static void count_if_uct(const void *caller_pc)
{
	Dl_info caller;

	/* UCX's socket calls live in libucs (and its transports in libuct) */
	if (dladdr(caller_pc, &caller) != 0 && caller.dli_fname != NULL && strstr(caller.dli_fname, "/libuc") != NULL)
		atomic_fetch_add(&uct_sends, 1);
}

/* Interpose the C library's: count the calls UCX's transport makes, then send for real. */
ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	count_if_uct(__builtin_return_address(0));
	return syscall(SYS_sendmsg, fd, msg, flags);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	count_if_uct(__builtin_return_address(0));
	return syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
}

static uint8_t mem[(MAX_RECVS + 1) * SLOT] __attribute__((aligned(64)));

/* Send i's length, opcode and immediate: short sends of varied lengths, immediates on every third. */
static uint32_t len_of(unsigned i)
{
	return i == LONG_AT ? LONG_LEN : 1 + (i * 37) % 256;
}

static bool imm_of(unsigned i)
{
	return i % 3 == 1;
}

/* What the child saw in one completed receive, in completion order. */
struct seen {
	int32_t status;
	uint32_t opcode;
	uint32_t imm;
	uint32_t len;
	uint8_t first;
	uint8_t uniform; /* every byte equal to the first */
};

/* ---- the child: the receiver ---- */

struct child_side {
	struct rt_side s;
	struct doca_mmap *m;
	struct doca_rdma_task_receive *recv[MAX_RECVS];
	struct doca_buf *dst[MAX_RECVS];
	unsigned posted, completed;
	struct seen seen[MAX_RECVS];
};

static struct child_side *me;

static void child_recv_cb(struct doca_rdma_task_receive *t, union doca_data tud, union doca_data cud)
{
	struct seen *v = &me->seen[me->completed++];
	const uint8_t *at = mem + tud.u64 * SLOT;

	(void)cud;
	v->status = doca_task_get_status(doca_rdma_task_receive_as_task(t));
	v->opcode = doca_rdma_task_receive_get_result_opcode(t);
	v->imm = v->opcode == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM ? doca_rdma_task_receive_get_result_immediate_data(t) : 0;
	v->len = doca_rdma_task_receive_get_result_len(t);
	v->first = at[0];
	v->uniform = 1;
	for (uint32_t k = 0; k < v->len && k < SLOT; k++)
		v->uniform &= at[k] == at[0];
}

/* 'p' n: post n more receives, each with a buffer of its own. */
static bool child_post(unsigned n)
{
	for (unsigned i = 0; i < n && me->posted < MAX_RECVS; i++) {
		unsigned k = me->posted;
		union doca_data ud = {.u64 = k};
		if (doca_buf_inventory_buf_get_by_addr(me->s.inv, me->m, mem + (size_t)k * SLOT, SLOT, &me->dst[k]) !=
			    DOCA_SUCCESS ||
		    doca_rdma_task_receive_allocate_init(me->s.rdma, me->dst[k], ud, &me->recv[k]) != DOCA_SUCCESS ||
		    doca_task_submit(doca_rdma_task_receive_as_task(me->recv[k])) != DOCA_SUCCESS)
			return false;
		me->posted++;
	}
	return true;
}

/* 'w' n: progress until n receives completed in all (10 s at most; 0: none), then report them all. */
static bool child_wait(unsigned n, int up)
{
	double end = sd_time_now_s() + 10.0;
	uint32_t count;

	while (me->completed < n && sd_time_now_s() < end)
		doca_pe_progress(me->s.pe);
	count = me->completed;
	return put_all(up, &count, sizeof(count)) && put_all(up, me->seen, sizeof(me->seen));
}

/* 'i' ms: progress for ms milliseconds (held messages meet their RNR budget meanwhile). */
static void child_idle(unsigned ms)
{
	double end = sd_time_now_s() + ms / 1000.0;

	while (sd_time_now_s() < end)
		doca_pe_progress(me->s.pe);
}

static int child(int up, int down)
{
	static struct child_side side;
	uint8_t blob[256];
	uint8_t cmd[2];
	size_t n;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	me = &side;
	if (!rt_configure(&side.s, RT_DPU_PCI, PERMS) ||
	    doca_rdma_task_receive_set_conf(side.s.rdma, child_recv_cb, child_recv_cb, MAX_RECVS) != DOCA_SUCCESS ||
	    !rt_start_and_export(&side.s))
		return 10;
	side.m = rt_mmap(side.s.dev, mem, sizeof(mem), PERMS);
	if (side.m == NULL || !put_blob(up, side.s.blob, side.s.blob_len) ||
	    (n = get_blob(down, blob, sizeof(blob))) == 0 ||
	    doca_rdma_connect(side.s.rdma, blob, n, side.s.conn) != DOCA_SUCCESS)
		return 11;
	while (get_all(down, cmd, 2) && cmd[0] != 'q') {
		bool ok = cmd[0] == 'p' ? child_post(cmd[1]) : cmd[0] == 'w' ? child_wait(cmd[1], up) : true;
		if (cmd[0] == 'i')
			child_idle(cmd[1] * 10u);
		if (!ok)
			return 12;
	}
	rt_stop(&side.s);
	for (unsigned i = 0; i < side.posted; i++) {
		doca_task_free(doca_rdma_task_receive_as_task(side.recv[i]));
		doca_buf_dec_refcount(side.dst[i], NULL);
	}
	doca_mmap_destroy(side.m);
	rt_destroy(&side.s);
	return 0;
}

/* ---- the parent: the sender ---- */

struct burst {
	struct doca_task *task[BURST + 1]; /* [0] the starter, then the burst */
	struct doca_buf *src[BURST + 1];
	unsigned n;                        /* sends in the burst */
	unsigned done;
	doca_error_t status[BURST + 1]; /* by task, in completion order of index */
	unsigned order[BURST + 1];
	bool submit_failed;
	unsigned long calls_at_burst; /* UCX's send calls when the burst was submitted */
};

static struct burst B;

/* The starter's completion submits the whole burst: one callback, one pass. */
static void on_send_done(struct doca_task *task, union doca_data tud)
{
	B.status[tud.u64] = doca_task_get_status(task);
	B.order[B.done++] = (unsigned)tud.u64;
	if (tud.u64 != 0)
		return;
	B.calls_at_burst = atomic_load(&uct_sends);
	for (unsigned i = 1; i <= B.n; i++)
		B.submit_failed |= doca_task_submit(B.task[i]) != DOCA_SUCCESS;
}

static void send_cb(struct doca_rdma_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)cud;
	on_send_done(doca_rdma_task_send_as_task(t), tud);
}

static void send_imm_cb(struct doca_rdma_task_send_imm *t, union doca_data tud, union doca_data cud)
{
	(void)cud;
	on_send_done(doca_rdma_task_send_imm_as_task(t), tud);
}

/* The starter (index 0) and n sends, send i carrying len_of(i) bytes of value i + 1. */
static bool make_burst(struct rt_side *a, struct doca_mmap *m, unsigned n)
{
	memset(&B, 0, sizeof(B));
	B.n = n;
	for (unsigned i = 0; i <= n; i++) {
		uint8_t *at = mem + (size_t)i * SLOT;
		uint32_t len = i == 0 ? 8 : len_of(i);
		union doca_data ud = {.u64 = i};

		memset(at, (int)(i + 1), len);
		if (doca_buf_inventory_buf_get_by_addr(a->inv, m, at, SLOT, &B.src[i]) != DOCA_SUCCESS ||
		    doca_buf_set_data(B.src[i], at, len) != DOCA_SUCCESS)
			return false;
		if (i != 0 && imm_of(i)) {
			struct doca_rdma_task_send_imm *t = NULL;
			if (doca_rdma_task_send_imm_allocate_init(a->rdma, a->conn, B.src[i], 0x1000u + i, ud, &t) !=
			    DOCA_SUCCESS)
				return false;
			B.task[i] = doca_rdma_task_send_imm_as_task(t);
		} else {
			struct doca_rdma_task_send *t = NULL;
			if (doca_rdma_task_send_allocate_init(a->rdma, a->conn, B.src[i], ud, &t) != DOCA_SUCCESS)
				return false;
			B.task[i] = doca_rdma_task_send_as_task(t);
		}
	}
	return true;
}

static void free_burst(void)
{
	for (unsigned i = 0; i <= B.n; i++) {
		doca_task_free(B.task[i]);
		doca_buf_dec_refcount(B.src[i], NULL);
	}
}

/* Progress until `want` sends of the burst (starter included) completed, 10 s at most. */
static bool wait_sends(struct rt_side *a, unsigned want)
{
	double end = sd_time_now_s() + 10.0;

	while (B.done < want && sd_time_now_s() < end)
		doca_pe_progress(a->pe);
	return B.done >= want;
}

static bool command(int down, char c, unsigned v)
{
	uint8_t cmd[2] = {(uint8_t)c, (uint8_t)v};

	return put_all(down, cmd, 2);
}

/*
 * The child waits for `want` receives while we progress until `sends` of
 * ours completed: the count it saw, and what each receive held.
 */
static uint32_t child_seen(struct rt_side *a, int up, int down, unsigned want, unsigned sends, struct seen *seen)
{
	uint32_t count = 0;

	if (!command(down, 'w', want))
		return 0;
	CHECK(wait_sends(a, sends));
	if (!get_all(up, &count, sizeof(count)) || !get_all(up, seen, MAX_RECVS * sizeof(*seen)))
		return 0;
	return count;
}

/* Receive k of the child holds send `i` of the burst, whole, with its opcode and immediate. */
static bool holds_send(const struct seen *v, unsigned i)
{
	uint32_t opcode = imm_of(i) ? DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM : DOCA_RDMA_OPCODE_RECV_SEND;

	if (v->status == DOCA_SUCCESS && v->opcode == opcode && v->len == len_of(i) && v->first == i + 1 &&
	    v->uniform && v->imm == (imm_of(i) ? 0x1000u + i : 0))
		return true;
	fprintf(stderr, "receive for send %u: status %d opcode %u len %u (want %u) first %u imm %#x uniform %u\n", i,
		v->status, v->opcode, v->len, len_of(i), v->first, v->imm, v->uniform);
	return false;
}

/* A connected sender with our callbacks, its child receiver, and the mmap of `mem`. */
static bool pair_up(struct rt_side *a, struct doca_mmap **m, pid_t *pid, int *up, int *down, uint8_t rnr_retry)
{
	uint8_t blob[256];
	size_t n;

	*pid = rt_fork(child, up, down);
	if (*pid <= 0 || !rt_configure(a, RT_HOST_PCI, PERMS) ||
	    doca_rdma_task_send_set_conf(a->rdma, send_cb, send_cb, RT_TASKS) != DOCA_SUCCESS ||
	    doca_rdma_task_send_imm_set_conf(a->rdma, send_imm_cb, send_imm_cb, RT_TASKS) != DOCA_SUCCESS ||
	    doca_rdma_set_rnr_retry_count(a->rdma, rnr_retry) != DOCA_SUCCESS || !rt_start_and_export(a))
		return false;
	*m = rt_mmap(a->dev, mem, sizeof(mem), PERMS);
	return *m != NULL && (n = get_blob(*up, blob, sizeof(blob))) != 0 && put_blob(*down, a->blob, a->blob_len) &&
	       doca_rdma_connect(a->rdma, blob, n, a->conn) == DOCA_SUCCESS;
}

static void unpair(struct rt_side *a, struct doca_mmap *m, pid_t pid, int up, int down)
{
	free_burst();
	int st = rt_reap(pid, up, down);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	rt_stop(a);
	doca_mmap_destroy(m);
	rt_destroy(a);
}

static void a_burst_from_one_callback_leaves_in_few_system_calls_and_fills_receives_in_order(void)
{
	struct rt_side a;
	struct doca_mmap *m = NULL;
	struct seen seen[MAX_RECVS];
	int up = -1, down = -1;
	pid_t pid = -1;

	REQUIRE(pair_up(&a, &m, &pid, &up, &down, 7) && make_burst(&a, m, BURST));
	REQUIRE(command(down, 'p', BURST + 1));
	CHECK_OK(doca_task_submit(B.task[0]));
	/* The child takes every message while we wait for every answer. */
	uint32_t count = child_seen(&a, up, down, BURST + 1, BURST + 1, seen);
	unsigned long calls = atomic_load(&uct_sends) - B.calls_at_burst;
	CHECK(count == BURST + 1 && !B.submit_failed);
	for (unsigned i = 0; i <= BURST; i++)
		CHECK(B.status[i] == DOCA_SUCCESS);
	CHECK(seen[0].status == DOCA_SUCCESS && seen[0].len == 8 && seen[0].first == 1);
	for (unsigned i = 1; i < count; i++)
		CHECK(holds_send(&seen[i], i));
	/*
	 * The sends before the long one, the long one, the sends after it:
	 * three messages (a few more if UCX had to retry a socket that was
	 * full), where one each would take 40.
	 */
	fprintf(stderr, "%lu send calls of UCX for a burst of %u sends\n", calls, BURST);
	CHECK(calls >= 1 && calls <= 6);
	unpair(&a, m, pid, up, down);
}

static void a_batch_waits_in_part_for_receives_posted_later_or_fails_past_its_rnr_budget(void)
{
	struct rt_side a;
	struct doca_mmap *m = NULL;
	struct seen seen[MAX_RECVS];
	int up = -1, down = -1;
	pid_t pid = -1;
	unsigned n = LONG_AT - 1; /* short sends only: one batch */

	/* RNR retry count 5: a message waits 510 ms for a receive (docs/rdma.md). */
	REQUIRE(pair_up(&a, &m, &pid, &up, &down, 5) && make_burst(&a, m, n));
	REQUIRE(command(down, 'p', 5));
	CHECK_OK(doca_task_submit(B.task[0]));
	/* Five receives: the starter and four of the batch; the rest of the batch is held. */
	CHECK(child_seen(&a, up, down, 5, 5, seen) == 5);
	for (unsigned i = 1; i < 5; i++)
		CHECK(holds_send(&seen[i], i));
	/* Four more receives, posted late: the held messages fill them, in order. */
	REQUIRE(command(down, 'p', 4));
	CHECK(child_seen(&a, up, down, 9, 9, seen) == 9);
	for (unsigned i = 1; i < 9; i++)
		CHECK(holds_send(&seen[i], i));
	for (unsigned i = 0; i < 9; i++)
		CHECK(B.order[i] == i && B.status[i] == DOCA_SUCCESS);
	/* No receive for the other seven within the budget: they fail, and a receive posted after gets none. */
	REQUIRE(command(down, 'i', 80)); /* 800 ms of the child's progress */
	CHECK(wait_sends(&a, n + 1));
	CHECK(B.done == n + 1);
	for (unsigned i = 9; i <= n; i++)
		CHECK(B.status[i] == DOCA_ERROR_IO_FAILED);
	REQUIRE(command(down, 'p', 1));
	REQUIRE(command(down, 'i', 10));
	CHECK(child_seen(&a, up, down, 0, 0, seen) == 9); /* 100 ms more: the late receive got nothing */
	unpair(&a, m, pid, up, down);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	if (getenv("SOFTDOCA_XPROC_PATH") == NULL || strcmp(getenv("SOFTDOCA_XPROC_PATH"), "ucx") != 0) {
		fprintf(stderr, "SKIP: batches travel over UCX only (run with SOFTDOCA_XPROC_PATH=ucx)\n");
		return 77;
	}
	SD_RUN(a_burst_from_one_callback_leaves_in_few_system_calls_and_fills_receives_in_order);
	SD_RUN(a_batch_waits_in_part_for_receives_posted_later_or_fails_past_its_rnr_budget);
	return sd_test_done();
}
