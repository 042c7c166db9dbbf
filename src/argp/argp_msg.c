/*
 * argp_msg.c - the parser's own messages to the user: unknown
 * flags, bad values, missing mandatory flags, JSON problems.
 *
 * They go to the program's logger callback when one is registered, and
 * otherwise to stderr, one line each in the DOCA record layout
 * ([time][tid][DOCA][ERR|WRN][file:line][func] text). The text of the last
 * error is kept, so doca_argp_start can repeat it in its SDK record.
 */
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "argp_internal.h"

static const char *sd_argp_level_tag(enum doca_log_level level)
{
	switch (level) {
	case DOCA_LOG_LEVEL_CRIT:
		return "CRT";
	case DOCA_LOG_LEVEL_ERROR:
		return "ERR";
	case DOCA_LOG_LEVEL_WARNING:
		return "WRN";
	case DOCA_LOG_LEVEL_INFO:
		return "INF";
	case DOCA_LOG_LEVEL_DEBUG:
		return "DBG";
	default:
		return "TRC";
	}
}

static const char *sd_argp_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static void sd_argp_msg_to_stderr(enum doca_log_level level, const char *file, int line, const char *func,
				  const char *text)
{
	struct timespec now;
	struct tm local;

	clock_gettime(CLOCK_REALTIME, &now);
	if (localtime_r(&now.tv_sec, &local) == NULL)
		memset(&local, 0, sizeof(local));
	fprintf(stderr, "[%02d:%02d:%02d:%06ld][%ld][DOCA][%s][%s:%d][%s] %s\n", local.tm_hour, local.tm_min,
		local.tm_sec, now.tv_nsec / 1000, (long)syscall(SYS_gettid), sd_argp_level_tag(level),
		sd_argp_base_name(file), line, func, text);
	fflush(stderr);
}

void sd_argp_msg(enum doca_log_level level, const char *file, int line, const char *func, const char *fmt, ...)
{
	char text[sizeof(sd_argp.last_error)];
	va_list ap;

	if (sd_argp.logger_cb != NULL) {
		va_start(ap, fmt);
		(void)sd_argp.logger_cb(level, fmt, ap);
		va_end(ap);
	}
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (level <= DOCA_LOG_LEVEL_ERROR)
		memcpy(sd_argp.last_error, text, sizeof(text));
	/*
	 * The helpers that find a problem are internal; the record names the
	 * public call the program made, as every other softdoca record does.
	 */
	if (sd_argp.starting)
		func = "doca_argp_start";
	if (sd_argp.logger_cb == NULL)
		sd_argp_msg_to_stderr(level, file, line, func, text);
}
