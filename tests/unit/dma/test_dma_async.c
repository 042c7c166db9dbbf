/*
 * test_dma_async.c - what an asynchronous engine must keep, and what the
 * worker engine adds.
 *
 * Group "any" (no argument) runs on every engine (the meson setups
 * `default` and `workers`): appends of several tasks in flight into one
 * destination, the refusal of a task that no longer fits, stopping under
 * load, and the notification handle.  The other groups run with the
 * environment their meson test gives them:
 *   workers   SOFTDOCA_DMA_WORKERS=1: copies happen without the program's
 *             thread, on a thread named sd-dma-w0; a child of fork() gets
 *             workers of its own; a program draining its copies in
 *             doca_pe_progress makes them itself while its worker dozes,
 *             and the worker is back for copies left behind
 *   apart     SOFTDOCA_DMA_WORKER_CPUS=1, this thread on CPU 0: while the
 *             program drives its queue, small copies with nothing in
 *             flight are made inside doca_task_submit
 *   apart-large  the same for 64 KiB copies: all but one in 16 (the
 *             probe) are made in submit, and a program that works between
 *             its copies gets them made by its worker after a probe
 *   topology  a topology whose devices choose dma_workers = 1 and 0, with
 *             SOFTDOCA_DMA_WORKERS=3 in the environment (the file wins)
 *   pinned    SOFTDOCA_DMA_WORKER_CPUS=0 pins the worker to CPU 0
 *   chaos     SOFTDOCA_DMA_CHAOS=delay=3ms,seed=5: completions are late,
 *             contexts interleave, each context keeps its order
 *   bad       malformed values warn once each and leave defaults in place
 *   bad-chaos a malformed SOFTDOCA_DMA_CHAOS warns and leaves chaos off
 *   stalled   SOFTDOCA_DMA_WORKERS=1, SOFTDOCA_MMAP_REGISTER=off: while the
 *             only worker is stuck inside one context's copy (its source
 *             is userfaultfd memory nobody fills yet), a program waiting
 *             on another context's task gets it done by serving that
 *             context's queue itself, and a stop of that context reports
 *             each of its tasks once; one progress call copies about
 *             256 KiB, not the whole queue
 *   card      SOFTDOCA_CARD_TIMING=card_timing_test.table (no workers
 *             asked for): the model selects the asynchronous engine; two
 *             contexts of one card share its engine; one task in flight
 *             takes the modelled latency; a stop reports every task once;
 *             a program whose copies are made and that waits only for the
 *             modelled time never gives its CPU away (sched_yield)
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dma_fixture.h"
#include "sd_threads.h"

#define BIG (1u << 20)

static uint8_t src_mem[8 * BIG];
static uint8_t dst_mem[8 * BIG];

struct env {
	struct fx f;
	struct doca_mmap *ms, *md;
};

static bool env_setup_on(struct env *e, uint32_t dev_index, uint32_t ntasks)
{
	memset(e, 0, sizeof(*e));
	fx_reset_events();
	if (!fx_open_dev(&e->f, dev_index) || doca_pe_create(&e->f.pe) != DOCA_SUCCESS ||
	    doca_dma_create(e->f.dev, &e->f.dma) != DOCA_SUCCESS)
		return false;
	e->f.ctx = doca_dma_as_ctx(e->f.dma);
	if (doca_ctx_set_state_changed_cb(e->f.ctx, fx_state_cb) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(e->f.pe, e->f.ctx) != DOCA_SUCCESS ||
	    doca_dma_task_memcpy_set_conf(e->f.dma, fx_success_cb, fx_error_cb, ntasks) != DOCA_SUCCESS ||
	    doca_buf_inventory_create(1024, &e->f.inv) != DOCA_SUCCESS ||
	    doca_buf_inventory_start(e->f.inv) != DOCA_SUCCESS)
		return false;
	e->ms = fx_mmap(e->f.dev, src_mem, sizeof(src_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	e->md = fx_mmap(e->f.dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return e->ms != NULL && e->md != NULL && fx_start(&e->f);
}

static bool env_setup(struct env *e, uint32_t ntasks)
{
	return env_setup_on(e, 0, ntasks);
}

static void env_teardown(struct env *e)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	if (e->f.ctx != NULL && doca_ctx_get_state(e->f.ctx, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE) {
		(void)doca_ctx_stop(e->f.ctx);
		fx_drain(&e->f);
	}
	if (e->f.dma != NULL)
		CHECK_OK(doca_dma_destroy(e->f.dma));
	e->f.dma = NULL;
	e->f.ctx = NULL;
	if (e->ms != NULL)
		CHECK_OK(doca_mmap_destroy(e->ms));
	if (e->md != NULL)
		CHECK_OK(doca_mmap_destroy(e->md));
	fx_teardown(&e->f);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static int count_events(enum fx_ev_kind kind)
{
	int n = 0;

	for (int i = 0; i < fx_nevents; i++)
		n += fx_events[i].kind == kind;
	return n;
}

/* ---- group "any": every engine ---- */

static void tasks_in_flight_on_one_destination_append_one_after_another(void)
{
	struct env e;
	struct doca_buf *s[8], *d;

	REQUIRE(env_setup(&e, 8));
	fx_fill(src_mem, 800, 3);
	memset(dst_mem, 0, 1000);
	d = fx_buf(&e.f, e.md, dst_mem, 1000, dst_mem, 0);
	REQUIRE(d != NULL);
	for (int i = 0; i < 8; i++) {
		s[i] = fx_buf(&e.f, e.ms, src_mem + 100 * i, 100, src_mem + 100 * i, 100);
		REQUIRE(s[i] != NULL);
	}
	/* All eight are submitted before any is reported. */
	for (int i = 0; i < 8; i++)
		CHECK_OK(doca_task_submit(fx_task(&e.f, s[i], d, (uint64_t)i)));
	fx_drain(&e.f);
	CHECK_EQ_U64(count_events(FX_EV_SUCCESS), 8);
	for (int i = 0; i < 8; i++)
		CHECK(fx_events[1 + i].kind == FX_EV_SUCCESS && fx_events[1 + i].a == (uint64_t)i);
	CHECK_EQ_U64(fx_data_len(d), 800);
	CHECK(memcmp(dst_mem, src_mem, 800) == 0);
	CHECK(all_zero(dst_mem + 800, 200));
	for (int i = 0; i < 8; i++)
		fx_put(s[i]);
	fx_put(d);
	env_teardown(&e);
}

static void appends_into_a_destination_list_continue_where_the_previous_task_ended(void)
{
	struct env e;
	struct doca_buf *s[4], *d[3];

	REQUIRE(env_setup(&e, 4));
	fx_fill(src_mem, 400, 11);
	memset(dst_mem, 0, 3 * 256);
	for (int i = 0; i < 3; i++) {
		d[i] = fx_buf(&e.f, e.md, dst_mem + 256 * i, 150, dst_mem + 256 * i, 0);
		REQUIRE(d[i] != NULL);
	}
	CHECK_OK(doca_buf_chain_list(d[0], d[1]));
	CHECK_OK(doca_buf_chain_list(d[0], d[2]));
	for (int i = 0; i < 4; i++) {
		s[i] = fx_buf(&e.f, e.ms, src_mem + 100 * i, 100, src_mem + 100 * i, 100);
		REQUIRE(s[i] != NULL);
		CHECK_OK(doca_task_submit(fx_task(&e.f, s[i], d[0], (uint64_t)i)));
	}
	fx_drain(&e.f);
	CHECK_EQ_U64(count_events(FX_EV_SUCCESS), 4);
	/* 400 bytes over elements of 150: 150, 150, 100, in submission order. */
	CHECK_EQ_U64(fx_data_len(d[0]), 150);
	CHECK_EQ_U64(fx_data_len(d[1]), 150);
	CHECK_EQ_U64(fx_data_len(d[2]), 100);
	CHECK(memcmp(dst_mem, src_mem, 150) == 0);
	CHECK(memcmp(dst_mem + 256, src_mem + 150, 150) == 0);
	CHECK(memcmp(dst_mem + 512, src_mem + 300, 100) == 0);
	for (int i = 0; i < 4; i++)
		fx_put(s[i]);
	fx_put(d[0]);
	env_teardown(&e);
}

