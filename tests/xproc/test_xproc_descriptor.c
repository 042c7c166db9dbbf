/*
 * Export descriptors inside one process : what export hands out, what an
 * import of it looks like, and how
 * every kind of bad descriptor is refused without a crash.  Forged
 * descriptors are built with the library's own encoder (xproc_desc.c is
 * compiled into this test) so that only the field under test is wrong.
 */
#include <sys/stat.h>

#include "xproc_desc.h"
#include "xproc_test.h"

static struct doca_dev *dpu, *host;
static uint8_t *mem;
#define MEM_LEN 65536u

static struct doca_mmap *exported_mmap(uint32_t perms, const void **desc, size_t *len)
{
	struct doca_mmap *m = xt_local_mmap(host, mem, MEM_LEN, perms);
	if (m == NULL || doca_mmap_export_pci(m, host, desc, len) != DOCA_SUCCESS)
		return NULL;
	return m;
}

static void export_gives_a_small_stable_descriptor(void)
{
	const void *d1, *d2, *d3;
	size_t n1, n2, n3;
	uint8_t exported = 0, from = 1;
	struct doca_mmap *m = xt_local_mmap(host, mem, MEM_LEN, DOCA_ACCESS_FLAG_PCI_READ_ONLY);

	REQUIRE(m != NULL);
	REQUIRE(doca_mmap_add_dev(m, dpu) == DOCA_ERROR_NOT_PERMITTED); /* started: devices frozen */
	XT_QUIET_OK(doca_mmap_export_pci(m, host, &d1, &n1));
	CHECK(n1 > 0 && n1 <= 256); /* at most 256 bytes */
	XT_QUIET_OK(doca_mmap_export_pci(m, host, &d2, &n2));
	CHECK(d1 == d2 && n1 == n2); /* same device: same bytes */
	XT_QUIET_OK(doca_mmap_get_exported(m, &exported));
	XT_QUIET_OK(doca_mmap_get_from_export(m, &from));
	CHECK(exported == 1 && from == 0);
	XT_QUIET_OK(doca_mmap_destroy(m));

	/* Two devices: two descriptors, both importable. */
	m = NULL;
	REQUIRE(doca_mmap_create(&m) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_add_dev(m, host) == DOCA_SUCCESS && doca_mmap_add_dev(m, dpu) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_set_memrange(m, mem, MEM_LEN) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_WRITE) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_start(m) == DOCA_SUCCESS);
	XT_QUIET_OK(doca_mmap_export_pci(m, host, &d1, &n1));
	XT_QUIET_OK(doca_mmap_export_pci(m, dpu, &d3, &n3));
	CHECK(n1 == n3 && memcmp(d1, d3, n1) != 0);
	struct doca_mmap *i1 = NULL, *i3 = NULL;
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, d1, n1, dpu, &i1));
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, d3, n3, host, &i3));
	XT_QUIET_OK(doca_mmap_destroy(i1));
	XT_QUIET_OK(doca_mmap_destroy(i3));
	XT_QUIET_OK(doca_mmap_destroy(m));
}

