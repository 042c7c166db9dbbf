/*
 * xproc_priv.h - what the files of the cross-process layer share.
 *
 * Pieces, one per file:
 *   xproc_desc.c      the descriptor bytes (xproc_desc.h)
 *   xproc_identity.c  who a process is; is a given process still there
 *   xproc_record.c    the validity record an exporter publishes per export
 *   xproc_relay.c     watching the record of a process that handed an export on
 *   xproc_shared.c    finding a shared file behind an exported range
 *   xproc_access.c    the importer's data paths and their probes
 *   xproc_export.c    export state of an mmap (descriptors, record, files)
 *   xproc_import.c    import state of an mmap and its remote access hooks
 *   xproc_net.c       SOFTDOCA_PEER: where the other side of the link runs
 *   xproc_ucx.c       the UCX transport: opening its module, exports that
 *                     offer a network endpoint, imports that use one
 *   xproc_presence.c  a small record peers anywhere can check (sd_presence.h)
 */
#ifndef SD_XPROC_PRIV_H
#define SD_XPROC_PRIV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#include "xproc_desc.h"
#include "sd_mem.h"
#include "xproc_relay.h"

/*
 * Identity.
 */

/* This process's identity (recomputed after a fork). 0 on success, else errno. */
int sd_xp_self(struct sd_xp_identity *out);

/* True when `who` names this machine (boot) and this PID namespace. */
bool sd_xp_same_namespace(const struct sd_xp_identity *who);

/* Start time of process `pid`, from /proc.  0 on success, else errno (ESRCH when gone). */
int sd_xp_start_time(uint32_t pid, uint64_t *start_time);

/* 0 when `pid` runs and started at `start_time`; ESRCH when gone or recycled. */
int sd_xp_check_alive(uint32_t pid, uint64_t start_time);

/* Fill `buf` with `len` unpredictable bytes (getrandom).  0 or errno. */
int sd_xp_random(void *buf, size_t len);

/*
 * Validity record: one small shared page per export, in /dev/shm (or /tmp).
 * The exporter holds a POSIX read lock on the file for as long as it
 * lives: the kernel drops it when the exporter exits or execs, which is how
 * importers learn that without a message.
 */

#define SD_XP_REC_MAGIC 0x52584453u /* "SDXR" */
#define SD_XP_REC_LIVE 1u
#define SD_XP_REC_DEAD 2u
#define SD_XP_REC_SIZE 4096u

/*
 * What a relay record hands on (zero in an exporter's own record): the
 * host export it is bound to.  The re-export descriptor carries the relay's
 * own token, never the host's; an importer that shows the relay's token
 * gets the host's from here (xproc_relay.h).
 */
struct sd_xp_record_up {
	uint64_t export_id;  /* the host export's id ... */
	uint32_t generation; /* ... its generation ... */
	uint32_t zero;
	uint8_t token[SD_XP_TOKEN_LEN]; /* ... and its token */
};

struct sd_xp_record {
	uint32_t magic;
	_Atomic uint32_t state; /* SD_XP_REC_LIVE until stop, destroy or exit */
	uint32_t pid;
	uint32_t access_mask;
	uint64_t export_id;
	uint64_t addr, len;
	uint8_t token[SD_XP_TOKEN_LEN]; /* this record's own export token (a relay's: the relay token) */
	struct sd_xp_record_up up;      /* relay records only */
};

/* Path of the record of (pid, start time, export id); `tmp` picks /tmp over /dev/shm. */
void sd_xp_record_path(char *out, size_t size, bool tmp, uint32_t pid, uint64_t start_time, uint64_t export_id);

/* Exporter: create, publish and lock a record.  0 or errno. */
struct sd_xp_export;
int sd_xp_record_create(struct sd_xp_export *exp);
/* Exporter: mark dead, unlink, unlock and unmap (only the creating process flips it). */
void sd_xp_record_retire(struct sd_xp_export *exp);
/* Remove records left behind by exporters that died without cleaning up. */
void sd_xp_record_sweep(void);

/* Whether an importer of a descriptor of `kind` may write: PCI_READ_WRITE, or RDMA write or atomic rights. */
static inline bool sd_xp_kind_writable(uint32_t access_mask, uint8_t kind)
{
	if (kind == SD_XP_KIND_RDMA)
		return (access_mask & (DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)) != 0;
	return (access_mask & DOCA_ACCESS_FLAG_PCI_READ_WRITE) != 0;
}

/* Whether the exporter serves writes at all: some descriptor kind may write. */
static inline bool sd_xp_export_writable(uint32_t access_mask)
{
	return sd_xp_kind_writable(access_mask, SD_XP_KIND_PCI) || sd_xp_kind_writable(access_mask, SD_XP_KIND_RDMA);
}

