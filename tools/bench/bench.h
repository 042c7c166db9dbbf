/*
 * bench.h - softdoca-bench: DOCA DMA against the other ways of moving
 * bytes, measured in one run on the same buffers.
 *
 * Like softdoca-caps, the bench uses only the public DOCA API: it measures
 * what an application gets.  Pieces:
 *   bench_args.c      command line
 *   bench_plan.c      which measurements a run makes (sizes x methods)
 *   bench_pool.c      worker threads, one PE + one DMA context each, pinned
 *   bench_dma.c       DMA memcpy tasks: throughput and latency loops
 *   bench_cpu.c       the CPU baselines: memcpy and process_vm_readv
 *   bench_comch.c     Comch messages, through libdoca_comch opened at run time
 *   bench_comch_fp.c  the Comch fast path (producer -> consumer) on the same connection
 *   bench_rdma.c      DOCA RDMA write and read between two contexts of this process
 *   bench_remote.c    the companion process that exports memory (--mem remote)
 *   bench_hist.c      latency histogram and percentiles
 *   bench_clock.c     the tick clock
 *   bench_report.c    tables, targets, CSV
 *   bench_plot.c      PNG plot through gnuplot
 *   bench_progress.c  progress bar on stderr
 *   bench_advise.c    --advise: which data path for which size, and why
 *   bench_limits.c    what is refused before measuring, and why
 *   bench_doca_args.c DOCA Bench's flags, for doca_bench
 *   bench_doca_report.c DOCA Bench's result block and CSV layout, for doca_bench
 */
#ifndef BENCH_H_
#define BENCH_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <doca_error.h>

#define KIB ((size_t)1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)

#define BENCH_MAX_DEPTH 256   /* tasks in flight per thread */
#define BENCH_MAX_THREADS 64
#define BENCH_MAX_SIZES 64
/*
 * Largest size the command line reads (an overflow guard only).  What a run
 * accepts is what one DMA memcpy task may carry on the chosen device,
 * doca_dma_cap_task_memcpy_get_max_buf_size (bench_limits.c).
 */
#define BENCH_PARSE_MAX_SIZE (1024 * GIB)
#define BENCH_SIDE_CAP (32 * MIB) /* bytes of sources (and of destinations) per thread */

/* Exit status of the bench (documented in docs/benchmarks.md, --help and the man pages). */
enum bench_exit {
	BENCH_EXIT_OK = 0,
	BENCH_EXIT_USAGE = 1,
	BENCH_EXIT_FAILED = 2,	    /* a DOCA call, a copy or a verification failed */
	BENCH_EXIT_UNAVAILABLE = 3, /* the requested memory mode is not available here */
	BENCH_EXIT_OUTPUT = 4,	    /* an output file (--csv, --plot) cannot be written */
};

/* The program's name in messages: softdoca-bench or doca_bench. */
extern const char *bench_prog;

enum bench_mode { BENCH_THROUGHPUT, BENCH_LATENCY };
enum bench_mem { BENCH_MEM_LOCAL, BENCH_MEM_REMOTE };
enum bench_method {
	METHOD_DMA,
	METHOD_MEMCPY,
	METHOD_PVR,
	METHOD_COMCH,
	METHOD_COMCH_FP,
	METHOD_RDMA_WRITE,
	METHOD_RDMA_READ,
	METHOD_RDMA_SEND,
	METHOD_COUNT
};

struct bench_options {
	enum bench_mode mode;
	enum bench_mem mem;
	size_t sizes[BENCH_MAX_SIZES];
	unsigned int n_sizes;
	unsigned int queue_depth;
	double duration_s; /* per measurement */
	uint64_t tasks;	   /* per thread and measurement; 0: use duration_s */
	unsigned int threads;
	unsigned int repeat; /* runs per measurement; the best is kept */
	const char *pci_addr;
	const char *csv_path;
	const char *csv_option; /* the flag that named csv_path, for messages (NULL: --csv) */
	const char *plot_path;
	const char *timing_path; /* --export-timing: a card timing table from the run's DMA rows */
	bool csv_append; /* add rows to an existing CSV file instead of replacing it */
	int cores[BENCH_MAX_THREADS]; /* --core-list: worker i runs on cores[i % n_cores] */
	unsigned int n_cores;	      /* 0: one allowed CPU per worker, in order */
	bool progress; /* --progress: draw the bar even when stderr is not a tty */
	bool verify;
	bool baselines;
	bool targets;
	size_t advise_sizes[BENCH_MAX_SIZES];
	unsigned int n_advise;
	double app_work_s; /* --app-work: the program's own work per job, 0: none */
	bool wait_event;   /* --wait event: sleep on the PE's notification handle when nothing is done */
	bool remote_output; /* the destination lives in the companion too (doca_bench --use-remote-output-buffers) */
	const char *exporter_pci; /* the companion exports on this device (doca_bench --representor); NULL: any */
	bool doca_report;   /* DOCA Bench's result block and CSV layout (doca_bench) */
	enum bench_method step; /* the method measured first at each size: dma, or rdma_send for doca_rdma steps */
	const char *step_name;	/* doca_bench's --pipeline-steps value, for its report */
};

