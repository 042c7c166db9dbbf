/*
 * test_cuda_mmap_registration.c - doca_mmap_start on a GPU device: GPU
 * memory is never touched by the CPU (no populate, no mlock: on a real GPU
 * the pointer is not CPU memory at all), host memory is made resident and
 * pinned as on any device.  Runs against the stand-in driver (suite cuda)
 * and the real one (suite gpu, skipped without a GPU).
 */
#include <sys/mman.h>

#include <doca_mmap.h>

#include "gpu_util.h"
#include "log_capture.h"

static struct capture *log_sdk;

static long long locked_kib(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long long v = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmLck: %lld kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

static struct doca_mmap *gpu_mmap(struct doca_dev *dev, void *p, size_t len)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS)
		return NULL;
	if (doca_mmap_set_memrange(m, p, len) != DOCA_SUCCESS || doca_mmap_add_dev(m, dev) != DOCA_SUCCESS) {
		doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}

static void gpu_memory_is_registered_without_the_cpu_touching_it(void)
{
	size_t len = 1 << 20;
	struct doca_dev *dev = gpu_doca_dev();
	void *p = gpu_alloc(len);
	long long locked = locked_kib();
	struct doca_mmap *m;

	REQUIRE(dev != NULL && p != NULL && locked >= 0);
	m = gpu_mmap(dev, p, len);
	REQUIRE(m != NULL);
	capture_reset(log_sdk);
	CHECK_OK(doca_mmap_start(m));
	CHECK(capture_has(log_sdk, "GPU memory, which the CPU never touches"));
	CHECK(!capture_has(log_sdk, "made resident"));
	CHECK(locked_kib() == locked);
	CHECK_OK(doca_mmap_destroy(m));
	gpu_free(p);
	CHECK_OK(doca_dev_close(dev));
}

static void host_memory_on_a_gpu_device_is_resident_and_pinned(void)
{
	size_t len = 256 * 1024;
	struct doca_dev *dev = gpu_doca_dev();
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long long locked = locked_kib();
	unsigned char vec[64];
	struct doca_mmap *m;

	REQUIRE(dev != NULL && p != MAP_FAILED && locked >= 0);
	m = gpu_mmap(dev, p, len);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	REQUIRE(mincore(p, len, vec) == 0);
	for (size_t i = 0; i < len / 4096; i++)
		CHECK(vec[i] & 1u);
	CHECK(locked_kib() >= locked + (long long)(len / 1024));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK(locked_kib() == locked);
	munmap(p, len);
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	gpu_open();
	log_sdk = capture_new(true);
	if (log_sdk == NULL || doca_log_backend_set_sdk_level(log_sdk->backend, DOCA_LOG_LEVEL_DEBUG) != DOCA_SUCCESS)
		return 1;
	unsetenv("SOFTDOCA_MMAP_REGISTER");
	SD_RUN(gpu_memory_is_registered_without_the_cpu_touching_it);
	SD_RUN(host_memory_on_a_gpu_device_is_resident_and_pinned);
	return sd_test_done();
}
