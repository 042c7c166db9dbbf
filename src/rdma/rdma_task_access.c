/*
 * rdma_task_access.c - the generic view and the field accessors of the
 * eleven RDMA task types.
 *
 * A setter changes a task only while the application holds it (allocated
 * or completed, not in flight); a getter reads any live task.  Either one,
 * given something that is not a live task of its type, leaves everything
 * as it is and says so in one ERROR record; a getter then yields zero.
 */
#include <stdint.h>

#include "rdma_priv.h"
#include "sd_log.h"

/* `task` may be changed by a setter named `func`; one ERROR record otherwise. */
static bool sd_rdma_task_settable(const void *task, enum sd_rdma_type type, const char *func)
{
	if (!sd_rdma_task_known(task, type, func))
		return false;
	if (((const struct doca_task *)task)->own == SD_TASK_IN_FLIGHT) {
		SD_LOG_ERR_AS(func, "task %p is submitted; change it after its completion callback", task);
		return false;
	}
	return true;
}

#define SD_RDMA_AS_TASK(name, type)                                                                         \
	struct doca_task *doca_rdma_task_##name##_as_task(struct doca_rdma_task_##name *task)                \
	{                                                                                                    \
		return sd_rdma_task_known(task, type, __func__) ? (struct doca_task *)task : NULL;           \
	}

#define SD_RDMA_SET(name, type, field, ctype, member)                                                       \
	void doca_rdma_task_##name##_set_##field(struct doca_rdma_task_##name *task, ctype value)            \
	{                                                                                                    \
		if (sd_rdma_task_settable(task, type, __func__))                                             \
			((struct sd_rdma_task *)task)->member = value;                                       \
	}

#define SD_RDMA_GET(name, type, field, ctype, member)                                                       \
	ctype doca_rdma_task_##name##_get_##field(const struct doca_rdma_task_##name *task)                  \
	{                                                                                                    \
		if (!sd_rdma_task_known(task, type, __func__))                                               \
			return (ctype)0;                                                                     \
		return ((const struct sd_rdma_task *)task)->member;                                          \
	}

/* The sync event handle is kept untyped: the library never looks inside it. */
#define SD_RDMA_SET_EVENT(name, type, ctype)                                                                \
	void doca_rdma_task_##name##_set_sync_event(struct doca_rdma_task_##name *task, ctype value)         \
	{                                                                                                    \
		if (sd_rdma_task_settable(task, type, __func__))                                             \
			((struct sd_rdma_task *)task)->event = (void *)(uintptr_t)value;                     \
	}

#define SD_RDMA_GET_EVENT(name, type, ctype)                                                                \
	ctype doca_rdma_task_##name##_get_sync_event(const struct doca_rdma_task_##name *task)               \
	{                                                                                                    \
		if (!sd_rdma_task_known(task, type, __func__))                                               \
			return NULL;                                                                         \
		return (ctype)((const struct sd_rdma_task *)task)->event;                                    \
	}

