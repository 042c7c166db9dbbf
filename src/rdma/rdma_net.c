/*
 * rdma_net.c - messages to a peer in another namespace or on another
 * machine (rdma_net.h): the context's message node, binding links to
 * connections, the sender's window and the receiver's hold queue.
 *
 * Everything runs on the progress thread: the node is progressed by the
 * context's event step (sd_rdma_net_progress), and its callbacks fill
 * receives, hold messages and complete sends right there.  A received
 * payload that finds a receive posted is copied once, into the receive's
 * buffers; one that does not is kept in UCX's own buffer (no copy) until a
 * receive is posted or its RNR budget runs out.
 *
 * Small sends a program submits from its completion callbacks wait for the
 * end of the progress pass and leave together, one BATCH per run of them
 * (rdma_net.h): with a window of sends resubmitted from their completions,
 * each answer's worth of sends costs one system call instead of one each.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_buf.h"
#include "rdma_net.h"
#include "rdma_priv.h"
#include "sd_log.h"
#include "sd_msgnet.h"

#define SD_RDMA_NET_HOLD_EVERY_NS 100000000ull /* a receiver holding messages says it lives this often */
/*
 * An answer the control copies had no room for is sent again this much
 * later (every pass otherwise ends with its answer out: see
 * sd_rdma_net_progress).
 */
#define SD_RDMA_NET_ANSWER_RETRY_NS 20000ull
#define SD_RDMA_NET_NO_EFD_LOOK_NS 1000000ull /* a sleeper looks this often when UCX offers no event descriptor */

/* A message the receiver holds for want of a posted receive. */
struct sd_rdma_held {
	void *data;  /* the message's bytes in UCX's buffer (NULL when it has none) */
	void *owner; /* UCX's buffer to hand back when this entry leaves the queue (NULL: none) */
	uint64_t len;
	uint64_t seq;
	uint64_t write_len;
	uint64_t deadline_ns;
	uint32_t opcode;
	uint32_t imm;
};

/* The network side of one connection. */
struct sd_rdma_net_conn {
	void *out; /* our link to the peer's node: our messages, its answers */
	void *in;  /* the peer's link to our node: its messages, our answers */
	/* Sender. */
	bool ready;          /* the hello went out on `out`: sends are taken */
	bool bound;          /* the peer bound `out` (OK received): sends are transmitted */
	uint64_t unsent;     /* our first message not transmitted yet (they wait for the OK) */
	uint64_t nonce;
	uint32_t window;     /* power of two */
	uint64_t next_seq;   /* of our next message (from 1) */
	uint64_t oldest;     /* our oldest unanswered message (== next_seq when none) */
	uint64_t heard_ns;   /* when the peer last said something while we waited */
	struct sd_rdma_task **win;
	uint8_t (*win_hdr)[SD_RDMA_NET_HDR_LEN]; /* each window slot's header, read by UCX until answered */
	/*
	 * Each slot's list of buffers for a message of several: UCX keeps the
	 * list itself (not only the bytes) for a send it has to queue, so it
	 * may not live on the stack of the call that posted it.
	 */
	struct iovec (*win_iov)[SD_RDMA_SLOT_SEGS];
	/*
	 * The BATCH records of our unanswered small messages (prefix, header,
	 * the payload copied), packed in sequence order in one ring so that a
	 * run of them is one buffer for UCX, read by it until answered.
	 */
	uint8_t *tx_ring;
	uint64_t tx_head;      /* bytes staged since the connection began: the next record starts here */
	struct iovec *rec_iov; /* each slot's record in tx_ring (length 0: too long to batch) */
	/* Receiver. */
	uint32_t peer_id;    /* the peer's connection id, from its hello: our answers name it */
	uint64_t expect_seq; /* of the peer's next message */
	struct sd_rdma_held *held;
	uint32_t held_cap;   /* power of two: the peer's window */
	uint32_t held_head;
	uint32_t held_n;
	uint64_t hold_said_ns;
	/* The answer being gathered: `run_count` messages from `run_first`, one status. */
	uint64_t run_first;
	uint32_t run_count;
	uint32_t run_status;
	uint64_t run_since_ns; /* when the answer's first outcome was known: a retry counts from there */
	bool ended;
	/* Inside a UCX callback a link cannot be closed: the end waits for the event step. */
	bool doomed;
	bool doomed_closed; /* ... and the connection ends with it (the peer closed) */
};

/* The context's message node. */
struct sd_rdma_net {
	const struct sd_msgnet_ops *ops;
	void *node;
	uint16_t port;
	uint64_t made_ready; /* tasks this side made ready (sends answered, receives filled): news for a sleeper */
	bool tx_pending;     /* sends submitted from callbacks wait for the pass's end (sd_rdma_net_transmit_all) */
};

static void sd_rdma_net_settle(struct sd_rdma_task *t, doca_error_t status)
{
	struct sd_rdma_net *net = t->conn != NULL ? t->conn->rdma->net : NULL;

	if (net != NULL)
		net->made_ready++;
	t->base.early_status = status;
	atomic_store_explicit(&t->base.ready, 1, memory_order_release);
}

static uint32_t sd_rdma_net_pow2(uint32_t n)
{
	uint32_t w = 1;

	while (w < n && w < SD_RDMA_NET_MAX_WINDOW)
		w <<= 1;
	return w;
}

static int sd_rdma_net_send_ctl(struct doca_rdma *rdma, void *link, const struct sd_rdma_net_hdr *h)
{
	uint8_t buf[SD_RDMA_NET_HDR_LEN];

	sd_rdma_net_encode(h, buf);
	return rdma->net->ops->send_ctl(link, buf, sizeof(buf));
}

/* ---- the node ---- */

static bool sd_rdma_net_on_msg(void *arg, void *link, void *link_arg, const void *hdr, size_t hlen, void *data,
			       size_t len);
