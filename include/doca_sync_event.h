/**
 * @file doca_sync_event.h
 * @brief DOCA Sync Event: a 64-bit value that one party updates and another
 * waits on.
 *
 * The parties may be threads of one process, two processes on either side
 * of the host/DPU PCI link (remote PCI), or a process and a network peer
 * that reaches the value through DOCA RDMA (remote net).
 *
 * This is softdoca's rendition of the DOCA 3.0-3.3 interface.  Here the
 * value is a 64-bit word in shared memory: each update is a single atomic
 * instruction, and a waiter sleeps on a futex (a task, on the progress
 * engine's notification handle) rather than spinning.  Locations and handles
 * for DPA and GPU code answer as a device that lacks those engines would.
 * docs/sync-event.md lists what differs from a card.
 *
 * An event goes through these states:
 * - created: configuration calls (locations, the value's address, task
 *   configuration) are allowed;
 * - started, by doca_sync_event_start, or by doca_ctx_start on the context
 *   returned by doca_sync_event_as_ctx: the value can be read, updated,
 *   waited on and exported;
 * - stopped (doca_sync_event_stop or doca_ctx_stop): as created, so it can
 *   be configured and started again;
 * - destroyed by doca_sync_event_destroy, allowed only when not started.
 */
#ifndef DOCA_SYNC_EVENT_H_
#define DOCA_SYNC_EVENT_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_dpa;
struct doca_gpu;
struct doca_task;

/**
 * @brief A sync event: the owner of one 64-bit value, or a view on a value
 * that another process exported.
 *
 * Created by doca_sync_event_create or doca_sync_event_create_from_export and
 * owned by the application until doca_sync_event_destroy.
 */
struct doca_sync_event;

/**
 * @brief A handle on a sync event that another process exported for network
 * peers; DOCA RDMA's sync-event tasks read and update the value through it.
 *
 * Created by doca_sync_event_remote_net_create_from_export and released by
 * doca_sync_event_remote_net_destroy.
 */
struct doca_sync_event_remote_net;

/**
 * @brief Task that reads the value into a location of the application.
 *
 * Its generic view is doca_sync_event_task_get_as_doca_task.
 */
struct doca_sync_event_task_get;
/**
 * @brief Task that stores a value and wakes the waiters.
 *
 * Its generic view is doca_sync_event_task_notify_set_as_doca_task.
 */
struct doca_sync_event_task_notify_set;
/**
 * @brief Task that adds to the value atomically and reports the value it had before.
 *
 * Its generic view is doca_sync_event_task_notify_add_as_doca_task.
 */
struct doca_sync_event_task_notify_add;
/**
 * @brief Task that completes once (value & mask) equals a given value.
 *
 * Its generic view is doca_sync_event_task_wait_eq_as_doca_task.
 */
struct doca_sync_event_task_wait_eq;
/**
 * @brief Task that completes once (value & mask) differs from a given value.
 *
 * Its generic view is doca_sync_event_task_wait_neq_as_doca_task.
 */
struct doca_sync_event_task_wait_neq;

/** @brief How DPA code names an event; softdoca never produces one (no device has a DPA). */
typedef uint64_t doca_dpa_dev_sync_event_t;
/** @brief How DPA code names a remote-net event; softdoca never produces one. */
typedef uint64_t doca_dpa_dev_sync_event_remote_net_t;
/** @brief How GPU code names an event; softdoca never produces one (sync events have no GPU datapath). */
typedef uint64_t doca_gpu_dev_sync_event_t;
/** @brief How GPU code names a remote-net event; softdoca never produces one. */
typedef uint64_t doca_gpu_dev_sync_event_remote_net_t;

/**
 * @brief Completion callback of get tasks, used both for success and for failure.
 *
 * doca_pe_progress calls it once per finished task; from then on the task is
 * the application's again, to resubmit or free.  After a failure,
 * doca_task_get_status on the generic view tells why.
 *
 * @param [in] task the finished task.
 * @param [in] task_user_data the user data given when the task was allocated.
 * @param [in] ctx_user_data the user data of the event's context.
 */
typedef void (*doca_sync_event_task_get_completion_cb_t)(struct doca_sync_event_task_get *task,
							 union doca_data task_user_data,
							 union doca_data ctx_user_data);
/**
 * @brief Completion callback of notify-set tasks, for success and for failure
 * (called as doca_sync_event_task_get_completion_cb_t is).
 *
 * @param [in] task the finished task.
 * @param [in] task_user_data the user data given when the task was allocated.
 * @param [in] ctx_user_data the user data of the event's context.
 */
typedef void (*doca_sync_event_task_notify_set_completion_cb_t)(struct doca_sync_event_task_notify_set *task,
								union doca_data task_user_data,
								union doca_data ctx_user_data);
/**
 * @brief Completion callback of notify-add tasks, for success and for failure
 * (called as doca_sync_event_task_get_completion_cb_t is).
 *
 * @param [in] task the finished task.
 * @param [in] task_user_data the user data given when the task was allocated.
 * @param [in] ctx_user_data the user data of the event's context.
 */
typedef void (*doca_sync_event_task_notify_add_completion_cb_t)(struct doca_sync_event_task_notify_add *task,
								union doca_data task_user_data,
								union doca_data ctx_user_data);
