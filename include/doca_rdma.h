/**
 * @file doca_rdma.h
 * @brief DOCA RDMA: contexts that move data to and from a peer over
 * connections (send/receive, one-sided read/write, atomics, remote sync
 * events).
 *
 * softdoca's rendition of the DOCA 3.3 RDMA interface, in the spirit of
 * SoftRoCE: the same calls as on a card, carried by software transports
 * instead of RoCE/InfiniBand queue pairs (docs/rdma.md says what differs).
 * An RDMA context is created on a device, configured while IDLE, connected
 * to a progress engine and started through doca_rdma_as_ctx; connections
 * are made from out-of-band blobs (doca_rdma_export / doca_rdma_connect) or
 * by the connection manager; tasks complete in doca_pe_progress.
 *
 * The real header pulls in librdmacm's <rdma/rdma_cma.h> for one pointer
 * type of the verbs bridge; this one includes it only where it is installed
 * and otherwise declares the type opaque, which is all the calls need.
 */
#ifndef DOCA_RDMA_H_
#define DOCA_RDMA_H_

#include <stdbool.h>
#include <stdint.h>

#if defined(__has_include)
#if __has_include(<rdma/rdma_cma.h>)
#include <rdma/rdma_cma.h>
#endif
#endif

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * librdmacm's connection identifier, which the verbs bridge calls of this
 * header name (doca_rdma_bridge_prepare_connection).  Opaque here
 * unless <rdma/rdma_cma.h> is installed; softdoca never dereferences it.
 */
struct rdma_cm_id;

struct doca_buf;
struct doca_dev;
struct doca_devinfo;

/** A peer's sync event as seen for remote-net use (doca_sync_event.h creates it). */
struct doca_sync_event_remote_net;

/** Transport of an RDMA context: reliable connected, or dynamically connected (not offered by softdoca). */
enum doca_rdma_transport_type {
	DOCA_RDMA_TRANSPORT_TYPE_RC, /**< reliable connection */
	DOCA_RDMA_TRANSPORT_TYPE_DC, /**< dynamically connected */
};

/** One entry of a device's GID table. */
struct doca_rdma_gid {
	uint8_t raw[DOCA_GID_BYTE_LENGTH]; /**< the 16 bytes, network order */
};

/** How the text of a connection-manager address is written. */
enum doca_rdma_addr_type {
	DOCA_RDMA_ADDR_TYPE_IPv4, /**< dotted IPv4 */
	DOCA_RDMA_ADDR_TYPE_IPv6, /**< IPv6 text */
	DOCA_RDMA_ADDR_TYPE_GID, /**< a GID in IPv6 text form */
};

/** An RDMA context: a doca_ctx that runs RDMA tasks over its connections. */
struct doca_rdma;

/** An address and port for the connection manager. */
struct doca_rdma_addr;

/** One connection of an RDMA context to one peer. */
struct doca_rdma_connection;

/** DPA-side handle of an RDMA context (never produced by softdoca: no DPA). */
typedef uint64_t doca_dpa_dev_rdma_t;

/** GPU-side handle of an RDMA context (never produced by softdoca: no GPU datapath). */
struct doca_gpu_dev_rdma;

/**
 * @brief Create an RDMA context on an open device, IDLE and unconnected.
 * Defaults: RC transport, the device's largest queues, MTU 1024, permissions LOCAL_READ_WRITE (no RDMA rights
 * until doca_rdma_set_permissions grants them), one connection.
 * @param dev an open device whose profile supports RDMA; the context holds it until destroyed.
 * @param rdma set to the new context.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a device that is not open;
 *     DOCA_ERROR_NOT_SUPPORTED when the device cannot run RDMA; DOCA_ERROR_NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_create(struct doca_dev *dev, struct doca_rdma **rdma);

/**
 * @brief Destroy an IDLE RDMA context and its connections.
 * @param rdma the context.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE when rdma is not a live RDMA context; DOCA_ERROR_BAD_STATE
 *     when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_destroy(struct doca_rdma *rdma);

/**
 * @brief The generic context view of an RDMA context (start, stop, PE connection, state callback).
 * @param rdma the context.
 * @return the context, or NULL (with one error record) when rdma is not a live RDMA context.
 */
DOCA_EXPERIMENTAL
struct doca_ctx *doca_rdma_as_ctx(struct doca_rdma *rdma);

