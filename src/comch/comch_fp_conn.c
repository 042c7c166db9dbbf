/*
 * comch_fp_conn.c - the connection a producer or consumer is created on,
 * and the ids handed to them.
 */
#include "comch_fp_priv.h"
#include "sd_log.h"

struct sd_comch_ep *sd_fp_conn_ep(struct doca_comch_connection *conn, const char *func)
{
	struct sd_comch_ep *ep;

	if (!sd_comch_conn_valid(conn)) {
		SD_LOG_ERR_AS(func, "comch_connection %p is NULL or not a Comch connection", (void *)conn);
		return NULL;
	}
	ep = conn->ep;
	if (ep->magic != SD_COMCH_SERVER_MAGIC && ep->magic != SD_COMCH_CLIENT_MAGIC) {
		SD_LOG_ERR_AS(func, "comch_connection %p belongs to no live server or client", (void *)conn);
		return NULL;
	}
	return ep;
}

uint32_t sd_fp_next_id(uint32_t *counter)
{
	uint32_t id = (*counter)++;

	/* 0 and 0xffff are what programs use for "no consumer yet" and "none". */
	if (id == 0 || id == 0xffffu)
		id = (*counter)++;
	return id;
}
