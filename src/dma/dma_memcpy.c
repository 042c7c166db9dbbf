/*
 * dma_memcpy.c - executing a memcpy task: the validation rules V1..V9 of
 * (V1..V9 of docs/decisions.md), the copy job handed to the device's
 * engine, and the append semantics (copies land at data + data_len).
 *
 * This is the per-task hot path: no allocation, no lock, no system call.
 * Segment arrays live on the stack, bounded by SD_DMA_LIST_MAX; longer
 * lists are refused by V2 before anything is written.  A task with a single
 * source and a single destination element takes a shorter path.
 *
 * Execution failures reach the task's error callback.  The rule messages
 * below are written for a user (object, rule in words, fix, then the rule's
 * code in brackets): doca_task_try_submit logs its refusal with one, and
 * doca_pe_progress logs the one ERROR record of a failed task with one
 * (src/common/debug/failure.c).
 */
#include <stddef.h>

#include <doca_dma.h>

#include "dma_priv.h"
#include "sd_log.h"

/*
 * Per-element rules.
 */

/* Tail space of a destination element: bytes after its data segment. */
static inline uint64_t sd_buf_tailroom(const struct doca_buf *b)
{
	return (uint64_t)((b->head + b->len) - (b->data + b->data_len));
}

/* Tail space left once `skip` bytes of it are taken by tasks still in flight. */
static inline uint64_t sd_room_after(uint64_t tailroom, uint64_t skip)
{
	return tailroom > skip ? tailroom - skip : 0;
}

/* V6/V7: a map the DMA instance's device can reach. */
static inline bool sd_dma_map_usable(const struct doca_mmap *m, const struct sd_device *node)
{
	if (m == NULL || m->magic != SD_MMAP_MAGIC)
		return false;
	/* Also refuses imports of RDMA exports, which never serve DMA. */
	return sd_mmap_usable_by(m, node);
}

/* V8: read right of a source map. */
static inline bool sd_dma_map_readable(const struct doca_mmap *m)
{
	if (!m->from_export)
		return true; /* local read is always granted */
	return (m->access_mask & (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)) != 0;
}

/* V9: write right of a destination map. */
static inline bool sd_dma_map_writable(const struct doca_mmap *m)
{
	if (!m->from_export)
		return sd_mmap_local_writable(m);
	return (m->access_mask & DOCA_ACCESS_FLAG_PCI_READ_WRITE) != 0;
}

/* V6/V7 of an element. */
static inline bool sd_dma_mmap_usable(const struct doca_buf *b, const struct sd_device *node)
{
	return sd_dma_map_usable(b->mmap, node);
}

/* V8 of a source element. */
static inline bool sd_dma_readable(const struct doca_buf *b)
{
	return sd_dma_map_readable(b->mmap);
}

/* V9 of a destination element. */
static inline bool sd_dma_writable(const struct doca_buf *b)
{
	return sd_dma_map_writable(b->mmap);
}

/* A copy segment for `len` bytes at `addr` inside element `b`'s mmap. */
static inline struct sd_seg sd_dma_seg(const struct doca_buf *b, uint8_t *addr, uint64_t len)
{
	struct sd_seg s = {
		.addr = addr,
		.len = (size_t)len,
		.mmap = b->mmap->from_export ? b->mmap : NULL,
		.gpu = b->mmap->mem_kind == SD_MEM_GPU,
	};
	return s;
}

/* Failure of rule `code`, with its message (see the top of the file). */
#define SD_DMA_FAIL(code, ...) SD_TASK_RULE_FAIL(code, __VA_ARGS__)

/* What keeps element `b`'s mmap from the DMA context's device (V6/V7), and the fix, in words. */
static const char *sd_dma_mmap_problem(const struct doca_buf *b)
{
	const struct doca_mmap *m = b->mmap;

	if (m == NULL || m->magic != SD_MMAP_MAGIC)
		return "it is not a live doca_mmap (destroyed while its buffers are in use?)";
	if (m->from_export && m->import_kind != SD_EXPORT_PCI)
		return "it was imported from an RDMA export, which DMA cannot use: export it with doca_mmap_export_pci";
	if (m->from_export)
		return "it was imported on another device: import it with the device the DMA context was created on";
	if (m->state != SD_MMAP_STARTED)
		return "it is not started (doca_mmap_stop while its buffers are in use?): start it with "
		       "doca_mmap_start";
	return "the device was not added to it: call doca_mmap_add_dev with the DMA context's device before "
	       "doca_mmap_start";
}

