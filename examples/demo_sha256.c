/*
 * demo_sha256.c - SHA-256 as FIPS 180-4 defines it.
 *
 * A portable block function, plus one that uses the x86 SHA extensions when
 * the CPU has them (about ten times faster, so hashing 256 MiB does not
 * dwarf the DMA transfer it checks).  Both produce the same digests; the
 * known-answer test in tests/examples checks each of them.
 */
#include "demo_sha256.h"

#include <stdio.h>
#include <string.h>

/* First 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* First 32 bits of the fractional parts of the square roots of the first 8 primes. */
static const uint32_t initial_state[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

typedef void (*block_fn)(uint32_t state[8], const uint8_t *data, size_t blocks);

/* ---- portable block function ---------------------------------------------- */

static inline uint32_t rotr(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks)
{
	for (; blocks > 0; blocks--, data += 64) {
		uint32_t w[64];
		uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint32_t e = state[4], f = state[5], g = state[6], h = state[7];

		for (int t = 0; t < 16; t++)
			w[t] = load_be32(data + 4 * t);
		for (int t = 16; t < 64; t++) {
			uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
			uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

			w[t] = w[t - 16] + s0 + w[t - 7] + s1;
		}
		for (int t = 0; t < 64; t++) {
			uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
			uint32_t choose = (e & f) ^ (~e & g);
			uint32_t t1 = h + big_s1 + choose + round_constants[t] + w[t];
			uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
			uint32_t majority = (a & b) ^ (a & c) ^ (b & c);

			h = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = b;
			b = a;
			a = t1 + big_s0 + majority;
		}
		state[0] += a;
		state[1] += b;
		state[2] += c;
		state[3] += d;
		state[4] += e;
		state[5] += f;
		state[6] += g;
		state[7] += h;
	}
}

/* ---- x86 SHA extensions ----------------------------------------------------- */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1

/*
 * The SHA instructions keep the working variables as two vectors, ABEF and
 * CDGH; sha256rnds2 runs two rounds with the two message+constant words in
 * the low half of its third operand.  The message schedule advances four
 * words at a time: W[t..t+3] = msg2(msg1(W[t-16..], W[t-12..]) + W[t-7..t-4], W[t-4..t-1]).
 */
__attribute__((target("sha,sse4.1"))) static void blocks_sha_ni(uint32_t state[8], const uint8_t *data,
								 size_t blocks)
{
	const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

	for (; blocks > 0; blocks--, data += 64) {
		__m128i saved_abef = abef, saved_cdgh = cdgh;
		__m128i w[4];

		for (int group = 0; group < 16; group++) {
			__m128i wk;

			if (group < 4) {
				w[group] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)),
							    byte_swap);
			} else {
				__m128i older = _mm_sha256msg1_epu32(w[group & 3], w[(group + 1) & 3]);
				__m128i w7 = _mm_alignr_epi8(w[(group + 3) & 3], w[(group + 2) & 3], 4);

				w[group & 3] = _mm_sha256msg2_epu32(_mm_add_epi32(older, w7), w[(group + 3) & 3]);
			}
			wk = _mm_add_epi32(w[group & 3], _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
			/*
			 * The first call leaves the new ABEF in cdgh, and abef (the old
			 * ABEF) is now CDGH; the second call takes them in that order and
			 * puts the names right again.
			 */
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
		}
		abef = _mm_add_epi32(abef, saved_abef);
		cdgh = _mm_add_epi32(cdgh, saved_cdgh);
	}

	{
		__m128i feba = _mm_shuffle_epi32(abef, 0x1B);
		__m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);

		_mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
		_mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
	}
}

/* CPUID: SSSE3 and SSE4.1 in leaf 1 (ECX bits 9 and 19), SHA in leaf 7 (EBX bit 29). */
static int cpu_has_sha_ni(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 9)) || !(ecx & (1u << 19)))
		return 0;
	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
		return 0;
	return (ebx >> 29) & 1;
}
#endif

/* ---- choosing the block function ------------------------------------------- */

static block_fn chosen_blocks;
static const char *chosen_name;

static void choose_implementation(void)
{
	if (chosen_blocks != NULL)
		return;
	chosen_blocks = blocks_portable;
	chosen_name = "portable";
#ifdef HAVE_SHA_NI
	if (cpu_has_sha_ni()) {
		chosen_blocks = blocks_sha_ni;
		chosen_name = "sha-ni";
	}
#endif
}

const char *demo_sha256_implementation(void)
{
	choose_implementation();
	return chosen_name;
}

int demo_sha256_select(const char *name)
{
	if (strcmp(name, "portable") == 0) {
		chosen_blocks = blocks_portable;
		chosen_name = "portable";
		return 0;
	}
#ifdef HAVE_SHA_NI
	if (strcmp(name, "sha-ni") == 0 && cpu_has_sha_ni()) {
		chosen_blocks = blocks_sha_ni;
		chosen_name = "sha-ni";
		return 0;
	}
#endif
	return -1;
}

/* ---- streaming interface ------------------------------------------------------ */

void demo_sha256_init(struct demo_sha256 *ctx)
{
	choose_implementation();
	memcpy(ctx->state, initial_state, sizeof(ctx->state));
	ctx->total_bytes = 0;
	ctx->pending_len = 0;
}

void demo_sha256_update(struct demo_sha256 *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;

	ctx->total_bytes += len;
	if (ctx->pending_len > 0) {
		size_t take = 64 - ctx->pending_len;

		if (take > len)
			take = len;
		memcpy(ctx->pending + ctx->pending_len, p, take);
		ctx->pending_len += take;
		p += take;
		len -= take;
		if (ctx->pending_len < 64)
			return;
		chosen_blocks(ctx->state, ctx->pending, 1);
		ctx->pending_len = 0;
	}
	if (len >= 64) {
		chosen_blocks(ctx->state, p, len / 64);
		p += len / 64 * 64;
		len %= 64;
	}
	memcpy(ctx->pending, p, len);
	ctx->pending_len = len;
}

void demo_sha256_final(struct demo_sha256 *ctx, uint8_t digest[DEMO_SHA256_BYTES])
{
	uint64_t bits = ctx->total_bytes * 8;
	uint8_t tail[128] = {0x80};
	/* Pad with 0x80, zeros, and the 64-bit big-endian bit count, to a whole block. */
	size_t tail_len = (ctx->pending_len < 56 ? 64 : 128) - ctx->pending_len;

	for (int i = 0; i < 8; i++)
		tail[tail_len - 1 - i] = (uint8_t)(bits >> (8 * i));
	demo_sha256_update(ctx, tail, tail_len);
	for (int i = 0; i < 8; i++) {
		digest[4 * i] = (uint8_t)(ctx->state[i] >> 24);
		digest[4 * i + 1] = (uint8_t)(ctx->state[i] >> 16);
		digest[4 * i + 2] = (uint8_t)(ctx->state[i] >> 8);
		digest[4 * i + 3] = (uint8_t)ctx->state[i];
	}
}

void demo_sha256(const void *data, size_t len, uint8_t digest[DEMO_SHA256_BYTES])
{
	struct demo_sha256 ctx;

	demo_sha256_init(&ctx);
	demo_sha256_update(&ctx, data, len);
	demo_sha256_final(&ctx, digest);
}

void demo_sha256_hex(const uint8_t digest[DEMO_SHA256_BYTES], char *hex)
{
	for (int i = 0; i < DEMO_SHA256_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}