static void imported_mmap_has_the_exporters_range_and_is_frozen(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_WRITE, &d, &n), *imp = NULL;
	union doca_data ud = {.u64 = 0xfeed};
	void *addr = NULL;
	size_t len = 0;
	uint8_t exported = 1, from = 0;
	uint32_t maxd = 0, nb = 7;

	REQUIRE(m != NULL);
	XT_QUIET_OK(doca_mmap_create_from_export(&ud, d, n, dpu, &imp));
	REQUIRE(imp != NULL);
	XT_QUIET_OK(doca_mmap_get_memrange(imp, &addr, &len));
	CHECK(addr == mem && len == MEM_LEN);
	XT_QUIET_OK(doca_mmap_get_exported(imp, &exported));
	XT_QUIET_OK(doca_mmap_get_from_export(imp, &from));
	CHECK(exported == 0 && from == 1);
	XT_QUIET_OK(doca_mmap_get_user_data(imp, &ud));
	CHECK(ud.u64 == 0xfeed);
	XT_QUIET_OK(doca_mmap_get_max_num_devices(imp, &maxd));
	CHECK(maxd == 1);
	XT_QUIET_OK(doca_mmap_get_num_bufs(imp, &nb));
	CHECK(nb == 0);
	XT_REJECT(doca_mmap_start(imp), DOCA_ERROR_NOT_PERMITTED, "doca_mmap_start");
	XT_REJECT(doca_mmap_export_pci(imp, dpu, &d, &n), DOCA_ERROR_NOT_PERMITTED, "doca_mmap_export_pci");
	XT_REJECT(doca_mmap_add_dev(imp, host), DOCA_ERROR_NOT_PERMITTED, "doca_mmap_add_dev");
	XT_REJECT(doca_mmap_set_permissions(imp, 0), DOCA_ERROR_NOT_PERMITTED, "doca_mmap_set_permissions");
	/* The device cannot be closed under the import. */
	CHECK_ERR(doca_dev_close(dpu), DOCA_ERROR_IN_USE);
	/* An import may be stopped once, as the official RDMA samples do before destroying it. */
	XT_QUIET_OK(doca_mmap_stop(imp));
	XT_REJECT(doca_mmap_stop(imp), DOCA_ERROR_BAD_STATE, "doca_mmap_stop");
	XT_REJECT(doca_mmap_start(imp), DOCA_ERROR_NOT_PERMITTED, "doca_mmap_start");
	XT_QUIET_OK(doca_mmap_destroy(imp));
	XT_QUIET_OK(doca_mmap_destroy(m));
}

/* Copy through an import of our own export: reads, writes, list of both. */
static void own_export_is_reachable_by_dma(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_WRITE, &d, &n), *imp = NULL, *loc;
	uint8_t *local = calloc(1, MEM_LEN);
	struct xt_dma x;

	REQUIRE(m != NULL && local != NULL);
	xt_fill(mem, MEM_LEN, 7, 0);
	REQUIRE(doca_mmap_create_from_export(NULL, d, n, dpu, &imp) == DOCA_SUCCESS);
	loc = xt_local_mmap(dpu, local, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(loc != NULL && xt_dma_start(&x, dpu, 8));
	struct doca_buf *s = xt_src(&x, imp, (uintptr_t)mem + 100, 4000), *t = xt_dst(&x, loc, (uintptr_t)local, 4096);
	CHECK_OK(xt_dma_copy(&x, s, t));
	CHECK(xt_verify(local, 4000, 7, 100) < 0);
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(t, NULL);
	xt_fill(local, MEM_LEN, 9, 0);
	s = xt_src(&x, loc, (uintptr_t)local, 1000);
	t = xt_dst(&x, imp, (uintptr_t)mem + 5000, 2000);
	CHECK_OK(xt_dma_copy(&x, s, t));
	CHECK(xt_verify(mem + 5000, 1000, 9, 0) < 0);
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(t, NULL);
	xt_dma_stop(&x);
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(loc));
	CHECK_OK(doca_mmap_destroy(m));
	free(local);
}

static void descriptor_survives_a_round_trip_through_a_file(void)
{
	const void *d;
	size_t n;
	char path[64];
	uint8_t back[512];
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = NULL;

	REQUIRE(m != NULL);
	snprintf(path, sizeof(path), "/tmp/xproc-desc-%d.bin", (int)getpid());
	FILE *f = fopen(path, "wb");
	REQUIRE(f != NULL);
	CHECK(fwrite(d, 1, n, f) == n);
	fclose(f);
	long got = xt_read_file(path, back, sizeof(back));
	unlink(path);
	CHECK(got == (long)n);
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, back, (size_t)got, dpu, &imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(m));
}

