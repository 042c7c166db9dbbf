/*
 * The command line (values of each type, the grammar, the order and the
 * errors): every parameter type in short and long forms, the "=" forms,
 * values that look like flags, bad values, unknown flags, duplicates,
 * multiplicity, singular, mandatory, callback and validation failures.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>

#include "argp_test_util.h"
#include "sd_test.h"

/* -a/--alpha STRING, -n/--num INT, -f/--flag BOOLEAN */
static void fresh_with_three_types(void)
{
	sd_fresh("prog", NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	sd_register("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	sd_register("f", "flag", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
}

static void every_type_in_short_form(void)
{
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "-a", "hello", "-n", "42", "-f"));
	CHECK(strcmp(sd_calls, "a=hello;n=42;f=true;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void every_type_in_long_form_runs_callbacks_in_command_line_order(void)
{
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "--flag", "--num", "-7", "--alpha", "x y"));
	CHECK(strcmp(sd_calls, "f=true;n=-7;a=x y;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void equals_forms_are_accepted(void)
{
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "--alpha=v=1", "-n=+5"));
	CHECK(strcmp(sd_calls, "a=v=1;n=5;") == 0);
	CHECK_OK(doca_argp_destroy());
	/* an empty glued value is an empty string */
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "-a=", "--num=0"));
	CHECK(strcmp(sd_calls, "a=;n=0;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void multi_letter_short_names_work(void)
{
	sd_fresh("prog", NULL);
	sd_register("ns", "num-src", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	sd_register("nd", "num-dst", DOCA_ARGP_TYPE_INT, sd_cb_int_m);
	CHECK_OK(SD_START("prog", "-ns", "3", "-nd", "4"));
	CHECK(strcmp(sd_calls, "n=3;m=4;") == 0);
	CHECK_OK(doca_argp_destroy());
	/* no bundling and no abbreviation */
	sd_fresh("prog", NULL);
	sd_register("ns", "num-src", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	CHECK_ERR(SD_START("prog", "-n", "3"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());
	sd_fresh("prog", NULL);
	sd_register("ns", "num-src", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	CHECK_ERR(SD_START("prog", "--num", "3"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());
}

static void a_string_value_is_taken_verbatim_even_when_it_looks_like_a_flag(void)
{
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "-a", "-n", "-n", "1"));
	CHECK(strcmp(sd_calls, "a=-n;n=1;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_4096_byte_string_reaches_the_callback_untruncated(void)
{
	char *big = malloc(4097);

	REQUIRE(big != NULL);
	memset(big, 'x', 4096);
	big[4096] = '\0';
	sd_fresh("prog", NULL);
	sd_register("t", "text", DOCA_ARGP_TYPE_STRING, sd_cb_str_len);
	CHECK_OK(SD_START("prog", "-t", big));
	CHECK(strcmp(sd_calls, "len=4096;") == 0);
	CHECK_OK(doca_argp_destroy());
	free(big);
}

static void malformed_ints_are_invalid_values(void)
{
	const char *bad[] = {"3x", "", " 3", "3 ", "0x10", "1.5", "+", "-", "2147483648", "-2147483649", "1e3"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fresh_with_three_types();
		CHECK_ERR(SD_START("prog", "-n", (char *)bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK(sd_calls[0] == '\0');
		CHECK_EQ_U64(sd_sdk_errors(), 1);
		CHECK_OK(doca_argp_destroy());
	}
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "-n", "2147483647"));
	CHECK(strcmp(sd_calls, "n=2147483647;") == 0);
	CHECK_OK(doca_argp_destroy());
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "-n", "-2147483648"));
	CHECK(strcmp(sd_calls, "n=-2147483648;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_boolean_with_a_glued_value_is_invalid(void)
{
	fresh_with_three_types();
	CHECK_ERR(SD_START("prog", "--flag=true"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
	/* a following word is not its value: it is a stray word */
	fresh_with_three_types();
	CHECK_ERR(SD_START("prog", "-f", "true"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strcmp(sd_calls, "f=true;") == 0); /* already-run callbacks are not undone */
	CHECK_OK(doca_argp_destroy());
}

static void a_missing_value_at_the_end_is_invalid(void)
{
	fresh_with_three_types();
	CHECK_ERR(SD_START("prog", "-f", "-a"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
	fresh_with_three_types();
	CHECK_ERR(SD_START("prog", "--num"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
}

static void unknown_flags_and_stray_words_are_not_supported(void)
{
	const char *bad[] = {"--bogus", "-x", "---alpha", "word", "-", "--alph"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fresh_with_three_types();
		CHECK_ERR(SD_START("prog", (char *)bad[i]), DOCA_ERROR_NOT_SUPPORTED);
		CHECK_EQ_U64(sd_sdk_errors(), 1);
		CHECK_OK(doca_argp_destroy());
	}
}

static void a_bare_double_dash_is_ignored(void)
{
	fresh_with_three_types();
	CHECK_OK(SD_START("prog", "--", "-f", "--"));
	CHECK(strcmp(sd_calls, "f=true;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_json_object_param_is_refused_on_the_command_line(void)
{
	sd_fresh("prog", NULL);
	sd_register("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, sd_cb_json_o);
	CHECK_ERR(SD_START("prog", "--obj", "{}"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(sd_calls[0] == '\0');
	CHECK_OK(doca_argp_destroy());
}

static void a_flag_given_twice_is_invalid_unless_multiple(void)
{
	struct doca_argp_param *p;

	fresh_with_three_types();
	CHECK_ERR(SD_START("prog", "-a", "1", "--alpha", "2"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
	fresh_with_three_types();
	CHECK_ERR(SD_START("prog", "-l", "50", "-l", "60"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());

	sd_fresh("prog", NULL);
	p = sd_param("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_multiplicity(p);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(SD_START("prog", "-a", "1", "--alpha", "2", "-a=3"));
	CHECK(strcmp(sd_calls, "a=1;a=2;a=3;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_singular_flag_cannot_be_combined_with_program_flags(void)
{
	struct doca_argp_param *p;

	for (int order = 0; order < 2; order++) {
		sd_fresh("prog", NULL);
		p = sd_param("s", "solo", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
		doca_argp_param_set_singular(p);
		CHECK_OK(doca_argp_register_param(p));
		sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
		if (order == 0)
			CHECK_ERR(SD_START("prog", "-s", "-a", "x"), DOCA_ERROR_INVALID_VALUE);
		else
			CHECK_ERR(SD_START("prog", "-a", "x", "-s"), DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_argp_destroy());
	}
	/* built-in flags do not count */
	sd_fresh("prog", NULL);
	p = sd_param("s", "solo", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
	doca_argp_param_set_singular(p);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(SD_START("prog", "-l", "50", "-s"));
	CHECK(strcmp(sd_calls, "f=true;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_missing_mandatory_flag_is_invalid_after_all_callbacks(void)
{
	struct doca_argp_param *p;

	sd_fresh("prog", NULL);
	p = sd_param("p", "pci", DOCA_ARGP_TYPE_STRING, sd_cb_str_b);
	doca_argp_param_set_mandatory(p);
	CHECK_OK(doca_argp_register_param(p));
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	CHECK_ERR(SD_START("prog", "-a", "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strcmp(sd_calls, "a=x;") == 0); /* validation never ran */
	CHECK_EQ_U64(sd_sdk_errors(), 1);
	CHECK(strstr(sd_sdk_last(), "pci") != NULL);
	CHECK_OK(doca_argp_destroy());

	sd_fresh("prog", NULL);
	p = sd_param("p", "pci", DOCA_ARGP_TYPE_STRING, sd_cb_str_b);
	doca_argp_param_set_mandatory(p);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(SD_START("prog", "--pci", "03:00.0"));
	CHECK_OK(doca_argp_destroy());
}

static void a_failing_callback_fails_start_with_its_code(void)
{
	sd_fresh("prog", NULL);
	sd_register("r", "refuse", DOCA_ARGP_TYPE_STRING, sd_cb_str_refuse);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	CHECK_ERR(SD_START("prog", "-r", "v", "-a", "never"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strcmp(sd_calls, "bad=v;") == 0);
	CHECK_EQ_U64(sd_sdk_errors(), 1);
	CHECK_OK(doca_argp_destroy());
}

static void the_validation_callback_runs_last_and_its_error_is_returned(void)
{
	fresh_with_three_types();
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	CHECK_OK(SD_START("prog", "-f", "-a", "x"));
	CHECK(strcmp(sd_calls, "f=true;a=x;valid;") == 0);
	CHECK_OK(doca_argp_destroy());

	fresh_with_three_types();
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_refuse));
	CHECK_ERR(SD_START("prog", "-f"), DOCA_ERROR_NOT_PERMITTED);
	CHECK(strcmp(sd_calls, "f=true;invalid;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void callbacks_receive_the_program_config(void)
{
	char cfg[] = "my-config";

	sd_fresh(NULL, cfg);
	sd_register("c", "cfg", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_str_cfg);
	CHECK_OK(SD_START("prog", "-c"));
	CHECK(strcmp(sd_calls, "cfg=my-config;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_hidden_param_is_still_accepted(void)
{
	struct doca_argp_param *p;

	sd_fresh("prog", NULL);
	p = sd_param("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_hidden(p);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(SD_START("prog", "-a", "secret"));
	CHECK(strcmp(sd_calls, "a=secret;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void argv_is_never_modified(void)
{
	char a0[] = "prog", a1[] = "-a", a2[] = "value", a3[] = "--num=5";
	char *argv[] = {a0, a1, a2, a3, NULL};

	fresh_with_three_types();
	CHECK_OK(doca_argp_start(4, argv));
	CHECK(argv[0] == a0 && argv[1] == a1 && argv[2] == a2 && argv[3] == a3);
	CHECK(strcmp(a2, "value") == 0 && strcmp(a3, "--num=5") == 0);
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	SD_RUN(every_type_in_short_form);
	SD_RUN(every_type_in_long_form_runs_callbacks_in_command_line_order);
	SD_RUN(equals_forms_are_accepted);
	SD_RUN(multi_letter_short_names_work);
	SD_RUN(a_string_value_is_taken_verbatim_even_when_it_looks_like_a_flag);
	SD_RUN(a_4096_byte_string_reaches_the_callback_untruncated);
	SD_RUN(malformed_ints_are_invalid_values);
	SD_RUN(a_boolean_with_a_glued_value_is_invalid);
	SD_RUN(a_missing_value_at_the_end_is_invalid);
	SD_RUN(unknown_flags_and_stray_words_are_not_supported);
	SD_RUN(a_bare_double_dash_is_ignored);
	SD_RUN(a_json_object_param_is_refused_on_the_command_line);
	SD_RUN(a_flag_given_twice_is_invalid_unless_multiple);
	SD_RUN(a_singular_flag_cannot_be_combined_with_program_flags);
	SD_RUN(a_missing_mandatory_flag_is_invalid_after_all_callbacks);
	SD_RUN(a_failing_callback_fails_start_with_its_code);
	SD_RUN(the_validation_callback_runs_last_and_its_error_is_returned);
	SD_RUN(callbacks_receive_the_program_config);
	SD_RUN(a_hidden_param_is_still_accepted);
	SD_RUN(argv_is_never_modified);
	return sd_test_done();
}
