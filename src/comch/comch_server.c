/*
 * comch_server.c - the DOCA Comch server API.
 *
 * A server is created on a DPU-side device with a representor of that
 * device, which names the host function whose clients may connect.  While
 * the server exists it holds a dependent on both, so neither can be
 * closed under it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "comch_priv.h"
#include "sd_log.h"

#define SD_SERVER_BAD "comch_server %p is NULL or not a live Comch server"

doca_error_t doca_comch_server_create(struct doca_dev *dev, struct doca_dev_rep *repr, const char *name,
				      struct doca_comch_server **comch_server)
{
	struct doca_comch_server *server;
	doca_error_t err;

	if (dev == NULL || repr == NULL || name == NULL || comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL",
				 dev == NULL	  ? "dev"
				 : repr == NULL ? "repr"
				 : name == NULL ? "name"
						: "output pointer comch_server");
	if (!priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device", (void *)dev);
	if (!priv_doca_dev_rep_is_valid(repr))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "repr %p is not an open representor", (void *)repr);
	if (!dev->node->caps.comch_server)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED,
				 "device %s cannot host a Comch server (servers live on DPU-side devices)",
				 dev->node->pci_addr);
	if (repr->info.node != dev->node)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "representor %s (%p) was not opened through device %s",
				 repr->info.rep->pci_addr, (void *)repr, dev->node->pci_addr);

	server = calloc(1, sizeof(*server));
	if (server == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "out of memory for a Comch server");
	err = sd_comch_ep_init(&server->ep, true, dev, name, __func__);
	if (err != DOCA_SUCCESS) {
		free(server);
		return err;
	}
	server->ep.rep = repr;
	snprintf(server->ep.host_fn, sizeof(server->ep.host_fn), "%s", repr->info.rep->pci_addr);
	priv_doca_dev_rep_dep_get(repr);
	*comch_server = server;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_destroy(struct doca_comch_server *comch_server)
{
	struct doca_dev_rep *rep;
	doca_error_t err;

	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (void *)comch_server);
	err = sd_comch_ep_check_unused(&comch_server->ep, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	err = priv_doca_ctx_fini(&comch_server->ep.ctx, __func__); /* refuses unless IDLE */
	if (err != DOCA_SUCCESS)
		return err;
	rep = comch_server->ep.rep;
	sd_comch_ep_fini(&comch_server->ep);
	priv_doca_dev_rep_dep_put(rep);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_server_as_ctx(struct doca_comch_server *comch_server)
{
	if (!sd_comch_server_valid(comch_server)) {
		SD_LOG_ERR(SD_SERVER_BAD, (void *)comch_server);
		return NULL;
	}
	return &comch_server->ep.ctx;
}

doca_error_t doca_comch_server_set_max_msg_size(struct doca_comch_server *comch_server, uint32_t size)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (void *)comch_server);
	return sd_comch_ep_set_max_msg(&comch_server->ep, size, __func__);
}

doca_error_t doca_comch_server_get_max_msg_size(const struct doca_comch_server *comch_server, uint32_t *size)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (const void *)comch_server);
	if (size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size is NULL (comch server %p)", (const void *)comch_server);
	*size = comch_server->ep.max_msg;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_set_recv_queue_size(struct doca_comch_server *comch_server, uint32_t size)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (void *)comch_server);
	return sd_comch_ep_set_recv_queue(&comch_server->ep, size, __func__);
}

doca_error_t doca_comch_server_get_recv_queue_size(const struct doca_comch_server *comch_server, uint32_t *size)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (const void *)comch_server);
	if (size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size is NULL (comch server %p)", (const void *)comch_server);
	*size = comch_server->ep.recv_queue;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_get_device(const struct doca_comch_server *comch_server, struct doca_dev **dev)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (const void *)comch_server);
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev is NULL (comch server %p)", (const void *)comch_server);
	*dev = comch_server->ep.ctx.dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_get_device_rep(const struct doca_comch_server *comch_server, struct doca_dev_rep **rep)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (const void *)comch_server);
	if (rep == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rep is NULL (comch server %p)", (const void *)comch_server);
	*rep = comch_server->ep.rep;
	return DOCA_SUCCESS;
}

/*
 * The server's own disconnect callback does not fire for a disconnect it
 * asked for: the connection is invalid once this returns.
 */
doca_error_t doca_comch_server_disconnect(struct doca_comch_server *comch_server,
					  struct doca_comch_connection *connection)
{
	struct sd_comch_ep *ep;

	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (void *)comch_server);
	ep = &comch_server->ep;
	if (!sd_comch_conn_valid(connection) || connection->ep != ep)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "connection %p is not a connection of comch server %p",
				 (void *)connection, (void *)comch_server);
	if (ep->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "context is %s, connections can be ended only while RUNNING (%p)",
				 sd_ctx_state_name(ep->ctx.state), (void *)comch_server);
	if (connection->app != SD_APP_LIVE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "connection %p is not connected (comch server %p)",
				 (void *)connection, (void *)comch_server);
	sd_comch_conn_close_locally(ep, connection);
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_task_send_set_conf(struct doca_comch_server *comch_server,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (void *)comch_server);
	return sd_comch_send_set_conf(&comch_server->ep, task_completion_cb, task_error_cb, num_send_tasks, __func__);
}

doca_error_t doca_comch_server_task_send_alloc_init(struct doca_comch_server *comch_server,
						    struct doca_comch_connection *peer, const void *msg, uint32_t len,
						    struct doca_comch_task_send **task)
{
	if (!sd_comch_server_valid(comch_server))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_SERVER_BAD, (void *)comch_server);
	return sd_comch_send_alloc(&comch_server->ep, peer, msg, len, task, __func__);
}
