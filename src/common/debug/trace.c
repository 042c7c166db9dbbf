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
	sd_tr.base_ns = sd_mono_ns();
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

/* ---- text ----
 *
 * Formatting is done by hand into a 64 KiB buffer written with fwrite:
 * printf's general conversions (doubles above all) cost ten times more
 * per event.
 */

#define SD_JW_CAP (1u << 16)

static struct {
	char buf[SD_JW_CAP];
	size_t n;
} sd_jw;

static void sd_jw_flush(void)
{
	if (sd_jw.n != 0)
		(void)fwrite(sd_jw.buf, 1, sd_jw.n, sd_tr.f);
	sd_jw.n = 0;
}

/* Room for `len` more bytes (every piece written is far below the capacity). */
static inline char *sd_jw_room(size_t len)
{
	if (sd_jw.n + len > SD_JW_CAP)
		sd_jw_flush();
	return sd_jw.buf + sd_jw.n;
}

static inline void sd_jw_raw(const char *s, size_t len)
{
	memcpy(sd_jw_room(len), s, len);
	sd_jw.n += len;
}

#define SD_JW_LIT(lit) sd_jw_raw(lit, sizeof(lit) - 1)

static inline void sd_jw_str(const char *s)
{
	sd_jw_raw(s, strlen(s));
}

/* A string body for JSON: quotes, backslashes and control characters escaped. */
static void sd_jw_esc(const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		char *p = sd_jw_room(6);

		if (c == '"' || c == '\\') {
			p[0] = '\\';
			p[1] = (char)c;
			sd_jw.n += 2;
		} else if (c < 0x20) {
			memcpy(p, "\\u00", 4);
			p[4] = hex[c >> 4];
			p[5] = hex[c & 15];
			sd_jw.n += 6;
		} else {
			p[0] = (char)c;
			sd_jw.n += 1;
		}
	}
}

static void sd_jw_u64(uint64_t v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	sd_jw_raw(tmp + i, sizeof(tmp) - i);
}

/* An address as "0x..." (the %p form). */
static void sd_jw_ptr(const void *ptr)
{
	static const char hex[] = "0123456789abcdef";
	uintptr_t v = (uintptr_t)ptr;
	char tmp[2 + 2 * sizeof(v)];
	size_t i = sizeof(tmp);

	if (ptr == NULL) {
		SD_JW_LIT("(nil)");
		return;
	}
	do {
		tmp[--i] = hex[v & 15];
		v >>= 4;
	} while (v != 0);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	sd_jw_raw(tmp + i, sizeof(tmp) - i);
}

/* Nanoseconds as microseconds with three decimals ("12.345"). */
static void sd_jw_us(uint64_t ns)
{
	uint64_t frac = ns % 1000;

	sd_jw_u64(ns / 1000);
	{
		char *p = sd_jw_room(4);

		p[0] = '.';
		p[1] = (char)('0' + frac / 100);
		p[2] = (char)('0' + frac / 10 % 10);
		p[3] = (char)('0' + frac % 10);
		sd_jw.n += 4;
	}
}

/* A moment of the trace's clock, relative to its opening. */
static void sd_jw_ts(uint64_t t)
{
	sd_jw_us(t >= sd_tr.base_ns ? t - sd_tr.base_ns : 0);
}

static void sd_sep(void)
{
	if (sd_tr.any)
		SD_JW_LIT(",\n");
	else
		SD_JW_LIT("\n");
	sd_tr.any = true;
}

/* `"pid":P,"tid":T` */
static void sd_jw_pid_tid(uint32_t tid)
{
	SD_JW_LIT("\"pid\":");
	sd_jw_u64((uint64_t)sd_tr.pid);
	SD_JW_LIT(",\"tid\":");
	sd_jw_u64(tid);
}

/* The name record of a thread track ("pe3", "engine worker 2"), once per track. */
static void sd_name_track(uint32_t tid, uint8_t *bits, uint32_t bit, uint32_t nbits, const char *prefix,
			  uint32_t n)
{
	if (bit < nbits) {
		if (bits[bit / 8] & (1u << (bit % 8)))
			return;
		bits[bit / 8] |= (uint8_t)(1u << (bit % 8));
	}
	sd_sep();
	SD_JW_LIT("{\"ph\":\"M\",\"name\":\"thread_name\",");
	sd_jw_pid_tid(tid);
	SD_JW_LIT(",\"args\":{\"name\":\"");
	sd_jw_str(prefix);
	sd_jw_u64(n);
	SD_JW_LIT("\"}}");
}

/* The head shared by a task's two events, up to its "ts". */
static void sd_task_head(const struct sd_trace_rec *r, char ph, uint64_t id)
{
	sd_sep();
	SD_JW_LIT("{\"ph\":\"");
	sd_jw_raw(&ph, 1);
	SD_JW_LIT("\",\"cat\":\"task\",\"name\":\"pe");
	sd_jw_u64(r->track);
	SD_JW_LIT(" ");
	sd_jw_str(r->name);
	SD_JW_LIT("\",\"id\":\"0x");
	{
		static const char hex[] = "0123456789abcdef";
		char tmp[16];
		size_t i = sizeof(tmp);

		do {
			tmp[--i] = hex[id & 15];
			id >>= 4;
		} while (id != 0);
		sd_jw_raw(tmp + i, sizeof(tmp) - i);
	}
	SD_JW_LIT("\",");
	sd_jw_pid_tid(r->track);
	SD_JW_LIT(",\"ts\":");
}