static void sd_rdma_net_on_fail(void *arg, void *link, void *link_arg);

static const struct sd_msgnet_cbs sd_rdma_net_cbs = {
	.on_msg = sd_rdma_net_on_msg,
	.on_fail = sd_rdma_net_on_fail,
};

uint16_t sd_rdma_net_offer(struct doca_rdma *rdma, const char *func)
{
	struct sd_rdma_net *net = rdma->net;

	if (net != NULL)
		return net->port;
	net = calloc(1, sizeof(*net));
	if (net == NULL)
		return 0;
	if (priv_doca_msgnet_open(func, &sd_rdma_net_cbs, rdma, &net->ops, &net->port, &net->node) != DOCA_SUCCESS) {
		SD_LOG_WARN("%s: rdma %p offers no endpoint for messages (see above): peers in other namespaces "
			    "can read, write and run atomics, but not send",
			    func, (void *)rdma);
		free(net);
		return 0;
	}
	rdma->net = net;
	return net->port;
}

static struct sd_rdma_net_conn *sd_rdma_net_conn_of(struct doca_rdma_connection *c)
{
	if (c->net == NULL)
		c->net = calloc(1, sizeof(*c->net));
	if (c->net != NULL && c->net->next_seq == 0) {
		c->net->next_seq = c->net->oldest = c->net->unsent = 1;
		c->net->expect_seq = 1;
	}
	return c->net;
}

static void sd_rdma_net_end(struct doca_rdma_connection *c, doca_error_t status, bool tell, bool closed);
static int sd_rdma_net_transmit_waiting(struct doca_rdma_connection *c);

/* ---- answers (receiver) ---- */

static void sd_rdma_net_flush_answer(struct doca_rdma_connection *c)
{
	struct sd_rdma_net_conn *nc = c->net;
	struct sd_rdma_net_hdr h = {.type = SD_RDMA_NET_ANS, .conn_id = nc->peer_id,
				    .word = nc->run_status, .seq = nc->run_first, .count = nc->run_count};

	if (nc->run_count == 0 || nc->in == NULL)
		return;
	if (sd_rdma_net_send_ctl(c->rdma, nc->in, &h) != EAGAIN)
		nc->run_count = 0; /* sent, or the link failed (its end comes with the failure) */
}

/* The outcome of the peer's message `seq`: gathered into one answer with its neighbours of the same status. */
static void sd_rdma_net_answer(struct doca_rdma_connection *c, uint64_t seq, doca_error_t status)
{
	struct sd_rdma_net_conn *nc = c->net;

	if (nc->run_count != 0 && nc->run_status == (uint32_t)status && nc->run_first + nc->run_count == seq &&
	    nc->run_count < SD_RDMA_NET_MAX_RUN) {
		nc->run_count++;
		return;
	}
	sd_rdma_net_flush_answer(c);
	if (nc->run_count != 0) {
		nc->doomed = true; /* answers pile up: the peer reads none */
		return;
	}
	nc->run_first = seq;
	nc->run_since_ns = sd_mono_ns();
	nc->run_count = 1;
	nc->run_status = (uint32_t)status;
}

/* ---- delivering (receiver) ---- */

/* Copy a message into the oldest posted receive and complete it; the answer for the sender. */
static doca_error_t sd_rdma_net_fill(struct doca_rdma *rdma, struct doca_rdma_connection *c,
				     const struct sd_rdma_held *m)
{
	struct sd_rdma_task *recv = rdma->rq_head;
	struct sd_rdma_cursor cur = {.b = recv->dst, .off = 0};
	const uint8_t *from = m->data;
	uint64_t left = m->len;
	uint8_t *at;
	size_t n;

	rdma->net->made_ready++;
	recv->opcode = (enum doca_rdma_opcode)m->opcode;
	recv->imm = m->imm;
	recv->from = c;
	if (m->len > sd_rdma_list_room(recv->dst)) {
		sd_rdma_recv_done(rdma, recv, DOCA_ERROR_IO_FAILED); /* a card's local length error: both fail */
		return DOCA_ERROR_IO_FAILED;
	}
	while (left != 0 && (n = sd_rdma_cursor_span(&cur, left, &at)) != 0) {
		memcpy(at, from, n);
		from += n;
		left -= n;
	}
	recv->filled_len = m->len;
	recv->result_len = m->opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM ? (uint32_t)m->write_len
									      : (uint32_t)m->len;
	sd_rdma_recv_done(rdma, recv, DOCA_SUCCESS);
	return DOCA_SUCCESS;
}

static struct sd_rdma_held *sd_rdma_net_held_at(struct sd_rdma_net_conn *nc, uint32_t i)
{
	return &nc->held[(nc->held_head + i) & (nc->held_cap - 1)];
}

static void sd_rdma_net_held_pop(struct doca_rdma *rdma, struct sd_rdma_net_conn *nc)
{
	struct sd_rdma_held *m = sd_rdma_net_held_at(nc, 0);

	if (m->owner != NULL)
		rdma->net->ops->release(rdma->net->node, m->owner);
	m->data = m->owner = NULL;
	nc->held_head = (nc->held_head + 1) & (nc->held_cap - 1);
	nc->held_n--;
}

