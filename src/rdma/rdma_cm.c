/*
 * rdma_cm.c - the public calls of the connection manager: addresses,
 * listening, connecting to an address, accept and reject.
 *
 * Each call checks its arguments and states and then only starts the
 * work: the sockets move in the context's event step (rdma_cm_step.c) and
 * the outcome reaches the program through the connection callbacks,
 * delivered by doca_pe_progress.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "rdma_cm.h"
#include "sd_log.h"

static bool sd_rdma_addr_parses(enum doca_rdma_addr_type type, const char *text)
{
	unsigned char bin[16];

	if (type == DOCA_RDMA_ADDR_TYPE_IPv4)
		return inet_pton(AF_INET, text, bin) == 1;
	return inet_pton(AF_INET6, text, bin) == 1; /* IPv6 and GID share the text form */
}

doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type, const char *address, uint16_t port,
				   struct doca_rdma_addr **addr)
{
	struct doca_rdma_addr *a;

	if (address == NULL || addr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL", address == NULL ? "address" : "addr");
	if (addr_type != DOCA_RDMA_ADDR_TYPE_IPv4 && addr_type != DOCA_RDMA_ADDR_TYPE_IPv6 &&
	    addr_type != DOCA_RDMA_ADDR_TYPE_GID)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "addr_type %d is not a doca_rdma_addr_type", (int)addr_type);
	if (strlen(address) >= sizeof(a->text) || !sd_rdma_addr_parses(addr_type, address))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "address \"%.80s\" is not a valid %s address", address,
				 addr_type == DOCA_RDMA_ADDR_TYPE_IPv4 ? "IPv4" : "IPv6/GID");
	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate an RDMA address");
	a->type = addr_type;
	a->port = port;
	strcpy(a->text, address);
	a->magic = SD_RDMA_ADDR_MAGIC;
	*addr = a;
	return DOCA_SUCCESS;
}

static bool sd_rdma_addr_valid(const struct doca_rdma_addr *addr)
{
	return addr != NULL && addr->magic == SD_RDMA_ADDR_MAGIC;
}

doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr)
{
	if (!sd_rdma_addr_valid(addr))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "addr %p is NULL or not a live RDMA address", (void *)addr);
	addr->magic = 0;
	free(addr);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr, enum doca_rdma_addr_type *addr_type,
				       const char **address, uint16_t *port)
{
	if (!sd_rdma_addr_valid(addr) || addr_type == NULL || address == NULL || port == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "addr %p is not a live RDMA address or an output is NULL",
				 (void *)addr);
	*addr_type = addr->type;
	*address = addr->text;
	*port = addr->port;
	return DOCA_SUCCESS;
}

