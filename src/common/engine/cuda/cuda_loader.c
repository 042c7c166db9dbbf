/*
 * cuda_loader.c - finding the CUDA driver at run time.
 *
 * softdoca builds, installs and runs without CUDA: the driver library is
 * opened with dlopen the first time something asks for the cuda engine
 * (the built-in topology looking for GPUs, or a topology file naming
 * `engine = cuda`).  SOFTDOCA_CUDA_LIB names another library file (the
 * test suite's stand-in driver) or `none` to keep CUDA out entirely.
 *
 * Each GPU's primary context is retained on first use and kept for the
 * life of the process: it is the context the CUDA runtime also uses, so
 * cudaMalloc pointers and our streams live in the same address space.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_priv.h"

#define SD_CUDA_DEFAULT_LIB "libcuda.so.1"
#define SD_CUDA_MAX_GPUS 64

static pthread_once_t sd_cuda_once = PTHREAD_ONCE_INIT;
static struct sd_cuda_api sd_cuda_fns;
static const struct sd_cuda_api *sd_cuda_loaded;
static char sd_cuda_why[256];

/* Primary contexts retained so far, by ordinal (guarded by the lock). */
static pthread_mutex_t sd_cuda_ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static sd_cu_ctx sd_cuda_ctx[SD_CUDA_MAX_GPUS];

/* Look every entry point up; false naming the first one missing. */
static bool sd_cuda_resolve(void *lib)
{
#define SD_CUDA_RESOLVE(field, symbol, ret, params)                                                \
	*(void **)&sd_cuda_fns.field = dlsym(lib, symbol);                                         \
	if (sd_cuda_fns.field == NULL) {                                                           \
		snprintf(sd_cuda_why, sizeof(sd_cuda_why), "the driver library has no %s", symbol); \
		return false;                                                                      \
	}
	SD_CUDA_API_FUNCS(SD_CUDA_RESOLVE)
#undef SD_CUDA_RESOLVE
	return true;
}

static void sd_cuda_open(void)
{
	const char *name = getenv("SOFTDOCA_CUDA_LIB");
	sd_cu_result res;
	void *lib;

	if (name == NULL || name[0] == '\0')
		name = SD_CUDA_DEFAULT_LIB;
	if (strcmp(name, "none") == 0) {
		snprintf(sd_cuda_why, sizeof(sd_cuda_why), "CUDA is disabled (SOFTDOCA_CUDA_LIB=none)");
		return;
	}
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		snprintf(sd_cuda_why, sizeof(sd_cuda_why), "no CUDA driver: cannot load %s (%s)", name, dlerror());
		return;
	}
	if (!sd_cuda_resolve(lib))
		return; /* the library stays open: dlclose of a driver is not safe */
	res = sd_cuda_fns.init(0);
	if (res != SD_CU_SUCCESS) {
		snprintf(sd_cuda_why, sizeof(sd_cuda_why), "the CUDA driver (%s) did not start: cuInit gave %s", name,
			 sd_cuda_error_text(res));
		return;
	}
	sd_cuda_loaded = &sd_cuda_fns;
}

const struct sd_cuda_api *sd_cuda_load(char *why, size_t why_len)
{
	(void)pthread_once(&sd_cuda_once, sd_cuda_open);
	if (sd_cuda_loaded == NULL && why != NULL)
		snprintf(why, why_len, "%s", sd_cuda_why);
	return sd_cuda_loaded;
}

const char *sd_cuda_error_text(sd_cu_result res)
{
	const char *text = NULL;

	if (sd_cuda_fns.error_string == NULL) /* the driver could not be opened */
		return "unknown CUDA error";
	if (sd_cuda_fns.error_string(res, &text) != SD_CU_SUCCESS || text == NULL)
		return "unknown CUDA error";
	return text;
}

