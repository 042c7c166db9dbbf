/*
 * cuda_queue.c - the cuda engine's copies: one queue per started DMA
 * context.
 *
 * A queue owns one stream per direction (host->host, host->GPU, GPU->host,
 * GPU->GPU), so copies towards and away from the GPU use both copy engines
 * at once, and one event per task slot.  Starting a task queues its
 * segment copies on the stream of its direction and records the slot's
 * event behind them; doca_pe_progress polls that event.  Everything a
 * queue needs is created when the context starts: the per-task path makes
 * driver calls only, no allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_priv.h"
#include "sd_dev.h"
#include "sd_log.h"

#define SD_CUDA_NUM_STREAMS 4 /* indexed by (source on GPU) << 1 | (destination on GPU) */

struct sd_engine_queue {
	const struct sd_cuda_api *api;
	sd_cu_device dev;
	sd_cu_ctx ctx; /* the GPU's primary context, pushed around every call */
	uint32_t depth;
	sd_cu_stream streams[SD_CUDA_NUM_STREAMS];
	sd_cu_stream notify; /* waits on a slot's event, then wakes a PE */
	sd_cu_event *events; /* one per slot */
};

static const char *const sd_cuda_stream_names[SD_CUDA_NUM_STREAMS] = {
	"host->host", "host->GPU", "GPU->host", "GPU->GPU",
};

/* DEBUG only: a failed copy reaches the program through its task. */
#define SD_CUDA_DEBUG(...) priv_doca_sdk_log_at(DOCA_LOG_LEVEL_DEBUG, __FILE__, __LINE__, "cuda engine", __VA_ARGS__)

static void sd_cuda_queue_free(struct sd_engine_queue *q)
{
	const struct sd_cuda_api *api = q->api;

	for (uint32_t i = 0; q->events != NULL && i < q->depth; i++)
		if (q->events[i] != NULL)
			(void)api->event_destroy(q->events[i]);
	for (int i = 0; i < SD_CUDA_NUM_STREAMS; i++)
		if (q->streams[i] != NULL)
			(void)api->stream_destroy(q->streams[i]);
	if (q->notify != NULL)
		(void)api->stream_destroy(q->notify);
	free(q->events);
	free(q);
}

/* Streams and events of a new queue (the GPU's context is current). */
static sd_cu_result sd_cuda_queue_fill(struct sd_engine_queue *q)
{
	const struct sd_cuda_api *api = q->api;
	sd_cu_result res;

	for (int i = 0; i < SD_CUDA_NUM_STREAMS; i++) {
		res = api->stream_create(&q->streams[i], SD_CU_STREAM_NON_BLOCKING);
		if (res != SD_CU_SUCCESS)
			return res;
	}
	res = api->stream_create(&q->notify, SD_CU_STREAM_NON_BLOCKING);
	if (res != SD_CU_SUCCESS)
		return res;
	for (uint32_t i = 0; i < q->depth; i++) {
		res = api->event_create(&q->events[i], SD_CU_EVENT_DISABLE_TIMING);
		if (res != SD_CU_SUCCESS)
			return res;
	}
	return SD_CU_SUCCESS;
}

static doca_error_t sd_cuda_queue_open(const struct sd_device *node, uint32_t depth, struct sd_engine_queue **out,
				       char *why, size_t why_len)
{
	const struct sd_cuda_api *api = sd_cuda_load(why, why_len);
	struct sd_engine_queue *q;
	sd_cu_result res;

	if (api == NULL)
		return DOCA_ERROR_NOT_SUPPORTED;
	q = calloc(1, sizeof(*q));
	if (q == NULL || (q->events = calloc(depth ? depth : 1, sizeof(*q->events))) == NULL) {
		free(q);
		snprintf(why, why_len, "out of memory for %u task slots", depth);
		return DOCA_ERROR_NO_MEMORY;
	}
	q->api = api;
	q->dev = node->engine_unit;
	q->depth = depth;
	q->ctx = sd_cuda_context(q->dev, why, why_len);
	if (q->ctx == NULL || !sd_cuda_push(q->ctx)) {
		if (q->ctx != NULL)
			snprintf(why, why_len, "cannot make GPU %d's context current", q->dev);
		sd_cuda_queue_free(q);
		return DOCA_ERROR_DRIVER;
	}
	res = sd_cuda_queue_fill(q);
	if (res != SD_CU_SUCCESS) {
		snprintf(why, why_len, "cannot create the streams and %u events of GPU %d: %s", depth, q->dev,
			 sd_cuda_error_text(res));
		sd_cuda_queue_free(q);
		sd_cuda_leave();
		return res == SD_CU_ERROR_OUT_OF_MEMORY ? DOCA_ERROR_NO_MEMORY : DOCA_ERROR_DRIVER;
	}
	sd_cuda_leave();
	*out = q;
	return DOCA_SUCCESS;
}

static void sd_cuda_queue_close(struct sd_engine_queue *q)
{
	bool pushed;

	if (q == NULL)
		return;
	pushed = sd_cuda_push(q->ctx);
	/* Nothing may write into the program's memory after its context stopped. */
	for (int i = 0; i < SD_CUDA_NUM_STREAMS; i++)
		(void)q->api->stream_synchronize(q->streams[i]);
	(void)q->api->stream_synchronize(q->notify);
	sd_cuda_queue_free(q);
	if (pushed)
		sd_cuda_leave();
}

/*
 * Queue one range copy.  The driver leaves overlapping ranges undefined,
 * while a DMA task copies like memmove: an overlapping pair is split into
 * pieces no longer than the distance between the ranges, issued in the
 * order that never reads a byte already overwritten.
 */
