/*
 * rdma_ring.h - the inbox of a connection end: a ring of message slots in
 * a sealed memfd, shared with the peer that sends into it.
 *
 * The owner of a ring (the receiving end) creates it at doca_rdma_export
 * and names it in its connection blob (fd number, size; the connection's
 * token is written in the ring's header).  The sending end maps the same
 * file: in this process from the owner's descriptor, in another process
 * through /proc/PID/fd/N.  The sender fills a free slot with the opcode,
 * the immediate and the addresses of its source list (in its own address
 * space), then publishes it; the receiver takes a published slot with one
 * compare-and-swap on the slot's state word, pulls the bytes from the
 * sender (rdma_pull.c) and posts its verdict in the slot.
 *
 * Everything in a peer's ring is untrusted: indexes are reduced by our own
 * slot count, counts and lengths are checked on a private copy of the
 * slot, and the file is sealed against shrinking so a peer cannot make a
 * mapped page vanish under us.
 */
#ifndef SD_RDMA_RING_H
#define SD_RDMA_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#define SD_RDMA_RING_MAGIC 0x474e5252u /* "RRNG" */
#define SD_RDMA_RING_VERSION 1u
#define SD_RDMA_RING_SLOTS 4096u /* a power of two: indexes wrap with the 32-bit counters */
#define SD_RDMA_SLOT_SEGS 30u    /* the profiles' rdma_max_list_len */

/* State word of a slot; only the transitions in the comments happen. */
enum sd_rdma_slot_state {
	SD_RDMA_SLOT_FREE = 0,  /* sender may fill it; a withdrawn message returns here (PENDING -> FREE) */
	SD_RDMA_SLOT_PENDING,   /* published, waiting for a receive (sender: FREE -> PENDING) */
	SD_RDMA_SLOT_TAKEN,     /* receiver is copying it (PENDING -> TAKEN) */
	SD_RDMA_SLOT_DELIVERED, /* verdict in `status` (TAKEN -> DELIVERED); the sender frees it */
};

struct sd_rdma_seg {
	uint64_t addr; /* in the sender's address space */
	uint64_t len;
};

struct sd_rdma_slot {
	_Atomic uint32_t state;
	uint32_t opcode;    /* enum doca_rdma_opcode */
	uint32_t imm;       /* immediate, as the sender gave it (big-endian) */
	uint32_t nseg;      /* send: elements of the source list */
	int32_t status;     /* receiver's verdict: DOCA_SUCCESS or DOCA_ERROR_IO_FAILED */
	uint32_t reserved;
	uint64_t write_len; /* write with immediate: bytes the write placed */
	struct sd_rdma_seg seg[SD_RDMA_SLOT_SEGS];
};

struct sd_rdma_ring {
	uint32_t magic;
	uint32_t version;
	uint32_t slots;
	uint32_t slot_size;
	uint32_t owner_pid;
	uint32_t conn_id;
	uint8_t token[16];
	_Atomic uint32_t owner_closed;  /* the owner's connection ended */
	_Atomic uint32_t sender_closed; /* the sender's connection ended */
	/* Wake-ups of a sleeping PE (rdma_wake.c); these words sit in what was padding before head. */
	int32_t owner_wake_fd1;          /* the owner's wake pipe (write end) plus one; 0: none */
	_Atomic uint32_t owner_asleep;   /* the owner sleeps: the sender that publishes a slot wakes it */
	_Atomic uint32_t sender_asleep;  /* the sender sleeps: the owner that posts a verdict wakes it */
	_Alignas(64) _Atomic uint32_t head; /* next slot the owner looks at */
	_Alignas(64) _Atomic uint32_t tail; /* next slot the sender fills */
	_Alignas(64) struct sd_rdma_slot slot[SD_RDMA_RING_SLOTS];
};

_Static_assert(offsetof(struct sd_rdma_ring, head) == 64, "the ring header keeps its layout");

/* Bytes of the ring file (whole pages); the one size a version-2 blob may name. */
size_t sd_rdma_ring_bytes(void);

/* One end's view of a ring: its mapping and the descriptor that keeps the file. */
struct sd_rdma_ring_map {
	struct sd_rdma_ring *ring; /* NULL when none */
	int fd;                    /* -1 when none */
};

/* Owner: create, seal, lock and map a new ring for connection `conn_id`.  0 or errno. */
int sd_rdma_ring_create(struct sd_rdma_ring_map *m, uint32_t conn_id, const uint8_t token[16]);

/*
 * Sender: map the ring that fd `fd` of process `pid` holds (this process:
 * a descriptor of ours), after checking that it is a sealed ring of the
 * expected size whose header names (pid, conn_id, token).  NULL on
 * success, else what is wrong; *code is the DOCA error to answer.
 */
const char *sd_rdma_ring_attach(struct sd_rdma_ring_map *m, uint32_t pid, int fd, uint32_t conn_id,
				const uint8_t token[16], doca_error_t *code);

/* Unmap and close (either end); the owner's close drops its liveness lock. */
void sd_rdma_ring_detach(struct sd_rdma_ring_map *m);

/* Sender: does the owner of the ring still hold its liveness lock (it lives, has not exec'd)? */
bool sd_rdma_ring_owner_alive(const struct sd_rdma_ring_map *m, uint32_t owner_pid);

/* Sender: the next free slot, or NULL when the ring is full. */
struct sd_rdma_slot *sd_rdma_ring_reserve(struct sd_rdma_ring *r);
/* Sender: publish the slot sd_rdma_ring_reserve gave (its fields filled). */
void sd_rdma_ring_publish(struct sd_rdma_ring *r, struct sd_rdma_slot *s);

#endif /* SD_RDMA_RING_H */
