/*
 * rdma_pull.h - how a receiver reads the bytes of a message out of the
 * sending process (rdma_pull.c).
 */
#ifndef SD_RDMA_PULL_H
#define SD_RDMA_PULL_H

#include <stdbool.h>
#include <stdint.h>

#include "rdma_buf.h"
#include "rdma_ring.h"

/* The sender a connection pulls from, and the fallback descriptor it opened. */
struct sd_rdma_puller {
	uint32_t pid;
	int mem_fd;   /* /proc/PID/mem, -1 until the vm calls are refused */
	bool use_mem; /* the kernel refused process_vm_readv once (or SOFTDOCA_XPROC_PATH=procmem): use mem_fd */
	bool vm_only; /* SOFTDOCA_XPROC_PATH=vm: no fallback */
	bool local;   /* the sender is this process: a plain copy (checked once, not per message) */
};

void sd_rdma_puller_init(struct sd_rdma_puller *p, uint32_t pid);
void sd_rdma_puller_close(struct sd_rdma_puller *p);

/*
 * Copy the `nseg` pieces of the sender's memory into the free space that
 * cursor `c` walks.  0, or the errno that stopped it: ESRCH when the
 * sender is gone, EFAULT for an address it does not map, another errno
 * when the kernel refuses every path.
 */
int sd_rdma_pull(struct sd_rdma_puller *p, const struct sd_rdma_seg *seg, uint32_t nseg, struct sd_rdma_cursor *c);

#endif /* SD_RDMA_PULL_H */
