/*
 * rdma_bench.c - DOCA RDMA read and write tasks against raw UCX get and put
 * on the same buffer, same run.
 *
 *   rdma_bench export --dir DIR [--size BYTES] [--no-raw]
 *       The responder (host side).  Fills a buffer with a pattern, exports
 *       it with doca_mmap_export_rdma (RDMA read and write allowed) into
 *       DIR/desc, starts an RDMA context and writes its connection blob to
 *       DIR/conn.host, and serves the same buffer with raw UCX (ucx_raw.h)
 *       unless --no-raw.  Prints "ready", then connects to the blob the
 *       requester leaves in DIR/conn.dpu and says so in DIR/connected.
 *       Takes no part in the reads and writes, as a responder on a card
 *       does not; keeps MSG_RECVS receives of 64 B posted for the message
 *       rate (reposting each from its completion); exits when its stdin
 *       closes.
 *   rdma_bench import --dir DIR [--label NAME] [--seconds S] [--no-raw] [--messages-only] [--tail] [--inflight N]
 *       The requester (DPU side).  Starts its RDMA context, leaves its blob
 *       in DIR/conn.dpu, connects to DIR/conn.host, imports DIR/desc, and
 *       for 64 B, 4 KiB, 64 KiB, 1 MiB and 4 MiB reads and writes the
 *       responder's buffer one operation at a time: an RDMA read or write
 *       task (resubmitted from its completion, as a streaming program
 *       does) and a raw ucp_get_nbx / ucp_put_nbx + flush.  Each point gives
 *       each method about S seconds (default 1) in ten alternating slices,
 *       so a busy machine slows both alike; the raw server's thread spins
 *       in the raw slices only, as softdoca's serving thread does in its
 *       own.  Prints MB/s, the RDMA/raw ratio, and the median latency of a
 *       64 B operation; with --tail also each method's p50, p90, p99, max
 *       and mean latency at every point (a stall moves the mean and the
 *       tail, not the median).  Then the
 *       message rate of 64 B sends with N in flight (--inflight, default
 *       128, at most 1024: a DOCA send completes only when the receiver's
 *       answer is back, so its rate is the window over the round trip), each
 *       resubmitted from its completion, into receives the responder keeps
 *       posted, against raw UCX active messages of 64 B with as many in
 *       flight, in alternating slices: messages per second and the ratio.
 *       Both count delivered messages: a DOCA send completes when its
 *       receiver has it, and a raw slice ends when the server answered a
 *       ping sent after its last message.
 *
 * bench/ucx-bench.sh runs both sides (with PROGRAM=rdma_bench): in two
 * network namespaces, then in one.  Exit status 0 when every task
 * succeeded and the bytes read matched the responder's pattern.
 */
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "bench_common.h"
#include "bench_slices.h"
#include "ucx_raw.h"

#define MIB ((size_t)1 << 20)
#define HOST_PCI "0000:b1:00.0"
#define DPU_PCI "0000:03:00.0"
#define BLOB_WAIT_S 30.0
#define RDMA_PERMS (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)

static const size_t sizes[] = {64, 4096, 64 * 1024, MIB, 4 * MIB};
#define MSG_SIZE 64u
#define MSG_INFLIGHT 128u /* sends in flight in the message-rate row, unless --inflight says */
#define MSG_MAX_INFLIGHT 1024u /* the most --inflight takes */
#define MSG_RECVS MSG_MAX_INFLIGHT /* receives the responder keeps posted: enough for any --inflight */

/* One RDMA context with its connection, on its own PE. */
struct side {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	struct doca_buf_inventory *inv;
	struct doca_mmap *local, *remote;
	uint8_t *mem;
	uint64_t raddr;
	int done;
	doca_error_t status;
	/* Message rate. */
	struct doca_mmap *msg_map;
	uint8_t *msg_mem;
	bool sending;      /* completions resubmit their send */
	unsigned msg_inflight; /* sends kept in flight (--inflight) */
	unsigned inflight; /* sends submitted and not completed */
	uint64_t msgs;     /* sends (requester) or receives (responder) completed well */
	uint64_t msg_errors;
};

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "rdma_bench: %s\n", what);
	exit(1);
}