/*
 * Export state of one mmap while it is started and exported.
 */

/*
 * One descriptor per device the mmap was exported through.  Each is its own
 * allocation, linked in a list: the application holds a pointer into
 * `bytes` until the mmap stops, so a slot never moves once handed out.
 */
struct sd_xp_desc_slot {
	const void *node; /* struct sd_device the descriptor names */
	uint8_t kind;     /* SD_XP_KIND_PCI or SD_XP_KIND_RDMA */
	struct sd_xp_desc_slot *next;
	size_t len;       /* SD_XP_DESC_LEN, or SD_XP_DESC_NET_LEN with a network endpoint */
	uint8_t bytes[SD_XP_DESC_MAX_LEN];
};

struct sd_xp_export {
	uint32_t owner_pid;  /* process that created it (a fork child never retires it) */
	struct sd_xp_desc base; /* fields every descriptor of this export shares */
	struct sd_xp_record_up up; /* a relay's: the host export it hands on; zero otherwise */
	bool record_tmp;
	char record_path[128];
	int record_fd;            /* holds the liveness lock */
	struct sd_xp_record *rec; /* shared page, writable */
	int shared_fd;            /* file kept open for importers, -1 when none */
	struct sd_xp_desc_slot *slots; /* list, newest first */
	void *ucx;                /* the UCX transport's serving state (xproc_ucx.c), or NULL */
	struct sd_xp_export *next; /* registry of this process's live exports */
};

/* A new export id, unique among this process's exports (and presences, sd_presence.h). */
uint64_t sd_xp_export_id_next(void);

/* Look for a shared file behind [addr, addr + len); fills `sh` (fd is a dup we own). */
bool sd_xp_shared_find(uint64_t addr, uint64_t len, bool writable, struct sd_xp_shared *sh);

/*
 * Registry of this process's live records: exports, and the relay records
 * of re-exports (xproc_reexport.c).  Listed, a record is flipped dead at
 * exit and can be mapped again for a self-import.
 */
void sd_xp_registry_add(struct sd_xp_export *exp);
void sd_xp_registry_remove(struct sd_xp_export *exp);
/* Registry: the record page of live export `export_id` of this process, mapped again for a self-import. */
struct sd_xp_record *sd_xp_export_map_own_record(uint64_t export_id, const uint8_t *token);

/*
 * Import state: how the importer reaches the exporter's bytes.
 */

enum sd_xp_path {
	SD_XP_PATH_NONE = 0, /* nothing reachable: every access fails */
	SD_XP_PATH_SELF,     /* same process: plain memcpy */
	SD_XP_PATH_SHARED,   /* shared file mapped here: memcpy */
	SD_XP_PATH_VM,       /* process_vm_readv / process_vm_writev */
	SD_XP_PATH_PROCMEM,  /* pread / pwrite on /proc/PID/mem */
};

struct sd_xp_import {
	/*
	 * The first line (sd_lines.h; the import is allocated on a line):
	 * everything a copy through the shared or same-process path reads.
	 */
	uint64_t addr, len; /* exported range (exporter addresses) */
	uint8_t *base;      /* local view of `page` for SELF and SHARED */
	uint64_t page;      /* exporter address that `base` maps */
	struct sd_xp_record *rec; /* mapped read-only; NULL when dead at import */
	_Atomic uint64_t next_lock_check_ns; /* SHARED and VM: throttle of the lock check */
	enum sd_xp_path path;
	_Atomic int dead;   /* sticky once the export was seen gone */
	bool writable;      /* export grants PCI_READ_WRITE */
	bool cannot_shrink; /* SHARED: the file is sealed against shrinking, so no copy can fault */
	bool relayed;       /* `relay` watches a relay's record (most imports have none) */
	/* The first line ends here. */
	uint32_t pid;
	size_t map_len;     /* bytes mapped at base (SHARED) */
	int rec_fd;         /* to ask who holds the liveness lock, -1 when none */
	int mem_fd;         /* /proc/PID/mem for SD_XP_PATH_PROCMEM */
	struct sd_xp_relay_watch relay; /* the relaying process's record (SD_XP_FLAG_RELAY); holds nothing else */
};

_Static_assert(offsetof(struct sd_xp_import, pid) <= SD_LINE, "an import's copy fields fit its first line");

struct doca_mmap;

/* xproc_reexport.c: keep a PCI import's descriptor for doca_mmap_export_rdma; free it. */
void sd_xp_reexport_keep(struct doca_mmap *mmap, const struct sd_xp_desc *d);
void sd_xp_reexport_drop(struct doca_mmap *mmap);

