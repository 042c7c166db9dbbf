/*
 * cuda_bench.c - DOCA DMA on softdoca's cuda engine against raw
 * cuMemcpyAsync, side by side in one run.
 *
 * For each size (default 1, 4, 16, 64 MiB) and each direction (host->GPU,
 * GPU->host, both at once) the bench measures:
 *   raw       cuMemcpyAsync on one non-blocking stream per direction, with
 *             --depth copies in flight per stream, an event recorded behind
 *             each copy and polled with cuEventQuery;
 *   softdoca  DOCA DMA memcpy tasks on the device gpu0 (engine cuda), the
 *             same depth per direction, each completion callback emptying
 *             its destination and resubmitting, doca_pe_progress polled.
 * Both copy the very same bytes: the host regions are ordinary pageable
 * memory mapped through doca_mmaps that list gpu0 (softdoca pins them at
 * doca_mmap_start, and the raw copies use those pinned pages), the GPU
 * regions come from cuMemAlloc and serve both sides too.  Raw and softdoca
 * runs alternate (raw, softdoca, raw, softdoca, ...) so drift hits both;
 * each run lasts --seconds and the best of --repeat counts.
 *
 * The driver is opened with dlopen under softdoca's rule (SOFTDOCA_CUDA_LIB,
 * else libcuda.so.1), so both sides use the same driver; against the
 * stand-in driver (tests/cuda/fakecuda) the numbers mean nothing, and the
 * output says so.
 *
 * Exit status: 0 when every copy succeeded (and, with --verify, matched),
 * whatever the numbers; 1 on any DOCA or driver failure; 2 on bad
 * arguments; 77 when there is no CUDA driver or no GPU.
 */
#include <dlfcn.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "cuda_api.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)
#define GIB (1024 * MIB)

#define MAX_SIZES 16
#define MAX_DEPTH 256
#define MAX_SIZE GIB

/* Issue 7's targets. */
#define TARGET_RATIO 0.95
#define TARGET_RATIO_MIN_SIZE MIB
#define TARGET_BOTH_GBPS 95.0

#define EXIT_SKIP 77

static const size_t default_sizes[] = { 1 * MIB, 4 * MIB, 16 * MIB, 64 * MIB };
static const size_t quick_sizes[] = { 4 * KIB, 1 * MIB };

struct options {
	size_t sizes[MAX_SIZES];
	unsigned nsizes;
	unsigned depth;	   /* copies in flight per direction */
	double seconds;	   /* one run */
	int repeat;	   /* runs per point and side; the best counts */
	bool csv;
	bool verify;
	bool pinned_host; /* host regions from cuMemHostAlloc, not pageable memory */
};

/* ---- the driver -------------------------------------------------------- */

typedef sd_cu_result (*error_name_fn)(sd_cu_result err, const char **name);
typedef sd_cu_result (*host_alloc_fn)(void **p, size_t len, unsigned int flags);
typedef sd_cu_result (*free_host_fn)(void *p);

struct driver {
	struct sd_cuda_api api;
	error_name_fn error_name; /* cuGetErrorName; absent from the stand-in */
	host_alloc_fn host_alloc; /* cuMemHostAlloc, for --pinned-host only */
	free_host_fn free_host;	  /* cuMemFreeHost */
	const char *lib;
	bool fake;		  /* the stand-in driver (exports fakecuda_stats) */
	int version;
	sd_cu_device dev;
	sd_cu_ctx ctx;
	char gpu_name[128];
	char pci[32];
	int copy_engines;
};

static struct driver drv;