static void a_task_that_no_longer_fits_after_those_in_flight_fails_v5(void)
{
	struct env e;
	struct doca_buf *s, *d;

	REQUIRE(env_setup(&e, 3));
	fx_fill(src_mem, 100, 5);
	d = fx_buf(&e.f, e.md, dst_mem, 250, dst_mem, 0);
	s = fx_buf(&e.f, e.ms, src_mem, 100, src_mem, 100);
	REQUIRE(s != NULL && d != NULL);
	for (int i = 0; i < 3; i++)
		CHECK_OK(doca_task_submit(fx_task(&e.f, s, d, (uint64_t)i)));
	fx_drain(&e.f);
	/* start, two successes, STOPPING, the third fails V5, IDLE */
	REQUIRE(fx_nevents == 6);
	CHECK(fx_events[1].kind == FX_EV_SUCCESS && fx_events[2].kind == FX_EV_SUCCESS);
	CHECK(fx_events[3].kind == FX_EV_STATE && fx_events[3].b == DOCA_CTX_STATE_STOPPING);
	CHECK(fx_events[4].kind == FX_EV_ERROR && fx_events[4].a == 2);
	CHECK_ERR((doca_error_t)fx_events[4].b, DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(fx_data_len(d), 200);
	CHECK(memcmp(dst_mem, src_mem, 100) == 0 && memcmp(dst_mem + 100, src_mem, 100) == 0);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

static void stopping_under_load_reports_every_task_exactly_once(void)
{
	enum { N = 256, SZ = 32 << 10 };
	struct env e;
	struct doca_buf *s[N], *d[N];
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	doca_error_t stop;

	REQUIRE(env_setup(&e, N));
	fx_fill(src_mem, (size_t)N * SZ, 9);
	memset(dst_mem, 0, (size_t)N * SZ);
	for (int i = 0; i < N; i++) {
		s[i] = fx_buf(&e.f, e.ms, src_mem + (size_t)i * SZ, SZ, src_mem + (size_t)i * SZ, SZ);
		d[i] = fx_buf(&e.f, e.md, dst_mem + (size_t)i * SZ, SZ, dst_mem + (size_t)i * SZ, 0);
		REQUIRE(s[i] != NULL && d[i] != NULL);
		CHECK_OK(doca_task_submit(fx_task(&e.f, s[i], d[i], (uint64_t)i)));
	}
	stop = doca_ctx_stop(e.f.ctx);
	CHECK(stop == DOCA_ERROR_IN_PROGRESS);
	fx_drain(&e.f);
	CHECK_OK(doca_ctx_get_state(e.f.ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(count_events(FX_EV_SUCCESS) + count_events(FX_EV_ERROR), N);
	for (int i = 0; i < fx_nevents; i++) {
		const struct fx_event *ev = &fx_events[i];

		if (ev->kind == FX_EV_ERROR)
			CHECK_ERR((doca_error_t)ev->b, DOCA_ERROR_SHUTDOWN);
		if (ev->kind == FX_EV_SUCCESS) /* a reported copy is complete */
			CHECK(memcmp(dst_mem + ev->a * SZ, src_mem + ev->a * SZ, SZ) == 0);
	}
	for (int i = 0; i < N; i++) {
		CHECK_EQ_U64(fx_data_len(d[i]), 0); /* flushed: no metadata change (reset by nobody) */
		fx_put(s[i]);
		fx_put(d[i]);
	}
	env_teardown(&e);
}

/* Arm the PE, then (or before) submit; the handle must become readable without progress. */
static void check_wake(bool arm_before_submit)
{
	struct env e;
	struct doca_buf *s, *d;
	doca_notification_handle_t h;
	struct epoll_event ev = {.events = EPOLLIN}, out;
	int ep = epoll_create1(0);
	int n;

	REQUIRE(ep >= 0);
	REQUIRE(env_setup(&e, 1));
	CHECK_OK(doca_pe_set_event_mode(e.f.pe, DOCA_PE_EVENT_MODE_PROGRESS_ALL));
	CHECK_OK(doca_pe_get_notification_handle(e.f.pe, &h));
	REQUIRE(epoll_ctl(ep, EPOLL_CTL_ADD, h, &ev) == 0);
	fx_fill(src_mem, 4 * BIG, 1);
	s = fx_buf(&e.f, e.ms, src_mem, 4 * BIG, src_mem, 4 * BIG);
	d = fx_buf(&e.f, e.md, dst_mem, 4 * BIG, dst_mem, 0);
	REQUIRE(s != NULL && d != NULL);
	if (arm_before_submit)
		CHECK_OK(doca_pe_request_notification(e.f.pe));
	CHECK_OK(doca_task_submit(fx_task(&e.f, s, d, 1)));
	if (!arm_before_submit)
		CHECK_OK(doca_pe_request_notification(e.f.pe));
	n = epoll_wait(ep, &out, 1, 10000);
	CHECK(n == 1);
	CHECK_OK(doca_pe_clear_notification(e.f.pe, h));
	CHECK(sd_progress_one(e.f.pe) == 1);
	CHECK_EQ_U64(count_events(FX_EV_SUCCESS), 1);
	CHECK(memcmp(dst_mem, src_mem, 4 * BIG) == 0);
	close(ep);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

static void the_handle_wakes_a_pe_armed_before_the_submit(void)
{
	check_wake(true);
}

static void the_handle_wakes_a_pe_armed_after_the_submit(void)
{
	check_wake(false);
}

/* ---- group "workers" ---- */

/* The /proc folder of this process's thread called `name` into `dir`; false when there is none. */
static bool thread_dir(const char *name, char *dir, size_t len)
{
	return sd_threads_named(name, dir, len) > 0;
}

static bool thread_named(const char *name)
{
	char dir[300];

	return thread_dir(name, dir, sizeof(dir));
}

/*
 * Submit a 4 MiB copy and wait, WITHOUT progress, for its bytes; true when
 * they came (within 10 s, or 0.3 s where the copy is expected to wait for
 * progress).
 */
static bool copy_lands_without_progress_within(struct env *e, uint8_t seed, double wait_s)
{
	struct doca_buf *s, *d;
	double deadline = sd_progress_now() + wait_s;
	bool landed = false;

	fx_fill(src_mem, 4 * BIG, seed);
	memset(dst_mem, 0, 4 * BIG);
	s = fx_buf(&e->f, e->ms, src_mem, 4 * BIG, src_mem, 4 * BIG);
	d = fx_buf(&e->f, e->md, dst_mem, 4 * BIG, dst_mem, 0);
	if (s == NULL || d == NULL || doca_task_submit(fx_task(&e->f, s, d, seed)) != DOCA_SUCCESS)
		return false;
	while (!landed && sd_progress_now() < deadline) {
		landed = memcmp(dst_mem + 4 * BIG - 64, src_mem + 4 * BIG - 64, 64) == 0;
		usleep(200);
	}
	/* data_len changes only when the task is reported, on this thread. */
	CHECK_EQ_U64(fx_data_len(d), 0);
	CHECK(sd_progress_one(e->f.pe) == 1);
	CHECK_EQ_U64(fx_data_len(d), 4 * BIG);
	CHECK(memcmp(dst_mem, src_mem, 4 * BIG) == 0);
	fx_put(s);
	fx_put(d);
	return landed;
}

static bool copy_lands_without_progress(struct env *e, uint8_t seed)
{
	return copy_lands_without_progress_within(e, seed, 10);
}

static bool copy_waits_for_progress(struct env *e, uint8_t seed)
{
	return !copy_lands_without_progress_within(e, seed, 0.3);
}

static void copies_run_on_a_library_thread_while_the_program_waits(void)
{
	struct env e;

	REQUIRE(env_setup(&e, 4));
	CHECK(copy_lands_without_progress(&e, 21));
	CHECK(thread_named("sd-dma-w0"));
	env_teardown(&e);
}

static void a_child_of_fork_gets_workers_of_its_own(void)
{
	struct env e;
	pid_t pid;
	int status = 0;

	REQUIRE(env_setup(&e, 4));
	CHECK(copy_lands_without_progress(&e, 31)); /* the parent's worker is running */
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct env c;
		bool ok = env_setup(&c, 4) && copy_lands_without_progress(&c, 41) && sd_test_case_failed == 0;

		_exit(ok ? 0 : 1);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(copy_lands_without_progress(&e, 51)); /* and the parent's still is */
	env_teardown(&e);
}

/* Nanoseconds a thread has run on a CPU, from a /proc schedstat file; -1 where there is none. */
static double thread_cpu_ns(const char *schedstat)
{
	FILE *f = fopen(schedstat, "r");
	double ns = -1;

	if (f != NULL) {
		if (fscanf(f, "%lf", &ns) != 1)
			ns = -1;
		fclose(f);
	}
	return ns;
}

enum { DRAIN_BATCH = 64, DRAIN_SZ = 64 };

/*
 * Batches of DRAIN_BATCH small copies, each submitted whole and then
 * drained in a tight progress loop, for `seconds`; every batch's reports
 * and bytes are checked.  False on the first batch that is wrong.
 */
static bool drain_small_batches(struct env *e, double seconds)
{
	struct doca_buf *s[DRAIN_BATCH], *d[DRAIN_BATCH];
	double t0 = sd_progress_now();
	bool ok = true;

	fx_fill(src_mem, DRAIN_BATCH * DRAIN_SZ, 23);
	for (int i = 0; i < DRAIN_BATCH; i++) {
		s[i] = fx_buf(&e->f, e->ms, src_mem + i * DRAIN_SZ, DRAIN_SZ, src_mem + i * DRAIN_SZ, DRAIN_SZ);
		d[i] = fx_buf(&e->f, e->md, dst_mem + i * DRAIN_SZ, DRAIN_SZ, dst_mem + i * DRAIN_SZ, 0);
		if (s[i] == NULL || d[i] == NULL)
			return false;
	}
	do {
		memset(dst_mem, 0, DRAIN_BATCH * DRAIN_SZ);
		fx_reset_events();
		for (int i = 0; i < DRAIN_BATCH && ok; i++) {
			CHECK_OK(doca_buf_reset_data_len(d[i]));
			ok = doca_task_submit(fx_task(&e->f, s[i], d[i], (uint64_t)i)) == DOCA_SUCCESS;
		}
		while (ok && fx_nevents < DRAIN_BATCH && sd_progress_now() - t0 < seconds + 10)
			(void)doca_pe_progress(e->f.pe);
		ok = ok && count_events(FX_EV_SUCCESS) == DRAIN_BATCH &&
		     memcmp(dst_mem, src_mem, DRAIN_BATCH * DRAIN_SZ) == 0;
	} while (ok && sd_progress_now() - t0 < seconds);
	for (int i = 0; i < DRAIN_BATCH; i++) {
		fx_put(s[i]);
		fx_put(d[i]);
	}
	return ok;
}

/*
 * CPU time of the worker over that of this thread during one drain that
 * gave this thread at least 30 ms on a CPU (in slices of `seconds`, one
 * second at most: other processes may hold the CPUs); -1 where the kernel
 * gives no per-thread CPU time, 2 when the drain failed or did not run.
 */
static double worker_share_of_a_drain(struct env *e, const char *worker_schedstat, double seconds)
{
	double prog0 = thread_cpu_ns("/proc/thread-self/schedstat"), work0 = thread_cpu_ns(worker_schedstat);
	double prog1, work1, t0 = sd_progress_now();

	if (prog0 < 0 || work0 < 0)
		return -1;
	do {
		if (!drain_small_batches(e, seconds))
			return 2;
		prog1 = thread_cpu_ns("/proc/thread-self/schedstat");
	} while (prog1 - prog0 < 0.03e9 && sd_progress_now() - t0 < 1.0);
	work1 = thread_cpu_ns(worker_schedstat);
	printf("     program thread %.0f ms on a CPU, worker %.0f ms\n", (prog1 - prog0) / 1e6, (work1 - work0) / 1e6);
	return prog1 - prog0 >= 0.03e9 ? (work1 - work0) / (prog1 - prog0) : 2;
}

/*
 * A program that waits in doca_pe_progress for its copies makes them
 * itself, and its worker steps off the CPU meanwhile instead of spinning
 * beside it (on a shared machine the two often share one CPU): the
 * worker's CPU time stays well under the program's.  A spinning worker
 * takes about as much CPU as the program (1.0x on a quiet machine).  Other
 * processes can preempt the program, and the worker then rightly makes
 * copies it left (0.3x to 0.66x per drain were seen in a loaded CI run):
 * the median of seven drains is judged, against half the program's time.
 */
static void a_program_draining_its_copies_makes_them_and_its_worker_steps_aside(void)
{
	char dir[300], path[340];
	enum { DRAINS = 7 };
	double share[DRAINS];
	int below = 0;
	struct env e;

	REQUIRE(env_setup(&e, DRAIN_BATCH));
	CHECK(copy_lands_without_progress(&e, 91)); /* the worker is up */
	REQUIRE(thread_dir("sd-dma-w0", dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/schedstat", dir);
	for (int i = 0; i < DRAINS; i++) {
		share[i] = worker_share_of_a_drain(&e, path, 0.1);
		if (share[i] < 0) {
			sd_test_case_skip("this kernel gives no per-thread CPU time (schedstat)");
			env_teardown(&e);
			return;
		}
	}
	for (int i = 0; i < DRAINS; i++)
		below += share[i] < 0.5;
	/* The median of seven under 0.5x: at least four drains. */
	CHECK(below > DRAINS / 2);
	env_teardown(&e);
}

/* This thread on CPU 0, the worker on CPU 1 (SOFTDOCA_DMA_WORKER_CPUS): the worker sees it work. */
static bool on_cpu0_beside_the_worker(void)
{
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2 && sched_setaffinity(0, sizeof(cpu0), &cpu0) == 0;
}

/*
 * Batches of n copies of sz bytes, each submitted whole and then drained,
 * for about `seconds`: *tasks copies, *at_submit of them whose bytes were
 * already there when doca_task_submit returned.  Every report, length and
 * byte is checked.
 */
static void drive_batches(struct env *e, size_t sz, int n, double seconds, uint64_t *tasks, uint64_t *at_submit)
{
	struct doca_buf *s[DRAIN_BATCH], *d[DRAIN_BATCH];
	double t0;

	REQUIRE(n <= DRAIN_BATCH && (size_t)n * sz <= sizeof(src_mem));
	fx_fill(src_mem, (size_t)n * sz, 37);
	for (int i = 0; i < n; i++) {
		s[i] = fx_buf(&e->f, e->ms, src_mem + i * sz, sz, src_mem + i * sz, sz);
		d[i] = fx_buf(&e->f, e->md, dst_mem + i * sz, sz, dst_mem + i * sz, 0);
		REQUIRE(s[i] != NULL && d[i] != NULL);
	}
	t0 = sd_progress_now();
	while (sd_progress_now() - t0 < seconds && sd_test_case_failed == 0) {
		memset(dst_mem, 0, (size_t)n * sz);
		fx_reset_events();
		for (int i = 0; i < n; i++) {
			CHECK_OK(doca_buf_reset_data_len(d[i]));
			CHECK_OK(doca_task_submit(fx_task(&e->f, s[i], d[i], (uint64_t)i)));
			*at_submit += memcmp(dst_mem + i * sz, src_mem + i * sz, sz) == 0;
			CHECK_EQ_U64(fx_data_len(d[i]), 0); /* reported only by progress */
		}
		*tasks += (uint64_t)n;
		while (fx_nevents < n && sd_progress_now() - t0 < 10)
			(void)doca_pe_progress(e->f.pe);
		CHECK_EQ_U64(count_events(FX_EV_SUCCESS), (uint64_t)n);
		CHECK_EQ_U64(fx_data_len(d[n - 1]), sz);
		CHECK(memcmp(dst_mem, src_mem, (size_t)n * sz) == 0);
	}
	for (int i = 0; i < n; i++) {
		fx_put(s[i]);
		fx_put(d[i]);
	}
}

/*
 * While the program drives its own queue (its worker dozes), a small copy
 * submitted with nothing of the queue in flight is made inside
 * doca_task_submit: its bytes are there when the call returns, and its
 * metadata still changes only when progress reports it.  Queued instead,
 * the copy would wait for the next poll or the worker's next look.
 */
static void a_small_copy_submitted_while_the_program_drives_its_queue_is_made_in_submit(void)
{
	uint64_t tasks = 0, at_submit = 0;
	struct env e;

	if (!on_cpu0_beside_the_worker()) {
		sd_test_case_skip("needs CPUs 0 and 1");
		return;
	}
	REQUIRE(env_setup(&e, DRAIN_BATCH));
	drive_batches(&e, DRAIN_SZ, DRAIN_BATCH, 0.3, &tasks, &at_submit);
	printf("     %llu of %llu copies made inside doca_task_submit\n", (unsigned long long)at_submit,
	       (unsigned long long)tasks);
	/*
	 * Nearly all of them, quiet or loaded: over 99% on a quiet machine and
	 * beside three loops of process starts (gcc and coverage builds).  The
	 * queue is marked as the program's (workers_help.c) until the worker has
	 * to make one of its copies or finds it untouched for its spin time, so
	 * a worker that wakes or is preempted does not end it.  While the mark
	 * was the worker's dozing state, that load brought the coverage build
	 * down to 6% to 25%, and a CI run to 0.13%; a path that stops making
	 * copies in submit makes under 1%.
	 */
	CHECK(at_submit * 2 >= tasks);
	env_teardown(&e);
}

enum { LARGE_SZ = 64 << 10, LARGE_BATCH = 16 };

/*
 * Large copies (64 KiB here) of a program that drives its queue are made in
 * submit too, all but one in 16: that one is queued, the probe that lets
 * the worker find out when the program stops waiting (workers_queue.c).
 */
static void large_copies_of_a_program_that_drives_its_queue_are_made_in_submit_but_the_probes(void)
{
	uint64_t tasks = 0, at_submit = 0;
	struct env e;

	if (!on_cpu0_beside_the_worker()) {
		sd_test_case_skip("needs CPUs 0 and 1");
		return;
	}
	REQUIRE(env_setup(&e, LARGE_BATCH));
	drive_batches(&e, LARGE_SZ, LARGE_BATCH, 0.3, &tasks, &at_submit);
	printf("     %llu of %llu copies of 64 KiB made inside doca_task_submit\n", (unsigned long long)at_submit,
	       (unsigned long long)tasks);
	CHECK(at_submit * 2 >= tasks);
	/* One in 16 is a probe; half that rate leaves room for a copy finished by the time it is compared. */
	CHECK(tasks - at_submit >= tasks / 32);
	env_teardown(&e);
}

/*
 * A program that drove its queue and then works between its large copies,
 * progressing only once each has landed, gets them made by its worker
 * after the next probe: at most the 15 copies before it are made in
 * submit, not all 64, which would take its copies' overlap with its work
 * away for good.
 */
static void a_program_that_works_between_its_large_copies_gets_them_made_by_its_worker(void)
{
	uint64_t tasks = 0, at_submit = 0, in_submit = 0;
	struct doca_buf *s, *d;
	struct env e;

	if (!on_cpu0_beside_the_worker()) {
		sd_test_case_skip("needs CPUs 0 and 1");
		return;
	}
	REQUIRE(env_setup(&e, LARGE_BATCH));
	drive_batches(&e, LARGE_SZ, LARGE_BATCH, 0.05, &tasks, &at_submit);
	fx_fill(src_mem, LARGE_SZ, 61);
	s = fx_buf(&e.f, e.ms, src_mem, LARGE_SZ, src_mem, LARGE_SZ);
	d = fx_buf(&e.f, e.md, dst_mem, LARGE_SZ, dst_mem, 0);
	REQUIRE(s != NULL && d != NULL);
	for (int i = 0; i < 64 && sd_test_case_failed == 0; i++) {
		double deadline = sd_progress_now() + 2;
		bool landed;

		memset(dst_mem, 0, LARGE_SZ);
		fx_reset_events();
		CHECK_OK(doca_buf_reset_data_len(d));
		CHECK_OK(doca_task_submit(fx_task(&e.f, s, d, (uint64_t)i)));
		in_submit += memcmp(dst_mem, src_mem, LARGE_SZ) == 0;
		/* The program's own work: no progress until the bytes are there. */
		while (!(landed = memcmp(dst_mem, src_mem, LARGE_SZ) == 0) && sd_progress_now() < deadline)
			;
		CHECK(landed);
		CHECK(sd_progress_one(e.f.pe) == 1);
		CHECK_EQ_U64(fx_data_len(d), LARGE_SZ);
	}
	printf("     %llu of 64 copies made inside doca_task_submit\n", (unsigned long long)in_submit);
	CHECK(in_submit <= 32);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

/* After such a drain the worker dozes; a copy the program then leaves behind is made without progress. */
static void a_copy_left_behind_after_a_busy_drain_lands_without_progress(void)
{
	struct env e;

	REQUIRE(env_setup(&e, DRAIN_BATCH));
	CHECK(drain_small_batches(&e, 0.2));
	CHECK(copy_lands_without_progress(&e, 93));
	CHECK(drain_small_batches(&e, 0.05));
	CHECK(copy_lands_without_progress(&e, 95));
	env_teardown(&e);
}

/*
 * Group "exit-drain": a program whose atexit handler (registered before any
 * DMA context started, so it runs after the library stopped its workers)
 * still drains tasks in flight.  The handler must see every task reported
 * and the bytes copied; it exits non-zero itself otherwise.
 */
static struct env exit_env;

static void drain_at_exit(void)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	int before = count_events(FX_EV_SUCCESS);

	(void)doca_ctx_stop(exit_env.f.ctx);
	fx_drain(&exit_env.f);
	if (doca_ctx_get_state(exit_env.f.ctx, &st) != DOCA_SUCCESS || st != DOCA_CTX_STATE_IDLE ||
	    count_events(FX_EV_SUCCESS) + count_events(FX_EV_ERROR) != 8) {
		fprintf(stderr, "drain at exit: state %d, %d reports (%d before)\n", (int)st,
			count_events(FX_EV_SUCCESS) + count_events(FX_EV_ERROR), before);
		_exit(1);
	}
	printf("ok   drain_at_exit (%d reported before the handler, %d after)\n", before,
	       count_events(FX_EV_SUCCESS) + count_events(FX_EV_ERROR));
}

static void tasks_in_flight_at_exit_are_still_reported(void)
{
	REQUIRE(atexit(drain_at_exit) == 0);
	REQUIRE(env_setup(&exit_env, 8));
	fx_fill(src_mem, 8 * BIG, 17);
	for (int i = 0; i < 8; i++) {
		struct doca_buf *s = fx_buf(&exit_env.f, exit_env.ms, src_mem + (size_t)i * BIG, BIG,
					    src_mem + (size_t)i * BIG, BIG);
		struct doca_buf *d = fx_buf(&exit_env.f, exit_env.md, dst_mem + (size_t)i * BIG, BIG,
					    dst_mem + (size_t)i * BIG, 0);

		REQUIRE(s != NULL && d != NULL);
		CHECK_OK(doca_task_submit(fx_task(&exit_env.f, s, d, (uint64_t)i)));
	}
	/* main returns now, with the eight copies in flight. */
}

/* ---- group "topology" ---- */

static void the_topology_chooses_workers_per_device(void)
{
	struct env dpu, host;

	/* index 0: 0000:03:00.0 (dma_workers = 1), index 1: 0000:b1:00.0 (dma_workers = 0) */
	REQUIRE(env_setup_on(&dpu, 0, 4));
	CHECK(copy_lands_without_progress(&dpu, 61));
	env_teardown(&dpu);
	REQUIRE(env_setup_on(&host, 1, 4));
	CHECK(copy_waits_for_progress(&host, 71)); /* inline: nothing moves until progress */
	env_teardown(&host);
	/* SOFTDOCA_DMA_WORKERS=3 applied to neither device: one worker thread only. */
	CHECK(thread_named("sd-dma-w0"));
	CHECK(!thread_named("sd-dma-w1"));
}

/* ---- group "pinned" ---- */

static void worker_cpus_pin_the_worker_threads(void)
{
	struct env e;
	char dir[300], path[320], line[256];
	bool pinned = false;
	FILE *f;

	REQUIRE(env_setup(&e, 4));
	CHECK(copy_lands_without_progress(&e, 81));
	REQUIRE(thread_dir("sd-dma-w0", dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/status", dir);
	f = fopen(path, "r");
	REQUIRE(f != NULL);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
			pinned = strcmp(line + 18 + strspn(line + 18, " \t"), "0\n") == 0;
	fclose(f);
	CHECK(pinned);
	env_teardown(&e);
}

/* ---- group "chaos" ---- */

#define CHAOS_TASKS 24

static int chaos_order[2 * CHAOS_TASKS];
static int chaos_n;

static void chaos_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	if (chaos_n < 2 * CHAOS_TASKS)
		chaos_order[chaos_n++] = (int)task_ud.u64;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static void chaos_failed(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	(void)task_ud;
	chaos_n = 1000; /* no task may fail */
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

/*
 * One round: 2 * CHAOS_TASKS copies alternating between `a` and `b`, all
 * allocated first and then submitted in a tight loop, drained.  Checks each
 * context's order and the bytes; returns whether the reports alternated as
 * the submits did, and in *submit_s how long the submit loop took.
 */
static bool chaos_round(struct env *e, struct doca_dma *a, struct doca_dma *b, double *submit_s)
{
	struct doca_buf *s[2 * CHAOS_TASKS], *d[2 * CHAOS_TASKS];
	struct doca_dma_task_memcpy *t[2 * CHAOS_TASKS];
	int next[2] = {0, 0};
	bool alternating = true;
	double t0;

	chaos_n = 0;
	memset(dst_mem, 0, 2 * CHAOS_TASKS * 64);
	for (int i = 0; i < 2 * CHAOS_TASKS; i++) {
		union doca_data ud = {.u64 = (uint64_t)i};

		s[i] = fx_buf(&e->f, e->ms, src_mem + 64 * i, 64, src_mem + 64 * i, 64);
		d[i] = fx_buf(&e->f, e->md, dst_mem + 64 * i, 64, dst_mem + 64 * i, 0);
		t[i] = NULL;
		CHECK(s[i] != NULL && d[i] != NULL);
		CHECK_OK(doca_dma_task_memcpy_alloc_init(i % 2 == 0 ? a : b, s[i], d[i], ud, &t[i]));
	}
	t0 = sd_progress_now();
	for (int i = 0; i < 2 * CHAOS_TASKS; i++)
		if (t[i] != NULL)
			CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t[i])));
	*submit_s = sd_progress_now() - t0;
	while (chaos_n < 2 * CHAOS_TASKS && sd_progress_now() - t0 < 20)
		(void)doca_pe_progress(e->f.pe);
	CHECK(chaos_n == 2 * CHAOS_TASKS);
	/* Delays of up to 3 ms each, in order per context: the last one comes well after 3 ms. */
	CHECK(sd_progress_now() - t0 > 0.003);
	for (int i = 0; i < 2 * CHAOS_TASKS && i < chaos_n; i++) {
		int k = chaos_order[i] % 2;

		CHECK_EQ_U64(chaos_order[i], 2 * next[k] + k); /* each context in its own order */
		next[k]++;
		if (i > 0 && chaos_order[i] % 2 == chaos_order[i - 1] % 2)
			alternating = false;
	}
	CHECK(memcmp(dst_mem, src_mem, 2 * CHAOS_TASKS * 64) == 0);
	for (int i = 0; i < 2 * CHAOS_TASKS; i++) {
		fx_put(s[i]);
		fx_put(d[i]);
	}
	return alternating;
}

/*
 * The delays reorder the two contexts' reports against each other, never
 * a context's own.  The interleaving is only visible when the submits land
 * well within the delays (each context's 24 delays of up to 3 ms add up to
 * tens of ms; the submits must take under 10 ms): a round that a loaded
 * machine stretched beyond that proves nothing and is repeated, up to 20.
 */
static void delayed_completions_keep_each_contexts_order(void)
{
	struct env e;
	struct doca_dma *dma2 = NULL;
	bool judged = false;

	REQUIRE(env_setup(&e, CHAOS_TASKS));
	CHECK_OK(doca_ctx_stop(e.f.ctx));
	CHECK_OK(doca_dma_task_memcpy_set_conf(e.f.dma, chaos_done, chaos_failed, CHAOS_TASKS));
	REQUIRE(fx_start(&e.f));
	REQUIRE(doca_dma_create(e.f.dev, &dma2) == DOCA_SUCCESS);
	CHECK_OK(doca_pe_connect_ctx(e.f.pe, doca_dma_as_ctx(dma2)));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma2, chaos_done, chaos_failed, CHAOS_TASKS));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma2)));
	fx_fill(src_mem, 2 * CHAOS_TASKS * 64, 2);
	/*
	 * Random delays can, rarely, interleave the reports exactly as the
	 * submits were; without the delays every round does.  So the reports
	 * must differ from the submits' interleaving in at least one of up to
	 * five judged rounds.
	 */
	int judged_rounds = 0;

	for (int round = 0; round < 20 && judged_rounds < 5 && !judged; round++) {
		double submit_s = 0;
		bool alternating = chaos_round(&e, e.f.dma, dma2, &submit_s);

		if (submit_s < 0.010) {
			judged_rounds++;
			judged = !alternating; /* the contexts' reports interleave differently from their submits */
		} else {
			printf("round %d: the submits took %.2f ms (over 10 ms); again\n", round, submit_s * 1000);
		}
	}
	CHECK(judged);
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma2)));
	fx_drain(&e.f);
	CHECK_OK(doca_dma_destroy(dma2));
	env_teardown(&e);
}

