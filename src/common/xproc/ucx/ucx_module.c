/*
 * ucx_module.c - the table libdoca_common finds in this shared object.
 */
#include <stdlib.h>

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
	.msg_open = sd_ucx_msg_open,
	.msg_connect = sd_ucx_msg_connect,
	.msg_ops = &sd_ucx_msg_ops,
};

/*
 * Exit without cleanup: no thread of ours runs into the end of the process.
 * An atexit handler registered when the module is opened runs before the
 * handlers registered at program start (leak checkers among them).
 */
static void sd_ucx_at_exit(void)
{
	sd_ucx_server_at_exit();
	sd_ucx_client_at_exit();
}

const struct sd_ucx_core_ops *sd_ucx_core;

SD_PRIV const struct sd_ucx_module *priv_doca_xproc_ucx_module(uint32_t abi, const struct sd_ucx_core_ops *core);

SD_PRIV const struct sd_ucx_module *priv_doca_xproc_ucx_module(uint32_t abi, const struct sd_ucx_core_ops *core)
{
	if (abi != SD_UCX_MODULE_ABI || core == NULL)
		return NULL;
	sd_ucx_core = core;
	(void)atexit(sd_ucx_at_exit); /* libdoca_common asks once per process */
	return &sd_ucx_module;
}
