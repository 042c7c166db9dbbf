/*
 * test_sync_event_local - a sync event inside one process: the CPU calls
 * and their masks, the states, the value's homes, the tasks through
 * doca_pe_progress (and the notification handle), the exports' rules, the
 * remote-net entry point of DOCA RDMA, and the DPA/GPU answers.
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include <doca_buf_inventory.h>
#include <doca_mmap.h>

#include "../../src/include/sd_sync_event.h"
#include "se_test.h"

static struct doca_sync_event *se_started(void)
{
	struct doca_sync_event *ev = NULL;

	if (doca_sync_event_create(&ev) != DOCA_SUCCESS)
		return NULL;
	if (doca_sync_event_add_publisher_location_cpu(ev, NULL) != DOCA_SUCCESS ||
	    doca_sync_event_add_subscriber_location_cpu(ev, NULL) != DOCA_SUCCESS ||
	    doca_sync_event_start(ev) != DOCA_SUCCESS) {
		(void)doca_sync_event_destroy(ev);
		return NULL;
	}
	return ev;
}

static void cpu_updates_and_reads_apply_atomically(void)
{
	struct doca_sync_event *ev = se_started();
	uint64_t v = 99, fetched = 99;

	REQUIRE(ev != NULL);
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 0);
	CHECK_OK(doca_sync_event_update_set(ev, 40));
	CHECK_OK(doca_sync_event_update_add(ev, 2, &fetched));
	CHECK_EQ_U64(fetched, 40);
	CHECK_OK(doca_sync_event_update_add(ev, UINT64_MAX, NULL)); /* wraps: 42 - 1 */
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 41);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

