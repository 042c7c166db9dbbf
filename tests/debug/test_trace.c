/*
 * SOFTDOCA_TRACE=FILE writes a Chrome trace-event JSON file: one slice per
 * task from submit to callback ("b"/"e" pairs with one id), a track per
 * progress engine, context state changes and faults as instant events,
 * engine worker spans; complete after a context stops and at exit.  The
 * file is parsed with json-c and every slice is checked; then
 * softdoca-trace (argv[1]) summarises it.  On the worker engine
 * (SOFTDOCA_DMA_WORKERS) the file also holds the workers' own spans, each
 * on its worker's track; on the inline engine it holds none.
 *
 * meson sets SOFTDOCA_TRACE (and SOFTDOCA_FAULTS=submit:nth=5).
 */
#include <json-c/json.h>

#include "debug_test.h"
#include "sd_debug.h"

/* ---- two progress engines, one context each ---- */

struct rig {
	struct sd_fx fx;
};


static struct rig a, b;

static struct doca_task *as_task(struct doca_dma_task_memcpy *t)
{
	return doca_dma_task_memcpy_as_task(t);
}

static void free_in_callback(struct doca_dma_task_memcpy *task, bool ok, void *arg)
{
	(void)ok;
	(void)arg;
	doca_task_free(as_task(task));
}

/* `n` tasks of 64 bytes on `r`, the one at `bad` (if < n) with an empty source; run to IDLE. */
static void run(struct rig *r, int n, int bad)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	struct sd_fx *fx = &r->fx;

	for (int i = 0; i < n; i++) {
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = (uint64_t)i};
		doca_error_t err;

		REQUIRE(doca_dma_task_memcpy_alloc_init(fx->dma, sd_fx_src_buf(fx, (size_t)i * 64, i == bad ? 0 : 64),
							sd_fx_dst_buf(fx, (size_t)i * 64, 64), ud, &t) == DOCA_SUCCESS);
		while ((err = doca_task_submit(as_task(t))) == DOCA_ERROR_AGAIN)
			(void)doca_pe_progress(fx->pe); /* a submit fault: back-pressure */
		CHECK_OK(err);
	}
	for (long i = 0; i < 1000000 && st == DOCA_CTX_STATE_RUNNING; i++) {
		struct sd_fx_log *log = &fx->log;

		(void)doca_pe_progress(fx->pe);
		if (log->n >= (size_t)n + 1 && st == DOCA_CTX_STATE_RUNNING)
			(void)doca_ctx_stop(fx->ctx);
		(void)doca_ctx_get_state(fx->ctx, &st);
	}
	for (long i = 0; i < 1000000 && st != DOCA_CTX_STATE_IDLE; i++) {
		(void)doca_pe_progress(fx->pe);
		(void)doca_ctx_get_state(fx->ctx, &st);
	}
	CHECK(st == DOCA_CTX_STATE_IDLE);
}

static bool start(struct rig *r, uint32_t ntasks)
{
	if (!sd_fx_setup(&r->fx, 1 << 16, ntasks, 256))
		return false;
	r->fx.log.on_task = free_in_callback;
	return doca_ctx_start(r->fx.ctx) == DOCA_SUCCESS;
}

/* ---- reading the file ---- */

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o != NULL && json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static bool num_of(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return false;
	*out = json_object_get_double(v);
	return true;
}

static struct json_object *args_of(struct json_object *o)
{
	struct json_object *v;

	return json_object_object_get_ex(o, "args", &v) ? v : NULL;
}

#define WORKER_TID0 1000000.0 /* the track of engine worker 0 */
#define HELP_TID0 1001024.0   /* the track of a pass the program made for worker 0's queue */
#define FAKE_WORKER 3         /* the span this test records as if worker 3 had made it */

/* The spans the engine itself recorded: how many, on how many tracks. */
struct engine_spans {
	int spans, tracks;
	double tids[64];
};

static bool is_engine_track(double tid)
{
	return (tid >= WORKER_TID0 && tid < WORKER_TID0 + 64 && tid != WORKER_TID0 + FAKE_WORKER) ||
	       (tid >= HELP_TID0 && tid < HELP_TID0 + 64);
}

