/*
 * bench_pool.c - the measuring threads.
 *
 * Each worker owns one progress engine and one DMA context on the shared
 * device, its own memory and buffer inventory, and runs pinned to its own
 * CPU when the process may use enough of them.  The main thread hands every
 * measurement to the workers through two barriers (start, end), so the
 * threads of one measurement start together and the main thread sleeps
 * while they run.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <doca_dev.h>

#include "bench_worker.h"

unsigned int bench_slots_for(size_t side_len, size_t size, unsigned int depth)
{
	size_t fit = side_len / size;

	if (fit == 0)
		fit = 1;
	return fit < depth ? (unsigned int)fit : depth;
}

void bench_budget_for(const struct bench_options *o, struct bench_budget *budget)
{
	double warm = o->duration_s / 10;

	memset(budget, 0, sizeof(*budget));
	if (o->tasks != 0) {
		budget->count = o->tasks;
		budget->warm_count = o->tasks / 10;
		return;
	}
	if (warm > 0.1)
		warm = 0.1;
	budget->measure_ticks = bench_s_to_ticks(o->duration_s);
	budget->warm_ticks = bench_s_to_ticks(warm);
	if (budget->measure_ticks == 0)
		budget->measure_ticks = 1;
}

void bench_worker_span(const struct bench_worker *w, struct bench_span *span)
{
	const struct bench *b = w->bench;

	span->src = w->region;
	span->dst = w->region + w->side_len;
	span->len = w->side_len;
	span->remote_src = 0;
	span->remote_pid = 0;
	span->remote_dst = 0;
	if (b->opts.mem == BENCH_MEM_REMOTE)
		span->remote_src = b->remote.addr + (uint64_t)w->index * w->side_len;
	if (b->opts.remote_output)
		span->remote_dst = b->remote.dst_addr + (uint64_t)w->index * w->side_len;
	if (bench_uses_companion(&b->opts))
		span->remote_pid = b->remote.pid;
}

const struct bench_options *bench_worker_opts(const struct bench_worker *w)
{
	return &w->bench->opts;
}

bool bench_worker_is_first(const struct bench_worker *w)
{
	return w->index == 0;
}

struct bench_hist *bench_worker_hist(struct bench_worker *w)
{
	return &w->hist;
}

void bench_fill_pattern(uint8_t *p, size_t len, size_t first_offset)
{
	for (size_t i = 0; i < len; i++)
		p[i] = bench_pattern(first_offset + i);
}

/* ---- creating workers ---- */

static uint8_t *alloc_region(size_t len)
{
	const size_t huge = 2 * MIB;
	size_t rounded = (len + huge - 1) / huge * huge;
	uint8_t *p = aligned_alloc(huge, rounded);

	if (p == NULL)
		return NULL;
	/* Transparent huge pages when the system offers them: fewer TLB misses, for both sides of the comparison. */
	(void)madvise(p, rounded, MADV_HUGEPAGE);
	return p;
}

struct bench_worker *bench_worker_create(struct bench *b, unsigned int index, char *why, size_t why_len)
{
	struct bench_worker *w = calloc(1, sizeof(*w));
	doca_error_t err;

	if (w == NULL) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	w->bench = b;
	w->epfd = -1; /* --wait event sets it up with the PE */
	w->index = index;
	w->side_len = b->side_len;
	w->region = alloc_region(2 * w->side_len);
	if (w->region == NULL) {
		snprintf(why, why_len, "cannot allocate %zu MiB for thread %u", 2 * w->side_len / MIB, index);
		free(w);
		return NULL;
	}
	/* Sources carry the pattern (in remote mode: the expected bytes); destinations start at zero. */
	bench_fill_pattern(w->region, w->side_len, (size_t)index * w->side_len);
	memset(w->region + w->side_len, 0, w->side_len);
	err = bench_dma_attach(w, why, why_len);
	if (err != DOCA_SUCCESS) {
		bench_worker_destroy(w);
		return NULL;
	}
	return w;
}

void bench_worker_destroy(struct bench_worker *w)
{
	if (w == NULL)
		return;
	bench_dma_detach(w);
	free(w->region);
	free(w);
}

