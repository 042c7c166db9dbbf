/*
 * xproc_import.c - the import side: from descriptor bytes to an imported
 * mmap whose bytes are reached through its remote access hooks.
 *
 * What is judged at import, all locally and without
 * waiting on the exporter: the bytes are a descriptor we understand
 * (INVALID_VALUE), it comes from this machine and PID namespace or carries
 * a network endpoint that the UCX transport can reach (NOT_SUPPORTED
 * otherwise), its process is still the one that exported (INVALID_VALUE;
 * judged only in the exporter's namespace), and some path to its memory is
 * allowed by the kernel (NOT_PERMITTED, naming the fix).  A descriptor
 * from another namespace, or any with SOFTDOCA_XPROC_PATH=ucx, becomes a
 * UCX import (xproc_ucx.c).
 * A stopped or destroyed export, or a token that does not match the
 * exporter's record, is not an import error: the import succeeds and every
 * access fails with DOCA_ERROR_IO_FAILED.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sd_log.h"
#include "sd_mem.h"
#include "sd_xproc.h"
#include "xproc_priv.h"
#include "xproc_relay.h"

static doca_error_t sd_xp_remote_read(struct doca_mmap *mmap, void *dst, uint64_t raddr, size_t len)
{
	return sd_xp_access_read(mmap->remote_priv, dst, raddr, len);
}

static doca_error_t sd_xp_remote_write(struct doca_mmap *mmap, uint64_t raddr, const void *src, size_t len)
{
	return sd_xp_access_write(mmap->remote_priv, raddr, src, len);
}

static uint32_t sd_xp_remote_copy_many(struct doca_mmap *mmap, const struct sd_remote_piece *p, uint32_t n, bool write)
{
	return sd_xp_access_many(mmap->remote_priv, p, n, write);
}

/*
 * No `direct` hook: a pointer handed to the engine would let it copy
 * without the liveness check that must follow every read, so the shared
 * and same-process paths memcpy inside read/write instead.
 */
static doca_error_t sd_xp_remote_atomic(struct doca_mmap *mmap, uint64_t raddr, int op, uint64_t a, uint64_t b,
					uint64_t *old)
{
	return sd_xp_access_atomic(mmap->remote_priv, raddr, op, a, b, old);
}

static const struct sd_mem_remote_ops sd_xp_remote_ops = {
	.read = sd_xp_remote_read,
	.write = sd_xp_remote_write,
	.direct = NULL,
	.copy_many = sd_xp_remote_copy_many,
	.atomic64 = sd_xp_remote_atomic,
};

