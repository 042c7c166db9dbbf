/*
 * argp_start.c - doca_argp_start: the processing order below.
 *
 *  1. phase and arguments;  2. program name;  3. DPDK split;
 *  4. silent pre-scan: the first of -h / -v decides, before any callback;
 *  5. the JSON file of -j;  6. the command line, left to right;
 *  7. mandatory flags;  8. command callbacks;  9. validation callback;
 * 10. DPDK callback;  11. STARTED.
 *
 * A failure in steps 5-10 is reported once through the parser's messages,
 * followed by the usage (not for validation or DPDK callback failures),
 * and returned: only -h and -v end the process.
 */
#include <stdlib.h>
#include <string.h>

#include "argp_internal.h"
#include "sd_log.h"

struct sd_argp_prescan {
	enum sd_argp_builtin first; /* SD_ARGP_HELP, SD_ARGP_VERSION or SD_ARGP_PROGRAM (none) */
	const char *json_path;
	int json_count;
};

static void sd_argp_prescan(char **argv, int begin, int end, struct sd_argp_prescan *out)
{
	struct sd_argp_cursor cur;
	struct sd_argp_tok tok;

	memset(out, 0, sizeof(*out));
	sd_argp_cursor_init(&cur, argv, begin, end);
	for (sd_argp_next_token(&cur, &tok); tok.kind != SD_ARGP_TOK_END; sd_argp_next_token(&cur, &tok)) {
		if (tok.kind != SD_ARGP_TOK_FLAG)
			continue; /* errors are reported by the real pass, unless help comes first */
		switch (tok.param->builtin) {
		case SD_ARGP_HELP:
		case SD_ARGP_VERSION:
			if (out->first == SD_ARGP_PROGRAM)
				out->first = tok.param->builtin;
			break;
		case SD_ARGP_JSON:
			if (out->json_count++ == 0)
				out->json_path = tok.value;
			break;
		default:
			break;
		}
	}
}

static doca_error_t sd_argp_token_error(const struct sd_argp_tok *tok)
{
	switch (tok->problem) {
	case SD_ARGP_PROBLEM_UNKNOWN_FLAG:
		SD_ARGP_ERR("unknown flag \"%s\"", tok->text);
		break;
	case SD_ARGP_PROBLEM_STRAY_WORD:
		SD_ARGP_ERR("\"%s\" is neither a flag nor a command available here", tok->text);
		break;
	case SD_ARGP_PROBLEM_MISSING_VALUE:
		SD_ARGP_ERR("flag \"%s\" needs a value", tok->text);
		break;
	case SD_ARGP_PROBLEM_VALUE_ON_BOOLEAN:
		SD_ARGP_ERR("flag \"%s\" takes no value", tok->text);
		break;
	case SD_ARGP_PROBLEM_NONE:
		break;
	}
	return sd_argp_problem_error(tok->problem);
}

/* Step 6; *leaf receives the innermost selected command (the root when none). */
static doca_error_t sd_argp_apply_cli(char **argv, int begin, int end, struct doca_argp_cmd **leaf)
{
	struct sd_argp_cursor cur;
	struct sd_argp_tok tok;
	doca_error_t err;

	sd_argp_cursor_init(&cur, argv, begin, end);
	for (sd_argp_next_token(&cur, &tok); tok.kind != SD_ARGP_TOK_END; sd_argp_next_token(&cur, &tok)) {
		if (tok.kind == SD_ARGP_TOK_ERROR)
			return sd_argp_token_error(&tok);
		if (tok.kind != SD_ARGP_TOK_FLAG)
			continue;
		if (tok.param->builtin == SD_ARGP_HELP || tok.param->builtin == SD_ARGP_VERSION ||
		    tok.param->builtin == SD_ARGP_JSON)
			continue; /* acted on before this pass */
		err = sd_argp_account(tok.param, SD_ARGP_FROM_CLI);
		if (err == DOCA_SUCCESS)
			err = sd_argp_apply_text(tok.param, tok.value);
		if (err != DOCA_SUCCESS)
			return err;
	}
	*leaf = cur.scope;
	return DOCA_SUCCESS;
}

static doca_error_t sd_argp_check_mandatory(const struct doca_argp_cmd *leaf)
{
	char label[160];

	for (const struct doca_argp_cmd *scope = leaf; scope != NULL; scope = scope->parent) {
		for (const struct doca_argp_param *p = scope->params; p != NULL; p = p->next_in_cmd) {
			if (p->mandatory && !p->applied) {
				SD_ARGP_ERR("missing mandatory flag %s", sd_argp_param_label(p, label, sizeof(label)));
				return DOCA_ERROR_INVALID_VALUE;
			}
		}
	}
	return DOCA_SUCCESS;
}

