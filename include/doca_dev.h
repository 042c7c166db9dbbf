/*
 * doca_dev.h - local devices, device descriptions and representors.
 *
 * softdoca emulates the devices described by its topology (a built-in
 * default or the file named by SOFTDOCA_TOPOLOGY, see docs/topology.md).
 *
 *  - struct doca_devinfo      read-only description of one local device,
 *                             handed out in lists by doca_devinfo_create_list
 *  - struct doca_dev          an opened local device; opening the same device
 *                             again yields the same handle with one more
 *                             reference
 *  - struct doca_devinfo_rep  read-only description of a representor, listed
 *                             through an open DPU-side device
 *  - struct doca_dev_rep      an opened representor (one handle per open)
 *
 * All four types are opaque.
 */
#ifndef DOCA_DEV_H_
#define DOCA_DEV_H_

#include <stdint.h>

#include <doca_types.h>
#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devinfo;
struct doca_devinfo_rep;

struct doca_dev;
struct doca_dev_rep;

/* Which kinds of representors a listing returns; bits may be combined. */
enum doca_devinfo_rep_filter {
	DOCA_DEVINFO_REP_FILTER_ALL = 0,
	DOCA_DEVINFO_REP_FILTER_NET = 1 << 1,
	DOCA_DEVINFO_REP_FILTER_EMULATED = 1 << 2,
};

/*
 * Build a fresh list of every local device, sorted by PCI address.  Release
 * it with doca_devinfo_destroy_list.  DOCA_ERROR_NOT_FOUND when the device
 * topology could not be loaded.
 */
DOCA_STABLE
doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs);

/* Release a list and all its elements; devices opened from it stay open. */
DOCA_STABLE
doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list);

/*
 * List the representors an open DPU-side device manages that match `filter`
 * (a bitmap of enum doca_devinfo_rep_filter values).  Host-side devices have
 * no representors: DOCA_ERROR_NOT_SUPPORTED.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev,
					  int filter,
					  struct doca_devinfo_rep ***dev_list_rep,
					  uint32_t *nb_devs_rep);

/* Release a representor list; representors opened from it stay open. */
DOCA_STABLE
doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep);

/*
 * Open the device described by `devinfo`.  If it is already open in this
 * process the same handle is returned with its reference count raised.
 */
DOCA_STABLE
doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev);

/*
 * Drop one reference.  Dropping the last one while mmaps, contexts or
 * representors still depend on the device fails with DOCA_ERROR_IN_USE.
 * A NULL device is accepted and ignored.
 */
DOCA_STABLE
doca_error_t doca_dev_close(struct doca_dev *dev);

/* Ask the device to keep resources cached for a quick restart. */
DOCA_EXPERIMENTAL
doca_error_t doca_dev_accelerate_resource_reclaim(struct doca_dev *dev);

/* Open a representor; each call returns a new handle. */
DOCA_STABLE
doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo, struct doca_dev_rep **dev_rep);

/* Close a representor handle; refused while objects created on it exist. */
DOCA_STABLE
doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev);

/* The description of an open device; valid until its last close. */
DOCA_STABLE
struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev);

/* The description of an open representor; valid until it is closed. */
DOCA_STABLE
struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep);

/* Buffer sizes for the device property getters (strings count their NUL). */
#define DOCA_DEVINFO_VUID_SIZE 128
#define DOCA_DEVINFO_IPV4_ADDR_SIZE 4
#define DOCA_DEVINFO_IPV6_ADDR_SIZE 16
#define DOCA_DEVINFO_MAC_ADDR_SIZE 6
#define DOCA_DEVINFO_IFACE_NAME_SIZE 256
#define DOCA_DEVINFO_IBDEV_NAME_SIZE 64
#define DOCA_DEVINFO_PCI_ADDR_SIZE 13
#define DOCA_DEVINFO_PCI_BDF_SIZE 8

/* Write the "dddd:bb:dd.f" address (13 bytes with the NUL). */
DOCA_STABLE
doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str);

/* Compare with "dddd:bb:dd.f" or "bb:dd.f" (domain 0); *is_equal = 1 on a match. */
DOCA_STABLE
doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo,
					    const char *pci_addr_str,
					    uint8_t *is_equal);

