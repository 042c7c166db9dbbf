/*
 * argp_register.c - registering parameters and commands.
 *
 * Ownership passes to the parser in every outcome once the object is
 * recognised: a refused param or command is kept aside and freed by
 * doca_argp_destroy, and the caller must not destroy it. Checks, in order:
 * NULL, session phase, unknown pointer, already registered, missing
 * mandatory attributes (INITIALIZATION), malformed or clashing names
 * (INVALID_VALUE).
 */
#include <ctype.h>
#include <string.h>

#include "argp_internal.h"
#include "sd_log.h"

#define SD_ARGP_REG_ERR(func, err, ...) \
	(priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func, __VA_ARGS__), (err))

/* A flag or command name: not empty, no leading '-', no whitespace, no '='. */
static bool sd_argp_name_is_well_formed(const char *name)
{
	if (name[0] == '\0' || name[0] == '-')
		return false;
	for (const char *c = name; *c != '\0'; c++)
		if (isspace((unsigned char)*c) || *c == '=')
			return false;
	return true;
}

static bool sd_argp_same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static doca_error_t sd_argp_param_check_names(const struct doca_argp_param *param, const struct doca_argp_cmd *scope,
					      const char *func)
{
	const char *names[2] = {param->short_name, param->long_name};

	for (int i = 0; i < 2; i++) {
		if (names[i] == NULL)
			continue;
		if (!sd_argp_name_is_well_formed(names[i]))
			return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
					       "name \"%s\" of param %p is empty, starts with '-' or holds a space "
					       "or '='", names[i], (const void *)param);
		if (sd_argp_is_builtin_name(names[i]))
			return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
					       "name \"%s\" of param %p is reserved for a built-in DOCA flag", names[i],
					       (const void *)param);
	}
	for (const struct doca_argp_param *p = scope->params; p != NULL; p = p->next_in_cmd) {
		if (sd_argp_same(p->short_name, param->short_name) || sd_argp_same(p->long_name, param->long_name))
			return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
					       "param %p reuses a name of an already registered parameter (-%s / --%s)",
					       (const void *)param, p->short_name ? p->short_name : "",
					       p->long_name ? p->long_name : "");
	}
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_param_check(const struct doca_argp_param *param, const struct doca_argp_cmd *scope,
					const char *func)
{
	if (param->short_name == NULL && param->long_name == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INITIALIZATION, "param %p has neither a short nor a long name",
				       (const void *)param);
	if (param->description == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INITIALIZATION, "param %p has no description",
				       (const void *)param);
	if (param->callback == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INITIALIZATION, "param %p has no callback",
				       (const void *)param);
	if (param->type == DOCA_ARGP_TYPE_UNKNOWN)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INITIALIZATION, "param %p has no type (DOCA_ARGP_TYPE_UNKNOWN)",
				       (const void *)param);
	return sd_argp_param_check_names(param, scope, func);
}

/*
 * Common part of the two param registrations. `scope` is NULL when the
 * target command was refused; the param is still taken over.
 */
static doca_error_t sd_argp_register_param_in(struct doca_argp_cmd *scope, const char *scope_problem,
					      struct doca_argp_param *param, const char *func)
{
	doca_error_t err;

	if (param == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE, "input_param is NULL");
	if (!sd_argp_in_setup())
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_BAD_STATE,
				       "parameters are registered after doca_argp_init and before doca_argp_start "
				       "(param %p)", (void *)param);
	if (!sd_argp_param_is_known(param))
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
				       "param %p was not created by doca_argp_param_create in this session", (void *)param);
	if (param->owned)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_BAD_STATE, "param %p is already registered", (void *)param);
	param->owned = true;
	if (scope == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE, "%s (param %p is released by the arg parser)",
				       scope_problem, (void *)param);
	err = sd_argp_param_check(param, scope, func);
	if (err != DOCA_SUCCESS)
		return err;
	if (param->long_name == NULL)
		param->cli_only = true; /* a JSON file can only name it by its long name */
	sd_argp_cmd_add_param(scope, param);
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_register_param(struct doca_argp_param *input_param)
{
	return sd_argp_register_param_in(&sd_argp.root, NULL, input_param, __func__);
}

