/*
 * bench_dma.c - DOCA DMA memcpy tasks, measured the way a fast application
 * drives them.
 *
 * Throughput: the tasks are allocated once per measurement, `depth` of them
 * are in flight, and each completion callback empties its destination and
 * resubmits the same task; the thread does nothing but doca_pe_progress.
 * Latency: one task at a time, stamped just before doca_task_submit and at
 * the start of its completion callback.
 *
 * With --verify every completed job is checked byte for byte against the
 * source pattern, and the destination is then overwritten with the
 * complement of the pattern so that a copy that does not happen next time
 * cannot pass.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/uio.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_dev.h>

#include "bench_worker.h"

/* ---- the completion callbacks ---- */

static void note_failure(struct bench_worker *w, doca_error_t err)
{
	if (w->errors++ == 0)
		w->first_error = err;
}

/*
 * A destination in the companion (--use-remote-output-buffers) is checked
 * through its local twin: read in before the comparison, and the twin's
 * poisoned bytes written back after it, so the next copy must land again.
 */
static bool remote_dst_io(const struct bench_slot *s, size_t size, bool write)
{
	struct iovec local = {.iov_base = s->dst_addr, .iov_len = size};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)s->remote_dst, .iov_len = size};
	ssize_t n = write ? process_vm_writev(s->remote_pid, &local, 1, &remote, 1, 0)
			  : process_vm_readv(s->remote_pid, &local, 1, &remote, 1, 0);

	return n == (ssize_t)size;
}

static void poison(struct bench_worker *w, struct bench_slot *s)
{
	for (size_t i = 0; i < w->size; i++)
		s->dst_addr[i] = (uint8_t)~s->expect[i];
	if (s->remote_dst != 0 && !remote_dst_io(s, w->size, true))
		w->bad_jobs++;
}

static void check_job(struct bench_worker *w, struct bench_slot *s)
{
	size_t len = 0;

	if (doca_buf_get_data_len(s->dst, &len) != DOCA_SUCCESS || len != w->size ||
	    (s->remote_dst != 0 && !remote_dst_io(s, w->size, false)) || memcmp(s->dst_addr, s->expect, w->size) != 0)
		w->bad_jobs++;
	poison(w, s);
}

static void resubmit(struct bench_worker *w, struct bench_slot *s)
{
	doca_error_t err;

	/* DMA appends after the destination's data: empty it first. */
	(void)doca_buf_reset_data_len(s->dst);
	err = doca_task_submit(s->dtask);
	if (err != DOCA_SUCCESS) {
		note_failure(w, err);
		return;
	}
	w->submitted++;
}

static void dma_done(struct doca_dma_task_memcpy *task, union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct bench_slot *s = task_user_data.ptr;
	struct bench_worker *w = s->w;

	(void)task;
	(void)ctx_user_data;
	if (w->latency) {
		w->lat_done_ticks = bench_ticks_fenced();
		w->lat_done = true;
	}
	w->completed++;
	if (w->verify)
		check_job(w, s);
	if (w->app_work_ticks != 0)
		bench_app_work(w->app_work_ticks); /* the program uses the job's result */
	if (w->latency || w->stop || w->submitted >= w->limit)
		return;
	resubmit(w, s);
}

static void dma_failed(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
		       union doca_data ctx_user_data)
{
	struct bench_slot *s = task_user_data.ptr;
	struct bench_worker *w = s->w;

	(void)ctx_user_data;
	w->lat_done_ticks = bench_ticks_fenced();
	w->lat_done = true;
	w->completed++;
	note_failure(w, doca_task_get_status(doca_dma_task_memcpy_as_task(task)));
}

/* ---- DOCA objects of a worker ---- */

#define TRY(call, what)                                                                                         \
	do {                                                                                                    \
		err = (call);                                                                                   \
		if (err != DOCA_SUCCESS) {                                                                      \
			snprintf(why, why_len, "%s failed: %s", (what), doca_error_get_name(err));              \
			return err;                                                                             \
		}                                                                                               \
	} while (0)

