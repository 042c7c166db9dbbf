/*
 * ucx_msg.c - message nodes (sd_msgnet.h): a UCX worker and listener that
 * belong to one progress thread, with endpoints ("links") to peers.
 *
 * Unlike the exporting side (ucx_server.c), no library thread serves a
 * node: a message needs the receiving program's progress engine anyway (a
 * receive task completes there), so its worker is progressed there, and
 * the handlers run on that thread with nothing to lock.  Every message is
 * one active message sent eagerly with the reply flag, so the receiver
 * knows the endpoint it came on; payloads are persistent on arrival
 * (UCP_AM_FLAG_PERSISTENT_DATA) so the library may hold a message that no
 * receive is posted for yet without copying it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sd_log.h"
#include "sd_msgnet.h"
#include "ucx_priv.h"

#define SD_UCX_AM_MSG 16u /* the one id of node messages (the handshake of exports uses 1..3) */
#define SD_UCX_MSG_CLOSE_NS 200000000ull
#define SD_UCX_MSG_MAX_LINKS 1024u
#define SD_UCX_MSG_CTL_SLOTS 1024u /* control headers UCX may hold at once (sent but not yet gone) */

struct sd_ucx_node;

/* The copy of a control header, for as long as UCX may read it. */
struct sd_ucx_ctl {
	struct sd_ucx_node *node;
	uint32_t index;
	uint8_t hdr[SD_MSGNET_CTL_LEN];
};

struct sd_ucx_link {
	struct sd_ucx_node *node;
	ucp_ep_h ep;
	void *arg;
	bool failed;   /* the error handler ran */
	bool reported; /* on_fail was called */
	struct sd_ucx_link *next;
};

struct sd_ucx_node {
	ucp_context_h ctx;
	ucp_worker_h worker;
	ucp_listener_h listener;
	struct sd_msgnet_cbs cbs;
	void *arg;
	struct sd_ucx_link *links;
	unsigned nlinks;
	/* Copies of control headers while UCX holds them: a free stack over a fixed pool. */
	struct sd_ucx_ctl *ctl;
	uint32_t *ctl_free;
	uint32_t ctl_nfree;
	int efd; /* the worker's event descriptor once asked for (event mode); -1 before, or when UCX has none */
	bool efd_asked;
	bool closing; /* sd_ucx_msg_close runs: connection requests are refused */
};

static void sd_ucx_link_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
	struct sd_ucx_link *l = arg;

	(void)ep;
	(void)status;
	l->failed = true;
}

static struct sd_ucx_link *sd_ucx_link_add(struct sd_ucx_node *n, void *arg)
{
	struct sd_ucx_link *l = n->nlinks < SD_UCX_MSG_MAX_LINKS ? calloc(1, sizeof(*l)) : NULL;

	if (l == NULL)
		return NULL;
	l->arg = arg;
	l->node = n;
	l->next = n->links;
	n->links = l;
	n->nlinks++;
	return l;
}

static void sd_ucx_link_unlink(struct sd_ucx_node *n, struct sd_ucx_link *l)
{
	for (struct sd_ucx_link **p = &n->links; *p != NULL; p = &(*p)->next)
		if (*p == l) {
			*p = l->next;
			n->nlinks--;
			return;
		}
}

static void sd_ucx_msg_conn_request(ucp_conn_request_h req, void *arg)
{
	struct sd_ucx_node *n = arg;
	struct sd_ucx_link *l = n->closing ? NULL : sd_ucx_link_add(n, NULL);
	ucp_ep_params_t p = {
		.field_mask = UCP_EP_PARAM_FIELD_CONN_REQUEST | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
			      UCP_EP_PARAM_FIELD_ERR_HANDLER,
		.conn_request = req,
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = {.cb = sd_ucx_link_error, .arg = l},
	};

	if (l == NULL) {
		(void)ucp_listener_reject(n->listener, req);
		return;
	}
	if (ucp_ep_create(n->worker, &p, &l->ep) != UCS_OK) {
		sd_ucx_link_unlink(n, l);
		free(l);
	}
}

static struct sd_ucx_link *sd_ucx_link_of(struct sd_ucx_node *n, ucp_ep_h ep)
{
	for (struct sd_ucx_link *l = n->links; l != NULL; l = l->next)
		if (l->ep == ep)
			return l;
	return NULL;
}

