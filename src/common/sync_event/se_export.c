/*
 * se_export.c - sync events shared with another process: the exports, the
 * imports, and the one entry point DOCA RDMA's remote-net tasks use.
 *
 * An export names the event's shared page (se_home.c) and proves the right
 * to map it with the page's random token; the importer checks the
 * descriptor's bytes (se_desc.c), the exporter's identity, the file behind
 * the name and the token before it maps anything.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <doca_dev.h>

#include "sd_dev.h"
#include "sd_log.h"
#include "sd_sync_event.h"
#include "se_priv.h"
#include "../xproc/xproc_priv.h"

/* The descriptor of `ev`'s current shared page, of `kind`, into `out`. */
static doca_error_t sd_se_describe(struct doca_sync_event *ev, uint8_t kind, uint8_t out[SD_SE_DESC_LEN],
				   const char *func)
{
	struct sd_se_desc d = {.kind = kind};
	struct stat st;

	if (sd_xp_self(&d.who) != 0 || fstat(ev->map.fd, &st) != 0)
		return SD_REJECT_AS(func, DOCA_ERROR_OPERATING_SYSTEM,
				    "cannot read this process's identity or the event's page (sync event %p)", (void *)ev);
	memcpy(d.token, ev->map.page->token, SD_SE_TOKEN_LEN);
	d.file_dev = (uint64_t)st.st_dev;
	d.file_ino = (uint64_t)st.st_ino;
	memcpy(d.name, ev->map.name, sizeof(d.name));
	sd_se_desc_encode(&d, out);
	return DOCA_SUCCESS;
}

/* Common rules of both exports. */
static doca_error_t sd_se_export_check(struct doca_sync_event *ev, const uint8_t **data, size_t *sz,
				       const char *func)
{
	doca_error_t err = sd_se_check_started(ev, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (data == NULL || sz == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "output pointer %s is NULL (sync event %p)",
				    data == NULL ? "data" : "sz", (void *)ev);
	if (ev->home == SD_SE_HOME_SHARED)
		return DOCA_SUCCESS;
	return SD_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED, "sync event %p cannot be exported: %s", (void *)ev,
			    ev->home == SD_SE_HOME_IMPORTED ? "it was itself created from an export"
			    : ev->home == SD_SE_HOME_APP
				    ? "its value lives at an application address (set_addr / set_doca_buf), which "
				      "other processes cannot map"
				    : "no remote publisher or subscriber was declared before it started "
				      "(doca_sync_event_add_*_location_remote_pci / _remote_net)");
}