/**
 * @brief Completion callback of wait-equal tasks, for success and for failure
 * (called as doca_sync_event_task_get_completion_cb_t is).
 *
 * @param [in] task the finished task.
 * @param [in] task_user_data the user data given when the task was allocated.
 * @param [in] ctx_user_data the user data of the event's context.
 */
typedef void (*doca_sync_event_task_wait_eq_completion_cb_t)(struct doca_sync_event_task_wait_eq *task,
							     union doca_data task_user_data,
							     union doca_data ctx_user_data);
/**
 * @brief Completion callback of wait-not-equal tasks, for success and for
 * failure (called as doca_sync_event_task_get_completion_cb_t is).
 *
 * @param [in] task the finished task.
 * @param [in] task_user_data the user data given when the task was allocated.
 * @param [in] ctx_user_data the user data of the event's context.
 */
typedef void (*doca_sync_event_task_wait_neq_completion_cb_t)(struct doca_sync_event_task_wait_neq *task,
							      union doca_data task_user_data,
							      union doca_data ctx_user_data);

/*
 * Creating and destroying.
 */

/**
 * @brief Create a sync event whose value belongs to this process.
 *
 * Allowed at any time.  The event begins in the created state; its value is
 * 0 when it is first started.  The caller owns the event and releases it with
 * doca_sync_event_destroy.
 *
 * @param [out] event the new event.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL;
 * DOCA_ERROR_NO_MEMORY when the event cannot be allocated;
 * DOCA_ERROR_INITIALIZATION when its task types cannot be registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_create(struct doca_sync_event **event);

/**
 * @brief Create a view on an event that another process exported with
 * doca_sync_event_export_to_remote_pci.
 *
 * Allowed at any time.  Every field of the descriptor is checked, so a
 * truncated, malformed or forged descriptor is refused, and so is one whose
 * exporting process is gone or has stopped the event.  The new event is in
 * the created state and has to be started before its value can be used; its
 * value stays with the exporter, so it cannot be given an address of its own
 * (doca_sync_event_set_addr) nor exported again.  The caller owns the event
 * and releases it with doca_sync_event_destroy.
 *
 * @param [in] dev an open device: this side's end of the PCI link.
 * @param [in] data the descriptor; it is copied, the caller keeps the bytes.
 * @param [in] sz the length of the descriptor in bytes.
 * @param [out] event the new event.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, dev is not an open
 * device, the descriptor is malformed or not a remote-PCI one, or the event
 * it names no longer exists (its exporter stopped it or is gone);
 * DOCA_ERROR_NOT_SUPPORTED when the descriptor comes from another machine
 * (or an earlier boot): softdoca shares events within one machine only;
 * DOCA_ERROR_OPERATING_SYSTEM when the exporter's shared page cannot be
 * mapped or this process's identity cannot be read;
 * DOCA_ERROR_NO_MEMORY when the event cannot be allocated;
 * DOCA_ERROR_INITIALIZATION when its task types cannot be registered.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
						struct doca_sync_event **event);

/**
 * @brief Tell whether a device can create events from a remote-PCI export.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device can;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Create a remote-net handle from a descriptor made by
 * doca_sync_event_export_to_remote_net; DOCA RDMA's sync-event tasks act
 * on the value through it.
 *
 * Allowed at any time.  The descriptor is checked as by
 * doca_sync_event_create_from_export.  The caller owns the handle and
 * releases it with doca_sync_event_remote_net_destroy.
 *
 * @param [in] dev an open device.
 * @param [in] data the descriptor; it is copied, the caller keeps the bytes.
 * @param [in] sz the length of the descriptor in bytes.
 * @param [out] event the new handle.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, dev is not an open
 * device, the descriptor is malformed or not a remote-net one, or the event
 * it names no longer exists;
 * DOCA_ERROR_NOT_SUPPORTED when the descriptor comes from another machine
 * (or an earlier boot);
 * DOCA_ERROR_OPERATING_SYSTEM when the exporter's shared page cannot be
 * mapped or this process's identity cannot be read;
 * DOCA_ERROR_NO_MEMORY when the handle cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
							   struct doca_sync_event_remote_net **event);

/**
 * @brief Tell whether a device can create remote-net handles.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device can;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Destroy an event.
 *
 * Allowed only while the event is not started: created, stopped, or, for an
 * event used as a context, with that context IDLE.  Its exports end with it,
 * so later calls of the processes that imported it fail.  A refused call
 * leaves the event intact.
 *
 * @param [in] event the event; it must not be used afterwards.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is started, or its context is not
 * IDLE: stop it first.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_destroy(struct doca_sync_event *event);

/**
 * @brief Release a remote-net handle.  The exporter's event is not affected.
 *
 * @param [in] event the handle; it must not be used afterwards.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live remote-net handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event);

/*
 * Configuration: only in the created (or stopped) state, else DOCA_ERROR_BAD_STATE.
 */