/* ---- group "bad" ---- */

static void malformed_settings_warn_and_leave_the_defaults(void)
{
	struct env e;

	fx_log_capture();
	fx_log_mark();
	REQUIRE(env_setup(&e, 4));
	/* SOFTDOCA_DMA_WORKERS=lots: the copy stays inline (nothing moves before progress). */
	CHECK(copy_waits_for_progress(&e, 91));
	env_teardown(&e);
	CHECK(fx_log_has("SOFTDOCA_DMA_WORKERS=lots is not a number from 0 to 64"));
	CHECK(fx_log_has("SOFTDOCA_DMA_WORKER_CPUS=first is not a CPU list"));
}

static void malformed_chaos_warns_and_stays_off(void)
{
	struct env e;
	double t0;

	fx_log_capture();
	fx_log_mark();
	REQUIRE(env_setup(&e, 4));
	t0 = sd_progress_now();
	CHECK(copy_lands_without_progress(&e, 92));
	CHECK(sd_progress_now() - t0 < 5); /* not held back by a delay of "forever" */
	env_teardown(&e);
	CHECK(fx_log_has("SOFTDOCA_DMA_CHAOS=delay=forever: 'delay=forever' is not delay=TIME"));
}

/* ---- the card timing model (card_timing_test.table) -------------------------- */

