/*
 * fakecuda.c - a stand-in CUDA driver library for softdoca's tests.
 *
 * CI machines have no GPU, yet the cuda engine's logic (contexts, streams,
 * events, pinning, error paths) has to run there.  This library exports the
 * driver entry points that src/common/engine/cuda/cuda_api.h looks up, with
 * the driver's calling convention and result codes; "device memory" is host
 * memory and every stream is a worker thread.  Where the real driver would
 * tolerate a sloppy caller (no current context, pageable memory handed to
 * an asynchronous copy) the fake refuses, so engine bugs show up on CPUs.
 *
 * This file: configuration, cuInit, devices, primary contexts, the
 * per-thread context stack, error strings and the statistics.  Memory is in
 * fakecuda_mem.c, streams and events in fakecuda_stream.c.
 */
#include "fakecuda_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fc_state fc = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.progress = PTHREAD_COND_INITIALIZER,
};

/*
 * Each exported function must have exactly the type of its cuda_api.h field;
 * a mismatch would be an ABI bug that only shows when the engine calls it.
 */
#define FC_FIELD_TYPE(field, symbol, ret, params) typedef ret(*fc_type_##field) params;
SD_CUDA_API_FUNCS(FC_FIELD_TYPE)
#define FC_SAME_TYPE(field, fn)                                                                     \
	_Static_assert(_Generic(&fn, fc_type_##field: 1, default: 0), #fn " has another type than " #field)
FC_SAME_TYPE(init, cuInit);
FC_SAME_TYPE(driver_version, cuDriverGetVersion);
FC_SAME_TYPE(device_count, cuDeviceGetCount);
FC_SAME_TYPE(device_get, cuDeviceGet);
FC_SAME_TYPE(device_name, cuDeviceGetName);
FC_SAME_TYPE(device_attribute, cuDeviceGetAttribute);
FC_SAME_TYPE(device_pci_bus_id, cuDeviceGetPCIBusId);
FC_SAME_TYPE(primary_ctx_retain, cuDevicePrimaryCtxRetain);
FC_SAME_TYPE(primary_ctx_release, cuDevicePrimaryCtxRelease_v2);
FC_SAME_TYPE(ctx_push, cuCtxPushCurrent_v2);
FC_SAME_TYPE(ctx_pop, cuCtxPopCurrent_v2);
FC_SAME_TYPE(stream_create, cuStreamCreate);
FC_SAME_TYPE(stream_destroy, cuStreamDestroy_v2);
FC_SAME_TYPE(stream_synchronize, cuStreamSynchronize);
FC_SAME_TYPE(stream_wait_event, cuStreamWaitEvent);
FC_SAME_TYPE(event_create, cuEventCreate);
FC_SAME_TYPE(event_destroy, cuEventDestroy_v2);
FC_SAME_TYPE(event_record, cuEventRecord);
FC_SAME_TYPE(event_query, cuEventQuery);
FC_SAME_TYPE(event_synchronize, cuEventSynchronize);
FC_SAME_TYPE(launch_host_func, cuLaunchHostFunc);
FC_SAME_TYPE(memcpy_async, cuMemcpyAsync);
FC_SAME_TYPE(memcpy_sync, cuMemcpy);
FC_SAME_TYPE(host_register, cuMemHostRegister_v2);
FC_SAME_TYPE(host_unregister, cuMemHostUnregister);
FC_SAME_TYPE(pointer_attribute, cuPointerGetAttribute);
FC_SAME_TYPE(mem_alloc, cuMemAlloc_v2);
FC_SAME_TYPE(mem_free, cuMemFree_v2);
FC_SAME_TYPE(error_string, cuGetErrorString);
/* ...and the list above covers every field (29 of them). */
_Static_assert(sizeof(struct sd_cuda_api) == 29 * sizeof(fc_type_init),
	       "cuda_api.h gained or lost an entry point: update fakecuda");

/* The context stack of the calling thread, as the driver keeps one. */
#define FC_CTX_STACK_MAX 64
static _Thread_local sd_cu_ctx fc_ctx_stack[FC_CTX_STACK_MAX];
static _Thread_local int fc_ctx_depth;

void fc_lock(void)
{
	pthread_mutex_lock(&fc.lock);
}

void fc_unlock(void)
{
	pthread_mutex_unlock(&fc.lock);
}

void fc_wait(void)
{
	pthread_cond_wait(&fc.progress, &fc.lock);
}

void fc_progress(void)
{
	pthread_cond_broadcast(&fc.progress);
}

sd_cu_result fc_ready(void)
{
	if (!fc.init_done || fc.init_result != SD_CU_SUCCESS)
		return SD_CU_ERROR_NOT_INITIALIZED;
	return SD_CU_SUCCESS;
}

/* The calling thread's current context, which must be retained. */
sd_cu_result fc_current_ctx(sd_cu_ctx *out)
{
	sd_cu_result rc = fc_ready();

	if (rc != SD_CU_SUCCESS)
		return rc;
	if (fc_ctx_depth == 0 || fc_ctx_stack[fc_ctx_depth - 1]->retains == 0)
		return FC_ERROR_INVALID_CONTEXT;
	*out = fc_ctx_stack[fc_ctx_depth - 1];
	return SD_CU_SUCCESS;
}

static bool fc_device_ok(sd_cu_device dev)
{
	return dev >= 0 && (unsigned long)dev < fc.cfg.devices;
}

/*
 * env_number - read NAME as a decimal number in [0, max]; absent means
 * dflt.  Returns false (after saying why on stderr) for anything else, so a
 * typo in a test's environment fails loudly instead of testing the default.
 */
static bool env_number(const char *name, unsigned long long dflt, unsigned long long max,
		       unsigned long long *out)
{
	const char *text = getenv(name);
	char *end;

	*out = dflt;
	if (text == NULL || *text == '\0')
		return true;
	errno = 0;
	*out = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0' || text[0] == '-' || *out > max) {
		fprintf(stderr, "fakecuda: %s=\"%s\" is not a number from 0 to %llu\n", name, text, max);
		return false;
	}
	return true;
}

static bool fc_read_config(struct fc_config *cfg)
{
	unsigned long long devices, copy_us, strict, fail_copy, fail_async, refuse_pin;
	bool ok = true;

	ok &= env_number("FAKECUDA_DEVICES", 1, FC_MAX_DEVICES, &devices);
	ok &= env_number("FAKECUDA_COPY_US", 20, 10000000, &copy_us);
	ok &= env_number("FAKECUDA_STRICT_PINNED", 1, 1, &strict);
	ok &= env_number("FAKECUDA_FAIL_COPY_AT", 0, ~0ULL, &fail_copy);
	ok &= env_number("FAKECUDA_FAIL_ASYNC_AT", 0, ~0ULL, &fail_async);
	ok &= env_number("FAKECUDA_REFUSE_PINNING", 0, 1, &refuse_pin);
	cfg->devices = (unsigned long)devices;
	cfg->copy_us = (unsigned long)copy_us;
	cfg->strict_pinned = strict != 0;
	cfg->fail_copy_at = fail_copy;
	cfg->fail_async_at = fail_async;
	cfg->refuse_pinning = refuse_pin != 0;
	return ok;
}

/* Like the driver, the first call decides; later calls repeat its result. */
sd_cu_result cuInit(unsigned int flags)
{
	sd_cu_result rc;

	if (flags != 0)
		return SD_CU_ERROR_INVALID_VALUE;
	fc_lock();
	if (!fc.init_done) {
		fc.init_done = true;
		if (!fc_read_config(&fc.cfg))
			fc.init_result = SD_CU_ERROR_INVALID_VALUE;
		else if (fc.cfg.devices == 0)
			fc.init_result = SD_CU_ERROR_NO_DEVICE;
		else
			fc.init_result = SD_CU_SUCCESS;
		for (int i = 0; i < FC_MAX_DEVICES; i++)
			fc.ctx[i].device = i;
	}
	rc = fc.init_result;
	fc_unlock();
	return rc;
}

/* The real driver answers this one before cuInit too. */
sd_cu_result cuDriverGetVersion(int *version)
{
	if (version == NULL)
		return SD_CU_ERROR_INVALID_VALUE;
	*version = 13000;
	return SD_CU_SUCCESS;
}

sd_cu_result cuDeviceGetCount(int *count)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && count == NULL)
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS)
		*count = (int)fc.cfg.devices;
	fc_unlock();
	return rc;
}