/* Deliver held messages while receives are posted; fail those whose RNR budget ran out. */
static void sd_rdma_net_drain_held(struct doca_rdma *rdma, struct doca_rdma_connection *c, uint64_t now)
{
	struct sd_rdma_net_conn *nc = c->net;

	while (nc->held_n != 0 && rdma->rq_head != NULL && sd_rdma_conn_usable(c)) {
		struct sd_rdma_held *m = sd_rdma_net_held_at(nc, 0);
		sd_rdma_net_answer(c, m->seq, sd_rdma_net_fill(rdma, c, m));
		sd_rdma_net_held_pop(rdma, nc);
	}
	while (nc->held_n != 0 && now > sd_rdma_net_held_at(nc, 0)->deadline_ns) {
		SD_LOG_INFO("connection %u: a message of the peer waited for a receive task longer than its RNR "
			    "budget; the peer's send fails",
			    c->id);
		sd_rdma_net_answer(c, sd_rdma_net_held_at(nc, 0)->seq, DOCA_ERROR_TIME_OUT);
		sd_rdma_net_held_pop(rdma, nc);
	}
	if (nc->held_n != 0 && now - nc->hold_said_ns > SD_RDMA_NET_HOLD_EVERY_NS && nc->in != NULL) {
		struct sd_rdma_net_hdr h = {.type = SD_RDMA_NET_HOLD, .conn_id = nc->peer_id};

		sd_rdma_net_flush_answer(c);
		(void)sd_rdma_net_send_ctl(rdma, nc->in, &h);
		nc->hold_said_ns = now;
	}
}

/*
 * A message of the peer, in order: fill a receive now, or hold it (true),
 * handing UCX's buffer `owner` back when the held entry leaves.
 */
static bool sd_rdma_net_take(struct doca_rdma *rdma, struct doca_rdma_connection *c, const struct sd_rdma_net_hdr *h,
			     void *data, size_t len, void *owner)
{
	struct sd_rdma_net_conn *nc = c->net;
	struct sd_rdma_held m = {.data = len != 0 ? data : NULL, .owner = owner, .len = len, .seq = h->seq,
				 .write_len = h->count, .opcode = h->word, .imm = h->imm};
	uint64_t now = sd_mono_ns();

	if (nc->held_n == 0 && rdma->rq_head != NULL && sd_rdma_conn_usable(c)) {
		sd_rdma_net_answer(c, h->seq, sd_rdma_net_fill(rdma, c, &m));
		return false;
	}
	if (nc->held_n == nc->held_cap) {
		SD_LOG_ERR_AS("doca_pe_progress",
			      "connection %u: the peer sent more messages than the window it announced (%u); "
			      "its send fails",
			      c->id, nc->held_cap);
		sd_rdma_net_answer(c, h->seq, DOCA_ERROR_IO_FAILED);
		return false;
	}
	if (nc->held_n == 0)
		nc->hold_said_ns = now;
	m.deadline_ns = now + (uint64_t)h->rnr_ms * 1000000ull;
	*sd_rdma_net_held_at(nc, nc->held_n) = m;
	nc->held_n++;
	return true;
}

/* ---- ending a connection's network side ---- */

static void sd_rdma_net_fail_sends(struct sd_rdma_net_conn *nc, doca_error_t status)
{
	for (; nc->oldest < nc->next_seq; nc->oldest++) {
		struct sd_rdma_task **slot = &nc->win[nc->oldest & (nc->window - 1)];
		if (*slot != NULL && (*slot)->net_seq == nc->oldest)
			sd_rdma_net_settle(*slot, status);
		*slot = NULL;
	}
}

/*
 * The connection's messages end (either side, or the link): tell the peer
 * when it can still hear, fail our unanswered sends with `status` (none
 * when the context stops: the framework flushes them), drop what we hold,
 * close both links.  `closed`: the connection itself ends too (a
 * disconnect or a stop); a failed link leaves it to one-sided tasks, which
 * fail on their own the way a card's do.
 */
static void sd_rdma_net_end(struct doca_rdma_connection *c, doca_error_t status, bool tell, bool closed)
{
	struct doca_rdma *rdma = c->rdma;
	struct sd_rdma_net_conn *nc = c->net;

	if (nc == NULL || nc->ended)
		return;
	nc->ended = true;
	if (tell) {
		/* On both links, each after what it carried: the peer reads our last answers before the close. */
		struct sd_rdma_net_hdr h = {.type = SD_RDMA_NET_CLOSE, .conn_id = c->remote.conn_id};
		struct sd_rdma_net_hdr a = {.type = SD_RDMA_NET_CLOSE, .conn_id = nc->peer_id};
		sd_rdma_net_flush_answer(c);
		if (nc->out != NULL)
			(void)sd_rdma_net_send_ctl(rdma, nc->out, &h);
		if (nc->in != NULL)
			(void)sd_rdma_net_send_ctl(rdma, nc->in, &a);
	}
	if (nc->win != NULL)
		sd_rdma_net_fail_sends(nc, status);
	while (nc->held_n != 0)
		sd_rdma_net_held_pop(rdma, nc);
	if (nc->out != NULL)
		rdma->net->ops->link_close(rdma->net->node, nc->out);
	if (nc->in != NULL)
		rdma->net->ops->link_close(rdma->net->node, nc->in);
	nc->out = nc->in = NULL;
	if (closed)
		sd_rdma_conn_mark_closed(c);
}

static void sd_rdma_net_on_fail(void *arg, void *link, void *link_arg)
{
	struct doca_rdma *rdma = arg;
	struct doca_rdma_connection *c = link_arg;

	if (c == NULL || c->net == NULL) {
		rdma->net->ops->link_close(rdma->net->node, link); /* a link never bound to a connection */
		return;
	}
	SD_LOG_WARN("connection %u: the link to the peer (pid %u) failed (the peer exited or the network is cut); "
		    "its sends fail with DOCA_ERROR_NOT_CONNECTED",
		    c->id, c->remote.pid);
	sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, false, false);
}

/* ---- answers (sender) ---- */

static void sd_rdma_net_settle_seq(struct doca_rdma_connection *c, uint64_t seq, doca_error_t status)
{
	struct sd_rdma_net_conn *nc = c->net;
	struct sd_rdma_task **slot = &nc->win[seq & (nc->window - 1)];
	struct sd_rdma_task *t = *slot;

	if (t == NULL || t->net_seq != seq)
		return; /* answered already, or flushed by a stop */
	if (status == DOCA_ERROR_TIME_OUT) {
		SD_LOG_ERR_AS("doca_pe_progress",
			      "task %p: the peer posted no receive task within the RNR retry budget of connection %u; "
			      "post receives before the peer sends, or raise doca_rdma_set_rnr_retry_count",
			      (void *)t, c->id);
		status = DOCA_ERROR_IO_FAILED;
	}
	*slot = NULL;
	sd_rdma_net_settle(t, status);
}