#define CARD_SERVICE_S 203.125e-6 /* 1/4000 s - 3 ms / 64, per task */
#define CARD_LATENCY_S 3e-3

static void a_card_model_selects_the_asynchronous_engine(void)
{
	struct env e;

	REQUIRE(env_setup(&e, 4));
	CHECK(copy_lands_without_progress(&e, 31));
	env_teardown(&e);
}

/* Submit `n` 64 B copies on `e` at offset `base` of the test memory. */
static bool card_submit(struct env *e, int n, size_t base, struct doca_buf **s, struct doca_buf **d)
{
	for (int i = 0; i < n; i++) {
		size_t off = base + (size_t)i * 64;
		s[i] = fx_buf(&e->f, e->ms, src_mem + off, 64, src_mem + off, 64);
		d[i] = fx_buf(&e->f, e->md, dst_mem + off, 64, dst_mem + off, 0);
		if (s[i] == NULL || d[i] == NULL || doca_task_submit(fx_task(&e->f, s[i], d[i], (uint64_t)i)) != DOCA_SUCCESS)
			return false;
	}
	return true;
}

static void card_put(int n, struct doca_buf **s, struct doca_buf **d)
{
	for (int i = 0; i < n; i++) {
		fx_put(s[i]);
		fx_put(d[i]);
	}
}

