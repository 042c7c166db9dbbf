/*
 * log_emit.c - emitting records: doca_log() for application messages and
 * priv_doca_sdk_log*() for the libraries' own diagnostics.
 *
 * Order of work: a lock-free level check first (a filtered record costs a
 * comparison), then formatting outside the lock, then delivery to every
 * admitting backend of the category under the lock.  A record emitted from
 * inside a delivery on the same thread (a flush callback that logs) is
 * dropped: it would overwrite the buffer being flushed or recurse forever.
 */
#include "sd_log_core.h"
#include "sd_log.h"

/* The [FILE:LINE] shown by SDK records that were emitted without a location. */
#define SD_LOG_SDK_NO_FILE "softdoca"

static _Thread_local bool sd_log_delivering;

/* Set by sd_log_demote_next(): the level the next SDK record of this thread is written at (0: its own). */
static _Thread_local uint32_t sd_log_demote_to;

void sd_log_demote_next(uint32_t level)
{
	sd_log_demote_to = level;
}

/* The level of the SDK record being emitted, the demotion mark used up. */
static uint32_t sd_log_sdk_level(uint32_t level)
{
	uint32_t to = sd_log_demote_to;

	sd_log_demote_to = 0;
	return to > level ? to : level; /* a larger number is a less severe level */
}

/*
 * Every admitting backend gets the record, except that the SOFTDOCA_SDK_LOG
 * backend stays quiet when a backend of the program's own already put the
 * record on stderr: the user sees each record once, whichever of the two
 * admits it.
 */
static void sd_log_deliver(enum sd_log_category category, const struct sd_log_record *rec)
{
	struct doca_log_backend *env = NULL;
	bool on_stderr = false;

	sd_log_lock();
	sd_log_delivering = true;
	for (struct doca_log_backend *b = sd_log_state.head; b != NULL; b = b->next) {
		if (b->category != category || !sd_log_backend_admits(b, rec->level))
			continue;
		if (b->from_env) {
			env = b;
			continue;
		}
		sd_log_sink_write(b, rec);
		on_stderr |= sd_log_sink_is_stderr(b);
	}
	if (env != NULL && !on_stderr)
		sd_log_sink_write(env, rec);
	sd_log_delivering = false;
	sd_log_unlock();
}

static void sd_log_vemit(enum sd_log_category category, uint32_t level, const char *file, int line,
			 const char *func, const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

static void sd_log_vemit(enum sd_log_category category, uint32_t level, const char *file, int line,
			 const char *func, const char *prefix, const char *fmt, va_list ap)
{
	struct sd_log_record rec;

	if (sd_log_delivering)
		return;
	sd_log_record_format(&rec, level, file, line, func, prefix, fmt, ap);
	sd_log_deliver(category, &rec);
}

doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func, const char *format, ...)
{
	va_list ap;

	if (!sd_log_level_is_message(level))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "level %u is not a message level (%d..%d) (source %d)",
				 level, DOCA_LOG_LEVEL_CRIT, DOCA_LOG_LEVEL_TRACE, source);
	if (format == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "format is NULL (source %d)", source);
	if (!sd_log_source_is_registered(source))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "source %d is not registered", source);
	if (!sd_log_app_may_show(level))
		return DOCA_SUCCESS;

	va_start(ap, format);
	sd_log_vemit(SD_LOG_CATEGORY_APP, level, fname, line, func, NULL, format, ap);
	va_end(ap);
	return DOCA_SUCCESS;
}

int priv_doca_sdk_log_enabled(uint32_t level)
{
	return sd_log_sdk_may_show(level);
}

void priv_doca_sdk_log_at(uint32_t level, const char *file, int line, const char *func, const char *fmt, ...)
{
	va_list ap;

	level = sd_log_sdk_level(level);
	if (!sd_log_sdk_may_show(level) || fmt == NULL)
		return;
	va_start(ap, fmt);
	sd_log_vemit(SD_LOG_CATEGORY_SDK, level, file, line, func, func, fmt, ap);
	va_end(ap);
}

void priv_doca_sdk_log(uint32_t level, const char *func, const char *fmt, ...)
{
	va_list ap;

	level = sd_log_sdk_level(level);
	if (!sd_log_sdk_may_show(level) || fmt == NULL)
		return;
	va_start(ap, fmt);
	sd_log_vemit(SD_LOG_CATEGORY_SDK, level, SD_LOG_SDK_NO_FILE, 0, func, func, fmt, ap);
	va_end(ap);
}
