/*
 * The UCX handshake's hello, the decoder compiled in: a plain hello keeps
 * its 48-byte layout; a hello for a descriptor a DPU handed on is 64 bytes
 * and carries the relay's record (pid, record id, start time) for the
 * host to watch; lengths that do not match the flags, unknown flags and a
 * non-zero reason are refused, as a peer may send anything.  The relayed
 * hello of the revoke round (flags 1), which showed the exporter's own
 * token, is refused: today's shows the relay's token (flags 2).
 *
 * Then the messages of the accesses themselves: an access and its answer
 * round-trip; a write's bytes must be exactly its length, a read carries
 * none and its answer exactly its bytes; atomics are 8 bytes and carry
 * nothing; unknown kinds, a piece over the limit, stray operands, a wrong
 * header length or version are refused, whatever the peer sends.
 */
#include "sd_test.h"
#include "ucx_wire.h"
#include "xproc_le.h"

static struct sd_ucx_hello sample(bool relayed)
{
	struct sd_ucx_hello h = {.nonce = 0x1122334455667788ull, .export_id = 41, .generation = 3};

	for (unsigned i = 0; i < SD_XP_TOKEN_LEN; i++)
		h.token[i] = (uint8_t)(i * 29 + 5);
	h.relayed = relayed;
	if (relayed) {
		h.relay.pid = 4242;
		h.relay.export_id = 7;
		h.relay.start_time = 0xabcdef0123ull;
	}
	return h;
}

static bool same_head(const struct sd_ucx_hello *a, const struct sd_ucx_hello *b)
{
	return a->nonce == b->nonce && a->export_id == b->export_id && a->generation == b->generation &&
	       memcmp(a->token, b->token, SD_XP_TOKEN_LEN) == 0 && a->relayed == b->relayed;
}

static void plain_hello_keeps_its_48_bytes(void)
{
	struct sd_ucx_hello h = sample(false), back;
	uint8_t buf[SD_UCX_HELLO_MAX_LEN];

	CHECK(sd_ucx_hello_encode(&h, buf) == SD_UCX_HELLO_LEN);
	CHECK(sd_le_get32(buf + 28) == 0); /* the field that was reserved stays zero */
	CHECK(sd_ucx_hello_decode(buf, SD_UCX_HELLO_LEN, &back));
	CHECK(same_head(&h, &back));
	CHECK(!back.relayed && back.relay.pid == 0 && back.relay.start_time == 0);
}

static void relayed_hello_names_the_relay_record(void)
{
	struct sd_ucx_hello h = sample(true), back;
	uint8_t buf[SD_UCX_HELLO_MAX_LEN];

	CHECK(sd_ucx_hello_encode(&h, buf) == SD_UCX_HELLO_RELAY_LEN);
	CHECK(sd_le_get32(buf + 28) == 2); /* relayed, showing the relay's token */
	CHECK(sd_ucx_hello_decode(buf, SD_UCX_HELLO_RELAY_LEN, &back));
	CHECK(same_head(&h, &back));
	CHECK(back.relay.pid == 4242 && back.relay.export_id == 7 && back.relay.start_time == 0xabcdef0123ull);
}

static void hello_whose_length_or_flags_disagree_is_refused(void)
{
	struct sd_ucx_hello plain = sample(false), relayed = sample(true), back;
	uint8_t p[SD_UCX_HELLO_MAX_LEN], r[SD_UCX_HELLO_MAX_LEN];

	sd_ucx_hello_encode(&plain, p);
	sd_ucx_hello_encode(&relayed, r);
	CHECK(!sd_ucx_hello_decode(p, SD_UCX_HELLO_RELAY_LEN, &back)); /* plain flags, relayed length */
	CHECK(!sd_ucx_hello_decode(r, SD_UCX_HELLO_LEN, &back));       /* relayed flags, cut short */
	CHECK(!sd_ucx_hello_decode(r, SD_UCX_HELLO_RELAY_LEN - 1, &back));
	CHECK(!sd_ucx_hello_decode(r, 8, &back));
	sd_le_put32(r + 28, 3); /* a flag this version does not know */
	CHECK(!sd_ucx_hello_decode(r, SD_UCX_HELLO_RELAY_LEN, &back));
	sd_le_put32(r + 28, 1); /* the previous relayed hello, which showed the exporter's token */
	CHECK(!sd_ucx_hello_decode(r, SD_UCX_HELLO_RELAY_LEN, &back));
	sd_le_put32(r + 28, 2);
	sd_le_put16(r + 6, 2); /* a hello carries no reason */
	CHECK(!sd_ucx_hello_decode(r, SD_UCX_HELLO_RELAY_LEN, &back));
	sd_le_put16(r + 6, 0);
	CHECK(sd_ucx_hello_decode(r, SD_UCX_HELLO_RELAY_LEN, &back)); /* restored: accepted again */
}

