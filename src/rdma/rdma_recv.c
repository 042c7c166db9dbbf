/*
 * rdma_recv.c - the receive side: posted receive tasks (the receive queue)
 * and the inbox ring of each connection (rdma_ring.h), where the peer's
 * sends wait.
 *
 * The peer's progress thread publishes slots, this context's progress
 * thread consumes them: a message is matched with the oldest posted
 * receive, in the order the peer sent it; with no receive posted it waits
 * (the sender's RNR budget runs meanwhile).  Who owns a message is settled
 * by one compare-and-swap on its slot's state word: the receiver takes it
 * (PENDING -> TAKEN) or the sender gives up on it (PENDING -> FREE), never
 * both.  A slot is read once into a private copy and checked there (opcode,
 * counts, lengths), since a peer in another process may write anything
 * into it at any time; a slot that breaks the rules, or whose bytes cannot
 * be read, fails the sender's task and leaves the receive posted.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "rdma_buf.h"
#include "rdma_priv.h"
#include "rdma_wake.h"
#include "sd_log.h"

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
	const struct sd_rdma_ring *r = c->inbox.ring;

	return atomic_load_explicit(&r->head, memory_order_relaxed) !=
	       atomic_load_explicit(&r->tail, memory_order_acquire);
}

bool sd_rdma_inbox_pending(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		(void)sd_rdma_conn_watch(c);
		if (sd_rdma_inbox_has(c) &&
		    ((rdma->rq_head != NULL && sd_rdma_conn_usable(c)) || sd_rdma_conn_ended(c)))
			return true; /* a match to make, or an ended inbox to drop; else messages wait (RNR) */
	}
	return false;
}

/*
 * Does a connection to a peer of another process on this machine wait on
 * that peer: messages of ours it has not taken from its ring yet, or our
 * posted receives waiting for its messages?  (A peer of this process may
 * run on this very thread: never a reason to give the CPU away.)
 */
static bool sd_rdma_inbox_waits_on_peer(const struct doca_rdma *rdma)
{
	for (const struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		const struct sd_rdma_ring *out = c->outbox.ring;
		if (c->remote_net || atomic_load_explicit(&c->peer, memory_order_relaxed) != NULL ||
		    !sd_rdma_conn_usable(c))
			continue;
		if (out != NULL && atomic_load_explicit(&out->head, memory_order_relaxed) !=
					   atomic_load_explicit(&out->tail, memory_order_relaxed))
			return true;
		if (rdma->rq_head != NULL && c->inbox.ring != NULL)
			return true;
	}
	return false;
}

/* An idle pass that waits on a peer process gives the CPU away, as over UCX (rdma_net.c, sd_rdma_net_give_way). */
void sd_rdma_inbox_give_way(const struct doca_rdma *rdma)
{
	if (rdma->give_way && sd_rdma_inbox_waits_on_peer(rdma))
		(void)sched_yield();
}

/* A private copy of a slot's fields: the peer cannot change it while we check and use it. */
struct sd_rdma_msg {
	uint32_t opcode;
	uint32_t imm;
	uint32_t nseg;
	uint64_t write_len;
	uint64_t bytes; /* of the source list; 0 for a write with immediate */
	struct sd_rdma_seg seg[SD_RDMA_SLOT_SEGS];
};

/* Copy and check the slot; NULL when it keeps the rules, else the broken one. */
static const char *sd_rdma_msg_read(const struct sd_rdma_slot *s, uint64_t max_msg, struct sd_rdma_msg *m)
{
	m->opcode = s->opcode;
	m->imm = s->imm;
	m->nseg = s->nseg;
	m->write_len = s->write_len;
	m->bytes = 0;
	if (m->opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM)
		return m->write_len <= max_msg ? NULL : "a write length above the max message size";
	if (m->opcode != DOCA_RDMA_OPCODE_RECV_SEND && m->opcode != DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM)
		return "an unknown opcode";
	if (m->nseg > SD_RDMA_SLOT_SEGS)
		return "more list elements than a slot holds";
	memcpy(m->seg, s->seg, m->nseg * sizeof(m->seg[0]));
	for (uint32_t i = 0; i < m->nseg; i++) {
		if (m->seg[i].len > max_msg - m->bytes)
			return "a source list above the max message size";
		m->bytes += m->seg[i].len;
	}
	return NULL;
}

/* Place the message's bytes into the receive's destination list: 0, ENOSPC (too long) or a pull errno. */
static int sd_rdma_fill(struct sd_rdma_task *recv, struct doca_rdma_connection *c, const struct sd_rdma_msg *m)
{
	struct sd_rdma_cursor cur = {.b = recv->dst, .off = 0};

	recv->opcode = (enum doca_rdma_opcode)m->opcode;
	recv->imm = m->imm;
	recv->from = c;
	if (m->bytes > sd_rdma_list_room(recv->dst))
		return ENOSPC; /* a card's local length error: nothing is placed */
	int err = m->bytes == 0 ? 0 : sd_rdma_pull(&c->puller, m->seg, m->nseg, &cur);
	if (err != 0)
		return err;
	recv->filled_len = m->bytes;
	recv->result_len = m->opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM ? (uint32_t)m->write_len
									     : (uint32_t)m->bytes;
	return 0;
}

