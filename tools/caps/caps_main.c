/*
 * softdoca-caps - the counterpart of doca_caps: which DOCA devices,
 * representors and libraries this machine offers, and what each device can
 * do in each library, as a DOCA program would see it.
 *
 * Exit status: 0 done; 1 usage error; 2 the devices could not be listed
 * (for instance a refused SOFTDOCA_TOPOLOGY file) or --pci-addr matched
 * no device; 3 --check found a mismatch.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>
#include <doca_version.h>

#include "caps.h"
#include "tool_pci.h"

#ifndef SD_TOOLS_VERSION
#define SD_TOOLS_VERSION "unknown"
#endif

enum caps_exit { CAPS_OK = 0, CAPS_USAGE = 1, CAPS_FAILED = 2 };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: softdoca-caps [OPTIONS]\n"
		"Print the DOCA devices, representors and libraries of this machine and the\n"
		"capabilities of every device in every library (read through the DOCA API).\n"
		"\n"
		"  -d, --list-devs        devices and their attributes only\n"
		"  -r, --list-rep-devs    representors of every device, with their attributes\n"
		"  -l, --list-libs        DOCA libraries and whether they are present\n"
		"  -p, --pci-addr ADDR    only the device at ADDR (dddd:bb:dd.f or bb:dd.f)\n"
		"      --check            whether this DOCA install fits together: the headers a\n"
		"                         program compiles against, the .pc files pkg-config finds,\n"
		"                         the libraries that load and this tool must be one version;\n"
		"                         prints what differs and how to fix it (exit status 3)\n"
		"  -v, --version          softdoca version and DOCA API level\n"
		"  -h, --help             this text\n"
		"\n"
		"Without a listing option: every device with its attributes, representors\n"
		"and its ctx, dma, mmap, mmap_advise and comch capabilities.\n"
		"The devices come from the emulated topology (SOFTDOCA_TOPOLOGY, see\n"
		"docs/topology.md).\n");
}

static int usage_error(const char *fmt, const char *arg) __attribute__((format(printf, 1, 0)));

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "softdoca-caps: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'softdoca-caps --help'.\n");
	return CAPS_USAGE;
}

static void print_version(void)
{
	printf("softdoca-caps (softdoca %s)\n", SD_TOOLS_VERSION);
	printf("DOCA API level %s (headers), %s (libdoca_common at run time)\n", doca_version(),
	       doca_version_runtime());
}

static int parse_args(int argc, char **argv, struct caps_options *opts, bool *done)
{
	static const struct option longopts[] = {
		{"list-devs", no_argument, NULL, 'd'}, {"list-rep-devs", no_argument, NULL, 'r'},
		{"list-libs", no_argument, NULL, 'l'}, {"pci-addr", required_argument, NULL, 'p'},
		{"version", no_argument, NULL, 'v'},   {"help", no_argument, NULL, 'h'},
		{"check", no_argument, NULL, 'C'},
		{NULL, 0, NULL, 0},
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":drlp:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			opts->list_devs = true;
			break;
		case 'r':
			opts->list_rep_devs = true;
			break;
		case 'l':
			opts->list_libs = true;
			break;
		case 'p':
			if (!tool_pci_addr_valid(optarg))
				return usage_error("'%s' is not a PCI address (use dddd:bb:dd.f or bb:dd.f)", optarg);
			opts->pci_addr = optarg;
			break;
		case 'C':
			opts->check = true;
			break;
		case 'v':
			print_version();
			*done = true;
			return CAPS_OK;
		case 'h':
			usage(stdout);
			*done = true;
			return CAPS_OK;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return CAPS_OK;
}

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

static int print_devices(const struct caps_options *opts, const struct tool_comch_lib *comch)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	uint32_t shown = 0;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS) {
		sdk_errors_to_stderr();
		if (doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS)
			doca_devinfo_destroy_list(list);
		fprintf(stderr, "softdoca-caps: cannot list the devices: %s%s\n", doca_error_get_name(err),
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
		fprintf(stderr, "softdoca-caps: no device with PCI address %s\n", opts->pci_addr);
		return CAPS_FAILED;
	}
	return CAPS_OK;
}

int main(int argc, char **argv)
{
	struct caps_options opts = {0};
	struct tool_comch_lib comch;
	char why[512];
	bool done = false;
	int rc = parse_args(argc, argv, &opts, &done);
	bool only_libs;

	if (rc != CAPS_OK || done)
		return rc;
	if (opts.check)
		return caps_check_run();
	(void)tool_comch_open(&comch, why, sizeof(why));
	only_libs = opts.list_libs && !opts.list_devs && !opts.list_rep_devs;
	if (opts.list_libs) {
		caps_print_libs(&comch);
		if (!only_libs)
			putchar('\n');
	}
	if (!only_libs)
		rc = print_devices(&opts, &comch);
	tool_comch_close(&comch);
	return rc;
}
