/*
 * comch_fp_queue.c - the post queue a consumer shares with the producers of
 * the other side (layout in comch_fp_priv.h).
 *
 * The consumer owns the file (a memfd) and is the only writer of the ring
 * and of post_tail; producers advance post_head with a compare-and-swap,
 * so several producers never take the same slot.  A slot returns to the
 * ring only after its post-receive task completed, so at most `nslots`
 * posts are outstanding and the ring never wraps onto a live entry.
 *
 * The other side maps the file through /proc/PID/fd/N: the kernel checks
 * that it may (same user, same PID namespace), as for the shared-mapping
 * transport of exported mmaps.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

size_t sd_fp_queue_size(uint32_t nslots)
{
	size_t raw = sizeof(struct sd_fp_queue) + (size_t)nslots * sizeof(uint32_t);
	size_t page = 4096;

	raw = (raw + 63u) & ~(size_t)63u; /* slots start on a cache line */
	raw += (size_t)nslots * sizeof(struct sd_fp_slot);
	return (raw + page - 1) / page * page;
}

_Atomic uint32_t *sd_fp_queue_ring(struct sd_fp_queue *q)
{
	return (_Atomic uint32_t *)(q + 1);
}

struct sd_fp_slot *sd_fp_queue_slots(struct sd_fp_queue *q)
{
	size_t off = sizeof(struct sd_fp_queue) + (size_t)q->nslots * sizeof(uint32_t);

	off = (off + 63u) & ~(size_t)63u;
	return (struct sd_fp_slot *)((uint8_t *)q + off);
}

doca_error_t sd_fp_queue_create(uint32_t nslots, uint32_t imm_len, int *fd, struct sd_fp_queue **q, size_t *len,
				const char *func)
{
	size_t size = sd_fp_queue_size(nslots);
	int mfd = memfd_create("softdoca-comch-fp", MFD_CLOEXEC);
	void *mem;

	*fd = -1;
	if (mfd < 0 || ftruncate(mfd, (off_t)size) != 0) {
		SD_LOG_ERR_AS(func, "cannot create the consumer's post queue (%zu bytes): %s. Fix: check the memory "
				    "limits of the process (memfd_create, RLIMIT_AS)",
			      size, strerror(errno));
		if (mfd >= 0)
			close(mfd);
		return DOCA_ERROR_NO_MEMORY;
	}
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (mem == MAP_FAILED) {
		SD_LOG_ERR_AS(func, "cannot map the consumer's post queue: %s", strerror(errno));
		close(mfd);
		return DOCA_ERROR_NO_MEMORY;
	}
	*q = mem;
	(*q)->magic = SD_FP_QUEUE_MAGIC;
	(*q)->version = SD_FP_QUEUE_VERSION;
	(*q)->nslots = nslots;
	(*q)->imm_len = imm_len;
	*fd = mfd;
	*len = size;
	return DOCA_SUCCESS;
}

