/*
 * SOFTDOCA_FAULTS: task executions, submits, imports and context starts
 * that fail on purpose, with the chosen DOCA error, where the clause says.
 *
 * Each case reads its clauses from the environment, so meson runs this
 * program once per case (`test_faults CASE`, SOFTDOCA_FAULTS set by
 * meson.build).  The determinism case runs the program again as a child
 * with different seeds.
 */
#include <doca_mmap.h>

#include "debug_test.h"

static struct sd_fx fx;

static struct doca_task *as_task(struct doca_dma_task_memcpy *t)
{
	return doca_dma_task_memcpy_as_task(t);
}

static bool setup(uint32_t ntasks)
{
	return sd_fx_setup(&fx, 1 << 16, ntasks, 256) && doca_ctx_start(fx.ctx) == DOCA_SUCCESS;
}

static struct doca_dma_task_memcpy *copy_task(size_t off, size_t len, uint64_t ud)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data d = {.u64 = ud};

	if (doca_dma_task_memcpy_alloc_init(fx.dma, sd_fx_src_buf(&fx, off, len), sd_fx_dst_buf(&fx, off, len), d, &t) !=
	    DOCA_SUCCESS)
		return NULL;
	return t;
}

/* Progress until `n` task reports were recorded. */
static void wait_reports(size_t n)
{
	for (long i = 0; i < 10000000; i++) {
		size_t reports = 0;

		for (size_t k = 0; k < fx.log.n; k++)
			reports += fx.log.ev[k].kind != SD_FX_STATE;
		if (reports >= n)
			return;
		(void)doca_pe_progress(fx.pe);
	}
}

static const struct sd_fx_event *task_event(size_t i)
{
	size_t seen = 0;

	for (size_t k = 0; k < fx.log.n; k++)
		if (fx.log.ev[k].kind != SD_FX_STATE && seen++ == i)
			return &fx.log.ev[k];
	return NULL;
}

static void teardown(void)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;

	for (long i = 0; i < 1000000 && st == DOCA_CTX_STATE_STOPPING; i++) {
		(void)doca_pe_progress(fx.pe);
		(void)doca_ctx_get_state(fx.ctx, &st);
	}
	sd_fx_teardown(&fx);
}

/* SOFTDOCA_FAULTS=task:nth=3,err=IO_FAILED: the third task fails, unexecuted, like a real failure. */
static void the_third_task_execution_fails_without_moving_a_byte(void)
{
	const struct sd_fx_event *e;

	dt_log_mark();
	REQUIRE(setup(8));
	/* Armed, and said so at INFO by the first DOCA object the program created. */
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("clause 1 'task:nth=3,err=IO_FAILED' armed from the environment",
						     "the 3rd task execution fails with DOCA_ERROR_IO_FAILED")),
		     1);
	for (size_t i = 0; i < 3; i++) {
		struct doca_dma_task_memcpy *t;

		fx.src_mem[i * 64] = (uint8_t)(i + 1);
		t = copy_task(i * 64, 64, i);
		REQUIRE(t != NULL);
		dt_log_mark();
		CHECK_OK(doca_task_submit(as_task(t)));
		wait_reports(i + 1);
		e = task_event(i);
		REQUIRE(e != NULL);
		if (i < 2) {
			CHECK(e->kind == SD_FX_TASK_OK);
			CHECK(fx.dst_mem[i * 64] == i + 1);
			CHECK_EQ_U64(dt_log_count("[ERR]", NULL), 0);
		} else {
			CHECK(e->kind == SD_FX_TASK_ERR);
			CHECK_ERR(e->status, DOCA_ERROR_IO_FAILED);
			CHECK(e->ctx_state == DOCA_CTX_STATE_STOPPING); /* a DMA failure stops the context */
			CHECK(fx.dst_mem[i * 64] == 0);                 /* nothing was copied */
			CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("[doca_pe_progress]", "failed with DOCA_ERROR_IO_FAILED",
								     "failed on purpose by SOFTDOCA_FAULTS clause "
								     "'task:nth=3,err=IO_FAILED'",
								     "(the 3rd matching task execution)")),
				     1);
			CHECK_EQ_U64(dt_log_count(NULL, NULL), 1);
		}
		doca_task_free(as_task(t));
	}
	teardown();
}

