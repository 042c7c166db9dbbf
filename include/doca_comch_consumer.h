/*
 * doca_comch_consumer.h - DOCA Comch fast path, receiving side.
 *
 * softdoca's rendition of the DOCA 3.3 consumer interface.  A consumer is a
 * DOCA context created on an established Comch connection with an mmap of
 * its own memory.  Starting it announces it to the other side, whose
 * new-consumer callback hands out its id; each post-receive task then lends
 * one buffer of that mmap, and completes once a producer of the other side
 * wrote a message (and its immediate data) into it.  The receiving program
 * only progresses its engine.  See docs/comch-fast-path.md.
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
struct doca_dpa_thread;
struct doca_task;

/* An established Comch link (doca_comch.h). */
struct doca_comch_connection;

/* A fast-path receiver bound to one connection and one mmap. */
struct doca_comch_consumer;

/* A DPA completion context of consumers; softdoca has no DPA. */
struct doca_comch_consumer_completion;

/* Handle of a consumer completion context in DPA memory. */
typedef uint64_t doca_dpa_dev_comch_consumer_completion_t;

/* Handle of a consumer in DPA memory. */
typedef uint64_t doca_dpa_dev_comch_consumer_t;

/**
 * @brief Create a consumer on an established connection.
 *
 * Buffers posted later must lie in `buf_mmap`, a started local mmap that
 * lists the connection's device and grants PCI write access (the other side
 * writes into it).  The consumer starts IDLE; its start returns
 * DOCA_ERROR_IN_PROGRESS and it turns RUNNING on a later progress call, once
 * announced to the other side.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign
 * arguments; DOCA_ERROR_BAD_STATE when the connection is not established;
 * DOCA_ERROR_NO_MEMORY when allocation fails or no consumer id is left.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection,
					struct doca_mmap *buf_mmap,
					struct doca_comch_consumer **consumer);

/**
 * @brief Destroy an IDLE consumer and free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL or foreign
 * consumer; DOCA_ERROR_BAD_STATE when it is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer);

/**
 * @brief Whether `devinfo` can run consumers (a device with Comch).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL or foreign
 * devinfo; DOCA_ERROR_NOT_SUPPORTED for a device without Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The consumer's id: unique among the live consumers of its side of
 * the connection, never 0; the peer's new-consumer callback reports it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id);

/**
 * @brief Most post-receive tasks one consumer may configure (softdoca value).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks);

/**
 * @brief Largest message a posted buffer receives (softdoca value).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign
 * arguments; DOCA_ERROR_NOT_SUPPORTED for a device without Comch.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size);

/**
 * @brief Longest buffer list a post-receive may carry: 1 in softdoca.
 * @return as doca_comch_consumer_cap_get_max_buf_size().
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len);

/**
 * @brief Most consumers one connection side may hold at once (softdoca value).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo, uint32_t *max_consumers);

/**
 * @brief Longest immediate data a consumer may be configured for (softdoca value).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL or foreign arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_imm_data_len);

/**
 * @brief The immediate-data length the consumer accepts (0 unless set).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer, uint32_t *imm_data_len);

/**
 * @brief Set the immediate-data length the consumer accepts (IDLE only).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL consumer or a
 * length above doca_comch_consumer_cap_get_max_imm_data_len();
 * DOCA_ERROR_BAD_STATE when the consumer is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len);

/**
 * @brief The consumer's generic context view, valid as long as the consumer.
 * @return The context, or NULL for a NULL or foreign consumer.
 */
DOCA_STABLE
struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer);

/**
 * @brief DPA data path: not available in softdoca.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for a NULL
 * output), with one log record; *consumer_comp is left untouched.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp,
							   struct doca_dpa_thread *dpa_thread);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_dpa_handle(
	struct doca_comch_consumer_completion *consumer_comp,
	doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_max_num_consumers(struct doca_comch_consumer_completion *consumer_comp,
								  uint32_t max_num_consumers);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_max_num_consumers(
	const struct doca_comch_consumer_completion *consumer_comp,
	uint32_t *max_num_consumers);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_max_num_recv(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t max_num_recv);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_max_num_recv(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *max_num_recv);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_set_imm_data_len(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t imm_data_len);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_completion_get_imm_data_len(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *imm_data_len);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer, uint32_t dev_num_recv);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
						struct doca_comch_consumer_completion *consumer_comp,
						uint32_t user_data);

/** @brief DPA data path: DOCA_ERROR_NOT_SUPPORTED, with one log record. */
DOCA_EXPERIMENTAL
doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
						doca_dpa_dev_comch_consumer_t *dpa_consumer);

/* One buffer lent to producers of the other side. */
struct doca_comch_consumer_task_post_recv;

/** Completion callback of a post-receive task (success and failure share the type). */
typedef void (*doca_comch_consumer_task_post_recv_completion_cb_t)(struct doca_comch_consumer_task_post_recv *task,
								   union doca_data task_user_data,
								   union doca_data ctx_user_data);

/**
 * @brief Set the post-receive callbacks and pool size (IDLE only).  The pool
 * size is also how many buffers may be posted at once.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL callbacks, a NULL
 * consumer or a count of 0 or above the capability; DOCA_ERROR_BAD_STATE
 * when the consumer is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_task_post_recv_set_conf(
	struct doca_comch_consumer *consumer,
	doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
	doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb,
	uint32_t num_post_recv_tasks);

/**
 * @brief Take a post-receive task of a RUNNING consumer for `buf`.
 *
 * The message is written at the start of the buffer's data segment and may
 * fill it up to the end of the buffer; on success the data length is the
 * message's length.  A completion with an error status (the connection or
 * the peer went away) stops the consumer.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments or a
 * buffer outside the consumer's mmap; DOCA_ERROR_BAD_STATE when the consumer
 * is not RUNNING; DOCA_ERROR_NO_MEMORY when every task is allocated.
 */
DOCA_STABLE
doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer,
							   struct doca_buf *buf,
							   struct doca_comch_consumer_task_post_recv **task);

/** @brief The task's buffer (NULL for a NULL or foreign task). */
DOCA_STABLE
struct doca_buf *doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task);

/** @brief Replace the task's buffer (ignored, with a log record, for a buffer outside the mmap). */
DOCA_STABLE
void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task, struct doca_buf *buf);

/** @brief Id of the producer whose message completed the task (valid after a successful completion). */
DOCA_STABLE
uint32_t doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task);

/** @brief The immediate data received with the message (NULL when none). */
DOCA_STABLE
const uint8_t *doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task);

/** @brief Length of the immediate data received with the message. */
DOCA_STABLE
uint32_t doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task);

/** @brief The task's generic view (NULL for a NULL task). */
DOCA_STABLE
struct doca_task *doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_CONSUMER_H_ */
