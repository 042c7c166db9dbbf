/*
 * xproc_export.c - the export side: descriptors of a started mmap.
 *
 * The first export of a started period creates the export state: a fresh
 * token, export id and generation, the validity record, and (when the
 * range is a shared file mapping) a descriptor kept open for importers.
 * Each device the mmap is exported through gets its own descriptor bytes,
 * which stay valid until the mmap stops or is destroyed.  After that the
 * exporting process never has to call the library for a peer's copy to
 * happen.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <doca_types.h>

#include "sd_dev.h"
#include "sd_log.h"
#include "sd_mem.h"
#include "sd_xproc.h"
#include "xproc_priv.h"

static pthread_mutex_t sd_xp_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_xp_export *sd_xp_registry; /* live exports of this process */
static _Atomic uint64_t sd_xp_next_export_id = 1;
static uint32_t sd_xp_swept_by; /* pid that last swept stale records (once per process) */

uint64_t sd_xp_export_id_next(void)
{
	return atomic_fetch_add(&sd_xp_next_export_id, 1);
}

void sd_xp_registry_add(struct sd_xp_export *exp)
{
	pthread_mutex_lock(&sd_xp_registry_lock);
	exp->next = sd_xp_registry;
	sd_xp_registry = exp;
	pthread_mutex_unlock(&sd_xp_registry_lock);
}

void sd_xp_registry_remove(struct sd_xp_export *exp)
{
	pthread_mutex_lock(&sd_xp_registry_lock);
	for (struct sd_xp_export **p = &sd_xp_registry; *p != NULL; p = &(*p)->next) {
		if (*p == exp) {
			*p = exp->next;
			break;
		}
	}
	pthread_mutex_unlock(&sd_xp_registry_lock);
}

struct sd_xp_record *sd_xp_export_map_own_record(uint64_t export_id, const uint8_t *token)
{
	struct sd_xp_record *rec = NULL;
	uint32_t me = (uint32_t)getpid();

	pthread_mutex_lock(&sd_xp_registry_lock);
	for (struct sd_xp_export *e = sd_xp_registry; e != NULL; e = e->next) {
		if (e->owner_pid != me || e->base.export_id != export_id || e->rec == NULL ||
		    !sd_xp_token_equal(e->base.token, token))
			continue;
		/* A second view of the same shared page, which outlives the export's own. */
		void *p = mremap(e->rec, 0, SD_XP_REC_SIZE, MREMAP_MAYMOVE);
		if (p != MAP_FAILED)
			rec = p;
		break;
	}
	pthread_mutex_unlock(&sd_xp_registry_lock);
	return rec;
}

/*
 * At exit the exporter's importers must learn at once that it is gone:
 * flip and remove every record this process still publishes.  (A killed
 * process cannot do this; importers then see its liveness lock vanish.)
 */
__attribute__((destructor)) static void sd_xp_exports_at_exit(void)
{
	uint32_t me = (uint32_t)getpid();

	if (pthread_mutex_trylock(&sd_xp_registry_lock) != 0)
		return;
	for (struct sd_xp_export *e = sd_xp_registry; e != NULL; e = e->next) {
		if (e->owner_pid == me && e->rec != NULL) {
			atomic_store_explicit(&e->rec->state, SD_XP_REC_DEAD, memory_order_release);
			unlink(e->record_path);
		}
	}
	pthread_mutex_unlock(&sd_xp_registry_lock);
}

/* First export of this process (a fork child counts anew): remove leftovers of dead exporters. */
static void sd_xp_sweep_once(void)
{
	uint32_t me = (uint32_t)getpid();
	bool sweep;

	pthread_mutex_lock(&sd_xp_registry_lock);
	sweep = sd_xp_swept_by != me;
	sd_xp_swept_by = me;
	pthread_mutex_unlock(&sd_xp_registry_lock);
	if (sweep)
		sd_xp_record_sweep();
}

static void sd_xp_export_free(struct sd_xp_export *exp)
{
	sd_xp_ucx_export_detach(exp); /* network peers first: the record's end cuts off only local ones */
	sd_xp_record_retire(exp);
	if (exp->shared_fd >= 0)
		close(exp->shared_fd);
	while (exp->slots != NULL) {
		struct sd_xp_desc_slot *next = exp->slots->next;
		free(exp->slots);
		exp->slots = next;
	}
	free(exp);
}

/* Everything a descriptor of this export shares, except the device. */
static int sd_xp_export_fill_base(struct sd_xp_export *exp, struct doca_mmap *mmap)
{
	struct sd_xp_desc *b = &exp->base;
	int err = sd_xp_self(&b->who);

	if (err != 0)
		return err;
	err = sd_xp_random(b->token, sizeof(b->token));
	if (err != 0)
		return err;
	b->kind = SD_XP_KIND_PCI;
	b->access_mask = mmap->access_mask;
	b->generation = mmap->xproc_generation + 1;
	b->export_id = sd_xp_export_id_next();
	b->addr = (uint64_t)(uintptr_t)mmap->addr;
	b->len = mmap->len;
	b->shared.fd = -1;
	/* Importers of a shared mapping then fault their own view in at import (xproc_access.c). */
	if (mmap->reg_resident)
		b->flags |= SD_XP_FLAG_RESIDENT;
	if (sd_xp_shared_find(b->addr, b->len, sd_xp_export_writable(b->access_mask), &b->shared)) {
		exp->shared_fd = b->shared.fd;
		b->flags |= SD_XP_FLAG_SHARED;
	} else {
		memset(&b->shared, 0, sizeof(b->shared));
		b->shared.fd = -1;
	}
	return 0;
}

