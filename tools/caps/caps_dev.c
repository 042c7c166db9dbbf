/*
 * caps_dev.c - attributes of local devices and of their representors.
 *
 * A device's side is not an attribute of the API: a program tells a
 * DPU-side function from a host-side one by whether it can list
 * representors, and so does this tool.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "caps.h"

const char *caps_dev_side(const struct doca_devinfo *devinfo)
{
	uint8_t supported = 0;
	doca_error_t err = doca_devinfo_rep_cap_is_filter_all_supported(devinfo, &supported);

	/* Host-side functions answer NOT_SUPPORTED: they have no representors. */
	return err == DOCA_SUCCESS ? "dpu" : "host";
}

static void print_names(struct doca_devinfo *devinfo, int depth)
{
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char iface[DOCA_DEVINFO_IFACE_NAME_SIZE];
	char buf[80];
	doca_error_t err;

	err = doca_devinfo_get_ibdev_name(devinfo, ibdev, sizeof(ibdev));
	caps_kv(depth, "ibdev_name", "%s", err == DOCA_SUCCESS ? ibdev : caps_err_text(err, buf, sizeof(buf)));
	err = doca_devinfo_get_iface_name(devinfo, iface, sizeof(iface));
	caps_kv(depth, "iface_name", "%s", err == DOCA_SUCCESS ? iface : caps_err_text(err, buf, sizeof(buf)));
}

static void print_addresses(struct doca_devinfo *devinfo, int depth)
{
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE];
	uint8_t ip4[DOCA_DEVINFO_IPV4_ADDR_SIZE];
	uint8_t ip6[DOCA_DEVINFO_IPV6_ADDR_SIZE];
	char text[INET6_ADDRSTRLEN];
	char buf[80];
	doca_error_t err;

	err = doca_devinfo_get_mac_addr(devinfo, mac, sizeof(mac));
	if (err == DOCA_SUCCESS)
		caps_kv(depth, "mac_addr", "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
			mac[5]);
	else
		caps_kv(depth, "mac_addr", "%s", caps_err_text(err, buf, sizeof(buf)));

	err = doca_devinfo_get_ipv4_addr(devinfo, ip4, sizeof(ip4));
	if (err == DOCA_SUCCESS && inet_ntop(AF_INET, ip4, text, sizeof(text)) != NULL)
		caps_kv(depth, "ipv4_addr", "%s", text);
	else
		caps_kv(depth, "ipv4_addr", "%s", err == DOCA_ERROR_NOT_FOUND ? "none" : caps_err_text(err, buf, 80));

	err = doca_devinfo_get_ipv6_addr(devinfo, ip6, sizeof(ip6));
	if (err == DOCA_SUCCESS && inet_ntop(AF_INET6, ip6, text, sizeof(text)) != NULL)
		caps_kv(depth, "ipv6_addr", "%s", text);
	else
		caps_kv(depth, "ipv6_addr", "%s", err == DOCA_ERROR_NOT_FOUND ? "none" : caps_err_text(err, buf, 80));
}

static void print_link(struct doca_devinfo *devinfo, int depth)
{
	uint16_t lid = 0;
	uint16_t vhca = 0;
	uint64_t rate = 0;
	char buf[80];
	doca_error_t err;

	err = doca_devinfo_get_lid(devinfo, &lid);
	caps_kv_u64(depth, "lid", err, lid);
	err = doca_devinfo_get_vhca_id(devinfo, &vhca);
	caps_kv_u64(depth, "vhca_id", err, vhca);
	err = doca_devinfo_get_active_rate(devinfo, &rate);
	if (err != DOCA_SUCCESS)
		caps_kv(depth, "active_rate", "%s", caps_err_text(err, buf, sizeof(buf)));
	else if (rate % 1000000000ULL == 0)
		caps_kv(depth, "active_rate", "%" PRIu64 " Gb/s", (uint64_t)(rate / 1000000000U));
	else
		caps_kv(depth, "active_rate", "%" PRIu64 " b/s", rate);
}

static void print_dev_caps(struct doca_devinfo *devinfo, int depth)
{
	uint8_t v = 0;
	doca_error_t err;

	err = doca_devinfo_rep_cap_is_filter_all_supported(devinfo, &v);
	caps_kv_bool(depth, "rep_filter_all", err, v);
	v = 0;
	err = doca_devinfo_rep_cap_is_filter_net_supported(devinfo, &v);
	caps_kv_bool(depth, "rep_filter_net", err, v);
	v = 0;
	err = doca_devinfo_rep_cap_is_filter_emulated_supported(devinfo, &v);
	caps_kv_bool(depth, "rep_filter_emulated", err, v);
	v = 0;
	err = doca_devinfo_cap_is_hotplug_manager_supported(devinfo, &v);
	caps_kv_bool(depth, "hotplug_manager", err, v);
	v = 0;
	err = doca_devinfo_cap_is_notification_moderation_supported(devinfo, &v);
	caps_kv_bool(depth, "notification_moderation", err, v);
	v = 0;
	err = doca_devinfo_cap_is_accelerate_resource_reclaim_supported(devinfo, &v);
	caps_kv_bool(depth, "accelerate_resource_reclaim", err, v);
}

