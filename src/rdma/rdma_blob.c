/*
 * rdma_blob.c - the out-of-band connection blob of doca_rdma_export /
 * doca_rdma_connect.
 *
 * 160 bytes, little-endian (version 2):
 *    0 u32 magic "SDRC"   4 u16 version   6 u16 zero
 *    8 u32 pid           12 u32 connection id
 *   16 u64 process start time (clock ticks since boot)
 *   24 u64 context serial 32 u32 context permissions
 *   36 u32 inbox ring fd (in process `pid`)
 *   40 u8[16] token       56 u64 zero
 *   64 u64 inbox ring bytes                  72 u64 zero
 *   80 u8[16] boot id of the exporter's machine
 *   96 u64 PID namespace device  104 u64 PID namespace inode
 *  112 u8 network family (0 none, 4, 6)  113 u8 zero  114 u16 port
 *  116 u8[16] network address    132 u32 presence generation
 *  136 u64 presence export id    144 u64 presence record address
 *  152 u16 message port (0: takes no messages from elsewhere, rdma_net.h)
 *  154 u16 zero                  156 u32 checksum (FNV-1a of bytes 0..155)
 * Bytes 36..71 name the connection end's inbox ring, which a sender in
 * another process of this machine maps (rdma_ring.h); bytes 80..155 say
 * where the end runs and how a peer in another namespace or on another
 * machine checks it (sd_presence.h).  Version 1 (64 bytes, checksum at
 * 60, no ring) named no inbox, so sends could not cross processes; it is
 * refused with its own message.  The blob comes from anywhere (a file, a
 * socket): every field is checked before one is used, and the token must
 * match the live connection (in this process), the header of the ring it
 * names (another process here) or the peer's answer (elsewhere).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rdma_priv.h"

#define SD_RDMA_BLOB_MAGIC 0x43524453u /* "SDRC" */
#define SD_RDMA_BLOB_VERSION 2u
#define SD_RDMA_BLOB_SUM_OFF (SD_RDMA_BLOB_LEN - 4u)
/* Highest descriptor number a blob may name (a file descriptor is an int). */
#define SD_RDMA_BLOB_MAX_FD 0x7fffffffu

static void sd_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void sd_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t sd_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t sd_get64(const uint8_t *p)
{
	return (uint64_t)sd_get32(p) | (uint64_t)sd_get32(p + 4) << 32;
}

static void sd_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static uint16_t sd_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t sd_fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* Bytes 80..151: where the exporter runs. */
static void sd_rdma_blob_put_where(const struct sd_presence_ref *at, uint8_t *out)
{
	memcpy(out + 80, at->boot_id, SD_PRESENCE_BOOT_LEN);
	sd_put64(out + 96, at->pidns_dev);
	sd_put64(out + 104, at->pidns_ino);
	out[112] = at->net_family;
	sd_put16(out + 114, at->net_port);
	memcpy(out + 116, at->net_addr, sizeof(at->net_addr));
	sd_put32(out + 132, at->generation);
	sd_put64(out + 136, at->export_id);
	sd_put64(out + 144, at->rec_addr);
}

static void sd_rdma_blob_get_where(const uint8_t *b, struct sd_presence_ref *at)
{
	memcpy(at->boot_id, b + 80, SD_PRESENCE_BOOT_LEN);
	at->pidns_dev = sd_get64(b + 96);
	at->pidns_ino = sd_get64(b + 104);
	at->net_family = b[112];
	at->net_port = sd_get16(b + 114);
	memcpy(at->net_addr, b + 116, sizeof(at->net_addr));
	at->generation = sd_get32(b + 132);
	at->export_id = sd_get64(b + 136);
	at->rec_addr = sd_get64(b + 144);
}

/* Reserved bytes must be zero: a blob of a later format is refused, not misread. */
static bool sd_rdma_blob_reserved_zero(const uint8_t *b)
{
	return b[6] == 0 && b[7] == 0 && sd_get64(b + 56) == 0 && sd_get64(b + 72) == 0 && b[113] == 0 &&
	       sd_get16(b + 154) == 0;
}

