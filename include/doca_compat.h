/*
 * doca_compat.h - how DOCA marks its symbols, and versioned-struct helpers.
 *
 * DOCA_STABLE      frozen API; exported even from -fvisibility=hidden builds.
 * DOCA_EXPERIMENTAL API that may change; using it warns unless the program
 *                  defines DOCA_ALLOW_EXPERIMENTAL_API before any DOCA header.
 * DOCA_DEPRECATED  API on its way out; silenced by DOCA_ALLOW_DEPRECATED_API.
 * The markers go in front of the return type of a declaration.
 */
#ifndef DOCA_COMPAT_H_
#define DOCA_COMPAT_H_

#include <doca_config.h>

#if defined(__linux__) || defined(DOCA_DPA_DEVICE)

#define DOCA_USED __attribute__((used))

#define DOCA_STABLE __attribute__((visibility("default"))) DOCA_USED

#ifndef DOCA_ALLOW_EXPERIMENTAL_API
#define DOCA_EXPERIMENTAL \
	__attribute__((deprecated("Symbol is defined as experimental"), section(".text.experimental"))) DOCA_STABLE
#else
#define DOCA_EXPERIMENTAL __attribute__((section(".text.experimental"))) DOCA_STABLE
#endif

#ifndef DOCA_ALLOW_DEPRECATED_API
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

#define DOCA_STRUCT_START size_t __doca_api_version
#define DOCA_STRUCT_GET_VERSION(_X_) (_X_)->__doca_api_version
#define DOCA_STRUCT_CTOR(_X_) (_X_).__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_PTR_CTOR(_X_) DOCA_STRUCT_CTOR(*(_X_))
#define DOCA_STRUCT_MEMSET_CTOR(_X_) \
	do { \
		memset(&(_X_), 0, sizeof(_X_)); \
		(_X_).__doca_api_version = DOCA_VERSION_EXACT; \
	} while (0)
#define DOCA_STRUCT_PTR_MEMSET_CTOR(_X_) DOCA_STRUCT_MEMSET_CTOR(*(_X_))
#define DOCA_STRUCT_CTOR_LIST_START .__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_DEF(__st__, __name__) struct __st__ __name__ = {.__doca_api_version = DOCA_VERSION_EXACT}

#endif /* DOCA_COMPAT_HELPERS */

#endif /* DOCA_COMPAT_H_ */
