/*
 * buf.c - buffer descriptors: reference counts, geometry, lists.
 *
 * List bookkeeping (struct doca_buf in sd_mem.h): every element points at
 * its list head through `first` and at the following element through
 * `next`; the head alone keeps `last` and `list_len` up to date.  Inner
 * elements read refcount 1 and refuse reference changes.  A standalone
 * buffer is a list of one whose head is itself.
 */
#include <doca_buf.h>

#include "mem_priv.h"
#include "sd_log.h"
#include "sd_mem.h"

static inline bool sd_buf_is_head(const struct doca_buf *buf)
{
	return buf->first == buf;
}

/* Reject an inner list element where a head is needed. */
#define SD_BUF_REQUIRE_HEAD(b, what)                                                               \
	do {                                                                                       \
		if (!sd_buf_is_head(b))                                                            \
			return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,                                 \
					 "buf %p is an inner element of the list headed by %p; %s", \
					 (const void *)(b), (const void *)(b)->first, what);       \
	} while (0)

/* Give one element back to the inventory or pool it came from. */
static void sd_buf_release_one(struct doca_buf *buf)
{
	if (buf->counted)
		buf->mmap->num_bufs--;
	enum sd_buf_owner owner = (enum sd_buf_owner)buf->owner;
	void *owner_obj = buf->owner_obj;

	buf->counted = false;
	buf->dma_reserved = 0;
	buf->dma_writers = 0;
	buf->mmap = NULL;
	buf->next = NULL;
	buf->first = buf;
	buf->last = buf;
	buf->list_len = 1;
	buf->refcount = 0;
	buf->owner = SD_BUF_FREE;
	if (owner == SD_BUF_POOL)
		sd_pool_take_back(owner_obj, buf);
	else
		sd_inventory_take_back(owner_obj, buf);
}

/* Release a whole list, head first (a list is released through its head). */
static void sd_buf_release_list(struct doca_buf *head)
{
	struct doca_buf *cur = head;
	while (cur != NULL) {
		struct doca_buf *next = cur->next;
		sd_buf_release_one(cur);
		cur = next;
	}
}

DOCA_STABLE
doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_BUF_REQUIRE_HEAD(buf, "only a list head carries a reference count");
	if (buf->refcount == UINT16_MAX)
		return SD_REJECT(DOCA_ERROR_TOO_BIG, "buf %p already holds the maximum of %u references",
				 (void *)buf, (unsigned)UINT16_MAX);
	if (refcount != NULL)
		*refcount = buf->refcount;
	buf->refcount++;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_BUF_REQUIRE_HEAD(buf, "only a list head carries a reference count");
	if (refcount != NULL)
		*refcount = buf->refcount;
	if (--buf->refcount == 0)
		sd_buf_release_list(buf);
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(refcount, "refcount");
	*refcount = buf->refcount;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(len, "len");
	*len = buf->len;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(head, "head");
	*head = buf->head;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(data_len, "data_len");
	*data_len = buf->data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(data, "data");
	*data = buf->data;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(data, "data");
	if (!sd_range_no_overflow((uintptr_t)data, data_len) ||
	    !sd_range_inside((uintptr_t)data, data_len, (uintptr_t)buf->head, buf->len))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "data section [%p, +%zu) is outside buf %p [%p, +%zu)", data, data_len,
				 (void *)buf, (void *)buf->head, buf->len);
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len)
{
	SD_MEM_REQUIRE_BUF(buf);
	size_t room = buf->len - (size_t)(buf->data - buf->head);
	if (data_len > room)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "data_len %zu exceeds the %zu bytes between data and the end of buf %p", data_len,
				 room, (void *)buf);
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_reset_data_len(struct doca_buf *buf)
{
	SD_MEM_REQUIRE_BUF(buf);
	buf->data_len = 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(next_buf, "next_buf");
	*next_buf = buf->next;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(last_buf, "last_buf");
	*last_buf = buf->first->last;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(is_last, "is_last");
	*is_last = buf->next == NULL ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(is_first, "is_first");
	*is_first = sd_buf_is_head(buf) ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(is_in_list, "is_in_list");
	*is_in_list = buf->first->list_len > 1 ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements)
{
	SD_MEM_REQUIRE_BUF(buf);
	SD_MEM_REQUIRE_ARG(num_elements, "num_elements");
	SD_BUF_REQUIRE_HEAD(buf, "only a list head knows the list length");
	*num_elements = buf->list_len;
	return DOCA_SUCCESS;
}

