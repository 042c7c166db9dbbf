/*
 * rdma_rules.c - the rules an RDMA task must meet, checked by the
 * validate hook of each task type: at doca_task_try_submit (a refusal),
 * and again when a task is executed after doca_task_submit (a failed
 * task whose reason is this text).
 *
 * The rights of the target side are rules too: the peer context's
 * permissions (carried in its connection blob) and the rights of the
 * exported memory (carried in the RDMA export descriptor, checked against
 * the exporter's own record at import).  A task that breaks one changes
 * nothing.
 */
#include "rdma_buf.h"
#include "rdma_priv.h"
#include "sd_log.h"

#define RULE(code, ...) SD_TASK_RULE_FAIL(code, __VA_ARGS__)

doca_error_t sd_rdma_rule_conn(const struct sd_rdma_task *t, bool needs_peer)
{
	const struct doca_rdma *rdma = sd_rdma_of_task(&t->base);

	if (!sd_rdma_conn_is_valid(t->conn) || t->conn->rdma != rdma)
		return RULE(DOCA_ERROR_INVALID_VALUE,
			    "task %p: connection %p is not a connection of rdma %p; pass one from doca_rdma_export "
			    "on this context [R1]",
			    (const void *)t, (const void *)t->conn, (const void *)rdma);
	if (!sd_rdma_conn_usable(t->conn))
		return RULE(DOCA_ERROR_NOT_CONNECTED,
			    "task %p: connection %u is not connected (never connected with doca_rdma_connect, or the "
			    "peer disconnected or stopped) [R2]",
			    (const void *)t, t->conn->id);
	if (needs_peer && t->conn->remote_net && sd_rdma_net_ended(t->conn))
		return RULE(DOCA_ERROR_NOT_CONNECTED,
			    "task %p: connection %u lost its message link to the peer (the peer exited, stopped "
			    "or the network is cut) [R2]",
			    (const void *)t, t->conn->id);
	if (needs_peer && t->conn->remote_net && !sd_rdma_net_offered(t->conn))
		return RULE(DOCA_ERROR_NOT_SUPPORTED,
			    "task %p: connection %u leads to another namespace or machine whose end offers no "
			    "message endpoint (its process had no SOFTDOCA_PEER, or UCX refused); only reads, "
			    "writes and atomics reach it (docs/rdma.md) [R3n]",
			    (const void *)t, t->conn->id);
	return DOCA_SUCCESS;
}

/* A buffer of this process on a started mmap of the context's device. */
doca_error_t sd_rdma_rule_local(const struct sd_rdma_task *t, const struct doca_buf *b, const char *what,
				uint32_t max_list)
{
	const struct doca_rdma *rdma = sd_rdma_of_task(&t->base);
	uint32_t n;

	if (b == NULL || !sd_buf_is_live(b))
		return RULE(DOCA_ERROR_INVALID_VALUE, "task %p: %s buffer %p is NULL or not a live doca_buf [R4]",
			    (const void *)t, what, (const void *)b);
	for (const struct doca_buf *e = b; e != NULL; e = e->next)
		if (e->mmap->from_export || !sd_mmap_usable_by(e->mmap, rdma->node))
			return RULE(DOCA_ERROR_INVALID_VALUE,
				    "task %p: %s buffer %p is not in a started local mmap that lists device %s [R5]",
				    (const void *)t, what, (const void *)e, rdma->node->pci_addr);
	(void)sd_rdma_list_bytes(b, &n);
	if (n > max_list)
		return RULE(DOCA_ERROR_INVALID_VALUE,
			    "task %p: %s buffer list has %u elements, more than the %u this context allows "
			    "(doca_rdma_set_max_send_buf_list_len / doca_rdma_task_receive_set_dst_buf_list_len) [R6]",
			    (const void *)t, what, n, max_list);
	return DOCA_SUCCESS;
}

/* One buffer of memory a peer exported for RDMA, with right `right` on both the map and the peer's context. */
doca_error_t sd_rdma_rule_remote(const struct sd_rdma_task *t, const struct doca_buf *b, const char *what,
				 uint32_t right, const char *right_name)
{
	if (b == NULL || !sd_buf_is_live(b))
		return RULE(DOCA_ERROR_INVALID_VALUE, "task %p: %s buffer %p is NULL or not a live doca_buf [R4]",
			    (const void *)t, what, (const void *)b);
	if (!b->mmap->from_export || b->mmap->import_kind != SD_EXPORT_RDMA || b->next != NULL)
		return RULE(DOCA_ERROR_INVALID_VALUE,
			    "task %p: %s buffer %p must be one buffer of an mmap created from a peer's "
			    "doca_mmap_export_rdma descriptor [R7]",
			    (const void *)t, what, (const void *)b);
	if ((b->mmap->access_mask & right) == 0)
		return RULE(DOCA_ERROR_NOT_PERMITTED,
			    "task %p: the peer exported this memory without %s (access mask 0x%x); the peer must add "
			    "DOCA_ACCESS_FLAG_%s with doca_mmap_set_permissions before exporting [R8]",
			    (const void *)t, right_name, b->mmap->access_mask, right_name);
	if ((t->conn->remote.perms & right) == 0)
		return RULE(DOCA_ERROR_NOT_PERMITTED,
			    "task %p: the peer's RDMA context does not grant %s (permissions 0x%x); the peer must add "
			    "DOCA_ACCESS_FLAG_%s with doca_rdma_set_permissions before start [R9]",
			    (const void *)t, right_name, t->conn->remote.perms, right_name);
	return DOCA_SUCCESS;
}

doca_error_t sd_rdma_rule_size(const struct sd_rdma_task *t, uint64_t bytes, uint64_t room)
{
	const struct doca_rdma *rdma = sd_rdma_of_task(&t->base);

	if (bytes > rdma->node->caps.rdma_max_msg_size)
		return RULE(DOCA_ERROR_INVALID_VALUE,
			    "task %p: %llu bytes exceed the device's max message size %u [R10]", (const void *)t,
			    (unsigned long long)bytes, rdma->node->caps.rdma_max_msg_size);
	if (bytes > room)
		return RULE(DOCA_ERROR_INVALID_VALUE,
			    "task %p: %llu bytes do not fit the %llu free bytes after the destination's data [R11]",
			    (const void *)t, (unsigned long long)bytes, (unsigned long long)room);
	return DOCA_SUCCESS;
}

/* 8 bytes at a remote buffer's data, 8-byte aligned. */
doca_error_t sd_rdma_rule_atomic_target(const struct sd_rdma_task *t, const struct doca_buf *b)
{
	if ((b->head + b->len) - b->data < 8 || ((uintptr_t)b->data & 7u) != 0)
		return RULE(DOCA_ERROR_INVALID_VALUE,
			    "task %p: the atomic target needs 8 bytes at an 8-byte aligned data address [R12]",
			    (const void *)t);
	return DOCA_SUCCESS;
}
