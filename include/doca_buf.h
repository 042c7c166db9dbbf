/**
 * @file doca_buf.h
 * @brief Buffers: windows into a memory map, their data sections and lists.
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

/**
 * @struct doca_buf
 * A buffer: a window [head, head + len) of a started memory map and, inside
 * it, a data section [data, data + data_len).  It never owns the bytes.
 * Buffers come from an inventory or a pool and chain into lists; the first
 * element (the head) stands for the whole list and alone carries a reference
 * count: the buffer returns to its inventory or pool when that count drops to 0.
 */
struct doca_buf;

/* ---- reference counting (heads only); outputs get the count before the change ---- */

/**
 * @brief Takes one more reference on a buffer (list heads only).
 *
 * @param buf the head of a list, or a standalone buffer.
 * @param refcount receives the count before the change; may be NULL.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf is NULL;
 * DOCA_ERROR_NOT_PERMITTED when @p buf is an inner list element;
 * DOCA_ERROR_TOO_BIG when the count is already UINT16_MAX.
 */
DOCA_STABLE
doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount);

/**
 * @brief Drops one reference; at 0 the buffer and everything chained behind it go back to their inventory or pool.
 *
 * Never use a buffer whose last reference you dropped.
 *
 * @param buf the head of a list, or a standalone buffer.
 * @param refcount receives the count before the change; may be NULL.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf is NULL;
 * DOCA_ERROR_NOT_PERMITTED when @p buf is an inner list element;
 * DOCA_ERROR_BAD_STATE when its count is already 0.
 */
DOCA_STABLE
doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount);

/**
 * @brief The reference count of a buffer (1 when just allocated).
 *
 * @param buf the buffer (any element of a list).
 * @param refcount receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount);

/* ---- geometry of one element ---- */

/**
 * @brief The length of the buffer's window, from its head.
 *
 * @param buf the buffer (any element of a list).
 * @param len receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len);

/**
 * @brief The start of the buffer's window.
 *
 * @param buf the buffer (any element of a list).
 * @param head receives it (an address in the memory map's range; for a map created from an export, the exporter's address).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head);

/**
 * @brief The length of the data section.
 *
 * @param buf the buffer (any element of a list).
 * @param data_len receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len);

/**
 * @brief The start of the data section.
 *
 * @param buf the buffer (any element of a list).
 * @param data receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data);

/**
 * @brief Moves the data section; it must stay inside [head, head + len).
 *
 * Do not call it on a buffer that a task in flight uses.
 *
 * @param buf the buffer.
 * @param data the new start.
 * @param data_len the new length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf or @p data is NULL
 * or the section would leave the window (the buffer is then unchanged).
 */
DOCA_STABLE
doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len);

/**
 * @brief Changes the length of the data section, keeping its start.
 *
 * @param buf the buffer.
 * @param data_len the new length; data + data_len must stay within the window.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf is NULL or the
 * section would leave the window (the buffer is then unchanged).
 */
DOCA_STABLE
doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len);

/**
 * @brief Empties the data section, keeping its start (for example before reusing a destination).
 *
 * @param buf the buffer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_reset_data_len(struct doca_buf *buf);

/* ---- lists ---- */

/**
 * @brief The element after this one in its list.
 *
 * @param buf the buffer (any element of a list).
 * @param next_buf receives it, NULL for the last element.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf);

/**
 * @brief The last element of the buffer's list.
 *
 * @param buf the buffer (any element of a list).
 * @param last_buf receives it (the buffer itself when standalone).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf);

/**
 * @brief Whether the buffer is the last element of its list.
 *
 * @param buf the buffer (any element of a list).
 * @param is_last receives 1 or 0 (1 for a standalone buffer).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last);

/**
 * @brief Whether the buffer is the head of its list.
 *
 * @param buf the buffer (any element of a list).
 * @param is_first receives 1 or 0 (1 for a standalone buffer).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first);

/**
 * @brief Whether the buffer is chained with at least one other.
 *
 * @param buf the buffer (any element of a list).
 * @param is_in_list receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list);

/**
 * @brief How many elements the list headed by a buffer has (1 when standalone).
 *
 * @param buf the head.
 * @param num_elements receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_PERMITTED when @p buf is not a head.
 */
DOCA_STABLE
doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements);

/**
 * @brief Appends the list headed by @p list2 to the list headed by @p list1.
 *
 * @p list2 stops being a head: from then on the list is released as one
 * through @p list1.  A DMA task then copies the data sections of every element in order.
 *
 * @param list1 the head of the first list.
 * @param list2 the head of the list to append; its reference count must be 1.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p list2 is already in @p list1's list;
 * DOCA_ERROR_NOT_PERMITTED when either is not a head or @p list2's count is not 1.
 */
DOCA_STABLE
doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2);

/**
 * @brief doca_buf_chain_list() with the caller naming the last element of the first list (no walk).
 *
 * @param list1_head the head of the first list.
 * @param list1_tail its last element.
 * @param list2 the head of the list to append; its reference count must be 1.
 * @return as doca_buf_chain_list(), and DOCA_ERROR_INVALID_VALUE when
 * @p list1_tail is not the last element of @p list1_head's list.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head, struct doca_buf *list1_tail, struct doca_buf *list2);

/**
 * @brief Splits a list just before @p list2, which becomes the head of the rest.
 *
 * @param list1 the head of the list.
 * @param list2 an element of it other than the head.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, @p list2 is not in the list or is @p list1;
 * DOCA_ERROR_NOT_PERMITTED when @p list1 is not a head.
 */
DOCA_STABLE
doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_H_ */
