/*
 * blist.h - helpers shared by the blist_*.c programs, which each assert one
 * or more of the library behaviours B1..B20 that the official DOCA Core
 * samples rely on (the mapping is in docs/b-list.md).
 *
 * Every blist program runs twice under meson: with the default engine and
 * with SOFTDOCA_DMA_WORKERS=2, where copies run on library threads.  In the
 * second mode doca_pe_progress may return 0 while a worker is still
 * copying, so every wait here polls until its condition holds, bounded by
 * a deadline, and never stops at the first idle progress call.
 *
 * Include it instead of flows.h (it includes flows.h and sd_test.h).
 */
#ifndef BLIST_H
#define BLIST_H

#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include <doca_log.h>

#include "flows.h"

/* ------------------------------------------------------------------------ */
/* The program's main thread (application callbacks run only there)   */
/* ------------------------------------------------------------------------ */

static pthread_t blist_main_thread;

static inline bool blist_on_main_thread(void)
{
	return pthread_equal(pthread_self(), blist_main_thread) != 0;
}

/* ------------------------------------------------------------------------ */
/* SDK log capture: every record at WARNING or above goes to a temp file     */
/* ------------------------------------------------------------------------ */

static FILE *blist_logf;
static long blist_log_from;

static inline void blist_log_mark(void)
{
	fflush(blist_logf);
	fseek(blist_logf, 0, SEEK_END);
	blist_log_from = ftell(blist_logf);
}

/* SDK records (lines) logged since the last mark; each is echoed to stderr. */
static inline int blist_log_records(void)
{
	char line[4096];
	int n = 0;

	fflush(blist_logf);
	fseek(blist_logf, blist_log_from, SEEK_SET);
	while (fgets(line, sizeof(line), blist_logf) != NULL) {
		fprintf(stderr, "[%s] SDK record: %s", sd_test_case_name, line);
		n++;
	}
	fseek(blist_logf, 0, SEEK_END);
	return n;
}

/* Call first in main(): remembers the main thread and captures the SDK log. */
static inline void blist_init(void)
{
	struct doca_log_backend *backend = NULL;

	blist_main_thread = pthread_self();
	blist_logf = tmpfile();
	if (blist_logf == NULL || doca_log_backend_create_with_file_sdk(blist_logf, &backend) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot capture the SDK log\n");
		exit(1);
	}
	blist_log_mark();
}

/* ------------------------------------------------------------------------ */
/* Waiting                                                                   */
/* ------------------------------------------------------------------------ */

static inline void blist_sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/*
 * Progress until cond(arg) holds; a deadline turns a lost report into a
 * failed case.  Returns the number of calls that returned non-zero.
 */
static inline unsigned long blist_poll_until(struct doca_pe *pe, bool (*cond)(void *arg), void *arg,
					     const char *what)
{
	double deadline = flow_now() + FLOW_DEADLINE_SEC;
	unsigned long busy = 0;

	while (!cond(arg)) {
		if (doca_pe_progress(pe))
			busy++;
		/* Checked on busy calls too: a PE kept busy forever is a stall as well. */
		if (flow_now() > deadline) {
			fprintf(stderr, "[%s] hung waiting for %s\n", sd_test_case_name, what);
			CHECK(!"progress stalled");
			break;
		}
	}
	return busy;
}

static inline bool blist_ctx_is_idle(void *ctx)
{
	enum doca_ctx_states s = DOCA_CTX_STATE_RUNNING;

	return doca_ctx_get_state((struct doca_ctx *)ctx, &s) == DOCA_SUCCESS && s == DOCA_CTX_STATE_IDLE;
}

/* Progress until the context reaches IDLE (bounded). */
static inline void blist_wait_idle(struct doca_pe *pe, struct doca_ctx *ctx)
{
	blist_poll_until(pe, blist_ctx_is_idle, ctx, "the context to reach IDLE");
}

/* ------------------------------------------------------------------------ */
/* Patterns                                                                  */
/* ------------------------------------------------------------------------ */

/* A byte pattern that differs per seed and per position (never all equal). */
static inline uint8_t blist_pattern(uint32_t seed, size_t i)
{
	uint32_t x = seed * 2654435761u + (uint32_t)i * 40503u + (uint32_t)(i >> 8) * 97u;

	return (uint8_t)(x ^ (x >> 13) ^ (x >> 24));
}

static inline void blist_fill(uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = blist_pattern(seed, i);
}

/* Index of the first byte that does not hold the pattern, or len. */
static inline size_t blist_first_mismatch(const uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != blist_pattern(seed, i))
			return i;
	return len;
}

/* Index of the first byte that is not `value`, or len. */
static inline size_t blist_first_not(const uint8_t *p, size_t len, uint8_t value)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != value)
			return i;
	return len;
}

#endif /* BLIST_H */
