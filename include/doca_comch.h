/**
 * @file doca_comch.h
 * @brief DOCA Comch, control path: message channels between a
 * program on the host and a program on the DPU.
 *
 * softdoca's rendition of the DOCA 3.3 Comch interface.  A server lives on
 * a DPU-side device and listens, under a name, for clients of one host
 * function (named by a representor of that device).  A client lives on a
 * host-side device and connects to the server of the same name.  Both are
 * DOCA contexts: configure them while IDLE, connect them to a progress
 * engine, start them through their context view.  An established link is a
 * connection; messages travel over it with send tasks and arrive as receive
 * events, both reported by doca_pe_progress.
 *
 * In softdoca the two ends are ordinary processes on one machine (or two
 * endpoints in one process); see docs/decisions.md for the transport.
 */
#ifndef DOCA_COMCH_H_
#define DOCA_COMCH_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_dev;
struct doca_dev_rep;
struct doca_devinfo;
struct doca_task;

/* ---- connections ---- */

/**
 * @struct doca_comch_connection
 * One established link between a client and a server, created by the
 * library.  A server's connection is valid from its connect callback until
 * its disconnect callback returns (or the server stops); a client's while the
 * client is RUNNING.  Never freed by the application.
 */
struct doca_comch_connection;

/**
 * @brief Attaches a value to a connection (zero when it appears).
 *
 * @param connection the connection.
 * @param user_data the value; softdoca never interprets it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p connection is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_connection_set_user_data(struct doca_comch_connection *connection, union doca_data user_data);

/**
 * @brief The value last attached to a connection.
 *
 * @param connection the connection.
 * @return the value; all zero for NULL.
 */
DOCA_STABLE
union doca_data doca_comch_connection_get_user_data(const struct doca_comch_connection *connection);

/**
 * @brief The server a connection belongs to.
 *
 * @param connection the connection.
 * @return the server; NULL for a client's connection or NULL.
 */
DOCA_STABLE
struct doca_comch_server *doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection);

/**
 * @brief The client a connection belongs to.
 *
 * @param connection the connection.
 * @return the client; NULL for a server's connection or NULL.
 */
DOCA_STABLE
struct doca_comch_client *doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection);

/* ---- device capabilities ---- */

/**
 * @brief The longest server name a device accepts, counting its terminating NUL (120 by default).
 *
 * Any time, any thread; no Comch object needed.
 *
 * @param devinfo the device.
 * @param max_name_len receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_name_len(const struct doca_devinfo *devinfo, uint32_t *max_name_len);

/**
 * @brief The largest message an endpoint on this device may be configured for (4080 bytes by default).
 *
 * Any time, any thread; no Comch object needed.
 *
 * @param devinfo the device.
 * @param size receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_msg_size(const struct doca_devinfo *devinfo, uint32_t *size);

/**
 * @brief The largest receive queue an endpoint on this device may ask for.
 *
 * Any time, any thread; no Comch object needed.
 *
 * @param devinfo the device.
 * @param size receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *size);

/**
 * @brief How many clients one server on this device can hold at once.
 *
 * Any time, any thread; no Comch object needed.
 *
 * @param devinfo the device.
 * @param num_clients receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_clients(const struct doca_devinfo *devinfo, uint32_t *num_clients);

/* ---- server ---- */

/**
 * @struct doca_comch_server
 * A Comch server: a context on a DPU-side device that listens, under a name,
 * for the clients of one host function.  Created with
 * doca_comch_server_create(), owned by the application, destroyed with
 * doca_comch_server_destroy() once IDLE.
 */
struct doca_comch_server;

/**
 * @brief Creates an IDLE server on a DPU-side device for the host function a representor stands for.
 *
 * The name becomes visible to clients when the context starts (synchronously:
 * IDLE to RUNNING inside doca_ctx_start()).
 *
 * @param dev an open DPU-side device.
 * @param repr a representor opened through @p dev.
 * @param name the server's name (copied), shorter than doca_comch_cap_get_max_name_len().
 * @param comch_server receives the server; the caller owns it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, the name is too long or
 * the representor does not belong to @p dev;
 * DOCA_ERROR_NOT_SUPPORTED when the device cannot host a server (a host-side device);
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated;
 * DOCA_ERROR_INITIALIZATION when its internal state cannot be set up.
 */
