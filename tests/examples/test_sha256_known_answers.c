/*
 * test_sha256_known_answers.c - the demo's SHA-256 gives the FIPS 180-4
 * digests, fed at once or in pieces, with each block function this CPU runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_sha256.h"
#include "sd_test.h"

struct known_answer {
	const char *message;
	size_t repeat; /* the message is repeated this many times */
	const char *digest;
};

/* Digests of FIPS 180-4 / NIST example messages (also what sha256sum prints). */
static const struct known_answer answers[] = {
	{"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	 1, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
	{"a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
};

static uint8_t *expand(const struct known_answer *ka, size_t *len)
{
	size_t one = strlen(ka->message);
	uint8_t *buf = malloc(one * ka->repeat + 1);

	for (size_t i = 0; buf != NULL && i < ka->repeat; i++)
		memcpy(buf + i * one, ka->message, one);
	*len = one * ka->repeat;
	return buf;
}

static void check_answers_one_shot_and_in_pieces(void)
{
	static const size_t pieces[] = {1, 3, 55, 56, 63, 64, 65, 127, 4096};

	for (size_t a = 0; a < sizeof(answers) / sizeof(answers[0]); a++) {
		size_t len;
		uint8_t *msg = expand(&answers[a], &len);
		uint8_t digest[DEMO_SHA256_BYTES];
		char hex[DEMO_SHA256_HEX_LEN + 1];

		REQUIRE(msg != NULL);
		demo_sha256(msg, len, digest);
		demo_sha256_hex(digest, hex);
		if (strcmp(hex, answers[a].digest) != 0)
			fprintf(stderr, "  %s, message %zu: got %s\n", demo_sha256_implementation(), a, hex);
		CHECK(strcmp(hex, answers[a].digest) == 0);

		for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
			struct demo_sha256 ctx;

			demo_sha256_init(&ctx);
			for (size_t off = 0; off < len; off += pieces[p])
				demo_sha256_update(&ctx, msg + off, len - off < pieces[p] ? len - off : pieces[p]);
			demo_sha256_final(&ctx, digest);
			demo_sha256_hex(digest, hex);
			CHECK(strcmp(hex, answers[a].digest) == 0);
		}
		free(msg);
	}
}

static void portable_gives_the_known_answers(void)
{
	REQUIRE(demo_sha256_select("portable") == 0);
	CHECK(strcmp(demo_sha256_implementation(), "portable") == 0);
	check_answers_one_shot_and_in_pieces();
}

static void sha_ni_gives_the_known_answers(void)
{
	if (demo_sha256_select("sha-ni") != 0) {
		printf("     (this CPU has no SHA extensions; nothing to check)\n");
		return;
	}
	CHECK(strcmp(demo_sha256_implementation(), "sha-ni") == 0);
	check_answers_one_shot_and_in_pieces();
}

/* Every length from 0 to 1100 bytes (all padding cases), pseudo-random bytes. */
static void implementations_agree_on_every_length(void)
{
	uint8_t data[1100];
	uint64_t x = 88172645463325252ull;
	char first[DEMO_SHA256_HEX_LEN + 1];

	if (demo_sha256_select("sha-ni") != 0) {
		printf("     (this CPU has no SHA extensions; nothing to compare)\n");
		return;
	}
	for (size_t i = 0; i < sizeof(data); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		data[i] = (uint8_t)x;
	}
	for (size_t len = 0; len <= sizeof(data); len++) {
		uint8_t digest[DEMO_SHA256_BYTES];
		char second[DEMO_SHA256_HEX_LEN + 1];

		REQUIRE(demo_sha256_select("portable") == 0);
		demo_sha256(data, len, digest);
		demo_sha256_hex(digest, first);
		REQUIRE(demo_sha256_select("sha-ni") == 0);
		demo_sha256(data, len, digest);
		demo_sha256_hex(digest, second);
		if (strcmp(first, second) != 0) {
			fprintf(stderr, "  length %zu: portable %s, sha-ni %s\n", len, first, second);
			CHECK(strcmp(first, second) == 0);
			return;
		}
	}
}

static void unknown_implementation_is_refused(void)
{
	CHECK(demo_sha256_select("md5") == -1);
}

int main(void)
{
	SD_RUN(portable_gives_the_known_answers);
	SD_RUN(sha_ni_gives_the_known_answers);
	SD_RUN(implementations_agree_on_every_length);
	SD_RUN(unknown_implementation_is_refused);
	return sd_test_done();
}
