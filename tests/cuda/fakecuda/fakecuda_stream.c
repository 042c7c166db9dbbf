/*
 * fakecuda_stream.c - streams and events of fakecuda.
 *
 * Every stream is a thread that runs a FIFO of operations: copy, event
 * record, wait for an event, host function.  An event points at a marker,
 * a small refcounted "this much of that stream's work is done" flag that the
 * stream thread sets when it reaches the record operation.  Re-recording
 * gives the event a new marker, so the superseded one can still be waited
 * on by whoever captured it (cuStreamWaitEvent), and an event can be
 * destroyed while its record is still queued, as the driver allows.
 *
 * A copy that fails in the stream (FAKECUDA_FAIL_ASYNC_AT) sets the
 * stream's sticky error: later copies and host functions of that stream
 * are dropped, events recorded on it complete with that error, streams
 * that wait on such an event inherit it, and new work for it is refused
 * with it.
 */
#include "fakecuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fc_marker {
	int refs;
	bool done;
	sd_cu_result error;
};

enum fc_op_kind { FC_OP_COPY, FC_OP_RECORD, FC_OP_WAIT, FC_OP_HOST };

struct fc_op {
	enum fc_op_kind kind;
	struct fc_op *next;
	union {
		struct {
			void *dst;
			const void *src;
			size_t len;
			unsigned long delay_us;
			bool fail; /* injected asynchronous failure */
			struct fc_range *dst_range, *src_range;
		} copy;
		struct fc_marker *marker; /* RECORD sets it, WAIT waits for it */
		struct {
			sd_cu_host_fn fn;
			void *arg;
		} host;
	} u;
};

struct sd_cu_stream_st {
	sd_cu_ctx ctx;
	pthread_t thread;
	pthread_cond_t work;      /* something queued, or the stream is closing */
	struct fc_op *head, *tail; /* the head is the one running */
	unsigned long pending;    /* queued plus running */
	sd_cu_result error;       /* sticky */
	int waiters;              /* threads inside cuStreamSynchronize */
	bool destroyed;           /* handle dead; drain, then stop */
	bool finished;            /* the thread has stopped */
	struct sd_cu_stream_st *next;
};

struct sd_cu_event_st {
	sd_cu_ctx ctx;
	unsigned int flags;
	struct fc_marker *marker; /* latest record; NULL when never recorded */
	struct sd_cu_event_st *next;
};

/* Event flags the fake accepts: blocking-sync and disable-timing. */
#define FC_EVENT_FLAGS (SD_CU_EVENT_BLOCKING_SYNC | SD_CU_EVENT_DISABLE_TIMING)

static void fc_marker_unref(struct fc_marker *m)
{
	if (m != NULL && --m->refs == 0)
		free(m);
}

static struct sd_cu_stream_st *fc_stream_live(sd_cu_stream h)
{
	for (struct sd_cu_stream_st *s = fc.streams; s != NULL; s = s->next)
		if (s == h && !s->destroyed)
			return s;
	return NULL;
}

static struct sd_cu_event_st *fc_event_live(sd_cu_event h)
{
	for (struct sd_cu_event_st *e = fc.events; e != NULL; e = e->next)
		if (e == h)
			return e;
	return NULL;
}

int fc_streams_events_of_ctx(sd_cu_ctx ctx)
{
	int n = 0;

	for (struct sd_cu_stream_st *s = fc.streams; s != NULL; s = s->next)
		n += s->ctx == ctx && !s->destroyed;
	for (struct sd_cu_event_st *e = fc.events; e != NULL; e = e->next)
		n += e->ctx == ctx;
	return n;
}

static void fc_sleep_us(unsigned long us)
{
	struct timespec ts = {.tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000};

	while (us > 0 && nanosleep(&ts, &ts) != 0)
		;
}

