/*
 * bench_common.h - what the bench programs share: opening the emulated
 * device at a PCI address and a started local mmap.  Public DOCA API only,
 * as an application would do it.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_mmap.h>

/* Open the device at `pci` ("0000:b1:00.0"); NULL when there is none. */
struct doca_dev *bench_open_dev(const char *pci);

/* A started mmap over [mem, mem + len) on `dev` with `perms`; NULL on failure. */
struct doca_mmap *bench_local_mmap(struct doca_dev *dev, void *mem, size_t len, uint32_t perms);

#endif /* BENCH_COMMON_H */