static ucs_status_t sd_ucx_msg_on_am(void *arg, const void *header, size_t header_length, void *data, size_t length,
				     const ucp_am_recv_param_t *param)
{
	struct sd_ucx_node *n = arg;
	struct sd_ucx_link *l;

	if (!(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) || (l = sd_ucx_link_of(n, param->reply_ep)) == NULL ||
	    l->failed)
		return UCS_OK; /* not from one of our links: dropped */
	if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) {
		l->failed = true; /* our peers send eagerly: this one breaks the protocol */
		return UCS_OK;
	}
	bool keep = n->cbs.on_msg(n->arg, l, l->arg, header, header_length, data, length);
	return keep && (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA) ? UCS_INPROGRESS : UCS_OK;
}

static doca_error_t sd_ucx_msg_listen(const char *func, struct sd_ucx_node *n, const struct sd_xp_net *bind,
				      uint16_t *port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sd_ucx_net_to_sockaddr(bind, &ss);
	ucp_listener_params_t lp = {
		.field_mask = UCP_LISTENER_PARAM_FIELD_SOCK_ADDR | UCP_LISTENER_PARAM_FIELD_CONN_HANDLER,
		.sockaddr = {.addr = (const struct sockaddr *)&ss, .addrlen = sl},
		.conn_handler = {.cb = sd_ucx_msg_conn_request, .arg = n},
	};
	ucp_listener_attr_t attr = {.field_mask = UCP_LISTENER_ATTR_FIELD_SOCKADDR};
	struct sd_xp_net where;
	char text[64];
	ucs_status_t st = ucp_listener_create(n->worker, &lp, &n->listener);

	if (st == UCS_OK)
		st = ucp_listener_query(n->listener, &attr);
	if (st != UCS_OK || !sd_ucx_net_from_sockaddr((const struct sockaddr *)&attr.sockaddr, &where)) {
		sd_ucx_net_text(bind, text, sizeof(text));
		SD_LOG_ERR_AS(func, "UCX cannot listen for messages on %s: %s", text, ucs_status_string(st));
		return DOCA_ERROR_INITIALIZATION;
	}
	*port = where.port;
	return DOCA_SUCCESS;
}

static doca_error_t sd_ucx_msg_worker(const char *func, struct sd_ucx_node *n)
{
	ucp_worker_params_t wp = {
		.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE | UCP_WORKER_PARAM_FIELD_NAME,
		.thread_mode = UCS_THREAD_MODE_SINGLE, /* the progress engine's thread alone */
		.name = "softdoca-msg",
	};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
			      UCP_AM_HANDLER_PARAM_FIELD_FLAGS | UCP_AM_HANDLER_PARAM_FIELD_ARG,
		.id = SD_UCX_AM_MSG,
		.flags = UCP_AM_FLAG_WHOLE_MSG | UCP_AM_FLAG_PERSISTENT_DATA,
		.cb = sd_ucx_msg_on_am,
		.arg = n,
	};
	ucs_status_t st = ucp_worker_create(n->ctx, &wp, &n->worker);

	if (st == UCS_OK)
		st = ucp_worker_set_am_recv_handler(n->worker, &hp);
	if (st != UCS_OK) {
		SD_LOG_ERR_AS(func, "cannot create the UCX worker for RDMA messages: %s", ucs_status_string(st));
		return DOCA_ERROR_INITIALIZATION;
	}
	return DOCA_SUCCESS;
}

static void sd_ucx_msg_close(void *node);

doca_error_t sd_ucx_msg_open(const char *func, const struct sd_xp_net *bind, const struct sd_msgnet_cbs *cbs,
			     void *arg, uint16_t *port, void **node)
{
	struct sd_ucx_node *n = calloc(1, sizeof(*n));
	doca_error_t err;

	if (n != NULL) {
		n->ctl = calloc(SD_UCX_MSG_CTL_SLOTS, sizeof(*n->ctl));
		n->ctl_free = calloc(SD_UCX_MSG_CTL_SLOTS, sizeof(*n->ctl_free));
	}
	if (n == NULL || n->ctl == NULL || n->ctl_free == NULL) {
		if (n != NULL)
			sd_ucx_msg_close(n);
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY, "cannot allocate a UCX message node");
	}
	for (uint32_t i = 0; i < SD_UCX_MSG_CTL_SLOTS; i++) {
		n->ctl[i] = (struct sd_ucx_ctl){.node = n, .index = i};
		n->ctl_free[n->ctl_nfree++] = i;
	}
	n->cbs = *cbs;
	n->arg = arg;
	n->ctx = sd_ucx_context_get(func);
	err = n->ctx == NULL ? DOCA_ERROR_INITIALIZATION : sd_ucx_msg_worker(func, n);
	if (err == DOCA_SUCCESS)
		err = sd_ucx_msg_listen(func, n, bind, port);
	if (err != DOCA_SUCCESS) {
		sd_ucx_msg_close(n);
		return err;
	}
	*node = n;
	return DOCA_SUCCESS;
}

