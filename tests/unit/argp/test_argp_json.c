/*
 * JSON parameter files: the shape of the DMA Copy
 * file with block and line comments, trailing commas, syntax errors,
 * unknown and cli-only keys, type mismatches, ranges, arrays for
 * multi-value flags, JSON objects, and how the file combines with the
 * command line.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "argp_test_util.h"
#include "sd_test.h"

/* The DMA Copy flags: -f/--file and -p/--pci-addr mandatory, -r/--rep-pci optional. */
static void fresh_like_dma_copy(void)
{
	struct doca_argp_param *p;

	sd_fresh(NULL, NULL);
	p = sd_param("f", "file", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_mandatory(p);
	CHECK_OK(doca_argp_register_param(p));
	p = sd_param("p", "pci-addr", DOCA_ARGP_TYPE_STRING, sd_cb_str_b);
	doca_argp_param_set_mandatory(p);
	CHECK_OK(doca_argp_register_param(p));
	sd_register("r", "rep-pci", DOCA_ARGP_TYPE_STRING, sd_cb_str_c);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
}

/* Same shape as the shipped dma_copy_params.json: a leading block comment, "//" before each key. */
static const char dma_copy_like_file[] =
	"/*\n"
	" * Parameters of the DMA Copy application on the DPU side.\n"
	" * (a block comment, with a quote \" and a // inside)\n"
	" */\n"
	"{\n"
	"\t\"doca_general_flags\": {\n"
	"\t\t// -l - application log level\n"
	"\t\t\"log-level\": 50\n"
	"\t},\n"
	"\t\"doca_program_flags\": {\n"
	"\t\t// -f - the file to send or to receive\n"
	"\t\t\"file\": \"/tmp/dma_copy_test.txt\",\n"
	"\t\t// -p - PCI address of the Comch device\n"
	"\t\t\"pci-addr\": \"03:00.0\",\n"
	"\t\t// -r - PCI address of the representor\n"
	"\t\t\"rep-pci\": \"b1:00.0\"\n"
	"\t}\n"
	"}\n";

static void the_dma_copy_file_with_comments_is_applied(void)
{
	const char *path = sd_temp_file(0, dma_copy_like_file);
	int level = 0;

	fresh_like_dma_copy();
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(SD_START("doca_dma_copy", "-j", (char *)path));
	/* program flags in registration order, then the validation callback */
	CHECK(strcmp(sd_calls, "a=/tmp/dma_copy_test.txt;b=03:00.0;c=b1:00.0;valid;") == 0);
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_INFO);
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK_EQ_U64(level, 50);
	CHECK(sd_msgs[0] == '\0'); /* nothing to warn about */
	CHECK_EQ_U64(sd_sdk_errors(), 0);
	CHECK_OK(doca_argp_destroy());
}

static void trailing_commas_are_accepted(void)
{
	const char *path = sd_temp_file(0, "{\n"
					   "  \"doca_general_flags\": { \"log-level\": 40, },\n"
					   "  \"doca_program_flags\": {\n"
					   "    \"file\": \"x\",\n"
					   "    \"pci-addr\": \"03:00.0\", // last one\n"
					   "  },\n"
					   "}\n");

	fresh_like_dma_copy();
	CHECK_OK(SD_START("doca_dma_copy", "--json", (char *)path));
	CHECK(strcmp(sd_calls, "a=x;b=03:00.0;valid;") == 0);
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_WARNING);
	CHECK_OK(doca_argp_destroy());
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
}

