/*
 * test_sync_event_processes - a sync event shared by two processes: a
 * forked child is the other side (the exporter or the importer), the
 * descriptor travels through a pipe.  Covers both directions, a wait task
 * woken through the notification handle by the other process, and an
 * exporter that is killed or stops while the importer waits.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/include/sd_sync_event.h"
#include "se_test.h"

/* How long an importer may take to notice a dead or stopped exporter (docs/sync-event.md says 100 ms). */
#define SE_DEATH_BOUND_S 0.5

static struct doca_dev *dev;

static bool se_write_all(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n;
}

static bool se_read_all(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* Child side: an exported, started event; the descriptor goes to `fd` as length + bytes. */
static struct doca_sync_event *se_child_export(int fd)
{
	struct doca_sync_event *ev = NULL;
	const uint8_t *blob;
	size_t sz;

	if (doca_sync_event_create(&ev) != DOCA_SUCCESS ||
	    doca_sync_event_add_publisher_location_remote_pci(ev) != DOCA_SUCCESS ||
	    doca_sync_event_add_subscriber_location_cpu(ev, dev) != DOCA_SUCCESS || doca_sync_event_start(ev) != DOCA_SUCCESS ||
	    doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz) != DOCA_SUCCESS)
		_exit(10);
	if (!se_write_all(fd, &sz, sizeof(sz)) || !se_write_all(fd, blob, sz))
		_exit(11);
	return ev;
}

/* Parent side: read a descriptor and import it. */
static struct doca_sync_event *se_import_from(int fd, uint8_t *blob, size_t *sz)
{
	struct doca_sync_event *ev = NULL;

	if (!se_read_all(fd, sz, sizeof(*sz)) || *sz > 256 || !se_read_all(fd, blob, *sz))
		return NULL;
	if (doca_sync_event_create_from_export(dev, blob, *sz, &ev) != DOCA_SUCCESS)
		return NULL;
	return ev;
}

static int se_child_status(pid_t pid)
{
	int st = 0;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void child_exporter_and_parent_importer_ping_pong(void)
{
	int p[2];
	uint8_t blob[256];
	size_t sz;
	pid_t pid;
	struct doca_sync_event *ev;

	REQUIRE(pipe(p) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct doca_sync_event *mine = se_child_export(p[1]);

		if (doca_sync_event_wait_eq(mine, 1, UINT64_MAX) != DOCA_SUCCESS ||
		    doca_sync_event_update_set(mine, 2) != DOCA_SUCCESS ||
		    doca_sync_event_wait_gt_yield(mine, 2, UINT64_MAX) != DOCA_SUCCESS)
			_exit(12);
		_exit(doca_sync_event_stop(mine) == DOCA_SUCCESS && doca_sync_event_destroy(mine) == DOCA_SUCCESS ? 0 : 13);
	}
	close(p[1]);
	ev = se_import_from(p[0], blob, &sz);
	close(p[0]);
	REQUIRE(ev != NULL);
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_update_set(ev, 1));
	CHECK_OK(doca_sync_event_wait_eq_yield(ev, 2, UINT64_MAX));
	CHECK_OK(doca_sync_event_update_add(ev, 1, NULL));
	CHECK_EQ_U64(se_child_status(pid), 0);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

/* Child as importer: a wait task, the PE asleep on its handle until the parent's update. */
static int se_child_waits_with_a_task(int fd)
{
	uint8_t blob[256];
	size_t sz;
	struct doca_sync_event *ev = se_import_from(fd, blob, &sz);
	struct doca_pe *pe = NULL;
	struct doca_sync_event_task_wait_eq *t;
	doca_notification_handle_t h;
	struct pollfd pfd;
	union doca_data ud = {.u64 = 0};

	if (ev == NULL || se_start_ctx(ev, &pe) != DOCA_SUCCESS)
		return 20;
	if (doca_sync_event_task_wait_eq_alloc_init(ev, 5, UINT64_MAX, ud, &t) != DOCA_SUCCESS ||
	    doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t)) != DOCA_SUCCESS)
		return 21;
	if (doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS || doca_pe_request_notification(pe) != DOCA_SUCCESS)
		return 22;
	pfd = (struct pollfd){.fd = h, .events = POLLIN};
	if (poll(&pfd, 1, 10000) != 1)
		return 23;
	(void)doca_pe_clear_notification(pe, h);
	if (!se_progress_one(pe, 5) || se_log.ok != 1)
		return 24;
	se_stop_ctx(ev, pe);
	return 0;
}

