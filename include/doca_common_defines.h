/*
 * doca_common_defines.h - small helpers used across the DOCA headers.
 */
#ifndef DOCA_COMMON_DEFINES_H_
#define DOCA_COMMON_DEFINES_H_

/* Branch hints: tell the compiler which way a condition usually goes. */
#ifdef __GNUC__
#define doca_likely(x) __builtin_expect(!!(x), 1)
#define doca_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define doca_likely(x) (x)
#define doca_unlikely(x) (x)
#endif

#endif /* DOCA_COMMON_DEFINES_H_ */
