/*
 * xproc_identity.c - who a process is, and whether it is still there.
 *
 * A pid alone names a process only until it is recycled, so a process is
 * named by its pid and its start time (field 22 of /proc/PID/stat, clock
 * ticks after boot), and pids are only comparable inside one machine boot
 * (/proc/sys/kernel/random/boot_id) and one PID namespace (the inode of
 * /proc/self/ns/pid).  Everything here reads /proc and runs at export or
 * import time only, never per task.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xproc_priv.h"
#include "sd_text.h"

/* Read up to size-1 bytes of a small file into a NUL-terminated string. 0 or errno. */
static int sd_xp_read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno;
	do {
		n = read(fd, buf, size - 1);
	} while (n < 0 && errno == EINTR);
	int err = n < 0 ? errno : 0;
	close(fd);
	if (err != 0)
		return err;
	buf[n] = '\0';
	return 0;
}

/* boot_id is a UUID string; keep its 16 bytes (all zero when unreadable). */
static void sd_xp_boot_id(uint8_t out[SD_XP_BOOT_ID_LEN])
{
	char text[64];
	size_t n = 0;

	memset(out, 0, SD_XP_BOOT_ID_LEN);
	if (sd_xp_read_small("/proc/sys/kernel/random/boot_id", text, sizeof(text)) != 0)
		return;
	for (const char *p = text; *p != '\0' && n < 2 * SD_XP_BOOT_ID_LEN; p++) {
		int v = sd_hex_digit_value(*p);
		if (v < 0)
			continue;
		out[n / 2] = (uint8_t)(out[n / 2] | (n % 2 == 0 ? v << 4 : v));
		n++;
	}
}

int sd_xp_start_time(uint32_t pid, uint64_t *start_time)
{
	char path[64], text[1024];
	int err;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	err = sd_xp_read_small(path, text, sizeof(text));
	if (err != 0)
		return err == ENOENT ? ESRCH : err;
	/* The command name may hold spaces and parentheses: fields restart after the last ')'. */
	const char *p = strrchr(text, ')');
	if (p == NULL)
		return EINVAL;
	p++;
	/* Now at field 3 (state); field 22 is 19 fields further. */
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (p == NULL)
			return EINVAL;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p + 1, &end, 10);
	if (errno != 0 || end == p + 1)
		return EINVAL;
	*start_time = v;
	return 0;
}

int sd_xp_check_alive(uint32_t pid, uint64_t start_time)
{
	uint64_t now = 0;
	int err = sd_xp_start_time(pid, &now);

	if (err != 0)
		return err;
	return now == start_time ? 0 : ESRCH;
}

static pthread_mutex_t sd_xp_self_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_xp_identity sd_xp_self_cache; /* valid when .pid == getpid() */

int sd_xp_self(struct sd_xp_identity *out)
{
	uint32_t pid = (uint32_t)getpid();
	struct stat st;
	int err = 0;

	pthread_mutex_lock(&sd_xp_self_lock);
	if (sd_xp_self_cache.pid != pid) {
		struct sd_xp_identity id = {.pid = pid};
		err = sd_xp_start_time(pid, &id.start_time);
		if (err == 0) {
			sd_xp_boot_id(id.boot_id);
			if (stat("/proc/self/ns/pid", &st) == 0) {
				id.pidns_dev = (uint64_t)st.st_dev;
				id.pidns_ino = (uint64_t)st.st_ino;
			}
			sd_xp_self_cache = id;
		}
	}
	if (err == 0)
		*out = sd_xp_self_cache;
	pthread_mutex_unlock(&sd_xp_self_lock);
	return err;
}

bool sd_xp_same_namespace(const struct sd_xp_identity *who)
{
	struct sd_xp_identity me;

	if (sd_xp_self(&me) != 0)
		return false;
	return memcmp(me.boot_id, who->boot_id, SD_XP_BOOT_ID_LEN) == 0 && me.pidns_dev == who->pidns_dev &&
	       me.pidns_ino == who->pidns_ino;
}

int sd_xp_random(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len != 0) {
		ssize_t n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
