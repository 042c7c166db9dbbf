/*
 * se_priv.h - what the files of the sync event share.
 *
 * Pieces, one per file:
 *   se_event.c   objects: create, destroy, locations, the value's home, start/stop
 *   se_home.c    where the value lives: a private word, the application's
 *                memory, or a shared page in /dev/shm that other processes map
 *   se_value.c   the CPU calls: get, update, the waits (futex)
 *   se_desc.c    the export descriptor's bytes (pure, also built by the fuzzer)
 *   se_export.c  exports and imports (remote PCI, remote net) and the RDMA entry point
 *   se_ctx.c     the event as a context: start/stop hooks, the notification watcher
 *   se_task.c    the five task types
 *   se_caps.c    capability queries, DPA and GPU answers
 */
#ifndef SD_SE_PRIV_H
#define SD_SE_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_sync_event.h>

#include "sd_exec.h"
#include "se_desc.h"

/*
 * The shared page behind an exportable event: one per started period, a
 * file in /dev/shm the exporter keeps open with an OFD read lock.  The
 * kernel drops that lock when the exporter exits, which is how importers
 * learn that it died; `state` tells them that it stopped.
 */
#define SD_SE_PAGE_MAGIC 0x50455345u /* "ESEP" */
#define SD_SE_PAGE_LIVE 1u
#define SD_SE_PAGE_STOPPED 2u
#define SD_SE_PAGE_SIZE 4096u

/*
 * How waiters sleep: `seq` is the futex word every update bumps; `waiters`
 * counts sleepers, so an update makes the wake-up system call only when
 * someone sleeps.
 */
struct sd_se_sync {
	_Atomic uint32_t seq;
	_Atomic uint32_t waiters;
};

struct sd_se_page {
	uint32_t magic;
	_Atomic uint32_t state;
	uint32_t exporter_pid;
	uint32_t reserved;
	_Atomic uint64_t value;
	struct sd_se_sync sync;
	uint8_t token[SD_SE_TOKEN_LEN];
};

/* Where the value of a started event lives. */
enum sd_se_home_kind {
	SD_SE_HOME_NONE = 0, /* not started */
	SD_SE_HOME_PRIVATE,  /* a word inside the event (no remote location) */
	SD_SE_HOME_APP,      /* set_addr / set_doca_buf: the application's memory */
	SD_SE_HOME_SHARED,   /* a shared page this process created (exportable) */
	SD_SE_HOME_IMPORTED, /* a shared page another process exported */
};

/* Location flags (publisher or subscriber). */
#define SD_SE_LOC_CPU 0x1u
#define SD_SE_LOC_PCI 0x2u
#define SD_SE_LOC_NET 0x4u

/* A mapped shared page and how to tell whether its exporter still lives. */
struct sd_se_map {
	struct sd_se_page *page;
	int fd;                       /* exporter: holds the lock; importer: asks about it */
	char name[SD_SE_NAME_LEN + 1]; /* /dev/shm name (exporter unlinks it at stop) */
	bool owner;                   /* this process created it */
	uint32_t owner_pid;           /* the creating process (a fork child does not retire it) */
	_Atomic uint64_t next_check_ns; /* importer: throttle of the lock check */
	_Atomic int dead;             /* importer: sticky once the exporter was seen gone */
};

extern const struct sd_ctx_ops sd_se_ctx_ops;

#define SD_SE_MAGIC 0x56455345u     /* "ESEV" */
#define SD_SE_NET_MAGIC 0x4e455345u /* "ESEN" */

enum sd_se_state {
	SD_SE_CREATED = 0,
	SD_SE_STARTED = 1, /* stand-alone start */
};

struct doca_sync_event {
	struct doca_ctx ctx; /* first: the framework casts between the two */
	uint32_t magic;
	enum sd_se_state state;
	bool as_ctx;          /* doca_sync_event_as_ctx was called: the context drives start/stop */
	bool imported;        /* created from a remote-PCI export */
	uint32_t pub, sub;    /* SD_SE_LOC_* */
	uint64_t *app_addr;   /* set_addr / set_doca_buf, or NULL */
	enum sd_se_home_kind home;
	_Atomic uint64_t *value; /* the word, wherever it lives (NULL when not started) */
	struct sd_se_sync *sync; /* how its waiters sleep */
	_Atomic uint64_t private_value;
	struct sd_se_sync private_sync;
	struct sd_se_map map;    /* SHARED and IMPORTED homes */
	struct sd_se_desc import_desc; /* IMPORTED: what the descriptor said */
	uint8_t desc_pci[SD_SE_DESC_LEN], desc_net[SD_SE_DESC_MAX_LEN]; /* exports of the current start */
	bool desc_pci_ok, desc_net_ok;
	size_t desc_net_len;          /* SD_SE_DESC_LEN, or longer with the network part (se_net.c) */
	struct doca_mmap *net_mmap;   /* the page as memory exported for RDMA, while a network part exists */
	struct doca_dev *net_dev;     /* the device that export went through */
	/* Notification watcher (se_ctx.c): a thread that kicks the PE on updates. */
	pthread_t watcher;
	bool watcher_on;
	_Atomic bool watcher_stop;
	uint32_t watch_from; /* the update count when the watcher was started */
	uint64_t watch_value_from; /* the value then: updates over the network leave the count alone (se_net.c) */
};

struct doca_sync_event_remote_net {
	uint32_t magic;
	struct sd_se_map map;
	struct sd_se_desc desc;
	struct doca_mmap *net_mmap; /* the exporter's page imported over the network; NULL: mapped here (map) */
	uint64_t net_value;         /* the value's address in the exporter (net_mmap) */
};

