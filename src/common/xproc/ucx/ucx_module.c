/*
 * ucx_module.c - the table libdoca_common finds in this shared object.
 */
#include "sd_visibility.h"
#include "ucx_priv.h"

static const struct sd_ucx_module sd_ucx_module = {
	.abi = SD_UCX_MODULE_ABI,
	.export_open = sd_ucx_export_open,
	.export_close = sd_ucx_export_close,
	.import_open = sd_ucx_import_open,
	.import_close = sd_ucx_import_close,
	.remote_ops = &sd_ucx_remote_ops,
	.timeout_ms = sd_ucx_timeout_ms,
};

SD_PRIV const struct sd_ucx_module *priv_doca_xproc_ucx_module(uint32_t abi);

SD_PRIV const struct sd_ucx_module *priv_doca_xproc_ucx_module(uint32_t abi)
{
	return abi == SD_UCX_MODULE_ABI ? &sd_ucx_module : NULL;
}
