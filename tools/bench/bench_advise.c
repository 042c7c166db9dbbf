/*
 * bench_advise.c - --advise SIZE[,SIZE...]: which data path to use for
 * which size, with the numbers and the rule that decided.
 *
 * Candidates, each measured for the same time on the same buffers:
 *   dma     a DOCA DMA memcpy task (always);
 *   comch   a Comch message, when libdoca_comch is present and the size
 *           fits in one message;
 *   comch_fp the Comch fast path: a producer's send into a buffer a
 *           consumer posted, when libdoca_comch is present;
 *   rdma_write, rdma_read  a DOCA RDMA write into (read from) memory a
 *           peer context of this process exported for RDMA: the network
 *           leg's API, measured where the bytes stay on this machine;
 *   rdma_send  a DOCA RDMA send into a receive the peer context posted
 *           (when the size fits in one RDMA message);
 *   memcpy  a plain CPU copy (local memory), or process_vm_readv when the
 *           source is in another process (--mem remote).
 * The rule (also in docs/benchmarks.md and softdoca-bench(1)):
 *   1. DMA is recommended when it reaches at least ADVISE_DMA_MARGIN of the
 *      fastest candidate's bytes per second: it is asynchronous (the copy
 *      can run beside the program's own work) and it is the one path that
 *      also reaches another process's memory through the DOCA API.
 *   2. Otherwise the fastest candidate is recommended.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define ADVISE_DMA_MARGIN 0.90

struct candidate {
	struct bench_result r;
	bool measured;
};

static void measure(struct bench *b, struct bench_comch *comch, const char *comch_why, size_t size,
		    struct candidate c[METHOD_COUNT], unsigned int *progress_index)
{
	enum bench_method cpu = b->opts.mem == BENCH_MEM_REMOTE ? METHOD_PVR : METHOD_MEMCPY;
	enum bench_method order[] = {METHOD_DMA, cpu, METHOD_COMCH, METHOD_COMCH_FP, METHOD_RDMA_WRITE,
				     METHOD_RDMA_READ,  METHOD_RDMA_SEND};
	enum { N = sizeof(order) / sizeof(order[0]) };
	struct bench_point p[N];
	struct bench_result r[N];

	for (unsigned int k = 0; k < N; k++)
		p[k] = (struct bench_point){.size = size,
					   .method = order[k],
					   .mode = BENCH_THROUGHPUT,
					   .threads = order[k] >= METHOD_COMCH ? 1 : b->opts.threads,
					   .depth = b->opts.queue_depth};
	bench_measure_group(b, comch, comch_why, p, N, r, progress_index);
	for (unsigned int k = 0; k < N; k++) {
		struct candidate *x = &c[order[k]];

		x->r = r[k];
		x->measured = x->r.available && x->r.errors == 0 && x->r.bad_bytes_jobs == 0 && x->r.ops > 0;
	}
}

static void print_candidate(const struct candidate *x, enum bench_method m)
{
	char rate[32];

	if (!x->measured) {
		printf("  %-10s %s\n", bench_method_name(m),
		       x->r.note[0] != '\0' ? x->r.note : (x->r.errors != 0 ? "failed" : "n/a"));
		return;
	}
	bench_format_rate(x->r.ops_per_s, rate, sizeof(rate));
	printf("  %-10s %9.2f GB/s  %10s jobs/s\n", bench_method_name(m), x->r.bytes_per_s / 1e9, rate);
}

/* Apply the rule; prints the recommendation line. */
static void recommend(const struct candidate c[METHOD_COUNT])
{
	int best = -1;
	const struct candidate *dma = &c[METHOD_DMA];

	for (int m = 0; m < METHOD_COUNT; m++)
		if (c[m].measured && (best < 0 || c[m].r.bytes_per_s > c[best].r.bytes_per_s))
			best = m;
	if (best < 0) {
		printf("  -> no recommendation: no candidate could be measured\n");
		return;
	}
	if (dma->measured && dma->r.bytes_per_s >= ADVISE_DMA_MARGIN * c[best].r.bytes_per_s) {
		if (best == METHOD_DMA)
			printf("  -> dma (rule 1: DMA is the fastest)\n");
		else
			printf("  -> dma (rule 1: DMA reaches %.2fx of the fastest, %s, within the %.2fx margin)\n",
			       dma->r.bytes_per_s / c[best].r.bytes_per_s, bench_method_name((enum bench_method)best),
			       ADVISE_DMA_MARGIN);
		return;
	}
	if (dma->measured)
		printf("  -> %s (rule 2: the fastest; DMA reaches only %.2fx of it, below the %.2fx margin)\n",
		       bench_method_name((enum bench_method)best), dma->r.bytes_per_s / c[best].r.bytes_per_s,
		       ADVISE_DMA_MARGIN);
	else
		printf("  -> %s (rule 2: the fastest; DMA could not be measured)\n",
		       bench_method_name((enum bench_method)best));
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : fallback;
}

