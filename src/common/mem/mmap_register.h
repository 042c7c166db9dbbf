/*
 * mmap_register.h - what doca_mmap_start does to the memory of a range, as a
 * card's registration would: make every page resident, and pin it.
 *
 * Three pieces, one per file:
 *   mmap_resident.c  fault a range in without changing a byte and without
 *                    any signal, or say exactly why a page cannot be;
 *   mmap_pin.c       the process-wide register of pinned ranges (mlock is
 *                    not counted per caller, so overlapping mmaps share it);
 *   mmap_share.c     exported ranges moved onto a memfd importers can map;
 *   mmap_register.c  the policy: which mmaps, which mode, logging, timing.
 * See docs/mmap-registration.md for the decisions.
 */
#ifndef SD_MMAP_REGISTER_H
#define SD_MMAP_REGISTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

struct doca_mmap;

/* ---- mmap_resident.c ------------------------------------------------- */

/* How pages are faulted in. */
enum sd_resident_how {
	SD_RESIDENT_AUTO = 0, /* madvise(MADV_POPULATE_*) where the kernel has it, else touching */
	SD_RESIDENT_MADVISE,  /* madvise(MADV_POPULATE_READ / _WRITE) only */
	SD_RESIDENT_TOUCH,    /* one kernel-side access per page (futex), for kernels before 5.14 */
};

/* Why a range could not be made resident. */
struct sd_resident_failure {
	doca_error_t err;  /* what doca_mmap_start returns */
	uintptr_t page;    /* the first page that could not be made resident */
	char why[256];     /* the cause, in words, naming the mapping */
};

/*
 * Make every page of [addr, addr + len) resident, writable ones by a write
 * access when `write` (so a later write does not fault either).  No byte
 * changes, and no SIGSEGV or SIGBUS can result: the kernel does every
 * access and reports failures as errors.  Pages the kernel cannot populate
 * by design (I/O and PFN mappings, which never fault) are left as they are.
 * On failure *fail says which page and why.  *method (optional) names what
 * was used, for diagnostics.
 */
doca_error_t sd_mem_make_resident(void *addr, size_t len, bool write, enum sd_resident_how how,
				  struct sd_resident_failure *fail, const char **method);

/* The page size, once. */
size_t sd_mem_page_size(void);

/* ---- mmap_pin.c ------------------------------------------------------ */

/*
 * Pin the pages of [addr, addr + len) with mlock on behalf of `key` (an
 * mmap).  True when pinned.  False, with `why` filled, when the process may
 * not lock that much (RLIMIT_MEMLOCK without CAP_IPC_LOCK) or the kernel
 * refused; nothing is left locked by this call then.
 */
bool sd_mem_pin(const void *key, const void *addr, size_t len, char *why, size_t why_len);

/*
 * Undo sd_mem_pin for `key`: unlock the pages no other pinned range of the
 * register covers.  Pages that were already locked when `key` pinned them
 * (by the program itself) are never unlocked.  No-op for a key not pinned.
 */
void sd_mem_unpin(const void *key);

/* ---- mmap_share.c ---------------------------------------------------- */

/*
 * doca_mmap_start of an mmap with a PCI right: move the range's private
 * anonymous pages onto a memfd at the same addresses and with the same
 * bytes, so that an importer maps them and copies without a system call.
 * Sets mmap->reg_shared; a range that cannot move stays as it is (DEBUG).
 */
void sd_mmap_share(struct doca_mmap *mmap);

/* End of a start period: move the pages back to private memory (last user of the pages). */
void sd_mmap_unshare(struct doca_mmap *mmap);

/* ---- mmap_register.c ------------------------------------------------- */

/* doca_mmap_start, after the engines classified the range: populate and pin. */
doca_error_t sd_mmap_register(struct doca_mmap *mmap);

/* End of a start period (stop, destroy's implicit stop): undo the pin. */
void sd_mmap_unregister(struct doca_mmap *mmap);

/*
 * First export of a start period: make the exported range resident again
 * (pages reclaimed since start), because importers reach it from another
 * process and cannot fault it in themselves.  Nothing to do for a pinned
 * range: locked pages stay.  `func` is the reporting call.
 */
doca_error_t sd_mmap_register_for_export(struct doca_mmap *mmap, const char *func);

#endif /* SD_MMAP_REGISTER_H */