doca_error_t doca_argp_cmd_register_param(struct doca_argp_cmd *cmd, struct doca_argp_param *input_param)
{
	const char *problem = NULL;

	if (cmd == NULL)
		problem = "cmd is NULL";
	else if (!sd_argp_cmd_is_known(cmd))
		problem = "cmd was not created by doca_argp_cmd_create in this session";
	return sd_argp_register_param_in(problem == NULL ? cmd : NULL, problem, input_param, __func__);
}

/* True when `cmd` is `node` or one of its ancestors (a link would make a loop). */
static bool sd_argp_cmd_is_self_or_ancestor(const struct doca_argp_cmd *cmd, const struct doca_argp_cmd *node)
{
	for (; node != NULL; node = node->parent)
		if (node == cmd)
			return true;
	return false;
}

static doca_error_t sd_argp_cmd_check(const struct doca_argp_cmd *parent, const struct doca_argp_cmd *cmd,
				      const char *func)
{
	if (cmd->name == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INITIALIZATION, "cmd %p has no name", (const void *)cmd);
	if (cmd->description == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INITIALIZATION, "cmd %p has no description",
				       (const void *)cmd);
	if (!sd_argp_name_is_well_formed(cmd->name))
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
				       "name \"%s\" of cmd %p is empty, starts with '-' or holds a space or '='",
				       cmd->name, (const void *)cmd);
	if (sd_argp_cmd_is_self_or_ancestor(cmd, parent))
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
				       "cmd %p cannot be nested inside itself or inside one of its sub-commands",
				       (const void *)cmd);
	for (const struct doca_argp_cmd *c = parent->children; c != NULL; c = c->next_sibling)
		if (strcmp(c->name, cmd->name) == 0)
			return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
					       "a command named \"%s\" is already registered at this level (cmd %p)",
					       cmd->name, (const void *)cmd);
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_register_cmd_in(struct doca_argp_cmd *parent, const char *parent_problem,
					    struct doca_argp_cmd *cmd, const char *func)
{
	doca_error_t err;

	if (cmd == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE, "input_cmd is NULL");
	if (!sd_argp_in_setup())
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_BAD_STATE,
				       "commands are registered after doca_argp_init and before doca_argp_start "
				       "(cmd %p)", (void *)cmd);
	if (!sd_argp_cmd_is_known(cmd))
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE,
				       "cmd %p was not created by doca_argp_cmd_create in this session", (void *)cmd);
	if (cmd->owned)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_BAD_STATE, "cmd %p is already registered", (void *)cmd);
	cmd->owned = true;
	if (parent == NULL)
		return SD_ARGP_REG_ERR(func, DOCA_ERROR_INVALID_VALUE, "%s (cmd %p is released by the arg parser)",
				       parent_problem, (void *)cmd);
	err = sd_argp_cmd_check(parent, cmd, func);
	if (err != DOCA_SUCCESS)
		return err;
	cmd->registered = true;
	cmd->parent = parent;
	cmd->next_sibling = NULL;
	*parent->children_tail = cmd;
	parent->children_tail = &cmd->next_sibling;
	return DOCA_SUCCESS;
}

doca_error_t doca_argp_register_cmd(struct doca_argp_cmd *input_cmd)
{
	return sd_argp_register_cmd_in(&sd_argp.root, NULL, input_cmd, __func__);
}

doca_error_t doca_argp_cmd_register_cmd(struct doca_argp_cmd *cmd, struct doca_argp_cmd *input_cmd)
{
	const char *problem = NULL;

	if (cmd == NULL)
		problem = "cmd is NULL";
	else if (!sd_argp_cmd_is_known(cmd))
		problem = "cmd was not created by doca_argp_cmd_create in this session";
	return sd_argp_register_cmd_in(problem == NULL ? cmd : NULL, problem, input_cmd, __func__);
}
