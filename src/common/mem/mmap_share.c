/*
 * mmap_share.c - registration that makes an exported range shareable.
 *
 * A card reaches host memory that was registered with it directly; an
 * importer here reaches an exporter's memory either through a system call
 * per copy (process_vm_readv, which looks every page up again) or, when
 * the range is a shared file mapping, through its own mapping of the file
 * with plain loads and stores (xproc_shared.c, xproc_access.c).  So
 * doca_mmap_start of an mmap that grants a PCI right moves its private
 * anonymous pages onto a memfd, at the same addresses and with the same
 * bytes; doca_mmap_stop moves them back.  docs/mmap-registration.md
 * ("Shareable registration") states the rules for the exporting program.
 *
 * The move: write-protect the range, copy it into a fresh memfd (mapped
 * elsewhere too), then mremap that mapping over the range (one atomic step: the
 * range is never unmapped).  A thread of the program that writes to the
 * range meanwhile takes a SIGSEGV; our handler lets it wait until the move
 * is over and then retries the store, which lands in the new pages.  So no
 * write is lost and no reader ever sees a hole.
 *
 * Ranges that are not plain private anonymous memory (the stack, file
 * mappings, hugetlb, special mappings) stay as they are, and importers use
 * the system-call paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <doca_mmap.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MAKE_MEM_DEFINED
#define VALGRIND_MAKE_MEM_DEFINED(addr, len) ((void)(addr), (void)(len))
#endif

#include "mem_priv.h"
#include "mmap_register.h"
#include "sd_log.h"
#include "sd_mem.h"

#define SD_SHARE_ENV "SOFTDOCA_MMAP_SHARE"

/* One range of pages this process moved onto a memfd. */
struct sd_share_entry {
	uintptr_t lo, hi;
	int fd;         /* kept open while registered: importers open it through /proc/PID/fd */
	dev_t dev;
	ino_t ino;
	int prot;
	uint32_t users; /* started mmaps whose pages lie inside */
	pid_t owner;    /* a fork child inherits the list but not the registration */
	struct sd_share_entry *next;
};

static pthread_mutex_t sd_share_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_share_entry *sd_share_list;

/*
 * Moves of this process, counted twice: odd while one is under way, and then
 * [lo, hi) is its range.  A writer that faults inside it waits for the move.
 */
static atomic_ulong sd_share_move_seq;
static _Atomic uintptr_t sd_share_moving_lo, sd_share_moving_hi;

/*
 * The last fault this thread let run again without a move to explain it.  A
 * write-protect fault taken during a move may be handled only after the move
 * has ended (the thread was preempted in between), so an unexplained fault is
 * retried once; the same address faulting again with no move begun since is
 * the program's own fault.
 */
struct sd_share_retried {
	uintptr_t at;
	unsigned long seq;
};
static _Thread_local struct sd_share_retried sd_share_retried;
static struct sigaction sd_share_prev_segv;
static atomic_int sd_share_handler_state; /* 0 not yet, 1 installing, 2 installed, 3 failed */
static pthread_once_t sd_share_atfork_once = PTHREAD_ONCE_INIT;

/* ---- the knob ------------------------------------------------------------ */

/*
 * Is this process running under valgrind?  Valgrind's own client request
 * where its header was there at build time, and in any case the preload
 * that valgrind puts in the environment of the program it runs (and takes
 * out again for the children it does not follow).
 */
static bool sd_share_under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");

#ifdef RUNNING_ON_VALGRIND
	if (RUNNING_ON_VALGRIND != 0)
		return true;
#endif
	return pre != NULL && strstr(pre, "vgpreload") != NULL;
}

/*
 * Unset, the knob means memfd, except under valgrind: a thread that writes
 * to a range while it moves takes the move's write-protection fault, and
 * valgrind does not hand that fault to our handler as the kernel does (it
 * dies of it, or crashes inside itself).  A program checked under valgrind
 * keeps its ranges private, and its importers use the system-call paths;
 * SOFTDOCA_MMAP_SHARE=memfd asks for the move all the same.
 */