doca_error_t sd_fp_queue_open(uint32_t pid, int32_t fd, uint32_t nslots, struct sd_fp_queue **q, size_t *len)
{
	char path[64];
	size_t size = sd_fp_queue_size(nslots);
	struct stat st;
	void *mem;
	int qfd;

	if (fd < 0 || nslots == 0 || nslots > SD_FP_MAX_TASKS)
		return DOCA_ERROR_INVALID_VALUE;
	snprintf(path, sizeof(path), "/proc/%u/fd/%d", pid, fd);
	qfd = open(path, O_RDWR | O_CLOEXEC);
	if (qfd < 0)
		return DOCA_ERROR_NOT_SUPPORTED;
	if (fstat(qfd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < size) {
		close(qfd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, qfd, 0);
	close(qfd);
	if (mem == MAP_FAILED)
		return DOCA_ERROR_NO_MEMORY;
	*q = mem;
	if ((*q)->magic != SD_FP_QUEUE_MAGIC || (*q)->version != SD_FP_QUEUE_VERSION || (*q)->nslots != nslots) {
		munmap(mem, size);
		*q = NULL;
		return DOCA_ERROR_INVALID_VALUE;
	}
	*len = size;
	return DOCA_SUCCESS;
}

void sd_fp_queue_unmap(struct sd_fp_queue *q, size_t len)
{
	if (q != NULL)
		munmap(q, len);
}

void sd_fp_queue_post(struct sd_fp_queue *q, uint32_t slot, uint64_t raddr, uint64_t cap)
{
	struct sd_fp_slot *s = &sd_fp_queue_slots(q)[slot];
	uint64_t tail = atomic_load_explicit(&q->post_tail, memory_order_relaxed);

	s->raddr = raddr;
	s->cap = cap;
	s->len = 0;
	s->imm_len = 0;
	atomic_store_explicit(&s->state, SD_FP_SLOT_POSTED, memory_order_relaxed);
	atomic_store_explicit(&sd_fp_queue_ring(q)[tail % q->nslots], slot, memory_order_relaxed);
	atomic_store_explicit(&q->post_tail, tail + 1, memory_order_release);
}

doca_error_t sd_fp_queue_claim(struct sd_fp_queue *q, uint32_t nslots, uint64_t len, struct sd_fp_slot **slot,
			       uint64_t *room)
{
	_Atomic uint32_t *ring = sd_fp_queue_ring(q);
	struct sd_fp_slot *slots = sd_fp_queue_slots(q);

	/* Bounded: a claim that keeps losing the race answers AGAIN instead of spinning. */
	for (int attempt = 0; attempt < 64; attempt++) {
		uint64_t head = atomic_load_explicit(&q->post_head, memory_order_acquire);
		uint64_t tail = atomic_load_explicit(&q->post_tail, memory_order_acquire);
		uint32_t idx;
		struct sd_fp_slot *s;

		if (atomic_load_explicit(&q->closed, memory_order_acquire) != 0)
			return DOCA_ERROR_NOT_FOUND;
		if (head == tail || tail - head > nslots)
			return DOCA_ERROR_AGAIN; /* nothing posted (or a tail no consumer writes) */
		idx = atomic_load_explicit(&ring[head % nslots], memory_order_relaxed);
		if (idx >= nslots)
			return DOCA_ERROR_AGAIN;
		s = &slots[idx];
		if (atomic_load_explicit(&s->state, memory_order_acquire) != SD_FP_SLOT_POSTED)
			continue; /* another producer is ahead of us */
		if (s->cap < len) {
			*room = s->cap;
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!atomic_compare_exchange_weak_explicit(&q->post_head, &head, head + 1, memory_order_acq_rel,
							   memory_order_relaxed))
			continue;
		atomic_store_explicit(&s->state, SD_FP_SLOT_CLAIMED, memory_order_relaxed);
		*slot = s;
		return DOCA_SUCCESS;
	}
	return DOCA_ERROR_AGAIN;
}

/* ---- framed consumers (Comch over TCP): the queue's two copies ---- */

doca_error_t sd_fp_queue_mirror(uint32_t nslots, uint32_t imm_len, struct sd_fp_queue **q, size_t *len)
{
	size_t size = sd_fp_queue_size(nslots);
	void *mem = NULL;

	if (nslots == 0 || nslots > SD_FP_MAX_TASKS || posix_memalign(&mem, 64, size) != 0)
		return DOCA_ERROR_NO_MEMORY;
	memset(mem, 0, size);
	*q = mem;
	(*q)->magic = SD_FP_QUEUE_MAGIC;
	(*q)->version = SD_FP_QUEUE_VERSION;
	(*q)->nslots = nslots;
	(*q)->imm_len = imm_len;
	*len = size;
	return DOCA_SUCCESS;
}

void sd_fp_queue_mirror_free(struct sd_fp_queue *q)
{
	free(q);
}

/*
 * Other side: a post the framed consumer sent.  Refused (false) when it
 * names a slot that does not exist or is lent already, or when the ring is
 * full: a consumer that follows the rules never does either, since a slot
 * is posted again only after its message was claimed.
 */
bool sd_fp_queue_apply_post(struct sd_fp_queue *mirror, const struct sd_wire_fp_post *p)
{
	uint64_t head = atomic_load_explicit(&mirror->post_head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&mirror->post_tail, memory_order_relaxed);
	uint32_t state;

	if (p->slot >= mirror->nslots || tail - head >= mirror->nslots)
		return false;
	state = atomic_load_explicit(&sd_fp_queue_slots(mirror)[p->slot].state, memory_order_relaxed);
	if (state == SD_FP_SLOT_POSTED || state == SD_FP_SLOT_CLAIMED)
		return false;
	sd_fp_queue_post(mirror, p->slot, p->raddr, p->cap);
	return true;
}

/*
 * Framed consumer: the other side says a message landed in slot f->slot.
 * Refused (false) unless that slot is posted, the length fits the room it
 * was posted with (or says the copy failed) and the immediate data fits
 * the consumer's length.  On success the slot is filled, as a producer on
 * this machine would have left it.
 */
bool sd_fp_queue_apply_filled(struct sd_fp_queue *q, const struct sd_wire_fp_filled *f)
{
	struct sd_fp_slot *s;

	if (f->slot >= q->nslots)
		return false;
	s = &sd_fp_queue_slots(q)[f->slot];
	if (atomic_load_explicit(&s->state, memory_order_relaxed) != SD_FP_SLOT_POSTED ||
	    (f->len > s->cap && f->len != SD_FP_LEN_FAILED) || f->imm_len > q->imm_len || f->imm_len > SD_FP_MAX_IMM)
		return false;
	s->producer_id = f->producer_id;
	s->imm_len = f->imm_len;
	memcpy(s->imm, f->imm, f->imm_len);
	s->len = f->len;
	atomic_store_explicit(&s->state, SD_FP_SLOT_FILLED, memory_order_release);
	return true;
}
