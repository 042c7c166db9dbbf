/*
 * inventory.c - buffer inventories.
 *
 * Descriptor slots live in chunks allocated at create and at each expand;
 * a chunk never moves, since users hold pointers into it.  Free slots form
 * an intrusive LIFO list through their `next` field, so handing out and
 * taking back a buffer costs a few stores: no allocation, no lock.
 */
#include <stdlib.h>

#include <doca_buf_inventory.h>

#include "mem_priv.h"
#include "sd_debug.h"
#include "sd_log.h"
#include "sd_mem.h"

#define SD_INVENTORY_MAGIC 0x494e5630u /* "INV0" */

/* One allocation of descriptor slots. */
struct sd_inv_chunk {
	struct sd_inv_chunk *next;
	uint32_t count;
	struct sd_buf_slot slots[];
};

struct doca_buf_inventory {
	uint32_t magic;
	bool started;
	uint32_t num_elements;
	uint32_t num_free;
	struct doca_buf *free_list;  /* linked through doca_buf.next */
	struct sd_inv_chunk *chunks;
	union doca_data user_data;
};

static bool sd_inventory_valid(const struct doca_buf_inventory *inv)
{
	return inv != NULL && inv->magic == SD_INVENTORY_MAGIC;
}

#define SD_INV_REQUIRE(inv)                                                                        \
	do {                                                                                       \
		if (!sd_inventory_valid(inv))                                                      \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "inventory %p is NULL or not a live doca_buf_inventory",  \
					 (const void *)(inv));                                     \
	} while (0)

#define SD_INV_REQUIRE_STARTED(inv)                                                                \
	do {                                                                                       \
		if (!(inv)->started)                                                               \
			return SD_REJECT(DOCA_ERROR_BAD_STATE,                                     \
					 "inventory %p is not started; call doca_buf_inventory_start first", \
					 (const void *)(inv));                                     \
	} while (0)

static void sd_inventory_push_free(struct doca_buf_inventory *inv, struct doca_buf *slot)
{
	slot->next = inv->free_list;
	inv->free_list = slot;
	inv->num_free++;
}

static struct doca_buf *sd_inventory_pop_free(struct doca_buf_inventory *inv)
{
	struct doca_buf *slot = inv->free_list;
	inv->free_list = slot->next;
	inv->num_free--;
	return slot;
}

/* Allocate `count` fresh slots and put them on the free list. */
static doca_error_t sd_inventory_grow(struct doca_buf_inventory *inv, uint32_t count)
{
	struct sd_inv_chunk *chunk = sd_lines_calloc(1, sizeof(*chunk) + (size_t)count * sizeof(struct sd_buf_slot));
	if (chunk == NULL)
		return DOCA_ERROR_NO_MEMORY;
	chunk->count = count;
	chunk->next = inv->chunks;
	inv->chunks = chunk;
	/* Push in reverse so slots are handed out in address order. */
	for (uint32_t i = count; i > 0; i--) {
		struct doca_buf *slot = &chunk->slots[i - 1].buf;
		slot->magic = SD_BUF_MAGIC;
		slot->owner = SD_BUF_FREE;
		slot->first = slot;
		slot->last = slot;
		slot->list_len = 1;
		sd_inventory_push_free(inv, slot);
	}
	inv->num_elements += count;
	return DOCA_SUCCESS;
}

static void sd_inventory_free(struct doca_buf_inventory *inv)
{
	struct sd_inv_chunk *chunk = inv->chunks;
	while (chunk != NULL) {
		struct sd_inv_chunk *next = chunk->next;
		for (uint32_t i = 0; i < chunk->count; i++)
			chunk->slots[i].buf.magic = 0;
		free(chunk);
		chunk = next;
	}
	inv->magic = 0;
	free(inv);
}

