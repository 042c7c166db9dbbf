/*
 * argp_apply.c - turning one occurrence of a flag into a callback
 * (the value rules of each type, a flag given twice, a singular flag).
 *
 * Values handed to callbacks live in parser-owned storage for the duration
 * of the call only: strings are copied first, so a callback that writes
 * into its argument never touches argv.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "argp_internal.h"

void sd_argp_reset_progress(void)
{
	for (struct doca_argp_param *p = sd_argp.known_params; p != NULL; p = p->next_known) {
		p->cli_count = 0;
		p->applied = false;
	}
	sd_argp.program_params_applied = 0;
	sd_argp.singular_applied = NULL;
	sd_argp.last_error[0] = '\0';
}

bool sd_argp_parse_int(const char *text, int *out)
{
	const char *digits = text;
	char *end;
	long value;

	if (*digits == '+' || *digits == '-')
		digits++;
	if (*digits == '\0')
		return false;
	for (const char *c = digits; *c != '\0'; c++)
		if (*c < '0' || *c > '9')
			return false;
	errno = 0;
	value = strtol(text, &end, 10);
	if (errno != 0 || *end != '\0' || value < INT_MIN || value > INT_MAX)
		return false;
	*out = (int)value;
	return true;
}

/* A program parameter that is not singular may not join a singular one, and vice versa. */
static doca_error_t sd_argp_check_singular(struct doca_argp_param *param)
{
	char a[160], b[160];

	if (param->applied)
		return DOCA_SUCCESS;
	if (sd_argp.singular_applied != NULL) {
		SD_ARGP_ERR("flag %s cannot be combined with other program flags, but %s was given too",
			    sd_argp_param_label(sd_argp.singular_applied, a, sizeof(a)),
			    sd_argp_param_label(param, b, sizeof(b)));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (param->singular && sd_argp.program_params_applied > 0) {
		SD_ARGP_ERR("flag %s cannot be combined with other program flags",
			    sd_argp_param_label(param, a, sizeof(a)));
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t sd_argp_account(struct doca_argp_param *param, enum sd_argp_origin origin)
{
	char label[160];
	doca_error_t err;

	if (origin == SD_ARGP_FROM_CLI) {
		if (param->cli_count > 0 && !param->multiplicity) {
			SD_ARGP_ERR("flag %s was given more than once", sd_argp_param_label(param, label, sizeof(label)));
			return DOCA_ERROR_INVALID_VALUE;
		}
		param->cli_count++;
	}
	if (param->builtin == SD_ARGP_PROGRAM) {
		err = sd_argp_check_singular(param);
		if (err != DOCA_SUCCESS)
			return err;
		if (!param->applied) {
			sd_argp.program_params_applied++;
			if (param->singular)
				sd_argp.singular_applied = param;
		}
	}
	param->applied = true;
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_invoke_builtin(struct doca_argp_param *param, void *value)
{
	switch (param->builtin) {
	case SD_ARGP_LOG_LEVEL:
	case SD_ARGP_SDK_LOG_LEVEL:
		return sd_argp_builtin_apply_level(param->builtin, *(int *)value, "flag");
	default:
		/* -h, -v and -j were acted on before the flags are applied. */
		return DOCA_SUCCESS;
	}
}

doca_error_t sd_argp_invoke(struct doca_argp_param *param, void *value)
{
	char label[160];
	doca_error_t err;

	if (param->builtin != SD_ARGP_PROGRAM)
		return sd_argp_invoke_builtin(param, value);
	err = param->callback(value, sd_argp.config);
	if (sd_argp.phase == SD_ARGP_CLOSING)
		return DOCA_ERROR_BAD_STATE; /* the callback destroyed the parser */
	if (err != DOCA_SUCCESS)
		SD_ARGP_ERR("the callback of flag %s refused its value: %s",
			    sd_argp_param_label(param, label, sizeof(label)), doca_error_get_name(err));
	return err;
}

doca_error_t sd_argp_apply_text(struct doca_argp_param *param, const char *text)
{
	char label[160];
	doca_error_t err;
	bool flag_on = true;
	char *copy;
	int number;

	switch (param->type) {
	case DOCA_ARGP_TYPE_BOOLEAN:
		return sd_argp_invoke(param, &flag_on);
	case DOCA_ARGP_TYPE_INT:
		if (!sd_argp_parse_int(text, &number)) {
			SD_ARGP_ERR("flag %s expects a decimal integer that fits in an int, got \"%s\"",
				    sd_argp_param_label(param, label, sizeof(label)), text);
			return DOCA_ERROR_INVALID_VALUE;
		}
		return sd_argp_invoke(param, &number);
	case DOCA_ARGP_TYPE_STRING:
		copy = strdup(text);
		if (copy == NULL) {
			SD_ARGP_ERR("out of memory copying the value of flag %s",
				    sd_argp_param_label(param, label, sizeof(label)));
			return DOCA_ERROR_NO_MEMORY;
		}
		err = sd_argp_invoke(param, copy);
		free(copy);
		return err;
	case DOCA_ARGP_TYPE_JSON_OBJ:
		SD_ARGP_ERR("flag %s takes a JSON object and can only be given in a JSON file (-j)",
			    sd_argp_param_label(param, label, sizeof(label)));
		return DOCA_ERROR_NOT_SUPPORTED;
	default:
		break;
	}
	SD_ARGP_ERR("flag %s has no usable type", sd_argp_param_label(param, label, sizeof(label)));
	return DOCA_ERROR_INITIALIZATION;
}