static void sd_rdma_net_on_answer(struct doca_rdma_connection *c, const struct sd_rdma_net_hdr *h)
{
	struct sd_rdma_net_conn *nc = c->net;

	for (uint64_t s = h->seq; s < h->seq + h->count; s++) {
		if (s < nc->oldest || s >= nc->next_seq)
			continue; /* not a message we have unanswered: a peer's mistake, ignored */
		sd_rdma_net_settle_seq(c, s, (doca_error_t)h->word);
	}
	while (nc->oldest < nc->next_seq && nc->win[nc->oldest & (nc->window - 1)] == NULL)
		nc->oldest++;
}

/* ---- what arrives ---- */

static struct doca_rdma_connection *sd_rdma_net_find(struct doca_rdma *rdma, const struct sd_rdma_net_hdr *h)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		uint8_t diff = 0;
		for (size_t i = 0; i < SD_RDMA_TOKEN_LEN; i++)
			diff |= (uint8_t)(c->self.token[i] ^ h->token[i]);
		if (c->id == h->conn_id && diff == 0)
			return c;
	}
	return NULL;
}

/* A hello on a new link: bind it to the connection it names, and size the hold queue for the peer's window. */
static void sd_rdma_net_on_hello(struct doca_rdma *rdma, void *link, const struct sd_rdma_net_hdr *h)
{
	struct doca_rdma_connection *c = sd_rdma_net_find(rdma, h);
	struct sd_rdma_net_conn *nc = c != NULL && !sd_rdma_conn_ended(c) ? sd_rdma_net_conn_of(c) : NULL;
	struct sd_rdma_net_hdr a = {.type = SD_RDMA_NET_DENY, .conn_id = (uint32_t)h->count, .seq = h->seq};

	if (nc != NULL && nc->in == NULL && !nc->ended && nc->held == NULL)
		nc->held = calloc(h->word, sizeof(*nc->held));
	if (nc == NULL || nc->in != NULL || nc->ended || nc->held == NULL) {
		SD_LOG_WARN("rdma %p: a peer introduced itself for connection %u with a wrong token, or twice; "
			    "refused",
			    (void *)rdma, h->conn_id);
		rdma->net->ops->link_set_arg(link, NULL);
		(void)sd_rdma_net_send_ctl(rdma, link, &a);
		return;
	}
	nc->held_cap = h->word;
	nc->peer_id = (uint32_t)h->count;
	nc->in = link;
	rdma->net->ops->link_set_arg(link, c);
	a.type = SD_RDMA_NET_OK;
	a.word = h->word;
	(void)sd_rdma_net_send_ctl(rdma, link, &a);
}

/* A message of the peer on its link; false when it broke the protocol. */
static const char *sd_rdma_net_on_data(struct doca_rdma_connection *c, const struct sd_rdma_net_hdr *h, size_t len)
{
	uint64_t max = c->rdma->node->caps.rdma_max_msg_size;

	if (h->seq != c->net->expect_seq)
		return "a message out of sequence";
	if (len > max || h->count > max)
		return "a message above the max message size";
	c->net->expect_seq++;
	return NULL;
}

/*
 * The records of a BATCH, each taken as the MSG it holds, in order.  The
 * records a receive could not take yet are the batch's last ones (once one
 * is held, those after it are held too): the last held entry hands UCX's
 * buffer back when it leaves the queue, after the others.  True when some
 * record is held (UCX's buffer is kept).
 */
static bool sd_rdma_net_take_batch(struct doca_rdma_connection *c, const struct sd_rdma_net_hdr *bh, void *data,
				   size_t len, const char **why)
{
	struct sd_rdma_net_conn *nc = c->net;
	const uint8_t *p = data;
	bool held = false;

	if (bh->seq != nc->expect_seq)
		*why = "a batch out of sequence";
	for (uint64_t i = 0; i < bh->count && *why == NULL; i++) {
		struct sd_rdma_net_hdr h;
		const uint8_t *payload;
		size_t plen, used;
		*why = sd_rdma_net_decode_record(p, len, &h, &payload, &plen, &used);
		if (*why == NULL && h.conn_id != c->id)
			*why = "a batch record for another connection";
		if (*why == NULL)
			*why = sd_rdma_net_on_data(c, &h, plen);
		if (*why != NULL)
			break;
		held |= sd_rdma_net_take(c->rdma, c, &h, (void *)payload, plen, NULL);
		p += used;
		len -= used;
	}
	if (*why == NULL && len != 0)
		*why = "bytes after a batch's last record";
	if (!held)
		return false;
	sd_rdma_net_held_at(nc, nc->held_n - 1)->owner = data;
	return true;
}

