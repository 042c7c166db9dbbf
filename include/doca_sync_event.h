/*
 * doca_sync_event.h - DOCA Sync Event: a 64-bit value that one side updates
 * and another side waits on, in the same process, in another process of the
 * host/DPU pair (remote PCI) or across the network (remote net, through
 * DOCA RDMA).
 *
 * softdoca's rendition of the DOCA 3.0-3.3 interface.  On this machine the
 * value is a 64-bit word in shared memory: every update is one atomic
 * instruction and every wait sleeps on a futex (or, for tasks, on the
 * progress engine's notification handle) instead of spinning.  DPA and GPU
 * locations and handles answer as a device without that capability.
 * docs/sync-event.md describes what differs from a card.
 *
 * Life cycle of an event: created (configuration calls allowed) -> started
 * (doca_sync_event_start, or doca_ctx_start on doca_sync_event_as_ctx) ->
 * stopped (configuration allowed again) -> destroyed.
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

/** @brief A sync event: the owner of (or a view on) one 64-bit value. */
struct doca_sync_event;

/** @brief A handle on a sync event exported to a remote network peer (used by DOCA RDMA tasks). */
struct doca_sync_event_remote_net;

/** @brief Task reading the value (its generic view: doca_sync_event_task_get_as_doca_task). */
struct doca_sync_event_task_get;
/** @brief Task storing a value. */
struct doca_sync_event_task_notify_set;
/** @brief Task adding to the value and fetching the previous one. */
struct doca_sync_event_task_notify_add;
/** @brief Task completing once (value & mask) equals a given value. */
struct doca_sync_event_task_wait_eq;
/** @brief Task completing once (value & mask) differs from a given value. */
struct doca_sync_event_task_wait_neq;

/** @brief Handle of an event inside DPA code (never produced here: no DPA). */
typedef uint64_t doca_dpa_dev_sync_event_t;
/** @brief Handle of a remote-net event inside DPA code (never produced here). */
typedef uint64_t doca_dpa_dev_sync_event_remote_net_t;
/** @brief Handle of an event inside GPU code (never produced here: no GPU datapath). */
typedef uint64_t doca_gpu_dev_sync_event_t;
/** @brief Handle of a remote-net event inside GPU code (never produced here). */
typedef uint64_t doca_gpu_dev_sync_event_remote_net_t;

/**
 * @brief Success and error callback of get tasks.
 *
 * Called from doca_pe_progress with the task back in the application's hands;
 * the failure status is read with doca_task_get_status.
 */
typedef void (*doca_sync_event_task_get_completion_cb_t)(struct doca_sync_event_task_get *task,
							 union doca_data task_user_data,
							 union doca_data ctx_user_data);
/** @brief Success and error callback of notify-set tasks (see the get callback). */
typedef void (*doca_sync_event_task_notify_set_completion_cb_t)(struct doca_sync_event_task_notify_set *task,
								union doca_data task_user_data,
								union doca_data ctx_user_data);
/** @brief Success and error callback of notify-add tasks (see the get callback). */
typedef void (*doca_sync_event_task_notify_add_completion_cb_t)(struct doca_sync_event_task_notify_add *task,
								union doca_data task_user_data,
								union doca_data ctx_user_data);
/** @brief Success and error callback of wait-equal tasks (see the get callback). */
typedef void (*doca_sync_event_task_wait_eq_completion_cb_t)(struct doca_sync_event_task_wait_eq *task,
							     union doca_data task_user_data,
							     union doca_data ctx_user_data);
/** @brief Success and error callback of wait-not-equal tasks (see the get callback). */
typedef void (*doca_sync_event_task_wait_neq_completion_cb_t)(struct doca_sync_event_task_wait_neq *task,
							      union doca_data task_user_data,
							      union doca_data ctx_user_data);

/*
 * Creating and destroying.
 */

