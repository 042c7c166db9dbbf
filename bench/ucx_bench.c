/*
 * ucx_bench.c - DMA on imported memory across namespaces (the UCX
 * transport) against raw UCX on the same buffers, same run.
 *
 *   ucx_bench export --dir DIR [--size BYTES]
 *       The host side.  Exports a buffer with doca_mmap_export_pci (run it
 *       with SOFTDOCA_PEER set, so the descriptor carries a UCX endpoint)
 *       and serves the same buffer with a raw UCX server of its own: a
 *       listener and a worker on a thread, which packs the buffer's remote
 *       key for whoever connects.  Both servers spin while there is
 *       traffic and sleep on their worker's event descriptor after 2 ms of
 *       silence (1 ms at a time at first: the descriptor does not fire for
 *       all TCP traffic), so each is idle while the other one is measured.  Writes
 *       DIR/desc (the descriptor) and DIR/raw ("ADDR PORT BUFADDR LEN");
 *       prints "ready"; exits when its stdin closes.
 *   ucx_bench import --dir DIR [--label NAME] [--seconds S] [--no-raw]
 *       The DPU side.  For 64 B, 4 KiB, 64 KiB, 1 MiB and 4 MiB, reads and
 *       writes the exported buffer one operation at a time: with DMA
 *       memcpy tasks on the imported mmap (one task, resubmitted from its
 *       completion, as a streaming program does), and with raw
 *       ucp_get_nbx / ucp_put_nbx (a put followed by ucp_ep_flush_nbx, the
 *       completion a DMA write reports).  Each point gives raw and DMA
 *       about S seconds each (default 1), in ten alternating slices, so
 *       that whatever else runs on the machine slows both alike; the bytes
 *       and times of the slices are summed.  Prints MB/s, the DMA/raw
 *       ratio, and the median latency of a 64 B operation.  --no-raw measures only DMA
 *       (the same-namespace comparison, where the import takes a local
 *       path); --label names the rows.
 *
 * bench/ucx-bench.sh runs both sides in two network namespaces and then
 * once more in one namespace.  Exit status 0 when every copy succeeded and
 * the bytes matched, whatever the numbers.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ucp/api/ucp.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench_common.h"

#define MIB ((size_t)1 << 20)
#define HOST_PCI "0000:b1:00.0"
#define DPU_PCI "0000:03:00.0"
#define AM_RKEY 7u
#define AM_HELLO 8u
#define SPIN_NS 2000000ull
#define LAT_SAMPLES 20001
#define SLICES 10

/* What the slices of one method at one point add up to. */
struct acc {
	double bytes, seconds;
	double lat[LAT_SAMPLES]; /* microseconds per operation */
	unsigned nlat;
};

static void acc_op(struct acc *a, double us)
{
	if (a->nlat < LAT_SAMPLES)
		a->lat[a->nlat++] = us;
}

static const size_t sizes[] = {64, 4096, 64 * 1024, MIB, 4 * MIB};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n != 0 ? v[n / 2] : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "ucx_bench: %s\n", what);
	exit(1);
}

static const char *arg(int argc, char **argv, const char *key, const char *dflt)
{
	for (int i = 2; i + 1 < argc; i++)
		if (strcmp(argv[i], key) == 0)
			return argv[i + 1];
	return dflt;
}

static bool flag(int argc, char **argv, const char *key)
{
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], key) == 0)
			return true;
	return false;
}

static ucp_context_h raw_context(void)
{
	ucp_params_t p = {.field_mask = UCP_PARAM_FIELD_FEATURES,
			  .features = UCP_FEATURE_RMA | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP};
	ucp_config_t *c;
	ucp_context_h ctx;

	if (ucp_config_read(NULL, NULL, &c) != UCS_OK || ucp_init(&p, c, &ctx) != UCS_OK)
		die("ucp_init failed");
	ucp_config_release(c);
	return ctx;
}

static void wait_req(ucp_worker_h w, ucs_status_ptr_t req)
{
	if (req == NULL)
		return;
	if (UCS_PTR_IS_ERR(req))
		die(ucs_status_string(UCS_PTR_STATUS(req)));
	while (ucp_request_check_status(req) == UCS_INPROGRESS)
		ucp_worker_progress(w);
	if (ucp_request_check_status(req) != UCS_OK)
		die("a raw UCX operation failed");
	ucp_request_free(req);
}

/*
 * Exporting side.
 */

