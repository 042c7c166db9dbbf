/*
 * A failed task says why, in words, at the default level: one ERROR record
 * of doca_pe_progress per failed task, before its error callback, naming
 * the task, the rule it broke and the fix, with the rule's code in brackets
 * at the end.  The follow-on errors of the context that the failure stops
 * say why it stops and what to do; the first one repeats the reason (the
 * IN_PROGRESS of doca_ctx_stop is no error: it says so at INFO only).
 *
 * The cases are the mistakes a new user makes: a read-only destination, an
 * mmap without the device, a destination taken with
 * doca_buf_inventory_buf_get_by_data (no room after its data), a source
 * over the device's size limit.  meson runs the program once with the
 * default engine and once with worker threads (SOFTDOCA_DMA_WORKERS),
 * where the task fails on another thread.
 */
#include "debug_test.h"

#define LIMIT (64u * 1024u) /* dma_max_buf_size of this test's topology */

static struct sd_fx fx;
static struct doca_dev *own_dev; /* a second reference: extra mmaps outlive the fixture's */
static uint8_t extra_mem[2 * LIMIT];
static int errors_at_callback = -1; /* ERROR records when the first error callback ran */

static void note_records_at_callback(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	(void)task;
	(void)arg;
	if (!ok && errors_at_callback < 0)
		errors_at_callback = dt_log_count("[ERR]", NULL);
}

/* A DMA setup with `ntasks` tasks, started, records reset. */
static bool setup(uint32_t ntasks)
{
	if (!sd_fx_setup(&fx, 2 * LIMIT, ntasks, 600))
		return false;
	fx.log.on_task = note_records_at_callback;
	errors_at_callback = -1;
	if (doca_dev_open(doca_dev_as_devinfo(fx.dev), &own_dev) != DOCA_SUCCESS)
		return false;
	return doca_ctx_start(fx.ctx) == DOCA_SUCCESS;
}

/* An extra started mmap over extra_mem: with or without the device, with `perms`. */
static struct doca_mmap *extra_mmap(bool with_dev, uint32_t perms)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS || doca_mmap_set_memrange(m, extra_mem, sizeof(extra_mem)) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(m, perms) != DOCA_SUCCESS || (with_dev && doca_mmap_add_dev(m, own_dev) != DOCA_SUCCESS) ||
	    doca_mmap_start(m) != DOCA_SUCCESS)
		return NULL;
	return m;
}

static struct doca_buf *buf_on(struct doca_mmap *m, size_t len, bool with_data)
{
	struct doca_buf *b = NULL;
	doca_error_t err = with_data ? doca_buf_inventory_buf_get_by_data(fx.inv, m, extra_mem, len, &b) :
				       doca_buf_inventory_buf_get_by_addr(fx.inv, m, extra_mem, len, &b);

	return err == DOCA_SUCCESS ? sd_fx_track(&fx, b) : NULL;
}

static struct doca_dma_task_memcpy *task_of(const struct doca_buf *src, struct doca_buf *dst, uint64_t ud)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data d = {.u64 = ud};

	return doca_dma_task_memcpy_alloc_init(fx.dma, src, dst, d, &t) == DOCA_SUCCESS ? t : NULL;
}

static struct doca_task *as_task(struct doca_dma_task_memcpy *t)
{
	return doca_dma_task_memcpy_as_task(t);
}

/* Progress until the context has reported `n` tasks. */
static void progress_until_reports(size_t n)
{
	size_t reports = 0;

	for (long i = 0; i < 10000000 && reports < n; i++) {
		(void)doca_pe_progress(fx.pe);
		reports = 0;
		for (size_t k = 0; k < fx.log.n; k++)
			reports += fx.log.ev[k].kind != SD_FX_STATE;
	}
}

static void free_tasks(struct doca_dma_task_memcpy **t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		doca_task_free(as_task(t[i]));
}

/* Progress a stopping context to IDLE, then release everything: nothing more is logged. */
static void clean_teardown(struct doca_mmap *extra)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;

	dt_log_mark();
	for (long i = 0; i < 1000000 && st == DOCA_CTX_STATE_STOPPING; i++) {
		(void)doca_pe_progress(fx.pe);
		(void)doca_ctx_get_state(fx.ctx, &st);
	}
	sd_fx_teardown(&fx);
	if (extra != NULL) {
		CHECK_OK(doca_mmap_stop(extra));
		CHECK_OK(doca_mmap_destroy(extra));
	}
	CHECK_OK(doca_dev_close(own_dev));
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 0);
}

