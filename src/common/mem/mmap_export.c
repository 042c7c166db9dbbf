/*
 * mmap_export.c - exporting a map to a peer and importing a peer's map.
 *
 * Every argument and state rule of the public calls is enforced here; the
 * descriptor, the validity record and the cross-process data path live in
 * src/common/xproc (sd_xproc.h), for PCI and RDMA exports alike; an RDMA
 * descriptor carries the map's RDMA rights, which DOCA RDMA enforces.
 */
#include <stdlib.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "mem_priv.h"
#include "mmap_register.h"
#include "sd_debug.h"
#include "sd_dev.h"
#include "sd_log.h"
#include "sd_mem.h"
#include "sd_xproc.h"

#define SD_ACCESS_PCI_ANY (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)
#define SD_ACCESS_RDMA_ANY (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/*
 * Checks shared by both exports, in this order: pointers,
 * then what the map is and its state, then its access rights, then the
 * device.  `needed` is the flag family the kind of export requires.
 */
static doca_error_t sd_export_check(const char *func, struct doca_mmap *mmap, const struct doca_dev *dev,
				    const void **export_desc, size_t *export_desc_len, uint32_t needed,
				    const char *needed_name)
{
	if (!sd_mmap_valid(mmap))
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "mmap %p is NULL or not a live doca_mmap",
					(void *)mmap);
	if (dev == NULL || export_desc == NULL || export_desc_len == NULL)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
					"dev, export_desc and export_desc_len must not be NULL (mmap %p)",
					(void *)mmap);
	if (mmap->from_export)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"mmap %p was created from an export and cannot be exported again (only "
					"doca_mmap_export_rdma hands memory imported over PCI on)",
					(void *)mmap);
	if (mmap->state != SD_MMAP_STARTED)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED, "mmap %p is not started; start it first",
					(void *)mmap);
	if ((mmap->access_mask & needed) == 0)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"mmap %p access mask 0x%x grants no %s access; set it with "
					"doca_mmap_set_permissions before start",
					(void *)mmap, mmap->access_mask, needed_name);
	if (!sd_mmap_has_dev(mmap, dev))
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_FOUND, "dev %p is not registered in mmap %p",
					(const void *)dev, (void *)mmap);
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				  size_t *export_desc_len)
{
	doca_error_t err = sd_export_check(__func__, mmap, dev, export_desc, export_desc_len, SD_ACCESS_PCI_ANY,
					   "PCI (PCI_READ_ONLY or PCI_READ_WRITE)");
	if (err != DOCA_SUCCESS)
		return err;
	/* A registered device is open (it cannot be closed while registered). */
	if (!sd_dev_node(dev)->caps.mmap_export_pci)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s cannot export memory over PCI (mmap %p)",
				 sd_dev_node(dev)->pci_addr, (void *)mmap);
	/* Importers reach the pages from another process: they must be resident before the first descriptor. */
	if (mmap->xproc_export == NULL) {
		err = sd_mmap_register_for_export(mmap, __func__);
		if (err != DOCA_SUCCESS)
			return err;
	}
	err = sd_xproc_export_pci(__func__, mmap, sd_dev_node(dev), export_desc, export_desc_len);
	if (err == DOCA_SUCCESS)
		mmap->exported = true;
	return err;
}

/*
 * doca_mmap_export_rdma on an mmap imported from a PCI descriptor: the DPU
 * handing host memory on to an RDMA peer (the storage application's
 * zero-copy path).  The rules that apply to an import, in the order of
 * sd_export_check; the rights are those the host's mmap granted.
 */
static doca_error_t sd_reexport_rdma(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				     size_t *export_desc_len)
{
	const char *func = "doca_mmap_export_rdma";

	if (mmap->import_kind != SD_EXPORT_PCI)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"mmap %p was created from an RDMA export and cannot be exported again; only "
					"memory imported over PCI can be handed on to an RDMA peer",
					(void *)mmap);
	if (mmap->state != SD_MMAP_STARTED)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"mmap %p is an import that was stopped; export it again before "
					"doca_mmap_stop",
					(void *)mmap);
	if ((mmap->access_mask & SD_ACCESS_RDMA_ANY) == 0)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"mmap %p was imported with access mask 0x%x, which grants no RDMA access; the "
					"exporting side must add DOCA_ACCESS_FLAG_RDMA_READ, _RDMA_WRITE or _RDMA_ATOMIC "
					"with doca_mmap_set_permissions before it exports",
					(void *)mmap, mmap->access_mask);
	if (dev != mmap->import_dev)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_FOUND,
					"dev %p is not the device mmap %p was imported with; export it again through "
					"that device",
					(const void *)dev, (void *)mmap);
	if (!sd_dev_node(dev)->caps.mmap_export_rdma)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s cannot export memory for RDMA (mmap %p)",
				 sd_dev_node(dev)->pci_addr, (void *)mmap);
	return sd_xproc_reexport_rdma(func, mmap, sd_dev_node(dev), export_desc, export_desc_len);
}