sd_cu_result cuDeviceGet(sd_cu_device *dev, int ordinal)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && dev == NULL)
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && !fc_device_ok(ordinal))
		rc = FC_ERROR_INVALID_DEVICE;
	if (rc == SD_CU_SUCCESS)
		*dev = ordinal;
	fc_unlock();
	return rc;
}

/* Shared checks of the calls that write a string about a device. */
static sd_cu_result fc_device_text_check(const char *buf, int len, sd_cu_device dev)
{
	sd_cu_result rc = fc_ready();

	if (rc == SD_CU_SUCCESS && (buf == NULL || len <= 0))
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && !fc_device_ok(dev))
		rc = FC_ERROR_INVALID_DEVICE;
	return rc;
}

/* Truncated to len - 1 characters, like the driver. */
sd_cu_result cuDeviceGetName(char *name, int len, sd_cu_device dev)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_device_text_check(name, len, dev);
	if (rc == SD_CU_SUCCESS)
		snprintf(name, (size_t)len, "softdoca fake GPU %d", dev);
	fc_unlock();
	return rc;
}

/* domain:bus:device.function in hex; device N sits on bus 0xC1 + N. */
sd_cu_result cuDeviceGetPCIBusId(char *bus_id, int len, sd_cu_device dev)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_device_text_check(bus_id, len, dev);
	if (rc == SD_CU_SUCCESS)
		snprintf(bus_id, (size_t)len, "%04X:%02X:%02X.%X", 0, 0xC1 + dev, 0, 0);
	fc_unlock();
	return rc;
}