/**
 * @brief Declare that the CPU of this process updates the event.
 *
 * Allowed while the event is not started (created, stopped, or its context
 * IDLE).  Declaring it is optional on this machine.
 *
 * @param [in] event the event.
 * @param [in] dev an open device, or NULL.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or dev is
 * neither NULL nor an open device;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);

/**
 * @brief Declare that DPA code updates the event: never possible here, since
 * no device has a DPA.
 *
 * @param [in] event the event.
 * @param [in] dpa the DPA instance.
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or dpa is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);

/**
 * @brief Declare that GPU code updates the event: never possible here, since
 * sync events have no GPU datapath.
 *
 * @param [in] event the event.
 * @param [in] gpu the GPU.
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or gpu is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);

/**
 * @brief Declare that the process on the other side of the PCI link updates
 * the event.
 *
 * The value then lives in memory that process can map; an event needs this
 * (or another remote location) before it can be exported.  Allowed while the
 * event is not started.
 *
 * @param [in] event the event.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event);

/**
 * @brief Declare that a network peer updates the event (through DOCA RDMA).
 *
 * The value then lives in shareable memory; an event needs this (or another
 * remote location) before it can be exported.  Allowed while the event is
 * not started.
 *
 * @param [in] event the event.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event);

/**
 * @brief Declare that the CPU of this process waits on the event.
 *
 * Allowed while the event is not started.  Declaring it is optional on this
 * machine.
 *
 * @param [in] event the event.
 * @param [in] dev an open device, or NULL.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or dev is
 * neither NULL nor an open device;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);

/**
 * @brief Declare that DPA code waits on the event: never possible here, since
 * no device has a DPA.
 *
 * @param [in] event the event.
 * @param [in] dpa the DPA instance.
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or dpa is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);

/**
 * @brief Declare that GPU code waits on the event: never possible here, since
 * sync events have no GPU datapath.
 *
 * @param [in] event the event.
 * @param [in] gpu the GPU.
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or gpu is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);

/**
 * @brief Declare that the process on the other side of the PCI link waits on
 * the event.
 *
 * The value then lives in memory that process can map; an event needs this
 * (or another remote location) before it can be exported.  Allowed while the
 * event is not started.
 *
 * @param [in] event the event.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event);

/**
 * @brief Keep the value at an address of the application's memory.
 *
 * Allowed while the event is not started, on an event this process created
 * (not one created from an export).  The memory stays the application's and
 * must remain valid until the event is destroyed.  Such an event cannot be
 * exported, since other processes cannot map private memory.
 *
 * @param [in] event the event.
 * @param [in] addr an 8-byte aligned address.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, addr is
 * NULL or not 8-byte aligned, or the event was created from an export;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event, uint64_t *addr);

/**
 * @brief Keep the value at the data address of a DOCA buffer.
 *
 * Allowed while the event is not started, as doca_sync_event_set_addr.  The
 * buffer stays the application's and must outlive the event; the event is
 * then not exportable.
 *
 * @param [in] event the event.
 * @param [in] buf a buffer of this process's memory whose data address is
 * 8-byte aligned and followed by at least 8 bytes of the buffer.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when buf is NULL or not a live buffer, lies in
 * memory imported from another process, has fewer than 8 bytes from its data
 * address to its end, or its data address is not 8-byte aligned; also when
 * event is NULL or not a live event, or was created from an export;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event, struct doca_buf *buf);

/**
 * @brief Start an event used on its own, for the CPU calls below.
 *
 * Allowed in the created or stopped state, on an event that was not turned
 * into a context: one returned through doca_sync_event_as_ctx is started
 * with doca_ctx_start instead.  An event created from an export attaches to
 * the exporter's value here.
 *
 * @param [in] event the event.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or the
 * exporter of an imported event stopped it or is gone;
 * DOCA_ERROR_BAD_STATE when the event is already started or is managed as a
 * context;
 * DOCA_ERROR_OPERATING_SYSTEM when the shared memory of the value cannot be
 * created or mapped.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_start(struct doca_sync_event *event);

/**
 * @brief Stop an event started with doca_sync_event_start.
 *
 * Allowed only in that state.  When the event was exported, the processes
 * that imported it see it end: their waits fail at once with
 * DOCA_ERROR_IO_FAILED.  The event can then be configured and started again.
 *
 * @param [in] event the event.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when it was not started with doca_sync_event_start
 * (an event used as a context is stopped with doca_ctx_stop).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_stop(struct doca_sync_event *event);

/**
 * @brief The event as a DOCA context, needed for its tasks.
 *
 * Allowed while the event is not started stand-alone.  From the first call
 * on, the event is started and stopped through the context (doca_ctx_start,
 * doca_ctx_stop), not with doca_sync_event_start.  The context belongs to the
 * event: it is not destroyed separately.
 *
 * @param [in] event the event.
 * @return the context; NULL, with one log record, when event is NULL or not a
 * live event, or is started stand-alone.
 */
DOCA_EXPERIMENTAL
struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event);

/*
 * Tasks.  set_conf: context IDLE, callbacks non-NULL, num_tasks > 0.
 * alloc_init: context RUNNING and a free task in the pool.  Errors:
 * DOCA_ERROR_INVALID_VALUE for bad arguments, DOCA_ERROR_BAD_STATE for the
 * wrong state, DOCA_ERROR_NO_MEMORY when the pool is empty.  A task fails
 * with DOCA_ERROR_IO_FAILED when the event's exporter stopped or died, and
 * with DOCA_ERROR_SHUTDOWN when flushed by a stop.  Tasks of one context
 * are reported in submission order: a waiting task holds back later ones.
 */

