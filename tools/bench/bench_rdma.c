/*
 * bench_rdma.c - DOCA RDMA as a data path: a requester context writes jobs
 * into (rdma_write), or reads them from (rdma_read), a buffer a responder
 * context exported for RDMA, or sends them into receives the responder
 * posted (rdma_send).  Both contexts sit in this process on one PE, joined
 * by their out-of-band blobs, as a host program and a DPU program on one
 * machine would be; for reads and writes the responder takes no part in
 * the copies, as on a card.  Up to RDMA_WINDOW tasks are in flight, each
 * one resubmitted from its completion, over a working set of window x job
 * size on each side, as the DMA measurement does.  For sends the responder
 * keeps as many receives posted, each posted again from its completion,
 * so that no send waits for a receive.
 *
 * The device is the first one whose RDMA context can write, read, send
 * and receive; both contexts open it.  Without one the method is n/a.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "bench.h"

#define RDMA_WINDOW 32
#define RDMA_WINDOW_BYTES (64 * MIB) /* fewer tasks in flight for large jobs */
#define RDMA_TIMEOUT_S 5.0
#define RDMA_REMOTE_PERMS (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define RDMA_ORDER_RING 1024 /* sends whose receive is not seen yet */

/* One side: memory, its mmap, an RDMA context and its connection. */
struct rdma_side {
	uint8_t *mem;
	struct doca_mmap *mmap;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;
};

struct rdma_run {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_buf_inventory *inv;
	struct rdma_side req, resp;
	struct doca_mmap *remote; /* the requester's view of the responder's memory */
	struct doca_task *task[RDMA_WINDOW];
	struct doca_buf *local[RDMA_WINDOW], *rbuf[RDMA_WINDOW];
	uint32_t ready[RDMA_WINDOW]; /* slots whose task is done and may go again, a ring */
	uint32_t ready_head, ready_n;
	/* rdma_send: the responder's posted receives, and the order the sends went in */
	struct doca_rdma_task_receive *recv[RDMA_WINDOW];
	struct doca_buf *rdst[RDMA_WINDOW];
	uint32_t order[RDMA_ORDER_RING]; /* the slot of each send, by submission: receive k gets send k */
	uint64_t sent_seq, recv_seq;
	bool stopping; /* flushed receives are expected, not failures */
	enum bench_method method;
	bool put, verify;
	size_t size;
	uint32_t window;
	uint64_t done, errors, bad, done_ticks;
};

/* ---- callbacks: count, check, resubmit ---- */

static void rdma_completed(struct doca_task *task, union doca_data tud, union doca_data cud)
{
	struct rdma_run *f = cud.ptr;
	size_t slot = (size_t)tud.u64 * f->size;

	(void)task;
	f->done_ticks = bench_ticks_fenced();
	f->done++;
	f->ready[(f->ready_head + f->ready_n++) % RDMA_WINDOW] = (uint32_t)tud.u64;
	if (f->verify && f->method != METHOD_RDMA_SEND && memcmp(f->put ? f->resp.mem + slot : f->req.mem + slot,
				f->put ? f->req.mem + slot : f->resp.mem + slot, f->size) != 0)
		f->bad++;
}

static void rdma_write_done(struct doca_rdma_task_write *t, union doca_data tud, union doca_data cud)
{
	rdma_completed(doca_rdma_task_write_as_task(t), tud, cud);
}

static void rdma_read_done(struct doca_rdma_task_read *t, union doca_data tud, union doca_data cud)
{
	rdma_completed(doca_rdma_task_read_as_task(t), tud, cud);
}

/* A failed task is counted and not sent again: the measurement stops at the first failure. */
static void rdma_write_failed(struct doca_rdma_task_write *t, union doca_data tud, union doca_data cud)
{
	(void)t;
	(void)tud;
	((struct rdma_run *)cud.ptr)->errors++;
}

