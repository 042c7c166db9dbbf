/*
 * doca_config.h - build configuration switches shared by every DOCA header.
 */
#ifndef DOCA_CONFIG_H_
#define DOCA_CONFIG_H_

#include <doca_build_config.h>

/* Host and DPU code get the versioned-struct helpers of doca_compat.h. */
#define DOCA_COMPAT_HELPERS

#ifdef DOCA_DPA_DEVICE
#undef DOCA_COMPAT_HELPERS
#endif

#endif /* DOCA_CONFIG_H_ */