static void comment_markers_and_commas_inside_strings_are_kept(void)
{
	const char *path = sd_temp_file(0, "{\"doca_program_flags\": {\"file\": \"a//b/*c*/,}\", "
					   "\"pci-addr\": \"q\\\"//,]\"}}");

	fresh_like_dma_copy();
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(strcmp(sd_calls, "a=a//b/*c*/,};b=q\"//,];valid;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void expect_io_failed(const char *text)
{
	const char *path = sd_temp_file(1, text);

	fresh_like_dma_copy();
	CHECK_ERR(SD_START("prog", "-j", (char *)path), DOCA_ERROR_IO_FAILED);
	CHECK(strstr(sd_msgs, "ERR:") != NULL);
	CHECK_EQ_U64(sd_sdk_errors(), 1);
	CHECK(strstr(sd_calls, "valid") == NULL);
	CHECK_OK(doca_argp_destroy());
}

static void malformed_files_are_io_failures(void)
{
	expect_io_failed("");
	expect_io_failed("   \n");
	expect_io_failed("{\"doca_program_flags\": {\"file\": \"x\"}");   /* unclosed */
	expect_io_failed("{\"doca_program_flags\": {\"file\" \"x\"}}");   /* missing colon */
	expect_io_failed("{\"doca_program_flags\": {\"file\": 'x'}}");    /* single quotes */
	expect_io_failed("{\"a\": [1,,]}");                                 /* double comma */
	expect_io_failed("{,}");                                            /* comma without value */
	expect_io_failed("{\"a\":,}");
	expect_io_failed("{\"a\": 1} trailing");                            /* garbage after */
	expect_io_failed("{\"a\": 1} /* never closed");                     /* open comment */
	expect_io_failed("[1, 2]");                                         /* not an object */
	expect_io_failed("{\"doca_program_flags\": [\"file\"]}");           /* section not an object */
	expect_io_failed("{\"doca_general_flags\": 5}");
}

static void a_missing_file_is_an_io_failure(void)
{
	fresh_like_dma_copy();
	CHECK_ERR(SD_START("prog", "-j", "/nonexistent/softdoca/params.json"), DOCA_ERROR_IO_FAILED);
	CHECK(strstr(sd_msgs, "/nonexistent/softdoca/params.json") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void a_syntax_error_names_its_line(void)
{
	const char *path = sd_temp_file(0, "{\n// one\n/* two\n three */\n\"doca_program_flags\": {\n \"file\": x\n}}");

	fresh_like_dma_copy();
	CHECK_ERR(SD_START("prog", "-j", (char *)path), DOCA_ERROR_IO_FAILED);
	CHECK(strstr(sd_msgs, "line 6") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void unknown_keys_and_sections_are_ignored_with_a_warning(void)
{
	const char *path = sd_temp_file(0, "{\"doca_general_flags\": {\"help\": true, \"colour\": 1},"
					   " \"doca_program_flags\": {\"file\": \"f\", \"pci-addr\": \"p\", \"extra\": 3},"
					   " \"doca_dpdk_flags\": {\"core-list\": \"0-3\"},"
					   " \"something_else\": {}}");

	fresh_like_dma_copy();
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(strcmp(sd_calls, "a=f;b=p;valid;") == 0);
	CHECK(strstr(sd_msgs, "WRN:") != NULL);
	CHECK(strstr(sd_msgs, "\"help\"") != NULL);
	CHECK(strstr(sd_msgs, "\"colour\"") != NULL);
	CHECK(strstr(sd_msgs, "\"extra\"") != NULL);
	CHECK(strstr(sd_msgs, "\"something_else\"") != NULL);
	CHECK(strstr(sd_msgs, "ERR:") == NULL);
	CHECK_EQ_U64(sd_sdk_errors(), 0);
	CHECK_OK(doca_argp_destroy());
}

static void wrong_types_are_io_failures(void)
{
	const char *cases[] = {
		"{\"doca_program_flags\": {\"alpha\": 5}}",
		"{\"doca_program_flags\": {\"alpha\": null}}",
		"{\"doca_program_flags\": {\"num\": \"5\"}}",
		"{\"doca_program_flags\": {\"num\": 5.0}}",
		"{\"doca_program_flags\": {\"flag\": 1}}",
		"{\"doca_program_flags\": {\"obj\": [1]}}",
		"{\"doca_program_flags\": {\"alpha\": [\"a\", \"b\"]}}", /* not a multi-value flag */
		"{\"doca_general_flags\": {\"log-level\": \"50\"}}",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = sd_temp_file(0, cases[i]);

		sd_fresh("prog", NULL);
		sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
		sd_register("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
		sd_register("f", "flag", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
		sd_register("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, sd_cb_json_o);
		CHECK_OK(doca_argp_register_logger_callback(sd_logger));
		CHECK_ERR(SD_START("prog", "-j", (char *)path), DOCA_ERROR_IO_FAILED);
		CHECK(sd_calls[0] == '\0');
		CHECK_OK(doca_argp_destroy());
	}
}

static void values_of_every_type_are_read(void)
{
	const char *path = sd_temp_file(0, "{\"doca_program_flags\": {"
					   "\"alpha\": \"s\", \"num\": -12, \"flag\": false,"
					   " \"obj\": {\"k\": [1, \"a/b\"], \"n\": null}}}");

	sd_fresh("prog", NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	sd_register("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	sd_register("f", "flag", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
	sd_register("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, sd_cb_json_o);
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(strcmp(sd_calls, "a=s;n=-12;f=false;o={\"k\":[1,\"a/b\"],\"n\":null};") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void ints_out_of_range_are_invalid_values(void)
{
	const char *cases[] = {
		"{\"doca_program_flags\": {\"num\": 2147483648}}",
		"{\"doca_program_flags\": {\"num\": -2147483649}}",
		"{\"doca_program_flags\": {\"num\": 99999999999999999999999}}",
		"{\"doca_general_flags\": {\"log-level\": 71}}",
		"{\"doca_general_flags\": {\"sdk-log-level\": 9}}",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = sd_temp_file(0, cases[i]);

		sd_fresh("prog", NULL);
		sd_register("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
		CHECK_ERR(SD_START("prog", "-j", (char *)path), DOCA_ERROR_INVALID_VALUE);
		CHECK(sd_calls[0] == '\0');
		CHECK_OK(doca_argp_destroy());
	}
}

static void multi_value_flags_take_arrays_and_scalars(void)
{
	struct doca_argp_param *p;
	const char *path = sd_temp_file(0, "{\"doca_program_flags\": {\"num\": [3, 1, 2]}}");

	sd_fresh("prog", NULL);
	p = sd_param("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	doca_argp_param_set_multiplicity(p);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(SD_START("prog", "-j", (char *)path, "-n", "4"));
	CHECK(strcmp(sd_calls, "n=3;n=1;n=2;n=4;") == 0);
	CHECK_OK(doca_argp_destroy());

	path = sd_temp_file(0, "{\"doca_program_flags\": {\"num\": 9}}");
	sd_fresh("prog", NULL);
	p = sd_param("n", "num", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	doca_argp_param_set_multiplicity(p);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(strcmp(sd_calls, "n=9;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void the_command_line_overrides_the_file(void)
{
	const char *path = sd_temp_file(0, dma_copy_like_file);

	fresh_like_dma_copy();
	/* -j may come anywhere: the file is applied first */
	CHECK_OK(SD_START("doca_dma_copy", "-p", "b1:00.0", "-j", (char *)path, "-l", "30"));
	CHECK(strcmp(sd_calls, "a=/tmp/dma_copy_test.txt;b=03:00.0;c=b1:00.0;b=b1:00.0;valid;") == 0);
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_ERROR);
	CHECK_OK(doca_argp_destroy());
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
}

static void a_mandatory_flag_may_come_from_the_file_or_the_command_line(void)
{
	const char *path = sd_temp_file(0, "{\"doca_program_flags\": {\"file\": \"from-json\"}}");

	fresh_like_dma_copy();
	CHECK_ERR(SD_START("prog", "-j", (char *)path), DOCA_ERROR_INVALID_VALUE); /* pci-addr missing */
	CHECK(strstr(sd_msgs, "pci-addr") != NULL);
	CHECK_OK(doca_argp_destroy());
	fresh_like_dma_copy();
	CHECK_OK(SD_START("prog", "-j", (char *)path, "-p", "03:00.0"));
	CHECK(strcmp(sd_calls, "a=from-json;b=03:00.0;valid;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void json_given_twice_is_invalid(void)
{
	const char *path = sd_temp_file(0, dma_copy_like_file);

	fresh_like_dma_copy();
	CHECK_ERR(SD_START("prog", "-j", (char *)path, "--json", (char *)path), DOCA_ERROR_INVALID_VALUE);
	CHECK(sd_calls[0] == '\0');
	CHECK_OK(doca_argp_destroy());
	fresh_like_dma_copy();
	CHECK_ERR(SD_START("prog", "-f", "x", "-p", "y", "-j"), DOCA_ERROR_INVALID_VALUE); /* no path */
	CHECK_OK(doca_argp_destroy());
}

static void cli_only_flags_are_not_read_from_the_file(void)
{
	struct doca_argp_param *p;
	const char *path = sd_temp_file(0, "{\"doca_program_flags\": {\"alpha\": \"json\", \"beta\": \"ok\"}}");

	sd_fresh("prog", NULL);
	CHECK_OK(doca_argp_register_logger_callback(sd_logger));
	p = sd_param("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_cli_only(p);
	CHECK_OK(doca_argp_register_param(p));
	sd_register("b", "beta", DOCA_ARGP_TYPE_STRING, sd_cb_str_b);
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(strcmp(sd_calls, "b=ok;") == 0);
	CHECK(strstr(sd_msgs, "WRN:") != NULL && strstr(sd_msgs, "alpha") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void duplicate_keys_keep_the_last_value(void)
{
	const char *path = sd_temp_file(0, "{\"doca_program_flags\": {\"alpha\": \"first\", \"alpha\": \"last\"}}");

	sd_fresh("prog", NULL);
	sd_register("a", "alpha", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK(strcmp(sd_calls, "a=last;") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void sdk_log_level_from_the_file_is_applied(void)
{
	const char *path = sd_temp_file(0, "{\"doca_general_flags\": {\"sdk-log-level\": 60}}");
	uint32_t before = doca_log_level_get_global_sdk_limit();
	int level = 0;

	sd_fresh("prog", NULL);
	CHECK_OK(SD_START("prog", "-j", (char *)path));
	CHECK_EQ_U64(doca_log_level_get_global_sdk_limit(), 60);
	CHECK_OK(doca_argp_get_sdk_log_level(&level));
	CHECK_EQ_U64(level, 60);
	CHECK_OK(doca_argp_destroy());
	CHECK_OK(doca_log_level_set_global_sdk_limit(before));
}

int main(void)
{
	SD_RUN(the_dma_copy_file_with_comments_is_applied);
	SD_RUN(trailing_commas_are_accepted);
	SD_RUN(comment_markers_and_commas_inside_strings_are_kept);
	SD_RUN(malformed_files_are_io_failures);
	SD_RUN(a_missing_file_is_an_io_failure);
	SD_RUN(a_syntax_error_names_its_line);
	SD_RUN(unknown_keys_and_sections_are_ignored_with_a_warning);
	SD_RUN(wrong_types_are_io_failures);
	SD_RUN(values_of_every_type_are_read);
	SD_RUN(ints_out_of_range_are_invalid_values);
	SD_RUN(multi_value_flags_take_arrays_and_scalars);
	SD_RUN(the_command_line_overrides_the_file);
	SD_RUN(a_mandatory_flag_may_come_from_the_file_or_the_command_line);
	SD_RUN(json_given_twice_is_invalid);
	SD_RUN(cli_only_flags_are_not_read_from_the_file);
	SD_RUN(duplicate_keys_keep_the_last_value);
	SD_RUN(sdk_log_level_from_the_file_is_applied);
	return sd_test_done();
}