static void truncated_or_padded_descriptors_are_invalid(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = (void *)0x1;
	uint8_t buf[512];

	REQUIRE(m != NULL);
	memcpy(buf, d, n);
	memset(buf + n, 0, sizeof(buf) - n);
	for (size_t len = 1; len < n; len++)
		XT_REJECT(doca_mmap_create_from_export(NULL, buf, len, dpu, &imp), DOCA_ERROR_INVALID_VALUE,
			  "doca_mmap_create_from_export");
	XT_REJECT(doca_mmap_create_from_export(NULL, buf, n + 1, dpu, &imp), DOCA_ERROR_INVALID_VALUE,
		  "doca_mmap_create_from_export");
	XT_REJECT(doca_mmap_create_from_export(NULL, buf, sizeof(buf), dpu, &imp), DOCA_ERROR_INVALID_VALUE,
		  "doca_mmap_create_from_export");
	CHECK(imp == (void *)0x1);
	CHECK_OK(doca_mmap_destroy(m));
}

static void every_flipped_bit_is_refused(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = NULL;
	uint8_t buf[256];
	int refused = 0;

	REQUIRE(m != NULL && n <= sizeof(buf));
	for (size_t bit = 0; bit < n * 8; bit++) {
		memcpy(buf, d, n);
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		if (doca_mmap_create_from_export(NULL, buf, n, dpu, &imp) == DOCA_ERROR_INVALID_VALUE)
			refused++;
		else
			doca_mmap_destroy(imp);
	}
	CHECK(refused == (int)(n * 8));
	CHECK_OK(doca_mmap_destroy(m));
}

/* Decode our export, let `edit` change it, re-encode with a valid checksum. */
static bool forge(const void *d, size_t n, void (*edit)(struct sd_xp_desc *), uint8_t out[SD_XP_DESC_LEN])
{
	struct sd_xp_desc x;
	if (sd_xp_desc_decode(d, n, &x) != NULL)
		return false;
	edit(&x);
	sd_xp_desc_encode(&x, out);
	return true;
}

static void e_kind(struct sd_xp_desc *x) { x->kind = 2; }
static void e_flags(struct sd_xp_desc *x) { x->flags |= 0x80; }
static void e_no_pci(struct sd_xp_desc *x) { x->access_mask = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE; }
static void e_both_pci(struct sd_xp_desc *x) { x->access_mask |= DOCA_ACCESS_FLAG_PCI_READ_WRITE; }
static void e_mask_bits(struct sd_xp_desc *x) { x->access_mask |= 0x100; }
static void e_zero_len(struct sd_xp_desc *x) { x->len = 0; }
static void e_wrap(struct sd_xp_desc *x) { x->len = UINT64_MAX - x->addr + 2; }
static void e_pid0(struct sd_xp_desc *x) { x->who.pid = 0; }
static void e_pci(struct sd_xp_desc *x) { memset(x->dev_pci, 'z', sizeof(x->dev_pci) - 1); }
static void e_boot(struct sd_xp_desc *x) { x->who.boot_id[3] ^= 0x40; }
static void e_pidns(struct sd_xp_desc *x) { x->who.pidns_ino += 1; }
static void e_start(struct sd_xp_desc *x) { x->who.start_time += 1; }
static void e_token(struct sd_xp_desc *x) { x->token[0] ^= 1; }
static void e_export_id(struct sd_xp_desc *x) { x->export_id += 1000; }
static void e_range(struct sd_xp_desc *x) { x->len += 4096; }
static void e_rw(struct sd_xp_desc *x) { x->access_mask = DOCA_ACCESS_FLAG_PCI_READ_WRITE; }
static void e_relay(struct sd_xp_desc *x)
{
	x->flags |= SD_XP_FLAG_RELAY; /* a relaying process no pid can name */
	x->relay.pid = 0x80000000u;
}

