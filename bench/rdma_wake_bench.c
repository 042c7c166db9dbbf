/*
 * rdma_wake_bench - what waking a program that sleeps on its progress
 * engine's notification handle costs between two processes: an RDMA
 * send/receive ping-pong of 8-byte messages in which both sides sleep in
 * epoll_wait on their handles whenever they have nothing to progress, next
 * to a ping-pong of one byte over two pipes between the same two processes
 * (both sides asleep in read), measured in the same run.  The pipe is the
 * floor: one kernel wake-up each way, which the RDMA path needs too (the
 * peer's write to the wake pipe, then the library thread's kick of the
 * handle).  Prints p50, p99 and mean of each round trip and their ratios.
 *
 *   bench/rdma_wake_bench [ROUND_TRIPS]   (default 5000)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "bench_common.h"
#include "rdma_pipes.h" /* the tests' pipe helpers: whole writes and reads */

#define PERMS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)

struct side {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	struct doca_buf *src, *dst;
	struct doca_rdma_task_send *send;
	struct doca_rdma_task_receive *recv;
	int epfd;
	uint64_t sent, received;
	uint8_t mem[128] __attribute__((aligned(64)));
};

static struct side me;
static uint32_t rounds = 5000;
static bool stopping; /* the context stops: the posted receive comes back flushed */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static _Noreturn void die(const char *what)
{
	fprintf(stderr, "rdma_wake_bench: %s failed\n", what);
	exit(1);
}

static void send_cb(struct doca_rdma_task_send *t, union doca_data a, union doca_data b)
{
	(void)a, (void)b;
	if (doca_task_get_status(doca_rdma_task_send_as_task(t)) != DOCA_SUCCESS)
		die("a send");
	me.sent++;
}

/* A message arrived: post the receive again at once, so the peer never meets an empty queue. */
static void recv_cb(struct doca_rdma_task_receive *t, union doca_data a, union doca_data b)
{
	(void)a, (void)b;
	if (stopping) {
		doca_task_free(doca_rdma_task_receive_as_task(t)); /* flushed: a context goes IDLE once its tasks are freed */
		return;
	}
	if (doca_task_get_status(doca_rdma_task_receive_as_task(t)) != DOCA_SUCCESS)
		die("a receive");
	me.received++;
	doca_buf_reset_data_len(me.dst);
	if (doca_task_submit(doca_rdma_task_receive_as_task(t)) != DOCA_SUCCESS)
		die("posting the receive again");
}