static bool sd_rdma_net_dispatch(struct doca_rdma_connection *c, void *link, const struct sd_rdma_net_hdr *h,
				 void *data, size_t len, const char **why)
{
	struct sd_rdma_net_conn *nc = c->net;
	bool on_in = link == nc->in, on_out = link == nc->out;

	if (h->conn_id != c->id && h->type != SD_RDMA_NET_DENY) {
		*why = "a message for another connection";
		return false;
	}
	switch (h->type) {
	case SD_RDMA_NET_MSG:
		if (!on_in || (*why = sd_rdma_net_on_data(c, h, len)) != NULL)
			return false;
		return sd_rdma_net_take(c->rdma, c, h, data, len, len != 0 ? data : NULL) && len != 0;
	case SD_RDMA_NET_BATCH:
		if (!on_in) {
			*why = "a batch on the wrong link";
			return false;
		}
		return sd_rdma_net_take_batch(c, h, data, len, why);
	case SD_RDMA_NET_OK:
	case SD_RDMA_NET_DENY:
		if (on_out && h->seq == nc->nonce && (h->type == SD_RDMA_NET_DENY || h->word != nc->window)) {
			SD_LOG_ERR_AS("doca_pe_progress",
				      "connection %u: the peer (pid %u) refused its message link; sends on it fail "
				      "with DOCA_ERROR_NOT_CONNECTED",
				      c->id, c->remote.pid);
			nc->doomed = true;
		} else if (on_out && h->seq == nc->nonce && !nc->bound) {
			nc->heard_ns = sd_mono_ns();
			nc->bound = true;
			if (sd_rdma_net_transmit_waiting(c) != 0)
				nc->doomed = true; /* inside a UCX callback: the event step ends the connection's messages */
		}
		return false;
	case SD_RDMA_NET_ANS:
	case SD_RDMA_NET_HOLD:
		if (!on_out) {
			*why = "an answer on the wrong link";
			return false;
		}
		nc->heard_ns = sd_mono_ns();
		if (h->type == SD_RDMA_NET_ANS)
			sd_rdma_net_on_answer(c, h);
		return false;
	case SD_RDMA_NET_CLOSE:
		if (on_in && nc->out != NULL)
			return false; /* its twin on our own link comes after the peer's last answers: wait for it */
		SD_LOG_INFO("connection %u: the peer (pid %u) disconnected or stopped; tasks on it fail with "
			    "DOCA_ERROR_NOT_CONNECTED",
			    c->id, c->remote.pid);
		nc->doomed = nc->doomed_closed = true;
		return false;
	default:
		*why = "a hello on a bound link";
		return false;
	}
}

static bool sd_rdma_net_on_msg(void *arg, void *link, void *link_arg, const void *hdr, size_t hlen, void *data,
			       size_t len)
{
	struct doca_rdma *rdma = arg;
	struct doca_rdma_connection *c = link_arg;
	struct sd_rdma_net_hdr h;
	const char *why = sd_rdma_net_decode(hdr, hlen, len, &h);
	bool keep = false;

	if (why == NULL && c == NULL) {
		if (h.type == SD_RDMA_NET_HELLO)
			sd_rdma_net_on_hello(rdma, link, &h);
		return false; /* anything else on an unbound link is dropped */
	}
	if (why == NULL && c->net != NULL && !c->net->ended && !c->net->doomed)
		keep = sd_rdma_net_dispatch(c, link, &h, data, len, &why);
	if (why != NULL && c != NULL && c->net != NULL && !c->net->ended && !c->net->doomed) {
		SD_LOG_ERR_AS("doca_pe_progress", "connection %u: the peer (pid %u) sent %s; ending its messages",
			      c->id, c->remote.pid, why);
		c->net->doomed = true;
	}
	return keep;
}

/* ---- the sender ---- */

/* The bytes of message `t` (none for the immediate of a write), as UCX reads them. */
static size_t sd_rdma_net_iov(const struct sd_rdma_task *t, struct iovec iov[SD_RDMA_SLOT_SEGS])
{
	size_t n = 0;

	for (const struct doca_buf *e = t->opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM ? NULL : t->src;
	     e != NULL && n < SD_RDMA_SLOT_SEGS; e = e->next)
		if (e->data_len != 0)
			iov[n++] = (struct iovec){.iov_base = e->data, .iov_len = e->data_len};
	return n;
}

/*
 * The ring holds a record for each message of the window and one more: the
 * unanswered ones (at most the window, packed in sequence order) plus the
 * gap a record that would straddle the ring's end leaves when it moves to
 * the start never reach the oldest unanswered record's bytes.
 */
static size_t sd_rdma_net_tx_ring_len(uint32_t window)
{
	return ((size_t)window + 1) * (SD_RDMA_NET_REC_HDR + SD_RDMA_NET_SMALL);
}

/*
 * Stage message `t` as a BATCH record at the ring's head when its payload
 * is small enough to travel in one: the record then holds a copy of the
 * bytes.
 */
static void sd_rdma_net_stage(struct sd_rdma_net_conn *nc, const struct sd_rdma_task *t,
			      const struct sd_rdma_net_hdr *h, uint32_t slot)
{
	struct iovec iov[SD_RDMA_SLOT_SEGS];
	size_t n = sd_rdma_net_iov(t, iov), len = 0, ring = sd_rdma_net_tx_ring_len(nc->window);

	nc->rec_iov[slot].iov_len = 0;
	for (size_t i = 0; i < n; i++)
		len += iov[i].iov_len;
	if (len > SD_RDMA_NET_SMALL)
		return; /* sent alone, from the task's own buffers */
	if (nc->tx_head % ring + SD_RDMA_NET_REC_HDR + len > ring)
		nc->tx_head += ring - nc->tx_head % ring; /* records never straddle the ring's end */
	uint8_t *rec = nc->tx_ring + nc->tx_head % ring;
	nc->rec_iov[slot] = (struct iovec){.iov_base = rec, .iov_len = SD_RDMA_NET_REC_HDR + len};
	nc->tx_head += SD_RDMA_NET_REC_HDR + len;
	sd_rdma_net_encode_record(h, (uint32_t)len, rec);
	rec += SD_RDMA_NET_REC_HDR;
	for (size_t i = 0; i < n; i++) {
		memcpy(rec, iov[i].iov_base, iov[i].iov_len);
		rec += iov[i].iov_len;
	}
}

/*
 * How many of the unsent messages from `seq` on leave in one BATCH, and in
 * how many bytes: consecutive staged ones, up to SD_RDMA_NET_MAX_BATCH,
 * whose records lie end to end in the ring (one buffer for UCX).
 */
