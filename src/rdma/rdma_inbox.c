/*
 * rdma_inbox.c - the shared ring behind a connection's inbox (rdma_ring.h):
 * creating it, mapping a peer's, and the sender's two steps on it.
 *
 * The file is a memfd sealed against growing and shrinking before anyone
 * else can see it: a peer that maps it can then never make one of our
 * mapped pages disappear (which would raise SIGBUS here), and the checks
 * on attach (regular file, size, seals, header) hold for the life of the
 * mapping.  The owner keeps a read lock on the file for as long as it
 * lives; the kernel drops it when the process exits or execs, so a sender
 * learns of a dead receiver with one fcntl and no message.
 *
 * Both mappings are populated and touched when made: a slot's first use
 * would otherwise take a page fault on each side (and, on a virtual machine
 * with shadow page tables, a trip to the hypervisor even for a populated
 * page), one message in eight for the ring's first pass: up to 25 us each
 * on the test machine, a latency tail no card has.  The price is the ring's
 * 2 MiB of shared memory per connection end from the start, and about a
 * millisecond per mapping at connect.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdma_ring.h"

#define SD_RDMA_RING_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
#define SD_RDMA_RING_MAP (MAP_SHARED | MAP_POPULATE)

/*
 * MAP_POPULATE may leave the pages mapped for reading only: have them
 * writable where the kernel can (5.14 and later), then write to each page
 * once with an atomic add of zero, which changes no byte whoever else uses
 * the ring meanwhile.  Best effort: a fault left costs time, not correctness.
 */
static void sd_rdma_ring_prefault(void *p, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

#ifdef MADV_POPULATE_WRITE
	(void)madvise(p, len, MADV_POPULATE_WRITE);
#endif
	for (size_t off = 0; off < len; off += pg)
		(void)atomic_fetch_add_explicit((_Atomic uint32_t *)((uint8_t *)p + off), 0, memory_order_relaxed);
}

size_t sd_rdma_ring_bytes(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (sizeof(struct sd_rdma_ring) + pg - 1) & ~(pg - 1);
}

static void sd_rdma_ring_header(struct sd_rdma_ring *r, uint32_t conn_id, const uint8_t token[16])
{
	r->magic = SD_RDMA_RING_MAGIC;
	r->version = SD_RDMA_RING_VERSION;
	r->slots = SD_RDMA_RING_SLOTS;
	r->slot_size = (uint32_t)sizeof(struct sd_rdma_slot);
	r->owner_pid = (uint32_t)getpid();
	r->conn_id = conn_id;
	memcpy(r->token, token, sizeof(r->token));
}

