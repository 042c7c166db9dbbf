/*
 * test_rdma_sync_event.c - the remote-net sync event tasks of DOCA RDMA
 * (get, notify-set, notify-add) on an event exported with
 * doca_sync_event_export_to_remote_net and imported with
 * doca_sync_event_remote_net_create_from_export: first in the same
 * process, then on an event owned by a child process that only waits.
 * When the exporter stops its event or dies, the next task fails with a
 * DOCA error instead of hanging or crashing.
 *
 * With SOFTDOCA_XPROC_PATH=ucx the exporter offers its page over the
 * network and the importer reaches it there, as a peer in another
 * namespace or on another machine does: the descriptor then carries its
 * network part, and a dead exporter is noticed within the network's
 * liveness bound (1 s) instead of the page lock's.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_sync_event.h>

#include "rdma_test.h"

#define RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	    DOCA_ACCESS_FLAG_RDMA_ATOMIC)

RT_DEFINE_CB(remote_net_sync_event_get)
RT_DEFINE_CB(remote_net_sync_event_notify_set)
RT_DEFINE_CB(remote_net_sync_event_notify_add)

/* The importer reaches the exporter over UCX (meson's _over_ucx test). */
static bool over_network(void)
{
	const char *path = getenv("SOFTDOCA_XPROC_PATH");
	return path != NULL && strcmp(path, "ucx") == 0;
}

/* rt_configure plus the three sync event task types. */
static bool se_configure(struct rt_side *s, const char *pci)
{
	return rt_configure(s, pci, RW) &&
	       doca_rdma_task_remote_net_sync_event_get_set_conf(s->rdma, RT_CB(remote_net_sync_event_get),
								 RT_CB(remote_net_sync_event_get), 8) == DOCA_SUCCESS &&
	       doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
		       s->rdma, RT_CB(remote_net_sync_event_notify_set), RT_CB(remote_net_sync_event_notify_set), 8) ==
		       DOCA_SUCCESS &&
	       doca_rdma_task_remote_net_sync_event_notify_add_set_conf(
		       s->rdma, RT_CB(remote_net_sync_event_notify_add), RT_CB(remote_net_sync_event_notify_add), 8) ==
		       DOCA_SUCCESS;
}

static uint64_t sd_rdma_test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool write_all(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n;
}

static bool put_blob(int fd, const void *p, size_t n)
{
	uint32_t len = (uint32_t)n;
	return write_all(fd, &len, 4) && write_all(fd, p, n);
}

static size_t get_blob(int fd, uint8_t *out, size_t cap)
{
	uint32_t len = 0;
	size_t got = 0;

	if (read(fd, &len, 4) != 4 || len > cap)
		return 0;
	while (got < len) {
		ssize_t r = read(fd, out + got, len - got);
		if (r <= 0)
			return 0;
		got += (size_t)r;
	}
	return len;
}

/* The three tasks of one side, with the buffers they use. */
struct se_tasks {
	uint8_t mem[256];
	struct doca_mmap *m;
	struct doca_buf *get_dst, *set_src, *add_res;
	struct doca_rdma_task_remote_net_sync_event_get *get;
	struct doca_rdma_task_remote_net_sync_event_notify_set *set;
	struct doca_rdma_task_remote_net_sync_event_notify_add *add;
};

static void se_tasks_make(struct rt_side *s, struct se_tasks *k, struct doca_sync_event_remote_net *rn)
{
	union doca_data ud = {.u64 = 0};

	memset(k->mem, 0, sizeof(k->mem));
	k->m = rt_mmap(s->dev, k->mem, sizeof(k->mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(k->m != NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(s->inv, k->m, k->mem, 64, &k->get_dst));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(s->inv, k->m, k->mem + 64, 8, &k->set_src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(s->inv, k->m, k->mem + 128, 64, &k->add_res));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_get_allocate_init(s->rdma, s->conn, rn, k->get_dst, ud, &k->get));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(s->rdma, s->conn, rn, k->set_src, ud,
									       &k->set));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(s->rdma, s->conn, rn, k->add_res, 0, ud,
									       &k->add));
	REQUIRE(k->get != NULL && k->set != NULL && k->add != NULL);
}

/* Run one task to its completion and return its status. */
static doca_error_t se_run(struct rt_side *s, struct doca_task *task)
{
	int want = s->done + 1;
	doca_error_t err = doca_task_submit(task);

	if (err != DOCA_SUCCESS)
		return err;
	if (!rt_wait(s, NULL, want))
		return DOCA_ERROR_TIME_OUT; /* never completed: the checks that follow fail */
	return s->status;
}

/* Read the value through a get task; the destination grows by 8 bytes per success. */
static uint64_t se_get(struct rt_side *s, struct se_tasks *k)
{
	uint64_t v = UINT64_MAX;
	size_t before = 0, after = 0;

	CHECK_OK(doca_buf_get_data_len(k->get_dst, &before));
	CHECK_OK(se_run(s, doca_rdma_task_remote_net_sync_event_get_as_task(k->get)));
	CHECK_OK(doca_buf_get_data_len(k->get_dst, &after));
	CHECK(after == before + 8);
	CHECK(doca_rdma_task_remote_net_sync_event_get_get_result_len(k->get) == 8);
	memcpy(&v, k->mem + before, 8);
	CHECK_OK(doca_buf_reset_data_len(k->get_dst));
	return v;
}