DOCA_STABLE
doca_error_t doca_comch_server_create(struct doca_dev *dev,
				      struct doca_dev_rep *repr,
				      const char *name,
				      struct doca_comch_server **comch_server);

/**
 * @brief Destroys a server whose context is IDLE.
 *
 * @param comch_server the server.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE (the server is left intact).
 */
DOCA_STABLE
doca_error_t doca_comch_server_destroy(struct doca_comch_server *comch_server);

/**
 * @brief Whether a device can host a server (every DPU-side device can).
 *
 * @param devinfo the device.
 * @return DOCA_SUCCESS when it can; DOCA_ERROR_NOT_SUPPORTED when it cannot;
 * DOCA_ERROR_INVALID_VALUE when @p devinfo is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Sets the largest message of this server; IDLE only.
 *
 * @param comch_server the server.
 * @param size 1 to doca_comch_cap_get_max_msg_size().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when the server is NULL, or the value is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_server_set_max_msg_size(struct doca_comch_server *comch_server, uint32_t size);

/**
 * @brief The largest message of this server (the device's capability unless set).
 *
 * Any state.
 *
 * @param comch_server the server.
 * @param size receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_server_get_max_msg_size(const struct doca_comch_server *comch_server, uint32_t *size);

/**
 * @brief Sets how many received messages are held of this server; IDLE only.
 *
 * @param comch_server the server.
 * @param size 1 to doca_comch_cap_get_max_recv_queue_size().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when the server is NULL, or the value is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_server_set_recv_queue_size(struct doca_comch_server *comch_server, uint32_t size);

/**
 * @brief How many received messages are held of this server (the device's capability unless set).
 *
 * Any state.
 *
 * @param comch_server the server.
 * @param size receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_server_get_recv_queue_size(const struct doca_comch_server *comch_server, uint32_t *size);

/**
 * @brief The device the server was created on.
 *
 * @param comch_server the server.
 * @param dev receives the device (not a new reference).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_server_get_device(const struct doca_comch_server *comch_server, struct doca_dev **dev);

/**
 * @brief The representor the server was created with.
 *
 * @param comch_server the server.
 * @param rep receives the representor (not a new reference).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_server_get_device_rep(const struct doca_comch_server *comch_server, struct doca_dev_rep **rep);

/**
 * @brief The generic context of the server, for doca_ctx_*() and doca_pe_connect_ctx().
 *
 * @param comch_server the server.
 * @return the context, the same pointer on every call and owned by the server; NULL for NULL.
 */
DOCA_STABLE
struct doca_ctx *doca_comch_server_as_ctx(struct doca_comch_server *comch_server);

/**
 * @brief Ends one connection of a RUNNING server; its client is told.
 *
 * The connection is invalid once this returns; the server's own disconnect
 * callback does not fire for it.
 *
 * @param comch_server the server.
 * @param connection one of its connections.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, or the connection is not
 * a connected one of this server;
 * DOCA_ERROR_BAD_STATE when the server is not RUNNING.
 */
DOCA_STABLE
doca_error_t doca_comch_server_disconnect(struct doca_comch_server *comch_server,
					  struct doca_comch_connection *connection);

/* ---- client ---- */

/**
 * @struct doca_comch_client
 * A Comch client: a context on a host-side device that connects to the server
 * of a given name.  Created with doca_comch_client_create(), owned by the
 * application, destroyed with doca_comch_client_destroy() once IDLE.
 */
struct doca_comch_client;

/**
 * @brief Creates an IDLE client on a host-side device that will look for the server @p name.
 *
 * Its start is asynchronous: doca_ctx_start() answers DOCA_ERROR_IN_PROGRESS
 * (IDLE to STARTING), and a later doca_pe_progress() reports RUNNING once the
 * server accepted the connection; until a matching server runs, the client
 * keeps trying.
 *
 * @param dev an open host-side device.
 * @param name the server's name (copied).
 * @param comch_client receives the client; the caller owns it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or the name is too long;
 * DOCA_ERROR_NOT_SUPPORTED when the device cannot host a client (a DPU-side device);
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated;
 * DOCA_ERROR_INITIALIZATION when its internal state cannot be set up.
 */
