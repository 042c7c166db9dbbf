/*
 * xproc_desc.c - encoding and strict decoding of export descriptors.
 *
 * Layout (little-endian, no padding, SD_XP_DESC_LEN bytes):
 *
 *   0 u32 magic        4 u16 version      6 u16 length
 *   8 u8  kind         9 u8  flags       10 u16 zero
 *  12 u32 access mask 16 u32 pid         20 u32 generation
 *  24 u64 start time  32 16B boot id     48 u64 pidns dev   56 u64 pidns ino
 *  64 u64 export id   72 u64 addr        80 u64 len
 *  88 16B token      104 16B device PCI address (NUL-padded)
 * 120 i32 shared fd  124 u32 zero       128 u64 file dev  136 u64 file ino
 * 144 u64 file offset 152 16B zero      168 u64 checksum (FNV-1a 64 of 0..167)
 *
 * With the relay flag, bytes 152..167 name the relaying process instead:
 * 152 u32 relay pid  156 u32 relay export id  160 u64 relay start time
 *
 * Version 2 keeps bytes 0..167 and puts the network endpoint where the
 * checksum was; its checksum covers 0..199:
 *
 * 168 u8  family (4, 6)  169 u8 zero     170 u16 port     172 u32 zero
 * 176 16B address (IPv4 in the first 4 bytes, the rest zero)
 * 192 8B  zero          200 u64 checksum (FNV-1a 64 of 0..199)
 *
 * Decoding refuses anything it does not fully understand: unknown
 * version, kind or flag, non-zero reserved bytes, a bad checksum, an
 * impossible range or mask.  A descriptor that passes can still name a
 * process that is gone or an export that was stopped; those are judged by
 * the import (xproc_import.c).
 */
#include <string.h>

#include <doca_types.h>

#include "xproc_desc.h"
#include "xproc_le.h"

enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 4,
	OFF_LENGTH = 6,
	OFF_KIND = 8,
	OFF_FLAGS = 9,
	OFF_ZERO0 = 10,
	OFF_MASK = 12,
	OFF_PID = 16,
	OFF_GEN = 20,
	OFF_START = 24,
	OFF_BOOT = 32,
	OFF_NSDEV = 48,
	OFF_NSINO = 56,
	OFF_EXPORT_ID = 64,
	OFF_ADDR = 72,
	OFF_LEN = 80,
	OFF_TOKEN = 88,
	OFF_PCI = 104,
	OFF_SH_FD = 120,
	OFF_ZERO1 = 124,
	OFF_SH_DEV = 128,
	OFF_SH_INO = 136,
	OFF_SH_OFF = 144,
	OFF_ZERO2 = 152,
	OFF_SUM = 168,
	/* version 2 */
	OFF_NET_FAMILY = 168,
	OFF_NET_ZERO0 = 169,
	OFF_NET_PORT = 170,
	OFF_NET_ZERO1 = 172,
	OFF_NET_ADDR = 176,
	OFF_NET_ZERO2 = 192,
	OFF_NET_SUM = 200,
};

_Static_assert(OFF_SUM == SD_XP_DESC_SUM_OFF, "checksum sits in the last 8 bytes");
_Static_assert(OFF_NET_SUM == SD_XP_DESC_NET_SUM_OFF, "checksum sits in the last 8 bytes");
_Static_assert(SD_XP_DESC_MAX_LEN <= 256, "descriptors stay within 256 bytes");

#define SD_XP_ACCESS_ALL 0x7Fu
#define SD_XP_PAGE_MASK 4095u

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

