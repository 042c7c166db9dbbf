/*
 * rdma_test.h - two RDMA contexts of one process joined by out-of-band
 * blobs, each with its own progress engine, and helpers that run one
 * task to its completion.
 */
#ifndef RDMA_TEST_H
#define RDMA_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "sd_devices.h"
#include "sd_fixture.h"
#include "sd_test.h"

#define RT_DPU_PCI "0000:03:00.0"
#define RT_HOST_PCI "0000:b1:00.0"
#define RT_TASKS 64

/* One side: device, PE, RDMA context, a connection, an inventory. */
struct rt_side {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_ctx *ctx;
	struct doca_rdma_connection *conn;
	struct doca_buf_inventory *inv;
	const void *blob;
	size_t blob_len;
	int done;
	doca_error_t status;
	bool pe_borrowed; /* the PE is another side's (rt_configure_on): that side destroys it */
};

static void rt_cb(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct rt_side *s = ctx_ud.ptr;
	(void)task_ud;
	s->status = doca_task_get_status(task);
	s->done++;
}

/* One typed callback per task type, each handing its generic task to rt_cb. */
#define RT_DEFINE_CB(type)                                                                                  \
	static void rt_cb_##type(struct doca_rdma_task_##type *t, union doca_data a, union doca_data b)     \
	{                                                                                                   \
		rt_cb(doca_rdma_task_##type##_as_task(t), a, b);                                            \
	}
RT_DEFINE_CB(receive)
RT_DEFINE_CB(send)
RT_DEFINE_CB(send_imm)
RT_DEFINE_CB(read)
RT_DEFINE_CB(write)
RT_DEFINE_CB(write_imm)
RT_DEFINE_CB(atomic_cmp_swp)
RT_DEFINE_CB(atomic_fetch_add)
#define RT_CB(type) rt_cb_##type

/* A configured side on `pe` (another side's, which outlives it), or on a PE of its own when `pe` is NULL. */
static inline bool rt_configure_on(struct rt_side *s, const char *pci, uint32_t perms, struct doca_pe *pe)
{
	union doca_data ud = {.ptr = s};

	memset(s, 0, sizeof(*s));
	s->dev = sd_test_open_dev_at(pci);
	s->pe = pe;
	s->pe_borrowed = pe != NULL;
	if (s->dev == NULL || (pe == NULL && doca_pe_create(&s->pe) != DOCA_SUCCESS) ||
	    doca_rdma_create(s->dev, &s->rdma) != DOCA_SUCCESS)
		return false;
	s->ctx = doca_rdma_as_ctx(s->rdma);
	return doca_rdma_set_permissions(s->rdma, perms) == DOCA_SUCCESS &&
	       doca_rdma_task_receive_set_conf(s->rdma, RT_CB(receive), RT_CB(receive), RT_TASKS) == DOCA_SUCCESS &&
	       doca_rdma_task_send_set_conf(s->rdma, RT_CB(send), RT_CB(send), RT_TASKS) == DOCA_SUCCESS &&
	       doca_rdma_task_send_imm_set_conf(s->rdma, RT_CB(send_imm), RT_CB(send_imm), RT_TASKS) == DOCA_SUCCESS &&
	       doca_rdma_task_read_set_conf(s->rdma, RT_CB(read), RT_CB(read), RT_TASKS) == DOCA_SUCCESS &&
	       doca_rdma_task_write_set_conf(s->rdma, RT_CB(write), RT_CB(write), RT_TASKS) == DOCA_SUCCESS &&
	       doca_rdma_task_write_imm_set_conf(s->rdma, RT_CB(write_imm), RT_CB(write_imm), RT_TASKS) ==
		       DOCA_SUCCESS &&
	       doca_rdma_task_atomic_cmp_swp_set_conf(s->rdma, RT_CB(atomic_cmp_swp), RT_CB(atomic_cmp_swp),
						      RT_TASKS) == DOCA_SUCCESS &&
	       doca_rdma_task_atomic_fetch_add_set_conf(s->rdma, RT_CB(atomic_fetch_add), RT_CB(atomic_fetch_add),
							RT_TASKS) == DOCA_SUCCESS &&
	       doca_ctx_set_user_data(s->ctx, ud) == DOCA_SUCCESS && doca_pe_connect_ctx(s->pe, s->ctx) == DOCA_SUCCESS &&
	       doca_buf_inventory_create(64, &s->inv) == DOCA_SUCCESS && doca_buf_inventory_start(s->inv) == DOCA_SUCCESS;
}

static inline bool rt_configure(struct rt_side *s, const char *pci, uint32_t perms)
{
	return rt_configure_on(s, pci, perms, NULL);
}

static inline bool rt_start_and_export(struct rt_side *s)
{
	return doca_ctx_start(s->ctx) == DOCA_SUCCESS &&
	       doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn) == DOCA_SUCCESS;
}

