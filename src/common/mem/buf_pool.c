/*
 * buf_pool.c - equally sized buffers carved out of one mmap.
 *
 * Descriptors are allocated once, at create.  Start lays the elements out:
 * the first one at the mmap start rounded up to the alignment, then one
 * every `stride` bytes (element size rounded up to the alignment).  Each
 * descriptor is bound to its element for the pool's life; free descriptors
 * form a LIFO list through their `next` field.
 *
 * A pool pins its mmap: the mmap cannot be destroyed while the pool exists,
 * nor stopped while the pool is started.
 */
#include <stdlib.h>

#include <doca_buf_pool.h>

#include "mem_priv.h"
#include "sd_debug.h"
#include "sd_log.h"
#include "sd_mem.h"

#define SD_POOL_MAGIC 0x504f4f4cu /* "POOL" */

struct doca_buf_pool {
	uint32_t magic;
	bool started;
	uint32_t num_elements;
	uint32_t num_free;
	size_t element_size;
	size_t alignment;
	struct doca_mmap *mmap;
	struct sd_buf_slot *slots;  /* num_elements descriptors */
	struct doca_buf *free_list; /* linked through doca_buf.next */
	union doca_data user_data;
};

static bool sd_pool_valid(const struct doca_buf_pool *pool)
{
	return pool != NULL && pool->magic == SD_POOL_MAGIC;
}

#define SD_POOL_REQUIRE(p)                                                                         \
	do {                                                                                       \
		if (!sd_pool_valid(p))                                                             \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "buf_pool %p is NULL or not a live doca_buf_pool",        \
					 (const void *)(p));                                       \
	} while (0)

#define SD_POOL_REQUIRE_NOT_STARTED(p)                                                             \
	do {                                                                                       \
		if ((p)->started)                                                                  \
			return SD_REJECT(DOCA_ERROR_BAD_STATE,                                     \
					 "buf_pool %p is started; stop it before changing it",     \
					 (const void *)(p));                                       \
	} while (0)

#define SD_POOL_REQUIRE_NO_BUFS_OUT(p, what)                                                       \
	do {                                                                                       \
		if ((p)->num_free != (p)->num_elements)                                            \
			return SD_REJECT(DOCA_ERROR_IN_USE,                                        \
					 "buf_pool %p still has %u buffer(s) out; release them before %s", \
					 (const void *)(p), (p)->num_elements - (p)->num_free, what); \
	} while (0)

/* The exit report's count of a live pool (see sd_alive_add_bufs). */
static void sd_pool_count_bufs(const void *obj, uint32_t *total, uint32_t *free_n)
{
	const struct doca_buf_pool *pool = obj;

	*total = pool->num_elements;
	*free_n = pool->num_free;
}

DOCA_STABLE
doca_error_t doca_buf_pool_create(size_t num_elements, size_t element_size, const struct doca_mmap *mmap,
				  struct doca_buf_pool **buf_pool)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(buf_pool, "buf_pool");
	if (num_elements == 0 || num_elements > UINT32_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_elements %zu is outside 1..%u (mmap %p)",
				 num_elements, UINT32_MAX, (const void *)mmap);
	if (element_size == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "element_size is 0 (mmap %p)", (const void *)mmap);
	if (!mmap->range_set)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "mmap %p has no memory range to carve a pool from",
				 (const void *)mmap);

	struct doca_buf_pool *pool = calloc(1, sizeof(*pool));
	struct sd_buf_slot *slots = sd_lines_calloc(num_elements, sizeof(*slots));
	if (pool == NULL || slots == NULL) {
		free(pool);
		free(slots);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a pool of %zu buffers", num_elements);
	}
	pool->magic = SD_POOL_MAGIC;
	pool->num_elements = (uint32_t)num_elements;
	pool->num_free = pool->num_elements;
	pool->element_size = element_size;
	pool->alignment = 1;
	pool->slots = slots;
	/* The pool only counts itself in the mmap; the object is ours to update. */
	pool->mmap = (struct doca_mmap *)mmap;
	pool->mmap->num_pools++;
	for (uint32_t i = 0; i < pool->num_elements; i++) {
		slots[i].buf.magic = SD_BUF_MAGIC;
		slots[i].buf.owner = SD_BUF_FREE;
		slots[i].buf.first = &slots[i].buf;
		slots[i].buf.last = &slots[i].buf;
		slots[i].buf.list_len = 1;
	}
	sd_alive_add_bufs(SD_ALIVE_POOL, pool, sd_pool_count_bufs); /* issue 12: what is alive */
	*buf_pool = pool;
	return DOCA_SUCCESS;
}

/* Leave the started state; the caller checked that no buffer is out. */
static void sd_pool_do_stop(struct doca_buf_pool *pool)
{
	pool->started = false;
	pool->free_list = NULL;
	pool->num_free = pool->num_elements;
	pool->mmap->num_started_pools--;
}

