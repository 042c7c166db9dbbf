/**
 * @file doca_dev.h
 * @brief Local devices, device descriptions and representors.
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

/**
 * @struct doca_devinfo
 * The read-only description of one local device: from the list of
 * doca_devinfo_create_list() (valid until that list is destroyed) or from
 * doca_dev_as_devinfo() (valid while the device is open).  Never freed on its own.
 */
struct doca_devinfo;
/**
 * @struct doca_devinfo_rep
 * The read-only description of a representor (a host function seen from the
 * DPU), listed through an open DPU-side device.  Valid until its list is
 * destroyed, or while a representor opened from it stays open.
 */
struct doca_devinfo_rep;

/**
 * @struct doca_dev
 * An opened local device.  Opening the same device again in a process gives
 * the same handle with one more reference; each doca_dev_open() is matched by
 * one doca_dev_close().
 */
struct doca_dev;
/**
 * @struct doca_dev_rep
 * An opened representor; each doca_dev_rep_open() gives its own handle,
 * closed with doca_dev_rep_close().
 */
struct doca_dev_rep;

/**
 * Which kinds of representors doca_devinfo_rep_create_list() returns; bits may be combined.
 */
enum doca_devinfo_rep_filter {
	DOCA_DEVINFO_REP_FILTER_ALL = 0, /**< every representor */
	DOCA_DEVINFO_REP_FILTER_NET = 1 << 1, /**< network representors (of PFs, VFs, SFs) */
	DOCA_DEVINFO_REP_FILTER_EMULATED = 1 << 2, /**< representors of emulated functions */
};

/**
 * @brief Builds a fresh list of every local device, sorted by PCI address.
 *
 * softdoca's devices come from its topology (the built-in one, or the file
 * named by SOFTDOCA_TOPOLOGY).  Any thread.
 *
 * @param dev_list receives an array of @p nb_devs descriptions; the caller
 * owns the list and releases it with doca_devinfo_destroy_list().
 * @param nb_devs receives the number of devices.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NO_MEMORY when the list cannot be allocated;
 * DOCA_ERROR_NOT_FOUND when the device topology cannot be loaded (the log names the file, line and problem).
 */
DOCA_STABLE
doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs);

/**
 * @brief Releases a device list and every description in it.
 *
 * Devices opened from it stay open (their description lives on through
 * doca_dev_as_devinfo()).
 *
 * @param dev_list a list from doca_devinfo_create_list().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p dev_list is NULL or not such a list.
 */
DOCA_STABLE
doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list);

/**
 * @brief Lists the representors an open DPU-side device manages.
 *
 * @param dev an open device.
 * @param filter DOCA_DEVINFO_REP_FILTER_ALL, or an OR of the other enum doca_devinfo_rep_filter bits.
 * @param dev_list_rep receives the array; the caller owns it and releases it
 * with doca_devinfo_rep_destroy_list().
 * @param nb_devs_rep receives the number of representors (0 when none matches).
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or the filter has unknown bits;
 * DOCA_ERROR_NOT_SUPPORTED when the device has no representors (every host-side
 * device) or cannot list that kind;
 * DOCA_ERROR_NO_MEMORY when the list cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev,
					  int filter,
					  struct doca_devinfo_rep ***dev_list_rep,
					  uint32_t *nb_devs_rep);

/**
 * @brief Releases a representor list; representors opened from it stay open.
 *
 * @param dev_list_rep a list from doca_devinfo_rep_create_list().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL or not such a list.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep);

/**
 * @brief Opens the device a description names.
 *
 * When the device is already open in this process, the same handle comes
 * back with one more reference.
 *
 * @param devinfo a description from a device list.
 * @param dev receives the device; close it with doca_dev_close().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or the description is not one of softdoca's;
 * DOCA_ERROR_NO_MEMORY when the device cannot be allocated;
 * DOCA_ERROR_NOT_CONNECTED when the device cannot be opened.
 */
DOCA_STABLE
doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev);

/**
 * @brief Drops one reference of an open device; the last one closes it.
 *
 * Destroy first the mmaps, contexts and representors that depend on the
 * device: the last close is refused while any remains.
 *
 * @param dev the device; NULL is accepted and ignored.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_IN_USE when the last reference is dropped while objects still
 * depend on the device (the log names them; nothing changes).
 */
DOCA_STABLE
doca_error_t doca_dev_close(struct doca_dev *dev);

/**
 * @brief Asks the device to keep resources cached so that contexts restart faster.
 *
 * softdoca has nothing to cache.
 *
 * @param dev an open device.
 * @return DOCA_SUCCESS when the device's profile offers it (nothing else happens);
 * DOCA_ERROR_INVALID_VALUE when @p dev is NULL;
 * DOCA_ERROR_NOT_SUPPORTED when it does not (see
 * doca_devinfo_cap_is_accelerate_resource_reclaim_supported()).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_dev_accelerate_resource_reclaim(struct doca_dev *dev);

/**
 * @brief Opens a representor; every call gives a new handle.
 *
 * @param devinfo a representor description from doca_devinfo_rep_create_list().
 * @param dev_rep receives the handle; close it with doca_dev_rep_close().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL or the description is not one of softdoca's;
 * DOCA_ERROR_NO_MEMORY when the handle cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo, struct doca_dev_rep **dev_rep);

/**
 * @brief Closes a representor handle.
 *
 * @param dev the handle.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when it is NULL or not an open representor;
 * DOCA_ERROR_IN_USE while objects created on it still exist.
 */
