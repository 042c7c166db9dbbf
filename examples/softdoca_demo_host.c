/*
 * softdoca_demo_host.c - the host half of the demo: a buffer the DPU pulls
 * over DMA.
 *
 * On a BlueField system this program runs on the host (x86 server).  It
 *
 *   1. fills a buffer with file-like content (deterministic pseudo-random
 *      bytes, 256 MiB by default) and computes its SHA-256;
 *   2. opens its side of the PCI link, the host function 0000:b1:00.0;
 *   3. describes the buffer with a doca_mmap that the PCI peer may read
 *      (DOCA_ACCESS_FLAG_PCI_READ_ONLY) and exports it with
 *      doca_mmap_export_pci: the descriptor is a few bytes that let the DPU
 *      reach this memory;
 *   4. publishes descriptor, buffer address, length and SHA-256 in a file
 *      (or a FIFO) for the DPU side, softdoca_demo_dpu;
 *   5. waits until the DPU says it is done, then tears everything down.
 *
 * The host CPU does no work for the transfer itself: on hardware the DPU's
 * DMA engine reads this memory across PCIe.  The program is built in the
 * host flavour (pkg-config directory <libdir>/pkgconfig, DOCA_ARCH_HOST).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_version.h>

#include "demo_channel.h"
#include "demo_sha256.h"
#include "demo_util.h"

struct host_config {
	uint64_t size;
	char pci[64];
	char path[1024];
	int timeout_s; /* how long to wait for the DPU */
	uint64_t seed;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int signo)
{
	(void)signo;
	stop_requested = 1;
}

/* ---- flags ------------------------------------------------------------------- */