/* SOFTDOCA_FAULTS=submit:every=4: back-pressure; the program retries and every copy arrives. */
static void every_fourth_submit_says_again_and_a_retry_succeeds(void)
{
	enum { N = 20 };
	struct doca_dma_task_memcpy *t[N];
	unsigned again = 0, attempts = 0;

	REQUIRE(setup(N));
	for (size_t i = 0; i < N; i++) {
		for (size_t b = 0; b < 64; b++)
			fx.src_mem[i * 64 + b] = (uint8_t)(i * 3 + b);
		t[i] = copy_task(i * 64, 64, i);
		REQUIRE(t[i] != NULL);
	}
	dt_log_mark();
	for (size_t i = 0; i < N; i++) {
		doca_error_t err;

		while (attempts++, (err = doca_task_submit(as_task(t[i]))) == DOCA_ERROR_AGAIN) {
			again++;
			CHECK_ERR(doca_task_get_status(as_task(t[i])), DOCA_ERROR_AGAIN); /* still the application's */
			(void)doca_pe_progress(fx.pe);
		}
		CHECK_OK(err);
	}
	wait_reports(N);
	CHECK_EQ_U64(attempts, 26); /* 20 accepted; attempts 4, 8, ..., 24 refused */
	CHECK_EQ_U64(again, 6);
	for (size_t i = 0; i < N; i++) {
		const struct sd_fx_event *e = task_event(i);

		CHECK(e != NULL && e->kind == SD_FX_TASK_OK);
		doca_task_free(as_task(t[i]));
	}
	CHECK(memcmp(fx.src_mem, fx.dst_mem, N * 64) == 0);
	CHECK_EQ_U64(dt_log_count("[ERR]", NULL) + dt_log_count("[WRN]", NULL), 0); /* AGAIN is an answer, not an error */
	teardown();
}

/* SOFTDOCA_FAULTS=submit:nth=2,err=NO_MEMORY: that submit is refused, with one ERROR record. */
static void the_second_submit_runs_out_of_memory(void)
{
	struct doca_dma_task_memcpy *a, *b;

	REQUIRE(setup(4));
	a = copy_task(0, 64, 1);
	b = copy_task(64, 64, 2);
	REQUIRE(a != NULL && b != NULL);
	dt_log_mark();
	CHECK_OK(doca_task_submit(as_task(a)));
	CHECK_ERR(doca_task_submit(as_task(b)), DOCA_ERROR_NO_MEMORY);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("[doca_task_submit]", "refused on purpose with DOCA_ERROR_NO_MEMORY",
						     "'submit:nth=2,err=NO_MEMORY'", "(the 2nd matching submit)")),
		     1);
	CHECK_OK(doca_task_submit(as_task(b))); /* the third submit is not the second */
	wait_reports(2);
	CHECK(task_event(0)->kind == SD_FX_TASK_OK && task_event(1)->kind == SD_FX_TASK_OK);
	doca_task_free(as_task(a));
	doca_task_free(as_task(b));
	teardown();
}

/* SOFTDOCA_FAULTS=start:nth=1: the first doca_ctx_start fails and leaves the context IDLE. */
static void the_first_context_start_fails(void)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	struct doca_dma_task_memcpy *t;

	REQUIRE(sd_fx_setup(&fx, 4096, 4, 16));
	dt_log_mark();
	CHECK_ERR(doca_ctx_start(fx.ctx), DOCA_ERROR_NO_MEMORY);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("[doca_ctx_start]", "starting doca_dma",
						     "refused on purpose with DOCA_ERROR_NO_MEMORY", "'start:nth=1'")),
		     1);
	CHECK_OK(doca_ctx_get_state(fx.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK(fx.log.n == 0); /* no state callback */
	CHECK_OK(doca_ctx_start(fx.ctx));
	t = copy_task(0, 64, 1);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(as_task(t)));
	wait_reports(1);
	CHECK(task_event(0)->kind == SD_FX_TASK_OK);
	doca_task_free(as_task(t));
	teardown();
}

static struct doca_dev *open_at(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			(void)doca_dev_open(list[i], &dev);
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

/* SOFTDOCA_FAULTS=import:nth=1,err=NOT_PERMITTED: the first import fails, the next works. */
static void the_first_import_is_refused(void)
{
	static uint8_t mem[4096];
	struct doca_dev *host = open_at("b1:00.0"), *dpu = open_at("03:00.0");
	struct doca_mmap *m = NULL, *imp = NULL;
	const void *desc = NULL;
	size_t len = 0;

	REQUIRE(host != NULL && dpu != NULL);
	REQUIRE(doca_mmap_create(&m) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_set_memrange(m, mem, sizeof(mem)) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_WRITE) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_add_dev(m, host) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_start(m) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_export_pci(m, host, &desc, &len) == DOCA_SUCCESS);
	dt_log_mark();
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, len, dpu, &imp), DOCA_ERROR_NOT_PERMITTED);
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("[doca_mmap_create_from_export]",
						     "refused on purpose with DOCA_ERROR_NOT_PERMITTED",
						     "'import:nth=1,err=NOT_PERMITTED'")),
		     1);
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dpu, &imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
}