DOCA_STABLE
doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev);

/**
 * @brief The description of an open device.
 *
 * @param dev the device.
 * @return the description, owned by the device and valid until its last close; NULL for NULL.
 */
DOCA_STABLE
struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev);

/**
 * @brief The description of an open representor.
 *
 * @param dev_rep the representor.
 * @return the description, valid until the representor is closed; NULL for NULL.
 */
DOCA_STABLE
struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep);

/* Buffer sizes for the device property getters (strings count their NUL). */
/** Room for a device vendor unique id, NUL included. */
#define DOCA_DEVINFO_VUID_SIZE 128
/** Room for an IPv4 address (doca_devinfo_get_ipv4_addr()). */
#define DOCA_DEVINFO_IPV4_ADDR_SIZE 4
/** Room for an IPv6 address (doca_devinfo_get_ipv6_addr()). */
#define DOCA_DEVINFO_IPV6_ADDR_SIZE 16
/** Room for a MAC address (doca_devinfo_get_mac_addr()). */
#define DOCA_DEVINFO_MAC_ADDR_SIZE 6
/** Room for a network interface name, NUL included. */
#define DOCA_DEVINFO_IFACE_NAME_SIZE 256
/** Room for an RDMA device name, NUL included. */
#define DOCA_DEVINFO_IBDEV_NAME_SIZE 64
/** Room for a PCI address "dddd:bb:dd.f", NUL included. */
#define DOCA_DEVINFO_PCI_ADDR_SIZE 13
/** Room for a short PCI address "bb:dd.f", NUL included. */
#define DOCA_DEVINFO_PCI_BDF_SIZE 8

/**
 * @brief Writes the device's PCI address as "dddd:bb:dd.f".
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param pci_addr_str receives it: at least DOCA_DEVINFO_PCI_ADDR_SIZE bytes, NUL included.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str);

/**
 * @brief Whether a PCI address string designates the device.
 *
 * Accepts "dddd:bb:dd.f" and the short "bb:dd.f" (domain 0).
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param pci_addr_str the address to compare.
 * @param is_equal receives 1 on a match, 0 otherwise.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or the string does not parse.
 */
DOCA_STABLE
doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo,
					    const char *pci_addr_str,
					    uint8_t *is_equal);

/**
 * @brief The device's IPv4 address, in network byte order.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param ipv4_addr receives 4 bytes.
 * @param size the room at @p ipv4_addr.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p size is below DOCA_DEVINFO_IPV4_ADDR_SIZE;
 * DOCA_ERROR_NOT_FOUND when the device has no IPv4 address (no emulated device has one).
 */
DOCA_STABLE
doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo, uint8_t *ipv4_addr, uint32_t size);

/**
 * @brief The device's IPv6 address, in network byte order.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param ipv6_addr receives 16 bytes.
 * @param size the room at @p ipv6_addr.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p size is below DOCA_DEVINFO_IPV6_ADDR_SIZE;
 * DOCA_ERROR_NOT_FOUND when the device has no IPv6 address.
 */
DOCA_STABLE
doca_error_t doca_devinfo_get_ipv6_addr(const struct doca_devinfo *devinfo, uint8_t *ipv6_addr, uint32_t size);

/**
 * @brief The six bytes of the device's MAC address.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param mac_addr receives the address.
 * @param size the room at @p mac_addr.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p size is below DOCA_DEVINFO_MAC_ADDR_SIZE;
 * DOCA_ERROR_NOT_SUPPORTED when the port is not Ethernet.
 */
DOCA_STABLE
doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr, uint32_t size);

/**
 * @brief The device's network interface name (as `ip link` shows it).
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param iface_name receives the NUL-terminated name.
 * @param size the room at @p iface_name.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p size is below DOCA_DEVINFO_IFACE_NAME_SIZE;
 * DOCA_ERROR_OPERATING_SYSTEM when the device has no network interface.
 */
DOCA_STABLE
doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size);

/**
 * @brief The device's RDMA device name (for example mlx5_0).
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param ibdev_name receives the NUL-terminated name.
 * @param size the room at @p ibdev_name.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p size is below DOCA_DEVINFO_IBDEV_NAME_SIZE.
 */
DOCA_STABLE
doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size);

/**
 * @brief The port's InfiniBand local identifier.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param lid receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_SUPPORTED when the port is not InfiniBand (every emulated port is Ethernet).
 */
DOCA_STABLE
doca_error_t doca_devinfo_get_lid(const struct doca_devinfo *devinfo, uint16_t *lid);

