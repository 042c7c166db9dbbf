/*
 * mem_priv.h - what the files of the memory layer share among themselves.
 *
 * Nothing here leaves libdoca_common: the functions are hidden by the
 * library's default visibility.  The struct layouts every layer may read
 * are in src/include/sd_mem.h.
 */
#ifndef SD_MEM_PRIV_H
#define SD_MEM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "sd_log.h"
#include "sd_mem.h"

struct doca_buf_inventory;
struct doca_buf_pool;

/* SD_REJECT on behalf of the public function `func` (for shared helpers). */
#define SD_MEM_REJECT_AS(func, err, ...)                                                           \
	(priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func, __VA_ARGS__), (err))

/* A DEBUG record on behalf of the public function `func`. */
#define SD_MEM_DEBUG_AS(func, ...) priv_doca_sdk_log_at(DOCA_LOG_LEVEL_DEBUG, __FILE__, __LINE__, func, __VA_ARGS__)

/* Reject a NULL pointer argument, naming it (rule 1.3.1 a). */
#define SD_MEM_REQUIRE_ARG(ptr, name)                                                              \
	do {                                                                                       \
		if ((ptr) == NULL)                                                                 \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "argument %s is NULL", name);   \
	} while (0)

/* Reject a NULL or foreign/destroyed mmap handle. */
#define SD_MEM_REQUIRE_MMAP(m)                                                                     \
	do {                                                                                       \
		if (!sd_mmap_valid(m))                                                             \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "mmap %p is NULL or not a live doca_mmap", (const void *)(m)); \
	} while (0)

/* Reject a NULL, foreign or already released buffer. */
#define SD_MEM_REQUIRE_BUF(b)                                                                      \
	do {                                                                                       \
		if ((b) == NULL || (b)->magic != SD_BUF_MAGIC)                                     \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "buf %p is NULL or not a doca_buf", (const void *)(b));  \
		if ((b)->owner == SD_BUF_FREE)                                                     \
			return SD_REJECT(DOCA_ERROR_BAD_STATE,                                     \
					 "buf %p was already released (refcount reached 0)",       \
					 (const void *)(b));                                       \
	} while (0)

static inline bool sd_mmap_valid(const struct doca_mmap *mmap)
{
	return mmap != NULL && mmap->magic == SD_MMAP_MAGIC;
}

/* Buffers may be mapped onto a started map: a local one after doca_mmap_start, an import until it is stopped. */
static inline bool sd_mmap_accepts_bufs(const struct doca_mmap *mmap)
{
	return mmap->state == SD_MMAP_STARTED;
}

/*
 * True when [addr, addr + len) lies inside [lo, lo + lo_len], computed
 * without overflow.  A zero-length window may sit at the very end.
 */
static inline bool sd_range_inside(uintptr_t addr, size_t len, uintptr_t lo, size_t lo_len)
{
	if (addr < lo)
		return false;
	uintptr_t off = addr - lo;
	return off <= lo_len && len <= lo_len - off;
}

/* True when addr + len does not wrap around the address space. */
static inline bool sd_range_no_overflow(uintptr_t addr, size_t len)
{
	return len <= UINTPTR_MAX - addr;
}

/*
 * Why the window [addr, addr + len) with data section [data, data + data_len)
 * cannot describe memory of `mmap`, or NULL when it can (inventory.c and
 * inventory_reuse.c).
 */
static inline const char *sd_buf_window_problem(const struct doca_mmap *mmap, uintptr_t addr, size_t len,
						uintptr_t data, size_t data_len)
{
	if (!sd_range_no_overflow(addr, len))
		return "the buffer wraps around the address space";
	if (!sd_range_inside(addr, len, (uintptr_t)mmap->addr, mmap->len))
		return "the buffer is not inside the mmap's range";
	if (!sd_range_no_overflow(data, data_len))
		return "the data section wraps around the address space";
	if (!sd_range_inside(data, data_len, addr, len))
		return "the data section is not inside the buffer";
	return NULL;
}

/*
 * Turn a free slot into a handed-out standalone buffer on `mmap` with
 * refcount 1, and count it in the map's live buffers (unless the map is
 * thread-safe, whose count is not maintained).
 */
static inline void sd_buf_hand_out(struct doca_buf *buf, struct doca_mmap *mmap, uint8_t *head, size_t len,
				   uint8_t *data, size_t data_len, enum sd_buf_owner owner, void *owner_obj)
{
	buf->head = head;
	buf->len = len;
	buf->data = data;
	buf->data_len = data_len;
	buf->next = NULL;
	buf->first = buf;
	buf->last = buf;
	buf->list_len = 1;
	buf->mmap = mmap;
	buf->refcount = 1;
	buf->owner = (uint8_t)owner;
	buf->owner_obj = owner_obj;
	buf->user_data.u64 = 0;
	buf->counted = !mmap->thread_safe;
	if (buf->counted)
		mmap->num_bufs++;
}

/* mmap.c: a start_seq no map of this process had before (never 0). */
uint64_t sd_mmap_next_seq(void);

/* mmap.c: is `dev` one of the devices registered in the local map? */
bool sd_mmap_has_dev(const struct doca_mmap *mmap, const struct doca_dev *dev);

/* mmap_export.c: cut off every importer of a local map (stop, destroy). */
void sd_mmap_exports_revoke(struct doca_mmap *mmap);
/* mmap_export.c: release the import state of a map made from an export. */
void sd_mmap_import_release(struct doca_mmap *mmap);

/* Slot owners take released elements back (inventory.c, buf_pool.c). */
void sd_inventory_take_back(struct doca_buf_inventory *inventory, struct doca_buf *buf);
void sd_pool_take_back(struct doca_buf_pool *pool, struct doca_buf *buf);

#endif /* SD_MEM_PRIV_H */