doca_error_t sd_ucx_msg_connect(const char *func, void *node, const struct sd_xp_net *peer, void *link_arg,
				void **link)
{
	struct sd_ucx_node *n = node;
	struct sockaddr_storage ss;
	socklen_t sl = sd_ucx_net_to_sockaddr(peer, &ss);
	struct sd_ucx_link *l = sd_ucx_link_add(n, link_arg);
	char text[64];

	if (l == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_NO_MEMORY, "cannot allocate a UCX message link");
	ucp_ep_params_t p = {
		.field_mask = UCP_EP_PARAM_FIELD_FLAGS | UCP_EP_PARAM_FIELD_SOCK_ADDR |
			      UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER,
		.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER,
		.sockaddr = {.addr = (const struct sockaddr *)&ss, .addrlen = sl},
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = {.cb = sd_ucx_link_error, .arg = l},
	};
	ucs_status_t st = ucp_ep_create(n->worker, &p, &l->ep);

	if (st != UCS_OK) {
		sd_ucx_link_unlink(n, l);
		free(l);
		sd_ucx_net_text(peer, text, sizeof(text));
		return SD_REJECT_AS(func, DOCA_ERROR_CONNECTION_ABORTED, "UCX cannot reach the peer's messages at %s: %s",
				    text, ucs_status_string(st));
	}
	*link = l;
	return DOCA_SUCCESS;
}

/*
 * Report each failed link once (outside the UCX callbacks, where closing it
 * is allowed).  A report may close any links, so the scan starts over
 * after each one.
 */
static void sd_ucx_msg_report_failures(struct sd_ucx_node *n)
{
	struct sd_ucx_link *l;

	do {
		for (l = n->links; l != NULL && !(l->failed && !l->reported); l = l->next)
			;
		if (l != NULL) {
			l->reported = true;
			n->cbs.on_fail(n->arg, l, l->arg);
		}
	} while (l != NULL);
}

static unsigned sd_ucx_msg_progress(void *node)
{
	struct sd_ucx_node *n = node;
	unsigned events = 0;

	while (ucp_worker_progress(n->worker) != 0)
		events++;
	for (struct sd_ucx_link *l = n->links; l != NULL; l = l->next)
		if (l->failed && !l->reported) {
			sd_ucx_msg_report_failures(n);
			break;
		}
	return events;
}

static void sd_ucx_msg_set_arg(void *link, void *link_arg)
{
	((struct sd_ucx_link *)link)->arg = link_arg;
}

static int sd_ucx_msg_send(void *link, const void *hdr, size_t hlen, const struct iovec *iov, size_t iovcnt)
{
	struct sd_ucx_link *l = link;
	ucp_request_param_t p = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_DATATYPE,
		.flags = UCP_AM_SEND_FLAG_REPLY | UCP_AM_SEND_FLAG_EAGER,
		.datatype = ucp_dt_make_contig(1),
	};
	const void *buf = NULL;
	size_t count = 0;

	if (l->failed)
		return ECONNRESET;
	if (iovcnt == 1) {
		buf = iov[0].iov_base;
		count = iov[0].iov_len;
	} else if (iovcnt > 1) {
		p.datatype = UCP_DATATYPE_IOV;
		buf = iov;
		count = iovcnt;
	}
	ucs_status_ptr_t req = ucp_am_send_nbx(l->ep, SD_UCX_AM_MSG, hdr, hlen, buf, count, &p);
	if (UCS_PTR_IS_ERR(req)) {
		l->failed = true;
		return ECONNRESET;
	}
	if (req != NULL)
		ucp_request_free(req); /* UCX completes it; the payload stays valid until the peer answers */
	return 0;
}

/* A control header left UCX: its copy is free again. */
static void sd_ucx_ctl_sent(void *request, ucs_status_t status, void *user_data)
{
	struct sd_ucx_ctl *c = user_data;

	(void)status;
	c->node->ctl_free[c->node->ctl_nfree++] = c->index;
	ucp_request_free(request);
}

