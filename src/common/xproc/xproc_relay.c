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

/* The record page of `fd`, mapped read-only, when it is the live record `id` names; else NULL. */
static struct sd_xp_record *sd_xp_relay_map(int fd, const struct sd_xp_relay_id *id)
{
	struct stat st;
	struct sd_xp_record *rec;
	void *page;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)SD_XP_REC_SIZE)
		return NULL;
	page = mmap(NULL, SD_XP_REC_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED)
		return NULL;
	rec = page;
	if (rec->magic != SD_XP_REC_MAGIC || rec->pid != id->pid || rec->export_id != id->export_id ||
	    rec->addr != id->addr || rec->len != id->len ||
	    atomic_load_explicit(&rec->state, memory_order_acquire) != SD_XP_REC_LIVE) {
		munmap(page, SD_XP_REC_SIZE);
		return NULL;
	}
	return rec;
}

SD_PRIV bool priv_doca_xp_relay_open(struct sd_xp_relay_watch *w, const struct sd_xp_relay_id *id)
{
	struct sd_xp_record *rec;
	bool self = sd_xp_relay_is_self(id);
	int fd = sd_xp_relay_file(id);

	w->page = NULL;
	w->state = NULL;
	w->fd = -1;
	atomic_store_explicit(&w->next_check_ns, 0, memory_order_relaxed);
	atomic_store_explicit(&w->revoked, false, memory_order_relaxed);
	if (fd < 0)
		return false; /* revoked already, or forged */
	rec = sd_xp_relay_map(fd, id);
	if (rec != NULL && !self && !sd_xp_relay_lock_held(fd)) {
		munmap(rec, SD_XP_REC_SIZE); /* died without retiring its record */
		rec = NULL;
	}
	if (rec == NULL || self) {
		close(fd);
		fd = -1;
	}
	if (rec == NULL)
		return false;
	w->page = rec;
	w->state = &rec->state;
	w->fd = fd;
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

SD_PRIV bool priv_doca_xp_relay_live(struct sd_xp_relay_watch *w)
{
	if (w->state != NULL && atomic_load_explicit(w->state, memory_order_acquire) != SD_XP_REC_LIVE)
		return false;
	return sd_xp_relay_lock_ok(w);
}

SD_PRIV void priv_doca_xp_relay_close(struct sd_xp_relay_watch *w)
{
	if (w->page != NULL)
		munmap(w->page, SD_XP_REC_SIZE);
	if (w->fd >= 0)
		close(w->fd);
	w->page = NULL;
	w->state = NULL;
	w->fd = -1;
}