/*
 * One failing task: exactly one record, an ERROR of doca_pe_progress that
 * names the task and contains `words`, logged before its error callback;
 * none of the texts the official samples treat as their own failure lines.
 */
/*
 * The enumerator's spelling, written out here: the record's text is checked
 * against this table, not against doca_error_get_name, which is under test.
 */
static const char *spelled(doca_error_t code)
{
	switch (code) {
	case DOCA_ERROR_NOT_PERMITTED:
		return "DOCA_ERROR_NOT_PERMITTED";
	case DOCA_ERROR_INVALID_VALUE:
		return "DOCA_ERROR_INVALID_VALUE";
	default:
		CHECK(!"the test spells every code it expects");
		return "?";
	}
}

static void fails_with_one_record(const struct doca_buf *src, struct doca_buf *dst, doca_error_t code,
				  const char *const *words)
{
	struct doca_dma_task_memcpy *t = task_of(src, dst, 1);
	char task_name[64];

	REQUIRE(t != NULL);
	snprintf(task_name, sizeof(task_name), "memcpy task %p of doca_dma %p failed with %s", (void *)t,
		 (void *)fx.dma, spelled(code));
	dt_log_mark();
	CHECK_OK(doca_task_submit(as_task(t)));
	progress_until_reports(1);
	REQUIRE(fx.log.n >= 3);
	CHECK_ERR(fx.log.ev[2].status, code);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 1);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("[doca_pe_progress]", task_name)), 1);
	CHECK_EQ_U64(dt_log_count("[ERR]", words), 1);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("so the context is stopping: call doca_pe_progress until it is IDLE")),
		     1);
	CHECK_EQ_U64(errors_at_callback, 1);
	CHECK(!dt_log_contains("Task failed") && !dt_log_contains("failed with status") &&
	      !dt_log_contains("Memcpy failed"));
	doca_task_free(as_task(t));
}

/*
 * The mistake is in the destination: 4096 bytes copied into a buffer on
 * `m` (taken with get_by_data when `by_data`) fail with `code` and one
 * record holding `words`; then everything is released.
 */
static void copy_into_fails(struct doca_mmap *m, bool by_data, doca_error_t code, const char *const *words)
{
	struct doca_buf *dst;

	REQUIRE(m != NULL);
	dst = buf_on(m, 4096, by_data);
	REQUIRE(dst != NULL);
	fails_with_one_record(sd_fx_src_buf(&fx, 0, 4096), dst, code, words);
	clean_teardown(m);
}

static void read_only_destination_names_the_missing_write_permission(void)
{
	REQUIRE(setup(4));
	copy_into_fails(extra_mmap(true, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY), false, DOCA_ERROR_NOT_PERMITTED,
			DT_WORDS("was started without write permission: give it DOCA_ACCESS_FLAG_LOCAL_READ_WRITE",
				 "doca_mmap_set_permissions", "[V9]"));
}

static void mmap_without_the_device_says_to_add_it(void)
{
	REQUIRE(setup(4));
	copy_into_fails(extra_mmap(false, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), false, DOCA_ERROR_NOT_PERMITTED,
			DT_WORDS("cannot be used by device 0000:03:00.0: the device was not added to it",
				 "doca_mmap_add_dev", "[V7]"));
}

static void destination_taken_by_data_has_no_room_after_its_data(void)
{
	REQUIRE(setup(4));
	/* the mistake: a destination full of data */
	copy_into_fails(extra_mmap(true, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), true, DOCA_ERROR_INVALID_VALUE,
			DT_WORDS("has room for only 0 of the 4096 source bytes after its data",
				 "doca_buf_inventory_buf_get_by_addr", "doca_buf_reset_data_len", "[V5]"));
}

static void source_over_the_device_limit_names_the_limit(void)
{
	REQUIRE(setup(4));
	fails_with_one_record(sd_fx_src_buf(&fx, 0, LIMIT + 1), sd_fx_dst_buf(&fx, 0, 2 * LIMIT),
			      DOCA_ERROR_INVALID_VALUE,
			      DT_WORDS("its 65537 source bytes exceed device 0000:03:00.0's limit of 65536 bytes per task",
				       "doca_dma_cap_task_memcpy_get_max_buf_size", "[V4]"));
	clean_teardown(NULL);
}

