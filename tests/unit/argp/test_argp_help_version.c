/*
 * -h/--help and -v/--version: they end the
 * process with status 0 before any program callback, even when mandatory
 * flags are missing; the usage text layout; the default version lines and
 * a version callback in the style of the official sdk_version_callback.
 * Each case runs in a child process whose stdout and stderr are captured.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_version.h>

#include "argp_test_util.h"
#include "sd_test.h"

#define RETURNED_OK 42   /* the child's status when doca_argp_start returned DOCA_SUCCESS */
#define RETURNED_ERR 43  /* ... returned an error */

static const char *const *child_argv;

static int child_start(void *arg)
{
	char **argv = (char **)child_argv;
	int argc = 0;

	(void)arg;
	while (argv[argc] != NULL)
		argc++;
	return doca_argp_start(argc, argv) == DOCA_SUCCESS ? RETURNED_OK : RETURNED_ERR;
}

static void run_start(struct sd_child *child, const char *const *argv)
{
	child_argv = argv;
	sd_child_run(child, child_start, NULL);
}

/* The registry of the DMA samples: -p mandatory, -t a STRING, plus -ns (INT). */
static void fresh_like_sample(const char *name)
{
	struct doca_argp_param *p;

	sd_fresh(name, NULL);
	p = sd_param("p", "pci-addr", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_description(p, "PCI address of the DMA device");
	doca_argp_param_set_mandatory(p);
	CHECK_OK(doca_argp_register_param(p));
	p = sd_param("t", "text", DOCA_ARGP_TYPE_STRING, sd_cb_str_b);
	doca_argp_param_set_description(p, "Text to copy");
	CHECK_OK(doca_argp_register_param(p));
	p = sd_param("ns", "num-src-buf", DOCA_ARGP_TYPE_INT, sd_cb_int_n);
	doca_argp_param_set_arguments(p, "<num>");
	doca_argp_param_set_description(p, "Number of source buffers");
	CHECK_OK(doca_argp_register_param(p));
}

/*
 * Every "  -x ..." entry: the description starts at column 36, or, when
 * the option text is longer, one space after it (no double space later).
 */
static void check_columns(const char *text)
{
	const char *line = text;

	while (*line != '\0') {
		const char *eol = strchr(line, '\n');
		size_t len = eol != NULL ? (size_t)(eol - line) : strlen(line);

		if (len > 3 && strncmp(line, "  -", 3) == 0) {
			bool at_column = len > 36 && line[35] == ' ' && line[36] != ' ';
			bool single_space = true;

			for (size_t i = 2; i + 1 < len; i++)
				if (line[i] == ' ' && line[i + 1] == ' ')
					single_space = false;
			CHECK(at_column || single_space);
		}
		line += len + (eol != NULL ? 1 : 0);
	}
}

static void help_prints_the_usage_and_exits_zero_without_mandatory_flags(void)
{
	static const char *const argv[] = {"./build/doca_dma_local_copy", "-h", NULL};
	struct sd_child child;

	fresh_like_sample(NULL);
	CHECK_OK(doca_argp_register_validation_callback(sd_validation_ok));
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strncmp(child.out, "Usage: doca_dma_local_copy [DOCA Flags] [Program Flags]\n\nDOCA Flags:\n", 69) == 0);
	CHECK(strstr(child.out, "\n  -h, --help                        ") != NULL);
	CHECK(strstr(child.out, "\n  -v, --version                     ") != NULL);
	CHECK(strstr(child.out, "\n  -l, --log-level                   ") != NULL);
	CHECK(strstr(child.out, "\n  --sdk-log-level                   ") != NULL);
	CHECK(strstr(child.out, "\n  -j, --json <path>                 ") != NULL);
	CHECK(strstr(child.out, "\n\nProgram Flags:\n  -p, --pci-addr                    PCI address of the DMA device\n"
				"  -t, --text                        Text to copy\n"
				"  -ns, --num-src-buf <num>          Number of source buffers\n") != NULL);
	CHECK(strstr(child.out, "<10=DISABLE, 20=CRITICAL, 30=ERROR, 40=WARNING, 50=INFO, 60=DEBUG, 70=TRACE>\n") !=
	      NULL);
	/* both log-level lines end with the legend */
	CHECK(strstr(strstr(child.out, "--sdk-log-level"), "70=TRACE>\n") != NULL);
	check_columns(child.out);
	CHECK(child.err[0] == '\0');
	CHECK(strstr(child.out, "valid") == NULL);
	CHECK_OK(doca_argp_destroy());
}

