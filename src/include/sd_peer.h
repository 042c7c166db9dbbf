/*
 * sd_peer.h - where the other side of this process's PCI link runs.
 *
 * One knob, outside the program: SOFTDOCA_PEER=ADDR[:PORT] (or the `peer`
 * key of a topology file; the variable wins) names the machine, container
 * or network namespace where the other side (the DPU for a host program,
 * the host for a DPU program) runs.  With it, Comch goes over TCP to or on
 * PORT, and exports offer a UCX endpoint on the local address facing ADDR.
 * Without it, both sides are expected on this machine and in this
 * namespace, as before.
 *
 * ADDR is an IPv4 address, an IPv6 address (in brackets when a port
 * follows) or a host name.  libdoca_common exports these for libdoca_comch.
 */
#ifndef SD_PEER_H
#define SD_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <doca_error.h>

#include "sd_visibility.h"

/* The Comch port when SOFTDOCA_PEER names none. */
#define SD_PEER_DEFAULT_PORT 13622u

struct sd_peer {
	char host[256];     /* ADDR as given, brackets removed */
	uint16_t port;      /* PORT, or SD_PEER_DEFAULT_PORT */
	const char *source; /* "SOFTDOCA_PEER" or "the topology file's peer key" */
};

/*
 * Parse "ADDR[:PORT]" (dev/peer_addr.c; libdoca_common only: the topology parser checks its
 * `peer` key with it).  False with `why` filled when malformed.
 */
bool sd_peer_parse(const char *text, struct sd_peer *out, char *why, size_t why_len);

/*
 * Is a peer configured?  1 and *out filled when so; 0 when not; -1 when
 * the value is malformed (`why` says how, NUL-terminated, up to why_len).
 */
SD_PRIV int priv_doca_peer_get(struct sd_peer *out, char *why, size_t why_len);

/*
 * The peer's TCP address (the first getaddrinfo answer).  0, or an
 * EAI_* / errno code; `why` gets a message naming the peer.
 */
SD_PRIV int priv_doca_peer_resolve(const struct sd_peer *peer, struct sockaddr_storage *addr, socklen_t *addr_len,
				   char *why, size_t why_len);

/*
 * This machine's address on the route toward `peer_addr` (port 0): what
 * the peer can reach us at.  0 or errno.
 */
SD_PRIV int priv_doca_peer_local_addr(const struct sockaddr_storage *peer_addr, socklen_t peer_len,
				      struct sockaddr_storage *local, socklen_t *local_len);

#endif /* SD_PEER_H */