/**
 * @brief Tell whether a device supports get tasks.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device does;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo);
/**
 * @brief Enable get tasks on the event's context: their callbacks and how
 * many may be allocated at once.
 *
 * Allowed while the event is not started and its context is IDLE; a second
 * call replaces the first.
 *
 * @param [in] event the event (used as a context through doca_sync_event_as_ctx).
 * @param [in] completion_cb called for each task that succeeds.
 * @param [in] error_cb called for each task that fails.
 * @param [in] num_tasks the size of the task pool, 1 to 65536.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, a callback
 * is NULL, or num_tasks is 0 or above 65536;
 * DOCA_ERROR_BAD_STATE when the event is started or its context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_get_set_conf(struct doca_sync_event *event,
					       doca_sync_event_task_get_completion_cb_t completion_cb,
					       doca_sync_event_task_get_completion_cb_t error_cb, uint32_t num_tasks);
/**
 * @brief Allocate a get task: once executed, the value of the event at that
 * moment is stored at ret_val_ptr.
 *
 * Allowed while the event's context is RUNNING, after
 * doca_sync_event_task_get_set_conf.  The task belongs to the application until it is submitted
 * (doca_task_submit on its generic view) and again from the moment its
 * callback runs; doca_task_free returns it to the pool.  Tasks of one
 * context are reported in submission order, so a wait task that has not yet
 * matched holds back the tasks submitted after it.  A submitted task fails
 * with DOCA_ERROR_IO_FAILED when the exporter of an imported event stopped it
 * or died, and with DOCA_ERROR_SHUTDOWN when a stop of the context flushes it.
 * A task submitted with a NULL ret_val_ptr fails with
 * DOCA_ERROR_INVALID_VALUE (doca_task_try_submit refuses it with that code).
 *
 * @param [in] event the event.
 * @param [in] ret_val_ptr where the value is stored; may be NULL now and set
 * later with doca_sync_event_task_get_set_ret_val_ptr.
 * @param [in] user_data handed back to the task's callbacks.
 * @param [out] task the new task.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or task is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not used as a context
 * (doca_sync_event_as_ctx) or its context is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_get_alloc_init(struct doca_sync_event *event, uint64_t *ret_val_ptr,
						 union doca_data user_data, struct doca_sync_event_task_get **task);
/**
 * @brief The generic view of a get task, for doca_task_submit,
 * doca_task_free and doca_task_get_status.
 *
 * @param [in] task the task.
 * @return the same task as a struct doca_task; NULL, with one log record,
 * when task is NULL or not a get task.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_get_as_doca_task(struct doca_sync_event_task_get *task);
/**
 * @brief Change where a get task stores the value.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the get task.
 * @param [in] ret_val_ptr the new location; it must stay valid until the task completes.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task, uint64_t *ret_val_ptr);
/**
 * @brief Where a get task stores the value.
 *
 * @param [in] task the task.
 * @return the location; NULL, with one log record, when task is NULL or not a get task.
 */
DOCA_EXPERIMENTAL
uint64_t *doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task);

/**
 * @brief Tell whether a device supports notify-set tasks.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device does;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo);
/**
 * @brief Enable notify-set tasks on the event's context: their callbacks and how
 * many may be allocated at once.
 *
 * Allowed while the event is not started and its context is IDLE; a second
 * call replaces the first.
 *
 * @param [in] event the event (used as a context through doca_sync_event_as_ctx).
 * @param [in] completion_cb called for each task that succeeds.
 * @param [in] error_cb called for each task that fails.
 * @param [in] num_tasks the size of the task pool, 1 to 65536.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, a callback
 * is NULL, or num_tasks is 0 or above 65536;
 * DOCA_ERROR_BAD_STATE when the event is started or its context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_set_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_set_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_set_completion_cb_t error_cb,
						      uint32_t num_tasks);
/**
 * @brief Allocate a notify-set task: once executed, the event's value is
 * set_val and every waiter of the event is woken.
 *
 * Allowed while the event's context is RUNNING, after
 * doca_sync_event_task_notify_set_set_conf.  The task belongs to the application until it is submitted
 * (doca_task_submit on its generic view) and again from the moment its
 * callback runs; doca_task_free returns it to the pool.  Tasks of one
 * context are reported in submission order, so a wait task that has not yet
 * matched holds back the tasks submitted after it.  A submitted task fails
 * with DOCA_ERROR_IO_FAILED when the exporter of an imported event stopped it
 * or died, and with DOCA_ERROR_SHUTDOWN when a stop of the context flushes it.
 *
 * @param [in] event the event.
 * @param [in] set_val the value to store.
 * @param [in] user_data handed back to the task's callbacks.
 * @param [out] task the new task.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or task is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not used as a context
 * (doca_sync_event_as_ctx) or its context is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_set_alloc_init(struct doca_sync_event *event, uint64_t set_val,
							union doca_data user_data,
							struct doca_sync_event_task_notify_set **task);
/**
 * @brief The generic view of a notify-set task, for doca_task_submit,
 * doca_task_free and doca_task_get_status.
 *
 * @param [in] task the task.
 * @return the same task as a struct doca_task; NULL, with one log record,
 * when task is NULL or not a notify-set task.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_notify_set_as_doca_task(struct doca_sync_event_task_notify_set *task);
/**
 * @brief Change the value a notify-set task stores.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the notify-set task.
 * @param [in] set_val the new value.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task, uint64_t set_val);
/**
 * @brief The value a notify-set task stores.
 *
 * @param [in] task the task.
 * @return the value; 0, with one log record, when task is NULL or not a notify-set task.
 */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task);

