/*
 * se_home.c - where the value of a started event lives, and how sleepers
 * are woken.
 *
 * An event that only this process uses keeps its value in a word inside
 * the event (or in the application's memory after set_addr /
 * set_doca_buf).  An event with a remote publisher or subscriber keeps it
 * in a shared page: a 4 KiB file in /dev/shm, named from the exporter's pid
 * and random bits, that the other process maps.  /dev/shm is shared by
 * processes in other PID and network namespaces of the same machine, so
 * the page reaches them too; futexes on a shared file mapping work across
 * processes.  The exporter holds an OFD read lock on the file for as long
 * as it lives: importers ask the kernel whether a lock is still held to
 * learn that the exporter died, and read the page's state to learn that it
 * stopped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sd_log.h"
#include "se_priv.h"
#include "../xproc/xproc_priv.h"

uint64_t sd_se_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sd_se_wake(struct sd_se_sync *sync)
{
	atomic_fetch_add(&sync->seq, 1);
	if (atomic_load(&sync->waiters) != 0)
		syscall(SYS_futex, &sync->seq, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void sd_se_sleep(struct sd_se_sync *sync, uint32_t seen, uint64_t timeout_ns)
{
	struct timespec ts = {.tv_sec = (time_t)(timeout_ns / 1000000000ull),
			      .tv_nsec = (long)(timeout_ns % 1000000000ull)};

	atomic_fetch_add(&sync->waiters, 1);
	syscall(SYS_futex, &sync->seq, FUTEX_WAIT, seen, &ts, NULL, 0);
	atomic_fetch_sub(&sync->waiters, 1);
}

/* The OFD lock that says "the exporter lives": whole file, read mode. */
static int sd_se_lock(int fd, int cmd, struct flock *fl, short type)
{
	memset(fl, 0, sizeof(*fl));
	fl->l_type = type;
	fl->l_whence = SEEK_SET;
	return fcntl(fd, cmd, fl);
}

/* Does any process still hold the exporter's lock on `fd`'s file? */
static bool sd_se_lock_held(int fd)
{
	struct flock fl;

	if (sd_se_lock(fd, F_OFD_GETLK, &fl, F_WRLCK) != 0)
		return true; /* cannot tell: do not declare a live exporter dead */
	return fl.l_type != F_UNLCK;
}

static doca_error_t sd_se_map_fail(struct sd_se_map *map, const char *func, doca_error_t err, const char *what)
{
	SD_LOG_ERR_AS(func, "cannot create the shared page of a sync event: %s failed (%s); "
		      "check that /dev/shm is mounted and writable", what, strerror(errno));
	if (map->page != NULL)
		munmap(map->page, SD_SE_PAGE_SIZE);
	if (map->fd >= 0) {
		char path[SD_SE_NAME_LEN + 2];

		snprintf(path, sizeof(path), "/%s", map->name);
		shm_unlink(path);
		close(map->fd);
	}
	map->page = NULL;
	map->fd = -1;
	return err;
}

doca_error_t sd_se_map_create(struct sd_se_map *map, const char *func)
{
	char path[SD_SE_NAME_LEN + 2];
	uint64_t salt;
	struct flock fl;

	memset(map, 0, sizeof(*map));
	map->fd = -1;
	if (sd_xp_random(&salt, sizeof(salt)) != 0)
		return sd_se_map_fail(map, func, DOCA_ERROR_OPERATING_SYSTEM, "getrandom");
	map->owner_pid = (uint32_t)getpid();
	snprintf(map->name, sizeof(map->name), "sdse-%08x-%016llx", map->owner_pid, (unsigned long long)salt);
	snprintf(path, sizeof(path), "/%s", map->name);
	map->fd = shm_open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (map->fd < 0)
		return sd_se_map_fail(map, func, DOCA_ERROR_OPERATING_SYSTEM, "shm_open");
	if (ftruncate(map->fd, SD_SE_PAGE_SIZE) != 0)
		return sd_se_map_fail(map, func, DOCA_ERROR_OPERATING_SYSTEM, "ftruncate");
	map->page = mmap(NULL, SD_SE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, map->fd, 0);
	if (map->page == MAP_FAILED) {
		map->page = NULL;
		return sd_se_map_fail(map, func, DOCA_ERROR_OPERATING_SYSTEM, "mmap");
	}
	if (sd_se_lock(map->fd, F_OFD_SETLK, &fl, F_RDLCK) != 0)
		return sd_se_map_fail(map, func, DOCA_ERROR_OPERATING_SYSTEM, "locking the page");
	if (sd_xp_random(map->page->token, SD_SE_TOKEN_LEN) != 0)
		return sd_se_map_fail(map, func, DOCA_ERROR_OPERATING_SYSTEM, "getrandom");
	map->page->exporter_pid = map->owner_pid;
	atomic_store(&map->page->state, SD_SE_PAGE_LIVE);
	map->page->magic = SD_SE_PAGE_MAGIC;
	map->owner = true;
	return DOCA_SUCCESS;
}

