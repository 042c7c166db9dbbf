/*
 * rdma_recv.c - the receive side: posted receive tasks (the receive queue)
 * and the inbox of each connection, where the peer's sends wait.
 *
 * An inbox is a single-producer single-consumer ring: the peer's progress
 * thread appends (its send queue is one thread's), this context's progress
 * thread consumes.  A message is matched with the oldest posted receive,
 * in the order the peer sent it; with no receive posted it waits (the
 * sender's RNR budget runs meanwhile).  Who owns a message is settled by
 * one compare-and-swap on its state: the receiver takes it (PENDING ->
 * TAKEN) or the sender gives up on it (PENDING -> WITHDRAWN), never both.
 */
#include <string.h>

#include "rdma_buf.h"
#include "rdma_priv.h"

bool sd_rdma_inbox_push(struct doca_rdma_connection *to, struct sd_rdma_task *msg)
{
	struct sd_rdma_inbox *in = &to->inbox;
	uint32_t tail = atomic_load_explicit(&in->tail, memory_order_relaxed);

	if (tail - atomic_load_explicit(&in->head, memory_order_acquire) >= SD_RDMA_INBOX_CAP)
		return false;
	in->slot[tail % SD_RDMA_INBOX_CAP] = msg;
	atomic_store_explicit(&in->tail, tail + 1, memory_order_release);
	return true;
}

void sd_rdma_rq_post(struct doca_rdma *rdma, struct sd_rdma_task *t)
{
	t->rq_next = NULL;
	if (rdma->rq_tail != NULL)
		rdma->rq_tail->rq_next = t;
	else
		rdma->rq_head = t;
	rdma->rq_tail = t;
}

void sd_rdma_rq_unlink(struct doca_rdma *rdma, struct sd_rdma_task *t)
{
	struct sd_rdma_task *prev = NULL;

	for (struct sd_rdma_task *c = rdma->rq_head; c != NULL; prev = c, c = c->rq_next) {
		if (c != t)
			continue;
		if (prev == NULL)
			rdma->rq_head = c->rq_next;
		else
			prev->rq_next = c->rq_next;
		if (rdma->rq_tail == c)
			rdma->rq_tail = prev;
		return;
	}
}

static bool sd_rdma_inbox_has(const struct doca_rdma_connection *c)
{
	return atomic_load_explicit(&c->inbox.head, memory_order_relaxed) !=
	       atomic_load_explicit(&c->inbox.tail, memory_order_acquire);
}

bool sd_rdma_inbox_pending(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next)
		if (sd_rdma_inbox_has(c) && (rdma->rq_head != NULL || !sd_rdma_conn_usable(c)))
			return true; /* a match to make, or an ended inbox to drop; else messages wait (RNR) */
	return false;
}

/* Copy the message's bytes into the receive's destination list: the status of both tasks. */
static doca_error_t sd_rdma_fill(struct sd_rdma_task *recv, const struct sd_rdma_task *msg)
{
	uint32_t n;
	uint64_t bytes = msg->opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM ? 0 : sd_rdma_list_bytes(msg->src, &n);
	struct sd_rdma_cursor c = {.b = recv->dst, .off = 0};

	if (bytes > sd_rdma_list_room(recv->dst))
		return DOCA_ERROR_IO_FAILED; /* a card's local length error: nothing is placed */
	for (const struct doca_buf *e = msg->src; bytes != 0 && e != NULL; e = e->next) {
		const uint8_t *from = e->data;
		uint64_t left = e->data_len;
		uint8_t *at;
		size_t k;
		while (left != 0 && (k = sd_rdma_cursor_span(&c, left, &at)) != 0) {
			memcpy(at, from, k);
			from += k;
			left -= k;
		}
	}
	recv->filled_len = bytes;
	recv->result_len = msg->opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM ? (uint32_t)msg->filled_len
									      : (uint32_t)bytes;
	return DOCA_SUCCESS;
}

/* Match the oldest message of `c` with the oldest posted receive; false when one of them is missing. */
static bool sd_rdma_match_one(struct doca_rdma *rdma, struct doca_rdma_connection *c)
{
	struct sd_rdma_inbox *in = &c->inbox;
	uint32_t head = atomic_load_explicit(&in->head, memory_order_relaxed);
	struct sd_rdma_task *recv = rdma->rq_head;

	if (head == atomic_load_explicit(&in->tail, memory_order_acquire))
		return false;
	if (!sd_rdma_conn_usable(c)) {
		/* Ended: its senders fail their messages themselves (NOT_CONNECTED); never touch them again. */
		atomic_store_explicit(&in->head, atomic_load_explicit(&in->tail, memory_order_acquire),
				      memory_order_release);
		return false;
	}
	if (recv == NULL)
		return false;
	struct sd_rdma_task *msg = in->slot[head % SD_RDMA_INBOX_CAP];
	int expect = SD_RDMA_MSG_PENDING;
	bool taken = atomic_compare_exchange_strong(&msg->msg_state, &expect, SD_RDMA_MSG_TAKEN);
	atomic_store_explicit(&in->head, head + 1, memory_order_release);
	if (!taken)
		return true; /* withdrawn by its sender: skip it */
	doca_error_t status = sd_rdma_fill(recv, msg);
	recv->opcode = msg->opcode;
	recv->imm = msg->imm;
	recv->from = c;
	msg->msg_status = status;
	struct doca_pe *sender_pe = msg->base.ctx->pe;
	atomic_store_explicit(&msg->msg_state, SD_RDMA_MSG_DELIVERED, memory_order_release);
	if (sender_pe != NULL)
		priv_doca_pe_kick(sender_pe);
	rdma->rq_head = recv->rq_next;
	if (rdma->rq_head == NULL)
		rdma->rq_tail = NULL;
	recv->base.early_status = status;
	atomic_store_explicit(&recv->base.ready, 1, memory_order_release);
	return true;
}

void sd_rdma_inbox_drain(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next)
		while (sd_rdma_match_one(rdma, c))
			;
}
