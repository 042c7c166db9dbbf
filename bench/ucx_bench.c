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
 *   ucx_bench import --dir DIR [--label NAME] [--seconds S] [--no-raw] [--after-silence]
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
 *       path); --label names the rows.  --after-silence then times single
 *       64 B reads after pauses of 10 ms, 200 ms and 1.5 s (the exporter's
 *       thread sleeps longer the longer the silence), with the raw side
 *       also raw gets after the same pauses, its server asleep and then
 *       spinning.
 *
 * bench/ucx-bench.sh runs both sides in two network namespaces and then
 * once more in one namespace.  Exit status 0 when every copy succeeded and
 * the bytes matched, whatever the numbers.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench_common.h"
#include "bench_slices.h"
#include "ucx_raw.h"

#define MIB ((size_t)1 << 20)
#define HOST_PCI "0000:b1:00.0"
#define DPU_PCI "0000:03:00.0"

static const size_t sizes[] = {64, 4096, 64 * 1024, MIB, 4 * MIB};

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "ucx_bench: %s\n", what);
	exit(1);
}

/*
 * Exporting side.
 */

static int run_export(int argc, char **argv)
{
	const char *dir = arg(argc, argv, "--dir", NULL);
	const char *peer = getenv("SOFTDOCA_PEER");
	char path[4096], bind_ip[64] = "127.0.0.1", junk[64];
	const void *desc;
	size_t desc_len;
	struct doca_dev *dev;
	struct doca_mmap *m;
	size_t len;
	uint8_t *buf;
	FILE *f;

	if (dir == NULL)
		die("export needs --dir");
	len = strtoull(arg(argc, argv, "--size", "67108864"), NULL, 0);
	buf = aligned_alloc(4096, len);
	if (buf == NULL)
		die("out of memory");
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	dev = bench_open_dev(HOST_PCI);
	if (dev == NULL)
		die("no host device");
	m = bench_local_mmap(dev, buf, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
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
		ucx_raw_bind_ip_toward(peer, bind_ip, sizeof(bind_ip));
		ucx_raw_serve(buf, len, bind_ip, false);
		ucx_raw_write_addr(dir, bind_ip, buf, len);
	}
	printf("ready\n");
	fflush(stdout);
	while (fgets(junk, sizeof(junk), stdin) != NULL)
		;
	ucx_raw_quit();
	doca_mmap_destroy(m);
	doca_dev_close(dev);
	return 0;
}

/*
 * Importing side: raw UCX.
 */

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

		ucx_raw_op(put, local, n);
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

/*
 * --after-silence: one 64 B read after each of several pauses, timed alone.
 * The exporter's thread sleeps longer the longer the silence (up to 50 ms
 * after a second); the read's latency shows whether the request woke it at
 * once (tens of microseconds) or waited out its sleep.  With the raw side,
 * a raw ucp_get_nbx after each pause too, in turn with the DMA reads: its
 * server sleeps by the same rule, so the raw line is what the machine, the
 * link and UCX themselves cost after a silence.  A third get is made with
 * the raw server spinning through the pause: what is left is the
 * importer's side and the link.
 */
static void pause_for(double s)
{
	struct timespec ts = {.tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};

	nanosleep(&ts, NULL);
}

enum silence_side { SILENT_DMA, SILENT_RAW, SILENT_RAW_SPINNING, SILENT_SIDES };

/* One 64 B read after `pause` seconds of silence on `side`; its latency in us, -1 if none was taken. */
static double read_after_silence(struct dma_side *d, enum silence_side side, double pause)
{
	static struct acc a;

	memset(&a, 0, sizeof(a));
	if (side == SILENT_RAW_SPINNING)
		ucx_raw_spin(true);
	pause_for(pause);
	if (side == SILENT_DMA)
		dma_run(d, false, 64, 0, &a);
	else
		raw_run(false, d->mem, 64, 0, &a);
	if (side == SILENT_RAW_SPINNING)
		ucx_raw_spin(false);
	return a.nlat > 0 ? a.lat[0] : -1.0;
}

static void silence_rows(struct dma_side *d, const char *label, bool raw)
{
	static const double pauses[] = {0.01, 0.2, 1.5};
	static const char *const names[SILENT_SIDES] = {"DMA", "raw", "raw, server spinning"};
	int sides = raw ? SILENT_SIDES : 1;

	for (size_t i = 0; i < sizeof(pauses) / sizeof(pauses[0]); i++) {
		double us[SILENT_SIDES][3];

		/* The sides take turns within each repetition, so a slow moment of the machine hits them alike. */
		for (int rep = 0; rep < 3; rep++)
			for (int side = 0; side < sides; side++)
				us[side][rep] = read_after_silence(d, (enum silence_side)side, pauses[i]);
		for (int side = 0; side < sides; side++)
			printf("%-8s read  after %4.2f s of silence, %-20s %5.0f %5.0f %5.0f us\n", label, pauses[i],
			       names[side], us[side][0], us[side][1], us[side][2]);
		fflush(stdout);
	}
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
	if (raw)
		ucx_raw_connect_from(dir);
	/* Check the bytes once each way before timing anything. */
	dma_run(&d, false, len, 0, NULL);
	bad += !pattern_ok(d.mem, len);
	if (raw) {
		memset(d.mem, 0, len);
		ucx_raw_op(false, d.mem, len);
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
	if (flag(argc, argv, "--after-silence"))
		silence_rows(&d, label, raw);
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
			"       ucx_bench import --dir DIR [--label NAME] [--seconds S] [--no-raw] [--after-silence]\n"
			"(bench/ucx-bench.sh runs both sides)\n");
	return 2;
}
