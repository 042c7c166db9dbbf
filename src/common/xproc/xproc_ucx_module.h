/*
 * xproc_ucx_module.h - the seam between libdoca_common and the UCX transport.
 *
 * The UCX transport is a separate shared object, libsoftdoca_xproc_ucx.so,
 * installed next to libdoca_common.so and opened with dlopen the first
 * time an export offers a network endpoint or an import needs one
 * (xproc_ucx.c).  Programs that never cross a namespace therefore never
 * load UCX, whose libraries install crash-signal handlers and read their
 * configuration as they load; and softdoca builds and runs where UCX is
 * missing.
 *
 * The object exports one function, SD_UCX_MODULE_ENTRY, returning the
 * table below.  Both sides are built from the same tree; `abi` guards a
 * stray file of another build.  What the module needs of the xproc core
 * (today: watching a relay record) it gets as a table at that call, so
 * that calls go from the core down into the module and never back up.
 */
#ifndef SD_XPROC_UCX_MODULE_H
#define SD_XPROC_UCX_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "xproc_desc.h"

/* 3: message nodes; 4: their event descriptor; 5: relayed imports; 6: core table; 7: relay tokens */
#define SD_UCX_MODULE_ABI 7u
#define SD_UCX_MODULE_FILE "libsoftdoca_xproc_ucx.so"
#define SD_UCX_MODULE_ENTRY "priv_doca_xproc_ucx_module"

struct sd_mem_remote_ops;
struct sd_msgnet_cbs;
struct sd_msgnet_ops;
struct sd_xp_relay_id;
struct sd_xp_relay_watch;

/*
 * What the core lends the module: the relay-record watch of xproc_relay.h.
 * relay_open checks the relay token and the host export the id names and
 * leaves the host's token in the watch (up_token), for the module to
 * compare with the export it serves.
 */
struct sd_ucx_core_ops {
	bool (*relay_open)(struct sd_xp_relay_watch *w, const struct sd_xp_relay_id *id);
	bool (*relay_live)(struct sd_xp_relay_watch *w);
	void (*relay_close)(struct sd_xp_relay_watch *w);
};

/* One started-period export of an mmap, as the transport serves it. */
struct sd_ucx_export_args {
	uint64_t export_id;
	uint32_t generation;
	uint8_t token[SD_XP_TOKEN_LEN];
	uint64_t addr, len; /* the exported range, this process's addresses */
	bool writable;      /* some descriptor kind may write: peers may put */
	uint32_t access_mask; /* the exporter's own rights, granted to every peer (enforced by it) */
	struct sd_xp_net bind; /* local address to listen on; port 0 lets the kernel choose */
};

/* What an importer knows from the descriptor. */
struct sd_ucx_import_args {
	uint64_t export_id;
	uint32_t generation;
	uint8_t token[SD_XP_TOKEN_LEN]; /* relayed: the relay's token */
	uint64_t addr, len;
	bool writable;
	uint8_t kind;         /* SD_XP_KIND_PCI or SD_XP_KIND_RDMA: which rights apply */
	uint32_t access_mask; /* the rights the descriptor claims (the exporter's grant decides) */
	uint32_t pid;         /* exporter's pid in its own namespace (diagnostics only) */
	struct sd_xp_net peer; /* the exporter's listener */
	bool relayed;          /* handed on (SD_XP_FLAG_RELAY): the exporter watches the relay record below */
	uint32_t relay_pid, relay_export_id;
	uint64_t relay_start_time;
};

struct sd_ucx_module {
	uint32_t abi;
	/*
	 * Serve the range to peers that present this export's id, generation
	 * and token.  *where receives the listener's address (the same for
	 * every export of the process).  *handle is what export_close takes.
	 */
	doca_error_t (*export_open)(const char *func, const struct sd_ucx_export_args *args, struct sd_xp_net *where,
				    void **handle);
	/*
	 * The export ends (mmap stop or destroy): every peer's connection is
	 * closed and the registration dropped before this returns, so the
	 * memory may be reused at once.
	 */
	void (*export_close)(void *handle);
	/*
	 * Start connecting to the exporter; never waits for it.  The first
	 * access waits for the answer, at most the liveness bound.
	 */
	doca_error_t (*import_open)(const char *func, const struct sd_ucx_import_args *args, void **handle);
	void (*import_close)(void *handle);
	/* Access hooks of an import; mmap->remote_priv is the import_open handle. */
	const struct sd_mem_remote_ops *remote_ops;
	/* The liveness bound in milliseconds (SOFTDOCA_PEER_TIMEOUT_MS). */
	uint32_t (*timeout_ms)(void);
	/* Message nodes (sd_msgnet.h): open one listening on `bind`, link it to a peer's, and the rest. */
	doca_error_t (*msg_open)(const char *func, const struct sd_xp_net *bind, const struct sd_msgnet_cbs *cbs,
				 void *arg, uint16_t *port, void **node);
	doca_error_t (*msg_connect)(const char *func, void *node, const struct sd_xp_net *peer, void *link_arg,
				    void **link);
	const struct sd_msgnet_ops *msg_ops;
};

typedef const struct sd_ucx_module *(*sd_ucx_module_entry_t)(uint32_t abi, const struct sd_ucx_core_ops *core);

#endif /* SD_XPROC_UCX_MODULE_H */