void bench_worker_run(struct bench_worker *w, const struct bench_point *p, struct bench_worker_result *out)
{
	memset(out, 0, sizeof(*out));
	out->first_error = DOCA_SUCCESS;
	if (p->method == METHOD_DMA)
		bench_dma_point(w, p, out);
	else
		bench_cpu_point(w, p, out);
}

/* ---- the threads ---- */

struct worker_slot_result {
	struct bench_worker_result r;
};

static struct worker_slot_result results[BENCH_MAX_THREADS];

/* The n-th CPU this process may run on, counting around. */
static int nth_allowed_cpu(unsigned int n, unsigned int *allowed_count)
{
	cpu_set_t set;
	int cpus[CPU_SETSIZE];
	unsigned int count = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[count++] = c;
	*allowed_count = count;
	return count == 0 ? -1 : cpus[n % count];
}

static void pin(struct bench_worker *w, int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	(void)w;
}

struct worker_start {
	struct bench_worker *w;
	int cpu;
};

static struct worker_start starts[BENCH_MAX_THREADS];

static void *worker_main(void *arg)
{
	struct worker_start *s = arg;
	struct bench_worker *w = s->w;
	struct bench *b = w->bench;

	pin(w, s->cpu);
	for (;;) {
		pthread_barrier_wait(&b->go);
		if (b->quit)
			break;
		if (w->index < b->active)
			bench_worker_run(w, b->current, &results[w->index].r);
		pthread_barrier_wait(&b->done);
	}
	return NULL;
}

static int start_threads(struct bench *b)
{
	unsigned int allowed = 0;

	pthread_barrier_init(&b->go, NULL, b->n_workers + 1);
	pthread_barrier_init(&b->done, NULL, b->n_workers + 1);
	for (unsigned int i = 0; i < b->n_workers; i++) {
		starts[i].w = b->workers[i];
		if (b->opts.n_cores != 0)
			starts[i].cpu = b->opts.cores[i % b->opts.n_cores];
		else
			starts[i].cpu = nth_allowed_cpu(i, &allowed);
		if (pthread_create(&b->workers[i]->thread, NULL, worker_main, &starts[i]) != 0) {
			/* The threads already started wait on a barrier sized for all: leave now. */
			fprintf(stderr, "%s: cannot start thread %u: %s\n", bench_prog, i, strerror(errno));
			exit(BENCH_EXIT_FAILED);
		}
		b->workers[i]->thread_started = true;
	}
	/* --core-list pins as asked, even several threads to one CPU. */
	b->pinned = b->opts.n_cores != 0 || allowed >= b->n_workers;
	return BENCH_EXIT_OK;
}

/* ---- device ---- */

bool bench_device_wanted(const struct bench_options *o, struct doca_devinfo *info)
{
	uint8_t eq = 0;
	uint8_t from_export = 0;

	if (doca_dma_cap_task_memcpy_is_supported(info) != DOCA_SUCCESS)
		return false;
	if (o->pci_addr != NULL)
		return doca_devinfo_is_equal_pci_addr(info, o->pci_addr, &eq) == DOCA_SUCCESS && eq;
	if (bench_uses_companion(o))
		return doca_mmap_cap_is_create_from_export_pci_supported(info, &from_export) == DOCA_SUCCESS &&
		       from_export;
	return true;
}

static int open_device(struct bench *b)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "%s: cannot list the devices: %s\n", bench_prog, doca_error_get_name(err));
		return BENCH_EXIT_FAILED;
	}
	err = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n && err != DOCA_SUCCESS; i++) {
		if (!bench_device_wanted(&b->opts, list[i]))
			continue;
		err = doca_dev_open(list[i], &b->dev);
		if (err == DOCA_SUCCESS)
			(void)doca_devinfo_get_pci_addr_str(list[i], b->dev_pci);
	}
	doca_devinfo_destroy_list(list);
	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "%s: no usable DMA device%s%s%s: %s\n", bench_prog,
			b->opts.pci_addr != NULL ? " at " : "", b->opts.pci_addr != NULL ? b->opts.pci_addr : "",
			bench_uses_companion(&b->opts) ? " that can import an export" : "", doca_error_get_name(err));
		/* The topology has no such device: the mode is not available here, nothing failed. */
		return bench_uses_companion(&b->opts) && b->opts.pci_addr == NULL ? BENCH_EXIT_UNAVAILABLE
										    : BENCH_EXIT_FAILED;
	}
	return BENCH_EXIT_OK;
}

