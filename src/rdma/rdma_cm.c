/*
 * rdma_cm.c - connection-manager addresses, and the connection-manager
 * calls that this build does not carry yet.
 *
 * Addresses are real objects (parsed and kept).  Listening, connecting to
 * an address, accept and reject answer NOT_SUPPORTED, as a device without
 * a connection manager does, with one record that points to the
 * out-of-band blobs (doca_rdma_export / doca_rdma_connect), which work.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_priv.h"
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

/* The one refusal of every connection-manager call of this build. */
static doca_error_t sd_rdma_no_cm(const char *func)
{
	return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED,
			    "this softdoca build has no RDMA connection manager; connect with doca_rdma_export and "
			    "doca_rdma_connect blobs instead (docs/rdma.md)");
}

doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	doca_error_t err = sd_rdma_check(rdma, __func__);

	(void)port;
	return err != DOCA_SUCCESS ? err : sd_rdma_no_cm(__func__);
}

doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	doca_error_t err = sd_rdma_check(rdma, __func__);

	(void)port;
	return err != DOCA_SUCCESS ? err : sd_rdma_no_cm(__func__);
}

doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma, struct doca_rdma_addr *addr,
				       union doca_data connection_user_data)
{
	doca_error_t err = sd_rdma_check(rdma, __func__);

	(void)connection_user_data;
	if (err != DOCA_SUCCESS)
		return err;
	if (!sd_rdma_addr_valid(addr))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "addr %p is NULL or not a live RDMA address", (void *)addr);
	return sd_rdma_no_cm(__func__);
}

doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *rdma_connection, void *private_data,
					 uint8_t private_data_len)
{
	(void)private_data;
	(void)private_data_len;
	if (!sd_rdma_conn_is_valid(rdma_connection))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rdma_connection %p is NULL or not a live connection",
				 (void *)rdma_connection);
	return sd_rdma_no_cm(__func__);
}

doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *rdma_connection)
{
	if (!sd_rdma_conn_is_valid(rdma_connection))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rdma_connection %p is NULL or not a live connection",
				 (void *)rdma_connection);
	return sd_rdma_no_cm(__func__);
}