static uint32_t sd_rdma_net_run(const struct sd_rdma_net_conn *nc, uint64_t seq, size_t *bytes)
{
	const uint8_t *end = NULL;
	uint32_t n = 0;

	*bytes = 0;
	while (seq + n < nc->next_seq && n < SD_RDMA_NET_MAX_BATCH) {
		const struct iovec *rec = &nc->rec_iov[(seq + n) & (nc->window - 1)];
		const struct sd_rdma_task *t = nc->win[(seq + n) & (nc->window - 1)];
		if (t == NULL || t->net_seq != seq + n || rec->iov_len == 0 || (n != 0 && rec->iov_base != end))
			break;
		end = (const uint8_t *)rec->iov_base + rec->iov_len;
		*bytes += rec->iov_len;
		n++;
	}
	return n;
}

/* One message alone: its header and its task's own buffers. */
static int sd_rdma_net_send_one(struct doca_rdma_connection *c, uint64_t seq)
{
	struct sd_rdma_net_conn *nc = c->net;
	uint32_t slot = (uint32_t)(seq & (nc->window - 1));
	struct iovec *iov = nc->win_iov[slot];

	return c->rdma->net->ops->send(nc->out, nc->win_hdr[slot], SD_RDMA_NET_HDR_LEN, iov,
				       sd_rdma_net_iov(nc->win[slot], iov));
}

/* `n` staged messages from `seq` on, `bytes` of records, as one BATCH whose header takes the first one's slot. */
static int sd_rdma_net_send_batch(struct doca_rdma_connection *c, uint64_t seq, uint32_t n, size_t bytes)
{
	struct sd_rdma_net_conn *nc = c->net;
	uint32_t slot = (uint32_t)(seq & (nc->window - 1));
	struct sd_rdma_net_hdr h = {.type = SD_RDMA_NET_BATCH, .conn_id = c->remote.conn_id, .seq = seq, .count = n};
	struct iovec records = {.iov_base = nc->rec_iov[slot].iov_base, .iov_len = bytes};

	sd_rdma_net_encode(&h, nc->win_hdr[slot]);
	return c->rdma->net->ops->send(nc->out, nc->win_hdr[slot], SD_RDMA_NET_HDR_LEN, &records, 1);
}

/*
 * Transmit the messages that wait, in order: runs of small ones as
 * batches, the others alone.  They wait for the peer's OK (UCX may deliver
 * a message sent while the endpoint was still being wired up ahead of the
 * hello queued before it, and the peer drops anything that comes on a link
 * before its hello), or for the end of the progress pass that submitted
 * them from a callback.  0, or the transport's errno.
 */
static int sd_rdma_net_transmit_waiting(struct doca_rdma_connection *c)
{
	struct sd_rdma_net_conn *nc = c->net;

	while (nc->unsent < nc->next_seq && !nc->ended) {
		uint64_t seq = nc->unsent;
		const struct sd_rdma_task *t = nc->win[seq & (nc->window - 1)];
		size_t bytes = 0;
		uint32_t n = t != NULL && t->net_seq == seq ? sd_rdma_net_run(nc, seq, &bytes) : 0;
		int err = 0;

		if (t == NULL || t->net_seq != seq) {
			nc->unsent++; /* flushed by a stop meanwhile */
			continue;
		}
		err = n >= 2 ? sd_rdma_net_send_batch(c, seq, n, bytes) : sd_rdma_net_send_one(c, seq);
		if (err != 0)
			return err;
		nc->unsent += n >= 2 ? n : 1;
	}
	return 0;
}

/* The pass ends: every connection's sends that waited for it leave. */
static void sd_rdma_net_transmit_all(struct doca_rdma *rdma)
{
	rdma->net->tx_pending = false;
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		struct sd_rdma_net_conn *nc = c->net;
		if (nc == NULL || !nc->bound || nc->ended || nc->doomed || nc->unsent == nc->next_seq)
			continue;
		if (sd_rdma_net_transmit_waiting(c) != 0)
			sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, false, false);
	}
}

/*
 * May this send wait for the end of the progress pass?  Only a small one
 * submitted from a callback of this PE: the program is inside
 * doca_pe_progress, whose event step sends it before the pass reports
 * anything more (a program that submits and then leaves its loop has
 * submitted outside a callback, and its send leaves at once).
 */
static bool sd_rdma_net_may_wait(const struct doca_rdma_connection *c, uint32_t slot)
{
	return c->net->rec_iov[slot].iov_len != 0 && sd_pe_dispatching(c->rdma->ctx.pe);
}

static uint32_t sd_rdma_net_rnr_ms(const struct doca_rdma *rdma)
{
	/* docs/rdma.md: 10 ms + 100 ms per retry, 7 meaning 2 s instead of a card's forever. */
	return rdma->rnr_retry == 7 ? SD_RDMA_NET_MAX_RNR_MS : 10u + 100u * rdma->rnr_retry;
}

void sd_rdma_net_send(struct sd_rdma_task *t, enum doca_rdma_opcode opcode)
{
	struct doca_rdma_connection *c = t->conn;
	struct sd_rdma_net_conn *nc = c->net;

	if (nc == NULL || !nc->ready || nc->ended) {
		sd_rdma_net_settle(t, DOCA_ERROR_NOT_CONNECTED);
		return;
	}
	if (nc->next_seq - nc->oldest >= nc->window) {
		sd_rdma_net_settle(t, DOCA_ERROR_FULL); /* more sends in flight than the send queue holds */
		return;
	}
	struct sd_rdma_net_hdr h = {
		.type = SD_RDMA_NET_MSG, .conn_id = c->remote.conn_id, .word = (uint32_t)opcode,
		.seq = nc->next_seq, .count = opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM ? t->filled_len : 0,
		.imm = opcode == DOCA_RDMA_OPCODE_RECV_SEND ? 0 : t->imm, .rnr_ms = sd_rdma_net_rnr_ms(c->rdma),
	};
	uint32_t slot = (uint32_t)(nc->next_seq & (nc->window - 1));

	t->opcode = opcode;
	sd_rdma_net_encode(&h, nc->win_hdr[slot]);
	sd_rdma_net_stage(nc, t, &h, slot);
	if (nc->oldest == nc->next_seq)
		nc->heard_ns = sd_mono_ns(); /* the peer's silence counts from the first message it owes */
	t->net_seq = nc->next_seq;
	nc->win[slot] = t;
	nc->next_seq++;
	if (!nc->bound)
		return; /* leaves with the peer's OK */
	if (sd_rdma_net_may_wait(c, slot)) {
		c->rdma->net->tx_pending = true;
		return;
	}
	if (sd_rdma_net_transmit_waiting(c) != 0)
		sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, false, false);
}

