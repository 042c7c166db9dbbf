/*
 * dmatest_remote.h - shared arenas and the exporting child of
 * `dmatest --remote KIND` (dmatest_remote.c).
 */
#ifndef DMATEST_REMOTE_H
#define DMATEST_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REMOTE_MAX_REGIONS 4
#define REMOTE_DESC_MAX 512

struct remote_region {
	void *addr;
	size_t len;
	uint32_t perms; /* DOCA_ACCESS_FLAG_PCI_READ_ONLY or _READ_WRITE */
};

/* KIND is memfd, shm or heap. */
bool remote_kind_valid(const char *kind);

/* `len` bytes the child will see at the same address (call before remote_start). */
void *remote_alloc(const char *kind, size_t len);
void remote_free(void *p, size_t len);

/*
 * Fork the child (before any library call of this process), which exports
 * every region through the host device; its descriptors land in desc.
 */
bool remote_start(const struct remote_region *r, int n, uint8_t desc[][REMOTE_DESC_MAX], size_t *desc_len);

/* Tell the child to unexport and exit; true when it exited cleanly. */
bool remote_finish(void);

#endif /* DMATEST_REMOTE_H */