/* ---- files in DIR: written whole (rename), waited for ---- */

static void put_file(const char *dir, const char *name, const void *data, size_t len)
{
	char tmp[4096], path[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(tmp, "wb");
	if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0)
		die("cannot write a file in --dir");
}

/* The whole file DIR/name once it exists (waits up to BLOB_WAIT_S); its length in *len. */
static uint8_t *wait_file(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	uint64_t deadline = now_ns() + (uint64_t)(BLOB_WAIT_S * 1e9);
	static uint8_t data[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	while ((f = fopen(path, "rb")) == NULL) {
		if (now_ns() > deadline)
			die("the other side left no connection blob within 30 s");
		usleep(1000);
	}
	*len = fread(data, 1, sizeof(data), f);
	fclose(f);
	return data;
}

/* ---- the RDMA context ---- */

static void task_done(struct doca_task *task, union doca_data ctx_ud)
{
	struct side *s = ctx_ud.ptr;

	s->status = doca_task_get_status(task);
	s->done = 1;
}

static void read_cb(struct doca_rdma_task_read *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	task_done(doca_rdma_task_read_as_task(t), cud);
}

static void write_cb(struct doca_rdma_task_write *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	task_done(doca_rdma_task_write_as_task(t), cud);
}

static void send_cb(struct doca_rdma_task_send *t, union doca_data tud, union doca_data cud)
{
	struct side *s = cud.ptr;
	struct doca_task *task = doca_rdma_task_send_as_task(t);

	(void)tud;
	if (doca_task_get_status(task) == DOCA_SUCCESS)
		s->msgs++;
	else
		s->msg_errors++;
	if (s->sending && doca_task_submit(task) == DOCA_SUCCESS)
		return;
	s->inflight--;
}

static void receive_cb(struct doca_rdma_task_receive *t, union doca_data tud, union doca_data cud)
{
	struct side *s = cud.ptr;
	struct doca_task *task = doca_rdma_task_receive_as_task(t);

	(void)tud;
	if (doca_task_get_status(task) != DOCA_SUCCESS) {
		s->msg_errors++;
		return; /* flushed at the end */
	}
	s->msgs++;
	doca_buf_reset_data_len((struct doca_buf *)doca_rdma_task_receive_get_dst_buf(t));
	if (doca_task_submit(task) != DOCA_SUCCESS)
		s->msg_errors++;
}

/* Device, PE, a started RDMA context; its blob goes to DIR/blob_name. */
static void side_start(struct side *s, const char *pci, const char *dir, const char *blob_name)
{
	union doca_data ud = {.ptr = s};
	struct doca_ctx *ctx;
	const void *blob;
	size_t blob_len;

	s->dev = bench_open_dev(pci);
	if (s->dev == NULL || doca_pe_create(&s->pe) != DOCA_SUCCESS || doca_rdma_create(s->dev, &s->rdma) != DOCA_SUCCESS)
		die("cannot create the RDMA context");
	ctx = doca_rdma_as_ctx(s->rdma);
	if (doca_rdma_set_permissions(s->rdma, RDMA_PERMS | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) != DOCA_SUCCESS ||
	    doca_rdma_task_read_set_conf(s->rdma, read_cb, read_cb, 1) != DOCA_SUCCESS ||
	    doca_rdma_task_write_set_conf(s->rdma, write_cb, write_cb, 1) != DOCA_SUCCESS ||
	    doca_rdma_task_send_set_conf(s->rdma, send_cb, send_cb, MSG_MAX_INFLIGHT) != DOCA_SUCCESS ||
	    doca_rdma_task_receive_set_conf(s->rdma, receive_cb, receive_cb, MSG_RECVS) != DOCA_SUCCESS ||
	    doca_ctx_set_user_data(ctx, ud) != DOCA_SUCCESS || doca_pe_connect_ctx(s->pe, ctx) != DOCA_SUCCESS ||
	    doca_ctx_start(ctx) != DOCA_SUCCESS || doca_rdma_export(s->rdma, &blob, &blob_len, &s->conn) != DOCA_SUCCESS)
		die("cannot start the RDMA context");
	put_file(dir, blob_name, blob, blob_len);
}

static void side_connect(struct side *s, const char *dir, const char *peer_blob_name)
{
	size_t n;
	const uint8_t *blob = wait_file(dir, peer_blob_name, &n);

	if (doca_rdma_connect(s->rdma, blob, n, s->conn) != DOCA_SUCCESS)
		die("doca_rdma_connect refused the other side's blob");
}

/* A local map of `count` message buffers of MSG_SIZE bytes, and an inventory for them. */
static void msg_buffers(struct side *s, unsigned count)
{
	s->msg_mem = aligned_alloc(4096, (size_t)count * MSG_SIZE);
	if (s->msg_mem == NULL)
		die("out of memory");
	memset(s->msg_mem, 0x5a, (size_t)count * MSG_SIZE);
	s->msg_map = bench_local_mmap(s->dev, s->msg_mem, (size_t)count * MSG_SIZE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (s->msg_map == NULL || (s->inv == NULL && (doca_buf_inventory_create(count + 4, &s->inv) != DOCA_SUCCESS ||
						      doca_buf_inventory_start(s->inv) != DOCA_SUCCESS)))
		die("cannot set up the message buffers");
}

/* Message buffer `i`: empty (a receive's) or holding its MSG_SIZE bytes (a send's). */
static struct doca_buf *msg_buf(struct side *s, unsigned i, bool full)
{
	struct doca_buf *b = NULL;
	uint8_t *at = s->msg_mem + (size_t)i * MSG_SIZE;
	doca_error_t err = full ? doca_buf_inventory_buf_get_by_data(s->inv, s->msg_map, at, MSG_SIZE, &b)
				: doca_buf_inventory_buf_get_by_addr(s->inv, s->msg_map, at, MSG_SIZE, &b);

	if (err != DOCA_SUCCESS)
		die("no message buffer");
	return b;
}

/* The responder posts MSG_RECVS receives once; each is posted again from its completion. */
static void post_receives(struct side *s)
{
	union doca_data ud = {.u64 = 0};

	msg_buffers(s, MSG_RECVS);
	for (unsigned i = 0; i < MSG_RECVS; i++) {
		struct doca_rdma_task_receive *t = NULL;
		if (doca_rdma_task_receive_allocate_init(s->rdma, msg_buf(s, i, false), ud, &t) != DOCA_SUCCESS ||
		    doca_task_submit(doca_rdma_task_receive_as_task(t)) != DOCA_SUCCESS)
			die("cannot post the receives");
	}
}

/* ---- responder ---- */

static int run_export(int argc, char **argv)
{
	const char *dir = arg(argc, argv, "--dir", NULL);
	char bind_ip[64], junk[64];
	struct side s = {0};
	const void *desc;
	size_t desc_len, len;
	struct pollfd in = {.fd = 0, .events = POLLIN};

	if (dir == NULL)
		die("export needs --dir");
	len = strtoull(arg(argc, argv, "--size", "67108864"), NULL, 0);
	s.mem = aligned_alloc(4096, len);
	if (s.mem == NULL)
		die("out of memory");
	for (size_t i = 0; i < len; i++)
		s.mem[i] = (uint8_t)(i * 131 + 7);
	side_start(&s, HOST_PCI, dir, "conn.host");
	s.local = bench_local_mmap(s.dev, s.mem, len, RDMA_PERMS | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (s.local == NULL || doca_mmap_export_rdma(s.local, s.dev, &desc, &desc_len) != DOCA_SUCCESS)
		die("cannot export the buffer for RDMA");
	put_file(dir, "desc", desc, desc_len);
	if (!flag(argc, argv, "--no-raw")) {
		ucx_raw_bind_ip_toward(getenv("SOFTDOCA_PEER"), bind_ip, sizeof(bind_ip));
		ucx_raw_serve(s.mem, len, bind_ip, false);
		ucx_raw_write_addr(dir, bind_ip, s.mem, len);
	}
	printf("ready\n");
	fflush(stdout);
	side_connect(&s, dir, "conn.dpu");
	post_receives(&s);
	put_file(dir, "connected", "1", 1);
	/* A responder progresses its PE as a program would; reads and writes need nothing of it, receives do. */
	for (unsigned i = 0;; i++) {
		doca_pe_progress(s.pe);
		if ((i & 4095u) == 0 && poll(&in, 1, 0) > 0 && (read(0, junk, sizeof(junk)) <= 0))
			break;
	}
	ucx_raw_quit();
	return 0;
}

/* ---- requester ---- */

static void import_remote(struct side *s, const char *dir, size_t len)
{
	size_t n;
	const uint8_t *desc = wait_file(dir, "desc", &n);
	void *range = NULL;
	size_t range_len = 0;

	if (doca_mmap_create_from_export(NULL, desc, n, s->dev, &s->remote) != DOCA_SUCCESS ||
	    doca_mmap_get_memrange(s->remote, &range, &range_len) != DOCA_SUCCESS || range_len < len)
		die("cannot import the responder's buffer");
	s->raddr = (uint64_t)(uintptr_t)range;
	s->mem = aligned_alloc(4096, len);
	if (s->mem == NULL)
		die("out of memory");
	memset(s->mem, 0, len);
	s->local = bench_local_mmap(s->dev, s->mem, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (s->local == NULL || doca_buf_inventory_create(4 + MSG_MAX_INFLIGHT, &s->inv) != DOCA_SUCCESS ||
	    doca_buf_inventory_start(s->inv) != DOCA_SUCCESS)
		die("cannot set up the local buffer");
}

static struct doca_task *alloc_task(struct side *s, bool put, struct doca_buf *lb, struct doca_buf *rb)
{
	union doca_data ud = {.u64 = 0};
	struct doca_rdma_task_write *w;
	struct doca_rdma_task_read *r;

	if (put) {
		if (doca_rdma_task_write_allocate_init(s->rdma, s->conn, lb, rb, ud, &w) != DOCA_SUCCESS)
			die("no write task");
		return doca_rdma_task_write_as_task(w);
	}
	if (doca_rdma_task_read_allocate_init(s->rdma, s->conn, rb, lb, ud, &r) != DOCA_SUCCESS)
		die("no read task");
	return doca_rdma_task_read_as_task(r);
}

/* One task of `n` bytes, resubmitted for about `seconds`; adds to `a` (may be NULL). */
static void rdma_run(struct side *s, bool put, size_t n, double seconds, struct acc *a)
{
	struct doca_buf *rb = NULL, *lb = NULL;
	struct doca_task *task;
	uint64_t t0, end, iters = 0;

	if (doca_buf_inventory_buf_get_by_data(s->inv, s->remote, (void *)(uintptr_t)s->raddr, n, &rb) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_data(s->inv, s->local, s->mem, n, &lb) != DOCA_SUCCESS)
		die("no buffers");
	task = alloc_task(s, put, lb, rb);
	t0 = now_ns();
	end = t0 + (uint64_t)(seconds * 1e9);
	while (now_ns() < end || iters == 0) {
		uint64_t t = now_ns();

		doca_buf_reset_data_len(put ? rb : lb);
		s->done = 0;
		if (doca_task_submit(task) != DOCA_SUCCESS)
			die("submit failed");
		while (!s->done)
			doca_pe_progress(s->pe);
		if (s->status != DOCA_SUCCESS)
			die(doca_error_get_name(s->status));
		if (a != NULL)
			acc_op(a, (double)(now_ns() - t) / 1e3);
		iters++;
	}
	if (a != NULL) {
		a->bytes += (double)n * (double)iters;
		a->seconds += (double)(now_ns() - t0) / 1e9;
	}
	doca_task_free(task);
	doca_buf_dec_refcount(rb, NULL);
	doca_buf_dec_refcount(lb, NULL);
}

/* s->msg_inflight sends of MSG_SIZE bytes kept in flight for about `seconds`; adds messages and time to `a`. */
static void send_run(struct side *s, struct doca_task **tasks, double seconds, struct acc *a)
{
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(seconds * 1e9), before = s->msgs;

	s->sending = true;
	for (unsigned i = 0; i < s->msg_inflight; i++) {
		if (doca_task_submit(tasks[i]) != DOCA_SUCCESS)
			die("cannot submit a send");
		s->inflight++;
	}
	while (now_ns() < end)
		doca_pe_progress(s->pe);
	s->sending = false;
	while (s->inflight != 0)
		doca_pe_progress(s->pe);
	if (s->msg_errors != 0)
		die("a send failed");
	a->bytes += (double)(s->msgs - before);
	a->seconds += (double)(now_ns() - t0) / 1e9;
}

/* The send tasks of the message-rate row, one buffer each. */
static void send_tasks(struct side *s, struct doca_task **tasks)
{
	union doca_data ud = {.u64 = 0};

	msg_buffers(s, s->msg_inflight);
	for (unsigned i = 0; i < s->msg_inflight; i++) {
		struct doca_rdma_task_send *t = NULL;
		if (doca_rdma_task_send_allocate_init(s->rdma, s->conn, msg_buf(s, i, true), ud, &t) != DOCA_SUCCESS)
			die("cannot allocate the sends");
		tasks[i] = doca_rdma_task_send_as_task(t);
	}
}

static void message_rate(const char *label, struct side *s, bool raw, double seconds)
{
	static struct doca_task *tasks[MSG_MAX_INFLIGHT];
	struct acc ra = {0}, da = {0};

	send_tasks(s, tasks);
	for (int slice = 0; slice < SLICES; slice++) {
		uint64_t t0 = now_ns();
		if (raw) {
			/* The raw server's thread spins in its own slices only, as the responder's PE serves ours. */
			ucx_raw_spin(true);
			t0 = now_ns();
			ra.bytes += (double)ucx_raw_am_run(s->msg_mem, MSG_SIZE, s->msg_inflight, seconds / SLICES);
			ra.seconds += (double)(now_ns() - t0) / 1e9;
			ucx_raw_spin(false);
		}
		send_run(s, tasks, seconds / SLICES, &da);
	}
	double raw_rate = raw ? ra.bytes / ra.seconds / 1e6 : 0, rdma_rate = da.bytes / da.seconds / 1e6;
	if (raw)
		printf("%-8s %-5s %9u %9.3f Mmsg/s %9.3f Mmsg/s %6.2fx  (send->receive, %u in flight, vs raw UCX AM)\n",
		       label, "send", MSG_SIZE, raw_rate, rdma_rate, rdma_rate / raw_rate, s->msg_inflight);
	else
		printf("%-8s %-5s %9u %16s %9.3f Mmsg/s  (send->receive, %u in flight)\n", label, "send", MSG_SIZE, "-",
		       rdma_rate, s->msg_inflight);
	fflush(stdout);
}

static void raw_run(uint8_t *local, bool put, size_t n, double seconds, struct acc *a)
{
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(seconds * 1e9), iters = 0;

	while (now_ns() < end || iters == 0) {
		uint64_t t = now_ns();

		ucx_raw_op(put, local, n);
		acc_op(a, (double)(now_ns() - t) / 1e3);
		iters++;
	}
	a->bytes += (double)n * (double)iters;
	a->seconds += (double)(now_ns() - t0) / 1e9;
}

/* The responder's pattern (see run_export). */
static bool pattern_ok(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(i * 131 + 7))
			return false;
	return true;
}

/* One method's latency spread at one point: where a stall shows (the median hides it). */
static void print_tail(const char *label, const char *op, size_t size, const char *who, const struct acc *a)
{
	printf("%-8s %-5s %9zu  %-4s latency us: p50 %.2f p90 %.2f p99 %.2f max %.2f mean %.2f\n", label, op, size,
	       who, quantile(a->lat, a->nlat, 0.5), quantile(a->lat, a->nlat, 0.9), quantile(a->lat, a->nlat, 0.99),
	       quantile(a->lat, a->nlat, 1.0), mean_us(a, (double)size));
}

static void print_point(const char *label, bool raw, bool put, size_t size, struct acc *ra, struct acc *da, bool tail)
{
	const char *op = put ? "write" : "read";
	double raw_mbs = raw ? ra->bytes / ra->seconds / 1e6 : 0, rdma_mbs = da->bytes / da->seconds / 1e6;
	double lat_raw = median(ra->lat, ra->nlat), lat_rdma = median(da->lat, da->nlat);

	if (raw)
		printf("%-8s %-5s %9zu %12.1f %12.1f %6.2fx\n", label, op, size, raw_mbs, rdma_mbs, rdma_mbs / raw_mbs);
	else
		printf("%-8s %-5s %9zu %12s %12.1f %7s\n", label, op, size, "-", rdma_mbs, "-");
	if (size == 64 && raw)
		printf("%-8s %-5s %9s  median latency: raw %.2f us, RDMA %.2f us (%.2fx)\n", label, op, "64 B", lat_raw,
		       lat_rdma, lat_rdma / lat_raw);
	else if (size == 64)
		printf("%-8s %-5s %9s  median latency: RDMA %.2f us\n", label, op, "64 B", lat_rdma);
	if (tail && raw)
		print_tail(label, op, size, "raw", ra);
	if (tail)
		print_tail(label, op, size, "RDMA", da);
	fflush(stdout);
}

static int run_import(int argc, char **argv)
{
	const char *dir = arg(argc, argv, "--dir", NULL);
	const char *label = arg(argc, argv, "--label", "rdma");
	double seconds = strtod(arg(argc, argv, "--seconds", "1"), NULL);
	bool raw = !flag(argc, argv, "--no-raw"), tail = flag(argc, argv, "--tail");
	static struct acc ra, da;
	size_t len = 4 * MIB, n;
	struct side s = {0};
	int bad = 0;

	if (dir == NULL)
		die("import needs --dir");
	s.msg_inflight = MSG_INFLIGHT;
	if (arg(argc, argv, "--inflight", NULL) != NULL)
		s.msg_inflight = (unsigned)strtoul(arg(argc, argv, "--inflight", NULL), NULL, 0);
	if (s.msg_inflight == 0 || s.msg_inflight > MSG_MAX_INFLIGHT)
		die("--inflight takes 1 to 1024 sends");
	side_start(&s, DPU_PCI, dir, "conn.dpu");
	side_connect(&s, dir, "conn.host");
	(void)wait_file(dir, "connected", &n);
	import_remote(&s, dir, len);
	if (raw)
		ucx_raw_connect_from(dir);
	/* Check the bytes once each way before timing anything. */
	rdma_run(&s, false, len, 0, NULL);
	bad += !pattern_ok(s.mem, len);
	if (raw) {
		memset(s.mem, 0, len);
		ucx_raw_op(false, s.mem, len);
		bad += !pattern_ok(s.mem, len);
	}
	printf("%-8s %-5s %9s %12s %12s %7s\n", "path", "op", "size", "raw MB/s", "RDMA MB/s", "RDMA/raw");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && !flag(argc, argv, "--messages-only"); i++) {
		for (int put = 0; put < 2; put++) {
			memset(&ra, 0, sizeof(ra));
			memset(&da, 0, sizeof(da));
			for (int slice = 0; slice < SLICES; slice++) {
				if (raw) {
					/* As in the message rows: the raw server's thread spins in raw slices only. */
					ucx_raw_spin(true);
					raw_run(s.mem, put, sizes[i], seconds / SLICES, &ra);
					ucx_raw_spin(false);
				}
				rdma_run(&s, put, sizes[i], seconds / SLICES, &da);
			}
			print_point(label, raw, put, sizes[i], &ra, &da, tail);
		}
	}
	message_rate(label, &s, raw, seconds);
	if (bad != 0)
		fprintf(stderr, "rdma_bench: the bytes read did not match the responder's\n");
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "export") == 0)
		return run_export(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return run_import(argc, argv);
	fprintf(stderr, "usage: rdma_bench export --dir DIR [--size BYTES] [--no-raw]\n"
			"       rdma_bench import --dir DIR [--label NAME] [--seconds S] [--no-raw] [--messages-only] [--tail] [--inflight N]\n"
			"(PROGRAM=rdma_bench bench/ucx-bench.sh runs both sides)\n");
	return 2;
}
