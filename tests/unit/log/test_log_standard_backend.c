/*
 * doca_log_backend_create_standard : INFO and
 * less severe on stdout, WARNING and more severe on stderr; -l moves
 * stdout's lower limit freely and stderr's only down to ERROR/CRIT, never
 * up past WARNING; a second call adds no duplicate output.
 */
#include <fcntl.h>
#include <unistd.h>

#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::STANDARD);

static int saved_out = -1, saved_err = -1;
static FILE *out_file, *err_file;
static char out_text[65536], err_text[65536];

/* Point fds 1 and 2 at fresh temporary files. */
static int redirect_begin(void)
{
	fflush(stdout);
	fflush(stderr);
	out_file = tmpfile();
	err_file = tmpfile();
	if (out_file == NULL || err_file == NULL)
		return -1;
	saved_out = dup(1);
	saved_err = dup(2);
	if (saved_out < 0 || saved_err < 0)
		return -1;
	if (dup2(fileno(out_file), 1) < 0 || dup2(fileno(err_file), 2) < 0)
		return -1;
	return 0;
}

static void read_back(FILE *f, char *text, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(text, 1, size - 1, f);
	text[n] = '\0';
	fclose(f);
}

/* Put fds 1 and 2 back and collect what each file received. */
static void redirect_end(void)
{
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	read_back(out_file, out_text, sizeof(out_text));
	read_back(err_file, err_text, sizeof(err_text));
}

static void log_all_levels(const char *phase)
{
	DOCA_LOG_CRIT("%s crit", phase);
	DOCA_LOG_ERR("%s err", phase);
	DOCA_LOG_WARN("%s warn", phase);
	DOCA_LOG_INFO("%s info", phase);
	DOCA_LOG_DBG("%s dbg", phase);
	doca_log(DOCA_LOG_LEVEL_TRACE, log_source, __FILE__, __LINE__, __func__, "%s trc", phase);
}

static bool has(const char *text, const char *phase, const char *what)
{
	char needle[64];

	snprintf(needle, sizeof(needle), "] %s %s\n", phase, what);
	return strstr(text, needle) != NULL;
}

static void default_split_info_to_stdout_warnings_to_stderr(void)
{
	REQUIRE(redirect_begin() == 0);
	CHECK_OK(doca_log_backend_create_standard());
	log_all_levels("p1");
	redirect_end();
	CHECK(has(out_text, "p1", "info"));
	CHECK(!has(out_text, "p1", "warn") && !has(out_text, "p1", "err") && !has(out_text, "p1", "crit"));
	CHECK(!has(out_text, "p1", "dbg") && !has(out_text, "p1", "trc"));
	CHECK(has(err_text, "p1", "warn") && has(err_text, "p1", "err") && has(err_text, "p1", "crit"));
	CHECK(!has(err_text, "p1", "info") && !has(err_text, "p1", "dbg"));
	CHECK(count_lines(out_text) == 1);
	CHECK(count_lines(err_text) == 3);
	CHECK(records_are_wellformed(out_text) && records_are_wellformed(err_text));
}

static void level_60_adds_debug_to_stdout_only(void)
{
	REQUIRE(redirect_begin() == 0);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	log_all_levels("p2");
	redirect_end();
	CHECK(has(out_text, "p2", "info") && has(out_text, "p2", "dbg"));
	CHECK(!has(out_text, "p2", "trc") && !has(out_text, "p2", "warn"));
	CHECK(!has(err_text, "p2", "dbg") && !has(err_text, "p2", "info"));
	CHECK(has(err_text, "p2", "warn"));
}

static void level_30_empties_stdout_and_drops_warnings(void)
{
	REQUIRE(redirect_begin() == 0);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR));
	log_all_levels("p3");
	redirect_end();
	CHECK(out_text[0] == '\0');
	CHECK(has(err_text, "p3", "err") && has(err_text, "p3", "crit"));
	CHECK(!has(err_text, "p3", "warn"));
	CHECK(count_lines(err_text) == 2);
}

static void stderr_returns_to_warning_never_to_debug(void)
{
	REQUIRE(redirect_begin() == 0);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	log_all_levels("p4");
	redirect_end();
	CHECK(has(err_text, "p4", "warn"));
	CHECK(!has(err_text, "p4", "info") && !has(err_text, "p4", "dbg"));
	CHECK(has(out_text, "p4", "dbg"));
}

static void global_upper_limit_cannot_push_warnings_to_stdout(void)
{
	REQUIRE(redirect_begin() == 0);
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT));
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	log_all_levels("p5");
	redirect_end();
	CHECK(!has(out_text, "p5", "warn") && !has(out_text, "p5", "crit"));
	CHECK(has(out_text, "p5", "info"));
	CHECK(has(err_text, "p5", "crit"));
}

static void second_call_creates_no_duplicates(void)
{
	REQUIRE(redirect_begin() == 0);
	CHECK_OK(doca_log_backend_create_standard());
	CHECK_OK(doca_log_backend_create_standard());
	log_all_levels("p6");
	redirect_end();
	CHECK(count_lines(out_text) == 1);
	CHECK(count_lines(err_text) == 3);
}

int main(void)
{
	SD_RUN(default_split_info_to_stdout_warnings_to_stderr);
	SD_RUN(level_60_adds_debug_to_stdout_only);
	SD_RUN(level_30_empties_stdout_and_drops_warnings);
	SD_RUN(stderr_returns_to_warning_never_to_debug);
	SD_RUN(global_upper_limit_cannot_push_warnings_to_stdout);
	SD_RUN(second_call_creates_no_duplicates);
	return sd_test_done();
}