static bool sd_share_default(void)
{
	static atomic_bool said;

	if (!sd_share_under_valgrind())
		return true;
	if (!atomic_exchange(&said, true))
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_DEBUG, __FILE__, __LINE__, "doca_mmap_start",
				     "running under valgrind: exported ranges stay private (%s=memfd moves them)",
				     SD_SHARE_ENV);
	return false;
}

/* SOFTDOCA_MMAP_SHARE: memfd (default) or off; unknown values warn once and mean the default. */
static bool sd_share_enabled_env(void)
{
	static atomic_bool warned;
	const char *v = getenv(SD_SHARE_ENV);

	if (v == NULL || *v == '\0')
		return sd_share_default();
	if (strcmp(v, "memfd") == 0)
		return true;
	if (strcmp(v, "off") == 0)
		return false;
	if (!atomic_exchange(&warned, true))
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "doca_mmap_start",
				     "%s=%s is not memfd or off; taken as unset", SD_SHARE_ENV, v);
	return sd_share_default();
}

/* ---- writers that fault during a move ------------------------------------ */

static void sd_share_segv_forward(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *prev = &sd_share_prev_segv;
	struct sigaction dfl;

	if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction != NULL) {
		prev->sa_sigaction(sig, si, uc);
		return;
	}
	if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
		return;
	}
	/* Default action: put it back; the faulting store runs again and dies as it would have. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGSEGV, &dfl, NULL);
	if (si == NULL || si->si_code <= 0)
		raise(sig);
}

static bool sd_share_moving(uintptr_t at, unsigned long seq)
{
	return (seq & 1) != 0 && at >= atomic_load(&sd_share_moving_lo) && at < atomic_load(&sd_share_moving_hi);
}

static void sd_share_segv(int sig, siginfo_t *si, void *uc)
{
	uintptr_t at = si != NULL ? (uintptr_t)si->si_addr : 0;
	unsigned long seq = atomic_load(&sd_share_move_seq);

	/* Sent by a process, or no move ever made: not ours to explain. */
	if (si == NULL || si->si_code <= 0 || seq == 0) {
		sd_share_segv_forward(sig, si, uc);
		return;
	}
	if (sd_share_moving(at, seq)) {
		while (atomic_load(&sd_share_move_seq) == seq)
			sched_yield();
		return; /* the store runs again, into the moved pages */
	}
	if (sd_share_retried.at == at && sd_share_retried.seq == seq) {
		sd_share_segv_forward(sig, si, uc);
		return;
	}
	sd_share_retried = (struct sd_share_retried){.at = at, .seq = seq};
}

static bool sd_share_handler_install(void)
{
	int expect = 0;

	if (atomic_compare_exchange_strong(&sd_share_handler_state, &expect, 1)) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = sd_share_segv;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		bool ok = sigaction(SIGSEGV, NULL, &sd_share_prev_segv) == 0 && sigaction(SIGSEGV, &sa, NULL) == 0;
		atomic_store(&sd_share_handler_state, ok ? 2 : 3);
	}
	while (atomic_load(&sd_share_handler_state) == 1)
		sched_yield();
	return atomic_load(&sd_share_handler_state) == 2;
}

/* ---- the mappings of a range --------------------------------------------- */

struct sd_share_vma {
	unsigned long long start, end, off;
	char perms[8];
	unsigned long inode;
	unsigned int major, minor;
	char path[64];
};

static bool sd_share_parse(const char *line, struct sd_share_vma *v)
{
	int at = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %lu %n", &v->start, &v->end, v->perms, &v->off, &v->major,
		   &v->minor, &v->inode, &at) < 7)
		return false;
	v->path[0] = '\0';
	if (at > 0)
		snprintf(v->path, sizeof(v->path), "%s", line + at);
	v->path[strcspn(v->path, "\n")] = '\0';
	return true;
}

