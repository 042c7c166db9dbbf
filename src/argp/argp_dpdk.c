/*
 * argp_dpdk.c - DPDK programs.
 *
 * After doca_argp_set_dpdk_program the command line reads
 *   prog [DPDK (EAL) flags] -- [DOCA and program flags]
 * (no "--": everything is DPDK). The DPDK part is not interpreted; it is
 * copied, behind argv[0], into a NULL-terminated vector that the parser
 * owns until doca_argp_destroy and hands to the DPDK callback. A JSON file
 * may add EAL flags through its doca_dpdk_flags section.
 */
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "argp_internal.h"

void sd_argp_dpdk_free(void)
{
	for (int i = 0; i < sd_argp.dpdk_argc; i++)
		free(sd_argp.dpdk_argv[i]);
	free(sd_argp.dpdk_argv);
	sd_argp.dpdk_argv = NULL;
	sd_argp.dpdk_argc = 0;
}

/* Append a copy of arg (the first `len` bytes) and keep the vector NULL-terminated. */
static doca_error_t sd_argp_dpdk_push(const char *arg, size_t len)
{
	char **grown = realloc(sd_argp.dpdk_argv, ((size_t)sd_argp.dpdk_argc + 2) * sizeof(char *));
	char *copy;

	if (grown == NULL)
		goto no_memory;
	sd_argp.dpdk_argv = grown;
	copy = strndup(arg, len);
	if (copy == NULL)
		goto no_memory;
	grown[sd_argp.dpdk_argc++] = copy;
	grown[sd_argp.dpdk_argc] = NULL;
	return DOCA_SUCCESS;
no_memory:
	SD_ARGP_ERR("out of memory building the DPDK argument vector");
	return DOCA_ERROR_NO_MEMORY;
}

doca_error_t sd_argp_dpdk_split(int argc, char **argv, int *doca_begin)
{
	int split = argc;
	doca_error_t err;

	sd_argp_dpdk_free();
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			split = i;
			break;
		}
	}
	for (int i = 0; i < split; i++) {
		err = sd_argp_dpdk_push(argv[i], strlen(argv[i]));
		if (err != DOCA_SUCCESS)
			return err;
	}
	*doca_begin = split < argc ? split + 1 : argc;
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_dpdk_push_str(const char *arg)
{
	return sd_argp_dpdk_push(arg, strlen(arg));
}

static doca_error_t sd_argp_dpdk_mismatch(const char *path, const char *key, const char *expected)
{
	SD_ARGP_ERR("JSON file \"%s\": \"%s\" in doca_dpdk_flags expects %s", path, key, expected);
	return DOCA_ERROR_IO_FAILED;
}

/* One device object: -a <id>[,<option>=1 for each true boolean option]. */
static doca_error_t sd_argp_dpdk_device(const char *path, struct json_object *device)
{
	struct json_object *id;
	char arg[512];
	int n;

	if (!json_object_is_type(device, json_type_object) || !json_object_object_get_ex(device, "id", &id) ||
	    !json_object_is_type(id, json_type_string))
		return sd_argp_dpdk_mismatch(path, "devices", "objects with a string \"id\"");
	n = snprintf(arg, sizeof(arg), "%s", json_object_get_string(id));
	json_object_object_foreach(device, key, value)
	{
		if (strcmp(key, "id") == 0 || strcmp(key, "device") == 0)
			continue;
		if (json_object_is_type(value, json_type_boolean) && json_object_get_boolean(value) && n >= 0 &&
		    (size_t)n < sizeof(arg))
			n += snprintf(arg + n, sizeof(arg) - (size_t)n, ",%s=1", key);
	}
	if (n < 0 || (size_t)n >= sizeof(arg))
		return sd_argp_dpdk_mismatch(path, "devices", "a device description shorter than 512 bytes");
	return sd_argp_dpdk_push_str("-a") == DOCA_SUCCESS ? sd_argp_dpdk_push_str(arg) : DOCA_ERROR_NO_MEMORY;
}

static doca_error_t sd_argp_dpdk_devices(const char *path, struct json_object *devices)
{
	doca_error_t err;

	if (!json_object_is_type(devices, json_type_array))
		return sd_argp_dpdk_mismatch(path, "devices", "an array");
	for (size_t i = 0; i < json_object_array_length(devices); i++) {
		err = sd_argp_dpdk_device(path, json_object_array_get_idx(devices, i));
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

/* Extra EAL flags: one string, split on spaces. */
static doca_error_t sd_argp_dpdk_words(const char *text)
{
	doca_error_t err;

	while (*text != '\0') {
		size_t len;

		text += strspn(text, " \t");
		len = strcspn(text, " \t");
		if (len == 0)
			break;
		err = sd_argp_dpdk_push(text, len);
		if (err != DOCA_SUCCESS)
			return err;
		text += len;
	}
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_dpdk_entry(const char *path, const char *key, struct json_object *value)
{
	char mask[32];
	doca_error_t err;

	if (strcmp(key, "devices") == 0)
		return sd_argp_dpdk_devices(path, value);
	if (strcmp(key, "core-list") == 0) {
		if (!json_object_is_type(value, json_type_string))
			return sd_argp_dpdk_mismatch(path, key, "a string");
		err = sd_argp_dpdk_push_str("-l");
		return err == DOCA_SUCCESS ? sd_argp_dpdk_push_str(json_object_get_string(value)) : err;
	}
	if (strcmp(key, "core-mask") == 0) {
		if (!json_object_is_type(value, json_type_int) || json_object_get_int64(value) < 0)
			return sd_argp_dpdk_mismatch(path, key, "a non-negative integer");
		snprintf(mask, sizeof(mask), "0x%llx", (unsigned long long)json_object_get_int64(value));
		err = sd_argp_dpdk_push_str("-c");
		return err == DOCA_SUCCESS ? sd_argp_dpdk_push_str(mask) : err;
	}
	if (strcmp(key, "flags") == 0) {
		if (!json_object_is_type(value, json_type_string))
			return sd_argp_dpdk_mismatch(path, key, "a string");
		return sd_argp_dpdk_words(json_object_get_string(value));
	}
	SD_ARGP_WARN("JSON file \"%s\": unknown key \"%s\" in doca_dpdk_flags, ignored", path, key);
	return DOCA_SUCCESS;
}

doca_error_t sd_argp_json_dpdk(const char *path, struct json_object *section)
{
	doca_error_t err;

	if (!json_object_is_type(section, json_type_object)) {
		SD_ARGP_ERR("JSON file \"%s\": doca_dpdk_flags must be an object", path);
		return DOCA_ERROR_IO_FAILED;
	}
	json_object_object_foreach(section, key, value)
	{
		err = sd_argp_dpdk_entry(path, key, value);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}
