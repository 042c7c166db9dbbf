/*
 * log_state.c - the process-wide log state: lock, backend list, globals.
 *
 * Everything is statically initialised, so DOCA_LOG_REGISTER constructors
 * (priority 101, before any other initialisation) and calls before main()
 * find a ready state without any init function.
 */
#include "sd_log_core.h"

struct sd_log_state sd_log_state = {
	.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP,
	.head = NULL,
	.tail = &sd_log_state.head,
	.global_lower = DOCA_LOG_LEVEL_INFO,
	.global_upper = DOCA_LOG_LEVEL_CRIT,
	.global_sdk = DOCA_LOG_LEVEL_INFO,
	.app_most_verbose = 0,
	.app_most_severe = 0,
	.sdk_most_verbose = 0,
};

void sd_log_lock(void)
{
	(void)pthread_mutex_lock(&sd_log_state.lock);
}

void sd_log_unlock(void)
{
	(void)pthread_mutex_unlock(&sd_log_state.lock);
}

void sd_log_refresh_filter(void)
{
	uint32_t app_verbose = 0;
	uint32_t app_severe = UINT32_MAX;
	uint32_t sdk_verbose = 0;

	for (const struct doca_log_backend *b = sd_log_state.head; b != NULL; b = b->next) {
		if (b->category == SD_LOG_CATEGORY_SDK) {
			if (b->sdk_limit > sdk_verbose)
				sdk_verbose = b->sdk_limit;
			continue;
		}
		if (b->lower > app_verbose)
			app_verbose = b->lower;
		if (b->upper < app_severe)
			app_severe = b->upper;
	}
	atomic_store_explicit(&sd_log_state.app_most_verbose, app_verbose, memory_order_relaxed);
	atomic_store_explicit(&sd_log_state.app_most_severe, app_severe, memory_order_relaxed);
	atomic_store_explicit(&sd_log_state.sdk_most_verbose, sdk_verbose, memory_order_relaxed);
}

bool sd_log_backend_is_known(const struct doca_log_backend *backend)
{
	for (const struct doca_log_backend *b = sd_log_state.head; b != NULL; b = b->next)
		if (b == backend)
			return true;
	return false;
}
