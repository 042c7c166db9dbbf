/*
 * argp_test_util.h - helpers shared by the Arg Parser tests.
 *
 * - recording callbacks: each appends "<tag>=<value>;" to sd_calls, so a
 *   test checks which callbacks ran, in which order, with which values;
 * - SD_START("prog", "-x", "1"): doca_argp_start on a literal argv;
 * - sd_child_run(): run a function in a child process with stdout and
 *   stderr captured, for the paths that end the process (-h, -v) and for
 *   the stderr messages;
 * - an SDK buffer backend that counts ERROR records (one per rejected call);
 * - a logger callback that keeps the parser's own messages.
 */
#ifndef ARGP_TEST_UTIL_H
#define ARGP_TEST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <doca_argp.h>

#define SD_CALLS_MAX 16384

extern char sd_calls[SD_CALLS_MAX];
void sd_calls_reset(void);

/* Recording callbacks; the tag names the parameter. */
doca_error_t sd_cb_str_a(void *value, void *config);
doca_error_t sd_cb_str_b(void *value, void *config);
doca_error_t sd_cb_str_c(void *value, void *config);
doca_error_t sd_cb_int_n(void *value, void *config);
doca_error_t sd_cb_int_m(void *value, void *config);
doca_error_t sd_cb_bool_f(void *value, void *config);
doca_error_t sd_cb_json_o(void *value, void *config);
/* Records "len=<strlen>;" instead of the text (for long values). */
doca_error_t sd_cb_str_len(void *value, void *config);
/* Records "level=<global lower limit>;" at the time it runs. */
doca_error_t sd_cb_str_level(void *value, void *config);
/* Records "bad=<value>;" and refuses the value. */
doca_error_t sd_cb_str_refuse(void *value, void *config);
/* Records "cfg=<config as string>;" (config is a char *). */
doca_error_t sd_cb_str_cfg(void *value, void *config);

doca_error_t sd_validation_ok(void *config);
doca_error_t sd_validation_refuse(void *config);

/* A param with the given names (NULL for none), type and callback, already set up. */
struct doca_argp_param *sd_param(const char *short_name, const char *long_name, enum doca_argp_type type,
				 doca_argp_param_cb_t callback);
/* Same, and registered; the test fails the process if registration fails. */
void sd_register(const char *short_name, const char *long_name, enum doca_argp_type type,
		 doca_argp_param_cb_t callback);

doca_error_t sd_start_argv(char **argv);
#define SD_START(...) sd_start_argv((char *[]){__VA_ARGS__, NULL})

/* Init a fresh session (destroying any previous one) and reset the records. */
void sd_fresh(const char *program_name, void *config);

struct sd_child {
	int exit_code;   /* -1 when the child did not exit normally */
	char out[65536]; /* captured stdout */
	char err[65536]; /* captured stderr */
};

/* Run fn(arg) in a child; its return value becomes the exit code unless it exits itself. */
void sd_child_run(struct sd_child *child, int (*fn)(void *), void *arg);

/* SDK ERROR records counted by a buffer backend (installed on first use). */
void sd_sdk_reset(void);
int sd_sdk_errors(void);
const char *sd_sdk_last(void);

/* The parser's messages as "<LVL>:<text>\n" lines, via doca_argp_register_logger_callback. */
extern char sd_msgs[SD_CALLS_MAX];
doca_error_t sd_logger(enum doca_log_level level, const char *format, va_list args);

/* Write text to a new temporary file; returns its path (static storage per slot 0..3). */
const char *sd_temp_file(int slot, const char *text);

#endif /* ARGP_TEST_UTIL_H */
