/*
 * bench_worker.h - one measuring thread and what it owns: its memory, its
 * progress engine, its DMA context, and the state its loops share with the
 * DMA completion callback.  Private to bench_pool.c, bench_dma.c and
 * bench_cpu.c.
 */
#ifndef BENCH_WORKER_H_
#define BENCH_WORKER_H_

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench.h"

/* One job slot: its task and its two buffers. */
struct bench_slot {
	struct bench_worker *w;
	struct doca_dma_task_memcpy *task;
	struct doca_task *dtask; /* the task's generic view, kept to save a call per job */
	struct doca_buf *src;
	struct doca_buf *dst;
	uint8_t *dst_addr;     /* the local destination; with a remote one, where --verify reads it into */
	uint64_t remote_dst;   /* the destination in the companion, 0 when local */
	pid_t remote_pid;
	const uint8_t *expect; /* what the destination must hold after the copy */
};

struct bench_worker {
	struct bench *bench;
	unsigned int index;
	pthread_t thread;
	bool thread_started;

	/* memory: [sources | destinations], side_len bytes each */
	uint8_t *region;
	size_t side_len;

	/* DOCA objects, used only by this thread once the pool runs */
	struct doca_pe *pe;
	int epfd; /* --wait event: epoll on the PE's notification handle, else -1 */
	struct doca_dma *dma;
	struct doca_mmap *local_mmap;
	struct doca_mmap *remote_mmap; /* --mem remote: the companion's export */
	struct doca_buf_inventory *inv;
	bool dma_running;

	/* the running measurement, shared with the completion callback */
	struct bench_slot slots[BENCH_MAX_DEPTH];
	unsigned int n_slots;
	size_t size;
	bool latency;
	bool verify;
	bool stop;
	uint64_t limit;	    /* submissions allowed in this phase */
	uint64_t submitted;
	uint64_t completed;
	uint64_t errors;
	uint64_t bad_jobs;
	doca_error_t first_error;
	uint64_t lat_done_ticks;
	bool lat_done;
	uint64_t app_work_ticks; /* --app-work, per completed job */

	struct bench_hist hist;
};

/* bench_dma.c: DOCA objects of a worker (main thread, before the pool runs). */
doca_error_t bench_dma_attach(struct bench_worker *w, char *why, size_t why_len);
void bench_dma_detach(struct bench_worker *w);

#endif /* BENCH_WORKER_H_ */