static sd_cu_result sd_cuda_copy_range(const struct sd_cuda_api *api, sd_cu_stream stream, uint8_t *dst,
				       const uint8_t *src, size_t len)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	size_t gap = d > s ? d - s : s - d;
	sd_cu_result res = SD_CU_SUCCESS;

	if (gap == 0)
		return SD_CU_SUCCESS; /* copying a range onto itself changes nothing */
	if (gap >= len)
		return api->memcpy_async(d, s, len, stream);
	if (d < s) {
		for (size_t off = 0; off < len && res == SD_CU_SUCCESS; off += gap) {
			size_t n = len - off < gap ? len - off : gap;
			res = api->memcpy_async(d + off, s + off, n, stream);
		}
		return res;
	}
	for (size_t end = len; end > 0 && res == SD_CU_SUCCESS;) {
		size_t n = end < gap ? end : gap;
		end -= n;
		res = api->memcpy_async(d + end, s + end, n, stream);
	}
	return res;
}

/* The stream of a job's direction. */
static int sd_cuda_job_stream(const struct sd_copy_job *job)
{
	bool src_gpu = false, dst_gpu = false;

	for (uint32_t i = 0; i < job->nsrc; i++)
		src_gpu |= job->src[i].gpu;
	for (uint32_t i = 0; i < job->ndst; i++)
		dst_gpu |= job->dst[i].gpu;
	return (src_gpu ? 2 : 0) | (dst_gpu ? 1 : 0);
}

/* Queue every byte of `job`: sources concatenated into the destinations. */
static sd_cu_result sd_cuda_queue_job(const struct sd_cuda_api *api, sd_cu_stream stream,
				      const struct sd_copy_job *job)
{
	uint32_t si = 0, di = 0;
	size_t soff = 0, doff = 0;
	uint64_t left = job->total;
	sd_cu_result res = SD_CU_SUCCESS;

	while (left != 0 && res == SD_CU_SUCCESS && si < job->nsrc && di < job->ndst) {
		const struct sd_seg *s = &job->src[si];
		const struct sd_seg *d = &job->dst[di];
		size_t n = s->len - soff < d->len - doff ? s->len - soff : d->len - doff;

		if (n > left)
			n = (size_t)left;
		res = sd_cuda_copy_range(api, stream, d->addr + doff, s->addr + soff, n);
		left -= n;
		soff += n;
		doff += n;
		if (soff == s->len) {
			si++;
			soff = 0;
		}
		if (doff == d->len) {
			di++;
			doff = 0;
		}
	}
	return res;
}

static doca_error_t sd_cuda_start(struct sd_engine_queue *q, uint32_t slot, const struct sd_copy_job *job)
{
	const struct sd_cuda_api *api = q->api;
	int dir = sd_cuda_job_stream(job);
	sd_cu_stream stream = q->streams[dir];
	sd_cu_result res;

	if (!sd_cuda_push(q->ctx))
		return DOCA_ERROR_IO_FAILED;
	res = sd_cuda_queue_job(api, stream, job);
	if (res == SD_CU_SUCCESS)
		res = api->event_record(q->events[slot], stream);
	if (res != SD_CU_SUCCESS) {
		/* Pieces already queued must land before the task is reported as failed. */
		(void)api->stream_synchronize(stream);
		SD_CUDA_DEBUG("GPU %d refused a %s copy of %llu bytes: %s", q->dev, sd_cuda_stream_names[dir],
			      (unsigned long long)job->total, sd_cuda_error_text(res));
	}
	sd_cuda_leave();
	return res == SD_CU_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED;
}

static bool sd_cuda_poll(struct sd_engine_queue *q, uint32_t slot, doca_error_t *status)
{
	sd_cu_result res = q->api->event_query(q->events[slot]);

	if (res == SD_CU_ERROR_NOT_READY)
		return false;
	if (res != SD_CU_SUCCESS)
		SD_CUDA_DEBUG("a copy on GPU %d failed: %s", q->dev, sd_cuda_error_text(res));
	*status = res == SD_CU_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED;
	return true;
}

static void sd_cuda_wait(struct sd_engine_queue *q, uint32_t slot)
{
	(void)q->api->event_synchronize(q->events[slot]);
}

static bool sd_cuda_arm(struct sd_engine_queue *q, uint32_t slot, void (*wake)(void *arg), void *arg)
{
	const struct sd_cuda_api *api = q->api;
	sd_cu_result res;

	if (!sd_cuda_push(q->ctx))
		return false;
	res = api->stream_wait_event(q->notify, q->events[slot], 0);
	if (res == SD_CU_SUCCESS)
		res = api->launch_host_func(q->notify, wake, arg);
	sd_cuda_leave();
	return res == SD_CU_SUCCESS;
}

static bool sd_cuda_bind(const char *pci_addr, int *unit, char *why, size_t why_len)
{
	int ordinal;

	if (sd_cuda_load(why, why_len) == NULL)
		return false;
	ordinal = sd_cuda_find_device(pci_addr);
	if (ordinal < 0) {
		snprintf(why, why_len, "no CUDA GPU has PCI address %s", pci_addr);
		return false;
	}
	*unit = ordinal;
	return true;
}

const struct sd_engine_async sd_cuda_async = {
	.bind = sd_cuda_bind,
	.queue_open = sd_cuda_queue_open,
	.queue_close = sd_cuda_queue_close,
	.start = sd_cuda_start,
	.poll = sd_cuda_poll,
	.wait = sd_cuda_wait,
	.arm = sd_cuda_arm,
	.mem_attach = sd_cuda_mem_attach,
	.mem_detach = sd_cuda_mem_detach,
};

/* GPU devices of the topology name this engine (`engine = cuda`). */
const struct sd_engine sd_cuda_engine = {
	.name = "cuda",
	.async = &sd_cuda_async,
};
