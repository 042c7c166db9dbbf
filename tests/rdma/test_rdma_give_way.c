/*
 * test_rdma_give_way.c - a progress pass that finds nothing gives the CPU
 * away (sched_yield) while this side waits on its peer process, and only
 * then: through the inbox rings of one machine, or over UCX when run with
 * SOFTDOCA_XPROC_PATH=ucx.  With SOFTDOCA_RDMA_YIELD=0 no pass yields at all.
 *
 * The program defines sched_yield itself, so the library's calls land here
 * and are counted before the real system call runs.  A forked child is the
 * peer: it progresses only while it runs a command, so the parent's send
 * stays unanswered until the child is told to post a receive.
 *
 * Cases, each with the child idle:
 *   - nothing in flight and no receive posted: passes do not yield (a
 *     program that is not waiting on the network pays nothing);
 *   - a send waits for the peer's answer: idle passes yield; the send still
 *     completes once the child posts its receive, with the bytes in it,
 *     although the child stops progressing as soon as its receive completed
 *     (over UCX the answer leaves in the pass that filled the receive);
 *   - the child's own posted receive waits for a message: its idle passes
 *     yield (counted in the child, reported over the pipe).
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rdma_pipes.h"
#include "rdma_test.h"
#include "sd_time.h"

#define PERMS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define PASSES 2000
#define IDLE_MS 200
#define MOST 500 /* yields per 1000 idle passes while waiting: a pass that meets UCX's own events does not yield */
#define MSG "give way"

static atomic_ulong yields;
static bool yielding; /* SOFTDOCA_RDMA_YIELD is not 0: the waiting passes must yield, else none may */
static void *rdma_library; /* the base address of libdoca_rdma, whose yields are counted */

/* Interposes the C library's: counts the RDMA library's yields (not UCX's own), then yields for real. */
int sched_yield(void)
{
	Dl_info caller;

	if (dladdr(__builtin_return_address(0), &caller) != 0 && caller.dli_fbase == rdma_library)
		atomic_fetch_add(&yields, 1);
	return (int)syscall(SYS_sched_yield);
}

static void find_rdma_library(void)
{
	Dl_info lib;

	if (dladdr((void *)doca_rdma_create, &lib) != 0)
		rdma_library = lib.dli_fbase;
}

/*
 * The yields of up to PASSES idle passes of `s`, per pass (in 1/1000): at
 * most IDLE_MS of them, so that a loaded machine keeps the idle spell well
 * inside the liveness bound and the RNR budget.
 */
static unsigned long idle_yields(struct rt_side *s)
{
	unsigned long before = atomic_load(&yields), passes = 0;
	double end = sd_time_now_s() + IDLE_MS / 1000.0;

	while (passes < PASSES && (passes < 10 || sd_time_now_s() < end)) {
		doca_pe_progress(s->pe);
		passes++;
	}
	return (atomic_load(&yields) - before) * 1000 / passes;
}

static uint8_t mem[4096] __attribute__((aligned(64)));

static struct doca_buf *buf_at(struct rt_side *s, struct doca_mmap *m, size_t data_len)
{
	struct doca_buf *b = NULL;

	if (doca_buf_inventory_buf_get_by_data(s->inv, m, mem, 64, &b) != DOCA_SUCCESS ||
	    doca_buf_set_data(b, mem, data_len) != DOCA_SUCCESS)
		return NULL;
	return b;
}

/* The child's report: yields per 1000 idle passes with a receive posted, then the receive's outcome. */
struct report {
	uint64_t idle_yields;
	int32_t status;
	uint32_t len;
	char data[16];
};

/* 'r': post a receive, idle PASSES passes, then progress until a message fills it. */
static bool child_receive(struct rt_side *s, struct doca_mmap *m, int up)
{
	struct doca_rdma_task_receive *t = NULL;
	struct doca_buf *dst = buf_at(s, m, 0);
	union doca_data ud = {.u64 = 0};
	struct report rep = {0};

	if (dst == NULL || doca_rdma_task_receive_allocate_init(s->rdma, dst, ud, &t) != DOCA_SUCCESS ||
	    doca_task_submit(doca_rdma_task_receive_as_task(t)) != DOCA_SUCCESS)
		return false;
	int want = s->done + 1;
	rep.idle_yields = idle_yields(s); /* none idle when the message waited already: the parent knows */
	if (!put_all(up, &rep, sizeof(rep)))
		return false;
	double end = sd_time_now_s() + 10.0;
	while (s->done < want && sd_time_now_s() < end)
		doca_pe_progress(s->pe);
	rep.status = s->done == want ? (int32_t)s->status : -1;
	rep.len = doca_rdma_task_receive_get_result_len(t);
	memcpy(rep.data, mem, sizeof(rep.data));
	doca_task_free(doca_rdma_task_receive_as_task(t));
	doca_buf_dec_refcount(dst, NULL);
	return put_all(up, &rep, sizeof(rep));
}

