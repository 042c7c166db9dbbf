/*
 * comch_producer_send.c - the producer's send task.
 *
 * Submitting asks first whether the consumer can take the message (admit
 * hook): the consumer must be announced on this connection and still open,
 * and the oldest buffer it posted is claimed; with none posted the submit
 * answers DOCA_ERROR_AGAIN and the task stays with the application, which
 * submits it again later (as the DOCA samples do).  Once admitted, the
 * bytes are written through the import of the consumer's mmap straight
 * into the claimed buffer, the slot is marked filled, and the task is
 * reported by the next progress call.  Nothing here allocates or locks.
 * A framed consumer (Comch over TCP) is told by a FILLED frame instead of
 * a shared slot; a consumer on this machine whose PE sleeps on its handle
 * gets a WAKE frame.
 */
#include <string.h>

#include "comch_fp_priv.h"
#include "sd_log.h"
#include "sd_mem.h"

static struct doca_comch_producer *sd_fp_send_owner(const struct doca_comch_producer_task_send *t)
{
	return (struct doca_comch_producer *)t->base.ctx;
}

/* A live buffer of a started local mmap, within the size limit. */
static bool sd_fp_send_buf_ok(const struct doca_buf *buf)
{
	return buf != NULL && sd_buf_is_live(buf) && !buf->mmap->from_export &&
	       buf->mmap->state == SD_MMAP_STARTED && buf->data_len <= SD_FP_MAX_BUF;
}

doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer, const struct doca_buf *buf,
						      uint8_t *imm_data, uint32_t imm_data_len, uint32_t consumer_id,
						      struct doca_comch_producer_task_send **task)
{
	struct doca_comch_producer_task_send *t;
	struct doca_task *base;
	union doca_data none = {.u64 = 0};
	doca_error_t err;

	if (!sd_fp_producer_valid(producer) || task == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL or invalid (producer %p)",
				 task == NULL ? "task" : "producer", (void *)producer);
	if (!sd_fp_send_buf_ok(buf))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "buf %p is NULL, freed, not of a started local mmap, or carries more than %u bytes "
				 "(producer %p)",
				 (const void *)buf, SD_FP_MAX_BUF, (void *)producer);
	if (imm_data_len > SD_FP_MAX_IMM || (imm_data_len != 0 && imm_data == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "immediate data of %u bytes at %p is refused: at most %u bytes, and a pointer when "
				 "the length is not 0 (producer %p)",
				 imm_data_len, (void *)imm_data, SD_FP_MAX_IMM, (void *)producer);
	err = priv_doca_task_alloc(&producer->ctx, 0, none, &base, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	t = (struct doca_comch_producer_task_send *)base;
	t->buf = buf;
	t->consumer_id = consumer_id;
	t->imm_len = imm_data_len;
	if (imm_data_len != 0)
		memcpy(t->imm, imm_data, imm_data_len);
	t->rc = NULL;
	t->slot = NULL;
	*task = t;
	return DOCA_SUCCESS;
}

static bool sd_fp_send_task_ok(const struct doca_comch_producer_task_send *task, const char *func)
{
	if (sd_task_is_task((const struct doca_task *)task) && task->base.conf->ops == &sd_fp_send_ops)
		return true;
	SD_LOG_ERR_AS(func, "task %p is NULL or not a Comch producer send task", (const void *)task);
	return false;
}

const struct doca_buf *doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task)
{
	return sd_fp_send_task_ok(task, __func__) ? task->buf : NULL;
}

void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task, const struct doca_buf *buf)
{
	if (!sd_fp_send_task_ok(task, __func__))
		return;
	if (!sd_fp_send_buf_ok(buf)) {
		SD_LOG_ERR("buf %p is not a live buffer of a started local mmap; task %p keeps its buffer",
			   (const void *)buf, (void *)task);
		return;
	}
	task->buf = buf;
}

uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task)
{
	return sd_fp_send_task_ok(task, __func__) ? task->consumer_id : 0;
}

void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
						   const uint32_t consumer_id)
{
	if (sd_fp_send_task_ok(task, __func__))
		task->consumer_id = consumer_id;
}

uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task)
{
	if (!sd_fp_send_task_ok(task, __func__) || task->imm_len == 0)
		return NULL;
	return (uint8_t *)task->imm;
}

uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task)
{
	return sd_fp_send_task_ok(task, __func__) ? task->imm_len : 0;
}

