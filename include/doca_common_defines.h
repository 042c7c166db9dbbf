/**
 * @file doca_common_defines.h
 * @brief Small compiler helpers shared by the DOCA headers.
 */
#ifndef DOCA_COMMON_DEFINES_H_
#define DOCA_COMMON_DEFINES_H_

#ifdef __GNUC__
/** Branch hint: @p x is expected to be true (plain @p x without GCC or clang). */
#define doca_likely(x) __builtin_expect(!!(x), 1)
/** Branch hint: @p x is expected to be false (plain @p x without GCC or clang). */
#define doca_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define doca_likely(x) (x)
#define doca_unlikely(x) (x)
#endif

#endif /* DOCA_COMMON_DEFINES_H_ */
