/*
 * Opening and closing local devices : shared reference-counted handles, the devinfo of an
 * open device, close(NULL), and the close refused while dependents exist.
 */
#include <pthread.h>
#include <string.h>

#include <doca_dev.h>

#include "dev_test.h"
#include "sd_dev.h"

static void same_device_from_two_lists_gives_the_same_handle(void)
{
	struct doca_devinfo **a = NULL, **b = NULL;
	struct doca_dev *d1 = NULL, *d2 = NULL;
	uint32_t na = 0, nb = 0;

	REQUIRE(doca_devinfo_create_list(&a, &na) == DOCA_SUCCESS);
	REQUIRE(doca_devinfo_create_list(&b, &nb) == DOCA_SUCCESS);
	dev_log_start();
	CHECK_OK(doca_dev_open(dev_find(a, na, "03:00.0"), &d1));
	CHECK_OK(doca_dev_open(dev_find(b, nb, "0000:03:00.0"), &d2));
	CHECK(d1 != NULL && d1 == d2);
	CHECK(priv_doca_dev_is_valid(d1));
	CHECK_OK(doca_devinfo_destroy_list(a));
	CHECK_OK(doca_devinfo_destroy_list(b));
	CHECK_OK(doca_dev_close(d1));
	CHECK(priv_doca_dev_is_valid(d2)); /* one reference left */
	CHECK_OK(doca_dev_close(d2));
	CHECK(!priv_doca_dev_is_valid(d2));
	CHECK_LOG_QUIET();
}

static void different_devices_get_different_handles(void)
{
	struct doca_dev *dpu = dev_open_pci("03:00.0");
	struct doca_dev *host = dev_open_pci("b1:00.0");

	REQUIRE(dpu != NULL && host != NULL);
	CHECK(dpu != host);
	CHECK_OK(doca_dev_close(dpu));
	CHECK_OK(doca_dev_close(host));
}

