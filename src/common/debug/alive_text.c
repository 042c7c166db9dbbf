/*
 * alive_text.c - saying what is still alive and which call releases it:
 * the notes appended to refused doca_pe_destroy, doca_dev_close and
 * doca_<ctx>_destroy calls, the WARNING after doca_ctx_stop meets a context
 * that stops because a task failed, and the report at exit.
 *
 * A context that stops because one of its tasks failed remembers why
 * (failure.c).  The first follow-on error of that stop says it again next
 * to what to do; later ones point back to it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "debug_priv.h"
#include "sd_dev.h"
#include "sd_exec.h"
#include "sd_log.h"
#include "sd_mem.h"

#define SD_NOTE_MAX 2048
#define SD_EXIT_REPORT_MAX 32

/* Append to out[len] at *pos; the text is cut, never overrun. */
static void __attribute__((format(printf, 4, 5))) sd_cat(char *out, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(out + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = *pos + (size_t)n < len ? *pos + (size_t)n : len - 1;
}

/* ---- one object each ---- */

static unsigned long long sd_ull(uint64_t v)
{
	return (unsigned long long)v;
}

size_t sd_describe_ctx(const struct doca_ctx *ctx, char *out, size_t len)
{
	size_t pos = 0;

	sd_cat(out, len, &pos, "%s %p is %s", ctx->ops->type_name, (const void *)ctx, sd_ctx_state_name(ctx->state));
	return pos;
}

/* "; it holds 3 task(s) (1 in flight)" when it holds any. */
static void sd_ctx_tasks(const struct doca_ctx *ctx, char *out, size_t len, size_t *pos)
{
	if (ctx->state != DOCA_CTX_STATE_IDLE && (ctx->allocated != 0 || ctx->inflight != 0))
		sd_cat(out, len, pos, "; it holds %llu task(s) (%llu in flight)", sd_ull(ctx->allocated),
		       sd_ull(ctx->inflight));
}

/* Which calls release a context, from its state. */
static void sd_ctx_release_hint(const struct doca_ctx *ctx, char *out, size_t len, size_t *pos)
{
	const char *type = ctx->ops->type_name;

	switch (ctx->state) {
	case DOCA_CTX_STATE_IDLE:
		sd_cat(out, len, pos, "destroy it with %s_destroy", type);
		break;
	case DOCA_CTX_STATE_STOPPING:
		sd_cat(out, len, pos, "call doca_pe_progress until it is IDLE%s, then %s_destroy",
		       ctx->allocated != 0 ? " (free each of its tasks with doca_task_free)" : "", type);
		break;
	default:
		sd_cat(out, len, pos,
		       "stop it with doca_ctx_stop, call doca_pe_progress until it is IDLE (free each task with "
		       "doca_task_free), then %s_destroy",
		       type);
		break;
	}
}

static void sd_describe_mmap(const struct doca_mmap *m, char *out, size_t len, size_t *pos)
{
	static const char *const states[] = {"never started", "started", "stopped"};

	if (m->from_export) {
		sd_cat(out, len, pos, "doca_mmap %p (imported from an export)", (const void *)m);
	} else {
		sd_cat(out, len, pos, "doca_mmap %p (%s%s)", (const void *)m,
		       (unsigned)m->state < 3 ? states[m->state] : "?", m->exported ? ", exported" : "");
	}
	if (m->num_bufs != 0)
		sd_cat(out, len, pos, " with %llu buf(s) on it: release them with doca_buf_dec_refcount, then ",
		       sd_ull(m->num_bufs));
	else
		sd_cat(out, len, pos, ": ");
	sd_cat(out, len, pos, "doca_mmap_destroy");
}

static void sd_describe_bufs(const char *what, const void *obj, uint32_t total, uint32_t free_n, const char *destroy,
			     char *out, size_t len, size_t *pos)
{
	sd_cat(out, len, pos, "%s %p", what, obj);
	if (total > free_n)
		sd_cat(out, len, pos, " with %u of its %u buf(s) in use: release them with doca_buf_dec_refcount, then ",
		       total - free_n, total);
	else
		sd_cat(out, len, pos, ": ");
	sd_cat(out, len, pos, "%s", destroy);
}

static void sd_describe_dev(const struct doca_dev *dev, char *out, size_t len, size_t *pos)
{
	sd_cat(out, len, pos, "doca_dev %p (%s) is open", (const void *)dev, dev->node != NULL ? dev->node->pci_addr : "?");
	if (dev->open_count > 1)
		sd_cat(out, len, pos, " %u times", dev->open_count);
	if (dev->dependents != 0)
		sd_cat(out, len, pos, " and %u object(s) still depend on it", dev->dependents);
	sd_cat(out, len, pos, ": close it with doca_dev_close%s", dev->dependents != 0 ? " after destroying them" : "");
}

size_t sd_describe_entry(const struct sd_alive_entry *e, char *out, size_t len)
{
	size_t pos = 0;
	uint32_t total = 0, free_n = 0;

	out[0] = '\0';
	switch (e->kind) {
	case SD_ALIVE_CTX:
		pos = sd_describe_ctx(e->obj, out, len);
		sd_ctx_tasks(e->obj, out, len, &pos);
		sd_cat(out, len, &pos, ": ");
		sd_ctx_release_hint(e->obj, out, len, &pos);
		break;
	case SD_ALIVE_PE: {
		const struct doca_pe *pe = e->obj;

		sd_cat(out, len, &pos, "doca_pe %p (pe%u)", (const void *)pe, e->serial);
		if (pe->num_ctxs != 0)
			sd_cat(out, len, &pos, " with %u context(s) connected: destroy them, then doca_pe_destroy",
			       pe->num_ctxs);
		else
			sd_cat(out, len, &pos, ": doca_pe_destroy");
		break;
	}
	case SD_ALIVE_MMAP:
		sd_describe_mmap(e->obj, out, len, &pos);
		break;
	case SD_ALIVE_INVENTORY:
		if (e->count_bufs != NULL)
			e->count_bufs(e->obj, &total, &free_n);
		sd_describe_bufs("doca_buf_inventory", e->obj, total, free_n, "doca_buf_inventory_destroy", out, len,
				 &pos);
		break;
	case SD_ALIVE_POOL:
		if (e->count_bufs != NULL)
			e->count_bufs(e->obj, &total, &free_n);
		sd_describe_bufs("doca_buf_pool", e->obj, total, free_n, "doca_buf_pool_destroy", out, len, &pos);
		break;
	case SD_ALIVE_DEV:
		sd_describe_dev(e->obj, out, len, &pos);
		break;
	}
	return pos;
}

/* ---- notes for refused calls ---- */

static _Thread_local char sd_note[SD_NOTE_MAX];

/*
 * Why `ctx` is STOPPING, when a failed task stopped it: the reason the
 * first time, a pointer back to it later.  Lock held.
 */
static void sd_stop_reason_locked(const struct doca_ctx *ctx, char *out, size_t len, size_t *pos)
{
	struct sd_alive_entry *e = sd_alive_find_locked(ctx);

	if (ctx->state != DOCA_CTX_STATE_STOPPING || e == NULL || e->stop_reason == NULL)
		return;
	sd_cascade_follow_on(); /* the call is refused because of that failure */
	if (!e->reason_told) {
		sd_cat(out, len, pos, " because %s", e->stop_reason);
		e->reason_told = true;
	} else {
		sd_cat(out, len, pos, " because a task failed (its ERROR record came first)");
	}
}

/* "<ctx> is STOPPING [because ...] ...: <what to do>"; lock held. */
static void sd_ctx_situation_locked(const struct doca_ctx *ctx, char *out, size_t len, size_t *pos)
{
	*pos += sd_describe_ctx(ctx, out + *pos, len - *pos);
	sd_stop_reason_locked(ctx, out, len, pos);
	sd_ctx_tasks(ctx, out, len, pos);
	sd_cat(out, len, pos, ": ");
	sd_ctx_release_hint(ctx, out, len, pos);
}

const char *sd_debug_ctx_note(const struct doca_ctx *ctx)
{
	size_t pos = 0;

	sd_cascade_note_begin();
	sd_cat(sd_note, sizeof(sd_note), &pos, "; ");
	sd_alive_lock();
	sd_ctx_situation_locked(ctx, sd_note, sizeof(sd_note), &pos);
	sd_alive_unlock();
	return sd_note;
}

const char *sd_debug_pe_note(const struct doca_pe *pe)
{
	size_t pos = 0;
	const char *sep = "; still connected: ";

	sd_cascade_note_begin();
	sd_alive_lock();
	for (const struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next) {
		sd_cat(sd_note, sizeof(sd_note), &pos, "%s", sep);
		sd_ctx_situation_locked(ctx, sd_note, sizeof(sd_note), &pos);
		sep = "; ";
	}
	sd_alive_unlock();
	if (pos == 0)
		sd_note[0] = '\0';
	return sd_note;
}

/* Whether the registered object `e` holds a dependency on `dev`. */
static bool sd_entry_uses_dev(const struct sd_alive_entry *e, const struct doca_dev *dev)
{
	if (e->kind == SD_ALIVE_CTX)
		return ((const struct doca_ctx *)e->obj)->dev == dev;
	if (e->kind == SD_ALIVE_MMAP) {
		const struct doca_mmap *m = e->obj;

		if (m->import_dev == dev)
			return true;
		for (uint32_t i = 0; i < m->num_devs && i < SD_MMAP_MAX_DEVS_LIMIT; i++)
			if (m->devs[i] == dev)
				return true;
	}
	return false;
}

const char *sd_debug_dev_note(const struct doca_dev *dev)
{
	size_t pos = 0;
	const char *sep = "; still depending on it: ";
	char one[512];

	sd_cascade_note_begin();
	sd_alive_lock();
	for (size_t i = 0; i < sd_alive_count_locked(); i++) {
		const struct sd_alive_entry *e = sd_alive_at_locked(i);

		if (e->pid != getpid() || !sd_entry_uses_dev(e, dev))
			continue;
		if (e->kind == SD_ALIVE_CTX) {
			size_t p = 0;

			sd_ctx_situation_locked(e->obj, one, sizeof(one), &p);
		} else {
			(void)sd_describe_entry(e, one, sizeof(one));
		}
		sd_cat(sd_note, sizeof(sd_note), &pos, "%s%s", sep, one);
		sep = "; ";
	}
	sd_alive_unlock();
	if (pos == 0)
		sd_note[0] = '\0';
	return sd_note;
}

/*
 * IN_PROGRESS is the normal answer for a context that is stopping, and most
 * programs then progress it to IDLE; so the reason goes out at INFO only
 * and stays untold, for the first call that is refused (an ERROR).  A
 * program stuck there is found by the watchdog.
 */
doca_error_t sd_debug_ctx_stop_again(struct doca_ctx *ctx)
{
	char text[SD_NOTE_MAX];
	size_t pos = 0;
	const struct sd_alive_entry *e;
	bool failed;

	if (!priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_INFO))
		return DOCA_ERROR_IN_PROGRESS;
	sd_alive_lock();
	e = sd_alive_find_locked(ctx);
	failed = e != NULL && e->stop_reason != NULL && !e->reason_told;
	if (failed) {
		sd_cat(text, sizeof(text), &pos, "context is already STOPPING (not an error) because %s; ", e->stop_reason);
		sd_ctx_release_hint(ctx, text, sizeof(text), &pos);
	}
	sd_alive_unlock();
	if (failed)
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_INFO, __FILE__, __LINE__, "doca_ctx_stop", "%s", text);
	return DOCA_ERROR_IN_PROGRESS;
}

