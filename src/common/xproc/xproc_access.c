/*
 * xproc_access.c - how an importer reaches the exporter's bytes.
 *
 * Paths, tried in this order at import:
 *   shared   the range is a shared file mapping: map the same file, memcpy
 *            (guarded: a file that shrinks under the import fails the copy
 *            with EFAULT instead of killing us with SIGBUS, xproc_guard.c;
 *            a file sealed against shrinking needs no guard)
 *   vm       process_vm_readv / process_vm_writev (cross-memory attach)
 *   procmem  pread / pwrite on /proc/PID/mem, where only the vm calls are
 *            filtered (seccomp)
 * and `self` when the exporter is this very process.  A path is probed
 * before it is chosen; if the kernel refuses every one the import fails
 * with a message naming the cause and the fix.
 *
 * Every access checks, in this order: the range lies in the export; the
 * export is live (the record's state word, a plain load); then copies; then
 * checks again, so that bytes read from memory the exporter gave up in the
 * meantime are never reported as a success.  The memory paths copy with
 * memmove, as the cpu engine does: the same bytes can be reached through
 * an import and a local mmap at once, so a task may copy between
 * overlapping ranges.
 *
 * A process that exits loses its address space at once, so the vm calls
 * fail (ESRCH) and /proc/PID/mem reads end, on the very next copy.  What a
 * dead exporter cannot do is flip its record, and a pid is a name that can
 * be recycled, and a process that execs keeps its pid: for those the
 * importer asks who holds the exporter's liveness lock (one fcntl).  That
 * question costs as much as a small copy, so it is asked at most once per
 * tick of the coarse clock (1 to 4 ms) per import, and always first after a pause: a pid is only
 * reused after the kernel's pid counter wraps, which takes far longer than
 * that.  The procmem path needs no such question (its descriptor is tied
 * to the exporter's address space, not to its pid).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "sd_log.h"
#include "sd_mem.h"
#include "sd_valgrind.h"
#include "xproc_priv.h"

/* One system call moves at most this much, so a stop cuts a long copy short. */
#define SD_XP_CHUNK ((size_t)64 << 20)
/* The vm and shared paths re-ask the liveness lock at most this often. */
#define SD_XP_LOCK_PERIOD_NS 1000000ull

const char *sd_xp_path_name(enum sd_xp_path path)
{
	switch (path) {
	case SD_XP_PATH_SELF:
		return "memcpy (same process)";
	case SD_XP_PATH_SHARED:
		return "memcpy through the shared file mapping";
	case SD_XP_PATH_VM:
		return "process_vm_readv/process_vm_writev";
	case SD_XP_PATH_PROCMEM:
		return "/proc/PID/mem";
	case SD_XP_PATH_NONE:
		break;
	}
	return "none";
}

/*
 * Liveness.
 */

static inline bool sd_xp_record_live(const struct sd_xp_import *imp)
{
	return imp->rec != NULL && atomic_load_explicit(&imp->rec->state, memory_order_acquire) == SD_XP_REC_LIVE &&
	       (!imp->relayed || atomic_load_explicit(imp->relay.state, memory_order_acquire) == SD_XP_REC_LIVE);
}

/* Does the exporter still hold its liveness lock (alive, not exec'd)? */
bool sd_xp_lock_held(const struct sd_xp_import *imp)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};

	if (imp->rec_fd < 0)
		return true; /* self import: the exporter is us */
	if (fcntl(imp->rec_fd, F_GETLK, &fl) != 0)
		return false;
	return fl.l_type != F_UNLCK && (uint32_t)fl.l_pid == imp->pid;
}

/*
 * Is a check due under throttle `next`?  The coarse clock (one tick, 1 to
 * 4 ms): a precise read costs as much as a small copy on some virtual
 * machines, and the throttle needs only to notice that time passed.
 */
bool sd_xp_check_due(_Atomic uint64_t *next)
{
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (now < atomic_load_explicit(next, memory_order_relaxed))
		return false;
	atomic_store_explicit(next, now + SD_XP_LOCK_PERIOD_NS, memory_order_relaxed);
	return true;
}