static struct {
	ucp_context_h ctx;
	ucp_worker_h worker;
	ucp_listener_h listener;
	ucp_mem_h memh;
	void *rkey;
	size_t rkey_len;
	uint8_t *buf;
	size_t len;
	atomic_bool quit;
} srv;

static void srv_conn(ucp_conn_request_h req, void *arg)
{
	ucp_ep_params_t p = {.field_mask = UCP_EP_PARAM_FIELD_CONN_REQUEST | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
			     .conn_request = req,
			     .err_mode = UCP_ERR_HANDLING_MODE_PEER};
	ucp_ep_h ep;

	(void)arg;
	(void)ucp_ep_create(srv.worker, &p, &ep); /* lives until the process ends */
}

static ucs_status_t srv_hello(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	static uint8_t msg[4096 + 8];
	uint64_t a = (uintptr_t)srv.buf;
	ucp_request_param_t rp = {.op_attr_mask = 0};
	ucs_status_ptr_t req;

	(void)arg, (void)h, (void)hl, (void)d, (void)l;
	if (!(prm->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) || srv.rkey_len > 4096)
		return UCS_OK;
	memcpy(msg, &a, 8);
	memcpy(msg + 8, srv.rkey, srv.rkey_len);
	req = ucp_am_send_nbx(prm->reply_ep, AM_RKEY, NULL, 0, msg, 8 + srv.rkey_len, &rp);
	if (UCS_PTR_IS_PTR(req))
		ucp_request_free(req); /* msg is static: it may still leave after the free */
	return UCS_OK;
}

static void *srv_main(void *arg)
{
	uint64_t last = now_ns();
	int efd = -1;

	(void)arg;
	ucp_worker_get_efd(srv.worker, &efd);
	while (!atomic_load(&srv.quit)) {
		unsigned n = 0;

		while (ucp_worker_progress(srv.worker) != 0)
			n++;
		if (n != 0) {
			last = now_ns();
			continue;
		}
		if (now_ns() - last > SPIN_NS && ucp_worker_arm(srv.worker) == UCS_OK) {
			struct pollfd p = {.fd = efd, .events = POLLIN};
			uint64_t silent = now_ns() - last;

			/* The same policy as softdoca's server (ucx_server.c). */
			(void)poll(&p, 1, silent < 100000000ull ? 1 : silent < 1000000000ull ? 10 : 50);
		}
	}
	return NULL;
}

/* The address the softdoca export listens on is the one the raw server uses too (port of its own). */
static void srv_start(const char *bind_ip)
{
	ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
				  .thread_mode = UCS_THREAD_MODE_SINGLE};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.id = AM_HELLO,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
		.cb = srv_hello,
	};
	ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
				   .address = srv.buf,
				   .length = srv.len};
	struct sockaddr_in sa = {.sin_family = AF_INET};
	ucp_listener_params_t lp = {
		.field_mask = UCP_LISTENER_PARAM_FIELD_SOCK_ADDR | UCP_LISTENER_PARAM_FIELD_CONN_HANDLER,
		.sockaddr = {.addr = (struct sockaddr *)&sa, .addrlen = sizeof(sa)},
		.conn_handler = {.cb = srv_conn},
	};
	pthread_t t;

	inet_pton(AF_INET, bind_ip, &sa.sin_addr);
	srv.ctx = raw_context();
	if (ucp_worker_create(srv.ctx, &wp, &srv.worker) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(srv.worker, &hp) != UCS_OK ||
	    ucp_mem_map(srv.ctx, &mp, &srv.memh) != UCS_OK ||
	    ucp_rkey_pack(srv.ctx, srv.memh, &srv.rkey, &srv.rkey_len) != UCS_OK ||
	    ucp_listener_create(srv.worker, &lp, &srv.listener) != UCS_OK)
		die("cannot start the raw UCX server");
	if (pthread_create(&t, NULL, srv_main, NULL) != 0)
		die("no thread");
	pthread_detach(t);
}

static uint16_t srv_port(void)
{
	ucp_listener_attr_t a = {.field_mask = UCP_LISTENER_ATTR_FIELD_SOCKADDR};

	if (ucp_listener_query(srv.listener, &a) != UCS_OK)
		die("ucp_listener_query");
	return ntohs(((struct sockaddr_in *)&a.sockaddr)->sin_port);
}

