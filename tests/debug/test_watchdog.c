/*
 * SOFTDOCA_WATCHDOG: tasks in flight on a progress engine that nobody
 * progresses for that many seconds give one WARNING naming the engine, its
 * contexts and the count; once per episode.  A context that stays STOPPING
 * that long because its tasks are never freed is reported too.  0 turns the
 * watchdog off, and its thread exists only once a context was started.
 *
 * meson runs each case in its own process with its own SOFTDOCA_WATCHDOG.
 */
#include <time.h>

#include "debug_test.h"
#include "sd_threads.h"
#include "sd_time.h"

#define WATCHDOG_S 0.3 /* SOFTDOCA_WATCHDOG of the cases that judge reports (meson.build) */

static struct sd_fx fx;

/* Threads of this process named sd-watchdog (the engine's own threads, if any, have names of their own). */
static int watchdog_threads(void)
{
	return sd_threads_named("sd-watchdog", NULL, 0);
}

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void submit_copies(int n, int first)
{
	for (int i = first; i < first + n; i++) {
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = (uint64_t)i};

		REQUIRE(doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, (size_t)i * 64, 64),
							sd_fx_dst_buf(&fx, (size_t)i * 64, 64), ud, &t) == DOCA_SUCCESS);
		REQUIRE(doca_task_submit(doca_dma_task_memcpy_as_task(t)) == DOCA_SUCCESS);
	}
}

static void free_in_callback(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	(void)ok;
	(void)arg;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static int watchdog_records(void)
{
	char pe[96], ctx[96];

	snprintf(pe, sizeof(pe), "pe %p (pe1) has ", (void *)fx.pe);
	snprintf(ctx, sizeof(ctx), "(doca_dma %p: ", (void *)fx.ctx);
	return dt_log_count("[WRN]", DT_WORDS("[watchdog]", pe, ctx, "doca_pe_progress was not called on it for",
					      "call it in your loop"));
}

/*
 * Wait until `want` watchdog records arrived: the watchdog's bound plus a
 * margin that grows with the machine.  Returns the seconds waited.
 */
static double wait_for_records(int want)
{
	double t0 = sd_time_now_s(), limit = WATCHDOG_S + sd_time_margin_ms(700) / 1000;

	while (watchdog_records() < want && sd_time_now_s() - t0 < limit)
		nap_ms(10);
	return sd_time_now_s() - t0;
}

/* SOFTDOCA_WATCHDOG=0.3 */
static void an_unprogressed_engine_is_reported_once_per_episode(void)
{
	char three[128];
	double waited;

	CHECK_EQ_U64(watchdog_threads(), 0); /* no context started yet */
	REQUIRE(sd_fx_setup(&fx, 1 << 16, 16, 64));
	fx.log.on_task = free_in_callback;
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	CHECK_EQ_U64(watchdog_threads(), 1);

	dt_log_mark();
	submit_copies(3, 0);
	waited = wait_for_records(1);
	CHECK_EQ_U64(watchdog_records(), 1);
	CHECK(waited >= WATCHDOG_S * 0.9); /* never before the period is over */
	snprintf(three, sizeof(three), "has 3 task(s) in flight (doca_dma %p: 3)", (void *)fx.ctx);
	CHECK_EQ_U64(dt_log_count("[WRN]", DT_WORDS(three)), 1);
	nap_ms(700);
	CHECK_EQ_U64(watchdog_records(), 1); /* once for this episode */

	/* Progressed: the episode ends; an idle engine without tasks is fine. */
	while (doca_pe_progress(fx.pe) != 0)
		;
	dt_log_mark();
	nap_ms(800);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 0);

	/* A new stall is a new episode. */
	submit_copies(1, 3);
	waited = wait_for_records(1);
	CHECK_EQ_U64(watchdog_records(), 1);
	CHECK(waited >= WATCHDOG_S * 0.9);
	while (doca_pe_progress(fx.pe) != 0)
		;
	sd_fx_teardown(&fx);
}

/*
 * One run of 16 progress calls 50 ms apart; returns the longest gap between
 * two calls (or since the submit) that the machine actually allowed; -1
 * when the setup failed (the case is failed).
 */
static double progress_now_and_then(void)
{
	double last, gap, longest = 0;

	if (!sd_fx_setup(&fx, 1 << 16, 16, 64) || doca_ctx_start(fx.ctx) != DOCA_SUCCESS) {
		CHECK(!"a started DMA context to progress");
		return -1;
	}
	fx.log.on_task = free_in_callback;
	dt_log_mark();
	submit_copies(16, 0);
	last = sd_time_now_s();
	for (int i = 0; i < 16; i++) {
		nap_ms(50);
		gap = sd_time_now_s() - last;
		longest = gap > longest ? gap : longest;
		CHECK_EQ_U64(doca_pe_progress(fx.pe), 1);
		last = sd_time_now_s();
	}
	return longest;
}

