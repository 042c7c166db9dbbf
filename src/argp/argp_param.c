/*
 * argp_param.c - program parameters: creation, attribute setters and
 * destruction.
 *
 * Every param the session creates is kept on a list, so a pointer is
 * checked by looking it up before it is touched. Setters copy their
 * strings, accept NULL to clear, and ignore (with one SDK error record) a
 * NULL, unknown or already registered param: attributes are fixed once the
 * parser owns the param.
 */
#include <stdlib.h>
#include <string.h>

#include "argp_internal.h"
#include "sd_log.h"

#define SD_ARGP_SETTER_ERR(func, ...) priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func, __VA_ARGS__)

bool sd_argp_param_is_known(const struct doca_argp_param *param)
{
	for (const struct doca_argp_param *p = sd_argp.known_params; p != NULL; p = p->next_known)
		if (p == param)
			return p->magic == SD_ARGP_PARAM_MAGIC;
	return false;
}

bool sd_argp_set_string(char **slot, const char *value)
{
	char *copy = NULL;

	if (value != NULL) {
		copy = strdup(value);
		if (copy == NULL)
			return false;
	}
	free(*slot);
	*slot = copy;
	return true;
}

struct doca_argp_param *sd_argp_param_new(void)
{
	struct doca_argp_param *param = calloc(1, sizeof(*param));

	if (param == NULL)
		return NULL;
	param->magic = SD_ARGP_PARAM_MAGIC;
	param->type = DOCA_ARGP_TYPE_UNKNOWN;
	param->next_known = sd_argp.known_params;
	sd_argp.known_params = param;
	return param;
}

void sd_argp_param_free(struct doca_argp_param *param)
{
	param->magic = 0;
	free(param->short_name);
	free(param->long_name);
	free(param->arguments);
	free(param->description);
	free(param);
}

const char *sd_argp_param_label(const struct doca_argp_param *param, char *buf, size_t size)
{
	if (param->short_name != NULL && param->long_name != NULL)
		snprintf(buf, size, "-%s/--%s", param->short_name, param->long_name);
	else if (param->long_name != NULL)
		snprintf(buf, size, "--%s", param->long_name);
	else if (param->short_name != NULL)
		snprintf(buf, size, "-%s", param->short_name);
	else
		snprintf(buf, size, "(unnamed parameter)");
	return buf;
}

doca_error_t doca_argp_param_create(struct doca_argp_param **param)
{
	struct doca_argp_param *created;

	if (param == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer param is NULL");
	if (!sd_argp_in_setup())
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "parameters are created after doca_argp_init and before doca_argp_start");
	created = sd_argp_param_new();
	if (created == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a parameter");
	*param = created;
	return DOCA_SUCCESS;
}

/* The param a setter may change, or NULL after one SDK error record naming `func`. */
static struct doca_argp_param *sd_argp_param_for_setter(struct doca_argp_param *param, const char *func)
{
	if (param == NULL) {
		SD_ARGP_SETTER_ERR(func, "param is NULL, the call is ignored");
		return NULL;
	}
	if (!sd_argp_param_is_known(param)) {
		SD_ARGP_SETTER_ERR(func, "param %p was not created by doca_argp_param_create in this session, "
				   "the call is ignored", (void *)param);
		return NULL;
	}
	if (param->owned) {
		SD_ARGP_SETTER_ERR(func, "param %p is already registered, its attributes can no longer change",
				   (void *)param);
		return NULL;
	}
	return param;
}

static void sd_argp_param_set_text(struct doca_argp_param *param, char **(*slot_of)(struct doca_argp_param *),
				   const char *value, const char *func)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, func);

	if (p != NULL && !sd_argp_set_string(slot_of(p), value))
		SD_ARGP_SETTER_ERR(func, "cannot copy the string for param %p, attribute left unchanged", (void *)p);
}

static char **sd_argp_short_slot(struct doca_argp_param *p)
{
	return &p->short_name;
}

static char **sd_argp_long_slot(struct doca_argp_param *p)
{
	return &p->long_name;
}

static char **sd_argp_arguments_slot(struct doca_argp_param *p)
{
	return &p->arguments;
}

static char **sd_argp_description_slot(struct doca_argp_param *p)
{
	return &p->description;
}

void doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name)
{
	sd_argp_param_set_text(param, sd_argp_short_slot, name, __func__);
}

void doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name)
{
	sd_argp_param_set_text(param, sd_argp_long_slot, name, __func__);
}

void doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments)
{
	sd_argp_param_set_text(param, sd_argp_arguments_slot, arguments, __func__);
}

void doca_argp_param_set_description(struct doca_argp_param *param, const char *description)
{
	sd_argp_param_set_text(param, sd_argp_description_slot, description, __func__);
}

void doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p != NULL)
		p->callback = callback;
}

void doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p == NULL)
		return;
	if ((unsigned int)type > DOCA_ARGP_TYPE_JSON_OBJ) {
		SD_LOG_ERR("type %d is not a doca_argp_type, param %p left unchanged", (int)type, (void *)p);
		return;
	}
	p->type = type;
}

void doca_argp_param_set_mandatory(struct doca_argp_param *param)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p != NULL)
		p->mandatory = true;
}

void doca_argp_param_set_cli_only(struct doca_argp_param *param)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p != NULL)
		p->cli_only = true;
}

void doca_argp_param_set_multiplicity(struct doca_argp_param *param)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p != NULL)
		p->multiplicity = true;
}

void doca_argp_param_set_singular(struct doca_argp_param *param)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p != NULL)
		p->singular = true;
}

void doca_argp_param_set_inherited(struct doca_argp_param *param)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p != NULL)
		p->inherited = true;
}

void doca_argp_param_set_hidden(struct doca_argp_param *param)
{
	struct doca_argp_param *p = sd_argp_param_for_setter(param, __func__);

	if (p != NULL)
		p->hidden = true;
}

/* Unlink from the session's list of params, then free. */
static void sd_argp_param_forget(struct doca_argp_param *param)
{
	for (struct doca_argp_param **link = &sd_argp.known_params; *link != NULL; link = &(*link)->next_known) {
		if (*link == param) {
			*link = param->next_known;
			break;
		}
	}
	sd_argp_param_free(param);
}

doca_error_t doca_argp_param_destroy(struct doca_argp_param *param)
{
	if (param == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "param is NULL");
	if (!sd_argp_param_is_known(param))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "param %p was not created by doca_argp_param_create in this session "
				 "(or the arg parser already released it)", (void *)param);
	if (param->owned)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "param %p was handed to the arg parser by a registration, which owns it now",
				 (void *)param);
	sd_argp_param_forget(param);
	return DOCA_SUCCESS;
}