/**
 * @brief Create a connection and describe its local end as an out-of-band blob for the peer.
 * Allowed while the context is RUNNING. The blob is owned by the context and stays valid until the connection
 * or the context ends. It carries a format version, the identity of this process and connection, and a random
 * 128-bit token; the peer passes it to doca_rdma_connect.
 * @param rdma the context.
 * @param local_rdma_conn_details set to the blob.
 * @param local_rdma_conn_details_size set to its length in bytes.
 * @param rdma_connection set to the new connection (not yet connected).
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context;
 *     DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_FULL when max_num_connections
 *     connections exist already; DOCA_ERROR_NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_export(struct doca_rdma *rdma,
				  const void **local_rdma_conn_details,
				  size_t *local_rdma_conn_details_size,
				  struct doca_rdma_connection **rdma_connection);

/**
 * @brief Connect a connection made by doca_rdma_export to the peer described by the peer's blob.
 * The blob is untrusted: its size, magic, version, identity and token are checked, and a blob that fails any
 * check changes nothing.
 * @param rdma the context that exported the connection.
 * @param remote_rdma_conn_details the peer's blob.
 * @param remote_rdma_conn_details_size its length in bytes.
 * @param rdma_connection the local connection, from doca_rdma_export on the same context.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument, a truncated, forged or foreign blob,
 *     a connection of another context or one of the connection manager; DOCA_ERROR_BAD_STATE when the context is not RUNNING or the
 *     connection is already connected; DOCA_ERROR_NOT_FOUND when the peer connection no longer exists (stale
 *     blob); DOCA_ERROR_CONNECTION_ABORTED when the peer cannot be reached.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connect(struct doca_rdma *rdma,
				   const void *remote_rdma_conn_details,
				   size_t remote_rdma_conn_details_size,
				   struct doca_rdma_connection *rdma_connection);

/**
 * @brief Create an address for the connection manager: an IPv4 or IPv6 address in text form, or a GID, and a
 *     port.
 * @param addr_type how address is written.
 * @param address the address text; copied.
 * @param port the port.
 * @param addr set to the new address, owned by the caller (doca_rdma_addr_destroy).
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument, an unknown type or an address that
 *     does not parse as that type; DOCA_ERROR_NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type,
				   const char *address,
				   uint16_t port,
				   struct doca_rdma_addr **addr);

/**
 * @brief Destroy an address made by doca_rdma_addr_create.
 * @param addr the address.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE when addr is not a live address created by
 *     doca_rdma_addr_create.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr);

/**
 * @brief Connection manager, server side: take connection requests on a port of the device's address.
 * Call while the context is RUNNING, with the connection callbacks set (the request callback included).
 * softdoca listens on the TCP port of the same number, on the device's IPv4 (else IPv6) address from the
 * topology, or on every address of the machine when the device has none. Each request reaches the request
 * callback from doca_pe_progress; a request beyond max_num_connections is rejected before it gets there.
 * @param rdma the context.
 * @param port the port, not 0.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or port 0; DOCA_ERROR_BAD_STATE
 *     when the context is not RUNNING, has no connection callbacks or listens already (one port per
 *     context); DOCA_ERROR_CONNECTION_ABORTED when the port cannot be listened on (taken by another program).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port);

/**
 * @brief Connection manager, server side: stop taking requests on a port.
 * Connections already made or being made stay as they are.
 * @param rdma the context.
 * @param port the port given to doca_rdma_start_listen_to_port.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a port the context does not
 *     listen on.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port);

/**
 * @brief Connection manager: accept a request handed over by the connection request callback.
 * Allowed once per request, inside the callback or later, while the context is RUNNING. Both sides then
 * get the established callback from doca_pe_progress.
 * @param rdma_connection the requesting connection.
 * @param private_data bytes sent to the peer with the acceptance, or NULL.
 * @param private_data_len their length (0 with NULL).
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a connection that is not a request waiting for an
 *     answer, or NULL private_data with a length; DOCA_ERROR_BAD_STATE when the context is not RUNNING;
 *     DOCA_ERROR_CONNECTION_ABORTED when the requesting peer is gone (the request is dropped).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *rdma_connection,
					 void *private_data,
					 uint8_t private_data_len);

/**
 * @brief Connection manager: refuse a request handed over by the connection request callback.
 * The client gets its failure callback. The connection object is freed afterwards: do not use it again.
 * @param rdma_connection the requesting connection.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a connection that is not a request waiting for an
 *     answer.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *rdma_connection);

/**
 * @brief Connection manager, client side: ask the server at addr for a connection.
 * The outcome comes through the established or the failure callback, from doca_pe_progress; an unreachable
 * or silent server (beyond the connection request timeout) and a rejection are failures. The connection
 * holds one of max_num_connections until it ends; a failed one is freed after its failure callback.
 * @param rdma a RUNNING context with its connection callbacks set.
 * @param addr the server's address and port; the caller keeps it.
 * @param connection_user_data kept on the new connection and handed to its callbacks.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL or foreign argument; DOCA_ERROR_BAD_STATE when
 *     not RUNNING or without connection callbacks; DOCA_ERROR_FULL when max_num_connections connections
 *     exist; DOCA_ERROR_NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma,
					   struct doca_rdma_addr *addr,
					   union doca_data connection_user_data);

/**
 * @brief End a connection; tasks still in flight on it fail and the peer sees the disconnection.
 * For a connection of the connection manager the peer gets its disconnect callback; this side gets none. A
 * connection the peer ended (its disconnect callback came) may still be disconnected here, once.
 * @param rdma_connection the connection.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a connection that is not live; DOCA_ERROR_BAD_STATE
 *     when it is not connected, not established yet or disconnected already.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *rdma_connection);

/**
 * @brief Verbs bridge: adopt an rdma_cm identifier made by the program's own librdmacm.
 * softdoca has no verbs devices, so no identifier can belong to one of its devices.
 * @param rdma the context.
 * @param cm_id the identifier.
 * @param rdma_connection would receive the connection.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL or foreign argument, otherwise DOCA_ERROR_NOT_SUPPORTED (one
 *     record: the device has no verbs bridge).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_bridge_prepare_connection(struct doca_rdma *rdma,
						 struct rdma_cm_id *cm_id,
						 struct doca_rdma_connection **rdma_connection);

/**
 * @brief Verbs bridge: accept on a connection prepared by doca_rdma_bridge_prepare_connection.
 * @param rdma the context.
 * @param private_data bytes for the peer.
 * @param private_data_len their length.
 * @param rdma_connection the connection.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL or foreign context, otherwise DOCA_ERROR_NOT_SUPPORTED (the
 *     device has no verbs bridge).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_bridge_accept(struct doca_rdma *rdma,
					 void *private_data,
					 uint8_t private_data_len,
					 struct doca_rdma_connection *rdma_connection);

/**
 * @brief Verbs bridge: report that a bridged connection is established.
 * @param rdma the context.
 * @param rdma_connection the connection.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL or foreign context, otherwise DOCA_ERROR_NOT_SUPPORTED (the
 *     device has no verbs bridge).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_bridge_established(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection);

/**
 * @brief The device's largest receive queue (receive tasks a context may configure).
 * From the device's capability profile (softdoca values, docs/rdma.md).
 * @param devinfo the device.
 * @param max_recv_queue_size set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a devinfo that is not a device
 *     information handle; DOCA_ERROR_NOT_SUPPORTED when the device cannot run RDMA.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *max_recv_queue_size);

/**
 * @brief The device's largest send queue (tasks other than receive a context may configure, all types
 *     together).
 * From the device's capability profile (softdoca values, docs/rdma.md).
 * @param devinfo the device.
 * @param max_send_queue_size set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a devinfo that is not a device
 *     information handle; DOCA_ERROR_NOT_SUPPORTED when the device cannot run RDMA.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_get_max_send_queue_size(const struct doca_devinfo *devinfo, uint32_t *max_send_queue_size);

/**
 * @brief The device's longest buffer list of a send, write or their with-immediate forms.
 * From the device's capability profile (softdoca values, docs/rdma.md).
 * @param devinfo the device.
 * @param max_send_buf_list_len set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a devinfo that is not a device
 *     information handle; DOCA_ERROR_NOT_SUPPORTED when the device cannot run RDMA.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_get_max_send_buf_list_len(const struct doca_devinfo *devinfo,
							 uint32_t *max_send_buf_list_len);

/**
 * @brief The device's largest message in bytes (send, write, read).
 * From the device's capability profile (softdoca values, docs/rdma.md).
 * @param devinfo the device.
 * @param max_message_size set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a devinfo that is not a device
 *     information handle; DOCA_ERROR_NOT_SUPPORTED when the device cannot run RDMA.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_get_max_message_size(const struct doca_devinfo *devinfo, uint32_t *max_message_size);

/**
 * @brief The device's number of entries in the device's GID table.
 * From the device's capability profile (softdoca values, docs/rdma.md).
 * @param devinfo the device.
 * @param gid_table_size set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a devinfo that is not a device
 *     information handle; DOCA_ERROR_NOT_SUPPORTED when the device cannot run RDMA.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_get_gid_table_size(const struct doca_devinfo *devinfo, uint32_t *gid_table_size);

/**
 * @brief Copy entries of the device's GID table.
 * softdoca derives the entries from the device's IPv4/IPv6 addresses of the topology (RoCE v2 style, an
 * IPv4-mapped address), see docs/rdma.md.
 * @param devinfo the device.
 * @param start_index first entry.
 * @param num_entries number of entries.
 * @param gid_array receives num_entries entries.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument, num_entries 0, or a range past the
 *     table's end; DOCA_ERROR_NOT_SUPPORTED when the device cannot run RDMA.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_get_gid(const struct doca_devinfo *devinfo,
				   uint32_t start_index,
				   uint32_t num_entries,
				   struct doca_rdma_gid *gid_array);

/**
 * @brief Whether the device offers a transport type: RC yes, DC no (softdoca does not emulate dynamic
 *     connections).
 * @param devinfo the device.
 * @param transport_type the type.
 * @return DOCA_SUCCESS when offered, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE for a bad
 *     devinfo or an unknown type.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_transport_type_is_supported(const struct doca_devinfo *devinfo,
							   enum doca_rdma_transport_type transport_type);

/**
 * @brief Set the context's send queue size: tasks other than receive the context may have in flight.
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param send_queue_size the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value of 0 or above the
 *     device's max_send_queue_size; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_send_queue_size(struct doca_rdma *rdma, uint32_t send_queue_size);

/**
 * @brief Set the context's receive queue size: receive tasks the context may have posted.
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param recv_queue_size the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value of 0 or above the
 *     device's max_recv_queue_size; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_recv_queue_size(struct doca_rdma *rdma, uint32_t recv_queue_size);

/**
 * @brief Set the context's longest buffer list accepted by send and write tasks.
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param max_send_buf_list_len the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value of 0 or above the
 *     device's max_send_buf_list_len; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_max_send_buf_list_len(struct doca_rdma *rdma, uint32_t max_send_buf_list_len);

/**
 * @brief Set the context's transport type (RC; DC is not offered).
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param transport_type the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or an unknown type;
 *     DOCA_ERROR_NOT_SUPPORTED for DC; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_transport_type(struct doca_rdma *rdma, enum doca_rdma_transport_type transport_type);

/**
 * @brief Set the context's path MTU (recorded; UCX fragments by itself).
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param mtu the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value outside enum
 *     doca_mtu_size; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_mtu(struct doca_rdma *rdma, enum doca_mtu_size mtu);

/**
 * @brief Set the context's rights a peer has on memory reached through this context (enum doca_access_flag
 *     bits).
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param permissions the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or bits outside the local and RDMA
 *     rights; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_permissions(struct doca_rdma *rdma, uint32_t permissions);

/**
 * @brief Set the context's use of a global routing header (recorded).
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param grh_enabled the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value other than 0 or 1;
 *     DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_grh_enabled(struct doca_rdma *rdma, uint8_t grh_enabled);

/**
 * @brief Set the context's GID table index used for connections.
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param gid_index the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or an index at or above the device's
 *     GID table size; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_gid_index(struct doca_rdma *rdma, uint32_t gid_index);

/**
 * @brief Set the context's service level (recorded; UCX has none).
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param sl the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value above 15;
 *     DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_sl(struct doca_rdma *rdma, uint32_t sl);

/**
 * @brief Set the context's connection manager request timeout in milliseconds.
 * Allowed only while the context is IDLE. It bounds a client's whole handshake, from
 * doca_rdma_connect_to_addr to the server's answer; past it the attempt ends in the failure callback
 * (default 5000).
 * @param rdma the context.
 * @param timeout the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value of 0;
 *     DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_connection_request_timeout(struct doca_rdma *rdma, uint16_t timeout);

/**
 * @brief Attach user data to a connection; it is handed to the connection's callbacks.
 * @param rdma_connection the connection.
 * @param connection_user_data the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE when rdma_connection is not a live connection.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *rdma_connection,
						union doca_data connection_user_data);

/**
 * @brief Set the context's most connections the context may hold at once.
 * Allowed only while the context is IDLE. Exported connections count until the context stops; connection
 * manager connections count from the request until they end. A request beyond the limit is rejected
 * before the request callback.
 * @param rdma the context.
 * @param max_num_connections the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value of 0;
 *     DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_max_num_connections(struct doca_rdma *rdma, uint16_t max_num_connections);

/**
 * @brief Set the context's receiver-not-ready retries a send makes before it fails (7 meaning: retry without
 *     end on a card; softdoca bounds it, see docs/rdma.md).
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param rnr_retry_count the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value above 7;
 *     DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_rnr_retry_count(struct doca_rdma *rdma, uint8_t rnr_retry_count);

/**
 * @brief The context's send queue size: tasks other than receive the context may have in flight.
 * Allowed in every state.
 * @param rdma the context.
 * @param send_queue_size set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_send_queue_size(const struct doca_rdma *rdma, uint32_t *send_queue_size);

/**
 * @brief The context's receive queue size: receive tasks the context may have posted.
 * Allowed in every state.
 * @param rdma the context.
 * @param recv_queue_size set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_recv_queue_size(const struct doca_rdma *rdma, uint32_t *recv_queue_size);

/**
 * @brief The context's longest buffer list accepted by send and write tasks.
 * Allowed in every state.
 * @param rdma the context.
 * @param max_send_buf_list_len set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_max_send_buf_list_len(const struct doca_rdma *rdma, uint32_t *max_send_buf_list_len);

/**
 * @brief The context's transport type (RC; DC is not offered).
 * Allowed in every state.
 * @param rdma the context.
 * @param transport_type set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_transport_type(const struct doca_rdma *rdma, enum doca_rdma_transport_type *transport_type);

/**
 * @brief The context's path MTU (recorded; UCX fragments by itself).
 * Allowed in every state.
 * @param rdma the context.
 * @param mtu set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_mtu(const struct doca_rdma *rdma, enum doca_mtu_size *mtu);

/**
 * @brief The context's rights a peer has on memory reached through this context (enum doca_access_flag bits).
 * Allowed in every state.
 * @param rdma the context.
 * @param permissions set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_permissions(struct doca_rdma *rdma, uint32_t *permissions);

/**
 * @brief The context's use of a global routing header (recorded).
 * Allowed in every state.
 * @param rdma the context.
 * @param grh_enabled set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_grh_enabled(const struct doca_rdma *rdma, uint8_t *grh_enabled);

/**
 * @brief The context's GID table index used for connections.
 * Allowed in every state.
 * @param rdma the context.
 * @param gid_index set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_gid_index(const struct doca_rdma *rdma, uint32_t *gid_index);

/**
 * @brief The context's service level (recorded; UCX has none).
 * Allowed in every state.
 * @param rdma the context.
 * @param sl set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_sl(const struct doca_rdma *rdma, uint32_t *sl);

/**
 * @brief The DPA handle of the context, for DPA kernels.
 * softdoca has no DPA, so a device never offers one.
 * @param rdma the context.
 * @param dpa_rdma would receive the handle.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL or foreign argument, otherwise DOCA_ERROR_NOT_SUPPORTED (one
 *     record: no DPA on the device).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_dpa_handle(struct doca_rdma *rdma, doca_dpa_dev_rdma_t *dpa_rdma);

/**
 * @brief The GPU handle of the context, for GPUNetIO kernels.
 * softdoca runs RDMA on the CPU; no GPU datapath exists.
 * @param rdma the context.
 * @param gpu_rdma would receive the handle.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL or foreign argument, otherwise DOCA_ERROR_NOT_SUPPORTED (one
 *     record: no GPU datapath).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_gpu_handle(struct doca_rdma *rdma, struct doca_gpu_dev_rdma **gpu_rdma);

/**
 * @brief The context's connection manager request timeout in milliseconds.
 * Allowed in every state.
 * @param rdma the context.
 * @param timeout set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_connection_request_timeout(const struct doca_rdma *rdma, uint16_t *timeout);

/**
 * @brief The peer's address of a connection made by the connection manager.
 * The address belongs to the connection.
 * @param rdma_connection the connection.
 * @param addr set to the address.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a connection that is not live;
 *     DOCA_ERROR_NOT_FOUND for an out-of-band connection, which has no address.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connection_get_addr(const struct doca_rdma_connection *rdma_connection,
					   struct doca_rdma_addr **addr);

/**
 * @brief The type, text and port of an address.
 * The text belongs to the address.
 * @param addr the address.
 * @param addr_type set to its type.
 * @param address set to its text.
 * @param port set to its port.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or an address that is not live.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr,
					   enum doca_rdma_addr_type *addr_type,
					   const char **address,
					   uint16_t *port);

/**
 * @brief The user data of a connection.
 * @param rdma_connection the connection.
 * @param connection_user_data set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a connection that is not live.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connection_get_user_data(const struct doca_rdma_connection *rdma_connection,
						union doca_data *connection_user_data);

/**
 * @brief The identifier of a connection, unique among the live connections of its context.
 * @param rdma_connection the connection.
 * @param connection_id set to the identifier.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a connection that is not live.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *rdma_connection, uint32_t *connection_id);

/**
 * @brief The context's most connections the context may hold at once.
 * Allowed in every state.
 * @param rdma the context.
 * @param max_num_connections set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_max_num_connections(struct doca_rdma *rdma, uint16_t *max_num_connections);

/**
 * @brief The context's receiver-not-ready retries a send makes before it fails (7 meaning: retry without end
 *     on a card; softdoca bounds it, see docs/rdma.md).
 * Allowed in every state.
 * @param rdma the context.
 * @param rnr_retry_count set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_get_rnr_retry_count(const struct doca_rdma *rdma, uint8_t *rnr_retry_count);

/** A peer asks the listening context for a connection; answer with accept or reject (from doca_pe_progress). */
typedef void (*doca_rdma_connection_request_cb_t)(struct doca_rdma_connection *rdma_connection,
						  union doca_data ctx_user_data);