/* Whether the run needs the companion process: a source or a destination in another process. */
static inline bool bench_uses_companion(const struct bench_options *o)
{
	return o->mem == BENCH_MEM_REMOTE || o->remote_output;
}

/* One measurement of the plan. */
struct bench_point {
	size_t size;
	enum bench_method method;
	enum bench_mode mode;
	unsigned int threads;
	unsigned int depth;
};

#define BENCH_NOTE_LEN 160

struct bench_latency {
	double p50, p90, p99, p999, max; /* nanoseconds */
	double min, mean, p95, p9999;    /* the rest of DOCA Bench's latency report */
};

struct bench_result {
	struct bench_point point;
	bool available;		    /* false: not measured, `note` says why */
	char note[BENCH_NOTE_LEN];  /* why not, or a remark on how it was measured */
	unsigned int depth_used;    /* tasks or copies in flight per thread */
	uint64_t ops;		    /* all threads */
	double seconds;		    /* longest thread */
	double ops_per_s;
	double bytes_per_s;
	struct bench_latency lat;   /* latency mode only */
	double cpu_share;	    /* time on a CPU / wall time, averaged over the threads */
	uint64_t errors;	    /* failed tasks or copies */
	uint64_t bad_bytes_jobs;    /* --verify: jobs whose destination differed */
};

/* ---- clock (bench_clock.c) ---- */

void bench_clock_init(void);
uint64_t bench_ticks(void);
/* Ordered read, for latency stamps (not moved before earlier work). */
uint64_t bench_ticks_fenced(void);
double bench_ticks_to_s(uint64_t ticks);
uint64_t bench_s_to_ticks(double seconds);
/* --app-work: keep this thread busy for `ticks`, as a program's own computation would. */
void bench_app_work(uint64_t ticks);

/*
 * Share of a span of wall time that the calling thread spent on a CPU:
 * below 1 means it was preempted (a busy machine), and the span's numbers
 * understate what the code can do.
 */
struct bench_cpu_span {
	uint64_t wall_ns;
	uint64_t cpu_ns;
};
void bench_cpu_span_begin(struct bench_cpu_span *s);
double bench_cpu_span_end(const struct bench_cpu_span *s);

/* ---- latency histogram (bench_hist.c) ---- */

#define BENCH_HIST_BUCKETS 4608

struct bench_hist {
	uint64_t count;
	uint64_t max_ns;
	uint64_t min_ns;
	uint64_t sum_ns;
	uint64_t buckets[BENCH_HIST_BUCKETS];
};

void bench_hist_reset(struct bench_hist *h);
void bench_hist_add(struct bench_hist *h, uint64_t ns);
void bench_hist_merge(struct bench_hist *into, const struct bench_hist *from);
/* Value (ns) at or below which `fraction` of the samples lie. */
double bench_hist_percentile(const struct bench_hist *h, double fraction);
void bench_hist_summary(const struct bench_hist *h, struct bench_latency *lat);

/* ---- data pattern and checks ---- */

/* Byte `offset` of every source region (local, remote and expected copies). */
static inline uint8_t bench_pattern(size_t offset)
{
	return (uint8_t)(((uint32_t)offset * 0x9E3779B1u) >> 24);
}

void bench_fill_pattern(uint8_t *p, size_t len, size_t first_offset);

/* ---- the remote companion (bench_remote.c) ---- */

struct bench_remote {
	pid_t pid;
	int to_child;		/* closing it tells the companion to leave */
	uint64_t addr;		/* start of its exported buffer (the sources), in its address space */
	uint64_t dst_addr;	/* the destinations, right after the sources in the same export */
	size_t len;		/* bytes of each side */
	uint8_t desc[1024];	/* the export descriptor */
	size_t desc_len;
	char exporter_pci[16];
};

/*
 * Fork the companion and wait for its descriptor; BENCH_EXIT_*.  It exports
 * `len` bytes of sources and `len` of destinations, on the device at
 * `exporter_pci` (NULL: a host-side one if there is one).
 */
int bench_remote_start(struct bench_remote *r, size_t len, const char *exporter_pci);
void bench_remote_stop(struct bench_remote *r);

/* ---- worker pool (bench_pool.c) and DMA (bench_dma.c) ---- */

