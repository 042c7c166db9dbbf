/**
 * @file doca_comch_consumer.h
 * @brief DOCA Comch fast path, receiving side: consumers that lend buffers
 * of their own memory to the producers of the other side of a connection.
 *
 * softdoca's rendition of the DOCA 3.3 consumer interface.  A consumer is a
 * DOCA context created on an established Comch connection (doca_comch.h)
 * with an mmap of its own memory.  Configure it while IDLE, connect it to a
 * progress engine and start it through doca_comch_consumer_as_ctx(): the
 * start announces the consumer to the other side, whose new-consumer
 * callback (doca_comch_server_event_consumer_register(),
 * doca_comch_client_event_consumer_register()) reports its id.  Each
 * post-receive task then lends one buffer of that mmap, and completes once a
 * producer of the other side (doca_comch_producer.h) wrote a message, and
 * its immediate data, into it.  Receives complete in the order they were
 * posted.  The receiving program only progresses its engine: no thread of
 * the library works on its behalf.
 *
 * In softdoca both sides run on one machine (one user, one PID namespace:
 * the post queue is shared memory), or, when Comch runs over TCP
 * (SOFTDOCA_PEER), in two namespaces or on two machines: posts and filled
 * buffers then travel as frames on the connection and the bytes through UCX.
 * A message landing in a posted buffer wakes the consumer's PE armed with
 * doca_pe_request_notification().  The DPA variants of this header are
 * declared but answer DOCA_ERROR_NOT_SUPPORTED.  See docs/comch-fast-path.md.
 */
#ifndef DOCA_COMCH_CONSUMER_H_
#define DOCA_COMCH_CONSUMER_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_mmap;
/**
 * @struct doca_dpa_thread
 * A thread of a DPA (DOCA DPA), named only by the DPA variants of this
 * header; softdoca has no DPA and never hands one out.
 */
struct doca_dpa_thread;
struct doca_task;

/* An established Comch link (doca_comch.h). */
struct doca_comch_connection;

/**
 * @struct doca_comch_consumer
 * A fast-path receiver: a context bound to one Comch connection and to one
 * mmap whose buffers it lends to the producers of the other side.  Created
 * with doca_comch_consumer_create(), owned by the application, destroyed
 * with doca_comch_consumer_destroy() once its context is IDLE.
 */
struct doca_comch_consumer;

/**
 * @struct doca_comch_consumer_completion
 * A completion context that would gather the receives of consumers run from
 * a DPA thread.  softdoca has no DPA: doca_comch_consumer_completion_create()
 * never creates one.
 */
struct doca_comch_consumer_completion;

/**
 * @brief The DPA-side handle of a consumer completion context; softdoca never
 * hands one out (doca_comch_consumer_completion_get_dpa_handle()).
 */
typedef uint64_t doca_dpa_dev_comch_consumer_completion_t;

/**
 * @brief The DPA-side handle of a consumer; softdoca never hands one out
 * (doca_comch_consumer_get_dpa_handle()).
 */
typedef uint64_t doca_dpa_dev_comch_consumer_t;

