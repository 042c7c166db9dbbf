/*
 * lists.c - the arrays handed out by doca_devinfo_create_list and
 * doca_devinfo_rep_create_list.
 *
 * One allocation holds a small header, the NULL-terminated pointer array the
 * application sees, and the elements.  Live lists are remembered, so a
 * destroy call recognises a foreign or already destroyed pointer by address
 * alone, without reading memory the application handed in.
 */
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"

struct sd_list {
	struct sd_list *next; /* registry of live lists */
	enum sd_list_kind kind;
	uint32_t count;
	size_t elem_bytes;    /* bytes of element storage after the array */
	void *array[];        /* count pointers + NULL, then the elements */
};

static pthread_mutex_t sd_lists_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_list *sd_lists;

static size_t sd_round_up(size_t n, size_t align)
{
	return (n + align - 1) / align * align;
}

void **sd_list_create(enum sd_list_kind kind, uint32_t count, size_t elem_size)
{
	size_t stride = sd_round_up(elem_size, alignof(max_align_t));
	size_t head = sd_round_up(sizeof(struct sd_list) + ((size_t)count + 1) * sizeof(void *),
				  alignof(max_align_t));
	struct sd_list *l = calloc(1, head + (size_t)count * stride);
	char *elems;

	if (l == NULL)
		return NULL;
	l->kind = kind;
	l->count = count;
	l->elem_bytes = (size_t)count * stride;
	elems = (char *)l + head;
	for (uint32_t i = 0; i < count; i++)
		l->array[i] = elems + (size_t)i * stride;
	l->array[count] = NULL;

	pthread_mutex_lock(&sd_lists_lock);
	l->next = sd_lists;
	sd_lists = l;
	pthread_mutex_unlock(&sd_lists_lock);
	return l->array;
}

/* Unlink the live list whose array is `array`; NULL if there is none. */
static struct sd_list *sd_list_unlink(enum sd_list_kind kind, void **array)
{
	struct sd_list **pp;

	for (pp = &sd_lists; *pp != NULL; pp = &(*pp)->next) {
		struct sd_list *l = *pp;
		if (l->array == array && l->kind == kind) {
			*pp = l->next;
			return l;
		}
	}
	return NULL;
}

bool sd_list_destroy(enum sd_list_kind kind, void **array)
{
	struct sd_list *l;

	pthread_mutex_lock(&sd_lists_lock);
	l = sd_list_unlink(kind, array);
	pthread_mutex_unlock(&sd_lists_lock);
	if (l == NULL)
		return false;
	/* Clear the elements' magic numbers: a stale element is then refused. */
	if (l->count > 0)
		memset(l->array[0], 0, l->elem_bytes);
	free(l);
	return true;
}