static int child(int up, int down)
{
	struct rt_side s;
	uint8_t blob[256];
	char cmd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!rt_configure(&s, RT_DPU_PCI, PERMS) || !rt_start_and_export(&s))
		return 10;
	struct doca_mmap *m = rt_mmap(s.dev, mem, sizeof(mem), PERMS);
	size_t n;
	if (m == NULL || !put_blob(up, s.blob, s.blob_len) || (n = get_blob(down, blob, sizeof(blob))) == 0 ||
	    doca_rdma_connect(s.rdma, blob, n, s.conn) != DOCA_SUCCESS)
		return 11;
	while (get_all(down, &cmd, 1) && cmd == 'r')
		if (!child_receive(&s, m, up))
			return 12;
	rt_stop(&s);
	doca_mmap_destroy(m);
	rt_destroy(&s);
	return 0;
}

static void idle_passes_yield_only_while_waiting_on_the_peer(void)
{
	struct rt_side a;
	struct report rep;
	int up = -1, down = -1;
	uint8_t blob[256];
	size_t n;
	pid_t pid = rt_fork(child, &up, &down);

	REQUIRE(pid > 0 && rt_configure(&a, RT_HOST_PCI, PERMS) && rt_start_and_export(&a));
	struct doca_mmap *m = rt_mmap(a.dev, mem, sizeof(mem), PERMS);
	REQUIRE(m != NULL && (n = get_blob(up, blob, sizeof(blob))) != 0 && put_blob(down, a.blob, a.blob_len));
	CHECK_OK(doca_rdma_connect(a.rdma, blob, n, a.conn));

	/* Connected, nothing in flight, no receive posted: no yield. */
	for (int i = 0; i < PASSES; i++) /* the links' hellos and their answers come and go first */
		doca_pe_progress(a.pe);
	CHECK(idle_yields(&a) == 0);

	/* A send the idle child cannot answer: the waiting passes give way. */
	memcpy(mem, MSG, sizeof(MSG));
	struct doca_buf *src = buf_at(&a, m, sizeof(MSG));
	struct doca_rdma_task_send *t = NULL;
	union doca_data ud = {.u64 = 0};
	REQUIRE(src != NULL);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, ud, &t));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(t)));
	unsigned long waiting = idle_yields(&a);
	if (a.done != 0)
		fprintf(stderr, "the send ended before the child posted a receive: %s\n", doca_error_get_name(a.status));
	CHECK(a.done == 0);
	CHECK(yielding ? waiting >= MOST : waiting == 0);

	/* The child posts its receive (its idle passes with the receive posted come first), then takes it. */
	CHECK(put_all(down, "r", 1) && get_all(up, &rep, sizeof(rep)));
	double end = sd_time_now_s() + 10.0;
	while (a.done == 0 && sd_time_now_s() < end)
		doca_pe_progress(a.pe);
	CHECK(a.done == 1 && a.status == DOCA_SUCCESS);
	CHECK(get_all(up, &rep, sizeof(rep)));
	CHECK(rep.status == DOCA_SUCCESS && rep.len == sizeof(MSG) && memcmp(rep.data, MSG, sizeof(MSG)) == 0);

	/* Answered: idle again, and the yields stop. */
	CHECK(idle_yields(&a) == 0);

	/* The child's receive waited with a message in none of its passes: they gave way too. */
	CHECK(put_all(down, "r", 1) && get_all(up, &rep, sizeof(rep)));
	CHECK(yielding ? rep.idle_yields >= MOST : rep.idle_yields == 0);
	CHECK(idle_yields(&a) == 0); /* a posted receive of the peer is no reason for this side to yield */
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(t)));
	CHECK(get_all(up, &rep, sizeof(rep)) && rep.status == DOCA_SUCCESS && rep.len == sizeof(MSG));

	end = sd_time_now_s() + 10.0;
	while (a.done < 2 && sd_time_now_s() < end)
		doca_pe_progress(a.pe);
	CHECK(a.done == 2 && a.status == DOCA_SUCCESS);
	doca_task_free(doca_rdma_task_send_as_task(t));
	doca_buf_dec_refcount(src, NULL);
	int st = rt_reap(pid, up, down);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	rt_stop(&a);
	doca_mmap_destroy(m);
	rt_destroy(&a);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	find_rdma_library();
	yielding = getenv("SOFTDOCA_RDMA_YIELD") == NULL || strcmp(getenv("SOFTDOCA_RDMA_YIELD"), "0") != 0;
	SD_RUN(idle_passes_yield_only_while_waiting_on_the_peer);
	return sd_test_done();
}
