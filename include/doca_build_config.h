/**
 * @file doca_build_config.h
 * @brief Which side a DOCA program is compiled for, and for which CPU.
 *
 * softdoca installs one set of headers for both build flavours.  The role
 * comes from the compiler command line: the doca-common pkg-config module
 * of `<libdir>/pkgconfig` adds -DDOCA_ARCH_HOST, the one of
 * `<libdir>/pkgconfig-dpu` adds -DDOCA_ARCH_DPU.  A role given on the command
 * line is never undone here; without one the host role applies.  Programs
 * test the role with `#ifdef DOCA_ARCH_DPU` / `#ifdef DOCA_ARCH_HOST`, and
 * meson's `cc.has_header_symbol('doca_build_config.h', 'DOCA_ARCH_DPU')`
 * answers accordingly.  The CPU macros follow the compiler's real target.
 */
#pragma once

#if !defined(DOCA_ARCH_DPU) && !defined(DOCA_ARCH_HOST)
/** Defined when the program is built for the host side (the default without a role). */
#define DOCA_ARCH_HOST
#endif

#if defined(__aarch64__)
/** Defined when the compiler targets 64-bit Arm (as a BlueField's cores). */
#define DOCA_ARCH_ARM
#elif defined(__x86_64__)
/** Defined when the compiler targets x86-64. */
#define DOCA_ARCH_X86
#endif

/** Whether the build targets a BlueField-2 DPU specifically: never, in softdoca. */
#define DOCA_ARCH_DPU_BF2 false
