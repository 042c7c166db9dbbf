/*
 * log_levels.c - level limits: global values, per-backend limits and the
 * strict bounds of application backends.
 *
 * Every setter accepts any limit from DISABLE (10) to TRACE (70); values
 * between the named levels behave numerically.  A strict bound never makes
 * a setter fail: the requested value is clamped to the bound, as DOCA does.
 */
#include "sd_log_core.h"
#include "sd_log.h"

#define SD_LOG_BAD_LIMIT "level %u is outside the valid range %d..%d"

typedef void (*sd_log_backend_op)(struct doca_log_backend *backend, uint32_t value);

bool sd_log_level_is_limit(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_DISABLE && level <= DOCA_LOG_LEVEL_TRACE;
}

bool sd_log_level_is_message(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_CRIT && level <= DOCA_LOG_LEVEL_TRACE;
}

/* Levels between two named ones take the tag of the less severe neighbour. */
const char *sd_log_level_tag(uint32_t level)
{
	if (level <= DOCA_LOG_LEVEL_CRIT)
		return "CRT";
	if (level <= DOCA_LOG_LEVEL_ERROR)
		return "ERR";
	if (level <= DOCA_LOG_LEVEL_WARNING)
		return "WRN";
	if (level <= DOCA_LOG_LEVEL_INFO)
		return "INF";
	if (level <= DOCA_LOG_LEVEL_DEBUG)
		return "DBG";
	return "TRC";
}

void sd_log_backend_apply_lower(struct doca_log_backend *backend, uint32_t level)
{
	if (backend->lower_strict && level > backend->lower_bound)
		level = backend->lower_bound;
	backend->lower = level;
}

void sd_log_backend_apply_upper(struct doca_log_backend *backend, uint32_t level)
{
	if (backend->upper_strict && level < backend->upper_bound)
		level = backend->upper_bound;
	backend->upper = level;
}

bool sd_log_backend_admits(const struct doca_log_backend *backend, uint32_t level)
{
	if (backend->category == SD_LOG_CATEGORY_SDK)
		return level >= DOCA_LOG_LEVEL_CRIT && level <= backend->sdk_limit;
	return backend->upper <= level && level <= backend->lower;
}

static void sd_log_backend_mark_lower_strict(struct doca_log_backend *backend, uint32_t unused)
{
	(void)unused;
	backend->lower_strict = true;
	backend->lower_bound = backend->lower;
}

static void sd_log_backend_mark_upper_strict(struct doca_log_backend *backend, uint32_t unused)
{
	(void)unused;
	backend->upper_strict = true;
	backend->upper_bound = backend->upper;
}

static void sd_log_backend_set_sdk_limit(struct doca_log_backend *backend, uint32_t level)
{
	backend->sdk_limit = level;
}

/*
 * Apply `op` to one backend of the given category under the lock.  Returns
 * NULL on success, else why the backend was refused (the caller logs it).
 */
static const char *sd_log_backend_update(struct doca_log_backend *backend, enum sd_log_category category,
					 sd_log_backend_op op, uint32_t value)
{
	const char *problem = NULL;

	if (backend == NULL)
		return "backend is NULL";
	sd_log_lock();
	if (!sd_log_backend_is_known(backend))
		problem = "not a backend created by doca_log_backend_create_*";
	else if (backend->category != category)
		problem = category == SD_LOG_CATEGORY_APP ?
				  "this is an SDK backend; the call applies to application backends only" :
				  "this is an application backend; the call applies to SDK backends only";
	if (problem == NULL) {
		op(backend, value);
		sd_log_refresh_filter();
	}
	sd_log_unlock();
	return problem;
}

doca_error_t doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level)
{
	const char *problem;

	if (!sd_log_level_is_limit(level))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_LOG_BAD_LIMIT " (backend %p)", level,
				 DOCA_LOG_LEVEL_DISABLE, DOCA_LOG_LEVEL_TRACE, (void *)backend);
	problem = sd_log_backend_update(backend, SD_LOG_CATEGORY_APP, sd_log_backend_apply_lower, level);
	if (problem != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s (backend %p)", problem, (void *)backend);
	return DOCA_SUCCESS;
}

doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit)
{
	const char *problem;

	if (!sd_log_level_is_limit(upper_limit))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_LOG_BAD_LIMIT " (backend %p)", upper_limit,
				 DOCA_LOG_LEVEL_DISABLE, DOCA_LOG_LEVEL_TRACE, (void *)backend);
	problem = sd_log_backend_update(backend, SD_LOG_CATEGORY_APP, sd_log_backend_apply_upper, upper_limit);
	if (problem != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s (backend %p)", problem, (void *)backend);
	return DOCA_SUCCESS;
}

doca_error_t doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend)
{
	const char *problem;

	problem = sd_log_backend_update(backend, SD_LOG_CATEGORY_APP, sd_log_backend_mark_lower_strict, 0);
	if (problem != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s (backend %p)", problem, (void *)backend);
	return DOCA_SUCCESS;
}

doca_error_t doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend)
{
	const char *problem;

	problem = sd_log_backend_update(backend, SD_LOG_CATEGORY_APP, sd_log_backend_mark_upper_strict, 0);
	if (problem != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s (backend %p)", problem, (void *)backend);
	return DOCA_SUCCESS;
}

doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level)
{
	const char *problem;

	if (!sd_log_level_is_limit(level))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_LOG_BAD_LIMIT " (backend %p)", level,
				 DOCA_LOG_LEVEL_DISABLE, DOCA_LOG_LEVEL_TRACE, (void *)backend);
	problem = sd_log_backend_update(backend, SD_LOG_CATEGORY_SDK, sd_log_backend_set_sdk_limit, level);
	if (problem != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s (backend %p)", problem, (void *)backend);
	return DOCA_SUCCESS;
}

/* Store a global value and push it through `op` to every backend of the category. */
static void sd_log_set_global(uint32_t *global, enum sd_log_category category, sd_log_backend_op op, uint32_t level)
{
	sd_log_lock();
	*global = level;
	for (struct doca_log_backend *b = sd_log_state.head; b != NULL; b = b->next)
		if (b->category == category)
			op(b, level);
	sd_log_refresh_filter();
	sd_log_unlock();
}

doca_error_t doca_log_level_set_global_lower_limit(uint32_t level)
{
	if (!sd_log_level_is_limit(level))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_LOG_BAD_LIMIT, level, DOCA_LOG_LEVEL_DISABLE,
				 DOCA_LOG_LEVEL_TRACE);
	sd_log_set_global(&sd_log_state.global_lower, SD_LOG_CATEGORY_APP, sd_log_backend_apply_lower, level);
	return DOCA_SUCCESS;
}

doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit)
{
	if (!sd_log_level_is_limit(upper_limit))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_LOG_BAD_LIMIT, upper_limit, DOCA_LOG_LEVEL_DISABLE,
				 DOCA_LOG_LEVEL_TRACE);
	sd_log_set_global(&sd_log_state.global_upper, SD_LOG_CATEGORY_APP, sd_log_backend_apply_upper, upper_limit);
	return DOCA_SUCCESS;
}

doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level)
{
	if (!sd_log_level_is_limit(level))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_LOG_BAD_LIMIT, level, DOCA_LOG_LEVEL_DISABLE,
				 DOCA_LOG_LEVEL_TRACE);
	sd_log_set_global(&sd_log_state.global_sdk, SD_LOG_CATEGORY_SDK, sd_log_backend_set_sdk_limit, level);
	return DOCA_SUCCESS;
}

static uint32_t sd_log_get_global(const uint32_t *global)
{
	uint32_t value;

	sd_log_lock();
	value = *global;
	sd_log_unlock();
	return value;
}

uint32_t doca_log_level_get_global_lower_limit(void)
{
	return sd_log_get_global(&sd_log_state.global_lower);
}

uint32_t doca_log_level_get_global_upper_limit(void)
{
	return sd_log_get_global(&sd_log_state.global_upper);
}

uint32_t doca_log_level_get_global_sdk_limit(void)
{
	return sd_log_get_global(&sd_log_state.global_sdk);
}
