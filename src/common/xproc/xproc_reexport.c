/*
 * xproc_reexport.c - an mmap imported over PCI, exported again for RDMA.
 *
 * On a card the DPU can hand host memory it reached over PCI to an RDMA
 * peer: the storage application's zero-copy path has the DPU import the
 * host's buffers and export them for RDMA, so the storage target's RDMA
 * reads and writes land in host memory without a copy on the DPU.  Here
 * the memory never leaves the host process either: the RDMA descriptor is
 * the host's own descriptor with the RDMA kind, so the RDMA peer's import
 * reaches the host's memory directly, by the path it would take for the
 * host's own RDMA export (shared mapping, process_vm_*, or UCX to the
 * host's endpoint), and the host's record decides liveness.  The rights
 * are the host mmap's: it must have granted the RDMA rights the peer uses.
 */
#include <stdlib.h>
#include <string.h>

#include "sd_dev.h"
#include "sd_log.h"
#include "sd_mem.h"
#include "sd_xproc.h"
#include "xproc_priv.h"

/* What an import keeps so that it can be exported again. */
struct sd_xp_reexport {
	struct sd_xp_desc desc;        /* the PCI descriptor the mmap was imported from */
	const struct sd_device *node;  /* device the RDMA bytes were made for, NULL before */
	size_t len;
	uint8_t bytes[SD_XP_DESC_MAX_LEN];
};

void sd_xp_reexport_keep(struct doca_mmap *mmap, const struct sd_xp_desc *d)
{
	struct sd_xp_reexport *r;

	if (d->kind != SD_XP_KIND_PCI)
		return; /* an RDMA import is never exported again */
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return; /* the re-export then answers NO_MEMORY */
	r->desc = *d;
	mmap->xproc_reexport = r;
}

void sd_xp_reexport_drop(struct doca_mmap *mmap)
{
	free(mmap->xproc_reexport);
	mmap->xproc_reexport = NULL;
}

doca_error_t sd_xproc_reexport_rdma(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				    const void **desc, size_t *desc_len)
{
	struct sd_xp_reexport *r = mmap->xproc_reexport;

	if (r == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY,
				    "mmap %p: the state to export this import again could not be allocated",
				    (void *)mmap);
	if (r->node != node) {
		struct sd_xp_desc d = r->desc;

		d.kind = SD_XP_KIND_RDMA;
		memset(d.dev_pci, 0, sizeof(d.dev_pci));
		memcpy(d.dev_pci, node->pci_addr, strnlen(node->pci_addr, sizeof(d.dev_pci) - 1));
		r->len = sd_xp_desc_encode(&d, r->bytes);
		r->node = node;
	}
	*desc = r->bytes;
	*desc_len = r->len;
	return DOCA_SUCCESS;
}