static doca_error_t sd_xp_decode(const char *func, const void *desc, size_t desc_len, struct sd_xp_desc *d)
{
	const char *why = sd_xp_desc_decode(desc, desc_len, d);

	if (why != NULL) {
		SD_LOG_ERR_AS(func, "the %zu bytes at %p are not a usable export descriptor: the descriptor %s",
			      desc_len, desc, why);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t sd_xproc_import_check(const char *func, const void *desc, size_t desc_len, unsigned *kind)
{
	struct sd_xp_desc d;
	doca_error_t err = sd_xp_decode(func, desc, desc_len, &d);

	if (err != DOCA_SUCCESS)
		return err;
	if (sd_xp_ucx_chosen(&d)) {
		err = sd_xp_ucx_import_check(func, &d);
		if (err != DOCA_SUCCESS)
			return err;
	}
	*kind = d.kind == SD_XP_KIND_RDMA ? SD_EXPORT_RDMA : SD_EXPORT_PCI;
	return DOCA_SUCCESS;
}

/* True when the record's contents are those of the descriptor's export. */
static bool sd_xp_record_matches(const struct sd_xp_record *rec, const struct sd_xp_desc *d)
{
	bool token_ok = sd_xp_token_equal(rec->token, d->token);

	return token_ok && rec->magic == SD_XP_REC_MAGIC && rec->pid == d->who.pid && rec->export_id == d->export_id &&
	       rec->addr == d->addr && rec->len == d->len && rec->access_mask == d->access_mask;
}

/*
 * Attach the exporter's validity record.  DOCA_SUCCESS with imp->rec NULL
 * means "the export is not live": the import stands, every access fails.
 */
static doca_error_t sd_xp_attach_record(const char *func, struct sd_xp_import *imp, const struct sd_xp_desc *d)
{
	char path[128];
	struct stat st;
	void *page;

	sd_xp_record_path(path, sizeof(path), (d->flags & SD_XP_FLAG_RECORD_TMP) != 0, d->who.pid, d->who.start_time,
			  d->export_id);
	imp->rec_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (imp->rec_fd < 0) {
		if (errno == ENOENT)
			return DOCA_SUCCESS; /* stopped or destroyed export, or a forged one */
		SD_LOG_ERR_AS(func,
			      "cannot open the validity record %s of exporter pid %u: %s. Fix: run importer and "
			      "exporter as the same user",
			      path, d->who.pid, strerror(errno));
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (fstat(imp->rec_fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)SD_XP_REC_SIZE)
		return DOCA_SUCCESS;
	page = mmap(NULL, SD_XP_REC_SIZE, PROT_READ, MAP_SHARED, imp->rec_fd, 0);
	if (page == MAP_FAILED)
		return DOCA_SUCCESS;
	imp->rec = page;
	if (!sd_xp_record_matches(imp->rec, d)) {
		munmap(page, SD_XP_REC_SIZE);
		imp->rec = NULL; /* not the export the descriptor claims: a forged token */
	}
	return DOCA_SUCCESS;
}

static bool sd_xp_is_self(const struct sd_xp_desc *d)
{
	struct sd_xp_identity me;

	return sd_xp_self(&me) == 0 && me.pid == d->who.pid && me.start_time == d->who.start_time;
}

static void sd_xp_import_free(struct sd_xp_import *imp)
{
	sd_xp_access_close(imp);
	sd_xp_relay_close(&imp->relay);
	if (imp->rec != NULL)
		munmap(imp->rec, SD_XP_REC_SIZE);
	if (imp->rec_fd >= 0)
		close(imp->rec_fd);
	free(imp);
}

/* Same process: reach the bytes with memcpy, liveness from our own record. */
static void sd_xp_attach_self(struct sd_xp_import *imp, const struct sd_xp_desc *d)
{
	imp->rec = sd_xp_export_map_own_record(d->export_id, d->token);
	if (imp->rec != NULL && sd_xp_record_matches(imp->rec, d)) {
		imp->path = SD_XP_PATH_SELF;
		imp->base = (uint8_t *)(uintptr_t)d->addr;
		imp->page = d->addr;
	} else if (imp->rec != NULL) {
		munmap(imp->rec, SD_XP_REC_SIZE);
		imp->rec = NULL;
	}
}

/* Another process: record, liveness lock, then a data path. */
static doca_error_t sd_xp_attach_peer(const char *func, struct sd_xp_import *imp, const struct sd_xp_desc *d)
{
	int alive = sd_xp_check_alive(d->who.pid, d->who.start_time);
	doca_error_t err;

	if (alive == ESRCH) {
		SD_LOG_ERR_AS(func, "exporter pid %u (started at tick %llu) is gone; the descriptor is stale", d->who.pid,
			      (unsigned long long)d->who.start_time);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = sd_xp_attach_record(func, imp, d);
	if (err != DOCA_SUCCESS || imp->rec == NULL)
		return err;
	/* A record still marked live whose owner exec'd or is exiting is dead too. */
	if (atomic_load_explicit(&imp->rec->state, memory_order_acquire) != SD_XP_REC_LIVE || !sd_xp_lock_held(imp)) {
		munmap(imp->rec, SD_XP_REC_SIZE);
		imp->rec = NULL;
		return DOCA_SUCCESS;
	}
	return sd_xp_access_open(imp, d, func);
}

/*
 * A descriptor handed on by a relaying process (a DPU's re-export of a PCI
 * import) is live only while the relay's record is.  It carries the
 * relay's token: when the record holds that token and names the host
 * export, `d` gets the host's token from the record, for the host's record
 * to judge.  Otherwise `d` keeps the relay token, which no host export
 * holds: the import stands and every access fails, as with a stopped
 * export (false: drop whatever the host's record check attaches).
 */
static bool sd_xp_attach_relay(struct sd_xp_import *imp, struct sd_xp_desc *d)
{
	struct sd_xp_relay_id id = sd_xp_relay_id_of(d);

	if (!(d->flags & SD_XP_FLAG_RELAY))
		return true;
	if (!sd_xp_relay_open(&imp->relay, &id))
		return false;
	imp->relayed = imp->relay.state != NULL;
	memcpy(d->token, imp->relay.up_token, sizeof(d->token));
	return true;
}

/* Drop the host's record of an import whose relay refused it. */
static void sd_xp_detach_record(struct sd_xp_import *imp)
{
	sd_xp_access_close(imp);
	if (imp->rec != NULL)
		munmap(imp->rec, SD_XP_REC_SIZE);
	imp->rec = NULL;
}

doca_error_t sd_xproc_import(const char *func, struct doca_mmap *mmap, const void *desc, size_t desc_len)
{
	struct sd_xp_desc d;
	struct sd_xp_import *imp;
	bool relayed_ok;
	doca_error_t err = sd_xp_decode(func, desc, desc_len, &d);

	if (err != DOCA_SUCCESS)
		return err;
	if (sd_xp_ucx_chosen(&d)) {
		err = sd_xp_ucx_import(func, mmap, &d);
		if (err == DOCA_SUCCESS)
			sd_xp_reexport_keep(mmap, &d);
		return err;
	}
	imp = sd_lines_calloc(1, sizeof(*imp));
	if (imp == NULL) {
		SD_LOG_ERR_AS(func, "cannot allocate the import state");
		return DOCA_ERROR_NO_MEMORY;
	}
	imp->rec_fd = -1;
	imp->relay.fd = -1;
	imp->mem_fd = -1;
	imp->pid = d.who.pid;
	imp->addr = d.addr;
	imp->len = d.len;
	imp->writable = sd_xp_kind_writable(d.access_mask, d.kind);
	relayed_ok = sd_xp_attach_relay(imp, &d);
	if (sd_xp_is_self(&d)) {
		sd_xp_attach_self(imp, &d);
	} else {
		err = sd_xp_attach_peer(func, imp, &d);
		if (err != DOCA_SUCCESS) {
			sd_xp_import_free(imp);
			return err;
		}
	}
	if (!relayed_ok)
		sd_xp_detach_record(imp);
	if (imp->rec == NULL)
		SD_LOG_DBG("export %llu of pid %u is not live; every access to this import will fail",
			   (unsigned long long)d.export_id, d.who.pid);
	else
		SD_LOG_DBG("export %llu of pid %u is reached by %s%s", (unsigned long long)d.export_id, d.who.pid,
			   sd_xp_path_name(imp->path),
			   imp->path != SD_XP_PATH_SHARED ? ""
			   : imp->cannot_shrink         ? " (sealed against shrinking: unguarded copies)"
							: " (copies under the SIGBUS guard)");
	mmap->addr = (uint8_t *)(uintptr_t)d.addr;
	mmap->len = (size_t)d.len;
	mmap->range_set = true;
	mmap->access_mask = d.access_mask;
	mmap->remote = &sd_xp_remote_ops;
	mmap->remote_priv = imp;
	sd_xp_reexport_keep(mmap, &d);
	return DOCA_SUCCESS;
}

void sd_xproc_import_close(struct doca_mmap *mmap)
{
	sd_xp_reexport_drop(mmap);
	if (sd_xp_ucx_is_import(mmap)) {
		sd_xp_ucx_import_close(mmap);
		return;
	}
	if (mmap->remote_priv != NULL)
		sd_xp_import_free(mmap->remote_priv);
	mmap->remote_priv = NULL;
	mmap->remote = NULL;
}
