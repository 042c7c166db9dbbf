/*
 * trace.c - SOFTDOCA_TRACE=FILE: a Chrome trace-event JSON file (the JSON
 * array form), which Perfetto and chrome://tracing open as a timeline.
 *
 * What it holds:
 *  - one slice per task, from its submit to its report (the callback), as
 *    a nestable asynchronous event pair ("b"/"e") with a unique id: tasks
 *    in flight overlap, which thread slices may not.  Their name is
 *    "peN TYPE", so a viewer puts the tasks of one progress engine on one
 *    track; arguments: task, context, context type, and status at the end;
 *  - per progress engine a thread track "peN" with the context state
 *    changes and the injected faults as instant events;
 *  - per engine worker a thread track "engine worker N" with the spans the
 *    engine reports (priv_doca_trace_worker_span).
 *
 * Events are recorded as small binary records under one lock and turned
 * into text when the buffer fills, when a context reaches IDLE and at
 * exit.  After every flush the file is a complete JSON document: the
 * closing bracket is written after the last event and overwritten by the
 * next flush.  Timestamps are CLOCK_MONOTONIC, in microseconds from the
 * moment the trace was opened.  A forked child does not trace (its records
 * are dropped).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug_priv.h"
#include "sd_exec.h"

#define SD_TRACE_BUF 8192          /* records kept before a write */
#define SD_TRACE_WORKER_TID 1000000 /* thread id of engine worker 0's track */
#define SD_TRACE_NAMED_MAX 4096     /* tracks whose name record was written, by tid */

struct sd_trace_rec {
	uint64_t t0, t1;
	const void *obj;       /* task; context for a state change */
	const void *ctx;
	const char *name;      /* task type, span name, or fault clause text */
	const char *ctx_type;
	uint64_t seq;          /* fault occurrence */
	uint32_t track;        /* progress engine serial (0: none) or worker index */
	int32_t a, b;          /* status; state from/to; fault error and point */
	uint8_t kind;          /* enum sd_trace_kind */
};

static struct {
	pthread_mutex_t lock;
	FILE *f;
	char path[4096];
	pid_t pid;
	uint64_t base_ns;
	struct sd_trace_rec *buf;
	size_t n;
	long body_end;   /* offset of the closing bracket */
	bool any;        /* an event precedes: the next one needs a comma */
	uint64_t next_id;
	uint8_t named[SD_TRACE_NAMED_MAX / 8];
	uint8_t named_workers[256 / 8];
} sd_tr = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

const char *sd_trace_path(void)
{
	return sd_tr.path;
}

/* `pattern` with every "%p" replaced by the process id. */
static void sd_trace_expand(const char *pattern, char *out, size_t len)
{
	size_t pos = 0;

	for (const char *p = pattern; *p != '\0' && pos + 1 < len; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			int n = snprintf(out + pos, len - pos, "%ld", (long)getpid());

			pos = n > 0 && (size_t)n < len - pos ? pos + (size_t)n : len - 1;
			p++;
			continue;
		}
		out[pos++] = *p;
	}
	out[pos] = '\0';
}

bool sd_trace_open(const char *pattern)
{
	sd_trace_expand(pattern, sd_tr.path, sizeof(sd_tr.path));
	sd_tr.buf = calloc(SD_TRACE_BUF, sizeof(*sd_tr.buf));
	sd_tr.f = sd_tr.buf != NULL ? fopen(sd_tr.path, "w") : NULL;
	if (sd_tr.f == NULL) {
		fprintf(stderr, "softdoca: SOFTDOCA_TRACE: cannot write '%s': %s; no trace is written\n", sd_tr.path,
			strerror(sd_tr.buf != NULL ? errno : ENOMEM));
		free(sd_tr.buf);
		sd_tr.buf = NULL;
		return false;
	}
	sd_tr.pid = getpid();
	sd_tr.base_ns = sd_debug_now_ns();
	fprintf(sd_tr.f, "[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%ld,\"tid\":0,"
			 "\"args\":{\"name\":\"softdoca process %ld\"}}",
		(long)sd_tr.pid, (long)sd_tr.pid);
	sd_tr.any = true;
	sd_tr.body_end = ftell(sd_tr.f);
	fputs("\n]\n", sd_tr.f);
	fflush(sd_tr.f);
	priv_doca_debug_flags |= SD_DEBUG_TRACE;
	return true;
}

/* ---- text ---- */

static double sd_us(uint64_t t)
{
	return t >= sd_tr.base_ns ? (double)(t - sd_tr.base_ns) / 1000.0 : 0.0;
}

