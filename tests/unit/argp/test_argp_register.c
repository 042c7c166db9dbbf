/*
 * Creating, configuring, registering and destroying parameters and
 * commands: every refusal and its code, ownership after a
 * refused registration, setters on bad objects.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>

#include "argp_test_util.h"
#include "sd_test.h"

static void param_create_refuses_null(void)
{
	sd_fresh("prog", NULL);
	CHECK_ERR(doca_argp_param_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(sd_sdk_errors(), 2);
	CHECK_OK(doca_argp_destroy());
}

static void missing_mandatory_attributes_are_initialization_errors(void)
{
	struct doca_argp_param *p;

	sd_fresh("prog", NULL);
	p = sd_param(NULL, NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_INITIALIZATION);
	p = sd_param("a", NULL, DOCA_ARGP_TYPE_STRING, NULL);
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_INITIALIZATION);
	p = sd_param("a", NULL, DOCA_ARGP_TYPE_UNKNOWN, sd_cb_str_a);
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_INITIALIZATION);
	p = sd_param("a", NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_description(p, NULL);
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_INITIALIZATION);
	CHECK_EQ_U64(sd_sdk_errors(), 4);
	CHECK_OK(doca_argp_destroy());
}

static void a_refused_param_belongs_to_the_parser(void)
{
	struct doca_argp_param *p;

	sd_fresh("prog", NULL);
	p = sd_param("a", NULL, DOCA_ARGP_TYPE_STRING, NULL);
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_INITIALIZATION);
	/* the caller must not destroy it; doing so anyway is refused, not a double free */
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_ERROR_BAD_STATE);
	/* registering it again is "already registered" */
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_argp_destroy()); /* frees it: ASan reports no leak */
}

static void builtin_names_are_reserved(void)
{
	const char *names[] = {"h", "help", "v", "version", "l", "log-level", "sdk-log-level", "j", "json"};

	sd_fresh("prog", NULL);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		CHECK_ERR(doca_argp_register_param(sd_param(names[i], NULL, DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f)),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_argp_register_param(sd_param(NULL, names[i], DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f)),
			  DOCA_ERROR_INVALID_VALUE);
	}
	CHECK_EQ_U64(sd_sdk_errors(), 18);
	CHECK_OK(doca_argp_destroy());
}

