/*
 * fakecuda_mem.c - "device memory" and pinned host ranges of fakecuda.
 *
 * cuMemAlloc hands out aligned host memory and remembers the block;
 * cuMemHostRegister remembers a host range.  Both live in one list
 * (fc.ranges) so that a copy can be checked against them: an asynchronous
 * copy may only touch device blocks and registered ranges, and may not run
 * off their ends.  A copy pins the ranges it touches (inflight) until it has
 * run, and freeing or unregistering waits for that, as the driver's
 * implicit synchronisation would; so a queued copy never touches freed
 * memory.
 */
#include "fakecuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The driver aligns allocations to at least 256 bytes. */
#define FC_DEVICE_ALIGN 256
/* Fresh "device memory" holds this byte, never zeros by luck. */
#define FC_DEVICE_FILL 0xA5

/* Register flags the driver knows: portable, device-map, io-memory, read-only. */
#define FC_REGISTER_FLAGS 0xFu

/* The range that contains addr; device blocks first (lock held). */
static struct fc_range *fc_range_at(uintptr_t addr)
{
	struct fc_range *host = NULL;

	for (struct fc_range *r = fc.ranges; r != NULL; r = r->next) {
		if (addr < r->base || addr - r->base >= r->len)
			continue;
		if (r->device)
			return r;
		host = r;
	}
	return host;
}

static bool fc_overlaps(const struct fc_range *r, uintptr_t base, size_t len)
{
	return base < r->base + r->len && r->base < base + len;
}

/*
 * fc_copy_range - check one side of a copy and pin the range it lies in.
 * *out is NULL for pageable memory (only when allow_pageable).
 */
sd_cu_result fc_copy_range(uintptr_t addr, size_t len, bool allow_pageable, struct fc_range **out)
{
	struct fc_range *r;

	*out = NULL;
	if (addr == 0 || len > UINTPTR_MAX - addr)
		return SD_CU_ERROR_INVALID_VALUE;
	r = fc_range_at(addr);
	if (r == NULL)
		return allow_pageable ? SD_CU_SUCCESS : SD_CU_ERROR_INVALID_VALUE;
	if (len > r->len - (addr - r->base))
		return SD_CU_ERROR_INVALID_VALUE;
	r->inflight++;
	*out = r;
	return SD_CU_SUCCESS;
}

void fc_range_unpin(struct fc_range *r)
{
	if (r == NULL)
		return;
	r->inflight--;
	if (r->inflight == 0)
		fc_progress();
}

int fc_ranges_of_ctx(sd_cu_ctx ctx)
{
	int n = 0;

	for (struct fc_range *r = fc.ranges; r != NULL; r = r->next)
		n += r->ctx == ctx;
	return n;
}

/* Unlinks the range that starts at base, of the given kind. */
static struct fc_range *fc_range_take(uintptr_t base, bool device)
{
	for (struct fc_range **link = &fc.ranges; *link != NULL; link = &(*link)->next) {
		struct fc_range *r = *link;

		if (r->base == base && r->device == device) {
			*link = r->next;
			return r;
		}
	}
	return NULL;
}

/* Waits until no queued copy touches r any more (lock held). */
static void fc_range_drain(struct fc_range *r)
{
	while (r->inflight > 0)
		fc_wait();
}

static struct fc_range *fc_range_add(uintptr_t base, size_t len, bool device, sd_cu_ctx ctx)
{
	struct fc_range *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->base = base;
	r->len = len;
	r->device = device;
	r->ctx = ctx;
	r->next = fc.ranges;
	fc.ranges = r;
	return r;
}

sd_cu_result cuMemAlloc_v2(sd_cu_ptr *ptr, size_t len)
{
	sd_cu_ctx ctx;
	sd_cu_result rc;
	void *block = NULL;

	fc_lock();
	rc = fc_current_ctx(&ctx);
	if (rc == SD_CU_SUCCESS && (ptr == NULL || len == 0 || len > SIZE_MAX - FC_DEVICE_ALIGN))
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS) {
		size_t rounded = (len + FC_DEVICE_ALIGN - 1) & ~(size_t)(FC_DEVICE_ALIGN - 1);

		block = aligned_alloc(FC_DEVICE_ALIGN, rounded);
		if (block == NULL || fc_range_add((uintptr_t)block, len, true, ctx) == NULL)
			rc = SD_CU_ERROR_OUT_OF_MEMORY;
	}
	if (rc == SD_CU_SUCCESS) {
		memset(block, FC_DEVICE_FILL, len);
		fc.stats.device_allocations++;
		*ptr = (sd_cu_ptr)(uintptr_t)block;
	} else {
		free(block);
	}
	fc_unlock();
	return rc;
}

