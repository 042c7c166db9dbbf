/*
 * doca_version.h - the DOCA API level these headers describe: 3.3.0, the
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
 * not in #if.
 */
#ifndef DOCA_VERSION_H_
#define DOCA_VERSION_H_

#include <stddef.h>

#include <doca_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DOCA_VERSION_MAJOR 3
#define DOCA_VERSION_MINOR 3
#define DOCA_VERSION_PATCH 0
#define DOCA_VERSION_STRING "3.3.0"

/* Packed version: major in bits 24+, minor in 16-23, patch below. */
#define DOCA_VERSION_CALC_EXACT(major, minor, patch) ((size_t)((major) << 24 | (minor) << 16 | (patch)))

#define DOCA_VERSION_EXACT DOCA_VERSION_CALC_EXACT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)

/* "Official" numbering: the patch counts in thousands (argument kept bare on purpose). */
#define DOCA_VERSION_CALC(major, minor, patch) ((size_t)((major) << 24 | (minor) << 16 | (patch * 1000)))

#define DOCA_VERSION_OFFICIAL DOCA_VERSION_CALC(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)

#define DOCA_VERSION_EQ_CURRENT(major, minor, patch) (DOCA_VERSION_CALC(major, minor, patch) == DOCA_VERSION_OFFICIAL)

#define DOCA_VERSION_LTE_CURRENT(major, minor, patch) (DOCA_VERSION_CALC(major, minor, patch) <= DOCA_VERSION_OFFICIAL)

/* Version of the headers the caller was built with. */
static inline const char *doca_version(void)
{
	return DOCA_VERSION_STRING;
}

/* Version of the library the caller runs against (static storage). */
DOCA_EXPERIMENTAL
const char *doca_version_runtime(void);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_VERSION_H_ */