/** A connection became usable. */
typedef void (*doca_rdma_connection_established_cb_t)(struct doca_rdma_connection *rdma_connection,
							  union doca_data connection_user_data,
							  union doca_data ctx_user_data);

/** A connection could not be made (unreachable server, rejection, timeout, broken handshake). */
typedef void (*doca_rdma_connection_failure_cb_t)(struct doca_rdma_connection *rdma_connection,
						  union doca_data connection_user_data,
						  union doca_data ctx_user_data);

/** A connection was ended by either side. */
typedef void (*doca_rdma_connection_disconnection_cb_t)(struct doca_rdma_connection *rdma_connection,
							union doca_data connection_user_data,
							union doca_data ctx_user_data);

/**
 * @brief Set the connection callbacks of the connection manager (request, established, failure,
 *     disconnection), all called from doca_pe_progress of the context's progress engine.
 * Allowed only while the context is IDLE. The request callback may be NULL for a context that only connects
 * as a client; the three others are required.
 * @param rdma the context.
 * @param doca_rdma_connect_request_cb a peer asks for a connection (server side), or NULL.
 * @param doca_rdma_connect_established_cb a connection became usable.
 * @param doca_rdma_connect_failure_cb a connection could not be made.
 * @param doca_rdma_disconnect_cb the peer ended an established connection.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL required callback or a foreign context;
 *     DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_set_connection_state_callbacks(
	struct doca_rdma *rdma,
	doca_rdma_connection_request_cb_t doca_rdma_connect_request_cb,
	doca_rdma_connection_established_cb_t doca_rdma_connect_established_cb,
	doca_rdma_connection_failure_cb_t doca_rdma_connect_failure_cb,
	doca_rdma_connection_disconnection_cb_t doca_rdma_disconnect_cb);

/** A receive task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_receive;

/** What filled a receive task. */
enum doca_rdma_opcode {
	DOCA_RDMA_OPCODE_RECV_SEND = 0, /**< a send */
	DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM, /**< a send with immediate */
	DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM, /**< a write with immediate */
};