/**
 * @brief Create a sync event whose value this process owns.
 *
 * The event starts in the created state, value 0 once started.  The caller
 * owns it and releases it with doca_sync_event_destroy.
 *
 * @param [out] event the new event.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when event is NULL;
 * DOCA_ERROR_NO_MEMORY when out of memory.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_create(struct doca_sync_event **event);

/**
 * @brief Create a view on an event another process exported with
 * doca_sync_event_export_to_remote_pci.
 *
 * Every field of the descriptor is checked: a malformed, truncated or forged
 * descriptor, or one whose exporter is gone or stopped the event, is refused.
 * The new event is in the created state and must be started before use.
 *
 * @param [in] dev an open device (the importing side's end of the link).
 * @param [in] data the descriptor bytes (copied; the caller keeps them).
 * @param [in] sz their length.
 * @param [out] event the new event, destroyed with doca_sync_event_destroy.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a NULL argument, a
 * malformed descriptor or one whose event no longer exists;
 * DOCA_ERROR_NOT_SUPPORTED for a descriptor of another machine;
 * DOCA_ERROR_NO_MEMORY.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
						struct doca_sync_event **event);

/**
 * @brief Whether events can be created from a remote-PCI export on this device.
 * @return DOCA_SUCCESS when supported (every emulated device);
 * DOCA_ERROR_INVALID_VALUE when devinfo is NULL or not a device.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Create a remote-net handle from a descriptor made by
 * doca_sync_event_export_to_remote_net; DOCA RDMA's sync-event tasks act on it.
 *
 * @param [in] dev an open device.
 * @param [in] data, sz the descriptor (copied).
 * @param [out] event the handle, released with doca_sync_event_remote_net_destroy.
 * @return as doca_sync_event_create_from_export.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
							   struct doca_sync_event_remote_net **event);

/**
 * @brief Whether remote-net handles can be created on this device.
 * @return DOCA_SUCCESS (every emulated device); DOCA_ERROR_INVALID_VALUE for a bad devinfo.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Destroy an event that is not started (created or stopped, or whose
 * context is IDLE).  Its exports die with it: importers' calls then fail.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when event is NULL or not an
 * event; DOCA_ERROR_BAD_STATE when it is still started (stop it first).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_destroy(struct doca_sync_event *event);

/**
 * @brief Release a remote-net handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when event is NULL or not a handle.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event);

/*
 * Configuration: only in the created (or stopped) state, else DOCA_ERROR_BAD_STATE.
 */

