/*
 * sd_presence.h - a process's presence, checkable by a peer anywhere.
 *
 * A library that hands a peer an out-of-band token (DOCA RDMA's connection
 * blob) publishes a small record with it.  A peer in this PID namespace
 * checks the publisher through /proc as before; a peer in another PID or
 * network namespace, or on another machine, asks the publisher itself over
 * the UCX transport: the publisher answers with the record only to a peer
 * that presents the token, so a forged or stale token gets nothing, and a
 * publisher that is gone does not answer at all.
 *
 * The record is read, never written, by peers.  Publishing offers a network
 * endpoint under the same rule as mmap exports (SOFTDOCA_PEER, or
 * SOFTDOCA_XPROC_PATH=ucx on one machine); otherwise the reference carries
 * no endpoint and only peers of this namespace can check it.  Everything
 * here runs at connection setup, never per task.
 */
#ifndef SD_PRESENCE_H
#define SD_PRESENCE_H

#include <stdbool.h>
#include <stdint.h>

#include <doca_error.h>

#include "sd_visibility.h"

#define SD_PRESENCE_REC_LEN 16u
#define SD_PRESENCE_TOKEN_LEN 16u
#define SD_PRESENCE_BOOT_LEN 16u

/* What a peer needs to tell where a publisher runs and to reach it. */
struct sd_presence_ref {
	uint8_t boot_id[SD_PRESENCE_BOOT_LEN]; /* the publisher's machine, this boot */
	uint64_t pidns_dev, pidns_ino;        /* its PID namespace */
	uint8_t net_family;                   /* 0 none, 4 IPv4, 6 IPv6 */
	uint16_t net_port;                    /* host order */
	uint8_t net_addr[16];                 /* IPv4 in the first 4 bytes, network order */
	uint32_t generation;
	uint64_t export_id;
	uint64_t rec_addr;                    /* the record, in the publisher's address space */
};

/*
 * Publish the SD_PRESENCE_REC_LEN bytes at `rec` (which stay valid and
 * unmoved until withdrawn) to peers presenting `token`.  Always fills
 * *ref with this process's namespace identity; *handle is NULL when this
 * process offers no network endpoint (then ref->net_family is 0).
 * DOCA_ERROR_OPERATING_SYSTEM when this process's identity cannot be read.
 * A transport that fails to serve is a WARNING, not a failure.
 */
SD_PRIV doca_error_t priv_doca_presence_publish(const char *func, const void *rec,
						const uint8_t token[SD_PRESENCE_TOKEN_LEN], struct sd_presence_ref *ref,
						void **handle);

/* Stop answering for a published record (NULL is fine); returns once no peer can read it. */
SD_PRIV void priv_doca_presence_withdraw(void *handle);

/*
 * True when a pid published with `ref` names a process of this machine and
 * PID namespace, and the user did not force the UCX transport
 * (SOFTDOCA_XPROC_PATH=ucx) while the reference offers an endpoint.
 */
SD_PRIV bool priv_doca_presence_local(const struct sd_presence_ref *ref);

/*
 * Ask the publisher of `ref` for its record over the network, proving the
 * token; waits at most the liveness bound (SOFTDOCA_PEER_TIMEOUT_MS).
 * DOCA_SUCCESS with the record in `rec`; DOCA_ERROR_NOT_SUPPORTED when
 * `ref` has no endpoint or the UCX transport is missing;
 * DOCA_ERROR_NOT_FOUND when the publisher refused the token, is gone or
 * did not answer in time.  Each failure is logged once for `func`.
 */
SD_PRIV doca_error_t priv_doca_presence_fetch(const char *func, const struct sd_presence_ref *ref, uint32_t pid,
					      const uint8_t token[SD_PRESENCE_TOKEN_LEN],
					      uint8_t rec[SD_PRESENCE_REC_LEN]);

#endif /* SD_PRESENCE_H */