/* Runs a copy; the bytes move outside the lock (lock held on entry/exit). */
static void fc_run_copy(struct sd_cu_stream_st *s, struct fc_op *op)
{
	if (s->error != SD_CU_SUCCESS) {
		fc.stats.copies_skipped++;
	} else if (op->u.copy.fail) {
		s->error = SD_CU_ERROR_ILLEGAL_ADDRESS;
		fc.stats.copies_failed++;
	} else {
		fc_unlock();
		fc_sleep_us(op->u.copy.delay_us);
		memmove(op->u.copy.dst, op->u.copy.src, op->u.copy.len);
		fc_lock();
		fc.stats.copies_executed++;
	}
	fc_range_unpin(op->u.copy.dst_range);
	fc_range_unpin(op->u.copy.src_range);
}

static void fc_run_wait(struct sd_cu_stream_st *s, struct fc_marker *m)
{
	while (!m->done)
		fc_wait();
	if (m->error != SD_CU_SUCCESS && s->error == SD_CU_SUCCESS)
		s->error = m->error;
	fc_marker_unref(m);
}

static void fc_run_host(struct sd_cu_stream_st *s, struct fc_op *op)
{
	if (s->error != SD_CU_SUCCESS) {
		fc.stats.host_funcs_skipped++;
		return;
	}
	fc_unlock();
	op->u.host.fn(op->u.host.arg);
	fc_lock();
	fc.stats.host_funcs_run++;
}

static void fc_run_op(struct sd_cu_stream_st *s, struct fc_op *op)
{
	switch (op->kind) {
	case FC_OP_COPY:
		fc_run_copy(s, op);
		break;
	case FC_OP_RECORD:
		op->u.marker->error = s->error;
		op->u.marker->done = true;
		fc_marker_unref(op->u.marker);
		break;
	case FC_OP_WAIT:
		fc_run_wait(s, op->u.marker);
		break;
	case FC_OP_HOST:
		fc_run_host(s, op);
		break;
	}
}

/* The stream's thread: run the FIFO in order until destroyed and drained. */
static void *fc_stream_main(void *arg)
{
	struct sd_cu_stream_st *s = arg;

	fc_lock();
	for (;;) {
		struct fc_op *op;

		while (s->head == NULL && !s->destroyed)
			pthread_cond_wait(&s->work, &fc.lock);
		op = s->head;
		if (op == NULL)
			break;
		fc_run_op(s, op);
		s->head = op->next;
		if (s->head == NULL)
			s->tail = NULL;
		s->pending--;
		free(op);
		fc_progress();
	}
	s->finished = true;
	fc_progress();
	fc_unlock();
	return NULL;
}

static void fc_enqueue(struct sd_cu_stream_st *s, struct fc_op *op)
{
	op->next = NULL;
	if (s->tail != NULL)
		s->tail->next = op;
	else
		s->head = op;
	s->tail = op;
	s->pending++;
	pthread_cond_signal(&s->work);
}

/* Joins and frees destroyed streams whose threads have stopped (lock held:
 * a finished thread no longer needs the lock, so the join cannot block). */
static void fc_streams_reap(void)
{
	struct sd_cu_stream_st **link = &fc.streams;

	while (*link != NULL) {
		struct sd_cu_stream_st *s = *link;

		if (!s->finished || s->waiters > 0) {
			link = &s->next;
			continue;
		}
		*link = s->next;
		pthread_join(s->thread, NULL);
		pthread_cond_destroy(&s->work);
		free(s);
	}
}

static sd_cu_result fc_stream_start(sd_cu_ctx ctx, struct sd_cu_stream_st **out)
{
	struct sd_cu_stream_st *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return SD_CU_ERROR_OUT_OF_MEMORY;
	s->ctx = ctx;
	pthread_cond_init(&s->work, NULL);
	if (pthread_create(&s->thread, NULL, fc_stream_main, s) != 0) {
		pthread_cond_destroy(&s->work);
		free(s);
		return SD_CU_ERROR_OUT_OF_MEMORY;
	}
	s->next = fc.streams;
	fc.streams = s;
	*out = s;
	return SD_CU_SUCCESS;
}

