/*
 * fuzz_comch_fp.c - what the Comch fast path reads from the other side:
 *  - an announcement or withdrawal frame (sd_fp_wire_parse): accepted
 *    frames must describe exactly the bytes received;
 *  - a post queue whose ring, counters and slots the other side wrote at
 *    will (sd_fp_queue_claim): a claim never reaches outside the slots it
 *    was told about, whatever the queue holds;
 *  - the frames of a framed consumer (Comch over TCP): a run of POST and
 *    FILLED bodies applied to a mirror and to a consumer's queue
 *    (sd_fp_queue_apply_post / _filled): the ring never holds more posts
 *    than slots, a slot is never lent twice, a fill never says more bytes
 *    than the room posted or more immediate data than the consumer takes.
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
	if ((w.op == SD_FP_OP_GONE || w.op == SD_FP_OP_WAKE) && size != sizeof(w))
		abort();
	if (w.op == SD_FP_OP_POST && (w.desc_len == 0 || w.desc_len % sizeof(struct sd_wire_fp_post) != 0))
		abort();
	if (w.op == SD_FP_OP_FILLED && w.desc_len != sizeof(struct sd_wire_fp_filled))
		abort();
	if (sizeof(w) + w.desc_len != size || (w.op != SD_FP_OP_NEW && w.flags != 0))
		abort();
}

/* The invariants of a queue after peer frames were applied. */
static void fuzz_check_queue(struct sd_fp_queue *q)
{
	uint64_t head = atomic_load(&q->post_head), tail = atomic_load(&q->post_tail);
	struct sd_fp_slot *slots = sd_fp_queue_slots(q);

	if (tail - head > q->nslots)
		abort();
	for (uint32_t i = 0; i < q->nslots; i++)
		if (atomic_load(&slots[i].state) == SD_FP_SLOT_FILLED &&
		    ((slots[i].len > slots[i].cap && slots[i].len != SD_FP_LEN_FAILED) || slots[i].imm_len > q->imm_len))
			abort();
}

/* Peer frames in turn: byte 0 picks POST, FILLED or a claim by the mirror's own producer. */
static void fuzz_framed(const uint8_t *data, size_t size)
{
	struct sd_fp_queue *mirror = NULL, *local = NULL;
	size_t len = 0;

	if (sd_fp_queue_mirror(FUZZ_SLOTS, 8, &mirror, &len) != DOCA_SUCCESS ||
	    sd_fp_queue_mirror(FUZZ_SLOTS, 8, &local, &len) != DOCA_SUCCESS)
		abort();
	/* The consumer's own queue has every slot posted with 64 bytes of room. */
	for (uint32_t i = 0; i < FUZZ_SLOTS; i++)
		sd_fp_queue_post(local, i, 0x1000u * (i + 1), 64);
	while (size > 0) {
		uint8_t op = data[0] % 3;
		struct sd_wire_fp_post p;
		struct sd_wire_fp_filled f;
		struct sd_fp_slot *slot = NULL;
		uint64_t room = 0;

		data++, size--;
		if (op == 0 && size >= sizeof(p)) {
			memcpy(&p, data, sizeof(p));
			(void)sd_fp_queue_apply_post(mirror, &p);
			data += sizeof(p), size -= sizeof(p);
		} else if (op == 1 && size >= sizeof(f)) {
			memcpy(&f, data, sizeof(f));
			(void)sd_fp_queue_apply_filled(local, &f);
			data += sizeof(f), size -= sizeof(f);
		} else if (op == 2 && sd_fp_queue_claim(mirror, FUZZ_SLOTS, 16, &slot, &room) == DOCA_SUCCESS) {
			atomic_store(&slot->state, SD_FP_SLOT_FILLED);
		} else if (op != 2) {
			break;
		}
		fuzz_check_queue(mirror);
		fuzz_check_queue(local);
	}
	sd_fp_queue_mirror_free(mirror);
	sd_fp_queue_mirror_free(local);
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
	if (data[0] % 3 == 1)
		fuzz_frame(data + 1, size - 1);
	else if (data[0] % 3 == 2)
		fuzz_framed(data + 1, size - 1);
	else
		fuzz_queue(data + 1, size - 1);
	return 0;
}