/** Completion callback of receive tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_receive_completion_cb_t)(struct doca_rdma_task_receive *task,
							   union doca_data task_user_data,
							   union doca_data ctx_user_data);

/**
 * @brief Whether the device can run receive tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_receive_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The longest buffer list a receive task may carry on a transport type.
 * @param devinfo the device.
 * @param transport_type the transport type.
 * @param max_buf_list_len set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or bad devinfo;
 *     DOCA_ERROR_NOT_SUPPORTED for a type the device does not offer.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_receive_get_max_dst_buf_list_len(const struct doca_devinfo *devinfo,
								 enum doca_rdma_transport_type transport_type,
								 uint32_t *max_buf_list_len);

/**
 * @brief Configure the receive tasks of an RDMA context: a posted buffer that the peer's next send, send with
 *     immediate or write with immediate fills, in posting order.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run receive tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_receive_set_conf(struct doca_rdma *rdma,
						 doca_rdma_task_receive_completion_cb_t successful_task_completion_cb,
						 doca_rdma_task_receive_completion_cb_t error_task_completion_cb,
						 uint32_t num_tasks);

/**
 * @brief Set the context's longest buffer list a receive task may carry.
 * Allowed only while the context is IDLE.
 * @param rdma the context.
 * @param buf_list_len the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a foreign context or a value of 0 or above the
 *     device's limit; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_receive_set_dst_buf_list_len(struct doca_rdma *rdma, uint32_t buf_list_len);

/**
 * @brief The context's longest buffer list a receive task may carry.
 * Allowed in every state.
 * @param rdma the context.
 * @param buf_list_len set to the value.
 * @return DOCA_SUCCESS, or DOCA_ERROR_INVALID_VALUE for a NULL argument or a foreign context.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_receive_get_dst_buf_list_len(const struct doca_rdma *rdma, uint32_t *buf_list_len);

/**
 * @brief Take a receive task from the context's pool and fill it: a posted buffer that the peer's next send,
 *     send with immediate or write with immediate fills, in posting order.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param dst_buf destination buffer (local memory, or a list of them, that the incoming message fills after
 *     its data).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_receive_allocate_init(struct doca_rdma *rdma,
						  struct doca_buf *dst_buf,
						  union doca_data user_data,
						  struct doca_rdma_task_receive **task);

/**
 * @brief The generic view of a receive task, for doca_task_submit, doca_task_free and the other doca_task_*
 *     calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_receive_as_task(struct doca_rdma_task_receive *task);

/**
 * @brief Replace the destination buffer (local memory, or a list of them, that the incoming message fills
 *     after its data) of a receive task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param dst_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_receive_set_dst_buf(struct doca_rdma_task_receive *task, struct doca_buf *dst_buf);

/**
 * @brief The destination buffer (local memory, or a list of them, that the incoming message fills after its
 *     data) of a receive task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_receive_get_dst_buf(const struct doca_rdma_task_receive *task);

/**
 * @brief Which operation of the peer filled the completed receive task: send, send with immediate or write
 *     with immediate.
 * @param task a completed receive task.
 * @return the opcode; DOCA_RDMA_OPCODE_RECV_SEND (with one error record) for a task that is not a live receive
 *     task.
 */
DOCA_EXPERIMENTAL
enum doca_rdma_opcode doca_rdma_task_receive_get_result_opcode(const struct doca_rdma_task_receive *task);

/**
 * @brief Number of bytes the completed receive task wrote into its destination.
 * @param task a completed task.
 * @return the length, or 0 (with one error record) for a task that is not a live task of this type.
 */
DOCA_EXPERIMENTAL
uint32_t doca_rdma_task_receive_get_result_len(const struct doca_rdma_task_receive *task);

/**
 * @brief The immediate value that came with the message that filled the receive task.
 * Meaningful only when the result opcode is a with-immediate one.
 * @param task a completed receive task.
 * @return the value as it travelled (big-endian), or 0 (with one error record) for a task that is not a live
 *     receive task.
 */
DOCA_EXPERIMENTAL
doca_be32_t doca_rdma_task_receive_get_result_immediate_data(const struct doca_rdma_task_receive *task);

