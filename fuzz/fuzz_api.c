/*
 * fuzz_api - libFuzzer target: the fuzz input is a program of public DOCA
 * calls on a handful of objects.
 *
 * Objects live in small tables (2 devices, 4 mmaps, 2 inventories, 8
 * buffers, 2 progress engines, 2 DMA contexts, 8 tasks).  Each input byte
 * is an opcode (one of the FZ_OP_* below), followed by the argument bytes
 * it reads (a missing byte reads as 0).  An argument that picks an object
 * may pick an empty slot, which passes NULL.  Calls are made in any order
 * and any state: creating, configuring, starting, stopping and destroying
 * devices, mmaps (exports and imports included), inventories, buffers
 * (references, data, lists), progress engines, DMA contexts and tasks
 * (allocate, set buffers, submit, try-submit, free, progress).  All memory
 * that mmaps and buffers describe lies inside one arena, so a task never
 * writes outside it whatever the input.  The program never passes a
 * pointer to freed memory: only to live objects, NULL, or objects the
 * library must recognise as released (freed tasks of a running context,
 * released buffers of a live inventory).
 *
 * What is checked, besides "no crash" (ASan, UBSan, leaks):
 *   - every refused call logs exactly one SDK ERROR record, and a call
 *     that succeeds logs none (doca_pe_progress, which reports tasks, and
 *     doca_ctx_stop's IN_PROGRESS are exempt);
 *   - after the program, everything can be released in the documented
 *     order: stop every context and progress until it is IDLE, free its
 *     tasks, destroy, drop every buffer reference, destroy inventories,
 *     mmaps and devices; any refusal there aborts (a leak or a stuck state).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include "debug_priv.h" /* sd_cascade_configure: the library is linked in */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NDEV 2
#define NMMAP 4
#define NINV 2
#define NBUF 8
#define NPE 2
#define NDMA 2
#define NTASK 8
#define ARENA (64u << 10)
#define MAX_OPS 96

static const char *const fz_pci[NDEV] = {"0000:03:00.0", "0000:b1:00.0"};
static uint8_t fz_arena[ARENA] __attribute__((aligned(4096)));

struct fz_buf {
	struct doca_buf *buf;
	int inv; /* inventory it came from */
};

struct fz_task {
	struct doca_dma_task_memcpy *task;
	int dma;
};

static struct {
	struct doca_dev *dev[NDEV];
	struct doca_mmap *mmap[NMMAP];
	struct doca_buf_inventory *inv[NINV];
	struct fz_buf buf[NBUF];
	struct doca_pe *pe[NPE];
	struct doca_dma *dma[NDMA];
	struct fz_task task[NTASK];
	const uint8_t *in, *end;
} F;

/* ---- the SDK log: ERROR records of the current call ---- */

static char fz_log_buf[4096];
static int fz_errors;
static bool fz_trace; /* FUZZ_API_TRACE=1: print every judged call (to replay one input) */

static void fz_log_record(char *rec)
{
	if (strstr(rec, "][ERR][") != NULL)
		fz_errors++;
}

static void fz_fail(const char *what, const char *call, doca_error_t err)
{
	fprintf(stderr, "fuzz_api: %s: %s returned %s with %d ERROR record(s)\n", what, call,
		doca_error_get_name(err), fz_errors);
	abort();
}