static void revoked_relay_has_a_refusal_of_its_own(void)
{
	uint8_t buf[SD_UCX_DENY_LEN];
	uint64_t nonce = 0;
	uint16_t reason = 0;

	sd_ucx_deny_encode(99, SD_UCX_DENY_REVOKED, buf);
	CHECK(sd_ucx_deny_decode(buf, sizeof(buf), &nonce, &reason));
	CHECK(nonce == 99 && reason == SD_UCX_DENY_REVOKED);
	CHECK(strstr(sd_ucx_deny_text(reason), "revoked") != NULL);
	CHECK(strcmp(sd_ucx_deny_text(reason), sd_ucx_deny_text(SD_UCX_DENY_NO_EXPORT)) != 0);
}

/* Every refusal an importer can be sent reads differently, an unknown one too. */
static void each_refusal_has_its_own_text(void)
{
	static const uint16_t reasons[] = {SD_UCX_DENY_NO_EXPORT, SD_UCX_DENY_MALFORMED, SD_UCX_DENY_BOUND,
					   SD_UCX_DENY_REVOKED, 0xbeef};
	const size_t n = sizeof(reasons) / sizeof(reasons[0]);

	for (size_t i = 0; i < n; i++) {
		CHECK(sd_ucx_deny_text(reasons[i]) != NULL && sd_ucx_deny_text(reasons[i])[0] != '\0');
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(sd_ucx_deny_text(reasons[i]), sd_ucx_deny_text(reasons[j])) != 0);
	}
	CHECK(strstr(sd_ucx_deny_text(SD_UCX_DENY_MALFORMED), "version") != NULL);
	CHECK(strstr(sd_ucx_deny_text(SD_UCX_DENY_BOUND), "another export") != NULL);
	CHECK(strstr(sd_ucx_deny_text(0xbeef), "does not know") != NULL);
}

static struct sd_ucx_access access_sample(uint8_t kind)
{
	bool atomic = kind == SD_UCX_ACCESS_CAS || kind == SD_UCX_ACCESS_FADD;

	return (struct sd_ucx_access){
		.kind = kind,
		.op = 0x0102030405060708ull,
		.addr = 0x7f0012345000ull,
		.len = atomic ? 8 : 4096,
		.a = atomic ? 17 : 0,
		.b = kind == SD_UCX_ACCESS_CAS ? 99 : 0,
	};
}

static void accesses_round_trip_with_exactly_their_bytes(void)
{
	static const uint8_t kinds[] = {SD_UCX_ACCESS_WRITE, SD_UCX_ACCESS_READ, SD_UCX_ACCESS_CAS, SD_UCX_ACCESS_FADD};
	uint8_t buf[SD_UCX_ACCESS_LEN];

	for (unsigned i = 0; i < sizeof(kinds); i++) {
		struct sd_ucx_access a = access_sample(kinds[i]), back;
		size_t data = kinds[i] == SD_UCX_ACCESS_WRITE ? 4096 : 0;

		sd_ucx_access_encode(&a, buf);
		CHECK(sd_ucx_access_decode(buf, sizeof(buf), data, &back));
		CHECK(back.kind == a.kind && back.op == a.op && back.addr == a.addr && back.len == a.len &&
		      back.a == a.a && back.b == a.b);
		CHECK(!sd_ucx_access_decode(buf, sizeof(buf), data + 1, &back)); /* bytes that are not its length */
		CHECK(!sd_ucx_access_decode(buf, sizeof(buf) - 1, data, &back)); /* a short header */
		if (data != 0)
			CHECK(!sd_ucx_access_decode(buf, sizeof(buf), data - 1, &back));
	}
}

