/*
 * mmap_resident.c - fault a range in, as a card's memory registration does,
 * without changing a byte and without any signal.
 *
 * Linux 5.14 and later do it in one call: madvise(MADV_POPULATE_WRITE)
 * faults every page in as if written (private pages get their own copy,
 * file pages are read in, nothing is modified), MADV_POPULATE_READ as if
 * read.  Failures come back as errors, never as SIGSEGV or SIGBUS.  Older
 * kernels (or a seccomp filter that refuses the advice) get the fallback:
 * one access per page made by the kernel itself through the futex system
 * call, which faults the page in and reports a bad page as EFAULT instead
 * of raising a signal: FUTEX_WAKE_OP adds 0 atomically to the page's first
 * word (a write access that changes nothing even while other threads
 * write), FUTEX_WAIT with a zero timeout only reads it.
 *
 * When a page fails, /proc/self/maps says why: nothing mapped there, a
 * mapping without the needed protection, a file mapping past its file's
 * end, or the kernel out of memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "mmap_register.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Transient failures (a fatal signal arriving, a racing reclaim) are retried this often. */
#define SD_RESIDENT_RETRIES 3

size_t sd_mem_page_size(void)
{
	static atomic_size_t page;
	size_t p = atomic_load_explicit(&page, memory_order_relaxed);

	if (p == 0) {
		long v = sysconf(_SC_PAGESIZE);
		p = v > 0 ? (size_t)v : 4096;
		atomic_store_explicit(&page, p, memory_order_relaxed);
	}
	return p;
}

/* Does this kernel take MADV_POPULATE_*?  Asked once, on a page of our own. */
static bool sd_madvise_populate_works(void)
{
	static atomic_int known; /* 0 not asked yet, 1 yes, 2 no */
	int k = atomic_load_explicit(&known, memory_order_relaxed);

	if (k == 0) {
		size_t pg = sd_mem_page_size();
		void *p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		k = 2;
		if (p != MAP_FAILED) {
			if (madvise(p, pg, MADV_POPULATE_WRITE) == 0)
				k = 1;
			munmap(p, pg);
		}
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k == 1;
}

/* ---- the two ways of faulting pages in -------------------------------- */

/* madvise on [lo, hi): 0 or errno. */
static int sd_populate_call(uintptr_t lo, uintptr_t hi, bool write)
{
	int adv = write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ;

	return madvise((void *)lo, hi - lo, adv) == 0 ? 0 : errno;
}

/* A kernel-side access to the first word of page `p`: 0 or errno. */
static int sd_touch_page(uintptr_t p, bool write)
{
	uint32_t *word = (uint32_t *)p;
	long r;

	if (write)
		return syscall(SYS_futex, word, FUTEX_WAKE_OP_PRIVATE, 0, 0, word,
			       FUTEX_OP(FUTEX_OP_ADD, 0, FUTEX_OP_CMP_EQ, 0)) < 0 ?
			       errno :
			       0;
	struct timespec zero = {0, 0};
	r = syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, UINT32_MAX, &zero, NULL, 0);
	/* The value was read: it differed (EAGAIN) or we "waited" 0 ns. */
	return r == 0 || errno == EAGAIN || errno == ETIMEDOUT || errno == EINTR ? 0 : errno;
}

/* Touch every page of [lo, hi): 0, or errno with *bad the failing page. */
static int sd_populate_touch(uintptr_t lo, uintptr_t hi, bool write, uintptr_t *bad)
{
	size_t pg = sd_mem_page_size();

	for (uintptr_t p = lo; p < hi; p += pg) {
		int err = sd_touch_page(p, write);

		if (err != 0) {
			*bad = p;
			return err;
		}
	}
	return 0;
}

/*
 * madvise on [lo, hi): 0, or errno with *bad the first page that fails
 * (found by halving: populated pages cost almost nothing the second time).
 */