void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task, uint8_t *imm_data,
						uint32_t imm_data_len)
{
	if (!sd_fp_send_task_ok(task, __func__))
		return;
	if (imm_data_len > SD_FP_MAX_IMM || (imm_data_len != 0 && imm_data == NULL)) {
		SD_LOG_ERR("immediate data of %u bytes at %p is refused (at most %u bytes); task %p keeps its own",
			   imm_data_len, (void *)imm_data, SD_FP_MAX_IMM, (void *)task);
		return;
	}
	task->imm_len = imm_data_len;
	if (imm_data_len != 0)
		memcpy(task->imm, imm_data, imm_data_len);
}

struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task)
{
	return sd_fp_send_task_ok(task, __func__) ? &task->base : NULL;
}

/* ---- task type hooks ---- */

/*
 * A broken rule: inside doca_task_try_submit the validate hook reports it
 * through the framework; a refusal by the admit hook is the result of
 * doca_task_submit and is logged here, once.
 */
#define SD_FP_RULE(direct, code, ...) \
	((direct) ? (SD_LOG_ERR_AS("doca_task_submit", __VA_ARGS__), (code)) : SD_TASK_RULE_FAIL(code, __VA_ARGS__))

/* The consumer the task names, or the rule it breaks (logged). */
static doca_error_t sd_fp_send_target(struct doca_comch_producer_task_send *t, struct sd_fp_remote **rc, bool direct)
{
	struct doca_comch_producer *p = sd_fp_send_owner(t);

	if (!sd_fp_conn_current(p->conn, p->conn_gen))
		return SD_FP_RULE(direct, DOCA_ERROR_NOT_CONNECTED,
					 "send task %p: the connection %p of producer %p is closed; nothing can be "
					 "sent on it any more",
					 (void *)t, (void *)p->conn, (void *)p);
	if (!sd_fp_send_buf_ok(t->buf))
		return SD_FP_RULE(direct, DOCA_ERROR_INVALID_VALUE,
					 "send task %p: buffer %p is not a live buffer of a started local mmap",
					 (void *)t, (const void *)t->buf);
	*rc = sd_fp_remote_find(p->ep, p->conn, t->consumer_id);
	if (*rc == NULL)
		return SD_FP_RULE(direct, DOCA_ERROR_NOT_FOUND,
					 "send task %p: no consumer %u is announced on connection %p (never "
					 "announced, or it expired); send to an id the new-consumer callback gave",
					 (void *)t, t->consumer_id, (void *)p->conn);
	if (t->imm_len > (*rc)->imm_len)
		return SD_FP_RULE(direct, DOCA_ERROR_INVALID_VALUE,
					 "send task %p: %u bytes of immediate data, consumer %u accepts %u; shorten "
					 "it or raise doca_comch_consumer_set_imm_data_len",
					 (void *)t, t->imm_len, t->consumer_id, (*rc)->imm_len);
	return DOCA_SUCCESS;
}

static doca_error_t sd_fp_send_validate(struct doca_task *task)
{
	struct sd_fp_remote *rc;

	return sd_fp_send_target((struct doca_comch_producer_task_send *)task, &rc, false);
}

static doca_error_t sd_fp_send_admit(struct doca_task *task)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)task;
	struct doca_comch_producer *p = sd_fp_send_owner(t);
	struct sd_fp_remote *rc;
	uint64_t room = 0;
	doca_error_t err = sd_fp_send_target(t, &rc, true);

	if (err != DOCA_SUCCESS)
		return err;
	if (rc->framed && p->conn->out_task != NULL)
		return DOCA_ERROR_AGAIN; /* a message's frame is half written; the FILLED frame could not follow */
	err = sd_fp_queue_claim(rc->q, rc->nslots, t->buf->data_len, &t->slot, &room);
	/* Framed: posts that arrived but were not read yet, when only this producer's PE is progressed. */
	for (int i = 0; i < SD_FP_READ_AHEAD && err == DOCA_ERROR_AGAIN && rc->framed &&
			sd_comch_fp_read_ahead(p->ep, p->conn);
	     i++)
		err = sd_fp_queue_claim(rc->q, rc->nslots, t->buf->data_len, &t->slot, &room);
	if (err == DOCA_ERROR_INVALID_VALUE)
		return SD_FP_RULE(true, err,
					 "send task %p: %zu bytes do not fit the %llu-byte buffer consumer %u posted "
					 "next; post larger buffers or send less",
					 (void *)t, t->buf->data_len, (unsigned long long)room, t->consumer_id);
	if (err == DOCA_ERROR_NOT_FOUND)
		return SD_FP_RULE(true, err, "send task %p: consumer %u stopped; it takes no more messages",
					 (void *)t, t->consumer_id);
	t->rc = rc;
	return err; /* DOCA_ERROR_AGAIN: nothing posted yet, submit again later */
}

