/**
 * @file doca_compat.h
 * @brief How DOCA marks the stability of its symbols, and versioned-struct helpers.
 *
 * Every public function carries one marker in front of its return type:
 * - DOCA_STABLE: frozen API, exported even from -fvisibility=hidden builds;
 * - DOCA_EXPERIMENTAL: API that may still change; calling it draws a
 *   deprecation warning unless the program defines
 *   DOCA_ALLOW_EXPERIMENTAL_API before including any DOCA header (for
 *   example `-DDOCA_ALLOW_EXPERIMENTAL_API` on the command line);
 * - DOCA_DEPRECATED: API on its way out; warns unless
 *   DOCA_ALLOW_DEPRECATED_API is defined.
 */
#ifndef DOCA_COMPAT_H_
#define DOCA_COMPAT_H_

#include <doca_config.h>

#if defined(__linux__) || defined(DOCA_DPA_DEVICE)

/** Keeps a symbol in the object even when nothing in its unit refers to it. */
#define DOCA_USED __attribute__((used))

/** Marks a stable public function: exported with default visibility. */
#define DOCA_STABLE __attribute__((visibility("default"))) DOCA_USED

#ifndef DOCA_ALLOW_EXPERIMENTAL_API
/**
 * Marks an experimental public function.  Without DOCA_ALLOW_EXPERIMENTAL_API
 * each use warns "Symbol is defined as experimental"; with it, it is exported
 * like DOCA_STABLE.
 */
#define DOCA_EXPERIMENTAL \
	__attribute__((deprecated("Symbol is defined as experimental"), section(".text.experimental"))) DOCA_STABLE
#else
#define DOCA_EXPERIMENTAL __attribute__((section(".text.experimental"))) DOCA_STABLE
#endif

#ifndef DOCA_ALLOW_DEPRECATED_API
/**
 * Marks a deprecated public function.  Without DOCA_ALLOW_DEPRECATED_API each
 * use warns "Symbol is defined as deprecated".
 */
#define DOCA_DEPRECATED \
	__attribute__((deprecated("Symbol is defined as deprecated"), section(".text.deprecated"))) DOCA_STABLE
#else
#define DOCA_DEPRECATED __attribute__((section(".text.deprecated"))) DOCA_STABLE
#endif

#endif /* __linux__ */

/*
 * Versioned public structs start with a member that records the API level
 * they were built against; these helpers declare and stamp it.  They must
 * come after the markers above: doca_version.h includes this header back
 * and needs DOCA_EXPERIMENTAL already defined.
 */
#ifdef DOCA_COMPAT_HELPERS

#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <assert.h>

#include <doca_version.h>

/** First member of a versioned struct: the API level it was built against. */
#define DOCA_STRUCT_START size_t __doca_api_version
/** The API level recorded in the versioned struct @p _X_ points to. */
#define DOCA_STRUCT_GET_VERSION(_X_) (_X_)->__doca_api_version
/** Stamps the versioned struct @p _X_ with the level of these headers. */
#define DOCA_STRUCT_CTOR(_X_) (_X_).__doca_api_version = DOCA_VERSION_EXACT
/** DOCA_STRUCT_CTOR through a pointer. */
#define DOCA_STRUCT_PTR_CTOR(_X_) DOCA_STRUCT_CTOR(*(_X_))
/** Zeroes the versioned struct @p _X_, then stamps its API level. */
#define DOCA_STRUCT_MEMSET_CTOR(_X_) \
	do { \
		memset(&(_X_), 0, sizeof(_X_)); \
		(_X_).__doca_api_version = DOCA_VERSION_EXACT; \
	} while (0)
/** DOCA_STRUCT_MEMSET_CTOR through a pointer. */
#define DOCA_STRUCT_PTR_MEMSET_CTOR(_X_) DOCA_STRUCT_MEMSET_CTOR(*(_X_))
/** First designated initializer of a versioned struct's initializer list. */
#define DOCA_STRUCT_CTOR_LIST_START .__doca_api_version = DOCA_VERSION_EXACT
/** Defines the variable @p __name__ of type struct @p __st__, stamped with the API level. */
#define DOCA_STRUCT_DEF(__st__, __name__) struct __st__ __name__ = {.__doca_api_version = DOCA_VERSION_EXACT}

#endif /* DOCA_COMPAT_HELPERS */

#endif /* DOCA_COMPAT_H_ */
