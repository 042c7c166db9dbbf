/*
 * comch_send.c - the send task.
 *
 * alloc_init copies the message into the task's own slot (allocated at
 * start, one per task), so the application may reuse its buffer at once.
 * doca_task_submit hands the task to on_submit below, which writes the
 * frame to the connection's socket right away, as hardware posts a send at
 * once: a message sent just before a local stop still reaches the peer.
 * The outcome is recorded as the task's early status and reported by the
 * task step of a later doca_pe_progress call, before any event, so a send
 * completes before the reply to it is delivered; a stop that comes after
 * the frame left does not turn that outcome into a flush.
 *
 * A socket without room (the peer is not reading) parks the task on the
 * endpoint's pending list; the event step retries it.  Failures are never
 * fatal to the context: a lost peer fails the task with
 * DOCA_ERROR_NOT_CONNECTED, a stop flushes it with DOCA_ERROR_SHUTDOWN.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "comch_priv.h"
#include "sd_log.h"
#include "sd_valgrind.h"

/* ---- configuration and allocation ---- */

doca_error_t sd_comch_send_set_conf(struct sd_comch_ep *ep, doca_comch_task_send_completion_cb_t ok_cb,
				    doca_comch_task_send_completion_cb_t err_cb, uint32_t num, const char *func)
{
	uint32_t cap = ep->node->caps.comch_max_send_tasks;
	doca_error_t err = sd_comch_ep_check_idle(ep, "send tasks", func);

	if (err != DOCA_SUCCESS)
		return err;
	if (ok_cb == NULL || err_cb == NULL) {
		SD_LOG_ERR_AS(func, "%s callback is NULL (%s %p)", ok_cb == NULL ? "completion" : "error",
			      ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (num == 0 || num > cap) {
		SD_LOG_ERR_AS(func, "num_send_tasks %u is out of range, device %s allows 1 to %u (%s %p)", num,
			      ep->node->pci_addr, cap, ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	priv_doca_ctx_conf_task_type(&ep->ctx, SD_COMCH_SEND_TYPE, (void (*)(void))ok_cb, (void (*)(void))err_cb, num);
	return DOCA_SUCCESS;
}

/* Log and refuse a peer that `ep` cannot send `len` bytes to; DOCA_SUCCESS if it can. */
static doca_error_t sd_comch_check_peer(const struct sd_comch_ep *ep, const struct doca_comch_connection *peer,
					uint32_t len, const char *func)
{
	if (!sd_comch_conn_valid(peer) || peer->ep != ep) {
		SD_LOG_ERR_AS(func, "peer %p is not a connection of this endpoint (%s %p)", (const void *)peer,
			      ep->ctx.ops->type_name, (const void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (peer->app != SD_APP_LIVE) {
		SD_LOG_ERR_AS(func, "connection %p is not connected (%s %p)", (const void *)peer,
			      ep->ctx.ops->type_name, (const void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len > peer->eff_max) {
		SD_LOG_ERR_AS(func, "message of %u bytes is too long, connection %p carries at most %u (%s %p)", len,
			      (const void *)peer, peer->eff_max, ep->ctx.ops->type_name, (const void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t sd_comch_send_alloc(struct sd_comch_ep *ep, struct doca_comch_connection *peer, const void *msg,
				 uint32_t len, struct doca_comch_task_send **task, const char *func)
{
	const struct sd_task_conf *conf = &ep->ctx.task_types[SD_COMCH_SEND_TYPE];
	struct doca_comch_task_send *t;
	struct doca_task *base;
	union doca_data none = {.u64 = 0};
	doca_error_t err;
	size_t slot;

	if (task == NULL || peer == NULL || msg == NULL || len == 0) {
		SD_LOG_ERR_AS(func, "%s (%s %p)",
			      task == NULL ? "output pointer task is NULL"
			      : peer == NULL ? "peer is NULL"
			      : msg == NULL ? "msg is NULL"
					    : "len is 0, a message carries at least one byte",
			      ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ep->ctx.state != DOCA_CTX_STATE_RUNNING) {
		SD_LOG_ERR_AS(func, "context is %s, send tasks can be allocated only while RUNNING (%s %p)",
			      sd_ctx_state_name(ep->ctx.state), ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_BAD_STATE;
	}
	if (!conf->configured) {
		SD_LOG_ERR_AS(func, "send tasks were not configured before the context started (%s %p)",
			      ep->ctx.ops->type_name, (void *)ep);
		return DOCA_ERROR_BAD_STATE;
	}
	err = sd_comch_check_peer(ep, peer, len, func);
	if (err != DOCA_SUCCESS)
		return err;
	err = priv_doca_task_alloc(&ep->ctx, SD_COMCH_SEND_TYPE, none, &base, func);
	if (err != DOCA_SUCCESS)
		return err;
	t = (struct doca_comch_task_send *)base;
	slot = (size_t)((uint8_t *)base - conf->pool.slab) / conf->pool.stride;
	t->buf = ep->send_bufs + slot * ep->max_msg;
	t->conn = peer;
	t->gen = peer->gen;
	t->len = len;
	t->pend_next = NULL;
	memcpy(t->buf, msg, len);
	*task = t;
	return DOCA_SUCCESS;
}

struct doca_task *doca_comch_task_send_as_task(struct doca_comch_task_send *task)
{
	if (!sd_task_is_task((const struct doca_task *)task) || task->base.conf->ops != &sd_comch_send_ops) {
		SD_LOG_ERR("task %p is NULL or not a Comch send task", (void *)task);
		return NULL;
	}
	return &task->base;
}

/* ---- writing ---- */

static void sd_comch_send_finish(struct doca_comch_task_send *t, doca_error_t status)
{
	t->base.early_status = status;
	atomic_store_explicit(&t->base.ready, 1, memory_order_release);
}

static bool sd_comch_link_current(const struct doca_comch_task_send *t)
{
	return t->conn->gen == t->gen && t->conn->app == SD_APP_LIVE;
}

static void sd_comch_count_sent(struct doca_comch_task_send *t)
{
	t->conn->count[DOCA_COMCH_COUNTER_SENT_MESSAGES - 1]++;
	t->conn->count[DOCA_COMCH_COUNTER_SENT_BYTES - 1] += t->len;
}

/* One write attempt: SUCCESS, AGAIN (no room yet) or NOT_CONNECTED. */
static doca_error_t sd_comch_write_locked(struct doca_comch_task_send *t)
{
	uint32_t kind = SD_WIRE_DATA;
	struct iovec iov[2] = {{.iov_base = &kind, .iov_len = sizeof(kind)}, {.iov_base = t->buf, .iov_len = t->len}};
	struct msghdr mh;
	ssize_t n;

	if (!sd_comch_link_current(t))
		return DOCA_ERROR_NOT_CONNECTED;
	if (t->conn->ep->io.tcp) {
		doca_error_t status = sd_comch_tcp_write(t);

		if (status == DOCA_SUCCESS)
			sd_comch_count_sent(t);
		return status;
	}
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	do {
		/* The payload is the program's, carried as a card would: unchecked by valgrind (sd_valgrind.h). */
		SD_VG_UNCHECKED(n = sendmsg(t->conn->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL));
	} while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS))
		return DOCA_ERROR_AGAIN;
	if (n != (ssize_t)(sizeof(kind) + t->len))
		return DOCA_ERROR_NOT_CONNECTED;
	sd_comch_count_sent(t);
	return DOCA_SUCCESS;
}

static doca_error_t sd_comch_write(struct doca_comch_task_send *t)
{
	struct sd_comch_ep *ep = t->conn->ep;
	doca_error_t status;

	pthread_mutex_lock(&ep->tx_lock);
	status = sd_comch_write_locked(t);
	pthread_mutex_unlock(&ep->tx_lock);
	return status;
}

static void sd_comch_park(struct sd_comch_ep *ep, struct doca_comch_task_send *t)
{
	t->pend_next = NULL;
	if (ep->pend_tail != NULL)
		ep->pend_tail->pend_next = t;
	else
		ep->pend_head = t;
	ep->pend_tail = t;
	atomic_store(&ep->io.want_out, true);
}

/*
 * Retry parked sends in order.  A connection whose socket is still full
 * keeps its later sends parked (per-connection order); other connections
 * go ahead.  Returns true when some task got its outcome.
 */
bool sd_comch_flush_pending(struct sd_comch_ep *ep)
{
	struct doca_comch_task_send **link = &ep->pend_head;
	struct doca_comch_task_send *last = NULL;
	bool progressed = false;

	for (struct doca_comch_task_send *t = ep->pend_head; t != NULL; t = t->pend_next)
		t->conn->out_blocked = false;
	while (*link != NULL) {
		struct doca_comch_task_send *t = *link;
		doca_error_t status = t->conn->out_blocked ? DOCA_ERROR_AGAIN : sd_comch_write(t);

		if (status == DOCA_ERROR_AGAIN) {
			t->conn->out_blocked = true;
			last = t;
			link = &t->pend_next;
			continue;
		}
		*link = t->pend_next;
		sd_comch_send_finish(t, status);
		progressed = true;
	}
	ep->pend_tail = last;
	if (ep->pend_head == NULL)
		atomic_store(&ep->io.want_out, false);
	return progressed;
}

/* Give every parked send of `conn` (NULL: of every connection) its final status. */
void sd_comch_fail_pending(struct sd_comch_ep *ep, struct doca_comch_connection *conn, doca_error_t status)
{
	struct doca_comch_task_send **link = &ep->pend_head;
	struct doca_comch_task_send *last = NULL;

	while (*link != NULL) {
		struct doca_comch_task_send *t = *link;

		if (conn != NULL && t->conn != conn) {
			last = t;
			link = &t->pend_next;
			continue;
		}
		*link = t->pend_next;
		sd_comch_send_finish(t, status);
	}
	ep->pend_tail = last;
	if (ep->pend_head == NULL)
		atomic_store(&ep->io.want_out, false);
}

/* ---- task type hooks ---- */

static void sd_comch_send_on_submit(struct doca_task *task)
{
	struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;
	struct sd_comch_ep *ep = sd_comch_ep_of_ctx(task->ctx);
	doca_error_t status;

	/* Behind parked sends, to keep each connection's order. */
	if (ep->pend_head != NULL && sd_comch_link_current(t)) {
		sd_comch_park(ep, t);
		(void)sd_comch_flush_pending(ep);
		return;
	}
	status = sd_comch_write(t);
	if (status == DOCA_ERROR_AGAIN)
		sd_comch_park(ep, t);
	else
		sd_comch_send_finish(t, status);
}

/* doca_task_try_submit: the one rule a send can break after allocation. */
static doca_error_t sd_comch_send_validate(struct doca_task *task)
{
	struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;

	if (!sd_comch_link_current(t))
		return SD_TASK_RULE_FAIL(DOCA_ERROR_NOT_CONNECTED, "connection %p of send task %p is no longer connected",
					 (void *)t->conn, (void *)t);
	return DOCA_SUCCESS;
}

/* Unused while on_submit is set (the outcome is the early status). */
static doca_error_t sd_comch_send_execute(struct doca_task *task)
{
	return task->early_status;
}

static void sd_comch_send_invoke(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud,
				 void (*cb)(void))
{
	((doca_comch_task_send_completion_cb_t)cb)((struct doca_comch_task_send *)task, task_ud, ctx_ud);
}

const struct sd_task_ops sd_comch_send_ops = {
	.name = "send",
	.task_size = sizeof(struct doca_comch_task_send),
	.validate = sd_comch_send_validate,
	.execute = sd_comch_send_execute,
	.on_submit = sd_comch_send_on_submit,
	.invoke = sd_comch_send_invoke,
	.outcome_survives_stop = true,
	.failure_is_fatal = false,
};
