/*
 * alive.c - the registry of live objects: devices, progress engines,
 * contexts, memory maps, buffer inventories and pools.
 *
 * Objects are added when they come to life and removed before they are
 * freed, by one hook line in their create/destroy calls.  The registry
 * answers "what is still alive, and which call would release it" for the
 * errors of calls refused because of it (doca_pe_destroy, doca_dev_close,
 * doca_<ctx>_destroy), for the report at exit, and it is the list the
 * watchdog walks.  None of this is on a per-task path, so one mutex is
 * enough.  A forked child inherits the table; entries remember the
 * process that made them, so the child never reports its parent's objects.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug_priv.h"
#include "sd_exec.h"

#define SD_ALIVE_KINDS 6

static struct {
	pthread_mutex_t lock;
	struct sd_alive_entry *v;
	size_t n, cap;
	uint32_t serial[SD_ALIVE_KINDS];
	bool out_of_memory; /* an object could not be registered: reports may miss it */
} sd_alive = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

void sd_alive_lock(void)
{
	pthread_mutex_lock(&sd_alive.lock);
}

void sd_alive_unlock(void)
{
	pthread_mutex_unlock(&sd_alive.lock);
}

/* Objects are mostly destroyed in the reverse order of creation: search from the end. */
static ptrdiff_t sd_alive_index_locked(const void *obj)
{
	for (size_t i = sd_alive.n; i > 0; i--)
		if (sd_alive.v[i - 1].obj == obj)
			return (ptrdiff_t)(i - 1);
	return -1;
}

struct sd_alive_entry *sd_alive_find_locked(const void *obj)
{
	ptrdiff_t i = sd_alive_index_locked(obj);

	return i < 0 ? NULL : &sd_alive.v[i];
}

size_t sd_alive_count_locked(void)
{
	return sd_alive.n;
}

struct sd_alive_entry *sd_alive_at_locked(size_t i)
{
	return &sd_alive.v[i];
}

static bool sd_alive_grow_locked(void)
{
	size_t cap = sd_alive.cap ? sd_alive.cap * 2 : 64;
	struct sd_alive_entry *v = realloc(sd_alive.v, cap * sizeof(*v));

	if (v == NULL)
		return false;
	sd_alive.v = v;
	sd_alive.cap = cap;
	return true;
}

static void sd_alive_fill(struct sd_alive_entry *e, enum sd_alive_kind kind, void *obj)
{
	memset(e, 0, sizeof(*e));
	e->obj = obj;
	e->kind = kind;
	e->pid = getpid();
	e->serial = ++sd_alive.serial[kind];
}

void sd_alive_add(enum sd_alive_kind kind, void *obj)
{
	struct sd_alive_entry *e;

	sd_debug_announce();
	sd_alive_lock();
	e = sd_alive_find_locked(obj);
	if (e != NULL && e->kind == kind) {
		sd_alive_unlock(); /* a device opened again: one entry while it is open */
		return;
	}
	if (e != NULL) {
		/* Freed without its hook and the memory reused: the new object replaces it. */
		free(e->stop_reason);
		sd_alive_fill(e, kind, obj);
		sd_alive_unlock();
		return;
	}
	if (sd_alive.n == sd_alive.cap && !sd_alive_grow_locked()) {
		sd_alive.out_of_memory = true;
		sd_alive_unlock();
		return;
	}
	sd_alive_fill(&sd_alive.v[sd_alive.n++], kind, obj);
	sd_alive_unlock();
}

void sd_alive_add_bufs(enum sd_alive_kind kind, void *obj, sd_alive_bufs_fn count)
{
	struct sd_alive_entry *e;

	sd_alive_add(kind, obj);
	sd_alive_lock();
	e = sd_alive_find_locked(obj);
	if (e != NULL && e->kind == kind)
		e->count_bufs = count;
	sd_alive_unlock();
}

void sd_alive_remove(void *obj)
{
	ptrdiff_t i;

	sd_alive_lock();
	i = sd_alive_index_locked(obj);
	if (i >= 0) {
		free(sd_alive.v[i].stop_reason);
		/* Keep creation order: the exit report lists objects as they were made. */
		memmove(&sd_alive.v[i], &sd_alive.v[i + 1], (sd_alive.n - (size_t)i - 1) * sizeof(sd_alive.v[0]));
		sd_alive.n--;
	}
	sd_alive_unlock();
}

uint32_t sd_alive_pe_serial(const struct doca_pe *pe)
{
	const struct sd_alive_entry *e;
	uint32_t serial = 0;

	sd_alive_lock();
	e = sd_alive_find_locked(pe);
	if (e != NULL)
		serial = e->serial;
	sd_alive_unlock();
	return serial;
}

/* ---- contexts and progress engines ---- */

void sd_debug_ctx_created(struct doca_ctx *ctx)
{
	sd_alive_add(SD_ALIVE_CTX, ctx);
}

void sd_debug_ctx_destroyed(struct doca_ctx *ctx)
{
	sd_alive_remove(ctx);
}

void sd_debug_pe_created(struct doca_pe *pe)
{
	sd_alive_add(SD_ALIVE_PE, pe);
	pe->debug_id = sd_alive_pe_serial(pe);
}

void sd_debug_pe_destroyed(struct doca_pe *pe)
{
	sd_alive_remove(pe);
}
