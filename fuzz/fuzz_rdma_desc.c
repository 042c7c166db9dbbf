/*
 * fuzz_rdma_desc - libFuzzer target for the RDMA export descriptor
 * (doca_mmap_export_rdma on one side, doca_mmap_create_from_export and
 * the RDMA tasks on the other).
 *
 * The first input byte picks how the rest is used:
 *   0  the bytes are the descriptor, as they are;
 *   1  the bytes are a descriptor with a correct checksum patched in, so
 *      the fields behind it (kind, rights, range, identity) are reached;
 *   2  the bytes edit a live RDMA descriptor of this process (pairs of
 *      offset and value), checksum patched.
 * Whenever the import stands, a read of 8 bytes and a compare-and-swap on
 * the first word of the imported range run through a connected RDMA
 * context pair of this process: the task rules (rights of the map and of
 * the peer context, range, alignment) and the data path see what the
 * descriptor claims.  Whatever the input: a DOCA error or a usable import,
 * never a crash, hang or leak (ASan/UBSan watch), and memory outside the
 * exported range is never touched (its guard bytes are checked).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "xproc_desc.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_LEN 4096u
#define FZ_GUARD 64u
#define FZ_RIGHTS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
		   DOCA_ACCESS_FLAG_RDMA_ATOMIC)

static struct doca_dev *fz_dev;
static struct doca_pe *fz_pe;
static struct doca_rdma *fz_a, *fz_b;
static struct doca_rdma_connection *fz_conn_a;
static struct doca_buf_inventory *fz_inv;
static struct doca_mmap *fz_local_map;
static uint8_t fz_exported[FZ_GUARD + FZ_LEN + FZ_GUARD] __attribute__((aligned(64)));
static uint8_t fz_local[64] __attribute__((aligned(64)));
static uint8_t fz_live[SD_XP_DESC_MAX_LEN];
static size_t fz_live_len;
static int fz_done;

static void fz_cb(struct doca_task *task)
{
	(void)task;
	fz_done++;
}

static void fz_read_cb(struct doca_rdma_task_read *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	fz_cb(doca_rdma_task_read_as_task(t));
}

static void fz_cas_cb(struct doca_rdma_task_atomic_cmp_swp *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	fz_cb(doca_rdma_task_atomic_cmp_swp_as_task(t));
}

static struct doca_dev *fz_open_first_dev(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	struct doca_dev *dev = NULL;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	if (n > 0 && doca_dev_open(list[0], &dev) != DOCA_SUCCESS)
		dev = NULL;
	doca_devinfo_destroy_list(list);
	return dev;
}

static struct doca_rdma *fz_rdma(struct doca_rdma_connection **conn, const void **blob, size_t *len)
{
	struct doca_rdma *r = NULL;

	if (doca_rdma_create(fz_dev, &r) != DOCA_SUCCESS || doca_rdma_set_permissions(r, FZ_RIGHTS) != DOCA_SUCCESS ||
	    doca_rdma_task_read_set_conf(r, fz_read_cb, fz_read_cb, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_atomic_cmp_swp_set_conf(r, fz_cas_cb, fz_cas_cb, 4) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(fz_pe, doca_rdma_as_ctx(r)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_rdma_as_ctx(r)) != DOCA_SUCCESS || doca_rdma_export(r, blob, len, conn) != DOCA_SUCCESS)
		abort();
	return r;
}

static struct doca_mmap *fz_map(void *mem, size_t len, uint32_t rights)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS || doca_mmap_add_dev(m, fz_dev) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(m, mem, len) != DOCA_SUCCESS || doca_mmap_set_permissions(m, rights) != DOCA_SUCCESS ||
	    doca_mmap_start(m) != DOCA_SUCCESS)
		abort();
	return m;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct doca_rdma_connection *conn_b;
	const void *blob_a, *blob_b, *desc;
	size_t len_a, len_b;

	(void)argc;
	(void)argv;
	fz_dev = fz_open_first_dev();
	if (fz_dev == NULL || doca_pe_create(&fz_pe) != DOCA_SUCCESS)
		abort();
	fz_a = fz_rdma(&fz_conn_a, &blob_a, &len_a);
	fz_b = fz_rdma(&conn_b, &blob_b, &len_b);
	if (doca_rdma_connect(fz_a, blob_b, len_b, fz_conn_a) != DOCA_SUCCESS ||
	    doca_rdma_connect(fz_b, blob_a, len_a, conn_b) != DOCA_SUCCESS)
		abort();
	if (doca_buf_inventory_create(8, &fz_inv) != DOCA_SUCCESS || doca_buf_inventory_start(fz_inv) != DOCA_SUCCESS)
		abort();
	fz_local_map = fz_map(fz_local, sizeof(fz_local), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	/* The peer's memory: the middle of fz_exported, guard bytes either side. */
	struct doca_mmap *exported = fz_map(fz_exported + FZ_GUARD, FZ_LEN, FZ_RIGHTS);
	if (doca_mmap_export_rdma(exported, fz_dev, &desc, &fz_live_len) != DOCA_SUCCESS ||
	    fz_live_len > sizeof(fz_live))
		abort();
	memcpy(fz_live, desc, fz_live_len);
	return 0; /* `exported` lives as long as the fuzzer: its descriptor stays live */
}