/* The fix for a destination mmap without write right (V9). */
static const char *sd_dma_write_fix(const struct doca_buf *b)
{
	if (b->mmap->from_export)
		return "was imported from an export without write access: the exporter must give it "
		       "DOCA_ACCESS_FLAG_PCI_READ_WRITE before doca_mmap_export_pci";
	return "was started without write permission: give it DOCA_ACCESS_FLAG_LOCAL_READ_WRITE with "
	       "doca_mmap_set_permissions before doca_mmap_start";
}

#define SD_DMA_V3_FIX                                                                              \
	"a copy takes its source's data segment: set one with doca_buf_set_data, or get the buffer "  \
	"with doca_buf_inventory_buf_get_by_data"
#define SD_DMA_V5_FIX                                                                              \
	"the copy is appended after the destination's data, so take the destination with "          \
	"doca_buf_inventory_buf_get_by_addr (no data) or empty it with doca_buf_reset_data_len"
#define SD_DMA_V8_FIX                                                                              \
	"the exporter must give it DOCA_ACCESS_FLAG_PCI_READ_ONLY or DOCA_ACCESS_FLAG_PCI_READ_WRITE " \
	"before doca_mmap_export_pci"

/*
 * Single-element path: src and dst are standalone buffers (or one-element
 * lists).  Same rules, same order, as the list path below.
 */
static doca_error_t sd_dma_check_one(const struct doca_dma *dma, const struct doca_buf *src,
				     const struct doca_buf *dst, uint64_t skip)
{
	uint64_t total = src->data_len;

	if (!sd_buf_is_live(src) || !sd_buf_is_live(dst))
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "its %s buffer %p was already released (its refcount reached 0): keep every buffer "
				   "of a task until the task's callback has run [V1]",
				   !sd_buf_is_live(src) ? "source" : "destination",
				   !sd_buf_is_live(src) ? (const void *)src : (const void *)dst);
	if (dma->max_list_len == 0)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "device %s allows no buffer in a task (its dma_max_list_len is 0): check the "
				   "topology file [V2]",
				   dma->node->pci_addr);
	if (total == 0)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE, "source buf %p holds no data (data_len 0): " SD_DMA_V3_FIX
				   " [V3]", (const void *)src);
	if (total > dma->max_buf_size)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "its %llu source bytes exceed device %s's limit of %llu bytes per task "
				   "(doca_dma_cap_task_memcpy_get_max_buf_size): split the copy into several tasks [V4]",
				   (unsigned long long)total, dma->node->pci_addr, (unsigned long long)dma->max_buf_size);
	if (sd_room_after(sd_buf_tailroom(dst), skip) < total) {
		if (skip == 0)
			return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
					   "destination buf %p has room for only %llu of the %llu source bytes after its "
					   "data: " SD_DMA_V5_FIX " [V5]",
					   (const void *)dst, (unsigned long long)sd_buf_tailroom(dst),
					   (unsigned long long)total);
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "destination buf %p has room for only %llu of the %llu source bytes after its data "
				   "and the %llu bytes that tasks still in flight will append to it: " SD_DMA_V5_FIX
				   " [V5]",
				   (const void *)dst, (unsigned long long)sd_room_after(sd_buf_tailroom(dst), skip),
				   (unsigned long long)total, (unsigned long long)skip);
	}
	if (!sd_dma_mmap_usable(src, dma->node))
		return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED, "source mmap %p cannot be used by device %s: %s [V6]",
				   (const void *)src->mmap, dma->node->pci_addr, sd_dma_mmap_problem(src));
	if (!sd_dma_mmap_usable(dst, dma->node))
		return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED, "destination mmap %p cannot be used by device %s: %s [V7]",
				   (const void *)dst->mmap, dma->node->pci_addr, sd_dma_mmap_problem(dst));
	if (!sd_dma_readable(src))
		return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED,
				   "source mmap %p was imported from an export without read access: " SD_DMA_V8_FIX
				   " [V8]", (const void *)src->mmap);
	if (!sd_dma_writable(dst))
		return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED, "destination mmap %p %s [V9]", (const void *)dst->mmap,
				   sd_dma_write_fix(dst));
	return DOCA_SUCCESS;
}

/*
 * List path.
 */