void sd_rdma_blob_encode(const struct sd_rdma_conn_ident *id, uint8_t out[SD_RDMA_BLOB_LEN])
{
	memset(out, 0, SD_RDMA_BLOB_LEN);
	sd_put32(out + 0, SD_RDMA_BLOB_MAGIC);
	out[4] = SD_RDMA_BLOB_VERSION;
	sd_put32(out + 8, id->pid);
	sd_put32(out + 12, id->conn_id);
	sd_put64(out + 16, id->start_time);
	sd_put64(out + 24, id->ctx_serial);
	sd_put32(out + 32, id->perms);
	sd_put32(out + 36, (uint32_t)id->ring_fd);
	memcpy(out + 40, id->token, SD_RDMA_TOKEN_LEN);
	sd_put64(out + 64, id->ring_bytes);
	sd_rdma_blob_put_where(&id->at, out);
	sd_put16(out + 152, id->msg_port);
	sd_put32(out + SD_RDMA_BLOB_SUM_OFF, sd_fnv1a(out, SD_RDMA_BLOB_SUM_OFF));
}

/* A well-formed blob of the first format: say so rather than "truncated". */
static bool sd_rdma_blob_is_v1(const uint8_t *b, size_t len)
{
	return len == SD_RDMA_BLOB_V1_LEN && sd_get32(b) == SD_RDMA_BLOB_MAGIC && b[4] == 1 && b[5] == 0;
}

/* NULL when `blob` is a well-formed blob (then *id holds it), else what is wrong with it. */
const char *sd_rdma_blob_decode(const void *blob, size_t len, struct sd_rdma_conn_ident *id)
{
	const uint8_t *b = blob;

	if (sd_rdma_blob_is_v1(b, len))
		return "is of format version 1 (an older softdoca), which names no inbox; run both sides with the "
		       "same softdoca";
	if (len != SD_RDMA_BLOB_LEN)
		return len < SD_RDMA_BLOB_LEN ? "is truncated" : "is longer than a connection blob";
	if (sd_get32(b) != SD_RDMA_BLOB_MAGIC)
		return "does not start with the connection blob magic";
	if (b[4] != SD_RDMA_BLOB_VERSION || b[5] != 0)
		return "has a format version this softdoca does not read";
	if (sd_get32(b + SD_RDMA_BLOB_SUM_OFF) != sd_fnv1a(b, SD_RDMA_BLOB_SUM_OFF))
		return "fails its checksum (altered or corrupted)";
	if (!sd_rdma_blob_reserved_zero(b))
		return "has non-zero reserved bytes";
	if (b[112] != 0 && b[112] != 4 && b[112] != 6)
		return "names an unknown network address family";
	id->pid = sd_get32(b + 8);
	id->conn_id = sd_get32(b + 12);
	id->start_time = sd_get64(b + 16);
	id->ctx_serial = sd_get64(b + 24);
	id->perms = sd_get32(b + 32);
	memcpy(id->token, b + 40, SD_RDMA_TOKEN_LEN);
	id->ring_bytes = sd_get64(b + 64);
	uint32_t fd = sd_get32(b + 36);
	sd_rdma_blob_get_where(b, &id->at);
	id->msg_port = sd_get16(b + 152);
	if (id->pid == 0)
		return "names no process";
	if (fd > SD_RDMA_BLOB_MAX_FD || id->ring_bytes != sd_rdma_ring_bytes())
		return "names an inbox ring of a size or descriptor this softdoca does not use";
	id->ring_fd = (int32_t)fd;
	return NULL;
}

/* Start time of process `pid` in clock ticks since boot (field 22 of its stat file); 0 if unknown. */
static uint64_t sd_rdma_start_time_of(uint32_t pid)
{
	char path[64], buf[1024];
	unsigned long long start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	f = fopen(path, "re");
	if (f == NULL)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	if (p == NULL)
		return 0;
	/* After ")": state is field 3; start time is field 22. */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
		   &start) != 1)
		return 0;
	return start;
}

int sd_rdma_self_identity(uint32_t *pid, uint64_t *start_time)
{
	*pid = (uint32_t)getpid();
	*start_time = sd_rdma_start_time_of(*pid);
	return *start_time != 0 ? 0 : -1;
}

bool sd_rdma_process_alive(uint32_t pid, uint64_t start_time)
{
	return sd_rdma_start_time_of(pid) == start_time;
}