static void fz_fix_checksum(uint8_t *buf, size_t len)
{
	size_t off = len == SD_XP_DESC_LEN ? SD_XP_DESC_SUM_OFF : len == SD_XP_DESC_NET_LEN ? SD_XP_DESC_NET_SUM_OFF : 0;

	if (off == 0)
		return;
	uint64_t sum = sd_xp_desc_checksum(buf, off);
	for (int i = 0; i < 8; i++)
		buf[off + i] = (uint8_t)(sum >> (8 * i));
}

/* Run `task` to its completion (the pair executes inline; a few progress calls suffice). */
static void fz_run(struct doca_task *task)
{
	int want = fz_done + 1;

	if (doca_task_submit(task) != DOCA_SUCCESS) {
		doca_task_free(task);
		return;
	}
	for (int i = 0; i < 1000 && fz_done < want; i++)
		(void)doca_pe_progress(fz_pe);
	if (fz_done < want)
		abort(); /* a one-sided task of this process never waits */
	doca_task_free(task);
}

/* A read of 8 bytes and a compare-and-swap at the start of the imported range. */
static void fz_tasks(struct doca_mmap *imp)
{
	union doca_data ud = {.u64 = 0};
	struct doca_buf *remote = NULL, *local = NULL;
	struct doca_rdma_task_read *rd = NULL;
	struct doca_rdma_task_atomic_cmp_swp *cs = NULL;
	void *addr;
	size_t len;

	if (doca_mmap_get_memrange(imp, &addr, &len) != DOCA_SUCCESS || len < 8)
		return;
	if (doca_buf_inventory_buf_get_by_data(fz_inv, imp, addr, 8, &remote) != DOCA_SUCCESS)
		return;
	if (doca_buf_inventory_buf_get_by_addr(fz_inv, fz_local_map, fz_local, sizeof(fz_local), &local) == DOCA_SUCCESS) {
		if (doca_rdma_task_read_allocate_init(fz_a, fz_conn_a, remote, local, ud, &rd) == DOCA_SUCCESS)
			fz_run(doca_rdma_task_read_as_task(rd));
		(void)doca_buf_reset_data_len(local);
		/* A swap value that the zero guard bytes would show, were the word outside the range. */
		if (doca_rdma_task_atomic_cmp_swp_allocate_init(fz_a, fz_conn_a, remote, local, 0, 0xA5A5A5A5A5A5A5A5ull,
								ud, &cs) == DOCA_SUCCESS)
			fz_run(doca_rdma_task_atomic_cmp_swp_as_task(cs));
		doca_buf_dec_refcount(local, NULL);
	}
	doca_buf_dec_refcount(remote, NULL);
}

static void fz_import(const uint8_t *desc, size_t len)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create_from_export(NULL, desc, len, fz_dev, &m) != DOCA_SUCCESS)
		return;
	fz_tasks(m);
	if (doca_mmap_destroy(m) != DOCA_SUCCESS)
		abort(); /* its buffers are all returned: the import must be destroyable */
	for (unsigned i = 0; i < FZ_GUARD; i++)
		if (fz_exported[i] != 0 || fz_exported[FZ_GUARD + FZ_LEN + i] != 0)
			abort(); /* an access outside the exported range */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t buf[SD_XP_DESC_MAX_LEN + 64];

	if (size == 0)
		return 0;
	size_t len = size - 1 < sizeof(buf) ? size - 1 : sizeof(buf);
	switch (data[0] % 3) {
	case 0:
		fz_import(data + 1, size - 1);
		break;
	case 1:
		memcpy(buf, data + 1, len);
		fz_fix_checksum(buf, len);
		fz_import(buf, len);
		break;
	default:
		memcpy(buf, fz_live, fz_live_len);
		for (size_t i = 1; i + 1 < size; i += 2)
			buf[data[i] % fz_live_len] = data[i + 1];
		fz_fix_checksum(buf, fz_live_len);
		fz_import(buf, fz_live_len);
		break;
	}
	return 0;
}
