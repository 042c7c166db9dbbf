/*
 * sd_sync_event.h - what other libraries use of a DOCA Sync Event.
 *
 * The sync event itself lives in libdoca_common (src/common/sync_event).
 * DOCA RDMA's remote-net sync event tasks (get, notify_set, notify_add)
 * act on the 64-bit value behind a `doca_sync_event_remote_net` handle;
 * libdoca_rdma reaches that value only through this one entry point, so
 * the arrow points from rdma/ down into the core and never back.
 */
#ifndef SD_SYNC_EVENT_H
#define SD_SYNC_EVENT_H

#include <stdint.h>

#include <doca_error.h>

#include "sd_visibility.h"

struct doca_sync_event_remote_net;

/* One operation on a remote event's value, as a card's atomic would do it. */
enum sd_sync_event_op {
	SD_SYNC_EVENT_OP_GET = 0, /* read the value */
	SD_SYNC_EVENT_OP_SET = 1, /* store `operand` */
	SD_SYNC_EVENT_OP_ADD = 2, /* add `operand`, wrapping at 2^64 */
};

/*
 * Apply `op` atomically to the value behind `ev` and store the value it
 * held before the operation in `*old` (may be NULL).  Never blocks, so it
 * may run on a progress thread.  Fails with a DOCA error (and one log
 * record naming the rule) when the handle is not a live remote-net handle
 * or the exporting event is gone or stopped.
 */
SD_PRIV doca_error_t priv_doca_sync_event_remote_net_apply(struct doca_sync_event_remote_net *ev,
							  enum sd_sync_event_op op, uint64_t operand,
							  uint64_t *old);

#endif /* SD_SYNC_EVENT_H */