static void help_in_long_form_uses_the_init_name_and_wins_over_errors(void)
{
	static const char *const argv[] = {"prog", "--bogus", "-ns", "x", "--help", NULL};
	struct sd_child child;

	fresh_like_sample("custom_name");
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strncmp(child.out, "Usage: custom_name [DOCA Flags] [Program Flags]\n", 48) == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_help_token_that_is_a_value_is_not_a_help_request(void)
{
	static const char *const argv[] = {"prog", "-p", "03:00.0", "-t", "-h", NULL};
	struct sd_child child;

	fresh_like_sample(NULL);
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, RETURNED_OK);
	CHECK(strstr(child.out, "Usage:") == NULL);
	CHECK_OK(doca_argp_destroy());
}

static doca_error_t print_callback(void *value, void *config)
{
	(void)config;
	printf("CALLED %s\n", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t print_validation(void *config)
{
	(void)config;
	printf("CALLED validation\n");
	return DOCA_SUCCESS;
}

static void help_runs_no_program_callback(void)
{
	static const char *const argv[] = {"prog", "-p", "03:00.0", "-h", NULL};
	struct doca_argp_param *p;
	struct sd_child child;

	sd_fresh("prog", NULL);
	p = sd_param("p", "pci-addr", DOCA_ARGP_TYPE_STRING, print_callback);
	doca_argp_param_set_mandatory(p);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_OK(doca_argp_register_validation_callback(print_validation));
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strstr(child.out, "Usage: prog") != NULL);
	CHECK(strstr(child.out, "CALLED") == NULL);
	CHECK_OK(doca_argp_destroy());
}

static void long_option_text_and_hidden_params_in_the_usage(void)
{
	static const char *const argv[] = {"prog", "-h", NULL};
	struct doca_argp_param *p;
	struct sd_child child;

	sd_fresh("prog", NULL);
	p = sd_param("x", "a-very-long-option-name-for-layout", DOCA_ARGP_TYPE_STRING, sd_cb_str_a);
	doca_argp_param_set_arguments(p, "<value>");
	doca_argp_param_set_description(p, "Long one");
	CHECK_OK(doca_argp_register_param(p));
	p = sd_param("s", "secret", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
	doca_argp_param_set_hidden(p);
	CHECK_OK(doca_argp_register_param(p));
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strstr(child.out, "\n  -x, --a-very-long-option-name-for-layout <value> Long one\n") != NULL);
	CHECK(strstr(child.out, "secret") == NULL);
	CHECK_OK(doca_argp_destroy());
}

static void without_program_flags_the_usage_has_no_program_section(void)
{
	static const char *const argv[] = {"prog", "-h", NULL};
	struct doca_argp_param *p;
	struct sd_child child;

	sd_fresh("prog", NULL);
	p = sd_param("s", "secret", DOCA_ARGP_TYPE_BOOLEAN, sd_cb_bool_f);
	doca_argp_param_set_hidden(p);
	CHECK_OK(doca_argp_register_param(p));
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strncmp(child.out, "Usage: prog [DOCA Flags]\n", 25) == 0);
	CHECK(strstr(child.out, "Program Flags") == NULL);
	CHECK_OK(doca_argp_destroy());
}

static void version_prints_the_default_lines_and_exits_zero(void)
{
	static const char *const argv[] = {"prog", "-v", NULL};
	char expected[256];
	struct sd_child child;

	fresh_like_sample(NULL);
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	snprintf(expected, sizeof(expected),
		 "DOCA SDK     Version (Compilation): %s\nDOCA Runtime Version (Runtime):     %s\n",
		 DOCA_VERSION_STRING, doca_version_runtime());
	CHECK(strcmp(child.out, expected) == 0);
	CHECK(strcmp(DOCA_VERSION_STRING, doca_version_runtime()) == 0);
	CHECK_OK(doca_argp_destroy());
}

