/*
 * sd_xproc.h - the cross-process layer as the memory layer sees it.
 *
 * src/common/xproc turns a started local mmap into export descriptors and
 * a descriptor back into an imported mmap whose bytes are reached through
 * `struct sd_mem_remote_ops` (sd_mem.h).  Functions here are hidden inside
 * libdoca_common; `func` is the public entry point that reports failures
 * (one ERROR record each).
 */
#ifndef SD_XPROC_H
#define SD_XPROC_H

#include <stddef.h>

#include <doca_error.h>

struct doca_mmap;
struct sd_device;

/*
 * Descriptor of started local `mmap` for peers reaching it through device
 * `node`.  The bytes stay valid until the mmap stops or is destroyed; the
 * same device gets the same bytes again.
 */
doca_error_t sd_xproc_export_pci(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				 const void **desc, size_t *desc_len);

/*
 * The same for a peer reaching the map over RDMA (doca_mmap_export_rdma):
 * the descriptor carries the RDMA rights of the map, and an import of it
 * serves DOCA RDMA tasks only, never DMA.
 */
doca_error_t sd_xproc_export_rdma(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				  const void **desc, size_t *desc_len);

/*
 * The RDMA descriptor of `mmap`, which was imported from a PCI descriptor:
 * the original exporter's memory and rights under the RDMA kind, made for
 * device `node` (xproc_reexport.c).  Valid until the import is destroyed.
 */
doca_error_t sd_xproc_reexport_rdma(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				    const void **desc, size_t *desc_len);

/* The mmap stops or is destroyed: every importer is cut off, every descriptor freed. */
void sd_xproc_export_revoke(struct doca_mmap *mmap);

/*
 * Check `desc` without touching the mmap: INVALID_VALUE
 * when malformed, NOT_SUPPORTED when from another machine or PID
 * namespace.  On success *kind is the descriptor's sd_export_kind.
 */
doca_error_t sd_xproc_import_check(const char *func, const void *desc, size_t desc_len, unsigned *kind);

/*
 * Fill imported `mmap` (already zeroed by the caller) from `desc`: range,
 * access mask, remote hooks.  INVALID_VALUE when the exporter is gone,
 * NOT_PERMITTED when the kernel refuses every way to reach it, NO_MEMORY.
 */
doca_error_t sd_xproc_import(const char *func, struct doca_mmap *mmap, const void *desc, size_t desc_len);

/* Release the import state of `mmap` (destroy of an imported mmap). */
void sd_xproc_import_close(struct doca_mmap *mmap);

#endif /* SD_XPROC_H */