sd_cu_result cuStreamCreate(sd_cu_stream *stream, unsigned int flags)
{
	struct sd_cu_stream_st *s;
	sd_cu_ctx ctx;
	sd_cu_result rc;

	fc_lock();
	rc = fc_current_ctx(&ctx);
	if (rc == SD_CU_SUCCESS && (stream == NULL || (flags & ~(unsigned int)SD_CU_STREAM_NON_BLOCKING)))
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS) {
		fc_streams_reap();
		rc = fc_stream_start(ctx, &s);
	}
	if (rc == SD_CU_SUCCESS) {
		fc.stats.streams++;
		*stream = s;
	}
	fc_unlock();
	return rc;
}

/* Returns at once; queued work still runs, then the thread stops. */
sd_cu_result cuStreamDestroy_v2(sd_cu_stream stream)
{
	struct sd_cu_stream_st *s = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && (s = fc_stream_live(stream)) == NULL)
		rc = SD_CU_ERROR_INVALID_HANDLE;
	if (rc == SD_CU_SUCCESS) {
		s->destroyed = true;
		pthread_cond_signal(&s->work);
		fc.stats.streams--;
		fc_streams_reap();
	}
	fc_unlock();
	return rc;
}

sd_cu_result cuStreamSynchronize(sd_cu_stream stream)
{
	struct sd_cu_stream_st *s = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && (s = fc_stream_live(stream)) == NULL)
		rc = SD_CU_ERROR_INVALID_HANDLE;
	if (rc == SD_CU_SUCCESS) {
		s->waiters++;
		while (s->pending > 0)
			fc_wait();
		s->waiters--;
		rc = s->error;
	}
	fc_unlock();
	return rc;
}

/*
 * Checks shared by the calls that queue work: a live stream of the current
 * context (when one must be current) that has not failed.
 */
static sd_cu_result fc_submit_check(sd_cu_stream stream, bool need_ctx, struct sd_cu_stream_st **out)
{
	sd_cu_ctx ctx = NULL;
	sd_cu_result rc = need_ctx ? fc_current_ctx(&ctx) : fc_ready();

	if (rc != SD_CU_SUCCESS)
		return rc;
	*out = fc_stream_live(stream);
	if (*out == NULL || (need_ctx && (*out)->ctx != ctx))
		return SD_CU_ERROR_INVALID_HANDLE;
	return (*out)->error;
}

static struct fc_op *fc_op_new(enum fc_op_kind kind)
{
	struct fc_op *op = calloc(1, sizeof(*op));

	if (op != NULL)
		op->kind = kind;
	return op;
}

/* The range checks, the injected submit failure, then the queueing. */
static sd_cu_result fc_queue_copy(struct sd_cu_stream_st *s, sd_cu_ptr dst, sd_cu_ptr src, size_t len)
{
	bool pageable_ok = !fc.cfg.strict_pinned;
	struct fc_range *dst_range, *src_range;
	struct fc_op *op;
	sd_cu_result rc;

	rc = fc_copy_range((uintptr_t)dst, len, pageable_ok, &dst_range);
	if (rc != SD_CU_SUCCESS)
		return rc;
	rc = fc_copy_range((uintptr_t)src, len, pageable_ok, &src_range);
	if (rc == SD_CU_SUCCESS && ++fc.accepted_copy_calls == fc.cfg.fail_copy_at)
		rc = SD_CU_ERROR_ILLEGAL_ADDRESS;
	op = rc == SD_CU_SUCCESS ? fc_op_new(FC_OP_COPY) : NULL;
	if (rc == SD_CU_SUCCESS && op == NULL)
		rc = SD_CU_ERROR_OUT_OF_MEMORY;
	if (rc != SD_CU_SUCCESS) {
		fc_range_unpin(dst_range);
		fc_range_unpin(src_range);
		return rc;
	}
	op->u.copy.dst = (void *)(uintptr_t)dst;
	op->u.copy.src = (const void *)(uintptr_t)src;
	op->u.copy.len = len;
	op->u.copy.delay_us = fc.cfg.copy_us;
	op->u.copy.dst_range = dst_range;
	op->u.copy.src_range = src_range;
	op->u.copy.fail = ++fc.queued_copies == fc.cfg.fail_async_at;
	fc.stats.copies_queued++;
	fc_enqueue(s, op);
	return SD_CU_SUCCESS;
}

