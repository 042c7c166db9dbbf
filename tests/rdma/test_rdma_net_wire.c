/*
 * test_rdma_net_wire.c - the headers two RDMA contexts exchange across
 * namespaces (src/rdma/rdma_net_wire.c), compiled in: each type's valid
 * header is accepted and encodes back to the same bytes, and every field a
 * peer could get wrong is refused with a reason, one mutation at a time.
 */
#include <doca_rdma.h>

#include "rdma_net.h"
#include "sd_test.h"

static struct sd_rdma_net_hdr base(uint8_t type)
{
	struct sd_rdma_net_hdr h;

	memset(&h, 0, sizeof(h));
	h.type = type;
	h.conn_id = 3;
	switch (type) {
	case SD_RDMA_NET_HELLO:
		h.word = 64;
		h.seq = 99;
		h.count = 5;
		memset(h.token, 0xab, sizeof(h.token));
		break;
	case SD_RDMA_NET_OK:
		h.word = 64;
		h.seq = 99;
		break;
	case SD_RDMA_NET_MSG:
		h.word = DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM;
		h.seq = 1;
		h.imm = 0x01020304;
		h.rnr_ms = 100;
		break;
	case SD_RDMA_NET_ANS:
		h.word = DOCA_SUCCESS;
		h.seq = 1;
		h.count = 2;
		break;
	case SD_RDMA_NET_DENY:
		h.seq = 99;
		break;
	default: /* HOLD, CLOSE */
		break;
	}
	return h;
}

/* Encode, then decode with `payload` bytes claimed: the reason, or NULL when accepted. */
static const char *decode(const struct sd_rdma_net_hdr *h, size_t payload)
{
	uint8_t bytes[SD_RDMA_NET_HDR_LEN];
	struct sd_rdma_net_hdr out;

	sd_rdma_net_encode(h, bytes);
	return sd_rdma_net_decode(bytes, sizeof(bytes), payload, &out);
}

static void each_types_valid_header_round_trips(void)
{
	for (uint8_t t = SD_RDMA_NET_HELLO; t < SD_RDMA_NET_TYPE_END; t++) {
		struct sd_rdma_net_hdr h = base(t), out;
		uint8_t bytes[SD_RDMA_NET_HDR_LEN], again[SD_RDMA_NET_HDR_LEN];

		sd_rdma_net_encode(&h, bytes);
		CHECK(sd_rdma_net_decode(bytes, sizeof(bytes), t == SD_RDMA_NET_MSG ? 64 : 0, &out) == NULL);
		sd_rdma_net_encode(&out, again);
		CHECK(memcmp(bytes, again, sizeof(bytes)) == 0);
	}
	struct sd_rdma_net_hdr m = base(SD_RDMA_NET_MSG);
	m.word = DOCA_RDMA_OPCODE_RECV_SEND;
	m.imm = 0;
	CHECK(decode(&m, 64) == NULL);
	m.word = DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM;
	m.imm = 7;
	m.count = 4096;
	CHECK(decode(&m, 0) == NULL);
}

static void the_envelope_is_checked_first(void)
{
	struct sd_rdma_net_hdr h = base(SD_RDMA_NET_OK), out;
	uint8_t b[SD_RDMA_NET_HDR_LEN];

	sd_rdma_net_encode(&h, b);
	CHECK(sd_rdma_net_decode(NULL, sizeof(b), 0, &out) != NULL);
	CHECK(sd_rdma_net_decode(b, sizeof(b) - 1, 0, &out) != NULL);
	b[0] ^= 1; /* magic */
	CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) != NULL);
	b[0] ^= 1;
	b[4] = SD_RDMA_NET_VERSION + 1;
	CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) != NULL);
	b[4] = SD_RDMA_NET_VERSION;
	b[5] = 0;
	CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) != NULL);
	b[5] = SD_RDMA_NET_TYPE_END;
	CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) != NULL);
	b[5] = SD_RDMA_NET_OK;
	b[6] = 1;
	CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) != NULL);
	b[6] = 0;
	b[7] = 1;
	CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) != NULL);
	b[7] = 0;
	CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) == NULL);
}

