/*
 * After a task fails, the reader sees its ERROR record first and alone: the
 * calls refused because of the stopped context and the objects left alive
 * at exit go to INFO, and one WARNING at exit counts them and points back
 * to the first error.  SOFTDOCA_FAILURE_DETAIL=full keeps every record at
 * its own level; at INFO every one of them is still there.
 *
 * Each scenario runs as a child of this program (SOFTDOCA_SDK_LOG shows the
 * records on its stderr, which the parent reads); SOFTDOCA_FAULTS fails the
 * first task execution.
 */
#include <ctype.h>

#include "debug_test.h"

#define OUT_MAX 65536
#define TASKS 4

static struct sd_fx fx;

/* Child: TASKS tasks in flight, the first fails; every callback is back (1 failed, the rest flushed). */
static void fail_one_task(struct doca_dma_task_memcpy **t)
{
	union doca_data ud = {.u64 = 0};

	if (!sd_fx_setup(&fx, 1 << 16, TASKS, 2 * TASKS) || doca_ctx_start(fx.ctx) != DOCA_SUCCESS)
		exit(3);
	for (int i = 0; i < TASKS; i++)
		if (doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, 64 * i, 64), sd_fx_dst_buf(&fx, 64 * i, 64),
						    ud, &t[i]) != DOCA_SUCCESS ||
		    doca_task_submit(doca_dma_task_memcpy_as_task(t[i])) != DOCA_SUCCESS)
			exit(4);
	for (int i = 0; i < 1000000; i++) {
		size_t inflight = 0;

		if (doca_ctx_get_num_inflight_tasks(fx.ctx, &inflight) != DOCA_SUCCESS || inflight == 0)
			break;
		(void)doca_pe_progress(fx.pe);
	}
}

/*
 * Child: the teardown of a program that does not expect the failure (as
 * examples/local_dma_copy.c does): tasks and buffers released, then stop,
 * destroy, close without progressing the context to IDLE.
 */
static void careless(void)
{
	struct doca_dma_task_memcpy *t[TASKS] = {0};

	fail_one_task(t);
	for (int i = 0; i < TASKS; i++)
		doca_task_free(doca_dma_task_memcpy_as_task(t[i]));
	for (size_t i = 0; i < fx.nbufs; i++)
		(void)doca_buf_dec_refcount(fx.bufs[i], NULL);
	(void)doca_ctx_stop(fx.ctx);      /* IN_PROGRESS, at INFO as ever */
	(void)doca_dma_destroy(fx.dma);   /* refused: STOPPING */
	(void)doca_pe_destroy(fx.pe);     /* refused: a context is connected */
	(void)doca_buf_inventory_stop(fx.inv);
	(void)doca_buf_inventory_destroy(fx.inv);
	(void)doca_mmap_stop(fx.src_mmap);
	(void)doca_mmap_destroy(fx.src_mmap);
	(void)doca_mmap_stop(fx.dst_mmap);
	(void)doca_mmap_destroy(fx.dst_mmap);
	(void)doca_dev_close(fx.dev);     /* refused: the context depends on it */
	printf("task %p\n", (void *)t[0]);
	fflush(stdout);
	exit(0); /* left alive: the device, the progress engine, the context */
}

/* Child: the same failure handled as DOCA expects: nothing follows it. */
static void careful(void)
{
	struct doca_dma_task_memcpy *t[TASKS] = {0};

	fail_one_task(t);
	for (int i = 0; i < TASKS; i++)
		doca_task_free(doca_dma_task_memcpy_as_task(t[i]));
	sd_fx_teardown(&fx);
	exit(0);
}

/* Child: after the failure, a mistake that has nothing to do with it; then a clean teardown. */
static void unrelated(void)
{
	struct doca_dma_task_memcpy *t[TASKS] = {0};

	fail_one_task(t);
	if (doca_buf_inventory_create(4, NULL) != DOCA_ERROR_INVALID_VALUE)
		exit(5);
	for (int i = 0; i < TASKS; i++)
		doca_task_free(doca_dma_task_memcpy_as_task(t[i]));
	sd_fx_teardown(&fx);
	exit(0);
}

/* The DOCA records of `out` (lines with "[DOCA]["), one per string of `copy`, in order. */
static size_t records(const char *out, char *copy, size_t len, char **rec, size_t max)
{
	size_t n = 0;

	snprintf(copy, len, "%s", out);
	for (char *line = strtok(copy, "\n"); line != NULL && n < max; line = strtok(NULL, "\n"))
		if (strstr(line, "[DOCA][") != NULL)
			rec[n++] = line;
	return n;
}