sd_cu_result cuMemcpyAsync(sd_cu_ptr dst, sd_cu_ptr src, size_t len, sd_cu_stream stream)
{
	struct sd_cu_stream_st *s;
	sd_cu_result rc;

	fc_lock();
	rc = fc_submit_check(stream, true, &s);
	if (rc == SD_CU_SUCCESS)
		rc = fc_queue_copy(s, dst, src, len);
	fc_unlock();
	return rc;
}

sd_cu_result cuLaunchHostFunc(sd_cu_stream stream, sd_cu_host_fn fn, void *arg)
{
	struct sd_cu_stream_st *s;
	struct fc_op *op = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_submit_check(stream, true, &s);
	if (rc == SD_CU_SUCCESS && fn == NULL)
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && (op = fc_op_new(FC_OP_HOST)) == NULL)
		rc = SD_CU_ERROR_OUT_OF_MEMORY;
	if (rc == SD_CU_SUCCESS) {
		op->u.host.fn = fn;
		op->u.host.arg = arg;
		fc_enqueue(s, op);
	}
	fc_unlock();
	return rc;
}

sd_cu_result cuEventCreate(sd_cu_event *event, unsigned int flags)
{
	struct sd_cu_event_st *e = NULL;
	sd_cu_ctx ctx;
	sd_cu_result rc;

	fc_lock();
	rc = fc_current_ctx(&ctx);
	if (rc == SD_CU_SUCCESS && (event == NULL || (flags & ~(unsigned int)FC_EVENT_FLAGS) != 0))
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && (e = calloc(1, sizeof(*e))) == NULL)
		rc = SD_CU_ERROR_OUT_OF_MEMORY;
	if (rc == SD_CU_SUCCESS) {
		e->ctx = ctx;
		e->flags = flags;
		e->next = fc.events;
		fc.events = e;
		fc.stats.events++;
		*event = e;
	}
	fc_unlock();
	return rc;
}

/* A record still queued keeps its marker alive; the event goes at once. */
sd_cu_result cuEventDestroy_v2(sd_cu_event event)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS) {
		rc = SD_CU_ERROR_INVALID_HANDLE;
		for (struct sd_cu_event_st **link = &fc.events; *link != NULL; link = &(*link)->next) {
			struct sd_cu_event_st *e = *link;

			if (e != event)
				continue;
			*link = e->next;
			fc_marker_unref(e->marker);
			free(e);
			fc.stats.events--;
			rc = SD_CU_SUCCESS;
			break;
		}
	}
	fc_unlock();
	return rc;
}

/* Event and stream must belong to one context, as in the driver. */
sd_cu_result cuEventRecord(sd_cu_event event, sd_cu_stream stream)
{
	struct sd_cu_stream_st *s = NULL;
	struct sd_cu_event_st *e = NULL;
	struct fc_marker *m = NULL;
	struct fc_op *op = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_submit_check(stream, false, &s);
	if (rc == SD_CU_SUCCESS && ((e = fc_event_live(event)) == NULL || e->ctx != s->ctx))
		rc = SD_CU_ERROR_INVALID_HANDLE;
	if (rc == SD_CU_SUCCESS &&
	    ((m = calloc(1, sizeof(*m))) == NULL || (op = fc_op_new(FC_OP_RECORD)) == NULL))
		rc = SD_CU_ERROR_OUT_OF_MEMORY;
	if (rc == SD_CU_SUCCESS) {
		m->refs = 2; /* the event and the queued record */
		fc_marker_unref(e->marker);
		e->marker = m;
		op->u.marker = m;
		fc_enqueue(s, op);
	} else {
		free(m);
		free(op);
	}
	fc_unlock();
	return rc;
}