/*
 * Collect the elements of the list starting at `head` into `out`, at most
 * `max` of them.  Returns the count, or max + 1 when the list is longer
 * (V2); *released is set when an element is a released slot.
 */
static uint32_t sd_dma_collect(const struct doca_buf *head, uint32_t max, const struct doca_buf **out,
			       bool *released)
{
	uint32_t n = 0;

	for (const struct doca_buf *b = head; b != NULL; b = b->next) {
		if (n == max)
			return max + 1;
		if (!sd_buf_is_live(b))
			*released = true;
		out[n++] = b;
	}
	return n;
}

/* Saturating sum: a corrupt length must not wrap round and pass V4/V5. */
static inline uint64_t sd_add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

struct sd_dma_lists {
	const struct doca_buf *src[SD_DMA_LIST_MAX];
	const struct doca_buf *dst[SD_DMA_LIST_MAX];
	uint32_t nsrc, ndst;
	uint64_t total; /* S: source bytes */
};

/* V2..V9 over collected lists (V1 is checked by the caller). */
static doca_error_t sd_dma_check_lists(const struct doca_dma *dma, const struct doca_buf *src,
				       const struct doca_buf *dst, uint64_t skip, struct sd_dma_lists *l)
{
	bool released = false;
	uint64_t room = 0;

	l->nsrc = sd_dma_collect(src, dma->max_list_len, l->src, &released);
	l->ndst = sd_dma_collect(dst, dma->max_list_len, l->dst, &released);
	if (released)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "an element of its buffer lists was already released (its refcount reached 0): keep "
				   "every buffer of a task until the task's callback has run [V1]");
	if (l->nsrc > dma->max_list_len || l->ndst > dma->max_list_len)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "its %s list has more than %u elements, device %s's limit "
				   "(doca_dma_cap_task_memcpy_get_max_buf_list_len): split the copy into several tasks "
				   "[V2]",
				   l->nsrc > dma->max_list_len ? "source" : "destination", dma->max_list_len,
				   dma->node->pci_addr);

	l->total = 0;
	for (uint32_t i = 0; i < l->nsrc; i++)
		l->total = sd_add_sat(l->total, l->src[i]->data_len);
	if (l->total == 0)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "its source list (head buf %p) holds no data (every data_len is 0): " SD_DMA_V3_FIX
				   " [V3]", (const void *)src);
	if (l->total > dma->max_buf_size)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "its %llu source bytes exceed device %s's limit of %llu bytes per task "
				   "(doca_dma_cap_task_memcpy_get_max_buf_size): split the copy into several tasks [V4]",
				   (unsigned long long)l->total, dma->node->pci_addr,
				   (unsigned long long)dma->max_buf_size);
	for (uint32_t i = 0; i < l->ndst; i++)
		room = sd_add_sat(room, sd_buf_tailroom(l->dst[i]));
	room = sd_room_after(room, skip);
	if (room < l->total)
		return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
				   "its destination list (head buf %p) has room for only %llu of the %llu source bytes "
				   "after its data (and the %llu bytes that tasks still in flight will append): "
				   SD_DMA_V5_FIX " [V5]",
				   (const void *)dst, (unsigned long long)room, (unsigned long long)l->total,
				   (unsigned long long)skip);

	for (uint32_t i = 0; i < l->nsrc; i++)
		if (!sd_dma_mmap_usable(l->src[i], dma->node))
			return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED,
					   "the mmap %p of source element %u cannot be used by device %s: %s [V6]",
					   (const void *)l->src[i]->mmap, i, dma->node->pci_addr,
					   sd_dma_mmap_problem(l->src[i]));
	for (uint32_t i = 0; i < l->ndst; i++)
		if (!sd_dma_mmap_usable(l->dst[i], dma->node))
			return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED,
					   "the mmap %p of destination element %u cannot be used by device %s: %s [V7]",
					   (const void *)l->dst[i]->mmap, i, dma->node->pci_addr,
					   sd_dma_mmap_problem(l->dst[i]));
	for (uint32_t i = 0; i < l->nsrc; i++)
		if (!sd_dma_readable(l->src[i]))
			return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED,
					   "the mmap %p of source element %u was imported from an export without read "
					   "access: " SD_DMA_V8_FIX " [V8]",
					   (const void *)l->src[i]->mmap, i);
	for (uint32_t i = 0; i < l->ndst; i++)
		if (!sd_dma_writable(l->dst[i]))
			return SD_DMA_FAIL(DOCA_ERROR_NOT_PERMITTED, "the mmap %p of destination element %u %s [V9]",
					   (const void *)l->dst[i]->mmap, i, sd_dma_write_fix(l->dst[i]));
	return DOCA_SUCCESS;
}