static void sd_write_task(const struct sd_trace_rec *r)
{
	uint64_t id = ++sd_tr.next_id;

	sd_name_track(r->track, sd_tr.named, r->track, SD_TRACE_NAMED_MAX, "pe", r->track);
	sd_task_head(r, 'b', id);
	sd_jw_ts(r->t0);
	SD_JW_LIT(",\"args\":{\"task\":\"");
	sd_jw_ptr(r->obj);
	SD_JW_LIT("\",\"ctx\":\"");
	sd_jw_ptr(r->ctx);
	SD_JW_LIT("\",\"ctx_type\":\"");
	sd_jw_str(r->ctx_type);
	SD_JW_LIT("\",\"pe\":");
	sd_jw_u64(r->track);
	SD_JW_LIT("}}");
	sd_task_head(r, 'e', id);
	sd_jw_ts(r->t1);
	SD_JW_LIT(",\"args\":{\"status\":\"");
	sd_jw_str(doca_error_get_name((doca_error_t)r->a));
	SD_JW_LIT("\"}}");
}

/* Instant events sit on their engine's track, or process-wide without one. */
static void sd_instant_head(const struct sd_trace_rec *r, const char *cat)
{
	if (r->track != 0)
		sd_name_track(r->track, sd_tr.named, r->track, SD_TRACE_NAMED_MAX, "pe", r->track);
	sd_sep();
	SD_JW_LIT("{\"ph\":\"i\",\"s\":\"");
	sd_jw_str(r->track != 0 ? "t" : "p");
	SD_JW_LIT("\",\"cat\":\"");
	sd_jw_str(cat);
	SD_JW_LIT("\",");
}

static void sd_write_state(const struct sd_trace_rec *r)
{
	const char *from = sd_ctx_state_name((enum doca_ctx_states)r->a);
	const char *to = sd_ctx_state_name((enum doca_ctx_states)r->b);

	sd_instant_head(r, "ctx");
	SD_JW_LIT("\"name\":\"");
	sd_jw_str(r->ctx_type);
	SD_JW_LIT(" ");
	sd_jw_str(from);
	SD_JW_LIT(" -> ");
	sd_jw_str(to);
	SD_JW_LIT("\",");
	sd_jw_pid_tid(r->track);
	SD_JW_LIT(",\"ts\":");
	sd_jw_ts(r->t0);
	SD_JW_LIT(",\"args\":{\"ctx\":\"");
	sd_jw_ptr(r->ctx);
	SD_JW_LIT("\",\"ctx_type\":\"");
	sd_jw_str(r->ctx_type);
	SD_JW_LIT("\",\"from\":\"");
	sd_jw_str(from);
	SD_JW_LIT("\",\"to\":\"");
	sd_jw_str(to);
	SD_JW_LIT("\"}}");
}

static void sd_write_fault(const struct sd_trace_rec *r)
{
	sd_instant_head(r, "fault");
	SD_JW_LIT("\"name\":\"fault ");
	sd_jw_str(sd_faults_point_name((enum sd_fault_point)r->b));
	SD_JW_LIT("\",");
	sd_jw_pid_tid(r->track);
	SD_JW_LIT(",\"ts\":");
	sd_jw_ts(r->t0);
	SD_JW_LIT(",\"args\":{\"clause\":\"");
	sd_jw_esc(r->name);
	SD_JW_LIT("\",\"error\":\"");
	sd_jw_str(doca_error_get_name((doca_error_t)r->a));
	SD_JW_LIT("\",\"occurrence\":");
	sd_jw_u64(r->seq);
	if (r->obj != NULL) {
		SD_JW_LIT(",\"task\":\"");
		sd_jw_ptr(r->obj);
		SD_JW_LIT("\",\"ctx\":\"");
		sd_jw_ptr(r->ctx);
		SD_JW_LIT("\"");
	}
	SD_JW_LIT("}}");
}

static void sd_write_span(const struct sd_trace_rec *r)
{
	uint32_t tid = SD_TRACE_WORKER_TID + r->track;

	sd_name_track(tid, sd_tr.named_workers, r->track, 256, "engine worker ", r->track);
	sd_sep();
	SD_JW_LIT("{\"ph\":\"X\",\"cat\":\"engine\",\"name\":\"");
	sd_jw_esc(r->name);
	SD_JW_LIT("\",");
	sd_jw_pid_tid(tid);
	SD_JW_LIT(",\"ts\":");
	sd_jw_ts(r->t0);
	SD_JW_LIT(",\"dur\":");
	sd_jw_us(r->t1 > r->t0 ? r->t1 - r->t0 : 0);
	SD_JW_LIT("}");
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
	sd_jw_flush();
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
		.t0 = sd_mono_ns(),
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
		.t0 = sd_mono_ns(),
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
	return sd_mono_ns();
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
