/*
 * peer_addr.c - the text form of a peer address: ADDR, ADDR:PORT, [IPV6]
 * or [IPV6]:PORT (a bare IPv6 address, with more than one colon and no
 * brackets, has no port).
 *
 * It lives with the devices because two layers read the form: the topology
 * parser checks a file's `peer` key with it, and the transports
 * (xproc/xproc_net.c) parse SOFTDOCA_PEER with it.  Keeping it here lets
 * both call down to it; nothing is resolved here (a host name may name a
 * container that starts later).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_peer.h"

static bool sd_peer_host_ok(const char *host)
{
	if (host[0] == '\0')
		return false;
	for (const char *c = host; *c != '\0'; c++)
		if (*c <= ' ' || *c > '~' || *c == '/' || *c == '[' || *c == ']')
			return false;
	return true;
}

static bool sd_peer_port(const char *text, uint16_t *port)
{
	char *end;
	unsigned long v;

	if (text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > 65535)
		return false;
	*port = (uint16_t)v;
	return true;
}

static bool sd_peer_fail(char *why, size_t why_len, const char *text)
{
	snprintf(why, why_len, "%s", text);
	return false;
}

bool sd_peer_parse(const char *text, struct sd_peer *out, char *why, size_t why_len)
{
	const char *colon;
	size_t host_len;

	memset(out, 0, sizeof(*out));
	out->port = SD_PEER_DEFAULT_PORT;
	if (text[0] == '[') {
		const char *close = strchr(text, ']');

		if (close == NULL)
			return sd_peer_fail(why, why_len, "opens '[' without closing it");
		host_len = (size_t)(close - text - 1);
		if (close[1] != '\0' && (close[1] != ':' || !sd_peer_port(close + 2, &out->port)))
			return sd_peer_fail(why, why_len, "has something other than :PORT (1 to 65535) after ']'");
		text++;
	} else {
		colon = strchr(text, ':');
		if (colon != NULL && strchr(colon + 1, ':') == NULL) {
			host_len = (size_t)(colon - text);
			if (!sd_peer_port(colon + 1, &out->port))
				return sd_peer_fail(why, why_len, "has a port that is not a number from 1 to 65535");
		} else {
			host_len = strlen(text); /* no colon, or a bare IPv6 address */
		}
	}
	if (host_len == 0 || host_len >= sizeof(out->host))
		return sd_peer_fail(why, why_len, "has no address, or one longer than 255 characters");
	memcpy(out->host, text, host_len);
	out->host[host_len] = '\0';
	if (!sd_peer_host_ok(out->host))
		return sd_peer_fail(why, why_len, "is not an IP address or host name");
	return true;
}