/**
 * @brief Tell whether a device supports notify-add tasks.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device does;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo);
/**
 * @brief Enable notify-add tasks on the event's context: their callbacks and how
 * many may be allocated at once.
 *
 * Allowed while the event is not started and its context is IDLE; a second
 * call replaces the first.
 *
 * @param [in] event the event (used as a context through doca_sync_event_as_ctx).
 * @param [in] completion_cb called for each task that succeeds.
 * @param [in] error_cb called for each task that fails.
 * @param [in] num_tasks the size of the task pool, 1 to 65536.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, a callback
 * is NULL, or num_tasks is 0 or above 65536;
 * DOCA_ERROR_BAD_STATE when the event is started or its context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_add_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_add_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_add_completion_cb_t error_cb,
						      uint32_t num_tasks);
/**
 * @brief Allocate a notify-add task: once executed, inc_val has been added
 * to the event's value atomically (wrapping at 2^64), the value before the
 * addition is stored at fetched_val_ptr, and every waiter is woken.
 *
 * Allowed while the event's context is RUNNING, after
 * doca_sync_event_task_notify_add_set_conf.  The task belongs to the application until it is submitted
 * (doca_task_submit on its generic view) and again from the moment its
 * callback runs; doca_task_free returns it to the pool.  Tasks of one
 * context are reported in submission order, so a wait task that has not yet
 * matched holds back the tasks submitted after it.  A submitted task fails
 * with DOCA_ERROR_IO_FAILED when the exporter of an imported event stopped it
 * or died, and with DOCA_ERROR_SHUTDOWN when a stop of the context flushes it.
 * A task submitted with a NULL fetched_val_ptr fails with
 * DOCA_ERROR_INVALID_VALUE (doca_task_try_submit refuses it with that code).
 *
 * @param [in] event the event.
 * @param [in] inc_val the amount to add.
 * @param [in] fetched_val_ptr where the previous value is stored; may be NULL
 * now and set later with doca_sync_event_task_notify_add_set_fetched_val_ptr.
 * @param [in] user_data handed back to the task's callbacks.
 * @param [out] task the new task.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or task is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not used as a context
 * (doca_sync_event_as_ctx) or its context is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_add_alloc_init(struct doca_sync_event *event, uint64_t inc_val,
							uint64_t *fetched_val_ptr, union doca_data user_data,
							struct doca_sync_event_task_notify_add **task);
/**
 * @brief The generic view of a notify-add task, for doca_task_submit,
 * doca_task_free and doca_task_get_status.
 *
 * @param [in] task the task.
 * @return the same task as a struct doca_task; NULL, with one log record,
 * when task is NULL or not a notify-add task.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_notify_add_as_doca_task(struct doca_sync_event_task_notify_add *task);
/**
 * @brief Change the amount a notify-add task adds.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the notify-add task.
 * @param [in] inc_val the new amount.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task, uint64_t inc_val);
/**
 * @brief The amount a notify-add task adds.
 *
 * @param [in] task the task.
 * @return the amount; 0, with one log record, when task is NULL or not a notify-add task.
 */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task);
/**
 * @brief Change where a notify-add task stores the previous value.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the notify-add task.
 * @param [in] fetched_val_ptr the new location; it must stay valid until the task completes.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
							 uint64_t *fetched_val_ptr);
/**
 * @brief Where a notify-add task stores the previous value.
 *
 * @param [in] task the task.
 * @return the location; NULL, with one log record, when task is NULL or not a notify-add task.
 */
DOCA_EXPERIMENTAL
uint64_t *doca_sync_event_task_notify_add_get_fetched_val_ptr(const struct doca_sync_event_task_notify_add *task);