static void engine_span_seen(struct engine_spans *es, double tid)
{
	int i = 0;

	es->spans++;
	while (i < es->tracks && es->tids[i] != tid)
		i++;
	if (i == es->tracks && es->tracks < 64)
		es->tids[es->tracks++] = tid;
}

struct tally {
	int slices, ok, failed, flushed;
	int states;
	bool idle_to_running, running_to_stopping, stopping_to_idle;
	char name[64];
};

/* Every event in the file; each "b" matched with its "e", checked; counts per context. */
static void check_file(const char *path, const struct doca_ctx *ca, const struct doca_ctx *cb, struct tally *ta,
		       struct tally *tb, int *faults, int *spans, int *tracks, struct engine_spans *es)
{
	struct json_object *doc = json_object_from_file(path);
	char pa[32], pb[32];
	size_t n;

	memset(ta, 0, sizeof(*ta));
	memset(tb, 0, sizeof(*tb));
	*faults = *spans = *tracks = 0;
	memset(es, 0, sizeof(*es));
	REQUIRE(doc != NULL && json_object_is_type(doc, json_type_array));
	snprintf(pa, sizeof(pa), "%p", (const void *)ca);
	snprintf(pb, sizeof(pb), "%p", (const void *)cb);
	n = json_object_array_length(doc);
	for (size_t i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(doc, i), *args = args_of(ev);
		const char *ph = str_of(ev, "ph"), *cat = str_of(ev, "cat");
		double ts = -1;

		REQUIRE(ph != NULL);
		if (strcmp(ph, "M") == 0) {
			*tracks += strcmp(str_of(ev, "name"), "thread_name") == 0;
			continue;
		}
		CHECK(num_of(ev, "ts", &ts) && ts >= 0);
		if (strcmp(ph, "b") == 0) {
			/* Its end follows: same id, name and category, not earlier, with a status. */
			struct json_object *end = i + 1 < n ? json_object_array_get_idx(doc, i + 1) : NULL;
			const char *ctx = str_of(args, "ctx"), *status = str_of(args_of(end), "status");
			struct tally *t = ctx != NULL && strcmp(ctx, pa) == 0 ? ta : ctx != NULL && strcmp(ctx, pb) == 0 ? tb : NULL;
			double te = -1;

			REQUIRE(end != NULL && t != NULL && status != NULL);
			CHECK(strcmp(str_of(end, "ph"), "e") == 0);
			CHECK(strcmp(str_of(end, "id"), str_of(ev, "id")) == 0);
			CHECK(strcmp(str_of(end, "name"), str_of(ev, "name")) == 0);
			CHECK(strcmp(cat, "task") == 0 && strcmp(str_of(end, "cat"), "task") == 0);
			CHECK(num_of(end, "ts", &te) && te >= ts);
			CHECK(str_of(args, "task") != NULL && strcmp(str_of(args, "ctx_type"), "doca_dma") == 0);
			snprintf(t->name, sizeof(t->name), "%s", str_of(ev, "name"));
			t->slices++;
			t->ok += strcmp(status, "DOCA_SUCCESS") == 0;
			t->flushed += strcmp(status, "DOCA_ERROR_SHUTDOWN") == 0;
			t->failed += strcmp(status, "DOCA_ERROR_INVALID_VALUE") == 0;
			i++;
		} else if (strcmp(ph, "e") == 0) {
			CHECK(!"an end without its beginning just before it");
		} else if (strcmp(ph, "i") == 0 && strcmp(cat, "ctx") == 0) {
			const char *ctx = str_of(args, "ctx"), *from = str_of(args, "from"), *to = str_of(args, "to");
			struct tally *t = strcmp(ctx, pa) == 0 ? ta : strcmp(ctx, pb) == 0 ? tb : NULL;

			REQUIRE(t != NULL && from != NULL && to != NULL);
			t->states++;
			t->idle_to_running |= strcmp(from, "IDLE") == 0 && strcmp(to, "RUNNING") == 0;
			t->running_to_stopping |= strcmp(from, "RUNNING") == 0 && strcmp(to, "STOPPING") == 0;
			t->stopping_to_idle |= strcmp(from, "STOPPING") == 0 && strcmp(to, "IDLE") == 0;
		} else if (strcmp(ph, "i") == 0 && strcmp(cat, "fault") == 0) {
			CHECK(strcmp(str_of(ev, "name"), "fault submit") == 0);
			CHECK(strcmp(str_of(args, "clause"), "submit:nth=5") == 0);
			CHECK(strcmp(str_of(args, "error"), "DOCA_ERROR_AGAIN") == 0);
			(*faults)++;
		} else if (strcmp(ph, "X") == 0) {
			double dur = -1, tid = 0;

			CHECK(num_of(ev, "tid", &tid) && num_of(ev, "dur", &dur) && dur >= 0);
			if (tid == WORKER_TID0 + FAKE_WORKER) {
				CHECK(strcmp(str_of(ev, "name"), "copy") == 0 && dur >= 999.0);
				(*spans)++;
			} else {
				CHECK(is_engine_track(tid) && strcmp(str_of(ev, "name"), "copies") == 0);
				engine_span_seen(es, tid);
			}
		}
	}
	json_object_put(doc);
}

