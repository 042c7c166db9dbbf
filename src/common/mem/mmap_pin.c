/*
 * mmap_pin.c - the process-wide register of pinned ranges.
 *
 * mlock is not counted per caller: one munlock unlocks a page however many
 * times it was locked.  Several mmaps often cover the same pages (two mmaps
 * over one buffer, small heap buffers sharing a page), so each pinned range
 * is recorded here, and a stop unlocks only the pages that no other pinned
 * range still covers.
 *
 * Pages the program had locked itself (mlock, mlockall) must stay locked
 * after our stop.  The kernel does not say which pages are locked, but it
 * counts them (VmLck in /proc/self/status): when pinning a range locks
 * fewer new pages than the register says it should, some of them were the
 * program's, and that range is never unlocked by us (it stays as the
 * program had it, plus our pages).
 *
 * Locking goes through the raw system calls: sanitizer runtimes replace
 * mlock and munlock with no-ops, and registration must behave the same in
 * every build.
 *
 * Only doca_mmap_start and stop come here, never the task path.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mmap_register.h"

#define SD_CAP_IPC_LOCK 14 /* linux/capability.h */

struct sd_pin {
	const void *key;
	uintptr_t lo, hi; /* page-aligned */
	bool owned;       /* every page newly locked by us: unlock what no one else covers */
};

static int sd_mlock(uintptr_t lo, uintptr_t hi)
{
	return (int)syscall(SYS_mlock, (void *)lo, (size_t)(hi - lo));
}

static int sd_munlock(uintptr_t lo, uintptr_t hi)
{
	return (int)syscall(SYS_munlock, (void *)lo, (size_t)(hi - lo));
}

static pthread_mutex_t sd_pins_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_pin *sd_pins;
static size_t sd_npins, sd_pins_cap;

/* What /proc/self/status says about locking. */
struct sd_lock_status {
	bool known;
	unsigned long long locked_kib; /* VmLck */
	bool cap_ipc_lock;             /* CapEff has CAP_IPC_LOCK: no limit applies */
};

static struct sd_lock_status sd_lock_status(void)
{
	struct sd_lock_status st = {0};
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool have_lck = false;

	if (f == NULL)
		return st;
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long long v;

		if (sscanf(line, "VmLck: %llu kB", &v) == 1) {
			st.locked_kib = v;
			have_lck = true;
		} else if (sscanf(line, "CapEff: %llx", &v) == 1) {
			st.cap_ipc_lock = (v >> SD_CAP_IPC_LOCK) & 1u;
		}
	}
	fclose(f);
	st.known = have_lck;
	return st;
}

static int sd_pin_cmp(const void *a, const void *b)
{
	const struct sd_pin *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Call `fn` for each gap of [lo, hi) that no registered range covers (the
 * register is sorted by lo).  Returns the bytes of all gaps.
 */
static size_t sd_pins_gaps(uintptr_t lo, uintptr_t hi, void (*fn)(uintptr_t, uintptr_t))
{
	uintptr_t cur = lo;
	size_t bytes = 0;

	for (size_t i = 0; i < sd_npins && cur < hi; i++) {
		const struct sd_pin *p = &sd_pins[i];

		if (p->hi <= cur)
			continue;
		if (p->lo >= hi)
			break;
		if (p->lo > cur) {
			bytes += p->lo - cur;
			if (fn != NULL)
				fn(cur, p->lo);
		}
		if (p->hi > cur)
			cur = p->hi;
	}
	if (cur < hi) {
		bytes += hi - cur;
		if (fn != NULL)
			fn(cur, hi);
	}
	return bytes;
}

/*
 * munlock stops at the first unmapped page; a range the program partly
 * unmapped since start is unlocked mapping by mapping instead.
 */
static void sd_unlock_mapped_parts(uintptr_t lo, uintptr_t hi)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long long start, end;

		if (sscanf(line, "%llx-%llx", &start, &end) != 2 || end <= lo || start >= hi)
			continue;
		start = start < lo ? lo : start;
		end = end > hi ? hi : end;
		(void)sd_munlock((uintptr_t)start, (uintptr_t)end);
	}
	fclose(f);
}

