/*
 * doca_argp.h - softdoca's implementation of the DOCA Arg Parser interface.
 *
 * The Arg Parser is one process-wide object. A program initialises it,
 * describes its flags (parameters) and optional commands, then hands it
 * argc/argv: for each flag found on the command line, or in a JSON file
 * named with -j/--json, the parser calls the flag's callback with the
 * parsed value and the program's configuration pointer. The parser also
 * provides the DOCA flags every program has: help, version, the two log
 * levels and the JSON file.
 *
 * Value seen by a parameter callback, per type: STRING a NUL-terminated
 * char array, INT an int, BOOLEAN a bool, JSON_OBJ the compact text of a
 * JSON object. The storage belongs to the parser and lives only for the
 * duration of the call.
 *
 * All functions are meant to be called from one thread.
 *
 * The names, values and prototypes below are those of DOCA 3.3, so programs
 * written for the SDK build against this header unchanged.
 */
#ifndef DOCA_ARGP_H_
#define DOCA_ARGP_H_

#include <stdarg.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_log.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called with (value, program_config) when a parameter is found. */
typedef doca_error_t (*doca_argp_param_cb_t)(void *, void *);

/* Called with program_config when a command was selected. */
typedef doca_error_t (*doca_argp_cmd_cb_t)(void *);

/* Receives the DPDK (EAL) part of the command line. */
typedef doca_error_t (*doca_argp_dpdk_cb_t)(int argc, char **argv);

/* Called with program_config once every parameter was handled. */
typedef doca_error_t (*doca_argp_validation_cb_t)(void *);

/* Receives the parser's own messages instead of stderr. */
typedef doca_error_t (*doca_argp_logger_cb_t)(enum doca_log_level level, const char *format, va_list args);

/* How the value of a parameter is read. */
enum doca_argp_type {
	DOCA_ARGP_TYPE_UNKNOWN = 0,
	DOCA_ARGP_TYPE_STRING,
	DOCA_ARGP_TYPE_INT,
	DOCA_ARGP_TYPE_BOOLEAN,
	DOCA_ARGP_TYPE_JSON_OBJ,
};

/* One flag of the program (opaque). */
struct doca_argp_param;

/* One command of the program (opaque). */
struct doca_argp_cmd;

/* Print the usage text to stdout. */
DOCA_EXPERIMENTAL
void doca_argp_usage(void);

/* Start a parser session; program_name may be NULL (taken from argv[0]). */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_init(const char *program_name, void *program_config);

/* Add a top-level program parameter; the parser owns it afterwards, whatever the result. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_param(struct doca_argp_param *input_param);

/* Add a top-level command; the parser owns it afterwards, whatever the result. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_cmd(struct doca_argp_cmd *input_cmd);

/* Replace what -v/--version does. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback);

/* Run a whole-configuration check after all parameters were handled. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_validation_callback(doca_argp_validation_cb_t callback);

/* Route the parser's own messages to a callback. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_logger_callback(doca_argp_logger_cb_t callback);

/* Send the parser's own messages to stderr again. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_disable_logger_callback(void);

/* Parse the command line (and JSON file); -h and -v end the process. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_start(int argc, char **argv);

/* End the parser session and release everything it owns. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_destroy(void);

/* Declare a DPDK program: flags before "--" go to the callback. */
DOCA_EXPERIMENTAL
void doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback);

DOCA_EXPERIMENTAL
doca_error_t doca_argp_param_create(struct doca_argp_param **param);

/* Written as -<name> on the command line; may be several characters long. */
DOCA_EXPERIMENTAL
void doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name);

/* Written as --<name>; also the key in a JSON file. */
DOCA_EXPERIMENTAL
void doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name);

/* Text shown after the names in the usage, e.g. "<path>". */
DOCA_EXPERIMENTAL
void doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments);

DOCA_EXPERIMENTAL
void doca_argp_param_set_description(struct doca_argp_param *param, const char *description);

DOCA_EXPERIMENTAL
void doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback);

DOCA_EXPERIMENTAL
void doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type);

/* The parameter must be given (command line or JSON). */
DOCA_EXPERIMENTAL
void doca_argp_param_set_mandatory(struct doca_argp_param *param);

/* The parameter is not read from a JSON file. */
DOCA_EXPERIMENTAL
void doca_argp_param_set_cli_only(struct doca_argp_param *param);

/* The parameter may be given several times. */
DOCA_EXPERIMENTAL
void doca_argp_param_set_multiplicity(struct doca_argp_param *param);

/* The parameter may not be combined with any other program parameter. */
DOCA_EXPERIMENTAL
void doca_argp_param_set_singular(struct doca_argp_param *param);

/* The parameter is also valid in every sub-command of its command. */
DOCA_EXPERIMENTAL
void doca_argp_param_set_inherited(struct doca_argp_param *param);

/* The parameter is accepted but not listed in the usage. */
DOCA_EXPERIMENTAL
void doca_argp_param_set_hidden(struct doca_argp_param *param);

/* Free a parameter that was never registered. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_param_destroy(struct doca_argp_param *param);

DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_create(struct doca_argp_cmd **cmd);

DOCA_EXPERIMENTAL
void doca_argp_cmd_set_name(struct doca_argp_cmd *cmd, const char *name);

DOCA_EXPERIMENTAL
void doca_argp_cmd_set_description(struct doca_argp_cmd *cmd, const char *description);

DOCA_EXPERIMENTAL
void doca_argp_cmd_set_callback(struct doca_argp_cmd *cmd, doca_argp_cmd_cb_t callback);

DOCA_EXPERIMENTAL
void doca_argp_cmd_set_hidden(struct doca_argp_cmd *cmd);

/* Attach a parameter to a command; the parser owns it afterwards, whatever the result. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_register_param(struct doca_argp_cmd *cmd, struct doca_argp_param *input_param);

/* Nest a command under another; the parser owns it afterwards, whatever the result. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_register_cmd(struct doca_argp_cmd *cmd, struct doca_argp_cmd *input_cmd);

/* Free a command that was never registered. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_destroy(struct doca_argp_cmd *cmd);

/* The application log level given with -l, or the current global one. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_get_log_level(int *log_level);

/* The SDK log level given with --sdk-log-level, or the current global one. */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_get_sdk_log_level(int *log_level);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ARGP_H_ */
