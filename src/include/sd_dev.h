/*
 * sd_dev.h - the emulated device model as the other layers see it.
 *
 * The topology (built-in default or SOFTDOCA_TOPOLOGY file) is parsed once
 * per process into immutable `struct sd_device` records.  A devinfo is a
 * thin handle that points at one record; an open doca_dev points at the same
 * record.  "Same underlying device" therefore means "same sd_device".
 *
 * Capability values live in `struct sd_caps`; a named profile (bf3, bf2,
 * cx7) fills them and the topology file may override single values.
 */
#ifndef SD_DEV_H
#define SD_DEV_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#include <doca_dev.h>

#include "sd_visibility.h"

struct sd_engine;

enum sd_side {
	SD_SIDE_HOST = 0,
	SD_SIDE_DPU = 1,
};

/*
 * What doca_mmap_start does to the memory of an mmap that lists the device
 * (docs/mmap-registration.md).  Ordered: an mmap takes the most thorough
 * mode among its devices.
 */
enum sd_mmap_register_mode {
	SD_MMAP_REGISTER_UNSET = 0,    /* topology says nothing: SOFTDOCA_MMAP_REGISTER decides */
	SD_MMAP_REGISTER_OFF = 1,      /* touch nothing */
	SD_MMAP_REGISTER_POPULATE = 2, /* make every page resident */
	SD_MMAP_REGISTER_PIN = 3,      /* ... and pin it where the process may */
};

/* Every capability a softdoca library answers from the topology. */
struct sd_caps {
	/* DOCA DMA */
	bool dma_memcpy;
	uint32_t dma_max_tasks;
	uint32_t dma_max_list_len;
	uint64_t dma_max_buf_size;
	uint32_t num_comp_vectors;
	/* mmap */
	bool mmap_export_pci;
	bool mmap_from_export_pci;
	bool mmap_export_rdma;
	uint32_t mmap_max_devices;
	/* DOCA RDMA (src/rdma): softdoca values, docs/rdma.md */
	bool rdma;
	uint32_t rdma_max_send_queue;
	uint32_t rdma_max_recv_queue;
	uint32_t rdma_max_list_len;
	uint32_t rdma_max_msg_size;
	uint32_t rdma_gid_table_size;
	/* mmap advise */
	bool advise_supported;
	uint64_t advise_max_buf_size;
	/* comch */
	bool comch_server;
	bool comch_client;
	uint32_t comch_max_name_len;
	uint32_t comch_max_msg_size;
	uint32_t comch_max_recv_queue;
	uint32_t comch_max_send_tasks;
	uint32_t comch_max_clients;
	/* devinfo */
	bool rep_filter_all;
	bool rep_filter_net;
	bool rep_filter_emulated;
	bool hotplug_manager;
	bool notification_moderation;
	bool accelerate_reclaim;
	uint32_t active_rate_gbps;
};

/* One representor exposed by a DPU-side device. */
struct sd_rep {
	char pci_addr[16];  /* "dddd:bb:dd.f" of the represented function */
	char vuid[128];
	char iface_name[256];
	uint32_t vhca_id;
	int func_type;      /* enum doca_pci_func_type */
	bool hotplug;
	bool emulated;      /* kind: network (false) or emulated (true) */
	bool is_hotplugged; /* current hot-plug state */
};

/* One emulated local device, immutable after the topology is loaded. */
struct sd_device {
	char pci_addr[16]; /* canonical "dddd:bb:dd.f" */
	uint16_t domain;
	uint8_t bus, devno, func;
	enum sd_side side;
	char ibdev_name[64];
	char iface_name[256];
	uint8_t mac[6];
	bool has_ipv4, has_ipv6;
	uint8_t ipv4[4];
	uint8_t ipv6[16];
	uint32_t vhca_id;
	int func_type;     /* enum doca_pci_func_type of the local function */
	uint32_t sf_index; /* auxiliary-device index; meaningful for an SF only */
	char profile[16];
	struct sd_caps caps;
	const struct sd_engine *engine; /* data mover chosen by the topology */
	int engine_unit;                /* the engine's unit for this device (cuda: GPU ordinal) */
	uint8_t mmap_register;          /* enum sd_mmap_register_mode, topology key mmap_register */
	int dma_workers;                /* cpu engine: worker threads (topology dma_workers), -1: unset */
	char card_timing[128];          /* topology card_timing: model name or table path; "" when unset */
	uint32_t num_reps;
	struct sd_rep *reps;
};

