/*
 * sd_visibility.h - symbol visibility for softdoca's libraries.
 *
 * The libraries build with -fvisibility=hidden.  Public DOCA functions are
 * exported by the DOCA_STABLE / DOCA_EXPERIMENTAL markers of the public
 * headers.  A small set of internal functions has to cross library
 * boundaries (libdoca_dma calls into the context framework that lives in
 * libdoca_common); those carry the `priv_doca_` prefix and SD_PRIV.
 * Everything else stays hidden.
 */
#ifndef SD_VISIBILITY_H
#define SD_VISIBILITY_H

#define SD_PRIV __attribute__((visibility("default")))

#endif /* SD_VISIBILITY_H */