static int run_export(int argc, char **argv)
{
	const char *dir = arg(argc, argv, "--dir", NULL);
	const char *peer = getenv("SOFTDOCA_PEER");
	char path[4096], bind_ip[64] = "127.0.0.1", junk[64];
	const void *desc;
	size_t desc_len;
	struct doca_dev *dev;
	struct doca_mmap *m;
	FILE *f;

	if (dir == NULL)
		die("export needs --dir");
	srv.len = strtoull(arg(argc, argv, "--size", "67108864"), NULL, 0);
	srv.buf = aligned_alloc(4096, srv.len);
	if (srv.buf == NULL)
		die("out of memory");
	for (size_t i = 0; i < srv.len; i++)
		srv.buf[i] = (uint8_t)(i * 131 + 7);
	dev = bench_open_dev(HOST_PCI);
	if (dev == NULL)
		die("no host device");
	m = bench_local_mmap(dev, srv.buf, srv.len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (m == NULL)
		die("cannot set up a local mmap");
	if (doca_mmap_export_pci(m, dev, &desc, &desc_len) != DOCA_SUCCESS)
		die("export failed");
	snprintf(path, sizeof(path), "%s/desc", dir);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(desc, 1, desc_len, f) != desc_len || fclose(f) != 0)
		die("cannot write the descriptor");
	if (!flag(argc, argv, "--no-raw")) {
		/* The raw server listens where the peer reaches this side: SOFTDOCA_PEER's route. */
		if (peer != NULL) {
			struct sockaddr_in p = {.sin_family = AF_INET, .sin_port = htons(9)}, me;
			socklen_t ml = sizeof(me);
			int fd = socket(AF_INET, SOCK_DGRAM, 0);
			char host[64];

			snprintf(host, sizeof(host), "%s", peer);
			host[strcspn(host, ":")] = '\0';
			if (inet_pton(AF_INET, host, &p.sin_addr) != 1 || connect(fd, (struct sockaddr *)&p, sizeof(p)) != 0 ||
			    getsockname(fd, (struct sockaddr *)&me, &ml) != 0)
				die("SOFTDOCA_PEER must be an IPv4 address for the raw server");
			inet_ntop(AF_INET, &me.sin_addr, bind_ip, sizeof(bind_ip));
			close(fd);
		}
		srv_start(bind_ip);
		snprintf(path, sizeof(path), "%s/raw", dir);
		f = fopen(path, "w");
		if (f == NULL || fprintf(f, "%s %u %llx %zu\n", bind_ip, srv_port(),
					 (unsigned long long)(uintptr_t)srv.buf, srv.len) < 0 || fclose(f) != 0)
			die("cannot write the raw server's address");
	}
	printf("ready\n");
	fflush(stdout);
	while (fgets(junk, sizeof(junk), stdin) != NULL)
		;
	atomic_store(&srv.quit, true);
	doca_mmap_destroy(m);
	doca_dev_close(dev);
	return 0;
}

/*
 * Importing side: raw UCX.
 */

static struct {
	ucp_context_h ctx;
	ucp_worker_h worker;
	ucp_ep_h ep;
	ucp_rkey_h rkey;
	uint64_t raddr;
	atomic_bool granted;
} cli;

static ucs_status_t cli_rkey(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	(void)arg, (void)h, (void)hl, (void)prm;
	if (l < 9)
		return UCS_OK;
	memcpy(&cli.raddr, d, 8);
	if (ucp_ep_rkey_unpack(cli.ep, (uint8_t *)d + 8, &cli.rkey) == UCS_OK)
		atomic_store(&cli.granted, true);
	return UCS_OK;
}

static void cli_connect(const char *ip, unsigned port)
{
	ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
				  .thread_mode = UCS_THREAD_MODE_SINGLE};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.id = AM_RKEY,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
		.cb = cli_rkey,
	};
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	ucp_ep_params_t ep = {
		.field_mask = UCP_EP_PARAM_FIELD_SOCK_ADDR | UCP_EP_PARAM_FIELD_FLAGS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
		.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER,
		.sockaddr = {.addr = (struct sockaddr *)&sa, .addrlen = sizeof(sa)},
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
	};
	ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_AM_SEND_FLAG_REPLY};
	uint64_t deadline = now_ns() + 10000000000ull;

	inet_pton(AF_INET, ip, &sa.sin_addr);
	cli.ctx = raw_context();
	if (ucp_worker_create(cli.ctx, &wp, &cli.worker) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(cli.worker, &hp) != UCS_OK || ucp_ep_create(cli.worker, &ep, &cli.ep) != UCS_OK)
		die("cannot connect to the raw server");
	wait_req(cli.worker, ucp_am_send_nbx(cli.ep, AM_HELLO, NULL, 0, "hi", 2, &rp));
	while (!atomic_load(&cli.granted) && now_ns() < deadline)
		ucp_worker_progress(cli.worker);
	if (!atomic_load(&cli.granted))
		die("the raw server sent no key");
}

