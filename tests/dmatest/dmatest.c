/*
 * dmatest - verified-copy stress test of DOCA DMA memcpy, in the spirit
 * of Linux's dmatest, through the public API only.
 *
 * A fixed-seed PRNG (our own xorshift64*) drives everything, so a failing
 * run is replayed exactly with the same --seed.  Memory:
 *
 *   source arena   bytes = 0x80 | h(offset)   (high bit set), registered
 *                  as two mmaps: a LOCAL_READ_ONLY half and a
 *                  PCI_READ_ONLY half (local reads are always allowed,
 *                  local writes are not)
 *   dest arena     bytes = h'(offset) & 0x7f  (high bit clear), one window
 *                  per in-flight slot, as two mmaps: LOCAL_READ_WRITE and
 *                  PCI_READ_WRITE (both grant local writes)
 *   no-dev arena   an mmap the device was never added to
 *   big range      an address-space reservation (PROT_NONE) one byte
 *                  larger than the max-size capability, for V4 refusals
 *
 * Each task copies S bytes (mostly log-uniform 1 B..64 KiB, sometimes
 * larger) from a list of 1..N source elements at random offsets, with
 * random head room, tail room and empty elements, into a list of 1..N
 * destination elements placed in the task's window with random gaps,
 * head room, pre-existing data and spare room.  Because source and
 * destination bytes differ in their top bit, every byte the engine fails
 * to write, writes twice or writes out of place is caught.  After each
 * task the whole span of its window is compared with a pristine copy:
 * the bytes between elements (canaries), the head room and pre-existing
 * data, the unused tail of each element, and the appended bytes, which
 * must equal the source stream in list order.  Each
 * destination element's data pointer must be unchanged and its data_len
 * grown by exactly what it received; source metadata unchanged.
 *
 * Mixed in: tasks that MUST be refused, each through doca_task_try_submit
 * (never doca_task_submit, which would make the failure fatal):
 * empty source, destination too small, source or destination list one
 * element too long, destination in a read-only mmap, source or
 * destination in an mmap without the device, NULL buffers, source above
 * the max size, and combinations that check rule precedence.
 * Each must return its exact code, keep it as the task status,
 * leave the context RUNNING with the in-flight count unchanged, and write
 * nothing.
 *
 * Also checked: reports arrive in submission order, one per progress
 * call, the pool holds exactly --qd tasks (NO_MEMORY beyond), a task in
 * flight cannot be submitted again, tasks are reused through the setters,
 * every buffer returns to the inventory, the source arena is never
 * written, and the final stop is synchronous.
 *
 * Soak options (docs/robustness.md has the long runs and their numbers):
 *   --remote KIND  the PCI halves of both arenas live in a child process
 *                  that exports them (memfd, shm: shared-file path; heap:
 *                  process_vm_readv/writev; dmatest_remote.c); this
 *                  process imports them, so lists mix local and remote
 *                  elements, and still checks every byte of the exporter's
 *                  memory through its own view of the same pages
 *   --pool P       a task pool of P < Q tasks: allocation runs dry
 *                  (NO_MEMORY) and the test waits for completions, as a
 *                  program under back-pressure does; a submit answered
 *                  DOCA_ERROR_AGAIN is retried after a progress call
 *   --progress     a status line every 10 s (tasks, rate, mismatches)
 * Either engine: SOFTDOCA_DMA_WORKERS=N runs the copies on worker threads.
 *
 * Usage: dmatest [--tasks N] [--seed S] [--qd Q] [--pool P] [--remote KIND] [--progress] [--verbose]
 * Prints: dmatest: N tasks (A ok, B rejected as expected), M mismatches
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_types.h>

#include "dmatest_remote.h"
#include "sd_test.h"

/* ------------------------------------------------------------------ */
/* Parameters                                                          */
/* ------------------------------------------------------------------ */

#define DEFAULT_TASKS 100000UL
#define DEFAULT_SEED 0x5eed0f5d0caULL
#define DEFAULT_QD 32
#define MAX_QD 256

#define SRC_HALF (2u << 20)          /* each source mmap: 2 MiB */
#define LARGE_MAX (256u << 10)       /* "occasionally larger" tasks: up to 256 KiB */
#define SLOT_LEN (LARGE_MAX + (96u << 10)) /* one destination window */
#define NODEV_LEN (256u << 10)
#define CANARY 16                    /* minimum untouched bytes around elements */
#define LIST_CAP_LIMIT 512           /* longest list this test builds */
#define REPORT_LIMIT 20              /* failures printed in detail */
#define STALL_SEC 20.0

static unsigned long opt_tasks = DEFAULT_TASKS;
static uint64_t opt_seed = DEFAULT_SEED;
static unsigned opt_qd = DEFAULT_QD;
static unsigned opt_pool; /* 0: as many tasks as the queue depth */
static const char *opt_remote;
static bool opt_progress;
static bool opt_verbose;

/* ------------------------------------------------------------------ */
/* PRNG and byte patterns                                              */
/* ------------------------------------------------------------------ */

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n); n > 0. */
static uint64_t rnd_below(uint64_t n)
{
	return rnd() % n;
}

/* Uniform in [lo, hi]. */
static uint64_t rnd_range(uint64_t lo, uint64_t hi)
{
	return lo + rnd_below(hi - lo + 1);
}

static bool rnd_chance(unsigned per_thousand)
{
	return rnd_below(1000) < per_thousand;
}

/* A fixed scramble of (offset, seed): every arena byte depends on both. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ULL;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dULL;
	x ^= x >> 33;
	return x;
}

static uint8_t src_byte(size_t off)
{
	return (uint8_t)(0x80 | (mix(off ^ opt_seed) & 0x7f));
}

static uint8_t dst_byte(size_t off)
{
	return (uint8_t)(mix(off + (opt_seed << 1) + 0x9e37) & 0x7f);
}

/* ------------------------------------------------------------------ */
/* Failure reporting                                                   */
/* ------------------------------------------------------------------ */

