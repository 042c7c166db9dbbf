/*
 * demo_channel.h - how the two sides of the demo talk: one file (or named
 * pipe) from host to DPU, one "done" file back.
 *
 * On a BlueField the host application would send the export descriptor to
 * the DPU over DOCA Comch or a socket; the official dma_copy samples use a
 * file.  The demo uses a file too:
 *
 *   host -> DPU   <path>       what the DPU needs to import the host buffer:
 *                              the descriptor bytes from doca_mmap_export_pci,
 *                              the buffer's address and length (in the host's
 *                              address space) and the SHA-256 of its content
 *   DPU -> host   <path>.done  one line: "ok <sha256> ..." or "failed <why>"
 *
 * <path> may be a regular file (written to a temporary name, then renamed,
 * so the reader never sees half of it) or a FIFO made with mkfifo.  The
 * format of <path>: text lines "key value", the last one "descriptor N",
 * followed by exactly N descriptor bytes.
 */
#ifndef DEMO_CHANNEL_H
#define DEMO_CHANNEL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "demo_sha256.h"

#define DEMO_DESC_MAX 4096
#define DEMO_WHY_LEN 256

struct demo_export_info {
	long host_pid;			     /* for the reader's messages */
	char host_pci[32];		     /* device the host exported through */
	uint64_t addr;			     /* buffer address, host address space */
	uint64_t len;			     /* buffer length in bytes */
	char sha256_hex[DEMO_SHA256_HEX_LEN + 1]; /* SHA-256 of the buffer */
	size_t desc_len;
	uint8_t desc[DEMO_DESC_MAX];
};

enum demo_wait {
	DEMO_WAIT_OK,
	DEMO_WAIT_TIMEOUT,     /* nothing came in time */
	DEMO_WAIT_FAILED,      /* I/O error or malformed content; see why */
	DEMO_WAIT_INTERRUPTED, /* *stop became non-zero */
};

/* Host: publish info at path (a FIFO waits for a reader); why explains a failure. */
enum demo_wait demo_channel_publish(const char *path, const struct demo_export_info *info, double timeout_s,
				    volatile sig_atomic_t *stop, char why[DEMO_WHY_LEN]);

/* DPU: wait for path to appear and read info from it. */
enum demo_wait demo_channel_receive(const char *path, struct demo_export_info *info, double timeout_s,
				    volatile sig_atomic_t *stop, char why[DEMO_WHY_LEN]);

/* DPU: write the one-line verdict to <path>.done; 0 on success. */
int demo_channel_report_done(const char *path, const char *verdict);

/* Host: wait for <path>.done and copy its line (without the newline) into verdict. */
enum demo_wait demo_channel_wait_done(const char *path, char *verdict, size_t verdict_len, double timeout_s,
				      volatile sig_atomic_t *stop, char why[DEMO_WHY_LEN]);

/* Host: remove <path> (unless it is a FIFO) and <path>.done. */
void demo_channel_cleanup(const char *path);

#endif /* DEMO_CHANNEL_H */
