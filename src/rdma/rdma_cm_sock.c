/*
 * rdma_cm_sock.c - the TCP sockets of the connection manager.
 *
 * The CM port of DOCA is the TCP port here.  A listener binds the
 * device's IPv4 (else IPv6) address of the topology, as a card's CM
 * listens on the port's address; a device with no address listens on
 * every address of the machine (IPv6 wildcard accepting IPv4 too, IPv4
 * wildcard where the kernel has no IPv6), so two programs of one machine
 * meet over loopback with no setup.  Every socket is non-blocking: the
 * progress thread never waits on one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rdma_cm.h"

static void sd_rdma_cm_sock_tune(int fd)
{
	int one = 1;

	/* Handshake messages are small and answered at once: do not let Nagle hold them. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* Bind and listen on `sa`; the socket or -1 (errno kept). */
static int sd_rdma_cm_listen_on(const struct sockaddr *sa, socklen_t len, bool dual_stack)
{
	int one = 1, zero = 0;
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (dual_stack)
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) != 0 || listen(fd, 64) != 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int sd_rdma_cm_sock_listen(const struct sd_device *node, uint16_t port)
{
	struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = htons(port)};
	struct sockaddr_in6 v6 = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = in6addr_any};
	int fd;

	if (node->has_ipv4) {
		memcpy(&v4.sin_addr, node->ipv4, sizeof(node->ipv4));
		return sd_rdma_cm_listen_on((struct sockaddr *)&v4, sizeof(v4), false);
	}
	if (node->has_ipv6) {
		memcpy(&v6.sin6_addr, node->ipv6, sizeof(node->ipv6));
		return sd_rdma_cm_listen_on((struct sockaddr *)&v6, sizeof(v6), false);
	}
	fd = sd_rdma_cm_listen_on((struct sockaddr *)&v6, sizeof(v6), true);
	if (fd >= 0 || (errno != EAFNOSUPPORT && errno != EADDRNOTAVAIL))
		return fd;
	v4.sin_addr.s_addr = htonl(INADDR_ANY);
	return sd_rdma_cm_listen_on((struct sockaddr *)&v4, sizeof(v4), false);
}

int sd_rdma_cm_sock_connect(const struct doca_rdma_addr *addr)
{
	struct sockaddr_storage ss = {0};
	socklen_t len;
	int fd;

	if (addr->type == DOCA_RDMA_ADDR_TYPE_IPv4) {
		struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
		v4->sin_family = AF_INET;
		v4->sin_port = htons(addr->port);
		len = sizeof(*v4);
		if (inet_pton(AF_INET, addr->text, &v4->sin_addr) != 1)
			return errno = EINVAL, -1;
	} else { /* IPv6, and a GID, whose text form is an IPv6 address (RoCE v2) */
		struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(addr->port);
		len = sizeof(*v6);
		if (inet_pton(AF_INET6, addr->text, &v6->sin6_addr) != 1)
			return errno = EINVAL, -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	sd_rdma_cm_sock_tune(fd);
	if (connect(fd, (struct sockaddr *)&ss, len) != 0 && errno != EINPROGRESS) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* The text and port of a socket address, as doca_rdma_addr keeps them. */
static void sd_rdma_cm_addr_of(const struct sockaddr_storage *ss, struct doca_rdma_addr *out)
{
	memset(out, 0, sizeof(*out));
	out->magic = SD_RDMA_ADDR_MAGIC;
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)ss;
		out->type = DOCA_RDMA_ADDR_TYPE_IPv4;
		out->port = ntohs(v4->sin_port);
		(void)inet_ntop(AF_INET, &v4->sin_addr, out->text, sizeof(out->text));
		return;
	}
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)ss;
	out->type = DOCA_RDMA_ADDR_TYPE_IPv6;
	out->port = ntohs(v6->sin6_port);
	if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) { /* an IPv4 client of a dual-stack listener */
		out->type = DOCA_RDMA_ADDR_TYPE_IPv4;
		(void)inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], out->text, sizeof(out->text));
		return;
	}
	(void)inet_ntop(AF_INET6, &v6->sin6_addr, out->text, sizeof(out->text));
}

int sd_rdma_cm_sock_accept(int listen_fd, struct doca_rdma_addr *peer)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = accept4(listen_fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return -1;
	sd_rdma_cm_sock_tune(fd);
	sd_rdma_cm_addr_of(&ss, peer);
	return fd;
}

int sd_rdma_cm_sock_connect_done(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	int err = 0;
	socklen_t len = sizeof(err);

	if (poll(&p, 1, 0) <= 0)
		return 0;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		return -1;
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 1;
}
