/*
 * comch_fp_parse.c - checking a fast-path frame received from the other
 * side.  The frame is the peer's word: every field is bounded here before
 * anything is mapped, imported or looked up (fuzz/fuzz_comch_fp.c).
 */
#include <string.h>

#include "comch_fp_priv.h"

bool sd_fp_wire_parse(const uint8_t *msg, size_t len, struct sd_wire_fp *out, const uint8_t **desc)
{
	if (msg == NULL || len < sizeof(*out))
		return false;
	memcpy(out, msg, sizeof(*out));
	*desc = msg + sizeof(*out);
	switch (out->op) {
	case SD_FP_OP_NEW:
		return out->consumer_id != 0 && out->imm_len <= SD_FP_MAX_IMM && out->nslots != 0 &&
		       out->nslots <= SD_FP_MAX_TASKS && out->queue_fd >= 0 && out->desc_len != 0 &&
		       out->desc_len <= SD_FP_MAX_DESC && len == sizeof(*out) + out->desc_len;
	case SD_FP_OP_GONE:
		return out->consumer_id != 0 && len == sizeof(*out);
	default:
		return false;
	}
}
