/*
 * One version everywhere (docs/versions.md): the headers' DOCA_VERSION_*
 * macros, doca_version() and doca_version_runtime() all say what the
 * VERSION file of the source tree says (the build passes it in as
 * SD_VERSION_FILE), and the comparison macros answer as a program checking
 * "is this SDK at least release X" expects.  The .pc files and
 * softdoca-caps -v are checked against the same file by the install and
 * tools suites.
 */
#include <stdio.h>
#include <string.h>

#include <doca_version.h>

#include "sd_test.h"

#ifndef SD_VERSION_FILE
#error "the build passes the VERSION file's value as SD_VERSION_FILE"
#endif

/* Programs gate code on the SDK level at compile time too. */
_Static_assert(DOCA_VERSION_LTE_CURRENT(3, 0, 0), "a 3.0 program builds against these headers");
_Static_assert(DOCA_VERSION_LTE_CURRENT(3, 3, 0), "the 3.3 additions are declared");
_Static_assert(!DOCA_VERSION_LTE_CURRENT(3, 4, 0), "no claim beyond 3.3");

static void macros_spell_the_version_file(void)
{
	char spelled[32];

	CHECK(strcmp(DOCA_VERSION_STRING, SD_VERSION_FILE) == 0);
	snprintf(spelled, sizeof(spelled), "%d.%d.%d", DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH);
	CHECK(strcmp(spelled, DOCA_VERSION_STRING) == 0);
	if (strcmp(DOCA_VERSION_STRING, SD_VERSION_FILE) != 0)
		fprintf(stderr, "  headers say %s, VERSION says %s\n", DOCA_VERSION_STRING, SD_VERSION_FILE);
}

static void compile_time_and_run_time_versions_agree(void)
{
	CHECK(strcmp(doca_version(), SD_VERSION_FILE) == 0);
	CHECK(strcmp(doca_version_runtime(), SD_VERSION_FILE) == 0);
	CHECK(doca_version_runtime() == doca_version_runtime()); /* static storage */
}

static void eq_current_holds_for_exactly_this_release(void)
{
	CHECK(DOCA_VERSION_EQ_CURRENT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH));
	CHECK(DOCA_VERSION_EQ_CURRENT(3, 3, 0));
	CHECK(!DOCA_VERSION_EQ_CURRENT(3, 2, 0));
	CHECK(!DOCA_VERSION_EQ_CURRENT(3, 3, 1));
	CHECK(!DOCA_VERSION_EQ_CURRENT(3, 0, 0));
}

static void lte_current_holds_for_every_release_up_to_this_one(void)
{
	static const int older[][3] = { { 2, 5, 0 }, { 2, 10, 0 }, { 3, 0, 0 }, { 3, 1, 0 }, { 3, 2, 0 },
					{ 3, 2, 2 }, { 3, 3, 0 } };
	static const int newer[][3] = { { 3, 3, 1 }, { 3, 4, 0 }, { 4, 0, 0 } };

	for (size_t i = 0; i < sizeof(older) / sizeof(older[0]); i++)
		CHECK(DOCA_VERSION_LTE_CURRENT(older[i][0], older[i][1], older[i][2]));
	for (size_t i = 0; i < sizeof(newer) / sizeof(newer[0]); i++)
		CHECK(!DOCA_VERSION_LTE_CURRENT(newer[i][0], newer[i][1], newer[i][2]));
	/* the exact form orders the same way */
	CHECK(DOCA_VERSION_CALC_EXACT(3, 2, 2) < DOCA_VERSION_EXACT);
	CHECK(DOCA_VERSION_CALC_EXACT(3, 3, 0) == DOCA_VERSION_EXACT);
}

int main(void)
{
	SD_RUN(macros_spell_the_version_file);
	SD_RUN(compile_time_and_run_time_versions_agree);
	SD_RUN(eq_current_holds_for_exactly_this_release);
	SD_RUN(lte_current_holds_for_every_release_up_to_this_one);
	return sd_test_done();
}