/* Device lists hand out these; the record is shared, the handle is not. */
struct doca_devinfo {
	uint32_t magic; /* SD_DEVINFO_MAGIC while valid */
	const struct sd_device *node;
};

struct doca_dev {
	uint32_t magic; /* SD_DEV_MAGIC while open */
	struct doca_devinfo info; /* what doca_dev_as_devinfo returns */
	const struct sd_device *node;
	uint32_t open_count;      /* protected by the device registry lock */
	uint32_t dependents;      /* mmaps, contexts, imports, reps */
};

#define SD_DEVINFO_MAGIC 0x44564e46u /* "DVNF" */
#define SD_DEV_MAGIC 0x44455630u     /* "DEV0" */

/* A representor as listed by doca_devinfo_rep_create_list. */
struct doca_devinfo_rep {
	uint32_t magic;               /* SD_DEVINFO_REP_MAGIC while valid */
	const struct sd_rep *rep;     /* immutable topology record */
	const struct sd_device *node; /* the DPU-side device that lists it */
	struct doca_dev *parent;      /* handle slot of that device */
};

/* An opened representor: one heap handle per doca_dev_rep_open. */
struct doca_dev_rep {
	uint32_t magic;               /* SD_DEV_REP_MAGIC while open */
	struct doca_devinfo_rep info; /* what doca_dev_rep_as_devinfo returns */
	struct doca_dev *parent;      /* holds one dependent of this device */
	uint32_t dependents;          /* objects created on the representor */
	struct doca_dev_rep *next;    /* registry of open representors */
};

#define SD_DEVINFO_REP_MAGIC 0x44565250u /* "DVRP" */
#define SD_DEV_REP_MAGIC 0x44524550u     /* "DREP" */

/* True when `dev` is a live, open device handle of this process. */
SD_PRIV bool priv_doca_dev_is_valid(const struct doca_dev *dev);

/*
 * Record / drop a dependent of an open device (an mmap that registered it,
 * a context created on it, ...).  While a dependent exists the close that
 * would drop the last reference is refused with DOCA_ERROR_IN_USE.
 */
SD_PRIV void priv_doca_dev_dep_get(struct doca_dev *dev);
SD_PRIV void priv_doca_dev_dep_put(struct doca_dev *dev);

/* The capability record behind a devinfo handle, or NULL for a bad handle. */
SD_PRIV const struct sd_device *priv_doca_devinfo_node(const struct doca_devinfo *devinfo);

/* True when `rep` is a live, open representor handle of this process. */
SD_PRIV bool priv_doca_dev_rep_is_valid(const struct doca_dev_rep *rep);

/*
 * Record / drop an object created on an open representor (a Comch server).
 * While one exists doca_dev_rep_close is refused with DOCA_ERROR_IN_USE.
 */
SD_PRIV void priv_doca_dev_rep_dep_get(struct doca_dev_rep *rep);
SD_PRIV void priv_doca_dev_rep_dep_put(struct doca_dev_rep *rep);

/* The representor record behind a devinfo_rep handle, or NULL for a bad handle. */
SD_PRIV const struct sd_rep *priv_doca_devinfo_rep_node(const struct doca_devinfo_rep *devinfo_rep);

/* The topology file's `peer` key (libdoca_common only), "" when none (sd_peer.h). */
const char *sd_topology_peer(void);

static inline const struct sd_device *sd_dev_node(const struct doca_dev *dev)
{
	return dev->node;
}

#endif /* SD_DEV_H */