/* The device's IPv4 address in network order; DOCA_ERROR_NOT_FOUND if none. */
DOCA_STABLE
doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo, uint8_t *ipv4_addr, uint32_t size);

/* The device's IPv6 address in network order; DOCA_ERROR_NOT_FOUND if none. */
DOCA_STABLE
doca_error_t doca_devinfo_get_ipv6_addr(const struct doca_devinfo *devinfo, uint8_t *ipv6_addr, uint32_t size);

/* The six bytes of the device's MAC address. */
DOCA_STABLE
doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr, uint32_t size);

/* The network interface name; `size` must be at least DOCA_DEVINFO_IFACE_NAME_SIZE. */
DOCA_STABLE
doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size);

/* The IB device name; `size` must be at least DOCA_DEVINFO_IBDEV_NAME_SIZE. */
DOCA_STABLE
doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size);

/* The port LID; only InfiniBand ports have one. */
DOCA_STABLE
doca_error_t doca_devinfo_get_lid(const struct doca_devinfo *devinfo, uint16_t *lid);

/* The port's active rate in bits per second. */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo, uint64_t *active_rate);

/* The function's vhca id. */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_vhca_id(const struct doca_devinfo *devinfo, uint16_t *vhca_id);

/* Whether the local function is a physical, virtual or sub-function (DOCA 3.1). */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo,
					    enum doca_pci_func_type *pci_func_type);

/*
 * The index of a sub-function (the N of its auxiliary device mlx5_core.sf.N)
 * (DOCA 3.1).  Fails with DOCA_ERROR_NOT_SUPPORTED for a function that is no
 * sub-function.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index);

/* Capability answers: 1 when supported, 0 when not. */
DOCA_STABLE
doca_error_t doca_devinfo_cap_is_hotplug_manager_supported(const struct doca_devinfo *devinfo,
							   uint8_t *is_hotplug_manager);

DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_cap_is_notification_moderation_supported(const struct doca_devinfo *devinfo,
								   uint8_t *is_notification_moderation_supported);

/* Representor listing capabilities; DOCA_ERROR_NOT_SUPPORTED on host-side devices. */
DOCA_STABLE
doca_error_t doca_devinfo_rep_cap_is_filter_all_supported(const struct doca_devinfo *devinfo,
							  uint8_t *filter_all_supported);

DOCA_STABLE
doca_error_t doca_devinfo_rep_cap_is_filter_net_supported(const struct doca_devinfo *devinfo,
							  uint8_t *filter_net_supported);

DOCA_STABLE
doca_error_t doca_devinfo_rep_cap_is_filter_emulated_supported(const struct doca_devinfo *devinfo,
							       uint8_t *filter_emulated_supported);

DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_cap_is_accelerate_resource_reclaim_supported(const struct doca_devinfo *devinfo,
								       uint8_t *is_accelerate_resource_reclaim);

/* Buffer sizes for the representor property getters. */
#define DOCA_DEVINFO_REP_VUID_SIZE 128
#define DOCA_DEVINFO_REP_PCI_ADDR_SIZE 13
#define DOCA_DEVINFO_REP_PCI_BDF_SIZE 8

/* The representor's vendor unique id; `size` counts the NUL. */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid, uint32_t size);

/* The PCI address of the function the representor stands for. */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep, char *pci_addr_str);

/* Physical function, virtual function or sub-function. */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_pci_func_type(const struct doca_devinfo_rep *devinfo_rep,
						enum doca_pci_func_type *pci_func_type);

/* 1 when the represented function was hot-plugged. */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_is_hotplug(const struct doca_devinfo_rep *devinfo_rep, uint8_t *is_hotplug);

/* The representor's network interface name. */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_rep_get_iface_name(const struct doca_devinfo_rep *devinfo_rep,
					     char *iface_name,
					     uint32_t size);

/* The vhca id of the represented function. */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_rep_get_vhca_id(const struct doca_devinfo_rep *devinfo_rep, uint16_t *vhca_id);

/* Compare the represented function's address with a PCI address string. */
DOCA_STABLE
doca_error_t doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep,
						const char *pci_addr_str,
						uint8_t *is_equal);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DEV_H_ */