SD_RDMA_AS_TASK(receive, SD_RDMA_RECEIVE)
SD_RDMA_SET(receive, SD_RDMA_RECEIVE, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(receive, SD_RDMA_RECEIVE, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(receive, SD_RDMA_RECEIVE, result_opcode, enum doca_rdma_opcode, opcode)
SD_RDMA_GET(receive, SD_RDMA_RECEIVE, result_len, uint32_t, result_len)
SD_RDMA_GET(receive, SD_RDMA_RECEIVE, result_immediate_data, doca_be32_t, imm)
SD_RDMA_GET(receive, SD_RDMA_RECEIVE, result_rdma_connection, const struct doca_rdma_connection *, from)
SD_RDMA_AS_TASK(send, SD_RDMA_SEND)
SD_RDMA_SET(send, SD_RDMA_SEND, src_buf, const struct doca_buf *, src)
SD_RDMA_GET(send, SD_RDMA_SEND, src_buf, const struct doca_buf *, src)
SD_RDMA_SET(send, SD_RDMA_SEND, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(send, SD_RDMA_SEND, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(send_imm, SD_RDMA_SEND_IMM)
SD_RDMA_SET(send_imm, SD_RDMA_SEND_IMM, src_buf, const struct doca_buf *, src)
SD_RDMA_GET(send_imm, SD_RDMA_SEND_IMM, src_buf, const struct doca_buf *, src)
SD_RDMA_SET(send_imm, SD_RDMA_SEND_IMM, immediate_data, doca_be32_t, imm)
SD_RDMA_GET(send_imm, SD_RDMA_SEND_IMM, immediate_data, doca_be32_t, imm)
SD_RDMA_SET(send_imm, SD_RDMA_SEND_IMM, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(send_imm, SD_RDMA_SEND_IMM, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(read, SD_RDMA_READ)
SD_RDMA_SET(read, SD_RDMA_READ, src_buf, const struct doca_buf *, src)
SD_RDMA_GET(read, SD_RDMA_READ, src_buf, const struct doca_buf *, src)
SD_RDMA_SET(read, SD_RDMA_READ, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(read, SD_RDMA_READ, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(read, SD_RDMA_READ, result_len, uint32_t, result_len)
SD_RDMA_SET(read, SD_RDMA_READ, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(read, SD_RDMA_READ, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(write, SD_RDMA_WRITE)
SD_RDMA_SET(write, SD_RDMA_WRITE, src_buf, const struct doca_buf *, src)
SD_RDMA_GET(write, SD_RDMA_WRITE, src_buf, const struct doca_buf *, src)
SD_RDMA_SET(write, SD_RDMA_WRITE, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(write, SD_RDMA_WRITE, dst_buf, struct doca_buf *, dst)
SD_RDMA_SET(write, SD_RDMA_WRITE, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(write, SD_RDMA_WRITE, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(write_imm, SD_RDMA_WRITE_IMM)
SD_RDMA_SET(write_imm, SD_RDMA_WRITE_IMM, src_buf, const struct doca_buf *, src)
SD_RDMA_GET(write_imm, SD_RDMA_WRITE_IMM, src_buf, const struct doca_buf *, src)
SD_RDMA_SET(write_imm, SD_RDMA_WRITE_IMM, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(write_imm, SD_RDMA_WRITE_IMM, dst_buf, struct doca_buf *, dst)
SD_RDMA_SET(write_imm, SD_RDMA_WRITE_IMM, immediate_data, doca_be32_t, imm)
SD_RDMA_GET(write_imm, SD_RDMA_WRITE_IMM, immediate_data, doca_be32_t, imm)
SD_RDMA_SET(write_imm, SD_RDMA_WRITE_IMM, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(write_imm, SD_RDMA_WRITE_IMM, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(atomic_cmp_swp, SD_RDMA_CMP_SWP)
SD_RDMA_SET(atomic_cmp_swp, SD_RDMA_CMP_SWP, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(atomic_cmp_swp, SD_RDMA_CMP_SWP, dst_buf, struct doca_buf *, dst)
SD_RDMA_SET(atomic_cmp_swp, SD_RDMA_CMP_SWP, result_buf, struct doca_buf *, result)
SD_RDMA_GET(atomic_cmp_swp, SD_RDMA_CMP_SWP, result_buf, struct doca_buf *, result)
SD_RDMA_SET(atomic_cmp_swp, SD_RDMA_CMP_SWP, cmp_data, uint64_t, op1)
SD_RDMA_GET(atomic_cmp_swp, SD_RDMA_CMP_SWP, cmp_data, uint64_t, op1)
SD_RDMA_SET(atomic_cmp_swp, SD_RDMA_CMP_SWP, swap_data, uint64_t, op2)
SD_RDMA_GET(atomic_cmp_swp, SD_RDMA_CMP_SWP, swap_data, uint64_t, op2)
SD_RDMA_SET(atomic_cmp_swp, SD_RDMA_CMP_SWP, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(atomic_cmp_swp, SD_RDMA_CMP_SWP, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(atomic_fetch_add, SD_RDMA_FETCH_ADD)
SD_RDMA_SET(atomic_fetch_add, SD_RDMA_FETCH_ADD, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(atomic_fetch_add, SD_RDMA_FETCH_ADD, dst_buf, struct doca_buf *, dst)
SD_RDMA_SET(atomic_fetch_add, SD_RDMA_FETCH_ADD, result_buf, struct doca_buf *, result)
SD_RDMA_GET(atomic_fetch_add, SD_RDMA_FETCH_ADD, result_buf, struct doca_buf *, result)
SD_RDMA_SET(atomic_fetch_add, SD_RDMA_FETCH_ADD, add_data, uint64_t, op1)
SD_RDMA_GET(atomic_fetch_add, SD_RDMA_FETCH_ADD, add_data, uint64_t, op1)
SD_RDMA_SET(atomic_fetch_add, SD_RDMA_FETCH_ADD, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(atomic_fetch_add, SD_RDMA_FETCH_ADD, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(remote_net_sync_event_get, SD_RDMA_SE_GET)
SD_RDMA_SET_EVENT(remote_net_sync_event_get, SD_RDMA_SE_GET, const struct doca_sync_event_remote_net *)
SD_RDMA_GET_EVENT(remote_net_sync_event_get, SD_RDMA_SE_GET, const struct doca_sync_event_remote_net *)
SD_RDMA_SET(remote_net_sync_event_get, SD_RDMA_SE_GET, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(remote_net_sync_event_get, SD_RDMA_SE_GET, dst_buf, struct doca_buf *, dst)
SD_RDMA_GET(remote_net_sync_event_get, SD_RDMA_SE_GET, result_len, uint32_t, result_len)
SD_RDMA_SET(remote_net_sync_event_get, SD_RDMA_SE_GET, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(remote_net_sync_event_get, SD_RDMA_SE_GET, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_AS_TASK(remote_net_sync_event_notify_set, SD_RDMA_SE_SET)
SD_RDMA_SET_EVENT(remote_net_sync_event_notify_set, SD_RDMA_SE_SET, struct doca_sync_event_remote_net *)
SD_RDMA_GET_EVENT(remote_net_sync_event_notify_set, SD_RDMA_SE_SET, struct doca_sync_event_remote_net *)
SD_RDMA_SET(remote_net_sync_event_notify_set, SD_RDMA_SE_SET, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(remote_net_sync_event_notify_set, SD_RDMA_SE_SET, rdma_connection, const struct doca_rdma_connection *, conn)
SD_RDMA_SET(remote_net_sync_event_notify_set, SD_RDMA_SE_SET, src_buf, const struct doca_buf *, src)
SD_RDMA_GET(remote_net_sync_event_notify_set, SD_RDMA_SE_SET, src_buf, const struct doca_buf *, src)
SD_RDMA_AS_TASK(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD)
SD_RDMA_SET_EVENT(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, struct doca_sync_event_remote_net *)
SD_RDMA_GET_EVENT(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, struct doca_sync_event_remote_net *)
SD_RDMA_SET(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, result_buf, struct doca_buf *, result)
SD_RDMA_GET(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, result_buf, struct doca_buf *, result)
SD_RDMA_SET(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, add_data, uint64_t, op1)
SD_RDMA_GET(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, add_data, uint64_t, op1)
SD_RDMA_SET(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, rdma_connection, struct doca_rdma_connection *, conn)
SD_RDMA_GET(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD, rdma_connection, const struct doca_rdma_connection *, conn)
