/*
 * rdma_exec.c - running RDMA tasks.
 *
 * Every task type runs in the submitting call (the on_submit hook, on the
 * progress thread), in submission order, as a card's send queue would
 * process it: one-sided reads, writes and atomics reach the peer's memory
 * through the RDMA import of its export, with no help from the peer's
 * program; sends put a message into the peer connection's inbox ring (in
 * this process or another one: rdma_ring.h), which the peer's progress
 * engine matches with its posted receives (rdma_recv.c).
 * The completion is reported by doca_pe_progress: at once for one-sided
 * tasks, when the peer consumed the message (or the RNR budget ran out)
 * for sends.  Metadata (data lengths) changes only when a task is reported
 * as a success, so a flushed task leaves the buffers' descriptors as they
 * were.
 */
#include <sched.h>
#include <string.h>

#include "rdma_buf.h"
#include "rdma_priv.h"
#include "rdma_wake.h"
#include "sd_log.h"

#define T(task) ((struct sd_rdma_task *)(task))

static enum sd_rdma_type sd_rdma_type_of(const struct doca_task *task)
{
	return (enum sd_rdma_type)(task->conf - task->ctx->task_types);
}

/* The task's outcome is known now. */
static void sd_rdma_finish(struct sd_rdma_task *t, doca_error_t status)
{
	t->base.early_status = status;
	atomic_store_explicit(&t->base.ready, 1, memory_order_release);
}

/* Read the remote source into the local destination list. */
static doca_error_t sd_rdma_do_read(struct sd_rdma_task *t)
{
	struct sd_rdma_cursor c = {.b = t->dst, .off = 0};
	const struct doca_buf *src = t->src;
	uint64_t raddr = (uint64_t)(uintptr_t)src->data;
	uint64_t left = src->data_len;
	uint8_t *at;
	size_t n;

	while (left != 0 && (n = sd_rdma_cursor_span(&c, left, &at)) != 0) {
		doca_error_t err = src->mmap->remote->read(src->mmap, at, raddr, n);
		if (err != DOCA_SUCCESS)
			return err;
		raddr += n;
		left -= n;
	}
	t->filled_len = src->data_len;
	return DOCA_SUCCESS;
}

/* Write the local source list after the data of the remote destination. */
static doca_error_t sd_rdma_do_write(struct sd_rdma_task *t)
{
	struct doca_buf *dst = t->dst;
	uint64_t raddr = (uint64_t)(uintptr_t)(dst->data + dst->data_len);
	uint64_t total = 0;

	for (const struct doca_buf *e = t->src; e != NULL; e = e->next) {
		doca_error_t err = dst->mmap->remote->write(dst->mmap, raddr + total, e->data, e->data_len);
		if (err != DOCA_SUCCESS)
			return err;
		total += e->data_len;
	}
	t->filled_len = total;
	return DOCA_SUCCESS;
}

static doca_error_t sd_rdma_do_atomic(struct sd_rdma_task *t, int op)
{
	struct doca_mmap *m = t->dst->mmap;
	uint64_t old = 0;
	doca_error_t err;

	if (m->remote->atomic64 == NULL)
		err = DOCA_ERROR_NOT_SUPPORTED;
	else
		err = m->remote->atomic64(m, (uint64_t)(uintptr_t)t->dst->data, op, t->op1, t->op2, &old);
	if (err == DOCA_ERROR_NOT_SUPPORTED)
		SD_LOG_ERR_AS("doca_task_submit",
			      "task %p: the peer's memory is reached by process_vm or /proc/PID/mem copies here (another "
			      "process of this namespace, no shared mapping), which cannot be atomic; export memory from "
			      "a shared mapping (memfd or /dev/shm), or reach the peer over UCX (SOFTDOCA_XPROC_PATH=ucx)",
			      (void *)t);
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NOT_SUPPORTED ? DOCA_ERROR_IO_FAILED : err;
	uint8_t *at = t->result->data + t->result->data_len;
	memcpy(at, &old, sizeof(old));
	return DOCA_SUCCESS;
}