/**
 * @brief Creates an IDLE consumer on an established connection.
 *
 * Call it once the connection is reported established (the server's connect
 * callback, or the client RUNNING), from either side.  The consumer gets its
 * id at once (doca_comch_consumer_get_id()).  Buffers posted later must lie
 * in @p buf_mmap.  That mmap is only checked to be a local map here; the
 * start of the consumer exports it over PCI through the connection's device,
 * so by then it must be started, list that device and grant PCI access
 * (DOCA_ACCESS_FLAG_PCI_READ_WRITE: the other side writes into it).
 *
 * The start through doca_ctx_start() is asynchronous: it answers
 * DOCA_ERROR_IN_PROGRESS (IDLE to STARTING), and the next doca_pe_progress()
 * turns the consumer RUNNING, its announcement written to the connection.
 * Besides the generic reasons, that start fails with DOCA_ERROR_BAD_STATE
 * when no post-receive task was configured
 * (doca_comch_consumer_task_post_recv_set_conf()), DOCA_ERROR_NOT_CONNECTED
 * when the connection ended or the announcement cannot be written,
 * DOCA_ERROR_FULL when 64 consumers of the connection's server or client
 * are started already, the errors of doca_mmap_export_pci() for the mmap,
 * and DOCA_ERROR_NO_MEMORY when the post queue cannot be made.  Its stop
 * flushes the posted receives with DOCA_ERROR_SHUTDOWN and withdraws the
 * consumer: the other side's expired-consumer callback fires.
 *
 * @param comch_connection an established connection of a server or a client.
 * @param buf_mmap a map of this process's own memory (not one created from
 * an export); it must outlive the consumer.
 * @param consumer receives the consumer; the caller owns it and destroys it
 * with doca_comch_consumer_destroy().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, @p comch_connection is
 * not a connection of a live server or client, or @p buf_mmap is not a map or
 * was created from an export;
 * DOCA_ERROR_BAD_STATE when the connection is not (or no longer) established;
 * DOCA_ERROR_NO_MEMORY when the consumer cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection,
					struct doca_mmap *buf_mmap,
					struct doca_comch_consumer **consumer);

/**
 * @brief Destroys a consumer whose context is IDLE, and frees it.
 *
 * Stop it first (doca_ctx_stop() on doca_comch_consumer_as_ctx()) and wait
 * for IDLE.  The consumer and its context view are invalid once this returns.
 *
 * @param consumer the consumer.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p consumer is NULL or not a consumer;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE (the consumer is left intact).
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer);

/**
 * @brief Whether a device can run consumers: every device that can host a
 * Comch server or client can.
 *
 * Any time, any thread; no consumer needed.
 *
 * @param devinfo the device.
 * @return DOCA_SUCCESS when it can;
 * DOCA_ERROR_INVALID_VALUE when @p devinfo is NULL or not a device info of
 * this process;
 * DOCA_ERROR_NOT_SUPPORTED when the device has no Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The consumer's id, the address producers of the other side send to.
 *
 * Given at creation, in any state: ids count from 1 per server or client,
 * never 0 nor 0xffff, so two consumers of the same endpoint never share one.
 * The other side's new-consumer callback reports the same value.
 *
 * @param consumer the consumer.
 * @param id receives the id.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p consumer is not a consumer.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id);

/**
 * @brief The largest post-receive pool one consumer may be configured for
 * (1024, a softdoca value).
 *
 * Any time, any thread; the same on every device.
 *
 * @param devinfo the device.
 * @param max_num_tasks receives it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p devinfo is not a
 * device info of this process.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks);

/**
 * @brief The largest message one posted buffer may receive (1 GiB, a softdoca value).
 *
 * Any time, any thread.
 *
 * @param devinfo the device.
 * @param max_buf_size receives it, in bytes.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p devinfo is not a
 * device info of this process;
 * DOCA_ERROR_NOT_SUPPORTED when the device has no Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size);

/**
 * @brief The longest buffer list one post-receive task may carry: 1 in
 * softdoca (a single buffer per receive).
 *
 * Any time, any thread.
 *
 * @param devinfo the device.
 * @param max_buf_list_len receives it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p devinfo is not a
 * device info of this process;
 * DOCA_ERROR_NOT_SUPPORTED when the device has no Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len);

/**
 * @brief How many consumers of the other side one server or client keeps
 * track of at once (64, a softdoca value).
 *
 * An announcement beyond that count is ignored by the receiving endpoint,
 * with a log record.  Any time, any thread; the same on every device.
 *
 * @param devinfo the device.
 * @param max_consumers receives it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p devinfo is not a
 * device info of this process.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo, uint32_t *max_consumers);

/**
 * @brief The longest immediate data a consumer may accept with each message
 * (32 bytes, a softdoca value).
 *
 * Any time, any thread; the same on every device.
 *
 * @param devinfo the device.
 * @param max_imm_data_len receives it, in bytes.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p devinfo is not a
 * device info of this process.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_imm_data_len);

/**
 * @brief The immediate-data length the consumer accepts with each message
 * (0 unless set).
 *
 * Any state.
 *
 * @param consumer the consumer.
 * @param imm_data_len receives it, in bytes.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p consumer is not a consumer.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer, uint32_t *imm_data_len);

/**
 * @brief Sets how many bytes of immediate data the consumer accepts with each
 * message; IDLE only.
 *
 * The length travels with the announcement made at start: a producer's send
 * carrying more immediate data than this is refused by its submit.
 *
 * @param consumer the consumer.
 * @param imm_data_len 0 to doca_comch_consumer_cap_get_max_imm_data_len().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p consumer is NULL or not a consumer, or the
 * length is over the limit;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len);

/**
 * @brief The generic context of the consumer, for doca_ctx_*() and doca_pe_connect_ctx().
 *
 * Any state; a NULL result is logged.
 *
 * @param consumer the consumer.
 * @return the context, the same pointer on every call and owned by the
 * consumer (valid until it is destroyed); NULL when @p consumer is NULL or
 * not a consumer.
 */