static const char *tool; /* softdoca-trace */

static void every_task_is_one_slice_on_its_engines_track(void)
{
	const char *path = getenv("SOFTDOCA_TRACE");
	struct tally ta, tb;
	bool worker_engine = sd_engine_is_async();
	struct engine_spans es;
	int faults, spans, tracks;
	uint64_t t0;

	REQUIRE(path != NULL && priv_doca_trace_enabled());
	REQUIRE(start(&a, 64) && start(&b, 16));
	run(&a, 50, 50); /* pe1: 50 copies, its 5th submit refused once (submit:nth=5) */
	run(&b, 10, 3);  /* pe2: the 4th fails, so 3 ok, 1 failed, 6 flushed */
	t0 = priv_doca_trace_now_ns();
	priv_doca_trace_worker_span(FAKE_WORKER, "copy", t0, t0 + 1000000); /* as an engine worker records */
	/* The span is written at the next flush: a context stop. */
	REQUIRE(doca_ctx_start(a.fx.ctx) == DOCA_SUCCESS);
	run(&a, 0, 1);

	check_file(path, a.fx.ctx, b.fx.ctx, &ta, &tb, &faults, &spans, &tracks, &es);
	CHECK_EQ_U64(ta.slices, 50);
	CHECK_EQ_U64(ta.ok, 50);
	CHECK(ta.idle_to_running && ta.running_to_stopping && ta.stopping_to_idle);
	CHECK_EQ_U64(ta.states, 6); /* two start-stop periods */
	CHECK(strcmp(ta.name, "pe1 memcpy") == 0);
	CHECK_EQ_U64(tb.slices, 10);
	CHECK_EQ_U64(tb.ok, 3);
	CHECK_EQ_U64(tb.failed, 1);
	CHECK_EQ_U64(tb.flushed, 6);
	CHECK(tb.idle_to_running && tb.running_to_stopping && tb.stopping_to_idle);
	CHECK(strcmp(tb.name, "pe2 memcpy") == 0);
	CHECK_EQ_U64(faults, 1);
	CHECK_EQ_U64(spans, 1);
	CHECK_EQ_U64(tracks, 3 + es.tracks); /* pe1, pe2, engine worker 3, and each real worker track used */
	printf("engine spans: %d on %d track(s)\n", es.spans, es.tracks);
	if (!worker_engine)
		CHECK_EQ_U64(es.spans, 0); /* the inline engine copies inside doca_pe_progress: no worker spans */
}

/* softdoca-trace reads the same file and prints the per-context summary. */
static void softdoca_trace_summarises_it(void)
{
	static char out[16384];
	char cmd[4096], want[128];
	FILE *p;
	size_t n;

	REQUIRE(tool != NULL);
	snprintf(cmd, sizeof(cmd), "'%s' '%s' 2>&1", tool, getenv("SOFTDOCA_TRACE"));
	p = popen(cmd, "r");
	REQUIRE(p != NULL);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	CHECK_EQ_U64(pclose(p), 0);
	printf("%s", out);
	snprintf(want, sizeof(want), "context doca_dma %p on pe1\n  tasks      50 (50 ok, 0 failed, 0 flushed)",
		 (void *)a.fx.ctx);
	CHECK(strstr(out, want) != NULL);
	snprintf(want, sizeof(want), "context doca_dma %p on pe2\n  tasks      10 (3 ok, 1 failed, 6 flushed)",
		 (void *)b.fx.ctx);
	CHECK(strstr(out, want) != NULL);
	CHECK(strstr(out, "60 task slices, 2 context(s), 2 progress engine(s)") != NULL);
	CHECK(strstr(out, "  failures   1 DOCA_ERROR_INVALID_VALUE\n") != NULL);
	CHECK(dt_occurrences(out, "  latency    p50 ") == 2);
	CHECK(strstr(out, "  states     IDLE->RUNNING RUNNING->STOPPING STOPPING->IDLE IDLE->RUNNING") != NULL);
	CHECK(strstr(out, "faults       1 injected\n  1 fault submit (submit:nth=5)") != NULL);
	CHECK(strstr(out, "engine worker 3: 1 span(s), 1.000 ms busy") != NULL);
	sd_fx_teardown(&a.fx);
	sd_fx_teardown(&b.fx);
}

