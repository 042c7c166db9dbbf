/*
 * argp_cmd.c - program commands: creation, setters and destruction. A command
 * is a scope: its own parameters and sub-commands.
 * The same structure, unnamed, serves as the program's top-level scope and
 * as the scope of the built-in DOCA flags.
 */
#include <stdlib.h>
#include <string.h>

#include "argp_internal.h"
#include "sd_log.h"

#define SD_ARGP_SETTER_ERR(func, ...) priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func, __VA_ARGS__)

bool sd_argp_cmd_is_known(const struct doca_argp_cmd *cmd)
{
	for (const struct doca_argp_cmd *c = sd_argp.known_cmds; c != NULL; c = c->next_known)
		if (c == cmd)
			return c->magic == SD_ARGP_CMD_MAGIC;
	return false;
}

void sd_argp_cmd_init_scope(struct doca_argp_cmd *scope)
{
	scope->magic = SD_ARGP_CMD_MAGIC;
	scope->params = NULL;
	scope->params_tail = &scope->params;
	scope->children = NULL;
	scope->children_tail = &scope->children;
}

void sd_argp_cmd_add_param(struct doca_argp_cmd *cmd, struct doca_argp_param *param)
{
	param->cmd = cmd;
	param->next_in_cmd = NULL;
	*cmd->params_tail = param;
	cmd->params_tail = &param->next_in_cmd;
}

void sd_argp_cmd_free(struct doca_argp_cmd *cmd)
{
	cmd->magic = 0;
	free(cmd->name);
	free(cmd->description);
	free(cmd);
}

doca_error_t doca_argp_cmd_create(struct doca_argp_cmd **cmd)
{
	struct doca_argp_cmd *created;

	if (cmd == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer cmd is NULL");
	if (!sd_argp_in_setup())
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "commands are created after doca_argp_init and before doca_argp_start");
	created = calloc(1, sizeof(*created));
	if (created == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a command");
	sd_argp_cmd_init_scope(created);
	created->next_known = sd_argp.known_cmds;
	sd_argp.known_cmds = created;
	*cmd = created;
	return DOCA_SUCCESS;
}

/* The command a setter may change, or NULL after one SDK error record naming `func`. */
static struct doca_argp_cmd *sd_argp_cmd_for_setter(struct doca_argp_cmd *cmd, const char *func)
{
	if (cmd == NULL) {
		SD_ARGP_SETTER_ERR(func, "cmd is NULL, the call is ignored");
		return NULL;
	}
	if (!sd_argp_cmd_is_known(cmd)) {
		SD_ARGP_SETTER_ERR(func, "cmd %p was not created by doca_argp_cmd_create in this session, "
				   "the call is ignored", (void *)cmd);
		return NULL;
	}
	if (cmd->owned) {
		SD_ARGP_SETTER_ERR(func, "cmd %p is already registered, its attributes can no longer change",
				   (void *)cmd);
		return NULL;
	}
	return cmd;
}

void doca_argp_cmd_set_name(struct doca_argp_cmd *cmd, const char *name)
{
	struct doca_argp_cmd *c = sd_argp_cmd_for_setter(cmd, __func__);

	if (c != NULL && !sd_argp_set_string(&c->name, name))
		SD_LOG_ERR("cannot copy the name of cmd %p, name left unchanged", (void *)c);
}

void doca_argp_cmd_set_description(struct doca_argp_cmd *cmd, const char *description)
{
	struct doca_argp_cmd *c = sd_argp_cmd_for_setter(cmd, __func__);

	if (c != NULL && !sd_argp_set_string(&c->description, description))
		SD_LOG_ERR("cannot copy the description of cmd %p, description left unchanged", (void *)c);
}

void doca_argp_cmd_set_callback(struct doca_argp_cmd *cmd, doca_argp_cmd_cb_t callback)
{
	struct doca_argp_cmd *c = sd_argp_cmd_for_setter(cmd, __func__);

	if (c != NULL)
		c->callback = callback;
}

void doca_argp_cmd_set_hidden(struct doca_argp_cmd *cmd)
{
	struct doca_argp_cmd *c = sd_argp_cmd_for_setter(cmd, __func__);

	if (c != NULL)
		c->hidden = true;
}

doca_error_t doca_argp_cmd_destroy(struct doca_argp_cmd *cmd)
{
	if (cmd == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "cmd is NULL");
	if (!sd_argp_cmd_is_known(cmd))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "cmd %p was not created by doca_argp_cmd_create in this session "
				 "(or the arg parser already released it)", (void *)cmd);
	if (cmd->owned)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "cmd %p was handed to the arg parser by a registration, which owns it now", (void *)cmd);
	/* An unregistered command may still hold registered params: they are owned, keep them alive. */
	for (struct doca_argp_param *p = cmd->params; p != NULL; p = p->next_in_cmd)
		p->cmd = NULL;
	for (struct doca_argp_cmd *child = cmd->children; child != NULL; child = child->next_sibling)
		child->parent = NULL;
	for (struct doca_argp_cmd **link = &sd_argp.known_cmds; *link != NULL; link = &(*link)->next_known) {
		if (*link == cmd) {
			*link = cmd->next_known;
			break;
		}
	}
	sd_argp_cmd_free(cmd);
	return DOCA_SUCCESS;
}