static doca_error_t se_set(struct rt_side *s, struct se_tasks *k, uint64_t value)
{
	memcpy(k->mem + 64, &value, 8);
	return se_run(s, doca_rdma_task_remote_net_sync_event_notify_set_as_task(k->set));
}

/* Add `delta`; the old value lands in the result buffer. */
static uint64_t se_add(struct rt_side *s, struct se_tasks *k, uint64_t delta)
{
	uint64_t old = UINT64_MAX;

	CHECK_OK(doca_buf_reset_data_len(k->add_res));
	doca_rdma_task_remote_net_sync_event_notify_add_set_add_data(k->add, delta);
	CHECK_OK(se_run(s, doca_rdma_task_remote_net_sync_event_notify_add_as_task(k->add)));
	size_t len = 0;
	CHECK_OK(doca_buf_get_data_len(k->add_res, &len));
	CHECK(len == 8);
	memcpy(&old, k->mem + 128, 8);
	return old;
}

static void se_tasks_free(struct se_tasks *k)
{
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(k->get));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(k->set));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_add_as_task(k->add));
	doca_buf_dec_refcount(k->get_dst, NULL);
	doca_buf_dec_refcount(k->set_src, NULL);
	doca_buf_dec_refcount(k->add_res, NULL);
	doca_mmap_destroy(k->m);
}

static void the_three_tasks_are_reported_supported(void)
{
	struct doca_dev *dev = sd_test_open_dev_at(RT_DPU_PCI);

	REQUIRE(dev != NULL);
	struct doca_devinfo *di = doca_dev_as_devinfo(dev);
	CHECK_OK(doca_rdma_cap_task_remote_net_sync_event_get_is_supported(di));
	CHECK_OK(doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported(di));
	CHECK_OK(doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported(di));
	doca_dev_close(dev);
}

static void tasks_read_set_and_add_an_event_of_this_process(void)
{
	struct rt_side a, b;
	struct se_tasks k;
	struct doca_sync_event *ev = NULL;
	struct doca_sync_event_remote_net *rn = NULL;
	const uint8_t *blob = NULL;
	size_t sz = 0;
	uint64_t v = 0;

	REQUIRE(se_configure(&a, RT_HOST_PCI) && se_configure(&b, RT_DPU_PCI));
	REQUIRE(rt_start_and_export(&a) && rt_start_and_export(&b));
	CHECK_OK(doca_rdma_connect(a.rdma, b.blob, b.blob_len, a.conn));
	CHECK_OK(doca_rdma_connect(b.rdma, a.blob, a.blob_len, b.conn));

	/* b's side owns the event and exports it; a imports it and acts on it. */
	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, b.dev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &blob, &sz));
	CHECK(over_network() ? sz > 128 : sz == 128); /* the network part only when an endpoint is offered */
	CHECK_OK(doca_sync_event_remote_net_create_from_export(a.dev, blob, sz, &rn));
	REQUIRE(rn != NULL);
	se_tasks_make(&a, &k, rn);

	CHECK_OK(doca_sync_event_update_set(ev, 100));
	CHECK_EQ_U64(se_get(&a, &k), 100);
	CHECK_OK(se_set(&a, &k, 7));
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 7);
	CHECK_EQ_U64(se_add(&a, &k, 3), 7);
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 10);
	CHECK_EQ_U64(se_add(&a, &k, UINT64_MAX), 10); /* wraps at 2^64: 10 - 1 */
	CHECK_EQ_U64(se_get(&a, &k), 9);

	/* A source with fewer than 8 bytes is refused at submit, leaving the value alone. */
	CHECK_OK(doca_buf_set_data(k.set_src, k.mem + 64, 4));
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(k.set)),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_set_data(k.set_src, k.mem + 64, 8));
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 9);

	/* The exporter stops its event: every task fails, none hangs. */
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_ERR(se_run(&a, doca_rdma_task_remote_net_sync_event_get_as_task(k.get)), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(se_set(&a, &k, 1), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(se_run(&a, doca_rdma_task_remote_net_sync_event_notify_add_as_task(k.add)), DOCA_ERROR_IO_FAILED);
	size_t len = 1;
	CHECK_OK(doca_buf_get_data_len(k.get_dst, &len));
	CHECK(len == 0); /* a failed get leaves its destination as it was */

	se_tasks_free(&k);
	CHECK_OK(doca_sync_event_remote_net_destroy(rn));
	CHECK_OK(doca_sync_event_destroy(ev));
	rt_stop(&a);
	rt_stop(&b);
	rt_destroy(&a);
	rt_destroy(&b);
}

/* The child: owns the event, exports it and a connection, then only waits on the value. */
static int child(int to_parent, int from_parent)
{
	struct rt_side s;
	struct doca_sync_event *ev = NULL;
	const uint8_t *blob = NULL;
	size_t sz = 0;
	uint8_t peer[256];
	uint64_t v = 0;
	char go;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!rt_configure(&s, RT_DPU_PCI, RW) || !rt_start_and_export(&s))
		return 10;
	if (doca_sync_event_create(&ev) != DOCA_SUCCESS ||
	    doca_sync_event_add_publisher_location_remote_net(ev) != DOCA_SUCCESS ||
	    doca_sync_event_add_subscriber_location_cpu(ev, s.dev) != DOCA_SUCCESS ||
	    doca_sync_event_start(ev) != DOCA_SUCCESS || doca_sync_event_update_set(ev, 5) != DOCA_SUCCESS ||
	    doca_sync_event_export_to_remote_net(ev, &blob, &sz) != DOCA_SUCCESS)
		return 11;
	if (!put_blob(to_parent, s.blob, s.blob_len) || !put_blob(to_parent, blob, sz))
		return 12;
	size_t n = get_blob(from_parent, peer, sizeof(peer));
	if (n == 0 || doca_rdma_connect(s.rdma, peer, n, s.conn) != DOCA_SUCCESS)
		return 13;
	/* The parent sets 41 and adds 1; this side sees 42 without progressing anything. */
	if (doca_sync_event_wait_eq(ev, 42, UINT64_MAX) != DOCA_SUCCESS)
		return 14;
	if (doca_sync_event_update_set(ev, 500) != DOCA_SUCCESS || !write_all(to_parent, "k", 1))
		return 15;
	if (read(from_parent, &go, 1) != 1 || go != 's')
		return 16;
	if (doca_sync_event_get(ev, &v) != DOCA_SUCCESS || v != 500 + 8)
		return 17;
	if (!write_all(to_parent, "d", 1))
		return 18;
	pause(); /* killed by the parent */
	return 0;
}

