/*
 * cuda_api.h - the slice of the CUDA driver ABI that the cuda engine uses.
 *
 * softdoca never links against CUDA: the driver library is opened at run
 * time (dlopen) and these entry points are looked up by their exported
 * names.  The types and constants below are written here from the driver's
 * published ABI (sizes, values and calling convention), so the tree builds
 * on machines without a CUDA toolkit.
 *
 * The same declarations serve tests/cuda/fakecuda, the stand-in driver that
 * lets CPU-only machines exercise the engine's logic.
 */
#ifndef SD_CUDA_API_H
#define SD_CUDA_API_H

#include <stddef.h>

typedef int sd_cu_result;                /* CUresult */
typedef int sd_cu_device;                /* CUdevice: an ordinal */
typedef struct sd_cu_ctx_st *sd_cu_ctx;  /* CUcontext */
typedef struct sd_cu_stream_st *sd_cu_stream; /* CUstream */
typedef struct sd_cu_event_st *sd_cu_event;   /* CUevent */
typedef unsigned long long sd_cu_ptr;    /* CUdeviceptr: a unified address */
typedef void (*sd_cu_host_fn)(void *arg); /* CUhostFn */

/* CUresult values the engine tells apart. */
enum {
	SD_CU_SUCCESS = 0,
	SD_CU_ERROR_INVALID_VALUE = 1,
	SD_CU_ERROR_OUT_OF_MEMORY = 2,
	SD_CU_ERROR_NOT_INITIALIZED = 3,
	SD_CU_ERROR_NO_DEVICE = 100,
	SD_CU_ERROR_INVALID_HANDLE = 400,
	SD_CU_ERROR_NOT_FOUND = 500,
	SD_CU_ERROR_NOT_READY = 600,
	SD_CU_ERROR_ILLEGAL_ADDRESS = 700,
	SD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
	SD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
	SD_CU_ERROR_NOT_PERMITTED = 800,
	SD_CU_ERROR_NOT_SUPPORTED = 801,
};

/* Flags and attribute selectors. */
enum {
	SD_CU_STREAM_NON_BLOCKING = 0x1,
	SD_CU_EVENT_BLOCKING_SYNC = 0x1,
	SD_CU_EVENT_DISABLE_TIMING = 0x2,
	SD_CU_MEMHOSTREGISTER_PORTABLE = 0x1,
	SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2, /* writes an unsigned int */
	SD_CU_MEMORYTYPE_HOST = 1,
	SD_CU_MEMORYTYPE_DEVICE = 2,
	SD_CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
};

/*
 * The driver entry points, each with the exported symbol it is looked up
 * by (some carry a _v2 suffix in the library).  X(field, symbol, return,
 * parameters).
 */
#define SD_CUDA_API_FUNCS(X)                                                                       \
	X(init, "cuInit", sd_cu_result, (unsigned int flags))                                      \
	X(driver_version, "cuDriverGetVersion", sd_cu_result, (int *version))                      \
	X(device_count, "cuDeviceGetCount", sd_cu_result, (int *count))                            \
	X(device_get, "cuDeviceGet", sd_cu_result, (sd_cu_device * dev, int ordinal))              \
	X(device_name, "cuDeviceGetName", sd_cu_result, (char *name, int len, sd_cu_device dev))   \
	X(device_attribute, "cuDeviceGetAttribute", sd_cu_result,                                  \
	  (int *value, int attribute, sd_cu_device dev))                                           \
	X(device_pci_bus_id, "cuDeviceGetPCIBusId", sd_cu_result, (char *bus_id, int len, sd_cu_device dev)) \
	X(primary_ctx_retain, "cuDevicePrimaryCtxRetain", sd_cu_result, (sd_cu_ctx * ctx, sd_cu_device dev)) \
	X(primary_ctx_release, "cuDevicePrimaryCtxRelease_v2", sd_cu_result, (sd_cu_device dev))   \
	X(ctx_push, "cuCtxPushCurrent_v2", sd_cu_result, (sd_cu_ctx ctx))                          \
	X(ctx_pop, "cuCtxPopCurrent_v2", sd_cu_result, (sd_cu_ctx * ctx))                          \
	X(stream_create, "cuStreamCreate", sd_cu_result, (sd_cu_stream * stream, unsigned int flags)) \
	X(stream_destroy, "cuStreamDestroy_v2", sd_cu_result, (sd_cu_stream stream))               \
	X(stream_synchronize, "cuStreamSynchronize", sd_cu_result, (sd_cu_stream stream))          \
	X(stream_wait_event, "cuStreamWaitEvent", sd_cu_result,                                    \
	  (sd_cu_stream stream, sd_cu_event event, unsigned int flags))                            \
	X(event_create, "cuEventCreate", sd_cu_result, (sd_cu_event * event, unsigned int flags))  \
	X(event_destroy, "cuEventDestroy_v2", sd_cu_result, (sd_cu_event event))                   \
	X(event_record, "cuEventRecord", sd_cu_result, (sd_cu_event event, sd_cu_stream stream))   \
	X(event_query, "cuEventQuery", sd_cu_result, (sd_cu_event event))                          \
	X(event_synchronize, "cuEventSynchronize", sd_cu_result, (sd_cu_event event))              \
	X(launch_host_func, "cuLaunchHostFunc", sd_cu_result,                                      \
	  (sd_cu_stream stream, sd_cu_host_fn fn, void *arg))                                      \
	X(memcpy_async, "cuMemcpyAsync", sd_cu_result,                                             \
	  (sd_cu_ptr dst, sd_cu_ptr src, size_t len, sd_cu_stream stream))                         \
	X(memcpy_sync, "cuMemcpy", sd_cu_result, (sd_cu_ptr dst, sd_cu_ptr src, size_t len))       \
	X(host_register, "cuMemHostRegister_v2", sd_cu_result, (void *p, size_t len, unsigned int flags)) \
	X(host_unregister, "cuMemHostUnregister", sd_cu_result, (void *p))                         \
	X(pointer_attribute, "cuPointerGetAttribute", sd_cu_result,                                \
	  (void *data, int attribute, sd_cu_ptr ptr))                                              \
	X(mem_alloc, "cuMemAlloc_v2", sd_cu_result, (sd_cu_ptr * ptr, size_t len))                 \
	X(mem_free, "cuMemFree_v2", sd_cu_result, (sd_cu_ptr ptr))                                 \
	X(error_string, "cuGetErrorString", sd_cu_result, (sd_cu_result err, const char **text))

#define SD_CUDA_API_FIELD(field, symbol, ret, params) ret(*field) params;

/* Resolved entry points of the loaded driver. */
struct sd_cuda_api {
	SD_CUDA_API_FUNCS(SD_CUDA_API_FIELD)
};

#endif /* SD_CUDA_API_H */