DOCA_STABLE
doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_POOL_REQUIRE_NO_BUFS_OUT(buf_pool, "destroying the pool");
	if (buf_pool->started)
		sd_pool_do_stop(buf_pool);
	buf_pool->mmap->num_pools--;
	for (uint32_t i = 0; i < buf_pool->num_elements; i++)
		buf_pool->slots[i].buf.magic = 0;
	free(buf_pool->slots);
	sd_alive_remove(buf_pool); /* issue 12 */
	buf_pool->magic = 0;
	free(buf_pool);
	return DOCA_SUCCESS;
}

/*
 * Offset of the first element from the mmap start, and the stride, or
 * false when the layout does not fit in the mmap (a decision: docs/decisions.md, mem).
 */
static bool sd_pool_layout(const struct doca_buf_pool *pool, size_t *first_off, size_t *stride)
{
	uintptr_t base = (uintptr_t)pool->mmap->addr;
	size_t align = pool->alignment;
	size_t pad = (size_t)((align - (base & (align - 1))) & (align - 1));
	if (pool->element_size > SIZE_MAX - (align - 1))
		return false;
	size_t step = (pool->element_size + align - 1) & ~(align - 1);
	if (step != 0 && pool->num_elements > (SIZE_MAX - pad) / step)
		return false;
	if (pad + (size_t)pool->num_elements * step > pool->mmap->len)
		return false;
	*first_off = pad;
	*stride = step;
	return true;
}

DOCA_STABLE
doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool)
{
	SD_POOL_REQUIRE(buf_pool);
	if (buf_pool->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "buf_pool %p is already started", (void *)buf_pool);
	if (!sd_mmap_accepts_bufs(buf_pool->mmap))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "mmap %p of buf_pool %p is not started",
				 (void *)buf_pool->mmap, (void *)buf_pool);
	size_t first_off, stride;
	if (!sd_pool_layout(buf_pool, &first_off, &stride))
		return SD_REJECT(DOCA_ERROR_INITIALIZATION,
				 "%u elements of %zu bytes aligned to %zu do not fit in the %zu bytes of mmap %p",
				 buf_pool->num_elements, buf_pool->element_size, buf_pool->alignment,
				 buf_pool->mmap->len, (void *)buf_pool->mmap);

	/* Bind every descriptor to its element; hand them out in address order. */
	buf_pool->free_list = NULL;
	for (uint32_t i = buf_pool->num_elements; i > 0; i--) {
		struct doca_buf *slot = &buf_pool->slots[i - 1].buf;
		slot->head = buf_pool->mmap->addr + first_off + (size_t)(i - 1) * stride;
		slot->len = buf_pool->element_size;
		slot->next = buf_pool->free_list;
		buf_pool->free_list = slot;
	}
	buf_pool->num_free = buf_pool->num_elements;
	buf_pool->started = true;
	buf_pool->mmap->num_started_pools++;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool)
{
	SD_POOL_REQUIRE(buf_pool);
	if (!buf_pool->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "buf_pool %p is not started", (void *)buf_pool);
	SD_POOL_REQUIRE_NO_BUFS_OUT(buf_pool, "stopping the pool");
	sd_pool_do_stop(buf_pool);
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_MEM_REQUIRE_ARG(buf, "buf");
	if (!buf_pool->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "buf_pool %p is not started", (void *)buf_pool);
	if (buf_pool->free_list == NULL)
		return SD_REJECT(DOCA_ERROR_EMPTY, "buf_pool %p has no free element (all %u in use)",
				 (void *)buf_pool, buf_pool->num_elements);

	struct doca_buf *b = buf_pool->free_list;
	buf_pool->free_list = b->next;
	buf_pool->num_free--;
	sd_buf_hand_out(b, buf_pool->mmap, b->head, b->len, b->head, 0, SD_BUF_POOL, buf_pool);
	*buf = b;
	return DOCA_SUCCESS;
}

void sd_pool_take_back(struct doca_buf_pool *pool, struct doca_buf *buf)
{
	buf->next = pool->free_list;
	pool->free_list = buf;
	pool->num_free++;
}

DOCA_STABLE
doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_POOL_REQUIRE_NOT_STARTED(buf_pool);
	buf_pool->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_POOL_REQUIRE_NOT_STARTED(buf_pool);
	if (element_alignment == 0 || (element_alignment & (element_alignment - 1)) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "element_alignment %zu is not a power of two (buf_pool %p)",
				 element_alignment, (void *)buf_pool);
	buf_pool->alignment = element_alignment;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_MEM_REQUIRE_ARG(num_of_elements, "num_of_elements");
	*num_of_elements = buf_pool->num_elements;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_free_elements)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_MEM_REQUIRE_ARG(num_of_free_elements, "num_of_free_elements");
	*num_of_free_elements = buf_pool->num_free;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_MEM_REQUIRE_ARG(user_data, "user_data");
	*user_data = buf_pool->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool, size_t *element_alignment)
{
	SD_POOL_REQUIRE(buf_pool);
	SD_MEM_REQUIRE_ARG(element_alignment, "element_alignment");
	*element_alignment = buf_pool->alignment;
	return DOCA_SUCCESS;
}
