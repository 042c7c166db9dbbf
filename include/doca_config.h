/**
 * @file doca_config.h
 * @brief Build switches every DOCA header sees.
 *
 * Included by doca_compat.h; a program never needs to include it itself.
 * It pulls in doca_build_config.h (host or DPU flavour) and turns on the
 * versioned-struct helpers of doca_compat.h for host and DPU code; code
 * compiled for the DPA (DOCA_DPA_DEVICE) goes without them.
 */
#ifndef DOCA_CONFIG_H_
#define DOCA_CONFIG_H_

#include <doca_build_config.h>

/** Defined for host and DPU code: doca_compat.h then declares the DOCA_STRUCT_* helpers. */
#define DOCA_COMPAT_HELPERS

#ifdef DOCA_DPA_DEVICE
#undef DOCA_COMPAT_HELPERS
#endif

#endif /* DOCA_CONFIG_H_ */