/**
 * @brief Tell whether a device supports wait-equal tasks.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device does;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo);
/**
 * @brief Enable wait-equal tasks on the event's context: their callbacks and how
 * many may be allocated at once.
 *
 * Allowed while the event is not started and its context is IDLE; a second
 * call replaces the first.
 *
 * @param [in] event the event (used as a context through doca_sync_event_as_ctx).
 * @param [in] completion_cb called for each task that succeeds.
 * @param [in] error_cb called for each task that fails.
 * @param [in] num_tasks the size of the task pool, 1 to 65536.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, a callback
 * is NULL, or num_tasks is 0 or above 65536;
 * DOCA_ERROR_BAD_STATE when the event is started or its context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_eq_set_conf(struct doca_sync_event *event,
						   doca_sync_event_task_wait_eq_completion_cb_t completion_cb,
						   doca_sync_event_task_wait_eq_completion_cb_t error_cb, uint32_t num_tasks);
/**
 * @brief Allocate a wait-equal task: it completes once (value & mask) ==
 * wait_val, whoever changed the value (this process, another process, or a
 * network peer through DOCA RDMA).
 *
 * Allowed while the event's context is RUNNING, after
 * doca_sync_event_task_wait_eq_set_conf.  The task does not spin: the progress
 * engine's notification handle wakes when the value changes.
 * The task belongs to the application until it is submitted
 * (doca_task_submit on its generic view) and again from the moment its
 * callback runs; doca_task_free returns it to the pool.  Tasks of one
 * context are reported in submission order, so a wait task that has not yet
 * matched holds back the tasks submitted after it.  A submitted task fails
 * with DOCA_ERROR_IO_FAILED when the exporter of an imported event stopped it
 * or died, and with DOCA_ERROR_SHUTDOWN when a stop of the context flushes it.
 *
 * @param [in] event the event.
 * @param [in] wait_val the value compared with (value & mask).
 * @param [in] mask the bits of the value that take part in the comparison.
 * @param [in] user_data handed back to the task's callbacks.
 * @param [out] task the new task.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or task is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not used as a context
 * (doca_sync_event_as_ctx) or its context is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_eq_alloc_init(struct doca_sync_event *event, uint64_t wait_val,
						     uint64_t mask, union doca_data user_data,
						     struct doca_sync_event_task_wait_eq **task);
/**
 * @brief The generic view of a wait-equal task, for doca_task_submit,
 * doca_task_free and doca_task_get_status.
 *
 * @param [in] task the task.
 * @return the same task as a struct doca_task; NULL, with one log record,
 * when task is NULL or not a wait-equal task.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_wait_eq_as_doca_task(struct doca_sync_event_task_wait_eq *task);
/**
 * @brief Change the value a wait-equal task compares with.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the wait-equal task.
 * @param [in] wait_val the new value.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_eq_set_wait_val(struct doca_sync_event_task_wait_eq *task, uint64_t wait_val);
/**
 * @brief The value a wait-equal task compares with.
 *
 * @param [in] task the task.
 * @return the value; 0, with one log record, when task is NULL or not a wait-equal task.
 */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_eq_get_wait_val(const struct doca_sync_event_task_wait_eq *task);
/**
 * @brief Change the mask of a wait-equal task.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the wait-equal task.
 * @param [in] mask the new mask.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_eq_set_mask(struct doca_sync_event_task_wait_eq *task, uint64_t mask);
/**
 * @brief The mask of a wait-equal task.
 *
 * @param [in] task the task.
 * @return the mask; 0, with one log record, when task is NULL or not a wait-equal task.
 */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_eq_get_mask(const struct doca_sync_event_task_wait_eq *task);

/**
 * @brief Tell whether a device supports wait-not-equal tasks.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device does;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo);
/**
 * @brief Enable wait-not-equal tasks on the event's context: their callbacks and how
 * many may be allocated at once.
 *
 * Allowed while the event is not started and its context is IDLE; a second
 * call replaces the first.
 *
 * @param [in] event the event (used as a context through doca_sync_event_as_ctx).
 * @param [in] completion_cb called for each task that succeeds.
 * @param [in] error_cb called for each task that fails.
 * @param [in] num_tasks the size of the task pool, 1 to 65536.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, a callback
 * is NULL, or num_tasks is 0 or above 65536;
 * DOCA_ERROR_BAD_STATE when the event is started or its context is not IDLE.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_neq_set_conf(struct doca_sync_event *event,
						    doca_sync_event_task_wait_neq_completion_cb_t completion_cb,
						    doca_sync_event_task_wait_neq_completion_cb_t error_cb,
						    uint32_t num_tasks);
/**
 * @brief Allocate a wait-not-equal task: it completes once (value & mask) !=
 * wait_val, whoever changed the value (this process, another process, or a
 * network peer through DOCA RDMA).
 *
 * Allowed while the event's context is RUNNING, after
 * doca_sync_event_task_wait_neq_set_conf.  The task does not spin: the progress
 * engine's notification handle wakes when the value changes.
 * The task belongs to the application until it is submitted
 * (doca_task_submit on its generic view) and again from the moment its
 * callback runs; doca_task_free returns it to the pool.  Tasks of one
 * context are reported in submission order, so a wait task that has not yet
 * matched holds back the tasks submitted after it.  A submitted task fails
 * with DOCA_ERROR_IO_FAILED when the exporter of an imported event stopped it
 * or died, and with DOCA_ERROR_SHUTDOWN when a stop of the context flushes it.
 *
 * @param [in] event the event.
 * @param [in] wait_val the value compared with (value & mask).
 * @param [in] mask the bits of the value that take part in the comparison.
 * @param [in] user_data handed back to the task's callbacks.
 * @param [out] task the new task.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or task is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not used as a context
 * (doca_sync_event_as_ctx) or its context is not RUNNING;
 * DOCA_ERROR_NO_MEMORY when every task of the pool is allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_neq_alloc_init(struct doca_sync_event *event, uint64_t wait_val,
						      uint64_t mask, union doca_data user_data,
						      struct doca_sync_event_task_wait_neq **task);
/**
 * @brief The generic view of a wait-not-equal task, for doca_task_submit,
 * doca_task_free and doca_task_get_status.
 *
 * @param [in] task the task.
 * @return the same task as a struct doca_task; NULL, with one log record,
 * when task is NULL or not a wait-not-equal task.
 */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_wait_neq_as_doca_task(struct doca_sync_event_task_wait_neq *task);