static void rdma_read_failed(struct doca_rdma_task_read *t, union doca_data tud, union doca_data cud)
{
	(void)t;
	(void)tud;
	((struct rdma_run *)cud.ptr)->errors++;
}

static void rdma_send_done(struct doca_rdma_task_send *t, union doca_data tud, union doca_data cud)
{
	rdma_completed(doca_rdma_task_send_as_task(t), tud, cud);
}

static void rdma_send_failed(struct doca_rdma_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)t;
	(void)tud;
	((struct rdma_run *)cud.ptr)->errors++;
}

/* A receive holds the next send in submission order: check it against that send's slot, post it again. */
static void rdma_recv_done(struct doca_rdma_task_receive *t, union doca_data tud, union doca_data cud)
{
	struct rdma_run *f = cud.ptr;
	uint32_t i = (uint32_t)tud.u64;

	if (f->recv_seq == f->sent_seq) {
		f->bad++; /* a message no send of ours accounts for */
	} else {
		uint32_t from = f->order[f->recv_seq++ % RDMA_ORDER_RING];
		size_t got = 0;

		if (f->verify && (doca_buf_get_data_len(f->rdst[i], &got) != DOCA_SUCCESS || got != f->size ||
				  memcmp(f->resp.mem + (size_t)i * f->size, f->req.mem + (size_t)from * f->size,
					 f->size) != 0))
			f->bad++;
	}
	(void)doca_buf_reset_data_len(f->rdst[i]);
	if (doca_task_submit(doca_rdma_task_receive_as_task(t)) == DOCA_SUCCESS)
		return;
	f->errors++;
	doca_task_free(doca_rdma_task_receive_as_task(t)); /* not in flight: the stop would wait for it */
	f->recv[i] = NULL;
}

/* While the responder stops, its posted receives come back flushed: free them; any other failure counts. */
static void rdma_recv_failed(struct doca_rdma_task_receive *t, union doca_data tud, union doca_data cud)
{
	struct rdma_run *f = cud.ptr;

	if (!f->stopping) {
		f->errors++;
		return;
	}
	doca_task_free(doca_rdma_task_receive_as_task(t));
	f->recv[tud.u64] = NULL;
}

/* ---- setup and teardown ---- */

static bool rdma_dev_fits(struct doca_devinfo *info)
{
	return doca_rdma_cap_task_write_is_supported(info) == DOCA_SUCCESS &&
	       doca_rdma_cap_task_read_is_supported(info) == DOCA_SUCCESS &&
	       doca_rdma_cap_task_send_is_supported(info) == DOCA_SUCCESS &&
	       doca_rdma_cap_task_receive_is_supported(info) == DOCA_SUCCESS;
}

/* The device named with --pci-addr (doca_bench --device), or else the first that fits. */
static bool rdma_dev_named(const struct bench_options *o, struct doca_devinfo *info)
{
	uint8_t eq = 0;

	return o->pci_addr == NULL ||
	       (doca_devinfo_is_equal_pci_addr(info, o->pci_addr, &eq) == DOCA_SUCCESS && eq != 0);
}

static struct doca_dev *rdma_open_dev(const struct bench_options *o)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (rdma_dev_named(o, list[i]) && rdma_dev_fits(list[i]) && doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	doca_devinfo_destroy_list(list);
	return dev;
}

