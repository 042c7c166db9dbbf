/*
 * The UCX handshake's hello, the decoder compiled in: a plain hello keeps
 * its 48-byte layout; a hello for a descriptor a DPU handed on is 64 bytes
 * and carries the relay's record (pid, record id, start time) for the
 * host to watch; lengths that do not match the flags, unknown flags and a
 * non-zero reason are refused, as a peer may send anything.  The relayed
 * hello of the revoke round (flags 1), which showed the exporter's own
 * token, is refused: today's shows the relay's token (flags 2).
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

int main(void)
{
	SD_RUN(plain_hello_keeps_its_48_bytes);
	SD_RUN(relayed_hello_names_the_relay_record);
	SD_RUN(hello_whose_length_or_flags_disagree_is_refused);
	SD_RUN(revoked_relay_has_a_refusal_of_its_own);
	SD_RUN(each_refusal_has_its_own_text);
	return sd_test_done();
}
