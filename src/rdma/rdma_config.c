/*
 * rdma_config.c - the settings of an RDMA context: set while IDLE, read in
 * any state.  Values outside what the device offers are refused here, so a
 * start never meets them.
 */
#include "rdma_priv.h"
#include "sd_log.h"

/* A getter: check the context and the output pointer, then copy one field. */
#define SD_RDMA_GETTER(name, type, field)                                                                  \
	doca_error_t doca_rdma_get_##name(const struct doca_rdma *rdma, type *out)                          \
	{                                                                                                   \
		doca_error_t err = sd_rdma_check(rdma, __func__);                                           \
		if (err != DOCA_SUCCESS)                                                                    \
			return err;                                                                         \
		if (out == NULL)                                                                            \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer is NULL (rdma %p)",      \
					 (const void *)rdma);                                               \
		*out = rdma->field;                                                                         \
		return DOCA_SUCCESS;                                                                        \
	}

/* Two getters of the header take a non-const context. */
#define SD_RDMA_GETTER_MUT(name, type, field)                                                              \
	doca_error_t doca_rdma_get_##name(struct doca_rdma *rdma, type *out)                                \
	{                                                                                                   \
		doca_error_t err = sd_rdma_check(rdma, __func__);                                           \
		if (err != DOCA_SUCCESS)                                                                    \
			return err;                                                                         \
		if (out == NULL)                                                                            \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer is NULL (rdma %p)",      \
					 (const void *)rdma);                                               \
		*out = rdma->field;                                                                         \
		return DOCA_SUCCESS;                                                                        \
	}

SD_RDMA_GETTER(send_queue_size, uint32_t, send_queue_size)
SD_RDMA_GETTER(recv_queue_size, uint32_t, recv_queue_size)
SD_RDMA_GETTER(max_send_buf_list_len, uint32_t, max_send_list_len)
SD_RDMA_GETTER(transport_type, enum doca_rdma_transport_type, transport)
SD_RDMA_GETTER(mtu, enum doca_mtu_size, mtu)
SD_RDMA_GETTER_MUT(permissions, uint32_t, permissions)
SD_RDMA_GETTER(grh_enabled, uint8_t, grh_enabled)
SD_RDMA_GETTER(gid_index, uint32_t, gid_index)
SD_RDMA_GETTER(sl, uint32_t, sl)
SD_RDMA_GETTER(connection_request_timeout, uint16_t, cm_timeout_ms)
SD_RDMA_GETTER_MUT(max_num_connections, uint16_t, max_conns)
SD_RDMA_GETTER(rnr_retry_count, uint8_t, rnr_retry)

doca_error_t doca_rdma_task_receive_get_dst_buf_list_len(const struct doca_rdma *rdma, uint32_t *buf_list_len)
{
	doca_error_t err = sd_rdma_check(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (buf_list_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "buf_list_len is NULL (rdma %p)", (const void *)rdma);
	*buf_list_len = rdma->recv_list_len;
	return DOCA_SUCCESS;
}

/* The checks of a setter: the context is IDLE and lo <= value <= hi; one ERROR record otherwise. */
static doca_error_t sd_rdma_check_value(const struct doca_rdma *rdma, uint64_t value, uint64_t lo, uint64_t hi,
					const char *what, const char *func)
{
	doca_error_t err = sd_rdma_check_idle(rdma, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (value < lo || value > hi)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "%s %llu is outside %llu..%llu, the range this device allows (rdma %p)", what,
				    (unsigned long long)value, (unsigned long long)lo, (unsigned long long)hi,
				    (const void *)rdma);
	return DOCA_SUCCESS;
}

/* A range-checked setter of a 32-bit field. */
static doca_error_t sd_rdma_set_u32(struct doca_rdma *rdma, uint32_t *field, uint32_t value, uint32_t lo,
				    uint32_t hi, const char *what, const char *func)
{
	doca_error_t err = sd_rdma_check_value(rdma, value, lo, hi, what, func);

	if (err == DOCA_SUCCESS)
		*field = value;
	return err;
}

doca_error_t doca_rdma_set_send_queue_size(struct doca_rdma *rdma, uint32_t send_queue_size)
{
	uint32_t hi = sd_rdma_is_valid(rdma) ? rdma->node->caps.rdma_max_send_queue : 0;

	return sd_rdma_set_u32(rdma, rdma != NULL ? &rdma->send_queue_size : NULL, send_queue_size, 1, hi,
			       "send_queue_size", __func__);
}

doca_error_t doca_rdma_set_recv_queue_size(struct doca_rdma *rdma, uint32_t recv_queue_size)
{
	uint32_t hi = sd_rdma_is_valid(rdma) ? rdma->node->caps.rdma_max_recv_queue : 0;

	return sd_rdma_set_u32(rdma, rdma != NULL ? &rdma->recv_queue_size : NULL, recv_queue_size, 1, hi,
			       "recv_queue_size", __func__);
}

doca_error_t doca_rdma_set_max_send_buf_list_len(struct doca_rdma *rdma, uint32_t max_send_buf_list_len)
{
	uint32_t hi = sd_rdma_is_valid(rdma) ? rdma->node->caps.rdma_max_list_len : 0;

	return sd_rdma_set_u32(rdma, rdma != NULL ? &rdma->max_send_list_len : NULL, max_send_buf_list_len, 1,
			       hi, "max_send_buf_list_len", __func__);
}

doca_error_t doca_rdma_task_receive_set_dst_buf_list_len(struct doca_rdma *rdma, uint32_t buf_list_len)
{
	uint32_t hi = sd_rdma_is_valid(rdma) ? rdma->node->caps.rdma_max_list_len : 0;

	return sd_rdma_set_u32(rdma, rdma != NULL ? &rdma->recv_list_len : NULL, buf_list_len, 1, hi,
			       "buf_list_len", __func__);
}

doca_error_t doca_rdma_set_gid_index(struct doca_rdma *rdma, uint32_t gid_index)
{
	uint32_t n = sd_rdma_is_valid(rdma) ? rdma->node->caps.rdma_gid_table_size : 0;

	return sd_rdma_set_u32(rdma, rdma != NULL ? &rdma->gid_index : NULL, gid_index, 0, n > 0 ? n - 1 : 0,
			       "gid_index", __func__);
}

doca_error_t doca_rdma_set_sl(struct doca_rdma *rdma, uint32_t sl)
{
	return sd_rdma_set_u32(rdma, rdma != NULL ? &rdma->sl : NULL, sl, 0, 15, "sl", __func__);
}

doca_error_t doca_rdma_set_transport_type(struct doca_rdma *rdma, enum doca_rdma_transport_type transport_type)
{
	doca_error_t err = sd_rdma_check_idle(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED,
				 "transport DC is not offered by softdoca (no dynamically connected emulation); "
				 "use DOCA_RDMA_TRANSPORT_TYPE_RC (rdma %p)",
				 (void *)rdma);
	if (transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "transport_type %d is not a doca_rdma_transport_type",
				 (int)transport_type);
	rdma->transport = transport_type;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_mtu(struct doca_rdma *rdma, enum doca_mtu_size mtu)
{
	doca_error_t err = sd_rdma_check_idle(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if ((unsigned)mtu > DOCA_MTU_SIZE_4K_BYTES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "mtu %d is not an RDMA path MTU; use DOCA_MTU_SIZE_256_BYTES..DOCA_MTU_SIZE_4K_BYTES",
				 (int)mtu);
	rdma->mtu = mtu;
	return DOCA_SUCCESS;
}

#define SD_RDMA_PERM_ALL                                                                                    \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE |       \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC)

doca_error_t doca_rdma_set_permissions(struct doca_rdma *rdma, uint32_t permissions)
{
	doca_error_t err = sd_rdma_check_idle(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (permissions & ~(uint32_t)SD_RDMA_PERM_ALL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "permissions 0x%x hold bits other than LOCAL_READ_WRITE and the RDMA rights (rdma %p)",
				 permissions, (void *)rdma);
	rdma->permissions = permissions;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_grh_enabled(struct doca_rdma *rdma, uint8_t grh_enabled)
{
	doca_error_t err = sd_rdma_check_value(rdma, grh_enabled, 0, 1, "grh_enabled", __func__);

	if (err == DOCA_SUCCESS)
		rdma->grh_enabled = grh_enabled;
	return err;
}

doca_error_t doca_rdma_set_connection_request_timeout(struct doca_rdma *rdma, uint16_t timeout)
{
	doca_error_t err = sd_rdma_check_value(rdma, timeout, 1, UINT16_MAX, "connection request timeout (ms)", __func__);

	if (err == DOCA_SUCCESS)
		rdma->cm_timeout_ms = timeout;
	return err;
}

doca_error_t doca_rdma_set_max_num_connections(struct doca_rdma *rdma, uint16_t max_num_connections)
{
	doca_error_t err = sd_rdma_check_value(rdma, max_num_connections, 1, UINT16_MAX, "max_num_connections", __func__);

	if (err == DOCA_SUCCESS)
		rdma->max_conns = max_num_connections;
	return err;
}

doca_error_t doca_rdma_set_rnr_retry_count(struct doca_rdma *rdma, uint8_t rnr_retry_count)
{
	doca_error_t err = sd_rdma_check_value(rdma, rnr_retry_count, 0, 7, "rnr_retry_count", __func__);

	if (err == DOCA_SUCCESS)
		rdma->rnr_retry = rnr_retry_count;
	return err;
}

doca_error_t doca_rdma_set_connection_state_callbacks(struct doca_rdma *rdma,
						      doca_rdma_connection_request_cb_t doca_rdma_connect_request_cb,
						      doca_rdma_connection_established_cb_t doca_rdma_connect_established_cb,
						      doca_rdma_connection_failure_cb_t doca_rdma_connect_failure_cb,
						      doca_rdma_connection_disconnection_cb_t doca_rdma_disconnect_cb)
{
	doca_error_t err = sd_rdma_check_idle(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	/* The request callback may be NULL: a program that only connects as a client never gets one. */
	if (doca_rdma_connect_established_cb == NULL || doca_rdma_connect_failure_cb == NULL ||
	    doca_rdma_disconnect_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "the established, failure and disconnect callbacks are required (rdma %p); only the "
				 "request callback may be NULL, for a client",
				 (void *)rdma);
	rdma->cb_request = doca_rdma_connect_request_cb;
	rdma->cb_established = doca_rdma_connect_established_cb;
	rdma->cb_failure = doca_rdma_connect_failure_cb;
	rdma->cb_disconnect = doca_rdma_disconnect_cb;
	return DOCA_SUCCESS;
}
