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
 *
 * The DPU keeps a say too, as a card's DPU owns the key it handed out: the
 * re-export makes a validity record of this process (a relay record, like
 * an exporter's) and names it in the descriptor, which carries a fresh
 * token of this process (the relay token) in place of the host's.  The
 * record holds that token and the host export's id, generation and token;
 * an importer that shows the relay token gets the host's token from the
 * record, so a copy edited to drop the relay's name reaches nothing (its
 * token is no host export's).  An importer on this
 * machine checks it with the host's at every access, so destroying the PCI
 * import here (which retires the record) cuts the RDMA peer off at its next
 * task, which fails with DOCA_ERROR_IO_FAILED.  An importer over UCX (in
 * another namespace or on another machine) names the record to the host's
 * export server, which is on this machine and watches it for that peer
 * (ucx_server.c): the peer is cut off within a few milliseconds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	struct sd_xp_export relay;     /* this process's record for the re-export; relay.rec NULL before */
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
	r->relay.record_fd = -1;
	r->relay.shared_fd = -1;
	mmap->xproc_reexport = r;
}

void sd_xp_reexport_drop(struct doca_mmap *mmap)
{
	struct sd_xp_reexport *r = mmap->xproc_reexport;

	if (r != NULL && r->relay.rec != NULL)
		sd_xp_registry_remove(&r->relay);
	if (r != NULL)
		sd_xp_record_retire(&r->relay); /* the RDMA peers' next tasks fail */
	free(r);
	mmap->xproc_reexport = NULL;
}

/* The relay record, made at the first re-export: 0 or an errno. */
static int sd_xp_reexport_relay(struct sd_xp_reexport *r)
{
	struct sd_xp_export *x = &r->relay;

	if (x->rec != NULL)
		return 0;
	x->owner_pid = (uint32_t)getpid();
	x->base = r->desc;
	if (sd_xp_self(&x->base.who) != 0)
		return EIO;
	x->base.export_id = (uint32_t)sd_xp_export_id_next(); /* the descriptor has 32 bits for it */
	/*
	 * The record binds our token to the host export; the descriptor shows
	 * only ours, so nobody holding it can reach the host without our say.
	 */
	x->up.export_id = r->desc.export_id;
	x->up.generation = r->desc.generation;
	memcpy(x->up.token, r->desc.token, sizeof(x->up.token));
	int err = sd_xp_random(x->base.token, sizeof(x->base.token));
	if (err != 0)
		return err;
	err = sd_xp_record_create(x);
	if (err == 0)
		sd_xp_registry_add(x); /* retired at exit; mapped again by a self-import (xproc_relay.c) */
	return err;
}

doca_error_t sd_xproc_reexport_rdma(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				    const void **desc, size_t *desc_len)
{
	struct sd_xp_reexport *r = mmap->xproc_reexport;

	if (r == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY,
				    "mmap %p: the state to export this import again could not be allocated",
				    (void *)mmap);
	int err = sd_xp_reexport_relay(r);
	if (err != 0)
		return SD_REJECT_AS(func, DOCA_ERROR_OPERATING_SYSTEM,
				    "mmap %p: cannot make the record through which this process can revoke the re-export "
				    "(%s); make /dev/shm or /tmp writable",
				    (void *)mmap, strerror(err));
	if (r->node != node) {
		struct sd_xp_desc d = r->desc;

		d.kind = SD_XP_KIND_RDMA;
		d.flags |= SD_XP_FLAG_RELAY;
		d.relay.pid = r->relay.base.who.pid;
		d.relay.start_time = r->relay.base.who.start_time;
		d.relay.export_id = (uint32_t)r->relay.base.export_id;
		memcpy(d.token, r->relay.base.token, sizeof(d.token)); /* the relay token, never the host's */
		memset(d.dev_pci, 0, sizeof(d.dev_pci));
		memcpy(d.dev_pci, node->pci_addr, strnlen(node->pci_addr, sizeof(d.dev_pci) - 1));
		r->len = sd_xp_desc_encode(&d, r->bytes);
		r->node = node;
	}
	*desc = r->bytes;
	*desc_len = r->len;
	return DOCA_SUCCESS;
}
