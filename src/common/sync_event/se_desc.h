/*
 * se_desc.h - the export descriptor of a sync event: fields and bytes.
 *
 * doca_sync_event_export_to_remote_pci / _remote_net hand these bytes out;
 * doca_sync_event_create_from_export / remote_net_create_from_export take
 * them back in another process.  Like the mmap descriptor (xproc_desc.h) it
 * carries a magic, a version, the exporter's identity and an unguessable
 * token, and ends with a checksum.  Decoding is pure (no system call, no
 * allocation, no logging) so the fuzzer builds this file on its own.
 */
#ifndef SD_SE_DESC_H
#define SD_SE_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "../xproc/xproc_desc.h"

#define SD_SE_DESC_MAGIC 0x45534453u /* "SDSE" as little-endian bytes */
#define SD_SE_DESC_VERSION 1u
#define SD_SE_DESC_LEN 128u
/*
 * Version 2 (remote net only): the 128 bytes of version 1, then a 4-byte
 * length and the RDMA export descriptor of the event's page, through which
 * a peer in another namespace or on another machine reaches the value over
 * the network (se_net.c).  The tail carries its own checksum.
 */
#define SD_SE_DESC_VERSION_NET 2u
#define SD_SE_DESC_NET_TAIL_MAX 1024u
#define SD_SE_DESC_MAX_LEN (SD_SE_DESC_LEN + 4u + SD_SE_DESC_NET_TAIL_MAX)

#define SD_SE_KIND_PCI 1u /* for doca_sync_event_create_from_export */
#define SD_SE_KIND_NET 2u /* for doca_sync_event_remote_net_create_from_export */

#define SD_SE_TOKEN_LEN 16u
#define SD_SE_NAME_LEN 31u /* /dev/shm name, without the leading slash */

struct sd_se_desc {
	uint8_t kind;
	struct sd_xp_identity who; /* the exporting process */
	uint8_t token[SD_SE_TOKEN_LEN];
	uint64_t file_dev, file_ino; /* identity of the shared page's file */
	char name[SD_SE_NAME_LEN + 1];
	uint32_t net_off, net_len; /* version 2: where the page's RDMA export lies in the bytes; 0 when none */
};

/* Write `d` into `out` (SD_SE_DESC_LEN bytes). */
void sd_se_desc_encode(const struct sd_se_desc *d, uint8_t out[SD_SE_DESC_LEN]);

/*
 * Turn the version-1 bytes at `out` into version 2 by appending `tail`
 * (tail_len <= SD_SE_DESC_NET_TAIL_MAX; out holds SD_SE_DESC_MAX_LEN bytes).
 * Returns the new length.
 */
size_t sd_se_desc_add_net_tail(uint8_t *out, const void *tail, size_t tail_len);

/*
 * Parse `len` bytes at `buf` into `d`.  NULL when well formed, else a short
 * phrase saying what is wrong.  Never reads outside [buf, buf + len).
 */
const char *sd_se_desc_decode(const void *buf, size_t len, struct sd_se_desc *d);

#endif /* SD_SE_DESC_H */