static int sd_share_prot_of(const char *perms)
{
	return (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
	       (perms[2] == 'x' ? PROT_EXEC : 0);
}

/* What a mapping in the range must be, for the range to stay the program's memory after stop. */
typedef const char *(*sd_share_vma_rule)(const struct sd_share_vma *v, uintptr_t lo, const void *arg);

/*
 * `arg` is an address on the calling thread's stack.  That stack is refused
 * whatever /proc says of it (a thread's stack, or the main stack under
 * valgrind, carries no "[stack]" name): write-protecting it during the move
 * would fault the calling thread itself, whose signal handler then has no
 * stack to run on.
 */
static const char *sd_share_rule_private_anon(const struct sd_share_vma *v, uintptr_t lo, const void *arg)
{
	uintptr_t sp = *(const uintptr_t *)arg;

	(void)lo;
	if (sp >= v->start && sp < v->end)
		return "it is on the calling thread's stack";
	if (v->perms[3] != 'p' || v->inode != 0)
		return "it is a file or shared mapping";
	if (v->path[0] != '\0' && strcmp(v->path, "[heap]") != 0)
		return v->path[0] == '[' ? "it is a special mapping (stack, vdso or the like)" :
					   "it is a special mapping (hugetlb or named)";
	if (v->perms[0] != 'r')
		return "it is not readable";
	return NULL;
}

static const char *sd_share_rule_our_file(const struct sd_share_vma *v, uintptr_t lo, const void *arg)
{
	const struct sd_share_entry *e = arg;

	if (v->inode != (unsigned long)e->ino || v->perms[3] != 's' || v->off != v->start - lo)
		return "the range was unmapped, remapped or moved (munmap, mremap, mmap MAP_FIXED) while registered";
	return NULL;
}

/*
 * Walk the mappings covering [lo, hi): NULL when every one passes `rule`,
 * covers the range without a hole and has the same protection (*prot);
 * else why not.
 */
static const char *sd_share_walk(uintptr_t lo, uintptr_t hi, sd_share_vma_rule rule, const void *arg, int *prot)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	uintptr_t covered = lo;
	const char *why = NULL;

	*prot = -1;
	if (f == NULL)
		return "/proc/self/maps cannot be read";
	while (why == NULL && covered < hi && fgets(line, sizeof(line), f) != NULL) {
		struct sd_share_vma v;
		if (!sd_share_parse(line, &v) || v.end <= covered)
			continue;
		if (v.start > covered)
			why = "part of it is not mapped";
		else if ((why = rule(&v, lo, arg)) == NULL && *prot >= 0 && *prot != sd_share_prot_of(v.perms))
			why = "its pages have different protections";
		*prot = sd_share_prot_of(v.perms);
		covered = (uintptr_t)v.end;
	}
	fclose(f);
	if (why == NULL && covered < hi)
		why = "part of it is not mapped";
	return why;
}

/*
 * Nothing at all is mapped in [lo, hi) any more: the program freed the
 * memory (free, munmap) before it stopped the mmap, the teardown order of
 * many programs (DOCA's secure_channel among them).  A card keeps the
 * pinned pages until the deregistration and nobody looks at them again, so
 * this is no error: there is simply nothing to move back.  False when the
 * maps cannot be read (the caller's walk then says so).
 */
static bool sd_share_range_gone(uintptr_t lo, uintptr_t hi)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool gone = true;

	if (f == NULL)
		return false;
	while (gone && fgets(line, sizeof(line), f) != NULL) {
		struct sd_share_vma v;

		if (sd_share_parse(line, &v) && v.end > lo && v.start < hi)
			gone = false;
	}
	fclose(f);
	return gone;
}

/* ---- the move ------------------------------------------------------------ */

/*
 * The copy goes through the kernel (pwrite into the memfd, or pread out of
 * it): whole pages are copied, which may hold memory a sanitizer of the
 * program considers out of bounds (heap red zones); the kernel's copy is
 * exempt from such checks and as fast as memcpy.
 */
