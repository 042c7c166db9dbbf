/*
 * comch_fp_caps.c - capabilities of the fast path, and its DPA entry
 * points, which softdoca cannot offer.
 *
 * The limits are softdoca values (SD_FP_* in comch_fp_priv.h), the same on
 * every device that has Comch; docs/comch-fast-path.md lists them.
 */
#include "comch_fp_priv.h"
#include "sd_log.h"

/* The device behind `devinfo` (NULL after a log record) with its `out` checked. */
static const struct sd_device *sd_fp_caps_node(const struct doca_devinfo *devinfo, const void *out, const char *func)
{
	const struct sd_device *node = devinfo == NULL ? NULL : priv_doca_devinfo_node(devinfo);

	if (node == NULL || out == NULL) {
		SD_LOG_ERR_AS(func, "%s is NULL or not a device info of this process",
			      node == NULL ? "devinfo" : "the output pointer");
		return NULL;
	}
	return node;
}

static bool sd_fp_node_has_comch(const struct sd_device *node)
{
	return node->caps.comch_server || node->caps.comch_client;
}

#define SD_FP_CAP(fn, param, value, needs_comch)                                                      \
	doca_error_t fn(const struct doca_devinfo *devinfo, uint32_t *param)                         \
	{                                                                                            \
		const struct sd_device *node = sd_fp_caps_node(devinfo, param, __func__);           \
                                                                                                     \
		if (node == NULL)                                                                    \
			return DOCA_ERROR_INVALID_VALUE;                                             \
		if ((needs_comch) && !sd_fp_node_has_comch(node))                                    \
			return DOCA_ERROR_NOT_SUPPORTED;                                             \
		*param = (value);                                                                    \
		return DOCA_SUCCESS;                                                                 \
	}

SD_FP_CAP(doca_comch_producer_cap_get_max_num_tasks, max_num_tasks, SD_FP_MAX_TASKS, false)
SD_FP_CAP(doca_comch_producer_cap_get_max_buf_size, max_buf_size, SD_FP_MAX_BUF, true)
SD_FP_CAP(doca_comch_producer_cap_get_max_buf_list_len, max_buf_list_len, 1u, true)
SD_FP_CAP(doca_comch_producer_cap_get_max_producers, max_producers, SD_FP_MAX_PEERS, false)
SD_FP_CAP(doca_comch_consumer_cap_get_max_num_tasks, max_num_tasks, SD_FP_MAX_TASKS, false)
SD_FP_CAP(doca_comch_consumer_cap_get_max_buf_size, max_buf_size, SD_FP_MAX_BUF, true)
SD_FP_CAP(doca_comch_consumer_cap_get_max_buf_list_len, max_buf_list_len, 1u, true)
SD_FP_CAP(doca_comch_consumer_cap_get_max_consumers, max_consumers, SD_FP_MAX_PEERS, false)
SD_FP_CAP(doca_comch_consumer_cap_get_max_imm_data_len, max_imm_data_len, SD_FP_MAX_IMM, false)

static doca_error_t sd_fp_cap_supported(const struct doca_devinfo *devinfo, const char *func)
{
	const struct sd_device *node = sd_fp_caps_node(devinfo, devinfo, func);

	if (node == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return sd_fp_node_has_comch(node) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_fp_cap_supported(devinfo, __func__);
}

doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_fp_cap_supported(devinfo, __func__);
}

/* ---- DPA: not in softdoca ---- */

/* One record: NULL arguments are INVALID_VALUE, everything else NOT_SUPPORTED. */
static doca_error_t sd_fp_no_dpa(const void *obj, const char *func)
{
	if (obj == NULL) {
		SD_LOG_ERR_AS(func, "an argument is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SD_LOG_ERR_AS(func, "the Comch fast path on DPA is not supported: softdoca has no DPA; run the data path "
			    "on the CPU (progress engine) instead");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer, uint32_t dev_num_send)
{
	(void)dev_num_send;
	return sd_fp_no_dpa(producer, __func__);
}

doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
						       struct doca_dpa_completion *dpa_comp)
{
	return sd_fp_no_dpa(producer == NULL ? NULL : dpa_comp, __func__);
}

doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
						doca_dpa_dev_comch_producer_t *dpa_producer)
{
	return sd_fp_no_dpa(producer == NULL ? NULL : (const void *)dpa_producer, __func__);
}

doca_error_t doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp)
{
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp,
							   struct doca_dpa_thread *dpa_thread)
{
	(void)dpa_thread;
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp)
{
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp)
{
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp)
{
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_get_dpa_handle(
	struct doca_comch_consumer_completion *consumer_comp,
	doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle)
{
	return sd_fp_no_dpa(consumer_comp == NULL ? NULL : (const void *)consumer_comp_handle, __func__);
}

doca_error_t doca_comch_consumer_completion_set_max_num_consumers(struct doca_comch_consumer_completion *consumer_comp,
								  uint32_t max_num_consumers)
{
	(void)max_num_consumers;
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_get_max_num_consumers(
	const struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers)
{
	return sd_fp_no_dpa(consumer_comp == NULL ? NULL : (const void *)max_num_consumers, __func__);
}

doca_error_t doca_comch_consumer_completion_set_max_num_recv(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t max_num_recv)
{
	(void)max_num_recv;
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_get_max_num_recv(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *max_num_recv)
{
	return sd_fp_no_dpa(consumer_comp == NULL ? NULL : (const void *)max_num_recv, __func__);
}

doca_error_t doca_comch_consumer_completion_set_imm_data_len(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t imm_data_len)
{
	(void)imm_data_len;
	return sd_fp_no_dpa(consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_completion_get_imm_data_len(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *imm_data_len)
{
	return sd_fp_no_dpa(consumer_comp == NULL ? NULL : (const void *)imm_data_len, __func__);
}

doca_error_t doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer, uint32_t dev_num_recv)
{
	(void)dev_num_recv;
	return sd_fp_no_dpa(consumer, __func__);
}

doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
						struct doca_comch_consumer_completion *consumer_comp, uint32_t user_data)
{
	(void)user_data;
	return sd_fp_no_dpa(consumer == NULL ? NULL : consumer_comp, __func__);
}

doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
						doca_dpa_dev_comch_consumer_t *dpa_consumer)
{
	return sd_fp_no_dpa(consumer == NULL ? NULL : (const void *)dpa_consumer, __func__);
}