static void accesses_a_peer_may_forge_are_refused(void)
{
	struct sd_ucx_access a, back;
	uint8_t buf[SD_UCX_ACCESS_LEN];

	a = access_sample(SD_UCX_ACCESS_READ);
	a.len = SD_UCX_ACCESS_MAX + 1; /* over one piece */
	sd_ucx_access_encode(&a, buf);
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
	a.len = 0;
	sd_ucx_access_encode(&a, buf);
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
	a = access_sample(SD_UCX_ACCESS_READ);
	a.a = 1; /* operands belong to atomics */
	sd_ucx_access_encode(&a, buf);
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
	a = access_sample(SD_UCX_ACCESS_CAS);
	a.len = 4; /* atomics are 8 bytes */
	sd_ucx_access_encode(&a, buf);
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
	a = access_sample(SD_UCX_ACCESS_FADD);
	a.b = 5; /* fetch-and-add has one operand */
	sd_ucx_access_encode(&a, buf);
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
	a = access_sample(SD_UCX_ACCESS_READ);
	sd_ucx_access_encode(&a, buf);
	sd_le_put16(buf + 6, 9); /* an unknown kind */
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
	sd_le_put16(buf + 6, 0x102); /* a kind with a stray high byte */
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
	sd_ucx_access_encode(&a, buf);
	sd_le_put16(buf + 4, SD_UCX_WIRE_VERSION - 1); /* an older softdoca */
	CHECK(!sd_ucx_access_decode(buf, sizeof(buf), 0, &back));
}

static void answers_carry_a_reads_bytes_and_nothing_else(void)
{
	struct sd_ucx_answer ans = {.kind = SD_UCX_ACCESS_READ, .op = 5, .addr = 0x1000, .value = 512}, back;
	uint8_t buf[SD_UCX_ANSWER_LEN];

	sd_ucx_answer_encode(&ans, buf);
	CHECK(sd_ucx_answer_decode(buf, sizeof(buf), 512, &back));
	CHECK(back.kind == ans.kind && back.op == 5 && back.addr == 0x1000 && back.value == 512 && !back.refused);
	CHECK(!sd_ucx_answer_decode(buf, sizeof(buf), 511, &back)); /* fewer bytes than it says */
	CHECK(!sd_ucx_answer_decode(buf, sizeof(buf) + 1, 512, &back));
	ans.refused = true; /* a refused read carries nothing */
	sd_ucx_answer_encode(&ans, buf);
	CHECK(sd_ucx_answer_decode(buf, sizeof(buf), 0, &back) && back.refused);
	CHECK(!sd_ucx_answer_decode(buf, sizeof(buf), 512, &back));
	ans = (struct sd_ucx_answer){.kind = SD_UCX_ACCESS_CAS, .op = 6, .addr = 0x2000, .value = 0xdeadbeefull};
	sd_ucx_answer_encode(&ans, buf);
	CHECK(sd_ucx_answer_decode(buf, sizeof(buf), 0, &back) && back.value == 0xdeadbeefull);
	CHECK(!sd_ucx_answer_decode(buf, sizeof(buf), 8, &back)); /* an atomic's value is in the header */
	ans = (struct sd_ucx_answer){.kind = SD_UCX_ACCESS_READ, .op = 7, .addr = 0x3000,
				     .value = SD_UCX_ACCESS_MAX + 1};
	sd_ucx_answer_encode(&ans, buf);
	CHECK(!sd_ucx_answer_decode(buf, sizeof(buf), (size_t)SD_UCX_ACCESS_MAX + 1, &back));
	sd_le_put16(buf + 6, 0x205); /* bits beyond the refused flag */
	CHECK(!sd_ucx_answer_decode(buf, sizeof(buf), 0, &back));
}

int main(void)
{
	SD_RUN(plain_hello_keeps_its_48_bytes);
	SD_RUN(relayed_hello_names_the_relay_record);
	SD_RUN(hello_whose_length_or_flags_disagree_is_refused);
	SD_RUN(revoked_relay_has_a_refusal_of_its_own);
	SD_RUN(each_refusal_has_its_own_text);
	SD_RUN(accesses_round_trip_with_exactly_their_bytes);
	SD_RUN(accesses_a_peer_may_forge_are_refused);
	SD_RUN(answers_carry_a_reads_bytes_and_nothing_else);
	return sd_test_done();
}