/* Post the verdict in the slot and wake a sender of this process. */
static void sd_rdma_verdict(struct doca_rdma_connection *c, struct sd_rdma_slot *s, doca_error_t status)
{
	struct doca_rdma_connection *peer = atomic_load_explicit(&c->peer, memory_order_acquire);

	s->status = (int32_t)status;
	atomic_store_explicit(&s->state, SD_RDMA_SLOT_DELIVERED, memory_order_release);
	if (peer != NULL && peer->rdma->ctx.pe != NULL)
		priv_doca_pe_kick(peer->rdma->ctx.pe);
	else if (peer == NULL)
		sd_rdma_wake_peer(c, &c->inbox.ring->sender_asleep); /* a sender of another process, if it sleeps */
}

/* The slot's message cannot be delivered: its sender fails, the receive stays posted. */
static void sd_rdma_reject_slot(struct doca_rdma_connection *c, struct sd_rdma_slot *s, const char *why, int err)
{
	SD_LOG_ERR_AS("doca_pe_progress",
		      "connection %u: a message from the peer (pid %u) was dropped: %s%s%s; the peer's task fails "
		      "and the receive stays posted",
		      c->id, c->remote.pid, why, err != 0 ? ": " : "", err != 0 ? strerror(err) : "");
	sd_rdma_verdict(c, s, DOCA_ERROR_IO_FAILED);
	if (err == ESRCH)
		sd_rdma_conn_mark_closed(c); /* the sender is gone: so is the connection */
}

void sd_rdma_recv_done(struct doca_rdma *rdma, struct sd_rdma_task *recv, doca_error_t status)
{
	rdma->rq_head = recv->rq_next;
	if (rdma->rq_head == NULL)
		rdma->rq_tail = NULL;
	sd_task_settle_waiting(&recv->base, status); /* counted: the PE's scan skips receives that still wait */
}

/* Deliver the taken slot `s` of `c` into the oldest posted receive. */
static void sd_rdma_deliver(struct doca_rdma *rdma, struct doca_rdma_connection *c, struct sd_rdma_slot *s)
{
	struct sd_rdma_task *recv = rdma->rq_head;
	struct sd_rdma_msg m;
	const char *why = sd_rdma_msg_read(s, rdma->node->caps.rdma_max_msg_size, &m);

	if (why != NULL) {
		sd_rdma_reject_slot(c, s, why, 0);
		return;
	}
	int err = sd_rdma_fill(recv, c, &m);
	if (err == ENOSPC) {
		sd_rdma_verdict(c, s, DOCA_ERROR_IO_FAILED); /* both fail, as documented */
		sd_rdma_recv_done(rdma, recv, DOCA_ERROR_IO_FAILED);
		return;
	}
	if (err != 0) {
		sd_rdma_reject_slot(c, s, "its source bytes cannot be read", err);
		return;
	}
	sd_rdma_verdict(c, s, DOCA_SUCCESS);
	sd_rdma_recv_done(rdma, recv, DOCA_SUCCESS);
}

/* Match the oldest message of `c` with the oldest posted receive; false when one of them is missing. */
static bool sd_rdma_match_one(struct doca_rdma *rdma, struct doca_rdma_connection *c)
{
	struct sd_rdma_ring *r = c->inbox.ring;
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head == tail)
		return false;
	if (sd_rdma_conn_ended(c) || tail - head > SD_RDMA_RING_SLOTS) {
		/* Ended (or a peer that broke the counters): its senders fail on their own; drop the rest. */
		atomic_store_explicit(&r->head, tail, memory_order_release);
		if (sd_rdma_conn_usable(c)) {
			SD_LOG_ERR_AS("doca_pe_progress", "connection %u: the peer broke its inbox counters; ending it",
				      c->id);
			sd_rdma_conn_mark_closed(c);
		}
		return false;
	}
	if (rdma->rq_head == NULL || !sd_rdma_conn_usable(c))
		return false; /* no receive yet, or not connected on this side yet: the message waits */
	struct sd_rdma_slot *s = &r->slot[head % SD_RDMA_RING_SLOTS];
	uint32_t expect = SD_RDMA_SLOT_PENDING;
	bool taken = atomic_compare_exchange_strong(&s->state, &expect, SD_RDMA_SLOT_TAKEN);
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	if (taken)
		sd_rdma_deliver(rdma, c, s);
	return true; /* a slot its sender withdrew is skipped */
}

void sd_rdma_inbox_drain(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next)
		for (uint32_t n = 0; n < SD_RDMA_RING_SLOTS && sd_rdma_match_one(rdma, c); n++)
			;
}