static doca_error_t size_cb(void *value, void *config)
{
	struct host_config *cfg = config;

	if (demo_parse_size(value, &cfg->size) != 0) {
		fprintf(stderr, "--size: \"%s\" is not a size (examples: 256M, 64K, 1G, 1048576)\n", (char *)value);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t pci_cb(void *value, void *config)
{
	struct host_config *cfg = config;

	snprintf(cfg->pci, sizeof(cfg->pci), "%s", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t file_cb(void *value, void *config)
{
	struct host_config *cfg = config;

	if (snprintf(cfg->path, sizeof(cfg->path), "%s", (char *)value) >= (int)sizeof(cfg->path))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

static doca_error_t timeout_cb(void *value, void *config)
{
	struct host_config *cfg = config;

	cfg->timeout_s = *(int *)value;
	if (cfg->timeout_s <= 0) {
		fprintf(stderr, "--timeout must be a positive number of seconds\n");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t seed_cb(void *value, void *config)
{
	struct host_config *cfg = config;

	cfg->seed = (uint64_t)(unsigned int)*(int *)value;
	return DOCA_SUCCESS;
}

static doca_error_t register_flags(void)
{
	doca_error_t err;

	err = demo_add_flag("f", "file", "<path>",
		       "where to publish the export for the DPU side (a file, or a FIFO made with mkfifo)",
		       DOCA_ARGP_TYPE_STRING, file_cb, true);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag("s", "size", "<size>", "buffer size, K/M/G suffixes allowed (default 256M)",
			       DOCA_ARGP_TYPE_STRING, size_cb, false);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag("p", "pci-addr", "<addr>", "host-side device to export through (default b1:00.0)",
			       DOCA_ARGP_TYPE_STRING, pci_cb, false);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag("t", "timeout", "<seconds>", "how long to wait for the DPU side (default 60)",
			       DOCA_ARGP_TYPE_INT, timeout_cb, false);
	if (err == DOCA_SUCCESS)
		err = demo_add_flag(NULL, "seed", "<n>", "seed of the buffer's pseudo-random content (default 1)",
			       DOCA_ARGP_TYPE_INT, seed_cb, false);
	return err;
}

/* ---- the buffer ------------------------------------------------------------------ */

/* splitmix64: a fast generator whose output looks random; the same seed gives the same bytes. */
static void fill_pseudo_random(uint8_t *buf, uint64_t len, uint64_t seed)
{
	uint64_t state = seed * 0x9e3779b97f4a7c15ull;
	uint64_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t z = (state += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		memcpy(buf + i, &z, 8);
	}
	for (; i < len; i++)
		buf[i] = (uint8_t)(i * 131 + seed);
}

/* ---- export ------------------------------------------------------------------------ */

struct host {
	struct host_config cfg;
	uint8_t *buf;
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	struct demo_export_info info;
};

static doca_error_t can_export(const struct doca_devinfo *devinfo)
{
	uint8_t supported = 0;
	doca_error_t err = doca_mmap_cap_is_export_pci_supported(devinfo, &supported);

	if (err == DOCA_SUCCESS && !supported)
		err = DOCA_ERROR_NOT_SUPPORTED;
	return err;
}

#define STEP(call)                                                                                  \
	do {                                                                                        \
		doca_error_t step_err_ = (call);                                                    \
		if (step_err_ != DOCA_SUCCESS) {                                                    \
			fprintf(stderr, "host: %s failed: %s\n", #call, doca_error_get_descr(step_err_)); \
			return step_err_;                                                           \
		}                                                                                   \
	} while (0)

static doca_error_t export_buffer(struct host *h)
{
	const void *desc;
	size_t desc_len;
	char why[DEMO_WHY_LEN];

	if (demo_open_device(h->cfg.pci, can_export, &h->dev, why, sizeof(why)) != DOCA_SUCCESS) {
		fprintf(stderr, "host: %s\n", why);
		return DOCA_ERROR_NOT_FOUND;
	}
	STEP(doca_devinfo_get_pci_addr_str(doca_dev_as_devinfo(h->dev), h->info.host_pci));
	STEP(doca_mmap_create(&h->mmap));
	STEP(doca_mmap_set_memrange(h->mmap, h->buf, h->cfg.size));
	STEP(doca_mmap_add_dev(h->mmap, h->dev));
	/* The DPU may read this memory over PCIe, and nothing more. */
	STEP(doca_mmap_set_permissions(h->mmap, DOCA_ACCESS_FLAG_PCI_READ_ONLY));
	STEP(doca_mmap_start(h->mmap));
	STEP(doca_mmap_export_pci(h->mmap, h->dev, &desc, &desc_len));
	if (desc_len > sizeof(h->info.desc)) {
		fprintf(stderr, "host: the export descriptor has %zu bytes, more than the demo carries\n", desc_len);
		return DOCA_ERROR_TOO_BIG;
	}
	memcpy(h->info.desc, desc, desc_len);
	h->info.desc_len = desc_len;
	h->info.host_pid = (long)getpid();
	h->info.addr = (uint64_t)(uintptr_t)h->buf;
	h->info.len = h->cfg.size;
	printf("host: exported the buffer through %s with doca_mmap_export_pci (PCI read-only): "
	       "a %zu-byte descriptor\n",
	       h->info.host_pci, desc_len);
	return DOCA_SUCCESS;
}

static void teardown(struct host *h)
{
	if (h->mmap != NULL) {
		(void)doca_mmap_stop(h->mmap);
		(void)doca_mmap_destroy(h->mmap);
	}
	if (h->dev != NULL)
		(void)doca_dev_close(h->dev);
	free(h->buf);
}

/* ---- the run ------------------------------------------------------------------------ */

static int prepare_buffer(struct host *h)
{
	uint8_t digest[DEMO_SHA256_BYTES];
	double t0 = demo_now();

	h->buf = aligned_alloc(4096, (h->cfg.size + 4095) / 4096 * 4096);
	if (h->buf == NULL) {
		fprintf(stderr, "host: cannot allocate %" PRIu64 " bytes\n", h->cfg.size);
		return -1;
	}
	fill_pseudo_random(h->buf, h->cfg.size, h->cfg.seed);
	demo_sha256(h->buf, h->cfg.size, digest);
	demo_sha256_hex(digest, h->info.sha256_hex);
	printf("host: filled a %.1f MiB buffer with pseudo-random content (seed %" PRIu64 ") in %.2f s\n",
	       (double)h->cfg.size / MIB, h->cfg.seed, demo_now() - t0);
	printf("host: SHA-256 %s\n", h->info.sha256_hex);
	return 0;
}

static int publish_and_wait(struct host *h)
{
	char why[DEMO_WHY_LEN] = "";
	char verdict[512];
	enum demo_wait w;

	w = demo_channel_publish(h->cfg.path, &h->info, h->cfg.timeout_s, &stop_requested, why);
	if (w == DEMO_WAIT_OK) {
		printf("host: wrote descriptor, address, length and SHA-256 to %s\n", h->cfg.path);
		printf("host: waiting for the DPU side (up to %d s); this CPU does nothing for the transfer\n",
		       h->cfg.timeout_s);
		fflush(stdout);
		w = demo_channel_wait_done(h->cfg.path, verdict, sizeof(verdict), h->cfg.timeout_s, &stop_requested,
					   why);
	}
	switch (w) {
	case DEMO_WAIT_OK:
		break;
	case DEMO_WAIT_TIMEOUT:
		fprintf(stderr, "host: no word from the DPU side within %d s; giving up\n", h->cfg.timeout_s);
		return -1;
	case DEMO_WAIT_INTERRUPTED:
		fprintf(stderr, "host: interrupted; withdrawing the export\n");
		return -1;
	case DEMO_WAIT_FAILED:
		fprintf(stderr, "host: %s\n", why);
		return -1;
	}
	if (strncmp(verdict, "ok", 2) != 0) {
		fprintf(stderr, "host: the DPU side reports a failure: %s\n", verdict);
		return -1;
	}
	printf("host: the DPU side reports: %s\n", verdict);
	return 0;
}

int main(int argc, char **argv)
{
	struct host h = {.cfg = {.size = 256ull << 20, .pci = "b1:00.0", .timeout_s = 60, .seed = 1}};
	struct sigaction sa = {.sa_handler = on_signal};
	int rc = EXIT_FAILURE;

	demo_log_sdk_errors_to_stderr();
	if (doca_argp_init("softdoca_demo_host", &h.cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (register_flags() != DOCA_SUCCESS || doca_argp_start(argc, argv) != DOCA_SUCCESS) {
		(void)doca_argp_destroy();
		return EXIT_FAILURE;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);

#ifdef DOCA_ARCH_DPU
	printf("host: note: built in the DPU flavour; the host program is meant for the host flavour\n");
#endif
	printf("host: DOCA %s, pid %ld\n", doca_version_runtime(), (long)getpid());
	if (prepare_buffer(&h) == 0 && export_buffer(&h) == DOCA_SUCCESS && publish_and_wait(&h) == 0)
		rc = EXIT_SUCCESS;
	demo_channel_cleanup(h.cfg.path);
	teardown(&h);
	(void)doca_argp_destroy();
	printf("host: %s\n", rc == EXIT_SUCCESS ? "export withdrawn, buffer freed, done" : "failed");
	return rc;
}