static void waits_compare_the_masked_value(void)
{
	struct doca_sync_event *ev = se_started();

	REQUIRE(ev != NULL);
	CHECK_OK(doca_sync_event_update_set(ev, 0xff05));
	CHECK_OK(doca_sync_event_wait_eq(ev, 0x05, 0xff));
	CHECK_OK(doca_sync_event_wait_eq_yield(ev, 0xff00, 0xff00));
	CHECK_OK(doca_sync_event_wait_neq(ev, 0x05, 0xff00));
	CHECK_OK(doca_sync_event_wait_neq_yield(ev, 0, UINT64_MAX));
	CHECK_OK(doca_sync_event_wait_gt(ev, 0x04, 0xff));
	CHECK_OK(doca_sync_event_wait_gt_yield(ev, 0xff04, UINT64_MAX));
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

static void *se_set_later(void *arg)
{
	usleep(50 * 1000);
	(void)doca_sync_event_update_set(arg, 7);
	return NULL;
}

static void a_wait_sleeps_until_another_thread_updates(void)
{
	struct doca_sync_event *ev = se_started();
	pthread_t th;
	double t0;

	REQUIRE(ev != NULL);
	REQUIRE(pthread_create(&th, NULL, se_set_later, ev) == 0);
	t0 = se_now();
	CHECK_OK(doca_sync_event_wait_eq(ev, 7, UINT64_MAX));
	CHECK(se_now() - t0 >= 0.04);
	pthread_join(th, NULL);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

static void states_and_bad_arguments_are_refused(void)
{
	struct doca_sync_event *ev = NULL;
	uint64_t v, word = 0;

	CHECK_ERR(doca_sync_event_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_update_set(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_destroy((struct doca_sync_event *)&word), DOCA_ERROR_INVALID_VALUE);
	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_ERR(doca_sync_event_get(ev, &v), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_update_set(ev, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_wait_eq(ev, 0, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_stop(ev), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_set_addr(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_set_addr(ev, (uint64_t *)((char *)&word + 1)), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_start(ev), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_get(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_cpu(ev, NULL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_set_addr(ev, &word), DOCA_ERROR_BAD_STATE);
	CHECK(doca_sync_event_as_ctx(ev) == NULL);
	CHECK_ERR(doca_sync_event_destroy(ev), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

static void the_value_lives_at_the_applications_address(void)
{
	struct doca_sync_event *ev = NULL;
	uint64_t word = 5, v = 0;
	const uint8_t *blob;
	size_t sz;
	struct doca_dev *dev = sd_test_open_first_dev(sd_test_any_dev, NULL);

	REQUIRE(dev != NULL);
	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_OK(doca_sync_event_set_addr(ev, &word));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_pci(ev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 5);
	CHECK_OK(doca_sync_event_update_add(ev, 3, NULL));
	CHECK_EQ_U64(word, 8);
	/* private memory cannot be mapped by another process */
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_dev_close(dev));
}

static void the_value_lives_in_a_doca_buf(void)
{
	struct doca_dev *dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	uint64_t mem[4] = {0, 11, 0, 0}, v = 0;
	struct doca_mmap *mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *buf = NULL, *tiny = NULL;
	struct doca_sync_event *ev = NULL;

	REQUIRE(dev != NULL);
	REQUIRE(doca_mmap_create(&mmap) == DOCA_SUCCESS);
	CHECK_OK(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_add_dev(mmap, dev));
	CHECK_OK(doca_mmap_start(mmap));
	CHECK_OK(doca_buf_inventory_create(2, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, mmap, &mem[1], 8, &buf));
	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, mmap, &mem[3], 4, &mem[3], 0, &tiny));
	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_ERR(doca_sync_event_set_doca_buf(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_set_doca_buf(ev, tiny), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_set_doca_buf(ev, buf));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 11);
	CHECK_OK(doca_sync_event_update_set(ev, 12));
	CHECK_EQ_U64(mem[1], 12);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_buf_dec_refcount(buf, NULL));
	CHECK_OK(doca_buf_dec_refcount(tiny, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(mmap));
	CHECK_OK(doca_dev_close(dev));
}

static void tasks_update_read_and_wait_through_progress(void)
{
	struct doca_sync_event *ev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_sync_event_task_get *get;
	struct doca_sync_event_task_notify_set *set;
	struct doca_sync_event_task_notify_add *add;
	struct doca_sync_event_task_wait_eq *weq;
	struct doca_sync_event_task_wait_neq *wneq;
	union doca_data ud = {.u64 = 0};
	uint64_t got = 0, fetched = 0;

	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	REQUIRE(se_start_ctx(ev, &pe) == DOCA_SUCCESS);
	CHECK_ERR(doca_sync_event_start(ev), DOCA_ERROR_BAD_STATE); /* the context owns start/stop */
	se_log = (struct se_log){0};
	CHECK_OK(doca_sync_event_task_notify_set_alloc_init(ev, 10, ud, &set));
	CHECK_EQ_U64(doca_sync_event_task_notify_set_get_set_val(set), 10);
	doca_sync_event_task_notify_set_set_set_val(set, 20);
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(set)));
	CHECK(se_progress_one(pe, 5));
	CHECK_OK(doca_sync_event_task_notify_add_alloc_init(ev, 5, &fetched, ud, &add));
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_add_as_doca_task(add)));
	CHECK(se_progress_one(pe, 5));
	CHECK_EQ_U64(fetched, 20);
	CHECK_OK(doca_sync_event_task_get_alloc_init(ev, &got, ud, &get));
	CHECK(doca_sync_event_task_get_get_ret_val_ptr(get) == &got);
	CHECK_OK(doca_task_submit(doca_sync_event_task_get_as_doca_task(get)));
	CHECK(se_progress_one(pe, 5));
	CHECK_EQ_U64(got, 25);
	CHECK_EQ_U64(se_log.ok, 3);

	/* a wait that does not match stays in flight until the value changes */
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(ev, 0x30, 0xf0, ud, &weq));
	CHECK_EQ_U64(doca_sync_event_task_wait_eq_get_mask(weq), 0xf0);
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(weq)));
	CHECK(!se_progress_one(pe, 0.05));
	CHECK_OK(doca_sync_event_update_set(ev, 0x3a));
	CHECK(se_progress_one(pe, 5));
	CHECK_EQ_U64(se_log.ok, 4);
	CHECK_OK(doca_sync_event_task_wait_neq_alloc_init(ev, 0x3a, UINT64_MAX, ud, &wneq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_neq_as_doca_task(wneq)));
	CHECK(!se_progress_one(pe, 0.05));
	CHECK_OK(doca_sync_event_update_add(ev, 1, NULL));
	CHECK(se_progress_one(pe, 5));
	CHECK_EQ_U64(se_log.ok, 5);
	CHECK_EQ_U64(se_log.failed, 0);
	se_stop_ctx(ev, pe);
}

