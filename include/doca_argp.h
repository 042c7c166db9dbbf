/**
 * @file doca_argp.h
 * @brief DOCA Arg Parser: the program's flags, commands and JSON configuration file.
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

/**
 * @brief Called when a parameter is found on the command line or in the JSON file.
 *
 * The first argument points to the parsed value, owned by the parser and
 * valid only during the call: a NUL-terminated string (STRING), an int (INT),
 * a bool (BOOLEAN) or the compact text of a JSON object (JSON_OBJ).  The
 * second is the program_config given to doca_argp_init().  Returning an error
 * stops the parsing: doca_argp_start() returns it.
 */
typedef doca_error_t (*doca_argp_param_cb_t)(void *, void *);

/**
 * @brief Called with the program_config of doca_argp_init() when a command was selected,
 * after every parameter was handled; returning an error makes doca_argp_start() fail.
 */
typedef doca_error_t (*doca_argp_cmd_cb_t)(void *);

/**
 * @brief Receives the DPDK (EAL) part of the command line, the flags before "--".
 *
 * @param argc the number of words, the program name first.
 * @param argv the words.
 * @return DOCA_SUCCESS, or an error that makes doca_argp_start() fail.
 */
typedef doca_error_t (*doca_argp_dpdk_cb_t)(int argc, char **argv);

/**
 * @brief Called once with the program_config of doca_argp_init() after every parameter was handled,
 * for checks across parameters; returning an error makes doca_argp_start() fail.
 */
typedef doca_error_t (*doca_argp_validation_cb_t)(void *);

/**
 * @brief Receives the parser's own messages (unknown flag, bad value, ...) instead of stderr.
 *
 * @param level the message's severity.
 * @param format a printf format.
 * @param args its arguments.
 * @return ignored by the parser.
 */
typedef doca_error_t (*doca_argp_logger_cb_t)(enum doca_log_level level, const char *format, va_list args);

/**
 * How the value of a parameter is read.
 */
enum doca_argp_type {
	DOCA_ARGP_TYPE_UNKNOWN = 0, /**< not set: registration refuses it */
	DOCA_ARGP_TYPE_STRING, /**< a string */
	DOCA_ARGP_TYPE_INT, /**< an integer */
	DOCA_ARGP_TYPE_BOOLEAN, /**< a switch without value (true when given); in JSON, true or false */
	DOCA_ARGP_TYPE_JSON_OBJ, /**< a JSON object, from a JSON file only */
};

/**
 * @struct doca_argp_param
 * One flag of the program.  Created with doca_argp_param_create(),
 * described with the doca_argp_param_set_*() calls, then registered; from
 * registration on, successful or not, the parser owns it.
 */
struct doca_argp_param;

/**
 * @struct doca_argp_cmd
 * One command of the program (prog [flags] cmd [cmd flags] ...).  Created
 * with doca_argp_cmd_create(); from registration on the parser owns it.
 */
struct doca_argp_cmd;

/**
 * @brief Prints the usage text (program flags, DOCA flags, commands) to stdout.
 *
 * Prints nothing before doca_argp_init().
 */
DOCA_EXPERIMENTAL
void doca_argp_usage(void);