static inline bool sd_dma_single(const struct doca_buf *src, const struct doca_buf *dst)
{
	return src->next == NULL && dst->next == NULL;
}

/* V1, first half: both buffers are set (the list walk checks released slots). */
static inline doca_error_t sd_dma_check_present(const struct doca_dma_task_memcpy *t)
{
	if (t->src != NULL && t->dst != NULL)
		return DOCA_SUCCESS;
	return SD_DMA_FAIL(DOCA_ERROR_INVALID_VALUE,
			   "its %s buffer is NULL: give the task both buffers (doca_dma_task_memcpy_alloc_init, or "
			   "doca_dma_task_memcpy_set_%s) [V1]",
			   t->src == NULL ? "source" : "destination", t->src == NULL ? "src" : "dst");
}

/* Task-type hook: rules V1..V9 in order (try_submit and execution). */
doca_error_t sd_dma_memcpy_validate(struct doca_task *task)
{
	const struct doca_dma_task_memcpy *t = (const struct doca_dma_task_memcpy *)task;
	const struct doca_dma *dma = sd_dma_of_task(task);
	struct sd_dma_lists lists;
	doca_error_t err = sd_dma_check_present(t);

	if (err != DOCA_SUCCESS)
		return err;
	if (sd_dma_single(t->src, t->dst))
		return sd_dma_check_one(dma, t->src, t->dst, 0);
	return sd_dma_check_lists(dma, t->src, t->dst, 0, &lists);
}

/* The copy of a validated one-element task: its source data after the destination's data (and `skip`). */
static inline void sd_dma_build_one_job(const struct doca_buf *src, struct doca_buf *dst, uint64_t skip,
					struct sd_dma_segs *out)
{
	out->src[0] = sd_dma_seg(src, src->data, src->data_len);
	out->dst[0] = sd_dma_seg(dst, dst->data + dst->data_len + skip, src->data_len);
	out->dst_buf[0] = dst;
	out->job = (struct sd_copy_job){ .src = out->src, .nsrc = 1, .dst = out->dst, .ndst = 1,
					 .total = src->data_len };
}

/*
 * Build the segments of a validated list task: every non-empty source data
 * segment, then destination tail spaces in list order, past the first
 * `skip` bytes, until S bytes fit (the last one trimmed).  All ranges are
 * computed before any metadata changes, so a buffer that is both source
 * and destination works.
 */
static void sd_dma_build_list_job(const struct sd_dma_lists *l, uint64_t skip, struct sd_dma_segs *out)
{
	uint32_t nsrc = 0, ndst = 0;
	uint64_t left = l->total;

	for (uint32_t i = 0; i < l->nsrc; i++) {
		const struct doca_buf *b = l->src[i];

		if (b->data_len != 0)
			out->src[nsrc++] = sd_dma_seg(b, b->data, b->data_len);
	}
	for (uint32_t i = 0; i < l->ndst && left != 0; i++) {
		/* The list walk only reads; the elements are the task's own destination. */
		struct doca_buf *b = (struct doca_buf *)l->dst[i];
		uint64_t tail = sd_buf_tailroom(b);
		uint64_t past = skip < tail ? skip : tail; /* taken by earlier tasks */
		uint64_t room = tail - past;
		uint64_t take = room < left ? room : left;

		skip -= past;
		if (take == 0)
			continue;
		out->dst_buf[ndst] = b;
		out->dst[ndst++] = sd_dma_seg(b, b->data + b->data_len + past, take);
		left -= take;
	}
	out->job = (struct sd_copy_job){ .src = out->src, .nsrc = nsrc, .dst = out->dst, .ndst = ndst,
					 .total = l->total };
}

/*
 * Asynchronous engines: check rules V1..V9 and describe the copy in `out`
 * without moving a byte; the engine runs it and sd_dma_memcpy_complete
 * applies the metadata when the task is reported.
 */
