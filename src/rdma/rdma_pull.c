/*
 * rdma_pull.c - the receiver pulls a message's bytes out of the sender.
 *
 * A slot names the sender's source list by address in the sender's
 * address space.  In this process that is a memcpy.  In another one the
 * receiver reads it with process_vm_readv (no work for the sender's CPU,
 * as a card's DMA engine reads a send's buffers), and where the kernel
 * filters those calls (seccomp) with pread on /proc/PID/mem, opened once
 * per connection: the same two system paths the DMA imports use, in the
 * same order, and SOFTDOCA_XPROC_PATH=vm or procmem keeps to one of them
 * as it does for imports.  The addresses come from the peer, so any of them may be
 * wrong: the kernel then answers EFAULT and the message fails; nothing is
 * ever dereferenced here on a peer's word.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rdma_pull.h"

static bool sd_rdma_pull_refused(int err)
{
	return err == EPERM || err == EACCES || err == ENOSYS;
}

static int sd_rdma_pull_open_mem(struct sd_rdma_puller *p)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%u/mem", p->pid);
	p->mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (p->mem_fd < 0)
		return errno == ENOENT ? ESRCH : errno;
	return 0;
}

/* One piece through /proc/PID/mem.  0 or errno. */
static int sd_rdma_pull_mem(struct sd_rdma_puller *p, uint8_t *to, uint64_t from, size_t n)
{
	if (p->mem_fd < 0) {
		int err = sd_rdma_pull_open_mem(p);
		if (err != 0)
			return err;
	}
	while (n != 0) {
		ssize_t got = pread(p->mem_fd, to, n, (off_t)from);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errno == EIO ? EFAULT : errno;
		if (got == 0)
			return ESRCH; /* the address space is gone */
		to += got;
		from += (uint64_t)got;
		n -= (size_t)got;
	}
	return 0;
}

/* One piece with process_vm_readv, falling back to /proc/PID/mem once for good.  0 or errno. */
static int sd_rdma_pull_piece(struct sd_rdma_puller *p, uint8_t *to, uint64_t from, size_t n)
{
	if (p->local) {
		memcpy(to, (const void *)(uintptr_t)from, n);
		return 0;
	}
	while (!p->use_mem && n != 0) {
		struct iovec l = {.iov_base = to, .iov_len = n};
		struct iovec r = {.iov_base = (void *)(uintptr_t)from, .iov_len = n};
		ssize_t got = process_vm_readv((pid_t)p->pid, &l, 1, &r, 1, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && sd_rdma_pull_refused(errno) && !p->vm_only) {
			p->use_mem = true;
			break;
		}
		if (got <= 0)
			return got == 0 ? EFAULT : errno;
		to += got;
		from += (uint64_t)got;
		n -= (size_t)got;
	}
	return n == 0 ? 0 : sd_rdma_pull_mem(p, to, from, n);
}

int sd_rdma_pull(struct sd_rdma_puller *p, const struct sd_rdma_seg *seg, uint32_t nseg, struct sd_rdma_cursor *c)
{
	for (uint32_t i = 0; i < nseg; i++) {
		uint64_t from = seg[i].addr, left = seg[i].len;
		uint8_t *at;
		size_t k;
		while (left != 0 && (k = sd_rdma_cursor_span(c, left, &at)) != 0) {
			int err = sd_rdma_pull_piece(p, at, from, k);
			if (err != 0)
				return err;
			from += k;
			left -= k;
		}
		if (left != 0)
			return ENOSPC; /* checked before the copy; a defence only */
	}
	return 0;
}

void sd_rdma_puller_init(struct sd_rdma_puller *p, uint32_t pid)
{
	const char *path = getenv("SOFTDOCA_XPROC_PATH");

	p->pid = pid;
	p->local = pid == (uint32_t)getpid();
	p->mem_fd = -1;
	p->use_mem = path != NULL && strcmp(path, "procmem") == 0;
	p->vm_only = path != NULL && strcmp(path, "vm") == 0;
}

void sd_rdma_puller_close(struct sd_rdma_puller *p)
{
	if (p->mem_fd >= 0)
		close(p->mem_fd);
	p->mem_fd = -1;
}
