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

void sd_se_desc_encode(const struct sd_se_desc *d, uint8_t out[SD_SE_DESC_LEN])
{
	memset(out, 0, SD_SE_DESC_LEN);
	sd_le_put32(out + OFF_MAGIC, SD_SE_DESC_MAGIC);
	sd_le_put16(out + OFF_VERSION, SD_SE_DESC_VERSION);
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

	if (buf == NULL || len != SD_SE_DESC_LEN)
		return "the descriptor does not have the length of a sync event export (truncated or padded)";
	if (sd_le_get32(b + OFF_MAGIC) != SD_SE_DESC_MAGIC)
		return "the bytes are not a sync event export (bad magic)";
	if (sd_le_get16(b + OFF_VERSION) != SD_SE_DESC_VERSION)
		return "the descriptor's version is not one this library reads";
	if (sd_le_get64(b + OFF_SUM) != sd_xp_desc_checksum(b, OFF_SUM))
		return "the descriptor's checksum does not match (altered or corrupted bytes)";
	if (b[OFF_KIND] != SD_SE_KIND_PCI && b[OFF_KIND] != SD_SE_KIND_NET)
		return "the descriptor's kind is unknown";
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
	return sd_se_desc_name(b + OFF_NAME, d->name);
}