static void sd_unlock_gap(uintptr_t lo, uintptr_t hi)
{
	if (sd_munlock(lo, hi) != 0 && errno == ENOMEM)
		sd_unlock_mapped_parts(lo, hi);
}

static bool sd_pins_add(const struct sd_pin *pin)
{
	if (sd_npins == sd_pins_cap) {
		size_t cap = sd_pins_cap == 0 ? 16 : 2 * sd_pins_cap;
		struct sd_pin *grown = realloc(sd_pins, cap * sizeof(*grown));

		if (grown == NULL)
			return false;
		sd_pins = grown;
		sd_pins_cap = cap;
	}
	sd_pins[sd_npins++] = *pin;
	qsort(sd_pins, sd_npins, sizeof(*sd_pins), sd_pin_cmp);
	return true;
}

/* Would locking `new_bytes` more go over RLIMIT_MEMLOCK?  Fills `why` when so. */
static bool sd_over_limit(const struct sd_lock_status *st, size_t new_bytes, char *why, size_t why_len)
{
	struct rlimit rl;

	if (st->cap_ipc_lock || getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || !st->known)
		return false;
	if (st->locked_kib * 1024ull + new_bytes <= rl.rlim_cur)
		return false;
	snprintf(why, why_len,
		 "locking %zu more KiB would exceed RLIMIT_MEMLOCK (%llu KiB, %llu KiB locked already); raise it "
		 "(ulimit -l) or grant CAP_IPC_LOCK to pin",
		 new_bytes / 1024, (unsigned long long)rl.rlim_cur / 1024, st->locked_kib);
	return true;
}

bool sd_mem_pin(const void *key, const void *addr, size_t len, char *why, size_t why_len)
{
	size_t pg = sd_mem_page_size();
	struct sd_pin pin = {.key = key};
	struct sd_lock_status before, after;
	size_t new_bytes;
	bool ok = false;

	pin.lo = (uintptr_t)addr & ~(uintptr_t)(pg - 1);
	pin.hi = ((uintptr_t)addr + len + pg - 1) & ~(uintptr_t)(pg - 1);
	pthread_mutex_lock(&sd_pins_lock);
	new_bytes = sd_pins_gaps(pin.lo, pin.hi, NULL);
	before = sd_lock_status();
	if (sd_over_limit(&before, new_bytes, why, why_len))
		goto out;
	if (sd_mlock(pin.lo, pin.hi) != 0) {
		int err = errno;

		/* The kernel may have locked some mappings before it gave up: undo only that. */
		after = sd_lock_status();
		if (after.known && before.known && after.locked_kib > before.locked_kib)
			sd_pins_gaps(pin.lo, pin.hi, sd_unlock_gap);
		snprintf(why, why_len, "mlock refused: %s%s", strerror(err),
			 err == EPERM || err == ENOMEM ? " (RLIMIT_MEMLOCK; raise it with ulimit -l, or grant CAP_IPC_LOCK)" :
							 "");
		goto out;
	}
	after = sd_lock_status();
	pin.owned = !before.known || !after.known || (after.locked_kib - before.locked_kib) * 1024ull >= new_bytes;
	if (!sd_pins_add(&pin)) {
		sd_pins_gaps(pin.lo, pin.hi, sd_unlock_gap);
		snprintf(why, why_len, "out of memory for the register of pinned ranges");
		goto out;
	}
	ok = true;
out:
	pthread_mutex_unlock(&sd_pins_lock);
	return ok;
}

void sd_mem_unpin(const void *key)
{
	pthread_mutex_lock(&sd_pins_lock);
	for (size_t i = 0; i < sd_npins; i++) {
		struct sd_pin pin = sd_pins[i];

		if (pin.key != key)
			continue;
		memmove(&sd_pins[i], &sd_pins[i + 1], (sd_npins - i - 1) * sizeof(*sd_pins));
		sd_npins--;
		if (pin.owned)
			sd_pins_gaps(pin.lo, pin.hi, sd_unlock_gap);
		if (sd_npins == 0) {
			free(sd_pins);
			sd_pins = NULL;
			sd_pins_cap = 0;
		}
		break;
	}
	pthread_mutex_unlock(&sd_pins_lock);
}