/* One record for the failed task, none for the tasks its stop flushes. */
static void a_failed_task_among_many_logs_once_and_counts_the_flushed(void)
{
	struct doca_dma_task_memcpy *t[8];

	REQUIRE(setup(8));
	for (int i = 0; i < 8; i++) {
		t[i] = task_of(sd_fx_src_buf(&fx, (size_t)i * 64, i == 2 ? 0 : 64), sd_fx_dst_buf(&fx, (size_t)i * 64, 64),
			       (uint64_t)i);
		REQUIRE(t[i] != NULL);
	}
	dt_log_mark();
	for (int i = 0; i < 8; i++)
		CHECK_OK(doca_task_submit(as_task(t[i])));
	progress_until_reports(8);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 1);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("holds no data (data_len 0)", "[V3]",
						     "5 other task(s) in flight are flushed with DOCA_ERROR_SHUTDOWN")),
		     1);
	free_tasks(t, 8);
	clean_teardown(NULL);
}

/*
 * A started setup and one 64-byte task into a buffer on a new extra mmap
 * with `perms` (taken with get_by_data when `by_data`); NULL when any step
 * fails.  *m receives the extra mmap, for clean_teardown.
 */
static struct doca_dma_task_memcpy *task_into_extra(uint32_t perms, bool by_data, struct doca_mmap **m)
{
	if (!setup(4))
		return NULL;
	*m = extra_mmap(true, perms);
	return *m != NULL ? task_of(sd_fx_src_buf(&fx, 0, 64), buf_on(*m, 64, by_data), 1) : NULL;
}

/*
 * A failure that stopped the context, left unhandled: every follow-on error
 * says what to do, at INFO (the failure's own ERROR record stays the one at
 * ERROR; tests/debug/test_quiet_failures.c checks the summary at exit).
 */
static void follow_on_errors_say_why_the_context_stops(void)
{
	struct doca_mmap *ro = NULL;
	struct doca_dma_task_memcpy *t = task_into_extra(DOCA_ACCESS_FLAG_LOCAL_READ_ONLY, false, &ro);

	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(as_task(t)));
	progress_until_reports(1);

	/* IN_PROGRESS is no error: the reason goes out at INFO only, each time. */
	for (int i = 0; i < 2; i++) {
		dt_log_mark();
		CHECK_ERR(doca_ctx_stop(fx.ctx), DOCA_ERROR_IN_PROGRESS);
		CHECK_EQ_U64(dt_log_count(NULL, NULL), 1);
		CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("[doca_ctx_stop]", "context is already STOPPING (not an error) "
							     "because memcpy task", "[V9]",
							     "call doca_pe_progress until it is IDLE", "doca_task_free",
							     "then doca_dma_destroy")),
			     1);
	}

	/* The first refused call repeats the reason, with what the context holds and what to do. */
	dt_log_mark();
	CHECK_ERR(doca_dma_destroy(fx.dma), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 1);
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("[doca_dma_destroy]", "because memcpy task", "[V9]",
						     "it holds 1 task(s) (0 in flight)",
						     "call doca_pe_progress until it is IDLE")),
		     1);
	/* Later ones point back to it. */
	dt_log_mark();
	CHECK_ERR(doca_dma_destroy(fx.dma), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("[doca_dma_destroy]", "because a task failed (its ERROR record came "
						     "first)")),
		     1);
	dt_log_mark();
	CHECK_ERR(doca_pe_destroy(fx.pe), DOCA_ERROR_IN_USE);
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("[doca_pe_destroy]", "still connected: doca_dma", "STOPPING",
						     "then doca_dma_destroy")),
		     1);
	CHECK_OK(doca_dev_close(own_dev)); /* now fx.dev is the last reference */
	dt_log_mark();
	CHECK_ERR(doca_dev_close(fx.dev), DOCA_ERROR_IN_USE);
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("[doca_dev_close]", "still depending on it:", "doca_mmap",
						     "doca_buf_dec_refcount", "doca_dma")),
		     1);
	REQUIRE(doca_dev_open(doca_dev_as_devinfo(fx.dev), &own_dev) == DOCA_SUCCESS);

	/* Doing what they say ends it quietly. */
	dt_log_mark();
	doca_task_free(as_task(t));
	for (int i = 0; i < 1000; i++)
		(void)doca_pe_progress(fx.pe);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 0);
	clean_teardown(ro);
}

