/*
 * sd_test.h - the tiny harness every softdoca test program uses.
 *
 * Tests are plain programs (as in liburing): main() runs named cases with
 * SD_RUN(); each CHECK that fails prints file:line and the expression and
 * marks the case failed; the program exits 0 when every case passed, 1
 * otherwise, and 77 (meson's "skipped") only through sd_test_skip().
 */
#ifndef SD_TEST_H
#define SD_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_error.h>

static int sd_test_failed_cases;
static int sd_test_case_failed;
static int sd_test_case_skipped; /* the running case was skipped by capability */
static const char *sd_test_case_name = "?";

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: [%s] CHECK failed: %s\n", __FILE__, __LINE__,      \
				sd_test_case_name, #cond);                                         \
			sd_test_case_failed = 1;                                                   \
		}                                                                                  \
	} while (0)

/* Compare two doca_error_t values and print both names on mismatch. */
#define CHECK_ERR(expr, expected)                                                                  \
	do {                                                                                       \
		doca_error_t sd_got_ = (expr);                                                     \
		doca_error_t sd_want_ = (expected);                                                \
		if (sd_got_ != sd_want_) {                                                         \
			fprintf(stderr, "%s:%d: [%s] %s returned %s, expected %s\n", __FILE__,     \
				__LINE__, sd_test_case_name, #expr, doca_error_get_name(sd_got_),  \
				doca_error_get_name(sd_want_));                                    \
			sd_test_case_failed = 1;                                                   \
		}                                                                                  \
	} while (0)

#define CHECK_OK(expr) CHECK_ERR(expr, DOCA_SUCCESS)

#define CHECK_EQ_U64(a, b)                                                                         \
	do {                                                                                       \
		uint64_t sd_a_ = (uint64_t)(a), sd_b_ = (uint64_t)(b);                             \
		if (sd_a_ != sd_b_) {                                                              \
			fprintf(stderr, "%s:%d: [%s] %s == %" PRIu64 ", expected %s == %" PRIu64 "\n", \
				__FILE__, __LINE__, sd_test_case_name, #a, sd_a_, #b, sd_b_);      \
			sd_test_case_failed = 1;                                                   \
		}                                                                                  \
	} while (0)

/* Abort the current case (not the program) when a precondition fails. */
#define REQUIRE(cond)                                                                              \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: [%s] REQUIRE failed: %s\n", __FILE__, __LINE__,    \
				sd_test_case_name, #cond);                                         \
			sd_test_case_failed = 1;                                                   \
			return;                                                                    \
		}                                                                                  \
	} while (0)

/* Run one case under `name` and print its verdict (SD_RUN names it after the function). */
static inline void sd_test_run(const char *name, void (*fn)(void))
{
	sd_test_case_name = name;
	sd_test_case_failed = 0;
	sd_test_case_skipped = 0;
	fn();
	if (sd_test_case_skipped && !sd_test_case_failed)
		return;
	if (sd_test_case_failed) {
		sd_test_failed_cases++;
		fprintf(stderr, "FAIL %s\n", name);
	} else {
		printf("ok   %s\n", name);
	}
}

#define SD_RUN(fn) sd_test_run(#fn, fn)

static inline int sd_test_done(void)
{
	if (sd_test_failed_cases)
		fprintf(stderr, "%d case(s) failed\n", sd_test_failed_cases);
	return sd_test_failed_cases ? 1 : 0;
}

/*
 * Skip the running case by capability (the engine under test cannot do
 * what it checks): prints "skip NAME: why" instead of "ok NAME".  The
 * program's other cases still count; the skipped one is never an "ok".
 */
static inline void sd_test_case_skip(const char *why)
{
	printf("skip %s: %s\n", sd_test_case_name, why);
	sd_test_case_skipped = 1;
}

/* Exit with meson's skip code, saying why; never counted as a pass. */
static inline void sd_test_skip(const char *why)
{
	printf("SKIP: %s\n", why);
	exit(77);
}

#endif /* SD_TEST_H */