static void malformed_fields_are_invalid_value(void)
{
	void (*edits[])(struct sd_xp_desc *) = {e_kind, e_flags, e_no_pci, e_both_pci, e_mask_bits, e_zero_len, e_wrap,
						 e_pid0, e_pci, e_relay};
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = (void *)0x1;
	uint8_t buf[SD_XP_DESC_LEN];

	REQUIRE(m != NULL);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		REQUIRE(forge(d, n, edits[i], buf));
		XT_REJECT(doca_mmap_create_from_export(NULL, buf, sizeof(buf), dpu, &imp), DOCA_ERROR_INVALID_VALUE,
			  "doca_mmap_create_from_export");
	}
	/* Magic and version are outside the decoded fields: patch bytes, fix the checksum. */
	for (int which = 0; which < 2; which++) {
		memcpy(buf, d, n);
		buf[which == 0 ? 0 : 4] ^= 0x55;
		uint64_t sum = sd_xp_desc_checksum(buf, SD_XP_DESC_SUM_OFF);
		for (int b = 0; b < 8; b++)
			buf[SD_XP_DESC_SUM_OFF + b] = (uint8_t)(sum >> (8 * b));
		XT_REJECT(doca_mmap_create_from_export(NULL, buf, n, dpu, &imp), DOCA_ERROR_INVALID_VALUE,
			  "doca_mmap_create_from_export");
	}
	CHECK(imp == (void *)0x1);
	CHECK_OK(doca_mmap_destroy(m));
}

static void foreign_machine_or_namespace_is_not_supported(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = NULL;
	uint8_t buf[SD_XP_DESC_LEN];

	REQUIRE(m != NULL);
	REQUIRE(forge(d, n, e_boot, buf));
	XT_REJECT(doca_mmap_create_from_export(NULL, buf, sizeof(buf), dpu, &imp), DOCA_ERROR_NOT_SUPPORTED,
		  "doca_mmap_create_from_export");
	REQUIRE(forge(d, n, e_pidns, buf));
	XT_REJECT(doca_mmap_create_from_export(NULL, buf, sizeof(buf), dpu, &imp), DOCA_ERROR_NOT_SUPPORTED,
		  "doca_mmap_create_from_export");
	CHECK_OK(doca_mmap_destroy(m));
}

/* A pid that names another process (start time differs) or none at all. */
static void stale_exporter_identity_is_invalid_value(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = NULL;
	uint8_t buf[SD_XP_DESC_LEN];
	struct sd_xp_desc x;

	REQUIRE(m != NULL);
	REQUIRE(forge(d, n, e_start, buf)); /* our pid, another start: a recycled pid */
	XT_REJECT(doca_mmap_create_from_export(NULL, buf, sizeof(buf), dpu, &imp), DOCA_ERROR_INVALID_VALUE,
		  "doca_mmap_create_from_export");

	/* The pid of a child that has exited and been reaped. */
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	REQUIRE(child > 0 && waitpid(child, NULL, 0) == child);
	REQUIRE(sd_xp_desc_decode(d, n, &x) == NULL);
	x.who.pid = (uint32_t)child;
	sd_xp_desc_encode(&x, buf);
	XT_REJECT(doca_mmap_create_from_export(NULL, buf, sizeof(buf), dpu, &imp), DOCA_ERROR_INVALID_VALUE,
		  "doca_mmap_create_from_export");
	CHECK(strstr(xt_last_err, "gone") != NULL);
	CHECK_OK(doca_mmap_destroy(m));
}

