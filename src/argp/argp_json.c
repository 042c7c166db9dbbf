/*
 * argp_json.c - flags from a JSON file given with -j/--json.
 *
 *   { "doca_general_flags": { "log-level": 50, "sdk-log-level": 40 },
 *     "doca_program_flags": { "<long name>": <value>, ... },
 *     "doca_dpdk_flags":    { ... }  (DPDK programs only) }
 *
 * The file is read whole, relaxed to strict JSON (argp_json_clean.c) and
 * parsed by json-c. General flags apply first, then program flags in the
 * order the program registered them. Unknown keys and keys of cli-only
 * flags are ignored with a warning, so one file can serve the host and the
 * DPU build. Errors: file or syntax problems and type mismatches are
 * DOCA_ERROR_IO_FAILED; a value of the right type but out of range is
 * DOCA_ERROR_INVALID_VALUE, as on the command line.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "argp_internal.h"

/* Parameter files are small; refuse anything absurd instead of reading it. */
#define SD_ARGP_JSON_MAX_BYTES (16u << 20)

#define SD_ARGP_GENERAL "doca_general_flags"
#define SD_ARGP_PROGRAM_FLAGS "doca_program_flags"
#define SD_ARGP_DPDK "doca_dpdk_flags"

/* Read a whole stream; NULL when out of memory. *too_large when it passed the limit. */
static char *sd_argp_json_slurp(FILE *file, size_t *len, bool *too_large)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);

	*too_large = false;
	while (buf != NULL) {
		char *bigger;

		used += fread(buf + used, 1, cap - 1 - used, file);
		if (used < cap - 1)
			break; /* end of file, or a read error that ferror() reports */
		if (cap > SD_ARGP_JSON_MAX_BYTES) {
			*too_large = true;
			break;
		}
		bigger = realloc(buf, cap * 2);
		if (bigger == NULL)
			free(buf);
		buf = bigger;
		cap *= 2;
	}
	if (buf != NULL) {
		buf[used] = '\0';
		*len = used;
	}
	return buf;
}