static void a_name_registered_twice_in_one_scope_is_invalid(void)
{
	sd_fresh("prog", NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_ERR(doca_argp_register_param(sd_param("a", "other", DOCA_ARGP_TYPE_STRING, sd_cb_str_b)),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_param(sd_param("o", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_b)),
		  DOCA_ERROR_INVALID_VALUE);
	/* a short name equal to another param's long name is a different spelling: allowed */
	CHECK_OK(doca_argp_register_param(sd_param("alpha", NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_b)));
	CHECK_OK(doca_argp_destroy());
}

static void malformed_names_are_invalid(void)
{
	const char *bad[] = {"", "-x", "a b", "a=b", "tab\there"};

	sd_fresh("prog", NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_ERR(doca_argp_register_param(sd_param(bad[i], NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a)),
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
}

static void register_refuses_null_and_foreign_params(void)
{
	struct doca_argp_param *p;
	char fake[256] = {0};

	sd_fresh("prog", NULL);
	CHECK_ERR(doca_argp_register_param(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_param((struct doca_argp_param *)fake), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_param_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_param_destroy((struct doca_argp_param *)fake), DOCA_ERROR_INVALID_VALUE);
	p = sd_param("a", NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_ERROR_BAD_STATE);
	CHECK_EQ_U64(sd_sdk_errors(), 6);
	CHECK_OK(doca_argp_destroy());
}

static void an_unregistered_param_can_be_destroyed(void)
{
	struct doca_argp_param *p;

	sd_fresh("prog", NULL);
	p = sd_param("a", NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(doca_argp_param_destroy(p));
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_ERROR_INVALID_VALUE); /* freed: recognised as unknown */
	CHECK_OK(doca_argp_destroy());
}

static void setters_ignore_null_foreign_and_registered_params_with_a_record(void)
{
	struct doca_argp_param *p;
	char fake[256] = {0};

	sd_fresh("prog", NULL);
	doca_argp_param_set_short_name(NULL, "x");
	doca_argp_param_set_long_name(NULL, "x");
	doca_argp_param_set_arguments(NULL, "x");
	doca_argp_param_set_description(NULL, "x");
	doca_argp_param_set_callback(NULL, sd_cb_str_a);
	doca_argp_param_set_type(NULL, DOCA_ARGP_TYPE_INT);
	doca_argp_param_set_mandatory(NULL);
	doca_argp_param_set_cli_only(NULL);
	doca_argp_param_set_multiplicity(NULL);
	doca_argp_param_set_singular(NULL);
	doca_argp_param_set_inherited(NULL);
	doca_argp_param_set_hidden(NULL);
	CHECK_EQ_U64(sd_sdk_errors(), 12);
	doca_argp_param_set_short_name((struct doca_argp_param *)fake, "x");
	CHECK_EQ_U64(sd_sdk_errors(), 13);
	CHECK(fake[0] == 0);

	p = sd_param("a", NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_type(p, (enum doca_argp_type)42);
	CHECK_EQ_U64(sd_sdk_errors(), 14);
	CHECK_OK(doca_argp_register_param(p));
	/* attributes are frozen once registered: the name stays "a" */
	doca_argp_param_set_short_name(p, "z");
	CHECK_EQ_U64(sd_sdk_errors(), 15);
	CHECK_OK(SD_START("prog", "-a", "kept"));
	CHECK(strcmp(sd_calls, "a=kept;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void setter_strings_are_copied_and_null_clears(void)
{
	struct doca_argp_param *p;
	char name[8] = "name";

	sd_fresh("prog", NULL);
	p = sd_param(NULL, NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_long_name(p, name);
	doca_argp_param_set_short_name(p, "s");
	doca_argp_param_set_short_name(p, NULL);
	strcpy(name, "gone");
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(SD_START("prog", "--name", "v"));
	CHECK(strcmp(sd_calls, "a=v;") == 0);
	CHECK_OK(doca_argp_destroy());

	sd_fresh("prog", NULL);
	sd_register("x", "name", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_ERR(SD_START("prog", "-s", "v"), DOCA_ERROR_NOT_SUPPORTED); /* the cleared short name is gone */
	CHECK_OK(doca_argp_destroy());
}

static struct doca_argp_cmd *make_cmd(const char *name, const char *description)
{
	struct doca_argp_cmd *cmd = NULL;

	if (doca_argp_cmd_create(&cmd) != DOCA_SUCCESS)
		exit(1);
	doca_argp_cmd_set_name(cmd, name);
	doca_argp_cmd_set_description(cmd, description);
	return cmd;
}

static void command_registration_rules(void)
{
	struct doca_argp_cmd *a, *b, *c;

	sd_fresh("prog", NULL);
	CHECK_ERR(doca_argp_register_cmd(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_cmd(make_cmd(NULL, "no name")), DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(doca_argp_register_cmd(make_cmd("nodesc", NULL)), DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(doca_argp_register_cmd(make_cmd("-dash", "bad name")), DOCA_ERROR_INVALID_VALUE);
	a = make_cmd("run", "runs");
	CHECK_OK(doca_argp_register_cmd(a));
	CHECK_ERR(doca_argp_register_cmd(a), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_cmd_destroy(a), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_cmd(make_cmd("run", "clash")), DOCA_ERROR_INVALID_VALUE);
	b = make_cmd("sub", "nested");
	CHECK_OK(doca_argp_cmd_register_cmd(a, b));
	/* a command cannot be nested under itself or its own sub-command */
	c = make_cmd("loop", "loop");
	CHECK_ERR(doca_argp_cmd_register_cmd(c, c), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_register_cmd(NULL, make_cmd("x", "y")), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_register_param(NULL, sd_param("q", NULL, DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f)),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(sd_sdk_errors(), 11);
	CHECK_OK(doca_argp_destroy());
}

static void an_unregistered_cmd_can_be_destroyed(void)
{
	struct doca_argp_cmd *cmd;

	sd_fresh("prog", NULL);
	cmd = make_cmd("x", "y");
	CHECK_OK(doca_argp_cmd_register_param(cmd, sd_param("q", NULL, DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f)));
	CHECK_OK(doca_argp_cmd_destroy(cmd));
	CHECK_ERR(doca_argp_cmd_destroy(cmd), DOCA_ERROR_INVALID_VALUE);
	doca_argp_cmd_set_name(NULL, "x");
	doca_argp_cmd_set_description(NULL, "x");
	doca_argp_cmd_set_callback(NULL, NULL);
	doca_argp_cmd_set_hidden(NULL);
	CHECK_EQ_U64(sd_sdk_errors(), 5);
	CHECK_OK(doca_argp_destroy());
}

static void a_param_without_long_name_is_made_cli_only(void)
{
	const char *path;

	sd_fresh("prog", NULL);
	sd_register("a", NULL, DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	/* a JSON file cannot name it, so it must come from the command line */
	path = sd_temp_file(0, "{\"doca_program_flags\": {\"a\": \"json\"}}");
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(sd_calls[0] == '\0');
	CHECK(strstr(sd_msgs, "WRN:") != NULL);
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	SD_RUN(param_create_refuses_null);
	SD_RUN(missing_mandatory_attributes_are_initialization_errors);
	SD_RUN(a_refused_param_belongs_to_the_parser);
	SD_RUN(builtin_names_are_reserved);
	SD_RUN(a_name_registered_twice_in_one_scope_is_invalid);
	SD_RUN(malformed_names_are_invalid);
	SD_RUN(register_refuses_null_and_foreign_params);
	SD_RUN(an_unregistered_param_can_be_destroyed);
	SD_RUN(setters_ignore_null_foreign_and_registered_params_with_a_record);
	SD_RUN(setter_strings_are_copied_and_null_clears);
	SD_RUN(command_registration_rules);
	SD_RUN(an_unregistered_cmd_can_be_destroyed);
	SD_RUN(a_param_without_long_name_is_made_cli_only);
	return sd_test_done();
}