DOCA_STABLE
doca_error_t doca_comch_client_create(struct doca_dev *dev, const char *name, struct doca_comch_client **comch_client);

/**
 * @brief Destroys a client whose context is IDLE.
 *
 * @param comch_client the client.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE (the client is left intact).
 */
DOCA_STABLE
doca_error_t doca_comch_client_destroy(struct doca_comch_client *comch_client);

/**
 * @brief Whether a device can host a client (every host-side device can).
 *
 * @param devinfo the device.
 * @return DOCA_SUCCESS when it can; DOCA_ERROR_NOT_SUPPORTED when it cannot;
 * DOCA_ERROR_INVALID_VALUE when @p devinfo is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Sets the largest message of this client; IDLE only.
 *
 * @param comch_client the client.
 * @param size 1 to doca_comch_cap_get_max_msg_size().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when the client is NULL, or the value is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_client_set_max_msg_size(struct doca_comch_client *comch_client, uint32_t size);

/**
 * @brief The largest message of this client (the device's capability unless set).
 *
 * Any state.
 *
 * @param comch_client the client.
 * @param size receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_client_get_max_msg_size(const struct doca_comch_client *comch_client, uint32_t *size);

/**
 * @brief Sets how many received messages are held of this client; IDLE only.
 *
 * @param comch_client the client.
 * @param size 1 to doca_comch_cap_get_max_recv_queue_size().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when the client is NULL, or the value is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when its context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_client_set_recv_queue_size(struct doca_comch_client *comch_client, uint32_t size);

/**
 * @brief How many received messages are held of this client (the device's capability unless set).
 *
 * Any state.
 *
 * @param comch_client the client.
 * @param size receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_client_get_recv_queue_size(const struct doca_comch_client *comch_client, uint32_t *size);

/**
 * @brief The device the client was created on.
 *
 * @param comch_client the client.
 * @param dev receives the device (not a new reference).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_client_get_device(const struct doca_comch_client *comch_client, struct doca_dev **dev);

/**
 * @brief The generic context of the client, for doca_ctx_*() and doca_pe_connect_ctx().
 *
 * @param comch_client the client.
 * @return the context, the same pointer on every call and owned by the client; NULL for NULL.
 */
DOCA_STABLE
struct doca_ctx *doca_comch_client_as_ctx(struct doca_comch_client *comch_client);

/**
 * @brief The client's one connection, while its context is RUNNING.
 *
 * @param comch_client the client.
 * @param connection receives the connection (the same pointer while connected; owned by the library).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the client is not RUNNING.
 */
DOCA_STABLE
doca_error_t doca_comch_client_get_connection(const struct doca_comch_client *comch_client,
					      struct doca_comch_connection **connection);

/* ---- send task ---- */

/**
 * @struct doca_comch_task_send
 * A task that sends one message over one connection.  It belongs to its
 * endpoint's pool: allocated with doca_comch_server_task_send_alloc_init() or
 * doca_comch_client_task_send_alloc_init(), submitted and freed through
 * doca_comch_task_send_as_task().
 */
struct doca_comch_task_send;

/**
 * @brief The success and the error callback of send tasks.
 *
 * Called from doca_pe_progress() with the task back in the application's
 * hands (free it or reuse it).  Success means the message reached the peer's
 * receive path.  A failed send does not stop its context; in the error
 * callback doca_task_get_status() says why (DOCA_ERROR_NOT_CONNECTED when the
 * peer is gone, DOCA_ERROR_SHUTDOWN when a stop flushed it).
 *
 * @param task the task.
 * @param task_user_data the task's user data.
 * @param ctx_user_data the user data of the endpoint's context.
 */
typedef void (*doca_comch_task_send_completion_cb_t)(struct doca_comch_task_send *task,
						     union doca_data task_user_data,
						     union doca_data ctx_user_data);