/* The checks that listening and connecting share: a RUNNING context with its callbacks. */
static doca_error_t sd_rdma_cm_check_ctx(struct doca_rdma *rdma, const char *func)
{
	doca_error_t err = sd_rdma_check(rdma, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (rdma->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE, "rdma %p is %s; use the connection manager once it is RUNNING",
				    (void *)rdma, sd_ctx_state_name(rdma->ctx.state));
	if (rdma->cb_established == NULL || rdma->cb_failure == NULL || rdma->cb_disconnect == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
				    "rdma %p has no connection callbacks, so no connection could be reported; set them "
				    "with doca_rdma_set_connection_state_callbacks before start",
				    (void *)rdma);
	return sd_rdma_cm_get(rdma, func) != NULL ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;
}

doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	doca_error_t err = sd_rdma_cm_check_ctx(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (rdma->cb_request == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "rdma %p has no connection request callback, so no request could be accepted; set one "
				 "with doca_rdma_set_connection_state_callbacks before start",
				 (void *)rdma);
	if (port == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "port 0 is no port to listen on; pick one for the clients");
	if (rdma->cm->listen_fd >= 0)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "rdma %p listens on port %u already; one listener per context",
				 (void *)rdma, rdma->cm->listen_port);
	int fd = sd_rdma_cm_sock_listen(rdma->node, port);
	if (fd < 0)
		return SD_REJECT(DOCA_ERROR_CONNECTION_ABORTED, "rdma %p cannot listen on port %u of device %s: %s%s",
				 (void *)rdma, port, rdma->node->pci_addr, strerror(errno),
				 errno == EADDRINUSE ? " (another program listens there; pick another port)" : "");
	if (!sd_rdma_cm_watch(rdma->cm, fd, EPOLLIN, NULL, false)) {
		close(fd);
		return SD_REJECT(DOCA_ERROR_CONNECTION_ABORTED, "rdma %p cannot watch its listening socket: %s",
				 (void *)rdma, strerror(errno));
	}
	rdma->cm->listen_fd = fd;
	rdma->cm->listen_port = port;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	doca_error_t err = sd_rdma_check(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (rdma->cm == NULL || rdma->cm->listen_fd < 0 || rdma->cm->listen_port != port)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rdma %p does not listen on port %u", (void *)rdma, port);
	sd_rdma_cm_forget(rdma->cm, rdma->cm->listen_fd);
	rdma->cm->listen_fd = -1;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma, struct doca_rdma_addr *addr,
				       union doca_data connection_user_data)
{
	struct doca_rdma_connection *conn;
	doca_error_t err = sd_rdma_check(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (!sd_rdma_addr_valid(addr))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "addr %p is NULL or not a live RDMA address", (void *)addr);
	err = sd_rdma_cm_check_ctx(rdma, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	err = sd_rdma_conn_add(rdma, &conn, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	conn->user_data = connection_user_data;
	int fd = sd_rdma_cm_sock_connect(addr);
	int saved = errno;
	struct sd_rdma_cm_link *link = sd_rdma_cm_link_new(rdma, fd, false);
	if (link == NULL) {
		if (fd >= 0)
			close(fd);
		rdma->num_conns--;
		sd_rdma_conn_free(conn);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a connection-manager link (rdma %p)", (void *)rdma);
	}
	sd_rdma_cm_link_bind(link, conn);
	link->addr = *addr;
	link->deadline_ns = sd_mono_ns() + (uint64_t)rdma->cm_timeout_ms * 1000000ull;
	if (fd < 0) { /* reported as every unreachable server is: by the failure callback */
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, __func__,
				     "rdma %p: connection %u: cannot reach %s port %u (%s)", (void *)rdma, conn->id,
				     addr->text, addr->port, strerror(saved));
		sd_rdma_cm_link_fail(link);
	}
	return DOCA_SUCCESS;
}

/* The pending request that `conn` must be for accept and reject, else NULL (logged). */
static struct sd_rdma_cm_link *sd_rdma_cm_request_of(struct doca_rdma_connection *conn, const char *func)
{
	if (!sd_rdma_conn_is_valid(conn)) {
		SD_LOG_ERR_AS(func, "rdma_connection %p is NULL or not a live connection", (void *)conn);
		return NULL;
	}
	struct sd_rdma_cm_link *link = conn->cm;
	if (link == NULL || !link->server || link->phase != SD_RDMA_CM_REQUESTED || link->doomed) {
		SD_LOG_ERR_AS(func,
			      "connection %u is not a request waiting for an answer (only a connection handed to the "
			      "connection request callback is, once)",
			      conn->id);
		return NULL;
	}
	return link;
}

doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *rdma_connection, void *private_data,
					 uint8_t private_data_len)
{
	struct sd_rdma_cm_link *link = sd_rdma_cm_request_of(rdma_connection, __func__);

	if (link == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (private_data == NULL && private_data_len != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "private_data is NULL but private_data_len is %u",
				 private_data_len);
	if (link->rdma->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the context of connection %u is %s; accept while it is RUNNING",
				 rdma_connection->id, sd_ctx_state_name(link->rdma->ctx.state));
	if (sd_rdma_conn_join(rdma_connection, link->peer_blob, SD_RDMA_BLOB_LEN, __func__) != DOCA_SUCCESS) {
		sd_rdma_cm_link_send(link, SD_RDMA_CM_REJECT, NULL, 0);
		sd_rdma_cm_link_close(link);
		link->doomed = true;
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	sd_rdma_cm_link_send(link, SD_RDMA_CM_ACCEPT, private_data, private_data_len);
	link->phase = SD_RDMA_CM_ACCEPTED;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *rdma_connection)
{
	struct sd_rdma_cm_link *link = sd_rdma_cm_request_of(rdma_connection, __func__);

	if (link == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	sd_rdma_cm_link_send(link, SD_RDMA_CM_REJECT, NULL, 0);
	sd_rdma_cm_link_close(link);
	link->doomed = true; /* the connection is gone at the next step */
	return DOCA_SUCCESS;
}