uint64_t sd_xp_desc_checksum(const uint8_t *bytes, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= bytes[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The endpoint block of a version 2 descriptor. */
static void sd_xp_encode_net(const struct sd_xp_net *net, uint8_t *out)
{
	out[OFF_NET_FAMILY] = net->family;
	sd_le_put16(out + OFF_NET_PORT, net->port);
	memcpy(out + OFF_NET_ADDR, net->addr, net->family == SD_XP_NET_IPV4 ? 4 : 16);
}

size_t sd_xp_desc_encode(const struct sd_xp_desc *d, uint8_t *out)
{
	bool net = d->net.family != SD_XP_NET_NONE;
	size_t len = net ? SD_XP_DESC_NET_LEN : SD_XP_DESC_LEN;
	size_t sum_off = len - 8u;

	memset(out, 0, len);
	sd_le_put32(out + OFF_MAGIC, SD_XP_DESC_MAGIC);
	sd_le_put16(out + OFF_VERSION, net ? SD_XP_DESC_VERSION_NET : SD_XP_DESC_VERSION);
	sd_le_put16(out + OFF_LENGTH, (uint16_t)len);
	out[OFF_KIND] = d->kind;
	out[OFF_FLAGS] = d->flags;
	sd_le_put32(out + OFF_MASK, d->access_mask);
	sd_le_put32(out + OFF_PID, d->who.pid);
	sd_le_put32(out + OFF_GEN, d->generation);
	sd_le_put64(out + OFF_START, d->who.start_time);
	memcpy(out + OFF_BOOT, d->who.boot_id, SD_XP_BOOT_ID_LEN);
	sd_le_put64(out + OFF_NSDEV, d->who.pidns_dev);
	sd_le_put64(out + OFF_NSINO, d->who.pidns_ino);
	sd_le_put64(out + OFF_EXPORT_ID, d->export_id);
	sd_le_put64(out + OFF_ADDR, d->addr);
	sd_le_put64(out + OFF_LEN, d->len);
	memcpy(out + OFF_TOKEN, d->token, SD_XP_TOKEN_LEN);
	memcpy(out + OFF_PCI, d->dev_pci, strnlen(d->dev_pci, SD_XP_PCI_LEN - 1));
	if (d->flags & SD_XP_FLAG_SHARED) {
		sd_le_put32(out + OFF_SH_FD, (uint32_t)d->shared.fd);
		sd_le_put64(out + OFF_SH_DEV, d->shared.dev);
		sd_le_put64(out + OFF_SH_INO, d->shared.ino);
		sd_le_put64(out + OFF_SH_OFF, d->shared.file_off);
	} else {
		sd_le_put32(out + OFF_SH_FD, UINT32_MAX); /* -1: no shared file */
	}
	if (d->flags & SD_XP_FLAG_RELAY) {
		sd_le_put32(out + OFF_ZERO2, d->relay.pid);
		sd_le_put32(out + OFF_ZERO2 + 4, d->relay.export_id);
		sd_le_put64(out + OFF_ZERO2 + 8, d->relay.start_time);
	}
	if (net)
		sd_xp_encode_net(&d->net, out);
	sd_le_put64(out + sum_off, sd_xp_desc_checksum(out, sum_off));
	return len;
}

/* The header: everything that says "this is a descriptor we can read". */
static const char *sd_xp_check_header(const uint8_t *b, size_t len)
{
	if (len < OFF_LENGTH + 2)
		return "is too short to be a softdoca export descriptor";
	if (sd_le_get32(b + OFF_MAGIC) != SD_XP_DESC_MAGIC)
		return "does not start with the softdoca descriptor magic";
	uint16_t version = sd_le_get16(b + OFF_VERSION);
	if (version != SD_XP_DESC_VERSION && version != SD_XP_DESC_VERSION_NET)
		return "has a descriptor version this softdoca does not know";
	size_t want = version == SD_XP_DESC_VERSION ? SD_XP_DESC_LEN : SD_XP_DESC_NET_LEN;
	if (sd_le_get16(b + OFF_LENGTH) != len || len != want)
		return "has a length that does not match its header (truncated or padded)";
	if (sd_le_get64(b + len - 8u) != sd_xp_desc_checksum(b, len - 8u))
		return "fails its checksum (corrupted in transit?)";
	if (b[OFF_KIND] != SD_XP_KIND_PCI && b[OFF_KIND] != SD_XP_KIND_RDMA)
		return "has an export kind this softdoca does not produce";
	if (b[OFF_FLAGS] & ~SD_XP_FLAGS_KNOWN)
		return "has unknown flags";
	if (!all_zero(b + OFF_ZERO0, 2) || !all_zero(b + OFF_ZERO1, 4) ||
	    (!(b[OFF_FLAGS] & SD_XP_FLAG_RELAY) && !all_zero(b + OFF_ZERO2, 16)))
		return "has non-zero reserved bytes";
	if (version == SD_XP_DESC_VERSION_NET &&
	    (b[OFF_NET_ZERO0] != 0 || !all_zero(b + OFF_NET_ZERO1, 4) || !all_zero(b + OFF_NET_ZERO2, 8)))
		return "has non-zero reserved bytes";
	return NULL;
}

/* The endpoint block: an address family we know, a port, nothing after an IPv4 address. */
static const char *sd_xp_decode_net(const uint8_t *b, struct sd_xp_net *net)
{
	net->family = b[OFF_NET_FAMILY];
	net->port = sd_le_get16(b + OFF_NET_PORT);
	memcpy(net->addr, b + OFF_NET_ADDR, sizeof(net->addr));
	if (net->family != SD_XP_NET_IPV4 && net->family != SD_XP_NET_IPV6)
		return "has a network endpoint of an unknown address family";
	if (net->port == 0)
		return "has a network endpoint without a port";
	if (net->family == SD_XP_NET_IPV4 && !all_zero(net->addr + 4, 12))
		return "has non-zero reserved bytes";
	return NULL;
}

/* Values that no exporter could have written. */
static const char *sd_xp_check_values(const struct sd_xp_desc *d)
{
	if (d->access_mask & ~SD_XP_ACCESS_ALL)
		return "has access bits outside enum doca_access_flag";
	if ((d->access_mask & DOCA_ACCESS_FLAG_PCI_READ_ONLY) && (d->access_mask & DOCA_ACCESS_FLAG_PCI_READ_WRITE))
		return "combines PCI_READ_ONLY with PCI_READ_WRITE";
	if (d->kind == SD_XP_KIND_PCI &&
	    (d->access_mask & (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)) == 0)
		return "grants no PCI access, which no PCI export can";
	if (d->kind == SD_XP_KIND_RDMA && (d->access_mask & SD_XP_ACCESS_RDMA_ANY) == 0)
		return "grants no RDMA access, which no RDMA export can";
	if (d->who.pid == 0 || d->who.pid > (uint32_t)INT32_MAX)
		return "names an impossible process id";
	if (d->len == 0 || d->addr == 0 || d->len > UINT64_MAX - d->addr)
		return "has an empty or impossible memory range";
	if (memchr(d->dev_pci, '\0', SD_XP_PCI_LEN) == NULL || d->dev_pci[0] == '\0')
		return "has no valid exporting device address";
	for (size_t i = 0; d->dev_pci[i] != '\0'; i++)
		if (!((d->dev_pci[i] >= '0' && d->dev_pci[i] <= '9') || (d->dev_pci[i] >= 'a' && d->dev_pci[i] <= 'f') ||
		      d->dev_pci[i] == ':' || d->dev_pci[i] == '.'))
			return "has a malformed exporting device address";
	if (d->flags & SD_XP_FLAG_SHARED) {
		if (d->shared.fd < 0 || (d->shared.file_off & SD_XP_PAGE_MASK) != 0 ||
		    d->shared.file_off > (uint64_t)INT64_MAX)
			return "has an impossible shared-mapping hint";
	} else if (d->shared.fd != -1 || d->shared.dev != 0 || d->shared.ino != 0 || d->shared.file_off != 0) {
		return "has a shared-mapping hint without its flag";
	}
	return NULL;
}

const char *sd_xp_desc_decode(const void *buf, size_t len, struct sd_xp_desc *d)
{
	const uint8_t *b = buf;
	const char *why = sd_xp_check_header(b, len);

	if (why != NULL)
		return why;
	memset(d, 0, sizeof(*d));
	d->kind = b[OFF_KIND];
	d->flags = b[OFF_FLAGS];
	d->access_mask = sd_le_get32(b + OFF_MASK);
	d->who.pid = sd_le_get32(b + OFF_PID);
	d->generation = sd_le_get32(b + OFF_GEN);
	d->who.start_time = sd_le_get64(b + OFF_START);
	memcpy(d->who.boot_id, b + OFF_BOOT, SD_XP_BOOT_ID_LEN);
	d->who.pidns_dev = sd_le_get64(b + OFF_NSDEV);
	d->who.pidns_ino = sd_le_get64(b + OFF_NSINO);
	d->export_id = sd_le_get64(b + OFF_EXPORT_ID);
	d->addr = sd_le_get64(b + OFF_ADDR);
	d->len = sd_le_get64(b + OFF_LEN);
	memcpy(d->token, b + OFF_TOKEN, SD_XP_TOKEN_LEN);
	memcpy(d->dev_pci, b + OFF_PCI, SD_XP_PCI_LEN);
	d->shared.fd = (int32_t)sd_le_get32(b + OFF_SH_FD);
	d->shared.dev = sd_le_get64(b + OFF_SH_DEV);
	d->shared.ino = sd_le_get64(b + OFF_SH_INO);
	d->shared.file_off = sd_le_get64(b + OFF_SH_OFF);
	d->relay.pid = sd_le_get32(b + OFF_ZERO2);
	d->relay.export_id = sd_le_get32(b + OFF_ZERO2 + 4);
	d->relay.start_time = sd_le_get64(b + OFF_ZERO2 + 8);
	if ((d->flags & SD_XP_FLAG_RELAY) && (d->relay.pid == 0 || d->relay.pid > (uint32_t)INT32_MAX))
		return "names an impossible relaying process id";
	if (sd_le_get16(b + OFF_VERSION) == SD_XP_DESC_VERSION_NET) {
		why = sd_xp_decode_net(b, &d->net);
		if (why != NULL)
			return why;
	}
	return sd_xp_check_values(d);
}
