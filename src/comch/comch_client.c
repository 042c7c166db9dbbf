/*
 * comch_client.c - the DOCA Comch client API.
 *
 * A client is created on a host-side device; the device's PCI address is
 * the host function it connects for, matched against the representor of
 * the server.  Starting it returns DOCA_ERROR_IN_PROGRESS (STARTING); it
 * keeps looking for its server until one of that name runs, and becomes
 * RUNNING from the progress call that sees the handshake done.
 */
#include <stdio.h>
#include <stdlib.h>

#include "comch_priv.h"
#include "sd_log.h"

#define SD_CLIENT_BAD "comch_client %p is NULL or not a live Comch client"

doca_error_t doca_comch_client_create(struct doca_dev *dev, const char *name, struct doca_comch_client **comch_client)
{
	struct doca_comch_client *client;
	doca_error_t err;

	if (dev == NULL || name == NULL || comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL",
				 dev == NULL ? "dev" : name == NULL ? "name" : "output pointer comch_client");
	if (!priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device", (void *)dev);
	if (!dev->node->caps.comch_client)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED,
				 "device %s cannot host a Comch client (clients live on host-side devices)",
				 dev->node->pci_addr);

	client = calloc(1, sizeof(*client));
	if (client == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "out of memory for a Comch client");
	err = sd_comch_ep_init(&client->ep, false, dev, name, __func__);
	if (err != DOCA_SUCCESS) {
		free(client);
		return err;
	}
	snprintf(client->ep.host_fn, sizeof(client->ep.host_fn), "%s", dev->node->pci_addr);
	*comch_client = client;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_destroy(struct doca_comch_client *comch_client)
{
	doca_error_t err;

	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (void *)comch_client);
	err = sd_comch_ep_check_unused(&comch_client->ep, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	err = priv_doca_ctx_fini(&comch_client->ep.ctx, __func__); /* refuses unless IDLE */
	if (err != DOCA_SUCCESS)
		return err;
	sd_comch_ep_fini(&comch_client->ep);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_client_as_ctx(struct doca_comch_client *comch_client)
{
	if (!sd_comch_client_valid(comch_client)) {
		SD_LOG_ERR(SD_CLIENT_BAD, (void *)comch_client);
		return NULL;
	}
	return &comch_client->ep.ctx;
}

doca_error_t doca_comch_client_set_max_msg_size(struct doca_comch_client *comch_client, uint32_t size)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (void *)comch_client);
	return sd_comch_ep_set_max_msg(&comch_client->ep, size, __func__);
}

doca_error_t doca_comch_client_get_max_msg_size(const struct doca_comch_client *comch_client, uint32_t *size)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (const void *)comch_client);
	if (size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size is NULL (comch client %p)", (const void *)comch_client);
	*size = comch_client->ep.max_msg;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_set_recv_queue_size(struct doca_comch_client *comch_client, uint32_t size)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (void *)comch_client);
	return sd_comch_ep_set_recv_queue(&comch_client->ep, size, __func__);
}

doca_error_t doca_comch_client_get_recv_queue_size(const struct doca_comch_client *comch_client, uint32_t *size)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (const void *)comch_client);
	if (size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size is NULL (comch client %p)", (const void *)comch_client);
	*size = comch_client->ep.recv_queue;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_get_device(const struct doca_comch_client *comch_client, struct doca_dev **dev)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (const void *)comch_client);
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev is NULL (comch client %p)", (const void *)comch_client);
	*dev = comch_client->ep.ctx.dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_get_connection(const struct doca_comch_client *comch_client,
					      struct doca_comch_connection **connection)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (const void *)comch_client);
	if (connection == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "connection is NULL (comch client %p)",
				 (const void *)comch_client);
	if (comch_client->ep.ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "context is %s, the connection exists only while the client is RUNNING (%p)",
				 sd_ctx_state_name(comch_client->ep.ctx.state), (const void *)comch_client);
	*connection = &comch_client->ep.conns[0];
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_task_send_set_conf(struct doca_comch_client *comch_client,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (void *)comch_client);
	return sd_comch_send_set_conf(&comch_client->ep, task_completion_cb, task_error_cb, num_send_tasks, __func__);
}

doca_error_t doca_comch_client_task_send_alloc_init(struct doca_comch_client *comch_client,
						    struct doca_comch_connection *peer, const void *msg, uint32_t len,
						    struct doca_comch_task_send **task)
{
	if (!sd_comch_client_valid(comch_client))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_CLIENT_BAD, (void *)comch_client);
	return sd_comch_send_alloc(&comch_client->ep, peer, msg, len, task, __func__);
}