static void devinfo_of_an_open_device_outlives_the_list(void)
{
	struct doca_dev *dev = dev_open_pci("b1:00.0"); /* list already destroyed */
	struct doca_devinfo *info;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char ib[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	REQUIRE(dev != NULL);
	info = doca_dev_as_devinfo(dev);
	REQUIRE(info != NULL);
	CHECK(doca_dev_as_devinfo(dev) == info);
	CHECK_OK(doca_devinfo_get_pci_addr_str(info, pci));
	CHECK(strcmp(pci, "0000:b1:00.0") == 0);
	CHECK_OK(doca_devinfo_get_ibdev_name(info, ib, sizeof(ib)));
	CHECK(strcmp(ib, "mlx5_1") == 0);
	/* it is not a list */
	dev_log_start();
	CHECK_ERR(doca_devinfo_destroy_list((struct doca_devinfo **)info), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_destroy_list");
	CHECK_OK(doca_dev_close(dev));
	/* after the last close the devinfo is no longer accepted */
	CHECK_ERR(doca_devinfo_get_ibdev_name(info, ib, sizeof(ib)), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ibdev_name");
}

static void devinfo_of_an_open_device_reopens_it(void)
{
	struct doca_dev *dev = dev_open_pci("03:00.0"), *again = NULL;

	REQUIRE(dev != NULL);
	CHECK_OK(doca_dev_open(doca_dev_as_devinfo(dev), &again));
	CHECK(again == dev);
	CHECK_OK(doca_dev_close(again));
	CHECK_OK(doca_dev_close(dev));
}

static void close_null_succeeds_silently(void)
{
	dev_log_start();
	CHECK_OK(doca_dev_close(NULL));
	CHECK_LOG_QUIET();
	CHECK(dev_log_len == 0); /* not even a debug record */
}

static void closing_too_often_is_refused(void)
{
	struct doca_dev *dev = dev_open_pci("03:00.0");

	REQUIRE(dev != NULL);
	CHECK_OK(doca_dev_close(dev));
	dev_log_start();
	CHECK_ERR(doca_dev_close(dev), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_close");
}

static void close_rejects_a_foreign_pointer(void)
{
	uint64_t fake[16] = { 0 };

	dev_log_start();
	CHECK_ERR(doca_dev_close((struct doca_dev *)fake), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_close");
	CHECK(!priv_doca_dev_is_valid((struct doca_dev *)fake));
	CHECK(!priv_doca_dev_is_valid(NULL));
}

static void open_rejects_bad_arguments(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = (struct doca_dev *)0x1;
	uint64_t fake[8] = { 0 };
	uint32_t n = 0;

	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS);
	dev_log_start();
	CHECK_ERR(doca_dev_open(NULL, &dev), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_open");
	CHECK_ERR(doca_dev_open(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_open");
	CHECK_ERR(doca_dev_open((struct doca_devinfo *)fake, &dev), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_open");
	CHECK(dev == (struct doca_dev *)0x1); /* written only on success */
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void as_devinfo_of_a_bad_handle_is_null(void)
{
	struct doca_dev *dev = dev_open_pci("03:00.0");

	REQUIRE(dev != NULL);
	CHECK_OK(doca_dev_close(dev));
	dev_log_start();
	CHECK(doca_dev_as_devinfo(NULL) == NULL);
	CHECK_LOG_ONE_ERR("doca_dev_as_devinfo");
	CHECK(doca_dev_as_devinfo(dev) == NULL);
	CHECK_LOG_ONE_ERR("doca_dev_as_devinfo");
}

static void last_close_with_a_dependent_is_in_use(void)
{
	struct doca_dev *dev = dev_open_pci("03:00.0");

	REQUIRE(dev != NULL);
	priv_doca_dev_dep_get(dev);
	dev_log_start();
	CHECK_ERR(doca_dev_close(dev), DOCA_ERROR_IN_USE);
	CHECK_LOG_ONE_ERR("doca_dev_close");
	/* nothing changed: the handle is still open and usable */
	CHECK(priv_doca_dev_is_valid(dev));
	CHECK(doca_dev_as_devinfo(dev) != NULL);
	priv_doca_dev_dep_put(dev);
	CHECK_OK(doca_dev_close(dev));
	CHECK(!priv_doca_dev_is_valid(dev));
	CHECK_LOG_QUIET();
}

static void close_that_keeps_a_reference_succeeds_with_dependents(void)
{
	struct doca_dev *a = dev_open_pci("03:00.0");
	struct doca_dev *b = dev_open_pci("03:00.0");

	REQUIRE(a != NULL && a == b);
	priv_doca_dev_dep_get(a);
	priv_doca_dev_dep_get(a);
	dev_log_start();
	CHECK_OK(doca_dev_close(a)); /* DMA Copy closes one of two handles */
	CHECK_LOG_QUIET();
	CHECK_ERR(doca_dev_close(b), DOCA_ERROR_IN_USE);
	CHECK_LOG_ONE_ERR("doca_dev_close");
	priv_doca_dev_dep_put(b);
	CHECK_ERR(doca_dev_close(b), DOCA_ERROR_IN_USE); /* one dependent left */
	CHECK_LOG_ONE_ERR("doca_dev_close");
	priv_doca_dev_dep_put(b);
	CHECK_OK(doca_dev_close(b));
}

static void dependency_calls_ignore_bad_handles(void)
{
	struct doca_dev *dev = dev_open_pci("b1:00.0");

	REQUIRE(dev != NULL);
	priv_doca_dev_dep_put(dev); /* no dependent: must not wrap around */
	CHECK_OK(doca_dev_close(dev));
	priv_doca_dev_dep_get(dev); /* closed: ignored */
	priv_doca_dev_dep_get(NULL);
	dev = dev_open_pci("b1:00.0");
	REQUIRE(dev != NULL);
	CHECK_OK(doca_dev_close(dev)); /* no stale dependent was recorded */
}

static void accelerate_reclaim_is_not_supported_by_default(void)
{
	struct doca_dev *dev = dev_open_pci("03:00.0");

	REQUIRE(dev != NULL);
	dev_log_start();
	CHECK_ERR(doca_dev_accelerate_resource_reclaim(dev), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_ONE_ERR("doca_dev_accelerate_resource_reclaim");
	CHECK_ERR(doca_dev_accelerate_resource_reclaim(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_accelerate_resource_reclaim");
	CHECK_OK(doca_dev_close(dev));
}

#define THREADS 8
#define ROUNDS 2000

static struct doca_devinfo **shared_list;
static struct doca_dev *seen[THREADS];
static int thread_errors;

static void *open_close_loop(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < ROUNDS; i++) {
		struct doca_dev *dev = NULL;
		if (doca_dev_open(shared_list[0], &dev) != DOCA_SUCCESS) {
			__atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (seen[id] != NULL && seen[id] != dev)
			__atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
		seen[id] = dev;
		if (doca_dev_close(dev) != DOCA_SUCCESS)
			__atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void concurrent_open_close_keeps_the_count_exact(void)
{
	pthread_t t[THREADS];
	struct doca_dev *held = NULL;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_create_list(&shared_list, &n) == DOCA_SUCCESS);
	/* one reference held throughout, so every thread sees the same handle */
	REQUIRE(doca_dev_open(shared_list[0], &held) == DOCA_SUCCESS);
	for (long i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, open_close_loop, (void *)i) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(thread_errors == 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(seen[i] == held);
	CHECK_OK(doca_dev_close(held));
	CHECK(!priv_doca_dev_is_valid(held));
	dev_log_start();
	CHECK_ERR(doca_dev_close(held), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_close");
	CHECK_OK(doca_devinfo_destroy_list(shared_list));
}

int main(void)
{
	SD_RUN(same_device_from_two_lists_gives_the_same_handle);
	SD_RUN(different_devices_get_different_handles);
	SD_RUN(devinfo_of_an_open_device_outlives_the_list);
	SD_RUN(devinfo_of_an_open_device_reopens_it);
	SD_RUN(close_null_succeeds_silently);
	SD_RUN(closing_too_often_is_refused);
	SD_RUN(close_rejects_a_foreign_pointer);
	SD_RUN(open_rejects_bad_arguments);
	SD_RUN(as_devinfo_of_a_bad_handle_is_null);
	SD_RUN(last_close_with_a_dependent_is_in_use);
	SD_RUN(close_that_keeps_a_reference_succeeds_with_dependents);
	SD_RUN(dependency_calls_ignore_bad_handles);
	SD_RUN(accelerate_reclaim_is_not_supported_by_default);
	SD_RUN(concurrent_open_close_keeps_the_count_exact);
	return sd_test_done();
}