struct bench_worker;
struct bench;

struct bench {
	struct bench_options opts;
	struct doca_dev *dev; /* the DMA device, shared by the workers */
	char dev_pci[16];
	size_t side_len;      /* per thread: bytes of sources and of destinations */
	struct bench_remote remote;
	bool remote_started;

	/* worker pool */
	unsigned int n_workers;
	struct bench_worker *workers[BENCH_MAX_THREADS];
	pthread_barrier_t go;
	pthread_barrier_t done;
	const struct bench_point *current;
	unsigned int active; /* workers taking part in `current` */
	bool quit;
	bool pinned;
};

/*
 * Open the device, make `threads` workers with memory for jobs up to
 * `largest` bytes and their DOCA objects; BENCH_EXIT_*
 */
int bench_setup(struct bench *b, size_t largest, unsigned int threads);
void bench_teardown(struct bench *b);

/* Run one point on the workers and gather the result. */
void bench_run_point(struct bench *b, const struct bench_point *p, struct bench_result *r);

/* Per-thread parts, called by the pool in the worker thread. */
struct bench_worker_result {
	uint64_t ops;
	uint64_t ticks;
	double cpu_share;
	uint64_t errors;
	uint64_t bad_jobs;
	doca_error_t first_error;
	unsigned int depth_used;
	bool unavailable; /* the method is refused here (not a failure): note says why */
	char note[BENCH_NOTE_LEN];
};

struct bench_worker *bench_worker_create(struct bench *b, unsigned int index, char *why, size_t why_len);
void bench_worker_destroy(struct bench_worker *w);
struct bench_hist *bench_worker_hist(struct bench_worker *w);
void bench_worker_run(struct bench_worker *w, const struct bench_point *p, struct bench_worker_result *out);

/* Measurement loops, in the worker thread (bench_dma.c, bench_cpu.c). */
void bench_dma_point(struct bench_worker *w, const struct bench_point *p, struct bench_worker_result *out);
void bench_cpu_point(struct bench_worker *w, const struct bench_point *p, struct bench_worker_result *out);

/* What a measurement loop needs of its worker (bench_pool.c). */
struct bench_span {
	uint8_t *src;	     /* local source side (or local copy of the remote one) */
	uint8_t *dst;	     /* local destination side */
	uint64_t remote_src; /* remote source side in the companion, 0 when local */
	uint64_t remote_dst; /* remote destination side in the companion, 0 when local */
	pid_t remote_pid;
	size_t len;
};
void bench_worker_span(const struct bench_worker *w, struct bench_span *span);
const struct bench_options *bench_worker_opts(const struct bench_worker *w);
bool bench_worker_is_first(const struct bench_worker *w);

/* How long each measurement runs: ticks for the timed part, and the warm-up. */
struct bench_budget {
	uint64_t measure_ticks; /* 0: count mode */
	uint64_t warm_ticks;
	uint64_t count;		/* count mode: jobs per thread */
	uint64_t warm_count;
};
void bench_budget_for(const struct bench_options *o, struct bench_budget *budget);

/* Whether `info` is the kind of device the run asks for (--pci-addr, --mem remote). */
struct doca_devinfo;
bool bench_device_wanted(const struct bench_options *o, struct doca_devinfo *info);

/* Per thread: bytes of sources (and of destinations) for jobs up to `largest`. */
size_t bench_side_len_for(size_t largest, unsigned int depth);

/* Jobs in flight for a size: limited by the depth and by the side length. */
unsigned int bench_slots_for(size_t side_len, size_t size, unsigned int depth);

/* ---- measuring (bench_measure.c) ---- */

struct bench_comch;

/* One measurement of any method (Comch through `comch`, n/a with `comch_why` without it). */
void bench_measure(struct bench *b, struct bench_comch *comch, const char *comch_why, const struct bench_point *p,
		   struct bench_result *r);

/*
 * The `n` points, --repeat times in turns; best[i] keeps the best run of
 * points[i].  Advances *progress_index by n per round.
 */
void bench_measure_group(struct bench *b, struct bench_comch *comch, const char *comch_why,
			 const struct bench_point *points, unsigned int n, struct bench_result *best,
			 unsigned int *progress_index);

/* ---- Comch messages (bench_comch.c) ---- */

/* NULL with `why` when the library or a Comch pair is not available. */
struct bench_comch *bench_comch_open(const struct bench_options *o, char *why, size_t why_len);
void bench_comch_point(struct bench_comch *c, const struct bench_point *p, struct bench_result *r);

