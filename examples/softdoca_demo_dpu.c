/*
 * softdoca_demo_dpu.c - the DPU half of the demo: pull the host's buffer
 * over DMA and check every byte arrived.
 *
 * On a BlueField system this program runs on the DPU's Arm cores.  It
 *
 *   1. opens its side of the PCI link, the DPU function 0000:03:00.0;
 *   2. reads what the host published (softdoca_demo_host): the export
 *      descriptor, the buffer's address and length in the host's address
 *      space, and the SHA-256 of the buffer;
 *   3. turns the descriptor into an mmap of host memory with
 *      doca_mmap_create_from_export;
 *   4. pulls the whole buffer into its own memory with DOCA DMA memcpy
 *      tasks, one chunk per task (4 MiB by default), several in flight
 *      (8 by default), showing progress and throughput;
 *   5. hashes what it received, compares with the host's SHA-256, tells
 *      the host it is done, and explains what happened.
 *
 * Built in the DPU flavour (pkg-config directory <libdir>/pkgconfig-dpu,
 * DOCA_ARCH_DPU).  Only the public DOCA API is used, as in any DOCA program.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_version.h>

#include "demo_channel.h"
#include "demo_progress.h"
#include "demo_sha256.h"
#include "demo_util.h"

#define MAX_DEPTH 256

struct dpu_config {
	char path[1024];
	char pci[64];
	uint64_t chunk;
	int depth;
	int timeout_s;	/* for the export to appear, and for any DMA progress */
	int rate_mib_s; /* 0: as fast as possible */
};

/* One task in flight (or idle) with its two buffers. */
struct slot {
	struct doca_dma_task_memcpy *task;
	struct doca_buf *src; /* spans the whole host buffer; its data window is the chunk */
	struct doca_buf *dst; /* spans the whole local buffer */
	uint64_t offset;
	uint64_t len;
	bool busy;
};

struct dpu {
	struct dpu_config cfg;
	struct demo_export_info info;
	struct doca_dev *dev;
	struct doca_mmap *remote_mmap; /* the host's buffer, imported */
	struct doca_mmap *local_mmap;  /* our copy */
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_dma *dma;
	uint8_t *copy;
	struct slot slots[MAX_DEPTH];

	/* Transfer state, updated by the completion callbacks. */
	uint64_t next_offset;
	uint64_t bytes_done;
	unsigned int in_flight;
	unsigned int tasks_completed;
	doca_error_t first_error;
	uint64_t error_offset;
	double transfer_seconds;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int signo)
{
	(void)signo;
	stop_requested = 1;
}

/* ---- flags ------------------------------------------------------------------------ */

