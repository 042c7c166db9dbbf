/*
 * argp_test_util.c - see argp_test_util.h.
 */
#include "argp_test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_log.h>

char sd_calls[SD_CALLS_MAX];
char sd_msgs[SD_CALLS_MAX];

void sd_calls_reset(void)
{
	sd_calls[0] = '\0';
	sd_msgs[0] = '\0';
}

static void sd_append(char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sd_append(char *log, const char *fmt, ...)
{
	size_t used = strlen(log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(log + used, SD_CALLS_MAX - used, fmt, ap);
	va_end(ap);
}

#define SD_STR_CB(name, tag)                                                                        \
	doca_error_t name(void *value, void *config)                                                \
	{                                                                                           \
		(void)config;                                                                       \
		sd_append(sd_calls, tag "=%s;", (char *)value);                                     \
		return DOCA_SUCCESS;                                                                \
	}

SD_STR_CB(sd_cb_str_a, "a")
SD_STR_CB(sd_cb_str_b, "b")
SD_STR_CB(sd_cb_str_c, "c")
SD_STR_CB(sd_cb_json_o, "o")

doca_error_t sd_cb_int_n(void *value, void *config)
{
	(void)config;
	sd_append(sd_calls, "n=%d;", *(int *)value);
	return DOCA_SUCCESS;
}

doca_error_t sd_cb_int_m(void *value, void *config)
{
	(void)config;
	sd_append(sd_calls, "m=%d;", *(int *)value);
	return DOCA_SUCCESS;
}

doca_error_t sd_cb_bool_f(void *value, void *config)
{
	(void)config;
	sd_append(sd_calls, "f=%s;", *(bool *)value ? "true" : "false");
	return DOCA_SUCCESS;
}

doca_error_t sd_cb_str_len(void *value, void *config)
{
	(void)config;
	sd_append(sd_calls, "len=%zu;", strlen((char *)value));
	return DOCA_SUCCESS;
}

doca_error_t sd_cb_str_level(void *value, void *config)
{
	(void)value;
	(void)config;
	sd_append(sd_calls, "level=%u;", doca_log_level_get_global_lower_limit());
	return DOCA_SUCCESS;
}

doca_error_t sd_cb_str_refuse(void *value, void *config)
{
	(void)config;
	sd_append(sd_calls, "bad=%s;", (char *)value);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t sd_cb_str_cfg(void *value, void *config)
{
	(void)value;
	sd_append(sd_calls, "cfg=%s;", config != NULL ? (char *)config : "(null)");
	return DOCA_SUCCESS;
}

doca_error_t sd_validation_ok(void *config)
{
	(void)config;
	sd_append(sd_calls, "valid;");
	return DOCA_SUCCESS;
}

doca_error_t sd_validation_refuse(void *config)
{
	(void)config;
	sd_append(sd_calls, "invalid;");
	return DOCA_ERROR_NOT_PERMITTED;
}

struct doca_argp_param *sd_param(const char *short_name, const char *long_name, enum doca_argp_type type,
				 doca_argp_param_cb_t callback)
{
	struct doca_argp_param *param = NULL;

	if (doca_argp_param_create(&param) != DOCA_SUCCESS) {
		fprintf(stderr, "doca_argp_param_create failed\n");
		exit(1);
	}
	if (short_name != NULL)
		doca_argp_param_set_short_name(param, short_name);
	if (long_name != NULL)
		doca_argp_param_set_long_name(param, long_name);
	doca_argp_param_set_description(param, "a test parameter");
	doca_argp_param_set_callback(param, callback);
	doca_argp_param_set_type(param, type);
	return param;
}

void sd_register(const char *short_name, const char *long_name, enum doca_argp_type type,
		 doca_argp_param_cb_t callback)
{
	doca_error_t err = doca_argp_register_param(sd_param(short_name, long_name, type, callback));

	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "registering -%s/--%s failed: %s\n", short_name ? short_name : "",
			long_name ? long_name : "", doca_error_get_name(err));
		exit(1);
	}
}

doca_error_t sd_start_argv(char **argv)
{
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	return doca_argp_start(argc, argv);
}

void sd_fresh(const char *program_name, void *config)
{
	(void)doca_argp_destroy(); /* BAD_STATE when there is no session: expected */
	if (doca_argp_init(program_name, config) != DOCA_SUCCESS) {
		fprintf(stderr, "doca_argp_init failed\n");
		exit(1);
	}
	sd_calls_reset();
	sd_sdk_reset();
}

static void sd_read_all(FILE *file, char *buf, size_t cap)
{
	size_t n;

	rewind(file);
	n = fread(buf, 1, cap - 1, file);
	buf[n] = '\0';
	fclose(file);
}

void sd_child_run(struct sd_child *child, int (*fn)(void *), void *arg)
{
	FILE *out = tmpfile();
	FILE *err = tmpfile();
	int status = 0;
	pid_t pid;

	if (out == NULL || err == NULL) {
		fprintf(stderr, "tmpfile failed\n");
		exit(1);
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		exit(fn(arg));
	}
	waitpid(pid, &status, 0);
	child->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	sd_read_all(out, child->out, sizeof(child->out));
	sd_read_all(err, child->err, sizeof(child->err));
}

/* ---- SDK ERROR records ---- */

static int sd_sdk_error_count;
static char sd_sdk_last_text[4096];
static char sd_sdk_buf[8192];
static bool sd_sdk_installed;

static void sd_sdk_flush(char *buf)
{
	if (strstr(buf, "[ERR]") != NULL) {
		sd_sdk_error_count++;
		snprintf(sd_sdk_last_text, sizeof(sd_sdk_last_text), "%s", buf);
	}
}

static void sd_sdk_install(void)
{
	struct doca_log_backend *backend;

	if (sd_sdk_installed)
		return;
	if (doca_log_backend_create_with_buf_sdk(sd_sdk_buf, sizeof(sd_sdk_buf), sd_sdk_flush, &backend) !=
	    DOCA_SUCCESS) {
		fprintf(stderr, "cannot create the SDK buffer backend\n");
		exit(1);
	}
	sd_sdk_installed = true;
}

void sd_sdk_reset(void)
{
	sd_sdk_install();
	sd_sdk_error_count = 0;
	sd_sdk_last_text[0] = '\0';
}

int sd_sdk_errors(void)
{
	sd_sdk_install();
	return sd_sdk_error_count;
}

const char *sd_sdk_last(void)
{
	return sd_sdk_last_text;
}

/* ---- the parser's own messages ---- */

doca_error_t sd_logger(enum doca_log_level level, const char *format, va_list args)
{
	size_t used = strlen(sd_msgs);

	snprintf(sd_msgs + used, sizeof(sd_msgs) - used, "%s:",
		 level == DOCA_LOG_LEVEL_ERROR ? "ERR" : level == DOCA_LOG_LEVEL_WARNING ? "WRN" : "OTHER");
	used = strlen(sd_msgs);
	vsnprintf(sd_msgs + used, sizeof(sd_msgs) - used, format, args);
	used = strlen(sd_msgs);
	snprintf(sd_msgs + used, sizeof(sd_msgs) - used, "\n");
	return DOCA_SUCCESS;
}

static char sd_temp_paths[4][64];
static pid_t sd_temp_owner;

/* Only the process that created the files removes them (children exit through here too). */
static void sd_temp_cleanup(void)
{
	if (getpid() != sd_temp_owner)
		return;
	for (int i = 0; i < 4; i++)
		if (sd_temp_paths[i][0] != '\0')
			unlink(sd_temp_paths[i]);
}

const char *sd_temp_file(int slot, const char *text)
{
	static const char template[] = "/tmp/sd_argp_test_XXXXXX";
	char *path;
	FILE *file;
	int fd;

	if (slot < 0 || slot > 3) {
		fprintf(stderr, "sd_temp_file: slot %d out of 0..3\n", slot);
		exit(1);
	}
	if (sd_temp_owner == 0) {
		sd_temp_owner = getpid();
		atexit(sd_temp_cleanup);
	}
	path = sd_temp_paths[slot];
	if (path[0] != '\0')
		unlink(path);
	memcpy(path, template, sizeof(template));
	fd = mkstemp(path);
	if (fd < 0 || (file = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "cannot create a temporary file\n");
		exit(1);
	}
	fputs(text, file);
	fclose(file);
	return path;
}
