/*
 * xproc_relay.c - watching a relay record (xproc_relay.h).
 *
 * The record is the relaying process's own (xproc_record.c): one page whose
 * state word it flips to dead when it destroys its PCI import, and a file
 * on which it holds a read lock for as long as it lives.  The watcher maps
 * the page read-only and keeps the file open, so that the check is a load
 * of the state word and, now and then, one fcntl(F_GETLK).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xproc_priv.h"
#include "xproc_relay.h"

/* Is the relaying process this one?  Its own lock is invisible to F_GETLK here. */
static bool sd_xp_relay_is_self(const struct sd_xp_relay_id *id)
{
	struct sd_xp_identity me;

	return sd_xp_self(&me) == 0 && me.pid == id->pid && me.start_time == id->start_time;
}

/* Does some process hold a lock on record file `fd`? */
static bool sd_xp_relay_lock_held(int fd)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};

	/*
	 * Any holder will do: only the relaying process locks its record, and
	 * its pid may belong to another PID namespace, so it is not compared.
	 */
	return fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
}

/* Open the record file: /dev/shm first, then /tmp (where a relay without /dev/shm puts it). */
static int sd_xp_relay_file(const struct sd_xp_relay_id *id)
{
	char path[128];
	int fd = -1;

	for (int tmp = 0; tmp < 2 && fd < 0; tmp++) {
		sd_xp_record_path(path, sizeof(path), tmp != 0, id->pid, id->start_time, id->export_id);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	}
	return fd;
}

/* The record page of `fd`, mapped read-only; NULL when it is not a record. */
static struct sd_xp_record *sd_xp_relay_map(int fd)
{
	struct stat st;
	void *page;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)SD_XP_REC_SIZE)
		return NULL;
	page = mmap(NULL, SD_XP_REC_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	return page != MAP_FAILED ? page : NULL;
}

/*
 * Does `rec` hand on the export `id` names, to holders of the relay token
 * shown?  A record of an older build names no host export (its `up` is
 * zero) and fails here: its descriptors carried the host's token.
 */
static bool sd_xp_relay_binds(const struct sd_xp_record *rec, const struct sd_xp_relay_id *id)
{
	bool token_ok = sd_xp_token_equal(rec->token, id->token);

	return token_ok && rec->up.export_id == id->up_export_id && rec->up.generation == id->up_generation;
}

/*
 * `rec` when it is the live record `id` names; else NULL, and `rec` is
 * unmapped.  w->unbound tells a record that is there but does not hold the
 * token shown or hand on that export (a forgery) from one that is gone.
 */
static struct sd_xp_record *sd_xp_relay_checked(struct sd_xp_record *rec, const struct sd_xp_relay_id *id,
						struct sd_xp_relay_watch *w)
{
	if (rec == NULL)
		return NULL;
	if (rec->magic != SD_XP_REC_MAGIC || rec->pid != id->pid || rec->export_id != id->export_id ||
	    rec->addr != id->addr || rec->len != id->len) {
		munmap(rec, SD_XP_REC_SIZE);
		return NULL;
	}
	w->unbound = !sd_xp_relay_binds(rec, id);
	if (w->unbound || atomic_load_explicit(&rec->state, memory_order_acquire) != SD_XP_REC_LIVE) {
		munmap(rec, SD_XP_REC_SIZE);
		return NULL;
	}
	return rec;
}

/* Another process's record: kept open to ask about its lock; NULL (fd closed) when gone or dead. */
static struct sd_xp_record *sd_xp_relay_map_other(const struct sd_xp_relay_id *id, struct sd_xp_relay_watch *w)
{
	int fd = sd_xp_relay_file(id);
	struct sd_xp_record *rec;

	if (fd < 0)
		return NULL; /* revoked already, or forged */
	rec = sd_xp_relay_checked(sd_xp_relay_map(fd), id, w);
	if (rec != NULL && !sd_xp_relay_lock_held(fd)) {
		munmap(rec, SD_XP_REC_SIZE); /* died without retiring its record */
		rec = NULL;
	}
	if (rec == NULL)
		close(fd);
	else
		w->fd = fd;
	return rec;
}

bool sd_xp_relay_open(struct sd_xp_relay_watch *w, const struct sd_xp_relay_id *id)
{
	struct sd_xp_record *rec;

	w->page = NULL;
	w->state = NULL;
	w->fd = -1;
	atomic_store_explicit(&w->next_check_ns, 0, memory_order_relaxed);
	atomic_store_explicit(&w->revoked, false, memory_order_relaxed);
	w->unbound = false;
	memset(w->up_token, 0, sizeof(w->up_token));
	/*
	 * Our own record is mapped again from the re-export's own view: a
	 * POSIX lock goes when its owner closes any descriptor of the file, so
	 * opening and closing the file here would drop the lock others ask about.
	 */
	if (sd_xp_relay_is_self(id))
		rec = sd_xp_relay_checked(sd_xp_export_map_own_record(id->export_id, id->token), id, w);
	else
		rec = sd_xp_relay_map_other(id, w);
	if (rec == NULL)
		return false;
	w->page = rec;
	w->state = &rec->state;
	memcpy(w->up_token, rec->up.token, sizeof(w->up_token));
	return true;
}

bool sd_xp_relay_lock_ok(struct sd_xp_relay_watch *w)
{
	if (atomic_load_explicit(&w->revoked, memory_order_relaxed))
		return false;
	if (w->fd < 0 || !sd_xp_check_due(&w->next_check_ns) || sd_xp_relay_lock_held(w->fd))
		return true;
	atomic_store_explicit(&w->revoked, true, memory_order_relaxed);
	return false;
}

bool sd_xp_relay_live(struct sd_xp_relay_watch *w)
{
	if (w->state != NULL && atomic_load_explicit(w->state, memory_order_acquire) != SD_XP_REC_LIVE)
		return false;
	return sd_xp_relay_lock_ok(w);
}

void sd_xp_relay_close(struct sd_xp_relay_watch *w)
{
	if (w->page != NULL)
		munmap(w->page, SD_XP_REC_SIZE);
	if (w->fd >= 0)
		close(w->fd);
	w->page = NULL;
	w->state = NULL;
	w->fd = -1;
	memset(w->up_token, 0, sizeof(w->up_token));
}