/**
 * @brief Starts a parser session and registers the DOCA flags every program has.
 *
 * The parser is one object per process; call doca_argp_destroy() at cleanup.
 *
 * @param program_name the name shown in the usage (copied), or NULL for the base name of argv[0].
 * @param program_config handed to every callback; may be NULL.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_BAD_STATE when a session is already open;
 * DOCA_ERROR_INVALID_VALUE when @p program_name is an empty string;
 * DOCA_ERROR_NO_MEMORY when the session cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_init(const char *program_name, void *program_config);

/**
 * @brief Adds a top-level program parameter.
 *
 * It needs a short or long name, a description, a callback and a type.  The
 * parser owns the parameter afterwards, whatever the result: never use or
 * destroy it again.  A parameter without a long name is made CLI-only.
 *
 * @param input_param the parameter.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, or a name clashes with
 * another one of the same scope or a built-in flag (h, help, v, version, l,
 * log-level, sdk-log-level, j, json);
 * DOCA_ERROR_INITIALIZATION when a required attribute is missing;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised or already started,
 * or the object is already registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_param(struct doca_argp_param *input_param);

/**
 * @brief Adds a top-level command.
 *
 * It needs a name and a description.  The parser owns it afterwards,
 * whatever the result.
 *
 * @param input_cmd the command.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, or a name clashes with
 * another one of the same scope or a built-in flag (h, help, v, version, l,
 * log-level, sdk-log-level, j, json);
 * DOCA_ERROR_INITIALIZATION when a required attribute is missing;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised or already started,
 * or the object is already registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_cmd(struct doca_argp_cmd *input_cmd);

/**
 * @brief Replaces what -v/--version does (by default: print the header and library versions and exit).
 *
 * The callback gets (NULL, program_config); when it returns DOCA_SUCCESS the
 * parser exits the process with status 0.
 *
 * @param callback the callback; a later call replaces it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p callback is NULL;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised (or already started).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback);

/**
 * @brief Registers a check of the whole configuration, run after every parameter was handled.
 *
 * @param callback the callback; a later call replaces it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p callback is NULL;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised (or already started).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_validation_callback(doca_argp_validation_cb_t callback);

/**
 * @brief Routes the parser's own messages to a callback instead of stderr.
 *
 * @param callback the callback.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p callback is NULL;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised (or already started);
 * DOCA_ERROR_ALREADY_EXIST when a logger callback is already registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_register_logger_callback(doca_argp_logger_cb_t callback);

/**
 * @brief Sends the parser's own messages to stderr again.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE when the parser is not initialised or no logger callback is registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_disable_logger_callback(void);

/**
 * @brief Parses the command line (and the JSON file named with -j/--json) and calls the callbacks.
 *
 * Order: -h prints the usage and -v the versions, then the process exits
 * with status 0; otherwise the JSON file, then the command-line flags left to
 * right (overriding the file), the mandatory check, the command callbacks,
 * the validation callback and the DPDK callback.  On failure the parser
 * prints one message and the usage, and returns the error: it does not exit.
 *
 * @param argc as main() got it.
 * @param argv as main() got it; not modified.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised or already started;
 * DOCA_ERROR_NOT_SUPPORTED for an unknown flag or command, or a JSON_OBJ parameter on the command line;
 * DOCA_ERROR_INVALID_VALUE for a bad or missing value, a repeated or singular
 * parameter, a missing mandatory parameter, or @p argc below 1 / @p argv NULL;
 * DOCA_ERROR_IO_FAILED when the JSON file cannot be read or parsed or has a wrong type;
 * DOCA_ERROR_NO_MEMORY when memory runs out;
 * any error a callback returned.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_start(int argc, char **argv);

/**
 * @brief Ends the parser session and releases every parameter, command and string it owns.
 *
 * A new session may then be opened with doca_argp_init().
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE when no session is open.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_destroy(void);

/**
 * @brief Declares a DPDK program: the flags before "--" go to @p callback, the rest to the parser.
 *
 * After doca_argp_init() (ignored before); a NULL callback is ignored.
 *
 * @param callback receives the DPDK part of the command line during doca_argp_start().
 */
DOCA_EXPERIMENTAL
void doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback);

/**
 * @brief Creates an empty parameter.
 *
 * @param param receives it; the caller owns it until it is registered
 * (doca_argp_register_param(), doca_argp_cmd_register_param()) or destroyed.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p param is NULL;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_param_create(struct doca_argp_param **param);

/**
 * @brief Sets the name written -NAME on the command line (it may be several characters long).
 *
 * Set before registration; strings are copied.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 * @param name the name, without dash; NULL clears it.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name);

/**
 * @brief Sets the name written --NAME on the command line, also the key in a JSON file.
 *
 * Set before registration; strings are copied.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 * @param name the name, without dashes; NULL clears it.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name);

/**
 * @brief Sets the text shown after the names in the usage, for example "<path>".
 *
 * Set before registration; strings are copied.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 * @param arguments the text; NULL clears it.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments);

/**
 * @brief Sets the description shown in the usage (required).
 *
 * Set before registration; strings are copied.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 * @param description the text.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_description(struct doca_argp_param *param, const char *description);

/**
 * @brief Sets the callback that receives the parameter's value (required).
 *
 * A NULL @p param is ignored.
 *
 * @param param the parameter.
 * @param callback the callback.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback);

/**
 * @brief Sets how the value is read (required; not DOCA_ARGP_TYPE_UNKNOWN).
 *
 * A NULL @p param is ignored.
 *
 * @param param the parameter.
 * @param type the type.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type);

/**
 * @brief Makes the parameter required: doca_argp_start() fails without it (command line or JSON).
 *
 * Set before registration.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_mandatory(struct doca_argp_param *param);

/**
 * @brief Keeps the parameter out of JSON files: it is read from the command line only.
 *
 * Set before registration.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_cli_only(struct doca_argp_param *param);

/**
 * @brief Lets the parameter be given several times (its callback runs for each).
 *
 * Set before registration.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_multiplicity(struct doca_argp_param *param);

/**
 * @brief Forbids combining the parameter with any other program parameter.
 *
 * Set before registration.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_singular(struct doca_argp_param *param);

/**
 * @brief Makes the parameter valid in every sub-command of its command as well.
 *
 * Set before registration.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_inherited(struct doca_argp_param *param);

/**
 * @brief Keeps the parameter out of the usage; it is still accepted.
 *
 * Set before registration.  A NULL @p param is ignored.
 *
 * @param param the parameter.
 */