static bool rdma_side_init(struct rdma_run *f, struct rdma_side *s, uint32_t perms)
{
	union doca_data ud = {.ptr = f};
	struct doca_ctx *ctx;
	size_t len = (size_t)f->window * f->size;

	s->mem = aligned_alloc(64, (len + 63) / 64 * 64);
	if (s->mem == NULL || doca_mmap_create(&s->mmap) != DOCA_SUCCESS ||
	    doca_mmap_add_dev(s->mmap, f->dev) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(s->mmap, perms) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(s->mmap, s->mem, len) != DOCA_SUCCESS || doca_mmap_start(s->mmap) != DOCA_SUCCESS ||
	    doca_rdma_create(f->dev, &s->rdma) != DOCA_SUCCESS)
		return false;
	ctx = doca_rdma_as_ctx(s->rdma);
	return doca_rdma_set_permissions(s->rdma, RDMA_REMOTE_PERMS | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) ==
		       DOCA_SUCCESS &&
	       doca_rdma_task_write_set_conf(s->rdma, rdma_write_done, rdma_write_failed, f->window) == DOCA_SUCCESS &&
	       doca_rdma_task_read_set_conf(s->rdma, rdma_read_done, rdma_read_failed, f->window) == DOCA_SUCCESS &&
	       doca_rdma_task_send_set_conf(s->rdma, rdma_send_done, rdma_send_failed, f->window) == DOCA_SUCCESS &&
	       doca_rdma_task_receive_set_conf(s->rdma, rdma_recv_done, rdma_recv_failed, f->window) ==
		       DOCA_SUCCESS &&
	       doca_ctx_set_user_data(ctx, ud) == DOCA_SUCCESS && doca_pe_connect_ctx(f->pe, ctx) == DOCA_SUCCESS &&
	       doca_ctx_start(ctx) == DOCA_SUCCESS &&
	       doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn) == DOCA_SUCCESS;
}

/* Slot i of a send: the requester's send from its slot, the responder's receive into its own, posted. */
static bool rdma_alloc_send(struct rdma_run *f, uint32_t i)
{
	union doca_data ud = {.u64 = i};
	struct doca_rdma_task_send *t = NULL;

	if (doca_buf_inventory_buf_get_by_data(f->inv, f->req.mmap, f->req.mem + (size_t)i * f->size, f->size,
					       &f->local[i]) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_addr(f->inv, f->resp.mmap, f->resp.mem + (size_t)i * f->size, f->size,
					       &f->rdst[i]) != DOCA_SUCCESS ||
	    doca_rdma_task_send_allocate_init(f->req.rdma, f->req.conn, f->local[i], ud, &t) != DOCA_SUCCESS)
		return false;
	f->task[i] = doca_rdma_task_send_as_task(t);
	if (doca_rdma_task_receive_allocate_init(f->resp.rdma, f->rdst[i], ud, &f->recv[i]) != DOCA_SUCCESS)
		return false;
	if (doca_task_submit(doca_rdma_task_receive_as_task(f->recv[i])) == DOCA_SUCCESS)
		return true;
	doca_task_free(doca_rdma_task_receive_as_task(f->recv[i])); /* not in flight: the stop would wait for it */
	f->recv[i] = NULL;
	return false;
}

/* Slot i of a write or read: the requester's local slot and the responder's slot as it sees it. */
static bool rdma_alloc_put_get(struct rdma_run *f, uint32_t i)
{
	union doca_data ud = {.u64 = i};
	void *base = NULL;
	size_t len = 0;

	if (doca_mmap_get_memrange(f->remote, &base, &len) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_data(f->inv, f->req.mmap, f->req.mem + (size_t)i * f->size, f->size,
					       &f->local[i]) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_data(f->inv, f->remote, (uint8_t *)base + (size_t)i * f->size, f->size,
					       &f->rbuf[i]) != DOCA_SUCCESS)
		return false;
	if (f->put) {
		struct doca_rdma_task_write *w = NULL;

		if (doca_rdma_task_write_allocate_init(f->req.rdma, f->req.conn, f->local[i], f->rbuf[i], ud, &w) !=
		    DOCA_SUCCESS)
			return false;
		f->task[i] = doca_rdma_task_write_as_task(w);
	} else {
		struct doca_rdma_task_read *r = NULL;

		if (doca_rdma_task_read_allocate_init(f->req.rdma, f->req.conn, f->rbuf[i], f->local[i], ud, &r) !=
		    DOCA_SUCCESS)
			return false;
		f->task[i] = doca_rdma_task_read_as_task(r);
	}
	return true;
}

