/*
 * se_ctx.c - a sync event as a DOCA context (doca_sync_event_as_ctx).
 *
 * doca_ctx_start opens the value's home as doca_sync_event_start does; the
 * context reaching IDLE closes it.  Wait tasks have no thread of their own
 * (the framework polls them), so a progress engine that sleeps on its
 * notification handle needs someone to wake it when the value changes: the
 * watcher, one thread per started context, created by the first wait task
 * armed while the PE sleeps.  It sleeps on the value's futex word and kicks
 * the PE after every update, and once when the exporter dies.
 */
#include <pthread.h>

#include "sd_log.h"
#include "sd_thread.h"
#include "se_priv.h"

static doca_error_t sd_se_ctx_start(struct doca_ctx *ctx)
{
	struct doca_sync_event *ev = (struct doca_sync_event *)ctx;

	return sd_se_home_open(ev, "doca_ctx_start");
}

/* The context reached IDLE (or its start failed after sd_se_ctx_start). */
static void sd_se_ctx_release(struct doca_ctx *ctx)
{
	struct doca_sync_event *ev = (struct doca_sync_event *)ctx;

	sd_se_watcher_stop(ev);
	sd_se_home_close(ev);
}

const struct sd_ctx_ops sd_se_ctx_ops = {
	.type_name = "doca_sync_event",
	.start = sd_se_ctx_start,
	.sync_start = true,
	.release = sd_se_ctx_release,
};

static void *sd_se_watch(void *arg)
{
	struct doca_sync_event *ev = arg;
	struct doca_pe *pe = ev->ctx.pe;
	uint32_t seen = ev->watch_from;
	uint64_t value = ev->watch_value_from;

	for (;; seen = atomic_load(&ev->sync->seq), value = atomic_load(ev->value)) {
		if (atomic_load(&ev->watcher_stop))
			break;
		sd_se_sleep(ev->sync, seen, SD_SE_LIVENESS_NS);
		if (atomic_load(&ev->watcher_stop))
			break;
		if (!sd_se_value_alive(ev)) {
			priv_doca_pe_kick(pe); /* the waiting tasks fail at the next look */
			break;
		}
		/* The value too: an update over the network (se_net.c) leaves the futex word alone. */
		if (atomic_load(&ev->sync->seq) != seen || atomic_load(ev->value) != value)
			priv_doca_pe_kick(pe);
	}
	return NULL;
}

void sd_se_watcher_start(struct doca_sync_event *ev)
{
	if (ev->watcher_on)
		return;
	atomic_store(&ev->watcher_stop, false);
	/*
	 * The arming call looks at the value after this; an update between
	 * that look and the new thread's first read of the count would wake
	 * nobody.  Counting from here, the thread sees any such update.
	 */
	ev->watch_from = atomic_load(&ev->sync->seq);
	ev->watch_value_from = atomic_load(ev->value); /* the same for updates over the network (se_net.c) */
	sd_pe_hold(ev->ctx.pe);
	if (sd_thread_start(&ev->watcher, NULL, sd_se_watch, ev, "sd-sync-watch") != 0) {
		sd_pe_release(ev->ctx.pe);
		SD_LOG_WARN("cannot start the notification watcher of sync event %p; its wait tasks complete "
			    "only when doca_pe_progress is called",
			    (void *)ev);
		return;
	}
	ev->watcher_on = true;
}

void sd_se_watcher_stop(struct doca_sync_event *ev)
{
	if (!ev->watcher_on)
		return;
	atomic_store(&ev->watcher_stop, true);
	sd_se_wake(ev->sync);
	pthread_join(ev->watcher, NULL);
	sd_pe_release(ev->ctx.pe);
	ev->watcher_on = false;
}