static void task_rules_fail_the_task_with_the_rules_error(void)
{
	struct doca_sync_event *ev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_sync_event_task_get *get;
	union doca_data ud = {.u64 = 0};

	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_ERR(doca_sync_event_task_get_alloc_init(ev, NULL, ud, &get), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, NULL, se_get_err, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, se_get_ok, se_get_err, 0), DOCA_ERROR_INVALID_VALUE);
	REQUIRE(se_start_ctx(ev, &pe) == DOCA_SUCCESS);
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, se_get_ok, se_get_err, 4), DOCA_ERROR_BAD_STATE);
	se_log = (struct se_log){0};
	CHECK_OK(doca_sync_event_task_get_alloc_init(ev, NULL, ud, &get));
	CHECK_ERR(doca_task_try_submit(doca_sync_event_task_get_as_doca_task(get)), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_task_submit(doca_sync_event_task_get_as_doca_task(get)));
	CHECK(se_progress_one(pe, 5));
	CHECK_EQ_U64(se_log.failed, 1);
	CHECK_ERR(se_log.last_status, DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_sync_event_task_get_as_doca_task(NULL) == NULL);
	CHECK(doca_sync_event_task_wait_eq_as_doca_task((struct doca_sync_event_task_wait_eq *)get) == NULL);
	se_stop_ctx(ev, pe);
}

static void a_stop_flushes_waiting_tasks(void)
{
	struct doca_sync_event *ev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_sync_event_task_wait_eq *weq;
	union doca_data ud = {.u64 = 0};

	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	REQUIRE(se_start_ctx(ev, &pe) == DOCA_SUCCESS);
	se_log = (struct se_log){0};
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(ev, 1, UINT64_MAX, ud, &weq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(weq)));
	CHECK_ERR(doca_ctx_stop(doca_sync_event_as_ctx(ev)), DOCA_ERROR_IN_PROGRESS);
	se_stop_ctx(ev, pe);
	CHECK_EQ_U64(se_log.failed, 1);
	CHECK_ERR(se_log.last_status, DOCA_ERROR_SHUTDOWN);
}

static void *se_add_later(void *arg)
{
	usleep(50 * 1000);
	(void)doca_sync_event_update_add(arg, 1, NULL);
	return NULL;
}

static void a_sleeping_pe_wakes_when_a_wait_task_matches(void)
{
	struct doca_sync_event *ev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_sync_event_task_wait_eq *weq;
	union doca_data ud = {.u64 = 0};
	doca_notification_handle_t fd;
	struct pollfd pfd;
	pthread_t th;

	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	REQUIRE(se_start_ctx(ev, &pe) == DOCA_SUCCESS);
	se_log = (struct se_log){0};
	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(ev, 1, UINT64_MAX, ud, &weq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(weq)));
	CHECK_OK(doca_pe_request_notification(pe));
	pfd = (struct pollfd){.fd = fd, .events = POLLIN};
	CHECK(poll(&pfd, 1, 30) == 0); /* nothing yet: the PE really sleeps */
	REQUIRE(pthread_create(&th, NULL, se_add_later, ev) == 0);
	CHECK(poll(&pfd, 1, 5000) == 1);
	pthread_join(th, NULL);
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	CHECK(se_progress_one(pe, 5));
	CHECK_EQ_U64(se_log.ok, 1);
	se_stop_ctx(ev, pe);
}

