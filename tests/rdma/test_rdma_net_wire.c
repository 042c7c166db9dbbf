/*
 * test_rdma_net_wire.c - the headers two RDMA contexts exchange across
 * namespaces (src/rdma/rdma_net_wire.c), compiled in: each type's valid
 * header is accepted and encodes back to the same bytes, and every field a
 * peer could get wrong is refused with a reason, one mutation at a time;
 * the same for the records a BATCH carries.
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
	case SD_RDMA_NET_BATCH:
		h.seq = 1;
		h.count = 2;
		break;
	default: /* HOLD, CLOSE */
		break;
	}
	return h;
}

/* The payload a valid header of type `t` comes with. */
static size_t payload_of(uint8_t t)
{
	return t == SD_RDMA_NET_MSG ? 64 : t == SD_RDMA_NET_BATCH ? 2 * SD_RDMA_NET_REC_HDR + 64 : 0;
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
		CHECK(sd_rdma_net_decode(bytes, sizeof(bytes), payload_of(t), &out) == NULL);
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
		CHECK(decode(&h, 1) != NULL); /* bytes attached (or, for a batch, too few for its records) */
		h.imm = 1;
		CHECK(decode(&h, payload_of(t)) != NULL);
		h = base(t);
		h.rnr_ms = 1;
		CHECK(decode(&h, payload_of(t)) != NULL);
		if (t != SD_RDMA_NET_HELLO) {
			uint8_t b[SD_RDMA_NET_HDR_LEN];
			struct sd_rdma_net_hdr out;

			h = base(t);
			sd_rdma_net_encode(&h, b); /* writes no token on this type: forge one byte of it */
			b[SD_RDMA_NET_HDR_LEN - 1] = 1;
			CHECK(sd_rdma_net_decode(b, sizeof(b), payload_of(t), &out) != NULL);
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

static void batch_headers_keep_their_rules(void)
{
	struct sd_rdma_net_hdr h = base(SD_RDMA_NET_BATCH);
	size_t least = 2 * SD_RDMA_NET_REC_HDR, most = 2 * (SD_RDMA_NET_REC_HDR + SD_RDMA_NET_SMALL);

	CHECK(decode(&h, least) == NULL);
	CHECK(decode(&h, most) == NULL);
	CHECK(decode(&h, least - 1) != NULL); /* cannot hold two record headers */
	CHECK(decode(&h, most + 1) != NULL);  /* more than two records of 256 bytes */
	h.count = 1;
	CHECK(decode(&h, SD_RDMA_NET_REC_HDR) != NULL); /* a batch of one is a plain message */
	h.count = SD_RDMA_NET_MAX_BATCH + 1;
	CHECK(decode(&h, h.count * SD_RDMA_NET_REC_HDR) != NULL);
	h.count = SD_RDMA_NET_MAX_BATCH;
	CHECK(decode(&h, h.count * SD_RDMA_NET_REC_HDR) == NULL);
	h = base(SD_RDMA_NET_BATCH);
	h.seq = 0;
	CHECK(decode(&h, least) != NULL);
	h = base(SD_RDMA_NET_BATCH);
	h.word = 1; /* a batch has no opcode of its own */
	CHECK(decode(&h, least) != NULL);
}

/* Decode the record in `rec` as if `left` bytes of the batch remained: the reason, or NULL. */
static const char *record(const uint8_t *rec, size_t left, struct sd_rdma_net_hdr *out, size_t *plen, size_t *used)
{
	const uint8_t *payload = NULL;
	const char *why = sd_rdma_net_decode_record(rec, left, out, &payload, plen, used);

	if (why == NULL)
		CHECK(payload == rec + SD_RDMA_NET_REC_HDR);
	return why;
}

static void batch_records_keep_the_rules_of_a_message(void)
{
	uint8_t rec[SD_RDMA_NET_REC_HDR + SD_RDMA_NET_SMALL + 8], again[SD_RDMA_NET_REC_HDR];
	struct sd_rdma_net_hdr h = base(SD_RDMA_NET_MSG), out;
	size_t plen = 0, used = 0;

	memset(rec, 0, sizeof(rec));
	sd_rdma_net_encode_record(&h, 64, rec);
	CHECK(record(rec, sizeof(rec), &out, &plen, &used) == NULL);
	CHECK(plen == 64 && used == SD_RDMA_NET_REC_HDR + 64);
	CHECK(out.seq == h.seq && out.imm == h.imm && out.word == h.word && out.rnr_ms == h.rnr_ms);
	sd_rdma_net_encode_record(&out, (uint32_t)plen, again);
	CHECK(memcmp(rec, again, sizeof(again)) == 0);
	CHECK(record(rec, SD_RDMA_NET_REC_HDR + 63, &out, &plen, &used) != NULL); /* payload cut short */
	CHECK(record(rec, SD_RDMA_NET_REC_HDR - 1, &out, &plen, &used) != NULL);  /* header cut short */
	sd_rdma_net_encode_record(&h, SD_RDMA_NET_SMALL, rec);
	CHECK(record(rec, sizeof(rec), &out, &plen, &used) == NULL);
	sd_rdma_net_encode_record(&h, SD_RDMA_NET_SMALL + 1, rec);
	CHECK(record(rec, sizeof(rec), &out, &plen, &used) != NULL); /* too long for a batch */
	sd_rdma_net_encode_record(&h, 8, rec);
	rec[5] = 1; /* the prefix's second word must be 0 */
	CHECK(record(rec, sizeof(rec), &out, &plen, &used) != NULL);
	h.rnr_ms = SD_RDMA_NET_MAX_RNR_MS + 1; /* a message's own rules hold inside a batch */
	sd_rdma_net_encode_record(&h, 8, rec);
	CHECK(record(rec, sizeof(rec), &out, &plen, &used) != NULL);
	h = base(SD_RDMA_NET_MSG);
	h.word = DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM;
	h.count = 4096;
	sd_rdma_net_encode_record(&h, 0, rec);
	CHECK(record(rec, SD_RDMA_NET_REC_HDR, &out, &plen, &used) == NULL);
	CHECK(plen == 0 && used == SD_RDMA_NET_REC_HDR && out.count == 4096);
	for (uint8_t t = SD_RDMA_NET_HELLO; t < SD_RDMA_NET_TYPE_END; t++) {
		if (t == SD_RDMA_NET_MSG)
			continue;
		h = base(t); /* valid on its own, never inside a batch */
		sd_rdma_net_encode_record(&h, 0, rec);
		CHECK(record(rec, sizeof(rec), &out, &plen, &used) != NULL);
	}
}

int main(void)
{
	SD_RUN(each_types_valid_header_round_trips);
	SD_RUN(the_envelope_is_checked_first);
	SD_RUN(control_messages_carry_no_message_fields);
	SD_RUN(windows_answers_and_empty_types_keep_their_rules);
	SD_RUN(messages_keep_their_rules);
	SD_RUN(batch_headers_keep_their_rules);
	SD_RUN(batch_records_keep_the_rules_of_a_message);
	return sd_test_done();
}
