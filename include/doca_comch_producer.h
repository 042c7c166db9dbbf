/**
 * @file doca_comch_producer.h
 * @brief DOCA Comch fast path, sending side: producers that write messages
 * straight into the buffers the consumers of the other side posted.
 *
 * softdoca's rendition of the DOCA 3.3 producer interface.  A producer is a
 * DOCA context created on an established Comch connection (doca_comch.h).
 * Configure its send task while IDLE, connect it to a progress engine and
 * start it through doca_comch_producer_as_ctx() (the start is synchronous).
 * A send task names a consumer of the other side by id, as learnt from the
 * connection's new-consumer callback, and a doca_buf of this side; its
 * bytes are written into the oldest buffer that consumer posted, together
 * with up to the consumer's immediate-data length of inline bytes
 * (doca_comch_consumer.h).  The copy runs on the producer's thread inside
 * doca_task_submit(); the next doca_pe_progress() reports the task.
 *
 * In softdoca both sides run on one machine (one user, one PID namespace),
 * or, when Comch runs over TCP (SOFTDOCA_PEER), in two namespaces or on two
 * machines, the bytes then written through UCX and the consumer told by a
 * frame on the connection.  The DPA variants of this header are declared
 * but answer DOCA_ERROR_NOT_SUPPORTED.  See docs/comch-fast-path.md for what
 * differs from a card.
 */
#ifndef DOCA_COMCH_PRODUCER_H_
#define DOCA_COMCH_PRODUCER_H_

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
struct doca_dpa_thread;
struct doca_task;

/* An established Comch link (doca_comch.h). */
struct doca_comch_connection;

/**
 * @struct doca_comch_producer
 * A fast-path sender: a context bound to one Comch connection, whose send
 * tasks write into the buffers posted by the consumers of the other side.
 * Created with doca_comch_producer_create(), owned by the application,
 * destroyed with doca_comch_producer_destroy() once its context is IDLE.
 */
struct doca_comch_producer;

/**
 * @struct doca_dpa_completion
 * A completion context of a DPA (DOCA DPA), named only by the DPA variants
 * of this header; softdoca has no DPA and never hands one out.
 */
struct doca_dpa_completion;

/**
 * @brief The DPA-side handle of a producer; softdoca never hands one out
 * (doca_comch_producer_get_dpa_handle()).
 */
typedef uint64_t doca_dpa_dev_comch_producer_t;

/**
 * @brief Creates an IDLE producer on an established connection.
 *
 * Call it once the connection is reported established (the server's connect
 * callback, or the client RUNNING), from either side.  The producer gets its
 * id at once (doca_comch_producer_get_id()).  Configure its send task
 * (doca_comch_producer_task_send_set_conf()), connect it to a progress
 * engine and start it through doca_comch_producer_as_ctx(): the start is
 * synchronous (IDLE to RUNNING inside doca_ctx_start()) and, besides the
 * generic reasons, fails with DOCA_ERROR_BAD_STATE when no send task was
 * configured and DOCA_ERROR_NOT_CONNECTED when the connection ended.  The
 * connection must stay established while the producer sends.
 *
 * @param comch_connection an established connection of a server or a client.
 * @param producer receives the producer; the caller owns it and destroys it
 * with doca_comch_producer_destroy().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, or @p comch_connection
 * is not a connection of a live server or client;
 * DOCA_ERROR_BAD_STATE when the connection is not (or no longer) established;
 * DOCA_ERROR_NO_MEMORY when the producer cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection,
					struct doca_comch_producer **producer);

/**
 * @brief Destroys a producer whose context is IDLE, and frees it.
 *
 * Stop it first (doca_ctx_stop() on doca_comch_producer_as_ctx()).  The
 * producer and its context view are invalid once this returns.
 *
 * @param producer the producer.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p producer is NULL or not a producer;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE (the producer is left intact).
 */
DOCA_STABLE
doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer);