/* SOFTDOCA_XPROC_PATH (one WARNING for an unknown value, which means auto). */
enum sd_xp_mode {
	SD_XP_MODE_AUTO,
	SD_XP_MODE_VM,
	SD_XP_MODE_PROCMEM,
	SD_XP_MODE_UCX, /* importers use UCX, exporters offer it even without SOFTDOCA_PEER */
};
enum sd_xp_mode sd_xp_mode_from_env(void);

/* Choose and probe a data path for `imp` (after the record is attached). */
doca_error_t sd_xp_access_open(struct sd_xp_import *imp, const struct sd_xp_desc *d, const char *func);
/* Release what sd_xp_access_open acquired. */
void sd_xp_access_close(struct sd_xp_import *imp);

/* Copy through the chosen path; DOCA_ERROR_IO_FAILED when the export is gone. */
doca_error_t sd_xp_access_read(struct sd_xp_import *imp, void *dst, uint64_t raddr, size_t len);
doca_error_t sd_xp_access_write(struct sd_xp_import *imp, uint64_t raddr, const void *src, size_t len);
/* 8-byte atomic (enum sd_mem_atomic_op) where the exporter's memory is mapped here: self and shared paths. */
doca_error_t sd_xp_access_atomic(struct sd_xp_import *imp, uint64_t raddr, int op, uint64_t a, uint64_t b,
				 uint64_t *old);

/*
 * Copy `n` pieces with one process_vm_readv/process_vm_writev (vm path
 * only, at most SD_XP_MANY_MAX): how many pieces from the first were copied
 * whole while the export stayed live; 0 on any other path or doubt (the
 * caller then copies one by one, which reports the errors).
 */
#define SD_XP_MANY_MAX 64u
uint32_t sd_xp_access_many(struct sd_xp_import *imp, const struct sd_remote_piece *p, uint32_t n, bool write);

/* Does the exporter still hold its liveness lock (it runs, and has not exec'd)? */
bool sd_xp_lock_held(const struct sd_xp_import *imp);
/*
 * Is a check due under throttle `next`?  True at most once per millisecond
 * of the coarse clock (whose tick is 1 to 4 ms), and first after a pause.
 */
bool sd_xp_check_due(_Atomic uint64_t *next);

/*
 * SIGBUS-safe copies through a shared file mapping (xproc_guard.c).
 * sd_xp_guard_install: once per process, before the first guarded copy;
 * false when the handler cannot be installed (then the shared path is not
 * used).  sd_xp_guarded_copy: memmove(dst, src, len), where one side lies in
 * the mapping [map, map + map_len); 0, or EFAULT when a page of the mapping
 * has no file behind it any more (the file shrank).  No system call.
 */
bool sd_xp_guard_install(void);
int sd_xp_guarded_copy(void *dst, const void *src, size_t len, const void *map, size_t map_len);

/* Name of a path for diagnostics. */
const char *sd_xp_path_name(enum sd_xp_path path);

/*
 * The UCX transport (xproc_ucx.c).
 */

struct doca_mmap;

/*
 * Export `exp` over UCX too when this process is told to (SOFTDOCA_PEER,
 * or SOFTDOCA_XPROC_PATH=ucx): sets exp->base.net and exp->ucx.  A failure
 * is a WARNING; the export stands for local importers.
 */
void sd_xp_ucx_export_attach(struct sd_xp_export *exp);
/* Cut every UCX peer off the export (before its record retires). */
void sd_xp_ucx_export_detach(struct sd_xp_export *exp);

/* Where this process's exports listen; false when they offer no network endpoint. */
bool sd_xp_ucx_bind(struct sd_xp_net *bind);
/* The loaded UCX transport, or NULL; *why then says why it is missing. */
struct sd_ucx_module;
const struct sd_ucx_module *sd_xp_ucx_module(const char **why);

/* True when an import of `d` goes through UCX (another namespace, or forced). */
bool sd_xp_ucx_chosen(const struct sd_xp_desc *d);
/* The import-time check of a UCX import: it has an endpoint and the module loads. */
doca_error_t sd_xp_ucx_import_check(const char *func, const struct sd_xp_desc *d);
/* Fill imported `mmap` for a UCX import; never waits on the exporter. */
doca_error_t sd_xp_ucx_import(const char *func, struct doca_mmap *mmap, const struct sd_xp_desc *d);
/* True when `mmap` is a UCX import; then sd_xp_ucx_import_close releases it. */
bool sd_xp_ucx_is_import(const struct doca_mmap *mmap);
void sd_xp_ucx_import_close(struct doca_mmap *mmap);

#endif /* SD_XPROC_PRIV_H */
