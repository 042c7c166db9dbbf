/*
 * topology_parse.h - the state the topology parser shares between reading
 * the text (topology_parse.c) and completing it into device records
 * (topology_finish.c).  Private to src/common/dev.
 */
#ifndef SD_TOPOLOGY_PARSE_H
#define SD_TOPOLOGY_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "dev_internal.h"

#define SD_MAX_LINE 4096
#define SD_ENGINE_NAME_MAX 32
#define SD_VHCA_MAX 0xffffu
/* dma_workers: the cpu engine's thread limit */
#define SD_TOPOLOGY_MAX_DMA_WORKERS 64u

/* A representor while its file section is being read. */
struct sd_prep {
	struct sd_rep rep;
	struct sd_pci pci;
	unsigned line;
	uint32_t seen; /* bit per rep key given */
};

/* A device while its file section (and its representors) is being read. */
struct sd_pdev {
	struct sd_device dev;
	struct sd_pci pci;
	unsigned line;  /* of the [device ...] header */
	unsigned index; /* position in the file, for defaults */
	uint32_t seen;  /* bit per device key given */
	unsigned side_line, profile_line, vhca_line;
	unsigned func_line, sf_line; /* of func_type / sf_index, 0 when not given */
	char engine[SD_ENGINE_NAME_MAX];
	unsigned engine_line;
	struct sd_caps over;   /* capability overrides ... */
	uint64_t over_mask;    /* ... bit per capability key given */
	struct sd_prep *reps;
	uint32_t nreps, cap_reps;
};

enum sd_section {
	SD_SEC_NONE,
	SD_SEC_DEVICE,
	SD_SEC_REP,
};

struct sd_parser {
	struct sd_pdev *devs;
	uint32_t ndev, cap_devs;
	enum sd_section section;
	unsigned line;
	unsigned sides;
	bool has_sides;
	bool has_faults; /* issue 12: the faults key was given */
	char peer[256]; /* `peer` key (ADDR[:PORT]), empty when absent */
	char *err;
	size_t err_len;
};

/* Bits of struct sd_pdev.seen: the keys a [device] section gave. */
enum { SD_DKEY_SIDE, SD_DKEY_PROFILE, SD_DKEY_IBDEV, SD_DKEY_IFACE, SD_DKEY_MAC, SD_DKEY_IPV4,
       SD_DKEY_IPV6, SD_DKEY_VHCA, SD_DKEY_ENGINE, SD_DKEY_MMAP_REGISTER, SD_DKEY_FUNC,
       SD_DKEY_SF_INDEX, SD_DKEY_DMA_WORKERS, SD_DKEY_CARD_TIMING };

/* Bits of struct sd_prep.seen: the keys a [rep] section gave. */
enum { SD_RKEY_KIND, SD_RKEY_FUNC, SD_RKEY_HOTPLUG, SD_RKEY_IFACE, SD_RKEY_VUID, SD_RKEY_VHCA };

/* Record "line N: ..." (or only "..." when line is 0) and return false. */
bool sd_fail(struct sd_parser *p, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The device whose section is being read. */
static inline struct sd_pdev *sd_cur_dev(struct sd_parser *p)
{
	return &p->devs[p->ndev - 1];
}

/*
 * Check and complete the device read last (required keys, side and profile,
 * representors only on the DPU side, engine, capabilities, defaults).
 * Called when the next [device] starts and at the end of the text.
 */
bool sd_finish_device(struct sd_parser *p);

/* Whole-file rules once every section is read: vhca ids, representor defaults. */
bool sd_finish_topology(struct sd_parser *p);

/* Copy the kept devices, sorted, into the immutable output records. */
bool sd_emit(struct sd_parser *p, struct sd_topo_parsed *out);

#endif /* SD_TOPOLOGY_PARSE_H */