/* Fill a slot with the source list of a send (addresses of this process; the receiver pulls them). */
static bool sd_rdma_slot_segments(struct sd_rdma_slot *s, const struct doca_buf *src)
{
	uint32_t n = 0;

	for (const struct doca_buf *e = src; e != NULL; e = e->next, n++) {
		if (n == SD_RDMA_SLOT_SEGS)
			return false;
		s->seg[n].addr = (uint64_t)(uintptr_t)e->data;
		s->seg[n].len = e->data_len;
	}
	s->nseg = n;
	return true;
}

/* Hand a message (send, send with immediate, write with immediate) to the peer's inbox ring. */
static void sd_rdma_post_message(struct sd_rdma_task *t, enum doca_rdma_opcode opcode)
{
	struct sd_rdma_ring *ring = t->conn->outbox.ring;
	struct sd_rdma_slot *s = ring != NULL ? sd_rdma_ring_reserve(ring) : NULL;
	uint8_t retry = sd_rdma_of_task(&t->base)->rnr_retry;

	if (t->conn->remote_net) {
		sd_rdma_net_send(t, opcode); /* a peer elsewhere: a UCX active message (rdma_net.c) */
		return;
	}
	t->opcode = opcode;
	if (s == NULL) {
		sd_rdma_finish(t, ring == NULL ? DOCA_ERROR_NOT_CONNECTED : DOCA_ERROR_FULL);
		return;
	}
	s->opcode = (uint32_t)opcode;
	s->imm = t->imm;
	s->write_len = t->filled_len;
	s->nseg = 0;
	if (opcode != DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM && !sd_rdma_slot_segments(s, t->src)) {
		SD_LOG_ERR_AS("doca_task_submit",
			      "task %p: a send list crosses to the peer with at most %u elements; lower "
			      "doca_rdma_set_max_send_buf_list_len",
			      (void *)t, SD_RDMA_SLOT_SEGS);
		sd_rdma_finish(t, DOCA_ERROR_IO_FAILED);
		return;
	}
	/* RNR budget (docs/rdma.md): 10 ms + 100 ms per retry, 7 meaning 2 s instead of a card's forever. */
	t->deadline_ns = sd_mono_ns() + (retry == 7 ? 2000000000ull : 10000000ull + 100000000ull * retry);
	t->slot = s;
	sd_rdma_ring_publish(ring, s);
	struct doca_rdma_connection *peer = atomic_load_explicit(&t->conn->peer, memory_order_acquire);
	if (peer != NULL && peer->rdma->ctx.pe != NULL)
		priv_doca_pe_kick(peer->rdma->ctx.pe);
	else if (peer == NULL)
		sd_rdma_wake_peer(t->conn, &ring->owner_asleep); /* a receiver of another process, if it sleeps */
}

static void sd_rdma_on_submit(struct doca_task *task)
{
	struct sd_rdma_task *t = T(task);
	enum sd_rdma_type type = sd_rdma_type_of(task);
	doca_error_t err = task->conf->ops->validate(task);

	t->slot = NULL;
	if (err != DOCA_SUCCESS && type == SD_RDMA_RECEIVE) {
		sd_task_settle_waiting(task, err); /* a receive is of a waiting type: counted (sd_exec.h) */
		return;
	}
	if (err != DOCA_SUCCESS) {
		sd_rdma_finish(t, err);
		return;
	}
	switch (type) {
	case SD_RDMA_RECEIVE:
		atomic_store_explicit(&t->filled, false, memory_order_relaxed);
		sd_rdma_rq_post(sd_rdma_of_task(task), t);
		return; /* ready once a message fills it */
	case SD_RDMA_SEND:
	case SD_RDMA_SEND_IMM:
		sd_rdma_post_message(t, type == SD_RDMA_SEND ? DOCA_RDMA_OPCODE_RECV_SEND
							     : DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM);
		return;
	case SD_RDMA_WRITE_IMM:
		err = sd_rdma_do_write(t);
		if (err == DOCA_SUCCESS) {
			sd_rdma_post_message(t, DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM);
			return;
		}
		break;
	case SD_RDMA_READ:
		err = sd_rdma_do_read(t);
		break;
	case SD_RDMA_WRITE:
		err = sd_rdma_do_write(t);
		break;
	case SD_RDMA_CMP_SWP:
		err = sd_rdma_do_atomic(t, SD_MEM_ATOMIC_CAS);
		break;
	case SD_RDMA_FETCH_ADD:
		err = sd_rdma_do_atomic(t, SD_MEM_ATOMIC_ADD);
		break;
	default:
		err = sd_rdma_sync_event_apply(t, type);
		break;
	}
	sd_rdma_finish(t, err);
}

