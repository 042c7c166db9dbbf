/*
 * se_desc.c - the bytes of a sync event export descriptor.
 *
 * Layout, little-endian, 128 bytes:
 *   0 u32 magic "SDSE"   4 u16 version      6 u8 kind        7 u8 zero
 *   8 u32 exporter pid  12 u32 zero        16 u64 exporter start time
 *  24 16B boot id       40 u64 pidns dev   48 u64 pidns inode
 *  56 16B token         72 u64 file dev    80 u64 file inode
 *  88 32B /dev/shm name, NUL-padded       120 u64 checksum (FNV-1a 64 of 0..119)
 *
 * Version 2 (remote net, se_desc.h) appends a u32 length and the RDMA
 * export descriptor of the page; decoding only bounds that tail, whose own
 * checks belong to the memory layer's import.
 *
 * Decoding refuses what it does not fully understand: another length,
 * magic, version or kind, non-zero reserved bytes, a name that is not ours.
 */
#include <string.h>

#include "se_desc.h"
#include "../xproc/xproc_le.h"

enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 4,
	OFF_KIND = 6,
	OFF_ZERO1 = 7,
	OFF_PID = 8,
	OFF_ZERO2 = 12,
	OFF_START = 16,
	OFF_BOOT = 24,
	OFF_NS_DEV = 40,
	OFF_NS_INO = 48,
	OFF_TOKEN = 56,
	OFF_FILE_DEV = 72,
	OFF_FILE_INO = 80,
	OFF_NAME = 88,
	OFF_SUM = 120,
};

_Static_assert(OFF_SUM + 8 == SD_SE_DESC_LEN, "checksum sits in the last 8 bytes");
_Static_assert(OFF_SUM - OFF_NAME == SD_SE_NAME_LEN + 1, "the name field holds a name and its NUL");

/* The 128 bytes of either version, the version field included. */
static void sd_se_desc_encode_v(const struct sd_se_desc *d, uint16_t version, uint8_t out[SD_SE_DESC_LEN])
{
	memset(out, 0, SD_SE_DESC_LEN);
	sd_le_put32(out + OFF_MAGIC, SD_SE_DESC_MAGIC);
	sd_le_put16(out + OFF_VERSION, version);
	out[OFF_KIND] = d->kind;
	sd_le_put32(out + OFF_PID, d->who.pid);
	sd_le_put64(out + OFF_START, d->who.start_time);
	memcpy(out + OFF_BOOT, d->who.boot_id, SD_XP_BOOT_ID_LEN);
	sd_le_put64(out + OFF_NS_DEV, d->who.pidns_dev);
	sd_le_put64(out + OFF_NS_INO, d->who.pidns_ino);
	memcpy(out + OFF_TOKEN, d->token, SD_SE_TOKEN_LEN);
	sd_le_put64(out + OFF_FILE_DEV, d->file_dev);
	sd_le_put64(out + OFF_FILE_INO, d->file_ino);
	memcpy(out + OFF_NAME, d->name, strnlen(d->name, SD_SE_NAME_LEN));
	sd_le_put64(out + OFF_SUM, sd_xp_desc_checksum(out, OFF_SUM));
}

void sd_se_desc_encode(const struct sd_se_desc *d, uint8_t out[SD_SE_DESC_LEN])
{
	sd_se_desc_encode_v(d, SD_SE_DESC_VERSION, out);
}

size_t sd_se_desc_add_net_tail(uint8_t *out, const void *tail, size_t tail_len)
{
	/* Version 2 covers its version field with the same checksum, so the two cannot be swapped. */
	sd_le_put16(out + OFF_VERSION, SD_SE_DESC_VERSION_NET);
	sd_le_put64(out + OFF_SUM, sd_xp_desc_checksum(out, OFF_SUM));
	sd_le_put32(out + SD_SE_DESC_LEN, (uint32_t)tail_len);
	memcpy(out + SD_SE_DESC_LEN + 4, tail, tail_len);
	return SD_SE_DESC_LEN + 4 + tail_len;
}

