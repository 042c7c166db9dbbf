/*
 * se_net.c - remote-net sync events across namespaces and machines.
 *
 * On one machine an importer maps the event's page from /dev/shm
 * (se_home.c).  A peer in another PID namespace (another container) or on
 * another machine cannot count on that file, so when the exporting process
 * offers a network endpoint (SOFTDOCA_PEER, or SOFTDOCA_XPROC_PATH=ucx) the
 * remote-net descriptor also carries the page exported for RDMA, as
 * doca_mmap_export_rdma would export it: the importer then applies get,
 * set and add to the value with the 8-byte atomics of that import (UCX
 * atomic operations across namespaces), which the exporter's program takes
 * no part in, as on a card.  The export goes away with the event's start
 * period, which cuts every importer off.
 *
 * An update that arrives this way does not bump the futex word (a remote
 * atomic cannot make a system call in the exporter), so the exporter's
 * waiters see it at their next look: the CPU waits look at least every
 * SD_SE_LIVENESS_NS, and the notification watcher compares the value too.
 */
#include <stddef.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "sd_dev.h"
#include "sd_log.h"
#include "sd_mem.h"
#include "sd_sync_event.h"
#include "se_priv.h"
#include "../xproc/xproc_priv.h"

#define SD_SE_NET_PERMS                                                                                    \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE |     \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/* The first device of the topology that may export memory for RDMA, opened; NULL when none. */
static struct doca_dev *sd_se_net_dev_open(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		if (doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			continue;
		if (!sd_dev_node(dev)->caps.mmap_export_rdma) {
			doca_dev_close(dev);
			dev = NULL;
		}
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

/* The page as a started mmap on `dev`, exported for RDMA; NULL when it cannot be (the calls logged why). */
static struct doca_mmap *sd_se_net_page_export(struct doca_sync_event *ev, struct doca_dev *dev, const void **desc,
					       size_t *len)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS)
		return NULL;
	if (doca_mmap_set_memrange(m, ev->map.page, SD_SE_PAGE_SIZE) == DOCA_SUCCESS &&
	    doca_mmap_set_permissions(m, SD_SE_NET_PERMS) == DOCA_SUCCESS && doca_mmap_add_dev(m, dev) == DOCA_SUCCESS &&
	    doca_mmap_start(m) == DOCA_SUCCESS && doca_mmap_export_rdma(m, dev, desc, len) == DOCA_SUCCESS)
		return m;
	doca_mmap_destroy(m);
	return NULL;
}

size_t sd_se_net_export(struct doca_sync_event *ev, const char *func)
{
	struct sd_xp_net bind;
	const void *desc = NULL;
	size_t len = 0;

	if (ev->net_mmap != NULL || !sd_xp_ucx_bind(&bind))
		return ev->net_mmap != NULL ? ev->desc_net_len : SD_SE_DESC_LEN; /* no endpoint: this machine only */
	ev->net_dev = sd_se_net_dev_open();
	if (ev->net_dev != NULL)
		ev->net_mmap = sd_se_net_page_export(ev, ev->net_dev, &desc, &len);
	if (ev->net_mmap == NULL || len > SD_SE_DESC_NET_TAIL_MAX) {
		(void)func;
		SD_LOG_WARN("sync event %p: its page could not be exported for RDMA (no device of the topology "
			    "exports memory for RDMA, or out of memory); the descriptor reaches importers of this "
			    "machine only",
			    (void *)ev);
		sd_se_net_export_close(ev);
		return SD_SE_DESC_LEN;
	}
	return sd_se_desc_add_net_tail(ev->desc_net, desc, len);
}

void sd_se_net_export_close(struct doca_sync_event *ev)
{
	if (ev->net_mmap != NULL) {
		(void)doca_mmap_stop(ev->net_mmap);
		(void)doca_mmap_destroy(ev->net_mmap); /* revokes the export: importers are cut off */
		ev->net_mmap = NULL;
	}
	if (ev->net_dev != NULL) {
		(void)doca_dev_close(ev->net_dev);
		ev->net_dev = NULL;
	}
	ev->desc_net_len = SD_SE_DESC_LEN;
}

