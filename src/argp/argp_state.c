/*
 * argp_state.c - the Arg Parser singleton: init, destroy, the program-wide
 * callbacks and the log-level getters.
 *
 * Phases: UNINIT -> INIT (doca_argp_init) -> STARTED (doca_argp_start
 * succeeded) -> UNINIT (doca_argp_destroy; a new session may follow). A
 * destroy issued from a callback while doca_argp_start runs only marks the
 * session CLOSING: the memory that start is still walking is released when
 * start unwinds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "argp_internal.h"
#include "sd_log.h"

struct sd_argp sd_argp;

const char *sd_argp_phase_name(void)
{
	switch (sd_argp.phase) {
	case SD_ARGP_UNINIT:
		return "not initialised";
	case SD_ARGP_INIT:
		return sd_argp.starting ? "parsing" : "initialised";
	case SD_ARGP_STARTED:
		return "started";
	case SD_ARGP_CLOSING:
		return "destroyed";
	}
	return "?";
}

bool sd_argp_in_setup(void)
{
	return sd_argp.phase == SD_ARGP_INIT && !sd_argp.starting;
}

/* Initialised and not destroyed: the phases in which callbacks may be registered. */
static bool sd_argp_is_live(void)
{
	return sd_argp.phase == SD_ARGP_INIT || sd_argp.phase == SD_ARGP_STARTED;
}

const char *sd_argp_program_name(void)
{
	if (sd_argp.init_name != NULL)
		return sd_argp.init_name;
	if (sd_argp.argv0_name != NULL)
		return sd_argp.argv0_name;
	return program_invocation_short_name;
}

static void sd_argp_free_known(void)
{
	struct doca_argp_param *param = sd_argp.known_params;
	struct doca_argp_cmd *cmd = sd_argp.known_cmds;

	while (param != NULL) {
		struct doca_argp_param *next = param->next_known;

		sd_argp_param_free(param);
		param = next;
	}
	while (cmd != NULL) {
		struct doca_argp_cmd *next = cmd->next_known;

		sd_argp_cmd_free(cmd);
		cmd = next;
	}
}

void sd_argp_release(void)
{
	sd_argp_free_known();
	sd_argp_dpdk_free();
	free(sd_argp.init_name);
	free(sd_argp.argv0_name);
	memset(&sd_argp, 0, sizeof(sd_argp));
	sd_argp.phase = SD_ARGP_UNINIT;
}

doca_error_t doca_argp_init(const char *program_name, void *program_config)
{
	doca_error_t err;

	if (sd_argp.phase != SD_ARGP_UNINIT)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the arg parser is %s, call doca_argp_destroy first",
				 sd_argp_phase_name());
	if (program_name != NULL && program_name[0] == '\0')
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "program_name is an empty string (pass NULL to use argv[0])");

	memset(&sd_argp, 0, sizeof(sd_argp));
	if (program_name != NULL) {
		sd_argp.init_name = strdup(program_name);
		if (sd_argp.init_name == NULL)
			return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot copy program_name");
	}
	sd_argp.config = program_config;
	sd_argp_cmd_init_scope(&sd_argp.root);
	sd_argp_cmd_init_scope(&sd_argp.doca);
	sd_argp.phase = SD_ARGP_INIT;

	err = sd_argp_builtins_register();
	if (err != DOCA_SUCCESS) {
		sd_argp_release();
		return SD_REJECT(err, "cannot create the built-in DOCA flags");
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_destroy(void)
{
	if (!sd_argp_is_live())
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the arg parser is %s", sd_argp_phase_name());
	if (sd_argp.starting) {
		/* Called from a callback: doca_argp_start still walks this memory. */
		sd_argp.phase = SD_ARGP_CLOSING;
		return DOCA_SUCCESS;
	}
	sd_argp_release();
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback)
{
	if (!sd_argp_in_setup())
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the arg parser is %s, callbacks are registered after "
				 "doca_argp_init and before doca_argp_start", sd_argp_phase_name());
	if (callback == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "callback is NULL");
	sd_argp.version_cb = callback;
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_register_validation_callback(doca_argp_validation_cb_t callback)
{
	if (!sd_argp_in_setup())
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the arg parser is %s, callbacks are registered after "
				 "doca_argp_init and before doca_argp_start", sd_argp_phase_name());
	if (callback == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "callback is NULL");
	sd_argp.validation_cb = callback;
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_register_logger_callback(doca_argp_logger_cb_t callback)
{
	if (!sd_argp_is_live())
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the arg parser is %s", sd_argp_phase_name());
	if (callback == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "callback is NULL");
	if (sd_argp.logger_cb != NULL)
		return SD_REJECT(DOCA_ERROR_ALREADY_EXIST,
				 "a logger callback is already registered (doca_argp_disable_logger_callback first)");
	sd_argp.logger_cb = callback;
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_disable_logger_callback(void)
{
	if (!sd_argp_is_live())
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the arg parser is %s", sd_argp_phase_name());
	if (sd_argp.logger_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "no logger callback is registered");
	sd_argp.logger_cb = NULL;
	return DOCA_SUCCESS;
}

void doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback)
{
	if (!sd_argp_in_setup()) {
		SD_LOG_ERR("the arg parser is %s, the call is ignored (call it after doca_argp_init)",
			   sd_argp_phase_name());
		return;
	}
	if (callback == NULL) {
		SD_LOG_ERR("callback is NULL, the call is ignored");
		return;
	}
	sd_argp.dpdk_cb = callback;
}

doca_error_t doca_argp_get_log_level(int *log_level)
{
	if (log_level == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer log_level is NULL");
	*log_level = sd_argp.log_level_given ? sd_argp.log_level : (int)doca_log_level_get_global_lower_limit();
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_get_sdk_log_level(int *log_level)
{
	if (log_level == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer log_level is NULL");
	*log_level = sd_argp.sdk_log_level_given ? sd_argp.sdk_log_level : (int)doca_log_level_get_global_sdk_limit();
	return DOCA_SUCCESS;
}

void doca_argp_usage(void)
{
	if (!sd_argp_is_live())
		return;
	sd_argp_usage_print(stdout);
	fflush(stdout);
}