static int sd_share_copy(int fd, uintptr_t lo, void *dst, size_t len, bool to_file)
{
	size_t done = 0;

	/*
	 * Bytes the program never wrote move too.  Under valgrind the moved
	 * pages count as defined anyway (a file mapping), so say so before the
	 * copy rather than have it reported as a write of undefined bytes.
	 */
	if (to_file)
		VALGRIND_MAKE_MEM_DEFINED((const void *)lo, len);
	while (done < len) {
		long n = to_file ? syscall(SYS_pwrite64, fd, (const void *)(lo + done), len - done, (off_t)done) :
				   syscall(SYS_pread64, fd, (uint8_t *)dst + done, len - done, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		done += (size_t)n;
	}
	return 0;
}

/*
 * The page moves below go straight to the kernel.  A library loaded into the
 * program may hook mmap, mprotect and mremap (UCX's memory hooks do, to keep
 * its registration cache right): a move of registered pages is softdoca's own
 * business, made before any such registration exists and undone after it is
 * gone, and a hook that rewrites or loses a MREMAP_FIXED move (seen with UCX's
 * hooks in an AddressSanitizer build) would leave the range unwritable.
 */
static void *sd_share_sys_mmap(size_t len, int prot, int flags, int fd)
{
	long r = syscall(SYS_mmap, NULL, len, prot, flags, fd, (off_t)0);

	return r < 0 && r > -4096 ? MAP_FAILED : (void *)r;
}

static int sd_share_sys_mprotect(uintptr_t addr, size_t len, int prot)
{
	return (int)syscall(SYS_mprotect, addr, len, prot);
}

static int sd_share_sys_munmap(void *addr, size_t len)
{
	return (int)syscall(SYS_munmap, addr, len);
}

static bool sd_share_sys_mremap_fixed(void *from, size_t len, uintptr_t to)
{
	return syscall(SYS_mremap, from, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to) == (long)to;
}

/*
 * Replace the pages of [lo, hi) by `dst` (a writable mapping of the same
 * length, given protection `prot` once filled) holding the same bytes, copied from or to
 * the memfd `fd`.  0, or errno with nothing changed (dst is unmapped either way on failure).
 */
static int sd_share_move(uintptr_t lo, uintptr_t hi, void *dst, int prot, int fd, bool to_file)
{
	size_t len = hi - lo;
	bool held = false; /* the range is write-protected by us */
	int err = 0;

	atomic_store(&sd_share_moving_hi, hi);
	atomic_store(&sd_share_moving_lo, lo);
	atomic_fetch_add(&sd_share_move_seq, 1); /* odd: [lo, hi) is moving */
	if (prot & PROT_WRITE) {
		held = sd_share_sys_mprotect(lo, len, prot & ~PROT_WRITE) == 0;
		err = held ? 0 : errno;
	}
	if (err == 0) {
		err = sd_share_copy(fd, lo, dst, len, to_file);
		if (err == 0 && prot != (PROT_READ | PROT_WRITE) && sd_share_sys_mprotect((uintptr_t)dst, len, prot) != 0)
			err = errno;
	}
	if (err == 0 && !sd_share_sys_mremap_fixed(dst, len, lo))
		err = errno;
	if (err != 0 && held)
		sd_share_sys_mprotect(lo, len, prot);
	atomic_fetch_add(&sd_share_move_seq, 1); /* even: no move under way */
	if (err != 0)
		sd_share_sys_munmap(dst, len);
	return err;
}

/*
 * The memfd is sealed against shrinking once it has its size.  It is the
 * library's file, not the program's: nothing ever needs to shrink it, and
 * a file that cannot shrink cannot take pages away from an importer's
 * mapping, so importers copy through it without the SIGBUS guard
 * (xproc_access.c).  A kernel that refuses the seal leaves the file as it
 * was; importers then keep the guard.
 */
#define SD_SHARE_SEALS (F_SEAL_SHRINK | F_SEAL_SEAL)

static int sd_share_memfd(size_t len)
{
	int fd = memfd_create("softdoca-registered", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)len) != 0) {
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_ADD_SEALS, SD_SHARE_SEALS) != 0)
		SD_LOG_DBG("the registration memfd cannot be sealed (%s): importers copy under the SIGBUS guard",
			   strerror(errno));
	return fd;
}

