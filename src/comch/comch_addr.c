/*
 * comch_addr.c - where a Comch server listens and a client looks for it.
 *
 * The rendezvous is a Unix-domain SOCK_SEQPACKET socket whose name derives
 * from the host function (the representor's PCI address on the server, the
 * device's own PCI address on the client: equal for a matching pair)
 * and a 64-bit hash of the server name.  The full name is compared again
 * in the handshake, so a hash collision can never connect the wrong pair.
 *
 * By default the socket lives in the abstract namespace (nothing on disk,
 * gone when the process dies).  SOFTDOCA_COMCH_DIR=<dir> puts it in that
 * directory instead, for programs in different network namespaces that
 * share a filesystem.
 *
 * With SOFTDOCA_PEER set, the rendezvous is a TCP port instead
 * (comch_tcp.c) and none of this applies.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "comch_priv.h"
#include "sd_log.h"

/* FNV-1a: stable across processes and builds. */
static uint64_t sd_comch_name_hash(const char *name, uint32_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (uint32_t i = 0; i < len; i++) {
		h ^= (uint8_t)name[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

doca_error_t sd_comch_addr_build(struct sd_comch_ep *ep, const char *func)
{
	struct sd_comch_io *io = &ep->io;
	const char *dir = getenv("SOFTDOCA_COMCH_DIR");
	unsigned long long hash = (unsigned long long)sd_comch_name_hash(ep->name, ep->name_len);
	size_t room = sizeof(io->addr.sun_path);
	int n;
	doca_error_t err = sd_comch_tcp_config(ep, func);

	io->path_mode = false;
	if (err != DOCA_SUCCESS || io->tcp)
		return err;
	memset(&io->addr, 0, sizeof(io->addr));
	io->addr.sun_family = AF_UNIX;
	io->path_mode = dir != NULL && dir[0] != '\0';
	if (io->path_mode) {
		n = snprintf(io->addr.sun_path, room, "%s/softdoca-comch-%s-%016llx", dir, ep->host_fn, hash);
		if (n < 0 || (size_t)n >= room) {
			SD_LOG_ERR_AS(func,
				      "SOFTDOCA_COMCH_DIR \"%s\" is too long for a socket path (at most %zu characters "
				      "with the socket name)",
				      dir, room - 1);
			return DOCA_ERROR_INVALID_VALUE;
		}
		io->addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)n + 1);
		return DOCA_SUCCESS;
	}
	/* Abstract namespace: a leading NUL, the name is not NUL-terminated. */
	n = snprintf(io->addr.sun_path + 1, room - 1, "softdoca-comch/%s/%016llx", ep->host_fn, hash);
	io->addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	return DOCA_SUCCESS;
}

/*
 * A filesystem socket left behind by a process that died: nobody accepts
 * on it any more.  Probing it with connect tells.
 */
static bool sd_comch_path_is_stale(const struct sd_comch_io *io)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	bool stale;

	if (fd < 0)
		return false;
	stale = connect(fd, (const struct sockaddr *)&io->addr, io->addr_len) < 0 && errno == ECONNREFUSED;
	close(fd);
	return stale;
}

static int sd_comch_bind(struct sd_comch_io *io, int fd)
{
	if (bind(fd, (const struct sockaddr *)&io->addr, io->addr_len) == 0)
		return 0;
	if (errno != EADDRINUSE || !io->path_mode || !sd_comch_path_is_stale(io))
		return -1;
	unlink(io->addr.sun_path);
	return bind(fd, (const struct sockaddr *)&io->addr, io->addr_len);
}

/* Make the server visible to clients (doca_ctx_start). */
doca_error_t sd_comch_listen(struct sd_comch_ep *ep, const char *func)
{
	struct sd_comch_io *io = &ep->io;
	int fd;

	if (io->tcp)
		return sd_comch_tcp_listen(ep, func);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		SD_LOG_ERR_AS(func, "cannot create the server socket (errno %d) (comch server %p)", errno, (void *)ep);
		return DOCA_ERROR_INITIALIZATION;
	}
	if (sd_comch_bind(io, fd) != 0) {
		int err = errno;

		close(fd);
		if (err == EADDRINUSE) {
			SD_LOG_ERR_AS(func,
				      "a server named \"%s\" is already running for host function %s (comch server %p)",
				      ep->name, ep->host_fn, (void *)ep);
			return DOCA_ERROR_ALREADY_EXIST;
		}
		SD_LOG_ERR_AS(func, "cannot bind the server socket%s%s (errno %d) (comch server %p)",
			      io->path_mode ? " " : "", io->path_mode ? io->addr.sun_path : "", err, (void *)ep);
		return DOCA_ERROR_INITIALIZATION;
	}
	if (listen(fd, 64) != 0) {
		int err = errno;

		close(fd);
		if (io->path_mode)
			unlink(io->addr.sun_path);
		SD_LOG_ERR_AS(func, "cannot listen on the server socket (errno %d) (comch server %p)", err,
			      (void *)ep);
		return DOCA_ERROR_INITIALIZATION;
	}
	io->listen_fd = fd;
	return DOCA_SUCCESS;
}

/* Hide the server again; safe to call twice. */
void sd_comch_unlisten(struct sd_comch_ep *ep)
{
	struct sd_comch_io *io = &ep->io;

	if (io->listen_fd < 0)
		return;
	close(io->listen_fd);
	io->listen_fd = -1;
	if (io->path_mode)
		unlink(io->addr.sun_path);
}