doca_error_t sd_dma_memcpy_describe(struct doca_task *task, uint64_t skip, struct sd_dma_segs *out)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	const struct doca_dma *dma = sd_dma_of_task(task);
	struct sd_dma_lists lists;
	doca_error_t err;

	err = sd_dma_check_present(t);
	if (err != DOCA_SUCCESS)
		return err;
	if (sd_dma_single(t->src, t->dst)) {
		err = sd_dma_check_one(dma, t->src, t->dst, skip);
		if (err != DOCA_SUCCESS)
			return err;
		sd_dma_build_one_job(t->src, t->dst, skip, out);
		return DOCA_SUCCESS;
	}
	err = sd_dma_check_lists(dma, t->src, t->dst, skip, &lists);
	if (err != DOCA_SUCCESS)
		return err;
	sd_dma_build_list_job(&lists, skip, out);
	return DOCA_SUCCESS;
}

/* The engine could not reach the memory of a copy (an export stopped, a mapping shrunk): the task fails. */
static __attribute__((noinline, cold)) doca_error_t sd_dma_copy_failed(doca_error_t err, uint64_t total)
{
	return SD_DMA_FAIL(err, "the engine's memory access failed while copying %llu bytes",
			   (unsigned long long)total);
}

/* Move the bytes of a described copy with the cpu engine, inside progress, and append them. */
static doca_error_t sd_dma_copy_described(const struct doca_dma *dma, const struct sd_dma_segs *segs)
{
	const struct sd_copy_job *job = &segs->job;
	doca_error_t err = DOCA_SUCCESS;

	if (dma->copy_local != NULL && sd_copy_job_is_one_local(job))
		dma->copy_local(job->dst[0].addr, job->src[0].addr, (size_t)job->total); /* this process's memory */
	else
		err = dma->engine->copy(job);
	if (err != DOCA_SUCCESS)
		return sd_dma_copy_failed(err, job->total);
	for (uint32_t i = 0; i < job->ndst; i++)
		segs->dst_buf[i]->data_len += segs->dst[i].len;
	return DOCA_SUCCESS;
}

/* Rules V1..V9 in order, then the copy (the general path of every task). */
static __attribute__((noinline)) doca_error_t sd_dma_memcpy_run(struct doca_task *task)
{
	struct sd_dma_segs segs;
	doca_error_t err = sd_dma_memcpy_describe(task, 0, &segs);

	if (err != DOCA_SUCCESS)
		return err;
	return sd_dma_copy_described(sd_dma_of_task(task), &segs);
}

/*
 * The mmap rules V6..V9 for one source and one destination map, checked in
 * full; on success the maps' seqs are remembered, so the next task on the
 * same maps needs one compare per map.  The rules' inputs cannot change
 * while a seq holds: devices and permissions of a started local map, kind,
 * device and rights of an import (sd_mem.h, start_seq).  A map without a
 * seq (0) is never remembered.
 */
static bool sd_dma_learn_pair(struct doca_dma *dma, const struct doca_mmap *src, const struct doca_mmap *dst)
{
	if (!sd_dma_map_usable(src, dma->node) || !sd_dma_map_usable(dst, dma->node) || !sd_dma_map_readable(src) ||
	    !sd_dma_map_writable(dst) || src->start_seq == 0 || dst->start_seq == 0)
		return false;
	dma->ok_src_seq = src->start_seq;
	dma->ok_dst_seq = dst->start_seq;
	return true;
}

/* A single-element task passes V1..V5 (V2..V4 folded into max_one_total), `skip` bytes taken. */
static inline bool sd_dma_one_sizes_ok(const struct doca_dma *dma, const struct doca_buf *src,
				       const struct doca_buf *dst, uint64_t skip)
{
	uint64_t total = src->data_len;

	/*
	 * total - 1: a zero-length source wraps round to UINT64_MAX and fails
	 * V3.  total + skip cannot wrap: total is at most max_one_total and
	 * skip the sum of tasks in flight on this destination, each as small.
	 */
	return sd_buf_is_live(src) && sd_buf_is_live(dst) && total - 1 < dma->max_one_total &&
	       sd_buf_tailroom(dst) >= total + skip;
}

/* Both maps were seen to pass V6..V9 under their current seqs. */
static inline bool sd_dma_pair_known(const struct doca_dma *dma, const struct doca_buf *src,
				     const struct doca_buf *dst)
{
	return src->mmap->start_seq == dma->ok_src_seq && dst->mmap->start_seq == dma->ok_dst_seq;
}

/* Both maps are this process's own memory. */
static inline bool sd_dma_pair_local(const struct doca_buf *src, const struct doca_buf *dst)
{
	return !src->mmap->from_export && !dst->mmap->from_export;
}

