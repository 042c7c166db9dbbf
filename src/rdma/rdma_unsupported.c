/*
 * rdma_unsupported.c - the calls that need hardware softdoca does not
 * emulate: DPA and GPU handles and the verbs bridge.  Each checks its
 * arguments, then answers NOT_SUPPORTED, as a device without the
 * capability does, in one record that names what is missing.
 */
#include "rdma_priv.h"
#include "sd_log.h"

static doca_error_t sd_rdma_no_hw(const struct doca_rdma *rdma, const void *arg, const char *what, const char *func)
{
	doca_error_t err = sd_rdma_check(rdma, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (arg == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "an argument is NULL (rdma %p)", (const void *)rdma);
	return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED, "device %s has no %s (softdoca does not emulate it)",
			    rdma->node->pci_addr, what);
}

doca_error_t doca_rdma_get_dpa_handle(struct doca_rdma *rdma, doca_dpa_dev_rdma_t *dpa_rdma)
{
	return sd_rdma_no_hw(rdma, dpa_rdma, "DPA", __func__);
}

doca_error_t doca_rdma_get_gpu_handle(struct doca_rdma *rdma, struct doca_gpu_dev_rdma **gpu_rdma)
{
	return sd_rdma_no_hw(rdma, gpu_rdma, "GPU datapath", __func__);
}

doca_error_t doca_rdma_dpa_completion_attach(struct doca_rdma *rdma, struct doca_dpa_completion *dpa_comp)
{
	return sd_rdma_no_hw(rdma, dpa_comp, "DPA", __func__);
}

doca_error_t doca_rdma_bridge_prepare_connection(struct doca_rdma *rdma, struct rdma_cm_id *cm_id,
						 struct doca_rdma_connection **rdma_connection)
{
	if (rdma_connection == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "rdma_connection is NULL");
	return sd_rdma_no_hw(rdma, cm_id, "verbs bridge (rdma_cm identifiers)", __func__);
}

doca_error_t doca_rdma_bridge_accept(struct doca_rdma *rdma, void *private_data, uint8_t private_data_len,
				     struct doca_rdma_connection *rdma_connection)
{
	(void)private_data;
	(void)private_data_len;
	return sd_rdma_no_hw(rdma, rdma_connection, "verbs bridge", __func__);
}

doca_error_t doca_rdma_bridge_established(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection)
{
	return sd_rdma_no_hw(rdma, rdma_connection, "verbs bridge", __func__);
}