static doca_error_t attach_memory(struct bench_worker *w, char *why, size_t why_len)
{
	struct bench *b = w->bench;
	doca_error_t err;

	TRY(doca_mmap_create(&w->local_mmap), "doca_mmap_create");
	TRY(doca_mmap_set_memrange(w->local_mmap, w->region, 2 * w->side_len), "doca_mmap_set_memrange");
	TRY(doca_mmap_add_dev(w->local_mmap, b->dev), "doca_mmap_add_dev");
	TRY(doca_mmap_set_permissions(w->local_mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), "doca_mmap_set_permissions");
	TRY(doca_mmap_start(w->local_mmap), "doca_mmap_start");
	TRY(doca_buf_inventory_create(2 * BENCH_MAX_DEPTH, &w->inv), "doca_buf_inventory_create");
	TRY(doca_buf_inventory_start(w->inv), "doca_buf_inventory_start");
	if (!bench_uses_companion(&b->opts))
		return DOCA_SUCCESS;
	err = doca_mmap_create_from_export(NULL, b->remote.desc, b->remote.desc_len, b->dev, &w->remote_mmap);
	if (err != DOCA_SUCCESS) {
		snprintf(why, why_len,
			 "doca_mmap_create_from_export on %s failed: %s; remote memory needs the cross-process engine",
			 b->dev_pci, doca_error_get_name(err));
		w->remote_mmap = NULL;
	}
	return err;
}

static doca_error_t attach_context(struct bench_worker *w, char *why, size_t why_len)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;
	doca_error_t err;

	TRY(doca_pe_create(&w->pe), "doca_pe_create");
	w->epfd = -1;
	if (bench_worker_opts(w)->wait_event) {
		doca_notification_handle_t h;
		struct epoll_event ev = {.events = EPOLLIN};

		TRY(doca_pe_get_notification_handle(w->pe, &h), "doca_pe_get_notification_handle");
		w->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (w->epfd < 0 || epoll_ctl(w->epfd, EPOLL_CTL_ADD, h, &ev) != 0) {
			snprintf(why, why_len, "epoll on the notification handle failed: %s", strerror(errno));
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
	}
	TRY(doca_dma_create(w->bench->dev, &w->dma), "doca_dma_create");
	TRY(doca_dma_task_memcpy_set_conf(w->dma, dma_done, dma_failed, BENCH_MAX_DEPTH),
	    "doca_dma_task_memcpy_set_conf");
	TRY(doca_pe_connect_ctx(w->pe, doca_dma_as_ctx(w->dma)), "doca_pe_connect_ctx");
	err = doca_ctx_start(doca_dma_as_ctx(w->dma));
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS) {
		snprintf(why, why_len, "doca_ctx_start failed: %s", doca_error_get_name(err));
		return err;
	}
	w->dma_running = true;
	while (doca_ctx_get_state(doca_dma_as_ctx(w->dma), &state) == DOCA_SUCCESS && state == DOCA_CTX_STATE_STARTING)
		(void)doca_pe_progress(w->pe);
	if (state != DOCA_CTX_STATE_RUNNING) {
		snprintf(why, why_len, "the DMA context did not reach RUNNING");
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t bench_dma_attach(struct bench_worker *w, char *why, size_t why_len)
{
	doca_error_t err = attach_memory(w, why, why_len);

	if (err != DOCA_SUCCESS)
		return err;
	return attach_context(w, why, why_len);
}

void bench_dma_detach(struct bench_worker *w)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

	if (w->dma_running) {
		(void)doca_ctx_stop(doca_dma_as_ctx(w->dma));
		while (doca_ctx_get_state(doca_dma_as_ctx(w->dma), &state) == DOCA_SUCCESS &&
		       state != DOCA_CTX_STATE_IDLE)
			(void)doca_pe_progress(w->pe);
	}
	if (w->dma != NULL)
		(void)doca_dma_destroy(w->dma);
	if (w->epfd >= 0)
		close(w->epfd);
	w->epfd = -1;
	if (w->pe != NULL)
		(void)doca_pe_destroy(w->pe);
	if (w->inv != NULL) {
		(void)doca_buf_inventory_stop(w->inv);
		(void)doca_buf_inventory_destroy(w->inv);
	}
	if (w->remote_mmap != NULL)
		(void)doca_mmap_destroy(w->remote_mmap);
	if (w->local_mmap != NULL) {
		(void)doca_mmap_stop(w->local_mmap);
		(void)doca_mmap_destroy(w->local_mmap);
	}
}