/**
 * @brief The port's active rate in bits per second (100 Gb/s unless the topology says otherwise).
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param active_rate receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo, uint64_t *active_rate);

/**
 * @brief The function's vhca id (unique per emulated device).
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param vhca_id receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_vhca_id(const struct doca_devinfo *devinfo, uint16_t *vhca_id);

/**
 * @brief Whether the device is a physical, virtual or scalable function (DOCA 3.1).
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param pci_func_type receives the kind.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo,
					    enum doca_pci_func_type *pci_func_type);

/**
 * @brief The index of a scalable function: the N of its mlx5_core.sf.N auxiliary device (DOCA 3.1).
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param sf_index receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_SUPPORTED when the device is not a scalable function (every built-in one is a PF).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index);

/**
 * @brief Whether the device can manage hot-plugged functions.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param is_hotplug_manager receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_devinfo_cap_is_hotplug_manager_supported(const struct doca_devinfo *devinfo,
							   uint8_t *is_hotplug_manager);

/**
 * @brief Whether the device can moderate completion notifications.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param is_notification_moderation_supported receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_cap_is_notification_moderation_supported(const struct doca_devinfo *devinfo,
								   uint8_t *is_notification_moderation_supported);

/**
 * @brief Whether the device can list all its representors.
 *
 * Programs use it to tell a DPU-side device from a host-side one.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param filter_all_supported receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_SUPPORTED on a host-side device.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_cap_is_filter_all_supported(const struct doca_devinfo *devinfo,
							  uint8_t *filter_all_supported);

/**
 * @brief Whether the device can list its network representors.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param filter_net_supported receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_SUPPORTED on a host-side device.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_cap_is_filter_net_supported(const struct doca_devinfo *devinfo,
							  uint8_t *filter_net_supported);

/**
 * @brief Whether the device can list its emulated-function representors.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param filter_emulated_supported receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_NOT_SUPPORTED on a host-side device.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_cap_is_filter_emulated_supported(const struct doca_devinfo *devinfo,
							       uint8_t *filter_emulated_supported);

/**
 * @brief Whether doca_dev_accelerate_resource_reclaim() is available on the device.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo the device description.
 * @param is_accelerate_resource_reclaim receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_cap_is_accelerate_resource_reclaim_supported(const struct doca_devinfo *devinfo,
								       uint8_t *is_accelerate_resource_reclaim);

/* Buffer sizes for the representor property getters. */
/** Room for a representor vendor unique id, NUL included. */
#define DOCA_DEVINFO_REP_VUID_SIZE 128
/** Room for a representor PCI address "dddd:bb:dd.f", NUL included. */
#define DOCA_DEVINFO_REP_PCI_ADDR_SIZE 13
/** Room for a short representor PCI address "bb:dd.f", NUL included. */
#define DOCA_DEVINFO_REP_PCI_BDF_SIZE 8

/**
 * @brief The representor's vendor unique id: a stable name of the represented function.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo_rep the representor description.
 * @param rep_vuid receives the NUL-terminated id.
 * @param size the room at @p rep_vuid, NUL included.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p size is too small for the id.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid, uint32_t size);

/**
 * @brief The PCI address of the function the representor stands for, as "dddd:bb:dd.f".
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo_rep the representor description.
 * @param pci_addr_str receives it: at least DOCA_DEVINFO_REP_PCI_ADDR_SIZE bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep, char *pci_addr_str);

/**
 * @brief Whether the represented function is a physical, virtual or scalable function.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo_rep the representor description.
 * @param pci_func_type receives the kind.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_pci_func_type(const struct doca_devinfo_rep *devinfo_rep,
						enum doca_pci_func_type *pci_func_type);

/**
 * @brief Whether the represented function was hot-plugged.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo_rep the representor description.
 * @param is_hotplug receives 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_get_is_hotplug(const struct doca_devinfo_rep *devinfo_rep, uint8_t *is_hotplug);

/**
 * @brief The representor's network interface name.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo_rep the representor description.
 * @param iface_name receives the NUL-terminated name.
 * @param size the room at @p iface_name.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or @p size is below DOCA_DEVINFO_IFACE_NAME_SIZE;
 * DOCA_ERROR_OPERATING_SYSTEM when the representor has no network interface.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_rep_get_iface_name(const struct doca_devinfo_rep *devinfo_rep,
					     char *iface_name,
					     uint32_t size);

/**
 * @brief The vhca id of the represented function.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo_rep the representor description.
 * @param vhca_id receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_devinfo_rep_get_vhca_id(const struct doca_devinfo_rep *devinfo_rep, uint16_t *vhca_id);

/**
 * @brief Whether a PCI address string designates the represented function.
 *
 * Reads the device description: any time, any thread, for as long as the
 * description lives.
 *
 * @param devinfo_rep the representor description.
 * @param pci_addr_str the address to compare ("dddd:bb:dd.f" or "bb:dd.f").
 * @param is_equal receives 1 on a match, 0 otherwise.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL or the string does not parse.
 */
DOCA_STABLE
doca_error_t doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep,
						const char *pci_addr_str,
						uint8_t *is_equal);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DEV_H_ */