/* Worker threads: the fault strikes before the engine gets the task; nothing is copied. */
static void an_early_engine_never_sees_a_failed_task(void)
{
	struct doca_dma_task_memcpy *t;

	REQUIRE(setup(4));
	fx.src_mem[0] = 0x5a;
	t = copy_task(0, 64, 1);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(as_task(t)));
	wait_reports(1);
	CHECK(task_event(0)->kind == SD_FX_TASK_ERR);
	CHECK_ERR(task_event(0)->status, DOCA_ERROR_IO_FAILED);
	CHECK(fx.dst_mem[0] == 0);
	doca_task_free(as_task(t));
	teardown();
}

/* SOFTDOCA_FAULTS=delay=100 without the workers engine: nothing to delay, and it says so. */
static void a_delay_without_the_workers_engine_is_reported(void)
{
	dt_log_mark();
	REQUIRE(setup(4));
	CHECK_EQ_U64(dt_log_count("[WRN]", DT_WORDS("delay=100 delays only the completions of DMA contexts on the "
						     "workers engine")),
		     1);
	teardown();
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* SOFTDOCA_FAULTS=delay=3000 with SOFTDOCA_DMA_WORKERS=1: completions come late, in order, intact. */
static void the_workers_engine_holds_completions_back(void)
{
	enum { N = 16 };
	struct doca_dma_task_memcpy *t[N];
	double t0;

	REQUIRE(setup(N));
	for (int i = 0; i < N; i++) {
		fx.src_mem[i * 64] = (uint8_t)(i + 1);
		t[i] = copy_task((size_t)i * 64, 64, (uint64_t)i);
		REQUIRE(t[i] != NULL);
	}
	t0 = now_s();
	for (int i = 0; i < N; i++)
		CHECK_OK(doca_task_submit(as_task(t[i])));
	wait_reports(N);
	/* Each completion waits up to 3 ms after the previous one: 16 of them take far more than 3 ms. */
	CHECK(now_s() - t0 > 0.003);
	for (int i = 0; i < N; i++) {
		CHECK(task_event((size_t)i)->kind == SD_FX_TASK_OK && task_event((size_t)i)->task_ud == (uint64_t)i);
		CHECK(fx.dst_mem[i * 64] == (uint8_t)(i + 1));
		doca_task_free(as_task(t[i]));
	}
	teardown();
}

/* A topology file of the default devices with `faults_line` before the first section. */
static void use_topology_with(const char *faults_line)
{
	dt_use_topology("%s\n[device 03:00.0]\nside = dpu\n\n[device b1:00.0]\nside = host\n", faults_line);
}

/* `faults = ...` in the topology file arms the same clauses. */
static void the_topology_files_faults_key_arms_a_clause(void)
{
	struct doca_dma_task_memcpy *t;

	use_topology_with("faults = seed=3; task:nth=1,err=DRIVER   # fail the first task");
	dt_log_mark();
	REQUIRE(setup(4));
	unlink(getenv("SOFTDOCA_TOPOLOGY"));
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("clause 1 'task:nth=1,err=DRIVER' armed from the topology file's "
						     "faults key")),
		     1);
	t = copy_task(0, 64, 1);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(as_task(t)));
	wait_reports(1);
	CHECK(task_event(0)->kind == SD_FX_TASK_ERR);
	CHECK_ERR(task_event(0)->status, DOCA_ERROR_DRIVER);
	doca_task_free(as_task(t));
	teardown();
}

/* A faults key that cannot be used refuses the whole file, like any broken key. */
static void a_bad_faults_key_refuses_the_topology(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	use_topology_with("faults = task:every=2,share=1%");
	dt_log_mark();
	CHECK_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_NOT_FOUND);
	unlink(getenv("SOFTDOCA_TOPOLOGY"));
	CHECK_EQ_U64(dt_log_count("[ERR]", DT_WORDS("refused: line 1: faults: clause 'task:every=2,share=1%' needs "
						     "exactly one of nth=, every= or share=")),
		     1);
}

/* With both, the environment wins and the file's key is said to be ignored. */
static void the_environment_wins_over_the_file(void)
{
	use_topology_with("faults = task:nth=1");
	dt_log_mark();
	REQUIRE(setup(4));
	unlink(getenv("SOFTDOCA_TOPOLOGY"));
	CHECK_EQ_U64(dt_log_count("[INF]", DT_WORDS("the topology file's faults key is ignored: SOFTDOCA_FAULTS is set")),
		     1);
	teardown();
}

/* ---- determinism of share= (a child per seed) ---- */