static void two_contexts_of_one_card_share_its_engine(void)
{
	enum { N = 16 };
	struct env a, b;
	struct doca_buf *sa[N], *da[N], *sb[N], *db[N];
	double t0, took;

	REQUIRE(env_setup_on(&a, 0, N));
	REQUIRE(env_setup_on(&b, 0, N)); /* the same device: one card */
	fx_reset_events();
	t0 = sd_progress_now();
	REQUIRE(card_submit(&a, N, 0, sa, da) && card_submit(&b, N, BIG, sb, db));
	while (count_events(FX_EV_SUCCESS) + count_events(FX_EV_ERROR) < 2 * N &&
	       sd_progress_now() - t0 < 10) {
		doca_pe_progress(a.f.pe);
		doca_pe_progress(b.f.pe);
	}
	took = sd_progress_now() - t0;
	CHECK_EQ_U64(count_events(FX_EV_SUCCESS), 2 * N);
	/* One engine serves both: 2N services then the latency; two engines would take N services. */
	printf("     %d tasks on two contexts took %.2f ms; one shared engine models %.2f ms, two would %.2f ms\n",
	       2 * N, took * 1e3, (2 * N * CARD_SERVICE_S + CARD_LATENCY_S) * 1e3,
	       (N * CARD_SERVICE_S + CARD_LATENCY_S) * 1e3);
	CHECK(took >= 0.9 * (2 * N * CARD_SERVICE_S + CARD_LATENCY_S));
	card_put(N, sa, da);
	card_put(N, sb, db);
	env_teardown(&a);
	env_teardown(&b);
}

