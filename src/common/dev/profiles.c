/*
 * profiles.c - named capability profiles and the overridable capability keys.
 *
 * No public source gives the hardware's exact limits, so these are softdoca
 * defaults, not hardware facts:
 *  - bf3 (default) and bf2 carry the same values: no program in scope can
 *    observe a difference between the two generations;
 *  - cx7 keeps the DMA and device-information values, but a ConnectX-7 has
 *    no Arm side: it is host-side only, lists no representors and offers
 *    neither PCI export, import from export, nor a Comch role.
 *  - gpu is a GPU driven by the cuda engine: host side, DMA memcpy only
 *    (no export, no Comch, no mmap advise, no representors).
 * The side of the device decides the Comch role (server on the DPU side,
 * client on the host side) and whether representor filters are offered.
 */
#include <stddef.h>
#include <string.h>

#include "dev_internal.h"

#define SD_GIB (1024ull * 1024ull * 1024ull)

struct sd_profile {
	const char *name;
	bool host_only;     /* refuses side = dpu */
	bool pci_export;    /* mmap export_pci and create_from_export */
	bool comch;         /* the side's Comch role is available */
	bool dma_only;      /* a GPU: nothing but DMA memcpy */
};

static const struct sd_profile sd_profiles[] = {
	{ .name = "bf3", .host_only = false, .pci_export = true, .comch = true },
	{ .name = "bf2", .host_only = false, .pci_export = true, .comch = true },
	{ .name = "cx7", .host_only = true, .pci_export = false, .comch = false },
	{ .name = "gpu", .host_only = true, .pci_export = false, .comch = false, .dma_only = true },
};

#define SD_CAP(field, kind, lo, hi)                                                                \
	{                                                                                          \
		.name = #field, .type = (kind), .offset = offsetof(struct sd_caps, field),         \
		.min = (lo), .max = (hi)                                                           \
	}
#define SD_CAP_FLAG(field) SD_CAP(field, SD_CAP_BOOL, 0, 1)
#define SD_CAP_COUNT(field) SD_CAP(field, SD_CAP_U32, 1, UINT32_MAX)
#define SD_CAP_SIZE(field) SD_CAP(field, SD_CAP_U64, 1, UINT64_MAX)

/* Every field of struct sd_caps, under its own name, in declaration order. */
static const struct sd_cap_key sd_cap_keys[] = {
	SD_CAP_FLAG(dma_memcpy),
	SD_CAP_COUNT(dma_max_tasks),
	SD_CAP_COUNT(dma_max_list_len),
	SD_CAP_SIZE(dma_max_buf_size),
	SD_CAP_COUNT(num_comp_vectors),
	SD_CAP_FLAG(mmap_export_pci),
	SD_CAP_FLAG(mmap_from_export_pci),
	SD_CAP_FLAG(mmap_export_rdma),
	SD_CAP_COUNT(mmap_max_devices),
	SD_CAP_FLAG(rdma),
	SD_CAP_COUNT(rdma_max_send_queue),
	SD_CAP_COUNT(rdma_max_recv_queue),
	SD_CAP_COUNT(rdma_max_list_len),
	SD_CAP_COUNT(rdma_max_msg_size),
	SD_CAP_COUNT(rdma_gid_table_size),
	SD_CAP_FLAG(advise_supported),
	SD_CAP_SIZE(advise_max_buf_size),
	SD_CAP_FLAG(comch_server),
	SD_CAP_FLAG(comch_client),
	SD_CAP_COUNT(comch_max_name_len),
	SD_CAP_COUNT(comch_max_msg_size),
	SD_CAP_COUNT(comch_max_recv_queue),
	SD_CAP_COUNT(comch_max_send_tasks),
	SD_CAP_COUNT(comch_max_clients),
	SD_CAP_FLAG(rep_filter_all),
	SD_CAP_FLAG(rep_filter_net),
	SD_CAP_FLAG(rep_filter_emulated),
	SD_CAP_FLAG(hotplug_manager),
	SD_CAP_FLAG(notification_moderation),
	SD_CAP_FLAG(accelerate_reclaim),
	/* a rate of 0 models a port whose link is down */
	SD_CAP(active_rate_gbps, SD_CAP_U32, 0, UINT32_MAX / 2),
};