/* A name for a CUresult, even where the driver cannot say. */
static const char *cu_name(sd_cu_result res)
{
	static const struct {
		sd_cu_result res;
		const char *name;
	} known[] = {
		{ SD_CU_SUCCESS, "CUDA_SUCCESS" },
		{ SD_CU_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE" },
		{ SD_CU_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY" },
		{ SD_CU_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED" },
		{ SD_CU_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE" },
		{ SD_CU_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE" },
		{ SD_CU_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND" },
		{ SD_CU_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY" },
		{ SD_CU_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS" },
		{ SD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED" },
		{ SD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED" },
	};
	static char other[48];
	const char *name = NULL;

	if (drv.error_name != NULL && drv.error_name(res, &name) == SD_CU_SUCCESS && name != NULL)
		return name;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].res == res)
			return known[i].name;
	snprintf(other, sizeof(other), "CUDA error %d", res);
	return other;
}

/* Any driver failure ends the bench: name the call and the error. */
static void cu_check(sd_cu_result res, const char *call)
{
	if (res == SD_CU_SUCCESS)
		return;
	fprintf(stderr, "cuda_bench: %s failed: %s\n", call, cu_name(res));
	exit(1);
}

static void doca_check(doca_error_t err, const char *call)
{
	if (err == DOCA_SUCCESS)
		return;
	fprintf(stderr, "cuda_bench: %s failed: %s (%s)\n", call, doca_error_get_name(err), doca_error_get_descr(err));
	exit(1);
}

static void skip(const char *why, const char *detail)
{
	printf("cuda_bench: skipped: %s%s%s\n", why, detail ? ": " : "", detail ? detail : "");
	exit(EXIT_SKIP);
}

/* softdoca's rule for the library, so both sides talk to the same driver. */
static const char *driver_lib_name(void)
{
	const char *name = getenv("SOFTDOCA_CUDA_LIB");

	return name != NULL && name[0] != '\0' ? name : "libcuda.so.1";
}

/* Load the driver and make GPU 0's primary context current, or skip. */
static void driver_open(void)
{
	void *lib;
	int count = 0;
	sd_cu_result res;

	drv.lib = driver_lib_name();
	if (strcmp(drv.lib, "none") == 0)
		skip("CUDA is disabled (SOFTDOCA_CUDA_LIB=none)", NULL);
	lib = dlopen(drv.lib, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL)
		skip("no CUDA driver on this machine", dlerror());
#define RESOLVE(field, symbol, ret, params)                                                        \
	*(void **)&drv.api.field = dlsym(lib, symbol);                                             \
	if (drv.api.field == NULL)                                                                 \
		skip("the CUDA driver lacks " symbol, drv.lib);
	SD_CUDA_API_FUNCS(RESOLVE)
#undef RESOLVE
	*(void **)&drv.error_name = dlsym(lib, "cuGetErrorName");
	*(void **)&drv.host_alloc = dlsym(lib, "cuMemHostAlloc");
	*(void **)&drv.free_host = dlsym(lib, "cuMemFreeHost");
	drv.fake = dlsym(lib, "fakecuda_stats") != NULL;
	res = drv.api.init(0);
	if (res != SD_CU_SUCCESS) {
		fprintf(stderr, "cuda_bench: cuInit failed: %s\n", cu_name(res));
		skip("the CUDA driver did not start (no GPU, or a driver/library mismatch)", drv.lib);
	}
	if (drv.api.device_count(&count) != SD_CU_SUCCESS || count == 0)
		skip("the CUDA driver reports no GPU", drv.lib);
	(void)drv.api.driver_version(&drv.version);
}

/* "dddd:bb:dd.f" in any case and domain width, as four numbers. */
static bool pci_equal(const char *a, const char *b)
{
	unsigned da, ba, sa, fa, db, bb, sb, fb;

	return sscanf(a, "%x:%x:%x.%x", &da, &ba, &sa, &fa) == 4 && sscanf(b, "%x:%x:%x.%x", &db, &bb, &sb, &fb) == 4 &&
	       da == db && ba == bb && sa == sb && fa == fb;
}

/* The driver's ordinal of the GPU at `pci` (softdoca's gpu0), its context made current. */
static void driver_use_gpu(const char *pci)
{
	int count = 0;
	char bus_id[32];

	cu_check(drv.api.device_count(&count), "cuDeviceGetCount");
	drv.dev = -1;
	for (int i = 0; i < count && drv.dev < 0; i++) {
		sd_cu_device d;

		cu_check(drv.api.device_get(&d, i), "cuDeviceGet");
		cu_check(drv.api.device_pci_bus_id(bus_id, (int)sizeof(bus_id), d), "cuDeviceGetPCIBusId");
		if (pci_equal(bus_id, pci)) {
			drv.dev = d;
			snprintf(drv.pci, sizeof(drv.pci), "%s", bus_id);
		}
	}
	if (drv.dev < 0) {
		fprintf(stderr, "cuda_bench: softdoca's gpu0 (%s) is no GPU the driver reports\n", pci);
		exit(1);
	}
	cu_check(drv.api.device_name(drv.gpu_name, (int)sizeof(drv.gpu_name), drv.dev), "cuDeviceGetName");
	/* Informative only: a driver that cannot say is no reason to stop. */
	if (drv.api.device_attribute(&drv.copy_engines, SD_CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, drv.dev) !=
	    SD_CU_SUCCESS)
		drv.copy_engines = -1;
	cu_check(drv.api.primary_ctx_retain(&drv.ctx, drv.dev), "cuDevicePrimaryCtxRetain");
	cu_check(drv.api.ctx_push(drv.ctx), "cuCtxPushCurrent");
}

static void driver_close(void)
{
	sd_cu_ctx popped;

	cu_check(drv.api.ctx_pop(&popped), "cuCtxPopCurrent");
	cu_check(drv.api.primary_ctx_release(drv.dev), "cuDevicePrimaryCtxRelease");
}

/* ---- memory ------------------------------------------------------------ */

/*
 * Four regions of depth x largest size: host A -> GPU A is the host->GPU
 * direction, GPU B -> host B the GPU->host one; slot i of a direction is
 * the i-th size-long piece of its two regions.
 */
enum { HOST_A, GPU_A, GPU_B, HOST_B, NUM_REGIONS };

struct region {
	uint8_t *addr;
	size_t len;
	bool gpu;
	bool from_driver;  /* cuMemHostAlloc memory (--pinned-host) */
	bool bench_pinned; /* pinned here because softdoca did not (reported) */
	struct doca_mmap *mmap;
};

/* A direction: its two regions and the stream index it uses. */
enum { LANE_H2D, LANE_D2H, NUM_LANES };

static const struct lane_def {
	const char *name;
	int src, dst;
} lanes[NUM_LANES] = {
	[LANE_H2D] = { "host->GPU", HOST_A, GPU_A },
	[LANE_D2H] = { "GPU->host", GPU_B, HOST_B },
};

/* A measured point: one lane or both. */
enum { POINT_H2D, POINT_D2H, POINT_BOTH, NUM_POINTS };

static const char *const point_names[NUM_POINTS] = { "host->GPU", "GPU->host", "both" };

static bool point_uses(int point, int lane)
{
	return point == POINT_BOTH || point == lane;
}

static struct region regions[NUM_REGIONS];
static uint8_t *scratch[2]; /* largest size each: staging for --verify */

/* Deterministic bytes, distinct per seed. */
static void fill_pattern(uint8_t *p, size_t len, uint64_t seed)
{
	uint64_t *w = (uint64_t *)p;

	for (size_t i = 0; i < len / 8; i++)
		w[i] = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
	for (size_t i = len / 8 * 8; i < len; i++)
		p[i] = (uint8_t)(i ^ seed);
}

/* Host memory of `len` bytes: pageable (softdoca pins it), or the driver's pinned memory. */
static uint8_t *host_memory(size_t len, bool from_driver)
{
	void *p;

	if (from_driver) {
		if (drv.host_alloc == NULL || drv.free_host == NULL) {
			fprintf(stderr, "cuda_bench: --pinned-host: %s has no cuMemHostAlloc/cuMemFreeHost\n", drv.lib);
			exit(1);
		}
		cu_check(drv.host_alloc(&p, len, SD_CU_MEMHOSTREGISTER_PORTABLE), "cuMemHostAlloc");
		return p;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "cuda_bench: cannot map %zu MiB of host memory\n", len / MIB);
		exit(1);
	}
	return p;
}

static void regions_alloc(size_t len, size_t largest, bool pinned_host)
{
	for (int r = 0; r < NUM_REGIONS; r++) {
		struct region *reg = &regions[r];

		reg->len = len;
		reg->gpu = r == GPU_A || r == GPU_B;
		if (reg->gpu) {
			sd_cu_ptr p = 0;

			cu_check(drv.api.mem_alloc(&p, len), "cuMemAlloc");
			reg->addr = (uint8_t *)(uintptr_t)p;
			continue;
		}
		/* Every page touched now, so no run pays for first-touch faults. */
		reg->from_driver = pinned_host;
		reg->addr = host_memory(len, pinned_host);
		fill_pattern(reg->addr, len, (uint64_t)r + 1);
	}
	/* GPU B is the GPU->host source: give it host B's bytes. */
	cu_check(drv.api.memcpy_sync((sd_cu_ptr)(uintptr_t)regions[GPU_B].addr, (sd_cu_ptr)(uintptr_t)regions[HOST_B].addr,
				     len),
		 "cuMemcpy (filling GPU memory)");
	for (int i = 0; i < 2; i++) {
		scratch[i] = malloc(largest);
		if (scratch[i] == NULL) {
			fprintf(stderr, "cuda_bench: out of memory\n");
			exit(1);
		}
	}
}

static void regions_free(void)
{
	for (int r = 0; r < NUM_REGIONS; r++) {
		struct region *reg = &regions[r];

		if (reg->bench_pinned)
			cu_check(drv.api.host_unregister(reg->addr), "cuMemHostUnregister");
		if (reg->gpu)
			cu_check(drv.api.mem_free((sd_cu_ptr)(uintptr_t)reg->addr), "cuMemFree");
		else if (reg->from_driver)
			cu_check(drv.free_host(reg->addr), "cuMemFreeHost");
		else
			(void)munmap(reg->addr, reg->len);
	}
	free(scratch[0]);
	free(scratch[1]);
}

/* Does the driver know `addr` as pinned host memory? */
static bool driver_knows_pinned(const void *addr)
{
	unsigned type = 0;

	return drv.api.pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (sd_cu_ptr)(uintptr_t)addr) ==
		       SD_CU_SUCCESS &&
	       type == SD_CU_MEMORYTYPE_HOST;
}

/* Copy `len` bytes at `off` of a region into host memory `out`. */
static void region_read(const struct region *reg, size_t off, uint8_t *out, size_t len)
{
	if (reg->gpu)
		cu_check(drv.api.memcpy_sync((sd_cu_ptr)(uintptr_t)out, (sd_cu_ptr)(uintptr_t)(reg->addr + off), len),
			 "cuMemcpy (reading back)");
	else
		memcpy(out, reg->addr + off, len);
}

/* Zero `len` bytes at `off`, so that a stale destination cannot pass --verify. */
static void region_clear(const struct region *reg, size_t off, size_t len)
{
	if (!reg->gpu) {
		memset(reg->addr + off, 0, len);
		return;
	}
	memset(scratch[0], 0, len);
	cu_check(drv.api.memcpy_sync((sd_cu_ptr)(uintptr_t)(reg->addr + off), (sd_cu_ptr)(uintptr_t)scratch[0], len),
		 "cuMemcpy (clearing)");
}

/* Slot 0 of `lane`: the destination holds the source's bytes. */
static bool slot0_matches(int lane, size_t size)
{
	region_read(&regions[lanes[lane].src], 0, scratch[0], size);
	region_read(&regions[lanes[lane].dst], 0, scratch[1], size);
	return memcmp(scratch[0], scratch[1], size) == 0;
}

/* ---- timing ------------------------------------------------------------ */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- raw side: cuMemcpyAsync -------------------------------------------- */

struct raw_lane {
	sd_cu_stream stream;
	sd_cu_event *events; /* one per slot */
	unsigned head;	     /* oldest copy in flight: streams finish in order */
	unsigned in_flight;
	uint64_t done;
};

static struct raw_lane raw[NUM_LANES];

static void raw_open(unsigned depth)
{
	for (int l = 0; l < NUM_LANES; l++) {
		raw[l].events = calloc(depth, sizeof(*raw[l].events));
		if (raw[l].events == NULL) {
			fprintf(stderr, "cuda_bench: out of memory\n");
			exit(1);
		}
		cu_check(drv.api.stream_create(&raw[l].stream, SD_CU_STREAM_NON_BLOCKING), "cuStreamCreate");
		for (unsigned i = 0; i < depth; i++)
			cu_check(drv.api.event_create(&raw[l].events[i], SD_CU_EVENT_DISABLE_TIMING), "cuEventCreate");
	}
}

static void raw_close(unsigned depth)
{
	for (int l = 0; l < NUM_LANES; l++) {
		cu_check(drv.api.stream_synchronize(raw[l].stream), "cuStreamSynchronize");
		for (unsigned i = 0; i < depth; i++)
			cu_check(drv.api.event_destroy(raw[l].events[i]), "cuEventDestroy");
		cu_check(drv.api.stream_destroy(raw[l].stream), "cuStreamDestroy");
		free(raw[l].events);
	}
}

static void raw_submit(int lane, unsigned slot, size_t size)
{
	const uint8_t *src = regions[lanes[lane].src].addr + (size_t)slot * size;
	uint8_t *dst = regions[lanes[lane].dst].addr + (size_t)slot * size;

	cu_check(drv.api.memcpy_async((sd_cu_ptr)(uintptr_t)dst, (sd_cu_ptr)(uintptr_t)src, size, raw[lane].stream),
		 "cuMemcpyAsync");
	cu_check(drv.api.event_record(raw[lane].events[slot], raw[lane].stream), "cuEventRecord");
}

/* One raw run of `point`; bytes per second over all its lanes. */
static double raw_run(int point, size_t size, const struct options *opt)
{
	double start, deadline;
	unsigned busy = 0;
	bool stop = false;
	uint64_t copies = 0;

	for (int l = 0; l < NUM_LANES; l++)
		raw[l].head = raw[l].in_flight = 0, raw[l].done = 0;
	start = now_s();
	deadline = start + opt->seconds;
	for (int l = 0; l < NUM_LANES; l++)
		for (unsigned i = 0; point_uses(point, l) && i < opt->depth; i++, busy++, raw[l].in_flight++)
			raw_submit(l, i, size);
	while (busy != 0) {
		if (!stop && now_s() >= deadline)
			stop = true;
		for (int l = 0; l < NUM_LANES; l++) {
			struct raw_lane *rl = &raw[l];
			sd_cu_result res;

			if (rl->in_flight == 0)
				continue;
			res = drv.api.event_query(rl->events[rl->head]);
			if (res == SD_CU_ERROR_NOT_READY)
				continue;
			cu_check(res, "cuEventQuery");
			rl->done++;
			if (stop) {
				rl->in_flight--;
				busy--;
			} else {
				raw_submit(l, rl->head, size);
			}
			rl->head = (rl->head + 1) % opt->depth;
		}
	}
	for (int l = 0; l < NUM_LANES; l++)
		copies += raw[l].done;
	return (double)copies * (double)size / (now_s() - start);
}

/* ---- softdoca side: DOCA DMA memcpy tasks on gpu0 ------------------------ */

struct run_state {
	bool stop;
	unsigned busy;
	uint64_t done;
	uint64_t failed;
	doca_error_t first_error;
	const char *first_call;
};

struct task_slot {
	struct run_state *run;
	struct doca_dma_task_memcpy *task;
	struct doca_buf *src;
	struct doca_buf *dst;
};

struct doca_side {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	struct task_slot *slots; /* depth per lane */
	unsigned nslots;
};

static struct doca_side ds;

static void run_failed(struct run_state *run, doca_error_t err, const char *call)
{
	if (run->failed++ == 0) {
		run->first_error = err;
		run->first_call = call;
	}
	run->busy--;
}

static void task_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct task_slot *slot = task_ud.ptr;
	struct run_state *run = slot->run;
	doca_error_t err = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)ctx_ud;
	if (err != DOCA_SUCCESS) {
		run_failed(run, err, "a DMA memcpy task");
		return;
	}
	run->done++;
	if (run->stop || run->failed != 0) {
		run->busy--;
		return;
	}
	/* DMA appends after the destination's data: empty it before reuse. */
	err = doca_buf_reset_data_len(slot->dst);
	if (err != DOCA_SUCCESS) {
		run_failed(run, err, "doca_buf_reset_data_len");
		return;
	}
	err = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	if (err != DOCA_SUCCESS)
		run_failed(run, err, "doca_task_submit (resubmission)");
}

/* softdoca's GPU device: the one named gpu0; its PCI address in `pci`. */
static struct doca_dev *open_gpu0(char pci[DOCA_DEVINFO_PCI_ADDR_SIZE])
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t n = 0;

	doca_check(doca_devinfo_create_list(&list, &n), "doca_devinfo_create_list");
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) != DOCA_SUCCESS || strcmp(name, "gpu0") != 0)
			continue;
		doca_check(doca_devinfo_get_pci_addr_str(list[i], pci), "doca_devinfo_get_pci_addr_str");
		doca_check(doca_dev_open(list[i], &dev), "doca_dev_open(gpu0)");
	}
	doca_check(doca_devinfo_destroy_list(list), "doca_devinfo_destroy_list");
	if (dev == NULL) {
		/* The driver reports a GPU, so softdoca must list it. */
		fprintf(stderr, "cuda_bench: softdoca lists no gpu0 device although %s reports a GPU\n", drv.lib);
		exit(1);
	}
	return dev;
}

