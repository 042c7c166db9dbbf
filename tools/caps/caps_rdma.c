/*
 * caps_rdma.c - what DOCA RDMA can do on one device: the task types, the
 * transports, the queue and message limits and the GID table, read through
 * doca_rdma.h's capability queries.
 */
#include <stdio.h>

#include <doca_rdma.h>

#include "caps.h"

static const struct {
	const char *key;
	doca_error_t (*fn)(const struct doca_devinfo *);
} caps_rdma_tasks[] = {
	{"task_receive", doca_rdma_cap_task_receive_is_supported},
	{"task_send", doca_rdma_cap_task_send_is_supported},
	{"task_send_imm", doca_rdma_cap_task_send_imm_is_supported},
	{"task_read", doca_rdma_cap_task_read_is_supported},
	{"task_write", doca_rdma_cap_task_write_is_supported},
	{"task_write_imm", doca_rdma_cap_task_write_imm_is_supported},
	{"task_atomic_cmp_swp", doca_rdma_cap_task_atomic_cmp_swp_is_supported},
	{"task_atomic_fetch_add", doca_rdma_cap_task_atomic_fetch_add_is_supported},
	{"task_remote_net_sync_event_get", doca_rdma_cap_task_remote_net_sync_event_get_is_supported},
	{"task_remote_net_sync_event_notify_set", doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported},
	{"task_remote_net_sync_event_notify_add", doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported},
};

static const struct {
	const char *key;
	doca_error_t (*fn)(const struct doca_devinfo *, uint32_t *);
} caps_rdma_limits[] = {
	{"max_send_queue_size", doca_rdma_cap_get_max_send_queue_size},
	{"max_recv_queue_size", doca_rdma_cap_get_max_recv_queue_size},
	{"max_send_buf_list_len", doca_rdma_cap_get_max_send_buf_list_len},
	{"max_message_size", doca_rdma_cap_get_max_message_size},
	{"gid_table_size", doca_rdma_cap_get_gid_table_size},
};

/* GID entry 0, in the usual colon-separated form. */
static void print_gid0(const struct doca_devinfo *info, int depth)
{
	struct doca_rdma_gid gid;
	char text[48];
	int n = 0;

	if (doca_rdma_cap_get_gid(info, 0, 1, &gid) != DOCA_SUCCESS)
		return;
	for (int i = 0; i < DOCA_GID_BYTE_LENGTH; i += 2)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%s%02x%02x", i ? ":" : "", gid.raw[i], gid.raw[i + 1]);
	caps_kv(depth, "gid_0", "%s", text);
}

void caps_print_rdma_caps(const struct doca_devinfo *info, int depth)
{
	uint32_t v;

	caps_section(depth, "rdma");
	caps_kv_supported(depth + 1, "transport_rc",
			  doca_rdma_cap_transport_type_is_supported(info, DOCA_RDMA_TRANSPORT_TYPE_RC));
	caps_kv_supported(depth + 1, "transport_dc",
			  doca_rdma_cap_transport_type_is_supported(info, DOCA_RDMA_TRANSPORT_TYPE_DC));
	for (size_t i = 0; i < sizeof(caps_rdma_tasks) / sizeof(caps_rdma_tasks[0]); i++)
		caps_kv_supported(depth + 1, caps_rdma_tasks[i].key, caps_rdma_tasks[i].fn(info));
	for (size_t i = 0; i < sizeof(caps_rdma_limits) / sizeof(caps_rdma_limits[0]); i++) {
		v = 0;
		doca_error_t err = caps_rdma_limits[i].fn(info, &v);
		caps_kv_u64(depth + 1, caps_rdma_limits[i].key, err, v);
	}
	print_gid0(info, depth + 1);
}