/* A record's message without time, thread and addresses: two runs of one scenario compare equal. */
static void message_of(const char *rec, char *msg, size_t len)
{
	const char *p = strstr(rec, "[DOCA][");
	size_t o = 0;

	p = p != NULL ? strstr(p + 7, "] ") : NULL; /* past [LVL][FILE:LINE][FUNC] */
	for (p = p != NULL ? p + 2 : rec; *p != '\0' && o + 1 < len; p++) {
		msg[o++] = *p;
		if (p[0] == '0' && p[1] == 'x')
			for (p += 2, msg[o++] = 'x'; isxdigit((unsigned char)p[1]); p++)
				;
	}
	msg[o] = '\0';
}

static const char *const summary_env[] = {"SOFTDOCA_SDK_LOG=warning", "SOFTDOCA_FAULTS=task:nth=1",
					  "SOFTDOCA_WATCHDOG=0", NULL};

static void the_root_cause_comes_first_and_once_at_error(void)
{
	static char out[OUT_MAX], copy[OUT_MAX];
	char *rec[64];
	char want[160];
	void *task = NULL;
	size_t n;

	CHECK_EQ_U64(dt_run_self("careless", summary_env, out, sizeof(out)), 0);
	printf("%s", out);
	REQUIRE(strstr(out, "task ") != NULL && sscanf(strstr(out, "task "), "task %p", &task) == 1);
	CHECK_EQ_U64(dt_occurrences(out, "[ERR]"), 1);
	CHECK_EQ_U64(dt_occurrences(out, "[WRN]"), 1);
	CHECK_EQ_U64(dt_occurrences(out, "failed on purpose by SOFTDOCA_FAULTS"), 1);
	n = records(out, copy, sizeof(copy), rec, 64);
	REQUIRE(n == 2);
	/* First: the failed task, in words. */
	snprintf(want, sizeof(want), "memcpy task %p of doca_dma ", task);
	CHECK(strstr(rec[0], "[ERR]") != NULL && strstr(rec[0], want) != NULL);
	CHECK(strstr(rec[0], "failed with DOCA_ERROR_IO_FAILED") != NULL);
	/* Last: the summary, with the counts and the pointer back to that record. */
	CHECK(strstr(rec[1], "[WRN]") != NULL && strstr(rec[1], "[at exit]") != NULL);
	CHECK(strstr(rec[1], "3 refused call(s) and 3 DOCA object(s) never destroyed followed from 1 failed task(s)") !=
	      NULL);
	snprintf(want, sizeof(want), "the first: memcpy task %p of doca_dma ", task);
	CHECK(strstr(rec[1], want) != NULL && strstr(rec[1], "failed with DOCA_ERROR_IO_FAILED;") != NULL);
	CHECK(strstr(rec[1], "SOFTDOCA_FAILURE_DETAIL=full") != NULL);
}

/* The follow-ons are at INFO, as many as the summary counts, after the root cause. */
static void the_follow_ons_are_at_info_and_counted(void)
{
	static const char *const env[] = {"SOFTDOCA_SDK_LOG=info", "SOFTDOCA_FAULTS=task:nth=1",
					  "SOFTDOCA_WATCHDOG=0", NULL};
	static char out[OUT_MAX], copy[OUT_MAX];
	char *rec[64];
	size_t n, err_at = 64;
	int refused = 0, alive = 0;

	CHECK_EQ_U64(dt_run_self("careless", env, out, sizeof(out)), 0);
	printf("%s", out);
	n = records(out, copy, sizeof(copy), rec, 64);
	for (size_t i = 0; i < n; i++) {
		if (strstr(rec[i], "[ERR]") != NULL && err_at == 64)
			err_at = i;
		if (strstr(rec[i], "[INF]") != NULL &&
		    (strstr(rec[i], "[doca_dma_destroy]") != NULL || strstr(rec[i], "[doca_pe_destroy]") != NULL ||
		     strstr(rec[i], "[doca_dev_close]") != NULL)) {
			CHECK(i > err_at);
			refused++;
		}
		if (strstr(rec[i], "[INF]") != NULL && strstr(rec[i], "still alive: ") != NULL)
			alive++;
	}
	CHECK_EQ_U64(dt_occurrences(out, "[ERR]"), 1);
	CHECK_EQ_U64(refused, 3);
	CHECK_EQ_U64(alive, 3);
	CHECK(strstr(out, "3 refused call(s) and 3 DOCA object(s) never destroyed") != NULL);
}