/* What the fast-path measurement borrows from the Comch pair (bench_comch.c). */
struct tool_comch_lib;
struct bench_comch_link {
	const struct bench_options *opts;
	struct tool_comch_lib *lib;
	struct doca_pe *pe;			  /* the pair's PE, also the fast path's */
	struct doca_dev *server_dev, *client_dev; /* DPU side, host side */
	struct doca_comch_connection *server_conn, *client_conn;
	const uint32_t *consumer_id;		  /* last id the client's new-consumer event gave, 0 none */
};
void bench_comch_link(struct bench_comch *c, struct bench_comch_link *link);
/* The Comch fast path (bench_comch_fp.c): host producer -> DPU consumer, one PE. */
void bench_comch_fp_point(struct bench_comch *c, const struct bench_point *p, struct bench_result *r);
void bench_comch_close(struct bench_comch *c);

/* ---- DOCA RDMA (bench_rdma.c) ---- */

/* RDMA write, read or send (p->method) between two contexts of this process on one PE. */
void bench_rdma_point(const struct bench_options *o, const struct bench_point *p, struct bench_result *r);

/* ---- progress bar (bench_progress.c) ---- */

void bench_progress_init(bool enabled, double planned_seconds, unsigned int points);
void bench_progress_point(unsigned int index, const char *label);
void bench_progress_tick(void);
void bench_progress_done(void);

/* ---- output (bench_report.c, bench_plot.c) ---- */

const char *bench_method_name(enum bench_method m);
const char *bench_mode_name(enum bench_mode m);
const char *bench_mem_name(enum bench_mem m);
void bench_format_size(size_t size, char *buf, size_t len);
void bench_format_rate(double per_s, char *buf, size_t len);

void bench_print_header(const struct bench *b);
void bench_print_results(const struct bench *b, const struct bench_result *r, unsigned int n);
void bench_print_targets(const struct bench_result *r, unsigned int n);
/* --app-work: how much of the program's own work the DMA copies overlapped. */
void bench_print_overlap(const struct bench *b, const struct bench_result *r, unsigned int n);
/*
 * A CSV file for writing: appended to when `append` and it has content,
 * else replaced and given `header`; NULL (said on stderr) when it cannot be
 * opened.  bench_csv_close: 0, or BENCH_EXIT_OUTPUT when the writes failed.
 */
FILE *bench_csv_open(const char *path, bool append, const char *header);
int bench_csv_close(FILE *f, const char *path);
/* 0, or BENCH_EXIT_FAILED when the file cannot be written. */
int bench_write_csv(const char *path, const struct bench *b, const struct bench_result *r, unsigned int n);
/* --export-timing FILE (bench_timing.c): the run's DMA throughput rows as a card timing table. */
int bench_write_timing(const char *path, const struct bench *b, const struct bench_result *r, unsigned int n);
int bench_write_plot(const char *png, const struct bench *b, const struct bench_result *r, unsigned int n);

/* doca_bench (bench_doca_report.c): DOCA Bench's "Aggregate stats" block, and its CSV layout. */
void bench_print_doca_results(const struct bench_result *r, unsigned int n, enum bench_method step);
int bench_write_doca_csv(const char *path, const struct bench *b, const struct bench_result *r, unsigned int n);

/* The memcpy result of the same size, threads and mode, or NULL. */
const struct bench_result *bench_find(const struct bench_result *r, unsigned int n, size_t size,
				      enum bench_method m, enum bench_mode mode, unsigned int threads);

/* ---- --advise (bench_advise.c) ---- */

int bench_advise(struct bench *b, struct bench_comch *comch, const char *comch_why);

/* ---- command line (bench_args.c, bench_doca_args.c) ---- */

/* BENCH_EXIT_OK, BENCH_EXIT_USAGE; *done when --help/--version was handled. */
int bench_parse_args(int argc, char **argv, struct bench_options *o, bool *done);
/* The same from DOCA Bench's flags (doca_bench). */
int bench_doca_parse_args(int argc, char **argv, struct bench_options *o, bool *done);

/* Shared by both parsers (bench_args.c). */
void bench_default_options(struct bench_options *o);
/* A size: digits with an optional binary suffix; NULL, or why not. */
const char *bench_parse_size(const char *text, size_t *out);
/* A CPU list "0,3,6-10" into o->cores; NULL, or why not. */
const char *bench_parse_core_list(const char *text, struct bench_options *o);
void bench_print_version(void);

/* ---- checks before measuring (bench_limits.c) ---- */

/*
 * Refuse, before anything is measured, what cannot work: job sizes over the
 * device's per-task limit or the machine's memory, cores the process may
 * not use, output files that cannot be written.  BENCH_EXIT_*.
 */
int bench_check_before_measuring(const struct bench_options *o, size_t largest, unsigned int threads);

#endif /* BENCH_H_ */