static void one_task_in_flight_takes_the_modelled_latency(void)
{
	struct env e;
	struct doca_buf *s[1], *d[1];
	double t0, took;

	REQUIRE(env_setup(&e, 1));
	for (int i = 0; i < 3; i++) {
		fx_reset_events();
		t0 = sd_progress_now();
		REQUIRE(card_submit(&e, 1, 0, s, d));
		CHECK(sd_progress_one(e.f.pe) == 1);
		took = sd_progress_now() - t0;
		CHECK_EQ_U64(count_events(FX_EV_SUCCESS), 1);
		CHECK(took >= CARD_SERVICE_S + CARD_LATENCY_S - 50e-6); /* clock granularity */
		card_put(1, s, d);
	}
	env_teardown(&e);
}

/*
 * This executable's sched_yield comes first for the libraries too: it counts
 * the calls of each thread, then yields as usual.
 */
static int (*real_sched_yield)(void);
static _Thread_local unsigned long yields_here;

static void __attribute__((constructor)) find_real_sched_yield(void)
{
	*(void **)&real_sched_yield = dlsym(RTLD_NEXT, "sched_yield");
}

int sched_yield(void)
{
	yields_here++;
	return real_sched_yield != NULL ? real_sched_yield() : 0;
}

/*
 * Between the first and the last completion of a batch every copy is made
 * and only the model's clock is awaited: nothing another thread must do.
 * A yield there lets another process's time slice (milliseconds on a busy
 * machine) delay the report past the modelled time, so the program's
 * thread keeps polling instead.  The old loop yielded every 256 polls:
 * dozens of times per batch where the yields returned at once, and where
 * each one lost the CPU for a time slice, a few hundred polls in all.  A
 * few yields are allowed for a worker preempted in the middle of its pass,
 * which the program does have to wait for.
 */