/**
 * @brief Whether a device can run producers: every device that can host a
 * Comch server or client can (both sides, in softdoca).
 *
 * Any time, any thread; no producer needed.
 *
 * @param devinfo the device.
 * @return DOCA_SUCCESS when it can;
 * DOCA_ERROR_INVALID_VALUE when @p devinfo is NULL or not a device info of
 * this process;
 * DOCA_ERROR_NOT_SUPPORTED when the device has no Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The producer's id, which the consumer of each message reads from
 * its completed receive (doca_comch_consumer_task_post_recv_get_producer_id()).
 *
 * Given at creation, in any state: ids count from 1 per server or client,
 * never 0 nor 0xffff, so two producers of the same endpoint never share one.
 *
 * @param producer the producer.
 * @param id receives the id.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p producer is not a producer.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id);

/**
 * @brief The largest send pool one producer may be configured for (1024, a
 * softdoca value, see docs/comch-fast-path.md).
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
doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks);

/**
 * @brief The most data one send task may carry (1 GiB, a softdoca value).
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
doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size);

/**
 * @brief The longest buffer list one send task may carry: 1 in softdoca (a
 * single buffer per send).
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
doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len);

/**
 * @brief How many producers one server or client is meant to hold at once
 * (64, a softdoca value).
 *
 * Advisory: softdoca does not count producers, and
 * doca_comch_producer_create() does not refuse one beyond this.  Any time,
 * any thread; the same on every device.
 *
 * @param devinfo the device.
 * @param max_producers receives it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p devinfo is not a
 * device info of this process.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo, uint32_t *max_producers);

/**
 * @brief The generic context of the producer, for doca_ctx_*() and doca_pe_connect_ctx().
 *
 * Any state; a NULL result is logged.
 *
 * @param producer the producer.
 * @return the context, the same pointer on every call and owned by the
 * producer (valid until it is destroyed); NULL when @p producer is NULL or
 * not a producer.
 */
DOCA_STABLE
struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer);

/**
 * @brief Would set how many sends a producer may have outstanding from a DPA
 * thread; softdoca has no DPA.
 *
 * @param producer the producer (not looked at beyond NULL).
 * @param dev_num_send the count (not looked at).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when @p producer is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer, uint32_t dev_num_send);

/**
 * @brief Would attach a DPA completion context to a producer; softdoca has no DPA.
 *
 * @param producer the producer (not looked at beyond NULL).
 * @param dpa_comp the DPA completion context (not looked at beyond NULL).
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
						       struct doca_dpa_completion *dpa_comp);

/**
 * @brief Would give the DPA-side handle of a producer; softdoca has no DPA.
 *
 * @param producer the producer (not looked at beyond NULL).
 * @param dpa_producer would receive the handle; left untouched.
 * @return DOCA_ERROR_NOT_SUPPORTED, with one log record;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
						doca_dpa_dev_comch_producer_t *dpa_producer);

/**
 * @struct doca_comch_producer_task_send
 * A send task: writes the data of one buffer, and its immediate data, into
 * the next buffer posted by one consumer of the other side.  It belongs to
 * its producer's pool: allocated with
 * doca_comch_producer_task_send_alloc_init(), submitted and freed through
 * its generic view (doca_comch_producer_task_send_as_task()).
 */
struct doca_comch_producer_task_send;

/**
 * @brief The success and the error callback of send tasks.
 *
 * Called only from doca_pe_progress() of the producer's progress engine,
 * with the task back in the application's hands (submit it again, free it
 * or keep it).  On success the message and its immediate data lie in the
 * consumer's buffer, whose receive completes on the consumer's next
 * progress call.  In the error callback doca_task_get_status() gives the
 * error of the memory transport that could not write the consumer's buffer
 * (DOCA_ERROR_IO_FAILED when that memory could not be reached,
 * DOCA_ERROR_NOT_PERMITTED when the kernel refused access to it,
 * DOCA_ERROR_INVALID_VALUE when the write fell outside it); the consumer's
 * receive then fails too.  A failed send does not stop the producer, and a
 * send keeps its outcome when the producer is stopped before the report.
 *
 * @param task the task being reported.
 * @param task_user_data the task's user data at the time of the call.
 * @param ctx_user_data the user data of the producer's context at the time of the call.
 */
typedef void (*doca_comch_producer_task_send_completion_cb_t)(struct doca_comch_producer_task_send *task,
							      union doca_data task_user_data,
							      union doca_data ctx_user_data);