static bool sd_xp_lock_held_throttled(struct sd_xp_import *imp)
{
	return !sd_xp_check_due(&imp->next_lock_check_ns) || sd_xp_lock_held(imp);
}

/*
 * A relay that died without retiring its record revokes its re-export all
 * the same.  An import without a relay to ask (most) answers here, without
 * a call.
 */
static inline bool sd_xp_relay_alive_throttled(struct sd_xp_import *imp)
{
	if (!imp->relayed)
		return true;
	if (imp->relay.fd < 0)
		return !atomic_load_explicit(&imp->relay.revoked, memory_order_relaxed);
	return sd_xp_relay_lock_ok(&imp->relay);
}

/* The export is gone for good: every later access fails at once. */
static doca_error_t sd_xp_gone(struct sd_xp_import *imp)
{
	atomic_store_explicit(&imp->dead, 1, memory_order_relaxed);
	return DOCA_ERROR_IO_FAILED;
}

static inline bool sd_xp_usable(struct sd_xp_import *imp)
{
	if (atomic_load_explicit(&imp->dead, memory_order_relaxed) || !sd_xp_record_live(imp))
		return false;
	if (!sd_xp_relay_alive_throttled(imp)) {
		(void)sd_xp_gone(imp);
		return false;
	}
	return true;
}

static inline bool sd_xp_in_range(const struct sd_xp_import *imp, uint64_t raddr, size_t len)
{
	return raddr >= imp->addr && raddr - imp->addr <= imp->len && len <= imp->len - (raddr - imp->addr);
}

/*
 * Copies.  Each returns 0, ESRCH when the exporter's memory is gone, or
 * another errno for a fault inside a live export.
 */

/*
 * The system calls that write the exporter's memory stand for a card
 * reading the program's buffer: valgrind does not check them
 * (sd_valgrind.h says why).
 */
static ssize_t sd_xp_vm_writev(pid_t pid, const struct iovec *l, unsigned long ln, const struct iovec *r,
			       unsigned long rn)
{
	ssize_t got;

	SD_VG_UNCHECKED(got = process_vm_writev(pid, l, ln, r, rn, 0));
	return got;
}

static ssize_t sd_xp_procmem_pwrite(int fd, const void *local, size_t n, off_t at)
{
	ssize_t got;

	SD_VG_UNCHECKED(got = pwrite(fd, local, n, at));
	return got;
}