/* A call whose outcome the oracle judges: one ERROR record exactly when refused. */
#define FZ_CALL(expr)                                                                              \
	({                                                                                         \
		fz_errors = 0;                                                                     \
		doca_error_t fz_err_ = (expr);                                                     \
		if (fz_err_ != DOCA_SUCCESS && fz_errors != 1)                                     \
			fz_fail("a refused call must log one ERROR record", #expr, fz_err_);       \
		if (fz_err_ == DOCA_SUCCESS && fz_errors != 0)                                     \
			fz_fail("a successful call must log no ERROR record", #expr, fz_err_);     \
		if (fz_trace)                                                                      \
			fprintf(stderr, "%-24s %s\n", doca_error_get_name(fz_err_), #expr);       \
		fz_err_;                                                                           \
	})

/* A void call or an accessor: at most one ERROR record (one when it was misused). */
#define FZ_VOID(stmt)                                                                              \
	do {                                                                                       \
		fz_errors = 0;                                                                     \
		stmt;                                                                              \
		if (fz_errors > 1)                                                                 \
			fz_fail("a call logged more than one ERROR record", #stmt, DOCA_SUCCESS);  \
	} while (0)

/* A teardown step that must succeed. */
#define FZ_MUST(expr)                                                                              \
	do {                                                                                       \
		doca_error_t fz_err_ = (expr);                                                     \
		if (fz_err_ != DOCA_SUCCESS)                                                       \
			fz_fail("teardown step refused", #expr, fz_err_);                          \
	} while (0)

/* ---- reading the program ---- */

static uint8_t arg(void)
{
	return F.in < F.end ? *F.in++ : 0;
}

static uint16_t arg16(void)
{
	uint16_t lo = arg();
	return (uint16_t)(lo | (uint16_t)arg() << 8);
}

/* Slot indexes: one beyond the table picks nothing (NULL). */
static int pick(int n)
{
	return arg() % (n + 1);
}

#define OBJ(table, i) ((i) < (int)(sizeof(table) / sizeof((table)[0])) ? (table)[i] : NULL)

static struct doca_dev *dev_arg(void)
{
	int i = pick(NDEV);
	return OBJ(F.dev, i);
}

static struct doca_mmap *mmap_arg(void)
{
	int i = pick(NMMAP);
	return OBJ(F.mmap, i);
}

static struct doca_buf_inventory *inv_arg(void)
{
	int i = pick(NINV);
	return OBJ(F.inv, i);
}

static struct doca_buf *buf_arg(void)
{
	int i = pick(NBUF);
	return i < NBUF ? F.buf[i].buf : NULL;
}

static struct doca_pe *pe_arg(void)
{
	int i = pick(NPE);
	return OBJ(F.pe, i);
}

static struct doca_ctx *ctx_of(int i)
{
	return i < NDMA && F.dma[i] != NULL ? doca_dma_as_ctx(F.dma[i]) : NULL;
}

static struct doca_task *task_at(int i)
{
	return i < NTASK && F.task[i].task != NULL ? doca_dma_task_memcpy_as_task(F.task[i].task) : NULL;
}

/* A pointer into the arena (never outside it). */
static uint8_t *arena_arg(void)
{
	return fz_arena + arg16() % ARENA;
}

/* ---- task callbacks: what to do with a reported task is in its user data ---- */

enum fz_policy { FZ_KEEP, FZ_FREE, FZ_RESUBMIT };

static void fz_task_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);

	(void)ctx_ud;
	if (fz_trace)
		fprintf(stderr, "  task %p reported: %s\n", (void *)task, doca_error_get_name(doca_task_get_status(t)));
	switch (task_ud.u64 % 3) {
	case FZ_FREE:
		doca_task_free(t);
		break;
	case FZ_RESUBMIT:
		if (doca_task_submit(t) != DOCA_SUCCESS)
			doca_task_free(t);
		break;
	default:
		break;
	}
}

/* A context that reached IDLE released its task pool: forget its tasks. */
static void forget_tasks_of_idle_contexts(void)
{
	for (int d = 0; d < NDMA; d++) {
		enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

		if (F.dma[d] == NULL || doca_ctx_get_state(ctx_of(d), &st) != DOCA_SUCCESS || st != DOCA_CTX_STATE_IDLE)
			continue;
		for (int t = 0; t < NTASK; t++)
			if (F.task[t].task != NULL && F.task[t].dma == d)
				F.task[t].task = NULL;
	}
}

/* ---- the operations ---- */

static void op_dev_open(void)
{
	int i = arg() % NDEV;
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	if (F.dev[i] != NULL || FZ_CALL(doca_devinfo_create_list(&list, &n)) != DOCA_SUCCESS)
		return;
	for (uint32_t k = 0; k < n; k++) {
		char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
		if (FZ_CALL(doca_devinfo_get_pci_addr_str(list[k], pci)) == DOCA_SUCCESS && strcmp(pci, fz_pci[i]) == 0)
			(void)FZ_CALL(doca_dev_open(list[k], &F.dev[i]));
	}
	(void)FZ_CALL(doca_devinfo_destroy_list(list));
}

static void op_dev_close(void)
{
	int i = pick(NDEV);
	struct doca_dev *d = OBJ(F.dev, i);

	if (FZ_CALL(doca_dev_close(d)) == DOCA_SUCCESS && d != NULL)
		F.dev[i] = NULL;
}

static void op_mmap_create(void)
{
	int i = arg() % NMMAP;

	if (F.mmap[i] == NULL)
		(void)FZ_CALL(doca_mmap_create(&F.mmap[i]));
}

static void op_mmap_dev(bool add)
{
	struct doca_mmap *m = mmap_arg();
	struct doca_dev *d = dev_arg();

	(void)FZ_CALL(add ? doca_mmap_add_dev(m, d) : doca_mmap_rm_dev(m, d));
}

static void op_mmap_memrange(void)
{
	struct doca_mmap *m = mmap_arg();
	uint32_t off = arg16() % ARENA;
	uint32_t len = arg16() % (ARENA - off + 1);

	(void)FZ_CALL(doca_mmap_set_memrange(m, fz_arena + off, len));
}

static void op_mmap_permissions(void)
{
	struct doca_mmap *m = mmap_arg();
	uint32_t mask = arg16() & 0x3ff;

	(void)FZ_CALL(doca_mmap_set_permissions(m, mask));
}

static void op_mmap_start_stop(bool start)
{
	struct doca_mmap *m = mmap_arg();

	(void)FZ_CALL(start ? doca_mmap_start(m) : doca_mmap_stop(m));
}

static void op_mmap_destroy(void)
{
	int i = pick(NMMAP);
	struct doca_mmap *m = OBJ(F.mmap, i);

	if (FZ_CALL(doca_mmap_destroy(m)) == DOCA_SUCCESS && m != NULL)
		F.mmap[i] = NULL;
}

/* Export an mmap through one device and import the descriptor through another into a free slot. */
static void op_mmap_export_import(void)
{
	struct doca_mmap *m = mmap_arg();
	struct doca_dev *exp_dev = dev_arg(), *imp_dev = dev_arg();
	int slot = arg() % NMMAP;
	const void *desc = NULL;
	size_t len = 0;

	if (FZ_CALL(doca_mmap_export_pci(m, exp_dev, &desc, &len)) != DOCA_SUCCESS || F.mmap[slot] != NULL)
		return;
	(void)FZ_CALL(doca_mmap_create_from_export(NULL, desc, len, imp_dev, &F.mmap[slot]));
}

static void op_inv_create(void)
{
	int i = arg() % NINV;
	size_t n = arg() % 16;

	if (F.inv[i] == NULL)
		(void)FZ_CALL(doca_buf_inventory_create(n, &F.inv[i]));
}

static void op_inv_start_stop(bool start)
{
	struct doca_buf_inventory *inv = inv_arg();

	(void)FZ_CALL(start ? doca_buf_inventory_start(inv) : doca_buf_inventory_stop(inv));
}

static bool buf_of_inventory(const struct doca_buf *b, int inv)
{
	for (int k = 0; k < NBUF; k++)
		if (b != NULL && F.buf[k].buf == b && F.buf[k].inv == inv)
			return true;
	return false;
}

/*
 * Destroying an inventory frees its descriptors, and a task only points at
 * its buffers (it holds no reference): a program must not leave a task
 * pointing there.  Tasks held by the program get their buffers unset
 * first; with such a task in flight the program does not destroy at all.
 */
static bool detach_tasks_from_inventory(int inv)
{
	for (int t = 0; t < NTASK; t++) {
		struct doca_task *task = task_at(t);
		if (task == NULL)
			continue;
		bool src = buf_of_inventory(doca_dma_task_memcpy_get_src(F.task[t].task), inv);
		bool dst = buf_of_inventory(doca_dma_task_memcpy_get_dst(F.task[t].task), inv);
		if (!src && !dst)
			continue;
		if (doca_task_get_status(task) == DOCA_ERROR_IN_PROGRESS)
			return false;
		if (src)
			FZ_VOID(doca_dma_task_memcpy_set_src(F.task[t].task, NULL));
		if (dst)
			FZ_VOID(doca_dma_task_memcpy_set_dst(F.task[t].task, NULL));
	}
	return true;
}

static void op_inv_destroy(void)
{
	int i = pick(NINV);
	struct doca_buf_inventory *inv = OBJ(F.inv, i);

	if (inv != NULL && !detach_tasks_from_inventory(i))
		return;
	if (FZ_CALL(doca_buf_inventory_destroy(inv)) != DOCA_SUCCESS || inv == NULL)
		return;
	F.inv[i] = NULL;
	for (int b = 0; b < NBUF; b++) /* its descriptors are freed memory now */
		if (F.buf[b].buf != NULL && F.buf[b].inv == i)
			F.buf[b].buf = NULL;
}

static void op_buf_get(void)
{
	int inv = pick(NINV);
	struct doca_mmap *m = mmap_arg();
	int slot = arg() % NBUF;
	uint8_t *head = arena_arg();
	size_t len = arg16() % (size_t)(fz_arena + ARENA - head + 1);
	size_t data_off = len ? arg16() % (len + 1) : 0;
	size_t data_len = arg16() % (len - data_off + 1);
	struct doca_buf *b = NULL;

	if (F.buf[slot].buf != NULL)
		return; /* the slot's buffer stays the program's until it is released at the end */
	if (FZ_CALL(doca_buf_inventory_buf_get_by_args(OBJ(F.inv, inv), m, head, len, head + data_off, data_len, &b)) ==
	    DOCA_SUCCESS) {
		F.buf[slot].buf = b;
		F.buf[slot].inv = inv;
	}
}

static void op_buf_refcount(bool inc)
{
	struct doca_buf *b = buf_arg();
	uint16_t rc = 0;

	(void)FZ_CALL(inc ? doca_buf_inc_refcount(b, arg() & 1 ? &rc : NULL) : doca_buf_dec_refcount(b, arg() & 1 ? &rc : NULL));
}

static void op_buf_data(void)
{
	struct doca_buf *b = buf_arg();
	uint8_t *data = arena_arg();
	size_t len = arg16() % (size_t)(fz_arena + ARENA - data + 1);

	switch (arg() % 3) {
	case 0:
		(void)FZ_CALL(doca_buf_set_data(b, data, len));
		break;
	case 1:
		(void)FZ_CALL(doca_buf_set_data_len(b, len));
		break;
	default:
		(void)FZ_CALL(doca_buf_reset_data_len(b));
		break;
	}
}

static void op_buf_list(void)
{
	struct doca_buf *a = buf_arg(), *b = buf_arg();

	(void)FZ_CALL(arg() & 1 ? doca_buf_chain_list(a, b) : doca_buf_unchain_list(a, b));
}

static void op_buf_query(void)
{
	struct doca_buf *b = buf_arg();
	uint16_t rc;
	size_t n;
	void *p;
	uint32_t u;

	switch (arg() % 6) {
	case 0:
		(void)FZ_CALL(doca_buf_get_refcount(b, &rc));
		break;
	case 1:
		(void)FZ_CALL(doca_buf_get_data_len(b, &n));
		break;
	case 2:
		(void)FZ_CALL(doca_buf_get_data(b, &p));
		break;
	case 3:
		(void)FZ_CALL(doca_buf_get_list_len(b, &u));
		break;
	case 4:
		(void)FZ_CALL(doca_buf_get_head(b, &p));
		break;
	default:
		(void)FZ_CALL(doca_buf_get_len(b, &n));
		break;
	}
}

static void op_pe_create(void)
{
	int i = arg() % NPE;

	if (F.pe[i] == NULL)
		(void)FZ_CALL(doca_pe_create(&F.pe[i]));
}

static void op_pe_destroy(void)
{
	int i = pick(NPE);
	struct doca_pe *pe = OBJ(F.pe, i);

	if (FZ_CALL(doca_pe_destroy(pe)) == DOCA_SUCCESS && pe != NULL)
		F.pe[i] = NULL;
}

static void op_dma_create(void)
{
	int i = arg() % NDMA;
	struct doca_dev *d = dev_arg();

	if (F.dma[i] == NULL)
		(void)FZ_CALL(doca_dma_create(d, &F.dma[i]));
}

static void op_dma_conf(void)
{
	int i = pick(NDMA);
	uint32_t n = arg() % 9;

	(void)FZ_CALL(doca_dma_task_memcpy_set_conf(OBJ(F.dma, i), fz_task_cb, fz_task_cb, n));
}

static void op_pe_connect(void)
{
	struct doca_pe *pe = pe_arg();
	struct doca_ctx *ctx = ctx_of(pick(NDMA));

	(void)FZ_CALL(doca_pe_connect_ctx(pe, ctx));
}

static void op_ctx_start(void)
{
	(void)FZ_CALL(doca_ctx_start(ctx_of(pick(NDMA))));
}

static void op_ctx_stop(void)
{
	struct doca_ctx *ctx = ctx_of(pick(NDMA));

	fz_errors = 0;
	doca_error_t err = doca_ctx_stop(ctx);
	/* IN_PROGRESS is the answer "stopping, progress to finish", not a refusal. */
	if ((err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS) ? fz_errors != 0 : fz_errors != 1)
		fz_fail("doca_ctx_stop's records", "doca_ctx_stop(ctx)", err);
	forget_tasks_of_idle_contexts();
}

static void op_dma_destroy(void)
{
	int i = pick(NDMA);
	struct doca_dma *dma = OBJ(F.dma, i);

	if (FZ_CALL(doca_dma_destroy(dma)) != DOCA_SUCCESS || dma == NULL)
		return;
	F.dma[i] = NULL;
	for (int t = 0; t < NTASK; t++)
		if (F.task[t].dma == i)
			F.task[t].task = NULL;
}

static void op_progress(void)
{
	struct doca_pe *pe = pe_arg();
	int n = 1 + arg() % 8;

	for (int k = 0; k < n; k++)
		(void)doca_pe_progress(pe);
	forget_tasks_of_idle_contexts();
}

static void op_task_alloc(void)
{
	int d = pick(NDMA);
	struct doca_buf *src = buf_arg(), *dst = buf_arg();
	int slot = arg() % NTASK;
	union doca_data ud = {.u64 = arg()};
	struct doca_dma_task_memcpy *t = NULL;

	if (F.task[slot].task != NULL)
		return; /* the slot's task is still ours to use */
	if (FZ_CALL(doca_dma_task_memcpy_alloc_init(OBJ(F.dma, d), src, dst, ud, &t)) == DOCA_SUCCESS) {
		F.task[slot].task = t;
		F.task[slot].dma = d;
	}
}

static void op_task_set(void)
{
	int i = pick(NTASK);
	struct doca_buf *b = buf_arg();
	struct doca_dma_task_memcpy *t = i < NTASK ? F.task[i].task : NULL;

	if (arg() & 1)
		FZ_VOID(doca_dma_task_memcpy_set_src(t, b));
	else
		FZ_VOID(doca_dma_task_memcpy_set_dst(t, b));
}

static void op_task_submit(int how)
{
	struct doca_task *t = task_at(pick(NTASK));

	if (how == 0)
		(void)FZ_CALL(doca_task_submit(t));
	else if (how == 1)
		(void)FZ_CALL(doca_task_try_submit(t));
	else
		(void)FZ_CALL(doca_task_submit_ex(t, arg() & 3));
}

static void op_task_free(void)
{
	struct doca_task *t = task_at(pick(NTASK));

	FZ_VOID(doca_task_free(t));
}

static void op_task_query(void)
{
	int i = pick(NTASK);
	struct doca_task *t = task_at(i);
	union doca_data ud = {.u64 = arg()};
	size_t n;
	enum doca_ctx_states st;

	switch (arg() % 5) {
	case 0:
		FZ_VOID((void)doca_task_get_status(t));
		break;
	case 1:
		FZ_VOID(doca_task_set_user_data(t, ud));
		break;
	case 2:
		(void)FZ_CALL(doca_ctx_get_num_inflight_tasks(ctx_of(pick(NDMA)), &n));
		break;
	case 3:
		(void)FZ_CALL(doca_ctx_get_state(ctx_of(pick(NDMA)), &st));
		break;
	default:
		(void)FZ_CALL(doca_pe_get_num_inflight_tasks(pe_arg(), &n));
		break;
	}
}

enum fz_op {
	FZ_OP_DEV_OPEN, FZ_OP_DEV_CLOSE, FZ_OP_MMAP_CREATE, FZ_OP_MMAP_ADD_DEV, FZ_OP_MMAP_RM_DEV,
	FZ_OP_MMAP_MEMRANGE, FZ_OP_MMAP_PERMISSIONS, FZ_OP_MMAP_START, FZ_OP_MMAP_STOP, FZ_OP_MMAP_DESTROY,
	FZ_OP_MMAP_EXPORT_IMPORT, FZ_OP_INV_CREATE, FZ_OP_INV_START, FZ_OP_INV_STOP, FZ_OP_INV_DESTROY,
	FZ_OP_BUF_GET, FZ_OP_BUF_INC, FZ_OP_BUF_DEC, FZ_OP_BUF_DATA, FZ_OP_BUF_LIST, FZ_OP_BUF_QUERY,
	FZ_OP_PE_CREATE, FZ_OP_PE_DESTROY, FZ_OP_DMA_CREATE, FZ_OP_DMA_CONF, FZ_OP_PE_CONNECT, FZ_OP_CTX_START,
	FZ_OP_CTX_STOP, FZ_OP_DMA_DESTROY, FZ_OP_PROGRESS, FZ_OP_TASK_ALLOC, FZ_OP_TASK_SET, FZ_OP_TASK_SUBMIT,
	FZ_OP_TASK_TRY_SUBMIT, FZ_OP_TASK_SUBMIT_EX, FZ_OP_TASK_FREE, FZ_OP_TASK_QUERY,
	FZ_NUM_OPS
};

static void run_op(enum fz_op op)
{
	switch (op) {
	case FZ_OP_DEV_OPEN: op_dev_open(); break;
	case FZ_OP_DEV_CLOSE: op_dev_close(); break;
	case FZ_OP_MMAP_CREATE: op_mmap_create(); break;
	case FZ_OP_MMAP_ADD_DEV: op_mmap_dev(true); break;
	case FZ_OP_MMAP_RM_DEV: op_mmap_dev(false); break;
	case FZ_OP_MMAP_MEMRANGE: op_mmap_memrange(); break;
	case FZ_OP_MMAP_PERMISSIONS: op_mmap_permissions(); break;
	case FZ_OP_MMAP_START: op_mmap_start_stop(true); break;
	case FZ_OP_MMAP_STOP: op_mmap_start_stop(false); break;
	case FZ_OP_MMAP_DESTROY: op_mmap_destroy(); break;
	case FZ_OP_MMAP_EXPORT_IMPORT: op_mmap_export_import(); break;
	case FZ_OP_INV_CREATE: op_inv_create(); break;
	case FZ_OP_INV_START: op_inv_start_stop(true); break;
	case FZ_OP_INV_STOP: op_inv_start_stop(false); break;
	case FZ_OP_INV_DESTROY: op_inv_destroy(); break;
	case FZ_OP_BUF_GET: op_buf_get(); break;
	case FZ_OP_BUF_INC: op_buf_refcount(true); break;
	case FZ_OP_BUF_DEC: op_buf_refcount(false); break;
	case FZ_OP_BUF_DATA: op_buf_data(); break;
	case FZ_OP_BUF_LIST: op_buf_list(); break;
	case FZ_OP_BUF_QUERY: op_buf_query(); break;
	case FZ_OP_PE_CREATE: op_pe_create(); break;
	case FZ_OP_PE_DESTROY: op_pe_destroy(); break;
	case FZ_OP_DMA_CREATE: op_dma_create(); break;
	case FZ_OP_DMA_CONF: op_dma_conf(); break;
	case FZ_OP_PE_CONNECT: op_pe_connect(); break;
	case FZ_OP_CTX_START: op_ctx_start(); break;
	case FZ_OP_CTX_STOP: op_ctx_stop(); break;
	case FZ_OP_DMA_DESTROY: op_dma_destroy(); break;
	case FZ_OP_PROGRESS: op_progress(); break;
	case FZ_OP_TASK_ALLOC: op_task_alloc(); break;
	case FZ_OP_TASK_SET: op_task_set(); break;
	case FZ_OP_TASK_SUBMIT: op_task_submit(0); break;
	case FZ_OP_TASK_TRY_SUBMIT: op_task_submit(1); break;
	case FZ_OP_TASK_SUBMIT_EX: op_task_submit(2); break;
	case FZ_OP_TASK_FREE: op_task_free(); break;
	case FZ_OP_TASK_QUERY: op_task_query(); break;
	case FZ_NUM_OPS: break;
	}
}

/* ---- teardown: everything must be releasable ---- */

/* True once context `d` is IDLE (its tasks are forgotten then: their pool is gone). */
static bool context_idle(int d)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	FZ_MUST(doca_ctx_get_state(ctx_of(d), &st));
	if (st != DOCA_CTX_STATE_IDLE)
		return false;
	forget_tasks_of_idle_contexts();
	return true;
}

static void stop_context(int d)
{
	struct doca_ctx *ctx = ctx_of(d);

	for (int round = 0; round < 1000; round++) {
		if (context_idle(d))
			return;
		(void)doca_ctx_stop(ctx);
		if (context_idle(d))
			return;
		/* Kept tasks hold a STOPPING context back: free them (refused for freed or in-flight ones). */
		for (int t = 0; t < NTASK; t++)
			if (F.task[t].task != NULL && F.task[t].dma == d)
				doca_task_free(doca_dma_task_memcpy_as_task(F.task[t].task));
		for (int p = 0; p < NPE; p++)
			if (F.pe[p] != NULL)
				(void)doca_pe_progress(F.pe[p]);
	}
	fz_fail("a context never reached IDLE", "doca_ctx_stop + doca_pe_progress", DOCA_ERROR_IN_PROGRESS);
}

static void release_buffers(void)
{
	bool dropped = true;

	/* List elements refuse dec_refcount; their heads are in other slots: repeat until nothing moves. */
	while (dropped) {
		dropped = false;
		for (int b = 0; b < NBUF; b++)
			while (F.buf[b].buf != NULL && doca_buf_dec_refcount(F.buf[b].buf, NULL) == DOCA_SUCCESS)
				dropped = true;
	}
	memset(F.buf, 0, sizeof(F.buf));
}

static void teardown(void)
{
	for (int d = 0; d < NDMA; d++) {
		if (F.dma[d] == NULL)
			continue;
		stop_context(d);
		FZ_MUST(doca_dma_destroy(F.dma[d]));
		F.dma[d] = NULL;
	}
	for (int p = 0; p < NPE; p++)
		if (F.pe[p] != NULL) {
			FZ_MUST(doca_pe_destroy(F.pe[p]));
			F.pe[p] = NULL;
		}
	release_buffers();
	for (int i = 0; i < NINV; i++)
		if (F.inv[i] != NULL) {
			FZ_MUST(doca_buf_inventory_destroy(F.inv[i]));
			F.inv[i] = NULL;
		}
	/* Imports first: they hold their exporting mmap's device and export. */
	for (int pass = 0; pass < 2; pass++)
		for (int m = 0; m < NMMAP; m++) {
			uint8_t from_export = 0;
			if (F.mmap[m] == NULL)
				continue;
			FZ_MUST(doca_mmap_get_from_export(F.mmap[m], &from_export));
			if ((pass == 0) == (from_export != 0)) {
				FZ_MUST(doca_mmap_destroy(F.mmap[m]));
				F.mmap[m] = NULL;
			}
		}
	for (int i = 0; i < NDEV; i++)
		if (F.dev[i] != NULL)
			FZ_MUST(doca_dev_close(F.dev[i]));
	memset(&F, 0, sizeof(F));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct doca_log_backend *b = NULL;

	(void)argc;
	(void)argv;
	fz_trace = getenv("FUZZ_API_TRACE") != NULL;
	/*
	 * Every refused call must leave its ERROR record, follow-ons of a failed
	 * task included: the library inside runs with SOFTDOCA_FAILURE_DETAIL=full
	 * (by default those records are demoted to INFO behind one summary).
	 */
	if (!sd_cascade_configure("full"))
		abort();
	if (doca_log_backend_create_with_buf_sdk(fz_log_buf, sizeof(fz_log_buf), fz_log_record, &b) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_ERROR) != DOCA_SUCCESS)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	F.in = data;
	F.end = data + size;
	for (int n = 0; n < MAX_OPS && F.in < F.end; n++)
		run_op((enum fz_op)(arg() % FZ_NUM_OPS));
	teardown();
	return 0;
}
