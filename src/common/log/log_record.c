/*
 * log_record.c - the text of one record:
 *
 *   [HH:MM:SS:uuuuuu][TID][DOCA][LVL][FILE:LINE][FUNC] MESSAGE\n
 *
 * Local wall-clock time with microseconds, the kernel thread id, a
 * three-letter level tag, the base name of the source file.  A message too
 * long for the record is cut, and the record still ends with one newline.
 */
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "sd_log_core.h"

/* Room kept for the final '\n' and the NUL after it. */
#define SD_LOG_TAIL_ROOM 2

static const char *sd_log_base_name(const char *path)
{
	const char *slash;

	if (path == NULL)
		return "";
	slash = strrchr(path, '/');
	return slash != NULL ? slash + 1 : path;
}

/* Append printf output, never past the room left for the tail. */
static void sd_log_record_vappend(struct sd_log_record *rec, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void sd_log_record_vappend(struct sd_log_record *rec, const char *fmt, va_list ap)
{
	size_t room = sizeof(rec->text) - SD_LOG_TAIL_ROOM - rec->len;
	int n;

	if (room == 0)
		return;
	n = vsnprintf(rec->text + rec->len, room + 1, fmt, ap);
	if (n < 0)
		return;
	rec->len += (size_t)n < room ? (size_t)n : room;
}

static void sd_log_record_append(struct sd_log_record *rec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sd_log_record_append(struct sd_log_record *rec, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sd_log_record_vappend(rec, fmt, ap);
	va_end(ap);
}

static void sd_log_record_timestamp(struct sd_log_record *rec)
{
	struct timespec now;
	struct tm local;

	clock_gettime(CLOCK_REALTIME, &now);
	if (localtime_r(&now.tv_sec, &local) == NULL)
		memset(&local, 0, sizeof(local));
	sd_log_record_append(rec, "[%02d:%02d:%02d:%06ld]", local.tm_hour, local.tm_min, local.tm_sec,
			     now.tv_nsec / 1000);
}

void sd_log_record_format(struct sd_log_record *rec, uint32_t level, const char *file, int line,
			  const char *func, const char *prefix, const char *fmt, va_list ap)
{
	rec->level = level;
	rec->len = 0;
	sd_log_record_timestamp(rec);
	rec->body_offset = rec->len;
	sd_log_record_append(rec, "[%ld][DOCA][%s][%s:%d][%s] ", (long)syscall(SYS_gettid),
			     sd_log_level_tag(level), sd_log_base_name(file), line, func != NULL ? func : "");
	if (prefix != NULL)
		sd_log_record_append(rec, "%s: ", prefix);
	sd_log_record_vappend(rec, fmt, ap);
	rec->text[rec->len++] = '\n';
	rec->text[rec->len] = '\0';
}