/* Per thread: enough for `depth` jobs of the largest size, at most BENCH_SIDE_CAP (or one job). */
size_t bench_side_len_for(size_t largest, unsigned int depth)
{
	size_t side = largest * depth;
	size_t cap = largest > BENCH_SIDE_CAP ? largest : BENCH_SIDE_CAP;

	if (side > cap)
		side = cap;
	if (side < 64 * KIB)
		side = 64 * KIB;
	return (side + 4095) / 4096 * 4096;
}

int bench_setup(struct bench *b, size_t largest, unsigned int threads)
{
	char why[256] = "";
	int rc;

	b->side_len = bench_side_len_for(largest, b->opts.queue_depth);
	b->n_workers = threads;
	if (bench_uses_companion(&b->opts)) {
		rc = bench_remote_start(&b->remote, b->side_len * b->n_workers, b->opts.exporter_pci);
		if (rc != BENCH_EXIT_OK)
			return rc;
		b->remote_started = true;
	}
	rc = open_device(b);
	if (rc != BENCH_EXIT_OK)
		return rc;
	for (unsigned int i = 0; i < b->n_workers; i++) {
		b->workers[i] = bench_worker_create(b, i, why, sizeof(why));
		if (b->workers[i] == NULL) {
			fprintf(stderr, "%s: thread %u: %s\n", bench_prog, i, why);
			return strstr(why, "cross-process engine") != NULL ? BENCH_EXIT_UNAVAILABLE : BENCH_EXIT_FAILED;
		}
	}
	return start_threads(b);
}

void bench_teardown(struct bench *b)
{
	bool started = b->n_workers > 0 && b->workers[b->n_workers - 1] != NULL &&
		       b->workers[b->n_workers - 1]->thread_started;

	if (started) {
		b->quit = true;
		pthread_barrier_wait(&b->go);
		for (unsigned int i = 0; i < b->n_workers; i++)
			pthread_join(b->workers[i]->thread, NULL);
		pthread_barrier_destroy(&b->go);
		pthread_barrier_destroy(&b->done);
	}
	for (unsigned int i = 0; i < b->n_workers; i++)
		bench_worker_destroy(b->workers[i]);
	if (b->dev != NULL)
		(void)doca_dev_close(b->dev);
	if (b->remote_started)
		bench_remote_stop(&b->remote);
}

/* ---- one measurement ---- */

static void gather(struct bench *b, const struct bench_point *p, struct bench_result *r)
{
	uint64_t max_ticks = 0;
	struct bench_hist *all = &b->workers[0]->hist;

	for (unsigned int i = 0; i < p->threads; i++) {
		const struct bench_worker_result *wr = &results[i].r;

		r->ops += wr->ops;
		r->cpu_share += wr->cpu_share / p->threads;
		r->errors += wr->errors;
		r->bad_bytes_jobs += wr->bad_jobs;
		if (wr->ticks > max_ticks)
			max_ticks = wr->ticks;
		if (i == 0) {
			r->depth_used = wr->depth_used;
			memcpy(r->note, wr->note, sizeof(r->note));
		}
		if (r->errors != 0 && wr->first_error != DOCA_SUCCESS && r->note[0] == '\0')
			snprintf(r->note, sizeof(r->note), "first failure: %s", doca_error_get_name(wr->first_error));
		if (i > 0 && p->mode == BENCH_LATENCY)
			bench_hist_merge(all, &b->workers[i]->hist);
	}
	if (results[0].r.unavailable) {
		r->available = false;
		return;
	}
	r->seconds = bench_ticks_to_s(max_ticks);
	if (r->seconds > 0) {
		r->ops_per_s = (double)r->ops / r->seconds;
		r->bytes_per_s = r->ops_per_s * (double)p->size;
	}
	if (p->mode == BENCH_LATENCY)
		bench_hist_summary(all, &r->lat);
}

void bench_run_point(struct bench *b, const struct bench_point *p, struct bench_result *r)
{
	memset(r, 0, sizeof(*r));
	r->point = *p;
	r->available = true;
	b->current = p;
	b->active = p->threads;
	pthread_barrier_wait(&b->go);
	pthread_barrier_wait(&b->done);
	gather(b, p, r);
}
