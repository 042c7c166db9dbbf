/*
 * doca_comch.h - DOCA Comch, control path: message channels between a
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

/* One established client <-> server link, created by the library. */
struct doca_comch_connection;

/* Attach an opaque application value to a connection (zero when it appears). */
DOCA_STABLE
doca_error_t doca_comch_connection_set_user_data(struct doca_comch_connection *connection, union doca_data user_data);

/* The value last attached to the connection. */
DOCA_STABLE
union doca_data doca_comch_connection_get_user_data(const struct doca_comch_connection *connection);

/* The server a connection belongs to; NULL for a client's connection. */
DOCA_STABLE
struct doca_comch_server *doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection);

/* The client a connection belongs to; NULL for a server's connection. */
DOCA_STABLE
struct doca_comch_client *doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection);

/* ---- device capabilities ---- */

/* Longest accepted server name, counting its terminating NUL. */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_name_len(const struct doca_devinfo *devinfo, uint32_t *max_name_len);

/* Largest message a Comch endpoint on this device may be configured for. */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_msg_size(const struct doca_devinfo *devinfo, uint32_t *size);

/* Largest receive queue an endpoint on this device may ask for. */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *size);

/* How many clients one server on this device can hold at once. */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_clients(const struct doca_devinfo *devinfo, uint32_t *num_clients);

/* ---- server ---- */

/* A listening endpoint on the DPU side. */
struct doca_comch_server;

/*
 * Create an IDLE server on a DPU-side device for the host function that
 * `repr` (a representor opened through `dev`) stands for.  The name is
 * copied; it becomes visible to clients when the context starts.
 */
DOCA_STABLE
doca_error_t doca_comch_server_create(struct doca_dev *dev,
				      struct doca_dev_rep *repr,
				      const char *name,
				      struct doca_comch_server **comch_server);

/* Destroy a server whose context is IDLE. */
DOCA_STABLE
doca_error_t doca_comch_server_destroy(struct doca_comch_server *comch_server);

/* DOCA_SUCCESS when the device can host a server, DOCA_ERROR_NOT_SUPPORTED if not. */
DOCA_STABLE
doca_error_t doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo);

/* Message ceiling of this server (IDLE only; 1 .. the device capability). */
DOCA_STABLE
doca_error_t doca_comch_server_set_max_msg_size(struct doca_comch_server *comch_server, uint32_t size);

DOCA_STABLE
doca_error_t doca_comch_server_get_max_msg_size(const struct doca_comch_server *comch_server, uint32_t *size);

/* How many received messages the server is prepared to hold (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_server_set_recv_queue_size(struct doca_comch_server *comch_server, uint32_t size);

DOCA_STABLE
doca_error_t doca_comch_server_get_recv_queue_size(const struct doca_comch_server *comch_server, uint32_t *size);

/* The device the server was created on. */
DOCA_STABLE
doca_error_t doca_comch_server_get_device(const struct doca_comch_server *comch_server, struct doca_dev **dev);

/* The representor the server was created with. */
DOCA_STABLE
doca_error_t doca_comch_server_get_device_rep(const struct doca_comch_server *comch_server, struct doca_dev_rep **rep);

/* The generic context view of the server (the same pointer every time). */
DOCA_STABLE
struct doca_ctx *doca_comch_server_as_ctx(struct doca_comch_server *comch_server);

/* End one connection of a running server; its client is told. */
DOCA_STABLE
doca_error_t doca_comch_server_disconnect(struct doca_comch_server *comch_server,
					  struct doca_comch_connection *connection);

/* ---- client ---- */

/* A connecting endpoint on the host side. */
struct doca_comch_client;

/* Create an IDLE client on a host-side device that will look for the server `name`. */
DOCA_STABLE
doca_error_t doca_comch_client_create(struct doca_dev *dev, const char *name, struct doca_comch_client **comch_client);

/* Destroy a client whose context is IDLE. */
DOCA_STABLE
doca_error_t doca_comch_client_destroy(struct doca_comch_client *comch_client);

/* DOCA_SUCCESS when the device can host a client, DOCA_ERROR_NOT_SUPPORTED if not. */
DOCA_STABLE
doca_error_t doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo);

/* Message ceiling of this client (IDLE only; 1 .. the device capability). */
DOCA_STABLE
doca_error_t doca_comch_client_set_max_msg_size(struct doca_comch_client *comch_client, uint32_t size);

DOCA_STABLE
doca_error_t doca_comch_client_get_max_msg_size(const struct doca_comch_client *comch_client, uint32_t *size);

/* How many received messages the client is prepared to hold (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_client_set_recv_queue_size(struct doca_comch_client *comch_client, uint32_t size);

DOCA_STABLE
doca_error_t doca_comch_client_get_recv_queue_size(const struct doca_comch_client *comch_client, uint32_t *size);

/* The device the client was created on. */
DOCA_STABLE
doca_error_t doca_comch_client_get_device(const struct doca_comch_client *comch_client, struct doca_dev **dev);

/* The generic context view of the client (the same pointer every time). */
DOCA_STABLE
struct doca_ctx *doca_comch_client_as_ctx(struct doca_comch_client *comch_client);