/* Describe once per start; the bytes stay with the event until it stops. */
static doca_error_t sd_se_export(struct doca_sync_event *ev, uint8_t kind, uint8_t *bytes, bool *ok,
				 const uint8_t **data, size_t *sz, const char *func)
{
	doca_error_t err = sd_se_export_check(ev, data, sz, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (!*ok) {
		err = sd_se_describe(ev, kind, bytes, func);
		if (err != DOCA_SUCCESS)
			return err;
		*ok = true;
	}
	*data = bytes;
	*sz = SD_SE_DESC_LEN;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event, struct doca_dev *dev,
						  const uint8_t **data, size_t *sz)
{
	if (dev == NULL || !priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open device", (void *)dev);
	if (sd_se_check(event, __func__) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	return sd_se_export(event, SD_SE_KIND_PCI, event->desc_pci, &event->desc_pci_ok, data, sz, __func__);
}

doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event, const uint8_t **data, size_t *sz)
{
	bool first;
	doca_error_t err;

	if (sd_se_check(event, __func__) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	first = !event->desc_net_ok;
	err = sd_se_export(event, SD_SE_KIND_NET, event->desc_net, &event->desc_net_ok, data, sz, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (first)
		event->desc_net_len = sd_se_net_export(event, __func__); /* adds the network part when offered */
	*sz = event->desc_net_len;
	return DOCA_SUCCESS;
}

/* Decode and check the kind; one ERROR record on behalf of `func` otherwise. */
static doca_error_t sd_se_import_parse(struct doca_dev *dev, const uint8_t *data, size_t sz, void *out,
				       uint8_t kind, struct sd_se_desc *d, const char *func)
{
	const char *why;

	if (dev == NULL || !priv_doca_dev_is_valid(dev))
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open device", (void *)dev);
	if (data == NULL || out == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "%s is NULL", data == NULL ? "data" : "output pointer event");
	why = sd_se_desc_decode(data, sz, d);
	if (why != NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "refusing the sync event export (%zu bytes): %s; pass the bytes the export call "
				    "returned, unchanged",
				    sz, why);
	if (d->kind != kind)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "the descriptor was made by %s; pass it to the matching create call",
				    d->kind == SD_SE_KIND_PCI ? "doca_sync_event_export_to_remote_pci"
							      : "doca_sync_event_export_to_remote_net");
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
						struct doca_sync_event **event)
{
	struct sd_se_desc d;
	struct doca_sync_event *ev;
	doca_error_t err = sd_se_import_parse(dev, data, sz, event, SD_SE_KIND_PCI, &d, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	err = sd_se_new(dev, &ev, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	err = sd_se_map_attach(&ev->map, &d, __func__);
	if (err != DOCA_SUCCESS) {
		(void)doca_sync_event_destroy(ev);
		return err;
	}
	ev->imported = true;
	ev->import_desc = d;
	*event = ev;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
							   struct doca_sync_event_remote_net **event)
{
	struct doca_sync_event_remote_net *rn;
	struct sd_se_desc d;
	doca_error_t err = sd_se_import_parse(dev, data, sz, event, SD_SE_KIND_NET, &d, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	rn = calloc(1, sizeof(*rn));
	if (rn == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a remote-net sync event");
	rn->map.fd = -1;
	if (sd_se_net_wanted(&d))
		err = sd_se_net_import(rn, dev, data, &d, __func__);
	else
		err = sd_se_map_attach(&rn->map, &d, __func__);
	if (err != DOCA_SUCCESS) {
		free(rn);
		return err;
	}
	rn->desc = d;
	rn->magic = SD_SE_NET_MAGIC;
	*event = rn;
	return DOCA_SUCCESS;
}

static bool sd_se_net_is_valid(const struct doca_sync_event_remote_net *rn)
{
	return rn != NULL && rn->magic == SD_SE_NET_MAGIC;
}

doca_error_t doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event)
{
	if (!sd_se_net_is_valid(event))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "event %p is NULL or not a live remote-net sync event",
				 (void *)event);
	if (event->net_mmap != NULL)
		sd_se_net_import_close(event);
	else
		sd_se_map_close(&event->map);
	event->magic = 0;
	free(event);
	return DOCA_SUCCESS;
}

doca_error_t priv_doca_sync_event_remote_net_apply(struct doca_sync_event_remote_net *ev, enum sd_sync_event_op op,
						   uint64_t operand, uint64_t *old)
{
	struct sd_se_page *page;
	uint64_t prev;

	if (!sd_se_net_is_valid(ev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "event %p is NULL or not a live remote-net sync event",
				 (void *)ev);
	if (op != SD_SYNC_EVENT_OP_GET && op != SD_SYNC_EVENT_OP_SET && op != SD_SYNC_EVENT_OP_ADD)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "unknown operation %d on remote-net sync event %p", (int)op,
				 (void *)ev);
	if (ev->net_mmap != NULL)
		return sd_se_net_apply(ev, (int)op, operand, old);
	if (!sd_se_map_alive(&ev->map))
		return SD_REJECT(DOCA_ERROR_IO_FAILED,
				 "the exporter of remote-net sync event %p stopped it or died; import a fresh export",
				 (void *)ev);
	page = ev->map.page;
	if (op == SD_SYNC_EVENT_OP_GET)
		prev = atomic_load(&page->value);
	else if (op == SD_SYNC_EVENT_OP_SET)
		prev = sd_se_op_set(&page->value, &page->sync, operand);
	else
		prev = sd_se_op_add(&page->value, &page->sync, operand);
	if (old != NULL)
		*old = prev;
	return DOCA_SUCCESS;
}