/**
 * @brief The largest send-task pool an endpoint on this device may configure.
 *
 * Any time, any thread; no Comch object needed.
 *
 * @param devinfo the device.
 * @param max_send_tasks receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_send_tasks(const struct doca_devinfo *devinfo, uint32_t *max_send_tasks);

/**
 * @brief Sets the callbacks and the pool size of the server's send tasks; IDLE only.
 *
 * @param comch_server the server.
 * @param task_completion_cb called for each message sent.
 * @param task_error_cb called for each send that failed or was flushed.
 * @param num_send_tasks the pool size: 1 to doca_comch_cap_get_max_send_tasks().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or the count is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_server_task_send_set_conf(struct doca_comch_server *comch_server,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb,
						  uint32_t num_send_tasks);

/**
 * @brief Sets the callbacks and the pool size of the client's send tasks; IDLE only.
 *
 * @param comch_client the client.
 * @param task_completion_cb called for each message sent.
 * @param task_error_cb called for each send that failed or was flushed.
 * @param num_send_tasks the pool size: 1 to doca_comch_cap_get_max_send_tasks().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or the count is 0 or over the limit;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_client_task_send_set_conf(struct doca_comch_client *comch_client,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb,
						  uint32_t num_send_tasks);

/**
 * @brief Takes a send task for @p len bytes at @p msg to one of the server's connections.
 *
 * The bytes are copied now: the caller's buffer may be reused at once.
 *
 * @param comch_server a RUNNING server.
 * @param peer a live connection of this server.
 * @param msg the message.
 * @param len its length, 1 to the server's maximum message size.
 * @param task receives the task, owned by the application until submitted.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when a pointer is NULL, @p len is 0 or too large,
 * or @p peer is not a live connection of this server;
 * DOCA_ERROR_BAD_STATE when the server is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated (try again once one is freed).
 */
DOCA_STABLE
doca_error_t doca_comch_server_task_send_alloc_init(struct doca_comch_server *comch_server,
						    struct doca_comch_connection *peer,
						    const void *msg,
						    uint32_t len,
						    struct doca_comch_task_send **task);

/**
 * @brief Takes a send task for @p len bytes at @p msg to the client's connection.
 *
 * The bytes are copied now: the caller's buffer may be reused at once.
 *
 * @param comch_client a RUNNING client.
 * @param peer its connection (doca_comch_client_get_connection()).
 * @param msg the message.
 * @param len its length, 1 to the client's maximum message size.
 * @param task receives the task, owned by the application until submitted.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when a pointer is NULL, @p len is 0 or too large,
 * or @p peer is not this client's live connection;
 * DOCA_ERROR_BAD_STATE when the client is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated.
 */
DOCA_STABLE
doca_error_t doca_comch_client_task_send_alloc_init(struct doca_comch_client *comch_client,
						    struct doca_comch_connection *peer,
						    const void *msg,
						    uint32_t len,
						    struct doca_comch_task_send **task);

/**
 * @brief The generic view of a send task, for the doca_task_*() calls.
 *
 * @param task the send task.
 * @return the same task as struct doca_task; NULL for NULL.
 */
DOCA_STABLE
struct doca_task *doca_comch_task_send_as_task(struct doca_comch_task_send *task);

/* ---- receive event ---- */

/**
 * @struct doca_comch_event_msg_recv
 * The event object handed to receive callbacks; owned by the library.
 */
struct doca_comch_event_msg_recv;

/**
 * @brief Called from doca_pe_progress() once per received message.
 *
 * It may send replies, use the connection's user data and stop its own
 * context; it must not call doca_pe_progress().
 *
 * @param event the event (owned by the library).
 * @param recv_buffer the message bytes: valid only until the callback returns, never free them.
 * @param msg_len the exact length sent.
 * @param comch_connection the connection it came in on.
 */
typedef void (*doca_comch_event_msg_recv_cb_t)(struct doca_comch_event_msg_recv *event,
					       uint8_t *recv_buffer,
					       uint32_t msg_len,
					       struct doca_comch_connection *comch_connection);

/**
 * @brief Installs the server's receive callback; IDLE only.
 *
 * @param comch_server the server.
 * @param recv_event_cb the callback.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_server_event_msg_recv_register(struct doca_comch_server *comch_server,
						       doca_comch_event_msg_recv_cb_t recv_event_cb);

/**
 * @brief Installs the client's receive callback; IDLE only.
 *
 * @param comch_client the client.
 * @param recv_event_cb the callback.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_client_event_msg_recv_register(struct doca_comch_client *comch_client,
						       doca_comch_event_msg_recv_cb_t recv_event_cb);

/* ---- connection events (server) ---- */

