/**
 * @file doca_version.h
 * @brief The DOCA API level these headers describe, and the library's.
 *
 * The level is 3.3.0, the
 * newest level softdoca provides completely (docs/versions.md).  The same
 * value is the VERSION file of the source tree, the Version of every .pc
 * file and the answer of softdoca-caps -v; a unit test holds them equal.
 *
 * doca_version() is the level a program was compiled against;
 * doca_version_runtime() the level of the library it runs with.
 *
 * DOCA_VERSION_EQ_CURRENT(3, 3, 0) and DOCA_VERSION_LTE_CURRENT(x, y, z)
 * for every release up to 3.3.0 are true, later ones false.  Both are C
 * expressions (they cast to size_t), usable in `if` and _Static_assert,
 * not in `#if`.
 */
#ifndef DOCA_VERSION_H_
#define DOCA_VERSION_H_

#include <stddef.h>

#include <doca_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Major number of the API level of these headers. */
#define DOCA_VERSION_MAJOR 3
/** Minor number of the API level of these headers. */
#define DOCA_VERSION_MINOR 3
/** Patch number of the API level of these headers. */
#define DOCA_VERSION_PATCH 0
/** The API level of these headers as text. */
#define DOCA_VERSION_STRING "3.3.0"

/** Packs a version into one number: major in bits 24 and up, minor in 16-23, patch below. */
#define DOCA_VERSION_CALC_EXACT(major, minor, patch) ((size_t)((major) << 24 | (minor) << 16 | (patch)))

/** The API level of these headers, packed by DOCA_VERSION_CALC_EXACT. */
#define DOCA_VERSION_EXACT DOCA_VERSION_CALC_EXACT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)

/**
 * Packs a version in the "official" numbering, where the patch counts in
 * thousands (the patch argument is deliberately not parenthesised, as in DOCA).
 */
#define DOCA_VERSION_CALC(major, minor, patch) ((size_t)((major) << 24 | (minor) << 16 | (patch * 1000)))

/** The API level of these headers, packed by DOCA_VERSION_CALC. */
#define DOCA_VERSION_OFFICIAL DOCA_VERSION_CALC(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)

/** True when the given version is the API level of these headers (a C expression, not for `#if`). */
#define DOCA_VERSION_EQ_CURRENT(major, minor, patch) (DOCA_VERSION_CALC(major, minor, patch) == DOCA_VERSION_OFFICIAL)

/** True when the given version is at or below the API level of these headers (not for `#if`). */
#define DOCA_VERSION_LTE_CURRENT(major, minor, patch) (DOCA_VERSION_CALC(major, minor, patch) <= DOCA_VERSION_OFFICIAL)

/**
 * @brief The API level the program was compiled against.
 *
 * Evaluated in the program (no library call); thread-safe.
 * @return DOCA_VERSION_STRING, static: never free it.
 */
static inline const char *doca_version(void)
{
	return DOCA_VERSION_STRING;
}

/**
 * @brief The API level of the library the program runs with.
 *
 * Callable at any time, from any thread, before any other DOCA call; it
 * cannot fail.  Compare it with doca_version() to notice a program running
 * against another release than it was built for.
 * @return the level as text ("3.3.0"), static: never free it; never NULL.
 */
DOCA_EXPERIMENTAL
const char *doca_version_runtime(void);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_VERSION_H_ */