static unsigned long failures;     /* every failed check of this test */
static unsigned long mismatches;   /* bytes that differ from what they should hold */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (failures++ >= REPORT_LIMIT) {
		if (failures == REPORT_LIMIT + 1)
			fprintf(stderr, "dmatest: further failures not printed\n");
		return;
	}
	fprintf(stderr, "dmatest: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Call-level check that feeds `fail` instead of printing every time. */
#define EXPECT_ERR(expr, want, what, id)                                                           \
	do {                                                                                       \
		doca_error_t got_ = (expr);                                                        \
		if (got_ != (want))                                                                \
			fail("task %lu: %s: %s returned %s, expected %s", (unsigned long)(id),     \
			     (what), #expr, doca_error_get_name(got_), doca_error_get_name(want)); \
	} while (0)

/* ------------------------------------------------------------------ */
/* World: device, arenas, mmaps, inventory, PE, DMA                    */
/* ------------------------------------------------------------------ */

struct arena {
	uint8_t *mem;      /* live memory the engine reads or writes */
	uint8_t *pristine; /* what every byte should hold when no task touched it */
	size_t len;
};

static struct {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_buf_inventory *inv;
	uint32_t max_list;      /* capability */
	uint64_t max_size;      /* capability */
	uint32_t gen_list;      /* longest list generated for valid tasks */
	struct arena src, dst, nodev;
	struct doca_mmap *src_mmap[2]; /* read-only halves: LOCAL_READ_ONLY, PCI_READ_ONLY */
	struct doca_mmap *dst_mmap[2]; /* LOCAL_READ_WRITE, PCI_READ_WRITE halves */
	struct doca_mmap *nodev_mmap;
	struct doca_mmap *big_mmap;    /* NULL when the reservation failed */
	uint8_t *big_mem;
	size_t big_len;
	size_t slots_per_dst_half;
	uint8_t remote_desc[2][REMOTE_DESC_MAX]; /* --remote: the child's descriptors */
	size_t remote_desc_len[2];
} W;

static bool arena_init(struct arena *a, size_t len, uint8_t (*pattern)(size_t))
{
	a->len = len;
	a->mem = opt_remote != NULL ? remote_alloc(opt_remote, len) : malloc(len);
	a->pristine = malloc(len);
	if (a->mem == NULL || a->pristine == NULL)
		return false;
	for (size_t i = 0; i < len; i++)
		a->pristine[i] = pattern(i);
	memcpy(a->mem, a->pristine, len);
	return true;
}

static void arena_free(struct arena *a, bool shared)
{
	if (shared)
		remote_free(a->mem, a->len);
	else
		free(a->mem);
	free(a->pristine);
}

static struct doca_mmap *mmap_new(void *addr, size_t len, bool with_dev, uint32_t perms)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	if (m == NULL)
		return NULL;
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	if (with_dev)
		CHECK_OK(doca_mmap_add_dev(m, W.dev));
	CHECK_OK(doca_mmap_set_permissions(m, perms));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static void mmap_free(struct doca_mmap *m)
{
	uint8_t imported = 0;

	if (m == NULL)
		return;
	CHECK_OK(doca_mmap_get_from_export(m, &imported));
	if (!imported) /* an import is only destroyed */
		CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
}

/*
 * --remote: the child exports the PCI halves of the source and destination
 * arenas; import them here in place of local mmaps of the same halves.
 */
static bool remote_init(void)
{
	struct remote_region r[2] = {
		{W.src.mem + SRC_HALF, SRC_HALF, DOCA_ACCESS_FLAG_PCI_READ_ONLY},
		{W.dst.mem + W.dst.len / 2, W.dst.len / 2, DOCA_ACCESS_FLAG_PCI_READ_WRITE},
	};
	uint8_t desc[2][REMOTE_DESC_MAX];
	size_t len[2];

	if (!remote_start(r, 2, desc, len)) {
		fail("--remote %s: the exporting child did not hand over its descriptors", opt_remote);
		return false;
	}
	W.remote_desc_len[0] = len[0];
	W.remote_desc_len[1] = len[1];
	memcpy(W.remote_desc, desc, sizeof(desc));
	return true;
}

static struct doca_mmap *remote_import(int i)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create_from_export(NULL, W.remote_desc[i], W.remote_desc_len[i], W.dev, &m));
	return m;
}

static struct doca_dev *open_dma_device(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; list != NULL && i < n && dev == NULL; i++)
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS &&
		    doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	if (list != NULL)
		CHECK_OK(doca_devinfo_destroy_list(list));
	return dev;
}

/*
 * mmap_new over address space that is never backed: registered with
 * SOFTDOCA_MMAP_REGISTER=off (the documented setting for sparse
 * reservations), since a registering start refuses PROT_NONE memory.
 */
static struct doca_mmap *mmap_new_unbacked(void *addr, size_t len, uint32_t perms)
{
	const char *was = getenv("SOFTDOCA_MMAP_REGISTER");
	char *saved = was != NULL ? strdup(was) : NULL;
	struct doca_mmap *m;

	setenv("SOFTDOCA_MMAP_REGISTER", "off", 1);
	m = mmap_new(addr, len, true, perms);
	if (saved != NULL)
		setenv("SOFTDOCA_MMAP_REGISTER", saved, 1);
	else
		unsetenv("SOFTDOCA_MMAP_REGISTER");
	free(saved);
	return m;
}

/* Reserve address space one byte above the max size; never touched. */
static void big_range_init(void)
{
	void *p;

	if (W.max_size == 0 || W.max_size > (64ULL << 30))
		return;
	W.big_len = (size_t)W.max_size + 4096;
	p = mmap(NULL, W.big_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		W.big_len = 0;
		return;
	}
	W.big_mem = p;
	W.big_mmap = mmap_new_unbacked(W.big_mem, W.big_len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
}

static void dma_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud);
static void dma_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud);