/**
 * @brief Sets the callbacks and the pool size of send tasks; IDLE only.
 *
 * Required before the start.
 *
 * @param producer the producer.
 * @param task_completion_cb called for each send that reached its consumer.
 * @param task_error_cb called for each send whose copy failed.
 * @param num_send_tasks 1 to doca_comch_producer_cap_get_max_num_tasks().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p producer is NULL or not a producer, a
 * callback is NULL, or the count is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer,
						    doca_comch_producer_task_send_completion_cb_t task_completion_cb,
						    doca_comch_producer_task_send_completion_cb_t task_error_cb,
						    uint32_t num_send_tasks);

/**
 * @brief Takes a send task from the pool of a RUNNING producer.
 *
 * What is sent is the data of @p buf; the immediate data is copied into the
 * task at once, and the consumer id is only looked up when the task is
 * submitted.  Submitting it (doca_task_submit() on its generic view) claims
 * the oldest buffer the consumer posted and writes the message into it; the
 * submit refuses the task, which then stays with the application, with:
 * DOCA_ERROR_AGAIN when the consumer has no receive posted (no log record;
 * submit again later);
 * DOCA_ERROR_NOT_FOUND when no consumer of that id is announced on this
 * connection (never announced, expired, or stopped);
 * DOCA_ERROR_NOT_CONNECTED when the connection ended;
 * DOCA_ERROR_INVALID_VALUE when the buffer is no longer a live buffer of a
 * started local mmap, the data does not fit the consumer's next posted buffer
 * (which stays posted), or the immediate data is longer than the consumer's
 * doca_comch_consumer_set_imm_data_len().  doca_task_try_submit() answers
 * the same way.  Allowed in task callbacks and in the state callback
 * entering RUNNING.
 *
 * @param producer the producer.
 * @param buf a buffer of a started mmap of this process (not one created
 * from an export), carrying at most doca_comch_producer_cap_get_max_buf_size()
 * bytes of data; the application keeps ownership and must keep it alive until
 * the task is reported.
 * @param imm_data the immediate data, copied; may be NULL when
 * @p imm_data_len is 0.
 * @param imm_data_len its length, at most 32 bytes
 * (doca_comch_consumer_cap_get_max_imm_data_len()).
 * @param consumer_id the id of a consumer of the other side, as the
 * new-consumer callback reported it.
 * @param task receives the task, owned by the application until submitted;
 * return it with doca_task_free().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p producer or @p task is NULL or
 * @p producer is not a producer, @p buf is NULL, freed, not of a started
 * local mmap or carries too much data, or the immediate data is too long (or
 * NULL with a length);
 * DOCA_ERROR_BAD_STATE when the producer is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated (free one first).
 */
DOCA_STABLE
doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer,
						      const struct doca_buf *buf,
						      uint8_t *imm_data,
						      uint32_t imm_data_len,
						      uint32_t consumer_id,
						      struct doca_comch_producer_task_send **task);

/**
 * @brief The buffer a send task sends from.
 *
 * @param task the task.
 * @return the buffer (not a new reference); NULL, with a log record, when
 * @p task is NULL or not a send task.
 */
DOCA_STABLE
const struct doca_buf *doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task);

/**
 * @brief Replaces the buffer of a task the application holds (for example
 * before submitting it again).
 *
 * A NULL task, or one that is not a send task: ignored and logged.  A buffer
 * that is not a live buffer of a started local mmap, or carries more than
 * doca_comch_producer_cap_get_max_buf_size() bytes: ignored and logged, the
 * task keeps its buffer.
 *
 * @param task the task.
 * @param buf the new buffer; the application keeps ownership.
 */
DOCA_STABLE
void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task, const struct doca_buf *buf);

/**
 * @brief The id of the consumer a send task is addressed to.
 *
 * @param task the task.
 * @return the consumer id; 0, with a log record, when @p task is NULL or not
 * a send task.
 */
DOCA_STABLE
uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task);

/**
 * @brief Addresses a task the application holds to another consumer.
 *
 * Not checked until the task is submitted.  A NULL task, or one that is not
 * a send task: ignored and logged.
 *
 * @param task the task.
 * @param consumer_id the id of a consumer of the other side.
 */
DOCA_STABLE
void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
						   const uint32_t consumer_id);

/**
 * @brief The immediate data a send task carries.
 *
 * @param task the task.
 * @return the task's own copy (do not free it), of
 * doca_comch_producer_task_send_get_imm_data_len() length; NULL when the
 * task carries none, or (with a log record) when @p task is NULL or not a
 * send task.
 */
DOCA_STABLE
uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task);

/**
 * @brief How many bytes of immediate data a send task carries.
 *
 * @param task the task.
 * @return the length; 0 when none, or (with a log record) when @p task is
 * NULL or not a send task.
 */
DOCA_STABLE
uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task);

/**
 * @brief Replaces the immediate data of a task the application holds.
 *
 * The bytes are copied into the task.  A NULL task, or one that is not a
 * send task: ignored and logged.  A length over 32 bytes
 * (doca_comch_consumer_cap_get_max_imm_data_len()), or a NULL @p imm_data
 * with a length: refused with a log record, the task keeps its own.
 *
 * @param task the task.
 * @param imm_data the new immediate data; may be NULL when @p imm_data_len is 0.
 * @param imm_data_len its length in bytes (0 for none).
 */
DOCA_STABLE
void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task,
						uint8_t *imm_data,
						uint32_t imm_data_len);

/**
 * @brief The generic view of a send task, for the doca_task_*() calls.
 *
 * @param task the send task.
 * @return the same task as struct doca_task; NULL, with a log record, when
 * @p task is NULL or not a send task.
 */
DOCA_STABLE
struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_PRODUCER_H_ */