/* The client's single connection; available while its context is RUNNING. */
DOCA_STABLE
doca_error_t doca_comch_client_get_connection(const struct doca_comch_client *comch_client,
					      struct doca_comch_connection **connection);

/* ---- send task ---- */

/* Sends one message over one connection. */
struct doca_comch_task_send;

/*
 * Shape of the success and the error callback of send tasks; called from
 * doca_pe_progress with the task back in the application's hands.
 */
typedef void (*doca_comch_task_send_completion_cb_t)(struct doca_comch_task_send *task,
						     union doca_data task_user_data,
						     union doca_data ctx_user_data);

/* Largest send-task pool an endpoint on this device may configure. */
DOCA_STABLE
doca_error_t doca_comch_cap_get_max_send_tasks(const struct doca_devinfo *devinfo, uint32_t *max_send_tasks);

/* Callbacks and pool size of the server's send tasks (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_server_task_send_set_conf(struct doca_comch_server *comch_server,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb,
						  uint32_t num_send_tasks);

/* Callbacks and pool size of the client's send tasks (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_client_task_send_set_conf(struct doca_comch_client *comch_client,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb,
						  uint32_t num_send_tasks);

/* Take a send task for `len` bytes at `msg` to `peer`; the bytes are copied. */
DOCA_STABLE
doca_error_t doca_comch_server_task_send_alloc_init(struct doca_comch_server *comch_server,
						    struct doca_comch_connection *peer,
						    const void *msg,
						    uint32_t len,
						    struct doca_comch_task_send **task);

DOCA_STABLE
doca_error_t doca_comch_client_task_send_alloc_init(struct doca_comch_client *comch_client,
						    struct doca_comch_connection *peer,
						    const void *msg,
						    uint32_t len,
						    struct doca_comch_task_send **task);

/* The generic task view of a send task. */
DOCA_STABLE
struct doca_task *doca_comch_task_send_as_task(struct doca_comch_task_send *task);

/* ---- receive event ---- */

/* The event object handed to receive callbacks. */
struct doca_comch_event_msg_recv;

/*
 * Called from doca_pe_progress once per received message; `recv_buffer`
 * holds `msg_len` bytes and is valid only until the callback returns.
 */
typedef void (*doca_comch_event_msg_recv_cb_t)(struct doca_comch_event_msg_recv *event,
					       uint8_t *recv_buffer,
					       uint32_t msg_len,
					       struct doca_comch_connection *comch_connection);

/* Install the server's receive callback (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_server_event_msg_recv_register(struct doca_comch_server *comch_server,
						       doca_comch_event_msg_recv_cb_t recv_event_cb);

/* Install the client's receive callback (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_client_event_msg_recv_register(struct doca_comch_client *comch_client,
						       doca_comch_event_msg_recv_cb_t recv_event_cb);

/* ---- connection events (server) ---- */

/* The event object handed to connection callbacks. */
struct doca_comch_event_connection_status_changed;

/* Called from doca_pe_progress when a client connects or disconnects. */
typedef void (*doca_comch_event_connection_status_changed_cb_t)(struct doca_comch_event_connection_status_changed *event,
								struct doca_comch_connection *comch_connection,
								uint8_t change_successful);

/* Install the server's connect and disconnect callbacks (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_server_event_connection_status_changed_register(
	struct doca_comch_server *comch_server,
	doca_comch_event_connection_status_changed_cb_t connect_event_cb,
	doca_comch_event_connection_status_changed_cb_t disconnect_event_cb);

/* ---- connection statistics ---- */

/* Per-connection counters, read from the snapshot taken by update_info. */
enum doca_comch_counter {
	DOCA_COMCH_COUNTER_SENT_MESSAGES = 1, /* messages this side sent */
	DOCA_COMCH_COUNTER_SENT_BYTES = 2,    /* bytes this side sent */
	DOCA_COMCH_COUNTER_RECV_MESSAGES = 3, /* messages this side received */
	DOCA_COMCH_COUNTER_RECV_BYTES = 4,    /* bytes this side received */
};

/* Take a snapshot of the connection's counters. */
DOCA_STABLE
doca_error_t doca_comch_connection_update_info(struct doca_comch_connection *comch_connection);

/* Read one counter of the last snapshot. */
DOCA_STABLE
doca_error_t doca_comch_connection_get_counter(const struct doca_comch_connection *comch_connection,
					       enum doca_comch_counter counter_type,
					       uint64_t *counter_value);

/* ---- consumer events (fast-path hook) ---- */

/* The event object handed to consumer callbacks. */
struct doca_comch_event_consumer;

/* Reports a fast-path consumer appearing or going away on the peer. */
typedef void (*doca_comch_event_consumer_cb_t)(struct doca_comch_event_consumer *event,
					       struct doca_comch_connection *comch_connection,
					       uint32_t id);

/* Install the server's consumer callbacks (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_server_event_consumer_register(struct doca_comch_server *comch_server,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb);

/* Install the client's consumer callbacks (IDLE only). */
DOCA_STABLE
doca_error_t doca_comch_client_event_consumer_register(struct doca_comch_client *comch_client,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_H_ */