/**
 * @brief Declare that this process's CPU updates the event.
 * @param [in] event the event.
 * @param [in] dev an open device, or NULL.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a bad event or device;
 * DOCA_ERROR_BAD_STATE when the event is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);

/**
 * @brief Declare a DPA publisher.  No device here has a DPA.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for a bad event or NULL dpa).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);

/**
 * @brief Declare a GPU publisher.  The sync event has no GPU datapath here.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for a bad event or NULL gpu).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);

/**
 * @brief Declare that the other side of the PCI link updates the event; the
 * value then lives in memory that side can map (needed before an export).
 * @return as doca_sync_event_add_publisher_location_cpu.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event);

/**
 * @brief Declare that a remote network peer updates the event (through DOCA
 * RDMA); the value then lives in shareable memory (needed before an export).
 * @return as doca_sync_event_add_publisher_location_cpu.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event);

/**
 * @brief Declare that this process's CPU waits on the event.
 * @return as doca_sync_event_add_publisher_location_cpu.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);

/**
 * @brief Declare a DPA subscriber.  No device here has a DPA.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for bad arguments).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);

/**
 * @brief Declare a GPU subscriber.  The sync event has no GPU datapath here.
 * @return DOCA_ERROR_NOT_SUPPORTED (DOCA_ERROR_INVALID_VALUE for bad arguments).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);

/**
 * @brief Declare that the other side of the PCI link waits on the event.
 * @return as doca_sync_event_add_publisher_location_cpu.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event);

/**
 * @brief Keep the value at an 8-byte aligned address the application owns
 * (it must stay valid until the event is destroyed).  Such an event cannot
 * be exported: other processes cannot map private memory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a bad event, NULL or
 * misaligned addr, or an imported event; DOCA_ERROR_BAD_STATE when started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event, uint64_t *addr);

/**
 * @brief Keep the value at the data address of a DOCA buffer (8 aligned bytes
 * with room after them in the buffer); the buffer must outlive the event.
 * @return as doca_sync_event_set_addr, plus DOCA_ERROR_INVALID_VALUE when the
 * buffer has fewer than 8 bytes from its data address to its end.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event, struct doca_buf *buf);

/**
 * @brief Start the event as a stand-alone object (the CPU calls below); an
 * event converted with doca_sync_event_as_ctx is started with doca_ctx_start.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a bad event;
 * DOCA_ERROR_BAD_STATE when already started or managed as a context;
 * DOCA_ERROR_INVALID_VALUE when an imported event's exporter is gone;
 * DOCA_ERROR_OPERATING_SYSTEM when the shared value cannot be created.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_start(struct doca_sync_event *event);

/**
 * @brief Stop an event started with doca_sync_event_start.  Waiters of an
 * exported event in other processes fail at once (DOCA_ERROR_IO_FAILED).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; DOCA_ERROR_BAD_STATE when
 * not started stand-alone.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_stop(struct doca_sync_event *event);

/**
 * @brief The event as a DOCA context, for its tasks.  From then on the event
 * is started and stopped through the context.  Allowed while not started.
 * @return the context, or NULL (with one log record) for a bad or started event.
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

/** @brief Whether get tasks are supported: DOCA_SUCCESS on every device; DOCA_ERROR_INVALID_VALUE for a bad devinfo. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo);
/** @brief Configure get tasks (callbacks and pool size); see the task rules above. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_get_set_conf(struct doca_sync_event *event,
					       doca_sync_event_task_get_completion_cb_t completion_cb,
					       doca_sync_event_task_get_completion_cb_t error_cb, uint32_t num_tasks);
/** @brief Allocate a get task that stores the value at ret_val_ptr (non-NULL when submitted). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_get_alloc_init(struct doca_sync_event *event, uint64_t *ret_val_ptr,
						 union doca_data user_data, struct doca_sync_event_task_get **task);
/** @brief Generic view of a get task (NULL and one log record for a bad task). */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_get_as_doca_task(struct doca_sync_event_task_get *task);
/** @brief Change where a get task stores the value (ignored, with a log record, while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task, uint64_t *ret_val_ptr);
/** @brief Where a get task stores the value (NULL for a bad task). */
DOCA_EXPERIMENTAL
uint64_t *doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task);

/** @brief Whether notify-set tasks are supported (as the get capability). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo);
/** @brief Configure notify-set tasks; see the task rules above. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_set_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_set_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_set_completion_cb_t error_cb,
						      uint32_t num_tasks);
/** @brief Allocate a notify-set task that stores set_val and wakes the waiters. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_set_alloc_init(struct doca_sync_event *event, uint64_t set_val,
							union doca_data user_data,
							struct doca_sync_event_task_notify_set **task);
/** @brief Generic view of a notify-set task (NULL for a bad task). */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_notify_set_as_doca_task(struct doca_sync_event_task_notify_set *task);
/** @brief Change the value a notify-set task stores (ignored while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task, uint64_t set_val);
/** @brief The value a notify-set task stores (0 for a bad task). */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task);

