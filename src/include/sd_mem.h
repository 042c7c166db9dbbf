/*
 * sd_mem.h - memory maps and buffers as the execution layer sees them.
 *
 * The DMA library reads these fields directly on its per-task path, so the
 * layouts are shared here instead of hidden behind calls.  Only the memory
 * layer (src/common/mem) changes them.
 */
#ifndef SD_MEM_H
#define SD_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_mmap.h>
#include <doca_types.h>

#include "sd_lines.h"
#include "sd_visibility.h"

struct doca_dev;
struct sd_device;

enum sd_mmap_state {
	SD_MMAP_IDLE = 0,    /* created, never started */
	SD_MMAP_STARTED = 1,
	SD_MMAP_STOPPED = 2, /* was started, then stopped */
};

/*
 * How bytes of a memory map are reached.  A local mmap is plain process
 * memory (remote == NULL).  An mmap created from an export reaches the
 * exporter's memory through these hooks (cross-process issue); they return
 * DOCA_ERROR_IO_FAILED when the export is gone.
 */
/* One piece of a batched remote copy: `len` bytes between local `local` and exporter address `raddr`. */
struct sd_remote_piece {
	uint8_t *local;
	uint64_t raddr;
	size_t len;
};

struct sd_mem_remote_ops {
	/* Copy `len` bytes at exporter address `raddr` into local `dst`. */
	doca_error_t (*read)(struct doca_mmap *mmap, void *dst, uint64_t raddr, size_t len);
	/* Copy `len` bytes from local `src` to exporter address `raddr`. */
	doca_error_t (*write)(struct doca_mmap *mmap, uint64_t raddr, const void *src, size_t len);
	/* Direct mapping of the exported range when it is shared memory, else NULL. */
	void *(*direct)(struct doca_mmap *mmap, uint64_t raddr, size_t len);
	/*
	 * Optional: copy `n` pieces in one go (all reads, or all writes when
	 * `write`), in order, where one system call per piece is the cost (the
	 * process_vm_readv path).  Returns how many pieces, from the first,
	 * were copied whole and are certain; the caller copies the others one
	 * by one with read/write (which also report their errors).  0 when the
	 * import's path gains nothing from it.
	 */
	uint32_t (*copy_many)(struct doca_mmap *mmap, const struct sd_remote_piece *p, uint32_t n, bool write);
	/*
	 * 8-byte atomic on the aligned exporter address `raddr` (DOCA RDMA):
	 * SD_MEM_ATOMIC_CAS stores `b` when the value equals `a`,
	 * SD_MEM_ATOMIC_ADD adds `a`; the value before lands in *old.  NULL,
	 * or DOCA_ERROR_NOT_SUPPORTED, where the path cannot be atomic
	 * against the exporter's own CPU (process_vm, /proc/PID/mem).
	 */
	doca_error_t (*atomic64)(struct doca_mmap *mmap, uint64_t raddr, int op, uint64_t a, uint64_t b,
				 uint64_t *old);
};

enum sd_mem_atomic_op {
	SD_MEM_ATOMIC_CAS = 0,
	SD_MEM_ATOMIC_ADD = 1,
};

#define SD_MMAP_MAX_DEVS_LIMIT 64u

struct sd_engine_async;

struct doca_mmap {
	/*
	 * The first line (sd_lines.h; the map is allocated on a line): what a
	 * DMA task reads of its maps, so that a task after a large copy meets
	 * one line of each map.
	 */
	uint32_t magic; /* SD_MMAP_MAGIC while valid */
	enum sd_mmap_state state;
	bool range_set;
	bool exported;    /* sticky once an export succeeded */
	bool from_export; /* created by doca_mmap_create_from_export */
	bool thread_safe;
	uint32_t access_mask;     /* enum doca_access_flag bits */
	/*
	 * Non-zero exactly while a local mmap is started, and never the same
	 * for two start periods of any mmaps of this process.  Devices and
	 * permissions cannot change while a map is started, so a DMA
	 * instance may remember that "start_seq X passed V6..V9" (dma_memcpy.c).
	 * An import takes one at creation and keeps it until destroyed: what
	 * those rules read of it (kind, device, rights) is fixed for its life.
	 */
	uint64_t start_seq;
	/* Import side: how to reach the bytes. */
	const struct sd_mem_remote_ops *remote;
	void *remote_priv;
	uint8_t *addr;    /* range start (exporter's address for imports) */
	size_t len;
	uint32_t max_devs;
	uint32_t num_devs;
	/* The first line ends here. */
	struct doca_dev *devs[SD_MMAP_MAX_DEVS_LIMIT];
	union doca_data user_data;
	doca_mmap_memrange_free_cb_t *free_cb;
	void *free_cookie;
	uint64_t num_bufs; /* live doca_buf descriptors pointing into the map */
	const struct sd_device *import_node; /* device the import was made on (import side) */
	/* Additions of the memory layer (mem). */
	struct doca_dev *import_dev; /* open device the import depends on */
	uint8_t import_kind;         /* enum sd_export_kind of the imported descriptor */
	bool dmabuf;                 /* range given by doca_mmap_set_dmabuf_memrange */
	int dmabuf_fd;               /* recorded only; never duplicated or closed */
	size_t dmabuf_offset;
	uint32_t num_pools;          /* buffer pools created on this map (pin destroy) */
	uint32_t num_started_pools;  /* started pools (pin stop) */
	/* Additions of the cross-process layer (src/common/xproc). */
	void *xproc_export;          /* export state while started and exported, else NULL */
	uint32_t xproc_generation;   /* exports made over the map's life (one per started period) */
	void *xproc_reexport;        /* import from a PCI descriptor: what an RDMA re-export needs */
	/* Additions of the engines (set at start when a GPU device is listed). */
	uint8_t mem_kind;            /* enum sd_mem_kind: SD_MEM_GPU for GPU memory */
	const struct sd_engine_async *mem_engine; /* engine holding mem_reg, or NULL */
	void *mem_reg;               /* what mem_engine->mem_detach undoes at stop */
	/* Additions of the registration (src/common/mem/mmap_register.c), set at start. */
	uint8_t reg_mode;            /* enum sd_mmap_register_mode of this start period */
	bool reg_resident;           /* start made every page of the range resident */
	bool reg_pinned;             /* ... and pinned it (an entry of the pin register) */
	bool reg_shared;             /* ... and moved it onto a memfd importers map (mmap_share.c) */
};

