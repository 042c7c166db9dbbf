/*
 * netns_rdma_se - one side of a remote-net sync event across two network
 * and PID namespaces (test_netns_rdma_sync_event.sh runs one in each, the
 * exporter with a /dev/shm of its own, so the value can only be reached
 * over the network).  Files are exchanged in DIR.
 *
 *   netns_rdma_se export DIR
 *       Exports an RDMA connection (DIR/rblob: the tasks need a connected
 *       one on the importer's side, as in the official samples), creates an
 *       event with a remote-net publisher, starts it, writes
 *       doca_sync_event_export_to_remote_net's bytes to DIR/sedesc, prints
 *       "ready LEN" (LEN: the descriptor's length), then, progressing
 *       nothing and polling with doca_sync_event_get: waits for 42, sets
 *       500 ("set"), waits for 508 ("done"), then for DIR/finished (the
 *       importer's last answer is on its way until then) and exits 0; exit
 *       1 after 20 s.
 *   netns_rdma_se import DIR PCI
 *       On device PCI, an RDMA context connected to DIR/rblob runs the
 *       remote-net tasks on the event of DIR/sedesc: get (expects 0), notify-set 41, notify-add 1
 *       (expects 41), gets until 500 (at most 20 s), notify-add 8 (expects
 *       500); writes DIR/finished and prints "ok", or "fail WHAT" and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_sync_event.h>

#include "rdma_test.h"
#include "sd_time.h"

#define SE_DESC_MAX 4096u
#define SE_RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	       DOCA_ACCESS_FLAG_RDMA_ATOMIC)
#define SE_LIMIT_S 20.0

static int fail(const char *what)
{
	printf("fail %s\n", what);
	fflush(stdout);
	return 1;
}

/* Poll the event until it holds `want` (no progress engine: the peer's atomics land on their own). */
static bool wait_value(struct doca_sync_event *ev, uint64_t want)
{
	double end = sd_time_now_s() + SE_LIMIT_S;
	uint64_t v = 0;

	while (sd_time_now_s() < end) {
		if (doca_sync_event_get(ev, &v) != DOCA_SUCCESS)
			return false;
		if (v == want)
			return true;
		usleep(1000);
	}
	return false;
}

/* Write `len` bytes to DIR/NAME whole (a temporary file renamed into place). */
static bool put_file(const char *dir, const char *name, const void *p, size_t len)
{
	char tmp[512], path[512];

	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(tmp, "wb");
	if (f == NULL)
		return false;
	bool ok = fwrite(p, 1, len, f) == len;
	return fclose(f) == 0 && ok && rename(tmp, path) == 0;
}

static size_t get_file(const char *dir, const char *name, uint8_t *buf, size_t cap)
{
	char path[512];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return 0;
	len = fread(buf, 1, cap, f);
	fclose(f);
	return len;
}

