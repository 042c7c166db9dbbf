/*
 * fuzz_ucx_wire - libFuzzer target for the messages of softdoca's UCX
 * transport (src/common/xproc/ucx/ucx_wire.c): the handshake (hello,
 * grant, deny) and the accesses with their answers.  Every byte of them
 * comes from a peer, so each decoder must answer without reading past
 * what it was given, and a message it accepts must encode back to the
 * very same bytes (no field it let through is ignored or changed).
 *
 * The input is a run of records: u8 which decoder (modulo 5), u8 header
 * length, u16 data length claimed with it (little-endian), then the header
 * bytes.  An accepted access or answer must also obey the rules the
 * exporter and the importer rely on: a write's data is its length, reads
 * and atomics carry none, pieces stay within SD_UCX_ACCESS_MAX, and an
 * answer carries data only for a read it did not refuse.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ucx_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_same(const uint8_t *a, const uint8_t *b, size_t n)
{
	if (memcmp(a, b, n) != 0)
		abort(); /* accepted bytes the encoder would not write */
}

static void try_hello(const uint8_t *b, size_t n)
{
	struct sd_ucx_hello h;
	uint8_t again[SD_UCX_HELLO_MAX_LEN];

	if (!sd_ucx_hello_decode(b, n, &h))
		return;
	if (sd_ucx_hello_encode(&h, again) != n)
		abort();
	check_same(again, b, n);
}

static void try_grant(const uint8_t *b, size_t n)
{
	struct sd_ucx_grant g;
	uint8_t again[SD_UCX_GRANT_LEN];

	if (!sd_ucx_grant_decode(b, n, &g))
		return;
	if (n != SD_UCX_GRANT_LEN)
		abort();
	sd_ucx_grant_encode(&g, again);
	check_same(again, b, n);
}

static void try_deny(const uint8_t *b, size_t n)
{
	uint64_t nonce;
	uint16_t reason;
	uint8_t again[SD_UCX_DENY_LEN];

	if (!sd_ucx_deny_decode(b, n, &nonce, &reason))
		return;
	if (n != SD_UCX_DENY_LEN || sd_ucx_deny_text(reason) == NULL)
		abort();
	sd_ucx_deny_encode(nonce, reason, again);
	check_same(again, b, n);
}

static void try_access(const uint8_t *b, size_t n, size_t data_len)
{
	struct sd_ucx_access a;
	uint8_t again[SD_UCX_ACCESS_LEN];
	bool atomic;

	if (!sd_ucx_access_decode(b, n, data_len, &a))
		return;
	atomic = sd_ucx_access_kind_is_atomic(a.kind);
	if (n != SD_UCX_ACCESS_LEN || (atomic && (a.len != 8 || data_len != 0)) ||
	    (!atomic && (a.len == 0 || a.len > SD_UCX_ACCESS_MAX)) ||
	    data_len != (a.kind == SD_UCX_ACCESS_WRITE ? a.len : 0))
		abort();
	sd_ucx_access_encode(&a, again);
	check_same(again, b, n);
}

static void try_answer(const uint8_t *b, size_t n, size_t data_len)
{
	struct sd_ucx_answer ans;
	uint8_t again[SD_UCX_ANSWER_LEN];
	bool carries;

	if (!sd_ucx_answer_decode(b, n, data_len, &ans))
		return;
	carries = ans.kind == SD_UCX_ACCESS_READ && !ans.refused;
	if (n != SD_UCX_ANSWER_LEN || data_len != (carries ? ans.value : 0) ||
	    (carries && (ans.value == 0 || ans.value > SD_UCX_ACCESS_MAX)))
		abort();
	sd_ucx_answer_encode(&ans, again);
	check_same(again, b, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	while (size >= 4) {
		unsigned which = data[0] % 5;
		size_t n = data[1];
		size_t data_len = (size_t)data[2] | (size_t)data[3] << 8;
		uint8_t *b;

		data += 4;
		size -= 4;
		if (n > size)
			n = size;
		/* A private copy, exactly n long, so ASan sees any read past the message. */
		b = malloc(n != 0 ? n : 1);
		if (b == NULL)
			abort();
		memcpy(b, data, n);
		switch (which) {
		case 0:
			try_hello(b, n);
			break;
		case 1:
			try_grant(b, n);
			break;
		case 2:
			try_deny(b, n);
			break;
		case 3:
			try_access(b, n, data_len);
			break;
		default:
			try_answer(b, n, data_len);
			break;
		}
		free(b);
		data += n;
		size -= n;
	}
	return 0;
}