/* Step 8: outer command first. */
static doca_error_t sd_argp_run_cmd_callbacks(struct doca_argp_cmd *cmd)
{
	doca_error_t err;

	if (cmd == NULL || cmd == &sd_argp.root)
		return DOCA_SUCCESS;
	err = sd_argp_run_cmd_callbacks(cmd->parent);
	if (err != DOCA_SUCCESS || cmd->callback == NULL)
		return err;
	err = cmd->callback(sd_argp.config);
	if (sd_argp.phase == SD_ARGP_CLOSING)
		return DOCA_ERROR_BAD_STATE;
	if (err != DOCA_SUCCESS)
		SD_ARGP_ERR("the callback of command \"%s\" failed: %s", cmd->name, doca_error_get_name(err));
	return err;
}

/* Steps 9 and 10: callbacks that see the whole configuration; no usage on their failure. */
static doca_error_t sd_argp_run_final_callbacks(void)
{
	doca_error_t err = DOCA_SUCCESS;

	if (sd_argp.validation_cb != NULL) {
		err = sd_argp.validation_cb(sd_argp.config);
		if (sd_argp.phase == SD_ARGP_CLOSING)
			return DOCA_ERROR_BAD_STATE;
		if (err != DOCA_SUCCESS) {
			SD_ARGP_ERR("the program's validation callback refused the configuration: %s",
				    doca_error_get_name(err));
			return err;
		}
	}
	if (sd_argp.dpdk_cb != NULL) {
		err = sd_argp.dpdk_cb(sd_argp.dpdk_argc, sd_argp.dpdk_argv);
		if (sd_argp.phase == SD_ARGP_CLOSING)
			return DOCA_ERROR_BAD_STATE;
		if (err != DOCA_SUCCESS)
			SD_ARGP_ERR("the DPDK callback failed: %s", doca_error_get_name(err));
	}
	return err;
}

static doca_error_t sd_argp_remember_argv0(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	free(sd_argp.argv0_name);
	sd_argp.argv0_name = strdup(slash != NULL ? slash + 1 : argv0);
	if (sd_argp.argv0_name == NULL) {
		SD_ARGP_ERR("out of memory copying the program name");
		return DOCA_ERROR_NO_MEMORY;
	}
	return DOCA_SUCCESS;
}

/* Steps 2-8; *usage tells whether a failure should be followed by the usage. */
static doca_error_t sd_argp_parse(int argc, char **argv, bool *usage)
{
	struct doca_argp_cmd *leaf = &sd_argp.root;
	struct sd_argp_prescan scan;
	int begin = 1;
	doca_error_t err;

	*usage = false;
	sd_argp_reset_progress();
	err = sd_argp_remember_argv0(argv[0]);
	if (err == DOCA_SUCCESS && sd_argp.dpdk_cb != NULL)
		err = sd_argp_dpdk_split(argc, argv, &begin);
	if (err != DOCA_SUCCESS)
		return err;

	sd_argp_prescan(argv, begin, argc, &scan);
	if (scan.first == SD_ARGP_HELP)
		sd_argp_help_and_exit();
	if (scan.first == SD_ARGP_VERSION)
		return sd_argp_version();

	*usage = true;
	if (scan.json_count > 1) {
		SD_ARGP_ERR("flag -j/--json was given more than once");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (scan.json_path != NULL) {
		err = sd_argp_json_apply_file(scan.json_path);
		if (err != DOCA_SUCCESS)
			return err;
	}
	err = sd_argp_apply_cli(argv, begin, argc, &leaf);
	if (err == DOCA_SUCCESS)
		err = sd_argp_check_mandatory(leaf);
	if (err == DOCA_SUCCESS)
		err = sd_argp_run_cmd_callbacks(leaf);
	if (err != DOCA_SUCCESS)
		return err;
	*usage = false;
	return sd_argp_run_final_callbacks();
}

doca_error_t doca_argp_start(int argc, char **argv)
{
	bool usage = false;
	doca_error_t err;

	if (!sd_argp_in_setup())
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the arg parser is %s, start needs doca_argp_init and runs once",
				 sd_argp_phase_name());
	if (argc < 1 || argv == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "argc is %d and argv is %p, expected argc >= 1 and an argv",
				 argc, (void *)argv);
	for (int i = 0; i < argc; i++)
		if (argv[i] == NULL)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "argv[%d] is NULL while argc is %d", i, argc);

	sd_argp.starting = true;
	err = sd_argp_parse(argc, argv, &usage);
	sd_argp.starting = false;

	if (sd_argp.phase == SD_ARGP_CLOSING) {
		sd_argp_release();
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "doca_argp_destroy was called from a callback while parsing");
	}
	if (err != DOCA_SUCCESS) {
		if (usage) {
			sd_argp_usage_print(stdout);
			fflush(stdout);
		}
		return SD_REJECT(err, "%s", sd_argp.last_error[0] != '\0' ? sd_argp.last_error : "parsing failed");
	}
	sd_argp.phase = SD_ARGP_STARTED;
	return DOCA_SUCCESS;
}