sd_cu_result cuEventQuery(sd_cu_event event)
{
	struct sd_cu_event_st *e = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && (e = fc_event_live(event)) == NULL)
		rc = SD_CU_ERROR_INVALID_HANDLE;
	if (rc == SD_CU_SUCCESS && e->marker != NULL)
		rc = e->marker->done ? e->marker->error : SD_CU_ERROR_NOT_READY;
	fc_unlock();
	return rc;
}

/* Holds the marker, so destroying the event meanwhile is harmless. */
sd_cu_result cuEventSynchronize(sd_cu_event event)
{
	struct sd_cu_event_st *e = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && (e = fc_event_live(event)) == NULL)
		rc = SD_CU_ERROR_INVALID_HANDLE;
	if (rc == SD_CU_SUCCESS && e->marker != NULL) {
		struct fc_marker *m = e->marker;

		m->refs++;
		while (!m->done)
			fc_wait();
		rc = m->error;
		fc_marker_unref(m);
	}
	fc_unlock();
	return rc;
}

/* Later work on stream waits for the event's record as it stands now. */
sd_cu_result cuStreamWaitEvent(sd_cu_stream stream, sd_cu_event event, unsigned int flags)
{
	struct sd_cu_stream_st *s = NULL;
	struct sd_cu_event_st *e = NULL;
	struct fc_op *op = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_submit_check(stream, false, &s);
	if (rc == SD_CU_SUCCESS && (e = fc_event_live(event)) == NULL)
		rc = SD_CU_ERROR_INVALID_HANDLE;
	if (rc == SD_CU_SUCCESS && flags != 0)
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && e->marker != NULL && (op = fc_op_new(FC_OP_WAIT)) == NULL)
		rc = SD_CU_ERROR_OUT_OF_MEMORY;
	if (op != NULL) {
		op->u.marker = e->marker;
		e->marker->refs++;
		fc_enqueue(s, op);
	}
	fc_unlock();
	return rc;
}

/* Stops every stream thread (letting its queue drain), waiting at most
 * this long for each, then frees everything. */
#define FC_UNLOAD_JOIN_S 5

static bool fc_join_bounded(pthread_t thread)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += FC_UNLOAD_JOIN_S;
	return pthread_timedjoin_np(thread, NULL, &deadline) == 0;
}

static void fc_events_unload(void)
{
	while (fc.events != NULL) {
		struct sd_cu_event_st *e = fc.events;

		fc.events = e->next;
		fc_marker_unref(e->marker);
		free(e);
	}
}

/*
 * At dlclose or exit.  A stream whose queue never drains (a host function
 * that blocks for ever) leaves everything allocated rather than freeing
 * memory a thread still uses.
 */
__attribute__((destructor)) static void fc_unload(void)
{
	long long live_streams, live_events;

	fc_lock();
	live_streams = fc.stats.streams;
	live_events = fc.stats.events;
	for (struct sd_cu_stream_st *s = fc.streams; s != NULL; s = s->next) {
		s->destroyed = true;
		pthread_cond_signal(&s->work);
	}
	while (fc.streams != NULL) {
		struct sd_cu_stream_st *s = fc.streams;

		fc_unlock(); /* the thread needs the lock to drain */
		if (!fc_join_bounded(s->thread)) {
			fprintf(stderr, "fakecuda: a stream did not drain within %d s at unload\n",
				FC_UNLOAD_JOIN_S);
			return;
		}
		fc_lock();
		fc.streams = s->next;
		pthread_cond_destroy(&s->work);
		free(s);
	}
	fc_events_unload();
	fc_ranges_unload();
	if (live_streams + live_events > 0)
		fprintf(stderr, "fakecuda: unloaded with %lld streams and %lld events alive\n",
			live_streams, live_events);
	fc.init_done = false;
	fc_unlock();
}