/*
 * Say whose numbers these are.  Every candidate ran on this machine: "dma"
 * on the engine softdoca gives the device, which moves the bytes with this
 * machine's CPU, not on a card's DMA engine.
 */
static void print_what_was_measured(const struct bench *b)
{
	printf("Measured on this machine: dma ran on %s through softdoca's %s engine (SOFTDOCA_ENGINE;\n"
	       "  DMA workers: %s), so its copies used this machine's CPU, as memcpy, comch, comch_fp and rdma did.\n"
	       "  On a BlueField or ConnectX the DMA engine moves the bytes without the CPU, at the card's\n"
	       "  own rates: this advice is for running on softdoca here; for a card, measure there with\n"
	       "  DOCA Bench (doca_bench --pipeline-steps doca_dma).\n",
	       b->dev_pci, env_or("SOFTDOCA_ENGINE", "cpu"), env_or("SOFTDOCA_DMA_WORKERS", "0, copies inside doca_pe_progress"));
}

int bench_advise(struct bench *b, struct bench_comch *comch, const char *comch_why)
{
	const struct bench_options *o = &b->opts;
	struct candidate c[BENCH_MAX_SIZES][METHOD_COUNT];
	unsigned int total = o->n_advise * 6 * o->repeat;
	unsigned int index = 0;
	double planned = o->tasks != 0 ? 0 : total * (o->duration_s + (o->duration_s / 10 > 0.1 ? 0.1 : o->duration_s / 10));
	int rc = BENCH_EXIT_OK;

	memset(c, 0, sizeof(c));
	bench_progress_init(o->progress || (isatty(2) && planned > 2.0), planned, total);
	for (unsigned int i = 0; i < o->n_advise; i++)
		measure(b, comch, comch_why, o->advise_sizes[i], c[i], &index);
	bench_progress_done();
	printf("Advice: which data path for which job size (throughput, %s memory, %u thread%s for DMA and "
	       "the CPU copy)\n",
	       bench_mem_name(o->mem), o->threads, o->threads == 1 ? "" : "s");
	printf("Rule: 1. dma when it reaches >= %.2fx of the fastest candidate; 2. otherwise the fastest.\n",
	       ADVISE_DMA_MARGIN);
	/* Under a card timing model (docs/card-timing.md) the dma candidate runs at the modelled card's pace. */
	if (getenv("SOFTDOCA_CARD_TIMING") != NULL && *getenv("SOFTDOCA_CARD_TIMING") != '\0')
		printf("Card: the %s timing model; dma on %s is measured at that card's pace (never faster than this\n"
		       "  machine delivers it), the CPU copy and comch are this machine's: the advice is for a program\n"
		       "  on that card with CPUs like these.\n",
		       getenv("SOFTDOCA_CARD_TIMING"), b->dev_pci);
	else
		print_what_was_measured(b);
	for (unsigned int i = 0; i < o->n_advise; i++) {
		char size[32];

		bench_format_size(o->advise_sizes[i], size, sizeof(size));
		printf("\n%s:\n", size);
		print_candidate(&c[i][METHOD_DMA], METHOD_DMA);
		if (o->mem == BENCH_MEM_REMOTE)
			print_candidate(&c[i][METHOD_PVR], METHOD_PVR);
		else
			print_candidate(&c[i][METHOD_MEMCPY], METHOD_MEMCPY);
		print_candidate(&c[i][METHOD_COMCH], METHOD_COMCH);
		print_candidate(&c[i][METHOD_COMCH_FP], METHOD_COMCH_FP);
		print_candidate(&c[i][METHOD_RDMA_WRITE], METHOD_RDMA_WRITE);
		print_candidate(&c[i][METHOD_RDMA_READ], METHOD_RDMA_READ);
		print_candidate(&c[i][METHOD_RDMA_SEND], METHOD_RDMA_SEND);
		recommend(c[i]);
		for (int m = 0; m < METHOD_COUNT; m++)
			if (c[i][m].r.errors != 0 || c[i][m].r.bad_bytes_jobs != 0)
				rc = BENCH_EXIT_FAILED;
	}
	return rc;
}