static bool file_exists(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static int do_export(const char *dir)
{
	struct doca_sync_event *ev = NULL;
	const uint8_t *desc = NULL;
	size_t len = 0;
	struct rt_side s;

	if (!rt_configure(&s, RT_DPU_PCI, SE_RW) || !rt_start_and_export(&s) ||
	    !put_file(dir, "rblob", s.blob, s.blob_len))
		return fail("rdma");
	if (doca_sync_event_create(&ev) != DOCA_SUCCESS ||
	    doca_sync_event_add_publisher_location_remote_net(ev) != DOCA_SUCCESS ||
	    doca_sync_event_add_subscriber_location_cpu(ev, NULL) != DOCA_SUCCESS ||
	    doca_sync_event_start(ev) != DOCA_SUCCESS ||
	    doca_sync_event_export_to_remote_net(ev, &desc, &len) != DOCA_SUCCESS)
		return fail("export");
	if (!put_file(dir, "sedesc", desc, len))
		return fail("write");
	printf("ready %zu\n", len);
	fflush(stdout);
	if (!wait_value(ev, 42))
		return fail("wait42");
	if (doca_sync_event_update_set(ev, 500) != DOCA_SUCCESS)
		return fail("set");
	printf("set\n");
	fflush(stdout);
	if (!wait_value(ev, 508))
		return fail("wait508");
	printf("done\n");
	fflush(stdout);
	for (double end = sd_time_now_s() + SE_LIMIT_S; !file_exists(dir, "finished") && sd_time_now_s() < end;)
		usleep(1000);
	doca_sync_event_stop(ev);
	doca_sync_event_destroy(ev);
	rt_stop(&s);
	rt_destroy(&s);
	return 0;
}

RT_DEFINE_CB(remote_net_sync_event_get)
RT_DEFINE_CB(remote_net_sync_event_notify_set)
RT_DEFINE_CB(remote_net_sync_event_notify_add)

struct se_side {
	struct rt_side s;
	uint8_t mem[256];
	struct doca_mmap *m;
	struct doca_buf *get_dst, *set_src, *add_res;
	struct doca_sync_event_remote_net *rn;
};

static bool se_setup(struct se_side *x, const char *pci, const uint8_t *blob, size_t blob_len, const uint8_t *desc,
		     size_t len)
{
	struct rt_side *s = &x->s;

	if (!rt_configure(s, pci, SE_RW) ||
	    doca_rdma_task_remote_net_sync_event_get_set_conf(s->rdma, RT_CB(remote_net_sync_event_get),
							      RT_CB(remote_net_sync_event_get), 8) != DOCA_SUCCESS ||
	    doca_rdma_task_remote_net_sync_event_notify_set_set_conf(s->rdma, RT_CB(remote_net_sync_event_notify_set),
								     RT_CB(remote_net_sync_event_notify_set),
								     8) != DOCA_SUCCESS ||
	    doca_rdma_task_remote_net_sync_event_notify_add_set_conf(s->rdma, RT_CB(remote_net_sync_event_notify_add),
								     RT_CB(remote_net_sync_event_notify_add),
								     8) != DOCA_SUCCESS ||
	    !rt_start_and_export(s) || doca_rdma_connect(s->rdma, blob, blob_len, s->conn) != DOCA_SUCCESS)
		return false;
	x->m = rt_mmap(s->dev, x->mem, sizeof(x->mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return x->m != NULL &&
	       doca_buf_inventory_buf_get_by_addr(s->inv, x->m, x->mem, 64, &x->get_dst) == DOCA_SUCCESS &&
	       doca_buf_inventory_buf_get_by_data(s->inv, x->m, x->mem + 64, 8, &x->set_src) == DOCA_SUCCESS &&
	       doca_buf_inventory_buf_get_by_addr(s->inv, x->m, x->mem + 128, 64, &x->add_res) == DOCA_SUCCESS &&
	       doca_sync_event_remote_net_create_from_export(s->dev, desc, len, &x->rn) == DOCA_SUCCESS;
}

/* Run one task to its end; its status. */
static doca_error_t se_run(struct se_side *x, struct doca_task *t)
{
	int want = x->s.done + 1;

	if (doca_task_submit(t) != DOCA_SUCCESS)
		return DOCA_ERROR_BAD_STATE;
	doca_error_t st = rt_wait(&x->s, NULL, want) ? x->s.status : DOCA_ERROR_TIME_OUT;
	doca_task_free(t);
	return st;
}

static bool se_get(struct se_side *x, uint64_t *v)
{
	struct doca_rdma_task_remote_net_sync_event_get *t = NULL;
	union doca_data ud = {.u64 = 0};

	doca_buf_reset_data_len(x->get_dst);
	if (doca_rdma_task_remote_net_sync_event_get_allocate_init(x->s.rdma, x->s.conn, x->rn, x->get_dst, ud, &t) !=
		    DOCA_SUCCESS ||
	    se_run(x, doca_rdma_task_remote_net_sync_event_get_as_task(t)) != DOCA_SUCCESS)
		return false;
	memcpy(v, x->mem, 8);
	return true;
}

static bool se_set(struct se_side *x, uint64_t v)
{
	struct doca_rdma_task_remote_net_sync_event_notify_set *t = NULL;
	union doca_data ud = {.u64 = 0};

	memcpy(x->mem + 64, &v, 8);
	return doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(x->s.rdma, x->s.conn, x->rn, x->set_src, ud,
									     &t) == DOCA_SUCCESS &&
	       se_run(x, doca_rdma_task_remote_net_sync_event_notify_set_as_task(t)) == DOCA_SUCCESS;
}

static bool se_add(struct se_side *x, uint64_t v, uint64_t *old)
{
	struct doca_rdma_task_remote_net_sync_event_notify_add *t = NULL;
	union doca_data ud = {.u64 = 0};

	doca_buf_reset_data_len(x->add_res);
	if (doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(x->s.rdma, x->s.conn, x->rn, x->add_res, v,
									  ud, &t) != DOCA_SUCCESS ||
	    se_run(x, doca_rdma_task_remote_net_sync_event_notify_add_as_task(t)) != DOCA_SUCCESS)
		return false;
	memcpy(old, x->mem + 128, 8);
	return true;
}

static int do_import(const char *dir, const char *pci)
{
	static uint8_t desc[SE_DESC_MAX], blob[SE_DESC_MAX];
	struct se_side x;
	uint64_t v = 1;

	memset(&x, 0, sizeof(x));
	size_t len = get_file(dir, "sedesc", desc, sizeof(desc)), blob_len = get_file(dir, "rblob", blob, sizeof(blob));
	if (len == 0 || blob_len == 0)
		return fail("read");
	if (!se_setup(&x, pci, blob, blob_len, desc, len))
		return fail("import");
	if (!se_get(&x, &v) || v != 0)
		return fail("get0");
	if (!se_set(&x, 41) || !se_add(&x, 1, &v) || v != 41)
		return fail("set41add1");
	double end = sd_time_now_s() + SE_LIMIT_S;
	while (se_get(&x, &v) && v != 500 && sd_time_now_s() < end)
		usleep(1000);
	if (v != 500)
		return fail("get500");
	if (!se_add(&x, 8, &v) || v != 500)
		return fail("add8");
	if (!put_file(dir, "finished", "1", 1))
		return fail("finished");
	printf("ok\n");
	fflush(stdout);
	doca_sync_event_remote_net_destroy(x.rn);
	doca_buf_dec_refcount(x.get_dst, NULL);
	doca_buf_dec_refcount(x.set_src, NULL);
	doca_buf_dec_refcount(x.add_res, NULL);
	rt_stop(&x.s);
	doca_mmap_destroy(x.m);
	rt_destroy(&x.s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "export") == 0)
		return do_export(argv[2]);
	if (argc == 4 && strcmp(argv[1], "import") == 0)
		return do_import(argv[2], argv[3]);
	fprintf(stderr, "usage: netns_rdma_se export DIR | import DIR PCI\n");
	return 2;
}