static void tasks_act_on_an_event_of_another_process_until_it_dies(void)
{
	int up[2], down[2];
	uint8_t blob[256], evblob[2048];
	struct rt_side a;
	struct se_tasks k;
	struct doca_sync_event_remote_net *rn = NULL;
	char c = 0;

	REQUIRE(pipe(up) == 0 && pipe(down) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(child(up[1], down[0]));
	REQUIRE(se_configure(&a, RT_HOST_PCI) && rt_start_and_export(&a));
	size_t nb = get_blob(up[0], blob, sizeof(blob)), ne = get_blob(up[0], evblob, sizeof(evblob));
	REQUIRE(nb != 0 && ne != 0);
	CHECK(over_network() ? ne > 128 : ne == 128);
	REQUIRE(put_blob(down[1], a.blob, a.blob_len));
	CHECK_OK(doca_rdma_connect(a.rdma, blob, nb, a.conn));
	CHECK_OK(doca_sync_event_remote_net_create_from_export(a.dev, evblob, ne, &rn));
	REQUIRE(rn != NULL);
	se_tasks_make(&a, &k, rn);

	CHECK_EQ_U64(se_get(&a, &k), 5);
	CHECK_OK(se_set(&a, &k, 41));
	CHECK_EQ_U64(se_add(&a, &k, 1), 41);
	/* The child, woken by 42, sets 500; this side reads it and adds 8. */
	CHECK(read(up[0], &c, 1) == 1 && c == 'k');
	CHECK_EQ_U64(se_get(&a, &k), 500);
	CHECK_EQ_U64(se_add(&a, &k, 8), 500);
	CHECK(write_all(down[1], "s", 1));
	CHECK(read(up[0], &c, 1) == 1 && c == 'd');

	/*
	 * The exporter dies: its liveness is looked at every few tens of
	 * milliseconds, so tasks fail with a DOCA error within 0.5 s of the
	 * death (a card's transport timeout), and every later task fails too.
	 */
	kill(pid, SIGKILL);
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st));
	doca_error_t err = DOCA_SUCCESS;
	uint64_t t0 = sd_rdma_test_now_ns();
	while (sd_rdma_test_now_ns() - t0 < 5000000000ull &&
	       (err = se_run(&a, doca_rdma_task_remote_net_sync_event_get_as_task(k.get))) == DOCA_SUCCESS) {
		CHECK_OK(doca_buf_reset_data_len(k.get_dst));
		usleep(1000);
	}
	CHECK_ERR(err, DOCA_ERROR_IO_FAILED);
	CHECK(sd_rdma_test_now_ns() - t0 < (over_network() ? 3000000000ull : 500000000ull));
	CHECK_ERR(se_run(&a, doca_rdma_task_remote_net_sync_event_notify_add_as_task(k.add)), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(se_set(&a, &k, 3), DOCA_ERROR_IO_FAILED);

	se_tasks_free(&k);
	CHECK_OK(doca_sync_event_remote_net_destroy(rn));
	rt_stop(&a);
	rt_destroy(&a);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

int main(void)
{
	SD_RUN(the_three_tasks_are_reported_supported);
	SD_RUN(tasks_read_set_and_add_an_event_of_this_process);
	SD_RUN(tasks_act_on_an_event_of_another_process_until_it_dies);
	return sd_test_done();
}