/* In the manner of the applications' version callback: print, destroy the parser, exit. */
static doca_error_t version_callback_that_exits(void *param, void *config)
{
	(void)param;
	(void)config;
	printf("SDK %s, runtime %s\n", doca_version(), doca_version_runtime());
	if (doca_argp_destroy() != DOCA_SUCCESS)
		exit(3);
	exit(EXIT_SUCCESS);
}

static doca_error_t version_callback_that_fails(void *param, void *config)
{
	(void)config;
	printf("param=%s\n", param == NULL ? "NULL" : "set");
	return DOCA_ERROR_NOT_PERMITTED;
}

static doca_error_t version_callback_that_returns(void *param, void *config)
{
	(void)param;
	(void)config;
	printf("returned\n");
	return DOCA_SUCCESS;
}

static void a_version_callback_may_destroy_and_exit(void)
{
	static const char *const argv[] = {"prog", "--version", NULL};
	struct sd_child child;
	char expected[128];

	fresh_like_sample(NULL);
	CHECK_OK(doca_argp_register_version_callback(version_callback_that_exits));
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	snprintf(expected, sizeof(expected), "SDK %s, runtime %s\n", DOCA_VERSION_STRING, DOCA_VERSION_STRING);
	CHECK(strcmp(child.out, expected) == 0);
	CHECK_OK(doca_argp_destroy());
}

static void a_version_callback_that_fails_makes_start_return_its_error(void)
{
	static const char *const argv[] = {"prog", "-v", NULL};
	struct sd_child child;

	fresh_like_sample(NULL);
	CHECK_OK(doca_argp_register_version_callback(version_callback_that_fails));
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, RETURNED_ERR);
	CHECK(strcmp(child.out, "param=NULL\n") == 0); /* called with NULL, no usage */
	CHECK(strstr(child.err, "version callback") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* the same, checked in-process for the exact code */
	fresh_like_sample(NULL);
	CHECK_OK(doca_argp_register_version_callback(version_callback_that_fails));
	fflush(stdout);
	CHECK_ERR(SD_START("prog", "-v"), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_argp_destroy());
}

static void a_version_callback_that_returns_success_still_exits_zero(void)
{
	static const char *const argv[] = {"prog", "-v", "-h", NULL};
	struct sd_child child;

	fresh_like_sample(NULL);
	CHECK_OK(doca_argp_register_version_callback(version_callback_that_returns));
	run_start(&child, argv);
	CHECK_EQ_U64(child.exit_code, 0);
	CHECK(strcmp(child.out, "returned\n") == 0); /* -v came first: no usage */
	CHECK_OK(doca_argp_destroy());
}

static int child_usage(void *arg)
{
	(void)arg;
	doca_argp_usage();
	return RETURNED_OK;
}

static void doca_argp_usage_prints_only(void)
{
	struct sd_child child;

	(void)doca_argp_destroy();
	sd_child_run(&child, child_usage, NULL);
	CHECK_EQ_U64(child.exit_code, RETURNED_OK);
	CHECK(child.out[0] == '\0'); /* no session: nothing */

	fresh_like_sample("named");
	sd_child_run(&child, child_usage, NULL);
	CHECK_EQ_U64(child.exit_code, RETURNED_OK);
	CHECK(strncmp(child.out, "Usage: named [DOCA Flags] [Program Flags]\n", 42) == 0);
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	SD_RUN(help_prints_the_usage_and_exits_zero_without_mandatory_flags);
	SD_RUN(help_in_long_form_uses_the_init_name_and_wins_over_errors);
	SD_RUN(a_help_token_that_is_a_value_is_not_a_help_request);
	SD_RUN(help_runs_no_program_callback);
	SD_RUN(long_option_text_and_hidden_params_in_the_usage);
	SD_RUN(without_program_flags_the_usage_has_no_program_section);
	SD_RUN(version_prints_the_default_lines_and_exits_zero);
	SD_RUN(a_version_callback_may_destroy_and_exit);
	SD_RUN(a_version_callback_that_fails_makes_start_return_its_error);
	SD_RUN(a_version_callback_that_returns_success_still_exits_zero);
	SD_RUN(doca_argp_usage_prints_only);
	return sd_test_done();
}
