/*
 * sd_log_core.h - the pieces of the log library that its files share.
 *
 * One process-wide state: the backend list, the global limits and a
 * recursive mutex that guards them (recursive because a buffer backend's
 * flush callback may call back into the log API).  Logging is not on any
 * hot path, so a single lock is enough; the only lock-free part is the
 * pre-filter that lets a filtered-out record return before formatting.
 */
#ifndef SD_LOG_CORE_H
#define SD_LOG_CORE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_log.h>

/* Records are cut at this size, newline included (DOCA programs need at least 4096). */
#define SD_LOG_RECORD_MAX 8192

enum sd_log_category {
	SD_LOG_CATEGORY_APP,
	SD_LOG_CATEGORY_SDK,
};

enum sd_log_sink_kind {
	SD_LOG_SINK_FILE,
	SD_LOG_SINK_FD,
	SD_LOG_SINK_BUF,
	SD_LOG_SINK_SYSLOG,
};

struct sd_log_buf_sink {
	char *buf;
	size_t capacity;
	log_flush_callback handler;
};

struct doca_log_backend {
	struct doca_log_backend *next; /* backends are never freed: list only grows */
	enum sd_log_category category;
	enum sd_log_sink_kind kind;
	union {
		FILE *file;
		int fd;
		struct sd_log_buf_sink buf;
		char *syslog_ident; /* openlog() keeps the pointer: owned forever */
	} sink;
	/* application backends: shown iff upper <= level <= lower */
	uint32_t lower;
	uint32_t upper;
	bool lower_strict; /* lower may not grow past lower_bound */
	bool upper_strict; /* upper may not shrink below upper_bound */
	uint32_t lower_bound;
	uint32_t upper_bound;
	/* SDK backends: shown iff CRIT <= level <= sdk_limit */
	uint32_t sdk_limit;
	/*
	 * The SOFTDOCA_SDK_LOG backend (log_env.c): it shows only the records
	 * that no other SDK backend already wrote to stderr.
	 */
	bool from_env;
};

/* One formatted record: "[time]" then the body "[tid][DOCA]...message\n". */
struct sd_log_record {
	uint32_t level;
	size_t len;         /* bytes in text, the final '\n' included */
	size_t body_offset; /* where the text after the timestamp starts */
	char text[SD_LOG_RECORD_MAX];
};

struct sd_log_state {
	pthread_mutex_t lock;
	struct doca_log_backend *head;
	struct doca_log_backend **tail;
	uint32_t global_lower;
	uint32_t global_upper;
	uint32_t global_sdk;
	/* lock-free pre-filter, recomputed under the lock after every change */
	_Atomic uint32_t app_most_verbose; /* max lower of app backends; 0 = none */
	_Atomic uint32_t app_most_severe;  /* min upper of app backends */
	_Atomic uint32_t sdk_most_verbose; /* max limit of SDK backends; 0 = none */
};

extern struct sd_log_state sd_log_state;

void sd_log_lock(void);
void sd_log_unlock(void);

/* Recompute the pre-filter; call with the lock held. */
void sd_log_refresh_filter(void);

/* Whether `backend` is one of ours; call with the lock held. Never dereferences it. */
bool sd_log_backend_is_known(const struct doca_log_backend *backend);

/* Level rules (log_levels.c). */
bool sd_log_level_is_limit(uint32_t level);
bool sd_log_level_is_message(uint32_t level);
const char *sd_log_level_tag(uint32_t level);
void sd_log_backend_apply_lower(struct doca_log_backend *backend, uint32_t level);
void sd_log_backend_apply_upper(struct doca_log_backend *backend, uint32_t level);
bool sd_log_backend_admits(const struct doca_log_backend *backend, uint32_t level);

/* Sources (log_sources.c). */
bool sd_log_source_is_registered(int source);

/* Record text (log_record.c). `prefix`, when not NULL, goes before the message as "prefix: ". */
void sd_log_record_format(struct sd_log_record *rec, uint32_t level, const char *file, int line,
			  const char *func, const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

/* Destinations (log_sinks.c). */
void sd_log_sink_write(struct doca_log_backend *backend, const struct sd_log_record *rec);
/* Whether the backend writes to the process's stderr (fd 2, or a FILE on it). */
bool sd_log_sink_is_stderr(const struct doca_log_backend *backend);

/* Pre-filter, lock-free: false means no backend of the category can show `level`. */
static inline bool sd_log_app_may_show(uint32_t level)
{
	return level <= atomic_load_explicit(&sd_log_state.app_most_verbose, memory_order_relaxed) &&
	       level >= atomic_load_explicit(&sd_log_state.app_most_severe, memory_order_relaxed);
}

static inline bool sd_log_sdk_may_show(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_CRIT &&
	       level <= atomic_load_explicit(&sd_log_state.sdk_most_verbose, memory_order_relaxed);
}

#endif /* SD_LOG_CORE_H */