/*
 * Checks shared by chain_list and chain_list_tail: both heads,
 * different lists, list2 held by exactly one reference.
 */
static doca_error_t sd_buf_chain_check(const char *func, struct doca_buf *list1, struct doca_buf *list2)
{
	if (list1->first == list2->first)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
					"buf %p and buf %p belong to the same list; chaining would make a cycle",
					(void *)list1, (void *)list2);
	if (!sd_buf_is_head(list1) || !sd_buf_is_head(list2))
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"both arguments must be list heads (buf %p heads %p, buf %p heads %p)",
					(void *)list1, (void *)list1->first, (void *)list2, (void *)list2->first);
	if (list2->refcount != 1)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_NOT_PERMITTED,
					"buf %p has refcount %u; only a list with refcount 1 can be appended",
					(void *)list2, (unsigned)list2->refcount);
	if (list1->list_len > UINT32_MAX - list2->list_len)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
					"joined list of buf %p and buf %p would exceed %u elements", (void *)list1,
					(void *)list2, UINT32_MAX);
	return DOCA_SUCCESS;
}

/* Append the checked list `list2` after `tail`, the last element of `list1`. */
static void sd_buf_append(struct doca_buf *list1, struct doca_buf *tail, struct doca_buf *list2)
{
	for (struct doca_buf *cur = list2; cur != NULL; cur = cur->next)
		cur->first = list1;
	tail->next = list2;
	list1->last = list2->last;
	list1->list_len += list2->list_len;
	/* list2 is an inner element now: it reads refcount 1 and keeps no list state. */
	list2->refcount = 1;
	list2->last = list2;
	list2->list_len = 1;
}

DOCA_STABLE
doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	SD_MEM_REQUIRE_BUF(list1);
	SD_MEM_REQUIRE_BUF(list2);
	doca_error_t err = sd_buf_chain_check(__func__, list1, list2);
	if (err != DOCA_SUCCESS)
		return err;
	sd_buf_append(list1, list1->last, list2);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head, struct doca_buf *list1_tail, struct doca_buf *list2)
{
	SD_MEM_REQUIRE_BUF(list1_head);
	SD_MEM_REQUIRE_BUF(list1_tail);
	SD_MEM_REQUIRE_BUF(list2);
	doca_error_t err = sd_buf_chain_check(__func__, list1_head, list2);
	if (err != DOCA_SUCCESS)
		return err;
	if (list1_head->last != list1_tail)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "buf %p is not the last element of the list headed by %p",
				 (void *)list1_tail, (void *)list1_head);
	sd_buf_append(list1_head, list1_tail, list2);
	return DOCA_SUCCESS;
}

DOCA_STABLE
doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	SD_MEM_REQUIRE_BUF(list1);
	SD_MEM_REQUIRE_BUF(list2);
	SD_BUF_REQUIRE_HEAD(list1, "unchain needs the head of the list to cut");
	if (list2 == list1 || list2->first != list1)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "buf %p is not an inner element of the list headed by %p",
				 (void *)list2, (void *)list1);

	/* Find the element before the cut; everything up to it stays with list1. */
	uint32_t kept = 1;
	struct doca_buf *prev = list1;
	while (prev->next != list2) {
		prev = prev->next;
		kept++;
	}
	prev->next = NULL;

	list2->last = list1->last;
	list2->list_len = list1->list_len - kept;
	list2->refcount = 1;
	for (struct doca_buf *cur = list2; cur != NULL; cur = cur->next)
		cur->first = list2;

	list1->last = prev;
	list1->list_len = kept;
	return DOCA_SUCCESS;
}