static doca_error_t file_cb(void *value, void *config)
{
	struct dpu_config *cfg = config;

	if (snprintf(cfg->path, sizeof(cfg->path), "%s", (char *)value) >= (int)sizeof(cfg->path))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

static doca_error_t pci_cb(void *value, void *config)
{
	struct dpu_config *cfg = config;

	snprintf(cfg->pci, sizeof(cfg->pci), "%s", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t chunk_cb(void *value, void *config)
{
	struct dpu_config *cfg = config;

	if (demo_parse_size(value, &cfg->chunk) != 0) {
		fprintf(stderr, "--chunk: \"%s\" is not a size (examples: 4M, 64K)\n", (char *)value);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t depth_cb(void *value, void *config)
{
	struct dpu_config *cfg = config;

	cfg->depth = *(int *)value;
	if (cfg->depth < 1 || cfg->depth > MAX_DEPTH) {
		fprintf(stderr, "--depth must be between 1 and %d\n", MAX_DEPTH);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t timeout_cb(void *value, void *config)
{
	struct dpu_config *cfg = config;

	cfg->timeout_s = *(int *)value;
	if (cfg->timeout_s <= 0) {
		fprintf(stderr, "--timeout must be a positive number of seconds\n");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t rate_cb(void *value, void *config)
{
	struct dpu_config *cfg = config;

	cfg->rate_mib_s = *(int *)value;
	if (cfg->rate_mib_s < 0) {
		fprintf(stderr, "--rate-limit must be 0 (no limit) or a number of MiB/s\n");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t register_flags(void)
{
	doca_error_t err;

	err = demo_add_flag("f", "file", "<path>", "where the host side publishes its export (file or FIFO)",
		       DOCA_ARGP_TYPE_STRING, file_cb, true);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag("p", "pci-addr", "<addr>", "DPU-side device that runs the DMA (default 03:00.0)",
			       DOCA_ARGP_TYPE_STRING, pci_cb, false);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag("c", "chunk", "<size>", "bytes per DMA task, K/M/G suffixes allowed (default 4M)",
			       DOCA_ARGP_TYPE_STRING, chunk_cb, false);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag("d", "depth", "<n>", "DMA tasks in flight (default 8)", DOCA_ARGP_TYPE_INT, depth_cb,
			       false);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag("t", "timeout", "<seconds>",
			       "how long to wait for the host's export, and for any DMA progress (default 60)",
			       DOCA_ARGP_TYPE_INT, timeout_cb, false);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag(NULL, "rate-limit", "<MiB/s>",
			       "pace the transfer, e.g. to watch the progress bar (default 0: no limit)",
			       DOCA_ARGP_TYPE_INT, rate_cb, false);
	return err;
}

/* ---- set-up ---------------------------------------------------------------------- */

#define STEP(call)                                                                                 \
	do {                                                                                       \
		doca_error_t step_err_ = (call);                                                   \
		if (step_err_ != DOCA_SUCCESS) {                                                   \
			fprintf(stderr, "dpu: %s failed: %s\n", #call, doca_error_get_descr(step_err_)); \
			return step_err_;                                                          \
		}                                                                                  \
	} while (0)

static doca_error_t can_dma_from_export(const struct doca_devinfo *devinfo)
{
	uint8_t can_import = 0;
	doca_error_t err = doca_dma_cap_task_memcpy_is_supported(devinfo);

	if (err == DOCA_SUCCESS)
		err = doca_mmap_cap_is_create_from_export_pci_supported(devinfo, &can_import);
	if (err == DOCA_SUCCESS && !can_import)
		err = DOCA_ERROR_NOT_SUPPORTED;
	return err;
}

static doca_error_t open_device(struct dpu *d)
{
	char why[DEMO_WHY_LEN];
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE] = "";
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE] = "";
	uint64_t max_task_bytes = 0;

	if (demo_open_device(d->cfg.pci, can_dma_from_export, &d->dev, why, sizeof(why)) != DOCA_SUCCESS) {
		fprintf(stderr, "dpu: %s\n", why);
		return DOCA_ERROR_NOT_FOUND;
	}
	(void)doca_devinfo_get_pci_addr_str(doca_dev_as_devinfo(d->dev), pci);
	(void)doca_devinfo_get_ibdev_name(doca_dev_as_devinfo(d->dev), ibdev, sizeof(ibdev));
	STEP(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(d->dev), &max_task_bytes));
	if (d->cfg.chunk > max_task_bytes) {
		fprintf(stderr, "dpu: --chunk %" PRIu64 " is more than one DMA task may copy on %s (%" PRIu64 ")\n",
			d->cfg.chunk, pci, max_task_bytes);
		return DOCA_ERROR_INVALID_VALUE;
	}
	printf("dpu: opened %s (%s), the DPU end of the PCI link\n", pci, ibdev);
	return DOCA_SUCCESS;
}

static doca_error_t receive_export(struct dpu *d)
{
	char why[DEMO_WHY_LEN] = "";

	printf("dpu: waiting for the host's export in %s (up to %d s)\n", d->cfg.path, d->cfg.timeout_s);
	switch (demo_channel_receive(d->cfg.path, &d->info, d->cfg.timeout_s, &stop_requested, why)) {
	case DEMO_WAIT_OK:
		break;
	case DEMO_WAIT_INTERRUPTED:
		fprintf(stderr, "dpu: interrupted while waiting for the host's export\n");
		return DOCA_ERROR_AGAIN;
	case DEMO_WAIT_TIMEOUT:
		fprintf(stderr, "dpu: nothing appeared in %s within %d s; is softdoca_demo_host running?\n",
			d->cfg.path, d->cfg.timeout_s);
		return DOCA_ERROR_TIME_OUT;
	default:
		fprintf(stderr, "dpu: %s\n", why);
		return DOCA_ERROR_INVALID_VALUE;
	}
	printf("dpu: host process %ld exported %.1f MiB at 0x%" PRIx64 " through %s (%zu-byte descriptor)\n",
	       d->info.host_pid, (double)d->info.len / MIB, d->info.addr, d->info.host_pci, d->info.desc_len);
	return DOCA_SUCCESS;
}

static doca_error_t import_export(struct dpu *d)
{
	doca_error_t err = doca_mmap_create_from_export(NULL, d->info.desc, d->info.desc_len, d->dev, &d->remote_mmap);

	if (err != DOCA_SUCCESS) {
		fprintf(stderr,
			"dpu: doca_mmap_create_from_export failed: %s%s\n", doca_error_get_descr(err),
			err == DOCA_ERROR_INVALID_VALUE ? " (the host process that wrote this export has exited, or "
							  "the file is stale)"
							: "");
		return err;
	}
	printf("dpu: imported it with doca_mmap_create_from_export: the host buffer is now a DMA source here\n");
	return DOCA_SUCCESS;
}

static void task_completed(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			   union doca_data ctx_user_data);
static void task_failed(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			union doca_data ctx_user_data);

static doca_error_t create_dma(struct dpu *d)
{
	union doca_data ctx_data = {.ptr = d};
	unsigned int depth = (unsigned int)d->cfg.depth;

	d->copy = aligned_alloc(4096, (d->info.len + 4095) / 4096 * 4096);
	if (d->copy == NULL) {
		fprintf(stderr, "dpu: cannot allocate %" PRIu64 " bytes for the copy\n", d->info.len);
		return DOCA_ERROR_NO_MEMORY;
	}
	/*
	 * Touch every page now: registering memory with a real device pins it
	 * before any DMA, so page faults do not belong in the transfer time.
	 */
	memset(d->copy, 0, d->info.len);
	STEP(doca_mmap_create(&d->local_mmap));
	STEP(doca_mmap_set_memrange(d->local_mmap, d->copy, d->info.len));
	STEP(doca_mmap_add_dev(d->local_mmap, d->dev));
	STEP(doca_mmap_start(d->local_mmap)); /* default permissions: local read and write */

	STEP(doca_buf_inventory_create(2 * depth, &d->inv));
	STEP(doca_buf_inventory_start(d->inv));

	STEP(doca_pe_create(&d->pe));
	STEP(doca_dma_create(d->dev, &d->dma));
	STEP(doca_ctx_set_user_data(doca_dma_as_ctx(d->dma), ctx_data));
	STEP(doca_pe_connect_ctx(d->pe, doca_dma_as_ctx(d->dma)));
	STEP(doca_dma_task_memcpy_set_conf(d->dma, task_completed, task_failed, depth));
	STEP(doca_ctx_start(doca_dma_as_ctx(d->dma)));

	/* One task per slot, allocated once and reused for chunk after chunk. */
	for (unsigned int i = 0; i < depth; i++) {
		struct slot *s = &d->slots[i];
		union doca_data task_data = {.ptr = s};

		STEP(doca_buf_inventory_buf_get_by_addr(d->inv, d->remote_mmap, (void *)(uintptr_t)d->info.addr,
							d->info.len, &s->src));
		STEP(doca_buf_inventory_buf_get_by_addr(d->inv, d->local_mmap, d->copy, d->info.len, &s->dst));
		STEP(doca_dma_task_memcpy_alloc_init(d->dma, s->src, s->dst, task_data, &s->task));
	}
	return DOCA_SUCCESS;
}

/* ---- the transfer ------------------------------------------------------------------ */

static void task_completed(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	struct slot *s = task_user_data.ptr;
	struct dpu *d = ctx_user_data.ptr;

	(void)task;
	s->busy = false;
	d->in_flight--;
	d->tasks_completed++;
	d->bytes_done += s->len;
}

static void task_failed(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct slot *s = task_user_data.ptr;
	struct dpu *d = ctx_user_data.ptr;

	s->busy = false;
	d->in_flight--;
	if (d->first_error == DOCA_SUCCESS) {
		d->first_error = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
		d->error_offset = s->offset;
	}
}

/* Point an idle slot's buffers at the next chunk and submit its task. */
static doca_error_t submit_next_chunk(struct dpu *d, struct slot *s)
{
	uint64_t left = d->info.len - d->next_offset;
	doca_error_t err;

	s->offset = d->next_offset;
	s->len = left < d->cfg.chunk ? left : d->cfg.chunk;
	/* Source: the chunk of host memory (a host address, never dereferenced here). */
	err = doca_buf_set_data(s->src, (void *)(uintptr_t)(d->info.addr + s->offset), s->len);
	/* Destination: empty at the chunk's place in our copy; the DMA appends there. */
	if (err == DOCA_SUCCESS)
		err = doca_buf_set_data(s->dst, d->copy + s->offset, 0);
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_dma_task_memcpy_as_task(s->task));
	if (err != DOCA_SUCCESS)
		return err;
	s->busy = true;
	d->in_flight++;
	d->next_offset += s->len;
	return DOCA_SUCCESS;
}

/* With --rate-limit, may the next chunk start at this point of the run? */
static bool rate_allows(const struct dpu *d, double elapsed)
{
	return d->cfg.rate_mib_s == 0 || (double)d->next_offset <= elapsed * d->cfg.rate_mib_s * MIB;
}

static doca_error_t submit_idle_slots(struct dpu *d, double elapsed)
{
	for (int i = 0; i < d->cfg.depth; i++) {
		struct slot *s = &d->slots[i];
		doca_error_t err;

		if (s->busy)
			continue;
		if (d->next_offset >= d->info.len || !rate_allows(d, elapsed))
			break;
		err = submit_next_chunk(d, s);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

/*
 * Keep every slot busy until the whole buffer is requested, and progress
 * the PE until every task has come back.  Stops submitting at the first
 * failure (the DMA context then flushes what is still in flight).
 */
static doca_error_t pull_buffer(struct dpu *d)
{
	struct demo_progress bar;
	double start = demo_now();
	double last_activity = start;

	printf("dpu: pulling %.1f MiB in %.1f MiB chunks with %d DMA memcpy tasks in flight%s\n",
	       (double)d->info.len / MIB, (double)d->cfg.chunk / MIB, d->cfg.depth,
	       d->cfg.rate_mib_s ? " (rate-limited)" : "");
	fflush(stdout);
	demo_progress_start(&bar, "dpu: DMA", d->info.len);
	for (;;) {
		double now = demo_now();
		bool more = d->next_offset < d->info.len && d->first_error == DOCA_SUCCESS && !stop_requested;
		doca_error_t err = DOCA_SUCCESS;

		if (more)
			err = submit_idle_slots(d, now - start);
		if (err != DOCA_SUCCESS && d->first_error == DOCA_SUCCESS) {
			d->first_error = err;
			d->error_offset = d->next_offset;
		}
		if (!more && d->in_flight == 0)
			break;
		if (doca_pe_progress(d->pe) != 0) {
			last_activity = now;
		} else if (now - last_activity > d->cfg.timeout_s) {
			demo_progress_finish(&bar, d->bytes_done);
			fprintf(stderr, "dpu: no DMA progress for %d s with %u tasks in flight; giving up\n",
				d->cfg.timeout_s, d->in_flight);
			exit(EXIT_FAILURE); /* tasks still in flight cannot be torn down cleanly */
		} else if (d->in_flight == 0) {
			demo_sleep_ms(1); /* held back by --rate-limit */
			last_activity = demo_now();
		}
		demo_progress_update(&bar, d->bytes_done);
	}
	d->transfer_seconds = demo_now() - start;
	demo_progress_finish(&bar, d->bytes_done);
	if (stop_requested && d->first_error == DOCA_SUCCESS && d->bytes_done < d->info.len)
		return DOCA_ERROR_AGAIN;
	return d->first_error;
}

/* ---- checking and reporting ------------------------------------------------------- */

static void explain_failure(struct dpu *d, doca_error_t err, char *verdict, size_t len)
{
	if (err == DOCA_ERROR_AGAIN) {
		fprintf(stderr, "dpu: interrupted after %.1f of %.1f MiB\n", (double)d->bytes_done / MIB,
			(double)d->info.len / MIB);
		snprintf(verdict, len, "failed interrupted on the DPU side");
		return;
	}
	fprintf(stderr, "dpu: DMA failed at offset %" PRIu64 " of %" PRIu64 " after %.1f MiB: %s (%s)\n",
		d->error_offset, d->info.len, (double)d->bytes_done / MIB, doca_error_get_name(err),
		doca_error_get_descr(err));
	if (err == DOCA_ERROR_IO_FAILED)
		fprintf(stderr, "dpu: the host side went away mid-transfer (its process exited, or it withdrew "
				"the export): the rest of its buffer cannot be read\n");
	snprintf(verdict, len, "failed DMA %s at offset %" PRIu64, doca_error_get_name(err), d->error_offset);
}

static bool check_digest(struct dpu *d, char *verdict, size_t len)
{
	uint8_t digest[DEMO_SHA256_BYTES];
	char hex[DEMO_SHA256_HEX_LEN + 1];
	double t0 = demo_now();

	demo_sha256(d->copy, d->info.len, digest);
	demo_sha256_hex(digest, hex);
	printf("dpu: SHA-256 of the received bytes  %s (%.2f s, %s)\n", hex, demo_now() - t0,
	       demo_sha256_implementation());
	printf("dpu: SHA-256 published by the host  %s\n", d->info.sha256_hex);
	if (strcmp(hex, d->info.sha256_hex) != 0) {
		fprintf(stderr, "dpu: SHA-256 MISMATCH: the received bytes differ from the host's buffer\n");
		snprintf(verdict, len, "failed SHA-256 mismatch (DPU got %s)", hex);
		return false;
	}
	printf("dpu: SHA-256 match: all %" PRIu64 " bytes arrived intact\n", d->info.len);
	snprintf(verdict, len, "ok sha256 %s, %" PRIu64 " bytes in %.3f s", hex, d->info.len, d->transfer_seconds);
	return true;
}

static void report_throughput(const struct dpu *d)
{
	double s = d->transfer_seconds > 0 ? d->transfer_seconds : 1e-9;

	printf("dpu: transfer: %.1f MiB in %.3f s = %.2f GB/s (%.0f MiB/s), %u DMA tasks\n",
	       (double)d->info.len / MIB, d->transfer_seconds, (double)d->info.len / s / 1e9,
	       (double)d->info.len / MIB / s, d->tasks_completed);
}

static void explain_mapping(const struct dpu *d)
{
	/* SOFTDOCA_PEER: the host runs in another namespace or machine (examples/run-demo.sh --two-namespaces). */
	const char *peer = getenv("SOFTDOCA_PEER");
	bool remote = peer != NULL && peer[0] != '\0';

	printf("\nWhat happened, and how it maps to a real BlueField:\n"
	       "  * The host process (pid %ld) exported its buffer for PCI access with\n"
	       "    doca_mmap_export_pci on %s, the host end of the PCI link. On a\n"
	       "    BlueField that lets the DPU reach host memory across PCIe.\n"
	       "  * This process played the DPU: it imported the descriptor with\n"
	       "    doca_mmap_create_from_export on the DPU-side device and ran DOCA DMA\n"
	       "    memcpy tasks from host memory into its own memory.\n"
	       "  * On hardware the DPU's DMA engine reads host memory without the host CPU.\n"
	       "%s"
	       "  * Both programs use only the public DOCA API; the same sources build\n"
	       "    against NVIDIA's DOCA SDK.\n",
	       d->info.host_pid, d->info.host_pci,
	       remote ? "    Here the host runs elsewhere (SOFTDOCA_PEER): softdoca's UCX transport\n"
			"    plays that engine, reading the host's memory with UCX get operations\n"
			"    inside doca_pe_progress of this process, while the host process only\n"
			"    waits (a library thread of it answers).\n"
		      : "    Here softdoca's cross-process engine plays that engine: it copies from\n"
			"    the host process's memory inside doca_pe_progress of this process,\n"
			"    while the host process only waits.\n");
}

/* ---- teardown ------------------------------------------------------------------------- */

/* Free tasks and buffers, then stop the context: it reaches IDLE once nothing is left. */
static void teardown(struct dpu *d)
{
	for (int i = 0; i < MAX_DEPTH; i++) {
		struct slot *s = &d->slots[i];

		if (s->task != NULL)
			doca_task_free(doca_dma_task_memcpy_as_task(s->task));
		if (s->src != NULL)
			(void)doca_buf_dec_refcount(s->src, NULL);
		if (s->dst != NULL)
			(void)doca_buf_dec_refcount(s->dst, NULL);
	}
	if (d->dma != NULL) {
		enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;
		double deadline = demo_now() + 5.0;

		if (doca_ctx_stop(doca_dma_as_ctx(d->dma)) == DOCA_ERROR_IN_PROGRESS) {
			do {
				(void)doca_pe_progress(d->pe);
				(void)doca_ctx_get_state(doca_dma_as_ctx(d->dma), &state);
			} while (state != DOCA_CTX_STATE_IDLE && demo_now() < deadline);
		}
		(void)doca_dma_destroy(d->dma);
	}
	if (d->pe != NULL)
		(void)doca_pe_destroy(d->pe);
	if (d->inv != NULL)
		(void)doca_buf_inventory_destroy(d->inv);
	if (d->local_mmap != NULL)
		(void)doca_mmap_destroy(d->local_mmap);
	if (d->remote_mmap != NULL)
		(void)doca_mmap_destroy(d->remote_mmap);
	if (d->dev != NULL)
		(void)doca_dev_close(d->dev);
	free(d->copy);
}

/* ---- main ---------------------------------------------------------------------------- */

static int run(struct dpu *d)
{
	char verdict[256] = "failed set-up on the DPU side";
	doca_error_t err;
	bool ok = false;

	/* Until the export is read there is no one to report back to. */
	if (receive_export(d) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	err = open_device(d);
	if (err == DOCA_SUCCESS)
		err = import_export(d);
	if (err == DOCA_SUCCESS)
		err = create_dma(d);
	if (err == DOCA_SUCCESS) {
		err = pull_buffer(d);
		if (err == DOCA_SUCCESS) {
			report_throughput(d);
			ok = check_digest(d, verdict, sizeof(verdict));
		} else {
			explain_failure(d, err, verdict, sizeof(verdict));
		}
	}
	if (ok)
		explain_mapping(d); /* before the host hears from us, so the two outputs do not interleave */
	if (demo_channel_report_done(d->cfg.path, verdict) != 0)
		fprintf(stderr, "dpu: could not write %s.done for the host\n", d->cfg.path);
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	static struct dpu d = {
		.cfg = {.pci = "03:00.0", .chunk = 4u << 20, .depth = 8, .timeout_s = 60},
	};
	struct sigaction sa = {.sa_handler = on_signal};
	int rc;

	demo_log_sdk_errors_to_stderr();
	if (doca_argp_init("softdoca_demo_dpu", &d.cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (register_flags() != DOCA_SUCCESS || doca_argp_start(argc, argv) != DOCA_SUCCESS) {
		(void)doca_argp_destroy();
		return EXIT_FAILURE;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

#ifdef DOCA_ARCH_DPU
	printf("dpu: DOCA %s, pid %ld, built in the DPU flavour (DOCA_ARCH_DPU)\n", doca_version_runtime(),
	       (long)getpid());
#else
	printf("dpu: DOCA %s, pid %ld, note: built in the host flavour; this program is meant for the DPU\n",
	       doca_version_runtime(), (long)getpid());
#endif
	rc = run(&d);
	teardown(&d);
	(void)doca_argp_destroy();
	return rc;
}