/* Spins until the main thread has armed its PE, then updates at once. */
struct se_racer {
	struct doca_sync_event *ev;
	atomic_int go;
};

static void *se_add_when_armed(void *arg)
{
	struct se_racer *r = arg;

	while (atomic_load(&r->go) == 0)
		;
	(void)doca_sync_event_update_add(r->ev, 1, NULL);
	return NULL;
}

/*
 * The first arm of a context starts the thread that watches the value for
 * a sleeping PE.  An update landing while that thread is still starting
 * must wake the PE all the same: each round starts a fresh context, arms
 * it, and updates from another thread right away.
 */
static void an_update_racing_the_first_arm_still_wakes_the_pe(void)
{
	for (int round = 0; round < 40 && !sd_test_case_failed; round++) {
		struct se_racer r = {.ev = NULL, .go = 0};
		struct doca_pe *pe = NULL;
		struct doca_sync_event_task_wait_eq *weq;
		union doca_data ud = {.u64 = 0};
		doca_notification_handle_t fd;
		struct pollfd pfd;
		pthread_t th;

		REQUIRE(doca_sync_event_create(&r.ev) == DOCA_SUCCESS);
		REQUIRE(se_start_ctx(r.ev, &pe) == DOCA_SUCCESS);
		se_log = (struct se_log){0};
		CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
		CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(r.ev, 1, UINT64_MAX, ud, &weq));
		CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(weq)));
		REQUIRE(pthread_create(&th, NULL, se_add_when_armed, &r) == 0);
		CHECK_OK(doca_pe_request_notification(pe));
		atomic_store(&r.go, 1);
		pfd = (struct pollfd){.fd = fd, .events = POLLIN};
		CHECK(poll(&pfd, 1, 5000) == 1);
		pthread_join(th, NULL);
		CHECK_OK(doca_pe_clear_notification(pe, fd));
		CHECK(se_progress_one(pe, 5));
		CHECK_EQ_U64(se_log.ok, 1);
		se_stop_ctx(r.ev, pe);
	}
}

static void exports_need_a_started_event_with_a_remote_location(void)
{
	struct doca_dev *dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	struct doca_sync_event *ev = se_started(), *remote = NULL;
	const uint8_t *blob = NULL;
	size_t sz = 0;

	REQUIRE(dev != NULL && ev != NULL);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_export_to_remote_net(ev, &blob, &sz), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_pci(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, NULL, &blob, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, NULL, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_export_to_remote_pci(ev, dev, &blob, &sz));
	REQUIRE(blob != NULL && sz > 0);
	/* an import in the same process sees the same value */
	CHECK_OK(doca_sync_event_create_from_export(dev, blob, sz, &remote));
	CHECK_OK(doca_sync_event_start(remote));
	CHECK_OK(doca_sync_event_update_set(remote, 77));
	CHECK_OK(doca_sync_event_wait_eq(ev, 77, UINT64_MAX));
	CHECK_OK(doca_sync_event_update_add(ev, 1, NULL));
	CHECK_OK(doca_sync_event_wait_eq(remote, 78, UINT64_MAX));
	/* the exporter stops: the import is cut off */
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_ERR(doca_sync_event_update_set(remote, 1), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_wait_eq(remote, 5, UINT64_MAX), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(remote, dev, &blob, &sz), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_sync_event_stop(remote));
	CHECK_OK(doca_sync_event_destroy(remote));
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_dev_close(dev));
}