_Static_assert(offsetof(struct doca_mmap, devs) <= SD_LINE, "a map's task fields fit its first line");

/* Kind of export descriptor an imported mmap was made from. */
enum sd_export_kind {
	SD_EXPORT_NONE = 0, /* local mmap */
	SD_EXPORT_PCI = 1,
	SD_EXPORT_RDMA = 2,
};

#define SD_MMAP_MAGIC 0x4d4d4150u /* "MMAP" */

enum sd_buf_owner {
	SD_BUF_FREE = 0,      /* slot not handed out */
	SD_BUF_INVENTORY = 1,
	SD_BUF_POOL = 2,
};

struct doca_buf {
	/*
	 * The first line: what a task reads of its buffers (sd_lines.h).
	 * Every slot of an inventory or a pool starts a line (struct
	 * sd_buf_slot), so a buffer on a task's path is one line, not two.
	 */
	uint8_t *head;           /* start of the buffer (exporter address for imports) */
	size_t len;              /* whole buffer length */
	uint8_t *data;           /* start of the data segment */
	size_t data_len;         /* length of the data segment */
	struct doca_buf *next;   /* next element of a chained list, NULL at the end */
	struct doca_mmap *mmap;
	uint32_t magic;          /* SD_BUF_MAGIC for every slot of a live inventory/pool */
	uint16_t refcount;
	uint8_t owner;           /* enum sd_buf_owner */
	bool counted;            /* this element added one to mmap->num_bufs */
	/* The first line ends here. */
	struct doca_buf *first;  /* list head this element belongs to (itself if alone) */
	struct doca_buf *last;   /* valid on the list head: last element */
	uint32_t list_len;       /* valid on the list head: number of elements */
	void *owner_obj;         /* inventory or pool that owns the slot */
	union doca_data user_data;
	/*
	 * Asynchronous DMA engines (src/dma): on a task's destination, the
	 * bytes after data + data_len that in-flight tasks will append, and
	 * how many such tasks there are.  A task submitted while others are in
	 * flight appends after their bytes, as it would once they are
	 * reported.  Zero whenever no task is in flight.
	 */
	uint64_t dma_reserved;
	uint32_t dma_writers;
};

_Static_assert(offsetof(struct doca_buf, first) <= SD_LINE, "a buffer's task fields fit its first line");

/*
 * The storage of one descriptor in an inventory or a pool: a buffer on a
 * line of its own.  The alignment is the slot's, not doca_buf's, so that
 * checking a pointer a program passes never assumes more than a doca_buf
 * needs.
 */
struct sd_buf_slot {
	_Alignas(SD_LINE) struct doca_buf buf;
};

#define SD_BUF_MAGIC 0x42554630u /* "BUF0" */

/* True when `buf` is a descriptor slot currently handed out to the user. */
static inline bool sd_buf_is_live(const struct doca_buf *buf)
{
	return buf->magic == SD_BUF_MAGIC && buf->owner != SD_BUF_FREE;
}

/*
 * True when `mmap` may be used for DMA by the device `node` (rule V6/V7 of
 * rules V6/V7): started local mmap with that device registered, or a PCI import
 * made on that device.
 */
static inline bool sd_mmap_usable_by(const struct doca_mmap *mmap, const struct sd_device *node);

/* Write right of a local mmap for DMA destinations. */
static inline bool sd_mmap_local_writable(const struct doca_mmap *mmap)
{
	return (mmap->access_mask & (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE |
				     DOCA_ACCESS_FLAG_RDMA_WRITE)) != 0;
}

#include "sd_dev.h"

static inline bool sd_mmap_usable_by(const struct doca_mmap *mmap, const struct sd_device *node)
{
	if (mmap->from_export) /* only PCI imports serve DMA (V6) */
		return mmap->import_kind == SD_EXPORT_PCI && mmap->import_node == node;
	if (mmap->state != SD_MMAP_STARTED)
		return false;
	for (uint32_t i = 0; i < mmap->num_devs; i++)
		if (mmap->devs[i]->node == node)
			return true;
	return false;
}

#endif /* SD_MEM_H */