/**
 * @brief Change the value a wait-not-equal task compares with.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the wait-not-equal task.
 * @param [in] wait_val the new value.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_neq_set_wait_val(struct doca_sync_event_task_wait_neq *task, uint64_t wait_val);
/**
 * @brief The value a wait-not-equal task compares with.
 *
 * @param [in] task the task.
 * @return the value; 0, with one log record, when task is NULL or not a wait-not-equal task.
 */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_neq_get_wait_val(const struct doca_sync_event_task_wait_neq *task);
/**
 * @brief Change the mask of a wait-not-equal task.
 *
 * Allowed only while the application holds the task (between allocation, or
 * completion, and submission); a call on a task in flight or freed is
 * ignored, with one log record.
 *
 * @param [in] task the wait-not-equal task.
 * @param [in] mask the new mask.
 */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_neq_set_mask(struct doca_sync_event_task_wait_neq *task, uint64_t mask);
/**
 * @brief The mask of a wait-not-equal task.
 *
 * @param [in] task the task.
 * @return the mask; 0, with one log record, when task is NULL or not a wait-not-equal task.
 */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_neq_get_mask(const struct doca_sync_event_task_wait_neq *task);

/*
 * Exports.
 */

/**
 * @brief Describe a started event for the process on the other side of the
 * PCI link, which passes the bytes to doca_sync_event_create_from_export.
 *
 * Allowed while the event is started.  The event must keep its value itself
 * (no doca_sync_event_set_addr or doca_sync_event_set_doca_buf), must not
 * itself come from an export, and must have had a remote publisher or
 * subscriber declared before it started.  The bytes belong to the event:
 * the caller may copy them and send them, and they stay valid until the
 * event stops.
 *
 * @param [in] event the event.
 * @param [in] dev an open device: this side's end of the PCI link.
 * @param [out] data the descriptor.
 * @param [out] sz its length in bytes.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when dev is NULL or not an open device, event is
 * NULL or not a live event, or data or sz is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_NOT_PERMITTED when no remote location was declared before the
 * start, the value lives at an address of the application, or the event was
 * created from an export;
 * DOCA_ERROR_OPERATING_SYSTEM when the shared page or this process's
 * identity cannot be read.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event, struct doca_dev *dev,
						  const uint8_t **data, size_t *sz);

/**
 * @brief Tell whether a device can export events to the other side of the PCI link.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device can;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The handle DPA code would use for the event: never available here,
 * since no device has a DPA.
 *
 * @param [in] event the event.
 * @param [in] dpa the DPA instance.
 * @param [out] dpa_dev_se_handle the handle (never written).
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or dpa or
 * dpa_dev_se_handle is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
					    doca_dpa_dev_sync_event_t *dpa_dev_se_handle);

/**
 * @brief Tell whether a device can export events to DPA code.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_ERROR_NOT_SUPPORTED for every device (no DPA here);
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The handle GPU code would use for the event: never available here,
 * since sync events have no GPU datapath.
 *
 * @param [in] event the event.
 * @param [in] gpu the GPU.
 * @param [out] gpu_dev_se the handle (never written).
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or gpu or
 * gpu_dev_se is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get_gpu_handle(struct doca_sync_event *event, struct doca_gpu *gpu,
					    doca_gpu_dev_sync_event_t **gpu_dev_se);

/**
 * @brief Tell whether a device can export events to GPU code.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_ERROR_NOT_SUPPORTED for every device (no GPU datapath here);
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Describe a started event for a network peer, which passes the bytes
 * to doca_sync_event_remote_net_create_from_export.
 *
 * Allowed while the event is started, under the rules of
 * doca_sync_event_export_to_remote_pci (a remote-net or remote-PCI location
 * declared before the start).  The bytes belong to the event and stay valid
 * until it stops.  On this machine the peer has to share this machine's
 * memory (/dev/shm): a process in another PID or network namespace can
 * import the event, one on another host cannot.
 *
 * @param [in] event the event.
 * @param [out] data the descriptor.
 * @param [out] sz its length in bytes.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or data
 * or sz is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_NOT_PERMITTED when no remote location was declared before the
 * start, the value lives at an address of the application, or the event was
 * created from an export;
 * DOCA_ERROR_OPERATING_SYSTEM when the shared page or this process's
 * identity cannot be read.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event, const uint8_t **data,
						  size_t *sz);

/**
 * @brief Tell whether a device can export events to network peers.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_SUCCESS: every emulated device can;
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The handle DPA code would use for a remote-net event: never
 * available here, since no device has a DPA.
 *
 * @param [in] event the remote-net handle.
 * @param [in] dpa the DPA instance.
 * @param [out] dpa_remote_event the DPA handle (never written).
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live remote-net
 * handle, or dpa or dpa_remote_event is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_get_dpa_handle(struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
						       doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event);

/**
 * @brief Tell whether a device can export remote-net events to DPA code.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_ERROR_NOT_SUPPORTED for every device (no DPA here);
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);

/**
 * @brief The handle GPU code would use for a remote-net event: never
 * available here, since sync events have no GPU datapath.
 *
 * @param [in] event the remote-net handle.
 * @param [in] gpu the GPU.
 * @param [out] gpu_remote_event the GPU handle (never written).
 * @return DOCA_ERROR_NOT_SUPPORTED for valid arguments;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live remote-net
 * handle, or gpu or gpu_remote_event is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_get_gpu_handle(struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
						       doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event);

/**
 * @brief Tell whether a device can export remote-net events to GPU code.
 *
 * @param [in] devinfo the device to ask about.
 * @return DOCA_ERROR_NOT_SUPPORTED for every device (no GPU datapath here);
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);

/*
 * CPU calls on a started event (stand-alone, or its context RUNNING).
 * Errors: DOCA_ERROR_INVALID_VALUE for a bad event or NULL output,
 * DOCA_ERROR_BAD_STATE when not started, DOCA_ERROR_IO_FAILED when the
 * exporter of an imported event stopped it or died (a waiter notices
 * a death within about 20 ms, a stop at once).
 */
