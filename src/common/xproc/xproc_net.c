/*
 * xproc_net.c - SOFTDOCA_PEER: where the other side of the link runs.
 *
 * The value is ADDR, ADDR:PORT, [IPV6] or [IPV6]:PORT; a bare IPv6
 * address (more than one colon, no brackets) has no port.  ADDR may be a
 * host name (a container name in a compose network); it is resolved when
 * it is used, not when it is read, because the other side may start later.
 * The variable wins over the topology file's `peer` key.  Nothing here
 * runs per task.  The text form itself is parsed in dev/peer_addr.c, below
 * both this file and the topology parser that checks the `peer` key.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sd_dev.h"
#include "sd_peer.h"

int priv_doca_peer_get(struct sd_peer *out, char *why, size_t why_len)
{
	const char *env = getenv("SOFTDOCA_PEER");
	const char *text = env;
	const char *source = "SOFTDOCA_PEER";

	if (text == NULL || text[0] == '\0') {
		text = sd_topology_peer();
		source = "the topology file's peer key";
	}
	if (text[0] == '\0')
		return 0;
	if (!sd_peer_parse(text, out, why, why_len)) {
		char reason[160];

		snprintf(reason, sizeof(reason), "%s", why);
		snprintf(why, why_len, "%s=%s %s", source, text, reason);
		return -1;
	}
	out->source = source;
	return 1;
}

int priv_doca_peer_resolve(const struct sd_peer *peer, struct sockaddr_storage *addr, socklen_t *addr_len, char *why,
			   size_t why_len)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG};
	struct addrinfo *res = NULL;
	char port[8];
	int rc;

	snprintf(port, sizeof(port), "%u", peer->port);
	rc = getaddrinfo(peer->host, port, &hints, &res);
	if (rc == EAI_ADDRFAMILY || rc == EAI_NONAME) { /* AI_ADDRCONFIG hides loopback-only setups */
		hints.ai_flags = 0;
		rc = getaddrinfo(peer->host, port, &hints, &res);
	}
	if (rc != 0 || res == NULL) {
		snprintf(why, why_len, "peer '%s' (%s) does not resolve: %s", peer->host, peer->source,
			 rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		if (res != NULL)
			freeaddrinfo(res);
		return rc != 0 ? rc : EAI_NONAME;
	}
	memcpy(addr, res->ai_addr, res->ai_addrlen);
	*addr_len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int priv_doca_peer_local_addr(const struct sockaddr_storage *peer_addr, socklen_t peer_len,
			      struct sockaddr_storage *local, socklen_t *local_len)
{
	/* A connected datagram socket sends nothing: it only asks the kernel for the route. */
	int fd = socket(peer_addr->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err = 0;

	if (fd < 0)
		return errno;
	*local_len = sizeof(*local);
	if (connect(fd, (const struct sockaddr *)peer_addr, peer_len) != 0 ||
	    getsockname(fd, (struct sockaddr *)local, local_len) != 0)
		err = errno;
	close(fd);
	if (err != 0)
		return err;
	if (local->ss_family == AF_INET)
		((struct sockaddr_in *)local)->sin_port = 0;
	else if (local->ss_family == AF_INET6)
		((struct sockaddr_in6 *)local)->sin6_port = 0;
	return 0;
}
