/*
 * demo_channel.c - the files through which the two sides of the demo talk
 * (see demo_channel.h for the format).
 */
#include "demo_channel.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demo_util.h"

#define MAGIC_LINE "softdoca-demo export 1"
#define HEADER_MAX 1024 /* all text lines together */
#define LINE_MAX_LEN 200
#define POLL_MS 10

#define WHY(...) snprintf(why, DEMO_WHY_LEN, __VA_ARGS__)

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int is_fifo(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* Write data to a temporary name next to path, then rename it into place. */
static int write_file_atomically(const char *path, const void *data, size_t len)
{
	char tmp[4096];
	int fd;
	int rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	rc = write_all(fd, data, len);
	if (close(fd) != 0)
		rc = -1;
	if (rc == 0)
		rc = rename(tmp, path);
	if (rc != 0)
		unlink(tmp);
	return rc;
}

static int done_path(const char *path, char *out, size_t cap)
{
	return snprintf(out, cap, "%s.done", path) < (int)cap ? 0 : -1;
}

/* ---- host -> DPU ---------------------------------------------------------------- */

static size_t format_info(const struct demo_export_info *info, char *out, size_t cap)
{
	int header = snprintf(out, cap,
			      MAGIC_LINE "\npid %ld\npci %s\naddr 0x%" PRIx64 "\nlen %" PRIu64 "\nsha256 %s\ndescriptor %zu\n",
			      info->host_pid, info->host_pci, info->addr, info->len, info->sha256_hex, info->desc_len);

	if (header < 0 || (size_t)header >= HEADER_MAX || info->desc_len > DEMO_DESC_MAX)
		return 0;
	memcpy(out + header, info->desc, info->desc_len);
	return (size_t)header + info->desc_len;
}

/* A FIFO: wait (non-blocking opens) until a reader has it open, then write. */
static enum demo_wait write_fifo(const char *path, const char *msg, size_t len, double timeout_s,
				 volatile sig_atomic_t *stop, char *why)
{
	double deadline = demo_now() + timeout_s;
	int fd;

	for (;;) {
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			break;
		if (errno != ENXIO) {
			WHY("cannot open the FIFO %s: %s", path, strerror(errno));
			return DEMO_WAIT_FAILED;
		}
		if (*stop)
			return DEMO_WAIT_INTERRUPTED;
		if (demo_now() > deadline)
			return DEMO_WAIT_TIMEOUT;
		demo_sleep_ms(POLL_MS);
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (write_all(fd, msg, len) != 0) {
		WHY("writing to the FIFO %s failed: %s", path, strerror(errno));
		close(fd);
		return DEMO_WAIT_FAILED;
	}
	close(fd);
	return DEMO_WAIT_OK;
}

enum demo_wait demo_channel_publish(const char *path, const struct demo_export_info *info, double timeout_s,
				    volatile sig_atomic_t *stop, char why[DEMO_WHY_LEN])
{
	static char msg[HEADER_MAX + DEMO_DESC_MAX];
	size_t len = format_info(info, msg, sizeof(msg));

	char done[4096];

	if (len == 0 || done_path(path, done, sizeof(done)) != 0) {
		WHY("the export information does not fit the channel format");
		return DEMO_WAIT_FAILED;
	}
	/* A verdict left by an earlier run must not pass for this run's. */
	if (unlink(done) != 0 && errno != ENOENT) {
		WHY("cannot remove the old %.180s: %s", done, strerror(errno));
		return DEMO_WAIT_FAILED;
	}
	if (is_fifo(path))
		return write_fifo(path, msg, len, timeout_s, stop, why);
	if (write_file_atomically(path, msg, len) != 0) {
		WHY("cannot write %s: %s", path, strerror(errno));
		return DEMO_WAIT_FAILED;
	}
	return DEMO_WAIT_OK;
}

/* ---- DPU side of host -> DPU ------------------------------------------------------ */

/* Copy the line at buf[*pos] (without '\n') into line; 1 done, 0 incomplete, -1 too long. */
static int next_line(const char *buf, size_t have, size_t *pos, char line[LINE_MAX_LEN])
{
	const char *start = buf + *pos;
	const char *nl = memchr(start, '\n', have - *pos);
	size_t len;

	if (nl == NULL)
		return have - *pos >= LINE_MAX_LEN ? -1 : 0;
	len = (size_t)(nl - start);
	if (len >= LINE_MAX_LEN)
		return -1;
	memcpy(line, start, len);
	line[len] = '\0';
	*pos += len + 1;
	return 1;
}

static int parse_u64(const char *text, uint64_t *value)
{
	char *end;

	errno = 0;
	*value = strtoull(text, &end, 0);
	return errno == 0 && end != text && *end == '\0' ? 0 : -1;
}

/* Store one "key value" line; 1 when it was "descriptor N" (bytes follow), -1 if malformed. */
static int take_field(const char *line, struct demo_export_info *info, unsigned int *seen, char *why)
{
	const char *value = strchr(line, ' ');
	uint64_t number = 0;

	if (value == NULL) {
		WHY("malformed line \"%s\"", line);
		return -1;
	}
	value++;
#define KEY(k) (strncmp(line, k " ", sizeof(k)) == 0)
	if (KEY("pid") && parse_u64(value, &number) == 0) {
		info->host_pid = (long)number;
	} else if (KEY("pci")) {
		snprintf(info->host_pci, sizeof(info->host_pci), "%s", value);
	} else if (KEY("addr") && parse_u64(value, &info->addr) == 0) {
		*seen |= 1;
	} else if (KEY("len") && parse_u64(value, &info->len) == 0 && info->len > 0) {
		*seen |= 2;
	} else if (KEY("sha256") && strlen(value) == DEMO_SHA256_HEX_LEN) {
		memcpy(info->sha256_hex, value, DEMO_SHA256_HEX_LEN + 1);
		*seen |= 4;
	} else if (KEY("descriptor") && parse_u64(value, &number) == 0 && number > 0 && number <= DEMO_DESC_MAX) {
		info->desc_len = (size_t)number;
		return 1;
	} else {
		WHY("malformed line \"%s\"", line);
		return -1;
	}
#undef KEY
	return 0;
}

/* 1 complete, 0 more bytes needed, -1 malformed (why says how). */
static int parse_info(const char *buf, size_t have, struct demo_export_info *info, char *why)
{
	char line[LINE_MAX_LEN];
	size_t pos = 0;
	unsigned int seen = 0;
	int rc = next_line(buf, have, &pos, line);

	if (rc <= 0)
		return rc;
	if (strcmp(line, MAGIC_LINE) != 0) {
		WHY("not a softdoca demo export file (first line \"%s\")", line);
		return -1;
	}
	memset(info, 0, sizeof(*info));
	for (;;) {
		rc = next_line(buf, have, &pos, line);
		if (rc <= 0) {
			if (rc < 0)
				WHY("a line is too long");
			return rc;
		}
		rc = take_field(line, info, &seen, why);
		if (rc < 0)
			return -1;
		if (rc == 1)
			break;
	}
	if (seen != 7) {
		WHY("addr, len or sha256 is missing");
		return -1;
	}
	if (have - pos < info->desc_len)
		return 0;
	if (have - pos > info->desc_len) {
		WHY("%zu bytes follow the %zu-byte descriptor", have - pos - info->desc_len, info->desc_len);
		return -1;
	}
	memcpy(info->desc, buf + pos, info->desc_len);
	return 1;
}

enum demo_wait demo_channel_receive(const char *path, struct demo_export_info *info, double timeout_s,
				    volatile sig_atomic_t *stop, char why[DEMO_WHY_LEN])
{
	static char buf[HEADER_MAX + DEMO_DESC_MAX + 1];
	double deadline = demo_now() + timeout_s;
	size_t have = 0;
	int fd = -1;
	int fifo = 0;
	enum demo_wait result;

	for (;;) {
		ssize_t n = 0;

		if (fd < 0) {
			fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			if (fd < 0 && errno != ENOENT) {
				WHY("cannot open %s: %s", path, strerror(errno));
				return DEMO_WAIT_FAILED;
			}
			fifo = fd >= 0 && is_fifo(path);
		}
		if (fd >= 0) {
			n = read(fd, buf + have, sizeof(buf) - have);
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				WHY("reading %s failed: %s", path, strerror(errno));
				result = DEMO_WAIT_FAILED;
				break;
			}
			if (n > 0) {
				have += (size_t)n;
				if (have < sizeof(buf))
					continue;
			}
			switch (parse_info(buf, have, info, why)) {
			case 1:
				result = DEMO_WAIT_OK;
				goto out;
			case -1:
				result = DEMO_WAIT_FAILED;
				goto out;
			default:
				break;
			}
			if (!fifo) { /* a regular file is renamed into place whole */
				WHY("%s ends before the export information is complete", path);
				result = DEMO_WAIT_FAILED;
				break;
			}
		}
		if (*stop) {
			result = DEMO_WAIT_INTERRUPTED;
			break;
		}
		if (demo_now() > deadline) {
			if (have > 0)
				WHY("%s stopped before the export information was complete", path);
			result = have > 0 ? DEMO_WAIT_FAILED : DEMO_WAIT_TIMEOUT;
			break;
		}
		demo_sleep_ms(POLL_MS);
	}
out:
	if (fd >= 0)
		close(fd);
	return result;
}

/* ---- DPU -> host -------------------------------------------------------------------- */

int demo_channel_report_done(const char *path, const char *verdict)
{
	char done[4096];
	char line[512];
	int len = snprintf(line, sizeof(line), "%s\n", verdict);

	if (done_path(path, done, sizeof(done)) != 0 || len < 0 || len >= (int)sizeof(line))
		return -1;
	return write_file_atomically(done, line, (size_t)len);
}

enum demo_wait demo_channel_wait_done(const char *path, char *verdict, size_t verdict_len, double timeout_s,
				      volatile sig_atomic_t *stop, char why[DEMO_WHY_LEN])
{
	char done[4096];
	double deadline = demo_now() + timeout_s;

	if (done_path(path, done, sizeof(done)) != 0) {
		WHY("path too long");
		return DEMO_WAIT_FAILED;
	}
	for (;;) {
		FILE *f = fopen(done, "re");

		if (f != NULL) {
			if (fgets(verdict, (int)verdict_len, f) == NULL)
				verdict[0] = '\0';
			fclose(f);
			verdict[strcspn(verdict, "\n")] = '\0';
			return DEMO_WAIT_OK;
		}
		if (errno != ENOENT) {
			WHY("cannot read %.180s: %s", done, strerror(errno));
			return DEMO_WAIT_FAILED;
		}
		if (*stop)
			return DEMO_WAIT_INTERRUPTED;
		if (demo_now() > deadline)
			return DEMO_WAIT_TIMEOUT;
		demo_sleep_ms(POLL_MS);
	}
}

void demo_channel_cleanup(const char *path)
{
	char done[4096];

	if (!is_fifo(path))
		unlink(path);
	if (done_path(path, done, sizeof(done)) == 0)
		unlink(done);
}
