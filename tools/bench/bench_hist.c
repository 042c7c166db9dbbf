/*
 * bench_hist.c - latency histogram with bounded error and fixed size, so
 * recording a sample is an array increment (no allocation while measuring).
 *
 * Values below 256 ns have their own bucket; above, each power of two is
 * split in 128 buckets, so a reported percentile is within 0.8 % of the
 * true sample.  The minimum, the maximum and the sum (for the mean) are
 * kept exactly.
 */
#include <string.h>

#include "bench.h"

#define EXACT 256u
#define SUB_BITS 7u
#define SUB (1u << SUB_BITS)

static unsigned int bucket_of(uint64_t ns)
{
	unsigned int e;
	unsigned int idx;

	if (ns < EXACT)
		return (unsigned int)ns;
	e = 63u - (unsigned int)__builtin_clzll(ns); /* >= 8 */
	idx = EXACT + (e - 8u) * SUB + (unsigned int)((ns >> (e - SUB_BITS)) - SUB);
	return idx < BENCH_HIST_BUCKETS ? idx : BENCH_HIST_BUCKETS - 1;
}

/* Middle of the bucket's range. */
static double value_of(unsigned int idx)
{
	unsigned int e;
	unsigned int sub;
	double lo;
	double width;

	if (idx < EXACT)
		return (double)idx;
	e = (idx - EXACT) / SUB + 8u;
	sub = (idx - EXACT) % SUB + SUB;
	width = (double)(1ULL << (e - SUB_BITS));
	lo = (double)sub * width;
	return lo + width / 2;
}

void bench_hist_reset(struct bench_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void bench_hist_add(struct bench_hist *h, uint64_t ns)
{
	h->buckets[bucket_of(ns)]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	if (h->count == 1 || ns < h->min_ns)
		h->min_ns = ns;
}

void bench_hist_merge(struct bench_hist *into, const struct bench_hist *from)
{
	for (unsigned int i = 0; i < BENCH_HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	if (from->count != 0 && (into->count == 0 || from->min_ns < into->min_ns))
		into->min_ns = from->min_ns;
	into->count += from->count;
	into->sum_ns += from->sum_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
}

double bench_hist_percentile(const struct bench_hist *h, double fraction)
{
	uint64_t rank;
	uint64_t seen = 0;

	if (h->count == 0)
		return 0;
	rank = (uint64_t)(fraction * (double)h->count + 0.999999);
	if (rank == 0)
		rank = 1;
	for (unsigned int i = 0; i < BENCH_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			double v = value_of(i);

			return v > (double)h->max_ns ? (double)h->max_ns : v;
		}
	}
	return (double)h->max_ns;
}

void bench_hist_summary(const struct bench_hist *h, struct bench_latency *lat)
{
	lat->p50 = bench_hist_percentile(h, 0.50);
	lat->p90 = bench_hist_percentile(h, 0.90);
	lat->p95 = bench_hist_percentile(h, 0.95);
	lat->p99 = bench_hist_percentile(h, 0.99);
	lat->p999 = bench_hist_percentile(h, 0.999);
	lat->p9999 = bench_hist_percentile(h, 0.9999);
	lat->max = (double)h->max_ns;
	lat->min = (double)h->min_ns;
	lat->mean = h->count != 0 ? (double)h->sum_ns / (double)h->count : 0;
}