/* Task types, in registration order. */
enum {
	SD_SE_TASK_GET = 0,
	SD_SE_TASK_NOTIFY_SET = 1,
	SD_SE_TASK_NOTIFY_ADD = 2,
	SD_SE_TASK_WAIT_EQ = 3,
	SD_SE_TASK_WAIT_NEQ = 4,
	SD_SE_NUM_TASK_TYPES = 5,
};

extern const struct sd_task_ops sd_se_get_ops, sd_se_notify_set_ops, sd_se_notify_add_ops, sd_se_wait_eq_ops,
	sd_se_wait_neq_ops;

/* `ev` is a live event: the embedded context's first word first, so a smaller foreign object is never read past its end. */
static inline bool sd_se_is_valid(const struct doca_sync_event *ev)
{
	return ev != NULL && ev->ctx.magic == SD_CTX_MAGIC && ev->ctx.ops == &sd_se_ctx_ops && ev->magic == SD_SE_MAGIC;
}

/* Started: stand-alone, or as a RUNNING context. */
static inline bool sd_se_started(const struct doca_sync_event *ev)
{
	return ev->state == SD_SE_STARTED || (ev->as_ctx && ev->ctx.state == DOCA_CTX_STATE_RUNNING);
}

/* se_event.c: a new event in the created state; `dev` (may be NULL) is held by its context. */
doca_error_t sd_se_new(struct doca_dev *dev, struct doca_sync_event **out, const char *func);
/* The common argument check of the public calls; logs on behalf of `func`. */
doca_error_t sd_se_check(const struct doca_sync_event *ev, const char *func);
/* Same, and the event must be started. */
doca_error_t sd_se_check_started(const struct doca_sync_event *ev, const char *func);

/* se_home.c */
doca_error_t sd_se_home_open(struct doca_sync_event *ev, const char *func);
void sd_se_home_close(struct doca_sync_event *ev);
/* Create, map and lock a fresh shared page (exporter side). */
doca_error_t sd_se_map_create(struct sd_se_map *map, const char *func);
/* Map the page a descriptor names, checking its identity and liveness (importer side). */
doca_error_t sd_se_map_attach(struct sd_se_map *map, const struct sd_se_desc *d, const char *func);
/* Unmap; the creating process also marks the page stopped, wakes waiters and unlinks it. */
void sd_se_map_close(struct sd_se_map *map);
/*
 * Whether the exporter behind an imported page is still there and running:
 * the page's state (one load) and, at most every SD_SE_LIVENESS_NS, the lock.
 */
bool sd_se_map_alive(struct sd_se_map *map);
#define SD_SE_LIVENESS_NS (20ull * 1000 * 1000)

/* After an update: bump the futex word and wake every sleeper, in any process. */
void sd_se_wake(struct sd_se_sync *sync);
/*
 * Sleep until `sync` moves away from `seen` or `timeout_ns` passes (spurious
 * returns allowed: callers look at the value again).
 */
void sd_se_sleep(struct sd_se_sync *sync, uint32_t seen, uint64_t timeout_ns);

/* se_value.c: liveness of whatever backs `ev` (true for homes this process owns). */
static inline bool sd_se_value_alive(struct doca_sync_event *ev)
{
	return ev->home != SD_SE_HOME_IMPORTED || sd_se_map_alive(&ev->map);
}

/* The three atomic operations on a word, each followed by a wake. */
uint64_t sd_se_op_set(_Atomic uint64_t *value, struct sd_se_sync *sync, uint64_t v);
uint64_t sd_se_op_add(_Atomic uint64_t *value, struct sd_se_sync *sync, uint64_t v);

/* Comparisons of the waits. */
enum sd_se_cmp { SD_SE_CMP_EQ, SD_SE_CMP_NEQ, SD_SE_CMP_GT };
static inline bool sd_se_matches(uint64_t cur, enum sd_se_cmp cmp, uint64_t want, uint64_t mask)
{
	uint64_t v = cur & mask;

	return cmp == SD_SE_CMP_EQ ? v == want : cmp == SD_SE_CMP_NEQ ? v != want : v > want;
}

/* se_ctx.c: stop the watcher thread (context release). */
void sd_se_watcher_stop(struct doca_sync_event *ev);
/* Start it (first arm of a wait task). */
void sd_se_watcher_start(struct doca_sync_event *ev);

/*
 * se_net.c: remote-net events across namespaces and machines.  The
 * exporter adds its page's RDMA export to the descriptor when this process
 * offers a network endpoint (returns the descriptor's length; failures are
 * WARNINGs, the export then stands for this machine); an importer in
 * another namespace reaches the value through that export.
 */
size_t sd_se_net_export(struct doca_sync_event *ev, const char *func);
void sd_se_net_export_close(struct doca_sync_event *ev);
bool sd_se_net_wanted(const struct sd_se_desc *d);
doca_error_t sd_se_net_import(struct doca_sync_event_remote_net *rn, struct doca_dev *dev, const uint8_t *data,
			      const struct sd_se_desc *d, const char *func);
void sd_se_net_import_close(struct doca_sync_event_remote_net *rn);
/* One operation on the value over the network; the value before it in *old. */
doca_error_t sd_se_net_apply(struct doca_sync_event_remote_net *rn, int op, uint64_t operand, uint64_t *old);

/* Monotonic nanoseconds (coarse clock: no system call). */
uint64_t sd_se_now_ns(void);

#endif /* SD_SE_PRIV_H */