/* Two copy engines, like a data-centre GPU; every other attribute reads 0. */
sd_cu_result cuDeviceGetAttribute(int *value, int attribute, sd_cu_device dev)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && value == NULL)
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && !fc_device_ok(dev))
		rc = FC_ERROR_INVALID_DEVICE;
	if (rc == SD_CU_SUCCESS)
		*value = attribute == SD_CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT ? 2 : 0;
	fc_unlock();
	return rc;
}

sd_cu_result cuDevicePrimaryCtxRetain(sd_cu_ctx *ctx, sd_cu_device dev)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && ctx == NULL)
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && !fc_device_ok(dev))
		rc = FC_ERROR_INVALID_DEVICE;
	if (rc == SD_CU_SUCCESS) {
		fc.ctx[dev].retains++;
		fc.stats.primary_ctx_retains++;
		*ctx = &fc.ctx[dev];
	}
	fc_unlock();
	return rc;
}

/*
 * The real driver resets the context on its last release and takes its
 * streams, events and memory with it.  The fake keeps them usable but
 * counts (and reports on stderr) such a release: it is an engine bug.
 */
static void fc_note_last_release(sd_cu_ctx ctx)
{
	int live = fc_streams_events_of_ctx(ctx) + fc_ranges_of_ctx(ctx);

	if (live == 0)
		return;
	fc.stats.ctx_released_with_live_objects++;
	fprintf(stderr,
		"fakecuda: primary context of device %d released while %d of its streams, events, "
		"device blocks or registrations are alive\n",
		ctx->device, live);
}