static doca_error_t sd_argp_json_read(const char *path, char **text, size_t *len)
{
	FILE *file = fopen(path, "rb");
	bool too_large, failed;
	char *buf;

	if (file == NULL) {
		SD_ARGP_ERR("cannot open JSON file \"%s\": %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	buf = sd_argp_json_slurp(file, len, &too_large);
	failed = ferror(file) != 0;
	fclose(file);
	if (buf == NULL) {
		SD_ARGP_ERR("out of memory reading JSON file \"%s\"", path);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (failed || too_large) {
		SD_ARGP_ERR("cannot read JSON file \"%s\": %s", path, failed ? "read error" : "larger than 16 MiB");
		free(buf);
		return DOCA_ERROR_IO_FAILED;
	}
	*text = buf;
	return DOCA_SUCCESS;
}

static void sd_argp_json_where(const char *text, size_t offset, int *line, int *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < offset && text[i] != '\0'; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
}

static doca_error_t sd_argp_json_syntax_error(const char *path, const char *text, size_t offset, const char *what)
{
	int line, column;

	sd_argp_json_where(text, offset, &line, &column);
	SD_ARGP_ERR("JSON file \"%s\", line %d, column %d: %s", path, line, column, what);
	return DOCA_ERROR_IO_FAILED;
}

static doca_error_t sd_argp_json_parse(const char *path, char *text, size_t len, struct json_object **root)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	size_t bad, end;

	if (!sd_argp_json_clean(text, len, &bad))
		return sd_argp_json_syntax_error(path, text, bad, "comment never closed");
	tok = json_tokener_new();
	if (tok == NULL) {
		SD_ARGP_ERR("out of memory parsing JSON file \"%s\"", path);
		return DOCA_ERROR_NO_MEMORY;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (obj == NULL)
		return sd_argp_json_syntax_error(path, text, end,
						 jerr == json_tokener_continue ? "unexpected end of file"
									       : json_tokener_error_desc(jerr));
	for (size_t i = end; i < len; i++) {
		if (!(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
			json_object_put(obj);
			return sd_argp_json_syntax_error(path, text, i, "unexpected text after the top-level object");
		}
	}
	if (!json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return sd_argp_json_syntax_error(path, text, 0, "the top level is not a JSON object");
	}
	*root = obj;
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_json_mismatch(const char *path, const char *key, const char *expected,
					  struct json_object *value)
{
	SD_ARGP_ERR("JSON file \"%s\": \"%s\" expects %s, got %s", path, key, expected,
		    json_type_to_name(json_object_get_type(value)));
	return DOCA_ERROR_IO_FAILED;
}

/* An integer value within int; mismatch or range error otherwise. */
static doca_error_t sd_argp_json_int(const char *path, const char *key, struct json_object *value, int64_t lo,
				     int64_t hi, int64_t *out)
{
	int64_t number;

	if (!json_object_is_type(value, json_type_int))
		return sd_argp_json_mismatch(path, key, "an integer", value);
	number = json_object_get_int64(value);
	if (number < lo || number > hi) {
		SD_ARGP_ERR("JSON file \"%s\": \"%s\" = %s is out of range %lld..%lld", path, key,
			    json_object_to_json_string(value), (long long)lo, (long long)hi);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out = number;
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_json_general(const char *path, struct json_object *section)
{
	doca_error_t err;
	int64_t level;

	if (!json_object_is_type(section, json_type_object))
		return sd_argp_json_mismatch(path, SD_ARGP_GENERAL, "an object", section);
	json_object_object_foreach(section, key, value)
	{
		bool app = strcmp(key, "log-level") == 0;

		if (app || strcmp(key, "sdk-log-level") == 0) {
			err = sd_argp_json_int(path, key, value, INT_MIN, INT_MAX, &level);
			if (err == DOCA_SUCCESS)
				err = sd_argp_builtin_apply_level(app ? SD_ARGP_LOG_LEVEL : SD_ARGP_SDK_LOG_LEVEL, level,
								  "JSON");
			if (err != DOCA_SUCCESS)
				return err;
		} else if (sd_argp_is_builtin_name(key)) {
			SD_ARGP_WARN("JSON file \"%s\": \"%s\" is accepted on the command line only, ignored", path, key);
		} else {
			SD_ARGP_WARN("JSON file \"%s\": unknown key \"%s\" in %s, ignored", path, key, SD_ARGP_GENERAL);
		}
	}
	return DOCA_SUCCESS;
}

/* A STRING or JSON_OBJ value is handed over as a private copy of its text. */
static doca_error_t sd_argp_json_invoke_text(struct doca_argp_param *param, const char *text)
{
	char *copy = strdup(text);
	doca_error_t err;

	if (copy == NULL) {
		SD_ARGP_ERR("out of memory copying the value of --%s", param->long_name);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = sd_argp_invoke(param, copy);
	free(copy);
	return err;
}

static doca_error_t sd_argp_json_apply_value(const char *path, struct doca_argp_param *param,
					     struct json_object *value)
{
	const char *key = param->long_name;
	doca_error_t err = sd_argp_account(param, SD_ARGP_FROM_JSON);
	int64_t number;
	int as_int;
	bool flag;

	if (err != DOCA_SUCCESS)
		return err;
	switch (param->type) {
	case DOCA_ARGP_TYPE_STRING:
		if (!json_object_is_type(value, json_type_string))
			return sd_argp_json_mismatch(path, key, "a string", value);
		return sd_argp_json_invoke_text(param, json_object_get_string(value));
	case DOCA_ARGP_TYPE_INT:
		err = sd_argp_json_int(path, key, value, INT_MIN, INT_MAX, &number);
		if (err != DOCA_SUCCESS)
			return err;
		as_int = (int)number;
		return sd_argp_invoke(param, &as_int);
	case DOCA_ARGP_TYPE_BOOLEAN:
		if (!json_object_is_type(value, json_type_boolean))
			return sd_argp_json_mismatch(path, key, "true or false", value);
		flag = json_object_get_boolean(value);
		return sd_argp_invoke(param, &flag);
	case DOCA_ARGP_TYPE_JSON_OBJ:
		if (!json_object_is_type(value, json_type_object))
			return sd_argp_json_mismatch(path, key, "an object", value);
		return sd_argp_json_invoke_text(param, json_object_to_json_string_ext(value,
							JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	default:
		SD_ARGP_ERR("flag --%s has no usable type", key);
		return DOCA_ERROR_INITIALIZATION;
	}
}

static doca_error_t sd_argp_json_apply_param(const char *path, struct doca_argp_param *param,
					     struct json_object *value)
{
	doca_error_t err;

	if (!json_object_is_type(value, json_type_array))
		return sd_argp_json_apply_value(path, param, value);
	if (!param->multiplicity) {
		SD_ARGP_ERR("JSON file \"%s\": \"%s\" takes a single value, got an array", path, param->long_name);
		return DOCA_ERROR_IO_FAILED;
	}
	for (size_t i = 0; i < json_object_array_length(value); i++) {
		err = sd_argp_json_apply_value(path, param, json_object_array_get_idx(value, i));
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

static struct doca_argp_param *sd_argp_json_find(const char *key)
{
	for (struct doca_argp_param *p = sd_argp.root.params; p != NULL; p = p->next_in_cmd)
		if (p->long_name != NULL && strcmp(p->long_name, key) == 0)
			return p;
	return NULL;
}

static doca_error_t sd_argp_json_program(const char *path, struct json_object *section)
{
	struct json_object *value;
	doca_error_t err;

	if (!json_object_is_type(section, json_type_object))
		return sd_argp_json_mismatch(path, SD_ARGP_PROGRAM_FLAGS, "an object", section);
	json_object_object_foreach(section, key, ignored)
	{
		struct doca_argp_param *p = sd_argp_json_find(key);

		(void)ignored;
		if (p == NULL)
			SD_ARGP_WARN("JSON file \"%s\": unknown program flag \"%s\", ignored", path, key);
		else if (p->cli_only)
			SD_ARGP_WARN("JSON file \"%s\": flag \"%s\" is accepted on the command line only, ignored",
				     path, key);
	}
	for (struct doca_argp_param *p = sd_argp.root.params; p != NULL; p = p->next_in_cmd) {
		if (p->long_name == NULL || p->cli_only || !json_object_object_get_ex(section, p->long_name, &value))
			continue;
		err = sd_argp_json_apply_param(path, p, value);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_json_apply_root(const char *path, struct json_object *root)
{
	struct json_object *section;
	doca_error_t err = DOCA_SUCCESS;

	json_object_object_foreach(root, key, ignored)
	{
		(void)ignored;
		if (strcmp(key, SD_ARGP_GENERAL) != 0 && strcmp(key, SD_ARGP_PROGRAM_FLAGS) != 0 &&
		    strcmp(key, SD_ARGP_DPDK) != 0)
			SD_ARGP_WARN("JSON file \"%s\": unknown section \"%s\", ignored", path, key);
	}
	if (json_object_object_get_ex(root, SD_ARGP_GENERAL, &section))
		err = sd_argp_json_general(path, section);
	if (err == DOCA_SUCCESS && json_object_object_get_ex(root, SD_ARGP_PROGRAM_FLAGS, &section))
		err = sd_argp_json_program(path, section);
	if (err == DOCA_SUCCESS && sd_argp.dpdk_cb != NULL && json_object_object_get_ex(root, SD_ARGP_DPDK, &section))
		err = sd_argp_json_dpdk(path, section);
	return err;
}

doca_error_t sd_argp_json_apply_file(const char *path)
{
	struct json_object *root = NULL;
	char *text = NULL;
	size_t len = 0;
	doca_error_t err;

	err = sd_argp_json_read(path, &text, &len);
	if (err != DOCA_SUCCESS)
		return err;
	err = sd_argp_json_parse(path, text, len, &root);
	if (err == DOCA_SUCCESS) {
		err = sd_argp_json_apply_root(path, root);
		json_object_put(root);
	}
	free(text);
	return err;
}