static void parent_update_wakes_a_childs_wait_task(void)
{
	int p[2];
	pid_t pid;
	struct doca_sync_event *ev = NULL;
	const uint8_t *blob;
	size_t sz;

	REQUIRE(pipe(p) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		close(p[1]);
		_exit(se_child_waits_with_a_task(p[0]));
	}
	close(p[0]);
	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_OK(doca_sync_event_add_subscriber_location_remote_pci(ev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz));
	CHECK(se_write_all(p[1], &sz, sizeof(sz)) && se_write_all(p[1], blob, sz));
	close(p[1]);
	usleep(100 * 1000); /* let the child fall asleep first */
	CHECK_OK(doca_sync_event_update_set(ev, 5));
	CHECK_EQ_U64(se_child_status(pid), 0);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

/*
 * The child exports and then does what `cmd` read from the parent says:
 * 'k' waits to be killed, 's' stops the event and waits.
 */
static pid_t se_fork_exporter(int *to_child, int *from_child)
{
	int down[2], up[2];
	pid_t pid;

	if (pipe(down) != 0 || pipe(up) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct doca_sync_event *mine;
		char cmd = 0;

		close(down[1]);
		close(up[0]);
		mine = se_child_export(up[1]);
		if (read(down[0], &cmd, 1) == 1 && cmd == 's') {
			(void)doca_sync_event_stop(mine);
			(void)doca_sync_event_destroy(mine);
		}
		(void)read(down[0], &cmd, 1); /* until the parent closes or kills */
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	*to_child = down[1];
	*from_child = up[0];
	return pid;
}

/* The exporter goes away (killed or stopped): the importer's task and CPU wait fail in time. */
static void se_exporter_goes_away(char how)
{
	int to_child, from_child;
	uint8_t blob[256];
	size_t sz;
	pid_t pid = se_fork_exporter(&to_child, &from_child);
	struct doca_sync_event *ev, *cpu_ev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_sync_event_task_wait_eq *t;
	union doca_data ud = {.u64 = 0};
	double t0;

	REQUIRE(pid > 0);
	ev = se_import_from(from_child, blob, &sz);
	REQUIRE(ev != NULL);
	CHECK_OK(doca_sync_event_create_from_export(dev, blob, sz, &cpu_ev));
	REQUIRE(se_start_ctx(ev, &pe) == DOCA_SUCCESS);
	CHECK_OK(doca_sync_event_start(cpu_ev));
	se_log = (struct se_log){0};
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(ev, 1, UINT64_MAX, ud, &t));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t)));
	CHECK(!se_progress_one(pe, 0.05));
	if (how == 'k') {
		kill(pid, SIGKILL);
		CHECK_EQ_U64(se_child_status(pid), 128 + SIGKILL);
	} else {
		CHECK(write(to_child, &how, 1) == 1);
	}
	t0 = se_now();
	CHECK(se_progress_one(pe, 5));
	CHECK(se_now() - t0 < SE_DEATH_BOUND_S);
	CHECK_EQ_U64(se_log.failed, 1);
	CHECK_ERR(se_log.last_status, DOCA_ERROR_IO_FAILED);
	t0 = se_now();
	CHECK_ERR(doca_sync_event_wait_eq(cpu_ev, 1, UINT64_MAX), DOCA_ERROR_IO_FAILED);
	CHECK(se_now() - t0 < SE_DEATH_BOUND_S);
	/* the descriptor is stale now */
	{
		struct doca_sync_event *late = NULL;

		CHECK_ERR(doca_sync_event_create_from_export(dev, blob, sz, &late), DOCA_ERROR_INVALID_VALUE);
	}
	close(to_child);
	close(from_child);
	if (how != 'k')
		CHECK_EQ_U64(se_child_status(pid), 0);
	CHECK_OK(doca_sync_event_stop(cpu_ev));
	CHECK_OK(doca_sync_event_destroy(cpu_ev));
	se_stop_ctx(ev, pe);
}