/* Over the network when the descriptor offers it and the exporter is not in our PID namespace (or UCX is forced). */
bool sd_se_net_wanted(const struct sd_se_desc *d)
{
	struct sd_xp_identity me;

	if (d->net_len == 0)
		return false;
	if (sd_xp_mode_from_env() == SD_XP_MODE_UCX || sd_xp_self(&me) != 0)
		return true;
	return memcmp(me.boot_id, d->who.boot_id, SD_XP_BOOT_ID_LEN) != 0 || me.pidns_dev != d->who.pidns_dev ||
	       me.pidns_ino != d->who.pidns_ino;
}

doca_error_t sd_se_net_import(struct doca_sync_event_remote_net *rn, struct doca_dev *dev, const uint8_t *data,
			      const struct sd_se_desc *d, const char *func)
{
	void *addr = NULL;
	size_t len = 0;
	doca_error_t err = doca_mmap_create_from_export(NULL, data + d->net_off, d->net_len, dev, &rn->net_mmap);

	if (err != DOCA_SUCCESS) {
		rn->net_mmap = NULL; /* the import's own record says why (no endpoint, exporter gone, ...) */
		return err;
	}
	if (doca_mmap_get_memrange(rn->net_mmap, &addr, &len) != DOCA_SUCCESS || len < SD_SE_PAGE_SIZE ||
	    rn->net_mmap->remote == NULL || rn->net_mmap->remote->atomic64 == NULL) {
		sd_se_net_import_close(rn);
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "the network part of the remote-net sync event descriptor is not the export of "
				    "an event's page with atomic rights (forged descriptor)");
	}
	rn->net_value = (uint64_t)(uintptr_t)addr + offsetof(struct sd_se_page, value);
	return DOCA_SUCCESS;
}

void sd_se_net_import_close(struct doca_sync_event_remote_net *rn)
{
	if (rn->net_mmap != NULL)
		(void)doca_mmap_destroy(rn->net_mmap);
	rn->net_mmap = NULL;
}

/* Set by compare-and-swap from the value last seen, as a card without an atomic store would. */
static doca_error_t sd_se_net_set(struct doca_mmap *m, uint64_t at, uint64_t v, uint64_t *old)
{
	uint64_t seen = 0;
	doca_error_t err = m->remote->atomic64(m, at, SD_MEM_ATOMIC_ADD, 0, 0, &seen);

	for (int i = 0; err == DOCA_SUCCESS && i < 1000000; i++) {
		uint64_t before = 0;

		err = m->remote->atomic64(m, at, SD_MEM_ATOMIC_CAS, seen, v, &before);
		if (err == DOCA_SUCCESS && before == seen) {
			*old = before;
			return DOCA_SUCCESS;
		}
		seen = before;
	}
	return err != DOCA_SUCCESS ? err : DOCA_ERROR_AGAIN;
}

doca_error_t sd_se_net_apply(struct doca_sync_event_remote_net *rn, int op, uint64_t operand, uint64_t *old)
{
	struct doca_mmap *m = rn->net_mmap;
	uint64_t prev = 0;
	doca_error_t err;

	if (op == SD_SYNC_EVENT_OP_SET)
		err = sd_se_net_set(m, rn->net_value, operand, &prev);
	else
		err = m->remote->atomic64(m, rn->net_value, SD_MEM_ATOMIC_ADD, op == SD_SYNC_EVENT_OP_ADD ? operand : 0, 0,
					  &prev);
	if (err != DOCA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_IO_FAILED,
				 "the exporter of remote-net sync event %p cannot be reached over the network any "
				 "more (it stopped the event, died, or the link is cut); import a fresh export",
				 (void *)rn);
	if (old != NULL)
		*old = prev;
	return DOCA_SUCCESS;
}
