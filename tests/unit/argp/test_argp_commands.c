/*
 * Commands: selecting a command and its sub-commands, which
 * flags are valid where, inherited flags, mandatory flags of selected and
 * unselected commands, command callbacks (outer first, before validation),
 * and the Commands section of the usage.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>

#include "argp_test_util.h"
#include "sd_test.h"

static doca_error_t cmd_run_cb(void *config)
{
	(void)config;
	strncat(sd_calls, "run;", SD_CALLS_MAX - strlen(sd_calls) - 1);
	return DOCA_SUCCESS;
}

static doca_error_t cmd_fast_cb(void *config)
{
	(void)config;
	strncat(sd_calls, "fast;", SD_CALLS_MAX - strlen(sd_calls) - 1);
	return DOCA_SUCCESS;
}

static doca_error_t cmd_fail_cb(void *config)
{
	(void)config;
	return DOCA_ERROR_NOT_PERMITTED;
}

static struct doca_argp_cmd *make_cmd(const char *name, doca_argp_cmd_cb_t callback)
{
	struct doca_argp_cmd *cmd = NULL;

	if (doca_argp_cmd_create(&cmd) != DOCA_SUCCESS)
		exit(1);
	doca_argp_cmd_set_name(cmd, name);
	doca_argp_cmd_set_description(cmd, "a test command");
	doca_argp_cmd_set_callback(cmd, callback);
	return cmd;
}

/*
 * prog [-g (inherited BOOLEAN)] [-a STRING]
 *   run [-n INT, mandatory]
 *     fast [-m INT]
 *   stop
 */
static void fresh_tree(void)
{
	struct doca_argp_param *p;
	struct doca_argp_cmd *run, *fast;

	sd_fresh("prog", NULL);
	p = sd_param("g", "global", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
	doca_argp_param_set_inherited(p);
	CHECK_OK(doca_argp_register_param(p));
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	run = make_cmd("run", cmd_run_cb);
	p = sd_param("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	doca_argp_param_set_mandatory(p);
	CHECK_OK(doca_argp_cmd_register_param(run, p));
	fast = make_cmd("fast", cmd_fast_cb);
	CHECK_OK(doca_argp_cmd_register_param(fast, sd_param("m", "more", DOCA_ARGP_TYPE_INT, sd_cb_int_m)));
	/* registered bottom-up and top-down alike */
	CHECK_OK(doca_argp_cmd_register_cmd(run, fast));
	CHECK_OK(doca_argp_register_cmd(run));
	CHECK_OK(doca_argp_register_cmd(make_cmd("stop", NULL)));
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
}

static void a_command_and_its_sub_command_are_selected(void)
{
	fresh_tree();
	CHECK_OK(SD_START("prog", "-a", "x", "run", "-n", "1", "fast", "-m", "2", "-g"));
	/* params in command-line order, then command callbacks outer first, then validation */
	CHECK(strcmp(sd_calls, "a=x;n=1;m=2;f=true;run;fast;valid;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void no_command_is_fine_and_unselected_mandatory_flags_are_not_checked(void)
{
	fresh_tree();
	CHECK_OK(SD_START("prog", "-a", "x"));
	CHECK(strcmp(sd_calls, "a=x;valid;") == 0);
	CHECK_OK(doca_argp_destroy());
	fresh_tree();
	CHECK_OK(SD_START("prog", "stop"));
	CHECK(strcmp(sd_calls, "valid;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_selected_command_checks_its_mandatory_flags(void)
{
	fresh_tree();
	CHECK_ERR(SD_START("prog", "run"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strcmp(sd_calls, "") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void flags_are_valid_only_in_their_scope(void)
{
	/* a command's flag before the command */
	fresh_tree();
	CHECK_ERR(SD_START("prog", "-n", "1", "run"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());
	/* a top-level, non-inherited flag after a command */
	fresh_tree();
	CHECK_ERR(SD_START("prog", "run", "-n", "1", "-a", "x"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());
	/* a sub-command at the top level, a sibling after a command */
	fresh_tree();
	CHECK_ERR(SD_START("prog", "fast"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());
	fresh_tree();
	CHECK_ERR(SD_START("prog", "run", "-n", "1", "stop"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());
	/* built-in flags are valid everywhere */
	fresh_tree();
	CHECK_OK(SD_START("prog", "run", "-n", "1", "fast", "-l", "50"));
	CHECK_OK(doca_argp_destroy());
}

static void a_failing_command_callback_fails_start_before_validation(void)
{
	sd_fresh("prog", NULL);
	CHECK_OK(doca_argp_register_cmd(make_cmd("bad", cmd_fail_cb)));
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	CHECK_ERR(SD_START("prog", "bad"), DOCA_ERROR_NOT_PERMITTED);
	CHECK(strcmp(sd_calls, "") == 0);
	CHECK_OK(doca_argp_destroy());
}

static int child_help(void *arg)
{
	(void)arg;
	return SD_START("prog", "-h") == DOCA_SUCCESS ? 42 : 43;
}

static void the_usage_lists_visible_commands(void)
{
	struct doca_argp_cmd *hidden;
	struct sd_child child;

	fresh_tree();
	hidden = make_cmd("internal", NULL);
	doca_argp_cmd_set_hidden(hidden);
	CHECK_OK(doca_argp_register_cmd(hidden));
	sd_child_run(&child, child_help, NULL);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strstr(child.out, "\n\nCommands:\n  run                               a test command\n"
				"  stop                              a test command\n") != NULL);
	CHECK(strstr(child.out, "internal") == NULL);
	CHECK(strstr(child.out, "fast") == NULL); /* only top-level commands */
	CHECK_OK(doca_argp_destroy());
}

static void commands_are_not_read_from_json(void)
{
	const char *path = sd_temp_file(0, "{\"doca_program_flags\": {\"num\": 1, \"alpha\": \"j\"}}");

	fresh_tree();
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(strcmp(sd_calls, "a=j;valid;") == 0);
	CHECK(strstr(sd_msgs, "\"num\"") != NULL); /* a command's flag is unknown at the top level */
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	SD_RUN(a_command_and_its_sub_command_are_selected);
	SD_RUN(no_command_is_fine_and_unselected_mandatory_flags_are_not_checked);
	SD_RUN(a_selected_command_checks_its_mandatory_flags);
	SD_RUN(flags_are_valid_only_in_their_scope);
	SD_RUN(a_failing_command_callback_fails_start_before_validation);
	SD_RUN(the_usage_lists_visible_commands);
	SD_RUN(commands_are_not_read_from_json);
	return sd_test_done();
}
