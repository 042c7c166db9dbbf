/*
 * bench_cpu.c - the CPU baselines, on the DMA run's own buffers: the same
 * slots, the same job size, visited in the same order (slot 0, 1, ... as
 * the DMA tasks complete), so that the two see the same working set and
 * the ratio between them is fair.
 *
 *   memcpy            plain memcpy from the source slot to the destination
 *                     slot.  With --mem remote the source lives in the
 *                     companion process; memcpy then reads this process's
 *                     copy of the same bytes (what a local copy would cost).
 *   process_vm_readv  one system call per job, reading the source slot from
 *                     the companion (remote) or from this process (local):
 *                     the kernel path the cross-process engine uses.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bench.h"

struct cpu_job {
	enum bench_method method;
	size_t size;
	unsigned int n_slots;
	bool verify;
	uint64_t app_work_ticks; /* --app-work after each copy */
	struct bench_span span;
	pid_t pid;	  /* process_vm_readv target */
	uint64_t src_base; /* process_vm_readv source side, in the target */
	uint64_t errors;
	uint64_t bad_jobs;
	int first_errno;
};

static void check_copy(struct cpu_job *j, unsigned int slot)
{
	uint8_t *dst = j->span.dst + (size_t)slot * j->size;
	const uint8_t *expect = j->span.src + (size_t)slot * j->size;

	if (memcmp(dst, expect, j->size) != 0)
		j->bad_jobs++;
	for (size_t i = 0; i < j->size; i++)
		dst[i] = (uint8_t)~expect[i];
}

/* One job on `slot`; false when the copy failed (and the loop should stop). */
static inline bool copy_one(struct cpu_job *j, unsigned int slot)
{
	size_t off = (size_t)slot * j->size;

	if (j->method == METHOD_MEMCPY) {
		memcpy(j->span.dst + off, j->span.src + off, j->size);
	} else {
		struct iovec local = {.iov_base = j->span.dst + off, .iov_len = j->size};
		struct iovec remote = {.iov_base = (void *)(uintptr_t)(j->src_base + off), .iov_len = j->size};
		ssize_t n = process_vm_readv(j->pid, &local, 1, &remote, 1, 0);

		if (n != (ssize_t)j->size) {
			if (j->errors++ == 0)
				j->first_errno = n < 0 ? errno : EIO;
			return false;
		}
	}
	return true;
}

static void throughput_phase(struct cpu_job *j, uint64_t ticks, uint64_t count, bool first, uint64_t *ops,
			     uint64_t *taken)
{
	unsigned int batch = j->size >= 64 * KIB ? 1 : 16;
	unsigned int slot = 0;
	uint64_t done = 0;
	uint64_t t0 = bench_ticks();
	uint64_t now = t0;

	for (;;) {
		for (unsigned int k = 0; k < batch; k++) {
			if (!copy_one(j, slot))
				goto out;
			if (j->verify)
				check_copy(j, slot);
			if (j->app_work_ticks != 0)
				bench_app_work(j->app_work_ticks);
			slot = slot + 1 == j->n_slots ? 0 : slot + 1;
			done++;
			if (count != 0 && done >= count)
				goto out;
		}
		now = bench_ticks();
		if (count == 0 && now - t0 >= ticks)
			break;
		if (first)
			bench_progress_tick();
	}
out:
	*ops = done;
	*taken = bench_ticks() - t0;
}

static void latency_phase(struct cpu_job *j, struct bench_hist *h, uint64_t ticks, uint64_t count, bool first,
			  uint64_t *ops, uint64_t *taken)
{
	unsigned int slot = 0;
	uint64_t done = 0;
	uint64_t t0 = bench_ticks();

	for (;;) {
		uint64_t start = bench_ticks_fenced();
		bool ok = copy_one(j, slot);
		uint64_t end = bench_ticks_fenced();

		if (!ok)
			break;
		if (j->verify)
			check_copy(j, slot);
		if (h != NULL)
			bench_hist_add(h, (uint64_t)(bench_ticks_to_s(end - start) * 1e9));
		slot = slot + 1 == j->n_slots ? 0 : slot + 1;
		done++;
		if (count != 0 ? done >= count : (done & 15) == 0) {
			if (count != 0 || end - t0 >= ticks)
				break;
			if (first)
				bench_progress_tick();
		}
	}
	*ops = done;
	*taken = bench_ticks() - t0;
}

void bench_cpu_point(struct bench_worker *w, const struct bench_point *p, struct bench_worker_result *out)
{
	const struct bench_options *o = bench_worker_opts(w);
	bool first = bench_worker_is_first(w);
	struct bench_hist *h = bench_worker_hist(w);
	struct bench_budget budget;
	struct bench_cpu_span span;
	struct cpu_job j = {.method = p->method, .size = p->size, .verify = o->verify,
			    .app_work_ticks = bench_s_to_ticks(o->app_work_s)};
	uint64_t ops = 0;
	uint64_t taken = 0;

	bench_worker_span(w, &j.span);
	j.n_slots = bench_slots_for(j.span.len, p->size, p->mode == BENCH_LATENCY ? 1 : p->depth);
	j.pid = j.span.remote_pid != 0 ? j.span.remote_pid : getpid();
	j.src_base = j.span.remote_src != 0 ? j.span.remote_src : (uint64_t)(uintptr_t)j.span.src;
	if (o->verify)
		for (unsigned int s = 0; s < j.n_slots; s++)
			memset(j.span.dst + (size_t)s * p->size, 0, p->size);
	bench_budget_for(o, &budget);
	bench_hist_reset(h);
	if (p->mode == BENCH_LATENCY) {
		latency_phase(&j, NULL, budget.warm_ticks, budget.warm_count, first, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (j.errors == 0)
			latency_phase(&j, h, budget.measure_ticks, budget.count, first, &ops, &taken);
	} else {
		if (budget.warm_ticks != 0 || budget.warm_count != 0)
			throughput_phase(&j, budget.warm_ticks, budget.warm_count, first, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (j.errors == 0)
			throughput_phase(&j, budget.measure_ticks, budget.count, first, &ops, &taken);
	}
	out->cpu_share = bench_cpu_span_end(&span);
	out->ops = ops;
	out->ticks = taken;
	out->depth_used = j.n_slots;
	out->errors = j.errors;
	out->bad_jobs = j.bad_jobs;
	if (j.errors != 0 && ops == 0 && (j.first_errno == EPERM || j.first_errno == ENOSYS)) {
		/* Refused by the kernel's policy (ptrace rules, seccomp): a limit of this machine, not a failure. */
		out->unavailable = true;
		out->errors = 0;
		snprintf(out->note, sizeof(out->note), "n/a: process_vm_readv refused: %s", strerror(j.first_errno));
	} else if (j.errors != 0) {
		out->first_error = DOCA_ERROR_OPERATING_SYSTEM;
		snprintf(out->note, sizeof(out->note), "process_vm_readv failed: %s", strerror(j.first_errno));
	} else if (p->method == METHOD_MEMCPY && j.span.remote_src != 0) {
		snprintf(out->note, sizeof(out->note), "reads this process's copy of the remote source");
	}
}