static void map_region(struct region *reg)
{
	doca_check(doca_mmap_create(&reg->mmap), "doca_mmap_create");
	doca_check(doca_mmap_set_memrange(reg->mmap, reg->addr, reg->len), "doca_mmap_set_memrange");
	doca_check(doca_mmap_set_permissions(reg->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), "doca_mmap_set_permissions");
	doca_check(doca_mmap_add_dev(reg->mmap, ds.dev), "doca_mmap_add_dev");
	doca_check(doca_mmap_start(reg->mmap), "doca_mmap_start");
}

/*
 * Map every region for gpu0; softdoca pins the host ones.  Returns whether
 * it did: the raw copies need pinned pages, so the bench pins any that
 * softdoca left pageable (and says so).
 */
static bool map_regions(void)
{
	bool softdoca_pinned = true;

	for (int r = 0; r < NUM_REGIONS; r++) {
		struct region *reg = &regions[r];

		map_region(reg);
		if (reg->gpu || reg->from_driver || driver_knows_pinned(reg->addr))
			continue;
		softdoca_pinned = false;
		cu_check(drv.api.host_register(reg->addr, reg->len, SD_CU_MEMHOSTREGISTER_PORTABLE),
			 "cuMemHostRegister");
		reg->bench_pinned = true;
	}
	return softdoca_pinned;
}