/*
 * An importer that finds the page's token right but nobody holding the
 * lock knows its exporter died without stopping (the lock is taken before
 * the token is written): it removes the name the dead process left in
 * /dev/shm, so killed exporters leave nothing behind once seen.
 */
static void sd_se_unlink_orphan(const struct sd_se_map *map)
{
	char path[SD_SE_NAME_LEN + 2];

	snprintf(path, sizeof(path), "/%s", map->name);
	shm_unlink(path);
}

/* The importer's refusal of a descriptor whose page it cannot use. */
static doca_error_t sd_se_attach_refuse(struct sd_se_map *map, const char *func, doca_error_t err, const char *why)
{
	SD_LOG_ERR_AS(func, "refusing the sync event export: %s; export the event again from a live, started event", why);
	if (map->page != NULL)
		munmap(map->page, SD_SE_PAGE_SIZE);
	if (map->fd >= 0)
		close(map->fd);
	map->page = NULL;
	map->fd = -1;
	return err;
}

/* Checks of the exporter's identity that need no file. */
static doca_error_t sd_se_attach_identity(struct sd_se_map *map, const struct sd_se_desc *d, const char *func)
{
	struct sd_xp_identity me;

	if (sd_xp_self(&me) != 0)
		return sd_se_attach_refuse(map, func, DOCA_ERROR_OPERATING_SYSTEM, "this process's identity is unreadable");
	if (memcmp(me.boot_id, d->who.boot_id, SD_XP_BOOT_ID_LEN) != 0) {
		SD_LOG_ERR_AS(func, "the sync event export comes from another machine (or boot); softdoca shares "
			      "sync events between processes of one machine only");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (sd_xp_same_namespace(&d->who) && sd_xp_check_alive(d->who.pid, d->who.start_time) != 0)
		return sd_se_attach_refuse(map, func, DOCA_ERROR_INVALID_VALUE, "its exporting process is gone");
	return DOCA_SUCCESS;
}

doca_error_t sd_se_map_attach(struct sd_se_map *map, const struct sd_se_desc *d, const char *func)
{
	char path[SD_SE_NAME_LEN + 2];
	struct stat st;
	doca_error_t err;

	memset(map, 0, sizeof(*map));
	map->fd = -1;
	err = sd_se_attach_identity(map, d, func);
	if (err != DOCA_SUCCESS)
		return err;
	snprintf(map->name, sizeof(map->name), "%s", d->name);
	snprintf(path, sizeof(path), "/%s", d->name);
	map->fd = shm_open(path, O_RDWR | O_CLOEXEC, 0);
	if (map->fd < 0)
		return sd_se_attach_refuse(map, func, DOCA_ERROR_INVALID_VALUE,
					   "its shared page no longer exists (the event stopped or was destroyed)");
	if (fstat(map->fd, &st) != 0 || (uint64_t)st.st_dev != d->file_dev || (uint64_t)st.st_ino != d->file_ino ||
	    st.st_size < (off_t)SD_SE_PAGE_SIZE)
		return sd_se_attach_refuse(map, func, DOCA_ERROR_INVALID_VALUE,
					   "the file under its name is not the page it was exported with");
	map->page = mmap(NULL, SD_SE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, map->fd, 0);
	if (map->page == MAP_FAILED) {
		map->page = NULL;
		return sd_se_attach_refuse(map, func, DOCA_ERROR_OPERATING_SYSTEM, "mapping its shared page failed");
	}
	if (map->page->magic != SD_SE_PAGE_MAGIC || memcmp(map->page->token, d->token, SD_SE_TOKEN_LEN) != 0)
		return sd_se_attach_refuse(map, func, DOCA_ERROR_INVALID_VALUE,
					   "its token does not match the event's (forged or altered descriptor)");
	if (atomic_load(&map->page->state) != SD_SE_PAGE_LIVE)
		return sd_se_attach_refuse(map, func, DOCA_ERROR_INVALID_VALUE, "its exporter stopped the event");
	if (!sd_se_lock_held(map->fd)) {
		sd_se_unlink_orphan(map);
		return sd_se_attach_refuse(map, func, DOCA_ERROR_INVALID_VALUE, "its exporter died");
	}
	atomic_store(&map->next_check_ns, sd_se_now_ns() + SD_SE_LIVENESS_NS);
	return DOCA_SUCCESS;
}

bool sd_se_map_alive(struct sd_se_map *map)
{
	uint64_t now;

	if (atomic_load_explicit(&map->dead, memory_order_relaxed))
		return false;
	if (atomic_load_explicit(&map->page->state, memory_order_acquire) != SD_SE_PAGE_LIVE) {
		atomic_store(&map->dead, 1);
		return false;
	}
	if (map->owner)
		return true;
	now = sd_se_now_ns();
	if (now < atomic_load_explicit(&map->next_check_ns, memory_order_relaxed))
		return true;
	atomic_store_explicit(&map->next_check_ns, now + SD_SE_LIVENESS_NS, memory_order_relaxed);
	if (sd_se_lock_held(map->fd))
		return true;
	if (atomic_exchange(&map->dead, 1) == 0)
		sd_se_unlink_orphan(map);
	return false;
}

void sd_se_map_close(struct sd_se_map *map)
{
	if (map->page == NULL)
		return;
	if (map->owner && map->owner_pid == (uint32_t)getpid()) {
		char path[SD_SE_NAME_LEN + 2];

		atomic_store(&map->page->state, SD_SE_PAGE_STOPPED);
		sd_se_wake(&map->page->sync);
		snprintf(path, sizeof(path), "/%s", map->name);
		shm_unlink(path);
	}
	munmap(map->page, SD_SE_PAGE_SIZE);
	if (map->fd >= 0)
		close(map->fd);
	map->page = NULL;
	map->fd = -1;
}

/* Bind the event's value and sleepers to where they live. */
static void sd_se_home_bind(struct doca_sync_event *ev, enum sd_se_home_kind kind, _Atomic uint64_t *value,
			    struct sd_se_sync *sync)
{
	ev->home = kind;
	ev->value = value;
	ev->sync = sync;
}

doca_error_t sd_se_home_open(struct doca_sync_event *ev, const char *func)
{
	doca_error_t err;

	atomic_store(&ev->private_sync.seq, 0);
	atomic_store(&ev->private_sync.waiters, 0);
	if (ev->imported) {
		if (!sd_se_map_alive(&ev->map)) {
			SD_LOG_ERR_AS(func, "the exporter of sync event %p stopped it or died; import a fresh export",
				      (void *)ev);
			return DOCA_ERROR_INVALID_VALUE;
		}
		sd_se_home_bind(ev, SD_SE_HOME_IMPORTED, &ev->map.page->value, &ev->map.page->sync);
		return DOCA_SUCCESS;
	}
	if (ev->app_addr != NULL) {
		sd_se_home_bind(ev, SD_SE_HOME_APP, (_Atomic uint64_t *)ev->app_addr, &ev->private_sync);
		return DOCA_SUCCESS;
	}
	if (((ev->pub | ev->sub) & (SD_SE_LOC_PCI | SD_SE_LOC_NET)) == 0) {
		atomic_store(&ev->private_value, 0);
		sd_se_home_bind(ev, SD_SE_HOME_PRIVATE, &ev->private_value, &ev->private_sync);
		return DOCA_SUCCESS;
	}
	err = sd_se_map_create(&ev->map, func);
	if (err != DOCA_SUCCESS)
		return err;
	sd_se_home_bind(ev, SD_SE_HOME_SHARED, &ev->map.page->value, &ev->map.page->sync);
	return DOCA_SUCCESS;
}

void sd_se_home_close(struct doca_sync_event *ev)
{
	sd_se_net_export_close(ev); /* importers over the network are cut off before the page goes */
	if (ev->home == SD_SE_HOME_SHARED)
		sd_se_map_close(&ev->map);
	ev->desc_pci_ok = false;
	ev->desc_net_ok = false;
	sd_se_home_bind(ev, SD_SE_HOME_NONE, NULL, NULL);
}