/* Import succeeds; the first access fails with IO_FAILED. */
static void check_import_is_cut_off(const uint8_t *desc, size_t n, uint32_t mask)
{
	struct doca_mmap *imp = NULL, *loc;
	uint8_t local[512];
	struct xt_dma x;

	XT_QUIET_OK(doca_mmap_create_from_export(NULL, desc, n, dpu, &imp));
	REQUIRE(imp != NULL);
	loc = xt_local_mmap(dpu, local, sizeof(local), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(loc != NULL && xt_dma_start(&x, dpu, 4));
	struct doca_buf *s = xt_src(&x, imp, (uintptr_t)mem, 256), *t = xt_dst(&x, loc, (uintptr_t)local, 512);
	REQUIRE(s != NULL && t != NULL); /* allocation on a dead import still works */
	xt_log_reset();
	CHECK_ERR(xt_dma_copy(&x, s, t), DOCA_ERROR_IO_FAILED);
	/* The failed task's one ERROR record says its memory could not be reached. */
	CHECK(xt_errors == 1 && xt_warnings == 0);
	CHECK(strstr(xt_last_err, "failed with DOCA_ERROR_IO_FAILED: its memory could not be reached") != NULL);
	doca_buf_dec_refcount(t, NULL);
	if (mask & DOCA_ACCESS_FLAG_PCI_READ_WRITE) {
		t = xt_dst(&x, imp, (uintptr_t)mem, 256);
		struct doca_buf *s2 = xt_src(&x, loc, (uintptr_t)local, 100);
		CHECK_ERR(xt_dma_copy(&x, s2, t), DOCA_ERROR_IO_FAILED);
		doca_buf_dec_refcount(s2, NULL);
		doca_buf_dec_refcount(t, NULL);
	}
	doca_buf_dec_refcount(s, NULL);
	xt_dma_stop(&x);
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(loc));
}

static void forged_token_or_export_fails_at_access(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_WRITE, &d, &n);
	uint8_t buf[SD_XP_DESC_LEN];
	void (*edits[])(struct sd_xp_desc *) = {e_token, e_export_id, e_range};

	REQUIRE(m != NULL);
	xt_fill(mem, MEM_LEN, 3, 0);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		REQUIRE(forge(d, n, edits[i], buf));
		check_import_is_cut_off(buf, sizeof(buf), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	}
	/* A read-only export cannot be turned into a writable one by editing the mask. */
	CHECK_OK(doca_mmap_destroy(m));
	m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n);
	REQUIRE(m != NULL && forge(d, n, e_rw, buf));
	check_import_is_cut_off(buf, sizeof(buf), DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	CHECK(xt_verify(mem, MEM_LEN, 3, 0) < 0); /* nothing written */
	CHECK_OK(doca_mmap_destroy(m));
}

static void stopped_or_restarted_export_fails_at_access(void)
{
	const void *d;
	size_t n;
	uint8_t old[SD_XP_DESC_LEN];
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n);

	REQUIRE(m != NULL && n == sizeof(old));
	memcpy(old, d, n);
	CHECK_OK(doca_mmap_stop(m));
	check_import_is_cut_off(old, n, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	/* Exported maps can only be destroyed after stop: re-export a new one. */
	CHECK_OK(doca_mmap_destroy(m));
	m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n);
	REQUIRE(m != NULL);
	CHECK(memcmp(old, d, n) != 0);
	check_import_is_cut_off(old, n, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	CHECK_OK(doca_mmap_destroy(m));
}

/* An import made while live is cut off by a later stop, at the next task. */
static void stop_after_import_cuts_off_the_next_task(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = NULL, *loc;
	uint8_t local[512];
	struct xt_dma x;

	REQUIRE(m != NULL);
	REQUIRE(doca_mmap_create_from_export(NULL, d, n, dpu, &imp) == DOCA_SUCCESS);
	loc = xt_local_mmap(dpu, local, sizeof(local), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(loc != NULL && xt_dma_start(&x, dpu, 4));
	struct doca_buf *s = xt_src(&x, imp, (uintptr_t)mem, 256), *t = xt_dst(&x, loc, (uintptr_t)local, 256);
	CHECK_OK(xt_dma_copy(&x, s, t));
	CHECK_OK(doca_buf_reset_data_len(t));
	/* The importer's buffers do not pin the exporter. */
	CHECK_OK(doca_mmap_stop(m));
	CHECK_ERR(xt_dma_copy(&x, s, t), DOCA_ERROR_IO_FAILED);
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(t, NULL);
	xt_dma_stop(&x);
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(loc));
	CHECK_OK(doca_mmap_destroy(m));
}