/* "0000:C1:00.0" or "00000000:c1:00.0" -> canonical "0000:c1:00.0". */
static bool sd_cuda_canonical_pci(const char *bus_id, char out[16])
{
	unsigned long domain, bus, dev, fn;
	char *end;

	domain = strtoul(bus_id, &end, 16);
	if (*end != ':')
		return false;
	bus = strtoul(end + 1, &end, 16);
	if (*end != ':')
		return false;
	dev = strtoul(end + 1, &end, 16);
	if (*end != '.')
		return false;
	fn = strtoul(end + 1, &end, 16);
	if (*end != '\0' || domain > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return false;
	snprintf(out, 16, "%04lx:%02lx:%02lx.%lx", domain, bus, dev, fn);
	return true;
}

bool sd_cuda_pci_addr(sd_cu_device dev, char out[16])
{
	char bus_id[32];

	if (sd_cuda_loaded == NULL || sd_cuda_fns.device_pci_bus_id(bus_id, sizeof(bus_id), dev) != SD_CU_SUCCESS)
		return false;
	bus_id[sizeof(bus_id) - 1] = '\0';
	return sd_cuda_canonical_pci(bus_id, out);
}

int sd_cuda_find_device(const char *pci_addr)
{
	int count = 0;
	char addr[16];

	if (sd_cuda_loaded == NULL || sd_cuda_fns.device_count(&count) != SD_CU_SUCCESS)
		return -1;
	for (int i = 0; i < count && i < SD_CUDA_MAX_GPUS; i++)
		if (sd_cuda_pci_addr(i, addr) && strcmp(addr, pci_addr) == 0)
			return i;
	return -1;
}

unsigned sd_engine_cuda_enumerate(char (*addrs)[16], unsigned max)
{
	int count = 0;
	unsigned n = 0;

	if (sd_cuda_load(NULL, 0) == NULL || sd_cuda_fns.device_count(&count) != SD_CU_SUCCESS)
		return 0;
	for (int i = 0; i < count && n < max && i < SD_CUDA_MAX_GPUS; i++)
		if (sd_cuda_pci_addr(i, addrs[n]))
			n++;
	return n;
}

/* The retained primary context of `dev`, retaining it on first use. */
static sd_cu_ctx sd_cuda_primary(sd_cu_device dev, char *why, size_t why_len)
{
	sd_cu_ctx ctx;
	sd_cu_result res = SD_CU_SUCCESS;

	if (dev < 0 || dev >= SD_CUDA_MAX_GPUS) {
		snprintf(why, why_len, "GPU ordinal %d is out of range", dev);
		return NULL;
	}
	pthread_mutex_lock(&sd_cuda_ctx_lock);
	if (sd_cuda_ctx[dev] == NULL)
		res = sd_cuda_fns.primary_ctx_retain(&sd_cuda_ctx[dev], dev);
	ctx = res == SD_CU_SUCCESS ? sd_cuda_ctx[dev] : NULL;
	pthread_mutex_unlock(&sd_cuda_ctx_lock);
	if (ctx == NULL)
		snprintf(why, why_len, "cannot retain the primary context of GPU %d: %s", dev,
			 sd_cuda_error_text(res));
	return ctx;
}

sd_cu_ctx sd_cuda_context(sd_cu_device dev, char *why, size_t why_len)
{
	char scratch[160];

	if (why == NULL) {
		why = scratch;
		why_len = sizeof(scratch);
	}
	if (sd_cuda_load(why, why_len) == NULL)
		return NULL;
	return sd_cuda_primary(dev, why, why_len);
}

bool sd_cuda_push(sd_cu_ctx ctx)
{
	return sd_cuda_fns.ctx_push(ctx) == SD_CU_SUCCESS;
}

bool sd_cuda_enter(sd_cu_device dev, char *why, size_t why_len)
{
	sd_cu_ctx ctx = sd_cuda_context(dev, why, why_len);

	if (ctx == NULL)
		return false;
	if (!sd_cuda_push(ctx)) {
		if (why != NULL)
			snprintf(why, why_len, "cannot make GPU %d's context current", dev);
		return false;
	}
	return true;
}

void sd_cuda_leave(void)
{
	sd_cu_ctx popped;

	(void)sd_cuda_fns.ctx_pop(&popped);
}