/**
 * @brief The connection on which the message that filled the receive task arrived.
 * @param task a completed receive task.
 * @return the connection, or NULL (with one error record) for a task that is not a live receive task or was
 *     not filled.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_receive_get_result_rdma_connection(
	const struct doca_rdma_task_receive *task);

/** A send task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_send;

/** Completion callback of send tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_send_completion_cb_t)(struct doca_rdma_task_send *task,
							union doca_data task_user_data,
							union doca_data ctx_user_data);

/**
 * @brief Whether the device can run send tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_send_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the send tasks of an RDMA context: the data of a local buffer (or list) delivered into the
 *     oldest receive task the peer has posted.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run send tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_send_set_conf(struct doca_rdma *rdma,
					  doca_rdma_task_send_completion_cb_t successful_task_completion_cb,
					  doca_rdma_task_send_completion_cb_t error_task_completion_cb,
					  uint32_t num_tasks);

/**
 * @brief Take a send task from the context's pool and fill it: the data of a local buffer (or list) delivered
 *     into the oldest receive task the peer has posted.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param src_buf source buffer (local data, or a list of them).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_send_allocate_init(struct doca_rdma *rdma,
						   struct doca_rdma_connection *rdma_connection,
						   const struct doca_buf *src_buf,
						   union doca_data user_data,
						   struct doca_rdma_task_send **task);

/**
 * @brief The generic view of a send task, for doca_task_submit, doca_task_free and the other doca_task_*
 *     calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_send_as_task(struct doca_rdma_task_send *task);

/**
 * @brief Replace the source buffer (local data, or a list of them) of a send task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param src_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_send_set_src_buf(struct doca_rdma_task_send *task, const struct doca_buf *src_buf);

/**
 * @brief The source buffer (local data, or a list of them) of a send task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_buf *doca_rdma_task_send_get_src_buf(const struct doca_rdma_task_send *task);

/**
 * @brief Replace the connection the task runs on of a send task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_send_set_rdma_connection(struct doca_rdma_task_send *task,
						 struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a send task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_send_get_rdma_connection(const struct doca_rdma_task_send *task);

/** A send imm task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_send_imm;

/** Completion callback of send imm tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_send_imm_completion_cb_t)(struct doca_rdma_task_send_imm *task,
							union doca_data task_user_data,
							union doca_data ctx_user_data);

/**
 * @brief Whether the device can run send with immediate tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_send_imm_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the send with immediate tasks of an RDMA context: a send that also hands the peer's receive
 *     task a 32-bit immediate value.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run send with immediate tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_send_imm_set_conf(struct doca_rdma *rdma,
						  doca_rdma_task_send_imm_completion_cb_t successful_task_completion_cb,
						  doca_rdma_task_send_imm_completion_cb_t error_task_completion_cb,
						  uint32_t num_tasks);

/**
 * @brief Take a send with immediate task from the context's pool and fill it: a send that also hands the
 *     peer's receive task a 32-bit immediate value.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param src_buf source buffer (local data, or a list of them).
 * @param immediate_data immediate value (32 bits, big-endian as on the wire).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_send_imm_allocate_init(struct doca_rdma *rdma,
						   struct doca_rdma_connection *rdma_connection,
						   const struct doca_buf *src_buf,
						   doca_be32_t immediate_data,
						   union doca_data user_data,
						   struct doca_rdma_task_send_imm **task);

/**
 * @brief The generic view of a send with immediate task, for doca_task_submit, doca_task_free and the other
 *     doca_task_* calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_send_imm_as_task(struct doca_rdma_task_send_imm *task);

/**
 * @brief Replace the source buffer (local data, or a list of them) of a send with immediate task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param src_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_send_imm_set_src_buf(struct doca_rdma_task_send_imm *task, const struct doca_buf *src_buf);

/**
 * @brief The source buffer (local data, or a list of them) of a send with immediate task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_buf *doca_rdma_task_send_imm_get_src_buf(const struct doca_rdma_task_send_imm *task);

/**
 * @brief Replace the immediate value (32 bits, big-endian as on the wire) of a send with immediate task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param immediate_data the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_send_imm_set_immediate_data(struct doca_rdma_task_send_imm *task, doca_be32_t immediate_data);

/**
 * @brief The immediate value (32 bits, big-endian as on the wire) of a send with immediate task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
doca_be32_t doca_rdma_task_send_imm_get_immediate_data(const struct doca_rdma_task_send_imm *task);

/**
 * @brief Replace the connection the task runs on of a send with immediate task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_send_imm_set_rdma_connection(struct doca_rdma_task_send_imm *task,
						 struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a send with immediate task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_send_imm_get_rdma_connection(
	const struct doca_rdma_task_send_imm *task);

/** A read task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_read;

/** Completion callback of read tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_read_completion_cb_t)(struct doca_rdma_task_read *task,
							union doca_data task_user_data,
							union doca_data ctx_user_data);

/**
 * @brief Whether the device can run read tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_read_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the read tasks of an RDMA context: a one-sided copy of remote memory (an mmap created from
 *     the peer's RDMA export) into a local buffer; the peer's program takes no part.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run read tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_read_set_conf(struct doca_rdma *rdma,
					  doca_rdma_task_read_completion_cb_t successful_task_completion_cb,
					  doca_rdma_task_read_completion_cb_t error_task_completion_cb,
					  uint32_t num_tasks);

/**
 * @brief Take a read task from the context's pool and fill it: a one-sided copy of remote memory (an mmap
 *     created from the peer's RDMA export) into a local buffer; the peer's program takes no part.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param src_buf source buffer (remote memory, in an mmap created from the peer's RDMA export).
 * @param dst_buf destination buffer (local memory; the bytes land after its data).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_read_allocate_init(struct doca_rdma *rdma,
						   struct doca_rdma_connection *rdma_connection,
						   const struct doca_buf *src_buf,
						   struct doca_buf *dst_buf,
						   union doca_data user_data,
						   struct doca_rdma_task_read **task);

/**
 * @brief The generic view of a read task, for doca_task_submit, doca_task_free and the other doca_task_*
 *     calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_read_as_task(struct doca_rdma_task_read *task);

/**
 * @brief Replace the source buffer (remote memory, in an mmap created from the peer's RDMA export) of a read
 *     task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param src_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_read_set_src_buf(struct doca_rdma_task_read *task, const struct doca_buf *src_buf);

/**
 * @brief The source buffer (remote memory, in an mmap created from the peer's RDMA export) of a read task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_buf *doca_rdma_task_read_get_src_buf(const struct doca_rdma_task_read *task);

/**
 * @brief Replace the destination buffer (local memory; the bytes land after its data) of a read task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param dst_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_read_set_dst_buf(struct doca_rdma_task_read *task, struct doca_buf *dst_buf);

/**
 * @brief The destination buffer (local memory; the bytes land after its data) of a read task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_read_get_dst_buf(const struct doca_rdma_task_read *task);

/**
 * @brief Number of bytes the completed read task wrote into its destination.
 * @param task a completed task.
 * @return the length, or 0 (with one error record) for a task that is not a live task of this type.
 */
DOCA_EXPERIMENTAL
uint32_t doca_rdma_task_read_get_result_len(const struct doca_rdma_task_read *task);