/* Our names only: "sdse-" and lowercase hex digits and dashes, NUL-padded. */
static const char *sd_se_desc_name(const uint8_t *field, char *name)
{
	size_t n = strnlen((const char *)field, SD_SE_NAME_LEN + 1);

	if (n == 0 || n > SD_SE_NAME_LEN)
		return "the shared page's name is empty or not terminated";
	for (size_t i = n; i <= SD_SE_NAME_LEN; i++)
		if (field[i] != 0)
			return "bytes after the shared page's name are not zero";
	if (n < 6 || memcmp(field, "sdse-", 5) != 0)
		return "the shared page's name is not a sync event's";
	for (size_t i = 5; i < n; i++) {
		uint8_t c = field[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-'))
			return "the shared page's name holds a character a sync event never uses";
	}
	memcpy(name, field, n);
	name[n] = 0;
	return NULL;
}

const char *sd_se_desc_decode(const void *buf, size_t len, struct sd_se_desc *d)
{
	const uint8_t *b = buf;

	uint16_t version;
	uint32_t tail = 0;

	if (buf == NULL || len < SD_SE_DESC_LEN)
		return "the descriptor does not have the length of a sync event export (truncated or padded)";
	if (sd_le_get32(b + OFF_MAGIC) != SD_SE_DESC_MAGIC)
		return "the bytes are not a sync event export (bad magic)";
	version = sd_le_get16(b + OFF_VERSION);
	if (version != SD_SE_DESC_VERSION && version != SD_SE_DESC_VERSION_NET)
		return "the descriptor's version is not one this library reads";
	if (version == SD_SE_DESC_VERSION_NET && len >= SD_SE_DESC_LEN + 4)
		tail = sd_le_get32(b + SD_SE_DESC_LEN);
	if (version == SD_SE_DESC_VERSION_NET && (tail == 0 || tail > SD_SE_DESC_NET_TAIL_MAX))
		return "the descriptor's network part is missing or longer than any this library writes";
	if (len != (version == SD_SE_DESC_VERSION ? SD_SE_DESC_LEN : SD_SE_DESC_LEN + 4 + (size_t)tail))
		return "the descriptor does not have the length of a sync event export (truncated or padded)";
	if (sd_le_get64(b + OFF_SUM) != sd_xp_desc_checksum(b, OFF_SUM))
		return "the descriptor's checksum does not match (altered or corrupted bytes)";
	if (b[OFF_KIND] != SD_SE_KIND_PCI && b[OFF_KIND] != SD_SE_KIND_NET)
		return "the descriptor's kind is unknown";
	if (version == SD_SE_DESC_VERSION_NET && b[OFF_KIND] != SD_SE_KIND_NET)
		return "a remote-PCI descriptor with a network part";
	if (b[OFF_ZERO1] != 0 || sd_le_get32(b + OFF_ZERO2) != 0)
		return "reserved bytes of the descriptor are not zero";
	memset(d, 0, sizeof(*d));
	d->kind = b[OFF_KIND];
	d->who.pid = sd_le_get32(b + OFF_PID);
	if (d->who.pid == 0)
		return "the descriptor names no exporting process";
	d->who.start_time = sd_le_get64(b + OFF_START);
	memcpy(d->who.boot_id, b + OFF_BOOT, SD_XP_BOOT_ID_LEN);
	d->who.pidns_dev = sd_le_get64(b + OFF_NS_DEV);
	d->who.pidns_ino = sd_le_get64(b + OFF_NS_INO);
	memcpy(d->token, b + OFF_TOKEN, SD_SE_TOKEN_LEN);
	d->file_dev = sd_le_get64(b + OFF_FILE_DEV);
	d->file_ino = sd_le_get64(b + OFF_FILE_INO);
	if (tail != 0) {
		d->net_off = SD_SE_DESC_LEN + 4;
		d->net_len = tail;
	}
	return sd_se_desc_name(b + OFF_NAME, d->name);
}
