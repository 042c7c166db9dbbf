/*
 * xproc_test.h - helpers of the cross-process tests: SDK log capture, a
 * DMA context that runs one memcpy at a time, the byte pattern both sides
 * agree on, and a peer process (xproc_peer) driven over pipes.
 */
#ifndef XPROC_TEST_H
#define XPROC_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "sd_devices.h"
#include "sd_test.h"

#define XT_DPU_PCI "0000:03:00.0"
#define XT_HOST_PCI "0000:b1:00.0"

/* The byte at offset `i` of a region filled with `seed`. */
static inline uint8_t xt_pat(uint32_t seed, uint64_t i)
{
	uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed << 17);
	x ^= x >> 29;
	return (uint8_t)(x ^ (x >> 11));
}

static inline void xt_fill(uint8_t *p, size_t len, uint32_t seed, uint64_t first)
{
	for (size_t i = 0; i < len; i++)
		p[i] = xt_pat(seed, first + i);
}

/* Offset of the first byte that differs from the pattern, or -1. */
static inline long xt_verify(const uint8_t *p, size_t len, uint32_t seed, uint64_t first)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != xt_pat(seed, first + i))
			return (long)i;
	return -1;
}

static inline double xt_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * SDK log capture: every record at DEBUG and above is kept in a rolling
 * text; ERROR and WARNING records are counted.
 */
static char xt_log_buf[8192];
static char xt_log_text[65536];
static char xt_last_err[8192];
static int xt_errors, xt_warnings;

static void xt_log_record(char *rec)
{
	size_t have = strlen(xt_log_text), add = strlen(rec);
	if (have + add + 1 >= sizeof(xt_log_text)) {
		xt_log_text[0] = '\0';
		have = 0;
	}
	if (add + 1 < sizeof(xt_log_text))
		memcpy(xt_log_text + have, rec, add + 1);
	if (strstr(rec, "][ERR][") != NULL) {
		xt_errors++;
		snprintf(xt_last_err, sizeof(xt_last_err), "%s", rec);
	} else if (strstr(rec, "][WRN][") != NULL) {
		xt_warnings++;
	}
}

static inline void xt_capture_log(void)
{
	struct doca_log_backend *b = NULL;
	if (doca_log_backend_create_with_buf_sdk(xt_log_buf, sizeof(xt_log_buf), xt_log_record, &b) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_DEBUG) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot install the SDK log capture\n");
		exit(1);
	}
}

static inline void xt_log_reset(void)
{
	xt_log_text[0] = '\0';
	xt_last_err[0] = '\0';
	xt_errors = xt_warnings = 0;
}

static inline bool xt_log_has(const char *needle)
{
	return strstr(xt_log_text, needle) != NULL;
}

/* `expr` fails with `want` and logs exactly one ERROR record naming `fn`. */
#define XT_REJECT(expr, want, fn)                                                                  \
	do {                                                                                       \
		xt_log_reset();                                                                    \
		CHECK_ERR(expr, want);                                                             \
		if (xt_errors != 1 || strstr(xt_last_err, fn) == NULL) {                           \
			fprintf(stderr, "%s:%d: [%s] %s: %d ERROR records (expected 1 naming %s): %s\n", \
				__FILE__, __LINE__, sd_test_case_name, #expr, xt_errors, fn,       \
				xt_last_err);                                                      \
			sd_test_case_failed = 1;                                                   \
		}                                                                                  \
	} while (0)