/* Only the start of a live block; waits for queued copies that use it. */
sd_cu_result cuMemFree_v2(sd_cu_ptr ptr)
{
	struct fc_range *r = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS) {
		r = fc_range_take((uintptr_t)ptr, true);
		if (r == NULL)
			rc = SD_CU_ERROR_INVALID_VALUE;
	}
	if (r != NULL) {
		fc_range_drain(r);
		fc.stats.device_allocations--;
		free((void *)r->base);
		free(r);
	}
	fc_unlock();
	return rc;
}

/* Overlap with a registered range is the driver's 712; with a device block
 * (memory the driver itself handed out) plain INVALID_VALUE. */
static sd_cu_result fc_register_check(uintptr_t base, size_t len)
{
	for (struct fc_range *r = fc.ranges; r != NULL; r = r->next) {
		if (!fc_overlaps(r, base, len))
			continue;
		return r->device ? SD_CU_ERROR_INVALID_VALUE
				 : SD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	}
	return SD_CU_SUCCESS;
}

sd_cu_result cuMemHostRegister_v2(void *p, size_t len, unsigned int flags)
{
	uintptr_t base = (uintptr_t)p;
	sd_cu_ctx ctx;
	sd_cu_result rc;

	fc_lock();
	rc = fc_current_ctx(&ctx);
	if (rc == SD_CU_SUCCESS &&
	    (p == NULL || len == 0 || len > UINTPTR_MAX - base || (flags & ~FC_REGISTER_FLAGS) != 0))
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS && fc.cfg.refuse_pinning)
		rc = SD_CU_ERROR_NOT_SUPPORTED; /* as in sandboxes that forbid pinning */
	if (rc == SD_CU_SUCCESS)
		rc = fc_register_check(base, len);
	if (rc == SD_CU_SUCCESS && fc_range_add(base, len, false, ctx) == NULL)
		rc = SD_CU_ERROR_OUT_OF_MEMORY;
	if (rc == SD_CU_SUCCESS) {
		fc.stats.registered_ranges++;
		fc.stats.register_calls++;
	}
	fc_unlock();
	return rc;
}

/* Only the exact start of a registration; waits for queued copies using it. */
sd_cu_result cuMemHostUnregister(void *p)
{
	struct fc_range *r = NULL;
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS) {
		r = fc_range_take((uintptr_t)p, false);
		if (r == NULL)
			rc = SD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED;
	}
	if (r != NULL) {
		fc_range_drain(r);
		fc.stats.registered_ranges--;
		fc.stats.unregister_calls++;
		free(r);
	}
	fc_unlock();
	return rc;
}

/* Only the memory-type attribute; pageable memory is unknown to the driver. */
sd_cu_result cuPointerGetAttribute(void *data, int attribute, sd_cu_ptr ptr)
{
	struct fc_range *r;
	sd_cu_result rc;

	fc_lock();
	rc = fc_ready();
	if (rc == SD_CU_SUCCESS && (data == NULL || attribute != SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE))
		rc = SD_CU_ERROR_INVALID_VALUE;
	if (rc == SD_CU_SUCCESS) {
		r = fc_range_at((uintptr_t)ptr);
		if (r == NULL)
			rc = SD_CU_ERROR_INVALID_VALUE;
		else
			*(unsigned int *)data = r->device ? SD_CU_MEMORYTYPE_DEVICE : SD_CU_MEMORYTYPE_HOST;
	}
	fc_unlock();
	return rc;
}

/*
 * Synchronous copy: pageable host memory is allowed (as in the driver),
 * but a range that runs off a block or registration is refused.
 */
sd_cu_result cuMemcpy(sd_cu_ptr dst, sd_cu_ptr src, size_t len)
{
	struct fc_range *dst_range = NULL, *src_range = NULL;
	sd_cu_ctx ctx;
	sd_cu_result rc;

	fc_lock();
	rc = fc_current_ctx(&ctx);
	if (rc == SD_CU_SUCCESS)
		rc = fc_copy_range((uintptr_t)dst, len, true, &dst_range);
	if (rc == SD_CU_SUCCESS)
		rc = fc_copy_range((uintptr_t)src, len, true, &src_range);
	if (rc == SD_CU_SUCCESS) {
		fc_unlock();
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, len);
		fc_lock();
		fc.stats.sync_copies++;
	}
	fc_range_unpin(dst_range);
	fc_range_unpin(src_range);
	fc_unlock();
	return rc;
}

/* At unload: frees the blocks and the bookkeeping (lock held). */
void fc_ranges_unload(void)
{
	int device = 0, host = 0;

	while (fc.ranges != NULL) {
		struct fc_range *r = fc.ranges;

		fc.ranges = r->next;
		if (r->device) {
			device++;
			free((void *)r->base);
		} else {
			host++;
		}
		free(r);
	}
	if (device + host > 0)
		fprintf(stderr, "fakecuda: unloaded with %d device blocks and %d registrations alive\n",
			device, host);
}