/* The exit report's count of a live inventory (see sd_alive_add_bufs). */
static void sd_inventory_count_bufs(const void *obj, uint32_t *total, uint32_t *free_n)
{
	const struct doca_buf_inventory *inv = obj;

	*total = inv->num_elements;
	*free_n = inv->num_free;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory)
{
	SD_MEM_REQUIRE_ARG(inventory, "inventory");
	if (num_elements == 0 || num_elements > UINT32_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_elements %zu is outside 1..%u", num_elements,
				 UINT32_MAX);

	struct doca_buf_inventory *inv = calloc(1, sizeof(*inv));
	if (inv == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a doca_buf_inventory");
	inv->magic = SD_INVENTORY_MAGIC;
	if (sd_inventory_grow(inv, (uint32_t)num_elements) != DOCA_SUCCESS) {
		sd_inventory_free(inv);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate %zu buffer descriptors", num_elements);
	}
	sd_alive_add_bufs(SD_ALIVE_INVENTORY, inv, sd_inventory_count_bufs); /* issue 12: what is alive */
	*inventory = inv;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory)
{
	SD_INV_REQUIRE(inventory);
	if (inventory->num_free != inventory->num_elements)
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "inventory %p still has %u buffer(s) handed out; release them before destroying it",
				 (void *)inventory, inventory->num_elements - inventory->num_free);
	sd_alive_remove(inventory); /* issue 12 */
	sd_inventory_free(inventory);
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory)
{
	SD_INV_REQUIRE(inventory);
	if (inventory->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "inventory %p is already started", (void *)inventory);
	inventory->started = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory)
{
	SD_INV_REQUIRE(inventory);
	SD_INV_REQUIRE_STARTED(inventory);
	inventory->started = false; /* buffers already out stay valid */
	return DOCA_SUCCESS;
}

/* Why [addr, addr + len) with data [data, data + data_len) does not fit `mmap`, or NULL. */
/*
 * One buffer from `inventory`, on behalf of public function `func`: the
 * exported doca_buf_inventory_buf_get_by_args, or one of the header's inline
 * helpers (get_by_addr, get_by_data), which pass their own name so that a
 * refusal names the function the program called.
 */
static doca_error_t sd_inventory_buf_get(const char *func, struct doca_buf_inventory *inventory,
					 struct doca_mmap *mmap, void *addr, size_t len, void *data, size_t data_len,
					 struct doca_buf **buf)
{
	if (!sd_inventory_valid(inventory))
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "inventory %p is NULL or not a live doca_buf_inventory",
				    (void *)inventory);
	if (!sd_mmap_valid(mmap))
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "mmap %p is NULL or not a live doca_mmap",
				    (void *)mmap);
	if (buf == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "argument buf is NULL");
	if (!inventory->started)
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
				    "inventory %p is not started; call doca_buf_inventory_start first", (void *)inventory);
	if (!sd_mmap_accepts_bufs(mmap))
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
				    "mmap %p is not started; buffers need a started mmap (call doca_mmap_start first)",
				    (void *)mmap);
	const char *problem = sd_buf_window_problem(mmap, (uintptr_t)addr, len, (uintptr_t)data, data_len);
	if (problem != NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "%s (buffer [%p, +%zu), data [%p, +%zu), mmap %p range [%p, +%zu))", problem, addr,
				    len, data, data_len, (void *)mmap, (void *)mmap->addr, mmap->len);
	if (inventory->num_free == 0)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY, "inventory %p has no free element (all %u in use)",
				    (void *)inventory, inventory->num_elements);

	struct doca_buf *b = sd_inventory_pop_free(inventory);
	sd_buf_hand_out(b, mmap, addr, len, data, data_len, SD_BUF_INVENTORY, inventory);
	*buf = b;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
						void *addr, size_t len, void *data, size_t data_len,
						struct doca_buf **buf)
{
	return sd_inventory_buf_get(__func__, inventory, mmap, addr, len, data, data_len, buf);
}

doca_error_t priv_doca_buf_inventory_buf_get_as(const char *caller, struct doca_buf_inventory *inventory,
						struct doca_mmap *mmap, void *addr, size_t len, void *data,
						size_t data_len, struct doca_buf **buf)
{
	const char *func = caller != NULL ? caller : "doca_buf_inventory_buf_get_by_args";

	return sd_inventory_buf_get(func, inventory, mmap, addr, len, data, data_len, buf);
}