/**
 * @struct doca_comch_event_connection_status_changed
 * The event object handed to connection callbacks; owned by the library.
 */
struct doca_comch_event_connection_status_changed;

/**
 * @brief Called from doca_pe_progress() on the server when a client connects or disconnects.
 *
 * The connect callback comes before any message of that connection; every
 * message a client sent comes before its disconnect callback.  A client that
 * exits is reported as disconnected.
 *
 * @param event the event (owned by the library).
 * @param comch_connection the connection.
 * @param change_successful 1 when the change succeeded, 0 when a connection could not be accepted.
 */
typedef void (*doca_comch_event_connection_status_changed_cb_t)(struct doca_comch_event_connection_status_changed *event,
								struct doca_comch_connection *comch_connection,
								uint8_t change_successful);

/**
 * @brief Installs the server's connect and disconnect callbacks; IDLE only.
 *
 * @param comch_server the server.
 * @param connect_event_cb called when a client connects.
 * @param disconnect_event_cb called when a client goes away.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_server_event_connection_status_changed_register(
	struct doca_comch_server *comch_server,
	doca_comch_event_connection_status_changed_cb_t connect_event_cb,
	doca_comch_event_connection_status_changed_cb_t disconnect_event_cb);

/* ---- connection statistics ---- */

/**
 * Per-connection counters, read from the snapshot doca_comch_connection_update_info() takes.
 */
enum doca_comch_counter {
	DOCA_COMCH_COUNTER_SENT_MESSAGES = 1, /**< messages this side sent */
	DOCA_COMCH_COUNTER_SENT_BYTES = 2, /**< bytes this side sent */
	DOCA_COMCH_COUNTER_RECV_MESSAGES = 3, /**< messages this side received */
	DOCA_COMCH_COUNTER_RECV_BYTES = 4, /**< bytes this side received */
};

/**
 * @brief Takes a snapshot of a connection's counters.
 *
 * @param comch_connection the connection.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_CONNECTION_INPROGRESS when it is not established yet;
 * DOCA_ERROR_CONNECTION_ABORTED when it failed.
 */
DOCA_STABLE
doca_error_t doca_comch_connection_update_info(struct doca_comch_connection *comch_connection);

/**
 * @brief Reads one counter of the last snapshot.
 *
 * @param comch_connection the connection.
 * @param counter_type which counter.
 * @param counter_value receives its value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when a pointer is NULL or the counter is unknown.
 */
DOCA_STABLE
doca_error_t doca_comch_connection_get_counter(const struct doca_comch_connection *comch_connection,
					       enum doca_comch_counter counter_type,
					       uint64_t *counter_value);

/* ---- consumer events (fast-path hook) ---- */

/**
 * @struct doca_comch_event_consumer
 * The event object handed to consumer callbacks; owned by the library.
 */
struct doca_comch_event_consumer;

/**
 * @brief Reports a fast-path consumer appearing on, or leaving, the peer of a connection.
 *
 * Called from doca_pe_progress of the PE that holds the server or client, when
 * a consumer of the peer starts (new) or stops or goes away with its process
 * (expired); a producer then sends to that id (docs/comch-fast-path.md).
 *
 * @param event the event (owned by the library).
 * @param comch_connection the connection.
 * @param id the consumer's id, the address a producer uses.
 */
typedef void (*doca_comch_event_consumer_cb_t)(struct doca_comch_event_consumer *event,
					       struct doca_comch_connection *comch_connection,
					       uint32_t id);

/**
 * @brief Installs the server's consumer callbacks; IDLE only; the callbacks run when the peer's consumers start and stop.
 *
 * @param comch_server the server.
 * @param new_consumer_event_cb called when the peer creates a consumer.
 * @param expired_consumer_event_cb called when it goes away.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_server_event_consumer_register(struct doca_comch_server *comch_server,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb);

/**
 * @brief Installs the client's consumer callbacks; IDLE only; the callbacks run when the peer's consumers start and stop.
 *
 * @param comch_client the client.
 * @param new_consumer_event_cb called when the peer creates a consumer.
 * @param expired_consumer_event_cb called when it goes away.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE when the context is not IDLE.
 */
DOCA_STABLE
doca_error_t doca_comch_client_event_consumer_register(struct doca_comch_client *comch_client,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_H_ */
