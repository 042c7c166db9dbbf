/*
 * cpu.c - the default engine: the calling thread moves the bytes, inside
 * the doca_pe_progress call that reports the task.
 *
 * Local segments are copied with memmove, piece by piece, so overlapping
 * ranges inside one buffer behave.  Segments of an imported mmap are reached
 * only through that mmap's access hooks (the memory layer's cross-process
 * path); the engine never dereferences an exporter address itself.
 */
#include <string.h>

#include "engine_priv.h"
#include "sd_mem.h"

/* Bounce buffer for a piece whose source and destination are both remote. */
#define SD_CPU_BOUNCE 4096u

/* Local pointer to `len` bytes at offset `off` of remote segment `s`, if mapped directly. */
static void *sd_cpu_direct(const struct sd_seg *s, size_t off, size_t len)
{
	const struct sd_mem_remote_ops *ops = s->mmap->remote;

	if (ops->direct == NULL)
		return NULL;
	return ops->direct(s->mmap, (uint64_t)(uintptr_t)s->addr + off, len);
}

static doca_error_t sd_cpu_remote_read(const struct sd_seg *s, size_t off, void *dst, size_t len)
{
	void *p = sd_cpu_direct(s, off, len);

	if (p != NULL) {
		memmove(dst, p, len);
		return DOCA_SUCCESS;
	}
	return s->mmap->remote->read(s->mmap, dst, (uint64_t)(uintptr_t)s->addr + off, len);
}

static doca_error_t sd_cpu_remote_write(const struct sd_seg *s, size_t off, const void *src, size_t len)
{
	void *p = sd_cpu_direct(s, off, len);

	if (p != NULL) {
		memmove(p, src, len);
		return DOCA_SUCCESS;
	}
	return s->mmap->remote->write(s->mmap, (uint64_t)(uintptr_t)s->addr + off, src, len);
}

/*
 * Local copy: memmove, since a buffer may be copied into its own tail space.
 * No overlap test of our own to pick memcpy instead:
 * glibc resolves memcpy and memmove to the same routine on x86-64 (one
 * implementation handles both), and elsewhere memmove's own test costs the
 * same as ours would.
 */
static inline void sd_cpu_move(uint8_t *dst, const uint8_t *src, size_t len)
{
	memmove(dst, src, len);
}

/* Both ends remote: stage the piece through a small stack buffer. */
static doca_error_t sd_cpu_remote_to_remote(const struct sd_seg *d, size_t doff, const struct sd_seg *s,
					    size_t soff, size_t len)
{
	uint8_t bounce[SD_CPU_BOUNCE];

	while (len != 0) {
		size_t n = len < sizeof(bounce) ? len : sizeof(bounce);
		doca_error_t err = sd_cpu_remote_read(s, soff, bounce, n);

		if (err == DOCA_SUCCESS)
			err = sd_cpu_remote_write(d, doff, bounce, n);
		if (err != DOCA_SUCCESS)
			return err;
		soff += n;
		doff += n;
		len -= n;
	}
	return DOCA_SUCCESS;
}

/* Copy `len` bytes from offset `soff` of `s` to offset `doff` of `d`. */
static doca_error_t sd_cpu_piece(const struct sd_seg *d, size_t doff, const struct sd_seg *s, size_t soff,
				 size_t len)
{
	bool src_remote = s->mmap != NULL;
	bool dst_remote = d->mmap != NULL;

	if (!src_remote && !dst_remote) {
		sd_cpu_move(d->addr + doff, s->addr + soff, len);
		return DOCA_SUCCESS;
	}
	/* An imported mmap whose access path is gone cannot be reached at all. */
	if ((src_remote && s->mmap->remote == NULL) || (dst_remote && d->mmap->remote == NULL))
		return DOCA_ERROR_IO_FAILED;
	if (src_remote && dst_remote)
		return sd_cpu_remote_to_remote(d, doff, s, soff, len);
	if (src_remote)
		return sd_cpu_remote_read(s, soff, d->addr + doff, len);
	return sd_cpu_remote_write(d, doff, s->addr + soff, len);
}

/* Concatenate the sources into the destinations, each filled before the next. */
static doca_error_t sd_cpu_copy(const struct sd_copy_job *job)
{
	uint32_t si = 0, di = 0;
	size_t soff = 0, doff = 0;
	uint64_t left = job->total;

	if (sd_copy_job_is_one_local(job)) {
		sd_cpu_move(job->dst[0].addr, job->src[0].addr, (size_t)job->total);
		return DOCA_SUCCESS;
	}
	/* One range each, an import on either side (the common host/DPU task): no walk of the lists. */
	if (job->total != 0 && sd_copy_job_is_one_range(job))
		return sd_cpu_piece(&job->dst[0], 0, &job->src[0], 0, (size_t)job->total) == DOCA_SUCCESS
			       ? DOCA_SUCCESS
			       : DOCA_ERROR_IO_FAILED;

	while (left != 0) {
		const struct sd_seg *s, *d;
		size_t n;
		doca_error_t err;

		/* Zero-length or used-up segments are skipped; running out is a malformed job. */
		while (si < job->nsrc && soff == job->src[si].len) {
			si++;
			soff = 0;
		}
		while (di < job->ndst && doff == job->dst[di].len) {
			di++;
			doff = 0;
		}
		if (si == job->nsrc || di == job->ndst)
			return DOCA_ERROR_IO_FAILED;

		s = &job->src[si];
		d = &job->dst[di];
		n = s->len - soff;
		if (d->len - doff < n)
			n = d->len - doff;
		if (left < n)
			n = (size_t)left;

		err = sd_cpu_piece(d, doff, s, soff, n);
		if (err != DOCA_SUCCESS)
			return DOCA_ERROR_IO_FAILED;
		soff += n;
		doff += n;
		left -= n;
	}
	return DOCA_SUCCESS;
}

static void sd_cpu_copy_local(uint8_t *dst, const uint8_t *src, size_t len)
{
	sd_cpu_move(dst, src, len);
}

const struct sd_engine sd_cpu_engine = {
	.name = "cpu",
	.copy = sd_cpu_copy,
	.copy_local = sd_cpu_copy_local,
};