static int sd_xp_vm_copy(struct sd_xp_import *imp, uint8_t *local, uint64_t raddr, size_t len, bool write)
{
	while (len != 0) {
		size_t n = len < SD_XP_CHUNK ? len : SD_XP_CHUNK;
		struct iovec l = {.iov_base = local, .iov_len = n};
		struct iovec r = {.iov_base = (void *)(uintptr_t)raddr, .iov_len = n};
		ssize_t got = write ? sd_xp_vm_writev((pid_t)imp->pid, &l, 1, &r, 1) :
				      process_vm_readv((pid_t)imp->pid, &l, 1, &r, 1, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (got == 0)
			return EFAULT;
		local += got;
		raddr += (uint64_t)got;
		len -= (size_t)got;
		if (len != 0 && !sd_xp_record_live(imp))
			return ESRCH;
	}
	return 0;
}

static int sd_xp_procmem_copy(struct sd_xp_import *imp, uint8_t *local, uint64_t raddr, size_t len, bool write)
{
	while (len != 0) {
		size_t n = len < SD_XP_CHUNK ? len : SD_XP_CHUNK;
		ssize_t got = write ? sd_xp_procmem_pwrite(imp->mem_fd, local, n, (off_t)raddr) :
				      pread(imp->mem_fd, local, n, (off_t)raddr);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (got == 0)
			return ESRCH; /* the address space is gone (exit or exec) */
		local += got;
		raddr += (uint64_t)got;
		len -= (size_t)got;
		if (len != 0 && !sd_xp_record_live(imp))
			return ESRCH;
	}
	return 0;
}

/*
 * A copy through the shared mapping.  Only a file that shrank can make it
 * fault, so a file sealed against shrinking (softdoca's own registration
 * memfd, mmap_share.c) needs no guard: the import checked at open that the
 * file covered the whole range, and a seal is never taken off.  Any other
 * file (the program's own memfd, a /dev/shm object) is copied under the
 * SIGBUS guard.
 */
static inline int sd_xp_shared_copy(const struct sd_xp_import *imp, void *dst, const void *src, size_t len)
{
	if (!imp->cannot_shrink)
		return sd_xp_guarded_copy(dst, src, len, imp->base, imp->map_len);
	memmove(dst, src, len); /* a buffer may overlap its peer (same pages, two views) */
	return 0;
}

static doca_error_t sd_xp_copy_result(struct sd_xp_import *imp, int err)
{
	if (err == 0)
		return DOCA_SUCCESS;
	if (err == ESRCH)
		return sd_xp_gone(imp);
	if (err == EFAULT && imp->path == SD_XP_PATH_SHARED)
		SD_LOG_DBG("the shared file of exporter pid %u no longer covers the range: it was shrunk under a "
			   "live export", imp->pid);
	else
		SD_LOG_DBG("copy with exporter pid %u failed: %s", imp->pid, strerror(err));
	return DOCA_ERROR_IO_FAILED;
}

doca_error_t sd_xp_access_read(struct sd_xp_import *imp, void *dst, uint64_t raddr, size_t len)
{
	int err = 0;

	if (!sd_xp_in_range(imp, raddr, len) || !sd_xp_usable(imp))
		return DOCA_ERROR_IO_FAILED;
	switch (imp->path) {
	case SD_XP_PATH_SELF:
		memmove(dst, imp->base + (raddr - imp->page), len);
		break;
	case SD_XP_PATH_SHARED:
		/*
		 * The bytes come from the file, never from whatever process the pid
		 * names now, so the lock is asked before the copy (as for writes),
		 * where its cost overlaps the copy's start instead of following it.
		 */
		if (!sd_xp_lock_held_throttled(imp))
			return sd_xp_gone(imp);
		err = sd_xp_shared_copy(imp, dst, imp->base + (raddr - imp->page), len);
		break;
	case SD_XP_PATH_VM:
		err = sd_xp_vm_copy(imp, dst, raddr, len, false);
		/* The copy came from the exporter only if the pid still names it now. */
		if (err == 0 && !sd_xp_lock_held_throttled(imp))
			err = ESRCH;
		break;
	case SD_XP_PATH_PROCMEM:
		err = sd_xp_procmem_copy(imp, dst, raddr, len, false);
		break;
	case SD_XP_PATH_NONE:
		return sd_xp_gone(imp);
	}
	if (err == 0 && !sd_xp_record_live(imp))
		err = ESRCH; /* stopped while we copied: the bytes may be stale */
	return sd_xp_copy_result(imp, err);
}

doca_error_t sd_xp_access_write(struct sd_xp_import *imp, uint64_t raddr, const void *src, size_t len)
{
	int err = 0;

	if (!imp->writable)
		return DOCA_ERROR_NOT_PERMITTED; /* V9 refuses earlier; never write a read-only export */
	if (!sd_xp_in_range(imp, raddr, len) || !sd_xp_usable(imp))
		return DOCA_ERROR_IO_FAILED;
	switch (imp->path) {
	case SD_XP_PATH_SELF:
		memmove(imp->base + (raddr - imp->page), src, len);
		break;
	case SD_XP_PATH_SHARED:
		if (!sd_xp_lock_held_throttled(imp))
			return sd_xp_gone(imp);
		err = sd_xp_shared_copy(imp, imp->base + (raddr - imp->page), src, len);
		break;
	case SD_XP_PATH_VM:
		/* Writes cannot be taken back: make sure the pid is still the exporter first. */
		if (!sd_xp_lock_held_throttled(imp))
			return sd_xp_gone(imp);
		err = sd_xp_vm_copy(imp, (uint8_t *)(uintptr_t)src, raddr, len, true);
		break;
	case SD_XP_PATH_PROCMEM:
		err = sd_xp_procmem_copy(imp, (uint8_t *)(uintptr_t)src, raddr, len, true);
		break;
	case SD_XP_PATH_NONE:
		return sd_xp_gone(imp);
	}
	if (err == 0 && !sd_xp_record_live(imp))
		err = ESRCH;
	return sd_xp_copy_result(imp, err);
}

/*
 * Batched fallback: the vm path looks every remote page up again on every
 * call, so a worker pass hands the kernel all its pieces for one import in
 * one call.  Only a prefix the kernel copied whole, with the export still
 * live and (for reads) still the same process afterwards, counts; anything
 * else is left to the one-by-one path, which reports errors exactly.
 */
uint32_t sd_xp_access_many(struct sd_xp_import *imp, const struct sd_remote_piece *p, uint32_t n, bool write)
{
	struct iovec l[SD_XP_MANY_MAX], r[SD_XP_MANY_MAX];
	ssize_t got;
	uint32_t done = 0;

	if (imp->path != SD_XP_PATH_VM || n < 2 || n > SD_XP_MANY_MAX || (write && !imp->writable) ||
	    !sd_xp_usable(imp))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!sd_xp_in_range(imp, p[i].raddr, p[i].len) || p[i].len > SD_XP_CHUNK)
			return 0;
		l[i] = (struct iovec){.iov_base = p[i].local, .iov_len = p[i].len};
		r[i] = (struct iovec){.iov_base = (void *)(uintptr_t)p[i].raddr, .iov_len = p[i].len};
	}
	if (write && !sd_xp_lock_held_throttled(imp)) /* writes cannot be taken back: check first */
		return 0;
	got = write ? sd_xp_vm_writev((pid_t)imp->pid, l, n, r, n) : process_vm_readv((pid_t)imp->pid, l, n, r, n, 0);
	if (got <= 0 || (!write && !sd_xp_lock_held_throttled(imp)) || !sd_xp_record_live(imp))
		return 0;
	for (size_t left = (size_t)got; done < n && p[done].len <= left; done++)
		left -= p[done].len;
	return done;
}