static void a_program_waiting_for_the_modelled_time_keeps_its_cpu(void)
{
	enum { N = 16, ROUNDS = 3 };
	struct env e;
	struct doca_buf *s[N], *d[N];
	unsigned long yields = 0, polls = 0;

	REQUIRE(env_setup(&e, N));
	for (int r = 0; r < ROUNDS; r++) {
		double t0;
		unsigned long before = 0;
		bool counting = false;

		fx_reset_events();
		t0 = sd_progress_now();
		REQUIRE(card_submit(&e, N, 0, s, d));
		while (count_events(FX_EV_SUCCESS) + count_events(FX_EV_ERROR) < N && sd_progress_now() - t0 < 10) {
			doca_pe_progress(e.f.pe);
			if (!counting && count_events(FX_EV_SUCCESS) != 0) {
				counting = true;
				before = yields_here;
			}
			polls += counting;
		}
		yields += yields_here - before;
		CHECK_EQ_U64(count_events(FX_EV_SUCCESS), N);
		card_put(N, s, d);
	}
	printf("     %lu yields in %lu progress calls between the first and the last completion\n", yields, polls);
	CHECK(polls > 1000); /* it kept its CPU: about 9 ms of polling */
	CHECK(yields <= 4);
	env_teardown(&e);
}

/* ---- group "stalled" ---- */

/* A userfaultfd over [p, p + len): a first touch there blocks until uffd_fill.  -1 where the kernel refuses. */
static int uffd_open(void *p, size_t len)
{
	static const int flags[] = {O_CLOEXEC | O_NONBLOCK, O_CLOEXEC | O_NONBLOCK | 1 /* UFFD_USER_MODE_ONLY */};
	struct uffdio_register reg = {.range = {.start = (uintptr_t)p, .len = len},
				      .mode = UFFDIO_REGISTER_MODE_MISSING};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct uffdio_api api = {.api = UFFD_API};
		int fd = (int)syscall(SYS_userfaultfd, flags[i]);

		if (fd < 0)
			continue;
		if (ioctl(fd, UFFDIO_API, &api) == 0 && ioctl(fd, UFFDIO_REGISTER, &reg) == 0)
			return fd;
		close(fd);
	}
	return -1;
}

/* Wait (up to 10 s) until some thread is blocked on a first touch of the region. */
static bool uffd_someone_waits(int fd)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	struct uffd_msg msg;

	return poll(&pfd, 1, 10000) == 1 && read(fd, &msg, sizeof(msg)) == (ssize_t)sizeof(msg) &&
	       msg.event == UFFD_EVENT_PAGEFAULT;
}

/* Give the region the bytes of `from` (which wakes whoever waits on it). */
static bool uffd_fill(int fd, void *p, const void *from, size_t len)
{
	struct uffdio_copy copy = {.dst = (uintptr_t)p, .src = (uintptr_t)from, .len = len};

	return ioctl(fd, UFFDIO_COPY, &copy) == 0 && copy.copy == (int64_t)len;
}

/*
 * Context A of `a` with its worker stuck inside a copy whose source is
 * userfaultfd memory: the worker blocks on the first page until stuck_release.
 */
enum { STUCK_SZ = 64 << 10 };

struct stuck {
	uint8_t *mem;
	int uffd;
	struct doca_mmap *map;
	struct doca_buf *s, *d;
};