/* ---- at exit ---- */

void sd_alive_report_exit(void)
{
	/* Formatted under the lock, logged after it: a log backend may call back into DOCA. */
	static char lines[SD_EXIT_REPORT_MAX][1024];
	size_t mine = 0, shown = 0;
	pid_t self = getpid();
	uint32_t level;

	sd_alive_lock();
	for (size_t i = 0; i < sd_alive_count_locked(); i++) {
		const struct sd_alive_entry *e = sd_alive_at_locked(i);

		if (e->pid != self)
			continue;
		if (mine < SD_EXIT_REPORT_MAX)
			(void)sd_describe_entry(e, lines[mine], sizeof(lines[mine]));
		mine++;
	}
	sd_alive_unlock();
	/* After a failure the list is detail (INFO); cascade.c then says one line at WARNING. */
	level = sd_cascade_exit_level();
	if (mine != 0) {
		priv_doca_sdk_log(level, "at exit",
				  "%zu DOCA object(s) of this process were never destroyed; each record below names one "
				  "and the calls that release it",
				  mine);
		for (; shown < mine && shown < SD_EXIT_REPORT_MAX; shown++)
			priv_doca_sdk_log(level, "at exit", "still alive: %s", lines[shown]);
		if (mine > shown)
			priv_doca_sdk_log(level, "at exit", "... and %zu more", mine - shown);
	}
	sd_cascade_report_exit(mine);
}