DOCA_STABLE
doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				   size_t *export_desc_len)
{
	doca_error_t err;

	if (sd_mmap_valid(mmap) && mmap->from_export && dev != NULL && export_desc != NULL &&
	    export_desc_len != NULL)
		return sd_reexport_rdma(mmap, dev, export_desc, export_desc_len);
	err = sd_export_check(__func__, mmap, dev, export_desc, export_desc_len, SD_ACCESS_RDMA_ANY,
			      "RDMA (RDMA_READ, RDMA_WRITE or RDMA_ATOMIC)");
	if (err != DOCA_SUCCESS)
		return err;
	if (!sd_dev_node(dev)->caps.mmap_export_rdma)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s cannot export memory for RDMA (mmap %p)",
				 sd_dev_node(dev)->pci_addr, (void *)mmap);
	/* Peers reach the pages from another process: they must be resident before the first descriptor. */
	if (mmap->xproc_export == NULL) {
		err = sd_mmap_register_for_export(mmap, __func__);
		if (err != DOCA_SUCCESS)
			return err;
	}
	err = sd_xproc_export_rdma(__func__, mmap, sd_dev_node(dev), export_desc, export_desc_len);
	if (err == DOCA_SUCCESS)
		mmap->exported = true;
	return err;
}

/* Fill the imported map's own attributes ; xproc fills range and hooks. */
static void sd_import_init(struct doca_mmap *m, const union doca_data *user_data, struct doca_dev *dev,
			   unsigned kind)
{
	m->magic = SD_MMAP_MAGIC;
	m->from_export = true;
	m->state = SD_MMAP_STARTED; /* usable at once; start is refused, stop ends it (mmap.c) */
	m->max_devs = 1;
	m->dmabuf_fd = -1;
	m->import_kind = (uint8_t)kind;
	m->import_node = sd_dev_node(dev);
	m->import_dev = dev;
	/* The rules a DMA instance checks on an import never change while it lives: one seq for its life. */
	m->start_seq = sd_mmap_next_seq();
	priv_doca_dev_dep_get(dev); /* the device cannot be closed under the import */
	if (user_data != NULL)
		m->user_data = *user_data;
}

DOCA_STABLE
doca_error_t doca_mmap_create_from_export(const union doca_data *user_data, const void *export_desc,
					  size_t export_desc_len, struct doca_dev *dev, struct doca_mmap **mmap)
{
	unsigned kind = SD_EXPORT_NONE;
	struct doca_mmap *m;
	doca_error_t err;

	SD_MEM_REQUIRE_ARG(export_desc, "export_desc");
	SD_MEM_REQUIRE_ARG(mmap, "mmap");
	if (dev == NULL || !priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open doca_dev", (void *)dev);
	if (export_desc_len == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "export_desc_len is 0");
	err = sd_xproc_import_check(__func__, export_desc, export_desc_len, &kind);
	if (err != DOCA_SUCCESS)
		return err;
	if (kind == SD_EXPORT_PCI && !sd_dev_node(dev)->caps.mmap_from_export_pci)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s cannot import a PCI export",
				 sd_dev_node(dev)->pci_addr);
	if (kind == SD_EXPORT_RDMA && !sd_dev_node(dev)->caps.rdma)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s cannot import an RDMA export (no RDMA)",
				 sd_dev_node(dev)->pci_addr);
	if (priv_doca_debug_flags != 0 && (err = sd_debug_import_fault(__func__)) != DOCA_SUCCESS) /* issue 12 */
		return err;
	m = sd_lines_calloc(1, sizeof(*m));
	if (m == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate an imported doca_mmap");
	err = sd_xproc_import(__func__, m, export_desc, export_desc_len);
	if (err != DOCA_SUCCESS) {
		free(m);
		return err;
	}
	sd_import_init(m, user_data, dev, kind);
	sd_alive_add(SD_ALIVE_MMAP, m); /* issue 12: what is alive */
	*mmap = m;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap, const struct doca_dev *dev,
					  doca_dpa_dev_mmap_t *dpa_mmap_handle)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(dev, "dev");
	SD_MEM_REQUIRE_ARG(dpa_mmap_handle, "dpa_mmap_handle");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "softdoca has no DPA; mmap %p has no DPA handle", (void *)mmap);
}

void sd_mmap_exports_revoke(struct doca_mmap *mmap)
{
	sd_xproc_export_revoke(mmap);
}

void sd_mmap_import_release(struct doca_mmap *mmap)
{
	sd_xproc_import_close(mmap);
	if (mmap->import_dev != NULL) {
		priv_doca_dev_dep_put(mmap->import_dev);
		mmap->import_dev = NULL;
	}
}
