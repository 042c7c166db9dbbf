/*
 * doca_error_get_name and doca_error_get_descr: the texts a program prints
 * for a code.  The names are the enumerators' identifiers (spelled out here
 * by the preprocessor, never taken from the library); the descriptions are
 * the ones documented for softdoca, one per code, all different; a value
 * outside the enumeration, negative ones included, gets the same
 * "unrecognized" text from both and never crashes.
 */
#include <string.h>

#include <doca_error.h>

#include "sd_test.h"

#define CODE(c, descr) { c, #c, descr }

static const struct {
	doca_error_t code;
	const char *name;
	const char *descr;
} codes[] = {
	CODE(DOCA_SUCCESS, "success"),
	CODE(DOCA_ERROR_UNKNOWN, "failure that matches no more specific code"),
	CODE(DOCA_ERROR_NOT_PERMITTED, "operation forbidden by access rights or by the kind of object"),
	CODE(DOCA_ERROR_IN_USE, "object is still in use and cannot be released or changed"),
	CODE(DOCA_ERROR_NOT_SUPPORTED, "the device or library lacks this capability"),
	CODE(DOCA_ERROR_AGAIN, "resource temporarily exhausted, try again"),
	CODE(DOCA_ERROR_INVALID_VALUE, "an argument is missing, malformed or out of range"),
	CODE(DOCA_ERROR_NO_MEMORY, "out of memory or out of pre-allocated objects"),
	CODE(DOCA_ERROR_INITIALIZATION, "the object could not be set up"),
	CODE(DOCA_ERROR_TIME_OUT, "waited too long"),
	CODE(DOCA_ERROR_SHUTDOWN, "the object is shutting down or was stopped"),
	CODE(DOCA_ERROR_CONNECTION_RESET, "the peer reset the connection"),
	CODE(DOCA_ERROR_CONNECTION_ABORTED, "the connection was aborted"),
	CODE(DOCA_ERROR_CONNECTION_INPROGRESS, "the connection is still being established"),
	CODE(DOCA_ERROR_NOT_CONNECTED, "not connected"),
	CODE(DOCA_ERROR_NO_LOCK, "a lock could not be taken"),
	CODE(DOCA_ERROR_NOT_FOUND, "nothing matched the request"),
	CODE(DOCA_ERROR_IO_FAILED, "input/output or memory access failed"),
	CODE(DOCA_ERROR_BAD_STATE, "not allowed in the object's current state"),
	CODE(DOCA_ERROR_UNSUPPORTED_VERSION, "incompatible version"),
	CODE(DOCA_ERROR_OPERATING_SYSTEM, "an operating system call failed"),
	CODE(DOCA_ERROR_DRIVER, "the device driver reported a failure"),
	CODE(DOCA_ERROR_UNEXPECTED, "internal inconsistency"),
	CODE(DOCA_ERROR_ALREADY_EXIST, "already present"),
	CODE(DOCA_ERROR_FULL, "no room left"),
	CODE(DOCA_ERROR_EMPTY, "nothing available"),
	CODE(DOCA_ERROR_IN_PROGRESS, "started, will finish later"),
	CODE(DOCA_ERROR_TOO_BIG, "larger than the allowed limit"),
	CODE(DOCA_ERROR_AUTHENTICATION, "authentication failed"),
	CODE(DOCA_ERROR_BAD_CONFIG, "the configuration is not valid"),
	CODE(DOCA_ERROR_SKIPPED, "result is valid but earlier output was dropped"),
};

#define NCODES (sizeof(codes) / sizeof(codes[0]))

static void every_code_is_named_by_its_enumerator(void)
{
	for (size_t i = 0; i < NCODES; i++) {
		const char *got = doca_error_get_name(codes[i].code);

		CHECK(got != NULL && strcmp(got, codes[i].name) == 0);
		if (got == NULL || strcmp(got, codes[i].name) != 0)
			fprintf(stderr, "  code %d: name '%s', expected '%s'\n", (int)codes[i].code,
				got ? got : "(null)", codes[i].name);
	}
}

static void every_code_has_its_documented_description(void)
{
	for (size_t i = 0; i < NCODES; i++) {
		const char *got = doca_error_get_descr(codes[i].code);

		CHECK(got != NULL && strcmp(got, codes[i].descr) == 0);
		if (got == NULL || strcmp(got, codes[i].descr) != 0)
			fprintf(stderr, "  %s: description '%s', expected '%s'\n", codes[i].name, got ? got : "(null)",
				codes[i].descr);
	}
}

/* A program that prints a description learns which failure it was: no two codes share one. */
static void descriptions_tell_the_codes_apart(void)
{
	for (size_t i = 0; i < NCODES; i++) {
		const char *a = doca_error_get_descr(codes[i].code);

		REQUIRE(a != NULL);
		CHECK(strcmp(a, doca_error_get_name(codes[i].code)) != 0);
		for (size_t j = i + 1; j < NCODES; j++)
			CHECK(strcmp(a, doca_error_get_descr(codes[j].code)) != 0);
	}
}

static void values_outside_the_enumeration_are_unrecognized(void)
{
	static const int outside[] = { DOCA_ERROR_SKIPPED + 1, 64, 1000, -1, -2147483647 - 1, 2147483647 };

	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		doca_error_t e = (doca_error_t)outside[i];

		CHECK(strcmp(doca_error_get_name(e), "unrecognized error code") == 0);
		CHECK(strcmp(doca_error_get_descr(e), "unrecognized error code") == 0);
	}
}

int main(void)
{
	SD_RUN(every_code_is_named_by_its_enumerator);
	SD_RUN(every_code_has_its_documented_description);
	SD_RUN(descriptions_tell_the_codes_apart);
	SD_RUN(values_outside_the_enumeration_are_unrecognized);
	return sd_test_done();
}