/* A peer that owes answers and has said nothing for the liveness bound is gone (a cut link). */
static void sd_rdma_net_watch(struct doca_rdma_connection *c, uint64_t now)
{
	struct sd_rdma_net_conn *nc = c->net;
	uint64_t bound = (uint64_t)c->rdma->net->ops->timeout_ms() * 1000000ull;

	if (nc->oldest == nc->next_seq || now - nc->heard_ns <= bound)
		return;
	SD_LOG_WARN("connection %u: the peer (pid %u) answered nothing for %llu ms; its sends fail with "
		    "DOCA_ERROR_NOT_CONNECTED",
		    c->id, c->remote.pid, (unsigned long long)(bound / 1000000ull));
	sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, true, false);
}

/*
 * Introduce the link to the peer's node.  Nothing waits for the answer: a
 * peer that only serves one-sided tasks may never progress, and messages
 * sent after the hello on the same link arrive after it.  A refusal ends the
 * connection's network side when it comes.
 */
static doca_error_t sd_rdma_net_hello(struct doca_rdma_connection *c, const char *func)
{
	struct sd_rdma_net_conn *nc = c->net;
	struct sd_rdma_net_hdr h = {.type = SD_RDMA_NET_HELLO, .conn_id = c->remote.conn_id, .word = nc->window,
				    .seq = nc->nonce, .count = c->id};

	memcpy(h.token, c->remote.token, sizeof(h.token));
	if (sd_rdma_net_send_ctl(c->rdma, nc->out, &h) != 0)
		return SD_REJECT_AS(func, DOCA_ERROR_CONNECTION_ABORTED,
				    "cannot introduce connection %u to the peer (pid %u) over UCX; export a new "
				    "connection on the peer",
				    c->id, c->remote.pid);
	nc->ready = true;
	return DOCA_SUCCESS;
}

doca_error_t sd_rdma_net_join(struct doca_rdma_connection *c, const struct sd_rdma_conn_ident *id, const char *func)
{
	struct doca_rdma *rdma = c->rdma;
	struct sd_rdma_net_conn *nc;

	if (id->msg_port == 0)
		return DOCA_SUCCESS; /* the peer takes no messages: sends are refused by rule R3n */
	if (sd_rdma_net_offer(rdma, func) == 0 || (nc = sd_rdma_net_conn_of(c)) == NULL)
		return DOCA_SUCCESS; /* logged: sends are refused by rule R3n */
	nc->window = sd_rdma_net_pow2(rdma->send_queue_size);
	nc->win = calloc(nc->window, sizeof(*nc->win));
	nc->win_hdr = calloc(nc->window, sizeof(*nc->win_hdr));
	nc->tx_ring = malloc(sd_rdma_net_tx_ring_len(nc->window));
	nc->rec_iov = calloc(nc->window, sizeof(*nc->rec_iov));
	nc->win_iov = calloc(nc->window, sizeof(*nc->win_iov));
	nc->nonce = ((uint64_t)c->self.token[0] << 32) ^ sd_mono_ns();
	if (nc->win == NULL || nc->win_hdr == NULL || nc->tx_ring == NULL || nc->rec_iov == NULL ||
	    nc->win_iov == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY, "cannot allocate the send window of connection %u",
				    c->id);
	c->remote = *id; /* the hello names the peer's connection */
	doca_error_t err = priv_doca_msgnet_connect(func, rdma->net->node, &id->at, id->msg_port, c, &nc->out);
	if (err == DOCA_SUCCESS)
		err = sd_rdma_net_hello(c, func);
	if (err != DOCA_SUCCESS && nc->out != NULL) {
		rdma->net->ops->link_close(rdma->net->node, nc->out);
		nc->out = NULL;
	}
	return err;
}

bool sd_rdma_net_offered(const struct doca_rdma_connection *c)
{
	return c->net != NULL && c->net->ready;
}

bool sd_rdma_net_ended(const struct doca_rdma_connection *c)
{
	return c->net != NULL && c->net->ended;
}

/* ---- the event step, stop and release ---- */

/*
 * Does this side wait for its peer: answers to our sends, or messages for
 * the receives we posted?  Then nothing but the peer's program (or the
 * kernel on its behalf) can make progress for us.
 */
static bool sd_rdma_net_waits_on_peer(const struct doca_rdma *rdma)
{
	for (const struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		const struct sd_rdma_net_conn *nc = c->net;
		if (nc == NULL || nc->ended || nc->doomed)
			continue;
		if (nc->ready && nc->oldest != nc->next_seq)
			return true; /* our sends wait for the peer's answer */
		if (nc->in != NULL && rdma->rq_head != NULL)
			return true; /* our posted receives wait for the peer's messages */
	}
	return false;
}

/*
 * A pass that found nothing while we wait on the peer gives the CPU away.
 * On a card the responder's NIC places a message and acknowledges it with
 * no CPU of the responder; here the responder's program does that work, so
 * a send's round trip needs both programs scheduled.  When the two share
 * cores with other busy threads, a waiter that spins keeps the CPU for its
 * whole time slice and the peer that would answer waits for the next one:
 * one round trip per slice (docs/rdma.md, benchmark).  Yielding costs one
 * system call per idle pass, only while waiting on the peer, never per
 * message, and returns at once when nothing else wants this core.
 */