/* false with the case skipped where userfaultfd is refused, or a failed check. */
static bool stuck_start(struct stuck *st, struct env *a)
{
	st->mem = mmap(NULL, STUCK_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(st->mem != MAP_FAILED);
	if (st->mem == MAP_FAILED)
		return false;
	st->uffd = uffd_open(st->mem, STUCK_SZ);
	if (st->uffd < 0) {
		sd_test_case_skip("userfaultfd is not available to this process");
		munmap(st->mem, STUCK_SZ);
		return false;
	}
	st->map = fx_mmap(a->f.dev, st->mem, STUCK_SZ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK(st->map != NULL);
	fx_fill(src_mem, STUCK_SZ, 13);
	memset(dst_mem, 0, STUCK_SZ);
	st->s = st->map != NULL ? fx_buf(&a->f, st->map, st->mem, STUCK_SZ, st->mem, STUCK_SZ) : NULL;
	st->d = fx_buf(&a->f, a->md, dst_mem, STUCK_SZ, dst_mem, 0);
	CHECK(st->s != NULL && st->d != NULL);
	if (st->s == NULL || st->d == NULL)
		return false; /* the case failed; its memory goes with the process */
	CHECK_OK(doca_task_submit(fx_task(&a->f, st->s, st->d, 1000)));
	CHECK(uffd_someone_waits(st->uffd));
	return true; /* stuck_release frees it all, also after a failed check */
}

/* Let the worker go: A completes with the bytes the region got. */
static void stuck_release(struct stuck *st, struct env *a)
{
	int before = count_events(FX_EV_SUCCESS);

	CHECK(uffd_fill(st->uffd, st->mem, src_mem, STUCK_SZ));
	CHECK(sd_progress_one(a->f.pe) == 1);
	CHECK_EQ_U64(count_events(FX_EV_SUCCESS), before + 1);
	CHECK(memcmp(dst_mem, src_mem, STUCK_SZ) == 0);
	fx_put(st->s);
	fx_put(st->d);
	CHECK_OK(doca_mmap_destroy(st->map)); /* before its device closes */
	close(st->uffd);
	munmap(st->mem, STUCK_SZ);
}

/* B's buffers go back, then A's stuck worker is let go (its own checks). */
static void put_pairs_and_release(struct doca_buf **sb, struct doca_buf **db, int n, struct stuck *st,
				  struct env *a)
{
	for (int i = 0; i < n; i++) {
		fx_put(sb[i]);
		fx_put(db[i]);
	}
	stuck_release(st, a);
}

static void a_waiting_program_serves_its_queue_while_the_worker_is_stuck(void)
{
	enum { SMALL = 256, AT = STUCK_SZ };
	struct env a, b;
	struct stuck st;
	struct doca_buf *sb, *db;

	REQUIRE(env_setup_on(&a, 0, 1));
	REQUIRE(env_setup_on(&b, 0, 1)); /* SOFTDOCA_DMA_WORKERS=1: the same worker serves both */
	fx_reset_events();
	if (stuck_start(&st, &a)) {
		fx_fill(src_mem + AT, SMALL, 17);
		sb = fx_buf(&b.f, b.ms, src_mem + AT, SMALL, src_mem + AT, SMALL);
		db = fx_buf(&b.f, b.md, dst_mem + AT, SMALL, dst_mem + AT, 0);
		REQUIRE(sb != NULL && db != NULL);
		/* B's task on the same worker: only this thread can make its copy now. */
		CHECK_OK(doca_task_submit(fx_task(&b.f, sb, db, 1)));
		CHECK(sd_progress_one(b.f.pe) == 1);
		CHECK_EQ_U64(count_events(FX_EV_SUCCESS), 1);
		CHECK(fx_nevents >= 1 && fx_events[fx_nevents - 1].a == 1);
		CHECK(memcmp(dst_mem + AT, src_mem + AT, SMALL) == 0);
		CHECK_EQ_U64(fx_data_len(db), SMALL);
		put_pairs_and_release(&sb, &db, 1, &st, &a);
	}
	env_teardown(&a);
	env_teardown(&b);
}

/*
 * A waiting program's pass is bounded: with its only worker stuck, one
 * doca_pe_progress call over six 1 MiB copies makes the first (a pass
 * ends with the entry that reaches 256 KiB) and reports it; the next calls
 * make the rest, one each.
 */
static void one_progress_call_of_a_waiting_program_copies_a_bounded_amount(void)
{
	enum { N = 6, AT = STUCK_SZ };
	struct env a, b;
	struct stuck st;
	struct doca_buf *sb[N], *db[N];

	REQUIRE(env_setup_on(&a, 0, 1));
	REQUIRE(env_setup_on(&b, 0, N));
	fx_reset_events();
	if (stuck_start(&st, &a)) {
		fx_fill(src_mem + AT, (size_t)N * BIG, 29);
		memset(dst_mem + AT, 0, (size_t)N * BIG);
		for (int i = 0; i < N; i++) {
			size_t at = AT + (size_t)i * BIG;

			sb[i] = fx_buf(&b.f, b.ms, src_mem + at, BIG, src_mem + at, BIG);
			db[i] = fx_buf(&b.f, b.md, dst_mem + at, BIG, dst_mem + at, 0);
			REQUIRE(sb[i] != NULL && db[i] != NULL);
			CHECK_OK(doca_task_submit(fx_task(&b.f, sb[i], db[i], (uint64_t)i)));
		}
		CHECK(doca_pe_progress(b.f.pe) == 1);
		CHECK_EQ_U64(count_events(FX_EV_SUCCESS), 1);
		CHECK(memcmp(dst_mem + AT, src_mem + AT, BIG) == 0);
		CHECK(all_zero(dst_mem + AT + BIG, (size_t)(N - 1) * BIG));
		for (int i = 1; i < N; i++)
			CHECK(doca_pe_progress(b.f.pe) == 1);
		CHECK_EQ_U64(count_events(FX_EV_SUCCESS), N);
		CHECK(memcmp(dst_mem + AT, src_mem + AT, (size_t)N * BIG) == 0);
		put_pairs_and_release(sb, db, N, &st, &a);
	}
	env_teardown(&a);
	env_teardown(&b);
}

static void stopping_a_context_while_its_worker_is_stuck_reports_every_task_once(void)
{
	enum { N = 32, SMALL = 512, AT = STUCK_SZ };
	struct env a, b;
	struct stuck st;
	struct doca_buf *sb[N], *db[N];
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;

	REQUIRE(env_setup_on(&a, 0, 1));
	REQUIRE(env_setup_on(&b, 0, N));
	fx_reset_events();
	if (stuck_start(&st, &a)) {
		fx_fill(src_mem + AT, (size_t)N * SMALL, 19);
		for (int i = 0; i < N; i++) {
			size_t at = AT + (size_t)i * SMALL;

			sb[i] = fx_buf(&b.f, b.ms, src_mem + at, SMALL, src_mem + at, SMALL);
			db[i] = fx_buf(&b.f, b.md, dst_mem + at, SMALL, dst_mem + at, 0);
			REQUIRE(sb[i] != NULL && db[i] != NULL);
			CHECK_OK(doca_task_submit(fx_task(&b.f, sb[i], db[i], (uint64_t)i)));
		}
		/* The stop flushes B's tasks: this thread skips the copies the stuck worker cannot make. */
		CHECK(doca_ctx_stop(b.f.ctx) == DOCA_ERROR_IN_PROGRESS);
		fx_drain(&b.f);
		CHECK_OK(doca_ctx_get_state(b.f.ctx, &state));
		CHECK(state == DOCA_CTX_STATE_IDLE);
		CHECK_EQ_U64(count_events(FX_EV_SUCCESS) + count_events(FX_EV_ERROR), N);
		for (int i = 0; i < fx_nevents; i++) {
			const struct fx_event *ev = &fx_events[i];

			if (ev->kind == FX_EV_ERROR)
				CHECK_ERR((doca_error_t)ev->b, DOCA_ERROR_SHUTDOWN);
			if (ev->kind == FX_EV_SUCCESS) /* a reported copy is complete */
				CHECK(memcmp(dst_mem + AT + ev->a * SMALL, src_mem + AT + ev->a * SMALL, SMALL) == 0);
		}
		put_pairs_and_release(sb, db, N, &st, &a);
	}
	env_teardown(&a);
	env_teardown(&b);
}

int main(int argc, char **argv)
{
	const char *group = argc > 1 ? argv[1] : "any";

	if (strcmp(group, "any") == 0) {
		SD_RUN(tasks_in_flight_on_one_destination_append_one_after_another);
		SD_RUN(appends_into_a_destination_list_continue_where_the_previous_task_ended);
		SD_RUN(a_task_that_no_longer_fits_after_those_in_flight_fails_v5);
		SD_RUN(stopping_under_load_reports_every_task_exactly_once);
		SD_RUN(the_handle_wakes_a_pe_armed_before_the_submit);
		SD_RUN(the_handle_wakes_a_pe_armed_after_the_submit);
	} else if (strcmp(group, "workers") == 0) {
		SD_RUN(copies_run_on_a_library_thread_while_the_program_waits);
		SD_RUN(a_child_of_fork_gets_workers_of_its_own);
		SD_RUN(a_program_draining_its_copies_makes_them_and_its_worker_steps_aside);
		SD_RUN(a_copy_left_behind_after_a_busy_drain_lands_without_progress);
	} else if (strcmp(group, "apart") == 0) {
		SD_RUN(a_small_copy_submitted_while_the_program_drives_its_queue_is_made_in_submit);
	} else if (strcmp(group, "apart-large") == 0) {
		SD_RUN(large_copies_of_a_program_that_drives_its_queue_are_made_in_submit_but_the_probes);
		SD_RUN(a_program_that_works_between_its_large_copies_gets_them_made_by_its_worker);
	} else if (strcmp(group, "exit-drain") == 0) {
		SD_RUN(tasks_in_flight_at_exit_are_still_reported);
	} else if (strcmp(group, "topology") == 0) {
		SD_RUN(the_topology_chooses_workers_per_device);
	} else if (strcmp(group, "pinned") == 0) {
		SD_RUN(worker_cpus_pin_the_worker_threads);
	} else if (strcmp(group, "chaos") == 0) {
		SD_RUN(delayed_completions_keep_each_contexts_order);
	} else if (strcmp(group, "bad") == 0) {
		SD_RUN(malformed_settings_warn_and_leave_the_defaults);
	} else if (strcmp(group, "card") == 0) {
		SD_RUN(a_card_model_selects_the_asynchronous_engine);
		SD_RUN(two_contexts_of_one_card_share_its_engine);
		SD_RUN(one_task_in_flight_takes_the_modelled_latency);
		SD_RUN(a_program_waiting_for_the_modelled_time_keeps_its_cpu);
		SD_RUN(stopping_under_load_reports_every_task_exactly_once);
	} else if (strcmp(group, "bad-chaos") == 0) {
		SD_RUN(malformed_chaos_warns_and_stays_off);
	} else if (strcmp(group, "stalled") == 0) {
		SD_RUN(a_waiting_program_serves_its_queue_while_the_worker_is_stuck);
		SD_RUN(stopping_a_context_while_its_worker_is_stuck_reports_every_task_once);
		SD_RUN(one_progress_call_of_a_waiting_program_copies_a_bounded_amount);
	} else {
		fprintf(stderr, "unknown group %s\n", group);
		return 2;
	}
	return sd_test_done();
}
