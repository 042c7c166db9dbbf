/*
 * pe_event - the event-driven PE flow.
 *
 * The notification handle is fetched and added to epoll before any
 * context exists; the thread then loops "progress until 0, arm, sleep in
 * epoll_wait, clear(pe, 0)".  A lost wake-up would hang the sample; here
 * every wait has a timeout and a timeout fails the case.  Also asserted:
 * an armed PE with nothing to do is NOT readable (a descriptor that is
 * always readable is not conforming), arming with work pending signals at
 * once, a submit / a stop / the free that makes a stopping context
 * eligible each signal an armed PE, clear drains whatever handle it is
 * given, and each PE has its own descriptor.
 */
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "flows.h"

#define NUM_TASKS 16
#define WAIT_MS 10000

struct event_state {
	struct doca_ctx *ctx;
	int completed;
	int failed;
	int bad_data;
};

static void event_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct event_state *st = ctx_ud.ptr;

	st->completed++;
	if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
		st->bad_data++;
	flow_release_task(task);
}

static void event_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct event_state *st = ctx_ud.ptr;

	(void)task_ud;
	st->completed++;
	st->failed++;
	flow_release_task(task);
}

/* Is the descriptor readable right now?  (Never reads it: the PE owns it.) */
static bool event_readable(doca_notification_handle_t fd, int timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static doca_notification_handle_t event_handle(struct doca_pe *pe)
{
	doca_notification_handle_t h = doca_event_invalid_handle;

	CHECK_OK(doca_pe_get_notification_handle(pe, &h));
	CHECK(h != doca_event_invalid_handle);
	return h;
}

/* The sample's whole flow, with epoll and with a bound on every wait. */
static void event_epoll_loop_completes_sixteen_copies(void)
{
	struct flow_base b;
	struct event_state st = {0};
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	struct epoll_event ev = {.events = EPOLLIN}, out;
	doca_notification_handle_t h;
	struct doca_dma *dma;
	int epfd, wakeups = 0, sleeps = 0;
	bool done = false;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	epfd = epoll_create1(EPOLL_CLOEXEC);
	REQUIRE(epfd >= 0);
	/* Registered before any context is created or connected. */
	h = event_handle(b.pe);
	CHECK(event_handle(b.pe) == h); /* the same handle for the PE's life */
	CHECK(epoll_ctl(epfd, EPOLL_CTL_ADD, h, &ev) == 0);

	dma = flow_dma_new(&b, event_ok_cb, event_err_cb, NUM_TASKS, &st, NULL);
	REQUIRE(dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	CHECK_OK(doca_ctx_start(st.ctx));
	for (int i = 0; i < NUM_TASKS; i++) {
		tasks[i] = flow_alloc_copy_task(&b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(tasks[i] != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	}

	while (!done) {
		int n;

		while (doca_pe_progress(b.pe)) {
			/* B2: the call that delivers the 16th report returns non-zero. */
			if (st.completed == NUM_TASKS) {
				done = true;
				break;
			}
		}
		if (done)
			break;
		CHECK_OK(doca_pe_request_notification(b.pe));
		sleeps++;
		n = epoll_wait(epfd, &out, 1, WAIT_MS);
		if (n != 1) {
			fprintf(stderr, "lost wake-up: epoll_wait returned %d with %d of %d reported\n", n,
				st.completed, NUM_TASKS);
			CHECK(!"lost wake-up");
			break;
		}
		wakeups++;
		CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	}
	CHECK_EQ_U64(st.completed, NUM_TASKS);
	CHECK_EQ_U64(st.failed, 0);
	CHECK_EQ_U64(st.bad_data, 0);
	CHECK_EQ_U64(wakeups, sleeps);
	/* With the default engine every call reports: the thread never has to sleep. */
	if (flow_default_engine())
		CHECK_EQ_U64(sleeps, 0);

	/* Idle and armed: the descriptor must stay quiet. */
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(!event_readable(h, 50));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));

	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_OK(doca_dma_destroy(dma));
	close(epfd);
	flow_base_cleanup(&b);
}

/* Arm first, then give the PE work: each kind of new work must signal. */
static void event_new_work_signals_an_armed_pe(void)
{
	struct flow_base b;
	struct event_state st = {0};
	struct doca_dma_task_memcpy *task, *held;
	doca_notification_handle_t h;
	struct doca_dma *dma;

	REQUIRE(flow_base_init(&b, 32 * 1024, 32));
	h = event_handle(b.pe);
	/* A PE without contexts: arming is allowed and nothing is pending. */
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(!event_readable(h, 0));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));

	dma = flow_dma_new(&b, event_ok_cb, event_err_cb, NUM_TASKS, &st, NULL);
	REQUIRE(dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	CHECK_OK(doca_ctx_start(st.ctx));

	/* 1. A submit while armed. */
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(!event_readable(h, 0));
	task = flow_alloc_copy_task(&b, dma, 7, 7);
	REQUIRE(task != NULL);
	CHECK(!event_readable(h, 0)); /* allocation alone is no work */
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
	CHECK(event_readable(h, WAIT_MS));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	CHECK(!event_readable(h, 0)); /* clear drained it */
	flow_poll_counter(b.pe, &st.completed, 1);
	CHECK_EQ_U64(st.completed, 1);
	CHECK_EQ_U64(st.bad_data, 0);

	/* 2. Arming while work is already pending signals at once. */
	task = flow_alloc_copy_task(&b, dma, 8, 8);
	REQUIRE(task != NULL);
	CHECK_OK(doca_task_try_submit(doca_dma_task_memcpy_as_task(task)));
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(event_readable(h, WAIT_MS));
	/* clear ignores its handle argument, whatever it is. */
	CHECK_OK(doca_pe_clear_notification(b.pe, 12345));
	CHECK(!event_readable(h, 0));
	flow_poll_counter(b.pe, &st.completed, 2);

	/* 3. A stop that cannot finish: the context waits for a held task. */
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){.u64 = 0}, &held));
	REQUIRE(held != NULL);
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK_ERR(doca_ctx_stop(st.ctx), DOCA_ERROR_IN_PROGRESS);
	/* Nothing to progress while the task is held: no signal. */
	CHECK(!event_readable(h, 20));
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);
	/* 4. The free that makes the stopping context eligible for IDLE signals. */
	CHECK_OK(doca_pe_request_notification(b.pe));
	doca_task_free(doca_dma_task_memcpy_as_task(held));
	CHECK(event_readable(h, WAIT_MS));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	CHECK_EQ_U64(doca_pe_progress(b.pe), 1);
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0);

	/* 5. A stop with tasks in flight leaves flushes pending: it signals. */
	CHECK_OK(doca_ctx_start(st.ctx));
	b.next_off = 0;
	task = flow_alloc_copy_task(&b, dma, 9, 9);
	REQUIRE(task != NULL);
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
	CHECK_OK(doca_pe_request_notification(b.pe)); /* pending: signals at once */
	CHECK(event_readable(h, WAIT_MS));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(event_readable(h, 0)); /* still pending: signals again at once */
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	CHECK_ERR(doca_ctx_stop(st.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(event_readable(h, WAIT_MS));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	st.failed = 0;
	flow_poll_until_idle(b.pe, st.ctx);
	CHECK_EQ_U64(st.failed, 1); /* the flushed task */
	CHECK(flow_ctx_state(st.ctx) == DOCA_CTX_STATE_IDLE);

	/* Quiet again once everything is done. */
	CHECK_OK(doca_pe_request_notification(b.pe));
	CHECK(!event_readable(h, 20));
	CHECK_OK(doca_pe_clear_notification(b.pe, 0));
	CHECK_OK(doca_dma_destroy(dma));
	flow_base_cleanup(&b);
}

/* Each PE has its own descriptor; PROGRESS_ALL arming drains by itself. */
static void event_each_pe_has_its_own_handle(void)
{
	struct doca_pe *pe1 = NULL, *pe2 = NULL;
	doca_notification_handle_t h1, h2;

	CHECK_OK(doca_pe_create(&pe1));
	CHECK_OK(doca_pe_create(&pe2));
	REQUIRE(pe1 != NULL && pe2 != NULL);
	h1 = event_handle(pe1);
	h2 = event_handle(pe2);
	CHECK(h1 != h2);
	CHECK_OK(doca_pe_set_event_mode(pe1, DOCA_PE_EVENT_MODE_PROGRESS_ALL));
	CHECK_OK(doca_pe_request_notification(pe1));
	CHECK(!event_readable(h1, 0));
	CHECK_OK(doca_pe_request_notification(pe1)); /* re-arming an armed PE is fine */
	CHECK(!event_readable(h1, 0));
	CHECK_OK(doca_pe_clear_notification(pe1, h1));
	CHECK_OK(doca_pe_destroy(pe1));
	CHECK_OK(doca_pe_destroy(pe2));
}

int main(void)
{
	SD_RUN(event_epoll_loop_completes_sixteen_copies);
	SD_RUN(event_new_work_signals_an_armed_pe);
	SD_RUN(event_each_pe_has_its_own_handle);
	return sd_test_done();
}
