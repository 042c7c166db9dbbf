/*
 * doca_build_config.h - which side a DOCA program is compiled for.
 *
 * softdoca installs one set of headers for both build flavours.  The role
 * comes from the compiler command line: the doca-common pkg-config module
 * of <libdir>/pkgconfig adds -DDOCA_ARCH_HOST, the one of
 * <libdir>/pkgconfig-dpu adds -DDOCA_ARCH_DPU.  A role given on the command
 * line is never undone here; without one the host role applies.
 * The CPU macros follow the compiler's real target.
 */
#pragma once

#if !defined(DOCA_ARCH_DPU) && !defined(DOCA_ARCH_HOST)
#define DOCA_ARCH_HOST
#endif

#if defined(__aarch64__)
#define DOCA_ARCH_ARM
#elif defined(__x86_64__)
#define DOCA_ARCH_X86
#endif

#define DOCA_ARCH_DPU_BF2 false
