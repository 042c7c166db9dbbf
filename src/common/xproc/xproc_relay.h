/*
 * xproc_relay.h - watching the record of a process that handed an export on.
 *
 * A DPU that re-exports a PCI import for RDMA (xproc_reexport.c) keeps a
 * validity record of its own, a relay record, and names it in the RDMA
 * descriptor.  Whoever lets a peer use that descriptor must stop once the
 * relay revokes it: the record's state word turns dead (the DPU destroyed
 * its import) or nobody holds the record's liveness lock any more (the DPU
 * process died).  Two parties watch it, with this one code:
 *   - an importer on this machine, at each access (xproc_access.c);
 *   - the host's UCX export server, for each peer that presented a
 *     re-exported descriptor (ucx_server.c, in the UCX module, which gets
 *     these three functions in the table xproc_ucx.c hands it at load).
 * The host and the DPU always run on one machine (one box, joined by PCI),
 * so the host can open the DPU's record by the name the descriptor gives.
 *
 * The descriptor the relay hands out carries a token of the relay's own
 * (the relay token), not the host's: a peer that strips the relay's name
 * from its copy then holds a plain descriptor whose token no host export
 * knows.  The relay record holds the relay token and names the host export
 * it hands on, with that export's token; a watcher accepts a relayed
 * descriptor only when the record holds the token shown and names the
 * export, and takes the host's token from the record (up_token below).
 */
#ifndef SD_XPROC_RELAY_H
#define SD_XPROC_RELAY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "xproc_desc.h"

/* Which relay record a re-exported descriptor names, and the range it must cover. */
struct sd_xp_relay_id {
	uint32_t pid;         /* the relaying process, in its PID namespace */
	uint32_t export_id;   /* its record's export id */
	uint64_t start_time;  /* its start time (clock ticks after boot) */
	uint64_t addr, len;   /* the exported range the record must name */
	uint8_t token[SD_XP_TOKEN_LEN]; /* the relay token shown, which the record must hold */
	uint64_t up_export_id; /* the host export the record must hand on: its id ... */
	uint32_t up_generation; /* ... and generation */
};

/* The relay record a descriptor with SD_XP_FLAG_RELAY names. */
static inline struct sd_xp_relay_id sd_xp_relay_id_of(const struct sd_xp_desc *d)
{
	struct sd_xp_relay_id id = {
		.pid = d->relay.pid,
		.export_id = d->relay.export_id,
		.start_time = d->relay.start_time,
		.addr = d->addr,
		.len = d->len,
		.up_export_id = d->export_id,
		.up_generation = d->generation,
	};

	memcpy(id.token, d->token, sizeof(id.token));
	return id;
}

/* An open watch on a relay record; zero it and set fd to -1 before use. */
struct sd_xp_relay_watch {
	void *page;                    /* the record, mapped read-only; NULL when there is none to watch */
	const _Atomic uint32_t *state; /* its state word, inside page */
	int fd;                        /* kept open to ask about the lock; -1 when none or the relay is us */
	_Atomic uint64_t next_check_ns; /* throttle of the lock question */
	_Atomic bool revoked;           /* seen revoked once: for good */
	uint8_t up_token[SD_XP_TOKEN_LEN]; /* the host export's token, from the record; zero when none */
	bool unbound; /* open refused a record that is there: another token, or another host export */
};

/*
 * Map the relay record `id` names.  True when it is there, holds the relay
 * token shown, names the same range and host export and is still live
 * (state word and lock); `w` then watches it, w->up_token is the host
 * export's token, and sd_xp_relay_close must release it.  False when the
 * relay revoked already, or the name or token is forged: `w` holds nothing,
 * and w->unbound is true when the record was there but holds another token
 * or hands on another export (a forgery, not a revocation).
 */
bool sd_xp_relay_open(struct sd_xp_relay_watch *w, const struct sd_xp_relay_id *id);

/*
 * Is the relay still handing the export on?  Its state word at every call
 * (a plain load); whether its process still holds the record's lock at
 * most once per tick of the coarse clock (1 to 4 ms), one fcntl.  True for
 * a watch that holds nothing.  Once false, it stays false.
 */
bool sd_xp_relay_live(struct sd_xp_relay_watch *w);

/* The lock half of sd_xp_relay_live, throttled the same way (importers load the state word inline). */
bool sd_xp_relay_lock_ok(struct sd_xp_relay_watch *w);

/* Release what sd_xp_relay_open took; `w` then holds nothing. */
void sd_xp_relay_close(struct sd_xp_relay_watch *w);

#endif /* SD_XPROC_RELAY_H */