static void control_messages_carry_no_message_fields(void)
{
	for (uint8_t t = SD_RDMA_NET_HELLO; t < SD_RDMA_NET_TYPE_END; t++) {
		struct sd_rdma_net_hdr h;

		if (t == SD_RDMA_NET_MSG)
			continue;
		h = base(t);
		CHECK(decode(&h, 1) != NULL); /* bytes attached */
		h.imm = 1;
		CHECK(decode(&h, 0) != NULL);
		h = base(t);
		h.rnr_ms = 1;
		CHECK(decode(&h, 0) != NULL);
		if (t != SD_RDMA_NET_HELLO) {
			uint8_t b[SD_RDMA_NET_HDR_LEN];
			struct sd_rdma_net_hdr out;

			h = base(t);
			sd_rdma_net_encode(&h, b); /* writes no token on this type: forge one byte of it */
			b[SD_RDMA_NET_HDR_LEN - 1] = 1;
			CHECK(sd_rdma_net_decode(b, sizeof(b), 0, &out) != NULL);
		}
	}
}

static void windows_answers_and_empty_types_keep_their_rules(void)
{
	uint32_t bad_windows[] = {0, 3, 8192};
	struct sd_rdma_net_hdr h;

	for (unsigned i = 0; i < 3; i++) {
		h = base(SD_RDMA_NET_HELLO);
		h.word = bad_windows[i];
		CHECK(decode(&h, 0) != NULL);
		h = base(SD_RDMA_NET_OK);
		h.word = bad_windows[i];
		CHECK(decode(&h, 0) != NULL);
	}
	h = base(SD_RDMA_NET_OK);
	h.count = 1;
	CHECK(decode(&h, 0) != NULL);

	h = base(SD_RDMA_NET_ANS);
	h.seq = 0;
	CHECK(decode(&h, 0) != NULL);
	h = base(SD_RDMA_NET_ANS);
	h.count = 0;
	CHECK(decode(&h, 0) != NULL);
	h.count = SD_RDMA_NET_MAX_RUN + 1;
	CHECK(decode(&h, 0) != NULL);
	doca_error_t fine[] = {DOCA_ERROR_IO_FAILED, DOCA_ERROR_NOT_CONNECTED, DOCA_ERROR_TIME_OUT};
	for (unsigned i = 0; i < 3; i++) {
		h = base(SD_RDMA_NET_ANS);
		h.word = fine[i];
		CHECK(decode(&h, 0) == NULL);
	}
	h.word = DOCA_ERROR_INVALID_VALUE;
	CHECK(decode(&h, 0) != NULL);

	uint8_t empty[] = {SD_RDMA_NET_DENY, SD_RDMA_NET_HOLD, SD_RDMA_NET_CLOSE};
	for (unsigned i = 0; i < 3; i++) {
		h = base(empty[i]);
		h.word = 1;
		CHECK(decode(&h, 0) != NULL);
		h = base(empty[i]);
		h.count = 1;
		CHECK(decode(&h, 0) != NULL);
		h = base(empty[i]);
		h.seq = 5; /* a nonce only a DENY may carry */
		CHECK((decode(&h, 0) == NULL) == (empty[i] == SD_RDMA_NET_DENY));
	}
}

static void messages_keep_their_rules(void)
{
	struct sd_rdma_net_hdr h = base(SD_RDMA_NET_MSG);

	h.seq = 0;
	CHECK(decode(&h, 8) != NULL);
	h = base(SD_RDMA_NET_MSG);
	h.rnr_ms = SD_RDMA_NET_MAX_RNR_MS + 1;
	CHECK(decode(&h, 8) != NULL);
	h = base(SD_RDMA_NET_MSG);
	h.word = 77; /* no such opcode */
	CHECK(decode(&h, 8) != NULL);
	h = base(SD_RDMA_NET_MSG);
	h.count = 8; /* a write length on a send with immediate */
	CHECK(decode(&h, 8) != NULL);
	h.word = DOCA_RDMA_OPCODE_RECV_SEND;
	h.count = 0;
	CHECK(decode(&h, 8) != NULL); /* an immediate on a plain send */
	h.imm = 0;
	h.count = 8;
	CHECK(decode(&h, 8) != NULL); /* a write length on a plain send */
	h = base(SD_RDMA_NET_MSG);
	h.word = DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM;
	CHECK(decode(&h, 8) != NULL); /* a write's immediate with bytes */
}

int main(void)
{
	SD_RUN(each_types_valid_header_round_trips);
	SD_RUN(the_envelope_is_checked_first);
	SD_RUN(control_messages_carry_no_message_fields);
	SD_RUN(windows_answers_and_empty_types_keep_their_rules);
	SD_RUN(messages_keep_their_rules);
	return sd_test_done();
}