static void doca_open(unsigned depth)
{
	struct doca_ctx *ctx;

	ds.nslots = NUM_LANES * depth;
	ds.slots = calloc(ds.nslots, sizeof(*ds.slots));
	if (ds.slots == NULL) {
		fprintf(stderr, "cuda_bench: out of memory\n");
		exit(1);
	}
	doca_check(doca_buf_inventory_create(2 * ds.nslots, &ds.inv), "doca_buf_inventory_create");
	doca_check(doca_buf_inventory_start(ds.inv), "doca_buf_inventory_start");
	doca_check(doca_pe_create(&ds.pe), "doca_pe_create");
	doca_check(doca_dma_create(ds.dev, &ds.dma), "doca_dma_create");
	ctx = doca_dma_as_ctx(ds.dma);
	doca_check(doca_dma_task_memcpy_set_conf(ds.dma, task_done, task_done, ds.nslots),
		   "doca_dma_task_memcpy_set_conf");
	doca_check(doca_pe_connect_ctx(ds.pe, ctx), "doca_pe_connect_ctx");
	doca_check(doca_ctx_start(ctx), "doca_ctx_start");
}

static void doca_close(void)
{
	struct doca_ctx *ctx = doca_dma_as_ctx(ds.dma);
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;

	doca_check(doca_ctx_stop(ctx), "doca_ctx_stop");
	while (doca_ctx_get_state(ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
		(void)doca_pe_progress(ds.pe);
	doca_check(doca_dma_destroy(ds.dma), "doca_dma_destroy");
	doca_check(doca_pe_destroy(ds.pe), "doca_pe_destroy");
	for (int r = 0; r < NUM_REGIONS; r++) {
		doca_check(doca_mmap_stop(regions[r].mmap), "doca_mmap_stop");
		doca_check(doca_mmap_destroy(regions[r].mmap), "doca_mmap_destroy");
	}
	doca_check(doca_buf_inventory_destroy(ds.inv), "doca_buf_inventory_destroy");
	doca_check(doca_dev_close(ds.dev), "doca_dev_close");
	free(ds.slots);
}

/* Tasks and buffers of `point` at `size`; slots of lane l are [l*depth, (l+1)*depth). */
static void doca_prepare(int point, size_t size, unsigned depth, struct run_state *run)
{
	for (int l = 0; l < NUM_LANES; l++) {
		const struct region *src = &regions[lanes[l].src], *dst = &regions[lanes[l].dst];

		for (unsigned i = 0; point_uses(point, l) && i < depth; i++) {
			struct task_slot *slot = &ds.slots[l * depth + i];
			union doca_data ud = { .ptr = slot };
			size_t off = (size_t)i * size;

			slot->run = run;
			doca_check(doca_buf_inventory_buf_get_by_data(ds.inv, src->mmap, src->addr + off, size, &slot->src),
				   "doca_buf_inventory_buf_get_by_data");
			doca_check(doca_buf_inventory_buf_get_by_addr(ds.inv, dst->mmap, dst->addr + off, size, &slot->dst),
				   "doca_buf_inventory_buf_get_by_addr");
			doca_check(doca_dma_task_memcpy_alloc_init(ds.dma, slot->src, slot->dst, ud, &slot->task),
				   "doca_dma_task_memcpy_alloc_init");
		}
	}
}

static void doca_release(void)
{
	for (unsigned i = 0; i < ds.nslots; i++) {
		struct task_slot *slot = &ds.slots[i];

		if (slot->task != NULL)
			doca_task_free(doca_dma_task_memcpy_as_task(slot->task));
		if (slot->src != NULL)
			doca_check(doca_buf_dec_refcount(slot->src, NULL), "doca_buf_dec_refcount");
		if (slot->dst != NULL)
			doca_check(doca_buf_dec_refcount(slot->dst, NULL), "doca_buf_dec_refcount");
		memset(slot, 0, sizeof(*slot));
	}
}

/* One softdoca run of `point`; bytes per second over all its lanes. */
static double softdoca_run(int point, size_t size, const struct options *opt)
{
	struct run_state run = { 0 };
	double start, deadline, elapsed;

	doca_prepare(point, size, opt->depth, &run);
	start = now_s();
	deadline = start + opt->seconds;
	for (unsigned i = 0; i < ds.nslots; i++) {
		if (ds.slots[i].task == NULL)
			continue;
		doca_check(doca_task_submit(doca_dma_task_memcpy_as_task(ds.slots[i].task)), "doca_task_submit");
		run.busy++;
	}
	while (run.busy != 0) {
		if (!run.stop && now_s() >= deadline)
			run.stop = true;
		(void)doca_pe_progress(ds.pe);
	}
	elapsed = now_s() - start;
	if (run.failed != 0) {
		fprintf(stderr, "cuda_bench: %" PRIu64 " DMA task(s) failed; first: %s gave %s\n", run.failed,
			run.first_call, doca_error_get_name(run.first_error));
		exit(1);
	}
	/* Each destination holds one whole copy: its data length says so. */
	for (unsigned i = 0; i < ds.nslots; i++) {
		size_t len = 0;

		if (ds.slots[i].task == NULL)
			continue;
		doca_check(doca_buf_get_data_len(ds.slots[i].dst, &len), "doca_buf_get_data_len");
		if (len != size) {
			fprintf(stderr, "cuda_bench: a destination holds %zu bytes after a %zu-byte copy\n", len, size);
			exit(1);
		}
	}
	doca_release();
	return (double)run.done * (double)size / elapsed;
}

/* ---- one point: raw and softdoca, interleaved ----------------------------- */

struct result {
	size_t size;
	int point;
	double raw_gbps;
	double doca_gbps;
};

static void verify_prepare(int point, size_t size)
{
	for (int l = 0; l < NUM_LANES; l++)
		if (point_uses(point, l))
			region_clear(&regions[lanes[l].dst], 0, size);
}

static void verify_check(int point, size_t size, const char *side)
{
	for (int l = 0; l < NUM_LANES; l++) {
		if (!point_uses(point, l) || slot0_matches(l, size))
			continue;
		fprintf(stderr, "cuda_bench: --verify: %s %s copy of %zu bytes: destination differs from source\n",
			side, lanes[l].name, size);
		exit(1);
	}
}

static void measure_point(int point, size_t size, const struct options *opt, struct result *res)
{
	res->size = size;
	res->point = point;
	res->raw_gbps = res->doca_gbps = 0;
	for (int r = 0; r < opt->repeat; r++) {
		bool verify = opt->verify && r == 0;
		double gbps;

		if (verify)
			verify_prepare(point, size);
		gbps = raw_run(point, size, opt) / 1e9;
		if (verify)
			verify_check(point, size, "raw");
		if (gbps > res->raw_gbps)
			res->raw_gbps = gbps;

		if (verify)
			verify_prepare(point, size);
		gbps = softdoca_run(point, size, opt) / 1e9;
		if (verify)
			verify_check(point, size, "softdoca");
		if (gbps > res->doca_gbps)
			res->doca_gbps = gbps;
	}
}

/* ---- report ------------------------------------------------------------ */

static void size_name(size_t size, char *out, size_t len)
{
	if (size >= GIB && size % GIB == 0)
		snprintf(out, len, "%zu GiB", size / GIB);
	else if (size >= MIB && size % MIB == 0)
		snprintf(out, len, "%zu MiB", size / MIB);
	else if (size >= KIB && size % KIB == 0)
		snprintf(out, len, "%zu KiB", size / KIB);
	else
		snprintf(out, len, "%zu B", size);
}

static double ratio_of(const struct result *r)
{
	return r->raw_gbps > 0 ? r->doca_gbps / r->raw_gbps : 0;
}

/* Verdicts of a row: "MET", "MISSED" or "-" where the target does not apply. */
static const char *ratio_verdict(const struct result *r)
{
	if (r->size < TARGET_RATIO_MIN_SIZE)
		return "-";
	return ratio_of(r) >= TARGET_RATIO ? "MET" : "MISSED";
}

static const char *both_verdict(const struct result *r)
{
	if (r->point != POINT_BOTH || r->size < TARGET_RATIO_MIN_SIZE)
		return "-";
	return r->doca_gbps >= TARGET_BOTH_GBPS ? "MET" : "MISSED";
}

static const char *fake_banner =
	"*** STAND-IN DRIVER (softdoca's fakecuda): no GPU is involved; "
	"the numbers measure a CPU imitation and mean nothing. ***";

static void print_header(const struct options *opt, bool softdoca_pinned, FILE *out)
{
	char name[32];

	if (drv.fake)
		fprintf(out, "%s\n", fake_banner);
	fprintf(out, "cuda_bench: DOCA DMA on softdoca's cuda engine against raw cuMemcpyAsync\n");
	fprintf(out, "driver:  %s (%s, CUDA %d.%d)\n", drv.lib, drv.fake ? "softdoca's stand-in driver" : "CUDA driver",
		drv.version / 1000, drv.version % 1000 / 10);
	fprintf(out, "GPU:     %s at %s, softdoca device gpu0, copy engines: ", drv.gpu_name, drv.pci);
	if (drv.copy_engines < 0)
		fprintf(out, "unknown\n");
	else
		fprintf(out, "%d\n", drv.copy_engines);
	size_name(regions[0].len, name, sizeof(name));
	fprintf(out, "memory:  4 regions of %s (depth x largest size); host regions %s; "
		     "GPU regions from cuMemAlloc; raw and softdoca copy the same bytes\n",
		name,
		opt->pinned_host    ? "from cuMemHostAlloc (pinned by the driver, used as they are by softdoca)"
		: softdoca_pinned ? "pageable, pinned by softdoca's doca_mmap_start"
				    : "pageable, NOT pinned by softdoca's doca_mmap_start (pinned by the bench instead)");
	fprintf(out, "method:  %u copies in flight per direction, %.3g s per run, best of %d, raw and softdoca runs "
		     "alternating%s\n",
		opt->depth, opt->seconds, opt->repeat, opt->verify ? ", bytes of one copy per point verified" : "");
}

static void print_table(const struct result *res, unsigned n)
{
	char name[32];

	printf("\n%-8s  %-9s  %9s  %13s  %6s  %-11s  %s\n", "size", "direction", "raw GB/s", "softdoca GB/s",
	       "ratio", ">=0.95x raw", ">=95 GB/s");
	for (unsigned i = 0; i < n; i++) {
		const struct result *r = &res[i];

		size_name(r->size, name, sizeof(name));
		printf("%-8s  %-9s  %9.2f  %13.2f  %6.3f  %-11s  %s\n", name, point_names[r->point], r->raw_gbps,
		       r->doca_gbps, ratio_of(r), ratio_verdict(r), both_verdict(r));
	}
}

static void print_csv(const struct result *res, unsigned n)
{
	printf("size_bytes,direction,raw_gbps,softdoca_gbps,ratio,ratio_target,both_target\n");
	for (unsigned i = 0; i < n; i++) {
		const struct result *r = &res[i];

		printf("%zu,%s,%.3f,%.3f,%.4f,%s,%s\n", r->size, point_names[r->point], r->raw_gbps, r->doca_gbps,
		       ratio_of(r), ratio_verdict(r), both_verdict(r));
	}
}

/*
 * Summary against issue 7: the ratio at every point >= 1 MiB, and the
 * both-directions rate at the largest size (the "large copies").
 */
static void print_summary(const struct result *res, unsigned n, FILE *out)
{
	unsigned applicable = 0, met = 0;
	const struct result *largest_both = NULL;
	char name[32];

	for (unsigned i = 0; i < n; i++) {
		if (res[i].size < TARGET_RATIO_MIN_SIZE)
			continue;
		applicable++;
		met += ratio_of(&res[i]) >= TARGET_RATIO;
		if (res[i].point == POINT_BOTH && (largest_both == NULL || res[i].size > largest_both->size))
			largest_both = &res[i];
	}
	fprintf(out, "\ntargets (issue 7):\n");
	if (applicable == 0)
		fprintf(out, "  softdoca >= 0.95x raw at >= 1 MiB: not measured (no size >= 1 MiB)\n");
	else
		fprintf(out, "  softdoca >= 0.95x raw at >= 1 MiB: %s (%u of %u points)\n",
			met == applicable ? "MET" : "MISSED", met, applicable);
	if (largest_both == NULL) {
		fprintf(out, "  both directions >= 95 GB/s: not measured (no size >= 1 MiB)\n");
	} else {
		size_name(largest_both->size, name, sizeof(name));
		fprintf(out, "  both directions >= 95 GB/s at the largest size (%s): %s (softdoca %.2f GB/s, raw %.2f GB/s)\n",
			name, largest_both->doca_gbps >= TARGET_BOTH_GBPS ? "MET" : "MISSED", largest_both->doca_gbps,
			largest_both->raw_gbps);
	}
	if (drv.fake)
		fprintf(out, "%s\n", fake_banner);
}

/* ---- arguments ------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: cuda_bench [options]\n"
		"\n"
		"DOCA DMA memcpy tasks on softdoca's cuda engine (device gpu0) against raw\n"
		"cuMemcpyAsync, host->GPU, GPU->host and both at once, side by side.\n"
		"\n"
		"  --sizes LIST    bytes per copy, comma-separated, suffixes K M G (binary)\n"
		"                  (default 1M,4M,16M,64M)\n"
		"  --depth N       copies in flight per direction, 1..%d (default 8)\n"
		"  --seconds S     length of one run (default 0.5)\n"
		"  --repeat R      runs per point and side; the best counts (default 3)\n"
		"  --quick         smoke run: sizes 4K,1M, 0.02 s runs, 1 repeat\n"
		"  --verify        check the bytes of one copy per point, raw and softdoca\n"
		"  --pinned-host   host memory from cuMemHostAlloc (as cudaMallocHost) instead\n"
		"                  of pageable memory that softdoca pins at doca_mmap_start\n"
		"  --csv           print the results as CSV (the header lines go to stderr)\n"
		"  --help          this text\n"
		"\n"
		"The driver is the one softdoca loads: SOFTDOCA_CUDA_LIB, else libcuda.so.1.\n"
		"Exit status: 0 when every copy succeeded, whatever the numbers; 1 on a DOCA\n"
		"or driver failure; 2 on bad arguments; 77 when there is no driver or GPU.\n",
		MAX_DEPTH);
}

static void bad_arg(const char *what, const char *value)
{
	fprintf(stderr, "cuda_bench: bad %s: '%s' (see --help)\n", what, value);
	exit(2);
}

static bool parse_size(const char *text, size_t *out)
{
	char *end;
	unsigned long long v = strtoull(text, &end, 10);
	size_t unit = 1;

	if (end == text || text[0] == '-')
		return false;
	if (*end == 'K' || *end == 'k')
		unit = KIB;
	else if (*end == 'M' || *end == 'm')
		unit = MIB;
	else if (*end == 'G' || *end == 'g')
		unit = GIB;
	if (unit != 1)
		end++;
	if (*end != '\0' || v == 0 || v > MAX_SIZE / unit)
		return false;
	*out = (size_t)v * unit;
	return true;
}

static void parse_sizes(const char *list, struct options *opt)
{
	char buf[512], *save = NULL;

	if (strlen(list) >= sizeof(buf))
		bad_arg("--sizes", list);
	snprintf(buf, sizeof(buf), "%s", list);
	opt->nsizes = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (opt->nsizes == MAX_SIZES || !parse_size(tok, &opt->sizes[opt->nsizes]))
			bad_arg("--sizes (1 B .. 1G each, at most 16)", list);
		opt->nsizes++;
	}
	if (opt->nsizes == 0)
		bad_arg("--sizes", list);
}

static long parse_long(const char *text, const char *what, long lo, long hi)
{
	char *end;
	long v = strtol(text, &end, 10);

	if (end == text || *end != '\0' || v < lo || v > hi)
		bad_arg(what, text);
	return v;
}

static void parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longs[] = {
		{ "sizes", required_argument, NULL, 's' }, { "depth", required_argument, NULL, 'd' },
		{ "seconds", required_argument, NULL, 't' }, { "repeat", required_argument, NULL, 'r' },
		{ "quick", no_argument, NULL, 'q' },	      { "verify", no_argument, NULL, 'v' },
		{ "csv", no_argument, NULL, 'c' },	      { "help", no_argument, NULL, 'h' },
		{ "pinned-host", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sizes = NULL, *seconds = NULL, *repeat = NULL;
	bool quick = false;
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->depth = 8;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 's': sizes = optarg; break;
		case 'd': opt->depth = (unsigned)parse_long(optarg, "--depth", 1, MAX_DEPTH); break;
		case 't': seconds = optarg; break;
		case 'r': repeat = optarg; break;
		case 'q': quick = true; break;
		case 'v': opt->verify = true; break;
		case 'c': opt->csv = true; break;
		case 'p': opt->pinned_host = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind != argc)
		bad_arg("argument", argv[optind]);
	/* --quick sets the defaults; explicit options still win. */
	if (sizes != NULL) {
		parse_sizes(sizes, opt);
	} else {
		const size_t *list = quick ? quick_sizes : default_sizes;
		size_t n = quick ? sizeof(quick_sizes) / sizeof(quick_sizes[0]) : sizeof(default_sizes) / sizeof(default_sizes[0]);

		memcpy(opt->sizes, list, n * sizeof(*list));
		opt->nsizes = (unsigned)n;
	}
	opt->seconds = quick ? 0.02 : 0.5;
	if (seconds != NULL) {
		char *end;

		opt->seconds = strtod(seconds, &end);
		if (end == seconds || *end != '\0' || !(opt->seconds > 0 && opt->seconds <= 60))
			bad_arg("--seconds (0 < S <= 60)", seconds);
	}
	opt->repeat = quick ? 1 : 3;
	if (repeat != NULL)
		opt->repeat = (int)parse_long(repeat, "--repeat", 1, 100);
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct options opt;
	struct result res[MAX_SIZES * NUM_POINTS];
	unsigned nres = 0;
	size_t largest = 0;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE] = "";
	bool softdoca_pinned;
	FILE *info;

	parse_args(argc, argv, &opt);
	info = opt.csv ? stderr : stdout;
	driver_open();
	ds.dev = open_gpu0(pci);
	driver_use_gpu(pci);
	for (unsigned i = 0; i < opt.nsizes; i++)
		largest = opt.sizes[i] > largest ? opt.sizes[i] : largest;
	regions_alloc((size_t)opt.depth * largest, largest, opt.pinned_host);
	softdoca_pinned = map_regions();
	raw_open(opt.depth);
	doca_open(opt.depth);
	print_header(&opt, softdoca_pinned, info);
	fflush(info);

	for (unsigned i = 0; i < opt.nsizes; i++)
		for (int p = 0; p < NUM_POINTS; p++)
			measure_point(p, opt.sizes[i], &opt, &res[nres++]);

	if (opt.csv)
		print_csv(res, nres);
	else
		print_table(res, nres);
	print_summary(res, nres, info);

	doca_close();
	raw_close(opt.depth);
	regions_free();
	driver_close();
	return 0;
}