static void imports_respect_the_exported_range_and_rights(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n), *imp = NULL, *loc;
	uint8_t local[512];
	struct doca_buf *b = NULL;
	struct xt_dma x;

	REQUIRE(m != NULL && doca_mmap_create_from_export(NULL, d, n, dpu, &imp) == DOCA_SUCCESS);
	loc = xt_local_mmap(dpu, local, sizeof(local), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(loc != NULL && xt_dma_start(&x, dpu, 4));
	/* Outside the exporter's range: refused when the buffer is made. */
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(x.inv, imp, mem + MEM_LEN - 10, 11, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(x.inv, imp, mem - 1, 2, &b), DOCA_ERROR_INVALID_VALUE);
	/* Read-only export as destination: V9. */
	struct doca_buf *s = xt_src(&x, loc, (uintptr_t)local, 64), *t = xt_dst(&x, imp, (uintptr_t)mem, 64);
	REQUIRE(s != NULL && t != NULL);
	CHECK_ERR(xt_dma_try(&x, s, t), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(xt_dma_copy(&x, s, t), DOCA_ERROR_NOT_PERMITTED);
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(t, NULL);
	xt_dma_stop(&x);
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(loc));
	CHECK_OK(doca_mmap_destroy(m));
}

/* An RDMA descriptor is its own kind: other bytes than the PCI one of the same map, and it imports. */
static void export_rdma_gives_an_rdma_only_descriptor(void)
{
	const void *dr, *dp;
	size_t nr, np;
	struct doca_mmap *m = xt_local_mmap(host, mem, MEM_LEN, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	struct doca_mmap *imp = NULL;

	REQUIRE(m != NULL);
	XT_QUIET_OK(doca_mmap_export_rdma(m, host, &dr, &nr));
	XT_QUIET_OK(doca_mmap_export_pci(m, host, &dp, &np));
	CHECK(dr != dp && (nr != np || memcmp(dr, dp, nr) != 0));
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, dr, nr, dpu, &imp));
	REQUIRE(imp != NULL);
	uint8_t from = 0;
	XT_QUIET_OK(doca_mmap_get_from_export(imp, &from));
	CHECK(from == 1);
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(m));
}