/* `expr` succeeds without any ERROR or WARNING record. */
#define XT_QUIET_OK(expr)                                                                          \
	do {                                                                                       \
		xt_log_reset();                                                                    \
		CHECK_OK(expr);                                                                    \
		if (xt_errors + xt_warnings != 0) {                                                \
			fprintf(stderr, "%s:%d: [%s] %s succeeded but logged: %s\n", __FILE__,     \
				__LINE__, sd_test_case_name, #expr, xt_last_err);                  \
			sd_test_case_failed = 1;                                                   \
		}                                                                                  \
	} while (0)

/* A started local mmap over [mem, mem + len) with `perms`, or NULL. */
static inline struct doca_mmap *xt_local_mmap(struct doca_dev *dev, void *mem, size_t len, uint32_t perms)
{
	struct doca_mmap *m = NULL;
	if (doca_mmap_create(&m) != DOCA_SUCCESS)
		return NULL;
	if (doca_mmap_add_dev(m, dev) != DOCA_SUCCESS || doca_mmap_set_memrange(m, mem, len) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(m, perms) != DOCA_SUCCESS || doca_mmap_start(m) != DOCA_SUCCESS) {
		doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}

/*
 * A DMA context on one device, driven synchronously: xt_dma_copy submits
 * one task and progresses until its callback ran.
 */
struct xt_dma {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_buf_inventory *inv;
	int done;
	doca_error_t status;
};

static void xt_task_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct xt_dma *x = ctx_ud.ptr;
	x->status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	x->done = 1;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static inline bool xt_dma_start(struct xt_dma *x, struct doca_dev *dev, uint32_t nbufs)
{
	union doca_data ud = {.ptr = x};

	memset(x, 0, sizeof(*x));
	x->dev = dev;
	return doca_buf_inventory_create(nbufs, &x->inv) == DOCA_SUCCESS &&
	       doca_buf_inventory_start(x->inv) == DOCA_SUCCESS && doca_pe_create(&x->pe) == DOCA_SUCCESS &&
	       doca_dma_create(dev, &x->dma) == DOCA_SUCCESS && (x->ctx = doca_dma_as_ctx(x->dma)) != NULL &&
	       doca_ctx_set_user_data(x->ctx, ud) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_set_conf(x->dma, xt_task_cb, xt_task_cb, 16) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(x->pe, x->ctx) == DOCA_SUCCESS && doca_ctx_start(x->ctx) == DOCA_SUCCESS;
}

/* Bring a context that stopped itself after a failed task back to RUNNING. */
static inline void xt_dma_revive(struct xt_dma *x)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	doca_ctx_get_state(x->ctx, &st);
	for (int i = 0; i < 100000 && st != DOCA_CTX_STATE_IDLE && st != DOCA_CTX_STATE_RUNNING; i++) {
		doca_pe_progress(x->pe);
		doca_ctx_get_state(x->ctx, &st);
	}
	if (st == DOCA_CTX_STATE_IDLE)
		doca_ctx_start(x->ctx);
}

/* Run one memcpy from `src` to `dst`; its completion status. */
static inline doca_error_t xt_dma_copy(struct xt_dma *x, struct doca_buf *src, struct doca_buf *dst)
{
	struct doca_dma_task_memcpy *task = NULL;
	union doca_data ud = {.u64 = 0};
	doca_error_t err = doca_dma_task_memcpy_alloc_init(x->dma, src, dst, ud, &task);

	if (err != DOCA_SUCCESS)
		return err;
	x->done = 0;
	err = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	if (err != DOCA_SUCCESS) {
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		return err;
	}
	for (long i = 0; !x->done && i < 100000000L; i++)
		doca_pe_progress(x->pe);
	if (!x->done)
		return DOCA_ERROR_TIME_OUT;
	if (x->status != DOCA_SUCCESS)
		xt_dma_revive(x);
	return x->status;
}

/* doca_task_try_submit of one memcpy; the task is freed again. */
static inline doca_error_t xt_dma_try(struct xt_dma *x, struct doca_buf *src, struct doca_buf *dst)
{
	struct doca_dma_task_memcpy *task = NULL;
	union doca_data ud = {.u64 = 0};
	doca_error_t err = doca_dma_task_memcpy_alloc_init(x->dma, src, dst, ud, &task);

	if (err != DOCA_SUCCESS)
		return err;
	x->done = 0;
	err = doca_task_try_submit(doca_dma_task_memcpy_as_task(task));
	if (err != DOCA_SUCCESS) {
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		return err;
	}
	for (long i = 0; !x->done && i < 100000000L; i++)
		doca_pe_progress(x->pe);
	return x->status;
}

static inline void xt_dma_stop(struct xt_dma *x)
{
	if (x->ctx != NULL) {
		doca_ctx_stop(x->ctx);
		xt_dma_revive(x); /* drains to IDLE; a stopped context is not restarted by IDLE->start here */
		doca_ctx_stop(x->ctx);
	}
	if (x->dma != NULL)
		doca_dma_destroy(x->dma);
	if (x->pe != NULL)
		doca_pe_destroy(x->pe);
	if (x->inv != NULL) {
		doca_buf_inventory_stop(x->inv);
		doca_buf_inventory_destroy(x->inv);
	}
	memset(x, 0, sizeof(*x));
}

/* Source buffer over [addr, addr + len) of `m`, data = whole buffer. */
static inline struct doca_buf *xt_src(struct xt_dma *x, struct doca_mmap *m, uint64_t addr, size_t len)
{
	struct doca_buf *b = NULL;
	if (doca_buf_inventory_buf_get_by_data(x->inv, m, (void *)(uintptr_t)addr, len, &b) != DOCA_SUCCESS)
		return NULL;
	return b;
}

/* Empty destination buffer over [addr, addr + len) of `m`. */
static inline struct doca_buf *xt_dst(struct xt_dma *x, struct doca_mmap *m, uint64_t addr, size_t len)
{
	struct doca_buf *b = NULL;
	if (doca_buf_inventory_buf_get_by_addr(x->inv, m, (void *)(uintptr_t)addr, len, &b) != DOCA_SUCCESS)
		return NULL;
	return b;
}

/* Read a whole small file; its length, or -1. */
static inline long xt_read_file(const char *path, void *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	long n;
	if (f == NULL)
		return -1;
	n = (long)fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* DIR/name, read whole (small files): its length, or -1. */
static inline long xt_read_file_in(const char *dir, const char *name, void *buf, size_t cap)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return xt_read_file(path, buf, cap);
}

/* Write DIR/name through a temporary file, so that a reader never sees half of it. */
static inline bool xt_write_file_in(const char *dir, const char *name, const void *p, size_t len)
{
	char path[512], tmp[520];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (f == NULL)
		return false;
	ok = fwrite(p, 1, len, f) == len;
	return fclose(f) == 0 && ok && rename(tmp, path) == 0;
}

/*
 * A peer process (tests/xproc/xproc_peer) with its stdin and stdout on
 * pipes: one command line out, one reply line back.
 */
struct xt_peer {
	pid_t pid;
	FILE *to, *from;
	char desc_path[256];
	uint64_t addr, len;
	int exporter_pid; /* the process that exported (differs from pid with --daemon) */
	uint8_t desc[512];
	size_t desc_len;
};

static const char *xt_peer_exe; /* set by main from argv[1] */

static inline bool xt_peer_spawn(struct xt_peer *p, const char *const *args)
{
	int in[2], out[2];
	const char *argv[32];
	int n = 0;

	memset(p, 0, sizeof(*p));
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		return false;
	argv[n++] = xt_peer_exe;
	for (int i = 0; args[i] != NULL && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0)
		return false;
	if (p->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execv(xt_peer_exe, (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	p->to = fdopen(in[1], "w");
	p->from = fdopen(out[0], "r");
	return p->to != NULL && p->from != NULL;
}

/* Send `cmd`, read one reply line into `reply`.  False when the peer is gone. */
static inline bool xt_peer_cmd(struct xt_peer *p, const char *cmd, char *reply, size_t n)
{
	if (cmd != NULL && (fprintf(p->to, "%s\n", cmd) < 0 || fflush(p->to) != 0))
		return false;
	if (fgets(reply, (int)n, p->from) == NULL)
		return false;
	reply[strcspn(reply, "\n")] = '\0';
	return true;
}

/* Send `cmd` without waiting for the reply. */
static inline void xt_peer_send(struct xt_peer *p, const char *cmd)
{
	fprintf(p->to, "%s\n", cmd);
	fflush(p->to);
}

/*
 * Start an exporter: `mem` heap|memfd|shm, `perm` ro|rw, on device `pci`.
 * Reads back its descriptor file and range.
 */
static inline bool xt_exporter_start(struct xt_peer *p, const char *mem, const char *perm, const char *pci,
				     size_t size, uint32_t seed, const char *const *extra)
{
	char size_s[32], seed_s[32], desc_path[256], reply[256];
	const char *args[24] = {"export", "--mem", mem, "--perm", perm, "--dev", pci, "--size", size_s, "--seed", seed_s,
				"--desc", desc_path};
	int n = 13;
	static int counter;

	snprintf(size_s, sizeof(size_s), "%zu", size);
	snprintf(seed_s, sizeof(seed_s), "%u", seed);
	snprintf(desc_path, sizeof(desc_path), "/tmp/xproc-test-%d-%d.desc", (int)getpid(), counter++);
	for (int i = 0; extra != NULL && extra[i] != NULL && n < 23; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	if (!xt_peer_spawn(p, args))
		return false;
	snprintf(p->desc_path, sizeof(p->desc_path), "%s", desc_path);
	if (!xt_peer_cmd(p, NULL, reply, sizeof(reply)))
		return false;
	unsigned long long a, l;
	if (sscanf(reply, "ready %llx %llu %d", &a, &l, &p->exporter_pid) != 3) {
		fprintf(stderr, "exporter said: %s\n", reply);
		return false;
	}
	p->addr = a;
	p->len = l;
	long got = xt_read_file(desc_path, p->desc, sizeof(p->desc));
	if (got <= 0)
		return false;
	p->desc_len = (size_t)got;
	return true;
}

/* Re-read the descriptor file (after the peer exported again). */
static inline bool xt_peer_reload_desc(struct xt_peer *p)
{
	long got = xt_read_file(p->desc_path, p->desc, sizeof(p->desc));
	if (got <= 0)
		return false;
	p->desc_len = (size_t)got;
	return true;
}

/* Close the pipes and reap the peer; its exit status (or -signal). */
static inline int xt_peer_finish(struct xt_peer *p)
{
	int st = 0;
	if (p->to != NULL)
		fclose(p->to);
	if (p->from != NULL)
		fclose(p->from);
	p->to = p->from = NULL;
	if (p->pid > 0 && waitpid(p->pid, &st, 0) == p->pid) {
		p->pid = 0;
		if (p->desc_path[0] != '\0')
			unlink(p->desc_path);
		return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
	}
	return -1000;
}

#endif /* XPROC_TEST_H */