/** @brief Whether notify-add tasks are supported (as the get capability). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo);
/** @brief Configure notify-add tasks; see the task rules above. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_add_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_add_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_add_completion_cb_t error_cb,
						      uint32_t num_tasks);
/**
 * @brief Allocate a notify-add task: adds inc_val atomically (wrapping at
 * 2^64) and stores the previous value at fetched_val_ptr (non-NULL when submitted).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_notify_add_alloc_init(struct doca_sync_event *event, uint64_t inc_val,
							uint64_t *fetched_val_ptr, union doca_data user_data,
							struct doca_sync_event_task_notify_add **task);
/** @brief Generic view of a notify-add task (NULL for a bad task). */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_notify_add_as_doca_task(struct doca_sync_event_task_notify_add *task);
/** @brief Change the increment (ignored while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task, uint64_t inc_val);
/** @brief The increment (0 for a bad task). */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task);
/** @brief Change where the previous value goes (ignored while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
							 uint64_t *fetched_val_ptr);
/** @brief Where the previous value goes (NULL for a bad task). */
DOCA_EXPERIMENTAL
uint64_t *doca_sync_event_task_notify_add_get_fetched_val_ptr(const struct doca_sync_event_task_notify_add *task);

/** @brief Whether wait-equal tasks are supported (as the get capability). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo);
/** @brief Configure wait-equal tasks; see the task rules above. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_eq_set_conf(struct doca_sync_event *event,
						   doca_sync_event_task_wait_eq_completion_cb_t completion_cb,
						   doca_sync_event_task_wait_eq_completion_cb_t error_cb, uint32_t num_tasks);
/**
 * @brief Allocate a wait-equal task: it completes once (value & mask) ==
 * wait_val, whoever changed the value (this process, another one, RDMA).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_eq_alloc_init(struct doca_sync_event *event, uint64_t wait_val,
						     uint64_t mask, union doca_data user_data,
						     struct doca_sync_event_task_wait_eq **task);
/** @brief Generic view of a wait-equal task (NULL for a bad task). */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_wait_eq_as_doca_task(struct doca_sync_event_task_wait_eq *task);
/** @brief Change the awaited value (ignored while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_eq_set_wait_val(struct doca_sync_event_task_wait_eq *task, uint64_t wait_val);
/** @brief The awaited value (0 for a bad task). */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_eq_get_wait_val(const struct doca_sync_event_task_wait_eq *task);
/** @brief Change the mask (ignored while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_eq_set_mask(struct doca_sync_event_task_wait_eq *task, uint64_t mask);
/** @brief The mask (0 for a bad task). */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_eq_get_mask(const struct doca_sync_event_task_wait_eq *task);

/** @brief Whether wait-not-equal tasks are supported (as the get capability). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo);
/** @brief Configure wait-not-equal tasks; see the task rules above. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_neq_set_conf(struct doca_sync_event *event,
						    doca_sync_event_task_wait_neq_completion_cb_t completion_cb,
						    doca_sync_event_task_wait_neq_completion_cb_t error_cb,
						    uint32_t num_tasks);
/** @brief Allocate a wait-not-equal task: it completes once (value & mask) != wait_val. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_task_wait_neq_alloc_init(struct doca_sync_event *event, uint64_t wait_val,
						      uint64_t mask, union doca_data user_data,
						      struct doca_sync_event_task_wait_neq **task);
/** @brief Generic view of a wait-not-equal task (NULL for a bad task). */
DOCA_EXPERIMENTAL
struct doca_task *doca_sync_event_task_wait_neq_as_doca_task(struct doca_sync_event_task_wait_neq *task);
/** @brief Change the value waited away from (ignored while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_neq_set_wait_val(struct doca_sync_event_task_wait_neq *task, uint64_t wait_val);
/** @brief The value waited away from (0 for a bad task). */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_neq_get_wait_val(const struct doca_sync_event_task_wait_neq *task);
/** @brief Change the mask (ignored while in flight). */
DOCA_EXPERIMENTAL
void doca_sync_event_task_wait_neq_set_mask(struct doca_sync_event_task_wait_neq *task, uint64_t mask);
/** @brief The mask (0 for a bad task). */
DOCA_EXPERIMENTAL
uint64_t doca_sync_event_task_wait_neq_get_mask(const struct doca_sync_event_task_wait_neq *task);