void sd_inventory_take_back(struct doca_buf_inventory *inventory, struct doca_buf *buf)
{
	sd_inventory_push_free(inventory, buf);
}

/* Copy one element's geometry into a fresh descriptor from `inv`. */
static struct doca_buf *sd_inventory_dup_one(struct doca_buf_inventory *inv, const struct doca_buf *src)
{
	struct doca_buf *b = sd_inventory_pop_free(inv);
	sd_buf_hand_out(b, src->mmap, src->head, src->len, src->data, src->data_len, SD_BUF_INVENTORY, inv);
	return b;
}

/* Reject duplication onto an mmap that cannot take buffers now. */
#define SD_INV_REQUIRE_MMAP_READY(m)                                                               \
	do {                                                                                       \
		if (!sd_mmap_accepts_bufs(m))                                                      \
			return SD_REJECT(DOCA_ERROR_BAD_STATE,                                     \
					 "mmap %p is not started; buffers need a started mmap "    \
					 "(call doca_mmap_start first)",                           \
					 (const void *)(m));                                       \
	} while (0)

DOCA_STABLE
doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory, const struct doca_buf *src_buf,
					struct doca_buf **dst_buf)
{
	SD_INV_REQUIRE(inventory);
	SD_MEM_REQUIRE_BUF(src_buf);
	SD_MEM_REQUIRE_ARG(dst_buf, "dst_buf");
	SD_INV_REQUIRE_STARTED(inventory);
	for (const struct doca_buf *cur = src_buf; cur != NULL; cur = cur->next)
		SD_INV_REQUIRE_MMAP_READY(cur->mmap);
	if (src_buf->first != src_buf)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "buf %p is an inner element of the list headed by %p; duplicate the head",
				 (const void *)src_buf, (const void *)src_buf->first);
	if (inventory->num_free < src_buf->list_len)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY,
				 "inventory %p has %u free element(s), the list of buf %p needs %u", (void *)inventory,
				 inventory->num_free, (const void *)src_buf, src_buf->list_len);

	/* Enough slots were checked above, so the whole copy succeeds. */
	struct doca_buf *head = sd_inventory_dup_one(inventory, src_buf);
	struct doca_buf *tail = head;
	for (const struct doca_buf *cur = src_buf->next; cur != NULL; cur = cur->next) {
		struct doca_buf *b = sd_inventory_dup_one(inventory, cur);
		b->first = head;
		tail->next = b;
		tail = b;
	}
	head->last = tail;
	head->list_len = src_buf->list_len;
	*dst_buf = head;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_inventory_expand(struct doca_buf_inventory *inventory, uint32_t num_elements)
{
	SD_INV_REQUIRE(inventory);
	if (num_elements == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_elements is 0 (inventory %p)", (void *)inventory);
	SD_INV_REQUIRE_STARTED(inventory);
	if (num_elements > UINT32_MAX - inventory->num_elements)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "inventory %p would exceed %u elements (has %u, adding %u)",
				 (void *)inventory, UINT32_MAX, inventory->num_elements, num_elements);
	if (sd_inventory_grow(inventory, num_elements) != DOCA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate %u more buffer descriptors (inventory %p)",
				 num_elements, (void *)inventory);
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory, uint32_t *num_of_elements)
{
	SD_INV_REQUIRE(inventory);
	SD_MEM_REQUIRE_ARG(num_of_elements, "num_of_elements");
	*num_of_elements = inventory->num_elements;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
						      uint32_t *num_of_free_elements)
{
	SD_INV_REQUIRE(inventory);
	SD_MEM_REQUIRE_ARG(num_of_free_elements, "num_of_free_elements");
	*num_of_free_elements = inventory->num_free;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_set_user_data(struct doca_buf_inventory *inventory, union doca_data user_data)
{
	SD_INV_REQUIRE(inventory);
	inventory->user_data = user_data; /* allowed in every state */
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_inventory_get_user_data(const struct doca_buf_inventory *inventory, union doca_data *user_data)
{
	SD_INV_REQUIRE(inventory);
	SD_MEM_REQUIRE_ARG(user_data, "user_data");
	*user_data = inventory->user_data;
	return DOCA_SUCCESS;
}