/**
 * @brief Read the event's value.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * @param [in] event the event.
 * @param [out] value the value.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event, or value is NULL;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value);

/**
 * @brief Add to the event's value atomically and wake its waiters.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 * The sum wraps at 2^64.
 *
 * @param [in] event the event.
 * @param [in] value the amount to add.
 * @param [out] fetched the value before the addition; may be NULL.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_update_add(struct doca_sync_event *event, uint64_t value, uint64_t *fetched);

/**
 * @brief Store a new value in the event and wake its waiters.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * @param [in] event the event.
 * @param [in] value the new value.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_update_set(struct doca_sync_event *event, uint64_t value);

/**
 * @brief Wait until (the event's value & mask) > value.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * The call looks at the value a few times, then sleeps on a futex until an
 * update of the value (from any process) wakes it; there is no time limit.
 * On an imported event it notices within about 20 ms that the exporter died,
 * and at once that the exporter stopped the event.
 *
 * @param [in] event the event.
 * @param [in] value the value compared with (the event's value & mask).
 * @param [in] mask the bits of the event's value that take part in the comparison.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died, before or while the call waits.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/**
 * @brief Wait until (the event's value & mask) > value, yielding the CPU while it looks.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * As doca_sync_event_wait_gt, except that the CPU is yielded (sched_yield) between the first
 * looks at the value, before the call goes to sleep.
 *
 * @param [in] event the event.
 * @param [in] value the value compared with (the event's value & mask).
 * @param [in] mask the bits of the event's value that take part in the comparison.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died, before or while the call waits.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/**
 * @brief Wait until (the event's value & mask) == value.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * The call looks at the value a few times, then sleeps on a futex until an
 * update of the value (from any process) wakes it; there is no time limit.
 * On an imported event it notices within about 20 ms that the exporter died,
 * and at once that the exporter stopped the event.
 *
 * @param [in] event the event.
 * @param [in] value the value compared with (the event's value & mask).
 * @param [in] mask the bits of the event's value that take part in the comparison.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died, before or while the call waits.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/**
 * @brief Wait until (the event's value & mask) == value, yielding the CPU while it looks.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * As doca_sync_event_wait_eq, except that the CPU is yielded (sched_yield) between the first
 * looks at the value, before the call goes to sleep.
 *
 * @param [in] event the event.
 * @param [in] value the value compared with (the event's value & mask).
 * @param [in] mask the bits of the event's value that take part in the comparison.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died, before or while the call waits.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/**
 * @brief Wait until (the event's value & mask) != value.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * The call looks at the value a few times, then sleeps on a futex until an
 * update of the value (from any process) wakes it; there is no time limit.
 * On an imported event it notices within about 20 ms that the exporter died,
 * and at once that the exporter stopped the event.
 *
 * @param [in] event the event.
 * @param [in] value the value compared with (the event's value & mask).
 * @param [in] mask the bits of the event's value that take part in the comparison.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died, before or while the call waits.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/**
 * @brief Wait until (the event's value & mask) != value, yielding the CPU while it looks.
 *
 * Allowed while the event is started (stand-alone, or its context RUNNING).
 *
 * As doca_sync_event_wait_neq, except that the CPU is yielded (sched_yield) between the first
 * looks at the value, before the call goes to sleep.
 *
 * @param [in] event the event.
 * @param [in] value the value compared with (the event's value & mask).
 * @param [in] mask the bits of the event's value that take part in the comparison.
 * @return DOCA_SUCCESS on success;
 * DOCA_ERROR_INVALID_VALUE when event is NULL or not a live event;
 * DOCA_ERROR_BAD_STATE when the event is not started;
 * DOCA_ERROR_IO_FAILED when the event was created from an export and its
 * exporter has stopped it or died, before or while the call waits.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_SYNC_EVENT_H_ */
