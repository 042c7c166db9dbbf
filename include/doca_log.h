/**
 * @file doca_log.h
 * @brief DOCA logging: application and SDK messages, their backends and levels.
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

/**
 * Severity levels: the smaller the value, the more severe.  DISABLE is only meaningful as a limit that admits nothing.
 */
enum doca_log_level {
	DOCA_LOG_LEVEL_DISABLE = 10, /**< as a limit: show nothing */
	DOCA_LOG_LEVEL_CRIT = 20, /**< critical: the program cannot go on */
	DOCA_LOG_LEVEL_ERROR = 30, /**< an operation failed */
	DOCA_LOG_LEVEL_WARNING = 40, /**< something is probably wrong */
	DOCA_LOG_LEVEL_INFO = 50, /**< normal progress */
	DOCA_LOG_LEVEL_DEBUG = 60, /**< details for debugging */
	DOCA_LOG_LEVEL_TRACE = 70, /**< the finest details */
};

/**
 * @struct doca_log_backend
 * An output destination of log records (a stream, a descriptor, a buffer or
 * syslog), of one category: application or SDK.  Created by the
 * doca_log_backend_create_*() calls, owned by the library, alive until exit.
 */
struct doca_log_backend;

/**
 * @brief Called by a buffer backend after each record was written into its buffer.
 *
 * @param buf the backend's buffer, holding one NUL-terminated record.
 */
typedef void (*log_flush_callback)(char *buf);

/**
 * @brief Sets the least severe level an application backend shows.
 *
 * A strict lower limit (doca_log_backend_set_level_lower_limit_strict())
 * bounds the change: a more verbose request is clamped, and still succeeds.
 *
 * @param backend an application backend.
 * @param level the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p backend is NULL or an SDK backend, or the level is outside DOCA_LOG_LEVEL_DISABLE..DOCA_LOG_LEVEL_TRACE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level);

/**
 * @brief Sets the most severe level an application backend shows.
 *
 * A strict upper limit bounds the change: a request admitting more severe
 * levels is clamped, and still succeeds.
 *
 * @param backend an application backend.
 * @param upper_limit the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p backend is NULL or an SDK backend, or the level is outside DOCA_LOG_LEVEL_DISABLE..DOCA_LOG_LEVEL_TRACE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit);

/**
 * @brief Freezes an application backend's lower limit against changes that would make it more verbose.
 *
 * @param backend an application backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p backend is NULL or an SDK backend.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend);

/**
 * @brief Freezes an application backend's upper limit against changes that would admit more severe levels.
 *
 * @param backend an application backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p backend is NULL or an SDK backend.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend);

/**
 * @brief Sets the lower limit of every application backend, present and future (strict bounds apply).
 *
 * Any time, any thread, also before a backend exists.
 *
 * @param level the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when the level is outside DOCA_LOG_LEVEL_DISABLE..DOCA_LOG_LEVEL_TRACE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_level_set_global_lower_limit(uint32_t level);

/**
 * @brief Sets the upper limit of every application backend, present and future (strict bounds apply).
 *
 * @param upper_limit the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when the level is outside DOCA_LOG_LEVEL_DISABLE..DOCA_LOG_LEVEL_TRACE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit);

/**
 * @brief The global application lower limit.
 * @return DOCA_LOG_LEVEL_INFO until changed.
 */
DOCA_EXPERIMENTAL
uint32_t doca_log_level_get_global_lower_limit(void);

/**
 * @brief The global application upper limit.
 * @return DOCA_LOG_LEVEL_CRIT until changed.
 */
DOCA_EXPERIMENTAL
uint32_t doca_log_level_get_global_upper_limit(void);