/* ---- per-measurement slots ---- */

static void release_slots(struct bench_worker *w)
{
	for (unsigned int i = 0; i < w->n_slots; i++) {
		struct bench_slot *s = &w->slots[i];

		if (s->task != NULL)
			doca_task_free(s->dtask);
		if (s->src != NULL)
			(void)doca_buf_dec_refcount(s->src, NULL);
		if (s->dst != NULL)
			(void)doca_buf_dec_refcount(s->dst, NULL);
		memset(s, 0, sizeof(*s));
	}
	w->n_slots = 0;
}

static doca_error_t prepare_slots(struct bench_worker *w, size_t size, unsigned int n, char *why, size_t why_len)
{
	struct bench_span span;
	doca_error_t err = DOCA_SUCCESS;

	bench_worker_span(w, &span);
	w->n_slots = n;
	for (unsigned int i = 0; i < n; i++) {
		struct bench_slot *s = &w->slots[i];
		struct doca_mmap *src_mmap = span.remote_src != 0 ? w->remote_mmap : w->local_mmap;
		struct doca_mmap *dst_mmap = span.remote_dst != 0 ? w->remote_mmap : w->local_mmap;
		void *src = span.remote_src != 0 ? (void *)(uintptr_t)(span.remote_src + (uint64_t)i * size)
						 : span.src + (size_t)i * size;
		/* A destination in the companion is its address there (--verify reads it back). */
		void *dst = span.remote_dst != 0 ? (void *)(uintptr_t)(span.remote_dst + (uint64_t)i * size)
						 : span.dst + (size_t)i * size;
		union doca_data ud = {.ptr = s};

		s->w = w;
		s->dst_addr = span.dst + (size_t)i * size;
		s->remote_dst = span.remote_dst != 0 ? (uint64_t)(uintptr_t)dst : 0;
		s->remote_pid = span.remote_pid;
		s->expect = span.src + (size_t)i * size;
		TRY(doca_buf_inventory_buf_get_by_data(w->inv, src_mmap, src, size, &s->src),
		    "doca_buf_inventory_buf_get_by_data (source)");
		TRY(doca_buf_inventory_buf_get_by_addr(w->inv, dst_mmap, dst, size, &s->dst),
		    "doca_buf_inventory_buf_get_by_addr (destination)");
		TRY(doca_dma_task_memcpy_alloc_init(w->dma, s->src, s->dst, ud, &s->task), "doca_dma_task_memcpy_alloc_init");
		s->dtask = doca_dma_task_memcpy_as_task(s->task);
		if (w->verify)
			poison(w, s);
	}
	return err;
}

/* ---- the loops ---- */

static void reset_counters(struct bench_worker *w, uint64_t limit)
{
	w->stop = false;
	w->limit = limit;
	w->submitted = 0;
	w->completed = 0;
}

/*
 * Sixteen progress calls; with --wait event, a round that found nothing
 * sleeps on the PE's notification handle until an engine thread has
 * finished something (or 100 ms passed), as an event-driven program does.
 */
static void progress_round(struct bench_worker *w)
{
	uint8_t got = 0;
	struct epoll_event ev;

	for (int k = 0; k < 16; k++)
		got |= doca_pe_progress(w->pe);
	if (got != 0 || w->epfd < 0 || w->completed >= w->submitted)
		return;
	if (doca_pe_request_notification(w->pe) == DOCA_SUCCESS) {
		doca_notification_handle_t h;

		(void)epoll_wait(w->epfd, &ev, 1, 100);
		if (doca_pe_get_notification_handle(w->pe, &h) == DOCA_SUCCESS)
			(void)doca_pe_clear_notification(w->pe, h);
	}
}