void caps_print_dev_attrs(struct doca_devinfo *devinfo, int depth)
{
	print_names(devinfo, depth);
	print_addresses(devinfo, depth);
	print_link(devinfo, depth);
	/* The side is softdoca's deduction, not an attribute NVIDIA's tool prints. */
	if (caps_output_style == CAPS_STYLE_SOFTDOCA)
		caps_kv(depth, "side", "%s", caps_dev_side(devinfo));
	print_dev_caps(devinfo, depth);
}

/* ---- representors ---- */

static const char *func_type_name(enum doca_pci_func_type type)
{
	switch (type) {
	case DOCA_PCI_FUNC_TYPE_PF:
		return "PF";
	case DOCA_PCI_FUNC_TYPE_VF:
		return "VF";
	case DOCA_PCI_FUNC_TYPE_SF:
		return "SF";
	}
	return "unknown";
}

/* Whether the representor at `pci` is listed by `filter` on `dev`. */
static bool listed_by(struct doca_dev *dev, int filter, const char *pci)
{
	struct doca_devinfo_rep **list = NULL;
	uint32_t n = 0;
	bool found = false;

	if (doca_devinfo_rep_create_list(dev, filter, &list, &n) != DOCA_SUCCESS)
		return false;
	for (uint32_t i = 0; i < n && !found; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_rep_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			found = true;
	}
	doca_devinfo_rep_destroy_list(list);
	return found;
}

/* The kind is not an attribute either: it is which filter lists the representor. */
static const char *rep_kind(struct doca_dev *dev, const char *pci)
{
	const struct doca_devinfo *info = doca_dev_as_devinfo(dev);
	uint8_t net = 0;
	uint8_t emu = 0;

	if (doca_devinfo_rep_cap_is_filter_net_supported(info, &net) == DOCA_SUCCESS && net &&
	    listed_by(dev, DOCA_DEVINFO_REP_FILTER_NET, pci))
		return "net";
	if (doca_devinfo_rep_cap_is_filter_emulated_supported(info, &emu) == DOCA_SUCCESS && emu &&
	    listed_by(dev, DOCA_DEVINFO_REP_FILTER_EMULATED, pci))
		return "emulated";
	return "unknown";
}

static void print_one_rep(struct doca_dev *dev, struct doca_devinfo_rep *rep, int depth)
{
	char pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE] = "";
	char vuid[DOCA_DEVINFO_REP_VUID_SIZE];
	char iface[DOCA_DEVINFO_IFACE_NAME_SIZE];
	char buf[80];
	enum doca_pci_func_type type = DOCA_PCI_FUNC_TYPE_PF;
	uint8_t hotplug = 0;
	uint16_t vhca = 0;
	doca_error_t err;

	err = doca_devinfo_rep_get_pci_addr_str(rep, pci);
	printf("Representor PCI: %s\n", err == DOCA_SUCCESS ? pci : caps_err_text(err, buf, sizeof(buf)));
	err = doca_devinfo_rep_get_vuid(rep, vuid, sizeof(vuid));
	caps_kv(depth + 1, "vuid", "%s", err == DOCA_SUCCESS ? vuid : caps_err_text(err, buf, sizeof(buf)));
	err = doca_devinfo_rep_get_iface_name(rep, iface, sizeof(iface));
	caps_kv(depth + 1, "iface_name", "%s", err == DOCA_SUCCESS ? iface : caps_err_text(err, buf, sizeof(buf)));
	err = doca_devinfo_rep_get_pci_func_type(rep, &type);
	caps_kv(depth + 1, "pci_func_type", "%s",
		err == DOCA_SUCCESS ? func_type_name(type) : caps_err_text(err, buf, sizeof(buf)));
	err = doca_devinfo_rep_get_is_hotplug(rep, &hotplug);
	caps_kv(depth + 1, "is_hotplug", "%s", err == DOCA_SUCCESS ? (hotplug ? "yes" : "no") : caps_err_text(err, buf, 80));
	err = doca_devinfo_rep_get_vhca_id(rep, &vhca);
	caps_kv_u64(depth + 1, "vhca_id", err, vhca);
	if (caps_output_style == CAPS_STYLE_SOFTDOCA)
		caps_kv(depth + 1, "kind", "%s", pci[0] != '\0' ? rep_kind(dev, pci) : "unknown");
}

void caps_print_reps(struct doca_dev *dev, int depth)
{
	struct doca_devinfo_rep **list = NULL;
	uint32_t n = 0;
	char buf[80];
	doca_error_t err;

	bool softdoca = caps_output_style == CAPS_STYLE_SOFTDOCA;

	/* A host-side function has no representors: doca_caps lists none. */
	if (caps_dev_side(doca_dev_as_devinfo(dev))[0] == 'h') {
		if (softdoca)
			caps_kv(depth, "representors", "none (host-side device)");
		return;
	}
	err = doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &list, &n);
	if (err != DOCA_SUCCESS) {
		caps_kv(depth, "representors", "%s", caps_err_text(err, buf, sizeof(buf)));
		return;
	}
	if (softdoca)
		caps_kv(depth, "representors", "%u", n);
	for (uint32_t i = 0; i < n; i++) {
		for (int d = 0; d < depth; d++)
			putchar('\t');
		print_one_rep(dev, list[i], depth);
	}
	doca_devinfo_rep_destroy_list(list);
}
