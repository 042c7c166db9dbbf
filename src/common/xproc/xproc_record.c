/*
 * xproc_record.c - the validity record of an export.
 *
 * One page in /dev/shm (or /tmp where /dev/shm is missing), mode 0600,
 * named softdoca-xp-PID-STARTTIME-EXPORTID.  It holds the export's token,
 * range and a state word.  Importers map it read-only and read the state
 * word before and after every copy (a plain load: no system call), so a
 * stop or destroy cuts them off at once.
 *
 * The exporter also holds a POSIX read lock on the file.  Such a lock is
 * not inherited by fork, and the kernel drops it when the process exits
 * (even by SIGKILL) or execs (the descriptor is close-on-exec); importers
 * ask with F_GETLK who holds it, which tells them the exporter is still
 * the same live process without any message to it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xproc_priv.h"

#define SD_XP_REC_PREFIX "softdoca-xp-"

static const char *sd_xp_record_dir(bool tmp)
{
	return tmp ? "/tmp" : "/dev/shm";
}

void sd_xp_record_path(char *out, size_t size, bool tmp, uint32_t pid, uint64_t start_time, uint64_t export_id)
{
	snprintf(out, size, "%s/" SD_XP_REC_PREFIX "%u-%" PRIu64 "-%" PRIu64, sd_xp_record_dir(tmp), pid, start_time,
		 export_id);
}

/* True when /dev/shm can hold records (a writable directory). */
static bool sd_xp_shm_usable(void)
{
	struct stat st;

	return stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK | X_OK) == 0;
}

/* Take the liveness lock: a read lock over the whole file. */
static int sd_xp_record_lock(int fd)
{
	struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};

	return fcntl(fd, F_SETLK, &fl) == 0 ? 0 : errno;
}

static int sd_xp_record_open_new(struct sd_xp_export *exp)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		int fd = open(exp->record_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
		/* Our pid and start time are unique among live processes: a leftover. */
		unlink(exp->record_path);
	}
	return -EEXIST;
}

int sd_xp_record_create(struct sd_xp_export *exp)
{
	const struct sd_xp_desc *b = &exp->base;
	int fd, err;
	void *page;

	exp->record_tmp = !sd_xp_shm_usable();
	sd_xp_record_path(exp->record_path, sizeof(exp->record_path), exp->record_tmp, b->who.pid,
			  b->who.start_time, b->export_id);
	fd = sd_xp_record_open_new(exp);
	if (fd < 0)
		return -fd;
	if (ftruncate(fd, SD_XP_REC_SIZE) != 0)
		goto fail_errno;
	page = mmap(NULL, SD_XP_REC_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED)
		goto fail_errno;
	err = sd_xp_record_lock(fd);
	if (err != 0) {
		munmap(page, SD_XP_REC_SIZE);
		errno = err;
		goto fail_errno;
	}
	exp->rec = page;
	exp->rec->magic = SD_XP_REC_MAGIC;
	exp->rec->pid = b->who.pid;
	exp->rec->access_mask = b->access_mask;
	exp->rec->export_id = b->export_id;
	exp->rec->addr = b->addr;
	exp->rec->len = b->len;
	memcpy(exp->rec->token, b->token, SD_XP_TOKEN_LEN);
	exp->rec->up = exp->up;
	atomic_store_explicit(&exp->rec->state, SD_XP_REC_LIVE, memory_order_release);
	exp->record_fd = fd;
	return 0;

fail_errno:
	err = errno;
	close(fd);
	unlink(exp->record_path);
	return err;
}

void sd_xp_record_retire(struct sd_xp_export *exp)
{
	if (exp->rec == NULL)
		return;
	/* A fork child holds a copy of the parent's state: it must not kill the parent's export. */
	if (exp->owner_pid == (uint32_t)getpid()) {
		atomic_store_explicit(&exp->rec->state, SD_XP_REC_DEAD, memory_order_release);
		unlink(exp->record_path);
	}
	munmap(exp->rec, SD_XP_REC_SIZE);
	exp->rec = NULL;
	if (exp->record_fd >= 0)
		close(exp->record_fd); /* drops the lock (only the owner held one) */
	exp->record_fd = -1;
}

/*
 * Has the record's exporter left it behind: a complete record (its state word
 * set) whose liveness lock nobody holds?  The pid in the name does not
 * answer that alone: an exporter in another PID namespace that shares
 * /dev/shm (a test's `unshare --pid --mount-proc`, a container) has a pid
 * that means nothing here, and its record must survive our sweep.  Locks
 * are seen across PID namespaces.  A record still being created (empty,
 * or state word not set yet) is left alone too.
 */
static bool sd_xp_record_abandoned(int dir_fd, const char *name)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
	struct stat st;
	uint32_t state = 0;
	bool abandoned = false;
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)SD_XP_REC_SIZE &&
	    pread(fd, &state, sizeof(state), (off_t)offsetof(struct sd_xp_record, state)) == (ssize_t)sizeof(state) &&
	    state != 0 && fcntl(fd, F_GETLK, &fl) == 0)
		abandoned = fl.l_type == F_UNLCK;
	close(fd); /* we hold no lock on it: closing drops nothing */
	return abandoned;
}

/* Is the record named `name` one whose exporter is gone? */
static bool sd_xp_record_is_stale(int dir_fd, const char *name)
{
	unsigned int pid;
	uint64_t start, id;
	int used = 0;

	if (sscanf(name, SD_XP_REC_PREFIX "%u-%" SCNu64 "-%" SCNu64 "%n", &pid, &start, &id, &used) != 3 ||
	    name[used] != '\0')
		return false;
	return sd_xp_check_alive(pid, start) == ESRCH && sd_xp_record_abandoned(dir_fd, name);
}

static void sd_xp_sweep_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, SD_XP_REC_PREFIX, sizeof(SD_XP_REC_PREFIX) - 1) != 0)
			continue;
		if (sd_xp_record_is_stale(dirfd(d), e->d_name))
			(void)unlinkat(dirfd(d), e->d_name, 0); /* may be someone else's: then EPERM, fine */
	}
	closedir(d);
}

void sd_xp_record_sweep(void)
{
	sd_xp_sweep_dir("/dev/shm");
	sd_xp_sweep_dir("/tmp");
}