static void sd_rdma_net_give_way(const struct doca_rdma *rdma)
{
	if (rdma->give_way && sd_rdma_net_waits_on_peer(rdma))
		(void)sched_yield();
}

bool sd_rdma_net_progress(struct doca_rdma *rdma)
{
	uint64_t now, before;
	unsigned events;

	if (rdma->net == NULL)
		return false;
	before = rdma->net->made_ready;
	if (rdma->net->tx_pending)
		sd_rdma_net_transmit_all(rdma);
	events = rdma->net->ops->progress(rdma->net->node);
	now = sd_mono_ns();
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		struct sd_rdma_net_conn *nc = c->net;
		if (nc == NULL || nc->ended)
			continue;
		if (nc->doomed) {
			sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, !nc->doomed_closed, nc->doomed_closed);
			continue;
		}
		if (sd_rdma_conn_ended(c)) {
			sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, true, true); /* disconnected on this side */
			continue;
		}
		if (nc->held_n != 0)
			sd_rdma_net_drain_held(rdma, c, now);
		/*
		 * One cumulative answer per pass, at its end: the outcomes of every
		 * message this pass took leave before the program hears of its
		 * receives, so a sender never waits for the receiver's next pass (a
		 * program may stop progressing once its receive completed; a card's
		 * acknowledgement does not wait for it either).
		 */
		sd_rdma_net_flush_answer(c);
		if (nc->ready)
			sd_rdma_net_watch(c, now);
	}
	if (events == 0 && rdma->net->made_ready == before)
		sd_rdma_net_give_way(rdma);
	return rdma->net->made_ready != before;
}

/* The context stops: the peer is told, unanswered sends are left to the flush (forgotten here). */
void sd_rdma_net_stopping(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		if (c->net == NULL)
			continue;
		if (c->net->win != NULL)
			memset(c->net->win, 0, c->net->window * sizeof(*c->net->win));
		c->net->oldest = c->net->next_seq;
		sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, true, true);
	}
}

void sd_rdma_net_conn_free(struct doca_rdma_connection *c)
{
	if (c->net == NULL)
		return;
	sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, false, false);
	free(c->net->win);
	free(c->net->win_hdr);
	free(c->net->tx_ring);
	free(c->net->rec_iov);
	free(c->net->win_iov);
	free(c->net->held);
	free(c->net);
	c->net = NULL;
}

void sd_rdma_net_release(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next)
		sd_rdma_net_conn_free(c);
	if (rdma->net != NULL) {
		rdma->net->ops->close(rdma->net->node);
		free(rdma->net);
		rdma->net = NULL;
	}
}

/* ---- the connection manager's ends ---- */

void sd_rdma_net_closing(struct doca_rdma_connection *c)
{
	if (c->net != NULL)
		sd_rdma_net_end(c, DOCA_ERROR_NOT_CONNECTED, true, true); /* our last answers go before the CLOSE */
}

void sd_rdma_net_peer_ending(struct doca_rdma *rdma)
{
	if (rdma->net != NULL)
		(void)rdma->net->ops->progress(rdma->net->node);
}

/* ---- event mode ---- */

static uint64_t sd_rdma_net_earlier(uint64_t a, uint64_t b)
{
	return a == 0 || (b != 0 && b < a) ? b : a;
}

/*
 * When this connection's network side must look again although nothing
 * arrives: a held message's RNR budget, the HOLD that keeps its sender
 * patient, the silence of a peer that owes answers (a cut link sends
 * nothing).  0: never.
 */
static uint64_t sd_rdma_net_conn_deadline(struct doca_rdma_connection *c, uint64_t bound)
{
	struct sd_rdma_net_conn *nc = c->net;
	uint64_t at = 0;

	if (nc->held_n != 0) {
		at = sd_rdma_net_held_at(nc, 0)->deadline_ns;
		at = sd_rdma_net_earlier(at, nc->hold_said_ns + SD_RDMA_NET_HOLD_EVERY_NS);
	}
	if (nc->ready && nc->oldest != nc->next_seq)
		at = sd_rdma_net_earlier(at, nc->heard_ns + bound);
	if (nc->run_count != 0)
		at = sd_rdma_net_earlier(at, nc->run_since_ns + SD_RDMA_NET_ANSWER_RETRY_NS); /* no copy was free */
	return at;
}

bool sd_rdma_net_arm(struct doca_rdma *rdma, int *fd, uint64_t *at)
{
	struct sd_rdma_net *net = rdma->net;
	uint64_t bound;

	*fd = -1;
	*at = 0;
	if (net == NULL)
		return false;
	if (net->tx_pending)
		sd_rdma_net_transmit_all(rdma); /* nothing may wait for a pass that the sleep postpones */
	bound = (uint64_t)net->ops->timeout_ms() * 1000000ull;
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		struct sd_rdma_net_conn *nc = c->net;
		if (nc == NULL || nc->ended)
			continue;
		if (nc->doomed || sd_rdma_conn_ended(c))
			return true; /* the event step ends it */
		sd_rdma_net_flush_answer(c); /* the sender sleeps too, perhaps: it must not wait for our next look */
		*at = sd_rdma_net_earlier(*at, sd_rdma_net_conn_deadline(c, bound));
	}
	*fd = net->ops->event_fd(net->node);
	int armed = *fd >= 0 ? net->ops->arm(net->node) : EIO;
	if (armed == EBUSY)
		return true;
	if (armed != 0) {
		/* UCX cannot wake us (logged when the descriptor was refused): look every millisecond instead. */
		*fd = -1;
		*at = sd_rdma_net_earlier(*at, sd_mono_ns() + SD_RDMA_NET_NO_EFD_LOOK_NS);
	}
	return false;
}
