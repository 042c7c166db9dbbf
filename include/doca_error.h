/**
 * @file doca_error.h
 * @brief The error codes every DOCA call returns, and their names.
 *
 * DOCA_SUCCESS is 0; every other value names one kind of failure.  The
 * numeric values are part of the ABI and never change.  Each softdoca call
 * that fails also logs one SDK record naming the rule that was broken and
 * the fix (see doca_log.h).
 */
#ifndef DOCA_ERROR_H_
#define DOCA_ERROR_H_

#include <doca_compat.h>
#include <doca_common_defines.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result of a DOCA call; see doca_error_get_name() and doca_error_get_descr(). */
typedef enum doca_error {
	DOCA_SUCCESS = 0, /**< the call did what it was asked */
	DOCA_ERROR_UNKNOWN = 1, /**< a failure that fits no other code */
	DOCA_ERROR_NOT_PERMITTED = 2, /**< the operation is forbidden: access flags of the memory, kind of object, or the kernel refused */
	DOCA_ERROR_IN_USE = 3, /**< the object is still referenced or busy and cannot be released or reconfigured */
	DOCA_ERROR_NOT_SUPPORTED = 4, /**< the device, its side or softdoca lacks the capability */
	DOCA_ERROR_AGAIN = 5, /**< a temporary shortage (for example a full queue): try again later */
	DOCA_ERROR_INVALID_VALUE = 6, /**< a bad argument: NULL, out of range, malformed, or a foreign object */
	DOCA_ERROR_NO_MEMORY = 7, /**< an allocation failed or a pool is exhausted */
	DOCA_ERROR_INITIALIZATION = 8, /**< the object could not be set up (for example a mandatory setting is missing) */
	DOCA_ERROR_TIME_OUT = 9, /**< a wait expired */
	DOCA_ERROR_SHUTDOWN = 10, /**< the object is shutting down; also the status of every task flushed by a context stop */
	DOCA_ERROR_CONNECTION_RESET = 11, /**< the peer reset the connection */
	DOCA_ERROR_CONNECTION_ABORTED = 12, /**< the connection was aborted on this side */
	DOCA_ERROR_CONNECTION_INPROGRESS = 13, /**< the connection is still being set up */
	DOCA_ERROR_NOT_CONNECTED = 14, /**< there is no connection, or the object is not connected to what the call needs (a context to a progress engine) */
	DOCA_ERROR_NO_LOCK = 15, /**< a required lock could not be taken */
	DOCA_ERROR_NOT_FOUND = 16, /**< the looked-up entity does not exist */
	DOCA_ERROR_IO_FAILED = 17, /**< input or output failed (file, transport), or a task could not reach its (possibly remote) memory */
	DOCA_ERROR_BAD_STATE = 18, /**< the call is not allowed in the current state of the object */
	DOCA_ERROR_UNSUPPORTED_VERSION = 19, /**< data or a peer of an incompatible version */
	DOCA_ERROR_OPERATING_SYSTEM = 20, /**< a system call failed */
	DOCA_ERROR_DRIVER = 21, /**< the (emulated) driver or firmware query failed */
	DOCA_ERROR_UNEXPECTED = 22, /**< an internal inconsistency */
	DOCA_ERROR_ALREADY_EXIST = 23, /**< the entity is already present or registered */
	DOCA_ERROR_FULL = 24, /**< no room left */
	DOCA_ERROR_EMPTY = 25, /**< nothing available */
	DOCA_ERROR_IN_PROGRESS = 26, /**< an asynchronous operation started and has not finished (for example a context stop) */
	DOCA_ERROR_TOO_BIG = 27, /**< the request exceeds a size limit */
	DOCA_ERROR_AUTHENTICATION = 28, /**< authentication failed */
	DOCA_ERROR_BAD_CONFIG = 29, /**< the configuration is invalid */
	DOCA_ERROR_SKIPPED = 30, /**< the result is valid but earlier output was dropped */
} doca_error_t;

/** Non-zero when @p r is a failure (not DOCA_SUCCESS); hints that failures are rare. */
#define DOCA_IS_ERROR(r) doca_unlikely((r) != DOCA_SUCCESS)

/**
 * Keeps the first failure: stores @p t in the lvalue @p r only while @p r
 * still holds DOCA_SUCCESS (@p t is not evaluated otherwise).
 */
#define DOCA_ERROR_PROPAGATE(r, t) \
	do { \
		if (r == DOCA_SUCCESS) \
			r = t; \
	} while (0)

/**
 * @brief The identifier of an error code, as text.
 *
 * Callable at any time, from any thread, before any other DOCA call; it
 * cannot fail.
 *
 * @param error any value.
 * @return "DOCA_ERROR_NOT_FOUND" for DOCA_ERROR_NOT_FOUND and so on;
 * "unrecognized error code" for a value outside the enumeration.  The
 * string is static: never free or modify it.
 */
DOCA_STABLE
const char *doca_error_get_name(doca_error_t error);

/**
 * @brief A short description of an error code in words, for log messages.
 *
 * Programs print it but should not compare it: the wording is softdoca's.
 * Callable at any time, from any thread; it cannot fail.
 *
 * @param error any value.
 * @return a static string (never free it); "unrecognized error code" for a
 * value outside the enumeration.
 */
DOCA_STABLE
const char *doca_error_get_descr(doca_error_t error);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ERROR_H_ */