int sd_rdma_ring_create(struct sd_rdma_ring_map *m, uint32_t conn_id, const uint8_t token[16])
{
	struct flock lk = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
	size_t len = sd_rdma_ring_bytes();
	int err = 0;
	void *p = MAP_FAILED;
	int fd = memfd_create("softdoca-rdma-inbox", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return errno;
	if (ftruncate(fd, (off_t)len) != 0 || fcntl(fd, F_ADD_SEALS, SD_RDMA_RING_SEALS) != 0 ||
	    fcntl(fd, F_SETLK, &lk) != 0 ||
	    (p = mmap(NULL, len, PROT_READ | PROT_WRITE, SD_RDMA_RING_MAP, fd, 0)) == MAP_FAILED)
		err = errno;
	if (err != 0) {
		close(fd);
		return err;
	}
	sd_rdma_ring_prefault(p, len);
	sd_rdma_ring_header(p, conn_id, token);
	m->ring = p;
	m->fd = fd;
	return 0;
}

/* Open the peer's ring file: ours when it lives in this process, else through /proc. */
static int sd_rdma_ring_open(uint32_t pid, int fd)
{
	char path[64];

	if (pid == (uint32_t)getpid())
		return fcntl(fd, F_DUPFD_CLOEXEC, 0);
	snprintf(path, sizeof(path), "/proc/%u/fd/%d", pid, fd);
	return open(path, O_RDWR | O_CLOEXEC);
}

/* Is the open file a ring file: regular, of the one size, sealed? */
static bool sd_rdma_ring_file_ok(int fd)
{
	struct stat st;
	int seals = fcntl(fd, F_GET_SEALS);

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == sd_rdma_ring_bytes() &&
	       seals >= 0 && (seals & (F_SEAL_SHRINK | F_SEAL_SEAL)) == (F_SEAL_SHRINK | F_SEAL_SEAL);
}

static bool sd_rdma_ring_names(const struct sd_rdma_ring *r, uint32_t pid, uint32_t conn_id, const uint8_t token[16])
{
	return r->magic == SD_RDMA_RING_MAGIC && r->version == SD_RDMA_RING_VERSION &&
	       r->slots == SD_RDMA_RING_SLOTS && r->slot_size == sizeof(struct sd_rdma_slot) && r->owner_pid == pid &&
	       r->conn_id == conn_id && memcmp(r->token, token, sizeof(r->token)) == 0;
}

const char *sd_rdma_ring_attach(struct sd_rdma_ring_map *m, uint32_t pid, int fd, uint32_t conn_id,
				const uint8_t token[16], doca_error_t *code)
{
	size_t len = sd_rdma_ring_bytes();
	int f = sd_rdma_ring_open(pid, fd);
	void *p;

	*code = DOCA_ERROR_NOT_FOUND;
	if (f < 0) {
		if (errno == EACCES || errno == EPERM) {
			*code = DOCA_ERROR_NOT_PERMITTED;
			return "names an inbox this process may not open (/proc/PID/fd needs the same user and ptrace "
			       "access to the peer; in a container allow it, or run both sides as one user)";
		}
		return "names an inbox file descriptor the peer does not hold (stale or forged blob)";
	}
	if (!sd_rdma_ring_file_ok(f)) {
		close(f);
		return "names a file descriptor that is not a sealed inbox ring of the expected size (forged blob)";
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, SD_RDMA_RING_MAP, f, 0);
	if (p == MAP_FAILED) {
		close(f);
		*code = DOCA_ERROR_NO_MEMORY;
		return "names an inbox this process cannot map (out of address space)";
	}
	if (!sd_rdma_ring_names(p, pid, conn_id, token)) {
		munmap(p, len);
		close(f);
		return "names an inbox whose header holds another connection or token (stale or forged blob)";
	}
	sd_rdma_ring_prefault(p, len);
	m->ring = p;
	m->fd = f;
	return NULL;
}

void sd_rdma_ring_detach(struct sd_rdma_ring_map *m)
{
	if (m->ring != NULL)
		munmap(m->ring, sd_rdma_ring_bytes());
	if (m->fd >= 0)
		close(m->fd);
	m->ring = NULL;
	m->fd = -1;
}

bool sd_rdma_ring_owner_alive(const struct sd_rdma_ring_map *m, uint32_t owner_pid)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};

	if (owner_pid == (uint32_t)getpid())
		return true; /* our own process: its stop marks the ring instead */
	if (m->fd < 0 || fcntl(m->fd, F_GETLK, &fl) != 0)
		return false;
	return fl.l_type != F_UNLCK && (uint32_t)fl.l_pid == owner_pid;
}

struct sd_rdma_slot *sd_rdma_ring_reserve(struct sd_rdma_ring *r)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	struct sd_rdma_slot *s = &r->slot[tail % SD_RDMA_RING_SLOTS];

	/* A slot the receiver passed may still wait for us to read its verdict: only a FREE one is reused. */
	if (tail - head >= SD_RDMA_RING_SLOTS || atomic_load_explicit(&s->state, memory_order_acquire) != SD_RDMA_SLOT_FREE)
		return NULL;
	return s;
}

void sd_rdma_ring_publish(struct sd_rdma_ring *r, struct sd_rdma_slot *s)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	atomic_store_explicit(&s->state, SD_RDMA_SLOT_PENDING, memory_order_release);
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
}
