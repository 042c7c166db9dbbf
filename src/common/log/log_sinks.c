/*
 * log_sinks.c - writing one finished record to one backend's destination.
 *
 * Write failures are ignored: a log call never fails because its output
 * could not be written.  The caller holds the log lock, so records from
 * concurrent threads never interleave inside a destination.
 */
#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "sd_log_core.h"

static void sd_log_write_file(FILE *stream, const struct sd_log_record *rec)
{
	(void)fputs(rec->text, stream);
	(void)fflush(stream);
}

/* One write(2) of the whole record, resumed after a partial write or EINTR. */
static void sd_log_write_fd(int fd, const struct sd_log_record *rec)
{
	const char *p = rec->text;
	size_t left = rec->len;

	while (left > 0) {
		ssize_t n = write(fd, p, left);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		p += n;
		left -= (size_t)n;
	}
}

/* The record goes at the start of the caller's buffer, cut to capacity - 1. */
static void sd_log_write_buf(const struct sd_log_buf_sink *sink, const struct sd_log_record *rec)
{
	size_t n = rec->len < sink->capacity - 1 ? rec->len : sink->capacity - 1;

	memcpy(sink->buf, rec->text, n);
	sink->buf[n] = '\0';
	sink->handler(sink->buf);
}

static int sd_log_syslog_priority(uint32_t level)
{
	if (level <= DOCA_LOG_LEVEL_CRIT)
		return LOG_CRIT;
	if (level <= DOCA_LOG_LEVEL_ERROR)
		return LOG_ERR;
	if (level <= DOCA_LOG_LEVEL_WARNING)
		return LOG_WARNING;
	if (level <= DOCA_LOG_LEVEL_INFO)
		return LOG_INFO;
	return LOG_DEBUG;
}

/* syslog adds its own time stamp: send the record without ours and without the newline. */
static void sd_log_write_syslog(const struct sd_log_record *rec)
{
	int body_len = (int)(rec->len - rec->body_offset - 1);

	syslog(sd_log_syslog_priority(rec->level), "%.*s", body_len, rec->text + rec->body_offset);
}

void sd_log_sink_write(struct doca_log_backend *backend, const struct sd_log_record *rec)
{
	switch (backend->kind) {
	case SD_LOG_SINK_FILE:
		sd_log_write_file(backend->sink.file, rec);
		break;
	case SD_LOG_SINK_FD:
		sd_log_write_fd(backend->sink.fd, rec);
		break;
	case SD_LOG_SINK_BUF:
		sd_log_write_buf(&backend->sink.buf, rec);
		break;
	case SD_LOG_SINK_SYSLOG:
		sd_log_write_syslog(rec);
		break;
	}
}

bool sd_log_sink_is_stderr(const struct doca_log_backend *backend)
{
	switch (backend->kind) {
	case SD_LOG_SINK_FILE:
		return fileno(backend->sink.file) == STDERR_FILENO;
	case SD_LOG_SINK_FD:
		return backend->sink.fd == STDERR_FILENO;
	default:
		return false;
	}
}