/* Sender side: take the message back if the receiver has not taken it yet. */
static bool sd_rdma_withdraw(struct sd_rdma_task *t)
{
	uint32_t expect = SD_RDMA_SLOT_PENDING;

	return atomic_compare_exchange_strong(&t->slot->state, &expect, SD_RDMA_SLOT_FREE);
}

/* The receiver's verdict, of which only two values are legitimate. */
static doca_error_t sd_rdma_take_verdict(struct sd_rdma_task *t)
{
	doca_error_t status = (doca_error_t)t->slot->status;

	atomic_store_explicit(&t->slot->state, SD_RDMA_SLOT_FREE, memory_order_release);
	return status == DOCA_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED;
}

/* Sender side: has the peer consumed the message, gone away, or is the RNR budget spent? */
static bool sd_rdma_poll_message(struct doca_task *task)
{
	struct sd_rdma_task *t = T(task);
	uint32_t state = atomic_load_explicit(&t->slot->state, memory_order_acquire);

	if (state == SD_RDMA_SLOT_DELIVERED) {
		task->early_status = sd_rdma_take_verdict(t);
		return true;
	}
	if (!sd_rdma_conn_watch(t->conn)) {
		/* A receiver that died while copying never answers: give the slot up as well. */
		if (sd_rdma_withdraw(t) || t->conn->remote.pid != t->conn->self.pid) {
			task->early_status = DOCA_ERROR_NOT_CONNECTED;
			return true;
		}
		return false;
	}
	if (state == SD_RDMA_SLOT_PENDING && sd_mono_ns() > t->deadline_ns && sd_rdma_withdraw(t)) {
		SD_LOG_ERR_AS("doca_pe_progress",
			      "task %p: the peer posted no receive task within the RNR retry budget of "
			      "connection %u; post receives before the peer sends, or raise "
			      "doca_rdma_set_rnr_retry_count",
			      (void *)t, t->conn->id);
		task->early_status = DOCA_ERROR_IO_FAILED;
		return true;
	}
	return false;
}

static bool sd_rdma_poll(struct doca_task *task)
{
	enum sd_rdma_type type = sd_rdma_type_of(task);

	if ((type == SD_RDMA_SEND || type == SD_RDMA_SEND_IMM || type == SD_RDMA_WRITE_IMM) && T(task)->slot != NULL)
		return sd_rdma_poll_message(task);
	return false; /* receives are marked ready by the matching on this thread */
}

/* The context stops: withdraw what the peer has not taken; wait for what it is copying. */
static void sd_rdma_cancel(struct doca_task *task)
{
	struct sd_rdma_task *t = T(task);
	enum sd_rdma_type type = sd_rdma_type_of(task);

	if (type == SD_RDMA_RECEIVE) {
		sd_rdma_rq_unlink(sd_rdma_of_task(task), t);
		return;
	}
	if (t->slot == NULL || sd_rdma_withdraw(t))
		return;
	/* A receiver of this process finishes its copy inside one call; one of another process may die in it. */
	uint64_t give_up = sd_mono_ns() + 1000000000ull;
	while (atomic_load_explicit(&t->slot->state, memory_order_acquire) == SD_RDMA_SLOT_TAKEN &&
	       (t->conn->remote.pid == t->conn->self.pid || sd_mono_ns() < give_up))
		sched_yield();
}