/* Records of an exporter that died without cleaning up are removed by the next export. */
static void records_of_dead_exporters_are_swept(void)
{
	int fds[2];
	char path[128] = "";

	REQUIRE(pipe(fds) == 0);
	pid_t child = fork();
	if (child == 0) {
		const void *d;
		size_t n;
		struct sd_xp_desc x;
		struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n);
		char p[128];
		if (m == NULL || sd_xp_desc_decode(d, n, &x) != NULL)
			_exit(1);
		snprintf(p, sizeof(p), "%s/softdoca-xp-%u-%llu-%llu", (x.flags & SD_XP_FLAG_RECORD_TMP) ? "/tmp" : "/dev/shm",
			 x.who.pid, (unsigned long long)x.who.start_time, (unsigned long long)x.export_id);
		if (write(fds[1], p, strlen(p) + 1) < 0)
			_exit(1);
		_exit(0); /* skips destructors: the record stays behind */
	}
	close(fds[1]);
	REQUIRE(read(fds[0], path, sizeof(path)) > 0);
	close(fds[0]);
	waitpid(child, NULL, 0);
	struct stat st;
	/*
	 * Left behind by _exit.  A test process running beside this one may
	 * sweep it first (its own first export), which is the behaviour under
	 * test too: then there is nothing left for the fresh child to remove.
	 */
	if (stat(path, &st) != 0) {
		CHECK(errno == ENOENT);
		return;
	}
	/* The sweep runs once per process, at its first export: do it in a fresh child. */
	child = fork();
	if (child == 0) {
		const void *d;
		size_t n;
		struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n);
		_exit(m != NULL && stat(path, &st) != 0 ? 0 : 1);
	}
	int status = 0;
	REQUIRE(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * A record whose pid means nothing here but whose liveness lock is held
 * (an exporter in another PID namespace sharing /dev/shm) survives the
 * sweep: removing it made the official rdma_write sample fail now and then
 * while a namespace test ran beside it.
 */
static void a_live_exporter_in_another_pid_namespace_keeps_its_record(void)
{
	char path[128];
	int ready[2], release[2];
	char c = 0;

	if (access("/dev/shm", W_OK | X_OK) != 0) {
		sd_test_case_skip("no writable /dev/shm on this machine");
		return;
	}
	/* A pid above the kernel's maximum: no process has it in this namespace. */
	snprintf(path, sizeof(path), "/dev/shm/softdoca-xp-%u-%u-%u", 4194305u, 77u, (unsigned)getpid());
	REQUIRE(pipe(ready) == 0 && pipe(release) == 0);
	pid_t holder = fork();
	if (holder == 0) {
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		uint32_t live = 1;
		struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
		if (fd < 0 || ftruncate(fd, 4096) != 0 || pwrite(fd, &live, 4, 4) != 4 || fcntl(fd, F_SETLK, &fl) != 0 ||
		    write(ready[1], "r", 1) != 1)
			_exit(1);
		_exit(read(release[0], &c, 1) == 1 ? 0 : 2); /* holds the lock until told */
	}
	REQUIRE(holder > 0 && read(ready[0], &c, 1) == 1);
	pid_t sweeper = fork();
	if (sweeper == 0) {
		const void *d;
		size_t n;
		struct stat st;
		struct doca_mmap *m = exported_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, &d, &n); /* sweeps */
		_exit(m != NULL && stat(path, &st) == 0 ? 0 : 1);
	}
	int status = 0;
	REQUIRE(waitpid(sweeper, &status, 0) == sweeper);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(write(release[1], "x", 1) == 1);
	REQUIRE(waitpid(holder, &status, 0) == holder);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	unlink(path);
	close(ready[0]);
	close(ready[1]);
	close(release[0]);
	close(release[1]);
}

int main(void)
{
	xt_capture_log();
	mem = aligned_alloc(4096, MEM_LEN);
	dpu = sd_test_open_dev_at(XT_DPU_PCI);
	host = sd_test_open_dev_at(XT_HOST_PCI);
	if (mem == NULL || dpu == NULL || host == NULL) {
		fprintf(stderr, "setup failed\n");
		return 1;
	}
	SD_RUN(export_gives_a_small_stable_descriptor);
	SD_RUN(imported_mmap_has_the_exporters_range_and_is_frozen);
	SD_RUN(own_export_is_reachable_by_dma);
	SD_RUN(descriptor_survives_a_round_trip_through_a_file);
	SD_RUN(truncated_or_padded_descriptors_are_invalid);
	SD_RUN(every_flipped_bit_is_refused);
	SD_RUN(malformed_fields_are_invalid_value);
	SD_RUN(foreign_machine_or_namespace_is_not_supported);
	SD_RUN(stale_exporter_identity_is_invalid_value);
	SD_RUN(forged_token_or_export_fails_at_access);
	SD_RUN(stopped_or_restarted_export_fails_at_access);
	SD_RUN(stop_after_import_cuts_off_the_next_task);
	SD_RUN(imports_respect_the_exported_range_and_rights);
	SD_RUN(export_rdma_gives_an_rdma_only_descriptor);
	SD_RUN(records_of_dead_exporters_are_swept);
	SD_RUN(a_live_exporter_in_another_pid_namespace_keeps_its_record);
	CHECK_OK(doca_dev_close(dpu));
	CHECK_OK(doca_dev_close(host));
	free(mem);
	return sd_test_done();
}