DOCA_STABLE
struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer);

/**
 * @brief Would create a completion context for consumers run from a DPA
 * thread; softdoca has no DPA.
 *
 * @param consumer_comp would receive the completion context; left untouched.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp);

/**
 * @brief Would attach a DPA thread to a consumer completion context;
 * softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param dpa_thread the DPA thread (not looked at).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp,
							   struct doca_dpa_thread *dpa_thread);

/**
 * @brief Would destroy a consumer completion context; softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp);

/**
 * @brief Would start a consumer completion context; softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp);

/**
 * @brief Would stop a consumer completion context; softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp);

/**
 * @brief Would give the DPA-side handle of a consumer completion context;
 * softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param consumer_comp_handle would receive the handle; left untouched.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_dpa_handle(
	struct doca_comch_consumer_completion *consumer_comp,
	doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle);

/**
 * @brief Would set how many consumers a completion context serves; softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param max_num_consumers the count (not looked at).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_max_num_consumers(struct doca_comch_consumer_completion *consumer_comp,
								  uint32_t max_num_consumers);

/**
 * @brief Would tell how many consumers a completion context serves; softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param max_num_consumers would receive the count; left untouched.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_max_num_consumers(
	const struct doca_comch_consumer_completion *consumer_comp,
	uint32_t *max_num_consumers);

/**
 * @brief Would set how many receives a completion context holds; softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param max_num_recv the count (not looked at).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_max_num_recv(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t max_num_recv);

/**
 * @brief Would tell how many receives a completion context holds; softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param max_num_recv would receive the count; left untouched.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_max_num_recv(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *max_num_recv);

/**
 * @brief Would set the immediate-data length of a completion context;
 * softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param imm_data_len the length (not looked at).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_imm_data_len(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t imm_data_len);

/**
 * @brief Would tell the immediate-data length of a completion context;
 * softdoca has no DPA.
 *
 * @param consumer_comp the completion context.
 * @param imm_data_len would receive the length; left untouched.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_imm_data_len(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *imm_data_len);

/**
 * @brief Would set how many receives a consumer may have posted from a DPA
 * thread; softdoca has no DPA.
 *
 * @param consumer the consumer (not looked at beyond NULL).
 * @param dev_num_recv the count (not looked at).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer, uint32_t dev_num_recv);

/**
 * @brief Would tie a consumer to a DPA completion context; softdoca has no DPA.
 *
 * @param consumer the consumer (not looked at beyond NULL).
 * @param consumer_comp the completion context.
 * @param user_data the value the completion context would report (not looked at).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p consumer or @p consumer_comp is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
						struct doca_comch_consumer_completion *consumer_comp,
						uint32_t user_data);

/**
 * @brief Would give the DPA-side handle of a consumer; softdoca has no DPA.
 *
 * @param consumer the consumer (not looked at beyond NULL).
 * @param dpa_consumer would receive the handle; left untouched.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
						doca_dpa_dev_comch_consumer_t *dpa_consumer);

/**
 * @struct doca_comch_consumer_task_post_recv
 * A post-receive task: lends one buffer of the consumer's mmap to the
 * producers of the other side, and completes once one of them wrote a
 * message into it.  It belongs to its consumer's pool: allocated with
 * doca_comch_consumer_task_post_recv_alloc_init(), submitted and freed
 * through its generic view (doca_comch_consumer_task_post_recv_as_task()).
 */
struct doca_comch_consumer_task_post_recv;

/**
 * @brief The success and the error callback of post-receive tasks.
 *
 * Called only from doca_pe_progress() of the consumer's progress engine,
 * with the task back in the application's hands (post it again, free it or
 * keep it).  On success the buffer's data length is the message's length,
 * and the task gives the sending producer's id and the immediate data.  In
 * the error callback doca_task_get_status() says why:
 * DOCA_ERROR_NOT_CONNECTED when the connection ended while the buffer was
 * posted, DOCA_ERROR_IO_FAILED when the producer could not write into the
 * buffer, DOCA_ERROR_SHUTDOWN when a stop of the consumer flushed it, or the
 * rule the task broke (see doca_comch_consumer_task_post_recv_alloc_init()).
 * A failed receive has already moved its consumer to STOPPING.
 *
 * @param task the task being reported.
 * @param task_user_data the task's user data at the time of the call.
 * @param ctx_user_data the user data of the consumer's context at the time of the call.
 */