/**
 * @brief Replace the connection the task runs on of a read task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_read_set_rdma_connection(struct doca_rdma_task_read *task,
						 struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a read task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_read_get_rdma_connection(const struct doca_rdma_task_read *task);

/** A write task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_write;

/** Completion callback of write tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_write_completion_cb_t)(struct doca_rdma_task_write *task,
							 union doca_data task_user_data,
							 union doca_data ctx_user_data);

/**
 * @brief Whether the device can run write tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_write_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the write tasks of an RDMA context: a one-sided copy of a local buffer into remote memory
 *     (an mmap created from the peer's RDMA export); the peer's program takes no part.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run write tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_write_set_conf(struct doca_rdma *rdma,
					   doca_rdma_task_write_completion_cb_t successful_task_completion_cb,
					   doca_rdma_task_write_completion_cb_t error_task_completion_cb,
					   uint32_t num_tasks);

/**
 * @brief Take a write task from the context's pool and fill it: a one-sided copy of a local buffer into remote
 *     memory (an mmap created from the peer's RDMA export); the peer's program takes no part.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param src_buf source buffer (local data, or a list of them).
 * @param dst_buf destination buffer (remote memory, in an mmap created from the peer's RDMA export).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_write_allocate_init(struct doca_rdma *rdma,
						struct doca_rdma_connection *rdma_connection,
						const struct doca_buf *src_buf,
						struct doca_buf *dst_buf,
						union doca_data user_data,
						struct doca_rdma_task_write **task);

/**
 * @brief The generic view of a write task, for doca_task_submit, doca_task_free and the other doca_task_*
 *     calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_write_as_task(struct doca_rdma_task_write *task);

/**
 * @brief Replace the source buffer (local data, or a list of them) of a write task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param src_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_write_set_src_buf(struct doca_rdma_task_write *task, const struct doca_buf *src_buf);

/**
 * @brief The source buffer (local data, or a list of them) of a write task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_buf *doca_rdma_task_write_get_src_buf(const struct doca_rdma_task_write *task);

/**
 * @brief Replace the destination buffer (remote memory, in an mmap created from the peer's RDMA export) of a
 *     write task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param dst_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_write_set_dst_buf(struct doca_rdma_task_write *task, struct doca_buf *dst_buf);

/**
 * @brief The destination buffer (remote memory, in an mmap created from the peer's RDMA export) of a write
 *     task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_write_get_dst_buf(const struct doca_rdma_task_write *task);

/**
 * @brief Replace the connection the task runs on of a write task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_write_set_rdma_connection(struct doca_rdma_task_write *task,
						  struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a write task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_write_get_rdma_connection(const struct doca_rdma_task_write *task);

/** A write imm task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_write_imm;

/** Completion callback of write imm tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_write_imm_completion_cb_t)(struct doca_rdma_task_write_imm *task,
							 union doca_data task_user_data,
							 union doca_data ctx_user_data);

/**
 * @brief Whether the device can run write with immediate tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_write_imm_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the write with immediate tasks of an RDMA context: a write that, once its bytes landed,
 *     consumes one receive task of the peer and hands it a 32-bit immediate value.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run write with immediate tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_write_imm_set_conf(struct doca_rdma *rdma,
						   doca_rdma_task_write_imm_completion_cb_t successful_task_completion_cb,
						   doca_rdma_task_write_imm_completion_cb_t error_task_completion_cb,
						   uint32_t num_tasks);

/**
 * @brief Take a write with immediate task from the context's pool and fill it: a write that, once its bytes
 *     landed, consumes one receive task of the peer and hands it a 32-bit immediate value.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param src_buf source buffer (local data, or a list of them).
 * @param dst_buf destination buffer (remote memory, in an mmap created from the peer's RDMA export).
 * @param immediate_data immediate value (32 bits, big-endian as on the wire).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_write_imm_allocate_init(struct doca_rdma *rdma,
							struct doca_rdma_connection *rdma_connection,
							const struct doca_buf *src_buf,
							struct doca_buf *dst_buf,
							doca_be32_t immediate_data,
							union doca_data user_data,
							struct doca_rdma_task_write_imm **task);

/**
 * @brief The generic view of a write with immediate task, for doca_task_submit, doca_task_free and the other
 *     doca_task_* calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_write_imm_as_task(struct doca_rdma_task_write_imm *task);

/**
 * @brief Replace the source buffer (local data, or a list of them) of a write with immediate task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param src_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_write_imm_set_src_buf(struct doca_rdma_task_write_imm *task, const struct doca_buf *src_buf);

/**
 * @brief The source buffer (local data, or a list of them) of a write with immediate task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_buf *doca_rdma_task_write_imm_get_src_buf(const struct doca_rdma_task_write_imm *task);

/**
 * @brief Replace the destination buffer (remote memory, in an mmap created from the peer's RDMA export) of a
 *     write with immediate task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param dst_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_write_imm_set_dst_buf(struct doca_rdma_task_write_imm *task, struct doca_buf *dst_buf);

/**
 * @brief The destination buffer (remote memory, in an mmap created from the peer's RDMA export) of a write
 *     with immediate task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_write_imm_get_dst_buf(const struct doca_rdma_task_write_imm *task);

/**
 * @brief Replace the immediate value (32 bits, big-endian as on the wire) of a write with immediate task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param immediate_data the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_write_imm_set_immediate_data(struct doca_rdma_task_write_imm *task, doca_be32_t immediate_data);

/**
 * @brief The immediate value (32 bits, big-endian as on the wire) of a write with immediate task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
doca_be32_t doca_rdma_task_write_imm_get_immediate_data(const struct doca_rdma_task_write_imm *task);

/**
 * @brief Replace the connection the task runs on of a write with immediate task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_write_imm_set_rdma_connection(struct doca_rdma_task_write_imm *task,
						  struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a write with immediate task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_write_imm_get_rdma_connection(
	const struct doca_rdma_task_write_imm *task);

/** A atomic cmp swp task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_atomic_cmp_swp;

/** Completion callback of atomic cmp swp tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_atomic_cmp_swp_completion_cb_t)(struct doca_rdma_task_atomic_cmp_swp *task,
								  union doca_data task_user_data,
								  union doca_data ctx_user_data);

/**
 * @brief Whether the device can run atomic compare-and-swap tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_atomic_cmp_swp_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the atomic compare-and-swap tasks of an RDMA context: an 8-byte compare-and-swap on remote
 *     memory, atomic against every other atomic on the same address.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run atomic compare-and-swap tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_atomic_cmp_swp_set_conf(
	struct doca_rdma *rdma,
	doca_rdma_task_atomic_cmp_swp_completion_cb_t successful_task_completion_cb,
	doca_rdma_task_atomic_cmp_swp_completion_cb_t error_task_completion_cb,
	uint32_t num_tasks);

/**
 * @brief Take a atomic compare-and-swap task from the context's pool and fill it: an 8-byte compare-and-swap
 *     on remote memory, atomic against every other atomic on the same address.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param dst_buf destination buffer (8 bytes of remote memory, 8-byte aligned).
 * @param result_buf result buffer (8 local bytes that receive the value held before the operation).
 * @param cmp_data value compared with the remote 8 bytes.
 * @param swap_data value stored when the comparison holds.
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_atomic_cmp_swp_allocate_init(struct doca_rdma *rdma,
							 struct doca_rdma_connection *rdma_connection,
							 struct doca_buf *dst_buf,
							 struct doca_buf *result_buf,
							 uint64_t cmp_data,
							 uint64_t swap_data,
							 union doca_data user_data,
							 struct doca_rdma_task_atomic_cmp_swp **task);

/**
 * @brief The generic view of a atomic compare-and-swap task, for doca_task_submit, doca_task_free and the
 *     other doca_task_* calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_atomic_cmp_swp_as_task(struct doca_rdma_task_atomic_cmp_swp *task);

/**
 * @brief Replace the destination buffer (8 bytes of remote memory, 8-byte aligned) of a atomic compare-and-
 *     swap task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param dst_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_cmp_swp_set_dst_buf(struct doca_rdma_task_atomic_cmp_swp *task, struct doca_buf *dst_buf);

/**
 * @brief The destination buffer (8 bytes of remote memory, 8-byte aligned) of a atomic compare-and-swap task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_atomic_cmp_swp_get_dst_buf(const struct doca_rdma_task_atomic_cmp_swp *task);

/**
 * @brief Replace the result buffer (8 local bytes that receive the value held before the operation) of a
 *     atomic compare-and-swap task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param result_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_cmp_swp_set_result_buf(struct doca_rdma_task_atomic_cmp_swp *task,
						  struct doca_buf *result_buf);

/**
 * @brief The result buffer (8 local bytes that receive the value held before the operation) of a atomic
 *     compare-and-swap task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_atomic_cmp_swp_get_result_buf(const struct doca_rdma_task_atomic_cmp_swp *task);

/**
 * @brief Replace the value compared with the remote 8 bytes of a atomic compare-and-swap task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param cmp_data the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_cmp_swp_set_cmp_data(struct doca_rdma_task_atomic_cmp_swp *task, uint64_t cmp_data);

/**
 * @brief The value compared with the remote 8 bytes of a atomic compare-and-swap task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
uint64_t doca_rdma_task_atomic_cmp_swp_get_cmp_data(const struct doca_rdma_task_atomic_cmp_swp *task);

/**
 * @brief Replace the value stored when the comparison holds of a atomic compare-and-swap task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param swap_data the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_cmp_swp_set_swap_data(struct doca_rdma_task_atomic_cmp_swp *task, uint64_t swap_data);

/**
 * @brief The value stored when the comparison holds of a atomic compare-and-swap task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
uint64_t doca_rdma_task_atomic_cmp_swp_get_swap_data(const struct doca_rdma_task_atomic_cmp_swp *task);

/**
 * @brief Replace the connection the task runs on of a atomic compare-and-swap task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_cmp_swp_set_rdma_connection(struct doca_rdma_task_atomic_cmp_swp *task,
							   struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a atomic compare-and-swap task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_atomic_cmp_swp_get_rdma_connection(
	const struct doca_rdma_task_atomic_cmp_swp *task);

/** A atomic fetch add task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_atomic_fetch_add;

/** Completion callback of atomic fetch add tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_atomic_fetch_add_completion_cb_t)(struct doca_rdma_task_atomic_fetch_add *task,
								union doca_data task_user_data,
								union doca_data ctx_user_data);

/**
 * @brief Whether the device can run atomic fetch-and-add tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_atomic_fetch_add_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the atomic fetch-and-add tasks of an RDMA context: an 8-byte fetch-and-add on remote
 *     memory, atomic against every other atomic on the same address.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run atomic fetch-and-add tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_atomic_fetch_add_set_conf(
	struct doca_rdma *rdma,
	doca_rdma_task_atomic_fetch_add_completion_cb_t successful_task_completion_cb,
	doca_rdma_task_atomic_fetch_add_completion_cb_t error_task_completion_cb,
	uint32_t num_tasks);

/**
 * @brief Take a atomic fetch-and-add task from the context's pool and fill it: an 8-byte fetch-and-add on
 *     remote memory, atomic against every other atomic on the same address.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param dst_buf destination buffer (8 bytes of remote memory, 8-byte aligned).
 * @param result_buf result buffer (8 local bytes that receive the value held before the operation).
 * @param add_data value added to the remote 8 bytes.
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_atomic_fetch_add_allocate_init(struct doca_rdma *rdma,
							   struct doca_rdma_connection *rdma_connection,
							   struct doca_buf *dst_buf,
							   struct doca_buf *result_buf,
							   uint64_t add_data,
							   union doca_data user_data,
							   struct doca_rdma_task_atomic_fetch_add **task);

/**
 * @brief The generic view of a atomic fetch-and-add task, for doca_task_submit, doca_task_free and the other
 *     doca_task_* calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_atomic_fetch_add_as_task(struct doca_rdma_task_atomic_fetch_add *task);

/**
 * @brief Replace the destination buffer (8 bytes of remote memory, 8-byte aligned) of a atomic fetch-and-add
 *     task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param dst_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_fetch_add_set_dst_buf(struct doca_rdma_task_atomic_fetch_add *task,
						 struct doca_buf *dst_buf);

/**
 * @brief The destination buffer (8 bytes of remote memory, 8-byte aligned) of a atomic fetch-and-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_atomic_fetch_add_get_dst_buf(const struct doca_rdma_task_atomic_fetch_add *task);

/**
 * @brief Replace the result buffer (8 local bytes that receive the value held before the operation) of a
 *     atomic fetch-and-add task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param result_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_fetch_add_set_result_buf(struct doca_rdma_task_atomic_fetch_add *task,
							struct doca_buf *result_buf);

/**
 * @brief The result buffer (8 local bytes that receive the value held before the operation) of a atomic fetch-
 *     and-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_atomic_fetch_add_get_result_buf(const struct doca_rdma_task_atomic_fetch_add *task);

/**
 * @brief Replace the value added to the remote 8 bytes of a atomic fetch-and-add task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param add_data the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_fetch_add_set_add_data(struct doca_rdma_task_atomic_fetch_add *task, uint64_t add_data);

/**
 * @brief The value added to the remote 8 bytes of a atomic fetch-and-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
uint64_t doca_rdma_task_atomic_fetch_add_get_add_data(const struct doca_rdma_task_atomic_fetch_add *task);

/**
 * @brief Replace the connection the task runs on of a atomic fetch-and-add task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_atomic_fetch_add_set_rdma_connection(struct doca_rdma_task_atomic_fetch_add *task,
							 struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a atomic fetch-and-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_atomic_fetch_add_get_rdma_connection(
	const struct doca_rdma_task_atomic_fetch_add *task);

/** A remote net sync event get task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_remote_net_sync_event_get;

/** Completion callback of remote net sync event get tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_remote_net_sync_event_get_completion_cb_t)(
	struct doca_rdma_task_remote_net_sync_event_get *task,
	union doca_data task_user_data,
	union doca_data ctx_user_data);

/**
 * @brief Whether the device can run remote-net sync event get tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_remote_net_sync_event_get_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the remote-net sync event get tasks of an RDMA context: reading the 64-bit value of a sync
 *     event that a peer exported for remote-net use.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run remote-net sync event get tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_remote_net_sync_event_get_set_conf(
	struct doca_rdma *rdma,
	doca_rdma_task_remote_net_sync_event_get_completion_cb_t successful_task_completion_cb,
	doca_rdma_task_remote_net_sync_event_get_completion_cb_t error_task_completion_cb,
	uint32_t num_tasks);

/**
 * @brief Take a remote-net sync event get task from the context's pool and fill it: reading the 64-bit value
 *     of a sync event that a peer exported for remote-net use.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param event remote-net sync event handle the task acts on.
 * @param dst_buf destination buffer (local; the event's 8-byte value lands after its data).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_remote_net_sync_event_get_allocate_init(
	struct doca_rdma *rdma,
	struct doca_rdma_connection *rdma_connection,
	const struct doca_sync_event_remote_net *event,
	struct doca_buf *dst_buf,
	union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_get **task);

/**
 * @brief The generic view of a remote-net sync event get task, for doca_task_submit, doca_task_free and the
 *     other doca_task_* calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_remote_net_sync_event_get_as_task(
	struct doca_rdma_task_remote_net_sync_event_get *task);

/**
 * @brief Replace the remote-net sync event handle the task acts on of a remote-net sync event get task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param event the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_get_set_sync_event(struct doca_rdma_task_remote_net_sync_event_get *task,
								 const struct doca_sync_event_remote_net *event);

/**
 * @brief The remote-net sync event handle the task acts on of a remote-net sync event get task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_sync_event_remote_net *doca_rdma_task_remote_net_sync_event_get_get_sync_event(
	const struct doca_rdma_task_remote_net_sync_event_get *task);

/**
 * @brief Replace the destination buffer (local; the event's 8-byte value lands after its data) of a remote-net
 *     sync event get task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param dst_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_get_set_dst_buf(struct doca_rdma_task_remote_net_sync_event_get *task,
							  struct doca_buf *dst_buf);

/**
 * @brief The destination buffer (local; the event's 8-byte value lands after its data) of a remote-net sync
 *     event get task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_remote_net_sync_event_get_get_dst_buf(
	const struct doca_rdma_task_remote_net_sync_event_get *task);

/**
 * @brief Number of bytes the completed remote-net sync event get task wrote into its destination.
 * @param task a completed task.
 * @return the length, or 0 (with one error record) for a task that is not a live task of this type.
 */