static void a_killed_exporter_fails_the_importers_waits(void)
{
	se_exporter_goes_away('k');
}

static void a_stopped_exporter_fails_the_importers_waits(void)
{
	se_exporter_goes_away('s');
}

/* A remote-net handle on a child's event: DOCA RDMA's entry point reaches its value, and fails once it dies. */
static void remote_net_apply_reaches_another_process(void)
{
	int p[2];
	uint8_t blob[256];
	size_t sz = 0;
	pid_t pid;
	struct doca_sync_event_remote_net *rn = NULL;
	uint64_t old = 0;
	double t0;
	doca_error_t err = DOCA_SUCCESS;

	REQUIRE(pipe(p) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct doca_sync_event *mine = NULL;
		const uint8_t *b;

		close(p[0]);
		if (doca_sync_event_create(&mine) != DOCA_SUCCESS ||
		    doca_sync_event_add_publisher_location_remote_net(mine) != DOCA_SUCCESS ||
		    doca_sync_event_start(mine) != DOCA_SUCCESS ||
		    doca_sync_event_export_to_remote_net(mine, &b, &sz) != DOCA_SUCCESS ||
		    !se_write_all(p[1], &sz, sizeof(sz)) || !se_write_all(p[1], b, sz))
			_exit(30);
		if (doca_sync_event_wait_eq(mine, 2, UINT64_MAX) != DOCA_SUCCESS ||
		    doca_sync_event_update_set(mine, 10) != DOCA_SUCCESS)
			_exit(31);
		for (;;)
			pause(); /* until killed */
	}
	close(p[1]);
	REQUIRE(se_read_all(p[0], &sz, sizeof(sz)) && sz <= sizeof(blob) && se_read_all(p[0], blob, sz));
	close(p[0]);
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, blob, sz, &rn));
	REQUIRE(rn != NULL);
	CHECK_OK(priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_ADD, 1, &old));
	CHECK_EQ_U64(old, 0);
	CHECK_OK(priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_ADD, 1, &old));
	CHECK_EQ_U64(old, 1);
	t0 = se_now();
	do
		CHECK_OK(priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_GET, 0, &old));
	while (old != 10 && se_now() - t0 < 10);
	CHECK_EQ_U64(old, 10);
	kill(pid, SIGKILL);
	CHECK_EQ_U64(se_child_status(pid), 128 + SIGKILL);
	t0 = se_now();
	while (se_now() - t0 < 5 && (err = priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_SET, 1, NULL)) ==
					   DOCA_SUCCESS)
		usleep(1000);
	CHECK_ERR(err, DOCA_ERROR_IO_FAILED);
	CHECK(se_now() - t0 < SE_DEATH_BOUND_S);
	CHECK_OK(doca_sync_event_remote_net_destroy(rn));
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	if (dev == NULL)
		sd_test_skip("no device");
	SD_RUN(child_exporter_and_parent_importer_ping_pong);
	SD_RUN(parent_update_wakes_a_childs_wait_task);
	SD_RUN(a_killed_exporter_fails_the_importers_waits);
	SD_RUN(a_stopped_exporter_fails_the_importers_waits);
	SD_RUN(remote_net_apply_reaches_another_process);
	(void)doca_dev_close(dev);
	return sd_test_done();
}