/* Copy a validated one-element local task and append it to the destination. */
static inline doca_error_t sd_dma_copy_one_local(const struct doca_dma *dma, const struct doca_buf *src,
						 struct doca_buf *dst)
{
	uint64_t len = src->data_len;
	uint8_t *to = dst->data + dst->data_len;

	/* Nothing reads data_len before the copy returns; updating it first keeps the call last. */
	dst->data_len += len;
	dma->copy_local(to, src->data, (size_t)len);
	return DOCA_SUCCESS;
}

/*
 * Copy a validated one-element task with an import on either side through
 * the engine (whose access hooks guard the exporter's memory) and append
 * it: the general path's copy without describing a list.
 */
static __attribute__((noinline)) doca_error_t sd_dma_copy_one_engine(const struct doca_dma *dma,
								     const struct doca_buf *src, struct doca_buf *dst)
{
	struct sd_seg s = sd_dma_seg(src, src->data, src->data_len);
	struct sd_seg d = sd_dma_seg(dst, dst->data + dst->data_len, src->data_len);
	struct sd_copy_job job = {.src = &s, .nsrc = 1, .dst = &d, .ndst = 1, .total = src->data_len};
	doca_error_t err = dma->engine->copy(&job);

	if (err != DOCA_SUCCESS)
		return sd_dma_copy_failed(err, job.total);
	dst->data_len += job.total;
	return DOCA_SUCCESS;
}

/*
 * Exactly one side is an import reached through its read/write hooks
 * alone (no direct mapping offered), the other this process's memory.
 */
static inline bool sd_dma_one_side_hooked(const struct doca_buf *src, const struct doca_buf *dst)
{
	const struct doca_mmap *imp = src->mmap->from_export ? src->mmap : dst->mmap;

	return src->mmap->from_export != dst->mmap->from_export && imp->remote != NULL && imp->remote->direct == NULL;
}

/*
 * Copy a validated one-element task between local memory and an import
 * with the import's own hook, on an engine that copies on this thread
 * (copy_local set: the cpu engine), and append it.  It is the call the
 * cpu engine makes for such a job (cpu.c, sd_cpu_piece), made without
 * describing the job and dispatching it through the engine: at 64 KiB
 * that walk cost about 10 ns a task, 1.5-2% of the copy (issue 22,
 * copy95).  The hook keeps everything the import's access path does: the
 * SIGBUS guard, the liveness checks and IO_FAILED for a stopped export.
 */
static __attribute__((noinline)) doca_error_t sd_dma_copy_one_hooked(const struct doca_buf *src, struct doca_buf *dst)
{
	uint64_t len = src->data_len;
	uint8_t *to = dst->data + dst->data_len;
	struct doca_mmap *m;
	doca_error_t err;

	if (src->mmap->from_export) {
		m = src->mmap;
		err = m->remote->read(m, to, (uint64_t)(uintptr_t)src->data, (size_t)len);
	} else {
		m = dst->mmap;
		err = m->remote->write(m, (uint64_t)(uintptr_t)to, src->data, (size_t)len);
	}
	/* As the cpu engine reports it: any failure to reach the memory is an I/O failure. */
	if (err != DOCA_SUCCESS)
		return sd_dma_copy_failed(DOCA_ERROR_IO_FAILED, len);
	dst->data_len += len;
	return DOCA_SUCCESS;
}

/* Copy a one-element task whose sizes and maps passed V1..V9. */
static inline doca_error_t sd_dma_copy_one_known(const struct doca_dma *dma, const struct doca_buf *src,
						 struct doca_buf *dst)
{
	if (dma->copy_local != NULL && sd_dma_pair_local(src, dst))
		return sd_dma_copy_one_local(dma, src, dst);
	if (dma->copy_local != NULL && sd_dma_one_side_hooked(src, dst))
		return sd_dma_copy_one_hooked(src, dst);
	return sd_dma_copy_one_engine(dma, src, dst);
}

/*
 * Everything but a one-element task on known maps: learn a new pair of
 * maps, or take the general path, which checks the rules in order and
 * names the first broken one.
 */