size_t sd_cap_key_count(void)
{
	return sizeof(sd_cap_keys) / sizeof(sd_cap_keys[0]);
}

const struct sd_cap_key *sd_cap_key_at(size_t index)
{
	return index < sd_cap_key_count() ? &sd_cap_keys[index] : NULL;
}

const struct sd_cap_key *sd_cap_key_find(const char *name)
{
	for (size_t i = 0; i < sd_cap_key_count(); i++) {
		if (strcmp(sd_cap_keys[i].name, name) == 0)
			return &sd_cap_keys[i];
	}
	return NULL;
}

void sd_cap_key_store(const struct sd_cap_key *key, struct sd_caps *caps, uint64_t value)
{
	char *field = (char *)caps + key->offset;

	switch (key->type) {
	case SD_CAP_BOOL: {
		bool b = value != 0;
		memcpy(field, &b, sizeof(b));
		break;
	}
	case SD_CAP_U32: {
		uint32_t v = (uint32_t)value;
		memcpy(field, &v, sizeof(v));
		break;
	}
	case SD_CAP_U64:
		memcpy(field, &value, sizeof(value));
		break;
	}
}

static const struct sd_profile *sd_profile_find(const char *name)
{
	for (size_t i = 0; i < sizeof(sd_profiles) / sizeof(sd_profiles[0]); i++) {
		if (strcmp(sd_profiles[i].name, name) == 0)
			return &sd_profiles[i];
	}
	return NULL;
}

bool sd_profile_exists(const char *name)
{
	return sd_profile_find(name) != NULL;
}

bool sd_profile_host_only(const char *name)
{
	const struct sd_profile *p = sd_profile_find(name);

	return p != NULL && p->host_only;
}

/* The default values every profile starts from (docs/decisions.md, "Capability defaults"). */
static void sd_caps_common(struct sd_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	caps->dma_memcpy = true;
	caps->dma_max_tasks = 65536;
	caps->dma_max_list_len = 64;
	caps->dma_max_buf_size = 2 * SD_GIB;
	caps->num_comp_vectors = 1;
	caps->mmap_export_rdma = true;
	caps->mmap_max_devices = 16;
	caps->rdma = true;
	caps->rdma_max_send_queue = 32768;
	caps->rdma_max_recv_queue = 32768;
	caps->rdma_max_list_len = 30;
	caps->rdma_max_msg_size = 1u << 30;
	caps->rdma_gid_table_size = 4;
	caps->advise_supported = true;
	caps->advise_max_buf_size = 2 * SD_GIB;
	caps->comch_max_name_len = 120;
	caps->comch_max_msg_size = 4080;
	caps->comch_max_recv_queue = 1024;
	caps->comch_max_send_tasks = 8192;
	caps->comch_max_clients = 16;
	caps->hotplug_manager = false;
	caps->notification_moderation = false;
	caps->accelerate_reclaim = false;
	caps->active_rate_gbps = 100;
}

bool sd_profile_fill(const char *name, enum sd_side side, bool has_emulated_reps, struct sd_caps *caps)
{
	const struct sd_profile *p = sd_profile_find(name);
	bool dpu = side == SD_SIDE_DPU;

	if (p == NULL)
		return false;
	sd_caps_common(caps);
	caps->mmap_export_pci = p->pci_export;
	caps->mmap_from_export_pci = p->pci_export;
	caps->comch_server = p->comch && dpu;
	caps->comch_client = p->comch && !dpu;
	/* Host-side devices answer the filter queries with NOT_SUPPORTED. */
	caps->rep_filter_all = dpu;
	caps->rep_filter_net = dpu;
	caps->rep_filter_emulated = dpu && has_emulated_reps;
	if (p->dma_only) {
		caps->mmap_export_rdma = false;
		caps->rdma = false;
		caps->advise_supported = false;
	}
	return true;
}