/* SOFTDOCA_FAILURE_DETAIL=full: the records at their own level, and every one is also in the summary run at INFO. */
static void with_full_detail_every_record_is_still_there(void)
{
	static const char *const full_env[] = {"SOFTDOCA_SDK_LOG=warning", "SOFTDOCA_FAULTS=task:nth=1",
					       "SOFTDOCA_WATCHDOG=0", "SOFTDOCA_FAILURE_DETAIL=full", NULL};
	static const char *const info_env[] = {"SOFTDOCA_SDK_LOG=info", "SOFTDOCA_FAULTS=task:nth=1",
					       "SOFTDOCA_WATCHDOG=0", NULL};
	static char full[OUT_MAX], info[OUT_MAX], msg[8192], copy[OUT_MAX];
	static char info_msgs[OUT_MAX];
	char *rec[64];
	size_t n, pos = 0;

	CHECK_EQ_U64(dt_run_self("careless", full_env, full, sizeof(full)), 0);
	CHECK_EQ_U64(dt_run_self("careless", info_env, info, sizeof(info)), 0);
	printf("%s", full);
	CHECK_EQ_U64(dt_occurrences(full, "[ERR]"), 4); /* the failure and the three refused calls */
	CHECK_EQ_U64(dt_occurrences(full, "[WRN]"), 4); /* the exit report: a header and three objects */
	CHECK(strstr(full, "followed from") == NULL);
	n = records(info, copy, sizeof(copy), rec, 64);
	for (size_t i = 0; i < n; i++) {
		message_of(rec[i], msg, sizeof(msg));
		pos += (size_t)snprintf(info_msgs + pos, sizeof(info_msgs) - pos, "%s\n", msg);
		REQUIRE(pos < sizeof(info_msgs));
	}
	n = records(full, copy, sizeof(copy), rec, 64);
	CHECK_EQ_U64(n, 8);
	for (size_t i = 0; i < n; i++) {
		message_of(rec[i], msg, sizeof(msg));
		CHECK(strstr(info_msgs, msg) != NULL);
		if (strstr(info_msgs, msg) == NULL)
			fprintf(stderr, "missing at INFO: %s\n", msg);
	}
}

static void a_handled_failure_has_nothing_to_summarise(void)
{
	static char out[OUT_MAX];

	CHECK_EQ_U64(dt_run_self("careful", summary_env, out, sizeof(out)), 0);
	printf("%s", out);
	CHECK_EQ_U64(dt_occurrences(out, "[ERR]"), 1);
	CHECK_EQ_U64(dt_occurrences(out, "[WRN]"), 0);
	CHECK(strstr(out, "followed from") == NULL);
}

/* Only what follows from the failure is quieted: another mistake keeps its ERROR. */
static void an_unrelated_refusal_keeps_its_error(void)
{
	static char out[OUT_MAX];

	CHECK_EQ_U64(dt_run_self("unrelated", summary_env, out, sizeof(out)), 0);
	printf("%s", out);
	CHECK_EQ_U64(dt_occurrences(out, "[ERR]"), 2);
	CHECK(strstr(out, "[ERR][failure.c:") != NULL);
	CHECK(strstr(out, "][doca_buf_inventory_create] ") != NULL);
	CHECK_EQ_U64(dt_occurrences(out, "[WRN]"), 0);
}

static void a_bad_detail_value_is_refused_on_stderr(void)
{
	static const char *const env[] = {"SOFTDOCA_SDK_LOG=warning", "SOFTDOCA_FAULTS=task:nth=1",
					  "SOFTDOCA_WATCHDOG=0", "SOFTDOCA_FAILURE_DETAIL=loud", NULL};
	static char out[OUT_MAX];

	CHECK_EQ_U64(dt_run_self("careless", env, out, sizeof(out)), 0);
	CHECK(strstr(out, "softdoca: SOFTDOCA_FAILURE_DETAIL='loud' must be summary or full; summary is used") != NULL);
	CHECK_EQ_U64(dt_occurrences(out, "[ERR]"), 1); /* summary it is */
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "careless") == 0)
		careless();
	if (argc == 2 && strcmp(argv[1], "careful") == 0)
		careful();
	if (argc == 2 && strcmp(argv[1], "unrelated") == 0)
		unrelated();
	SD_RUN(the_root_cause_comes_first_and_once_at_error);
	SD_RUN(the_follow_ons_are_at_info_and_counted);
	SD_RUN(with_full_detail_every_record_is_still_there);
	SD_RUN(a_handled_failure_has_nothing_to_summarise);
	SD_RUN(an_unrelated_refusal_keeps_its_error);
	SD_RUN(a_bad_detail_value_is_refused_on_stderr);
	return sd_test_done();
}