static __attribute__((noinline)) doca_error_t sd_dma_memcpy_execute_slow(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	struct doca_dma *dma = sd_dma_of_task(task);
	const struct doca_buf *src = t->src;
	struct doca_buf *dst = t->dst;

	if (src != NULL && dst != NULL && sd_dma_single(src, dst) && sd_dma_one_sizes_ok(dma, src, dst, 0) &&
	    sd_dma_learn_pair(dma, src->mmap, dst->mmap))
		return sd_dma_copy_one_known(dma, src, dst);
	return sd_dma_memcpy_run(task);
}

/*
 * Task-type hook: validate, copy, append (inside doca_pe_progress).  The
 * common task, one range into one range on maps that already passed
 * V6..V9 (local, or an import), costs a few loads and compares here.
 * Only a yes is trusted: any other task goes the slow way, so this test
 * may be stricter than the rules but never looser.
 */
static doca_error_t sd_dma_memcpy_execute(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	struct doca_dma *dma = sd_dma_of_task(task);
	const struct doca_buf *src = t->src;
	struct doca_buf *dst = t->dst;

	if (src != NULL && dst != NULL && sd_dma_single(src, dst) && sd_dma_one_sizes_ok(dma, src, dst, 0) &&
	    sd_dma_pair_known(dma, src, dst))
		return sd_dma_copy_one_known(dma, src, dst);
	return sd_dma_memcpy_execute_slow(task);
}

bool sd_dma_memcpy_one(struct doca_dma *dma, const struct doca_dma_task_memcpy *t, uint64_t skip,
		       struct sd_seg *from, struct sd_seg *to)
{
	const struct doca_buf *src = t->src;
	const struct doca_buf *dst = t->dst;

	if (src == NULL || dst == NULL || !sd_dma_single(src, dst) || !sd_dma_one_sizes_ok(dma, src, dst, skip))
		return false;
	if (!sd_dma_pair_known(dma, src, dst) && !sd_dma_learn_pair(dma, src->mmap, dst->mmap))
		return false;
	*from = sd_dma_seg(src, src->data, src->data_len);
	*to = sd_dma_seg(dst, dst->data + dst->data_len + skip, src->data_len);
	return true;
}

/*
 * Append the copied bytes: the same placement the copy used.
 * Tasks on one destination are reported in the order they were submitted,
 * so the bytes of this task start right after the destination's data.
 */
static void sd_dma_memcpy_append(struct doca_dma_task_memcpy *t)
{
	uint64_t left = 0;

	for (const struct doca_buf *b = t->src; b != NULL; b = b->next)
		left += b->data_len;
	for (struct doca_buf *b = t->dst; b != NULL && left != 0; b = b->next) {
		uint64_t room = sd_buf_tailroom(b);
		uint64_t take = room < left ? room : left;

		b->data_len += take;
		left -= take;
	}
}

/* Task-type hook of asynchronous engines: append on success, give back the reservation. */
void sd_dma_memcpy_complete(struct doca_task *task, doca_error_t status)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	struct doca_buf *anchor = t->dst;

	if (t->reserved == 0) {
		if (status == DOCA_SUCCESS)
			sd_dma_memcpy_append(t);
		return;
	}
	if (status == DOCA_SUCCESS) {
		if (anchor->next == NULL)
			anchor->data_len += t->reserved; /* one destination: all the bytes land in it */
		else
			sd_dma_memcpy_append(t);
	}
	/*
	 * Appended bytes stop being a reservation.  Those of a failed or
	 * flushed task stay reserved while other tasks on the destination are
	 * in flight (their copies were placed after them), and go once none is.
	 */
	if (status == DOCA_SUCCESS)
		anchor->dma_reserved -= t->reserved < anchor->dma_reserved ? t->reserved : anchor->dma_reserved;
	if (anchor->dma_writers > 0 && --anchor->dma_writers == 0)
		anchor->dma_reserved = 0;
	t->reserved = 0;
}

/* Task-type hook: call the application's typed memcpy callback. */
void sd_dma_memcpy_invoke(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud,
			  void (*cb)(void))
{
	doca_dma_task_memcpy_completion_cb_t fn = (doca_dma_task_memcpy_completion_cb_t)cb;

	fn((struct doca_dma_task_memcpy *)task, task_ud, ctx_ud);
}

const struct sd_task_ops sd_dma_memcpy_ops = {
	.name = "memcpy",
	.task_size = sizeof(struct doca_dma_task_memcpy),
	.validate = sd_dma_memcpy_validate,
	.execute = sd_dma_memcpy_execute,
	.invoke = sd_dma_memcpy_invoke,
	.failure_is_fatal = true,
};
