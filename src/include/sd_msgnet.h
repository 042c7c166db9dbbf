/*
 * sd_msgnet.h - message nodes: the UCX transport's active messages, for a
 * library whose peer may run in another namespace or on another machine
 * (DOCA RDMA's sends and immediates, src/rdma/rdma_net.c).
 *
 * A node is a UCX worker and a listener owned by ONE thread (a progress
 * engine's): nothing here locks, and every callback runs inside `progress`
 * on that thread.  A link is one endpoint: made by `connect` towards a
 * peer's node, or accepted by the listener (its user argument is then NULL
 * until the library binds it with `link_set_arg`).  A message is a small
 * header and a payload.  `send` reads both from the caller's memory, which
 * must stay valid until the peer's answer says it arrived or the link
 * failed; `send_ctl` sends a header alone and copies it into the node's
 * own pool first.  A received payload may be kept past the callback and is
 * then handed back with `release`.
 *
 * The transport knows nothing of what a message means: the library parses
 * every header and payload it gets, since they come from the peer.
 */
#ifndef SD_MSGNET_H
#define SD_MSGNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <doca_error.h>

#include "sd_presence.h"
#include "sd_visibility.h"

#define SD_MSGNET_CTL_LEN 64u

struct sd_msgnet_cbs {
	/*
	 * A message arrived on `link` (whose argument is `link_arg`).  `data`
	 * is valid during the call; return true to keep it until `release`.
	 */
	bool (*on_msg)(void *arg, void *link, void *link_arg, const void *hdr, size_t hlen, void *data, size_t len);
	/* `link` failed (the peer is gone or unreachable); close it with link_close. */
	void (*on_fail)(void *arg, void *link, void *link_arg);
};

struct sd_msgnet_ops {
	/* Close every link and the node; kept payloads must have been released. */
	void (*close)(void *node);
	/* Progress the node; the callbacks run in here.  Returns the UCX events seen. */
	unsigned (*progress)(void *node);
	void (*link_set_arg)(void *link, void *link_arg);
	/*
	 * Send one message: 0, or an errno (ECONNRESET: the link failed).  The
	 * header, the bytes and, for more than one piece, the iov array itself
	 * stay the caller's to keep valid until the peer answers the message:
	 * a transport may still read any of them after this returns.
	 */
	int (*send)(void *link, const void *hdr, size_t hlen, const struct iovec *iov, size_t iovcnt);
	/*
	 * Send a header of at most SD_MSGNET_CTL_LEN bytes, copied first: 0, EAGAIN (the copies are all
	 * in use: retry later) or ECONNRESET.
	 */
	int (*send_ctl)(void *link, const void *hdr, size_t hlen);
	void (*release)(void *node, void *data);
	/* Close a link: what was sent is flushed for a short while, then the link is cut. */
	void (*link_close)(void *node, void *link);
	/* The liveness bound in milliseconds (SOFTDOCA_PEER_TIMEOUT_MS). */
	uint32_t (*timeout_ms)(void);
	/*
	 * Event mode: a descriptor that becomes readable when the node has news
	 * once `arm` said 0 (a message, an answer, a failed link); -1 when UCX
	 * offers none.  It stays the node's: never close it.
	 */
	int (*event_fd)(void *node);
	/* Ready event_fd for a sleep: 0; EBUSY when news wait already (progress first); EIO when UCX cannot. */
	int (*arm)(void *node);
};

/*
 * Open a node listening on the address this process's exports offer (the
 * one facing SOFTDOCA_PEER, or the loopback under SOFTDOCA_XPROC_PATH=ucx).
 * DOCA_ERROR_NOT_SUPPORTED when this process offers no endpoint or UCX is
 * missing; DOCA_ERROR_INITIALIZATION when UCX refuses.  Logged for `func`.
 */
SD_PRIV doca_error_t priv_doca_msgnet_open(const char *func, const struct sd_msgnet_cbs *cbs, void *arg,
					   const struct sd_msgnet_ops **ops, uint16_t *port, void **node);

/* Open a link to the node listening on `port` at the address of `peer`; never waits for the peer. */
SD_PRIV doca_error_t priv_doca_msgnet_connect(const char *func, void *node, const struct sd_presence_ref *peer,
					      uint16_t port, void *link_arg, void **link);

#endif /* SD_MSGNET_H */
