/*
 * comch_ring.c - the queue of CONNECT events from a server's I/O thread
 * (the one producer) to its progress thread (the one consumer).
 *
 * Entries are allocated once at context start, one per connection slot;
 * passing an event costs two atomic index updates, no allocation, no lock.
 * Indices run freely and are reduced modulo the capacity.
 *
 * The tail is published and read with sequentially consistent ordering:
 * the producer stores the tail and then looks whether the PE is armed,
 * while doca_pe_request_notification arms and then looks at the tail; with
 * both sides sequentially consistent one of them always sees the other, so
 * no wake-up is lost.
 */
#include <stdlib.h>
#include <string.h>

#include "comch_priv.h"

doca_error_t sd_comch_ring_init(struct sd_comch_ring *ring, uint32_t cap)
{
	memset(ring, 0, sizeof(*ring));
	ring->ev = calloc(cap, sizeof(*ring->ev));
	if (ring->ev == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ring->cap = cap;
	atomic_init(&ring->head, 0);
	atomic_init(&ring->tail, 0);
	return DOCA_SUCCESS;
}

void sd_comch_ring_fini(struct sd_comch_ring *ring)
{
	free(ring->ev);
	ring->ev = NULL;
	ring->cap = 0;
}

/* Producer: the next free entry, or NULL when the ring is full. */
struct sd_comch_ev *sd_comch_ring_reserve(struct sd_comch_ring *ring)
{
	unsigned tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
	unsigned head = atomic_load_explicit(&ring->head, memory_order_acquire);

	if (tail - head >= ring->cap)
		return NULL;
	return &ring->ev[tail % ring->cap];
}

/* Producer: publish the entry returned by the last reserve. */
void sd_comch_ring_commit(struct sd_comch_ring *ring)
{
	unsigned tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);

	atomic_store(&ring->tail, tail + 1);
}

/* Consumer: the oldest published entry, or NULL. */
struct sd_comch_ev *sd_comch_ring_peek(struct sd_comch_ring *ring)
{
	unsigned head;

	if (ring->cap == 0)
		return NULL;
	head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	if (atomic_load(&ring->tail) == head)
		return NULL;
	return &ring->ev[head % ring->cap];
}

bool sd_comch_ring_empty(struct sd_comch_ring *ring)
{
	if (ring->cap == 0)
		return true;
	return atomic_load(&ring->tail) == atomic_load_explicit(&ring->head, memory_order_relaxed);
}

/* Consumer: release the oldest entry. */
void sd_comch_ring_pop(struct sd_comch_ring *ring)
{
	unsigned head = atomic_load_explicit(&ring->head, memory_order_relaxed);

	atomic_store_explicit(&ring->head, head + 1, memory_order_release);
}
