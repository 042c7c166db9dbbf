/*
 * doca_log.h - softdoca's implementation of the DOCA logging interface.
 *
 * Messages come in two categories. Application messages are written by
 * program code through the DOCA_LOG* macros; SDK messages are the
 * libraries' own diagnostics. Each category has its own backends (a stdio
 * stream, a file descriptor, a caller buffer with a flush callback, or
 * syslog) and its own level settings; a message reaches every backend of its
 * category whose settings admit its level. Backends live until the process
 * exits.
 *
 * Levels are numbers: the smaller, the more severe. An application backend
 * shows a level L when upper_limit <= L <= lower_limit; an SDK backend shows
 * it when L is at most its SDK limit.
 *
 * The names, values and prototypes below are those of DOCA 3.3, so programs
 * written for the SDK build against this header unchanged.
 */
#ifndef DOCA_LOG_H_
#define DOCA_LOG_H_

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Severity levels; DISABLE is only meaningful as a limit that admits nothing. */
enum doca_log_level {
	DOCA_LOG_LEVEL_DISABLE = 10,
	DOCA_LOG_LEVEL_CRIT = 20,
	DOCA_LOG_LEVEL_ERROR = 30,
	DOCA_LOG_LEVEL_WARNING = 40,
	DOCA_LOG_LEVEL_INFO = 50,
	DOCA_LOG_LEVEL_DEBUG = 60,
	DOCA_LOG_LEVEL_TRACE = 70,
};

/* An output destination; created by the doca_log_backend_create_* calls. */
struct doca_log_backend;

/* Called by a buffer backend after each record was written into its buffer. */
typedef void (*log_flush_callback)(char *buf);

/* Least severe level an application backend shows (respects a strict bound). */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level);

/* Most severe level an application backend shows (respects a strict bound). */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit);

/* Freeze the lower limit against changes that would make the backend more verbose. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend);

/* Freeze the upper limit against changes that would admit more severe levels. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend);

/* Set the lower limit of every application backend, present and future. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_level_set_global_lower_limit(uint32_t level);

/* Set the upper limit of every application backend, present and future. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit);

/* The global application lower limit (DOCA_LOG_LEVEL_INFO until changed). */
DOCA_EXPERIMENTAL
uint32_t doca_log_level_get_global_lower_limit(void);

/* The global application upper limit (DOCA_LOG_LEVEL_CRIT until changed). */
DOCA_EXPERIMENTAL
uint32_t doca_log_level_get_global_upper_limit(void);

/* Register a named source of application messages; the name is copied. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_register_source(const char *source_name, int *source);

/* Release a source id; later messages that name it are refused. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_unregister_source(int source);

/* Application backend writing to a stdio stream the caller keeps open. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend);

/* Application backend writing to a file descriptor the caller keeps open. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend);

/* Application backend formatting into a caller buffer, then calling handler. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_buf(char *buf,
					      size_t capacity,
					      log_flush_callback handler,
					      struct doca_log_backend **backend);

/* Application backend sending records to syslog under the given identity. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend);

/* Level limit of one SDK backend. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level);

/* SDK backend writing to a stdio stream. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend);

/* SDK backend writing to a file descriptor. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend);

/* SDK backend formatting into a caller buffer, then calling handler. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_buf_sdk(char *buf,
					      size_t capacity,
					      log_flush_callback handler,
					      struct doca_log_backend **backend);

/* SDK backend sending records to syslog. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend);

/* Set the limit of every SDK backend, present and future (overrides per-backend levels). */
DOCA_EXPERIMENTAL
doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level);

/* The global SDK limit (DOCA_LOG_LEVEL_INFO until changed). */
DOCA_EXPERIMENTAL
uint32_t doca_log_level_get_global_sdk_limit(void);

/* The usual pair: INFO and less severe to stdout, WARNING and more severe to stderr. */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_standard(void);

/* Emit one application message; prefer the DOCA_LOG* macros. */
DOCA_EXPERIMENTAL
doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func, const char *format, ...)
	__attribute__((format(printf, 6, 7)));

/* Log from a file that used DOCA_LOG_REGISTER (which defines log_source). */
#define DOCA_LOG(level, format, ...) doca_log(level, log_source, __FILE__, __LINE__, __func__, format, ##__VA_ARGS__)

#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)

#define DOCA_LOG_ERR(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)

#define DOCA_LOG_WARN(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)

#define DOCA_LOG_INFO(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)

#define DOCA_LOG_DBG(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)

/* Trace records exist only in builds that ask for them; otherwise the
 * arguments are not even evaluated. */
#ifdef DOCA_LOGGING_ALLOW_TRACE
#define DOCA_LOG_TRC(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_TRACE, format, ##__VA_ARGS__)
#else
#define DOCA_LOG_TRC(format, ...) \
	do { \
	} while (0)
#endif

/*
 * Once per translation unit, at file scope: defines this file's log_source
 * and registers it, under the stringified name, before main() runs. The
 * constructor's name does not depend on the file, so a second use in the
 * same translation unit does not compile (as with the SDK).
 */
#define DOCA_LOG_REGISTER(source) \
	static int log_source; \
	static void __attribute__((constructor(101), used)) DOCA_LOG_CTOR_##__FILE__(void) \
	{ \
		doca_log_register_source(#source, &log_source); \
	}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_LOG_H_ */
