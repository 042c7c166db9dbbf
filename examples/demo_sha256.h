/*
 * demo_sha256.h - SHA-256 (FIPS 180-4) for the host/DPU demo.
 *
 * Both sides of the demo hash the same bytes: the host before it exports
 * its buffer, the DPU after it pulled the buffer over DMA.  Equal digests
 * say the transfer was exact.  A small implementation of our own keeps the
 * example free of any crypto library dependency.
 */
#ifndef DEMO_SHA256_H
#define DEMO_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define DEMO_SHA256_BYTES 32
#define DEMO_SHA256_HEX_LEN (2 * DEMO_SHA256_BYTES) /* without the NUL */

struct demo_sha256 {
	uint32_t state[8];
	uint64_t total_bytes;  /* everything fed so far */
	uint8_t pending[64];   /* a block not yet complete */
	size_t pending_len;
};

void demo_sha256_init(struct demo_sha256 *ctx);
void demo_sha256_update(struct demo_sha256 *ctx, const void *data, size_t len);
void demo_sha256_final(struct demo_sha256 *ctx, uint8_t digest[DEMO_SHA256_BYTES]);

/* One-shot digest of a buffer. */
void demo_sha256(const void *data, size_t len, uint8_t digest[DEMO_SHA256_BYTES]);

/* Lower-case hex of a digest; hex needs DEMO_SHA256_HEX_LEN + 1 bytes. */
void demo_sha256_hex(const uint8_t digest[DEMO_SHA256_BYTES], char *hex);

/* Which block function runs: "sha-ni" (x86 SHA extensions) or "portable". */
const char *demo_sha256_implementation(void);

/* Force one ("portable" or "sha-ni"); -1 if it cannot run here.  For tests. */
int demo_sha256_select(const char *name);

#endif /* DEMO_SHA256_H */
