/*
 * comch_consumer_recv.c - the consumer's post-receive task.
 *
 * Submitting lends the buffer: its slot of the post queue (the task's pool
 * index) gets the buffer's address and room and joins the ring.  The task
 * stays in flight until a producer marks the slot filled; the progress
 * engine asks (poll hook) in submission order, so receives complete in the
 * order they were posted.  A connection that ended fails the waiting
 * receives with DOCA_ERROR_NOT_CONNECTED, which stops the consumer, as a
 * card reports a consumer whose channel went away.
 */
#include <string.h>

#include "comch_fp_priv.h"
#include "sd_log.h"
#include "sd_mem.h"

static struct doca_comch_consumer *sd_fp_recv_owner(const struct doca_comch_consumer_task_post_recv *t)
{
	return (struct doca_comch_consumer *)t->base.ctx;
}

/* `buf` is a live buffer of the consumer's mmap with room for at least a byte. */
static bool sd_fp_recv_buf_ok(const struct doca_comch_consumer *c, const struct doca_buf *buf)
{
	return buf != NULL && sd_buf_is_live(buf) && buf->mmap == c->mmap && buf->data < buf->head + buf->len;
}

doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer, struct doca_buf *buf,
							   struct doca_comch_consumer_task_post_recv **task)
{
	struct doca_task *base;
	union doca_data none = {.u64 = 0};
	doca_error_t err;

	if (!sd_fp_consumer_valid(consumer) || task == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL or invalid (consumer %p)",
				 task == NULL ? "task" : "consumer", (void *)consumer);
	if (!sd_fp_recv_buf_ok(consumer, buf))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "buf %p is NULL, freed, outside the consumer's mmap %p, or has no room after its data; "
				 "post buffers of the mmap given to doca_comch_consumer_create (consumer %p)",
				 (void *)buf, (void *)consumer->mmap, (void *)consumer);
	err = priv_doca_task_alloc(&consumer->ctx, 0, none, &base, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	*task = (struct doca_comch_consumer_task_post_recv *)base;
	(*task)->buf = buf;
	(*task)->producer_id = 0;
	(*task)->imm_len = 0;
	return DOCA_SUCCESS;
}

static bool sd_fp_recv_task_ok(const struct doca_comch_consumer_task_post_recv *task, const char *func)
{
	if (sd_task_is_task((const struct doca_task *)task) && task->base.conf->ops == &sd_fp_post_recv_ops)
		return true;
	SD_LOG_ERR_AS(func, "task %p is NULL or not a Comch post-receive task", (const void *)task);
	return false;
}

struct doca_buf *doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task)
{
	return sd_fp_recv_task_ok(task, __func__) ? task->buf : NULL;
}

void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task, struct doca_buf *buf)
{
	if (!sd_fp_recv_task_ok(task, __func__))
		return;
	if (!sd_fp_recv_buf_ok(sd_fp_recv_owner(task), buf)) {
		SD_LOG_ERR("buf %p is not a live buffer of the consumer's mmap; task %p keeps its buffer",
			   (void *)buf, (void *)task);
		return;
	}
	task->buf = buf;
}

uint32_t doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task)
{
	return sd_fp_recv_task_ok(task, __func__) ? task->producer_id : 0;
}

const uint8_t *doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task)
{
	if (!sd_fp_recv_task_ok(task, __func__) || task->imm_len == 0)
		return NULL;
	return task->imm;
}

uint32_t doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task)
{
	return sd_fp_recv_task_ok(task, __func__) ? task->imm_len : 0;
}

struct doca_task *doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task)
{
	return sd_fp_recv_task_ok(task, __func__) ? &task->base : NULL;
}

/* ---- task type hooks ---- */

static doca_error_t sd_fp_recv_validate(struct doca_task *task)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	struct doca_comch_consumer *c = sd_fp_recv_owner(t);

	if (!sd_fp_recv_buf_ok(c, t->buf))
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "post-receive task %p: buffer %p is not a live buffer of the consumer's mmap "
					 "with room; set one with doca_comch_consumer_task_post_recv_set_buf",
					 (void *)t, (void *)t->buf);
	return DOCA_SUCCESS;
}

static void sd_fp_recv_on_submit(struct doca_task *task)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	struct doca_comch_consumer *c = sd_fp_recv_owner(t);
	struct doca_buf *b = t->buf;

	t->producer_id = 0;
	t->imm_len = 0;
	sd_fp_queue_post(c->q, task->slot, (uint64_t)(uintptr_t)b->data, (uint64_t)(b->head + b->len - b->data));
	if (c->framed)
		sd_fp_posts_flush(c);
}