/* Move [lo, hi) onto a fresh memfd; the entry describing it, or NULL with `why`. */
static struct sd_share_entry *sd_share_onto_memfd(uintptr_t lo, uintptr_t hi, int prot, const char **why)
{
	struct sd_share_entry *e = calloc(1, sizeof(*e));
	size_t len = hi - lo;
	struct stat st;
	void *dst = MAP_FAILED;
	int fd = sd_share_memfd(len);

	*why = "the kernel refused a memfd of that size";
	if (e != NULL && fd >= 0 && fstat(fd, &st) == 0)
		dst = sd_share_sys_mmap(len, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
	if (dst != MAP_FAILED && sd_share_move(lo, hi, dst, prot, fd, true) != 0) {
		*why = "the kernel refused to move the pages (mprotect or mremap)";
		dst = MAP_FAILED;
	}
	if (dst == MAP_FAILED) {
		if (fd >= 0)
			close(fd);
		free(e);
		return NULL;
	}
	*e = (struct sd_share_entry){.lo = lo, .hi = hi, .fd = fd, .dev = st.st_dev, .ino = st.st_ino,
				     .prot = prot, .users = 1, .owner = getpid()};
	return e;
}

/* Move an entry's pages back to private anonymous memory; false when the range is not ours any more. */
static const char *sd_share_back_to_private(const struct sd_share_entry *e)
{
	int prot;
	const char *why;
	void *dst;

	if (sd_share_range_gone(e->lo, e->hi))
		return NULL; /* freed before the stop: nothing is left to give back */
	why = sd_share_walk(e->lo, e->hi, sd_share_rule_our_file, e, &prot);
	if (why != NULL)
		return why;
	dst = sd_share_sys_mmap(e->hi - e->lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	if (dst == MAP_FAILED)
		return "no memory for the private copy";
	if (sd_share_move(e->lo, e->hi, dst, prot, e->fd, false) != 0)
		return "the kernel refused to move the pages back (mprotect or mremap)";
	return NULL;
}

/* ---- fork ---------------------------------------------------------------- */

/*
 * A fork child must get its own copy of the memory, as it would of private
 * memory: registration is not inherited (exports are not either), so the
 * child's ranges go back to private pages right after the fork.
 */
static void sd_share_atfork_child(void)
{
	pid_t me = getpid();
	struct sd_share_entry *e, *next;

	pthread_mutex_init(&sd_share_lock, NULL);
	for (e = sd_share_list; e != NULL; e = next) {
		next = e->next;
		if (e->owner != me)
			(void)sd_share_back_to_private(e);
		close(e->fd);
		free(e);
	}
	sd_share_list = NULL;
}

static void sd_share_atfork_register(void)
{
	pthread_atfork(NULL, NULL, sd_share_atfork_child);
}

/* ---- the registration hooks ---------------------------------------------- */

static bool sd_share_wanted(const struct doca_mmap *mmap)
{
	return (mmap->access_mask & (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)) != 0 &&
	       sd_share_enabled_env();
}

/* An entry of this process holding [lo, hi) whole, or NULL. */
static struct sd_share_entry *sd_share_find(uintptr_t lo, uintptr_t hi)
{
	for (struct sd_share_entry *e = sd_share_list; e != NULL; e = e->next)
		if (e->owner == getpid() && lo >= e->lo && hi <= e->hi)
			return e;
	return NULL;
}

/* Make the range shareable (or note why not): under the lock. */
static const char *sd_share_locked(uintptr_t lo, uintptr_t hi)
{
	struct sd_share_entry *e = sd_share_find(lo, hi);
	const char *why;
	int prot;

	if (e != NULL) {
		e->users++;
		return NULL;
	}
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);

	why = sd_share_walk(lo, hi, sd_share_rule_private_anon, &sp, &prot);
	if (why != NULL)
		return why;
	if (!sd_share_handler_install())
		return "the SIGSEGV handler that protects concurrent writers cannot be installed";
	e = sd_share_onto_memfd(lo, hi, prot, &why);
	if (e == NULL)
		return why;
	e->next = sd_share_list;
	sd_share_list = e;
	return NULL;
}

/*
 * A range that stays private while peers may write it: under valgrind it
 * counts as written from the start.  Valgrind sees neither a card's DMA
 * nor another process's system call, so the bytes a peer writes there
 * would be reported as never written when the program reads them.  A range
 * that moves onto a memfd is already counted so (sd_share_copy).  Outside
 * valgrind this is a few no-op instructions.
 */
static void sd_share_private_peer_writable(const struct doca_mmap *mmap)
{
	const uint32_t peer_writes =
		DOCA_ACCESS_FLAG_PCI_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;

	if ((mmap->access_mask & peer_writes) != 0)
		VALGRIND_MAKE_MEM_DEFINED(mmap->addr, mmap->len);
}

void sd_mmap_share(struct doca_mmap *mmap)
{
	size_t page = sd_mem_page_size();
	uintptr_t lo = (uintptr_t)mmap->addr & ~(page - 1);
	uintptr_t hi = ((uintptr_t)mmap->addr + mmap->len + page - 1) & ~(page - 1);
	const char *why;

	mmap->reg_shared = false;
	if (mmap->len == 0)
		return;
	if (!sd_share_wanted(mmap)) {
		sd_share_private_peer_writable(mmap);
		return;
	}
	pthread_once(&sd_share_atfork_once, sd_share_atfork_register);
	pthread_mutex_lock(&sd_share_lock);
	why = sd_share_locked(lo, hi);
	pthread_mutex_unlock(&sd_share_lock);
	mmap->reg_shared = why == NULL;
	if (why == NULL)
		return;
	sd_share_private_peer_writable(mmap);
	SD_MEM_DEBUG_AS("doca_mmap_start",
			"mmap %p: the range %p + %zu stays private (%s); importers reach it with a system call "
			"per copy", (void *)mmap, (void *)mmap->addr, mmap->len, why);
}

/* Take the entry out of the list and move its pages back; under the lock. */
static void sd_share_release_locked(struct sd_share_entry *e)
{
	const char *why;

	for (struct sd_share_entry **p = &sd_share_list; *p != NULL; p = &(*p)->next) {
		if (*p == e) {
			*p = e->next;
			break;
		}
	}
	why = sd_share_back_to_private(e);
	if (why != NULL)
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, "doca_mmap_stop",
				     "the registered range %p + %zu cannot be given back as private memory: %s. "
				     "Keep a registered range mapped until doca_mmap_stop; what is mapped there now "
				     "was left untouched, and importers' writes since then went to the registered pages",
				     (void *)e->lo, (size_t)(e->hi - e->lo), why);
	close(e->fd);
	free(e);
}

void sd_mmap_unshare(struct doca_mmap *mmap)
{
	size_t page = sd_mem_page_size();
	uintptr_t lo = (uintptr_t)mmap->addr & ~(page - 1);
	uintptr_t hi = ((uintptr_t)mmap->addr + mmap->len + page - 1) & ~(page - 1);
	struct sd_share_entry *e;

	if (!mmap->reg_shared)
		return;
	mmap->reg_shared = false;
	pthread_mutex_lock(&sd_share_lock);
	e = sd_share_find(lo, hi);
	if (e != NULL && --e->users == 0)
		sd_share_release_locked(e);
	pthread_mutex_unlock(&sd_share_lock);
}