DOCA_EXPERIMENTAL
uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_len(
	const struct doca_rdma_task_remote_net_sync_event_get *task);

/**
 * @brief Replace the connection the task runs on of a remote-net sync event get task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_get_set_rdma_connection(struct doca_rdma_task_remote_net_sync_event_get *task,
								  struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a remote-net sync event get task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_remote_net_sync_event_get_get_rdma_connection(
	const struct doca_rdma_task_remote_net_sync_event_get *task);

/** A remote net sync event notify set task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_remote_net_sync_event_notify_set;

/** Completion callback of remote net sync event notify set tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_remote_net_sync_event_notify_set_completion_cb_t)(
	struct doca_rdma_task_remote_net_sync_event_notify_set *task,
	union doca_data task_user_data,
	union doca_data ctx_user_data);

/**
 * @brief Whether the device can run remote-net sync event notify-set tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the remote-net sync event notify-set tasks of an RDMA context: storing a 64-bit value
 *     (taken from a local buffer) into a peer's remote-net sync event.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run remote-net sync event notify-set tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
	struct doca_rdma *rdma,
	doca_rdma_task_remote_net_sync_event_notify_set_completion_cb_t successful_task_completion_cb,
	doca_rdma_task_remote_net_sync_event_notify_set_completion_cb_t error_task_completion_cb,
	uint32_t num_tasks);

/**
 * @brief Take a remote-net sync event notify-set task from the context's pool and fill it: storing a 64-bit
 *     value (taken from a local buffer) into a peer's remote-net sync event.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param event remote-net sync event handle the task acts on.
 * @param src_buf source buffer (local; its first 8 data bytes are the value to store).
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
	struct doca_rdma *rdma,
	struct doca_rdma_connection *rdma_connection,
	struct doca_sync_event_remote_net *event,
	const struct doca_buf *src_buf,
	union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_notify_set **task);

/**
 * @brief The generic view of a remote-net sync event notify-set task, for doca_task_submit, doca_task_free and
 *     the other doca_task_* calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_remote_net_sync_event_notify_set_as_task(
	struct doca_rdma_task_remote_net_sync_event_notify_set *task);

/**
 * @brief Replace the remote-net sync event handle the task acts on of a remote-net sync event notify-set task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param event the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_notify_set_set_sync_event(
	struct doca_rdma_task_remote_net_sync_event_notify_set *task,
	struct doca_sync_event_remote_net *event);

/**
 * @brief The remote-net sync event handle the task acts on of a remote-net sync event notify-set task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_sync_event_remote_net *doca_rdma_task_remote_net_sync_event_notify_set_get_sync_event(
	const struct doca_rdma_task_remote_net_sync_event_notify_set *task);

/**
 * @brief Replace the connection the task runs on of a remote-net sync event notify-set task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_notify_set_set_rdma_connection(
	struct doca_rdma_task_remote_net_sync_event_notify_set *task,
	struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a remote-net sync event notify-set task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_remote_net_sync_event_notify_set_get_rdma_connection(
	const struct doca_rdma_task_remote_net_sync_event_notify_set *task);

/**
 * @brief Replace the source buffer (local; its first 8 data bytes are the value to store) of a remote-net sync
 *     event notify-set task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param src_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_notify_set_set_src_buf(
	struct doca_rdma_task_remote_net_sync_event_notify_set *task,
	const struct doca_buf *src_buf);

/**
 * @brief The source buffer (local; its first 8 data bytes are the value to store) of a remote-net sync event
 *     notify-set task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_buf *doca_rdma_task_remote_net_sync_event_notify_set_get_src_buf(
	const struct doca_rdma_task_remote_net_sync_event_notify_set *task);

/** A remote net sync event notify add task; its generic view comes from the matching _as_task call. */
struct doca_rdma_task_remote_net_sync_event_notify_add;

