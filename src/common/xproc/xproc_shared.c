/*
 * xproc_shared.c - is an exported range backed by a shared file?
 *
 * When the exporter's range lies in MAP_SHARED mappings of one file (a
 * memfd, a /dev/shm object, a regular file) at contiguous offsets, an
 * importer can map the same file and copy with plain memcpy instead of a
 * system call per copy.  The exporter finds the file from /proc/self/maps,
 * then an open descriptor of it (its own descriptor table, else the path),
 * and keeps a duplicate open until the export ends, so that importers can
 * open it through /proc/PID/fd/N (a same-user check, not a ptrace one).
 * Importers verify the file's device and inode before trusting it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "xproc_priv.h"

struct sd_xp_vma {
	uint64_t start, end, off, dev, ino;
	bool shared;
	char path[256];
};

/* Parse one /proc/self/maps line. */
static bool sd_xp_parse_maps_line(const char *line, struct sd_xp_vma *v)
{
	char perms[8];
	unsigned int major, minor;
	int path_at = 0;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &v->start, &v->end, perms,
		   &v->off, &major, &minor, &v->ino, &path_at) < 7)
		return false;
	v->shared = strlen(perms) >= 4 && perms[3] == 's';
	v->dev = (uint64_t)makedev(major, minor);
	v->path[0] = '\0';
	if (path_at > 0) {
		snprintf(v->path, sizeof(v->path), "%s", line + path_at);
		v->path[strcspn(v->path, "\n")] = '\0';
	}
	return true;
}

/*
 * Walk the maps covering [lo, hi): one shared file, contiguous offsets, no
 * hole.  On success `first` describes the mapping holding `lo`.
 */
static bool sd_xp_find_file_vmas(uint64_t lo, uint64_t hi, struct sd_xp_vma *first)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	uint64_t covered = lo, expect_off = 0;
	bool found = false, ok = true;

	if (f == NULL)
		return false;
	while (ok && covered < hi && fgets(line, sizeof(line), f) != NULL) {
		struct sd_xp_vma v;
		if (!sd_xp_parse_maps_line(line, &v) || v.end <= covered)
			continue;
		if (v.start > covered || !v.shared || v.ino == 0) {
			ok = false;
			break;
		}
		if (!found) {
			*first = v;
			found = true;
		} else if (v.dev != first->dev || v.ino != first->ino || v.off != expect_off) {
			ok = false;
			break;
		}
		expect_off = v.off + (v.end - v.start);
		covered = v.end;
	}
	fclose(f);
	return ok && found && covered >= hi;
}

static bool sd_xp_fd_is(int fd, uint64_t dev, uint64_t ino)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_dev == dev && (uint64_t)st.st_ino == ino;
}

/* A descriptor of this process open on (dev, ino) with the needed access, duplicated; -1 if none. */
static int sd_xp_dup_open_fd(uint64_t dev, uint64_t ino, bool writable)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int found = -1;

	if (d == NULL)
		return -1;
	while (found < 0 && (e = readdir(d)) != NULL) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);
		if (*end != '\0' || end == e->d_name || fd == dirfd(d))
			continue;
		int mode = fcntl((int)fd, F_GETFL);
		if (mode < 0 || (writable && (mode & O_ACCMODE) != O_RDWR))
			continue;
		if (sd_xp_fd_is((int)fd, dev, ino))
			found = fcntl((int)fd, F_DUPFD_CLOEXEC, 3);
	}
	closedir(d);
	return found;
}

/* Open the mapping's path, if it still names the same file. */
static int sd_xp_open_path(const struct sd_xp_vma *v, bool writable)
{
	size_t n = strlen(v->path);
	static const char deleted[] = " (deleted)";
	int fd;

	if (v->path[0] != '/' || (n >= sizeof(deleted) - 1 && strcmp(v->path + n - (sizeof(deleted) - 1), deleted) == 0))
		return -1;
	fd = open(v->path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 && !sd_xp_fd_is(fd, v->dev, v->ino)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

bool sd_xp_shared_find(uint64_t addr, uint64_t len, bool writable, struct sd_xp_shared *sh)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t lo = addr & ~(page - 1);
	struct sd_xp_vma first;
	int fd;

	if (!sd_xp_find_file_vmas(lo, addr + len, &first))
		return false;
	fd = sd_xp_dup_open_fd(first.dev, first.ino, writable);
	if (fd < 0)
		fd = sd_xp_open_path(&first, writable);
	if (fd < 0)
		return false;
	sh->fd = fd;
	sh->dev = first.dev;
	sh->ino = first.ino;
	sh->file_off = first.off + (lo - first.start);
	return true;
}
