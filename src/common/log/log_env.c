/*
 * log_env.c - SOFTDOCA_SDK_LOG: show softdoca's own diagnostics without
 * changing the program.
 *
 * SDK records are discarded while a program has created no SDK backend,
 * as DOCA does.  Programs written for the hardware often never create
 * one, and then a rejected call is silent.  Setting SOFTDOCA_SDK_LOG to a
 * level name (crit, error, warning, info, debug, trace) or number adds one
 * SDK backend on stderr at that level before main() runs.  Unset: nothing
 * changes.
 *
 * A program that creates its own SDK backend on stderr (as the official
 * samples do) would then see every record twice.  The backend made here is
 * marked, and log_emit.c gives it only the records that no other backend
 * has already written to stderr: each record shows once, at the more
 * verbose of the two levels.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <doca_log.h>

#include "sd_log.h"
#include "sd_log_core.h"

struct sd_level_name {
	const char *name;
	uint32_t level;
};

static const struct sd_level_name sd_level_names[] = {
	{"crit", DOCA_LOG_LEVEL_CRIT},	   {"error", DOCA_LOG_LEVEL_ERROR}, {"warning", DOCA_LOG_LEVEL_WARNING},
	{"warn", DOCA_LOG_LEVEL_WARNING}, {"info", DOCA_LOG_LEVEL_INFO},   {"debug", DOCA_LOG_LEVEL_DEBUG},
	{"trace", DOCA_LOG_LEVEL_TRACE},
};

/* Level named by `text`, or 0 when it names none. */
static uint32_t sd_parse_level(const char *text)
{
	char *end;
	unsigned long value;

	for (size_t i = 0; i < sizeof(sd_level_names) / sizeof(sd_level_names[0]); i++)
		if (strcasecmp(text, sd_level_names[i].name) == 0)
			return sd_level_names[i].level;
	value = strtoul(text, &end, 10);
	if (*text == '\0' || *end != '\0' || value < DOCA_LOG_LEVEL_CRIT || value > DOCA_LOG_LEVEL_TRACE)
		return 0;
	return (uint32_t)value;
}

/* Runs after DOCA_LOG_REGISTER constructors (priority 101). */
static void __attribute__((constructor(102))) sd_log_env_backend(void)
{
	const char *text = getenv("SOFTDOCA_SDK_LOG");
	struct doca_log_backend *backend;
	uint32_t level;

	if (text == NULL || *text == '\0')
		return;
	level = sd_parse_level(text);
	if (level == 0) {
		static const char msg[] = "softdoca: SOFTDOCA_SDK_LOG must be crit, error, warning, info, debug, "
					  "trace or 20..70; ignored\n";
		(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
		return;
	}
	if (doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &backend) != DOCA_SUCCESS)
		return;
	(void)doca_log_backend_set_sdk_level(backend, level);
	sd_log_lock();
	backend->from_env = true;
	sd_log_unlock();
}
