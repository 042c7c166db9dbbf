/*
 * xproc_msgnet.c - message nodes (sd_msgnet.h) as libdoca_common hands
 * them to the libraries above: the node listens where this process's
 * exports listen, and the UCX transport module does the rest.
 */
#include <string.h>

#include "sd_log.h"
#include "sd_msgnet.h"
#include "xproc_priv.h"
#include "xproc_ucx_module.h"

SD_PRIV doca_error_t priv_doca_msgnet_open(const char *func, const struct sd_msgnet_cbs *cbs, void *arg,
					   const struct sd_msgnet_ops **ops, uint16_t *port, void **node)
{
	struct sd_xp_net bind;
	const struct sd_ucx_module *mod;
	const char *why;

	if (!sd_xp_ucx_bind(&bind))
		return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED,
				    "this process offers no network endpoint for messages: set SOFTDOCA_PEER to the "
				    "peer's address (or SOFTDOCA_XPROC_PATH=ucx on one machine)");
	mod = sd_xp_ucx_module(&why);
	if (mod == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED, "messages to other namespaces need UCX, but %s",
				    why);
	*ops = mod->msg_ops;
	return mod->msg_open(func, &bind, cbs, arg, port, node);
}

SD_PRIV doca_error_t priv_doca_msgnet_connect(const char *func, void *node, const struct sd_presence_ref *peer,
					      uint16_t port, void *link_arg, void **link)
{
	struct sd_xp_net net = {.family = peer->net_family, .port = port};
	const struct sd_ucx_module *mod;
	const char *why;

	if ((peer->net_family != SD_XP_NET_IPV4 && peer->net_family != SD_XP_NET_IPV6) || port == 0)
		return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED,
				    "the peer offered no network endpoint for messages: start it with SOFTDOCA_PEER "
				    "set to this side's address");
	mod = sd_xp_ucx_module(&why);
	if (mod == NULL) /* a node is open, so the module was loaded */
		return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED, "messages need UCX, but %s", why);
	memcpy(net.addr, peer->net_addr, sizeof(net.addr));
	return mod->msg_connect(func, node, &net, link_arg, link);
}