/* A success changes the destination's data length, on the progress thread. */
static void sd_rdma_complete(struct doca_task *task, doca_error_t status)
{
	struct sd_rdma_task *t = T(task);

	if (status != DOCA_SUCCESS)
		return;
	switch (sd_rdma_type_of(task)) {
	case SD_RDMA_RECEIVE:
		sd_rdma_list_grow(t->dst, t->filled_len); /* result_len was set by the match (a write's length) */
		break;
	case SD_RDMA_READ:
		sd_rdma_list_grow(t->dst, t->filled_len);
		t->result_len = (uint32_t)t->filled_len;
		break;
	case SD_RDMA_WRITE:
	case SD_RDMA_WRITE_IMM:
		t->dst->data_len += t->filled_len;
		break;
	case SD_RDMA_CMP_SWP:
	case SD_RDMA_FETCH_ADD:
	case SD_RDMA_SE_ADD:
		t->result->data_len += 8;
		break;
	case SD_RDMA_SE_GET:
		t->dst->data_len += 8;
		t->result_len = 8;
		break;
	default:
		break;
	}
}

/* Every RDMA callback type has the same shape: (task, task user data, context user data). */
static void sd_rdma_invoke(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud, void (*cb)(void))
{
	((void (*)(struct doca_task *, union doca_data, union doca_data))cb)(task, task_ud, ctx_ud);
}

#define SD_RDMA_OPS(tname, vfn, indep, pollfn)                                                              \
	{                                                                                                   \
		.name = tname, .task_size = sizeof(struct sd_rdma_task), .validate = vfn,                   \
		.on_submit = sd_rdma_on_submit, .complete = sd_rdma_complete, .cancel = sd_rdma_cancel,     \
		.poll = pollfn, .invoke = sd_rdma_invoke, .failure_is_fatal = false,                        \
		.independent = indep,                                                                       \
	}

/*
 * A receive is made ready by the matching on this thread, never by polling: no poll hook, and each
 * settle is counted (sd_task_settle_waiting), so the PE passes a context whose queued tasks are all
 * waiting receives at its first one instead of visiting each.
 */
const struct sd_task_ops sd_rdma_task_ops[SD_RDMA_NUM_TYPES] = {
	[SD_RDMA_RECEIVE] = SD_RDMA_OPS("receive", sd_rdma_validate_receive, true, NULL),
	[SD_RDMA_SEND] = SD_RDMA_OPS("send", sd_rdma_validate_send, false, sd_rdma_poll),
	[SD_RDMA_SEND_IMM] = SD_RDMA_OPS("send with immediate", sd_rdma_validate_send, false, sd_rdma_poll),
	[SD_RDMA_READ] = SD_RDMA_OPS("read", sd_rdma_validate_read, false, sd_rdma_poll),
	[SD_RDMA_WRITE] = SD_RDMA_OPS("write", sd_rdma_validate_write, false, sd_rdma_poll),
	[SD_RDMA_WRITE_IMM] = SD_RDMA_OPS("write with immediate", sd_rdma_validate_write_imm, false, sd_rdma_poll),
	[SD_RDMA_CMP_SWP] = SD_RDMA_OPS("atomic compare-and-swap", sd_rdma_validate_atomic, false, sd_rdma_poll),
	[SD_RDMA_FETCH_ADD] = SD_RDMA_OPS("atomic fetch-and-add", sd_rdma_validate_atomic, false, sd_rdma_poll),
	[SD_RDMA_SE_GET] = SD_RDMA_OPS("remote-net sync event get", sd_rdma_validate_sync_event, false, sd_rdma_poll),
	[SD_RDMA_SE_SET] = SD_RDMA_OPS("remote-net sync event notify-set", sd_rdma_validate_sync_event, false, sd_rdma_poll),
	[SD_RDMA_SE_ADD] = SD_RDMA_OPS("remote-net sync event notify-add", sd_rdma_validate_sync_event, false, sd_rdma_poll),
};
