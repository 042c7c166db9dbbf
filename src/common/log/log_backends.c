/*
 * log_backends.c - creating backends, application and SDK, and the
 * standard stdout/stderr pair.
 *
 * Backends are never destroyed (DOCA has no call for it); the handle stays
 * valid until exit.  A new application backend starts with the global
 * lower/upper limits, not strict; a new SDK backend with the global SDK
 * limit.  Streams, descriptors and buffers are the caller's and are never
 * closed or freed here.
 */
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "sd_log_core.h"
#include "sd_log.h"

/* Copy `proto`, seed its levels from the globals and append it to the list. */
static struct doca_log_backend *sd_log_backend_add(const struct doca_log_backend *proto)
{
	struct doca_log_backend *backend = malloc(sizeof(*backend));

	if (backend == NULL)
		return NULL;
	*backend = *proto;
	backend->next = NULL;
	sd_log_lock();
	backend->lower = sd_log_state.global_lower;
	backend->upper = sd_log_state.global_upper;
	backend->sdk_limit = sd_log_state.global_sdk;
	*sd_log_state.tail = backend;
	sd_log_state.tail = &backend->next;
	sd_log_refresh_filter();
	sd_log_unlock();
	return backend;
}

static struct doca_log_backend sd_log_proto(enum sd_log_category category, enum sd_log_sink_kind kind)
{
	struct doca_log_backend proto;

	memset(&proto, 0, sizeof(proto));
	proto.category = category;
	proto.kind = kind;
	return proto;
}

/*
 * The create functions share their checks; each public wrapper logs the
 * problem under its own name, so these return a reason or NULL.
 */
static const char *sd_log_create_file(enum sd_log_category category, FILE *fptr, struct doca_log_backend **out)
{
	struct doca_log_backend proto = sd_log_proto(category, SD_LOG_SINK_FILE);

	if (fptr == NULL)
		return "fptr is NULL";
	if (out == NULL)
		return "backend is NULL";
	proto.sink.file = fptr;
	*out = sd_log_backend_add(&proto);
	return *out != NULL ? NULL : "out of memory";
}

static const char *sd_log_create_fd(enum sd_log_category category, int fd, struct doca_log_backend **out)
{
	struct doca_log_backend proto = sd_log_proto(category, SD_LOG_SINK_FD);

	if (fd < 0)
		return "fd is negative";
	if (out == NULL)
		return "backend is NULL";
	proto.sink.fd = fd;
	*out = sd_log_backend_add(&proto);
	return *out != NULL ? NULL : "out of memory";
}

static const char *sd_log_create_buf(enum sd_log_category category, char *buf, size_t capacity,
				     log_flush_callback handler, struct doca_log_backend **out)
{
	struct doca_log_backend proto = sd_log_proto(category, SD_LOG_SINK_BUF);

	if (buf == NULL)
		return "buf is NULL";
	if (capacity == 0)
		return "capacity is 0";
	if (handler == NULL)
		return "handler is NULL";
	if (out == NULL)
		return "backend is NULL";
	proto.sink.buf.buf = buf;
	proto.sink.buf.capacity = capacity;
	proto.sink.buf.handler = handler;
	*out = sd_log_backend_add(&proto);
	return *out != NULL ? NULL : "out of memory";
}

static const char *sd_log_create_syslog(enum sd_log_category category, const char *name,
					struct doca_log_backend **out)
{
	struct doca_log_backend proto = sd_log_proto(category, SD_LOG_SINK_SYSLOG);

	if (name == NULL)
		return "name is NULL";
	if (out == NULL)
		return "backend is NULL";
	proto.sink.syslog_ident = strdup(name);
	if (proto.sink.syslog_ident == NULL)
		return "out of memory";
	*out = sd_log_backend_add(&proto);
	if (*out == NULL) {
		free(proto.sink.syslog_ident);
		return "out of memory";
	}
	openlog((*out)->sink.syslog_ident, LOG_PID, LOG_USER);
	return NULL;
}

/* Out of memory is the one failure that is not INVALID_VALUE. */
static doca_error_t sd_log_create_error(const char *problem)
{
	return strcmp(problem, "out of memory") == 0 ? DOCA_ERROR_NO_MEMORY : DOCA_ERROR_INVALID_VALUE;
}

#define SD_LOG_CREATE_RESULT(problem)                                                                         \
	((problem) == NULL ? DOCA_SUCCESS : SD_REJECT(sd_log_create_error(problem), "%s, no backend created", \
						      (problem)))

doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_file(SD_LOG_CATEGORY_APP, fptr, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_file(SD_LOG_CATEGORY_SDK, fptr, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

doca_error_t doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_fd(SD_LOG_CATEGORY_APP, fd, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

doca_error_t doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_fd(SD_LOG_CATEGORY_SDK, fd, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

doca_error_t doca_log_backend_create_with_buf(char *buf,
					      size_t capacity,
					      log_flush_callback handler,
					      struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_buf(SD_LOG_CATEGORY_APP, buf, capacity, handler, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

doca_error_t doca_log_backend_create_with_buf_sdk(char *buf,
						  size_t capacity,
						  log_flush_callback handler,
						  struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_buf(SD_LOG_CATEGORY_SDK, buf, capacity, handler, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

doca_error_t doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_syslog(SD_LOG_CATEGORY_APP, name, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

doca_error_t doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend)
{
	const char *problem = sd_log_create_syslog(SD_LOG_CATEGORY_SDK, name, backend);

	return SD_LOG_CREATE_RESULT(problem);
}

/* The standard pair, once created; guarded by the log lock. */
static struct doca_log_backend *sd_log_std_out;
static struct doca_log_backend *sd_log_std_err;

/*
 * stdout shows from INFO (strict upper) down to the global lower limit;
 * stderr shows from the global upper limit down to WARNING (strict lower).
 * So INFO/DEBUG/TRACE never reach stderr and WARNING and worse never reach
 * stdout, whatever -l says.  A second call adds nothing (a call that ran
 * out of memory half-way creates only the missing half next time).
 */
doca_error_t doca_log_backend_create_standard(void)
{
	const char *problem = NULL;

	sd_log_lock();
	if (sd_log_std_out == NULL) {
		problem = sd_log_create_file(SD_LOG_CATEGORY_APP, stdout, &sd_log_std_out);
		if (problem == NULL) {
			sd_log_std_out->upper = DOCA_LOG_LEVEL_INFO;
			sd_log_std_out->upper_strict = true;
			sd_log_std_out->upper_bound = DOCA_LOG_LEVEL_INFO;
		}
	}
	if (problem == NULL && sd_log_std_err == NULL) {
		problem = sd_log_create_file(SD_LOG_CATEGORY_APP, stderr, &sd_log_std_err);
		if (problem == NULL) {
			sd_log_std_err->lower = DOCA_LOG_LEVEL_WARNING;
			sd_log_std_err->lower_strict = true;
			sd_log_std_err->lower_bound = DOCA_LOG_LEVEL_WARNING;
		}
	}
	sd_log_refresh_filter();
	sd_log_unlock();
	return SD_LOG_CREATE_RESULT(problem);
}
