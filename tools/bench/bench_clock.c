/*
 * bench_clock.c - a cheap clock for the measurement loops.
 *
 * On x86 the time-stamp counter (calibrated once against CLOCK_MONOTONIC)
 * costs a few nanoseconds, so the loops can read it often without
 * disturbing what they measure; elsewhere CLOCK_MONOTONIC is used directly.
 */
#include <time.h>

#include "bench.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define BENCH_HAVE_TSC 1
#else
#define BENCH_HAVE_TSC 0
#endif

static double ticks_per_s = 1e9;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t bench_ticks(void)
{
#if BENCH_HAVE_TSC
	return __rdtsc();
#else
	return mono_ns();
#endif
}

uint64_t bench_ticks_fenced(void)
{
#if BENCH_HAVE_TSC
	_mm_lfence();
	return __rdtsc();
#else
	return mono_ns();
#endif
}

/* 20 ms against the monotonic clock: good to well under 0.1 %. */
void bench_clock_init(void)
{
#if BENCH_HAVE_TSC
	uint64_t n0 = mono_ns();
	uint64_t t0 = bench_ticks_fenced();
	uint64_t n1;
	uint64_t t1;

	do {
		n1 = mono_ns();
	} while (n1 - n0 < 20000000ULL);
	t1 = bench_ticks_fenced();
	if (t1 > t0)
		ticks_per_s = (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
#endif
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void bench_cpu_span_begin(struct bench_cpu_span *s)
{
	s->wall_ns = clock_ns(CLOCK_MONOTONIC);
	s->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

double bench_cpu_span_end(const struct bench_cpu_span *s)
{
	uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - s->cpu_ns;
	uint64_t wall = clock_ns(CLOCK_MONOTONIC) - s->wall_ns;
	double share = wall == 0 ? 1.0 : (double)cpu / (double)wall;

	return share > 1.0 ? 1.0 : share;
}

double bench_ticks_to_s(uint64_t ticks)
{
	return (double)ticks / ticks_per_s;
}

uint64_t bench_s_to_ticks(double seconds)
{
	return (uint64_t)(seconds * ticks_per_s);
}

void bench_app_work(uint64_t ticks)
{
	uint64_t t0 = bench_ticks();

	while (bench_ticks() - t0 < ticks)
		__asm__ __volatile__("" ::: "memory");
}