static int sd_populate_madvise(uintptr_t lo, uintptr_t hi, bool write, uintptr_t *bad)
{
	size_t pg = sd_mem_page_size();
	uintptr_t l = lo, h = hi;
	int err;

	if (sd_populate_call(lo, hi, write) == 0)
		return 0;
	while (h - l > pg) { /* a failure lies in [l, h); [lo, l) is resident */
		uintptr_t mid = l + (((h - l) / 2) & ~(uintptr_t)(pg - 1));

		if (sd_populate_call(l, mid, write) == 0)
			l = mid;
		else
			h = mid;
	}
	*bad = l;
	err = sd_populate_call(l, h, write);
	return err != 0 ? err : EAGAIN; /* it passed this time: the caller starts over */
}

/* ---- why a page failed --------------------------------------------------- */

struct sd_vma {
	uintptr_t start, end;
	char perms[8];
	unsigned long inode;
	char path[160];
};

/* The mapping that holds `page`, from /proc/self/maps; false when none does. */
static bool sd_vma_of(uintptr_t page, struct sd_vma *v, bool *maps_readable)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool found = false;

	*maps_readable = f != NULL;
	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		unsigned long long start, end, off;
		unsigned major, minor;
		int path_at = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %lu %n", &start, &end, v->perms, &off, &major, &minor,
			   &v->inode, &path_at) < 7)
			continue;
		if (page < start || page >= end)
			continue;
		v->start = (uintptr_t)start;
		v->end = (uintptr_t)end;
		v->path[0] = '\0';
		if (path_at > 0)
			snprintf(v->path, sizeof(v->path), "%s", line + path_at);
		v->path[strcspn(v->path, "\n")] = '\0';
		found = true;
	}
	fclose(f);
	return found;
}

static const char *sd_vma_name(const struct sd_vma *v)
{
	return v->path[0] != '\0' ? v->path : "anonymous memory";
}

/* Huge pages come from a pool the kernel may have run out of. */
static bool sd_vma_is_hugetlb(const struct sd_vma *v)
{
	return strstr(v->path, "anon_hugepage") != NULL || strstr(v->path, "huge") != NULL;
}

enum sd_verdict {
	SD_VERDICT_FAIL, /* the range cannot be registered */
	SD_VERDICT_SKIP, /* a mapping the kernel never faults (I/O, PFN): leave it, go on after it */
};

/* Fill *f for the failure `err` at `page`; SKIP (with *skip_to) for mappings that need nothing. */
static enum sd_verdict sd_explain(uintptr_t page, int err, bool write, struct sd_resident_failure *f,
				  uintptr_t *skip_to)
{
	struct sd_vma v;
	bool maps_ok;
	bool mapped = sd_vma_of(page, &v, &maps_ok);

	f->page = page;
	f->err = DOCA_ERROR_INVALID_VALUE;
	if (!mapped && maps_ok) {
		snprintf(f->why, sizeof(f->why), "nothing is mapped at %#" PRIxPTR " (the range has a hole)", page);
		return SD_VERDICT_FAIL;
	}
	if (!mapped) {
		f->err = err == ENOMEM ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_NO_MEMORY;
		snprintf(f->why, sizeof(f->why), "page %#" PRIxPTR " cannot be faulted in: %s", page, strerror(err));
		return SD_VERDICT_FAIL;
	}
	if (v.perms[0] != 'r') {
		snprintf(f->why, sizeof(f->why), "the mapping %#" PRIxPTR "-%#" PRIxPTR " (%s, %s) is not readable", v.start,
			 v.end, v.perms, sd_vma_name(&v));
		return SD_VERDICT_FAIL;
	}
	if (write && v.perms[1] != 'w') {
		snprintf(f->why, sizeof(f->why),
			 "the mapping %#" PRIxPTR "-%#" PRIxPTR " (%s, %s) is read-only, but the access mask grants "
			 "write access (use LOCAL_READ_ONLY / PCI_READ_ONLY for read-only memory)",
			 v.start, v.end, v.perms, sd_vma_name(&v));
		return SD_VERDICT_FAIL;
	}
	switch (err) {
	case EINVAL: /* readable and writable as needed, yet refused: VM_IO / VM_PFNMAP */
		*skip_to = v.end;
		return SD_VERDICT_SKIP;
	case EFAULT: /* the access would have raised SIGBUS */
		if (sd_vma_is_hugetlb(&v)) {
			f->err = DOCA_ERROR_NO_MEMORY;
			snprintf(f->why, sizeof(f->why), "no huge page is left to back page %#" PRIxPTR " of %s", page,
				 sd_vma_name(&v));
		} else if (v.inode != 0 || v.path[0] == '/') {
			snprintf(f->why, sizeof(f->why), "page %#" PRIxPTR " lies past the end of the file %s mapped there",
				 page, sd_vma_name(&v));
		} else {
			f->err = DOCA_ERROR_NO_MEMORY;
			snprintf(f->why, sizeof(f->why), "the kernel cannot back page %#" PRIxPTR " of %s", page,
				 sd_vma_name(&v));
		}
		return SD_VERDICT_FAIL;
	case EHWPOISON:
		snprintf(f->why, sizeof(f->why), "page %#" PRIxPTR " of %s has a hardware memory error", page,
			 sd_vma_name(&v));
		return SD_VERDICT_FAIL;
	default:
		f->err = DOCA_ERROR_NO_MEMORY;
		snprintf(f->why, sizeof(f->why), "the kernel cannot make page %#" PRIxPTR " of %s resident: %s", page,
			 sd_vma_name(&v), strerror(err));
		return SD_VERDICT_FAIL;
	}
}