static int sd_ucx_msg_send_ctl(void *link, const void *hdr, size_t hlen)
{
	struct sd_ucx_link *l = link;
	struct sd_ucx_node *n = l->node;

	if (l->failed)
		return ECONNRESET;
	if (n->ctl_nfree == 0 || hlen > SD_MSGNET_CTL_LEN)
		return EAGAIN;
	struct sd_ucx_ctl *c = &n->ctl[n->ctl_free[--n->ctl_nfree]];
	memcpy(c->hdr, hdr, hlen);
	ucp_request_param_t p = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
		.flags = UCP_AM_SEND_FLAG_REPLY | UCP_AM_SEND_FLAG_EAGER,
		.cb.send = sd_ucx_ctl_sent,
		.user_data = c,
	};
	ucs_status_ptr_t req = ucp_am_send_nbx(l->ep, SD_UCX_AM_MSG, c->hdr, hlen, NULL, 0, &p);
	if (req == NULL || UCS_PTR_IS_ERR(req))
		n->ctl_free[n->ctl_nfree++] = c->index; /* sent at once, or not at all */
	if (UCS_PTR_IS_ERR(req)) {
		l->failed = true;
		return ECONNRESET;
	}
	return 0;
}

static void sd_ucx_msg_release(void *node, void *data)
{
	ucp_am_data_release(((struct sd_ucx_node *)node)->worker, data);
}

/*
 * Flush what was sent for a short while (a closing word to the peer), then
 * cut the endpoint, which completes here whatever the peer does.  False
 * when UCX did not let go of it in time: its error handler may still run
 * with the link, which must then stay allocated.
 */
static bool sd_ucx_link_end(struct sd_ucx_node *n, struct sd_ucx_link *l)
{
	ucp_request_param_t p = {.op_attr_mask = 0};
	ucs_status_ptr_t flush = l->failed ? NULL : ucp_ep_flush_nbx(l->ep, &p);
	uint64_t deadline = sd_mono_ns() + SD_UCX_MSG_CLOSE_NS;

	while (UCS_PTR_IS_PTR(flush) && ucp_request_check_status(flush) == UCS_INPROGRESS &&
	       sd_mono_ns() < deadline)
		ucp_worker_progress(n->worker);
	bool closed = sd_ucx_ep_close_force(n->worker, l->ep, SD_UCX_MSG_CLOSE_NS);
	if (UCS_PTR_IS_PTR(flush))
		ucp_request_free(flush); /* done, or failed by the cut: UCX releases it either way */
	return closed;
}

static void sd_ucx_msg_link_close(void *node, void *link)
{
	struct sd_ucx_node *n = node;
	struct sd_ucx_link *l = link;

	sd_ucx_link_unlink(n, l);
	if (sd_ucx_link_end(n, l))
		free(l);
}

static void sd_ucx_msg_close(void *node)
{
	struct sd_ucx_node *n = node;

	if (n->listener != NULL) {
		n->closing = true;
		sd_ucx_hand_out_queued_requests(n->worker);
	}

	while (n->links != NULL)
		sd_ucx_msg_link_close(n, n->links);
	if (n->listener != NULL)
		sd_ucx_listener_end(n->worker, n->listener); /* after the links: their sockets share its port */
	if (n->worker != NULL)
		ucp_worker_destroy(n->worker);
	if (n->ctx != NULL)
		sd_ucx_context_put();
	free(n->ctl);
	free(n->ctl_free);
	free(n);
}

/* Asked for on the first sleep only: a program that polls never needs it. */
static int sd_ucx_msg_event_fd(void *node)
{
	struct sd_ucx_node *n = node;

	if (!n->efd_asked) {
		n->efd_asked = true;
		n->efd = -1;
		if (ucp_worker_get_efd(n->worker, &n->efd) != UCS_OK) {
			n->efd = -1;
			SD_LOG_WARN("the UCX worker of RDMA messages offers no event descriptor; a program asleep on "
				    "its notification handle learns of messages from other namespaces at its next "
				    "doca_pe_progress");
		}
	}
	return n->efd;
}

/* A failed link not yet reported is news too: only progress reports it. */
static int sd_ucx_msg_arm(void *node)
{
	struct sd_ucx_node *n = node;

	for (struct sd_ucx_link *l = n->links; l != NULL; l = l->next)
		if (l->failed && !l->reported)
			return EBUSY;
	ucs_status_t st = ucp_worker_arm(n->worker);
	return st == UCS_OK ? 0 : st == UCS_ERR_BUSY ? EBUSY : EIO;
}

const struct sd_msgnet_ops sd_ucx_msg_ops = {
	.close = sd_ucx_msg_close,
	.progress = sd_ucx_msg_progress,
	.link_set_arg = sd_ucx_msg_set_arg,
	.send = sd_ucx_msg_send,
	.send_ctl = sd_ucx_msg_send_ctl,
	.release = sd_ucx_msg_release,
	.link_close = sd_ucx_msg_link_close,
	.timeout_ms = sd_ucx_timeout_ms,
	.event_fd = sd_ucx_msg_event_fd,
	.arm = sd_ucx_msg_arm,
};