/* Child: print which of 200 submit attempts were refused. */
static void print_refused_submits(void)
{
	struct doca_dma_task_memcpy *t;

	REQUIRE(setup(4));
	t = copy_task(0, 64, 1);
	REQUIRE(t != NULL);
	for (size_t k = 1, accepted = 0; k <= 200; k++) {
		doca_error_t err = doca_task_submit(as_task(t));

		if (err == DOCA_ERROR_AGAIN) {
			printf("%zu ", k);
			continue;
		}
		if (err != DOCA_SUCCESS)
			break;
		wait_reports(++accepted); /* reported before the next attempt */
		(void)doca_buf_reset_data_len(doca_dma_task_memcpy_get_dst(t)); /* room for the next copy */
	}
	printf("\n");
	doca_task_free(as_task(t));
	teardown();
}

static int refused_count(const char *out)
{
	int n = 0;

	for (const char *p = out; *p != '\0'; p++)
		n += *p == ' ';
	return n;
}

static void a_seed_gives_the_same_failures_every_run(void)
{
	static char a[8192], b[8192], c[8192];
	const char *const seed7[] = {"SOFTDOCA_FAULTS=submit:share=30%,seed=7", NULL};
	const char *const again7[] = {"SOFTDOCA_FAULTS=seed=7;submit:share=0.3", NULL};
	const char *const seed8[] = {"SOFTDOCA_FAULTS=submit:share=30%,seed=8", NULL};

	CHECK_EQ_U64(dt_run_self("print_refused_submits", seed7, a, sizeof(a)), 0);
	CHECK_EQ_U64(dt_run_self("print_refused_submits", again7, b, sizeof(b)), 0);
	CHECK_EQ_U64(dt_run_self("print_refused_submits", seed8, c, sizeof(c)), 0);
	CHECK(strcmp(a, b) == 0); /* same seed (global or per clause), same attempts refused */
	CHECK(strcmp(a, c) != 0);
	/* About 30% of 200: the mix is not degenerate. */
	CHECK(refused_count(a) >= 30 && refused_count(a) <= 90);
	CHECK(refused_count(c) >= 30 && refused_count(c) <= 90);
}

/* A spec that cannot be used is said on stderr; nothing is injected. */
static void a_bad_spec_is_refused_on_stderr(void)
{
	static char out[8192];
	const char *const bad[] = {"SOFTDOCA_FAULTS=task:nth=0", NULL};
	const char *const bad_err[] = {"SOFTDOCA_FAULTS=submit:every=2,err=NO_SUCH_ERROR", NULL};
	const char *const no_trigger[] = {"SOFTDOCA_FAULTS=task:err=IO_FAILED", NULL};

	CHECK_EQ_U64(dt_run_self("print_refused_submits", bad, out, sizeof(out)), 0);
	CHECK(strstr(out, "SOFTDOCA_FAULTS='task:nth=0': nth=0 is not a whole number of at least 1; no fault is "
			  "injected") != NULL);
	CHECK_EQ_U64(dt_run_self("print_refused_submits", bad_err, out, sizeof(out)), 0);
	CHECK(strstr(out, "err=NO_SUCH_ERROR is not a DOCA error name") != NULL);
	CHECK(refused_count(strchr(out, '\n') + 1) == 0);
	CHECK_EQ_U64(dt_run_self("print_refused_submits", no_trigger, out, sizeof(out)), 0);
	CHECK(strstr(out, "needs exactly one of nth=, every= or share=") != NULL);
}

static const struct dt_case cases[] = {
	{"the_third_task_execution_fails_without_moving_a_byte", the_third_task_execution_fails_without_moving_a_byte},
	{"every_fourth_submit_says_again_and_a_retry_succeeds", every_fourth_submit_says_again_and_a_retry_succeeds},
	{"the_second_submit_runs_out_of_memory", the_second_submit_runs_out_of_memory},
	{"the_first_context_start_fails", the_first_context_start_fails},
	{"the_first_import_is_refused", the_first_import_is_refused},
	{"an_early_engine_never_sees_a_failed_task", an_early_engine_never_sees_a_failed_task},
	{"a_delay_without_the_workers_engine_is_reported", a_delay_without_the_workers_engine_is_reported},
	{"the_workers_engine_holds_completions_back", the_workers_engine_holds_completions_back},
	{"a_seed_gives_the_same_failures_every_run", a_seed_gives_the_same_failures_every_run},
	{"a_bad_spec_is_refused_on_stderr", a_bad_spec_is_refused_on_stderr},
	{"the_topology_files_faults_key_arms_a_clause", the_topology_files_faults_key_arms_a_clause},
	{"a_bad_faults_key_refuses_the_topology", a_bad_faults_key_refuses_the_topology},
	{"the_environment_wins_over_the_file", the_environment_wins_over_the_file},
};

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "print_refused_submits") == 0) {
		print_refused_submits();
		return sd_test_done();
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s CASE\n", argv[0]);
		return 2;
	}
	dt_log_capture(DOCA_LOG_LEVEL_INFO);
	return dt_run_case(cases, sizeof(cases) / sizeof(cases[0]), argv[1]);
}
