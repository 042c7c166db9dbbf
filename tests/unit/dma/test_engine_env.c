/*
 * SOFTDOCA_ENGINE: `cpu` selects the cpu engine silently; an unknown
 * name falls back to cpu with exactly one WARNING record per process, how
 * ever often the default is asked for.  Run by meson with the variable set
 * (see meson.build): argv[1] says which value the run was given.
 */
#include <stdio.h>
#include <stdlib.h>

#include <doca_log.h>

#include "sd_engine.h"
#include "sd_test.h"

static FILE *logf_;

static int count_lines(void)
{
	int c, n = 0;

	fflush(logf_);
	rewind(logf_);
	while ((c = fgetc(logf_)) != EOF)
		n += c == '\n';
	return n;
}

static void unknown_name_falls_back_with_one_warning(void)
{
	CHECK(priv_doca_engine_default() == priv_doca_engine_find("cpu"));
	CHECK(priv_doca_engine_default() == priv_doca_engine_find("cpu"));
	CHECK(count_lines() == 1);
}

static void cpu_name_selects_cpu_silently(void)
{
	CHECK(priv_doca_engine_default() == priv_doca_engine_find("cpu"));
	CHECK(count_lines() == 0);
}

int main(int argc, char **argv)
{
	struct doca_log_backend *b = NULL;

	logf_ = tmpfile();
	if (logf_ == NULL || doca_log_backend_create_with_file_sdk(logf_, &b) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS)
		return 1;
	if (argc > 1 && strcmp(argv[1], "unknown") == 0)
		SD_RUN(unknown_name_falls_back_with_one_warning);
	else
		SD_RUN(cpu_name_selects_cpu_silently);
	return sd_test_done();
}
