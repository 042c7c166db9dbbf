/*
 * fuzz_comch_fp.c - what the Comch fast path reads from the other side:
 *  - an announcement or withdrawal frame (sd_fp_wire_parse): accepted
 *    frames must describe exactly the bytes received;
 *  - a post queue whose ring, counters and slots the other side wrote at
 *    will (sd_fp_queue_claim): a claim never reaches outside the slots it
 *    was told about, whatever the queue holds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comch_fp_priv.h"

#define FUZZ_SLOTS 4u

static void fuzz_frame(const uint8_t *data, size_t size)
{
	struct sd_wire_fp w;
	const uint8_t *desc = NULL;

	if (!sd_fp_wire_parse(data, size, &w, &desc))
		return;
	if (w.op == SD_FP_OP_NEW &&
	    (desc != data + sizeof(w) || sizeof(w) + w.desc_len != size || w.imm_len > SD_FP_MAX_IMM))
		abort();
	if (w.op == SD_FP_OP_GONE && size != sizeof(w))
		abort();
}

static void fuzz_queue(const uint8_t *data, size_t size)
{
	static _Alignas(64) uint8_t mem[16384];
	struct sd_fp_queue *q = (struct sd_fp_queue *)mem;
	size_t qsize = sd_fp_queue_size(FUZZ_SLOTS);
	struct sd_fp_slot *slot = NULL;
	struct sd_fp_slot *first, *last;
	uint64_t room = 0, len = 0;

	if (qsize > sizeof(mem) || size < sizeof(len))
		return;
	memcpy(&len, data, sizeof(len));
	memset(mem, 0, qsize);
	memcpy(mem, data + sizeof(len), size - sizeof(len) < qsize ? size - sizeof(len) : qsize);
	q->nslots = FUZZ_SLOTS; /* what the announcement said, as the importer checks at mapping */
	first = sd_fp_queue_slots(q);
	last = first + FUZZ_SLOTS - 1;
	if (sd_fp_queue_claim(q, FUZZ_SLOTS, len, &slot, &room) == DOCA_SUCCESS &&
	    (slot < first || slot > last || slot->cap < len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] & 1)
		fuzz_frame(data + 1, size - 1);
	else
		fuzz_queue(data + 1, size - 1);
	return 0;
}
