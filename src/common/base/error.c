/*
 * error.c - names and descriptions of DOCA error codes.
 */
#include <stddef.h>

#include <doca_error.h>

struct sd_error_text {
	const char *name;
	const char *descr;
};

/* Indexed by the code's value; the names are the enumerator identifiers. */
static const struct sd_error_text sd_error_texts[] = {
	[DOCA_SUCCESS] = {"DOCA_SUCCESS", "success"},
	[DOCA_ERROR_UNKNOWN] = {"DOCA_ERROR_UNKNOWN", "failure that matches no more specific code"},
	[DOCA_ERROR_NOT_PERMITTED] = {"DOCA_ERROR_NOT_PERMITTED",
				      "operation forbidden by access rights or by the kind of object"},
	[DOCA_ERROR_IN_USE] = {"DOCA_ERROR_IN_USE", "object is still in use and cannot be released or changed"},
	[DOCA_ERROR_NOT_SUPPORTED] = {"DOCA_ERROR_NOT_SUPPORTED", "the device or library lacks this capability"},
	[DOCA_ERROR_AGAIN] = {"DOCA_ERROR_AGAIN", "resource temporarily exhausted, try again"},
	[DOCA_ERROR_INVALID_VALUE] = {"DOCA_ERROR_INVALID_VALUE", "an argument is missing, malformed or out of range"},
	[DOCA_ERROR_NO_MEMORY] = {"DOCA_ERROR_NO_MEMORY", "out of memory or out of pre-allocated objects"},
	[DOCA_ERROR_INITIALIZATION] = {"DOCA_ERROR_INITIALIZATION", "the object could not be set up"},
	[DOCA_ERROR_TIME_OUT] = {"DOCA_ERROR_TIME_OUT", "waited too long"},
	[DOCA_ERROR_SHUTDOWN] = {"DOCA_ERROR_SHUTDOWN", "the object is shutting down or was stopped"},
	[DOCA_ERROR_CONNECTION_RESET] = {"DOCA_ERROR_CONNECTION_RESET", "the peer reset the connection"},
	[DOCA_ERROR_CONNECTION_ABORTED] = {"DOCA_ERROR_CONNECTION_ABORTED", "the connection was aborted"},
	[DOCA_ERROR_CONNECTION_INPROGRESS] = {"DOCA_ERROR_CONNECTION_INPROGRESS",
					      "the connection is still being established"},
	[DOCA_ERROR_NOT_CONNECTED] = {"DOCA_ERROR_NOT_CONNECTED", "not connected"},
	[DOCA_ERROR_NO_LOCK] = {"DOCA_ERROR_NO_LOCK", "a lock could not be taken"},
	[DOCA_ERROR_NOT_FOUND] = {"DOCA_ERROR_NOT_FOUND", "nothing matched the request"},
	[DOCA_ERROR_IO_FAILED] = {"DOCA_ERROR_IO_FAILED", "input/output or memory access failed"},
	[DOCA_ERROR_BAD_STATE] = {"DOCA_ERROR_BAD_STATE", "not allowed in the object's current state"},
	[DOCA_ERROR_UNSUPPORTED_VERSION] = {"DOCA_ERROR_UNSUPPORTED_VERSION", "incompatible version"},
	[DOCA_ERROR_OPERATING_SYSTEM] = {"DOCA_ERROR_OPERATING_SYSTEM", "an operating system call failed"},
	[DOCA_ERROR_DRIVER] = {"DOCA_ERROR_DRIVER", "the device driver reported a failure"},
	[DOCA_ERROR_UNEXPECTED] = {"DOCA_ERROR_UNEXPECTED", "internal inconsistency"},
	[DOCA_ERROR_ALREADY_EXIST] = {"DOCA_ERROR_ALREADY_EXIST", "already present"},
	[DOCA_ERROR_FULL] = {"DOCA_ERROR_FULL", "no room left"},
	[DOCA_ERROR_EMPTY] = {"DOCA_ERROR_EMPTY", "nothing available"},
	[DOCA_ERROR_IN_PROGRESS] = {"DOCA_ERROR_IN_PROGRESS", "started, will finish later"},
	[DOCA_ERROR_TOO_BIG] = {"DOCA_ERROR_TOO_BIG", "larger than the allowed limit"},
	[DOCA_ERROR_AUTHENTICATION] = {"DOCA_ERROR_AUTHENTICATION", "authentication failed"},
	[DOCA_ERROR_BAD_CONFIG] = {"DOCA_ERROR_BAD_CONFIG", "the configuration is not valid"},
	[DOCA_ERROR_SKIPPED] = {"DOCA_ERROR_SKIPPED", "result is valid but earlier output was dropped"},
};

#define SD_UNRECOGNIZED "unrecognized error code"

static const struct sd_error_text *sd_error_lookup(doca_error_t error)
{
	/* Compare as unsigned so negative values are out of range too. */
	if ((unsigned int)error >= sizeof(sd_error_texts) / sizeof(sd_error_texts[0]))
		return NULL;
	return &sd_error_texts[error];
}

const char *doca_error_get_name(doca_error_t error)
{
	const struct sd_error_text *text = sd_error_lookup(error);

	return text ? text->name : SD_UNRECOGNIZED;
}

const char *doca_error_get_descr(doca_error_t error)
{
	const struct sd_error_text *text = sd_error_lookup(error);

	return text ? text->descr : SD_UNRECOGNIZED;
}