static bool world_init(void)
{
	size_t half = SRC_HALF;

	/* Arenas first: with --remote they are shared with a child forked before any library call. */
	W.slots_per_dst_half = (opt_qd + 1) / 2;
	if (!arena_init(&W.src, 2 * half, src_byte) ||
	    !arena_init(&W.dst, 2 * W.slots_per_dst_half * SLOT_LEN, dst_byte) ||
	    !arena_init(&W.nodev, NODEV_LEN, dst_byte))
		return false;
	if (opt_remote != NULL && !remote_init())
		return false;

	W.dev = open_dma_device();
	if (W.dev == NULL) {
		fail("no DMA-capable device");
		return false;
	}
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(W.dev), &W.max_list));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(W.dev), &W.max_size));
	if (W.max_list == 0 || W.max_size == 0)
		return false;
	W.gen_list = W.max_list < LIST_CAP_LIMIT ? W.max_list : LIST_CAP_LIMIT;

	W.src_mmap[0] = mmap_new(W.src.mem, half, true, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	W.dst_mmap[0] = mmap_new(W.dst.mem, W.dst.len / 2, true, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (opt_remote != NULL) {
		W.src_mmap[1] = remote_import(0);
		W.dst_mmap[1] = remote_import(1);
	} else {
		W.src_mmap[1] = mmap_new(W.src.mem + half, half, true, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
		W.dst_mmap[1] = mmap_new(W.dst.mem + W.dst.len / 2, W.dst.len / 2, true, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	}
	W.nodev_mmap = mmap_new(W.nodev.mem, W.nodev.len, false, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	big_range_init();

	/* Every slot may hold two lists one element longer than the cap. */
	CHECK_OK(doca_buf_inventory_create((size_t)opt_qd * 2 * (W.gen_list + 2) + 64, &W.inv));
	if (W.inv == NULL)
		return false;
	CHECK_OK(doca_buf_inventory_start(W.inv));
	CHECK_OK(doca_pe_create(&W.pe));
	CHECK_OK(doca_dma_create(W.dev, &W.dma));
	if (W.pe == NULL || W.dma == NULL)
		return false;
	W.ctx = doca_dma_as_ctx(W.dma);
	CHECK_OK(doca_pe_connect_ctx(W.pe, W.ctx));
	CHECK_OK(doca_dma_task_memcpy_set_conf(W.dma, dma_ok_cb, dma_err_cb, opt_pool));
	CHECK_OK(doca_ctx_start(W.ctx));
	return !sd_test_case_failed;
}

/* ------------------------------------------------------------------ */
/* Task descriptions                                                   */
/* ------------------------------------------------------------------ */

/* One buffer element as the test laid it out. */
struct elem {
	struct doca_mmap *mmap;
	struct arena *arena; /* NULL for the big reservation */
	uint8_t *head;
	size_t len;
	size_t data_off; /* data - head */
	size_t data_len; /* at build time */
	struct doca_buf *buf;
};

struct slot {
	int index;
	struct doca_dma_task_memcpy *task; /* owned by this slot (in flight or kept) */
	bool in_flight;
	bool is_probe;                     /* shaped to be refused */
	unsigned long id;                  /* task number, for messages */
	uint8_t *win;                      /* this slot's destination window */
	struct doca_mmap *win_mmap;
	int nsrc, ndst;
	struct elem *src, *dst;            /* gen_list + 1 entries each */
	size_t total;                      /* S */
};

static struct slot slots[MAX_QD];

/* Submission-order ring of in-flight slots. */
static struct slot *ring[MAX_QD];
static unsigned ring_head, ring_count;

static struct {
	unsigned long issued, ok, rejected, reported;
	unsigned long bytes;
	unsigned long kept_reuses, try_submits, shared_sources, in_use_checks, no_memory_checks;
	unsigned long reports_in_call, multi_report_calls;
	unsigned long pool_waits, steals, again_retries; /* back-pressure (--pool, AGAIN) */
} stats;

/* Set when the task pool ran dry: the submit loop stops and progresses. */
static bool pool_dry;

/* Split `total` into n parts at random cut points (parts may be 0). */
static void split(size_t total, int n, size_t *parts)
{
	size_t cuts[LIST_CAP_LIMIT + 2];

	cuts[0] = 0;
	for (int i = 1; i < n; i++) {
		size_t c = (size_t)rnd_below(total + 1);
		int j = i;

		while (j > 1 && cuts[j - 1] > c) {
			cuts[j] = cuts[j - 1];
			j--;
		}
		cuts[j] = c;
	}
	cuts[n] = total;
	for (int i = 0; i < n; i++)
		parts[i] = cuts[i + 1] - cuts[i];
}

static int pick_list_len(void)
{
	uint64_t r = rnd_below(1000);

	if (r < 700 || W.gen_list == 1)
		return 1;
	if (r < 900)
		return (int)rnd_range(2, W.gen_list < 4 ? W.gen_list : 4);
	return (int)rnd_range(1, W.gen_list);
}

static size_t pick_total(void)
{
	uint64_t r = rnd_below(1000), max = W.max_size < LARGE_MAX ? W.max_size : LARGE_MAX;
	size_t s;

	if (r < 900)
		s = (size_t)(1 + rnd_below(1ULL << rnd_below(17)));
	else if (r < 995)
		s = (size_t)rnd_range(1, 65536);
	else
		s = (size_t)rnd_range(65537, LARGE_MAX);
	return s > max ? (size_t)max : s;
}

/* Source elements over the two read-only halves, random room around data. */
static void gen_sources(struct slot *s, size_t total, int n)
{
	size_t parts[LIST_CAP_LIMIT + 2];

	split(total, n, parts);
	for (int i = 0; i < n; i++) {
		struct elem *e = &s->src[i];
		int half = (int)rnd_below(2);
		size_t head_room = rnd_chance(250) ? (size_t)rnd_below(64) : 0;
		size_t tail_room = rnd_chance(250) ? (size_t)rnd_below(64) : 0;
		size_t len = head_room + parts[i] + tail_room;
		size_t off = (size_t)rnd_below(SRC_HALF - len + 1);

		e->mmap = W.src_mmap[half];
		e->arena = &W.src;
		e->head = W.src.mem + (size_t)half * SRC_HALF + off;
		e->len = len;
		e->data_off = head_room;
		e->data_len = parts[i];
	}
	s->nsrc = n;
	s->total = total;
}

/*
 * Destination elements laid out one after the other in the slot's window,
 * separated by canary gaps; `capacity` is the total room after the data.
 */
static bool gen_destinations(struct slot *s, size_t capacity, int n)
{
	size_t caps[LIST_CAP_LIMIT + 2], cursor = 0;

	split(capacity, n, caps);
	for (int i = 0; i < n; i++) {
		struct elem *e = &s->dst[i];
		size_t head_room = rnd_chance(250) ? (size_t)rnd_below(32) : 0;
		size_t pre = rnd_chance(250) ? (size_t)rnd_below(64) : 0;

		cursor += CANARY + (size_t)rnd_below(48);
		e->mmap = s->win_mmap;
		e->arena = &W.dst;
		e->head = s->win + cursor;
		e->len = head_room + pre + caps[i];
		e->data_off = head_room;
		e->data_len = pre;
		cursor += e->len;
	}
	s->ndst = n;
	if (cursor + CANARY > SLOT_LEN) {
		fail("internal: window overflow (%zu bytes)", cursor);
		return false;
	}
	return true;
}

/* Turn the element descriptions into chained inventory buffers. */
static bool make_list(struct elem *e, int n, unsigned long id)
{
	struct doca_buf *tail = NULL;

	for (int i = 0; i < n; i++) {
		e[i].buf = NULL;
		EXPECT_ERR(doca_buf_inventory_buf_get_by_args(W.inv, e[i].mmap, e[i].head, e[i].len,
							      e[i].head + e[i].data_off, e[i].data_len,
							      &e[i].buf),
			   DOCA_SUCCESS, "get_by_args", id);
		if (e[i].buf == NULL) {
			if (i > 0)
				doca_buf_dec_refcount(e[0].buf, NULL);
			return false;
		}
		if (i == 0) {
			tail = e[0].buf;
			continue;
		}
		/* Both chaining calls, so both stay exercised. */
		if (id & 1)
			EXPECT_ERR(doca_buf_chain_list_tail(e[0].buf, tail, e[i].buf), DOCA_SUCCESS, "chain_tail", id);
		else
			EXPECT_ERR(doca_buf_chain_list(e[0].buf, e[i].buf), DOCA_SUCCESS, "chain", id);
		tail = e[i].buf;
	}
	return true;
}

static void release_lists(struct slot *s)
{
	if (s->nsrc > 0 && s->src[0].buf != NULL)
		EXPECT_ERR(doca_buf_dec_refcount(s->src[0].buf, NULL), DOCA_SUCCESS, "release src", s->id);
	if (s->ndst > 0 && s->dst[0].buf != NULL)
		EXPECT_ERR(doca_buf_dec_refcount(s->dst[0].buf, NULL), DOCA_SUCCESS, "release dst", s->id);
	s->nsrc = s->ndst = 0;
}

/* A task kept by an idle slot, freed so that its pool slot can serve `s`; false if none. */
static bool steal_kept_task(const struct slot *s)
{
	for (unsigned i = 0; i < opt_qd; i++) {
		struct slot *o = &slots[i];

		if (o != s && o->task != NULL && !o->in_flight) {
			doca_task_free(doca_dma_task_memcpy_as_task(o->task));
			o->task = NULL;
			stats.steals++;
			return true;
		}
	}
	return false;
}

/*
 * Give the slot a task carrying its lists: reuse the kept one or allocate.
 * With a pool smaller than the queue depth an allocation may find it dry
 * (NO_MEMORY, the documented answer): a task kept by an idle slot is freed
 * for it, and when every task is in flight the submit loop waits
 * (pool_dry) for a completion, as a program under back-pressure does.
 */
static bool bind_task(struct slot *s, struct doca_buf *src, struct doca_buf *dst)
{
	union doca_data ud = {.ptr = s};
	doca_error_t err;

	if (s->task != NULL) {
		doca_dma_task_memcpy_set_src(s->task, src);
		doca_dma_task_memcpy_set_dst(s->task, dst);
		doca_task_set_user_data(doca_dma_task_memcpy_as_task(s->task), ud);
		stats.kept_reuses++;
		return true;
	}
	do {
		err = doca_dma_task_memcpy_alloc_init(W.dma, src, dst, ud, &s->task);
	} while (err == DOCA_ERROR_NO_MEMORY && opt_pool < opt_qd && steal_kept_task(s));
	if (err == DOCA_ERROR_NO_MEMORY && opt_pool < opt_qd) {
		stats.pool_waits++;
		pool_dry = true;
		s->task = NULL;
		return false;
	}
	EXPECT_ERR(err, DOCA_SUCCESS, "alloc_init", s->id);
	return err == DOCA_SUCCESS && s->task != NULL;
}

/* The pool ran dry for this task: it is issued again after a completion. */
static void take_back_issue(struct slot *s)
{
	release_lists(s);
	stats.issued--;
}

static void progress_once(double *deadline);

/* Submit (or try-submit); a DOCA_ERROR_AGAIN is retried after a progress call. */
static doca_error_t submit_with_retry(struct doca_task *t, bool try)
{
	double deadline = 0;
	doca_error_t err = try ? doca_task_try_submit(t) : doca_task_submit(t);

	for (unsigned long n = 0; err == DOCA_ERROR_AGAIN && n < 10000000UL; n++) {
		stats.again_retries++;
		progress_once(&deadline);
		err = try ? doca_task_try_submit(t) : doca_task_submit(t);
	}
	return err;
}

/* After a report or refusal: keep the task for later reuse, or free it. */
static void drop_or_keep_task(struct slot *s)
{
	if (rnd_chance(500))
		return;
	doca_task_free(doca_dma_task_memcpy_as_task(s->task));
	s->task = NULL;
}

/* ------------------------------------------------------------------ */
/* Verification                                                        */
/* ------------------------------------------------------------------ */

/* Count and report bytes of [p, p+n) that differ from `want`. */
static bool compare(const uint8_t *p, const uint8_t *want, size_t n, const char *what, unsigned long id)
{
	size_t bad = 0, first = 0;

	if (memcmp(p, want, n) == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (p[i] != want[i]) {
			if (bad++ == 0)
				first = i;
		}
	mismatches += bad;
	fail("task %lu: %zu byte(s) of %s differ, first at +%zu: %#04x, expected %#04x", id, bad, what, first,
	     p[first], want[first]);
	return false;
}

static const uint8_t *pristine_of(const struct arena *a, const uint8_t *p)
{
	return a->pristine + (p - a->mem);
}

/* The source stream, element by element, position `pos` onward, `n` bytes. */
static bool compare_with_stream(const struct slot *s, const uint8_t *dst, size_t pos, size_t n)
{
	size_t skipped = 0;
	bool ok = true;

	for (int i = 0; i < s->nsrc && n > 0; i++) {
		const struct elem *e = &s->src[i];
		size_t take, from;

		if (pos >= skipped + e->data_len) {
			skipped += e->data_len;
			continue;
		}
		from = pos - skipped;
		take = e->data_len - from < n ? e->data_len - from : n;
		ok &= compare(dst, pristine_of(&W.src, e->head + e->data_off + from), take, "copied data", s->id);
		dst += take;
		pos += take;
		n -= take;
		skipped += e->data_len;
	}
	return ok;
}

/*
 * The window span of a finished task: bytes outside the appended ranges
 * are untouched, the appended ranges hold the source stream, every
 * element's metadata moved as an append does.  Restores the span afterwards.
 */
static void verify_done(struct slot *s)
{
	const uint8_t *lo = s->dst[0].head - CANARY;
	const uint8_t *hi = s->dst[s->ndst - 1].head + s->dst[s->ndst - 1].len + CANARY;
	const uint8_t *p = lo;
	size_t remaining = s->total, stream_pos = 0;

	for (int i = 0; i < s->nsrc; i++) {
		const struct elem *e = &s->src[i];
		void *data = NULL;
		size_t data_len = 0;

		EXPECT_ERR(doca_buf_get_data(e->buf, &data), DOCA_SUCCESS, "src get_data", s->id);
		EXPECT_ERR(doca_buf_get_data_len(e->buf, &data_len), DOCA_SUCCESS, "src get_data_len", s->id);
		if (data != e->head + e->data_off || data_len != e->data_len)
			fail("task %lu: source element %d metadata changed", s->id, i);
	}
	for (int i = 0; i < s->ndst; i++) {
		const struct elem *e = &s->dst[i];
		const uint8_t *append = e->head + e->data_off + e->data_len;
		size_t room = e->len - e->data_off - e->data_len;
		size_t got = remaining < room ? remaining : room;
		void *data = NULL, *head = NULL;
		size_t data_len = 0, len = 0;

		EXPECT_ERR(doca_buf_get_data(e->buf, &data), DOCA_SUCCESS, "dst get_data", s->id);
		EXPECT_ERR(doca_buf_get_head(e->buf, &head), DOCA_SUCCESS, "dst get_head", s->id);
		EXPECT_ERR(doca_buf_get_len(e->buf, &len), DOCA_SUCCESS, "dst get_len", s->id);
		EXPECT_ERR(doca_buf_get_data_len(e->buf, &data_len), DOCA_SUCCESS, "dst get_data_len", s->id);
		if (head != e->head || len != e->len || data != e->head + e->data_off)
			fail("task %lu: destination element %d moved (data %+td)", s->id, i,
			     (uint8_t *)data - (e->head + e->data_off));
		if (data_len != e->data_len + got)
			fail("task %lu: destination element %d data_len %zu, expected %zu + %zu", s->id, i, data_len,
			     e->data_len, got);
		compare(p, pristine_of(&W.dst, p), (size_t)(append - p), "canary/head room/old data", s->id);
		compare_with_stream(s, append, stream_pos, got);
		stream_pos += got;
		remaining -= got;
		p = append + got;
	}
	compare(p, pristine_of(&W.dst, p), (size_t)(hi - p), "spare room/canary", s->id);
	if (remaining != 0)
		fail("internal: task %lu has %zu bytes without room", s->id, remaining);
	memcpy((uint8_t *)lo, pristine_of(&W.dst, lo), (size_t)(hi - lo));
	stats.bytes += s->total;
}

/* ------------------------------------------------------------------ */
/* Completion callbacks                                                */
/* ------------------------------------------------------------------ */

static void report(struct doca_dma_task_memcpy *task, union doca_data task_ud, bool success_cb)
{
	struct slot *s = task_ud.ptr;
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	doca_error_t status = doca_task_get_status(t);

	stats.reports_in_call++;
	if (s == NULL || s < &slots[0] || s >= &slots[opt_qd] || s->task != task || !s->in_flight) {
		fail("report for an unknown task %p", (void *)task);
		return;
	}
	if (ring_count == 0 || ring[ring_head] != s)
		fail("task %lu reported out of submission order", s->id);
	else {
		ring_head = (ring_head + 1) % MAX_QD;
		ring_count--;
	}
	s->in_flight = false;
	stats.reported++;
	if (s->is_probe) {
		fail("task %lu: a task that had to be refused was executed (%s)", s->id, doca_error_get_name(status));
	} else if (!success_cb || status != DOCA_SUCCESS) {
		fail("task %lu failed: %s (%s callback)", s->id, doca_error_get_name(status),
		     success_cb ? "success" : "error");
	} else {
		verify_done(s);
		stats.ok++;
	}
	if ((stats.reported % 97) == 0) {
		size_t inflight = 0;

		doca_ctx_get_num_inflight_tasks(W.ctx, &inflight);
		if (inflight != ring_count)
			fail("in-flight count %zu inside a callback, expected %u", inflight, ring_count);
	}
	release_lists(s);
	drop_or_keep_task(s);
}

static void dma_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	report(task, task_ud, true);
}

static void dma_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	report(task, task_ud, false);
}

/* ------------------------------------------------------------------ */
/* Valid tasks                                                         */
/* ------------------------------------------------------------------ */

static struct slot *free_slot(void)
{
	unsigned start = (unsigned)rnd_below(opt_qd);

	for (unsigned i = 0; i < opt_qd; i++) {
		struct slot *s = &slots[(start + i) % opt_qd];

		if (!s->in_flight)
			return s;
	}
	return NULL;
}

/* A valid task in flight whose source list another task may share. */
static struct slot *shared_source_donor(void)
{
	if (ring_count == 0)
		return NULL;
	for (unsigned i = 0; i < ring_count; i++) {
		struct slot *o = ring[(ring_head + i) % MAX_QD];

		if (!o->is_probe && o->nsrc > 0)
			return o;
	}
	return NULL;
}

static void submit_valid(struct slot *s)
{
	size_t total = pick_total();
	size_t extra = rnd_chance(500) ? 0 : (size_t)rnd_range(1, 300);
	struct doca_task *t;
	doca_error_t err;

	struct slot *donor = rnd_chance(50) ? shared_source_donor() : NULL;

	s->is_probe = false;
	if (donor != NULL) {
		/* Share an in-flight task's source list (one more reference). */
		memcpy(s->src, donor->src, (size_t)donor->nsrc * sizeof(*s->src));
		s->nsrc = donor->nsrc;
		s->total = total = donor->total;
		EXPECT_ERR(doca_buf_inc_refcount(s->src[0].buf, NULL), DOCA_SUCCESS, "share source", s->id);
		stats.shared_sources++;
	} else {
		gen_sources(s, total, pick_list_len());
	}
	if (!gen_destinations(s, total + extra, pick_list_len())) {
		if (donor != NULL)
			doca_buf_dec_refcount(s->src[0].buf, NULL);
		return;
	}
	if (donor == NULL && !make_list(s->src, s->nsrc, s->id))
		return;
	if (!make_list(s->dst, s->ndst, s->id)) {
		doca_buf_dec_refcount(s->src[0].buf, NULL);
		return;
	}
	if (!bind_task(s, s->src[0].buf, s->dst[0].buf)) {
		if (pool_dry)
			take_back_issue(s);
		else
			release_lists(s);
		return;
	}
	t = doca_dma_task_memcpy_as_task(s->task);
	if (rnd_chance(250)) {
		stats.try_submits++;
		err = submit_with_retry(t, true);
	} else {
		err = submit_with_retry(t, false);
	}
	if (err != DOCA_SUCCESS) {
		fail("task %lu: valid task refused: %s (S=%zu, %d->%d elements)", s->id, doca_error_get_name(err),
		     s->total, s->nsrc, s->ndst);
		release_lists(s);
		doca_task_free(t);
		s->task = NULL;
		return;
	}
	s->in_flight = true;
	ring[(ring_head + ring_count) % MAX_QD] = s;
	ring_count++;
}

/* ------------------------------------------------------------------ */
/* Tasks that must be refused                                          */
/* ------------------------------------------------------------------ */

enum probe_kind {
	PROBE_EMPTY_SOURCE,
	PROBE_DST_TOO_SMALL,
	PROBE_SRC_LIST_TOO_LONG,
	PROBE_DST_LIST_TOO_LONG,
	PROBE_READ_ONLY_DST,
	PROBE_NODEV_DST,
	PROBE_NODEV_SRC,
	PROBE_NULL_SRC,
	PROBE_NULL_DST,
	PROBE_TOO_BIG,
	PROBE_EMPTY_SOURCE_BEATS_READ_ONLY, /* V3 before V9 */
	PROBE_TOO_SMALL_BEATS_NODEV_SRC,    /* V5 before V6 */
	PROBE_TOO_LONG_BEATS_NODEV_DST,     /* V2 before V7 */
	PROBE_KINDS
};

static const char *const probe_names[PROBE_KINDS] = {
	"empty source", "destination too small", "source list too long", "destination list too long",
	"read-only destination", "destination without device", "source without device", "NULL source",
	"NULL destination", "source above max size", "empty source + read-only destination",
	"too small + source without device", "list too long + destination without device",
};

static unsigned long probe_counts[PROBE_KINDS];

/* Put one element in the no-device arena at a random offset. */
static void elem_in_nodev(struct elem *e, size_t len, bool as_source)
{
	size_t off = (size_t)rnd_below(NODEV_LEN - len + 1);

	e->mmap = W.nodev_mmap;
	e->arena = &W.nodev;
	e->head = W.nodev.mem + off;
	e->len = len;
	e->data_off = 0;
	e->data_len = as_source ? len : 0;
}

/* Put one destination element over the read-only source arena. */
static void elem_in_read_only(struct elem *e, size_t room)
{
	int half = (int)rnd_below(2);
	size_t off = (size_t)rnd_below(SRC_HALF - room + 1);

	e->mmap = W.src_mmap[half];
	e->arena = &W.src;
	e->head = W.src.mem + (size_t)half * SRC_HALF + off;
	e->len = room;
	e->data_off = 0;
	e->data_len = 0;
}

/* Shape the slot's lists for a probe; returns the code the rules demand. */
static doca_error_t shape_probe(struct slot *s, enum probe_kind kind, bool *null_src, bool *null_dst)
{
	size_t total = (size_t)rnd_range(1, 4096);
	int too_long = (int)W.max_list + 1;

	*null_src = *null_dst = false;
	switch (kind) {
	case PROBE_EMPTY_SOURCE:
	case PROBE_EMPTY_SOURCE_BEATS_READ_ONLY:
		gen_sources(s, total, (int)rnd_range(1, 3));
		for (int i = 0; i < s->nsrc; i++)
			s->src[i].data_len = 0;
		gen_destinations(s, total, pick_list_len());
		if (kind == PROBE_EMPTY_SOURCE_BEATS_READ_ONLY)
			elem_in_read_only(&s->dst[0], total);
		return DOCA_ERROR_INVALID_VALUE;
	case PROBE_DST_TOO_SMALL:
	case PROBE_TOO_SMALL_BEATS_NODEV_SRC:
		gen_sources(s, total, pick_list_len());
		gen_destinations(s, total - 1, pick_list_len());
		if (kind == PROBE_TOO_SMALL_BEATS_NODEV_SRC)
			elem_in_nodev(&s->src[s->nsrc - 1], s->src[s->nsrc - 1].data_len, true);
		return DOCA_ERROR_INVALID_VALUE;
	case PROBE_SRC_LIST_TOO_LONG:
		gen_sources(s, total + (size_t)too_long, too_long);
		gen_destinations(s, s->total, pick_list_len());
		return DOCA_ERROR_INVALID_VALUE;
	case PROBE_DST_LIST_TOO_LONG:
	case PROBE_TOO_LONG_BEATS_NODEV_DST:
		gen_sources(s, total, pick_list_len());
		gen_destinations(s, total, too_long);
		if (kind == PROBE_TOO_LONG_BEATS_NODEV_DST)
			elem_in_nodev(&s->dst[0], s->dst[0].len, false);
		return DOCA_ERROR_INVALID_VALUE;
	case PROBE_READ_ONLY_DST:
		gen_sources(s, total, pick_list_len());
		gen_destinations(s, total, pick_list_len());
		elem_in_read_only(&s->dst[rnd_below((uint64_t)s->ndst)], total);
		return DOCA_ERROR_NOT_PERMITTED;
	case PROBE_NODEV_DST:
		gen_sources(s, total, pick_list_len());
		gen_destinations(s, total, pick_list_len());
		elem_in_nodev(&s->dst[rnd_below((uint64_t)s->ndst)], total, false);
		return DOCA_ERROR_NOT_PERMITTED;
	case PROBE_NODEV_SRC: {
		struct elem *e;

		gen_sources(s, total, pick_list_len());
		gen_destinations(s, total, pick_list_len());
		e = &s->src[rnd_below((uint64_t)s->nsrc)];
		elem_in_nodev(e, e->data_len, true);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	case PROBE_NULL_SRC:
	case PROBE_NULL_DST:
		gen_sources(s, total, 1);
		gen_destinations(s, total, 1);
		*null_src = kind == PROBE_NULL_SRC;
		*null_dst = kind == PROBE_NULL_DST;
		return DOCA_ERROR_INVALID_VALUE;
	case PROBE_TOO_BIG:
		gen_destinations(s, total, 1);
		s->nsrc = 1;
		s->total = (size_t)W.max_size + 1;
		s->src[0] = (struct elem){.mmap = W.big_mmap, .arena = NULL, .head = W.big_mem,
					  .len = (size_t)W.max_size + 1, .data_off = 0,
					  .data_len = (size_t)W.max_size + 1};
		return DOCA_ERROR_INVALID_VALUE;
	case PROBE_KINDS:
		break;
	}
	return DOCA_ERROR_UNKNOWN;
}

static bool probe_possible(enum probe_kind kind)
{
	switch (kind) {
	case PROBE_SRC_LIST_TOO_LONG:
	case PROBE_DST_LIST_TOO_LONG:
	case PROBE_TOO_LONG_BEATS_NODEV_DST:
		return W.max_list + 1 <= LIST_CAP_LIMIT;
	case PROBE_TOO_BIG:
		return W.big_mmap != NULL;
	default:
		return true;
	}
}

/* Nothing the refused task pointed at may have changed. */
static void verify_untouched(struct slot *s)
{
	for (int side = 0; side < 2; side++) {
		struct elem *e = side ? s->dst : s->src;
		int n = side ? s->ndst : s->nsrc;

		for (int i = 0; i < n; i++) {
			if (e[i].arena == NULL || e[i].len == 0)
				continue;
			if (e[i].buf != NULL && side == 1) {
				size_t data_len = 0;

				doca_buf_get_data_len(e[i].buf, &data_len);
				if (data_len != e[i].data_len)
					fail("task %lu: refused task changed a destination data_len", s->id);
			}
			compare(e[i].head, pristine_of(e[i].arena, e[i].head), e[i].len, "memory of a refused task",
				s->id);
		}
	}
	/* The whole window: canaries, gaps and elements alike. */
	compare(s->win, pristine_of(&W.dst, s->win), SLOT_LEN, "window of a refused task", s->id);
}

static void submit_probe(struct slot *s)
{
	enum probe_kind kind = (enum probe_kind)rnd_below(PROBE_KINDS);
	bool null_src, null_dst;
	doca_error_t want, got, status;
	size_t inflight_before = ring_count, inflight = 0;
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;
	struct doca_task *t;

	while (!probe_possible(kind))
		kind = (enum probe_kind)rnd_below(PROBE_KINDS);
	s->is_probe = true;
	want = shape_probe(s, kind, &null_src, &null_dst);
	if (!make_list(s->src, s->nsrc, s->id))
		return;
	if (!make_list(s->dst, s->ndst, s->id)) {
		doca_buf_dec_refcount(s->src[0].buf, NULL);
		return;
	}
	if (!bind_task(s, null_src ? NULL : s->src[0].buf, null_dst ? NULL : s->dst[0].buf)) {
		if (pool_dry)
			take_back_issue(s);
		else
			release_lists(s);
		return;
	}
	t = doca_dma_task_memcpy_as_task(s->task);
	got = submit_with_retry(t, true);
	if (got != want) {
		fail("task %lu (%s): try_submit returned %s, expected %s", s->id, probe_names[kind],
		     doca_error_get_name(got), doca_error_get_name(want));
		if (got == DOCA_SUCCESS) {
			/* It was queued after all: let it be reported before going on. */
			s->in_flight = true;
			ring[(ring_head + ring_count) % MAX_QD] = s;
			ring_count++;
			return;
		}
	}
	status = doca_task_get_status(t);
	if (status != got)
		fail("task %lu (%s): status after the refusal is %s, expected %s", s->id, probe_names[kind],
		     doca_error_get_name(status), doca_error_get_name(got));
	doca_ctx_get_state(W.ctx, &state);
	if (state != DOCA_CTX_STATE_RUNNING)
		fail("task %lu (%s): context left RUNNING after a refusal", s->id, probe_names[kind]);
	doca_ctx_get_num_inflight_tasks(W.ctx, &inflight);
	if (inflight != inflight_before)
		fail("task %lu (%s): in-flight count %zu after a refusal, expected %zu", s->id, probe_names[kind],
		     inflight, inflight_before);
	verify_untouched(s);
	probe_counts[kind]++;
	stats.rejected++;
	release_lists(s);
	drop_or_keep_task(s);
}

/* ------------------------------------------------------------------ */
/* Occasional API checks while the queue is busy                       */
/* ------------------------------------------------------------------ */

static void check_pool_and_in_use(void)
{
	/* A task in flight cannot be submitted again. */
	if (ring_count > 0 && rnd_chance(5)) {
		struct slot *s = ring[(ring_head + ring_count - 1) % MAX_QD];

		EXPECT_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(s->task)), DOCA_ERROR_IN_USE,
			   "resubmit in flight", s->id);
		stats.in_use_checks++;
	}
	/* Slots hold every task of the pool (exactly its configured size, B20): it is empty. */
	if (rnd_chance(5)) {
		struct doca_dma_task_memcpy *extra = NULL;
		unsigned held = 0;

		for (unsigned i = 0; i < opt_qd; i++)
			held += slots[i].task != NULL;
		if (held == opt_pool) {
			EXPECT_ERR(doca_dma_task_memcpy_alloc_init(W.dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra),
				   DOCA_ERROR_NO_MEMORY, "alloc beyond the pool", stats.issued);
			stats.no_memory_checks++;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Main loop                                                           */
/* ------------------------------------------------------------------ */

static void progress_once(double *deadline)
{
	stats.reports_in_call = 0;
	if (doca_pe_progress(W.pe)) {
		if (stats.reports_in_call > 1)
			stats.multi_report_calls++;
		*deadline = 0;
		return;
	}
	if (*deadline == 0) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		*deadline = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + STALL_SEC;
	} else {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		if ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9 > *deadline) {
			fail("no progress for %.0f s with %u task(s) in flight", STALL_SEC, ring_count);
			ring_count = 0; /* give up: abandon the in-flight tasks */
		}
	}
}

static bool slots_init(void)
{
	for (unsigned i = 0; i < opt_qd; i++) {
		struct slot *s = &slots[i];
		bool second = i >= W.slots_per_dst_half;

		memset(s, 0, sizeof(*s));
		s->index = (int)i;
		s->win = W.dst.mem + (size_t)i * SLOT_LEN;
		s->win_mmap = W.dst_mmap[second];
		s->src = calloc(LIST_CAP_LIMIT + 2, sizeof(struct elem));
		s->dst = calloc(LIST_CAP_LIMIT + 2, sizeof(struct elem));
		if (s->src == NULL || s->dst == NULL)
			return false;
	}
	return true;
}

static void world_fini(void)
{
	uint32_t total = 0, free_elems = 0;
	struct doca_dma_task_memcpy *extra = NULL;

	for (unsigned i = 0; i < opt_qd; i++) {
		if (slots[i].task != NULL && !slots[i].in_flight)
			doca_task_free(doca_dma_task_memcpy_as_task(slots[i].task));
		slots[i].task = NULL;
		free(slots[i].src);
		free(slots[i].dst);
	}
	if (W.ctx != NULL) {
		/* Every task was freed: the pool is whole again. */
		EXPECT_ERR(doca_dma_task_memcpy_alloc_init(W.dma, NULL, NULL, (union doca_data){.u64 = 0}, &extra),
			   DOCA_SUCCESS, "alloc after the run", 0);
		if (extra != NULL)
			doca_task_free(doca_dma_task_memcpy_as_task(extra));
		CHECK_EQ_U64(doca_pe_progress(W.pe), 0);
		CHECK_OK(doca_ctx_stop(W.ctx)); /* synchronous: nothing allocated (B10) */
		CHECK_OK(doca_ctx_stop(W.ctx)); /* stopping an IDLE context succeeds */
		CHECK_OK(doca_dma_destroy(W.dma));
	}
	if (W.pe != NULL)
		CHECK_OK(doca_pe_destroy(W.pe));
	if (W.inv != NULL) {
		CHECK_OK(doca_buf_inventory_get_num_elements(W.inv, &total));
		CHECK_OK(doca_buf_inventory_get_num_free_elements(W.inv, &free_elems));
		CHECK_EQ_U64(free_elems, total);
		CHECK_OK(doca_buf_inventory_stop(W.inv));
		CHECK_OK(doca_buf_inventory_destroy(W.inv));
	}
	mmap_free(W.src_mmap[0]);
	mmap_free(W.src_mmap[1]);
	mmap_free(W.dst_mmap[0]);
	mmap_free(W.dst_mmap[1]);
	mmap_free(W.nodev_mmap);
	mmap_free(W.big_mmap);
	if (W.big_mem != NULL)
		munmap(W.big_mem, W.big_len);
	if (W.dev != NULL)
		CHECK_OK(doca_dev_close(W.dev));
	/* Sources and the no-device arena were never written; the windows were restored. */
	if (W.src.mem != NULL)
		compare(W.src.mem, W.src.pristine, W.src.len, "source arena", 0);
	if (W.nodev.mem != NULL)
		compare(W.nodev.mem, W.nodev.pristine, W.nodev.len, "no-device arena", 0);
	if (W.dst.mem != NULL)
		compare(W.dst.mem, W.dst.pristine, W.dst.len, "destination arena", 0);
	if (opt_remote != NULL && !remote_finish())
		fail("--remote %s: the exporting child did not exit cleanly", opt_remote);
	arena_free(&W.src, opt_remote != NULL);
	arena_free(&W.dst, opt_remote != NULL);
	arena_free(&W.nodev, opt_remote != NULL);
}

/* --progress: one status line every 10 s, and a last one at the end. */
static void progress_line(bool last)
{
	static double start, next;
	struct timespec ts;
	double now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if (start == 0) {
		start = now;
		next = now + 10;
	}
	if (!last && now < next)
		return;
	next = now + 10;
	fprintf(stderr, "dmatest: %lu/%lu tasks reported (%.1f%%), %.0f tasks/s, %lu bytes checked, %lu mismatches, "
		"%lu failures%s\n",
		stats.reported + stats.rejected, opt_tasks, 100.0 * (double)(stats.reported + stats.rejected) / (double)opt_tasks,
		now > start ? (double)(stats.reported + stats.rejected) / (now - start) : 0.0, stats.bytes, mismatches,
		failures, last ? " (done)" : "");
}

static void dmatest_run(void)
{
	double deadline = 0;

	rng = opt_seed ? opt_seed : 1;
	if (!world_init() || !slots_init()) {
		CHECK(!"set-up failed");
		world_fini();
		return;
	}
	printf("dmatest: seed %#" PRIx64 ", %lu tasks, queue depth %u, pool %u, max list %u, max size %" PRIu64
	       ", big-size probe %s, PCI halves %s\n",
	       opt_seed, opt_tasks, opt_qd, opt_pool, W.max_list, W.max_size, W.big_mmap ? "on" : "off",
	       opt_remote != NULL ? opt_remote : "local");

	while (stats.issued < opt_tasks || ring_count > 0) {
		pool_dry = false;
		while (stats.issued < opt_tasks && ring_count < opt_qd && !pool_dry) {
			struct slot *s = free_slot();

			if (s == NULL)
				break;
			s->id = stats.issued++;
			if (rnd_chance(20))
				submit_probe(s);
			else
				submit_valid(s);
			check_pool_and_in_use();
			if (rnd_chance(300))
				break; /* vary the queue depth the engine sees */
		}
		if (failures > 1000)
			break;
		progress_once(&deadline);
		if (opt_verbose && stats.issued % 10000 == 0 && ring_count == 0)
			printf("dmatest: %lu issued\n", stats.issued);
		if (opt_progress && (stats.reported & 0xfff) == 0)
			progress_line(false);
	}
	if (opt_progress)
		progress_line(true);
	CHECK_EQ_U64(stats.multi_report_calls, 0); /* one report per call */
	world_fini();

	printf("dmatest: %lu tasks (%lu ok, %lu rejected as expected), %lu mismatches\n", stats.ok + stats.rejected,
	       stats.ok, stats.rejected, mismatches);
	printf("dmatest: %lu bytes verified, %lu try-submits, %lu task reuses, %lu shared sources, "
	       "%lu in-use and %lu pool checks\n",
	       stats.bytes, stats.try_submits, stats.kept_reuses, stats.shared_sources, stats.in_use_checks,
	       stats.no_memory_checks);
	if (opt_pool < opt_qd || stats.again_retries != 0)
		printf("dmatest: back-pressure: %lu waits for a dry pool, %lu kept tasks freed for others, "
		       "%lu submits retried after AGAIN\n",
		       stats.pool_waits, stats.steals, stats.again_retries);
	if (opt_verbose)
		for (int k = 0; k < PROBE_KINDS; k++)
			printf("dmatest:   %-44s %lu\n", probe_names[k], probe_counts[k]);
	CHECK_EQ_U64(stats.ok + stats.rejected, opt_tasks);
	CHECK_EQ_U64(mismatches, 0);
	CHECK_EQ_U64(failures, 0);
}

static bool parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end = NULL;

		if (strcmp(a, "--verbose") == 0) {
			opt_verbose = true;
			continue;
		}
		if (strcmp(a, "--progress") == 0) {
			opt_progress = true;
			continue;
		}
		if (strcmp(a, "--remote") == 0 && i + 1 < argc) {
			opt_remote = argv[++i];
			if (!remote_kind_valid(opt_remote))
				return false;
			continue;
		}
		if (i + 1 >= argc)
			return false;
		errno = 0;
		if (strcmp(a, "--tasks") == 0)
			opt_tasks = strtoul(argv[++i], &end, 0);
		else if (strcmp(a, "--seed") == 0)
			opt_seed = strtoull(argv[++i], &end, 0);
		else if (strcmp(a, "--qd") == 0)
			opt_qd = (unsigned)strtoul(argv[++i], &end, 0);
		else if (strcmp(a, "--pool") == 0)
			opt_pool = (unsigned)strtoul(argv[++i], &end, 0);
		else
			return false;
		if (errno != 0 || end == NULL || *end != '\0')
			return false;
	}
	if (opt_pool == 0)
		opt_pool = opt_qd;
	return opt_tasks > 0 && opt_qd >= 1 && opt_qd <= MAX_QD && opt_pool <= opt_qd;
}

int main(int argc, char **argv)
{
	if (!parse_args(argc, argv)) {
		fprintf(stderr,
			"usage: %s [--tasks N] [--seed S] [--qd 1..%d] [--pool 1..QD] [--remote memfd|shm|heap] "
			"[--progress] [--verbose]\n",
			argv[0], MAX_QD);
		return 2;
	}
	SD_RUN(dmatest_run);
	return sd_test_done();
}