/* ---- the entry point ----------------------------------------------------- */

/* A range larger than the machine's memory can never be resident as a whole. */
static bool sd_larger_than_memory(size_t len, unsigned long long *total)
{
	struct sysinfo si;

	if (sysinfo(&si) != 0)
		return false;
	*total = (unsigned long long)si.totalram * si.mem_unit;
	return *total > 0 && len > *total;
}

doca_error_t sd_mem_make_resident(void *addr, size_t len, bool write, enum sd_resident_how how,
				  struct sd_resident_failure *fail, const char **method)
{
	size_t pg = sd_mem_page_size();
	uintptr_t lo = (uintptr_t)addr & ~(uintptr_t)(pg - 1);
	uintptr_t end = (uintptr_t)addr + len;
	uintptr_t hi = end > UINTPTR_MAX - pg ? UINTPTR_MAX & ~(uintptr_t)(pg - 1) : (end + pg - 1) & ~(uintptr_t)(pg - 1);
	bool madv = how == SD_RESIDENT_MADVISE || (how == SD_RESIDENT_AUTO && sd_madvise_populate_works());
	unsigned long long total = 0;
	int retries = 0;

	if (method != NULL)
		*method = madv ? (write ? "madvise(MADV_POPULATE_WRITE)" : "madvise(MADV_POPULATE_READ)") :
				 (write ? "a futex write access per page" : "a futex read access per page");
	if (sd_larger_than_memory(hi - lo, &total)) {
		fail->err = DOCA_ERROR_NO_MEMORY;
		fail->page = lo;
		snprintf(fail->why, sizeof(fail->why), "the range is larger than this machine's memory (%llu bytes)",
			 total);
		return fail->err;
	}
	for (uintptr_t cur = lo; cur < hi;) {
		uintptr_t bad = cur, skip_to = hi;
		int err = madv ? sd_populate_madvise(cur, hi, write, &bad) : sd_populate_touch(cur, hi, write, &bad);

		if (err == 0)
			break;
		if (err == EINTR || err == EAGAIN) {
			if (++retries > SD_RESIDENT_RETRIES) {
				fail->page = bad;
				fail->err = DOCA_ERROR_NO_MEMORY;
				snprintf(fail->why, sizeof(fail->why), "page %#" PRIxPTR " kept failing: %s", bad,
					 strerror(err));
				return fail->err;
			}
			continue;
		}
		if (sd_explain(bad, err, write, fail, &skip_to) == SD_VERDICT_FAIL)
			return fail->err;
		cur = skip_to;
	}
	return DOCA_SUCCESS;
}
