/*
 * se_event.c - sync event objects: create, destroy, the publisher and
 * subscriber locations, the value's home, and the stand-alone start/stop.
 *
 * An event embeds a context (doca_sync_event_as_ctx), created with it, so
 * the tasks and the context state machine come from the framework; the
 * stand-alone start is a state of the event itself.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>

#include "sd_dev.h"
#include "sd_log.h"
#include "sd_mem.h"
#include "se_priv.h"

doca_error_t sd_se_check(const struct doca_sync_event *ev, const char *func)
{
	if (ev == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "event is NULL");
	if (!sd_se_is_valid(ev))
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "%p is not a live sync event", (const void *)ev);
	return DOCA_SUCCESS;
}

doca_error_t sd_se_check_started(const struct doca_sync_event *ev, const char *func)
{
	doca_error_t err = sd_se_check(ev, func);

	if (err != DOCA_SUCCESS || sd_se_started(ev))
		return err;
	return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
			    "sync event %p is not started; call doca_sync_event_start (or doca_ctx_start on its "
			    "context) first",
			    (const void *)ev);
}

/* Configuration is allowed only while the event is not started. */
static doca_error_t sd_se_check_config(const struct doca_sync_event *ev, const char *func)
{
	doca_error_t err = sd_se_check(ev, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (ev->state == SD_SE_STARTED || (ev->as_ctx && ev->ctx.state != DOCA_CTX_STATE_IDLE))
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
				    "sync event %p is started; configure it before starting it (or after stopping it)",
				    (const void *)ev);
	return DOCA_SUCCESS;
}

/* Register the five task types in the order of their SD_SE_TASK_* indices. */
static bool sd_se_add_task_types(struct doca_sync_event *ev)
{
	static const struct sd_task_ops *const types[SD_SE_NUM_TASK_TYPES] = {
		&sd_se_get_ops, &sd_se_notify_set_ops, &sd_se_notify_add_ops, &sd_se_wait_eq_ops, &sd_se_wait_neq_ops,
	};

	for (int i = 0; i < SD_SE_NUM_TASK_TYPES; i++)
		if (priv_doca_ctx_add_task_type(&ev->ctx, types[i]) != i)
			return false;
	return true;
}

/* A new event in the created state; `dev` (may be NULL) is held by its context. */
doca_error_t sd_se_new(struct doca_dev *dev, struct doca_sync_event **out, const char *func)
{
	struct doca_sync_event *ev = calloc(1, sizeof(*ev));

	if (ev == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY, "cannot allocate a sync event");
	priv_doca_ctx_init(&ev->ctx, &sd_se_ctx_ops, dev);
	if (!sd_se_add_task_types(ev)) {
		(void)priv_doca_ctx_fini(&ev->ctx, func);
		free(ev);
		return SD_REJECT_AS(func, DOCA_ERROR_INITIALIZATION, "cannot register the sync event task types");
	}
	ev->map.fd = -1;
	ev->magic = SD_SE_MAGIC;
	*out = ev;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_create(struct doca_sync_event **event)
{
	if (event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer event is NULL");
	return sd_se_new(NULL, event, __func__);
}

doca_error_t doca_sync_event_destroy(struct doca_sync_event *event)
{
	doca_error_t err = sd_se_check(event, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (event->state == SD_SE_STARTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "sync event %p is started; call doca_sync_event_stop first",
				 (void *)event);
	/* Refuses (and reports) a context that is not IDLE; the event stays intact. */
	err = priv_doca_ctx_fini(&event->ctx, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (event->imported)
		sd_se_map_close(&event->map);
	event->magic = 0;
	free(event);
	return DOCA_SUCCESS;
}

/* Record a location after the configuration checks. */
static doca_error_t sd_se_add_location(struct doca_sync_event *ev, bool publisher, uint32_t loc, const char *func)
{
	doca_error_t err = sd_se_check_config(ev, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (publisher)
		ev->pub |= loc;
	else
		ev->sub |= loc;
	return DOCA_SUCCESS;
}

/* The device of a CPU location is optional; when given it must be open. */
static doca_error_t sd_se_add_cpu(struct doca_sync_event *ev, struct doca_dev *dev, bool publisher, const char *func)
{
	if (dev != NULL && !priv_doca_dev_is_valid(dev))
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device", (void *)dev);
	return sd_se_add_location(ev, publisher, SD_SE_LOC_CPU, func);
}

doca_error_t doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	return sd_se_add_cpu(event, dev, true, __func__);
}

doca_error_t doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	return sd_se_add_cpu(event, dev, false, __func__);
}

doca_error_t doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event)
{
	return sd_se_add_location(event, true, SD_SE_LOC_PCI, __func__);
}

doca_error_t doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event)
{
	return sd_se_add_location(event, false, SD_SE_LOC_PCI, __func__);
}

doca_error_t doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event)
{
	return sd_se_add_location(event, true, SD_SE_LOC_NET, __func__);
}

/* An application address as the value's home: 8-byte aligned, own event only. */
static doca_error_t sd_se_set_home(struct doca_sync_event *ev, void *addr, const char *func)
{
	doca_error_t err = sd_se_check_config(ev, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (ev->imported)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "sync event %p was created from an export; its value lives with the exporter",
				    (void *)ev);
	if (addr == NULL || ((uintptr_t)addr & 7u) != 0)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "the value's address %p is NULL or not 8-byte aligned (sync event %p)", addr,
				    (void *)ev);
	ev->app_addr = addr;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event, uint64_t *addr)
{
	return sd_se_set_home(event, addr, __func__);
}

doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event, struct doca_buf *buf)
{
	if (buf == NULL || !sd_buf_is_live(buf))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "buf %p is NULL or not a live DOCA buffer", (void *)buf);
	if (buf->mmap != NULL && buf->mmap->remote != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "buf %p lies in memory imported from another process; the value must live in this "
				 "process's memory",
				 (void *)buf);
	if (buf->data + sizeof(uint64_t) > buf->head + buf->len)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "buf %p has fewer than 8 bytes from its data address to its end; the value needs 8",
				 (void *)buf);
	return sd_se_set_home(event, buf->data, __func__);
}

doca_error_t doca_sync_event_start(struct doca_sync_event *event)
{
	doca_error_t err = sd_se_check(event, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (event->as_ctx)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "sync event %p is managed as a context (doca_sync_event_as_ctx); start it with "
				 "doca_ctx_start",
				 (void *)event);
	if (event->state == SD_SE_STARTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "sync event %p is already started", (void *)event);
	err = sd_se_home_open(event, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	event->state = SD_SE_STARTED;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_stop(struct doca_sync_event *event)
{
	doca_error_t err = sd_se_check(event, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (event->state != SD_SE_STARTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "sync event %p is not started stand-alone (%s)", (void *)event,
				 event->as_ctx ? "it is a context: use doca_ctx_stop" : "call doca_sync_event_start first");
	sd_se_home_close(event);
	event->state = SD_SE_CREATED;
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event)
{
	if (sd_se_check(event, __func__) != DOCA_SUCCESS)
		return NULL;
	if (event->state == SD_SE_STARTED) {
		SD_LOG_ERR("sync event %p is started stand-alone; stop it before using it as a context", (void *)event);
		return NULL;
	}
	event->as_ctx = true;
	return &event->ctx;
}
