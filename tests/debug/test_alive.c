/*
 * At exit, what a program left alive is listed, one WARNING per object,
 * with the calls that release it; a program that cleans up hears nothing,
 * and a forked child never reports its parent's objects.
 *
 * Each scenario runs as a child of this program (SOFTDOCA_SDK_LOG=warning
 * shows the records on its stderr, which the parent reads).
 */
#include <doca_buf_pool.h>

#include "debug_test.h"

static struct sd_fx fx;

static const char *const child_env[] = {"SOFTDOCA_SDK_LOG=warning", "SOFTDOCA_WATCHDOG=0", NULL};

/* Child: a running DMA context holding two tasks (one in flight), buffers out, a pool; then exit. */
static void leak(void)
{
	struct doca_dma_task_memcpy *t1 = NULL, *t2 = NULL;
	struct doca_buf_pool *pool = NULL;
	union doca_data ud = {.u64 = 0};

	if (!sd_fx_setup(&fx, 1 << 16, 8, 8) || doca_ctx_start(fx.ctx) != DOCA_SUCCESS ||
	    doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, 0, 64), sd_fx_dst_buf(&fx, 0, 64), ud, &t1) !=
		    DOCA_SUCCESS ||
	    doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, 64, 64), sd_fx_dst_buf(&fx, 64, 64), ud, &t2) !=
		    DOCA_SUCCESS ||
	    doca_task_submit(doca_dma_task_memcpy_as_task(t1)) != DOCA_SUCCESS ||
	    doca_buf_pool_create(4, 64, fx.src_mmap, &pool) != DOCA_SUCCESS)
		exit(3);
	printf("ctx %p pe %p\n", (void *)fx.ctx, (void *)fx.pe);
	fflush(stdout);
	exit(0);
}

static bool reported; /* the task's callback ran */

static void note_report(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	(void)task;
	(void)ok;
	(void)arg;
	reported = true;
}

/* Child: the whole life cycle, everything destroyed (the task freed once its callback ran, on any engine). */
static void clean(void)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};

	if (!sd_fx_setup(&fx, 1 << 16, 8, 8))
		exit(3);
	fx.log.on_task = note_report;
	if (doca_ctx_start(fx.ctx) != DOCA_SUCCESS ||
	    doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, 0, 64), sd_fx_dst_buf(&fx, 0, 64), ud, &t) !=
		    DOCA_SUCCESS ||
	    doca_task_submit(doca_dma_task_memcpy_as_task(t)) != DOCA_SUCCESS)
		exit(3);
	for (long i = 0; i < 100000000 && !reported; i++)
		(void)doca_pe_progress(fx.pe);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	sd_fx_teardown(&fx);
	exit(0);
}

/* Child: objects exist when it forks; the forked process exits first, then this one cleans up. */
static void fork_with_objects(void)
{
	pid_t pid;
	int status;

	if (!sd_fx_setup(&fx, 1 << 16, 8, 8) || doca_ctx_start(fx.ctx) != DOCA_SUCCESS)
		exit(3);
	pid = fork();
	if (pid == 0)
		exit(0); /* runs the exit report: the objects are the parent's, so nothing */
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		exit(4);
	sd_fx_teardown(&fx);
	exit(0);
}

static void what_is_left_at_exit_is_listed_with_its_release_call(void)
{
	static char out[32768];
	void *ctx = NULL, *pe = NULL;
	char want[256];

	CHECK_EQ_U64(dt_run_self("leak", child_env, out, sizeof(out)), 0);
	printf("%s", out);
	REQUIRE(sscanf(strstr(out, "ctx "), "ctx %p pe %p", &ctx, &pe) == 2);
	CHECK(strstr(out, "[at exit] at exit: 7 DOCA object(s) of this process were never destroyed") != NULL);
	CHECK_EQ_U64(dt_occurrences(out, "[WRN]"), 8);
	snprintf(want, sizeof(want),
		 "still alive: doca_dma %p is RUNNING; it holds 2 task(s) (1 in flight): stop it with doca_ctx_stop, "
		 "call doca_pe_progress until it is IDLE",
		 ctx);
	CHECK(strstr(out, want) != NULL);
	CHECK(strstr(out, "then doca_dma_destroy") != NULL);
	snprintf(want, sizeof(want), "still alive: doca_pe %p (pe1) with 1 context(s) connected: destroy them, then "
				     "doca_pe_destroy", pe);
	CHECK(strstr(out, want) != NULL);
	CHECK(strstr(out, "(started) with 2 buf(s) on it: release them with doca_buf_dec_refcount, then "
			  "doca_mmap_destroy") != NULL);
	CHECK(dt_occurrences(out, "still alive: doca_mmap ") == 2);
	CHECK(strstr(out, "with 4 of its 8 buf(s) in use: release them with doca_buf_dec_refcount, then "
			  "doca_buf_inventory_destroy") != NULL);
	CHECK(strstr(out, "still alive: doca_buf_pool ") != NULL && strstr(out, ": doca_buf_pool_destroy") != NULL);
	CHECK(strstr(out, "(0000:03:00.0) is open and 3 object(s) still depend on it: close it with doca_dev_close "
			  "after destroying them") != NULL);
}

static void a_program_that_cleans_up_hears_nothing(void)
{
	static char out[8192];

	CHECK_EQ_U64(dt_run_self("clean", child_env, out, sizeof(out)), 0);
	CHECK(out[0] == '\0');
	if (out[0] != '\0')
		fprintf(stderr, "unexpected output: %s\n", out);
}

static void a_forked_child_never_reports_its_parents_objects(void)
{
	static char out[8192];

	CHECK_EQ_U64(dt_run_self("fork_with_objects", child_env, out, sizeof(out)), 0);
	CHECK(strstr(out, "still alive") == NULL && strstr(out, "never destroyed") == NULL);
	if (out[0] != '\0')
		fprintf(stderr, "unexpected output: %s\n", out);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "leak") == 0)
		leak();
	if (argc == 2 && strcmp(argv[1], "clean") == 0)
		clean();
	if (argc == 2 && strcmp(argv[1], "fork_with_objects") == 0)
		fork_with_objects();
	SD_RUN(what_is_left_at_exit_is_listed_with_its_release_call);
	SD_RUN(a_program_that_cleans_up_hears_nothing);
	SD_RUN(a_forked_child_never_reports_its_parents_objects);
	return sd_test_done();
}
