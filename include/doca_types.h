/**
 * @file doca_types.h
 * @brief Plain types shared by the DOCA libraries: user data, access flags,
 * handles, byte-order integers and a few enumerations of other libraries.
 */
#ifndef DOCA_TYPES_H_
#define DOCA_TYPES_H_

#include <stdint.h>

#ifdef __linux__
#include <linux/types.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Something the operating system can wait on: a file descriptor on Linux (epoll, poll). */
typedef int doca_event_handle_t;
/** The value of a doca_event_handle_t that refers to nothing. */
#define doca_event_invalid_handle -1

/** Size in bytes of an RDMA global identifier (GID). */
#define DOCA_GID_BYTE_LENGTH 16

/** The handle a progress engine signals when it has work (an eventfd in softdoca; see doca_pe.h). */
typedef doca_event_handle_t doca_notification_handle_t;

/**
 * An 8-byte value the application attaches to objects and tasks and gets
 * back, unchanged, in their callbacks.  softdoca never interprets it.
 */
union doca_data {
	void *ptr;     /**< the value as a pointer */
	uint64_t u64;  /**< the value as a 64-bit integer */
};

/** One piece of a caller-owned chain of (address, length) pieces; the caller keeps ownership. */
struct doca_gather_list {
	void *addr;                     /**< start of the piece */
	uint64_t len;                   /**< its length in bytes */
	struct doca_gather_list *next;  /**< the next piece, NULL for the last */
};

/**
 * Access rights of a memory map (doca_mmap_set_permissions); bits are
 * OR-ed together.  Local reading is always allowed.
 */
enum doca_access_flag {
	DOCA_ACCESS_FLAG_LOCAL_READ_ONLY = 0, /**< devices of this process may only read the memory */
	DOCA_ACCESS_FLAG_LOCAL_READ_WRITE = (1 << 0), /**< devices of this process may read and write it */
	DOCA_ACCESS_FLAG_RDMA_READ = (1 << 1), /**< a remote peer may read it over RDMA */
	DOCA_ACCESS_FLAG_RDMA_WRITE = (1 << 2), /**< a remote peer may write it over RDMA */
	DOCA_ACCESS_FLAG_RDMA_ATOMIC = (1 << 3), /**< a remote peer may run atomic operations on it over RDMA */
	DOCA_ACCESS_FLAG_PCI_READ_ONLY = (1 << 4), /**< the other side of the PCI link may read it (doca_mmap_export_pci); excludes PCI_READ_WRITE */
	DOCA_ACCESS_FLAG_PCI_READ_WRITE = (1 << 5), /**< the other side of the PCI link may read and write it; excludes PCI_READ_ONLY */
	DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING = (1 << 6), /**< PCI accesses may use relaxed ordering */
};

/** Kind of PCI function behind a device or representor. */
enum doca_pci_func_type {
	DOCA_PCI_FUNC_TYPE_PF = 0, /**< a physical function */
	DOCA_PCI_FUNC_TYPE_VF, /**< a virtual function (SR-IOV) */
	DOCA_PCI_FUNC_TYPE_SF, /**< a scalable (sub-)function */
};

/** A 16-bit integer kept in network (big-endian) byte order. */
typedef __be16 doca_be16_t;
/** A 32-bit integer kept in network (big-endian) byte order. */
typedef __be32 doca_be32_t;
/** A 64-bit integer kept in network (big-endian) byte order. */
typedef __be64 doca_be64_t;

/** Where memory used with a GPU lives (GPU libraries; no softdoca library uses it). */
enum doca_gpu_mem_type {
	DOCA_GPU_MEM_TYPE_GPU = 0, /**< GPU memory the CPU cannot reach */
	DOCA_GPU_MEM_TYPE_GPU_CPU = 1, /**< GPU memory the CPU can also reach */
	DOCA_GPU_MEM_TYPE_CPU_GPU = 2, /**< CPU memory the GPU can also reach */
};

/** How a device supports sending at a given time (Ethernet libraries; no softdoca library uses it). */
enum doca_eth_wait_on_time_type {
	DOCA_ETH_WAIT_ON_TIME_TYPE_NONE = 0, /**< not supported */
	DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE = 1, /**< supported by the device itself */
	DOCA_ETH_WAIT_ON_TIME_TYPE_DPDK = 2, /**< supported in software through DPDK */
};

/** Path MTU codes (RDMA libraries). */
enum doca_mtu_size {
	DOCA_MTU_SIZE_256_BYTES = 0x0, /**< 256 bytes */
	DOCA_MTU_SIZE_512_BYTES = 0x1, /**< 512 bytes */
	DOCA_MTU_SIZE_1K_BYTES = 0x2, /**< 1024 bytes */
	DOCA_MTU_SIZE_2K_BYTES = 0x3, /**< 2048 bytes */
	DOCA_MTU_SIZE_4K_BYTES = 0x4, /**< 4096 bytes */
	DOCA_MTU_SIZE_RAW_ETHERNET = 0x5, /**< reserved for raw Ethernet */
};

#ifdef __cplusplus
}
#endif

#endif /* DOCA_TYPES_H_ */