/* Two started contexts, connected to each other. */
static inline bool rt_connect_pair(struct rt_side *a, struct rt_side *b)
{
	return rt_start_and_export(a) && rt_start_and_export(b) &&
	       doca_rdma_connect(a->rdma, b->blob, b->blob_len, a->conn) == DOCA_SUCCESS &&
	       doca_rdma_connect(b->rdma, a->blob, a->blob_len, b->conn) == DOCA_SUCCESS;
}

static inline bool rt_pair(struct rt_side *a, struct rt_side *b, uint32_t perms_a, uint32_t perms_b)
{
	return rt_configure(a, RT_HOST_PCI, perms_a) && rt_configure(b, RT_DPU_PCI, perms_b) && rt_connect_pair(a, b);
}

/* Progress both sides until `s` saw `want` completions (bounded). */
static inline bool rt_wait(struct rt_side *s, struct rt_side *other, int want)
{
	for (long i = 0; i < 50000000 && s->done < want; i++) {
		doca_pe_progress(s->pe);
		if (other != NULL)
			doca_pe_progress(other->pe);
	}
	return s->done >= want;
}

static inline void rt_stop(struct rt_side *s)
{
	if (s->ctx != NULL && doca_ctx_stop(s->ctx) == DOCA_ERROR_IN_PROGRESS) {
		enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;
		for (int i = 0; i < 1000000 && st != DOCA_CTX_STATE_IDLE; i++) {
			doca_pe_progress(s->pe);
			doca_ctx_get_state(s->ctx, &st);
		}
	}
}

static inline void rt_destroy(struct rt_side *s)
{
	if (s->inv != NULL)
		doca_buf_inventory_destroy(s->inv);
	if (s->rdma != NULL)
		doca_rdma_destroy(s->rdma);
	if (s->pe != NULL && !s->pe_borrowed)
		doca_pe_destroy(s->pe);
	if (s->dev != NULL)
		doca_dev_close(s->dev);
}

/* A started local mmap over [mem, mem + len) on `dev` (the harness's recipe), or NULL. */
static inline struct doca_mmap *rt_mmap(struct doca_dev *dev, void *mem, size_t len, uint32_t perms)
{
	struct doca_mmap *m = NULL;

	if (sd_fx_mmap(dev, mem, len, perms, &m) == DOCA_SUCCESS)
		return m;
	if (m != NULL)
		doca_mmap_destroy(m);
	return NULL;
}

/* The importer's view of `exported` through an RDMA descriptor, on `dev`. */
static inline struct doca_mmap *rt_import(struct doca_mmap *exported, struct doca_dev *exp_dev, struct doca_dev *dev)
{
	const void *d;
	size_t n;
	struct doca_mmap *imp = NULL;

	if (doca_mmap_export_rdma(exported, exp_dev, &d, &n) != DOCA_SUCCESS ||
	    doca_mmap_create_from_export(NULL, d, n, dev, &imp) != DOCA_SUCCESS)
		return NULL;
	return imp;
}

#endif /* RDMA_TEST_H */
