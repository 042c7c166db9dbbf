/*
 * gpu_util.h - what the cuda engine's tests need besides DOCA: GPU memory.
 *
 * The tests open the same driver library as softdoca (SOFTDOCA_CUDA_LIB,
 * else libcuda.so.1) to allocate GPU memory and to read it back, exactly as
 * a program would with cudaMalloc / cudaMemcpy.  Against the stand-in
 * driver (tests/cuda/fakecuda) they can also read its bookkeeping.
 *
 * gpu_open() skips the whole program (exit 77, reason printed) when the
 * machine's own driver (libcuda.so.1) or its GPU is absent: a skipped GPU
 * test never counts as passed.  A driver named by SOFTDOCA_CUDA_LIB is one
 * the test run provides (the stand-in of the `cuda` suite): failing to use
 * it is a broken build, not a missing capability, so the program fails.
 */
#ifndef GPU_UTIL_H
#define GPU_UTIL_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_dma.h>

#include "cuda_api.h"
#include "fakecuda/fakecuda.h"
#include "sd_test.h"

struct gpu_env {
	struct sd_cuda_api api;
	sd_cu_ctx ctx;
	fakecuda_stats_fn stats; /* NULL on a real driver */
	bool fake;
};

static struct gpu_env gpu;

static inline const char *gpu_lib_name(void)
{
	const char *name = getenv("SOFTDOCA_CUDA_LIB");

	return name != NULL && name[0] != '\0' ? name : "libcuda.so.1";
}

/* The driver is missing or unusable: skip for the machine's, fail for ours. */
static inline void gpu_unavailable(const char *why)
{
	const char *name = getenv("SOFTDOCA_CUDA_LIB");

	if (name == NULL || name[0] == '\0')
		sd_test_skip(why);
	fprintf(stderr, "FAIL: the driver this run provides (SOFTDOCA_CUDA_LIB=%s) is unusable: %s\n", name, why);
	exit(1);
}

/* Load the driver, make GPU 0's primary context current, or give up (above). */
static inline void gpu_open(void)
{
	char why[256];
	void *lib = dlopen(gpu_lib_name(), RTLD_NOW | RTLD_LOCAL);
	int count = 0;

	if (lib == NULL) {
		snprintf(why, sizeof(why), "no CUDA driver on this machine (%s)", dlerror());
		gpu_unavailable(why);
	}
#define GPU_RESOLVE(field, symbol, ret, params)                                                    \
	*(void **)&gpu.api.field = dlsym(lib, symbol);                                             \
	if (gpu.api.field == NULL)                                                                 \
		gpu_unavailable("the CUDA driver lacks " symbol);
	SD_CUDA_API_FUNCS(GPU_RESOLVE)
#undef GPU_RESOLVE
	if (gpu.api.init(0) != SD_CU_SUCCESS || gpu.api.device_count(&count) != SD_CU_SUCCESS || count == 0)
		gpu_unavailable("the CUDA driver reports no GPU");
	if (gpu.api.primary_ctx_retain(&gpu.ctx, 0) != SD_CU_SUCCESS || gpu.api.ctx_push(gpu.ctx) != SD_CU_SUCCESS)
		gpu_unavailable("cannot make GPU 0's context current");
	*(void **)&gpu.stats = dlsym(lib, "fakecuda_stats");
	gpu.fake = gpu.stats != NULL;
	printf("driver: %s (%s)\n", gpu_lib_name(), gpu.fake ? "softdoca's stand-in driver" : "real CUDA driver");
}

static inline void *gpu_alloc(size_t len)
{
	sd_cu_ptr p = 0;

	return gpu.api.mem_alloc(&p, len) == SD_CU_SUCCESS ? (void *)(uintptr_t)p : NULL;
}

static inline void gpu_free(void *p)
{
	(void)gpu.api.mem_free((sd_cu_ptr)(uintptr_t)p);
}

/*
 * Copy between any two addresses (host or GPU), landed when this returns.
 * cuMemcpy from pageable host memory into the GPU may return once the bytes
 * are staged, before they reach GPU memory; softdoca's copies run on
 * non-blocking streams, which do not wait for the legacy stream, so a task
 * submitted next could read the GPU memory before the write arrived.  A
 * CUDA program orders such work itself: here, by synchronizing the legacy
 * stream (the stand-in driver's cuMemcpy is complete on return and has no
 * legacy stream).
 */
static inline bool gpu_copy(void *dst, const void *src, size_t len)
{
	if (gpu.api.memcpy_sync((sd_cu_ptr)(uintptr_t)dst, (sd_cu_ptr)(uintptr_t)src, len) != SD_CU_SUCCESS)
		return false;
	return gpu.fake || gpu.api.stream_synchronize(NULL) == SD_CU_SUCCESS;
}

static inline struct fakecuda_stats gpu_stats(void)
{
	struct fakecuda_stats s;

	memset(&s, 0, sizeof(s));
	if (gpu.stats != NULL)
		gpu.stats(&s);
	return s;
}

/* The GPU device softdoca lists (ibdev gpu0), opened, or NULL. */
static inline struct doca_dev *gpu_doca_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) == DOCA_SUCCESS &&
		    strcmp(name, "gpu0") == 0)
			(void)doca_dev_open(list[i], &dev);
	doca_devinfo_destroy_list(list);
	return dev;
}

#endif /* GPU_UTIL_H */