static doca_error_t sd_xp_export_create(const char *func, struct doca_mmap *mmap, struct sd_xp_export **out)
{
	struct sd_xp_export *exp = calloc(1, sizeof(*exp));
	int err;

	if (exp == NULL)
		return SD_LOG_ERR_AS(func, "cannot allocate the export state of mmap %p", (void *)mmap),
		       DOCA_ERROR_NO_MEMORY;
	exp->record_fd = -1;
	exp->shared_fd = -1;
	exp->owner_pid = (uint32_t)getpid();
	sd_xp_sweep_once();
	err = sd_xp_export_fill_base(exp, mmap);
	if (err == 0) {
		err = sd_xp_record_create(exp);
		if (err != 0)
			SD_LOG_ERR_AS(func, "cannot publish the validity record %s of mmap %p: %s", exp->record_path,
				      (void *)mmap, strerror(err));
	} else {
		SD_LOG_ERR_AS(func, "cannot read this process's identity for mmap %p: %s", (void *)mmap, strerror(err));
	}
	if (err != 0) {
		sd_xp_export_free(exp);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (exp->base.flags & SD_XP_FLAG_SHARED)
		SD_LOG_DBG("mmap %p is a shared file mapping; importers may map it (fd %d)", (void *)mmap,
			   exp->shared_fd);
	/* Under Yama ptrace_scope 1 an unrelated importer needs this to reach us. */
	(void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	exp->base.flags |= exp->record_tmp ? SD_XP_FLAG_RECORD_TMP : 0;
	sd_xp_ucx_export_attach(exp);
	sd_xp_registry_add(exp);
	mmap->xproc_generation = exp->base.generation;
	*out = exp;
	return DOCA_SUCCESS;
}

/*
 * The descriptor slot of device `node`, created on first use.  Slots are
 * allocated one by one and never moved: the bytes of the first device must
 * stay where they are when a third or fourth device is added.
 */
static struct sd_xp_desc_slot *sd_xp_export_slot(struct sd_xp_export *exp, const struct sd_device *node,
					       uint8_t kind)
{
	for (struct sd_xp_desc_slot *s = exp->slots; s != NULL; s = s->next)
		if (s->node == node && s->kind == kind)
			return s;
	struct sd_xp_desc_slot *slot = malloc(sizeof(*slot));
	struct sd_xp_desc d = exp->base;

	if (slot == NULL)
		return NULL;
	d.kind = kind;
	memset(d.dev_pci, 0, sizeof(d.dev_pci));
	memcpy(d.dev_pci, node->pci_addr, strnlen(node->pci_addr, sizeof(d.dev_pci) - 1));
	slot->node = node;
	slot->kind = kind;
	slot->len = sd_xp_desc_encode(&d, slot->bytes);
	slot->next = exp->slots;
	exp->slots = slot;
	return slot;
}

static doca_error_t sd_xp_export_kind(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				      uint8_t kind, const void **desc, size_t *desc_len)
{
	struct sd_xp_export *exp = mmap->xproc_export;
	bool created = false;

	if (exp == NULL) {
		doca_error_t err = sd_xp_export_create(func, mmap, &exp);
		if (err != DOCA_SUCCESS)
			return err;
		created = true;
	}
	struct sd_xp_desc_slot *slot = sd_xp_export_slot(exp, node, kind);
	if (slot == NULL) {
		if (created) {
			sd_xp_registry_remove(exp);
			sd_xp_export_free(exp);
		}
		return SD_LOG_ERR_AS(func, "cannot allocate a descriptor of mmap %p for device %s", (void *)mmap,
				     node->pci_addr),
		       DOCA_ERROR_NO_MEMORY;
	}
	mmap->xproc_export = exp;
	*desc = slot->bytes;
	*desc_len = slot->len;
	return DOCA_SUCCESS;
}

void sd_xproc_export_revoke(struct doca_mmap *mmap)
{
	struct sd_xp_export *exp = mmap->xproc_export;

	if (exp == NULL)
		return;
	mmap->xproc_export = NULL;
	sd_xp_registry_remove(exp);
	sd_xp_export_free(exp);
}

doca_error_t sd_xproc_export_pci(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				 const void **desc, size_t *desc_len)
{
	return sd_xp_export_kind(func, mmap, node, SD_XP_KIND_PCI, desc, desc_len);
}

doca_error_t sd_xproc_export_rdma(const char *func, struct doca_mmap *mmap, const struct sd_device *node,
				  const void **desc, size_t *desc_len)
{
	return sd_xp_export_kind(func, mmap, node, SD_XP_KIND_RDMA, desc, desc_len);
}
