/*
 * doca_comch_producer.h - DOCA Comch fast path, sending side.
 *
 * softdoca's rendition of the DOCA 3.3 producer interface.  A producer is a
 * DOCA context created on an established Comch connection.  Its send task
 * names a consumer of the other side by id (learnt from the connection's
 * new-consumer event) and a doca_buf of its own; the bytes are written
 * straight into the buffer that consumer posted, together with up to the
 * consumer's immediate-data length of inline bytes.  See
 * docs/comch-fast-path.md for what differs from a card.
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

/* A fast-path sender bound to one connection. */
struct doca_comch_producer;

/* A DPA completion context (DOCA DPA); softdoca has no DPA. */
struct doca_dpa_completion;

/* Handle of a producer in DPA memory; never handed out by softdoca. */
typedef uint64_t doca_dpa_dev_comch_producer_t;

/**
 * @brief Create a producer on an established connection.
 *
 * The producer starts IDLE; configure its send task, connect it to a progress
 * engine and start it through doca_comch_producer_as_ctx().  The connection
 * must stay established while the producer is used.
 *
 * @param [in] comch_connection  Live connection of a server or a client.
 * @param [out] producer  The new producer, owned by the caller (destroy it).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL or foreign
 * argument; DOCA_ERROR_BAD_STATE when the connection is not (or no longer)
 * established; DOCA_ERROR_NO_MEMORY when the object cannot be allocated or
 * the connection has no producer id left.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection,
					struct doca_comch_producer **producer);

/**
 * @brief Destroy an IDLE producer and free it.
 * @param [in] producer  The producer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when NULL or not a producer;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE (stop it first).
 */
DOCA_STABLE
doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer);

/**
 * @brief Whether `devinfo` can run producers (a device with Comch: both
 * sides in softdoca).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL or foreign
 * devinfo; DOCA_ERROR_NOT_SUPPORTED for a device without Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The producer's id, unique among the producers of its connection's
 * side; the consumer reads it from each completed receive.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id);

/**
 * @brief Most send tasks one producer may configure (softdoca value, see
 * docs/comch-fast-path.md).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks);

/**
 * @brief Largest buffer one send task may carry (softdoca value).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign
 * arguments; DOCA_ERROR_NOT_SUPPORTED for a device without Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size);

/**
 * @brief Longest doca_buf list one send may carry: 1 in softdoca (a single
 * buffer per send).
 * @return as doca_comch_producer_cap_get_max_buf_size().
 */
DOCA_STABLE
doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len);

/**
 * @brief Most producers one connection side may hold at once (softdoca value).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo, uint32_t *max_producers);

/**
 * @brief The producer's generic context view (state, PE, user data, start,
 * stop), valid as long as the producer.
 * @return The context, or NULL for a NULL or foreign producer.
 */
DOCA_STABLE
struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer);

/**
 * @brief DPA data path: not available in softdoca.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for a NULL
 * producer), with one log record.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer, uint32_t dev_num_send);

/**
 * @brief DPA data path: not available in softdoca.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for NULL
 * arguments), with one log record.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
						       struct doca_dpa_completion *dpa_comp);

/**
 * @brief DPA data path: not available in softdoca.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for NULL
 * arguments), with one log record.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
						doca_dpa_dev_comch_producer_t *dpa_producer);

/* A send of one buffer (and immediate data) to one consumer. */
struct doca_comch_producer_task_send;

/** Completion callback of a send task (success and failure share the type). */
typedef void (*doca_comch_producer_task_send_completion_cb_t)(struct doca_comch_producer_task_send *task,
							      union doca_data task_user_data,
							      union doca_data ctx_user_data);

/**
 * @brief Set the send task callbacks and pool size (IDLE only).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL callbacks, a NULL
 * producer or a count of 0 or above doca_comch_producer_cap_get_max_num_tasks();
 * DOCA_ERROR_BAD_STATE when the producer is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer,
						    doca_comch_producer_task_send_completion_cb_t task_completion_cb,
						    doca_comch_producer_task_send_completion_cb_t task_error_cb,
						    uint32_t num_send_tasks);

/**
 * @brief Take a send task from the pool of a RUNNING producer.
 *
 * The data segment of `buf` (a buffer of a local mmap) is what is sent; the
 * immediate data is copied into the task.  Submitting the task answers
 * DOCA_ERROR_AGAIN while the consumer has no receive posted (submit again
 * later), DOCA_ERROR_NOT_FOUND when no live consumer has that id on this
 * connection, DOCA_ERROR_NOT_CONNECTED when the connection is gone, and
 * DOCA_ERROR_INVALID_VALUE when the data does not fit the consumer's next
 * posted buffer or the immediate data exceeds the consumer's length.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments, a buffer
 * that is not a live local buffer, data above the maximal buffer size or
 * immediate data above the capability; DOCA_ERROR_BAD_STATE when the producer
 * is not RUNNING; DOCA_ERROR_NO_MEMORY when every task is allocated.
 */
DOCA_STABLE
doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer,
						      const struct doca_buf *buf,
						      uint8_t *imm_data,
						      uint32_t imm_data_len,
						      uint32_t consumer_id,
						      struct doca_comch_producer_task_send **task);

/** @brief The task's buffer (NULL for a NULL or foreign task). */
DOCA_STABLE
const struct doca_buf *doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task);

/** @brief Replace the task's buffer (ignored, with a log record, for bad arguments). */
DOCA_STABLE
void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task, const struct doca_buf *buf);

/** @brief The consumer id the task sends to (0 for a NULL or foreign task). */
DOCA_STABLE
uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task);

/** @brief Change the consumer id the task sends to. */
DOCA_STABLE
void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
						   const uint32_t consumer_id);

/** @brief The task's copy of its immediate data, or NULL when it has none. */
DOCA_STABLE
uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task);

/** @brief Length of the task's immediate data. */
DOCA_STABLE
uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task);

/**
 * @brief Replace the task's immediate data (copied); a length above the
 * capability is refused with a log record and leaves the task unchanged.
 */
DOCA_STABLE
void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task,
						uint8_t *imm_data,
						uint32_t imm_data_len);

/** @brief The task's generic view (NULL for a NULL task). */
DOCA_STABLE
struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_PRODUCER_H_ */