/* Child: a few tasks, then exit without stopping anything. */
static void exit_without_stopping(void)
{
	REQUIRE(start(&a, 8));
	for (int i = 0; i < 5; i++) {
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = 0};

		REQUIRE(doca_dma_task_memcpy_alloc_init(a.fx.dma, sd_fx_src_buf(&a.fx, (size_t)i * 64, 64),
							sd_fx_dst_buf(&a.fx, (size_t)i * 64, 64), ud, &t) == DOCA_SUCCESS);
		REQUIRE(doca_task_submit(as_task(t)) == DOCA_SUCCESS);
	}
	for (int i = 0; i < 100 && a.fx.log.n < 6; i++)
		(void)doca_pe_progress(a.fx.pe);
	exit(a.fx.log.n == 6 ? 0 : 3);
}

/* The trace is complete when a program exits without stopping its contexts. */
static void the_trace_is_written_at_exit(void)
{
	static char out[8192];
	char path[4200], env[4300];
	const char *const child_env[] = {env, "SOFTDOCA_FAULTS=", NULL};
	struct json_object *doc;
	int begins = 0, ends = 0, states = 0;

	snprintf(path, sizeof(path), "%s.exit.json", getenv("SOFTDOCA_TRACE"));
	snprintf(env, sizeof(env), "SOFTDOCA_TRACE=%s", path);
	unlink(path);
	CHECK_EQ_U64(dt_run_self("exit_without_stopping", child_env, out, sizeof(out)), 0);
	doc = json_object_from_file(path);
	REQUIRE(doc != NULL && json_object_is_type(doc, json_type_array));
	for (size_t i = 0; i < json_object_array_length(doc); i++) {
		const char *ph = str_of(json_object_array_get_idx(doc, i), "ph");

		begins += strcmp(ph, "b") == 0;
		ends += strcmp(ph, "e") == 0;
		states += strcmp(ph, "i") == 0;
	}
	CHECK_EQ_U64(begins, 5);
	CHECK_EQ_U64(ends, 5);
	CHECK_EQ_U64(states, 1); /* IDLE -> RUNNING only: it never stopped */
	json_object_put(doc);
	unlink(path);
}

/* The tool's own answers: help, a missing file, a file that is no trace. */
static void softdoca_trace_refuses_what_is_not_a_trace(void)
{
	char cmd[4096];

	REQUIRE(tool != NULL);
	snprintf(cmd, sizeof(cmd), "'%s' --help >/dev/null", tool);
	CHECK(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "'%s' >/dev/null 2>&1", tool);
	CHECK(WEXITSTATUS(system(cmd)) == 1);
	snprintf(cmd, sizeof(cmd), "'%s' /proc/self/status >/dev/null 2>&1", tool);
	CHECK(WEXITSTATUS(system(cmd)) == 2);
	snprintf(cmd, sizeof(cmd), "'%s' /nonexistent/trace.json >/dev/null 2>&1", tool);
	CHECK(WEXITSTATUS(system(cmd)) == 2);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "exit_without_stopping") == 0) {
		exit_without_stopping();
		return sd_test_done();
	}
	tool = argc > 1 ? argv[1] : NULL;
	SD_RUN(every_task_is_one_slice_on_its_engines_track);
	SD_RUN(softdoca_trace_summarises_it);
	SD_RUN(the_trace_is_written_at_exit);
	SD_RUN(softdoca_trace_refuses_what_is_not_a_trace);
	return sd_test_done();
}