/* A send of a job size the device cannot carry in one message is n/a, as a card refuses it. */
static bool rdma_size_fits(struct rdma_run *f, char *why, size_t why_len)
{
	uint32_t max = 0;

	if (f->method != METHOD_RDMA_SEND)
		return true;
	if (doca_rdma_cap_get_max_message_size(doca_dev_as_devinfo(f->dev), &max) != DOCA_SUCCESS)
		max = 0;
	if (f->size <= max)
		return true;
	snprintf(why, why_len, "n/a: over the device's RDMA message size (%u bytes)", max);
	return false;
}

/* Where the requester's jobs go: the responder's memory seen through its RDMA export (write, read). */
static bool rdma_import_responder(struct rdma_run *f)
{
	const void *desc = NULL;
	size_t desc_len = 0;

	return doca_mmap_export_rdma(f->resp.mmap, f->dev, &desc, &desc_len) == DOCA_SUCCESS &&
	       doca_mmap_create_from_export(NULL, desc, desc_len, f->dev, &f->remote) == DOCA_SUCCESS;
}

static bool rdma_setup(struct rdma_run *f, const struct bench_options *o, char *why, size_t why_len)
{
	bool send = f->method == METHOD_RDMA_SEND;

	f->dev = rdma_open_dev(o);
	if (f->dev == NULL) {
		snprintf(why, why_len, "n/a: no device whose RDMA context writes, reads, sends and receives");
		return false;
	}
	if (!rdma_size_fits(f, why, why_len))
		return false;
	if (doca_pe_create(&f->pe) != DOCA_SUCCESS ||
	    doca_buf_inventory_create(2 * f->window + 2, &f->inv) != DOCA_SUCCESS ||
	    doca_buf_inventory_start(f->inv) != DOCA_SUCCESS ||
	    !rdma_side_init(f, &f->req, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) ||
	    !rdma_side_init(f, &f->resp, RDMA_REMOTE_PERMS | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) ||
	    doca_rdma_connect(f->req.rdma, f->resp.blob, f->resp.blob_len, f->req.conn) != DOCA_SUCCESS ||
	    doca_rdma_connect(f->resp.rdma, f->req.blob, f->req.blob_len, f->resp.conn) != DOCA_SUCCESS) {
		snprintf(why, why_len, "n/a: cannot start and connect two RDMA contexts");
		return false;
	}
	bench_fill_pattern(f->put || send ? f->req.mem : f->resp.mem, (size_t)f->window * f->size, 0);
	if (!send && !rdma_import_responder(f)) {
		snprintf(why, why_len, "n/a: cannot export the responder's memory for RDMA");
		return false;
	}
	for (uint32_t i = 0; i < f->window; i++) {
		if (!(send ? rdma_alloc_send(f, i) : rdma_alloc_put_get(f, i))) {
			snprintf(why, why_len, "n/a: cannot allocate the RDMA tasks");
			return false;
		}
		f->ready[f->ready_n++] = i;
	}
	return true;
}

