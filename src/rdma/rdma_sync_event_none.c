/*
 * rdma_sync_event_none.c - the remote-net sync event tasks in a build
 * without the sync event library (src/common/sync_event): the device
 * reports the three task types as unsupported, their set_conf refuses
 * with NOT_SUPPORTED, and no task of them can ever run.  The build picks
 * rdma_sync_event.c instead as soon as the sync event library is there.
 */
#include "rdma_priv.h"

bool sd_rdma_sync_event_available(void)
{
	return false;
}

doca_error_t sd_rdma_sync_event_apply(struct sd_rdma_task *t, enum sd_rdma_type type)
{
	(void)t;
	(void)type;
	return DOCA_ERROR_NOT_SUPPORTED; /* unreachable: set_conf refused the types */
}
