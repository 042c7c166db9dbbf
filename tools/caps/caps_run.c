/*
 * caps_run.c - what both caps tools do once their command line is read:
 * the library list and the device blocks, in the style of the tool.
 */
#include <stdio.h>
#include <stdlib.h>

#include <doca_log.h>

#include "caps.h"

static bool matches(const struct caps_options *opts, struct doca_devinfo *info)
{
	uint8_t eq = 0;

	if (opts->pci_addr == NULL)
		return true;
	return doca_devinfo_is_equal_pci_addr(info, opts->pci_addr, &eq) == DOCA_SUCCESS && eq;
}

/* One device block in the form the options ask for. */
static void print_device(const struct caps_options *opts, struct doca_devinfo *info,
			 const struct tool_comch_lib *comch)
{
	bool everything = !opts->list_devs && !opts->list_rep_devs;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE] = "?";
	struct doca_dev *dev = NULL;
	doca_error_t err;

	(void)doca_devinfo_get_pci_addr_str(info, pci);
	printf("PCI: %s\n", pci);
	if (everything || opts->list_devs)
		caps_print_dev_attrs(info, 1);
	if (!everything && !opts->list_rep_devs)
		return;
	err = doca_dev_open(info, &dev);
	if (err != DOCA_SUCCESS) {
		printf("\tcannot open the device: %s\n", doca_error_get_name(err));
		return;
	}
	caps_print_reps(dev, 1);
	if (everything)
		caps_print_lib_caps(dev, 1, comch);
	(void)doca_dev_close(dev);
}

/*
 * Show the SDK's own ERROR records.  Used only after listing failed: the
 * retried call then repeats the record that says why (a refused topology
 * file names the file, the line and the problem).  Capability answers such
 * as "no IPv4 address" are failed calls too, so the backend is not there
 * while the devices are printed.
 */
static void sdk_errors_to_stderr(void)
{
	struct doca_log_backend *backend = NULL;

	if (doca_log_backend_create_with_file_sdk(stderr, &backend) == DOCA_SUCCESS)
		(void)doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_ERROR);
}

static int print_devices(const struct caps_options *opts, const struct tool_comch_lib *comch, const char *tool)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	uint32_t shown = 0;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS) {
		sdk_errors_to_stderr();
		if (doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS)
			doca_devinfo_destroy_list(list);
		fprintf(stderr, "%s: cannot list the devices: %s%s\n", tool, doca_error_get_name(err),
			getenv("SOFTDOCA_TOPOLOGY") != NULL ? " (check the SOFTDOCA_TOPOLOGY file)" : "");
		return CAPS_FAILED;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!matches(opts, list[i]))
			continue;
		if (shown++ > 0)
			putchar('\n');
		print_device(opts, list[i], comch);
	}
	doca_devinfo_destroy_list(list);
	if (n == 0 && opts->pci_addr == NULL)
		printf("No DOCA devices.\n");
	if (shown == 0 && opts->pci_addr != NULL) {
		fprintf(stderr, "%s: no device with PCI address %s\n", tool, opts->pci_addr);
		return CAPS_FAILED;
	}
	return CAPS_OK;
}

int caps_run(const struct caps_options *opts, const char *tool)
{
	struct tool_comch_lib comch;
	char why[512];
	bool only_libs = opts->list_libs && !opts->list_devs && !opts->list_rep_devs;
	int rc = CAPS_OK;

	(void)tool_comch_open(&comch, why, sizeof(why));
	if (opts->list_libs) {
		caps_print_libs(&comch);
		if (!only_libs)
			putchar('\n');
	}
	if (!only_libs)
		rc = print_devices(opts, &comch, tool);
	tool_comch_close(&comch);
	return rc;
}