static void rdma_stop(struct rdma_run *f, struct rdma_side *s)
{
	struct doca_ctx *ctx = doca_rdma_as_ctx(s->rdma);
	uint64_t end = bench_ticks() + bench_s_to_ticks(RDMA_TIMEOUT_S);
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
	doca_error_t err = doca_ctx_stop(ctx);

	while ((err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS) && bench_ticks() < end &&
	       doca_ctx_get_state(ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
		(void)doca_pe_progress(f->pe);
}

static void rdma_side_fini(struct rdma_side *s)
{
	if (s->rdma != NULL)
		(void)doca_rdma_destroy(s->rdma);
	if (s->mmap != NULL)
		(void)doca_mmap_destroy(s->mmap);
	free(s->mem);
}

/*
 * A context stops only once its tasks are freed: the send, write and read tasks (all completed by now)
 * go first, then the requester stops, then the responder, whose posted receives come back flushed and
 * are freed in their callback.  Buffers go before the mmaps they point into.
 */
static void rdma_teardown(struct rdma_run *f)
{
	for (uint32_t i = 0; i < f->window; i++)
		if (f->task[i] != NULL)
			doca_task_free(f->task[i]);
	f->stopping = true;
	if (f->req.rdma != NULL)
		rdma_stop(f, &f->req);
	if (f->resp.rdma != NULL)
		rdma_stop(f, &f->resp);
	for (uint32_t i = 0; i < f->window; i++) {
		if (f->local[i] != NULL)
			(void)doca_buf_dec_refcount(f->local[i], NULL);
		if (f->rbuf[i] != NULL)
			(void)doca_buf_dec_refcount(f->rbuf[i], NULL);
		if (f->rdst[i] != NULL)
			(void)doca_buf_dec_refcount(f->rdst[i], NULL);
	}
	if (f->remote != NULL)
		(void)doca_mmap_destroy(f->remote);
	rdma_side_fini(&f->req);
	rdma_side_fini(&f->resp);
	if (f->inv != NULL)
		(void)doca_buf_inventory_destroy(f->inv);
	if (f->pe != NULL)
		(void)doca_pe_destroy(f->pe);
	if (f->dev != NULL)
		(void)doca_dev_close(f->dev);
}

/* ---- measuring ---- */

/* Submit every slot whose task is done; false when a submit failed. */
static bool rdma_submit_ready(struct rdma_run *f, uint64_t budget)
{
	while (f->ready_n != 0 && budget-- != 0) {
		uint32_t i = f->ready[f->ready_head];

		f->ready_head = (f->ready_head + 1) % RDMA_WINDOW;
		f->ready_n--;
		if (f->method != METHOD_RDMA_SEND)
			(void)doca_buf_reset_data_len(f->put ? f->rbuf[i] : f->local[i]);
		if (doca_task_submit(f->task[i]) != DOCA_SUCCESS) {
			f->errors++;
			return false;
		}
		if (f->method != METHOD_RDMA_SEND)
			continue;
		if (f->sent_seq - f->recv_seq < RDMA_ORDER_RING)
			f->order[f->sent_seq++ % RDMA_ORDER_RING] = i;
		else
			f->bad++; /* more sends unmatched than the ring holds: their bytes cannot be checked */
	}
	return true;
}

static void rdma_throughput(struct rdma_run *f, uint64_t ticks, uint64_t count, uint64_t *ops, uint64_t *taken)
{
	uint64_t t0 = bench_ticks(), now = t0, base = f->done, sent = 0;

	for (;;) {
		uint64_t before = f->ready_n;

		if (!rdma_submit_ready(f, count != 0 ? count - sent : UINT64_MAX))
			break;
		sent += before - f->ready_n;
		for (int k = 0; k < 16; k++)
			(void)doca_pe_progress(f->pe);
		now = bench_ticks();
		if (f->errors != 0 || (count != 0 ? f->done - base >= count : now - t0 >= ticks))
			break;
		bench_progress_tick();
	}
	*ops = f->done - base;
	*taken = now - t0;
}

/* Wait for every task in flight, so the next phase starts with all slots ready. */
static void rdma_drain(struct rdma_run *f)
{
	uint64_t give_up = bench_ticks() + bench_s_to_ticks(RDMA_TIMEOUT_S);

	while (f->ready_n + f->errors < f->window && bench_ticks() < give_up)
		(void)doca_pe_progress(f->pe);
}

static void rdma_latency(struct rdma_run *f, struct bench_hist *h, uint64_t ticks, uint64_t count, uint64_t *ops,
			 uint64_t *taken)
{
	uint64_t t0 = bench_ticks(), n = 0;

	for (;;) {
		uint64_t before = f->done, start = bench_ticks_fenced();
		uint64_t give_up = start + bench_s_to_ticks(RDMA_TIMEOUT_S);

		if (!rdma_submit_ready(f, 1))
			break;
		while (f->done == before && f->errors == 0 && bench_ticks() < give_up)
			(void)doca_pe_progress(f->pe);
		if (f->done == before)
			break;
		if (h != NULL)
			bench_hist_add(h, (uint64_t)(bench_ticks_to_s(f->done_ticks - start) * 1e9));
		n++;
		if (count != 0 ? n >= count : (n & 15) == 0) {
			if (count != 0 || bench_ticks() - t0 >= ticks)
				break;
			bench_progress_tick();
		}
	}
	*ops = n;
	*taken = bench_ticks() - t0;
}

static void rdma_measure(struct rdma_run *f, const struct bench_options *o, const struct bench_point *p,
			 struct bench_result *r)
{
	static struct bench_hist hist;
	struct bench_budget budget;
	struct bench_cpu_span span;
	uint64_t ops = 0, taken = 0;

	bench_budget_for(o, &budget);
	bench_hist_reset(&hist);
	if (p->mode == BENCH_LATENCY) {
		rdma_latency(f, NULL, budget.warm_ticks, budget.warm_count, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (f->errors == 0)
			rdma_latency(f, &hist, budget.measure_ticks, budget.count, &ops, &taken);
		bench_hist_summary(&hist, &r->lat);
	} else {
		if (budget.warm_ticks != 0 || budget.warm_count != 0)
			rdma_throughput(f, budget.warm_ticks, budget.warm_count, &ops, &taken);
		rdma_drain(f);
		bench_cpu_span_begin(&span);
		if (f->errors == 0)
			rdma_throughput(f, budget.measure_ticks, budget.count, &ops, &taken);
	}
	rdma_drain(f);
	r->cpu_share = bench_cpu_span_end(&span);
	r->available = ops > 0;
	r->depth_used = p->mode == BENCH_LATENCY ? 1 : f->window;
	r->ops = ops;
	r->seconds = bench_ticks_to_s(taken);
	r->errors = f->errors;
	r->bad_bytes_jobs = f->bad;
	if (r->seconds > 0) {
		r->ops_per_s = (double)ops / r->seconds;
		r->bytes_per_s = r->ops_per_s * (double)p->size;
	}
	if (f->errors != 0)
		snprintf(r->note, sizeof(r->note), "%llu RDMA tasks failed", (unsigned long long)f->errors);
	else if (ops == 0)
		snprintf(r->note, sizeof(r->note), "n/a: no RDMA task completed within %.0f s", RDMA_TIMEOUT_S);
}

void bench_rdma_point(const struct bench_options *o, const struct bench_point *p, struct bench_result *r)
{
	struct rdma_run *f = calloc(1, sizeof(*f));
	uint32_t window;

	r->point.threads = 1;
	if (f == NULL || p->size == 0) {
		r->available = false;
		snprintf(r->note, sizeof(r->note), "n/a: %s", f == NULL ? "out of memory" : "empty job");
		free(f);
		return;
	}
	if (o->mem == BENCH_MEM_REMOTE || o->remote_output) {
		r->available = false;
		snprintf(r->note, sizeof(r->note), "n/a: RDMA is measured between two contexts of this process");
		free(f);
		return;
	}
	window = (uint32_t)(RDMA_WINDOW_BYTES / p->size);
	window = window == 0 ? 1 : window;
	if (p->mode == BENCH_THROUGHPUT && p->depth != 0 && p->depth < window)
		window = p->depth;
	f->window = window > RDMA_WINDOW ? RDMA_WINDOW : window;
	f->size = p->size;
	f->method = p->method;
	f->put = p->method == METHOD_RDMA_WRITE;
	f->verify = o->verify;
	if (rdma_setup(f, o, r->note, sizeof(r->note)))
		rdma_measure(f, o, p, r);
	else
		r->available = false;
	rdma_teardown(f);
	free(f);
}
