/*
 * sd_time.h - how much slower than an idle machine this test runs, so that
 * a time bound is checked as "the documented bound, plus a margin that
 * grows with the machine", never as a fixed number of milliseconds.
 *
 * sd_time_scale() is the product of:
 *   - the sanitizer's own slowdown (ASan/UBSan builds: x3);
 *   - how loaded the machine is right now, the larger of the 1-minute load
 *     average per CPU and the worst oversleep of a short calibration run
 *     (ten 2 ms sleeps), capped at x20;
 * or SOFTDOCA_TEST_TIME_SCALE when set (a number >= 1, for a machine the
 * calibration misjudges).  Only margins and waits for something that must
 * happen are scaled: a bound the library documents is still checked as the
 * library documents it, with the margin added, so a broken bound still fails.
 */
#ifndef SD_TIME_H
#define SD_TIME_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define SD_TIME_SANITIZER_SLOWDOWN 3.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define SD_TIME_SANITIZER_SLOWDOWN 3.0
#endif
#endif
#ifndef SD_TIME_SANITIZER_SLOWDOWN
#define SD_TIME_SANITIZER_SLOWDOWN 1.0
#endif

#define SD_TIME_MAX_LOAD_FACTOR 20.0

static inline double sd_time_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The 1-minute load average per online CPU (0 when unknown). */
static inline double sd_time_load_per_cpu(void)
{
	double load = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen("/proc/loadavg", "r");

	if (f != NULL) {
		if (fscanf(f, "%lf", &load) != 1)
			load = 0;
		fclose(f);
	}
	return cpus > 0 ? load / (double)cpus : 0;
}

/* The worst ratio of slept to asked time over ten 2 ms sleeps. */
static inline double sd_time_oversleep(void)
{
	double worst = 1;

	for (int i = 0; i < 10; i++) {
		struct timespec ts = {0, 2000000L};
		double t0 = sd_time_now_s(), ratio;

		nanosleep(&ts, NULL);
		ratio = (sd_time_now_s() - t0) / 0.002;
		if (ratio > worst)
			worst = ratio;
	}
	return worst;
}

/* Computed once per process; printed so that a failure's log shows it. */
static inline double sd_time_scale(void)
{
	static double scale;
	const char *env;
	double load, slept;

	if (scale > 0)
		return scale;
	env = getenv("SOFTDOCA_TEST_TIME_SCALE");
	if (env != NULL && atof(env) >= 1) {
		scale = atof(env);
	} else {
		load = sd_time_load_per_cpu();
		slept = sd_time_oversleep();
		if (slept > load)
			load = slept;
		if (load < 1)
			load = 1;
		if (load > SD_TIME_MAX_LOAD_FACTOR)
			load = SD_TIME_MAX_LOAD_FACTOR;
		scale = SD_TIME_SANITIZER_SLOWDOWN * load;
	}
	printf("time scale x%.1f (sanitizer x%.0f)\n", scale, SD_TIME_SANITIZER_SLOWDOWN);
	return scale;
}

/* A margin of `ms` on an idle machine, in milliseconds here. */
static inline double sd_time_margin_ms(double ms)
{
	return ms * sd_time_scale();
}

#endif /* SD_TIME_H */
