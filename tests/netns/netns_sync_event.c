/*
 * netns_sync_event - one side of a sync event shared across two network
 * and PID namespaces (test_netns_sync_event.sh runs one in each).
 *
 *   netns_sync_event export DESC [hold]  export an event, write its descriptor
 *                                         to DESC, print "ready"; then wait for 1,
 *                                         set 2, wait for 3 and print "done" (or,
 *                                         with hold, wait to be killed)
 *   netns_sync_event import DESC [task]  import, set 1, wait for 2 (a CPU wait,
 *                                         or a wait task on a PE asleep on its
 *                                         notification handle), set 3, print "ok"
 *   netns_sync_event import-dies DESC     import and wait for a value nobody sets;
 *                                         print "failed STATUS" once the wait fails
 *                                         (the script times it)
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#include "sd_devices.h"

static struct doca_dev *dev;
static int task_status = -1;

static int fail(const char *what, doca_error_t err)
{
	printf("failed %s: %s\n", what, doca_error_get_name(err));
	return 1;
}

static int do_export(const char *path, bool hold)
{
	struct doca_sync_event *ev = NULL;
	const uint8_t *blob;
	size_t sz;
	char tmp[4096];
	FILE *f;
	doca_error_t err;

	if ((err = doca_sync_event_create(&ev)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_add_publisher_location_remote_pci(ev)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_start(ev)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz)) != DOCA_SUCCESS)
		return fail("export", err);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (f == NULL || fwrite(blob, 1, sz, f) != sz || fclose(f) != 0 || rename(tmp, path) != 0)
		return fail("writing the descriptor", DOCA_ERROR_IO_FAILED);
	printf("ready\n");
	fflush(stdout);
	if (hold) {
		for (;;)
			pause();
	}
	if ((err = doca_sync_event_wait_eq(ev, 1, UINT64_MAX)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_update_set(ev, 2)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_wait_eq_yield(ev, 3, UINT64_MAX)) != DOCA_SUCCESS)
		return fail("ping-pong", err);
	printf("done\n");
	(void)doca_sync_event_stop(ev);
	(void)doca_sync_event_destroy(ev);
	return 0;
}

static struct doca_sync_event *import_from(const char *path)
{
	uint8_t blob[512];
	struct doca_sync_event *ev = NULL;
	FILE *f = fopen(path, "rb");
	size_t sz;

	if (f == NULL)
		return NULL;
	sz = fread(blob, 1, sizeof(blob), f);
	fclose(f);
	if (doca_sync_event_create_from_export(dev, blob, sz, &ev) != DOCA_SUCCESS)
		return NULL;
	return ev;
}

static void on_wait(struct doca_sync_event_task_wait_eq *t, union doca_data a, union doca_data b)
{
	(void)a, (void)b;
	task_status = doca_task_get_status(doca_sync_event_task_wait_eq_as_doca_task(t));
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(t));
}

/* A wait task for `want`, the PE asleep on its handle until it reports. */
static doca_error_t wait_with_task(struct doca_sync_event *ev, struct doca_pe *pe, uint64_t want)
{
	struct doca_sync_event_task_wait_eq *t;
	union doca_data ud = {.u64 = 0};
	doca_notification_handle_t h;
	doca_error_t err;

	task_status = -1;
	if ((err = doca_sync_event_task_wait_eq_alloc_init(ev, want, UINT64_MAX, ud, &t)) != DOCA_SUCCESS ||
	    (err = doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t))) != DOCA_SUCCESS ||
	    (err = doca_pe_get_notification_handle(pe, &h)) != DOCA_SUCCESS)
		return err;
	while (task_status < 0) {
		struct pollfd pfd = {.fd = h, .events = POLLIN};

		if (doca_pe_progress(pe) != 0)
			continue;
		(void)doca_pe_request_notification(pe);
		if (poll(&pfd, 1, 10000) != 1)
			return DOCA_ERROR_TIME_OUT;
		(void)doca_pe_clear_notification(pe, h);
	}
	return (doca_error_t)task_status;
}

static int do_import(const char *path, bool task)
{
	struct doca_sync_event *ev = import_from(path);
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;
	doca_error_t err;

	if (ev == NULL)
		return fail("import", DOCA_ERROR_INVALID_VALUE);
	if (!task) {
		if ((err = doca_sync_event_start(ev)) != DOCA_SUCCESS || (err = doca_sync_event_update_set(ev, 1)) != DOCA_SUCCESS ||
		    (err = doca_sync_event_wait_eq(ev, 2, UINT64_MAX)) != DOCA_SUCCESS ||
		    (err = doca_sync_event_update_set(ev, 3)) != DOCA_SUCCESS)
			return fail("ping-pong", err);
		(void)doca_sync_event_stop(ev);
	} else {
		if ((ctx = doca_sync_event_as_ctx(ev)) == NULL ||
		    (err = doca_sync_event_task_wait_eq_set_conf(ev, on_wait, on_wait, 2)) != DOCA_SUCCESS ||
		    (err = doca_pe_create(&pe)) != DOCA_SUCCESS || (err = doca_pe_connect_ctx(pe, ctx)) != DOCA_SUCCESS ||
		    (err = doca_ctx_start(ctx)) != DOCA_SUCCESS)
			return fail("context", DOCA_ERROR_BAD_STATE);
		if ((err = doca_sync_event_update_set(ev, 1)) != DOCA_SUCCESS || (err = wait_with_task(ev, pe, 2)) != DOCA_SUCCESS ||
		    (err = doca_sync_event_update_set(ev, 3)) != DOCA_SUCCESS)
			return fail("ping-pong with a task", err);
		(void)doca_ctx_stop(ctx);
	}
	(void)doca_sync_event_destroy(ev);
	if (pe != NULL)
		(void)doca_pe_destroy(pe);
	printf("ok\n");
	return 0;
}

static int do_import_dies(const char *path)
{
	struct doca_sync_event *ev = import_from(path);
	doca_error_t err;

	if (ev == NULL || doca_sync_event_start(ev) != DOCA_SUCCESS)
		return fail("import", DOCA_ERROR_INVALID_VALUE);
	printf("waiting\n");
	fflush(stdout);
	err = doca_sync_event_wait_eq(ev, 99, UINT64_MAX);
	printf("failed %s\n", doca_error_get_name(err));
	(void)doca_sync_event_stop(ev);
	(void)doca_sync_event_destroy(ev);
	return err == DOCA_ERROR_IO_FAILED ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	if (dev == NULL)
		return fail("no device", DOCA_ERROR_NOT_FOUND);
	if (strcmp(argv[1], "export") == 0)
		return do_export(argv[2], argc > 3 && strcmp(argv[3], "hold") == 0);
	if (strcmp(argv[1], "import") == 0)
		return do_import(argv[2], argc > 3 && strcmp(argv[3], "task") == 0);
	if (strcmp(argv[1], "import-dies") == 0)
		return do_import_dies(argv[2]);
	return 2;
}