/*
 * Framed consumer: tell it which of its slots now holds the message; the
 * send's outcome.  The mirror's slot is marked filled before the frame
 * leaves: the consumer may post the slot again as soon as it reads the
 * frame, and that post may be applied here (by another thread, or by the
 * read-ahead of a wait for room) before the frame send returns.
 */
static doca_error_t sd_fp_send_tell_filled(struct doca_comch_producer_task_send *t, struct sd_fp_slot *s,
					   uint32_t slot, doca_error_t copied)
{
	struct doca_comch_producer *p = sd_fp_send_owner(t);
	struct sd_wire_fp_filled f = {
		.slot = slot, .producer_id = s->producer_id, .len = s->len, .imm_len = s->imm_len};

	memcpy(f.imm, s->imm, s->imm_len);
	atomic_store_explicit(&s->state, SD_FP_SLOT_FILLED, memory_order_release);
	if (sd_fp_frame_send_must(p->ep, p->conn, SD_FP_OP_FILLED, t->consumer_id, &f, sizeof(f)) == SD_COMCH_SENT)
		return copied;
	/* Without the frame the consumer never learns of the message: the link is ended or gone. */
	SD_LOG_ERR_AS("doca_task_submit",
		      "send task %p: consumer %u cannot be told of the message, connection %p is gone or "
		      "stopped reading; the send fails",
		      (void *)t, t->consumer_id, (void *)p->conn);
	return DOCA_ERROR_NOT_CONNECTED;
}

/*
 * One machine: the consumer's PE sleeps on its handle and asked to be woken
 * (best effort): through its wake pipe when it named one, which reaches a
 * consumer on a PE of its own, else by a WAKE frame.
 */
static void sd_fp_send_wake(struct doca_comch_producer_task_send *t)
{
	struct doca_comch_producer *p = sd_fp_send_owner(t);
	struct sd_fp_queue *q = t->rc->q;
	uint32_t word;

	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&q->wake_wanted, memory_order_relaxed) == 0 ||
	    (word = atomic_exchange_explicit(&q->wake_wanted, 0, memory_order_seq_cst)) == 0)
		return;
	if (word >= 2 && sd_fp_wake_poke(t->rc->pid, word))
		return;
	(void)sd_fp_frame_send(p->ep, p->conn, SD_FP_OP_WAKE, t->consumer_id, NULL, 0);
}

static void sd_fp_send_on_submit(struct doca_task *task)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)task;
	struct sd_fp_slot *s = t->slot;
	struct doca_mmap *im = t->rc->im;
	size_t len = t->buf->data_len;
	doca_error_t err = DOCA_SUCCESS;

	if (len != 0)
		err = im->remote->write(im, s->raddr, t->buf->data, len);
	s->producer_id = sd_fp_send_owner(t)->id;
	s->imm_len = t->imm_len;
	memcpy(s->imm, t->imm, t->imm_len);
	s->len = err == DOCA_SUCCESS ? len : SD_FP_LEN_FAILED; /* the consumer's receive fails */
	if (t->rc->framed) {
		err = sd_fp_send_tell_filled(t, s, (uint32_t)(s - sd_fp_queue_slots(t->rc->q)), err);
	} else {
		atomic_store_explicit(&s->state, SD_FP_SLOT_FILLED, memory_order_release);
		sd_fp_send_wake(t);
	}
	t->slot = NULL;
	task->early_status = err;
	atomic_store_explicit(&task->ready, 1, memory_order_release);
}

static void sd_fp_send_cancel(struct doca_task *task)
{
	atomic_store_explicit(&task->ready, 1, memory_order_release); /* sends finish inside the submit */
}

static doca_error_t sd_fp_send_execute(struct doca_task *task)
{
	return task->early_status;
}

static void sd_fp_send_invoke(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud, void (*cb)(void))
{
	((doca_comch_producer_task_send_completion_cb_t)cb)((struct doca_comch_producer_task_send *)task, task_ud,
							    ctx_ud);
}

const struct sd_task_ops sd_fp_send_ops = {
	.name = "producer_send",
	.task_size = sizeof(struct doca_comch_producer_task_send),
	.validate = sd_fp_send_validate,
	.execute = sd_fp_send_execute,
	.on_submit = sd_fp_send_on_submit,
	.admit = sd_fp_send_admit,
	.cancel = sd_fp_send_cancel,
	.invoke = sd_fp_send_invoke,
	.outcome_survives_stop = true,
	.failure_is_fatal = false,
};
