/*
 * fakecuda.h - the test-only view of fakecuda, the stand-in CUDA driver.
 *
 * fakecuda (libsoftdoca-fakecuda.so) exports the driver entry points named
 * in src/common/engine/cuda/cuda_api.h, so the cuda engine can be pointed
 * at it with SOFTDOCA_CUDA_LIB on machines without a GPU.  Besides those it
 * exports fakecuda_stats(), which tests look up with dlsym on the same
 * handle to prove what the engine did (pinned its buffers, freed what it
 * made, drained its streams).
 *
 * Behaviour is set by environment variables, read once by the first
 * cuInit() of the process:
 *   FAKECUDA_DEVICES=N        devices to report (default 1, at most 16;
 *                             0 makes cuInit return CUDA_ERROR_NO_DEVICE)
 *   FAKECUDA_COPY_US=N        microseconds each queued copy takes (default
 *                             20), so that work is visibly in flight
 *   FAKECUDA_STRICT_PINNED=0  let cuMemcpyAsync take pageable host memory
 *                             (default 1: refused with INVALID_VALUE)
 *   FAKECUDA_FAIL_COPY_AT=N   the N-th accepted cuMemcpyAsync call returns
 *                             CUDA_ERROR_ILLEGAL_ADDRESS at once (default
 *                             0: never)
 *   FAKECUDA_FAIL_ASYNC_AT=N  the N-th queued copy fails when its stream
 *                             runs it; the stream's error is then sticky
 *                             (default 0: never)
 *   FAKECUDA_REFUSE_PINNING=1 cuMemHostRegister fails with
 *                             CUDA_ERROR_NOT_SUPPORTED, as in sandboxes
 *                             that forbid pinning (default 0)
 * A value that is not a plain decimal number in range makes cuInit fail
 * with CUDA_ERROR_INVALID_VALUE and a line on stderr.
 */
#ifndef FAKECUDA_H
#define FAKECUDA_H

/* A snapshot of fakecuda's bookkeeping; gauges first, then running totals. */
struct fakecuda_stats {
	/* Alive now. */
	long long registered_ranges;   /* cuMemHostRegister ranges not yet unregistered */
	long long device_allocations;  /* cuMemAlloc blocks not yet freed */
	long long streams;             /* stream handles not yet destroyed */
	long long events;              /* event handles not yet destroyed */
	long long primary_ctx_retains; /* retains minus releases, all devices */
	/* Totals since the library was loaded. */
	long long register_calls;   /* successful cuMemHostRegister_v2 calls */
	long long unregister_calls; /* successful cuMemHostUnregister calls */
	long long copies_queued;    /* copies accepted by cuMemcpyAsync */
	long long copies_executed;  /* queued copies whose bytes were moved */
	long long copies_failed;    /* queued copies failed by FAKECUDA_FAIL_ASYNC_AT */
	long long copies_skipped;   /* queued copies dropped: their stream had failed */
	long long host_funcs_run;   /* cuLaunchHostFunc functions called */
	long long host_funcs_skipped; /* not called: their stream had failed */
	long long sync_copies;      /* cuMemcpy calls that moved bytes */
	long long ctx_released_with_live_objects; /* last release of a primary
						     context while its streams,
						     events or blocks lived */
};

/* Fills *out with a consistent snapshot (all counters read under one lock). */
void fakecuda_stats(struct fakecuda_stats *out);

/* The type a test casts the dlsym result of "fakecuda_stats" to. */
typedef void (*fakecuda_stats_fn)(struct fakecuda_stats *out);

#endif /* FAKECUDA_H */