sd_cu_result cuDevicePrimaryCtxRelease_v2(sd_cu_device dev)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && !fc_device_ok(dev))
		rc = FC_ERROR_INVALID_DEVICE;
	if (rc == SD_CU_SUCCESS && fc.ctx[dev].retains == 0)
		rc = FC_ERROR_INVALID_CONTEXT;
	if (rc == SD_CU_SUCCESS) {
		fc.ctx[dev].retains--;
		fc.stats.primary_ctx_retains--;
		if (fc.ctx[dev].retains == 0)
			fc_note_last_release(&fc.ctx[dev]);
	}
	fc_unlock();
	return rc;
}

/* A handle is one of the primary-context slots of an existing device. */
static bool fc_ctx_handle_ok(sd_cu_ctx ctx)
{
	for (unsigned long i = 0; i < fc.cfg.devices; i++)
		if (ctx == &fc.ctx[i])
			return true;
	return false;
}

/* Only a retained (active) context can be made current. */
sd_cu_result cuCtxPushCurrent_v2(sd_cu_ctx ctx)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && (!fc_ctx_handle_ok(ctx) || ctx->retains == 0))
		rc = FC_ERROR_INVALID_CONTEXT;
	if (rc == SD_CU_SUCCESS && fc_ctx_depth == FC_CTX_STACK_MAX)
		rc = SD_CU_ERROR_OUT_OF_MEMORY;
	if (rc == SD_CU_SUCCESS)
		fc_ctx_stack[fc_ctx_depth++] = ctx;
	fc_unlock();
	return rc;
}

/* ctx may be NULL when the caller does not want the popped handle. */
sd_cu_result cuCtxPopCurrent_v2(sd_cu_ctx *ctx)
{
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && fc_ctx_depth == 0)
		rc = FC_ERROR_INVALID_CONTEXT;
	if (rc == SD_CU_SUCCESS) {
		sd_cu_ctx top = fc_ctx_stack[--fc_ctx_depth];

		fc_ctx_stack[fc_ctx_depth] = NULL;
		if (ctx != NULL)
			*ctx = top;
	}
	fc_unlock();
	return rc;
}

struct fc_error_text {
	sd_cu_result code;
	const char *text;
};

/* Our own short descriptions, each led by the driver's name for the code. */
static const struct fc_error_text fc_error_texts[] = {
	{0, "CUDA_SUCCESS: no error"},
	{1, "CUDA_ERROR_INVALID_VALUE: an argument is out of range or unusable"},
	{2, "CUDA_ERROR_OUT_OF_MEMORY: an allocation failed"},
	{3, "CUDA_ERROR_NOT_INITIALIZED: cuInit has not succeeded yet"},
	{100, "CUDA_ERROR_NO_DEVICE: no CUDA device is present"},
	{101, "CUDA_ERROR_INVALID_DEVICE: no device has that ordinal"},
	{201, "CUDA_ERROR_INVALID_CONTEXT: no usable context is current"},
	{400, "CUDA_ERROR_INVALID_HANDLE: the stream or event handle is not alive"},
	{500, "CUDA_ERROR_NOT_FOUND: the named object does not exist"},
	{600, "CUDA_ERROR_NOT_READY: the work has not finished yet"},
	{700, "CUDA_ERROR_ILLEGAL_ADDRESS: a copy touched an address it may not"},
	{712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: the range overlaps a registered one"},
	{713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED: no registration starts at that address"},
	{801, "CUDA_ERROR_NOT_SUPPORTED: this system does not allow the operation"},
};

/* No cuInit needed, as with the driver; unknown codes leave *text NULL. */
sd_cu_result cuGetErrorString(sd_cu_result err, const char **text)
{
	if (text == NULL)
		return SD_CU_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(fc_error_texts) / sizeof(fc_error_texts[0]); i++) {
		if (fc_error_texts[i].code == err) {
			*text = fc_error_texts[i].text;
			return SD_CU_SUCCESS;
		}
	}
	*text = NULL;
	return SD_CU_ERROR_INVALID_VALUE;
}

void fakecuda_stats(struct fakecuda_stats *out)
{
	if (out == NULL)
		return;
	fc_lock();
	*out = fc.stats;
	fc_unlock();
}