/* A JSON string body: quotes, backslashes and control characters escaped. */
static void sd_json_str(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

static void sd_sep(void)
{
	fputs(sd_tr.any ? ",\n" : "\n", sd_tr.f);
	sd_tr.any = true;
}

/* The name record of a thread track, once per track. */
static void sd_name_track(uint32_t tid, uint8_t *bits, uint32_t bit, uint32_t nbits, const char *fmt, uint32_t n)
{
	if (bit < nbits) {
		if (bits[bit / 8] & (1u << (bit % 8)))
			return;
		bits[bit / 8] |= (uint8_t)(1u << (bit % 8));
	}
	sd_sep();
	fprintf(sd_tr.f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%ld,\"tid\":%u,\"args\":{\"name\":\"",
		(long)sd_tr.pid, tid);
	fprintf(sd_tr.f, fmt, n);
	fputs("\"}}", sd_tr.f);
}

static void sd_write_task(const struct sd_trace_rec *r)
{
	uint64_t id = ++sd_tr.next_id;
	long pid = (long)sd_tr.pid;

	sd_name_track(r->track, sd_tr.named, r->track, SD_TRACE_NAMED_MAX, "pe%u", r->track);
	sd_sep();
	fprintf(sd_tr.f,
		"{\"ph\":\"b\",\"cat\":\"task\",\"name\":\"pe%u %s\",\"id\":\"0x%llx\",\"pid\":%ld,\"tid\":%u,"
		"\"ts\":%.3f,\"args\":{\"task\":\"%p\",\"ctx\":\"%p\",\"ctx_type\":\"%s\",\"pe\":%u}}",
		r->track, r->name, (unsigned long long)id, pid, r->track, sd_us(r->t0), r->obj, r->ctx, r->ctx_type,
		r->track);
	sd_sep();
	fprintf(sd_tr.f,
		"{\"ph\":\"e\",\"cat\":\"task\",\"name\":\"pe%u %s\",\"id\":\"0x%llx\",\"pid\":%ld,\"tid\":%u,"
		"\"ts\":%.3f,\"args\":{\"status\":\"%s\"}}",
		r->track, r->name, (unsigned long long)id, pid, r->track, sd_us(r->t1),
		doca_error_get_name((doca_error_t)r->a));
}

/* Instant events sit on their engine's track, or process-wide without one. */
static void sd_instant_head(const struct sd_trace_rec *r, const char *cat)
{
	if (r->track != 0)
		sd_name_track(r->track, sd_tr.named, r->track, SD_TRACE_NAMED_MAX, "pe%u", r->track);
	sd_sep();
	fprintf(sd_tr.f, "{\"ph\":\"i\",\"s\":\"%s\",\"cat\":\"%s\",", r->track != 0 ? "t" : "p", cat);
}

static void sd_write_state(const struct sd_trace_rec *r)
{
	const char *from = sd_ctx_state_name((enum doca_ctx_states)r->a);
	const char *to = sd_ctx_state_name((enum doca_ctx_states)r->b);

	sd_instant_head(r, "ctx");
	fprintf(sd_tr.f,
		"\"name\":\"%s %s -> %s\",\"pid\":%ld,\"tid\":%u,\"ts\":%.3f,"
		"\"args\":{\"ctx\":\"%p\",\"ctx_type\":\"%s\",\"from\":\"%s\",\"to\":\"%s\"}}",
		r->ctx_type, from, to, (long)sd_tr.pid, r->track, sd_us(r->t0), r->ctx, r->ctx_type, from, to);
}

static void sd_write_fault(const struct sd_trace_rec *r)
{
	sd_instant_head(r, "fault");
	fprintf(sd_tr.f, "\"name\":\"fault %s\",\"pid\":%ld,\"tid\":%u,\"ts\":%.3f,\"args\":{\"clause\":\"",
		sd_faults_point_name((enum sd_fault_point)r->b), (long)sd_tr.pid, r->track, sd_us(r->t0));
	sd_json_str(sd_tr.f, r->name);
	fprintf(sd_tr.f, "\",\"error\":\"%s\",\"occurrence\":%llu", doca_error_get_name((doca_error_t)r->a),
		(unsigned long long)r->seq);
	if (r->obj != NULL)
		fprintf(sd_tr.f, ",\"task\":\"%p\",\"ctx\":\"%p\"", r->obj, r->ctx);
	fputs("}}", sd_tr.f);
}

static void sd_write_span(const struct sd_trace_rec *r)
{
	uint32_t tid = SD_TRACE_WORKER_TID + r->track;

	sd_name_track(tid, sd_tr.named_workers, r->track, 256, "engine worker %u", r->track);
	sd_sep();
	fprintf(sd_tr.f, "{\"ph\":\"X\",\"cat\":\"engine\",\"name\":\"");
	sd_json_str(sd_tr.f, r->name);
	fprintf(sd_tr.f, "\",\"pid\":%ld,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f}", (long)sd_tr.pid, tid, sd_us(r->t0),
		r->t1 > r->t0 ? (double)(r->t1 - r->t0) / 1000.0 : 0.0);
}

/* Turn the buffer into text and close the document again; lock held. */
static void sd_trace_flush_locked(void)
{
	if (sd_tr.f == NULL)
		return;
	if (sd_tr.pid != getpid()) {
		sd_tr.n = 0; /* a forked child: the file is the parent's */
		return;
	}
	if (sd_tr.n == 0)
		return;
	fseek(sd_tr.f, sd_tr.body_end, SEEK_SET);
	for (size_t i = 0; i < sd_tr.n; i++) {
		const struct sd_trace_rec *r = &sd_tr.buf[i];

		switch (r->kind) {
		case SD_TR_TASK:
			sd_write_task(r);
			break;
		case SD_TR_STATE:
			sd_write_state(r);
			break;
		case SD_TR_FAULT:
			sd_write_fault(r);
			break;
		default:
			sd_write_span(r);
			break;
		}
	}
	sd_tr.n = 0;
	sd_tr.body_end = ftell(sd_tr.f);
	fputs("\n]\n", sd_tr.f);
	fflush(sd_tr.f);
}

void sd_trace_flush(void)
{
	pthread_mutex_lock(&sd_tr.lock);
	sd_trace_flush_locked();
	pthread_mutex_unlock(&sd_tr.lock);
}

void sd_trace_close(void)
{
	pthread_mutex_lock(&sd_tr.lock);
	sd_trace_flush_locked();
	if (sd_tr.f != NULL && sd_tr.pid == getpid())
		fclose(sd_tr.f);
	sd_tr.f = NULL;
	free(sd_tr.buf);
	sd_tr.buf = NULL;
	pthread_mutex_unlock(&sd_tr.lock);
}

void sd_trace_fork_lock(void)
{
	pthread_mutex_lock(&sd_tr.lock);
}

void sd_trace_fork_unlock(void)
{
	pthread_mutex_unlock(&sd_tr.lock);
}

/* ---- recording ---- */

static void sd_trace_put(const struct sd_trace_rec *r)
{
	pthread_mutex_lock(&sd_tr.lock);
	if (sd_tr.buf != NULL) {
		sd_tr.buf[sd_tr.n++] = *r;
		if (sd_tr.n == SD_TRACE_BUF)
			sd_trace_flush_locked();
	}
	pthread_mutex_unlock(&sd_tr.lock);
}

static uint32_t sd_pe_track(const struct doca_pe *pe)
{
	return pe != NULL ? pe->debug_id : 0;
}

void sd_trace_task(const struct doca_task *task, uint64_t t0, uint64_t t1, doca_error_t status)
{
	struct sd_trace_rec r = {
		.kind = SD_TR_TASK,
		.t0 = t0,
		.t1 = t1,
		.obj = task,
		.ctx = task->ctx,
		.name = task->conf->ops->name,
		.ctx_type = task->ctx->ops->type_name,
		.track = sd_pe_track(task->ctx->pe),
		.a = (int32_t)status,
	};

	sd_trace_put(&r);
}

void sd_trace_state(const struct doca_ctx *ctx, enum doca_ctx_states prev, enum doca_ctx_states next)
{
	struct sd_trace_rec r = {
		.kind = SD_TR_STATE,
		.t0 = sd_debug_now_ns(),
		.obj = ctx,
		.ctx = ctx,
		.ctx_type = ctx->ops->type_name,
		.track = sd_pe_track(ctx->pe),
		.a = (int32_t)prev,
		.b = (int32_t)next,
	};

	sd_trace_put(&r);
}

void sd_trace_fault(const struct sd_fault_clause *clause, uint64_t occurrence, const struct doca_task *task,
		    const struct doca_pe *pe)
{
	struct sd_trace_rec r = {
		.kind = SD_TR_FAULT,
		.t0 = sd_debug_now_ns(),
		.obj = task,
		.ctx = task != NULL ? (const void *)task->ctx : NULL,
		.name = clause->text,
		.seq = occurrence,
		.track = sd_pe_track(pe),
		.a = (int32_t)clause->err,
		.b = (int32_t)clause->point,
	};

	if (priv_doca_trace_enabled())
		sd_trace_put(&r);
}

uint64_t priv_doca_trace_now_ns(void)
{
	return sd_debug_now_ns();
}

void priv_doca_trace_worker_span(unsigned worker, const char *what, uint64_t t0_ns, uint64_t t1_ns)
{
	struct sd_trace_rec r = {
		.kind = SD_TR_SPAN,
		.t0 = t0_ns,
		.t1 = t1_ns,
		.name = what != NULL ? what : "job",
		.track = worker,
	};

	if (priv_doca_trace_enabled())
		sd_trace_put(&r);
}