DOCA_EXPERIMENTAL
void doca_argp_param_set_hidden(struct doca_argp_param *param);

/**
 * @brief Frees a parameter that was never registered.
 *
 * @param param the parameter.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when it was registered (the parser owns it).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_param_destroy(struct doca_argp_param *param);

/**
 * @brief Creates an empty command.
 *
 * @param cmd receives it; the caller owns it until it is registered or destroyed.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p cmd is NULL;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_create(struct doca_argp_cmd **cmd);

/**
 * @brief Sets the word that selects the command (required; no leading dash).
 *
 * Set before registration; strings are copied.  A NULL @p cmd is ignored.
 *
 * @param cmd the command.
 * @param name the word.
 */
DOCA_EXPERIMENTAL
void doca_argp_cmd_set_name(struct doca_argp_cmd *cmd, const char *name);

/**
 * @brief Sets the description shown in the usage (required).
 *
 * Set before registration; strings are copied.  A NULL @p cmd is ignored.
 *
 * @param cmd the command.
 * @param description the text.
 */
DOCA_EXPERIMENTAL
void doca_argp_cmd_set_description(struct doca_argp_cmd *cmd, const char *description);

/**
 * @brief Sets the callback run when the command is selected (optional).
 *
 * A NULL @p cmd is ignored.
 *
 * @param cmd the command.
 * @param callback the callback.
 */
DOCA_EXPERIMENTAL
void doca_argp_cmd_set_callback(struct doca_argp_cmd *cmd, doca_argp_cmd_cb_t callback);

/**
 * @brief Keeps the command out of the usage; it can still be selected.
 *
 * A NULL @p cmd is ignored.
 *
 * @param cmd the command.
 */
DOCA_EXPERIMENTAL
void doca_argp_cmd_set_hidden(struct doca_argp_cmd *cmd);

/**
 * @brief Attaches a parameter to a command.
 *
 * The parser owns the parameter afterwards, whatever the result.
 *
 * @param cmd the command.
 * @param input_param the parameter.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, or a name clashes with
 * another one of the same scope or a built-in flag (h, help, v, version, l,
 * log-level, sdk-log-level, j, json);
 * DOCA_ERROR_INITIALIZATION when a required attribute is missing;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised or already started,
 * or the object is already registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_register_param(struct doca_argp_cmd *cmd, struct doca_argp_param *input_param);

/**
 * @brief Nests a command under another.
 *
 * The parser owns the nested command afterwards, whatever the result.
 *
 * @param cmd the parent command.
 * @param input_cmd the nested command.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, or a name clashes with
 * another one of the same scope or a built-in flag (h, help, v, version, l,
 * log-level, sdk-log-level, j, json);
 * DOCA_ERROR_INITIALIZATION when a required attribute is missing;
 * DOCA_ERROR_BAD_STATE when the parser is not initialised or already started,
 * or the object is already registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_register_cmd(struct doca_argp_cmd *cmd, struct doca_argp_cmd *input_cmd);

/**
 * @brief Frees a command that was never registered.
 *
 * @param cmd the command.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when it was registered (the parser owns it).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_cmd_destroy(struct doca_argp_cmd *cmd);

/**
 * @brief The application log level the user gave with -l/--log-level, or the current global lower limit.
 *
 * Any time.
 *
 * @param log_level receives the level.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p log_level is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_get_log_level(int *log_level);

/**
 * @brief The SDK log level the user gave with --sdk-log-level, or the current global SDK limit.
 *
 * Any time.
 *
 * @param log_level receives the level.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p log_level is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_argp_get_sdk_log_level(int *log_level);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ARGP_H_ */