/**
 * @brief Registers a named source of application messages.
 *
 * Works before main() (DOCA_LOG_REGISTER calls it from a constructor).  Each
 * call gives a new id, even for a name already registered.
 *
 * @param source_name the name, by convention "MODULE::PART" (copied).
 * @param source receives the id, 0 or more.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NO_MEMORY when it cannot be recorded.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_register_source(const char *source_name, int *source);

/**
 * @brief Releases a source id; later messages that name it are refused.
 *
 * @param source an id from doca_log_register_source().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when the id is unknown or already released.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_unregister_source(int source);

/**
 * @brief Creates an application backend that writes to a stdio stream.
 *
 * It starts with the global lower and upper limits, not strict.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param fptr an open stream; it stays the caller's and must stay open until exit.
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend);

/**
 * @brief Creates an application backend that writes to a file descriptor.
 *
 * It starts with the global lower and upper limits, not strict.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param fd an open descriptor, 0 or more; it stays the caller's.
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p backend is NULL or @p fd is negative;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend);

/**
 * @brief Creates an application backend that formats each record into a caller buffer, then calls a handler.
 *
 * It starts with the global lower and upper limits, not strict.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param buf a caller buffer, valid until exit; each record is written at its start, NUL-terminated.
 * @param capacity its size in bytes, 1 or more (longer records are cut).
 * @param handler called with @p buf after each record.
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when a pointer is NULL or @p capacity is 0;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_buf(char *buf,
					      size_t capacity,
					      log_flush_callback handler,
					      struct doca_log_backend **backend);

/**
 * @brief Creates an application backend that sends records to syslog.
 *
 * It starts with the global lower and upper limits, not strict.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param name the syslog identity (copied).
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend);

/**
 * @brief Sets the level limit of one SDK backend: it shows levels up to that one.
 *
 * @param backend an SDK backend.
 * @param level the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p backend is NULL or an application backend, or the level is outside DOCA_LOG_LEVEL_DISABLE..DOCA_LOG_LEVEL_TRACE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level);

/**
 * @brief Creates an SDK backend that writes the libraries' own records to a stdio stream.
 *
 * It starts with the global SDK limit.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param fptr an open stream; it stays the caller's and must stay open until exit.
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend);

/**
 * @brief Creates an SDK backend that writes the libraries' own records to a file descriptor.
 *
 * It starts with the global SDK limit.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param fd an open descriptor, 0 or more; it stays the caller's.
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p backend is NULL or @p fd is negative;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend);

/**
 * @brief Creates an SDK backend that formats the libraries' own records into a caller buffer, then calls a handler.
 *
 * It starts with the global SDK limit.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param buf a caller buffer, valid until exit; each record is written at its start, NUL-terminated.
 * @param capacity its size in bytes, 1 or more (longer records are cut).
 * @param handler called with @p buf after each record.
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when a pointer is NULL or @p capacity is 0;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_buf_sdk(char *buf,
					      size_t capacity,
					      log_flush_callback handler,
					      struct doca_log_backend **backend);

/**
 * @brief Creates an SDK backend that sends the libraries' own records to syslog.
 *
 * It starts with the global SDK limit.  Backends live until the process exits: there is no
 * destroy call.
 *
 * @param name the syslog identity (copied).
 * @param backend receives the backend, owned by the library; never free it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend);

/**
 * @brief Sets the limit of every SDK backend, present and future, overriding their own levels.
 *
 * softdoca's diagnostics of refused calls are SDK records: set the limit to
 * DOCA_LOG_LEVEL_ERROR or above, and create an SDK backend, to see them (or
 * set SOFTDOCA_SDK_LOG).
 *
 * @param level the limit.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when the level is outside DOCA_LOG_LEVEL_DISABLE..DOCA_LOG_LEVEL_TRACE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level);

/**
 * @brief The global SDK limit.
 * @return DOCA_LOG_LEVEL_INFO until changed.
 */
DOCA_EXPERIMENTAL
uint32_t doca_log_level_get_global_sdk_limit(void);

/**
 * @brief Creates the usual pair of application backends: INFO and less severe to stdout, WARNING and more severe to stderr.
 *
 * The stdout backend follows the global lower limit; the stderr one has a
 * strict lower limit of WARNING, so raising the verbosity never moves DEBUG to
 * stderr.  Neither can be reached afterwards.  Calling it again creates nothing more.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_NO_MEMORY when the backends cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log_backend_create_standard(void);

/**
 * @brief Emits one application message; use the DOCA_LOG_* macros rather than calling it.
 *
 * It goes to every application backend whose limits admit @p level, as one
 * line "[time][thread][DOCA][LVL][file:line][function] message".  Any thread;
 * lines of concurrent threads never mix.
 *
 * @param level DOCA_LOG_LEVEL_CRIT to DOCA_LOG_LEVEL_TRACE.
 * @param source an id from doca_log_register_source().
 * @param fname the source file (its base name is printed); may be NULL.
 * @param line the line number.
 * @param func the function name; may be NULL.
 * @param format a printf format (checked by the compiler), without a trailing newline.
 * @return DOCA_SUCCESS, also when every backend filtered it out;
 * DOCA_ERROR_INVALID_VALUE when the level is DISABLE or out of range, the
 * source is unknown or @p format is NULL (nothing is written).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func, const char *format, ...)
	__attribute__((format(printf, 6, 7)));

/* Log from a file that used DOCA_LOG_REGISTER (which defines log_source). */
/** Logs at @p level from a file that used DOCA_LOG_REGISTER (which defines its log_source). */
#define DOCA_LOG(level, format, ...) doca_log(level, log_source, __FILE__, __LINE__, __func__, format, ##__VA_ARGS__)

/** Logs a critical application message. */
#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)

/** Logs an application error. */
#define DOCA_LOG_ERR(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)

/** Logs an application warning. */
#define DOCA_LOG_WARN(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)

/** Logs an application information message. */
#define DOCA_LOG_INFO(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)

/** Logs an application debug message. */
#define DOCA_LOG_DBG(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)

/* Trace records exist only in builds that ask for them; otherwise the
 * arguments are not even evaluated. */
#ifdef DOCA_LOGGING_ALLOW_TRACE
/** Logs an application trace message; compiled in only with DOCA_LOGGING_ALLOW_TRACE (otherwise its arguments are not even evaluated). */
#define DOCA_LOG_TRC(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_TRACE, format, ##__VA_ARGS__)
#else
/** Without DOCA_LOGGING_ALLOW_TRACE, DOCA_LOG_TRC compiles to nothing. */
#define DOCA_LOG_TRC(format, ...) \
	do { \
	} while (0)
#endif

/**
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