/*
 * Exports.
 */

/**
 * @brief Describe a started event for the other side of the PCI link, which
 * passes the bytes to doca_sync_event_create_from_export.
 *
 * The event must own its value (not set_addr / set_doca_buf) and have a
 * remote-PCI publisher or subscriber declared before it started.  The bytes
 * belong to the event and stay valid until it stops.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL arguments or a bad
 * device; DOCA_ERROR_BAD_STATE when not started; DOCA_ERROR_NOT_PERMITTED
 * when no remote location was declared or the value is at an application address.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event, struct doca_dev *dev,
						  const uint8_t **data, size_t *sz);

/** @brief Whether events can be exported to the PCI peer: DOCA_SUCCESS on every device. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo);

/** @brief DPA handle of an event: DOCA_ERROR_NOT_SUPPORTED (no DPA here). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
					    doca_dpa_dev_sync_event_t *dpa_dev_se_handle);

/** @brief Whether the DPA export exists: DOCA_ERROR_NOT_SUPPORTED on every device. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);

/** @brief GPU handle of an event: DOCA_ERROR_NOT_SUPPORTED (no GPU datapath). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get_gpu_handle(struct doca_sync_event *event, struct doca_gpu *gpu,
					    doca_gpu_dev_sync_event_t **gpu_dev_se);

/** @brief Whether the GPU export exists: DOCA_ERROR_NOT_SUPPORTED on every device. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);

/**
 * @brief Describe a started event for a remote network peer, which passes
 * the bytes to doca_sync_event_remote_net_create_from_export.  Rules and
 * errors as doca_sync_event_export_to_remote_pci, with a remote-net (or
 * remote-PCI) location declared.  On this machine the peer must share its
 * memory (/dev/shm): another PID or network namespace works, another host does not.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event, const uint8_t **data,
						  size_t *sz);

/** @brief Whether the remote-net export exists: DOCA_SUCCESS on every device. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo);

/** @brief DPA handle of a remote-net event: DOCA_ERROR_NOT_SUPPORTED. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_get_dpa_handle(struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
						       doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event);

/** @brief Whether remote-net events export to the DPA: DOCA_ERROR_NOT_SUPPORTED. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);

/** @brief GPU handle of a remote-net event: DOCA_ERROR_NOT_SUPPORTED. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_remote_net_get_gpu_handle(struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
						       doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event);

/** @brief Whether remote-net events export to the GPU: DOCA_ERROR_NOT_SUPPORTED. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);

/*
 * CPU calls on a started event (stand-alone, or its context RUNNING).
 * Errors: DOCA_ERROR_INVALID_VALUE for a bad event or NULL output,
 * DOCA_ERROR_BAD_STATE when not started, DOCA_ERROR_IO_FAILED when the
 * exporter of an imported event stopped it or died (noticed by a waiter
 * within 100 ms).
 */

/** @brief Read the value. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value);

/** @brief Add value atomically (wrapping at 2^64); the previous value goes to fetched (may be NULL). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_update_add(struct doca_sync_event *event, uint64_t value, uint64_t *fetched);

/** @brief Store value and wake every waiter. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_update_set(struct doca_sync_event *event, uint64_t value);

/**
 * @brief Return once (event value & mask) > value.  Spins briefly, then
 * sleeps on a futex until an update wakes it.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/** @brief As doca_sync_event_wait_gt, yielding the CPU between its first looks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/** @brief Return once (event value & mask) == value (see doca_sync_event_wait_gt). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/** @brief As doca_sync_event_wait_eq, yielding the CPU between its first looks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/** @brief Return once (event value & mask) != value (see doca_sync_event_wait_gt). */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event, uint64_t value, uint64_t mask);

/** @brief As doca_sync_event_wait_neq, yielding the CPU between its first looks. */
DOCA_EXPERIMENTAL
doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_SYNC_EVENT_H_ */