/*
 * Atomics.  Only a path that maps the exporter's memory here can be atomic
 * against the exporter's CPU and other importers; the others copy.
 */
doca_error_t sd_xp_access_atomic(struct sd_xp_import *imp, uint64_t raddr, int op, uint64_t a, uint64_t b,
				 uint64_t *old)
{
	if (!imp->writable)
		return DOCA_ERROR_NOT_PERMITTED;
	if ((raddr & 7u) != 0 || !sd_xp_in_range(imp, raddr, 8) || !sd_xp_usable(imp))
		return DOCA_ERROR_IO_FAILED;
	if (imp->path != SD_XP_PATH_SELF && imp->path != SD_XP_PATH_SHARED)
		return DOCA_ERROR_NOT_SUPPORTED;
	if (imp->path == SD_XP_PATH_SHARED && !sd_xp_lock_held_throttled(imp))
		return sd_xp_gone(imp);
	uint64_t *p = (uint64_t *)(void *)(imp->base + (raddr - imp->page));
	if (op == SD_MEM_ATOMIC_ADD) {
		*old = __atomic_fetch_add(p, a, __ATOMIC_SEQ_CST);
	} else {
		uint64_t expected = a;
		(void)__atomic_compare_exchange_n(p, &expected, b, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		*old = expected; /* the value before, whether or not it matched */
	}
	return sd_xp_record_live(imp) ? DOCA_SUCCESS : sd_xp_gone(imp);
}

/*
 * Choosing a path at import.
 */

/* SOFTDOCA_XPROC_PATH: auto (default), vm, procmem or ucx. */
enum sd_xp_mode sd_xp_mode_from_env(void)
{
	const char *v = getenv("SOFTDOCA_XPROC_PATH");

	if (v == NULL || v[0] == '\0' || strcmp(v, "auto") == 0)
		return SD_XP_MODE_AUTO;
	if (strcmp(v, "vm") == 0)
		return SD_XP_MODE_VM;
	if (strcmp(v, "procmem") == 0)
		return SD_XP_MODE_PROCMEM;
	if (strcmp(v, "ucx") == 0)
		return SD_XP_MODE_UCX;
	static atomic_bool warned; /* read at every import: say it once */
	if (!atomic_exchange(&warned, true))
		SD_LOG_WARN("SOFTDOCA_XPROC_PATH=%s is not auto, vm, procmem or ucx; using auto", v);
	return SD_XP_MODE_AUTO;
}

static bool sd_xp_refusal(int err)
{
	return err == EPERM || err == EACCES || err == ENOSYS;
}

/* Map the exporter's shared file here.  0 or errno. */
static int sd_xp_shared_map(struct sd_xp_import *imp, const struct sd_xp_desc *d)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t page = d->addr & ~(pg - 1);
	uint64_t span = d->addr - page + d->len;
	char path[64];
	struct stat st;
	void *base;
	int fd, seals, err = 0;

	snprintf(path, sizeof(path), "/proc/%u/fd/%d", d->who.pid, d->shared.fd);
	fd = open(path, (imp->writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* Seals first, size second: a file sealed before its size was read stays at least that long. */
	seals = fcntl(fd, F_GET_SEALS);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_dev != d->shared.dev ||
	    (uint64_t)st.st_ino != d->shared.ino || st.st_size < 0 ||
	    (uint64_t)st.st_size < d->shared.file_off || (uint64_t)st.st_size - d->shared.file_off < span) {
		close(fd);
		return ESTALE;
	}
	size_t map_len = (size_t)((span + pg - 1) & ~(pg - 1));
	/* Memory the exporter registered resident: fill this view's page tables now, not during the copies. */
	int populate = (d->flags & SD_XP_FLAG_RESIDENT) ? MAP_POPULATE : 0;
	base = mmap(NULL, map_len, PROT_READ | (imp->writable ? PROT_WRITE : 0), MAP_SHARED | populate, fd,
		    (off_t)d->shared.file_off);
	if (base == MAP_FAILED)
		err = errno;
	close(fd);
	if (err != 0)
		return err;
	imp->base = base;
	imp->page = page;
	imp->map_len = map_len;
	imp->cannot_shrink = seals >= 0 && (seals & F_SEAL_SHRINK) != 0;
	return 0;
}

/* Can we read (and, for a writable export, write) with the vm calls?  0 or errno. */
static int sd_xp_vm_probe(struct sd_xp_import *imp)
{
	uint8_t byte;
	struct iovec l = {.iov_base = &byte, .iov_len = 1};
	struct iovec r = {.iov_base = (void *)(uintptr_t)imp->addr, .iov_len = 1};

	if (process_vm_readv((pid_t)imp->pid, &l, 1, &r, 1, 0) < 0 && errno != EFAULT)
		return errno; /* EFAULT: allowed, the page is just not mapped right now */
	/* An empty write reaches no memory; it only meets a filter on the call. */
	if (imp->writable && process_vm_writev((pid_t)imp->pid, NULL, 0, NULL, 0, 0) < 0)
		return errno;
	return 0;
}

/* Open /proc/PID/mem and read one byte.  0 or errno. */
static int sd_xp_procmem_open(struct sd_xp_import *imp, const struct sd_xp_desc *d)
{
	char path[64];
	uint8_t byte;

	snprintf(path, sizeof(path), "/proc/%u/mem", imp->pid);
	imp->mem_fd = open(path, (imp->writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (imp->mem_fd < 0)
		return errno == ENOENT ? ESRCH : errno;
	/* The pid may have been recycled before the open: the descriptor must name the exporter. */
	if (sd_xp_check_alive(d->who.pid, d->who.start_time) != 0)
		return ESRCH;
	if (pread(imp->mem_fd, &byte, 1, (off_t)imp->addr) == 0)
		return ESRCH;
	return 0;
}

static int sd_xp_yama_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	int scope = -1;

	if (f != NULL) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	return scope;
}

static doca_error_t sd_xp_all_refused(const char *func, const struct sd_xp_import *imp, int vm_err, int pm_err)
{
	int scope = sd_xp_yama_scope();
	char yama[96] = "";

	if (scope >= 0)
		snprintf(yama, sizeof(yama), "; Yama ptrace_scope is %d%s", scope,
			 scope >= 2 ? " (lower /proc/sys/kernel/yama/ptrace_scope to 1)" : "");
	SD_LOG_ERR_AS(func,
		      "the kernel refuses access to the memory of exporter pid %u: process_vm_readv/writev: %s, "
		      "/proc/%u/mem: %s%s. Fix: run importer and exporter as the same user, keep the exporter "
		      "dumpable (no setuid, no PR_SET_DUMPABLE 0) or give the importer CAP_SYS_PTRACE, and in a "
		      "container allow process_vm_readv/process_vm_writev in the seccomp profile",
		      imp->pid, vm_err != 0 ? strerror(vm_err) : "not tried", imp->pid,
		      pm_err != 0 ? strerror(pm_err) : "not tried", yama);
	return DOCA_ERROR_NOT_PERMITTED;
}

static doca_error_t sd_xp_exporter_gone(const char *func, const struct sd_xp_import *imp)
{
	SD_LOG_ERR_AS(func, "exporter pid %u exited while its descriptor was being imported", imp->pid);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t sd_xp_access_open(struct sd_xp_import *imp, const struct sd_xp_desc *d, const char *func)
{
	enum sd_xp_mode mode = sd_xp_mode_from_env();
	int vm_err = 0, pm_err = 0;

	if (mode == SD_XP_MODE_AUTO && (d->flags & SD_XP_FLAG_SHARED)) {
		/* Without the SIGBUS guard an exporter's ftruncate would kill us: use system calls. */
		int err = sd_xp_guard_install() ? sd_xp_shared_map(imp, d) : ENOTSUP;
		if (err == 0) {
			imp->path = SD_XP_PATH_SHARED;
			return DOCA_SUCCESS;
		}
		SD_LOG_DBG("shared file of exporter pid %u cannot be mapped here (%s); trying system calls", imp->pid,
			   strerror(err));
	}
	if (mode != SD_XP_MODE_PROCMEM) {
		vm_err = sd_xp_vm_probe(imp);
		if (vm_err == 0) {
			imp->path = SD_XP_PATH_VM;
			return DOCA_SUCCESS;
		}
		if (vm_err == ESRCH)
			return sd_xp_exporter_gone(func, imp);
		if (!sd_xp_refusal(vm_err))
			SD_LOG_DBG("process_vm probe of pid %u failed: %s", imp->pid, strerror(vm_err));
	}
	if (mode != SD_XP_MODE_VM) {
		pm_err = sd_xp_procmem_open(imp, d);
		if (pm_err == 0) {
			imp->path = SD_XP_PATH_PROCMEM;
			return DOCA_SUCCESS;
		}
		if (pm_err == ESRCH)
			return sd_xp_exporter_gone(func, imp);
	}
	return sd_xp_all_refused(func, imp, vm_err, pm_err);
}

void sd_xp_access_close(struct sd_xp_import *imp)
{
	if (imp->path == SD_XP_PATH_SHARED && imp->base != NULL)
		munmap(imp->base, imp->map_len);
	if (imp->mem_fd >= 0)
		close(imp->mem_fd);
	imp->mem_fd = -1;
	imp->base = NULL;
	imp->cannot_shrink = false;
	imp->path = SD_XP_PATH_NONE;
}