/* When the first follow-on is another call, that call carries the reason. */
static void the_first_follow_on_carries_the_reason(void)
{
	struct doca_mmap *m = NULL;
	struct doca_dma_task_memcpy *t = task_into_extra(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, true, &m);

	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(as_task(t)));
	progress_until_reports(1);
	dt_log_mark();
	CHECK_ERR(doca_dma_destroy(fx.dma), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("[doca_dma_destroy]", "because memcpy task", "[V5]")), 1);
	doca_task_free(as_task(t));
	clean_teardown(m);
}

/* doca_task_try_submit refuses with the same words, and nothing runs. */
static void try_submit_refuses_with_the_same_words(void)
{
	struct doca_mmap *ro = NULL;
	struct doca_dma_task_memcpy *t = task_into_extra(DOCA_ACCESS_FLAG_LOCAL_READ_ONLY, false, &ro);

	REQUIRE(t != NULL);
	dt_log_mark();
	CHECK_ERR(doca_task_try_submit(as_task(t)), DOCA_ERROR_NOT_PERMITTED);
	CHECK_EQ_U64(doca_pe_progress(fx.pe), 0);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 1);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("[doca_task_try_submit]", "without write permission", "[V9]")), 1);
	doca_task_free(as_task(t));
	clean_teardown(ro);
}

/*
 * The official pe_task_error flow: 255 tasks, the third with an empty
 * source; callbacks free their tasks; the program progresses until IDLE.
 * One ERROR record in all, and nothing that reads like the sample's lines.
 */
static void free_in_callback(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	note_records_at_callback(task, ok, arg);
	doca_task_free(as_task(task));
}

static void the_pe_task_error_flow_logs_one_error(void)
{
	enum { N = 255, LEN = 256 };
	struct doca_dma_task_memcpy *t[N];
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	REQUIRE(setup(N));
	fx.log.on_task = free_in_callback;
	for (int i = 0; i < N; i++) {
		struct doca_buf *src = sd_fx_src_buf(&fx, (size_t)i * LEN, LEN);

		REQUIRE(src != NULL);
		if (i == 2)
			CHECK_OK(doca_buf_reset_data_len(src));
		t[i] = task_of(src, sd_fx_dst_buf(&fx, (size_t)i * LEN, LEN), (uint64_t)i);
		REQUIRE(t[i] != NULL);
	}
	dt_log_mark();
	for (int i = 0; i < N; i++)
		CHECK_OK(doca_task_submit(as_task(t[i])));
	for (long i = 0; i < 1000000 && st != DOCA_CTX_STATE_IDLE; i++) {
		(void)doca_pe_progress(fx.pe);
		(void)doca_ctx_get_state(fx.ctx, &st);
	}
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(dt_log_count(NULL, NULL), 1);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("[V3]", "252 other task(s) in flight are flushed")), 1);
	CHECK(!dt_log_contains("Task failed") && !dt_log_contains("failed with status") &&
	      !dt_log_contains("Memcpy failed"));
	clean_teardown(NULL);
}

int main(void)
{
	/* The default devices, with a small DMA size limit. */
	dt_use_topology("[device 03:00.0]\nside = dpu\ndma_max_buf_size = %u\n\n[device b1:00.0]\nside = host\n", LIMIT);
	dt_log_capture(DOCA_LOG_LEVEL_INFO);
	SD_RUN(read_only_destination_names_the_missing_write_permission);
	SD_RUN(mmap_without_the_device_says_to_add_it);
	SD_RUN(destination_taken_by_data_has_no_room_after_its_data);
	SD_RUN(source_over_the_device_limit_names_the_limit);
	SD_RUN(a_failed_task_among_many_logs_once_and_counts_the_flushed);
	SD_RUN(follow_on_errors_say_why_the_context_stops);
	SD_RUN(the_first_follow_on_carries_the_reason);
	SD_RUN(try_submit_refuses_with_the_same_words);
	SD_RUN(the_pe_task_error_flow_logs_one_error);
	unlink(getenv("SOFTDOCA_TOPOLOGY"));
	return sd_test_done();
}