/** Completion callback of remote net sync event notify add tasks (success and error share the signature); called from doca_pe_progress. */
typedef void (*doca_rdma_task_remote_net_sync_event_notify_add_completion_cb_t)(
	struct doca_rdma_task_remote_net_sync_event_notify_add *task,
	union doca_data task_user_data,
	union doca_data ctx_user_data);

/**
 * @brief Whether the device can run remote-net sync event notify-add tasks.
 * Answers from the device's capability profile; a "no" logs nothing.
 * @param devinfo the device.
 * @return DOCA_SUCCESS when supported, DOCA_ERROR_NOT_SUPPORTED when not, DOCA_ERROR_INVALID_VALUE when
 *     devinfo is not a device information handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Configure the remote-net sync event notify-add tasks of an RDMA context: adding to the 64-bit value
 *     of a peer's remote-net sync event and fetching the value it held before.
 * Sets both completion callbacks and the number of tasks in the context's pool, created when the context
 * starts. Allowed only while the context is IDLE.
 * @param rdma the RDMA context.
 * @param successful_task_completion_cb called from doca_pe_progress for a task that succeeded.
 * @param error_task_completion_cb called from doca_pe_progress for a task that failed or was flushed;
 *     doca_task_get_status tells why.
 * @param num_tasks pool size, at least 1.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, a callback
 *     is NULL or num_tasks is 0 or above the device's queue capacity; DOCA_ERROR_BAD_STATE when the context is
 *     not IDLE; DOCA_ERROR_NOT_SUPPORTED when the device cannot run remote-net sync event notify-add tasks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_set_conf(
	struct doca_rdma *rdma,
	doca_rdma_task_remote_net_sync_event_notify_add_completion_cb_t successful_task_completion_cb,
	doca_rdma_task_remote_net_sync_event_notify_add_completion_cb_t error_task_completion_cb,
	uint32_t num_tasks);

/**
 * @brief Take a remote-net sync event notify-add task from the context's pool and fill it: adding to the
 *     64-bit value of a peer's remote-net sync event and fetching the value it held before.
 * The context must be RUNNING. The buffers, connection and event stay owned by the caller and must stay valid
 * until the task is completed and freed (doca_task_free).
 * @param rdma the RDMA context that owns the pool.
 * @param rdma_connection connection the task runs on.
 * @param event remote-net sync event handle the task acts on.
 * @param result_buf result buffer (8 local bytes that receive the value held before the operation).
 * @param add_data value added to the remote 8 bytes.
 * @param user_data handed back to the completion callback.
 * @param task set to the new task on success.
 * @return DOCA_SUCCESS, or: DOCA_ERROR_INVALID_VALUE when rdma is NULL or not a live RDMA context, or task is
 *     NULL; DOCA_ERROR_BAD_STATE when the context is not RUNNING; DOCA_ERROR_NO_MEMORY when every task of the
 *     pool is in use. Buffer and connection rules are checked at submit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
	struct doca_rdma *rdma,
	struct doca_rdma_connection *rdma_connection,
	struct doca_sync_event_remote_net *event,
	struct doca_buf *result_buf,
	uint64_t add_data,
	union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_notify_add **task);

/**
 * @brief The generic view of a remote-net sync event notify-add task, for doca_task_submit, doca_task_free and
 *     the other doca_task_* calls.
 * @param task the task.
 * @return the task's doca_task, or NULL (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_rdma_task_remote_net_sync_event_notify_add_as_task(
	struct doca_rdma_task_remote_net_sync_event_notify_add *task);

/**
 * @brief Replace the remote-net sync event handle the task acts on of a remote-net sync event notify-add task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param event the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_notify_add_set_sync_event(
	struct doca_rdma_task_remote_net_sync_event_notify_add *task,
	struct doca_sync_event_remote_net *event);

/**
 * @brief The remote-net sync event handle the task acts on of a remote-net sync event notify-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_sync_event_remote_net *doca_rdma_task_remote_net_sync_event_notify_add_get_sync_event(
	const struct doca_rdma_task_remote_net_sync_event_notify_add *task);

/**
 * @brief Replace the result buffer (8 local bytes that receive the value held before the operation) of a
 *     remote-net sync event notify-add task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param result_buf the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_notify_add_set_result_buf(
	struct doca_rdma_task_remote_net_sync_event_notify_add *task,
	struct doca_buf *result_buf);

/**
 * @brief The result buffer (8 local bytes that receive the value held before the operation) of a remote-net
 *     sync event notify-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
struct doca_buf *doca_rdma_task_remote_net_sync_event_notify_add_get_result_buf(
	const struct doca_rdma_task_remote_net_sync_event_notify_add *task);

/**
 * @brief Replace the value added to the remote 8 bytes of a remote-net sync event notify-add task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param add_data the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_notify_add_set_add_data(
	struct doca_rdma_task_remote_net_sync_event_notify_add *task,
	uint64_t add_data);

/**
 * @brief The value added to the remote 8 bytes of a remote-net sync event notify-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
uint64_t doca_rdma_task_remote_net_sync_event_notify_add_get_add_data(
	const struct doca_rdma_task_remote_net_sync_event_notify_add *task);

/**
 * @brief Replace the connection the task runs on of a remote-net sync event notify-add task.
 * Allowed while the application holds the task (allocated or completed, not submitted). A NULL, foreign or
 * submitted task is left unchanged and the refusal is logged once; a bad value is refused at submit.
 * @param task the task.
 * @param rdma_connection the new value.
 */
DOCA_EXPERIMENTAL
void doca_rdma_task_remote_net_sync_event_notify_add_set_rdma_connection(
	struct doca_rdma_task_remote_net_sync_event_notify_add *task,
	struct doca_rdma_connection *rdma_connection);

/**
 * @brief The connection the task runs on of a remote-net sync event notify-add task.
 * @param task the task.
 * @return the value, or NULL / 0 (with one error record) when task is not a live task of this type.
 */
DOCA_EXPERIMENTAL
const struct doca_rdma_connection *doca_rdma_task_remote_net_sync_event_notify_add_get_rdma_connection(
	const struct doca_rdma_task_remote_net_sync_event_notify_add *task);

/** A DPA completion context (doca_dpa.h; not available in softdoca). */
struct doca_dpa_completion;

/**
 * @brief Attach a DPA completion context to the RDMA context.
 * @param rdma the context.
 * @param dpa_comp the DPA completion.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL or foreign argument, otherwise DOCA_ERROR_NOT_SUPPORTED (one
 *     record: no DPA on the device).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_rdma_dpa_completion_attach(struct doca_rdma *rdma, struct doca_dpa_completion *dpa_comp);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DOCA_RDMA_H_ */