typedef void (*doca_comch_consumer_task_post_recv_completion_cb_t)(struct doca_comch_consumer_task_post_recv *task,
								   union doca_data task_user_data,
								   union doca_data ctx_user_data);

/**
 * @brief Sets the callbacks and the pool size of post-receive tasks; IDLE only.
 *
 * Required before the start.  The pool size is also the most buffers that
 * may be posted at once: the consumer's shared post queue has one slot per task.
 *
 * @param consumer the consumer.
 * @param task_completion_cb called for each receive that got a message.
 * @param task_error_cb called for each receive that failed or was flushed.
 * @param num_post_recv_tasks 1 to doca_comch_consumer_cap_get_max_num_tasks().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p consumer is NULL or not a consumer, a
 * callback is NULL, or the count is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_task_post_recv_set_conf(
	struct doca_comch_consumer *consumer,
	doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
	doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb,
	uint32_t num_post_recv_tasks);

/**
 * @brief Takes a post-receive task from the pool of a RUNNING consumer, for one buffer.
 *
 * Submitting the task (doca_task_submit() on its generic view) lends the
 * buffer: the message of a producer is written at the start of the buffer's
 * data and may fill it up to the end of the buffer; the oldest posted buffer
 * takes the next message, and receives complete in posting order.  On
 * success the buffer's data length becomes the message's length.  The
 * buffer must still be a live buffer of the consumer's mmap with room when
 * the task is submitted (doca_task_try_submit() refuses it otherwise, with
 * DOCA_ERROR_INVALID_VALUE).  Allowed in task callbacks and in the state
 * callback entering RUNNING.
 *
 * @param consumer the consumer.
 * @param buf a buffer of the mmap given to doca_comch_consumer_create(), with
 * room after the start of its data; the application keeps ownership, and
 * must not touch its memory while the task is posted.
 * @param task receives the task, owned by the application until submitted;
 * return it with doca_task_free().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p consumer or @p task is NULL or
 * @p consumer is not a consumer, or @p buf is NULL, freed, outside the
 * consumer's mmap or has no room after its data;
 * DOCA_ERROR_BAD_STATE when the consumer is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated (free one first).
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer,
							   struct doca_buf *buf,
							   struct doca_comch_consumer_task_post_recv **task);

/**
 * @brief The buffer a post-receive task lends.
 *
 * @param task the task.
 * @return the buffer (not a new reference); NULL, with a log record, when
 * @p task is NULL or not a post-receive task.
 */
DOCA_STABLE
struct doca_buf *doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task);

/**
 * @brief Replaces the buffer of a task the application holds (for example
 * before posting it again).
 *
 * A NULL task, or one that is not a post-receive task: ignored and logged.
 * A buffer that is not a live buffer of the consumer's mmap with room after
 * its data: ignored and logged, the task keeps its buffer.
 *
 * @param task the task.
 * @param buf the new buffer; the application keeps ownership.
 */
DOCA_STABLE
void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task, struct doca_buf *buf);

/**
 * @brief The id of the producer whose message completed the task.
 *
 * Meaningful in the success callback (and until the task is posted again);
 * 0 before.
 *
 * @param task the task.
 * @return the producer's id (doca_comch_producer_get_id() on the other side);
 * 0, with a log record, when @p task is NULL or not a post-receive task.
 */
DOCA_STABLE
uint32_t doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task);

/**
 * @brief The immediate data that came with the message.
 *
 * Meaningful after a successful completion, until the task is posted again
 * or freed.
 *
 * @param task the task.
 * @return the bytes, stored in the task (do not free them), of
 * doca_comch_consumer_task_post_recv_get_imm_data_len() length; NULL when the
 * message carried none, or (with a log record) when @p task is NULL or not a
 * post-receive task.
 */
DOCA_STABLE
const uint8_t *doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task);

/**
 * @brief How many bytes of immediate data came with the message.
 *
 * Meaningful after a successful completion; never more than the consumer's
 * doca_comch_consumer_get_imm_data_len().
 *
 * @param task the task.
 * @return the length; 0 when none came, or (with a log record) when @p task
 * is NULL or not a post-receive task.
 */
DOCA_STABLE
uint32_t doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task);

/**
 * @brief The generic view of a post-receive task, for the doca_task_*() calls.
 *
 * @param task the post-receive task.
 * @return the same task as struct doca_task; NULL, with a log record, when
 * @p task is NULL or not a post-receive task.
 */
DOCA_STABLE
struct doca_task *doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_CONSUMER_H_ */
