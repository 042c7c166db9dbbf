/*
 * argp_token.c - reading the command line one flag or command at a time. Used
 * twice per doca_argp_start: silently, to find -h, -v and
 * -j before anything runs, and then to apply the flags. Both passes read
 * the same tokens the same way, so a "-h" that is the value of a STRING
 * flag is never taken for a help request.
 *
 * Grammar: "-<short>" or "--<long>", optionally "=<value>" glued on; a
 * value-taking flag otherwise takes the next token verbatim (even if it
 * starts with '-'); a bare "--" is skipped; any other word must name a
 * command of the current scope. No bundling, no abbreviations.
 */
#include <string.h>

#include "argp_internal.h"

void sd_argp_cursor_init(struct sd_argp_cursor *cur, char **argv, int begin, int end)
{
	cur->argv = argv;
	cur->pos = begin;
	cur->end = end;
	cur->scope = &sd_argp.root;
}

static bool sd_argp_name_matches(const char *name, const char *text, size_t len)
{
	return name != NULL && strlen(name) == len && memcmp(name, text, len) == 0;
}

static struct doca_argp_param *sd_argp_find_in(const struct doca_argp_cmd *scope, const char *text, size_t len,
					       bool is_long, bool inherited_only)
{
	for (struct doca_argp_param *p = scope->params; p != NULL; p = p->next_in_cmd) {
		if (inherited_only && !p->inherited)
			continue;
		if (sd_argp_name_matches(is_long ? p->long_name : p->short_name, text, len))
			return p;
	}
	return NULL;
}

/* Built-in flags, then the current command's, then inherited ones of its ancestors. */
static struct doca_argp_param *sd_argp_lookup_flag(const struct doca_argp_cmd *scope, const char *text, size_t len,
						   bool is_long)
{
	struct doca_argp_param *found = sd_argp_find_in(&sd_argp.doca, text, len, is_long, false);

	if (found == NULL)
		found = sd_argp_find_in(scope, text, len, is_long, false);
	for (const struct doca_argp_cmd *up = scope->parent; found == NULL && up != NULL; up = up->parent)
		found = sd_argp_find_in(up, text, len, is_long, true);
	return found;
}

static struct doca_argp_cmd *sd_argp_lookup_cmd(const struct doca_argp_cmd *scope, const char *word)
{
	for (struct doca_argp_cmd *c = scope->children; c != NULL; c = c->next_sibling)
		if (strcmp(c->name, word) == 0)
			return c;
	return NULL;
}

static void sd_argp_read_flag(struct sd_argp_cursor *cur, struct sd_argp_tok *tok)
{
	const char *text = tok->text;
	bool is_long = text[1] == '-';
	const char *name = text + (is_long ? 2 : 1);
	const char *eq = strchr(name, '=');
	size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);

	tok->param = sd_argp_lookup_flag(cur->scope, name, len, is_long);
	if (tok->param == NULL) {
		tok->kind = SD_ARGP_TOK_ERROR;
		tok->problem = SD_ARGP_PROBLEM_UNKNOWN_FLAG;
		return;
	}
	tok->kind = SD_ARGP_TOK_FLAG;
	if (tok->param->type == DOCA_ARGP_TYPE_BOOLEAN) {
		if (eq != NULL) {
			tok->kind = SD_ARGP_TOK_ERROR;
			tok->problem = SD_ARGP_PROBLEM_VALUE_ON_BOOLEAN;
		}
		return;
	}
	if (eq != NULL) {
		tok->value = eq + 1;
		tok->inline_value = true;
	} else if (cur->pos < cur->end) {
		tok->value = cur->argv[cur->pos++];
	} else {
		tok->kind = SD_ARGP_TOK_ERROR;
		tok->problem = SD_ARGP_PROBLEM_MISSING_VALUE;
	}
}

void sd_argp_next_token(struct sd_argp_cursor *cur, struct sd_argp_tok *tok)
{
	memset(tok, 0, sizeof(*tok));
	if (cur->pos >= cur->end) {
		tok->kind = SD_ARGP_TOK_END;
		return;
	}
	tok->text = cur->argv[cur->pos++];
	if (strcmp(tok->text, "--") == 0) {
		tok->kind = SD_ARGP_TOK_SKIP;
		return;
	}
	if (tok->text[0] == '-' && tok->text[1] != '\0') {
		sd_argp_read_flag(cur, tok);
		return;
	}
	tok->cmd = sd_argp_lookup_cmd(cur->scope, tok->text);
	if (tok->cmd == NULL) {
		tok->kind = SD_ARGP_TOK_ERROR;
		tok->problem = SD_ARGP_PROBLEM_STRAY_WORD;
		return;
	}
	tok->kind = SD_ARGP_TOK_CMD;
	cur->scope = tok->cmd;
}

doca_error_t sd_argp_problem_error(enum sd_argp_tok_problem problem)
{
	switch (problem) {
	case SD_ARGP_PROBLEM_UNKNOWN_FLAG:
	case SD_ARGP_PROBLEM_STRAY_WORD:
		return DOCA_ERROR_NOT_SUPPORTED;
	case SD_ARGP_PROBLEM_MISSING_VALUE:
	case SD_ARGP_PROBLEM_VALUE_ON_BOOLEAN:
		return DOCA_ERROR_INVALID_VALUE;
	case SD_ARGP_PROBLEM_NONE:
		break;
	}
	return DOCA_SUCCESS;
}