static void remote_net_apply_gets_sets_and_adds(void)
{
	struct doca_dev *dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	struct doca_sync_event *ev = NULL;
	struct doca_sync_event_remote_net *rn = NULL;
	const uint8_t *blob = NULL, *pci_blob = NULL;
	size_t sz = 0, pci_sz = 0;
	uint64_t old = 0, v = 0;

	REQUIRE(dev != NULL);
	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &blob, &sz));
	CHECK_OK(doca_sync_event_export_to_remote_pci(ev, dev, &pci_blob, &pci_sz));
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, pci_blob, pci_sz, &rn), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(NULL, blob, sz, &rn), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, blob, sz, &rn));
	CHECK_OK(doca_sync_event_update_set(ev, 100));
	CHECK_OK(priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_GET, 0, &old));
	CHECK_EQ_U64(old, 100);
	CHECK_OK(priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_SET, 7, &old));
	CHECK_EQ_U64(old, 100);
	CHECK_OK(priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_ADD, 3, NULL));
	CHECK_OK(doca_sync_event_wait_eq(ev, 10, UINT64_MAX));
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK_EQ_U64(v, 10);
	CHECK_ERR(priv_doca_sync_event_remote_net_apply(rn, (enum sd_sync_event_op)9, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(priv_doca_sync_event_remote_net_apply(NULL, SD_SYNC_EVENT_OP_GET, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(priv_doca_sync_event_remote_net_apply((struct doca_sync_event_remote_net *)ev, SD_SYNC_EVENT_OP_GET, 0,
							NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_ERR(priv_doca_sync_event_remote_net_apply(rn, SD_SYNC_EVENT_OP_ADD, 1, NULL), DOCA_ERROR_IO_FAILED);
	CHECK_OK(doca_sync_event_remote_net_destroy(rn));
	CHECK_ERR(doca_sync_event_remote_net_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_dev_close(dev));
}

static void dpa_and_gpu_answer_not_supported(void)
{
	struct doca_dev *dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	struct doca_sync_event *ev = NULL;
	int fake = 0;
	doca_dpa_dev_sync_event_t h;
	doca_gpu_dev_sync_event_t *gh;

	REQUIRE(dev != NULL);
	REQUIRE(doca_sync_event_create(&ev) == DOCA_SUCCESS);
	CHECK_ERR(doca_sync_event_add_publisher_location_dpa(ev, (struct doca_dpa *)&fake), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_add_subscriber_location_gpu(ev, (struct doca_gpu *)&fake), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_add_publisher_location_gpu(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_get_dpa_handle(ev, (struct doca_dpa *)&fake, &h), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_get_gpu_handle(ev, (struct doca_gpu *)&fake, &gh), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_is_export_to_dpa_supported(doca_dev_as_devinfo(dev)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_is_export_to_gpu_supported(doca_dev_as_devinfo(dev)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_export_to_dpa_supported(doca_dev_as_devinfo(dev)),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_sync_event_cap_is_export_to_remote_pci_supported(doca_dev_as_devinfo(dev)));
	CHECK_OK(doca_sync_event_cap_is_create_from_export_supported(doca_dev_as_devinfo(dev)));
	CHECK_OK(doca_sync_event_cap_remote_net_is_create_from_export_supported(doca_dev_as_devinfo(dev)));
	CHECK_OK(doca_sync_event_cap_is_export_to_remote_net_supported(doca_dev_as_devinfo(dev)));
	CHECK_OK(doca_sync_event_cap_task_wait_eq_is_supported(doca_dev_as_devinfo(dev)));
	CHECK_ERR(doca_sync_event_cap_task_get_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	SD_RUN(cpu_updates_and_reads_apply_atomically);
	SD_RUN(waits_compare_the_masked_value);
	SD_RUN(a_wait_sleeps_until_another_thread_updates);
	SD_RUN(states_and_bad_arguments_are_refused);
	SD_RUN(the_value_lives_at_the_applications_address);
	SD_RUN(the_value_lives_in_a_doca_buf);
	SD_RUN(tasks_update_read_and_wait_through_progress);
	SD_RUN(task_rules_fail_the_task_with_the_rules_error);
	SD_RUN(a_stop_flushes_waiting_tasks);
	SD_RUN(a_sleeping_pe_wakes_when_a_wait_task_matches);
	SD_RUN(an_update_racing_the_first_arm_still_wakes_the_pe);
	SD_RUN(exports_need_a_started_event_with_a_remote_location);
	SD_RUN(remote_net_apply_gets_sets_and_adds);
	SD_RUN(dpa_and_gpu_answer_not_supported);
	return sd_test_done();
}