/* Keep `depth` tasks going for `ticks` (or `count` jobs); returns jobs done and time taken. */
static void throughput_phase(struct bench_worker *w, uint64_t ticks, uint64_t count, uint64_t *ops, uint64_t *taken)
{
	bool first = bench_worker_is_first(w);
	uint64_t t0;
	uint64_t now;

	reset_counters(w, count != 0 ? count : UINT64_MAX);
	for (unsigned int i = 0; i < w->n_slots && w->submitted < w->limit; i++)
		resubmit(w, &w->slots[i]);
	t0 = bench_ticks();
	if (count != 0) {
		while (w->completed < w->submitted) {
			progress_round(w);
			if (first)
				bench_progress_tick();
		}
		now = bench_ticks();
	} else {
		for (;;) {
			progress_round(w);
			now = bench_ticks();
			if (now - t0 >= ticks)
				break;
			if (first)
				bench_progress_tick();
		}
	}
	w->stop = true;
	*ops = w->completed;
	*taken = now - t0;
	while (w->completed < w->submitted)
		(void)doca_pe_progress(w->pe);
}

/* One task at a time; every round trip goes into the histogram when `record`. */
static void latency_phase(struct bench_worker *w, uint64_t ticks, uint64_t count, bool record, uint64_t *ops,
			  uint64_t *taken)
{
	bool first = bench_worker_is_first(w);
	uint64_t t0 = bench_ticks();
	uint64_t now = t0;
	uint64_t done = 0;
	unsigned int i = 0;

	reset_counters(w, UINT64_MAX);
	for (;;) {
		struct bench_slot *s = &w->slots[i];
		uint64_t start;
		doca_error_t err;

		i = i + 1 == w->n_slots ? 0 : i + 1;
		(void)doca_buf_reset_data_len(s->dst);
		w->lat_done = false;
		start = bench_ticks_fenced();
		err = doca_task_submit(s->dtask);
		if (err != DOCA_SUCCESS) {
			note_failure(w, err);
			break;
		}
		while (!w->lat_done)
			(void)doca_pe_progress(w->pe);
		if (record)
			bench_hist_add(&w->hist, (uint64_t)(bench_ticks_to_s(w->lat_done_ticks - start) * 1e9));
		done++;
		if (count != 0 ? done >= count : (done & 15) == 0) {
			now = bench_ticks();
			if (count != 0 || now - t0 >= ticks)
				break;
			if (first)
				bench_progress_tick();
		}
	}
	*ops = done;
	*taken = (count != 0 ? bench_ticks() : now) - t0;
}

void bench_dma_point(struct bench_worker *w, const struct bench_point *p, struct bench_worker_result *out)
{
	struct bench_budget budget;
	struct bench_cpu_span span;
	unsigned int n = bench_slots_for(w->side_len, p->size, p->mode == BENCH_LATENCY ? 1 : p->depth);
	uint64_t ops = 0;
	uint64_t taken = 0;

	bench_budget_for(bench_worker_opts(w), &budget);
	w->size = p->size;
	w->latency = p->mode == BENCH_LATENCY;
	w->verify = bench_worker_opts(w)->verify;
	w->app_work_ticks = bench_s_to_ticks(bench_worker_opts(w)->app_work_s);
	w->errors = 0;
	w->bad_jobs = 0;
	w->first_error = DOCA_SUCCESS;
	bench_hist_reset(&w->hist);
	if (prepare_slots(w, p->size, n, out->note, sizeof(out->note)) != DOCA_SUCCESS) {
		out->errors = 1;
		release_slots(w);
		return;
	}
	out->depth_used = n;
	if (w->latency) {
		latency_phase(w, budget.warm_ticks, budget.warm_count, false, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (w->errors == 0)
			latency_phase(w, budget.measure_ticks, budget.count, true, &ops, &taken);
	} else {
		if (budget.warm_ticks != 0 || budget.warm_count != 0)
			throughput_phase(w, budget.warm_ticks, budget.warm_count, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (w->errors == 0)
			throughput_phase(w, budget.measure_ticks, budget.count, &ops, &taken);
	}
	out->cpu_share = bench_cpu_span_end(&span);
	release_slots(w);
	out->ops = ops;
	out->ticks = taken;
	out->errors = w->errors;
	out->bad_jobs = w->bad_jobs;
	out->first_error = w->first_error;
}
