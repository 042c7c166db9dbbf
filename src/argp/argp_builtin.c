/*
 * argp_builtin.c - the DOCA flags every program has: help,
 * version, the application and SDK log levels, and the JSON file.
 *
 * They are ordinary params of a scope of their own, so the tokenizer and
 * the usage treat them like program flags; what they do is decided here.
 * The descriptions are our own words; the level legend is the form users
 * know from DOCA.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_version.h>

#include "argp_internal.h"
#include "sd_log.h"

#define SD_ARGP_LEVEL_LEGEND "<10=DISABLE, 20=CRITICAL, 30=ERROR, 40=WARNING, 50=INFO, 60=DEBUG, 70=TRACE>"

struct sd_argp_builtin_def {
	enum sd_argp_builtin which;
	const char *short_name;
	const char *long_name;
	const char *arguments;
	enum doca_argp_type type;
	const char *description;
};

static const struct sd_argp_builtin_def sd_argp_builtin_defs[] = {
	{SD_ARGP_HELP, "h", "help", NULL, DOCA_ARGP_TYPE_BOOLEAN, "Show this help text and exit"},
	{SD_ARGP_VERSION, "v", "version", NULL, DOCA_ARGP_TYPE_BOOLEAN,
	 "Show the DOCA SDK (compile-time) and runtime versions and exit"},
	{SD_ARGP_LOG_LEVEL, "l", "log-level", NULL, DOCA_ARGP_TYPE_INT,
	 "Numeric log level of the application messages " SD_ARGP_LEVEL_LEGEND},
	{SD_ARGP_SDK_LOG_LEVEL, NULL, "sdk-log-level", NULL, DOCA_ARGP_TYPE_INT,
	 "Numeric log level of the DOCA SDK messages " SD_ARGP_LEVEL_LEGEND},
	{SD_ARGP_JSON, "j", "json", "<path>", DOCA_ARGP_TYPE_STRING, "Read the flags from this JSON file"},
};

#define SD_ARGP_BUILTIN_COUNT (sizeof(sd_argp_builtin_defs) / sizeof(sd_argp_builtin_defs[0]))

bool sd_argp_is_builtin_name(const char *name)
{
	for (size_t i = 0; i < SD_ARGP_BUILTIN_COUNT; i++) {
		const struct sd_argp_builtin_def *def = &sd_argp_builtin_defs[i];

		if ((def->short_name != NULL && strcmp(def->short_name, name) == 0) ||
		    strcmp(def->long_name, name) == 0)
			return true;
	}
	return false;
}

static doca_error_t sd_argp_builtin_create(const struct sd_argp_builtin_def *def)
{
	struct doca_argp_param *param = sd_argp_param_new();

	if (param == NULL)
		return DOCA_ERROR_NO_MEMORY;
	param->owned = true;
	param->builtin = def->which;
	param->type = def->type;
	param->cli_only = def->which != SD_ARGP_LOG_LEVEL && def->which != SD_ARGP_SDK_LOG_LEVEL;
	if (!sd_argp_set_string(&param->short_name, def->short_name) ||
	    !sd_argp_set_string(&param->long_name, def->long_name) ||
	    !sd_argp_set_string(&param->arguments, def->arguments) ||
	    !sd_argp_set_string(&param->description, def->description))
		return DOCA_ERROR_NO_MEMORY; /* the param is on the known list: released with the session */
	sd_argp_cmd_add_param(&sd_argp.doca, param);
	return DOCA_SUCCESS;
}

doca_error_t sd_argp_builtins_register(void)
{
	for (size_t i = 0; i < SD_ARGP_BUILTIN_COUNT; i++) {
		doca_error_t err = sd_argp_builtin_create(&sd_argp_builtin_defs[i]);

		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

doca_error_t sd_argp_builtin_apply_level(enum sd_argp_builtin which, int64_t level, const char *origin)
{
	const char *flag = which == SD_ARGP_LOG_LEVEL ? "log-level" : "sdk-log-level";
	doca_error_t err;

	if (level < SD_ARGP_LEVEL_MIN || level > SD_ARGP_LEVEL_MAX) {
		SD_ARGP_ERR("%s %s: %lld is not a log level, expected %d..%d " SD_ARGP_LEVEL_LEGEND, origin, flag,
			    (long long)level, SD_ARGP_LEVEL_MIN, SD_ARGP_LEVEL_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (which == SD_ARGP_LOG_LEVEL)
		err = doca_log_level_set_global_lower_limit((uint32_t)level);
	else
		err = doca_log_level_set_global_sdk_limit((uint32_t)level);
	if (err != DOCA_SUCCESS) {
		SD_ARGP_ERR("%s %s: the log library refused level %lld (%s)", origin, flag, (long long)level,
			    doca_error_get_name(err));
		return err;
	}
	if (which == SD_ARGP_LOG_LEVEL) {
		sd_argp.log_level_given = true;
		sd_argp.log_level = (int)level;
	} else {
		sd_argp.sdk_log_level_given = true;
		sd_argp.sdk_log_level = (int)level;
	}
	return DOCA_SUCCESS;
}

void sd_argp_help_and_exit(void)
{
	sd_argp_usage_print(stdout);
	sd_argp_release();
	fflush(stdout);
	exit(EXIT_SUCCESS);
}

doca_error_t sd_argp_version(void)
{
	doca_error_t err;

	if (sd_argp.version_cb == NULL) {
		printf("DOCA SDK     Version (Compilation): %s\n", DOCA_VERSION_STRING);
		printf("DOCA Runtime Version (Runtime):     %s\n", doca_version_runtime());
		sd_argp_release();
		fflush(stdout);
		exit(EXIT_SUCCESS);
	}
	/* The official callback prints, calls doca_argp_destroy() and exits by itself. */
	err = sd_argp.version_cb(NULL, sd_argp.config);
	if (err == DOCA_SUCCESS) {
		sd_argp_release();
		fflush(stdout);
		exit(EXIT_SUCCESS);
	}
	if (sd_argp.phase != SD_ARGP_CLOSING)
		SD_ARGP_ERR("the version callback failed: %s", doca_error_get_name(err));
	return err;
}
