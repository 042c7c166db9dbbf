/*
 * rdma_sync_event.c - the remote-net sync event tasks: get, notify-set and
 * notify-add act on the 64-bit value behind a doca_sync_event_remote_net
 * handle through the one entry point the sync event library offers for it
 * (sd_sync_event.h), atomically, as a card's atomic would.
 */
#include <string.h>

#include "rdma_priv.h"
#include "sd_sync_event.h"

doca_error_t sd_rdma_sync_event_apply(struct sd_rdma_task *t, enum sd_rdma_type type)
{
	struct doca_sync_event_remote_net *ev = t->event;
	uint64_t operand = 0, old = 0;
	doca_error_t err;

	switch (type) {
	case SD_RDMA_SE_GET:
		err = priv_doca_sync_event_remote_net_apply(ev, SD_SYNC_EVENT_OP_GET, 0, &old);
		if (err == DOCA_SUCCESS)
			memcpy(t->dst->data + t->dst->data_len, &old, sizeof(old));
		return err;
	case SD_RDMA_SE_SET:
		memcpy(&operand, t->src->data, sizeof(operand));
		return priv_doca_sync_event_remote_net_apply(ev, SD_SYNC_EVENT_OP_SET, operand, NULL);
	case SD_RDMA_SE_ADD:
		err = priv_doca_sync_event_remote_net_apply(ev, SD_SYNC_EVENT_OP_ADD, t->op1, &old);
		if (err == DOCA_SUCCESS)
			memcpy(t->result->data + t->result->data_len, &old, sizeof(old));
		return err;
	default:
		return DOCA_ERROR_INVALID_VALUE;
	}
}