static void raw_op(bool put, uint8_t *local, size_t n)
{
	ucp_request_param_t p = {.op_attr_mask = 0};

	if (put) {
		wait_req(cli.worker, ucp_put_nbx(cli.ep, local, n, cli.raddr, cli.rkey, &p));
		wait_req(cli.worker, ucp_ep_flush_nbx(cli.ep, &p));
	} else {
		wait_req(cli.worker, ucp_get_nbx(cli.ep, local, n, cli.raddr, cli.rkey, &p));
	}
}

/*
 * Importing side: DMA tasks.
 */

struct dma_side {
	struct doca_dev *dev;
	struct doca_mmap *remote, *local;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	uint8_t *mem;
	uint64_t raddr;
	int done;
	doca_error_t status;
};

static void dma_cb(struct doca_dma_task_memcpy *t, union doca_data tud, union doca_data cud)
{
	struct dma_side *d = cud.ptr;

	(void)tud;
	d->status = doca_task_get_status(doca_dma_task_memcpy_as_task(t));
	d->done = 1;
}

static void dma_open(struct dma_side *d, const char *dir, size_t len)
{
	uint8_t desc[512];
	char path[4096];
	union doca_data ud = {.ptr = d};
	void *range = NULL;
	size_t range_len;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/desc", dir);
	f = fopen(path, "rb");
	if (f == NULL)
		die("no descriptor");
	n = fread(desc, 1, sizeof(desc), f);
	fclose(f);
	d->dev = bench_open_dev(DPU_PCI);
	d->mem = aligned_alloc(4096, len);
	if (d->dev == NULL || d->mem == NULL ||
	    doca_mmap_create_from_export(NULL, desc, n, d->dev, &d->remote) != DOCA_SUCCESS ||
	    doca_mmap_get_memrange(d->remote, &range, &range_len) != DOCA_SUCCESS || range_len < len)
		die("cannot import the descriptor");
	d->raddr = (uint64_t)(uintptr_t)range;
	memset(d->mem, 0, len);
	d->local = bench_local_mmap(d->dev, d->mem, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (d->local == NULL)
		die("cannot set up a local mmap");
	if (doca_buf_inventory_create(4, &d->inv) != DOCA_SUCCESS || doca_buf_inventory_start(d->inv) != DOCA_SUCCESS ||
	    doca_pe_create(&d->pe) != DOCA_SUCCESS || doca_dma_create(d->dev, &d->dma) != DOCA_SUCCESS ||
	    doca_ctx_set_user_data(doca_dma_as_ctx(d->dma), ud) != DOCA_SUCCESS ||
	    doca_dma_task_memcpy_set_conf(d->dma, dma_cb, dma_cb, 1) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(d->pe, doca_dma_as_ctx(d->dma)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_dma_as_ctx(d->dma)) != DOCA_SUCCESS)
		die("cannot start the DMA context");
}

/* One task of `n` bytes, resubmitted for about `seconds`; adds to `a` (may be NULL). */
static void dma_run(struct dma_side *d, bool put, size_t n, double seconds, struct acc *a)
{
	struct doca_buf *rb = NULL, *lb = NULL, *src, *dst;
	struct doca_dma_task_memcpy *task = NULL;
	union doca_data ud = {.u64 = 0};
	uint64_t t0, end, iters = 0;

	if (doca_buf_inventory_buf_get_by_data(d->inv, d->remote, (void *)(uintptr_t)d->raddr, n, &rb) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_data(d->inv, d->local, d->mem, n, &lb) != DOCA_SUCCESS)
		die("no buffers");
	src = put ? lb : rb;
	dst = put ? rb : lb;
	if (doca_buf_reset_data_len(dst) != DOCA_SUCCESS ||
	    doca_dma_task_memcpy_alloc_init(d->dma, src, dst, ud, &task) != DOCA_SUCCESS)
		die("no task");
	t0 = now_ns();
	end = t0 + (uint64_t)(seconds * 1e9);
	while (now_ns() < end || iters == 0) {
		uint64_t s = now_ns();

		doca_buf_reset_data_len(dst);
		d->done = 0;
		if (doca_task_submit(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS)
			die("submit failed");
		while (!d->done)
			doca_pe_progress(d->pe);
		if (d->status != DOCA_SUCCESS)
			die(doca_error_get_name(d->status));
		if (a != NULL)
			acc_op(a, (double)(now_ns() - s) / 1e3);
		iters++;
	}
	if (a != NULL) {
		a->bytes += (double)n * (double)iters;
		a->seconds += (double)(now_ns() - t0) / 1e9;
	}
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	doca_buf_dec_refcount(rb, NULL);
	doca_buf_dec_refcount(lb, NULL);
}

static void raw_run(bool put, uint8_t *local, size_t n, double seconds, struct acc *a)
{
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(seconds * 1e9), iters = 0;

	while (now_ns() < end || iters == 0) {
		uint64_t s = now_ns();

		raw_op(put, local, n);
		acc_op(a, (double)(now_ns() - s) / 1e3);
		iters++;
	}
	a->bytes += (double)n * (double)iters;
	a->seconds += (double)(now_ns() - t0) / 1e9;
}

/* The exporter's pattern (see run_export). */
static bool pattern_ok(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(i * 131 + 7))
			return false;
	return true;
}

static int run_import(int argc, char **argv)
{
	const char *dir = arg(argc, argv, "--dir", NULL);
	const char *label = arg(argc, argv, "--label", "ucx");
	double seconds = strtod(arg(argc, argv, "--seconds", "1"), NULL);
	static struct acc ra, da;
	bool raw = !flag(argc, argv, "--no-raw");
	size_t len = 4 * MIB;
	struct dma_side d = {0};
	int bad = 0;

	if (dir == NULL)
		die("import needs --dir");
	dma_open(&d, dir, len);
	if (raw) {
		char path[4096], ip[64];
		unsigned port = 0;
		unsigned long long addr;
		size_t rlen;
		FILE *f;

		snprintf(path, sizeof(path), "%s/raw", dir);
		f = fopen(path, "r");
		if (f == NULL || fscanf(f, "%63s %u %llx %zu", ip, &port, &addr, &rlen) != 4)
			die("no raw server address");
		fclose(f);
		cli_connect(ip, port);
	}
	/* Check the bytes once each way before timing anything. */
	dma_run(&d, false, len, 0, NULL);
	bad += !pattern_ok(d.mem, len);
	if (raw) {
		memset(d.mem, 0, len);
		raw_op(false, d.mem, len);
		bad += !pattern_ok(d.mem, len);
	}
	printf("%-8s %-5s %9s %12s %12s %7s\n", "path", "op", "size", "raw MB/s", "DMA MB/s", "DMA/raw");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int put = 0; put < 2; put++) {
			double raw_mbs, dma_mbs, lat_raw, lat_dma;

			memset(&ra, 0, sizeof(ra));
			memset(&da, 0, sizeof(da));
			for (int slice = 0; slice < SLICES; slice++) {
				if (raw)
					raw_run(put, d.mem, sizes[i], seconds / SLICES, &ra);
				dma_run(&d, put, sizes[i], seconds / SLICES, &da);
			}
			raw_mbs = raw ? ra.bytes / ra.seconds / 1e6 : 0;
			dma_mbs = da.bytes / da.seconds / 1e6;
			lat_raw = median(ra.lat, ra.nlat);
			lat_dma = median(da.lat, da.nlat);
			if (raw)
				printf("%-8s %-5s %9zu %12.1f %12.1f %6.2fx\n", label, put ? "write" : "read", sizes[i],
				       raw_mbs, dma_mbs, dma_mbs / raw_mbs);
			else
				printf("%-8s %-5s %9zu %12s %12.1f %7s\n", label, put ? "write" : "read", sizes[i], "-",
				       dma_mbs, "-");
			if (sizes[i] == 64 && raw)
				printf("%-8s %-5s %9s  median latency: raw %.2f us, DMA %.2f us (%.2fx)\n", label,
				       put ? "write" : "read", "64 B", lat_raw, lat_dma, lat_dma / lat_raw);
			else if (sizes[i] == 64)
				printf("%-8s %-5s %9s  median latency: DMA %.2f us\n", label, put ? "write" : "read",
				       "64 B", lat_dma);
			fflush(stdout);
		}
	}
	if (bad != 0)
		fprintf(stderr, "ucx_bench: the bytes read did not match the exporter's\n");
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "export") == 0)
		return run_export(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return run_import(argc, argv);
	fprintf(stderr, "usage: ucx_bench export --dir DIR [--size BYTES] [--no-raw]\n"
			"       ucx_bench import --dir DIR [--label NAME] [--seconds S] [--no-raw]\n"
			"(bench/ucx-bench.sh runs both sides)\n");
	return 2;
}
