/*
 * log_sources.c - the registry of application log sources.
 *
 * Ids are indexes into a growing table and are never reused, so a released
 * id stays invalid for good.  The first id handed out is 0.  The table is
 * guarded by the log lock and works from DOCA_LOG_REGISTER constructors,
 * before main() (the lock is statically initialised).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sd_log_core.h"
#include "sd_log.h"

struct sd_log_source {
	char *name; /* NULL once unregistered */
};

static struct sd_log_source *sd_log_sources;
static size_t sd_log_sources_used;
static size_t sd_log_sources_capacity;

/* Make room for one more entry; lock held. */
static bool sd_log_sources_reserve(void)
{
	struct sd_log_source *grown;
	size_t capacity;

	if (sd_log_sources_used < sd_log_sources_capacity)
		return true;
	if (sd_log_sources_used >= (size_t)INT_MAX)
		return false;
	capacity = sd_log_sources_capacity ? sd_log_sources_capacity * 2 : 64;
	grown = realloc(sd_log_sources, capacity * sizeof(*grown));
	if (grown == NULL)
		return false;
	sd_log_sources = grown;
	sd_log_sources_capacity = capacity;
	return true;
}

doca_error_t doca_log_register_source(const char *source_name, int *source)
{
	char *name;
	bool room;

	if (source_name == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "source_name is NULL (source %p)", (void *)source);
	if (source == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "source is NULL (source_name \"%s\")", source_name);
	name = strdup(source_name);
	if (name == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot copy source name \"%s\"", source_name);

	sd_log_lock();
	room = sd_log_sources_reserve();
	if (room) {
		sd_log_sources[sd_log_sources_used].name = name;
		*source = (int)sd_log_sources_used++;
	}
	sd_log_unlock();

	if (!room) {
		free(name);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot grow the source table for \"%s\"", source_name);
	}
	return DOCA_SUCCESS;
}

bool sd_log_source_is_registered(int source)
{
	bool registered;

	if (source < 0)
		return false;
	sd_log_lock();
	registered = (size_t)source < sd_log_sources_used && sd_log_sources[source].name != NULL;
	sd_log_unlock();
	return registered;
}

doca_error_t doca_log_unregister_source(int source)
{
	char *name = NULL;

	sd_log_lock();
	if (source >= 0 && (size_t)source < sd_log_sources_used) {
		name = sd_log_sources[source].name;
		sd_log_sources[source].name = NULL;
	}
	sd_log_unlock();

	if (name == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "source %d is not registered (unknown or already released)",
				 source);
	free(name);
	return DOCA_SUCCESS;
}
