/*
 * dev_internal.h - what the files of src/common/dev share among themselves.
 *
 * Nothing here leaves libdoca_common: every function is hidden (the library
 * builds with -fvisibility=hidden) and carries the sd_ prefix.
 */
#ifndef SD_DEV_INTERNAL_H
#define SD_DEV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "sd_dev.h"

/* ---- PCI addresses (pci.c) ------------------------------------------- */

/* A parsed PCI address; compared field by field, numerically. */
struct sd_pci {
	uint16_t domain;
	uint8_t bus;
	uint8_t devno;
	uint8_t func;
};

/* Length of "dddd:bb:dd.f" without the NUL. */
#define SD_PCI_STR_LEN 12

/*
 * Parse "dddd:bb:dd.f" or the short "bb:dd.f" (domain 0).  Hex digits in
 * either case, each field at most its width, device <= 0x1f, function <= 7,
 * nothing before or after.  Returns false when `str` is not such an address.
 */
bool sd_pci_parse(const char *str, struct sd_pci *out);

/* Write the canonical lower-case "dddd:bb:dd.f" and its NUL (13 bytes). */
void sd_pci_format(const struct sd_pci *pci, char out[SD_PCI_STR_LEN + 1]);

/* <0, 0 or >0, ordering by domain, bus, device, function. */
int sd_pci_compare(const struct sd_pci *a, const struct sd_pci *b);

/* The address of a topology device as a struct sd_pci. */
struct sd_pci sd_pci_of_device(const struct sd_device *dev);

/* ---- capability profiles (profiles.c) -------------------------------- */

/* Kinds of value a capability key takes in the topology file. */
enum sd_cap_type {
	SD_CAP_BOOL,
	SD_CAP_U32,
	SD_CAP_U64,
};

/* One overridable field of struct sd_caps. */
struct sd_cap_key {
	const char *name; /* the key in the topology file = the field name */
	enum sd_cap_type type;
	size_t offset;    /* offsetof(struct sd_caps, field) */
	uint64_t min;     /* accepted range for numbers */
	uint64_t max;
};

/* Number of entries of the capability key table, and the table itself. */
size_t sd_cap_key_count(void);
const struct sd_cap_key *sd_cap_key_at(size_t index);

/* The key called `name`, or NULL. */
const struct sd_cap_key *sd_cap_key_find(const char *name);

/* Store a parsed value into the field `key` describes. */
void sd_cap_key_store(const struct sd_cap_key *key, struct sd_caps *caps, uint64_t value);

/* True when a profile called `name` exists. */
bool sd_profile_exists(const char *name);

/* True when the profile can only describe host-side devices (cx7). */
bool sd_profile_host_only(const char *name);

/*
 * Fill `caps` with the values of profile `name` for a device on `side`;
 * `has_emulated_reps` tells whether the device lists emulated-function
 * representors (the default of the EMULATED filter follows it).
 * Returns false for an unknown profile.
 */
bool sd_profile_fill(const char *name, enum sd_side side, bool has_emulated_reps, struct sd_caps *caps);

/* ---- the topology (topology.c, topology_parse.c) ---------------------- */

/* Side bits of the optional process restriction `sides = ...`. */
#define SD_SIDES_HOST (1u << SD_SIDE_HOST)
#define SD_SIDES_DPU (1u << SD_SIDE_DPU)
#define SD_SIDES_ALL (SD_SIDES_HOST | SD_SIDES_DPU)

/* What a successful parse produces. */
struct sd_topo_parsed {
	struct sd_device *devs; /* sorted by PCI address, side filter applied */
	uint32_t ndev;
	char peer[256];         /* `peer` key, empty when absent */
};

/*
 * Parse topology text (`len` bytes, need not be NUL-terminated).  On
 * failure returns false and writes "line N: problem" (or just the problem
 * when no line applies) into `err`; nothing is allocated then.
 */
bool sd_topology_parse(const char *text, size_t len, struct sd_topo_parsed *out, char *err, size_t err_len);

/* The process-wide topology, loaded on first use. */
struct sd_topology {
	doca_error_t status;      /* DOCA_SUCCESS or DOCA_ERROR_NOT_FOUND */
	char error[768];          /* why the topology was refused */
	uint32_t ndev;
	struct sd_device *devs;   /* immutable records, sorted by PCI address */
	struct doca_dev *handles; /* one permanent handle slot per device */
	char peer[256];           /* `peer` key of the file (SOFTDOCA_PEER's fallback), or empty */
};

/* Load (once, thread-safe) and return the topology; never NULL. */
struct sd_topology *sd_topology_get(void);

/* The handle slot of `node`, or NULL when `node` is not a topology device. */
struct doca_dev *sd_topology_handle_of(const struct sd_device *node);

/* True when `dev` points exactly at one of the topology's handle slots. */
bool sd_topology_is_handle_slot(const struct doca_dev *dev);

/* ---- device registry lock (dev.c) ------------------------------------ */

/* One lock guards open counts, dependents and open representors. */
void sd_dev_lock(void);
void sd_dev_unlock(void);

/* ---- handle lists (lists.c) ------------------------------------------ */

/* Kinds of lists, so one kind's destroy refuses the other kind's list. */
enum sd_list_kind {
	SD_LIST_DEVINFO = 1,
	SD_LIST_DEVINFO_REP = 2,
};

/*
 * Allocate a NULL-terminated array of `count` pointers to zeroed elements
 * of `elem_size` bytes each, and remember it as a live list of `kind`.
 * Returns the array (what the application sees) or NULL when out of memory.
 */
void **sd_list_create(enum sd_list_kind kind, uint32_t count, size_t elem_size);

/*
 * Forget and free a list made by sd_list_create.  Returns false, touching
 * nothing, when `array` is not a live list of `kind`.
 */
bool sd_list_destroy(enum sd_list_kind kind, void **array);

/* ---- small helpers shared by the getters ----------------------------- */

/* Copy `src` and its NUL into `dst` (the caller checked the size). */
void sd_copy_string(char *dst, const char *src);

/*
 * Resolve `devinfo` into its record `node`, or return DOCA_ERROR_INVALID_VALUE
 * with one ERROR record when it or the output pointer `out` is bad.
 * Needs sd_log.h.
 */
#define SD_DEVINFO_OR_REJECT(node, devinfo, out)                                                   \
	do {                                                                                       \
		(node) = priv_doca_devinfo_node(devinfo);                                          \
		if ((node) == NULL)                                                                \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "devinfo %p is NULL or not a live device description",   \
					 (const void *)(devinfo));                                 \
		if ((out) == NULL)                                                                 \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "output pointer %s must not be NULL (device %s)", #out,   \
					 (node)->pci_addr);                                        \
	} while (0)

#endif /* SD_DEV_INTERNAL_H */
