/*
 * bench_slices.h - what ucx_bench and rdma_bench share: their command-line
 * lookups, the clock, and the accumulator of the alternating slices in
 * which each point measures softdoca and raw UCX (so that a busy machine
 * slows both alike), with the median of the per-operation latencies.
 */
#ifndef BENCH_SLICES_H
#define BENCH_SLICES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAT_SAMPLES 20001
#define SLICES 10

/* What the slices of one method at one point add up to. */
struct acc {
	double bytes, seconds;
	double lat[LAT_SAMPLES]; /* microseconds per operation */
	unsigned nlat;
};

static inline void acc_op(struct acc *a, double us)
{
	if (a->nlat < LAT_SAMPLES)
		a->lat[a->nlat++] = us;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static inline double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n != 0 ? v[n / 2] : 0;
}

/* The q-quantile (0..1) of the sorted samples (call median first, which sorts them). */
static inline double quantile(const double *sorted, unsigned n, double q)
{
	return n != 0 ? sorted[(unsigned)(q * (n - 1))] : 0;
}

/* The mean time per operation of all slices, which a stall moves and a median hides. */
static inline double mean_us(const struct acc *a, double op_bytes)
{
	return a->bytes != 0 ? a->seconds * 1e6 * op_bytes / a->bytes : 0;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The value after `key` among argv[2..], or dflt. */
static inline const char *arg(int argc, char **argv, const char *key, const char *dflt)
{
	for (int i = 2; i + 1 < argc; i++)
		if (strcmp(argv[i], key) == 0)
			return argv[i + 1];
	return dflt;
}

static inline bool flag(int argc, char **argv, const char *key)
{
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], key) == 0)
			return true;
	return false;
}

#endif /* BENCH_SLICES_H */