/* A started context with its buffers, a receive task and the handle in an epoll set; its blob in *blob. */
static void setup(const char *pci, const void **blob, size_t *blob_len)
{
	union doca_data ud = {.u64 = 0};
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t h;

	me.dev = bench_open_dev(pci);
	if (me.dev == NULL || doca_pe_create(&me.pe) != DOCA_SUCCESS || doca_rdma_create(me.dev, &me.rdma) != DOCA_SUCCESS ||
	    doca_rdma_set_permissions(me.rdma, PERMS) != DOCA_SUCCESS ||
	    doca_rdma_task_send_set_conf(me.rdma, send_cb, send_cb, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_receive_set_conf(me.rdma, recv_cb, recv_cb, 4) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(me.pe, doca_rdma_as_ctx(me.rdma)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_rdma_as_ctx(me.rdma)) != DOCA_SUCCESS ||
	    doca_rdma_export(me.rdma, blob, blob_len, &me.conn) != DOCA_SUCCESS)
		die("the RDMA context");
	me.mmap = bench_local_mmap(me.dev, me.mem, sizeof(me.mem), PERMS);
	if (me.mmap == NULL || doca_buf_inventory_create(4, &me.inv) != DOCA_SUCCESS ||
	    doca_buf_inventory_start(me.inv) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_data(me.inv, me.mmap, me.mem, 8, &me.src) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_addr(me.inv, me.mmap, me.mem + 64, 64, &me.dst) != DOCA_SUCCESS ||
	    doca_rdma_task_receive_allocate_init(me.rdma, me.dst, ud, &me.recv) != DOCA_SUCCESS)
		die("the buffers and the receive");
	me.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (me.epfd < 0 || doca_pe_get_notification_handle(me.pe, &h) != DOCA_SUCCESS ||
	    epoll_ctl(me.epfd, EPOLL_CTL_ADD, h, &ev) != 0)
		die("the notification handle");
}

/* Connect to the peer's blob, make the send task, post the receive. */
static void join(const void *peer_blob, size_t len)
{
	union doca_data ud = {.u64 = 0};

	if (doca_rdma_connect(me.rdma, peer_blob, len, me.conn) != DOCA_SUCCESS ||
	    doca_rdma_task_send_allocate_init(me.rdma, me.conn, me.src, ud, &me.send) != DOCA_SUCCESS ||
	    doca_task_submit(doca_rdma_task_receive_as_task(me.recv)) != DOCA_SUCCESS)
		die("connecting");
}

/* Progress until nothing is left, then sleep on the handle, until `received` and `sent` reach the targets. */
static void sleep_until(uint64_t received, uint64_t sent)
{
	struct epoll_event ev;

	for (;;) {
		while (doca_pe_progress(me.pe) != 0)
			;
		if (me.received >= received && me.sent >= sent)
			return;
		if (doca_pe_request_notification(me.pe) != DOCA_SUCCESS)
			die("arming the handle");
		if (epoll_wait(me.epfd, &ev, 1, 10000) != 1)
			die("a wake-up within 10 s");
		(void)doca_pe_clear_notification(me.pe, 0);
	}
}

static void teardown(void)
{
	struct doca_ctx *ctx = doca_rdma_as_ctx(me.rdma);
	enum doca_ctx_states state = DOCA_CTX_STATE_STOPPING;

	stopping = true;
	doca_task_free(doca_rdma_task_send_as_task(me.send));
	if (doca_ctx_stop(ctx) == DOCA_ERROR_IN_PROGRESS)
		while (doca_ctx_get_state(ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
			(void)doca_pe_progress(me.pe);
	doca_buf_dec_refcount(me.src, NULL);
	doca_buf_dec_refcount(me.dst, NULL);
	doca_buf_inventory_destroy(me.inv);
	doca_mmap_destroy(me.mmap);
	doca_rdma_destroy(me.rdma);
	doca_pe_destroy(me.pe);
	doca_dev_close(me.dev);
	close(me.epfd);
}

static void send_one(void)
{
	if (doca_task_submit(doca_rdma_task_send_as_task(me.send)) != DOCA_SUCCESS)
		die("submitting the send");
}

/* The forked side: echo every RDMA message, then every pipe byte. */
static int echo(int up, int down)
{
	const void *blob;
	size_t len;
	uint32_t n = 0;
	uint8_t peer[256], byte;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setup("0000:03:00.0", &blob, &len);
	if (!get_all(down, &n, 4) || n > sizeof(peer) || !get_all(down, peer, n) || !put_blob(up, blob, len))
		return 2;
	join(peer, n);
	if (!put_all(up, "k", 1))
		return 3;
	for (uint32_t i = 1; i <= rounds; i++) {
		sleep_until(i, i - 1); /* the message, and our previous answer taken */
		send_one();
	}
	sleep_until(rounds, rounds);
	for (uint32_t i = 0; i < rounds; i++)
		if (!get_all(down, &byte, 1) || !put_all(up, &byte, 1))
			return 4;
	if (!get_all(down, &byte, 1)) /* the parent's word that it is done with the connection */
		return 5;
	teardown();
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sort `v` and print its p50, p99 and mean in µs; returns the p50. */
static double report(const char *what, double *v, uint32_t n)
{
	double sum = 0;

	for (uint32_t i = 0; i < n; i++)
		sum += v[i];
	qsort(v, n, sizeof(v[0]), cmp);
	printf("%-44s p50 %8.2f us  p99 %8.2f us  mean %8.2f us\n", what, v[n / 2] / 1e3, v[(n * 99) / 100] / 1e3,
	       sum / n / 1e3);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	int up = -1, down = -1, st = 0;
	const void *blob;
	size_t len = 0, n = 0;
	uint8_t peer[256], byte = 1;
	char k;

	if (argc > 1)
		rounds = (uint32_t)strtoul(argv[1], NULL, 10);
	if (rounds == 0)
		return 2;
	double *rdma = calloc(rounds, sizeof(double)), *pipe_rt = calloc(rounds, sizeof(double));
	pid_t pid = rt_fork(echo, &up, &down);
	setup("0000:b1:00.0", &blob, &len);
	if (rdma == NULL || pipe_rt == NULL || pid < 0 || !put_blob(down, blob, len) ||
	    (n = get_blob(up, peer, sizeof(peer))) == 0)
		die("exchanging the blobs");
	join(peer, n);
	if (!get_all(up, &k, 1))
		die("the peer's start");
	for (uint32_t i = 0; i < rounds; i++) {
		double t0 = now_ns();
		send_one();
		sleep_until(i + 1, i + 1); /* our send taken, the answer arrived */
		rdma[i] = now_ns() - t0;
	}
	for (uint32_t i = 0; i < rounds; i++) {
		double t0 = now_ns();
		if (!put_all(down, &byte, 1) || !get_all(up, &byte, 1))
			die("the pipe ping-pong");
		pipe_rt[i] = now_ns() - t0;
	}
	teardown();
	if (!put_all(down, &byte, 1) || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "rdma_wake_bench: the echoing process ended with wait status %d\n", st);
		return 1;
	}
	printf("%u round trips between two processes, both sides asleep between messages\n", rounds);
	double r = report("RDMA send/receive, epoll on the PE handle", rdma, rounds);
	double p = report("pipe ping-pong, blocking read (floor)", pipe_rt, rounds);
	printf("ratio RDMA / pipe (p50): %.2f\n", r / p);
	free(rdma);
	free(pipe_rt);
	return 0;
}