/*
 * A program that progresses now and then is never reported, however long
 * its tasks wait (0.8 s here).  A run in which the machine itself held the
 * program longer than the watchdog's period proves nothing: it is repeated.
 */
static void a_progressing_program_is_never_reported(void)
{
	double longest = 0;

	for (int attempt = 0; attempt < 5; attempt++) {
		longest = progress_now_and_then();
		if (longest < 0)
			return;
		if (longest < WATCHDOG_S * 0.8) {
			CHECK_EQ_U64(dt_log_count(NULL, NULL), 0);
			sd_fx_teardown(&fx);
			return;
		}
		printf("attempt %d: the machine held the program %.3f s between two calls; again\n", attempt, longest);
		sd_fx_teardown(&fx);
	}
	CHECK(!"the machine let the program progress every 0.24 s in one of 5 attempts");
}

/* A context stuck in STOPPING because its tasks were never freed is reported, though progressed. */
static void a_context_waiting_for_doca_task_free_is_reported(void)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};
	enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;
	char who[96];

	REQUIRE(sd_fx_setup(&fx, 1 << 16, 4, 16)); /* its callbacks do not free their tasks */
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	REQUIRE(doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, 0, 0), sd_fx_dst_buf(&fx, 0, 64), ud, &t) ==
		DOCA_SUCCESS);
	dt_log_mark();
	REQUIRE(doca_task_submit(doca_dma_task_memcpy_as_task(t)) == DOCA_SUCCESS); /* fails: empty source */
	for (double t0 = sd_time_now_s();
	     dt_log_count("[WRN]", NULL) == 0 && sd_time_now_s() - t0 < WATCHDOG_S + sd_time_margin_ms(700) / 1000;) {
		(void)doca_pe_progress(fx.pe);
		nap_ms(50);
	}
	snprintf(who, sizeof(who), "doca_dma %p has been STOPPING for ", (void *)fx.ctx);
	CHECK_EQ_U64(dt_log_count("[WRN]", DT_WORDS("[watchdog]", who, "with 1 task(s) still allocated and none in flight",
						     "free them with doca_task_free", "it stops because memcpy task",
						     "[V3]")),
		     1);
	CHECK_EQ_U64(dt_log_count("[WRN]", NULL), 1);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	for (int i = 0; i < 100 && st != DOCA_CTX_STATE_IDLE; i++) {
		(void)doca_pe_progress(fx.pe);
		(void)doca_ctx_get_state(fx.ctx, &st);
	}
	CHECK(st == DOCA_CTX_STATE_IDLE);
	sd_fx_teardown(&fx);
}

/* SOFTDOCA_WATCHDOG=0 */
static void zero_turns_the_watchdog_off(void)
{
	REQUIRE(sd_fx_setup(&fx, 1 << 16, 16, 64));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	CHECK_EQ_U64(watchdog_threads(), 0);
	dt_log_mark();
	submit_copies(2, 0);
	nap_ms(700);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 0);
	while (doca_pe_progress(fx.pe) != 0)
		;
	sd_fx_teardown(&fx);
}

/* A value that is no number of seconds is said on stderr; the default applies. */
static void a_bad_value_is_refused_on_stderr(void)
{
	static char out[4096];
	const char *const env[] = {"SOFTDOCA_WATCHDOG=soon", NULL};

	CHECK_EQ_U64(dt_run_self("print_threads_after_start", env, out, sizeof(out)), 0);
	CHECK(strstr(out, "SOFTDOCA_WATCHDOG='soon' is not a number of seconds from 0 to 86400; the default 5 s "
			  "applies") != NULL);
	CHECK(strstr(out, "watchdog threads after start: 1") != NULL);
}

static void print_threads_after_start(void)
{
	REQUIRE(sd_fx_setup(&fx, 1 << 16, 4, 16));
	REQUIRE(doca_ctx_start(fx.ctx) == DOCA_SUCCESS);
	printf("watchdog threads after start: %d\n", watchdog_threads());
	sd_fx_teardown(&fx);
}

static const struct dt_case cases[] = {
	{"an_unprogressed_engine_is_reported_once_per_episode", an_unprogressed_engine_is_reported_once_per_episode},
	{"a_progressing_program_is_never_reported", a_progressing_program_is_never_reported},
	{"a_context_waiting_for_doca_task_free_is_reported", a_context_waiting_for_doca_task_free_is_reported},
	{"zero_turns_the_watchdog_off", zero_turns_the_watchdog_off},
	{"a_bad_value_is_refused_on_stderr", a_bad_value_is_refused_on_stderr},
	{"print_threads_after_start", print_threads_after_start},
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CASE\n", argv[0]);
		return 2;
	}
	dt_log_capture(DOCA_LOG_LEVEL_WARNING);
	return dt_run_case(cases, sizeof(cases) / sizeof(cases[0]), argv[1]);
}
