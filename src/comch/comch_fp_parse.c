/*
 * comch_fp_parse.c - checking a fast-path frame received from the other
 * side.  The frame is the peer's word: every field is bounded here before
 * anything is mapped, imported or looked up (fuzz/fuzz_comch_fp.c); what
 * needs the receiver's state (a slot index against the consumer's task
 * count, a length against the posted room) is checked by the handler.
 */
#include <string.h>

#include "comch_fp_priv.h"

/* The body is exactly `body` bytes. */
static bool sd_fp_body_is(const struct sd_wire_fp *w, size_t len, size_t body)
{
	return w->desc_len == body && len == sizeof(*w) + body;
}

static bool sd_fp_new_ok(const struct sd_wire_fp *w, size_t len)
{
	bool framed = w->flags == SD_FP_F_FRAMED;

	if (w->flags != 0 && !framed)
		return false;
	return w->imm_len <= SD_FP_MAX_IMM && w->nslots != 0 && w->nslots <= SD_FP_MAX_TASKS &&
	       (framed ? w->queue_fd == -1 : w->queue_fd >= 0) && w->desc_len != 0 && w->desc_len <= SD_FP_MAX_DESC &&
	       sd_fp_body_is(w, len, w->desc_len);
}

static bool sd_fp_post_ok(const struct sd_wire_fp *w, size_t len)
{
	size_t n = w->desc_len / sizeof(struct sd_wire_fp_post);

	return n != 0 && n <= SD_FP_MAX_TASKS && w->desc_len % sizeof(struct sd_wire_fp_post) == 0 &&
	       sd_fp_body_is(w, len, w->desc_len);
}

bool sd_fp_wire_parse(const uint8_t *msg, size_t len, struct sd_wire_fp *out, const uint8_t **desc)
{
	if (msg == NULL || len < sizeof(*out))
		return false;
	memcpy(out, msg, sizeof(*out));
	*desc = msg + sizeof(*out);
	if (out->consumer_id == 0 || (out->op != SD_FP_OP_NEW && out->flags != 0))
		return false;
	switch (out->op) {
	case SD_FP_OP_NEW:
		return sd_fp_new_ok(out, len);
	case SD_FP_OP_POST:
		return sd_fp_post_ok(out, len);
	case SD_FP_OP_FILLED:
		return sd_fp_body_is(out, len, sizeof(struct sd_wire_fp_filled));
	case SD_FP_OP_GONE:
	case SD_FP_OP_WAKE:
		return sd_fp_body_is(out, len, 0);
	default:
		return false;
	}
}

bool sd_fp_frame_is_quiet(const uint8_t *msg, size_t len)
{
	uint32_t op;

	if (msg == NULL || len < sizeof(op))
		return false;
	memcpy(&op, msg, sizeof(op)); /* op is the header's first field */
	return op == SD_FP_OP_POST || op == SD_FP_OP_FILLED || op == SD_FP_OP_WAKE;
}
