/*
 * fakecuda_internal.h - state shared by fakecuda's files.
 *
 * One mutex (fc.lock) guards every piece of shared state; one condition
 * variable (fc.progress) is broadcast whenever anything completes, and the
 * waiters re-check their own predicate.  A fake has no performance target,
 * and a single lock makes it easy to keep free of data races.
 */
#ifndef FAKECUDA_INTERNAL_H
#define FAKECUDA_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda_api.h"
#include "fakecuda.h"

#define FC_EXPORT __attribute__((visibility("default")))
#define FC_MAX_DEVICES 16

/* Driver result codes that cuda_api.h does not name. */
enum {
	FC_ERROR_INVALID_DEVICE = 101,
	FC_ERROR_INVALID_CONTEXT = 201,
};

/* A device's primary context; the handle is the address of this slot. */
struct sd_cu_ctx_st {
	int device;
	int retains;
};

/* A cuMemAlloc block or a cuMemHostRegister range. */
struct fc_range {
	uintptr_t base;
	size_t len;
	bool device;         /* cuMemAlloc block (else registered host range) */
	sd_cu_ctx ctx;       /* the context current when it was made */
	int inflight;        /* queued or running copies that touch it */
	struct fc_range *next;
};

struct fc_config {
	unsigned long devices;
	unsigned long copy_us;
	bool strict_pinned;
	unsigned long long fail_copy_at;  /* 0: never */
	unsigned long long fail_async_at; /* 0: never */
	bool refuse_pinning;              /* cuMemHostRegister says NOT_SUPPORTED */
};

struct fc_state {
	pthread_mutex_t lock;
	pthread_cond_t progress;
	bool init_done;        /* cuInit ran (successfully or not) */
	sd_cu_result init_result;
	struct fc_config cfg;
	struct sd_cu_ctx_st ctx[FC_MAX_DEVICES];
	struct fc_range *ranges;
	struct sd_cu_stream_st *streams; /* live and draining */
	struct sd_cu_event_st *events;
	unsigned long long accepted_copy_calls; /* for FAKECUDA_FAIL_COPY_AT */
	unsigned long long queued_copies;       /* for FAKECUDA_FAIL_ASYNC_AT */
	struct fakecuda_stats stats;
};

extern struct fc_state fc;

/* fakecuda.c */
void fc_lock(void);
void fc_unlock(void);
void fc_wait(void);     /* on fc.progress; lock held */
void fc_progress(void); /* broadcast fc.progress; lock held */
sd_cu_result fc_ready(void);                  /* lock held */
sd_cu_result fc_current_ctx(sd_cu_ctx *out);  /* lock held */

/* fakecuda_mem.c (lock held) */
sd_cu_result fc_copy_range(uintptr_t addr, size_t len, bool allow_pageable,
			   struct fc_range **out);
void fc_range_unpin(struct fc_range *r);
int fc_ranges_of_ctx(sd_cu_ctx ctx);
void fc_ranges_unload(void);

/* fakecuda_stream.c (lock held) */
int fc_streams_events_of_ctx(sd_cu_ctx ctx);

/*
 * The exported driver entry points, with the prototypes that cuda_api.h
 * gives its function-pointer fields (fakecuda.c checks that they agree).
 */
FC_EXPORT sd_cu_result cuInit(unsigned int flags);
FC_EXPORT sd_cu_result cuDriverGetVersion(int *version);
FC_EXPORT sd_cu_result cuDeviceGetCount(int *count);
FC_EXPORT sd_cu_result cuDeviceGet(sd_cu_device *dev, int ordinal);
FC_EXPORT sd_cu_result cuDeviceGetName(char *name, int len, sd_cu_device dev);
FC_EXPORT sd_cu_result cuDeviceGetAttribute(int *value, int attribute, sd_cu_device dev);
FC_EXPORT sd_cu_result cuDeviceGetPCIBusId(char *bus_id, int len, sd_cu_device dev);
FC_EXPORT sd_cu_result cuDevicePrimaryCtxRetain(sd_cu_ctx *ctx, sd_cu_device dev);
FC_EXPORT sd_cu_result cuDevicePrimaryCtxRelease_v2(sd_cu_device dev);
FC_EXPORT sd_cu_result cuCtxPushCurrent_v2(sd_cu_ctx ctx);
FC_EXPORT sd_cu_result cuCtxPopCurrent_v2(sd_cu_ctx *ctx);
FC_EXPORT sd_cu_result cuStreamCreate(sd_cu_stream *stream, unsigned int flags);
FC_EXPORT sd_cu_result cuStreamDestroy_v2(sd_cu_stream stream);
FC_EXPORT sd_cu_result cuStreamSynchronize(sd_cu_stream stream);
FC_EXPORT sd_cu_result cuStreamWaitEvent(sd_cu_stream stream, sd_cu_event event, unsigned int flags);
FC_EXPORT sd_cu_result cuEventCreate(sd_cu_event *event, unsigned int flags);
FC_EXPORT sd_cu_result cuEventDestroy_v2(sd_cu_event event);
FC_EXPORT sd_cu_result cuEventRecord(sd_cu_event event, sd_cu_stream stream);
FC_EXPORT sd_cu_result cuEventQuery(sd_cu_event event);
FC_EXPORT sd_cu_result cuEventSynchronize(sd_cu_event event);
FC_EXPORT sd_cu_result cuLaunchHostFunc(sd_cu_stream stream, sd_cu_host_fn fn, void *arg);
FC_EXPORT sd_cu_result cuMemcpyAsync(sd_cu_ptr dst, sd_cu_ptr src, size_t len, sd_cu_stream stream);
FC_EXPORT sd_cu_result cuMemcpy(sd_cu_ptr dst, sd_cu_ptr src, size_t len);
FC_EXPORT sd_cu_result cuMemHostRegister_v2(void *p, size_t len, unsigned int flags);
FC_EXPORT sd_cu_result cuMemHostUnregister(void *p);
FC_EXPORT sd_cu_result cuPointerGetAttribute(void *data, int attribute, sd_cu_ptr ptr);
FC_EXPORT sd_cu_result cuMemAlloc_v2(sd_cu_ptr *ptr, size_t len);
FC_EXPORT sd_cu_result cuMemFree_v2(sd_cu_ptr ptr);
FC_EXPORT sd_cu_result cuGetErrorString(sd_cu_result err, const char **text);

FC_EXPORT void fakecuda_stats(struct fakecuda_stats *out);

#endif /* FAKECUDA_INTERNAL_H */