static bool sd_fp_recv_poll(struct doca_task *task)
{
	struct doca_comch_consumer *c = (struct doca_comch_consumer *)task->ctx;
	struct sd_fp_slot *s = &sd_fp_queue_slots(c->q)[task->slot];

	if (c->framed && c->posts_sent != atomic_load_explicit(&c->q->post_tail, memory_order_relaxed))
		sd_fp_posts_flush(c); /* posts the link could not take at submit */
	/* Framed: fills that arrived but were not read yet, when only this consumer's PE is progressed. */
	for (int i = 0; i < SD_FP_READ_AHEAD && c->framed &&
			atomic_load_explicit(&s->state, memory_order_acquire) != SD_FP_SLOT_FILLED &&
			sd_comch_fp_read_ahead(c->ep, c->conn);
	     i++)
		;
	if (atomic_load_explicit(&s->state, memory_order_acquire) == SD_FP_SLOT_FILLED) {
		task->early_status = s->len == SD_FP_LEN_FAILED ? DOCA_ERROR_IO_FAILED : DOCA_SUCCESS;
		return true;
	}
	if (!sd_fp_conn_current(c->conn, c->conn_gen)) {
		task->early_status = SD_TASK_RULE_FAIL(DOCA_ERROR_NOT_CONNECTED,
						       "consumer %p: its connection %p closed while a receive was "
						       "posted; the consumer stops, create a new one on a live "
						       "connection",
						       (void *)c, (void *)c->conn);
		return true;
	}
	return false;
}

/*
 * The PE is armed while this receive waits.  On one machine the producer
 * fills the shared slot directly, so ask it to write to our wake pipe, or
 * for a WAKE frame when there is none (comch_fp_wake.c; it reads
 * wake_wanted after storing FILLED, we read the slot after storing
 * wake_wanted: one of the two sees the other).  A framed consumer learns of
 * each message by a frame anyway, which wakes the connection's PE; its
 * handler kicks this PE too.
 */
static void sd_fp_recv_arm(struct doca_task *task)
{
	struct doca_comch_consumer *c = (struct doca_comch_consumer *)task->ctx;
	struct sd_fp_slot *s = &sd_fp_queue_slots(c->q)[task->slot];

	if (!c->framed)
		atomic_store_explicit(&c->q->wake_wanted, sd_fp_wake_word(c), memory_order_seq_cst);
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&s->state, memory_order_acquire) == SD_FP_SLOT_FILLED ||
	    !sd_fp_conn_current(c->conn, c->conn_gen))
		priv_doca_pe_kick(task->ctx->pe);
}

/* On success the message's metadata lands in the buffer and the task; the slot is free again. */
static void sd_fp_recv_complete(struct doca_task *task, doca_error_t status)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	struct doca_comch_consumer *c = sd_fp_recv_owner(t);
	struct sd_fp_slot *s = &sd_fp_queue_slots(c->q)[task->slot];

	if (status == DOCA_SUCCESS) {
		size_t room = (size_t)(t->buf->head + t->buf->len - t->buf->data);

		t->buf->data_len = s->len < room ? (size_t)s->len : room;
		t->producer_id = s->producer_id;
		t->imm_len = s->imm_len <= c->imm_len ? s->imm_len : c->imm_len;
		memcpy(t->imm, s->imm, t->imm_len);
	}
	atomic_store_explicit(&s->state, SD_FP_SLOT_FREE, memory_order_relaxed);
}

static void sd_fp_recv_cancel(struct doca_task *task)
{
	/* The queue is closed to producers; the lent buffer is simply taken back. */
	atomic_store_explicit(&task->ready, 1, memory_order_release);
}

static doca_error_t sd_fp_recv_execute(struct doca_task *task)
{
	return task->early_status;
}

static void sd_fp_recv_invoke(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud, void (*cb)(void))
{
	((doca_comch_consumer_task_post_recv_completion_cb_t)cb)((struct doca_comch_consumer_task_post_recv *)task,
								 task_ud, ctx_ud);
}

const struct sd_task_ops sd_fp_post_recv_ops = {
	.name = "post_recv",
	.task_size = sizeof(struct doca_comch_consumer_task_post_recv),
	.validate = sd_fp_recv_validate,
	.execute = sd_fp_recv_execute,
	.on_submit = sd_fp_recv_on_submit,
	.poll = sd_fp_recv_poll,
	.arm = sd_fp_recv_arm,
	.complete = sd_fp_recv_complete,
	.cancel = sd_fp_recv_cancel,
	.invoke = sd_fp_recv_invoke,
	.failure_is_fatal = true,
};
