/*
 * doca_buf.h - buffer descriptors (softdoca).
 *
 * A doca_buf describes a window [head, head + len) of a memory map and,
 * inside it, a data section [data, data + data_len).  It never owns the
 * bytes.  Buffers can be chained into lists; the first element (the head)
 * stands for the whole list and alone carries a reference count.
 */
#ifndef DOCA_BUF_H_
#define DOCA_BUF_H_

#include <stdint.h>
#include <stddef.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;

/* ---- reference counting (heads only); outputs get the count before the change ---- */

DOCA_STABLE
doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount);

/* Reaching zero returns the buffer and everything chained behind it. */
DOCA_STABLE
doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount);

DOCA_STABLE
doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount);

/* ---- geometry of one element ---- */

DOCA_STABLE
doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len);

DOCA_STABLE
doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head);

DOCA_STABLE
doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len);

DOCA_STABLE
doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data);

/* Moves the data section; it must stay inside [head, head + len). */
DOCA_STABLE
doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len);

DOCA_STABLE
doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len);

/* Empties the data section, keeping its start. */
DOCA_STABLE
doca_error_t doca_buf_reset_data_len(struct doca_buf *buf);

/* ---- lists ---- */

DOCA_STABLE
doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf);

DOCA_STABLE
doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf);

DOCA_STABLE
doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last);

DOCA_STABLE
doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first);

DOCA_STABLE
doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list);

/* Elements of the list headed by `buf` (1 when standalone). */
DOCA_STABLE
doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements);

/* Appends the list headed by `list2` (refcount 1) to the list headed by `list1`. */
DOCA_STABLE
doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2);

/* doca_buf_chain_list with the caller naming the current last element of list 1. */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head, struct doca_buf *list1_tail, struct doca_buf *list2);

/* Splits the list headed by `list1` just before `list2`, which becomes a head. */
DOCA_STABLE
doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_H_ */
