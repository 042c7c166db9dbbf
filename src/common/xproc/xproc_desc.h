/*
 * xproc_desc.h - the export descriptor: its fields and its byte layout.
 *
 * A descriptor is what doca_mmap_export_pci hands out and
 * doca_mmap_create_from_export takes back, possibly in another process and
 * after a round trip through a file or a message.  The layout is fixed,
 * little-endian and versioned; xproc_desc.c is the only code that knows
 * it.  Decoding is pure (no system call, no allocation, no logging), so
 * the fuzz target and the tests compile that file on its own.
 */
#ifndef SD_XPROC_DESC_H
#define SD_XPROC_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SD_XP_DESC_MAGIC 0x50584453u /* "SDXP" as little-endian bytes */
#define SD_XP_DESC_VERSION 1u        /* the exporter is reached on this machine only */
#define SD_XP_DESC_LEN 176u          /* length of a version 1 descriptor */
/*
 * Version 2 is version 1 plus a network endpoint (struct sd_xp_net): where
 * an importer in another PID or network namespace, or on another machine,
 * reaches the exporter over UCX.  Exporters write version 1 whenever they
 * offer no endpoint, so importers built before version 2 keep working with
 * them; a version 1 importer refuses a version 2 descriptor by its version.
 */
#define SD_XP_DESC_VERSION_NET 2u
#define SD_XP_DESC_NET_LEN 208u
#define SD_XP_DESC_MAX_LEN SD_XP_DESC_NET_LEN /* descriptors stay within 256 bytes */

#define SD_XP_KIND_PCI 1u
#define SD_XP_KIND_RDMA 2u /* doca_mmap_export_rdma: RDMA rights instead of PCI ones */
#define SD_XP_ACCESS_RDMA_ANY (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/* flags */
#define SD_XP_FLAG_SHARED 0x01u     /* the range is a shared file mapping (see `shared`) */
#define SD_XP_FLAG_RECORD_TMP 0x02u /* validity record in /tmp instead of /dev/shm */
#define SD_XP_FLAG_RESIDENT 0x04u   /* the exporter registered the range resident (doca_mmap_start) */
#define SD_XP_FLAG_RELAY 0x08u      /* handed on by another process, whose record can revoke it (`relay`) */
#define SD_XP_FLAGS_KNOWN 0x0fu

#define SD_XP_TOKEN_LEN 16u
#define SD_XP_BOOT_ID_LEN 16u
#define SD_XP_PCI_LEN 16u

/* Who a process is, in a form another process can check. */
struct sd_xp_identity {
	uint32_t pid;
	uint64_t start_time;            /* clock ticks after boot (/proc/PID/stat field 22) */
	uint8_t boot_id[SD_XP_BOOT_ID_LEN]; /* machine identity for this boot */
	uint64_t pidns_dev, pidns_ino;  /* PID namespace (stat of /proc/self/ns/pid) */
};

/* Where the exporter's range lives when it is a shared file mapping. */
struct sd_xp_shared {
	int32_t fd;        /* descriptor number in the exporter that keeps the file open */
	uint64_t dev, ino; /* identity of the file, checked by the importer */
	uint64_t file_off; /* file offset of the page holding the range start */
};

/* A network endpoint: the exporter's UCX listener. */
#define SD_XP_NET_NONE 0u
#define SD_XP_NET_IPV4 4u
#define SD_XP_NET_IPV6 6u

struct sd_xp_net {
	uint8_t family; /* SD_XP_NET_NONE, _IPV4 or _IPV6 */
	uint16_t port;  /* TCP port, host order */
	uint8_t addr[16]; /* IPv4 in the first 4 bytes, network order */
};

/* A descriptor, decoded. */
struct sd_xp_desc {
	uint8_t kind;
	uint8_t flags;
	uint32_t access_mask;
	uint32_t generation; /* exports made over the exporting mmap's life */
	struct sd_xp_identity who;
	uint64_t export_id;  /* unique per process and per started period of an mmap */
	uint64_t addr, len;  /* the exported range, exporter addresses */
	uint8_t token[SD_XP_TOKEN_LEN]; /* with SD_XP_FLAG_RELAY the relay's token, not the exporter's */
	char dev_pci[SD_XP_PCI_LEN]; /* exporting device, NUL-terminated */
	struct sd_xp_shared shared;  /* valid with SD_XP_FLAG_SHARED */
	struct sd_xp_net net;        /* family NONE in a version 1 descriptor */
	/*
	 * With SD_XP_FLAG_RELAY: the process that handed the export on (a DPU
	 * re-exporting a PCI import for RDMA) and the validity record it keeps
	 * for that (its export id), in bytes 152..167 that are zero otherwise.
	 */
	struct {
		uint32_t pid;
		uint32_t export_id;
		uint64_t start_time;
	} relay;
};

/*
 * Write `d` into `out`: SD_XP_DESC_LEN bytes (version 1) when it carries no
 * network endpoint, else SD_XP_DESC_NET_LEN bytes (version 2).  `out` has
 * room for that many bytes.  Returns the length written.
 */
size_t sd_xp_desc_encode(const struct sd_xp_desc *d, uint8_t *out);

/*
 * Parse `len` bytes at `buf` into `d`.  Returns NULL when the bytes are a
 * well-formed descriptor, otherwise a short phrase saying what is wrong
 * (d is then unspecified).  Never reads outside [buf, buf + len).
 */
const char *sd_xp_desc_decode(const void *buf, size_t len, struct sd_xp_desc *d);

/* The checksum stored in the last 8 bytes, over the bytes before it. */
uint64_t sd_xp_desc_checksum(const uint8_t *bytes, size_t len);

/* Constant-time token comparison: how many bytes match says nothing to a guesser. */
static inline bool sd_xp_token_equal(const uint8_t *a, const uint8_t *b)
{
	uint8_t diff = 0;

	for (size_t i = 0; i < SD_XP_TOKEN_LEN; i++)
		diff |= (uint8_t)(a[i] ^ b[i]);
	return diff == 0;
}

/* Offset of the checksum inside an encoded descriptor of each version. */
#define SD_XP_DESC_SUM_OFF (SD_XP_DESC_LEN - 8u)
#define SD_XP_DESC_NET_SUM_OFF (SD_XP_DESC_NET_LEN - 8u)

#endif /* SD_XPROC_DESC_H */
